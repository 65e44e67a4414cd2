//! `solve` and `solve_batch`: every solve of the module goes through [`run_solve`], the one
//! place that calls the core's solving entry and picks what "auto" means.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use pyo3::exceptions::{PyKeyError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyType};
use std::sync::Mutex;
use std::sync::OnceLock;
use taquin::{
    Board, Improvements, Limits, Progress, ProgressFn, Request, Solution, SolveError, SolveOptions,
    SolveReport, Tables, Workload,
};

use crate::convert::{algorithm_name, board_from_any, goal_for, heuristic_name};
use crate::convert::{in_range_opt, jobs_of, node_budget, notation_of, width_of, Num};
use crate::errors::{at_index, parse_error, solve_error};
use crate::interrupt::{cancel_flag, parallel_map, run_interruptible};
use taquin::notation::Notation;

/// What a solve is asked for besides the boards: the core's options and the limits.
#[derive(Debug, Clone)]
pub struct Ask {
    /// Algorithm and heuristic (`None`: chosen for the board), their knobs, and how many boards
    /// share the tables (a batch or a data set: many).
    pub options: SolveOptions,
    /// Per-solve time budget.
    pub timeout: Option<Duration>,
    /// Per-solve node budget.
    pub max_nodes: Option<u64>,
    /// Per-solve memory budget of A* and BFS, in bytes (Python's `max_memory` is in MiB, as
    /// the CLI's `--max-memory`).
    pub max_memory: Option<usize>,
    /// Cores of the anytime search (`None`: every core).
    pub cores: Option<usize>,
}

/// The tables every solve of this module uses: the default directory's (the `TAQUIN_PDB_DIR`
/// variable, else the user's cache directory, shared with the `taquin` command), or memory
/// only when there is none. Opened on first use.
pub fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| Tables::open_default().unwrap_or_else(|_| Tables::in_memory()))
}

/// Solves `board` -> `goal` as `ask` says, checking `cancel` and reporting to `progress`: the
/// core's front door, whose planner decides what "auto" means. The only call of it in this
/// crate.
pub fn run_solve(
    board: &Board,
    goal: &Board,
    ask: &Ask,
    cancel: &Arc<AtomicBool>,
    progress: Option<ProgressFn>,
) -> Result<Solution, SolveError> {
    let mut limits =
        Limits::new(ask.timeout, ask.max_nodes, ask.max_memory).with_cancel(cancel.clone());
    limits.cores = ask.cores;
    let request = Request::new(board.clone(), goal.clone(), limits)?;
    taquin::solve(&request, &ask.options, tables(), progress)
}

/// One better answer of a running solve, as `solve`'s `on_improved` callback gets it: the
/// fields of the web API's `{"improved": ...}` lines.
struct Improved {
    length: u32,
    lower_bound: u32,
    moves: String,
    time_ms: f64,
}

/// The better answers of a running solve, queued by the search's threads until the calling
/// thread hands them to the Python callback (Python code runs on the thread that called it).
#[derive(Default)]
struct ImprovedQueue {
    news: Improvements,
    queue: Mutex<Vec<Improved>>,
    /// How the answers write their moves (the solve's `notation`).
    notation: Notation,
}

