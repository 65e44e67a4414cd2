//! `taquin pdb build|list|verify` over both kinds of table: the single-tile ones (`.pdb`) and
//! the multi-tile ones (`.mtm`, `--metric mtm`), and goals given by name.

use std::path::{Path, PathBuf};

use predicates::prelude::PredicateBooleanExt;

mod common;
use common::{fresh_path, json_out, stdout_of, taquin};

/// Runs `taquin --pdb-dir DIR ARGS`, checks the exit code, and returns standard output.
fn run_in(dir: &Path, args: &[&str], code: i32) -> String {
    let mut command = taquin();
    command.arg("--pdb-dir").arg(dir).args(args);
    String::from_utf8(stdout_of(command, code)).unwrap()
}

/// Builds the 24-puzzle's zero-aware 6-6-6-6 (about 180 MiB and seconds a table): enough to
/// meet a small memory or time limit.
const BUILD_24_SET: [&str; 5] = ["pdb", "build", "zpdb:6-6-6-6", "--goal", "korf"];

/// `taquin --pdb-dir DIR ARGS`, run, for assertions on its code and output.
fn assert_in(dir: &Path, args: &[&str]) -> assert_cmd::assert::Assert {
    taquin().arg("--pdb-dir").arg(dir).args(args).assert()
}

/// `taquin --pdb-dir DIR solve BOARD --goal snail --json` with `extra` flags: the answer.
fn solve_snail_in(dir: &Path, board: &str, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["solve", board, "--goal", "snail", "--json"];
    args.extend_from_slice(extra);
    serde_json::from_str(&run_in(dir, &args, 0)).unwrap()
}

/// The one file of `dir` whose name ends with `ext`.
fn file_with(dir: &Path, ext: &str) -> PathBuf {
    let files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(ext))
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    files[0].clone()
}

/// The 8-puzzle's multi-tile table holds all eight tiles: it is the puzzle itself, whose
/// diameter in slides is 24 (`taquin gods-number 3x3 --metric mtm`). The half of its entries no
/// board reaches (the other parity) are not distances.
#[test]
fn the_8_puzzle_multi_tile_table_reports_its_real_largest_distance() {
    let (_scratch, dir) = fresh_path("cli-pdb-mtm-diameter");
    let out = run_in(
        &dir,
        &["pdb", "build", "--size", "3x3", "--metric", "mtm"],
        0,
    );
    assert!(out.contains("largest distance 24"), "{out}");
    let out = run_in(&dir, &["pdb", "verify"], 0);
    assert!(out.contains("largest distance 24"), "{out}");
}

#[test]
fn multi_tile_tables_are_listed_and_verified_with_their_metric() {
    let (_scratch, dir) = fresh_path("cli-pdb-list-both");
    run_in(&dir, &["pdb", "build", "--size", "3x3"], 0);
    run_in(
        &dir,
        &["pdb", "build", "--size", "3x3", "--metric", "mtm"],
        0,
    );
    let pdb = file_with(&dir, ".pdb");
    let mtm = file_with(&dir, ".mtm");
    let name = |p: &Path| p.file_name().unwrap().to_string_lossy().into_owned();

    let list = run_in(&dir, &["pdb", "list"], 0);
    assert!(list.contains("stm = single-tile moves"), "{list}");
    assert!(
        list.contains(&format!("{}  stm  3x3 cells", name(&pdb))),
        "{list}"
    );
    assert!(
        list.contains(&format!(
            "{}  mtm  3x3 cells {{0,1,2,3,4,5,6,7}} (blank goal cell 8)  362880 entries  8 bits",
            name(&mtm)
        )),
        "{list}"
    );

    let verify = run_in(&dir, &["pdb", "verify"], 0);
    assert!(
        verify.contains(&format!("ok   {}  stm", pdb.display())),
        "{verify}"
    );
    assert!(
        verify.contains(&format!("ok   {}  mtm", mtm.display())),
        "{verify}"
    );
    assert!(verify.contains("2 checked, 0 bad"), "{verify}");

    // A damaged multi-tile file: its header still lists, the full check finds the damage.
    let mut bytes = std::fs::read(&mtm).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&mtm, &bytes).unwrap();
    let verify = run_in(&dir, &["pdb", "verify"], 1);
    assert!(verify.contains("BAD  mtm"), "{verify}");
    assert!(verify.contains("checksum mismatch"), "{verify}");
    assert!(verify.contains("2 checked, 1 bad"), "{verify}");
    // Named on the command line, alone.
    let verify = run_in(&dir, &["pdb", "verify", mtm.to_str().unwrap()], 1);
    assert!(verify.contains("1 checked, 1 bad"), "{verify}");
    // A name that is no file is a usage error, not a damaged table.
    let missing = dir.join("no-such.pdb");
    assert_in(&dir, &["pdb", "verify", missing.to_str().unwrap()])
        .code(2)
        .stderr(predicates::str::contains("no-such.pdb is not a file"));

    // A truncated one is invalid already by its header.
    std::fs::write(&mtm, &bytes[..bytes.len() - 10]).unwrap();
    let list = run_in(&dir, &["pdb", "list"], 0);
    assert!(
        list.contains(&format!("{}  mtm  INVALID", name(&mtm))),
        "{list}"
    );
    assert!(list.contains("truncated or padded"), "{list}");
}

