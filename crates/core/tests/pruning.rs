//! The optimal search's extra pruning and lookups against ground truth.
//!
//! - The dual lookup (added by hand, [`PdbHeuristic::with_dual`]: the solver goes without it)
//!   is admissible on every state of the 8-puzzle and of the 4x2 and 2x4 boards, for complete
//!   and partial partitions and for several goals (blank in a corner, in the middle, on an
//!   edge), and it raises the values (it is in use). Cached and lazy, along random walks (each
//!   move by `update` or by `prepare` and `finish`), it gives what a lookup from scratch
//!   gives; with it and BPMX, IDA* finds the BFS distance and generates fewer nodes.
//! - IDA* with every pruning ([`Pruning::full`]: the learned duplicate automaton and BPMX)
//!   finds the BFS distance from every 8-puzzle state, the lengths plain IDA* finds on random
//!   4x3 and 3x5 boards, and generates fewer nodes than plain IDA*; on two and three threads
//!   it returns the sequential search's moves. The automaton of 12-move duplicates (that of
//!   boards past 9 cells) keeps the BFS distance from every state of the 8-puzzle and of the
//!   2x4 and 4x2 boards too.
//! - The pattern databases' lazy reads ([`Incremental::update_within`]) search the same nodes
//!   as reading every table.
//!
//! Run in release (`cargo test --release`).

use std::collections::HashMap;

use taquin::generate::{random_walk, uniform, Rng};
use taquin::heuristic::{LinearConflict, Manhattan};
use taquin::pdb::{BuildPolicy, PdbHeuristic, PdbPreset};
use taquin::search::fsm::Fsm;
use taquin::search::{idastar_parallel_with, idastar_with, Pruning};
use taquin::{Board, Heuristic, Incremental, Limits, Move, Tables, Tile};

fn key(tiles: &[Tile]) -> u64 {
    tiles.iter().fold(0, |k, &t| (k << 4) | u64::from(t))
}

/// Every state from which `goal` is reachable, with its BFS distance.
fn distances(goal: &Board) -> Vec<(Board, u32)> {
    let mut seen = HashMap::new();
    let mut states = vec![(goal.clone(), 0u32)];
    seen.insert(key(goal.tiles()), ());
    let mut head = 0;
    while head < states.len() {
        let (b, d) = states[head].clone();
        for m in Move::ALL {
            if let Some(next) = b.moved(m) {
                if seen.insert(key(next.tiles()), ()).is_none() {
                    states.push((next, d + 1));
                }
            }
        }
        head += 1;
    }
    states
}

#[test]
fn dual_lookup_is_admissible_on_every_state_of_small_boards() {
    let boards = [
        (
            3,
            3,
            vec![
                "1 2 3/4 5 6/7 8 0",
                "0 1 2/3 4 5/6 7 8",
                "1 2 3/4 0 5/6 7 8",
                "1 0 2/3 4 5/6 7 8",
            ],
        ),
        (
            4,
            2,
            vec!["1 2 3 4/5 6 7 0", "0 1 2 3/4 5 6 7", "1 2 0 3/4 5 6 7"],
        ),
        (
            2,
            4,
            vec!["1 2/3 4/5 6/7 0", "0 1/2 3/4 5/6 7", "1 2/3 0/4 5/6 7"],
        ),
    ];
    let mut raised = 0u64;
    for (w, h, goals) in boards {
        let tiles = w * h - 1;
        let partitions: Vec<Vec<u8>> = if tiles == 8 {
            vec![vec![8], vec![4, 4], vec![3, 5], vec![2, 3, 3]]
        } else {
            vec![vec![7], vec![4, 3], vec![2, 2, 3]]
        };
        for goal in goals {
            let goal = Board::parse(goal).unwrap();
            assert_eq!((goal.width(), goal.height()), (w, h));
            let states = distances(&goal);
            let tables = Tables::in_memory();
            for sizes in &partitions {
                let preset = PdbPreset::of(sizes);
                let plain = tables
                    .pdb_heuristic(preset, &goal, BuildPolicy::IfMissing, &Limits::none())
                    .unwrap();
                // The solver's heuristic goes without the dual lookups (`Tables::pdb_heuristic`);
                // they are added here by hand.
                let dual = plain.clone().with_dual(&goal);
                assert!(dual.duals());
                assert_eq!(dual.estimate(goal.tiles()), 0);
                for (b, d) in &states {
                    let with = dual.estimate(b.tiles());
                    let without = plain.estimate(b.tiles());
                    assert!(
                        with <= *d,
                        "pdb:{} with the dual lookup overestimates {b:?} (goal {goal:?}): {with} > {d}",
                        preset.name()
                    );
                    assert!(with >= without);
                    raised += u64::from(with > without);
                }
            }
        }
    }
    assert!(raised > 1000, "the dual lookup raised only {raised} values");
}

