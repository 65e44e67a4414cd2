// The search tree (stepping, zoom and pan, labels, the queue's order) and the comparison.
import { test } from "node:test";
import assert from "node:assert/strict";
import { useBrowser, page, tileCell, open, api } from "../lib/browser.mjs";

useBrowser();

const visibleNodes = () => page.$$eval("#tree-result g[data-node]:not(.hidden)", (gs) => gs.map((g) => Number(g.dataset.node)));
const scale = () => page.$eval("#tree-result .world", (g) => Number(/scale\(([^)]+)\)/.exec(g.getAttribute("transform"))[1]));
const translate = () => page.$eval("#tree-result .world", (g) => /translate\(([^,]+),([^)]+)\)/.exec(g.getAttribute("transform")).slice(1).map(Number));

test("the tree is stepped through one expansion at a time, the expanded node marked", async () => {
  await open("#board=1,2,3/4,0,6/7,5,8");
  await page.click("#tree");
  await page.waitForSelector("#tree-result svg");
  assert.equal(await page.locator("#tree-result svg g[data-node]").count(), 7);
  assert.match(await page.textContent("#tree-result .tree-legend"), /path of 2 moves: DR/);
  const total = Number((await page.textContent("#tree-step-index")).split(" / ")[1]);
  assert.equal(await page.textContent("#tree-step-index"), `${total} / ${total}`);
  await page.click("#tree-start");
  assert.deepEqual(await visibleNodes(), [0], "at the start only the initial board is in the queue");
  assert.equal(await page.$eval('#tree-result g[data-node="0"] text.order', (t) => getComputedStyle(t).display), "none",
    "no expansion number before the expansion");
  assert.equal(await page.locator("#tree-result g.current").count(), 0);
  await page.click("#tree-step");
  assert.equal(await page.textContent("#tree-step-index"), `1 / ${total}`);
  assert.equal(await page.getAttribute("#tree-result g.current", "data-node"), "0");
  assert.match(await page.textContent("#tree-now"), /^Step 1: expanding #0 \(f = 0 \+ 2 = 2\)/);
  assert.deepEqual(await visibleNodes(), [0, 1, 2, 3, 4], "expanding #0 adds its four children");
  // The queue, next first: the node the next step expands leads it.
  const queue = await page.textContent("#tree-queue");
  assert.match(queue, /^Queue, next first: #\d+ \(f=2\)/);
  const next = /#(\d+)/.exec(queue)[1];
  await page.click("#tree-step");
  const second = await page.getAttribute("#tree-result g.current", "data-node");
  assert.equal(second, next, "the step expands the head of the queue");
  await page.click("#tree-back");
  assert.equal(await page.getAttribute("#tree-result g.current", "data-node"), "0");
  await page.click("#tree-play");
  await page.waitForFunction((t) => document.getElementById("tree-step-index").textContent === `${t} / ${t}`, total);
  assert.match(await page.textContent("#tree-now"), /is the goal/);
  assert.equal(await page.locator("#tree-result g.node.path").count(), 3);
});

test("no label of the drawing overlaps another", async () => {
  await open();
  await page.selectOption("#tree-nodes", "150");
  await page.click("#tree");
  await page.waitForSelector("#tree-result svg");
  // Zoomed in, so that the test measures the drawing at a readable size.
  for (let i = 0; i < 4; i++) await page.click("#tree-zoom-in");
  const overlaps = await page.$$eval("#tree-result svg text", (texts) => {
    const boxes = texts.map((t) => t.getBoundingClientRect()).filter((r) => r.width > 0);
    boxes.sort((a, b) => a.left - b.left);
    let n = 0;
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length && boxes[j].left < boxes[i].right - 0.5; j++) {
        const a = boxes[i], b = boxes[j];
        if (a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) n++;
      }
    }
    return { n, of: boxes.length };
  });
  assert.ok(overlaps.of > 300, `measured ${overlaps.of} labels`);
  assert.equal(overlaps.n, 0);
});

