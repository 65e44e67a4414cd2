//! One pattern database in memory: a packed array of excesses over the pattern's Manhattan
//! distance, 4 bits per entry (8 when a value does not fit), or for a zero-aware table one bit
//! per entry: the excess's parity, which tells a state's value from its neighbour's.
//!
//! A table just built lives in an owned buffer; a table read from its file is memory-mapped, so
//! that a process solving one board starts searching at once and touches only the pages its
//! lookups need, and several processes share one copy in the page cache.

use std::sync::Arc;

use super::index;
use super::layout::Layout;
use super::PatternSpec;
use crate::heuristic::manhattan::cell_distance;

/// The database of one pattern.
///
/// Entry `i` is for the placement of index `i` ([`index::rank`]); its value is the fewest moves of
/// pattern tiles (the blank free to wander at no cost, but only through non-pattern cells) from
/// that placement, wherever the blank is, to the goal placement, stored as
/// `(value - manhattan) / 2`. Placements that cannot reach the goal at all (only when the
/// pattern holds every tile, by parity) hold 0.
///
/// A zero-aware table ([`PatternSpec::zero_aware`]) has an entry for each placement and each
/// region of the blank, in the layout of the build (set of cells, region, order of the tiles):
/// its value counts from the blank's actual region, so it is at least the other's. It keeps one
/// bit per entry, the parity of the excess (Clausecker & Reinefeld's one-bit compression): a
/// slide of a pattern tile changes the value by exactly one (its Manhattan distance changes by
/// one, and so does its parity), so from a state's value the bit tells its neighbour's, which
/// is how the search reads it ([`PatternDb::neighbour_excess`]); a value on its own is found by
/// walking down to the goal ([`PatternDb::value`]).
pub struct PatternDb {
    spec: PatternSpec,
    bits: u8,
    max_excess: u8,
    data: TableBytes,
    /// The layout of a zero-aware table.
    layout: Option<Arc<Layout>>,
    /// `manhattan[i * n + c]`: distance of pattern tile `i` on cell `c` from its goal cell.
    manhattan: Vec<u8>,
}

impl PatternDb {
    /// Assembles a database from its packed entries; `data` must have the size `bits` implies.
    /// `layout` is that of a zero-aware table (None for a table of placements).
    pub(super) fn from_parts(
        spec: PatternSpec,
        bits: u8,
        max_excess: u8,
        data: Vec<u8>,
        layout: Option<Arc<Layout>>,
    ) -> PatternDb {
        PatternDb::with_bytes(spec, bits, max_excess, TableBytes::Owned(data), layout)
    }

    /// Assembles a database whose packed entries are `len` bytes of a mapped file from
    /// `offset` on (checked by the caller: header, size and checksum).
    pub(super) fn from_mapped(
        spec: PatternSpec,
        bits: u8,
        max_excess: u8,
        map: memmap2::Mmap,
        offset: usize,
        layout: Option<Arc<Layout>>,
    ) -> PatternDb {
        PatternDb::with_bytes(
            spec,
            bits,
            max_excess,
            TableBytes::Mapped { map, offset },
            layout,
        )
    }

    fn with_bytes(
        spec: PatternSpec,
        bits: u8,
        max_excess: u8,
        data: TableBytes,
        layout: Option<Arc<Layout>>,
    ) -> PatternDb {
        debug_assert_eq!(spec.zero_aware, layout.is_some());
        let entries = layout
            .as_ref()
            .map_or(spec.entries(), |l| l.zero_aware_entries());
        debug_assert_eq!(data.bytes().len() as u64, packed_len(entries, bits));
        let n = spec.board_cells();
        let w = spec.width;
        let mut manhattan = vec![0u8; spec.cells.len() * n];
        for (i, &g) in spec.cells.iter().enumerate() {
            for c in 0..n {
                manhattan[i * n + c] = cell_distance(c, g, w) as u8;
            }
        }
        PatternDb {
            spec,
            bits,
            max_excess,
            data,
            layout,
            manhattan,
        }
    }

    /// What the database is for.
    pub fn spec(&self) -> &PatternSpec {
        &self.spec
    }

    /// Bits per entry: 4, or 8 when some excess exceeds 15; 1 for a zero-aware table.
    pub fn bits(&self) -> u8 {
        self.bits
    }

