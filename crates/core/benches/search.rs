//! Criterion benchmarks of the searches: the article's 8-puzzle and a 15-puzzle.
use criterion::{criterion_group, criterion_main, Criterion};
use taquin::{solve, Algorithm, Board, HeuristicKind, Limits, Request, SolveOptions, Tables};

fn article(c: &mut Criterion) {
    let board: Board = "6 4 7/8 5 0/3 2 1".parse().unwrap();
    let request = Request::new(board, Board::solved(3, 3).unwrap(), Limits::none()).unwrap();
    let tables = Tables::in_memory();
    for h in HeuristicKind::ALL {
        for a in [Algorithm::AStar, Algorithm::IdaStar] {
            let options = SolveOptions::new(a, h);
            c.bench_function(&format!("article 8-puzzle {a} {h}"), |b| {
                b.iter(|| solve(&request, &options, &tables, None).unwrap())
            });
        }
    }
    // The planner's default, its table built once before the timing.
    let options = SolveOptions::default();
    solve(&request, &options, &tables, None).unwrap();
    c.bench_function("article 8-puzzle default", |b| {
        b.iter(|| solve(&request, &options, &tables, None).unwrap())
    });
}

fn fifteen(c: &mut Criterion) {
    // Korf's instance 3 (59 moves), against his goal (blank first).
    let board: Board = "14 7 8 2/13 11 10 4/9 12 5 0/3 6 1 15".parse().unwrap();
    let goal: Board = "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15".parse().unwrap();
    let request = Request::new(board, goal, Limits::none()).unwrap();
    let tables = Tables::in_memory();
    let mut g = c.benchmark_group("korf100 #3");
    g.sample_size(10);
    for h in [
        HeuristicKind::Manhattan,
        HeuristicKind::LinearConflict,
        HeuristicKind::WalkingDistance,
    ] {
        let options = SolveOptions::new(Algorithm::IdaStar, h);
        g.bench_function(format!("idastar {h}"), |b| {
            b.iter(|| solve(&request, &options, &tables, None).unwrap())
        });
    }
    g.finish();
}

criterion_group!(benches, article, fifteen);
criterion_main!(benches);
