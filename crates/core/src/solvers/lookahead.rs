//! The look-ahead player of a published student project, reproduced faithfully so users can
//! watch it fail.
//!
//! From the current board it builds every sequence of `depth` moves (four in the project's report) that
//! never undoes the move before it, scores the leaves by Manhattan distance, plays all the moves
//! of the best leaf (the first one met in U, D, L, R order among equals), and repeats. When a
//! board of the tree is the goal, it plays the moves to the nearest such board and stops.
//!
//! The player is deterministic: what it does next depends only on the board and on its last move.
//! So the moment it stands on a board, with the same last move, that it stood on before, it will
//! repeat the same moves forever. That is detected exactly (every board it stopped on is kept)
//! and reported as [`SolveError::Cycle`] with the moves made and the states repeated; the
//! authors' observation that it "never reached the goal" is this cycle. The player in
//! [`crate::solvers::lrta`] is the one that always arrives.

use crate::clock::Instant;
use std::collections::HashMap;

use crate::board::{Board, Tile, BLANK};
use crate::heuristic::{Heuristic, Manhattan};
use crate::limits::{Budget, Limits};
use crate::moves::Move;
use crate::solution::{Solution, SolveError, Stats};
use crate::solvability::check_solvable;

/// Plays the look-ahead player from `board` until it reaches `goal` (a solution, never
/// proven optimal) or repeats a state ([`SolveError::Cycle`]). `depth` is the tree's depth, at
/// least 1 and at most [`super::MAX_DEPTH`]. Statistics: `expanded` counts tree nodes expanded, `generated` the nodes created.
///
/// ```
/// use taquin::{solvers::lookahead::lookahead, Board, Limits, SolveError};
/// let goal = Board::solved(3, 3).unwrap();
/// let near: Board = "1 2 3/4 5 6/0 7 8".parse().unwrap();
/// assert_eq!(lookahead(&near, &goal, 4, &Limits::none()).unwrap().letters(), "RR");
/// let far: Board = "8 6 7/2 5 4/3 0 1".parse().unwrap();
/// match lookahead(&far, &goal, 4, &Limits::none()) {
///     Err(SolveError::Cycle { moves_made, states_repeated, .. }) => {
///         assert!(moves_made > 0 && states_repeated > 0)
///     }
///     other => panic!("expected a cycle, got {other:?}"),
/// }
/// ```
pub fn lookahead(
    board: &Board,
    goal: &Board,
    depth: usize,
    limits: &Limits,
) -> Result<Solution, SolveError> {
    check_solvable(board, goal)?;
    super::check_depth(depth, "lookahead")?;
    let started = Instant::now();
    let score = Manhattan::new(goal);
    let mut tree = Tree {
        tiles: board.tiles().to_vec(),
        goal: goal.tiles(),
        width: board.width(),
        height: board.height(),
        score: &score,
        depth,
        path: Vec::with_capacity(depth),
        best: None,
        best_goal: None,
        stats: Stats::default(),
        budget: Budget::new(limits),
    };
    let mut blank = board.blank();
    let mut h = score.estimate(board.tiles());
    let mut closest = h;
    let mut moves: Vec<Move> = Vec::new();
    let mut last: Option<Move> = None;
    // Every board the player stopped on, with its last move: the step and the move count then.
    let mut seen: HashMap<StopKey, (u64, usize)> = HashMap::new();
    let mut steps = 0u64;
    seen.insert((tree.tiles.clone().into(), last), (0, 0));
    loop {
        if h == 0 && tree.tiles == tree.goal {
            tree.stats.elapsed = started.elapsed();
            return Ok(Solution {
                moves,
                optimal: false,
                stats: tree.stats,
                ..Solution::default()
            });
        }
        tree.best = None;
        tree.best_goal = None;
        tree.dfs(blank, h, last);
        if let Some(hit) = tree.budget.hit() {
            tree.stats.elapsed = started.elapsed();
            return Err(SolveError::Limit {
                hit,
                stats: tree.stats,
                bound: score.estimate(board.tiles()),
            });
        }
        let (chosen, _) = tree
            .best_goal
            .take()
            .or(tree.best.take())
            .ok_or_else(|| SolveError::Unsupported("the board has no legal move".into()))?;
        for &m in &chosen {
            let to = m
                .target(blank, tree.width, tree.height)
                .ok_or_else(|| SolveError::InvalidSolution("lookahead left the board".into()))?;
            let t = tree.tiles[to];
            h = h + score.tile_distance(t, blank) - score.tile_distance(t, to);
            tree.tiles.swap(blank, to);
            blank = to;
            moves.push(m);
        }
        last = chosen.last().copied();
        closest = closest.min(h);
        steps += 1;
        let key = (tree.tiles.clone().into_boxed_slice(), last);
        if let Some(&(first_step, first_moves)) = seen.get(&key) {
            tree.stats.elapsed = started.elapsed();
            return Err(SolveError::Cycle {
                moves_made: moves.len() as u64,
                cycle_start: first_moves as u64,
                cycle_moves: (moves.len() - first_moves) as u64,
                states_repeated: steps - first_step,
                closest,
                stats: tree.stats,
            });
        }
        seen.insert(key, (steps, moves.len()));
        // Checked after every step: a step is dozens of nodes, and every board kept costs a
        // copy of the board (4 MB on a 1000x1000 board), so memory is budgeted too.
        let kept_bytes = seen.len() * (board.len() * std::mem::size_of::<Tile>() + 48);
        tree.stats.peak_memory_bytes = kept_bytes;
        if let Some(hit) = limits
            .check(tree.stats.generated)
            .err()
            .or(limits.check_memory(kept_bytes).err())
        {
            tree.stats.elapsed = started.elapsed();
            return Err(SolveError::Limit {
                hit,
                stats: tree.stats.clone(),
                bound: score.estimate(board.tiles()),
            });
        }
    }
}

