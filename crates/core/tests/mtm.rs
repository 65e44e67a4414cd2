//! The multi-tile metric against ground truth: a plain breadth-first search in MTM over every
//! state of the 8-puzzle (and of the 4x2 and 2x4 boards), written here independently of the
//! library's searches.

mod common;

use std::collections::{HashMap, VecDeque};

use std::sync::Arc;

use common::scratch_dir;
use taquin::gods_number::gods_number;
use taquin::metric::{metrics, Metric};
use taquin::mtm::pdb::MtmPdb;
use taquin::mtm::sets::{planned_solver, MtmSet};
use taquin::mtm::{solve_mtm, MtmSolver};
use taquin::pdb::PatternSpec;
use taquin::{verify_moves, Board, LimitHit, Limits, Move, SolveError, Tables};

/// Every state reachable from `goal` with its MTM distance: a slide of 1 to side-1 tiles in a
/// line is one move.
fn mtm_distances(goal: &Board) -> HashMap<Board, u32> {
    let mut dist = HashMap::from([(goal.clone(), 0)]);
    let mut queue = VecDeque::from([goal.clone()]);
    while let Some(b) = queue.pop_front() {
        let d = dist[&b];
        for m in Move::ALL {
            let mut next = b.clone();
            while next.apply(m) {
                if !dist.contains_key(&next) {
                    dist.insert(next.clone(), d + 1);
                    queue.push_back(next.clone());
                }
            }
        }
    }
    dist
}

fn check_board(width: usize, height: usize, every: usize) {
    let goal = Board::solved(width, height).unwrap();
    let dist = mtm_distances(&goal);
    // The two-bit search agrees with the plain one, layer by layer.
    let mut layers = vec![0u64; *dist.values().max().unwrap() as usize + 1];
    for &d in dist.values() {
        layers[d as usize] += 1;
    }
    let bits = gods_number(&goal, Metric::Mtm, 2, &Limits::none(), None).unwrap();
    assert_eq!(bits.distribution, layers, "{width}x{height}");
    // The bound is admissible on every state, and IDA* in MTM optimal on a sample spread
    // over every distance.
    let solver = MtmSolver::new(&goal);
    for (board, &d) in &dist {
        assert!(solver.lower_bound(board) <= d, "{}", board.to_line());
    }
    let mut boards: Vec<(&Board, &u32)> = dist.iter().collect();
    boards.sort_by_key(|(b, _)| b.tiles().to_vec());
    for (board, &d) in boards.into_iter().step_by(every) {
        let s = solver.solve(board, &Limits::none(), None).unwrap();
        verify_moves(board, &goal, &s.moves).unwrap();
        let (stm, mtm) = metrics(&s.moves);
        assert_eq!(mtm as u32, d, "{}", board.to_line());
        assert!(stm >= mtm);
    }
    for board in &bits.antipodes {
        let s = solver.solve(board, &Limits::none(), None).unwrap();
        assert_eq!(Metric::Mtm.length(&s.moves), bits.diameter());
    }
    check_databases(&goal, &dist, every);
}

/// Partial multi-tile pattern databases (tiles in reading order, in groups of 3, and one of
/// 4 overlapping them) are admissible alone and together on every state, read straight and
/// transposed, and IDA* with them stays optimal; a table of every tile is the exact distance.
fn check_databases(goal: &Board, dist: &HashMap<Board, u32>, every: usize) {
    let (w, h) = (goal.width(), goal.height());
    let cells: Vec<usize> = (0..goal.len()).filter(|&c| c != goal.blank()).collect();
    let mut groups: Vec<Vec<usize>> = cells.chunks(3).map(<[usize]>::to_vec).collect();
    groups.push(cells[cells.len() - 4..].to_vec());
    let build = |cells: Vec<usize>| {
        let spec = PatternSpec::new(w, h, goal.blank(), cells).unwrap();
        Arc::new(MtmPdb::build(&spec, &Limits::none(), 2, None).unwrap())
    };
    let dbs: Vec<Arc<MtmPdb>> = groups.into_iter().map(build).collect();
    let solver = MtmSolver::with_databases(goal, dbs.clone());
    let parallel = solver.clone().with_threads(2);
    let wd_only = MtmSolver::new(goal);
    let mut stronger = 0;
    for (board, &d) in dist {
        let bound = solver.lower_bound(board);
        assert!(bound <= d, "{} {bound} > {d}", board.to_line());
        for db in &dbs {
            let cells = db
                .spec()
                .cells
                .iter()
                .map(|&c| board.positions()[goal.tiles()[c] as usize]);
            assert!(db.distance(board.blank(), cells) <= d);
        }
        stronger += usize::from(bound > wd_only.lower_bound(board));
    }
    // The tables must add something, or this test would not test them.
    assert!(stronger > dist.len() / 10, "{stronger} of {}", dist.len());
    let mut boards: Vec<(&Board, &u32)> = dist.iter().collect();
    boards.sort_by_key(|(b, _)| b.tiles().to_vec());
    for (board, &d) in boards.into_iter().skip(1).step_by(every * 4) {
        let s = solver.solve(board, &Limits::none(), None).unwrap();
        verify_moves(board, goal, &s.moves).unwrap();
        assert_eq!(
            Metric::Mtm.length(&s.moves) as u32,
            d,
            "{}",
            board.to_line()
        );
        // Two threads find the same moves.
        let p = parallel.solve(board, &Limits::none(), None).unwrap();
        assert_eq!(p.moves, s.moves, "{}", board.to_line());
    }
    let exact = build(cells);
    for (board, &d) in dist {
        let cells = exact
            .spec()
            .cells
            .iter()
            .map(|&c| board.positions()[goal.tiles()[c] as usize]);
        assert_eq!(
            exact.distance(board.blank(), cells),
            d,
            "{}",
            board.to_line()
        );
    }
}

