//! Criterion benchmarks of the beyond-optimal solvers: the constructive solver on large boards
//! (the target: a random 100x100 in under a second), its post-pass, weighted A* and
//! greedy on the 15-puzzle, and the real-time players on the 8-puzzle.
//! Run: `cargo bench -p taquin-core --bench beyond`
use criterion::{criterion_group, criterion_main, Criterion};
use taquin::generate::{uniform, Rng};
use taquin::heuristic::Manhattan;
use taquin::solvers::shorten::{shorten, ShortenOptions};
use taquin::solvers::{constructive, lookahead, lrta};
use taquin::{solve, Algorithm, Board, HeuristicKind, Limits, Request, SolveOptions, Tables};

fn constructive_large(c: &mut Criterion) {
    let mut g = c.benchmark_group("constructive");
    g.sample_size(10);
    for side in [30usize, 100, 300] {
        let goal = Board::solved(side, side).unwrap();
        let board = uniform(&goal, &mut Rng::new(side as u64));
        g.bench_function(format!("random {side}x{side}, replayed"), |b| {
            b.iter(|| constructive::constructive(&board, &goal, &Limits::none()).unwrap())
        });
    }
    let goal = Board::solved(30, 30).unwrap();
    let board = uniform(&goal, &mut Rng::new(30));
    let moves = constructive::constructive(&board, &goal, &Limits::none())
        .unwrap()
        .moves;
    g.bench_function("post-pass on the 30x30 solution", |b| {
        b.iter(|| shorten(&board, &goal, &moves, &ShortenOptions::default()).unwrap())
    });
    g.finish();
}

fn weighted_fifteen(c: &mut Criterion) {
    // Korf's instance 3 (59 moves), against his goal (blank first).
    let board: Board = "14 7 8 2/13 11 10 4/9 12 5 0/3 6 1 15".parse().unwrap();
    let goal: Board = "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15".parse().unwrap();
    let request = Request::new(board, goal, Limits::none()).unwrap();
    let tables = Tables::in_memory();
    let mut g = c.benchmark_group("korf100 #3 suboptimal");
    g.sample_size(10);
    for (name, algorithm, weight) in [
        ("weighted-astar w=1.5", Algorithm::WeightedAStar, 1.5),
        ("weighted-astar w=3", Algorithm::WeightedAStar, 3.0),
        ("greedy", Algorithm::Greedy, 1.0),
        ("constructive", Algorithm::Constructive, 1.0),
    ] {
        let mut options = SolveOptions::new(algorithm, HeuristicKind::LinearConflict);
        options.weight = weight;
        g.bench_function(name, |b| {
            b.iter(|| solve(&request, &options, &tables, None).unwrap())
        });
    }
    g.finish();
}

fn real_time_eight(c: &mut Criterion) {
    let goal = Board::solved(3, 3).unwrap();
    let board: Board = "8 6 7/2 5 4/3 0 1".parse().unwrap();
    let h = Manhattan::new(&goal);
    c.bench_function("8-puzzle lrta depth 4", |b| {
        b.iter(|| lrta::lrta(&board, &goal, &h, 4, &Limits::none()).unwrap())
    });
    c.bench_function("8-puzzle lookahead depth 4 (until its cycle)", |b| {
        b.iter(|| lookahead::lookahead(&board, &goal, 4, &Limits::none()).ok())
    });
}

criterion_group!(
    benches,
    constructive_large,
    weighted_fifteen,
    real_time_eight
);
criterion_main!(benches);
