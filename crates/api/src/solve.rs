//! `solve` and `solve/stream`: the request, the solve checked and ready to run, and the lines a
//! streamed solve sends while it runs.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Deserialize;
use serde_json::{json, Value};
use taquin::clock::Instant;
use taquin::notation::Notation;
use taquin::{
    Algorithm, Board, HeuristicKind, Limits, Progress, ProgressFn, Request, Setting, Solution,
    SolveOptions, SolveReport, Tables,
};

use crate::error::SearchChoice;
use crate::fields::{choice_of, nodes_of, notation_of, parse_pair, timeout_of};
use crate::{ApiError, Settings};

/// `POST /api/solve` and `/api/solve/stream`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolveRequest {
    /// The start board, e.g. `"6 4 7/8 5 0/3 2 1"`.
    pub board: String,
    /// The goal board; default: tiles in order, blank last.
    #[serde(default)]
    pub goal: Option<String>,
    /// Algorithm name (`astar`, `idastar`, `bfs`, ...); default `auto`: the planner picks.
    #[serde(default)]
    pub algorithm: Option<String>,
    /// Heuristic name (`manhattan`, `pdb:6-6-3`, ...); default `auto`: the planner picks.
    #[serde(default)]
    pub heuristic: Option<String>,
    /// Time budget in milliseconds; default and maximum set by the server.
    #[serde(default, deserialize_with = "crate::fields::budget_field")]
    pub timeout_ms: Option<u64>,
    /// Node budget (nodes generated); maximum set by the server.
    #[serde(default, deserialize_with = "crate::fields::budget_field")]
    pub max_nodes: Option<u64>,
    /// Weight of weighted A* (>= 1).
    #[serde(default)]
    pub weight: Option<f64>,
    /// Look-ahead depth of the real-time algorithms (1 to `taquin::solvers::MAX_DEPTH`).
    #[serde(default, deserialize_with = "crate::fields::count_field")]
    pub depth: Option<usize>,
    /// How the answer writes `moves`: `blank` (the default: each letter is where the blank
    /// goes) or `tiles` (where the tiles go, runs with their length: `R3`).
    #[serde(default)]
    pub notation: Option<String>,
}

/// A solve, checked and ready to run.
#[derive(Debug, Clone)]
pub struct SolvePlan {
    pub(crate) board: Board,
    pub(crate) goal: Board,
    pub(crate) options: SolveOptions,
    pub(crate) timeout: Duration,
    pub(crate) max_nodes: u64,
    /// Did the request set `max_nodes`? The front end's own cap is not passed to the anytime
    /// search, which reads a node budget as "improve only, prove nothing".
    pub(crate) nodes_given: bool,
    pub(crate) max_memory: usize,
    /// How the answer writes its moves.
    pub(crate) notation: Notation,
    /// Said beside the answer (`note`): a heuristic asked of an algorithm that takes none.
    pub(crate) note: Option<String>,
    /// Who chose the search, for the advice of a limit's error.
    pub(crate) choice: SearchChoice,
}

impl SolvePlan {
    /// Parses and checks everything a request can get wrong, before it takes a worker.
    pub fn new(
        settings: &Settings,
        tables: &Tables,
        req: &SolveRequest,
    ) -> Result<SolvePlan, ApiError> {
        let (board, goal) = parse_pair(settings, &req.board, req.goal.as_deref())?;
        let (algorithm, heuristic) = choice_of(req.algorithm.as_deref(), req.heuristic.as_deref())?;
        let mut options = SolveOptions {
            algorithm,
            heuristic,
            workload: settings.workload,
            ..SolveOptions::default()
        };
        if let Some(w) = req.weight {
            let max = SolveOptions::MAX_WEIGHT;
            if !(w.is_finite() && (1.0..=max).contains(&w)) {
                return Err(ApiError::bad_request(
                    "bad_fields",
                    format!("weight must be a number between 1 and {max}"),
                )
                .with("field", "weight"));
            }
            options.weight = w;
            unused(Setting::Weight, "weight", algorithm)?;
        }
        if let Some(d) = req.depth {
            let max = taquin::solvers::MAX_DEPTH;
            if !(1..=max).contains(&d) {
                return Err(ApiError::bad_request(
                    "bad_fields",
                    format!(
                        "depth must be between 1 and {max}: the look-ahead tree grows threefold \
                         with each level"
                    ),
                )
                .with("field", "depth"));
            }
            options.depth = d;
            unused(Setting::Depth, "depth", algorithm)?;
        }
        // Refused with the reason before any search, and before taking a worker.
        Request::new(board.clone(), goal.clone(), Limits::none())?;
        // An algorithm that takes no heuristic does not use it (the answer's note says so).
        if let (Some(kind), true) = (heuristic, algorithm.is_none_or(|a| a.takes_heuristic())) {
            check_heuristic_fits(kind, &goal, "heuristic")?;
        }
        if let Some(HeuristicKind::Pdb(preset)) = heuristic {
            check_tables_ready(
                tables,
                preset,
                &goal,
                (
                    "heuristic",
                    "leave the heuristic on auto, which uses the best tables available",
                ),
            )?;
        }
        Ok(SolvePlan {
            board,
            goal,
            options,
            timeout: timeout_of(settings, req.timeout_ms)?,
            max_nodes: nodes_of(settings, req.max_nodes)?,
            nodes_given: req.max_nodes.is_some(),
            max_memory: settings.max_memory,
            notation: notation_of(req.notation.as_deref())?,
            note: algorithm
                .zip(heuristic)
                .and_then(|(a, h)| a.unused_heuristic(h, &format!("the heuristic '{}'", h.name()))),
            choice: if algorithm.is_none() {
                SearchChoice::Planned
            } else {
                SearchChoice::Named
            },
        })
    }

