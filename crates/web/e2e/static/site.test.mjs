// The static page (scripts/site.sh): the same page served by a plain static server, with no
// taquin server anywhere, its questions answered by Web Workers running the core compiled to
// WebAssembly. Every button is exercised here; no request may go to /api/.
// The timings printed ("# timing ...") are the browser's solve times of BENCHMARKS.md.
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import {
  useBrowser, page, tileCell, open, line, status, waitForLine, waitForStatus, typeBoard, assertAccessible, everythingShown, ARTICLE, GOAL, BASE,
} from "../lib/browser.mjs";

useBrowser();

// Fixed boards, with their optimal lengths from the native CLI (`taquin solve`).
const FOUR = "7 1 0 2/4 8 15 3/5 11 9 13/6 14 12 10"; // 46 moves
const FIVE = "4 3 24 8 1/14 11 12 20 2/19 0 6 9 7/13 5 21 17 16/22 10 23 18 15"; // taquin generate -s 5x5 --seed 1

let apiCalls;
beforeEach(() => {
  apiCalls = [];
  page.on("request", (r) => {
    if (new URL(r.url()).pathname.includes("/api/")) apiCalls.push(r.url());
  });
});

const hash = (board) => `#board=${board.replace(/ /g, ",")}`;

/** Solves the board on screen; resolves to the time from the click to the answer, in ms. */
async function solveShown(timeout = 60000) {
  const started = Date.now();
  await page.click("#solve");
  await page.waitForSelector("#solution:not([hidden])", { timeout });
  return Date.now() - started;
}

/** Plays the loaded solution to its end: the board must then be the goal. */
async function playsToGoal() {
  await page.click("#to-end");
  assert.equal(await line("board"), await line("goal"));
}

test("the static page says what it offers, from the WebAssembly core, with no server", async () => {
  await open();
  assert.equal(await line("board"), ARTICLE);
  const widths = await page.$$eval("#width option", (os) => os.map((o) => Number(o.value)));
  assert.equal(Math.max(...widths), 8);
  const algorithms = await page.$$eval("#algorithm option", (os) => os.map((o) => o.value));
  assert.ok(algorithms.includes("astar") && algorithms.includes("idastar"));
  const site = await page.evaluate(() => fetch("site.json").then((r) => r.json()));
  assert.equal(site.mode, "static");
  assert.deepEqual(apiCalls, []);
});

test("3x3: the article's board is solved optimally in the browser, 31 moves", async () => {
  await open();
  const ms = await solveShown();
  console.log(`# timing 3x3 article (31 moves, optimal): ${ms} ms from the click; ${await status()}`);
  assert.equal(await page.textContent("#steps-count"), "31");
  assert.match(await page.textContent("#solution-kind"), /^optimal$/);
  assert.match(await page.getAttribute("#moves-text", "data-moves"), /^[UDLR]{31}$/);
  assert.match(await status(), /Solved in .*31 moves \(optimal\)/);
  await playsToGoal();
  assert.equal(await line("board"), GOAL);
  assert.deepEqual(apiCalls, []);
});

test("4x4: optimal with pattern databases built in the browser", async () => {
  await open(hash(FOUR));
  await waitForLine("board", FOUR);
  const ms = await solveShown();
  console.log(`# timing 4x4 seed 1 (46 moves, optimal, tables built): ${ms} ms from the click; ${await status()}`);
  assert.equal(await page.textContent("#steps-count"), "46");
  assert.match(await page.textContent("#solution-kind"), /^optimal$/);
  assert.match(await page.textContent("#solution-stats"), /5-5-5/);
  await playsToGoal();
  assert.deepEqual(apiCalls, []);
});

test("5x5: the anytime search shows its best so far, then a solution that reaches the goal", async () => {
  await open(hash(FIVE));
  await waitForLine("board", FIVE);
  await page.selectOption("#time-limit", "5000");
  const started = Date.now();
  await page.click("#solve");
  await page.waitForFunction(() => /Best so far: \d+ moves/.test(document.getElementById("best-so-far").textContent));
  console.log(`# timing 5x5 first solution: ${Date.now() - started} ms from the click; ${await page.textContent("#best-so-far")}`);
  await page.waitForSelector("#solution:not([hidden])", { timeout: 30000 });
  console.log(`# timing 5x5 anytime, 5 s budget, answer: ${Date.now() - started} ms, ${await page.textContent("#steps-count")} moves`);
  await playsToGoal();
  assert.deepEqual(apiCalls, []);
});

