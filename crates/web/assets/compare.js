// Compare heuristics: the same board solved with each heuristic, one request after another so
// the table fills in as each finishes (with progress while it runs), nodes on a log-scale bar
// and every figure written out as a number.

import { $, state, plural, formatMs, puzzleStart, Cancellable } from "./state.js";
import { lineOf } from "./board.js";
import { api, userMessage } from "./api.js";
import { algorithmName, heuristicName } from "./names.js";

// Each run's own limit: the comparison is about the heuristics' effort, not about waiting.
const EACH_TIMEOUT_MS = 5000;
// The comparison in flight, which the card's Cancel button stops.
const comparison = new Cancellable("compare-cancel");

/** True while a comparison runs (Compare is then disabled, and Cancel shown). */
export const comparing = () => comparison.running;

export function setupCompareMenu(info) {
  const select = $("compare-algorithm");
  select.textContent = "";
  // Only the searches a heuristic guides and whose effort the comparison is about.
  for (const a of info.algorithms.filter((a) => ["astar", "idastar", "weighted-astar", "greedy"].includes(a.name))) {
    const o = document.createElement("option");
    o.value = a.name;
    o.textContent = algorithmName(a.name);
    select.appendChild(o);
  }
  select.value = "astar";
}

/** Log scale: a bar's length follows the number of digits, so 100 and 100,000 both show. */
const logShare = (x, max) => (max <= 0 ? 0 : Math.log10(1 + x) / Math.log10(1 + max));

/** Drops the comparison shown (the boards changed), and stops one under way. */
export function clearCompare() {
  comparison.cancel();
  $("compare-result").textContent = "";
  $("compare-result").dataset.pair = "";
  $("compare-progress").hidden = true;
  $("compare-status").textContent = "";
}

export async function compare() {
  if (state.busy || state.pairError || comparison.running) return;
  const heuristics = state.info ? state.info.heuristics : [];
  const algorithm = $("compare-algorithm").value;
  const board = lineOf(puzzleStart(), state.w), goal = lineOf(state.goal, state.w);
  const out = $("compare-result");
  out.textContent = "";
  out.dataset.pair = `${board}|${goal}`;
  const table = buildTable(heuristics);
  out.appendChild(table.wrap);
  const progress = $("compare-progress");
  const bar = $("compare-bar");
  const said = $("compare-status");
  said.textContent = "";
  progress.hidden = false;
  bar.max = heuristics.length;
  bar.value = 0;
  const controller = comparison.start();
  const results = [];
  let i = 0;
  try {
    for (; i < heuristics.length; i++) {
      const h = heuristics[i];
      $("compare-text").textContent = `${i + 1} of ${heuristics.length}: ${heuristicName(h)}…`;
      table.rows[i].status.textContent = "solving…";
      let r;
      try {
        r = await api("/api/solve", { board, goal, algorithm, heuristic: h, timeout_ms: EACH_TIMEOUT_MS }, controller.signal);
      } catch (e) {
        if (e.name === "AbortError") throw e;
        r = { failed: userMessage(e, "compare") };
      }
      results[i] = r;
      bar.value = i + 1;
      fillRows(table, results);
    }
    const failed = results.filter((r) => r.failed).length;
    const ran = heuristics.length - failed;
    const name = algorithmName(algorithm);
    if (failed === 0) said.textContent = `Done: ${plural(heuristics.length, "heuristic")} with ${name}.`;
    else if (ran === 0) said.textContent = `Done: no heuristic solved it with ${name}; each row says why.`;
    else said.textContent = `Done: ${ran} of ${plural(heuristics.length, "heuristic")} solved it with ${name}; the other rows say why not.`;
  } catch (e) {
    if (e.name !== "AbortError") throw e;
    // Dropped with its boards (clearCompare), the table is gone and there is nothing to say.
    if (table.wrap.isConnected) {
      markCancelled(table, i);
      said.textContent = `Comparison cancelled: ${i} of ${heuristics.length} heuristics compared.`;
    }
  } finally {
    if (comparison.finish(controller)) progress.hidden = true;
  }
}

