// The Solve card: the request (algorithm and heuristic left to the server's planner unless the
// person picks them), the streamed progress and "best so far" lines, and the answer.

import { $, state, render, setStatus, plural, formatCount, formatMs, Cancellable } from "./state.js";
import { lineOf, applyMoves, same } from "./board.js";
import { api, stream, userMessage, ApiError } from "./api.js";
import { loadSolution, dropSolution, showPlayerWithBoard } from "./player.js";
import { clearHint, stopClock } from "./game.js";
import { algorithmName, heuristicName } from "./names.js";

// The search under way, which the Solve card's Cancel button stops.
const search = new Cancellable("cancel");
let best = null; // the best solution streamed so far: {moves, length, lower_bound, time_ms}
// The best lower bound proven so far: the progress lines' bound rises between improvements.
let bound = null;
// Set when the boards change during a search: its answer is for boards no longer shown.
let abandoned = false;
const DROPPED = "The boards changed, so the search for the old ones was stopped and its answer dropped: press Solve for these.";

/** Starts a search, which keeps the page busy until it ends; returns its AbortController. */
function startSearch() {
  state.busy = true;
  $("progress").hidden = false;
  return search.start();
}

function endSearch(controller) {
  state.busy = false;
  $("progress").hidden = true;
  search.finish(controller);
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
  // A search that takes no heuristic (BFS, the constructive solver, the look-ahead player,
  // which always scores by Manhattan distance) switches the heuristic menu off, so that no
  // choice there looks as if it counted.
  const guided = new Map(info.algorithms.map((a) => [a.name, a.takes_heuristic !== false]));
  const menu = $("heuristic");
  const follow = () => {
    const algorithm = $("algorithm").value;
    const takes = guided.get(algorithm) ?? true;
    menu.disabled = !takes;
    menu.title = takes ? "" : `${algorithmName(algorithm)} does not take a heuristic to choose`;
  };
  $("algorithm").addEventListener("change", follow);
  follow();
}

/** The request body: a field left at "auto" is not sent, so the server's planner chooses. */
function solveBody(board, goal, w) {
  const body = { board: lineOf(board, w), goal: lineOf(goal, w) };
  const algorithm = $("algorithm").value, heuristic = $("heuristic").value;
  if (algorithm && algorithm !== "auto") body.algorithm = algorithm;
  if (heuristic && heuristic !== "auto" && !$("heuristic").disabled) body.heuristic = heuristic;
  // The server may be started with a smaller cap than the page's choices.
  const cap = state.info ? state.info.limits.max_timeout_ms : 60000;
  body.timeout_ms = Math.min(Number($("time-limit").value), cap);
  return body;
}

/** Draws the player of the solution just loaded and brings it into view with its board. */
function showPlayer() {
  render();
  showPlayerWithBoard();
}

function showBest() {
  const el = $("best-so-far");
  el.hidden = !best;
  if (!best) return;
  const atLeast = bound !== null ? `, optimal ≥ ${bound}` : "";
  const text = `Best so far: ${plural(best.length, "move")}${atLeast} (${formatMs(best.time_ms || 0)})`;
  // Called on every progress message: a live region rewritten with the same words would be
  // read out again each time.
  if (el.textContent !== text) el.textContent = text;
}

/**
 * Loads the best solution streamed before a search ended without its answer (cancelled by the
 * person, or stopped by the server or the network: `cut`), when it reaches the goal from
 * `start`; true when it did.
 */
function keepBest(start, cut) {
  const moves = best && typeof best.moves === "string" ? best.moves : null;
  const reaches = moves !== null && moves.length === best.length &&
    same(applyMoves(start, state.w, state.h, moves) || [], state.goal);
  if (!reaches) return false;
  // Proven optimal if it meets the best bound, whichever line brought that bound.
  const lower = Math.max(bound ?? 0, best.lower_bound ?? 0);
  loadSolution(moves, start, { ...best, lower_bound: lower, optimal: best.length <= lower, cut });
  showPlayer();
  return true;
}

