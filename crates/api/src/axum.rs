//! The server's side of [`ApiError`] (feature `axum`): the error as a response, and axum's own
//! rejections of a JSON body read into the same shape.

use axum::body::{Body, Bytes};
use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::value::RawValue;
use serde_json::Value;

use crate::{json_of, ApiError};

/// The JSON of a request's body, read as every route reads it: axum's checks (content type,
/// size, syntax) answered in the API's shape, then the API's own ([`json_of`]: an object that
/// gives a key twice is a 400 `repeated_key`, where axum's reader would keep the last value).
/// A byte-order mark before the JSON is skipped ([`body_json_of`]).
pub async fn body_json<S: Send + Sync>(req: Request, state: &S) -> Result<Value, ApiError> {
    let (parts, body) = req.into_parts();
    // axum's check of the content type, on the headers alone (the body is read below).
    let headers = Request::from_parts(parts.clone(), Body::empty());
    if let Err(rejection @ JsonRejection::MissingJsonContentType(_)) =
        Json::<Box<RawValue>>::from_request(headers, state).await
    {
        return Err(rejection.into());
    }
    // Read as axum's JSON reader reads it, within the same body limit.
    let bytes = Bytes::from_request(Request::from_parts(parts, body), state)
        .await
        .map_err(JsonRejection::from)?;
    body_json_of(&bytes)
}

/// [`body_json`] of a body that has arrived whole (for checking bodies without a request),
/// without the byte-order mark some Windows tools write first
/// ([`taquin::npuzzle_file::without_bom`]).
pub fn body_json_of(body: &[u8]) -> Result<Value, ApiError> {
    let body = std::str::from_utf8(body).map_or(body, |text| {
        taquin::npuzzle_file::without_bom(text).as_bytes()
    });
    let Json(raw) = Json::<Box<RawValue>>::from_bytes(body)?;
    json_of(raw.get())
}

impl IntoResponse for ApiError {
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

impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> ApiError {
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
            // The body broke off, or its framing (Content-Length, chunks) was wrong.
            "bad_body" => format!(
                "the request body could not be read whole ({}): send the whole body, as many \
                 bytes as Content-Length says",
                rejection.body_text()
            ),
            "bad_json" => {
                let text = rejection.body_text();
                let detail = text
                    .split_once("JSON: ")
                    .map_or(text.as_str(), |(_, detail)| detail);
                return crate::fields::not_json(detail);
            }
            _ => rejection.body_text(),
        };
        ApiError::new(rejection.status(), code, message)
    }
}
