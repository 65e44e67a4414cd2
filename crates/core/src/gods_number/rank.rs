//! A perfect hash of the reachable states of an m x n board: a bijection between the `N!/2`
//! boards reachable from a goal and `0..N!/2`, so that a breadth-first search over all of them
//! needs only a few bits per state.
//!
//! A state is the blank's cell and the sequence of the tiles read row by row without the blank.
//! For each blank cell only half of the sequences are reachable: a horizontal move keeps the
//! sequence, and a vertical move carries one tile past `width - 1` others, so the sequence's
//! permutation parity plus `(width - 1)` times the blank's row is the same on every reachable
//! board (the solvability argument of [`crate::solvability`]). The index is
//! `blank * (m!/2) + r`, where `r` is the Lehmer code of the sequence (Knuth, TAOCP 3, 5.1.1)
//! with its last two digits dropped: the last is always 0, and the parity fixes the one before.

use crate::board::{Board, Tile, BLANK};

/// Ranks and unranks the boards of one size that are reachable from one goal.
#[derive(Debug, Clone)]
pub struct Ranker {
    width: usize,
    cells: usize,
    /// Place value of Lehmer digit `i` (for `i < tiles - 2`): `(tiles - 1 - i)! / 2`.
    place: Vec<u64>,
    /// `tiles! / 2`: sequences per blank cell.
    per_blank: u64,
    /// Parity of the tile sequence when the blank is in row 0 (from the goal).
    parity_row0: u32,
}

impl Ranker {
    /// The ranker of the states reachable from `goal`. `None` when the count `N!/2` does not
    /// fit in 64 bits (more than 20 cells: far beyond any memory anyway).
    pub fn new(goal: &Board) -> Option<Ranker> {
        let cells = goal.len();
        if cells > 20 {
            return None;
        }
        let tiles = cells - 1;
        let mut place = vec![0u64; tiles.saturating_sub(2)];
        for (i, p) in place.iter_mut().enumerate() {
            *p = (3..=(tiles - 1 - i) as u64).product::<u64>();
        }
        let per_blank = (3..=tiles as u64).product::<u64>();
        let width = goal.width();
        let mut ranker = Ranker {
            width,
            cells,
            place,
            per_blank,
            parity_row0: 0,
        };
        let (_, parity) = ranker.lehmer(goal.tiles());
        let row_term = ((width - 1) * (goal.blank() / width)) as u32 & 1;
        ranker.parity_row0 = parity ^ row_term;
        Some(ranker)
    }

    /// Number of reachable states, `N!/2`.
    pub fn states(&self) -> u64 {
        self.per_blank * self.cells as u64
    }

    /// The rank of the dropped-digit Lehmer code of the tiles of `cells` (blank skipped), and
    /// the permutation's parity.
    fn lehmer(&self, cells: &[Tile]) -> (u64, u32) {
        let mut remaining: u32 = (1u32 << self.cells) - 2; // tiles 1..N-1 as bits
        let mut rank = 0u64;
        let mut parity = 0u32;
        let mut i = 0;
        for &t in cells {
            if t == BLANK {
                continue;
            }
            let smaller = (remaining & ((1u32 << t) - 1)).count_ones();
            remaining &= !(1u32 << t);
            parity ^= smaller & 1;
            if let Some(&p) = self.place.get(i) {
                rank += u64::from(smaller) * p;
            }
            i += 1;
        }
        (rank, parity)
    }

    /// The index of a reachable board given by its cells (row-major, `0` for the blank) and the
    /// blank's cell.
    pub fn rank(&self, cells: &[Tile], blank: usize) -> u64 {
        blank as u64 * self.per_blank + self.lehmer(cells).0
    }

    /// The cells of the board with index `index` (inverse of [`Ranker::rank`]); returns the
    /// blank's cell.
    pub fn unrank(&self, index: u64, cells: &mut [Tile]) -> usize {
        let blank = (index / self.per_blank) as usize;
        let mut r = index % self.per_blank;
        let parity = self.parity_row0 ^ (((self.width - 1) * (blank / self.width)) as u32 & 1);
        let mut remaining: u32 = (1u32 << self.cells) - 2;
        let mut digit_parity = 0u32;
        let mut cell = 0;
        let mut put = |t: Tile, cell: &mut usize| {
            if *cell == blank {
                cells[*cell] = BLANK;
                *cell += 1;
            }
            cells[*cell] = t;
            *cell += 1;
        };
        for &p in &self.place {
            let d = (r / p) as u32;
            r %= p;
            digit_parity ^= d & 1;
            let t = nth_set_bit(remaining, d);
            remaining &= !(1u32 << t);
            put(t, &mut cell);
        }
        // The two tiles left: in order when the parity needs no more inversions.
        let low = remaining.trailing_zeros();
        let high = 31 - remaining.leading_zeros();
        let (a, b) = if digit_parity == parity {
            (low, high)
        } else {
            (high, low)
        };
        put(a, &mut cell);
        put(b, &mut cell);
        if cell == blank {
            cells[cell] = BLANK;
        }
        blank
    }
}

/// The position of the `n`-th (0-based) set bit of `bits`.
fn nth_set_bit(mut bits: u32, n: u32) -> u32 {
    for _ in 0..n {
        bits &= bits - 1;
    }
    bits.trailing_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::goals::NamedGoal;
    use crate::moves::Move;
    use std::collections::HashSet;

    /// Every state reachable from the goal gets a distinct index below N!/2, and unranks back.
    #[test]
    fn rank_is_a_bijection_on_reachable_states() {
        for (w, h) in [(2, 2), (3, 2), (2, 3), (4, 2)] {
            for named in NamedGoal::ALL {
                let goal = named.board(w, h).unwrap();
                let ranker = Ranker::new(&goal).unwrap();
                let mut seen = HashSet::new();
                let mut queue = vec![goal.clone()];
                seen.insert(goal.clone());
                let mut cells = vec![0; w * h];
                while let Some(b) = queue.pop() {
                    let idx = ranker.rank(b.tiles(), b.blank());
                    assert!(idx < ranker.states());
                    let blank = ranker.unrank(idx, &mut cells);
                    assert_eq!((cells.as_slice(), blank), (b.tiles(), b.blank()));
                    for m in Move::ALL {
                        if let Some(n) = b.moved(m) {
                            if seen.insert(n.clone()) {
                                queue.push(n);
                            }
                        }
                    }
                }
                assert_eq!(seen.len() as u64, ranker.states(), "{w}x{h} {named}");
            }
        }
    }
}
