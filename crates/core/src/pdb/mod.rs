//! Additive disjoint pattern databases (Korf & Felner 2002) with the reflected lookup
//! (Felner, Korf & Hanan 2004).
//!
//! A *pattern* is a set of tiles, named by their goal cells. Its database holds, for every
//! placement of those tiles on the board, the fewest moves **of pattern tiles** needed to bring
//! them to their goal cells. The other tiles are indistinguishable, and the blank is part of the
//! abstract state, so a pattern tile can only move into the blank's cell: a table that ignored
//! the blank would let tiles jump into any empty cell and be far weaker. Because only pattern
//! moves are counted, the values of disjoint patterns add up to an admissible heuristic
//! (Korf & Felner 2002). Each entry is the minimum over the blank's positions, which keeps the
//! table small but makes the heuristic inconsistent at times (a move can lower it by more than
//! one); IDA* and taquin's A*, which reopens nodes, stay optimal with it.
//!
//! - [`build()`](fn@build) runs the breadth-first search (module [`build`](mod@build)) over the
//!   abstract space on all cores, two bits per state.
//! - [`PatternDb`] stores each value in 4 bits (8 when a value does not fit) as the *excess* over
//!   the pattern tiles' Manhattan distance: pattern cost and Manhattan distance have the same
//!   parity, so `value = manhattan + 2 * excess` and the excess is small.
//! - [`store`] writes and reads the cache files (magic, format version, board, goal cells,
//!   pattern, checksum); a damaged or foreign file is rejected, never trusted.
//! - [`cache`] finds the cache directory, keeps loaded databases for the process, and builds a
//!   missing one on first use, reporting progress through an observer.
//! - [`PdbHeuristic`] sums the databases of a partition, takes the maximum with the sum on the
//!   board reflected about the main diagonal, and updates incrementally for IDA*.

pub mod build;
pub mod cache;
pub mod heuristic;
pub mod index;
mod mirror;
mod regions;
pub mod store;
pub mod table;

use std::fmt;
use std::path::PathBuf;

use crate::board::Board;

pub use build::{build, BuildProgress};
pub use cache::{cache_dir, load_or_build, set_cache_dir, set_observer, PdbEvent};
pub use heuristic::PdbHeuristic;
pub use table::PatternDb;

/// Largest number of cells a pattern database supports (positions are kept in 64-bit masks).
pub const MAX_CELLS: usize = 64;

/// Why a pattern database could not be built, stored or loaded.
#[derive(Debug, thiserror::Error)]
pub enum PdbError {
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A file that is not a valid database for what was asked: damaged, truncated, of another
    /// format version, or built for another board, goal or pattern.
    #[error("{path}: {reason}; the file is not used (it is rebuilt on next use, or run `taquin pdb build --force`)")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// The pattern or partition does not fit the board, or the database would be too large.
    #[error("{0}")]
    Unsupported(String),
}

impl From<PdbError> for crate::solution::SolveError {
    fn from(e: PdbError) -> Self {
        crate::solution::SolveError::Unsupported(format!("pattern database: {e}"))
    }
}

/// What one database is built for: the board size, the blank's goal cell, and the goal cells of
/// the pattern tiles, in the order the index uses.
///
/// Tile numbers do not appear: a database serves every goal that puts the pattern's tiles on the
/// same cells and the blank on the same cell, whatever the tiles are called (relabelling).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PatternSpec {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// The blank's goal cell.
    pub blank_goal: usize,
    /// Goal cells of the pattern tiles, in index order.
    pub cells: Vec<usize>,
}

impl PatternSpec {
    /// Checks the spec: at least one tile, every cell on the board, no repeats, not the blank's.
    pub fn new(
        width: usize,
        height: usize,
        blank_goal: usize,
        cells: Vec<usize>,
    ) -> Result<PatternSpec, PdbError> {
        let n = width * height;
        if !(2..=u8::MAX as usize).contains(&width) || !(2..=u8::MAX as usize).contains(&height) {
            return Err(PdbError::Unsupported(format!(
                "a {width}x{height} board cannot have a pattern database"
            )));
        }
        if n > MAX_CELLS {
            return Err(PdbError::Unsupported(format!(
                "a {width}x{height} board has {n} cells; pattern databases support at most {MAX_CELLS}"
            )));
        }
        if cells.is_empty() || cells.len() >= n {
            return Err(PdbError::Unsupported(format!(
                "a pattern needs between 1 and {} tiles, got {}",
                n - 1,
                cells.len()
            )));
        }
        if blank_goal >= n {
            return Err(PdbError::Unsupported(format!(
                "blank goal cell {blank_goal} is off the {width}x{height} board"
            )));
        }
        let mut seen = 0u64;
        for &c in &cells {
            if c >= n || c == blank_goal || seen & (1 << c) != 0 {
                return Err(PdbError::Unsupported(format!(
                    "pattern cell {c} is off the board, repeated, or the blank's goal cell"
                )));
            }
            seen |= 1 << c;
        }
        Ok(PatternSpec {
            width,
            height,
            blank_goal,
            cells,
        })
    }