export async function solve() {
  if (state.busy || state.pairError) return;
  dropSolution();
  clearHint();
  // The clock times the player's own slides: not the search, nor the solution played back.
  stopClock();
  const start = state.board.slice();
  const { goal, w, h } = state;
  const body = solveBody(start, goal, w);
  // The answer is loaded only onto the boards it was asked for.
  const current = () => !abandoned && state.w === w && state.h === h &&
    same(state.board, start) && same(state.goal, goal);
  abandoned = false;
  best = null;
  bound = null;
  showBest();
  const controller = startSearch();
  // Said once: the progress line below changes four times a second and is not announced.
  setStatus("Searching…");
  $("progress-text").textContent = "Searching…";
  const raise = (b) => {
    if (typeof b === "number" && (bound === null || b > bound)) bound = b;
  };
  try {
    let queued = false;
    const last = await stream("/api/solve/stream", body, controller.signal, (msg) => {
      if (msg.waiting) {
        // Every worker of the server is busy: said once (announced), and again as
        // "Searching…" when this search starts.
        queued = true;
        const w = msg.waiting;
        const place = w.position > 1 ? `, ${w.position - 1} ${w.position === 2 ? "search" : "searches"} ahead of this one` : "";
        const most = typeof w.max_wait_ms === "number" ? ` (waiting up to ${Math.max(1, Math.round(w.max_wait_ms / 1000))} s)` : "";
        const words = `Waiting for the server: every worker is busy${place}. The search starts when one is free${most}.`;
        setStatus(words);
        $("progress-text").textContent = "Waiting for a free worker…";
        return;
      }
      if (queued && (msg.progress || msg.improved)) {
        queued = false;
        setStatus("Searching…");
      }
      if (msg.progress) {
        const p = msg.progress;
        raise(p.bound);
        $("progress-text").textContent =
          `${formatCount(p.generated)} nodes generated · at least ${bound} moves · ${formatMs(p.time_ms)}`;
        showBest();
      } else if (msg.improved) {
        best = msg.improved;
        raise(best.lower_bound);
        showBest();
      }
    });
    if (last.error) throw new ApiError(last.error.error, last.error.code, last.error);
    const r = last.solution;
    if (!r) throw new ApiError("the server's answer has no solution", "bad_answer");
    // The boards changed meanwhile: abandonSolve said so already.
    if (!current()) return;
    loadSolution(r.moves, start, r);
    showPlayer();
    setStatus(
      r.length === 0
        ? "The board is already the goal."
        : `Solved in ${formatMs(r.time_ms)}: ${plural(r.length, "move")}${r.optimal ? " (optimal)" : ""}.`,
      "ok",
    );
  } catch (e) {
    if (!current()) {
      // The boards changed: abandonSolve said so at once, and later messages stand.
    } else if (e.name === "AbortError") {
      setStatus(keepBest(start, "cancelled")
        ? `Search cancelled; the best solution found so far is loaded (${plural(best.length, "move")}).`
        : "Search cancelled.", "");
    } else {
      // The server went away or stopped the search: what it found before is still worth playing.
      const kept = keepBest(start, "stopped");
      setStatus(kept ? `${userMessage(e)} The best solution found before that is loaded (${plural(best.length, "move")}).` : userMessage(e), "error");
    }
  } finally {
    best = null;
    bound = null;
    showBest();
    endSearch(controller);
  }
}

/** Stops a search under way and drops its answer: the boards it was for have changed. */
export function abandonSolve() {
  if (!search.running) return;
  abandoned = true;
  search.cancel();
  // Said now, before the new boards' own messages (a shuffle's, an unsolvable pair's), which
  // then replace it: the search's end comes later and must not overwrite them.
  setStatus(DROPPED, "");
}

/**
 * The background builds the server reports in /api/info (`tables`: one entry a table set, with
 * `name` ("zpdb:7-8 for 4x4"), `status` (waiting, building, ready or failed), `done` and `total`
 * placements, and `error`). Shows those not ready yet, and hides the line once all are; true
 * while one is still waiting or being built.
 */
function showTables(info) {
  const el = $("tables");
  const jobs = Array.isArray(info && info.tables) ? info.tables : [];
  const open = jobs.filter((t) => t && t.status !== "ready");
  if (open.length === 0) {
    el.hidden = true;
    return false;
  }
  const parts = open.map((t) => {
    const [heuristic, size] = String(t.name).split(" for ");
    const what = size ? `${heuristicName(heuristic)} for ${size}` : heuristicName(heuristic);
    if (t.status === "failed") return `${what}: not built (${t.error})`;
    if (t.status === "waiting") return `${what}: waiting`;
    const pct = t.total > 0 ? Math.floor((100 * t.done) / t.total) : 0;
    return `${what}: ${pct}%`;
  });
  el.textContent = `Pattern databases being built (solving gets faster when they are ready): ${parts.join(" · ")}`;
  el.hidden = false;
  return open.some((t) => t.status === "waiting" || t.status === "building");
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
