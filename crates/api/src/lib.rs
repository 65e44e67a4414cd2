//! # taquin-api
//!
//! The JSON API of taquin without a server: the request bodies, the checks every route applies
//! to boards, names and limits, the searches they ask for, and the errors they answer. The web
//! server (`taquin-web`, which turns on the `axum` feature) and the static page's WebAssembly
//! build (`taquin-wasm`) both answer through it, so a request gets the same answer and the same
//! error from either.
//!
//! Field names are the CLI's `--json` ones (`moves`, `length`, `optimal`, `algorithm`,
//! `heuristic`, `expanded`, `generated`, `time_ms`); boards are text in the parser's format
//! (`"6 4 7/8 5 0/3 2 1"`), and a missing `goal` means the usual one (tiles in order, blank
//! last). Move letters name the direction the **blank** moves; `"notation": "tiles"` on solve
//! and hint writes the answer's moves where the tiles go instead (`L2`).
//!
//! Each route is a request type, checked into a plan by `new` (every refusal is made there,
//! before any search), and run by `run` on the caller's thread with the caller's tables and
//! cancel flag:
//!
//! ```
//! use taquin_api::{request_of, Settings, SolvePlan, SolveRequest};
//! # fn main() -> Result<(), taquin_api::ApiError> {
//! let settings = Settings {
//!     max_side: 8,
//!     default_timeout: std::time::Duration::from_secs(10),
//!     max_timeout: std::time::Duration::from_secs(60),
//!     max_nodes: 2_000_000_000,
//!     max_memory: 1 << 30,
//!     trace_max_cells: 16,
//!     trace_max_nodes: 500,
//!     workers: 1,
//!     workload: taquin::Workload::One,
//! };
//! let tables = taquin::Tables::in_memory();
//! let req: SolveRequest = request_of(r#"{"board": "1 2 3/4 5 6/7 0 8"}"#)?;
//! let answer = SolvePlan::new(&settings, &tables, &req)?.run(&tables, None, None)?;
//! assert_eq!(answer["moves"], "R");
//! # Ok(())
//! # }
//! ```
#![deny(missing_docs)]

#[cfg(feature = "axum")]
mod axum;
mod compare;
mod error;
mod fields;
mod generate;
mod info;
mod pair;
mod settings;
mod solve;
mod trace;

#[cfg(feature = "axum")]
pub use crate::axum::{body_json, body_json_of};
pub use compare::{CompareRequest, Comparison};
pub use error::ApiError;
pub use fields::{
    algorithm_of, board_json, board_text_of_array, check_side, choice_of, heuristic_of, json_of,
    nodes_of, notation_of, object_of, parse_board, parse_pair, request_of, timeout_of,
};
pub use generate::{GenerateRequest, Shuffle, MAX_SEED};
pub use info::info;
pub use pair::{validate, Hint, PairRequest};
pub use settings::Settings;
pub use solve::{ProgressLines, SolvePlan, SolveRequest};
pub use trace::{TracePlan, TraceRequest};
