// Accessibility: axe-core in the page (no serious or critical violation), at desktop and phone
// sizes, with a solution, a comparison, a tree and the dialog on screen.
import { test } from "node:test";
import assert from "node:assert/strict";
import { useBrowser, page, tileCell, open, assertAccessible, everythingShown, waitForStatus, PHONE } from "../lib/browser.mjs";

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
  await assertAccessible("editing, the pressed Edit button hovered");
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

/** Some of `el`'s computed style, by property name. */
const styleOf = (selector, ...props) =>
  page.$eval(selector, (el, names) => {
    const s = getComputedStyle(el);
    return Object.fromEntries(names.map((n) => [n, s[n]]));
  }, props);

test("in forced colours (high contrast) every boundary and every state stays visible", async () => {
  await page.emulateMedia({ forcedColors: "active" });
  await open("#board=1,2,3/4,5,6/7,0,8");
  assert.ok(await page.evaluate(() => matchMedia("(forced-colors: active)").matches));
  const card = (await styleOf(".boards-card", "backgroundColor")).backgroundColor;
  // The board has an edge, and each tile a border of another colour than the board behind it.
  const board = await styleOf("#board", "backgroundColor", "borderTopWidth", "borderTopStyle", "borderTopColor");
  assert.ok(parseFloat(board.borderTopWidth) >= 1 && board.borderTopStyle === "solid", JSON.stringify(board));
  assert.notEqual(board.borderTopColor, card);
  for (const which of ["board", "goal"]) {
    const face = await styleOf(`#${which} .tile[data-tile="1"] .face`, "borderTopWidth", "borderTopStyle", "borderTopColor");
    assert.ok(parseFloat(face.borderTopWidth) >= 1 && face.borderTopStyle !== "none", `${which}: ${JSON.stringify(face)}`);
    assert.notEqual(face.borderTopColor, board.backgroundColor, which);
  }
  // The hinted tile and the tile selected in edit mode are marked, and not alike; the edited
  // board's edge says that it is edited.
  await page.click("#hint");
  await waitForStatus(/Hint: slide 8 left/);
  await page.click("#edit-board");
  assert.equal((await styleOf("#board", "borderTopStyle")).borderTopStyle, "dashed");
  await tileCell("board", "1").click();
  const mark = ["outlineStyle", "outlineWidth", "backgroundColor"];
  const selected = await styleOf('#board .tile[data-tile="1"] .face', ...mark);
  const hinted = await styleOf('#board .tile[data-tile="8"] .face', ...mark);
  const plain = await styleOf('#board .tile[data-tile="2"] .face', ...mark);
  assert.notDeepEqual(selected, hinted);
  assert.notDeepEqual(selected, plain);
  assert.notDeepEqual(hinted, plain);
  await page.click("#edit-board");
  // The current move is marked by more than a background colour.
  await page.click("#solve");
  await page.waitForSelector("#solution:not([hidden])");
  await page.click("#step");
  assert.match((await styleOf("#moves-text .move.current", "textDecorationLine")).textDecorationLine, /underline/);
  // The comparison's bars and the tree's legend keep a fill of their own.
  await open("#board=1,2,3/4,0,6/7,5,8");
  await page.click("#compare");
  await page.waitForSelector("table.compare td.bar-cell");
  await page.waitForSelector("#compare-progress", { state: "hidden" });
  const compareCard = (await styleOf(".compare-card", "backgroundColor")).backgroundColor;
  const bar = await styleOf("table.compare .bar", "backgroundColor", "borderTopWidth");
  assert.ok(bar.backgroundColor !== compareCard && !/rgba\(.*, 0\)$/.test(bar.backgroundColor), JSON.stringify(bar));
  await page.click("#tree");
  await page.waitForSelector("#tree-result svg");
  const treeCard = (await styleOf(".tree-card", "backgroundColor")).backgroundColor;
  const keys = {};
  for (const k of ["expanded", "path"]) keys[k] = (await styleOf(`.tree-legend .key.${k}`, "backgroundColor")).backgroundColor;
  assert.notEqual(keys.expanded, keys.path, "expanded and the final path told apart");
  assert.ok(![keys.expanded, keys.path].includes(treeCard));
  // The drawing keeps the same colours as its legend.
  const node = await page.$eval("#tree-result g.node.path .box", (r) => getComputedStyle(r).fill);
  assert.equal(node, keys.path);
  // The dialog has an edge.
  await open("#board=1,2,3/4,5,6/7,0,8");
  await page.locator("#board").focus();
  await page.keyboard.press("ArrowLeft");
  await page.waitForSelector("#celebrate[open]");
  const dialog = await styleOf("#celebrate", "borderTopWidth", "borderTopStyle", "borderTopColor", "backgroundColor");
  assert.ok(parseFloat(dialog.borderTopWidth) >= 2 && dialog.borderTopStyle !== "none", JSON.stringify(dialog));
  assert.notEqual(dialog.borderTopColor, dialog.backgroundColor);
});

test("the current move is said (aria-current) and underlined; the players' buttons are named without arrows", async () => {
  await open("#board=1,2,3/4,0,6/7,5,8");
  await page.click("#solve");
  await page.waitForSelector("#solution:not([hidden])");
  const marked = () => page.$$eval("#moves-text [aria-current]", (bs) =>
    bs.map((b) => [b.getAttribute("aria-current"), b.dataset.index, b.classList.contains("current"), getComputedStyle(b).textDecorationLine]));
  assert.deepEqual(await marked(), [], "no move is current at the start");
  await page.click("#step");
  assert.deepEqual(await marked(), [["step", "0", true, "underline"]]);
  await page.click("#step");
  assert.deepEqual(await marked(), [["step", "1", true, "underline"]]);
  const player = page.getByRole("group", { name: "Solution player" });
  assert.equal(await player.getByRole("button", { name: "Step", exact: true }).count(), 1);
  assert.equal(await player.getByRole("button", { name: "Step back", exact: true }).count(), 1);
  await page.click("#tree");
  await page.waitForSelector("#tree-result svg");
  const tree = page.getByRole("group", { name: "Step through the search" });
  assert.equal(await tree.getByRole("button", { name: "Step", exact: true }).count(), 1);
  assert.equal(await tree.getByRole("button", { name: "Back", exact: true }).count(), 1);
  assert.equal(await page.getByRole("button", { name: /[▶◀»«]/ }).count(), 0, "no button is read with an arrow");
});

test("the Edit buttons keep their name; aria-pressed says whether the board is edited", async () => {
  await open();
  const edit = (pressed) => page.getByRole("button", { name: "Edit", exact: true, pressed });
  assert.equal(await edit(false).count(), 2);
  await page.click("#edit-board");
  assert.equal(await edit(true).count(), 1);
  assert.equal(await edit(true).getAttribute("id"), "edit-board");
  await page.click("#edit-goal");
  assert.equal(await edit(true).count(), 2);
  await page.click("#edit-board");
  await page.click("#edit-goal");
  assert.equal(await edit(false).count(), 2);
});
