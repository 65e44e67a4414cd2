//! Walking distance (Takahashi, 2002), generalised to any m x n board and any goal.
//!
//! Vertical part: forget which tile is which and keep, for every row, how many of its tiles
//! belong to each goal row, plus the blank's row. A vertical move takes one tile from a row next
//! to the blank's into the blank's row. The fewest such moves from the current counts to the
//! goal's counts is found once for all count tables by breadth-first search from the goal. The
//! horizontal part is the same with columns. Their sum is admissible: every real move is vertical
//! or horizontal, is a legal move of the matching count game, and leaves the other unchanged.
//! It is consistent (a move changes one part by at most one) and never below Manhattan distance.
//!
//! IDA* follows a move with one lookup in a transition table (`next`), so the update costs the
//! same as Manhattan's.

use std::collections::HashMap;

use super::{GoalGeometry, Heuristic, Incremental};
use crate::board::{size_with_article, Board, Tile, BLANK};
use crate::hashing::FoldState;
use crate::limits::{Budget, LimitHit, Limits};
use crate::report::thousands;
use crate::solution::{SolveError, Stats};

/// Most count-table states one direction may have before the table is refused as too large.
pub const MAX_STATES: usize = 4_000_000;

/// Walking distance for one goal: a vertical and a horizontal table.
#[derive(Debug, Clone)]
pub struct WalkingDistance {
    geometry: GoalGeometry,
    vertical: WdTable,
    horizontal: WdTable,
}

/// Incremental state: the index of the current vertical and horizontal count tables.
#[derive(Debug, Clone, Copy)]
pub struct WdState {
    vertical: u32,
    horizontal: u32,
}

/// One direction's table: the BFS distance of every reachable count table, and the transitions.
#[derive(Debug, Clone)]
struct WdTable {
    /// Lines in this direction (rows for the vertical table, columns for the horizontal one).
    lines: usize,
    /// Bits per count in a key.
    bits: u32,
    /// Key of a count table -> its state index.
    index: HashMap<u128, u32, FoldState>,
    /// Distance of each state to the goal counts.
    dist: Vec<u8>,
    /// `next[(s * 2 + dir) * lines + class]`: the state after the blank moves to the lower
    /// (`dir` 0) or higher (`dir` 1) line, pulling in a tile of goal line `class`.
    next: Vec<u32>,
}

const NONE: u32 = u32::MAX;

/// What a table build may still spend: the caller's limits, checked once per state, and the
/// states the memory budget leaves room for, counted before each state is stored.
struct BuildBudget<'a> {
    budget: Budget<'a>,
    /// States built so far, both tables.
    states: u64,
    /// Bytes the memory budget has left.
    bytes_left: usize,
    /// The whole memory budget, for the message.
    bytes_budget: usize,
    /// When the build started, for the statistics of a build stopped by a limit.
    started: crate::clock::Instant,
}

impl WdTable {
    /// Estimated bytes one state of a table of `lines` lines costs while it is built: its hash
    /// index entry (a 16-byte key and a 4-byte value, aligned to 32, at a load factor of 7/8),
    /// its decoded counts in the queue (72 bytes), its distance (1) and transitions (8 per
    /// line), with half as much again for vectors that grow by doubling.
    fn bytes_per_state(lines: usize) -> usize {
        (37 + 72 + 1 + 8 * lines) * 3 / 2
    }

    /// Bits per count in a key of `lines` lines of `per_line` cells, or the refusal of a board
    /// whose count tables do not fit the 128 bits of a key.
    fn count_bits(lines: usize, per_line: usize) -> Result<u32, SolveError> {
        let bits = usize::BITS - per_line.leading_zeros();
        let blank_bits = usize::BITS - lines.leading_zeros();
        if lines > 8 || (lines * lines) as u32 * bits + blank_bits > 128 {
            return Err(SolveError::Unsupported(format!(
                "walking distance needs the counts of a board's lines to fit 128 bits (at most 8 \
                 lines of a few tiles each); this board's {lines} lines of {per_line} do not: \
                 choose the linear-conflict heuristic"
            )));
        }
        Ok(bits)
    }

