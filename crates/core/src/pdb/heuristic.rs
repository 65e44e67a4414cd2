//! The additive pattern-database heuristic with the reflected lookup.
//!
//! `h = manhattan + 2 * max(sum of excesses, sum of excesses of the reflected board)`.
//!
//! - Additive (Korf & Felner 2002): the patterns are disjoint and each database counts only its
//!   own tiles' moves, so the sum of their values never exceeds the true distance. Each value is
//!   stored as the pattern's Manhattan distance plus twice an excess, so the sum of values is the
//!   board's Manhattan distance (tiles in no pattern included) plus twice the sum of excesses.
//! - Reflected (Felner, Korf & Hanan 2004): when the board is square and the goal's blank is on
//!   the main diagonal, reflecting a board about that diagonal and renaming every tile after the
//!   goal tile of its reflected goal cell gives a board exactly as far from the goal. Looking it
//!   up in the same databases gives a second admissible value; the larger one is used.
//!   Manhattan distance is the same on both boards.
//! - Incremental: a move changes one tile, so IDA* re-indexes only that tile's pattern and the
//!   pattern its reflected name belongs to (two table lookups per node).
//! - Two partitions (`zpdb:6-6-6-6+7-7-7-3`): the larger of their values; a move changes one
//!   pattern of each, so a node costs two look-ups per partition.
//! - Zero-aware tables (`zpdb:`): a pattern's entry also depends on the blank's region, which
//!   only the moved tile's pattern can change (the blank steps onto the tile's old cell, next
//!   to its cell before, so in every other pattern it stays in its region). Their one-bit
//!   entries are read against the value before the move ([`PatternDb::neighbour_excess`]);
//!   [`Incremental::init`] walks each pattern down to its goal once.
//! - Dual (Zahavi, Felner, Holte & Schaeffer 2008): a further lookup, for plain tables only,
//!   in [`DualPdbHeuristic`] ([`PdbHeuristic::with_dual`]); the solver's tables go without it
//!   ([`crate::Tables::pdb_heuristic`] says why).

use std::sync::Arc;

use super::index;
use super::layout::Layout;
use super::table::PatternDb;
use super::{PatternSpec, PdbError};
use crate::board::{size_with_article, Board, Tile, BLANK};
use crate::heuristic::manhattan::cell_distance;
use crate::heuristic::{Heuristic, Incremental};

mod dual;
pub use dual::{DualAux, DualPdbHeuristic};

/// Largest board the incremental state supports (cells).
pub const MAX_BOARD_CELLS: usize = 64;
/// Largest number of patterns of a heuristic (in two combined partitions together).
pub const MAX_PATTERNS: usize = 16;
/// The patterns a [`PdbHeuristic`] holds by default: up to eight in all, as in the 24-puzzle's
/// combined set and the 6x6 set; `PdbHeuristic<MAX_PATTERNS>` takes more. The fewer, the
/// smaller the state the search copies at every node: 224 bytes for eight.
pub const NARROW_PATTERNS: usize = 8;
/// The patterns of the smallest state the solver uses: up to four in all, as in the
/// 15-puzzle's sets (`7-8`, `6-6-3`, `5-5-5`) and the 24-puzzle's `6-6-6-6`. The state is
/// 120 bytes.
pub const SMALL_PATTERNS: usize = 4;
/// Largest number of partitions one heuristic combines.
pub const MAX_PARTITIONS: usize = 2;
const NONE: u8 = u8::MAX;

#[derive(Debug, Clone)]
struct Pattern {
    db: Arc<PatternDb>,
    /// Place values of the index digits ([`index::weights`]).
    weights: Vec<u32>,
    /// Tiles of the pattern, in index order.
    tiles: Vec<u8>,
    /// For the reflected lookup: in index order, the tile of the real board whose reflection
    /// plays each pattern tile.
    mirror_tiles: Vec<u8>,
    /// The layout of a zero-aware table, whose entry depends on the blank's region too.
    layout: Option<Arc<Layout>>,
    /// The partition the pattern belongs to.
    part: usize,
}

