//! `validate` and `hint`: questions about a board and goal pair.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use serde::Deserialize;
use serde_json::{json, Value};
use taquin::notation::Notation;
use taquin::{check_solvable, Board, Tables};

use crate::fields::{board_json, notation_of, parse_pair, timeout_of};
use crate::solve::SolvePlan;
use crate::{ApiError, Settings};

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
    #[serde(default, deserialize_with = "crate::fields::budget_field")]
    pub timeout_ms: Option<u64>,
    /// How the hint writes `moves` (hint only): `blank` (default) or `tiles`.
    #[serde(default)]
    pub notation: Option<String>,
}

/// The answer of `validate`: both boards parsed, and whether the pair is solvable (an answer
/// either way; `reason` explains a refusal). All its work is checking.
pub fn validate(settings: &Settings, req: &PairRequest) -> Result<Value, ApiError> {
    let given: Vec<&str> = [
        (req.timeout_ms.is_some(), "timeout_ms"),
        (req.notation.is_some(), "notation"),
    ]
    .into_iter()
    .filter_map(|(given, name)| given.then_some(name))
    .collect();
    if !given.is_empty() {
        // As any other field a route does not take (an unknown field is a 422 too).
        return Err(ApiError::unprocessable(
            "bad_fields",
            format!(
                "{} {} no meaning for validate, which only checks the boards: leave {} out",
                given.join(" and "),
                if given.len() == 1 { "has" } else { "have" },
                if given.len() == 1 { "it" } else { "them" }
            ),
        )
        .with("field", given[0]));
    }
    let (board, goal) = parse_pair(settings, &req.board, req.goal.as_deref())?;
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

/// A hint, checked and ready to run: the first move of the solution the planner's search finds
/// (optimal up to 16 cells; on larger boards the best the anytime search finds in the time,
/// which the answer's `optimal` says), or none when the board is already the goal.
#[derive(Debug, Clone)]
pub struct Hint {
    /// The search to run; `None` when the board is the goal.
    search: Option<SolvePlan>,
    /// How the answer writes its moves.
    notation: Notation,
}

impl Hint {
    /// Checks everything a hint request can get wrong, before it takes a worker.
    pub fn new(settings: &Settings, req: &PairRequest) -> Result<Hint, ApiError> {
        let (board, goal) = parse_pair(settings, &req.board, req.goal.as_deref())?;
        check_solvable(&board, &goal)?;
        let timeout = timeout_of(settings, req.timeout_ms)?;
        let notation = notation_of(req.notation.as_deref())?;
        // The planner's search: an optimal one where it finishes in time (up to 16 cells), the
        // anytime search beyond, so that a hint on a large board comes within its time.
        let search = (board != goal).then(|| SolvePlan::planned(settings, (board, goal), timeout));
        Ok(Hint { search, notation })
    }

    /// Whether answering takes a search (false when the board is already the goal).
    pub fn needs_search(&self) -> bool {
        self.search.is_some()
    }

    /// Runs the search on the current thread (a raised `cancel` flag stops it) and answers:
    /// `move` (in the request's notation, as `moves`), `tile` (the tile it moves), `length` (the length of the solution
    /// it starts), `optimal` (whether that solution is proven optimal), `lower_bound`, `moves`
    /// (in the request's notation), `algorithm`, `heuristic`, `expanded`, `generated`,
    /// `time_ms`, and `notation` when it is `tiles`; `move` is null at the goal.
    pub fn run(&self, tables: &Tables, cancel: Option<Arc<AtomicBool>>) -> Result<Value, ApiError> {
        let Some(search) = &self.search else {
            // No search: the same fields, saying so.
            return Ok(json!({
                "move": null, "tile": null, "length": 0, "optimal": true, "lower_bound": 0,
                "moves": "", "algorithm": "none", "heuristic": "none", "expanded": 0,
                "generated": 0, "time_ms": 0.0,
            }));
        };
        let solution = search.solve(tables, cancel, None)?;
        let board: &Board = search.board();
        let first = solution.moves.first().copied();
        let tile = first
            .and_then(|m| board.target(m))
            .map(|cell| board.tiles()[cell]);
        let mut answer = json!({
            "move": first.map(|m| self.notation.format(&[m])),
            "tile": tile,
            "length": solution.len(),
            "optimal": solution.optimal,
            "lower_bound": solution.lower_bound,
            "moves": self.notation.format(&solution.moves),
            "algorithm": solution.algorithm,
            "heuristic": solution.heuristic,
            "expanded": solution.stats.expanded,
            "generated": solution.stats.generated,
            "time_ms": taquin::report::millis(solution.stats.elapsed),
        });
        if self.notation != Notation::Blank {
            // As `/api/solve` and `solve --json` name moves that are not the blank's letters.
            answer["notation"] = json!(self.notation.name());
        }
        Ok(answer)
    }
}