    /// The largest excess stored.
    pub fn max_excess(&self) -> u8 {
        self.max_excess
    }

    /// The packed entries.
    pub fn data(&self) -> &[u8] {
        self.data.bytes()
    }

    /// True when the entries are read from a memory-mapped file rather than held in memory.
    pub fn is_mapped(&self) -> bool {
        matches!(self.data, TableBytes::Mapped { .. })
    }

    /// Number of entries: placements, or for a zero-aware table states (placements times the
    /// blank's regions).
    pub fn entries(&self) -> u64 {
        self.layout
            .as_ref()
            .map_or(self.spec.entries(), |l| l.zero_aware_entries())
    }

    /// The layout of a zero-aware table.
    pub(super) fn layout(&self) -> Option<&Arc<Layout>> {
        self.layout.as_ref()
    }

    /// Bytes of the table in memory.
    pub fn bytes(&self) -> usize {
        self.data().len()
    }

    /// The stored excess of entry `index`: `(value - manhattan) / 2`; for a one-bit table, its
    /// parity.
    #[inline]
    pub fn excess(&self, index: u64) -> u32 {
        let data = self.data.bytes();
        match self.bits {
            4 => {
                let byte = data[(index >> 1) as usize];
                u32::from((byte >> ((index & 1) * 4)) & 0x0f)
            }
            1 => u32::from((data[(index >> 3) as usize] >> (index & 7)) & 1),
            _ => u32::from(data[index as usize]),
        }
    }

    /// Asks the memory for the byte of entry `index`, so that a read of it soon after does not
    /// wait (a hint only: it changes no value; see [`crate::Incremental::prepare`]).
    #[inline]
    pub fn prefetch(&self, index: u64) {
        let byte = match self.bits {
            4 => index >> 1,
            1 => index >> 3,
            _ => index,
        } as usize;
        if let Some(b) = self.data.bytes().get(byte) {
            crate::prefetch::prefetch(b);
        }
    }

    /// The excess at entry `index` of a one-bit table, for a state one slide of a pattern tile
    /// away from a state of excess `excess`, the slide changing the pattern's Manhattan
    /// distance by `+1` (`closer` false) or `-1` (`closer` true). The value changes by one
    /// either way: towards the goal, so the excess stays or drops by one (Manhattan distance
    /// up) or stays (down); away from it, it stays (up) or grows by one (down). The stored
    /// parity tells which.
    #[inline]
    pub fn neighbour_excess(&self, index: u64, excess: u32, closer: bool) -> u32 {
        debug_assert_eq!(self.bits, 1);
        // 1 when the parity differs; selections rather than branches, as which way it goes is
        // a coin toss for the processor.
        let flip = self.excess(index) ^ (excess & 1);
        if closer {
            excess + flip
        } else {
            excess - flip
        }
    }

    /// Manhattan distance of pattern tile `i` standing on `cell`.
    #[inline]
    pub fn tile_manhattan(&self, i: usize, cell: usize) -> u32 {
        u32::from(self.manhattan[i * self.spec.board_cells() + cell])
    }

    /// The pattern cost of the placement where pattern tile `i` stands on `cells[i]` and the
    /// blank on `blank`: the fewest moves of pattern tiles to their goal cells (a table that is
    /// not zero-aware gives the least over the blank's cells).
    pub fn value(&self, cells: &[usize], blank: usize) -> u32 {
        let md: u32 = cells
            .iter()
            .enumerate()
            .map(|(i, &c)| self.tile_manhattan(i, c))
            .sum();
        md + 2 * self.excess_at(cells, blank)
    }

    /// The excess of the placement where pattern tile `i` stands on `cells[i]` and the blank on
    /// `blank`: a look-up, or for a one-bit table a walk down to the goal, each step a slide
    /// that the parity bits say lowers the value.
    pub fn excess_at(&self, cells: &[usize], blank: usize) -> u32 {
        if self.bits == 1 {
            self.descend(cells, blank)
        } else {
            self.excess(self.entry(cells, blank))
        }
    }

