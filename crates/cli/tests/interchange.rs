//! The interchange features as a user runs them: n-puzzle files, named goals, tile notation,
//! the multi-tile metric, the 42 report, `verify` and `gods-number`.

use predicates::prelude::*;

mod common;
use common::{json_out, scratch_file, taquin};

/// A file in the n-puzzle format whose goal is the snail.
const SNAIL_FILE: &str = "# This puzzle is solvable\n3\n0 2 3 # first row\n1 4 5\n8 7 6\n";

#[test]
fn npuzzle_files_are_read_from_a_path_and_from_stdin() {
    let file = scratch_file("snail", ".txt", SNAIL_FILE);
    let path = file.path();
    taquin()
        .args(["solve", path.to_str().unwrap(), "--goal", "snail"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Solved in 6 moves (optimal)"));
    taquin()
        .args(["solve", "-", "--goal", "snail"])
        .write_stdin(SNAIL_FILE)
        .assert()
        .success()
        .stdout(predicate::str::contains("Moves: DDRRUL"));
    let record = json_out(&["batch", path.to_str().unwrap()], 1);
    assert_eq!(record["status"], "unsolvable", "{record}");
    taquin()
        .args(["solve", "-"])
        .write_stdin("3\n1 2 3\n4 5\n7 8 0\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("line 3: 2 numbers in a row"));
}

#[test]
fn named_goals_work_on_any_size() {
    taquin()
        .args(["solve", "0 1 2 3/4 5 6 7/8 9 10 11", "--goal", "korf"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Solved in 0 moves"));
    taquin()
        .args(["solve", "1 2 3 4 5/12 13 14 0 6/11 10 9 8 7", "-g", "snail"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Solved in 0 moves"));
    taquin()
        .args(["solve", "1 2 3/4 5 6/7 8 0", "--goal", "spiral"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("use standard, korf or snail"));
}

#[test]
fn mtm_solutions_in_tile_notation_verify() {
    let v = json_out(
        &[
            "solve",
            "6 4 7/8 5 0/3 2 1",
            "--metric",
            "mtm",
            "--notation",
            "tiles",
            "--json",
        ],
        0,
    );
    assert_eq!(v["notation"], "tiles");
    assert_eq!(v["optimal"], true);
    let mtm = v["mtm_length"].as_u64().unwrap();
    let moves = v["moves"].as_str().unwrap().to_string();
    let verdict = json_out(
        &[
            "verify",
            "6 4 7/8 5 0/3 2 1",
            &moves,
            "--notation",
            "tiles",
            "--json",
        ],
        0,
    );
    assert_eq!(verdict["valid"], true);
    assert_eq!(verdict["mtm_length"].as_u64(), Some(mtm));
    assert_eq!(verdict["mtm"]["optimal"], true, "{verdict}");
    assert_eq!(verdict["stm"]["optimal_length"], 31);
}

#[test]
fn the_multi_tile_search_says_its_plan() {
    let v = json_out(
        &["solve", "6 4 7/8 5 0/3 2 1", "--metric", "mtm", "--json"],
        0,
    );
    let plan = v["plan"].as_str().unwrap();
    assert!(
        plan.starts_with("idastar-mtm + mtm:8+walking-distance-mtm: the ") && plan.contains("3x3"),
        "{v}"
    );
    // Optimal in slides: its bound is in slides too, never above the slides it took.
    assert_eq!(v["metric"], "mtm");
    assert_eq!(v["optimal"], true);
    assert_eq!(v["lower_bound"], v["mtm_length"], "{v}");
    for extra in [["--metric", "mtm"], ["--notation", "tiles"]] {
        taquin()
            .args(["solve", "6 4 7/8 5 0/3 2 1", "--explain"])
            .args(extra)
            .assert()
            .success()
            .stderr(predicate::str::contains("plan: idastar"));
    }
}

/// A 7x7 board's multi-tile tables take over a second to build: a shorter limit ends there.
const SEVEN: &str = "10 0 47 18 5 15 43/44 13 37 19 9 30 31/26 25 7 11 23 48 1/\
    35 41 29 8 4 14 3/2 40 33 27 42 6 39/45 17 24 16 32 12 22/38 34 20 21 46 36 28";

#[test]
fn a_limit_met_while_building_multi_tile_tables_says_so() {
    taquin()
        .args(["solve", SEVEN, "--metric", "mtm", "--timeout", "0.05"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "time limit reached while building the multi-tile tables for 7x7",
        ))
        .stderr(predicate::str::contains(
            "taquin pdb build --metric mtm --size 7x7",
        ));
    // verify still gives a true bound (it said "at least 0").
    let moves = json_out(&["solve", SEVEN, "-a", "constructive", "--json"], 0)["moves"]
        .as_str()
        .unwrap()
        .to_string();
    let verdict = json_out(&["verify", SEVEN, &moves, "--timeout", "0.05", "--json"], 0);
    assert!(
        verdict["mtm"]["lower_bound"].as_u64().unwrap() > 0,
        "{verdict}"
    );
    // Which limit stopped it (Ctrl-C says "cancelled", not a time limit).
    assert_eq!(verdict["mtm"]["limit"], "time", "{verdict}");
    taquin()
        .args(["verify", SEVEN, &moves, "--timeout", "0.05"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "optimality not known (the time limit came while its tables were being built",
        ));
}

#[test]
fn report_gives_complexities_and_every_board() {
    taquin()
        .args(["solve", "1 2 3/4 0 6/7 5 8", "--report"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "Complexity in time: 2 states selected",
        ))
        .stdout(predicate::str::contains(
            "Complexity in size: 3 states at most",
        ))
        .stdout(predicate::str::contains("Number of moves: 2"))
        .stdout(predicate::str::contains("1 2 3\n4 5 6\n7 8 ."));
    let report = |algorithm| {
        json_out(
            &[
                "solve",
                "1 2 3/4 0 6/7 5 8",
                "--report",
                "--json",
                "-a",
                algorithm,
            ],
            0,
        )
    };
    let v = report("astar");
    assert_eq!(v["states"].as_array().unwrap().len(), 3);
    assert!(v["size_complexity"].as_u64().unwrap() >= 3, "{v}");
    // A search that does not measure it gives no figure, not a 0.
    let v = report("constructive");
    assert!(v["size_complexity"].is_null(), "{v}");
    let states = v["states"].as_array().unwrap().len();
    assert_eq!(states as u64, v["length"].as_u64().unwrap() + 1, "{v}");
}

#[test]
fn verify_says_where_moves_go_wrong_and_exits_by_verdict() {
    taquin()
        .args(["verify", "1 2 3/4 5 6/0 7 8", "RR"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "STM: 2 single-tile moves, optimal",
        ))
        .stdout(predicate::str::contains("MTM: 1 multi-tile move, optimal"));
    let moves = scratch_file("moves", ".txt", "R\nR\n");
    taquin()
        .args([
            "verify",
            "1 2 3/4 5 6/0 7 8",
            moves.path().to_str().unwrap(),
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "STM: 2 single-tile moves, optimal",
        ));
    taquin()
        .args(["verify", "1 2 3/4 5 6/0 7 8", "RDL"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("move 2 ('D' at character 2)"));
    taquin()
        .args(["verify", "1 2 3/4 5 6/0 7 8", "R"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("which is not the goal"));
    taquin()
        .args(["verify", "1 2 3/4 5 6/0 7 8", "RQ"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("'Q' at position 2 is not a move"));
    // Text that is not moves is bad input wherever it is, even after an impossible move.
    taquin()
        .args(["verify", "1 2 3/4 5 6/0 7 8", "D R Q"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("'Q' at position 5 is not a move"));
    taquin()
        .args([
            "verify",
            "6 4 7/8 5 0/3 2 1",
            "ULDLDRURDLUULDDRURULLDRRULLDRDRLR",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("not optimal: the optimum is 31"));
    // A node limit holds each metric's search as the time does; what it proved is said.
    let out = taquin()
        .args([
            "verify",
            "6 4 7/8 5 0/3 2 1",
            "ULDLDRURDLUULDDRURULLDRRULLDRDRLR",
            "--max-nodes",
            "10",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["stm"]["optimal"].is_null(), "{v}");
    assert!(v["stm"]["lower_bound"].as_u64().unwrap() <= 31, "{v}");
}

/// Past the optimal searches' 1024 cells a valid solution is still valid: its optimality is
/// not known, and the verdict gives the bound every board has in each metric.
#[test]
fn verify_takes_boards_beyond_the_optimal_searches_reach() {
    let board = taquin()
        .args(["generate", "--size", "33x32", "--seed", "2"])
        .output()
        .unwrap()
        .stdout;
    let board_file = scratch_file("b33", ".txt", std::str::from_utf8(&board).unwrap());
    let board = board_file.path().to_str().unwrap();
    let solved = json_out(&["solve", board, "-a", "constructive", "--json"], 0);
    let moves_file = scratch_file("m33", ".txt", solved["moves"].as_str().unwrap());
    let moves = moves_file.path();
    let v = json_out(&["verify", board, moves.to_str().unwrap(), "--json"], 0);
    assert_eq!(v["valid"], true, "{v}");
    assert_eq!(v["length"], solved["length"], "{v}");
    for metric in ["stm", "mtm"] {
        assert_eq!(v[metric]["limit"], "board_size", "{v}");
        assert!(v[metric]["optimal"].is_null(), "{v}");
        assert!(v[metric]["lower_bound"].as_u64().unwrap() > 0, "{v}");
    }
    assert_eq!(
        v["stm"]["lower_bound"], solved["lower_bound"],
        "the Manhattan distance, as the constructive solver says"
    );
    taquin()
        .args(["verify", board, moves.to_str().unwrap()])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "optimality not known (optimal search takes boards of up to 1024 cells, and this \
             one has 1056",
        ));
}

#[test]
fn gods_number_of_the_eight_puzzle() {
    let v = json_out(&["gods-number", "3x3", "--json"], 0);
    assert_eq!(v["diameter"], 31);
    let total: u64 = v["distribution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .sum();
    assert_eq!(total, 181_440);
    assert_eq!(v["distribution"][31], 2);
    taquin()
        .args(["gods-number", "2x7"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("raise the memory budget"));
    taquin()
        .args(["gods-number", "3"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("WIDTHxHEIGHT"));
}

/// Moves that are no solution of a board that cannot reach its goal: the verdict also says
/// that no moves can solve it, and why, as `solve` says it.
#[test]
fn verify_says_no_moves_can_solve_an_unsolvable_pair() {
    taquin()
        .args(["verify", "2 1 3/4 5 6/7 8 0", "UL"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("which is not the goal"))
        .stdout(predicate::str::contains(
            "no moves can solve it (unsolvable: the tiles are 1 inversion away from the goal's \
             order",
        ));
    let v = json_out(&["verify", "2 1 3/4 5 6/7 8 0", "UL", "--json"], 1);
    assert_eq!(
        (v["valid"].as_bool(), v["solvable"].as_bool()),
        (Some(false), Some(false))
    );
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("no moves can solve it"),
        "{v}"
    );
    let v = json_out(&["verify", "1 2 3/4 5 6/7 0 8", "L", "--json"], 1);
    assert_eq!(v["solvable"], true, "{v}");
}

/// A node budget of as many states as the board has lets God's number search end with its
/// whole answer; one state fewer stops it.
#[test]
fn a_node_budget_of_every_state_gives_gods_number() {
    let v = json_out(
        &["gods-number", "3x3", "--max-nodes", "181440", "--json"],
        0,
    );
    assert_eq!(
        (v["diameter"].as_u64(), v["states"].as_u64()),
        (Some(31), Some(181_440))
    );
    // The farthest states: a sample of them, and how many there are.
    assert_eq!(v["antipode_count"], 2, "{v}");
    assert_eq!(v["antipodes"].as_array().unwrap().len(), 2, "{v}");
    let v = json_out(
        &["gods-number", "3x3", "--max-nodes", "181439", "--json"],
        1,
    );
    assert_eq!(v["code"], "limit_reached", "{v}");
    let snail = json_out(&["gods-number", "3x3", "--goal", "snail", "--json"], 0);
    assert_eq!(snail["antipode_count"], 148, "{snail}");
    assert_eq!(snail["antipodes"].as_array().unwrap().len(), 8, "{snail}");
}

/// A multi-tile search stopped by a limit says its bound in multi-tile moves, and its JSON
/// error names the metric, as its results do.
#[test]
fn a_stopped_multi_tile_search_counts_its_bound_in_multi_tile_moves() {
    let out = taquin()
        .args([
            "solve",
            "6 4 7/8 5 0/3 2 1",
            "--metric",
            "mtm",
            "--max-nodes",
            "5",
            "--json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["code"].as_str(), v["metric"].as_str()),
        (Some("limit_reached"), Some("mtm"))
    );
    let said = format!("at least {} multi-tile moves", v["lower_bound"]);
    assert!(v["error"].as_str().unwrap().ends_with(&said), "{v}");
    assert!(String::from_utf8_lossy(&out.stderr).contains(&said));
}
