//! One pattern database in memory: a packed array of excesses over the pattern's Manhattan
//! distance, 4 bits per entry (8 when a value does not fit).

use super::index;
use super::PatternSpec;

/// The database of one pattern.
///
/// Entry `i` is for the placement of index `i` ([`index::rank`]); its value is the fewest moves of
/// pattern tiles (the blank free to wander at no cost, but only through non-pattern cells) from
/// that placement to the goal placement, stored as `(value - manhattan) / 2`. Placements that
/// cannot reach the goal at all (only when the pattern holds every tile, by parity) hold 0.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatternDb {
    spec: PatternSpec,
    bits: u8,
    max_excess: u8,
    data: Vec<u8>,
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
        debug_assert_eq!(data.len() as u64, packed_len(spec.entries(), bits));
        let n = spec.board_cells();
        let w = spec.width;
        let mut manhattan = vec![0u8; spec.cells.len() * n];
        for (i, &g) in spec.cells.iter().enumerate() {
            for c in 0..n {
                manhattan[i * n + c] = ((c % w).abs_diff(g % w) + (c / w).abs_diff(g / w)) as u8;
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
        &self.data
    }

    /// Number of entries.
    pub fn entries(&self) -> u64 {
        self.spec.entries()
    }

    /// Bytes of the table in memory.
    pub fn bytes(&self) -> usize {
        self.data.len()
    }

    /// The stored excess of entry `index`: `(value - manhattan) / 2`.
    #[inline]
    pub fn excess(&self, index: u64) -> u32 {
        if self.bits == 4 {
            let byte = self.data[(index >> 1) as usize];
            u32::from((byte >> ((index & 1) * 4)) & 0x0f)
        } else {
            u32::from(self.data[index as usize])
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

/// Bytes of a packed table of `entries` entries of `bits` bits.
pub fn packed_len(entries: u64, bits: u8) -> u64 {
    if bits == 4 {
        entries.div_ceil(2)
    } else {
        entries
    }
}
