//! Many boards at once as an integer numpy array of shape (n, cells) or (n, height, width),
//! read in place whatever its integer dtype and byte order, each row checked to be a board. The
//! one reader of board arrays: `heuristic` and `solve_batch` both read them through it.

use numpy::{PyArrayDescrMethods, PyReadonlyArrayDyn, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use taquin::board::size_with_article;
use taquin::{Board, Tile};

use crate::errors::{at_index, parse_error, InvalidBoardError};

/// An integer element type a board array may have.
pub trait TileValue: numpy::Element + Copy + Send + Sync {
    /// The value as a tile number, `None` when negative or too large for one.
    fn tile(self) -> Option<Tile>;
    /// The value as written, for error messages.
    fn wide(self) -> i128;
}

macro_rules! tile_value {
    ($($t:ty),*) => {$(
        impl TileValue for $t {
            #[inline]
            fn tile(self) -> Option<Tile> {
                Tile::try_from(self).ok()
            }
            fn wide(self) -> i128 {
                i128::from(self)
            }
        }
    )*};
}
tile_value!(u8, u16, u32, u64, i8, i16, i32, i64);

/// The array's elements, by dtype.
pub enum Cells<'py> {
    U8(PyReadonlyArrayDyn<'py, u8>),
    U16(PyReadonlyArrayDyn<'py, u16>),
    U32(PyReadonlyArrayDyn<'py, u32>),
    U64(PyReadonlyArrayDyn<'py, u64>),
    I8(PyReadonlyArrayDyn<'py, i8>),
    I16(PyReadonlyArrayDyn<'py, i16>),
    I32(PyReadonlyArrayDyn<'py, i32>),
    I64(PyReadonlyArrayDyn<'py, i64>),
}

/// Runs `$body` with `$slice` bound to the array's elements as a slice of their own type.
macro_rules! with_slice {
    ($cells:expr, |$slice:ident| $body:expr) => {
        match $cells {
            Cells::U8(a) => {
                let $slice = crate::arrays::contiguous(a)?;
                $body
            }
            Cells::U16(a) => {
                let $slice = crate::arrays::contiguous(a)?;
                $body
            }
            Cells::U32(a) => {
                let $slice = crate::arrays::contiguous(a)?;
                $body
            }
            Cells::U64(a) => {
                let $slice = crate::arrays::contiguous(a)?;
                $body
            }
            Cells::I8(a) => {
                let $slice = crate::arrays::contiguous(a)?;
                $body
            }
            Cells::I16(a) => {
                let $slice = crate::arrays::contiguous(a)?;
                $body
            }
            Cells::I32(a) => {
                let $slice = crate::arrays::contiguous(a)?;
                $body
            }
            Cells::I64(a) => {
                let $slice = crate::arrays::contiguous(a)?;
                $body
            }
        }
    };
}
pub(crate) use with_slice;

/// The elements of a C-contiguous array (the extraction made it so).
pub fn contiguous<'a, T: TileValue>(a: &'a PyReadonlyArrayDyn<'_, T>) -> PyResult<&'a [T]> {
    a.as_slice()
        .map_err(|e| PyValueError::new_err(format!("internal error: {e}")))
}

/// Boards as rows of an integer array.
pub struct BoardArray<'py> {
    /// The elements.
    pub cells: Cells<'py>,
    /// Columns of each board.
    pub width: usize,
    /// Rows of each board.
    pub height: usize,
    /// The shape (rows, columns) of a 2-D array read without `width`, which may be one board
    /// given where many belong: said when its rows are no boards but the whole is one.
    shape_2d: Option<(usize, usize)>,
}

impl<'py> BoardArray<'py> {
    /// Reads `value` (an array, or anything `numpy.ascontiguousarray` turns into an integer one)
    /// as (n, cells) with square boards unless `width` is given, or as (n, height, width);
    /// `None` when it holds no boards and gives no size (`[]`). `what` names it in errors.
    pub fn extract(
        value: &Bound<'py, PyAny>,
        width: Option<usize>,
        what: &str,
    ) -> PyResult<Option<BoardArray<'py>>> {
        let py = value.py();
        let np = py.import("numpy")?;
        let mut array = np.call_method1("ascontiguousarray", (value,))?;
        let untyped = array
            .cast::<numpy::PyUntypedArray>()
            .map_err(|_| PyValueError::new_err(format!("invalid {what}: not an array")))?;
        let shape = untyped.shape().to_vec();
        let dtype = untyped.dtype();
        let integers = dtype.kind() == b'i' || dtype.kind() == b'u';
        if untyped.len() == 0 {
            if shape.len() == 1 {
                return Ok(None);
            }
            // No tiles to read: numpy gives an empty list (`np.zeros((0, 9))` too) its default
            // dtype, float64, which says nothing about the tiles there are none of.
            if !integers {
                array = array.call_method1("astype", (np.getattr("uint8")?,))?;
            }
        } else if !integers {
            return Err(PyValueError::new_err(format!(
                "invalid {what}: the array holds {dtype}, not integers: give tile numbers, 0 for \
                 the blank"
            )));
        } else if dtype.is_native_byteorder() == Some(false) {
            // The typed views below are of native integers: a big-endian array (">i4", as read
            // from a file written elsewhere) is converted, as numpy converts it for arithmetic.
            let native = dtype.call_method1("newbyteorder", ("=",))?;
            array = array.call_method1("astype", (native,))?;
        }
        let shape_2d = match (shape.as_slice(), width) {
            ([rows, columns], None) => Some((*rows, *columns)),
            _ => None,
        };
        let (width, height) = board_size(&shape, width, what)?;
        Board::solved(width, height)
            .map_err(|e| InvalidBoardError::new_err(format!("invalid {what}: {e}")))?;
        let cells = if let Ok(a) = array.extract::<PyReadonlyArrayDyn<u8>>() {
            Cells::U8(a)
        } else if let Ok(a) = array.extract::<PyReadonlyArrayDyn<u16>>() {
            Cells::U16(a)
        } else if let Ok(a) = array.extract::<PyReadonlyArrayDyn<u32>>() {
            Cells::U32(a)
        } else if let Ok(a) = array.extract::<PyReadonlyArrayDyn<u64>>() {
            Cells::U64(a)
        } else if let Ok(a) = array.extract::<PyReadonlyArrayDyn<i8>>() {
            Cells::I8(a)
        } else if let Ok(a) = array.extract::<PyReadonlyArrayDyn<i16>>() {
            Cells::I16(a)
        } else if let Ok(a) = array.extract::<PyReadonlyArrayDyn<i32>>() {
            Cells::I32(a)
        } else {
            Cells::I64(array.extract::<PyReadonlyArrayDyn<i64>>()?)
        };
        Ok(Some(BoardArray {
            cells,
            width,
            height,
            shape_2d,
        }))
    }

    /// Cells of one board.
    pub fn cells(&self) -> usize {
        self.width * self.height
    }

    /// Every row as a core board, or the error of the board at its place (see
    /// [`crate::errors::at_index`]).
    pub fn boards(&self, py: Python<'_>) -> PyResult<Vec<PyResult<Board>>> {
        let n = self.cells();
        Ok(with_slice!(&self.cells, |data| {
            (0..data.len() / n)
                .map(|i| self.board(py, data, i))
                .collect()
        }))
    }

    /// Checks, without the GIL, that every row is a board; the error of the first that is not.
    /// Cheaper than [`BoardArray::boards`]: nothing is built for the rows that are boards.
    pub fn check(&self, py: Python<'_>) -> PyResult<()> {
        let (w, h) = (self.width, self.height);
        with_slice!(&self.cells, |data| {
            match py.detach(|| first_bad_row(data, w, h)) {
                Some(i) => self.board(py, data, i).map(|_| ()),
                None => Ok(()),
            }
        })
    }

    /// The board of row `i` of `data` (this array's elements), or the error saying what is
    /// wrong with it, named by its place, as a single board's would.
    fn board<T: TileValue>(&self, py: Python<'_>, data: &[T], i: usize) -> PyResult<Board> {
        let (w, h, n) = (self.width, self.height, self.cells());
        let row = &data[i * n..(i + 1) * n];
        let board = row_tiles(row, w, h)
            .and_then(|tiles| Board::from_tiles(w, h, tiles).map_err(|e| parse_error("board", &e)));
        board.map_err(|e| {
            let e = match self.one_board(data) {
                Some(hint) => InvalidBoardError::new_err(format!("{}{hint}", e.value(py))),
                None => e,
            };
            at_index(py, e, i)
        })
    }

    /// When the whole of a 2-D array (read without `width`) is one board: the advice that says
    /// how to give it as one, for the error of its rows, which then were never meant as boards.
    fn one_board<T: TileValue>(&self, data: &[T]) -> Option<String> {
        let (rows, columns) = self.shape_2d?;
        let tiles = row_tiles(data, columns, rows).ok()?;
        Board::from_tiles(columns, rows, tiles).ok()?;
        Some(format!(
            " (this ({rows}, {columns}) array is one {columns}x{rows} board: to have it read as \
             one, give [board], an array of shape (1, {rows}, {columns}) or a taquin.Board)"
        ))
    }
}

/// Columns and rows of each board of an array of shape `shape`, given `width` or not.
fn board_size(shape: &[usize], width: Option<usize>, what: &str) -> PyResult<(usize, usize)> {
    match (shape, width) {
        ([_, h, w], None) => Ok((*w, *h)),
        ([_, h, w], Some(given)) if given == *w => Ok((*w, *h)),
        ([_, _, w], Some(given)) => Err(PyValueError::new_err(format!(
            "invalid {what}: width={given} but the array's boards are {w} wide"
        ))),
        ([_, cells], Some(w)) if w > 0 && cells % w == 0 => Ok((w, cells / w)),
        ([_, cells], Some(w)) => Err(PyValueError::new_err(format!(
            "invalid {what}: rows of {cells} cells cannot be boards {w} wide: the width must \
             divide the number of cells"
        ))),
        ([rows, cells], None) => {
            let side = (*cells as f64).sqrt().round() as usize;
            if side * side == *cells {
                return Ok((side, side));
            }
            let one =
                format!("give [board], an array of shape (1, {rows}, {cells}) or a taquin.Board");
            Err(PyValueError::new_err(if rows == cells {
                // np.asarray(board) of a 3x3 board: 3 boards of 3 cells, or that one board?
                format!(
                    "invalid {what}: a ({rows}, {cells}) array is ambiguous: {rows} boards of \
                     {cells} cells each, or one {cells}x{rows} board; for one board {one}; for \
                     boards of {cells} cells give width= (columns)"
                )
            } else {
                format!(
                    "invalid {what}: rows of {cells} cells are not square boards: give width= \
                     (columns); for one board of this shape, {one}"
                )
            }))
        }
        // One dimension: most likely one board's tiles, where rows of them belong.
        ([_], _) => Err(PyValueError::new_err(format!(
            "invalid {what}: expected an array of shape (n, cells) or (n, height, width), got 1 \
             dimension: for one board, give [tiles] (shape (1, cells)) or a taquin.Board"
        ))),
        (other, _) => Err(PyValueError::new_err(format!(
            "invalid {what}: expected an array of shape (n, cells) or (n, height, width), got {} \
             dimensions",
            other.len()
        ))),
    }
}

/// The tiles of one row, or the error naming the first value that is no tile number.
fn row_tiles<T: TileValue>(row: &[T], width: usize, height: usize) -> PyResult<Vec<Tile>> {
    row.iter()
        .map(|&v| {
            v.tile().ok_or_else(|| {
                InvalidBoardError::new_err(format!(
                    "invalid board: tile {} is out of range: {} board holds tiles 1 to {}",
                    v.wide(),
                    size_with_article(width, height),
                    width * height - 1
                ))
            })
        })
        .collect()
}

/// The first row of `data` that is not a board (each of 0..cells once), found cheaply: a stamp
/// per tile number instead of a fresh set per row.
fn first_bad_row<T: TileValue>(data: &[T], width: usize, height: usize) -> Option<usize> {
    let cells = width * height;
    let mut seen = vec![0u32; cells];
    data.chunks_exact(cells).enumerate().position(|(i, row)| {
        let stamp = (i as u32).wrapping_add(1).max(1);
        if stamp == 1 {
            seen.fill(0);
        }
        !row.iter().all(|&v| match v.tile() {
            Some(t) if (t as usize) < cells && seen[t as usize] != stamp => {
                seen[t as usize] = stamp;
                true
            }
            _ => false,
        })
    })
}
