//! Pattern databases against ground truth.
//!
//! - Every entry of small databases equals the distance found by a plain 0-1 breadth-first
//!   search over (pattern placement, blank cell), written here independently of the builder.
//! - On all 181,440 states of the 8-puzzle (two goals): the complete database is the exact
//!   distance; partitions are admissible, with and without reflection; the incremental update
//!   always equals a fresh computation.
//! - Files: a round trip keeps every byte; damage, truncation, a foreign file and a bad magic
//!   are each rejected with a clear error, and the cache rebuilds rather than trusts them.
//! - Search: the databases solve boards optimally; parallel IDA* returns the very moves of the
//!   sequential one.

mod common;

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use common::scratch_dir;
use taquin::heuristic::{Heuristic, Incremental};
use taquin::pdb::{
    self, build, index, store, BuildPolicy, PatternDb, PatternSpec, PdbError, PdbHeuristic,
};
use taquin::search::{idastar, idastar_parallel};
use taquin::{
    solve, Algorithm, Board, HeuristicKind, Limits, Move, Request, Solution, SolveError,
    SolveOptions, Tables, Workload,
};

/// Solves `board` -> `goal` through the front door with the tables of `tables`.
fn solve_with(
    tables: &Tables,
    board: &Board,
    goal: &Board,
    options: &SolveOptions,
) -> Result<Solution, SolveError> {
    let request = Request::new(board.clone(), goal.clone(), Limits::none())?;
    solve(&request, options, tables, None)
}

/// Pattern cost of every placement by 0-1 BFS over (cells of the pattern tiles, blank cell):
/// moving the blank onto a pattern tile costs 1, onto any other cell 0.
fn truth(spec: &PatternSpec) -> HashMap<Vec<usize>, u32> {
    let (w, h) = (spec.width, spec.height);
    let n = w * h;
    let start = (spec.cells.clone(), spec.blank_goal);
    let mut dist: HashMap<(Vec<usize>, usize), u32> = HashMap::new();
    let mut queue = VecDeque::new();
    dist.insert(start.clone(), 0);
    queue.push_back(start);
    while let Some((cells, blank)) = queue.pop_front() {
        let d = dist[&(cells.clone(), blank)];
        let (r, c) = (blank / w, blank % w);
        let mut next = vec![];
        if r > 0 {
            next.push(blank - w);
        }
        if r + 1 < h {
            next.push(blank + w);
        }
        if c > 0 {
            next.push(blank - 1);
        }
        if c + 1 < w {
            next.push(blank + 1);
        }
        for to in next {
            let mut cells2 = cells.clone();
            let cost = match cells.iter().position(|&x| x == to) {
                Some(i) => {
                    cells2[i] = blank;
                    1
                }
                None => 0,
            };
            let state = (cells2, to);
            let nd = d + cost;
            if dist.get(&state).is_none_or(|&old| nd < old) {
                dist.insert(state.clone(), nd);
                if cost == 0 {
                    queue.push_front(state);
                } else {
                    queue.push_back(state);
                }
            }
        }
    }
    assert!(n > spec.cells.len());
    let mut best: HashMap<Vec<usize>, u32> = HashMap::new();
    for ((cells, _), d) in dist {
        let e = best.entry(cells).or_insert(d);
        *e = (*e).min(d);
    }
    best
}

#[test]
fn every_entry_equals_the_breadth_first_truth() {
    let specs = [
        PatternSpec::new(3, 3, 8, vec![0, 1, 2, 3]).unwrap(),
        PatternSpec::new(3, 2, 5, vec![0, 1, 2, 3, 4]).unwrap(),
        PatternSpec::new(3, 3, 0, vec![8, 7, 5]).unwrap(),
        PatternSpec::new(3, 3, 4, vec![0, 2, 6, 8, 1]).unwrap(),
        PatternSpec::new(4, 2, 0, vec![1, 2, 5, 6]).unwrap(),
        PatternSpec::new(2, 4, 7, vec![0, 1, 2]).unwrap(),
        PatternSpec::new(4, 3, 11, vec![0, 1, 5]).unwrap(),
        PatternSpec::new(4, 4, 0, vec![1, 2, 3]).unwrap(),
        PatternSpec::new(4, 4, 15, vec![12, 13, 8]).unwrap(),
        PatternSpec::new(5, 2, 9, vec![0, 1, 2, 5]).unwrap(),
        // Layer 9 of this one reaches no new placement, yet layer 10 does (a search that
        // stopped at the first layer without a new placement left one entry at 0).
        PatternSpec::new(2, 4, 3, vec![0, 1]).unwrap(),
        PatternSpec::new(2, 5, 0, vec![8, 9]).unwrap(),
        // Left-right symmetric, as the 7-8 databases' 8-tile pattern: half is searched.
        PatternSpec::new(4, 4, 0, vec![12, 13, 14, 15]).unwrap(),
        PatternSpec::new(4, 3, 0, vec![8, 9, 10, 11, 5, 6]).unwrap(),
    ];
    for spec in specs {
        let truth = truth(&spec);
        for threads in [1, 2] {
            let db = build(&spec, threads, None, &taquin::Limits::none()).unwrap();
            let n = spec.board_cells();
            let k = spec.cells.len();
            let mut cells = vec![0; k];
            let mut checked = 0;
            for idx in 0..spec.entries() {
                index::unrank(idx, n, &mut cells);
                if let Some(&d) = truth.get(&cells) {
                    assert_eq!(db.value(&cells, 0), d, "{spec} at {cells:?}");
                    checked += 1;
                }
            }
            // Every placement is reachable, except half of them when the pattern is complete.
            let expected = if k + 1 == n {
                spec.entries() / 2
            } else {
                spec.entries()
            };
            assert_eq!(checked, expected, "{spec}");
        }
    }
}

