//! Limits on a search: a node budget, a deadline, a memory budget and a cancel flag, plus the
//! progress callback through which a long search reports how far it got.
//!
//! Searches check limits after every [`Limits::CHECK_EVERY`] units of work (a node of a small
//! board is one unit; a node of a large board counts for its size, see [`Limits::next_check`]),
//! or sooner where a unit is slow (each loop paces its checks by their time), so that the
//! check costs nothing measurable in the inner loop, a cancel or deadline is still seen within
//! milliseconds whatever the board's size and the heuristic's cost, and a node budget is seen
//! as soon as it is spent.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::clock::Instant;

/// What a search may spend before it gives up. `Limits::default()` is unlimited.
#[derive(Debug, Clone, Default)]
pub struct Limits {
    /// Stop after generating this many nodes.
    pub max_nodes: Option<u64>,
    /// Stop at this instant.
    pub deadline: Option<Instant>,
    /// Stop when the open and closed sets of a memory-bound search (A*, BFS) would exceed this
    /// many bytes (both count their tables by capacity; BFS checks before they grow, A* at
    /// its checks of the other limits), instead of being killed by the system;
    /// the beams of the anytime search and of IDA* beyond 16 cells stay narrower than this
    /// allows.
    pub max_memory_bytes: Option<usize>,
    /// Stop as soon as this flag becomes true (set from another thread, e.g. on Ctrl-C or when a
    /// web client goes away).
    pub cancel: Option<Arc<AtomicBool>>,
    /// Cores the anytime search uses (`None`: every core): its beams' layers are shared out
    /// among that many threads, beside its prover's thread; with one, the prover and the
    /// improver take turns on a single thread. The other searches take their threads from
    /// [`crate::SolveOptions::threads`].
    pub cores: Option<usize>,
}

/// Longest time limit a user may give, in seconds: a year, far past any search worth waiting
/// for and well inside what the clock can add.
pub const MAX_TIMEOUT_SECS: f64 = 365.0 * 24.0 * 3600.0;

/// A limit written by a user that cannot be used. The text says what to give instead; each front
/// end puts the name of its option in front (`--timeout must be ...`, `timeout must be ...`).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum LimitError {
    /// A time limit that is not a positive number of seconds up to [`MAX_TIMEOUT_SECS`].
    #[error(
        "must be a positive number of seconds, at most {MAX_TIMEOUT_SECS} (a year), got {0:?}"
    )]
    Seconds(f64),
    /// A memory budget in MiB whose bytes do not fit in a memory address.
    #[error("{0} MiB is more memory than this machine can address: at most {max} MiB", max = usize::MAX >> 20)]
    Mebibytes(usize),
    /// A memory budget of 0 MiB, in which no search can hold even its start.
    #[error("must be at least 1 MiB: 0 leaves no memory to search in")]
    NoMemory,
    /// More threads than [`MAX_THREADS`].
    #[error("{0} is more than {MAX_THREADS}, the most threads one search takes: give the machine's cores or fewer (0: every core); threads beyond the cores only wait for them")]
    Threads(usize),
    /// A node budget of 0, in which no search can look at a single move.
    #[error("must be at least 1: a budget of 0 nodes leaves nothing to search")]
    NoNodes,
}

/// A time limit given in seconds (fractions allowed): positive, finite and at most
/// [`MAX_TIMEOUT_SECS`]. The one check of every front end's `timeout`, so none can hand
/// `Duration::from_secs_f64` a value it panics on.
///
/// ```
/// use taquin::limits::timeout_secs;
/// assert_eq!(timeout_secs(0.25)?.as_millis(), 250);
/// assert!(timeout_secs(0.0).is_err() && timeout_secs(f64::INFINITY).is_err());
/// # Ok::<(), taquin::limits::LimitError>(())
/// ```
pub fn timeout_secs(seconds: f64) -> Result<Duration, LimitError> {
    if seconds.is_finite() && seconds > 0.0 && seconds <= MAX_TIMEOUT_SECS {
        Ok(Duration::from_secs_f64(seconds))
    } else {
        Err(LimitError::Seconds(seconds))
    }
}

/// The bytes of a memory budget given in MiB, refused when they do not fit in a memory address
/// or when there are none.
pub fn mebibytes(mib: usize) -> Result<usize, LimitError> {
    if mib == 0 {
        return Err(LimitError::NoMemory);
    }
    mib.checked_mul(1 << 20).ok_or(LimitError::Mebibytes(mib))
}

