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

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use super::idastar::neighbour_table;
use crate::board::{Board, Tile, BLANK};
use crate::heuristic::Incremental;
use crate::limits::{LimitHit, Limits, Progress, ProgressFn};
use crate::moves::Move;
use crate::solution::{Solution, SolveError, Stats};

const NO_MOVE: u8 = 4;
const INVERSE: [u8; 5] = [1, 0, 3, 2, NO_MOVE];
/// Subtrees wanted per thread in each iteration: enough that one huge subtree rarely leaves
/// the other threads idle, few enough that splitting costs nothing measurable.
const JOBS_PER_THREAD: usize = 256;
/// Deepest split: beyond it the jobs are tiny anyway.
const MAX_SPLIT_DEPTH: u32 = 24;

/// One subtree to search, in the sequential order.
struct Job<A> {
    tiles: Vec<Tile>,
    path: Vec<u8>,
    blank: usize,
    g: u32,
    h: u32,
    aux: A,
    prev: u8,
}

/// Walks the tree top down to `depth`, with the bound's pruning, collecting jobs in order.
struct Splitter<'a, H: Incremental> {
    heuristic: &'a H,
    goal: &'a [Tile],
    neighbours: &'a [[(u8, u32); 4]],
    bound: u32,
    depth: u32,
    tiles: Vec<Tile>,
    path: Vec<u8>,
    jobs: Vec<Job<H::Aux>>,
    next_bound: u32,
    generated: u64,
    expanded: u64,
    /// A goal met above the split depth: later nodes do not matter.
    stop: bool,
}

impl<H: Incremental> Splitter<'_, H> {
    fn walk(&mut self, blank: usize, g: u32, h: u32, aux: H::Aux, prev: u8) {
        let at_goal = h == 0 && self.tiles == self.goal;
        if at_goal || g == self.depth {
            self.jobs.push(Job {
                tiles: self.tiles.clone(),
                path: self.path.clone(),
                blank,
                g,
                h,
                aux,
                prev,
            });
            self.stop = at_goal;
            return;
        }
        self.expanded += 1;
        let forbidden = INVERSE[prev as usize];
        for &(m, to) in self.neighbours[blank].iter() {
            if m == NO_MOVE {
                break;
            }
            if m == forbidden {
                continue;
            }
            let to = to as usize;
            self.generated += 1;
            let tile = self.tiles[to];
            self.tiles[blank] = tile;
            self.tiles[to] = BLANK;
            let mut child_aux = aux;
            let child_h = self
                .heuristic
                .update(&self.tiles, tile, to, blank, h, &mut child_aux);
            let f = g + 1 + child_h;
            if f > self.bound {
                self.next_bound = self.next_bound.min(f);
            } else {
                self.path.push(m);
                self.walk(to, g + 1, child_h, child_aux, m);
                self.path.pop();
            }
            self.tiles[to] = tile;
            self.tiles[blank] = BLANK;
            if self.stop {
                return;
            }
        }
    }
}

/// What the threads share during one iteration.
struct Shared<'a> {
    limits: &'a Limits,
    next_job: AtomicUsize,
    /// Lowest job index holding a solution, `usize::MAX` while none.
    best: AtomicUsize,
    next_bound: AtomicU32,
    generated: AtomicU64,
    expanded: AtomicU64,
    hit: Mutex<Option<LimitHit>>,
    aborted: AtomicBool,
    solution: Mutex<Option<(usize, Vec<u8>)>>,
}

const FOUND: u32 = u32::MAX;
const ABORTED: u32 = u32::MAX - 1;
const UNBOUNDED: u32 = u32::MAX - 2;

/// One thread's depth-first search of one job.
struct Worker<'a, H: Incremental> {
    heuristic: &'a H,
    goal: &'a [Tile],
    neighbours: &'a [[(u8, u32); 4]],
    shared: &'a Shared<'a>,
    bound: u32,
    job: usize,
    tiles: Vec<Tile>,
    path: Vec<u8>,
    generated: u64,
    expanded: u64,
    check_at: u64,
}

impl<H: Incremental> Worker<'_, H> {
    fn dfs(&mut self, blank: usize, g: u32, h: u32, aux: H::Aux, prev: u8) -> u32 {
        if h == 0 && self.tiles == self.goal {
            return FOUND;
        }
        self.expanded += 1;
        if self.generated >= self.check_at && self.must_stop() {
            return ABORTED;
        }
        let mut next_bound = UNBOUNDED;
        let forbidden = INVERSE[prev as usize];
        for &(m, to) in self.neighbours[blank].iter() {
            if m == NO_MOVE {
                break;
            }
            if m == forbidden {
                continue;
            }
            let to = to as usize;
            self.generated += 1;
            let tile = self.tiles[to];
            self.tiles[blank] = tile;
            self.tiles[to] = BLANK;
            let mut child_aux = aux;
            let child_h = self
                .heuristic
                .update(&self.tiles, tile, to, blank, h, &mut child_aux);
            let f = g + 1 + child_h;
            let result = if f > self.bound {
                f
            } else {
                self.path.push(m);
                let r = self.dfs(to, g + 1, child_h, child_aux, m);
                if r == FOUND {
                    return FOUND;
                }
                self.path.pop();
                r
            };
            self.tiles[to] = tile;
            self.tiles[blank] = BLANK;
            if result == ABORTED {
                return ABORTED;
            }
            next_bound = next_bound.min(result);
        }
        next_bound
    }

    /// Publishes the node counts and says whether to stop: a limit was hit, or a lower job
    /// found a solution (this job's result can no longer matter).
    #[cold]
    fn must_stop(&mut self) -> bool {
        self.check_at = self.generated + Limits::CHECK_EVERY;
        self.flush();
        if self.shared.aborted.load(Ordering::Relaxed)
            || self.shared.best.load(Ordering::Relaxed) < self.job
        {
            return true;
        }
        if let Err(hit) = self
            .shared
            .limits
            .check(self.shared.generated.load(Ordering::Relaxed))
        {
            *self.shared.hit.lock().unwrap_or_else(|e| e.into_inner()) = Some(hit);
            self.shared.aborted.store(true, Ordering::Relaxed);
            return true;
        }
        false
    }

    fn flush(&mut self) {
        self.shared
            .generated
            .fetch_add(self.generated, Ordering::Relaxed);
        self.shared
            .expanded
            .fetch_add(self.expanded, Ordering::Relaxed);
        self.check_at -= self.generated;
        self.generated = 0;
        self.expanded = 0;
    }
}

