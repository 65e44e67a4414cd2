//! The anytime search, the planner's default beyond 16 cells: every answer replays to the goal,
//! is never shorter than its lower bound, claims optimality only when proven, and respects the
//! limits. No assertion depends on how fast the machine is: deadlines only stop the search.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use taquin::generate::{random_walk, uniform, Rng};
use taquin::heuristic::{Heuristic, LinearConflict};
use taquin::solvers::manhattan_lower_bound;
use taquin::{
    Algorithm, Board, HeuristicKind, LimitHit, Limits, Progress, Request, SolveError, SolveOptions,
    Tables,
};

mod common;
use common::solve;

/// Checks what every anytime answer must satisfy, and returns its length.
fn check_answer(board: &Board, goal: &Board, limits: &Limits) -> taquin::Solution {
    let s = solve(board, goal, None, None, limits).expect("an answer");
    assert_eq!(s.algorithm, "anytime");
    s.verify(board, goal).expect("the moves reach the goal");
    assert!(s.lower_bound <= s.len() as u64, "bound above the length");
    assert!(s.lower_bound >= manhattan_lower_bound(board, goal));
    if s.optimal {
        assert_eq!(s.lower_bound, s.len() as u64);
    }
    s
}

/// Checks an answer that must be proven optimal: as long as IDA*'s with linear conflict (asked
/// explicitly).
fn check_proven(board: &Board, goal: &Board, limits: &Limits) {
    let s = check_answer(board, goal, limits);
    let exact = solve(
        board,
        goal,
        Algorithm::IdaStar,
        HeuristicKind::LinearConflict,
        &Limits::none(),
    )
    .unwrap();
    assert!(s.optimal, "{board:?} not proven");
    assert_eq!(s.len(), exact.len());
}

#[test]
fn uniform_boards_of_every_size_get_a_checked_answer() {
    let mut rng = Rng::new(13);
    for (w, h) in [(5, 5), (6, 6), (4, 6), (7, 5), (8, 8)] {
        let goal = Board::solved(w, h).unwrap();
        let board = uniform(&goal, &mut rng);
        let limits = Limits::none().with_timeout(Duration::from_millis(300));
        let s = check_answer(&board, &goal, &limits);
        assert!(!s.optimal, "a uniform {w}x{h} board is not proven in 0.3 s");
    }
}

#[test]
fn boards_the_prover_finishes_come_out_optimal() {
    // Short scrambles of 18- to 25-cell boards: IDA* proves them at once, and the answer must
    // then have the optimal length (checked by IDA* with linear conflict, asked explicitly).
    let mut rng = Rng::new(5);
    for (w, h) in [(3, 6), (6, 3), (5, 4), (5, 5)] {
        let goal = Board::solved(w, h).unwrap();
        for _ in 0..3 {
            check_proven(&random_walk(&goal, 24, &mut rng), &goal, &Limits::none());
        }
    }
}

#[test]
fn on_one_core_the_prover_follows_the_improver_and_proves_the_same_boards() {
    // One core: the improver runs first, then the prover on the same thread; the short
    // scrambles still come out optimal, at IDA*'s length.
    let mut rng = Rng::new(5);
    for (w, h) in [(6, 3), (5, 5)] {
        let goal = Board::solved(w, h).unwrap();
        for _ in 0..2 {
            let board = random_walk(&goal, 24, &mut rng);
            check_proven(&board, &goal, &Limits::none().with_cores(1));
        }
    }
    // Out of time on one core: an answer, checked, not claimed optimal.
    let goal = Board::solved(6, 6).unwrap();
    let board = uniform(&goal, &mut Rng::new(4));
    let limits = Limits::none()
        .with_cores(1)
        .with_timeout(Duration::from_millis(400));
    assert!(!check_answer(&board, &goal, &limits).optimal);
}

#[test]
fn a_node_budget_still_gives_an_answer_never_claimed_optimal_unproven() {
    let goal = Board::solved(6, 6).unwrap();
    let board = uniform(&goal, &mut Rng::new(21));
    let limits = Limits::none().with_max_nodes(200_000);
    let s = check_answer(&board, &goal, &limits);
    assert!(!s.optimal);
    assert!(
        s.stats.generated <= 200_000 + 4,
        "{} nodes",
        s.stats.generated
    );
}

