//! The sets of cells `k` pattern tiles can stand on, ranked in colexicographic order: the set
//! with cells `c_0 < c_1 < ... < c_{k-1}` has rank `C(c_0, 1) + C(c_1, 2) + ... + C(c_{k-1}, k)`
//! (the combinatorial number system), a dense rank among the `C(n, k)` sets.

/// The `k`-cell subsets of a board of `n` cells (at most 64).
pub(super) struct Subsets {
    /// Cells of the board.
    pub n: usize,
    /// Cells in each set.
    pub k: usize,
    /// `C(n, k)`.
    pub count: u64,
    /// `binom[c * (k + 1) + j] = C(c, j)` for `c <= n`, `j <= k`.
    binom: Vec<u64>,
    /// Ranks by table, on boards of at most [`TABLE_MAX_CELLS`] cells: the terms of the cells
    /// below `split`, by those cells (`low[set & (2^split - 1)]`), and of the cells from
    /// `split` up, by how many cells lie below and by those cells
    /// (`high[below * 2^(n - split) + (set >> split)]`). Empty on larger boards.
    low: Vec<u32>,
    high: Vec<u32>,
    split: u32,
}

/// Largest board whose ranks come from tables (two look-ups, in tables of at most a few
/// hundred kilobytes, whose entries fit 32 bits: `C(32, 16) < 2^32`); larger boards add up
/// the terms cell by cell.
const TABLE_MAX_CELLS: usize = 32;

impl Subsets {
    /// The `k`-subsets of `n` cells.
    pub fn new(n: usize, k: usize) -> Subsets {
        assert!(k <= n && n <= 64);
        let mut binom = vec![0u64; (n + 1) * (k + 1)];
        for c in 0..=n {
            binom[c * (k + 1)] = 1;
            for j in 1..=k.min(c) {
                let above = binom[(c - 1) * (k + 1) + j];
                binom[c * (k + 1) + j] = binom[(c - 1) * (k + 1) + j - 1].saturating_add(above);
            }
        }
        let count = binom[n * (k + 1) + k];
        let mut s = Subsets {
            n,
            k,
            count,
            binom,
            low: Vec::new(),
            high: Vec::new(),
            split: 0,
        };
        if n <= TABLE_MAX_CELLS {
            // Cut in halves: two small tables of ranks, read one after the other.
            let split = n.div_ceil(2) as u32;
            let low = (0..1u64 << split)
                .map(|m| s.terms(m, 0, 1) as u32)
                .collect();
            let upper = n as u32 - split;
            let mut high = Vec::with_capacity((k + 1) << upper);
            for below in 0..=k {
                high.extend((0..1u64 << upper).map(|m| s.terms(m, split, below + 1) as u32));
            }
            s.low = low;
            s.high = high;
            s.split = split;
        }
        s
    }

    /// `C(c, j)`.
    #[inline]
    fn binom(&self, c: usize, j: usize) -> u64 {
        self.binom[c * (self.k + 1) + j]
    }

    /// The terms of the cells `offset + i` for the set bits `i` of `cells`, the lowest taking
    /// term number `first`: `C(cell, first) + C(next cell, first + 1) + ...` (0 for a term
    /// past `k`, which no set of `k` cells has).
    fn terms(&self, cells: u64, offset: u32, first: usize) -> u64 {
        let mut r = 0u64;
        let mut m = cells;
        let mut j = first;
        while m != 0 && j <= self.k {
            r += self.binom(m.trailing_zeros() as usize + offset as usize, j);
            m &= m - 1;
            j += 1;
        }
        r
    }

    /// The rank of `set` (which has `k` cells).
    #[inline]
    pub fn rank(&self, set: u64) -> u64 {
        if self.low.is_empty() {
            return self.terms(set, 0, 1);
        }
        let low = set & ((1u64 << self.split) - 1);
        let below = low.count_ones() as usize;
        let upper = self.n as u32 - self.split;
        u64::from(self.low[low as usize])
            + u64::from(self.high[(below << upper) + (set >> self.split) as usize])
    }

    /// The set of rank `r`.
    pub fn unrank(&self, mut r: u64) -> u64 {
        let mut set = 0u64;
        let mut c = self.n;
        for j in (1..=self.k).rev() {
            // The largest cell whose C(cell, j) does not exceed what is left.
            c -= 1;
            while self.binom(c, j) > r {
                c -= 1;
            }
            r -= self.binom(c, j);
            set |= 1 << c;
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_are_dense_and_colexicographic() {
        for (n, k) in [
            (4, 2),
            (9, 4),
            (16, 8),
            (16, 1),
            (5, 5),
            (18, 6),
            (25, 3),
            (33, 2),
        ] {
            let s = Subsets::new(n, k);
            let mut prev = None;
            for r in 0..s.count {
                let set = s.unrank(r);
                assert_eq!(set.count_ones() as usize, k);
                assert!(set < 1 << n);
                assert_eq!(s.rank(set), r, "n {n} k {k}");
                assert_eq!(s.terms(set, 0, 1), r);
                // Colexicographic: as numbers, the sets increase with their rank.
                if let Some(p) = prev {
                    assert!(p < set);
                }
                prev = Some(set);
            }
        }
        assert_eq!(Subsets::new(25, 6).count, 177_100);
        assert_eq!(Subsets::new(16, 8).count, 12_870);
    }
}
