//! Python values in, core values out: boards from text, `Board`s, lists of rows or 2-D arrays;
//! sizes such as `"4x4"`; algorithm and heuristic names. Every board goes through the core's
//! parser, so every part of taquin accepts and rejects the same boards with the same words.

use numpy::PyUntypedArrayMethods;
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyFrozenSet, PyList, PySet, PyString, PyTuple};
use taquin::board::MAX_SIDE;
use taquin::notation::Notation;
use taquin::{Algorithm, Board, HeuristicKind, ParseError};

use crate::board::PyBoard;
use crate::errors::parse_error;

/// A board from text (`"1 2 3/4 5 6/7 8 0"`), a [`PyBoard`], or rows (a list of lists or a 2-D
/// array; the blank is `0`, `"_"` or `"."`). `what` names it in errors (`board`, `goal`).
pub fn board_from_any(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Board> {
    if let Ok(board) = value.cast::<PyBoard>() {
        return Ok(board.get().inner.clone());
    }
    let text = if let Ok(s) = value.cast::<PyString>() {
        s.to_cow()?.into_owned()
    } else if let Ok(bytes) = value.cast::<PyBytes>() {
        // Text read from a file in binary mode: its bytes are the board's text, not tiles.
        String::from_utf8(bytes.as_bytes().to_vec()).map_err(|_| {
            crate::errors::InvalidBoardError::new_err(format!(
                "invalid {what}: these bytes are not UTF-8 text: decode them first, or give \
                 the board as text"
            ))
        })?
    } else {
        rows_text(value, what)?
    };
    // The core's one reader of board text and of the n-puzzle project's (a size line, then
    // the rows, `#` comments), as the command line and the web API read them.
    taquin::npuzzle_file::parse_board(&text).map_err(|e| parse_error(what, &e))
}

/// Rows of tiles written as board text, so that the core's parser checks them.
fn rows_text(value: &Bound<'_, PyAny>, what: &str) -> PyResult<String> {
    let not_rows = || {
        crate::errors::InvalidBoardError::new_err(format!(
            "invalid {what}: give text such as \"1 2 3/4 5 6/7 8 0\", a taquin.Board, a list of \
             rows or a 2-D array, not {}",
            value
                .get_type()
                .name()
                .map_or_else(|_| "this value".to_string(), |n| n.to_string())
        ))
    };
    // An array of another dimension would otherwise be read element by element: a 3-D array's
    // "tiles" are whole rows, whose text the parser can only call "not a tile".
    if let Ok(array) = value.cast::<numpy::PyUntypedArray>() {
        let shape = array.shape();
        if shape.len() != 2 {
            return Err(crate::errors::InvalidBoardError::new_err(format!(
                "invalid {what}: a board array has 2 dimensions (rows, columns), this one has {} \
                 (shape {}): reshape it to (height, width); many boards go to \
                 solve_batch or heuristic",
                shape.len(),
                python_shape(shape)
            )));
        }
    }
    refuse_unordered(value, what)?;
    // Read no more than the largest board holds, plus one to tell that there are more: an
    // endless iterable (itertools.repeat) would otherwise be read until memory runs out, with
    // the GIL held and Ctrl-C unheard.
    let items: Vec<Bound<'_, PyAny>> = value
        .try_iter()
        .map_err(|_| not_rows())?
        .take(MAX_TILES + 1)
        .collect::<PyResult<_>>()?;
    if items.len() > MAX_TILES {
        return Err(too_large(what, &format!("more than {MAX_TILES} tiles")));
    }
    // A row is a sequence of tiles; text is one tile (or a row written as text, said below).
    let is_row =
        |item: &Bound<'_, PyAny>| !item.is_instance_of::<PyString>() && item.try_iter().is_ok();
    // A flat list of k*k tiles is a k x k board, as one line of k*k tiles is in text. Each
    // tile is read on its own, so that a bad one (6.0, a huge number) gets its own message.
    if !items.iter().any(is_row) {
        let row_as_text = |item: &&Bound<'_, PyAny>| {
            item.cast::<PyString>()
                .ok()
                .and_then(|s| s.to_cow().ok().map(|t| t.trim().contains(SEPARATORS)))
                .unwrap_or(false)
        };
        if let Some(text) = items.iter().find(row_as_text) {
            return Err(crate::errors::InvalidBoardError::new_err(format!(
                "invalid {what}: {} is a row written as text, in a list: give the whole board \
                 as one text (\"1 2 3/4 5 6/7 8 0\") or each row as a list of tiles",
                text.repr()?
            )));
        }
        let tokens = items
            .iter()
            .map(|t| tile_token(t, what, 1))
            .collect::<PyResult<Vec<_>>>()?;
        return Ok(tokens.join(" "));
    }
    if items.len() > MAX_SIDE {
        return Err(too_large(what, &format!("{} rows", items.len())));
    }
    let mut rows = Vec::new();
    for (r, row) in items.into_iter().enumerate() {
        if !is_row(&row) {
            return Err(crate::errors::InvalidBoardError::new_err(format!(
                "invalid {what}: row {} is {}, not a list of tiles: give every row as a list, \
                 or every tile in one flat list",
                r + 1,
                row.repr()?
            )));
        }
        refuse_unordered(&row, what)?;
        let mut tokens = Vec::new();
        for tile in row.try_iter()?.take(MAX_SIDE + 1) {
            tokens.push(tile_token(&tile?, what, r + 1)?);
        }
        if tokens.len() > MAX_SIDE {
            return Err(too_large(
                what,
                &format!("row {} has more than {MAX_SIDE} tiles", r + 1),
            ));
        }
        rows.push(tokens.join(" "));
    }
    Ok(rows.join("/"))
}

