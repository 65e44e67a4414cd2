//! Misplaced tiles: the number of tiles (never the blank) not on their goal cell.
//!
//! Admissible: each misplaced tile must move at least once, and a move moves one tile.
//! Consistent: a move changes the count by at most one.

use super::{GoalGeometry, Heuristic, Incremental};
use crate::board::{Board, Tile, BLANK};

/// The misplaced-tiles heuristic for one goal.
#[derive(Debug, Clone)]
pub struct Misplaced {
    geometry: GoalGeometry,
}

impl Misplaced {
    /// Built for `goal`.
    pub fn new(goal: &Board) -> Misplaced {
        Misplaced {
            geometry: GoalGeometry::new(goal),
        }
    }
}

impl Heuristic for Misplaced {
    fn estimate(&self, tiles: &[Tile]) -> u32 {
        tiles
            .iter()
            .enumerate()
            .filter(|&(cell, &t)| t != BLANK && self.geometry.goal_cell[t as usize] != cell)
            .count() as u32
    }
}

impl Incremental for Misplaced {
    type Aux = ();
    type Pending = ();
    fn init(&self, tiles: &[Tile]) -> (u32, ()) {
        (self.estimate(tiles), ())
    }
    fn update(&self, _: &[Tile], tile: Tile, from: usize, to: usize, h: u32, _: &mut ()) -> u32 {
        let goal = self.geometry.goal_cell[tile as usize];
        h + u32::from(from == goal) - u32::from(to == goal)
    }
}
