//! Manhattan distance plus linear conflicts (Hansson, Mayer & Yung 1992), done correctly.
//!
//! In a line (row or column), take the tiles whose goal cell is in that same line. If their goal
//! order disagrees with their current order, some of them must leave the line to let the others
//! pass, and each that leaves makes two moves (out and back) across the line that the Manhattan
//! distance does not count. The fewest tiles that must leave is the line's count minus the longest
//! increasing run (subsequence) of their goal positions, so that line adds `2 * (count - LIS)`.
//!
//! Why the sum over all rows and columns stays admissible: the extra moves of a row conflict are
//! vertical moves of tiles already in their goal row, which Manhattan counts zero of; those of a
//! column conflict are horizontal moves of tiles in their goal column. A tile removed for its row
//! and for its column makes both kinds, which are distinct moves. The blank is never part of a
//! conflict (versions that let it in overestimate). Consistent as well: one
//! move changes one tile's Manhattan term by one and the conflicts of its two lines by at most
//! one removal (a proof sketch that `tests/oracle.rs` checks exhaustively on small boards).

use super::{GoalGeometry, Heuristic, Incremental, Manhattan};
use crate::board::{Board, Tile, BLANK};

/// Manhattan distance plus linear conflicts, for one goal.
#[derive(Debug, Clone)]
pub struct LinearConflict {
    manhattan: Manhattan,
    geometry: GoalGeometry,
    tables: Option<LineTables>,
}

/// Longest side for which the per-line tables are used: `(side + 1)^side` entries of a byte,
/// 2 MiB at 7 (built once per process and line length, in milliseconds). At 7 they make the
/// 48-puzzle's updates table look-ups instead of four longest-run counts (56 % of a 7x7
/// anytime run's time before); at 8 they would take 43 MB a table.
const TABLE_SIDE: usize = 7;

/// Removal counts of every possible line, for boards whose sides are at most [`TABLE_SIDE`].
///
/// A line is summarised by one digit per cell, base `L + 1` for a line of `L` cells: the goal
/// position along the line of the tile there when its goal is in this line, else `L` (the blank
/// and tiles of other lines). The removal count depends on nothing else, so it is looked up
/// instead of recomputed, and IDA* keeps each line's code up to date with two digit changes a move.
#[derive(Debug, Clone)]
struct LineTables {
    /// `terms[t * cells + c]`: what tile `t` (0 the blank) on cell `c` adds to its row's code,
    /// to its column's code, and to the Manhattan distance; so a full evaluation is one lookup
    /// and three additions a cell.
    terms: Vec<CellTerm>,
    /// Row and column of each cell.
    cell_line: Vec<(u8, u8)>,
    /// `(width + 1)^c` for each column c: weight of a cell's digit in its row code.
    row_pow: Vec<u32>,
    /// `(height + 1)^r` for each row r: weight of a cell's digit in its column code.
    col_pow: Vec<u32>,
    /// Removals of a row, by row code.
    row_removals: &'static [u8],
    /// Removals of a column, by column code.
    col_removals: &'static [u8],
    /// `row_digit[t * height + r]`: digit of tile t in row r.
    row_digit: Vec<u8>,
    /// `col_digit[t * width + c]`: digit of tile t in column c.
    col_digit: Vec<u8>,
}

impl LineTables {
    fn new(g: &GoalGeometry, manhattan: &Manhattan) -> LineTables {
        let (w, h) = (g.width, g.height);
        let n = w * h;
        // Tile 0 (the blank) keeps the digit of "not counted" in every line.
        let mut row_digit = vec![w as u8; n * h];
        let mut col_digit = vec![h as u8; n * w];
        for t in 1..n as Tile {
            row_digit[t as usize * h + g.goal_row(t)] = g.goal_col(t) as u8;
            col_digit[t as usize * w + g.goal_col(t)] = g.goal_row(t) as u8;
        }
        let row_pow: Vec<u32> = (0..w as u32).map(|c| (w as u32 + 1).pow(c)).collect();
        let col_pow: Vec<u32> = (0..h as u32).map(|r| (h as u32 + 1).pow(r)).collect();
        let mut terms = vec![CellTerm::default(); n * n];
        for t in 0..n {
            for cell in 0..n {
                let (r, c) = (cell / w, cell % w);
                terms[t * n + cell] = CellTerm {
                    row_code: u32::from(row_digit[t * h + r]) * row_pow[c],
                    col_code: u32::from(col_digit[t * w + c]) * col_pow[r],
                    manhattan: if t == 0 {
                        0
                    } else {
                        manhattan.tile_distance(t as Tile, cell)
                    },
                };
            }
        }
        LineTables {
            terms,
            cell_line: (0..n)
                .map(|cell| ((cell / w) as u8, (cell % w) as u8))
                .collect(),
            row_pow,
            col_pow,
            row_removals: removal_table(w),
            col_removals: removal_table(h),
            row_digit,
            col_digit,
        }
    }
}

