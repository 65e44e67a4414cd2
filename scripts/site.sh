#!/usr/bin/env bash
# Writes the web game as a static folder that any static host serves (GitHub Pages, a school's
# web server, `python3 -m http.server`): the page, its modules, and taquin's core compiled to
# WebAssembly, which answers the page's questions in a Web Worker instead of a server.
# Usage: scripts/site.sh DIR      (DIR is created or refreshed; its other files are kept)
# Needs rustup's wasm32-unknown-unknown target and wasm-bindgen-cli of the exact version of the
# wasm-bindgen crate in Cargo.lock: both are installed here when missing.
set -euo pipefail
if [ $# -ne 1 ] || [ -z "$1" ]; then
  echo "usage: scripts/site.sh DIR" >&2
  exit 2
fi
mkdir -p "$1"
out=$(cd "$1" && pwd)
cd "$(dirname "$0")/.."
root=$(pwd)
target_dir="${CARGO_TARGET_DIR:-$root/target}"

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  echo "== rustup target add wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi
# The command-line tool must be the crate's version exactly: it reads the crate's metadata.
version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
if [ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $version" ]; then
  echo "== cargo install wasm-bindgen-cli $version"
  cargo install --locked wasm-bindgen-cli --version "$version"
fi

echo "== cargo build --profile wasm-release -p taquin-wasm --target wasm32-unknown-unknown"
cargo build --profile wasm-release --locked -p taquin-wasm --target wasm32-unknown-unknown

echo "== writing $out"
rm -rf "$out/pkg"
# Without the names of the functions: they are a tenth of the module, and only a browser's
# stack trace reads them (it then numbers the functions instead).
wasm-bindgen --target web --no-typescript --remove-name-section --out-dir "$out/pkg" \
  "$target_dir/wasm32-unknown-unknown/wasm-release/taquin_wasm.wasm"
cp crates/web/assets/*.html crates/web/assets/*.css crates/web/assets/*.js crates/web/assets/*.svg "$out/"
size=$(wc -c <"$out/pkg/taquin_wasm_bg.wasm")
# Tells the page that it is a static folder: api.js reads it to answer in the browser, and
# the module's size, which the page names while it loads.
printf '{"mode": "static", "solver_bytes": %s}\n' "$size" >"$out/site.json"
gz=$(gzip -9 -c "$out/pkg/taquin_wasm_bg.wasm" | wc -c)
echo "wrote $out: open index.html through a web server (the WebAssembly module is $size bytes, $gz gzipped)"