/// What separates tiles in board text: a token holding one is not one tile.
const SEPARATORS: [char; 5] = [' ', ',', '/', '\n', ';'];

/// An error for a set (of tiles or a row's): it has no order, so its tiles would be laid out
/// in whatever order its hashes give.
fn refuse_unordered(value: &Bound<'_, PyAny>, what: &str) -> PyResult<()> {
    if value.is_instance_of::<PySet>() || value.is_instance_of::<PyFrozenSet>() {
        return Err(crate::errors::InvalidBoardError::new_err(format!(
            "invalid {what}: a set has no order, so its tiles would be laid out in an arbitrary \
             one: give them in a list, in board order"
        )));
    }
    Ok(())
}

/// The most tiles a board has: [`MAX_SIDE`] x [`MAX_SIDE`].
const MAX_TILES: usize = MAX_SIDE * MAX_SIDE;

/// The error for rows or tiles past the largest board (`found` says what was found).
fn too_large(what: &str, found: &str) -> PyErr {
    crate::errors::InvalidBoardError::new_err(format!(
        "invalid {what}: {found}: the largest board is {MAX_SIDE}x{MAX_SIDE} (each side at most \
         {MAX_SIDE}, so at most {MAX_TILES} tiles)"
    ))
}

/// An array shape as Python writes it: `(2, 2, 2)`, `(4,)`, `()`.
fn python_shape(shape: &[usize]) -> String {
    match shape {
        [one] => format!("({one},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// One tile as a token of board text: integers (numpy's too) as numbers, strings as written.
/// `row` (from 1) names the row in errors, as the core's parser does.
fn tile_token(tile: &Bound<'_, PyAny>, what: &str, row: usize) -> PyResult<String> {
    if let Ok(s) = tile.cast::<PyString>() {
        // A token with a separator inside would split into several tiles; keep it one bad token.
        return Ok(s.to_cow()?.replace(SEPARATORS, "?"));
    }
    // A bool is an int to Python: without this, True would silently be tile 1.
    if tile.is_instance_of::<PyBool>() {
        return Err(crate::errors::InvalidBoardError::new_err(format!(
            "invalid {what}: row {row}: {} is not a tile: use whole numbers for tiles and 0, '_' \
             or '.' for the blank",
            tile.str()?
        )));
    }
    if let Ok(n) = tile.extract::<i128>() {
        return Ok(n.to_string());
    }
    // A sequence where a tile belongs: rows nested one level too deep (a 3-D list).
    if tile.try_iter().is_ok() {
        return Err(crate::errors::InvalidBoardError::new_err(format!(
            "invalid {what}: row {row} holds {} where a tile belongs: a board is a list of rows \
             of tiles (2 dimensions)",
            tile.repr()?
        )));
    }
    Ok(tile.str()?.to_cow()?.replace(SEPARATORS, "?"))
}

/// The goal: the one given (a board, or a name as the CLI's `--goal` takes: `"korf"`,
/// `"snail"`, `"standard"`), or tiles 1..N-1 then the blank, for a `width x height` board.
pub fn goal_of_size(
    width: usize,
    height: usize,
    goal: Option<&Bound<'_, PyAny>>,
) -> PyResult<Board> {
    match goal {
        Some(g) if !g.is_none() => {
            if let Ok(s) = g.cast::<PyString>() {
                if let Some(named) = taquin::goals::goal_by_name(&s.to_cow()?, width, height) {
                    return named.map_err(invalid_goal);
                }
            }
            board_from_any(g, "goal")
        }
        _ => Board::solved(width, height).map_err(|e| parse_error("goal", &e)),
    }
}

/// The error for a goal the reader refused (a misspelled name among them).
pub fn invalid_goal(e: impl std::fmt::Display) -> PyErr {
    crate::errors::InvalidBoardError::new_err(format!("invalid goal: {e}"))
}

/// A node budget given as a Python int (`name` is the argument's name): a whole number, 1 or
/// more ([`taquin::limits::node_budget`] refuses 0, as the command line and the web API do), or
/// `None` for no limit. (Taken as a 128-bit int, so that a negative one gets this message instead
/// of a bare `OverflowError` that names no argument.)
pub fn node_budget(name: &str, value: Option<i128>) -> PyResult<Option<u64>> {
    value
        .map(|v| {
            u64::try_from(v)
                .ok()
                .and_then(|n| taquin::limits::node_budget(n).ok())
                .ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "invalid {name} {v}: give a whole number, 1 or more (at most 2**64 - 1), \
                         or None for no limit"
                    ))
                })
        })
        .transpose()
}