/// One tile on one cell, as [`LineTables::terms`] records it.
#[derive(Debug, Clone, Copy, Default)]
struct CellTerm {
    row_code: u32,
    col_code: u32,
    manhattan: u32,
}

/// Removals of every line of `len` cells (at most [`TABLE_SIDE`]), indexed by its code (digit
/// of cell i at weight (len+1)^i). Each length's table is built once per process: it depends on
/// nothing else, and every heuristic built for a board of that side shares it.
fn removal_table(len: usize) -> &'static [u8] {
    static TABLES: [std::sync::OnceLock<Box<[u8]>>; TABLE_SIDE + 1] =
        [const { std::sync::OnceLock::new() }; TABLE_SIDE + 1];
    TABLES[len].get_or_init(|| {
        let base = len + 1;
        let size = base.pow(len as u32);
        let (mut kept, mut tails) = ([0u16; TABLE_SIDE], [0u16; TABLE_SIDE]);
        (0..size)
            .map(|code| {
                let mut count = 0;
                let mut c = code;
                for _ in 0..len {
                    let digit = c % base;
                    c /= base;
                    if digit < len {
                        kept[count] = digit as u16;
                        count += 1;
                    }
                }
                (count - longest_increasing(kept[..count].iter().copied(), &mut tails)) as u8
            })
            .collect()
    })
}

/// Length of the longest strictly increasing subsequence of `seq` (patience sorting), with
/// `tails` as scratch space (at least as long as `seq`): no allocation.
fn longest_increasing(seq: impl IntoIterator<Item = u16>, tails: &mut [u16]) -> usize {
    let mut lis = 0;
    for p in seq {
        let i = tails[..lis].partition_point(|&x| x < p);
        tails[i] = p;
        if i == lis {
            lis += 1;
        }
    }
    lis
}

/// Incremental state: the two parts of the value, kept apart so lines can be re-counted, and on
/// boards up to 7x7 the code of every row and column.
#[derive(Debug, Clone, Copy, Default)]
pub struct LcParts {
    manhattan: u32,
    /// Sum over lines of tiles that must leave their line (each costs 2 moves).
    removals: u32,
    rows: [u32; TABLE_SIDE],
    cols: [u32; TABLE_SIDE],
}

impl LinearConflict {
    /// Built for `goal`.
    pub fn new(goal: &Board) -> LinearConflict {
        let geometry = GoalGeometry::new(goal);
        let manhattan = Manhattan::new(goal);
        let tables = (goal.width().max(goal.height()) <= TABLE_SIDE)
            .then(|| LineTables::new(&geometry, &manhattan));
        LinearConflict {
            manhattan,
            geometry,
            tables,
        }
    }

    /// Removals needed in row `r`; `with` puts `tile` on `cell` (or leaves it as it is).
    fn row_removals(&self, tiles: &[Tile], r: usize, with: Option<(usize, Tile)>) -> u32 {
        let w = self.geometry.width;
        let cells = (r * w..(r + 1) * w).map(|c| (c, tiles[c]));
        self.line_removals(cells, with, |t| {
            (self.geometry.goal_row(t) == r).then(|| self.geometry.goal_col(t))
        })
    }

    /// Removals needed in column `c`; `with` as for rows.
    fn col_removals(&self, tiles: &[Tile], c: usize, with: Option<(usize, Tile)>) -> u32 {
        let w = self.geometry.width;
        let cells = (0..self.geometry.height).map(|r| (r * w + c, tiles[r * w + c]));
        self.line_removals(cells, with, |t| {
            (self.geometry.goal_col(t) == c).then(|| self.geometry.goal_row(t))
        })
    }

    /// `count - longest strictly increasing subsequence` of the goal positions, along the line,
    /// of the tiles whose goal is in the line. No allocation for lines up to 64 cells.
    fn line_removals(
        &self,
        cells: impl Iterator<Item = (usize, Tile)>,
        with: Option<(usize, Tile)>,
        goal_in_line: impl Fn(Tile) -> Option<usize>,
    ) -> u32 {
        let longest = self.geometry.width.max(self.geometry.height);
        let mut stack_tails = [0u16; 64];
        // Vec::new does not allocate: lines of up to 64 cells never touch the heap.
        let mut heap_tails = if longest > 64 {
            vec![0; longest]
        } else {
            Vec::new()
        };
        let tails: &mut [u16] = if longest > 64 {
            &mut heap_tails
        } else {
            &mut stack_tails
        };
        let mut count = 0u32;
        let positions = cells
            .filter_map(|(cell, tile)| {
                let tile = match with {
                    Some((c, t)) if c == cell => t,
                    _ => tile,
                };
                (tile != BLANK).then(|| goal_in_line(tile)).flatten()
            })
            .inspect(|_| count += 1)
            // A line has at most 1,000 cells (the largest board): positions fit.
            .map(|p| p as u16);
        let lis = longest_increasing(positions, tails);
        count - lis as u32
    }

