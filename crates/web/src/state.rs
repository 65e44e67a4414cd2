//! Shared server state: the configuration, the slots of the blocking work (one semaphore for
//! searches, one for shuffles), the cancel flags of the searches in flight, and the server's one
//! shutdown token, so that a client going away or a shutdown stops them.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};

use crate::{AppError, Config};

/// The state every handler shares; cheap to clone.
#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

struct Inner {
    config: Config,
    /// Searches (solve, stream, hint, compare, trace): `workers` at once.
    searches: Slots,
    /// Shuffles (generate): short CPU work, bounded apart so that it neither waits behind
    /// searches nor, in a flood, fills the blocking pool with threads that take the cores from
    /// the async threads.
    shuffles: Slots,
    next_id: AtomicU64,
    running: Mutex<HashMap<u64, Arc<AtomicBool>>>,
    /// Raised by [`AppState::cancel_all`]: a search that starts afterwards (its request was
    /// waiting for a slot) starts cancelled.
    stopping: AtomicBool,
    /// The shutdown token the async side watches: requests waiting for a slot give up, and
    /// requests and streams in flight answer at once instead of waiting for their search.
    shutdown: watch::Sender<bool>,
}

/// A bounded kind of blocking work: a semaphore and the count of requests waiting for it.
struct Slots {
    semaphore: Arc<Semaphore>,
    waiting: Arc<AtomicUsize>,
}

impl Slots {
    fn new(permits: usize) -> Slots {
        Slots {
            semaphore: Arc::new(Semaphore::new(permits.max(1))),
            waiting: Arc::new(AtomicUsize::new(0)),
        }
    }
}

/// A request's place for a slot: the slot itself when one was free, or a place in the queue.
pub enum Place {
    /// A slot was free: the request goes on at once.
    Now(OwnedSemaphorePermit),
    /// Every slot is taken: the request waits ([`Queued::wait`]), and can say so meanwhile.
    Queued(Queued),
}

/// A request counted among those waiting for a slot, until it gets one or is dropped.
pub struct Queued {
    semaphore: Arc<Semaphore>,
    waiting: Arc<AtomicUsize>,
    position: usize,
    state: AppState,
}

impl Queued {
    /// The place in the queue when it was taken: 1 for the first request waiting.
    pub fn position(&self) -> usize {
        self.position
    }

    /// Waits for a slot, at most the server's `queue_wait`: then the request is turned away as
    /// busy, and at once when the server starts to stop.
    pub async fn wait(self) -> Result<OwnedSemaphorePermit, AppError> {
        let wait = tokio::time::timeout(
            self.state.inner.config.queue_wait,
            self.semaphore.clone().acquire_owned(),
        );
        tokio::select! {
            permit = wait => match permit {
                Ok(Ok(permit)) => Ok(permit),
                _ => Err(AppError::busy()),
            },
            // A stopping server frees its waiters at once rather than handing them slots one
            // by one as the cancelled searches end.
            () = self.state.stopped() => Err(stopping()),
        }
    }
}

impl Drop for Queued {
    fn drop(&mut self) {
        self.waiting.fetch_sub(1, Ordering::SeqCst);
    }
}

impl AppState {
    /// State for `config`.
    pub fn new(config: Config) -> AppState {
        AppState {
            inner: Arc::new(Inner {
                searches: Slots::new(config.workers),
                shuffles: Slots::new(config.workers),
                config,
                next_id: AtomicU64::new(0),
                running: Mutex::new(HashMap::new()),
                stopping: AtomicBool::new(false),
                shutdown: watch::Sender::new(false),
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
        self.inner.searches.semaphore.clone()
    }

    /// The semaphore of shuffle slots (`/api/generate`; tests hold its permits).
    pub fn shuffle_slots(&self) -> Arc<Semaphore> {
        self.inner.shuffles.semaphore.clone()
    }

    /// Requests waiting for a solver slot.
    pub fn waiting(&self) -> usize {
        self.inner.searches.waiting.load(Ordering::SeqCst)
    }

    /// Searches registered and not yet finished (cancelled ones included until they stop).
    pub fn running(&self) -> usize {
        self.lock().len()
    }

    /// The shutdown: raises the cancel flag of every search in flight and of every search
    /// started later, and fires the token that [`AppState::stopped`] waits for.
    pub fn cancel_all(&self) {
        let running = self.lock();
        self.inner.stopping.store(true, Ordering::SeqCst);
        for flag in running.values() {
            flag.store(true, Ordering::Relaxed);
        }
        drop(running);
        self.inner.shutdown.send_replace(true);
    }

    /// True once [`AppState::cancel_all`] was called.
    pub fn is_stopping(&self) -> bool {
        self.inner.stopping.load(Ordering::SeqCst)
    }

    /// Completes when the server starts to stop ([`AppState::cancel_all`]); at once if it has.
    pub fn stopped(&self) -> impl std::future::Future<Output = ()> + Send + 'static {
        let mut token = self.inner.shutdown.subscribe();
        async move {
            // An error means that every handle of the state is gone without a shutdown (a
            // router used without a server, in tests): then nothing will ever stop it.
            if token.wait_for(|&stopping| stopping).await.is_err() {
                std::future::pending::<()>().await;
            }
        }
    }

    /// Waits for a solver slot: at most `queue_wait`, and not at all when `queue` requests are
    /// already waiting, so a flood is refused at once instead of piling up.
    pub async fn acquire(&self) -> Result<OwnedSemaphorePermit, AppError> {
        self.wait_for(&self.inner.searches).await
    }

    /// Waits for a shuffle slot (`/api/generate`), as [`AppState::acquire`] does for searches.
    pub async fn acquire_shuffle(&self) -> Result<OwnedSemaphorePermit, AppError> {
        self.wait_for(&self.inner.shuffles).await
    }

    /// A solver slot now, or a place in the queue for one, for a request that can say it is
    /// waiting (the stream); turned away as busy at once when `queue` requests already wait.
    pub fn place(&self) -> Result<Place, AppError> {
        self.place_for(&self.inner.searches)
    }

    async fn wait_for(&self, slots: &Slots) -> Result<OwnedSemaphorePermit, AppError> {
        match self.place_for(slots)? {
            Place::Now(permit) => Ok(permit),
            Place::Queued(queued) => queued.wait().await,
        }
    }

    fn place_for(&self, slots: &Slots) -> Result<Place, AppError> {
        if self.is_stopping() {
            return Err(stopping());
        }
        if let Ok(permit) = slots.semaphore.clone().try_acquire_owned() {
            return Ok(Place::Now(permit));
        }
        let ahead = slots.waiting.fetch_add(1, Ordering::SeqCst);
        // Counted from here on: dropping it (turned away below, or later) leaves the queue.
        let queued = Queued {
            semaphore: slots.semaphore.clone(),
            waiting: slots.waiting.clone(),
            position: ahead + 1,
            state: self.clone(),
        };
        if ahead >= self.inner.config.queue {
            return Err(AppError::busy());
        }
        Ok(Place::Queued(queued))
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

/// The answer to a request the server stops before it is done: 503 `cancelled`, the code of a
/// search cancelled by the shutdown.
pub fn stopping() -> AppError {
    AppError::new(
        axum::http::StatusCode::SERVICE_UNAVAILABLE,
        "cancelled",
        "the server is stopping: send the request again once it is back",
    )
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
