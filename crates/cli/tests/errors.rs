//! Errors as programs read them: with `--json`, every error of `solve`, `compare`, `verify` and
//! `gods-number` is one JSON object on standard output with the web API's field names and
//! codes; and flags that the chosen algorithm would ignore are refused.

use std::time::Duration;

use serde_json::Value;
use taquin_api::{ApiError, Settings, SolvePlan, SolveRequest};

mod common;
use common::{json_out, scratch_file, taquin};

const ARTICLE: &str = "6 4 7/8 5 0/3 2 1";
const ONE_MOVE: &str = "1 2 3/4 5 0/7 8 6";

/// Runs `taquin ARGS --json`, checks its exit code and returns its one JSON line (the error
/// object) and its standard error.
fn json_error(args: &[&str], code: i32) -> (Value, String) {
    let out = taquin().args(args).arg("--json").output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(code), "{stdout}\n{stderr}");
    assert_eq!(stdout.lines().count(), 1, "one JSON line: {stdout}");
    let v: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    assert!(v["code"].is_string(), "{v}");
    assert!(v["error"].is_string(), "{v}");
    assert!(
        v.get("kind").is_none(),
        "the API's field name, not kind: {v}"
    );
    (v, stderr)
}

/// What the web API answers for a solve request of `board` and `goal`, refused before any
/// search.
fn api_error(board: &str, goal: Option<&str>) -> ApiError {
    let settings = Settings {
        max_side: 8,
        default_timeout: Duration::from_secs(1),
        max_timeout: Duration::from_secs(1),
        max_nodes: 1000,
        max_memory: 1 << 26,
        trace_max_cells: 9,
        trace_max_nodes: 100,
        workers: 1,
        workload: taquin::Workload::One,
    };
    let body = serde_json::json!({ "board": board, "goal": goal });
    let request: SolveRequest = taquin_api::request_of(&body.to_string()).unwrap();
    SolvePlan::new(&settings, &taquin::Tables::in_memory(), &request).unwrap_err()
}

#[test]
fn a_board_or_goal_refused_before_the_search_is_a_json_error_with_the_web_apis_code() {
    let cases: [(&str, Option<&str>, i32); 4] = [
        ("1 2 3/4 5 6/7 0 0", None, 2),
        (ONE_MOVE, Some("1 2/3 0"), 2),
        (ONE_MOVE, Some("1 2 x/3 0 4/5 6 7"), 2),
        ("1 2 3/4 5 6/8 7 0", None, 1),
    ];
    for (board, goal, exit) in cases {
        let mut args = vec!["solve", board];
        if let Some(goal) = goal {
            args.extend(["--goal", goal]);
        }
        let (v, stderr) = json_error(&args, exit);
        let api = api_error(board, goal);
        assert_eq!(v["code"], api.code, "{v} against {}", api.body());
        assert_eq!(v.get("field"), api.body().get("field"), "{v}");
        // People still read the error on standard error where they did.
        if exit == 2 {
            assert!(stderr.starts_with("error: "), "{stderr}");
        }
        assert!(
            stderr.contains(v["error"].as_str().unwrap()),
            "the sentence stays on standard error: {stderr}"
        );
    }
    // So do the errors of the search itself: a table that does not fit the board, a limit.
    for (args, exit) in [
        (&["solve", ONE_MOVE, "-H", "pdb:5-5-5"][..], 2),
        (
            &[
                "solve",
                "8 6 7/2 5 4/3 0 1",
                "-H",
                "manhattan",
                "--max-nodes",
                "10",
            ][..],
            1,
        ),
    ] {
        let (v, stderr) = json_error(args, exit);
        assert!(
            stderr.contains(v["error"].as_str().unwrap()),
            "the sentence stays on standard error: {stderr}"
        );
        assert_eq!(stderr.starts_with("error: "), exit == 2, "{stderr}");
    }
    let (v, _) = json_error(&["solve", "1 2 3/4 5 6/7 0 0"], 2);
    assert_eq!(v["code"], "bad_board");
    assert_eq!(v["field"], "board");
    assert!(v["error"].as_str().unwrap().contains("2 blanks"), "{v}");
}

