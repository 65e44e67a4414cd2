//! Random boards and data sets for learning: boards with their exact cost to go.

use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::exceptions::{PyMemoryError, PyValueError};
use pyo3::prelude::*;
use taquin::generate::{random_walk_within, uniform, Rng};
use taquin::{Board, LimitHit, Limits, SolveError, Tile};

use crate::board::PyBoard;
use crate::convert::{
    board_from_any, goal_of_size, heuristic_name, in_range, in_range_opt, jobs_of, size_from_any,
    Num,
};
use crate::errors::solve_error;
use crate::errors::UnsupportedError;
use crate::interrupt::{cancel_flag, parallel_map, run_cancellable};
use crate::solve::{run_solve, Ask};

/// What a count argument must be, said when it is not.
const COUNT: &str = "give a whole number of boards, 0 or more";
/// What a walk length argument must be, said when it is not.
const MOVES: &str = "give a whole number of moves, 0 or more";

/// The seed argument checked (a Python int, any sign, so that a negative one gets a message
/// naming it), or one from the clock when none is given, as the CLI's `generate` does.
fn seed_or_clock(seed: Option<i128>) -> PyResult<u64> {
    let seed: Option<u64> = in_range_opt(
        "seed",
        seed,
        "give a whole number from 0 to 2**64 - 1, or None for a seed from the clock",
    )?;
    Ok(seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    }))
}

/// The goal of `generate` and `dataset`: the one given, a board or a name as the CLI's
/// `--goal` takes (`"korf"`, `"snail"`, `"standard"`, laid out on `size`, which a name then
/// needs), or tiles in order, blank last, on `size`. A size and a goal board must agree.
fn goal_with_size(
    size: Option<&Bound<'_, PyAny>>,
    goal: Option<&Bound<'_, PyAny>>,
) -> PyResult<Board> {
    goal_on_size(size_arg(size)?, goal)
}

/// A `size` argument read as [`size_from_any`] reads it; `None` (or Python's None): not given.
pub(crate) fn size_arg(size: Option<&Bound<'_, PyAny>>) -> PyResult<Option<(usize, usize)>> {
    size.filter(|s| !s.is_none()).map(size_from_any).transpose()
}

/// `goal` read as a goal's name, as the CLI's `--goal` reads it (laid out on 3x3): `None` when
/// it is not one (a board, as text or numbers); an error for a word that names no goal.
pub(crate) fn goal_name(
    goal: &Bound<'_, PyAny>,
) -> Option<Result<Board, taquin::goals::GoalError>> {
    let text = goal.extract::<String>().ok()?;
    taquin::goals::goal_by_name(&text, 3, 3)
}

/// [`goal_with_size`] with the size read already (`None`: not given).
pub(crate) fn goal_on_size(
    size: Option<(usize, usize)>,
    goal: Option<&Bound<'_, PyAny>>,
) -> PyResult<Board> {
    let goal = goal.filter(|g| !g.is_none());
    match (size, goal) {
        (Some((w, h)), goal) => {
            let goal = goal_of_size(w, h, goal)?;
            if (w, h) != (goal.width(), goal.height()) {
                return Err(PyValueError::new_err(format!(
                    "invalid size: {w}x{h} given but the goal is {}x{}",
                    goal.width(),
                    goal.height()
                )));
            }
            Ok(goal)
        }
        (None, Some(g)) => match goal_name(g) {
            Some(Ok(_)) => Err(PyValueError::new_err(format!(
                "the goal {} is a name: give the size too (size=\"4x4\")",
                g.repr()?
            ))),
            // A word that is no goal's name (a misspelling): the reader's message.
            Some(Err(e)) => Err(crate::convert::invalid_goal(e)),
            None => board_from_any(g, "goal"),
        },
        (None, None) => Err(PyValueError::new_err(
            "give a size (\"4x4\", columns x rows) or a goal",
        )),
    }
}

/// How [`boards`] draws each board.
#[derive(Clone, Copy)]
enum Draw {
    /// Uniformly among the boards that reach the goal.
    Uniform,
    /// A random walk of this many moves from the goal (`generate`'s `moves`).
    Walk(usize),
    /// A random walk from the goal whose length is drawn from 0 to this (`dataset`'s `moves`).
    WalkUpTo(usize),
}

/// `count` boards from `seed`, drawn as `draw` says: the same boards as `taquin generate` with
/// the same seed. Stopped through `limits`' cancel flag (Ctrl-C: a walk of billions of moves,
/// or billions of boards, take minutes). `made` is the room for them ([`room_for`]).
fn boards(
    goal: &Board,
    count: usize,
    seed: u64,
    draw: Draw,
    limits: &Limits,
    mut made: Vec<Board>,
) -> Result<Vec<Board>, LimitHit> {
    let mut rng = Rng::new(seed);
    for _ in 0..count {
        let board = match draw {
            Draw::Uniform => limits.check(0).map(|()| uniform(goal, &mut rng))?,
            Draw::Walk(k) => random_walk_within(goal, k, &mut rng, limits)?,
            Draw::WalkUpTo(k) => {
                let length = rng.below(k.saturating_add(1));
                random_walk_within(goal, length, &mut rng, limits)?
            }
        };
        made.push(board);
    }
    Ok(made)
}

