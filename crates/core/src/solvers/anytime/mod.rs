//! Anytime solving: a first solution at once, then better ones until the deadline, or until one
//! is proven optimal. Every board gets an answer, with the best proven lower bound beside it.
//!
//! Two searches share the work (and the machine's cores; in a browser one thread runs the
//! improver, then the prover, and a search given one core by [`Limits::cores`] takes turns
//! on one thread too, as does one given a node budget: the prover within a tenth of it first,
//! then the improver):
//! - the **prover** runs IDA* with the heuristic (Korf 1985) and the solver's pruning
//!   ([`Pruning::full`]): each iteration it completes proves that no solution is shorter than
//!   the next bound, which raises the lower bound; if it finishes, its solution is optimal and
//!   ends the run. When its iteration under way cannot end before the deadline and the best
//!   answer is far above the bound, it stops and leaves its core to the improver
//!   (`forecast.rs`; in a browser, where it runs last, the run then ends before its
//!   deadline);
//! - the **improver** (`improve.rs`) takes the constructive solver's solution (any board, in
//!   milliseconds), then runs beam searches of growing width (`beam.rs`, each layer's children
//!   generated on every core, so the beams share the prover's core) that keep only paths
//!   shorter than the best so far, and re-solves long windows of each solution optimally with the
//!   goal's heuristic (`windows.rs`) and short ones with Manhattan distance
//!   ([`super::shorten`]): each beam's answer on a thread of its own beside the next beam,
//!   unless a node budget bounds the run.
//!
//! Each better solution is reported at once through the progress callback ([`Progress::best`]),
//! with the lower bound of that moment; at the deadline the best one is returned, not proven
//! optimal unless its length meets the lower bound.
//!
//! The solver runs all of this on a thread of its own and answers at the deadline with the best
//! so far (`Best`, `run_detached`), even while a search is still waiting for a table read
//! from a cold disk.

use crate::clock::Instant;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::heuristic::Incremental;
use crate::limits::{Limits, Progress, ProgressFn};
use crate::moves::Move;
use crate::request::Request;
use crate::search::{idastar_with, Pruning};
use crate::solution::{verify_moves, Solution, SolveError, Stats};
use crate::solvers::constructive;

mod beam;
mod detached;
mod forecast;
mod improve;
mod incumbent;
mod seen;
mod windows;

pub(crate) use detached::run_detached;
pub(crate) use incumbent::{nodes_past_place, BeamIncumbent, BEAMS_BEYOND_CELLS};

/// The best answer of an anytime run so far, with the best proven lower bound. It always holds
/// an answer (the run starts from [`first_solution`]'s), and whoever waits for the run can read
/// it at any moment ([`detached`]): a search thread held up reading a table from a cold disk
/// (milliseconds a read) does not hold the answer back past the deadline.
pub(crate) struct Best {
    moves: Mutex<Vec<Move>>,
    /// When the solve began (before the first answer): every report's time counts from it.
    started: Instant,
    /// Only ever raised, and always a proven bound: an answer no longer than it is optimal.
    lower: AtomicU32,
    /// The prover's running totals, as last reported.
    proved: Nodes,
    /// The improver's searches: a beam's after each of its layers, a window's as its search
    /// reports (every few thousand nodes of a long window, once for a short one).
    improved: Nodes,
}

/// Nodes generated and expanded: the counts of an answer given before the run returns its own.
#[derive(Default)]
struct Nodes {
    generated: AtomicU64,
    expanded: AtomicU64,
}

impl Nodes {
    fn add(&self, generated: u64, expanded: u64) {
        self.generated.fetch_add(generated, Ordering::Relaxed);
        self.expanded.fetch_add(expanded, Ordering::Relaxed);
    }

    fn set(&self, generated: u64, expanded: u64) {
        self.generated.store(generated, Ordering::Relaxed);
        self.expanded.store(expanded, Ordering::Relaxed);
    }

    fn get(&self) -> (u64, u64) {
        (
            self.generated.load(Ordering::Relaxed),
            self.expanded.load(Ordering::Relaxed),
        )
    }
}

impl Best {
    /// `first`, proven no shorter than `lower`, for a solve that began at `started`.
    pub(crate) fn new(first: Vec<Move>, lower: u32, started: Instant) -> Best {
        Best {
            moves: Mutex::new(first),
            started,
            lower: AtomicU32::new(lower),
            proved: Nodes::default(),
            improved: Nodes::default(),
        }
    }

    fn moves(&self) -> std::sync::MutexGuard<'_, Vec<Move>> {
        self.moves.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn len(&self) -> usize {
        self.moves().len()
    }