/// Along random walks, the dual lookups as IDA* asks them (the values a move leaves cached,
/// and refinements stopped at a limit) give what a lookup from scratch gives: the full value
/// when it stays within the limit, else some value above the limit that is no larger.
#[test]
fn cached_and_lazy_dual_lookups_agree_with_lookups_from_scratch() {
    let tables = Tables::in_memory();
    let mut rng = Rng::new(7);
    let mut cut = 0u64;
    for (w, h, goal, sizes) in [
        (3, 3, "1 2 3/4 5 6/7 8 0", vec![3u8, 5]),
        (3, 3, "1 2 3/4 0 5/6 7 8", vec![2, 3, 3]),
        (4, 3, "0 1 2 3/4 5 6 7/8 9 10 11", vec![5, 6]),
        (3, 4, "1 2 3/4 5 6/7 8 9/10 11 0", vec![3, 4, 4]),
    ] {
        let goal = Board::parse(goal).unwrap();
        assert_eq!((goal.width(), goal.height()), (w, h));
        let plain = tables
            .pdb_heuristic(
                PdbPreset::of(&sizes),
                &goal,
                BuildPolicy::IfMissing,
                &Limits::none(),
            )
            .unwrap();
        let dual = plain.clone().with_dual(&goal);
        for _ in 0..20 {
            let mut board = goal.clone();
            let (mut value, mut aux) = dual.init(board.tiles());
            for _ in 0..200 {
                let moves: Vec<Move> = board.legal_moves().collect();
                let m = moves[rng.below(moves.len())];
                let from = board.target(m).unwrap();
                let to = board.blank();
                let tile = board.tiles()[from];
                board.apply(m);
                // Every other move in two halves, as a beam takes it.
                value = if rng.below(2) == 0 {
                    dual.update(board.tiles(), tile, from, to, value, &mut aux)
                } else {
                    let pending = dual.prepare(board.tiles(), tile, from, to, &aux);
                    dual.finish(board.tiles(), tile, from, to, value, &mut aux, &pending)
                };
                let full = dual.estimate(board.tiles());
                // A lazy refinement on a copy, as for a node that is then cut off.
                let limit = value + rng.below(6) as u32;
                let mut lazy_aux = aux;
                let lazy = dual.refine(board.tiles(), board.blank(), value, &mut lazy_aux, limit);
                assert!(lazy <= full, "{board:?}");
                if full <= limit {
                    assert_eq!(lazy, full, "{board:?}");
                } else {
                    assert!(lazy > limit, "{board:?}");
                    cut += 1;
                }
                // Half the time the walk goes on from the lazily refined state.
                if rng.below(2) == 0 {
                    aux = lazy_aux;
                }
                let mut full_aux = aux;
                let refined =
                    dual.refine(board.tiles(), board.blank(), value, &mut full_aux, u32::MAX);
                assert_eq!(refined, full, "{board:?}");
                if rng.below(2) == 0 {
                    aux = full_aux;
                }
            }
        }
    }
    assert!(cut > 100, "only {cut} refinements were cut short");
}

