#!/usr/bin/env bash
# Runs every test of taquin: formatting, lints, the Rust tests (optimised: the oracle tests walk
# every 8-puzzle state), fuzzing, the Python package, and the browser tests of the web game.
# Usage: scripts/test.sh            (from the repository root)
#        scripts/test.sh --slow     also the slow tests, `#[ignore]`d in a plain `cargo test`
#                                   (1000x1000 boards, 12-cell God's numbers: minutes more)
set -euo pipefail
slow=false
case "${1:-}" in
  "") ;;
  --slow) slow=true ;;
  *) echo "usage: scripts/test.sh [--slow]" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/.."

# rustfmt and clippy are rustup components a fresh toolchain may lack.
if ! cargo fmt --version >/dev/null 2>&1 || ! cargo clippy --version >/dev/null 2>&1; then
  rustup component add rustfmt clippy
fi

echo "== cargo fmt --check"
cargo fmt --all -- --check

# With the tests' profile (below), so that build scripts and macros are built once.
echo "== cargo clippy"
cargo clippy --locked --profile test-release --workspace --all-targets -- -D warnings

echo "== cargo doc (warnings denied)"
RUSTDOCFLAGS="-D warnings" cargo doc --locked --no-deps -p taquin-core -p taquin-api -p taquin-web -p taquin-wasm -p taquin-cli

# The test-release profile (Cargo.toml): release speed, a third of the build time.
echo "== cargo test (profile test-release)"
cargo test --locked --profile test-release --workspace
if $slow; then
  echo "== slow tests (profile test-release, --ignored)"
  cargo test --locked --profile test-release --workspace -- --ignored
fi

# == fuzzing (cargo-fuzz, libFuzzer) ==
# Each target in fuzz/ (board and goal text, move text, table files, instance lines, n-puzzle
# files, API request bodies) runs briefly from its corpus in fuzz/corpus/TARGET: the inputs
# that reach new code, and those that once failed. New inputs go to a scratch directory, not
# into the repository. cargo-fuzz passes flags only a nightly compiler takes (coverage
# instrumentation, AddressSanitizer); RUSTC_BOOTSTRAP=1 lets the stable toolchain take them.
# Longer runs: TAQUIN_FUZZ_SECONDS=600 scripts/test.sh, or see fuzz/README.md.
fuzz_seconds="${TAQUIN_FUZZ_SECONDS:-20}"
echo "== fuzzing (cargo fuzz, $fuzz_seconds s per target)"
if ! cargo fuzz --version >/dev/null 2>&1; then
  cargo install --locked cargo-fuzz
fi
# The fuzz crate is a workspace of its own, which the workspace's clippy above does not see.
echo "== cargo clippy (fuzz/)"
cargo clippy --manifest-path fuzz/Cargo.toml --all-targets -- -D warnings
export RUSTC_BOOTSTRAP=1
cargo fuzz build
fuzz_scratch=$(mktemp -d)
# Removed also when a target fails (its input is kept in fuzz/artifacts, not here).
trap 'rm -rf "$fuzz_scratch"' EXIT
# The scratch files the targets write (table_file's table) go there too.
export TAQUIN_FUZZ_SCRATCH="$fuzz_scratch"
for target in $(cargo fuzz list); do
  mkdir -p "$fuzz_scratch/$target"
  if ! cargo fuzz run "$target" "$fuzz_scratch/$target" "fuzz/corpus/$target" -- \
    -max_total_time="$fuzz_seconds" -timeout=10 -print_final_stats=1 >"$fuzz_scratch/$target.log" 2>&1; then
    tail -60 "$fuzz_scratch/$target.log" >&2
    echo "fuzz target $target failed: the input is in fuzz/artifacts/$target" >&2
    exit 1
  fi
  echo "$target: $(grep -E '^Done' "$fuzz_scratch/$target.log")"
done
rm -rf "$fuzz_scratch"
trap - EXIT
unset RUSTC_BOOTSTRAP TAQUIN_FUZZ_SCRATCH
# == end fuzzing ==

# == Python package (crates/python) ==
# Builds the wheel the way users install it (pip runs maturin) into a virtual environment of its
# own, then runs the package's pytest suite, the Gymnasium checks included.
echo "== Python package (pip install ./crates/python, pytest)"
PY_VENV=target/python-venv
# pip runs maturin, which builds with the tests' profile: the crates built above are reused.
export MATURIN_PEP517_ARGS="--profile test-release"
if [ ! -x "$PY_VENV/bin/python" ]; then
  python3 -m venv "$PY_VENV"
fi
"$PY_VENV/bin/python" -m pip install --quiet --disable-pip-version-check "./crates/python[test]"
# Same version number as the last run: reinstall so the fresh build is the one tested.
"$PY_VENV/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps ./crates/python
"$PY_VENV/bin/python" -m pytest -q crates/python/tests
unset MATURIN_PEP517_ARGS
# == end Python package ==

# == browser tests (web game) ==
if [ -x scripts/e2e.sh ]; then
  echo "== browser tests"
  scripts/e2e.sh
fi