    /// Nodes generated and expanded so far, by the prover and the improver together, as they
    /// last reported them (the prover at each check, the improver after each beam layer and as
    /// each window's search goes).
    fn nodes(&self) -> (u64, u64) {
        let (proved, improved) = (self.proved.get(), self.improved.get());
        (proved.0 + improved.0, proved.1 + improved.1)
    }

    /// An answer of `length` moves is optimal when no shorter one can exist: its length meets
    /// the proven lower bound `lower`.
    fn optimal(length: usize, lower: u32) -> bool {
        length as u64 <= u64::from(lower)
    }

    /// The answer as it stands: optimal when no shorter one can exist (the bound is read after
    /// the moves, and only rises, so a shorter answer stored meanwhile cannot mark these moves
    /// optimal), with the nodes reported so far.
    pub(crate) fn solution(&self) -> Solution {
        let moves = self.moves().clone();
        let lower = self.lower.load(Ordering::Relaxed);
        let (generated, expanded) = self.nodes();
        Solution {
            optimal: Best::optimal(moves.len(), lower),
            lower_bound: u64::from(lower),
            moves,
            stats: Stats {
                generated,
                expanded,
                ..Stats::default()
            },
            ..Solution::default()
        }
    }
}

/// What the two threads share: the request, the best answer, the stop flag, the progress
/// callback.
struct Shared<'a> {
    request: &'a Request,
    best: &'a Best,
    stop: Arc<AtomicBool>,
    progress: Option<ProgressFn<'a>>,
    /// Held from a report's reading of the best answer until the callback returns, so that
    /// reports arrive in the order of what they read (a heartbeat that read a longer answer
    /// never comes after the report of a shorter one).
    reporting: Mutex<()>,
    /// When the last report was made, in milliseconds from the start of the solve.
    reported_ms: AtomicU64,
}

impl Shared<'_> {
    /// Keeps `moves` if shorter than the best so far and replayed to the goal, and reports it
    /// (the report carries the moves: a client may play them).
    fn offer(&self, moves: Vec<Move>) {
        if self.best.len() <= moves.len() {
            return;
        }
        // Replayed before the best answer is locked: on a huge board a replay takes a second,
        // which the caller, reading the best answer at the deadline, would otherwise wait.
        if let Err(e) = verify_moves(self.request.board(), self.request.goal(), &moves) {
            // A fault of the search that found them; the answer stays the last good one.
            debug_assert!(false, "an anytime answer does not reach the goal: {e}");
            return;
        }
        let mut best = self.best.moves();
        if best.len() <= moves.len() {
            return; // a shorter one came in while this one was replayed
        }
        let length = moves.len();
        *best = moves;
        drop(best);
        if Best::optimal(length, self.best.lower.load(Ordering::Relaxed)) {
            // Nothing shorter exists: the prover can stop.
            self.proven();
        }
        self.report();
    }

    /// Raises the lower bound to `bound` (a proven one) and reports it.
    fn raise(&self, bound: u32) {
        if self.best.lower.fetch_max(bound, Ordering::Relaxed) < bound {
            if Best::optimal(self.best.len(), bound) {
                self.proven();
            }
            self.report();
        }
    }

    /// The best answer is optimal (its length meets the lower bound): the run is over.
    fn proven(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Reports the progress when the last report is [`HEARTBEAT`] old: called by the
    /// supervisor, between a beam's layers and at the prover's checks, so that whoever shows
    /// the search sees its time and nodes move on, also in a browser (one thread, no
    /// supervisor). Nothing once the run is over.
    fn tick(&self) {
        if self.stop.load(Ordering::Relaxed) {
            return;
        }
        let now = self.best.started.elapsed().as_millis() as u64;
        if now >= self.reported_ms.load(Ordering::Relaxed) + HEARTBEAT.as_millis() as u64 {
            self.report();
        }
    }

    fn report(&self) {
        if let Some(p) = self.progress {
            let _turn = self.reporting.lock().unwrap_or_else(|e| e.into_inner());
            self.reported_ms.store(
                self.best.started.elapsed().as_millis() as u64,
                Ordering::Relaxed,
            );
            let (generated, expanded) = self.best.nodes();
            let moves: Arc<[Move]> = self.best.moves().as_slice().into();
            p(Progress {
                generated,
                expanded,
                bound: self.best.lower.load(Ordering::Relaxed),
                elapsed: self.best.started.elapsed(),
                best: Some(moves.len() as u32),
                best_moves: Some(moves),
            });
        }
    }
}