/// `--goal snail` is the goal `solve --goal snail` names, for both metrics; the tables it builds
/// are the ones the planner then finds on disk.
#[test]
fn a_snail_goal_builds_the_tables_a_snail_solve_uses() {
    let (_scratch, dir) = fresh_path("cli-pdb-snail");
    let board = "2 8 3/1 6 4/7 0 5";
    let out = run_in(
        &dir,
        &["pdb", "build", "--size", "3x3", "--goal", "snail"],
        0,
    );
    assert!(out.contains("3x3 cells"), "{out}");
    let solved = solve_snail_in(&dir, board, &[]);
    assert_eq!(solved["goal"], "1 2 3/8 0 4/7 6 5", "{solved}");
    assert_eq!(solved["heuristic"], "pdb:8", "{solved}");
    assert!(
        solved["plan"].as_str().unwrap().contains("on disk"),
        "{solved}"
    );

    let out = run_in(
        &dir,
        &[
            "pdb", "build", "--size", "3x3", "--goal", "snail", "--metric", "mtm",
        ],
        0,
    );
    // The snail's blank is in the middle: its table's blank goal cell is 4.
    assert!(out.contains("(blank goal cell 4)"), "{out}");
    let solved = solve_snail_in(&dir, board, &["--metric", "mtm"]);
    assert_eq!(
        solved["heuristic"], "mtm:8+walking-distance-mtm",
        "{solved}"
    );
    assert!(
        solved["plan"].as_str().unwrap().contains("on disk"),
        "{solved}"
    );
    // A partition named by its sizes takes the name too.
    run_in(&dir, &["pdb", "build", "8", "--goal", "Snail"], 0);
}

#[test]
fn a_misspelt_goal_name_is_refused_with_the_names() {
    let (_scratch, dir) = fresh_path("cli-pdb-snial");
    taquin()
        .arg("--pdb-dir")
        .arg(&dir)
        .args(["pdb", "build", "--size", "3x3", "--goal", "snial"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "unknown goal 'snial': use standard, korf or snail",
        ));
}

/// The 15-puzzle's set for the snail (zpdb:7-8, 196 MB, about 30 s on two cores): built by
/// `--size 4x4 --goal snail`, and the one a snail solve then uses.
#[test]
#[ignore = "builds the 15-puzzle's zpdb:7-8 (about 30 s, 196 MB)"]
fn a_snail_goal_builds_the_15_puzzle_set_a_snail_solve_uses() {
    let (_scratch, dir) = fresh_path("cli-pdb-snail-4x4");
    let dir_arg = dir.to_str().unwrap();
    run_in(
        &dir,
        &["pdb", "build", "--size", "4x4", "--goal", "snail"],
        0,
    );
    let solved = json_out(
        &[
            "--pdb-dir",
            dir_arg,
            "solve",
            "9 6 7 4/0 8 11 2/15 12 3 13/5 10 1 14",
            "--goal",
            "snail",
            "--json",
        ],
        0,
    );
    assert_eq!(solved["heuristic"], "zpdb:7-8", "{solved}");
    assert_eq!(solved["length"], 58, "{solved}");
}

/// The command a damaged file's message gives (`taquin pdb build` again, no `--force`) builds
/// that file anew and keeps the valid ones as they are.
#[test]
fn building_again_replaces_only_the_damaged_file() {
    let (_scratch, dir) = fresh_path("cli-pdb-rebuild-damaged");
    let build = ["pdb", "build", "4-4", "--size", "3x3"];
    let first = run_in(&dir, &build, 0);
    assert_eq!(first.matches("; built in ").count(), 2, "{first}");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pdb"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 2, "{files:?}");
    let (kept, damaged) = (&files[0], &files[1]);
    let modified = |p: &Path| std::fs::metadata(p).unwrap().modified().unwrap();
    let kept_since = modified(kept);
    let mut bytes = std::fs::read(damaged).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x10;
    std::fs::write(damaged, &bytes).unwrap();
    let out = run_in(&dir, &["pdb", "verify"], 1);
    assert!(out.contains("checksum"), "{out}");

    let mut command = taquin();
    command.arg("--pdb-dir").arg(&dir).args(build);
    let output = command.output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("checksum"),
        "the rejected file is named: {stderr}"
    );
    assert_ne!(std::fs::read(damaged).unwrap(), bytes, "rebuilt");
    // Each table's line says which it was.
    let stdout = String::from_utf8_lossy(&output.stdout);
    let line_of = |file: &Path| {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        stdout
            .lines()
            .find(|l| l.contains(&name))
            .unwrap()
            .to_string()
    };
    assert!(
        line_of(kept).ends_with("already on disk (--force builds it again)"),
        "{stdout}"
    );
    assert!(line_of(damaged).contains("; built in "), "{stdout}");
    assert_eq!(
        modified(kept),
        kept_since,
        "the valid file is kept as it was"
    );
    run_in(&dir, &["pdb", "verify"], 0);
}