    /// A search whose options the route sets (each run of a comparison, the hint's optimal
    /// search), within `timeout`, `max_nodes` and the front end's memory budget, its moves in
    /// blank letters.
    pub(crate) fn fixed(
        settings: &Settings,
        (board, goal): (Board, Board),
        options: SolveOptions,
        timeout: Duration,
        max_nodes: u64,
    ) -> SolvePlan {
        SolvePlan {
            board,
            goal,
            options: SolveOptions {
                workload: settings.workload,
                ..options
            },
            timeout,
            max_nodes,
            nodes_given: true,
            max_memory: settings.max_memory,
            notation: Notation::Blank,
            note: None,
            choice: SearchChoice::Named,
        }
    }

    /// The planner's own choice for the pair (what `/api/solve` runs when neither algorithm
    /// nor heuristic is given: an optimal search up to 16 cells, the anytime search beyond),
    /// within `timeout` and the front end's node and memory budgets, its moves in blank
    /// letters.
    pub(crate) fn planned(
        settings: &Settings,
        pair: (Board, Board),
        timeout: Duration,
    ) -> SolvePlan {
        SolvePlan {
            // As for `/api/solve`: the anytime search is bounded by its time, not by nodes.
            nodes_given: false,
            choice: SearchChoice::Planned,
            ..SolvePlan::fixed(
                settings,
                pair,
                SolveOptions::default(),
                timeout,
                settings.max_nodes,
            )
        }
    }

    /// How the answer, and the improvements of a streamed solve, write their moves.
    pub fn notation(&self) -> Notation {
        self.notation
    }

    /// The start board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// What the planner picks for this solve (algorithm, heuristic, why), for reports made
    /// before or without a run.
    pub fn plan(&self, tables: &Tables) -> Result<taquin::Plan, ApiError> {
        let request = Request::new(self.board.clone(), self.goal.clone(), Limits::none())?;
        Ok(taquin::plan(&request, &self.options, tables)?)
    }

    /// Runs the search on the current thread; the deadline starts now, not when the request
    /// arrived, so time spent waiting for a worker is not charged to the search. A raised
    /// `cancel` flag stops it.
    pub fn solve(
        &self,
        tables: &Tables,
        cancel: Option<Arc<AtomicBool>>,
        progress: Option<ProgressFn>,
    ) -> Result<Solution, ApiError> {
        let mut limits = budget(self.timeout, self.max_memory, cancel);
        let anytime = self.plan(tables)?.algorithm == taquin::Algorithm::Anytime;
        if self.nodes_given || !anytime {
            limits = limits.with_max_nodes(self.max_nodes);
        }
        let request = Request::new(self.board.clone(), self.goal.clone(), limits)?;
        taquin::solve(&request, &self.options, tables, progress)
            .map_err(|e| ApiError::from_solve(e, self.choice))
    }

