//! The state behind `taquin.gym`: one board (`Puzzle`) or many (`PuzzleBatch`) stepped in Rust,
//! so that an environment step does no per-tile work in Python.
//!
//! Actions are the blank's moves in the core's order: 0 = U, 1 = D, 2 = L, 3 = R. A move that
//! would leave the board leaves it unchanged (and still costs a step); the action mask says
//! which moves are legal. Whether the goal is reached is kept as a count of cells that differ
//! from the goal, updated by each move, so no step compares whole boards.

use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyType;
use taquin::board::size_with_article;
use taquin::generate::{random_walk_within, uniform, Rng};
use taquin::{check_solvable, Board, LimitHit, Limits, Move, Unsolvable};

use crate::board::PyBoard;
use crate::convert::board_from_any;
use crate::data::goal_on_size;
use crate::errors::{parse_error, UnsolvableError};
use crate::interrupt::run_cancellable;

/// Largest board an environment holds: observations are uint8 tiles.
const MAX_CELLS: usize = 256;

/// Most boards of a vector environment: 2**20, whose observations of the largest boards are
/// 256 MiB. A count far beyond any use would otherwise abort the interpreter when its memory
/// cannot be had.
const MAX_ENVS: usize = 1 << 20;

/// Moves of start boards drawn on the calling thread, with the GIL: about a millisecond's
/// work. Longer draws go to a worker thread, stopped by Ctrl-C, which costs more than that.
const LONG_DRAW: usize = 1 << 16;

/// The goal of an environment of `taquin.gym` from its `size` and `goal` arguments, read as
/// `generate` reads them (a size "WxH", one side or (width, height); a goal board, whose size a
/// size given must match, or a name as the CLI's `--goal` takes, laid out on the size), the
/// size 3x3 when neither gives one.
#[pyfunction]
#[pyo3(name = "_env_goal", signature = (size=None, goal=None))]
pub fn env_goal(
    size: Option<&Bound<'_, PyAny>>,
    goal: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyBoard> {
    let size = crate::data::size_arg(size)?;
    let goal = goal.filter(|g| !g.is_none());
    // A goal board has a size of its own; a name, or no goal, is laid out on the default one.
    let sized_by_goal = goal.is_some_and(|g| crate::data::goal_name(g).is_none());
    let size = size.or((!sized_by_goal).then_some(DEFAULT_SIZE));
    goal_on_size(size, goal).map(PyBoard::new)
}

/// The environments' board when neither `size` nor a goal board gives one: the 8-puzzle.
const DEFAULT_SIZE: (usize, usize) = (3, 3);

/// One board's cells and blank, moved in place.
struct Cells<'a> {
    tiles: &'a mut [u8],
    blank: &'a mut u32,
    differ: &'a mut u32,
}

/// The goal and board shape every state of an environment shares.
#[derive(Clone)]
struct Shape {
    width: usize,
    height: usize,
    goal: Board,
    goal_tiles: Vec<u8>,
}

impl Shape {
    fn new(goal: Board) -> PyResult<Shape> {
        if goal.len() > MAX_CELLS {
            return Err(PyValueError::new_err(format!(
                "{} board has {} cells; the environment holds boards of at most {MAX_CELLS} \
                 cells (uint8 observations): use taquin.solve for larger boards",
                size_with_article(goal.width(), goal.height()),
                goal.len()
            )));
        }
        Ok(Shape {
            width: goal.width(),
            height: goal.height(),
            goal_tiles: goal.tiles().iter().map(|&t| t as u8).collect(),
            goal,
        })
    }

    fn cells(&self) -> usize {
        self.goal_tiles.len()
    }

    /// Writes `board` into `cells`.
    fn load(&self, board: &Board, cells: Cells<'_>) {
        for (c, &t) in cells.tiles.iter_mut().zip(board.tiles()) {
            *c = t as u8;
        }
        *cells.blank = board.blank() as u32;
        *cells.differ = cells
            .tiles
            .iter()
            .zip(&self.goal_tiles)
            .filter(|(a, b)| a != b)
            .count() as u32;
    }

