//! How the build and the zero-aware tables name the states of a pattern: the set of cells its
//! tiles stand on (module `subsets`), the order of its tiles on them (module `perm`), and the
//! region of the blank among the other cells (module `regions`). This is Clausecker &
//! Reinefeld's layout for zero-aware pattern databases (2019).
//!
//! States are grouped in *blocks*: one block for each region of each set of cells, holding that
//! region's states for every order. Block `m` is region 0 (the one with the lowest cell) of the
//! set of rank `m`; the other regions of the sets that have several come after all of those,
//! set after set, so that the block of a set with one region (on 5x5, most sets of 6 tiles and
//! about half of those of 7) needs no look-up but its bit. A zero-aware table keeps one entry
//! per state: entry `block * per_set + order`.
//!
//! The layout depends only on the board and the number of tiles, not on which tiles or goal.

use std::sync::{Arc, Mutex, Weak};

use super::perm::Perms;
use super::regions::Geometry;
use super::subsets::Subsets;

#[cfg(test)]
thread_local! {
    /// Layouts worked out on this thread (tests check that some paths work none out).
    pub(crate) static BUILT_ON_THIS_THREAD: std::cell::Cell<usize> =
        const { std::cell::Cell::new(0) };
}

/// The sets, orders and blocks of patterns of `k` tiles on one board size.
pub(super) struct Layout {
    pub geo: Geometry,
    pub subsets: Subsets,
    pub perms: Perms,
    /// Entries of one block (or of one set, in a table of placements by set): the orders,
    /// rounded up to a multiple of 64, so that no byte of a table holds two blocks and a block's
    /// orders fill whole words (`8!` is a multiple of 64; 720 orders take 768 entries).
    pub per_set: u64,
    /// Entries of one order in a zero-aware table: the blocks, rounded up to a multiple of 64.
    stride: u64,
    /// Bit `m`: the set of rank `m` has more than one region, read before anything else of a
    /// set: 22 KB for 6 tiles and 60 KB for 7 on 5x5, 243 KB for 6 on 6x6.
    several: Vec<u64>,
    /// `extra[m]..extra[m + 1]`: the blocks of regions 1 and up of the set of rank `m`, counted
    /// from the first block after region 0 of every set.
    extra: Vec<u64>,
    /// The cells of each block's region, by block.
    regions: Vec<u64>,
    /// On boards of at most [`REGION_TABLE_MAX_CELLS`] cells, for each set what
    /// [`Layout::block`] needs, in one record of 16 bytes: one look-up in one cache line
    /// instead of a search through the set's regions, whose branches the processor cannot
    /// predict on the 15-puzzle, where most sets have several regions. (206 KB for 8 tiles on
    /// 4x4, where a table of blocks by set and cell took 824 KB, which the table reads of a
    /// search pushed out of the caches.) Empty on larger boards.
    set_regions: Vec<SetRegions>,
}

/// The regions of one set's free cells: the region of each cell, four bits a cell, and where
/// the blocks of the set's regions from 1 up start (its `extra`).
#[derive(Clone, Copy, Default)]
#[repr(C, align(16))]
struct SetRegions {
    of_cell: u64,
    extra: u64,
}

/// Largest board whose regions by set and blank cell are kept in a table (on 5x5 the table
/// would take megabytes, and about half the sets or more have one region).
const REGION_TABLE_MAX_CELLS: usize = 16;

impl Layout {
    /// The layout of `k`-tile patterns on a `width` x `height` board, shared with every table
    /// of the process that uses it while one does: the four tables of the 24-puzzle's 6-6-6-6
    /// work it out once, not four times. (It is derived data, the same for any goal, so sharing
    /// it changes nothing but the time.)
    pub fn shared(width: usize, height: usize, k: usize) -> Arc<Layout> {
        type Known = Vec<((usize, usize, usize), Weak<Layout>)>;
        static KNOWN: Mutex<Known> = Mutex::new(Vec::new());
        let key = (width, height, k);
        let mut known = KNOWN.lock().unwrap_or_else(|e| e.into_inner());
        known.retain(|(_, layout)| layout.strong_count() > 0);
        if let Some(layout) = known
            .iter()
            .find(|(k, _)| *k == key)
            .and_then(|(_, l)| l.upgrade())
        {
            return layout;
        }
        let layout = Arc::new(Layout::new(width, height, k));
        known.push((key, Arc::downgrade(&layout)));
        layout
    }

