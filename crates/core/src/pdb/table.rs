//! One pattern database in memory: a packed array of excesses over the pattern's Manhattan
//! distance, 4 bits per entry (8 when a value does not fit).
//!
//! A table just built lives in an owned buffer; a table read from its file is memory-mapped, so
//! that a process solving one board starts searching at once and touches only the pages its
//! lookups need, and several processes share one copy in the page cache.

use super::index;
use super::PatternSpec;
use crate::heuristic::manhattan::cell_distance;

/// The database of one pattern.
///
/// Entry `i` is for the placement of index `i` ([`index::rank`]); its value is the fewest moves of
/// pattern tiles (the blank free to wander at no cost, but only through non-pattern cells) from
/// that placement to the goal placement, stored as `(value - manhattan) / 2`. Placements that
/// cannot reach the goal at all (only when the pattern holds every tile, by parity) hold 0.
#[derive(Debug)]
pub struct PatternDb {
    spec: PatternSpec,
    bits: u8,
    max_excess: u8,
    data: TableBytes,
    /// `manhattan[i * n + c]`: distance of pattern tile `i` on cell `c` from its goal cell.
    manhattan: Vec<u8>,
}

impl PatternDb {
    /// Assembles a database from its packed entries; `data` must have the size `bits` implies.
    pub(crate) fn from_parts(
        spec: PatternSpec,
        bits: u8,
        max_excess: u8,
        data: Vec<u8>,
    ) -> PatternDb {
        PatternDb::with_bytes(spec, bits, max_excess, TableBytes::Owned(data))
    }

    /// Assembles a database whose packed entries are `len` bytes of a mapped file from
    /// `offset` on (checked by the caller: header, size and checksum).
    pub(crate) fn from_mapped(
        spec: PatternSpec,
        bits: u8,
        max_excess: u8,
        map: memmap2::Mmap,
        offset: usize,
    ) -> PatternDb {
        PatternDb::with_bytes(spec, bits, max_excess, TableBytes::Mapped { map, offset })
    }

    fn with_bytes(spec: PatternSpec, bits: u8, max_excess: u8, data: TableBytes) -> PatternDb {
        debug_assert_eq!(data.bytes().len() as u64, packed_len(spec.entries(), bits));
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
            manhattan,
        }
    }

    /// What the database is for.
    pub fn spec(&self) -> &PatternSpec {
        &self.spec
    }

    /// Bits per entry: 4, or 8 when some excess exceeds 15.
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

    /// Number of entries.
    pub fn entries(&self) -> u64 {
        self.spec.entries()
    }

    /// Bytes of the table in memory.
    pub fn bytes(&self) -> usize {
        self.data().len()
    }

    /// The stored excess of entry `index`: `(value - manhattan) / 2`.
    #[inline]
    pub fn excess(&self, index: u64) -> u32 {
        let data = self.data.bytes();
        if self.bits == 4 {
            let byte = data[(index >> 1) as usize];
            u32::from((byte >> ((index & 1) * 4)) & 0x0f)
        } else {
            u32::from(data[index as usize])
        }
    }

    /// Manhattan distance of pattern tile `i` standing on `cell`.
    #[inline]
    pub fn tile_manhattan(&self, i: usize, cell: usize) -> u32 {
        u32::from(self.manhattan[i * self.spec.board_cells() + cell])
    }

    /// The pattern cost of the placement where pattern tile `i` stands on `cells[i]`: the fewest
    /// moves of pattern tiles to their goal cells.
    pub fn value(&self, cells: &[usize]) -> u32 {
        let md: u32 = cells
            .iter()
            .enumerate()
            .map(|(i, &c)| self.tile_manhattan(i, c))
            .sum();
        md + 2 * self.excess(index::rank(cells.iter().copied(), self.spec.board_cells()))
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

/// Bytes of a packed table of `entries` entries of `bits` bits.
pub fn packed_len(entries: u64, bits: u8) -> u64 {
    if bits == 4 {
        entries.div_ceil(2)
    } else {
        entries
    }
}
