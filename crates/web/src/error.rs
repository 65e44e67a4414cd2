//! The one error type of the web API, [`taquin_api::ApiError`], under the server's name. Every
//! failure, including a request axum itself rejects (bad JSON, wrong content type, body too
//! large, unknown route or method), answers with the same JSON shape, so the page and scripts
//! read errors one way:
//!
//! ```json
//! {"code": "unsolvable", "error": "unsolvable: the tiles are 1 inversions away ..."}
//! ```
//!
//! `code` is a stable machine-readable word; `error` is a sentence for people. Some errors add
//! fields (a limit error carries `bound`, `expanded`, `generated`, `time_ms`).

/// An API error: an HTTP status, a stable code, a message, and optional extra fields; answered
/// as a JSON response (a 503 with `Retry-After`).
pub use taquin_api::ApiError as AppError;
