//! `POST /api/validate` and `/api/hint`: questions about a board and goal pair.

use axum::extract::State;
use axum::Json;
use serde_json::Value;
use taquin_api::{Hint, PairRequest};

use super::blocking::run_blocking;
use super::request::{settings, AppJson};
use crate::error::AppError;
use crate::state::AppState;

/// `POST /api/validate`: parses both boards and says whether the pair is solvable (200 either
/// way; `reason` explains a refusal).
pub async fn validate(
    State(state): State<AppState>,
    AppJson(req): AppJson<PairRequest>,
) -> Result<Json<Value>, AppError> {
    taquin_api::validate(&settings(&state), &req).map(Json)
}

/// `POST /api/hint`: the optimal next move from `board` (IDA* with the strongest heuristic);
/// `move` is null when the board is already the goal.
pub async fn hint(
    State(state): State<AppState>,
    AppJson(req): AppJson<PairRequest>,
) -> Result<Json<Value>, AppError> {
    let hint = Hint::new(&settings(&state), &req)?;
    if !hint.needs_search() {
        return hint.run(state.tables(), None).map(Json);
    }
    let permit = state.acquire().await?;
    let (guard, job) = state.start(permit);
    let answer = run_blocking(move || hint.run(job.tables(), Some(job.cancel_flag()))).await;
    drop(guard);
    Ok(Json(answer??))
}
