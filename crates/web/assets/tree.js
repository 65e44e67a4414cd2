// The A* search tree of a small board, drawn as tutorials draw it: nodes numbered in the order
// they were added, f = g + h under each. It can be stepped through one expansion at a time
// (Step, Back, Play), the node being expanded ringed, and zoomed and panned (wheel, pinch,
// drag, or the buttons).

import { $, state, render, plural, reducedMotion, puzzleStart, announce, keepingFocus } from "./state.js";
import { lineOf } from "./board.js";
import { api, userMessage } from "./api.js";
import { heuristicName } from "./names.js";
import { tileLabel } from "./boardview.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const CELL = 13;
const GAP_Y = 34;
const MIN_SCALE = 0.05, MAX_SCALE = 4;

let tree = null; // {data, nodes, xs, width, height, nodeW, nodeH, byOrder, total, step, groups, edges, pair}
let view = { s: 1, tx: 0, ty: 0 };
let playTimer = null;
let traceAbort = null; // the request of the tree being searched for, which a change of boards stops

// The tie-break orders a server may offer for equal f. The tutorial's queue takes equal
// priorities first in, first out; taquin's A* trace took the deepest first before it offered a
// choice, and a server that does not list `trace_tie_breaks` in /api/info has only that one.
const ORDERS = {
  fifo: "first in, first out (the tutorial's order): on equal f, the node added first",
  deepest: "deepest first: on equal f, the node with the larger g, then the one added first",
};

function svg(tag, attrs, parent) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (parent) parent.appendChild(el);
  return el;
}

/** The orders the server offers for equal f, the tutorial's first when it is offered. */
function offeredOrders(info) {
  const listed = info && ((info.limits && info.limits.trace_tie_breaks) || info.trace_tie_breaks);
  if (!Array.isArray(listed) || listed.length === 0) return null;
  return [...listed].sort((a, b) => (a === "fifo" ? -1 : b === "fifo" ? 1 : 0));
}

export function setupTreeMenus(info) {
  const h = $("tree-heuristic");
  h.textContent = "";
  for (const name of info.heuristics) {
    const o = document.createElement("option");
    o.value = name;
    o.textContent = heuristicName(name);
    h.appendChild(o);
  }
  h.value = "manhattan";
  const max = info.limits.trace_max_nodes;
  const sizes = $("tree-nodes");
  sizes.textContent = "";
  for (const n of [50, 150, 500, 1000, 2000].filter((n) => n < max).concat([max])) {
    const o = document.createElement("option");
    o.value = String(n);
    o.textContent = String(n);
    sizes.appendChild(o);
  }
  sizes.value = String(Math.min(150, max));
  const order = $("tree-order");
  order.textContent = "";
  const offered = offeredOrders(info);
  for (const name of offered || ["deepest"]) {
    const o = document.createElement("option");
    o.value = name;
    o.textContent = name === "fifo" ? "first in, first out (tutorial)" : name === "deepest" ? "deepest first" : name;
    order.appendChild(o);
  }
  order.disabled = !offered || offered.length < 2;
  $("tree-order-note").textContent = offered ? "" : "this server offers only this order";
}

export function clearTree() {
  stopPlay();
  if (traceAbort) traceAbort.abort();
  traceAbort = null;
  tree = null;
  $("tree-result").textContent = "";
  $("tree-tools").hidden = true;
  say("");
}

/** True when the drawn tree was searched for another pair than `pair` ("board|goal"). */
export const treeStale = (pair) => !!tree && tree.pair !== pair;

/**
 * True while a tree is being searched for. Draw is then marked disabled with aria-disabled, not
 * `disabled`: the tree has no Cancel to take the focus of the person who pressed Draw (or Draw
 * again, which hides), so Draw keeps it, and ignores presses until the answer.
 */
export const tracing = () => traceAbort !== null;

/** The card's status line, a live region: "Searching…", or why there is no tree. */
function say(text, kind = "") {
  const el = $("tree-status");
  el.textContent = text;
  el.className = `tree-status ${kind}`;
}

