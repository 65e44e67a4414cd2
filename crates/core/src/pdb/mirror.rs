//! Symmetric patterns: a board symmetry that maps a pattern's goal onto itself halves the
//! database build.
//!
//! Mirroring the board left to right, top to bottom, turning it half a turn, or (on a square
//! board) transposing it preserves adjacency and Manhattan distance. When such a map `s` takes
//! the goal cells of the pattern's tiles onto goal cells of the pattern, and the blank's goal
//! region onto itself, the abstract space is symmetric: the placement with tile `t` on cell `x`
//! has the same distance (and excess over Manhattan distance) as the one with tile `m(t)` on
//! `s(x)`, where `m(t)` is the tile whose goal is `s(goal of t)`. The build then searches only
//! one placement of each mirror pair, the one with the smaller index, and writes the value of
//! both. For the 15-puzzle's 8-tile pattern {8..15} with the blank's goal in the top left corner
//! (Korf's goal) the left-right mirror qualifies; it is the largest table of the 7-8 databases.

use super::regions::Geometry;
use super::PatternSpec;

/// A map of the board's cells: (row, column, height, width) to the image's (row, column).
type CellMap = fn(usize, usize, usize, usize) -> (usize, usize);

/// A symmetry of the board that maps a pattern's goal onto itself.
#[derive(Debug, Clone)]
pub(super) struct Mirror {
    /// `cell[x]`: the image of cell `x`.
    pub cell: [u8; super::MAX_CELLS],
    /// `tile[i]`: the pattern tile (by position in the pattern) whose goal is the image of tile
    /// `i`'s goal.
    pub tile: [u8; super::MAX_CELLS],
    /// The name of the symmetry, for messages and tests.
    pub name: &'static str,
}

impl Mirror {
    /// The first of the board's involutive symmetries that maps the goal of `spec` onto itself,
    /// if any.
    pub fn find(spec: &PatternSpec, geo: &Geometry) -> Option<Mirror> {
        let (w, h) = (spec.width, spec.height);
        let maps: [(&'static str, bool, CellMap); 5] = [
            ("left-right", true, |r, c, _, w| (r, w - 1 - c)),
            ("top-bottom", true, |r, c, h, _| (h - 1 - r, c)),
            ("half turn", true, |r, c, h, w| (h - 1 - r, w - 1 - c)),
            ("main diagonal", w == h, |r, c, _, _| (c, r)),
            ("anti-diagonal", w == h, |r, c, h, w| (w - 1 - c, h - 1 - r)),
        ];
        maps.iter()
            .filter(|(_, allowed, _)| *allowed)
            .find_map(|&(name, _, f)| {
                let mut cell = [0u8; super::MAX_CELLS];
                for (x, image) in cell.iter_mut().enumerate().take(w * h) {
                    let (r, c) = f(x / w, x % w, h, w);
                    *image = (r * w + c) as u8;
                }
                Mirror::check(spec, geo, cell, name)
            })
    }

    /// The mirror for the cell map `cell`, if it maps the goal of `spec` onto itself.
    fn check(
        spec: &PatternSpec,
        geo: &Geometry,
        cell: [u8; super::MAX_CELLS],
        name: &'static str,
    ) -> Option<Mirror> {
        let mut tile = [0u8; super::MAX_CELLS];
        for (i, &g) in spec.cells.iter().enumerate() {
            let image = usize::from(cell[g]);
            tile[i] = spec.cells.iter().position(|&h| h == image)? as u8;
        }
        let taken = spec.cells.iter().fold(0u64, |m, &c| m | 1 << c);
        let free = geo.full & !taken;
        let region = geo.flood(1 << spec.blank_goal, free);
        let mut image = 0u64;
        let mut m = region;
        while m != 0 {
            image |= 1 << cell[m.trailing_zeros() as usize];
            m &= m - 1;
        }
        (image == region).then_some(Mirror { cell, tile, name })
    }

    /// The image of the placement whose tile `i` stands on `cells[i]`: its index (ranked as
    /// [`super::index::rank`] does) and its taken cells; its tiles are written to `slot` by
    /// cell (other cells are left as they are).
    #[inline]
    pub fn image(
        &self,
        cells: &[usize],
        n: usize,
        slot: &mut [u8; super::MAX_CELLS],
    ) -> (u64, u64) {
        let mut image = [0usize; super::MAX_CELLS];
        let mut taken = 0u64;
        for (i, &c) in cells.iter().enumerate() {
            let x = self.cell[c];
            let t = self.tile[i];
            image[usize::from(t)] = usize::from(x);
            slot[usize::from(x)] = t;
            taken |= 1 << x;
        }
        let mut index = 0u64;
        let mut prefix = 0u64;
        for (i, &c) in image[..cells.len()].iter().enumerate() {
            let below = (prefix & ((1u64 << c) - 1)).count_ones() as usize;
            index = index * (n - i) as u64 + (c - below) as u64;
            prefix |= 1 << c;
        }
        (index, taken)
    }
}

#[cfg(test)]
mod tests {
    use super::super::index;
    use super::*;