    fn parts(&self, tiles: &[Tile]) -> LcParts {
        let mut parts = LcParts::default();
        let (w, h) = (self.geometry.width, self.geometry.height);
        match &self.tables {
            Some(t) => {
                // One pass: Manhattan terms and line codes together, one lookup a cell.
                let n = tiles.len();
                for (cell, (&tile, &(r, c))) in tiles.iter().zip(&t.cell_line).enumerate() {
                    let term = t.terms[tile as usize * n + cell];
                    parts.manhattan += term.manhattan;
                    parts.rows[usize::from(r)] += term.row_code;
                    parts.cols[usize::from(c)] += term.col_code;
                }
                let rows: u32 = parts.rows[..h]
                    .iter()
                    .map(|&code| u32::from(t.row_removals[code as usize]))
                    .sum();
                let cols: u32 = parts.cols[..w]
                    .iter()
                    .map(|&code| u32::from(t.col_removals[code as usize]))
                    .sum();
                parts.removals = rows + cols;
            }
            None => {
                parts.manhattan = self.manhattan.estimate(tiles);
                let rows: u32 = (0..h).map(|r| self.row_removals(tiles, r, None)).sum();
                let cols: u32 = (0..w).map(|c| self.col_removals(tiles, c, None)).sum();
                parts.removals = rows + cols;
            }
        }
        parts
    }

    /// Table-driven update: two digit changes in the line the tile moves along (its removals
    /// stay: the order of its tiles is unchanged) and one in each of the two lines it crosses.
    #[inline]
    fn update_tables(&self, t: &LineTables, tile: Tile, from: usize, to: usize, aux: &mut LcParts) {
        let (w, h) = (self.geometry.width, self.geometry.height);
        let (rf, cf, rt, ct) = (from / w, from % w, to / w, to % w);
        let rows = Axis {
            pow: &t.row_pow,
            digit: &t.row_digit,
            removals: t.row_removals,
            lines: h,
            blank: w as u32,
        };
        let cols = Axis {
            pow: &t.col_pow,
            digit: &t.col_digit,
            removals: t.col_removals,
            lines: w,
            blank: h as u32,
        };
        let tile = tile as usize;
        aux.removals = if rf == rt {
            slide(
                &rows,
                &mut aux.rows,
                rf,
                (cf, ct),
                &cols,
                &mut aux.cols,
                tile,
                aux.removals,
            )
        } else {
            slide(
                &cols,
                &mut aux.cols,
                cf,
                (rf, rt),
                &rows,
                &mut aux.rows,
                tile,
                aux.removals,
            )
        };
    }
}

/// Rows or columns, as the table-driven update sees them.
struct Axis<'a> {
    /// Weight of each position's digit in a line's code.
    pow: &'a [u32],
    /// `digit[t * lines + line]`: tile t's digit in that line.
    digit: &'a [u8],
    /// Removals by line code.
    removals: &'a [u8],
    /// Number of lines of this kind.
    lines: usize,
    /// The digit of the blank (and of tiles of other lines).
    blank: u32,
}

/// `tile` slides along line `line` of `along`, from position `positions.0` to `positions.1`;
/// those positions are also the lines of `across` it leaves and enters, at position `line`.
/// Updates the codes and returns the new total of removals.
#[allow(clippy::too_many_arguments)]
#[inline]
fn slide(
    along: &Axis,
    along_codes: &mut [u32],
    line: usize,
    (from, to): (usize, usize),
    across: &Axis,
    across_codes: &mut [u32],
    tile: usize,
    removals: u32,
) -> u32 {
    let d = u32::from(along.digit[tile * along.lines + line]);
    along_codes[line] = along_codes[line] - d * along.pow[from] + along.blank * along.pow[from]
        - along.blank * along.pow[to]
        + d * along.pow[to];
    let (old_from, old_to) = (across_codes[from], across_codes[to]);
    let pow = across.pow[line];
    let (df, dt) = (
        u32::from(across.digit[tile * across.lines + from]),
        u32::from(across.digit[tile * across.lines + to]),
    );
    across_codes[from] = old_from - df * pow + across.blank * pow;
    across_codes[to] = old_to - across.blank * pow + dt * pow;
    let removed = |code: u32| u32::from(across.removals[code as usize]);
    removals + removed(across_codes[from]) + removed(across_codes[to])
        - removed(old_from)
        - removed(old_to)
}