test("cancel ends the search at once, and the next search runs in a fresh worker", async () => {
  await open(hash(FIVE));
  await waitForLine("board", FIVE);
  await page.selectOption("#algorithm", "idastar");
  await page.selectOption("#heuristic", "misplaced");
  await page.selectOption("#time-limit", "60000");
  await page.click("#solve");
  await page.waitForFunction(() => /nodes generated/.test(document.getElementById("progress-text").textContent));
  await page.click("#cancel");
  await waitForStatus(/cancelled/);
  assert.ok(await page.isHidden("#progress"));
  await open();
  await solveShown();
  assert.equal(await page.textContent("#steps-count"), "31");
});

test("cancelling an anytime search in the page keeps the best it found", async () => {
  await open(hash(FIVE));
  await waitForLine("board", FIVE);
  await page.selectOption("#time-limit", "60000");
  await page.click("#solve");
  await page.waitForFunction(() => /Best so far: \d+ moves/.test(document.getElementById("best-so-far").textContent));
  // The progress line counts the beams' nodes as they go (in the page, the beams have the
  // first half of the time to themselves: 30 s here).
  await page.waitForFunction(
    () => /[1-9][\d.]*( [kMG])? nodes generated/.test(document.getElementById("progress-text").textContent),
    null,
    { timeout: 10000 },
  );
  await page.click("#cancel");
  await page.waitForSelector("#solution:not([hidden])");
  assert.match(await page.textContent("#solution-kind"), /best found before the search was cancelled/);
  await playsToGoal();
  assert.deepEqual(apiCalls, []);
});

test("hint and shuffle", async () => {
  await open("#board=1,2,3/4,5,6/7,0,8");
  await waitForLine("board", "1 2 3/4 5 6/7 0 8");
  await page.click("#hint");
  await waitForStatus(/Hint: slide 8 left/);
  assert.match(await page.getAttribute('#board .tile[data-tile="8"]', "class"), /hinted/);
  for (const difficulty of ["walk:25", "uniform"]) {
    const before = await line("board");
    await page.selectOption("#difficulty", difficulty);
    await page.click("#shuffle");
    await page.waitForFunction((b) => document.getElementById("board").dataset.line !== b, before);
  }
  // A shuffled board is solvable: the solver reaches the goal from it.
  await solveShown();
  await playsToGoal();
  assert.deepEqual(apiCalls, []);
});