#[test]
fn a_limit_is_the_web_apis_limit_reached_with_the_same_fields() {
    let (v, _) = json_error(
        &[
            "solve",
            "14 7 8 2/13 11 10 4/9 12 5 0/3 6 1 15",
            "--goal",
            "korf",
            "--max-nodes",
            "1000",
            "-H",
            "manhattan",
        ],
        1,
    );
    let api = ApiError::from(taquin::SolveError::Limit {
        hit: taquin::LimitHit::Nodes,
        stats: taquin::Stats::default(),
        bound: 0,
    })
    .body();
    assert_eq!(v["code"], api["code"]);
    for field in ["limit", "lower_bound", "expanded", "generated", "time_ms"] {
        assert!(
            api.get(field).is_some() && v.get(field).is_some(),
            "{field}: {v}"
        );
    }
    // The same from the multi-tile search's output path.
    let (v, _) = json_error(&["solve", "1 2 3/4 5 6/8 7 0", "--notation", "tiles"], 1);
    assert_eq!(v["code"], "unsolvable");
}

#[test]
fn verify_and_gods_number_give_json_errors_too() {
    let (v, _) = json_error(&["verify", "1 2 3/4 5 0/7 8", "D"], 2);
    assert_eq!(
        (v["code"].as_str(), v["field"].as_str()),
        (Some("bad_board"), Some("board"))
    );
    let (v, _) = json_error(&["verify", ONE_MOVE, "DX"], 2);
    assert_eq!(
        (v["code"].as_str(), v["field"].as_str()),
        (Some("bad_moves"), Some("moves"))
    );
    // Moves that are not a solution: a verdict (exit 1), with a code that says which way.
    let (v, _) = json_error(&["verify", ONE_MOVE, "R"], 1);
    assert_eq!(
        (v["code"].as_str(), v["valid"].as_bool()),
        (Some("illegal_move"), Some(false))
    );
    let (v, _) = json_error(&["verify", ONE_MOVE, "U"], 1);
    assert_eq!(
        (v["code"].as_str(), v["valid"].as_bool()),
        (Some("not_the_goal"), Some(false))
    );
    let (v, _) = json_error(&["verify", ONE_MOVE, "D", "--timeout", "0"], 2);
    assert_eq!(v["code"], "bad_limit");
    let (v, _) = json_error(&["gods-number", "3x3", "--goal", "1 2/3 0"], 2);
    assert_eq!(v["code"], "size_mismatch");
    // A goal from a file, as solve takes one: read, then held to the size asked.
    let file = scratch_file("gods-goal", ".txt", "0 1 2/3 4 5\n");
    let goal = file.path().to_str().unwrap();
    let (v, _) = json_error(&["gods-number", "2x3", "--goal", goal], 2);
    assert_eq!(v["code"], "size_mismatch");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("the goal is 3x2 but the size asked is 2x3"),
        "{v}"
    );
    let out = json_out(&["gods-number", "3x2", "--goal", goal, "--json"], 0);
    assert_eq!(out["goal"], "0 1 2/3 4 5", "{out}");
    // Without a size, a goal board (typed or in a file) gives its own.
    let out = json_out(&["gods-number", "--goal", goal, "--json"], 0);
    assert_eq!(
        (out["width"].as_u64(), out["diameter"].as_u64()),
        (Some(3), Some(21)),
        "{out}"
    );
    let out = json_out(&["gods-number", "--goal", "1 2/3 0", "--json"], 0);
    assert_eq!(
        (out["width"].as_u64(), out["states"].as_u64()),
        (Some(2), Some(12)),
        "{out}"
    );
    // A name needs the size it is laid out on, and a word that is no name is said to be so.
    let (v, _) = json_error(&["gods-number", "--goal", "korf"], 2);
    assert_eq!(v["code"], "bad_usage");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("gods-number 3x3 --goal korf"),
        "{v}"
    );
    let (v, _) = json_error(&["gods-number", "--goal", "korff"], 2);
    assert_eq!(v["code"], "bad_board");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("unknown goal 'korff'"),
        "{v}"
    );
    let (v, _) = json_error(&["gods-number"], 2);
    assert!(
        v["error"].as_str().unwrap().contains("give the board size"),
        "{v}"
    );
    let (v, _) = json_error(&["gods-number", "3x3", "--goal", "nowhere"], 2);
    assert_eq!(
        (v["code"].as_str(), v["field"].as_str()),
        (Some("bad_board"), Some("goal"))
    );
    let (v, _) = json_error(&["gods-number", "3x3", "--max-nodes", "100"], 1);
    assert_eq!(
        (v["code"].as_str(), v["limit"].as_str()),
        (Some("limit_reached"), Some("nodes"))
    );
    assert!(v["time_ms"].as_f64().is_some(), "{v}");
    // What the states found prove: God's number is at least the depth of the layers done,
    // and one more once a state of the next was found (the 8-puzzle's layers to depth 6 hold
    // 90 states, so a budget of 100 stops inside layer 7).
    let layers: Vec<u64> = serde_json::from_value(v["distribution"].clone()).unwrap();
    assert_eq!(layers, [1, 2, 4, 8, 16, 20, 39], "{v}");
    let deeper = v["generated"].as_u64().unwrap() - layers.iter().sum::<u64>();
    assert!(deeper > 0, "{v}");
    assert_eq!(v["lower_bound"], 7, "{v}");
    let (v, _) = json_error(&["gods-number", "5x5"], 2);
    assert_eq!(v["code"], "too_large");
}