    /// The layout of `k`-tile patterns on a `width` x `height` board. Counting the regions of
    /// every set takes a flood per set: `C(n, k)` of them (177,100 for 6 tiles on 5x5).
    pub fn new(width: usize, height: usize, k: usize) -> Layout {
        #[cfg(test)]
        BUILT_ON_THIS_THREAD.with(|built| built.set(built.get() + 1));
        let geo = Geometry::new(width, height);
        let subsets = Subsets::new(geo.n, k);
        // A vertical slide passes fewer tiles than the board is wide.
        let perms = Perms::new(k).with_shifts(width.max(height) - 1);
        let sets = subsets.count as usize;
        let mut several = vec![0u64; sets.div_ceil(64)];
        let mut extra = Vec::with_capacity(sets + 1);
        let mut first = Vec::with_capacity(sets);
        let mut others = Vec::new();
        // Colexicographic order is the order of the sets read as numbers: the next set with as
        // many cells is the next number with as many bits (Gosper's hack).
        let mut set: u64 = if k == 0 { 0 } else { (1u64 << k) - 1 };
        for m in 0..sets {
            extra.push(others.len() as u64);
            let free = geo.full & !set;
            let mut regions = geo.regions(free);
            first.push(regions.next().unwrap_or(0));
            let before = others.len();
            others.extend(regions);
            if others.len() > before {
                several[m / 64] |= 1 << (m % 64);
            }
            if set != 0 {
                let low = set & set.wrapping_neg();
                let ripple = set.wrapping_add(low);
                set = ripple | (((set ^ ripple) >> 2) / low);
            }
        }
        extra.push(others.len() as u64);
        first.extend(others);
        let mut layout = Layout {
            per_set: perms.count.next_multiple_of(64),
            stride: (first.len() as u64).next_multiple_of(64),
            geo,
            subsets,
            perms,
            several,
            extra,
            regions: first,
            set_regions: Vec::new(),
        };
        let n = layout.geo.n;
        if n <= REGION_TABLE_MAX_CELLS {
            // A set of k cells leaves at most 15 free cells: a region number fits four bits.
            // Each region past the first writes its number on its own cells (region 0 is the
            // zeros left), rather than each cell searching the set's regions.
            layout.set_regions = (0..sets)
                .map(|m| {
                    let mut of_cell = 0u64;
                    for r in 1..layout.regions_of(m as u64) {
                        let mut cells =
                            layout.regions[layout.block_of_region(m as u64, r) as usize];
                        while cells != 0 {
                            let cell = cells.trailing_zeros() as u64;
                            cells &= cells - 1;
                            of_cell |= (r as u64) << (4 * cell);
                        }
                    }
                    SetRegions {
                        of_cell,
                        extra: layout.extra[m],
                    }
                })
                .collect();
        }
        layout
    }

    /// Number of blocks.
    pub fn blocks(&self) -> u64 {
        self.regions.len() as u64
    }

    /// Entries of a zero-aware table: one per state (and a few to round its rows up).
    pub fn zero_aware_entries(&self) -> u64 {
        self.stride * self.per_set
    }

    /// The entry of a zero-aware table for the state of order `order` in block `block`: order
    /// after order, block after block within an order. A horizontal slide keeps the order, so
    /// the look-ups of nearby states in a search land near each other; a layout by set first
    /// would put each slide's state kilobytes away.
    #[inline]
    pub fn entry(&self, block: u64, order: u64) -> u64 {
        order * self.stride + block
    }

