// taquin web game. Plain JavaScript, no build step: the server embeds this file as it is.
//
// Conventions shared with the server: a board is a row-major list of tiles with 0 for the blank,
// written as text "6 4 7/8 5 0/3 2 1"; a move letter names the direction the BLANK moves.
"use strict";

const $ = (id) => document.getElementById(id);
const DIRS = { U: [0, -1], D: [0, 1], L: [-1, 0], R: [1, 0] };
const INVERSE = { U: "D", D: "U", L: "R", R: "L" };
const ARTICLE = { board: "6 4 7/8 5 0/3 2 1", goal: "1 2 3/4 5 6/7 8 0" };

const state = {
  w: 3,
  h: 3,
  board: [],
  goal: [],
  style: "numbers",
  customImage: null,
  editing: { board: false, goal: false },
  selected: null, // {which, cell} while editing
  solution: null, // {moves: "DLL..", start: [...], index, report}
  playTimer: null,
  history: [], // letters of manual moves, for undo
  moveCount: 0,
  clockStart: null,
  clockElapsed: 0,
  clockTimer: null,
  solveAbort: null,
  busy: false,
  pairError: null, // why the current pair cannot be solved (parse or parity), or null
  userPickedSolver: false,
  info: null,
};

// ---------- board helpers ----------

const lineOf = (tiles, w) => {
  const rows = [];
  for (let r = 0; r < tiles.length / w; r++) rows.push(tiles.slice(r * w, r * w + w).join(" "));
  return rows.join("/");
};
const solvedTiles = (w, h) => {
  const t = [];
  for (let i = 1; i < w * h; i++) t.push(i);
  t.push(0);
  return t;
};
const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

// Parses the board text locally only to lay the board out; the server stays the judge of
// validity (it gives the precise message), see validatePair().
function parseLocal(text) {
  const rows = text.trim().split(/\s*[\/\n]\s*/).filter((r) => r.length > 0);
  if (rows.length === 0) return { error: "the board is empty" };
  const grid = rows.map((r) => r.split(/[\s,]+/).filter((t) => t.length > 0));
  const w = grid[0].length;
  if (grid.some((r) => r.length !== w)) return { error: "every row must have the same number of tiles" };
  const tiles = [];
  for (const row of grid) {
    for (const tok of row) {
      if (tok === "_" || tok === ".") tiles.push(0);
      else if (/^\d+$/.test(tok)) tiles.push(Number(tok));
      else return { error: `'${tok}' is not a tile` };
    }
  }
  return { w, h: grid.length, tiles };
}

function blankMove(tiles, w, h, letter) {
  const b = tiles.indexOf(0);
  const [dx, dy] = DIRS[letter];
  const x = (b % w) + dx;
  const y = Math.floor(b / w) + dy;
  if (x < 0 || y < 0 || x >= w || y >= h) return null;
  const to = y * w + x;
  const next = tiles.slice();
  next[b] = next[to];
  next[to] = 0;
  return next;
}

// The move letter that slides the tile at `cell` into the gap, or null if it is not next to it.
function letterForCell(tiles, w, cell) {
  const b = tiles.indexOf(0);
  const bx = b % w, by = Math.floor(b / w), x = cell % w, y = Math.floor(cell / w);
  for (const [letter, [dx, dy]] of Object.entries(DIRS)) {
    if (bx + dx === x && by + dy === y) return letter;
  }
  return null;
}

const tileLabel = (t) => {
  if (state.style === "letters") {
    return t <= 26 ? String.fromCharCode(64 + t) : String.fromCharCode(96 + t - 26);
  }
  return String(t);
};

// ---------- API ----------