/// Where each tile stands in one partition's patterns, on the board and on its reflection.
#[derive(Debug, Clone)]
struct Members {
    /// Pattern of each tile, `NONE` for the blank and tiles in no pattern.
    tile_pattern: Vec<u8>,
    /// Position of each tile in its pattern's index order.
    tile_slot: Vec<u8>,
    /// Pattern whose reflected index a move of tile `t` changes, `NONE` if none.
    mirror_pattern: Vec<u8>,
    /// Position, in the index order of `mirror_pattern[t]`, of the tile tile `t` reflects to.
    mirror_slot: Vec<u8>,
}

/// Additive pattern databases of a partition, for one goal, with the reflected lookup where the
/// goal allows it; or of two partitions, the larger of their values.
#[derive(Debug, Clone)]
pub struct PdbHeuristic<const P: usize = NARROW_PATTERNS> {
    n: usize,
    /// `manhattan[t * n + c]`: distance of tile `t` on cell `c` from its goal cell (0 for the blank).
    manhattan: Vec<u8>,
    patterns: Vec<Pattern>,
    /// The tiles' patterns in the first partition.
    first: Members,
    /// In a second partition, combined by the maximum, if any; its patterns are numbered after
    /// the first's. (Apart, so that a single partition's update is the same code as ever: a
    /// loop over the partitions, or arrays of both, cost it 8-15 %.)
    second: Option<Box<Members>>,
    /// With the reflected lookup: the cell each cell reflects to.
    transpose: Option<Vec<u8>>,
}

/// The incremental state: each pattern's index and excess on both boards. For a zero-aware
/// table the index is the rank of the order of the tiles on their cells, and the cells are
/// kept beside it. The search copies it for every child, so it holds nothing else (the dual
/// lookups keep theirs beside it, [`DualPdbHeuristic`]): without the dual lookups' caches
/// (88 bytes with eight patterns), IDA* took 0.92 to 0.95 of the instructions on the 15- and
/// the 24-puzzle (BENCHMARKS.md).
#[derive(Debug, Clone, Copy)]
pub struct PdbAux<const P: usize> {
    index: [u32; P],
    mirror_index: [u32; P],
    taken: [u64; P],
    mirror_taken: [u64; P],
    excess: [u8; P],
    mirror_excess: [u8; P],
    manhattan: u16,
    /// Each partition's sum of excesses, on the board and on its reflection.
    sum: [u16; MAX_PARTITIONS],
    mirror_sum: [u16; MAX_PARTITIONS],
}

/// One pattern's place after a move, as [`Incremental::prepare`] works it out: its index (or
/// for a zero-aware table the rank of its order and its cells) and the table entry to read;
/// `pattern` is `NONE` where the move changes no pattern.
#[derive(Debug, Clone, Copy)]
struct Step {
    pattern: u8,
    index: u32,
    taken: u64,
    entry: u64,
}

/// What [`Incremental::prepare`] leaves for [`Incremental::finish`] after a move: the pattern
/// the move changes in each partition, on the board and on its reflection.
#[derive(Debug, Clone, Copy)]
pub struct PdbPending {
    steps: [Step; 2 * MAX_PARTITIONS],
}

impl Default for PdbPending {
    fn default() -> PdbPending {
        PdbPending {
            steps: [Step {
                pattern: NONE,
                index: 0,
                taken: 0,
                entry: 0,
            }; 2 * MAX_PARTITIONS],
        }
    }
}

impl<const P: usize> PdbHeuristic<P> {
    /// The heuristic for `goal` over the databases `dbs` (one per pattern; disjoint patterns,
    /// built for this goal's board and blank cell). `reflect` asks for the reflected lookup; it
    /// is used only where it is valid (square board, blank goal on the main diagonal).
    pub fn new(
        goal: &Board,
        dbs: Vec<Arc<PatternDb>>,
        reflect: bool,
    ) -> Result<PdbHeuristic<P>, PdbError> {
        PdbHeuristic::of_partitions(goal, vec![dbs], reflect)
    }

