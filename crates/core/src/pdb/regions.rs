//! The blank's regions during a database build: the connected groups of non-pattern cells, in
//! which the blank moves for free. Regions are numbered by their lowest cell.

/// Board geometry as bit masks.
pub(super) struct Geometry {
    pub n: usize,
    width: usize,
    pub full: u64,
    not_first_col: u64,
    not_last_col: u64,
    /// `neighbours[c]`: the cells next to cell `c`.
    pub neighbours: Vec<u64>,
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

    /// The cells of `free` connected to `seed` through `free`.
    #[inline]
    pub fn flood(&self, seed: u64, free: u64) -> u64 {
        // No cell meets an empty target: the flood always ends whole.
        self.flood_unless_meeting(seed, free, 0).unwrap_or(seed)
    }

    /// [`Geometry::flood`] that stops as soon as the region meets a cell of `target`: `None`
    /// then, else the whole region (which holds no cell of `target`).
    #[inline]
    pub fn flood_unless_meeting(&self, seed: u64, free: u64, target: u64) -> Option<u64> {
        let mut region = seed;
        loop {
            if region & target != 0 {
                return None;
            }
            let grown = region | (self.spread(region) & free);
            if grown == region {
                return Some(region);
            }
            region = grown;
        }
    }

    /// Whether the cells `seed` and `other` of `free` lie in one region (`None`), else the parts
    /// of their two regions flooded by the round one of them was whole: one of the two parts is
    /// its whole region, and a caller that needs more floods on from there. Flooded from both
    /// cells at once: two cells d steps apart meet in d / 2 rounds instead of d, and each
    /// round's two spreads do not wait on each other. The search's look-ups in zero-aware
    /// tables ask this of every pattern a move changes whose set has several regions, on
    /// boards past the table of regions by set: on three 24-puzzles (beams included, Intel
    /// Xeon), about 4 % less time than with the one-sided flood (BENCHMARKS.md). Where the set
    /// has two regions, the answer is all they need: neither region is flooded further.
    #[inline]
    pub fn parts_unless_joined(&self, seed: u64, free: u64, other: u64) -> Option<(u64, u64)> {
        let (mut near, mut far) = (seed, other);
        loop {
            if near & far != 0 {
                return None;
            }
            let near_grown = near | (self.spread(near) & free);
            let far_grown = far | (self.spread(far) & free);
            if near_grown == near || far_grown == far {
                // One of them is whole, and apart from the other's cells so far.
                return Some((near, far));
            }
            near = near_grown;
            far = far_grown;
        }
    }

    /// The regions of the free cells `free`, by lowest cell.
    pub fn regions(&self, free: u64) -> impl Iterator<Item = u64> + '_ {
        let mut left = free;
        std::iter::from_fn(move || {
            (left != 0).then(|| {
                let region = self.flood(left & left.wrapping_neg(), free);
                left &= !region;
                region
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flood_stays_in_free_cells_and_on_the_board() {
        let g = Geometry::new(3, 3);
        // free: cells 2 and 3 are not adjacent on a 3-wide board (end of row 0, start of row 1).
        assert_eq!(g.flood(1 << 2, (1 << 2) | (1 << 3)), 1 << 2);
        assert_eq!(g.flood(1 << 0, 0b1_1111_1111), 0b1_1111_1111);
        assert_eq!(g.flood(1 << 0, 0b0_0000_1011), 0b0_0000_1011);
    }

    #[test]
    fn a_flood_meeting_its_target_stops() {
        let g = Geometry::new(3, 3);
        // free: {0, 1, 3} and {8}, apart.
        let free = 0b1_0000_1011;
        assert_eq!(g.flood_unless_meeting(1 << 1, free, 1 << 3), None);
        assert_eq!(g.flood_unless_meeting(1 << 1, free, 1 << 8), Some(0b1011));
        assert_eq!(g.flood_unless_meeting(1 << 8, free, 1 << 0), Some(1 << 8));
    }

    #[test]
    fn flooding_from_both_cells_agrees_with_flooding_from_one() {
        // Random free sets of a few shapes of boards, every pair of free cells.
        let mut rng = crate::generate::Rng::new(7);
        for (w, h) in [
            (3, 3),
            (4, 4),
            (5, 5),
            (6, 6),
            (8, 8),
            (7, 3),
            (2, 8),
            (8, 2),
        ] {
            let g = Geometry::new(w, h);
            for round in 0..300 {
                let state = rng.next_u64();
                // Every cell free once, then about half of them, or about three in four.
                let free = if round == 0 {
                    g.full
                } else if state & 1 == 0 {
                    state & g.full
                } else {
                    (state | state >> 3) & g.full
                };
                for a in (0..g.n).filter(|&c| free & (1 << c) != 0) {
                    for b in (0..g.n).filter(|&c| free & (1 << c) != 0) {
                        let parts = g.parts_unless_joined(1 << a, free, 1 << b);
                        assert_eq!(
                            parts.map(|(near, _)| g.flood(near, free)),
                            g.flood_unless_meeting(1 << a, free, 1 << b),
                            "{w}x{h}, free {free:#x}, cells {a} and {b}"
                        );
                        // Apart: each part holds its cell and cells of its region only, and
                        // one of them is the whole region.
                        if let Some((near, far)) = parts {
                            let (a_region, b_region) =
                                (g.flood(1 << a, free), g.flood(1 << b, free));
                            assert!(near & (1 << a) != 0 && far & (1 << b) != 0);
                            assert_eq!(near & !a_region, 0);
                            assert_eq!(far & !b_region, 0);
                            assert!(near == a_region || far == b_region);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn regions_come_by_their_lowest_cell() {
        // 4x4, free cells: {0, 1} | {3, 7} | {8} | {15}; the others are the pattern's.
        let g = Geometry::new(4, 4);
        let free = (1 << 0) | (1 << 1) | (1 << 3) | (1 << 7) | (1 << 8) | (1 << 15);
        let regions: Vec<u64> = g.regions(free).collect();
        assert_eq!(regions, [0b11, (1 << 3) | (1 << 7), 1 << 8, 1 << 15]);
        assert_eq!(
            Geometry::new(5, 5)
                .regions(Geometry::new(5, 5).full)
                .count(),
            1
        );
    }
}