/// Most threads one search may be given: far past the cores of the machines taquin runs on,
/// and far below the count at which starting them costs seconds (each thread of the parallel
/// IDA* or of God's number search is started per iteration or layer).
pub const MAX_THREADS: usize = 256;

/// A thread count a user gave (0: every core), refused above [`MAX_THREADS`]: every front end's
/// one check.
///
/// ```
/// use taquin::limits::thread_count;
/// assert_eq!(thread_count(0), Ok(0));
/// assert!(thread_count(100_000).is_err());
/// ```
pub fn thread_count(threads: usize) -> Result<usize, LimitError> {
    if threads > MAX_THREADS {
        Err(LimitError::Threads(threads))
    } else {
        Ok(threads)
    }
}

/// A node budget (nodes generated), refused when it is 0: every front end's one check, so that
/// the command line, the bindings and the web API refuse the same values.
///
/// ```
/// use taquin::limits::node_budget;
/// assert_eq!(node_budget(1), Ok(1));
/// assert!(node_budget(0).is_err());
/// ```
pub fn node_budget(nodes: u64) -> Result<u64, LimitError> {
    if nodes == 0 {
        Err(LimitError::NoNodes)
    } else {
        Ok(nodes)
    }
}

/// Which limit stopped a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitHit {
    /// The node budget ran out.
    Nodes,
    /// The deadline passed.
    Time,
    /// The memory budget would have been exceeded.
    Memory,
    /// The cancel flag was raised.
    Cancelled,
}

impl LimitHit {
    /// The limit's machine-readable name (`nodes`, `time`, `memory`, `cancelled`), the `limit`
    /// field of the API's and the bindings' limit errors.
    pub fn name(self) -> &'static str {
        match self {
            LimitHit::Nodes => "nodes",
            LimitHit::Time => "time",
            LimitHit::Memory => "memory",
            LimitHit::Cancelled => "cancelled",
        }
    }
}

impl std::fmt::Display for LimitHit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            LimitHit::Nodes => "node limit reached",
            LimitHit::Time => "time limit reached",
            LimitHit::Memory => "memory limit reached",
            LimitHit::Cancelled => "cancelled",
        })
    }
}

impl Limits {
    /// How many nodes a search may generate between two checks of the limits.
    pub const CHECK_EVERY: u64 = 1 << 14;

    /// Default memory budget for A* and BFS when none is given: 4 GiB, well inside the machine.
    pub const DEFAULT_MEMORY: usize = 4 << 30;

    /// No limit of the caller's: no node budget, no deadline, no cancel flag, the default
    /// memory budget ([`Limits::DEFAULT_MEMORY`]) for A* and BFS.
    ///
    /// One time budget still applies when [`crate::solve`] is left to choose: on a board of
    /// more than 16 cells ([`crate::planner::MAX_QUICK_CELLS`]) the planner picks the anytime
    /// search, and without a deadline that search stops after
    /// [`crate::planner::ANYTIME_BUDGET`] (10 s) with the best answer found by then. To give it
    /// another time, set a deadline of your own ([`Limits::with_timeout`]); an algorithm asked
    /// for by name ([`crate::SolveOptions::algorithm`]) other than the anytime search gets no
    /// such budget.
    pub fn none() -> Limits {
        Limits::default()
    }

    /// The limits a caller asked for, each optional: a time limit counted from now, a node
    /// budget and a memory budget in bytes (see [`timeout_secs`] and [`mebibytes`] for values
    /// written by a user).
    pub fn new(
        timeout: Option<Duration>,
        max_nodes: Option<u64>,
        max_memory_bytes: Option<usize>,
    ) -> Limits {
        let limits = Limits {
            max_nodes,
            max_memory_bytes,
            ..Limits::default()
        };
        match timeout {
            Some(t) => limits.with_timeout(t),
            None => limits,
        }
    }

    /// A limit of `timeout` from now. A timeout too far away for the clock (`Duration::MAX`,
    /// centuries) means no deadline, instead of the overflow panic of `Instant + Duration`: the
    /// one place where deadlines are computed.
    pub fn with_timeout(mut self, timeout: Duration) -> Limits {
        self.deadline = Instant::now().checked_add(timeout);
        self
    }