/// Boards up to this many cells (32 x 32) get [`first_solution`]'s answer even past the
/// deadline or the node budget: the constructive solver takes about 1.4 ms on a 32 x 32 (`taquin solve -a
/// constructive`), less than a deadline can be kept to anyway (reading the board and planning
/// take about as long).
pub(crate) const ALWAYS_FIRST_CELLS: usize = 1024;

/// The anytime search's first answer: the constructive solver's (any board, in milliseconds;
/// optimal up to 3x3). The solver finds it before it loads any table (a large set takes a
/// moment to map and lay out), so that it is there at once whatever the heuristic. A request
/// cancelled before the start gets no answer, not even this one, nor does one out of time on a
/// board of more than [`ALWAYS_FIRST_CELLS`] cells (a 1000 x 1000 takes about a minute). A
/// node budget never withholds it: the budget bounds the search that improves on it.
pub(crate) fn first_solution(request: &Request) -> Result<Vec<Move>, SolveError> {
    let (board, goal) = (request.board(), request.goal());
    // Up to ALWAYS_FIRST_CELLS the first answer comes whatever the deadline or the node
    // budget: a limit however small still gives an answer, the same one every time.
    let limits = if board.len() <= ALWAYS_FIRST_CELLS {
        request.limits().without_deadline_or_nodes()
    } else {
        // The constructive solver's steps are counted as nodes: on a 200 x 200 board
        // (0.3 s) a budget of 10 M nodes ran out before its answer, and the run gave none.
        request.limits().without_nodes()
    };
    let limits = &limits;
    if let Err(hit) = limits.check(0) {
        return Err(SolveError::Limit {
            hit,
            stats: Stats::default(),
            bound: u32::try_from(super::manhattan_lower_bound(board, goal)).unwrap_or(u32::MAX),
        });
    }
    if board.width() <= 3 && board.height() <= 3 {
        constructive::constructive(board, goal, limits).map(|s| s.moves)
    } else {
        constructive::construct_checked(board, goal, limits).map(|c| c.moves)
    }
}

/// Solves `request` anytime (see the module documentation) with heuristic `h`, built for the
/// request's goal, from the answer in `best` ([`first_solution`]'s, already reported), which
/// the run keeps improving. Returns the best answer at the deadline; when the limits have run
/// out already (the tables took the time), at once.
pub(crate) fn anytime<H>(
    request: &Request,
    h: &H,
    progress: Option<ProgressFn>,
    best: &Best,
) -> Solution
where
    H: Incremental + Sync,
    H::Aux: Send + Sync,
{
    let (board, goal, limits) = (request.board(), request.goal(), request.limits());
    let stop = Arc::new(AtomicBool::new(false));
    let shared = Shared {
        request,
        best,
        stop: stop.clone(),
        progress,
        reporting: Mutex::new(()),
        reported_ms: AtomicU64::new(0),
    };
    // The heuristic at the root (a first answer as short is optimal: nothing to improve or
    // prove), unless the tables took the time already: on a cold disk, reading the root's
    // entries alone can take a while.
    let mut stats = Stats::default();
    if limits.check(0).is_ok() {
        shared.raise(
            h.estimate(board.tiles())
                .max(u32::try_from(super::manhattan_lower_bound(board, goal)).unwrap_or(u32::MAX)),
        );
        // The sub-searches stop on the request's deadline, budgets and memory, and on `stop`,
        // which the supervisor below raises when the request is cancelled or the run is over.
        let inner = Limits {
            cancel: Some(stop.clone()),
            ..limits.clone()
        };
        // A node budget is one search's notion: with one, the prover and the improver take
        // turns on one thread ([`by_nodes`]), so that the same budget gives the same run.
        let prove_too = limits.max_nodes.is_none();
        let proven = Best::optimal(best.len(), best.lower.load(Ordering::Relaxed));
        if !proven && limits.check(0).is_ok() {
            stats = run(request, h, &inner, &shared, prove_too);
        }
    }
    stats.elapsed = best.started.elapsed();
    Solution {
        stats,
        ..best.solution()
    }
}

