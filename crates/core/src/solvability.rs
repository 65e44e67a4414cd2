//! Whether a goal can be reached from a board, for any goal and any m x n board.
//!
//! Every move swaps the blank with a neighbour: it is one transposition of the cells, and it
//! changes the parity of the blank's row + column by one. So the parity of the permutation that
//! takes the board to the goal (counted over all cells, blank included) always equals the parity
//! of the blank's taxicab distance between its two positions. On boards of at least 2x2 that
//! condition is also sufficient (Johnson & Story 1879; Wilson 1974 for the general graph case).
//!
//! Explained to users in the classic terms: count the inversions of the tiles (blank left out)
//! against the goal order. On an odd width, a move never changes that parity, so it must be even.
//! On an even width, a vertical move changes it, so inversions + the blank's row distance must be even.

use crate::board::{Board, ParseError, BLANK};

/// Why a board and a goal cannot be searched between.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Unsolvable {
    /// The board and goal have different shapes.
    #[error(transparent)]
    Size(#[from] ParseError),
    /// The parity argument rules the goal out.
    #[error("{0}")]
    Parity(ParityReport),
}

/// The figures behind a solvability verdict, for explaining it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParityReport {
    /// Inversions of the board's tiles (blank excluded) against the goal's order.
    pub inversions: usize,
    /// Rows between the blank on the board and in the goal.
    pub blank_row_distance: usize,
    /// Board width: its parity decides whether the row distance counts.
    pub width: usize,
}

impl std::fmt::Display for ParityReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.width % 2 == 1 {
            write!(
                f,
                "unsolvable: the tiles are {} inversion{} away from the goal's order, an odd number, \
                 and on a board of odd width every move keeps that parity; swap any two tiles \
                 (not the blank) in the board or the goal to make it solvable",
                self.inversions,
                if self.inversions == 1 { "" } else { "s" }
            )
        } else {
            write!(
                f,
                "unsolvable: on a board of even width, the tiles' inversions against the goal ({}) \
                 plus the blank's row distance to its goal row ({}) must be even, and they sum to {}; \
                 swap any two tiles (not the blank) in the board or the goal to make it solvable",
                self.inversions,
                self.blank_row_distance,
                self.inversions + self.blank_row_distance
            )
        }
    }
}

/// Parity figures of a board against a goal of the same size.
pub fn parity_report(board: &Board, goal: &Board) -> ParityReport {
    let goal_pos = goal.positions();
    // The tiles (blank excluded) listed by where the goal wants them; its inversions are the
    // inversions of the board against the goal order. Counted with a Fenwick tree: O(N log N),
    // so that a 1000x1000 board is checked at once.
    let order: Vec<usize> = board
        .tiles()
        .iter()
        .filter(|&&t| t != BLANK)
        .map(|&t| goal_pos[t as usize])
        .collect();
    let n = board.len();
    let mut fenwick = vec![0usize; n + 1];
    let mut inversions = 0usize;
    for (seen, &p) in order.iter().enumerate() {
        // count already-seen values <= p
        let mut i = p + 1;
        let mut le = 0;
        while i > 0 {
            le += fenwick[i];
            i &= i - 1;
        }
        inversions += seen - le;
        let mut i = p + 1;
        while i <= n {
            fenwick[i] += 1;
            i += i & i.wrapping_neg();
        }
    }
    let w = board.width();
    ParityReport {
        inversions,
        blank_row_distance: (board.blank() / w).abs_diff(goal.blank() / w),
        width: w,
    }
}

/// Decides whether `goal` can be reached from `board`; the error explains why not.
///
/// ```
/// use taquin::{Board, check_solvable};
/// let goal = Board::parse("1 2 3/4 5 6/7 8 0").unwrap();
/// assert!(check_solvable(&Board::parse("6 4 7/8 5 0/3 2 1").unwrap(), &goal).is_ok());
/// assert!(check_solvable(&Board::parse("2 1 3/4 5 6/7 8 0").unwrap(), &goal).is_err());
/// ```
pub fn check_solvable(board: &Board, goal: &Board) -> Result<(), Unsolvable> {
    board.check_same_size(goal)?;
    let report = parity_report(board, goal);
    let parity = if report.width % 2 == 1 {
        report.inversions
    } else {
        report.inversions + report.blank_row_distance
    };
    if parity % 2 == 0 {
        Ok(())
    } else {
        Err(Unsolvable::Parity(report))
    }
}

/// True when `goal` can be reached from `board` (same size and the parity agrees).
pub fn is_solvable(board: &Board, goal: &Board) -> bool {
    check_solvable(board, goal).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::Move;

    /// Random walks never leave the solvable class; one tile swap always does.
    #[test]
    fn walks_stay_solvable_and_a_swap_breaks_it() {
        let mut seed = 12345u64;
        for (w, h) in [
            (2, 2),
            (3, 3),
            (4, 4),
            (4, 2),
            (2, 4),
            (5, 3),
            (3, 5),
            (6, 6),
        ] {
            let goal = Board::solved(w, h).unwrap();
            let mut b = goal.clone();
            for _ in 0..500 {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                b.apply(Move::ALL[(seed >> 33) as usize % 4]);
            }
            assert!(is_solvable(&b, &goal), "{w}x{h} walk");
            assert!(is_solvable(&goal, &b), "{w}x{h} reversed");
            let mut tiles = b.tiles().to_vec();
            let (i, j) = {
                let nz: Vec<usize> = (0..tiles.len())
                    .filter(|&i| tiles[i] != 0)
                    .take(2)
                    .collect();
                (nz[0], nz[1])
            };
            tiles.swap(i, j);
            let swapped = Board::from_tiles(w, h, tiles).unwrap();
            assert!(!is_solvable(&swapped, &goal), "{w}x{h} swapped");
        }
    }

    #[test]
    fn explains_even_and_odd_widths() {
        let goal = Board::parse("1 2 3/4 5 6/7 8 0").unwrap();
        let err = check_solvable(&Board::parse("2 1 3/4 5 6/7 8 0").unwrap(), &goal).unwrap_err();
        assert!(err.to_string().contains("odd width"), "{err}");
        let goal = Board::solved(4, 4).unwrap();
        let b = Board::parse("1 2 3 4/5 6 7 8/9 10 11 12/13 15 14 0").unwrap();
        let err = check_solvable(&b, &goal).unwrap_err();
        assert!(err.to_string().contains("even width"), "{err}");
        let small = Board::solved(2, 2).unwrap();
        assert!(matches!(
            check_solvable(&small, &goal),
            Err(Unsolvable::Size(_))
        ));
    }

    #[test]
    fn korf_goal_blank_first_is_handled() {
        // Korf's instance 1 against his goal (blank first) is solvable; with the tiles 1,2 swapped it is not.
        let goal = Board::parse("0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15").unwrap();
        let b = Board::parse("14 13 15 7/11 12 9 5/6 0 2 1/4 8 10 3").unwrap();
        assert!(is_solvable(&b, &goal));
        let b = Board::parse("14 13 15 7/11 12 9 5/6 0 1 2/4 8 10 3").unwrap();
        assert!(!is_solvable(&b, &goal));
    }
}