/// A node budget, however large, still lets the prover prove what it can: it takes the first
/// tenth of the budget, the improver the rest, one after the other, so the run is the same
/// every time.
#[test]
fn a_node_budget_still_proves_what_the_prover_can_and_gives_the_same_run() {
    let board = Board::parse("8 6 7/2 5 4/3 0 1").unwrap();
    let goal = Board::solved(3, 3).unwrap();
    let limits = Limits::none().with_max_nodes(2_000_000_000);
    let s = solve(
        &board,
        &goal,
        Algorithm::Anytime,
        HeuristicKind::Manhattan,
        &limits,
    )
    .unwrap();
    s.verify(&board, &goal).unwrap();
    assert!(
        s.optimal,
        "31 moves not proven: lower bound {}",
        s.lower_bound
    );
    assert_eq!((s.len(), s.lower_bound), (31, 31));
    // Beyond the prover's reach, it raises the bound above the root's, and two runs agree.
    let goal = Board::solved(5, 5).unwrap();
    let board = uniform(&goal, &mut Rng::new(21));
    let limits = Limits::none().with_max_nodes(300_000);
    let options = (Algorithm::Anytime, HeuristicKind::LinearConflict);
    let first = solve(&board, &goal, options.0, options.1, &limits).unwrap();
    let again = solve(&board, &goal, options.0, options.1, &limits).unwrap();
    assert_eq!(
        (&first.moves, first.lower_bound, first.stats.generated),
        (&again.moves, again.lower_bound, again.stats.generated)
    );
    assert!(
        first.stats.generated <= 300_000 + 4,
        "{}",
        first.stats.generated
    );
    let root = LinearConflict::new(&goal).estimate(board.tiles());
    assert!(
        first.lower_bound > u64::from(root),
        "{} at the root, {}",
        root,
        first.lower_bound
    );
}

#[test]
fn a_first_answer_as_short_as_the_manhattan_distance_is_optimal_at_once() {
    // Boards a few moves from the goal: the constructive solver's answer already meets the
    // Manhattan distance, so the answer is optimal whatever the budget, with no search at all
    // (a node budget of one would stop any).
    let goal = Board::solved(5, 5).unwrap();
    let mut rng = Rng::new(3);
    for moves in [0, 1, 2] {
        let board = random_walk(&goal, moves, &mut rng);
        let s = check_answer(&board, &goal, &Limits::none().with_max_nodes(1));
        assert!(s.optimal, "{moves} moves: {} moves, not optimal", s.len());
        assert_eq!(s.len() as u64, manhattan_lower_bound(&board, &goal));
        assert_eq!(s.stats.generated, 0);
    }
}

#[test]
fn the_smallest_node_budget_still_gets_the_first_answer() {
    // The constructive solver's first answer comes whatever the node budget, as it comes
    // whatever the deadline: a budget of one node answers every board, far from the goal too.
    for (side, seed) in [(5, 3), (6, 1), (8, 2)] {
        let goal = Board::solved(side, side).unwrap();
        let board = uniform(&goal, &mut Rng::new(seed));
        for budget in [1, 10, 100] {
            let s = check_answer(&board, &goal, &Limits::none().with_max_nodes(budget));
            assert!(!s.optimal, "{side}x{side} at {budget} nodes");
            // Within the budget, but for the root's children (at most four), which a budget
            // of one cannot hold.
            let most = budget.max(4);
            assert!(
                s.stats.generated <= most,
                "{side}x{side}: {}",
                s.stats.generated
            );
        }
    }
    // Past 32x32 too: the budget bounds the search that improves on the answer, not the
    // constructive solver's steps (on 200x200, 10 M nodes once ran out before its answer).
    let goal = Board::solved(48, 48).unwrap();
    let board = uniform(&goal, &mut Rng::new(5));
    for budget in [1, 1000] {
        let s = check_answer(&board, &goal, &Limits::none().with_max_nodes(budget));
        assert!(!s.optimal, "48x48 at {budget} nodes");
    }
}

#[test]
fn a_small_memory_budget_stops_the_beams_not_the_answer() {
    let goal = Board::solved(6, 6).unwrap();
    let board = uniform(&goal, &mut Rng::new(8));
    let limits = Limits::none()
        .with_max_memory(1 << 20)
        .with_timeout(Duration::from_secs(2));
    let s = check_answer(&board, &goal, &limits);
    assert!(s.stats.peak_memory_bytes <= 1 << 20);
}

