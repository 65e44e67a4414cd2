//! The server's side of [`ApiError`] (feature `axum`): the error as a response, and axum's own
//! rejections of a JSON body read into the same shape.

use axum::extract::rejection::JsonRejection;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::ApiError;

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
            _ => rejection.body_text(),
        };
        ApiError::new(rejection.status(), code, message)
    }
}
