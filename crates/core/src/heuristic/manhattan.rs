//! Manhattan distance: the sum over tiles (never the blank) of rows plus columns to the goal cell.
//!
//! Admissible: a move shifts one tile by one cell, so it lowers the sum by at most one.
//! Consistent for the same reason. Kept as a `tile x cell` table so that IDA* updates it with
//! two lookups per move.

use super::{GoalGeometry, Heuristic, Incremental};
use crate::board::{Board, Tile, BLANK};

/// The Manhattan-distance heuristic for one goal.
#[derive(Debug, Clone)]
pub struct Manhattan {
    cells: usize,
    /// `table[t * cells + c]`: distance of tile `t` standing on cell `c` to its goal cell; 0 for the blank.
    table: Vec<u16>,
}

impl Manhattan {
    /// Built for `goal`.
    pub fn new(goal: &Board) -> Manhattan {
        let g = GoalGeometry::new(goal);
        let cells = goal.len();
        let mut table = vec![0u16; cells * cells];
        for t in 1..cells {
            let (gc, gr) = (g.goal_cell[t] % g.width, g.goal_cell[t] / g.width);
            for c in 0..cells {
                let d = (c % g.width).abs_diff(gc) + (c / g.width).abs_diff(gr);
                table[t * cells + c] = d as u16;
            }
        }
        Manhattan { cells, table }
    }

    /// Distance of tile `t` on cell `c` from its goal cell.
    #[inline]
    pub fn tile_distance(&self, t: Tile, c: usize) -> u32 {
        u32::from(self.table[t as usize * self.cells + c])
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
    fn init(&self, tiles: &[Tile]) -> (u32, ()) {
        (self.estimate(tiles), ())
    }
    #[inline]
    fn update(&self, _: &[Tile], tile: Tile, from: usize, to: usize, h: u32, _: &mut ()) -> u32 {
        h + self.tile_distance(tile, to) - self.tile_distance(tile, from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn article_board() {
        let goal = Board::parse("1 2 3/4 5 6/7 8 0").unwrap();
        let b = Board::parse("6 4 7/8 5 0/3 2 1").unwrap();
        // 6:3 4:2 7:4 8:2 5:0 3:4 2:2 1:4
        assert_eq!(Manhattan::new(&goal).estimate(b.tiles()), 21);
        assert_eq!(Manhattan::new(&goal).estimate(goal.tiles()), 0);
    }
}
