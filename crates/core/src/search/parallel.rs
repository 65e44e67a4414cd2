//! Parallel IDA*: every core on one instance, with the same solution as
//! [`idastar`](fn@super::idastar).
//!
//! Each iteration (f-bound) first walks the top of the tree in the sequential search's order,
//! with its pruning, down to a depth that yields a few hundred subtrees per thread. The subtrees
//! become jobs, numbered in that order, which the threads take from a shared counter and search
//! depth-first exactly as the sequential IDA* would (same move order, no inverse moves,
//! incremental heuristic). This is the tree splitting of Rao & Kumar's parallel IDA* (1987),
//! with jobs handed out dynamically because subtree sizes vary by orders of magnitude.
//!
//! Identical results: the sequential search returns the first solution in its depth-first
//! order, which lies in the lowest-numbered job holding one. A thread that finds a solution in
//! job `i` publishes `i`; threads working on jobs above `i` stop, threads below `i` finish. The
//! solution returned is the one of the lowest job, found by the sequential order inside it: the
//! sequential search's solution, move for move. When no job finds one, every job ran to its end,
//! so the next bound (the smallest f above the bound) is also the sequential one. Only the node
//! counts of the last iteration differ (jobs above the winner may have been searched in part).

use crate::clock::{Instant, Stopwatch};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use super::checkpoint::{digest, Checkpoint, CheckpointFile, JOBS_PER_THREAD_KEPT, SAVE_EVERY};
use super::idastar::{
    interlude, too_large, Between, Control, Engine, Job, Pruning, ABORTED, FOUND, MAX_CELLS,
    UNBOUNDED,
};
use crate::board::Board;
use crate::heuristic::Incremental;
use crate::limits::{LimitHit, Limits, Progress, ProgressFn, MAX_THREADS};
use crate::moves::Move;
use crate::solution::{Solution, SolveError, Stats};

/// Subtrees wanted per thread in each iteration: enough that one huge subtree rarely leaves
/// the other threads idle, few enough that splitting costs nothing measurable.
const JOBS_PER_THREAD: usize = 256;
/// Deepest split: beyond it the jobs are tiny anyway.
pub(crate) const MAX_SPLIT_DEPTH: u32 = 24;

/// The splitter's [`Control`]: collects the jobs of one iteration, in the sequential order.
struct Splitter<'a, A> {
    jobs: Vec<Job<A>>,
    limits: &'a Limits,
    /// Nodes generated before this split, for the node budget.
    before: u64,
    /// The limit that stopped the split.
    hit: Option<LimitHit>,
}

impl<A> Control<A> for Splitter<'_, A> {
    const SPLITS: bool = true;

    fn stop(&mut self, generated: u64, _expanded: u64, _bound: u32) -> bool {
        // The top of the tree is small (a few hundred nodes per thread), but a node budget
        // may be smaller still.
        self.hit = self.limits.check(self.before + generated).err();
        self.hit.is_some()
    }

    fn next_check(&self, generated: u64) -> u64 {
        let total = self.before + generated;
        generated + (self.limits.next_check(total, total) - total)
    }

    fn job(&mut self, node: Job<A>) {
        self.jobs.push(node);
    }
}

/// What the threads share during one iteration.
struct Shared<'a> {
    limits: &'a Limits,
    /// Threads sharing the node budget.
    threads: usize,
    next_job: AtomicUsize,
    /// Lowest job index holding a solution, `usize::MAX` while none.
    best: AtomicUsize,
    next_bound: AtomicU32,
    generated: AtomicU64,
    expanded: AtomicU64,
    hit: Mutex<Option<LimitHit>>,
    aborted: AtomicBool,
    solution: Mutex<Option<(usize, Vec<u8>)>>,
    /// With a checkpoint file: what the iteration has finished, written there now and then.
    keeper: Option<Keeper<'a>>,
}

