//! Beyond optimal: every sub-optimal algorithm through the shared entry point, checked by replay,
//! against optimal lengths and lower bounds; huge boards in `#[ignore]`d tests.
//! Run the big ones: `cargo test --release -p taquin-core --test beyond -- --ignored`

use proptest::prelude::*;
use taquin::generate::{random_walk, uniform, Rng};
use taquin::solvers::shorten::{shorten, ShortenOptions};
use taquin::solvers::{constructive, manhattan_lower_bound};
use taquin::{Algorithm, Board, HeuristicKind, Limits, SolveError, SolveOptions};

mod common;
use common::{solve, solve_with};

const BEYOND: [Algorithm; 5] = [
    Algorithm::WeightedAStar,
    Algorithm::Greedy,
    Algorithm::Constructive,
    Algorithm::Lookahead,
    Algorithm::Lrta,
];

fn optimal_length(board: &Board, goal: &Board) -> usize {
    solve(
        board,
        goal,
        Algorithm::IdaStar,
        HeuristicKind::LinearConflict,
        &Limits::none(),
    )
    .unwrap()
    .len()
}

/// A random goal of the given size: taquin takes any goal, not only 1..N-1 then the blank.
fn random_goal(w: usize, h: usize, rng: &mut Rng) -> Board {
    uniform(&Board::solved(w, h).unwrap(), rng)
}

#[test]
fn names_round_trip_and_only_the_exact_searches_claim_optimality() {
    for a in Algorithm::ALL {
        assert_eq!(Algorithm::from_name(a.name()), Some(a));
    }
    for a in BEYOND {
        assert!(!a.is_optimal(), "{a}");
    }
    let names: Vec<_> = BEYOND.iter().map(|a| a.name()).collect();
    assert_eq!(
        names,
        [
            "weighted-astar",
            "greedy",
            "constructive",
            "lookahead",
            "lrta"
        ]
    );
    let request = taquin::Request::new(
        Board::parse("1 2 3/4 5 6/7 0 8").unwrap(),
        Board::solved(3, 3).unwrap(),
        Limits::none(),
    )
    .unwrap();
    let tables = taquin::Tables::in_memory();
    let bound = |o: &SolveOptions| {
        taquin::plan(&request, o, &tables)
            .unwrap()
            .suboptimality_bound()
    };
    let mut o = SolveOptions::new(Algorithm::WeightedAStar, HeuristicKind::Manhattan);
    o.weight = 1.5;
    assert_eq!(bound(&o), Some(1.5));
    o.algorithm = Some(Algorithm::IdaStar);
    assert_eq!(bound(&o), Some(1.0));
    o.algorithm = Some(Algorithm::Constructive);
    assert_eq!(bound(&o), None);
}

#[test]
fn every_beyond_algorithm_replays_on_random_eight_puzzles_with_random_goals() {
    let mut rng = Rng::new(2024);
    for _ in 0..25 {
        let goal = random_goal(3, 3, &mut rng);
        let board = uniform(&goal, &mut rng);
        let best = optimal_length(&board, &goal);
        for a in BEYOND {
            let options = SolveOptions::new(a, HeuristicKind::Manhattan);
            match solve_with(&board, &goal, &options, &Limits::none()) {
                Ok(s) => {
                    s.verify(&board, &goal).unwrap();
                    assert!(s.len() >= best, "{a} beat the optimum");
                    assert!(!s.optimal || s.len() == best, "{a}");
                    if a == Algorithm::WeightedAStar {
                        assert!(s.len() as f64 <= 2.0 * best as f64, "{a}: bound w broken");
                    }
                    if a == Algorithm::Constructive {
                        // 3x3 boards are the optimal core: solved outright.
                        assert_eq!(s.len(), best);
                    }
                }
                Err(SolveError::Cycle { .. }) if a == Algorithm::Lookahead => {}
                Err(e) => panic!("{a}: {e}"),
            }
        }
    }
}

#[test]
fn weighted_astar_stays_within_its_bound_on_fifteen_puzzles() {
    let goal = Board::solved(4, 4).unwrap();
    let mut rng = Rng::new(7);
    for weight in [1.0, 1.2, 1.5, 3.0] {
        for _ in 0..4 {
            let board = random_walk(&goal, 40, &mut rng);
            let best = optimal_length(&board, &goal);
            let mut options =
                SolveOptions::new(Algorithm::WeightedAStar, HeuristicKind::LinearConflict);
            options.weight = weight;
            let s = solve_with(&board, &goal, &options, &Limits::none()).unwrap();
            assert!(!s.optimal);
            assert!(
                s.len() as f64 <= weight * best as f64 + 1e-9,
                "w={weight}: {} > {best}",
                s.len()
            );
        }
    }
    let mut bad = SolveOptions::new(Algorithm::WeightedAStar, HeuristicKind::Manhattan);
    bad.weight = 0.5;
    let board = random_walk(&goal, 10, &mut rng);
    assert!(solve_with(&board, &goal, &bad, &Limits::none()).is_err());
}

