//! `heuristic(boards, name)`: one of the core's heuristics over many boards at once.

use numpy::PyArray1;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use taquin::{Heuristic, Tile};

use crate::arrays::{check_rows, with_slice, BoardArray, Cells, TileValue};
use crate::convert::{goal_of_size, heuristic_name, in_range_opt, jobs_of};
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

/// The heuristic `name` (e.g. "manhattan", "linear-conflict", "walking-distance", "pdb:7-8")
/// of every board of `boards`, an integer array of shape (n, cells) (square boards unless
/// `width` is given) or (n, height, width). Returns an int32 array of n lower bounds on the
/// distance to `goal` (default: tiles in order, blank last). Runs without the GIL, on `jobs`
/// threads (default: every core) when there are many boards; Ctrl-C stops it
/// (KeyboardInterrupt), also while a table is built. Pattern
/// databases are loaded from, or built into, the cache directory (`TAQUIN_PDB_DIR`, else
/// `~/.cache/taquin`) on first use: `pdb:7-8` takes minutes to build, `pdb:5-5-5` seconds.
///
/// >>> import numpy as np
/// >>> heuristic(np.array([[1, 2, 3, 4, 5, 6, 7, 8, 0], [8, 1, 2, 0, 4, 3, 7, 6, 5]]), "manhattan")
/// array([ 0, 11], dtype=int32)
#[pyfunction]
#[pyo3(signature = (boards, name="manhattan", width=None, goal=None, jobs=None))]
pub fn heuristic<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    name: &str,
    width: Option<i128>,
    goal: Option<&Bound<'py, PyAny>>,
    jobs: Option<i128>,
) -> PyResult<Bound<'py, PyArray1<i32>>> {
    let width = in_range_opt("width", width, "give the boards' number of columns")?;
    let jobs: Option<usize> = jobs_of(jobs)?;
    let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let kind = heuristic_name(name)?.ok_or_else(|| {
        PyValueError::new_err("heuristic 'auto' has no meaning here: name one, e.g. 'manhattan'")
    })?;
    let array = BoardArray::extract(boards, width, "boards")?;
    let (w, h, cells) = (array.width, array.height, array.cells());
    let goal = goal_of_size(w, h, goal)?;
    if (goal.width(), goal.height()) != (w, h) {
        return Err(crate::errors::InvalidBoardError::new_err(format!(
            "invalid goal: the boards are {w}x{h} but the goal is {}x{}: both must have the same size",
            goal.width(),
            goal.height()
        )));
    }
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
    let values = with_slice!(&array.cells, |data| {
        py.detach(|| check_rows(data, w, h))?;
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
    });
    Ok(PyArray1::from_vec(py, values))
}
