// The two ways of writing a solution, and the two ways of counting it.
//
// Blank notation (taquin's own): each letter U/D/L/R names where the BLANK goes, one tile per
// letter. Tile notation: each token names where the TILES go, the opposite direction, and a run
// of several tiles slid at once in one row or column is written with its length: "R3". Counting
// every tile moved is the single-tile metric (STM); counting each slide of a run once is the
// multi-tile metric (MTM). Both are read from the blank letters, which stay the stored form.

const TILE_DIR = { U: "D", D: "U", L: "R", R: "L" };

/** Maximal runs of one repeated blank letter: [{letter, count, start}]. */
export function runs(moves) {
  const out = [];
  for (let i = 0; i < moves.length; i++) {
    const last = out[out.length - 1];
    if (last && last.letter === moves[i]) last.count++;
    else out.push({ letter: moves[i], count: 1, start: i });
  }
  return out;
}

/** Single-tile metric: every tile moved counts. */
export const stmCount = (moves) => moves.length;

/** Multi-tile metric: a run of tiles slid in one row or column counts once. */
export const mtmCount = (moves) => runs(moves).length;

/** The direction a tile moves when the blank moves in `letter`'s direction. */
export const tileDirection = (letter) => TILE_DIR[letter];

/**
 * The moves as display tokens in the chosen notation, each with the range of blank moves
 * [start, end) it covers: one token per letter in blank notation, one per run in tile notation.
 */
export function tokens(moves, notation) {
  if (notation === "tile") {
    return runs(moves).map((r) => ({
      text: r.count === 1 ? TILE_DIR[r.letter] : `${TILE_DIR[r.letter]}${r.count}`,
      start: r.start,
      end: r.start + r.count,
    }));
  }
  return [...moves].map((m, i) => ({ text: m, start: i, end: i + 1 }));
}

/** The moves written in the chosen notation: "DLLURR" or "U R2 D L2". */
export function format(moves, notation) {
  const t = tokens(moves, notation).map((x) => x.text);
  return notation === "tile" ? t.join(" ") : t.join("");
}

/**
 * Reads moves written in either notation back into blank letters. Tile notation accepts
 * tokens with or without spaces ("R3U", "R3 U"); a count must be at least 1. Throws an Error
 * that says which token is wrong.
 */
export function parse(text, notation) {
  const src = String(text).toUpperCase().replace(/[\s,]+/g, "");
  if (notation !== "tile") {
    const bad = src.search(/[^UDLR]/);
    if (bad >= 0) throw new Error(`'${src[bad]}' is not a move: use U, D, L or R (where the blank goes)`);
    return src;
  }
  let out = "";
  const re = /([UDLR])(\d*)/y;
  let at = 0;
  while (at < src.length) {
    re.lastIndex = at;
    const m = re.exec(src);
    if (!m) throw new Error(`'${src.slice(at, at + 3)}' is not a tile move: use U, D, L or R, optionally followed by a count (R3)`);
    const count = m[2] === "" ? 1 : Number(m[2]);
    if (count < 1) throw new Error(`'${m[0]}' slides no tile: a count is at least 1`);
    out += TILE_DIR[m[1]].repeat(count);
    at = re.lastIndex;
  }
  return out;
}

/**
 * The blank letters that slide every tile between the blank and `cell` one step towards the
 * blank (the tile at `cell` included), when `cell` is in the blank's row or column; "" for the
 * blank itself, null for a cell elsewhere.
 */
export function slideTo(tiles, w, cell) {
  const b = tiles.indexOf(0);
  const bx = b % w, by = Math.floor(b / w), x = cell % w, y = Math.floor(cell / w);
  if (cell === b) return "";
  if (by === y) return (x > bx ? "R" : "L").repeat(Math.abs(x - bx));
  if (bx === x) return (y > by ? "D" : "U").repeat(Math.abs(y - by));
  return null;
}
