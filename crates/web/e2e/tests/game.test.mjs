// The game at desktop size: boards, play, undo, solve, the player, links, the dialog.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  useBrowser, page, tileCell, open, line, status, waitForLine, waitForStatus, typeBoard, api, readCells,
  fakeStream, BROKEN, ARTICLE, GOAL,
} from "../lib/browser.mjs";

useBrowser();

/** The server's searches all end within 10 s (`running` in /api/info back to 0). */
async function assertNothingRuns() {
  let running = -1;
  for (let i = 0; i < 100 && running !== 0; i++) {
    running = (await api("/api/info")).running;
    if (running !== 0) await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(running, 0);
}

test("the page loads with the article's boards side by side, the menus on auto", async () => {
  await open();
  assert.equal(await page.title(), "taquin: the sliding-tile puzzle");
  assert.equal(await line("board"), ARTICLE);
  assert.equal(await line("goal"), GOAL);
  assert.equal(await page.locator("#board .tile").count(), 9);
  const board = await page.locator("#board").boundingBox();
  const goal = await page.locator("#goal").boundingBox();
  assert.ok(goal.x > board.x + board.width - 1, "goal board to the right of the initial board");
  for (const id of ["algorithm", "heuristic"]) {
    assert.equal(await page.$eval(`#${id}`, (s) => s.value), "auto");
    assert.equal(await page.$eval(`#${id}`, (s) => s.selectedOptions[0].textContent), "auto (recommended)");
  }
  const algorithms = await page.$$eval("#algorithm option", (os) => os.map((o) => o.value));
  assert.ok(algorithms.includes("astar") && algorithms.includes("idastar"));
  // Sizes up to the server's largest side (8 by default).
  const info = await api("/api/info");
  const widths = await page.$$eval("#width option", (os) => os.map((o) => Number(o.value)));
  assert.equal(Math.max(...widths), info.limits.max_side);
  // The grid a screen reader reads: rows of cells, in board order.
  assert.equal(await page.locator("#board[role=grid] > [role=row]").count(), 3);
  assert.deepEqual(await readCells("board"), ["6", "4", "7", "8", "5", "blank", "3", "2", "1"]);
});

test("a click slides a tile or a whole run; both counts; undo takes moves back", async () => {
  await open();
  const before = await page.locator('#board .tile[data-tile="5"]').boundingBox();
  await tileCell("board", "5").click();
  await waitForLine("board", "6 4 7/8 0 5/3 2 1");
  assert.equal(await page.textContent("#move-count"), "1");
  assert.equal(await page.textContent("#slide-count"), "1");
  // The tile really travels one cell to the right once the slide animation is over.
  await page.waitForFunction(
    (x) => document.querySelector('#board .tile[data-tile="5"]').getBoundingClientRect().x > x + 50,
    before.x,
  );
  // Screen readers read the cells in the board's new order.
  assert.deepEqual(await readCells("board"), ["6", "4", "7", "8", "blank", "5", "3", "2", "1"]);
  // A tile in neither the gap's row nor its column does not move.
  await tileCell("board", "6").click();
  assert.equal(await line("board"), "6 4 7/8 0 5/3 2 1");
  // The gap to the left edge, then a click on the far end of its row slides two tiles at once.
  await tileCell("board", "8").click();
  await waitForLine("board", "6 4 7/0 8 5/3 2 1");
  await tileCell("board", "5").click();
  await waitForLine("board", "6 4 7/8 5 0/3 2 1");
  assert.equal(await page.textContent("#move-count"), "4", "single-tile metric: 1 + 1 + 2");
  assert.equal(await page.textContent("#slide-count"), "2", "multi-tile metric: R, then L L L as one run");
  // Undo takes the whole last slide back and counts down.
  await page.click("#undo");
  await waitForLine("board", "6 4 7/0 8 5/3 2 1");
  assert.equal(await page.textContent("#move-count"), "2");
  await page.click("#undo");
  await page.click("#undo");
  await waitForLine("board", ARTICLE);
  assert.equal(await page.textContent("#move-count"), "0");
  assert.ok(await page.isDisabled("#undo"));
});

test("arrow keys move tiles only while the board has the focus", async () => {
  await open();
  await page.locator("#board-input").focus();
  await page.keyboard.press("ArrowRight");
  await page.locator("#algorithm").focus();
  await page.keyboard.press("ArrowDown");
  assert.equal(await line("board"), ARTICLE);
  assert.equal(await page.textContent("#move-count"), "0");
  await page.locator("#board").focus();
  await page.keyboard.press("ArrowRight");
  await waitForLine("board", "6 4 7/8 0 5/3 2 1");
  await page.keyboard.press("Control+z");
  await waitForLine("board", ARTICLE);
});

test("Solve leaves algorithm and heuristic to the server, and Step walks the answer to the goal", async () => {
  await open();
  const bodies = [];
  page.on("request", (r) => r.url().endsWith("/api/solve/stream") && bodies.push(JSON.parse(r.postData())));
  await page.click("#solve");
  await page.waitForSelector("#solution:not([hidden])");
  assert.equal(bodies.length, 1);
  assert.ok(!("algorithm" in bodies[0]) && !("heuristic" in bodies[0]), JSON.stringify(bodies[0]));
  assert.equal(await page.textContent("#steps-count"), "31");
  assert.match(await page.textContent("#solution-kind"), /^optimal$/);
  const stats = await page.textContent("#solution-stats");
  const words = await page.$$eval("#algorithm option, #heuristic option", (os) => os.map((o) => o.textContent));
  assert.ok(words.some((w) => stats.startsWith(w)), `the stats use the menus' words: ${stats}`);
  assert.doesNotMatch(stats, /\+ none|idastar|walking-distance/);
  // The planner's decision too, in the same words, with its reason.
  const plan = await page.textContent("#solution-plan");
  assert.ok(plan.startsWith(`${stats.split(" · ")[0]}: `), `the plan names the search as the stats do: ${plan}`);
  assert.doesNotMatch(plan, /idastar|pdb:/);
  const moves = await page.getAttribute("#moves-text", "data-moves");
  assert.match(moves, /^[UDLR]{31}$/);
  assert.match(await status(), /Solved in .*31 moves \(optimal\)/);
  const y = await page.evaluate(() => window.scrollY);
  for (let i = 1; i <= 31; i++) {
    await page.click("#step");
    assert.equal(await page.textContent("#step-index"), `${i} / 31`);
    const current = await page.$eval("#moves-text .move.current", (s) => Number(s.dataset.index));
    assert.equal(current, i - 1, "the move just played is highlighted");
  }
  assert.equal(await page.evaluate(() => window.scrollY), y, "stepping never scrolls the page");
  assert.equal(await line("board"), GOAL);
  assert.ok(await page.isDisabled("#step"));
  assert.match(await status(), /Goal reached after 31 moves/);
  await page.click("#step-back");
  assert.equal(await page.textContent("#step-index"), "30 / 31");
  // Away from the goal again: the status no longer says it was reached.
  assert.doesNotMatch(await status(), /Goal reached/);
  // A screen reader hears the tile a step moves back, and where the player is.
  await page.waitForFunction(() => / (up|down|left|right), move 30 of 31$/.test(document.getElementById("announce").textContent));
  await page.click("#to-start");
  assert.equal(await line("board"), ARTICLE);
  await page.click("#to-end");
  assert.equal(await line("board"), GOAL);
});

test("the moves box keeps the current move in view, and never scrolls the page", async () => {
  // 5x5, 200 moves round and round the corner: a list far longer than its box.
  await open(`#board=${"1,2,3,4,5/6,7,8,9,10/11,12,13,14,15/16,17,18,19,20/21,22,23,24,0"}&moves=${"ULDR".repeat(50)}`);
  await page.waitForSelector("#player:not([hidden])");
  const inView = () => page.evaluate(() => {
    const box = document.getElementById("moves-text");
    const current = box.querySelector(".move.current");
    const b = box.getBoundingClientRect(), r = current.getBoundingClientRect();
    return box.scrollHeight > box.clientHeight + 50 && r.top >= b.top - 1 && r.bottom <= b.bottom + 1;
  });
  const y = await page.evaluate(() => window.scrollY);
  await page.click("#to-end");
  assert.ok(await inView(), "the last move, at the end of the list");
  await page.click("#to-start");
  for (let i = 0; i < 3; i++) await page.click("#step");
  assert.ok(await inView(), "the third move, back at the top");
  assert.equal(await page.evaluate(() => window.scrollY), y);
});

test("the comparison is of the puzzle's start, also while its solution is stepped", async () => {
  await open();
  await page.click("#solve");
  await page.waitForSelector("#solution:not([hidden])");
  for (let i = 0; i < 5; i++) await page.click("#step");
  const bodies = [];
  page.on("request", (r) => r.url().endsWith("/api/solve") && bodies.push(JSON.parse(r.postData())));
  await page.click("#compare");
  await page.waitForFunction(() => /^Done/.test(document.getElementById("compare-status").textContent));
  assert.ok(bodies.length > 0 && bodies.every((b) => b.board === ARTICLE), JSON.stringify(bodies.map((b) => b.board)));
  assert.ok(await page.isHidden("#compare-stale"), "not out of date at once");
  assert.match(await page.textContent("#compare-result"), /31/);
});

test("a hint on a board over 16 cells comes within seconds, from the best solution found", async () => {
  const g = await api("/api/generate", { width: 5, height: 5, seed: 4 });
  await open(`#board=${g.board.replace(/ /g, ",")}`);
  await waitForLine("board", g.board);
  const bodies = [];
  page.on("request", (r) => r.url().endsWith("/api/hint") && bodies.push(JSON.parse(r.postData())));
  await page.click("#hint");
  await waitForStatus(/Hint: slide \S+ (up|down|left|right) .*it starts a solution of \d+ moves, not proven the shortest \(at least \d+ are needed\)/);
  assert.equal(bodies[0].timeout_ms, 2000);
  assert.equal(await page.locator("#board .tile.hinted").count(), 1);
});

test("a link whose boards cannot be opened says why", async () => {
  await open("#board=1,2,3/4,5,6/7,8,8");
  await waitForStatus(/The link's boards could not be opened: every tile from 0 to 8 must appear once.*usual board/);
  assert.equal(await line("board"), ARTICLE);
  await page.evaluate(() => (location.hash = "#board=1,2/3,0&goal=1,2,3/4,5,6/7,8,0"));
  await waitForStatus(/could not be opened: its goal is 3x3 and its board 2x2/);
});

test("a goal of another size typed in brings a board of that size, shuffled, and says why", async () => {
  await open();
  await typeBoard("goal", "1 2/3 0");
  await waitForStatus(/^The size changed to 2x2 to fit the goal\. Shuffled uniformly at random\.$/);
  assert.equal(await line("goal"), "1 2/3 0");
  const board = await line("board");
  assert.notEqual(board, "1 2/3 0", "the board is not the goal");
  assert.deepEqual(board.split(/[ /]/).map(Number).sort(), [0, 1, 2, 3]);
  assert.deepEqual([await page.inputValue("#width"), await page.inputValue("#height")], ["2", "2"]);
  await page.waitForFunction(() => !document.getElementById("solve").disabled);
});

test("a goal by name, in a link or typed, is laid out on the board's size", async () => {
  // The n-puzzle project's snail on 3x3, as the command line's --goal snail lays it out.
  await open("#board=1,2,3/8,4,0/7,6,5&goal=snail");
  await waitForLine("goal", "1 2 3/8 0 4/7 6 5");
  await waitForLine("board", "1 2 3/8 4 0/7 6 5");
  await typeBoard("goal", "korf");
  await waitForLine("goal", "0 1 2/3 4 5/6 7 8");
  await typeBoard("goal", "Standard");
  await waitForLine("goal", GOAL);
  // A word that is no goal's name is refused as a board is, with the names there are.
  await typeBoard("goal", "spiral");
  await waitForStatus(/Goal/);
  assert.equal(await line("goal"), GOAL);
  const said = await status();
  assert.match(said, /^Goal: row 1: /, "the goal named once, as the goal");
  assert.match(said, /Goals by name: standard, korf or snail\.$/);
});

test("a typed board's error names the board once", async () => {
  await open();
  await typeBoard("board", "1 2 3/4 5/7 8 0");
  await waitForStatus(/Initial board/);
  assert.match(await status(), /^Initial board: row 2 has 2 tiles/);
});

test("a link with a board on one line, as instance files write it, opens it with its rows", async () => {
  // Korf's 15-puzzle #1 as korf100.txt writes it, with Korf's goal on one line too.
  await open("#board=14,13,15,7,11,12,9,5,6,0,2,1,4,8,10,3&goal=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15");
  await waitForLine("board", "14 13 15 7/11 12 9 5/6 0 2 1/4 8 10 3");
  assert.equal(await line("goal"), "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15");
  // One line of any other count cannot be told apart, and the link says so.
  await page.evaluate(() => (location.hash = "#board=1,2,3,4,5,0"));
  await waitForStatus(/could not be opened: its board: this is one row of 6 tiles/);
});

test("walking distance where its tables are too large says so, with what to choose instead", async () => {
  const g = await api("/api/generate", { width: 5, height: 5, seed: 4 });
  await open(`#board=${g.board.replace(/ /g, ",")}`);
  await waitForLine("board", g.board);
  await page.selectOption("#algorithm", "astar");
  await page.selectOption("#heuristic", "walking-distance");
  await page.click("#solve");
  await waitForStatus(/^Walking distance needs tables of more than 4,000,000 states on a 5x5 board \(65,650,495 each way\): choose the linear-conflict heuristic, or auto, the planner's choice/);
  // The advice is said once, in words that fit the page (no command-line flag, no table name
  // the menu lacks).
  assert.doesNotMatch(await status(), /--|pdb:|could not do this|Choose another/);
});

test("a chosen algorithm and heuristic are sent, and named with the menus' words", async () => {
  await open();
  await page.selectOption("#algorithm", "astar");
  await page.selectOption("#heuristic", "linear-conflict");
  await page.click("#solve");
  await page.waitForSelector("#solution:not([hidden])");
  assert.match(await page.textContent("#solution-stats"), /^A\* with linear conflict ·/);
});

test("an algorithm that takes no heuristic switches the heuristic menu off and sends none", async () => {
  await open();
  await page.selectOption("#heuristic", "manhattan");
  await page.selectOption("#algorithm", "bfs");
  assert.ok(await page.locator("#heuristic").isDisabled());
  const bodies = [];
  page.on("request", (r) => r.url().endsWith("/api/solve/stream") && bodies.push(JSON.parse(r.postData())));
  await page.click("#solve");
  await page.waitForSelector("#solution:not([hidden])");
  assert.equal(bodies[0].algorithm, "bfs");
  assert.ok(!("heuristic" in bodies[0]), JSON.stringify(bodies[0]));
  // Back to a guided search, the menu and its choice count again.
  await page.selectOption("#algorithm", "astar");
  assert.ok(await page.locator("#heuristic").isEnabled());
  assert.equal(await page.inputValue("#heuristic"), "manhattan");
});

test("the anytime search's improvements show as 'best so far', then the plan", async () => {
  await fakeStream([
    { progress: { generated: 1000, expanded: 500, bound: 20, time_ms: 5 } },
    { improved: { length: 104, lower_bound: 96, moves: "", time_ms: 10 } },
    { improved: { length: 100, lower_bound: 97, moves: "", time_ms: 20 } },
    {
      solution: {
        moves: "ULDLDRURDLUULDDRURULLDRRULLDRDR", length: 31, optimal: true, lower_bound: 31,
        algorithm: "idastar", heuristic: "walking-distance", expanded: 3484, generated: 6362, time_ms: 0.2,
        plan: "IDA* with walking distance: a 3x3 board is solved optimally in well under a second",
      },
    },
  ], 400);
  await open();
  await page.click("#solve");
  await page.waitForFunction(() => /Best so far: 104 moves, optimal ≥ 96/.test(document.getElementById("best-so-far").textContent));
  await page.waitForFunction(() => /Best so far: 100 moves, optimal ≥ 97/.test(document.getElementById("best-so-far").textContent));
  await page.waitForSelector("#solution:not([hidden])");
  assert.ok(await page.isHidden("#best-so-far"));
  assert.match(await page.textContent("#solution-plan"), /^IDA\* with walking distance: /);
});

test("a search waiting for a busy server's worker says so, then searches", async () => {
  await fakeStream([
    { waiting: { position: 2, max_wait_ms: 10000 } },
    { progress: { generated: 1000, expanded: 500, bound: 20, time_ms: 5 } },
    { solution: { moves: "ULDLDRURDLUULDDRURULLDRRULLDRDR", length: 31, optimal: true, time_ms: 0.2 } },
  ], 600);
  await open();
  await page.click("#solve");
  await waitForStatus(/^Waiting for the server/);
  assert.equal(await status(), "Waiting for the server: every worker is busy, 1 search ahead of this one. The search starts when one is free (waiting up to 10 s).");
  assert.equal(await page.textContent("#progress-text"), "Waiting for a free worker…");
  await waitForStatus(/^Searching…$/);
  await waitForStatus(/^Solved in/);
  await page.click("#to-end");
  assert.equal(await line("board"), GOAL);
});

test("a search turned away after waiting for a worker says the server is busy", async () => {
  await fakeStream([
    { waiting: { position: 1, max_wait_ms: 10000 } },
    { error: { code: "busy", status: 503, error: "the server is busy solving other boards: try again in a moment" } },
  ], 300);
  await open();
  await page.click("#solve");
  await waitForStatus(/^The server is busy with other searches: try again in a few seconds\.$/);
  assert.match(await page.getAttribute("#status", "class"), /error/);
  assert.ok(await page.isHidden("#progress"));
});

test("a stream that ends without its answer (only a waiting line) says so, not that the answer lacks a solution", async () => {
  await fakeStream([{ waiting: { position: 1, max_wait_ms: 10000 } }], 200);
  await open();
  await page.click("#solve");
  await waitForStatus(/^The server closed the stream without an answer/);
  assert.ok(await page.isHidden("#progress"));
});

test("'best so far' is written only when it changes, so a screen reader reads it once", async () => {
  const progress = (generated) => ({ progress: { generated, expanded: generated / 2, bound: 96, time_ms: 5 } });
  await fakeStream([
    { improved: { length: 104, lower_bound: 96, moves: "", time_ms: 10 } },
    progress(1000), progress(2000), progress(3000),
    { improved: { length: 100, lower_bound: 96, moves: "", time_ms: 20 } },
    progress(4000), progress(5000),
    { solution: { moves: "ULDLDRURDLUULDDRURULLDRRULLDRDR", length: 31, optimal: true } },
  ], 150);
  await open();
  await page.evaluate(() => {
    window.__bestTexts = [];
    const el = document.getElementById("best-so-far");
    new MutationObserver(() => window.__bestTexts.push(el.textContent))
      .observe(el, { childList: true, characterData: true, subtree: true });
  });
  await page.click("#solve");
  await page.waitForSelector("#solution:not([hidden])");
  const texts = (await page.evaluate(() => window.__bestTexts)).filter((t) => t);
  assert.deepEqual(texts, [
    "Best so far: 104 moves, optimal ≥ 96 (10 ms)",
    "Best so far: 100 moves, optimal ≥ 96 (20 ms)",
  ]);
});

test("Solve stops the play clock, and Play's pause says where it stopped", async () => {
  await open();
  await tileCell("board", "5").click();
  await page.waitForFunction(() => document.getElementById("move-count").textContent === "1");
  await page.click("#solve");
  await page.waitForSelector("#solution:not([hidden])");
  const clock = await page.textContent("#timer");
  await page.click("#to-end");
  await waitForStatus(/Goal reached/);
  // The clock ticks every 250 ms while it runs.
  await page.waitForTimeout(1300);
  assert.equal(await page.textContent("#timer"), clock, "the clock stood still while the solution played");
  await page.click("#to-start");
  await page.click("#play");
  await page.waitForFunction(() => /^\d+ \/ /.test(document.getElementById("step-index").textContent) &&
    !document.getElementById("step-index").textContent.startsWith("0 /"));
  await page.click("#play");
  const at = (await page.textContent("#step-index")).split(" / ");
  // The region is emptied, then written at the next frame (announce).
  await page.waitForFunction((want) => document.getElementById("announce").textContent === want,
    `Paused after move ${at[0]} of ${at[1]}`);
});

test("the solution's moves are one tab stop: the arrow keys go from move to move, Enter or Space jumps there", async () => {
  await open();
  await page.click("#solve");
  await page.waitForSelector("#solution:not([hidden])");
  // The move the keyboard is on (the number of moves it jumps to), or the id of what has focus.
  const focused = () => page.evaluate(() => {
    const a = document.activeElement;
    return a.closest("#moves-text") ? Number(a.dataset.end) : a.id;
  });
  const tabToList = async () => {
    for (let i = 0; i < 80 && typeof (await focused()) !== "number"; i++) await page.keyboard.press("Tab");
  };
  await page.focus("#to-end");
  await tabToList();
  assert.equal(await focused(), 1, "Tab comes into the list on its first move");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowDown");
  assert.equal(await focused(), 3);
  assert.equal(await page.textContent("#step-index"), "0 / 31", "going along the list jumps nowhere");
  assert.equal(await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle), "solid", "the move is ringed");
  await page.keyboard.press("Enter");
  assert.equal(await page.textContent("#step-index"), "3 / 31");
  await page.waitForFunction(() => document.getElementById("announce").textContent === "After move 3 of 31");
  assert.equal(await focused(), 3, "the focus stays on the move");
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute("aria-current")), "step");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("ArrowLeft");
  assert.equal(await focused(), 1, "the first move is as far back as the arrows go");
  await page.keyboard.press("End");
  assert.equal(await focused(), 31);
  await page.keyboard.press(" ");
  assert.equal(await page.textContent("#step-index"), "31 / 31");
  await waitForStatus(/Goal reached after 31 moves/);
  await page.keyboard.press("Home");
  assert.equal(await focused(), 1);
  assert.equal(await page.textContent("#step-index"), "31 / 31", "Home in the list goes to its first move, not to the start");
  // One tab stop: the next Tab leaves the list, and Tab comes back to it on the current move.
  await page.keyboard.press("Tab");
  assert.equal(typeof (await focused()), "string", "Tab leaves the list");
  await page.click("#to-start");
  for (let i = 0; i < 5; i++) await page.click("#step");
  await tabToList();
  assert.equal(await focused(), 5);
});

