//! The dual lookup (Zahavi, Felner, Holte & Schaeffer 2008; Felner et al. 2005), a further
//! lower bound beside the regular and reflected lookups of [`PdbHeuristic`].
//!
//! Cells and tiles swap roles. Name every tile after its goal cell; if a move string takes the
//! board to the goal, the same string of cell swaps takes the goal to the *dual* board, whose
//! cell `c` holds the goal cell of the tile on `c`, and along that path the tile named after
//! the blank's cell `p` plays the blank. So the dual board is exactly as far from a goal that
//! has the blank on `p` instead. A pattern's table is a valid bound for that goal when `p` is
//! neither in the pattern nor cut off from the goal's blank cell by the pattern's goal cells
//! (the table's goal region of the blank, see `build.rs`); the dual value adds up the excesses
//! of those patterns only (Manhattan distance is the same on both boards). The reflected
//! board's dual is looked up as well: its blank stands elsewhere, so other patterns may be
//! valid.
//!
//! Only [`Incremental::refine`] looks them up, for a node the cheaper lookups did not cut off;
//! a move changes the tiles on two cells, so the dual placement of at most two patterns per
//! board, and the others' excesses are kept in the incremental state ([`DualAux`]); the
//! lookups stop once the value passes the caller's limit. The solver's tables go without them
//! ([`crate::Tables::pdb_heuristic`] says why), and so their state goes without the dual
//! lookups' caches: a state of its own type here, beside the base heuristic's.

use super::{Pattern, PdbAux, PdbHeuristic, PdbPending, NARROW_PATTERNS, NONE};
use crate::board::{Board, Tile, BLANK};
use crate::heuristic::{Heuristic, Incremental};
use crate::pdb::index;

/// The pattern-database heuristic with the dual lookups added ([`PdbHeuristic::with_dual`]):
/// the maximum of the regular, reflected and dual values.
#[derive(Debug, Clone)]
pub struct DualPdbHeuristic<const P: usize = NARROW_PATTERNS> {
    base: PdbHeuristic<P>,
    /// `None` where the dual lookup is not valid (zero-aware tables, two partitions): the
    /// value is then the base heuristic's.
    dual: Option<Dual>,
}

/// The incremental state of a [`DualPdbHeuristic`]: the base heuristic's, and the dual
/// lookups known so far on the board and on its reflection.
#[derive(Debug, Clone, Copy)]
pub struct DualAux<const P: usize> {
    base: PdbAux<P>,
    dual: DualCache<P>,
    mirror_dual: DualCache<P>,
}

/// The dual lookup's tables (module docs), for the goal they were made for.
#[derive(Debug, Clone)]
struct Dual {
    /// The goal cell of each tile (the blank's goal cell for the blank).
    goal_cell: Vec<u8>,
    /// For each cell the blank may stand on: bit `j` set when pattern `j`'s dual lookup is a
    /// valid bound then.
    valid: Vec<u16>,
    /// Each pattern's goal cells in index order: the dual board's cells `c` whose tiles'
    /// goal cells place the pattern.
    cells: Vec<Vec<u8>>,
    /// With the reflection: the reflections of `cells` (the reflected board's cell `c` holds
    /// the reflection of the tile on `tr[c]`).
    mirror_cells: Vec<Vec<u8>>,
    /// The pattern whose dual index depends on the tile on cell `c` (`NONE` if none).
    cell_pattern: Vec<u8>,
    /// The pattern whose reflected-dual index depends on the tile on cell `c` (`NONE` if none).
    mirror_cell_pattern: Vec<u8>,
}

impl Dual {
    fn new(
        goal: &Board,
        patterns: &[Pattern],
        goal_pos: &[usize],
        transpose: Option<&[u8]>,
    ) -> Dual {
        let (w, h) = (goal.width(), goal.height());
        let n = w * h;
        let cells: Vec<Vec<u8>> = patterns
            .iter()
            .map(|p| {
                p.tiles
                    .iter()
                    .map(|&t| goal_pos[t as usize] as u8)
                    .collect()
            })
            .collect();
        let mut valid = vec![0u16; n];
        for (j, pattern_cells) in cells.iter().enumerate() {
            // The goal's blank region for this pattern: cells outside the pattern reachable
            // from the goal's blank cell without crossing a pattern cell.
            let mut open = vec![true; n];
            for &c in pattern_cells {
                open[usize::from(c)] = false;
            }
            let mut region = vec![false; n];
            let mut stack = vec![goal.blank()];
            region[goal.blank()] = true;
            while let Some(c) = stack.pop() {
                for m in crate::moves::Move::ALL {
                    if let Some(to) = m.target(c, w, h) {
                        if open[to] && !region[to] {
                            region[to] = true;
                            stack.push(to);
                        }
                    }
                }
            }
            for (p, v) in valid.iter_mut().enumerate() {
                if region[p] {
                    *v |= 1 << j;
                }
            }
        }
        let mut cell_pattern = vec![NONE; n];
        for (j, pattern_cells) in cells.iter().enumerate() {
            for &c in pattern_cells {
                cell_pattern[usize::from(c)] = j as u8;
            }
        }
        let reflect = |c: u8| transpose.map_or(c, |tr| tr[usize::from(c)]);
        let mirror_cells = cells
            .iter()
            .map(|pc| pc.iter().map(|&c| reflect(c)).collect())
            .collect();
        let mirror_cell_pattern = (0..n)
            .map(|c| cell_pattern[usize::from(reflect(c as u8))])
            .collect();
        Dual {
            goal_cell: goal_pos.iter().map(|&c| c as u8).collect(),
            valid,
            cells,
            mirror_cells,
            cell_pattern,
            mirror_cell_pattern,
        }
    }
}