    /// The larger of the heuristics of several partitions (at most [`MAX_PARTITIONS`], with
    /// `P` patterns in all, at most [`MAX_PATTERNS`]), each as [`PdbHeuristic::new`] makes it:
    /// every one is admissible, so their maximum is. A move changes one pattern of each
    /// partition.
    pub fn of_partitions(
        goal: &Board,
        partitions: Vec<Vec<Arc<PatternDb>>>,
        reflect: bool,
    ) -> Result<PdbHeuristic<P>, PdbError> {
        let n = goal.len();
        let w = goal.width();
        if n > MAX_BOARD_CELLS {
            return Err(PdbError::Unsupported(format!(
                "the pattern-database heuristic supports boards of up to {MAX_BOARD_CELLS} cells, not {n}"
            )));
        }
        let total: usize = partitions.iter().map(Vec::len).sum();
        if partitions.is_empty()
            || partitions.len() > MAX_PARTITIONS
            || partitions.iter().any(Vec::is_empty)
            || total > P.min(MAX_PATTERNS)
        {
            return Err(PdbError::Unsupported(format!(
                "a heuristic takes 1 to {MAX_PARTITIONS} partitions of at least one pattern each \
                 and {} patterns in all, not {} partitions of {total} patterns",
                P.min(MAX_PATTERNS),
                partitions.len()
            )));
        }
        let goal_pos = goal.positions();
        let mut manhattan = vec![0u8; n * n];
        for t in 1..n {
            let g = goal_pos[t];
            for c in 0..n {
                manhattan[t * n + c] = cell_distance(c, g, w) as u8;
            }
        }
        let mut tile_pattern = vec![[NONE; MAX_PARTITIONS]; n];
        let mut tile_slot = vec![[0u8; MAX_PARTITIONS]; n];
        // Filled by partition, then split into one `Members` each.
        let parts = partitions.len();
        let dbs: Vec<(usize, Arc<PatternDb>)> = partitions
            .into_iter()
            .enumerate()
            .flat_map(|(p, dbs)| dbs.into_iter().map(move |db| (p, db)))
            .collect();
        for (j, (part, db)) in dbs.iter().enumerate() {
            let part = *part;
            let spec: &PatternSpec = db.spec();
            // A plain table's index is its entry; a zero-aware table's is the rank of its
            // tiles' order (9! for nine tiles), its entry worked out beside it.
            if db.layout().is_none() && db.entries() > u64::from(u32::MAX) {
                return Err(PdbError::Unsupported(format!(
                    "the database of {spec} has more than 2^32 entries"
                )));
            }
            if spec.width != w || spec.height != goal.height() || spec.blank_goal != goal.blank() {
                return Err(PdbError::Unsupported(format!(
                    "the database of {spec} was not built for this goal ({} board with the blank on cell {})",
                    size_with_article(w, goal.height()),
                    goal.blank()
                )));
            }
            for (i, &c) in spec.cells.iter().enumerate() {
                let t = goal.tiles()[c] as usize;
                tile_slot[t][part] = i as u8;
                if tile_pattern[t][part] != NONE {
                    return Err(PdbError::Unsupported(format!(
                        "tile {t} is in two patterns: an additive partition needs disjoint patterns"
                    )));
                }
                tile_pattern[t][part] = j as u8;
            }
        }
        let blank = goal.blank();
        let square = w == goal.height();
        let transpose: Option<Vec<u8>> = (reflect && square && blank % w == blank / w)
            .then(|| (0..n).map(|c| ((c % w) * w + c / w) as u8).collect());
        // sigma(t): the goal tile on the reflection of t's goal cell (an involution).
        let sigma: Vec<u8> = match &transpose {
            Some(tr) => (0..n)
                .map(|t| goal.tiles()[tr[goal_pos[t]] as usize] as u8)
                .collect(),
            None => (0..n as u8).collect(),
        };
        let patterns = dbs
            .into_iter()
            .map(|(part, db)| {
                let tiles: Vec<u8> = db
                    .spec()
                    .cells
                    .iter()
                    .map(|&c| goal.tiles()[c] as u8)
                    .collect();
                let mirror_tiles = tiles.iter().map(|&u| sigma[u as usize]).collect();
                let weights = index::weights(n, tiles.len())
                    .into_iter()
                    .map(|w| w as u32)
                    .collect();
                Pattern {
                    part,
                    layout: db.layout().cloned(),
                    db,
                    weights,
                    tiles,
                    mirror_tiles,
                }
            })
            .collect();
        let members = |part: usize| Members {
            tile_pattern: (0..n).map(|t| tile_pattern[t][part]).collect(),
            tile_slot: (0..n).map(|t| tile_slot[t][part]).collect(),
            mirror_pattern: (0..n)
                .map(|t| tile_pattern[sigma[t] as usize][part])
                .collect(),
            mirror_slot: (0..n).map(|t| tile_slot[sigma[t] as usize][part]).collect(),
        };
        Ok(PdbHeuristic {
            n,
            manhattan,
            patterns,
            first: members(0),
            second: (parts > 1).then(|| Box::new(members(1))),
            transpose,
        })
    }

