// One board on screen. Two layers: the tiles a person sees, absolutely placed so that a move
// slides (aria-hidden), and above them a grid of rows and cells in BOARD order that screen
// readers read (role=grid/row/gridcell). The cells never move, only their text changes, so
// after any move a screen reader reads the tiles in the order they now stand. Each cell lies
// exactly over the tile it names, transparent: a finger exploring the board with a screen
// reader on a touch screen hears the tile under it, and activates that tile.

import { lineOf } from "./board.js";

const SWIPE_PX = 24;
// A swipe must be clearly along one axis: a diagonal gesture is ignored rather than guessed.
const AXIS_RATIO = 1.5;

/**
 * What tile `t` shows and a screen reader reads: its number, or in the letters style its name
 * as spreadsheets name columns: A to Z, then AA to AZ, BA to BK on an 8x8 board's 63 tiles
 * (and on, for larger boards). Capitals only, so that no two tiles differ by case alone, which
 * a screen reader does not say.
 */
export function tileLabel(t, style) {
  if (style !== "letters" || t < 1) return String(t);
  let name = "";
  for (let n = t; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

// ---------- pictures, cropped to the board's shape ----------

const crops = new Map(); // "src|w|h" -> data URL, or "pending"

/**
 * The picture cut to the board's proportions (centre crop, as object-fit: cover does), so a
 * photo is never stretched; null while it loads, and `ready` is called once it is there.
 */
export function croppedPicture(src, w, h, ready) {
  const key = `${src}|${w}|${h}`;
  const known = crops.get(key);
  if (known && known !== "pending") return known;
  if (known === "pending") return null;
  crops.set(key, "pending");
  const img = new Image();
  img.onload = () => {
    // A picture without a size of its own (an SVG with only a viewBox) is taken as square.
    let source = img;
    if (!img.naturalWidth || !img.naturalHeight) {
      source = document.createElement("canvas");
      source.width = source.height = 600;
      source.getContext("2d").drawImage(img, 0, 0, 600, 600);
    }
    const iw = source.naturalWidth || source.width, ih = source.naturalHeight || source.height;
    const want = w / h;
    let sw = iw, sh = iw / want;
    if (sh > ih) {
      sh = ih;
      sw = ih * want;
    }
    const scale = Math.min(1, 900 / Math.max(sw, sh));
    const canvas = document.createElement("canvas");
    canvas.width = Math.max(1, Math.round(sw * scale));
    canvas.height = Math.max(1, Math.round(sh * scale));
    canvas.getContext("2d").drawImage(source, (iw - sw) / 2, (ih - sh) / 2, sw, sh, 0, 0, canvas.width, canvas.height);
    crops.set(key, canvas.toDataURL("image/png"));
    ready();
  };
  img.onerror = () => crops.delete(key);
  img.src = src;
  return null;
}

// ---------- the view ----------

export function makeBoardView(el, which, handlers) {
  el.textContent = "";
  const layer = document.createElement("div");
  layer.className = "tiles";
  layer.setAttribute("aria-hidden", "true");
  el.appendChild(layer);
  // pressed: a pointer went down on the board since its last click, whose tap it then was.
  const view = { el, which, layer, tiles: new Map(), rows: [], cells: [], handlers, pressed: false };
  el.addEventListener("pointerdown", (e) => onPointerDown(view, e));
  el.addEventListener("click", (e) => onCellClick(view, e));
  return view;
}

function ensureCells(view, w, h) {
  if (view.rows.length === h && view.cells.length === w * h) return;
  for (const r of view.rows) r.remove();
  view.rows = [];
  view.cells = [];
  for (let y = 0; y < h; y++) {
    const row = document.createElement("div");
    row.setAttribute("role", "row");
    row.className = "cell-row";
    row.style.top = `${(100 * y) / h}%`;
    row.style.height = `${100 / h}%`;
    for (let x = 0; x < w; x++) {
      const cell = document.createElement("div");
      cell.setAttribute("role", "gridcell");
      cell.className = "cell";
      // The words are read, not shown: the tile under the cell shows them.
      const words = document.createElement("span");
      words.className = "sr-only";
      cell.appendChild(words);
      row.appendChild(cell);
      view.cells.push(cell);
    }
    view.el.appendChild(row);
    view.rows.push(row);
  }
}

/**
 * Draws `tiles` (w x h). opts: goal (for the picture pieces and the "in place" mark), style,
 * picture (a cropped picture URL or null), editing, selected (cell), cursor (the cell the keys
 * are on while editing, or null), hinted (tile).
 */
export function renderBoard(view, tiles, w, h, opts) {
  const el = view.el;
  el.style.setProperty("--w", w);
  el.style.setProperty("--h", h);
  el.dataset.line = lineOf(tiles, w);
  el.classList.toggle("editing", !!opts.editing);
  const goalCell = new Map(opts.goal.map((t, i) => [t, i]));
  // The number's size follows the tile's smaller side, so tall and wide boards read alike.
  const tile = Math.min((el.clientWidth || 300) / w, (el.clientHeight || 300) / h);
  el.style.setProperty("--tile-font", `${Math.max(0.8, Math.min(2.2, tile / 38))}rem`);
  ensureCells(view, w, h);
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
      view.layer.appendChild(tileEl);
      view.tiles.set(t, tileEl);
    }
    const x = cell % w, y = Math.floor(cell / w);
    tileEl.style.width = `${100 / w}%`;
    tileEl.style.height = `${100 / h}%`;
    tileEl.style.transform = `translate(${x * 100}%, ${y * 100}%)`;
    tileEl.dataset.tile = String(t);
    tileEl.dataset.cell = String(cell);
    const home = t !== 0 && goalCell.get(t) === cell;
    tileEl.classList.toggle("blank", t === 0);
    tileEl.classList.toggle("home", home);
    tileEl.classList.toggle("image", !!opts.picture && t !== 0);
    tileEl.classList.toggle("selected", opts.selected === cell);
    tileEl.classList.toggle("cursor", opts.cursor === cell);
    tileEl.classList.toggle("hinted", t !== 0 && opts.hinted === t);
    const face = tileEl.firstChild;
    const label = tileLabel(t, opts.style);
    if (t === 0) {
      face.textContent = "";
      face.style.backgroundImage = "";
    } else if (opts.picture) {
      // The picture is cut by the goal: each tile shows the piece of its goal cell.
      const gc = goalCell.get(t) ?? 0;
      const gx = gc % w, gy = Math.floor(gc / w);
      face.style.backgroundImage = `url("${opts.picture}")`;
      face.style.backgroundSize = `${w * 100}% ${h * 100}%`;
      face.style.backgroundPosition = `${w > 1 ? (gx * 100) / (w - 1) : 0}% ${h > 1 ? (gy * 100) / (h - 1) : 0}%`;
      if (face.textContent !== label || !face.firstChild || face.firstChild.nodeType !== 1) {
        face.textContent = "";
        const small = document.createElement("span");
        small.textContent = label;
        face.appendChild(small);
      }
    } else {
      face.style.backgroundImage = "";
      face.textContent = label;
    }
    const c = view.cells[cell];
    const words = t === 0 ? "blank" : `${label}${opts.hinted === t ? ", hint: slide this tile" : ""}`;
    if (c.textContent !== words) c.firstChild.textContent = words;
    c.classList.toggle("blank", t === 0);
    c.setAttribute("aria-selected", String(opts.selected === cell));
  });
  for (const [t, tileEl] of view.tiles) {
    if (!seen.has(t)) {
      tileEl.remove();
      view.tiles.delete(t);
    }
  }
}

