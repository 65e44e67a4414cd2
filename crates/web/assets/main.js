// taquin web game: the wiring. Plain ES modules, no build step: the server embeds each file as
// it is. Conventions shared with the server: a board is a row-major list of tiles with 0 for the
// blank, written as text "6 4 7/8 5 0/3 2 1"; a move letter names the direction the BLANK moves.

import {
  $, state, setRenderer, render, setStatus, setWaiting, statusShown, maxSide, keepingFocus, puzzleStart, plural,
  announce, savedSettings, saveSetting,
} from "./state.js";
import { lineOf, solvedTiles, same, parseBoard, squareIfOneLine, isPermutation, applyMoves } from "./board.js";
import { api, userMessage, sentence, siteInfo } from "./api.js";
import { makeBoardView, renderBoard, croppedPicture, tileLabel } from "./boardview.js";
import * as player from "./player.js";
import * as game from "./game.js";
import { solve, abandonSolve, setupSolveMenus, followTables } from "./solve.js";
import { compare, comparing, clearCompare, setupCompareMenu } from "./compare.js";
import * as tree from "./tree.js";

const ARTICLE = { board: "6 4 7/8 5 0/3 2 1", goal: "1 2 3/4 5 6/7 8 0" };
const views = {};

// ---------- drawing ----------

function picture() {
  const src = state.style === "image" ? "picture.svg" : state.style === "custom" ? state.customImage : null;
  return src ? croppedPicture(src, state.w, state.h, render) : null;
}

// A control the redraw disabled or hid passes a keyboard user's focus on.
const draw = () => keepingFocus(drawAll);

function drawAll() {
  const pic = picture();
  for (const which of ["board", "goal"]) {
    const tiles = which === "board" ? state.board : state.goal;
    renderBoard(views[which], tiles, state.w, state.h, {
      goal: state.goal,
      style: state.style,
      picture: pic,
      editing: state.editing[which],
      selected: state.selected && state.selected.which === which ? state.selected.cell : null,
      cursor: state.editing[which] ? cursorOf(which) : null,
      hinted: which === "board" ? game.hintedTile() : null,
    });
    // While the solver searches the tiles stay put (its answer is for this board): no pointer.
    views[which].el.classList.toggle("playable", which === "board" && !state.editing.board && !state.busy);
    const input = $(`${which}-input`);
    if (document.activeElement !== input) {
      input.value = lineOf(tiles, state.w);
      input.classList.remove("invalid");
      input.removeAttribute("aria-invalid");
    }
  }
  views.board.el.dataset.solved = String(same(state.board, state.goal));
  // The goal is reached by Tab only while it is edited: otherwise no key acts on it.
  $("goal").tabIndex = state.editing.goal ? 0 : -1;
  game.renderCounters();
  $("width").value = String(state.w);
  $("height").value = String(state.h);
  $("tile-style").value = state.style;
  const small = state.w * state.h <= (state.info ? state.info.limits.trace_max_cells : 16);
  // Until the solver has answered (in a static folder, until its WebAssembly is downloaded),
  // what asks it waits: the boards are played meanwhile.
  const waiting = state.loading;
  $("tree").disabled = !small || state.busy || !!state.pairError || waiting;
  if (tree.tracing()) $("tree").setAttribute("aria-disabled", "true");
  else $("tree").removeAttribute("aria-disabled");
  $("tree-size-note").hidden = small;
  $("solve").disabled = state.busy || !!state.pairError || waiting;
  $("hint").disabled = state.busy || !!state.pairError || same(state.board, state.goal) || game.hinting() || waiting;
  $("compare").disabled = state.busy || !!state.pairError || comparing() || waiting;
  $("shuffle").disabled = state.busy || waiting;
  const pair = `${lineOf(puzzleStart(), state.w)}|${lineOf(state.goal, state.w)}`;
  const compared = $("compare-result").dataset.pair;
  $("compare-stale").hidden = !compared || compared === pair;
  $("tree-stale").hidden = !tree.treeStale(pair);
  player.renderSolution();
  updateLink();
}

// ---------- the address: boards, and moves to replay ----------