test("the drawing zooms and pans: buttons, wheel, drag", async () => {
  await open();
  await page.click("#tree");
  await page.waitForSelector("#tree-result svg");
  assert.ok((await scale()) >= 0.7, "the first view is readable");
  await page.click("#tree-fit");
  const s0 = await scale();
  assert.ok(s0 < 0.7, "Fit shows the whole (wide) tree");
  await page.click("#tree-zoom-in");
  assert.ok((await scale()) > s0 * 1.2);
  await page.click("#tree-zoom-out");
  assert.ok(Math.abs((await scale()) - s0) < 1e-6);
  await page.locator(".tree-view").scrollIntoViewIfNeeded();
  const box = await page.locator(".tree-view").boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -300);
  await page.waitForFunction((s) => {
    const t = document.querySelector("#tree-result .world").getAttribute("transform");
    return Number(/scale\(([^)]+)\)/.exec(t)[1]) > s;
  }, s0);
  const [x0, y0] = await translate();
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 80, box.y + box.height / 2 + 30, { steps: 5 });
  await page.mouse.up();
  const [x1, y1] = await translate();
  assert.ok(Math.abs(x1 - x0 - 80) < 1 && Math.abs(y1 - y0 - 30) < 1, `dragged by (80, 30): ${x1 - x0}, ${y1 - y0}`);
  await page.click("#tree-fit");
  assert.ok(Math.abs((await scale()) - s0) < 1e-6);
});

test("the queue's order on equal f is said, and offered when the server offers a choice", async () => {
  const info = await api("/api/info");
  const offered = (info.limits && info.limits.trace_tie_breaks) || info.trace_tie_breaks;
  await open("#board=1,2,3/4,0,6/7,5,8");
  if (offered) {
    assert.equal(await page.$eval("#tree-order", (s) => s.value), "fifo", "the tutorial's order by default");
  } else {
    assert.deepEqual(await page.$$eval("#tree-order option", (os) => os.map((o) => o.value)), ["deepest"]);
    assert.ok(await page.isDisabled("#tree-order"));
  }
  await page.click("#tree");
  await page.waitForSelector("#tree-result svg");
  assert.match(await page.textContent("#tree-order-used"), offered ? /first in, first out/ : /deepest first/);
});

test("'raise the limit' is offered only below the largest tree", async () => {
  const info = await api("/api/info");
  await open();
  await page.selectOption("#tree-heuristic", "misplaced");
  await page.selectOption("#tree-nodes", "50");
  await page.click("#tree");
  await page.waitForSelector("#tree-result svg");
  assert.match(await page.textContent("#tree-result .tree-legend"), /raise the limit/);
  await page.selectOption("#tree-nodes", String(info.limits.trace_max_nodes));
  await page.click("#tree");
  await page.waitForFunction((n) => document.querySelectorAll("#tree-result g[data-node]").length > 50, null);
  const legend = await page.textContent("#tree-result .tree-legend");
  assert.doesNotMatch(legend, /raise the limit/);
  assert.match(legend, /largest tree/);
});

test("the tree and the comparison are marked stale when the board changes", async () => {
  await open("#board=1,2,3/4,0,6/7,5,8");
  await page.click("#tree");
  await page.waitForSelector("#tree-result svg");
  await page.click("#compare");
  await page.waitForSelector("table.compare td.bar-cell");
  await page.waitForSelector("#compare-progress", { state: "hidden" });
  assert.ok(await page.isHidden("#tree-stale"));
  assert.ok(await page.isHidden("#compare-stale"));
  await tileCell("board", "5").click();
  await page.waitForSelector("#tree-stale:not([hidden])");
  await page.waitForSelector("#compare-stale:not([hidden])");
  // A new board from the box clears them.
  await page.fill("#board-input", "1 2 3/4 5 6/0 7 8");
  await page.press("#board-input", "Enter");
  await page.waitForFunction(() => document.getElementById("tree-result").children.length === 0);
  assert.equal(await page.locator("table.compare").count(), 0);
});