    /// True when the reflected lookup is in use.
    pub fn reflects(&self) -> bool {
        self.transpose.is_some()
    }

    /// The databases, one per pattern.
    pub fn databases(&self) -> impl Iterator<Item = &Arc<PatternDb>> {
        self.patterns.iter().map(|p| &p.db)
    }

    /// Pattern `j` where tile `t` stands on `cell(t)` and the blank on `blank`: its index, its
    /// cells (for a zero-aware table; 0 otherwise) and its entry in the table.
    fn place(
        &self,
        j: usize,
        cell: impl Fn(u8) -> usize,
        tiles: &[u8],
        blank: usize,
    ) -> (u32, u64, u64) {
        let cells = tiles.iter().map(|&t| cell(t));
        match &self.patterns[j].layout {
            None => {
                let index = index::rank(cells, self.n);
                (index as u32, 0, index)
            }
            Some(layout) => {
                let taken = cells.clone().fold(0u64, |m, c| m | 1 << c);
                let order = layout.order_of(cells, taken);
                let set = layout.subsets.rank(taken);
                let entry = layout.entry(layout.block_of_cells(set, taken, blank), order);
                (order as u32, taken, entry)
            }
        }
    }

    /// The excess of pattern `p` at `entry`, where its tile `t` stands on `cell(t)` and the blank
    /// on `blank`: read, or for a one-bit table walked down to the goal.
    fn excess_from_scratch(
        &self,
        p: &Pattern,
        entry: u64,
        cell: impl Fn(u8) -> usize,
        tiles: &[u8],
        blank: usize,
    ) -> u8 {
        if p.db.bits() == 1 {
            let cells: Vec<usize> = tiles.iter().map(|&t| cell(t)).collect();
            p.db.excess_at(&cells, blank) as u8
        } else {
            p.db.excess(entry) as u8
        }
    }

    /// The excess of pattern `j` at `entry` after tile `t` of it slid from `from` to `to`, its
    /// excess before being `before`: read, or for a one-bit table told by the parity.
    #[inline(always)]
    fn excess_after(
        &self,
        j: usize,
        entry: u64,
        before: u8,
        t: usize,
        from: usize,
        to: usize,
    ) -> u8 {
        let db = &self.patterns[j].db;
        if db.bits() == 1 {
            // The reflected board's tile moves as far from its goal cell as `t` does.
            let closer = self.manhattan[t * self.n + to] < self.manhattan[t * self.n + from];
            db.neighbour_excess(entry, u32::from(before), closer) as u8
        } else {
            db.excess(entry) as u8
        }
    }

    /// A zero-aware pattern after its tile on `from` slid to `to` (the blank now on `from`),
    /// given the rank of its order and its cells before: the same after, and its entry.
    #[inline(always)]
    fn zero_aware_step(
        layout: &Layout,
        order: u32,
        taken: u64,
        from: usize,
        to: usize,
    ) -> (u32, u64, u64) {
        let before = taken;
        let after = before ^ (1 << from) ^ (1 << to);
        // The tile leaves its place in the order and takes the one of `to` among the cells
        // after the slide (the same, unless the slide passed other tiles of the pattern).
        let a = (before & ((1u64 << from) - 1)).count_ones() as usize;
        let b = (after & ((1u64 << to) - 1)).count_ones() as usize;
        let order = layout.perms.shift(u64::from(order), a, b);
        let set = layout.subsets.rank(after);
        let entry = layout.entry(layout.block_of_cells(set, after, from), order);
        (order as u32, after, entry)
    }

    /// The index of pattern `j` after its tile of slot `i` moved from `from` to `to`
    /// ([`index::step`]); `between(y)` says which (pattern, slot) stands on cell `y`.
    #[inline]
    fn step(
        &self,
        j: usize,
        index: u32,
        i: usize,
        from: usize,
        to: usize,
        between: impl Fn(usize) -> (u8, u8),
    ) -> u32 {
        let w = &self.patterns[j].weights;
        let on = |y| {
            let (pj, slot) = between(y);
            if pj as usize == j {
                (slot as usize, u64::from(w[slot as usize]))
            } else {
                (usize::MAX, 0)
            }
        };
        index::step(u64::from(index), i, u64::from(w[i]), from, to, on) as u32
    }

