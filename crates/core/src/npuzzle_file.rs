//! The board file format of the 42 school's n-puzzle project: `#` starts a comment anywhere (a
//! whole line, or after the numbers on a line), then a line holding the size N, then N rows of N
//! numbers, the blank written `0`.
//!
//! ```text
//! # This puzzle is solvable
//! 3
//! 0 2 3  # first row
//! 1 4 5
//! 8 7 6
//! ```
//!
//! [`parse_board`] reads either this format or taquin's board text, so every command that takes
//! a board takes these files too. [`to_text`] writes the format back.

use crate::board::{size_with_article, Board, ParseError, Tile};

/// Why a text in the n-puzzle format is not a valid board. Line numbers are 1-based lines of
/// the text, comments included, so that they match an editor's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NpuzzleError {
    /// Only comments and blank lines.
    #[error("the n-puzzle file holds no size line: after the '#' comments, write the size N on a line of its own, then N rows of N numbers")]
    NoSize,
    /// The first line with content is not one whole number of at least 2.
    #[error("line {line}: '{text}' is not a size: the first line that is not a comment must hold the size N alone (at least 2)")]
    BadSize {
        /// Line of the text.
        line: usize,
        /// The line's content, comment removed.
        text: String,
    },
    /// A token that is not a whole number.
    #[error("line {line}: '{token}' is not a tile number: rows hold whole numbers separated by spaces, 0 for the blank, '#' starts a comment")]
    BadToken {
        /// Line of the text.
        line: usize,
        /// The token as written.
        token: String,
    },
    /// A row with other than N numbers.
    #[error("line {line}: {found} numbers in a row of {} puzzle: each of the {size} rows needs exactly {size}", size_with_article(*.size, *.size))]
    RowLength {
        /// Line of the text.
        line: usize,
        /// Numbers found on it.
        found: usize,
        /// The declared size.
        size: usize,
    },
    /// A size line and nothing after it: the rows are missing.
    #[error("the text holds the size line {size} and no rows after it: give the {size} rows of {size} numbers after the size line, the blank as 0 (or write the board alone, rows separated by '/' or newlines, e.g. \"1 2 3/4 5 6/7 8 0\")")]
    NoRows {
        /// The declared size.
        size: usize,
    },
    /// Fewer or more than N rows.
    #[error("{found} rows after the size line, but the size is {size}: give exactly {size} rows")]
    RowCount {
        /// Rows found.
        found: usize,
        /// The declared size.
        size: usize,
    },
    /// The numbers are not a board (repeated, missing or out-of-range tiles, no blank...).
    #[error(transparent)]
    Board(#[from] ParseError),
}

/// The lines of `text` with their `#` comments removed and their 1-based numbers, skipping
/// those left empty.
fn content_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().filter_map(|(i, line)| {
        let content = line.split('#').next().unwrap_or("").trim();
        (!content.is_empty()).then_some((i + 1, content))
    })
}

/// `text` without the byte-order mark (U+FEFF) that some Windows editors write at a file's
/// start: the one helper every reader of text (boards, moves, instance files, JSON bodies)
/// skips it with.
///
/// ```
/// assert_eq!(taquin::npuzzle_file::without_bom("\u{feff}1 2/3 0"), "1 2/3 0");
/// assert_eq!(taquin::npuzzle_file::without_bom("1 2/3 0"), "1 2/3 0");
/// ```
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// True when `text` is in the n-puzzle format rather than taquin's board text: the first line
/// that is not a comment holds a number alone (a size; a board row has at least two tiles),
/// and rows follow it. A line of one word with commas or slashes (`1,2,3/4,5,6/7,0,8`), or a
/// JSON line without spaces, is taquin's text, whatever the next lines hold.
pub fn looks_like(text: &str) -> bool {
    let mut lines = content_lines(without_bom(text));
    let size_alone = lines.next().is_some_and(|(_, first)| {
        let mut tokens = first.split_whitespace();
        let size = tokens.next().unwrap_or("");
        tokens.next().is_none() && !size.is_empty() && size.bytes().all(|b| b.is_ascii_digit())
    });
    size_alone && lines.next().is_some()
}

/// True when `text` holds a size line of the format alone (a whole number of at least 2): a
/// file whose rows are missing, not a board of one tile.
fn size_alone(text: &str) -> bool {
    let mut lines = content_lines(text);
    let size = lines
        .next()
        .and_then(|(_, first)| first.parse::<usize>().ok());
    size.is_some_and(|n| n >= 2) && lines.next().is_none()
}

/// Parses a text in the n-puzzle format.
///
/// ```
/// let board = taquin::npuzzle_file::parse("# solvable\n3\n0 2 3 # row 1\n1 4 5\n8 7 6\n")?;
/// assert_eq!(board.to_line(), "0 2 3/1 4 5/8 7 6");
/// # Ok::<(), taquin::npuzzle_file::NpuzzleError>(())
/// ```
pub fn parse(text: &str) -> Result<Board, NpuzzleError> {
    let mut lines = content_lines(without_bom(text));
    let (size_line, size_text) = lines.next().ok_or(NpuzzleError::NoSize)?;
    let size: usize = match size_text.parse() {
        Ok(n) if n >= 2 => n,
        _ => {
            return Err(NpuzzleError::BadSize {
                line: size_line,
                text: size_text.to_string(),
            })
        }
    };
    let mut tiles: Vec<Tile> = Vec::new();
    let mut rows = 0;
    for (line, content) in lines {
        let before = tiles.len();
        for token in content.split_whitespace() {
            let tile = token.parse::<Tile>().map_err(|_| NpuzzleError::BadToken {
                line,
                token: token.to_string(),
            })?;
            tiles.push(tile);
        }
        if tiles.len() - before != size {
            return Err(NpuzzleError::RowLength {
                line,
                found: tiles.len() - before,
                size,
            });
        }
        rows += 1;
    }
    if rows == 0 {
        return Err(NpuzzleError::NoRows { size });
    }
    if rows != size {
        return Err(NpuzzleError::RowCount { found: rows, size });
    }
    Ok(Board::from_tiles(size, size, tiles)?)
}