/// Room for `count` boards like `goal`, or a MemoryError that names `count`: asked for at once,
/// before any is drawn, so that a count beyond memory is refused rather than aborting the
/// interpreter when memory runs out midway.
fn room_for(count: usize, goal: &Board) -> PyResult<Vec<Board>> {
    let each = std::mem::size_of::<Board>() + goal.len() * std::mem::size_of::<Tile>();
    let mut made = Vec::new();
    let fits = count
        .checked_mul(each)
        .is_some_and(|bytes| bytes <= isize::MAX as usize)
        && made.try_reserve_exact(count).is_ok();
    if !fits {
        return Err(PyMemoryError::new_err(format!(
            "count={count}: {count} boards of {} cells need {:.1} GiB, more than this machine can \
             give: ask for fewer boards at a time",
            goal.len(),
            (count as f64) * (each as f64) / f64::from(1 << 30)
        )));
    }
    Ok(made)
}

/// Random solvable boards, reproducible with `seed` (the same boards as `taquin generate`).
///
/// `size` is "WxH" (columns x rows), one side, or (width, height), and may be left out only
/// when `goal` is a board (its size is then the boards'): there is no default size. `goal`
/// defaults to tiles in order, blank last, and may be named as the CLI's `--goal` takes it. Boards are uniform among those that reach the goal, or, with `moves`, a
/// random walk of that many moves from the goal (never undoing the last move). Returns one
/// Board, or a list of `count` boards when `count` is given; a `count` whose boards do not fit
/// in memory raises MemoryError before any is drawn. Ctrl-C stops it.
///
/// >>> generate("4x4", seed=42)
/// Board("0 14 6 7/9 2 13 11/8 15 10 1/5 4 3 12")
#[pyfunction]
#[pyo3(signature = (size=None, count=None, seed=None, moves=None, goal=None))]
pub fn generate(
    py: Python<'_>,
    size: Option<&Bound<'_, PyAny>>,
    count: Option<Num<i128>>,
    seed: Option<Num<i128>>,
    moves: Option<Num<i128>>,
    goal: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let count: Option<usize> = in_range_opt("count", Num::opt("count", count)?, COUNT)?;
    let moves: Option<usize> = in_range_opt("moves", Num::opt("moves", moves)?, MOVES)?;
    let seed = seed_or_clock(Num::opt("seed", seed)?)?;
    let goal = goal_with_size(size, goal)?;
    let count_or_one = count.unwrap_or(1);
    let room = room_for(count_or_one, &goal)?;
    let draw = moves.map_or(Draw::Uniform, Draw::Walk);
    // Without the GIL, and stopped by Ctrl-C (raised as KeyboardInterrupt).
    let made = run_cancellable(py, true, |limits| {
        boards(&goal, count_or_one, seed, draw, limits, room)
    })?;
    let mut made: Vec<PyBoard> = made.into_iter().map(PyBoard::new).collect();
    match count {
        Some(_) => Ok(made.into_pyobject(py)?.into_any().unbind()),
        None => Ok(Py::new(py, made.remove(0))?.into_any()),
    }
}

/// A data set for learning a heuristic: `count` boards and their exact cost to go (optimal
/// number of moves to the goal), as numpy arrays `(states, cost_to_go)`.
///
/// `states` has shape (count, cells), row-major tiles with 0 for the blank (uint8, or uint16
/// past 256 cells); `cost_to_go` is int32. `method` is "uniform" (the default: boards drawn
/// uniformly among the solvable ones) or "walk" (random walks from the goal whose length is
/// drawn uniformly from 0..=`moves`, so short distances are well represented, as DeepCubeA
/// trains); any other method raises ValueError. The same `seed`
/// gives the same data set. Every board is solved optimally on `jobs` threads (default: every
/// core) with `heuristic` ("auto" or a name such as "pdb:7-8"); Ctrl-C stops it.
///
/// Uniform boards are offered up to 16 cells (the 15-puzzle): an optimal solve of a uniformly
/// random larger board may take hours, so `method="uniform"` beyond that raises
/// UnsupportedError at once; random walks of bounded length (`method="walk"`) are solved
/// optimally on any size.
///
/// >>> states, cost = dataset("3x3", 4, seed=1)
/// >>> states.shape, cost.dtype
/// ((4, 9), dtype('int32'))
#[pyfunction]
#[pyo3(signature = (size, count, seed=None, method="uniform", moves=None, goal=None,
    heuristic="auto", jobs=None))]