#[test]
fn the_planned_tables_solve_and_are_saved_under_their_own_names() {
    let scratch = scratch_dir("mtm-planned");
    let dir = scratch.path();
    let tables = Tables::open(dir);
    let goal = Board::solved(3, 3).unwrap();
    let plan = planned_solver(&goal, &tables, &Limits::none(), None).unwrap();
    assert_eq!(plan.heuristic, "mtm:8+walking-distance-mtm");
    assert!(
        plan.explain().ends_with("for 3x3, built once and saved"),
        "{}",
        plan.explain()
    );
    let solver = plan.solver;
    let board = Board::parse("8 7 6/5 4 3/2 1 0").unwrap();
    let s = solver.solve(&board, &Limits::none(), None).unwrap();
    assert_eq!(
        solver.lower_bound(&board) as usize,
        Metric::Mtm.length(&s.moves)
    );
    assert!(MtmSet::Quick.is_on_disk(&goal, &tables));
    let names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        names
            .iter()
            .all(|n| n.starts_with("mtm-") && n.ends_with(".mtm")),
        "{names:?}"
    );
    // Read back from the file, the same solver.
    let again = planned_solver(&goal, &tables, &Limits::none(), None).unwrap();
    assert!(
        again.reason.ends_with("for 3x3 on disk"),
        "{}",
        again.reason
    );
    assert_eq!(again.solver.lower_bound(&board), solver.lower_bound(&board));
}

/// The limit a plan or solve stopped at, when it stopped before any search (bound 0).
fn set_up_limit<T>(result: Result<T, SolveError>) -> LimitHit {
    match result {
        Err(SolveError::Limit { hit, bound: 0, .. }) => hit,
        Err(err) => panic!("expected a limit before the search, got {err:?}"),
        Ok(_) => panic!("expected a limit before the search, got a result"),
    }
}

#[test]
fn the_24_puzzle_mtm_plan_stops_at_limits_already_met_with_or_without_its_tables() {
    let scratch = scratch_dir("mtm-limits");
    let dir = scratch.path();
    let tables = Tables::open(dir);
    let goal = Board::solved(5, 5).unwrap();
    let board =
        Board::parse("14 20 24 6 12/4 22 1 19 18/8 21 7 10 11/23 9 16 0 13/5 2 15 17 3").unwrap();
    let cancelled = Limits::none().with_cancel(Arc::new(true.into()));
    let past = Limits::none().with_timeout(std::time::Duration::from_nanos(1));
    let no_memory = Limits::none().with_max_memory(100_000);
    let files = || std::fs::read_dir(dir).map_or(0, |d| d.count());
    // Nothing on disk: each stops before its first table, and nothing is saved.
    let plan = |limits: &Limits| planned_solver(&goal, &tables, limits, None);
    assert_eq!(set_up_limit(plan(&cancelled)), LimitHit::Cancelled);
    assert_eq!(set_up_limit(plan(&past)), LimitHit::Time);
    assert_eq!(set_up_limit(plan(&no_memory)), LimitHit::Memory);
    assert_eq!(files(), 0);
    // The quick tables on disk (3 tiles each: 303,600 entries): the plan reads them, and
    // builds no walking-distance table (the 24-puzzle's have too many count tables).
    let ready = plan(&Limits::none()).unwrap();
    assert_eq!(
        ready.heuristic, "mtm:3-3-3-3-3-3-3-3+walking-distance-mtm",
        "{}",
        ready.reason
    );
    assert_eq!(files(), 8);
    // Read from disk, the plan still stops at the limits (it built the walking-distance
    // tables for seconds, whatever the limits, before it returned).
    assert_eq!(set_up_limit(plan(&cancelled)), LimitHit::Cancelled);
    assert_eq!(set_up_limit(plan(&past)), LimitHit::Time);
    assert_eq!(set_up_limit(plan(&no_memory)), LimitHit::Memory);
    // The search stops at them too, and so does the one-call solve.
    let stopped = ready.solver.solve(&board, &cancelled, None);
    assert!(
        matches!(
            stopped,
            Err(SolveError::Limit {
                hit: LimitHit::Cancelled,
                ..
            })
        ),
        "{stopped:?}"
    );
    assert_eq!(
        set_up_limit(solve_mtm(&board, &goal, &cancelled, None)),
        LimitHit::Cancelled
    );
}

#[test]
fn eight_puzzle_mtm_is_optimal_against_bfs() {
    check_board(3, 3, 5);
}

#[test]
fn two_by_four_mtm_is_optimal_against_bfs() {
    check_board(4, 2, 5);
    check_board(2, 4, 5);
}
