#!/usr/bin/env bash
# Load test of `taquin serve` on loopback only: a mix of valid, invalid and expensive requests
# (wrk, Debian's `wrk` package) at 1 to 256 connections, plus clients that send half a request
# and stop. Prints, ready to paste into BENCHMARKS.md ("Web server"), a table of the latency of
# GET /api/info (timed with curl every 0.1 s throughout, and before any request) at each number
# of connections with the requests/s and statuses seen, then one summary row: the p95 at each
# step, the statuses, the server's peak memory and how long Ctrl-C (SIGINT) takes to stop it
# with searches, a stream and the background table build in flight.
# Usage: scripts/load.sh [SECONDS_PER_STEP]     (from the repository root; default 5)
#        TAQUIN_BIN=path/to/taquin scripts/load.sh 10   (another build, e.g. to compare two)
#        STOP_UNDER_LOAD=1 scripts/load.sh 10   (SIGINT during a 256-connection run instead)
set -euo pipefail
cd "$(dirname "$0")/.."
step="${1:-5}"
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 2; }
if [ -z "${TAQUIN_BIN:-}" ]; then
  cargo build --locked --release -p taquin-cli >/dev/null 2>&1
fi
bin="${TAQUIN_BIN:-target/release/taquin}"
# The build's name in the summary row: the commit when built here, else the binary's path.
label="${TAQUIN_BIN:-$(git rev-parse --short HEAD 2>/dev/null || echo this)}"
work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

# The server: loopback, a free port, room for 256 + 60 connections, 2 s searches, and a table
# directory of its own, empty, so that every run starts the same background table build as a
# fresh `taquin serve` (and writes nothing to the user's cache).
(ulimit -n 1024; exec "$bin" --pdb-dir "$work/pdb" serve --addr 127.0.0.1:0 --timeout 2 --max-timeout 2 >"$work/serve.out" 2>&1) &
server=$!
for _ in $(seq 100); do grep -q http "$work/serve.out" 2>/dev/null && break; sleep 0.1; done
url=$(grep -o 'http://127.0.0.1:[0-9]*' "$work/serve.out" | head -1)

cat >"$work/mix.lua" <<'LUA'
-- A rotating mix of requests: valid, invalid and expensive ones.
local bodies = {
  {"/api/solve", '{"board":"6 4 7/8 5 0/3 2 1"}'},
  {"/api/solve", '{"board":"1 2/3 4/5 6/7 8/9 10/11 0/13 12","heuristic":"walking-distance","timeout_ms":1}'},
  {"/api/solve", '["6 4 7/8 5 0/3 2 1", null, "astar"]'},
  {"/api/solve", '{"board":"1 2 3/4 5 6/8 7 0"}'},
  {"/api/solve", '{"board":"1 2 x/4 5 6/8 7 0"}'},
  {"/api/solve", '{"board":"6 4 7/8 5 0/3 2 1","algorithm":"lrta","depth":100000}'},
  {"/api/solve", '{"board":"6 4 7/8 5 0/3 2 1","max_nodes":1}'},
  {"/api/solve", '{"board":"15 14 13 12/11 10 9 8/7 6 5 4/3 1 2 0","algorithm":"astar","heuristic":"misplaced"}'},
  {"/api/solve/stream", '{"board":"6 4 7/8 5 0/3 2 1","algorithm":"lrta","depth":12}'},
  {"/api/hint", '{"board":"1 2/3 4/5 6/7 8/9 10/11 0/13 12"}'},
  {"/api/compare", '{"board":"15 14 13 12/11 10 9 8/7 6 5 4/3 1 2 0","algorithms":["idastar","astar"]}'},
  {"/api/compare", '{"board":"6 4 7/8 5 0/3 2 1","heuristics":["manhattan","manhattan"]}'},
  {"/api/generate", '{"width":8,"height":8,"method":"walk","moves":100000}'},
  {"/api/generate", '{"width":1,"height":8}'},
  {"/api/trace", '{"board":"1 2 3 4/5 6 7 8/9 10 11 0/13 14 15 12","heuristic":"walking-distance"}'},
  {"/api/validate", '{"board":"6 4 7/8 5 0/3 2 1"}'},
}
local i = 0
request = function()
  i = i % #bodies + 1
  local b = bodies[i]
  return wrk.format("POST", b[1], {["Content-Type"] = "application/json"}, b[2])
end
response = function(status)
  local k = "s" .. status
  _G[k] = (_G[k] or 0) + 1
end
local threads = {}
setup = function(thread) table.insert(threads, thread) end
done = function()
  local line = "statuses:"
  for code = 100, 599 do
    local n = 0
    for _, t in ipairs(threads) do n = n + (t:get("s" .. code) or 0) end
    if n > 0 then line = line .. " " .. code .. "=" .. n end
  end
  print(line)
end
LUA

# /api/info latency and server memory, sampled throughout.
(
  while kill -0 "$server" 2>/dev/null; do
    # A failed request (none expected) is counted apart, unless the server is already stopping.
    if t=$(curl -s -o /dev/null -w '%{time_total}' --max-time 5 "$url/api/info"); then
      echo "$(cat "$work/phase" 2>/dev/null || echo start) $t" >>"$work/info.txt"
    elif kill -0 "$server" 2>/dev/null && [ "$(cat "$work/phase")" != stopping ]; then
      echo failed >>"$work/info_failed.txt"
    fi
    hwm=$(awk '/VmHWM/ {print $2}' "/proc/$server/status" 2>/dev/null) && [ -n "$hwm" ] && echo "$hwm" >"$work/hwm.txt"
    sleep 0.1
  done
) &
sampler=$!

