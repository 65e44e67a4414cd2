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
    /// `rank_of[set]` for boards of at most [`TABLE_MAX_CELLS`] cells (0 for other sizes).
    rank_of: Vec<u32>,
}

/// Largest board whose ranks are kept in a table indexed by the set itself (`2^n` entries).
const TABLE_MAX_CELLS: usize = 16;

impl Subsets {
    /// The `k`-subsets of `n` cells.
    pub fn new(n: usize, k: usize) -> Subsets {
        assert!(k <= n && n <= 64);
        let mut binom = vec![0u64; (n + 1) * (k + 1)];
        for c in 0..=n {
            binom[c * (k + 1)] = 1;
            for j in 1..=k.min(c) {
                let above = if j <= k && c > 0 {
                    binom[(c - 1) * (k + 1) + j]
                } else {
                    0
                };
                binom[c * (k + 1) + j] = binom[(c - 1) * (k + 1) + j - 1].saturating_add(above);
            }
        }
        let count = binom[n * (k + 1) + k];
        let mut s = Subsets {
            n,
            k,
            count,
            binom,
            rank_of: Vec::new(),
        };
        if n <= TABLE_MAX_CELLS {
            let mut rank_of = vec![0u32; 1 << n];
            for (set, r) in rank_of.iter_mut().enumerate() {
                if (set as u64).count_ones() as usize == k {
                    *r = s.compute_rank(set as u64) as u32;
                }
            }
            s.rank_of = rank_of;
        }
        s
    }

    /// `C(c, j)`.
    #[inline]
    fn binom(&self, c: usize, j: usize) -> u64 {
        self.binom[c * (self.k + 1) + j]
    }

    /// The rank of `set` (which has `k` cells).
    #[inline]
    pub fn rank(&self, set: u64) -> u64 {
        if self.rank_of.is_empty() {
            self.compute_rank(set)
        } else {
            u64::from(self.rank_of[set as usize])
        }
    }

    fn compute_rank(&self, set: u64) -> u64 {
        let mut r = 0;
        let mut m = set;
        let mut j = 1;
        while m != 0 {
            r += self.binom(m.trailing_zeros() as usize, j);
            m &= m - 1;
            j += 1;
        }
        r
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
        for (n, k) in [(4, 2), (9, 4), (16, 8), (16, 1), (5, 5), (18, 6)] {
            let s = Subsets::new(n, k);
            let mut prev = None;
            for r in 0..s.count {
                let set = s.unrank(r);
                assert_eq!(set.count_ones() as usize, k);
                assert!(set < 1 << n);
                assert_eq!(s.rank(set), r, "n {n} k {k}");
                assert_eq!(s.compute_rank(set), r);
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