test("the search tree and the comparison", async () => {
  await open("#board=1,2,3/4,0,6/7,5,8");
  await page.click("#tree");
  await page.waitForSelector("#tree-result svg");
  assert.equal(await page.locator("#tree-result svg g[data-node]").count(), 7);
  assert.match(await page.textContent("#tree-result .tree-legend"), /path of 2 moves: DR/);
  await page.click("#tree-start");
  await page.click("#tree-step");
  assert.match(await page.textContent("#tree-now"), /^Step 1: expanding #0/);
  await page.click("#compare");
  await page.waitForSelector("table.compare td.bar-cell");
  await page.waitForSelector("#compare-progress", { state: "hidden", timeout: 30000 });
  const expanded = await page.$$eval("table.compare tbody tr", (trs) =>
    trs.map((tr) => Number(tr.children[2].textContent.replace(/,/g, ""))));
  assert.equal(expanded.length, 4);
  assert.ok(expanded.every((n) => n >= 2), `${expanded}`);
  assert.deepEqual(apiCalls, []);
});

test("errors read the same as the server's: an unsolvable pair is refused with its reason", async () => {
  await open();
  await typeBoard("board", "1 2 3/4 5 6/8 7 0");
  await waitForStatus(/[Uu]nsolvable/);
  assert.match(await status(), /1 inversion away/);
  assert.ok(await page.isDisabled("#solve"));
  await typeBoard("board", "1 2 3/4 x 6/7 8 0");
  await waitForStatus(/'x' is not a tile/);
  assert.deepEqual(apiCalls, []);
});

test("axe finds no serious or critical violation on the static page", async () => {
  await everythingShown();
  await assertAccessible("static page");
  assert.deepEqual(apiCalls, []);
});

test("opened from the disk (file://), the page says to open it through a web server; over http it does not", async () => {
  // The folder's index.html is the page's own (scripts/site.sh copies it).
  await page.goto(new URL("../../assets/index.html", import.meta.url).href);
  await page.waitForSelector("#file-notice", { state: "visible" });
  assert.match(await page.textContent("#file-notice"), /web server[\s\S]*python3 -m http\.server/);
  await open();
  assert.ok(await page.isHidden("#file-notice"));
});

test("the static page's footer points to no JSON API, which a static host has not", async () => {
  await open();
  assert.doesNotMatch(await page.innerText("footer"), /\/api/);
  assert.deepEqual(apiCalls, []);
});

test("on a slow network the boards show at once, and the searches wait for the solver, which says it loads", async () => {
  let release;
  const held = new Promise((r) => (release = r));
  await page.route("**/pkg/taquin_wasm_bg.wasm", async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`${BASE}/`);
  await waitForLine("board", ARTICLE);
  await waitForStatus(/^Loading the solver \(\d+\.\d MB\)…$/);
  assert.equal(await page.getAttribute("#status", "aria-live"), "polite");
  assert.equal(await page.inputValue("#width"), "3");
  assert.equal(await page.inputValue("#height"), "3");
  for (const id of ["solve", "hint", "compare", "shuffle", "tree"]) assert.ok(await page.isDisabled(`#${id}`), `#${id} waits`);
  // The boards are played meanwhile.
  await tileCell("board", "5").click();
  await waitForLine("board", "6 4 7/8 0 5/3 2 1");
  await page.waitForTimeout(1200);
  release();
  await page.waitForSelector("body[data-ready=true]");
  await page.waitForFunction(() => !document.getElementById("solve").disabled);
  assert.equal(await status(), "The solver is ready.");
  await solveShown();
  assert.deepEqual(apiCalls, []);
});

test("a worker that grew large in a search is ended, not kept idle with its memory", async () => {
  await open();
  // A small search keeps its worker, for the next question.
  await solveShown();
  assert.equal(page.workers().length, 1);
  await open(hash(FIVE));
  await waitForLine("board", FIVE);
  await page.selectOption("#algorithm", "astar");
  await page.selectOption("#time-limit", "5000");
  await page.click("#solve");
  await waitForStatus(/limit was reached/);
  await page.waitForFunction(() => document.getElementById("solve").disabled === false);
  // A*'s hundreds of MB go with its worker.
  for (let i = 0; i < 50 && page.workers().length > 0; i++) await page.waitForTimeout(100);
  assert.equal(page.workers().length, 0);
  assert.deepEqual(apiCalls, []);
});

test("a search's memory budget is an eighth of what the browser says the device has, 128 to 512 MiB", async () => {
  await open();
  // The budget the page's searches get when the device says it has `gib` GiB (undefined: it
  // says nothing), and with `board`, how far A* got on it when its memory ran out.
  const asked = (gib, board = null) =>
    page.evaluate(
      async ([g, board]) => {
        Object.defineProperty(Navigator.prototype, "deviceMemory", { get: () => g, configurable: true });
        const { api } = await import("./api.js");
        const budget = (await api("/api/info")).limits.max_memory_bytes / 2 ** 20;
        if (!board) return { budget };
        try {
          await api("/api/solve", { board, algorithm: "astar", heuristic: "manhattan", timeout_ms: 60000 });
          return { budget };
        } catch (e) {
          return { budget, limit: e.data.limit, generated: e.data.generated };
        }
      },
      [gib, board],
    );
  for (const [gib, mib] of [[undefined, 512], [8, 512], [4, 512], [2, 256], [1, 128], [0.5, 128]]) {
    assert.equal((await asked(gib)).budget, mib, `${gib} GiB`);
  }
  // And the searches keep to it: A* on a 24-puzzle stops at its memory limit, twice as far on
  // with twice the budget.
  const small = await asked(1, FIVE);
  const large = await asked(2, FIVE);
  assert.equal(small.limit, "memory");
  assert.equal(large.limit, "memory");
  assert.ok(large.generated > 1.5 * small.generated, `${large.generated} nodes against ${small.generated}`);
  assert.deepEqual(apiCalls, []);
});

test("a folder copied without site.json, or without its module, says which file is missing", async () => {
  await page.route("**/site.json", (r) => r.fulfill({ status: 404, body: "" }));
  await page.goto(`${BASE}/`);
  await waitForStatus(/^This folder is incomplete: site\.json is missing/);
  await page.unroute("**/site.json");
  await page.route("**/pkg/taquin_wasm_bg.wasm", (r) => r.fulfill({ status: 404, body: "" }));
  await page.goto("about:blank");
  await page.goto(`${BASE}/`);
  await waitForStatus(/^This folder is incomplete: pkg\/taquin_wasm_bg\.wasm could not be loaded \(404\)/);
});