    /// Moves the blank by `action`; false when the move would leave the board.
    #[inline]
    fn step(&self, action: usize, cells: Cells<'_>) -> bool {
        let blank = *cells.blank as usize;
        let Some(to) = Move::ALL[action & 3].target(blank, self.width, self.height) else {
            return false;
        };
        let g = &self.goal_tiles;
        let before =
            u32::from(cells.tiles[blank] != g[blank]) + u32::from(cells.tiles[to] != g[to]);
        cells.tiles.swap(blank, to);
        let after = u32::from(cells.tiles[blank] != g[blank]) + u32::from(cells.tiles[to] != g[to]);
        *cells.differ = *cells.differ + after - before;
        *cells.blank = to as u32;
        true
    }

    /// Legal actions from `blank`, 1 or 0 in the order U, D, L, R.
    #[inline]
    fn mask(&self, blank: u32, out: &mut [i8]) {
        for (o, m) in out.iter_mut().zip(Move::ALL) {
            *o = i8::from(m.target(blank as usize, self.width, self.height).is_some());
        }
    }

    /// A board to start from: a walk of `scramble` moves from the goal, or uniform. Stopped
    /// through `limits`' cancel flag (Ctrl-C: a walk of billions of moves takes minutes).
    fn draw(
        &self,
        scramble: Option<usize>,
        rng: &mut Rng,
        limits: &Limits,
    ) -> Result<Board, LimitHit> {
        match scramble {
            Some(k) => random_walk_within(&self.goal, k, rng, limits),
            None => Ok(uniform(&self.goal, rng)),
        }
    }

    /// Whether drawing `boards` start boards is long enough to hand to a worker thread that
    /// Ctrl-C stops ([`run_cancellable`]): more moves in all than [`LONG_DRAW`] (a uniform
    /// board costs about a move per cell).
    fn long_draw(&self, scramble: Option<usize>, boards: usize) -> bool {
        boards.saturating_mul(scramble.unwrap_or(self.cells())) > LONG_DRAW
    }

    /// `board` (any board form) checked against the goal.
    fn start(&self, board: &Bound<'_, PyAny>) -> PyResult<Board> {
        self.reachable(board_from_any(board, "state")?)
    }

    /// `board`, or the error saying why it cannot reach the goal.
    fn reachable(&self, board: Board) -> PyResult<Board> {
        match check_solvable(&board, &self.goal) {
            Ok(()) => Ok(board),
            Err(Unsolvable::Size(e)) => Err(parse_error("state", &e)),
            Err(e) => Err(UnsolvableError::new_err(e.to_string())),
        }
    }

    fn action(&self, action: i128) -> PyResult<usize> {
        usize::try_from(action)
            .ok()
            .filter(|&a| a < 4)
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "invalid action {action}: use 0 (up), 1 (down), 2 (left) or 3 (right), the direction the blank moves"
                ))
            })
    }
}

/// What a single step returns: the observation, whether it is the goal, the action mask.
type SingleStep<'py> = (Bound<'py, PyArray2<u8>>, bool, Bound<'py, PyArray1<i8>>);

/// What a batch reset returns: observations and action masks.
type BatchReset<'py> = (Bound<'py, PyArray3<u8>>, Bound<'py, PyArray2<i8>>);

/// One board for the single environment.
#[pyclass(module = "taquin._taquin")]
pub struct Puzzle {
    shape: Shape,
    tiles: Vec<u8>,
    blank: u32,
    differ: u32,
}

impl Puzzle {
    fn cells(&mut self) -> Cells<'_> {
        Cells {
            tiles: &mut self.tiles,
            blank: &mut self.blank,
            differ: &mut self.differ,
        }
    }

    fn set(&mut self, board: &Board) {
        let shape = self.shape.clone();
        shape.load(board, self.cells());
    }
}

#[pymethods]
impl Puzzle {
    /// A puzzle whose goal is `goal` (any board form), standing on `state` (which must reach
    /// the goal), or on the goal when None.
    #[new]
    #[pyo3(signature = (goal, state=None))]
    fn new(goal: &Bound<'_, PyAny>, state: Option<&Bound<'_, PyAny>>) -> PyResult<Puzzle> {
        let shape = Shape::new(board_from_any(goal, "goal")?)?;
        let start = match state {
            Some(state) => shape.start(state)?,
            None => shape.goal.clone(),
        };
        let mut p = Puzzle {
            tiles: vec![0; shape.cells()],
            shape,
            blank: 0,
            differ: 0,
        };
        p.set(&start);
        Ok(p)
    }

