//! Manhattan distance plus linear conflicts (Hansson, Mayer & Yung 1992), done correctly.
//!
//! In a line (row or column), take the tiles whose goal cell is in that same line. If their goal
//! order disagrees with their current order, some of them must leave the line to let the others
//! pass, and each that leaves makes two moves (out and back) across the line that the Manhattan
//! distance does not count. The fewest tiles that must leave is the line's count minus the longest
//! increasing run (subsequence) of their goal positions, so that line adds `2 * (count - LIS)`.
//!
//! Why the sum over all rows and columns stays admissible: the extra moves of a row conflict are
//! vertical moves of tiles already in their goal row, which Manhattan counts zero of; those of a
//! column conflict are horizontal moves of tiles in their goal column. A tile removed for its row
//! and for its column makes both kinds, which are distinct moves. The blank is never part of a
//! conflict (the seed article's version lets it in, and overestimates). Consistent as well: one
//! move changes one tile's Manhattan term by one and the conflicts of its two lines by at most
//! one removal (a proof sketch that `tests/oracle.rs` checks exhaustively on small boards).

use super::{GoalGeometry, Heuristic, Incremental, Manhattan};
use crate::board::{Board, Tile, BLANK};

/// Manhattan distance plus linear conflicts, for one goal.
#[derive(Debug, Clone)]
pub struct LinearConflict {
    manhattan: Manhattan,
    geometry: GoalGeometry,
}

/// Incremental state: the two parts of the value, kept apart so one line can be re-counted.
#[derive(Debug, Clone, Copy, Default)]
pub struct LcParts {
    manhattan: u32,
    /// Sum over lines of tiles that must leave their line (each costs 2 moves).
    removals: u32,
}

impl LinearConflict {
    /// Built for `goal`.
    pub fn new(goal: &Board) -> LinearConflict {
        LinearConflict {
            manhattan: Manhattan::new(goal),
            geometry: GoalGeometry::new(goal),
        }
    }

    /// Removals needed in row `r`; `with` puts `tile` on `cell` (or leaves it as it is).
    fn row_removals(&self, tiles: &[Tile], r: usize, with: Option<(usize, Tile)>) -> u32 {
        let w = self.geometry.width;
        let cells = (r * w..(r + 1) * w).map(|c| (c, tiles[c]));
        self.line_removals(cells, with, |t| {
            (self.geometry.goal_row(t) == r).then(|| self.geometry.goal_col(t))
        })
    }

    /// Removals needed in column `c`; `with` as for rows.
    fn col_removals(&self, tiles: &[Tile], c: usize, with: Option<(usize, Tile)>) -> u32 {
        let w = self.geometry.width;
        let cells = (0..self.geometry.height).map(|r| (r * w + c, tiles[r * w + c]));
        self.line_removals(cells, with, |t| {
            (self.geometry.goal_col(t) == c).then(|| self.geometry.goal_row(t))
        })
    }

    /// `count - longest strictly increasing subsequence` of the goal positions, along the line,
    /// of the tiles whose goal is in the line. Patience sorting on a stack buffer: no allocation
    /// for lines up to 64 cells.
    fn line_removals(
        &self,
        cells: impl Iterator<Item = (usize, Tile)>,
        with: Option<(usize, Tile)>,
        goal_in_line: impl Fn(Tile) -> Option<usize>,
    ) -> u32 {
        let longest = self.geometry.width.max(self.geometry.height);
        let mut stack_tails = [0usize; 64];
        // Vec::new does not allocate: lines of up to 64 cells never touch the heap.
        let mut heap_tails = if longest > 64 {
            vec![0; longest]
        } else {
            Vec::new()
        };
        let tails: &mut [usize] = if longest > 64 {
            &mut heap_tails
        } else {
            &mut stack_tails
        };
        let mut count = 0u32;
        let mut lis = 0usize;
        for (cell, tile) in cells {
            let tile = match with {
                Some((c, t)) if c == cell => t,
                _ => tile,
            };
            if tile == BLANK {
                continue;
            }
            let Some(p) = goal_in_line(tile) else {
                continue;
            };
            count += 1;
            let i = tails[..lis].partition_point(|&x| x < p);
            tails[i] = p;
            if i == lis {
                lis += 1;
            }
        }
        count - lis as u32
    }

