//! Walking distance (Takahashi) in the multi-tile metric: a lower bound on the number of
//! vertical (or horizontal) slides a board still needs.
//!
//! As in [`crate::heuristic::walking_distance`], forget which tile is which and keep, for each
//! row, how many of its tiles belong to each goal row, plus the blank's row. A vertical slide of
//! `k` tiles moves the blank `k` rows, each step pulling one tile from the next row into the
//! blank's: in the count game it is `k` single steps in one direction, whatever the tiles'
//! columns. The fewest such macro steps from the goal's counts to every count table is found
//! once by breadth-first search (the steps reverse into steps, so distances are symmetric).
//! Horizontal slides are the same game on columns. A horizontal slide leaves the row counts
//! unchanged and a vertical one the column counts, so a solution needs at least the vertical
//! table's distance of vertical slides and the horizontal table's of horizontal ones.

use std::collections::{HashMap, VecDeque};

use crate::hashing::FoldState;

/// Most count tables one direction may have; above, the search falls back to the Manhattan bound.
pub const MAX_STATES: usize = 3_000_000;

/// Largest number of lines a key can hold (4 bits per count, 5 x 5 counts).
const MAX_LINES: usize = 5;

/// Distances of the count tables of one direction, keyed by [`Table::key`]'s packing.
#[derive(Debug, Clone)]
pub(crate) struct Table {
    lines: usize,
    dist: HashMap<u128, u8, FoldState>,
}

impl Table {
    /// Builds the table for `lines` lines of `per_line` cells, the goal's blank in line
    /// `goal_blank_line`; `None` when the board is too large for it.
    pub(crate) fn build(lines: usize, per_line: usize, goal_blank_line: usize) -> Option<Table> {
        if lines > MAX_LINES || per_line > 15 {
            return None;
        }
        let mut goal = [0u8; MAX_LINES * MAX_LINES];
        for l in 0..lines {
            goal[l * lines + l] = per_line as u8 - u8::from(l == goal_blank_line);
        }
        let mut table = Table {
            lines,
            dist: HashMap::with_hasher(FoldState),
        };
        let start = table.pack(&goal, goal_blank_line);
        table.dist.insert(start, 0);
        let mut queue = VecDeque::from([start]);
        let mut next = Vec::new();
        while let Some(key) = queue.pop_front() {
            let d = table.dist[&key];
            let (counts, blank) = table.unpack(key);
            next.clear();
            for up in [false, true] {
                table.slides(counts, blank, up, &mut next);
            }
            for &n in &next {
                if let std::collections::hash_map::Entry::Vacant(e) = table.dist.entry(n) {
                    e.insert(d + 1);
                    queue.push_back(n);
                }
            }
            if table.dist.len() > MAX_STATES {
                return None;
            }
        }
        Some(table)
    }

    /// Bit offset of the count of goal line `class` in line `line`.
    fn offset(&self, line: usize, class: usize) -> u32 {
        4 + 4 * (line * self.lines + class) as u32
    }

    fn pack(&self, counts: &[u8; MAX_LINES * MAX_LINES], blank: usize) -> u128 {
        let mut key = blank as u128;
        for line in 0..self.lines {
            for class in 0..self.lines {
                key |= u128::from(counts[line * self.lines + class]) << self.offset(line, class);
            }
        }
        key
    }

    fn unpack(&self, key: u128) -> ([u8; MAX_LINES * MAX_LINES], usize) {
        let mut counts = [0u8; MAX_LINES * MAX_LINES];
        for line in 0..self.lines {
            for class in 0..self.lines {
                counts[line * self.lines + class] = ((key >> self.offset(line, class)) & 15) as u8;
            }
        }
        (counts, (key & 15) as usize)
    }

    /// Appends every table one slide away with the blank going toward line 0 (`up`) or away.
    fn slides(
        &self,
        mut counts: [u8; MAX_LINES * MAX_LINES],
        blank: usize,
        up: bool,
        out: &mut Vec<u128>,
    ) {
        let from = if up {
            blank.checked_sub(1)
        } else {
            Some(blank + 1).filter(|&l| l < self.lines)
        };
        let Some(from) = from else { return };
        for class in 0..self.lines {
            if counts[from * self.lines + class] == 0 {
                continue;
            }
            counts[from * self.lines + class] -= 1;
            counts[blank * self.lines + class] += 1;
            out.push(self.pack(&counts, from));
            // The same slide, one tile longer.
            self.slides(counts, from, up, out);
            counts[from * self.lines + class] += 1;
            counts[blank * self.lines + class] -= 1;
        }
    }

    /// The key of a board: `line_of(cell)` and `class_of(tile)` give a cell's line and a
    /// tile's goal line in this direction.
    pub(crate) fn key(
        &self,
        lines_and_classes: impl Iterator<Item = (usize, usize)>,
        blank: usize,
    ) -> u128 {
        let mut key = blank as u128;
        for (line, class) in lines_and_classes {
            key += 1u128 << self.offset(line, class);
        }
        key
    }

    /// The key after a tile of goal line `class` moved from line `from` into the blank's
    /// line `to` (the blank going to `from`).
    pub(crate) fn moved(&self, key: u128, class: usize, from: usize, to: usize) -> u128 {
        let key = key - (1u128 << self.offset(from, class)) + (1u128 << self.offset(to, class));
        (key & !15) | from as u128
    }

    /// Slides still needed in this direction (every key of a reachable board is present).
    pub(crate) fn distance(&self, key: u128) -> u32 {
        self.dist.get(&key).map_or(0, |&d| u32::from(d))
    }

    /// Number of count tables.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.dist.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fifteen_puzzle_tables_have_the_walking_distance_states() {
        // The same count tables as the single-tile walking distance (24,964 for 4x4): only
        // the moves between them differ.
        let t = Table::build(4, 4, 3).unwrap();
        assert_eq!(t.len(), 24_964);
        assert!(Table::build(6, 6, 5).is_none());
    }
}