    /// [`PdbHeuristic::update_partition`] of the second partition, out of line so that the
    /// first's stays as compact as a single partition's.
    #[inline(never)]
    fn update_second(
        &self,
        members: &Members,
        tiles: &[Tile],
        t: usize,
        from: usize,
        to: usize,
        aux: &mut PdbAux<P>,
    ) {
        self.update_partition::<1>(members, tiles, t, from, to, aux);
    }

    /// The update of partition `PART` after tile `t` slid from `from` to `to`, in one pass:
    /// [`PdbHeuristic::prepare_partition`] then [`PdbHeuristic::finish_partition`], without
    /// the prefetch, which a search that reads at once only waits on.
    #[inline(always)]
    fn update_partition<const PART: usize>(
        &self,
        members: &Members,
        tiles: &[Tile],
        t: usize,
        from: usize,
        to: usize,
        aux: &mut PdbAux<P>,
    ) {
        let mut pending = PdbPending::default();
        self.step_partition::<PART, false>(members, tiles, t, from, to, aux, &mut pending);
        self.finish_partition::<PART>(t, from, to, aux, &pending);
    }

    /// [`PdbHeuristic::prepare_partition`] of the second partition, out of line so that the
    /// first's stays as compact as a single partition's.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn prepare_second(
        &self,
        members: &Members,
        tiles: &[Tile],
        t: usize,
        from: usize,
        to: usize,
        aux: &PdbAux<P>,
        pending: &mut PdbPending,
    ) {
        self.step_partition::<1, true>(members, tiles, t, from, to, aux, pending);
    }

    /// The first half of the update of partition `PART` (whose tiles' places are `members`)
    /// after tile `t` slid from `from` to `to`: the new index (or order and cells) of the
    /// pattern the tile is in, on the board and on its reflection, and the table entries to
    /// read, which it asks the memory for (see [`Incremental::prepare`]).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn prepare_partition<const PART: usize>(
        &self,
        members: &Members,
        tiles: &[Tile],
        t: usize,
        from: usize,
        to: usize,
        aux: &PdbAux<P>,
        pending: &mut PdbPending,
    ) {
        self.step_partition::<PART, true>(members, tiles, t, from, to, aux, pending);
    }

    /// The new place of the pattern tile `t` is in, in partition `PART`, on the board and on
    /// its reflection, into `pending`; with `PREFETCH`, the entries are asked for.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn step_partition<const PART: usize, const PREFETCH: bool>(
        &self,
        members: &Members,
        tiles: &[Tile],
        t: usize,
        from: usize,
        to: usize,
        aux: &PdbAux<P>,
        pending: &mut PdbPending,
    ) {
        self.step_regular::<PART, PREFETCH>(members, tiles, t, from, to, aux, pending);
        self.step_mirror::<PART, PREFETCH>(members, tiles, t, from, to, aux, pending);
    }

    /// The board's half of [`PdbHeuristic::step_partition`].
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn step_regular<const PART: usize, const PREFETCH: bool>(
        &self,
        members: &Members,
        tiles: &[Tile],
        t: usize,
        from: usize,
        to: usize,
        aux: &PdbAux<P>,
        pending: &mut PdbPending,
    ) {
        let j = members.tile_pattern[t];
        if j != NONE {
            let ju = j as usize;
            let (index, taken, entry) = match &self.patterns[ju].layout {
                None => {
                    let slot = members.tile_slot[t] as usize;
                    let idx = self.step(ju, aux.index[ju], slot, from, to, |y| {
                        let u = tiles[y] as usize;
                        (members.tile_pattern[u], members.tile_slot[u])
                    });
                    (idx, 0, u64::from(idx))
                }
                Some(layout) => {
                    Self::zero_aware_step(layout, aux.index[ju], aux.taken[ju], from, to)
                }
            };
            if PREFETCH {
                self.patterns[ju].db.prefetch(entry);
            }
            pending.steps[2 * PART] = Step {
                pattern: j,
                index,
                taken,
                entry,
            };
        }
    }

    /// The reflection's half of [`PdbHeuristic::step_partition`].
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn step_mirror<const PART: usize, const PREFETCH: bool>(
        &self,
        members: &Members,
        tiles: &[Tile],
        t: usize,
        from: usize,
        to: usize,
        aux: &PdbAux<P>,
        pending: &mut PdbPending,
    ) {
        if let Some(tr) = &self.transpose {
            let j = members.mirror_pattern[t];
            if j != NONE {
                let ju = j as usize;
                // On the reflected board the tile moves between the reflected cells, and
                // the tile on reflected cell y is the reflection of the real tile on tr[y].
                let (mf, mt) = (tr[from] as usize, tr[to] as usize);
                let (index, taken, entry) = match &self.patterns[ju].layout {
                    None => {
                        let slot = members.mirror_slot[t] as usize;
                        let idx = self.step(ju, aux.mirror_index[ju], slot, mf, mt, |y| {
                            let u = tiles[tr[y] as usize] as usize;
                            (members.mirror_pattern[u], members.mirror_slot[u])
                        });
                        (idx, 0, u64::from(idx))
                    }
                    Some(layout) => Self::zero_aware_step(
                        layout,
                        aux.mirror_index[ju],
                        aux.mirror_taken[ju],
                        mf,
                        mt,
                    ),
                };
                if PREFETCH {
                    self.patterns[ju].db.prefetch(entry);
                }
                pending.steps[2 * PART + 1] = Step {
                    pattern: j,
                    index,
                    taken,
                    entry,
                };
            }
        }
    }

    /// The second half of the update of partition `PART`: the entries [`prepare_partition`]
    /// found are read, and the sums of excesses follow.
    ///
    /// [`prepare_partition`]: PdbHeuristic::prepare_partition
    #[inline(always)]
    fn finish_partition<const PART: usize>(
        &self,
        t: usize,
        from: usize,
        to: usize,
        aux: &mut PdbAux<P>,
        pending: &PdbPending,
    ) {
        self.finish_regular::<PART>(t, from, to, aux, pending);
        self.finish_mirror::<PART>(t, from, to, aux, pending);
    }

    /// The board's half of [`PdbHeuristic::finish_partition`]: its sum of partition `PART`.
    #[inline(always)]
    fn finish_regular<const PART: usize>(
        &self,
        t: usize,
        from: usize,
        to: usize,
        aux: &mut PdbAux<P>,
        pending: &PdbPending,
    ) {
        let step = pending.steps[2 * PART];
        if step.pattern != NONE {
            let j = step.pattern as usize;
            aux.index[j] = step.index;
            aux.taken[j] = step.taken;
            let e = self.excess_after(j, step.entry, aux.excess[j], t, from, to);
            aux.sum[PART] = aux.sum[PART] + u16::from(e) - u16::from(aux.excess[j]);
            aux.excess[j] = e;
        }
    }

    /// The reflection's half of [`PdbHeuristic::finish_partition`]: its sum of partition
    /// `PART`.
    #[inline(always)]
    fn finish_mirror<const PART: usize>(
        &self,
        t: usize,
        from: usize,
        to: usize,
        aux: &mut PdbAux<P>,
        pending: &PdbPending,
    ) {
        let step = pending.steps[2 * PART + 1];
        if step.pattern != NONE {
            let j = step.pattern as usize;
            aux.mirror_index[j] = step.index;
            aux.mirror_taken[j] = step.taken;
            // The reflected board's tile moves as far from its goal cell as `t` does.
            let e = self.excess_after(j, step.entry, aux.mirror_excess[j], t, from, to);
            aux.mirror_sum[PART] =
                aux.mirror_sum[PART] + u16::from(e) - u16::from(aux.mirror_excess[j]);
            aux.mirror_excess[j] = e;
        }
    }

    /// Partition `PART`'s part of [`Incremental::update_within`]: its two sums (board and
    /// reflection) in turn, the one larger at the parent first, each folded into `best` (the
    /// largest sum known for the child); `Some(value)` as soon as Manhattan distance plus twice
    /// `best` passes `limit`, the other read then left undone.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn within_partition<const PART: usize>(
        &self,
        members: &Members,
        tiles: &[Tile],
        t: usize,
        from: usize,
        to: usize,
        aux: &mut PdbAux<P>,
        limit: u32,
        best: &mut u16,
    ) -> Option<u32> {
        // Written out, not as a loop over the two sides: the loop took 10 % more instructions
        // on an 80-move 15-puzzle (callgrind).
        let mut pending = PdbPending::default();
        let value = |best: u16, aux: &PdbAux<P>| u32::from(aux.manhattan) + 2 * u32::from(best);
        let mirror_first = aux.mirror_sum[PART] > aux.sum[PART];
        if mirror_first {
            self.step_mirror::<PART, false>(members, tiles, t, from, to, aux, &mut pending);
            self.finish_mirror::<PART>(t, from, to, aux, &pending);
            *best = (*best).max(aux.mirror_sum[PART]);
        } else {
            self.step_regular::<PART, false>(members, tiles, t, from, to, aux, &mut pending);
            self.finish_regular::<PART>(t, from, to, aux, &pending);
            *best = (*best).max(aux.sum[PART]);
        }
        if value(*best, aux) > limit || self.transpose.is_none() {
            return (value(*best, aux) > limit).then(|| value(*best, aux));
        }
        if mirror_first {
            self.step_regular::<PART, false>(members, tiles, t, from, to, aux, &mut pending);
            self.finish_regular::<PART>(t, from, to, aux, &pending);
            *best = (*best).max(aux.sum[PART]);
        } else {
            self.step_mirror::<PART, false>(members, tiles, t, from, to, aux, &mut pending);
            self.finish_mirror::<PART>(t, from, to, aux, &pending);
            *best = (*best).max(aux.mirror_sum[PART]);
        }
        (value(*best, aux) > limit).then(|| value(*best, aux))
    }

    /// What a slide of tile `t` from `from` to `to` changes besides the partitions' values,
    /// for [`Incremental::update`] and [`Incremental::finish`] alike: the Manhattan distance.
    #[inline(always)]
    fn step_manhattan(&self, t: usize, from: usize, to: usize, aux: &mut PdbAux<P>) {
        aux.manhattan = aux.manhattan + u16::from(self.manhattan[t * self.n + to])
            - u16::from(self.manhattan[t * self.n + from]);
    }

    #[inline]
    fn value(aux: &PdbAux<P>) -> u32 {
        // A partition not in use sums to 0.
        let best = aux.sum[0]
            .max(aux.mirror_sum[0])
            .max(aux.sum[1].max(aux.mirror_sum[1]));
        u32::from(aux.manhattan) + 2 * u32::from(best)
    }
}