    /// Entries of one order in a zero-aware table (a multiple of 64).
    pub fn stride(&self) -> u64 {
        self.stride
    }

    /// Bytes of the layout's own tables.
    pub fn bytes(&self) -> u64 {
        (self.several.len() + self.extra.len() + self.regions.len()) as u64 * 8
            + self.set_regions.len() as u64 * 16
    }

    /// The number of regions of the set of rank `set`.
    #[inline]
    pub fn regions_of(&self, set: u64) -> usize {
        let m = set as usize;
        1 + (self.extra[m + 1] - self.extra[m]) as usize
    }

    /// The block of region `r` of the set of rank `set`.
    #[inline]
    pub fn block_of_region(&self, set: u64, r: usize) -> u64 {
        if r == 0 {
            set
        } else {
            self.subsets.count + self.extra[set as usize] + r as u64 - 1
        }
    }

    /// The block of the state whose tiles stand on the set of rank `set` with the blank on
    /// `blank`.
    #[inline]
    pub fn block(&self, set: u64, blank: usize) -> u64 {
        let Some(regions) = self.set_regions.get(set as usize) else {
            return self.search_block(set, blank);
        };
        let r = (regions.of_cell >> (4 * blank)) & 15;
        // Selected rather than branched on: which region the blank is in is a coin toss.
        let other = (self.subsets.count + regions.extra + r).wrapping_sub(1);
        if r == 0 {
            set
        } else {
            other
        }
    }

    /// [`Layout::block`] for a set whose cells `taken` are known. On boards without the table
    /// of regions by set, the blank's region is worked out from the cells rather than read:
    /// reading the regions of a set that has several is a cache miss, and a search looks up
    /// sets all over the table (on Korf & Felner's 24-puzzles, IDA* took 0.94 of the time of
    /// reading the regions). Only the bit that says whether the set has several regions is
    /// read first (60 KB of bits for 7 tiles on 5x5): with one region there is nothing to work
    /// out. With the flood from both ends, IDA* took 0.97 of its time without the bit on an
    /// Intel Xeon with 2 MB of cache per core (BENCHMARKS.md); on an AMD EPYC, before that
    /// flood, the one-sided flood alone took 0.97-0.99 of the time of reading the bit first.
    ///
    /// The bit's test is inlined into the search's step, the flood is not: most sets a search
    /// meets have one region.
    #[inline(always)]
    pub fn block_of_cells(&self, set: u64, taken: u64, blank: usize) -> u64 {
        if !self.set_regions.is_empty() {
            return self.block(set, blank);
        }
        let m = set as usize;
        if self.several[m / 64] & (1 << (m % 64)) == 0 {
            return set;
        }
        self.block_among_regions(set, taken, blank)
    }

    /// [`Layout::block_of_cells`] for a set with several regions.
    #[inline(never)]
    fn block_among_regions(&self, set: u64, taken: u64, blank: usize) -> u64 {
        let m = set as usize;
        let free = self.geo.full & !taken;
        // Region 0 is the one with the lowest free cell.
        let lowest = free & free.wrapping_neg();
        let Some((near, far)) = self.geo.parts_unless_joined(1 << blank, free, lowest) else {
            return set;
        };
        // The blank's region is another: its block is one of the set's blocks past region 0.
        let (past_first, end) = (self.extra[m], self.extra[m + 1]);
        let block = self.subsets.count + past_first;
        if end - past_first == 1 {
            // Two regions, the usual case: the blank's is region 1, and neither needs flooding
            // on (reading `extra[m + 1]` beside `extra[m]` is one cache line, mostly).
            return block;
        }
        // Regions are numbered by their lowest cell: the blank's comes after those whose
        // lowest cell is below its own, which are the regions holding a free cell below it.
        // The first of them, the lowest cell's, is flooded on from the part flooded above,
        // each other one from its lowest cell.
        let region = self.geo.flood(near, free);
        let first = region & region.wrapping_neg();
        let mut below = free & (first - 1) & !self.geo.flood(far, free);
        let mut r = 1;
        while below != 0 {
            below &= !self.geo.flood(below & below.wrapping_neg(), free);
            r += 1;
        }
        block + r - 1
    }

