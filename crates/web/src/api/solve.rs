//! `POST /api/solve` and `/api/solve/stream`.

use std::convert::Infallible;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use taquin::Progress;
use tokio::sync::mpsc;

use super::plan::{run_blocking, SolvePlan};
use super::request::AppJson;
use crate::error::AppError;
use crate::state::AppState;

/// `POST /api/solve` and `/api/solve/stream`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolveRequest {
    /// The start board, e.g. `"6 4 7/8 5 0/3 2 1"`.
    pub board: String,
    /// The goal board; default: tiles in order, blank last.
    #[serde(default)]
    pub goal: Option<String>,
    /// Algorithm name (`astar`, `idastar`, `bfs`, ...); default `idastar`.
    #[serde(default)]
    pub algorithm: Option<String>,
    /// Heuristic name; default `walking-distance` up to 16 cells, `linear-conflict` above.
    #[serde(default)]
    pub heuristic: Option<String>,
    /// Time budget in milliseconds; default and maximum set by the server.
    #[serde(default)]
    pub timeout_ms: Option<u64>,
    /// Node budget (nodes generated); maximum set by the server.
    #[serde(default)]
    pub max_nodes: Option<u64>,
    /// Weight of weighted A* (>= 1).
    #[serde(default)]
    pub weight: Option<f64>,
    /// Look-ahead depth of the real-time algorithms (1 to `taquin::solvers::MAX_DEPTH`).
    #[serde(default)]
    pub depth: Option<usize>,
    /// How the answer writes `moves`: `blank` (the default: each letter is where the blank
    /// goes) or `tiles` (where the tiles go, runs with their length: `R3`).
    #[serde(default)]
    pub notation: Option<String>,
}

/// `POST /api/solve`: one solve; answers with the report and the two boards.
pub async fn solve(
    State(state): State<AppState>,
    AppJson(req): AppJson<SolveRequest>,
) -> Result<Json<Value>, AppError> {
    let plan = SolvePlan::new(&state, &req)?;
    let permit = state.acquire().await?;
    let (guard, job) = state.start(permit);
    let result = run_blocking(move || plan.run(&job, None)).await;
    // Dropping the guard here (or earlier, with the future, when the client leaves) raises the
    // cancel flag; after a finished search that is harmless.
    drop(guard);
    Ok(Json(result??))
}

/// `POST /api/solve/stream`: the same solve, answered as newline-delimited JSON: zero or more
/// `{"progress": {...}}` lines and, from the anytime search, `{"improved": {"length",
/// "lower_bound", "time_ms"}}` lines as better solutions are found, then one
/// `{"solution": {...}}` or `{"error": {...}}` line.
/// Input errors (bad board, unsolvable, busy) are refused before the stream starts, with their
/// own status. Closing the connection cancels the search.
pub async fn solve_stream(
    State(state): State<AppState>,
    AppJson(req): AppJson<SolveRequest>,
) -> Result<Response, AppError> {
    let plan = SolvePlan::new(&state, &req)?;
    let permit = state.acquire().await?;
    let (guard, job) = state.start(permit);
    let (tx, rx) = mpsc::unbounded_channel::<Bytes>();
    let failure_tx = tx.clone();
    // The search runs on the blocking pool through the same bridge as every other route, so a
    // panic there still ends the stream with an error line instead of an empty body.
    let search = run_blocking(move || {
        // Progress is reported every few thousand nodes; a line every 100 ms is plenty for a
        // progress bar and keeps the stream small.
        let last = Mutex::new(None::<Instant>);
        let last_best = Mutex::new(None::<u32>);
        let progress_tx = tx.clone();
        let report = move |p: Progress| {
            // Every improvement is sent, unthrottled: there are few, and each is news.
            if let Some(best) = p.best {
                let mut last_best = last_best.lock().unwrap_or_else(|e| e.into_inner());
                if *last_best != Some(best) {
                    *last_best = Some(best);
                    let line = json!({"improved": {
                        "length": best,
                        "lower_bound": p.bound,
                        "time_ms": p.elapsed.as_secs_f64() * 1000.0,
                    }});
                    let _ = progress_tx.send(ndjson(&line));
                    return;
                }
            }
            let mut last = last.lock().unwrap_or_else(|e| e.into_inner());
            if last.is_some_and(|t| t.elapsed() < Duration::from_millis(100)) {
                return;
            }
            *last = Some(Instant::now());
            let line = json!({"progress": {
                "generated": p.generated,
                "expanded": p.expanded,
                "bound": p.bound,
                "time_ms": p.elapsed.as_secs_f64() * 1000.0,
            }});
            let _ = progress_tx.send(ndjson(&line));
        };
        let line = match plan.run(&job, Some(&report)) {
            Ok(solution) => json!({"solution": solution}),
            Err(e) => error_line(&e),
        };
        drop(job);
        let _ = tx.send(ndjson(&line));
    });
    tokio::spawn(async move {
        if let Err(e) = search.await {
            let _ = failure_tx.send(ndjson(&error_line(&e)));
        }
    });
    // The guard rides in the stream's state: when the client goes away, the body is dropped and
    // with it the guard, which cancels the search. A stopping server ends the stream at once
    // with an error line, without waiting for the search to reach its next check.
    let stopped = Box::pin(state.stopped());
    let stream = futures_util::stream::unfold(Some((rx, guard, stopped)), |open| async move {
        let (mut rx, guard, mut stopped) = open?;
        tokio::select! {
            biased;
            line = rx.recv() => line.map(|line| (Ok::<_, Infallible>(line), Some((rx, guard, stopped)))),
            () = &mut stopped => Some((Ok(ndjson(&error_line(&crate::state::stopping()))), None)),
        }
    });
    Ok((
        [
            (header::CONTENT_TYPE, "application/x-ndjson"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        Body::from_stream(stream),
    )
        .into_response())
}

/// The stream's last line for a failure: the error's body with its status.
fn error_line(e: &AppError) -> Value {
    let mut body = e.body();
    body["status"] = json!(e.status.as_u16());
    json!({"error": body})
}

fn ndjson(value: &Value) -> Bytes {
    let mut line = value.to_string();
    line.push('\n');
    Bytes::from(line)
}
