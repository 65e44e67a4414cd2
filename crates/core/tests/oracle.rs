//! Ground truth from breadth-first search over every state of small boards.
//!
//! - every heuristic admissible (never above the BFS distance) and consistent (changes by at most
//!   one per move, which all four claim) on all 181,440 states of the 8-puzzle, with the standard
//!   goal and with other goals, and on all states of the 4x2 and 2x4 boards;
//! - the pattern databases the planner builds for these boards admissible on every state;
//! - A* and IDA* lengths equal the BFS distance: exhaustively on 4x2 and 2x4, on a large seeded
//!   sample of the 8-puzzle (every state at distance 31 included); so does the planner's
//!   default, which must say it is optimal;
//! - every returned move list replays to the goal.
//!
//! Run in release (`cargo test --release`): a debug build takes minutes here.

use std::collections::HashMap;

use taquin::generate::Rng;
use taquin::pdb::{BuildPolicy, PdbPreset};
use taquin::planner::{QUICK_ENTRIES, STANDARD_ENTRIES};
use taquin::{
    solve, Algorithm, Board, HeuristicKind, Limits, Move, Request, SolveOptions, Tables, Tile,
};

/// Packs a board of up to 16 cells into 4 bits a cell.
fn key(tiles: &[Tile]) -> u64 {
    tiles.iter().fold(0, |k, &t| (k << 4) | u64::from(t))
}

/// BFS distance to `goal` of every state from which it is reachable, with the states themselves.
fn distances(goal: &Board) -> (HashMap<u64, u8>, Vec<Board>) {
    let mut dist = HashMap::new();
    let mut states = vec![goal.clone()];
    dist.insert(key(goal.tiles()), 0u8);
    let mut head = 0;
    while head < states.len() {
        let b = states[head].clone();
        let d = dist[&key(b.tiles())];
        for m in Move::ALL {
            if let Some(next) = b.moved(m) {
                let k = key(next.tiles());
                if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(k) {
                    e.insert(d + 1);
                    states.push(next);
                }
            }
        }
        head += 1;
    }
    (dist, states)
}

/// Admissible and consistent on every state reachable from `goal`.
fn check_heuristics_exhaustively(goal: &Board) {
    let (dist, states) = distances(goal);
    let half = (1..=goal.len()).product::<usize>() / 2;
    assert_eq!(
        states.len(),
        half,
        "exactly half the permutations reach the goal"
    );
    let tables = Tables::in_memory();
    let built: Vec<_> = HeuristicKind::ALL
        .into_iter()
        .map(|k| {
            (
                k,
                k.build(goal, &tables, BuildPolicy::Never, &Limits::none())
                    .unwrap(),
            )
        })
        .collect();
    // The planner's pattern databases for this board (a maximum of a direct and a reflected
    // sum): admissible on every state, 0 on the goal, never below Manhattan distance. They are
    // not consistent (a move can lower them by more than one), so that is not asked.
    let manhattan = HeuristicKind::Manhattan
        .build(goal, &tables, BuildPolicy::Never, &Limits::none())
        .unwrap();
    for budget in [QUICK_ENTRIES, STANDARD_ENTRIES] {
        let preset = PdbPreset::sized_for(goal.width(), goal.height(), budget).unwrap();
        let h = tables
            .pdb_heuristic(preset, goal, BuildPolicy::IfMissing, &Limits::none())
            .unwrap();
        assert_eq!(taquin::Heuristic::estimate(&h, goal.tiles()), 0);
        for b in &states {
            let d = u32::from(dist[&key(b.tiles())]);
            let est = taquin::Heuristic::estimate(&h, b.tiles());
            assert!(
                est <= d,
                "pdb:{} overestimates {b:?}: {est} > {d}",
                preset.name()
            );
            assert!(
                est >= manhattan.estimate(b.tiles()),
                "pdb below Manhattan on {b:?}"
            );
        }
    }
    let mut sums = vec![0u64; built.len()];
    for b in &states {
        let d = u32::from(dist[&key(b.tiles())]);
        let estimates: Vec<u32> = built.iter().map(|(_, h)| h.estimate(b.tiles())).collect();
        for ((kind, h), (&est, sum)) in built.iter().zip(estimates.iter().zip(sums.iter_mut())) {
            assert!(est <= d, "{kind} overestimates {b:?}: {est} > {d}");
            *sum += u64::from(est);
            for m in b.legal_moves() {
                let next = b.moved(m).unwrap();
                let en = h.estimate(next.tiles());
                assert!(
                    est.abs_diff(en) <= 1,
                    "{kind} inconsistent between {b:?} ({est}) and {next:?} ({en})"
                );
            }
        }
        // The order of cleverness holds state by state: misplaced <= Manhattan <= linear
        // conflict, and walking distance >= Manhattan.
        let [mis, man, lc, wd] = estimates[..] else {
            unreachable!("four heuristics")
        };
        assert!(
            mis <= man && man <= lc && man <= wd,
            "dominance broken on {b:?}: {estimates:?}"
        );
    }
    for (kind, h) in &built {
        assert_eq!(h.estimate(goal.tiles()), 0, "{kind} is 0 on the goal");
    }
    // A heuristic stuck at 0 would pass every check above: each must carry real information.
    let total: u64 = states
        .iter()
        .map(|b| u64::from(dist[&key(b.tiles())]))
        .sum();
    for ((kind, _), sum) in built.iter().zip(&sums) {
        assert!(
            sum * 5 > total,
            "{kind} averages under a fifth of the true distance"
        );
    }
}

#[test]
fn heuristics_admissible_and_consistent_on_every_8_puzzle_state() {
    check_heuristics_exhaustively(&Board::solved(3, 3).unwrap());
}

