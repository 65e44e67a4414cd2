//! Long windows of a solution re-solved optimally with the heuristic built for the goal.
//!
//! A heuristic (a pattern database above all) is built for one goal, but the distance between
//! two boards A and B does not change when both are relabelled by the same renaming of tiles,
//! nor when both are mirrored by the same symmetry of the board (the moves mirror with them).
//! So when B's blank stands on a corner and the goal's blank on a corner too, a flip S of the
//! board brings B's blank onto the goal's blank cell, and the renaming sigma that turns S(B)
//! into the goal turns the window A -> B into the puzzle sigma(S(A)) -> goal, which IDA* solves
//! optimally with the goal's heuristic. An optimal path shorter than the window replaces it.
//!
//! Boards of a path with the blank on one of the four corners are frequent enough (about one in
//! six on the 24-puzzle) that windows ending on them cover the whole path; windows of 40 to 60
//! moves are re-solved in thousands of nodes with the 24-puzzle's 6-6-6-6 databases, much
//! longer than the rectangle windows of [`crate::solvers::shorten`], which use Manhattan
//! distance.

use crate::board::{Board, Tile};
use crate::heuristic::Incremental;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::limits::{Limits, Progress};
use crate::moves::Move;
use crate::search::{idastar_with, Pruning};
use crate::solution::{SolveError, Stats};

/// A flip of a `width` x `height` board: horizontal, vertical, both (a half turn), or none.
#[derive(Debug, Clone, Copy)]
struct Flip {
    x: bool,
    y: bool,
}

impl Flip {
    const ALL: [Flip; 4] = [
        Flip { x: false, y: false },
        Flip { x: true, y: false },
        Flip { x: false, y: true },
        Flip { x: true, y: true },
    ];

    fn cell(self, cell: usize, width: usize, height: usize) -> usize {
        let (mut c, mut r) = (cell % width, cell / width);
        if self.x {
            c = width - 1 - c;
        }
        if self.y {
            r = height - 1 - r;
        }
        r * width + c
    }

    /// The move on the flipped board that mirrors `m` (a flip is its own inverse).
    fn mv(self, m: Move) -> Move {
        match m {
            Move::Left | Move::Right if self.x => m.inverse(),
            Move::Up | Move::Down if self.y => m.inverse(),
            _ => m,
        }
    }
}

/// What a pass of goal windows ([`resolve_goal_windows`]) gave.
pub(crate) struct WindowPass {
    /// The path with every shorter window spliced in: never longer than the one given.
    pub moves: Vec<Move>,
    /// Nodes the windows' searches generated.
    pub generated: u64,
    /// Nodes they expanded.
    pub expanded: u64,
}

/// Re-solves windows of up to `window` moves of `moves` (a path from `board` to `goal`) that end
/// on a board whose blank a flip brings onto the goal's blank cell, each by IDA* with `h` (built
/// for `goal`) within `node_budget` nodes and `limits` (whose node budget, if any, bounds the
/// nodes of all windows together). Returns the path with every shorter window spliced in (never
/// longer than `moves`) and the nodes of the searches, which are also handed to `on_nodes`
/// (generated, expanded) as the searches go (every few thousand nodes): a pass over a long path
/// can take seconds.
#[allow(clippy::too_many_arguments)]
pub(crate) fn resolve_goal_windows<H: Incremental>(
    board: &Board,
    goal: &Board,
    h: &H,
    moves: &[Move],
    window: usize,
    node_budget: u64,
    limits: &Limits,
    on_nodes: &(dyn Fn(u64, u64) + Sync),
) -> WindowPass {
    let (w, ht) = (board.width(), board.height());
    let goal_blank = goal.blank();
    let mut moves = moves.to_vec();
    // Windows are taken from the end of the path towards its start, so that a splice changes
    // only boards already passed. The boards at the window's two ends are walked back along the
    // path move by move, not kept for every step: a path of millions of moves on a 100x100
    // board would take tens of gigabytes, boards of 20 KB each, and the memory budget bounds
    // only the beams.
    let mut j = moves.len();
    let mut end = Cursor::at(board, &moves, j);
    let mut start = Cursor::at(board, &moves, j.saturating_sub(window));
    let (mut generated, mut expanded) = (0u64, 0u64);
    while j >= 2 {
        if limits.check(generated).is_err() {
            break;
        }
        end.back_to(&moves, j);
        start.back_to(&moves, j.saturating_sub(window));
        let Some(flip) = Flip::ALL
            .into_iter()
            .find(|f| f.cell(end.board.blank(), w, ht) == goal_blank)
        else {
            j -= 1;
            continue;
        };
        let i = start.at;
        let Some(window_start) = relabelled(&start.board, &end.board, goal, flip) else {
            j -= 1;
            continue;
        };
        let length = (j - i) as u32;
        if h.estimate(window_start.tiles()) >= length {
            j -= 1;
            continue;
        }
        let within = limits.after(generated).at_most(node_budget);
        // The solver's pruning: the moves stay optimal.
        // The window's nodes handed on so far: its progress reports are running totals.
        let told = (AtomicU64::new(0), AtomicU64::new(0));
        let tell = |generated: u64, expanded: u64| {
            on_nodes(
                generated.saturating_sub(told.0.swap(generated, Ordering::Relaxed)),
                expanded.saturating_sub(told.1.swap(expanded, Ordering::Relaxed)),
            )
        };
        let report = |p: Progress| tell(p.generated, p.expanded);
        let result = idastar_with(
            &window_start,
            goal,
            h,
            Pruning::full(goal.len()),
            &within,
            Some(&report),
        );
        let stats = match &result {
            Ok(s) => s.stats.clone(),
            Err(SolveError::Limit { stats, .. }) => stats.clone(),
            Err(_) => Stats::default(),
        };
        tell(stats.generated, stats.expanded);
        generated += stats.generated;
        expanded += stats.expanded;
        match result {
            Ok(s) if (s.len() as u32) < length => {
                let better: Vec<Move> = s.moves.iter().map(|&m| flip.mv(m)).collect();
                // The window's end is the same board, now `better.len()` moves from its start;
                // the boards before the start do not change.
                j = i + better.len();
                end.at = j;
                moves.splice(i..i + (length as usize), better);
            }
            _ => j -= 1,
        }
    }
    WindowPass {
        moves,
        generated,
        expanded,
    }
}