/// The prover: IDA*, raising the shared lower bound with each bound it completes; a solution it
/// finds is optimal and ends the run. It stops early, leaving its core to the improver, when
/// its iteration under way cannot end before the deadline far below the best answer
/// ([`forecast`]), by raising the cancel flag of `limits`: the prover's own one beside the
/// improver or in turn with it on one core, the run's in a browser (where the improver has had
/// its turn).
fn prove<H>(request: &Request, h: &H, limits: &Limits, shared: &Shared) -> Result<Stats, SolveError>
where
    H: Incremental + Sync,
    H::Aux: Send + Sync,
{
    let forecast = Mutex::new(forecast::Forecast::default());
    let raise = |p: Progress| {
        shared.best.proved.set(p.generated, p.expanded);
        shared.raise(p.bound);
        shared.tick();
        let mut forecast = forecast.lock().unwrap_or_else(|e| e.into_inner());
        if let (true, Some(deadline), Some(cancel)) =
            (forecast.record(&p), limits.deadline, &limits.cancel)
        {
            let left = deadline.saturating_duration_since(Instant::now());
            if forecast.give_up(left, shared.best.len()) {
                cancel.store(true, Ordering::Relaxed);
            }
        }
    };
    // The solver's pruning (duplicate moves, BPMX, the closest child first): the same bounds,
    // proved with fewer nodes.
    let pruning = Pruning::full(request.goal().len());
    let result = idastar_with(
        request.board(),
        request.goal(),
        h,
        pruning,
        limits,
        Some(&raise),
    );
    if let Ok(s) = &result {
        shared.raise(s.len() as u32);
        shared.offer(s.moves.clone());
        shared.proven();
    }
    result.map(|s| s.stats)
}

/// Adds what the prover spent, also when a limit stopped it.
fn add_proof(stats: &mut Stats, proof: Result<Stats, SolveError>) {
    match proof {
        Ok(s) | Err(SolveError::Limit { stats: s, .. }) => add(stats, &s),
        Err(_) => {}
    }
}

/// Time between two progress reports while nothing new is found ([`Shared::tick`]): whoever
/// shows the search (a terminal's spinner, the web page's progress line) sees its time and
/// nodes move on through a long beam or IDA* iteration.
const HEARTBEAT: std::time::Duration = std::time::Duration::from_millis(250);

