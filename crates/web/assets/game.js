// Playing by hand: slides, the two move counters, Undo, the clock, the "Solved!" dialog, the
// hint and the optional "N moves from the goal" indicator.

import { $, state, render, setStatus, plural, keepFocus, announce, DIRECTION_WORDS as WORDS } from "./state.js";
import { INVERSE, applyMoves, lineOf, same } from "./board.js";
import { stmCount, mtmCount, slideTo, format, tileDirection } from "./notation.js";
import { api, userMessage } from "./api.js";
import { followHandMoves, followUndo } from "./player.js";
import { tileLabel } from "./boardview.js";

let clockStart = null;
let clockElapsed = 0;
let clockTimer = null;
let hinted = null; // the tile the last hint says to slide
let hintAsked = false; // a hint's request is on its way: Hint stays disabled until it answers
let onShuffle = () => {};

export const hintedTile = () => hinted;
/** True while a hint is being looked for. */
export const hinting = () => hintAsked;
export const clearHint = () => (hinted = null);

/** Every blank letter the player has played, undone slides excluded. */
const played = () => state.history.map((slid) => slid.letters).join("");

/**
 * The hand slide Undo takes back: the last one, while the board is still as it left it. The
 * solution player (Step, Play, a move chosen in the list) moves the board without a slide of
 * the player's own: Undo then waits until the board is back where the last slide left it
 * (Back), rather than sliding some other tile.
 */
function undoable() {
  const last = state.history[state.history.length - 1];
  return last && !state.busy && same(state.board, last.after) ? last : null;
}

export function renderCounters() {
  const moves = played();
  $("move-count").textContent = String(stmCount(moves));
  $("slide-count").textContent = String(mtmCount(moves));
  $("undo").disabled = !undoable();
}

// ---------- clock ----------

function formatClock(ms) {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

const clockNow = () => clockElapsed + (clockStart ? performance.now() - clockStart : 0);

function startClock() {
  if (clockStart) return;
  clockStart = performance.now();
  clockTimer = setInterval(() => ($("timer").textContent = formatClock(clockNow())), 250);
}

/** Stops the clock, keeping its time: the player's next slide starts it again. */
export function stopClock() {
  clockElapsed = clockNow();
  clockStart = null;
  clearInterval(clockTimer);
  $("timer").textContent = formatClock(clockElapsed);
}

/** A new game: counters and clock back to zero. */
export function resetPlay() {
  stopClock();
  clockElapsed = 0;
  state.history = [];
  hinted = null;
  $("timer").textContent = "0:00";
}

// ---------- slides ----------

/**
 * A slide made by the player: `letters` are blank moves, all the same letter (one tile moved
 * by a key or a swipe, a whole run by a click further along the row or column).
 */
export function slide(letters) {
  if (letters && state.busy && !state.editing.board) {
    announce("The tiles stay put while the solver searches: Cancel stops it.");
    return false;
  }
  if (!letters || state.editing.board || state.busy) return false;
  const next = applyMoves(state.board, state.w, state.h, letters);
  if (!next) return false;
  announce(`${slidTiles(letters).map((t) => tileLabel(t, state.style)).join(", ")} ${WORDS[tileDirection(letters[0])]}`);
  hinted = null;
  const setAside = followHandMoves(letters);
  state.board = next;
  state.history.push({ letters, after: next });
  startClock();
  render();
  afterMove();
  if (setAside && !same(state.board, state.goal)) {
    setStatus("That move is not the solution's next one, so the solution is put away: Undo takes the move back and brings the solution back.");
  }
  return true;
}

/** A click or tap on the cell: slides the run between the blank and that cell. */
export function slideToCell(cell) {
  const letters = slideTo(state.board, state.w, cell);
  // Said as a key that moves nothing is: a screen reader's user touched no tile that can move.
  if (letters === null && !state.editing.board && !state.busy) {
    announce(`${tileLabel(state.board[cell], state.style)} is not in the gap's row or column`);
  }
  return slide(letters);
}

/** A key or swipe names where the TILE goes; the blank goes the other way. */
export function slideTile(direction) {
  const blank = { up: "D", down: "U", left: "R", right: "L" }[direction];
  const moved = slide(blank);
  if (!moved && !state.editing.board && !state.busy) announce(`No tile can slide ${direction}`);
  return moved;
}

/** The tiles a slide of blank `letters` moves, in the order they move. */
function slidTiles(letters) {
  const tiles = [];
  let board = state.board;
  for (const m of letters) {
    const next = applyMoves(board, state.w, state.h, m);
    // The tile that moves lands where the blank was.
    tiles.push(next[board.indexOf(0)]);
    board = next;
  }
  return tiles;
}

export function undo() {
  const last = undoable();
  if (!last) return;
  state.history.pop();
  const letters = last.letters;
  const back = [...letters].reverse().map((m) => INVERSE[m]).join("");
  const tiles = slidTiles(back).map((t) => tileLabel(t, state.style));
  announce(`Undone: ${tiles.join(", ")} ${WORDS[tileDirection(back[0])]}`);
  state.board = applyMoves(state.board, state.w, state.h, back);
  const restored = followUndo(letters);
  hinted = null;
  render();
  setStatus(restored ? "The solution is back: Step goes on with it." : "");
  refreshDistance();
}

function afterMove() {
  if (same(state.board, state.goal)) celebrate();
  else setStatus("");
  refreshDistance();
}

// ---------- the Solved! dialog ----------

function celebrate() {
  stopClock();
  const moves = played();
  if (moves.length === 0) return;
  const text = `${plural(stmCount(moves), "move")} (${plural(mtmCount(moves), "slide")}) in ${formatClock(clockElapsed)}.`;
  $("celebrate-text").textContent = text;
  setStatus(`Solved: ${text}`, "ok");
  const dialog = $("celebrate");
  // A modal <dialog> keeps focus inside and closes on Escape.
  if (!dialog.open) dialog.showModal();
  $("celebrate-again").focus();
}

export function setupDialog(shuffle) {
  onShuffle = shuffle;
  const dialog = $("celebrate");
  $("celebrate-again").addEventListener("click", () => {
    dialog.close();
    resetPlay();
    onShuffle();
  });
  $("celebrate-close").addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => {
    resetPlay();
    render();
    $("board").focus({ preventScroll: true });
  });
}

