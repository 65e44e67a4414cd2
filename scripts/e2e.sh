#!/usr/bin/env bash
# Browser tests of the web game: builds `taquin` (optimised, profile test-release), starts
# `taquin serve` on a free loopback port, runs the Playwright tests (crates/web/e2e/tests) in
# Debian's headless Chromium, and stops the server on exit. Then the static page: scripts/site.sh
# writes the folder, a plain static server (python3 -m http.server) serves it with no taquin
# server running, and the tests of crates/web/e2e/static run against it.
# Usage: scripts/e2e.sh            (from anywhere; installs chromium/node with apt when root)
#        TAQUIN_SCREENSHOT=docs/screenshot.png scripts/e2e.sh
#                                  also writes the README's picture there
#                                  (TAQUIN_SCREENSHOT_PHONE=FILE: the phone layout's)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
# A relative picture path is the repository's.
absolute() { if [ -n "$1" ] && [ "${1#/}" = "$1" ]; then echo "$root/$1"; else echo "$1"; fi; }
shot=$(absolute "${TAQUIN_SCREENSHOT:-}")
phone_shot=$(absolute "${TAQUIN_SCREENSHOT_PHONE:-}")

export CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
missing=()
[ -x "$CHROMIUM" ] || missing+=(chromium)
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "== installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "e2e: needs ${missing[*]} (Debian: apt-get install ${missing[*]})" >&2
    exit 2
  fi
fi

echo "== npm ci (crates/web/e2e)"
cd "$root/crates/web/e2e"
# The browser is Debian's: playwright-core never downloads one.
if [ ! -f node_modules/playwright-core/package.json ] \
  || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi

# The tests' profile (Cargo.toml): the crates scripts/test.sh built for the Rust tests are reused.
echo "== cargo build --profile test-release -p taquin-cli"
cd "$root"
cargo build --profile test-release --locked -p taquin-cli
bin="${CARGO_TARGET_DIR:-$root/target}/test-release/taquin"

log=$(mktemp)
"$bin" serve --addr 127.0.0.1:0 >"$log" 2>&1 &
server=$!
static_server=""
cleanup() {
  for pid in "$server" $static_server; do
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  rm -f "$log"
}
trap cleanup EXIT INT TERM

# Port 0 lets the system pick a free port; the server prints the address it really bound.
# Prints the first loopback address in $log once it is there; fails when $1 (a pid) ends first.
address() {
  local pid=$1 url=""
  for _ in $(seq 1 300); do
    url=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$log" | head -n1 || true)
    if [ -n "$url" ]; then
      echo "$url"
      return 0
    fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  cat "$log" >&2
  return 1
}
url=$(address "$server") || { echo "e2e: the server did not start" >&2; exit 1; }
echo "== browser tests against $url"
cd "$root/crates/web/e2e"
TAQUIN_URL="$url" TAQUIN_SCREENSHOT="$shot" TAQUIN_SCREENSHOT_PHONE="$phone_shot" node --test --test-concurrency=1 tests/

# == the static page (no taquin server) ==
kill "$server" 2>/dev/null || true
wait "$server" 2>/dev/null || true
site="${CARGO_TARGET_DIR:-$root/target}/site"
"$root/scripts/site.sh" "$site"
# Python's server sends .wasm as application/wasm, what WebAssembly.instantiateStreaming wants.
: >"$log"
python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$site" >"$log" 2>&1 &
static_server=$!
url=$(address "$static_server") || { echo "e2e: the static server did not start" >&2; exit 1; }
wasm_type=$(python3 -c "import urllib.request,sys; print(urllib.request.urlopen(sys.argv[1]).headers['Content-Type'])" "$url/pkg/taquin_wasm_bg.wasm")
echo "== static page tests against $url (the .wasm is served as $wasm_type)"
cd "$root/crates/web/e2e"
TAQUIN_URL="$url" node --test --test-concurrency=1 static/