async function api(path, body, signal) {
  let response;
  try {
    response = await fetch(path, {
      method: body === undefined ? "GET" : "POST",
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (e) {
    if (e.name === "AbortError") throw e;
    throw new Error("cannot reach the taquin server: is `taquin serve` still running?");
  }
  let data;
  try {
    data = await response.json();
  } catch (_) {
    throw new Error(`the server answered ${response.status} without JSON`);
  }
  if (!response.ok) {
    const err = new Error(data.error || `error ${response.status}`);
    err.code = data.code;
    err.data = data;
    throw err;
  }
  return data;
}

// ---------- rendering ----------

const views = {};

function makeView(which) {
  const el = $(which);
  const view = { el, which, tiles: new Map() };
  views[which] = view;
  el.addEventListener("pointerdown", (e) => onPointerDown(view, e));
  return view;
}

function imageUrl() {
  if (state.style === "image") return "/picture.svg";
  if (state.style === "custom") return state.customImage;
  return null;
}

function renderBoard(which) {
  const view = views[which];
  const tiles = which === "board" ? state.board : state.goal;
  const { w, h } = state;
  const el = view.el;
  el.style.aspectRatio = `${w} / ${h}`;
  el.dataset.line = lineOf(tiles, w);
  el.dataset.solved = String(same(state.board, state.goal));
  el.classList.toggle("editing", state.editing[which]);
  const goalCell = new Map(state.goal.map((t, i) => [t, i]));
  const size = el.clientWidth || 300;
  el.style.setProperty("--tile-font", `${Math.max(0.8, Math.min(2.2, (size / Math.max(w, h)) / 38))}rem`);
  const img = imageUrl();
  const seen = new Set();
  tiles.forEach((t, cell) => {
    seen.add(t);
    let tileEl = view.tiles.get(t);
    if (!tileEl) {
      tileEl = document.createElement("div");
      tileEl.className = "tile";
      const face = document.createElement("div");
      face.className = "face";
      tileEl.appendChild(face);
      el.appendChild(tileEl);
      view.tiles.set(t, tileEl);
    }
    const x = cell % w, y = Math.floor(cell / w);
    tileEl.style.width = `${100 / w}%`;
    tileEl.style.height = `${100 / h}%`;
    tileEl.style.transform = `translate(${x * 100}%, ${y * 100}%)`;
    tileEl.dataset.tile = String(t);
    tileEl.dataset.cell = String(cell);
    tileEl.classList.toggle("blank", t === 0);
    tileEl.classList.toggle("home", t !== 0 && goalCell.get(t) === cell);
    tileEl.classList.toggle("image", !!img && t !== 0);
    tileEl.classList.toggle(
      "selected",
      !!state.selected && state.selected.which === which && state.selected.cell === cell,
    );
    const face = tileEl.firstChild;
    if (t === 0) {
      face.textContent = "";
      face.style.backgroundImage = "";
      tileEl.setAttribute("aria-label", "blank");
    } else if (img) {
      // The picture is cut by the goal: each tile shows the piece of its goal cell.
      const gc = goalCell.get(t) ?? 0;
      const gx = gc % w, gy = Math.floor(gc / w);
      face.style.backgroundImage = `url("${img}")`;
      face.style.backgroundSize = `${w * 100}% ${h * 100}%`;
      face.style.backgroundPosition = `${(gx * 100) / (w - 1)}% ${(gy * 100) / (h - 1)}%`;
      face.innerHTML = "";
      const small = document.createElement("span");
      small.textContent = tileLabel(t);
      face.appendChild(small);
      tileEl.setAttribute("aria-label", `tile ${t}`);
    } else {
      face.style.backgroundImage = "";
      face.textContent = tileLabel(t);
      tileEl.setAttribute("aria-label", `tile ${t}`);
    }
  });
  for (const [t, tileEl] of view.tiles) {
    if (!seen.has(t)) {
      tileEl.remove();
      view.tiles.delete(t);
    }
  }
  const input = $(`${which}-input`);
  if (document.activeElement !== input) {
    input.value = lineOf(tiles, w);
    input.classList.remove("invalid");
  }
}

function render() {
  renderBoard("board");
  renderBoard("goal");
  $("move-count").textContent = String(state.moveCount);
  $("undo").disabled = state.history.length === 0 || state.busy;
  $("width").value = String(state.w);
  $("height").value = String(state.h);
  const small = state.w * state.h <= (state.info ? state.info.limits.trace_max_cells : 16);
  $("tree").disabled = !small || state.busy;
  $("tree").title = small ? "" : "the search view is for boards of at most 16 cells";
  $("solve").disabled = state.busy || !!state.pairError;
  $("hint").disabled = state.busy || !!state.pairError || same(state.board, state.goal);
  $("compare").disabled = state.busy || !!state.pairError;
  $("shuffle").disabled = state.busy;
  renderSolution();
  updateLink();
}

function setStatus(text, kind) {
  const s = $("status");
  s.textContent = text;
  s.className = `status ${kind || ""}`;
}

function updateLink() {
  const params = new URLSearchParams();
  params.set("board", lineOf(state.board, state.w).replace(/ /g, ","));
  params.set("goal", lineOf(state.goal, state.w).replace(/ /g, ","));
  if (state.style === "letters" || state.style === "image") params.set("tiles", state.style);
  const hash = `#${params.toString().replace(/%2C/g, ",").replace(/%2F/g, "/")}`;
  if (location.hash !== hash) history.replaceState(null, "", hash);
}

// ---------- clock and manual play ----------

function formatClock(ms) {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function clockNow() {
  return state.clockElapsed + (state.clockStart ? performance.now() - state.clockStart : 0);
}

function startClock() {
  if (state.clockStart) return;
  state.clockStart = performance.now();
  state.clockTimer = setInterval(() => ($("timer").textContent = formatClock(clockNow())), 250);
}

function stopClock() {
  state.clockElapsed = clockNow();
  state.clockStart = null;
  clearInterval(state.clockTimer);
  $("timer").textContent = formatClock(state.clockElapsed);
}

function resetPlay() {
  stopClock();
  state.clockElapsed = 0;
  state.history = [];
  state.moveCount = 0;
  $("timer").textContent = "0:00";
}

// A move made by the player (click, key, swipe). Keeps a loaded solution in step when the player
// follows it, drops it otherwise.
function playerMove(letter) {
  if (state.editing.board || state.busy) return false;
  const next = blankMove(state.board, state.w, state.h, letter);
  if (!next) return false;
  clearHint();
  const sol = state.solution;
  if (sol && same(currentSolutionBoard(), state.board) && sol.moves[sol.index] === letter) {
    sol.index++;
  } else if (sol) {
    dropSolution();
  }
  state.board = next;
  state.history.push(letter);
  state.moveCount++;
  startClock();
  render();
  if (same(state.board, state.goal)) celebrate();
  else setStatus("");
  return true;
}

function undo() {
  if (state.history.length === 0 || state.busy) return;
  const letter = state.history.pop();
  const sol = state.solution;
  if (sol && sol.index > 0 && sol.moves[sol.index - 1] === letter) sol.index--;
  state.board = blankMove(state.board, state.w, state.h, INVERSE[letter]);
  state.moveCount++;
  render();
  setStatus("");
}

function celebrate() {
  stopClock();
  if (state.moveCount === 0) return;
  $("celebrate-text").textContent = `${state.moveCount} moves in ${formatClock(state.clockElapsed)}.`;
  $("celebrate").hidden = false;
  setStatus(`Solved in ${state.moveCount} moves!`, "ok");
  $("celebrate-close").focus();
}

// ---------- pointer: tap, swipe, drag ----------

let pointer = null;

function onPointerDown(view, e) {
  if (e.button !== undefined && e.button !== 0) return;
  const tileEl = e.target.closest(".tile");
  pointer = { view, x: e.clientX, y: e.clientY, cell: tileEl ? Number(tileEl.dataset.cell) : null };
  view.el.focus({ preventScroll: true });
  e.preventDefault();
}

function cellAt(view, clientX, clientY) {
  const r = view.el.getBoundingClientRect();
  if (clientX < r.left || clientY < r.top || clientX >= r.right || clientY >= r.bottom) return null;
  const x = Math.floor(((clientX - r.left) / r.width) * state.w);
  const y = Math.floor(((clientY - r.top) / r.height) * state.h);
  return y * state.w + x;
}

document.addEventListener("pointermove", (e) => {
  if (!pointer || !state.editing[pointer.view.which]) return;
  const cell = cellAt(pointer.view, e.clientX, e.clientY);
  for (const t of pointer.view.tiles.values()) {
    t.classList.toggle("drop-target", cell !== null && cell !== pointer.cell && Number(t.dataset.cell) === cell);
  }
});

document.addEventListener("pointerup", (e) => {
  if (!pointer) return;
  const p = pointer;
  pointer = null;
  for (const t of p.view.tiles.values()) t.classList.remove("drop-target");
  const dx = e.clientX - p.x, dy = e.clientY - p.y;
  const far = Math.hypot(dx, dy) > 24;
  if (state.editing[p.view.which]) {
    const to = cellAt(p.view, e.clientX, e.clientY);
    if (p.cell === null) return;
    if (far && to !== null && to !== p.cell) {
      state.selected = null;
      swapCells(p.view.which, p.cell, to);
    } else if (!far) {
      tapInEditor(p.view.which, p.cell);
    }
    return;
  }
  if (p.view.which !== "board") return;
  if (far) {
    // A swipe moves the tile in the swipe's direction, so the blank goes the other way.
    const letter = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "L" : "R") : dy > 0 ? "U" : "D";
    playerMove(letter);
  } else if (p.cell !== null) {
    const letter = letterForCell(state.board, state.w, p.cell);
    if (letter) playerMove(letter);
  }
});

function tapInEditor(which, cell) {
  const sel = state.selected;
  if (sel && sel.which === which && sel.cell !== cell) {
    state.selected = null;
    swapCells(which, sel.cell, cell);
  } else if (sel && sel.which === which) {
    state.selected = null;
    render();
  } else {
    state.selected = { which, cell };
    render();
  }
}

function swapCells(which, a, b) {
  const tiles = (which === "board" ? state.board : state.goal).slice();
  [tiles[a], tiles[b]] = [tiles[b], tiles[a]];
  boardsChanged(which === "board" ? tiles : state.board, which === "goal" ? tiles : state.goal);
}

// ---------- keyboard ----------

document.addEventListener("keydown", (e) => {
  const tag = (e.target.tagName || "").toLowerCase();
  if (tag === "input" || tag === "select" || tag === "textarea") return;
  // Space and Enter on a focused button press that button; they are not shortcuts there.
  if (tag === "button" && (e.key === " " || e.key === "Enter")) return;
  if (!$("celebrate").hidden) {
    if (e.key === "Escape" || e.key === "Enter") closeCelebrate();
    return;
  }
  // An arrow slides a tile in its direction, so the blank goes the opposite way.
  const arrows = { ArrowUp: "D", ArrowDown: "U", ArrowLeft: "R", ArrowRight: "L" };
  if (arrows[e.key]) {
    if (playerMove(arrows[e.key])) e.preventDefault();
  } else if ((e.key === "z" || e.key === "Z") && (e.ctrlKey || e.metaKey)) {
    undo();
    e.preventDefault();
  } else if (state.solution && e.key === " ") {
    togglePlay();
    e.preventDefault();
  } else if (state.solution && e.key === "Home") {
    jumpTo(0);
  } else if (state.solution && e.key === "End") {
    jumpTo(state.solution.moves.length);
  }
});

// ---------- editing and validation ----------

let validateSeq = 0;

// Every change of either board goes through here: invalidate what depended on the old pair and
// ask the server whether the new pair is solvable, so an unsolvable pair is refused before any
// search.
function boardsChanged(board, goal) {
  stopPlaying();
  dropSolution();
  clearHint();
  state.board = board;
  state.goal = goal;
  // A comparison or a tree describes the old boards: showing it beside the new ones would lie.
  $("compare-result").innerHTML = "";
  $("tree-result").innerHTML = "";
  resetPlay();
  render();
  validatePair();
}

async function validatePair() {
  const seq = ++validateSeq;
  const body = { board: lineOf(state.board, state.w), goal: lineOf(state.goal, state.w) };
  try {
    const v = await api("/api/validate", body);
    if (seq !== validateSeq) return;
    state.pairError = v.solvable ? null : v.reason;
    if (v.solvable) setStatus(same(state.board, state.goal) ? "The board is the goal." : "");
    else setStatus(v.reason, "error");
  } catch (e) {
    if (seq !== validateSeq) return;
    state.pairError = e.message;
    setStatus(e.message, "error");
  }
  render();
}

function applyTyped(which) {
  const input = $(`${which}-input`);
  const parsed = parseLocal(input.value);
  if (parsed.error) {
    input.classList.add("invalid");
    showServerParseError(which, input.value);
    return;
  }
  if (parsed.w < 2 || parsed.h < 2 || parsed.w > 6 || parsed.h > 6) {
    input.classList.add("invalid");
    setStatus("boards from 2x2 to 6x6 are played here", "error");
    return;
  }
  const n = parsed.w * parsed.h;
  const sorted = parsed.tiles.slice().sort((a, b) => a - b);
  if (!sorted.every((t, i) => t === i)) {
    input.classList.add("invalid");
    showServerParseError(which, input.value);
    return;
  }
  input.classList.remove("invalid");
  let board = which === "board" ? parsed.tiles : state.board;
  let goal = which === "goal" ? parsed.tiles : state.goal;
  if (parsed.w !== state.w || parsed.h !== state.h) {
    // A new size: the other board becomes the usual goal (or a solved board) of that size.
    state.w = parsed.w;
    state.h = parsed.h;
    if (which === "board") goal = solvedTiles(parsed.w, parsed.h);
    else board = solvedTiles(parsed.w, parsed.h).slice();
    if (n !== board.length || n !== goal.length) return;
  }
  input.blur();
  boardsChanged(board, goal);
}

// The server's parser gives the precise message (which row, which token, which tile).
async function showServerParseError(which, text) {
  try {
    await api("/api/validate", { board: text });
    setStatus(`${which}: every tile from 0 to ${state.w * state.h - 1} must appear once`, "error");
  } catch (e) {
    setStatus(e.message, "error");
  }
}

function toggleEdit(which) {
  state.editing[which] = !state.editing[which];
  state.selected = null;
  const btn = $(`edit-${which}`);
  btn.setAttribute("aria-pressed", String(state.editing[which]));
  btn.textContent = state.editing[which] ? "Done" : "Edit";
  if (state.editing[which]) setStatus("Editing: click two tiles or drag one onto another to swap them.");
  render();
}

// ---------- size and shuffle ----------

async function shuffle() {
  const [method, moves] = $("difficulty").value.split(":");
  const body = { goal: lineOf(state.goal, state.w), method };
  if (method === "walk") body.moves = Number(moves);
  try {
    const g = await api("/api/generate", body);
    const parsed = parseLocal(g.board);
    boardsChanged(parsed.tiles, state.goal);
    setStatus(method === "walk" ? `Shuffled with ${moves} random moves.` : "Shuffled uniformly at random.");
  } catch (e) {
    setStatus(e.message, "error");
  }
}

async function changeSize() {
  const w = Number($("width").value), h = Number($("height").value);
  state.w = w;
  state.h = h;
  state.editing = { board: false, goal: false };
  for (const which of ["board", "goal"]) {
    $(`edit-${which}`).setAttribute("aria-pressed", "false");
    $(`edit-${which}`).textContent = "Edit";
  }
  if (!state.userPickedSolver) pickSolverForSize();
  boardsChanged(solvedTiles(w, h), solvedTiles(w, h));
  await shuffle();
}

// Until the player chooses, small boards use the article's A*, larger ones IDA* with the server's
// strongest default heuristic (A* runs out of memory on hard 15-puzzles).
function pickSolverForSize() {
  if (!state.info) return;
  const small = state.w * state.h <= 9;
  $("algorithm").value = small ? "astar" : state.info.defaults.algorithm;
  $("heuristic").value = small ? "linear-conflict" : state.info.defaults.heuristic;
  if (!$("heuristic").value) $("heuristic").selectedIndex = $("heuristic").options.length - 1;
}

// ---------- solving ----------

function setBusy(busy) {
  state.busy = busy;
  $("cancel").hidden = !busy;
  $("progress").hidden = !busy;
  render();
}

function formatCount(n) {
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)} G`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(2)} M`;
  if (n >= 1e4) return `${(n / 1e3).toFixed(1)} k`;
  return String(n);
}
const formatMs = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(ms < 10 ? 2 : 0)} ms`);

async function solve() {
  if (state.busy || state.pairError) return;
  stopPlaying();
  dropSolution();
  clearHint();
  const start = state.board.slice();
  const body = {
    board: lineOf(start, state.w),
    goal: lineOf(state.goal, state.w),
    algorithm: $("algorithm").value,
    heuristic: $("heuristic").value,
    // The server may be started with a smaller cap than the page's choices.
    timeout_ms: Math.min(Number($("time-limit").value), state.info ? state.info.limits.max_timeout_ms : 60000),
  };
  const controller = new AbortController();
  state.solveAbort = controller;
  setBusy(true);
  setStatus("");
  $("progress-text").textContent = "Searching…";
  try {
    const response = await fetch("/api/solve/stream", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    if (!response.ok) {
      const data = await response.json().catch(() => ({}));
      throw new Error(data.error || `error ${response.status}`);
    }
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    let result = null;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let nl;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (!line.trim()) continue;
        const msg = JSON.parse(line);
        if (msg.progress) {
          const p = msg.progress;
          $("progress-text").textContent =
            `${formatCount(p.generated)} nodes generated · at least ${p.bound} moves · ${formatMs(p.time_ms)}`;
        } else {
          result = msg;
        }
      }
    }
    if (!result) throw new Error("the server closed the stream without an answer");
    if (result.error) throw new Error(result.error.error);
    const r = result.solution;
    state.solution = { moves: r.moves, start, index: 0, report: r };
    setStatus(
      r.length === 0
        ? "The board is already the goal."
        : `Solved in ${formatMs(r.time_ms)}: ${r.length} moves${r.optimal ? " (optimal)" : ""}.`,
      "ok",
    );
  } catch (e) {
    if (e.name === "AbortError") setStatus("Search cancelled.", "");
    else setStatus(e.message, "error");
  } finally {
    state.solveAbort = null;
    setBusy(false);
  }
}

function cancelSolve() {
  if (state.solveAbort) state.solveAbort.abort();
}

// ---------- solution player ----------

function currentSolutionBoard() {
  const sol = state.solution;
  let tiles = sol.start;
  for (let i = 0; i < sol.index; i++) tiles = blankMove(tiles, state.w, state.h, sol.moves[i]);
  return tiles;
}

function dropSolution() {
  stopPlaying();
  state.solution = null;
}

function renderSolution() {
  const sol = state.solution;
  $("solution").hidden = !sol;
  if (!sol) return;
  const r = sol.report;
  $("steps-count").textContent = String(r.length);
  $("solution-stats").textContent =
    `${r.algorithm} + ${r.heuristic} · ${formatCount(r.expanded)} expanded · ${formatCount(r.generated)} generated · ${formatMs(r.time_ms)}`;
  const text = $("moves-text");
  if (text.dataset.moves !== sol.moves) {
    text.dataset.moves = sol.moves;
    text.textContent = "";
    if (sol.moves.length === 0) text.textContent = "(no move needed)";
    [...sol.moves].forEach((m, i) => {
      const span = document.createElement("span");
      span.textContent = m;
      span.dataset.index = String(i);
      span.title = `move ${i + 1}`;
      span.addEventListener("click", () => jumpTo(i + 1));
      text.appendChild(span);
    });
  }
  const spans = text.querySelectorAll("span");
  spans.forEach((s, i) => {
    s.classList.toggle("done", i < sol.index - 1);
    s.classList.toggle("current", i === sol.index - 1);
  });
  // Keep the current move in view by scrolling the moves box only, never the page.
  const cur = spans[sol.index - 1];
  if (cur && (cur.offsetTop < text.scrollTop || cur.offsetTop > text.scrollTop + text.clientHeight - 24)) {
    text.scrollTop = cur.offsetTop - text.clientHeight / 2;
  }
  const n = sol.moves.length;
  $("step-index").textContent = `${sol.index} / ${n}`;
  $("step").disabled = sol.index >= n || state.busy;
  $("to-end").disabled = sol.index >= n || state.busy;
  $("step-back").disabled = sol.index === 0 || state.busy;
  $("to-start").disabled = sol.index === 0 || state.busy;
  $("play").disabled = n === 0 || state.busy;
  $("play").textContent = state.playTimer ? "❚❚ Pause" : "▶ Play";
}

function solutionStep(delta) {
  const sol = state.solution;
  if (!sol) return false;
  // The player may have moved tiles by hand; the solution only applies from its own positions.
  if (!same(currentSolutionBoard(), state.board)) {
    dropSolution();
    render();
    return false;
  }
  if (delta > 0 && sol.index < sol.moves.length) {
    state.board = blankMove(state.board, state.w, state.h, sol.moves[sol.index]);
    sol.index++;
  } else if (delta < 0 && sol.index > 0) {
    sol.index--;
    state.board = blankMove(state.board, state.w, state.h, INVERSE[sol.moves[sol.index]]);
  } else {
    return false;
  }
  clearHint();
  render();
  if (sol.index === sol.moves.length && same(state.board, state.goal)) {
    setStatus(`Goal reached after ${sol.moves.length} moves.`, "ok");
  }
  return true;
}

function jumpTo(index) {
  const sol = state.solution;
  if (!sol) return;
  stopPlaying();
  sol.index = 0;
  state.board = sol.start.slice();
  while (sol.index < index) {
    state.board = blankMove(state.board, state.w, state.h, sol.moves[sol.index]);
    sol.index++;
  }
  render();
  if (sol.index === sol.moves.length) setStatus(`Goal reached after ${sol.moves.length} moves.`, "ok");
}

function speedMs() {
  // Slider 1..10 -> 1000 ms .. 60 ms per move, evenly on a log scale.
  const v = Number($("speed").value);
  return Math.round(1000 * Math.pow(60 / 1000, (v - 1) / 9));
}

function applySpeed() {
  document.documentElement.style.setProperty("--slide-ms", `${Math.min(180, Math.round(speedMs() * 0.8))}ms`);
}

function togglePlay() {
  if (state.playTimer) {
    stopPlaying();
    render();
    return;
  }
  const sol = state.solution;
  if (!sol) return;
  if (sol.index >= sol.moves.length) jumpTo(0);
  const tick = () => {
    if (!solutionStep(1) || state.solution.index >= state.solution.moves.length) {
      stopPlaying();
      render();
      return;
    }
    state.playTimer = setTimeout(tick, speedMs());
  };
  state.playTimer = setTimeout(tick, 0);
  render();
}

function stopPlaying() {
  if (state.playTimer) clearTimeout(state.playTimer);
  state.playTimer = null;
}

// ---------- hint ----------

function clearHint() {
  for (const t of views.board.tiles.values()) t.classList.remove("hinted");
}

async function hint() {
  if (state.busy || state.pairError) return;
  const board = state.board.slice();
  $("hint").disabled = true;
  setStatus("Looking for the best move…");
  try {
    const r = await api("/api/hint", { board: lineOf(board, state.w), goal: lineOf(state.goal, state.w) });
    if (!same(board, state.board)) return;
    if (!r.move) {
      setStatus("The board is already the goal.", "ok");
      return;
    }
    const tileDir = { U: "down", D: "up", L: "right", R: "left" }[r.move];
    setStatus(`Hint: slide ${tileLabel(r.tile)} ${tileDir} (blank ${r.move}); ${r.remaining} moves to the goal.`, "ok");
    clearHint();
    const el = views.board.tiles.get(r.tile);
    if (el) {
      void el.offsetWidth; // restart the pulse animation
      el.classList.add("hinted");
    }
  } catch (e) {
    setStatus(`No hint: ${e.message}`, "error");
  } finally {
    render();
  }
}

// ---------- compare ----------

async function compare() {
  if (state.busy || state.pairError) return;
  const out = $("compare-result");
  out.innerHTML = '<p class="help">Solving with every heuristic…</p>';
  $("compare").disabled = true;
  try {
    const r = await api("/api/compare", {
      board: lineOf(state.board, state.w),
      goal: lineOf(state.goal, state.w),
      algorithms: [$("compare-algorithm").value],
    });
    const max = Math.max(1, ...r.results.filter((x) => !x.code).map((x) => x.expanded));
    const table = document.createElement("table");
    table.className = "compare";
    table.innerHTML =
      "<thead><tr><th>Heuristic</th><th>Moves</th><th>Expanded</th><th></th><th>Generated</th><th>Time</th></tr></thead>";
    const body = document.createElement("tbody");
    for (const x of r.results) {
      const tr = document.createElement("tr");
      const name = document.createElement("td");
      name.textContent = x.heuristic;
      tr.appendChild(name);
      if (x.code) {
        const td = document.createElement("td");
        td.colSpan = 5;
        td.className = "err";
        td.textContent = x.error;
        tr.appendChild(td);
      } else {
        const cells = [String(x.length), x.expanded.toLocaleString("en"), null, x.generated.toLocaleString("en"), formatMs(x.time_ms)];
        for (const c of cells) {
          const td = document.createElement("td");
          if (c === null) {
            td.className = "bar-cell";
            const bar = document.createElement("div");
            bar.className = "bar";
            bar.style.width = `${(100 * x.expanded) / max}%`;
            td.appendChild(bar);
          } else {
            td.textContent = c;
          }
          tr.appendChild(td);
        }
      }
      body.appendChild(tr);
    }
    table.appendChild(body);
    out.innerHTML = "";
    out.appendChild(table);
  } catch (e) {
    out.innerHTML = "";
    const p = document.createElement("p");
    p.className = "status error";
    p.textContent = e.message;
    out.appendChild(p);
  } finally {
    render();
  }
}

// ---------- search tree ----------

const SVG_NS = "http://www.w3.org/2000/svg";
function svg(tag, attrs, parent) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (parent) parent.appendChild(el);
  return el;
}

async function drawTree() {
  const out = $("tree-result");
  out.innerHTML = '<p class="help">Searching…</p>';
  try {
    const t = await api("/api/trace", {
      board: lineOf(state.board, state.w),
      goal: lineOf(state.goal, state.w),
      heuristic: $("tree-heuristic").value,
      max_nodes: Number($("tree-nodes").value),
    });
    out.innerHTML = "";
    out.appendChild(treeLegend(t));
    out.appendChild(treeSvg(t));
  } catch (e) {
    out.innerHTML = "";
    const p = document.createElement("p");
    p.className = "status error";
    p.textContent = e.message;
    out.appendChild(p);
  }
}

function treeLegend(t) {
  const div = document.createElement("div");
  div.className = "tree-legend";
  const expanded = t.nodes.filter((n) => n.state === "expanded").length;
  const frontier = t.nodes.filter((n) => n.state === "frontier").length;
  const summary = t.complete && t.path.length
    ? `${t.nodes.length} nodes added, ${expanded} expanded, ${frontier} on the frontier; path of ${t.path.length - 1} moves: ${t.moves || "(none)"}`
    : `stopped after ${t.nodes.length} nodes (raise the limit to see the goal)`;
  div.innerHTML =
    '<span><i style="background:#fde68a"></i>expanded</span>' +
    '<span><i style="background:#fff;border:1.5px dashed #6b7280"></i>frontier</span>' +
    '<span><i style="background:#34d399"></i>final path</span>';
  const s = document.createElement("span");
  s.textContent = summary;
  div.appendChild(s);
  return div;
}

// A tidy layered layout: leaves get consecutive columns, a parent sits above the middle of its
// children. Nodes are mini boards labelled with their number and f = g + h.
function treeSvg(t) {
  const cell = 13;
  const bw = t.width * cell, bh = t.height * cell;
  const nodeW = Math.max(bw, 64) + 12, nodeH = bh + 44, gapY = 34;
  const children = new Map();
  for (const n of t.nodes) {
    if (n.parent !== null) {
      if (!children.has(n.parent)) children.set(n.parent, []);
      children.get(n.parent).push(n.id);
    }
  }
  const xs = new Array(t.nodes.length);
  let nextLeaf = 0;
  // Iterative post-order so that deep trees cannot overflow the call stack.
  const stack = [[0, false]];
  while (stack.length) {
    const [id, visited] = stack.pop();
    const kids = children.get(id) || [];
    if (!visited && kids.length) {
      stack.push([id, true]);
      for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i], false]);
    } else if (!kids.length) {
      xs[id] = nextLeaf++;
    } else {
      xs[id] = (xs[kids[0]] + xs[kids[kids.length - 1]]) / 2;
    }
  }
  const maxDepth = Math.max(...t.nodes.map((n) => n.g));
  const width = Math.max(1, nextLeaf) * nodeW + 20;
  const height = (maxDepth + 1) * (nodeH + gapY) + 10;
  const root = svg("svg", { width, height, viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": "A* search tree" });
  const px = (id) => 10 + xs[id] * nodeW + nodeW / 2;
  const py = (n) => 10 + n.g * (nodeH + gapY);
  const onPath = new Set(t.path);
  for (const n of t.nodes) {
    if (n.parent === null) continue;
    const p = t.nodes[n.parent];
    const path = onPath.has(n.id) && onPath.has(p.id);
    svg("line", {
      x1: px(p.id), y1: py(p) + nodeH - 4, x2: px(n.id), y2: py(n),
      stroke: path ? "#059669" : "#9ca3af", "stroke-width": path ? 3 : 1.2,
    }, root);
    svg("text", {
      x: (px(p.id) + px(n.id)) / 2 + 4, y: py(p) + nodeH + gapY / 2, "font-size": 10, fill: "#6b7280",
    }, root).textContent = n.move;
  }
  for (const n of t.nodes) {
    const g = svg("g", { transform: `translate(${px(n.id) - nodeW / 2 + 6},${py(n)})`, "data-node": n.id }, root);
    const fill = onPath.has(n.id) ? "#34d399" : n.state === "expanded" ? "#fde68a" : n.state === "goal" ? "#34d399" : "#fff";
    svg("rect", {
      x: 0, y: 0, width: nodeW - 12, height: nodeH - 4, rx: 6, fill,
      stroke: n.state === "frontier" ? "#6b7280" : "#374151",
      "stroke-dasharray": n.state === "frontier" ? "4 3" : "none", "stroke-width": 1.5,
    }, g);
    svg("text", { x: 5, y: 13, "font-size": 11, "font-weight": 700, fill: "#111827" }, g).textContent = `#${n.id}`;
    if (n.order !== null) {
      svg("text", { x: nodeW - 17, y: 13, "font-size": 9, fill: "#6b7280", "text-anchor": "end" }, g).textContent = `exp ${n.order + 1}`;
    }
    const ox = (nodeW - 12 - bw) / 2, oy = 18;
    n.tiles.forEach((tile, i) => {
      const x = ox + (i % t.width) * cell, y = oy + Math.floor(i / t.width) * cell;
      svg("rect", { x, y, width: cell - 1, height: cell - 1, fill: tile === 0 ? "#374151" : "#fff", stroke: "#d1d5db", "stroke-width": 0.5 }, g);
      if (tile !== 0) {
        svg("text", { x: x + cell / 2 - 0.5, y: y + cell - 3.5, "font-size": 9, "text-anchor": "middle", fill: "#111827" }, g).textContent = tileLabel(tile);
      }
    });
    svg("text", { x: (nodeW - 12) / 2, y: nodeH - 9, "font-size": 10, "text-anchor": "middle", fill: "#111827" }, g)
      .textContent = `f=${n.g}+${n.h}=${n.f}`;
  }
  return root;
}

