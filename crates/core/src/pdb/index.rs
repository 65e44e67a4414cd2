//! The index of a placement: a dense rank of the k pattern tiles' cells among `N! / (N-k)!`
//! arrangements, so that the table wastes no entry (Korf & Felner 2002 use the same count).
//!
//! Tile `i` (in pattern order) contributes the digit "rank of its cell among the cells not taken
//! by tiles `0..i`", in base `N - i`. Ranking costs one popcount per tile.

/// `N! / (N-k)!`: placements of `k` distinct tiles on `n` cells (0 when `k > n`). A count too
/// large for a `u64` is `u64::MAX`: no such table can be built, and every caller compares the
/// count with a budget or a file's size, which a wrapped product would mislead.
pub fn placements(n: usize, k: usize) -> u64 {
    if k > n {
        return 0;
    }
    (0..k)
        .try_fold(1u64, |product, i| product.checked_mul((n - i) as u64))
        .unwrap_or(u64::MAX)
}

/// The index of the placement whose tile `i` stands on `cells[i]`, on a board of `n` cells
/// (at most [`super::MAX_CELLS`] = 64).
///
/// The cells taken by earlier tiles are kept as bits of one word, so the count of those below
/// a cell is a popcount and nothing has to be cleared per call: the dual lookups rank several
/// placements per node, and clearing an array of `MAX_CELLS` words each time cost more than
/// the ranking itself.
#[inline]
pub fn rank(cells: impl IntoIterator<Item = usize>, n: usize) -> u64 {
    let mut seen = 0u64;
    let mut index = 0u64;
    for (i, c) in cells.into_iter().enumerate() {
        let below = (seen & ((1u64 << c) - 1)).count_ones() as usize;
        index = index * (n - i) as u64 + (c - below) as u64;
        seen |= 1u64 << c;
    }
    index
}

/// `weights[i]`: the place value of tile `i`'s digit, `(n-i-1)! / (n-k)!`.
pub fn weights(n: usize, k: usize) -> Vec<u64> {
    (0..k).map(|i| placements(n - i - 1, k - i - 1)).collect()
}

/// The index after the tile of `slot` (its digit's place value `own`, [`weights`]) moves from
/// cell `from` to the adjacent free cell `to`, without re-ranking. This is the one copy of the
/// rule: the build, the heuristic's incremental lookups and the tests all step through it.
///
/// A horizontal move passes no cell, so only the moved tile's digit changes, by one. A vertical
/// move passes the cells between `from` and `to`: the moved tile's digit changes by the cells
/// passed that are free among earlier tiles, and each later tile standing on a passed cell has
/// one earlier tile fewer (or more) below it. `on(y)` says what stands on a passed cell `y`:
/// `(slot, place value)` of a pattern tile, or for any other cell a slot above `slot` with place
/// value 0, which keeps the loop free of branches.
#[inline(always)]
pub fn step(
    index: u64,
    slot: usize,
    own: u64,
    from: usize,
    to: usize,
    on: impl Fn(usize) -> (usize, u64),
) -> u64 {
    let (lo, hi) = if to > from { (from, to) } else { (to, from) };
    // Wrapping: an earlier tile passed subtracts, but the total never goes below zero.
    let mut delta = own * (hi - lo) as u64;
    for y in lo + 1..hi {
        let (j, place) = on(y);
        delta = delta.wrapping_add(if j < slot { own.wrapping_neg() } else { place });
    }
    if to > from {
        index + delta
    } else {
        index - delta
    }
}

/// Division by a fixed small divisor as a multiplication: `x / d` for every `x < 2^64 / d`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Divider {
    /// The divisor.
    pub d: u64,
    magic: u64,
}

impl Divider {
    pub(super) fn new(d: u64) -> Divider {
        assert!(d > 0);
        Divider {
            d,
            // ceil(2^64 / d); unused for d = 1, where it would not fit.
            magic: if d == 1 { 0 } else { u64::MAX / d + 1 },
        }
    }

