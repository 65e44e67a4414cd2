//! `compare`: the classic heuristics comparison, the same pair solved by each algorithm with
//! each heuristic.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde::Deserialize;
use serde_json::{json, Value};
use taquin::clock::Instant;
use taquin::{check_solvable, Algorithm, Board, HeuristicKind, Limits, SolveOptions, Tables};

use crate::error::SearchChoice;
use crate::fields::{algorithm_of, heuristic_of, nodes_of, parse_pair, timeout_of};
use crate::solve::{check_tables_ready, SolvePlan};
use crate::{ApiError, Settings};

/// `POST /api/compare`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompareRequest {
    /// The start board.
    pub board: String,
    /// The goal board; default: tiles in order, blank last.
    #[serde(default)]
    pub goal: Option<String>,
    /// Algorithms to run; default `["astar"]`, the classic heuristics comparison.
    #[serde(default)]
    pub algorithms: Option<Vec<String>>,
    /// Heuristics to run each algorithm with; default all of them.
    #[serde(default)]
    pub heuristics: Option<Vec<String>>,
    /// Time budget of the whole comparison in milliseconds, shared fairly among the runs;
    /// default and maximum set by the server.
    #[serde(default, deserialize_with = "crate::fields::budget_field")]
    pub timeout_ms: Option<u64>,
    /// Node budget of each run.
    #[serde(default, deserialize_with = "crate::fields::budget_field")]
    pub max_nodes: Option<u64>,
}

/// A comparison checked and ready to run: the runs, one plan each, and the time budget of the
/// whole comparison.
#[derive(Debug, Clone)]
pub struct Comparison {
    board: Board,
    goal: Board,
    plans: Vec<SolvePlan>,
    timeout: Duration,
}

impl Comparison {
    /// Checks everything a comparison request can get wrong, before it takes a worker: also
    /// pattern databases that `tables` does not hold and that take more than a second or so
    /// to build, as `/api/solve` refuses them.
    pub fn new(
        settings: &Settings,
        tables: &Tables,
        req: &CompareRequest,
    ) -> Result<Comparison, ApiError> {
        let (board, goal) = parse_pair(settings, &req.board, req.goal.as_deref())?;
        check_solvable(&board, &goal)?;
        let algorithms = match &req.algorithms {
            None => vec![Algorithm::AStar],
            Some(names) => names
                .iter()
                .map(|n| algorithm_of(n).map_err(|e| e.with("field", "algorithms")))
                .collect::<Result<_, _>>()?,
        };
        let heuristics = match &req.heuristics {
            None => HeuristicKind::ALL.to_vec(),
            Some(names) => names
                .iter()
                .map(|n| heuristic_of(n).map_err(|e| e.with("field", "heuristics")))
                .collect::<Result<_, _>>()?,
        };
        if algorithms.is_empty() || heuristics.is_empty() {
            let field = if algorithms.is_empty() {
                "algorithms"
            } else {
                "heuristics"
            };
            return Err(ApiError::bad_request(
                "bad_fields",
                format!("{field} must not be empty: name at least one, or leave it out"),
            )
            .with("field", field));
        }
        refuse_duplicates("algorithms", req.algorithms.as_deref())?;
        refuse_duplicates("heuristics", req.heuristics.as_deref())?;
        if algorithms.iter().any(|a| a.takes_heuristic()) {
            for &h in &heuristics {
                if let HeuristicKind::Pdb(preset) = h {
                    check_tables_ready(
                        tables,
                        preset,
                        &goal,
                        ("heuristics", "compare without it, or with smaller tables"),
                    )?;
                }
            }
        }
        let timeout = timeout_of(settings, req.timeout_ms)?;
        let max_nodes = nodes_of(settings, req.max_nodes)?;
        let mut runs = Vec::new();
        for &algorithm in &algorithms {
            if !algorithm.takes_heuristic() {
                // BFS, the constructive solver and the look-ahead player ignore the heuristic
                // they are given: one run says all there is to say, as `taquin compare` has it.
                runs.push((algorithm, heuristics[0]));
                continue;
            }
            runs.extend(heuristics.iter().map(|&h| (algorithm, h)));
        }
        let plans: Vec<SolvePlan> = runs
            .into_iter()
            .map(|(a, h)| {
                let pair = (board.clone(), goal.clone());
                SolvePlan {
                    choice: SearchChoice::Compared,
                    ..SolvePlan::fixed(settings, pair, SolveOptions::new(a, h), timeout, max_nodes)
                }
            })
            .collect();
        Ok(Comparison {
            board,
            goal,
            plans,
            timeout,
        })
    }

    /// Runs the searches one after the other on the current thread, all within the request's
    /// one time budget, and answers `board`, `goal` and one `results` entry a run: its report,
    /// or its error body with its algorithm and heuristic (a run stopped by its budget is
    /// reported, not dropped). A raised `cancel` flag stops the run under way and the rest.
    pub fn run(self, tables: &Tables, cancel: Option<Arc<AtomicBool>>) -> Value {
        let deadline = Limits::none().with_timeout(self.timeout).deadline;
        let runs = self.plans.len();
        let mut results = Vec::new();
        for (i, mut plan) in self.plans.into_iter().enumerate() {
            if cancel.as_ref().is_some_and(|f| f.load(Ordering::Relaxed)) {
                break;
            }
            // Each run gets an equal share of what is left, so a slow run cannot starve the
            // later ones and the whole comparison ends by the request's deadline.
            let left = deadline.map_or(self.timeout, |d| {
                d.saturating_duration_since(Instant::now())
            });
            plan.timeout = left / (runs - i) as u32;
            let (algorithm, heuristic) = match plan.plan(tables) {
                Ok(p) => (p.algorithm.name().to_string(), p.heuristic_name()),
                Err(_) => (String::new(), String::new()),
            };
            results.push(match plan.run(tables, cancel.clone(), None) {
                Ok(report) => report,
                Err(e) => {
                    let mut body = e.body();
                    body["algorithm"] = json!(algorithm);
                    body["heuristic"] = json!(heuristic);
                    body
                }
            });
        }
        json!({
            "board": self.board.to_line(),
            "goal": self.goal.to_line(),
            "results": results,
        })
    }
}

/// A name listed twice is a mistake (the same run twice), refused rather than run twice.
fn refuse_duplicates(field: &str, names: Option<&[String]>) -> Result<(), ApiError> {
    let names = names.unwrap_or_default();
    for (i, name) in names.iter().enumerate() {
        if names[..i].contains(name) {
            return Err(ApiError::bad_request(
                "bad_fields",
                format!("{field} lists '{name}' twice: name each one once"),
            )
            .with("field", field));
        }
    }
    Ok(())
}