test("a cancelled picture picker leaves the tile menu on the tiles shown", async () => {
  await open();
  // The picker counted rather than opened: a dialog cancelled is one that was never answered.
  await page.evaluate(() => {
    window.__picks = 0;
    document.getElementById("image-file").click = () => window.__picks++;
  });
  await page.selectOption("#tile-style", "custom");
  assert.equal(await page.inputValue("#tile-style"), "numbers");
  // Chosen again, the menu hears a change and opens the picker again.
  await page.selectOption("#tile-style", "custom");
  assert.equal(await page.inputValue("#tile-style"), "numbers");
  assert.equal(await page.evaluate(() => window.__picks), 2);
});

test("cancelling an anytime search keeps its best solution, replayed to the goal", async () => {
  const moves = "ULDLDRURDLUULDDRURULLDRRULLDRDR";
  await fakeStream([
    { improved: { length: 31, lower_bound: 25, moves, time_ms: 10 } },
    { progress: { generated: 1000, expanded: 500, bound: 26, time_ms: 5 } },
    { solution: { moves, length: 31, optimal: true } },
  ], 1500);
  await open();
  await page.click("#solve");
  await page.waitForFunction(() => /Best so far: 31 moves, optimal ≥ 25/.test(document.getElementById("best-so-far").textContent));
  await page.click("#cancel");
  await page.waitForSelector("#solution:not([hidden])");
  assert.match(await page.textContent("#solution-kind"), /best found before the search was cancelled; the optimum is at least 25/);
  assert.equal(await page.textContent("#solution-stats"), "");
  await page.click("#to-end");
  assert.equal(await line("board"), GOAL);
});

