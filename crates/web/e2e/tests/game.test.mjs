// Browser tests of the taquin web game: real headless Chromium (Debian's package) driven by
// Playwright. The server is started by scripts/e2e.sh, which passes its address in TAQUIN_URL.
import { test, before, after, beforeEach, afterEach } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const BASE = process.env.TAQUIN_URL || "http://127.0.0.1:8080";
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
const HERE = dirname(fileURLToPath(import.meta.url));
const SCREENSHOT = process.env.TAQUIN_SCREENSHOT || join(HERE, "..", "..", "..", "..", "docs", "screenshot.png");
const ARTICLE = "6 4 7/8 5 0/3 2 1";
const GOAL = "1 2 3/4 5 6/7 8 0";

let context;
let page;
let profile;

before(async () => {
  profile = mkdtempSync(join(tmpdir(), "taquin-e2e-"));
  // A persistent context is how Playwright passes a fresh --user-data-dir of our own.
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
    viewport: { width: 1280, height: 900 },
  });
  context.setDefaultTimeout(15000);
});

after(async () => {
  await context?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

beforeEach(async () => {
  page = await context.newPage();
  page.on("pageerror", (err) => {
    throw err;
  });
});

afterEach(async () => {
  await page.close();
});

async function open(hash = "") {
  await page.goto(`${BASE}/${hash}`);
  await page.waitForSelector("body[data-ready=true]");
  // The selects are filled from /api/info.
  await page.waitForSelector("#algorithm option", { state: "attached" });
}

const line = (which) => page.getAttribute(`#${which}`, "data-line");
const status = () => page.textContent("#status");

async function waitForLine(which, expected) {
  await page.waitForFunction(
    ([id, want]) => document.getElementById(id).dataset.line === want,
    [which, expected],
  );
}

async function typeBoard(which, text) {
  await page.fill(`#${which}-input`, text);
  await page.press(`#${which}-input`, "Enter");
}

test("the page loads with the article's boards side by side", async () => {
  await open();
  assert.equal(await page.title(), "taquin: the sliding-tile puzzle");
  assert.equal(await line("board"), ARTICLE);
  assert.equal(await line("goal"), GOAL);
  assert.equal(await page.locator("#board .tile").count(), 9);
  const board = await page.locator("#board").boundingBox();
  const goal = await page.locator("#goal").boundingBox();
  assert.ok(goal.x > board.x + board.width - 1, "goal board to the right of the initial board");
  const algorithms = await page.$$eval("#algorithm option", (os) => os.map((o) => o.value));
  assert.ok(algorithms.includes("astar") && algorithms.includes("idastar"));
});

test("clicking a tile next to the gap slides it there", async () => {
  await open();
  const tile = page.locator('#board .tile[data-tile="5"]');
  const before = await tile.boundingBox();
  await tile.click();
  await waitForLine("board", "6 4 7/8 0 5/3 2 1");
  assert.equal(await page.textContent("#move-count"), "1");
  // The tile really travels one cell to the right once the slide animation is over.
  await page.waitForFunction(
    (x) => {
      const r = document.querySelector('#board .tile[data-tile="5"]').getBoundingClientRect();
      return r.x > x + r.width * 0.9;
    },
    before.x,
  );
  // A tile not next to the gap does not move.
  await page.locator('#board .tile[data-tile="6"]').click();
  assert.equal(await line("board"), "6 4 7/8 0 5/3 2 1");
  // Keyboard: the right arrow slides the tile left of the gap (8) right; undo brings it back.
  await page.locator("#board").focus();
  await page.keyboard.press("ArrowRight");
  await waitForLine("board", "6 4 7/0 8 5/3 2 1");
  await page.click("#undo");
  await waitForLine("board", "6 4 7/8 0 5/3 2 1");
});

test("solving the article's board gives 31 moves, and Show Step walks them to the goal", async () => {
  await open();
  await page.selectOption("#algorithm", "astar");
  await page.click("#solve");
  await page.waitForSelector("#solution:not([hidden])");
  assert.equal(await page.textContent("#steps-count"), "31");
  const moves = await page.getAttribute("#moves-text", "data-moves");
  assert.match(moves, /^[UDLR]{31}$/);
  assert.match(await status(), /Solved in .*31 moves \(optimal\)/);
  for (let i = 1; i <= 31; i++) {
    await page.click("#step");
    assert.equal(await page.textContent("#step-index"), `${i} / 31`);
    const current = await page.$eval("#moves-text span.current", (s) => Number(s.dataset.index));
    assert.equal(current, i - 1, "the move just played is highlighted");
  }
  assert.equal(await line("board"), GOAL);
  assert.ok(await page.isDisabled("#step"));
  assert.match(await status(), /Goal reached after 31 moves/);
  // The player goes back too.
  await page.click("#step-back");
  assert.equal(await page.textContent("#step-index"), "30 / 31");
  await page.click("#to-start");
  assert.equal(await line("board"), ARTICLE);
  await page.click("#to-end");
  assert.equal(await line("board"), GOAL);
});

test("the goal can be edited and the solver reaches the new goal", async () => {
  await open();
  await typeBoard("goal", "0 1 2/3 4 5/6 7 8");
  await waitForLine("goal", "0 1 2/3 4 5/6 7 8");
  await page.waitForFunction(() => !document.getElementById("solve").disabled);
  await page.click("#solve");
  await page.waitForSelector("#solution:not([hidden])");
  await page.click("#to-end");
  assert.equal(await line("board"), "0 1 2/3 4 5/6 7 8");
  // Editing by clicking: swap two tiles of the goal.
  await page.click("#edit-goal");
  await page.locator('#goal .tile[data-tile="1"]').click();
  await page.locator('#goal .tile[data-tile="2"]').click();
  await waitForLine("goal", "0 2 1/3 4 5/6 7 8");
  await page.click("#edit-goal");
  // Editing by dragging: drop tile 6 of the initial board onto tile 1.
  await page.click("#edit-board");
  const from = await page.locator('#board .tile[data-tile="6"]').boundingBox();
  const to = await page.locator('#board .tile[data-tile="1"]').boundingBox();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 5 });
  await page.mouse.up();
  // The board was on the goal 0 1 2/3 4 5/6 7 8: tiles 6 and 1 trade places.
  await waitForLine("board", "0 6 2/3 4 5/1 7 8");
  await page.click("#edit-board");
});

