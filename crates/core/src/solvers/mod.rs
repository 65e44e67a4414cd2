//! Beyond optimal search: solvers that trade optimality for reach.
//!
//! - [`constructive`]: places rows and columns one by one on any m x n board up to 1000 x 1000,
//!   then finishes a core of at most 3 x 3 optimally. Linear memory, no search.
//! - [`lookahead`]: the automatic player of a published student project, reproduced faithfully: it looks
//!   a few moves ahead, plays the best leaf's moves, and cycles; the cycle is detected and
//!   reported instead of running forever.
//! - [`lrta`]: Korf's (1990) Learning Real-Time A*, a real-time player that always reaches the
//!   goal because it learns, on every state it leaves, a better estimate of its distance.
//! - [`anytime`]: a first solution at once, then better ones until the deadline, with the best
//!   proven lower bound; the planner's default beyond 16 cells.
//! - [`shorten`]: a post-pass that shortens any solution: it cancels moves undone at once, cuts
//!   loops back to an earlier state, and re-solves short windows optimally.
//!
//! Weighted A* and greedy best-first need no module of their own: they are the generic
//! [`crate::search::best_first`] with another [`crate::search::Priority`].

pub mod anytime;
pub mod constructive;
pub mod lookahead;
pub mod lrta;
pub mod shorten;

use crate::algorithm::Algorithm;
use crate::board::{Board, BLANK};
use crate::heuristic::manhattan::cell_distance;
use crate::heuristic::Heuristic;
use crate::limits::ProgressFn;
use crate::request::Request;
use crate::search::puzzle_graph::{graph_solution, PuzzleGraph};
use crate::search::{best_first, Priority};
use crate::solution::{Solution, SolveError, Stats};

/// Largest board (in cells) for the algorithms that store every board they meet (weighted A*,
/// greedy, LRTA*): each stored board costs four bytes a cell.
const MAX_TABLE_CELLS: usize = 64 * 64;

/// Deepest look-ahead of the real-time players ([`lookahead`], [`lrta`]). Their trees grow about
/// threefold with each level, so depth 24 already means some 10^11 boards before each move,
/// far past any time limit worth waiting for; the recursion stays a few dozen frames deep.
pub const MAX_DEPTH: usize = 24;

/// Refuses a look-ahead depth outside 1..=[`MAX_DEPTH`], saying which player and why.
pub(crate) fn check_depth(depth: usize, player: &str) -> Result<(), SolveError> {
    if (1..=MAX_DEPTH).contains(&depth) {
        Ok(())
    } else {
        Err(SolveError::Unsupported(format!(
            "the {player} look-ahead depth must be between 1 and {MAX_DEPTH}, not {depth}: its \
             tree grows threefold with each level (the look-ahead player's report uses 4)"
        )))
    }
}

/// Runs one of the algorithms beyond optimal search for [`crate::solve`], which has planned the
/// request (`heuristic` is the planned one for the algorithms that take one) and replays the
/// result.
pub(crate) fn run(
    algorithm: Algorithm,
    request: &Request,
    heuristic: Option<&dyn Heuristic>,
    weight: f64,
    depth: usize,
    progress: Option<ProgressFn>,
) -> Result<Solution, SolveError> {
    let (board, goal, limits) = (request.board(), request.goal(), request.limits());
    let table_sized = || {
        if board.len() > MAX_TABLE_CELLS {
            Err(SolveError::Unsupported(format!(
                "{algorithm} stores every board it meets, four bytes a cell each: it is offered up \
                 to 64x64 boards; use constructive for this {}x{} board",
                board.width(),
                board.height()
            )))
        } else {
            Ok(())
        }
    };
    let guided = || {
        heuristic.ok_or_else(|| {
            SolveError::Unsupported(format!("{algorithm} needs a heuristic to guide it"))
        })
    };
    match algorithm {
        Algorithm::WeightedAStar | Algorithm::Greedy => {
            table_sized()?;
            let priority = if algorithm == Algorithm::Greedy {
                Priority::Greedy
            } else {
                if !(weight.is_finite() && weight >= 1.0) {
                    return Err(SolveError::Unsupported(format!(
                        "the weight of weighted A* must be a number >= 1 (1 is plain A*), not {weight}"
                    )));
                }
                Priority::Weighted(weight)
            };
            let graph = PuzzleGraph::new(goal, guided()?);
            let start = graph.pack(board.tiles());
            let mut s = graph_solution(
                &graph,
                best_first(&graph, start, priority, limits, progress),
            )?;
            s.optimal = false;
            Ok(s)
        }
        Algorithm::Constructive => {
            if board.width() <= 3 && board.height() <= 3 {
                return constructive::constructive(board, goal, limits);
            }
            let c = constructive::construct_checked(board, goal, limits)
                .map_err(|e| with_manhattan_bound(e, board, goal))?;
            Ok(Solution {
                moves: c.moves,
                optimal: false,
                stats: Stats {
                    expanded: c.tiles_placed,
                    generated: c.raw_moves,
                    elapsed: c.elapsed,
                    ..Stats::default()
                },
                ..Solution::default()
            })
        }
        Algorithm::Lookahead => lookahead::lookahead(board, goal, depth, limits),
        Algorithm::Lrta => {
            table_sized()?;
            lrta::lrta(board, goal, guided()?, depth, limits)
        }
        Algorithm::AStar | Algorithm::IdaStar | Algorithm::Bfs | Algorithm::Anytime => Err(
            SolveError::Unsupported(format!("{algorithm} is run by crate::solve itself")),
        ),
    }
}

/// The Manhattan distance of `board` to `goal`: a lower bound on the optimal length, in linear
/// time and memory and summed in 64 bits, for boards of any size. Boards of two sizes have no
/// distance: 0, the bound that holds for anything (error paths ask before sizes are checked).
///
/// ```
/// use taquin::{solvers::manhattan_lower_bound, Board};
/// let board: Board = "6 4 7/8 5 0/3 2 1".parse().unwrap();
/// assert_eq!(manhattan_lower_bound(&board, &Board::solved(3, 3).unwrap()), 21);
/// assert_eq!(manhattan_lower_bound(&board, &Board::solved(2, 2).unwrap()), 0);
/// ```
pub fn manhattan_lower_bound(board: &Board, goal: &Board) -> u64 {
    if board.check_same_size(goal).is_err() {
        return 0;
    }
    let width = goal.width();
    let goal_pos = goal.positions();
    board
        .tiles()
        .iter()
        .enumerate()
        .filter(|&(_, &t)| t != BLANK)
        .map(|(cell, &t)| cell_distance(cell, goal_pos[t as usize], width) as u64)
        .sum()
}

/// A limit error given the Manhattan distance as its bound (the constructive solver proves no
/// better one); other errors unchanged.
pub(crate) fn with_manhattan_bound(e: SolveError, board: &Board, goal: &Board) -> SolveError {
    match e {
        SolveError::Limit { hit, stats, .. } => SolveError::Limit {
            hit,
            stats,
            bound: u32::try_from(manhattan_lower_bound(board, goal)).unwrap_or(u32::MAX),
        },
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::{Heuristic, Manhattan};

    #[test]
    fn lower_bound_matches_the_heuristic() {
        let goal: Board = "1 2 3 4/5 6 7 8/9 10 11 0".parse().unwrap();
        let board: Board = "0 11 3 4/9 6 10 8/5 2 7 1".parse().unwrap();
        let table = Manhattan::new(&goal).estimate(board.tiles());
        assert_eq!(manhattan_lower_bound(&board, &goal), u64::from(table));
    }
}