test("a search cut off by the server or the network keeps its best solution, replayed to the goal", async () => {
  const moves = "ULDLDRURDLUULDDRURULLDRRULLDRDR";
  await fakeStream([{ improved: { length: 31, lower_bound: 25, moves, time_ms: 10 } }, BROKEN]);
  await open();
  await page.click("#solve");
  await page.waitForSelector("#solution:not([hidden])");
  assert.match(await page.textContent("#solution-kind"), /best found before the search stopped; the optimum is at least 25/);
  assert.match(await status(), /The best solution found before that is loaded \(31 moves\)/);
  await page.click("#to-end");
  assert.equal(await line("board"), GOAL);
});

test("Undo takes back the player's own slides only, never the solution player's steps", async () => {
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await open();
  await tileCell("board", "5").click();
  await waitForLine("board", "6 4 7/8 0 5/3 2 1");
  await page.click("#solve");
  await page.waitForSelector("#solution:not([hidden])");
  for (let i = 0; i < 3; i++) await page.click("#step");
  // The board is the player's, not the one the slide left: Undo waits.
  assert.ok(await page.isDisabled("#undo"));
  const stepped = await line("board");
  await page.locator("#board").focus();
  await page.keyboard.press("Control+z");
  assert.equal(await line("board"), stepped);
  await page.click("#to-end");
  await page.keyboard.press("Control+z");
  assert.equal(await line("board"), GOAL);
  // Back at the start of the solution, the board is as the slide left it: Undo takes it back.
  await page.click("#to-start");
  assert.ok(!(await page.isDisabled("#undo")));
  await page.click("#undo");
  await waitForLine("board", ARTICLE);
  assert.deepEqual(errors, []);
});

