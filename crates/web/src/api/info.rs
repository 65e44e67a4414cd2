//! `GET /api/info`, and the JSON answers to unknown routes and methods.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde_json::{json, Value};
use taquin::notation::Notation;
use taquin::tables::BackgroundState;
use taquin::{Algorithm, HeuristicKind};

use crate::error::AppError;
use crate::state::AppState;

/// `GET /api/info`: what the server offers.
pub async fn info(State(state): State<AppState>) -> Json<Value> {
    let c = state.config();
    Json(json!({
        "algorithms": Algorithm::ALL.iter().map(|a| json!({"name": a.name(), "optimal": a.is_optimal()})).collect::<Vec<_>>(),
        "heuristics": HeuristicKind::ALL.iter().map(|h| h.name()).collect::<Vec<_>>(),
        "defaults": {"algorithm": "auto", "heuristic": "auto"},
        "auto": "the planner picks the algorithm, heuristic and tables for each board (the plan field of a solve says which and why)",
        "tables": state.tables().background().iter().map(|job| {
            let (status, extra) = match &job.state {
                BackgroundState::Waiting => ("waiting", Value::Null),
                BackgroundState::Building => ("building", Value::Null),
                BackgroundState::Ready { seconds } => ("ready", json!(seconds)),
                BackgroundState::Failed(e) => ("failed", json!(e)),
            };
            json!({"name": job.name, "status": status, "done": job.done, "total": job.total,
                   "seconds": if status == "ready" { extra.clone() } else { Value::Null },
                   "error": if status == "failed" { extra } else { Value::Null }})
        }).collect::<Vec<_>>(),
        "limits": {
            "max_side": c.max_side,
            "default_timeout_ms": c.default_timeout.as_millis() as u64,
            "max_timeout_ms": c.max_timeout.as_millis() as u64,
            "max_nodes": c.max_nodes,
            "max_memory_bytes": c.max_memory,
            "trace_max_cells": c.trace_max_cells,
            "trace_max_nodes": c.trace_max_nodes,
            "trace_tie_breaks": ["fifo", "deepest"],
            "workers": c.workers,
        },
        "running": state.running(),
        "moves": "a move letter names the direction the blank moves: U, D, L, R",
        "notations": Notation::ALL.iter().map(|n| n.name()).collect::<Vec<_>>(),
    }))
}

/// Any other route: a JSON 404.
pub async fn not_found() -> AppError {
    no_route()
}

/// The answer to a route that does not exist.
pub(super) fn no_route() -> AppError {
    AppError::new(
        StatusCode::NOT_FOUND,
        "not_found",
        "no such page or API route: see GET /api/info and the README's Web API section",
    )
}

/// A known route with the wrong method: a JSON 405.
pub async fn method_not_allowed() -> AppError {
    AppError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        "this route does not take that method: the API's actions are POST with a JSON body, \
         /api/info is GET",
    )
}
