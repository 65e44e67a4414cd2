//! `heuristic(boards, heuristic)`: one of the core's heuristics over many boards at once.

use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::{PyDeprecationWarning, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use taquin::{Heuristic, Tile};

use crate::arrays::{with_slice, BoardArray, Cells, TileValue};
use crate::board::PyBoard;
use crate::convert::{board_from_any, goal_of_size, heuristic_name, jobs_of, width_of, Num};
use crate::errors::solve_error;
use crate::interrupt::{cancel_flag, parallel_map, run_interruptible};

/// Estimates of `heuristic` for every row of `data` (rows already checked to be boards).
fn estimates<T: TileValue>(data: &[T], cells: usize, heuristic: &dyn Heuristic) -> Vec<i32> {
    let mut tiles: Vec<Tile> = vec![0; cells];
    data.chunks_exact(cells)
        .map(|row| {
            for (t, &v) in tiles.iter_mut().zip(row) {
                *t = v.tile().unwrap_or(0);
            }
            // Estimates are at most a few times the cells times the sides, far below i32::MAX
            // for every board a table fits in memory for; saturate rather than wrap.
            i32::try_from(heuristic.estimate(&tiles)).unwrap_or(i32::MAX)
        })
        .collect()
}

/// The most rows in one piece of work shared out among the threads, so that Ctrl-C is heard
/// between two pieces (a few milliseconds each) and slow and fast pieces balance across threads.
const PIECE_ROWS: usize = 1 << 16;

/// The estimate of a heuristic, named by `heuristic` ("manhattan", the default,
/// "linear-conflict", "walking-distance", "pdb:7-8", ...; `name=` is the former keyword, still
/// taken with a DeprecationWarning), of every board of `boards`, an integer array (any integer
/// dtype and byte order) of shape (n, cells) (square boards unless `width` is given) or
/// (n, height, width), or a list that numpy makes one (of rows, or of Boards). Returns an
/// int32 array of n lower bounds on the distance to `goal` (default: tiles in order, blank
/// last). One board (a Board, or its text) gives its value as an int: a 2-D array is many
/// boards, one a row (a (k, k) array whose rows are no boards says so).
///
/// Runs without the GIL, on `jobs` threads (default: every core) when there are many boards;
/// Ctrl-C stops it (KeyboardInterrupt), also while a table is built. Pattern databases are
/// loaded from, or built into, the table directory on first use (`pdb:7-8` takes minutes to
/// build, `pdb:5-5-5` seconds): `TAQUIN_PDB_DIR` when set, else `$XDG_CACHE_HOME/taquin`, else
/// `~/.cache/taquin`, the `taquin` command's too; with none of these variables set, tables are
/// built in memory and not kept. The directory is read when the first table is needed, so set
/// the variable before that.
///
/// >>> import numpy as np
/// >>> heuristic(np.array([[1, 2, 3, 4, 5, 6, 7, 8, 0], [8, 1, 2, 0, 4, 3, 7, 6, 5]]), "manhattan")
/// array([ 0, 11], dtype=int32)
/// >>> heuristic(Board("6 4 7/8 5 0/3 2 1"), heuristic="linear-conflict")
/// 23
#[pyfunction]
#[pyo3(signature = (boards, heuristic=None, width=None, goal=None, jobs=None, *, name=None))]
pub fn heuristic<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    heuristic: Option<&str>,
    width: Option<Num<i128>>,
    goal: Option<&Bound<'py, PyAny>>,
    jobs: Option<Num<i128>>,
    name: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let heuristic = match (heuristic, name) {
        (Some(_), Some(_)) => {
            return Err(PyTypeError::new_err(
                "the heuristic is given twice: give heuristic= alone (name= is its former name)",
            ))
        }
        (None, Some(name)) => {
            let category = py.get_type::<PyDeprecationWarning>();
            PyErr::warn(
                py,
                category.as_any(),
                c"heuristic(name=...) is now heuristic(heuristic=...), as solve and dataset call it",
                1,
            )?;
            name
        }
        (heuristic, None) => heuristic.unwrap_or("manhattan"),
    };
    let width = width_of(width)?;
    let jobs: Option<usize> = jobs_of(Num::opt("jobs", jobs)?)?;
    let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let kind = heuristic_name(heuristic)?.ok_or_else(|| {
        PyValueError::new_err("heuristic 'auto' has no meaning here: name one, e.g. 'manhattan'")
    })?;
    // One board, which has a size of its own: read whole, never as rows of tiles.
    if boards.is_instance_of::<PyBoard>()
        || boards.is_instance_of::<PyString>()
        || boards.is_instance_of::<PyBytes>()
    {
        if width.is_some() {
            return Err(PyValueError::new_err(
                "width is the row length of an array of boards (shape (n, cells)); one board \
                 gives its own size: leave out width",
            ));
        }
        let board = board_from_any(boards, "board")?;
        let one =
            PyArray1::from_slice(py, board.tiles()).reshape([1, board.height(), board.width()])?;
        let values = match BoardArray::extract(one.as_any(), None, "board")? {
            Some(array) => estimates_of(py, &array, kind, goal, jobs)?,
            None => Vec::new(),
        };
        let value = values
            .first()
            .ok_or_else(|| PyValueError::new_err("internal error: a board without its value"))?;
        return Ok(value.into_pyobject(py)?.into_any());
    }
    let values = match BoardArray::extract(boards, width, "boards")? {
        Some(array) => estimates_of(py, &array, kind, goal, jobs)?,
        None => Vec::new(),
    };
    Ok(PyArray1::from_vec(py, values).into_any())
}

