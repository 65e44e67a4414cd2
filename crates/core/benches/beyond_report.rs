//! Figures for BENCHMARKS.md "Beyond optimal": solution lengths against lower bounds and optimal
//! lengths, post-pass gains, real-time players against optimal. A report, printed, never
//! asserted on time. Run: `cargo bench -p taquin-core --bench beyond_report`

use std::time::Instant;

use taquin::generate::{uniform, Rng};
use taquin::heuristic::Manhattan;
use taquin::solvers::{constructive, lookahead, lrta, manhattan_lower_bound, shorten};
use taquin::{Algorithm, Board, HeuristicKind, Limits, SolveError};

#[path = "../tests/common/mod.rs"]
mod common;
use common::solve;

fn lrta_against_optimal() {
    let goal = Board::solved(3, 3).unwrap();
    let h = Manhattan::new(&goal);
    for depth in [1, 2, 4, 6] {
        let mut rng = Rng::new(1);
        let (mut moves, mut opt, mut short) = (0usize, 0usize, 0usize);
        let t = Instant::now();
        for _ in 0..100 {
            let b = uniform(&goal, &mut rng);
            let s = lrta::lrta(&b, &goal, &h, depth, &Limits::none()).unwrap();
            let o = solve(
                &b,
                &goal,
                Algorithm::IdaStar,
                HeuristicKind::LinearConflict,
                &Limits::none(),
            )
            .unwrap();
            let c = shorten::cut_loops(&b, &s.moves);
            moves += s.len();
            opt += o.len();
            short += c.len();
        }
        println!("8-puzzle lrta depth {depth}: 100 boards, moves {moves}, loops cut {short}, optimal {opt}, ratio {:.2}, {:?}", moves as f64 / opt as f64, t.elapsed());
    }
}

fn lrta_and_lookahead_on_korf100() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../bench/korf100.txt"
    ))
    .unwrap();
    let instances = taquin::instances::parse_file(&text).unwrap();
    for depth in [1, 4] {
        let (mut moves, mut cut, mut opt) = (0usize, 0usize, 0usize);
        let t = Instant::now();
        for inst in instances.iter().take(20) {
            let h = Manhattan::new(&inst.goal);
            let s = lrta::lrta(&inst.board, &inst.goal, &h, depth, &Limits::none()).unwrap();
            s.verify(&inst.board, &inst.goal).unwrap();
            moves += s.len();
            cut += shorten::cut_loops(&inst.board, &s.moves).len();
            opt += inst.optimal_length.unwrap() as usize;
        }
        println!("korf100 1-20 lrta depth {depth}: moves {moves}, loops cut {cut}, optimal {opt}, ratio {:.2} ({:.2} cut), {:?}", moves as f64 / opt as f64, cut as f64 / opt as f64, t.elapsed());
    }
    let (mut cycles, mut solved, mut made) = (0, 0, 0u64);
    for inst in &instances {
        match lookahead::lookahead(&inst.board, &inst.goal, 4, &Limits::none()) {
            Ok(_) => solved += 1,
            Err(SolveError::Cycle { moves_made, .. }) => {
                cycles += 1;
                made += moves_made;
            }
            Err(e) => panic!("{e}"),
        }
    }
    println!("korf100 lookahead depth 4: {solved} solved, {cycles} cycled (mean {:.0} moves before the repeat)", made as f64 / cycles.max(1) as f64);
    let goal = Board::solved(3, 3).unwrap();
    let mut rng = Rng::new(1);
    let (mut cycles, mut solved) = (0, 0);
    for _ in 0..1000 {
        match lookahead::lookahead(&uniform(&goal, &mut rng), &goal, 4, &Limits::none()) {
            Ok(_) => solved += 1,
            Err(_) => cycles += 1,
        }
    }
    println!("random 8-puzzles lookahead depth 4: {solved} solved, {cycles} cycled");
}

fn constructive_lengths_and_post_pass() {
    for side in [5usize, 10, 20, 50] {
        let goal = Board::solved(side, side).unwrap();
        let mut rng = Rng::new(side as u64);
        let board = uniform(&goal, &mut rng);
        let lb = manhattan_lower_bound(&board, &goal);
        let t = Instant::now();
        let c = constructive::construct(&board, &goal, &Limits::none()).unwrap();
        let ct = t.elapsed();
        let t = Instant::now();
        let s =
            shorten::shorten(&board, &goal, &c.moves, &shorten::ShortenOptions::default()).unwrap();
        let st = t.elapsed();
        println!(
            "{side}x{side}: manhattan {lb}, raw {} ({:.2}x), pairs cancelled {} ({:.2}x), constructed in {:?}; post-pass: loops {} windows {} ({:.2}x, -{:.1}%, {} windows) in {:?}",
            c.raw_moves,
            c.raw_moves as f64 / lb as f64,
            c.moves.len(),
            c.moves.len() as f64 / lb as f64,
            ct,
            s.after_loops,
            s.after_windows,
            s.after_windows as f64 / lb as f64,
            100.0 * (1.0 - s.after_windows as f64 / c.moves.len() as f64),
            s.windows_improved,
            st
        );
    }
}

fn constructive_time_split() {
    for side in [100usize, 300, 1000] {
        let goal = Board::solved(side, side).unwrap();
        let board = uniform(&goal, &mut Rng::new(side as u64));
        let t = Instant::now();
        let c = constructive::construct(&board, &goal, &Limits::none()).unwrap();
        let ct = t.elapsed();
        let t = Instant::now();
        taquin::verify_moves(&board, &goal, &c.moves).unwrap();
        println!(
            "{side}x{side}: {} moves ({:.2}x manhattan), construct {ct:?}, replay {:?}",
            c.moves.len(),
            c.moves.len() as f64 / manhattan_lower_bound(&board, &goal) as f64,
            t.elapsed()
        );
    }
}

fn main() {
    lrta_against_optimal();
    lrta_and_lookahead_on_korf100();
    constructive_lengths_and_post_pass();
    constructive_time_split();
}
