//! `POST /api/validate` and `/api/hint`: questions about a board and goal pair.

use axum::extract::State;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use taquin::notation::Notation;
use taquin::{check_solvable, Algorithm, Move, SolveOptions, Workload};

use super::plan::{run_blocking, SolvePlan};
use super::request::{board_json, notation_of, parse_pair, timeout_of, AppJson};
use crate::error::AppError;
use crate::state::AppState;

/// `POST /api/validate` and `/api/hint`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairRequest {
    /// The start board.
    pub board: String,
    /// The goal board; default: tiles in order, blank last.
    #[serde(default)]
    pub goal: Option<String>,
    /// Time budget in milliseconds (hint only).
    #[serde(default)]
    pub timeout_ms: Option<u64>,
    /// How the hint writes `moves` (hint only): `blank` (default) or `tiles`.
    #[serde(default)]
    pub notation: Option<String>,
}

/// `POST /api/validate`: parses both boards and says whether the pair is solvable (200 either
/// way; `reason` explains a refusal).
pub async fn validate(
    State(state): State<AppState>,
    AppJson(req): AppJson<PairRequest>,
) -> Result<Json<Value>, AppError> {
    validate_answer(&state, &req).map(Json)
}

/// The answer of `/api/validate`: all its work is checking.
pub(super) fn validate_answer(state: &AppState, req: &PairRequest) -> Result<Value, AppError> {
    if req.timeout_ms.is_some() || req.notation.is_some() {
        return Err(AppError::bad_request(
            "bad_fields",
            "timeout_ms and notation have no meaning for validate",
        ));
    }
    let (board, goal) = parse_pair(state, &req.board, req.goal.as_deref())?;
    let verdict = check_solvable(&board, &goal);
    Ok(json!({
        "width": board.width(),
        "height": board.height(),
        "board": board_json(&board),
        "goal": board_json(&goal),
        "solvable": verdict.is_ok(),
        "reason": verdict.err().map(|e| e.to_string()),
    }))
}

/// `POST /api/hint`: the optimal next move from `board` (IDA* with the strongest heuristic);
/// `move` is null when the board is already the goal.
pub async fn hint(
    State(state): State<AppState>,
    AppJson(req): AppJson<PairRequest>,
) -> Result<Json<Value>, AppError> {
    let notation = notation_of(req.notation.as_deref())?;
    let Some(plan) = hint_plan(&state, &req)? else {
        return Ok(Json(
            json!({"move": null, "tile": null, "remaining": 0, "moves": ""}),
        ));
    };
    let permit = state.acquire().await?;
    let (guard, job) = state.start(permit);
    let board = plan.board.clone();
    let result = run_blocking(move || plan.run(&job, None)).await;
    drop(guard);
    let report = result??;
    let letters = report["moves"].as_str().unwrap_or_default().to_string();
    let moves: Vec<Move> = letters.chars().filter_map(Move::from_letter).collect();
    let first = moves.first().copied();
    let tile = first
        .and_then(|m| board.target(m))
        .map(|cell| board.tiles()[cell]);
    Ok(Json(json!({
        "move": first.map(|m| m.letter().to_string()),
        "tile": tile,
        "remaining": report["length"],
        "moves": notation.format(&moves),
        "heuristic": report["heuristic"],
        "time_ms": report["time_ms"],
    })))
}

/// The search a hint runs, checked; `None` when the board is already the goal.
pub(super) fn hint_plan(
    state: &AppState,
    req: &PairRequest,
) -> Result<Option<SolvePlan>, AppError> {
    let (board, goal) = parse_pair(state, &req.board, req.goal.as_deref())?;
    check_solvable(&board, &goal)?;
    let timeout = timeout_of(state, req.timeout_ms)?;
    notation_of(req.notation.as_deref())?;
    if board == goal {
        return Ok(None);
    }
    // The optimal search the planner picks: the hint is the first move of an optimal solution.
    Ok(Some(SolvePlan {
        board,
        goal,
        options: SolveOptions {
            algorithm: Some(Algorithm::IdaStar),
            workload: Workload::Many,
            ..SolveOptions::default()
        },
        timeout,
        max_nodes: state.config().max_nodes,
        nodes_given: true,
        max_memory: state.config().max_memory,
        // The hint reads the answer's blank letters, then writes them in the request's notation.
        notation: Notation::Blank,
    }))
}