#[test]
fn a_cancelled_request_stops_without_an_answer() {
    let goal = Board::solved(6, 6).unwrap();
    let board = uniform(&goal, &mut Rng::new(2));
    let limits = Limits::none().with_cancel(Arc::new(AtomicBool::new(true)));
    match solve(&board, &goal, None, None, &limits) {
        Err(SolveError::Limit { hit, .. }) => assert_eq!(hit, LimitHit::Cancelled),
        other => panic!("expected a cancelled search, got {other:?}"),
    }
}

#[test]
fn out_of_time_before_the_first_answer_says_how_long_and_the_bound_known() {
    // A 400x400 board: its constructive answer takes seconds, far past 20 ms.
    let goal = Board::solved(400, 400).unwrap();
    let board = uniform(&goal, &mut Rng::new(1));
    let limits = Limits::none().with_timeout(Duration::from_millis(20));
    match solve(&board, &goal, None, None, &limits) {
        Err(SolveError::Limit { hit, stats, bound }) => {
            assert_eq!(hit, LimitHit::Time);
            // Timed (the construction does not time itself: it said 0 ns).
            assert!(stats.elapsed > Duration::ZERO, "{stats:?}");
            assert_eq!(u64::from(bound), manhattan_lower_bound(&board, &goal));
        }
        other => panic!("expected the time limit, got {other:?}"),
    }
}

#[test]
fn a_deadline_already_past_still_gets_the_first_answer_up_to_32_by_32() {
    // The constructive answer takes a millisecond or two there: however short the time limit,
    // the same answer comes every time, not a time-limit error now and then.
    for (w, h) in [(7, 7), (32, 32)] {
        let goal = Board::solved(w, h).unwrap();
        let board = uniform(&goal, &mut Rng::new(3));
        let request = Request::new(
            board.clone(),
            goal.clone(),
            Limits::none().with_timeout(Duration::ZERO),
        )
        .unwrap();
        let s = taquin::solve(
            &request,
            &SolveOptions::default(),
            &Tables::in_memory(),
            None,
        )
        .unwrap_or_else(|e| panic!("{w}x{h}: {e}"));
        s.verify(&board, &goal).unwrap();
        assert!(!s.optimal);
        // With no time left no search is started: the answer is the constructive solver's,
        // and is named so, every time.
        let constructive = taquin::solve(
            &Request::new(board.clone(), goal.clone(), Limits::none()).unwrap(),
            &SolveOptions {
                algorithm: Some(taquin::Algorithm::Constructive),
                ..SolveOptions::default()
            },
            &Tables::in_memory(),
            None,
        )
        .unwrap();
        assert_eq!(s.moves, constructive.moves, "{w}x{h}");
        assert_eq!(
            (s.algorithm.as_str(), s.heuristic.as_str()),
            ("constructive", "none"),
            "{w}x{h}"
        );
        assert!(
            s.plan.contains("no time was left for the anytime search"),
            "{w}x{h}: {}",
            s.plan
        );
    }
    // A cancelled request still gets nothing.
    let goal = Board::solved(7, 7).unwrap();
    let board = uniform(&goal, &mut Rng::new(3));
    let flag = Arc::new(AtomicBool::new(true));
    let request = Request::new(board, goal, Limits::none().with_cancel(flag)).unwrap();
    match taquin::solve(
        &request,
        &SolveOptions::default(),
        &Tables::in_memory(),
        None,
    ) {
        Err(SolveError::Limit { hit, .. }) => assert_eq!(hit, LimitHit::Cancelled),
        other => panic!("expected a cancelled search, got {other:?}"),
    }
}

/// Solves within `timeout` with `options`, tables built in memory: the answer, replayed to the
/// goal, and the anytime search's reports (those with a best answer), in the order received.
fn solve_reporting(
    board: &Board,
    goal: &Board,
    options: &SolveOptions,
    timeout: Duration,
) -> (taquin::Solution, Vec<Progress>) {
    let seen = Mutex::new(Vec::new());
    let record = |p: Progress| {
        if p.best.is_some() {
            seen.lock().unwrap().push(p);
        }
    };
    let limits = Limits::none().with_timeout(timeout);
    let request = Request::new(board.clone(), goal.clone(), limits).unwrap();
    let s = taquin::solve(&request, options, &Tables::in_memory(), Some(&record)).unwrap();
    s.verify(board, goal).unwrap();
    let seen = seen.into_inner().unwrap();
    assert!(!seen.is_empty());
    (s, seen)
}

