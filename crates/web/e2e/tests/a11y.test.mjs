// Accessibility: axe-core in the page (no serious or critical violation), at desktop and phone
// sizes, with a solution, a comparison, a tree and the dialog on screen.
import { test } from "node:test";
import assert from "node:assert/strict";
import { useBrowser, page, open, assertAccessible, everythingShown, PHONE } from "../lib/browser.mjs";

useBrowser();

test("axe finds no serious or critical violation (desktop)", async () => {
  await everythingShown();
  await assertAccessible("desktop");
  await page.selectOption("#tile-style", "image");
  await page.waitForFunction(() => /image/.test(document.querySelector('#board .tile[data-tile="1"]').className));
  await page.selectOption("#notation", "tile");
  await assertAccessible("desktop, picture tiles");
});

test("axe finds no serious or critical violation (phone)", async () => {
  await page.setViewportSize(PHONE);
  await everythingShown();
  await assertAccessible("phone");
});

test("a pressed button stays readable under the pointer (a tap leaves it hovered)", async () => {
  await open();
  await page.click("#edit-board");
  await page.hover("#edit-board");
  assert.equal(await page.getAttribute("#edit-board", "aria-pressed"), "true");
  await assertAccessible("editing, the Done button hovered");
});

test("axe finds no serious or critical violation with the dialog open", async () => {
  await open("#board=1,2,3/4,5,6/7,0,8");
  await page.locator("#board").focus();
  await page.keyboard.press("ArrowLeft");
  await page.waitForSelector("#celebrate[open]");
  await assertAccessible("dialog");
});

test("focus is visible on the board and on buttons", async () => {
  await open();
  await page.keyboard.press("Tab");
  for (let i = 0; i < 40; i++) {
    const id = await page.evaluate(() => document.activeElement.id);
    if (id === "board") break;
    await page.keyboard.press("Tab");
  }
  assert.equal(await page.evaluate(() => document.activeElement.id), "board", "the board is reached by Tab");
  const outline = await page.$eval("#board", (b) => getComputedStyle(b).outlineStyle);
  assert.equal(outline, "solid");
  await page.keyboard.press("Tab");
  const ring = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  assert.equal(ring, "solid");
});

test("a screen reader hears each slide and each key that moves nothing, not the search's counts", async () => {
  await open("#board=1,2,3/4,0,6/7,5,8");
  await page.focus("#board");
  // The tile right of the blank slides left.
  await page.keyboard.press("ArrowLeft");
  await page.waitForFunction(() => document.getElementById("announce").textContent === "6 left");
  // The blank is now on the right edge: no tile is right of it to slide left.
  await page.keyboard.press("ArrowLeft");
  await page.waitForFunction(() => document.getElementById("announce").textContent === "No tile can slide left");
  assert.equal(await page.getAttribute("#announce", "aria-live"), "polite");
  // Undo says which tile went back where.
  await page.keyboard.press("Control+z");
  await page.waitForFunction(() => document.getElementById("announce").textContent === "Undone: 6 right");
  // The player's counter is not a live region: Play at speed would queue a word a move.
  assert.equal(await page.getAttribute("#step-index", "aria-live"), null);
  // The search's progress line, rewritten four times a second, is not a live region.
  assert.equal(await page.getAttribute("#progress", "role"), null);
  assert.equal(await page.getAttribute("#progress", "aria-live"), null);
});
