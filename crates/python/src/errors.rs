//! The exceptions the module raises and the one translation of core errors into them. Messages
//! are the core's, the same the CLI prints, so a user sees the same sentence everywhere.

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use taquin::{ParseError, SolveError, Unsolvable};

pyo3::create_exception!(
    taquin,
    InvalidBoardError,
    PyValueError,
    "A board, goal or move text that is not valid; the message says what to fix."
);
pyo3::create_exception!(
    taquin,
    UnsolvableError,
    PyValueError,
    "The goal cannot be reached from the board; the message gives the parity reason."
);
pyo3::create_exception!(
    taquin,
    UnsupportedError,
    PyValueError,
    "The algorithm or heuristic cannot handle this board (too large for its tables)."
);
pyo3::create_exception!(
    taquin,
    LimitError,
    PyRuntimeError,
    "A time, node or memory limit stopped the search. Attributes: `limit` (\"time\", \"nodes\", \
     \"memory\" or \"cancelled\"), `lower_bound` (proven lower bound on the length), `expanded`, \
     `generated`, `time_ms`."
);
pyo3::create_exception!(
    taquin,
    CycleError,
    PyRuntimeError,
    "A real-time player (`lookahead`) came back to a board it had left and would cycle forever."
);

/// Registers the exception types on the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("InvalidBoardError", py.get_type::<InvalidBoardError>())?;
    m.add("UnsolvableError", py.get_type::<UnsolvableError>())?;
    m.add("UnsupportedError", py.get_type::<UnsupportedError>())?;
    m.add("LimitError", py.get_type::<LimitError>())?;
    m.add("CycleError", py.get_type::<CycleError>())?;
    Ok(())
}

/// A parse error of the board, goal or moves named `what`, as the CLI words it.
pub fn parse_error(what: &str, e: &ParseError) -> PyErr {
    InvalidBoardError::new_err(format!("invalid {what}: {e}"))
}

/// The Python exception for a core [`SolveError`]. `manhattan` is the board's Manhattan
/// distance, a proven lower bound a limit error reports when the search proved less.
pub fn solve_error(py: Python<'_>, e: SolveError, manhattan: u64) -> PyErr {
    solve_error_of(py, e, manhattan, None)
}

/// [`solve_error`] for the board at `index` of a batch: its message starts with "board
/// {index}: " and the exception has an `index` attribute, so that the caller knows which.
pub fn batch_solve_error(py: Python<'_>, e: SolveError, manhattan: u64, index: usize) -> PyErr {
    let err = solve_error_of(py, e, manhattan, Some(index));
    match err.value(py).setattr("index", index) {
        Ok(()) => err,
        Err(e) => e,
    }
}

fn solve_error_of(py: Python<'_>, e: SolveError, manhattan: u64, index: Option<usize>) -> PyErr {
    let message = match index {
        Some(i) => format!("board {i}: {e}"),
        None => e.to_string(),
    };
    match e {
        SolveError::Parse(p) => parse_error("board", &p),
        // A goal of another size than the board: the goal is what the caller picks for boards
        // (one for a whole batch), so it is the goal that is named, as `Board.is_solvable` does.
        SolveError::Unsolvable(Unsolvable::Size(p)) => parse_error("goal", &p),
        SolveError::Unsolvable(Unsolvable::Parity(_)) => UnsolvableError::new_err(message),
        SolveError::Unsupported(_) => UnsupportedError::new_err(message),
        SolveError::Limit { hit, stats, bound } => {
            let err = LimitError::new_err(message);
            let value = err.value(py);
            let set = (|| -> PyResult<()> {
                value.setattr("limit", hit.name())?;
                value.setattr("lower_bound", u64::from(bound).max(manhattan))?;
                value.setattr("expanded", stats.expanded)?;
                value.setattr("generated", stats.generated)?;
                value.setattr("time_ms", taquin::report::millis(stats.elapsed))
            })();
            match set {
                Ok(()) => err,
                Err(e) => e,
            }
        }
        SolveError::Cycle { .. } => CycleError::new_err(message),
        SolveError::InvalidSolution(_) => PyRuntimeError::new_err(message),
    }
}
