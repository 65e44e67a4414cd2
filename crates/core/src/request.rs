//! A solve request, validated once: the board, the goal and the limits, with the sizes checked
//! and solvability decided (with its reason) before any plan or search.

use crate::board::Board;
use crate::limits::Limits;
use crate::solution::SolveError;
use crate::solvability::check_solvable;

/// A board to bring to a goal within limits, known to be solvable.
///
/// ```
/// use taquin::{Board, Limits, Request, SolveError};
/// let board: Board = "1 2 3/4 5 6/8 7 0".parse()?;
/// let goal = Board::solved(3, 3)?;
/// let err = Request::new(board, goal, Limits::none()).unwrap_err();
/// assert!(matches!(err, SolveError::Unsolvable(_)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Request {
    board: Board,
    goal: Board,
    limits: Limits,
}

impl Request {
    /// Checks that `board` and `goal` have the same size and that the goal can be reached.
    ///
    /// `limits` are the caller's, used as given, with one addition: a request with no deadline
    /// whose board has more than 16 cells, solved by the anytime search (the planner's choice
    /// there), runs for [`crate::planner::ANYTIME_BUDGET`] (10 s); give a deadline
    /// ([`Limits::with_timeout`]) to choose another time.
    pub fn new(board: Board, goal: Board, limits: Limits) -> Result<Request, SolveError> {
        board.check_same_size(&goal)?;
        check_solvable(&board, &goal)?;
        Ok(Request {
            board,
            goal,
            limits,
        })
    }

    /// The start board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The goal.
    pub fn goal(&self) -> &Board {
        &self.goal
    }

    /// The time, node and memory limits and the cancel flag.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The same pair with other limits (the pair needs no new check).
    pub fn with_limits(mut self, limits: Limits) -> Request {
        self.limits = limits;
        self
    }
}
