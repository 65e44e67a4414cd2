//! Errors in the web API's shape (`{"code": ..., "error": ..., ...}`, the same codes and extra
//! fields as the server's), thrown to JavaScript as that JSON text.

use serde_json::{json, Map, Value};
use taquin::{LimitHit, SolveError, Unsolvable};

/// An error of the API: a stable code, a sentence for people, and extra fields.
#[derive(Debug, Clone)]
pub struct ApiError {
    /// A stable word for programs (`bad_board`, `unsolvable`, `limit_reached`, ...).
    pub code: &'static str,
    /// What went wrong and how to fix it.
    pub message: String,
    /// Extra fields merged into the JSON body.
    pub extra: Map<String, Value>,
}

impl ApiError {
    /// An error with no extra fields.
    pub fn new(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            code,
            message: message.into(),
            extra: Map::new(),
        }
    }

    /// Adds an extra field.
    pub fn with(mut self, key: &str, value: impl Into<Value>) -> ApiError {
        self.extra.insert(key.to_string(), value.into());
        self
    }

    /// A board (`field` is `board` or `goal`) that does not parse.
    pub fn bad_board(field: &str, err: impl std::fmt::Display) -> ApiError {
        ApiError::new("bad_board", format!("{field}: {err}")).with("field", field)
    }

    /// The JSON body.
    pub fn body(&self) -> Value {
        let mut body = self.extra.clone();
        body.insert("code".into(), json!(self.code));
        body.insert("error".into(), json!(self.message));
        Value::Object(body)
    }
}

impl From<Unsolvable> for ApiError {
    fn from(err: Unsolvable) -> ApiError {
        match err {
            Unsolvable::Size(e) => ApiError::new("size_mismatch", e.to_string()),
            Unsolvable::Parity(_) => ApiError::new("unsolvable", err.to_string()),
        }
    }
}

impl From<SolveError> for ApiError {
    fn from(err: SolveError) -> ApiError {
        match err {
            SolveError::Parse(e) => ApiError::bad_board("board", e),
            SolveError::Unsolvable(e) => e.into(),
            SolveError::Limit {
                hit: LimitHit::Cancelled,
                ..
            } => ApiError::new("cancelled", "the search was cancelled"),
            SolveError::Limit { hit, stats, bound } => ApiError::new(
                "limit_reached",
                format!(
                    "{hit} after {} nodes: the solution needs at least {bound} moves; try a \
                     stronger heuristic, IDA*, or an easier board",
                    stats.generated
                ),
            )
            .with("limit", hit.name())
            .with("bound", bound)
            .with("expanded", stats.expanded)
            .with("generated", stats.generated)
            .with("time_ms", stats.elapsed.as_secs_f64() * 1000.0),
            other => ApiError::new("unsupported", other.to_string()),
        }
    }
}