/// A board the player stopped on, with the move that brought it there: all that decides
/// what it does next.
type StopKey = (Box<[Tile]>, Option<Move>);

/// The look-ahead tree, explored depth first on one board mutated in place.
struct Tree<'a> {
    tiles: Vec<Tile>,
    goal: &'a [Tile],
    width: usize,
    height: usize,
    score: &'a Manhattan,
    depth: usize,
    path: Vec<Move>,
    /// The best leaf so far: its moves and score.
    best: Option<(Vec<Move>, u32)>,
    /// The shallowest goal board met in the tree, if any.
    best_goal: Option<(Vec<Move>, u32)>,
    stats: Stats,
    /// Checked inside the tree: one tree can be billions of nodes.
    budget: Budget<'a>,
}

impl Tree<'_> {
    fn dfs(&mut self, blank: usize, h: u32, last: Option<Move>) {
        if h == 0 && !self.path.is_empty() && self.tiles == self.goal {
            let d = self.path.len() as u32;
            if !matches!(&self.best_goal, Some((_, bd)) if *bd <= d) {
                self.best_goal = Some((self.path.clone(), d));
            }
            return;
        }
        if self.path.len() == self.depth {
            if !matches!(&self.best, Some((_, bh)) if *bh <= h) {
                self.best = Some((self.path.clone(), h));
            }
            return;
        }
        // Each node costs a constant (the board is updated in place, the score incrementally).
        if self.budget.spend(1, self.stats.generated) {
            return;
        }
        self.stats.expanded += 1;
        for m in Move::ALL {
            if last == Some(m.inverse()) {
                continue;
            }
            let Some(to) = m.target(blank, self.width, self.height) else {
                continue;
            };
            self.stats.generated += 1;
            let t = self.tiles[to];
            let child_h = h + self.score.tile_distance(t, blank) - self.score.tile_distance(t, to);
            self.tiles[blank] = t;
            self.tiles[to] = BLANK;
            self.path.push(m);
            self.dfs(to, child_h, Some(m));
            self.path.pop();
            self.tiles[to] = t;
            self.tiles[blank] = BLANK;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{random_walk, uniform, Rng};

    #[test]
    fn solves_near_boards_and_cycles_or_solves_far_ones_without_hanging() {
        let goal = Board::solved(3, 3).unwrap();
        let mut rng = Rng::new(9);
        let (mut solved, mut cycled) = (0, 0);
        for _ in 0..200 {
            let board = uniform(&goal, &mut rng);
            match lookahead(&board, &goal, 4, &Limits::none()) {
                Ok(s) => {
                    s.verify(&board, &goal).unwrap();
                    solved += 1;
                }
                Err(SolveError::Cycle {
                    moves_made,
                    cycle_start,
                    cycle_moves,
                    states_repeated,
                    ..
                }) => {
                    assert_eq!(cycle_start + cycle_moves, moves_made);
                    assert!(states_repeated >= 1 && cycle_moves >= states_repeated);
                    cycled += 1;
                }
                Err(e) => panic!("unexpected error {e}"),
            }
        }
        // The report's finding: on random boards the player mostly cycles.
        assert!(cycled > 0, "solved {solved}, cycled {cycled}");
        let near = random_walk(&goal, 3, &mut rng);
        lookahead(&near, &goal, 4, &Limits::none())
            .unwrap()
            .verify(&near, &goal)
            .unwrap();
    }

    #[test]
    fn the_cycle_report_replays() {
        let goal = Board::solved(3, 3).unwrap();
        let board: Board = "8 6 7/2 5 4/3 0 1".parse().unwrap();
        let err = lookahead(&board, &goal, 4, &Limits::none()).unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains("cycle"), "{msg}");
        assert!(lookahead(&board, &goal, 0, &Limits::none()).is_err());
        // Every board it stops on is kept: a memory budget stops it like any search.
        let err = lookahead(&board, &goal, 4, &Limits::none().with_max_memory(1)).unwrap_err();
        assert!(matches!(
            err,
            SolveError::Limit {
                hit: crate::limits::LimitHit::Memory,
                ..
            }
        ));
    }
}