    /// `x / d`: with `m = 2^64 / d + e` (0 <= e < 1), `x * m / 2^64` exceeds `x / d` by less
    /// than `x / 2^64 < 1 / d`, which never crosses the next whole number.
    #[inline]
    pub(super) fn quotient(self, x: u64) -> u64 {
        if self.d == 1 {
            x
        } else {
            ((u128::from(x) * u128::from(self.magic)) >> 64) as u64
        }
    }
}

/// The cells of the placement with `index`, written to `out` (its length is k).
pub fn unrank(mut index: u64, n: usize, out: &mut [usize]) {
    let k = out.len();
    let mut digits = [0u64; super::MAX_CELLS];
    for i in (0..k).rev() {
        let base = (n - i) as u64;
        digits[i] = index % base;
        index /= base;
    }
    let mut taken = 0u64;
    for i in 0..k {
        let c = nth_free(taken, digits[i] as u32);
        out[i] = c;
        taken |= 1 << c;
    }
}

/// The `r`-th (from 0) cell not in `taken`.
#[inline]
pub fn nth_free(taken: u64, r: u32) -> usize {
    let mut free = !taken;
    for _ in 0..r {
        free &= free - 1;
    }
    free.trailing_zeros() as usize
}

/// The longest gap [`Odometer::seek`] crosses by steps rather than an unranking.
const SEEK_STEPS: u64 = 8;

/// Walks placements in index order without dividing: the next index moves the last tile to the
/// next free cell, carrying into earlier tiles as an odometer does. Longer jumps unrank, with
/// the divisions done as multiplications.
#[derive(Debug, Clone)]
pub struct Odometer {
    n: usize,
    k: usize,
    /// `cells[i]`: cell of tile `i`.
    pub cells: [usize; super::MAX_CELLS],
    /// `prefix[i]`: cells taken by tiles `0..i`.
    prefix: [u64; super::MAX_CELLS + 1],
    /// `bases[i]`: division by `n - i`, the base of tile `i`'s digit.
    bases: [Divider; super::MAX_CELLS],
    /// The index of the current placement.
    pub index: u64,
}

impl Odometer {
    /// Positioned on `index`.
    pub fn at(index: u64, n: usize, k: usize) -> Odometer {
        let mut o = Odometer {
            n,
            k,
            cells: [0; super::MAX_CELLS],
            prefix: [0; super::MAX_CELLS + 1],
            bases: [Divider::new(1); super::MAX_CELLS],
            index,
        };
        for (i, base) in o.bases[..k].iter_mut().enumerate() {
            *base = Divider::new((n - i) as u64);
        }
        o.jump(index);
        o
    }

    /// Positions on `index` by unranking it.
    #[inline]
    fn jump(&mut self, mut index: u64) {
        self.index = index;
        let mut digits = [0u32; super::MAX_CELLS];
        for i in (0..self.k).rev() {
            let base = self.bases[i];
            let quotient = base.quotient(index);
            digits[i] = (index - quotient * base.d) as u32;
            index = quotient;
        }
        for (i, &digit) in digits[..self.k].iter().enumerate() {
            let c = nth_free(self.prefix[i], digit);
            self.cells[i] = c;
            self.prefix[i + 1] = self.prefix[i] | 1 << c;
        }
    }

    /// Cells taken by all pattern tiles.
    #[inline]
    pub fn taken(&self) -> u64 {
        self.prefix[self.k]
    }

    /// Moves to the next index (must not be past the last).
    #[inline]
    pub fn advance(&mut self) {
        self.index += 1;
        let full = if self.n == 64 {
            u64::MAX
        } else {
            (1u64 << self.n) - 1
        };
        let mut i = self.k;
        // Find the last tile that can move to a later free cell.
        loop {
            i -= 1;
            let above = u64::MAX.checked_shl(self.cells[i] as u32 + 1).unwrap_or(0);
            let free = full & !self.prefix[i] & above;
            if free != 0 {
                self.cells[i] = free.trailing_zeros() as usize;
                self.prefix[i + 1] = self.prefix[i] | 1 << self.cells[i];
                break;
            }
        }
        // Later tiles restart on the lowest free cells.
        for j in i + 1..self.k {
            let c = (!self.prefix[j]).trailing_zeros() as usize;
            self.cells[j] = c;
            self.prefix[j + 1] = self.prefix[j] | 1 << c;
        }
    }

