//! The blank's regions during a database build: the connected groups of non-pattern cells, in
//! which the blank moves for free.
//!
//! The build asks for the region of a cell billions of times (once per state expanded and once
//! per new state). Flooding the free cells costs a loop of a data-dependent length, whose exit
//! the processor mispredicts; on boards of at most 16 cells a table answers instead: one entry
//! per set of free cells (12,870 for the 15-puzzle's 8-tile pattern), one cache line each.

/// Bits per direction in [`Geometry::moves_into`].
const MOVE_BITS: usize = 16;

/// Board geometry as bit masks.
pub(super) struct Geometry {
    pub n: usize,
    width: usize,
    pub full: u64,
    not_first_col: u64,
    not_last_col: u64,
    /// `neighbours[c]`: the cells next to cell `c`.
    pub neighbours: Vec<u64>,
    /// The step from the blank's cell to the tile's, by direction of [`Geometry::moves_into`].
    offsets: [isize; 4],
}

impl Geometry {
    pub fn new(width: usize, height: usize) -> Geometry {
        let n = width * height;
        let full = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let mut first = 0u64;
        let mut last = 0u64;
        for r in 0..height {
            first |= 1 << (r * width);
            last |= 1 << (r * width + width - 1);
        }
        let mut g = Geometry {
            n,
            width,
            full,
            not_first_col: full & !first,
            not_last_col: full & !last,
            neighbours: Vec::new(),
            offsets: [1, -1, width as isize, -(width as isize)],
        };
        g.neighbours = (0..n).map(|c| g.spread(1 << c)).collect();
        g
    }

    /// Cells next to a cell of `m`.
    #[inline]
    pub fn spread(&self, m: u64) -> u64 {
        ((m << self.width)
            | (m >> self.width)
            | ((m & self.not_last_col) << 1)
            | ((m & self.not_first_col) >> 1))
            & self.full
    }

    /// Every move of a pattern tile (on `taken`) into a cell of `region`, as one bit per move:
    /// bit `16 * d + to` for the tile that slides into `to` from direction `d` (from the right,
    /// left, below, above). `None` on boards of more than 16 cells, where the bits would not fit.
    #[inline]
    pub fn moves_into(&self, region: u64, taken: u64) -> Option<u64> {
        if self.n > MOVE_BITS {
            return None;
        }
        let w = self.width;
        let from_right = region & self.not_last_col & (taken >> 1);
        let from_left = region & self.not_first_col & (taken << 1);
        let from_below = region & (taken >> w);
        let from_above = region & (taken << w);
        Some(
            from_right
                | from_left << MOVE_BITS
                | from_below << (2 * MOVE_BITS)
                | from_above << (3 * MOVE_BITS),
        )
    }

    /// The tile's cell and the blank's cell of bit `bit` of [`Geometry::moves_into`].
    #[inline]
    pub fn decode_move(&self, bit: u32) -> (usize, usize) {
        let to = bit as usize % MOVE_BITS;
        // A table rather than a match: the direction is a coin toss for the branch predictor.
        let c = to.wrapping_add_signed(self.offsets[bit as usize / MOVE_BITS]);
        (c, to)
    }

    /// The cells of `free` connected to `seed` through `free`.
    #[inline]
    pub fn flood(&self, seed: u64, free: u64) -> u64 {
        let mut region = seed;
        loop {
            let grown = region | (self.spread(region) & free);
            if grown == region {
                return region;
            }
            region = grown;
        }
    }
}

/// The ranks, among the cells of `free` (lowest cell first), of the cells of `cells`.
#[inline]
pub(super) fn compress(cells: u64, free: u64) -> u64 {
    let mut out = 0u64;
    let mut m = cells;
    while m != 0 {
        let c = m.trailing_zeros();
        out |= 1 << (free & ((1u64 << c) - 1)).count_ones();
        m &= m - 1;
    }
    out
}

/// The cell of the set bit of rank `rank` in `bits` (which has more than `rank` set bits).
#[inline]
fn select(bits: u64, rank: u32) -> usize {
    // Halve the range where the bit lies, by popcounts: six steps for any rank.
    let (mut x, mut r, mut base) = (bits, rank, 0u32);
    for width in [32u32, 16, 8, 4, 2, 1] {
        let low = x & ((1u64 << width) - 1);
        let below = low.count_ones();
        if r >= below {
            r -= below;
            x >>= width;
            base += width;
        } else {
            x = low;
        }
    }
    base as usize
}

/// A region: its cells, and their ranks among the free cells (the fields of the build's
/// two-bit array that it covers).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Region {
    pub cells: u64,
    pub ranks: u64,
}

/// Largest board the table serves: its index is the set of free cells, so it has `2^n` slots.
const TABLE_MAX_CELLS: usize = 16;

/// The regions of one set of free cells, by rank, in 16-bit halves: one cache line.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Entry([(u16, u16); TABLE_MAX_CELLS]);

/// The region of a cell, by table on small boards and by flooding on others.
pub(super) struct Regions {
    geo: Geometry,
    /// `entry_of[free]`: the entry of a set of free cells (only sets of the pattern's size
    /// have one). Empty when the board is too large for the table.
    entry_of: Vec<u16>,
    /// `entries[e].0[r]`: the region of the free cell of rank `r`.
    entries: Vec<Entry>,
}

