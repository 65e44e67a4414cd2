// The page's pure modules, run in Node: the two notations and metrics, board replay, and the
// words a web user reads for an error.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as notation from "../../assets/notation.js";
import { applyMoves, parseBoard, lineOf, isPermutation } from "../../assets/board.js";
import { withoutFlags, userMessage, ApiError } from "../../assets/api.js";

test("tile notation writes the opposite direction and runs with their length", () => {
  assert.equal(notation.format("DLLURR", "tile"), "U R2 D L2");
  assert.equal(notation.format("DLLURR", "blank"), "DLLURR");
  assert.equal(notation.format("", "tile"), "");
  assert.equal(notation.format("UUUU", "tile"), "D4");
});

test("the two metrics: every tile (STM), every run once (MTM)", () => {
  assert.equal(notation.stmCount("DLLURR"), 6);
  assert.equal(notation.mtmCount("DLLURR"), 4);
  assert.equal(notation.mtmCount(""), 0);
  assert.equal(notation.mtmCount("LRLR"), 4);
  assert.deepEqual(notation.runs("DDL"), [{ letter: "D", count: 2, start: 0 }, { letter: "L", count: 1, start: 2 }]);
});

test("tokens cover the moves exactly, in order", () => {
  for (const moves of ["", "U", "DLLURR", "RRRDDDLLLUUU", "LRLRLR"]) {
    for (const kind of ["blank", "tile"]) {
      const t = notation.tokens(moves, kind);
      let at = 0;
      for (const tok of t) {
        assert.equal(tok.start, at);
        assert.ok(tok.end > tok.start);
        at = tok.end;
      }
      assert.equal(at, moves.length);
      assert.equal(t.length, kind === "tile" ? notation.mtmCount(moves) : moves.length);
    }
  }
});

test("parse reads either notation back; format and parse are inverse", () => {
  assert.equal(notation.parse("U R2 D L2", "tile"), "DLLURR");
  assert.equal(notation.parse("ur2dl2", "tile"), "DLLURR");
  assert.equal(notation.parse("d l l", "blank"), "DLL");
  for (const moves of ["", "U", "DLLURR", "RRRDDDLLLUUU", "LRLRLR", "DDDDDDDDDDDD"]) {
    for (const kind of ["blank", "tile"]) assert.equal(notation.parse(notation.format(moves, kind), kind), moves);
  }
});

test("parse says which token is wrong", () => {
  assert.throws(() => notation.parse("UX", "blank"), /'X' is not a move/);
  assert.throws(() => notation.parse("R0", "tile"), /'R0' slides no tile/);
  assert.throws(() => notation.parse("R2Q", "tile"), /'Q' is not a tile move/);
});

test("a click in the blank's row or column slides the whole run", () => {
  // 1 2 3 / 4 5 6 / 7 8 _ : the blank at the bottom right.
  const b = parseBoard("1 2 3/4 5 6/7 8 0").tiles;
  assert.equal(notation.slideTo(b, 3, 6), "LL", "tile 7: the run 7 8 slides right");
  assert.equal(notation.slideTo(b, 3, 7), "L");
  assert.equal(notation.slideTo(b, 3, 2), "UU", "tile 3: the run 3 6 slides down");
  assert.equal(notation.slideTo(b, 3, 8), "", "the blank itself");
  assert.equal(notation.slideTo(b, 3, 0), null, "not in the blank's row or column");
  const after = applyMoves(b, 3, 3, notation.slideTo(b, 3, 6));
  assert.equal(lineOf(after, 3), "1 2 3/4 5 6/0 7 8");
  assert.equal(notation.mtmCount("LL"), 1);
  assert.equal(notation.stmCount("LL"), 2);
});

test("boards parse and replay as the server's do", () => {
  assert.deepEqual(parseBoard("1,2/3,_"), { w: 2, h: 2, tiles: [1, 2, 3, 0] });
  assert.deepEqual(parseBoard("1,2,3;4,5,6;7,8,0"), { w: 3, h: 3, tiles: [1, 2, 3, 4, 5, 6, 7, 8, 0] }, "rows by ; as the server takes them");
  assert.match(parseBoard("1 2/3").error, /same number/);
  assert.match(parseBoard("1 x/3 0").error, /'x' is not a tile/);
  assert.equal(isPermutation([1, 2, 3, 0]), true);
  assert.equal(isPermutation([1, 1, 3, 0]), false);
  const start = parseBoard("6 4 7/8 5 0/3 2 1").tiles;
  assert.equal(lineOf(applyMoves(start, 3, 3, "ULDLDRURDLUULDDRURULLDRRULLDRDR"), 3), "1 2 3/4 5 6/7 8 0");
  assert.equal(applyMoves(start, 3, 3, "R"), null, "off the board");
});

test("messages lose their command-line advice, and keep the rest", () => {
  assert.equal(withoutFlags("no directory for pattern databases: set TAQUIN_PDB_DIR or pass --pdb-dir"),
    "no directory for pattern databases: set TAQUIN_PDB_DIR");
  assert.equal(withoutFlags("x: bad header; the file is not used (it is rebuilt on next use, or run `taquin pdb build --force`)"),
    "x: bad header; the file is not used (it is rebuilt on next use)");
  assert.equal(withoutFlags("time limit reached; raise --timeout"), "time limit reached");
  assert.equal(withoutFlags("row 2 has 2 tiles but row 1 has 3"), "row 2 has 2 tiles but row 1 has 3");
  // Advice after a colon that names a flag goes whole; the statement before it stays.
  assert.equal(withoutFlags("walking distance needs tables of over 100 million states on a 5x5 board: use --heuristic linear-conflict, or a pattern database (pdb:...) on the 24-puzzle"),
    "walking distance needs tables of over 100 million states on a 5x5 board");
  const unsupported = new ApiError("walking distance needs big tables on a 5x5 board: use --heuristic linear-conflict", "unsupported");
  assert.equal(userMessage(unsupported),
    "Walking distance needs big tables on a 5x5 board. Choose another algorithm or heuristic, or auto, which picks one that fits the board.");
  // Every other message reads as a sentence.
  assert.equal(userMessage(new ApiError("unsolvable: the tiles are 1 inversion away", "unsolvable")),
    "Unsolvable: the tiles are 1 inversion away.");
});

test("a limit's advice fits what hit it and the part of the page that asked", () => {
  const limit = (which) => new ApiError("limit", "limit_reached", { limit: which, generated: 5, lower_bound: 40 });
  // More time cannot help a memory limit.
  assert.match(userMessage(limit("memory")), /memory limit was reached after 5 nodes: the solution needs at least 40 moves\. A\* and breadth-first/);
  assert.doesNotMatch(userMessage(limit("memory")), /time limit/);
  assert.match(userMessage(limit("time")), /Choose a longer time limit/);
  // A hint and a comparison have no time limit or algorithm to choose.
  for (const which of ["time", "nodes", "memory"]) {
    assert.doesNotMatch(userMessage(limit(which), "hint"), /longer time|algorithm/);
    assert.match(userMessage(limit(which), "hint"), /Solve/);
    assert.equal(userMessage(limit(which), "compare"), `The ${which === "nodes" ? "node" : which} limit was reached after 5 nodes: the solution needs at least 40 moves.`);
  }
});

test("a search the server stopped is not said to be the player's cancel", () => {
  const stopped = new ApiError("the server is stopping: send the request again once it is back", "cancelled");
  assert.match(userMessage(stopped), /^The server stopped the search/);
  assert.match(userMessage(stopped), /does not answer/);
  assert.doesNotMatch(userMessage(stopped), /The search was cancelled/);
});
