//! The board: an m x n grid (m columns, n rows) holding tiles `1..N-1` and one blank.
//!
//! One type serves every size. It is parsed and validated once ([`Board::parse`],
//! [`std::str::FromStr`], [`Board::from_tiles`]) and every other part of taquin (searches, CLI,
//! web) shares that path, so a `Board` value is always a valid board.

use std::fmt;
use std::str::FromStr;

use crate::moves::Move;

/// A tile number. `0` is the blank; a board of `N` cells holds every number `0..N` exactly once.
pub type Tile = u32;

/// The blank, as it is stored in [`Board::tiles`].
pub const BLANK: Tile = 0;

/// Smallest side accepted: a 1-wide board has no puzzle to speak of (tiles cannot pass each other).
pub const MIN_SIDE: usize = 2;

/// Largest side accepted by the parser. Optimal search is only practical to 5x5, but the
/// constructive solver handles boards this large.
pub const MAX_SIDE: usize = 1000;

/// Why a text or a tile list is not a valid board. Each variant says what is wrong and how to
/// fix it, naming the offending row, token or tile.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseError {
    /// Nothing but white space and separators.
    #[error("the board is empty: give rows separated by '/' or newlines, tiles by spaces or commas, e.g. \"1 2 3/4 5 6/7 8 0\"")]
    Empty,
    /// A token that is neither a tile number nor a blank marker.
    #[error("row {row}: '{}' is not a tile: use whole numbers for tiles and 0, '_' or '.' for the blank", token.escape_debug())]
    BadToken {
        /// 1-based row of the token.
        row: usize,
        /// The token as written.
        token: String,
    },
    /// Rows of different lengths.
    #[error("row {row} has {} but row 1 has {expected}: every row must have the same number of tiles{}", tiles(*.found), if *semicolon { " (rows are separated by '/', ';' or newlines, so each ';' here ends a row as '/' does; tiles by spaces or commas)" } else { "" })]
    RaggedRows {
        /// 1-based row that differs.
        row: usize,
        /// Its number of tiles.
        found: usize,
        /// The first row's number of tiles.
        expected: usize,
        /// Whether the text separated rows with `;`, which the message then points out: a
        /// `;` typed between tiles ends a row unseen.
        semicolon: bool,
    },
    /// One row of tiles whose number is no square: which board it is cannot be told.
    #[error("the board is one row of {tiles} tile{}, and a board needs at least 2 rows and 2 columns: separate its rows with '/' or newlines, e.g. \"1 2 3 4/5 6 7 0\" (one row is read as a square board only when its tiles number a square: 4, 9, 16, 25, ...)", if *tiles == 1 { "" } else { "s" })]
    OneRow {
        /// How many tiles the row holds.
        tiles: usize,
    },
    /// A side below [`MIN_SIDE`] or above [`MAX_SIDE`].
    #[error("{} board is not supported: width and height must each be between {MIN_SIDE} and {MAX_SIDE}", size_with_article(*.width, *.height))]
    BadSize {
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
    },
    /// A side out of range in text that holds `;`, which ends a row as `/` does: most likely
    /// written between tiles (`1;2;3/4;5;6/7;8;0`, a 1x9 board), said so.
    #[error("{} board is not supported: width and height must each be between {MIN_SIDE} and {MAX_SIDE}, and each ';' ends a row as '/' does (rows are separated by '/', ';' or newlines; tiles by spaces or commas)", size_with_article(*.width, *.height))]
    BadSizeSemicolon {
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
    },
    /// No blank at all.
    #[error("the board has no blank: mark the empty cell with 0, '_' or '.'")]
    NoBlank,
    /// No blank, and a tile out of range: most likely the number written for the empty cell
    /// (`7 9 8` on a 3x3 board), said so rather than only "no blank".
    #[error("the board has no blank, and tile {tile} is out of range ({} board holds tiles 1 to {max}): if it stands for the empty cell, write 0, '_' or '.' there", size_with_article(*.width, *.height))]
    NoBlankOutOfRange {
        /// The number out of range.
        tile: u64,
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
        /// Largest valid tile (`N-1`).
        max: usize,
    },
    /// No blank, and a tile written twice: most likely one of the two stands where the empty
    /// cell is (`7 8 8` on a 3x3 board), said so rather than only "no blank".
    #[error("the board has no blank, and tile {tile} appears twice: if one of them stands for the empty cell, write 0, '_' or '.' there instead (each of 1 to {max} must appear exactly once)")]
    NoBlankRepeated {
        /// The repeated tile.
        tile: Tile,
        /// Largest valid tile (`N-1`).
        max: usize,
    },
    /// More than one blank.
    #[error("the board has {count} blanks: exactly one cell must be empty (0, '_' or '.')")]
    ManyBlanks {
        /// How many blank markers were found.
        count: usize,
    },
    /// A tile number not in `1..N`.
    #[error("tile {tile} is out of range: {} board holds tiles 1 to {max}", size_with_article(*.width, *.height))]
    OutOfRange {
        /// The offending number.
        tile: u64,
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
        /// Largest valid tile (`N-1`).
        max: usize,
    },
    /// A number too large even to hold: the same mistake as [`ParseError::OutOfRange`], for
    /// numbers of 20 digits and more.
    #[error("tile {token} is too large: {} board holds tiles 1 to {max}", size_with_article(*.width, *.height))]
    TooLarge {
        /// The number as written.
        token: String,
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
        /// Largest valid tile (`N-1`).
        max: usize,
    },
    /// A tile that appears twice.
    #[error("tile {tile} appears more than once: each of 1 to {max} must appear exactly once")]
    Repeated {
        /// The repeated tile.
        tile: Tile,
        /// Largest valid tile.
        max: usize,
    },
    /// A tile that does not appear (reported when there is no repeat to blame first).
    #[error("tile {tile} is missing: each of 1 to {max} must appear exactly once")]
    Missing {
        /// The missing tile.
        tile: Tile,
        /// Largest valid tile.
        max: usize,
    },
    /// A tile list whose length is not width x height.
    #[error("{found} tiles given for {} board, which needs {expected}", size_with_article(*.width, *.height))]
    WrongCount {
        /// Tiles given.
        found: usize,
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
        /// `width * height`.
        expected: usize,
    },
    /// A board size that is not written `WxH`.
    #[error("'{text}' is not a size: write WIDTHxHEIGHT (columns x rows), e.g. 4x4 or 3x5")]
    NotASize {
        /// The text as given.
        text: String,
    },
    /// A board and a goal of different shapes.
    #[error("the board is {bw}x{bh} but the goal is {gw}x{gh}: both must have the same size")]
    SizeMismatch {
        /// Board columns.
        bw: usize,
        /// Board rows.
        bh: usize,
        /// Goal columns.
        gw: usize,
        /// Goal rows.
        gh: usize,
    },
}