    /// Breadth-first search over count tables from the goal's, within `limits`.
    fn build(
        lines: usize,
        per_line: usize,
        goal_blank_line: usize,
        count: usize,
        limits: &mut BuildBudget,
    ) -> Result<WdTable, SolveError> {
        let bits = WdTable::count_bits(lines, per_line)?;
        let encode = |counts: &[u8; 64], blank: usize| -> u128 {
            let mut key = blank as u128;
            for &c in &counts[..lines * lines] {
                key = (key << bits) | c as u128;
            }
            key
        };
        // Count tables as fixed arrays (at most 8 x 8 counts), copied instead of allocated.
        let mut goal = [0u8; 64];
        for g in 0..lines {
            goal[g * lines + g] = (per_line - usize::from(g == goal_blank_line)) as u8;
        }
        let mut table = WdTable {
            lines,
            bits,
            index: HashMap::with_hasher(FoldState),
            dist: vec![0],
            next: Vec::new(),
        };
        // Decoded states are kept in BFS order (index = position), so the queue is implicit.
        let mut states: Vec<([u8; 64], usize)> = vec![(goal, goal_blank_line)];
        table.index.insert(encode(&goal, goal_blank_line), 0);
        let state_bytes = WdTable::bytes_per_state(lines);
        // Refused before anything is built: the states the cap and the memory budget leave
        // room for, against the table's exact size.
        let max_states = MAX_STATES.min(limits.bytes_left / state_bytes);
        // `count`, the table's exact size, is `WalkingDistance::table_sizes`'s.
        if count > max_states {
            return Err(too_many_states(
                count,
                count > MAX_STATES,
                state_bytes,
                limits.bytes_budget,
            ));
        }
        let mut head = 0;
        while head < states.len() {
            limits.states += 1;
            if limits.budget.spend(1, limits.states) {
                return Err(SolveError::Limit {
                    hit: limits.budget.hit().unwrap_or(LimitHit::Cancelled),
                    stats: Stats {
                        elapsed: limits.started.elapsed(),
                        ..Stats::default()
                    },
                    bound: 0,
                });
            }
            let (counts, blank) = states[head];
            let d = table.dist[head];
            for dir in 0..2 {
                let nb = match dir {
                    0 if blank > 0 => Some(blank - 1),
                    1 if blank + 1 < lines => Some(blank + 1),
                    _ => None,
                };
                for class in 0..lines {
                    let target = match nb {
                        Some(nb) if counts[nb * lines + class] > 0 => {
                            let mut c = counts;
                            c[nb * lines + class] -= 1;
                            c[blank * lines + class] += 1;
                            let key = encode(&c, nb);
                            match table.index.get(&key) {
                                Some(&s) => s,
                                None => {
                                    let s = states.len() as u32;
                                    // Counted above; kept so that a miscount can never
                                    // let the build outgrow its budget.
                                    if states.len() >= max_states {
                                        return Err(too_many_states(
                                            states.len(),
                                            max_states == MAX_STATES,
                                            state_bytes,
                                            limits.bytes_budget,
                                        ));
                                    }
                                    table.index.insert(key, s);
                                    table.dist.push(d + 1);
                                    states.push((c, nb));
                                    s
                                }
                            }
                        }
                        _ => NONE,
                    };
                    table.next.push(target);
                }
            }
            head += 1;
        }
        limits.bytes_left = limits.bytes_left.saturating_sub(states.len() * state_bytes);
        Ok(table)
    }

    fn lookup(&self, counts: &[u8], blank: usize) -> u32 {
        let mut key = blank as u128;
        for &c in counts {
            key = (key << self.bits) | c as u128;
        }
        // Every count table of a valid board is reachable from the goal's (the count game is
        // connected), so a miss cannot happen for a board of the right size.
        self.index.get(&key).copied().unwrap_or(0)
    }

    #[inline]
    fn step(&self, state: u32, dir: usize, class: usize) -> u32 {
        self.next[(state as usize * 2 + dir) * self.lines + class]
    }
}

/// Most lines a count table is counted for ([`count_tables`]).
const COUNTED_LINES: usize = 8;