impl ImprovedQueue {
    /// The search's progress callback: queues `p`'s answer when it is shorter than every one
    /// before.
    fn report(&self, p: Progress) {
        if let Some(length) = self.news.news(&p) {
            let moves = p.best_moves.as_deref().map(|m| self.notation.format(m));
            self.lock().push(Improved {
                length,
                lower_bound: p.bound,
                moves: moves.unwrap_or_default(),
                time_ms: taquin::report::millis(p.elapsed),
            });
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Improved>> {
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Calls `callback` with each answer queued, in order, as a dict.
    fn deliver(&self, py: Python<'_>, callback: &Bound<'_, PyAny>) -> PyResult<()> {
        let queued = std::mem::take(&mut *self.lock());
        for improved in queued {
            let d = PyDict::new(py);
            d.set_item("length", improved.length)?;
            d.set_item("lower_bound", improved.lower_bound)?;
            d.set_item("moves", improved.moves)?;
            d.set_item("time_ms", improved.time_ms)?;
            callback.call1((d,))?;
        }
        Ok(())
    }
}

/// The result of a solve, with the field names of the CLI's `--json`. Read-only; equal to
/// another result when every field is; picklable and copyable (`multiprocessing` sends it).
///
/// >>> r = solve("6 4 7/8 5 0/3 2 1")
/// >>> r.length, r.mtm_length, r.optimal, r.moves[:6]
/// (31, 22, True, 'DLLURR')
#[pyclass(name = "SolveResult", module = "taquin", frozen, get_all, eq)]
#[derive(Clone, PartialEq)]
pub struct SolveResult {
    /// The moves, in `notation`: U/D/L/R where the blank goes (`"blank"`, the default), or where
    /// the tiles go, runs with their length (`"tiles"`: `L2`).
    moves: String,
    /// Number of moves (single-tile moves).
    length: usize,
    /// Number of multi-tile moves: a run of the blank in one direction (sliding a run of tiles
    /// of one row or column at once) counts 1, as the CLI's `mtm_length`.
    mtm_length: usize,
    /// True when no shorter solution exists (proven by the search).
    optimal: bool,
    /// The best proven lower bound on the optimal length (the length when optimal).
    lower_bound: u64,
    /// Algorithm name, as accepted on input.
    algorithm: String,
    /// Heuristic name, as accepted on input (`none` where the algorithm uses none).
    heuristic: String,
    /// Nodes expanded.
    expanded: u64,
    /// Nodes generated.
    generated: u64,
    /// Wall-clock milliseconds of the search.
    time_ms: f64,
    /// IDA* iterations (0 for other searches).
    iterations: u32,
    /// What was run and why, in one line.
    plan: String,
    /// Peak estimated bytes of the search's open and closed sets (0 where there are none).
    peak_memory_bytes: usize,
    /// The factor the solution is proven to be within of the optimum: 1.0 when optimal, else
    /// the length over the lower bound (or weighted A*'s weight, if smaller); None when
    /// nothing is proven.
    suboptimality_bound: Option<f64>,
    /// The board solved, as one line (`"6 4 7/8 5 0/3 2 1"`).
    board: String,
    /// The goal it was solved to, as one line.
    goal: String,
    /// How `moves` is written: `"blank"` or `"tiles"` (the `notation` asked of the solve).
    notation: String,
}

/// Calls `$apply!` with the fields of a [`SolveResult`] in the order of the CLI's JSON record
/// (after `$args`): the one list that `to_dict` and the rebuilding of a pickled result share.
macro_rules! record_fields {
    ($apply:ident!($($args:tt)*)) => {
        $apply!($($args)*; moves, length, mtm_length, optimal, lower_bound, algorithm, heuristic,
            expanded, generated, time_ms, iterations, plan, peak_memory_bytes,
            suboptimality_bound, board, goal, notation)
    };
}

impl SolveResult {
    /// The result of solving `board` to `goal`, its moves in `notation`.
    fn new(s: Solution, board: &Board, goal: &Board, notation: Notation) -> SolveResult {
        // The core's report, which the CLI's JSON is: the same fields, computed the same way.
        let r = SolveReport::new(&s).in_notation(&s, notation);
        SolveResult {
            moves: r.moves,
            length: r.length,
            mtm_length: r.mtm_length,
            optimal: r.optimal,
            lower_bound: r.lower_bound,
            expanded: r.expanded,
            generated: r.generated,
            time_ms: r.time_ms,
            iterations: r.iterations,
            algorithm: r.algorithm,
            heuristic: r.heuristic,
            plan: r.plan,
            peak_memory_bytes: r.peak_memory_bytes,
            suboptimality_bound: r.suboptimality_bound,
            board: board.to_line(),
            goal: goal.to_line(),
            notation: notation.name().to_string(),
        }
    }
}

#[pymethods]
impl SolveResult {
    /// The fields as a dict (the CLI's JSON record: `moves`, `length`, `mtm_length`, `optimal`,
    /// `lower_bound`, `algorithm`, `heuristic`, `expanded`, `generated`, `time_ms`, `iterations`,
    /// `plan`, `peak_memory_bytes`, `suboptimality_bound`, `board`, `goal`, `notation`).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        macro_rules! set {
            ($d:ident, $s:ident; $($field:ident),*) => {
                $($d.set_item(stringify!($field), &$s.$field)?;)*
            };
        }
        record_fields!(set!(d, self));
        Ok(d)
    }

    /// The result whose `to_dict()` is `record`: how a pickled result is rebuilt.
    #[classmethod]
    fn _from_dict(_cls: &Bound<'_, PyType>, record: &Bound<'_, PyDict>) -> PyResult<SolveResult> {
        macro_rules! get {
            ($d:ident; $($field:ident),*) => {
                SolveResult {
                    $($field: $d
                        .get_item(stringify!($field))?
                        .ok_or_else(|| PyKeyError::new_err(stringify!($field)))?
                        .extract()?,)*
                }
            };
        }
        Ok(record_fields!(get!(record)))
    }

    /// Pickling and copying: the fields, as `to_dict` gives them.
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyDict>,))> {
        let rebuild = py.get_type::<SolveResult>().getattr("_from_dict")?;
        Ok((rebuild, (self.to_dict(py)?,)))
    }

    fn __len__(&self) -> usize {
        self.length
    }

    fn __repr__(&self) -> String {
        format!(
            "SolveResult(length={}, optimal={}, moves='{}', algorithm='{}', heuristic='{}', expanded={}, generated={}, time_ms={:.3})",
            self.length,
            if self.optimal { "True" } else { "False" },
            self.moves,
            self.algorithm,
            self.heuristic,
            self.expanded,
            self.generated,
            self.time_ms
        )
    }
}

