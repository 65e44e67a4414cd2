//! Ctrl-C (SIGINT) ends every command that searches the same way: it stops cleanly, what it
//! printed is complete, and it exits with 130 (128 + SIGINT, the shell's convention).
//!
//! Each test waits for a sign that the command is searching (a line it prints once its Ctrl-C
//! handler is in place) before it sends the signal.

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, ExitStatus};
use std::time::Duration;

use serde_json::Value;

mod common;
use common::{fresh_path, interrupt, scratch_dir, spawn};

/// A 24-puzzle far beyond any search of a test's length: its searches run until cancelled.
const HARD_5X5: &str = "4 3 24 8 1/14 11 12 20 2/19 0 6 9 7/13 5 21 17 16/22 10 23 18 15";

/// The exit status of `child`, polled every 20 ms for at most a minute: a guard against a
/// command that does not stop, not an assertion on time.
fn exit_of(child: &mut Child) -> ExitStatus {
    for _ in 0..3000 {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    panic!("still running a minute after Ctrl-C");
}

/// Everything left on a pipe.
fn rest(pipe: impl Read) -> String {
    let mut text = String::new();
    BufReader::new(pipe).read_to_string(&mut text).unwrap();
    text
}

/// Reads lines of `reader` until one starts with `prefix`, and returns it.
fn line_starting(reader: &mut impl BufRead, prefix: &str) -> String {
    let mut line = String::new();
    loop {
        line.clear();
        assert!(
            reader.read_line(&mut line).unwrap() > 0,
            "the command ended before printing a line starting with {prefix:?}"
        );
        if line.starts_with(prefix) {
            return line;
        }
    }
}

#[test]
fn ctrl_c_stops_an_optimal_solve_with_130_and_a_cancelled_error() {
    let mut child = spawn(&[
        "solve",
        HARD_5X5,
        "-a",
        "idastar",
        "-H",
        "manhattan",
        "--explain",
        "--json",
    ]);
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    // Printed once the limits (and the Ctrl-C handler) are set, just before the search.
    line_starting(&mut stderr, "plan: ");
    interrupt(&child);
    let status = exit_of(&mut child);
    let stdout = rest(child.stdout.take().unwrap());
    assert_eq!(status.code(), Some(130), "{stdout}{}", rest(stderr));
    let v: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["code"], "cancelled", "{v}");
    assert_eq!(v["limit"], "cancelled", "{v}");
}

#[test]
fn ctrl_c_gives_the_anytime_searchs_best_so_far_and_exits_130() {
    let mut child = spawn(&["solve", HARD_5X5, "--timeout", "120", "--explain"]);
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    line_starting(&mut stderr, "plan: anytime");
    // `--explain` writes each improvement when stderr is a pipe: the first one means there is
    // a best so far to give.
    line_starting(&mut stderr, "improved: ");
    interrupt(&child);
    let status = exit_of(&mut child);
    let stdout = rest(child.stdout.take().unwrap());
    let said = rest(stderr);
    assert_eq!(status.code(), Some(130), "{stdout}{said}");
    assert!(stdout.contains("(not proven optimal)"), "{stdout}");
    assert!(said.contains("stopped by Ctrl-C"), "{said}");
    // With --json, the answer says it was cut short.
    let mut child = spawn(&["solve", HARD_5X5, "--timeout", "120", "--json", "--explain"]);
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    line_starting(&mut stderr, "plan: anytime");
    // `--explain` writes each improvement when stderr is a pipe: the first one means there is
    // a best so far to give.
    line_starting(&mut stderr, "improved: ");
    interrupt(&child);
    let status = exit_of(&mut child);
    let stdout = rest(child.stdout.take().unwrap());
    assert_eq!(status.code(), Some(130), "{stdout}");
    let v: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["stopped"], "cancelled", "{v}");
    assert_eq!(v["optimal"], false, "{v}");
}

#[test]
fn an_interrupt_delivered_twice_at_once_still_gives_the_best_so_far() {
    // `timeout -s INT` sends its signal to the command and to the command's process group: two
    // at once, which are one Ctrl-C, not a second one that exits without a word.
    let mut child = spawn(&["solve", HARD_5X5, "--timeout", "120", "--json", "--explain"]);
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    line_starting(&mut stderr, "plan: anytime");
    line_starting(&mut stderr, "improved: ");
    interrupt(&child);
    interrupt(&child);
    let status = exit_of(&mut child);
    let stdout = rest(child.stdout.take().unwrap());
    assert_eq!(status.code(), Some(130), "{stdout}{}", rest(stderr));
    let v: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["stopped"], "cancelled", "{v}");
    assert!(v["length"].as_u64().is_some_and(|n| n > 0), "{v}");
}

#[test]
fn ctrl_c_stops_a_comparison_with_130() {
    let mut child = spawn(&[
        "compare",
        HARD_5X5,
        "-a",
        "idastar",
        "--timeout",
        "1",
        "--json",
    ]);
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    // The first run's line: its limits (and the Ctrl-C handler) are set.
    line_starting(&mut stdout, "{");
    interrupt(&child);
    let status = exit_of(&mut child);
    let rest_out = rest(stdout);
    assert_eq!(
        status.code(),
        Some(130),
        "{rest_out}{}",
        rest(child.stderr.take().unwrap())
    );
    let last: Value = serde_json::from_str(rest_out.lines().last().unwrap()).unwrap();
    assert_eq!(last["code"], "cancelled", "{last}");
}