    /// Pickling and copying: the goal and the board now, as text.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyType>, (String, String))> {
        let board = self.board()?.inner.to_line();
        Ok((py.get_type::<Puzzle>(), (self.shape.goal.to_line(), board)))
    }

    /// Starts on a board drawn with `seed`: a walk of `scramble` moves, or uniform when None.
    /// Ctrl-C stops a long walk.
    #[pyo3(signature = (seed, scramble=None))]
    fn reset_random(&mut self, py: Python<'_>, seed: u64, scramble: Option<usize>) -> PyResult<()> {
        let shape = &self.shape;
        let board = run_cancellable(py, shape.long_draw(scramble, 1), |limits| {
            shape.draw(scramble, &mut Rng::new(seed), limits)
        })?;
        self.set(&board);
        Ok(())
    }

    /// Starts on `state` (any board form), which must reach the goal.
    fn reset_to(&mut self, state: &Bound<'_, PyAny>) -> PyResult<()> {
        let board = self.shape.start(state)?;
        self.set(&board);
        Ok(())
    }

    /// Moves the blank by `action` (0 = U, 1 = D, 2 = L, 3 = R); returns
    /// `(observation, at_goal, action_mask)`. An illegal move leaves the board as it is.
    fn step<'py>(&mut self, py: Python<'py>, action: i128) -> PyResult<SingleStep<'py>> {
        // Taken as a 128-bit int, so that a huge action gets the message of any other bad one.
        let action = self.shape.action(action)?;
        let shape = self.shape.clone();
        shape.step(action, self.cells());
        Ok((
            self.observation(py)?,
            self.differ == 0,
            self.action_mask(py),
        ))
    }

    /// The board as a (height, width) uint8 array.
    fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u8>>> {
        PyArray1::from_slice(py, &self.tiles).reshape([self.shape.height, self.shape.width])
    }

    /// Legal actions, 1 or 0 in the order U, D, L, R (int8, as gymnasium's masks are).
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let mut mask = [0i8; 4];
        self.shape.mask(self.blank, &mut mask);
        PyArray1::from_slice(py, &mask)
    }

    /// True on the goal.
    #[getter]
    fn at_goal(&self) -> bool {
        self.differ == 0
    }

    /// The board now.
    #[getter]
    fn board(&self) -> PyResult<PyBoard> {
        let tiles = self.tiles.iter().map(|&t| u32::from(t)).collect();
        Board::from_tiles(self.shape.width, self.shape.height, tiles)
            .map(PyBoard::new)
            .map_err(|e| parse_error("state", &e))
    }

    /// The goal.
    #[getter]
    fn goal(&self) -> PyBoard {
        PyBoard::new(self.shape.goal.clone())
    }
}

/// Many boards stepped at once, for the vector environment. A board that reached its goal or
/// its step limit is reset on its next step (gymnasium's "next step" autoreset): that step
/// ignores its action, returns the new board, reward 0 and neither flag.
#[pyclass(module = "taquin._taquin")]
pub struct PuzzleBatch {
    shape: Shape,
    tiles: Vec<u8>,
    blanks: Vec<u32>,
    differ: Vec<u32>,
    steps: Vec<u32>,
    needs_reset: Vec<bool>,
    scramble: Option<usize>,
    max_steps: u32,
    draws: Draws,
}

/// Where a batch draws its boards from: a generator per board drawn, seeded by the last reset's
/// seed and the count of boards drawn since, so that the whole state is two numbers, which a
/// copy or a pickle of the batch carries (the core's generator keeps its state to itself).
#[derive(Clone, Copy)]
struct Draws {
    base: u64,
    count: u64,
}

impl Draws {
    fn new(seed: u64) -> Draws {
        Draws {
            base: Rng::new(seed).next_u64(),
            count: 0,
        }
    }