/// The largest `max_memory` taken, in MiB: 16 TiB, far beyond any machine's memory, and below
/// the byte counts (a gibibyte is 1,073,741,824) that a caller used to bytes would give.
const MAX_MEMORY_MIB: usize = 1 << 24;

/// The bytes of a `max_memory` argument, which is in MiB as the CLI's `--max-memory` (so that a
/// budget reads the same in both): 1 or more, or `None` for the default budget.
fn memory_budget(mib: Option<i128>) -> PyResult<Option<usize>> {
    let default = Limits::DEFAULT_MEMORY >> 20;
    let mib: Option<usize> = in_range_opt(
        "max_memory",
        mib,
        &format!(
            "give a memory budget in MiB, 1 or more, or None for the default budget of \
             {default} MiB"
        ),
    )?;
    if let Some(mib) = mib.filter(|&m| m > MAX_MEMORY_MIB) {
        // Most likely bytes, as `max_memory` took before: say the unit rather than ask for it.
        return Err(PyValueError::new_err(format!(
            "invalid max_memory {mib}: that is {} TiB, as max_memory is in MiB (as the CLI's \
             --max-memory); for 1 GiB give 1024, or None for the default budget of {default} MiB",
            mib >> 20
        )));
    }
    mib.map(|mib| {
        taquin::limits::mebibytes(mib).map_err(|e| {
            PyValueError::new_err(format!(
                "invalid max_memory {mib}: {e} (max_memory is in MiB; None for the default \
                 budget of {default} MiB)"
            ))
        })
    })
    .transpose()
}