export async function drawTree() {
  if (tracing()) return;
  clearTree();
  const out = $("tree-result");
  say("Searching…");
  const controller = new AbortController();
  traceAbort = controller;
  render();
  const body = {
    board: lineOf(puzzleStart(), state.w),
    goal: lineOf(state.goal, state.w),
    heuristic: $("tree-heuristic").value,
    max_nodes: Number($("tree-nodes").value),
  };
  if (offeredOrders(state.info)) body.tie_break = $("tree-order").value;
  try {
    const t = await api("/api/trace", body, controller.signal);
    say("");
    build(t, `${body.board}|${body.goal}`, body.max_nodes);
    out.appendChild(legend(t, body.max_nodes));
    out.appendChild(tree.viewport);
    $("tree-tools").hidden = false;
    setStep(tree.total);
    readableView();
    announce($("tree-now").textContent);
  } catch (e) {
    // Stopped by a change of boards (clearTree): a tree of the old boards is not wanted.
    if (e.name === "AbortError") return;
    say(userMessage(e), "error");
  } finally {
    if (traceAbort === controller) {
      traceAbort = null;
      render();
    }
  }
}

function legend(t, asked) {
  const div = document.createElement("div");
  div.className = "tree-legend";
  div.innerHTML =
    '<span><i class="key expanded"></i>expanded</span>' +
    '<span><i class="key frontier"></i>frontier</span>' +
    '<span><i class="key path"></i>final path</span>' +
    '<span><i class="key current"></i>being expanded</span>';
  const expanded = t.nodes.filter((n) => n.state === "expanded").length;
  const frontier = t.nodes.filter((n) => n.state === "frontier").length;
  const max = state.info ? state.info.limits.trace_max_nodes : asked;
  const summary = document.createElement("p");
  summary.className = "tree-summary";
  if (t.complete && t.path.length) {
    summary.textContent = `${plural(t.nodes.length, "node")} added, ${expanded} expanded, ${frontier} on the frontier; path of ${plural(t.path.length - 1, "move")}: ${t.moves || "(none)"}`;
  } else if (asked < max) {
    summary.textContent = `Stopped after ${plural(t.nodes.length, "node")} before the goal: raise the limit (at most ${max}) to see it.`;
  } else {
    summary.textContent = `Stopped after ${plural(t.nodes.length, "node")} before the goal: that is this view's largest tree. An easier board or a stronger heuristic needs fewer.`;
  }
  const order = document.createElement("p");
  order.className = "tree-summary";
  order.id = "tree-order-used";
  const used = t.tie_break || "deepest";
  order.textContent = `Order of the queue: ${ORDERS[used] || used}.`;
  div.append(summary, order);
  return div;
}

// ---------- layout and drawing ----------

function build(t, pair, asked) {
  const bw = t.width * CELL;
  const nodeW = Math.max(bw + 12, 84) + 12, nodeH = t.height * CELL + 44;
  const children = new Map();
  for (const n of t.nodes) {
    if (n.parent === null) continue;
    if (!children.has(n.parent)) children.set(n.parent, []);
    children.get(n.parent).push(n.id);
  }
  const byOrder = t.nodes.filter((n) => n.order !== null).sort((a, b) => a.order - b.order).map((n) => n.id);
  const goal = t.complete && t.path.length ? t.path[t.path.length - 1] : null;
  tree = {
    data: t, pair, asked, children, nodeW, nodeH, byOrder, goal, width: 0, height: 0, rootX: 0,
    total: byOrder.length + (goal !== null ? 1 : 0), step: 0, groups: [], edges: [],
  };
  const viewport = document.createElement("div");
  viewport.className = "tree-view";
  viewport.tabIndex = 0;
  viewport.setAttribute("role", "group");
  viewport.setAttribute("aria-label", "Search tree drawing: drag to pan, wheel or pinch to zoom, + and - keys to zoom, arrow keys to pan");
  const root = svg("svg", { role: "img", "aria-label": `A* search tree of ${t.nodes.length} nodes` });
  const world = svg("g", { class: "world" }, root);
  const onPath = new Set(t.path);
  for (const n of t.nodes) {
    if (n.parent === null) continue;
    const p = t.nodes[n.parent];
    const g = svg("g", { class: `edge${onPath.has(n.id) && onPath.has(p.id) ? " on-path" : ""}`, "data-child": n.id }, world);
    const line = svg("line", {}, g);
    // Beside the child's end of the edge: siblings are a whole box apart there.
    const label = svg("text", { class: "move" }, g);
    label.textContent = n.move;
    tree.edges[n.id] = { g, line, label };
  }
  const w = nodeW - 12;
  for (const n of t.nodes) {
    const g = svg("g", { "data-node": n.id, class: "node" }, world);
    svg("rect", { class: "ring", x: -5, y: -5, width: w + 10, height: nodeH + 6, rx: 9 }, g);
    svg("rect", { class: "box", x: 0, y: 0, width: w, height: nodeH - 4, rx: 6 }, g);
    svg("text", { x: 5, y: 13, class: "id" }, g).textContent = `#${n.id}`;
    if (n.order !== null) svg("text", { x: w - 5, y: 13, class: "order", "text-anchor": "end" }, g).textContent = `exp ${n.order + 1}`;
    const ox = (w - bw) / 2, oy = 18;
    n.tiles.forEach((tile, i) => {
      const x = ox + (i % t.width) * CELL, y = oy + Math.floor(i / t.width) * CELL;
      svg("rect", { x, y, width: CELL - 1, height: CELL - 1, class: tile === 0 ? "blank" : "cell" }, g);
      if (tile !== 0) {
        svg("text", { x: x + CELL / 2 - 0.5, y: y + CELL - 3.5, class: "tile", "text-anchor": "middle" }, g).textContent = tileLabel(tile, state.style);
      }
    });
    svg("text", { x: w / 2, y: nodeH - 9, class: "f", "text-anchor": "middle" }, g).textContent = `f=${n.g}+${n.h}=${n.f}`;
    tree.groups[n.id] = g;
  }
  viewport.appendChild(root);
  tree.viewport = viewport;
  tree.world = world;
  attachZoom(viewport);
}