    /// The generator of the next board.
    fn next(&mut self) -> Rng {
        // Through one SplitMix64 step, so that consecutive counts start unrelated streams, not
        // the same stream shifted by one.
        let seed = Rng::new(self.base.wrapping_add(self.count)).next_u64();
        self.count += 1;
        Rng::new(seed)
    }
}

/// The arguments a batch is made with again when unpickled: count, goal, max_steps, scramble.
type BatchArguments = (usize, String, u32, Option<usize>);

/// What a pickled batch holds besides its arguments: every board's tiles, its steps, whether it
/// awaits its reset, and the [`Draws`] (base, count).
type BatchState = (Vec<u8>, Vec<u32>, Vec<bool>, u64, u64);

/// What a batch step returns: observations, rewards, terminated, truncated, action masks.
type BatchStep<'py> = (
    Bound<'py, PyArray3<u8>>,
    Bound<'py, PyArray1<f32>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray2<i8>>,
);

impl PuzzleBatch {
    /// Starts each board of `indices` (in order) on a board drawn as the batch was asked to.
    /// Ctrl-C stops long walks.
    fn restart(&mut self, py: Python<'_>, indices: &[usize]) -> PyResult<()> {
        let (shape, draws, scramble) = (&self.shape, &mut self.draws, self.scramble);
        let long = shape.long_draw(scramble, indices.len());
        let boards = run_cancellable(py, long, |limits| {
            indices
                .iter()
                .map(|_| shape.draw(scramble, &mut draws.next(), limits))
                .collect::<Result<Vec<_>, _>>()
        })?;
        for (&i, board) in indices.iter().zip(&boards) {
            self.put(i, board);
        }
        Ok(())
    }

    /// Starts board `i` on `board`.
    fn put(&mut self, i: usize, board: &Board) {
        let n = self.shape.cells();
        let cells = Cells {
            tiles: &mut self.tiles[i * n..(i + 1) * n],
            blank: &mut self.blanks[i],
            differ: &mut self.differ[i],
        };
        self.shape.load(board, cells);
        self.steps[i] = 0;
        self.needs_reset[i] = false;
    }

    fn observations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray3<u8>>> {
        PyArray1::from_slice(py, &self.tiles).reshape([
            self.blanks.len(),
            self.shape.height,
            self.shape.width,
        ])
    }

    fn masks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i8>>> {
        let mut mask = vec![0i8; 4 * self.blanks.len()];
        for (out, &b) in mask.chunks_exact_mut(4).zip(&self.blanks) {
            self.shape.mask(b, out);
        }
        PyArray1::from_vec(py, mask).reshape([self.blanks.len(), 4])
    }
}