test("an unsolvable pair is refused with its reason before any search", async () => {
  await open();
  await typeBoard("board", "1 2 3/4 5 6/8 7 0");
  await page.waitForFunction(() => /unsolvable/.test(document.getElementById("status").textContent));
  assert.match(await status(), /1 inversion away/);
  assert.ok(await page.isDisabled("#solve"));
  assert.ok(await page.isDisabled("#hint"));
  // A typo gets the parser's message.
  await typeBoard("board", "1 2 3/4 x 6/7 8 0");
  await page.waitForFunction(() => /'x' is not a tile/.test(document.getElementById("status").textContent));
  assert.match(await page.getAttribute("#board-input", "class"), /invalid/);
});

test("the hint shows the optimal next move, and finishing by hand is celebrated", async () => {
  await open("#board=1,2,3/4,5,6/7,0,8");
  await waitForLine("board", "1 2 3/4 5 6/7 0 8");
  await page.click("#hint");
  await page.waitForFunction(() => /Hint: slide 8 left/.test(document.getElementById("status").textContent));
  assert.match(await status(), /1 moves to the goal/);
  assert.match(await page.getAttribute('#board .tile[data-tile="8"]', "class"), /hinted/);
  await page.locator("#board").focus();
  await page.keyboard.press("ArrowLeft");
  await page.waitForSelector("#celebrate:not([hidden])");
  assert.match(await page.textContent("#celebrate-text"), /1 moves/);
  await page.click("#celebrate-close");
});

