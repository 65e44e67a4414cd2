// The game on a phone screen (390x844): no sideways scrolling, boards as wide as the screen
// allows, 44 px controls, stepping that keeps the board in view, Tab in the order seen, and
// touch scrolling left to the page wherever a gesture does not move tiles.
import { test } from "node:test";
import assert from "node:assert/strict";
import { useBrowser, page, tileCell, open, line, waitForLine, PHONE, ARTICLE } from "../lib/browser.mjs";

useBrowser(PHONE);

const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

test("the page fits the screen and the board uses its width", async () => {
  await open();
  assert.ok((await overflow()) <= 0, "no sideways scrolling");
  const board = await page.locator("#board").boundingBox();
  assert.ok(board.width >= 330, `the played board takes the screen's width (${board.width}px)`);
  assert.ok(board.y + board.height <= PHONE.height, "and is on screen when the page opens");
});

test("on a small phone (360x640) the board is on screen when the page opens", async () => {
  const small = { width: 360, height: 640 };
  await page.setViewportSize(small);
  try {
    await open();
    assert.ok((await overflow()) <= 0, "no sideways scrolling");
    const board = await page.locator("#board").boundingBox();
    assert.ok(board.y + board.height <= small.height, `the board's last row is on screen (bottom ${board.y + board.height}px)`);
  } finally {
    await page.setViewportSize(PHONE);
  }
});

test("every control is at least 44 px high", async () => {
  await open();
  await page.click("#solve");
  await page.waitForSelector("#solution:not([hidden])");
  await page.click("#tree");
  await page.waitForSelector("#tree-tools:not([hidden])");
  // A hand move marks the tree stale: its "Draw again" button shows too.
  await tileCell("board", "5").click();
  await page.waitForSelector("#tree-stale:not([hidden])");
  const small = await page.$$eval("button, select, input:not([type=checkbox]):not([type=file]), label.check", (els) =>
    els
      .filter((e) => e.offsetParent !== null)
      .map((e) => ({ id: e.id || e.textContent.trim().slice(0, 20), h: e.getBoundingClientRect().height }))
      .filter((x) => x.h < 44),
  );
  assert.deepEqual(small, []);
});

test("stepping through a solution never scrolls the board off screen", async () => {
  await open();
  await page.click("#solve");
  await page.waitForSelector("#solution:not([hidden])");
  // With the board at the top of the screen, the player is on screen too.
  await page.$eval("#board", (b) => b.scrollIntoView({ block: "start" }));
  const y = await page.evaluate(() => window.scrollY);
  for (let i = 0; i < 8; i++) {
    await page.click("#step");
    const box = await page.locator("#board").boundingBox();
    assert.ok(box.y >= 0 && box.y + box.height <= PHONE.height, `the board stays on screen (y ${box.y})`);
    const step = await page.locator("#step").boundingBox();
    assert.ok(step.y + step.height <= PHONE.height, "and so does the Step button");
  }
  assert.equal(await page.evaluate(() => window.scrollY), y);
});

test("the comparison table scrolls inside its own box", async () => {
  await open();
  await page.click("#compare");
  await page.waitForSelector("table.compare td.bar-cell");
  await page.waitForSelector("#compare-progress", { state: "hidden" });
  assert.ok((await overflow()) <= 0, "the page does not scroll sideways");
  const box = await page.$eval(".table-scroll", (e) => ({ style: getComputedStyle(e).overflowX, w: e.clientWidth }));
  assert.equal(box.style, "auto");
  assert.ok(box.w <= PHONE.width);
  // Its columns past the screen's edge are said to be there: a touch screen shows no scroll bar.
  const cue = page.locator("#compare-result .scroll-cue");
  const wider = () => page.$eval(".table-scroll", (e) => e.scrollWidth > e.clientWidth);
  assert.ok(await wider(), "the table is wider than its box on a phone");
  await cue.waitFor({ state: "visible" });
  assert.match(await cue.textContent(), /^Scroll the table sideways for more columns/);
  // Where the table fits, no line says otherwise; it comes back when the screen narrows again.
  await page.setViewportSize({ width: 1280, height: 900 });
  await cue.waitFor({ state: "hidden" });
  assert.ok(!(await wider()), "the table fits at 1280 px");
  await page.setViewportSize(PHONE);
  await cue.waitFor({ state: "visible" });
});

