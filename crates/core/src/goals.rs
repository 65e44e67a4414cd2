//! Named goals: `standard` (1..N-1 then the blank), `korf` (the blank first, then 1..N-1, the
//! goal of Korf's benchmark files) and `snail` (1 in the top-left corner, the numbers spiralling
//! clockwise inwards, the blank where the spiral ends: the goal of the 42 school's n-puzzle),
//! for every m x n board, square or not.
//!
//! [`parse_goal`] is the one entry point of `--goal` and of the API's `goal` field: a name, or
//! board text as [`Board::parse`] reads it.

use crate::board::{Board, ParseError, Tile, BLANK};

/// A goal known by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NamedGoal {
    /// Tiles 1..N-1 in row-major order, the blank last (taquin's default).
    Standard,
    /// The blank first, then 1..N-1 in row-major order (Korf's benchmark instances).
    Korf,
    /// 1 in the top-left corner, then clockwise inwards; the blank where the spiral ends.
    Snail,
}

/// A goal text that is neither a known name nor a valid board.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GoalError {
    /// A word that names no goal.
    #[error("unknown goal '{name}': use standard, korf or snail, or write the goal board (e.g. \"1 2 3/4 5 6/7 8 0\")")]
    UnknownName {
        /// The word as written.
        name: String,
    },
    /// Board text that is not a valid board, or not of the board's size.
    #[error(transparent)]
    Board(#[from] ParseError),
}

impl NamedGoal {
    /// Every named goal, in the order they are listed to users.
    pub const ALL: [NamedGoal; 3] = [NamedGoal::Standard, NamedGoal::Korf, NamedGoal::Snail];

    /// The name accepted by `--goal` and the API.
    pub fn name(self) -> &'static str {
        match self {
            NamedGoal::Standard => "standard",
            NamedGoal::Korf => "korf",
            NamedGoal::Snail => "snail",
        }
    }

    /// The goal with this name (any case), if any.
    pub fn from_name(name: &str) -> Option<NamedGoal> {
        NamedGoal::ALL
            .into_iter()
            .find(|g| g.name().eq_ignore_ascii_case(name.trim()))
    }

    /// This goal on a `width x height` board (`width` columns).
    pub fn board(self, width: usize, height: usize) -> Result<Board, ParseError> {
        let n = width * height;
        let tiles: Vec<Tile> = match self {
            NamedGoal::Standard => return Board::solved(width, height),
            NamedGoal::Korf => (0..n as Tile).collect(),
            NamedGoal::Snail => {
                let mut tiles = vec![BLANK; n];
                for (k, cell) in spiral(width, height).into_iter().enumerate() {
                    // The last cell of the spiral keeps the blank.
                    if k + 1 < n {
                        tiles[cell] = k as Tile + 1;
                    }
                }
                tiles
            }
        };
        Board::from_tiles(width, height, tiles)
    }
}

impl std::fmt::Display for NamedGoal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The cells of a `width x height` board in clockwise spiral order from the top-left corner.
fn spiral(width: usize, height: usize) -> Vec<usize> {
    let mut order = Vec::with_capacity(width * height);
    // Bounds of the ring still to walk, inclusive.
    let (mut top, mut bottom, mut left, mut right) = (0, height - 1, 0, width - 1);
    loop {
        order.extend((left..=right).map(|c| top * width + c));
        if top == bottom {
            break;
        }
        top += 1;
        order.extend((top..=bottom).map(|r| r * width + right));
        if left == right {
            break;
        }
        right -= 1;
        order.extend((left..=right).rev().map(|c| bottom * width + c));
        if top == bottom {
            break;
        }
        bottom -= 1;
        order.extend((top..=bottom).rev().map(|r| r * width + left));
        if left == right {
            break;
        }
        left += 1;
    }
    order
}

