// The solution player: a solution's moves replayed on the initial board one at a time (Step,
// Back, Play, Start, End), the current move marked in the moves text, in either notation.

import { $, state, render, setStatus, plural, formatCount, formatMs, announce, DIRECTION_WORDS } from "./state.js";
import { INVERSE, blankMove, applyMoves, same } from "./board.js";
import { tokens, format, stmCount, mtmCount, tileDirection } from "./notation.js";
import { solverName, planText } from "./names.js";
import { tileLabel } from "./boardview.js";

let playTimer = null;
// Whether the status says the goal was reached by the player: said at the last step, taken
// back when the player leaves it.
let goalSaid = false;

/** Loads moves to play from `start`; `report` is the server's answer (null for a link's moves). */
export function loadSolution(moves, start, report) {
  stopPlaying();
  goalSaid = false;
  state.solution = { moves, start: start.slice(), index: 0, report };
}

export function dropSolution() {
  stopPlaying();
  state.solution = null;
}

/** The board the solution expects now (its start after `index` moves). */
function solutionBoard() {
  const sol = state.solution;
  return applyMoves(sol.start, state.w, state.h, sol.moves.slice(0, sol.index));
}

/**
 * The player moved tiles by hand: a loaded solution follows when the moves are its next ones,
 * and is dropped otherwise (it no longer applies).
 */
export function followHandMoves(letters) {
  const sol = state.solution;
  if (!sol) return;
  if (same(solutionBoard(), state.board) && sol.moves.startsWith(letters, sol.index)) sol.index += letters.length;
  else dropSolution();
}

/** Undoing a hand slide walks a followed solution back with it. */
export function followUndo(letters) {
  const sol = state.solution;
  if (sol && sol.index >= letters.length && sol.moves.slice(sol.index - letters.length, sol.index) === letters) {
    sol.index -= letters.length;
  }
}

export function step(delta) {
  const sol = state.solution;
  if (!sol) return false;
  // The player may have moved tiles by hand; the solution only applies from its own positions.
  if (!same(solutionBoard(), state.board)) {
    dropSolution();
    render();
    return false;
  }
  let letter;
  if (delta > 0 && sol.index < sol.moves.length) {
    letter = sol.moves[sol.index];
    sol.index++;
  } else if (delta < 0 && sol.index > 0) {
    sol.index--;
    letter = INVERSE[sol.moves[sol.index]];
  } else {
    return false;
  }
  // The tile that moves is where the blank goes.
  const next = blankMove(state.board, state.w, state.h, letter);
  const tile = state.board[next.indexOf(0)];
  state.board = next;
  render();
  // Played at speed, each move would queue up speech: a screen reader hears Play's end only.
  if (!playTimer) {
    announce(`${tileLabel(tile, state.style)} ${DIRECTION_WORDS[tileDirection(letter)]}, move ${sol.index} of ${sol.moves.length}`);
  }
  announceEnd();
  return true;
}

export function jumpTo(index) {
  const sol = state.solution;
  if (!sol) return;
  stopPlaying();
  sol.index = Math.max(0, Math.min(index, sol.moves.length));
  state.board = solutionBoard();
  render();
  announce(sol.index === 0 ? "At the start" : `After move ${sol.index} of ${sol.moves.length}`);
  announceEnd();
}

/** Says when the player reaches the goal, and takes it back when the player leaves it. */
function announceEnd() {
  const sol = state.solution;
  if (sol.index === sol.moves.length && sol.moves.length > 0 && same(state.board, state.goal)) {
    setStatus(`Goal reached after ${plural(sol.moves.length, "move")}.`, "ok");
    goalSaid = true;
  } else if (goalSaid) {
    setStatus("");
    goalSaid = false;
  }
}

function speedMs() {
  // Slider 1..10 -> 1000 ms .. 60 ms per move, evenly on a log scale.
  const v = Number($("speed").value);
  return Math.round(1000 * Math.pow(60 / 1000, (v - 1) / 9));
}

export function applySpeed() {
  document.documentElement.style.setProperty("--slide-ms", `${Math.min(180, Math.round(speedMs() * 0.8))}ms`);
}

