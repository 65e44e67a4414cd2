//! IDA* that keeps its place in a checkpoint file: a search stopped by a limit goes on from
//! there, over as many sittings as it takes, and ends with the moves and node counts of the
//! search run in one go.

mod common;

use std::sync::Arc;

use common::scratch_dir;
use taquin::instances::Instance;
use taquin::search::CheckpointFile;
use taquin::{Algorithm, HeuristicKind, LimitHit, Limits, Solution, SolveError, SolveOptions};
use tempfile::TempDir;

fn options(checkpoint: Option<&CheckpointFile>, threads: usize) -> SolveOptions {
    SolveOptions {
        algorithm: Some(Algorithm::IdaStar),
        heuristic: Some(HeuristicKind::LinearConflict),
        threads,
        checkpoint: checkpoint.map(|c| Arc::new(c.clone())),
        ..SolveOptions::default()
    }
}

/// A checkpoint file named `name`, not there yet, in a directory of the test's own, which is
/// deleted with what it holds when dropped (also when the test fails): keep it until the test
/// ends.
fn checkpoint_file(name: &str, key: &str) -> (TempDir, CheckpointFile) {
    let dir = scratch_dir("checkpoint-test");
    let file = CheckpointFile::new(dir.path().join(name), key);
    (dir, file)
}

/// Instance `i` of `data/korf_easy.txt` (0: Korf's #2, 55 moves; a few million nodes with
/// linear conflict).
fn korf_easy(i: usize) -> Instance {
    let instances =
        taquin::instances::parse_file(include_str!("data/korf_easy.txt")).expect("instances");
    instances[i].clone()
}

/// IDA* with linear conflict on `inst`, on `threads` threads, keeping its place in `checkpoint`
/// if given, within `limits`.
fn solve(
    inst: &Instance,
    checkpoint: Option<&CheckpointFile>,
    threads: usize,
    limits: &Limits,
) -> Result<Solution, SolveError> {
    common::solve_with(
        &inst.board,
        &inst.goal,
        &options(checkpoint, threads),
        limits,
    )
}

fn limit(nodes: u64) -> Limits {
    Limits {
        max_nodes: Some(nodes),
        ..Limits::default()
    }
}

#[test]
fn a_search_stopped_again_and_again_ends_as_the_search_run_in_one_go() {
    let inst = &korf_easy(0);
    let whole = solve(inst, None, 1, &Limits::default()).unwrap();
    assert_eq!(Some(whole.len() as u32), inst.optimal_length);
    // Run in one go, a search that keeps its place runs on the parallel engine (here on one
    // thread), which walks the top of each iteration to cut it into jobs: its counts are that
    // engine's.
    let (_dir, file) = checkpoint_file("korf-2", "korf 2 linear-conflict");
    let in_one_go = solve(inst, Some(&file), 1, &Limits::default()).unwrap();
    assert_eq!(in_one_go.moves, whole.moves);
    file.remove().unwrap();

    // Each sitting may generate a sixth of the whole search's nodes.
    let sitting = in_one_go.stats.generated / 6;
    let mut sittings = 0;
    let mut jobs_done_seen = 0;
    let mut last_place = None;
    let resumed = loop {
        sittings += 1;
        assert!(sittings <= 40, "the search does not get anywhere");
        match solve(inst, Some(&file), 1, &limit(sitting)) {
            Ok(solution) => break solution,
            Err(SolveError::Limit {
                hit: LimitHit::Nodes,
                ..
            }) => {
                // The limit wrote the place where it stopped.
                let place = file.load().unwrap().expect("a checkpoint after a limit");
                assert!(place.jobs_done() <= place.jobs);
                jobs_done_seen = jobs_done_seen.max(place.jobs_done());
                last_place = Some(place);
            }
            Err(e) => panic!("sitting {sittings}: {e}"),
        }
    };
    assert!(sittings >= 6, "{sittings} sittings");
    assert!(
        jobs_done_seen > 0,
        "some sitting stopped inside an iteration"
    );
    assert_eq!(resumed.moves, whole.moves);
    assert!(resumed.optimal);
    // The nodes of the jobs cut short are searched again but counted once.
    assert_eq!(resumed.stats.generated, in_one_go.stats.generated);
    assert_eq!(resumed.stats.expanded, in_one_go.stats.expanded);
    assert_eq!(resumed.stats.iterations, in_one_go.stats.iterations);
    // Its time is that of every sitting.
    let last_place = last_place.expect("a place kept");
    assert!(resumed.stats.elapsed >= last_place.elapsed);
    file.remove().unwrap();
}

#[test]
fn a_checkpoint_of_two_threads_resumes_on_one_and_another_searchs_is_refused() {
    let inst = &korf_easy(1);
    let whole = solve(inst, None, 1, &Limits::default()).unwrap();
    let (_dir, file) = checkpoint_file("korf-5", "korf 5");
    let stopped = solve(inst, Some(&file), 2, &limit(whole.stats.generated / 2));
    assert!(
        matches!(stopped, Err(SolveError::Limit { .. })),
        "{stopped:?}"
    );
    assert!(file.load().unwrap().is_some());

    // The same file under another search's key: refused, and left as it is.
    let other = CheckpointFile::new(file.path(), "korf 6");
    let e = solve(inst, Some(&other), 1, &Limits::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("another search (korf 5)"), "{e}");

    let resumed = solve(inst, Some(&file), 1, &Limits::default()).unwrap();
    assert_eq!(resumed.moves, whole.moves);
    file.remove().unwrap();
}

#[test]
fn a_checkpoint_of_another_board_under_the_same_key_is_refused_as_another_tree() {
    let (_dir, file) = checkpoint_file("same-key", "one key for two boards");
    let (a, b) = (&korf_easy(0), &korf_easy(2));
    let stopped = solve(a, Some(&file), 1, &limit(200_000));
    assert!(
        matches!(stopped, Err(SolveError::Limit { .. })),
        "{stopped:?}"
    );
    let e = solve(b, Some(&file), 1, &Limits::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("tree differs") && e.contains("delete it"), "{e}");
    file.remove().unwrap();
}

#[test]
fn a_checkpoint_that_cannot_be_written_is_said_before_the_search() {
    let inst = &korf_easy(0);
    // A directory where the file should be: no file can be written there.
    let dir = scratch_dir("checkpoint-dir");
    std::fs::create_dir_all(dir.path().join("taken.txt.tmp")).unwrap();
    let file = CheckpointFile::new(dir.path().join("taken.txt"), "k");
    let e = solve(inst, Some(&file), 1, &limit(10_000_000))
        .unwrap_err()
        .to_string();
    assert!(e.contains("cannot be written"), "{e}");
}