    /// [`SolvePlan::solve`], answered as the route answers: the report, in the request's
    /// notation (named by `notation` when it is not the blank's letters), with the two boards.
    pub fn run(
        &self,
        tables: &Tables,
        cancel: Option<Arc<AtomicBool>>,
        progress: Option<ProgressFn>,
    ) -> Result<Value, ApiError> {
        let solution = self.solve(tables, cancel, progress)?;
        let report = SolveReport::new(&solution).in_notation(&solution, self.notation);
        let mut value = to_json(&report)?;
        value["board"] = json!(self.board.to_line());
        value["goal"] = json!(self.goal.to_line());
        if self.notation != Notation::Blank {
            // Said as `solve --json --notation tiles` says it: moves that are not blank letters.
            value["notation"] = json!(self.notation.name());
        }
        if let Some(note) = &self.note {
            value["note"] = json!(note);
        }
        Ok(value)
    }
}

/// The limits of a search that starts now: `timeout` from now, `max_memory` bytes, and the
/// caller's cancel flag.
pub(crate) fn budget(
    timeout: Duration,
    max_memory: usize,
    cancel: Option<Arc<AtomicBool>>,
) -> Limits {
    let limits = Limits::none()
        .with_timeout(timeout)
        .with_max_memory(max_memory);
    match cancel {
        Some(flag) => limits.with_cancel(flag),
        None => limits,
    }
}

/// A value as JSON; failing is a fault of this program, not of the request.
pub(crate) fn to_json<T: serde::Serialize>(value: &T) -> Result<Value, ApiError> {
    serde_json::to_value(value).map_err(|e| ApiError::internal(e.to_string()))
}

/// Refuses a named heuristic that cannot serve the goal's board (pattern databases whose
/// groups do not add up to its tiles, walking distance where its tables would be too large)
/// before the request takes a worker, naming the request's `field` at fault.
pub(crate) fn check_heuristic_fits(
    kind: HeuristicKind,
    goal: &Board,
    field: &str,
) -> Result<(), ApiError> {
    let fits = match kind {
        HeuristicKind::Pdb(preset) => preset
            .partition(goal)
            .map(drop)
            .map_err(taquin::SolveError::from),
        HeuristicKind::WalkingDistance => {
            taquin::heuristic::walking_distance::WalkingDistance::check_fits(goal)
        }
        _ => Ok(()),
    };
    fits.map_err(|e| ApiError::from(e).with("field", field))
}

/// Refuses pattern databases that are not built here and that would take more than a second
/// or so to build inside a request, before the request takes a worker: every route that runs a
/// search with a named heuristic checks this the same way. The error names the request's
/// `field` and gives the route's `advice`.
pub(crate) fn check_tables_ready(
    tables: &Tables,
    preset: taquin::pdb::PdbPreset,
    goal: &Board,
    (field, advice): (&str, &str),
) -> Result<(), ApiError> {
    let quick = preset.largest_table(goal.len()) <= taquin::planner::STANDARD_ENTRIES;
    if quick || preset.is_available(goal, tables) {
        return Ok(());
    }
    Err(ApiError::bad_request(
        "bad_heuristic",
        format!(
            "the {preset} tables for this board are not built on this server, and building them \
             takes a while: {advice}"
        ),
    )
    .with("field", field))
}

/// The lines of a streamed solve, made from the search's progress reports: every improvement
/// at once as `{"improved": {"length", "lower_bound", "moves", "time_ms"}}` (there are few,
/// and each is news; with its moves, so that a client that stops the search keeps the best so
/// far), and `{"progress": {"generated", "expanded", "bound", "time_ms"}}` at most every
/// 100 ms, plenty for a progress bar and a small stream. Shareable between threads, as the
/// core's progress callback must be.
#[derive(Debug)]
pub struct ProgressLines {
    /// The least time between two progress lines.
    every: Duration,
    /// How the improvements write their moves.
    notation: Notation,
    last: Mutex<Option<Instant>>,
    improvements: taquin::Improvements,
}

impl ProgressLines {
    /// No line sent yet; moves in `notation` (a solve's is [`SolvePlan::notation`]).
    pub fn in_notation(notation: Notation) -> ProgressLines {
        ProgressLines::every(Duration::from_millis(100), notation)
    }

    /// Progress lines at most once per `every`.
    fn every(every: Duration, notation: Notation) -> ProgressLines {
        ProgressLines {
            every,
            notation,
            last: Mutex::new(None),
            improvements: taquin::Improvements::new(),
        }
    }

