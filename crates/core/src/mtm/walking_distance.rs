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
use crate::heuristic::walking_distance::count_tables;
use crate::limits::{LimitHit, Limits};

/// Most count tables one direction may have; above, the search falls back to the Manhattan bound.
/// They are counted before anything is built ([`Table::states`]), so a board over it (the
/// 24-puzzle: more than 3 M count tables each way) costs nothing.
pub const MAX_STATES: usize = 3_000_000;

/// Count tables a build handles between two checks of its limits (about a millisecond).
const CHECK_EVERY: usize = 1 << 10;

/// Largest number of lines a key can hold (4 bits per count, 5 x 5 counts).
const MAX_LINES: usize = 5;

/// Distances of the count tables of one direction, keyed by [`Table::key`]'s packing.
#[derive(Debug, Clone)]
pub(crate) struct Table {
    lines: usize,
    dist: HashMap<u128, u8, FoldState>,
}

impl Table {
    /// The number of count tables for `lines` lines of `per_line` cells, the goal's blank in
    /// line `goal_blank_line`: `None` when the board is too large for a table (more than
    /// [`MAX_STATES`] of them, or lines too many or too long for a key). The count tables are
    /// those of the single-tile walking distance, counted by [`count_tables`] (every one is
    /// reached by the slides too: tested against the build), which stops once more than
    /// [`MAX_STATES`] are certain.
    pub(crate) fn states(lines: usize, per_line: usize, goal_blank_line: usize) -> Option<usize> {
        if lines > MAX_LINES || per_line > 15 {
            return None;
        }
        count_tables(lines, per_line, goal_blank_line, MAX_STATES)
    }

    /// Bytes a table of `states` count tables takes while it is built: the hash map of keys
    /// and distances, and the queue of the breadth-first search.
    pub(crate) fn bytes(states: usize) -> usize {
        let buckets = states.saturating_mul(8).div_ceil(7).next_power_of_two();
        let bucket = std::mem::size_of::<(u128, u8)>() + 1;
        buckets
            .saturating_mul(bucket)
            .saturating_add(states.saturating_mul(std::mem::size_of::<u128>()))
    }

    /// Builds the table for `lines` lines of `per_line` cells, the goal's blank in line
    /// `goal_blank_line`, within `limits` (cancel flag, deadline, checked every thousand count
    /// tables; its [`Table::bytes`] against the memory budget before anything is
    /// allocated): `Ok(None)` when the board is too large for it ([`Table::states`]).
    pub(crate) fn build(
        lines: usize,
        per_line: usize,
        goal_blank_line: usize,
        limits: &Limits,
    ) -> Result<Option<Table>, LimitHit> {
        let Some(states) = Table::states(lines, per_line, goal_blank_line) else {
            return Ok(None);
        };
        limits.check_memory(Table::bytes(states))?;
        limits.check(0)?;
        let mut goal = [0u8; MAX_LINES * MAX_LINES];
        for l in 0..lines {
            goal[l * lines + l] = per_line as u8 - u8::from(l == goal_blank_line);
        }
        let mut table = Table {
            lines,
            dist: HashMap::with_capacity_and_hasher(states, FoldState),
        };
        let start = table.pack(&goal, goal_blank_line);
        table.dist.insert(start, 0);
        let mut queue = VecDeque::from([start]);
        let mut next = Vec::new();
        let mut done = 0usize;
        while let Some(key) = queue.pop_front() {
            done += 1;
            if done.is_multiple_of(CHECK_EVERY) {
                limits.check(0)?;
            }
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
                return Ok(None);
            }
        }
        Ok(Some(table))
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
        let t = Table::build(4, 4, 3, &Limits::none()).unwrap().unwrap();
        assert_eq!(t.len(), 24_964);
        assert!(Table::build(6, 6, 5, &Limits::none()).unwrap().is_none());
    }

    #[test]
    fn the_count_tables_are_counted_before_the_build() {
        // Every count table is reached: the count is the build's, blank goal line first, last
        // or in between.
        for (lines, per_line, blank) in [
            (2, 2, 1),
            (2, 7, 0),
            (3, 3, 2),
            (3, 3, 1),
            (3, 5, 2),
            (4, 3, 0),
            (4, 4, 3),
            (4, 4, 1),
            (4, 5, 3),
            (5, 2, 4),
            (5, 3, 4),
            (5, 3, 2),
        ] {
            let built = Table::build(lines, per_line, blank, &Limits::none());
            let built = built.unwrap().unwrap();
            assert_eq!(
                Table::states(lines, per_line, blank),
                Some(built.len()),
                "{lines} lines of {per_line}"
            );
        }
        // The 24-puzzle's (and 5 lines of 4, 6 or 15: the 4x5, 6x5 and 15x5 boards') are over
        // the limit: refused before any is built.
        for per_line in [4, 5, 6, 15] {
            assert_eq!(Table::states(5, per_line, 4), None, "{per_line}");
            assert!(Table::build(5, per_line, 4, &Limits::none())
                .unwrap()
                .is_none());
        }
        assert_eq!(Table::states(6, 3, 5), None);
    }

    #[test]
    fn a_build_stops_at_its_limits() {
        // 5 lines of 3 (the 3x5 board's rows): 352,560 count tables, a fraction of a second.
        let states = Table::states(5, 3, 4).unwrap();
        let cancelled = Limits::none().with_cancel(std::sync::Arc::new(true.into()));
        assert_eq!(
            Table::build(5, 3, 4, &cancelled).unwrap_err(),
            LimitHit::Cancelled
        );
        let past = Limits::none().with_timeout(std::time::Duration::from_nanos(1));
        assert_eq!(Table::build(5, 3, 4, &past).unwrap_err(), LimitHit::Time);
        let small = Limits::none().with_max_memory(Table::bytes(states) - 1);
        assert_eq!(Table::build(5, 3, 4, &small).unwrap_err(), LimitHit::Memory);
    }
}
