//! IDA* (Korf 1985), specialised for the sliding puzzle and for speed.
//!
//! Depth-first searches with an increasing bound on f = g + h; each bound is the smallest f that
//! exceeded the previous one, so the first solution found is optimal when h is admissible. The
//! search mutates one tile array in place, never generates the inverse of the move that led to a
//! node (which would only return to its parent), updates the heuristic incrementally through
//! [`Incremental`], tests the child's f before recursing, and allocates nothing per node.

use std::time::Instant;

use crate::board::{Board, Tile, BLANK};
use crate::heuristic::Incremental;
use crate::limits::{Limits, Progress, ProgressFn};
use crate::moves::Move;
use crate::solution::{Solution, SolveError, Stats};

const FOUND: u32 = u32::MAX;
const ABORTED: u32 = u32::MAX - 1;
const UNBOUNDED: u32 = u32::MAX - 2;
/// No previous move: every move allowed at the root.
const NO_MOVE: u8 = 4;

/// The neighbours of every cell: up to four (move, cell) pairs, padded with `NO_MOVE`.
pub(crate) fn neighbour_table(width: usize, height: usize) -> Vec<[(u8, u32); 4]> {
    (0..width * height)
        .map(|cell| {
            let mut entry = [(NO_MOVE, 0u32); 4];
            let mut k = 0;
            for m in Move::ALL {
                if let Some(to) = m.target(cell, width, height) {
                    entry[k] = (m.index() as u8, to as u32);
                    k += 1;
                }
            }
            entry
        })
        .collect()
}

/// The inverse of each move index (U<->D, L<->R), `NO_MOVE` maps to itself.
const INVERSE: [u8; 5] = [1, 0, 3, 2, NO_MOVE];

/// Largest board IDA* takes: its arrays have a power-of-two capacity so that indices are
/// masked instead of bounds-checked. Optimal search past a few dozen cells is impractical
/// anyway; the constructive solver handles large boards.
pub const MAX_CELLS: usize = 1024;

/// The search state of one IDA* run. `CAP` (64 or [`MAX_CELLS`]) is the capacity of the tile
/// and neighbour arrays; every index into them is `& (CAP - 1)`, which the compiler proves in
/// bounds, so the inner loop carries no bounds checks and no `unsafe`.
struct Ida<'a, H: Incremental, const CAP: usize> {
    heuristic: &'a H,
    cells: usize,
    tiles: [Tile; CAP],
    goal: [Tile; CAP],
    /// Up to four (move, target cell) pairs per cell, padded with `NO_MOVE`.
    neighbours: Box<[[(u8, u16); 4]; CAP]>,
    /// Moves of the solution, last move first (written while unwinding).
    path: Vec<u8>,
    bound: u32,
    expanded: u64,
    generated: u64,
    check_at: u64,
    limits: &'a Limits,
    hit: Option<crate::limits::LimitHit>,
    progress: Option<ProgressFn<'a>>,
    started: Instant,
}

impl<'a, H: Incremental, const CAP: usize> Ida<'a, H, CAP> {
    fn new(
        board: &Board,
        goal: &Board,
        heuristic: &'a H,
        limits: &'a Limits,
        progress: Option<ProgressFn<'a>>,
    ) -> Self {
        let cells = board.len();
        debug_assert!(cells <= CAP && CAP.is_power_of_two());
        let mut tiles = [0; CAP];
        tiles[..cells].copy_from_slice(board.tiles());
        let mut goal_tiles = [0; CAP];
        goal_tiles[..cells].copy_from_slice(goal.tiles());
        let mut neighbours = Box::new([[(NO_MOVE, 0u16); 4]; CAP]);
        for (cell, entry) in neighbour_table(board.width(), board.height())
            .into_iter()
            .enumerate()
        {
            neighbours[cell] = entry.map(|(m, to)| (m, to as u16));
        }
        Ida {
            heuristic,
            cells,
            tiles,
            goal: goal_tiles,
            neighbours,
            path: Vec::with_capacity(256),
            bound: 0,
            expanded: 0,
            generated: 0,
            check_at: Limits::CHECK_EVERY,
            limits,
            hit: None,
            progress,
            started: Instant::now(),
        }
    }

