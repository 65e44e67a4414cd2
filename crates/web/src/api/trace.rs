//! `POST /api/trace`: the A* search tree of a small board, for the page's tree view.

use axum::extract::State;
use axum::Json;
use serde_json::Value;
use taquin_api::{TracePlan, TraceRequest};

use super::blocking::run_blocking;
use super::request::{settings, AppJson};
use crate::error::AppError;
use crate::state::AppState;

/// `POST /api/trace`: the A* search tree of a small board, nodes numbered in the order they were
/// added, each with its tiles, g, h, f, state (`expanded`, `frontier`, `superseded`, `goal`) and
/// whether it lies on the final path. The heuristic's tables are built within the server's
/// default deadline and memory budget, and stop when the client goes away.
pub async fn trace(
    State(state): State<AppState>,
    AppJson(req): AppJson<TraceRequest>,
) -> Result<Json<Value>, AppError> {
    let plan = TracePlan::new(&settings(&state), state.tables(), &req)?;
    let permit = state.acquire().await?;
    let (guard, job) = state.start(permit);
    let answer = run_blocking(move || plan.run(job.tables(), Some(job.cancel_flag()))).await;
    drop(guard);
    Ok(Json(answer??))
}