#[test]
fn improvements_are_reported_shorter_each_time_and_the_last_is_returned() {
    let goal = Board::solved(5, 5).unwrap();
    let board = uniform(&goal, &mut Rng::new(3));
    let (s, reports) = solve_reporting(
        &board,
        &goal,
        &SolveOptions::default(),
        Duration::from_millis(500),
    );
    let seen: Vec<_> = reports
        .iter()
        .map(|p| (p.best.unwrap(), p.bound, p.generated))
        .collect();
    let lengths: Vec<u32> = seen.iter().map(|&(l, _, _)| l).collect();
    assert!(lengths.windows(2).all(|w| w[1] <= w[0]), "{lengths:?}");
    assert_eq!(*lengths.last().unwrap() as usize, s.len());
    // Each reported bound is a proven one: never above the answer.
    assert!(seen.iter().all(|&(l, b, _)| b <= l));
    // The reports carry the nodes spent so far: the last one, after searches, some.
    let &(_, _, generated) = seen.last().unwrap();
    assert!(generated > 0, "{seen:?}");
}

#[test]
fn progress_is_reported_while_nothing_improves() {
    // Between improvements the search still reports (the same best and bound, its time and
    // nodes moving on), so that whoever shows it does not look stuck. Before, each report
    // brought a new best or a new bound.
    let goal = Board::solved(7, 7).unwrap();
    let board = uniform(&goal, &mut Rng::new(5));
    let options = SolveOptions {
        heuristic: Some(HeuristicKind::LinearConflict),
        ..SolveOptions::default()
    };
    let (s, reports) = solve_reporting(&board, &goal, &options, Duration::from_millis(1500));
    assert!(!s.optimal);
    let seen: Vec<_> = reports
        .iter()
        .map(|p| (p.best.unwrap(), p.bound, p.elapsed))
        .collect();
    assert!(
        seen.windows(2)
            .any(|w| (w[0].0, w[0].1) == (w[1].0, w[1].1) && w[0].2 < w[1].2),
        "every report brought news: {seen:?}"
    );
    // In order: time only goes forward, and so do the answers and the bounds.
    assert!(
        seen.windows(2)
            .all(|w| w[0].2 <= w[1].2 && w[1].0 <= w[0].0 && w[0].1 <= w[1].1),
        "{seen:?}"
    );
}

#[test]
fn reported_answers_play_on_the_board_as_given_when_the_tables_turn_it() {
    // With pattern databases the search runs on a turned or mirrored image of the board (the
    // tables' goal), and its answers are mapped back: the moves in the reports too, which a
    // client plays when it stops the search.
    let goal = Board::solved(4, 4).unwrap();
    let mut rng = Rng::new(21);
    for _ in 0..3 {
        let board = uniform(&goal, &mut rng);
        let options = SolveOptions {
            algorithm: Some(Algorithm::Anytime),
            ..SolveOptions::default()
        };
        // Time enough for the tables to be built on a busy machine: the search proves a
        // 15-puzzle optimal and ends long before.
        let (s, reports) = solve_reporting(&board, &goal, &options, Duration::from_secs(30));
        assert!(s.heuristic.starts_with("pdb:"), "{}", s.heuristic);
        let seen: Vec<_> = reports
            .into_iter()
            .map(|p| {
                p.best_moves
                    .expect("a report with a best answer has its moves")
            })
            .collect();
        for moves in &seen {
            taquin::verify_moves(&board, &goal, moves).expect("a reported answer plays");
        }
        assert_eq!(seen.last().unwrap().len(), s.len());
    }
}

/// Tables still being built at the deadline had no part in the answer: it is the constructive
/// solver's first one, and says so, rather than name the tables.
#[test]
fn an_answer_given_before_its_tables_were_ready_names_the_constructive_solver() {
    // The walking-distance tables of a 6x2 board take longer than a tenth of a second to
    // build: IDA* has none in its half of the time, nor the anytime search in the rest.
    let board = Board::parse("6 4 3 11 10 9/5 0 1 7 8 2").unwrap();
    let goal = Board::solved(6, 2).unwrap();
    let limits = Limits::none().with_timeout(Duration::from_millis(100));
    let request = Request::new(board.clone(), goal.clone(), limits).unwrap();
    let options = SolveOptions {
        heuristic: Some(HeuristicKind::WalkingDistance),
        ..SolveOptions::default()
    };
    let s = taquin::solve(&request, &options, &Tables::in_memory(), None).unwrap();
    s.verify(&board, &goal).unwrap();
    assert_eq!((s.stats.generated, s.optimal), (0, false));
    assert_eq!(
        (s.algorithm.as_str(), s.heuristic.as_str()),
        ("constructive", "none")
    );
    assert!(
        s.plan.contains("walking-distance was not ready in time"),
        "{}",
        s.plan
    );
}