#[test]
fn heuristics_admissible_and_consistent_for_other_goals() {
    // Korf's goal (blank first) and a goal with the blank in the middle.
    check_heuristics_exhaustively(&Board::parse("0 1 2/3 4 5/6 7 8").unwrap());
    check_heuristics_exhaustively(&Board::parse("8 6 7/2 0 4/3 5 1").unwrap());
}

#[test]
fn heuristics_admissible_and_consistent_on_4x2_and_2x4() {
    check_heuristics_exhaustively(&Board::solved(4, 2).unwrap());
    check_heuristics_exhaustively(&Board::solved(2, 4).unwrap());
}

/// Solves as asked (`None`: as the planner chooses) and checks the length against BFS truth.
fn check_solve_with(
    tables: &Tables,
    board: &Board,
    goal: &Board,
    d: u8,
    algorithm: Option<Algorithm>,
    heuristic: Option<HeuristicKind>,
) {
    let request = Request::new(board.clone(), goal.clone(), Limits::none()).unwrap();
    let options = SolveOptions {
        algorithm,
        heuristic,
        ..SolveOptions::default()
    };
    let s = solve(&request, &options, tables, None).unwrap();
    assert_eq!(
        s.len(),
        usize::from(d),
        "{} on {board:?} -> {goal:?}",
        s.plan
    );
    assert!(s.optimal, "{}", s.plan);
    assert_eq!(s.lower_bound, u64::from(d));
    s.verify(board, goal).unwrap();
}

/// Solves with `algorithm` and `heuristic` and checks the length against BFS truth.
fn check_solve(board: &Board, goal: &Board, d: u8, algorithm: Algorithm, heuristic: HeuristicKind) {
    thread_local!(static TABLES: Tables = Tables::in_memory());
    TABLES.with(|t| check_solve_with(t, board, goal, d, Some(algorithm), Some(heuristic)));
}

/// Solves with the planner's default, as a single board and as one of many, and checks it.
fn check_default(tables: &Tables, board: &Board, goal: &Board, d: u8) {
    check_solve_with(tables, board, goal, d, None, None);
    check_solve_with(tables, board, goal, d, Some(Algorithm::AStar), None);
}

#[test]
fn every_optimal_search_matches_bfs_on_all_4x2_and_2x4_states() {
    for goal in [
        Board::solved(4, 2).unwrap(),
        Board::parse("1 2/3 4/5 6/7 0").unwrap(),
        Board::parse("7 6 5 4/3 2 1 0").unwrap(),
    ] {
        let (dist, states) = distances(&goal);
        let tables = Tables::in_memory();
        for b in &states {
            let d = dist[&key(b.tiles())];
            check_default(&tables, b, &goal, d);
            check_solve(
                b,
                &goal,
                d,
                Algorithm::IdaStar,
                HeuristicKind::WalkingDistance,
            );
            check_solve(b, &goal, d, Algorithm::AStar, HeuristicKind::LinearConflict);
        }
        // every other pairing on a sample
        let mut rng = Rng::new(42);
        for _ in 0..60 {
            let b = &states[rng.below(states.len())];
            let d = dist[&key(b.tiles())];
            for h in HeuristicKind::ALL {
                check_solve(b, &goal, d, Algorithm::IdaStar, h);
                check_solve(b, &goal, d, Algorithm::AStar, h);
            }
            check_solve(b, &goal, d, Algorithm::Bfs, HeuristicKind::Manhattan);
        }
    }
}

#[test]
fn astar_and_idastar_match_bfs_on_a_large_8_puzzle_sample() {
    for goal in [
        Board::solved(3, 3).unwrap(),
        Board::parse("0 1 2/3 4 5/6 7 8").unwrap(),
    ] {
        let (dist, states) = distances(&goal);
        let mut rng = Rng::new(2026);
        let mut sample: Vec<&Board> = (0..400).map(|_| &states[rng.below(states.len())]).collect();
        // the hardest states of this goal, whatever it is
        let max = *dist.values().max().unwrap();
        sample.extend(states.iter().filter(|b| dist[&key(b.tiles())] == max));
        let tables = Tables::in_memory();
        for b in sample {
            let d = dist[&key(b.tiles())];
            check_default(&tables, b, &goal, d);
            for h in [
                HeuristicKind::Manhattan,
                HeuristicKind::LinearConflict,
                HeuristicKind::WalkingDistance,
            ] {
                check_solve(b, &goal, d, Algorithm::IdaStar, h);
                check_solve(b, &goal, d, Algorithm::AStar, h);
            }
        }
        // the weakest heuristic and BFS on fewer, as they are slow on long solutions
        for b in states.iter().step_by(4001) {
            let d = dist[&key(b.tiles())];
            check_solve(b, &goal, d, Algorithm::AStar, HeuristicKind::Misplaced);
            check_solve(b, &goal, d, Algorithm::IdaStar, HeuristicKind::Misplaced);
            check_solve(b, &goal, d, Algorithm::Bfs, HeuristicKind::Manhattan);
        }
    }
}

#[test]
fn the_8_puzzle_has_diameter_31_from_the_standard_goal() {
    let (dist, states) = distances(&Board::solved(3, 3).unwrap());
    assert_eq!(states.len(), 181_440);
    assert_eq!(*dist.values().max().unwrap(), 31);
    // exactly two states are 31 moves away; the article's board is one of them
    assert_eq!(dist.values().filter(|&&d| d == 31).count(), 2);
    let article = Board::parse("6 4 7/8 5 0/3 2 1").unwrap();
    assert_eq!(dist[&key(article.tiles())], 31);
}