test("a slide off the solution's path puts the solution away, and Undo brings it back", async () => {
  await open();
  await page.click("#solve");
  await page.waitForSelector("#solution:not([hidden])");
  await page.click("#step");
  const next = await page.getAttribute("#moves-text", "data-moves");
  // A tile the solution's next move does not slide: the gap's other neighbours.
  const stepped = await line("board");
  let off = null;
  for (const key of ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"]) {
    await page.locator("#board").focus();
    await page.keyboard.press(key);
    if ((await line("board")) === stepped) continue;
    if (await page.isHidden("#player")) {
      off = key;
      break;
    }
    // That was the solution's own next move: it follows; take it back and try another.
    await page.click("#undo");
  }
  assert.ok(off, `a move off ${next}`);
  assert.match(await status(), /solution is put away: Undo takes the move back and brings the solution back/);
  await page.click("#undo");
  await waitForLine("board", stepped);
  await page.waitForSelector("#player:not([hidden])");
  assert.equal(await page.textContent("#step-index"), "1 / 31");
  assert.match(await status(), /The solution is back/);
  await page.click("#to-end");
  assert.equal(await line("board"), GOAL);
});

test("the bound shown is the best proven, also when it rises between improvements", async () => {
  const moves = "ULDLDRURDLUULDDRURULLDRRULLDRDR";
  await fakeStream([
    { improved: { length: 31, lower_bound: 25, moves, time_ms: 10 } },
    { progress: { generated: 1000, expanded: 500, bound: 29, time_ms: 20 } },
    // A later line with a lower bound than seen (a report read before the raise) changes nothing.
    { progress: { generated: 2000, expanded: 900, bound: 27, time_ms: 30 } },
    { progress: { generated: 3000, expanded: 1500, bound: 31, time_ms: 40 } },
    { solution: { moves, length: 31, optimal: true } },
  ], 700);
  await open();
  await page.click("#solve");
  await page.waitForFunction(() => /Best so far: 31 moves, optimal ≥ 29/.test(document.getElementById("best-so-far").textContent));
  await page.waitForFunction(() => /2,?000 nodes|2000 nodes/.test(document.getElementById("progress-text").textContent));
  assert.match(await page.textContent("#progress-text"), /at least 29 moves/);
  assert.match(await page.textContent("#best-so-far"), /optimal ≥ 29/);
  // Once the bound meets the best length, the answer kept at a cancel is proven optimal.
  await page.waitForFunction(() => /optimal ≥ 31/.test(document.getElementById("best-so-far").textContent));
  await page.click("#cancel");
  await page.waitForSelector("#solution:not([hidden])");
  assert.equal(await page.textContent("#solution-kind"), "optimal");
});

test("keyboard focus follows Solve to Cancel, and Cancel to the player", async () => {
  const moves = "ULDLDRURDLUULDDRURULLDRRULLDRDR";
  await fakeStream([{ improved: { length: 31, lower_bound: 25, moves, time_ms: 10 } }, { solution: { moves, length: 31 } }], 3000);
  await open();
  await page.focus("#solve");
  await page.keyboard.press("Enter");
  await page.waitForSelector("#cancel:not([hidden])");
  assert.equal(await page.evaluate(() => document.activeElement.id), "cancel");
  await page.waitForFunction(() => /Best so far/.test(document.getElementById("best-so-far").textContent));
  await page.keyboard.press("Enter");
  await page.waitForSelector("#solution:not([hidden])");
  assert.equal(await page.evaluate(() => document.activeElement.id), "step");
  // Step on the last move disables itself: focus goes back a step, not to the page.
  await page.click("#to-end");
  await page.click("#step-back");
  await page.focus("#step");
  await page.keyboard.press("Enter");
  assert.equal(await page.evaluate(() => document.activeElement.id), "step-back");
});

