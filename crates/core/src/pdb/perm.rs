//! Orders of the pattern tiles on a set of cells, ranked in lexicographic order, and the one
//! change a move makes to an order.
//!
//! The build (module [`build`](super::build)) names a placement by the set of cells its tiles
//! stand on and by the order in which its tiles stand on those cells, read from the lowest cell
//! up: a permutation of `0..k`. When a tile slides, the set changes by two cells and the order
//! changes by one tile taking another place in it: the tile at position `a` leaves, and comes
//! back at position `b`, which differs from `a` by the pattern tiles the slide passes over (none
//! for a horizontal slide). [`Perms::shift`] is that change on ranks.

/// Largest tile count whose shift tables are kept: `8!` orders of 2 bytes per table.
pub(super) const TABLE_MAX_TILES: usize = 8;

/// The permutations of `k` tiles.
pub(super) struct Perms {
    /// Tiles.
    pub k: usize,
    /// `k!`.
    pub count: u64,
    /// `fact[i] = i!`.
    fact: [u64; 21],
    /// `seq[r * k..][..k]`: the order of rank `r`, for `k` up to [`TABLE_MAX_TILES`].
    seq: Vec<u8>,
    /// `shifts[a * k + b][r]`: [`Perms::shift`] of `r` with `a` and `b`, for the pairs asked for
    /// by [`Perms::with_shifts`], when the order table is kept.
    shifts: Vec<Vec<u16>>,
}

impl Perms {
    /// The permutations of `k` tiles (`k` at most 20).
    pub fn new(k: usize) -> Perms {
        assert!(k <= 20, "{k} tiles have too many orders to rank in 64 bits");
        let mut fact = [1u64; 21];
        for i in 1..=20 {
            fact[i] = fact[i - 1] * i as u64;
        }
        let count = fact[k];
        let mut seq = Vec::new();
        if k <= TABLE_MAX_TILES {
            seq = vec![0u8; count as usize * k];
            for (r, order) in seq.chunks_exact_mut(k.max(1)).enumerate() {
                unrank_into(&fact, k, r as u64, order);
            }
        }
        Perms {
            k,
            count,
            fact,
            seq,
            shifts: Vec::new(),
        }
    }

    /// Keeps a table of [`Perms::shift`] for each pair `(a, b)` with `a != b` and
    /// `|a - b| <= max_gap` (a vertical slide passes fewer tiles than the board is wide), when
    /// the tiles are few enough for the tables to stay in the caches.
    pub fn with_shifts(mut self, max_gap: usize) -> Perms {
        if self.seq.is_empty() || max_gap == 0 {
            return self;
        }
        let k = self.k;
        // The rank's digits of every order: for each position, the later elements that are
        // smaller.
        let mut digits = vec![0u8; self.count as usize * k];
        for (r, d) in digits.chunks_exact_mut(k).enumerate() {
            let seq = self.order(r as u64);
            let mut later = 0u64;
            for s in (0..k).rev() {
                d[s] = (later & ((1u64 << seq[s]) - 1)).count_ones() as u8;
                later |= 1 << seq[s];
            }
        }
        let mut shifts = vec![Vec::new(); k * k];
        // Neighbours first, ranked: moving the element at `a` to `a + 1` and the one at `a + 1`
        // to `a` are the same swap.
        for a in 0..k.saturating_sub(1) {
            let swap: Vec<u16> = (0..self.count)
                .map(|r| {
                    let d = &digits[r as usize * k..][..k];
                    swapped_rank(&self.fact, self.order(r), d, r, a) as u16
                })
                .collect();
            shifts[(a + 1) * k + a] = swap.clone();
            shifts[a * k + a + 1] = swap;
        }
        // A longer move is the move one place short of it, then one swap: a look-up in each of
        // two tables per order. (Ranking every order for every pair took 85 % of the
        // instructions of a one-board 15-puzzle bench with the 7-8 tables, callgrind.)
        for gap in 2..=max_gap.min(k.saturating_sub(1)) {
            for a in 0..k {
                let targets = [a.checked_add(gap).filter(|&b| b < k), a.checked_sub(gap)];
                for b in targets.into_iter().flatten() {
                    let via = if b > a { b - 1 } else { b + 1 };
                    let last = &shifts[via * k + b];
                    let table = shifts[a * k + via]
                        .iter()
                        .map(|&r| last[r as usize])
                        .collect();
                    shifts[a * k + b] = table;
                }
            }
        }
        self.shifts = shifts;
        self
    }

    /// The table of [`Perms::shift`] for `(a, b)`, if it is kept.
    #[inline]
    pub fn shift_table(&self, a: usize, b: usize) -> Option<&[u16]> {
        self.shifts
            .get(a * self.k + b)
            .filter(|t| !t.is_empty())
            .map(Vec::as_slice)
    }

    /// The order of rank `r`, from the table (only for at most [`TABLE_MAX_TILES`] tiles).
    #[inline]
    pub fn order(&self, r: u64) -> &[u8] {
        let k = self.k;
        &self.seq[r as usize * k..][..k]
    }

    /// True when [`Perms::order`] has a table.
    pub fn has_orders(&self) -> bool {
        !self.seq.is_empty() || self.k == 0
    }

    /// Writes the order of rank `r` to `out` (`k` long).
    pub fn unrank(&self, r: u64, out: &mut [u8]) {
        if self.has_orders() && self.k > 0 {
            out.copy_from_slice(self.order(r));
        } else {
            unrank_into(&self.fact, self.k, r, out);
        }
    }

    /// The rank of the order `seq` (a permutation of `0..k`).
    pub fn rank(&self, seq: &[u8]) -> u64 {
        rank_of(&self.fact, seq)
    }

