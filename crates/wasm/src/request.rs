//! The request bodies the page sends (the web API's, field for field) and the checks every call
//! applies to boards, names and limits, with the server's words.

use std::time::Duration;

use serde::de::DeserializeOwned;
use serde::Deserialize;
use taquin::notation::Notation;
use taquin::{Algorithm, Board, HeuristicKind};

use crate::error::ApiError;

/// Largest width and height the page offers, as the server's default.
pub const MAX_SIDE: usize = 8;
/// Time budget of a solve that names none, and the most one may ask for.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);
/// The longest time budget a request may ask for.
pub const MAX_TIMEOUT: Duration = Duration::from_secs(60);
/// Node budget of a solve.
pub const MAX_NODES: u64 = 2_000_000_000;
/// Memory budget of a search: a browser tab gets less than a server.
pub const MAX_MEMORY: usize = 512 << 20;
/// Largest board of the search-tree view.
pub const TRACE_MAX_CELLS: usize = 16;
/// Most nodes of the search-tree view.
pub const TRACE_MAX_NODES: usize = 500;

/// `solve` and `solve/stream`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolveRequest {
    pub board: String,
    #[serde(default)]
    pub goal: Option<String>,
    #[serde(default)]
    pub algorithm: Option<String>,
    #[serde(default)]
    pub heuristic: Option<String>,
    #[serde(default)]
    pub timeout_ms: Option<u64>,
    #[serde(default)]
    pub max_nodes: Option<u64>,
    #[serde(default)]
    pub weight: Option<f64>,
    #[serde(default)]
    pub depth: Option<usize>,
    #[serde(default)]
    pub notation: Option<String>,
}

/// `validate` and `hint`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairRequest {
    pub board: String,
    #[serde(default)]
    pub goal: Option<String>,
    #[serde(default)]
    pub timeout_ms: Option<u64>,
    #[serde(default)]
    pub notation: Option<String>,
}

/// `generate`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GenerateRequest {
    #[serde(default)]
    pub width: Option<usize>,
    #[serde(default)]
    pub height: Option<usize>,
    #[serde(default)]
    pub goal: Option<String>,
    #[serde(default)]
    pub method: Option<String>,
    #[serde(default)]
    pub moves: Option<usize>,
    #[serde(default)]
    pub seed: Option<u64>,
}

/// `trace`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraceRequest {
    pub board: String,
    #[serde(default)]
    pub goal: Option<String>,
    #[serde(default)]
    pub heuristic: Option<String>,
    #[serde(default)]
    pub max_nodes: Option<usize>,
    #[serde(default)]
    pub tie_break: Option<String>,
}

/// A request body: a JSON object with the documented fields and no others.
pub fn parse_body<T: DeserializeOwned>(body: &str) -> Result<T, ApiError> {
    let value: serde_json::Value = serde_json::from_str(body)
        .map_err(|e| ApiError::new("bad_json", format!("the request is not JSON: {e}")))?;
    if !value.is_object() {
        return Err(ApiError::new(
            "bad_json",
            "the request must be a JSON object such as {\"board\": \"6 4 7/8 5 0/3 2 1\"}",
        ));
    }
    serde_json::from_value(value).map_err(|e| ApiError::new("bad_fields", e.to_string()))
}

/// The algorithm and heuristic a request names; missing or `"auto"` leaves the planner to pick.
pub fn choice_of(
    algorithm: Option<&str>,
    heuristic: Option<&str>,
) -> Result<(Option<Algorithm>, Option<HeuristicKind>), ApiError> {
    let algorithm = match algorithm {
        None | Some("auto") => None,
        Some(name) => Some(Algorithm::from_name(name).ok_or_else(|| {
            let names: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
            ApiError::new(
                "bad_algorithm",
                format!(
                    "unknown algorithm '{name}': use auto or one of {}",
                    names.join(", ")
                ),
            )
            .with("field", "algorithm")
        })?),
    };
    let heuristic = match heuristic {
        None | Some("auto") => None,
        Some(name) => Some(heuristic_of(name)?),
    };
    Ok((algorithm, heuristic))
}

/// A heuristic by name.
pub fn heuristic_of(name: &str) -> Result<HeuristicKind, ApiError> {
    HeuristicKind::from_name(name).ok_or_else(|| {
        let names: Vec<String> = HeuristicKind::ALL.iter().map(|h| h.name()).collect();
        ApiError::new(
            "bad_heuristic",
            format!(
                "unknown heuristic '{name}': use auto or one of {}",
                names.join(", ")
            ),
        )
        .with("field", "heuristic")
    })
}

/// The notation a request names; default blank letters.
pub fn notation_of(name: Option<&str>) -> Result<Notation, ApiError> {
    match name {
        None => Ok(Notation::Blank),
        Some(name) => Notation::from_name(name).ok_or_else(|| {
            ApiError::new(
                "bad_fields",
                format!("unknown notation '{name}': use blank or tiles"),
            )
            .with("field", "notation")
        }),
    }
}

/// The time budget a request asks for, within the allowed range.
pub fn timeout_of(ms: Option<u64>) -> Result<Duration, ApiError> {
    match ms {
        None => Ok(DEFAULT_TIMEOUT),
        Some(ms) if ms >= 1 && Duration::from_millis(ms) <= MAX_TIMEOUT => {
            Ok(Duration::from_millis(ms))
        }
        Some(_) => Err(ApiError::new(
            "bad_limit",
            format!(
                "timeout_ms must be between 1 and {}",
                MAX_TIMEOUT.as_millis()
            ),
        )
        .with("field", "timeout_ms")),
    }
}

/// Checks a board's sides against what the page offers.
pub fn check_side(width: usize, height: usize) -> Result<(), ApiError> {
    let min = taquin::board::MIN_SIDE;
    if (min..=MAX_SIDE).contains(&width) && (min..=MAX_SIDE).contains(&height) {
        Ok(())
    } else {
        Err(ApiError::new(
            "too_large",
            format!(
                "a {width}x{height} board is not offered here: width and height must each be \
                 between {min} and {MAX_SIDE}"
            ),
        ))
    }
}

/// A board and its goal (default: tiles in order, blank last), of one size.
pub fn parse_pair(board: &str, goal: Option<&str>) -> Result<(Board, Board), ApiError> {
    let parse = |field: &str, text: &str| -> Result<Board, ApiError> {
        let board = Board::parse(text).map_err(|e| ApiError::bad_board(field, e))?;
        check_side(board.width(), board.height()).map_err(|e| e.with("field", field))?;
        Ok(board)
    };
    let board = parse("board", board)?;
    let goal = match goal {
        Some(text) => parse("goal", text)?,
        None => Board::solved(board.width(), board.height())
            .map_err(|e| ApiError::bad_board("goal", e))?,
    };
    board
        .check_same_size(&goal)
        .map_err(|e| ApiError::new("size_mismatch", e.to_string()))?;
    Ok((board, goal))
}