// A tidy layered layout of the nodes shown, laid out again at every step so the tree grows as
// a tutorial draws it: leaves get consecutive columns, a parent sits above the middle of its
// children, and every node has the same box, so neither boxes nor their labels can overlap.
function place(visible) {
  const { data: t, children, nodeW, nodeH } = tree;
  const shown = (id) => visible[id];
  const xs = new Array(t.nodes.length);
  let nextLeaf = 0;
  let maxDepth = 0;
  // Iterative post-order so that deep trees cannot overflow the call stack.
  const stack = [[0, false]];
  while (stack.length) {
    const [id, visited] = stack.pop();
    const kids = (children.get(id) || []).filter(shown);
    maxDepth = Math.max(maxDepth, t.nodes[id].g);
    if (!visited && kids.length) {
      stack.push([id, true]);
      for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i], false]);
    } else if (!kids.length) {
      xs[id] = nextLeaf++;
    } else {
      xs[id] = (xs[kids[0]] + xs[kids[kids.length - 1]]) / 2;
    }
  }
  const px = (id) => 10 + xs[id] * nodeW + nodeW / 2;
  const py = (n) => 10 + n.g * (nodeH + GAP_Y);
  for (const n of t.nodes) {
    if (!shown(n.id)) continue;
    tree.groups[n.id].setAttribute("transform", `translate(${px(n.id) - (nodeW - 12) / 2},${py(n)})`);
    const e = tree.edges[n.id];
    if (!e) continue;
    const p = t.nodes[n.parent];
    for (const [k, v] of Object.entries({ x1: px(p.id), y1: py(p) + nodeH - 4, x2: px(n.id), y2: py(n) })) e.line.setAttribute(k, v);
    e.label.setAttribute("x", px(n.id) + 5);
    e.label.setAttribute("y", py(n) - 6);
  }
  tree.width = Math.max(1, nextLeaf) * nodeW + 20;
  tree.height = (maxDepth + 1) * (nodeH + GAP_Y) + 10;
  tree.rootX = px(0);
}

// ---------- stepping ----------

/** Shows the search after `s` expansions (s = total: the whole search, goal and path). */
function setStep(s) {
  if (tree) keepingFocus(() => drawStep(s));
}