    /// The rank of the order of rank `r` after the tile at position `a` leaves it and comes back
    /// at position `b`.
    #[inline(always)]
    pub fn shift(&self, r: u64, a: usize, b: usize) -> u64 {
        if a == b {
            return r;
        }
        if let Some(t) = self.shift_table(a, b) {
            return u64::from(t[r as usize]);
        }
        self.shift_by_ranking(r, a, b)
    }

    /// [`Perms::shift`] without a table (more than eight tiles, a gap beyond the tables, or
    /// no [`Perms::with_shifts`]):
    /// kept out of line, so that the look-up a search makes at every node stays small enough
    /// to be inlined into it.
    #[inline(never)]
    fn shift_by_ranking(&self, r: u64, a: usize, b: usize) -> u64 {
        let mut seq = [0u8; 64];
        let mut moved = [0u8; 64];
        let k = self.k;
        self.unrank(r, &mut seq[..k]);
        shift_order(&seq[..k], a, b, &mut moved[..k]);
        self.rank(&moved[..k])
    }

    /// `i!`.
    #[inline]
    pub fn fact(&self, i: usize) -> u64 {
        self.fact[i]
    }
}

/// The rank of `seq` (of rank `r`, with `digits` its rank's digits) after its elements at `a`
/// and `a + 1` swap places: only those two digits change. The element that comes first gains
/// the other as a later element if that one is smaller; the one that goes second loses it.
fn swapped_rank(fact: &[u64; 21], seq: &[u8], digits: &[u8], r: u64, a: usize) -> u64 {
    let k = seq.len();
    let (x, y) = (seq[a], seq[a + 1]);
    let (dx, dy) = (u64::from(digits[a]), u64::from(digits[a + 1]));
    let (fa, fb) = (fact[k - 1 - a], fact[k - 2 - a]);
    let new = (dy + u64::from(x < y)) * fa + (dx - u64::from(y < x)) * fb;
    r - dx * fa - dy * fb + new
}

/// `out` = `seq` with its element at `a` moved to `b`.
fn shift_order(seq: &[u8], a: usize, b: usize, out: &mut [u8]) {
    out.copy_from_slice(seq);
    let v = seq[a];
    if a < b {
        out.copy_within(a + 1..=b, a);
    } else {
        out.copy_within(b..a, b + 1);
    }
    out[b] = v;
}

/// Lexicographic rank: digit `s` is the number of later elements smaller than `seq[s]`, in base
/// `k - s`. Elements are below 64, so the later ones are a bit set and each digit a popcount.
fn rank_of(fact: &[u64; 21], seq: &[u8]) -> u64 {
    let k = seq.len();
    let mut later = 0u64;
    let mut r = 0u64;
    for s in (0..k).rev() {
        let v = seq[s];
        r += u64::from((later & ((1u64 << v) - 1)).count_ones()) * fact[k - 1 - s];
        later |= 1 << v;
    }
    r
}

/// The order of rank `r` among the permutations of `0..k`.
fn unrank_into(fact: &[u64; 21], k: usize, mut r: u64, out: &mut [u8]) {
    let mut left = if k == 64 { u64::MAX } else { (1u64 << k) - 1 };
    for s in 0..k {
        let f = fact[k - 1 - s];
        let digit = (r / f) as u32;
        r %= f;
        let v = super::index::nth_free(!left, digit);
        out[s] = v as u8;
        left &= !(1u64 << v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_are_a_bijection_in_lexicographic_order() {
        for k in 0..=6 {
            let p = Perms::new(k);
            let mut prev: Option<Vec<u8>> = None;
            let mut seq = vec![0u8; k];
            for r in 0..p.count {
                p.unrank(r, &mut seq);
                assert_eq!(p.rank(&seq), r);
                let mut sorted = seq.clone();
                sorted.sort_unstable();
                assert_eq!(sorted, (0..k as u8).collect::<Vec<_>>());
                if let Some(prev) = &prev {
                    assert!(prev < &seq, "{prev:?} {seq:?}");
                }
                prev = Some(seq.clone());
            }
        }
        // Without the order table (more than eight tiles) unranking computes.
        let p = Perms::new(10);
        assert!(!p.has_orders());
        let mut seq = [0u8; 10];
        for r in [0, 1, 3_628_799, 1_234_567] {
            p.unrank(r, &mut seq);
            assert_eq!(p.rank(&seq), r);
        }
    }

    #[test]
    fn shifts_move_one_element_with_or_without_tables() {
        for k in [2, 5, 8] {
            let plain = Perms::new(k);
            let tabled = Perms::new(k).with_shifts(k);
            // The 15-puzzle's: moves of at most three places, built from the swaps.
            let near = Perms::new(k).with_shifts(3);
            let mut seq = vec![0u8; k];
            let mut want = vec![0u8; k];
            for r in (0..plain.count).step_by(7) {
                plain.unrank(r, &mut seq);
                for a in 0..k {
                    for b in 0..k {
                        let mut v: Vec<u8> = seq.clone();
                        let x = v.remove(a);
                        v.insert(b, x);
                        want.copy_from_slice(&v);
                        let expect = plain.rank(&want);
                        assert_eq!(plain.shift(r, a, b), expect, "k {k} r {r} {a}->{b}");
                        assert_eq!(tabled.shift(r, a, b), expect);
                        assert_eq!(near.shift(r, a, b), expect);
                    }
                }
            }
        }
        // Only the pairs within the gap get a table.
        let p = Perms::new(6).with_shifts(2);
        assert!(p.shift_table(0, 2).is_some());
        assert!(p.shift_table(0, 3).is_none());
        assert!(p.shift_table(1, 1).is_none());
    }
}
