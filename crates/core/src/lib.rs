//! # taquin
//!
//! The sliding-tile puzzle on any m x n board (m columns, n rows) with any goal: parsing with
//! clear errors, solvability, heuristics from misplaced tiles to walking distance, and searches
//! from a plain generic A* to a tight IDA*.
//!
//! Moves name the direction the **blank** moves: `U`, `D`, `L`, `R` (see [`moves`]).
//!
//! One front door: a [`Request`] (board, goal, limits; validated once, solvability decided
//! there), a [`Plan`] from the [`planner`] (the one place that knows the defaults), the run,
//! and a [`Solution`] replayed before it is returned. Tables live in a [`Tables`] handle that
//! the caller owns; nothing is global.
//!
//! Other tools' conventions: the 42 school's n-puzzle files ([`npuzzle_file`]), named goals
//! ([`goals`]), the speed solvers' tile notation ([`notation`]), the single- and multi-tile
//! metrics ([`metric`], with MTM-optimal search in [`mtm`]), checking any tool's solution
//! ([`replay`]), and God's number of small boards ([`gods_number`]).
//!
//! ```
//! use taquin::{solve, Algorithm, Board, HeuristicKind, Limits, Request, SolveOptions, Tables};
//! let tables = Tables::in_memory();
//! let board: Board = "6 4 7/8 5 0/3 2 1".parse()?;
//! let request = Request::new(board.clone(), Board::solved(3, 3)?, Limits::none())?;
//! // Let the planner choose ...
//! let best = solve(&request, &SolveOptions::default(), &tables, None)?;
//! assert!(best.optimal);
//! // ... or ask for an algorithm and a heuristic.
//! let options = SolveOptions::new(Algorithm::AStar, HeuristicKind::LinearConflict);
//! let solution = solve(&request, &options, &tables, None)?;
//! assert_eq!(solution.len(), best.len());
//! solution.verify(&board, request.goal())?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

pub mod algorithm;
pub mod board;
pub mod clock;
pub mod generate;
pub mod goals;
pub mod gods_number;
pub mod hashing;
pub mod heuristic;
pub mod instances;
pub mod limits;
pub mod metric;
pub mod moves;
pub mod mtm;
pub mod notation;
pub mod npuzzle_file;
pub mod pdb;
pub mod planner;
mod prefetch;
pub mod replay;
pub mod report;
pub mod request;
pub mod search;
pub mod solution;
pub mod solvability;
pub mod solver;
pub mod solvers;
pub mod symmetry;
pub mod tables;
#[cfg(test)]
mod test_support;

pub use algorithm::{Algorithm, Setting};
pub use board::{Board, ParseError, Tile, BLANK};
pub use heuristic::{Heuristic, HeuristicKind, Incremental};
pub use limits::{Improvements, LimitHit, Limits, Progress, ProgressFn};
pub use moves::Move;
pub use planner::{plan, Plan};
pub use report::SolveReport;
pub use request::Request;
pub use solution::{verify_moves, Solution, SolveError, Stats};
pub use solvability::{check_solvable, is_solvable, Unsolvable};
pub use solver::{solve, SolveOptions, Workload};
pub use tables::Tables;
