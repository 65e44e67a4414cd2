//! BFS's memory budget bounds what it really allocates, not an estimate from entry counts: this
//! test binary counts every byte allocated (a counting global allocator) and checks that a
//! search stopped by the budget, or finishing inside it, never held more than the budget, and
//! that the peak it reports is at least what it held.
//!
//! Only the thread that runs the search is counted, while it runs it: a search allocates all
//! its memory there, and the test harness's own threads allocate at moments of their own
//! (counting them made the test fail now and then by a few hundred bytes).

#[path = "support/counting.rs"]
mod counting;

use taquin::generate::{random_walk, uniform, Rng};
use taquin::heuristic::Manhattan;
use taquin::search::puzzle_graph::PuzzleGraph;
use taquin::search::{bfs, SearchFailure};
use taquin::{Board, LimitHit, Limits, Stats};

/// BFS from `board` to `goal` within `budget` bytes: its result's cost or limit, its stats, and
/// the most bytes allocated at once while it ran.
fn run(board: &Board, goal: &Board, budget: usize) -> (Result<u32, LimitHit>, Stats, usize) {
    let heuristic = Manhattan::new(goal);
    let graph = PuzzleGraph::new(goal, &heuristic);
    let start = graph.pack(board.tiles());
    let limits = Limits::none().with_max_memory(budget);
    let (result, held) = counting::measure_on_this_thread(|| bfs(&graph, start, &limits, None));
    match result {
        Ok(path) => (Ok(path.cost), path.stats, held),
        Err(SearchFailure::Limit { hit, stats, .. }) => (Err(hit), stats, held),
        Err(other) => panic!("expected a path or a limit, got {other:?}"),
    }
}

#[test]
fn bfs_never_allocates_more_than_its_memory_budget_and_reports_what_it_held() {
    let goal = Board::solved(4, 4).unwrap();
    let hard = uniform(&goal, &mut Rng::new(1));
    // 6x6: nodes too large to pack, each with its tiles in a heap block.
    let goal6 = Board::solved(6, 6).unwrap();
    let hard6 = uniform(&goal6, &mut Rng::new(1));
    let cases = [
        (&hard, &goal, 1000),
        (&hard, &goal, 1 << 20),
        (&hard, &goal, 3 << 20),
        (&hard, &goal, 5 << 20),
        (&hard, &goal, 12 << 20),
        (&hard, &goal, 30 << 20),
        (&hard6, &goal6, 2 << 20),
        (&hard6, &goal6, 7 << 20),
    ];
    for (board, goal, budget) in cases {
        let (result, stats, held) = run(board, goal, budget);
        assert_eq!(result, Err(LimitHit::Memory), "{budget}: {stats:?}");
        assert!(
            held <= stats.peak_memory_bytes && stats.peak_memory_bytes <= budget,
            "{}x{} in {budget} bytes: held {held}, reported {}",
            goal.width(),
            goal.height(),
            stats.peak_memory_bytes
        );
    }
    // A search that finds its goal inside the budget reports what it held too.
    let near = random_walk(&goal, 14, &mut Rng::new(2));
    let (result, stats, held) = run(&near, &goal, 64 << 20);
    assert!(result.is_ok(), "{result:?} {stats:?}");
    assert!(held <= stats.peak_memory_bytes && stats.peak_memory_bytes <= 64 << 20);
    // Budgets around the least that finds the goal: the path answered is counted too (it
    // takes more than the set freed before it, on so short a search).
    let goal2 = Board::solved(2, 2).unwrap();
    let mut solved = 0;
    for walk in [3, 5, 8, 12] {
        let near = random_walk(&goal2, walk, &mut Rng::new(walk as u64));
        for budget in (64..4000).step_by(4) {
            let (result, stats, held) = run(&near, &goal2, budget);
            solved += usize::from(result.is_ok());
            assert!(
                held <= stats.peak_memory_bytes && stats.peak_memory_bytes <= budget,
                "2x2 in {budget} bytes: {result:?}, held {held}, reported {}",
                stats.peak_memory_bytes
            );
        }
    }
    assert!(solved > 0, "some budgets find the goal");
}
