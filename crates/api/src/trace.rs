//! `trace`: the A* search tree of a small board, for the page's tree view.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use serde::Deserialize;
use serde_json::Value;
use taquin::search::puzzle_graph::PuzzleGraph;
use taquin::search::trace::{astar_trace, TieBreak};
use taquin::search::trace_report::TraceReport;
use taquin::{check_solvable, Board, HeuristicKind, Tables};

use crate::fields::{heuristic_of, parse_pair};
use crate::solve::{budget, check_heuristic_fits, check_tables_ready, to_json};
use crate::{ApiError, Settings};

/// `POST /api/trace`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraceRequest {
    /// The start board (at most `trace_max_cells` cells).
    pub board: String,
    /// The goal board; default: tiles in order, blank last.
    #[serde(default)]
    pub goal: Option<String>,
    /// Heuristic name; default `manhattan`, the one tutorials draw.
    #[serde(default)]
    pub heuristic: Option<String>,
    /// Largest number of tree nodes (at most `trace_max_nodes`).
    #[serde(default, deserialize_with = "crate::fields::budget_field")]
    pub max_nodes: Option<u64>,
    /// Which node of equal f goes first: `fifo` (the one added first, as tutorials draw it;
    /// the default) or `deepest` (larger g first, the solvers' A* order).
    #[serde(default)]
    pub tie_break: Option<String>,
}

/// A trace, checked and ready to run.
#[derive(Debug, Clone)]
pub struct TracePlan {
    board: Board,
    goal: Board,
    max_nodes: usize,
    kind: HeuristicKind,
    tie: TieBreak,
    /// The heuristic's tables are built within the default deadline and memory budget.
    timeout: Duration,
    max_memory: usize,
}

impl TracePlan {
    /// Checks everything a trace request can get wrong, before it takes a worker: also
    /// pattern databases that `tables` does not hold and that take more than a second or so
    /// to build, as `/api/solve` refuses them.
    pub fn new(
        settings: &Settings,
        tables: &Tables,
        req: &TraceRequest,
    ) -> Result<TracePlan, ApiError> {
        let (board, goal) = parse_pair(settings, &req.board, req.goal.as_deref())?;
        if board.len() > settings.trace_max_cells {
            return Err(ApiError::unprocessable(
                "too_large",
                format!(
                    "the search view is for small boards: at most {} cells, this board has {}",
                    settings.trace_max_cells,
                    board.len()
                ),
            ));
        }
        let max_nodes =
            crate::fields::nodes_within(req.max_nodes, settings.trace_max_nodes as u64)? as usize;
        let kind = match &req.heuristic {
            None => HeuristicKind::Manhattan,
            Some(name) => heuristic_of(name)?,
        };
        let tie = match req.tie_break.as_deref() {
            None => TieBreak::default(),
            Some(name) => TieBreak::from_name(name).ok_or_else(|| {
                ApiError::bad_request(
                    "bad_fields",
                    format!("unknown tie_break '{name}': use fifo or deepest"),
                )
                .with("field", "tie_break")
            })?,
        };
        check_solvable(&board, &goal)?;
        check_heuristic_fits(kind, &goal, "heuristic")?;
        if let HeuristicKind::Pdb(preset) = kind {
            check_tables_ready(
                tables,
                preset,
                &goal,
                (
                    "heuristic",
                    "draw the tree with manhattan or linear-conflict",
                ),
            )?;
        }
        Ok(TracePlan {
            board,
            goal,
            max_nodes,
            kind,
            tie,
            timeout: settings.default_timeout,
            max_memory: settings.max_memory,
        })
    }

    /// Builds the heuristic (its tables as `/api/solve` does: those missing are built, which
    /// [`TracePlan::new`] allows only where quick) and traces the search on the current thread
    /// (a raised `cancel` flag stops the build). The answer: nodes numbered in the order they were added, each
    /// with its tiles, g, h, f, state (`expanded`, `frontier`, `superseded`, `goal`) and
    /// whether it lies on the final path.
    pub fn run(&self, tables: &Tables, cancel: Option<Arc<AtomicBool>>) -> Result<Value, ApiError> {
        let limits = budget(self.timeout, self.max_memory, cancel);
        let h = self.kind.build(
            &self.goal,
            tables,
            taquin::pdb::BuildPolicy::IfMissing,
            &limits,
        )?;
        let graph = PuzzleGraph::new(&self.goal, &*h);
        let trace = astar_trace(
            &graph,
            graph.pack(self.board.tiles()),
            self.max_nodes,
            self.tie,
        );
        to_json(&TraceReport::new(
            &self.board,
            &graph,
            &trace,
            self.kind.name(),
            self.tie.name(),
        ))
    }
}