    /// These limits without their deadline and node budget (the memory budget and the cancel
    /// flag stay): for work that the board alone bounds to a few milliseconds, which a caller
    /// wants done whatever the clock or the budget says.
    pub fn without_deadline_or_nodes(&self) -> Limits {
        Limits {
            deadline: None,
            max_nodes: None,
            ..self.clone()
        }
    }

    /// These limits without their node budget (the deadline, the memory budget and the cancel
    /// flag stay): for work that the board alone bounds, which a node budget, meant for a
    /// search, should not leave undone.
    pub fn without_nodes(&self) -> Limits {
        Limits {
            max_nodes: None,
            ..self.clone()
        }
    }

    /// These limits with their deadline brought `by` earlier (to now at the latest): for a
    /// search that must leave time before the deadline for what follows it.
    pub(crate) fn ending_earlier(&self, by: Duration) -> Limits {
        let now = Instant::now();
        Limits {
            deadline: self
                .deadline
                .map(|d| d.checked_sub(by).map_or(now, |early| early.max(now))),
            ..self.clone()
        }
    }

    /// A node budget: the search stops once it has generated this many nodes. 0 stops it at
    /// once, before its first node (the anytime search still answers with its first solution
    /// up to 32 x 32); a budget a user typed is better checked with [`node_budget`], which
    /// refuses 0.
    pub fn with_max_nodes(mut self, nodes: u64) -> Limits {
        self.max_nodes = Some(nodes);
        self
    }

    /// A memory budget in bytes.
    pub fn with_max_memory(mut self, bytes: usize) -> Limits {
        self.max_memory_bytes = Some(bytes);
        self
    }

    /// These limits once `spent` nodes of the node budget are spent: for the next of several
    /// searches that share the budget (the other limits stay as they are).
    pub fn after(&self, spent: u64) -> Limits {
        Limits {
            max_nodes: self.max_nodes.map(|m| m.saturating_sub(spent)),
            ..self.clone()
        }
    }

    /// These limits with a node budget of at most `nodes`.
    pub fn at_most(&self, nodes: u64) -> Limits {
        Limits {
            max_nodes: Some(self.max_nodes.map_or(nodes, |m| m.min(nodes))),
            ..self.clone()
        }
    }

    /// At most `cores` cores for the anytime search (0: every core).
    pub fn with_cores(mut self, cores: usize) -> Limits {
        self.cores = (cores > 0).then_some(cores);
        self
    }

    /// The cores the anytime search may keep busy: [`Limits::cores`], at most the machine's
    /// (which it takes when none is given).
    pub fn cores_in_use(&self) -> usize {
        let machine = std::thread::available_parallelism().map_or(1, |n| n.get());
        self.cores.map_or(machine, |c| c.clamp(1, machine))
    }

    /// A cancel flag shared with the caller.
    pub fn with_cancel(mut self, flag: Arc<AtomicBool>) -> Limits {
        self.cancel = Some(flag);
        self
    }

    /// The memory budget in force: the one given, or [`Limits::DEFAULT_MEMORY`].
    pub fn memory_budget(&self) -> usize {
        self.max_memory_bytes.unwrap_or(Limits::DEFAULT_MEMORY)
    }

    /// When a loop should check its limits next, as a count of work units: `work` is the work
    /// done so far and `generated` the nodes generated so far. The answer is
    /// [`Limits::CHECK_EVERY`] units on, or sooner when the node budget would run out first. A
    /// loop counts at least one unit per node generated (so the node budget is never overshot
    /// by more than one expansion) and more for nodes that cost more: A* and BFS count a node as
    /// 1 + its heap bytes / 64 (copying, hashing and storing it are linear in its size), which
    /// keeps a 300x300 board's search checking every few nodes instead of every few seconds.
    pub fn next_check(&self, work: u64, generated: u64) -> u64 {
        self.next_check_of(work, generated, 1)
    }

    /// [`Limits::next_check`] for one of `threads` threads that share the node budget, with
    /// `generated` the nodes of all of them published so far: each goes on for at most half its
    /// share of what is left before it checks again. The others' nodes since their last check
    /// are not in `generated`, so the threads together may pass the budget by what they
    /// generate between two checks: near the budget, a small part of what was left, instead of
    /// up to [`Limits::CHECK_EVERY`] each.
    pub fn next_check_of(&self, work: u64, generated: u64, threads: usize) -> u64 {
        let shares = if threads > 1 { 2 * threads as u64 } else { 1 };
        let left = self
            .max_nodes
            .map_or(u64::MAX, |m| m.saturating_sub(generated).div_ceil(shares));
        work.saturating_add(Limits::CHECK_EVERY.min(left))
    }