function updateLink() {
  const params = new URLSearchParams();
  params.set("board", lineOf(state.board, state.w).replace(/ /g, ","));
  params.set("goal", lineOf(state.goal, state.w).replace(/ /g, ","));
  const sol = state.solution;
  if (sol && sol.moves) {
    // The replay starts from the solution's own start, whatever step the player is on.
    params.set("board", lineOf(sol.start, state.w).replace(/ /g, ","));
    params.set("moves", sol.moves);
  }
  if (state.style === "letters" || state.style === "image") params.set("tiles", state.style);
  const hash = `#${params.toString().replace(/%2C/g, ",").replace(/%2F/g, "/")}`;
  if (location.hash !== hash) history.replaceState(null, "", hash);
}

/**
 * The boards (and moves) an address carries; null when it carries none, {error} (why, in a
 * player's words) when it carries boards the page cannot open.
 */
function readLink() {
  const params = new URLSearchParams(location.hash.slice(1));
  const b = params.get("board"), g = params.get("goal");
  // A goal by name (as --goal takes it), laid out by the server on the board's size.
  const goalName = g && GOAL_NAME.test(g.trim()) ? g.trim().toLowerCase() : null;
  if (!b) return null;
  // One line of k*k tiles (an instance file's line, pasted into an address) is a k x k board.
  const pb = squareIfOneLine(parseBoard(b));
  const pg = g && !goalName ? squareIfOneLine(parseBoard(g)) : null;
  if (pb.error) return { error: `its board: ${pb.error}` };
  if (pg && pg.error) return { error: `its goal: ${pg.error}` };
  const max = maxSide();
  if (pb.w < 2 || pb.h < 2 || pb.w > max || pb.h > max) {
    return { error: `its board is ${pb.w}x${pb.h}, and boards from 2x2 to ${max}x${max} are played here` };
  }
  if (pg && (pg.w !== pb.w || pg.h !== pb.h)) return { error: `its goal is ${pg.w}x${pg.h} and its board ${pb.w}x${pb.h}` };
  if (!isPermutation(pb.tiles) || (pg && !isPermutation(pg.tiles))) {
    return { error: `every tile from 0 to ${pb.tiles.length - 1} must appear once in each board` };
  }
  const moves = (params.get("moves") || "").toUpperCase();
  const goal = pg ? pg.tiles : solvedTiles(pb.w, pb.h);
  const legal = /^[UDLR]*$/.test(moves) && applyMoves(pb.tiles, pb.w, pb.h, moves) !== null;
  return { w: pb.w, h: pb.h, board: pb.tiles, goal, goalName, moves: legal && moves ? moves : null, badMoves: !!moves && !legal };
}

/** The goal names `--goal` takes; the server lays them out on any size. */
const GOAL_NAME = /^(standard|korf|snail)$/i;

/**
 * The tiles of the goal named `name` on a w x h board (the server's layout of it, the same as
 * the command line's), checked against `board`.
 */
async function namedGoal(name, board, w) {
  await solverReady;
  const v = await api("/api/validate", { board: lineOf(board, w), goal: name });
  return v.goal.tiles;
}

/** Why a link's boards were not opened. */
const linkRefused = (link) => `The link's boards could not be opened: ${link.error}.`;

/** The tile styles a link may name (tiles=); the player's own picture cannot travel in one. */
const LINKED_STYLES = ["numbers", "letters", "image"];

/**
 * Shows the tiles in the style the address names, else in the player's own (saved) style: a
 * link without tiles= means the player's usual tiles, not those of the link opened before it.
 */
function followTileStyle() {
  const named = new URLSearchParams(location.hash.slice(1)).get("tiles");
  const own = savedSettings().tiles;
  // The player's own picture lasts as long as the page that was given it.
  const usable = own === "custom" ? !!state.customImage : LINKED_STYLES.includes(own);
  state.style = LINKED_STYLES.includes(named) ? named : usable ? own : "numbers";
}

/**
 * Opens what the address says, on a page load and on every change of the address alike: its
 * boards (or the usual ones, saying why the link's could not be opened), its moves, its tiles.
 */