/// Every state of the 3x3 board with its distance to `goal`, by BFS over the real puzzle.
fn all_distances(goal: &Board) -> Vec<(Vec<u32>, u32)> {
    // A state's slot: the rank of its tiles' cells, as the databases rank placements.
    let slot = |b: &Board| index::rank(b.positions(), 9) as usize;
    let mut seen = vec![false; 362_880];
    let mut out = vec![(goal.tiles().to_vec(), 0)];
    seen[slot(goal)] = true;
    let mut queue = VecDeque::from([(goal.clone(), 0u32)]);
    while let Some((b, d)) = queue.pop_front() {
        for m in Move::ALL {
            if let Some(next) = b.moved(m) {
                let i = slot(&next);
                if !seen[i] {
                    seen[i] = true;
                    out.push((next.tiles().to_vec(), d + 1));
                    queue.push_back((next, d + 1));
                }
            }
        }
    }
    assert_eq!(out.len(), 181_440);
    out
}

fn heuristic(goal: &Board, groups: &str, reflect: bool) -> PdbHeuristic {
    let dbs = pdb::partition_from_tiles(goal, groups)
        .unwrap()
        .iter()
        .map(|s| Arc::new(build(s, 2, None, &taquin::Limits::none()).unwrap()))
        .collect();
    PdbHeuristic::new(goal, dbs, reflect).unwrap()
}

/// The same databases, zero-aware: a value for each region of the blank.
fn zero_aware_heuristic(goal: &Board, groups: &str, reflect: bool) -> PdbHeuristic {
    let dbs = pdb::partition_from_tiles(goal, groups)
        .unwrap()
        .into_iter()
        .map(|s| Arc::new(build(&s.zero_aware(), 2, None, &taquin::Limits::none()).unwrap()))
        .collect();
    PdbHeuristic::new(goal, dbs, reflect).unwrap()
}

/// Zero-aware tables count from the blank's own region: every value is admissible and at least
/// the plain table's, and the heuristic is consistent (a tile's move changes its pattern's value
/// by one, a move of the blank within a region changes nothing), which the minimum over the
/// regions is not. Checked on every state of the 8-puzzle for two goals, with the incremental
/// update after every move.
#[test]
fn zero_aware_tables_are_admissible_consistent_and_at_least_the_plain_ones() {
    for goal in [
        "1 2 3/4 5 6/7 8 0",
        "0 1 2/3 4 5/6 7 8",
        "1 2 3/4 0 5/6 7 8",
    ] {
        let goal = Board::parse(goal).unwrap();
        let dist = all_distances(&goal);
        for (groups, reflect) in [
            ("1 2 3 4/5 6 7 8", true),
            ("1 5 8/2 3", false),
            ("2 4 6 8/1 3 5 7", true),
        ] {
            let zero = zero_aware_heuristic(&goal, groups, reflect);
            let plain = heuristic(&goal, groups, reflect);
            // What the search's lazy reads rely on (Incremental::update_within).
            assert!(zero.consistent() && !plain.consistent());
            let mut stronger = 0;
            for (tiles, d) in &dist {
                let (z, aux) = zero.init(tiles);
                let p = plain.init(tiles).0;
                assert!(
                    z <= *d,
                    "inadmissible: {z} > {d} on {tiles:?} ({goal}, {groups})"
                );
                assert!(
                    z >= p,
                    "weaker than the plain table: {z} < {p} on {tiles:?}"
                );
                stronger += usize::from(z > p);
                assert_eq!(zero.estimate(tiles), z);
                let board = Board::from_tiles(3, 3, tiles.clone()).unwrap();
                for m in Move::ALL {
                    let Some(next) = board.moved(m) else { continue };
                    let (to, from) = (board.blank(), next.blank());
                    let mut a = aux;
                    let u = zero.update(next.tiles(), next.tiles()[to], from, to, z, &mut a);
                    assert_eq!(u, zero.init(next.tiles()).0, "incremental differs");
                    assert!(u.abs_diff(z) <= 1, "inconsistent: {z} -> {u} on {tiles:?}");
                    check_update_within(&zero, &board, m, z, aux, u, a);
                }
            }
            assert!(
                stronger > 1000,
                "{goal} {groups}: stronger on only {stronger} states"
            );
        }
    }
}

