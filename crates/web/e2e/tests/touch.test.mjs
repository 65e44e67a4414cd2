// The game on touch screens, where `(pointer: coarse)` matches: a phone (390x844) and a tablet
// held sideways (1024x768, wide enough for the desktop layout). Every target a finger taps is at
// least 44x44 CSS px (WCAG 2.5.5), and a screen reader's finger finds the tiles where they are.
import { test } from "node:test";
import assert from "node:assert/strict";
import { useBrowser, page, tileCell, open, line, waitForLine, PHONE } from "../lib/browser.mjs";

useBrowser(PHONE, { hasTouch: true });

/** The moves of the solution shown, each as "text WxH". */
const moveSizes = () =>
  page.$$eval("#moves-text button.move", (bs) =>
    bs.map((b) => {
      const r = b.getBoundingClientRect();
      return { text: b.textContent, w: r.width, h: r.height };
    }),
  );

for (const [name, size] of [["phone", PHONE], ["tablet", { width: 1024, height: 768 }]]) {
  test(`each move of the solution is a target of at least 44x44 px (${name})`, async () => {
    await page.setViewportSize(size);
    await open();
    assert.ok(await page.evaluate(() => matchMedia("(pointer: coarse)").matches), "a touch screen");
    await page.click("#solve");
    await page.waitForSelector("#solution:not([hidden])");
    for (const notation of ["blank", "tile"]) {
      await page.selectOption("#notation", notation);
      const moves = await moveSizes();
      assert.ok(moves.length > 10, notation);
      const small = moves.filter((m) => m.w < 44 || m.h < 44);
      assert.deepEqual(small, [], `${notation} moves under 44x44`);
    }
    // The box scrolls them, and a tapped move is where the player jumps.
    const box = await page.$eval("#moves-text", (e) => ({ h: e.clientHeight, scroll: e.scrollHeight }));
    assert.ok(box.h < box.scroll && box.h <= 170, `the list scrolls in its box (${JSON.stringify(box)})`);
    await page.selectOption("#notation", "blank");
    await page.locator("#moves-text button.move").nth(2).tap();
    assert.equal(await page.textContent("#step-index"), "3 / 31");
  });
}

/** The words of the announcements' live region, once it says `text`. */
const said = (text) => page.waitForFunction((t) => document.getElementById("announce").textContent === t, text);

test("a screen reader's finger finds each tile's cell over it, and activating a cell slides that tile", async () => {
  await open();
  // With VoiceOver or TalkBack a finger explores what lies under it: each cell the grid reads
  // covers the tile it names, and is what the point at the tile's centre hits.
  const cells = await page.$$eval("#board [role=gridcell]", (cells) => cells.map((c, i) => {
    const r = c.getBoundingClientRect();
    const t = document.querySelector(`#board .tile[data-cell="${i}"]`).getBoundingClientRect();
    const centre = document.elementFromPoint(t.x + t.width / 2, t.y + t.height / 2);
    const over = ["x", "y", "width", "height"].every((k) => Math.abs(r[k] - t[k]) < 1);
    return `${c.textContent}:${over ? "over its tile" : "elsewhere"}:${centre === c ? "hit" : "missed"}`;
  }));
  assert.deepEqual(cells, ["6", "4", "7", "8", "5", "blank", "3", "2", "1"].map((w) => `${w}:over its tile:hit`));
  // A double tap activates the cell, which a screen reader may send as a click alone, with no
  // pointer press: the tile above the gap slides down, said as a slide by hand is.
  const activate = (which, name) => tileCell(which, name).evaluate((c) => c.click());
  await activate("board", "7");
  await waitForLine("board", "6 4 0/8 5 7/3 2 1");
  await said("7 down");
  assert.equal(await page.textContent("#move-count"), "1");
  // A tile that cannot move stays, and the reader hears why.
  await activate("board", "5");
  await said("5 is not in the gap's row or column");
  assert.equal(await line("board"), "6 4 0/8 5 7/3 2 1");
  // A finger's tap on a cell is one slide: its own click does not slide a second time.
  await tileCell("board", "4").tap();
  await waitForLine("board", "6 0 4/8 5 7/3 2 1");
  assert.equal(await page.textContent("#move-count"), "2");
  // The goal takes no activation until it is edited; then two cells activated swap their tiles.
  await activate("goal", "1");
  assert.equal(await line("goal"), "1 2 3/4 5 6/7 8 0");
  await page.click("#edit-goal");
  await activate("goal", "1");
  await activate("goal", "2");
  await waitForLine("goal", "2 1 3/4 5 6/7 8 0");
  assert.equal(await line("board"), "6 0 4/8 5 7/3 2 1");
});