/// The prover and the improver on two threads, with a supervisor passing the request's cancel
/// flag and deadline on to them, and reporting the progress every [`HEARTBEAT`] (where the
/// searches themselves do not). A search given one core ([`Limits::cores`]) runs them in turn
/// on one thread ([`one_thread`]) beside the supervisor, which waits more than it works.
#[cfg(not(target_arch = "wasm32"))]
fn run<H>(request: &Request, h: &H, inner: &Limits, shared: &Shared, prove_too: bool) -> Stats
where
    H: Incremental + Sync,
    H::Aux: Send + Sync,
{
    let limits = request.limits();
    let one_core = limits.cores_in_use() <= 1;
    let mut stats = Stats::default();
    // The prover's own flag: it may stop before the run does (see `prove`).
    let prover_stop = Arc::new(AtomicBool::new(false));
    let prover_limits = Limits {
        cancel: Some(prover_stop.clone()),
        ..inner.clone()
    };
    std::thread::scope(|scope| {
        let prover_limits = &prover_limits;
        let prover = (prove_too && !one_core)
            .then(|| scope.spawn(move || prove(request, h, prover_limits, shared)));
        let prover_flag = &*prover_stop;
        let improver = scope.spawn(move || {
            if inner.max_nodes.is_some() {
                by_nodes(request, h, inner, prover_limits, shared)
            } else if one_core {
                one_thread(
                    request,
                    h,
                    inner,
                    (prover_limits, prover_flag),
                    shared,
                    prove_too,
                )
            } else {
                improve::improve(request, h, inner, shared)
            }
        });
        while !improver.is_finished() || prover.as_ref().is_some_and(|p| !p.is_finished()) {
            if limits.check(0).is_err() || (improver.is_finished() && !prove_too) {
                shared.stop.store(true, Ordering::Relaxed);
            }
            if shared.stop.load(Ordering::Relaxed) {
                prover_stop.store(true, Ordering::Relaxed);
            } else {
                shared.tick();
            }
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        // A thread that panicked leaves the best answer as it was (its panic is printed).
        if let Ok(s) = improver.join() {
            add(&mut stats, &s);
        }
        if let Some(p) = prover {
            if let Ok(proof) = p.join() {
                add_proof(&mut stats, proof);
            }
        }
    });
    stats
}

/// `limits` up to `share` of the time left to their deadline (none without one).
fn share_of_time(limits: &Limits, share: f64) -> Limits {
    Limits {
        deadline: limits
            .deadline
            .map(|d| Instant::now() + d.saturating_duration_since(Instant::now()).mul_f64(share)),
        ..limits.clone()
    }
}

/// The share of the time a search on one core first gives the prover ([`one_thread`]), and of
/// the node budget a search given one ([`by_nodes`]).
#[cfg(not(target_arch = "wasm32"))]
const FIRST_PROOF_SHARE: f64 = 0.1;

/// A search given a node budget ([`Limits::max_nodes`]), on one thread beside the supervisor of
/// [`run`], which raises `prover_limits`' flag when the run stops: the prover within a tenth of
/// the budget ([`FIRST_PROOF_SHARE`]; a board it proves at once, most below 30 moves, ends
/// there), then the improver alone with the rest. The searches' node counts do not depend on
/// the clock or the cores, so the same budget gives the same run.
#[cfg(not(target_arch = "wasm32"))]
fn by_nodes<H>(
    request: &Request,
    h: &H,
    inner: &Limits,
    prover_limits: &Limits,
    shared: &Shared,
) -> Stats
where
    H: Incremental + Sync,
    H::Aux: Send + Sync,
{
    let budget = inner.max_nodes.unwrap_or(u64::MAX);
    let share = ((budget as f64 * FIRST_PROOF_SHARE) as u64).max(1);
    let mut stats = Stats::default();
    add_proof(
        &mut stats,
        prove(request, h, &prover_limits.at_most(share), shared),
    );
    let rest = inner.after(stats.generated);
    if !shared.stop.load(Ordering::Relaxed) && rest.check(0).is_ok() {
        add(&mut stats, &improve::improve(request, h, &rest, shared));
    }
    stats
}

/// A search given one core ([`Limits::cores`]), on one thread beside the supervisor of
/// [`run`], which raises `prover`'s flag when the run stops:
/// 1. the prover, for a tenth of the time ([`FIRST_PROOF_SHARE`]): a board it proves at once
///    (most below 30 moves) ends there;
/// 2. the improver, to half the time (to the end when no prover runs);
/// 3. the prover again, with the time left, under its own flag;
/// 4. when it gave up its iteration before the deadline ([`forecast`]; 6x6 and 7x7 boards),
///    the improver again, to the end.
#[cfg(not(target_arch = "wasm32"))]
fn one_thread<H>(
    request: &Request,
    h: &H,
    inner: &Limits,
    (prover_limits, prover_stop): (&Limits, &AtomicBool),
    shared: &Shared,
    prove_too: bool,
) -> Stats
where
    H: Incremental + Sync,
    H::Aux: Send + Sync,
{
    let stopped = || shared.stop.load(Ordering::Relaxed) || inner.check(0).is_err();
    let mut stats = Stats::default();
    if prove_too {
        let first = share_of_time(prover_limits, FIRST_PROOF_SHARE);
        add_proof(&mut stats, prove(request, h, &first, shared));
    }
    if stopped() {
        return stats;
    }
    let improving = if prove_too {
        share_of_time(inner, 0.5)
    } else {
        inner.clone()
    };
    add(
        &mut stats,
        &improve::improve(request, h, &improving, shared),
    );
    if !prove_too || stopped() {
        return stats;
    }
    // The flag the first proof's forecast may have raised; the supervisor raises it again
    // within milliseconds if the run has stopped meanwhile.
    prover_stop.store(false, Ordering::Relaxed);
    add_proof(&mut stats, prove(request, h, prover_limits, shared));
    if !stopped() {
        add(&mut stats, &improve::improve(request, h, inner, shared));
    }
    stats
}

/// In a browser (wasm32, one thread): the improver, then the prover ([`in_turn`]).
#[cfg(target_arch = "wasm32")]
fn run<H>(request: &Request, h: &H, inner: &Limits, shared: &Shared, prove_too: bool) -> Stats
where
    H: Incremental + Sync,
    H::Aux: Send + Sync,
{
    in_turn(request, h, inner, shared, prove_too)
}

/// In a browser: the improver first, within half the time, so that a solution comes at once,
/// then the prover with the time left.
#[cfg(target_arch = "wasm32")]
fn in_turn<H>(request: &Request, h: &H, inner: &Limits, shared: &Shared, prove_too: bool) -> Stats
where
    H: Incremental + Sync,
    H::Aux: Send + Sync,
{
    let half = share_of_time(inner, 0.5);
    let mut stats = improve::improve(request, h, &half, shared);
    let stopped = shared.stop.load(Ordering::Relaxed) || inner.check(0).is_err();
    if prove_too && !stopped {
        add_proof(&mut stats, prove(request, h, inner, shared));
    }
    stats
}

fn add(total: &mut Stats, s: &Stats) {
    total.expanded += s.expanded;
    total.generated += s.generated;
    total.iterations = total.iterations.max(s.iterations);
    total.peak_memory_bytes = total.peak_memory_bytes.max(s.peak_memory_bytes);
}