/// A board of a path and its place on it: after the first `at` moves.
struct Cursor {
    board: Board,
    at: usize,
}

impl Cursor {
    /// The board after the first `at` of `moves` from `board`.
    fn at(board: &Board, moves: &[Move], at: usize) -> Cursor {
        let mut b = board.clone();
        for &m in &moves[..at] {
            b.apply(m);
        }
        Cursor { board: b, at }
    }

    /// Walks back along `moves` to the board after the first `at` of them (`at` is at most the
    /// cursor's place): each move undone by its inverse.
    fn back_to(&mut self, moves: &[Move], at: usize) {
        debug_assert!(at <= self.at);
        while self.at > at {
            self.at -= 1;
            self.board.apply(moves[self.at].inverse());
        }
    }
}

/// `a` flipped by `flip` and relabelled so that `end` flipped the same way becomes `goal`
/// (`end`'s flipped blank is on `goal`'s blank cell).
fn relabelled(a: &Board, end: &Board, goal: &Board, flip: Flip) -> Option<Board> {
    let (w, h) = (a.width(), a.height());
    let n = a.len();
    // rename[t]: the goal's tile on the cell where tile t of `end` lands once flipped.
    let mut rename: Vec<Tile> = vec![0; n];
    for (cell, &t) in end.tiles().iter().enumerate() {
        rename[t as usize] = goal.tiles()[flip.cell(cell, w, h)];
    }
    let mut tiles: Vec<Tile> = vec![0; n];
    for (cell, &t) in a.tiles().iter().enumerate() {
        tiles[flip.cell(cell, w, h)] = rename[t as usize];
    }
    Board::from_tiles(w, h, tiles).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{random_walk, Rng};
    use crate::heuristic::{Heuristic, LinearConflict};

    #[test]
    fn flipped_and_relabelled_windows_keep_their_distance() {
        // A window from a to end, mirrored and renamed, is solved by the mirrored moves.
        let goal = Board::solved(4, 3).unwrap();
        let mut rng = Rng::new(11);
        for _ in 0..50 {
            let a = random_walk(&goal, 30, &mut rng);
            let path: Vec<Move> = {
                let mut b = a.clone();
                let mut p = Vec::new();
                for _ in 0..9 {
                    let m = b.legal_moves().nth(rng.below(2)).unwrap();
                    b.apply(m);
                    p.push(m);
                }
                p
            };
            let mut end = a.clone();
            end.apply_all(&path).unwrap();
            for flip in Flip::ALL {
                if flip.cell(end.blank(), 4, 3) != goal.blank() {
                    continue;
                }
                let mut start = relabelled(&a, &end, &goal, flip).unwrap();
                let mirrored: Vec<Move> = path.iter().map(|&m| flip.mv(m)).collect();
                start.apply_all(&mirrored).unwrap();
                assert_eq!(start, goal);
            }
        }
    }

    #[test]
    fn windows_never_lengthen_and_the_result_still_solves() {
        let goal = Board::solved(5, 5).unwrap();
        let h = LinearConflict::new(&goal);
        let mut rng = Rng::new(4);
        let mut shortened = 0;
        for _ in 0..5 {
            let board = random_walk(&goal, 60, &mut rng);
            let first =
                crate::solvers::constructive::construct_checked(&board, &goal, &Limits::none())
                    .unwrap()
                    .moves;
            // What the searches report as they go adds up to what the pass returns.
            let told = (AtomicU64::new(0), AtomicU64::new(0));
            let tell = |generated: u64, expanded: u64| {
                told.0.fetch_add(generated, Ordering::Relaxed);
                told.1.fetch_add(expanded, Ordering::Relaxed);
            };
            let pass = resolve_goal_windows(
                &board,
                &goal,
                &h,
                &first,
                30,
                100_000,
                &Limits::none(),
                &tell,
            );
            let (better, generated) = (pass.moves, pass.generated);
            assert!(generated > 0);
            assert!(pass.expanded > 0 && pass.expanded < generated);
            assert_eq!(told.0.load(Ordering::Relaxed), generated);
            assert_eq!(told.1.load(Ordering::Relaxed), pass.expanded);
            assert!(better.len() <= first.len());
            assert!(better.len() as u32 >= h.estimate(board.tiles()));
            let mut b = board.clone();
            b.apply_all(&better).unwrap();
            assert_eq!(b, goal);
            shortened += usize::from(better.len() < first.len());
        }
        // The constructive solver's paths have windows to shorten: the splices were exercised.
        assert!(shortened >= 3, "{shortened} of 5 shortened");
    }
}