test("a long solve shows progress and can be cancelled, which stops the search", async () => {
  // A uniformly random 5x5 board with the weakest heuristic: far beyond any time limit.
  const g = await (await fetch(`${BASE}/api/generate`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ width: 5, height: 5, seed: 42 }),
  })).json();
  await open(`#board=${g.board.replace(/ /g, ",")}`);
  await waitForLine("board", g.board);
  await page.selectOption("#algorithm", "idastar");
  await page.selectOption("#heuristic", "misplaced");
  await page.selectOption("#time-limit", "60000");
  await page.click("#solve");
  await page.waitForFunction(() => /nodes generated/.test(document.getElementById("progress-text").textContent));
  assert.ok(await page.isVisible("#cancel"));
  // The page stays responsive while the search runs.
  assert.ok(await page.isDisabled("#solve"));
  await page.click("#cancel");
  await page.waitForFunction(() => /cancelled/.test(document.getElementById("status").textContent));
  assert.ok(await page.isHidden("#progress"));
  // The server stops the search once the client has gone: no search left running.
  let running = -1;
  for (let i = 0; i < 100 && running !== 0; i++) {
    running = (await (await fetch(`${BASE}/api/info`)).json()).running;
    if (running !== 0) await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(running, 0);
});

test("a shared link reproduces both boards; sizes and tile styles change", async () => {
  await open("#board=2,3/1,0&goal=1,2/3,0");
  await waitForLine("board", "2 3/1 0");
  assert.equal(await line("goal"), "1 2/3 0");
  await page.selectOption("#width", "4");
  await page.waitForFunction(() => document.getElementById("board").dataset.line.split("/")[0].split(" ").length === 4);
  assert.equal(await line("goal"), "1 2 3 4/5 6 7 0", "2 rows of 4 columns");
  const link = await page.evaluate(() => location.href);
  const shared = await line("board");
  await open(link.slice(link.indexOf("#")));
  assert.equal(await line("board"), shared);
  await page.selectOption("#tile-style", "letters");
  assert.equal(await page.textContent('#board .tile[data-tile="1"] .face'), "A");
  await page.selectOption("#tile-style", "image");
  assert.match(await page.getAttribute('#board .tile[data-tile="1"]', "class"), /image/);
});

test("the comparison and the search tree", async () => {
  await open("#board=1,2,3/4,0,6/7,5,8");
  await page.click("#compare");
  await page.waitForSelector("table.compare tbody tr");
  const heuristics = await page.$$eval("#heuristic option", (os) => os.length);
  assert.equal(await page.locator("table.compare tbody tr").count(), heuristics);
  await page.click("#tree");
  await page.waitForSelector("#tree-result svg");
  assert.equal(await page.locator("#tree-result svg g[data-node]").count(), 7);
  assert.match(await page.textContent("#tree-result .tree-legend"), /path of 2 moves: DR/);
});

test("the page fits a phone screen", async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  await open();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `no sideways scrolling (overflow ${overflow}px)`);
  const board = await page.locator("#board").boundingBox();
  assert.ok(board.width > 120, "the boards stay playable");
  // A swipe to the right slides the tile left of the gap (5) right.
  const box = await page.locator("#board").boundingBox();
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.5);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.8, box.y + box.height * 0.5, { steps: 4 });
  await page.mouse.up();
  await waitForLine("board", "6 4 7/8 0 5/3 2 1");
});

test("screenshot for the README", async () => {
  await page.setViewportSize({ width: 1280, height: 990 });
  await open();
  await page.selectOption("#algorithm", "astar");
  await page.click("#solve");
  await page.waitForSelector("#solution:not([hidden])");
  await page.click("#compare");
  await page.waitForSelector("table.compare tbody tr");
  for (let i = 0; i < 12; i++) await page.click("#step");
  await page.waitForTimeout(400); // let the last slide finish before the picture
  mkdirSync(dirname(SCREENSHOT), { recursive: true });
  await page.screenshot({ path: SCREENSHOT });
});