#[test]
fn compare_gives_its_errors_the_same_code() {
    let (v, _) = json_error(&["compare", "1 2 3/4 5 6/8 7 0"], 1);
    assert_eq!(v["code"], "unsolvable");
    let out = taquin()
        .args(["compare", ARTICLE, "-a", "astar", "--max-memory", "1"])
        .arg("--json")
        .output()
        .unwrap();
    let lines: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let failed: Vec<&Value> = lines.iter().filter(|v| v.get("error").is_some()).collect();
    assert!(!failed.is_empty(), "{lines:?}");
    for v in failed {
        assert_eq!(v["code"], "limit_reached", "{v}");
        assert_eq!(v["limit"], "memory", "{v}");
        assert_eq!(v["algorithm"], "astar", "{v}");
    }
}

#[test]
fn a_flag_the_algorithm_does_not_use_is_refused_saying_which_algorithms_take_it() {
    let cases: [(&[&str], &str); 5] = [
        (
            &["-a", "idastar", "--weight", "3"],
            "--weight applies to weighted-astar only, not to idastar: drop it or choose -a weighted-astar",
        ),
        (
            &["--weight", "3"],
            "--weight applies to weighted-astar only, not to auto",
        ),
        (
            &["-a", "astar", "--depth", "3"],
            "--depth applies to lookahead and lrta only, not to astar: drop it or choose -a lookahead or -a lrta",
        ),
        (
            &["-a", "astar", "--threads", "2"],
            "--threads applies to idastar and anytime only, not to astar: drop it or choose -a idastar or -a anytime",
        ),
        (
            &["--threads", "2", "--notation", "tiles", "-a", "greedy"],
            "--threads applies to idastar and anytime only, not to greedy",
        ),
    ];
    for (flags, message) in cases {
        let out = taquin()
            .args(["solve", ONE_MOVE])
            .args(flags)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flags:?}: {stderr}");
        assert!(stderr.contains(message), "{flags:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{flags:?}: nothing solved");
        let (v, _) = json_error(&[&["solve", ONE_MOVE][..], flags].concat(), 2);
        assert_eq!(v["code"], "bad_fields", "{v}");
    }
    // Beyond 16 cells the planner's anytime search takes --threads (1: one thread).
    let v = json_out(
        &[
            "solve",
            "1 2 3 4 5/6 7 8 9 10/11 12 13 14 15/16 17 18 19 20/21 22 23 0 24",
            "--threads",
            "1",
            "--timeout",
            "1",
            "--json",
        ],
        0,
    );
    assert_eq!(v["length"], 1, "{v}");
    // bench's --threads splits IDA* only.
    let korf24 = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../core/tests/data/korf_easy.txt"
    );
    taquin()
        .args(["bench", korf24, "-a", "anytime", "--threads", "2"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicates::str::contains(
            "bench's --threads splits IDA* only, not anytime: drop it or choose -a idastar",
        ));
    // batch checks them before any instance: no record, the error alone (as JSON, as its
    // records are).
    taquin()
        .args(["batch", "-a", "idastar", "--weight", "2"])
        .write_stdin(format!("{{\"board\": \"{ONE_MOVE}\"}}\n"))
        .assert()
        .code(2)
        .stdout(predicates::str::starts_with("{\"code\":\"bad_fields\""))
        .stderr(predicates::str::contains(
            "--weight applies to weighted-astar only",
        ));
    // So does bench, whose default is IDA*.
    let korf = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../core/tests/data/korf_easy.txt"
    );
    taquin()
        .args([
            "bench",
            korf,
            "--first",
            "1",
            "-a",
            "astar",
            "--threads",
            "2",
        ])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicates::str::contains(
            "bench's --threads splits IDA* only, not astar: drop it or choose -a idastar",
        ));
    // With the algorithms that take them, they are used as before.
    for flags in [
        &["-a", "weighted-astar", "--weight", "3"][..],
        &["-a", "lrta", "--depth", "3"],
        &["-a", "lookahead", "--depth", "3"],
        &["-a", "idastar", "--threads", "2"],
        &["--threads", "2"],
    ] {
        let v = json_out(&[&["solve", ONE_MOVE, "--json"][..], flags].concat(), 0);
        assert_eq!(v["length"], 1, "{flags:?}: {v}");
    }
}
