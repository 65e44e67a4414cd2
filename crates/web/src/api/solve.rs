//! `POST /api/solve` and `/api/solve/stream`.

use std::convert::Infallible;

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Json;
use futures_util::stream::{self, BoxStream, StreamExt};
use serde_json::{json, Value};
use taquin::Progress;
use taquin_api::{ProgressLines, SolvePlan, SolveRequest};
use tokio::sync::{mpsc, OwnedSemaphorePermit};

use super::blocking::run_blocking;
use super::request::{settings, AppJson};
use crate::error::AppError;
use crate::state::{AppState, Place};

/// `POST /api/solve`: one solve; answers with the report and the two boards.
pub async fn solve(
    State(state): State<AppState>,
    AppJson(req): AppJson<SolveRequest>,
) -> Result<Json<Value>, AppError> {
    let plan = SolvePlan::new(&settings(&state), state.tables(), &req)?;
    let permit = state.acquire().await?;
    let (guard, job) = state.start(permit);
    let result = run_blocking(move || plan.run(job.tables(), Some(job.cancel_flag()), None)).await;
    // Dropping the guard here (or earlier, with the future, when the client leaves) raises the
    // cancel flag; after a finished search that is harmless.
    drop(guard);
    Ok(Json(result??))
}

/// `POST /api/solve/stream`: the same solve, answered as newline-delimited JSON: when every
/// worker is busy, first a `{"waiting": {"position", "max_wait_ms"}}` line (the request's place
/// in the queue, and how long it may wait there); then zero or more `{"progress": {...}}`
/// lines and, from the anytime search, `{"improved": {"length", "lower_bound", "moves",
/// "time_ms"}}` lines as better solutions are found, then one `{"solution": {...}}` or
/// `{"error": {...}}` line (a `busy` one when no worker came free in time).
/// Input errors (bad board, unsolvable, a full queue) are refused before the stream starts,
/// with their own status. Closing the connection leaves the queue or cancels the search.
pub async fn solve_stream(
    State(state): State<AppState>,
    AppJson(req): AppJson<SolveRequest>,
) -> Result<Response, AppError> {
    let plan = SolvePlan::new(&settings(&state), state.tables(), &req)?;
    let lines = match state.place()? {
        Place::Now(permit) => search_lines(&state, plan, permit),
        Place::Queued(queued) => {
            let waiting = json!({"waiting": {
                "position": queued.position(),
                "max_wait_ms": u64::try_from(state.config().queue_wait.as_millis()).unwrap_or(u64::MAX),
            }});
            // The wait rides in the body: a client that goes away drops it, and leaves the
            // queue with it.
            let rest = stream::once(async move {
                match queued.wait().await {
                    Ok(permit) => search_lines(&state, plan, permit),
                    Err(e) => stream::iter([Ok(ndjson(&error_line(&e)))]).boxed(),
                }
            });
            stream::iter([Ok(ndjson(&waiting))])
                .chain(rest.flatten())
                .boxed()
        }
    };
    Ok((
        [
            (header::CONTENT_TYPE, "application/x-ndjson"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        Body::from_stream(lines),
    )
        .into_response())
}

/// The lines of a search that holds its slot: progress, improvements, and the answer.
fn search_lines(
    state: &AppState,
    plan: SolvePlan,
    permit: OwnedSemaphorePermit,
) -> BoxStream<'static, Result<Bytes, Infallible>> {
    let (guard, job) = state.start(permit);
    let (tx, rx) = mpsc::unbounded_channel::<Bytes>();
    let failure_tx = tx.clone();
    // The search runs on the blocking pool through the same bridge as every other route, so a
    // panic there still ends the stream with an error line instead of an empty body.
    let search = run_blocking(move || {
        let lines = ProgressLines::in_notation(plan.notation());
        let progress_tx = tx.clone();
        let report = move |p: Progress| {
            if let Some(line) = lines.line(p) {
                let _ = progress_tx.send(ndjson(&line));
            }
        };
        let line = match plan.run(job.tables(), Some(job.cancel_flag()), Some(&report)) {
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
    stream::unfold(Some((rx, guard, stopped)), |open| async move {
        let (mut rx, guard, mut stopped) = open?;
        tokio::select! {
            biased;
            line = rx.recv() => line.map(|line| (Ok::<_, Infallible>(line), Some((rx, guard, stopped)))),
            () = &mut stopped => Some((Ok(ndjson(&error_line(&crate::state::stopping()))), None)),
        }
    })
    .boxed()
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
