//! The benchmark instance format of the files in `bench/`: one instance per line,
//! `ID OPTLEN t0 t1 ... t(N-1)`, tiles row-major, `0` the blank, on a square board whose goal
//! has the blank first (`0 1 2 ... N-1`, Korf's convention). `#` starts a comment line.

use std::collections::HashMap;

use crate::board::{Board, ParseError, Tile};

/// One benchmark instance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instance {
    /// The instance's identifier as written.
    pub id: String,
    /// The published optimal length, when known (`-` or `?` in the file for unknown).
    pub optimal_length: Option<u32>,
    /// The start board.
    pub board: Board,
    /// The goal: blank first, then `1..N`.
    pub goal: Board,
}

/// A line that is not a valid instance.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InstanceError {
    /// Fewer than three fields.
    #[error("line {line}: expected 'ID OPTLEN t0 t1 ... t(N-1)', found too few fields")]
    TooShort {
        /// 1-based line number.
        line: usize,
    },
    /// OPTLEN is not a number.
    #[error("line {line}: optimal length '{text}' is not a number (use - when unknown)")]
    BadLength {
        /// 1-based line number.
        line: usize,
        /// The field.
        text: String,
    },
    /// The tile count is not a square of at least 4.
    #[error("line {line}: {count} tiles do not make a square board (the format is for 3x3, 4x4, 5x5 ...)")]
    NotSquare {
        /// 1-based line number.
        line: usize,
        /// Tiles found.
        count: usize,
    },
    /// A tile field that is not a number, or tiles that are not a valid board.
    // Not a `source`: the message says it already, and a chain printed whole would say it twice.
    #[error("line {line}: {reason}")]
    Board {
        /// 1-based line number.
        line: usize,
        /// What is wrong with the tiles.
        reason: ParseError,
    },
    /// An id that an earlier line has already ([`parse_file`]): ids name the instances a run
    /// picks (`--ids`), and the results a resumed run skips.
    #[error(
        "line {line}: instance id '{id}' is line {first}'s too: give each instance its own id"
    )]
    DuplicateId {
        /// 1-based line number.
        line: usize,
        /// The id.
        id: String,
        /// The line that has it first.
        first: usize,
    },
}

/// `text` without its comment: from the first `#` that begins a field (at the start, or after
/// a space or a comma) to the end of the line, as in `12 57 1 2 ... # from Korf 1985`. A `#`
/// inside a field (an id such as `a#1`) is kept.
///
/// ```
/// use taquin::instances::without_comment;
/// assert_eq!(without_comment("1 2 3/4 0 6/7 5 8 # easy"), "1 2 3/4 0 6/7 5 8");
/// assert_eq!(without_comment(",# a comment line"), ",");
/// assert_eq!(without_comment("a#1 - 1 0 2 3"), "a#1 - 1 0 2 3");
/// ```
pub fn without_comment(text: &str) -> &str {
    let mut after_separator = true;
    for (i, c) in text.char_indices() {
        if c == '#' && after_separator {
            return text[..i].trim_end();
        }
        after_separator = c.is_whitespace() || c == ',';
    }
    text.trim_end()
}

/// Parses one line (`line_no` is 1-based, for errors). Comment and blank lines give `Ok(None)`;
/// a comment after the fields is left out ([`without_comment`]).
pub fn parse_line(text: &str, line_no: usize) -> Result<Option<Instance>, InstanceError> {
    // Separators before the first field are skipped, so that a line whose first field starts
    // with `#` is a comment however it is written (",#x ..." included): otherwise its id would
    // start with `#` and the instance, written back, would read as a comment.
    let text = without_comment(text).trim_start_matches(|c: char| c.is_whitespace() || c == ',');
    if text.is_empty() {
        return Ok(None);
    }
    let fields: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|f| !f.is_empty())
        .collect();
    if fields.len() < 3 {
        return Err(InstanceError::TooShort { line: line_no });
    }
    let optimal_length = match fields[1] {
        "-" | "?" => None,
        f => Some(f.parse::<u32>().map_err(|_| InstanceError::BadLength {
            line: line_no,
            text: f.to_string(),
        })?),
    };
    let count = fields.len() - 2;
    let Some(side) = crate::board::square_side(count) else {
        return Err(InstanceError::NotSquare {
            line: line_no,
            count,
        });
    };
    // The tiles as board text, `side` to a row, read by the one reader of tiles
    // ([`Board::parse`]): the blank 0, `_` or `.`, a bad token named by its row.
    let rows: Vec<String> = fields[2..].chunks(side).map(|row| row.join(" ")).collect();
    let board = Board::parse(&rows.join("/")).map_err(|reason| InstanceError::Board {
        line: line_no,
        reason,
    })?;
    let goal = Board::from_tiles(side, side, (0..count as Tile).collect()).map_err(|reason| {
        InstanceError::Board {
            line: line_no,
            reason,
        }
    })?;
    Ok(Some(Instance {
        id: fields[0].to_string(),
        optimal_length,
        board,
        goal,
    }))
}

/// Parses a whole file; the first bad line is the error, and so is an id given twice.
pub fn parse_file(text: &str) -> Result<Vec<Instance>, InstanceError> {
    let mut out = Vec::new();
    let mut lines: HashMap<String, usize> = HashMap::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(inst) = parse_line(line, i + 1)? {
            if let Some(&first) = lines.get(&inst.id) {
                return Err(InstanceError::DuplicateId {
                    line: i + 1,
                    id: inst.id,
                    first,
                });
            }
            lines.insert(inst.id.clone(), i + 1);
            out.push(inst);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_given_twice_is_refused_with_both_lines() {
        let text = "1 - 1 2 3 0\n# two\n2 - 1 2 0 3\n1 - 1 0 2 3\n";
        assert_eq!(
            parse_file(text).unwrap_err(),
            InstanceError::DuplicateId {
                line: 4,
                id: "1".into(),
                first: 1
            }
        );
        assert_eq!(parse_file("1 - 1 2 3 0\n2 - 1 2 0 3\n").unwrap().len(), 2);
    }

    #[test]
    fn reads_korf_lines_and_rejects_bad_ones() {
        let inst = parse_line("1 57 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", 1)
            .unwrap()
            .unwrap();
        assert_eq!(inst.optimal_length, Some(57));
        assert_eq!(inst.board.width(), 4);
        assert_eq!(inst.goal.blank(), 0);
        assert_eq!(parse_line("# comment", 1), Ok(None));
        // The blank as every board reader takes it: 0, `_` or `.`.
        for blank in ["_", "."] {
            let text = format!("3 - 1 2 3 4 {blank} 6 7 5 8");
            let inst = parse_line(&text, 1).unwrap().unwrap();
            assert_eq!(inst.board.to_line(), "1 2 3/4 0 6/7 5 8");
        }
        // Found by the batch_line fuzz target: a leading separator made `#a` an id, and the
        // instance written back (`#a - 1 2 3 0`) read as a comment.
        assert_eq!(parse_line(",#a - 1 2 3 0", 1), Ok(None));
        assert_eq!(parse_line(" , # a - 1 2 3 0", 1), Ok(None));
        assert!(parse_line(",a - 1 2 3 0", 1).unwrap().is_some());
        assert!(matches!(
            parse_line("1 x 1 2 3 0", 3),
            Err(InstanceError::BadLength { line: 3, .. })
        ));
        assert!(matches!(
            parse_line("1 5 1 2 3 0 4", 2),
            Err(InstanceError::NotSquare { count: 5, .. })
        ));
        assert!(matches!(
            parse_line("1 5 1 1 3 0", 2),
            Err(InstanceError::Board { .. })
        ));
    }
}