impl<const P: usize> Heuristic for PdbHeuristic<P> {
    fn estimate(&self, tiles: &[Tile]) -> u32 {
        self.init(tiles).0
    }
}

impl<const P: usize> Incremental for PdbHeuristic<P> {
    type Aux = PdbAux<P>;

    fn init(&self, tiles: &[Tile]) -> (u32, PdbAux<P>) {
        let mut aux = PdbAux {
            index: [0; P],
            mirror_index: [0; P],
            taken: [0; P],
            mirror_taken: [0; P],
            excess: [0; P],
            mirror_excess: [0; P],
            manhattan: 0,
            sum: [0; MAX_PARTITIONS],
            mirror_sum: [0; MAX_PARTITIONS],
        };
        let mut pos = [0u8; MAX_BOARD_CELLS];
        for (c, &t) in tiles.iter().enumerate() {
            pos[t as usize] = c as u8;
            if t != BLANK {
                aux.manhattan += u16::from(self.manhattan[t as usize * self.n + c]);
            }
        }
        let blank = usize::from(pos[BLANK as usize]);
        for (j, p) in self.patterns.iter().enumerate() {
            let (index, taken, entry) =
                self.place(j, |t| usize::from(pos[usize::from(t)]), &p.tiles, blank);
            aux.index[j] = index;
            aux.taken[j] = taken;
            aux.excess[j] = self.excess_from_scratch(
                p,
                entry,
                |t| usize::from(pos[usize::from(t)]),
                &p.tiles,
                blank,
            );
            aux.sum[p.part] += u16::from(aux.excess[j]);
            if let Some(tr) = &self.transpose {
                // On the reflected board, the reflection of tile `t` stands on the reflection
                // of `t`'s cell.
                let at = |t: u8| usize::from(tr[usize::from(pos[usize::from(t)])]);
                let mirror_blank = usize::from(tr[blank]);
                let (index, taken, entry) = self.place(j, at, &p.mirror_tiles, mirror_blank);
                aux.mirror_index[j] = index;
                aux.mirror_taken[j] = taken;
                aux.mirror_excess[j] =
                    self.excess_from_scratch(p, entry, at, &p.mirror_tiles, mirror_blank);
                aux.mirror_sum[p.part] += u16::from(aux.mirror_excess[j]);
            }
        }
        (Self::value(&aux), aux)
    }