test("the comparison shows progress, numbers, and bars on a log scale", async () => {
  await open();
  // Each solve held back a little, so that the progress can be seen.
  await page.route("**/api/solve", async (route) => {
    await new Promise((r) => setTimeout(r, 400));
    await route.continue();
  });
  await page.click("#compare");
  await page.waitForSelector("#compare-progress:not([hidden])");
  await page.waitForFunction(() => /^1 of 4: /.test(document.getElementById("compare-text").textContent));
  await page.waitForSelector("#compare-progress", { state: "hidden", timeout: 30000 });
  const rows = await page.$$eval("table.compare tbody tr", (trs) =>
    trs.map((tr) => ({
      expanded: Number(tr.children[2].textContent.replace(/,/g, "")),
      time: tr.children[5].textContent,
      width: parseFloat(tr.querySelector(".bar").style.width),
    })),
  );
  assert.equal(rows.length, 4);
  const max = Math.max(...rows.map((r) => r.expanded));
  for (const r of rows) {
    assert.match(r.time, /^[\d.]+ (ms|s)$/);
    const want = (100 * Math.log10(1 + r.expanded)) / Math.log10(1 + max);
    assert.ok(Math.abs(r.width - want) < 0.2, `bar ${r.width}% for ${r.expanded} nodes, log scale ${want}%`);
  }
});

test("two fingers pinch the drawing to zoom", async () => {
  await open();
  await page.click("#tree");
  await page.waitForSelector("#tree-result svg");
  const s0 = await scale();
  // Two touch pointers moving apart, as a pinch on a phone sends them.
  await page.$eval(".tree-view", (el) => {
    const r = el.getBoundingClientRect();
    const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
    const send = (type, id, x) =>
      el.dispatchEvent(new PointerEvent(type, { pointerId: id, pointerType: "touch", clientX: x, clientY: cy, bubbles: true, isPrimary: id === 11 }));
    send("pointerdown", 11, cx - 20);
    send("pointerdown", 12, cx + 20);
    for (let d = 20; d <= 80; d += 10) {
      send("pointermove", 11, cx - d);
      send("pointermove", 12, cx + d);
    }
    send("pointerup", 11, cx - 80);
    send("pointerup", 12, cx + 80);
  });
  const s1 = await scale();
  assert.ok(s1 > s0 * 2.5, `pinched from 40 px to 160 px apart: scale ${s0} -> ${s1}`);
});

test("at every step the queue shown is the one the search follows", async () => {
  await open();
  await page.click("#tree");
  await page.waitForSelector("#tree-result svg");
  const total = Number((await page.textContent("#tree-step-index")).split(" / ")[1]);
  // Boards reached again by a longer path are dropped when their turn comes, without a step.
  const superseded = new Set(await page.$$eval("#tree-result g.node.superseded", (gs) => gs.map((g) => g.dataset.node)));
  await page.click("#tree-start");
  let checked = 0;
  for (let s = 0; s < total; s++) {
    const head = /#(\d+)/.exec(await page.textContent("#tree-queue"))[1];
    await page.click("#tree-step");
    const current = await page.getAttribute("#tree-result g.current", "data-node");
    if (current === head) checked++;
    else assert.ok(superseded.has(head), `step ${s + 1}: expanded #${current}, the queue showed #${head} first`);
  }
  assert.ok(checked >= total - superseded.size, `${checked} of ${total} steps took the head of the queue shown`);
});

const focused = () => page.evaluate(() => document.activeElement.id);

test("the tree's step buttons hand the keyboard's focus on when they disable themselves", async () => {
  await open("#board=1,2,3/4,0,6/7,5,8");
  await page.click("#tree");
  await page.waitForSelector("#tree-result svg");
  const total = Number((await page.textContent("#tree-step-index")).split(" / ")[1]);
  await page.focus("#tree-start");
  await page.keyboard.press("Enter");
  assert.equal(await page.textContent("#tree-step-index"), `0 / ${total}`);
  assert.equal(await focused(), "tree-step", "from Start, disabled at the start, to Step");
  await page.focus("#tree-end");
  await page.keyboard.press("Enter");
  assert.equal(await focused(), "tree-back", "from End, disabled at the end, to Back");
  await page.focus("#tree-start");
  await page.keyboard.press("Enter");
  // Step by step to the last expansion, the focus on Step all the way.
  for (let i = 1; i <= total; i++) {
    assert.equal(await focused(), "tree-step");
    await page.keyboard.press("Enter");
  }
  assert.equal(await page.textContent("#tree-step-index"), `${total} / ${total}`);
  assert.equal(await focused(), "tree-back", "from Step, disabled at the end, to Back");
});