/// Builds the [`Ask`] from the keyword arguments both `solve` and `solve_batch` take.
#[allow(clippy::too_many_arguments)]
fn ask_from(
    py: Python<'_>,
    algorithm: Option<&str>,
    heuristic: Option<&str>,
    timeout: Option<Num<f64>>,
    max_nodes: Option<Num<i128>>,
    max_memory: Option<Num<i128>>,
    weight: Option<Num<f64>>,
    depth: Option<Num<i128>>,
    threads: Option<Num<i128>>,
) -> PyResult<Ask> {
    // Each argument as a number first: a bool is refused by its name ([`Num`]).
    let timeout = Num::opt("timeout", timeout)?;
    let max_nodes = Num::opt("max_nodes", max_nodes)?;
    let max_memory = Num::opt("max_memory", max_memory)?;
    let weight = Num::opt("weight", weight)?;
    let depth = Num::opt("depth", depth)?;
    let threads = Num::opt("threads", threads)?;
    let depth: Option<usize> =
        in_range_opt("depth", depth, "the look-ahead needs a depth of at least 1")?;
    let threads: Option<usize> = in_range_opt(
        "threads",
        threads,
        &format!(
            "give a number of threads of one search, from 0 (every core) to {}",
            taquin::limits::MAX_THREADS
        ),
    )?;
    if let Some(threads) = threads {
        taquin::limits::thread_count(threads)
            .map_err(|e| PyValueError::new_err(format!("invalid threads {threads}: {e}")))?;
    }
    let max_nodes = node_budget("max_nodes", max_nodes)?;
    let max_memory = memory_budget(max_memory)?;
    let timeout = timeout
        .map(|t| {
            taquin::limits::timeout_secs(t).map_err(|e| {
                PyValueError::new_err(format!("invalid timeout: {e}; give None for no limit"))
            })
        })
        .transpose()?;
    if let Some(weight) = weight {
        let max = SolveOptions::MAX_WEIGHT;
        if !(weight.is_finite() && weight >= 1.0) {
            return Err(PyValueError::new_err(format!(
                "invalid weight {weight}: weighted A* needs a weight of at least 1"
            )));
        }
        if weight > max {
            return Err(PyValueError::new_err(format!(
                "invalid weight {weight}: give a weight from 1 to {max} (past it weighted A* is \
                 greedy search in all but name)"
            )));
        }
    }
    if let Some(depth) = depth {
        let max = taquin::solvers::MAX_DEPTH;
        if depth == 0 || depth > max {
            return Err(PyValueError::new_err(format!(
                "invalid depth {depth}: give a depth from 1 to {max} (the look-ahead tree grows \
                 threefold with each level)"
            )));
        }
    }
    // None is the default, as for every other keyword.
    let algorithm = algorithm_name(algorithm.unwrap_or("auto"))?;
    let heuristic = heuristic_name(heuristic.unwrap_or("auto"))?;
    // A heuristic the algorithm does not take is said, as the command line says it, and the
    // search runs without it.
    if let Some(note) = algorithm
        .zip(heuristic)
        .and_then(|(a, h)| a.unused_heuristic(h, &format!("heuristic=\"{}\"", h.name())))
    {
        let message =
            std::ffi::CString::new(note).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let category = py.get_type::<pyo3::exceptions::PyUserWarning>();
        // Level 1: the line of the Python code that called (a Rust function has no frame).
        PyErr::warn(py, category.as_any(), &message, 1)?;
    }
    // A setting of another algorithm than the one that runs is refused, not silently unused,
    // as the command line and the web API refuse it.
    let used_by = |name: &str, given: bool, setting: taquin::Setting| -> PyResult<()> {
        let choose = |a: &str| format!("algorithm=\"{a}\"");
        match setting
            .unused_with(name, algorithm, choose)
            .filter(|_| given)
        {
            Some(message) => Err(PyValueError::new_err(message)),
            None => Ok(()),
        }
    };
    used_by("weight", weight.is_some(), taquin::Setting::Weight)?;
    used_by("depth", depth.is_some(), taquin::Setting::Depth)?;
    // The planner's choice ("auto") is IDA* or the anytime search, which both take it.
    used_by(
        "threads",
        threads.is_some_and(|t| t != 1) && algorithm.is_some(),
        taquin::Setting::Threads,
    )?;
    let defaults = SolveOptions::default();
    Ok(Ask {
        options: SolveOptions {
            algorithm,
            heuristic,
            weight: weight.unwrap_or(defaults.weight),
            depth: depth.unwrap_or(defaults.depth),
            threads: threads.unwrap_or(1),
            workload: Workload::One,
            checkpoint: None,
        },
        timeout,
        max_nodes,
        max_memory,
        // The anytime search's cores: every one unless `threads` says otherwise (0: every one).
        cores: threads.filter(|&t| t > 0),
    })
}