// ---------- pointer: tap, swipe, drag ----------

let pointer = null;

function onPointerDown(view, e) {
  view.pressed = true;
  if (e.button !== undefined && e.button !== 0) return;
  // A board that no gesture acts on leaves the pointer to the page (scrolling, selecting).
  if (!view.handlers.active()) return;
  pointer = { view, x: e.clientX, y: e.clientY, cell: cellAt(view, e.clientX, e.clientY) };
  view.el.focus({ preventScroll: true });
  e.preventDefault();
}

/**
 * A cell activated without a pointer press (a screen reader's double tap, which TalkBack and
 * VoiceOver may send as a click alone, or a switch device): the tap the pointer would have made
 * on it. A pointer's own click (detail 1 or more, after its press) was already its tap.
 */
function onCellClick(view, e) {
  const pressed = view.pressed;
  view.pressed = false;
  if (pressed && e.detail !== 0) return;
  const cell = view.cells.indexOf(e.target.closest("[role=gridcell]"));
  if (cell >= 0 && view.handlers.active()) view.handlers.tap(cell);
}

function cellAt(view, clientX, clientY) {
  const r = view.el.getBoundingClientRect();
  if (clientX < r.left || clientY < r.top || clientX >= r.right || clientY >= r.bottom) return null;
  const w = view.cells.length / view.rows.length, h = view.rows.length;
  const x = Math.floor(((clientX - r.left) / r.width) * w);
  const y = Math.floor(((clientY - r.top) / r.height) * h);
  return y * w + x;
}

document.addEventListener("pointermove", (e) => {
  if (!pointer || !pointer.view.handlers.editing()) return;
  const cell = cellAt(pointer.view, e.clientX, e.clientY);
  for (const t of pointer.view.tiles.values()) {
    t.classList.toggle("drop-target", cell !== null && cell !== pointer.cell && Number(t.dataset.cell) === cell);
  }
});

const endPointer = (e) => {
  if (!pointer) return;
  const p = pointer;
  pointer = null;
  for (const t of p.view.tiles.values()) t.classList.remove("drop-target");
  if (e.type === "pointercancel") return;
  const dx = e.clientX - p.x, dy = e.clientY - p.y;
  const far = Math.hypot(dx, dy) > SWIPE_PX;
  const h = p.view.handlers;
  if (h.editing()) {
    const to = cellAt(p.view, e.clientX, e.clientY);
    if (p.cell === null) return;
    if (far && to !== null && to !== p.cell) h.drag(p.cell, to);
    else if (!far) h.tap(p.cell);
    return;
  }
  if (!far) {
    if (p.cell !== null) h.tap(p.cell);
    return;
  }
  const ax = Math.abs(dx), ay = Math.abs(dy);
  if (ax >= AXIS_RATIO * ay) h.swipe(dx > 0 ? "right" : "left");
  else if (ay >= AXIS_RATIO * ax) h.swipe(dy > 0 ? "down" : "up");
};
document.addEventListener("pointerup", endPointer);
document.addEventListener("pointercancel", endPointer);