/** The rows a cancelled comparison did not fill: the one it was solving, and those after it. */
function markCancelled(table, from) {
  table.rows.slice(from).forEach(({ status }, k) => {
    status.textContent = k === 0 ? "cancelled" : "not run";
  });
}

function buildTable(heuristics) {
  const wrap = document.createElement("div");
  wrap.className = "table-scroll";
  // A box that scrolls must be reachable by keyboard to be scrolled.
  wrap.tabIndex = 0;
  wrap.setAttribute("role", "region");
  wrap.setAttribute("aria-label", "Comparison results");
  const table = document.createElement("table");
  table.className = "compare";
  table.setAttribute("aria-describedby", "compare-scale");
  table.innerHTML =
    '<thead><tr><th scope="col">Heuristic</th><th scope="col">Moves</th><th scope="col">Expanded</th>' +
    '<th scope="col" class="bar-cell">log scale</th><th scope="col">Generated</th><th scope="col">Time</th></tr></thead>';
  const body = document.createElement("tbody");
  const rows = heuristics.map((h) => {
    const tr = document.createElement("tr");
    const name = document.createElement("th");
    name.scope = "row";
    name.textContent = heuristicName(h);
    tr.appendChild(name);
    const status = document.createElement("td");
    status.colSpan = 5;
    status.className = "pending";
    status.textContent = "waiting";
    tr.appendChild(status);
    body.appendChild(tr);
    return { tr, status };
  });
  table.appendChild(body);
  wrap.appendChild(table);
  // Outside the scrolling box, so that it wraps to the screen's width.
  const note = document.createElement("p");
  note.id = "compare-scale";
  note.className = "help";
  note.textContent = "Bars: nodes expanded, on a log scale (each step of the scale is ten times more).";
  const box = document.createElement("div");
  box.append(scrollCue(wrap, table), wrap, note);
  return { wrap: box, rows };
}

/**
 * A line above the table, shown while it is wider than its box: on a phone the box ends
 * cleanly after a few columns, and a touch screen shows no scroll bar to say that more follow.
 * Checked again whenever the box (the screen turned, the window resized) or the table (its
 * rows filled in) changes size.
 */
function scrollCue(wrap, table) {
  const cue = document.createElement("p");
  cue.className = "help scroll-cue";
  cue.innerHTML = 'Scroll the table sideways for more columns <span aria-hidden="true">→</span>';
  cue.hidden = true;
  const sizes = new ResizeObserver(() => (cue.hidden = wrap.scrollWidth <= wrap.clientWidth));
  sizes.observe(wrap);
  sizes.observe(table);
  return cue;
}

function fillRows(table, results) {
  const max = Math.max(1, ...results.filter((r) => r && !r.failed).map((r) => r.expanded));
  results.forEach((r, i) => {
    if (!r) return;
    const row = table.rows[i].tr;
    while (row.children.length > 1) row.lastChild.remove();
    if (r.failed) {
      const td = document.createElement("td");
      td.colSpan = 5;
      td.className = "err";
      td.textContent = r.failed;
      row.appendChild(td);
      return;
    }
    const cells = [
      `${r.length}${r.optimal ? "" : " (not optimal)"}`,
      r.expanded.toLocaleString("en"),
      null,
      r.generated.toLocaleString("en"),
      formatMs(r.time_ms),
    ];
    for (const c of cells) {
      const td = document.createElement("td");
      if (c === null) {
        td.className = "bar-cell";
        const bar = document.createElement("div");
        bar.className = "bar";
        bar.style.width = `${(100 * logShare(r.expanded, max)).toFixed(1)}%`;
        bar.dataset.expanded = String(r.expanded);
        td.appendChild(bar);
      } else {
        td.textContent = c;
      }
      row.appendChild(td);
    }
  });
}