test("errors a web user reads never advise command-line flags", async () => {
  await fakeStream([{ error: { code: "limit_reached", error: "time limit reached after 5 nodes: raise --timeout", limit: "time", lower_bound: 40, generated: 5 } }], 10);
  await open();
  await page.click("#solve");
  await waitForStatus(/time limit was reached/);
  assert.doesNotMatch(await status(), /--/);
  assert.match(await status(), /at least 40 moves/);
});

test("a board on one line, or pasted with line breaks, is read with its rows", async () => {
  await open();
  // One line of k*k tiles is a k x k board, as the server reads it.
  await typeBoard("board", "1 2 3 4 5 6 7 0 8");
  await waitForLine("board", "1 2 3/4 5 6/7 0 8");
  assert.equal(await page.inputValue("#board-input"), "1 2 3/4 5 6/7 0 8");
  // Any other count cannot be told apart: the page says how to write the rows.
  await typeBoard("board", "1 2 3 4 5 0");
  await waitForStatus(/one row of 6 tiles; separate the rows with \/, e\.g\. 1 2 3\/4 5 6\/7 8 0/);
  assert.match(await page.getAttribute("#board-input", "class"), /invalid/);
  // A paste of an n-puzzle file: its size line goes, its line breaks become slashes.
  await page.fill("#board-input", "");
  await page.focus("#board-input");
  await page.evaluate(() => {
    const data = new DataTransfer();
    data.setData("text/plain", "3\n1 2 3\n4 5 6 # row two\n7 0 8\n");
    document.getElementById("board-input").dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  });
  assert.equal(await page.inputValue("#board-input"), "1 2 3/4 5 6/7 0 8");
  await page.press("#board-input", "Enter");
  await waitForLine("board", "1 2 3/4 5 6/7 0 8");
});

test("a page load logs no error", async () => {
  const errors = [];
  const listen = (m) => m.type() === "error" && errors.push(m.text());
  page.on("console", listen);
  try {
    await open();
    assert.deepEqual(errors, []);
  } finally {
    page.off("console", listen);
  }
});

test("an unsolvable pair offers no search tree either", async () => {
  await open("#board=1,2,3/4,5,6/8,7,0");
  await waitForStatus(/[Uu]nsolvable/);
  assert.ok(await page.isDisabled("#tree"));
  assert.ok(await page.isDisabled("#solve"));
});

test("the goal can be edited, Enter validates once, and the solver reaches the new goal", async () => {
  await open();
  let validations = 0;
  page.on("request", (r) => r.url().endsWith("/api/validate") && validations++);
  await typeBoard("goal", "0 1 2/3 4 5/6 7 8");
  await waitForLine("goal", "0 1 2/3 4 5/6 7 8");
  await page.waitForFunction(() => !document.getElementById("solve").disabled);
  await page.waitForTimeout(300);
  assert.equal(validations, 1, "Enter and the change that follows are one validation");
  await page.click("#solve");
  await page.waitForSelector("#solution:not([hidden])");
  await page.click("#to-end");
  assert.equal(await line("board"), "0 1 2/3 4 5/6 7 8");
  // Editing by clicking: swap two tiles of the goal.
  await page.click("#edit-goal");
  await tileCell("goal", "1").click();
  await tileCell("goal", "2").click();
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
  await waitForLine("board", "0 6 2/3 4 5/1 7 8");
  await page.click("#edit-board");
});

test("an unsolvable pair is refused with its reason before any search", async () => {
  await open();
  await typeBoard("board", "1 2 3/4 5 6/8 7 0");
  await waitForStatus(/[Uu]nsolvable/);
  assert.match(await status(), /1 inversion away/);
  assert.ok(await page.isDisabled("#solve"));
  assert.ok(await page.isDisabled("#hint"));
  await typeBoard("board", "1 2 3/4 x 6/7 8 0");
  await waitForStatus(/'x' is not a tile/);
  assert.match(await page.getAttribute("#board-input", "class"), /invalid/);
});

test("the hint marks the tile; finishing by hand opens a real dialog; Play again reshuffles", async () => {
  await open("#board=1,2,3/4,5,6/7,0,8");
  await waitForLine("board", "1 2 3/4 5 6/7 0 8");
  await page.click("#hint");
  await waitForStatus(/Hint: slide 8 left/);
  assert.match(await status(), /1 move to the goal/, "singular");
  assert.match(await page.getAttribute('#board .tile[data-tile="8"]', "class"), /hinted/);
  await page.locator("#board").focus();
  await page.keyboard.press("ArrowLeft");
  await page.waitForSelector("#celebrate[open]");
  assert.match(await page.textContent("#celebrate-text"), /^1 move \(1 slide\) in /);
  assert.equal(await page.evaluate(() => document.activeElement.id), "celebrate-again");
  // Focus stays in the dialog.
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press("Tab");
    const inside = await page.evaluate(() => document.getElementById("celebrate").contains(document.activeElement) || document.activeElement === document.body);
    assert.ok(inside, "Tab stays in the dialog");
  }
  await page.keyboard.press("Escape");
  await page.waitForSelector("#celebrate:not([open])", { state: "attached" });
  // The dialog's close event (queued after it closes) starts a new game.
  await page.waitForFunction(() => document.getElementById("move-count").textContent === "0");
  // Again, with Play again: a new shuffled board.
  await open("#board=1,2,3/4,5,6/7,0,8");
  await page.locator("#board").focus();
  await page.keyboard.press("ArrowLeft");
  await page.waitForSelector("#celebrate[open]");
  await page.click("#celebrate-again");
  await page.waitForFunction((g) => document.getElementById("board").dataset.line !== g, GOAL);
  await page.waitForSelector("#celebrate:not([open])", { state: "attached" });
});

/** Opens the 6x6 board of seed 9 and solves it with a minute's limit: the anytime search runs
 * until "Best so far" shows its first answer. */
async function startLong6x6Solve() {
  const g = await api("/api/generate", { width: 6, height: 6, seed: 9 });
  await open(`#board=${g.board.replace(/ /g, ",")}`);
  await waitForLine("board", g.board);
  await page.selectOption("#time-limit", "60000");
  await page.click("#solve");
  await page.waitForFunction(() => /Best so far: \d+ moves/.test(document.getElementById("best-so-far").textContent));
}

test("cancelling a real anytime search loads the best it found, which reaches the goal", async () => {
  await startLong6x6Solve();
  const shown = Number((await page.textContent("#best-so-far")).match(/(\d+) moves/)[1]);
  await page.click("#cancel");
  await page.waitForSelector("#solution:not([hidden])");
  assert.match(await page.textContent("#solution-kind"), /best found before the search was cancelled/);
  // The solution loaded is at least as short as the last one shown (a shorter one may have come
  // between the two reads).
  const moves = await page.getAttribute("#moves-text", "data-moves");
  assert.ok(moves.length > 0 && moves.length <= shown, `${moves.length} moves, ${shown} shown`);
  await page.click("#to-end");
  assert.equal(await line("board"), await line("goal"));
});

test("changing the boards during a search stops it and drops its answer", async () => {
  await startLong6x6Solve();
  // A board of another size typed in: the search for the 6x6 stops, and its answer, which
  // would come at its deadline, is never loaded onto the 3x3.
  await typeBoard("board", "1 2 3/4 5 6/7 0 8");
  await waitForStatus(/boards changed/);
  assert.ok(await page.isHidden("#solution"));
  assert.ok(await page.isHidden("#progress"));
  assert.equal(await line("board"), "1 2 3/4 5 6/7 0 8");
  assert.ok(await page.isEnabled("#solve"));
  await assertNothingRuns();
});

