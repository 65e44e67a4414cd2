//! What the CLI test suites share.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use assert_cmd::Command;
use tempfile::{NamedTempFile, TempDir};

/// The `taquin` binary, with a table directory of its own so that tests never read or write the
/// user's cache (quick pattern databases are built there on first use).
pub fn taquin() -> Command {
    let mut cmd = Command::cargo_bin("taquin").unwrap();
    cmd.env("TAQUIN_PDB_DIR", table_dir());
    cmd
}

/// The start of the name of a test process's table directory; its process id follows.
const TABLE_DIR_PREFIX: &str = "taquin-cli-tests-";

/// The table directory of this test process's `taquin` processes.
///
/// One per test process, not one per test: the tests of a binary run in parallel threads and
/// share the tables built there (some 23 MB), so no test may delete it; and a static is never
/// dropped, so nothing deletes it when the process ends. Hence it lives in Cargo's scratch
/// directory for integration tests (inside `target/`, removed by `cargo clean`), not in the
/// system's temporary directory, and the process that makes its own first removes those of
/// earlier test processes that have ended, so that repeated runs do not pile them up.
fn table_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let scratch = Path::new(env!("CARGO_TARGET_TMPDIR"));
        remove_ended_runs_table_dirs(scratch);
        scratch.join(format!("{TABLE_DIR_PREFIX}{}", std::process::id()))
    })
}

/// Removes the table directories in `scratch` whose test process is no longer running.
///
/// Only on Linux, where a process is running while `/proc/PID` exists; elsewhere they stay until
/// `cargo clean`. A directory whose process id has been reused since also stays, until a later
/// run. Another test binary running at the same time keeps its own, its process being alive.
fn remove_ended_runs_table_dirs(scratch: &Path) {
    if !cfg!(target_os = "linux") {
        return;
    }
    let Ok(entries) = std::fs::read_dir(scratch) else {
        // No scratch directory yet: nothing to remove.
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|name| name.strip_prefix(TABLE_DIR_PREFIX))
            .and_then(|pid| pid.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && !Path::new("/proc").join(pid.to_string()).exists() {
            // Another process may be removing it too: whichever finishes, it is gone.
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// A directory of one test's own, named `taquin-NAME-` and a random suffix in the system's
/// temporary directory; it is deleted with all it holds when dropped, also when the test fails.
pub fn scratch_dir(name: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("taquin-{name}-"))
        .tempdir()
        .unwrap()
}

/// A path where nothing is yet, `NAME` inside a [`scratch_dir`], for a test that checks what
/// `taquin` makes there or says of a missing one. Whatever is made there is deleted with the
/// returned directory: bind it to a name (`let (_scratch, path) = ...`, not `_`), which keeps it
/// until the end of the test.
pub fn fresh_path(name: &str) -> (TempDir, PathBuf) {
    let scratch = scratch_dir(name);
    let path = scratch.path().join(name);
    (scratch, path)
}

/// A file of one test's own holding `text`, named as [`scratch_dir`] names a directory, ending
/// in `suffix` (e.g. ".txt"); it is deleted when dropped, also when the test fails.
pub fn scratch_file(name: &str, suffix: &str, text: &str) -> NamedTempFile {
    let file = tempfile::Builder::new()
        .prefix(&format!("taquin-{name}-"))
        .suffix(suffix)
        .tempfile()
        .unwrap();
    std::fs::write(file.path(), text).unwrap();
    file
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
