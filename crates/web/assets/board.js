// Boards as the page holds them: a row-major list of tiles, 0 for the blank, `w` columns and
// `h` rows. Pure functions, no DOM: the server stays the judge of validity (it gives the precise
// message), these only lay boards out and replay moves.

/** Move letters name the direction the BLANK moves, as everywhere in taquin. */
const DIRS = { U: [0, -1], D: [0, 1], L: [-1, 0], R: [1, 0] };
export const INVERSE = { U: "D", D: "U", L: "R", R: "L" };

/** The board as text, rows separated by "/": "6 4 7/8 5 0/3 2 1". */
export function lineOf(tiles, w) {
  const rows = [];
  for (let r = 0; r < tiles.length / w; r++) rows.push(tiles.slice(r * w, r * w + w).join(" "));
  return rows.join("/");
}

/** The usual goal: 1 .. N-1, then the blank. */
export function solvedTiles(w, h) {
  const t = [];
  for (let i = 1; i < w * h; i++) t.push(i);
  t.push(0);
  return t;
}

export const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * Parses board text: rows by "/", ";" or newlines, tiles by spaces or commas, blank as 0, _ or
 * ".", as the server does. Returns {w, h, tiles} or {error}.
 */
export function parseBoard(text) {
  const rows = String(text).trim().split(/\s*[/;\n]\s*/).filter((r) => r.length > 0);
  if (rows.length === 0) return { error: "the board is empty" };
  const grid = rows.map((r) => r.split(/[\s,]+/).filter((t) => t.length > 0));
  const w = grid[0].length;
  if (grid.some((r) => r.length !== w)) return { error: "every row must have the same number of tiles" };
  const tiles = [];
  for (const row of grid) {
    for (const tok of row) {
      if (tok === "_" || tok === ".") tiles.push(0);
      else if (/^\d+$/.test(tok)) tiles.push(Number(tok));
      else return { error: `'${tok}' is not a tile` };
    }
  }
  return { w, h: grid.length, tiles };
}

/**
 * `parsed` (from parseBoard), with one line of k*k tiles read as a k x k board, as instance
 * files and papers write a board and as the server reads it; {error} for one line of any other
 * count, which cannot be told apart. Boards of several rows come back as they are.
 */
export function squareIfOneLine(parsed) {
  if (parsed.error || parsed.h !== 1 || parsed.tiles.length < 2) return parsed;
  const n = parsed.tiles.length, side = Math.round(Math.sqrt(n));
  if (side < 2 || side * side !== n) {
    return { error: `this is one row of ${n} tiles; separate the rows with /, e.g. 1 2 3/4 5 6/7 8 0` };
  }
  return { ...parsed, w: side, h: side };
}

/** True when the tiles are exactly 0 .. w*h-1, each once. */
export function isPermutation(tiles) {
  const sorted = tiles.slice().sort((a, b) => a - b);
  return sorted.every((t, i) => t === i);
}

/** The board after the blank moves one step in `letter`'s direction, or null off the edge. */
export function blankMove(tiles, w, h, letter) {
  const b = tiles.indexOf(0);
  const d = DIRS[letter];
  if (!d) return null;
  const x = (b % w) + d[0];
  const y = Math.floor(b / w) + d[1];
  if (x < 0 || y < 0 || x >= w || y >= h) return null;
  const to = y * w + x;
  const next = tiles.slice();
  next[b] = next[to];
  next[to] = 0;
  return next;
}

/** The board after every move of `moves`, or null if one of them leaves the board. */
export function applyMoves(tiles, w, h, moves) {
  let t = tiles;
  for (const m of moves) {
    t = blankMove(t, w, h, m);
    if (!t) return null;
  }
  return t;
}