/// IDA* with the dual lookups and bidirectional pathmax (inconsistent values passed on) finds
/// the breadth-first distance, on one thread and on two, and the dual lookups cut nodes.
#[test]
fn idastar_with_the_dual_lookups_finds_the_bfs_distance() {
    let goal = Board::solved(3, 3).unwrap();
    let tables = Tables::in_memory();
    let plain = tables
        .pdb_heuristic(
            PdbPreset::of(&[4, 4]),
            &goal,
            BuildPolicy::IfMissing,
            &Limits::none(),
        )
        .unwrap();
    let dual = plain.clone().with_dual(&goal);
    assert!(dual.duals());
    let (mut plain_nodes, mut dual_nodes) = (0u64, 0u64);
    for (b, d) in distances(&goal).iter().step_by(61) {
        let (p, l) = (Pruning::full(9), Limits::none());
        let s = idastar_with(b, &goal, &dual, p, &l, None).unwrap();
        assert_eq!(s.len() as u32, *d, "{b:?}");
        s.verify(b, &goal).unwrap();
        let two = idastar_parallel_with(b, &goal, &dual, p, &l, None, 2).unwrap();
        assert_eq!(two.len() as u32, *d, "{b:?}");
        two.verify(b, &goal).unwrap();
        dual_nodes += s.stats.generated;
        plain_nodes += idastar_with(b, &goal, &plain, p, &l, None)
            .unwrap()
            .stats
            .generated;
    }
    assert!(
        dual_nodes < plain_nodes,
        "{dual_nodes} nodes with the dual lookups, {plain_nodes} without"
    );
}

#[test]
fn full_pruning_finds_the_bfs_distance_from_every_8_puzzle_state() {
    let goal = Board::solved(3, 3).unwrap();
    let h = Manhattan::new(&goal);
    let (mut plain_nodes, mut full_nodes) = (0u64, 0u64);
    for (i, (b, d)) in distances(&goal).iter().enumerate() {
        let s = idastar_with(b, &goal, &h, Pruning::full(9), &Limits::none(), None).unwrap();
        assert_eq!(s.len() as u32, *d, "{b:?}");
        s.verify(b, &goal).unwrap();
        if i % 97 == 0 {
            let p = idastar_with(b, &goal, &h, Pruning::plain(), &Limits::none(), None).unwrap();
            assert_eq!(p.len(), s.len());
            plain_nodes += p.stats.generated;
            full_nodes += s.stats.generated;
        }
    }
    assert!(
        full_nodes < plain_nodes,
        "full pruning {full_nodes} nodes, plain {plain_nodes}"
    );
}

#[test]
fn the_deep_automaton_keeps_the_bfs_distance_from_every_state_of_small_boards() {
    // It prunes the boards of more than 9 cells, whose state spaces are too large to walk
    // whole; its completeness does not depend on the board, so the small ones test it.
    let deep = Pruning {
        fsm: Fsm::for_cells(16),
        bpmx: true,
        ordered: false,
    };
    assert!(deep.fsm.states() > 10 * Fsm::for_cells(9).states());
    for (w, h) in [(3, 3), (2, 4), (4, 2)] {
        let goal = Board::solved(w, h).unwrap();
        let manhattan = Manhattan::new(&goal);
        for (b, d) in distances(&goal) {
            let s = idastar_with(&b, &goal, &manhattan, deep, &Limits::none(), None).unwrap();
            assert_eq!(s.len() as u32, d, "{b:?}");
            s.verify(&b, &goal).unwrap();
        }
    }
}

#[test]
fn full_pruning_finds_optimal_lengths_on_random_4x3_and_3x5_boards() {
    let (mut plain_nodes, mut full_nodes) = (0u64, 0u64);
    for (w, h) in [(4, 3), (3, 4), (3, 5), (5, 3)] {
        let goal = Board::solved(w, h).unwrap();
        let lc = LinearConflict::new(&goal);
        let mut rng = Rng::new(14);
        for i in 0..12 {
            let b = if w * h <= 12 {
                uniform(&goal, &mut rng)
            } else {
                random_walk(&goal, 60 + i, &mut rng)
            };
            let full =
                idastar_with(&b, &goal, &lc, Pruning::full(w * h), &Limits::none(), None).unwrap();
            let plain =
                idastar_with(&b, &goal, &lc, Pruning::plain(), &Limits::none(), None).unwrap();
            full.verify(&b, &goal).unwrap();
            assert_eq!(full.len(), plain.len(), "{b:?}");
            // Per board the last iteration can go either way (a solution that plain IDA*
            // meets early may hold a duplicate string, and be pruned); in total, fewer.
            full_nodes += full.stats.generated;
            plain_nodes += plain.stats.generated;
        }
    }
    assert!(
        full_nodes < plain_nodes,
        "full pruning {full_nodes} nodes, plain {plain_nodes}"
    );
}

