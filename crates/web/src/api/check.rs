//! Request bodies checked the way their route checks them, without a server and without
//! running anything: for the fuzz targets, which feed every route's body parsing and
//! validation millions of inputs.

use taquin_api::{Comparison, Hint, Shuffle, SolvePlan, TracePlan};

use super::request::{body_of, settings};
use crate::error::AppError;
use crate::state::AppState;

/// The routes that take a JSON body.
pub const BODY_ROUTES: [&str; 7] = [
    "/api/solve",
    "/api/solve/stream",
    "/api/validate",
    "/api/hint",
    "/api/compare",
    "/api/generate",
    "/api/trace",
];

/// Reads `body` as `route` reads a request body that has arrived, and checks it as the route
/// does before it takes a worker (boards, names, limits, solvability). `Ok` means the route
/// would go on to run the request; an error is the one the route would answer.
#[doc(hidden)]
pub fn check_body(state: &AppState, route: &str, body: &[u8]) -> Result<(), AppError> {
    let s = &settings(state);
    match route {
        "/api/solve" | "/api/solve/stream" => {
            SolvePlan::new(s, state.tables(), &body_of(body)?).map(drop)
        }
        "/api/validate" => taquin_api::validate(s, &body_of(body)?).map(drop),
        "/api/hint" => Hint::new(s, &body_of(body)?).map(drop),
        "/api/compare" => Comparison::new(s, state.tables(), &body_of(body)?).map(drop),
        "/api/generate" => Shuffle::new(s, &body_of(body)?, || 0).map(drop),
        "/api/trace" => TracePlan::new(s, state.tables(), &body_of(body)?).map(drop),
        _ => Err(super::info::no_route()),
    }
}
