//! God's number by the two-bit breadth-first search, against the published values: OEIS
//! A089473 (the 8-puzzle's distances from the goal with the blank in a corner, after
//! Reinefeld 1993) and OEIS A151944 (the largest distance on each m x n board, after Korf 2008).

use taquin::gods_number::gods_number;
use taquin::metric::Metric;
use taquin::{Board, Limits};

fn stm(width: usize, height: usize) -> taquin::gods_number::GodsNumber {
    let goal = Board::solved(width, height).unwrap();
    gods_number(&goal, Metric::Stm, 0, &Limits::none(), None).unwrap()
}

#[test]
fn eight_puzzle_distribution_is_a089473() {
    let result = stm(3, 3);
    let a089473: [u64; 32] = [
        1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512, 4485, 5638, 9529,
        10878, 16993, 17110, 23952, 20224, 24047, 15578, 14560, 6274, 3910, 760, 221, 2,
    ];
    assert_eq!(result.distribution, a089473);
    assert_eq!(result.diameter(), 31);
    assert_eq!(result.states(), 181_440);
    // The two boards 31 moves away, as OEIS A089473 shows them.
    let mut antipodes: Vec<String> = result.antipodes.iter().map(Board::to_line).collect();
    antipodes.sort();
    assert_eq!(antipodes, ["6 4 7/8 5 0/3 2 1", "8 6 7/2 5 4/3 0 1"]);
}

#[test]
fn two_by_four_and_two_by_five_match_a151944() {
    assert_eq!(stm(4, 2).diameter(), 36);
    assert_eq!(stm(2, 4).diameter(), 36);
    assert_eq!(stm(5, 2).diameter(), 55);
    let tall = stm(2, 5);
    assert_eq!(tall.diameter(), 55);
    assert_eq!(tall.states(), 1_814_400);
}

/// 239,500,800 states each: about a minute per board on two cores.
#[test]
#[ignore]
fn twelve_cells_match_a151944() {
    assert_eq!(stm(4, 3).diameter(), 53);
    assert_eq!(stm(3, 4).diameter(), 53);
    assert_eq!(stm(6, 2).diameter(), 80);
}