/// Pattern databases asked for by name that cannot be built within the whole time limit are
/// refused before anything is built, with the command that builds them; ones that fit are
/// built and used.
#[test]
fn tables_asked_for_that_cannot_be_built_in_time_are_refused_at_once() {
    let board =
        Board::parse("4 3 24 8 1/14 11 12 20 2/19 0 6 9 7/13 5 21 17 16/22 10 23 18 15").unwrap();
    let goal = Board::solved(5, 5).unwrap();
    let options = SolveOptions {
        heuristic: Some(HeuristicKind::parse("pdb:6-6-6-6").unwrap()),
        ..SolveOptions::default()
    };
    let limits = Limits::none().with_timeout(Duration::from_millis(100));
    let request = Request::new(board.clone(), goal.clone(), limits.clone()).unwrap();
    let dir = common::scratch_dir("anytime-refused-build");
    let tables = Tables::open(dir.path());
    let refused = taquin::solve(&request, &options, &tables, None).unwrap_err();
    let message = refused.to_string();
    assert!(matches!(refused, SolveError::Unsupported(_)), "{message}");
    assert!(
        message.contains("`taquin pdb build pdb:6-6-6-6 --size 5x5`"),
        "{message}"
    );
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "nothing built"
    );
    // An algorithm that takes no heuristic builds no table: answered, not refused.
    let constructive = SolveOptions {
        algorithm: Some(Algorithm::Constructive),
        ..options.clone()
    };
    let s = taquin::solve(&request, &constructive, &tables, None).unwrap();
    s.verify(&board, &goal).unwrap();
    // The 8-puzzle's table builds in milliseconds, well within a limit of seconds (even on a
    // machine busy with other work): built and used.
    let board = Board::parse("8 6 7/2 5 4/3 0 1").unwrap();
    let limits = Limits::none().with_timeout(Duration::from_secs(30));
    let request = Request::new(board, Board::solved(3, 3).unwrap(), limits).unwrap();
    let options = SolveOptions {
        heuristic: Some(HeuristicKind::parse("pdb:8").unwrap()),
        ..SolveOptions::default()
    };
    let s = taquin::solve(&request, &options, &Tables::in_memory(), None).unwrap();
    assert_eq!(
        (s.len(), s.optimal, s.heuristic.as_str()),
        (31, true, "pdb:8")
    );
}

/// Up to 16 cells the planner's choice is an optimal search; with a deadline it cannot meet
/// (a 2x8 board takes IDA* over its small tables hundreds of millions of nodes), the anytime
/// search answers with the rest of the time instead of nothing, keeping IDA*'s proven bound and
/// counting its nodes. Asked for by name, IDA* still gives an answer only when proven.
#[test]
fn the_planners_optimal_search_out_of_time_hands_over_to_the_anytime_search() {
    let board = Board::parse("13 12/6 10/14 5/15 4/8 0/7 3/1 9/11 2").unwrap();
    let goal = Board::solved(2, 8).unwrap();
    // A board IDA* ends at once is still solved by it, optimally (and its tables are built
    // before the deadlines below, so that none of their time goes to the build).
    let easy = random_walk(&goal, 14, &mut Rng::new(5));
    let s = solve(&easy, &goal, None, None, &Limits::none()).unwrap();
    assert_eq!((s.algorithm.as_str(), s.optimal), ("idastar", true));
    let limits = Limits::none().with_timeout(Duration::from_millis(600));
    let s = solve(&board, &goal, None, None, &limits).expect("an answer");
    s.verify(&board, &goal).unwrap();
    assert_eq!(s.algorithm, "anytime", "{}", s.plan);
    assert!(
        s.plan.contains("; IDA* did not end in half the time limit"),
        "{}",
        s.plan
    );
    // IDA* proved at least its first bound, more than the Manhattan distance here.
    assert!(
        s.lower_bound > manhattan_lower_bound(&board, &goal),
        "{}",
        s.lower_bound
    );
    assert!(s.lower_bound <= s.len() as u64);
    assert!(!s.optimal || s.lower_bound == s.len() as u64);
    assert!(s.stats.generated > 0);
    let asked = solve(&board, &goal, Some(Algorithm::IdaStar), None, &limits);
    assert!(
        matches!(
            asked,
            Err(SolveError::Limit {
                hit: LimitHit::Time,
                ..
            })
        ),
        "{asked:?}"
    );
}