#[test]
fn parallel_search_with_full_pruning_returns_the_sequential_moves() {
    let instances = taquin::instances::parse_file(include_str!("data/korf_easy.txt")).unwrap();
    let tables = Tables::in_memory();
    for inst in instances.iter().take(4) {
        let h = tables
            .pdb_heuristic(
                PdbPreset::P555,
                &inst.goal,
                BuildPolicy::IfMissing,
                &Limits::none(),
            )
            .unwrap();
        let seq = idastar_with(
            &inst.board,
            &inst.goal,
            &h,
            Pruning::full(16),
            &Limits::none(),
            None,
        )
        .unwrap();
        assert_eq!(Some(seq.len() as u32), inst.optimal_length);
        for threads in [2, 3] {
            let par = idastar_parallel_with(
                &inst.board,
                &inst.goal,
                &h,
                Pruning::full(16),
                &Limits::none(),
                None,
                threads,
            )
            .unwrap();
            assert_eq!(par.moves, seq.moves, "instance {}", inst.id);
        }
    }
}

/// IDA* with the pattern databases' lazy reads ([`Incremental::update_within`]) searches the
/// same nodes as with every table read at every node: plain tables (which may be inconsistent,
/// so that with BPMX the reads go on until a child would cut off its parent) and zero-aware
/// ones, one partition and two (on two threads, the same moves).
#[test]
fn lazy_table_reads_search_the_same_nodes_as_reading_every_table() {
    /// The same heuristic with every table read ([`Incremental::update_within`]'s default).
    struct Eager<'a>(&'a PdbHeuristic);
    impl Heuristic for Eager<'_> {
        fn estimate(&self, tiles: &[Tile]) -> u32 {
            self.0.estimate(tiles)
        }
    }
    impl Incremental for Eager<'_> {
        type Aux = <PdbHeuristic as Incremental>::Aux;
        type Pending = ();
        fn init(&self, tiles: &[Tile]) -> (u32, Self::Aux) {
            self.0.init(tiles)
        }
        fn update(
            &self,
            tiles: &[Tile],
            tile: Tile,
            from: usize,
            to: usize,
            h: u32,
            aux: &mut Self::Aux,
        ) -> u32 {
            self.0.update(tiles, tile, from, to, h, aux)
        }
        fn consistent(&self) -> bool {
            self.0.consistent()
        }
    }
    let instances = taquin::instances::parse_file(include_str!("data/korf_easy.txt")).unwrap();
    let tables = Tables::in_memory();
    let goal = &instances[0].goal;
    let mut lazier = 0;
    for name in [
        "pdb:5-5-5",
        "zpdb:5-5-5",
        "pdb:5-5-5+6-6-3",
        "zpdb:5-5-5+6-6-3",
    ] {
        let taquin::HeuristicKind::Pdb(preset) = taquin::HeuristicKind::parse(name).unwrap() else {
            panic!("{name} is no pattern database");
        };
        let h = tables
            .pdb_heuristic(preset, goal, BuildPolicy::IfMissing, &Limits::none())
            .unwrap();
        assert_eq!(h.consistent(), name.starts_with('z'), "{name}");
        for inst in &instances {
            let run = |threads: usize, lazy: bool| {
                let (b, g, p, l) = (&inst.board, &inst.goal, Pruning::full(16), Limits::none());
                match (threads, lazy) {
                    (1, true) => idastar_with(b, g, &h, p, &l, None),
                    (1, false) => idastar_with(b, g, &Eager(&h), p, &l, None),
                    (_, true) => idastar_parallel_with(b, g, &h, p, &l, None, threads),
                    (_, false) => idastar_parallel_with(b, g, &Eager(&h), p, &l, None, threads),
                }
                .unwrap()
            };
            for threads in [1, 2] {
                let (lazy, eager) = (run(threads, true), run(threads, false));
                assert_eq!(Some(lazy.len() as u32), inst.optimal_length);
                assert_eq!(lazy.moves, eager.moves, "{name}, instance {}", inst.id);
                // On two threads the last iteration's count depends on which thread finds the
                // goal first.
                let counts = |s: &taquin::Solution| (s.stats.generated, s.stats.expanded);
                if threads == 1 {
                    assert_eq!(
                        counts(&lazy),
                        counts(&eager),
                        "{name}, instance {}",
                        inst.id
                    );
                }
                lazier += 1;
            }
        }
    }
    assert_eq!(lazier, 4 * instances.len() * 2);
}
