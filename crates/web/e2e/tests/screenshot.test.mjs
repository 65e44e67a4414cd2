// The README's picture: the article's board solved and stepped through, the heuristics
// compared. Checked on every run; written to a file only when TAQUIN_SCREENSHOT names one
// (TAQUIN_SCREENSHOT_PHONE for the phone's), so that a test run does not change the repository.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { useBrowser, page, open, line, PHONE } from "../lib/browser.mjs";

useBrowser({ width: 1280, height: 1100 });
const target = process.env.TAQUIN_SCREENSHOT;

test("the README's screenshot: a solution stepped through and the comparison", async () => {
  await open();
  await page.click("#solve");
  await page.waitForSelector("#solution:not([hidden])");
  await page.click("#compare");
  await page.waitForSelector("#compare-progress", { state: "hidden" });
  await page.waitForSelector("table.compare td.bar-cell");
  for (let i = 0; i < 12; i++) await page.click("#step");
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(400); // let the last slide finish before the picture
  assert.equal(await page.textContent("#step-index"), "12 / 31");
  const board = await page.locator("#board").boundingBox();
  const compare = await page.locator("table.compare").boundingBox();
  assert.ok(board.y >= 0 && compare.y + compare.height <= 1100, "board and comparison in one picture");
  assert.notEqual(await line("board"), "6 4 7/8 5 0/3 2 1");
  const png = await page.screenshot();
  assert.ok(png.length > 10000);
  if (target) {
    mkdirSync(dirname(target), { recursive: true });
    await page.screenshot({ path: target });
  }
});

test("the phone layout in one picture: board, player and counters", async () => {
  await page.setViewportSize(PHONE);
  await open();
  await page.click("#solve");
  await page.waitForSelector("#solution:not([hidden])");
  await page.$eval("#board", (b) => b.scrollIntoView({ block: "start" }));
  for (let i = 0; i < 5; i++) await page.click("#step");
  await page.waitForTimeout(400); // the last slide done before the picture
  for (const id of ["#board", "#step", "#move-count"]) {
    const box = await page.locator(id).boundingBox();
    assert.ok(box.y >= 0 && box.y + box.height <= PHONE.height, `${id} on screen`);
  }
  if (process.env.TAQUIN_SCREENSHOT_PHONE) await page.screenshot({ path: process.env.TAQUIN_SCREENSHOT_PHONE });
});
