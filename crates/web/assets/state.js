// What the page knows, shared by its modules, and the few helpers every module uses. Modules
// change `state` and call render(); main.js installs the function that draws everything.

export const $ = (id) => document.getElementById(id);

export const state = {
  w: 3,
  h: 3,
  board: [],
  goal: [],
  style: "numbers", // numbers, letters, image, custom
  customImage: null, // object URL of the player's picture
  notation: "blank", // blank or tile: how moves are written
  editing: { board: false, goal: false },
  selected: null, // {which, cell} while editing: the first tile of a swap
  cursor: { board: 0, goal: 0 }, // the cell each board's arrow keys are on while it is edited
  solution: null, // {moves, start, index, report}; report is null for moves from a link
  history: [], // the player's slides, for undo: each { letters (blank moves), after (the board it left) }
  busy: false,
  loading: false, // while the solver's first answer (/api/info) is on its way: its questions wait
  pairError: null, // why the current pair cannot be solved (parse or parity), or null
  info: null, // /api/info
};

let drawAll = () => {};
/** Installs the function that draws the whole page (main.js). */
export const setRenderer = (fn) => (drawAll = fn);
/** Draws the page from `state`. */
export const render = () => drawAll();

// Where a keyboard user's focus goes when the control it is on is disabled or hidden: the
// first of these that can take it. Left to itself, the browser drops focus to the page, and
// the next Tab starts again from the top.
const FOCUS_NEXT = {
  solve: ["cancel"],
  cancel: ["step", "solve"],
  step: ["step-back", "to-start"],
  "to-end": ["step-back", "to-start"],
  "step-back": ["step", "to-end"],
  "to-start": ["step", "to-end"],
  compare: ["compare-cancel", "compare-algorithm"],
  "compare-cancel": ["compare", "compare-algorithm"],
  // "Compare again" hides once it starts a comparison: to Compare, or to Cancel while it runs.
  "compare-redo": ["compare", "compare-cancel"],
  // Draw stays focusable while its tree is searched for (tree.js), so "Draw again" hands on to it.
  "tree-redo": ["tree"],
  "tree-start": ["tree-step", "tree-end"],
  "tree-back": ["tree-step", "tree-end"],
  "tree-step": ["tree-back", "tree-start"],
  "tree-end": ["tree-back", "tree-start"],
  // Hint waits for its answer disabled (game.js), which then gives the focus back to it.
  hint: ["share"],
};

/** True when `el` can take the focus: enabled and shown. */
export const canFocus = (el) => !!el && !el.disabled && !el.hidden && el.offsetParent !== null;

/** Focus on `el` if it can take it, else on the next control that can (the board last). */
export function keepFocus(el) {
  const to = [el, ...(FOCUS_NEXT[el.id] || []).map($), $("board")].find(canFocus);
  if (to && document.activeElement !== to) to.focus({ preventScroll: true });
}

/**
 * Runs `change`, which may disable or hide the focused control (Solve while it solves, Step on
 * the last move), and passes a keyboard user's focus on from it instead of dropping it to the
 * page.
 */
export function keepingFocus(change) {
  const focused = document.activeElement;
  change();
  if (focused && focused !== document.body && !canFocus(focused)) keepFocus(focused);
}

/**
 * Work that a Cancel button stops (a solve, a comparison): one AbortController at a time, whose
 * signal goes with every request of the work, and the button shown only while the work runs.
 * Cancel is wired here once; the page's controls follow `running` when it redraws, and a
 * keyboard user's focus is handed on by keepFocus: from the disabled start button to Cancel,
 * and from Cancel, once hidden, back to what comes next (FOCUS_NEXT).
 */
export class Cancellable {
  /** `cancelId`: the id of the work's Cancel button. */
  constructor(cancelId) {
    this.button = $(cancelId);
    this.controller = null;
    this.button.addEventListener("click", () => this.cancel());
  }

  /** True while the work runs. */
  get running() {
    return this.controller !== null;
  }