/// The number of count tables of one direction, with the blank's line: the states of its
/// walking-distance table, single-tile ([`WalkingDistance`]) or multi-tile
/// ([`crate::mtm`]), which differ only in their moves. `lines` lines of `per_line` cells, the
/// goal's blank in line `goal_blank_line`; `None` once more than `most` are certain, or for
/// more than eight lines. Counted without building anything, in a few milliseconds, so that
/// a table too large is refused at once rather than after seconds and hundreds of megabytes.
///
/// Each table is a way to deal the tiles of every goal line over the lines, one cell of the
/// blank's line left empty, and every such way is reached by the moves (the count game is
/// connected; tested against the builds): they are counted line by line, by the tiles each
/// goal line has left. The count does not depend on the order of the goal lines, so those
/// are kept sorted and equal ones merged.
pub(crate) fn count_tables(
    lines: usize,
    per_line: usize,
    goal_blank_line: usize,
    most: usize,
) -> Option<usize> {
    if lines > COUNTED_LINES || per_line > usize::from(u8::MAX) || goal_blank_line >= lines {
        return None;
    }
    let mut classes = [0u8; COUNTED_LINES];
    for (class, n) in classes.iter_mut().enumerate().take(lines) {
        *n = per_line as u8 - u8::from(class == goal_blank_line);
    }
    classes.sort_unstable();
    let mut total = 0usize;
    for blank in 0..lines {
        // The ways to fill the lines so far, by the tiles each goal line has left. Every one
        // can be completed (what is left fits the lines left, as the totals match), so the
        // ways counted so far never exceed the tables of this blank line.
        let mut ways: HashMap<[u8; COUNTED_LINES], usize> = HashMap::from([(classes, 1)]);
        for line in 0..lines {
            let fill = per_line - usize::from(line == blank);
            let mut next: HashMap<[u8; COUNTED_LINES], usize> = HashMap::new();
            let mut counted = 0usize;
            for (&left, &n) in &ways {
                deal(&mut { left }, 0, fill, &mut |rest| {
                    let mut key = *rest;
                    key.sort_unstable();
                    let entry = next.entry(key).or_insert(0);
                    *entry = entry.saturating_add(n);
                    counted = counted.saturating_add(n);
                });
                if total.saturating_add(counted) > most {
                    return None;
                }
            }
            ways = next;
        }
        total = ways.values().fold(total, |t, &n| t.saturating_add(n));
    }
    (total <= most).then_some(total)
}

/// Calls `f` with what is left of `left` (tiles per goal line) after every way to take `fill`
/// tiles from the goal lines `class..` (at most what each has).
fn deal(
    left: &mut [u8; COUNTED_LINES],
    class: usize,
    fill: usize,
    f: &mut impl FnMut(&[u8; COUNTED_LINES]),
) {
    if class == COUNTED_LINES {
        if fill == 0 {
            f(left);
        }
        return;
    }
    let rest: usize = left[class + 1..].iter().map(|&n| usize::from(n)).sum();
    let have = usize::from(left[class]);
    for take in fill.saturating_sub(rest)..=have.min(fill) {
        left[class] -= take as u8;
        deal(left, class + 1, fill - take, f);
        left[class] += take as u8;
    }
}

/// The refusal of a table of `states` states (counted, or reached before the build stopped)
/// over [`MAX_STATES`] or over the memory left in the budget.
fn too_many_states(states: usize, over_cap: bool, state_bytes: usize, budget: usize) -> SolveError {
    const MIB: f64 = (1 << 20) as f64;
    if over_cap {
        SolveError::Unsupported(format!(
            "the walking-distance table of this board has {} states, more than the {} it may \
             have: choose the linear-conflict heuristic",
            thousands(states as u64),
            thousands(MAX_STATES as u64)
        ))
    } else {
        SolveError::Unsupported(format!(
            "the walking-distance tables of this board need about {:.0} MiB to build ({} \
             states), more than the memory budget of {} MiB leaves: choose the \
             linear-conflict heuristic, or a larger memory budget",
            states as f64 * state_bytes as f64 / MIB,
            thousands(states as u64),
            budget >> 20
        ))
    }
}

impl WalkingDistance {
    /// Builds both tables for `goal` with no limit but the default memory budget (see
    /// [`WalkingDistance::build`]).
    pub fn new(goal: &Board) -> Result<WalkingDistance, SolveError> {
        WalkingDistance::build(goal, &Limits::none())
    }

