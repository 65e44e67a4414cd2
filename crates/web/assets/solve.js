// The Solve card: the request (algorithm and heuristic left to the server's planner unless the
// person picks them), the streamed progress and "best so far" lines, and the answer.

import { $, state, render, setStatus, plural, formatCount, formatMs } from "./state.js";
import { lineOf, applyMoves, same } from "./board.js";
import { api, stream, userMessage, ApiError } from "./api.js";
import { loadSolution, dropSolution } from "./player.js";
import { clearHint } from "./game.js";
import { algorithmName, heuristicName } from "./names.js";

let abort = null;
let best = null; // the best solution streamed so far: {moves, length, lower_bound, time_ms}

function setBusy(busy) {
  state.busy = busy;
  $("cancel").hidden = !busy;
  $("progress").hidden = !busy;
  render();
}

/** Fills a menu: "auto (recommended)" first (sends nothing), then every name the server offers. */
function fillSolverMenu(select, names, label) {
  select.textContent = "";
  for (const name of ["auto", ...names.filter((n) => n !== "auto")]) {
    const o = document.createElement("option");
    o.value = name;
    o.textContent = label(name);
    select.appendChild(o);
  }
  select.value = "auto";
}

export function setupSolveMenus(info) {
  fillSolverMenu($("algorithm"), info.algorithms.map((a) => a.name), algorithmName);
  fillSolverMenu($("heuristic"), info.heuristics, heuristicName);
}

/** The request body: a field left at "auto" is not sent, so the server's planner chooses. */
function solveBody(board, goal, w) {
  const body = { board: lineOf(board, w), goal: lineOf(goal, w) };
  const algorithm = $("algorithm").value, heuristic = $("heuristic").value;
  if (algorithm && algorithm !== "auto") body.algorithm = algorithm;
  if (heuristic && heuristic !== "auto") body.heuristic = heuristic;
  // The server may be started with a smaller cap than the page's choices.
  const cap = state.info ? state.info.limits.max_timeout_ms : 60000;
  body.timeout_ms = Math.min(Number($("time-limit").value), cap);
  return body;
}

function showBest() {
  const el = $("best-so-far");
  el.hidden = !best;
  if (!best) return;
  const bound = typeof best.lower_bound === "number" ? `, optimal ≥ ${best.lower_bound}` : "";
  el.textContent = `Best so far: ${plural(best.length, "move")}${bound} (${formatMs(best.time_ms || 0)})`;
}

export async function solve() {
  if (state.busy || state.pairError) return;
  dropSolution();
  clearHint();
  const start = state.board.slice();
  const body = solveBody(start, state.goal, state.w);
  const controller = new AbortController();
  abort = controller;
  best = null;
  showBest();
  setBusy(true);
  setStatus("");
  $("progress-text").textContent = "Searching…";
  try {
    const last = await stream("/api/solve/stream", body, controller.signal, (msg) => {
      if (msg.progress) {
        const p = msg.progress;
        $("progress-text").textContent =
          `${formatCount(p.generated)} nodes generated · at least ${p.bound} moves · ${formatMs(p.time_ms)}`;
      } else if (msg.improved) {
        best = msg.improved;
        showBest();
      }
    });
    if (last.error) throw new ApiError(last.error.error, last.error.code, last.error);
    const r = last.solution;
    if (!r) throw new ApiError("the server's answer has no solution", "bad_answer");
    loadSolution(r.moves, start, r);
    setStatus(
      r.length === 0
        ? "The board is already the goal."
        : `Solved in ${formatMs(r.time_ms)}: ${plural(r.length, "move")}${r.optimal ? " (optimal)" : ""}.`,
      "ok",
    );
  } catch (e) {
    if (e.name === "AbortError") {
      // What the anytime search found before the cancel is still a solution worth playing.
      const moves = best && typeof best.moves === "string" ? best.moves : null;
      const reaches = moves !== null && moves.length === best.length &&
        same(applyMoves(start, state.w, state.h, moves) || [], state.goal);
      if (reaches) {
        loadSolution(moves, start, { ...best, optimal: false, cancelled: true });
        setStatus(`Search cancelled; the best solution found so far is loaded (${plural(best.length, "move")}).`, "");
      } else {
        setStatus("Search cancelled.", "");
      }
    } else {
      setStatus(userMessage(e), "error");
    }
  } finally {
    abort = null;
    best = null;
    showBest();
    setBusy(false);
  }
}

export function cancelSolve() {
  if (abort) abort.abort();
}

/**
 * Background builds the server reports in /api/info (`tables`). The shape is read defensively:
 * each entry may give `progress` (0..1), or `done` and `total`, or a `state` word. True while
 * one is still being built.
 */
function showTables(info) {
  const el = $("tables");
  const tables = info && info.tables;
  if (!tables || typeof tables !== "object" || Object.keys(tables).length === 0) {
    el.hidden = true;
    return false;
  }
  const parts = [];
  let pending = false;
  for (const [name, t] of Object.entries(tables)) {
    let pct = null;
    if (t && typeof t.progress === "number") pct = t.progress * 100;
    else if (t && typeof t.done === "number" && typeof t.total === "number" && t.total > 0) pct = (100 * t.done) / t.total;
    const status = typeof t === "string" ? t : t && typeof t.state === "string" ? t.state : t && t.ready ? "ready" : null;
    if ((pct !== null && pct < 100) || (pct === null && status !== "ready" && status !== "done")) pending = true;
    parts.push(`${heuristicName(name)}: ${pct !== null ? `${Math.round(pct)}%` : status || "building"}`);
  }
  el.textContent = `Pattern databases: ${parts.join(" · ")}`;
  el.hidden = false;
  return pending;
}

// While tables are being built, their progress is read again every few seconds (for ten
// minutes at most: a build that takes longer shows its progress on the next page load).
const TABLES_POLL_MS = 3000;
const TABLES_POLLS = 200;

/** Shows the builds of `info` and follows them until none is left running. */
export function followTables(info, polls = TABLES_POLLS) {
  if (!showTables(info) || polls <= 0) return;
  setTimeout(async () => {
    try {
      state.info = { ...state.info, ...(await api("/api/info")) };
      followTables(state.info, polls - 1);
    } catch (_) {
      // The next page load shows them again; a failed poll is no reason to bother the player.
    }
  }, TABLES_POLL_MS);
}