    /// Checks node budget, cancel flag and deadline, in that order (cheapest first).
    pub fn check(&self, generated: u64) -> Result<(), LimitHit> {
        if self.max_nodes.is_some_and(|m| generated >= m) {
            return Err(LimitHit::Nodes);
        }
        if self
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
        {
            return Err(LimitHit::Cancelled);
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(LimitHit::Time);
        }
        Ok(())
    }

    /// Checks the memory budget against an estimate of bytes in use.
    pub fn check_memory(&self, bytes: usize) -> Result<(), LimitHit> {
        if bytes > self.memory_budget() {
            Err(LimitHit::Memory)
        } else {
            Ok(())
        }
    }
}

/// How much work a loop does between two checks of its limits: what [`Limits::next_check`]
/// allows where work is quick, less where it is slow, so that the checks come about every
/// [`Pace::AIM`] whatever a unit of work costs. A search whose heuristic is computed from
/// scratch for every node from one-bit tables (weighted A* or LRTA* with the 6x6 set: tens of
/// microseconds a node) checked its time limit about once a second, and passed it by as much.
#[derive(Debug)]
pub(crate) struct Pace {
    /// Work between two checks, at most [`Limits::CHECK_EVERY`].
    every: u64,
    /// When the last check was made.
    since: Instant,
}

impl Pace {
    /// Time aimed at between two checks.
    const AIM: Duration = Duration::from_millis(5);
    /// Work before the first check: small, since how long a unit takes is not known yet.
    const FIRST: u64 = 256;

    /// A pace starting now.
    pub(crate) fn new() -> Pace {
        Pace {
            every: Pace::FIRST,
            since: Instant::now(),
        }
    }

    /// The work before the first check (from 0).
    pub(crate) fn first(&self, limits: &Limits) -> u64 {
        limits.next_check(0, 0).min(self.every)
    }

    /// After a check made at `work`, with `generated` nodes generated: the work at which to
    /// check next. The stretch is scaled to [`Pace::AIM`] by the time the last one took.
    pub(crate) fn next(&mut self, limits: &Limits, work: u64, generated: u64) -> u64 {
        let now = Instant::now();
        let took = now.saturating_duration_since(self.since);
        self.since = now;
        if took > Pace::AIM {
            let scaled = u128::from(self.every) * Pace::AIM.as_nanos() / took.as_nanos();
            self.every = (scaled as u64).max(1);
        } else if took < Pace::AIM / 2 {
            self.every = self.every.saturating_mul(2).min(Limits::CHECK_EVERY);
        }
        limits
            .next_check(work, generated)
            .min(work.saturating_add(self.every))
    }
}

/// The loop-side half of [`Limits`]: counts the work a loop does and checks the limits each time
/// enough was done ([`Limits::next_check`], at the loop's [`Pace`]). Once a limit is hit it
/// stays hit, so a recursive search can unwind by asking [`Budget::spend`] at every level.
#[derive(Debug)]
pub(crate) struct Budget<'a> {
    limits: &'a Limits,
    work: u64,
    next: u64,
    pace: Pace,
    hit: Option<LimitHit>,
}

