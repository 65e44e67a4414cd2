//! Criterion benchmarks of the searches: the article's 8-puzzle and a 15-puzzle.
use criterion::{criterion_group, criterion_main, Criterion};
use taquin::{solve, Algorithm, Board, HeuristicKind, Limits};

fn article(c: &mut Criterion) {
    let board: Board = "6 4 7/8 5 0/3 2 1".parse().unwrap();
    let goal = Board::solved(3, 3).unwrap();
    for h in HeuristicKind::ALL {
        for a in [Algorithm::AStar, Algorithm::IdaStar] {
            c.bench_function(&format!("article 8-puzzle {a} {h}"), |b| {
                b.iter(|| solve(&board, &goal, a, h, &Limits::none(), None).unwrap())
            });
        }
    }
}

fn fifteen(c: &mut Criterion) {
    // Korf's instance 3 (59 moves), against his goal (blank first).
    let board: Board = "14 7 8 2/13 11 10 4/9 12 5 0/3 6 1 15".parse().unwrap();
    let goal: Board = "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15".parse().unwrap();
    let mut g = c.benchmark_group("korf100 #3");
    g.sample_size(10);
    for h in [
        HeuristicKind::Manhattan,
        HeuristicKind::LinearConflict,
        HeuristicKind::WalkingDistance,
    ] {
        g.bench_function(format!("idastar {h}"), |b| {
            b.iter(|| solve(&board, &goal, Algorithm::IdaStar, h, &Limits::none(), None).unwrap())
        });
    }
    g.finish();
}

criterion_group!(benches, article, fifteen);
criterion_main!(benches);