/// Reads a board in either format: the n-puzzle file format when [`looks_like`] says so,
/// taquin's board text otherwise (where `#` comments are allowed too).
pub fn parse_board(text: &str) -> Result<Board, NpuzzleError> {
    let text = without_bom(text);
    if looks_like(text) || size_alone(text) {
        parse(text)
    } else if text.contains('#') {
        let rows: Vec<&str> = content_lines(text).map(|(_, row)| row).collect();
        Ok(Board::parse(&rows.join("\n"))?)
    } else {
        Ok(Board::parse(text)?)
    }
}

/// Writes a square board in the n-puzzle format (size line, then the rows, columns aligned).
/// A board that is not square has no such form: `None`.
pub fn to_text(board: &Board) -> Option<String> {
    if board.width() != board.height() {
        return None;
    }
    let digits = (board.len() - 1).to_string().len();
    let mut out = format!("{}\n", board.width());
    for row in board.tiles().chunks(board.width()) {
        let cells: Vec<String> = row.iter().map(|t| format!("{t:>digits$}")).collect();
        out.push_str(&cells.join(" "));
        out.push('\n');
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_anywhere_and_round_trip() {
        let text = "# This puzzle is solvable\n4\n 1  2  3  4 # row\n12 13 14  5\n\n11  0 15  6\n10  9  8  7\n# end\n";
        assert!(looks_like(text));
        let board = parse(text).unwrap();
        assert_eq!(board.to_line(), "1 2 3 4/12 13 14 5/11 0 15 6/10 9 8 7");
        let written = to_text(&board).unwrap();
        assert!(looks_like(&written));
        assert_eq!(parse(&written).unwrap(), board);
        assert_eq!(parse_board(&written).unwrap(), board);
    }

    #[test]
    fn taquin_text_is_not_mistaken_for_the_format() {
        for text in [
            "1 2 3/4 5 6/7 8 0",
            "1 2 3\n4 5 6\n7 8 0\n",
            "1 0\n2 3",
            "# a comment\n1 2 3 # row\n4 5 6\n7 8 0",
            "1,2,3/4,5,6/7,0,8",
            "1,2,3\n4,5,6\n7,0,8",
        ] {
            assert!(!looks_like(text), "{text}");
            assert!(parse_board(text).is_ok(), "{text}");
        }
        assert_eq!(to_text(&Board::parse("1 2 3/4 5 0").unwrap()), None);
        // A byte-order mark in front (some Windows editors write one) is not a tile.
        assert_eq!(
            parse_board("\u{feff}1 2 3/4 5 6/7 8 0").unwrap().to_line(),
            "1 2 3/4 5 6/7 8 0"
        );
        assert_eq!(
            parse_board("\u{feff}3\n1 2 3\n4 5 6\n7 8 0\n")
                .unwrap()
                .to_line(),
            "1 2 3/4 5 6/7 8 0"
        );
        // One word alone, or a JSON line: never a size line.
        for text in [
            "0",
            "1/2/0",
            "{\"board\":[[1,2],[3,0]]}\n{\"board\":\"1 2/0 3\"}",
        ] {
            assert!(!looks_like(text), "{text}");
        }
    }

    #[test]
    fn errors_name_the_line_and_the_fix() {
        assert_eq!(parse("# only a comment\n"), Err(NpuzzleError::NoSize));
        assert!(matches!(
            parse("#c\nthree\n1 2 3"),
            Err(NpuzzleError::BadSize { line: 2, .. })
        ));
        assert!(matches!(
            parse("1\n0"),
            Err(NpuzzleError::BadSize { line: 1, .. })
        ));
        assert!(matches!(
            parse("3\n1 2 3\n4 x 6\n7 8 0"),
            Err(NpuzzleError::BadToken { line: 3, .. })
        ));
        assert!(matches!(
            parse("3\n1 2 3\n4 5\n7 8 0 6"),
            Err(NpuzzleError::RowLength {
                line: 3,
                found: 2,
                size: 3
            })
        ));
        assert!(matches!(
            parse("3\n1 2 3\n4 5 6"),
            Err(NpuzzleError::RowCount { found: 2, size: 3 })
        ));
        // A size line alone is a file whose rows are missing, not a board of one tile.
        for text in ["3\n", "# a comment\n4 # size\n"] {
            assert!(
                matches!(parse_board(text), Err(NpuzzleError::NoRows { .. })),
                "{text:?}"
            );
        }
        assert!(matches!(
            parse_board("1"),
            Err(NpuzzleError::Board(ParseError::OneRow { tiles: 1 }))
        ));
        assert!(matches!(
            parse("2\n1 1\n3 0"),
            Err(NpuzzleError::Board(ParseError::Repeated { tile: 1, .. }))
        ));
        let msg = parse("3\n1 2 3\n4 5\n7 8 0").unwrap_err().to_string();
        assert!(
            msg.contains("line 3") && msg.contains("needs exactly 3"),
            "{msg}"
        );
    }
}
