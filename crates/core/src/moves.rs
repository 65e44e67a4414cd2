//! The one move convention of taquin: a letter U, D, L or R names the direction the **blank**
//! moves. `U` moves the blank up, which slides the tile above it down.
//!
//! A path is written as a string of these letters ("DLRU..."), as in the classic heuristics
//! comparison; the CLI's `--help` and the web API documentation repeat the convention.

use std::fmt;

/// A move of the blank, one cell in one direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// The blank moves up (the tile above slides down).
    Up,
    /// The blank moves down (the tile below slides up).
    Down,
    /// The blank moves left (the tile on its left slides right).
    Left,
    /// The blank moves right (the tile on its right slides left).
    Right,
}

/// A move letter that is not U, D, L or R.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{letter}' at position {position} is not a move: use U, D, L or R (the direction the blank moves)")]
pub struct MoveParseError {
    /// The offending character.
    pub letter: char,
    /// Its 1-based position in the text.
    pub position: usize,
}

impl Move {
    /// Every move, in the fixed order U, D, L, R: the order of [`Move::index`], of expansion in
    /// A*, BFS and the other searches, and of tie-breaks. IDA* expands in Korf's order instead
    /// ([`crate::search::idastar::EXPANSION_ORDER`]), to reproduce published node counts.
    pub const ALL: [Move; 4] = [Move::Up, Move::Down, Move::Left, Move::Right];

    /// The move that undoes this one.
    pub fn inverse(self) -> Move {
        match self {
            Move::Up => Move::Down,
            Move::Down => Move::Up,
            Move::Left => Move::Right,
            Move::Right => Move::Left,
        }
    }

    /// The letter of this move: `U`, `D`, `L` or `R`.
    pub fn letter(self) -> char {
        match self {
            Move::Up => 'U',
            Move::Down => 'D',
            Move::Left => 'L',
            Move::Right => 'R',
        }
    }

    /// The move named by a letter (either case).
    pub fn from_letter(c: char) -> Option<Move> {
        match c.to_ascii_uppercase() {
            'U' => Some(Move::Up),
            'D' => Some(Move::Down),
            'L' => Some(Move::Left),
            'R' => Some(Move::Right),
            _ => None,
        }
    }

    /// True for U and D.
    pub fn is_vertical(self) -> bool {
        matches!(self, Move::Up | Move::Down)
    }

    /// The cell the blank reaches from `blank` on a `width x height` board, if it stays on it.
    pub fn target(self, blank: usize, width: usize, height: usize) -> Option<usize> {
        let (col, row) = (blank % width, blank / width);
        match self {
            Move::Up if row > 0 => Some(blank - width),
            Move::Down if row + 1 < height => Some(blank + width),
            Move::Left if col > 0 => Some(blank - 1),
            Move::Right if col + 1 < width => Some(blank + 1),
            _ => None,
        }
    }

    /// Index 0..4 in [`Move::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

/// One move from its letter ([`Move::from_letter`]: U, D, L or R, either case, white space
/// around it ignored); any other text, more than one letter included, is refused with the
/// valid letters. [`parse_moves`] reads a list of them.
///
/// ```
/// use taquin::Move;
/// assert_eq!("U".parse::<Move>()?, Move::Up);
/// assert_eq!(" r ".parse::<Move>()?, Move::Right);
/// let e = "UD".parse::<Move>().unwrap_err();
/// assert!(e.to_string().starts_with("unknown move 'UD': use one of U, D, L or R"));
/// # Ok::<(), taquin::algorithm::UnknownName>(())
/// ```
impl std::str::FromStr for Move {
    type Err = crate::algorithm::UnknownName;

    fn from_str(text: &str) -> Result<Move, Self::Err> {
        let mut letters = text.trim().chars();
        match (letters.next().and_then(Move::from_letter), letters.next()) {
            (Some(m), None) => Ok(m),
            _ => Err(crate::algorithm::UnknownName {
                what: "move",
                name: text.to_string(),
                valid: "U, D, L or R (the letter of the direction the blank moves)".to_string(),
            }),
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// Writes moves as letters, e.g. `"DLLURR"`.
pub fn to_letters(moves: &[Move]) -> String {
    moves.iter().map(|m| m.letter()).collect()
}

/// Reads moves from letters, ignoring white space and commas.
pub fn parse_moves(text: &str) -> Result<Vec<Move>, MoveParseError> {
    text.chars()
        .enumerate()
        .filter(|(_, c)| !c.is_whitespace() && *c != ',')
        .map(|(i, c)| {
            Move::from_letter(c).ok_or(MoveParseError {
                letter: c,
                position: i + 1,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_round_trip() {
        let moves = parse_moves("DLLURR d").unwrap();
        assert_eq!(to_letters(&moves), "DLLURRD");
        let err = parse_moves("DLX").unwrap_err();
        assert_eq!((err.letter, err.position), ('X', 3));
    }

    #[test]
    fn inverse_is_an_involution_and_targets_stay_on_board() {
        for m in Move::ALL {
            assert_eq!(m.inverse().inverse(), m);
            assert_ne!(m.inverse(), m);
        }
        assert_eq!(Move::Up.target(1, 3, 3), None);
        assert_eq!(Move::Down.target(1, 3, 3), Some(4));
        assert_eq!(Move::Left.target(3, 3, 3), None);
        assert_eq!(Move::Right.target(5, 3, 3), None);
    }
}