    /// The excess of a state of a one-bit table, by walking from it to the goal: at each step
    /// some slide of a pattern tile into the blank's region lowers the value by one, and the
    /// parity bits say which (see [`PatternDb::neighbour_excess`]); the number of steps is the
    /// value. A walk of more steps than any value can have (a table damaged in a way its
    /// checksum missed) ends with excess 0, which is still a lower bound.
    fn descend(&self, cells: &[usize], blank: usize) -> u32 {
        let layout = self.layout.as_ref().expect("a one-bit table is zero-aware");
        let geo = &layout.geo;
        let n = self.spec.board_cells();
        let goal_taken = self.spec.cells.iter().fold(0u64, |t, &c| t | 1 << c);
        let mut cells = cells.to_vec();
        let mut taken = cells.iter().fold(0u64, |t, &c| t | 1 << c);
        let mut blank = blank;
        let md: u32 = cells
            .iter()
            .enumerate()
            .map(|(i, &c)| self.tile_manhattan(i, c))
            .sum();
        let bit = |cells: &[usize], blank: usize| self.excess(self.entry(cells, blank));
        let mut parity = bit(&cells, blank);
        let mut steps = 0u32;
        let most = md + 2 * 255 + 2;
        loop {
            let free = geo.full & !taken;
            let region = geo.flood(1 << blank, free);
            if taken == goal_taken
                && region & (1 << self.spec.blank_goal) != 0
                && cells == self.spec.cells
            {
                return (steps - md) / 2;
            }
            if steps > most {
                return 0;
            }
            // A slide that goes down: the one whose parity says so.
            let mut next = None;
            'search: for i in 0..cells.len() {
                let c = cells[i];
                let mut targets = geo.neighbours[c] & region;
                while targets != 0 {
                    let to = targets.trailing_zeros() as usize;
                    targets &= targets - 1;
                    let closer = self.tile_manhattan(i, to) < self.tile_manhattan(i, c);
                    cells[i] = to;
                    let moved = taken ^ (1 << c) ^ (1 << to);
                    let b = bit(&cells, c);
                    cells[i] = c;
                    // Down: the excess stays when the Manhattan distance drops, and drops
                    // (its parity flips) when it grows.
                    if (b == parity) == closer {
                        next = Some((i, to, moved, b));
                        break 'search;
                    }
                }
            }
            let Some((i, to, moved, b)) = next else {
                return 0;
            };
            blank = cells[i];
            cells[i] = to;
            taken = moved;
            parity = b;
            steps += 1;
            debug_assert!(steps <= n as u32 * 255);
        }
    }

    /// The entry of the placement where pattern tile `i` stands on `cells[i]` and the blank on
    /// `blank` (which a table that is not zero-aware ignores).
    pub fn entry(&self, cells: &[usize], blank: usize) -> u64 {
        match &self.layout {
            None => index::rank(cells.iter().copied(), self.spec.board_cells()),
            Some(layout) => {
                let taken = cells.iter().fold(0u64, |t, &c| t | 1 << c);
                let set = layout.subsets.rank(taken);
                layout.entry(
                    layout.block(set, blank),
                    layout.order_of(cells.iter().copied(), taken),
                )
            }
        }
    }
}

impl PartialEq for PatternDb {
    fn eq(&self, other: &PatternDb) -> bool {
        self.spec == other.spec
            && self.bits == other.bits
            && self.max_excess == other.max_excess
            && self.data() == other.data()
    }
}

impl Eq for PatternDb {}

impl std::fmt::Debug for PatternDb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PatternDb")
            .field("spec", &self.spec)
            .field("bits", &self.bits)
            .field("max_excess", &self.max_excess)
            .field("entries", &self.entries())
            .field("mapped", &self.is_mapped())
            .finish()
    }
}

/// Where a table's packed entries are: an owned buffer (just built) or a mapped file (loaded).
#[derive(Debug)]
enum TableBytes {
    Owned(Vec<u8>),
    Mapped { map: memmap2::Mmap, offset: usize },
}

impl TableBytes {
    #[inline]
    fn bytes(&self) -> &[u8] {
        match self {
            TableBytes::Owned(v) => v,
            TableBytes::Mapped { map, offset } => &map[*offset..],
        }
    }
}

/// Bytes of a packed table of `entries` entries of `bits` bits (1, 4 or 8).
pub fn packed_len(entries: u64, bits: u8) -> u64 {
    match bits {
        1 => entries.div_ceil(8),
        4 => entries.div_ceil(2),
        _ => entries,
    }
}