impl Heuristic for LinearConflict {
    fn estimate(&self, tiles: &[Tile]) -> u32 {
        let p = self.parts(tiles);
        p.manhattan + 2 * p.removals
    }
}

impl Incremental for LinearConflict {
    type Aux = LcParts;
    type Pending = ();
    fn init(&self, tiles: &[Tile]) -> (u32, LcParts) {
        let p = self.parts(tiles);
        (p.manhattan + 2 * p.removals, p)
    }

    #[inline]
    fn update(
        &self,
        tiles: &[Tile],
        tile: Tile,
        from: usize,
        to: usize,
        _: u32,
        aux: &mut LcParts,
    ) -> u32 {
        let w = self.geometry.width;
        aux.manhattan = aux.manhattan + self.manhattan.tile_distance(tile, to)
            - self.manhattan.tile_distance(tile, from);
        if let Some(t) = &self.tables {
            self.update_tables(t, tile, from, to, aux);
            return aux.manhattan + 2 * aux.removals;
        }
        // A horizontal slide keeps the order of the tiles in the row (the blank does not count),
        // so only the two columns change; a vertical slide changes only the two rows.
        let (before, after) = if from / w == to / w {
            let (cf, ct) = (from % w, to % w);
            let before = self.col_removals(tiles, cf, Some((from, tile)))
                + self.col_removals(tiles, ct, Some((to, BLANK)));
            let after = self.col_removals(tiles, cf, None) + self.col_removals(tiles, ct, None);
            (before, after)
        } else {
            let (rf, rt) = (from / w, to / w);
            let before = self.row_removals(tiles, rf, Some((from, tile)))
                + self.row_removals(tiles, rt, Some((to, BLANK)));
            let after = self.row_removals(tiles, rf, None) + self.row_removals(tiles, rt, None);
            (before, after)
        };
        aux.removals = aux.removals + after - before;
        aux.manhattan + 2 * aux.removals
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_the_fewest_removals_per_line() {
        let goal = Board::parse("1 2 3/4 5 6/7 8 0").unwrap();
        let lc = LinearConflict::new(&goal);
        // Row 1 reversed: 3 2 1 -> keep one, remove two: +4 over Manhattan (2+0+2 = 4).
        let b = Board::parse("3 2 1/4 5 6/7 8 0").unwrap();
        assert_eq!(lc.estimate(b.tiles()), 4 + 4);
        // The blank is never in a conflict.
        let b = Board::parse("1 2 3/4 5 6/7 0 8").unwrap();
        assert_eq!(lc.estimate(b.tiles()), 1);
    }

    #[test]
    fn tables_agree_with_direct_counting() {
        for (w, h) in [(3, 3), (4, 4), (5, 3), (2, 6), (6, 6), (7, 7), (7, 4)] {
            let goal = Board::solved(w, h).unwrap();
            let lc = LinearConflict::new(&goal);
            let mut direct = lc.clone();
            direct.tables = None;
            let mut rng = crate::generate::Rng::new(5);
            for _ in 0..300 {
                let b = crate::generate::uniform(&goal, &mut rng);
                assert_eq!(lc.estimate(b.tiles()), direct.estimate(b.tiles()), "{b:?}");
            }
        }
    }

    #[test]
    fn incremental_update_matches_full_recount() {
        for goal in [
            Board::solved(4, 4).unwrap(),
            Board::solved(7, 3).unwrap(),
            Board::solved(9, 3).unwrap(),
        ] {
            check_incremental(&goal);
        }
    }

    fn check_incremental(goal: &Board) {
        let lc = LinearConflict::new(goal);
        let mut b = goal.clone();
        let (mut h, mut aux) = lc.init(b.tiles());
        let mut seed = 7u64 + goal.len() as u64;
        for _ in 0..2000 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            let m = crate::moves::Move::ALL[(seed >> 40) as usize % 4];
            let from_blank = b.blank();
            if let Some(to_blank) = b.target(m) {
                let tile = b.tiles()[to_blank];
                b.apply(m);
                h = lc.update(b.tiles(), tile, to_blank, from_blank, h, &mut aux);
                assert_eq!(h, lc.estimate(b.tiles()), "{b:?}");
            }
        }
    }
}
