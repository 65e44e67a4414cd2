//! `taquin batch` as a user runs it: order, formats, bad lines, limits, resume and shards.

use std::fs;

use serde_json::Value;
use taquin::generate::{uniform, Rng};
use taquin::moves::parse_moves;
use taquin::{verify_moves, Board};

mod common;
use common::{scratch_dir, taquin};

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

#[test]
fn one_record_per_instance_line_in_input_order_and_every_solution_replays() {
    let dir = scratch_dir("batch-order");
    let (code, recs) = run_batch(dir.path(), &["--jobs", "3"]);
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
    // With the code `--json` errors and the web API give.
    assert_eq!(bad["code"], "bad_board", "{bad}");
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
    assert_eq!(recs[22]["code"], "unsolvable");
    assert!(recs[22].get("lower_bound").is_none(), "{}", recs[22]);
    assert!(
        recs[21].get("code").is_none(),
        "a solved record has no code"
    );
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
}

#[test]
fn shards_together_are_exactly_the_unsharded_output() {
    let dir = scratch_dir("batch-shards");
    let (_, whole) = run_batch(dir.path(), &[]);
    let mut merged = Vec::new();
    for i in 1..=3 {
        let (_, part) = run_batch(dir.path(), &["--shard", &format!("{i}/3"), "--jobs", "1"]);
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
}

#[test]
fn resume_keeps_complete_records_drops_a_torn_line_and_finishes() {
    let dir = scratch_dir("batch-resume");
    let file = dir.path().join("in.jsonl");
    fs::write(&file, input()).unwrap();
    let out = dir.path().join("out.jsonl");
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
    // Cut inside a character (the first byte of a two-byte "é"): still a torn line, redone.
    let mut torn = format!("{}\n{{\"id\":\"", kept[..7].join("\n")).into_bytes();
    torn.push(0xc3);
    fs::write(&out, torn).unwrap();
    taquin()
        .args(["batch", file.to_str().unwrap(), "-H", "manhattan"])
        .args(["-o", out.to_str().unwrap(), "--resume"])
        .assert()
        .code(1);
    let resumed = fs::read_to_string(&out).unwrap();
    assert_eq!(
        untimed(records(resumed.as_bytes())),
        untimed(records(complete.as_bytes()))
    );
    // Resuming a finished output solves nothing more, and its exit code still counts the
    // instances that were not solved.
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
    assert_eq!(fs::read_to_string(&out).unwrap(), resumed);
    // --resume needs --output.
    taquin()
        .args(["batch", "--resume"])
        .write_stdin("")
        .assert()
        .code(2);
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
    assert_eq!(r["code"], "limit_reached");
    assert_eq!(r["limit"], "nodes");
    assert!(r.get("bound").is_none(), "{r}");
    let manhattan = taquin::solvers::manhattan_lower_bound(&board, &goal);
    assert!(r["lower_bound"].as_u64().unwrap() >= manhattan, "{r}");
    // With its sentence, as every record that is not solved.
    assert!(
        r["error"].as_str().unwrap().contains("node limit reached"),
        "{r}"
    );
    // A field the line format does not have: the web API's code for it.
    let out = taquin()
        .args(["batch"])
        .write_stdin("{\"board\": \"1 2 3/4 5 6/7 0 8\", \"oops\": 1}\n")
        .output()
        .unwrap();
    let r = &records(&out.stdout)[0];
    assert_eq!(
        (r["status"].as_str(), r["code"].as_str()),
        (Some("error"), Some("bad_fields")),
        "{r}"
    );
    // A field of the wrong range: the same code, and the range in the sentence.
    let out = taquin()
        .args(["batch"])
        .write_stdin("{\"board\": \"1 2 3/4 5 6/7 0 8\", \"optimal_length\": -3}\n")
        .output()
        .unwrap();
    let r = &records(&out.stdout)[0];
    assert_eq!(r["code"], "bad_fields", "{r}");
    assert!(r["error"].as_str().unwrap().contains("from 0 to"), "{r}");
    // A missing board, one of the wrong type, or JSON that is not an object: the same code.
    let out = taquin()
        .args(["batch"])
        .write_stdin("{\"id\": 1}\n{\"board\": 5}\n[[1,2],[3,0]]\n")
        .output()
        .unwrap();
    let recs = records(&out.stdout);
    assert_eq!(recs.len(), 3);
    for r in recs {
        assert_eq!(r["code"], "bad_fields", "{r}");
    }
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
        .args(["-H", "linear-conflict"])
        .write_stdin(eight)
        .output()
        .unwrap();
    let r = &records(&out.stdout)[0];
    // The weight, or the length over the lower bound where that is smaller: a true bound.
    let factor = r["suboptimality_bound"].as_f64().unwrap();
    let length = r["length"].as_f64().unwrap();
    assert!(factor <= 1.5 && length / 31.0 <= factor + 1e-9, "{r}");
    assert!(length <= 31.0 * 1.5);
    // With the 8-puzzle's exact table the bound at the start is the optimum: an answer of that
    // length is proven optimal, whatever found it.
    let out = taquin()
        .args(["batch", "-a", "weighted-astar", "--weight", "1.5"])
        .write_stdin(eight)
        .output()
        .unwrap();
    let r = &records(&out.stdout)[0];
    assert_eq!(
        (&r["length"], &r["optimal"]),
        (&31.into(), &true.into()),
        "{r}"
    );
    assert_eq!(r["suboptimality_bound"], 1.0);
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
    // The boards run at once share the memory budget, which beyond 16 cells bounds the beams
    // beside IDA*; the pruning, and with it each count, must not depend on that share.
    let dir = scratch_dir("batch-jobs");
    let goal = Board::solved(5, 5).unwrap();
    let mut text = String::new();
    for seed in 1..=4 {
        let b = taquin::generate::random_walk(&goal, 70, &mut Rng::new(seed));
        text += &format!("{{\"id\": \"w{seed}\", \"board\": \"{}\"}}\n", b.to_line());
    }
    let file = dir.path().join("walks.jsonl");
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

/// `taquin batch ARGS` on `input`, with its exit code, records and standard error.
fn batch_stdin(args: &[&str], input: &str) -> (i32, Vec<Value>, String) {
    let out = taquin()
        .arg("batch")
        .args(args)
        .write_stdin(input)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        records(&out.stdout),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_input_file_is_never_the_output() {
    let dir = scratch_dir("batch-same");
    let file = dir.path().join("in.jsonl");
    fs::write(&file, input()).unwrap();
    let link = dir.path().join("link.jsonl");
    fs::hard_link(&file, &link).unwrap();
    let spelt = dir.path().join(".").join("in.jsonl");
    for (output, resume) in [(&file, false), (&link, false), (&spelt, true)] {
        taquin()
            .args([
                "batch",
                file.to_str().unwrap(),
                "-o",
                output.to_str().unwrap(),
            ])
            .args(resume.then_some("--resume"))
            .assert()
            .code(2)
            .stderr(predicates::str::contains("is the input file"))
            .stderr(predicates::str::contains("give -o another file"));
        assert_eq!(fs::read_to_string(&file).unwrap(), input());
    }
    // Standard input redirected from the file (`taquin batch -o in.jsonl < in.jsonl`).
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_taquin"))
        .args(["batch", "-o", file.to_str().unwrap()])
        .stdin(fs::File::open(&file).unwrap())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(2));
    assert_eq!(fs::read_to_string(&file).unwrap(), input());
}

/// Records of earlier versions, which echoed ids this one refuses (`1e2` as 100.0), still
/// resume: hours of answers are not thrown away for an id's spelling.
#[test]
fn resume_keeps_records_of_ids_now_refused() {
    let dir = scratch_dir("batch-old-ids");
    let file = dir.path().join("in.jsonl");
    let lines = "{\"id\": 1e2, \"board\": \"1 2/0 3\"}\n{\"id\": 7, \"board\": \"1 2/0 3\"}\n";
    fs::write(&file, lines).unwrap();
    let out = dir.path().join("out.jsonl");
    let earlier = "{\"line\":1,\"id\":100.0,\"status\":\"solved\",\"moves\":\"R\",\"length\":1}\n";
    fs::write(&out, earlier).unwrap();
    taquin()
        .args([
            "batch",
            file.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--resume",
        ])
        .assert()
        .success();
    let written = fs::read_to_string(&out).unwrap();
    assert!(written.starts_with(earlier), "{written}");
    let recs = records(written.as_bytes());
    assert_eq!((recs.len(), &recs[1]["id"]), (2, &serde_json::json!(7)));
}

#[test]
fn a_run_without_resume_refuses_an_output_that_holds_records() {
    let dir = scratch_dir("batch-overwrite");
    let file = dir.path().join("in.txt");
    fs::write(&file, "1 2 3/4 5 6/7 0 8\n").unwrap();
    let out = dir.path().join("out.jsonl");
    fs::write(&out, "{\"line\":1,\"precious\":true}\n").unwrap();
    taquin()
        .args(["batch", file.to_str().unwrap(), "-o", out.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "already holds records: add --resume",
        ));
    assert_eq!(
        fs::read_to_string(&out).unwrap(),
        "{\"line\":1,\"precious\":true}\n"
    );
    // An empty file is written as a new one.
    fs::write(&out, "").unwrap();
    taquin()
        .args(["batch", file.to_str().unwrap(), "-o", out.to_str().unwrap()])
        .assert()
        .success();
    assert_eq!(records(fs::read(&out).unwrap().as_slice()).len(), 1);
}

#[test]
fn resume_refuses_an_output_that_is_not_this_runs_and_changes_nothing() {
    let dir = scratch_dir("batch-foreign");
    let file = dir.path().join("in.jsonl");
    fs::write(&file, input()).unwrap();
    let out = dir.path().join("out.jsonl");
    let full = taquin()
        .args(["batch", file.to_str().unwrap(), "-H", "manhattan"])
        .output()
        .unwrap();
    let full = String::from_utf8(full.stdout).unwrap();
    let lines: Vec<&str> = full.lines().collect();
    let cases = [
        // A record of a line the input does not have.
        (
            "{\"line\":99,\"id\":\"x\"}\n".to_string(),
            "is for input line 99 (id \"x\")",
        ),
        // Line 3's record without lines 1 and 2's: they would never be solved.
        (format!("{}\n", lines[2]), "is for input line 3"),
        // The same with a torn last line: refused before the file is cut.
        (
            format!("{}\n{}", lines[2], &lines[3][..lines[3].len() / 2]),
            "is for input line 3",
        ),
        // One line of something else, without its newline: not a torn record, kept.
        ("note: keep me".to_string(), "is not a JSON record"),
        // A complete line that is not JSON: no interruption leaves one.
        (
            format!("{}\ngarbage\n", lines[0]),
            "its line 2 is not a JSON record",
        ),
        // Records of another input of the same length: the ids differ.
        (
            format!("{}\n", lines[0].replace("\"id\":\"r0\"", "\"id\":\"q0\"")),
            "(id \"q0\")",
        ),
        // Line 1 answered twice, its first record solved: no --resume writes that.
        (
            format!("{full}{}\n", lines[0]),
            "whose earlier record is not stopped by a limit",
        ),
        // A record past those of every line.
        (
            format!("{full}{{\"line\":99}}\n"),
            "past the records of all 24 instance lines",
        ),
        // Line 1's number and id in a line no batch wrote: it has no status.
        (
            "{\"line\":1,\"id\":\"r0\",\"precious\":true}\n".to_string(),
            "its record 1 has no \"status\" of a batch record",
        ),
        // The same line and id, but a record of another board.
        (
            format!("{}\n", lines[0].replace("\"key\":\"", "\"key\":\"0")),
            "another board, goal or setting",
        ),
    ];
    for (text, why) in cases {
        fs::write(&out, &text).unwrap();
        taquin()
            .args(["batch", file.to_str().unwrap(), "-o", out.to_str().unwrap()])
            .args(["-H", "manhattan", "--resume"])
            .assert()
            .code(2)
            .stderr(predicates::str::contains("--resume"))
            .stderr(predicates::str::contains(why))
            .stderr(predicates::str::contains("another file"))
            .stderr(predicates::str::contains("to start again"));
        assert_eq!(fs::read_to_string(&out).unwrap(), text);
    }
    // This input's first record, resumed with another heuristic than it was solved with.
    fs::write(&out, format!("{}\n", lines[0])).unwrap();
    taquin()
        .args(["batch", file.to_str().unwrap(), "-o", out.to_str().unwrap()])
        .args(["-H", "misplaced", "--resume"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("another board, goal or setting"));
    // The output of shard 1 of 2 is not a prefix of shard 2's.
    fs::write(&out, format!("{}\n{}\n", lines[0], lines[2])).unwrap();
    taquin()
        .args(["batch", file.to_str().unwrap(), "-o", out.to_str().unwrap()])
        .args(["--resume", "--shard", "2/2"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("is for input line 1"));
    // While the same records resume shard 1 to its end.
    taquin()
        .args(["batch", file.to_str().unwrap(), "-o", out.to_str().unwrap()])
        .args(["--resume", "--shard", "1/2", "-H", "manhattan"])
        .assert()
        .code(1);
    let shard: Vec<u64> = records(fs::read(&out).unwrap().as_slice())
        .iter()
        .map(|r| r["line"].as_u64().unwrap())
        .collect();
    assert_eq!(shard, [1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 23, 25]);
}

#[test]
fn json_lines_take_named_goals_on_the_boards_size() {
    let input = concat!(
        "{\"board\": \"1 0/2 3\", \"goal\": \"korf\"}\n",
        "{\"board\": \"1 2 3/8 4 0/7 6 5\", \"goal\": \"Snail\"}\n",
        "{\"board\": [[1,2,3,0],[5,6,7,4]], \"goal\": \"standard\"}\n",
        "{\"board\": \"1 0/2 3\", \"goal\": \"snial\"}\n",
    );
    let (code, recs, _) = batch_stdin(&[], input);
    assert_eq!(code, 1);
    let moves: Vec<&str> = recs[..3]
        .iter()
        .map(|r| r["moves"].as_str().unwrap_or_else(|| panic!("{r}")))
        .collect();
    assert_eq!(moves, ["L", "L", "D"]);
    assert_eq!(recs[3]["status"], "error");
    assert!(
        recs[3]["error"]
            .as_str()
            .unwrap()
            .contains("unknown goal 'snial'"),
        "{}",
        recs[3]
    );
}

#[test]
fn a_byte_order_mark_before_the_first_line_is_skipped() {
    for first in ["{\"id\": \"j\", \"board\": \"1 2/0 3\"}", "b - 1 0 2 3"] {
        let (code, recs, _) = batch_stdin(&[], &format!("\u{feff}{first}\n"));
        assert_eq!(code, 0, "{recs:?}");
        assert_eq!(recs[0]["length"], 1, "{}", recs[0]);
    }
}

#[test]
fn an_unknown_field_of_a_json_line_is_named_in_its_error_record() {
    let input = concat!(
        "{\"id\": \"typo\", \"board\": \"1 2/0 3\", \"gaol\": \"2 1/3 0\"}\n",
        "{\"id\": \"fine\", \"board\": \"1 2/0 3\", \"goal\": \"1 2/3 0\", \"optimal_length\": 1}\n",
    );
    let (code, recs, _) = batch_stdin(&[], input);
    assert_eq!(code, 1);
    assert_eq!(
        (&recs[0]["id"], &recs[0]["status"]),
        (&"typo".into(), &"error".into())
    );
    let error = recs[0]["error"].as_str().unwrap();
    assert!(error.contains("unknown field \"gaol\""), "{error}");
    assert!(error.contains("\"goal\", \"optimal_length\""), "{error}");
    assert_eq!(recs[1]["status"], "solved", "{}", recs[1]);
}

#[test]
fn a_length_that_contradicts_the_given_optimum_is_checked_wrong() {
    let input = concat!(
        "{\"id\": \"right\", \"board\": \"8 6 7/2 5 4/3 0 1\", \"optimal_length\": 31}\n",
        "{\"id\": \"wrong\", \"board\": \"8 6 7/2 5 4/3 0 1\", \"optimal_length\": 30}\n",
        "{\"id\": \"none\", \"board\": \"8 6 7/2 5 4/3 0 1\"}\n",
    );
    let (code, recs, _) = batch_stdin(&["-H", "manhattan"], input);
    assert_eq!(code, 1, "a WRONG check fails the run, as in `taquin bench`");
    let checks: Vec<&Value> = recs.iter().map(|r| &r["check"]).collect();
    assert_eq!(checks, [&"ok".into(), &"WRONG".into(), &Value::Null]);
    assert!(recs.iter().all(|r| r["status"] == "solved"));
    let (code, recs, _) = batch_stdin(
        &["-a", "greedy", "-H", "manhattan"],
        &input[..input.find('\n').unwrap()],
    );
    assert_eq!(
        (code, &recs[0]["check"]),
        (0, &"subopt".into()),
        "{}",
        recs[0]
    );
}

/// A lower bound proven above the given optimal length contradicts it as a shorter solution
/// does, whether the search solved the board (without proving its answer optimal) or a limit
/// stopped it; `taquin bench` checks its instances the same way.
#[test]
fn a_bound_above_the_given_optimum_is_checked_wrong_solved_or_not() {
    // 31 moves from the goal, Manhattan distance 21: a given length of 20 is impossible.
    let line = "{\"id\": \"g\", \"board\": \"8 6 7/2 5 4/3 0 1\", \"optimal_length\": 20}\n";
    let (code, recs, _) = batch_stdin(&["-a", "greedy", "-H", "manhattan"], line);
    let r = &recs[0];
    assert_eq!(
        (r["status"].as_str(), r["optimal"].as_bool()),
        (Some("solved"), Some(false))
    );
    assert!(r["lower_bound"].as_u64().unwrap() > 20, "{r}");
    assert_eq!((code, r["check"].as_str()), (1, Some("WRONG")), "{r}");
    let (code, recs, _) = batch_stdin(&["--max-nodes", "1", "-H", "manhattan"], line);
    let r = &recs[0];
    assert_eq!(r["status"], "limit", "{r}");
    assert_eq!((code, r["check"].as_str()), (1, Some("WRONG")), "{r}");
    // The same instance in the bench format (goal with the blank first: "8 0 6/5 4 7/2 3 1").
    let dir = scratch_dir("bench-bound");
    let file = dir.path().join("wrong.txt");
    fs::write(&file, "1 20 8 0 6 5 4 7 2 3 1\n").unwrap();
    let bench = |args: &[&str]| {
        let out = taquin()
            .args(["bench", file.to_str().unwrap(), "-H", "manhattan", "--json"])
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        records(&out.stdout)
    };
    let rows = bench(&["-a", "greedy"]);
    assert_eq!(rows[0]["optimal"], false, "{}", rows[0]);
    assert_eq!(rows[0]["check"], "WRONG", "{}", rows[0]);
    assert_eq!(rows[1]["wrong"], 1, "{}", rows[1]);
    let rows = bench(&["--max-nodes", "1"]);
    assert_eq!(rows[0]["status"], "limit", "{}", rows[0]);
    assert_eq!(rows[0]["check"], "WRONG", "{}", rows[0]);
    assert_eq!(
        (rows[1]["wrong"].as_u64(), rows[1]["failed"].as_u64()),
        (Some(1), Some(0))
    );
}

/// A bad line's record names what is wrong with the code `--json` errors and the web API use,
/// says it once, and a field given twice is refused as the web API refuses it.
#[test]
fn every_bad_line_gets_the_code_of_what_is_wrong() {
    let input = concat!(
        "{\"id\":\"a\",\"board\":\"1 2 3/4 5 6/7 0 8\",\"board\":\"6 4 7/8 5 0/3 2 1\"}\n",
        "d - 1 2 3 4 5 6 7 0\n",
        "e - 1 2 3 4 5 6 7 7 0\n",
        "{\"board\": \"1 2 3/4 5 6/7 0 8\"\n",
        // An unknown goal name: `bad_board`, as the same `--goal bogus` is.
        "{\"board\": \"1 2 3/4 5 6/7 0 8\", \"goal\": \"bogus\"}\n",
    );
    let (code, recs, _) = batch_stdin(&[], input);
    assert_eq!(code, 1);
    let codes: Vec<&str> = recs.iter().map(|r| r["code"].as_str().unwrap()).collect();
    assert_eq!(
        codes,
        [
            "repeated_key",
            "bad_board",
            "bad_board",
            "bad_json",
            "bad_board"
        ],
        "{recs:?}"
    );
    assert!(
        recs[4]["error"]
            .as_str()
            .unwrap()
            .contains("unknown goal 'bogus'"),
        "{}",
        recs[4]
    );
    let repeated = recs[0]["error"].as_str().unwrap();
    assert!(
        repeated.contains("\"board\" is given more than once"),
        "{repeated}"
    );
    // The board's reason once, not again as the chain's cause.
    let twice = recs[2]["error"].as_str().unwrap();
    assert_eq!(twice.matches("more than once").count(), 1, "{twice}");
}

/// A board given as a JSON array is read as the web API reads one: rows or a flat square,
/// the blank 0, "_" or ".", and a cell that is no tile named by its place.
#[test]
fn json_array_boards_are_read_as_the_web_api_reads_them() {
    let input = concat!(
        "{\"board\": [[1,2,3],[4,5,6],[7,\"_\",8]]}\n",
        "{\"board\": [1,2,3,4,5,6,7,\".\",8]}\n",
        "{\"board\": [[1,2,3],[4,5,6],[7,8,null]]}\n",
        "{\"board\": [1,2,3,4,5,6,7,8]}\n",
    );
    let (code, recs, _) = batch_stdin(&[], input);
    assert_eq!(code, 1);
    for r in &recs[..2] {
        assert_eq!(r["status"], "solved", "{r}");
        assert_eq!(r["moves"], "R", "{r}");
    }
    for (r, says) in recs[2..].iter().zip([
        "row 3, column 3 holds null, which is no tile",
        "a flat array of 8 tiles makes no square board",
    ]) {
        assert_eq!(r["code"], "bad_board", "{r}");
        assert!(r["error"].as_str().unwrap().contains(says), "{r}");
    }
}

/// An error before the run (a file that cannot be read, a flag refused) is a JSON object on
/// standard output too, as the records are, with the code `--json` errors use.
#[test]
fn an_error_before_the_run_is_one_json_object_too() {
    let dir = scratch_dir("batch-missing");
    let missing = dir.path().join("no-such-instances.txt");
    let out = taquin().arg("batch").arg(&missing).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["code"], "io", "{v}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("error: "));
    let (code, recs, _) = batch_stdin(&["-a", "idastar", "--weight", "2"], "1 2 3/4 5 6/7 0 8\n");
    assert_eq!(code, 2);
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0]["code"], "bad_fields", "{:?}", recs[0]);
}

/// `--goal -` beside instances from standard input is a usage error of the command, with the
/// code `solve` and `verify` give two inputs from standard input.
#[test]
fn the_goal_and_the_instances_cannot_both_come_from_standard_input() {
    let (code, recs, err) = batch_stdin(&["--goal", "-"], "1 2 3/4 5 6/7 0 8\n");
    assert_eq!(code, 2);
    assert_eq!(recs[0]["code"], "bad_usage", "{}", recs[0]);
    assert!(err.contains("both read standard input"), "{err}");
}

/// A line with rows (a `/` after its first field) is a board, whatever its fields: one bad tile
/// gets the board's error, as `solve` gives it, not the bench format's. A line in quotes is
/// JSON, and is told to be an object.
#[test]
fn a_line_with_rows_gets_the_boards_error_and_a_json_string_is_told_to_be_an_object() {
    let (code, recs, _) = batch_stdin(&[], "1 2 3/4 5 6/7 0 x\n\"1 2 3/4 5 6/7 0 8\"\n");
    assert_eq!(code, 1);
    let board = &recs[0];
    assert_eq!(
        (board["code"].as_str(), board["id"].as_str()),
        (Some("bad_board"), None)
    );
    let error = board["error"].as_str().unwrap();
    assert!(error.contains("row 3: 'x' is not a tile"), "{error}");
    assert!(!error.contains("square board"), "{error}");
    let string = &recs[1];
    assert_eq!(string["id"], Value::Null, "{string}");
    let error = string["error"].as_str().unwrap();
    assert!(
        error.contains("a JSON line must be an object")
            && error.contains(r#"{"board":"1 2 3/4 5 6/7 0 8"}"#),
        "{error}"
    );
    // A bench line whose id holds a '/' stays a bench line.
    let (code, recs, _) = batch_stdin(&[], "set/1 1 1 0 2 3\n");
    assert_eq!(
        (code, recs[0]["id"].as_str()),
        (0, Some("set/1")),
        "{}",
        recs[0]
    );
}

/// The key of a record hashes the goal board the line is solved for: no `--goal`, an explicit
/// default in any spelling, or its board resume one another's output; another goal does not.
/// A key of the form written before (the flags as typed) is still taken.
#[test]
fn resume_takes_the_same_goal_however_it_is_written() {
    let dir = scratch_dir("batch-goal-key");
    let input = dir.path().join("in.txt");
    fs::write(&input, "1 2 3/4 5 6/7 0 8\n1 2 3/4 5 0/7 8 6\n").unwrap();
    let out = dir.path().join("out.jsonl");
    let run = |goal: Option<&str>, first: &str| {
        fs::write(&out, first).unwrap();
        let mut cmd = taquin();
        cmd.args([
            "batch",
            input.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--resume",
        ]);
        if let Some(goal) = goal {
            cmd.args(["--goal", goal]);
        }
        let result = cmd.output().unwrap();
        (result.status.code(), fs::read_to_string(&out).unwrap())
    };
    taquin()
        .args([
            "batch",
            input.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ])
        .assert()
        .success();
    let full = fs::read_to_string(&out).unwrap();
    let first = format!("{}\n", full.lines().next().unwrap());
    for goal in [
        None,
        Some("standard"),
        Some("STANDARD"),
        Some("1 2 3/4 5 6/7 8 0"),
    ] {
        let (code, written) = run(goal, &first);
        assert_eq!(code, Some(0), "--goal {goal:?}: {written}");
        assert_eq!(
            untimed(records(written.as_bytes())),
            untimed(records(full.as_bytes()))
        );
    }
    let (code, written) = run(Some("korf"), &first);
    assert_eq!(
        (code, written.as_str()),
        (Some(2), first.as_str()),
        "another goal"
    );
    // A record keyed by the flags as typed, as records were before: no --goal, no flag.
    let typed = "1 2 3/4 5 6/7 0 8\nNone\nNone\nNone\nNone\nNone\nfalse\nblank";
    let old_key = format!("{:016x}", taquin::pdb::store::checksum(typed.as_bytes()));
    let mut record: Value = serde_json::from_str(first.trim()).unwrap();
    assert_ne!(record["key"], old_key.as_str());
    record["key"] = old_key.into();
    let (code, written) = run(None, &format!("{record}\n"));
    assert_eq!(code, Some(0), "{written}");
    assert_eq!(written.lines().count(), 2);
}

/// A goal's name wins over a file of that name in the working directory, in `solve` and
/// `batch` alike; a path reads the file.
#[test]
fn a_goal_name_wins_over_a_file_of_that_name() {
    let dir = scratch_dir("batch-goal-name");
    fs::write(dir.path().join("korf"), "1 2 3/4 5 6/7 8 0\n").unwrap();
    let length = |goal: &str| {
        let out = taquin()
            .current_dir(&dir)
            .args(["solve", "6 4 7/8 5 0/3 2 1", "--json", "--goal", goal])
            .output()
            .unwrap();
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        v["length"].as_u64().unwrap()
    };
    // Korf's goal (the blank first) is 25 moves away, the standard one 31.
    assert_eq!(length("korf"), 25);
    assert_eq!(length("./korf"), 31);
    let out = taquin()
        .current_dir(&dir)
        .args(["batch", "--goal", "korf"])
        .write_stdin("6 4 7/8 5 0/3 2 1\n")
        .output()
        .unwrap();
    assert_eq!(records(&out.stdout)[0]["length"], 25);
}

#[test]
fn no_jobs_at_once_is_refused_with_what_to_give() {
    for command in ["batch", "bench"] {
        let out = taquin()
            .args([command, "-", "--jobs", "0"])
            .write_stdin("1 2 3/4 5 6/7 0 8\n")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{command}");
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(
            said.contains("give 1 or more, or leave --jobs out"),
            "{command}: {said}"
        );
    }
}

/// `--resume` with a larger budget retries the records stopped by a limit: their new records
/// are appended after them (the last record of a line is its answer), stderr says how many
/// records stand and how many are retried, and a later resume takes the last record per line.
#[test]
fn resume_retries_the_records_stopped_by_a_limit() {
    let dir = scratch_dir("batch-retry");
    let input = dir.path().join("in.txt");
    // Two boards a budget of 3 nodes cannot solve, around one it can.
    fs::write(
        &input,
        "7 4 8/3 0 1/5 6 2\n1 2 3/4 5 6/7 0 8\n0 1 3/4 2 5/7 8 6\n",
    )
    .unwrap();
    let out = dir.path().join("out.jsonl");
    let run = |extra: &[&str]| {
        taquin()
            .args([
                "batch",
                input.to_str().unwrap(),
                "-o",
                out.to_str().unwrap(),
            ])
            .args(["-a", "idastar", "-H", "manhattan", "--jobs", "1"])
            .args(extra)
            .output()
            .unwrap()
    };
    let first = run(&["--max-nodes", "3"]);
    assert_eq!(first.status.code(), Some(1));
    let statuses = |text: &str| -> Vec<(u64, String)> {
        records(text.as_bytes())
            .iter()
            .map(|r| {
                (
                    r["line"].as_u64().unwrap(),
                    r["status"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    let written = fs::read_to_string(&out).unwrap();
    assert_eq!(
        statuses(&written),
        [
            (1, "limit".into()),
            (2, "solved".into()),
            (3, "limit".into())
        ]
    );
    // Resumed as it was (a cluster's requeue): the records stopped by a limit are kept.
    let kept = run(&["--resume", "--max-nodes", "3"]);
    assert_eq!(kept.status.code(), Some(1), "{kept:?}");
    assert!(
        String::from_utf8_lossy(&kept.stderr).contains(
            "3 records kept, 2 of them stopped by a limit (--retry-limits solves those again"
        ),
        "{kept:?}"
    );
    assert_eq!(fs::read_to_string(&out).unwrap(), written);
    let again = run(&["--resume", "--retry-limits"]);
    assert_eq!(again.status.code(), Some(0), "{again:?}");
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert!(
        stderr.contains("1 record kept, 2 stopped by a limit retried"),
        "{stderr}"
    );
    let retried = fs::read_to_string(&out).unwrap();
    assert!(retried.starts_with(&written), "the records written stay");
    assert_eq!(
        statuses(&retried)[3..],
        [(1, "solved".into()), (3, "solved".into())]
    );
    // Line 3's retry torn off: a further resume retries line 3 only.
    let torn: Vec<&str> = retried.lines().collect();
    fs::write(
        &out,
        format!(
            "{}\n{}",
            torn[..4].join("\n"),
            &torn[4][..torn[4].len() / 2]
        ),
    )
    .unwrap();
    let last = run(&["--resume", "--retry-limits"]);
    assert_eq!(last.status.code(), Some(0), "{last:?}");
    assert!(
        String::from_utf8_lossy(&last.stderr)
            .contains("2 records kept, 1 stopped by a limit retried"),
        "{last:?}"
    );
    assert_eq!(statuses(&fs::read_to_string(&out).unwrap()).len(), 5);
    // Done: nothing is solved again, and the exit code counts the last records.
    let done = run(&["--resume", "--retry-limits"]);
    assert_eq!(done.status.code(), Some(0), "{done:?}");
    assert!(
        String::from_utf8_lossy(&done.stderr).contains("3 records kept, 0 stopped by a limit"),
        "{done:?}"
    );
    assert_eq!(statuses(&fs::read_to_string(&out).unwrap()).len(), 5);
}

/// A record echoes its line's id with the JSON type given (as `generate --format json`
/// writes numbers), refuses an id that names no instance, and carries the board and goal.
#[test]
fn ids_keep_their_json_type_and_records_carry_the_boards() {
    let input = concat!(
        "{\"id\": 1, \"board\": \"1 2/0 3\"}\n",
        "{\"id\": \"1\", \"board\": \"1 2/0 3\"}\n",
        "{\"id\": {\"a\": 1}, \"board\": \"1 2/0 3\"}\n",
        "{\"id\": [1], \"board\": \"1 2/0 3\"}\n",
        "k 1 1 0 2 3\n",
        "{\"id\": 12345678901234567890123, \"board\": \"1 2/0 3\"}\n",
        "{\"id\": 1e2, \"board\": \"1 2/0 3\"}\n",
        "{\"id\": -3, \"board\": \"1 2/0 3\"}\n",
    );
    let (code, recs, _) = batch_stdin(&[], input);
    assert_eq!(code, 1);
    assert_eq!(recs[0]["id"], serde_json::json!(1));
    assert_eq!(recs[1]["id"], serde_json::json!("1"));
    for bad in &recs[2..4] {
        assert_eq!(bad["code"], "bad_fields", "{bad}");
        assert!(
            bad["error"]
                .as_str()
                .unwrap()
                .contains("\"id\" must be a string or a number"),
            "{bad}"
        );
    }
    assert_eq!(recs[4]["id"], "k");
    // Numbers that would not come back as written: refused, with the way to give them.
    for bad in &recs[5..7] {
        assert_eq!(bad["code"], "bad_fields", "{bad}");
        assert!(
            bad["error"]
                .as_str()
                .unwrap()
                .contains("write the id in quotes"),
            "{bad}"
        );
    }
    assert_eq!(recs[7]["id"], serde_json::json!(-3));
    assert_eq!(
        (&recs[0]["board"], &recs[0]["goal"]),
        (&"1 2/0 3".into(), &"1 2/3 0".into())
    );
    assert_eq!(recs[4]["goal"], "0 1/2 3");
    // `generate --format json`'s lines, ids and all.
    let generated = taquin()
        .args([
            "generate", "--size", "3x3", "--count", "2", "--seed", "1", "--format", "json",
        ])
        .output()
        .unwrap();
    let generated = String::from_utf8(generated.stdout).unwrap();
    let (_, recs, _) = batch_stdin(&[], &generated);
    for (line, rec) in generated.lines().zip(&recs) {
        let given: Value = serde_json::from_str(line).unwrap();
        assert_eq!(rec["id"], given["id"], "{rec}");
        assert_eq!(rec["board"], given["board"], "{rec}");
    }
}

/// Records in tile notation say so, as `solve --json --notation tiles` does.
#[test]
fn records_in_tile_notation_name_it() {
    let (_, tiles, _) = batch_stdin(&["--notation", "tiles"], "1 2 3/4 5 6/7 0 8\n");
    assert_eq!(
        (&tiles[0]["moves"], &tiles[0]["notation"]),
        (&"L".into(), &"tiles".into())
    );
    let (_, blank, _) = batch_stdin(&[], "1 2 3/4 5 6/7 0 8\n");
    assert_eq!(blank[0]["moves"], "R");
    assert!(blank[0].get("notation").is_none(), "{}", blank[0]);
}
