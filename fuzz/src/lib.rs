//! What the fuzz targets share: the ground truth they check answers against.

use std::collections::{HashSet, VecDeque};

use taquin::Board;

/// Boards up to this many cells are small enough to check solvability by visiting every state
/// (6! = 720 on a 2x3 or 3x2 board) on each run of a target.
pub const BFS_MAX_CELLS: usize = 6;

/// True when `goal` is reached from `board` by legal moves, found by breadth-first search over
/// every state reachable from `board`: the ground truth for the parity rule on small boards.
pub fn reachable(board: &Board, goal: &Board) -> bool {
    assert!(board.len() <= BFS_MAX_CELLS, "only for small boards");
    let mut seen = HashSet::from([board.clone()]);
    let mut queue = VecDeque::from([board.clone()]);
    while let Some(b) = queue.pop_front() {
        if &b == goal {
            return true;
        }
        for mv in b.legal_moves().collect::<Vec<_>>() {
            let next = b.moved(mv).expect("a legal move applies");
            if seen.insert(next.clone()) {
                queue.push_back(next);
            }
        }
    }
    false
}

/// An error shown to a user must say something: at least a few words.
pub fn assert_explains(error: &impl std::fmt::Display) {
    let text = error.to_string();
    assert!(
        text.len() >= 10,
        "an error message says too little: {text:?}"
    );
}
