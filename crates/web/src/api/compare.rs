//! `POST /api/compare`: the classic heuristics comparison.

use axum::extract::State;
use axum::Json;
use serde_json::Value;
use taquin_api::{CompareRequest, Comparison};

use super::blocking::run_blocking;
use super::request::{settings, AppJson};
use crate::error::AppError;
use crate::state::AppState;

/// `POST /api/compare`: the same pair solved by each algorithm with each heuristic, one after the
/// other on one worker, all within the request's one time budget; a run stopped by its budget is
/// reported with its error, not dropped.
pub async fn compare(
    State(state): State<AppState>,
    AppJson(req): AppJson<CompareRequest>,
) -> Result<Json<Value>, AppError> {
    let comparison = Comparison::new(&settings(&state), state.tables(), &req)?;
    let permit = state.acquire().await?;
    let (guard, job) = state.start(permit);
    let answer = run_blocking(move || comparison.run(job.tables(), Some(job.cancel_flag()))).await;
    drop(guard);
    Ok(Json(answer?))
}