/// The place of an iteration, kept for a [`CheckpointFile`] ([`super::checkpoint`]).
struct Keeper<'a> {
    file: &'a CheckpointFile,
    /// The iteration's checkpoint as it started (or was resumed): its finished jobs, counts
    /// and next bound grow in `place` as jobs finish.
    place: Mutex<Checkpoint>,
    /// When the place was last written; held while it is written.
    saved: Mutex<Instant>,
    /// The search's time, earlier sittings included.
    started: Stopwatch,
}

impl Keeper<'_> {
    /// Job `i` is finished, having generated and expanded `nodes` and met `next` as the
    /// smallest f above the bound.
    fn finished(&self, i: usize, nodes: (u64, u64), next: u32) {
        let mut place = self.place.lock().unwrap_or_else(|e| e.into_inner());
        place.done[i / 64] |= 1 << (i % 64);
        place.generated += nodes.0;
        place.iteration_generated += nodes.0;
        place.expanded += nodes.1;
        place.next_bound = place.next_bound.min(next);
    }

    /// Writes the place if [`SAVE_EVERY`] has passed since the last time (or `now`), unless
    /// another thread is writing it (then that write carries the jobs finished so far).
    fn save(&self, now: bool) -> Result<(), SolveError> {
        let Ok(mut saved) = (if now {
            Ok(self.saved.lock().unwrap_or_else(|e| e.into_inner()))
        } else {
            self.saved.try_lock()
        }) else {
            return Ok(());
        };
        if !now && saved.elapsed() < SAVE_EVERY {
            return Ok(());
        }
        let mut place = self.place.lock().unwrap_or_else(|e| e.into_inner()).clone();
        place.elapsed = self.started.elapsed();
        *saved = Instant::now();
        self.file.save(&place)
    }
}

/// A thread's stop check while it searches job `job`: it publishes its counts to the shared
/// totals, and stops on a limit, an abort, or when a lower-numbered job has found the goal (this
/// job's result can no longer matter).
struct JobControl<'a> {
    shared: &'a Shared<'a>,
    job: usize,
    /// This engine's totals already added to the shared ones.
    published: (u64, u64),
}

impl JobControl<'_> {
    fn publish(&mut self, generated: u64, expanded: u64) {
        let shared = self.shared;
        shared
            .generated
            .fetch_add(generated - self.published.0, Ordering::Relaxed);
        shared
            .expanded
            .fetch_add(expanded - self.published.1, Ordering::Relaxed);
        self.published = (generated, expanded);
    }
}

impl<A> Control<A> for JobControl<'_> {
    fn stop(&mut self, generated: u64, expanded: u64, _bound: u32) -> bool {
        self.publish(generated, expanded);
        let shared = self.shared;
        if shared.aborted.load(Ordering::Relaxed) || shared.best.load(Ordering::Relaxed) < self.job
        {
            return true;
        }
        if let Err(hit) = shared
            .limits
            .check(shared.generated.load(Ordering::Relaxed))
        {
            *shared.hit.lock().unwrap_or_else(|e| e.into_inner()) = Some(hit);
            shared.aborted.store(true, Ordering::Relaxed);
            return true;
        }
        false
    }

    fn next_check(&self, generated: u64) -> u64 {
        // The node budget is shared: what is left of it is counted from every thread's total.
        let total = self.shared.generated.load(Ordering::Relaxed) + (generated - self.published.0);
        let limits = self.shared.limits;
        generated + (limits.next_check_of(total, total, self.shared.threads) - total)
    }
}

