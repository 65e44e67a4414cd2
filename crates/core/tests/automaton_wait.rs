//! A search does not wait past its limits for the duplicate-pruning automaton beyond 16 cells,
//! whose learning takes about a second and a quarter of a gigabyte. A test binary of its own:
//! no other test of this process has learned the automaton before it looks.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use taquin::search::fsm::Fsm;
use taquin::{Board, LimitHit, Limits, Request, SolveError, SolveOptions, Tables};

#[test]
fn the_automaton_is_waited_for_only_while_the_limits_hold() {
    // Not learned yet, and a deadline too close for its learning: the search is not held up,
    // and gets the quick automaton (its moves stay optimal; it prunes fewer nodes).
    let soon = Limits::none().with_timeout(std::time::Duration::from_millis(20));
    assert!(std::ptr::eq(
        Fsm::for_cells_within_limits(25, &soon).unwrap(),
        Fsm::for_cells(16)
    ));
    let cancelled = Limits::none().with_cancel(Arc::new(AtomicBool::new(true)));
    // Not learned yet (its learning has begun on a thread of its own): a cancelled search does
    // not wait for it.
    assert_eq!(
        Fsm::for_cells_within_limits(25, &cancelled).err(),
        Some(LimitHit::Cancelled)
    );
    // Nor does IDA* through the front door: it ends at the cancel, having searched nothing.
    let board =
        Board::parse("4 3 24 8 1/14 11 12 20 2/19 0 6 9 7/13 5 21 17 16/22 10 23 18 15").unwrap();
    let goal = Board::solved(5, 5).unwrap();
    let request = Request::new(board, goal, cancelled.clone()).unwrap();
    let options = SolveOptions {
        algorithm: Some(taquin::Algorithm::IdaStar),
        heuristic: Some(taquin::HeuristicKind::LinearConflict),
        ..SolveOptions::default()
    };
    match taquin::solve(&request, &options, &Tables::in_memory(), None) {
        Err(SolveError::Limit { hit, stats, bound }) => {
            assert_eq!(hit, LimitHit::Cancelled);
            assert_eq!(stats.generated, 0);
            assert!(bound >= 77, "the heuristic at the root: {bound}");
        }
        other => panic!("{other:?}"),
    }
    // The learning went on meanwhile: a search without limits gets the automaton every
    // search of that size uses.
    let fsm = Fsm::for_cells_within_limits(25, &Limits::none()).unwrap();
    assert!(std::ptr::eq(fsm, Fsm::for_cells(25)));
    // Up to 16 cells the quick automaton is learned at once, whatever the limits.
    assert!(std::ptr::eq(
        Fsm::for_cells_within_limits(16, &cancelled).unwrap(),
        Fsm::for_cells(16)
    ));
}
