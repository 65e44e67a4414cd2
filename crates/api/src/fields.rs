//! Reading a request body, and the checks every route applies to its boards, names and limits.

use std::time::Duration;

use serde::de::DeserializeOwned;
use serde_json::{json, Value};
use taquin::algorithm::UnknownName;
use taquin::board::ParseError;
use taquin::notation::Notation;
use taquin::{Algorithm, Board, HeuristicKind};

use crate::{ApiError, Settings};

/// The request in a JSON value, which must be an object: serde would also read a struct from an
/// array of its fields in order, which no documented request is. Fields are checked strictly
/// (unknown ones are refused).
pub fn object_of<T: DeserializeOwned>(value: Value) -> Result<T, ApiError> {
    if !value.is_object() {
        return Err(ApiError::bad_request(
            "bad_json",
            "the request body must be a JSON object such as {\"board\": \"6 4 7/8 5 0/3 2 1\"}",
        ));
    }
    serde_path_to_error::deserialize(with_rows_joined(value)).map_err(|e| {
        let field = e.path().to_string();
        // serde's words for the types a request holds, in a web user's words.
        let message = e
            .into_inner()
            .to_string()
            .replace("expected u64", "expected a whole number, 0 or more")
            .replace("expected usize", "expected a whole number, 0 or more")
            .replace("expected f64", "expected a number");
        let message = match field.as_str() {
            "." => message,
            "board" | "goal" => format!(
                "{field}: {message}: write it as text (\"1 2 3/4 5 6/7 8 0\") or as an array \
                 of rows ([[1, 2, 3], [4, 5, 6], [7, 8, 0]])"
            ),
            _ => format!("{field}: {message}"),
        };
        ApiError::unprocessable("bad_fields", message)
    })
}

/// `board` and `goal` given as arrays of rows (`[[1, 2, 3], [4, 5, 6], [7, 8, 0]]`, as
/// `taquin batch` and the Python package take them) turned into board text; anything else is
/// left for the checks to judge.
fn with_rows_joined(mut value: Value) -> Value {
    for field in ["board", "goal"] {
        let Some(Value::Array(rows)) = value.get(field) else {
            continue;
        };
        let text: Option<Vec<String>> = rows
            .iter()
            .map(|row| {
                let cells = row.as_array()?;
                let tiles: Option<Vec<String>> = cells
                    .iter()
                    .map(|t| match t {
                        Value::Number(n) => Some(n.to_string()),
                        Value::String(s) if !s.contains([' ', ',', '/']) => Some(s.clone()),
                        _ => None,
                    })
                    .collect();
                Some(tiles?.join(" "))
            })
            .collect();
        if let Some(rows) = text {
            value[field] = Value::String(rows.join("/"));
        }
    }
    value
}

/// The request in a body's text, read as the server reads a body (for front ends without one).
pub fn request_of<T: DeserializeOwned>(body: &str) -> Result<T, ApiError> {
    let value: Value = serde_json::from_str(body).map_err(|e| {
        ApiError::bad_request(
            "bad_json",
            format!("Failed to parse the request body as JSON: {e}"),
        )
    })?;
    object_of(value)
}

/// A board as the answers show it: its line and its tiles.
pub fn board_json(board: &Board) -> Value {
    json!({"line": board.to_line(), "tiles": board.tiles()})
}

/// The algorithm and heuristic a request names; a missing field or `"auto"` leaves the choice
/// to the core's planner (`None`).
pub fn choice_of(
    algorithm: Option<&str>,
    heuristic: Option<&str>,
) -> Result<(Option<Algorithm>, Option<HeuristicKind>), ApiError> {
    let algorithm = algorithm
        .map(|name| Algorithm::parse_choice(name).map_err(unknown("bad_algorithm")))
        .transpose()?
        .flatten();
    let heuristic = heuristic
        .map(|name| HeuristicKind::parse_choice(name).map_err(unknown("bad_heuristic")))
        .transpose()?
        .flatten();
    Ok((algorithm, heuristic))
}

/// An algorithm by name.
pub fn algorithm_of(name: &str) -> Result<Algorithm, ApiError> {
    Algorithm::parse(name).map_err(unknown("bad_algorithm"))
}

/// A heuristic by name: the built-in ones, or pattern databases by group sizes (`pdb:6-6-3`),
/// which a solve accepts only where their tables are ready or quick to build.
pub fn heuristic_of(name: &str) -> Result<HeuristicKind, ApiError> {
    HeuristicKind::parse(name).map_err(unknown("bad_heuristic"))
}