/// A valid board: `width * height` cells holding each tile `0..N` once, `0` being the blank.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    width: usize,
    height: usize,
    tiles: Vec<Tile>,
    blank: usize,
}

impl Board {
    /// Builds a board from its tiles in row-major order, validating them.
    pub fn from_tiles(width: usize, height: usize, tiles: Vec<Tile>) -> Result<Board, ParseError> {
        check_size(width, height)?;
        let n = width * height;
        if tiles.len() != n {
            return Err(ParseError::WrongCount {
                found: tiles.len(),
                width,
                height,
                expected: n,
            });
        }
        let blanks = tiles.iter().filter(|&&t| t == BLANK).count();
        match blanks {
            0 => {
                let mut seen = vec![false; n];
                let repeated = tiles
                    .iter()
                    .find(|&&t| (t as usize) < n && std::mem::replace(&mut seen[t as usize], true));
                return Err(match (tiles.iter().find(|&&t| t as usize >= n), repeated) {
                    (Some(&t), _) => ParseError::NoBlankOutOfRange {
                        tile: u64::from(t),
                        width,
                        height,
                        max: n - 1,
                    },
                    (None, Some(&tile)) => ParseError::NoBlankRepeated { tile, max: n - 1 },
                    (None, None) => ParseError::NoBlank,
                });
            }
            1 => {}
            count => return Err(ParseError::ManyBlanks { count }),
        }
        let mut seen = vec![false; n];
        for &t in &tiles {
            let i = t as usize;
            if i >= n {
                return Err(ParseError::OutOfRange {
                    tile: u64::from(t),
                    width,
                    height,
                    max: n - 1,
                });
            }
            if seen[i] {
                return Err(ParseError::Repeated {
                    tile: t,
                    max: n - 1,
                });
            }
            seen[i] = true;
        }
        // With N entries, no repeat and all in range, every tile is present; kept as a guard.
        if let Some(missing) = seen.iter().position(|&s| !s) {
            return Err(ParseError::Missing {
                tile: missing as Tile,
                max: n - 1,
            });
        }
        let blank = tiles.iter().position(|&t| t == BLANK).unwrap_or(0);
        Ok(Board {
            width,
            height,
            tiles,
            blank,
        })
    }

