//! # taquin
//!
//! The sliding-tile puzzle on any m x n board (m columns, n rows) with any goal: parsing with
//! clear errors, solvability, heuristics from misplaced tiles to walking distance, and searches
//! from a plain generic A* to a tight IDA*.
//!
//! Moves name the direction the **blank** moves: `U`, `D`, `L`, `R` (see [`moves`]).
//!
//! Other tools' conventions: the 42 school's n-puzzle files ([`npuzzle_file`]), named goals
//! ([`goals`]), the speed solvers' tile notation ([`notation`]), the single- and multi-tile
//! metrics ([`metric`], with MTM-optimal search in [`mtm`]), checking any tool's solution
//! ([`replay`]), and God's number of small boards ([`gods_number`]).
//!
//! ```
//! use taquin::{solve, Algorithm, Board, HeuristicKind, Limits};
//! let board: Board = "6 4 7/8 5 0/3 2 1".parse()?;
//! let goal = Board::solved(3, 3)?;
//! let solution = solve(&board, &goal, Algorithm::AStar, HeuristicKind::LinearConflict, &Limits::none(), None)?;
//! assert_eq!(solution.len(), 31);
//! solution.verify(&board, &goal)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

pub mod board;
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
pub mod replay;
pub mod report;
pub mod search;
pub mod solution;
pub mod solvability;
pub mod solver;
pub mod solvers;

pub use board::{Board, ParseError, Tile, BLANK};
pub use heuristic::{Heuristic, HeuristicKind, Incremental};
pub use limits::{LimitHit, Limits, Progress, ProgressFn};
pub use moves::Move;
pub use report::SolveReport;
pub use solution::{verify_moves, Solution, SolveError, Stats};
pub use solvability::{check_solvable, is_solvable, Unsolvable};
pub use solver::{solve, solve_with, Algorithm, SolveOptions};
