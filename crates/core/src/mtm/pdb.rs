//! Pattern databases in the multi-tile metric: the fewest slides that bring a few tiles (the
//! pattern) and the blank to their goal cells, the other tiles indistinguishable.
//!
//! Unlike the single-tile tables of [`crate::pdb`], these keep the blank's cell in the state
//! and charge 1 for every slide, whether or not it moves a pattern tile: a slide can move tiles
//! of several patterns at once, so the costs of disjoint patterns cannot be added (the single-
//! tile argument of Korf & Felner 2002 does not carry over). Each table is admissible on its
//! own, as every abstraction that keeps all moves is, and tables combine by their maximum.
//!
//! A state is indexed by the placement of `[blank, tile 0, .., tile k-1]`
//! ([`crate::pdb::index::rank`] over `k + 1` items). The table is built by breadth-first search
//! from the goal, level by level over the whole table (a byte per entry), on every core; slides
//! reverse into slides, so the distance from the goal is the distance to it.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};

use crate::limits::{LimitHit, Limits};
use crate::pdb::index::{placements, rank, unrank};
use crate::pdb::{PatternSpec, MAX_CELLS};

/// The value of an entry not reached (yet).
const UNSEEN: u8 = u8::MAX;

/// One multi-tile pattern database: `dist[index]` is the fewest slides from the state of that
/// index to the goal of the pattern and the blank.
#[derive(Debug, Clone)]
pub struct MtmPdb {
    spec: PatternSpec,
    dist: Vec<u8>,
}

/// The cells of a placement with the blank first, and the pattern tile (if any) on each cell.
struct State {
    width: usize,
    height: usize,
    /// `cells[0]` is the blank, `cells[1 + i]` pattern tile `i`.
    cells: [usize; MAX_CELLS],
    /// `slot[c]`: 1 + the pattern tile on cell `c`, 0 for the blank or an unnamed tile.
    slot: [u8; MAX_CELLS],
    items: usize,
}

impl State {
    fn new(spec: &PatternSpec) -> State {
        State {
            width: spec.width,
            height: spec.height,
            cells: [0; MAX_CELLS],
            slot: [0; MAX_CELLS],
            items: spec.cells.len() + 1,
        }
    }

    fn load(&mut self, index: u64) {
        let n = self.width * self.height;
        for i in 1..self.items {
            self.slot[self.cells[i]] = 0;
        }
        unrank(index, n, &mut self.cells[..self.items]);
        for i in 1..self.items {
            self.slot[self.cells[i]] = i as u8;
        }
    }

    fn index(&self) -> u64 {
        rank(
            self.cells[..self.items].iter().copied(),
            self.width * self.height,
        )
    }

    /// The cell next to `cell` in direction `dir` (0 up, 1 down, 2 left, 3 right).
    fn neighbour(&self, cell: usize, dir: usize) -> Option<usize> {
        let (w, h) = (self.width, self.height);
        match dir {
            0 => cell.checked_sub(w),
            1 => Some(cell + w).filter(|&c| c < w * h),
            2 => (!cell.is_multiple_of(w)).then(|| cell - 1),
            _ => (cell % w + 1 < w).then(|| cell + 1),
        }
    }

    /// Moves the blank one cell to `to`, the tile there (if a pattern tile) into its place.
    fn step(&mut self, to: usize) {
        let from = self.cells[0];
        let s = self.slot[to];
        if s != 0 {
            self.cells[usize::from(s)] = from;
            self.slot[from] = s;
            self.slot[to] = 0;
        }
        self.cells[0] = to;
    }

    /// Calls `f` with the index of every state one slide away (of any length, any direction).
    fn for_each_slide(&mut self, mut f: impl FnMut(u64)) {
        let start = self.cells[0];
        for dir in 0..4 {
            let mut blank = start;
            while let Some(to) = self.neighbour(blank, dir) {
                self.step(to);
                blank = to;
                f(self.index());
            }
            // Slide back: the reverse direction is dir ^ 1.
            while self.cells[0] != start {
                let back = self
                    .neighbour(self.cells[0], dir ^ 1)
                    .expect("the way back is on the board");
                self.step(back);
            }
        }
    }
}

impl MtmPdb {
    /// Entries of the table of `spec`: placements of its tiles and the blank.
    pub fn entries(spec: &PatternSpec) -> u64 {
        placements(spec.board_cells(), spec.cells.len() + 1)
    }

