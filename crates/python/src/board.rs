//! `taquin.Board`: an immutable, validated board, hashable and comparable, with the moves of the
//! blank (U, D, L, R name the direction the blank moves).

use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyIterator, PyList, PyString, PyType};
use taquin::notation::Notation;
use taquin::{check_solvable, Board, Move, Unsolvable};

use crate::convert::{board_from_any, goal_for, notation_of, Num};
use crate::errors::{parse_error, InvalidBoardError, UnsolvableError};

/// A sliding-tile board of any size: `width` columns, `height` rows, tiles 1..N-1 and one blank
/// (0). Immutable and hashable; `len(board)` is its number of cells, iterating it gives its
/// tiles row by row, `tile in board` says whether it holds that tile; picklable and copyable.
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

/// Moves from text (`"DLUR"`, or `"R D L2"` in tile notation) or a sequence of moves, in
/// `notation`.
fn moves_from_any(moves: &Bound<'_, PyAny>, notation: Notation) -> PyResult<Vec<Move>> {
    let text = match moves.cast::<PyString>() {
        Ok(s) => s.to_cow()?.into_owned(),
        // Kept apart: in tile notation "L2" then "3" is not "L23".
        Err(_) => moves.extract::<Vec<String>>()?.join(" "),
    };
    // As `taquin verify` reads them: a letter may carry a count (R3 for RRR).
    notation
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
    /// InvalidBoardError for a size no board has.
    #[staticmethod]
    #[pyo3(signature = (width, height=None))]
    fn solved(width: Num<i128>, height: Option<Num<i128>>) -> PyResult<PyBoard> {
        let (width, height) = (width.get("width")?, Num::opt("height", height)?);
        // Sides too large for the core's check (negative ones) get the same exception as those
        // it refuses: one exception for every size no board has.
        let side = |name: &str, value: i128| -> PyResult<usize> {
            usize::try_from(value).map_err(|_| {
                InvalidBoardError::new_err(format!(
                    "invalid {name} {value}: a board has at least 2 {}",
                    if name == "width" { "columns" } else { "rows" }
                ))
            })
        };
        let width = side("width", width)?;
        let height = match height {
            Some(height) => side("height", height)?,
            None => width,
        };
        Board::solved(width, height)
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

    /// The same as `to_array` (of `dtype` when given), so `numpy.asarray(board)` works. As
    /// NumPy 2's protocol asks, `copy=False` raises ValueError: a board holds no array to share,
    /// its tiles are always copied into a new one.
    #[pyo3(signature = (dtype=None, copy=None))]
    fn __array__<'py>(
        &self,
        py: Python<'py>,
        dtype: Option<&Bound<'py, PyAny>>,
        copy: Option<bool>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if copy == Some(false) {
            return Err(PyValueError::new_err(
                "a taquin.Board cannot be seen as an array without a copy (copy=False): its \
                 tiles are copied into a new array; leave copy out (numpy.asarray(board))",
            ));
        }
        let array = self.to_array(py)?.into_any();
        match dtype {
            // Converted in place: the array is new already, a second copy would be waste.
            Some(d) if !d.is_none() => {
                let kwargs = PyDict::new(py);
                kwargs.set_item("copy", false)?;
                array.call_method("astype", (d,), Some(&kwargs))
            }
            _ => Ok(array),
        }
    }

    /// The moves the blank can make, in the order U, D, L, R, each with the board it leads to;
    /// each written in `notation` ("blank", the default: where the blank goes; "tiles": where
    /// the tile goes, the opposite letter).
    ///
    /// >>> [m for m, _ in Board("1 2 3/4 5 6/7 8 0").neighbors()]
    /// ['U', 'L']
    /// >>> [m for m, _ in Board("1 2 3/4 5 6/7 8 0").neighbors(notation="tiles")]
    /// ['D', 'R']
    #[pyo3(signature = (notation="blank"))]
    fn neighbors(&self, notation: Option<&str>) -> PyResult<Vec<(String, PyBoard)>> {
        let notation = notation_of(notation)?;
        Ok(self
            .inner
            .legal_moves()
            .filter_map(|m| {
                self.inner
                    .moved(m)
                    .map(|b| (notation.format(&[m]), PyBoard::new(b)))
            })
            .collect())
    }

    /// The board after `moves` (text such as "DLUR" or "D L2 U", or a list of moves), in
    /// `notation`: "blank" (the default: each letter names the direction the blank moves) or
    /// "tiles" (the direction the tiles slide, as `solve(..., notation="tiles")` writes them);
    /// a count after a letter repeats it, as the command line's `verify` reads them. Raises
    /// InvalidBoardError when a move leaves the board.
    ///
    /// >>> Board("1 2 3/4 5 6/0 7 8").apply("L2", notation="tiles") == Board.solved(3)
    /// True
    #[pyo3(signature = (moves, notation="blank"))]
    fn apply(&self, moves: &Bound<'_, PyAny>, notation: Option<&str>) -> PyResult<PyBoard> {
        let notation = notation_of(notation)?;
        let moves = moves_from_any(moves, notation)?;
        let mut board = self.inner.clone();
        board.apply_all(&moves).map_err(|i| {
            InvalidBoardError::new_err(match notation {
                Notation::Tiles => format!(
                    "invalid moves: move {} ({}, counting each tile of a run) slides no tile: \
                     there is none on that side of the blank",
                    i + 1,
                    notation.format(&moves[i..=i])
                ),
                _ => format!(
                    "invalid moves: move {} ({}) leaves the board: the blank is on the edge",
                    i + 1,
                    moves[i]
                ),
            })
        })?;
        Ok(PyBoard::new(board))
    }

    /// True when `goal` (default: tiles in order, blank last) can be reached from this board.
    #[pyo3(signature = (goal=None))]
    fn is_solvable(&self, goal: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
        let goal = goal_for(&self.inner, goal)?;
        match check_solvable(&self.inner, &goal) {
            Ok(()) => Ok(true),
            Err(Unsolvable::Size(e)) => Err(parse_error("goal", &e)),
            // Parity, and any reason the core adds later: not reachable.
            Err(_) => Ok(false),
        }
    }

    /// Raises UnsolvableError, with the parity reason, when `goal` cannot be reached.
    #[pyo3(signature = (goal=None))]
    fn check_solvable(&self, goal: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let goal = goal_for(&self.inner, goal)?;
        match check_solvable(&self.inner, &goal) {
            Ok(()) => Ok(()),
            Err(Unsolvable::Size(e)) => Err(parse_error("goal", &e)),
            // Parity, and any reason the core adds later.
            Err(e) => Err(UnsolvableError::new_err(e.to_string())),
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

    /// The tiles in row-major order, 0 for the blank, as `tiles` lists them.
    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        PyList::new(py, self.inner.tiles())?.try_iter()
    }

    /// True when `tile` is one of this board's tiles (0, the blank, included).
    fn __contains__(&self, tile: &Bound<'_, PyAny>) -> bool {
        // A bool is an int to Python, but True is no tile 1 (as a board's reader says).
        !tile.is_instance_of::<PyBool>()
            && tile
                .extract::<i128>()
                .is_ok_and(|t| (0..self.inner.len() as i128).contains(&t))
    }

    /// Pickling and copying: the board as its text, which `Board` reads back.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyType>, (String,))> {
        Ok((py.get_type::<PyBoard>(), (self.inner.to_line(),)))
    }
}
