//! `POST /api/generate`: random solvable boards.

use std::time::{SystemTime, UNIX_EPOCH};

use axum::extract::State;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use taquin::generate::{random_walk, uniform, Rng};
use taquin::Board;

use super::plan::run_blocking;
use super::request::{check_side, parse_board, AppJson};
use crate::error::AppError;
use crate::state::AppState;

/// `POST /api/generate`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GenerateRequest {
    /// Columns (default: the goal's, else 3).
    #[serde(default)]
    pub width: Option<usize>,
    /// Rows (default: the goal's, else 3).
    #[serde(default)]
    pub height: Option<usize>,
    /// The goal to shuffle from; default: tiles in order, blank last.
    #[serde(default)]
    pub goal: Option<String>,
    /// `uniform` (a uniformly random solvable board) or `walk` (a random walk); default `uniform`.
    #[serde(default)]
    pub method: Option<String>,
    /// Length of the random walk (default 30).
    #[serde(default)]
    pub moves: Option<usize>,
    /// Seed, for a reproducible board; default: a fresh one, returned in the answer.
    #[serde(default)]
    pub seed: Option<u64>,
}

/// `POST /api/generate`: a random board from which the goal is reachable.
pub async fn generate(
    State(state): State<AppState>,
    AppJson(req): AppJson<GenerateRequest>,
) -> Result<Json<Value>, AppError> {
    let Shuffle { goal, seed, walk } = shuffle(&state, &req)?;
    // A walk of 100,000 moves or a shuffle of a large board is CPU work: off the async threads,
    // with a slot of its own so that a flood of them cannot take every core.
    let permit = state.acquire_shuffle().await?;
    let answer = run_blocking(move || {
        let _permit = permit;
        let mut rng = Rng::new(seed);
        let board = match walk {
            Some(moves) => random_walk(&goal, moves, &mut rng),
            None => uniform(&goal, &mut rng),
        };
        json!({
            "board": board.to_line(),
            "goal": goal.to_line(),
            "width": goal.width(),
            "height": goal.height(),
            "method": if walk.is_some() { "walk" } else { "uniform" },
            "moves": walk,
            "seed": seed,
        })
    })
    .await?;
    Ok(Json(answer))
}

/// A shuffle checked and ready to run.
pub(super) struct Shuffle {
    goal: Board,
    seed: u64,
    /// The length of a random walk; `None` for a uniformly random board.
    walk: Option<usize>,
}

/// Checks everything a generate request can get wrong.
pub(super) fn shuffle(state: &AppState, req: &GenerateRequest) -> Result<Shuffle, AppError> {
    let goal = match &req.goal {
        Some(text) => {
            let goal = parse_board(state, "goal", text)?;
            if req.width.is_some_and(|w| w != goal.width())
                || req.height.is_some_and(|h| h != goal.height())
            {
                return Err(AppError::bad_request(
                    "size_mismatch",
                    format!(
                        "width and height disagree with the goal, which is {}x{}",
                        goal.width(),
                        goal.height()
                    ),
                ));
            }
            goal
        }
        None => {
            let (w, h) = (req.width.unwrap_or(3), req.height.unwrap_or(3));
            check_side(state, w, h)?;
            Board::solved(w, h).map_err(|e| AppError::bad_board("goal", e))?
        }
    };
    // Seeds travel as JSON numbers, which JavaScript holds exactly only up to 2^53 - 1: a
    // larger one would come back changed and not reproduce the board.
    if req.seed.is_some_and(|s| s > MAX_SEED) {
        return Err(AppError::bad_request(
            "bad_fields",
            format!("seed must be at most {MAX_SEED} (2^53 - 1, the largest whole number JavaScript holds exactly)"),
        )
        .with("field", "seed"));
    }
    let seed = req.seed.unwrap_or_else(fresh_seed);
    let walk = match req.method.as_deref().unwrap_or("uniform") {
        "uniform" => {
            if req.moves.is_some() {
                return Err(AppError::bad_request(
                    "bad_fields",
                    "moves is the length of a random walk: use it with \"method\": \"walk\"",
                ));
            }
            None
        }
        "walk" => {
            let moves = req.moves.unwrap_or(30);
            if moves > 100_000 {
                return Err(AppError::bad_request(
                    "bad_fields",
                    "moves must be at most 100000",
                ));
            }
            Some(moves)
        }
        other => {
            return Err(AppError::bad_request(
                "bad_method",
                format!("unknown method '{other}': use \"uniform\" or \"walk\""),
            ))
        }
    };
    Ok(Shuffle { goal, seed, walk })
}

/// Largest seed: 2^53 - 1, JavaScript's `Number.MAX_SAFE_INTEGER`.
const MAX_SEED: u64 = (1 << 53) - 1;

fn fresh_seed() -> u64 {
    // Not for security: only so that two shuffles in a row differ.
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut rng = Rng::new(nanos ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    rng.next_u64() & MAX_SEED // stays exact in JavaScript numbers, for the share link
}