test("Draw again hands the focus to Draw, on screen, which keeps it while the tree is searched for", async () => {
  await open("#board=1,2,3/4,0,6/7,5,8");
  await page.click("#tree");
  await page.waitForSelector("#tree-result svg");
  await tileCell("board", "5").click();
  await page.waitForSelector("#tree-stale:not([hidden])");
  await page.focus("#tree-redo");
  await page.keyboard.press("Enter");
  assert.equal(await focused(), "tree");
  await page.waitForSelector("#tree-result svg");
  assert.equal(await focused(), "tree");
  const box = await page.$eval("#tree", (b) => {
    const r = b.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, height: innerHeight };
  });
  assert.ok(box.top >= 0 && box.bottom <= box.height, `Draw on screen: ${JSON.stringify(box)}`);
});

test("a search for a tree is announced, sent once however often Draw is pressed, and its failure said", async () => {
  await open("#board=1,2,3/4,0,6/7,5,8");
  let traces = 0;
  let release;
  const held = new Promise((r) => (release = r));
  await page.route("**/api/trace", async (route) => {
    traces++;
    await held;
    await route.continue();
  });
  assert.equal(await page.getAttribute("#tree-status", "role"), "status", "a live region, there before its text");
  await page.focus("#tree");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.getElementById("tree-status").textContent === "Searching…");
  assert.equal(await page.getAttribute("#tree", "aria-disabled"), "true");
  assert.equal(await focused(), "tree", "Draw keeps the focus while it waits");
  await page.keyboard.press("Enter");
  await page.click("#tree", { force: true });
  release();
  await page.waitForSelector("#tree-result svg");
  assert.equal(traces, 1, "one request for one tree");
  assert.equal(await page.getAttribute("#tree", "aria-disabled"), null);
  assert.equal(await page.textContent("#tree-status"), "");
  assert.equal(await focused(), "tree");
  // A server that does not answer: said in the same region.
  await page.unroute("**/api/trace");
  await page.route("**/api/trace", (route) => route.abort());
  await page.click("#tree");
  await page.waitForFunction(() => /does not answer/.test(document.getElementById("tree-status").textContent));
  assert.equal(await page.locator("#tree-result svg").count(), 0);
});

test("the tree's Play is quiet until it pauses or ends, and each step taken by hand is said", async () => {
  await open("#board=1,2,3/4,0,6/7,5,8");
  await page.click("#tree");
  await page.waitForSelector("#tree-result svg");
  const total = Number((await page.textContent("#tree-step-index")).split(" / ")[1]);
  assert.equal(await page.getAttribute("#tree-now", "aria-live"), null, "rewritten at every step of Play: not live");
  await page.click("#tree-start");
  await page.waitForFunction(() => /^Start: /.test(document.getElementById("announce").textContent));
  // Every text that a screen reader would hear, from any live region of the page.
  await page.evaluate(() => {
    window.__said = [];
    for (const el of document.querySelectorAll("[aria-live], [role=status]")) {
      new MutationObserver(() => el.textContent && window.__said.push(el.textContent))
        .observe(el, { childList: true, characterData: true, subtree: true });
    }
  });
  await page.click("#tree-play");
  await page.waitForFunction((t) => document.getElementById("tree-step-index").textContent === `${t} / ${t}`, total);
  await page.waitForFunction(() => /is the goal/.test(document.getElementById("announce").textContent));
  const said = await page.evaluate(() => window.__said);
  assert.equal(said.length, 1, `said once, at the end: ${JSON.stringify(said)}`);
  // A pause says where Play stopped.
  await page.click("#tree-play");
  await page.waitForFunction(() => !document.getElementById("tree-step-index").textContent.startsWith("0 /"));
  await page.click("#tree-play");
  await page.waitForFunction(() => /^Paused\. Step \d+: /.test(document.getElementById("announce").textContent));
  // A step taken by hand is said.
  await page.click("#tree-start");
  await page.click("#tree-step");
  await page.waitForFunction(() => /^Step 1: expanding #0/.test(document.getElementById("announce").textContent));
});