// ---------- share link ----------

function readLink() {
  const params = new URLSearchParams(location.hash.slice(1));
  const b = params.get("board"), g = params.get("goal");
  const style = params.get("tiles");
  if (style === "letters" || style === "image") state.style = style;
  if (!b) return null;
  const pb = parseLocal(b);
  const pg = g ? parseLocal(g) : null;
  if (pb.error || (pg && pg.error)) return null;
  if (pb.w < 2 || pb.h < 2 || pb.w > 6 || pb.h > 6) return null;
  if (pg && (pg.w !== pb.w || pg.h !== pb.h)) return null;
  return { w: pb.w, h: pb.h, board: pb.tiles, goal: pg ? pg.tiles : solvedTiles(pb.w, pb.h) };
}

async function copyLink() {
  updateLink();
  try {
    await navigator.clipboard.writeText(location.href);
    setStatus("Link copied: it opens these two boards.", "ok");
  } catch (_) {
    setStatus(`Link to these boards: ${location.href}`, "ok");
  }
}

// ---------- start ----------

function fillSelect(select, names, chosen) {
  select.innerHTML = "";
  for (const name of names) {
    const o = document.createElement("option");
    o.value = name;
    o.textContent = name;
    select.appendChild(o);
  }
  if (chosen && names.includes(chosen)) select.value = chosen;
}