    type Pending = PdbPending;

    #[inline]
    fn update(
        &self,
        tiles: &[Tile],
        tile: Tile,
        from: usize,
        to: usize,
        h: u32,
        aux: &mut PdbAux<P>,
    ) -> u32 {
        // One pass, the pending step kept in registers: the searches that read one child at a
        // time (IDA*) are fastest this way.
        let _ = h;
        let t = tile as usize;
        self.step_manhattan(t, from, to, aux);
        self.update_partition::<0>(&self.first, tiles, t, from, to, aux);
        if let Some(second) = &self.second {
            self.update_second(second, tiles, t, from, to, aux);
        }
        Self::value(aux)
    }

    /// Zero-aware tables are consistent (a move changes a pattern's place, blank region
    /// included, by one step at most), and so are sums and maxima of them; plain tables need
    /// not be.
    fn consistent(&self) -> bool {
        self.patterns.iter().all(|p| p.layout.is_some())
    }

    /// With two partitions, the first alone (its patterns come first): one table read a move
    /// on each board instead of two.
    fn lighter(&self) -> Option<Self> {
        self.second.as_ref()?;
        let mut first = self.clone();
        first.second = None;
        first.patterns.retain(|p| p.part == 0);
        Some(first)
    }

    /// The partitions' sums (on the board and on its reflection) are read the parent's
    /// largest first, and the reads stop once one sum passes the limit: most of the children a
    /// search cuts off are cut by the first read alone.
    #[inline]
    fn update_within(
        &self,
        tiles: &[Tile],
        tile: Tile,
        from: usize,
        to: usize,
        _h: u32,
        aux: &mut PdbAux<P>,
        limit: u32,
    ) -> u32 {
        let t = tile as usize;
        self.step_manhattan(t, from, to, aux);
        let mut best = 0;
        let Some(second) = &self.second else {
            return self
                .within_partition::<0>(&self.first, tiles, t, from, to, aux, limit, &mut best)
                .unwrap_or_else(|| Self::value(aux));
        };
        let first_larger = aux.sum[0].max(aux.mirror_sum[0]) >= aux.sum[1].max(aux.mirror_sum[1]);
        let cut = if first_larger {
            self.within_partition::<0>(&self.first, tiles, t, from, to, aux, limit, &mut best)
                .or_else(|| {
                    self.within_partition::<1>(second, tiles, t, from, to, aux, limit, &mut best)
                })
        } else {
            self.within_partition::<1>(second, tiles, t, from, to, aux, limit, &mut best)
                .or_else(|| {
                    self.within_partition::<0>(
                        &self.first,
                        tiles,
                        t,
                        from,
                        to,
                        aux,
                        limit,
                        &mut best,
                    )
                })
        };
        cut.unwrap_or_else(|| Self::value(aux))
    }

    #[inline]
    fn prepare(
        &self,
        tiles: &[Tile],
        tile: Tile,
        from: usize,
        to: usize,
        aux: &PdbAux<P>,
    ) -> PdbPending {
        let t = tile as usize;
        let mut pending = PdbPending::default();
        self.prepare_partition::<0>(&self.first, tiles, t, from, to, aux, &mut pending);
        if let Some(second) = &self.second {
            self.prepare_second(second, tiles, t, from, to, aux, &mut pending);
        }
        pending
    }

    #[inline]
    fn finish(
        &self,
        _tiles: &[Tile],
        tile: Tile,
        from: usize,
        to: usize,
        _h: u32,
        aux: &mut PdbAux<P>,
        pending: &PdbPending,
    ) -> u32 {
        let t = tile as usize;
        self.step_manhattan(t, from, to, aux);
        self.finish_partition::<0>(t, from, to, aux, pending);
        if self.second.is_some() {
            self.finish_partition::<1>(t, from, to, aux, pending);
        }
        Self::value(aux)
    }
}
