//! The anytime search holds to a small memory budget on a large board. With the budget too
//! small for any beam, the run re-solves windows of the constructive solver's path, which on
//! large boards has hundreds of thousands of moves: it once kept every board along that path
//! (3.2 GB within 3 s on a 50x50 board with `--max-memory 5`, and growing until the deadline).
//!
//! The anytime run searches on threads of its own, so every thread's allocations are counted
//! (a counting global allocator); this test binary has one test, so no other is counted with it.

#[path = "support/counting.rs"]
mod counting;

use std::time::Duration;

use taquin::generate::{uniform, Rng};
use taquin::{solve, Board, Limits, Request, SolveOptions, Tables};

const MIB: usize = 1 << 20;

#[test]
fn a_budget_too_small_for_any_beam_holds_on_a_large_board() {
    let goal = Board::solved(50, 50).unwrap();
    let board = uniform(&goal, &mut Rng::new(1));
    let budget = 5 * MIB;
    let limits = Limits::none()
        .with_timeout(Duration::from_secs(2))
        .with_max_memory(budget);
    let request = Request::new(board.clone(), goal.clone(), limits).unwrap();
    let (solution, peak) = counting::measure_everywhere(|| {
        solve(
            &request,
            &SolveOptions::default(),
            &Tables::in_memory(),
            None,
        )
        .unwrap()
    });
    let mut end = board.clone();
    end.apply_all(&solution.moves).unwrap();
    assert_eq!(end, goal);
    // Beside the budget, the run holds the path (a byte a move, a few copies of it: about
    // 330,000 moves here) and the boards and tables of its searches: tens of megabytes at most.
    // Keeping every board along the path took gigabytes.
    assert!(
        peak < budget + 64 * MIB,
        "{} MiB at the peak with a budget of {} MiB ({} moves)",
        peak / MIB,
        budget / MIB,
        solution.len()
    );
}
