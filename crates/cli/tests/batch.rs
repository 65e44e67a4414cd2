//! `taquin batch` as a user runs it: order, formats, bad lines, limits, resume and shards.

use std::fs;

use serde_json::Value;
use taquin::generate::{uniform, Rng};
use taquin::moves::parse_moves;
use taquin::{verify_moves, Board};

mod common;
use common::taquin;

/// Twenty random 8-puzzles as JSON Lines, then a comment, a bad line, a bench-format line, an
/// unsolvable board and an array-of-rows board.
fn input() -> String {
    let goal = Board::solved(3, 3).unwrap();
    let mut rng = Rng::new(42);
    let mut text = String::new();
    for i in 0..20 {
        let b = uniform(&goal, &mut rng);
        text += &format!("{{\"id\": \"r{i}\", \"board\": \"{}\"}}\n", b.to_line());
    }
    text += "# a comment gives no record\n\n";
    text += "{\"id\": \"bad\", \"board\": \"1 2 3/4 5 5/7 8 0\"}\n";
    text += "k1 31 8 0 6 5 4 7 2 3 1\n";
    text += "{\"id\": \"swap\", \"board\": \"2 1 3/4 5 6/7 8 0\"}\n";
    text += "{\"id\": \"rows\", \"board\": [[1,2,3],[4,5,6],[7,0,8]]}\n";
    text
}

/// The records of a run, each checked to name every field once: a record flattens the solve's
/// report beside fields of its own, and a reader may keep either of two equal keys.
fn records(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|l| {
            let Keys(keys) = serde_json::from_str(l).unwrap();
            for (i, key) in keys.iter().enumerate() {
                assert!(!keys[..i].contains(key), "{key} twice in {l}");
            }
            serde_json::from_str(l).unwrap()
        })
        .collect()
}

/// The keys of a JSON object in order, repeats kept (`Value` keeps only the last of two).
struct Keys(Vec<String>);

impl<'de> serde::Deserialize<'de> for Keys {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Keys, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Keys;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Keys, A::Error> {
                let mut keys = Vec::new();
                while let Some((key, serde::de::IgnoredAny)) = map.next_entry()? {
                    keys.push(key);
                }
                Ok(Keys(keys))
            }
        }
        d.deserialize_map(Visitor)
    }
}

/// The records without their timings, which differ from run to run.
fn untimed(mut records: Vec<Value>) -> Vec<Value> {
    for r in &mut records {
        r.as_object_mut().unwrap().remove("time_ms");
    }
    records
}

fn run_batch(dir: &std::path::Path, extra: &[&str]) -> (i32, Vec<Value>) {
    let file = dir.join("in.jsonl");
    fs::write(&file, input()).unwrap();
    let out = taquin()
        .args(["batch", file.to_str().unwrap(), "-H", "manhattan"])
        .args(extra)
        .output()
        .unwrap();
    (out.status.code().unwrap(), records(&out.stdout))
}