async function followAddress() {
  followTileStyle();
  const link = readLink();
  if (link && !link.error) {
    await openLink(link);
    return;
  }
  state.w = 3;
  state.h = 3;
  await boardsChanged(parseBoard(ARTICLE.board).tiles, parseBoard(ARTICLE.goal).tiles);
  if (link && link.error) setStatus(`${linkRefused(link)} The usual board is shown instead.`, "error");
}

async function openLink(link) {
  if (link.goalName) {
    try {
      link.goal = await namedGoal(link.goalName, link.board, link.w);
    } catch (e) {
      setStatus(`The link's goal could not be laid out: ${userMessage(e)}`, "error");
      return;
    }
  }
  state.w = link.w;
  state.h = link.h;
  // The link's own message comes after the one the validation may give.
  await boardsChanged(link.board, link.goal);
  // Why the pair cannot be solved stays first, as for a board typed in.
  const why = state.pairError ? `${state.pairError} ` : "";
  if (link.moves) {
    player.loadSolution(link.moves, link.board, null);
    render();
    const n = link.moves.length;
    const reaches = same(applyMoves(link.board, link.w, link.h, link.moves), link.goal);
    const misses = reaches ? "" : ` (${n === 1 ? "it does" : "they do"} not reach the goal)`;
    setStatus(`${why}A replay of ${plural(n, "move")} from the link${misses}: press Step or Play.`, why ? "error" : "ok");
    player.showPlayerWithBoard();
    $("step").focus({ preventScroll: true });
  } else if (link.badMoves) {
    setStatus(`${why}The link's moves do not fit this board: only the boards were opened.`, "error");
  }
}

async function copyLink() {
  updateLink();
  const what = state.solution ? "these boards and the solution" : "these two boards";
  try {
    await navigator.clipboard.writeText(location.href);
    setStatus(`Link copied: it opens ${what}.`, "ok");
  } catch (_) {
    setStatus(`Link to ${what}: ${location.href}`, "ok");
  }
}

// ---------- boards change ----------

let validateSeq = 0;

// Every change of either board goes through here: what depended on the old pair goes, and the
// server says whether the new pair is solvable, so an unsolvable pair is refused before any
// search.
function boardsChanged(board, goal) {
  abandonSolve();
  player.dropSolution();
  game.clearHint();
  state.board = board;
  state.goal = goal;
  // A comparison or a tree of the old boards beside the new ones would lie.
  clearCompare();
  tree.clearTree();
  game.resetPlay();
  render();
  return validatePair();
}

async function validatePair() {
  const seq = ++validateSeq;
  const body = { board: lineOf(state.board, state.w), goal: lineOf(state.goal, state.w) };
  await solverReady;
  if (seq !== validateSeq) return;
  // A message shown while the answer was on its way (a board typed meanwhile and refused) is
  // newer than this answer: it keeps the status line.
  const shown = statusShown();
  const say = (text, kind) => {
    if (statusShown() === shown) setStatus(text, kind);
  };
  try {
    const v = await api("/api/validate", body);
    if (seq !== validateSeq) return;
    const refused = state.pairError;
    state.pairError = v.solvable ? null : sentence(v.reason);
    if (!v.solvable) say(state.pairError, "error");
    else if (same(state.board, state.goal)) say("The board is the goal.");
    // The line still says why the last pair was refused: take it back, and say so.
    else if (refused) say("These boards can be solved: Solve is ready.", "ok");
  } catch (e) {
    if (seq !== validateSeq) return;
    state.pairError = userMessage(e);
    say(state.pairError, "error");
  }
  render();
  game.refreshDistance();
}

function markInvalid(input) {
  input.classList.add("invalid");
  input.setAttribute("aria-invalid", "true");
}

