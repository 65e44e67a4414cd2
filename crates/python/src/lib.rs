//! Python bindings of taquin, importable as `taquin` (this is its native part, `taquin._taquin`;
//! the pure-Python parts, such as the Gymnasium environment, are in `python/taquin`).
//!
//! Each module is a thin translation: Python values in, core calls, Python values or exceptions
//! out. No puzzle logic lives here.

mod arrays;
mod board;
mod convert;
mod data;
mod env;
mod errors;
mod heuristics;
mod interrupt;
mod solve;

use pyo3::prelude::*;

/// The native module: `taquin` re-exports everything in it.
#[pymodule]
fn _taquin(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<board::PyBoard>()?;
    m.add_class::<solve::SolveResult>()?;
    m.add_class::<env::Puzzle>()?;
    m.add_class::<env::PuzzleBatch>()?;
    m.add_function(wrap_pyfunction!(solve::solve, m)?)?;
    m.add_function(wrap_pyfunction!(solve::solve_batch, m)?)?;
    m.add_function(wrap_pyfunction!(heuristics::heuristic, m)?)?;
    m.add_function(wrap_pyfunction!(data::generate, m)?)?;
    m.add_function(wrap_pyfunction!(data::dataset, m)?)?;
    m.add_function(wrap_pyfunction!(env::env_goal, m)?)?;
    errors::register(m)?;
    let algorithms: Vec<&str> = taquin::Algorithm::ALL.iter().map(|a| a.name()).collect();
    let heuristics: Vec<String> = taquin::HeuristicKind::ALL
        .iter()
        .chain(taquin::HeuristicKind::PDB.iter())
        .map(|h| h.name())
        .collect();
    m.add("ALGORITHMS", algorithms)?;
    m.add("HEURISTICS", heuristics)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
