// The solution player: a solution's moves replayed on the initial board one at a time (Step,
// Back, Play, Start, End), the current move marked in the moves text, in either notation.

import {
  $, state, render, setStatus, plural, formatCount, formatMs, announce, reducedMotion, DIRECTION_WORDS,
} from "./state.js";
import { INVERSE, blankMove, applyMoves, same } from "./board.js";
import { tokens, format, stmCount, mtmCount, tileDirection } from "./notation.js";
import { solverName, planText } from "./names.js";
import { tileLabel } from "./boardview.js";

let playTimer = null;
// The solution a hand move off its path hid, with the board before that move: Undo of that move
// brings it back where it was.
let setAside = null;
// Whether the status says the goal was reached by the player: said at the last step, taken
// back when the player leaves it.
let goalSaid = false;

/** Loads moves to play from `start`; `report` is the server's answer (null for a link's moves). */
export function loadSolution(moves, start, report) {
  stopPlaying();
  setAside = null;
  goalSaid = false;
  state.solution = { moves, start: start.slice(), index: 0, report };
  applySpeed();
}

/**
 * After a move chosen in the moves list, brings the board into view when it is not (on a phone
 * it is screens above the Solve card), so that the jump is seen. Only the page scrolls: the
 * focus stays on the list, where a keyboard or screen-reader user goes on choosing.
 */
function showBoard() {
  const board = $("board").getBoundingClientRect();
  if (board.top >= 0 && board.bottom <= window.innerHeight) return;
  const fits = board.height <= window.innerHeight;
  $("board").scrollIntoView({ block: fits ? "nearest" : "start", behavior: reducedMotion() ? "auto" : "smooth" });
}

/**
 * Brings the player into view with the board it plays on, so that Step shows its tiles move:
 * after a solve (on a phone both sit screens above the Solve card) and for a link's replay.
 * With the player under the board (a phone upright, a desktop): the board's top at the top of
 * the screen when the two fit on it together, else the player alone. With the player beside
 * the board (a phone on its side), each needs only its own rows on screen, which the height of
 * the two together does not tell: the least scroll that shows the player, as far as the board
 * stays whole on screen, since the board goes first.
 */
export function showPlayerWithBoard() {
  const board = $("board").getBoundingClientRect();
  const player = $("player").getBoundingClientRect();
  const margin = 8;
  const height = window.innerHeight;
  if (player.left < board.right && player.right > board.left) {
    const top = Math.min(board.top, player.top);
    const bottom = Math.max(board.bottom, player.bottom);
    if (bottom - top + 2 * margin <= height) {
      if (top < margin || bottom > height - margin) window.scrollBy(0, top - margin);
    } else {
      $("player").scrollIntoView({ block: "nearest" });
    }
    return;
  }
  // The scrolls (window.scrollBy's) that put a box on screen, with the margin when there is
  // room for it; a box taller than the screen shows its top.
  const range = (box) => {
    const m = Math.max(0, Math.min(margin, (height - box.height) / 2));
    return [Math.min(box.bottom - height + m, box.top - m), box.top - m];
  };
  const clamp = (y, [low, high]) => Math.min(Math.max(y, low), high);
  const by = clamp(clamp(0, range(player)), range(board));
  if (by !== 0) window.scrollBy(0, by);
}

export function dropSolution() {
  stopPlaying();
  setAside = null;
  state.solution = null;
  applySpeed();
}

/** The board the solution expects now (its start after `index` moves). */
function solutionBoard() {
  const sol = state.solution;
  return applyMoves(sol.start, state.w, state.h, sol.moves.slice(0, sol.index));
}

/**
 * The player moved tiles by hand (`letters`, from the board shown): a loaded solution follows
 * when the moves are its next ones, and is set aside otherwise (it no longer applies), until an
 * Undo of that move. True when it was set aside, so that the page can say how to get it back.
 */
export function followHandMoves(letters) {
  const sol = state.solution;
  if (!sol) return false;
  if (same(solutionBoard(), state.board) && sol.moves.startsWith(letters, sol.index)) {
    sol.index += letters.length;
    return false;
  }
  const board = state.board.slice();
  dropSolution();
  setAside = { solution: sol, board };
  return true;
}

/**
 * Undoing a hand slide (`letters`, the board now as it was before it) walks a followed solution
 * back with it, or brings back the solution that slide set aside.
 */