/// The 400 with `code` for a name the core does not know, naming the field.
fn unknown(code: &'static str) -> impl Fn(UnknownName) -> ApiError {
    move |e| ApiError::bad_request(code, e.to_string()).with("field", e.what)
}

/// The notation a request names for the moves it reads or answers; default blank letters.
pub fn notation_of(name: Option<&str>) -> Result<Notation, ApiError> {
    match name {
        None => Ok(Notation::Blank),
        Some(name) => Notation::from_name(name).ok_or_else(|| {
            ApiError::bad_request(
                "bad_fields",
                format!("unknown notation '{name}': use blank or tiles"),
            )
            .with("field", "notation")
        }),
    }
}

/// The time budget a request asks for (`timeout_ms`), within the allowed range.
pub fn timeout_of(settings: &Settings, ms: Option<u64>) -> Result<Duration, ApiError> {
    let max = settings.max_timeout;
    match ms {
        None => Ok(settings.default_timeout.min(max)),
        Some(ms) if ms >= 1 && Duration::from_millis(ms) <= max => Ok(Duration::from_millis(ms)),
        Some(_) => Err(ApiError::bad_request(
            "bad_limit",
            format!("timeout_ms must be between 1 and {}", max.as_millis()),
        )
        .with("field", "timeout_ms")),
    }
}

/// The node budget a request asks for (`max_nodes`), within the allowed range.
pub fn nodes_of(settings: &Settings, nodes: Option<u64>) -> Result<u64, ApiError> {
    let max = settings.max_nodes;
    match nodes {
        None => Ok(max),
        Some(n) if (1..=max).contains(&n) => Ok(n),
        Some(_) => Err(ApiError::bad_request(
            "bad_limit",
            format!("max_nodes must be between 1 and {max}"),
        )
        .with("field", "max_nodes")),
    }
}

/// Checks a board's sides: a sliding puzzle at all, and no larger than offered.
pub fn check_side(settings: &Settings, width: usize, height: usize) -> Result<(), ApiError> {
    let max = settings.max_side;
    let min = taquin::board::MIN_SIDE;
    if width < min || height < min {
        // Not too large: too small to be a sliding puzzle at all.
        return Err(ApiError::bad_request(
            "bad_board",
            format!(
                "a {width}x{height} board is not a sliding puzzle: width and height must each be \
                 at least {min}"
            ),
        ));
    }
    if width <= max && height <= max {
        Ok(())
    } else {
        Err(ApiError::unprocessable(
            "too_large",
            format!(
                "a {width}x{height} board is not served here: width and height must each be \
                 between {min} and {max}"
            ),
        ))
    }
}

/// The board in a request's `field` (`board` or `goal`), of an accepted size.
pub fn parse_board(settings: &Settings, field: &str, text: &str) -> Result<Board, ApiError> {
    let board = Board::parse(text).map_err(|e| match e {
        // The sides this server takes, not the library's wider range.
        ParseError::BadSize { width, height } => check_side(settings, width, height)
            .err()
            .unwrap_or_else(|| ApiError::bad_board(field, e))
            .with("field", field),
        e => ApiError::bad_board(field, e),
    })?;
    check_side(settings, board.width(), board.height()).map_err(|e| e.with("field", field))?;
    Ok(board)
}

/// A `goal` field: a name as `--goal` takes (`korf`, `snail`, `standard`), laid out on a
/// `width` x `height` board, or a board of its own.
pub fn parse_goal(
    settings: &Settings,
    text: &str,
    width: usize,
    height: usize,
) -> Result<Board, ApiError> {
    match taquin::goals::goal_by_name(text, width, height) {
        Some(named) => {
            check_side(settings, width, height).map_err(|e| e.with("field", "goal"))?;
            named.map_err(|e| ApiError::bad_board("goal", e))
        }
        None => parse_board(settings, "goal", text),
    }
}

/// A board and its goal (default: tiles in order, blank last), of one size.
pub fn parse_pair(
    settings: &Settings,
    board: &str,
    goal: Option<&str>,
) -> Result<(Board, Board), ApiError> {
    let board = parse_board(settings, "board", board)?;
    let goal = match goal {
        Some(text) => parse_goal(settings, text, board.width(), board.height())?,
        None => Board::solved(board.width(), board.height())
            .map_err(|e| ApiError::bad_board("goal", e))?,
    };
    board
        .check_same_size(&goal)
        .map_err(|e| ApiError::bad_request("size_mismatch", e.to_string()))?;
    Ok((board, goal))
}
