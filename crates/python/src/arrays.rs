//! Many boards at once as an integer numpy array of shape (n, cells) or (n, height, width),
//! read in place whatever its integer dtype, each row checked to be a board.

use numpy::{PyArrayDescrMethods, PyReadonlyArrayDyn, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use taquin::{Board, Tile};

use crate::errors::InvalidBoardError;

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
}

impl<'py> BoardArray<'py> {
    /// Reads `value` (an array, or anything `numpy.ascontiguousarray` turns into an integer one)
    /// as (n, cells) with square boards unless `width` is given, or as (n, height, width).
    pub fn extract(
        value: &Bound<'py, PyAny>,
        width: Option<usize>,
        what: &str,
    ) -> PyResult<BoardArray<'py>> {
        let py = value.py();
        let np = py.import("numpy")?;
        let array = np.call_method1("ascontiguousarray", (value,))?;
        let untyped = array
            .cast::<numpy::PyUntypedArray>()
            .map_err(|_| PyValueError::new_err(format!("invalid {what}: not an array")))?;
        let dtype = untyped.dtype();
        if dtype.kind() != b'i' && dtype.kind() != b'u' {
            return Err(PyValueError::new_err(format!(
                "invalid {what}: the array holds {}, not integers: give tile numbers, 0 for the blank",
                dtype
            )));
        }
        let shape = untyped.shape().to_vec();
        let (width, height) = match (shape.as_slice(), width) {
            ([_, h, w], None) => (*w, *h),
            ([_, h, w], Some(given)) if given == *w => (*w, *h),
            ([_, _, w], Some(given)) => {
                return Err(PyValueError::new_err(format!(
                    "invalid {what}: width={given} but the array's boards are {w} wide"
                )))
            }
            ([_, cells], Some(w)) if w > 0 && cells % w == 0 => (w, cells / w),
            ([_, cells], Some(w)) => {
                return Err(PyValueError::new_err(format!(
                    "invalid {what}: rows of {cells} cells cannot be boards {w} wide: the width must divide the number of cells"
                )))
            }
            ([_, cells], None) => {
                let side = (*cells as f64).sqrt().round() as usize;
                if side * side != *cells {
                    return Err(PyValueError::new_err(format!(
                        "invalid {what}: rows of {cells} cells are not square boards: give width= (columns)"
                    )));
                }
                (side, side)
            }
            (other, _) => {
                return Err(PyValueError::new_err(format!(
                    "invalid {what}: expected an array of shape (n, cells) or (n, height, width), got {} dimension{}",
                    other.len(),
                    if other.len() == 1 { "" } else { "s" }
                )))
            }
        };
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
        Ok(BoardArray {
            cells,
            width,
            height,
        })
    }

    /// Cells of one board.
    pub fn cells(&self) -> usize {
        self.width * self.height
    }

    /// Every row as a validated core board.
    pub fn boards(&self) -> PyResult<Vec<Board>> {
        let (w, h, n) = (self.width, self.height, self.cells());
        with_slice!(&self.cells, |data| {
            data.chunks_exact(n.max(1))
                .enumerate()
                .map(|(i, row)| {
                    let tiles = row_tiles(row, i, w, h)?;
                    Board::from_tiles(w, h, tiles)
                        .map_err(|e| InvalidBoardError::new_err(format!("invalid board {i}: {e}")))
                })
                .collect()
        })
    }
}

/// The tiles of row `i`, or the error naming the first value that is no tile number.
pub fn row_tiles<T: TileValue>(
    row: &[T],
    i: usize,
    width: usize,
    height: usize,
) -> PyResult<Vec<Tile>> {
    row.iter()
        .map(|&v| {
            v.tile().ok_or_else(|| {
                InvalidBoardError::new_err(format!(
                    "invalid board {i}: tile {} is out of range: a {width}x{height} board holds tiles 1 to {}",
                    v.wide(),
                    width * height - 1
                ))
            })
        })
        .collect()
}

/// Checks that every row of `data` is a board (each of 0..cells once), cheaply: a stamp per
/// tile number instead of a fresh set per row. The first bad row gets the core's message.
pub fn check_rows<T: TileValue>(data: &[T], width: usize, height: usize) -> PyResult<()> {
    let cells = width * height;
    let mut seen = vec![0u32; cells];
    for (i, row) in data.chunks_exact(cells).enumerate() {
        let stamp = (i as u32).wrapping_add(1).max(1);
        if stamp == 1 {
            seen.fill(0);
        }
        let ok = row.iter().all(|&v| match v.tile() {
            Some(t) if (t as usize) < cells && seen[t as usize] != stamp => {
                seen[t as usize] = stamp;
                true
            }
            _ => false,
        });
        if !ok {
            let tiles = row_tiles(row, i, width, height)?;
            return Err(match Board::from_tiles(width, height, tiles) {
                Err(e) => InvalidBoardError::new_err(format!("invalid board {i}: {e}")),
                Ok(_) => PyValueError::new_err(format!("internal error: board {i} rejected")),
            });
        }
    }
    Ok(())
}