    /// Whether walking distance can serve `goal`'s board, decided in milliseconds without
    /// building anything: refused from 5x5 on, and where a direction's count tables do not
    /// fit a key or pass [`MAX_STATES`] (the memory budget is [`WalkingDistance::build`]'s to
    /// check). Front ends call it to refuse the heuristic before any search.
    pub fn check_fits(goal: &Board) -> Result<(), SolveError> {
        WalkingDistance::table_sizes(goal).map(drop)
    }

    /// The exact states of the vertical and horizontal tables for `goal`, counted without
    /// building anything, or [`WalkingDistance::check_fits`]'s refusal.
    fn table_sizes(goal: &Board) -> Result<[usize; 2], SolveError> {
        let (w, h) = (goal.width(), goal.height());
        // Refused before building, with words every front end offers: from 5x5 on, each
        // direction's table has tens of millions of count tables or more (65,650,495 on 5x5,
        // over two trillion on 6x6, by `count_tables`), far from a quick heuristic.
        if w.min(h) >= 5 {
            let size = if (w, h) == (5, 5) {
                "65,650,495 each way"
            } else {
                "a 5x5 board's already have 65,650,495 each way"
            };
            return Err(SolveError::Unsupported(format!(
                "walking distance needs tables of more than {} states on {} board ({size}): \
                 choose the linear-conflict heuristic, or auto, the planner's choice",
                thousands(MAX_STATES as u64),
                size_with_article(w, h)
            )));
        }
        // Both keys first: a long line makes the other direction's table impossible, and
        // counting the states of lines of hundreds of cells would take minutes.
        WdTable::count_bits(h, w)?;
        WdTable::count_bits(w, h)?;
        let mut sizes = [0; 2];
        let directions = [(h, w, goal.blank() / w), (w, h, goal.blank() % w)];
        for (size, (lines, per_line, blank_line)) in sizes.iter_mut().zip(directions) {
            // Exact, for the message and the build's memory budget: in milliseconds, as the
            // keys fit (at most 8 x 8, no long line).
            *size = count_tables(lines, per_line, blank_line, usize::MAX).unwrap_or(usize::MAX);
            if *size > MAX_STATES {
                return Err(too_many_states(*size, true, 0, 0));
            }
        }
        Ok(sizes)
    }

    /// Builds both tables for `goal`. Fails with [`SolveError::Unsupported`] when a table would be
    /// too large: boards whose sides are both 5 or more, or long thin boards whose table passes
    /// [`MAX_STATES`] or the memory budget of `limits` (estimated per state before it is
    /// stored). Up to 4x4 the tables have at most 24,964 states and build in milliseconds; long
    /// thin boards can take seconds, so the build checks the deadline and the cancel flag of
    /// `limits` once per state, and fails with [`SolveError::Limit`] when one is hit. The node
    /// budget is left to the search: the tables are shared by every search toward this goal.
    pub fn build(goal: &Board, limits: &Limits) -> Result<WalkingDistance, SolveError> {
        let geometry = GoalGeometry::new(goal);
        let (w, h) = (goal.width(), goal.height());
        let [vertical_states, horizontal_states] = WalkingDistance::table_sizes(goal)?;
        // The node budget is the search's: a table shared by every search toward this goal is
        // not charged to the first one that needs it.
        let table_limits = Limits {
            max_nodes: None,
            ..limits.clone()
        };
        let started = crate::clock::Instant::now();
        let mut budget = BuildBudget {
            budget: Budget::new(&table_limits),
            started,
            states: 0,
            bytes_left: limits.memory_budget(),
            bytes_budget: limits.memory_budget(),
        };
        let vertical = WdTable::build(h, w, goal.blank() / w, vertical_states, &mut budget)?;
        let horizontal = WdTable::build(w, h, goal.blank() % w, horizontal_states, &mut budget)?;
        Ok(WalkingDistance {
            geometry,
            vertical,
            horizontal,
        })
    }

    /// Bytes the tables take in memory, roughly: per state its distance, its transitions and
    /// its entry in the key index. [`crate::Tables`] bounds its cache of tables by this.
    pub fn memory_bytes(&self) -> usize {
        [&self.vertical, &self.horizontal]
            .iter()
            .map(|t| t.dist.len() * (1 + 8 * t.lines + 32))
            .sum()
    }

