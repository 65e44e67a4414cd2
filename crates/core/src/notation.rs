//! Two ways to write a solution.
//!
//! - [`Notation::Blank`], taquin's own ([`crate::moves`]): each letter names the direction the
//!   **blank** moves, one cell per letter: `ULLD`.
//! - [`Notation::Tiles`], the speed solvers' (slidysim and the speedsolving community): each
//!   letter names the direction a **tile** slides, the opposite of the blank's, and a run of
//!   tiles in one row or column slid at once is written with its length: `R3` slides three tiles
//!   right (the blank goes three cells left). `D` is `D1`.
//!
//! Both readers accept a count after any letter (`U2` = `UU`), spaces and commas between moves,
//! and either case.

use crate::moves::Move;

/// How moves are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Notation {
    /// The letter is the direction the blank moves, one letter per cell: `DLLURR`.
    #[default]
    Blank,
    /// The letter is the direction the tiles slide, runs written with their length: `U L2 D R`.
    Tiles,
}

/// A text that is not a move sequence in the notation asked for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NotationError {
    /// A character that is neither a move letter, a digit after one, nor a separator.
    #[error("'{found}' at position {position} is not a move: use U, D, L or R ({meaning}), optionally followed by a count (R3)")]
    BadLetter {
        /// The offending character.
        found: char,
        /// Its 1-based position (in characters).
        position: usize,
        /// What the letters mean in this notation.
        meaning: &'static str,
    },
    /// A count with no letter before it, or a count of zero.
    #[error("the count at position {position} has no move before it or is 0: write a letter, then how many cells (R3)")]
    BadCount {
        /// 1-based position of the count's first digit.
        position: usize,
    },
    /// A count larger than any board's side: no run of tiles is that long.
    #[error("the count at position {position} is over {max}, the longest side a board has: no run of tiles is that long")]
    CountTooLarge {
        /// 1-based position of the count's first digit.
        position: usize,
        /// The largest count there is.
        max: usize,
    },
}

/// Longest run a count may ask for: no board is wider or taller than this.
const MAX_COUNT: usize = crate::board::MAX_SIDE;

impl Notation {
    /// Both notations.
    pub const ALL: [Notation; 2] = [Notation::Blank, Notation::Tiles];

    /// The name used by `--notation` and the API's `notation` field.
    pub fn name(self) -> &'static str {
        match self {
            Notation::Blank => "blank",
            Notation::Tiles => "tiles",
        }
    }

    /// The notation with this name (any case), if any.
    pub fn from_name(name: &str) -> Option<Notation> {
        Notation::ALL
            .into_iter()
            .find(|n| n.name().eq_ignore_ascii_case(name.trim()))
    }

    /// What a letter means in this notation, for messages.
    fn meaning(self) -> &'static str {
        match self {
            Notation::Blank => "the direction the blank moves",
            Notation::Tiles => "the direction the tiles slide",
        }
    }

    /// The letter of a blank move `mv` in this notation.
    fn letter(self, mv: Move) -> char {
        match self {
            Notation::Blank => mv.letter(),
            Notation::Tiles => mv.inverse().letter(),
        }
    }

    /// Writes the blank's moves in this notation: `Blank` as plain letters (`DLLURR`), `Tiles`
    /// as space-separated runs (`U R2 D L2`).
    ///
    /// ```
    /// use taquin::{moves::parse_moves, notation::Notation};
    /// let moves = parse_moves("DLLURR")?;
    /// assert_eq!(Notation::Blank.format(&moves), "DLLURR");
    /// assert_eq!(Notation::Tiles.format(&moves), "U R2 D L2");
    /// assert_eq!(Notation::Tiles.parse("U R2 D L2")?, moves);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn format(self, moves: &[Move]) -> String {
        match self {
            Notation::Blank => crate::moves::to_letters(moves),
            // A run longer than a count may be (only a text that was never played on a board
            // has one) is written as several moves, so that what is written reads back.
            Notation::Tiles => runs(moves)
                .flat_map(|(mv, len)| {
                    let (whole, rest) = (len / MAX_COUNT, len % MAX_COUNT);
                    let counts = std::iter::repeat_n(MAX_COUNT, whole);
                    counts
                        .chain((rest > 0).then_some(rest))
                        .map(move |n| (mv, n))
                })
                .map(|(mv, len)| {
                    let letter = self.letter(mv);
                    if len == 1 {
                        letter.to_string()
                    } else {
                        format!("{letter}{len}")
                    }
                })
                .collect::<Vec<_>>()
                .join(" "),
        }
    }

    /// Reads moves written in this notation and returns the blank's moves, one per cell.
    pub fn parse(self, text: &str) -> Result<Vec<Move>, NotationError> {
        let mut moves = Vec::new();
        for w in self.written(text) {
            let w = w?;
            moves.extend(std::iter::repeat_n(w.blank, w.count));
        }
        Ok(moves)
    }

    /// The moves of `text` as they were written, one entry per letter with its count (so that
    /// a checker can say which written move goes wrong), one at a time and ending after the
    /// first error: a reader need not hold a long text's moves all at once (a 1000x1000
    /// board's solution has billions).
    pub fn written(self, text: &str) -> Written<'_> {
        Written {
            notation: self,
            chars: text.chars().enumerate().peekable(),
            failed: false,
        }
    }
}

