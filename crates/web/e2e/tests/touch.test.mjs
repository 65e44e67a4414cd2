// The game on touch screens, where `(pointer: coarse)` matches: a phone (390x844) and a tablet
// held sideways (1024x768, wide enough for the desktop layout). Every target a finger taps is at
// least 44x44 CSS px (WCAG 2.5.5).
import { test } from "node:test";
import assert from "node:assert/strict";
import { useBrowser, page, open, PHONE } from "../lib/browser.mjs";

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