test("a swipe on the played board moves a tile; elsewhere touch scrolls the page", async () => {
  await open();
  const touch = (sel) => page.$eval(sel, (e) => getComputedStyle(e).touchAction);
  assert.equal(await touch("#board"), "none", "the played board takes its gestures");
  assert.equal(await touch("#goal"), "auto", "the goal does not block scrolling");
  await page.click("#edit-goal");
  assert.equal(await touch("#goal"), "none", "an edited board takes its drags");
  await page.click("#edit-goal");
  // A swipe to the right slides the tile left of the gap (5) right.
  const box = await page.locator("#board").boundingBox();
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.5);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.8, box.y + box.height * 0.5, { steps: 4 });
  await page.mouse.up();
  await waitForLine("board", "6 4 7/8 0 5/3 2 1");
  // A diagonal gesture is not guessed at.
  await page.mouse.move(box.x + box.width * 0.2, box.y + box.height * 0.2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.6, { steps: 4 });
  await page.mouse.up();
  assert.equal(await line("board"), "6 4 7/8 0 5/3 2 1");
  assert.notEqual(await line("board"), ARTICLE);
});

test("the search tree fits and zooms on the phone", async () => {
  await open("#board=1,2,3/4,0,6/7,5,8");
  await page.click("#tree");
  await page.waitForSelector(".tree-view svg");
  assert.ok((await overflow()) <= 0);
  const view = await page.locator(".tree-view").boundingBox();
  assert.ok(view.width <= PHONE.width && view.height <= PHONE.height);
});

test("after a solve the player is in view with the board it plays on, not screens above the Solve card", async () => {
  for (const board of ["1,2,3/4,0,6/7,5,8", "8,6,7/2,5,4/3,0,1"]) {
    await open(`#board=${board}`);
    await page.click("#solve");
    await page.waitForSelector("#solution:not([hidden])");
    // Step shows its tiles move: the played board is on screen too, not only the goal.
    await page.waitForFunction(() => ["player", "board"].every((id) => {
      const r = document.getElementById(id).getBoundingClientRect();
      return r.top >= 0 && r.bottom <= innerHeight;
    }), null, { timeout: 5000 });
  }
});

/**
 * The boards card's controls in the order Tab reaches them, each with its box on the page
 * (scrolled into view as Tab goes, so measured from the page's top).
 */
async function tabOrder() {
  await page.focus("#width");
  const order = [];
  for (let i = 0; i < 60; i++) {
    const at = await page.evaluate(() => {
      const el = document.activeElement;
      if (!el.closest(".boards-card")) return null;
      const r = el.getBoundingClientRect();
      return { id: el.id, top: r.top + scrollY, bottom: r.bottom + scrollY, left: r.left };
    });
    if (!at) break;
    order.push(at);
    await page.keyboard.press("Tab");
  }
  return order;
}

test("Tab goes through the controls in the order they are seen (WCAG 2.4.3)", async () => {
  await open("#board=1,2,3/4,0,6/7,5,8");
  await page.click("#solve");
  await page.waitForSelector("#solution:not([hidden])");
  const order = await tabOrder();
  const ids = order.map((o) => o.id);
  for (const id of ["board", "step", "share", "edit-goal", "goal-input"]) assert.ok(ids.includes(id), `${id} in ${ids}`);
  // Each control is further down the screen than the one before, or beside it on its right.
  for (let i = 1; i < order.length; i++) {
    const a = order[i - 1], b = order[i];
    const below = b.top >= a.top - 1;
    const beside = b.top < a.bottom && b.bottom > a.top && b.left > a.left;
    assert.ok(below || beside, `${b.id} (top ${b.top}) comes after ${a.id} (top ${a.top}) but is shown above it`);
  }
  // The played board, then the player and counters under it, and the goal last.
  assert.ok(ids.indexOf("board-input") < ids.indexOf("step") && ids.indexOf("share") < ids.indexOf("edit-goal"));
});