impl Regions {
    /// Regions on the board of `geo` when `free_cells` cells are not the pattern's.
    pub fn new(geo: Geometry, free_cells: usize) -> Regions {
        let mut entry_of = Vec::new();
        let mut entries = Vec::new();
        if geo.n <= TABLE_MAX_CELLS {
            entry_of = vec![u16::MAX; 1 << geo.n];
            for free in 0..=geo.full {
                if free.count_ones() as usize != free_cells {
                    continue;
                }
                let mut entry = [(0u16, 0u16); TABLE_MAX_CELLS];
                let mut m = free;
                let mut rank = 0;
                while m != 0 {
                    let cells = geo.flood(m & m.wrapping_neg(), free);
                    entry[rank] = (cells as u16, compress(cells, free) as u16);
                    m &= m - 1;
                    rank += 1;
                }
                entry_of[free as usize] =
                    u16::try_from(entries.len()).expect("C(16, k) entries fit 16 bits");
                entries.push(Entry(entry));
            }
        }
        Regions {
            geo,
            entry_of,
            entries,
        }
    }

    /// The board geometry.
    #[inline]
    pub fn geo(&self) -> &Geometry {
        &self.geo
    }

    /// The region of the free cell of rank `rank` (from 0, lowest cell first) among the cells
    /// of `free` (which must have the size given to [`Regions::new`]).
    #[inline(always)]
    pub fn of(&self, free: u64, rank: u32) -> Region {
        self.of_cell(free, rank, || select(free, rank))
    }

    /// [`Regions::of`] when the cell is at hand: `cell()` returns it, and is called only on
    /// boards too large for the table.
    #[inline(always)]
    pub fn of_cell(&self, free: u64, rank: u32, cell: impl FnOnce() -> usize) -> Region {
        if self.entries.is_empty() {
            let cells = self.geo.flood(1 << cell(), free);
            Region {
                cells,
                ranks: compress(cells, free),
            }
        } else {
            let (cells, ranks) =
                self.entries[usize::from(self.entry_of[free as usize])].0[rank as usize];
            Region {
                cells: u64::from(cells),
                ranks: u64::from(ranks),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compress_ranks_cells_among_free_ones() {
        let free = 0b1011_0100u64;
        assert_eq!(compress(0b1000_0100, free), 0b1001);
        assert_eq!(compress(free, free), 0b1111);
    }

    #[test]
    fn flood_stays_in_free_cells_and_on_the_board() {
        let g = Geometry::new(3, 3);
        // free: cells 2 and 3 are not adjacent on a 3-wide board (end of row 0, start of row 1).
        assert_eq!(g.flood(1 << 2, (1 << 2) | (1 << 3)), 1 << 2);
        assert_eq!(g.flood(1 << 0, 0b1_1111_1111), 0b1_1111_1111);
        assert_eq!(g.flood(1 << 0, 0b0_0000_1011), 0b0_0000_1011);
    }

    #[test]
    fn table_agrees_with_flooding() {
        for (w, h, free_cells) in [(3, 3, 1), (3, 3, 5), (4, 4, 8), (4, 4, 9), (4, 3, 6)] {
            let table = Regions::new(Geometry::new(w, h), free_cells);
            let geo = Geometry::new(w, h);
            assert!(!table.entries.is_empty());
            let mut checked = 0;
            for free in (0..=geo.full).filter(|f| f.count_ones() as usize == free_cells) {
                let mut m = free;
                while m != 0 {
                    let c = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let cells = geo.flood(1 << c, free);
                    let want = Region {
                        cells,
                        ranks: compress(cells, free),
                    };
                    let rank = (free & ((1 << c) - 1)).count_ones();
                    assert_eq!(
                        table.of(free, rank),
                        want,
                        "{w}x{h} free {free:#b} cell {c}"
                    );
                    assert_eq!(select(free, rank), c);
                    checked += 1;
                }
            }
            assert!(checked > 0);
        }
    }

    #[test]
    fn select_finds_the_bit_of_each_rank() {
        for bits in [1u64, 0b1011_0100, u64::MAX, 1 << 63, 0x8000_0001_0000_0010] {
            let mut m = bits;
            let mut rank = 0;
            while m != 0 {
                assert_eq!(
                    select(bits, rank),
                    m.trailing_zeros() as usize,
                    "{bits:#x} {rank}"
                );
                m &= m - 1;
                rank += 1;
            }
        }
    }

    #[test]
    fn moves_into_lists_every_tile_next_to_the_region() {
        for (w, h) in [(3, 3), (4, 4), (4, 3), (2, 5)] {
            let geo = Geometry::new(w, h);
            // Every region of every third set of free cells of half the board.
            for free in (0..=geo.full)
                .filter(|f| f.count_ones() as usize == geo.n / 2)
                .step_by(3)
            {
                let taken = geo.full & !free;
                let mut seen = 0u64;
                let mut m = free;
                while m != 0 {
                    let region = geo.flood(m & m.wrapping_neg(), free);
                    m &= !region;
                    let mut want = vec![];
                    for c in (0..geo.n).filter(|c| taken & (1 << c) != 0) {
                        for to in (0..geo.n).filter(|t| region & geo.neighbours[c] & (1 << t) != 0)
                        {
                            want.push((c, to));
                        }
                    }
                    let mut got = vec![];
                    let mut moves = geo.moves_into(region, taken).unwrap();
                    while moves != 0 {
                        got.push(geo.decode_move(moves.trailing_zeros()));
                        moves &= moves - 1;
                    }
                    want.sort_unstable();
                    got.sort_unstable();
                    assert_eq!(got, want, "{w}x{h} free {free:#b}");
                    seen |= region;
                }
                assert_eq!(seen, free);
            }
        }
        assert_eq!(Geometry::new(5, 5).moves_into(1, 2), None);
    }

    #[test]
    fn large_boards_flood() {
        let regions = Regions::new(Geometry::new(5, 5), 19);
        assert!(regions.entries.is_empty());
        let free = regions.geo().full & !0b11_1111;
        let r = regions.of(free, 0);
        assert_eq!(r.cells, free);
        assert_eq!(r.ranks, (1 << 19) - 1);
    }
}
