// What every browser test file shares: Debian's headless Chromium driven by playwright-core,
// a fresh page per test, and small helpers to read the boards. The server is started by
// scripts/e2e.sh, which passes its address in TAQUIN_URL.
import { before, after, beforeEach, afterEach } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";
import { chromium } from "playwright-core";

export const BASE = process.env.TAQUIN_URL || "http://127.0.0.1:8080";
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
export const ARTICLE = "6 4 7/8 5 0/3 2 1";
export const GOAL = "1 2 3/4 5 6/7 8 0";
export const PHONE = { width: 390, height: 844 };

let context;
let profile;
/** The page of the running test. */
export let page;

/**
 * Launches the browser once per file and opens a fresh page for each test. `options` are
 * Playwright's context options beyond the viewport: `{ hasTouch: true }` makes a touch screen,
 * on which `(pointer: coarse)` matches.
 */
export function useBrowser(viewport = { width: 1280, height: 900 }, options = {}) {
  before(async () => {
    profile = mkdtempSync(join(tmpdir(), "taquin-e2e-"));
    // A persistent context is how Playwright passes a fresh --user-data-dir of our own.
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"],
      viewport,
      ...options,
    });
    context.setDefaultTimeout(15000);
  });
  after(async () => {
    await context?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });
  beforeEach(async () => {
    page = await context.newPage();
    await page.setViewportSize(viewport);
    page.on("pageerror", (err) => {
      throw err;
    });
  });
  afterEach(async () => {
    // The page keeps the player's settings in localStorage, which the tests' one browser
    // profile shares: each test starts from the page's defaults.
    if (page.url().startsWith(BASE)) await page.evaluate(() => localStorage.clear()).catch(() => {});
    await page.close();
  });
}

export async function open(hash = "") {
  // A new address that differs only by its hash would not reload the page.
  await page.goto("about:blank");
  await page.goto(`${BASE}/${hash}`);
  await page.waitForSelector("body[data-ready=true]");
  await page.waitForSelector("#algorithm option[value=astar]", { state: "attached" });
}

export const line = (which) => page.getAttribute(`#${which}`, "data-line");
export const status = () => page.textContent("#status");

export async function waitForLine(which, expected) {
  await page.waitForFunction(
    ([id, want]) => document.getElementById(id).dataset.line === want,
    [which, expected],
  );
}

export async function waitForStatus(re) {
  await page.waitForFunction((src) => new RegExp(src).test(document.getElementById("status").textContent), re.source);
}

export async function typeBoard(which, text) {
  await page.fill(`#${which}-input`, text);
  await page.press(`#${which}-input`, "Enter");
}

export async function api(path, body) {
  const r = await fetch(`${BASE}${path}`, {
    method: body ? "POST" : "GET",
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  return r.json();
}

/**
 * The cell of board `which` (board or goal) that names the tile `label`: it lies over that tile,
 * so a click or a finger on the tile lands on it.
 */
export const tileCell = (which, label) => page.locator(`#${which}`).getByRole("gridcell", { name: label, exact: true });

/** The words a screen reader reads for the board's cells, in DOM (= reading) order. */
export const readCells = (which) =>
  page.$$eval(`#${which} [role=row] [role=gridcell]`, (cells) => cells.map((c) => c.textContent));

/** Opens a small board with a solution stepped once, a comparison and a search tree on screen. */
export async function everythingShown() {
  await open("#board=1,2,3/4,0,6/7,5,8");
  await page.click("#solve");
  await page.waitForSelector("#solution:not([hidden])");
  await page.click("#step");
  await page.click("#compare");
  await page.waitForSelector("table.compare td.bar-cell");
  await page.waitForSelector("#compare-progress", { state: "hidden" });
  await page.click("#tree");
  await page.waitForSelector("#tree-result svg");
}

/** Runs axe-core in the page; fails on any serious or critical violation. */
export async function assertAccessible(label) {
  const require = createRequire(import.meta.url);
  const source = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
  await page.evaluate(source);
  const result = await page.evaluate(async () => {
    // eslint-disable-next-line no-undef
    const r = await axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(" ")).slice(0, 5) }));
  });
  const bad = result.filter((v) => v.impact === "serious" || v.impact === "critical");
  assert.deepEqual(bad, [], `${label}: ${JSON.stringify(bad, null, 1)}`);
  return result;
}

/** In fakeStream's lines: the stream breaks there, as when the server dies ("network error"). */
export const BROKEN = "broken";

/** Makes /api/solve/stream answer with `lines`, one every `gapMs`, instead of the server. */
export async function fakeStream(lines, gapMs = 150) {
  await page.addInitScript(
    ([chunks, gap, broken]) => {
      const real = window.fetch;
      window.__streamBodies = [];
      window.fetch = (url, init) => {
        if (String(url).endsWith("/api/solve/stream")) {
          window.__streamBodies.push(JSON.parse(init.body));
          const enc = new TextEncoder();
          const body = new ReadableStream({
            async start(c) {
              init.signal?.addEventListener("abort", () => c.error(new DOMException("aborted", "AbortError")));
              try {
                for (const l of chunks) {
                  await new Promise((r) => setTimeout(r, gap));
                  if (l === broken) {
                    c.error(new TypeError("network error"));
                    return;
                  }
                  c.enqueue(enc.encode(`${JSON.stringify(l)}\n`));
                }
                c.close();
              } catch (_) {
                // Cancelled: the stream is already in error.
              }
            },
          });
          return Promise.resolve(new Response(body, { status: 200, headers: { "Content-Type": "application/x-ndjson" } }));
        }
        return real(url, init);
      };
    },
    [lines, gapMs, BROKEN],
  );
}
