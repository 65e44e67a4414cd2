//! `POST /api/solve` and `/api/solve/stream`.

use std::convert::Infallible;

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};
use taquin::Progress;
use taquin_api::{ProgressLines, SolvePlan, SolveRequest};
use tokio::sync::mpsc;

use super::blocking::run_blocking;
use super::request::{settings, AppJson};
use crate::error::AppError;
use crate::state::AppState;

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

/// `POST /api/solve/stream`: the same solve, answered as newline-delimited JSON: zero or more
/// `{"progress": {...}}` lines and, from the anytime search, `{"improved": {"length",
/// "lower_bound", "moves", "time_ms"}}` lines as better solutions are found, then one
/// `{"solution": {...}}` or `{"error": {...}}` line.
/// Input errors (bad board, unsolvable, busy) are refused before the stream starts, with their
/// own status. Closing the connection cancels the search.
pub async fn solve_stream(
    State(state): State<AppState>,
    AppJson(req): AppJson<SolveRequest>,
) -> Result<Response, AppError> {
    let plan = SolvePlan::new(&settings(&state), state.tables(), &req)?;
    let permit = state.acquire().await?;
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
