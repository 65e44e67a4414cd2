//! `POST /api/generate`: random solvable boards.

use std::time::{SystemTime, UNIX_EPOCH};

use axum::extract::State;
use axum::Json;
use serde_json::Value;
use taquin::generate::Rng;
use taquin_api::{GenerateRequest, Shuffle};

use super::blocking::run_blocking;
use super::request::{settings, AppJson};
use crate::error::AppError;
use crate::state::AppState;

/// `POST /api/generate`: a random board from which the goal is reachable.
pub async fn generate(
    State(state): State<AppState>,
    AppJson(req): AppJson<GenerateRequest>,
) -> Result<Json<Value>, AppError> {
    let shuffle = Shuffle::new(&settings(&state), &req, fresh_seed)?;
    // A walk of 100,000 moves or a shuffle of a large board is CPU work: off the async threads,
    // with a slot of its own so that a flood of them cannot take every core.
    let permit = state.acquire_shuffle().await?;
    Ok(Json(
        run_blocking(move || {
            let _permit = permit;
            shuffle.run()
        })
        .await?,
    ))
}

fn fresh_seed() -> u64 {
    // Not for security: only so that two shuffles in a row differ.
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    Rng::new(nanos ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15)).next_u64()
}
