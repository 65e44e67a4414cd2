//! Waiting for an anytime run without being held up by it. The run (opening the tables, then
//! [`super::anytime`]) goes on a thread of its own and reports through a channel; at the
//! deadline, or when the request is cancelled, the caller answers with the best so far
//! ([`Best`]) even if a thread of the run is still inside a table read.
//!
//! Why: a table read that misses the page cache waits for the disk. Measured on a 24-puzzle
//! with the eight tables of `zpdb:6-6-6-6+7-7-7-3` just evicted from the page cache, the root's
//! entries alone (a 1-bit table walks down to its goal, one read a step) took 0.6 s, so that a
//! `--timeout 0.1` answer came after 1.2 s. The run sees the stop at its next check and ends on
//! its own; nothing it holds is needed by the answer.
//!
//! A run given up on this way still holds its beams until it ends. So that it never adds to the
//! searches started after it (a batch or a server goes on to its next board at once), a new run
//! waits for the runs given up on before it to end: the process then holds no more runs than
//! it has searches in flight. The wait keeps the new run's own limits (its caller still answers
//! on time, with the first answer if the wait took all the time), and a run given up on more
//! than [`WAIT_AT_MOST`] ago is no longer waited for: one that never comes back (a hung network
//! disk) would otherwise hold every later search to its first answer.

use super::Best;
use crate::limits::{Limits, ProgressFn};
use crate::solution::{Solution, SolveError};

/// How long past the deadline (or a cancel) the caller waits for the run to end by itself,
/// with its statistics, before answering with the best so far: a run not held up by the disk
/// ends within a few milliseconds of its deadline.
#[cfg(not(target_arch = "wasm32"))]
const GRACE: std::time::Duration = std::time::Duration::from_millis(50);

/// How often the caller looks at the run's channel and its limits, and a new run at the runs
/// given up on before it.
#[cfg(not(target_arch = "wasm32"))]
const POLL: std::time::Duration = std::time::Duration::from_millis(5);

/// How long after a run was given up on a new run still waits for it to end (see the module
/// documentation): far longer than a read from a slow disk takes.
#[cfg(not(target_arch = "wasm32"))]
const WAIT_AT_MOST: std::time::Duration = std::time::Duration::from_secs(10);

/// Runs `work` (given the limits it is to keep and a progress callback) on a thread of its own,
/// passes its progress on to `progress`, and returns its solution, or the best in `best` (which
/// `work` keeps improving) when the run is not over [`GRACE`] after `limits` ran out. A run
/// stopped by a limit before it found anything of its own (its tables took the time) also
/// answers with `best`: the first answer. In a browser (wasm32, one thread), the run, then its
/// answer.
pub(crate) fn run_detached<F>(
    limits: &Limits,
    best: &Best,
    progress: Option<ProgressFn>,
    work: F,
) -> Result<Solution, SolveError>
where
    F: FnOnce(&Limits, ProgressFn) -> Result<Solution, SolveError> + Send + 'static,
{
    #[cfg(not(target_arch = "wasm32"))]
    {
        /// The runs of this process given up on that may still be going.
        static GIVEN_UP: GivenUp = GivenUp::new();
        run_detached_with(&GIVEN_UP, limits, best, progress, work)
    }
    #[cfg(target_arch = "wasm32")]
    {
        let silent = |_: crate::limits::Progress| {};
        finished(best, limits, work(limits, progress.unwrap_or(&silent)))
    }
}

/// Runs that a caller stopped waiting for (see [`run_detached`]) and that may still be going,
/// held up in a table read, each with the moment it was given up on. A new run waits for them
/// to end before it starts its own work.
#[cfg(not(target_arch = "wasm32"))]
struct GivenUp(std::sync::Mutex<Vec<(std::thread::JoinHandle<()>, crate::clock::Instant)>>);

#[cfg(not(target_arch = "wasm32"))]
impl GivenUp {
    const fn new() -> GivenUp {
        GivenUp(std::sync::Mutex::new(Vec::new()))
    }

    fn add(&self, run: std::thread::JoinHandle<()>) {
        self.runs().push((run, crate::clock::Instant::now()));
    }