/// Solves `board` to `goal` (default: tiles in order, blank last).
///
/// `board` and `goal` are text ("6 4 7/8 5 0/3 2 1"), a Board, a list of rows or a 2-D array.
/// `algorithm` and `heuristic` take the CLI's names; "auto" (or None) picks for the board (the
/// `plan` attribute of the result says what and why); a heuristic given to an algorithm that
/// takes none (`bfs`, `constructive`, `lookahead` but for "manhattan") is not used, and a
/// `UserWarning` says so. `timeout` is in seconds (more than 0, at most a year; None for no
/// limit, but for the anytime search, which "auto" picks beyond 16 cells: it then runs 10 s and
/// returns its best answer), `max_nodes` counts nodes generated, and `max_memory` is the memory
/// budget in MiB (at least 1; None: 4096 MiB), as the CLI's `--max-memory`, of A*, BFS and the
/// beam searches (the anytime search's, and IDA*'s beyond 16 cells). Ctrl-C stops the search.
/// `weight` (1 to 100, default 2) is weighted A*'s and `depth` (1 to 24, default 4) the
/// real-time players' (`lookahead`, `lrta`): given to another algorithm, they are refused.
/// `threads` (0: every core) splits IDA*'s iterations (default 1; the same moves) and the
/// anytime search's beam layers (default: every core; 1 runs it all on one thread); given
/// other than 1 to another algorithm, it is refused. A bool given for a number is refused
/// (TypeError): `True` is not a budget of 1.
///
/// `notation` says how the result's `moves` (and `on_improved`'s) are written, as the CLI's
/// `--notation`: "blank" (the default: each letter is where the blank goes, `DLLURR`) or
/// "tiles" (where the tiles go, a run with its length: `L2`); the result's `notation` says it.
///
/// `on_improved`, a callable, is called with each better answer as the search finds it (beyond
/// 16 cells: the anytime search's, and the beams' between IDA*'s iterations), as
/// a dict with `length`, `lower_bound` (proven at that moment), `moves` and `time_ms`, the
/// fields of the web API's `{"improved": ...}` lines; it runs on the calling thread, within a
/// twentieth of a second of the find, and the last answer it gets is the result's. An exception
/// it raises stops the search and is raised by `solve`.
///
/// >>> solve("6 4 7/8 5 0/3 2 1", algorithm="astar", heuristic="manhattan").length
/// 31
#[pyfunction]
#[pyo3(signature = (board, goal=None, algorithm="auto", heuristic="auto", timeout=None,
    max_nodes=None, max_memory=None, weight=None, depth=None, threads=None, on_improved=None,
    notation="blank"))]
#[allow(clippy::too_many_arguments)]
pub fn solve(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    goal: Option<&Bound<'_, PyAny>>,
    algorithm: Option<&str>,
    heuristic: Option<&str>,
    timeout: Option<Num<f64>>,
    max_nodes: Option<Num<i128>>,
    max_memory: Option<Num<i128>>,
    weight: Option<Num<f64>>,
    depth: Option<Num<i128>>,
    threads: Option<Num<i128>>,
    on_improved: Option<&Bound<'_, PyAny>>,
    notation: Option<&str>,
) -> PyResult<SolveResult> {
    let ask = ask_from(
        py, algorithm, heuristic, timeout, max_nodes, max_memory, weight, depth, threads,
    )?;
    let notation = notation_of(notation)?;
    if let Some(callback) = on_improved.filter(|c| !c.is_callable()) {
        return Err(PyTypeError::new_err(format!(
            "on_improved must be callable (a function taking one dict), not {}",
            callback.get_type().name()?
        )));
    }
    let board = board_from_any(board, "board")?;
    let goal = goal_for(&board, goal)?;
    // Before anything compares the two tile by tile: a goal of another size is the caller's
    // mistake, said as the CLI says it.
    board
        .check_same_size(&goal)
        .map_err(|e| parse_error("goal", &e))?;
    let cancel = cancel_flag();
    let improved = ImprovedQueue {
        notation,
        ..ImprovedQueue::default()
    };
    let report = |p: Progress| improved.report(p);
    let progress: Option<ProgressFn> = on_improved.is_some().then_some(&report);
    let callback = on_improved.map(|c| c.clone().unbind());
    let mut deliver = |py: Python<'_>| match &callback {
        Some(callback) => improved.deliver(py, callback.bind(py)),
        None => Ok(()),
    };
    let solved = run_interruptible(
        py,
        &cancel,
        || run_solve(&board, &goal, &ask, &cancel, progress),
        &mut deliver,
    )?;
    // The answers found since the last poll, and the result itself when it is shorter than
    // every one heard (IDA*'s own optimal answer, beyond 16 cells, which only its beams' are
    // reported before): the last answer heard is the result. A search that reported none (an
    // optimal search that found its answer at once) calls nothing.
    let heard_some = improved.news.shortest().is_some();
    if let (true, Some(_), Ok(s)) = (heard_some, &callback, &solved) {
        improved.report(Progress {
            generated: s.stats.generated,
            expanded: s.stats.expanded,
            bound: u32::try_from(s.lower_bound).unwrap_or(u32::MAX),
            elapsed: s.stats.elapsed,
            best: Some(s.len() as u32),
            best_moves: Some(s.moves.as_slice().into()),
        });
    }
    deliver(py)?;
    match solved {
        Ok(s) => Ok(SolveResult::new(s, &board, &goal, notation)),
        Err(e) => Err(solve_error(
            py,
            e,
            taquin::solvers::manhattan_lower_bound(&board, &goal),
        )),
    }
}