export function followUndo(letters) {
  const sol = state.solution;
  if (sol && sol.index >= letters.length && sol.moves.slice(sol.index - letters.length, sol.index) === letters) {
    sol.index -= letters.length;
  } else if (!sol && setAside && same(setAside.board, state.board)) {
    state.solution = setAside.solution;
    setAside = null;
    applySpeed();
    return true;
  }
  return false;
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

/** Play's step: `count` moves forward, drawn once. */
function advance(count) {
  const sol = state.solution;
  if (count <= 1 || !same(solutionBoard(), state.board)) return step(1);
  sol.index = Math.min(sol.moves.length, sol.index + count);
  state.board = solutionBoard();
  render();
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

// Slider 1..10 -> 1000 ms .. 30 ms a move (1 to 33 moves a second), evenly on a log scale. A
// solution longer than 100 moves plays faster in proportion, up to 4 times (an 8x8's 500 moves
// take 20 s at the middle speed, 4 s at the top, not minutes): a long solution is watched for
// its shape, a short one move by move. The slider says the rate it gives (aria-valuetext).
const LONG = 100;
const MAX_FASTER = 4;

function speedMs() {
  const v = Number($("speed").value);
  const n = state.solution ? state.solution.moves.length : 0;
  const faster = Math.min(MAX_FASTER, Math.max(1, n / LONG));
  // Under 10 ms a move the browser's timers and drawing set the pace anyway.
  return Math.max(10, Math.round((1000 * Math.pow(30 / 1000, (v - 1) / 9)) / faster));
}

export function applySpeed() {
  const ms = speedMs();
  // Reduced motion: the slides are instant (app.css), at every speed.
  document.documentElement.style.setProperty("--slide-ms", `${Math.min(180, Math.round(ms * 0.8))}ms`);
  const rate = 1000 / ms;
  const words = rate < 10 ? `${Number(rate.toFixed(1))}` : `${Math.round(rate)}`;
  const long = state.solution && state.solution.moves.length > LONG ? ", faster for a long solution" : "";
  // Said to a screen reader, and shown under the pointer: the slider keeps the player's row
  // short enough for one line beside the boards.
  $("speed").setAttribute("aria-valuetext", `${words} moves a second${long}`);
  $("speed").title = `${words} moves a second${long}`;
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
  // The moves due since the last tick are played at once: where drawing a move takes longer
  // than the speed allows (a big board, a slow device), the rate said is still the rate played.
  let last = performance.now();
  let owed = 1;
  const tick = () => {
    const now = performance.now();
    owed += (now - last) / speedMs();
    last = now;
    const due = Math.max(1, Math.floor(owed));
    owed -= due;
    if (!advance(due) || !state.solution || state.solution.index >= state.solution.moves.length) {
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

/**
 * Keys on a move of the list, as in a toolbar: the arrows go to the move before or after it
 * (Up and Down as well: the rows wrap), Home and End to the first and the last; Enter and
 * Space, a button's own keys, jump there. The move's name says where it jumps to.
 */
export function onMovesKey(e) {
  if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
  const moves = [...$("moves-text").querySelectorAll("button.move")];
  const at = moves.indexOf(document.activeElement);
  if (at < 0) return;
  const to = { ArrowLeft: at - 1, ArrowUp: at - 1, ArrowRight: at + 1, ArrowDown: at + 1, Home: 0, End: moves.length - 1 }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  const b = moves[Math.max(0, Math.min(to, moves.length - 1))];
  makeTabStop(moves, b);
  b.focus();
}

/**
 * The list is one stop of the Tab key, on `stop` (a roving tabindex): a tab stop for each of
 * 200 moves would not be a way through the page.
 */
function makeTabStop(moves, stop) {
  for (const b of moves) b.tabIndex = b === stop ? 0 : -1;
}

/** Draws the player (beside the board) and the solution's summary and moves (solve card). */
export function renderSolution() {
  const sol = state.solution;
  $("player").hidden = !sol;
  $("solution").hidden = !sol;
  if (!sol) return;
  const r = sol.report;
  const n = sol.moves.length;
  $("steps-count").textContent = n.toLocaleString("en");
  $("steps-word").textContent = n === 1 ? "move" : "moves";
  $("solution-metrics").textContent = `${plural(stmCount(sol.moves), "tile move")} (STM) · ${plural(mtmCount(sol.moves), "slide")} (MTM)`;
  const bound = r && typeof r.lower_bound === "number" ? `; the optimum is at least ${r.lower_bound}` : "";
  $("solution-kind").textContent = !r
    ? "from the link"
    : r.optimal
      ? "optimal"
      : r.cut === "cancelled"
        ? `the best found before the search was cancelled${bound}`
        : r.cut === "stopped"
          ? `the best found before the search stopped${bound}`
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
      b.setAttribute("aria-label", `${tok.text}: go to after move ${tok.end}`);
      b.addEventListener("click", () => {
        jumpTo(tok.end);
        showBoard();
      });
      text.appendChild(b);
    }
  }
  let current = null;
  const moves = [...text.querySelectorAll("button.move")];
  for (const b of moves) {
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
  // Tab comes into the list on the move the keys are on, else on the current one.
  const focused = moves.includes(document.activeElement) ? document.activeElement : null;
  makeTabStop(moves, focused || current || moves[0]);
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
