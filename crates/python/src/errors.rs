//! The exceptions the module raises and the one translation of core errors into them. Messages
//! are the core's, the same the CLI prints, so a user sees the same sentence everywhere.

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use taquin::{SolveError, Unsolvable};

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
     `generated`, `time_ms`; each None on a LimitError made by hand."
);
pyo3::create_exception!(
    taquin,
    CycleError,
    PyRuntimeError,
    "A real-time player (`lookahead`) came back to a board it had left and would cycle forever."
);

/// The attributes a [`LimitError`] has, each `None` on one made by hand (`LimitError("...")`),
/// so that code reading them works on any.
const LIMIT_ATTRIBUTES: [&str; 5] = ["limit", "lower_bound", "expanded", "generated", "time_ms"];

/// Registers the exception types on the module. Each has an `index` attribute, the place of the
/// board in a batch ([`at_index`]), `None` on one about a single board.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    let types = [
        ("InvalidBoardError", py.get_type::<InvalidBoardError>()),
        ("UnsolvableError", py.get_type::<UnsolvableError>()),
        ("UnsupportedError", py.get_type::<UnsupportedError>()),
        ("LimitError", py.get_type::<LimitError>()),
        ("CycleError", py.get_type::<CycleError>()),
    ];
    for (name, exception) in types {
        exception.setattr("index", py.None())?;
        m.add(name, exception)?;
    }
    let limit = py.get_type::<LimitError>();
    for attribute in LIMIT_ATTRIBUTES {
        limit.setattr(attribute, py.None())?;
    }
    Ok(())
}

/// A parse error of the board, goal or moves named `what`, as the CLI words it.
pub fn parse_error(what: &str, e: &impl std::fmt::Display) -> PyErr {
    InvalidBoardError::new_err(format!("invalid {what}: {e}"))
}

/// The Python exception for a core [`SolveError`]. `manhattan` is the board's Manhattan
/// distance, a proven lower bound a limit error reports when the search proved less.
pub fn solve_error(py: Python<'_>, e: SolveError, manhattan: u64) -> PyErr {
    let message = e.to_string();
    match e {
        SolveError::Parse(p) => parse_error("board", &p),
        // A goal of another size than the board: the goal is what the caller picks for boards
        // (one for a whole batch), so it is the goal that is named, as `Board.is_solvable` does.
        SolveError::Unsolvable(Unsolvable::Size(p)) => parse_error("goal", &p),
        // Parity, and any reason the core adds later.
        SolveError::Unsolvable(_) => UnsolvableError::new_err(message),
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
        // An error the core adds later: not the caller's fault that this binding knows.
        _ => PyRuntimeError::new_err(message),
    }
}

/// `err`, the error a single board would get, as the error of the board at `index` of many (a
/// batch, the rows of an array): its message starts with "board {index}: " and it has an `index`
/// attribute, whatever its type, so that every error of a batch reads and is found the same way.
pub fn at_index(py: Python<'_>, err: PyErr, index: usize) -> PyErr {
    let value = err.value(py);
    let set = (|| -> PyResult<()> {
        let message = value.str()?;
        value.setattr("args", (format!("board {index}: {message}"),))?;
        value.setattr("index", index)
    })();
    match set {
        Ok(()) => err,
        Err(e) => e,
    }
}