/// The jobs of the iteration with `bound`: the sequential search's tree, walked with the same
/// [`Engine`] down to the shallowest depth that yields `wanted` jobs (or meets the goal, or
/// reaches [`MAX_SPLIT_DEPTH`]), or down to `depth` when given (a resumed iteration, cut as it
/// was). Returns the jobs in the sequential order, the smallest f above the bound met above the
/// split, the nodes generated and expanded there, and the depth.
#[allow(clippy::type_complexity)]
fn split<H: Incremental, const CAP: usize>(
    (board, goal, heuristic, pruning): (&Board, &Board, &H, Pruning),
    bound: u32,
    (wanted, depth): (usize, Option<u32>),
    (limits, before): (&Limits, u64),
) -> Result<(Vec<Job<H::Aux>>, u32, u64, u64, u32), (LimitHit, u64, u64)> {
    let fixed = depth.is_some();
    let mut depth = depth.unwrap_or(1);
    loop {
        let control = Splitter {
            jobs: Vec::new(),
            limits,
            before,
            hit: None,
        };
        let mut engine =
            Engine::<H, Splitter<H::Aux>, CAP>::new(board, goal, heuristic, pruning, control);
        let (h0, mut aux0) = heuristic.init(board.tiles());
        let hb0 = engine.start_value(h0, &mut aux0, board.blank());
        let start = engine.start_state();
        engine.bound = bound;
        engine.split_depth = depth;
        let r = engine.dfs(board.blank(), 0, h0, hb0, &aux0, start);
        if let Some(hit) = engine.control.hit {
            return Err((hit, engine.generated, engine.expanded));
        }
        let jobs = engine.control.jobs;
        if fixed || jobs.len() >= wanted || r == FOUND || depth >= MAX_SPLIT_DEPTH.min(bound) {
            let next = if r == FOUND { UNBOUNDED } else { r };
            return Ok((jobs, next, engine.generated, engine.expanded, depth));
        }
        depth += 1;
    }
}

/// Runs the jobs of one iteration on `threads` threads, one [`Engine`] each (skipping those
/// the checkpoint `resumed` says are finished).
#[allow(clippy::too_many_arguments)]
fn run_jobs<H, const CAP: usize>(
    board: &Board,
    goal: &Board,
    heuristic: &H,
    pruning: Pruning,
    bound: u32,
    jobs: &[Job<H::Aux>],
    resumed: Option<&Checkpoint>,
    shared: &Shared,
    threads: usize,
) where
    H: Incremental + Sync,
    H::Aux: Send + Sync,
{
    std::thread::scope(|s| {
        for _ in 0..threads.min(jobs.len()) {
            s.spawn(|| {
                let control = JobControl {
                    shared,
                    job: 0,
                    published: (0, 0),
                };
                let mut engine =
                    Engine::<H, JobControl, CAP>::new(board, goal, heuristic, pruning, control);
                engine.bound = bound;
                loop {
                    let i = shared.next_job.fetch_add(1, Ordering::Relaxed);
                    if i >= jobs.len()
                        || shared.best.load(Ordering::Relaxed) < i
                        || shared.aborted.load(Ordering::Relaxed)
                    {
                        break;
                    }
                    if resumed.is_some_and(|c| c.is_done(i)) {
                        continue;
                    }
                    let job = &jobs[i];
                    engine.control.job = i;
                    engine.load(&job.tiles);
                    engine.path.clear();
                    let before = (engine.generated, engine.expanded);
                    match engine.dfs(job.blank, job.g, job.h, job.hb, &job.aux, job.state) {
                        FOUND => {
                            shared.best.fetch_min(i, Ordering::Relaxed);
                            // The job's own moves, then the engine's (written last move first).
                            let mut path = job.path.clone();
                            path.extend(engine.path.iter().rev());
                            let mut sol = shared.solution.lock().unwrap_or_else(|e| e.into_inner());
                            if sol.as_ref().is_none_or(|(j, _)| i < *j) {
                                *sol = Some((i, path));
                            }
                        }
                        ABORTED => {}
                        next => {
                            shared.next_bound.fetch_min(next, Ordering::Relaxed);
                            if let Some(keeper) = &shared.keeper {
                                let nodes =
                                    (engine.generated - before.0, engine.expanded - before.1);
                                keeper.finished(i, nodes, next);
                                // A write that fails (a full disk, a network drive gone for a
                                // moment) leaves the last one in place and is tried again at
                                // the next: the search goes on. The write when it stops says.
                                let _ = keeper.save(false);
                            }
                        }
                    }
                }
                let (generated, expanded) = (engine.generated, engine.expanded);
                engine.control.publish(generated, expanded);
            });
        }
    });
}