function closeCelebrate() {
  $("celebrate").hidden = true;
  resetPlay();
  render();
}

async function start() {
  makeView("board");
  makeView("goal");
  const linked = readLink();
  const initial = linked || { w: 3, h: 3, board: parseLocal(ARTICLE.board).tiles, goal: parseLocal(ARTICLE.goal).tiles };
  state.w = initial.w;
  state.h = initial.h;
  state.board = initial.board;
  state.goal = initial.goal;
  $("tile-style").value = state.style;
  applySpeed();
  render();

  try {
    state.info = await api("/api/info");
    const algs = state.info.algorithms.map((a) => a.name);
    fillSelect($("algorithm"), algs, "astar");
    fillSelect($("heuristic"), state.info.heuristics, "linear-conflict");
    fillSelect($("compare-algorithm"), algs.filter((a) => a !== "bfs"), "astar");
    fillSelect($("tree-heuristic"), state.info.heuristics, "manhattan");
    pickSolverForSize();
  } catch (e) {
    setStatus(e.message, "error");
  }
  validatePair();

  $("width").addEventListener("change", changeSize);
  $("height").addEventListener("change", changeSize);
  $("shuffle").addEventListener("click", shuffle);
  $("tile-style").addEventListener("change", () => {
    const v = $("tile-style").value;
    if (v === "custom") {
      $("image-file").click();
      if (!state.customImage) return;
    }
    state.style = v;
    render();
  });
  $("image-file").addEventListener("change", () => {
    const file = $("image-file").files[0];
    if (!file) {
      $("tile-style").value = state.style;
      return;
    }
    if (state.customImage) URL.revokeObjectURL(state.customImage);
    state.customImage = URL.createObjectURL(file);
    state.style = "custom";
    $("tile-style").value = "custom";
    render();
  });
  for (const which of ["board", "goal"]) {
    $(`edit-${which}`).addEventListener("click", () => toggleEdit(which));
    const input = $(`${which}-input`);
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter") applyTyped(which);
      if (e.key === "Escape") {
        input.blur();
        render();
      }
    });
    input.addEventListener("change", () => applyTyped(which));
  }
  $("undo").addEventListener("click", undo);
  $("hint").addEventListener("click", hint);
  $("share").addEventListener("click", copyLink);
  $("solve").addEventListener("click", solve);
  $("cancel").addEventListener("click", cancelSolve);
  $("step").addEventListener("click", () => {
    stopPlaying();
    solutionStep(1);
  });
  $("step-back").addEventListener("click", () => {
    stopPlaying();
    solutionStep(-1);
  });
  $("to-start").addEventListener("click", () => jumpTo(0));
  $("to-end").addEventListener("click", () => jumpTo(state.solution ? state.solution.moves.length : 0));
  $("play").addEventListener("click", togglePlay);
  $("speed").addEventListener("input", applySpeed);
  for (const id of ["algorithm", "heuristic"]) {
    $(id).addEventListener("change", () => (state.userPickedSolver = true));
  }
  $("compare").addEventListener("click", compare);
  $("tree").addEventListener("click", drawTree);
  $("celebrate-close").addEventListener("click", closeCelebrate);
  $("celebrate").addEventListener("click", (e) => {
    if (e.target === $("celebrate")) closeCelebrate();
  });
  window.addEventListener("resize", render);
  window.addEventListener("hashchange", () => {
    const l = readLink();
    if (l && (lineOf(l.board, l.w) !== lineOf(state.board, state.w) || lineOf(l.goal, l.w) !== lineOf(state.goal, state.w))) {
      state.w = l.w;
      state.h = l.h;
      boardsChanged(l.board, l.goal);
    }
  });
  document.body.dataset.ready = "true";
}

start();