function applyTyped(which) {
  const input = $(`${which}-input`);
  // Enter and the change that follows it are one edit: validate it once.
  if (input.dataset.applied === input.value) return;
  input.dataset.applied = input.value;
  if (which === "goal" && GOAL_NAME.test(input.value.trim())) {
    applyGoalName(input);
    return;
  }
  const parsed = parseBoard(input.value);
  const max = maxSide();
  if (parsed.error || !isPermutation(parsed.tiles)) {
    markInvalid(input);
    showServerParseError(which, input.value);
    return;
  }
  if (parsed.h === 1) {
    // One line of tiles, as instance files and papers write a board.
    const square = squareIfOneLine(parsed);
    if (square.error) {
      markInvalid(input);
      setStatus(`${which === "board" ? "Initial board" : "Goal"}: ${square.error}`, "error");
      return;
    }
    if (square.h !== parsed.h) {
      Object.assign(parsed, square);
      input.value = lineOf(parsed.tiles, parsed.w);
      input.dataset.applied = input.value;
    }
  }
  if (parsed.w < 2 || parsed.h < 2 || parsed.w > max || parsed.h > max) {
    markInvalid(input);
    setStatus(`${which === "board" ? "Initial board" : "Goal"}: boards from 2x2 to ${max}x${max} are played here.`, "error");
    return;
  }
  let board = which === "board" ? parsed.tiles : state.board;
  let goal = which === "goal" ? parsed.tiles : state.goal;
  const resized = parsed.w !== state.w || parsed.h !== state.h;
  if (resized) {
    // A new size: a board typed in gets the usual goal of its size; a goal typed in, a board
    // shuffled from it (the goal itself until the shuffle comes, so the pair is always
    // solvable), as a new size chosen in the menus does.
    state.w = parsed.w;
    state.h = parsed.h;
    if (which === "board") goal = solvedTiles(parsed.w, parsed.h);
    else board = parsed.tiles.slice();
  }
  input.blur();
  boardsChanged(board, goal);
  if (resized && which === "goal") shuffle(`The size changed to ${parsed.w}x${parsed.h} to fit the goal. `);
}

// A goal typed by name (standard, korf, snail): laid out on the board's size.
async function applyGoalName(input) {
  const board = state.board;
  try {
    const goal = await namedGoal(input.value.trim().toLowerCase(), board, state.w);
    // Boards changed meanwhile: this goal is no longer theirs.
    if (state.board !== board) return;
    input.blur();
    boardsChanged(board, goal);
  } catch (e) {
    markInvalid(input);
    setStatus(`Goal: ${userMessage(e)}`, "error");
  }
}

// The server's parser gives the precise message (which row, which token, which tile).
async function showServerParseError(which, text) {
  const name = which === "board" ? "Initial board" : "Goal";
  try {
    await solverReady;
    await api("/api/validate", { board: text });
    setStatus(`${name}: every tile from 0 to ${state.w * state.h - 1} must appear once.`, "error");
  } catch (e) {
    // The server names the field ("board: row 2 has ...", which userMessage capitalises): the
    // page names the board itself. A word typed as a goal is most likely a name misspelt.
    const why = userMessage(e).replace(/^(board|goal): /i, "");
    const names = which === "goal" && /^[a-z]+$/i.test(text.trim())
      ? " Goals by name: standard, korf or snail."
      : "";
    setStatus(`${name}: ${why}${names}`, "error");
  }
}

// ---------- editing: two tiles swapped, by pointer or by keys ----------

function toggleEdit(which) {
  state.editing[which] = !state.editing[which];
  state.selected = null;
  state.cursor[which] = 0;
  // The button keeps its name: aria-pressed says whether the board is being edited, and a name
  // that changed with it ("Done, pressed") would contradict it.
  $(`edit-${which}`).setAttribute("aria-pressed", String(state.editing[which]));
  if (state.editing[which]) {
    setStatus("Editing: click two tiles or drag one onto another to swap them; on the focused board, " +
      "the arrow keys and Enter (or Space) on each tile do the same.");
  }
  render();
}

/** The cell the keys are on in `which`, kept on the board when its size changed. */
const cursorOf = (which) => Math.min(state.cursor[which], state.w * state.h - 1);

/** What a screen reader hears of a cell while editing. */
function cellWords(which, cell) {
  const t = (which === "board" ? state.board : state.goal)[cell];
  return t === 0 ? "the blank" : tileLabel(t, state.style);
}

/**
 * Edit mode's keys on a board: the arrows go from tile to tile, Enter or Space takes the tile
 * there (the first of a swap, then the second, which swaps them), Escape lets the first go.
 * Each is said, since the keys move no tile that a screen reader would hear of otherwise.
 */
