//! Input that used to mislead: each mistake gets a message that names it, and a batch line
//! that is not UTF-8 spoils only itself.

use predicates::prelude::*;

mod common;
use common::{fresh_path, scratch_file, taquin};

#[test]
fn a_twenty_digit_tile_is_too_large_not_a_non_number() {
    taquin()
        .args(["solve", "1 2 3/4 5 6/7 99999999999999999999 0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "tile 99999999999999999999 is too large: a 3x3 board holds tiles 1 to 8",
        ));
}

#[test]
fn board_and_goal_cannot_both_come_from_stdin() {
    taquin()
        .args(["solve", "-", "-g", "-"])
        .write_stdin("6 4 7/8 5 0/3 2 1")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "the board and the goal cannot both come from standard input",
        ));
}

#[test]
fn input_too_large_for_any_board_is_refused_before_it_fills_the_memory() {
    // 65 MiB of digits: more than any board's text, refused after reading just past the cap.
    taquin()
        .args(["solve", "-"])
        .write_stdin(vec![b'1'; 65 << 20])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "is over 64 MiB: no board is that large",
        ));
}

#[test]
fn a_directory_is_not_taken_for_a_missing_file() {
    let dir = std::env::temp_dir();
    taquin()
        .args(["solve", dir.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is a directory, not a board"));
}

#[test]
fn two_boards_in_one_text_are_said_to_be_two() {
    taquin()
        .args(["solve", "-"])
        .write_stdin("1 2 3\n4 5 6\n7 0 8\n\n1 2 3\n4 5 6\n0 7 8\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "the text holds 2 blocks of rows with empty lines between them",
        ))
        .stderr(predicate::str::contains("`taquin batch` takes many"));
}

#[test]
fn idastar_on_a_huge_board_points_to_an_algorithm_that_takes_it_and_exits_2() {
    let board = taquin()
        .args(["generate", "--size", "40x40", "--seed", "1"])
        .output()
        .unwrap()
        .stdout;
    taquin()
        .args(["solve", "-a", "idastar", "-H", "manhattan", "-"])
        .write_stdin(board)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("constructive"))
        .stderr(predicate::str::contains("weighted").not());
}

#[test]
fn a_pdb_dir_that_is_a_file_is_named_as_such() {
    let file = scratch_file("not-a-dir", "", "x");
    taquin()
        .arg("--pdb-dir")
        .arg(file.path())
        .args(["solve", "-H", "pdb:8", "6 4 7/8 5 0/3 2 1"])
        .assert()
        .stderr(predicate::str::contains("not a directory"))
        .stderr(predicate::str::contains("File exists").not());
}

#[test]
fn a_batch_line_that_is_not_utf8_gets_an_error_record_and_the_others_are_solved() {
    let mut input = b"{\"board\": \"1 2 3/4 5 6/7 0 8\"}\n".to_vec();
    input.extend_from_slice(b"{\"board\": \"1 2 3/4 5 6/\xff 7 0 8\"}\n");
    input.extend_from_slice(b"{\"board\": \"1 2 3/4 5 6/0 7 8\"}\n");
    let out = taquin().arg("batch").write_stdin(input).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "one line failed");
    let records: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 3);
    assert_eq!(records[0]["status"], "solved");
    assert_eq!(records[1]["status"], "error");
    assert_eq!(records[1]["line"], 2);
    assert!(records[1]["error"].as_str().unwrap().contains("UTF-8"));
    assert_eq!(records[2]["status"], "solved");
}

/// Fuzzing `batch` black-box: hundreds of random lines (bench and JSON fragments, stray bytes)
/// in one run, plus the kept corpus; every line that is not blank or a comment gets exactly one
/// record, in order, and the run never dies.
#[test]
fn random_batch_lines_each_get_one_record() {
    let fragments: [&[u8]; 16] = [
        b"1 ",
        b"0 ",
        b"8 ",
        b"31 ",
        b"99999999999999999999 ",
        b"{\"board\": ",
        b"\"1 2/3 0\"",
        b"\"6 4 7/8 5 0/3 2 1\"",
        b", \"goal\": [[1,2],[3,0]]",
        b"}",
        b"[",
        b"\xff",
        b"#",
        b"/",
        b" ",
        b"\t",
    ];
    let mut seed = 12345u64;
    let mut input = Vec::new();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/batch_line");
    // The inputs kept under a name (past failures and seeds), not the fuzzer's hashed corpus
    // (hundreds of files, whose valid instances would each be solved here).
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !(name.len() == 40 && name.chars().all(|c| c.is_ascii_hexdigit())) {
            input.extend(std::fs::read(&path).unwrap());
            input.push(b'\n');
        }
    }
    for _ in 0..300 {
        for _ in 0..(seed >> 60) + 1 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            input.extend_from_slice(fragments[(seed >> 33) as usize % fragments.len()]);
        }
        input.push(b'\n');
    }
    let expected = input
        .split(|&b| b == b'\n')
        .filter(|l| {
            let t = String::from_utf8_lossy(l);
            !t.trim().is_empty() && !t.trim().starts_with('#')
        })
        .count();
    let out = taquin()
        .args(["batch", "--timeout", "0.2", "--jobs", "2"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert!(matches!(out.status.code(), Some(0 | 1)), "{out:?}");
    let records: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), expected);
    assert!(records
        .windows(2)
        .all(|w| w[0]["line"].as_u64() < w[1]["line"].as_u64()));
    assert!(records.iter().all(|r| r["status"].is_string()));
}

