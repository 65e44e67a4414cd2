// Compare heuristics at desktop size: its Cancel button stops the requests in flight, says so,
// hands a keyboard user's focus back, and leaves the rest of the page working.
import { test } from "node:test";
import assert from "node:assert/strict";
import { useBrowser, page, tileCell, open, ARTICLE } from "../lib/browser.mjs";

useBrowser();

/**
 * Holds back the page's /api/solve requests from the `from`-th on (0-based; the earlier ones go
 * to the server) until their signal aborts them; `window.__aborted` counts the aborts, and
 * `window.__holdFrom = Infinity` lets every later request through.
 */
async function holdSolves(from) {
  await page.addInitScript((first) => {
    const real = window.fetch;
    let seen = 0;
    window.__holdFrom = first;
    window.__aborted = 0;
    window.fetch = (url, init) => {
      if (!String(url).endsWith("/api/solve") || seen++ < window.__holdFrom) return real(url, init);
      return new Promise((_, reject) => {
        init.signal.addEventListener("abort", () => {
          window.__aborted++;
          reject(new DOMException("aborted", "AbortError"));
        });
      });
    };
  }, from);
}

const focused = () => page.evaluate(() => document.activeElement.id);
const rowTexts = () =>
  page.$$eval("table.compare tbody tr", (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));

test("Cancel stops a comparison: the request in flight is aborted, and the page says so", async () => {
  await holdSolves(1);
  await open();
  assert.ok(await page.isHidden("#compare-cancel"), "no Cancel before a comparison");
  await page.focus("#compare");
  await page.keyboard.press("Enter");
  // Compare is disabled while it runs: a keyboard user's focus goes to Cancel, not to the page.
  await page.waitForSelector("#compare-cancel:not([hidden])");
  assert.equal(await focused(), "compare-cancel");
  assert.ok(await page.isDisabled("#compare"));
  assert.equal(await page.getAttribute("#compare-cancel", "aria-label"), "Cancel the comparison");
  // The first heuristic is done, the second held in flight.
  await page.waitForFunction(() => /^2 of 4: /.test(document.getElementById("compare-text").textContent));
  await page.keyboard.press("Enter");
  await page.waitForSelector("#compare-cancel", { state: "hidden" });
  assert.equal(await page.evaluate(() => window.__aborted), 1, "the request in flight was aborted");
  assert.equal(await focused(), "compare", "focus back on Compare, which is enabled again");
  assert.ok(await page.isEnabled("#compare"));
  assert.ok(await page.isHidden("#compare-progress"));
  // Said in a live region that stays on screen, and in the rows that were not filled.
  assert.equal(await page.getAttribute("#compare-status", "role"), "status");
  assert.equal(await page.textContent("#compare-status"), "Comparison cancelled: 1 of 4 heuristics compared.");
  const rows = await rowTexts();
  assert.equal(rows[0][0], "misplaced tiles");
  assert.match(rows[0][1], /^31\b/, "the finished run keeps its figures");
  assert.deepEqual(rows.slice(1).map((r) => r.slice(1)), [["cancelled"], ["not run"], ["not run"]]);
});

test("the page stays usable while a comparison runs and after it is cancelled", async () => {
  await holdSolves(0);
  await open();
  await page.click("#compare");
  await page.waitForFunction(() => /^1 of 4: /.test(document.getElementById("compare-text").textContent));
  // A comparison does not hold up the rest of the page: Solve works meanwhile.
  await page.click("#solve");
  await page.waitForSelector("#solution:not([hidden])");
  await page.click("#step");
  assert.equal(await page.textContent("#step-index"), "1 / 31");
  assert.ok(await page.isVisible("#compare-cancel"), "the comparison still runs");
  await page.click("#compare-cancel");
  await page.waitForSelector("#compare-cancel", { state: "hidden" });
  assert.equal(await page.textContent("#compare-status"), "Comparison cancelled: 0 of 4 heuristics compared.");
  assert.equal(await page.textContent("#step-index"), "1 / 31", "the solution is left alone");
  // A new comparison runs to its end, and replaces the message.
  await page.evaluate(() => (window.__holdFrom = Infinity));
  await page.click("#compare");
  await page.waitForFunction(() => /^Done: 4 heuristics/.test(document.getElementById("compare-status").textContent));
  assert.ok(await page.isHidden("#compare-cancel"));
  assert.equal((await rowTexts()).filter((r) => /^31\b/.test(r[1])).length, 4);
});

test("a comparison dropped with its boards says nothing about a cancel", async () => {
  await holdSolves(0);
  await open();
  await page.click("#compare");
  await page.waitForSelector("#compare-cancel:not([hidden])");
  await page.fill("#board-input", "1 2 3/4 5 6/0 7 8");
  await page.press("#board-input", "Enter");
  await page.waitForSelector("#compare-cancel", { state: "hidden" });
  assert.equal(await page.evaluate(() => window.__aborted), 1);
  assert.equal(await page.textContent("#compare-status"), "");
  assert.equal(await page.locator("table.compare").count(), 0);
  assert.notEqual(await page.getAttribute("#board", "data-line"), ARTICLE);
});

test("a heuristic that cannot run says why in its row, and the summary counts what ran", async () => {
  await open();
  // The server refuses walking distance (as on a board too large for its tables).
  await page.route("**/api/solve", async (route) => {
    if (JSON.parse(route.request().postData()).heuristic !== "walking-distance") return route.continue();
    await route.fulfill({
      status: 422,
      contentType: "application/json",
      body: JSON.stringify({ code: "unsupported", error: "walking distance is not available for this board" }),
    });
  });
  await page.click("#compare");
  await page.waitForSelector("#compare-progress", { state: "hidden", timeout: 30000 });
  assert.equal(
    await page.textContent("#compare-status"),
    "Done: 3 of 4 heuristics solved it with A*; the other rows say why not.",
  );
  const failed = (await rowTexts()).map((r) => r.join(" ")).filter((t) => /not available/.test(t));
  assert.equal(failed.length, 1, "the refused heuristic's row says why");
  // The card has no heuristic menu, nor an algorithm "auto": its row does not point to them.
  assert.doesNotMatch(failed[0], /Choose another/);
});

test("Compare again hands the focus to Cancel while it runs, then to Compare, on screen", async () => {
  await open("#board=1,2,3/4,0,6/7,5,8");
  await page.click("#compare");
  await page.waitForFunction(() => /^Done/.test(document.getElementById("compare-status").textContent));
  await tileCell("board", "5").click();
  await page.waitForSelector("#compare-stale:not([hidden])");
  // Each solve of the new comparison held back a little, so that it is seen running.
  await page.route("**/api/solve", async (route) => {
    await new Promise((r) => setTimeout(r, 300));
    await route.continue();
  });
  await page.focus("#compare-redo");
  await page.keyboard.press("Enter");
  assert.equal(await focused(), "compare-cancel");
  await page.waitForFunction(() => /^Done/.test(document.getElementById("compare-status").textContent));
  await page.waitForSelector("#compare-cancel", { state: "hidden" });
  assert.equal(await focused(), "compare");
  const box = await page.$eval("#compare", (b) => {
    const r = b.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, height: innerHeight };
  });
  assert.ok(box.top >= 0 && box.bottom <= box.height, `Compare on screen: ${JSON.stringify(box)}`);
});