    /// Parses board text: rows separated by `/` or newlines (or `;`), tiles by spaces or commas,
    /// the blank written `0`, `_` or `.`. The size is inferred from the rows. A single row of k²
    /// tiles is a k x k board, row by row (as instance files and papers write a board on one
    /// line; no board is one row high); a single row of any other count is refused
    /// ([`ParseError::OneRow`]).
    ///
    /// ```
    /// let board = taquin::Board::parse("6 4 7/8 5 0/3 2 1").unwrap();
    /// assert_eq!((board.width(), board.height()), (3, 3));
    /// assert_eq!(board.blank(), 5);
    /// assert_eq!(taquin::Board::parse("6 4 7 8 5 0 3 2 1").unwrap(), board);
    /// ```
    pub fn parse(text: &str) -> Result<Board, ParseError> {
        // A file saved by some Windows editors starts with a byte-order mark: not a tile.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut rows: Vec<Vec<Tile>> = Vec::new();
        let mut too_big: Option<u64> = None;
        let mut overflowing: Option<String> = None;
        for line in text.split(['/', '\n', ';']) {
            let mut row = Vec::new();
            for token in line
                .split(|c: char| c == ',' || c.is_whitespace())
                .filter(|t| !t.is_empty())
            {
                let tile = match token {
                    "_" | "." => BLANK,
                    _ => match token.parse::<u64>() {
                        Ok(v) if v <= u64::from(u32::MAX) => v as Tile,
                        Ok(v) => {
                            too_big.get_or_insert(v);
                            u32::MAX
                        }
                        Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => {
                            overflowing.get_or_insert_with(|| token.to_string());
                            u32::MAX
                        }
                        Err(_) => {
                            return Err(ParseError::BadToken {
                                row: rows.len() + 1,
                                token: token.to_string(),
                            })
                        }
                    },
                };
                row.push(tile);
            }
            if !row.is_empty() {
                rows.push(row);
            }
        }
        if let [row] = &rows[..] {
            rows = square_rows(row)?;
        }
        let width = rows_width(&rows, text.contains(';'))?;
        let height = rows.len();
        check_size(width, height).map_err(|e| match e {
            ParseError::BadSize { width, height } if width == 1 && text.contains(';') => {
                ParseError::BadSizeSemicolon { width, height }
            }
            e => e,
        })?;
        if let Some(token) = overflowing {
            return Err(ParseError::TooLarge {
                token,
                width,
                height,
                max: width * height - 1,
            });
        }
        if let Some(tile) = too_big {
            return Err(ParseError::OutOfRange {
                tile,
                width,
                height,
                max: width * height - 1,
            });
        }
        Board::from_tiles(width, height, rows.concat())
    }

    /// The default goal of a `width x height` board: tiles `1..N` in row-major order, blank last.
    pub fn solved(width: usize, height: usize) -> Result<Board, ParseError> {
        check_size(width, height)?;
        let n = width * height;
        let mut tiles: Vec<Tile> = (1..n as Tile).collect();
        tiles.push(BLANK);
        Board::from_tiles(width, height, tiles)
    }

    /// Checks that `goal` has this board's shape, so the two can be searched between.
    pub fn check_same_size(&self, goal: &Board) -> Result<(), ParseError> {
        if self.width != goal.width || self.height != goal.height {
            return Err(ParseError::SizeMismatch {
                bw: self.width,
                bh: self.height,
                gw: goal.width,
                gh: goal.height,
            });
        }
        Ok(())
    }

    /// Number of columns (m).
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of rows (n).
    pub fn height(&self) -> usize {
        self.height
    }

    /// Number of cells, `width * height`.
    pub fn len(&self) -> usize {
        self.tiles.len()
    }