  /** Starts the work and shows Cancel; returns its AbortController. */
  start() {
    this.controller = new AbortController();
    this.button.hidden = false;
    render();
    return this.controller;
  }

  /**
   * Ends the work of `controller` and hides Cancel. False, and nothing done, when that work
   * is no longer the current one (a newer run started meanwhile).
   */
  finish(controller) {
    if (this.controller !== controller) return false;
    const focused = document.activeElement;
    this.controller = null;
    this.button.hidden = true;
    render();
    if (focused === this.button) keepFocus(focused);
    return true;
  }

  /** Aborts the work's requests: each rejects with an AbortError, which ends the work. */
  cancel() {
    if (this.controller) this.controller.abort();
  }
}

/** "1 move", "2 moves", "1,234 nodes". */
export function plural(n, word, many = `${word}s`) {
  return `${Number(n).toLocaleString("en")} ${n === 1 ? word : many}`;
}

/**
 * Says `text` to a screen reader (a region only it reads): each slide, undo and step of the
 * player, so that a person who cannot see the board hears each move. The same text twice in a
 * row is still announced: the region is emptied first.
 */
export function announce(text) {
  const el = $("announce");
  el.textContent = "";
  requestAnimationFrame(() => (el.textContent = text));
}

/** Words for the direction a TILE goes, by its letter in tile notation. */
export const DIRECTION_WORDS = { U: "up", D: "down", L: "left", R: "right" };

/** How many times the status line was set: an answer that comes late can tell whether a
 * newer message took the line meanwhile (`statusShown`). */
let statusVersion = 0;

/** The status line's version: compare it before and after an await. */
export const statusShown = () => statusVersion;

// What the status line says when it has nothing else to say: that the solver is loading (main.js),
// which a slide, clearing the line, must not hide while it lasts.
let waitingText = "";

/** Sets (or, with "", ends) what the status line falls back to; shows it when it is set. */
export function setWaiting(text) {
  const before = waitingText;
  waitingText = text;
  if (text) setStatus(text);
  else if ($("status").textContent === before) setStatus("");
}

export function setStatus(text, kind) {
  statusVersion += 1;
  const s = $("status");
  const shown = text || waitingText;
  // The line cleared back to the same words is not read out again.
  if (text || s.textContent !== shown) s.textContent = shown;
  s.className = `status ${kind || ""}`;
}

export function formatCount(n) {
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)} G`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(2)} M`;
  if (n >= 1e4) return `${(n / 1e3).toFixed(1)} k`;
  return String(n);
}

export const formatMs = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(ms < 10 ? 2 : 0)} ms`);

/**
 * The puzzle's start: while a solution is played, the board it starts from (the board shown is
 * then part way along it); otherwise the board shown. The comparison and the tree are about it.
 */
export const puzzleStart = () => (state.solution ? state.solution.start : state.board);

/** The largest side the server accepts (8 unless it was started with another). */
export const maxSide = () => (state.info && state.info.limits ? state.info.limits.max_side : 8);

/** True when the person asked the system to reduce motion. */
export const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

// ---------- the player's settings ----------

// Moves as, Shuffle difficulty, Moves to goal and Tiles, kept in the browser's localStorage so
// that a reload keeps them. The address's own fields win over them (main.js): a link shows its
// tiles as it was made with them.
const SETTINGS_KEY = "taquin.settings";

/** The settings saved by this browser: {notation, difficulty, distance, tiles}, each optional. */
export function savedSettings() {
  try {
    const saved = JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}");
    return saved && typeof saved === "object" ? saved : {};
  } catch (_) {
    // Storage switched off, or not JSON (written by hand): the page's defaults.
    return {};
  }
}

/** Saves one setting, keeping the others. */
export function saveSetting(name, value) {
  const saved = savedSettings();
  saved[name] = value;
  try {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(saved));
  } catch (_) {
    // Storage switched off or full: the setting lasts as long as the page.
  }
}