fn tempdir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("taquin-batch-{name}-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn one_record_per_instance_line_in_input_order_and_every_solution_replays() {
    let dir = tempdir("order");
    let (code, recs) = run_batch(&dir, &["--jobs", "3"]);
    assert_eq!(code, 1, "bad and unsolvable lines make the exit code 1");
    assert_eq!(recs.len(), 24);
    let lines: Vec<u64> = recs.iter().map(|r| r["line"].as_u64().unwrap()).collect();
    let mut sorted = lines.clone();
    sorted.sort_unstable();
    assert_eq!(lines, sorted);
    for r in &recs[..20] {
        assert_eq!(r["status"], "solved", "{r}");
        for field in taquin::SolveReport::FIELDS {
            assert!(r.get(field).is_some(), "missing {field} in {r}");
        }
        assert_eq!(r["optimal"], true);
        assert!(r["length"].as_u64() >= r["lower_bound"].as_u64());
    }
    let bad = &recs[20];
    assert_eq!(bad["id"], "bad");
    assert_eq!(bad["status"], "error");
    assert!(
        bad["error"]
            .as_str()
            .unwrap()
            .contains("tile 5 appears more than once"),
        "{bad}"
    );
    let korf = &recs[21];
    assert_eq!(
        (korf["id"].as_str(), korf["length"].as_u64()),
        (Some("k1"), Some(31))
    );
    assert_eq!(korf["optimal_length"], 31);
    assert_eq!(recs[22]["status"], "unsolvable");
    assert_eq!(recs[23]["moves"], "R");
    // Replays, against the goal each line asked for.
    let goal = Board::solved(3, 3).unwrap();
    let text = input();
    for (r, line) in recs[..20].iter().zip(text.lines()) {
        let v: Value = serde_json::from_str(line).unwrap();
        let board: Board = v["board"].as_str().unwrap().parse().unwrap();
        let moves = parse_moves(r["moves"].as_str().unwrap()).unwrap();
        verify_moves(&board, &goal, &moves).unwrap();
    }
    fs::remove_dir_all(dir).ok();
}

#[test]
fn shards_together_are_exactly_the_unsharded_output() {
    let dir = tempdir("shards");
    let (_, whole) = run_batch(&dir, &[]);
    let mut merged = Vec::new();
    for i in 1..=3 {
        let (_, part) = run_batch(&dir, &["--shard", &format!("{i}/3"), "--jobs", "1"]);
        assert!(!part.is_empty());
        merged.extend(part);
    }
    merged.sort_by_key(|r| r["line"].as_u64());
    assert_eq!(untimed(merged), untimed(whole));
    taquin()
        .args(["batch", "--shard", "4/3"])
        .write_stdin("")
        .assert()
        .code(2);
    fs::remove_dir_all(dir).ok();
}