/// Two partitions combined (the larger of their values) stay admissible and at least each
/// one alone, and the incremental value after every move equals the one from scratch; with
/// plain tables (whose index steps look at the tiles a vertical move passes, in the moved
/// tile's own partition) and with zero-aware ones. Every state of the 8-puzzle, two goals.
#[test]
fn two_partitions_combined_are_admissible_and_at_least_each_alone() {
    for goal in ["1 2 3/4 5 6/7 8 0", "0 1 2/3 4 5/6 7 8"] {
        let goal = Board::parse(goal).unwrap();
        let dist = all_distances(&goal);
        let tables = |groups: &str, zero_aware: bool| -> Vec<Arc<taquin::pdb::PatternDb>> {
            pdb::partition_from_tiles(&goal, groups)
                .unwrap()
                .into_iter()
                .map(|s| {
                    let s = if zero_aware { s.zero_aware() } else { s };
                    Arc::new(build(&s, 2, None, &taquin::Limits::none()).unwrap())
                })
                .collect()
        };
        let (a, b) = ("1 2 3 4/5 6 7 8", "1 4 7/2 5 8/3 6");
        for zero_aware in [false, true] {
            let both: PdbHeuristic = PdbHeuristic::of_partitions(
                &goal,
                vec![tables(a, zero_aware), tables(b, zero_aware)],
                true,
            )
            .unwrap();
            let first: PdbHeuristic =
                PdbHeuristic::new(&goal, tables(a, zero_aware), true).unwrap();
            let second: PdbHeuristic =
                PdbHeuristic::new(&goal, tables(b, zero_aware), true).unwrap();
            // The lighter heuristic the beams rank by: the first partition alone, from the
            // same tables; a single partition has none.
            let lighter = both
                .lighter()
                .expect("two partitions have a lighter heuristic");
            assert!(first.lighter().is_none());
            let mut above_both = 0;
            for (tiles, d) in &dist {
                let (v, aux) = both.init(tiles);
                let (x, y) = (first.init(tiles).0, second.init(tiles).0);
                assert!(v <= *d, "inadmissible: {v} > {d} on {tiles:?}");
                assert_eq!(v, x.max(y), "{tiles:?}");
                let (l, light_aux) = lighter.init(tiles);
                assert_eq!(
                    l, x,
                    "the lighter heuristic is the first partition: {tiles:?}"
                );
                above_both += usize::from(x != y);
                let board = Board::from_tiles(3, 3, tiles.clone()).unwrap();
                for m in Move::ALL {
                    let Some(next) = board.moved(m) else { continue };
                    let (to, from) = (board.blank(), next.blank());
                    let mut after = aux;
                    let u = both.update(next.tiles(), next.tiles()[to], from, to, v, &mut after);
                    assert_eq!(u, both.init(next.tiles()).0, "incremental differs");
                    check_update_within(&both, &board, m, v, aux, u, after);
                    let mut light_after = light_aux;
                    let lu = lighter.update(
                        next.tiles(),
                        next.tiles()[to],
                        from,
                        to,
                        l,
                        &mut light_after,
                    );
                    assert_eq!(lu, first.init(next.tiles()).0, "lighter, incremental");
                }
            }
            assert!(
                above_both > 1000,
                "the partitions differ on {above_both} states only"
            );
        }
    }
}

/// [`Incremental::update_within`] after `board` moved `m` (its value `v`, state `aux`;
/// `update` gave `u` and `after`), for limits up to `u`: past the limit, a value past it
/// and at most `u`; within it, `u`, with `after`'s state, which values every next move alike.
fn check_update_within(
    h: &PdbHeuristic,
    board: &Board,
    m: Move,
    v: u32,
    aux: <PdbHeuristic as Incremental>::Aux,
    u: u32,
    after: <PdbHeuristic as Incremental>::Aux,
) {
    let next = board.moved(m).unwrap();
    let (to, from) = (board.blank(), next.blank());
    // Two limits that cut the child off and one that does not.
    for limit in u.saturating_sub(2)..=u {
        let mut within = aux;
        let w = h.update_within(
            next.tiles(),
            next.tiles()[to],
            from,
            to,
            v,
            &mut within,
            limit,
        );
        if u > limit {
            assert!(w > limit && w <= u, "limit {limit}: {w}, full {u}");
            continue;
        }
        assert_eq!(w, u, "limit {limit}");
        assert_eq!(format!("{within:?}"), format!("{after:?}"), "limit {limit}");
        for m2 in Move::ALL {
            let Some(third) = next.moved(m2) else {
                continue;
            };
            let (to2, from2) = (next.blank(), third.blank());
            let (mut x, mut y) = (after, within);
            let tile = third.tiles()[to2];
            assert_eq!(
                h.update(third.tiles(), tile, from2, to2, u, &mut x),
                h.update(third.tiles(), tile, from2, to2, w, &mut y),
                "the state update_within left differs"
            );
        }
    }
}