/// The estimates of `kind` to `goal` (as `heuristic` takes it) of every board of `array`.
fn estimates_of(
    py: Python<'_>,
    array: &BoardArray<'_>,
    kind: taquin::HeuristicKind,
    goal: Option<&Bound<'_, PyAny>>,
    jobs: usize,
) -> PyResult<Vec<i32>> {
    let (w, h, cells) = (array.width, array.height, array.cells());
    let goal = goal_of_size(w, h, goal)?;
    if (goal.width(), goal.height()) != (w, h) {
        return Err(crate::errors::InvalidBoardError::new_err(format!(
            "invalid goal: the boards are {w}x{h} but the goal is {}x{}: both must have the same size",
            goal.width(),
            goal.height()
        )));
    }
    // Before any table is built, which may take minutes: a bad row costs none of them.
    array.check(py)?;
    // Building a table (walking distance, pattern databases) may take minutes: no GIL held,
    // and Ctrl-C stops it.
    let cancel = cancel_flag();
    let limits = taquin::Limits::none().with_cancel(cancel.clone());
    let build = || {
        kind.build(
            &goal,
            crate::solve::tables(),
            taquin::pdb::BuildPolicy::IfMissing,
            &limits,
        )
    };
    let built = run_interruptible(py, &cancel, build, &mut |_| Ok(()))?;
    let built = built.map_err(|e| solve_error(py, e, 0))?;
    Ok(with_slice!(&array.cells, |data| {
        let rows = data.len() / cells;
        // Pieces small enough that every job gets work, large enough that handing them out
        // costs nothing measurable, and at most PIECE_ROWS so that Ctrl-C is seen between them.
        let piece_rows = rows.div_ceil(jobs.max(1)).clamp(4096, PIECE_ROWS);
        if rows <= piece_rows {
            py.detach(|| estimates(data, cells, &*built))
        } else {
            let piece = piece_rows * cells;
            let pieces = data.len().div_ceil(piece);
            parallel_map(py, pieces, jobs, &cancel, |i| {
                let rows = &data[i * piece..((i + 1) * piece).min(data.len())];
                estimates(rows, cells, &*built)
            })?
            .concat()
        }
    }))
}
