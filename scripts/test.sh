#!/usr/bin/env bash
# Runs every test of taquin: formatting, lints, the Rust tests (release: the oracle tests walk
# every 8-puzzle state), and the browser tests of the web game.
# Usage: scripts/test.sh            (from the repository root)
set -euo pipefail
cd "$(dirname "$0")/.."

# rustfmt and clippy are rustup components a fresh toolchain may lack.
if ! cargo fmt --version >/dev/null 2>&1 || ! cargo clippy --version >/dev/null 2>&1; then
  rustup component add rustfmt clippy
fi

echo "== cargo fmt --check"
cargo fmt --all -- --check

echo "== cargo clippy"
cargo clippy --locked --release --workspace --all-targets -- -D warnings

echo "== cargo doc (warnings denied)"
RUSTDOCFLAGS="-D warnings" cargo doc --locked --no-deps -p taquin-core -p taquin-web -p taquin-wasm

echo "== cargo test (release)"
cargo test --locked --release --workspace

# == fuzzing (property tests; cargo-fuzz needs a nightly toolchain) ==
# The fuzz targets also run above with 256 cases each; here, longer: board, goal and move text,
# the table file reader, batch lines, and every route's JSON body.
echo "== fuzzing (property tests, more cases)"
PROPTEST_CASES="${TAQUIN_FUZZ_CASES:-2000}" cargo test --locked --release -p taquin-core --test fuzz_inputs
PROPTEST_CASES="${TAQUIN_FUZZ_CASES:-2000}" cargo test --locked --release -p taquin-web --test fuzz_bodies
# == end fuzzing ==

# == Python package (crates/python) ==
# Builds the wheel the way users install it (pip runs maturin) into a virtual environment of its
# own, then runs the package's pytest suite, the Gymnasium checks included.
echo "== Python package (pip install ./crates/python, pytest)"
PY_VENV=target/python-venv
if [ ! -x "$PY_VENV/bin/python" ]; then
  python3 -m venv "$PY_VENV"
fi
"$PY_VENV/bin/python" -m pip install --quiet --disable-pip-version-check "./crates/python[test]"
# Same version number as the last run: reinstall so the fresh build is the one tested.
"$PY_VENV/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps ./crates/python
"$PY_VENV/bin/python" -m pytest -q crates/python/tests
# == end Python package ==

# == browser tests (web game) ==
if [ -x scripts/e2e.sh ]; then
  echo "== browser tests"
  scripts/e2e.sh
fi