function drawStep(s) {
  const t = tree.data;
  s = Math.max(0, Math.min(s, tree.total));
  tree.step = s;
  const expandedBy = (n) => n.order !== null && n.order < s;
  const end = s === tree.total;
  const current = s === 0 ? null : s <= tree.byOrder.length ? tree.byOrder[s - 1] : tree.goal;
  const onPath = new Set(t.path);
  const visible = t.nodes.map((n) => n.parent === null || expandedBy(t.nodes[n.parent]));
  place(visible);
  for (const n of t.nodes) {
    const g = tree.groups[n.id];
    g.classList.toggle("hidden", !visible[n.id]);
    g.classList.toggle("expanded", expandedBy(n));
    g.classList.toggle("frontier", visible[n.id] && !expandedBy(n) && !(end && n.state !== "frontier"));
    g.classList.toggle("superseded", end && n.state === "superseded");
    g.classList.toggle("goal", (end || s > tree.byOrder.length) && n.id === tree.goal);
    g.classList.toggle("path", end && onPath.has(n.id));
    g.classList.toggle("current", n.id === current);
    if (tree.edges[n.id]) {
      tree.edges[n.id].g.classList.toggle("hidden", !visible[n.id]);
      tree.edges[n.id].g.classList.toggle("shown-path", end);
    }
  }
  $("tree-step-index").textContent = `${s} / ${tree.total}`;
  $("tree-back").disabled = s === 0;
  $("tree-start").disabled = s === 0;
  $("tree-step").disabled = s >= tree.total;
  $("tree-end").disabled = s >= tree.total;
  $("tree-play").textContent = playTimer ? "❚❚ Pause" : "▶ Play";
  $("tree-play").setAttribute("aria-label", playTimer ? "Pause" : "Play");
  $("tree-now").textContent = describe(s, current);
  $("tree-queue").textContent = end ? "" : queueText(s);
  if (current !== null) keepInView(current);
}

function describe(s, current) {
  const t = tree.data;
  if (s === 0) return `Start: the queue holds the initial board, #0 (f = ${t.nodes[0].g} + ${t.nodes[0].h} = ${t.nodes[0].f}).`;
  const n = t.nodes[current];
  if (s > tree.byOrder.length) {
    return `Step ${s}: #${n.id} is taken from the queue and is the goal; the path back to #0 is the solution (${plural(n.g, "move")}).`;
  }
  const kids = t.nodes.filter((c) => c.parent === n.id).map((c) => `#${c.id}`);
  const added = kids.length ? `adds ${kids.join(", ")}` : "adds no new board";
  return `Step ${s}: expanding #${n.id} (f = ${n.g} + ${n.h} = ${n.f}), the queue's best; it ${added}.`;
}

/**
 * The queue after `s` expansions, in the order this search takes it (the server's tie-break):
 * every board added and not yet expanded, smallest f first.
 */
function queueText(s) {
  const t = tree.data;
  const fifo = t.tie_break === "fifo";
  const expandedBy = (n) => n.order !== null && n.order < s;
  const queued = t.nodes.filter((n) => (n.parent === null || expandedBy(t.nodes[n.parent])) && !expandedBy(n));
  queued.sort((a, b) => a.f - b.f || (fifo ? 0 : b.g - a.g) || a.id - b.id);
  const shown = queued.slice(0, 10).map((n) => `#${n.id} (f=${n.f})`).join(", ");
  return `Queue, next first: ${shown}${queued.length > 10 ? `, and ${queued.length - 10} more` : ""}.`;
}

function keepInView(id) {
  const r = tree.groups[id].getBoundingClientRect();
  const v = tree.viewport.getBoundingClientRect();
  if (r.width === 0 || v.width === 0) return;
  if (r.left >= v.left && r.right <= v.right && r.top >= v.top && r.bottom <= v.bottom) return;
  view.tx += v.left + v.width / 2 - (r.left + r.width / 2);
  view.ty += v.top + v.height / 2 - (r.top + r.height / 2);
  applyView();
}

export function treeStep(delta) {
  if (!tree) return;
  stopPlay();
  setStep(tree.step + delta);
  announce($("tree-now").textContent);
}

export function treeJump(to) {
  if (!tree) return;
  stopPlay();
  setStep(to === "end" ? tree.total : 0);
  announce($("tree-now").textContent);
}

