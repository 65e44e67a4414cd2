//! The one error type of the web API. Every failure, including a request axum itself rejects
//! (bad JSON, wrong content type, body too large, unknown route or method), answers with the same
//! JSON shape, so the page and scripts read errors one way:
//!
//! ```json
//! {"code": "unsolvable", "error": "unsolvable: the tiles are 1 inversions away ..."}
//! ```
//!
//! `code` is a stable machine-readable word; `error` is a sentence for people. Some errors add
//! fields (a limit error carries `bound`, `expanded`, `generated`, `time_ms`).

use axum::extract::rejection::JsonRejection;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Map, Value};
use taquin::{SolveError, Unsolvable};

/// An API error: an HTTP status, a stable code, a message, and optional extra fields.
#[derive(Debug, Clone)]
pub struct AppError {
    /// The HTTP status.
    pub status: StatusCode,
    /// A stable word for programs (`bad_board`, `unsolvable`, `limit_reached`, `busy`, ...).
    pub code: &'static str,
    /// What went wrong and how to fix it.
    pub message: String,
    /// Extra fields merged into the JSON body.
    pub extra: Map<String, Value>,
}

impl AppError {
    /// An error with no extra fields.
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> AppError {
        AppError {
            status,
            code,
            message: message.into(),
            extra: Map::new(),
        }
    }

    /// A 400 for a request field that is missing its meaning (bad name, out of range).
    pub fn bad_request(code: &'static str, message: impl Into<String>) -> AppError {
        AppError::new(StatusCode::BAD_REQUEST, code, message)
    }

    /// Adds an extra field to the body.
    pub fn with(mut self, key: &str, value: impl Into<Value>) -> AppError {
        self.extra.insert(key.to_string(), value.into());
        self
    }

    /// The server has no free solver slot.
    pub fn busy() -> AppError {
        AppError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "busy",
            "the server is busy solving other boards: try again in a moment",
        )
    }

    /// A board (`field` is `board` or `goal`) that does not parse.
    pub fn bad_board(field: &str, err: impl std::fmt::Display) -> AppError {
        AppError::bad_request("bad_board", format!("{field}: {err}")).with("field", field)
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

impl std::fmt::Display for AppError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({}): {}", self.status, self.code, self.message)
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let mut response = (self.status, axum::Json(self.body())).into_response();
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        }
        response
    }
}

impl From<JsonRejection> for AppError {
    fn from(rejection: JsonRejection) -> AppError {
        // axum's own status is right (400 syntax, 413 too large, 415 content type, 422 wrong
        // fields); only the body changes, to our shape.
        let code = match &rejection {
            JsonRejection::JsonSyntaxError(_) => "bad_json",
            JsonRejection::JsonDataError(_) => "bad_fields",
            JsonRejection::MissingJsonContentType(_) => "bad_content_type",
            _ if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => "too_large",
            _ => "bad_body",
        };
        let message = match code {
            "bad_content_type" => {
                "send the request body as JSON with the header 'Content-Type: application/json'"
                    .to_string()
            }
            "too_large" => "the request body is too large".to_string(),
            _ => rejection.body_text(),
        };
        AppError::new(rejection.status(), code, message)
    }
}

impl From<Unsolvable> for AppError {
    fn from(err: Unsolvable) -> AppError {
        match err {
            Unsolvable::Size(e) => AppError::bad_request("size_mismatch", e.to_string()),
            Unsolvable::Parity(_) => AppError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "unsolvable",
                err.to_string(),
            ),
        }
    }
}

impl From<SolveError> for AppError {
    fn from(err: SolveError) -> AppError {
        match err {
            SolveError::Parse(e) => AppError::bad_board("board", e),
            SolveError::Unsolvable(e) => e.into(),
            SolveError::Limit {
                hit: taquin::LimitHit::Cancelled,
                ..
            } => AppError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "cancelled",
                "the search was cancelled: the server is stopping or the request was abandoned",
            ),
            SolveError::Limit { hit, stats, bound } => AppError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
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
            SolveError::Unsupported(m) => {
                AppError::new(StatusCode::UNPROCESSABLE_ENTITY, "unsupported", m)
            }
            SolveError::InvalidSolution(m) => {
                AppError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", m)
            }
            // Algorithms that may give up on their own (a real-time player caught in a cycle,
            // and whatever the core adds later) are a fact about the input, not a server fault.
            #[allow(unreachable_patterns)]
            other => AppError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "no_solution",
                other.to_string(),
            ),
        }
    }
}
