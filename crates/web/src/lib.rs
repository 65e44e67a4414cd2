//! # taquin-web
//!
//! The web game of taquin: an axum server that serves one page (HTML, CSS and JavaScript
//! embedded in the binary, so it runs from any directory) and a JSON API the page uses:
//!
//! | route | does |
//! | --- | --- |
//! | `GET /api/info` | algorithms, heuristics and limits on offer |
//! | `POST /api/validate` | parse a board and goal, say whether the pair is solvable and why not |
//! | `POST /api/solve` | solve (algorithm, heuristic, limits), answer with `moves`, `length`, ... |
//! | `POST /api/solve/stream` | the same, as newline-delimited JSON with progress lines |
//! | `POST /api/hint` | the optimal next move from a position |
//! | `POST /api/compare` | the same board solved with each heuristic |
//! | `POST /api/generate` | a random solvable board (uniform or random walk) |
//! | `POST /api/trace` | the A* search tree of a small board |
//!
//! Searches run on blocking threads behind a semaphore, each with a deadline, a node budget and a
//! memory budget; a client that goes away cancels its search. Shuffles run on blocking threads
//! behind a semaphore of their own. The async threads only parse, check and answer.
//!
//! ```no_run
//! # async fn demo() -> std::io::Result<()> {
//! let server = taquin_web::Server::bind(taquin_web::Config::default()).await?;
//! println!("listening on http://{}", server.local_addr());
//! server.run(async { tokio::signal::ctrl_c().await.ok(); }).await
//! # }
//! ```
#![deny(missing_docs)]

pub mod api;
pub mod assets;
pub mod error;
pub mod priority;
pub mod state;

use std::future::Future;
use std::net::SocketAddr;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Request};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tower::ServiceExt;

pub use error::AppError;
pub use state::AppState;

/// What the server may spend and where it listens.
#[derive(Debug, Clone)]
pub struct Config {
    /// Address to listen on (loopback by default: the game is for the person at this machine).
    pub addr: SocketAddr,
    /// Searches running at once; as many shuffles (`/api/generate`) may run besides.
    pub workers: usize,
    /// Requests allowed to wait for a free worker; more are turned away at once as busy.
    pub queue: usize,
    /// How long a request waits for a free worker before it is turned away as busy.
    pub queue_wait: Duration,
    /// Time budget of a search when the request names none.
    pub default_timeout: Duration,
    /// Largest time budget a request may ask for.
    pub max_timeout: Duration,
    /// Largest node budget (nodes generated) of one search.
    pub max_nodes: u64,
    /// Memory budget of one A* or BFS search, in bytes.
    pub max_memory: usize,
    /// Largest board side accepted.
    pub max_side: usize,
    /// Largest number of cells of a board whose search tree may be traced.
    pub trace_max_cells: usize,
    /// Largest number of nodes in a traced search tree.
    pub trace_max_nodes: usize,
    /// Largest request body, in bytes.
    pub body_limit: usize,
    /// The tables solves use (pattern databases on disk, quick ones built on first use).
    pub tables: taquin::Tables,
    /// Build the large pattern databases (15-puzzle 7-8, 24-puzzle 6-6-6-6, standard goal) in
    /// the background after start, on one core, when they are not on disk; solves switch to
    /// them when they are ready. Progress is in `/api/info`.
    pub background_build: bool,
    /// How long a client may take to send a request's headers (and, on a kept-alive
    /// connection, to start the next request) before the connection is closed: a client that
    /// sends part of its headers and stops must not hold a connection (a file) forever.
    pub header_timeout: Duration,
    /// How long a client may take to send a request's body before it is answered 408.
    pub body_timeout: Duration,
    /// How long a stopping server waits for open connections to finish after cancelling the
    /// searches, before it closes them.
    pub shutdown_grace: Duration,
}

impl Default for Config {
    fn default() -> Config {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            workers: cores,
            queue: 64,
            queue_wait: Duration::from_secs(10),
            default_timeout: Duration::from_secs(10),
            max_timeout: Duration::from_secs(60),
            max_nodes: 2_000_000_000,
            max_memory: 1 << 30,
            max_side: 8,
            trace_max_cells: 16,
            trace_max_nodes: 500,
            body_limit: 16 * 1024,
            tables: taquin::Tables::in_memory(),
            background_build: false,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            shutdown_grace: Duration::from_secs(1),
        }
    }
}