#[pymethods]
impl PuzzleBatch {
    /// `count` boards with goal `goal`, started by a walk of `scramble` moves (uniform when
    /// None), truncated after `max_steps` steps.
    #[new]
    #[pyo3(signature = (count, goal, max_steps, scramble=None))]
    fn new(
        count: i128,
        goal: &Bound<'_, PyAny>,
        max_steps: u32,
        scramble: Option<usize>,
    ) -> PyResult<PuzzleBatch> {
        // Taken as a 128-bit int, so that any count past the limit gets this message.
        let count = usize::try_from(count)
            .ok()
            .filter(|c| (1..=MAX_ENVS).contains(c))
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "num_envs must be a whole number of boards, 1 or more (at most {MAX_ENVS}, \
                     2**20), not {count}"
                ))
            })?;
        let shape = Shape::new(board_from_any(goal, "goal")?)?;
        let n = shape.cells();
        Ok(PuzzleBatch {
            tiles: vec![0; count * n],
            blanks: vec![0; count],
            differ: vec![0; count],
            steps: vec![0; count],
            needs_reset: vec![true; count],
            shape,
            scramble,
            max_steps,
            draws: Draws::new(0),
        })
    }

    /// Pickling and copying: the arguments, then the state ([`BatchState`]).
    fn __reduce__<'py>(&self, py: Python<'py>) -> (Bound<'py, PyType>, BatchArguments, BatchState) {
        let arguments = (
            self.blanks.len(),
            self.shape.goal.to_line(),
            self.max_steps,
            self.scramble,
        );
        let state = (
            self.tiles.clone(),
            self.steps.clone(),
            self.needs_reset.clone(),
            self.draws.base,
            self.draws.count,
        );
        (py.get_type::<PuzzleBatch>(), arguments, state)
    }

    /// Restores the state `__reduce__` gave, each board checked to reach the goal.
    fn __setstate__(&mut self, state: BatchState) -> PyResult<()> {
        let (tiles, steps, needs_reset, base, count) = state;
        let (n, boards) = (self.shape.cells(), self.blanks.len());
        if tiles.len() != n * boards || steps.len() != boards || needs_reset.len() != boards {
            return Err(PyValueError::new_err(format!(
                "the state is not one of {boards} boards of {n} cells"
            )));
        }
        let (width, height) = (self.shape.width, self.shape.height);
        for (i, cells) in tiles.chunks_exact(n).enumerate() {
            let board = Board::from_tiles(width, height, cells.iter().map(|&t| t.into()).collect())
                .map_err(|e| parse_error("state", &e))?;
            let board = self.shape.reachable(board)?;
            self.put(i, &board);
        }
        self.steps = steps;
        self.needs_reset = needs_reset;
        self.draws = Draws { base, count };
        Ok(())
    }

    /// Draws every board anew from `seed`; returns `(observations, action_masks)`.
    fn reset<'py>(&mut self, py: Python<'py>, seed: u64) -> PyResult<BatchReset<'py>> {
        self.draws = Draws::new(seed);
        let every: Vec<usize> = (0..self.blanks.len()).collect();
        self.restart(py, &every)?;
        Ok((self.observations(py)?, self.masks(py)?))
    }

    /// One step of every board; `actions` holds one action (0-3) per board.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<BatchStep<'py>> {
        let count = self.blanks.len();
        let actions = actions
            .as_slice()
            .map_err(|e| PyValueError::new_err(format!("actions: {e}")))?;
        if actions.len() != count {
            return Err(PyValueError::new_err(format!(
                "{} actions given for {count} boards: give one action per board",
                actions.len()
            )));
        }
        if let Some(&bad) = actions.iter().find(|&&a| !(0..4).contains(&a)) {
            self.shape.action(bad.into())?;
        }
        let n = self.shape.cells();
        let mut rewards = vec![-1.0f32; count];
        let mut terminated = vec![false; count];
        let mut truncated = vec![false; count];
        // The boards that ended last step start anew, drawn in board order, and this step
        // ignores their actions.
        let ended_before = self.needs_reset.clone();
        let ended: Vec<usize> = (0..count).filter(|&i| ended_before[i]).collect();
        self.restart(py, &ended)?;
        for i in 0..count {
            if ended_before[i] {
                rewards[i] = 0.0;
                continue;
            }
            let cells = Cells {
                tiles: &mut self.tiles[i * n..(i + 1) * n],
                blank: &mut self.blanks[i],
                differ: &mut self.differ[i],
            };
            self.shape.step(actions[i] as usize, cells);
            self.steps[i] += 1;
            terminated[i] = self.differ[i] == 0;
            truncated[i] = !terminated[i] && self.steps[i] >= self.max_steps;
            self.needs_reset[i] = terminated[i] || truncated[i];
        }
        Ok((
            self.observations(py)?,
            PyArray1::from_vec(py, rewards),
            PyArray1::from_vec(py, terminated),
            PyArray1::from_vec(py, truncated),
            self.masks(py)?,
        ))
    }

    /// The boards now, as a (count, height, width) uint8 array.
    fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray3<u8>>> {
        self.observations(py)
    }

    /// Puts board `index` on `state` (any board form, which must reach the goal).
    fn set_state(&mut self, index: i128, state: &Bound<'_, PyAny>) -> PyResult<()> {
        // Taken as a 128-bit int, so that a negative index gets this message, not an
        // OverflowError.
        let count = self.blanks.len();
        let index = usize::try_from(index)
            .ok()
            .filter(|&i| i < count)
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "index {index} out of range: there are {count} boards: give 0 to {}",
                    count - 1
                ))
            })?;
        let board = self.shape.start(state)?;
        self.put(index, &board);
        Ok(())
    }
}
