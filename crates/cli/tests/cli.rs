//! The `taquin` command as a user runs it: outputs, JSON fields, exit codes, errors.

use predicates::prelude::*;
use serde_json::{json, Value};

mod common;
use common::{fresh_path, json_out, scratch_dir, scratch_file, taquin};

const ARTICLE: &str = "6 4 7/8 5 0/3 2 1";

#[test]
fn solves_the_article_board_in_31_moves() {
    taquin()
        .args(["solve", ARTICLE])
        .assert()
        .success()
        .stdout(predicate::str::contains("Solved in 31 moves (optimal)"));
}

#[test]
fn json_has_the_shared_field_names_and_replays() {
    let v = json_out(
        &[
            "solve",
            ARTICLE,
            "--json",
            "-a",
            "astar",
            "-H",
            "linear-conflict",
        ],
        0,
    );
    for field in taquin::SolveReport::FIELDS {
        assert!(v.get(field).is_some(), "missing {field} in {v}");
    }
    assert_eq!(v["length"], 31);
    assert_eq!(v["optimal"], true);
    assert_eq!(v["algorithm"], "astar");
    assert_eq!(v["heuristic"], "linear-conflict");
    let moves = taquin::moves::parse_moves(v["moves"].as_str().unwrap()).unwrap();
    let board: taquin::Board = ARTICLE.parse().unwrap();
    taquin::verify_moves(&board, &taquin::Board::solved(3, 3).unwrap(), &moves).unwrap();
}

#[test]
fn reads_the_board_from_stdin_and_takes_any_goal() {
    taquin()
        .args(["solve", "-", "--goal", "0 1 2/3 4 5/6 7 8", "--json"])
        .write_stdin("8 0 6\n5 4 7\n2 3 1\n")
        .assert()
        .success()
        .stdout(predicate::str::contains("\"length\":31"));
    // A pipe or device named as the board (`<(...)`, /dev/stdin) is read as a file is.
    taquin()
        .args(["solve", "/dev/stdin", "--json"])
        .write_stdin("8 6 7/2 5 4/3 0 1\n")
        .assert()
        .success()
        .stdout(predicate::str::contains("\"length\":31"));
    taquin()
        .args(["verify", "8 6 7/2 5 4/3 0 1", "/dev/stdin"])
        .write_stdin("RULLDRRUULDLURDLDRURDLURULLDDRR\n")
        .assert()
        .success();
}