    #[test]
    fn korf_eight_tile_pattern_is_left_right_symmetric() {
        let spec = PatternSpec::new(4, 4, 0, (8..16).collect()).unwrap();
        let geo = Geometry::new(4, 4);
        let m = Mirror::find(&spec, &geo).expect("symmetric");
        assert_eq!(m.name, "left-right");
        // Tile 8 (goal cell 8) mirrors to tile 11 (goal cell 11), position 3 in the pattern.
        assert_eq!(m.tile[0], 3);
        // The 7-tile pattern of the same goal is not symmetric: cell 0 is free, cell 3 is not.
        let seven = PatternSpec::new(4, 4, 0, (1..8).collect()).unwrap();
        assert!(Mirror::find(&seven, &geo).is_none());
        // Standard goal, complete 8-puzzle: the transposition fixes the blank's corner.
        let eight = PatternSpec::new(3, 3, 8, (0..8).collect()).unwrap();
        let m = Mirror::find(&eight, &Geometry::new(3, 3)).expect("symmetric");
        assert_eq!(m.name, "main diagonal");
    }

    #[test]
    fn the_eight_tile_pattern_of_the_seven_eight_preset_is_symmetric_for_both_goals() {
        use crate::board::Board;
        let preset = super::super::PdbPreset::from_name("7-8").unwrap();
        let korf: Board = "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15".parse().unwrap();
        for goal in [korf, Board::solved(4, 4).unwrap()] {
            let specs = preset.partition(&goal).unwrap();
            let geo = Geometry::new(4, 4);
            let symmetric: Vec<bool> = specs
                .iter()
                .map(|s| Mirror::find(s, &geo).is_some())
                .collect();
            assert_eq!(symmetric, [false, true], "{goal}");
        }
    }

    #[test]
    fn image_is_the_mirrored_placement() {
        let spec = PatternSpec::new(4, 4, 0, (8..16).collect()).unwrap();
        let m = Mirror::find(&spec, &Geometry::new(4, 4)).unwrap();
        let mut cells = [0usize; 8];
        for idx in (0..index::placements(16, 8)).step_by(9973) {
            index::unrank(idx, 16, &mut cells);
            let mut slot = [u8::MAX; super::super::MAX_CELLS];
            let (image, taken) = m.image(&cells, 16, &mut slot);
            let mut want = [0usize; 8];
            for (i, &c) in cells.iter().enumerate() {
                want[usize::from(m.tile[i])] = usize::from(m.cell[c]);
            }
            assert_eq!(image, index::rank(want.iter().copied(), 16));
            assert_eq!(taken, want.iter().fold(0, |t, &c| t | 1 << c));
            for (j, &c) in want.iter().enumerate() {
                assert_eq!(usize::from(slot[c]), j);
            }
            // An involution: the image of the image is the placement.
            let mut back = [0usize; 8];
            for (j, &c) in want.iter().enumerate() {
                back[usize::from(m.tile[j])] = usize::from(m.cell[c]);
            }
            assert_eq!(back, cells);
        }
    }
}
