//! Every number a user types is range-checked, and every limit holds: out-of-range flags exit 2
//! with a message that says the range, never a panic (exit 101) or an abort (exit 134).

use predicates::prelude::*;

mod common;
use common::taquin;

const ARTICLE: &str = "6 4 7/8 5 0/3 2 1";

fn bench_file() -> String {
    format!(
        "{}/../core/tests/data/korf_easy.txt",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn timeouts_past_the_clock_are_refused_not_a_panic() {
    for t in ["1e19", "1e20", "inf", "0", "-1"] {
        for args in [
            vec!["solve", ARTICLE, "--timeout", t],
            vec!["compare", ARTICLE, "--timeout", t],
            vec!["bench", &bench_file(), "--first", "1", "--timeout", t],
        ] {
            taquin()
                .args(&args)
                .assert()
                .code(2)
                .stderr(predicate::str::contains(
                    "--timeout must be a positive number",
                ));
        }
    }
}

#[test]
fn a_memory_budget_past_the_address_space_is_refused() {
    for cmd in ["solve", "compare"] {
        taquin()
            .args([cmd, ARTICLE, "--max-memory", &usize::MAX.to_string()])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("--max-memory"));
    }
}

#[test]
fn a_memory_budget_of_nothing_is_refused() {
    taquin()
        .args(["solve", ARTICLE, "--max-memory", "0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--max-memory must be at least 1 MiB",
        ));
    // serve's flag has the name every command's has; the old name still works.
    for flag in ["--max-memory", "--max-memory-mib"] {
        taquin()
            .args(["serve", flag, "0"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(
                "--max-memory must be at least 1 MiB",
            ));
    }
}

#[test]
fn a_node_budget_of_nothing_is_refused() {
    // As the web API's `max_nodes: 0` and the Python package's `max_nodes=0` are.
    for cmd in ["solve", "verify"] {
        let mut args = vec![cmd, ARTICLE];
        if cmd == "verify" {
            args.push("U");
        }
        args.extend(["--max-nodes", "0"]);
        taquin()
            .args(&args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(
                "--max-nodes must be at least 1: a budget of 0 nodes leaves nothing to search",
            ));
    }
    // Before, the server took 0 as 1 without a word.
    taquin()
        .args(["serve", "--max-nodes", "0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--max-nodes must be at least 1"));
}

#[test]
fn more_threads_than_any_machine_has_are_refused() {
    for args in [
        &["solve", ARTICLE, "-a", "idastar", "--threads", "100000"][..],
        &[
            "solve",
            ARTICLE,
            "--metric",
            "mtm",
            "--threads",
            "4000000000",
        ],
        &["gods-number", "2x2", "--threads", "100000"],
    ] {
        taquin()
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(
                "is more than 256, the most threads one search takes",
            ));
    }
}

#[test]
fn a_server_default_time_past_its_maximum_is_refused() {
    taquin()
        .args(["serve", "--timeout", "100", "--max-timeout", "2"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--timeout 100 is more than --max-timeout 2",
        ));
    // A maximum out of range is named as such, before the two are compared.
    taquin()
        .args(["serve", "--max-timeout", "-1"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("--max-timeout")
                .and(predicate::str::contains("is more than --max-timeout").not()),
        );
}

#[test]
fn look_ahead_depths_are_capped_not_a_stack_overflow() {
    for algorithm in ["lrta", "lookahead"] {
        taquin()
            .args(["solve", "-a", algorithm, "--depth", "100000", ARTICLE])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("--depth must be from 1 to 24"));
        taquin()
            .args(["batch", "-a", algorithm, "--depth", "100000"])
            .write_stdin("{\"board\": \"6 4 7/8 5 0/3 2 1\"}\n")
            .assert()
            .code(2)
            .stderr(predicate::str::contains("--depth must be from 1 to 24"));
    }
}

#[test]
fn a_node_budget_of_one_stops_the_search() {
    taquin()
        .args(["solve", ARTICLE, "--max-nodes", "1"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("Solved").not())
        .stderr(predicate::str::contains("node limit reached"));
}

#[test]
fn a_huge_weight_is_refused_in_a_short_message() {
    let out = taquin()
        .args([
            "solve",
            "-a",
            "weighted-astar",
            "--weight",
            "1e308",
            ARTICLE,
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("from 1 to 100") && err.len() < 200, "{err}");
}

#[test]
fn a_stopped_constructive_run_reports_its_time() {
    let board = taquin()
        .args(["generate", "--size", "60x60", "--seed", "1"])
        .output()
        .unwrap()
        .stdout;
    let out = taquin()
        .args(["solve", "-a", "constructive", "--max-nodes", "1000", "-"])
        .write_stdin(board)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("node limit reached") && !err.contains("0.0ns"),
        "{err}"
    );
}

/// Every numeric flag of every command refuses a word in a sentence that says what to give,
/// never the parser's bare "invalid float literal" or "invalid digit found in string".
#[test]
fn a_numeric_flag_given_a_word_says_what_to_give() {
    let bench = bench_file();
    let cases: Vec<Vec<&str>> = vec![
        vec!["solve", ARTICLE, "--timeout"],
        vec!["solve", ARTICLE, "--max-nodes"],
        vec!["solve", ARTICLE, "--max-memory"],
        vec!["solve", ARTICLE, "--threads"],
        vec!["solve", ARTICLE, "-a", "weighted-astar", "--weight"],
        vec!["solve", ARTICLE, "-a", "lookahead", "--depth"],
        vec!["compare", ARTICLE, "--timeout"],
        vec!["compare", ARTICLE, "--max-nodes"],
        vec!["compare", ARTICLE, "--max-memory"],
        vec!["verify", ARTICLE, "U", "--timeout"],
        vec!["verify", ARTICLE, "U", "--max-nodes"],
        vec!["verify", ARTICLE, "U", "--max-memory"],
        vec!["bench", &bench, "--timeout"],
        vec!["bench", &bench, "--first"],
        vec!["bench", &bench, "--threads"],
        vec!["bench", &bench, "--jobs"],
        vec!["batch", "--timeout"],
        vec!["batch", "--jobs"],
        vec!["generate", "--count"],
        vec!["generate", "--seed"],
        vec!["generate", "--moves"],
        vec!["gods-number", "3x3", "--threads"],
        vec!["gods-number", "3x3", "--timeout"],
        vec!["serve", "--workers"],
        vec!["serve", "--queue"],
        vec!["serve", "--queue-wait"],
        vec!["serve", "--timeout"],
        vec!["serve", "--max-timeout"],
        vec!["serve", "--max-nodes"],
        vec!["serve", "--max-memory"],
        vec!["serve", "--max-side"],
    ];
    for mut args in cases {
        args.push("abc");
        let out = taquin().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("invalid value 'abc'") && err.contains("(e.g. "),
            "{args:?}: {err}"
        );
    }
}

/// A negative value of a flag whose range starts at 1 is told that range: "0 or more" would
/// send the user to a 0 that is refused next.
#[test]
fn a_negative_budget_is_told_the_flags_real_range() {
    let bench = bench_file();
    let cases: Vec<Vec<&str>> = vec![
        vec!["solve", ARTICLE, "--max-nodes"],
        vec!["solve", ARTICLE, "--max-memory"],
        vec!["compare", ARTICLE, "--max-nodes"],
        vec!["compare", ARTICLE, "--max-memory"],
        vec!["verify", ARTICLE, "U", "--max-nodes"],
        vec!["verify", ARTICLE, "U", "--max-memory"],
        vec!["bench", &bench, "--jobs"],
        vec!["batch", "--jobs"],
        vec!["serve", "--max-nodes"],
        vec!["serve", "--max-memory"],
    ];
    for mut args in cases {
        args.push("-1");
        taquin()
            .args(&args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(
                "a negative number: give a whole number, 1 or more",
            ));
    }
    // A flag that takes 0 still says so.
    taquin()
        .args(["solve", ARTICLE, "--threads", "-1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("give a whole number, 0 or more"));
}

/// Every flag of `bench` is checked before the run is planned (and its tables built): a bad
/// limit prints no `plan:` line.
#[test]
fn bench_refuses_a_bad_limit_before_planning() {
    for flag in [
        ["--max-memory", "0"],
        ["--max-nodes", "0"],
        ["--timeout", "0"],
    ] {
        taquin()
            .args(["bench", &bench_file()])
            .args(flag)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!("{} must", flag[0])))
            .stderr(predicate::str::contains("plan:").not());
    }
}