#[test]
fn show_prints_every_board() {
    taquin()
        .args(["solve", "1 2 3/4 5 6/7 0 8", "--show"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Moves: R"))
        .stdout(predicate::str::contains("1. R\n1 2 3\n4 5 6\n7 8 ."));
}

#[test]
fn unsolvable_exits_1_with_the_reason() {
    taquin()
        .args(["solve", "2 1 3/4 5 6/7 8 0"])
        .assert()
        .code(1)
        .stderr(
            predicate::str::contains("unsolvable")
                .and(predicate::str::contains("1 inversion away")),
        );
    taquin()
        .args(["solve", "2 1 3/4 5 6/7 8 0", "--json"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("\"code\":\"unsolvable\""));
}

#[test]
fn bad_input_exits_2_with_a_clear_error() {
    taquin()
        .args(["solve", "1 2 3/4 5/6 7 0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "row 2 has 2 tiles but row 1 has 3",
        ));
    taquin()
        .args(["solve", "1 1 3/4 5 6/7 8 0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("tile 1 appears more than once"));
    taquin()
        .args([
            "solve",
            ARTICLE,
            "--goal",
            "1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("same size"));
    taquin()
        .args(["solve", ARTICLE, "-H", "clever"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("unknown heuristic 'clever'")
                .and(predicate::str::contains("manhattan")),
        );
    taquin()
        .args(["solve", ARTICLE, "--timeout", "-1"])
        .assert()
        .code(2);
    // Whole numbers say what is wrong with them, a minus sign included (not "unexpected
    // argument", as a flag would be).
    for (args, says) in [
        (
            vec!["solve", ARTICLE, "--max-memory", "-5"],
            "a negative number",
        ),
        (
            vec!["solve", ARTICLE, "--threads", "1.5"],
            "not a whole number",
        ),
        (
            vec!["generate", "--seed", "99999999999999999999"],
            "too large",
        ),
        (
            vec!["generate", "--count", "0"],
            "--count 0 makes no boards",
        ),
    ] {
        taquin()
            .args(&args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(says));
    }
    // Names in any case, as goals are.
    taquin()
        .args(["solve", ARTICLE, "-a", "IDAstar", "-H", "Manhattan"])
        .assert()
        .success()
        .stdout(predicate::str::contains("with idastar + manhattan"));
}

#[test]
fn limits_exit_1_and_say_which() {
    // Korf's instance 3 needs far more than 1,000 nodes.
    let args = [
        "solve",
        "14 7 8 2/13 11 10 4/9 12 5 0/3 6 1 15",
        "--goal",
        "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15",
        "--max-nodes",
        "1000",
        "-H",
        "manhattan",
    ];
    taquin()
        .args(args)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("node limit reached"));
    // With --json: the fields of batch's limit records and the web API's limit errors.
    let out = taquin().args(args).arg("--json").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["code"], "limit_reached");
    assert_eq!(v["limit"], "nodes");
    assert!(v["lower_bound"].as_u64().unwrap() >= 41, "{v}");
    assert!(v.get("bound").is_none());
    // The search that was stopped, by name.
    assert_eq!(v["heuristic"], "manhattan", "{v}");
    assert!(v["algorithm"].is_string(), "{v}");
}

#[test]
fn generate_is_reproducible_and_solvable() {
    let a = taquin()
        .args(["generate", "--size", "3x3", "--count", "5", "--seed", "9"])
        .output()
        .unwrap();
    let b = taquin()
        .args(["generate", "--size", "3x3", "--count", "5", "--seed", "9"])
        .output()
        .unwrap();
    assert_eq!(a.stdout, b.stdout);
    let text = String::from_utf8(a.stdout).unwrap();
    assert_eq!(text.lines().count(), 5);
    let goal = taquin::Board::solved(3, 3).unwrap();
    for line in text.lines() {
        let board: taquin::Board = line.parse().unwrap();
        assert!(taquin::is_solvable(&board, &goal), "{line}");
    }
    taquin()
        .args(["generate", "--size", "3"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("WIDTHxHEIGHT"));
}

#[test]
fn generated_bench_lines_are_for_the_goal_their_readers_use() {
    // The format carries no goal: boards for another goal would be unsolvable as read.
    for goal in ["standard", "snail", "1 2 3/4 5 6/7 8 0"] {
        taquin()
            .args([
                "generate", "--size", "3x3", "--format", "bench", "--goal", goal,
            ])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("--format json"));
    }
    let out = taquin()
        .args([
            "generate", "--size", "3x3", "--format", "bench", "--goal", "korf",
        ])
        .args(["--count", "4", "--seed", "3"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let korf = taquin::Board::parse("0 1 2/3 4 5/6 7 8").unwrap();
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let tiles: Vec<u32> = line
            .split(" - ")
            .nth(1)
            .unwrap()
            .split(' ')
            .map(|t| t.parse().unwrap())
            .collect();
        let board = taquin::Board::from_tiles(3, 3, tiles).unwrap();
        assert!(taquin::is_solvable(&board, &korf), "{line}");
    }
    // A goal board gives the size; a --size that differs is refused.
    let out = taquin()
        .args(["generate", "--goal", "1 2/3 0"])
        .output()
        .unwrap();
    assert_eq!(
        taquin::Board::parse(String::from_utf8(out.stdout).unwrap().trim())
            .unwrap()
            .width(),
        2
    );
    taquin()
        .args(["generate", "--goal", "1 2/3 0", "--size", "3x3"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("leave out --size"));
}

#[test]
fn generated_walks_are_no_longer_than_the_walk() {
    let out = taquin()
        .args([
            "generate", "--size", "4x4", "--count", "3", "--seed", "1", "--moves", "12",
        ])
        .output()
        .unwrap();
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let out = taquin().args(["solve", line, "--json"]).output().unwrap();
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(v["length"].as_u64().unwrap() <= 12, "{line}: {v}");
    }
    // A walk of hours is refused at once, with what to do instead.
    taquin()
        .args(["generate", "--size", "3x3", "--moves", "1000000000000"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("leave out --moves"));
}

#[test]
fn bench_checks_lengths_against_optlen() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../core/tests/data/korf_easy.txt"
    );
    taquin()
        .args([
            "bench",
            file,
            "--first",
            "3",
            "-H",
            "walking-distance,linear-conflict",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("3 solved and checked, 0 wrong, 0 failed").count(2));
    // a wrong OPTLEN is caught
    let bad = scratch_file("cli-test", ".txt", "1 30 8 0 6 5 4 7 2 3 1\n");
    taquin()
        .args(["bench", bad.path().to_str().unwrap()])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("WRONG"));
    let bad = scratch_file("cli-test", ".txt", "1 30 8 0 6 5 4 7 2 3\n");
    taquin()
        .args(["bench", bad.path().to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("line 1"));
    // batch's formats are not misread: the message says which command reads them.
    let json = scratch_file("cli-test", ".txt", "{\"board\": \"1 2 3/4 5 6/7 0 8\"}\n");
    taquin()
        .args(["bench", json.path().to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("use `taquin batch`"));
    // An id asked for that the file does not hold is named, not skipped.
    taquin()
        .args(["bench", file, "--ids", "2,99"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no instance \"99\" in"));
}

#[test]
fn bench_gives_each_instance_its_own_time_limit() {
    // Korf's #60 runs into the limit with Manhattan distance; #12 then needs 412,317 nodes
    // (milliseconds; more than the 16,384 after which IDA* first looks at the clock). With one
    // deadline for the whole run, #12 started after it had passed.
    let file = scratch_file(
        "cli-test",
        ".txt",
        "60 66 11 14 13 1 2 3 12 4 15 7 9 5 10 6 8 0\n12 45 14 1 9 6 4 8 12 5 7 2 3 0 10 11 13 15\n",
    );
    let out = taquin()
        .args(["bench", file.path().to_str().unwrap(), "-H", "manhattan"])
        .args(["--jobs", "1", "--timeout", "2", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "one instance is not solved");
    let rows: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(rows[0]["error"].as_str().unwrap().contains("time limit"));
    assert_eq!(rows[0]["limit"], "time");
    assert_eq!(rows[1]["id"], "12");
    assert_eq!(rows[1]["check"], "ok", "{}", rows[1]);
    // In the table a limit keeps the columns: the nodes and time spent, the reason after them.
    let out = taquin()
        .args(["bench", file.path().to_str().unwrap(), "-H", "manhattan"])
        .args(["--jobs", "1", "--timeout", "0.3", "--first", "1"])
        .output()
        .unwrap();
    let table = String::from_utf8(out.stdout).unwrap();
    let row = table
        .lines()
        .find(|l| l.trim_start().starts_with("60"))
        .unwrap();
    let columns: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(&columns[..4], ["60", "66", "-", "limit"], "{row}");
    assert!(
        row.ends_with("moves") && row.contains("time limit; at least"),
        "{row}"
    );
}

#[test]
fn an_unsolvable_instance_is_a_failed_row_not_the_end_of_the_run() {
    // First in the file, where the run's plan was made from it.
    let file = scratch_file(
        "cli-test",
        ".txt",
        "2 - 2 1 3 4 5 6 7 8 0\n1 - 1 2 3 4 5 6 7 0 8\n",
    );
    let out = taquin()
        .args(["bench", file.path().to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "exit 1: not every instance solved"
    );
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(
        table.contains("error") && table.contains("unsolvable"),
        "{table}"
    );
    assert!(
        table.contains(
            "1 solved (no optimal length given to check them against), 0 wrong, 1 failed"
        ),
        "{table}"
    );
    // Its JSON line says so as batch's record does.
    let out = taquin()
        .args(["bench", file.path().to_str().unwrap(), "--json"])
        .output()
        .unwrap();
    let first: Value = serde_json::from_str(
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(first["status"], "unsolvable", "{first}");
}

#[test]
fn bench_writes_results_as_it_goes_and_resumes() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../core/tests/data/korf_easy.txt"
    );
    // Published counts for two of the instances (instance 12's is Korf's 1985 Manhattan count).
    let published = scratch_file("cli-test", ".txt", "# test\n12 546,344\n9 1650696\n");
    let dir = scratch_dir("bench-results");
    let results = dir.path().join("results.jsonl");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "bench",
            file,
            "-H",
            "manhattan",
            "--results",
            results.to_str().unwrap(),
            "--published",
            published.path().to_str().unwrap(),
            "--easiest-first",
            // The results file takes instances as they finish: one job makes that the
            // easiest-first order this test checks (two jobs may finish in either order).
            "--jobs",
            "1",
        ];
        args.extend_from_slice(extra);
        taquin().args(&args).output().unwrap()
    };
    let out = run(&["--first", "2"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("546,344"), "{stdout}");
    let records = |path: &std::path::Path| -> Vec<Value> {
        std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    // Easiest first: instance 12 (546,344 published), then 9.
    let first = records(&results);
    let ids: Vec<&str> = first.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["12", "9"]);
    for r in &first {
        for field in [
            "length",
            "optimal_length",
            "generated",
            "published_generated",
            "ratio",
            "time_ms",
            "threads",
            "memory_mib",
            "commit",
            "date",
            "cpu",
        ] {
            assert!(!r[field].is_null(), "{field} missing in {r}");
        }
        assert!(r["ratio"].as_f64().unwrap() <= 1.0, "{r}");
        // One job: the whole default memory budget (4 GiB) to each instance.
        assert_eq!(r["memory_mib"], 4096, "{r}");
    }
    // Without --resume an existing results file is refused; with it, only the rest is solved,
    // after a torn last line is dropped.
    assert_eq!(run(&[]).status.code(), Some(2));
    let mut text = std::fs::read_to_string(&results).unwrap();
    text.push_str("{\"id\": \"4");
    std::fs::write(&results, text).unwrap();
    let out = run(&["--resume"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let all = records(&results);
    let mut ids: Vec<&str> = all.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(&ids[..2], ["12", "9"]);
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), all.len(), "no instance twice");
    assert_eq!(all.len(), 6);
}

#[test]
fn bench_goes_on_with_a_stopped_instance_from_the_middle_of_its_iteration() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../core/tests/data/korf_easy.txt"
    );
    let scratch = scratch_dir("bench-places");
    let dir = scratch.path();
    let run = |results: &str, extra: &[&str]| {
        let results = dir.join(results);
        let mut args = vec![
            "bench",
            file,
            "--ids",
            "2",
            "-H",
            "linear-conflict",
            "--results",
            results.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        taquin().args(&args).output().unwrap()
    };
    let last_record = |results: &str| -> Value {
        let text = std::fs::read_to_string(dir.join(results)).unwrap();
        serde_json::from_str(text.lines().last().unwrap()).unwrap()
    };
    // In one go.
    assert!(run("whole.jsonl", &[]).status.success());
    let whole = last_record("whole.jsonl");
    assert!(!dir.join("whole.checkpoints").exists(), "nothing kept");
    let generated = whole["generated"].as_u64().unwrap();

    // Stopped by a node limit in the middle of an iteration: the place is kept.
    let limit = (generated / 2).to_string();
    let out = run("parts.jsonl", &["--max-nodes", &limit]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("1 instance of this run keeps the place") && stderr.contains("--resume"),
        "{stderr}"
    );
    let place = dir.join("parts.checkpoints/2.linear-conflict.txt");
    assert!(place.exists());
    assert_eq!(last_record("parts.jsonl")["status"], "limit");
    assert!(!stderr.contains("made no progress"), "{stderr}");

    // A sitting too short for one subtree leaves the place where it was, and says so.
    let out = run("parts.jsonl", &["--resume", "--max-nodes", "10"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("instance 2: this sitting made no progress: --max-nodes"),
        "{stderr}"
    );

    // Resumed, from there: the instance is solved with the counts of the run in one go, its
    // record replaces the stopped one in the summary, and the place is gone.
    let out = run("parts.jsonl", &["--resume"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stderr}{stdout}");
    assert!(stderr.contains("instance 2: going on from"), "{stderr}");
    assert!(
        stdout.contains("total: 1 instance, 1 solved and checked, 0 wrong, 0 failed"),
        "{stdout}"
    );
    let resumed = last_record("parts.jsonl");
    assert_eq!(resumed["status"], "solved");
    assert_eq!(resumed["length"], whole["length"]);
    assert_eq!(resumed["generated"].as_u64(), Some(generated));
    assert!(!dir.join("parts.checkpoints").exists());
    // Done: a further --resume solves nothing again.
    let out = run("parts.jsonl", &["--resume"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("all 1 already in"));
    // A run that starts afresh does not take up places left by earlier ones.
    std::fs::create_dir_all(dir.join("fresh.checkpoints")).unwrap();
    std::fs::write(dir.join("fresh.checkpoints/2.linear-conflict.txt"), "x").unwrap();
    let out = run("fresh.jsonl", &[]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("holds the places of earlier searches"),
        "{stderr}"
    );
}

#[test]
fn solve_goes_on_from_the_checkpoint_a_stopped_search_kept() {
    let dir = scratch_dir("solve-place");
    let place = dir.path().join("place.txt");
    // Korf's #2 (55 moves), a few million nodes with linear conflict.
    let board = "13 5 4 10/9 12 8 14/2 3 7 1/0 15 11 6";
    let solve = |extra: &[&str]| {
        let mut args = vec![
            "solve",
            board,
            "--goal",
            "korf",
            "-a",
            "idastar",
            "-H",
            "linear-conflict",
            "--checkpoint",
            place.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        taquin().args(&args).output().unwrap()
    };
    let out = solve(&["--max-nodes", "1500000", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("the same command goes on from there, its limits")
            && stderr.ends_with("the counts above are of every sitting\n"),
        "said last: {stderr}"
    );
    assert!(place.exists());
    assert!(!stderr.contains("made no progress"), "{stderr}");
    // A sitting too short for one step leaves the place as it was, and says so.
    let kept = std::fs::read_to_string(&place).unwrap();
    let out = solve(&["--max-nodes", "10"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("this sitting made no progress: --max-nodes ended it")
            && stderr.contains("give a larger --max-nodes"),
        "{stderr}"
    );
    let unmoved = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| !l.starts_with("elapsed_ms"))
            .map(String::from)
            .collect()
    };
    assert_eq!(
        unmoved(&std::fs::read_to_string(&place).unwrap()),
        unmoved(&kept)
    );
    let out = solve(&["--json"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("the search: going on from"), "{stderr}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["length"].as_u64(), v["optimal"].as_bool()),
        (Some(55), Some(true))
    );
    assert!(!place.exists(), "deleted once solved");
    // Another search's place is refused, and left alone.
    assert!(solve(&["--max-nodes", "1500000"]).status.code() == Some(1));
    let other = taquin()
        .args([
            "solve",
            board,
            "--goal",
            "korf",
            "-a",
            "idastar",
            "-H",
            "manhattan",
        ])
        .arg("--checkpoint")
        .arg(&place)
        .output()
        .unwrap();
    assert_eq!(other.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&other.stderr).contains("is the place of another search"),
        "{other:?}"
    );
    assert!(place.exists());
    // Only IDA* keeps a place.
    taquin()
        .args([
            "solve",
            board,
            "--goal",
            "korf",
            "-a",
            "astar",
            "--checkpoint",
        ])
        .arg(&place)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("add -a idastar"));
}

#[test]
fn compare_lists_every_heuristic() {
    let assert = taquin().args(["compare", ARTICLE]).assert().success();
    let out = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    for h in [
        "misplaced",
        "manhattan",
        "linear-conflict",
        "walking-distance",
    ] {
        assert_eq!(
            out.lines().filter(|l| l.contains(h)).count(),
            2,
            "{h} in\n{out}"
        );
    }
    // Eight runs of the article's experiment, and the planner's default, all optimal.
    assert_eq!(
        out.lines().filter(|l| l.contains(" 31 ")).count(),
        9,
        "{out}"
    );
    assert!(
        out.lines()
            .any(|l| l.starts_with("default ") && l.contains(" 31 ")),
        "{out}"
    );
    assert!(
        out.lines()
            .any(|l| l.starts_with("default: idastar + pdb:8")),
        "{out}"
    );
}

#[test]
fn a_resumed_bench_counts_the_instances_already_in_the_results_file() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../core/tests/data/korf_easy.txt"
    );
    let dir = scratch_dir("bench-resumed");
    let results = dir.path().join("results.jsonl");
    let bench = |extra: &[&str]| {
        let mut args = vec!["bench", file, "--first", "3", "-H", "manhattan"];
        args.extend(["--results", results.to_str().unwrap()]);
        args.extend_from_slice(extra);
        let out = taquin().args(&args).assert().success().get_output().clone();
        String::from_utf8(out.stdout).unwrap()
    };
    let summary = |stdout: &str| -> Value {
        let last = stdout.lines().last().unwrap();
        let v: Value = serde_json::from_str(last).unwrap();
        assert_eq!(v["summary"], true, "{v}");
        v
    };
    let first = summary(&bench(&["--json"]));
    assert_eq!(
        (first["instances"].as_u64(), first["solved"].as_u64()),
        (Some(3), Some(3))
    );
    // Rounded to the microsecond as every other time_ms, not 376.431645.
    let ms = first["time_ms"].to_string();
    assert!(ms.split('.').nth(1).is_none_or(|d| d.len() <= 3), "{ms}");
    // Nothing left to solve: the summary is still the run's, from the records in the file.
    let again = summary(&bench(&["--json", "--resume"]));
    for field in [
        "instances",
        "solved",
        "wrong",
        "failed",
        "expanded",
        "generated",
    ] {
        assert_eq!(again[field], first[field], "{field}: {again}");
    }
    // The sum of the records' times, each rounded to the microsecond.
    let ms = |v: &Value| v["time_ms"].as_f64().unwrap();
    assert!((ms(&again) - ms(&first)).abs() <= 0.003, "{again}");
    assert_eq!(again["resumed"], 3, "{again}");
    let text = bench(&["--resume"]);
    assert!(
        text.contains(&format!(
            "total: 3 instances (all 3 already in {}), 3 solved and checked, 0 wrong, 0 failed",
            results.display()
        )),
        "{text}"
    );
    // One instance left: two from the file, one solved now.
    let written = std::fs::read_to_string(&results).unwrap();
    let kept: Vec<&str> = written.lines().take(2).collect();
    std::fs::write(&results, kept.join("\n") + "\n").unwrap();
    let text = bench(&["--resume"]);
    assert!(
        text.contains(&format!(
            "total: 3 instances (2 already in {}), 3 solved and checked",
            results.display()
        )),
        "{text}"
    );
    // An instance whose latest record is an error (a damaged place, say) is solved again once
    // the cause is fixed: its error is not a result.
    let written = std::fs::read_to_string(&results).unwrap();
    let mut failed: Value = serde_json::from_str(written.lines().last().unwrap()).unwrap();
    failed["status"] = json!("error");
    failed["error"] = json!("a damaged place");
    std::fs::write(&results, format!("{written}{failed}\n")).unwrap();
    let text = bench(&["--resume"]);
    assert!(
        text.contains(&format!(
            "total: 3 instances (2 already in {}), 3 solved and checked, 0 wrong, 0 failed",
            results.display()
        )),
        "{text}"
    );
}

/// `--max-nodes` bounds each run; a run it stops shows its bound and the limit; the exit code
/// is 1 only when no run gave an answer.
#[test]
fn compare_takes_a_node_budget_and_fails_only_when_no_run_answers() {
    let assert = taquin()
        .args(["compare", ARTICLE, "-a", "astar", "-H", "manhattan"])
        .args(["--max-nodes", "1000"])
        .assert()
        .success();
    let out = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    let astar = out.lines().find(|l| l.starts_with("astar")).unwrap();
    assert!(astar.contains(">=") && astar.contains(" nodes "), "{out}");
    // The planner's pattern database finds the answer within the budget.
    assert!(
        out.lines()
            .any(|l| l.starts_with("default") && l.contains(" 31 ")),
        "{out}"
    );
    // Too few nodes for any run: nothing answered.
    taquin()
        .args(["compare", ARTICLE, "-a", "astar", "-H", "manhattan"])
        .args(["--max-nodes", "5"])
        .assert()
        .code(1);
}

#[test]
fn compare_gives_one_row_to_an_algorithm_that_takes_no_heuristic() {
    let assert = taquin()
        .args(["compare", ARTICLE, "-a", "constructive,bfs,lookahead,astar"])
        .assert()
        .success();
    let out = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    let rows = |algorithm: &str| {
        out.lines()
            .filter(|l| l.split_whitespace().next() == Some(algorithm))
            .count()
    };
    assert_eq!(rows("constructive"), 1, "{out}");
    assert_eq!(rows("bfs"), 1, "{out}");
    assert_eq!(rows("lookahead"), 1, "{out}");
    assert_eq!(rows("astar"), taquin::HeuristicKind::ALL.len(), "{out}");
}

#[test]
fn compare_runs_the_heuristics_named_with_h_and_refuses_one_named_twice() {
    // The standard output of `taquin compare ARTICLE -a idastar ARGS`.
    let compare = |args: &[&str]| {
        let mut all = vec!["compare", ARTICLE, "-a", "idastar"];
        all.extend_from_slice(args);
        let assert = taquin().args(&all).assert().success();
        String::from_utf8(assert.get_output().stdout.clone()).unwrap()
    };
    let out = compare(&["-H", "linear-conflict,manhattan"]);
    let rows: Vec<(&str, &str)> = out
        .lines()
        .skip(1)
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            Some((words.next()?, words.next()?))
        })
        .filter(|(a, _)| *a == "idastar")
        .collect();
    // The heuristics in the order given, and no other.
    assert_eq!(
        rows,
        [("idastar", "linear-conflict"), ("idastar", "manhattan")],
        "{out}"
    );
    let assert = taquin()
        .args(["compare", ARTICLE, "-H", "manhattan,manhattan"])
        .assert()
        .code(2);
    let err = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert!(err.contains("-H names 'manhattan' twice"), "{err}");
    assert!(assert.get_output().stdout.is_empty());
    // With --json, one line a run, the planner's own marked as the table's `default` row is.
    let out = compare(&["-H", "manhattan", "--json"]);
    let runs: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(runs.len(), 2, "{out}");
    assert_eq!(runs[0]["default"], false, "{out}");
    assert_eq!(runs[1]["default"], true, "{out}");
    assert_eq!(runs[1]["length"], 31, "{out}");
}

/// A build of seconds shows how far it got also off a terminal (a log, a CI job): a line at
/// each tenth of the placements, in order and naming the table (a server may build two at
/// once), then the line that says it is built.
#[test]
fn a_long_build_reports_its_progress_in_a_log() {
    let (scratch, dir) = fresh_path("cli-build-log");
    // The 7-tile table of the 15-puzzle: 57,657,600 entries, estimated at over a second of one
    // core's work (shown whatever the number of cores).
    let out = taquin()
        .args(["--pdb-dir", dir.to_str().unwrap(), "pdb", "build", "7-4-4"])
        .output()
        .unwrap();
    // The table, built only to watch the build, goes at once.
    drop(scratch);
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    let tenths: Vec<u64> = stderr
        .lines()
        .filter_map(|l| {
            l.trim()
                .strip_prefix("4x4 cells {4,8,12,1,5,9,13} (blank goal cell 0): ")?
                .strip_suffix(')')?
                .split_once(" % of the placements known")
        })
        .map(|(percent, _)| percent.parse().unwrap())
        .collect();
    assert!(tenths.len() >= 5, "{stderr}");
    assert!(tenths.windows(2).all(|w| w[0] < w[1]), "{stderr}");
    assert!(tenths.iter().all(|&t| t % 10 == 0 && t < 100), "{stderr}");
    assert!(
        stderr.contains("built the pattern database of 4x4 cells {4,8,12,1,5,9,13}"),
        "{stderr}"
    );
    assert!(
        stderr.contains("saved ") && stderr.contains("4x4-b00-04080c0105090d.pdb"),
        "{stderr}"
    );
}

/// A build of well under a second (the 8-puzzle's table) passes without a word about its
/// progress or its file.
#[test]
fn a_quick_build_passes_silently_in_a_log() {
    let (scratch, dir) = fresh_path("cli-quiet-build");
    let out = taquin()
        .args([
            "--pdb-dir",
            dir.to_str().unwrap(),
            "pdb",
            "build",
            "--size",
            "3x3",
        ])
        .output()
        .unwrap();
    drop(scratch);
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    for word in ["placements known", "built the pattern database", "saved "] {
        assert!(!stderr.contains(word), "{stderr}");
    }
    // The table was built and listed.
    assert!(String::from_utf8_lossy(&out.stdout).contains("3x3-b00-0102030405060708.pdb"));
}

/// `pdb build --goal G` builds the tables a solve toward `G` then finds on disk, also when the
/// solver maps `G` by a board symmetry (here a 3x3 goal with the blank in the top right corner,
/// served by the tables of the goal with the blank in the top left one).
#[test]
fn tables_built_for_a_goal_serve_that_goal() {
    let (_scratch, dir) = fresh_path("cli-goal-tables");
    let dir_arg = dir.to_str().unwrap();
    let goal = "1 2 0/3 4 5/6 7 8";
    taquin()
        .args([
            "--pdb-dir",
            dir_arg,
            "pdb",
            "build",
            "--size",
            "3x3",
            "--goal",
            goal,
        ])
        .assert()
        .success();
    let files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".pdb"))
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    assert!(files[0].starts_with("3x3-b00-"), "{files:?}");
    let out = json_out(
        &[
            "--pdb-dir",
            dir_arg,
            "solve",
            "1 2 5/3 0 4/6 7 8",
            "--goal",
            goal,
            "--json",
        ],
        0,
    );
    assert!(
        out["plan"].as_str().unwrap().contains("on disk"),
        "{}",
        out["plan"]
    );
    assert_eq!(out["optimal"], true);
}

#[test]
fn a_custom_partition_that_leaves_tiles_out_says_which() {
    taquin()
        .args(["pdb", "build", "--size", "3x3", "--partition", "1,2,3/4,5"])
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "note: tiles 6, 7, 8 are in no group: a search with these tables counts their moves by Manhattan distance alone",
        ));
    taquin()
        .args([
            "pdb",
            "build",
            "--size",
            "3x3",
            "--partition",
            "1 2 3 4/5 6 7 8",
        ])
        .assert()
        .success()
        .stderr(predicate::str::contains("note:").not());
}

/// An instance stopped by a limit is in the results file with its counts, so a resumed run's
/// summary adds up as the run's did.
#[test]
fn a_resumed_bench_counts_the_nodes_of_instances_stopped_by_a_limit() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../core/tests/data/korf_easy.txt"
    );
    let dir = scratch_dir("bench-limit");
    let results = dir.path().join("results.jsonl");
    let summary = |extra: &[&str]| -> Value {
        let mut args = vec!["bench", file, "--first", "2", "-H", "manhattan", "--json"];
        args.extend(["--max-nodes", "50", "--results", results.to_str().unwrap()]);
        args.extend_from_slice(extra);
        let out = taquin().args(&args).assert().code(1).get_output().clone();
        let stdout = String::from_utf8(out.stdout).unwrap();
        serde_json::from_str(stdout.lines().last().unwrap()).unwrap()
    };
    let first = summary(&[]);
    assert_eq!(first["failed"], 2, "{first}");
    let record: Value = serde_json::from_str(
        std::fs::read_to_string(&results)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(record["code"], "limit_reached", "{record}");
    // Which limit, as bench --json and batch say.
    assert_eq!(record["limit"], "nodes", "{record}");
    assert!(record["expanded"].as_u64().unwrap() > 0, "{record}");
    // Each stopped search kept its place: --resume goes on from there (another 50 nodes
    // each), and the summary counts each instance's latest record, which holds the nodes of
    // both sittings.
    let again = summary(&["--resume"]);
    assert_eq!(again["failed"], 2, "{again}");
    let records: Vec<Value> = std::fs::read_to_string(&results)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 4);
    let latest: u64 = records[2..]
        .iter()
        .map(|r| r["generated"].as_u64().unwrap())
        .sum();
    assert_eq!(again["generated"].as_u64(), Some(latest), "{again}");
    assert!(
        latest > first["generated"].as_u64().unwrap(),
        "{again} {first}"
    );
}