function onEditKey(which, e) {
  const at = cursorOf(which);
  const x = at % state.w, y = Math.floor(at / state.w);
  const to = { ArrowUp: [x, y - 1], ArrowDown: [x, y + 1], ArrowLeft: [x - 1, y], ArrowRight: [x + 1, y] }[e.key];
  if (to) {
    const [nx, ny] = to;
    if (nx >= 0 && ny >= 0 && nx < state.w && ny < state.h) state.cursor[which] = ny * state.w + nx;
    const cell = state.cursor[which];
    const picked = state.selected && state.selected.which === which && state.selected.cell === cell ? ", picked" : "";
    announce(`${cellWords(which, cell)}${picked}, row ${Math.floor(cell / state.w) + 1}, column ${(cell % state.w) + 1}`);
    render();
  } else if (e.key === "Enter" || e.key === " ") {
    const sel = state.selected && state.selected.which === which ? state.selected.cell : null;
    if (sel === null) announce(`${cellWords(which, at)} picked: go to the other tile and press Enter to swap them`);
    else if (sel === at) announce(`${cellWords(which, at)} let go`);
    else announce(`${cellWords(which, sel)} and ${cellWords(which, at)} swapped`);
    tapInEditor(which, at);
  } else if (e.key === "Escape" && state.selected && state.selected.which === which) {
    announce(`${cellWords(which, state.selected.cell)} let go`);
    state.selected = null;
    render();
  } else {
    return;
  }
  e.preventDefault();
}

function tapInEditor(which, cell) {
  // The keys go on from the tile last touched.
  state.cursor[which] = cell;
  const sel = state.selected;
  if (sel && sel.which === which && sel.cell !== cell) {
    state.selected = null;
    swapCells(which, sel.cell, cell);
  } else {
    state.selected = sel && sel.which === which ? null : { which, cell };
    render();
  }
}

function swapCells(which, a, b) {
  const tiles = (which === "board" ? state.board : state.goal).slice();
  [tiles[a], tiles[b]] = [tiles[b], tiles[a]];
  boardsChanged(which === "board" ? tiles : state.board, which === "goal" ? tiles : state.goal);
}

// ---------- size and shuffle ----------

/** A new board shuffled from the goal; `why`, when given, starts the status that says so. */
async function shuffle(why = "") {
  await solverReady;
  const [method, moves] = $("difficulty").value.split(":");
  const body = { goal: lineOf(state.goal, state.w), method };
  if (method === "walk") body.moves = Number(moves);
  const asked = { w: state.w, h: state.h, goal: body.goal };
  try {
    let g = await api("/api/generate", body);
    // On a 2x2 board one uniform draw in twelve is the goal itself: a shuffle should not be.
    for (let i = 0; i < 8 && g.board === body.goal; i++) g = await api("/api/generate", body);
    // A size or goal changed while the server shuffled: this board belongs to the old one.
    if (state.w !== asked.w || state.h !== asked.h || lineOf(state.goal, state.w) !== asked.goal) return;
    boardsChanged(parseBoard(g.board).tiles, state.goal);
    setStatus(`${why}Shuffled ${method === "walk" ? `with ${moves} random moves` : "uniformly at random"}.`);
  } catch (e) {
    setStatus(userMessage(e), "error");
  }
}

async function changeSize() {
  const w = Number($("width").value), h = Number($("height").value);
  state.w = w;
  state.h = h;
  state.editing = { board: false, goal: false };
  state.selected = null;
  for (const which of ["board", "goal"]) $(`edit-${which}`).setAttribute("aria-pressed", "false");
  boardsChanged(solvedTiles(w, h), solvedTiles(w, h));
  await shuffle();
}

function fillSizes() {
  for (const id of ["width", "height"]) {
    const select = $(id);
    select.textContent = "";
    for (let n = 2; n <= maxSide(); n++) {
      const o = document.createElement("option");
      o.textContent = String(n);
      select.appendChild(o);
    }
  }
}

// ---------- keyboard ----------

const isField = (el) => ["input", "select", "textarea"].includes((el.tagName || "").toLowerCase());