    fn parts(&self, tiles: &[Tile]) -> LcParts {
        let rows: u32 = (0..self.geometry.height)
            .map(|r| self.row_removals(tiles, r, None))
            .sum();
        let cols: u32 = (0..self.geometry.width)
            .map(|c| self.col_removals(tiles, c, None))
            .sum();
        LcParts {
            manhattan: self.manhattan.estimate(tiles),
            removals: rows + cols,
        }
    }
}

impl Heuristic for LinearConflict {
    fn estimate(&self, tiles: &[Tile]) -> u32 {
        let p = self.parts(tiles);
        p.manhattan + 2 * p.removals
    }
}

impl Incremental for LinearConflict {
    type Aux = LcParts;
    fn init(&self, tiles: &[Tile]) -> (u32, LcParts) {
        let p = self.parts(tiles);
        (p.manhattan + 2 * p.removals, p)
    }

    fn update(
        &self,
        tiles: &[Tile],
        tile: Tile,
        from: usize,
        to: usize,
        _: u32,
        aux: &mut LcParts,
    ) -> u32 {
        let w = self.geometry.width;
        aux.manhattan = aux.manhattan + self.manhattan.tile_distance(tile, to)
            - self.manhattan.tile_distance(tile, from);
        // A horizontal slide keeps the order of the tiles in the row (the blank does not count),
        // so only the two columns change; a vertical slide changes only the two rows.
        let (before, after) = if from / w == to / w {
            let (cf, ct) = (from % w, to % w);
            let before = self.col_removals(tiles, cf, Some((from, tile)))
                + self.col_removals(tiles, ct, Some((to, BLANK)));
            let after = self.col_removals(tiles, cf, None) + self.col_removals(tiles, ct, None);
            (before, after)
        } else {
            let (rf, rt) = (from / w, to / w);
            let before = self.row_removals(tiles, rf, Some((from, tile)))
                + self.row_removals(tiles, rt, Some((to, BLANK)));
            let after = self.row_removals(tiles, rf, None) + self.row_removals(tiles, rt, None);
            (before, after)
        };
        aux.removals = aux.removals + after - before;
        aux.manhattan + 2 * aux.removals
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_the_fewest_removals_per_line() {
        let goal = Board::parse("1 2 3/4 5 6/7 8 0").unwrap();
        let lc = LinearConflict::new(&goal);
        // Row 1 reversed: 3 2 1 -> keep one, remove two: +4 over Manhattan (2+0+2 = 4).
        let b = Board::parse("3 2 1/4 5 6/7 8 0").unwrap();
        assert_eq!(lc.estimate(b.tiles()), 4 + 4);
        // The blank is never in a conflict.
        let b = Board::parse("1 2 3/4 5 6/7 0 8").unwrap();
        assert_eq!(lc.estimate(b.tiles()), 1);
    }

    #[test]
    fn incremental_update_matches_full_recount() {
        let goal = Board::solved(4, 4).unwrap();
        let lc = LinearConflict::new(&goal);
        let mut b = goal.clone();
        let (mut h, mut aux) = lc.init(b.tiles());
        let mut seed = 7u64;
        for _ in 0..2000 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            let m = crate::moves::Move::ALL[(seed >> 40) as usize % 4];
            let from_blank = b.blank();
            if let Some(to_blank) = b.target(m) {
                let tile = b.tiles()[to_blank];
                b.apply(m);
                h = lc.update(b.tiles(), tile, to_blank, from_blank, h, &mut aux);
                assert_eq!(h, lc.estimate(b.tiles()), "{b:?}");
            }
        }
    }
}