/// The large table sets a server builds in the background: the ones the planner picks for
/// the 15- and 24-puzzle ([`taquin::planner::background_set`]), for the standard goal (the
/// tables of its canonical image, which Korf's goal shares: see `taquin::symmetry`).
pub fn background_sets() -> Vec<(String, Vec<taquin::pdb::PatternSpec>)> {
    [(4, 4), (5, 5)]
        .into_iter()
        .filter_map(|(w, h)| {
            let preset = taquin::planner::background_set(w, h)?;
            let goal = taquin::symmetry::Symmetry::table_goal(&taquin::Board::solved(w, h).ok()?);
            let specs = preset.partition(&goal).ok()?;
            Some((format!("{preset} for {w}x{h}"), specs))
        })
        .collect()
}

/// The whole application: the API under `/api`, the page and its assets at the root.
pub fn app(state: AppState) -> Router {
    let body_limit = state.config().body_limit;
    Router::new()
        .route("/api/info", get(api::info))
        .route("/api/validate", post(api::validate))
        .route("/api/solve", post(api::solve))
        .route("/api/solve/stream", post(api::solve_stream))
        .route("/api/hint", post(api::hint))
        .route("/api/compare", post(api::compare))
        .route("/api/generate", post(api::generate))
        .route("/api/trace", post(api::trace))
        .merge(assets::routes())
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::method_not_allowed)
        .layer(DefaultBodyLimit::max(body_limit))
        .with_state(state)
}

/// A bound, not yet running server.
pub struct Server {
    listener: TcpListener,
    state: AppState,
}

impl Server {
    /// Binds `config.addr` (port 0 picks a free port).
    pub async fn bind(config: Config) -> std::io::Result<Server> {
        let listener = TcpListener::bind(config.addr).await?;
        if config.background_build {
            // Started from a thread of lower priority, so the build thread inherits it.
            std::thread::scope(|scope| {
                scope.spawn(|| {
                    priority::lower_current_thread();
                    for (name, specs) in background_sets() {
                        if !specs.iter().all(|s| config.tables.has_database(s)) {
                            config.tables.build_in_background(&name, specs);
                        }
                    }
                });
            });
        }
        Ok(Server {
            listener,
            state: AppState::new(config),
        })
    }

    /// The address really bound (with the port chosen when 0 was asked).
    pub fn local_addr(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .unwrap_or_else(|_| self.state.config().addr)
    }

    /// The shared state (for tests and metrics).
    pub fn state(&self) -> AppState {
        self.state.clone()
    }

    /// Serves until `shutdown` completes, then stops at once: the searches in flight are
    /// cancelled, requests waiting for a worker and requests in flight are answered 503
    /// `cancelled` (a stream ends with that error as its last line) without waiting for their
    /// search to see its flag, and the connections get at most `shutdown_grace` to send those
    /// answers and close. Searches still unwinding on blocking threads are not waited for.
    ///
    /// Connections are served by hyper directly rather than by `axum::serve`, for the one
    /// setting the latter lacks: a header read timeout (hyper's needs a timer), without which a
    /// client that sends half a request holds its connection forever.
    pub async fn run(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        let state = self.state.clone();
        let config = state.config().clone();
        let router = app(self.state);
        let graceful = GracefulShutdown::new();
        let mut http = http1::Builder::new();
        http.timer(TokioTimer::new())
            .header_read_timeout(config.header_timeout);
        let mut shutdown = std::pin::pin!(shutdown);
        loop {
            let (stream, _) = tokio::select! {
                accepted = self.listener.accept() => match accepted {
                    Ok(conn) => conn,
                    // Out of files (EMFILE) or a connection reset before it was accepted: wait
                    // a moment for connections to close instead of spinning, as axum::serve does.
                    Err(_) => {
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                },
                () = &mut shutdown => break,
            };
            let (router, state) = (router.clone(), state.clone());
            let service =
                TowerToHyperService::new(tower::service_fn(move |req: Request<Incoming>| {
                    let answer = router.clone().oneshot(req.map(Body::new));
                    let stopped = state.stopped();
                    async move {
                        // A stopping server answers every open request at once (its search is
                        // cancelled), without waiting for the search to reach its next check of
                        // the flag: searches run at a lower priority, and on a busy machine
                        // that can take seconds.
                        tokio::select! {
                            biased;
                            answer = answer => answer,
                            () = stopped => Ok(state::stopping().into_response()),
                        }
                    }
                }));
            let conn = graceful.watch(http.serve_connection(TokioIo::new(stream), service));
            tokio::spawn(async move {
                // A connection error (the client went away, a header timeout) ends only it.
                let _ = conn.await;
            });
        }
        drop(self.listener);
        state.cancel_all();
        // Open connections send their answer and close, or are dropped.
        let _ = tokio::time::timeout(config.shutdown_grace, graceful.shutdown()).await;
        Ok(())
    }
}
