//! The JSON API's routes: thin axum handlers over [`taquin_api`], which reads and checks every
//! request and runs its search. Field names are the CLI's `--json` ones (`moves`, `length`,
//! `optimal`, `algorithm`, `heuristic`, `expanded`, `generated`, `time_ms`); boards are text in
//! the parser's format (`"6 4 7/8 5 0/3 2 1"`), and a missing `goal` means the usual one (tiles
//! in order, blank last). Move letters name the direction the **blank** moves;
//! `"notation": "tiles"` on solve, solve/stream and hint writes the answer's moves where the
//! tiles go instead (`L2`).
//!
//! Every request body is checked strictly (unknown fields are refused) and every failure is an
//! [`AppError`](crate::AppError) with a JSON body. A handler checks its request before it takes
//! a worker, then runs the search on the blocking pool with the request's cancel flag.

mod blocking;
mod check;
mod compare;
mod generate;
mod info;
mod pair;
mod request;
mod solve;
mod trace;

pub use check::{check_body, BODY_ROUTES};
pub use compare::compare;
pub use generate::generate;
pub use info::{info, method_not_allowed, not_found};
pub use pair::{hint, validate};
pub use request::AppJson;
pub use solve::{solve, solve_stream};
pub use taquin_api::{CompareRequest, GenerateRequest, PairRequest, SolveRequest, TraceRequest};
pub use trace::trace;