/// The moves of a text as written ([`Notation::written`]).
pub struct Written<'a> {
    notation: Notation,
    chars: std::iter::Peekable<std::iter::Enumerate<std::str::Chars<'a>>>,
    /// An error was given: nothing follows it.
    failed: bool,
}

impl Written<'_> {
    /// The next written move, from the character after the last one.
    fn read(&mut self) -> Option<Result<WrittenMove, NotationError>> {
        let (i, c) = self
            .chars
            .by_ref()
            .find(|&(_, c)| !c.is_whitespace() && c != ',')?;
        if c.is_ascii_digit() {
            return Some(Err(NotationError::BadCount { position: i + 1 }));
        }
        let Some(letter) = Move::from_letter(c) else {
            return Some(Err(NotationError::BadLetter {
                found: c,
                position: i + 1,
                meaning: self.notation.meaning(),
            }));
        };
        let blank = match self.notation {
            Notation::Blank => letter,
            Notation::Tiles => letter.inverse(),
        };
        let mut digits = 0usize;
        let mut count = 0usize;
        while let Some(digit) = self.chars.peek().and_then(|&(_, d)| d.to_digit(10)) {
            digits += 1;
            count = (count * 10 + digit as usize).min(MAX_COUNT + 1);
            self.chars.next();
        }
        if digits > 0 && count == 0 {
            return Some(Err(NotationError::BadCount { position: i + 2 }));
        }
        if count > MAX_COUNT {
            return Some(Err(NotationError::CountTooLarge {
                position: i + 2,
                max: MAX_COUNT,
            }));
        }
        Some(Ok(WrittenMove {
            blank,
            count: count.max(1),
            position: i + 1,
            letter: c.to_ascii_uppercase(),
            counted: digits > 0,
        }))
    }
}

impl Iterator for Written<'_> {
    type Item = Result<WrittenMove, NotationError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let next = self.read();
        self.failed = matches!(next, Some(Err(_)));
        next
    }
}

/// One move as written: a letter and its count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrittenMove {
    /// The direction the blank goes (whatever the notation).
    pub blank: Move,
    /// Cells it goes (1 when no count is written).
    pub count: usize,
    /// 1-based position of the letter in the text.
    pub position: usize,
    /// The letter as written, upper case.
    pub letter: char,
    /// Whether a count follows the letter (`R1`, not `R`).
    pub counted: bool,
}

impl WrittenMove {
    /// The move as written, upper case (`R3`; a count written with leading zeros loses them).
    pub fn token(&self) -> String {
        if self.counted {
            format!("{}{}", self.letter, self.count)
        } else {
            self.letter.to_string()
        }
    }
}

impl std::fmt::Display for Notation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The maximal runs of equal consecutive moves: `(move, length)`. A run of the blank in one
/// direction slides that many tiles of one row or column at once.
pub fn runs(moves: &[Move]) -> impl Iterator<Item = (Move, usize)> + '_ {
    moves.chunk_by(|a, b| a == b).map(|run| (run[0], run.len()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::parse_moves;

    #[test]
    fn tiles_notation_inverts_letters_and_groups_runs() {
        let moves = parse_moves("UULLLDR").unwrap();
        assert_eq!(Notation::Tiles.format(&moves), "D2 R3 U L");
        assert_eq!(Notation::Tiles.parse("D2 R3 U L").unwrap(), moves);
        assert_eq!(Notation::Tiles.parse("d2,r3,u1,l").unwrap(), moves);
        assert_eq!(Notation::Tiles.parse("DDRRRUL").unwrap(), moves);
        assert_eq!(Notation::Blank.parse("U2L3DR").unwrap(), moves);
        assert_eq!(Notation::Blank.format(&moves), "UULLLDR");
        assert_eq!(Notation::Tiles.format(&[]), "");
    }

    #[test]
    fn a_run_longer_than_a_count_may_be_is_written_so_that_it_reads_back() {
        // Found by the `moves` fuzz target: 1,113 tiles slid up were written "U1113", which the
        // reader refuses (a count is at most the largest side, 1000).
        let moves = Notation::Tiles.parse("UUU555UUU554D").unwrap();
        assert_eq!(moves.len(), 1114);
        let written = Notation::Tiles.format(&moves);
        assert_eq!(written, "U1000 U113 D");
        assert_eq!(Notation::Tiles.parse(&written).unwrap(), moves);
        let exact = vec![Move::Left; 2 * MAX_COUNT];
        assert_eq!(Notation::Tiles.format(&exact), "R1000 R1000");
    }

    #[test]
    fn bad_text_is_refused_with_its_position() {
        assert_eq!(
            Notation::Tiles.parse("R2 X"),
            Err(NotationError::BadLetter {
                found: 'X',
                position: 4,
                meaning: "the direction the tiles slide"
            })
        );
        assert_eq!(
            Notation::Tiles.parse("3R"),
            Err(NotationError::BadCount { position: 1 })
        );
        assert_eq!(
            Notation::Blank.parse("R0"),
            Err(NotationError::BadCount { position: 2 })
        );
        assert_eq!(
            Notation::Blank.parse("R99999999999999999999"),
            Err(NotationError::CountTooLarge {
                position: 2,
                max: MAX_COUNT
            })
        );
        assert_eq!(Notation::from_name("Tiles"), Some(Notation::Tiles));
        assert_eq!(Notation::from_name("tile"), None);
    }
}
