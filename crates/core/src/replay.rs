//! Checking a solution from any tool: replays written moves on a board and says where they go
//! wrong (which written move, from which board, why), or that they reach the goal.

use crate::board::Board;
use crate::metric::metrics;
use crate::moves::Move;
use crate::notation::{Notation, NotationError, WrittenMove};

/// Why written moves are not a solution.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReplayError {
    /// A move would take the blank off the board.
    #[error("move {index} ('{token}' at character {position}) is impossible{step}: {reason}, on the board\n{before}")]
    Illegal {
        /// 1-based number of the written move.
        index: usize,
        /// The move as written.
        token: String,
        /// Its position in the text.
        position: usize,
        /// For a run (`R3`), which of its cells fails, as words; empty otherwise.
        step: String,
        /// Why: where the blank is and where it cannot go.
        reason: String,
        /// The board the move is tried on.
        before: Box<Board>,
    },
    /// Every move is legal but the last board is not the goal.
    #[error("the moves are legal ({moves} written) but end on\n{end}\nwhich is not the goal\n{goal}\n(tiles out of place: {misplaced})")]
    NotGoal {
        /// Written moves.
        moves: usize,
        /// Where they end.
        end: Box<Board>,
        /// The goal.
        goal: Box<Board>,
        /// Tiles (blank excluded) not on their goal cell.
        misplaced: usize,
    },
}

/// Replays `written` moves from `board`; on success returns the blank's moves, one per cell.
pub fn replay(
    board: &Board,
    goal: &Board,
    written: impl IntoIterator<Item = WrittenMove>,
) -> Result<Vec<Move>, ReplayError> {
    let mut b = board.clone();
    let mut moves = Vec::new();
    let mut count = 0;
    for (i, w) in written.into_iter().enumerate() {
        count = i + 1;
        for step in 0..w.count {
            if !b.apply(w.blank) {
                return Err(ReplayError::Illegal {
                    index: i + 1,
                    token: w.token(),
                    position: w.position,
                    step: if w.count > 1 {
                        format!(" (cell {} of its {})", step + 1, w.count)
                    } else {
                        String::new()
                    },
                    reason: blocked(&b, w.blank),
                    before: Box::new(b),
                });
            }
            moves.push(w.blank);
        }
    }
    if &b != goal {
        let misplaced = b
            .tiles()
            .iter()
            .zip(goal.tiles())
            .filter(|&(&t, &g)| t != g && t != 0)
            .count();
        return Err(ReplayError::NotGoal {
            moves: count,
            end: Box::new(b),
            goal: Box::new(goal.clone()),
            misplaced,
        });
    }
    Ok(moves)
}

/// Why the blank of `board` cannot move by `mv`, in words of both notations.
fn blocked(board: &Board, mv: Move) -> String {
    let (col, row) = (board.blank() % board.width(), board.blank() / board.width());
    let edge = match mv {
        Move::Up => "top row",
        Move::Down => "bottom row",
        Move::Left => "leftmost column",
        Move::Right => "rightmost column",
    };
    format!(
        "the blank is in the {edge} (row {}, column {}), so it cannot move {} (no tile can slide {}: {} in tile notation)",
        row + 1,
        col + 1,
        direction(mv),
        direction(mv.inverse()),
        mv.inverse().letter()
    )
}

fn direction(mv: Move) -> &'static str {
    match mv {
        Move::Up => "up",
        Move::Down => "down",
        Move::Left => "left",
        Move::Right => "right",
    }
}

/// A solution that reached the goal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replayed {
    /// The blank's moves, one per cell.
    pub moves: Vec<Move>,
    /// Length in single-tile moves.
    pub stm: usize,
    /// Length in multi-tile moves.
    pub mtm: usize,
}

/// Why a text is not a solution: it is not moves at all (bad usage), or the moves fail.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CheckError {
    /// The text is not a move sequence in the notation given. (Not the error's `source`: the
    /// message holds it already, and a chain printer would say it twice.)
    #[error("invalid moves: {0}")]
    Notation(NotationError),
    /// The moves are not a solution.
    #[error(transparent)]
    Replay(#[from] ReplayError),
}

impl From<NotationError> for CheckError {
    fn from(e: NotationError) -> CheckError {
        CheckError::Notation(e)
    }
}

/// Parses `text` in `notation` and replays it from `board` to `goal`.
pub fn check(
    board: &Board,
    goal: &Board,
    text: &str,
    notation: Notation,
) -> Result<Replayed, CheckError> {
    // Read through once before any move is played, so that a text that is not moves at all is
    // bad input wherever its fault is, even past an impossible move; the moves are then read
    // again one at a time rather than held (a long text's would take many times its size).
    if let Some(err) = notation.written(text).find_map(Result::err) {
        return Err(err.into());
    }
    let moves = replay(board, goal, notation.written(text).map_while(Result::ok))?;
    let (stm, mtm) = metrics(&moves);
    Ok(Replayed { moves, stm, mtm })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn goal() -> Board {
        Board::solved(3, 3).unwrap()
    }

    #[test]
    fn a_valid_solution_in_either_notation() {
        let board = Board::parse("1 2 3/4 5 6/0 7 8").unwrap();
        let tiles = check(&board, &goal(), "L2", Notation::Tiles).unwrap();
        assert_eq!((tiles.stm, tiles.mtm), (2, 1));
        assert_eq!(check(&board, &goal(), "RR", Notation::Blank), Ok(tiles));
    }

    #[test]
    fn errors_say_which_move_from_which_board_and_why() {
        let board = Board::parse("1 2 3/4 5 6/0 7 8").unwrap();
        let err = check(&board, &goal(), "R L3", Notation::Tiles).unwrap_err();
        let msg = err.to_string();
        assert!(
            matches!(
                err,
                CheckError::Replay(ReplayError::Illegal { index: 1, .. })
            ),
            "{msg}"
        );
        assert!(
            msg.contains("leftmost column") && msg.contains("'R'"),
            "{msg}"
        );
        let err = check(&board, &goal(), "L3", Notation::Tiles).unwrap_err();
        assert!(err.to_string().contains("cell 3 of its 3"), "{err}");
        let err = check(&board, &goal(), "R", Notation::Blank).unwrap_err();
        assert!(
            matches!(
                err,
                CheckError::Replay(ReplayError::NotGoal { misplaced: 1, .. })
            ),
            "{err}"
        );
        assert!(matches!(
            check(&board, &goal(), "RX", Notation::Blank),
            Err(CheckError::Notation(_))
        ));
    }
}