/// The dual lookups of one board (the board or its reflection) as far as they are known: a
/// move changes the tiles on two cells, so it changes the dual index of at most two patterns;
/// the others keep their excess, and a node looks up only what changed
/// (`DualPdbHeuristic::dual_known`).
#[derive(Debug, Clone, Copy)]
struct DualCache<const P: usize> {
    /// Each pattern's dual index when its bit of `stale` is clear (`UNKNOWN`: none yet).
    index: [u32; P],
    /// The table's excess at `index`.
    excess: [u8; P],
    /// Bit `j`: pattern `j`'s tiles moved since `index[j]` was ranked.
    stale: u16,
}

/// A dual index no table has: [`PdbHeuristic::new`] refuses tables of 2^32 entries or more.
const UNKNOWN: u32 = u32::MAX;

impl<const P: usize> DualCache<P> {
    const EMPTY: DualCache<P> = DualCache {
        index: [UNKNOWN; P],
        excess: [0; P],
        stale: u16::MAX,
    };

    /// Drops what is known of the patterns in `patterns` (their index ranked, their excess not
    /// looked up).
    #[inline]
    fn forget(&mut self, mut patterns: u16) {
        self.stale |= patterns;
        while patterns != 0 {
            let j = patterns.trailing_zeros() as usize;
            patterns &= patterns - 1;
            self.index[j] = UNKNOWN;
        }
    }

    /// Marks the pattern whose dual index the tile on a changed cell decides (`NONE`: none).
    #[inline]
    fn touch(&mut self, pattern: u8) {
        if pattern != NONE {
            self.stale |= 1 << pattern;
        }
    }
}

impl<const P: usize> PdbHeuristic<P> {
    /// The same heuristic with the dual lookup added (module docs): the maximum of the
    /// regular, reflected and dual values. Valid for every goal. Not with zero-aware tables,
    /// whose dual board's blank region is not the real one, nor with two partitions: the value
    /// is then unchanged.
    pub fn with_dual(self, goal: &Board) -> DualPdbHeuristic<P> {
        let valid = self.second.is_none() && self.patterns.iter().all(|p| p.layout.is_none());
        let dual = valid.then(|| {
            Dual::new(
                goal,
                &self.patterns,
                &goal.positions(),
                self.transpose.as_deref(),
            )
        });
        DualPdbHeuristic { base: self, dual }
    }
}

impl<const P: usize> DualPdbHeuristic<P> {
    /// True when the dual lookup is in use (plain tables of one partition).
    pub fn duals(&self) -> bool {
        self.dual.is_some()
    }

    /// Marks the dual indices a slide from cell `from` changes. The tiles on `from` and on
    /// the blank's cell before the move changed, and with them the dual indices that depend on
    /// those cells. The pattern of the blank's cell needs no mark: a pattern's dual lookup is
    /// valid only with the blank outside its cells, so it has not been ranked since the blank
    /// came in, and that move marked it.
    #[inline(always)]
    fn touch(&self, from: usize, aux: &mut DualAux<P>) {
        if let Some(dual) = &self.dual {
            aux.dual.touch(dual.cell_pattern[from]);
            aux.mirror_dual.touch(dual.mirror_cell_pattern[from]);
        }
    }

    /// The dual value (module docs) of `tiles` with the blank on `blank`, given the value
    /// `h` already known: the larger of `h` and Manhattan distance plus twice the excesses of
    /// the patterns whose dual lookup is valid there; with the reflection in use, also of the
    /// reflected board's dual (as far from the goal, with its blank on the reflected cell, so
    /// other patterns may be valid). Lazy: the excesses `aux` still holds come first, and the
    /// table lookups stop once the value exceeds `limit` (a partial sum is still a lower
    /// bound).
    fn dual_value(
        &self,
        dual: &Dual,
        tiles: &[Tile],
        blank: usize,
        h: u32,
        aux: &mut DualAux<P>,
        limit: u32,
    ) -> u32 {
        let manhattan = u32::from(aux.base.manhattan);
        let goal_cell = |c: u8| dual.goal_cell[tiles[usize::from(c)] as usize];
        let valid = dual.valid[blank];
        let (direct, direct_pending) =
            self.dual_known(&dual.cells, &mut aux.dual, valid, goal_cell);
        let (mirror, mirror_pending) = match &self.base.transpose {
            Some(tr) => {
                let valid = dual.valid[usize::from(tr[blank])];
                let reflected = |c: u8| tr[usize::from(goal_cell(c))];
                self.dual_known(&dual.mirror_cells, &mut aux.mirror_dual, valid, reflected)
            }
            None => (0, 0),
        };
        let mut best = h.max(manhattan + 2 * direct.max(mirror));
        if best > limit || direct_pending | mirror_pending == 0 {
            aux.dual.forget(direct_pending);
            aux.mirror_dual.forget(mirror_pending);
            return best;
        }
        let direct = direct + self.dual_lookups(&mut aux.dual, direct_pending);
        best = best.max(manhattan + 2 * direct);
        if best > limit {
            aux.mirror_dual.forget(mirror_pending);
            return best;
        }
        let mirror = mirror + self.dual_lookups(&mut aux.mirror_dual, mirror_pending);
        best.max(manhattan + 2 * mirror)
    }

