//! Learning Real-Time A* (Korf 1990, "Real-time heuristic search", AIJ 42): a player that
//! commits to one move at a time, like the look-ahead player
//! ([`super::lookahead`]), but always reaches the goal.
//!
//! Before each move it looks `depth` moves ahead (minimin search: the value of a frontier board
//! is its depth plus its estimate), moves to the neighbour with the smallest value, and first
//! raises the stored estimate of the board it leaves to that value. Estimates only grow and stay
//! lower bounds when the heuristic is admissible, so a board the player keeps coming back to
//! looks worse and worse until it is abandoned: on a finite space where the goal is reachable
//! from everywhere (the puzzle: every move can be undone) the player cannot cycle forever, and
//! reaches the goal (Korf 1990, Theorem 3). The learned estimates are stored per board visited.

use crate::clock::Instant;
use std::collections::HashMap;

use crate::board::{Board, Tile, BLANK};
use crate::heuristic::Heuristic;
use crate::limits::{Budget, Limits};
use crate::moves::Move;
use crate::search::puzzle_graph::{PackedBoard, PuzzleGraph};
use crate::solution::{Solution, SolveError, Stats};
use crate::solvability::check_solvable;

/// Plays LRTA* from `board` to `goal` with `heuristic` (built for `goal`) and a look-ahead of
/// `depth` moves (1 to [`super::MAX_DEPTH`]). Returns every move the player made, loops included (see
/// [`crate::solvers::shorten`] to cut them). Statistics: `expanded` counts moves decided,
/// `generated` the look-ahead nodes created.
///
/// ```
/// use taquin::{heuristic::Manhattan, solvers::lrta::lrta, Board, Limits};
/// let goal = Board::solved(3, 3).unwrap();
/// let board: Board = "8 6 7/2 5 4/3 0 1".parse().unwrap();
/// let s = lrta(&board, &goal, &Manhattan::new(&goal), 4, &Limits::none()).unwrap();
/// s.verify(&board, &goal).unwrap();
/// assert!(s.len() >= 31);
/// ```
pub fn lrta(
    board: &Board,
    goal: &Board,
    heuristic: &dyn Heuristic,
    depth: usize,
    limits: &Limits,
) -> Result<Solution, SolveError> {
    check_solvable(board, goal)?;
    super::check_depth(depth, "LRTA*")?;
    let started = Instant::now();
    let graph = PuzzleGraph::new(goal, heuristic);
    let mut player = Player {
        graph: &graph,
        heuristic,
        learned: HashMap::new(),
        tiles: board.tiles().to_vec(),
        goal: goal.tiles(),
        width: board.width(),
        height: board.height(),
        stats: Stats::default(),
        budget: Budget::new(limits),
        node_work: 1 + board.len() as u64 / 64,
    };
    let entry_bytes = std::mem::size_of::<(PackedBoard, u32)>()
        + 16
        + match graph.pack(board.tiles()) {
            PackedBoard::Word(_) | PackedBoard::Small(_) => 0,
            PackedBoard::Large(_) => board.len() * std::mem::size_of::<Tile>(),
        };
    let mut blank = board.blank();
    let mut moves = Vec::new();
    let mut last: Option<Move> = None;
    let mut next_check = Limits::CHECK_EVERY;
    while player.tiles != player.goal {
        let mut best: Option<(u32, Move, usize)> = None;
        for m in Move::ALL {
            let Some(to) = m.target(blank, player.width, player.height) else {
                continue;
            };
            player.stats.generated += 1;
            player.tiles.swap(blank, to);
            let value = 1 + player.minimin(to, depth - 1, m);
            player.tiles.swap(blank, to);
            if player.budget.hit().is_some() {
                break;
            }
            // Among equal values, going back the way it came is the last choice.
            let better = match best {
                None => true,
                Some((v, bm, _)) => {
                    value < v
                        || (value == v && Some(bm.inverse()) == last && Some(m.inverse()) != last)
                }
            };
            if better {
                best = Some((value, m, to));
            }
        }
        if let Some(hit) = player.budget.hit() {
            player.stats.elapsed = started.elapsed();
            let bound = player.estimate_of(&graph.pack(board.tiles()));
            return Err(SolveError::Limit {
                hit,
                stats: player.stats,
                bound,
            });
        }
        let (value, m, to) =
            best.ok_or_else(|| SolveError::Unsupported("the board has no legal move".into()))?;
        // Learning step: the board being left is at least `value` moves from the goal.
        let key = graph.pack(&player.tiles);
        let old = player.estimate_of(&key);
        player.learned.insert(key, old.max(value));
        player.tiles.swap(blank, to);
        blank = to;
        moves.push(m);
        last = Some(m);
        player.stats.expanded += 1;
        if player.stats.generated >= next_check {
            next_check = player.stats.generated + Limits::CHECK_EVERY;
            player.stats.elapsed = started.elapsed();
            let bytes = player.learned.len() * entry_bytes;
            player.stats.peak_memory_bytes = player.stats.peak_memory_bytes.max(bytes);
            let hit = limits
                .check(player.stats.generated)
                .err()
                .or(limits.check_memory(bytes).err());
            if let Some(hit) = hit {
                let bound = player.estimate_of(&graph.pack(board.tiles()));
                return Err(SolveError::Limit {
                    hit,
                    stats: player.stats,
                    bound,
                });
            }
        }
    }
    player.stats.peak_closed = player.learned.len();
    player.stats.elapsed = started.elapsed();
    Ok(Solution {
        moves,
        optimal: false,
        stats: player.stats,
        ..Solution::default()
    })
}

