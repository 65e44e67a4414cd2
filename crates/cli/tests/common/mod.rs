//! What the CLI test suites share.
#![allow(dead_code)]

use assert_cmd::Command;

/// The `taquin` binary, with a table directory of its own so that tests never read or write the
/// user's cache (quick pattern databases are built there on first use).
pub fn taquin() -> Command {
    let mut cmd = Command::cargo_bin("taquin").unwrap();
    cmd.env("TAQUIN_PDB_DIR", table_dir());
    cmd
}

/// The table directory of this test run's `taquin` processes.
fn table_dir() -> std::path::PathBuf {
    std::env::temp_dir().join(format!("taquin-cli-tests-{}", std::process::id()))
}

/// Starts `taquin ARGS` as [`taquin`] runs it, its standard output and error piped, for a test
/// that acts while it runs.
pub fn spawn(args: &[&str]) -> std::process::Child {
    use std::process::Stdio;
    std::process::Command::new(assert_cmd::cargo::cargo_bin("taquin"))
        .env("TAQUIN_PDB_DIR", table_dir())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Runs `command`, checks its exit code and returns its standard output.
pub fn stdout_of(mut command: Command, code: i32) -> Vec<u8> {
    command.assert().code(code).get_output().stdout.clone()
}

/// Runs `taquin ARGS`, checks its exit code and reads its standard output as JSON.
pub fn json_out(args: &[&str], code: i32) -> serde_json::Value {
    let mut command = taquin();
    command.args(args);
    serde_json::from_slice(&stdout_of(command, code)).unwrap()
}

/// Sends SIGINT, as Ctrl-C in a terminal does.
pub fn interrupt(child: &std::process::Child) {
    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}