    /// Waits until every run given up on less than [`WAIT_AT_MOST`] ago has ended; false if
    /// `limits` ran out first (the new run's deadline or cancel).
    fn wait_until_ended(&self, limits: &Limits) -> bool {
        loop {
            {
                let mut runs = self.runs();
                runs.retain(|(run, since)| !run.is_finished() && since.elapsed() < WAIT_AT_MOST);
                if runs.is_empty() {
                    return true;
                }
            }
            if limits.check(0).is_err() {
                return false;
            }
            std::thread::sleep(POLL);
        }
    }

    #[allow(clippy::type_complexity)]
    fn runs(
        &self,
    ) -> std::sync::MutexGuard<'_, Vec<(std::thread::JoinHandle<()>, crate::clock::Instant)>> {
        // A panic elsewhere while the list was held leaves it usable: it is only a list.
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// [`run_detached`] with the runs given up on so far in `given_up`, to wait for before this
/// run starts and to add this run to if it is given up on too.
#[cfg(not(target_arch = "wasm32"))]
fn run_detached_with<F>(
    given_up: &GivenUp,
    limits: &Limits,
    best: &Best,
    progress: Option<ProgressFn>,
    work: F,
) -> Result<Solution, SolveError>
where
    F: FnOnce(&Limits, ProgressFn) -> Result<Solution, SolveError> + Send + 'static,
{
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::mpsc::{channel, RecvTimeoutError};
    use std::sync::Arc;

    use crate::clock::Instant;
    use crate::limits::Progress;

    enum Event {
        Progress(Progress),
        Done(Result<Solution, SolveError>),
    }
    // A run given up on before may still hold its memory: this one starts when it is gone.
    if !given_up.wait_until_ended(limits) {
        return Ok(best.solution());
    }
    // The run stops on `abandon`, raised here on the caller's cancel and past the deadline.
    let abandon = Arc::new(AtomicBool::new(false));
    let run_limits = Limits {
        cancel: Some(abandon.clone()),
        ..limits.clone()
    };
    let (tx, rx) = channel();
    let spawned = std::thread::Builder::new()
        .name("taquin-anytime".into())
        .spawn(move || {
            let report = |p: Progress| {
                // The caller may have answered and gone already.
                let _ = tx.send(Event::Progress(p));
            };
            let result = work(&run_limits, &report);
            let _ = tx.send(Event::Done(result));
        });
    let Ok(run) = spawned else {
        // No thread to be had (the process is at its limit): the first answer stands.
        return Ok(best.solution());
    };
    let done = |result| finished(best, limits, result);
    // What the caller was told last (the first answer, by the solver): an answer given at the
    // deadline that is ahead of it is reported too, so that the last report matches the answer.
    let first = best.solution();
    let mut told = (first.len(), first.lower_bound);
    let mut forward = |p: Progress| {
        if let Some(len) = p.best {
            told = (len as usize, u64::from(p.bound));
        }
        if let Some(report) = progress {
            report(p);
        }
    };
    let mut ran_out: Option<Instant> = None;
    loop {
        match rx.recv_timeout(POLL) {
            Ok(Event::Progress(p)) => forward(p),
            Ok(Event::Done(result)) => return done(result),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return Err(panicked()),
        }
        if ran_out.is_none() && limits.check(0).is_err() {
            abandon.store(true, Ordering::Relaxed);
            ran_out = Some(Instant::now());
        }
        if ran_out.is_some_and(|t| t.elapsed() >= GRACE) {
            // The run is held up: what it reported meanwhile, then the best so far.
            loop {
                match rx.try_recv() {
                    Ok(Event::Progress(p)) => forward(p),
                    Ok(Event::Done(result)) => return done(result),
                    Err(_) => break,
                }
            }
            let answer = best.solution();
            if let Some(report) = progress.filter(|_| told != (answer.len(), answer.lower_bound)) {
                report(Progress {
                    generated: answer.stats.generated,
                    expanded: answer.stats.expanded,
                    bound: u32::try_from(answer.lower_bound).unwrap_or(u32::MAX),
                    elapsed: best.started.elapsed(),
                    best: Some(answer.len() as u32),
                    best_moves: Some(answer.moves.as_slice().into()),
                });
            }
            // A run held up this long keeps what it holds (its beams, a core) until its next
            // check: the next run waits for it to end.
            given_up.add(run);
            return Ok(answer);
        }
    }
}

/// The error of a run whose thread panicked (the panic's message is printed on stderr).
#[cfg(not(target_arch = "wasm32"))]
fn panicked() -> SolveError {
    SolveError::Unsupported(
        "internal error: the search stopped with a panic (its message is printed above); \
         please report it"
            .into(),
    )
}

/// The run's own answer, or `best` when a limit stopped it before it had one (its tables took
/// the time), or when it failed once `limits` had run out: a table found damaged by a check
/// that ended after the deadline or the cancel leaves no time for another plan, and the answer
/// in hand is the one to give (the tables' observer has heard of the file already).
fn finished(
    best: &Best,
    limits: &Limits,
    result: Result<Solution, SolveError>,
) -> Result<Solution, SolveError> {
    match result {
        Err(SolveError::Limit { .. }) => Ok(best.solution()),
        Err(_) if limits.check(0).is_err() => Ok(best.solution()),
        other => other,
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::clock::Instant;
    use crate::limits::Progress;
    use crate::moves::Move;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    /// A run held up (as in a read from a cold disk, which ignores every flag) until `held` is
    /// lowered, or 5 s have passed.
    fn hold(held: &AtomicBool) {
        let start = std::time::Instant::now();
        while held.load(Ordering::Relaxed) && start.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// A run's own answer, told apart from the first answer by its bound.
    fn bounded(lower_bound: u64) -> Result<Solution, SolveError> {
        Ok(Solution {
            lower_bound,
            ..Solution::default()
        })
    }

    fn progress(best: u32) -> Progress {
        Progress {
            generated: 0,
            expanded: 0,
            bound: 0,
            elapsed: Duration::ZERO,
            best: Some(best),
            best_moves: None,
        }
    }

    #[test]
    fn the_deadline_holds_while_the_run_is_held_up() {
        use Move::{Left, Right};
        let best = Arc::new(Best::new(vec![Left, Right, Left, Right], 0, Instant::now()));
        let (held, released) = (
            Arc::new(AtomicBool::new(true)),
            Arc::new(AtomicBool::new(false)),
        );
        let (held_in_run, released_in_run, best_in_run) =
            (held.clone(), released.clone(), best.clone());
        let reports = Mutex::new(Vec::new());
        let record = |p: Progress| reports.lock().unwrap().push(p.best);
        let limits = Limits::none().with_timeout(Duration::from_millis(20));
        // A list of its own: the run given up on here is no concern of the other tests' runs.
        let given_up = GivenUp::new();
        let answer = run_detached_with(
            &given_up,
            &limits,
            &best,
            Some(&record),
            move |_, report| {
                // A better answer, reported; a better one still, not yet reported; then a read that
                // does not come back until released or 5 s have passed (as a page fault on a cold
                // disk ignores every flag): a caller that waited for the run would see it released.
                *best_in_run.moves() = vec![Left, Right];
                report(progress(2));
                *best_in_run.moves() = vec![];
                best_in_run.improved.add(5, 3);
                hold(&held_in_run);
                released_in_run.store(true, Ordering::Relaxed);
                Ok(Solution::default())
            },
        )
        .unwrap();
        // The answer came while the run was still held: the best it had found, with its nodes,
        // and the caller was told of it.
        assert!(!released.load(Ordering::Relaxed));
        assert_eq!(answer.moves, vec![]);
        assert_eq!((answer.stats.generated, answer.stats.expanded), (5, 3));
        assert_eq!(*reports.lock().unwrap(), vec![Some(2), Some(0)]);
        held.store(false, Ordering::Relaxed);
    }

    #[test]
    fn a_new_run_waits_for_the_one_given_up_on_to_end() {
        use Move::{Left, Right};
        let given_up = GivenUp::new();
        let best = Best::new(vec![Left, Right], 0, Instant::now());
        let held = Arc::new(AtomicBool::new(true));
        let held_in_run = held.clone();
        // A run held past its deadline (as in a read from a cold disk) is given up on.
        let limits = Limits::none().with_timeout(Duration::from_millis(10));
        run_detached_with(&given_up, &limits, &best, None, move |_, _| {
            hold(&held_in_run);
            Ok(Solution::default())
        })
        .unwrap();
        // While it is still held, the next run does not start: its caller answers at its own
        // deadline with the first answer.
        let started = Arc::new(AtomicBool::new(false));
        let started_in_run = started.clone();
        let limits = Limits::none().with_timeout(Duration::from_millis(30));
        let answer = run_detached_with(&given_up, &limits, &best, None, move |_, _| {
            started_in_run.store(true, Ordering::Relaxed);
            Ok(Solution::default())
        })
        .unwrap();
        assert!(
            !started.load(Ordering::Relaxed),
            "a run started beside one given up on"
        );
        assert_eq!(answer.moves, vec![Left, Right]);
        // Once the held run has ended, the next one goes ahead.
        held.store(false, Ordering::Relaxed);
        let answer =
            run_detached_with(&given_up, &Limits::none(), &best, None, |_, _| bounded(7)).unwrap();
        assert_eq!(answer.lower_bound, 7);
    }

    #[test]
    fn a_run_given_up_on_long_ago_is_no_longer_waited_for() {
        let given_up = GivenUp::new();
        let held = Arc::new(AtomicBool::new(true));
        let held_in_run = held.clone();
        let run = std::thread::spawn(move || {
            hold(&held_in_run);
        });
        let long_ago = crate::clock::Instant::now()
            .checked_sub(WAIT_AT_MOST)
            .expect("the clock goes back that far");
        given_up.runs().push((run, long_ago));
        let limits = Limits::none().with_timeout(Duration::from_millis(100));
        assert!(
            given_up.wait_until_ended(&limits),
            "waited for a run given up on long ago"
        );
        held.store(false, Ordering::Relaxed);
    }

    #[test]
    fn the_callers_cancel_reaches_the_run() {
        let best = Best::new(vec![Move::Left, Move::Right], 0, Instant::now());
        let limits = Limits::none().with_cancel(Arc::new(AtomicBool::new(true)));
        let answer = run_detached(&limits, &best, None, |limits, _| {
            let start = std::time::Instant::now();
            while limits.check(0).is_ok() && start.elapsed() < Duration::from_secs(5) {
                std::thread::sleep(Duration::from_millis(1));
            }
            bounded(u64::from(limits.check(0).is_err()))
        })
        .unwrap();
        assert_eq!(answer.lower_bound, 1, "the run did not see the cancel");
    }

    #[test]
    fn a_run_that_fails_once_the_time_is_up_answers_with_the_first() {
        let best = Best::new(vec![Move::Left, Move::Right], 0, Instant::now());
        let damaged = || Err(SolveError::Unsupported("a damaged table".into()));
        // In time, the error is the caller's to act on (the planner's next choice of tables).
        let err = run_detached(&Limits::none(), &best, None, move |_, _| damaged()).unwrap_err();
        assert!(err.to_string().contains("damaged"), "{err}");
        // Found as the deadline passed (a check of a large file that ended late, or a cancel
        // meanwhile): no time is left for another plan, and an answer is in hand.
        let limits = Limits::none().with_timeout(Duration::from_millis(10));
        let answer = run_detached(&limits, &best, None, move |_, _| {
            std::thread::sleep(Duration::from_millis(30));
            damaged()
        })
        .unwrap();
        assert_eq!(answer.moves, vec![Move::Left, Move::Right]);
        let cancelled = Limits::none().with_cancel(Arc::new(AtomicBool::new(true)));
        let answer = run_detached(&cancelled, &best, None, move |_, _| damaged()).unwrap();
        assert_eq!(answer.moves, vec![Move::Left, Move::Right]);
    }

    #[test]
    fn a_run_that_panics_is_an_error_not_an_answer() {
        let best = Best::new(vec![Move::Left, Move::Right], 0, Instant::now());
        let err = run_detached(&Limits::none(), &best, None, |_, _| {
            panic!("a panic in a test of run_detached")
        })
        .unwrap_err();
        assert!(err.to_string().contains("internal error"), "{err}");
    }

    #[test]
    fn a_run_that_ends_in_time_gives_its_own_answer() {
        let best = Best::new(vec![Move::Left, Move::Right], 0, Instant::now());
        let answer = run_detached(&Limits::none(), &best, None, |_, _| bounded(7)).unwrap();
        assert_eq!(answer.lower_bound, 7);
    }

    #[test]
    fn a_run_stopped_while_opening_its_tables_answers_with_the_first() {
        let best = Best::new(vec![Move::Left, Move::Right], 2, Instant::now());
        let answer = run_detached(&Limits::none(), &best, None, |_, _| {
            Err(SolveError::Limit {
                hit: crate::limits::LimitHit::Time,
                stats: Default::default(),
                bound: 0,
            })
        })
        .unwrap();
        assert_eq!(answer.moves, vec![Move::Left, Move::Right]);
        assert!(answer.optimal);
    }
}