#[test]
fn constructive_solves_every_shape_with_random_goals_above_the_manhattan_bound() {
    let mut rng = Rng::new(99);
    for w in 2..=9 {
        for h in 2..=9 {
            for _ in 0..3 {
                let goal = random_goal(w, h, &mut rng);
                let board = uniform(&goal, &mut rng);
                let options = SolveOptions::new(Algorithm::Constructive, HeuristicKind::Manhattan);
                let s = solve_with(&board, &goal, &options, &Limits::none()).unwrap();
                s.verify(&board, &goal).unwrap();
                assert!(s.len() as u64 >= manhattan_lower_bound(&board, &goal));
            }
        }
    }
}

#[test]
fn the_lookahead_player_reports_its_cycle_through_solve_with() {
    let goal = Board::solved(3, 3).unwrap();
    let mut rng = Rng::new(1);
    let mut cycles = 0;
    for _ in 0..50 {
        let board = uniform(&goal, &mut rng);
        let options = SolveOptions::new(Algorithm::Lookahead, HeuristicKind::Manhattan);
        match solve_with(&board, &goal, &options, &Limits::none()) {
            Ok(s) => s.verify(&board, &goal).unwrap(),
            Err(e @ SolveError::Cycle { .. }) => {
                cycles += 1;
                let msg = e.to_string();
                assert!(
                    msg.contains("moves") && msg.contains("states repeated"),
                    "{msg}"
                );
                assert!(!e.is_limit());
            }
            Err(e) => panic!("{e}"),
        }
    }
    assert!(cycles > 0);
}

#[test]
fn lrta_reaches_the_goal_at_every_depth_on_fifteen_puzzles() {
    let goal = Board::solved(4, 4).unwrap();
    let mut rng = Rng::new(3);
    for depth in [1, 3] {
        for _ in 0..3 {
            let board = random_walk(&goal, 30, &mut rng);
            let mut options = SolveOptions::new(Algorithm::Lrta, HeuristicKind::LinearConflict);
            options.depth = depth;
            let s = solve_with(&board, &goal, &options, &Limits::none()).unwrap();
            s.verify(&board, &goal).unwrap();
            assert!(s.len() >= optimal_length(&board, &goal));
        }
    }
}

#[test]
fn huge_boards_are_refused_by_table_based_players_with_advice() {
    let goal = Board::solved(80, 80).unwrap();
    let board = random_walk(&goal, 5, &mut Rng::new(1));
    for a in [Algorithm::Lrta, Algorithm::Greedy, Algorithm::WeightedAStar] {
        let err = solve_with(
            &board,
            &goal,
            &SolveOptions::new(a, HeuristicKind::Manhattan),
            &Limits::none(),
        )
        .unwrap_err();
        assert!(err.to_string().contains("constructive"), "{err}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// The post-pass never lengthens a solution and always returns one that replays.
    #[test]
    fn shortening_never_lengthens(seed in any::<u64>(), w in 2usize..7, h in 2usize..7) {
        let mut rng = Rng::new(seed);
        let goal = random_goal(w, h, &mut rng);
        let board = uniform(&goal, &mut rng);
        let c = constructive::constructive(&board, &goal, &Limits::none()).unwrap();
        let s = shorten(&board, &goal, &c.moves, &ShortenOptions::default()).unwrap();
        prop_assert!(s.moves.len() <= c.len());
        prop_assert!(s.after_windows <= s.after_loops && s.after_loops <= s.original);
        taquin::verify_moves(&board, &goal, &s.moves).unwrap();
    }
}

#[test]
#[ignore]
fn constructive_solves_a_random_300x300() {
    let goal = Board::solved(300, 300).unwrap();
    let board = uniform(&goal, &mut Rng::new(300));
    let s = constructive::constructive(&board, &goal, &Limits::none()).unwrap();
    s.verify(&board, &goal).unwrap();
}

#[test]
#[ignore]
fn constructive_solves_a_random_1000x1000() {
    let goal = Board::solved(1000, 1000).unwrap();
    let board = uniform(&goal, &mut Rng::new(1000));
    let s = constructive::constructive(&board, &goal, &Limits::none()).unwrap();
    assert!(s.len() as u64 >= manhattan_lower_bound(&board, &goal));
}

#[test]
fn the_heuristic_at_the_start_bounds_every_guided_answer_and_meeting_it_proves_it() {
    let board = Board::parse("8 6 7/2 5 4/3 0 1").unwrap();
    let goal = Board::solved(3, 3).unwrap();
    let lc = taquin::heuristic::LinearConflict::new(&goal);
    let at_start = u64::from(taquin::heuristic::Heuristic::estimate(&lc, board.tiles()));
    assert!(at_start > manhattan_lower_bound(&board, &goal));
    for a in [Algorithm::WeightedAStar, Algorithm::Greedy, Algorithm::Lrta] {
        // Linear conflict: a bound above Manhattan's, below the 31 moves these answers take.
        let options = SolveOptions::new(a, HeuristicKind::LinearConflict);
        let s = solve_with(&board, &goal, &options, &Limits::none()).unwrap();
        assert_eq!((s.lower_bound, s.optimal), (at_start, false), "{a}");
        // The 8-puzzle's whole table is exact: an answer of its length is proven optimal.
        let options = SolveOptions::new(a, HeuristicKind::from_name("pdb:8").unwrap());
        let s = solve_with(&board, &goal, &options, &Limits::none()).unwrap();
        assert_eq!(s.lower_bound, 31, "{a}");
        assert_eq!(s.optimal, s.len() == 31, "{a}: {}", s.len());
    }
}