    /// [`Layout::block`] by searching the set's regions for the blank's cell.
    #[inline]
    fn search_block(&self, set: u64, blank: usize) -> u64 {
        let m = set as usize;
        if self.several[m / 64] & (1 << (m % 64)) == 0 || self.regions[m] & (1 << blank) != 0 {
            return set;
        }
        let first = self.subsets.count + self.extra[m];
        let mut block = first;
        let last = self.subsets.count + self.extra[m + 1] - 1;
        while block < last && self.regions[block as usize] & (1 << blank) == 0 {
            block += 1;
        }
        block
    }

    /// The rank of the order of the tiles of a placement: tile `i` stands on `cells[i]`, and
    /// `taken` are their cells. The order reads the tiles from the lowest cell up; its digit at
    /// a tile's position counts the smaller tiles further up.
    #[inline]
    pub fn order_of(&self, cells: impl Iterator<Item = usize>, taken: u64) -> u64 {
        let k = self.perms.k;
        let mut seen = 0u64;
        let mut order = 0u64;
        for (i, c) in cells.enumerate() {
            let below = (1u64 << c) - 1;
            let position = (taken & below).count_ones() as usize;
            // Further up are the cells above `c`; the smaller tiles there are those of `0..i`
            // not below `c`.
            let later_smaller = i as u64 - u64::from((seen & below).count_ones());
            order += later_smaller * self.perms.fact(k - 1 - position);
            seen |= 1 << c;
        }
        order
    }
}

impl std::fmt::Debug for Layout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Layout")
            .field("cells", &self.geo.n)
            .field("tiles", &self.perms.k)
            .field("blocks", &self.blocks())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_count_the_regions_of_every_set() {
        for (w, h, k) in [(4, 4, 8), (3, 3, 4), (5, 5, 6), (5, 5, 7), (6, 6, 4)] {
            let layout = Layout::new(w, h, k);
            let mut seen = vec![false; layout.blocks() as usize];
            for m in (0..layout.subsets.count).step_by(7) {
                let taken = layout.subsets.unrank(m);
                let free = layout.geo.full & !taken;
                assert_eq!(layout.regions_of(m), layout.geo.regions(free).count());
                for (r, region) in layout.geo.regions(free).enumerate() {
                    let block = layout.block_of_region(m, r);
                    assert!(!seen[block as usize]);
                    seen[block as usize] = true;
                    let mut cells = region;
                    while cells != 0 {
                        let cell = cells.trailing_zeros() as usize;
                        cells &= cells - 1;
                        assert_eq!(layout.block(m, cell), block, "{w}x{h} set {m} cell {cell}");
                        assert_eq!(layout.search_block(m, cell), block);
                        assert_eq!(layout.block_of_cells(m, taken, cell), block);
                    }
                }
            }
        }
        // 2.75 regions a set on average for 8 tiles on 4x4 (35,347 blocks).
        assert_eq!(Layout::new(4, 4, 8).blocks(), 35_347);
        // Every tile on the board but the blank: one region, the blank's cell.
        assert_eq!(Layout::new(3, 3, 8).blocks(), 9);
    }

    #[test]
    fn orders_rank_the_tiles_from_the_lowest_cell_up() {
        let layout = Layout::new(4, 4, 3);
        // Tile 0 on cell 9, tile 1 on cell 2, tile 2 on cell 5: from the lowest cell up the
        // order is 1, 2, 0.
        let cells = [9usize, 2, 5];
        let taken = cells.iter().fold(0u64, |t, &c| t | 1 << c);
        let order = layout.order_of(cells.iter().copied(), taken);
        assert_eq!(order, layout.perms.rank(&[1, 2, 0]));
    }
}
