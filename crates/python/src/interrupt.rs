//! Long calls run without the GIL and stop on Ctrl-C.
//!
//! Python runs signal handlers only on its main thread, and only when that thread checks for
//! them. So the calling thread hands the work to worker threads, releases the GIL, and every
//! [`POLL`] takes it back briefly to call `check_signals`; on a KeyboardInterrupt (or any other
//! exception a handler raises) it raises the core's cancel flag, which every search checks, waits
//! for the workers to stop, and re-raises the exception.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use taquin::{LimitHit, Limits};

/// How often the waiting thread looks for a pending signal: short enough that Ctrl-C feels
/// immediate, long enough that taking the GIL costs nothing measurable.
const POLL: Duration = Duration::from_millis(50);

/// Runs `f(0..count)` on `jobs` threads without the GIL, returning the results in input order.
/// Items are handed out one at a time, so slow and fast items balance across threads. `cancel`
/// is raised on Ctrl-C; the searches `f` runs must check it (through their `Limits`).
pub fn parallel_map<T, F>(
    py: Python<'_>,
    count: usize,
    jobs: usize,
    cancel: &Arc<AtomicBool>,
    f: F,
) -> PyResult<Vec<T>>
where
    T: Send,
    F: Fn(usize) -> T + Sync,
{
    parallel_map_polling(py, count, jobs, cancel, f, &mut |_| Ok(()))
}

/// [`parallel_map`] that also calls `on_poll` with the GIL on the calling thread every
/// [`POLL`] while the work goes on: Python code the caller gave (a callback) runs there, where
/// Python expects it. An error it returns stops the work as a Ctrl-C does, and is raised.
fn parallel_map_polling<T, F>(
    py: Python<'_>,
    count: usize,
    jobs: usize,
    cancel: &Arc<AtomicBool>,
    f: F,
    on_poll: &mut (dyn FnMut(Python<'_>) -> PyResult<()> + Send),
) -> PyResult<Vec<T>>
where
    T: Send,
    F: Fn(usize) -> T + Sync,
{
    let jobs = jobs.clamp(1, count.max(1));
    let next = AtomicUsize::new(0);
    let panicked = std::sync::Mutex::new(None::<String>);
    let (results, interrupt) = py.detach(|| {
        std::thread::scope(|scope| {
            let (tx, rx) = mpsc::channel::<(usize, T)>();
            for _ in 0..jobs {
                let (tx, next, f) = (tx.clone(), &next, &f);
                let panicked = &panicked;
                scope.spawn(move || loop {
                    if cancel.load(Ordering::Relaxed) {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= count {
                        break;
                    }
                    // A panic is caught here, where its message is known, and raised in
                    // Python as PanicException with it; the other workers stop.
                    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(i))) {
                        Ok(value) => {
                            if tx.send((i, value)).is_err() {
                                break;
                            }
                        }
                        Err(payload) => {
                            cancel.store(true, Ordering::Relaxed);
                            if let Ok(mut first) = panicked.lock() {
                                first.get_or_insert(panic_message(payload.as_ref()));
                            }
                            break;
                        }
                    }
                });
            }
            drop(tx);
            let mut slots: Vec<Option<T>> = (0..count).map(|_| None).collect();
            let mut interrupt = None;
            // Polled by the clock, not only when no result came for a whole POLL: quick items
            // arrive far more often than that, and a Ctrl-C would wait for the last of them.
            let mut next_poll = Instant::now() + POLL;
            loop {
                let wait = next_poll.saturating_duration_since(Instant::now());
                match rx.recv_timeout(wait) {
                    Ok((i, value)) => slots[i] = Some(value),
                    Err(mpsc::RecvTimeoutError::Disconnected) => break,
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                }
                if Instant::now() >= next_poll {
                    next_poll = Instant::now() + POLL;
                    if interrupt.is_none() {
                        if let Err(e) =
                            Python::attach(|py| py.check_signals().and_then(|()| on_poll(py)))
                        {
                            cancel.store(true, Ordering::Relaxed);
                            interrupt = Some(e);
                        }
                    }
                }
            }
            (slots, interrupt)
        })
    });
    if let Some(message) = panicked.into_inner().ok().flatten() {
        return Err(pyo3::panic::PanicException::new_err(message));
    }
    if let Some(e) = interrupt {
        return Err(e);
    }
    results
        .into_iter()
        .map(|r| {
            r.ok_or_else(|| PyRuntimeError::new_err("internal error: a worker thread stopped"))
        })
        .collect()
}

/// The text a panic was raised with (`panic!("...")` gives a `&str` or a `String`).
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a worker thread panicked".into())
}

/// Runs `f` on a worker thread without the GIL, stopping it through `cancel` on Ctrl-C, and
/// calling `on_poll` with the GIL every [`POLL`] meanwhile (see [`parallel_map_polling`]).
pub fn run_interruptible<T, F>(
    py: Python<'_>,
    cancel: &Arc<AtomicBool>,
    f: F,
    on_poll: &mut (dyn FnMut(Python<'_>) -> PyResult<()> + Send),
) -> PyResult<T>
where
    T: Send,
    F: FnOnce() -> T + Send,
{
    let once = std::sync::Mutex::new(Some(f));
    let mut results = parallel_map_polling(
        py,
        1,
        1,
        cancel,
        |_| {
            let f = once.lock().ok().and_then(|mut f| f.take());
            f.map(|f| f())
        },
        on_poll,
    )?;
    results
        .pop()
        .flatten()
        .ok_or_else(|| PyRuntimeError::new_err("internal error: the worker thread stopped"))
}

/// Runs `work`, which looks at the `Limits` it is given (their cancel flag only) as it goes:
/// when it is `long`, on a worker thread without the GIL and stopped by Ctrl-C, as
/// [`run_interruptible`] runs it; else on this thread, where handing it to another would cost
/// more than the work (an environment's reset of a few moves).
pub fn run_cancellable<T, F>(py: Python<'_>, long: bool, work: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce(&Limits) -> Result<T, LimitHit> + Send,
{
    // The cancel flag is the only limit: it is raised on Ctrl-C, which run_interruptible then
    // raises, so a LimitHit returned past it means a bug.
    let stopped =
        |hit: LimitHit| PyRuntimeError::new_err(format!("internal error: stopped by {hit:?}"));
    if !long {
        return work(&Limits::none()).map_err(stopped);
    }
    let cancel = cancel_flag();
    let limits = Limits::none().with_cancel(cancel.clone());
    run_interruptible(py, &cancel, move || work(&limits), &mut |_| Ok(()))?.map_err(stopped)
}

/// A fresh cancel flag for one call.
pub fn cancel_flag() -> Arc<AtomicBool> {
    Arc::new(AtomicBool::new(false))
}