/// Zero-aware tables of `groups` (tiles of `goal`), built on two threads.
fn zero_aware_tables(goal: &Board, groups: &str) -> Vec<Arc<PatternDb>> {
    pdb::partition_from_tiles(goal, groups)
        .unwrap()
        .into_iter()
        .map(|s| Arc::new(build(&s.zero_aware(), 2, None, &taquin::Limits::none()).unwrap()))
        .collect()
}

/// A heuristic of more patterns than the default's eight (`PdbHeuristic<MAX_PATTERNS>`, whose
/// state has room for sixteen) gives what the default gives for the same partitions, on every
/// state of the 8-puzzle: two partitions of ten patterns together, the larger of their values;
/// and the two halves of an update (`prepare`, then `finish`, as a beam takes them) give what
/// `update` gives.
#[test]
fn a_heuristic_of_more_than_eight_patterns_equals_the_default_one() {
    let goal = Board::parse("0 1 2/3 4 5/6 7 8").unwrap();
    let dist = all_distances(&goal);
    let (a, b) = ("1 2 3 4/5 6 7 8", "1/2/3/4/5/6/7/8");
    let wide: PdbHeuristic<{ pdb::MAX_PATTERNS }> = PdbHeuristic::of_partitions(
        &goal,
        vec![zero_aware_tables(&goal, a), zero_aware_tables(&goal, b)],
        true,
    )
    .unwrap();
    let first: PdbHeuristic = PdbHeuristic::new(&goal, zero_aware_tables(&goal, a), true).unwrap();
    let second: PdbHeuristic = PdbHeuristic::new(&goal, zero_aware_tables(&goal, b), true).unwrap();
    // Ten patterns do not fit the default heuristic.
    assert!(PdbHeuristic::<{ pdb::NARROW_PATTERNS }>::of_partitions(
        &goal,
        vec![zero_aware_tables(&goal, a), zero_aware_tables(&goal, b)],
        true
    )
    .is_err());
    for (tiles, d) in &dist {
        let (v, aux) = wide.init(tiles);
        assert_eq!(
            v,
            first.init(tiles).0.max(second.init(tiles).0),
            "{tiles:?}"
        );
        assert!(v <= *d, "inadmissible: {v} > {d} on {tiles:?}");
        let board = Board::from_tiles(3, 3, tiles.clone()).unwrap();
        for m in Move::ALL {
            let Some(next) = board.moved(m) else { continue };
            let (to, from) = (board.blank(), next.blank());
            let tile = next.tiles()[to];
            let mut updated = aux;
            let u = wide.update(next.tiles(), tile, from, to, v, &mut updated);
            assert_eq!(u, wide.init(next.tiles()).0, "incremental differs");
            let mut halves = aux;
            let pending = wide.prepare(next.tiles(), tile, from, to, &aux);
            let f = wide.finish(next.tiles(), tile, from, to, v, &mut halves, &pending);
            assert_eq!(f, u, "prepare and finish differ from update");
            assert_eq!(
                wide.update(board.tiles(), tile, to, from, u, &mut halves),
                v
            );
        }
    }
}

/// The smallest state (`PdbHeuristic<SMALL_PATTERNS>`, which the solver takes for the
/// 15-puzzle's sets) gives what the default gives, from scratch and move by move, on every
/// state of the 8-puzzle; five patterns do not fit it.
#[test]
fn a_heuristic_of_the_small_size_equals_the_default_one() {
    let goal = Board::parse("0 1 2/3 4 5/6 7 8").unwrap();
    let groups = "1 2/3 4/5 6/7 8";
    let tables = zero_aware_tables(&goal, groups);
    let small: PdbHeuristic<{ pdb::SMALL_PATTERNS }> =
        PdbHeuristic::new(&goal, tables.clone(), true).unwrap();
    let default: PdbHeuristic = PdbHeuristic::new(&goal, tables, true).unwrap();
    assert!(PdbHeuristic::<{ pdb::SMALL_PATTERNS }>::new(
        &goal,
        zero_aware_tables(&goal, "1 2/3 4/5 6/7/8"),
        true
    )
    .is_err());
    for (tiles, _) in &all_distances(&goal) {
        let (v, aux) = small.init(tiles);
        let (w, default_aux) = default.init(tiles);
        assert_eq!(v, w, "{tiles:?}");
        let board = Board::from_tiles(3, 3, tiles.clone()).unwrap();
        for m in Move::ALL {
            let Some(next) = board.moved(m) else { continue };
            let (to, from) = (board.blank(), next.blank());
            let tile = next.tiles()[to];
            let (mut a, mut b) = (aux, default_aux);
            assert_eq!(
                small.update(next.tiles(), tile, from, to, v, &mut a),
                default.update(next.tiles(), tile, from, to, w, &mut b),
                "{tiles:?} then {m:?}"
            );
        }
    }
}