    /// Builds the table of `spec` by breadth-first search on `threads` threads, within
    /// `limits` (time, cancel flag; the table's bytes are checked against the memory limit
    /// before anything is allocated). `progress` is told the entries reached so far.
    pub fn build(
        spec: &PatternSpec,
        limits: &Limits,
        threads: usize,
        progress: Option<&(dyn Fn(u64, u64) + Sync)>,
    ) -> Result<MtmPdb, LimitHit> {
        let entries = MtmPdb::entries(spec);
        limits.check_memory(entries as usize)?;
        let dist: Vec<AtomicU8> = (0..entries).map(|_| AtomicU8::new(UNSEEN)).collect();
        let mut goal = State::new(spec);
        goal.cells[0] = spec.blank_goal;
        goal.cells[1..goal.items].copy_from_slice(&spec.cells);
        dist[goal.index() as usize].store(0, Ordering::Relaxed);
        let reached = AtomicU64::new(1);
        let stop = AtomicBool::new(false);
        let threads = threads.max(1) as u64;
        let chunk = entries.div_ceil(threads);
        for level in 0..UNSEEN - 1 {
            let grew = AtomicBool::new(false);
            let hit = std::sync::Mutex::new(None);
            std::thread::scope(|scope| {
                for t in 0..threads {
                    let (dist, grew, hit, stop, reached) = (&dist, &grew, &hit, &stop, &reached);
                    let range = t * chunk..((t + 1) * chunk).min(entries);
                    scope.spawn(move || {
                        let mut state = State::new(spec);
                        let mut found = 0u64;
                        for index in range {
                            // Every 4096 entries, whatever their level (the entries at a
                            // multiple of 4096 may all be at other levels): a few milliseconds.
                            if index % 4096 == 0 {
                                if stop.load(Ordering::Relaxed) {
                                    return;
                                }
                                if let Err(e) = limits.check(0) {
                                    *hit.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                                    stop.store(true, Ordering::Relaxed);
                                    return;
                                }
                            }
                            if dist[index as usize].load(Ordering::Relaxed) != level {
                                continue;
                            }
                            state.load(index);
                            state.for_each_slide(|next| {
                                let entry = &dist[next as usize];
                                // Two threads may both see UNSEEN and write the same level.
                                if entry.load(Ordering::Relaxed) == UNSEEN {
                                    entry.store(level + 1, Ordering::Relaxed);
                                    found += 1;
                                }
                            });
                        }
                        if found > 0 {
                            grew.store(true, Ordering::Relaxed);
                            reached.fetch_add(found, Ordering::Relaxed);
                        }
                    });
                }
            });
            if let Some(e) = hit.into_inner().unwrap_or_else(|e| e.into_inner()) {
                return Err(e);
            }
            if let Some(report) = progress {
                report(reached.load(Ordering::Relaxed).min(entries), entries);
            }
            if !grew.load(Ordering::Relaxed) {
                break;
            }
        }
        Ok(MtmPdb {
            spec: spec.clone(),
            dist: dist.into_iter().map(AtomicU8::into_inner).collect(),
        })
    }

    /// A table from its parts (a file's content), `None` when the length does not fit `spec`.
    pub(crate) fn from_parts(spec: PatternSpec, dist: Vec<u8>) -> Option<MtmPdb> {
        (dist.len() as u64 == MtmPdb::entries(&spec)).then_some(MtmPdb { spec, dist })
    }

    /// What the table is for.
    pub fn spec(&self) -> &PatternSpec {
        &self.spec
    }

    /// The raw distances, one byte per entry.
    pub fn data(&self) -> &[u8] {
        &self.dist
    }

    /// Fewest slides to the goal from the state with the blank on `blank` and pattern tile `i`
    /// on `cells[i]`.
    #[inline]
    pub fn distance(&self, blank: usize, cells: impl Iterator<Item = usize>) -> u32 {
        let index = rank(std::iter::once(blank).chain(cells), self.spec.board_cells());
        u32::from(self.dist[index as usize])
    }

    /// The largest distance in the table, over the states the search from the goal reached.
    /// A pattern of all tiles but one (the 8-puzzle's 8 tiles and the blank, say) leaves no
    /// unnamed tile to absorb the permutation's parity, so half its entries are states no board
    /// reaches: they keep the value `UNSEEN`, which is no distance.
    pub fn max_distance(&self) -> u32 {
        u32::from(
            self.dist
                .iter()
                .copied()
                .filter(|&d| d != UNSEEN)
                .max()
                .unwrap_or(0),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_of_a_small_table_is_reached() {
        // Three tiles and the blank on the 8-puzzle: 9*8*7*6 placements, all reachable
        // (the unnamed tiles absorb any parity).
        let spec = PatternSpec::new(3, 3, 8, vec![0, 1, 2]).unwrap();
        let one = MtmPdb::build(&spec, &Limits::none(), 1, None).unwrap();
        let two = MtmPdb::build(&spec, &Limits::none(), 2, None).unwrap();
        assert_eq!(one.data(), two.data());
        assert!(one.data().iter().all(|&d| d != UNSEEN));
        assert_eq!(one.distance(8, [0, 1, 2].into_iter()), 0);
        // The blank two cells left of its goal: one slide.
        assert_eq!(one.distance(6, [0, 1, 2].into_iter()), 1);
    }

    #[test]
    fn the_largest_distance_leaves_out_the_states_of_the_other_parity() {
        // All eight tiles of the 8-puzzle and the blank: the table is the puzzle itself, half
        // of its placements unreachable, and its largest distance is the diameter of the
        // 8-puzzle in the multi-tile metric, 24 slides.
        let spec = PatternSpec::new(3, 3, 8, (0..8).collect()).unwrap();
        let db = MtmPdb::build(&spec, &Limits::none(), 2, None).unwrap();
        let unseen = db.data().iter().filter(|&&d| d == UNSEEN).count();
        assert_eq!(unseen, db.data().len() / 2);
        assert_eq!(db.max_distance(), 24);
    }

    #[test]
    fn a_cancelled_build_stops() {
        let spec = PatternSpec::new(4, 4, 15, vec![0, 1, 2, 3, 4]).unwrap();
        let flag = std::sync::Arc::new(AtomicBool::new(true));
        let limits = Limits::none().with_cancel(flag);
        assert!(MtmPdb::build(&spec, &limits, 2, None).is_err());
    }
}