test("a long solve shows progress and can be cancelled, which stops the search", async () => {
  const g = await api("/api/generate", { width: 5, height: 5, seed: 42 });
  await open(`#board=${g.board.replace(/ /g, ",")}`);
  await waitForLine("board", g.board);
  await page.selectOption("#algorithm", "idastar");
  await page.selectOption("#heuristic", "misplaced");
  await page.selectOption("#time-limit", "60000");
  await page.click("#solve");
  await page.waitForFunction(() => /nodes generated/.test(document.getElementById("progress-text").textContent));
  assert.ok(await page.isVisible("#cancel"));
  assert.ok(await page.isDisabled("#solve"));
  await page.click("#cancel");
  await waitForStatus(/cancelled/);
  assert.ok(await page.isHidden("#progress"));
  await assertNothingRuns();
});

test("a replay link carries board, goal and moves, and opens on the player", async () => {
  await open();
  await page.click("#solve");
  await page.waitForSelector("#solution:not([hidden])");
  await page.click("#step");
  const link = await page.evaluate(() => location.hash);
  const moves = await page.getAttribute("#moves-text", "data-moves");
  assert.ok(link.includes(`moves=${moves}`) && link.includes("board=6,4,7/8,5,0/3,2,1"), link);
  await open(link);
  await page.waitForSelector("#player:not([hidden])");
  assert.equal(await page.evaluate(() => document.activeElement.id), "step");
  assert.equal(await page.textContent("#step-index"), "0 / 31");
  assert.equal(await line("board"), ARTICLE);
  await page.click("#to-end");
  assert.equal(await line("board"), GOAL);
  // Moves that leave the board are refused, the boards still open.
  await open("#board=1,2,3/4,5,6/7,8,0&moves=DD");
  assert.ok(await page.isHidden("#player"));
  assert.match(await status(), /do not fit/);
});

test("moves in tile notation: runs counted once in MTM, every tile in STM", async () => {
  await open("#board=1,2,3/4,5,6/0,7,8&goal=1,2,3/4,5,6/7,8,0");
  await page.click("#solve");
  await page.waitForSelector("#solution:not([hidden])");
  assert.equal(await page.getAttribute("#moves-text", "data-moves"), "RR");
  assert.match(await page.textContent("#solution-metrics"), /2 tile moves \(STM\) · 1 slide \(MTM\)/);
  await page.selectOption("#notation", "tile");
  await page.waitForFunction(() => document.getElementById("moves-text").dataset.notation === "tile");
  assert.deepEqual(await page.$$eval("#moves-text .move", (b) => b.map((x) => x.textContent)), ["L2"]);
  await page.click("#step");
  assert.equal(await page.$eval("#moves-text .move.current", (b) => b.textContent), "L2");
});

test("sizes up to 8x8: a big board is solved and the answer replays to the goal", async () => {
  const info = await api("/api/info");
  await open();
  await page.selectOption("#width", "8");
  await page.selectOption("#height", "8");
  await page.waitForFunction(() => document.getElementById("board").dataset.line.split("/").length === 8);
  await page.waitForFunction(() => !document.getElementById("solve").disabled);
  // A server whose planner picks the algorithm ("auto") is asked nothing; an older one is given
  // the constructive solver, the one that finishes on any size.
  if (info.defaults.algorithm !== "auto") await page.selectOption("#algorithm", "constructive");
  await page.click("#solve");
  await page.waitForSelector("#solution:not([hidden])", { timeout: 60000 });
  await page.click("#to-end");
  assert.equal(await line("board"), await line("goal"));
  assert.equal(await page.locator("#board [role=gridcell]").count(), 64);
});

test("the picture is cropped to the board's shape, never stretched", async () => {
  await open("#board=1,2,3,4/5,6,7,0&goal=1,2,3,4/5,6,7,0");
  // A wide 300x100 picture on a 4x2 board: cropped to 2:1.
  const png = await page.evaluate(() => {
    const c = document.createElement("canvas");
    c.width = 300;
    c.height = 100;
    const g = c.getContext("2d");
    g.fillStyle = "#c00";
    g.fillRect(0, 0, 300, 100);
    return c.toDataURL("image/png").split(",")[1];
  });
  await page.setInputFiles("#image-file", { name: "wide.png", mimeType: "image/png", buffer: Buffer.from(png, "base64") });
  await page.waitForFunction(() => /data:image\/png/.test(document.querySelector('#board .tile[data-tile="1"] .face').style.backgroundImage));
  const ratio = await page.evaluate(async () => {
    const url = document.querySelector('#board .tile[data-tile="1"] .face').style.backgroundImage.slice(5, -2);
    const img = new Image();
    img.src = url;
    await img.decode();
    return img.naturalWidth / img.naturalHeight;
  });
  assert.ok(Math.abs(ratio - 2) < 0.02, `cropped to the board's 2:1, got ${ratio}`);
});

test("on a wide screen the goal stands beside the board, the player and counters under both", async () => {
  await open();
  await page.click("#solve");
  await page.waitForSelector("#solution:not([hidden])");
  const box = (sel) => page.locator(sel).boundingBox();
  const [board, goal, player, counters] = await Promise.all(["#board", "#goal", "#player", ".play-bar"].map(box));
  assert.equal(Math.round(goal.y), Math.round(board.y), "the boards side by side");
  assert.ok(Math.abs(goal.width - board.width) < 1, "and of one size");
  assert.ok(player.y > board.y + board.height && counters.y > player.y + player.height - 1);
  assert.ok(player.x <= board.x + 1, "the player starts under the initial board");
  const edit = await box("#edit-goal");
  assert.ok(edit.y < board.y, "the goal's Edit above it, beside the board's");
});

test("with a mouse, the solution's moves stay a compact line of text", async () => {
  await open();
  assert.ok(await page.evaluate(() => matchMedia("(pointer: fine)").matches));
  await page.click("#solve");
  await page.waitForSelector("#solution:not([hidden])");
  const heights = await page.$$eval("#moves-text button.move", (bs) => bs.map((b) => b.getBoundingClientRect().height));
  assert.ok(Math.max(...heights) < 30, `${Math.max(...heights)} px high`);
  const box = await page.$eval("#moves-text", (e) => ({ h: e.clientHeight, scroll: e.scrollHeight }));
  assert.equal(box.h, box.scroll, "31 moves on screen without scrolling");
});

test("the moves-to-goal indicator is off by default and shows a proven distance", async () => {
  await open();
  assert.equal(await page.isChecked("#show-distance"), false);
  assert.equal(await page.textContent("#distance"), "");
  await page.check("#show-distance");
  await page.waitForFunction(() => /^31 moves from the goal$/.test(document.getElementById("distance").textContent));
  await tileCell("board", "5").click();
  const want = (await api("/api/solve", { board: "6 4 7/8 0 5/3 2 1" })).length;
  await page.waitForFunction((n) => document.getElementById("distance").textContent === `${n} moves from the goal`, want);
});