/// Boards of more than 32 cells: zero-aware tables of a 6x6 board (twelve small patterns) are
/// admissible against the optimal lengths of boards a few moves from the goal (IDA* with
/// Manhattan distance), update incrementally as computed from scratch along the way, and IDA*
/// with them finds paths of those lengths.
#[test]
fn pattern_databases_of_a_six_by_six_board_are_admissible_and_solve_optimally() {
    let goal = Board::parse(
        "0 1 2 3 4 5/6 7 8 9 10 11/12 13 14 15 16 17/18 19 20 21 22 23/24 25 26 27 28 29/30 31 32 33 34 35",
    )
    .unwrap();
    let groups = "1 6 7/2 3 8/4 5 9/10 11 17/12 13 18/14 15 16/19 20 21/22 23 29/24 25 30/26 27 28/31 32 33/34 35";
    let h: PdbHeuristic<{ pdb::MAX_PATTERNS }> =
        PdbHeuristic::new(&goal, zero_aware_tables(&goal, groups), true).unwrap();
    let manhattan = taquin::heuristic::Manhattan::new(&goal);
    for seed in 1..=12 {
        let board = random_walk(&goal, 30, seed);
        let truth = idastar(&board, &goal, &manhattan, &Limits::none(), None).unwrap();
        let value = h.estimate(board.tiles());
        assert!(
            value as usize <= truth.len(),
            "inadmissible: {value} > {} on {board}",
            truth.len()
        );
        assert!(value >= manhattan.estimate(board.tiles()));
        let solved = idastar(&board, &goal, &h, &Limits::none(), None).unwrap();
        assert_eq!(solved.len(), truth.len(), "{board}");
        let mut b = board.clone();
        b.apply_all(&solved.moves).unwrap();
        assert_eq!(b, goal);
        // The incremental value along the optimal path equals the one from scratch.
        let (mut v, mut aux) = h.init(board.tiles());
        let mut at = board.clone();
        for &m in &truth.moves {
            let next = at.moved(m).unwrap();
            let (from, to) = (next.blank(), at.blank());
            v = h.update(next.tiles(), next.tiles()[to], from, to, v, &mut aux);
            assert_eq!(v, h.init(next.tiles()).0);
            at = next;
        }
        assert_eq!(v, 0);
    }
}

/// The databases store the minimum over the blank's positions, so a partition's heuristic is
/// admissible but not always consistent (a move can lower it by more than one); IDA* and the
/// reopening A* stay optimal with it. The complete table is the exact distance.
#[test]
fn eight_puzzle_exhaustive_exact_admissible_incremental() {
    for goal in ["1 2 3/4 5 6/7 8 0", "0 1 2/3 4 5/6 7 8"] {
        let goal = Board::parse(goal).unwrap();
        let dist = all_distances(&goal);
        let complete = heuristic(&goal, "1 2 3 4 5 6 7 8", true);
        let split = heuristic(&goal, "1 2 3 4/5 6 7 8", true);
        let plain = heuristic(&goal, "1 2 3 4/5 6 7 8", false);
        let odd = heuristic(&goal, "1 5 8/2 3", true);
        assert!(complete.reflects() && split.reflects() && !plain.reflects());
        let mut stronger = 0;
        for (tiles, d) in &dist {
            let d = *d;
            assert_eq!(complete.init(tiles).0, d, "{tiles:?}");
            let board = Board::from_tiles(3, 3, tiles.clone()).unwrap();
            let p = plain.init(tiles).0;
            assert!(p <= d, "inadmissible: {p} > {d} on {tiles:?}");
            for h in [&split, &odd, &plain] {
                let (v, aux) = h.init(tiles);
                assert!(v <= d, "inadmissible: {v} > {d} on {tiles:?}");
                for m in Move::ALL {
                    let Some(next) = board.moved(m) else { continue };
                    let to = board.blank();
                    let from = next.blank();
                    let tile = next.tiles()[to];
                    let mut a = aux;
                    let u = h.update(next.tiles(), tile, from, to, v, &mut a);
                    assert_eq!(u, h.init(next.tiles()).0, "incremental differs");
                    check_update_within(h, &board, m, v, aux, u, a);
                }
            }
            if split.init(tiles).0 > p {
                stronger += 1;
            }
        }
        // The reflected lookup must actually add something.
        assert!(
            stronger > 1000,
            "reflection helped on only {stronger} states"
        );
    }
}