/// A number argument given as a Python int (`name` is the argument's name) that must fit `T`
/// (in practice: not be negative), or a ValueError that names the argument and says what to
/// give (`give`, e.g. "give a whole number, 0 or more"). Taken as a 128-bit int for the same
/// reason as [`node_budget`].
pub fn in_range<T: TryFrom<i128>>(name: &str, value: i128, give: &str) -> PyResult<T> {
    T::try_from(value).map_err(|_| PyValueError::new_err(format!("invalid {name} {value}: {give}")))
}

/// [`in_range`] of an optional argument (`None` stays `None`).
pub fn in_range_opt<T: TryFrom<i128>>(
    name: &str,
    value: Option<i128>,
    give: &str,
) -> PyResult<Option<T>> {
    value.map(|v| in_range(name, v, give)).transpose()
}

/// A `width` argument of a batch of flat boards: their number of columns, or `None` for square
/// boards.
pub fn width_of(width: Option<Num<i128>>) -> PyResult<Option<usize>> {
    in_range_opt(
        "width",
        Num::opt("width", width)?,
        "give the boards' number of columns",
    )
}

/// A `jobs` argument: a number of threads, 1 or more, or `None` for every core.
pub fn jobs_of(jobs: Option<i128>) -> PyResult<Option<usize>> {
    let give = "give a number of threads, 1 or more, or None for every core";
    if jobs == Some(0) {
        return Err(PyValueError::new_err(format!("invalid jobs 0: {give}")));
    }
    in_range_opt("jobs", jobs, give)
}

/// [`goal_of_size`] for `board`'s size.
pub fn goal_for(board: &Board, goal: Option<&Bound<'_, PyAny>>) -> PyResult<Board> {
    goal_of_size(board.width(), board.height(), goal)
}

/// A size: `"4x4"` (columns x rows, as the CLI's `--size`), a side `4`, or `(width, height)`
/// (a list of the two too, as a configuration file gives them).
pub fn size_from_any(value: &Bound<'_, PyAny>) -> PyResult<(usize, usize)> {
    let (width, height) = size_as_given(value)?;
    // A size no board has is the size's fault, not the goal's laid out on it.
    Board::solved(width, height).map_err(|e| parse_error("size", &e))?;
    Ok((width, height))
}

/// The two numbers of a size, not yet checked against the sizes a board may have.
fn size_as_given(value: &Bound<'_, PyAny>) -> PyResult<(usize, usize)> {
    let bad = || {
        PyValueError::new_err(format!(
            "invalid size {}: give \"WxH\" (columns x rows, e.g. \"4x4\" or \"3x5\"), one side \
             (4) or a (width, height) tuple",
            value
                .repr()
                .map_or_else(|_| "?".to_string(), |r| r.to_string())
        ))
    };
    // A bool is an int to Python: True would otherwise be a 1x1 board.
    if value.is_instance_of::<PyBool>() {
        return Err(bad());
    }
    if let Ok(list) = value.cast::<PyList>() {
        return list
            .to_tuple()
            .extract::<(usize, usize)>()
            .map_err(|_| bad());
    }
    if let Ok(s) = value.cast::<PyString>() {
        // The core's parser, as the CLI's --size; its other forms are this module's own.
        return taquin::board::parse_size(&s.to_cow()?).map_err(|e| match e {
            ParseError::NotASize { .. } => bad(),
            e => parse_error("size", &e),
        });
    }
    if let Ok(t) = value.cast::<PyTuple>() {
        return t.extract::<(usize, usize)>().map_err(|_| bad());
    }
    value.extract::<usize>().map(|n| (n, n)).map_err(|_| bad())
}