// Play says nothing at each step, which would queue up long sentences faster than a screen
// reader reads them: where it pauses or ends is said, as the solution's Play does.
export function treePlay() {
  if (!tree) return;
  if (playTimer) {
    stopPlay();
    setStep(tree.step);
    announce(`Paused. ${$("tree-now").textContent}`);
    return;
  }
  if (tree.step >= tree.total) setStep(0);
  const tick = () => {
    if (!tree) return;
    setStep(tree.step + 1);
    if (tree.step < tree.total) {
      playTimer = setTimeout(tick, reducedMotion() ? 1200 : 700);
      return;
    }
    stopPlay();
    setStep(tree.step);
    announce($("tree-now").textContent);
  };
  playTimer = setTimeout(tick, 0);
  setStep(tree.step);
}

function stopPlay() {
  if (playTimer) clearTimeout(playTimer);
  playTimer = null;
}

// ---------- zoom and pan ----------

function applyView() {
  if (tree) tree.world.setAttribute("transform", `translate(${view.tx},${view.ty}) scale(${view.s})`);
}

/** Zooms by `k` keeping the point (cx, cy) of the viewport where it is. */
function zoomAt(k, cx, cy) {
  const s = Math.max(MIN_SCALE, Math.min(MAX_SCALE, view.s * k));
  const real = s / view.s;
  view.tx = cx - (cx - view.tx) * real;
  view.ty = cy - (cy - view.ty) * real;
  view.s = s;
  applyView();
}

export function zoom(k) {
  if (!tree) return;
  const v = tree.viewport;
  zoomAt(k, v.clientWidth / 2, v.clientHeight / 2);
}

/** The whole tree in view (never magnified past 1.5). */
export function fit() {
  if (!tree) return;
  const v = tree.viewport;
  const vw = v.clientWidth || 600, vh = v.clientHeight || 400;
  view.s = Math.max(MIN_SCALE, Math.min(vw / tree.width, vh / tree.height, 1.5));
  view.tx = (vw - tree.width * view.s) / 2;
  view.ty = Math.max(0, (vh - tree.height * view.s) / 2);
  applyView();
}

/**
 * The first view: the whole tree when it can be read that way, otherwise full size from the
 * top, centred on the initial board (Fit and the zoom buttons show the rest).
 */
function readableView() {
  fit();
  if (view.s >= 0.7) return;
  const v = tree.viewport;
  view.s = 1;
  view.tx = (v.clientWidth || 600) / 2 - tree.rootX;
  view.ty = 0;
  applyView();
}

function attachZoom(el) {
  el.addEventListener(
    "wheel",
    (e) => {
      e.preventDefault();
      const r = el.getBoundingClientRect();
      zoomAt(Math.exp(-e.deltaY * 0.0015), e.clientX - r.left, e.clientY - r.top);
    },
    { passive: false },
  );
  const pointers = new Map();
  let pinch = null;
  el.addEventListener("pointerdown", (e) => {
    try {
      el.setPointerCapture(e.pointerId);
    } catch (_) {
      // A pointer the browser no longer tracks cannot be captured; dragging still works inside.
    }
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    el.classList.add("dragging");
  });
  el.addEventListener("pointermove", (e) => {
    const p = pointers.get(e.pointerId);
    if (!p) return;
    if (pointers.size === 1) {
      view.tx += e.clientX - p.x;
      view.ty += e.clientY - p.y;
      applyView();
    }
    p.x = e.clientX;
    p.y = e.clientY;
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      const d = Math.hypot(a.x - b.x, a.y - b.y);
      const r = el.getBoundingClientRect();
      if (pinch && d > 0) zoomAt(d / pinch, (a.x + b.x) / 2 - r.left, (a.y + b.y) / 2 - r.top);
      pinch = d;
    }
  });
  const up = (e) => {
    pointers.delete(e.pointerId);
    pinch = null;
    if (pointers.size === 0) el.classList.remove("dragging");
  };
  el.addEventListener("pointerup", up);
  el.addEventListener("pointercancel", up);
  el.addEventListener("keydown", (e) => {
    const pan = { ArrowLeft: [40, 0], ArrowRight: [-40, 0], ArrowUp: [0, 40], ArrowDown: [0, -40] }[e.key];
    if (pan) {
      view.tx += pan[0];
      view.ty += pan[1];
      applyView();
    } else if (e.key === "+" || e.key === "=") zoom(1.25);
    else if (e.key === "-") zoom(0.8);
    else if (e.key === "0") fit();
    else return;
    e.preventDefault();
  });
}