test("at 320 px wide (or 400 % zoom) nothing scrolls sideways, the menus included", async () => {
  const narrow = { width: 320, height: 640 };
  await page.setViewportSize(narrow);
  try {
    await open();
    await page.selectOption("#difficulty", "walk:25");
    await page.click("#solve");
    await page.waitForSelector("#solution:not([hidden])");
    const sizes = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
    assert.ok(sizes.scroll <= sizes.client, `scrollWidth ${sizes.scroll} > clientWidth ${sizes.client}`);
    for (const id of ["difficulty", "algorithm", "heuristic", "compare-algorithm"]) {
      const box = await page.locator(`#${id}`).boundingBox();
      assert.ok(box.x >= 0 && box.x + box.width <= narrow.width, `#${id} inside the screen (${box.x}+${box.width})`);
    }
  } finally {
    await page.setViewportSize(PHONE);
  }
});

test("a phone on its side shows the board on screen, beside its controls", async () => {
  for (const size of [{ width: 844, height: 390 }, { width: 740, height: 360 }]) {
    await page.setViewportSize(size);
    await open();
    assert.ok((await overflow()) <= 0, "no sideways scrolling");
    const board = await page.locator("#board").boundingBox();
    assert.ok(board.y >= 0 && board.y + board.height <= size.height, `the board is on screen at ${size.width}x${size.height} (${board.y}..${board.y + board.height})`);
    assert.ok(board.width >= 200, `and not tiny (${board.width} px)`);
    const solve = await page.locator("#shuffle").boundingBox();
    assert.ok(solve.x >= board.x + board.width, "the toolbar stands beside the board");
  }
  await page.setViewportSize(PHONE);
});

test("on a phone on its side, Solve keeps the board on screen, and Step beside it", async () => {
  for (const size of [{ width: 740, height: 360 }, { width: 844, height: 390 }]) {
    await page.setViewportSize(size);
    await open();
    await page.click("#solve");
    await page.waitForSelector("#solution:not([hidden])");
    const at = `at ${size.width}x${size.height}`;
    const board = await page.locator("#board").boundingBox();
    assert.ok(board.y >= 0 && board.y + board.height <= size.height, `the board is on screen ${at} (${board.y}..${board.y + board.height})`);
    const step = await page.locator("#step").boundingBox();
    assert.ok(step.y >= 0 && step.y + step.height <= size.height, `and so is Step ${at} (${step.y}..${step.y + step.height})`);
    assert.ok(step.x >= board.x + board.width, "beside the board");
  }
  await page.setViewportSize(PHONE);
});

test("a move chosen in the solution's list brings the board into view, and the focus stays on the list", async () => {
  await open();
  await page.click("#solve");
  await page.waitForSelector("#solution:not([hidden])");
  const tenth = page.locator("#moves-text button.move").nth(9);
  await tenth.scrollIntoViewIfNeeded();
  const before = await page.locator("#board").boundingBox();
  assert.ok(before.y + before.height < 0, "the board is above the screen while the list is read");
  await tenth.click();
  assert.equal(await page.textContent("#step-index"), "10 / 31");
  await page.waitForFunction(() => {
    const r = document.getElementById("board").getBoundingClientRect();
    return r.top >= 0 && r.bottom <= innerHeight;
  }, null, { timeout: 5000 });
  assert.ok(await page.evaluate(() => document.activeElement.closest("#moves-text") !== null), "the focus is still in the list");
});