/// The first iteration's bound: the start's value (refined, with BPMX on).
fn bound_at_start<H: Incremental>(board: &Board, heuristic: &H, pruning: Pruning) -> u32 {
    let (h0, mut aux0) = heuristic.init(board.tiles());
    if pruning.bpmx {
        heuristic.refine(board.tiles(), board.blank(), h0, &mut aux0, u32::MAX)
    } else {
        h0
    }
}

/// `threads`, or every core for 0, and at most [`MAX_THREADS`] (how every search here reads a
/// thread count). A library caller's count is capped where a user's is refused
/// ([`crate::limits::thread_count`]): the searches start their threads anew at each iteration
/// or layer, and 100,000 of them took longer to start than the search itself, or failed.
pub(crate) fn threads_or_cores(threads: usize) -> usize {
    match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
    .min(MAX_THREADS)
}

/// Optimal moves from `board` to `goal` by IDA* on `threads` threads (0: every core; at most
/// [`MAX_THREADS`], which a larger count is taken as); the moves are those
/// [`idastar`](fn@super::idastar) returns.
pub fn idastar_parallel<H>(
    board: &Board,
    goal: &Board,
    heuristic: &H,
    limits: &Limits,
    progress: Option<ProgressFn>,
    threads: usize,
) -> Result<Solution, SolveError>
where
    H: Incremental + Sync,
    H::Aux: Send + Sync,
{
    idastar_parallel_with(
        board,
        goal,
        heuristic,
        Pruning::plain(),
        limits,
        progress,
        threads,
    )
}

/// [`idastar_parallel`] with the pruning `pruning`; the moves are those
/// [`idastar_with`](super::idastar::idastar_with) returns with the same pruning.
pub fn idastar_parallel_with<H>(
    board: &Board,
    goal: &Board,
    heuristic: &H,
    pruning: Pruning,
    limits: &Limits,
    progress: Option<ProgressFn>,
    threads: usize,
) -> Result<Solution, SolveError>
where
    H: Incremental + Sync,
    H::Aux: Send + Sync,
{
    idastar_parallel_between(
        board,
        goal,
        heuristic,
        pruning,
        limits,
        progress,
        (threads, None),
        None,
    )
}

/// The nodes generated and expanded over every sitting: this sitting's, and those `carried`
/// from earlier ones.
fn with_carried(carried: (u64, u64), generated: u64, expanded: u64) -> (u64, u64) {
    (carried.0 + generated, carried.1 + expanded)
}

