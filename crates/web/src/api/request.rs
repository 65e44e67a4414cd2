//! Reading request bodies: the JSON extractor with our error shape, and the server's settings
//! every check reads.

use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use serde::de::DeserializeOwned;
use taquin::Workload;
use taquin_api::{object_of, Settings};

use crate::error::AppError;
use crate::state::AppState;

/// `Json` with our error shape for every rejection (bad JSON, a key given twice, unknown field,
/// wrong content type, a compressed body, body too large), a body that must arrive within the server's
/// `body_timeout` (else 408), and must be a JSON object: serde would also read a struct from an array of its fields in order,
/// which no documented request is.
pub struct AppJson<T>(pub T);

impl<T: DeserializeOwned> FromRequest<AppState> for AppJson<T> {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &AppState) -> Result<Self, Self::Rejection> {
        let timeout = state.config().body_timeout;
        // A body declared larger than the limit is refused at once, not waited for.
        let limit = state.config().body_limit;
        let declared = req
            .headers()
            .get(axum::http::header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
        let too_large = || {
            AppError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "too_large",
                format!(
                    "the request body is too large: this server takes at most {} bytes (no \
                     request needs more)",
                    limit
                ),
            )
        };
        if declared.is_some_and(|n| n > limit as u64) {
            return Err(too_large());
        }
        // A compressed body would be read as JSON text and fail with a misleading syntax error.
        if let Some(encoding) = req
            .headers()
            .get(axum::http::header::CONTENT_ENCODING)
            .filter(|v| !v.as_bytes().eq_ignore_ascii_case(b"identity"))
        {
            return Err(AppError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "bad_encoding",
                format!(
                    "the request body is sent with 'Content-Encoding: {}': this server reads \
                     plain JSON only; send it uncompressed (no request needs more than {} bytes)",
                    String::from_utf8_lossy(encoding.as_bytes()),
                    limit
                ),
            ));
        }
        let value = tokio::time::timeout(timeout, taquin_api::body_json(req, state))
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
            })?
            .map_err(|e| {
                if e.code == "too_large" {
                    too_large()
                } else {
                    e
                }
            })?;
        object_of(value).map(AppJson)
    }
}

/// The request in `body`, read as [`AppJson`] reads a body that has arrived (for checking
/// bodies without a server).
pub(super) fn body_of<T: DeserializeOwned>(body: &[u8]) -> Result<T, AppError> {
    object_of(taquin_api::body_json_of(body)?)
}

/// What this server offers and may spend, as the API's checks read it. Its tables serve the
/// boards of many clients, so the planner builds the standard pattern databases at once.
pub(super) fn settings(state: &AppState) -> Settings {
    let c = state.config();
    Settings {
        max_side: c.max_side,
        default_timeout: c.default_timeout,
        max_timeout: c.max_timeout,
        max_nodes: c.max_nodes,
        max_memory: c.max_memory,
        trace_max_cells: c.trace_max_cells,
        trace_max_nodes: c.trace_max_nodes,
        workers: c.workers,
        workload: Workload::Many,
    }
}
