//! The multi-tile metric against ground truth: a plain breadth-first search in MTM over every
//! state of the 8-puzzle (and of the 4x2 and 2x4 boards), written here independently of the
//! library's searches.

use std::collections::{HashMap, VecDeque};

use taquin::gods_number::gods_number;
use taquin::metric::{metrics, Metric};
use taquin::mtm::MtmSolver;
use taquin::{verify_moves, Board, Limits, Move};

/// Every state reachable from `goal` with its MTM distance: a slide of 1 to side-1 tiles in a
/// line is one move.
fn mtm_distances(goal: &Board) -> HashMap<Board, u32> {
    let mut dist = HashMap::from([(goal.clone(), 0)]);
    let mut queue = VecDeque::from([goal.clone()]);
    while let Some(b) = queue.pop_front() {
        let d = dist[&b];
        for m in Move::ALL {
            let mut next = b.clone();
            while next.apply(m) {
                if !dist.contains_key(&next) {
                    dist.insert(next.clone(), d + 1);
                    queue.push_back(next.clone());
                }
            }
        }
    }
    dist
}

fn check_board(width: usize, height: usize, every: usize) {
    let goal = Board::solved(width, height).unwrap();
    let dist = mtm_distances(&goal);
    // The two-bit search agrees with the plain one, layer by layer.
    let mut layers = vec![0u64; *dist.values().max().unwrap() as usize + 1];
    for &d in dist.values() {
        layers[d as usize] += 1;
    }
    let bits = gods_number(&goal, Metric::Mtm, 2, &Limits::none(), None).unwrap();
    assert_eq!(bits.distribution, layers, "{width}x{height}");
    // The bound is admissible on every state, and IDA* in MTM optimal on a sample spread
    // over every distance.
    let solver = MtmSolver::new(&goal);
    for (board, &d) in &dist {
        assert!(solver.lower_bound(board) <= d, "{}", board.to_line());
    }
    let mut boards: Vec<(&Board, &u32)> = dist.iter().collect();
    boards.sort_by_key(|(b, _)| b.tiles().to_vec());
    for (board, &d) in boards.into_iter().step_by(every) {
        let s = solver.solve(board, &Limits::none(), None).unwrap();
        verify_moves(board, &goal, &s.moves).unwrap();
        let (stm, mtm) = metrics(&s.moves);
        assert_eq!(mtm as u32, d, "{}", board.to_line());
        assert!(stm >= mtm);
    }
    for board in &bits.antipodes {
        let s = solver.solve(board, &Limits::none(), None).unwrap();
        assert_eq!(Metric::Mtm.length(&s.moves), bits.diameter());
    }
}

#[test]
fn eight_puzzle_mtm_is_optimal_against_bfs() {
    check_board(3, 3, 5);
}

#[test]
fn two_by_four_mtm_is_optimal_against_bfs() {
    check_board(4, 2, 5);
    check_board(2, 4, 5);
}
