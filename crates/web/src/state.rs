//! Shared server state: the configuration, the solver slots (a semaphore), and the cancel flags of
//! the searches in flight, so that a client going away or a shutdown stops them.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::{AppError, Config};

/// The state every handler shares; cheap to clone.
#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

struct Inner {
    config: Config,
    slots: Arc<Semaphore>,
    waiting: AtomicUsize,
    next_id: AtomicU64,
    running: Mutex<HashMap<u64, Arc<AtomicBool>>>,
    /// Raised by [`AppState::cancel_all`]: a search that starts afterwards (its request was
    /// waiting for a slot) starts cancelled.
    stopping: AtomicBool,
}

impl AppState {
    /// State for `config`.
    pub fn new(config: Config) -> AppState {
        let workers = config.workers.max(1);
        AppState {
            inner: Arc::new(Inner {
                slots: Arc::new(Semaphore::new(workers)),
                config,
                waiting: AtomicUsize::new(0),
                next_id: AtomicU64::new(0),
                running: Mutex::new(HashMap::new()),
                stopping: AtomicBool::new(false),
            }),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.inner.config
    }

    /// The tables every solve of this server uses.
    pub fn tables(&self) -> &taquin::Tables {
        &self.inner.config.tables
    }

    /// The semaphore of solver slots (tests hold its permits to make the server busy).
    pub fn slots(&self) -> Arc<Semaphore> {
        self.inner.slots.clone()
    }

    /// Searches registered and not yet finished (cancelled ones included until they stop).
    pub fn running(&self) -> usize {
        self.lock().len()
    }

    /// Raises the cancel flag of every search in flight, and of every search started later.
    pub fn cancel_all(&self) {
        let running = self.lock();
        self.inner.stopping.store(true, Ordering::SeqCst);
        for flag in running.values() {
            flag.store(true, Ordering::Relaxed);
        }
    }

    /// Waits for a solver slot: at most `queue_wait`, and not at all when `queue` requests are
    /// already waiting, so a flood is refused at once instead of piling up.
    pub async fn acquire(&self) -> Result<OwnedSemaphorePermit, AppError> {
        if let Ok(permit) = self.inner.slots.clone().try_acquire_owned() {
            return Ok(permit);
        }
        let waiting = self.inner.waiting.fetch_add(1, Ordering::SeqCst);
        let _leave = Decrement(&self.inner.waiting);
        if waiting >= self.inner.config.queue {
            return Err(AppError::busy());
        }
        match tokio::time::timeout(
            self.inner.config.queue_wait,
            self.inner.slots.clone().acquire_owned(),
        )
        .await
        {
            Ok(Ok(permit)) => Ok(permit),
            _ => Err(AppError::busy()),
        }
    }

    /// Registers a search that holds `permit`. The [`CancelGuard`] stays with the request's
    /// future and raises the cancel flag when dropped, which happens when the client goes away;
    /// the [`Job`] goes to the blocking thread and frees the slot and the registration when the
    /// search has really stopped.
    pub fn start(&self, permit: OwnedSemaphorePermit) -> (CancelGuard, Job) {
        let id = self.inner.next_id.fetch_add(1, Ordering::Relaxed);
        let mut running = self.lock();
        // Read under the lock that cancel_all holds, so no search slips between the two.
        let flag = Arc::new(AtomicBool::new(self.inner.stopping.load(Ordering::SeqCst)));
        running.insert(id, flag.clone());
        drop(running);
        let job = Job {
            state: self.clone(),
            id,
            flag: flag.clone(),
            _permit: permit,
        };
        (CancelGuard { flag }, job)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Arc<AtomicBool>>> {
        // A panic while holding this lock cannot leave the map inconsistent (single inserts and
        // removes), so a poisoned lock is still usable.
        self.inner
            .running
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

struct Decrement<'a>(&'a AtomicUsize);

impl Drop for Decrement<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Raises its flag when dropped: held by the async side of a request, so that dropping the
/// request (client gone) stops the search on the blocking side.
pub struct CancelGuard {
    flag: Arc<AtomicBool>,
}

impl Drop for CancelGuard {
    fn drop(&mut self) {
        self.flag.store(true, Ordering::Relaxed);
    }
}

/// A search in flight, owned by the thread that runs it: holds a solver slot and the cancel flag.
pub struct Job {
    state: AppState,
    id: u64,
    flag: Arc<AtomicBool>,
    _permit: OwnedSemaphorePermit,
}

impl Job {
    /// The flag to hand to the search's limits.
    pub fn cancel_flag(&self) -> Arc<AtomicBool> {
        self.flag.clone()
    }

    /// The server's tables.
    pub fn tables(&self) -> &taquin::Tables {
        self.state.tables()
    }

    /// The server this job runs for.
    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// True once the client went away or the server is shutting down.
    pub fn is_cancelled(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }
}

impl Drop for Job {
    fn drop(&mut self) {
        self.state.lock().remove(&self.id);
    }
}
