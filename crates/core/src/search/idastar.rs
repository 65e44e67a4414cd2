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

struct Ida<'a, H: Incremental> {
    heuristic: &'a H,
    tiles: Vec<Tile>,
    goal: &'a [Tile],
    neighbours: Vec<[(u8, u32); 4]>,
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

impl<H: Incremental> Ida<'_, H> {
    /// Searches below the node whose blank is on `blank`, reached with cost `g` by move `prev`.
    /// Returns FOUND, ABORTED, or the smallest f that exceeded the bound.
    fn dfs(&mut self, blank: usize, g: u32, h: u32, aux: H::Aux, prev: u8) -> u32 {
        if h == 0 && self.tiles == self.goal {
            return FOUND;
        }
        self.expanded += 1;
        if self.generated >= self.check_at && self.check_limits() {
            return ABORTED;
        }
        let mut next_bound = UNBOUNDED;
        let forbidden = INVERSE[prev as usize];
        let entry = self.neighbours[blank];
        for &(m, to) in entry.iter() {
            if m == NO_MOVE {
                break;
            }
            if m == forbidden {
                continue;
            }
            let to = to as usize;
            self.generated += 1;
            let tile = self.tiles[to];
            self.tiles[blank] = tile;
            self.tiles[to] = BLANK;
            let mut child_aux = aux;
            let child_h = self
                .heuristic
                .update(&self.tiles, tile, to, blank, h, &mut child_aux);
            let f = g + 1 + child_h;
            let result = if f > self.bound {
                f
            } else {
                self.path.push(m);
                let r = self.dfs(to, g + 1, child_h, child_aux, m);
                if r == FOUND {
                    return FOUND;
                }
                self.path.pop();
                r
            };
            self.tiles[to] = tile;
            self.tiles[blank] = BLANK;
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
    let started = Instant::now();
    let (h0, aux0) = heuristic.init(board.tiles());
    let mut ida = Ida {
        heuristic,
        tiles: board.tiles().to_vec(),
        goal: goal.tiles(),
        neighbours: neighbour_table(board.width(), board.height()),
        path: Vec::with_capacity(256),
        bound: h0,
        expanded: 0,
        generated: 0,
        check_at: Limits::CHECK_EVERY,
        limits,
        hit: None,
        progress,
        started,
    };
    let mut iterations = 0;
    loop {
        iterations += 1;
        let r = ida.dfs(board.blank(), 0, h0, aux0, NO_MOVE);
        let stats = Stats {
            expanded: ida.expanded,
            generated: ida.generated,
            elapsed: started.elapsed(),
            iterations,
            ..Stats::default()
        };
        match r {
            FOUND => {
                let moves = ida.path.iter().map(|&m| Move::ALL[m as usize]).collect();
                return Ok(Solution {
                    moves,
                    optimal: true,
                    stats,
                });
            }
            ABORTED => {
                return Err(SolveError::Limit {
                    hit: ida.hit.unwrap_or(crate::limits::LimitHit::Cancelled),
                    stats,
                    bound: ida.bound,
                })
            }
            UNBOUNDED => return Err(SolveError::Unsupported(
                "the search space was exhausted without reaching the goal: the goal is unreachable"
                    .into(),
            )),
            next => {
                ida.bound = next;
                if let Some(p) = ida.progress {
                    p(Progress {
                        generated: ida.generated,
                        expanded: ida.expanded,
                        bound: next,
                        elapsed: started.elapsed(),
                    });
                }
            }
        }
    }
}