#[test]
fn files_round_trip_and_damage_is_rejected() {
    let scratch = scratch_dir("pdb-files");
    let dir = scratch.path();
    let spec = PatternSpec::new(4, 4, 0, vec![1, 2, 3, 4]).unwrap();
    let db = build(&spec, 2, None, &taquin::Limits::none()).unwrap();
    let path = store::path_in(dir, &spec);
    store::save(&db, &path).unwrap();
    let back = store::load(&path, Some(&spec)).unwrap();
    assert_eq!(back, db);
    assert_eq!(store::info(&path).unwrap().spec, spec);

    let bytes = std::fs::read(&path).unwrap();
    let check = |bytes: &[u8], expect: &str| {
        std::fs::write(&path, bytes).unwrap();
        match store::load(&path, Some(&spec)) {
            Err(PdbError::Corrupt { reason, .. }) => {
                assert!(reason.contains(expect), "{reason:?} lacks {expect:?}")
            }
            other => panic!("accepted a bad file: {other:?}"),
        }
    };
    let mut flipped = bytes.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 0x10;
    check(&flipped, "checksum");
    check(&bytes[..bytes.len() - 3], "truncated");
    let mut magic = bytes.clone();
    magic[0] = b'X';
    check(&magic, "magic");
    let mut version = bytes.clone();
    version[8] = 9;
    check(&version, "version");
    check(b"short", "too short");
    // A valid file of another pattern under this pattern's name.
    let other = PatternSpec::new(4, 4, 0, vec![5, 6, 7, 8]).unwrap();
    store::save(
        &build(&other, 1, None, &taquin::Limits::none()).unwrap(),
        &path,
    )
    .unwrap();
    check(&std::fs::read(&path).unwrap(), "built for");

    // A table handle never trusts the damaged file: it rebuilds and replaces it, unless told
    // not to build, when it says so.
    std::fs::write(&path, &flipped).unwrap();
    let tables = Tables::open(dir);
    let err = tables
        .database(&spec, BuildPolicy::Never, &taquin::Limits::none())
        .unwrap_err();
    assert!(err.to_string().contains("checksum"), "{err}");
    // With the command that builds it anew, and no promise that it is rebuilt by itself.
    assert!(
        err.to_string().contains("`taquin pdb build --size 4x4`"),
        "{err}"
    );
    assert!(!err.to_string().contains("rebuilt on next use"), "{err}");
    let rebuilt = tables
        .database(&spec, BuildPolicy::IfMissing, &taquin::Limits::none())
        .unwrap();
    assert_eq!(*rebuilt, db);
    assert_eq!(store::load(&path, Some(&spec)).unwrap(), db);
    assert!(store::load(&path, Some(&spec)).unwrap().is_mapped());

    // A handle keeps one copy; `forget` drops it and the next use maps the file again.
    let again = tables
        .database(&spec, BuildPolicy::Never, &taquin::Limits::none())
        .unwrap();
    assert!(Arc::ptr_eq(&rebuilt, &again));
    tables.forget(&spec);
    let reloaded = tables
        .database(&spec, BuildPolicy::Never, &taquin::Limits::none())
        .unwrap();
    assert!(!Arc::ptr_eq(&rebuilt, &reloaded));
    assert_eq!(*reloaded, db);

    // Something that is not a regular file under a table's name is refused, never opened
    // (a FIFO would block the reader forever).
    let fifo_dir = dir.join("fifo");
    std::fs::create_dir_all(store::path_in(&fifo_dir, &spec)).unwrap();
    let err = Tables::open(&fifo_dir)
        .database(&spec, BuildPolicy::Never, &taquin::Limits::none())
        .unwrap_err();
    assert!(err.to_string().contains("not a regular file"), "{err}");
}

#[test]
fn the_planner_rebuilds_a_damaged_set_it_builds_by_itself() {
    let scratch = scratch_dir("pdb-planner-damaged");
    let dir = scratch.path();
    let board = Board::parse("8 6 7/2 5 4/3 0 1").unwrap();
    let goal = Board::solved(3, 3).unwrap();
    let request = Request::new(board, goal.clone(), taquin::Limits::none()).unwrap();
    let first = solve(&request, &SolveOptions::default(), &Tables::open(dir), None).unwrap();
    assert_eq!(first.len(), 31);
    let files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "pdb"))
        .collect();
    assert!(!files.is_empty());
    for file in &files {
        std::fs::write(file, b"damaged").unwrap();
    }
    // On disk, so planned as such, but damaged: rejected and rebuilt, and the answer stands.
    let tables = Tables::open(dir);
    let again = solve(&request, &SolveOptions::default(), &tables, None).unwrap();
    assert_eq!((again.len(), again.optimal), (31, true));
    for file in &files {
        assert!(
            std::fs::metadata(file).unwrap().len() > 100,
            "{file:?} rebuilt"
        );
    }
}

