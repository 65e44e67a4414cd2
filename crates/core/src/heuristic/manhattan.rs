//! Manhattan distance: the sum over tiles (never the blank) of rows plus columns to the goal cell.
//!
//! Admissible: a move shifts one tile by one cell, so it lowers the sum by at most one.
//! Consistent for the same reason. On boards of up to 64 cells it is kept as a fixed
//! `tile x cell` table (4 KiB, indexed with a mask so no bounds check is needed) and IDA* updates
//! it with two lookups per move; larger boards compute it from rows and columns, so a 1000x1000
//! board costs memory in proportion to its cells, not their square.

use super::{GoalGeometry, Heuristic, Incremental};
use crate::board::{Board, Tile, BLANK};

/// Boards with at most this many cells use the lookup table.
pub const TABLE_CELLS: usize = 64;

/// The Manhattan-distance heuristic for one goal.
#[derive(Debug, Clone)]
pub struct Manhattan {
    width: usize,
    /// Goal cell of each tile.
    goal_cell: Vec<usize>,
    /// `table[t << 6 | c]`: distance of tile `t` on cell `c` to its goal cell; 0 for the blank.
    table: Option<Box<[u8; TABLE_CELLS * TABLE_CELLS]>>,
}

impl Manhattan {
    /// Built for `goal`.
    pub fn new(goal: &Board) -> Manhattan {
        let g = GoalGeometry::new(goal);
        let cells = goal.len();
        let mut m = Manhattan {
            width: g.width,
            goal_cell: g.goal_cell,
            table: None,
        };
        if cells <= TABLE_CELLS {
            let mut table = Box::new([0u8; TABLE_CELLS * TABLE_CELLS]);
            for t in 1..cells {
                for c in 0..cells {
                    table[t << 6 | c] = m.computed(t as Tile, c) as u8;
                }
            }
            m.table = Some(table);
        }
        m
    }

    fn computed(&self, t: Tile, c: usize) -> u32 {
        cell_distance(c, self.goal_cell[t as usize], self.width) as u32
    }

    /// Distance of tile `t` (not the blank) on cell `c` from its goal cell.
    #[inline]
    pub fn tile_distance(&self, t: Tile, c: usize) -> u32 {
        match &self.table {
            // Tiles and cells are below 64 here; the mask lets the compiler drop the bounds check.
            Some(table) => {
                u32::from(table[((t as usize) << 6 | c) & (TABLE_CELLS * TABLE_CELLS - 1)])
            }
            None => self.computed(t, c),
        }
    }
}

impl Heuristic for Manhattan {
    fn estimate(&self, tiles: &[Tile]) -> u32 {
        tiles
            .iter()
            .enumerate()
            .filter(|&(_, &t)| t != BLANK)
            .map(|(c, &t)| self.tile_distance(t, c))
            .sum()
    }
}

impl Incremental for Manhattan {
    type Aux = ();
    type Pending = ();
    fn init(&self, tiles: &[Tile]) -> (u32, ()) {
        (self.estimate(tiles), ())
    }
    #[inline]
    fn update(&self, _: &[Tile], tile: Tile, from: usize, to: usize, h: u32, _: &mut ()) -> u32 {
        h + self.tile_distance(tile, to) - self.tile_distance(tile, from)
    }
}

/// Rows plus columns between cells `a` and `b` (row-major indexes) of a board `width` wide.
///
/// The Manhattan formula, written once: the heuristic, the pattern databases'
/// per-tile distance tables and the solvers all call it.
#[inline]
pub(crate) fn cell_distance(a: usize, b: usize, width: usize) -> usize {
    grid_distance((a % width, a / width), (b % width, b / width))
}

/// Columns plus rows between two `(column, row)` positions.
#[inline]
pub(crate) fn grid_distance(a: (usize, usize), b: (usize, usize)) -> usize {
    a.0.abs_diff(b.0) + a.1.abs_diff(b.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huge_boards_cost_memory_in_proportion_to_their_cells() {
        let goal = Board::solved(1000, 1000).unwrap();
        let m = Manhattan::new(&goal);
        assert_eq!(m.estimate(goal.tiles()), 0);
        let mut b = goal.clone();
        b.apply(crate::moves::Move::Up);
        b.apply(crate::moves::Move::Left);
        assert_eq!(m.estimate(b.tiles()), 2);
    }

    #[test]
    fn cell_distance_counts_rows_and_columns() {
        // On a 4-wide board cell 1 is (1, 0) and cell 14 is (2, 3).
        assert_eq!(cell_distance(1, 14, 4), 1 + 3);
        assert_eq!(cell_distance(14, 1, 4), 4);
        assert_eq!(cell_distance(7, 7, 4), 0);
        // Cells 3 and 4 are neighbours in row-major order but at opposite ends of two rows.
        assert_eq!(cell_distance(3, 4, 4), 3 + 1);
        assert_eq!(grid_distance((0, 5), (3, 1)), 7);
    }

    #[test]
    fn the_comparison_board() {
        let goal = Board::parse("1 2 3/4 5 6/7 8 0").unwrap();
        let b = Board::parse("6 4 7/8 5 0/3 2 1").unwrap();
        // 6:3 4:2 7:4 8:2 5:0 3:4 2:2 1:4
        assert_eq!(Manhattan::new(&goal).estimate(b.tiles()), 21);
        assert_eq!(Manhattan::new(&goal).estimate(goal.tiles()), 0);
    }
}