impl<'a> Budget<'a> {
    /// A budget checking `limits`, nothing spent.
    pub(crate) fn new(limits: &'a Limits) -> Budget<'a> {
        let pace = Pace::new();
        Budget {
            limits,
            work: 0,
            next: pace.first(limits),
            pace,
            hit: None,
        }
    }

    /// Records `work` more units, with `generated` nodes generated so far; true when a limit
    /// is hit (now or before). Work never counts less than the nodes generated, so the node
    /// budget is seen in time whatever the caller counts as work.
    #[inline]
    pub(crate) fn spend(&mut self, work: u64, generated: u64) -> bool {
        self.work = self.work.saturating_add(work).max(generated);
        if self.work >= self.next {
            self.check(generated);
        }
        self.hit.is_some()
    }

    #[cold]
    fn check(&mut self, generated: u64) {
        self.next = self.pace.next(self.limits, self.work, generated);
        if self.hit.is_none() {
            self.hit = self.limits.check(generated).err();
        }
    }

    /// The limit that was hit, if any.
    pub(crate) fn hit(&self) -> Option<LimitHit> {
        self.hit
    }
}

/// A snapshot of a running search, handed to the progress callback.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Progress {
    /// Nodes generated so far.
    pub generated: u64,
    /// Nodes expanded so far.
    pub expanded: u64,
    /// The current f-bound (IDA*) or the smallest f on the open list (A*): a proven lower bound
    /// on the solution length.
    pub bound: u32,
    /// Time since the search started.
    pub elapsed: Duration,
    /// The length of the best solution found so far, for searches that find better and better
    /// ones (the anytime search); `None` elsewhere. A new value is an improvement.
    pub best: Option<u32>,
    /// The moves of that best solution (`best` of them, replayed to the goal), so that whoever
    /// shows the search can keep the best so far when it is stopped; `None` where `best` is.
    pub best_moves: Option<Arc<[crate::moves::Move]>>,
}

/// The progress callback type: called at the searches' checks of their limits (every few
/// milliseconds) and at each new IDA* bound; by the anytime search at each better answer or
/// bound, and every quarter of a second between them while its searches run.
pub type ProgressFn<'a> = &'a (dyn Fn(Progress) + Sync);

/// Picks the improvements out of a search's progress reports: a report whose best answer
/// ([`Progress::best`]) is shorter than every one before it. The reports of an anytime search
/// come in order, but whoever shows them (a terminal, a stream, a Python callback) may be
/// called from several threads: this keeps "only a shorter answer is news" right either way.
#[derive(Debug, Default)]
pub struct Improvements {
    shortest: std::sync::Mutex<Option<u32>>,
}

impl Improvements {
    /// None seen yet.
    pub fn new() -> Improvements {
        Improvements::default()
    }

    /// `p`'s best length when it is shorter than every one seen before (and remembers it);
    /// `None` for a report with no answer or with none shorter.
    pub fn news(&self, p: &Progress) -> Option<u32> {
        let best = p.best?;
        let mut shortest = self.shortest.lock().unwrap_or_else(|e| e.into_inner());
        if shortest.is_some_and(|seen| best >= seen) {
            return None;
        }
        *shortest = Some(best);
        Some(best)
    }