/// Boards of a batch: a list of boards (any form `solve` takes), each read on its own, or an
/// integer array of shape (n, cells) or (n, height, width), each row read on its own. A board
/// that is not valid is its error, named by its place ([`at_index`]), in its place.
fn batch_boards(
    py: Python<'_>,
    boards: &Bound<'_, PyAny>,
    width: Option<usize>,
) -> PyResult<Vec<PyResult<Board>>> {
    // One board where a list of them belongs: text would otherwise be read character by
    // character, each a "board" of one tile.
    if boards.is_instance_of::<PyString>()
        || boards.is_instance_of::<PyBytes>()
        || boards.is_instance_of::<crate::board::PyBoard>()
    {
        return Err(PyTypeError::new_err(
            "solve_batch takes a list of boards, not one board: pass [board], or call \
             taquin.solve(board)",
        ));
    }
    // Only a real array is read as rows of tiles: a list goes board by board, so that it may
    // mix text, Boards and lists of rows.
    if boards.is_instance_of::<numpy::PyUntypedArray>() {
        return match crate::arrays::BoardArray::extract(boards, width, "boards")? {
            Some(array) => array.boards(py),
            None => Ok(Vec::new()),
        };
    }
    if width.is_some() {
        return Err(PyValueError::new_err(
            "width is the row length of an array of boards (shape (n, cells)); a list's boards \
             each give their own size: leave out width",
        ));
    }
    let list = boards.try_iter().map_err(|_| {
        PyValueError::new_err(
            "invalid boards: give a list of boards or an integer array of shape (n, cells)",
        )
    })?;
    list.enumerate()
        .map(|(i, b)| Ok(board_from_any(&b?, "board").map_err(|e| at_index(py, e, i))))
        .collect()
}

/// Solves many boards on every core (or `jobs` threads) and returns the results in input order.
///
/// `boards` is a list of boards (any form `solve` takes; they may differ in size) or an integer
/// array of shape (n, cells) (square boards unless `width` is given) or (n, height, width).
/// The default goal, or a goal named as the CLI's `--goal` takes (`"korf"`), is laid out on
/// each board's own size; a goal board applies to every board, and a board of another size
/// fails as a goal of the wrong size. Limits apply to each board (`timeout` in seconds, None for
/// no limit but 10 s for the anytime search, which "auto" picks beyond 16 cells; `max_nodes`
/// nodes generated); the boards solved at once share the memory budget,
/// `max_memory` in MiB (at least 1; None: 4096 MiB), as the CLI's `--max-memory`, and the
/// cores: each board's anytime search keeps its share of them busy (with `jobs=1`, every core).
/// Every board is checked first (its size against the goal's, whether it can reach the goal),
/// so that one that cannot be solved fails before any search. A board that fails raises its
/// exception, unless `return_exceptions` is true: then the exception takes its place in the
/// list. Every such exception, whether the board is not valid,
/// does not fit the goal or its search failed, is the one `solve` would raise for that board,
/// its message preceded by the board's place ("board 3: ..."), which its `index` attribute
/// holds too. Ctrl-C stops every search. `notation` ("blank" or "tiles") writes the results'
/// moves as `solve`'s does.
///
/// >>> [r.length for r in solve_batch(["1 2 3/4 5 6/7 0 8", "1 2 3/4 5 6/0 7 8"])]
/// [1, 2]
#[pyfunction]
#[pyo3(signature = (boards, goal=None, algorithm="auto", heuristic="auto", timeout=None,
    max_nodes=None, max_memory=None, weight=None, depth=None, width=None, jobs=None,
    return_exceptions=false, notation="blank"))]