/// The goal a word names (`standard`, `korf`, `snail`, any case) on a `width x height` board, or
/// an error for a word that names none; `None` when `text` is not a word (board text), for the
/// caller to read as a board. Every front end reads goals through it (or [`parse_goal`]), so a
/// name that works on the command line works in the web API and in Python too.
///
/// ```
/// use taquin::goals::goal_by_name;
/// assert_eq!(goal_by_name("Korf", 3, 3).unwrap()?.to_line(), "0 1 2/3 4 5/6 7 8");
/// assert!(goal_by_name("snial", 3, 3).unwrap().is_err());
/// assert!(goal_by_name("1 2/3 0", 2, 2).is_none());
/// # Ok::<(), taquin::goals::GoalError>(())
/// ```
pub fn goal_by_name(text: &str, width: usize, height: usize) -> Option<Result<Board, GoalError>> {
    if let Some(named) = NamedGoal::from_name(text) {
        return Some(named.board(width, height).map_err(GoalError::from));
    }
    let word = text.trim();
    (!word.is_empty() && word.chars().all(|c| c.is_ascii_alphabetic() || c == '-')).then(|| {
        Err(GoalError::UnknownName {
            name: word.to_string(),
        })
    })
}

/// The goal named or written by `text` for a `width x height` board: `standard`, `korf`,
/// `snail` (any case), or board text, which must then have that size.
///
/// ```
/// use taquin::goals::parse_goal;
/// assert_eq!(parse_goal("snail", 3, 3)?.to_line(), "1 2 3/8 0 4/7 6 5");
/// assert_eq!(parse_goal("korf", 3, 2)?.to_line(), "0 1 2/3 4 5");
/// assert_eq!(parse_goal("1 2/3 0", 2, 2)?.to_line(), "1 2/3 0");
/// assert!(parse_goal("snial", 3, 3).is_err());
/// # Ok::<(), taquin::goals::GoalError>(())
/// ```
pub fn parse_goal(text: &str, width: usize, height: usize) -> Result<Board, GoalError> {
    if let Some(named) = goal_by_name(text, width, height) {
        return named;
    }
    let goal = Board::parse(text)?;
    if goal.width() != width || goal.height() != height {
        return Err(ParseError::SizeMismatch {
            bw: width,
            bh: height,
            gw: goal.width(),
            gh: goal.height(),
        }
        .into());
    }
    Ok(goal)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snail_spirals_clockwise_on_square_and_oblong_boards() {
        let snail = |w, h| NamedGoal::Snail.board(w, h).unwrap().to_line();
        assert_eq!(snail(4, 4), "1 2 3 4/12 13 14 5/11 0 15 6/10 9 8 7");
        assert_eq!(snail(2, 2), "1 2/0 3");
        assert_eq!(snail(4, 2), "1 2 3 4/0 7 6 5");
        assert_eq!(snail(2, 4), "1 2/0 3/7 4/6 5");
        assert_eq!(snail(5, 3), "1 2 3 4 5/12 13 14 0 6/11 10 9 8 7");
        assert_eq!(snail(3, 5), "1 2 3/12 13 4/11 14 5/10 0 6/9 8 7");
    }

    #[test]
    fn every_size_gets_a_valid_goal_of_each_name() {
        for w in 2..=7 {
            for h in 2..=7 {
                for g in NamedGoal::ALL {
                    let b = g.board(w, h).unwrap();
                    assert_eq!((b.width(), b.height()), (w, h));
                }
                assert_eq!(
                    NamedGoal::Korf.board(w, h).unwrap().blank(),
                    0,
                    "{w}x{h} korf"
                );
            }
        }
    }

    #[test]
    fn names_and_board_text_parse_and_errors_say_what_to_do() {
        assert_eq!(
            parse_goal("STANDARD", 3, 3).unwrap(),
            Board::solved(3, 3).unwrap()
        );
        assert_eq!(
            parse_goal("korf", 4, 4).unwrap().to_line(),
            "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15"
        );
        let err = parse_goal("spiral", 3, 3).unwrap_err().to_string();
        assert!(err.contains("use standard, korf or snail"), "{err}");
        assert!(matches!(
            parse_goal("1 2/3 0", 3, 3),
            Err(GoalError::Board(ParseError::SizeMismatch { .. }))
        ));
        assert!(matches!(
            parse_goal("1 2/3 x", 2, 2),
            Err(GoalError::Board(ParseError::BadToken { .. }))
        ));
    }
}
