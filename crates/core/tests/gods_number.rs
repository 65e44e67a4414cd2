//! God's number by the two-bit breadth-first search, against the published values: OEIS
//! A089473, A089474 and A089483 (the 8-puzzle's distances from a goal with the blank in a
//! corner, the centre, mid-side; after Reinefeld 1993) and OEIS A151944 (the largest distance
//! on each m x n board, after Korf 2008).

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

/// From the blank in the centre (OEIS A089474) and at mid-side (OEIS A089483): the search
/// works from any goal, and the distributions differ as published.
#[test]
fn eight_puzzle_from_other_blank_cells_matches_a089474_and_a089483() {
    let from = |goal: &str| {
        let goal = Board::parse(goal).unwrap();
        gods_number(&goal, Metric::Stm, 2, &Limits::none(), None)
            .unwrap()
            .distribution
    };
    let a089474: [u64; 31] = [
        1, 4, 8, 8, 16, 32, 60, 72, 136, 200, 376, 512, 964, 1296, 2368, 3084, 5482, 6736, 11132,
        12208, 18612, 18444, 24968, 19632, 22289, 13600, 11842, 4340, 2398, 472, 148,
    ];
    assert_eq!(from("1 2 3/4 0 5/6 7 8"), a089474);
    let a089483: [u64; 32] = [
        1, 3, 5, 10, 14, 28, 42, 80, 108, 202, 278, 524, 726, 1348, 1804, 3283, 4193, 7322, 8596,
        13930, 14713, 21721, 19827, 25132, 18197, 18978, 9929, 7359, 2081, 878, 126, 2,
    ];
    assert_eq!(from("1 0 2/3 4 5/6 7 8"), a089483);
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
