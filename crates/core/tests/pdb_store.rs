//! The table file reader never blocks or misleads on what is not a table: a FIFO, a directory
//! or a device with a table's name is refused by its type before it is opened, and a table
//! directory that is a file is named as such.

mod common;

use common::scratch_dir;
use taquin::pdb::{build, store, PatternSpec, PdbError};

fn spec() -> PatternSpec {
    PatternSpec::new(3, 3, 0, vec![1, 2, 3]).unwrap()
}

#[cfg(unix)]
#[test]
fn a_fifo_with_a_tables_name_is_refused_without_blocking() {
    let dir = scratch_dir("store-fifo");
    let path = store::path_in(dir.path(), &spec());
    let made = std::process::Command::new("mkfifo").arg(&path).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("mkfifo is not available: skipped");
        return;
    }
    // Before the type check, each of these blocked forever waiting for a writer.
    for result in [
        store::info(&path).map(|_| ()),
        store::load(&path, Some(&spec())).map(|_| ()),
    ] {
        match result {
            Err(PdbError::Corrupt { reason, .. }) => {
                assert!(reason.contains("not a regular file"), "{reason}")
            }
            other => panic!("a FIFO was accepted: {other:?}"),
        }
    }
    // Saving replaces it with a real table.
    let db = build(&spec(), 1, None, &taquin::Limits::none()).unwrap();
    store::save(&db, &path).unwrap();
    assert_eq!(store::load(&path, Some(&spec())).unwrap(), db);
}

#[test]
fn a_directory_with_a_tables_name_is_refused() {
    let dir = scratch_dir("store-dir");
    let path = store::path_in(dir.path(), &spec());
    std::fs::create_dir_all(&path).unwrap();
    let err = store::info(&path).unwrap_err();
    assert!(err.to_string().contains("a directory"), "{err}");
}

#[test]
fn a_table_directory_that_is_a_file_is_named_as_such() {
    let dir = scratch_dir("store-file");
    let not_a_dir = dir.path().join("tables");
    std::fs::write(&not_a_dir, b"x").unwrap();
    let db = build(&spec(), 1, None, &taquin::Limits::none()).unwrap();
    let err = store::save(&db, &store::path_in(&not_a_dir, &spec())).unwrap_err();
    assert!(err.to_string().contains("not a directory"), "{err}");
}