struct Player<'a> {
    graph: &'a PuzzleGraph<'a>,
    heuristic: &'a dyn Heuristic,
    /// Learned estimates, only for boards the player has left.
    learned: HashMap<PackedBoard, u32>,
    tiles: Vec<Tile>,
    goal: &'a [Tile],
    width: usize,
    height: usize,
    stats: Stats,
    /// Checked inside the look-ahead: one look-ahead can be billions of nodes.
    budget: Budget<'a>,
    /// Work units of one look-ahead node (comparing, packing and estimating a board are linear
    /// in its size).
    node_work: u64,
}

impl Player<'_> {
    /// The learned estimate of a packed board, or the heuristic's when none was learned.
    fn estimate_of(&self, key: &PackedBoard) -> u32 {
        match self.learned.get(key) {
            Some(&v) => v,
            None => {
                let mut tiles = Vec::new();
                self.graph.unpack(key, &mut tiles);
                self.heuristic.estimate(&tiles)
            }
        }
    }

    /// The current board's estimate, learned or heuristic.
    fn estimate(&self) -> u32 {
        if self.learned.is_empty() {
            return self.heuristic.estimate(&self.tiles);
        }
        match self.learned.get(&self.graph.pack(&self.tiles)) {
            Some(&v) => v,
            None => self.heuristic.estimate(&self.tiles),
        }
    }

    /// Minimin value of the current board (blank on `blank`, reached by `prev`): the least of
    /// depth + estimate over the boards `depth` moves ahead, 0 at the goal, and never below
    /// the estimate learned for the board itself.
    fn minimin(&mut self, blank: usize, depth: usize, prev: Move) -> u32 {
        if self.tiles == self.goal {
            return 0;
        }
        if depth == 0 {
            return self.estimate();
        }
        if self.budget.spend(self.node_work, self.stats.generated) {
            return 0; // the caller sees the hit and discards this value
        }
        let mut best = u32::MAX;
        for m in Move::ALL {
            if m == prev.inverse() {
                continue;
            }
            let Some(to) = m.target(blank, self.width, self.height) else {
                continue;
            };
            self.stats.generated += 1;
            let t = self.tiles[to];
            self.tiles[blank] = t;
            self.tiles[to] = BLANK;
            let v = 1 + self.minimin(to, depth - 1, m);
            self.tiles[to] = t;
            self.tiles[blank] = BLANK;
            best = best.min(v);
        }
        // What was learned about this board bounds its value too. Without this, learning on
        // boards inside the look-ahead would be ignored and a deeper look-ahead could cycle.
        match self.learned.get(&self.graph.pack(&self.tiles)) {
            Some(&learned) => best.max(learned),
            None => best,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{uniform, Rng};
    use crate::heuristic::Manhattan;

    #[test]
    fn always_arrives_on_random_eight_puzzles_at_every_depth() {
        let goal = Board::solved(3, 3).unwrap();
        let h = Manhattan::new(&goal);
        let mut rng = Rng::new(4);
        for depth in 1..=4 {
            for _ in 0..20 {
                let board = uniform(&goal, &mut rng);
                let s = lrta(&board, &goal, &h, depth, &Limits::none()).unwrap();
                s.verify(&board, &goal).unwrap();
            }
        }
        assert!(lrta(&goal, &goal, &h, 1, &Limits::none())
            .unwrap()
            .is_empty());
    }

    #[test]
    fn limits_stop_it_with_a_bound() {
        let goal = Board::solved(5, 5).unwrap();
        let h = Manhattan::new(&goal);
        let board = uniform(&goal, &mut Rng::new(1));
        let err = lrta(&board, &goal, &h, 2, &Limits::none().with_max_nodes(1)).unwrap_err();
        assert!(err.is_limit(), "{err}");
    }
}