#[allow(clippy::too_many_arguments)]
pub fn dataset<'py>(
    py: Python<'py>,
    size: &Bound<'py, PyAny>,
    count: Num<i128>,
    seed: Option<Num<i128>>,
    method: &str,
    moves: Option<Num<i128>>,
    goal: Option<&Bound<'py, PyAny>>,
    heuristic: Option<&str>,
    jobs: Option<Num<i128>>,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyArray1<i32>>)> {
    let count: usize = in_range("count", count.get("count")?, COUNT)?;
    let moves: Option<usize> = in_range_opt("moves", Num::opt("moves", moves)?, MOVES)?;
    let jobs: Option<usize> = jobs_of(Num::opt("jobs", jobs)?)?;
    let seed = seed_or_clock(Num::opt("seed", seed)?)?;
    let goal = goal_with_size(Some(size), goal)?;
    // Past 16 cells the planner runs the anytime search, which proves a random board's optimum
    // only by luck before its budget runs out: every board would cost that budget and then fail.
    // Said before any work, with the way that works.
    if method == "uniform" && goal.len() > taquin::planner::MAX_QUICK_CELLS {
        return Err(UnsupportedError::new_err(format!(
            "exact costs to go of uniformly random {}x{} boards are out of reach: an optimal \
             search of a random board of more than {} cells may take hours; draw boards by \
             random walks instead, whose optimal costs are found quickly: \
             method=\"walk\", moves=40 (the longest walk)",
            goal.width(),
            goal.height(),
            taquin::planner::MAX_QUICK_CELLS
        )));
    }
    // Every argument checked before any board is drawn: drawing may take minutes.
    let draw = match (method, moves) {
        ("uniform", None) => Draw::Uniform,
        ("uniform", Some(_)) => {
            return Err(PyValueError::new_err(
                "moves= is for method=\"walk\": uniform boards need no walk length",
            ))
        }
        ("walk", Some(k)) => Draw::WalkUpTo(k),
        ("walk", None) => {
            return Err(PyValueError::new_err(
                "method=\"walk\" needs moves= (the longest walk, e.g. 30)",
            ))
        }
        (other, _) => {
            return Err(PyValueError::new_err(format!(
                "unknown method '{other}': use \"uniform\" or \"walk\""
            )))
        }
    };
    let ask = Ask {
        options: taquin::SolveOptions {
            // None is "auto", as for solve.
            heuristic: heuristic_name(heuristic.unwrap_or("auto"))?,
            workload: taquin::Workload::Many,
            ..taquin::SolveOptions::default()
        },
        timeout: None,
        max_nodes: None,
        max_memory: None,
        cores: None,
    };
    let room = room_for(count, &goal)?;
    // Without the GIL, and stopped by Ctrl-C, as generate draws them.
    let made = run_cancellable(py, true, |limits| {
        boards(&goal, count, seed, draw, limits, room)
    })?;
    let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    // NumPy's C API is loaded on the first array made, by running Python code: made after the
    // solves, with a Ctrl-C pending, that load failed and panicked. Loaded now, before them.
    PyArray1::<i32>::zeros(py, 0, false);
    let cancel = cancel_flag();
    let solved = parallel_map(py, made.len(), jobs, &cancel, |i| {
        run_solve(&made[i], &goal, &ask, &cancel, None).and_then(|s| {
            if s.optimal {
                Ok(s.len())
            } else {
                // Only past 16 cells (the anytime search), on a walk too long for its budget.
                Err(SolveError::Unsupported(format!(
                    "the optimal cost to go of board {i} ({}) was not proven within the search's \
                     budget: ask for shorter walks (a smaller moves=)",
                    made[i].to_line()
                )))
            }
        })
    })?;
    let mut cost = Vec::with_capacity(count);
    for outcome in solved {
        let length = outcome.map_err(|e| solve_error(py, e, 0))?;
        cost.push(i32::try_from(length).unwrap_or(i32::MAX));
    }
    let cells = goal.len();
    let states = if cells <= 256 {
        let flat: Vec<u8> = made
            .iter()
            .flat_map(|b| b.tiles().iter().map(|&t| t as u8))
            .collect();
        PyArray1::from_vec(py, flat)
            .reshape([count, cells])?
            .into_any()
    } else {
        let flat: Vec<u16> = made
            .iter()
            .flat_map(|b| b.tiles().iter().map(|&t| t as u16))
            .collect();
        let states: Bound<'py, PyArray2<u16>> =
            PyArray1::from_vec(py, flat).reshape([count, cells])?;
        states.into_any()
    };
    Ok((states, PyArray1::from_vec(py, cost)))
}
