//! `info`: what a front end offers.

use serde_json::{json, Value};
use taquin::notation::Notation;
use taquin::tables::BackgroundState;
use taquin::{Algorithm, HeuristicKind, Tables};

use crate::Settings;

/// The answer of `GET /api/info`: algorithms, heuristics, the tables being built in the
/// background, the limits, and `running`, the searches under way.
pub fn info(settings: &Settings, tables: &Tables, running: usize) -> Value {
    let s = settings;
    json!({
        "algorithms": Algorithm::ALL.iter().map(|a| json!({"name": a.name(), "optimal": a.is_optimal(), "takes_heuristic": a.takes_heuristic()})).collect::<Vec<_>>(),
        "heuristics": HeuristicKind::ALL.iter().map(|h| h.name()).collect::<Vec<_>>(),
        "defaults": {"algorithm": "auto", "heuristic": "auto"},
        "auto": "the planner picks the algorithm, heuristic and tables for each board (the plan field of a solve says which and why)",
        "tables": tables.background().iter().map(|job| {
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
            "max_side": s.max_side,
            "default_timeout_ms": s.default_timeout.as_millis() as u64,
            "max_timeout_ms": s.max_timeout.as_millis() as u64,
            "max_nodes": s.max_nodes,
            "max_memory_bytes": s.max_memory,
            "trace_max_cells": s.trace_max_cells,
            "trace_max_nodes": s.trace_max_nodes,
            "trace_tie_breaks": ["fifo", "deepest"],
            "workers": s.workers,
        },
        "running": running,
        "moves": "a move letter names the direction the blank moves: U, D, L, R",
        "notations": Notation::ALL.iter().map(|n| n.name()).collect::<Vec<_>>(),
    })
}