    /// Brings the dual indices of the patterns in `valid` up to date (`position(c)`: where the
    /// dual board puts pattern cell `c`), and returns the sum of the excesses already known and
    /// the patterns whose index changed (their excess still to look up).
    #[inline]
    fn dual_known(
        &self,
        cells: &[Vec<u8>],
        cache: &mut DualCache<P>,
        valid: u16,
        position: impl Fn(u8) -> u8,
    ) -> (u32, u16) {
        let mut stale = valid & cache.stale;
        let mut pending = 0u16;
        while stale != 0 {
            let j = stale.trailing_zeros() as usize;
            stale &= stale - 1;
            let index = index::rank(
                cells[j].iter().map(|&c| usize::from(position(c))),
                self.base.n,
            ) as u32;
            if index != cache.index[j] {
                cache.index[j] = index;
                pending |= 1 << j;
            }
        }
        cache.stale &= !valid;
        let mut known = valid & !pending;
        let mut sum = 0;
        while known != 0 {
            let j = known.trailing_zeros() as usize;
            known &= known - 1;
            sum += u32::from(cache.excess[j]);
        }
        (sum, pending)
    }

    /// Looks up the excesses of the patterns in `pending` at their cached indices; their sum.
    #[inline]
    fn dual_lookups(&self, cache: &mut DualCache<P>, mut pending: u16) -> u32 {
        let mut sum = 0;
        while pending != 0 {
            let j = pending.trailing_zeros() as usize;
            pending &= pending - 1;
            let e = self.base.patterns[j].db.excess(u64::from(cache.index[j]));
            cache.excess[j] = e as u8;
            sum += e;
        }
        sum
    }
}

impl<const P: usize> Heuristic for DualPdbHeuristic<P> {
    fn estimate(&self, tiles: &[Tile]) -> u32 {
        let (h, mut aux) = self.init(tiles);
        match tiles.iter().position(|&t| t == BLANK) {
            Some(blank) => self.refine(tiles, blank, h, &mut aux, u32::MAX),
            None => h,
        }
    }
}

impl<const P: usize> Incremental for DualPdbHeuristic<P> {
    type Aux = DualAux<P>;
    type Pending = PdbPending;

    fn init(&self, tiles: &[Tile]) -> (u32, DualAux<P>) {
        let (h, base) = self.base.init(tiles);
        let aux = DualAux {
            base,
            dual: DualCache::EMPTY,
            mirror_dual: DualCache::EMPTY,
        };
        (h, aux)
    }

    #[inline]
    fn update(
        &self,
        tiles: &[Tile],
        tile: Tile,
        from: usize,
        to: usize,
        h: u32,
        aux: &mut DualAux<P>,
    ) -> u32 {
        self.touch(from, aux);
        self.base.update(tiles, tile, from, to, h, &mut aux.base)
    }

    #[inline]
    fn update_within(
        &self,
        tiles: &[Tile],
        tile: Tile,
        from: usize,
        to: usize,
        h: u32,
        aux: &mut DualAux<P>,
        limit: u32,
    ) -> u32 {
        self.touch(from, aux);
        self.base
            .update_within(tiles, tile, from, to, h, &mut aux.base, limit)
    }

    /// The dual lookups need not be consistent.
    fn consistent(&self) -> bool {
        self.dual.is_none() && self.base.consistent()
    }

    #[inline]
    fn prepare(
        &self,
        tiles: &[Tile],
        tile: Tile,
        from: usize,
        to: usize,
        aux: &DualAux<P>,
    ) -> PdbPending {
        self.base.prepare(tiles, tile, from, to, &aux.base)
    }

    #[inline]
    fn finish(
        &self,
        tiles: &[Tile],
        tile: Tile,
        from: usize,
        to: usize,
        h: u32,
        aux: &mut DualAux<P>,
        pending: &PdbPending,
    ) -> u32 {
        self.touch(from, aux);
        self.base
            .finish(tiles, tile, from, to, h, &mut aux.base, pending)
    }

    #[inline]
    fn refine(
        &self,
        tiles: &[Tile],
        blank: usize,
        h: u32,
        aux: &mut DualAux<P>,
        limit: u32,
    ) -> u32 {
        match &self.dual {
            Some(dual) if h <= limit => self.dual_value(dual, tiles, blank, h, aux, limit),
            _ => h,
        }
    }
}