    /// Number of count-table states (vertical, horizontal): the size of the tables.
    pub fn table_states(&self) -> (usize, usize) {
        (self.vertical.dist.len(), self.horizontal.dist.len())
    }

    fn state(&self, tiles: &[Tile]) -> WdState {
        let (w, h) = (self.geometry.width, self.geometry.height);
        let mut rows = vec![0u8; h * h];
        let mut cols = vec![0u8; w * w];
        let mut blank = 0;
        for (cell, &t) in tiles.iter().enumerate() {
            if t == BLANK {
                blank = cell;
                continue;
            }
            rows[(cell / w) * h + self.geometry.goal_row(t)] += 1;
            cols[(cell % w) * w + self.geometry.goal_col(t)] += 1;
        }
        WdState {
            vertical: self.vertical.lookup(&rows, blank / w),
            horizontal: self.horizontal.lookup(&cols, blank % w),
        }
    }

    fn value(&self, s: WdState) -> u32 {
        u32::from(self.vertical.dist[s.vertical as usize])
            + u32::from(self.horizontal.dist[s.horizontal as usize])
    }
}

impl Heuristic for WalkingDistance {
    fn estimate(&self, tiles: &[Tile]) -> u32 {
        self.value(self.state(tiles))
    }
}

impl Incremental for WalkingDistance {
    type Aux = WdState;
    type Pending = ();
    fn init(&self, tiles: &[Tile]) -> (u32, WdState) {
        let s = self.state(tiles);
        (self.value(s), s)
    }