/// [`idastar_parallel_with`] running `between` before each iteration (see [`Between`]), and
/// keeping its place in `keep` when given ([`super::checkpoint`]): a search resumed from there
/// goes on where the last one stopped.
#[allow(clippy::too_many_arguments)]
pub(crate) fn idastar_parallel_between<H>(
    board: &Board,
    goal: &Board,
    heuristic: &H,
    pruning: Pruning,
    limits: &Limits,
    progress: Option<ProgressFn>,
    (threads, keep): (usize, Option<&CheckpointFile>),
    mut between: Option<Between>,
) -> Result<Solution, SolveError>
where
    H: Incremental + Sync,
    H::Aux: Send + Sync,
{
    board.check_same_size(goal)?;
    if board.len() > MAX_CELLS {
        return Err(too_large(board));
    }
    let threads = threads_or_cores(threads);
    let mut resumed = match keep {
        Some(file) => file.load()?,
        None => None,
    };
    let mut bound = match &resumed {
        Some(c) => c.bound,
        None => bound_at_start(board, heuristic, pruning),
    };
    // A file that cannot be written is said at once, not after an hour of search.
    if let (Some(file), None) = (keep, &resumed) {
        file.save(&Checkpoint::unsplit(bound, 1, (0, 0), &[], Duration::ZERO))?;
    }
    let started = Stopwatch::resumed(resumed.as_ref().map_or(Duration::ZERO, |c| c.elapsed));
    // The nodes of this sitting; those of earlier sittings are `carried`, added to what is
    // reported.
    let mut expanded = 0u64;
    let mut generated = 0u64;
    let mut carried = resumed
        .as_ref()
        .map_or((0, 0), |c| (c.generated, c.expanded));
    let mut iterations = resumed.as_ref().map_or(0, |c| c.iterations - 1);
    // Nodes generated by each iteration, for `between` (and the checkpoint).
    let mut sizes: Vec<u64> = resumed.as_ref().map_or(Vec::new(), |c| c.sizes.clone());
    // What `between` reached (IDA*'s own memory is the paths).
    let mut peak_memory_bytes = 0;
    let wanted = match keep {
        Some(_) => JOBS_PER_THREAD_KEPT * threads,
        None => JOBS_PER_THREAD * threads,
    };
    loop {
        iterations += 1;
        // A resumed iteration ran `between` in its first sitting; one kept before its split
        // ([`Checkpoint::is_unsplit`]) starts as a new one.
        let place = resumed.take().filter(|c| !c.is_unsplit());
        if place.is_none() {
            let (g, e) = with_carried(carried, generated, expanded);
            let mut so_far = Stats {
                expanded: e,
                generated: g,
                iterations,
                peak_memory_bytes,
                ..Stats::default()
            };
            // The nodes `between` kept from earlier sittings join those carried.
            let both = (&mut so_far, &mut carried);
            if let Some(solution) = interlude(&mut between, bound, &sizes, limits, both, started)? {
                return Ok(solution);
            }
            (generated, expanded) = (so_far.generated - carried.0, so_far.expanded - carried.1);
            peak_memory_bytes = so_far.peak_memory_bytes;
        }
        let before = generated;
        // Split deeper until there are enough jobs (or the tree is that small).
        let budget = (limits, generated);
        let search = (board, goal, heuristic, pruning);
        let cut = (wanted, place.as_ref().map(|c| c.split_depth));
        let split = if board.len() <= 64 {
            split::<H, 64>(search, bound, cut, budget)
        } else {
            split::<H, MAX_CELLS>(search, bound, cut, budget)
        };
        let (jobs, split_bound, split_generated, split_expanded, depth) = match split {
            Ok(split) => split,
            Err((hit, split_generated, split_expanded)) => {
                let (generated, expanded) = with_carried(
                    carried,
                    generated + split_generated,
                    expanded + split_expanded,
                );
                let stats = Stats {
                    expanded,
                    generated,
                    elapsed: started.elapsed(),
                    iterations,
                    peak_memory_bytes,
                    ..Stats::default()
                };
                return Err(SolveError::Limit { hit, stats, bound });
            }
        };
        let job_digest = digest(jobs.iter().map(|j| j.path.as_slice()));
        if let Some(c) = place
            .as_ref()
            .filter(|c| c.jobs != jobs.len() || c.digest != job_digest)
        {
            return Err(keep.expect("a place comes from a file").error(&format!(
                "was kept by a search whose tree differs from this one's ({} jobs at depth {}, \
                 here {}: another board, version of taquin or table set)",
                c.jobs,
                c.split_depth,
                jobs.len()
            )));
        }
        // The split of a resumed iteration was counted in its first sitting.
        if place.is_none() {
            generated += split_generated;
            expanded += split_expanded;
        }
        let keeper = keep.map(|file| {
            let (g, e) = with_carried(carried, generated, expanded);
            let checkpoint = place.clone().unwrap_or_else(|| Checkpoint {
                bound,
                iterations,
                split_depth: depth,
                jobs: jobs.len(),
                digest: job_digest,
                done: vec![0; jobs.len().div_ceil(64)],
                next_bound: split_bound,
                generated: g,
                expanded: e,
                iteration_generated: generated - before,
                sizes: sizes.clone(),
                elapsed: Duration::ZERO,
                // What the work between the iterations kept goes on with the search's place.
                interlude: file.load().ok().flatten().and_then(|c| c.interlude),
            });
            Keeper {
                file,
                place: Mutex::new(checkpoint),
                saved: Mutex::new(Instant::now()),
                started,
            }
        });
        let next_bound = place.as_ref().map_or(split_bound, |c| c.next_bound);
        let shared = Shared {
            limits,
            threads,
            next_job: AtomicUsize::new(0),
            best: AtomicUsize::new(usize::MAX),
            next_bound: AtomicU32::new(next_bound),
            generated: AtomicU64::new(generated),
            expanded: AtomicU64::new(expanded),
            hit: Mutex::new(None),
            aborted: AtomicBool::new(false),
            solution: Mutex::new(None),
            keeper,
        };
        // The engine's path capacity by board size; the arguments are the same either way.
        let run = if board.len() <= 64 {
            run_jobs::<H, 64>
        } else {
            run_jobs::<H, MAX_CELLS>
        };
        run(
            board,
            goal,
            heuristic,
            pruning,
            bound,
            &jobs,
            place.as_ref(),
            &shared,
            threads,
        );
        generated = shared.generated.load(Ordering::Relaxed);
        expanded = shared.expanded.load(Ordering::Relaxed);
        // The iteration's nodes over every sitting.
        sizes.push(match &shared.keeper {
            Some(keeper) => {
                let place = keeper.place.lock().unwrap_or_else(|e| e.into_inner());
                place.iteration_generated
            }
            None => generated - before,
        });
        let (g, e) = with_carried(carried, generated, expanded);
        let stats = Stats {
            expanded: e,
            generated: g,
            elapsed: started.elapsed(),
            iterations,
            peak_memory_bytes,
            ..Stats::default()
        };
        if let Some((_, path)) = shared
            .solution
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
        {
            return Ok(Solution {
                moves: path.iter().map(|&m| Move::ALL[m as usize]).collect(),
                optimal: true,
                stats,
                ..Solution::default()
            });
        }
        if shared.aborted.load(Ordering::Relaxed) {
            let hit = shared
                .hit
                .into_inner()
                .unwrap_or_else(|e| e.into_inner())
                .unwrap_or(LimitHit::Cancelled);
            // The place where the limit stopped the search, for the next sitting.
            if let Some(keeper) = &shared.keeper {
                keeper.save(true)?;
            }
            return Err(SolveError::Limit { hit, stats, bound });
        }
        let next = shared.next_bound.load(Ordering::Relaxed);
        if next == UNBOUNDED {
            return Err(SolveError::Unsupported(
                "the search space was exhausted without reaching the goal: the goal is unreachable"
                    .into(),
            ));
        }
        bound = next;
        // The iteration is complete: its successor is kept before it begins, so that the
        // work between the two (the beams of `between`, the split) loses no more than itself.
        if let Some(keeper) = &shared.keeper {
            let mut place =
                Checkpoint::unsplit(bound, iterations + 1, (g, e), &sizes, started.elapsed());
            place.interlude = keeper
                .place
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .interlude
                .clone();
            // As a periodic write: one that fails is tried again later.
            if keeper.file.save(&place).is_ok() {
                *keeper.saved.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
            }
        }
        if let Err(hit) = limits.check(generated) {
            return Err(SolveError::Limit { hit, stats, bound });
        }
        if let Some(p) = progress {
            p(Progress {
                generated: g,
                expanded: e,
                bound,
                elapsed: started.elapsed(),
                best: None,
                best_moves: None,
            });
        }
    }
}