# 60 clients that send half their headers or body and stop (they once held the server's files).
python3 - "$url" <<'PY' &
import socket, sys, time
host, port = sys.argv[1].split("//")[1].split(":")
socks = []
for i in range(60):
    s = socket.create_connection((host, int(port)))
    if i % 2:
        s.sendall(b"POST /api/solve HTTP/1.1\r\nHost: x\r\n")
    else:
        s.sendall(b"POST /api/solve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 99\r\n\r\n{")
    socks.append(s)
time.sleep(30)
PY
slow=$!

# First a few seconds with no requests but the samples: what the machine itself adds (a shared
# or busy machine delays curl and the server alike).
echo idle >"$work/phase"
sleep 5
for conns in 1 16 64 256; do
  echo "$conns" >"$work/phase"
  threads=$((conns < 2 ? 1 : 2))
  wrk -t"$threads" -c"$conns" -d"${step}s" --timeout 10s -s "$work/mix.lua" "$url" >"$work/wrk$conns.txt" 2>&1
done
kill "$slow" 2>/dev/null || true
echo stop >"$work/phase"

# Ctrl-C with searches in flight: two 4x4 A* searches and a stream (on two cores two of them
# run and one waits for a worker; the background table build is still running; with
# STOP_UNDER_LOAD, 256 connections of the mix too), then SIGINT; the time is from the signal to
# the server's exit.
search='{"board":"15 14 13 12/11 10 9 8/7 6 5 4/3 1 2 0","algorithm":"astar","heuristic":"misplaced"}'
if [ -n "${STOP_UNDER_LOAD:-}" ]; then
  wrk -t2 -c256 -d60s --timeout 10s -s "$work/mix.lua" "$url" >/dev/null 2>&1 &
  flood=$!
  sleep 3
fi
for route in solve solve stream; do
  path=/api/solve; [ "$route" = stream ] && path=/api/solve/stream
  curl -s -o /dev/null --max-time 10 "$url$path" -H 'Content-Type: application/json' -d "$search" &
done
sleep 0.5
for _ in $(seq 100); do
  curl -s --max-time 5 "$url/api/info" | grep -Eq '"running":[1-9]' && break
  sleep 0.05
done
echo stopping >"$work/phase"
start=$(date +%s.%N)
kill -INT "$server"
status=0
wait "$server" || status=$?
stop=$(date +%s.%N)
[ -n "${flood:-}" ] && { kill "$flood" 2>/dev/null || true; }
kill "$sampler" 2>/dev/null || true
wait 2>/dev/null || true
ctrl_c=$(echo "$stop - $start" | bc | awk '{printf "%.2f", $1}')
panics=$(grep -c panic "$work/serve.out" || true)

# The table: /api/info latency (ms) by number of connections, with what wrk saw at each.
statuses_of() { grep statuses "$1" | sed 's/^statuses: *//'; }
stat() { # p50|p95|max over the samples of one phase
  awk -v p="$2" '$1 == p {print $2 * 1000}' "$work/info.txt" | sort -n |
    awk -v q="$1" '{a[NR]=$1} END {if (!NR) {print "-"; exit}
      i = q == "max" ? NR : int(NR * q) + 1; if (i > NR) i = NR; printf "%.1f", a[i]}'
}
samples() { awk -v p="$1" '$1 == p' "$work/info.txt" | wc -l; }
echo "| connections | requests/s | statuses | /api/info p50 (ms) | p95 | max | samples |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
echo "| none (before the requests) | - | - | $(stat 0.5 idle) | $(stat 0.95 idle) | $(stat max idle) | $(samples idle) |"
seen=""
summary=""
for conns in 1 16 64 256; do
  rps=$(awk '/Requests\/sec/ {printf "%.0f", $2}' "$work/wrk$conns.txt")
  st=$(statuses_of "$work/wrk$conns.txt")
  seen="$seen $st"
  echo "| $conns | $rps | $st | $(stat 0.5 "$conns") | $(stat 0.95 "$conns") | $(stat max "$conns") | $(samples "$conns") |"
  summary="$summary $(stat 0.95 "$conns") |"
done
codes=$(echo "$seen" | tr ' ' '\n' | grep '=' | sed 's/=.*//' | sort -u | tr '\n' ' ' | sed 's/ $//')
failed=$(cat "$work/info_failed.txt" 2>/dev/null || true)
failed=$(echo -n "$failed" | grep -c . || true)
peak=$(awk '{printf "%.0f", $1 / 1024}' "$work/hwm.txt")
echo
echo "/api/info requests that failed: $failed; server peak memory (VmHWM): $peak MiB;" \
  "Ctrl-C to exit: $ctrl_c s (exit status $status, $panics panic lines);" \
  "load average before: $load_before, after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "Summary row (build | /api/info p95 ms before the requests, at 1, 16, 64, 256 connections | statuses | peak MiB | Ctrl-C s):"
echo "| $label | $(stat 0.95 idle) |$summary $codes | $peak | $ctrl_c |"
