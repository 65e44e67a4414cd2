//! The one error type of the API. Every failure answers with the same JSON shape, so the page
//! and scripts read errors one way, from the server and from the static page alike:
//!
//! ```json
//! {"code": "unsolvable", "error": "unsolvable: the tiles are 1 inversions away ..."}
//! ```
//!
//! `code` is a stable machine-readable word; `error` is a sentence for people. Some errors add
//! fields (a limit error carries `bound`, `expanded`, `generated`, `time_ms`). The HTTP status
//! is the server's; the static page, which has none, throws the body alone.

use http::StatusCode;
use serde_json::{json, Map, Value};
use taquin::{LimitHit, SolveError, Unsolvable};

/// An API error: an HTTP status, a stable code, a message, and optional extra fields.
#[derive(Debug, Clone)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// A stable word for programs (`bad_board`, `unsolvable`, `limit_reached`, `busy`, ...).
    pub code: &'static str,
    /// What went wrong and how to fix it.
    pub message: String,
    /// Extra fields merged into the JSON body.
    pub extra: Map<String, Value>,
}

impl ApiError {
    /// An error with no extra fields.
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
            extra: Map::new(),
        }
    }

    /// A 400 for a request field that is missing its meaning (bad name, out of range).
    pub fn bad_request(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, code, message)
    }

    /// A 422: the request is well formed but cannot be served (too large, unsolvable, ...).
    pub fn unprocessable(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, code, message)
    }

    /// A 500: a fault of the server, not of the request.
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", message)
    }

    /// Adds an extra field to the body.
    pub fn with(mut self, key: &str, value: impl Into<Value>) -> ApiError {
        self.extra.insert(key.to_string(), value.into());
        self
    }

    /// The server has no free solver slot.
    pub fn busy() -> ApiError {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "busy",
            "the server is busy solving other boards: try again in a moment",
        )
    }

    /// A board (`field` is `board` or `goal`) that does not parse.
    pub fn bad_board(field: &str, err: impl std::fmt::Display) -> ApiError {
        ApiError::bad_request("bad_board", format!("{field}: {err}")).with("field", field)
    }

    /// The JSON body of this error.
    pub fn body(&self) -> Value {
        let mut body = Map::new();
        body.insert("code".into(), json!(self.code));
        body.insert("error".into(), json!(self.message));
        for (k, v) in &self.extra {
            body.insert(k.clone(), v.clone());
        }
        Value::Object(body)
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({}): {}", self.status, self.code, self.message)
    }
}

impl std::error::Error for ApiError {}

impl From<Unsolvable> for ApiError {
    fn from(err: Unsolvable) -> ApiError {
        match err {
            Unsolvable::Size(e) => ApiError::bad_request("size_mismatch", e.to_string()),
            // Parity, and whatever reason the core adds later: the board cannot be solved.
            _ => ApiError::unprocessable("unsolvable", err.to_string()),
        }
    }
}

impl From<SolveError> for ApiError {
    fn from(err: SolveError) -> ApiError {
        ApiError::from_solve(err, SearchChoice::Named)
    }
}

/// Who chose the search that stopped at a limit, which decides what the limit's error advises.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SearchChoice {
    /// The planner (`auto`): it already answers with the best found in time, so only more
    /// time helps.
    Planned,
    /// The request named the algorithm: more time, or the planner's choice.
    Named,
    /// One run of `/api/compare`, whose algorithms are named and which has no `auto`.
    Compared,
}

impl ApiError {
    /// The answer to `err`, from a search chosen as `choice` says (the advice of a limit
    /// differs).
    pub(crate) fn from_solve(err: SolveError, choice: SearchChoice) -> ApiError {
        match err {
            SolveError::Parse(e) => ApiError::bad_board("board", e),
            SolveError::Unsolvable(e) => e.into(),
            SolveError::Limit {
                hit: LimitHit::Cancelled,
                ..
            } => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "cancelled",
                "the search was cancelled: the server is stopping or the request was abandoned",
            ),
            SolveError::Limit { hit, stats, bound } => ApiError::unprocessable(
                "limit_reached",
                format!(
                    "{hit} after {}: the solution needs at least {}; {}",
                    taquin::report::counted(stats.generated, "node"),
                    taquin::report::counted(bound, "move"),
                    limit_advice(hit, choice)
                ),
            )
            .with("limit", hit.name())
            .with("lower_bound", bound)
            .with("expanded", stats.expanded)
            .with("generated", stats.generated)
            .with("time_ms", taquin::report::millis(stats.elapsed)),
            SolveError::Unsupported(m) => ApiError::unprocessable("unsupported", m),
            SolveError::InvalidSolution(m) => ApiError::internal(m),
            // Algorithms that may give up on their own (a real-time player caught in a cycle,
            // and whatever the core adds later) are a fact about the input, not a server fault.
            #[allow(unreachable_patterns)]
            other => ApiError::unprocessable("no_solution", other.to_string()),
        }
    }
}

/// What to change when `hit` stopped a search chosen as `choice` says, in the API's words.
fn limit_advice(hit: LimitHit, choice: SearchChoice) -> &'static str {
    match hit {
        LimitHit::Time | LimitHit::Cancelled if choice == SearchChoice::Planned => {
            "raise timeout_ms: the time ran out before a first answer (reading the tables from \
             disk can take that long; the next requests find them in memory)"
        }
        LimitHit::Memory => {
            "A* and breadth-first search keep every board they reach: IDA* and the algorithm \
             auto need little memory"
        }
        LimitHit::Nodes => "raise max_nodes, or leave it out",
        LimitHit::Time | LimitHit::Cancelled if choice == SearchChoice::Compared => {
            "raise timeout_ms (the whole comparison's, shared among its runs), or compare fewer \
             algorithms and heuristics"
        }
        LimitHit::Time | LimitHit::Cancelled => {
            "raise timeout_ms, or leave the algorithm to auto, which answers with the best \
             solution found in time"
        }
    }
}