    /// Moves to `index`: steps for short gaps forward, an unranking for others.
    #[inline]
    pub fn seek(&mut self, index: u64) {
        if index > self.index && index - self.index <= SEEK_STEPS {
            while self.index < index {
                self.advance();
            }
        } else if index != self.index {
            self.jump(index);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_too_large_for_64_bits_saturates_instead_of_wrapping() {
        assert_eq!(placements(16, 8), 518_918_400);
        assert_eq!(placements(64, 0), 1);
        assert_eq!(placements(3, 4), 0);
        // 64!/32! is about 4.8e49; it once wrapped to 2,515,100,142,361,640,960, the count the
        // CLI then printed, and a debug build (the fuzz targets') panicked on a table file's
        // header asking for it.
        assert_eq!(placements(64, 32), u64::MAX);
        assert_eq!(placements(64, 11), u64::MAX);
        assert_eq!(placements(64, 10), (55..=64).product::<u64>());
    }

    #[test]
    fn rank_is_a_bijection_and_odometer_agrees() {
        for (n, k) in [(4, 2), (6, 3), (9, 8), (9, 4), (16, 3)] {
            let total = placements(n, k);
            let mut odo = Odometer::at(0, n, k);
            let mut out = vec![0; k];
            for idx in 0..total {
                unrank(idx, n, &mut out);
                assert_eq!(rank(out.iter().copied(), n), idx);
                assert_eq!(&odo.cells[..k], &out[..], "n={n} k={k} idx={idx}");
                let mut sorted = out.clone();
                sorted.sort_unstable();
                sorted.dedup();
                assert_eq!(sorted.len(), k);
                if idx + 1 < total {
                    odo.advance();
                }
            }
        }
    }

    #[test]
    fn step_matches_rank() {
        for (w, h, k) in [(3, 3, 4), (4, 4, 3), (4, 3, 5), (3, 3, 8)] {
            let n = w * h;
            let ws = weights(n, k);
            let mut cells = vec![0; k];
            for idx in 0..placements(n, k) {
                unrank(idx, n, &mut cells);
                assert_eq!(rank(cells.iter().copied(), n), idx);
                let taken: u64 = cells.iter().fold(0, |m, &c| m | 1 << c);
                for i in 0..k {
                    let c = cells[i];
                    let mut targets = vec![];
                    if c % w > 0 {
                        targets.push(c - 1)
                    }
                    if c % w < w - 1 {
                        targets.push(c + 1)
                    }
                    if c >= w {
                        targets.push(c - w)
                    }
                    if c + w < n {
                        targets.push(c + w)
                    }
                    for to in targets.into_iter().filter(|&t| taken & (1 << t) == 0) {
                        let mut moved = cells.clone();
                        moved[i] = to;
                        let on = |y: usize| match cells.iter().position(|&x| x == y) {
                            Some(j) => (j, ws[j]),
                            None => (usize::MAX, 0),
                        };
                        assert_eq!(
                            step(idx, i, ws[i], c, to, on),
                            rank(moved.iter().copied(), n)
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn divider_matches_division() {
        for d in 1..=64u64 {
            let div = Divider::new(d);
            for x in (0..5000).chain((1u64 << 36) - 5000..(1u64 << 36) + 5000) {
                assert_eq!(div.quotient(x), x / d, "{x} / {d}");
            }
        }
    }

    #[test]
    fn seek_matches_unrank() {
        let mut odo = Odometer::at(5, 16, 4);
        for idx in [6, 9, 30, 31, 1000, 1001, 43679, 7, 8, 43678] {
            odo.seek(idx);
            let mut out = [0; 4];
            unrank(idx, 16, &mut out);
            assert_eq!(&odo.cells[..4], &out);
        }
    }
}
