//! What the unit tests of several modules share (the integration tests have their own, in
//! `tests/common`).

/// A directory of one test's own, named `taquin-NAME-` and a random suffix in the system's
/// temporary directory; it is deleted with all it holds when dropped, also when the test fails:
/// keep it until the test ends.
pub(crate) fn scratch_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("taquin-{name}-"))
        .tempdir()
        .unwrap()
}