function onBoardKey(which, e) {
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  if (state.editing[which]) {
    onEditKey(which, e);
    return;
  }
  // An arrow slides the tile that can go that way; it acts only while the board has focus.
  const dir = { ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right" }[e.key];
  if (dir && which === "board") {
    game.slideTile(dir);
    e.preventDefault();
  }
}

function onPageKey(e) {
  // A key a board took (Space picking a tile while editing) is not the player's too.
  if (e.defaultPrevented || isField(e.target) || $("celebrate").open) return;
  if ((e.key === "z" || e.key === "Z") && (e.ctrlKey || e.metaKey)) {
    game.undo();
    e.preventDefault();
    return;
  }
  // Space, Home and End drive the solution player, except where they already mean something.
  const tag = (e.target.tagName || "").toLowerCase();
  if (!state.solution || tag === "button" || e.target.closest(".tree-view")) return;
  if (e.key === " ") player.togglePlay();
  else if (e.key === "Home") player.jumpTo(0);
  else if (e.key === "End") player.jumpTo(state.solution.moves.length);
  else return;
  e.preventDefault();
}

// ---------- start ----------

function setupTileStyle() {
  $("tile-style").addEventListener("change", () => {
    const v = $("tile-style").value;
    if (v === "custom") {
      $("image-file").click();
      if (!state.customImage) {
        // Until a picture is chosen the tiles keep their style, and so does the menu: a
        // cancelled picker fires no event, and the menu left on "My picture…" could not
        // open it again. The picker's change sets the menu to the picture.
        $("tile-style").value = state.style;
        return;
      }
    }
    state.style = v;
    saveSetting("tiles", v);
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
    saveSetting("tiles", "custom");
    render();
  });
}

function setupBoards() {
  views.board = makeBoardView($("board"), "board", {
    active: () => true,
    editing: () => state.editing.board,
    tap: (cell) => (state.editing.board ? tapInEditor("board", cell) : game.slideToCell(cell)),
    drag: (a, b) => {
      state.selected = null;
      swapCells("board", a, b);
    },
    swipe: (dir) => game.slideTile(dir),
  });
  views.goal = makeBoardView($("goal"), "goal", {
    // The goal is only touched while edited; otherwise the page scrolls over it as usual.
    active: () => state.editing.goal,
    editing: () => state.editing.goal,
    tap: (cell) => tapInEditor("goal", cell),
    drag: (a, b) => {
      state.selected = null;
      swapCells("goal", a, b);
    },
    swipe: () => {},
  });
  for (const which of ["board", "goal"]) {
    $(which).addEventListener("keydown", (e) => onBoardKey(which, e));
    $(`edit-${which}`).addEventListener("click", () => toggleEdit(which));
    const input = $(`${which}-input`);
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter") applyTyped(which);
      if (e.key === "Escape") {
        input.blur();
        render();
      }
    });
    input.addEventListener("input", () => delete input.dataset.applied);
    input.addEventListener("change", () => applyTyped(which));
    // A one-line box drops a pasted board's line breaks: they become the rows' slashes.
    input.addEventListener("paste", (e) => {
      const text = e.clipboardData && e.clipboardData.getData("text");
      if (!text || !/\n/.test(text.trim())) return;
      e.preventDefault();
      const rows = text.split(/\r?\n/).map((r) => r.replace(/#.*/, "").trim()).filter((r) => r);
      // The n-puzzle file format starts with the size alone on its line.
      if (rows.length > 1 && /^\d+$/.test(rows[0]) && Number(rows[0]) === rows.length - 1) rows.shift();
      input.setRangeText(rows.join("/"), input.selectionStart, input.selectionEnd, "end");
      input.dispatchEvent(new Event("input"));
    });
  }
}

function setupControls() {
  $("width").addEventListener("change", changeSize);
  $("height").addEventListener("change", changeSize);
  $("shuffle").addEventListener("click", () => shuffle());
  $("notation").addEventListener("change", () => {
    state.notation = $("notation").value;
    saveSetting("notation", state.notation);
    render();
  });
  $("difficulty").addEventListener("change", () => saveSetting("difficulty", $("difficulty").value));
  $("undo").addEventListener("click", game.undo);
  $("hint").addEventListener("click", game.hint);
  $("share").addEventListener("click", copyLink);
  $("show-distance").addEventListener("change", () => {
    saveSetting("distance", $("show-distance").checked);
    game.refreshDistance();
  });
  $("solve").addEventListener("click", solve);
  $("step").addEventListener("click", () => {
    player.stopPlaying();
    player.step(1);
  });
  $("step-back").addEventListener("click", () => {
    player.stopPlaying();
    player.step(-1);
  });
  $("to-start").addEventListener("click", () => player.jumpTo(0));
  $("to-end").addEventListener("click", () => player.jumpTo(state.solution ? state.solution.moves.length : 0));
  $("play").addEventListener("click", player.togglePlay);
  $("speed").addEventListener("input", player.applySpeed);
  $("moves-text").addEventListener("keydown", player.onMovesKey);
  $("compare").addEventListener("click", compare);
  $("compare-redo").addEventListener("click", compare);
  $("tree").addEventListener("click", tree.drawTree);
  $("tree-redo").addEventListener("click", tree.drawTree);
  $("tree-step").addEventListener("click", () => tree.treeStep(1));
  $("tree-back").addEventListener("click", () => tree.treeStep(-1));
  $("tree-start").addEventListener("click", () => tree.treeJump("start"));
  $("tree-end").addEventListener("click", () => tree.treeJump("end"));
  $("tree-play").addEventListener("click", tree.treePlay);
  $("tree-zoom-in").addEventListener("click", () => tree.zoom(1.25));
  $("tree-zoom-out").addEventListener("click", () => tree.zoom(0.8));
  $("tree-fit").addEventListener("click", tree.fit);
  game.setupDialog(shuffle);
  document.addEventListener("keydown", onPageKey);
  window.addEventListener("resize", render);
  // The page's own changes of the address (updateLink) replace it and fire no hashchange: this
  // is a link followed or an address edited, opened as a fresh load of it would be.
  window.addEventListener("hashchange", () => {
    setStatus("");
    followAddress();
  });
}

/** The settings this browser saved (Moves as, Shuffle, Moves to goal) back in their controls. */
function restoreSettings() {
  const saved = savedSettings();
  const offered = (id, value) => [...$(id).options].some((o) => o.value === value);
  if (offered("notation", saved.notation)) state.notation = $("notation").value = saved.notation;
  if (offered("difficulty", saved.difficulty)) $("difficulty").value = saved.difficulty;
  if (typeof saved.distance === "boolean") $("show-distance").checked = saved.distance;
}

// The solver's first answer (/api/info). The boards are drawn before it, and every question
// to the solver waits for it: in a static folder it is the WebAssembly module's download, which
// takes seconds on a slow network, and the worker that fetched it once answers the next ones.
let solverLoaded;
const solverReady = new Promise((resolve) => (solverLoaded = resolve));

/** Asks the solver what it offers, saying meanwhile that it loads; then lets the page ask it. */
async function loadSolver() {
  const site = await siteInfo();
  // A static host has no JSON API for the footer to point to.
  $("api-note").hidden = site.mode !== "server";
  const started = performance.now();
  let loading = "";
  if (site.mode === "static") {
    const size = site.solver_bytes > 0 ? ` (${(site.solver_bytes / 1e6).toFixed(1)} MB)` : "";
    loading = `Loading the solver${size}…`;
    setWaiting(loading);
  }
  try {
    state.info = await api("/api/info");
    fillSizes();
    setupSolveMenus(state.info);
    setupCompareMenu(state.info);
    tree.setupTreeMenus(state.info);
    followTables(state.info);
    // A wait long enough to be noticed ends with the words that it did; a short one quietly.
    const shown = $("status").textContent === loading;
    setWaiting("");
    if (loading && shown && performance.now() - started > 1000) setStatus("The solver is ready.");
  } catch (e) {
    setWaiting("");
    setStatus(userMessage(e), "error");
  }
  state.loading = false;
  render();
  solverLoaded();
}

async function start() {
  setRenderer(draw);
  setupBoards();
  fillSizes();
  restoreSettings();
  setupTileStyle();
  setupControls();
  player.applySpeed();
  state.loading = true;
  // Drawn at once (the address's boards, or the usual ones); checked once the solver answers.
  const shown = followAddress();
  await loadSolver();
  await shown;
  document.body.dataset.ready = "true";
}

start();
