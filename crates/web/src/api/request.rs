//! Shared request parsing: the JSON extractor with our error shape, and the checks every route
//! applies to boards, names and limits.

use std::time::Duration;

use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use axum::Json;
use serde::de::DeserializeOwned;
use serde_json::{json, Value};
use taquin::algorithm::UnknownName;
use taquin::notation::Notation;
use taquin::{Algorithm, Board, HeuristicKind};

use crate::error::AppError;
use crate::state::AppState;

/// `Json` with our error shape for every rejection (bad JSON, unknown field, wrong content type,
/// body too large), a body that must arrive within the server's `body_timeout` (else 408), and
/// must be a JSON object: serde would also read a struct from an array of its fields in order,
/// which no documented request is.
pub struct AppJson<T>(pub T);

impl<T: DeserializeOwned> FromRequest<AppState> for AppJson<T> {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &AppState) -> Result<Self, Self::Rejection> {
        let timeout = state.config().body_timeout;
        let Json(value) = tokio::time::timeout(timeout, Json::<Value>::from_request(req, state))
            .await
            .map_err(|_| {
                AppError::new(
                    StatusCode::REQUEST_TIMEOUT,
                    "timeout",
                    format!(
                        "the request body did not arrive within {} s: send it whole, at once",
                        timeout.as_secs_f64()
                    ),
                )
            })??;
        object_of(value).map(AppJson)
    }
}

/// The request in `body`, read as [`AppJson`] reads a body that has arrived (for checking
/// bodies without a server).
pub(super) fn body_of<T: DeserializeOwned>(body: &[u8]) -> Result<T, AppError> {
    let Json(value) = Json::<Value>::from_bytes(body)?;
    object_of(value)
}

/// The request in a JSON value, which must be an object.
fn object_of<T: DeserializeOwned>(value: Value) -> Result<T, AppError> {
    if !value.is_object() {
        return Err(AppError::bad_request(
            "bad_json",
            "the request body must be a JSON object such as {\"board\": \"6 4 7/8 5 0/3 2 1\"}",
        ));
    }
    // Same status and code as axum's own data errors (422 bad_fields).
    serde_json::from_value(value).map_err(|e| {
        AppError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "bad_fields",
            format!("Failed to deserialize the JSON body into the target type: {e}"),
        )
    })
}

pub(super) fn board_json(board: &Board) -> Value {
    json!({"line": board.to_line(), "tiles": board.tiles()})
}

/// The algorithm and heuristic a request names; a missing field or `"auto"` leaves the choice
/// to the core's planner (`None`).
pub(super) fn choice_of(
    algorithm: Option<&str>,
    heuristic: Option<&str>,
) -> Result<(Option<Algorithm>, Option<HeuristicKind>), AppError> {
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

pub(super) fn algorithm_of(name: &str) -> Result<Algorithm, AppError> {
    Algorithm::parse(name).map_err(unknown("bad_algorithm"))
}

/// A heuristic by name: the built-in ones, or pattern databases by group sizes (`pdb:6-6-3`),
/// which a solve accepts only where their tables are ready or quick to build.
pub(super) fn heuristic_of(name: &str) -> Result<HeuristicKind, AppError> {
    HeuristicKind::parse(name).map_err(unknown("bad_heuristic"))
}

/// The 400 with `code` for a name the core does not know, naming the field.
fn unknown(code: &'static str) -> impl Fn(UnknownName) -> AppError {
    move |e| AppError::bad_request(code, e.to_string()).with("field", e.what)
}

/// The notation a request names for the moves it reads or answers; default blank letters.
pub(super) fn notation_of(name: Option<&str>) -> Result<Notation, AppError> {
    match name {
        None => Ok(Notation::Blank),
        Some(name) => Notation::from_name(name).ok_or_else(|| {
            AppError::bad_request(
                "bad_fields",
                format!("unknown notation '{name}': use blank or tiles"),
            )
            .with("field", "notation")
        }),
    }
}

pub(super) fn timeout_of(state: &AppState, ms: Option<u64>) -> Result<Duration, AppError> {
    let max = state.config().max_timeout;
    match ms {
        None => Ok(state.config().default_timeout.min(max)),
        Some(ms) if ms >= 1 && Duration::from_millis(ms) <= max => Ok(Duration::from_millis(ms)),
        Some(_) => Err(AppError::bad_request(
            "bad_limit",
            format!("timeout_ms must be between 1 and {}", max.as_millis()),
        )
        .with("field", "timeout_ms")),
    }
}

pub(super) fn nodes_of(state: &AppState, nodes: Option<u64>) -> Result<u64, AppError> {
    let max = state.config().max_nodes;
    match nodes {
        None => Ok(max),
        Some(n) if (1..=max).contains(&n) => Ok(n),
        Some(_) => Err(AppError::bad_request(
            "bad_limit",
            format!("max_nodes must be between 1 and {max}"),
        )
        .with("field", "max_nodes")),
    }
}

pub(super) fn check_side(state: &AppState, width: usize, height: usize) -> Result<(), AppError> {
    let max = state.config().max_side;
    let min = taquin::board::MIN_SIDE;
    if width < min || height < min {
        // Not too large: too small to be a sliding puzzle at all.
        return Err(AppError::bad_request(
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
        Err(AppError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "too_large",
            format!(
                "a {width}x{height} board is not served here: width and height must each be \
                 between {min} and {max}"
            ),
        ))
    }
}

pub(super) fn parse_board(state: &AppState, field: &str, text: &str) -> Result<Board, AppError> {
    let board = Board::parse(text).map_err(|e| AppError::bad_board(field, e))?;
    check_side(state, board.width(), board.height()).map_err(|e| e.with("field", field))?;
    Ok(board)
}

pub(super) fn parse_pair(
    state: &AppState,
    board: &str,
    goal: Option<&str>,
) -> Result<(Board, Board), AppError> {
    let board = parse_board(state, "board", board)?;
    let goal = match goal {
        Some(text) => parse_board(state, "goal", text)?,
        None => Board::solved(board.width(), board.height())
            .map_err(|e| AppError::bad_board("goal", e))?,
    };
    board
        .check_same_size(&goal)
        .map_err(|e| AppError::bad_request("size_mismatch", e.to_string()))?;
    Ok((board, goal))
}