#[test]
fn resume_keeps_complete_records_drops_a_torn_line_and_finishes() {
    let dir = tempdir("resume");
    let file = dir.join("in.jsonl");
    fs::write(&file, input()).unwrap();
    let out = dir.join("out.jsonl");
    let full = taquin()
        .args([
            "batch",
            file.to_str().unwrap(),
            "-H",
            "manhattan",
            "-o",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(full.status.code(), Some(1));
    let complete = fs::read_to_string(&out).unwrap();
    // An interrupted run: seven complete records and half of the eighth.
    let kept: Vec<&str> = complete.lines().collect();
    let torn = format!(
        "{}\n{}",
        kept[..7].join("\n"),
        &kept[7][..kept[7].len() / 2]
    );
    fs::write(&out, torn).unwrap();
    taquin()
        .args([
            "batch",
            file.to_str().unwrap(),
            "-H",
            "manhattan",
            "-o",
            out.to_str().unwrap(),
            "--resume",
        ])
        .assert()
        .code(1);
    let resumed = fs::read_to_string(&out).unwrap();
    assert_eq!(
        untimed(records(resumed.as_bytes())),
        untimed(records(complete.as_bytes()))
    );
    // The first seven records were kept as they were, timings included.
    assert_eq!(
        resumed.lines().take(7).collect::<Vec<_>>(),
        kept[..7].to_vec()
    );
    // Resuming a finished output solves nothing more, and its exit code still counts the
    // instances that were not solved.
    taquin()
        .args([
            "batch",
            file.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--resume",
        ])
        .assert()
        .code(1);
    assert_eq!(fs::read_to_string(&out).unwrap(), resumed);
    // --resume needs --output.
    taquin()
        .args(["batch", "--resume"])
        .write_stdin("")
        .assert()
        .code(2);
    fs::remove_dir_all(dir).ok();
}

#[test]
fn a_node_limit_gives_a_limit_record_with_a_bound() {
    let goal = Board::solved(4, 4).unwrap();
    let board = uniform(&goal, &mut Rng::new(3));
    let line = format!("{{\"board\": \"{}\"}}\n", board.to_line());
    let out = taquin()
        .args(["batch", "--max-nodes", "1000", "-H", "manhattan"])
        .write_stdin(line)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let r = &records(&out.stdout)[0];
    assert_eq!(r["status"], "limit", "{r}");
    // The same fields as `solve --json` and the web API's limit errors.
    assert_eq!(r["limit"], "nodes");
    assert!(r.get("bound").is_none(), "{r}");
    let manhattan = taquin::solvers::manhattan_lower_bound(&board, &goal);
    assert!(r["lower_bound"].as_u64().unwrap() >= manhattan, "{r}");
}

#[test]
fn beyond_optimal_algorithms_from_stdin() {
    let goal = Board::solved(12, 9).unwrap();
    let big = uniform(&goal, &mut Rng::new(5));
    let eight = "{\"id\": \"e\", \"board\": \"8 6 7/2 5 4/3 0 1\"}";
    let input = format!("{{\"board\": \"{}\"}}\n{eight}\n", big.to_line());
    let out = taquin()
        .args(["batch", "-a", "constructive", "--shorten"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert!(out.status.success());
    let recs = records(&out.stdout);
    let moves = parse_moves(recs[0]["moves"].as_str().unwrap()).unwrap();
    verify_moves(&big, &goal, &moves).unwrap();
    assert_eq!(recs[0]["optimal"], false);
    assert!(recs[0]["original_length"].as_u64().unwrap() >= recs[0]["length"].as_u64().unwrap());
    // The post-pass's window searches are part of what the answer cost.
    let plain = taquin()
        .args(["batch", "-a", "constructive"])
        .write_stdin(format!("{{\"board\": \"{}\"}}\n", big.to_line()))
        .output()
        .unwrap();
    let plain = &records(&plain.stdout)[0];
    for field in ["generated", "expanded"] {
        let (with, without) = (recs[0][field].as_u64(), plain[field].as_u64());
        assert!(
            with.unwrap() > without.unwrap(),
            "{field}: {with:?} vs {without:?}"
        );
    }
    let out = taquin()
        .args(["batch", "-a", "weighted-astar", "--weight", "1.5"])
        .write_stdin(eight)
        .output()
        .unwrap();
    let r = &records(&out.stdout)[0];
    assert_eq!(r["suboptimality_bound"], 1.5);
    assert!(r["length"].as_f64().unwrap() <= 31.0 * 1.5);
    let out = taquin()
        .args(["batch", "-a", "lookahead"])
        .write_stdin(eight)
        .output()
        .unwrap();
    let r = &records(&out.stdout)[0];
    assert!(r["status"] == "cycle" || r["status"] == "solved", "{r}");
}

#[test]
fn node_counts_do_not_depend_on_how_many_boards_run_at_once() {
    // Beyond 16 cells the duplicate-pruning automaton is learned deep only where the memory
    // budget holds its learning; the boards run at once share the budget, so a share of the
    // default among four would not: it is learned with the whole budget first.
    let dir = tempdir("jobs");
    let goal = Board::solved(5, 5).unwrap();
    let mut text = String::new();
    for seed in 1..=4 {
        let b = taquin::generate::random_walk(&goal, 70, &mut Rng::new(seed));
        text += &format!("{{\"id\": \"w{seed}\", \"board\": \"{}\"}}\n", b.to_line());
    }
    let file = dir.join("walks.jsonl");
    fs::write(&file, text).unwrap();
    let generated = |jobs: &str| -> Vec<u64> {
        // Exit 0, or the failure shows the run's standard error.
        let out = taquin()
            .args(["batch", file.to_str().unwrap(), "--jobs", jobs])
            .args(["-a", "idastar", "-H", "linear-conflict"])
            .assert()
            .success()
            .get_output()
            .clone();
        records(&out.stdout)
            .iter()
            .map(|r| {
                assert_eq!(r["optimal"], true, "{r}");
                r["generated"].as_u64().unwrap()
            })
            .collect()
    };
    assert_eq!(generated("4"), generated("1"));
}