#[allow(clippy::too_many_arguments)]
pub fn solve_batch<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    goal: Option<&Bound<'py, PyAny>>,
    algorithm: Option<&str>,
    heuristic: Option<&str>,
    timeout: Option<Num<f64>>,
    max_nodes: Option<Num<i128>>,
    max_memory: Option<Num<i128>>,
    weight: Option<Num<f64>>,
    depth: Option<Num<i128>>,
    width: Option<Num<i128>>,
    jobs: Option<Num<i128>>,
    return_exceptions: bool,
    notation: Option<&str>,
) -> PyResult<Bound<'py, PyList>> {
    let mut ask = ask_from(
        py, algorithm, heuristic, timeout, max_nodes, max_memory, weight, depth, None,
    )?;
    ask.options.workload = Workload::Many;
    let notation = notation_of(notation)?;
    let width = width_of(width)?;
    let jobs: Option<usize> = jobs_of(Num::opt("jobs", jobs)?)?;
    let read = batch_boards(py, boards, width)?;
    // Each board's goal on its own size (a batch may mix sizes, as `taquin batch` does): one
    // per size, in order of first appearance. A goal board is the same for every size.
    let mut goals: Vec<Board> = Vec::new();
    let mut sizes: Vec<(usize, usize)> = Vec::new();
    // Every board checked against its goal (size, solvability: a pass over its tiles) before
    // any search, so that a board that cannot be solved is raised at once, not after the
    // searches of all the others. What fails is what `solve` raises for that board, named by
    // its place; in its place with `return_exceptions`.
    let mut places: Vec<Result<usize, PyErr>> = Vec::with_capacity(read.len());
    let mut searches: Vec<(Board, usize)> = Vec::new();
    for (i, board) in read.into_iter().enumerate() {
        let checked = match board {
            Ok(board) => {
                let size = (board.width(), board.height());
                let k = match sizes.iter().position(|&s| s == size) {
                    Some(k) => k,
                    None => {
                        goals.push(goal_for(&board, goal)?);
                        sizes.push(size);
                        goals.len() - 1
                    }
                };
                match Request::new(board.clone(), goals[k].clone(), Limits::none()) {
                    Ok(_) => Ok((board, k)),
                    Err(e) => Err(at_index(py, board_error(py, &board, &goals[k], e), i)),
                }
            }
            Err(e) => Err(e),
        };
        match checked {
            Ok(search) => {
                places.push(Ok(searches.len()));
                searches.push(search);
            }
            Err(e) if return_exceptions => places.push(Err(e)),
            Err(e) => return Err(e),
        }
    }
    let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let at_once = jobs.clamp(1, searches.len().max(1));
    // The boards solved at once share the memory budget...
    let whole = Limits::none().with_max_memory(ask.max_memory.unwrap_or(Limits::DEFAULT_MEMORY));
    let cancel = cancel_flag();
    // ... and the cores.
    let per_board = taquin::search::limits_per_job(whole, at_once);
    ask.max_memory = Some(per_board.memory_budget());
    ask.cores = per_board.cores;
    let outcomes = parallel_map(py, searches.len(), jobs, &cancel, |j| {
        let (board, k) = &searches[j];
        run_solve(board, &goals[*k], &ask, &cancel, None)
    })?;
    let results = PyList::empty(py);
    let mut outcomes = outcomes.into_iter();
    for (i, place) in places.into_iter().enumerate() {
        let result = place.and_then(|j| {
            let (board, k) = &searches[j];
            let outcome = outcomes.next().ok_or_else(|| {
                pyo3::exceptions::PyRuntimeError::new_err("internal error: a solve is missing")
            })?;
            match outcome {
                Ok(s) => Ok(SolveResult::new(s, board, &goals[*k], notation)),
                Err(e) => Err(at_index(py, board_error(py, board, &goals[*k], e), i)),
            }
        });
        match result {
            Ok(r) => results.append(r)?,
            Err(e) if return_exceptions => results.append(e.into_value(py))?,
            Err(e) => return Err(e),
        }
    }
    Ok(results)
}

/// What `solve` raises when `board` fails with `e` on its way to `goal`: a goal of another size
/// is the caller's mistake, said as the CLI says it; else the search's error.
fn board_error(py: Python<'_>, board: &Board, goal: &Board, e: SolveError) -> PyErr {
    match board.check_same_size(goal) {
        Err(mismatch) => parse_error("goal", &mismatch),
        Ok(()) => solve_error(py, e, taquin::solvers::manhattan_lower_bound(board, goal)),
    }
}
