//! Criterion benchmarks of pattern databases: building small ones, and IDA* with the 5-5-5
//! databases (built once into a temporary directory) sequentially and on every core.
//! The large 7-8 and 6-6-6-6 figures come from `taquin bench` (see BENCHMARKS.md).
use criterion::{criterion_group, criterion_main, Criterion};
use taquin::pdb::{self, build, PatternSpec, PdbPreset};
use taquin::search::{idastar, idastar_parallel};
use taquin::{Board, Limits};

fn building(c: &mut Criterion) {
    let mut g = c.benchmark_group("pdb build");
    g.sample_size(10);
    let eight = PatternSpec::new(3, 3, 0, (1..9).collect()).unwrap();
    g.bench_function("8-puzzle complete", |b| {
        b.iter(|| build(&eight, 0, None, &Limits::none()).unwrap())
    });
    let five = PatternSpec::new(4, 4, 0, vec![1, 2, 3, 6, 7]).unwrap();
    g.bench_function("15-puzzle 5 tiles", |b| {
        b.iter(|| build(&five, 0, None, &Limits::none()).unwrap())
    });
    g.finish();
}

fn searching(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("taquin-pdb-bench-{}", std::process::id()));
    let tables = taquin::Tables::open(&dir);
    // Korf's instance 3 (59 moves), against his goal (blank first).
    let board: Board = "14 7 8 2/13 11 10 4/9 12 5 0/3 6 1 15".parse().unwrap();
    let goal: Board = "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15".parse().unwrap();
    // Sized as the solver sizes it.
    let h = tables
        .pdb_heuristic_sized::<{ pdb::SMALL_PATTERNS }>(
            PdbPreset::P555,
            &goal,
            pdb::BuildPolicy::IfMissing,
            &Limits::none(),
        )
        .unwrap();
    let mut g = c.benchmark_group("korf100 #3 pdb:5-5-5");
    g.sample_size(10);
    g.bench_function("idastar", |b| {
        b.iter(|| idastar(&board, &goal, &h, &Limits::none(), None).unwrap())
    });
    g.bench_function("idastar parallel", |b| {
        b.iter(|| idastar_parallel(&board, &goal, &h, &Limits::none(), None, 0).unwrap())
    });
    g.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, building, searching);
criterion_main!(benches);
