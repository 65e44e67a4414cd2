//! Property tests of the board invariants (proptest): for random sizes, goals and move
//! sequences, parsing round-trips, moves and their inverses cancel, solvability is invariant
//! under moves and flipped by a tile swap, and every heuristic is 0 on the goal and never above
//! the length of a walk that reaches it.

use proptest::prelude::*;
use taquin::generate::{uniform, Rng};
use taquin::{is_solvable, Board, HeuristicKind, Move};

/// A random board size, goal and walk of blank moves.
fn case() -> impl Strategy<Value = (usize, usize, u64, Vec<u8>)> {
    (
        2usize..=6,
        2usize..=6,
        any::<u64>(),
        prop::collection::vec(0u8..4, 0..60),
    )
}

fn walk(board: &mut Board, moves: &[u8]) -> Vec<Move> {
    let mut done = Vec::new();
    for &m in moves {
        let m = Move::ALL[m as usize];
        if board.apply(m) {
            done.push(m);
        }
    }
    done
}

proptest! {
    #[test]
    fn text_round_trips((w, h, seed, _) in case()) {
        let board = uniform(&Board::solved(w, h).unwrap(), &mut Rng::new(seed));
        prop_assert_eq!(Board::parse(&board.to_line()).unwrap(), board.clone());
        prop_assert_eq!(Board::parse(&board.to_string()).unwrap(), board);
    }

    #[test]
    fn inverse_moves_undo_a_walk((w, h, seed, moves) in case()) {
        let start = uniform(&Board::solved(w, h).unwrap(), &mut Rng::new(seed));
        let mut board = start.clone();
        let done = walk(&mut board, &moves);
        for m in done.iter().rev() {
            prop_assert!(board.apply(m.inverse()));
        }
        prop_assert_eq!(board, start);
    }

    #[test]
    fn solvability_follows_moves_not_swaps((w, h, seed, moves) in case()) {
        let goal = uniform(&Board::solved(w, h).unwrap(), &mut Rng::new(seed));
        let mut board = goal.clone();
        walk(&mut board, &moves);
        prop_assert!(is_solvable(&board, &goal));
        let mut tiles = board.tiles().to_vec();
        let nonblank: Vec<usize> = (0..tiles.len()).filter(|&i| tiles[i] != 0).collect();
        tiles.swap(nonblank[0], nonblank[nonblank.len() - 1]);
        let swapped = Board::from_tiles(w, h, tiles).unwrap();
        prop_assert!(!is_solvable(&swapped, &goal));
    }

    #[test]
    fn heuristics_are_zero_on_the_goal_and_bounded_by_any_walk((w, h, seed, moves) in case()) {
        let goal = uniform(&Board::solved(w, h).unwrap(), &mut Rng::new(seed));
        let mut board = goal.clone();
        let done = walk(&mut board, &moves);
        for kind in HeuristicKind::ALL {
            // Walking-distance tables take seconds to build past 16 cells, and every case has a
            // new goal: they are checked on the smaller boards.
            if kind == HeuristicKind::WalkingDistance && w * h > 16 {
                continue;
            }
            let heuristic = kind
                .build(
                    &goal,
                    &taquin::Tables::in_memory(),
                    taquin::pdb::BuildPolicy::Never,
                    &taquin::Limits::none(),
                )
                .unwrap();
            prop_assert_eq!(heuristic.estimate(goal.tiles()), 0);
            prop_assert!(heuristic.estimate(board.tiles()) as usize <= done.len());
        }
    }
}