#[test]
fn a_board_written_with_commas_alone_is_a_board_not_a_file_size() {
    // One word with commas and slashes: taquin's board text, not an n-puzzle file's size line.
    taquin()
        .args(["solve", "1,2,3/4,5,6/7,0,8"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Moves: R"));
    taquin()
        .args(["solve", "1/2/0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("a 1x3 board is not supported"));
}

#[test]
fn compact_json_lines_are_instances_for_batch() {
    // What `jq -c` and `json.dumps` write: no spaces on the first line.
    let input = "{\"board\":[[1,2,3],[4,5,6],[7,0,8]]}\n{\"board\":\"1,2,3/4,5,6/0,7,8\"}\n";
    let out = taquin()
        .args(["batch"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let records: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let lengths: Vec<u64> = records
        .iter()
        .map(|r| r["length"].as_u64().unwrap())
        .collect();
    assert_eq!(lengths, [1, 2]);
}

#[test]
fn a_file_that_is_not_there_is_named_as_such() {
    taquin()
        .args(["solve", "no-such-board.txt"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "there is no file 'no-such-board.txt', and it is not a board either",
        ));
}

#[test]
fn pdb_build_by_size_says_when_the_planner_uses_no_set() {
    let (_scratch, dir) = fresh_path("no-set");
    taquin()
        .args(["pdb", "build", "--size", "7x7", "--pdb-dir"])
        .arg(&dir)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "no set to build for 7x7 boards: the planner guides their searches by linear conflict",
        ));
    // Nothing was built.
    assert!(!dir.exists() || std::fs::read_dir(&dir).unwrap().next().is_none());
}

#[test]
fn a_heuristic_asked_of_a_search_that_takes_none_is_said_to_be_unused() {
    taquin()
        .args(["solve", "1 2 3/4 5 6/7 0 8", "-a", "bfs", "-H", "manhattan"])
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "note: bfs uses no heuristic, so -H manhattan is not used",
        ));
}

#[test]
fn verify_says_what_is_wrong_with_the_moves_once_and_names_a_missing_file() {
    let out = taquin()
        .args(["verify", "1 2 3/4 5 6/7 0 8", "RX"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.matches("is not a move").count(), 1, "{err}");
    taquin()
        .args(["verify", "1 2 3/4 5 6/7 0 8", "no-such-moves.txt"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "there is no file 'no-such-moves.txt'",
        ));
}

#[test]
fn a_file_that_is_there_but_holds_no_board_is_not_said_to_be_missing() {
    let file = scratch_file("bad-board", ".txt", "x y z/1 2 3");
    let out = taquin().arg("solve").arg(file.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("'x' is not a tile"), "{err}");
    assert!(!err.contains("there is no file"), "{err}");
}

/// `1 2 3/4 5 6/7 0 8` followed by CR LF in UTF-16 with its byte-order mark, as Windows
/// editors and PowerShell's `>` save it.
fn utf16_board() -> Vec<u8> {
    let mut bytes = vec![0xff, 0xfe];
    for unit in "1 2 3/4 5 6/7 0 8\r\n".encode_utf16() {
        bytes.extend(unit.to_le_bytes());
    }
    bytes
}

/// A UTF-16 file is said to be no UTF-8 text, with what to do, by every command that reads
/// one; `batch` refuses it as a whole rather than make a record of each garbled line.
#[test]
fn a_utf16_file_is_refused_saying_to_save_it_as_utf8() {
    let dir = common::scratch_dir("utf16");
    let file = dir.path().join("u16.txt");
    std::fs::write(&file, utf16_board()).unwrap();
    let path = file.to_str().unwrap();
    let said = format!("{path} is not UTF-8 text (it is UTF-16");
    for args in [
        vec!["solve", path],
        vec!["verify", path, "R"],
        vec!["verify", "1 2 3/4 5 6/7 0 8", path],
        vec!["gods-number", "--goal", path],
        vec!["bench", path],
    ] {
        taquin().args(&args).assert().code(2).stderr(
            predicate::str::contains(&said).and(predicate::str::contains("save the file as UTF-8")),
        );
    }
    let out = taquin().args(["batch", path]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["code"], "bad_board", "{v}");
    assert!(v["error"].as_str().unwrap().contains(&said), "{v}");
    // The same from standard input.
    taquin()
        .args(["verify", "1 2 3/4 5 6/7 0 8", "-"])
        .write_stdin(utf16_board())
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "standard input is not UTF-8 text (it is UTF-16",
        ));
}

/// A ';' typed between tiles ends a row: the ragged rows it makes are said to come from it.
#[test]
fn a_semicolon_between_tiles_is_said_to_separate_rows() {
    taquin()
        .args(["solve", "1;2;3/4 5 6/7 0 8"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "row 4 has 3 tiles but row 1 has 1: every row must have the same number of tiles \
             (rows are separated by '/', ';' or newlines",
        ));
}

/// A file holding only the size line of the n-puzzle format is said to lack its rows, not to
/// be a board of one tile.
#[test]
fn a_size_line_alone_is_said_to_lack_its_rows() {
    let file = scratch_file("size-only", ".txt", "3\n");
    let out = taquin().arg("solve").arg(file.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("the size line 3 and no rows after it"),
        "{err}"
    );
    assert!(!err.contains("one row of 1 tile"), "{err}");
}

/// Moves typed on the command line win over a file of the same name, as goal names do;
/// `./NAME` reads the file. A directory is named as one.
#[test]
fn verify_reads_the_moves_typed_before_a_file_of_that_name() {
    let dir = common::scratch_dir("verify-moves-file");
    std::fs::write(dir.path().join("LR"), "R\n").unwrap();
    let verify = |moves: &str| {
        let out = taquin()
            .current_dir(&dir)
            .args(["verify", "1 2 3/4 5 6/7 0 8", moves])
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8(out.stdout).unwrap())
    };
    let (code, typed) = verify("LR");
    assert_eq!(code, Some(1), "the moves LR end elsewhere: {typed}");
    assert!(typed.contains("(2 written)"), "{typed}");
    let (code, read) = verify("./LR");
    assert_eq!(code, Some(0), "the file holds R: {read}");
    taquin()
        .args(["verify", "1 2 3/4 5 6/7 0 8"])
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "is a directory, not moves or a file holding them",
        ))
        .stderr(predicate::str::contains("there is no file").not());
}

