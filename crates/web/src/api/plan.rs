//! A solve checked and ready to run, and the bridge to the blocking pool.

use std::time::Duration;

use axum::http::StatusCode;
use serde_json::{json, Value};
use taquin::notation::Notation;
use taquin::{Board, HeuristicKind, Limits, Request, SolveOptions, SolveReport, Workload};

use super::request::{choice_of, nodes_of, notation_of, parse_pair, timeout_of};
use super::solve::SolveRequest;
use crate::error::AppError;
use crate::state::{AppState, Job};

/// A solve, checked and ready to run.
pub(super) struct SolvePlan {
    pub(super) board: Board,
    pub(super) goal: Board,
    pub(super) options: SolveOptions,
    pub(super) timeout: Duration,
    pub(super) max_nodes: u64,
    /// Did the request set `max_nodes`? The server's own cap is not passed to the anytime
    /// search, which reads a node budget as "improve only, prove nothing".
    pub(super) nodes_given: bool,
    pub(super) max_memory: usize,
    /// How the answer writes its moves.
    pub(super) notation: Notation,
}

impl SolvePlan {
    /// Parses and checks everything a request can get wrong, before it takes a worker.
    pub(super) fn new(state: &AppState, req: &SolveRequest) -> Result<SolvePlan, AppError> {
        let (board, goal) = parse_pair(state, &req.board, req.goal.as_deref())?;
        let (algorithm, heuristic) = choice_of(req.algorithm.as_deref(), req.heuristic.as_deref())?;
        let mut options = SolveOptions {
            algorithm,
            heuristic,
            workload: Workload::Many,
            ..SolveOptions::default()
        };
        if let Some(w) = req.weight {
            let max = SolveOptions::MAX_WEIGHT;
            if !(w.is_finite() && (1.0..=max).contains(&w)) {
                return Err(AppError::bad_request(
                    "bad_fields",
                    format!("weight must be a number between 1 and {max}"),
                ));
            }
            options.weight = w;
        }
        if let Some(d) = req.depth {
            let max = taquin::solvers::MAX_DEPTH;
            if !(1..=max).contains(&d) {
                return Err(AppError::bad_request(
                    "bad_fields",
                    format!(
                        "depth must be between 1 and {max}: the look-ahead tree grows threefold \
                         with each level"
                    ),
                ));
            }
            options.depth = d;
        }
        // Refused with the reason before any search, and before taking a worker.
        Request::new(board.clone(), goal.clone(), Limits::none())?;
        if let Some(HeuristicKind::Pdb(preset)) = heuristic {
            check_tables_ready(state, preset, &goal)?;
        }
        Ok(SolvePlan {
            board,
            goal,
            options,
            timeout: timeout_of(state, req.timeout_ms)?,
            max_nodes: nodes_of(state, req.max_nodes)?,
            nodes_given: req.max_nodes.is_some(),
            max_memory: state.config().max_memory,
            notation: notation_of(req.notation.as_deref())?,
        })
    }

    /// What the planner picks for this solve (algorithm, heuristic, why), for reports made
    /// before or without a run.
    pub(super) fn plan(&self, state: &AppState) -> Result<taquin::Plan, AppError> {
        let request = Request::new(self.board.clone(), self.goal.clone(), Limits::none())?;
        Ok(taquin::plan(&request, &self.options, state.tables())?)
    }

    /// Runs the search on the current (blocking) thread; the deadline starts now, not when the
    /// request arrived, so time spent waiting for a worker is not charged to the search.
    pub(super) fn run(
        &self,
        job: &Job,
        progress: Option<taquin::ProgressFn>,
    ) -> Result<Value, AppError> {
        let mut limits = Limits::none()
            .with_timeout(self.timeout)
            .with_max_memory(self.max_memory)
            .with_cancel(job.cancel_flag());
        let unlimited = Request::new(self.board.clone(), self.goal.clone(), Limits::none())?;
        let anytime = taquin::plan(&unlimited, &self.options, job.tables())?.algorithm
            == taquin::Algorithm::Anytime;
        if self.nodes_given || !anytime {
            limits = limits.with_max_nodes(self.max_nodes);
        }
        let request = Request::new(self.board.clone(), self.goal.clone(), limits)?;
        let solution = taquin::solve(&request, &self.options, job.tables(), progress)?;
        let report = SolveReport::new(&solution).in_notation(&solution, self.notation);
        let mut value = serde_json::to_value(report).map_err(|e| {
            AppError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", e.to_string())
        })?;
        value["board"] = json!(self.board.to_line());
        value["goal"] = json!(self.goal.to_line());
        Ok(value)
    }
}

/// Refuses pattern databases that this server has not built and that would take more than a
/// second or so to build inside a request.
fn check_tables_ready(
    state: &AppState,
    preset: taquin::pdb::PdbPreset,
    goal: &Board,
) -> Result<(), AppError> {
    let quick = preset.largest_table(goal.len()) <= taquin::planner::STANDARD_ENTRIES;
    if quick || preset.is_available(goal, state.tables()) {
        return Ok(());
    }
    Err(AppError::bad_request(
        "bad_heuristic",
        format!(
            "the pdb:{} tables for this board are not built on this server, and building them \
             takes minutes: leave the heuristic on auto, which uses the best tables available",
            preset.name()
        ),
    )
    .with("field", "heuristic"))
}

/// Runs CPU work on the blocking pool, below the async threads' priority (see
/// [`crate::priority`]); a panic there becomes a JSON 500, never a dropped connection.
pub(super) async fn run_blocking<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, AppError> {
    let work = move || {
        crate::priority::lower_current_thread();
        work()
    };
    tokio::task::spawn_blocking(work).await.map_err(|e| {
        AppError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            format!("the search stopped unexpectedly: {e}"),
        )
    })
}