// ---------- hint ----------

// Beyond 16 cells the server's hint is the first move of the best solution its anytime search
// finds in this time: a hint is worth a short wait, not the Solve card's.
const LARGE_HINT_MS = 2000;
const LARGE_BOARD_CELLS = 16;

export async function hint() {
  if (state.busy || state.pairError || hintAsked) return;
  const board = state.board.slice();
  const keyboard = document.activeElement === $("hint");
  const large = state.w * state.h > LARGE_BOARD_CELLS;
  // Disabled by every redraw until the answer comes (a redraw meanwhile, such as a change of
  // notation, must not offer a second request).
  hintAsked = true;
  render();
  setStatus(large ? "Looking for a good move (2 s)…" : "Looking for the best move…");
  try {
    const body = { board: lineOf(board, state.w), goal: lineOf(state.goal, state.w) };
    // The server may be started with a shorter cap than the page's wait.
    const cap = state.info ? state.info.limits.max_timeout_ms : LARGE_HINT_MS;
    if (large) body.timeout_ms = Math.min(LARGE_HINT_MS, cap);
    const r = await api("/api/hint", body);
    if (!same(board, state.board)) return;
    if (!r.move) {
      setStatus("The board is already the goal.", "ok");
      return;
    }
    hinted = r.tile;
    // An optimal solution's first move is the best; otherwise it starts the best one found.
    const rest = r.optimal === false
      ? `it starts a solution of ${plural(r.length, "move")}, not proven the shortest (at least ${r.lower_bound} are needed)`
      : `${plural(r.length, "move")} to the goal`;
    setStatus(
      `Hint: slide ${tileLabel(r.tile, state.style)} ${WORDS[tileDirection(r.move)]} ` +
        `(${format(r.move, state.notation)}); ${rest}.`,
      "ok",
    );
  } catch (e) {
    setStatus(`No hint. ${userMessage(e, "hint")}`, "error");
  } finally {
    hintAsked = false;
    render();
    if (keyboard) keepFocus($("hint"));
  }
}

// ---------- "N moves from the goal" ----------

let distanceAbort = null;
// Short: the indicator follows the player's moves; a board it cannot settle quickly shows none.
const DISTANCE_TIMEOUT_MS = 1500;
const TOO_FAR = "too far to count quickly";

export async function refreshDistance() {
  const out = $("distance");
  if (distanceAbort) distanceAbort.abort();
  distanceAbort = null;
  out.removeAttribute("aria-busy");
  if (!$("show-distance").checked || state.pairError) {
    out.textContent = "";
    return;
  }
  if (same(state.board, state.goal)) {
    out.textContent = "0 moves from the goal";
    return;
  }
  const controller = new AbortController();
  distanceAbort = controller;
  const board = state.board.slice();
  // While it counts, the ellipsis is drawn by app.css, not written here: the indicator is a live
  // region, and a screen reader would read "…" before every distance.
  out.setAttribute("aria-busy", "true");
  try {
    const r = await api(
      "/api/solve",
      { board: lineOf(board, state.w), goal: lineOf(state.goal, state.w), timeout_ms: DISTANCE_TIMEOUT_MS },
      controller.signal,
    );
    if (!same(board, state.board)) return;
    // Only a proven distance is worth showing: a longer solution would mislead the player.
    out.textContent = r.optimal ? `${plural(r.length, "move")} from the goal` : TOO_FAR;
  } catch (e) {
    if (e.name === "AbortError") return;
    // A search cut short by its limit is a board too far; any other failure says what it is.
    if (same(board, state.board)) out.textContent = e.code === "limit_reached" ? TOO_FAR : userMessage(e);
  } finally {
    if (distanceAbort === controller) {
      distanceAbort = null;
      out.removeAttribute("aria-busy");
    }
  }
}
