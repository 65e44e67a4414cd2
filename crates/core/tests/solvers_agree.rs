//! One tester for every solver (in the manner of ripgrep's SearcherTester): each algorithm with
//! each heuristic, and the planner's defaults, on the same boards, must give the same optimal
//! length and a move list that really reaches the goal.

use taquin::generate::{random_walk, uniform, Rng};
use taquin::instances::parse_file;
use taquin::{Algorithm, Board, HeuristicKind, Limits};

mod common;
use common::solve;

type Choice = (Option<Algorithm>, Option<HeuristicKind>);

/// Every (algorithm, heuristic) pair that promises optimal solutions, BFS once, and the
/// planner's defaults (everything left open, and each optimal algorithm with its heuristic
/// left open).
fn optimal_solvers() -> Vec<Choice> {
    let mut v: Vec<Choice> = vec![(None, None)];
    for a in Algorithm::ALL.into_iter().filter(|a| a.is_optimal()) {
        if a == Algorithm::Bfs {
            v.push((Some(a), Some(HeuristicKind::Manhattan)));
        } else {
            v.push((Some(a), None));
            v.extend(HeuristicKind::ALL.into_iter().map(|h| (Some(a), Some(h))));
        }
    }
    v
}

/// All solvers agree on the length; each solution replays to the goal.
fn agree(
    board: &Board,
    goal: &Board,
    expected: Option<usize>,
    skip: impl Fn(Option<Algorithm>, Option<HeuristicKind>) -> bool,
) -> usize {
    let mut length = expected;
    for (a, h) in optimal_solvers() {
        if skip(a, h) {
            continue;
        }
        let limits = Limits::none().with_max_memory(2 << 30);
        let s = solve(board, goal, a, h, &limits)
            .unwrap_or_else(|e| panic!("{a:?} + {h:?} on {board:?}: {e}"));
        s.verify(board, goal).unwrap();
        assert!(s.optimal, "{}", s.plan);
        assert_eq!(s.lower_bound, s.len() as u64, "{}", s.plan);
        match length {
            None => length = Some(s.len()),
            Some(l) => assert_eq!(s.len(), l, "{} on {board:?} -> {goal:?}", s.plan),
        }
    }
    length.unwrap()
}

#[test]
fn the_article_board_takes_31_moves_with_every_optimal_solver() {
    let board = Board::parse("6 4 7/8 5 0/3 2 1").unwrap();
    let goal = Board::parse("1 2 3/4 5 6/7 8 0").unwrap();
    assert_eq!(agree(&board, &goal, Some(31), |_, _| false), 31);
}

#[test]
fn the_two_hardest_8_puzzles_take_31_moves() {
    let instances = parse_file(include_str!("data/puzzle8_hard31.txt")).unwrap();
    assert_eq!(instances.len(), 2);
    for inst in instances {
        let expected = inst.optimal_length.map(|l| l as usize);
        agree(&inst.board, &inst.goal, expected, |_, _| false);
    }
}

#[test]
fn random_boards_of_many_shapes_and_goals() {
    let mut rng = Rng::new(11);
    let shapes = [
        (2, 2),
        (3, 2),
        (2, 3),
        (3, 3),
        (4, 2),
        (2, 4),
        (5, 2),
        (2, 5),
        (3, 4),
        (4, 3),
    ];
    for (w, h) in shapes {
        // a random goal, not just the default one
        let goal = uniform(&Board::solved(w, h).unwrap(), &mut rng);
        for _ in 0..3 {
            let board = uniform(&goal, &mut rng);
            // Misplaced tiles and BFS blow up on 12-cell boards; they are checked on the smaller ones.
            let big = w * h >= 12;
            agree(&board, &goal, None, |a, h| {
                big && (a == Some(Algorithm::Bfs) || h == Some(HeuristicKind::Misplaced))
            });
        }
    }
}

