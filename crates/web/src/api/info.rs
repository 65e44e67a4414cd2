//! `GET /api/info`, and the JSON answers to unknown routes and methods.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde_json::Value;

use super::request::settings;
use crate::error::AppError;
use crate::state::AppState;

/// `GET /api/info`: what the server offers.
pub async fn info(State(state): State<AppState>) -> Json<Value> {
    Json(taquin_api::info(
        &settings(&state),
        state.tables(),
        state.running(),
    ))
}

/// Any other route: a JSON 404.
pub async fn not_found() -> AppError {
    no_route()
}

/// The answer to a route that does not exist.
pub(super) fn no_route() -> AppError {
    AppError::new(
        StatusCode::NOT_FOUND,
        "not_found",
        "no such page or API route: the README's Web API section lists the routes (GET /api/info \
         gives what they offer: algorithms, heuristics, limits)",
    )
}

/// A known route with the wrong method: a JSON 405.
pub async fn method_not_allowed() -> AppError {
    AppError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        "this route does not take that method: the API's actions are POST with a JSON body, \
         /api/info is GET",
    )
}