    /// Always false: a valid board has at least four cells. Present for API symmetry with `len`.
    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }

    /// The tiles in row-major order, `0` for the blank.
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles
    }

    /// Index (row-major) of the blank cell.
    pub fn blank(&self) -> usize {
        self.blank
    }

    /// The tile at `(column, row)`, counted from 0 at the top left.
    ///
    /// # Panics
    ///
    /// When `column` is not below [`Board::width`] or `row` not below [`Board::height`] (a
    /// column past the edge would otherwise read the next row's cell); [`Board::get`] returns
    /// `None` instead.
    ///
    /// ```
    /// let board: taquin::Board = "1 2 3/4 5 6/7 8 0".parse()?;
    /// assert_eq!(board.at(0, 1), 4);
    /// # Ok::<(), taquin::ParseError>(())
    /// ```
    pub fn at(&self, column: usize, row: usize) -> Tile {
        match self.get(column, row) {
            Some(tile) => tile,
            None => panic!(
                "no cell ({column}, {row}) on {} board: columns are 0 to {} and rows 0 to {}",
                size_with_article(self.width, self.height()),
                self.width - 1,
                self.height() - 1
            ),
        }
    }

    /// The tile at `(column, row)`, counted from 0 at the top left; `None` off the board.
    ///
    /// ```
    /// let board: taquin::Board = "1 2 3/4 5 6/7 8 0".parse()?;
    /// assert_eq!(board.get(2, 0), Some(3));
    /// assert_eq!(board.get(3, 0), None); // not the first cell of the next row
    /// # Ok::<(), taquin::ParseError>(())
    /// ```
    pub fn get(&self, column: usize, row: usize) -> Option<Tile> {
        if column < self.width && row < self.height() {
            Some(self.tiles[row * self.width + column])
        } else {
            None
        }
    }

    /// For every tile `t`, the cell index where it stands: `positions()[t]`.
    pub fn positions(&self) -> Vec<usize> {
        let mut pos = vec![0; self.tiles.len()];
        for (cell, &t) in self.tiles.iter().enumerate() {
            pos[t as usize] = cell;
        }
        pos
    }

    /// The cell the blank reaches by `mv`, or `None` when that would leave the board.
    pub fn target(&self, mv: Move) -> Option<usize> {
        mv.target(self.blank, self.width, self.height)
    }

    /// The moves the blank can make from here, in the order U, D, L, R.
    pub fn legal_moves(&self) -> impl Iterator<Item = Move> + '_ {
        Move::ALL.into_iter().filter(|&m| self.target(m).is_some())
    }

    /// Moves the blank in direction `mv` (the tile there slides into the old blank cell).
    /// Returns false and leaves the board unchanged when the move would leave the board.
    pub fn apply(&mut self, mv: Move) -> bool {
        match self.target(mv) {
            Some(to) => {
                self.tiles.swap(self.blank, to);
                self.blank = to;
                true
            }
            None => false,
        }
    }

    /// A copy moved by `mv`, or `None` when the move is illegal.
    pub fn moved(&self, mv: Move) -> Option<Board> {
        let mut next = self.clone();
        next.apply(mv).then_some(next)
    }

    /// Slides the tile at `cell` into the blank if they are adjacent; returns the blank's move.
    pub fn slide_tile_at(&mut self, cell: usize) -> Option<Move> {
        let mv = Move::ALL
            .into_iter()
            .find(|&m| self.target(m) == Some(cell))?;
        self.apply(mv);
        Some(mv)
    }

    /// Applies every move of `moves` in turn; on an illegal move, returns its index in `moves`
    /// and leaves the board where it stood before that move.
    pub fn apply_all(&mut self, moves: &[Move]) -> Result<(), usize> {
        for (i, &m) in moves.iter().enumerate() {
            if !self.apply(m) {
                return Err(i);
            }
        }
        Ok(())
    }

    /// The board as one line, rows separated by `/`, blank as `0`: the form the parser reads.
    pub fn to_line(&self) -> String {
        self.tiles
            .chunks(self.width)
            .map(|row| {
                row.iter()
                    .map(|t| t.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join("/")
    }
}

/// "1 tile", "3 tiles": a count as the parse errors say it.
fn tiles(n: usize) -> String {
    format!("{n} tile{}", if n == 1 { "" } else { "s" })
}

/// The side k of a square board of `cells` = k² cells (k at least [`MIN_SIDE`]), if `cells`
/// is such a square: how a board written on one line, or an instance line, is told apart.
///
/// ```
/// assert_eq!(taquin::board::square_side(16), Some(4));
/// assert_eq!(taquin::board::square_side(18), None);
/// assert_eq!(taquin::board::square_side(1), None);
/// ```
pub fn square_side(cells: usize) -> Option<usize> {
    let side = (cells as f64).sqrt().round() as usize;
    (side >= MIN_SIDE && side * side == cells).then_some(side)
}

/// The rows of a k x k board written as one row of its k² tiles ([`Board::parse`]).
fn square_rows(row: &[Tile]) -> Result<Vec<Vec<Tile>>, ParseError> {
    let side = square_side(row.len()).ok_or(ParseError::OneRow { tiles: row.len() })?;
    Ok(row.chunks(side).map(<[Tile]>::to_vec).collect())
}

/// The common width of `rows`: an error when there is no tile or the rows differ in length
/// (`semicolon`: the rows were separated by `;` too, [`ParseError::RaggedRows`]).
fn rows_width(rows: &[Vec<Tile>], semicolon: bool) -> Result<usize, ParseError> {
    let width = rows.first().map_or(0, Vec::len);
    if width == 0 {
        return Err(ParseError::Empty);
    }
    match rows.iter().position(|row| row.len() != width) {
        Some(i) => Err(ParseError::RaggedRows {
            row: i + 1,
            found: rows[i].len(),
            expected: width,
            semicolon,
        }),
        None => Ok(width),
    }
}

/// A board's size with its indefinite article, as every message names it: `a 3x3`, `an 8x8`,
/// `an 11x4`. The article follows the width read aloud: "an" before eight, eleven, eighteen and
/// the numbers that start with eight (eighty-…, eight hundred …).
///
/// ```
/// use taquin::board::size_with_article;
/// assert_eq!(size_with_article(8, 8), "an 8x8");
/// assert_eq!(size_with_article(3, 5), "a 3x5");
/// assert_eq!(size_with_article(18, 2), "an 18x2");
/// assert_eq!(size_with_article(100, 8), "a 100x8");
/// ```
pub fn size_with_article(width: usize, height: usize) -> String {
    let digits = width.to_string();
    let article = if digits.starts_with('8') || width == 11 || width == 18 {
        "an"
    } else {
        "a"
    };
    format!("{article} {width}x{height}")
}

/// A board size written `WxH` (columns x rows, `x` or `X`, e.g. `4x4` or `3x5`), each side
/// between [`MIN_SIDE`] and [`MAX_SIDE`]: the one size parser of the command line, the web
/// server and the Python package.
///
/// ```
/// assert_eq!(taquin::board::parse_size("3x5"), Ok((3, 5)));
/// assert!(taquin::board::parse_size("4by4").is_err());
/// assert!(taquin::board::parse_size("1x4").is_err());
/// ```
pub fn parse_size(text: &str) -> Result<(usize, usize), ParseError> {
    let not_a_size = || ParseError::NotASize {
        text: text.to_string(),
    };
    let (w, h) = text.trim().split_once(['x', 'X']).ok_or_else(not_a_size)?;
    let w: usize = w.trim().parse().map_err(|_| not_a_size())?;
    let h: usize = h.trim().parse().map_err(|_| not_a_size())?;
    check_size(w, h)?;
    Ok((w, h))
}

fn check_size(width: usize, height: usize) -> Result<(), ParseError> {
    let ok = |s: usize| (MIN_SIDE..=MAX_SIDE).contains(&s);
    if ok(width) && ok(height) {
        Ok(())
    } else {
        Err(ParseError::BadSize { width, height })
    }
}

impl FromStr for Board {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Board::parse(s)
    }
}

impl TryFrom<Vec<Vec<Tile>>> for Board {
    type Error = ParseError;
    /// Rows of tiles, validated like parsed text.
    fn try_from(rows: Vec<Vec<Tile>>) -> Result<Self, Self::Error> {
        let width = rows_width(&rows, false)?;
        Board::from_tiles(width, rows.len(), rows.concat())
    }
}

/// Multi-line grid, blank shown as `.`, columns right-aligned.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let w = (self.tiles.len() - 1).to_string().len();
        for (r, row) in self.tiles.chunks(self.width).enumerate() {
            if r > 0 {
                writeln!(f)?;
            }
            for (c, &t) in row.iter().enumerate() {
                if c > 0 {
                    write!(f, " ")?;
                }
                if t == BLANK {
                    write!(f, "{:>w$}", ".")?;
                } else {
                    write!(f, "{t:>w$}")?;
                }
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Board({}x{} \"{}\")",
            self.width,
            self.height,
            self.to_line()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[should_panic(expected = "no cell (3, 0) on a 3x3 board")]
    fn a_column_past_the_edge_panics_rather_than_read_the_next_row() {
        // It used to answer the tile at (0, 1).
        let board = Board::parse("1 2 3/4 5 6/7 8 0").unwrap();
        board.at(3, 0);
    }

    #[test]
    fn parses_every_separator_and_blank_marker() {
        let a = Board::parse("6 4 7/8 5 0/3 2 1").unwrap();
        let b = Board::parse("6,4,7\n8,5,_\n3,2,1").unwrap();
        let c = Board::parse("6 4 7 / 8 5 . / 3 2 1\n").unwrap();
        assert_eq!(a, b);
        assert_eq!(a, c);
        assert_eq!(a.blank(), 5);
        assert_eq!(a.at(0, 2), 3);
    }

    #[test]
    fn one_row_of_a_square_number_of_tiles_is_a_square_board() {
        let korf = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";
        assert_eq!(
            Board::parse(korf).unwrap(),
            Board::parse("14 13 15 7/11 12 9 5/6 0 2 1/4 8 10 3").unwrap()
        );
        assert_eq!(Board::parse("1,2,3,0").unwrap().width(), 2);
        // Any other count cannot be read as a board, and the message says how to write one.
        for (text, tiles) in [("1 2 3 4 5 6 7 0", 8), ("1 0", 2), ("0", 1), ("1 2 0", 3)] {
            let e = Board::parse(text).unwrap_err();
            assert_eq!(e, ParseError::OneRow { tiles }, "{text}");
            assert!(e.to_string().contains("separate its rows with '/'"), "{e}");
        }
        // Rows given are kept as given, square or not.
        assert_eq!(Board::parse("1 2 3 4/5 6 7 0").unwrap().height(), 2);
    }

    #[test]
    fn non_square_sizes_are_inferred() {
        let b = Board::parse("1 2 3 4/5 6 7 0").unwrap();
        assert_eq!((b.width(), b.height()), (4, 2));
        let b = Board::parse("1 2/3 4/5 6/7 0").unwrap();
        assert_eq!((b.width(), b.height()), (2, 4));
    }

    #[test]
    fn sizes_are_width_by_height_within_the_sides() {
        assert_eq!(parse_size("4x4"), Ok((4, 4)));
        assert_eq!(parse_size(" 3 X 5 "), Ok((3, 5)));
        for bad in ["4by4", "4", "4x", "x4", "-1x4", "4x4x4", ""] {
            let e = parse_size(bad).unwrap_err();
            assert_eq!(e, ParseError::NotASize { text: bad.into() });
            assert!(e.to_string().contains("write WIDTHxHEIGHT"), "{e}");
        }
        assert_eq!(
            parse_size("1x4"),
            Err(ParseError::BadSize {
                width: 1,
                height: 4
            })
        );
        assert!(matches!(
            parse_size("4x1001"),
            Err(ParseError::BadSize { height: 1001, .. })
        ));
    }

    #[test]
    fn errors_name_the_problem() {
        assert_eq!(Board::parse("  / "), Err(ParseError::Empty));
        assert!(matches!(
            Board::parse("1 2 3/4 5/6 7 0"),
            Err(ParseError::RaggedRows {
                row: 2,
                found: 2,
                expected: 3,
                semicolon: false
            })
        ));
        let msg = Board::parse("1;2;3/4;5;6/7;8;0").unwrap_err().to_string();
        assert!(
            msg.contains("a 1x9 board is not supported: width and height must each be between 2 and 1000, and each ';' ends a row"),
            "{msg}"
        );
        // A ';' between tiles ends a row: the message says so.
        let mixed = Board::parse("1;2;3/4 5 6/7 0 8").unwrap_err();
        assert!(
            matches!(
                mixed,
                ParseError::RaggedRows {
                    semicolon: true,
                    ..
                }
            ),
            "{mixed:?}"
        );
        assert!(mixed
            .to_string()
            .contains("rows are separated by '/', ';' or newlines"));
        assert!(matches!(
            Board::parse("1 2 x/3 0 4/5 6 7"),
            Err(ParseError::BadToken { row: 1, .. })
        ));
        assert_eq!(
            Board::parse("1 2/3 1"),
            Err(ParseError::NoBlankRepeated { tile: 1, max: 3 })
        );
        let msg = Board::parse("1 2 3/4 5 6/7 8 8").unwrap_err().to_string();
        assert!(msg.contains("no blank, and tile 8 appears twice"), "{msg}");
        // Numbered from 1 with no blank: the number out of range is named too.
        let e = Board::parse("1 2 3/4 5 6/7 9 8").unwrap_err();
        assert!(
            matches!(e, ParseError::NoBlankOutOfRange { tile: 9, .. }),
            "{e}"
        );
        assert!(
            e.to_string()
                .contains("no blank, and tile 9 is out of range"),
            "{e}"
        );
        assert_eq!(
            Board::parse("1 0/0 3"),
            Err(ParseError::ManyBlanks { count: 2 })
        );
        assert!(matches!(
            Board::parse("1 2/9 0"),
            Err(ParseError::OutOfRange { tile: 9, .. })
        ));
        assert!(matches!(
            Board::parse("1 1/2 0"),
            Err(ParseError::Repeated { tile: 1, .. })
        ));
        assert_eq!(Board::parse("1 2 3"), Err(ParseError::OneRow { tiles: 3 }));
        assert!(matches!(
            Board::parse("1/2/0"),
            Err(ParseError::BadSize {
                width: 1,
                height: 3
            })
        ));
        // Too large to hold is still a tile out of range, not a non-number.
        assert!(matches!(
            Board::parse("1 2 99999999999999999999/3 0 4"),
            Err(ParseError::TooLarge { max: 5, .. })
        ));
        assert!(matches!(
            Board::parse("1 2 9999999999/3 0 4"),
            Err(ParseError::OutOfRange {
                tile: 9999999999,
                ..
            })
        ));
        let msg = Board::parse("1 1/2 0").unwrap_err().to_string();
        assert!(msg.contains("tile 1 appears more than once"), "{msg}");
    }

    #[test]
    fn messages_name_a_size_with_the_article_it_is_read_with() {
        let mut eight = (1..64).map(|t| t.to_string()).collect::<Vec<_>>();
        eight.push("64".into());
        let text = eight
            .chunks(8)
            .map(|row| row.join(" "))
            .collect::<Vec<_>>()
            .join("/");
        let msg = Board::parse(&text).unwrap_err().to_string();
        assert!(msg.contains("(an 8x8 board holds tiles 1 to 63)"), "{msg}");
        let msg = Board::parse("1 2 3/4 5 9/7 8 0").unwrap_err().to_string();
        assert!(msg.contains("a 3x3 board holds"), "{msg}");
        for (width, expected) in [
            (8, "an"),
            (11, "an"),
            (18, "an"),
            (80, "an"),
            (5, "a"),
            (100, "a"),
            (1000, "a"),
        ] {
            assert_eq!(size_with_article(width, 2), format!("{expected} {width}x2"));
        }
    }

    #[test]
    fn moves_slide_the_blank_and_refuse_leaving_the_board() {
        let mut b = Board::parse("1 2 3/4 5 6/7 8 0").unwrap();
        assert!(!b.apply(Move::Down));
        assert!(!b.apply(Move::Right));
        assert!(b.apply(Move::Up));
        assert_eq!(b.to_line(), "1 2 3/4 5 0/7 8 6");
        assert!(b.apply(Move::Left));
        assert_eq!(b.to_line(), "1 2 3/4 0 5/7 8 6");
        assert_eq!(b.legal_moves().count(), 4);
        assert_eq!(b.slide_tile_at(1), Some(Move::Up));
        assert_eq!(b.blank(), 1);
        assert_eq!(b.slide_tile_at(8), None);
    }

    #[test]
    fn display_round_trips_through_the_parser() {
        let b = Board::parse("10 2 3 4/5 6 7 8/9 1 11 12/13 14 15 0").unwrap();
        assert_eq!(Board::parse(&b.to_string()).unwrap(), b);
        assert_eq!(Board::parse(&b.to_line()).unwrap(), b);
    }

    #[test]
    fn try_from_rows_and_size_checks() {
        let b = Board::try_from(vec![vec![1, 2], vec![3, 0]]).unwrap();
        let g = Board::solved(3, 3).unwrap();
        assert!(matches!(
            b.check_same_size(&g),
            Err(ParseError::SizeMismatch { .. })
        ));
        assert_eq!(Board::solved(2, 2).unwrap(), b);
    }
}