#[test]
fn ctrl_c_stops_a_benchmark_with_130_leaving_the_cut_instance_for_resume() {
    let dir = scratch_dir("interrupt");
    let instances = dir.path().join("instances.txt");
    let results = dir.path().join("results.jsonl");
    // One move from the goal (blank first), then the first of Korf's 24-puzzles, far beyond
    // the Manhattan distance's reach.
    let easy: Vec<String> = [1, 0]
        .into_iter()
        .chain(2..25)
        .map(|t: i32| t.to_string())
        .collect();
    let hard = "14 5 9 2 18 8 23 19 12 17 15 0 10 20 4 6 11 21 1 7 24 3 16 22 13";
    std::fs::write(
        &instances,
        format!("easy 1 {}\nhard 95 {hard}\n", easy.join(" ")),
    )
    .unwrap();
    let mut child = spawn(&[
        "bench",
        instances.to_str().unwrap(),
        "-H",
        "manhattan",
        "--jobs",
        "1",
        "--results",
        results.to_str().unwrap(),
    ]);
    // The easy instance's record: the hard one is under way.
    for _ in 0..3000 {
        let written = std::fs::read_to_string(&results).unwrap_or_default();
        if written.ends_with('\n') {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    interrupt(&child);
    let status = exit_of(&mut child);
    let stdout = rest(child.stdout.take().unwrap());
    assert_eq!(
        status.code(),
        Some(130),
        "{stdout}{}",
        rest(child.stderr.take().unwrap())
    );
    assert!(stdout.contains("cancelled"), "{stdout}");
    let written = std::fs::read_to_string(&results).unwrap();
    assert_eq!(written.lines().count(), 1, "{written}");
    assert!(written.contains("\"id\":\"easy\""), "{written}");
    // Where the hard one's search kept its place, if Ctrl-C came once it had begun, is
    // `results.checkpoints` in `dir`: deleted with it.
}

#[test]
fn ctrl_c_stops_a_long_generate_with_130_after_whole_lines() {
    // Boards without end: Ctrl-C is the only way out.
    let mut child = spawn(&["generate", "--size", "4x4", "--count", "1000000000000"]);
    let mut out = BufReader::new(child.stdout.take().unwrap());
    line_starting(&mut out, "");
    interrupt(&child);
    // Read on beside the wait: a full pipe would hold the command in its write.
    let reader = std::thread::spawn(move || rest(out));
    assert_eq!(exit_of(&mut child).code(), Some(130));
    // What was written ends with a whole board.
    let written = reader.join().unwrap();
    if let Some(last) = written.lines().last() {
        assert!(taquin::Board::parse(last).is_ok(), "{last:?}");
    }
}

#[test]
fn ctrl_c_stops_a_multi_tile_build_with_130_and_words_for_a_build() {
    let (_scratch, dir) = fresh_path("mtm-cancel");
    let dir_arg = dir.to_str().unwrap();
    let mut child = spawn(&[
        "pdb",
        "build",
        "--metric",
        "mtm",
        "--size",
        "6x6",
        "--pdb-dir",
        dir_arg,
    ]);
    let mut err = BufReader::new(child.stderr.take().unwrap());
    // Printed once the build, and its Ctrl-C handler, are under way.
    line_starting(&mut err, "building the multi-tile table");
    interrupt(&child);
    let reader = std::thread::spawn(move || rest(err));
    assert_eq!(exit_of(&mut child).code(), Some(130));
    let said = reader.join().unwrap();
    assert!(said.contains("build cancelled"), "{said}");
    // Not a search's words: no nodes, no moves.
    assert!(!said.contains("moves"), "{said}");
}

#[test]
fn ctrl_c_stops_a_pattern_database_build_with_130_saving_nothing_half_built() {
    let (_scratch, dir) = fresh_path("pdb-cancel");
    let dir_arg = dir.to_str().unwrap();
    // The 24-puzzle's zero-aware 6-6-6-6: seconds a table, far more than the signal waits.
    let mut child = spawn(&[
        "pdb",
        "build",
        "zpdb:6-6-6-6",
        "--goal",
        "korf",
        "--pdb-dir",
        dir_arg,
    ]);
    let mut err = BufReader::new(child.stderr.take().unwrap());
    // Printed once the first table's build, and the Ctrl-C handler, are under way.
    line_starting(&mut err, "building the pattern database of");
    interrupt(&child);
    let reader = std::thread::spawn(move || rest(err));
    assert_eq!(exit_of(&mut child).code(), Some(130));
    let said = reader.join().unwrap();
    assert!(said.contains("cancelled; nothing was saved"), "{said}");
    assert!(said.contains("build cancelled"), "{said}");
    // A limit's advice to build the tables with `pdb build` is not for this command.
    assert!(!said.contains("without a limit"), "{said}");
    // No table was left half written.
    let files: Vec<_> = std::fs::read_dir(&dir)
        .map(|d| d.map(|e| e.unwrap().file_name()).collect())
        .unwrap_or_default();
    assert!(
        files.iter().all(|f| f.to_string_lossy().ends_with(".pdb")),
        "{files:?}"
    );
    assert!(
        files.len() < 4,
        "the build stopped before its last table: {files:?}"
    );
}
