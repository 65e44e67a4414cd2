//! `POST /api/trace`: the A* search tree of a small board, for the page's tree view.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use serde_json::Value;
use taquin::search::puzzle_graph::PuzzleGraph;
use taquin::search::trace::{astar_trace, TieBreak};
use taquin::search::trace_report::TraceReport;
use taquin::{check_solvable, Board, HeuristicKind};

use super::plan::run_blocking;
use super::request::{heuristic_of, parse_pair, AppJson};
use crate::error::AppError;
use crate::state::AppState;

/// `POST /api/trace`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraceRequest {
    /// The start board (at most the server's `trace_max_cells` cells).
    pub board: String,
    /// The goal board; default: tiles in order, blank last.
    #[serde(default)]
    pub goal: Option<String>,
    /// Heuristic name; default `manhattan`, the one tutorials draw.
    #[serde(default)]
    pub heuristic: Option<String>,
    /// Largest number of tree nodes (at most the server's `trace_max_nodes`).
    #[serde(default)]
    pub max_nodes: Option<usize>,
    /// Which node of equal f goes first: `fifo` (the one added first, as tutorials draw it;
    /// the default) or `deepest` (larger g first, the solvers' A* order).
    #[serde(default)]
    pub tie_break: Option<String>,
}

/// `POST /api/trace`: the A* search tree of a small board, nodes numbered in the order they were
/// added, each with its tiles, g, h, f, state (`expanded`, `frontier`, `superseded`, `goal`) and
/// whether it lies on the final path.
pub async fn trace(
    State(state): State<AppState>,
    AppJson(req): AppJson<TraceRequest>,
) -> Result<Json<Value>, AppError> {
    let TracePlan {
        board,
        goal,
        max_nodes,
        kind,
        tie,
    } = trace_plan(&state, &req)?;
    let permit = state.acquire().await?;
    let (guard, job) = state.start(permit);
    // A heuristic's tables are built within the server's default deadline and memory budget,
    // and stop when the client goes away.
    let limits = taquin::Limits::none()
        .with_timeout(state.config().default_timeout)
        .with_max_memory(state.config().max_memory)
        .with_cancel(job.cancel_flag());
    let result = run_blocking(move || -> Result<Value, AppError> {
        let h = kind.build(
            &goal,
            job.tables(),
            taquin::pdb::BuildPolicy::Never,
            &limits,
        )?;
        let graph = PuzzleGraph::new(&goal, &*h);
        let trace = astar_trace(&graph, graph.pack(board.tiles()), max_nodes, tie);
        drop(job);
        let report = TraceReport::new(&board, &graph, &trace, kind.name(), tie.name());
        serde_json::to_value(report).map_err(|e| {
            AppError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", e.to_string())
        })
    })
    .await;
    drop(guard);
    Ok(Json(result??))
}

/// A trace checked and ready to run.
pub(super) struct TracePlan {
    board: Board,
    goal: Board,
    max_nodes: usize,
    kind: HeuristicKind,
    tie: TieBreak,
}

/// Checks everything a trace request can get wrong, before it takes a worker.
pub(super) fn trace_plan(state: &AppState, req: &TraceRequest) -> Result<TracePlan, AppError> {
    let (board, goal) = parse_pair(state, &req.board, req.goal.as_deref())?;
    let c = state.config();
    if board.len() > c.trace_max_cells {
        return Err(AppError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "too_large",
            format!(
                "the search view is for small boards: at most {} cells, this board has {}",
                c.trace_max_cells,
                board.len()
            ),
        ));
    }
    let max_nodes = match req.max_nodes {
        None => c.trace_max_nodes,
        Some(n) if (1..=c.trace_max_nodes).contains(&n) => n,
        Some(_) => {
            return Err(AppError::bad_request(
                "bad_limit",
                format!("max_nodes must be between 1 and {}", c.trace_max_nodes),
            ))
        }
    };
    let kind = match &req.heuristic {
        None => HeuristicKind::Manhattan,
        Some(name) => heuristic_of(name)?,
    };
    let tie = match req.tie_break.as_deref() {
        None => TieBreak::default(),
        Some(name) => TieBreak::from_name(name).ok_or_else(|| {
            AppError::bad_request(
                "bad_fields",
                format!("unknown tie_break '{name}': use fifo or deepest"),
            )
            .with("field", "tie_break")
        })?,
    };
    check_solvable(&board, &goal)?;
    Ok(TracePlan {
        board,
        goal,
        max_nodes,
        kind,
        tie,
    })
}
