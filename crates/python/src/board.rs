//! `taquin.Board`: an immutable, validated board, hashable and comparable, with the moves of the
//! blank (U, D, L, R name the direction the blank moves).

use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyString;
use taquin::notation::Notation;
use taquin::{check_solvable, Board, Move, Unsolvable};

use crate::convert::{board_from_any, goal_for, in_range, in_range_opt};
use crate::errors::{parse_error, InvalidBoardError, UnsolvableError};

/// A sliding-tile board of any size: `width` columns, `height` rows, tiles 1..N-1 and one blank
/// (0).
///
/// >>> b = Board("6 4 7/8 5 0/3 2 1")
/// >>> b.width, b.height, b.blank
/// (3, 3, 5)
/// >>> Board([[1, 2, 3], [4, 0, 6], [7, 5, 8]]).apply("DR") == Board.solved(3, 3)
/// True
#[pyclass(name = "Board", module = "taquin", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyBoard {
    pub inner: Board,
}

impl PyBoard {
    /// Wraps a core board.
    pub fn new(inner: Board) -> PyBoard {
        PyBoard { inner }
    }
}

/// Moves from text (`"DLUR"`) or a sequence of letters.
fn moves_from_any(moves: &Bound<'_, PyAny>) -> PyResult<Vec<Move>> {
    let text = match moves.cast::<PyString>() {
        Ok(s) => s.to_cow()?.into_owned(),
        Err(_) => moves.extract::<Vec<String>>()?.concat(),
    };
    // As `taquin verify` reads them: a letter may carry a count (R3 for RRR).
    Notation::Blank
        .parse(&text)
        .map_err(|e| InvalidBoardError::new_err(format!("invalid moves: {e}")))
}

#[pymethods]
impl PyBoard {
    /// Parses a board: text as on the command line (rows separated by '/' or newlines, tiles by
    /// spaces or commas, the blank 0, '_' or '.'), a list of rows, or a 2-D array.
    #[new]
    fn py_new(rows: &Bound<'_, PyAny>) -> PyResult<PyBoard> {
        board_from_any(rows, "board").map(PyBoard::new)
    }

    /// The usual goal of a `width` x `height` board: tiles in order, the blank last.
    #[staticmethod]
    #[pyo3(signature = (width, height=None))]
    fn solved(width: i128, height: Option<i128>) -> PyResult<PyBoard> {
        let width: usize = in_range("width", width, "a board has at least 2 columns")?;
        let height: Option<usize> = in_range_opt("height", height, "a board has at least 2 rows")?;
        Board::solved(width, height.unwrap_or(width))
            .map(PyBoard::new)
            .map_err(|e| parse_error("board", &e))
    }

    /// Columns.
    #[getter]
    fn width(&self) -> usize {
        self.inner.width()
    }

    /// Rows.
    #[getter]
    fn height(&self) -> usize {
        self.inner.height()
    }

    /// The tiles in row-major order, 0 for the blank.
    #[getter]
    fn tiles(&self) -> Vec<u32> {
        self.inner.tiles().to_vec()
    }

    /// The rows, as lists of tiles.
    #[getter]
    fn rows(&self) -> Vec<Vec<u32>> {
        self.inner
            .tiles()
            .chunks(self.inner.width())
            .map(<[u32]>::to_vec)
            .collect()
    }

    /// Row-major index of the blank.
    #[getter]
    fn blank(&self) -> usize {
        self.inner.blank()
    }

    /// The board as a (height, width) array of tiles (dtype uint32).
    fn to_array<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u32>>> {
        PyArray1::from_slice(py, self.inner.tiles())
            .reshape([self.inner.height(), self.inner.width()])
    }

    /// The same as `to_array`, so `numpy.asarray(board)` works.
    #[pyo3(signature = (dtype=None, copy=None))]
    fn __array__<'py>(
        &self,
        py: Python<'py>,
        dtype: Option<&Bound<'py, PyAny>>,
        copy: Option<bool>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let _ = copy;
        let array = self.to_array(py)?.into_any();
        match dtype {
            Some(d) if !d.is_none() => array.call_method1("astype", (d,)),
            _ => Ok(array),
        }
    }

    /// The moves the blank can make, in the order U, D, L, R, each with the board it leads to.
    ///
    /// >>> [m for m, _ in Board("1 2 3/4 5 6/7 8 0").neighbors()]
    /// ['U', 'L']
    fn neighbors(&self) -> Vec<(String, PyBoard)> {
        self.inner
            .legal_moves()
            .filter_map(|m| {
                self.inner
                    .moved(m)
                    .map(|b| (m.letter().to_string(), PyBoard::new(b)))
            })
            .collect()
    }

    /// The board after `moves` (text such as "DLUR" or "D L2 U", or a list of letters; each
    /// names the direction the blank moves, a count after it repeats it, as the command line's
    /// `verify` reads them). Raises InvalidBoardError when a move leaves the board.
    fn apply(&self, moves: &Bound<'_, PyAny>) -> PyResult<PyBoard> {
        let moves = moves_from_any(moves)?;
        let mut board = self.inner.clone();
        board.apply_all(&moves).map_err(|i| {
            InvalidBoardError::new_err(format!(
                "invalid moves: move {} ({}) leaves the board: the blank is on the edge",
                i + 1,
                moves[i]
            ))
        })?;
        Ok(PyBoard::new(board))
    }

    /// True when `goal` (default: tiles in order, blank last) can be reached from this board.
    #[pyo3(signature = (goal=None))]
    fn is_solvable(&self, goal: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
        let goal = goal_for(&self.inner, goal)?;
        match check_solvable(&self.inner, &goal) {
            Ok(()) => Ok(true),
            Err(Unsolvable::Parity(_)) => Ok(false),
            Err(Unsolvable::Size(e)) => Err(parse_error("goal", &e)),
        }
    }

    /// Raises UnsolvableError, with the parity reason, when `goal` cannot be reached.
    #[pyo3(signature = (goal=None))]
    fn check_solvable(&self, goal: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let goal = goal_for(&self.inner, goal)?;
        match check_solvable(&self.inner, &goal) {
            Ok(()) => Ok(()),
            Err(e @ Unsolvable::Parity(_)) => Err(UnsolvableError::new_err(e.to_string())),
            Err(Unsolvable::Size(e)) => Err(parse_error("goal", &e)),
        }
    }

    /// The board as one line of text, as the CLI writes it: "6 4 7/8 5 0/3 2 1".
    fn __str__(&self) -> String {
        self.inner.to_line()
    }

    fn __repr__(&self) -> String {
        format!("Board(\"{}\")", self.inner.to_line())
    }

    fn __len__(&self) -> usize {
        self.inner.len()
    }
}