test("letter tiles: every tile of an 8x8 board has its own label, read as it is shown", async () => {
  const rows = [];
  for (let y = 0; y < 8; y++) rows.push(Array.from({ length: 8 }, (_, x) => (y * 8 + x + 1) % 64).join(","));
  await open(`#board=${rows.join("/")}&tiles=letters`);
  assert.equal(await page.inputValue("#tile-style"), "letters");
  const faces = await page.$$eval("#board .tile:not(.blank) .face", (fs) =>
    fs.map((f) => ({ tile: Number(f.parentElement.dataset.tile), label: f.textContent, fits: f.scrollWidth <= f.clientWidth })));
  assert.equal(faces.length, 63);
  const label = Object.fromEntries(faces.map((f) => [f.tile, f.label]));
  // As spreadsheets name columns: A..Z, then AA..AZ, then BA..
  assert.deepEqual([1, 26, 27, 52, 53, 63].map((t) => label[t]), ["A", "Z", "AA", "AZ", "BA", "BK"]);
  for (const f of faces) {
    assert.match(f.label, /^[A-Z]{1,2}$/, `tile ${f.tile}`);
    assert.ok(f.fits, `tile ${f.tile}'s label fits on it`);
  }
  // Distinct even to a screen reader, which reads "a" and "A" alike.
  assert.equal(new Set(faces.map((f) => f.label.toLowerCase())).size, 63);
  const cells = await readCells("board");
  assert.deepEqual(cells.slice(0, 63), rows.join(",").split(",").slice(0, 63).map((t) => label[t]));
  // What is said of a move names the tile as it is shown.
  await page.focus("#board");
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction(() => document.getElementById("announce").textContent === "BK right");
});

test("the tile styles change, and reduced motion stops the slides", async () => {
  await open();
  await page.selectOption("#tile-style", "letters");
  assert.equal(await page.textContent('#board .tile[data-tile="1"] .face'), "A");
  await page.selectOption("#tile-style", "image");
  await page.waitForFunction(() => /image/.test(document.querySelector('#board .tile[data-tile="1"]').className));
  assert.notEqual(await page.$eval('#board .tile[data-tile="1"]', (t) => getComputedStyle(t).transitionDuration), "0s");
  await page.emulateMedia({ reducedMotion: "reduce" });
  assert.equal(await page.$eval('#board .tile[data-tile="1"]', (t) => getComputedStyle(t).transitionDuration), "0s");
});

test("pattern-database builds the server reports are shown, and followed", async () => {
  let calls = 0;
  await page.route("**/api/info", async (route) => {
    const response = await route.fetch();
    const info = await response.json();
    calls++;
    // The server's own shape (`/api/info`), first while building, then ready.
    const job = (status, done, seconds) => ({ status, done, total: 5, seconds, error: null });
    info.tables = calls === 1
      ? [{ name: "zpdb:7-8 for 4x4", ...job("building", 2, null) }, { name: "pdb:5-5-5 for 4x4", ...job("waiting", 0, null) }]
      : [{ name: "zpdb:7-8 for 4x4", ...job("ready", 5, 3.1) }, { name: "pdb:5-5-5 for 4x4", ...job("ready", 5, 0.1) }];
    await route.fulfill({ response, json: info });
  });
  await open();
  await page.waitForFunction(() => /pattern database 7-8 \(zero-aware\) for 4x4: 40% · pattern database 5-5-5 for 4x4: waiting/.test(document.getElementById("tables").textContent));
  // Once every set is ready, the line goes.
  await page.waitForSelector("#tables", { state: "hidden", timeout: 10000 });
});

const focused = () => page.evaluate(() => document.activeElement.id);
/** Waits until the screen reader's region (announce) says `text`. */
const said = (text) => page.waitForFunction((t) => document.getElementById("announce").textContent === t, text);

test("a server that stops during a solve says so, in the page's words, not that the player cancelled", async () => {
  await fakeStream([
    { progress: { generated: 1000, expanded: 500, bound: 20, time_ms: 5 } },
    // What `taquin serve` streams last when Ctrl-C stops it.
    { error: { code: "cancelled", error: "the server is stopping: send the request again once it is back" } },
  ], 100);
  await open();
  await page.click("#solve");
  await waitForStatus(/does not answer/);
  assert.match(await status(), /^The server stopped the search/);
  assert.doesNotMatch(await status(), /The search was cancelled/);
  assert.match(await page.getAttribute("#status", "class"), /error/);
  assert.ok(await page.isHidden("#progress"));
});

test("a server that dies during a solve (the stream breaks) says it does not answer", async () => {
  await fakeStream([{ progress: { generated: 1000, expanded: 500, bound: 20, time_ms: 5 } }, BROKEN], 100);
  await open();
  await page.click("#solve");
  await waitForStatus(/does not answer/);
  assert.doesNotMatch(await status(), /network error/);
  assert.ok(await page.isEnabled("#solve"));
});

test("the tile menu follows the address: tiles= shows its style, a link without it the usual tiles", async () => {
  const link = "#board=6,4,7/8,5,0/3,2,1&goal=snail&moves=DLL";
  await open(link);
  await page.waitForSelector("#player:not([hidden])");
  const face = () => page.textContent('#board .tile[data-tile="1"] .face');
  await page.evaluate((l) => (location.hash = `${l}&tiles=letters`), link);
  await page.waitForFunction(() => document.getElementById("tile-style").value === "letters");
  await page.waitForFunction(() => document.querySelector('#board .tile[data-tile="1"] .face').textContent === "A");
  await page.evaluate((l) => (location.hash = l), link);
  await page.waitForFunction(() => document.getElementById("tile-style").value === "numbers");
  await page.waitForSelector("#player:not([hidden])");
  assert.equal(await face(), "1");
  assert.doesNotMatch(await page.evaluate(() => location.hash), /tiles=/, "the address is not given tiles= back");
});

test("a link to an unsolvable pair says why, and that its moves do not reach the goal", async () => {
  await open("#board=1,2,3/4,5,6/8,7,0&moves=U");
  await waitForStatus(/[Uu]nsolvable/);
  const text = await status();
  assert.match(text, /1 inversion away/, "the parity reason, as for a board typed in");
  assert.match(text, /1 move from the link \(it does not reach the goal\)/);
  assert.match(await page.getAttribute("#status", "class"), /error/);
  assert.ok(await page.isDisabled("#solve"));
});

test("a change of address opens its link as a fresh load of it does", async () => {
  await open("#board=1,2,3/4,0,6/7,5,8&moves=DRU");
  await page.waitForSelector("#player:not([hidden])");
  await waitForStatus(/A replay of 3 moves/);
  // The same boards without moves: no player, and nothing said of the replay gone.
  await page.evaluate(() => (location.hash = "#board=1,2,3/4,0,6/7,5,8"));
  await page.waitForSelector("#player", { state: "hidden" });
  await page.waitForFunction(() => !/replay/.test(document.getElementById("status").textContent));
  // Moves that do not fit: said, on the same boards as on others.
  await page.evaluate(() => (location.hash = "#board=1,2,3/4,0,6/7,5,8&moves=xyz"));
  await waitForStatus(/do not fit this board/);
  assert.ok(await page.isHidden("#player"));
  assert.equal(await line("board"), "1 2 3/4 0 6/7 5 8");
});

test("Hint stays disabled while its answer is on its way, whatever is redrawn meanwhile", async () => {
  await open("#board=1,2,3/4,5,6/7,0,8");
  let hints = 0;
  await page.route("**/api/hint", async (route) => {
    hints++;
    await new Promise((r) => setTimeout(r, 1500));
    await route.continue();
  });
  await page.click("#hint");
  await page.selectOption("#notation", "tile");
  assert.ok(await page.isDisabled("#hint"), "a change of notation does not offer a second request");
  await page.click("#hint", { force: true });
  await waitForStatus(/Hint: slide 8 left/);
  assert.equal(hints, 1);
  assert.ok(await page.isEnabled("#hint"));
});