#[test]
fn presets_solve_optimally_through_the_front_door() {
    let scratch = scratch_dir("pdb-solve");
    let dir = scratch.path();
    let tables = Tables::open(dir);
    let board = Board::parse("8 6 7/2 5 4/3 0 1").unwrap();
    let goal = Board::solved(3, 3).unwrap();
    for algorithm in [Algorithm::IdaStar, Algorithm::AStar] {
        let options = SolveOptions::new(algorithm, HeuristicKind::from_name("pdb:8").unwrap());
        let s = solve_with(&tables, &board, &goal, &options).unwrap();
        assert_eq!(s.len(), 31);
    }
    let files = std::fs::read_dir(dir).unwrap().count();
    assert_eq!(
        files,
        1,
        "the 8-puzzle database was not saved in {}",
        dir.display()
    );
    // A preset on the wrong board is a clear error, not a panic.
    let err = solve_with(
        &tables,
        &Board::solved(4, 4).unwrap(),
        &Board::solved(4, 4).unwrap(),
        &SolveOptions::new(
            Algorithm::IdaStar,
            HeuristicKind::from_name("pdb:8").unwrap(),
        ),
    )
    .unwrap_err();
    assert!(err.to_string().contains("add up to 15"), "{err}");
    assert_eq!(
        HeuristicKind::from_name("pdb:7-8").unwrap().name(),
        "pdb:7-8"
    );
    assert!(HeuristicKind::from_name("pdb:9-x").is_none());
    assert!(!HeuristicKind::ALL
        .iter()
        .any(|k| matches!(k, HeuristicKind::Pdb(_))));
}

/// A 15-puzzle partition small enough for a debug-mode test: five patterns of three tiles.
fn small_fifteen(goal: &Board) -> PdbHeuristic {
    heuristic(goal, "1 2 3/4 5 6/7 8 9/10 11 12/13 14 15", true)
}

fn random_walk(goal: &Board, steps: usize, seed: u64) -> Board {
    let mut b = goal.clone();
    let mut x = seed;
    for _ in 0..steps {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        b.apply(Move::ALL[(x % 4) as usize]);
    }
    b
}

#[test]
fn parallel_idastar_returns_the_sequential_moves() {
    let goal = Board::parse("0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15").unwrap();
    let h = small_fifteen(&goal);
    for seed in 1..6u64 {
        let board = random_walk(&goal, 60, seed * 7919);
        let seq = idastar(&board, &goal, &h, &Limits::none(), None).unwrap();
        for threads in [2, 3] {
            let par = idastar_parallel(&board, &goal, &h, &Limits::none(), None, threads).unwrap();
            assert_eq!(par.moves, seq.moves, "seed {seed}, {threads} threads");
            par.verify(&board, &goal).unwrap();
        }
    }
    // Through the front door, and with the goal as the board.
    let tables = Tables::in_memory();
    let mut options = SolveOptions::new(Algorithm::IdaStar, HeuristicKind::Manhattan);
    options.threads = 2;
    let s = solve_with(&tables, &goal, &goal, &options).unwrap();
    assert!(s.is_empty());
    let board = random_walk(&goal, 40, 3);
    let s = solve_with(&tables, &board, &goal, &options).unwrap();
    options.threads = 1;
    assert_eq!(
        solve_with(&tables, &board, &goal, &options).unwrap().moves,
        s.moves
    );
    // A node limit stops the parallel search too.
    let hard = Board::parse("14 13 15 7/11 12 9 5/6 0 2 1/4 8 10 3").unwrap();
    let err = idastar_parallel(
        &hard,
        &goal,
        &h,
        &Limits::none().with_max_nodes(100_000),
        None,
        2,
    )
    .unwrap_err();
    assert!(err.is_limit());
}

#[test]
fn the_same_database_serves_relabelled_goals() {
    // Two goals with the blank on the same cell and pattern tiles on the same cells share files.
    let a = Board::parse("1 2 3/4 5 6/7 8 0").unwrap();
    let b = Board::parse("8 7 6/5 4 3/2 1 0").unwrap();
    let pa = pdb::PdbPreset::COMPLETE8.partition(&a).unwrap();
    let pb = pdb::PdbPreset::COMPLETE8.partition(&b).unwrap();
    assert_eq!(pa[0].file_name(), pb[0].file_name());
    let db: Arc<PatternDb> = Arc::new(build(&pb[0], 2, None, &taquin::Limits::none()).unwrap());
    let h: PdbHeuristic = PdbHeuristic::new(&b, vec![db], true).unwrap();
    let dist = all_distances(&b);
    for (tiles, d) in dist.iter().step_by(7) {
        assert_eq!(h.init(tiles).0, *d);
    }
}