/// A heuristic by name, as on the command line (`"manhattan"`, `"pdb:7-8"`); `"auto"` is `None`.
pub fn heuristic_name(name: &str) -> PyResult<Option<HeuristicKind>> {
    HeuristicKind::parse_choice(name).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// An algorithm by name, as on the command line (`"idastar"`); `"auto"` is `None`.
pub fn algorithm_name(name: &str) -> PyResult<Option<Algorithm>> {
    Algorithm::parse_choice(name).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// A number argument as Python passes it, a bool told apart: Python's `True` is the int 1 (and
/// numpy's `True` converts to 1.0), so `timeout=True` would otherwise be a budget of one second.
/// Anything else that is no `T` is kept too, not raised at once: the error extracting it
/// raises names no argument, and a call has a dozen. [`Num::get`] refuses both with an error
/// that names the argument.
pub enum Num<T> {
    /// A number.
    Value(T),
    /// A bool (Python's or numpy's), and which.
    Bool(bool),
    /// Something that is no `T`: a float for a whole number, a str, an int past any `T`.
    Other {
        /// The value as Python writes it (its start, for a long one).
        repr: String,
        /// The name of its type (`float`, `str`).
        type_name: String,
        /// Whether it is a number too large (or too far below 0) for `T`.
        overflow: bool,
    },
}

/// What a number argument of a type is, said when something else is given.
pub trait NumKind {
    /// "a whole number", "a number".
    const WHAT: &'static str;
}

impl NumKind for i128 {
    const WHAT: &'static str = "a whole number (an int)";
}

impl NumKind for f64 {
    const WHAT: &'static str = "a number (an int or a float)";
}

/// Most characters of a value shown in an error: a whole board given for a number should not
/// fill the screen.
const SHOWN: usize = 60;

impl<'a, 'py, T: FromPyObject<'a, 'py>> FromPyObject<'a, 'py> for Num<T> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        // numpy's bool is no subclass of Python's: told by its type's name (`bool`, `bool_`).
        let type_name = obj.get_type().name()?;
        if obj.is_instance_of::<PyBool>() || type_name == "bool" || type_name == "bool_" {
            return Ok(Num::Bool(obj.is_truthy()?));
        }
        match T::extract(obj) {
            Ok(value) => Ok(Num::Value(value)),
            Err(e) => {
                let repr = obj.repr()?.to_cow()?.into_owned();
                let repr = match repr.char_indices().nth(SHOWN) {
                    Some((cut, _)) => format!("{}...", &repr[..cut]),
                    None => repr,
                };
                Ok(Num::Other {
                    repr,
                    type_name: type_name.to_string(),
                    overflow: Into::<PyErr>::into(e).is_instance_of::<PyOverflowError>(obj.py()),
                })
            }
        }
    }
}

impl<T: NumKind> Num<T> {
    /// The number of the argument `name`, or an error that names it: a TypeError for a bool or
    /// a value of another type, a ValueError for a number out of every range.
    pub fn get(self, name: &str) -> PyResult<T> {
        match self {
            Num::Value(value) => Ok(value),
            Num::Bool(value) => Err(PyTypeError::new_err(format!(
                "{name} must be a number, not the bool {} (which Python would count as {}): \
                 give the number itself",
                if value { "True" } else { "False" },
                u8::from(value)
            ))),
            Num::Other {
                repr,
                overflow: true,
                ..
            } => Err(PyValueError::new_err(format!(
                "invalid {name} {repr}: far out of range: give {} within the limits of {name}",
                T::WHAT
            ))),
            Num::Other {
                repr, type_name, ..
            } => Err(PyTypeError::new_err(format!(
                "{name} must be {}, not {repr} (a {type_name})",
                T::WHAT
            ))),
        }
    }

    /// [`Num::get`] of an optional argument (`None` stays `None`).
    pub fn opt(name: &str, value: Option<Num<T>>) -> PyResult<Option<T>> {
        value.map(|v| v.get(name)).transpose()
    }
}

/// A `notation` argument: `"blank"` (`None` too: the default; each letter names where the
/// blank goes) or `"tiles"` (where the tiles go, runs as `R3`), the command line's
/// `--notation`; anything else is a ValueError that names the choices.
pub fn notation_of(name: Option<&str>) -> PyResult<Notation> {
    match name {
        None => Ok(Notation::Blank),
        Some(name) => Notation::from_name(name).ok_or_else(|| {
            PyValueError::new_err(format!(
                "invalid notation {name:?}: give \"blank\" (each letter is where the blank \
                 goes: DLLURR) or \"tiles\" (where the tiles go, runs with their length: R3)"
            ))
        }),
    }
}