    /// Number of cells of the board.
    pub fn board_cells(&self) -> usize {
        self.width * self.height
    }

    /// Number of entries: placements of the pattern tiles, `N! / (N-k)!`.
    pub fn entries(&self) -> u64 {
        index::placements(self.board_cells(), self.cells.len())
    }

    /// The cache file name: board, blank goal cell and pattern cells, e.g.
    /// `4x4-b00-01020304050607.pdb`. Equal specs, and only they, share a name.
    pub fn file_name(&self) -> String {
        let cells: String = self.cells.iter().map(|c| format!("{c:02x}")).collect();
        format!(
            "{}x{}-b{:02x}-{cells}.pdb",
            self.width, self.height, self.blank_goal
        )
    }
}

impl fmt::Display for PatternSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cells: Vec<String> = self.cells.iter().map(|c| c.to_string()).collect();
        write!(
            f,
            "{}x{} cells {{{}}} (blank goal cell {})",
            self.width,
            self.height,
            cells.join(","),
            self.blank_goal
        )
    }
}

/// The ready-made partitions, by the name `pdb:NAME` the CLI and the web take.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PdbPreset {
    /// 8-puzzle: one database of all eight tiles, the exact distance.
    Complete8,
    /// 15-puzzle: three patterns of five tiles.
    P555,
    /// 15-puzzle: two patterns of six tiles and one of three.
    P663,
    /// 15-puzzle: seven and eight tiles (Korf & Felner 2002).
    P78,
    /// 24-puzzle: four patterns of six tiles (Korf & Felner 2002).
    P6666,
}

impl PdbPreset {
    /// Every preset, smallest board first.
    pub const ALL: [PdbPreset; 5] = [
        PdbPreset::Complete8,
        PdbPreset::P555,
        PdbPreset::P663,
        PdbPreset::P78,
        PdbPreset::P6666,
    ];

    /// The name after `pdb:`.
    pub fn name(self) -> &'static str {
        match self {
            PdbPreset::Complete8 => "8",
            PdbPreset::P555 => "5-5-5",
            PdbPreset::P663 => "6-6-3",
            PdbPreset::P78 => "7-8",
            PdbPreset::P6666 => "6-6-6-6",
        }
    }

    /// The preset with this [`name`](PdbPreset::name).
    pub fn from_name(name: &str) -> Option<PdbPreset> {
        PdbPreset::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The board (columns, rows) the preset is for.
    pub fn board_size(self) -> (usize, usize) {
        match self {
            PdbPreset::Complete8 => (3, 3),
            PdbPreset::P555 | PdbPreset::P663 | PdbPreset::P78 => (4, 4),
            PdbPreset::P6666 => (5, 5),
        }
    }

    /// The groups of goal cells for a goal whose blank is on cell 0 (Korf's goal orientation).
    ///
    /// The 15-puzzle groups are compact blocks, as in Felner, Korf & Hanan (2004): tiles that
    /// share rows and columns interact, and a pattern captures the interactions inside it.
    /// The 24-puzzle groups are Korf & Felner's (2002) 6-6-6-6 split.
    fn korf_groups(self) -> Vec<Vec<usize>> {
        match self {
            PdbPreset::Complete8 => vec![(1..9).collect()],
            // . 1 2 3 / 4 5 6 7 / 8 9 10 11 / 12 13 14 15
            PdbPreset::P555 => vec![
                vec![1, 2, 3, 6, 7],
                vec![4, 5, 8, 9, 12],
                vec![10, 11, 13, 14, 15],
            ],
            PdbPreset::P663 => vec![
                vec![1, 2, 3, 5, 6, 7],
                vec![9, 10, 11, 13, 14, 15],
                vec![4, 8, 12],
            ],
            PdbPreset::P78 => vec![(1..8).collect(), (8..16).collect()],
            PdbPreset::P6666 => vec![
                vec![1, 2, 5, 6, 7, 12],
                vec![3, 4, 8, 9, 13, 14],
                vec![10, 11, 15, 16, 20, 21],
                vec![17, 18, 19, 22, 23, 24],
            ],
        }
    }

    /// True when every database of this preset for `goal` is in memory or on disk, so that
    /// solving with it will not start a build ([`cache::available`]).
    pub fn is_available(self, goal: &Board) -> bool {
        self.partition(goal)
            .is_ok_and(|specs| specs.iter().all(cache::available))
    }

    /// The partition for `goal`: the preset's groups, turned by 180 degrees when the goal's blank
    /// is on the last cell (the usual `1 2 ... N-1 0` goal), and otherwise with the blank's cell
    /// swapped for cell 0. The databases then depend only on where the goal puts the pattern
    /// tiles and the blank, never on how the tiles are numbered.
    pub fn partition(self, goal: &Board) -> Result<Vec<PatternSpec>, PdbError> {
        let (w, h) = self.board_size();
        if goal.width() != w || goal.height() != h {
            return Err(PdbError::Unsupported(format!(
                "pdb:{} is for {w}x{h} boards, not {}x{}",
                self.name(),
                goal.width(),
                goal.height()
            )));
        }
        let n = w * h;
        let blank = goal.blank();
        let groups = self.korf_groups();
        let groups: Vec<Vec<usize>> = if blank == n - 1 {
            groups
                .into_iter()
                .map(|g| g.into_iter().map(|c| n - 1 - c).collect())
                .collect()
        } else {
            groups
                .into_iter()
                .map(|g| {
                    g.into_iter()
                        .map(|c| if c == blank { 0 } else { c })
                        .collect()
                })
                .collect()
        };
        groups
            .into_iter()
            .map(|cells| PatternSpec::new(w, h, blank, cells))
            .collect()
    }
}