test("Moves to goal says when the server does not answer, and writes no placeholder into its live region", async () => {
  await open();
  await page.evaluate(() => {
    window.__distances = [];
    const el = document.getElementById("distance");
    new MutationObserver(() => window.__distances.push(el.textContent))
      .observe(el, { childList: true, characterData: true, subtree: true });
  });
  // Held a moment, so that the counting can be seen.
  await page.route("**/api/solve", async (route) => {
    await new Promise((r) => setTimeout(r, 500));
    await route.continue();
  });
  await page.check("#show-distance");
  assert.equal(await page.getAttribute("#distance", "aria-busy"), "true");
  assert.match(await page.$eval("#distance", (e) => getComputedStyle(e, "::after").content), /…/, "the wait is drawn");
  await page.waitForFunction(() => document.getElementById("distance").textContent === "31 moves from the goal");
  assert.equal(await page.getAttribute("#distance", "aria-busy"), null);
  await tileCell("board", "5").click();
  await page.waitForFunction(() => /^\d+ moves from the goal$/.test(document.getElementById("distance").textContent) &&
    document.getElementById("distance").textContent !== "31 moves from the goal");
  const written = (await page.evaluate(() => window.__distances)).filter((t) => t);
  assert.ok(written.every((t) => /^\d+ moves? from the goal$/.test(t)), JSON.stringify(written));
  // A server that does not answer is not a board too far.
  await page.unroute("**/api/solve");
  await page.route("**/api/solve", (route) => route.abort());
  await tileCell("board", "5").click();
  await page.waitForFunction(() => /does not answer/.test(document.getElementById("distance").textContent));
  assert.doesNotMatch(await page.textContent("#distance"), /too far/);
});

test("the player's settings come back after a reload, and the address's tiles win over them", async () => {
  await open();
  await page.selectOption("#notation", "tile");
  await page.selectOption("#difficulty", "walk:8");
  await page.check("#show-distance");
  await page.selectOption("#tile-style", "letters");
  await open();
  assert.equal(await page.inputValue("#notation"), "tile");
  assert.equal(await page.inputValue("#difficulty"), "walk:8");
  assert.ok(await page.isChecked("#show-distance"));
  assert.equal(await page.inputValue("#tile-style"), "letters");
  assert.equal(await page.textContent('#board .tile[data-tile="1"] .face'), "A");
  await page.waitForFunction(() => /moves from the goal/.test(document.getElementById("distance").textContent));
  await page.click("#solve");
  await page.waitForSelector("#solution:not([hidden])");
  assert.equal(await page.$eval("#moves-text", (e) => e.dataset.notation), "tile");
  // A link's own tiles= wins; a link without one shows the player's.
  await open("#board=1,2,3/4,0,6/7,5,8&tiles=image");
  assert.equal(await page.inputValue("#tile-style"), "image");
  await open("#board=1,2,3/4,0,6/7,5,8");
  assert.equal(await page.inputValue("#tile-style"), "letters");
});

test("edit mode swaps two tiles from the keyboard, and says each step", async () => {
  await open();
  assert.match(await page.textContent("#board-keys"), /arrow keys and Enter/, "the page says how");
  await page.click("#edit-board");
  await page.focus("#board");
  await page.keyboard.press("ArrowRight");
  await said("4, row 1, column 2");
  assert.equal(await page.getAttribute("#board .tile.cursor", "data-cell"), "1");
  assert.equal(await page.$eval("#board .tile.cursor", (t) => getComputedStyle(t).outlineStyle), "solid", "the keys' tile is ringed");
  await page.keyboard.press("Enter");
  await said("4 picked: go to the other tile and press Enter to swap them");
  assert.match(await page.getAttribute('#board .tile[data-tile="4"]', "class"), /selected/);
  await page.keyboard.press("ArrowDown");
  await said("5, row 2, column 2");
  await page.keyboard.press(" ");
  await said("4 and 5 swapped");
  await waitForLine("board", "6 5 7/8 4 0/3 2 1");
  assert.equal(await focused(), "board");
  await page.click("#edit-board");
  // The goal, reached by Tab while it is edited; Escape lets a tile go.
  await page.focus("#edit-goal");
  await page.keyboard.press("Enter");
  await page.keyboard.press("Tab");
  assert.equal(await focused(), "goal");
  await page.keyboard.press("Enter");
  await said("1 picked: go to the other tile and press Enter to swap them");
  await page.keyboard.press("Escape");
  await said("1 let go");
  await page.keyboard.press("Enter");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("Enter");
  await said("1 and 2 swapped");
  await waitForLine("goal", "2 1 3/4 5 6/7 8 0");
  await page.click("#edit-goal");
  assert.equal(await page.getAttribute("#goal", "tabindex"), "-1", "out of the Tab order once done");
});

test("a pair made solvable again in Edit takes back the 'Unsolvable' message, and says so", async () => {
  await open();
  await page.click("#edit-board");
  const swap = async (a, b) => {
    await tileCell("board", String(a)).click();
    await tileCell("board", String(b)).click();
  };
  await swap(6, 4);
  await waitForStatus(/[Uu]nsolvable/);
  assert.ok(await page.isDisabled("#solve"));
  await swap(7, 8);
  await page.waitForFunction(() => !document.getElementById("solve").disabled);
  await waitForStatus(/can be solved/);
  await page.click("#edit-board");
  assert.doesNotMatch(await status(), /[Uu]nsolvable/);
});

test("with a mouse, every move of the solution and the speed slider are at least 24x24 px (WCAG 2.5.8)", async () => {
  await open();
  await page.click("#solve");
  await page.waitForSelector("#solution:not([hidden])");
  for (const notation of ["blank", "tile"]) {
    await page.selectOption("#notation", notation);
    const small = await page.$$eval("#moves-text button.move, #speed", (els) =>
      els.map((e) => ({ id: e.id || e.textContent, w: e.getBoundingClientRect().width, h: e.getBoundingClientRect().height }))
        .filter((x) => x.w < 24 || x.h < 24));
    assert.deepEqual(small, [], notation);
  }
});

test("a long solution plays faster, and the slider says how fast", async () => {
  // 560 moves on an 8x8 board (there and back): minutes at the old speeds.
  const rows = [];
  for (let y = 0; y < 8; y++) rows.push(Array.from({ length: 8 }, (_, x) => (y * 8 + x + 1) % 64).join(","));
  await open(`#board=${rows.join("/")}&moves=${"LR".repeat(280)}`);
  await page.waitForSelector("#player:not([hidden])");
  await page.fill("#speed", "10");
  const said = await page.getAttribute("#speed", "aria-valuetext");
  const rate = Number(said.match(/^[\d.]+/)[0]);
  assert.ok(rate >= 60, `the top speed plays a long solution at ${said}`);
  assert.match(said, /moves a second, faster for a long solution/);
  assert.equal(await page.getAttribute("#speed", "title"), said);
  const started = Date.now();
  await page.click("#play");
  await page.waitForFunction(() => document.getElementById("step-index").textContent === "560 / 560", null, { timeout: 30000 });
  console.log(`# 560 moves played at the top speed in ${Date.now() - started} ms`);
  // A short solution keeps the slider's own rates.
  await open("#board=1,2,3/4,0,6/7,5,8&moves=DR");
  await page.fill("#speed", "10");
  assert.match(await page.getAttribute("#speed", "aria-valuetext"), /^33 moves a second$/);
});