/// A goal with its blank on any cell: the pattern-database searches map the pair by a board
/// symmetry onto a goal with the blank in a canonical cell (`taquin::symmetry`) and map the
/// moves back. Each must still be optimal (against BFS, or IDA* with Manhattan distance on
/// 12 cells) and replay on the original pair.
#[test]
fn goals_with_the_blank_on_every_cell_are_solved_optimally_through_a_symmetry() {
    let mut rng = Rng::new(29);
    for (w, h) in [(3, 3), (4, 2), (2, 4), (4, 3)] {
        let n = w * h;
        for blank in 0..n {
            let mut tiles = uniform(&Board::solved(w, h).unwrap(), &mut rng)
                .tiles()
                .to_vec();
            let at = tiles.iter().position(|&t| t == 0).unwrap();
            tiles.swap(at, blank);
            let goal = Board::from_tiles(w, h, tiles).unwrap();
            let board = uniform(&goal, &mut rng);
            let reference = if n <= 9 {
                (Algorithm::Bfs, HeuristicKind::Manhattan)
            } else {
                (Algorithm::IdaStar, HeuristicKind::Manhattan)
            };
            let want = solve(&board, &goal, reference.0, reference.1, &Limits::none())
                .unwrap()
                .len();
            let pdb = taquin::planner::preferred_set(w, h).map(HeuristicKind::Pdb);
            let zero_aware = taquin::pdb::PdbPreset::sized_for(w, h, 1 << 20)
                .map(|p| HeuristicKind::Pdb(p.zero_aware()));
            for (a, heuristic) in [
                (None, None),
                (Some(Algorithm::IdaStar), pdb),
                (Some(Algorithm::AStar), pdb),
                (Some(Algorithm::IdaStar), zero_aware),
                (Some(Algorithm::AStar), zero_aware),
            ] {
                let s = solve(&board, &goal, a, heuristic, &Limits::none()).unwrap();
                s.verify(&board, &goal).unwrap();
                assert!(s.optimal, "{}", s.plan);
                assert_eq!(s.len(), want, "{} on {board:?} -> {goal:?}", s.plan);
            }
        }
    }
}

#[test]
fn fifteen_puzzle_walks_and_a_5x5() {
    let mut rng = Rng::new(3);
    let goal = Board::solved(4, 4).unwrap();
    for _ in 0..5 {
        let board = random_walk(&goal, 30, &mut rng);
        agree(&board, &goal, None, |a, h| {
            a == Some(Algorithm::Bfs) || h == Some(HeuristicKind::Misplaced)
        });
    }
    // On 5x5, walking distance is refused (its tables would be too large); the others agree.
    let goal = Board::solved(5, 5).unwrap();
    let board = random_walk(&goal, 24, &mut rng);
    agree(&board, &goal, None, |a, h| {
        a == Some(Algorithm::Bfs)
            || h == Some(HeuristicKind::Misplaced)
            || h == Some(HeuristicKind::WalkingDistance)
    });
}

#[test]
fn easy_korf_instances_are_solved_optimally() {
    let instances = parse_file(include_str!("data/korf_easy.txt")).unwrap();
    assert_eq!(instances.len(), 6);
    for inst in instances {
        for h in [
            HeuristicKind::LinearConflict,
            HeuristicKind::WalkingDistance,
        ] {
            let s = solve(
                &inst.board,
                &inst.goal,
                Algorithm::IdaStar,
                h,
                &Limits::none(),
            )
            .unwrap();
            assert_eq!(
                Some(s.len() as u32),
                inst.optimal_length,
                "instance {} with {h}",
                inst.id
            );
            s.verify(&inst.board, &inst.goal).unwrap();
        }
    }
}

#[test]
fn limits_stop_searches_with_a_bound() {
    let inst = &parse_file(include_str!("data/korf_easy.txt")).unwrap()[0];
    for a in [Algorithm::IdaStar, Algorithm::AStar] {
        let err = solve(
            &inst.board,
            &inst.goal,
            a,
            HeuristicKind::Manhattan,
            &Limits::none().with_max_nodes(50_000),
        )
        .unwrap_err();
        match err {
            taquin::SolveError::Limit { hit, bound, stats } => {
                assert_eq!(hit, taquin::LimitHit::Nodes);
                assert!(bound > 0 && bound <= 55, "{bound}");
                assert!(stats.generated >= 50_000);
            }
            e => panic!("{a}: {e}"),
        }
    }
    let tiny_memory = Limits::none().with_max_memory(1 << 20);
    let err = solve(
        &inst.board,
        &inst.goal,
        Algorithm::AStar,
        HeuristicKind::Manhattan,
        &tiny_memory,
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            taquin::SolveError::Limit {
                hit: taquin::LimitHit::Memory,
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn unsolvable_and_mismatched_pairs_are_refused_before_searching() {
    let goal = Board::solved(3, 3).unwrap();
    let board = Board::parse("2 1 3/4 5 6/7 8 0").unwrap();
    for a in Algorithm::ALL {
        let err = solve(&board, &goal, a, HeuristicKind::Manhattan, &Limits::none()).unwrap_err();
        assert!(
            matches!(err, taquin::SolveError::Unsolvable(_)),
            "{a}: {err}"
        );
    }
    let err = solve(
        &board,
        &Board::solved(4, 4).unwrap(),
        Algorithm::IdaStar,
        HeuristicKind::Manhattan,
        &Limits::none(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("same size"), "{err}");
}