    /// Searches below the node whose blank is on `blank`, reached with cost `g` by move `prev`.
    /// Returns FOUND, ABORTED, or the smallest f that exceeded the bound.
    fn dfs(&mut self, blank: usize, g: u32, h: u32, aux: H::Aux, prev: u8) -> u32 {
        let mask = CAP - 1;
        if h == 0 && self.tiles[..self.cells] == self.goal[..self.cells] {
            return FOUND;
        }
        self.expanded += 1;
        if self.generated >= self.check_at && self.check_limits() {
            return ABORTED;
        }
        let mut next_bound = UNBOUNDED;
        let forbidden = INVERSE[prev as usize & 7];
        let entry = self.neighbours[blank & mask];
        for &(m, to) in entry.iter() {
            if m == NO_MOVE {
                break;
            }
            if m == forbidden {
                continue;
            }
            let to = to as usize & mask;
            self.generated += 1;
            let tile = self.tiles[to];
            self.tiles[blank & mask] = tile;
            self.tiles[to] = BLANK;
            let mut child_aux = aux;
            let child_h = self.heuristic.update(
                &self.tiles[..self.cells],
                tile,
                to,
                blank,
                h,
                &mut child_aux,
            );
            let f = g + 1 + child_h;
            let result = if f > self.bound {
                f
            } else {
                let r = self.dfs(to, g + 1, child_h, child_aux, m);
                if r == FOUND {
                    // The path is written while unwinding (last move first), so that the search
                    // itself pushes and pops nothing per node.
                    self.path.push(m);
                    return FOUND;
                }
                r
            };
            self.tiles[to] = tile;
            self.tiles[blank & mask] = BLANK;
            if result == ABORTED {
                return ABORTED;
            }
            next_bound = next_bound.min(result);
        }
        next_bound
    }

    /// True when a limit was hit (recorded in `self.hit`); reports progress otherwise.
    #[cold]
    fn check_limits(&mut self) -> bool {
        self.check_at = self.generated + Limits::CHECK_EVERY;
        if let Err(hit) = self.limits.check(self.generated) {
            self.hit = Some(hit);
            return true;
        }
        if let Some(p) = self.progress {
            p(Progress {
                generated: self.generated,
                expanded: self.expanded,
                bound: self.bound,
                elapsed: self.started.elapsed(),
            });
        }
        false
    }

    /// Iterative deepening from the root until a solution, a limit, or exhaustion.
    fn run(&mut self, blank: usize) -> Result<Solution, SolveError> {
        let (h0, aux0) = self.heuristic.init(&self.tiles[..self.cells]);
        self.bound = h0;
        let mut iterations = 0;
        loop {
            iterations += 1;
            let r = self.dfs(blank, 0, h0, aux0, NO_MOVE);
            let stats = Stats {
                expanded: self.expanded,
                generated: self.generated,
                elapsed: self.started.elapsed(),
                iterations,
                ..Stats::default()
            };
            match r {
                FOUND => {
                    let moves = self.path.iter().rev().map(|&m| Move::ALL[m as usize]).collect();
                    return Ok(Solution {
                        moves,
                        optimal: true,
                        stats,
                    });
                }
                ABORTED => {
                    return Err(SolveError::Limit {
                        hit: self.hit.unwrap_or(crate::limits::LimitHit::Cancelled),
                        stats,
                        bound: self.bound,
                    })
                }
                UNBOUNDED => {
                    return Err(SolveError::Unsupported(
                        "the search space was exhausted without reaching the goal: the goal is unreachable".into(),
                    ))
                }
                next => {
                    self.bound = next;
                    if let Some(p) = self.progress {
                        p(Progress {
                            generated: self.generated,
                            expanded: self.expanded,
                            bound: next,
                            elapsed: stats.elapsed,
                        });
                    }
                }
            }
        }
    }
}

/// Optimal moves from `board` to `goal` by IDA* with `heuristic` (built for `goal`).
///
/// The caller checks solvability first ([`crate::solve`] does); on an unsolvable pair IDA* would
/// only stop at a limit.
pub fn idastar<H: Incremental>(
    board: &Board,
    goal: &Board,
    heuristic: &H,
    limits: &Limits,
    progress: Option<ProgressFn>,
) -> Result<Solution, SolveError> {
    board.check_same_size(goal)?;
    if board.len() <= 64 {
        Ida::<H, 64>::new(board, goal, heuristic, limits, progress).run(board.blank())
    } else if board.len() <= MAX_CELLS {
        Ida::<H, MAX_CELLS>::new(board, goal, heuristic, limits, progress).run(board.blank())
    } else {
        Err(SolveError::Unsupported(format!(
            "IDA* takes boards of up to {MAX_CELLS} cells and this one has {}: use --algorithm constructive \
             (or weighted-astar) for large boards",
            board.len()
        )))
    }
}