/// Korf's instances (the easier ones kept in tests/data) with the 5-5-5 and 6-6-3 databases,
/// plain and zero-aware, built into a temporary directory (seconds in release mode), sequential
/// and parallel, and with the planner's default for one board and for many.
#[test]
fn korf_instances_with_5_5_5_and_6_6_3() {
    let scratch = scratch_dir("pdb-korf");
    let dir = scratch.path();
    let tables = Tables::open(dir);
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/korf_easy.txt"
    ))
    .unwrap();
    let instances = taquin::instances::parse_file(&text).unwrap();
    assert!(instances.len() >= 3);
    for name in [
        "pdb:5-5-5",
        "pdb:6-6-3",
        "zpdb:5-5-5",
        "zpdb:6-6-3",
        "zpdb:5-5-5+6-6-3",
    ] {
        let kind = HeuristicKind::from_name(name).unwrap();
        for inst in &instances {
            let mut options = SolveOptions::new(Algorithm::IdaStar, kind);
            let s = solve_with(&tables, &inst.board, &inst.goal, &options).unwrap();
            assert_eq!(
                Some(s.len() as u32),
                inst.optimal_length,
                "{name} #{}",
                inst.id
            );
            options.threads = 2;
            let p = solve_with(&tables, &inst.board, &inst.goal, &options).unwrap();
            assert_eq!(p.moves, s.moves, "{name} #{} parallel", inst.id);
        }
    }
    // Both sets are on disk now: the planner takes the larger, and says it is optimal.
    for workload in [Workload::One, Workload::Many] {
        let options = SolveOptions {
            workload,
            ..SolveOptions::default()
        };
        for inst in &instances {
            let s = solve_with(&tables, &inst.board, &inst.goal, &options).unwrap();
            assert_eq!(Some(s.len() as u32), inst.optimal_length, "{}", s.plan);
            assert!(s.optimal && s.heuristic == "pdb:6-6-3", "{}", s.plan);
        }
    }
}

/// A large set whose files are cut short (an interrupted copy, say) is passed over for the next
/// best choice, instead of being planned and then failing to load: the solve still answers.
#[test]
fn a_large_set_whose_files_are_cut_short_is_passed_over_by_the_planner() {
    let scratch = scratch_dir("pdb-planner-cut-short");
    let dir = scratch.path();
    let goal = Board::solved(4, 4).unwrap();
    let table_goal = taquin::symmetry::Symmetry::table_goal(&goal);
    let largest = taquin::planner::largest_set(4, 4).unwrap();
    for spec in largest.partition(&table_goal).unwrap() {
        std::fs::write(store::path_in(dir, &spec), b"cut short").unwrap();
    }
    let tables = Tables::open(dir);
    let board = Board::parse("1 2 3 4/5 6 7 8/9 10 0 11/13 14 15 12").unwrap();
    let request = Request::new(board, goal, Limits::none()).unwrap();
    let plan = taquin::plan(&request, &SolveOptions::default(), &tables).unwrap();
    assert_ne!(
        plan.heuristic,
        HeuristicKind::Pdb(largest),
        "{}",
        plan.explain()
    );
    let solution = plan.run(&request, &tables, None).unwrap();
    assert_eq!((solution.len(), solution.optimal), (2, true));
}

/// `HeuristicKind::build` reads the tables of the goal's table goal (a mirror or turn of it) on
/// each board's image, the tables the solver builds and uses: once those are on disk nothing
/// need be built (the web API's tree view builds nothing), and the complete 8-puzzle table
/// gives every board's exact distance to goals with the blank on any cell.
#[test]
fn a_pattern_heuristic_built_for_any_goal_reads_its_table_goals_tables() {
    let scratch = scratch_dir("pdb-table-goal");
    let dir = scratch.path();
    let tables = Tables::open(dir);
    let kind = HeuristicKind::parse("pdb:8").unwrap();
    let with = |algorithm, heuristic| SolveOptions {
        algorithm: Some(algorithm),
        heuristic,
        ..SolveOptions::default()
    };
    let mut rng = taquin::generate::Rng::new(5);
    for goal_text in [
        "1 2 3/4 5 6/7 8 0",
        "1 2 3/4 0 5/6 7 8",
        "1 0 2/3 4 5/6 7 8",
    ] {
        let goal = Board::parse(goal_text).unwrap();
        let board = taquin::generate::uniform(&goal, &mut rng);
        // The solver builds the tables it uses.
        solve_with(
            &tables,
            &board,
            &goal,
            &with(Algorithm::IdaStar, Some(kind)),
        )
        .unwrap();
        let h = kind
            .build(&goal, &tables, BuildPolicy::Never, &Limits::none())
            .unwrap();
        for _ in 0..5 {
            let board = taquin::generate::uniform(&goal, &mut rng);
            let exact = solve_with(&tables, &board, &goal, &with(Algorithm::Bfs, None)).unwrap();
            assert_eq!(
                h.estimate(board.tiles()) as usize,
                exact.len(),
                "{goal_text}: {board:?}"
            );
        }
    }
}