/// A UTF-8 byte-order mark, as some Windows editors write first, is skipped by every reader
/// of a file: `bench`'s first id is `1`, not "\u{feff}1", and `verify`'s moves file reads.
#[test]
fn a_byte_order_mark_is_skipped_by_bench_and_verify() {
    let dir = common::scratch_dir("bom");
    let instances = dir.path().join("bom.txt");
    std::fs::write(&instances, "\u{feff}1 - 1 2 3 4 5 6 7 0 8\n").unwrap();
    let out = taquin()
        .args(["bench", instances.to_str().unwrap(), "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let first: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&out.stdout).lines().next().unwrap()).unwrap();
    assert_eq!(first["id"], "1", "{first}");
    let moves = dir.path().join("moves.txt");
    std::fs::write(&moves, "\u{feff}R\n").unwrap();
    taquin()
        .args(["verify", "1 2 3/4 5 6/7 0 8", moves.to_str().unwrap()])
        .assert()
        .success()
        .stdout(predicate::str::contains("valid"));
}

#[test]
fn an_instance_line_takes_the_blank_as_any_board_does() {
    let dir = common::scratch_dir("instance-blank");
    let instances = dir.path().join("blank.txt");
    std::fs::write(&instances, "1 - 1 2 3 4 _ 6 7 5 8\n2 - 1 2 3 4 . 6 7 5 8\n").unwrap();
    let out = taquin()
        .args(["bench", instances.to_str().unwrap(), "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lengths: Vec<u64> = stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|r| r["length"].as_u64())
        .collect();
    // Instance lines keep their blank-first goal: 20 moves, as with the blank written 0.
    assert_eq!(lengths, [20, 20], "{stdout}");
}