impl fmt::Display for PdbPreset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "pdb:{}", self.name())
    }
}

/// A partition given as groups of tiles of `goal` (tile numbers, not cells), for custom
/// databases: `"1 2 3 4 5 6 7/8 9 10 11 12 13 14 15"`. Every group becomes one pattern; tiles in
/// no group are counted by their Manhattan distance.
pub fn partition_from_tiles(goal: &Board, text: &str) -> Result<Vec<PatternSpec>, PdbError> {
    let positions = goal.positions();
    let n = goal.len();
    let mut used = vec![false; n];
    let mut specs = Vec::new();
    for group in text.split('/').map(str::trim).filter(|g| !g.is_empty()) {
        let mut cells = Vec::new();
        for token in group
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|t| !t.is_empty())
        {
            let tile: usize = token.parse().map_err(|_| {
                PdbError::Unsupported(format!(
                    "'{token}' is not a tile number: write groups of tiles like \"1 2 3/4 5 6\""
                ))
            })?;
            if tile == 0 || tile >= n {
                return Err(PdbError::Unsupported(format!(
                    "tile {tile} is not a tile of a {}x{} board (1 to {})",
                    goal.width(),
                    goal.height(),
                    n - 1
                )));
            }
            if used[tile] {
                return Err(PdbError::Unsupported(format!(
                    "tile {tile} is in two groups: the patterns of an additive partition must be disjoint"
                )));
            }
            used[tile] = true;
            cells.push(positions[tile]);
        }
        specs.push(PatternSpec::new(
            goal.width(),
            goal.height(),
            goal.blank(),
            cells,
        )?);
    }
    if specs.is_empty() {
        return Err(PdbError::Unsupported(
            "the partition has no group: write groups of tiles like \"1 2 3/4 5 6\"".into(),
        ));
    }
    Ok(specs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_cover_every_tile_once() {
        for preset in PdbPreset::ALL {
            let (w, h) = preset.board_size();
            for goal in [
                Board::solved(w, h).unwrap(),
                Board::from_tiles(w, h, (0..(w * h) as u32).collect()).unwrap(),
            ] {
                let specs = preset.partition(&goal).unwrap();
                let mut cells: Vec<usize> = specs.iter().flat_map(|s| s.cells.clone()).collect();
                cells.push(goal.blank());
                cells.sort_unstable();
                assert_eq!(cells, (0..w * h).collect::<Vec<_>>(), "{preset}");
            }
        }
    }

    #[test]
    fn names_round_trip_and_files_differ() {
        for p in PdbPreset::ALL {
            assert_eq!(PdbPreset::from_name(p.name()), Some(p));
        }
        let goal = Board::solved(4, 4).unwrap();
        let a = PdbPreset::P78.partition(&goal).unwrap();
        assert_ne!(a[0].file_name(), a[1].file_name());
        assert_eq!(a[0].file_name(), "4x4-b0f-0e0d0c0b0a0908.pdb");
    }

    #[test]
    fn bad_specs_and_partitions_are_explained() {
        assert!(PatternSpec::new(3, 3, 0, vec![0, 1]).is_err());
        assert!(PatternSpec::new(3, 3, 0, vec![1, 1]).is_err());
        assert!(PatternSpec::new(3, 3, 0, vec![]).is_err());
        let goal = Board::solved(3, 3).unwrap();
        assert!(PdbPreset::P78.partition(&goal).is_err());
        assert!(partition_from_tiles(&goal, "1 2/2 3").is_err());
        assert!(partition_from_tiles(&goal, "1 x").is_err());
        let p = partition_from_tiles(&goal, "1 2 3/4 5").unwrap();
        assert_eq!(p[1].cells, vec![3, 4]);
    }
}