#[test]
fn a_board_typed_without_quotes_is_told_to_quote_it() {
    taquin()
        .args(["solve", "6", "4", "7/8", "5", "0/3", "2", "1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unexpected argument '4'"))
        .stderr(predicate::str::contains(
            "a board is one argument: quote it",
        ));
    // Another stray argument gets clap's own message only.
    taquin()
        .args(["solve", "1 2 3/4 5 6/7 0 8", "--bogus"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("quote it").not());
}

#[test]
fn output_flags_that_do_not_go_together_are_named_not_dropped() {
    taquin()
        .args(["solve", "1 2 3/4 5 6/7 0 8", "--show", "--json"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("leave out --show or --json"));
    taquin()
        .args(["solve", "1 2 3/4 5 6/7 0 8", "--show", "--report"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--report shows every board already: leave out --show or --report",
        ));
    // The tile notation shows each step as a tile's move.
    taquin()
        .args([
            "solve",
            "1 2 3/4 5 6/0 7 8",
            "--show",
            "--notation",
            "tiles",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("Moves (tiles): L2"))
        .stdout(predicate::str::contains("\n1. L\n1 2 3\n4 5 6\n7 . 8\n"))
        .stdout(predicate::str::contains("\n2. L\n1 2 3\n4 5 6\n7 8 .\n"));
    taquin()
        .args(["solve", "1 2 3/4 5 6/7 0 8", "--shorten", "--metric", "mtm"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "leave out --shorten or --metric mtm",
        ));
}

/// `--shorten` goes with the tile notation and the report too: the moves written are the
/// shortened ones, and the length before is said.
#[test]
fn shorten_goes_with_the_tile_notation_and_the_report() {
    let board = "13 12 6 10/14 5 15 4/8 0 7 3/1 9 11 2";
    let out = taquin()
        .args(["solve", board, "-a", "greedy", "-H", "manhattan"])
        .args(["--shorten", "--notation", "tiles", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let before = v["original_length"].as_u64().expect("original_length");
    assert!(v["length"].as_u64().unwrap() <= before, "{v}");
    taquin()
        .args([
            "verify",
            board,
            v["moves"].as_str().unwrap(),
            "--notation",
            "tiles",
        ])
        .assert()
        .code(0);
    taquin()
        .args(["solve", board, "-a", "greedy", "-H", "manhattan"])
        .args(["--shorten", "--report"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(format!(
            "shortened from {before} moves"
        )));
    // A solution the post-pass leaves as it was is not said to be shortened.
    let unchanged = [
        "solve",
        "8 6 7/2 5 4/3 0 1",
        "-a",
        "greedy",
        "-H",
        "manhattan",
        "--shorten",
    ];
    let out = taquin().args(unchanged).arg("--json").output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["original_length"], v["length"], "{v}");
    taquin()
        .args(unchanged)
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "the post-pass found nothing shorter",
        ))
        .stdout(predicate::str::contains("shortened from").not());
}

/// `--explain` says the plan before the search; a run that went another way says so after.
#[test]
fn explain_says_the_plan_as_run_when_the_run_went_another_way() {
    let (scratch, dir) = fresh_path("cli-explain");
    // The walking-distance tables of a 6x2 board take longer than a tenth of a second to
    // build: IDA* has none in its half of the time, nor the anytime search in the rest.
    let out = taquin()
        .arg("--pdb-dir")
        .arg(&dir)
        .args([
            "solve",
            "6 4 3 11 10 9/5 0 1 7 8 2",
            "-H",
            "walking-distance",
            "--timeout",
            "0.1",
            "--explain",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("plan: idastar + walking-distance"),
        "{stderr}"
    );
    assert!(
        stderr.contains("plan as run: anytime + walking-distance")
            && stderr.contains("constructive solver's first answer"),
        "{stderr}"
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("with constructive + none"), "{stdout}");
    // Tables asked for by name that cannot be built within the whole time limit: refused at
    // once with the command that builds them, not started in vain (a table of 127 M entries).
    taquin()
        .arg("--pdb-dir")
        .arg(&dir)
        .args([
            "solve",
            "4 3 24 8 1/14 11 12 20 2/19 0 6 9 7/13 5 21 17 16/22 10 23 18 15",
            "-H",
            "pdb:6-6-6-6",
            "--timeout",
            "0.2",
        ])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "pdb:6-6-6-6 is not on disk for this goal, and building it is expected to take",
        ))
        .stderr(predicates::str::contains(
            "build it once with `taquin pdb build pdb:6-6-6-6 --size 5x5`",
        ));
    assert_eq!(
        std::fs::read_dir(&dir).map_or(0, |d| d.count()),
        0,
        "nothing built"
    );
    drop(scratch);
}