    /// The line to send for `p`, if any.
    pub fn line(&self, p: Progress) -> Option<Value> {
        let time_ms = taquin::report::millis(p.elapsed);
        if let Some(best) = self.improvements.news(&p) {
            let mut line = json!({"improved": {
                "length": best,
                "lower_bound": p.bound,
                "time_ms": time_ms,
            }});
            if let Some(moves) = &p.best_moves {
                line["improved"]["moves"] = json!(self.notation.format(moves));
            }
            return Some(line);
        }
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        if last.is_some_and(|t| t.elapsed() < self.every) {
            return None;
        }
        *last = Some(Instant::now());
        Some(json!({"progress": {
            "generated": p.generated,
            "expanded": p.expanded,
            "bound": p.bound,
            "time_ms": time_ms,
        }}))
    }
}

/// Refuses `field`, the setting `setting`, given with an algorithm that does not use it
/// (`None`: the planner's choice), rather than solving without it, as the command line does.
fn unused(setting: Setting, field: &str, algorithm: Option<Algorithm>) -> Result<(), ApiError> {
    match setting.unused_with(field, algorithm, |a| format!("\"algorithm\": \"{a}\"")) {
        Some(message) => Err(ApiError::bad_request("bad_fields", message)),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn progress(best: Option<u32>) -> Progress {
        Progress {
            generated: 10,
            expanded: 4,
            bound: 20,
            elapsed: Duration::from_millis(3),
            best,
            best_moves: None,
        }
    }

    #[test]
    fn every_improvement_is_a_line_and_progress_waits_its_interval() {
        // An interval no test run reaches: the second progress report is always too soon.
        let lines = ProgressLines::every(Duration::from_secs(3600), Notation::Blank);
        let first = lines.line(progress(None)).unwrap();
        assert_eq!(first["progress"]["generated"], 10);
        assert_eq!(first["progress"]["time_ms"], 3.0);
        assert_eq!(lines.line(progress(None)), None, "too soon after the last");
        for best in [40, 36] {
            let line = lines.line(progress(Some(best))).unwrap();
            assert_eq!(line["improved"]["length"], best);
            assert_eq!(line["improved"]["lower_bound"], 20);
        }
        assert_eq!(lines.line(progress(Some(36))), None, "no news, too soon");
        assert_eq!(lines.line(progress(Some(40))), None, "longer: no news");
        let eager = ProgressLines::every(Duration::ZERO, Notation::Blank);
        for _ in 0..2 {
            assert!(eager.line(progress(Some(36))).is_some());
        }
    }

    #[test]
    fn an_improvement_carries_its_moves_in_the_solve_s_notation() {
        use taquin::Move::{Left, Up};
        let moves: std::sync::Arc<[taquin::Move]> = vec![Left, Left, Up].into();
        let p = Progress {
            best_moves: Some(moves),
            ..progress(Some(3))
        };
        let blank = ProgressLines::in_notation(Notation::Blank)
            .line(p.clone())
            .unwrap();
        assert_eq!(blank["improved"]["moves"], "LLU");
        let tiles = ProgressLines::in_notation(Notation::Tiles).line(p).unwrap();
        assert_eq!(tiles["improved"]["moves"], "R2 D");
        assert_eq!(tiles["improved"]["length"], 3);
    }

    #[test]
    fn a_solve_is_refused_before_any_search_with_the_field_at_fault() {
        let settings = Settings {
            max_side: 4,
            default_timeout: Duration::from_secs(1),
            max_timeout: Duration::from_secs(2),
            max_nodes: 1000,
            max_memory: 1 << 20,
            trace_max_cells: 9,
            trace_max_nodes: 50,
            workers: 1,
            workload: taquin::Workload::One,
        };
        let tables = Tables::in_memory();
        let refusal = |body: serde_json::Value| {
            let req: SolveRequest = crate::object_of(body).unwrap();
            let e = SolvePlan::new(&settings, &tables, &req).unwrap_err();
            (e.status.as_u16(), e.code, e.body()["field"].clone())
        };
        let board = "1 2 3/4 5 6/7 0 8";
        assert_eq!(
            refusal(json!({"board": "1 2 3 4 5/6 7 8 9 10/11 12 13 14 0"})),
            (422, "too_large", json!("board"))
        );
        assert_eq!(
            refusal(json!({"board": board, "timeout_ms": 2001})),
            (400, "bad_limit", json!("timeout_ms"))
        );
        assert_eq!(
            refusal(json!({"board": board, "max_nodes": 1001})),
            (400, "bad_limit", json!("max_nodes"))
        );
        assert_eq!(
            refusal(json!({"board": board, "algorithm": "dfs"})),
            (400, "bad_algorithm", json!("algorithm"))
        );
        assert_eq!(
            refusal(json!({"board": "1 2 3/4 5 6/8 7 0"})),
            (422, "unsolvable", json!(null))
        );
    }
}