    #[inline]
    fn update(
        &self,
        _: &[Tile],
        tile: Tile,
        from: usize,
        to: usize,
        _: u32,
        aux: &mut WdState,
    ) -> u32 {
        let w = self.geometry.width;
        // The blank went from `to` to `from`: towards the lower line when from < to.
        let dir = usize::from(from > to);
        if from / w != to / w {
            aux.vertical = self
                .vertical
                .step(aux.vertical, dir, self.geometry.goal_row(tile));
        } else {
            aux.horizontal =
                self.horizontal
                    .step(aux.horizontal, dir, self.geometry.goal_col(tile));
        }
        self.value(*aux)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fifteen_puzzle_table_has_takahashis_size() {
        // Takahashi's 15-puzzle table has 24,964 count tables.
        let wd = WalkingDistance::new(&Board::solved(4, 4).unwrap()).unwrap();
        assert_eq!(wd.table_states(), (24_964, 24_964));
    }

    #[test]
    fn large_boards_are_refused_with_advice() {
        let err = WalkingDistance::new(&Board::solved(5, 5).unwrap()).unwrap_err();
        assert!(
            err.to_string()
                .contains("choose the linear-conflict heuristic"),
            "{err}"
        );
        // Advice in words every front end fits: no command-line flag, no table name the
        // page's menu lacks, but auto, which every front end offers.
        assert!(!err.to_string().contains("--"), "{err}");
        assert!(!err.to_string().contains("pdb:"), "{err}");
        assert!(
            err.to_string().contains("or auto, the planner's choice"),
            "{err}"
        );
        assert!(err.to_string().contains("on a 5x5 board"), "{err}");
        // Boards larger than 5x5 are named as they are, not as the 24-puzzle.
        let err = WalkingDistance::new(&Board::solved(6, 6).unwrap())
            .err()
            .unwrap()
            .to_string();
        assert!(
            err.contains("on a 6x6 board (a 5x5 board's already have"),
            "{err}"
        );
        // thin boards still work
        assert!(WalkingDistance::new(&Board::solved(6, 2).unwrap()).is_ok());
        assert!(WalkingDistance::new(&Board::solved(3, 5).unwrap()).is_ok());
    }

    #[test]
    fn the_counted_size_is_the_built_size() {
        for (w, h) in [
            (3, 3),
            (4, 4),
            (2, 5),
            (5, 2),
            (2, 6),
            (3, 5),
            (4, 3),
            (2, 4),
        ] {
            let goal = Board::solved(w, h).unwrap();
            let wd = WalkingDistance::new(&goal).unwrap();
            let counted = (
                count_tables(h, w, goal.blank() / w, usize::MAX).unwrap(),
                count_tables(w, h, goal.blank() % w, usize::MAX).unwrap(),
            );
            assert_eq!(wd.table_states(), counted, "{w}x{h}");
        }
        // Another goal, the blank first (Korf's goal on the 15-puzzle), the same size.
        assert_eq!(count_tables(4, 4, 0, usize::MAX), Some(24_964));
        // Counting stops once more than the most asked for are certain.
        assert_eq!(count_tables(4, 4, 0, 24_963), None);
        assert_eq!(count_tables(5, 5, 4, 3_000_000), None);
    }

    #[test]
    fn a_board_with_a_long_side_is_refused_for_its_key_before_anything_is_counted() {
        // 60 x 4: the rows' table alone has lines of 60 cells (a minute to count); the columns'
        // 60 lines cannot be a key. 300 x 2 and 2 x 300 the same, either way round.
        for (w, h, lines, per_line) in [(60, 4, 60, 4), (300, 2, 300, 2), (2, 300, 300, 2)] {
            let err = WalkingDistance::new(&Board::solved(w, h).unwrap()).unwrap_err();
            let msg = err.to_string();
            assert!(
                msg.contains(&format!("this board's {lines} lines of {per_line} do not")),
                "{w}x{h}: {msg}"
            );
        }
    }

    #[test]
    fn a_table_too_large_is_refused_with_its_size_before_it_is_built() {
        for (w, h, states) in [
            (2, 7, "16,854,390"),
            (7, 2, "16,854,390"),
            (3, 6, "50,388,240"),
            (4, 5, "5,977,015"),
        ] {
            let err = WalkingDistance::new(&Board::solved(w, h).unwrap()).unwrap_err();
            let msg = err.to_string();
            assert!(
                msg.contains(&format!("has {states} states, more than the 4,000,000")),
                "{w}x{h}: {msg}"
            );
        }
    }

    #[test]
    fn the_build_obeys_the_deadline_the_cancel_flag_and_the_memory_budget() {
        // 2 columns x 6 rows: 367,560 count tables, about 87 MiB while they are built.
        let goal = Board::solved(2, 6).unwrap();
        let limit_hit = |limits: &Limits| match WalkingDistance::build(&goal, limits) {
            Err(SolveError::Limit { hit, .. }) => hit,
            other => panic!(
                "expected a limit, got {:?}",
                other.map(|wd| wd.table_states())
            ),
        };
        let past = Limits::none().with_timeout(std::time::Duration::ZERO);
        assert_eq!(limit_hit(&past), LimitHit::Time);
        // The node budget is the search's, not the shared table's.
        let few_nodes = Limits::none().with_max_nodes(1).with_max_memory(16 << 20);
        assert!(WalkingDistance::build(&Board::solved(4, 4).unwrap(), &few_nodes).is_ok());
        let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        assert_eq!(
            limit_hit(&Limits::none().with_cancel(flag)),
            LimitHit::Cancelled
        );
        let small = Limits::none().with_max_memory(16 << 20);
        let err = WalkingDistance::build(&goal, &small).unwrap_err();
        assert!(
            err.to_string()
                .contains("(367,560 states), more than the memory budget of 16 MiB"),
            "{err}"
        );
        // The 15-puzzle's tables fit in a few MiB.
        assert!(WalkingDistance::build(&Board::solved(4, 4).unwrap(), &small).is_ok());
    }

    #[test]
    fn incremental_matches_full_and_dominates_manhattan() {
        let goal = Board::parse("0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15").unwrap();
        let wd = WalkingDistance::new(&goal).unwrap();
        let md = super::super::Manhattan::new(&goal);
        let mut b = goal.clone();
        let (mut h, mut aux) = wd.init(b.tiles());
        assert_eq!(h, 0);
        let mut seed = 99u64;
        for _ in 0..3000 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            let m = crate::moves::Move::ALL[(seed >> 40) as usize % 4];
            let old_blank = b.blank();
            if let Some(to_blank) = b.target(m) {
                let tile = b.tiles()[to_blank];
                b.apply(m);
                h = wd.update(b.tiles(), tile, to_blank, old_blank, h, &mut aux);
                assert_eq!(h, wd.estimate(b.tiles()));
                assert!(h >= md.estimate(b.tiles()));
            }
        }
    }
}