/// A directory that is not there has no tables to vouch for: `verify` says so and fails
/// (a mistyped path must not pass a check); `list` says it is not there yet.
#[test]
fn a_missing_directory_fails_verify_and_is_named_by_list() {
    let (_scratch, dir) = fresh_path("cli-pdb-missing");
    let mut command = taquin();
    command.arg("--pdb-dir").arg(&dir).args(["pdb", "verify"]);
    let output = command.output().unwrap();
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("does not exist: nothing to verify"),
        "{stderr}"
    );
    let out = run_in(&dir, &["pdb", "list"], 0);
    assert!(out.contains("which does not exist yet"), "{out}");
    assert!(!dir.exists(), "listing created the directory");
}

/// `--max-memory` refuses a table whose build needs more, before it starts: exit 1, a sentence
/// that names the table, its need and the flag to raise, and no file.
#[test]
fn a_build_over_the_memory_limit_is_refused_before_it_starts() {
    let (_scratch, dir) = fresh_path("cli-pdb-max-memory");
    // The 24-puzzle's zero-aware 6-6-6-6: about 180 MiB a table to build, over 16 MiB.
    assert_in(&dir, &[&BUILD_24_SET[..], &["--max-memory", "16"]].concat())
        .code(1)
        .stderr(predicates::str::contains("over the memory limit of 16 MiB"))
        .stderr(predicates::str::contains("raise --max-memory"));
    let written: Vec<_> = std::fs::read_dir(&dir).map_or(Vec::new(), |d| d.collect());
    assert!(written.is_empty(), "{written:?}");
}

/// A table too large to build at all is refused before any build is announced, with its real
/// size: counts past 64 bits (the 8x8's 63 tiles) are not shown saturated or wrapped to 0.
#[test]
fn a_table_too_large_to_build_is_refused_before_it_is_announced() {
    let (_scratch, dir) = fresh_path("cli-pdb-too-large");
    let no_build_line = || predicates::str::contains("building the pattern database").not();
    assert_in(&dir, &["pdb", "build", "15", "--size", "4x4"])
        .code(2)
        .stderr(predicates::str::contains(
            "has 20,922,789,888,000 entries and would need 19485.9 GiB to build",
        ))
        .stderr(no_build_line());
    // A random board: its answer is not at hand before the tables are asked for.
    let board = run_in(&dir, &["generate", "--size", "8x8", "--seed", "1"], 0);
    assert_in(
        &dir,
        &["solve", board.trim(), "-H", "pdb:63", "--timeout", "5"],
    )
    .code(2)
    .stderr(predicates::str::contains(
        "has 1.27e89 entries and would need",
    ))
    .stderr(predicates::str::contains(" 0.0 GiB").not())
    .stderr(no_build_line());
}

/// `--timeout` stops the build under way at the deadline: exit 1, a sentence that says what
/// is kept, and no table saved half built.
#[test]
fn a_build_past_its_timeout_stops_saving_nothing_half_built() {
    let (_scratch, dir) = fresh_path("cli-pdb-timeout");
    // A millisecond: far less than a table of the 24-puzzle's 6-6-6-6 takes on any machine.
    assert_in(&dir, &[&BUILD_24_SET[..], &["--timeout", "0.001"]].concat())
        .code(1)
        .stderr(predicates::str::contains("time limit reached"))
        .stderr(predicates::str::contains(
            "more time (--timeout) builds the rest",
        ));
    let saved: Vec<_> = std::fs::read_dir(&dir).map_or(Vec::new(), |d| {
        d.map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "pdb"))
            .collect()
    });
    assert!(saved.is_empty(), "{saved:?}");
}

/// A table that cannot be saved fails the build (exit 2), naming the file and what to do: its
/// only product is the file. Not "already on disk" either, though something is at its path.
#[test]
fn a_build_that_cannot_save_its_table_fails() {
    let (_scratch, dir) = fresh_path("cli-pdb-unsaved");
    run_in(&dir, &["pdb", "build", "8"], 0);
    // A directory with a file in it where the table goes: the table cannot be renamed over
    // it, even by root.
    let table = file_with(&dir, ".pdb");
    std::fs::remove_file(&table).unwrap();
    std::fs::create_dir_all(table.join("inside")).unwrap();
    assert_in(&dir, &["pdb", "build", "8"])
        .code(2)
        .stdout(predicates::str::contains("already on disk").not())
        .stderr(predicates::str::contains("could not be saved"))
        .stderr(predicates::str::contains("--pdb-dir"));
}
