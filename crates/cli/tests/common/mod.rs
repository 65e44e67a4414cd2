//! What the CLI test suites share.
#![allow(dead_code)]

use assert_cmd::Command;

/// The `taquin` binary, with a table directory of its own so that tests never read or write the
/// user's cache (quick pattern databases are built there on first use).
pub fn taquin() -> Command {
    let mut cmd = Command::cargo_bin("taquin").unwrap();
    cmd.env(
        "TAQUIN_PDB_DIR",
        std::env::temp_dir().join(format!("taquin-cli-tests-{}", std::process::id())),
    );
    cmd
}

/// Runs `taquin ARGS`, checks its exit code and reads its standard output as JSON.
pub fn json_out(args: &[&str], code: i32) -> serde_json::Value {
    let out = taquin()
        .args(args)
        .assert()
        .code(code)
        .get_output()
        .stdout
        .clone();
    serde_json::from_slice(&out).unwrap()
}