export function togglePlay() {
  if (playTimer) {
    stopPlaying();
    render();
    // The moves played were not read out one by one (step): say where Play stopped.
    const sol = state.solution;
    if (sol) announce(`Paused after move ${sol.index} of ${sol.moves.length}`);
    return;
  }
  const sol = state.solution;
  if (!sol || sol.moves.length === 0) return;
  if (sol.index >= sol.moves.length) jumpTo(0);
  const tick = () => {
    if (!step(1) || !state.solution || state.solution.index >= state.solution.moves.length) {
      stopPlaying();
      render();
      return;
    }
    playTimer = setTimeout(tick, speedMs());
  };
  playTimer = setTimeout(tick, 0);
  render();
}

export function stopPlaying() {
  if (playTimer) clearTimeout(playTimer);
  playTimer = null;
}

/** Draws the player (beside the board) and the solution's summary and moves (solve card). */
export function renderSolution() {
  const sol = state.solution;
  $("player").hidden = !sol;
  $("solution").hidden = !sol;
  if (!sol) return;
  const r = sol.report;
  const n = sol.moves.length;
  $("steps-count").textContent = String(n);
  $("steps-word").textContent = n === 1 ? "move" : "moves";
  $("solution-metrics").textContent = `${plural(stmCount(sol.moves), "tile move")} (STM) · ${plural(mtmCount(sol.moves), "slide")} (MTM)`;
  const bound = r && typeof r.lower_bound === "number" ? `; the optimum is at least ${r.lower_bound}` : "";
  $("solution-kind").textContent = !r
    ? "from the link"
    : r.optimal
      ? "optimal"
      : r.cancelled
        ? `the best found before the search was cancelled${bound}`
        : `not proven optimal${bound}`;
  $("solution-plan").textContent = r && r.plan ? planText(r.plan) : "";
  $("solution-plan").hidden = !(r && r.plan);
  // A solution kept from a cancelled search has no statistics of its own.
  $("solution-stats").textContent = r && r.algorithm
    ? `${solverName(r.algorithm, r.heuristic)} · ${formatCount(r.expanded)} expanded · ${formatCount(r.generated)} generated · ${formatMs(r.time_ms)}`
    : "";
  const text = $("moves-text");
  const key = `${state.notation}:${sol.moves}`;
  if (text.dataset.key !== key) {
    text.dataset.key = key;
    text.dataset.moves = sol.moves;
    text.dataset.notation = state.notation;
    text.textContent = "";
    if (n === 0) text.textContent = "(no move needed)";
    for (const tok of tokens(sol.moves, state.notation)) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "move";
      b.textContent = tok.text;
      b.dataset.index = String(tok.start);
      b.dataset.end = String(tok.end);
      b.tabIndex = -1; // Step and Back are the keyboard way; 200 tab stops would not be
      b.setAttribute("aria-label", `${tok.text}: go to after move ${tok.end}`);
      b.addEventListener("click", () => jumpTo(tok.end));
      text.appendChild(b);
    }
  }
  let current = null;
  for (const b of text.querySelectorAll("button.move")) {
    const start = Number(b.dataset.index), end = Number(b.dataset.end);
    const isCurrent = sol.index > start && sol.index <= end;
    b.classList.toggle("done", end < sol.index);
    b.classList.toggle("current", isCurrent);
    // Said to a screen reader, as the underline (app.css) shows it beside the colour.
    if (isCurrent) {
      b.setAttribute("aria-current", "step");
      current = b;
    } else {
      b.removeAttribute("aria-current");
    }
  }
  // Keep the current move in view by scrolling the moves box only, never the page.
  if (current && (current.offsetTop < text.scrollTop || current.offsetTop > text.scrollTop + text.clientHeight - 24)) {
    text.scrollTop = current.offsetTop - text.clientHeight / 2;
  }
  $("step-index").textContent = `${sol.index} / ${n}`;
  $("current-move").textContent =
    sol.index > 0 ? `last: ${format(sol.moves[sol.index - 1], state.notation)}` : "";
  const busy = state.busy;
  $("step").disabled = sol.index >= n || busy;
  $("to-end").disabled = sol.index >= n || busy;
  $("step-back").disabled = sol.index === 0 || busy;
  $("to-start").disabled = sol.index === 0 || busy;
  $("play").disabled = n === 0 || busy;
  $("play").textContent = playTimer ? "❚❚ Pause" : "▶ Play";
  $("play").setAttribute("aria-label", playTimer ? "Pause" : "Play");
}
