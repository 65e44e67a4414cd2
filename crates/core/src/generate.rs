//! Random solvable instances, reproducible from a seed.
//!
//! The generator is a small SplitMix64 written here so that a seed gives the same boards on every
//! platform and every version of taquin, whatever the `rand` crate does.

use crate::board::{Board, Tile, BLANK};
use crate::limits::{LimitHit, Limits};
use crate::moves::Move;
use crate::solvability::is_solvable;

/// SplitMix64 (Steele, Lea & Flood 2014): tiny, fast, and good enough for shuffling.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (n > 0), without modulo bias (Lemire's multiply-shift method).
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}

/// A board drawn uniformly among those from which `goal` is reachable.
///
/// A uniform permutation is drawn; if it is in the unsolvable half, two tiles are swapped, which
/// maps the unsolvable half one-to-one onto the solvable one, so the result stays uniform.
pub fn uniform(goal: &Board, rng: &mut Rng) -> Board {
    let mut tiles: Vec<Tile> = goal.tiles().to_vec();
    for i in (1..tiles.len()).rev() {
        let j = rng.below(i + 1);
        tiles.swap(i, j);
    }
    let board = Board::from_tiles(goal.width(), goal.height(), tiles.clone())
        .expect("a permutation of a valid board");
    if is_solvable(&board, goal) {
        return board;
    }
    let mut non_blank = (0..tiles.len()).filter(|&i| tiles[i] != BLANK);
    let (a, b) = (non_blank.next().unwrap_or(0), non_blank.next().unwrap_or(1));
    tiles.swap(a, b);
    Board::from_tiles(goal.width(), goal.height(), tiles).expect("a permutation of a valid board")
}

/// A board reached from `goal` by `moves` random moves of the blank, never undoing the previous
/// one (so short walks are not wasted going back and forth). Its optimal distance is at most `moves`.
pub fn random_walk(goal: &Board, moves: usize, rng: &mut Rng) -> Board {
    random_walk_within(goal, moves, rng, &Limits::none()).expect("no limit to stop it")
}

/// Moves of a walk between two looks at its limits.
const WALK_CHECK: usize = 1 << 16;

/// [`random_walk`] that looks at `limits` (their deadline and cancel flag) every 65,536 moves:
/// a walk of billions of moves takes minutes. `Err` with the limit that stopped it; the same
/// board as [`random_walk`]'s when none does.
pub fn random_walk_within(
    goal: &Board,
    moves: usize,
    rng: &mut Rng,
    limits: &Limits,
) -> Result<Board, LimitHit> {
    let mut board = goal.clone();
    let mut last: Option<Move> = None;
    for step in 0..moves {
        if step % WALK_CHECK == 0 {
            limits.check(0)?;
        }
        let choices: Vec<Move> = board
            .legal_moves()
            .filter(|&m| Some(m.inverse()) != last)
            .collect();
        let m = choices[rng.below(choices.len())];
        board.apply(m);
        last = Some(m);
    }
    Ok(board)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_and_solvable() {
        let goal = Board::solved(4, 4).unwrap();
        let a = uniform(&goal, &mut Rng::new(7));
        let b = uniform(&goal, &mut Rng::new(7));
        assert_eq!(a, b);
        let mut rng = Rng::new(1);
        for _ in 0..200 {
            assert!(is_solvable(&uniform(&goal, &mut rng), &goal));
            assert!(is_solvable(&random_walk(&goal, 30, &mut rng), &goal));
        }
    }

    #[test]
    fn a_walk_stops_at_its_limits_and_is_the_same_walk_without_them() {
        let goal = Board::solved(4, 4).unwrap();
        let cancelled = Limits::none().with_cancel(std::sync::Arc::new(
            std::sync::atomic::AtomicBool::new(true),
        ));
        assert_eq!(
            random_walk_within(&goal, usize::MAX, &mut Rng::new(1), &cancelled),
            Err(LimitHit::Cancelled)
        );
        let (mut a, mut b) = (Rng::new(5), Rng::new(5));
        assert_eq!(
            random_walk_within(&goal, 100_000, &mut a, &Limits::none()),
            Ok(random_walk(&goal, 100_000, &mut b))
        );
    }

    #[test]
    fn below_stays_in_range() {
        let mut rng = Rng::new(3);
        for n in 1..50 {
            assert!(rng.below(n) < n);
        }
    }
}