fn run_jobs<H>(
    heuristic: &H,
    goal: &[Tile],
    neighbours: &[[(u8, u32); 4]],
    bound: u32,
    jobs: &[Job<H::Aux>],
    shared: &Shared,
    threads: usize,
) where
    H: Incremental + Sync,
    H::Aux: Send + Sync,
{
    std::thread::scope(|s| {
        for _ in 0..threads.min(jobs.len()) {
            s.spawn(|| {
                let mut w = Worker {
                    heuristic,
                    goal,
                    neighbours,
                    shared,
                    bound,
                    job: 0,
                    tiles: Vec::new(),
                    path: Vec::with_capacity(256),
                    generated: 0,
                    expanded: 0,
                    check_at: Limits::CHECK_EVERY,
                };
                loop {
                    let i = shared.next_job.fetch_add(1, Ordering::Relaxed);
                    if i >= jobs.len()
                        || shared.best.load(Ordering::Relaxed) < i
                        || shared.aborted.load(Ordering::Relaxed)
                    {
                        break;
                    }
                    let job = &jobs[i];
                    w.job = i;
                    w.tiles.clear();
                    w.tiles.extend_from_slice(&job.tiles);
                    w.path.clear();
                    w.path.extend_from_slice(&job.path);
                    let r = w.dfs(job.blank, job.g, job.h, job.aux, job.prev);
                    match r {
                        FOUND => {
                            shared.best.fetch_min(i, Ordering::Relaxed);
                            let mut sol = shared.solution.lock().unwrap_or_else(|e| e.into_inner());
                            let lower = match sol.as_ref() {
                                Some((j, _)) => i < *j,
                                None => true,
                            };
                            if lower {
                                *sol = Some((i, w.path.clone()));
                            }
                        }
                        ABORTED => {}
                        next => {
                            shared.next_bound.fetch_min(next, Ordering::Relaxed);
                        }
                    }
                }
                w.flush();
            });
        }
    });
}

/// Optimal moves from `board` to `goal` by IDA* on `threads` threads (0: every core); the
/// moves are those [`idastar`](fn@super::idastar) returns.
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
    board.check_same_size(goal)?;
    let threads = if threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        threads
    };
    let started = Instant::now();
    let neighbours = neighbour_table(board.width(), board.height());
    let (h0, aux0) = heuristic.init(board.tiles());
    let mut bound = h0;
    let mut expanded = 0u64;
    let mut generated = 0u64;
    let mut iterations = 0u32;
    loop {
        iterations += 1;
        // Split deeper until there are enough jobs (or the tree is that small).
        let mut depth = 1;
        let split = loop {
            let mut sp = Splitter {
                heuristic,
                goal: goal.tiles(),
                neighbours: &neighbours,
                bound,
                depth,
                tiles: board.tiles().to_vec(),
                path: Vec::new(),
                jobs: Vec::new(),
                next_bound: UNBOUNDED,
                generated: 0,
                expanded: 0,
                stop: false,
            };
            sp.walk(board.blank(), 0, h0, aux0, NO_MOVE);
            let enough = sp.jobs.len() >= JOBS_PER_THREAD * threads
                || sp.stop
                || depth >= MAX_SPLIT_DEPTH.min(bound);
            if enough {
                break sp;
            }
            depth += 1;
        };
        generated += split.generated;
        expanded += split.expanded;
        let shared = Shared {
            limits,
            next_job: AtomicUsize::new(0),
            best: AtomicUsize::new(usize::MAX),
            next_bound: AtomicU32::new(split.next_bound),
            generated: AtomicU64::new(generated),
            expanded: AtomicU64::new(expanded),
            hit: Mutex::new(None),
            aborted: AtomicBool::new(false),
            solution: Mutex::new(None),
        };
        run_jobs(
            heuristic,
            goal.tiles(),
            &neighbours,
            bound,
            &split.jobs,
            &shared,
            threads,
        );
        generated = shared.generated.load(Ordering::Relaxed);
        expanded = shared.expanded.load(Ordering::Relaxed);
        let stats = Stats {
            expanded,
            generated,
            elapsed: started.elapsed(),
            iterations,
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
            });
        }
        if shared.aborted.load(Ordering::Relaxed) {
            let hit = shared
                .hit
                .into_inner()
                .unwrap_or_else(|e| e.into_inner())
                .unwrap_or(LimitHit::Cancelled);
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
        if let Err(hit) = limits.check(generated) {
            return Err(SolveError::Limit { hit, stats, bound });
        }
        if let Some(p) = progress {
            p(Progress {
                generated,
                expanded,
                bound,
                elapsed: started.elapsed(),
            });
        }
    }
}