    /// The shortest answer seen so far.
    pub fn shortest(&self) -> Option<u32> {
        *self.shortest.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn slow_work_is_checked_sooner_and_a_node_budget_still_at_its_node() {
        let limits = Limits::none();
        let mut pace = Pace::new();
        assert_eq!(pace.first(&limits), Pace::FIRST);
        // A stretch of work that took far longer than the aim: the next stretch is shorter.
        std::thread::sleep(Duration::from_millis(30));
        let next = pace.next(&limits, 1000, 1000);
        assert!(
            next > 1000 && next - 1000 < Pace::FIRST,
            "next check at {next}"
        );
        // Never past the node budget's last node, whatever the pace.
        let budget = Limits::none().with_max_nodes(1010);
        assert!(pace.next(&budget, 1000, 1000) <= 1010);
    }

    #[test]
    fn cores_are_at_least_one_and_at_most_the_machines() {
        let machine = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert_eq!(Limits::none().cores_in_use(), machine);
        assert_eq!(Limits::none().with_cores(0).cores, None);
        assert_eq!(Limits::none().with_cores(1).cores_in_use(), 1);
        assert_eq!(
            Limits::none().with_cores(machine + 5).cores_in_use(),
            machine
        );
    }
    use super::*;

    #[test]
    fn only_a_shorter_answer_is_an_improvement() {
        let at = |best: Option<u32>| Progress {
            generated: 0,
            expanded: 0,
            bound: 10,
            elapsed: Duration::ZERO,
            best,
            best_moves: None,
        };
        let news = Improvements::new();
        assert_eq!(news.news(&at(None)), None);
        assert_eq!(news.news(&at(Some(40))), Some(40));
        assert_eq!(news.news(&at(Some(40))), None);
        assert_eq!(news.news(&at(Some(44))), None);
        assert_eq!(news.news(&at(None)), None);
        assert_eq!(news.news(&at(Some(38))), Some(38));
        assert_eq!(news.shortest(), Some(38));
    }

    #[test]
    fn each_limit_trips() {
        assert_eq!(Limits::none().check(u64::MAX), Ok(()));
        assert_eq!(
            Limits::none().with_max_nodes(10).check(10),
            Err(LimitHit::Nodes)
        );
        let flag = Arc::new(AtomicBool::new(false));
        let l = Limits::none().with_cancel(flag.clone());
        assert_eq!(l.check(0), Ok(()));
        flag.store(true, Ordering::Relaxed);
        assert_eq!(l.check(0), Err(LimitHit::Cancelled));
        let l = Limits::none().with_timeout(Duration::ZERO);
        assert_eq!(l.check(0), Err(LimitHit::Time));
        assert_eq!(
            Limits::none().with_max_memory(10).check_memory(11),
            Err(LimitHit::Memory)
        );
    }

    #[test]
    fn a_budget_stays_hit_once_hit() {
        let limits = Limits::none().with_max_nodes(3);
        let mut b = Budget::new(&limits);
        assert!(!b.spend(1, 1));
        assert!(!b.spend(1, 2));
        assert!(b.spend(1, 3));
        assert!(b.spend(0, 0), "a hit is remembered");
        assert_eq!(b.hit(), Some(LimitHit::Nodes));
    }

    #[test]
    fn a_deadline_brought_earlier_is_now_at_the_latest() {
        let ten = Limits::none().with_timeout(Duration::from_secs(10));
        let early = ten.ending_earlier(Duration::from_secs(4)).deadline.unwrap();
        assert!(early <= Instant::now() + Duration::from_secs(6));
        assert!(early > Instant::now() + Duration::from_secs(5));
        let past = ten.ending_earlier(Duration::from_secs(100));
        assert_eq!(past.check(0), Err(LimitHit::Time));
        assert_eq!(
            Limits::none().ending_earlier(Duration::MAX).deadline,
            None,
            "no deadline stays none"
        );
    }

    #[test]
    fn a_timeout_beyond_the_clock_is_no_deadline_not_a_panic() {
        let l = Limits::none().with_timeout(Duration::MAX);
        assert_eq!(l.check(0), Ok(()));
        let l = Limits::none().with_timeout(Duration::from_secs(10_000_000_000_000_000_000));
        assert_eq!(l.check(0), Ok(()));
    }

    #[test]
    fn user_limits_are_checked_before_they_become_durations() {
        assert_eq!(timeout_secs(1.5), Ok(Duration::from_millis(1500)));
        assert_eq!(
            timeout_secs(MAX_TIMEOUT_SECS),
            Ok(Duration::from_secs(365 * 24 * 3600))
        );
        // Each of these would make `Duration::from_secs_f64` panic or mean no limit at all.
        for bad in [
            0.0,
            -1.0,
            1e300,
            f64::NAN,
            f64::INFINITY,
            MAX_TIMEOUT_SECS * 1.01,
        ] {
            let e = timeout_secs(bad).unwrap_err();
            assert!(e
                .to_string()
                .starts_with("must be a positive number of seconds"));
        }
        assert_eq!(mebibytes(3), Ok(3 << 20));
        assert_eq!(mebibytes(0), Err(LimitError::NoMemory));
        let e = mebibytes(usize::MAX).unwrap_err();
        assert!(e
            .to_string()
            .contains("more memory than this machine can address"));
    }

    #[test]
    fn limits_asked_for_are_the_ones_set() {
        let l = Limits::new(None, Some(7), Some(1 << 20));
        assert_eq!((l.max_nodes, l.max_memory_bytes), (Some(7), Some(1 << 20)));
        assert!(l.deadline.is_none() && l.cancel.is_none());
        let l = Limits::new(Some(Duration::ZERO), None, None);
        assert_eq!(l.check(0), Err(LimitHit::Time));
        assert_eq!(Limits::new(None, None, None).check(u64::MAX), Ok(()));
    }

    #[test]
    fn the_next_check_comes_no_later_than_the_node_budget() {
        assert_eq!(Limits::none().next_check(5, 5), 5 + Limits::CHECK_EVERY);
        let l = Limits::none().with_max_nodes(10);
        assert_eq!(l.next_check(0, 0), 10);
        assert_eq!(l.next_check(100, 4), 106);
        assert_eq!(l.next_check(100, 50), 100, "budget spent: check at once");
        assert_eq!(Limits::none().next_check(u64::MAX - 1, 0), u64::MAX);
    }
}
