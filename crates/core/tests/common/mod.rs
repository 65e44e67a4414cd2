//! Test helpers shared by the integration tests: solving a pair through the front door with
//! tables shared by the thread's tests.
#![allow(dead_code)]

use taquin::{
    Algorithm, Board, HeuristicKind, Limits, Request, Solution, SolveError, SolveOptions, Tables,
};

thread_local!(static TABLES: Tables = Tables::in_memory());

/// A directory of one test's own, named `taquin-NAME-` and a random suffix in the system's
/// temporary directory; it is deleted with all it holds when dropped, also when the test fails.
pub fn scratch_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("taquin-{name}-"))
        .tempdir()
        .unwrap()
}

/// Solves `board` -> `goal` with `options` and `limits` through [`taquin::solve`].
pub fn solve_with(
    board: &Board,
    goal: &Board,
    options: &SolveOptions,
    limits: &Limits,
) -> Result<Solution, SolveError> {
    let request = Request::new(board.clone(), goal.clone(), limits.clone())?;
    TABLES.with(|tables| taquin::solve(&request, options, tables, None))
}

/// Solves with `algorithm` and `heuristic` (`None`: the planner's choice).
pub fn solve(
    board: &Board,
    goal: &Board,
    algorithm: impl Into<Option<Algorithm>>,
    heuristic: impl Into<Option<HeuristicKind>>,
    limits: &Limits,
) -> Result<Solution, SolveError> {
    let options = SolveOptions {
        algorithm: algorithm.into(),
        heuristic: heuristic.into(),
        ..SolveOptions::default()
    };
    solve_with(board, goal, &options, limits)
}
