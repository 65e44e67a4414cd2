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
//!   pattern, checksum); a damaged or foreign file is rejected, never trusted. The checksum is
//!   computed in full once per file and recorded next to it, so later processes open even the
//!   288 MB of the 7-8 in milliseconds.
//! - [`cache`] finds the default directory and keeps the databases a [`crate::Tables`] handle
//!   has mapped or built, building a missing one on first use and reporting progress through
//!   the handle's observer.
//! - [`PdbHeuristic`] sums the databases of a partition, takes the maximum with the sum on the
//!   board reflected about the main diagonal, and updates incrementally for IDA*.
//! - Zero-aware tables ([`PatternSpec::zero_aware`], `zpdb:` presets; Clausecker & Reinefeld
//!   2019) keep a value for each region of the blank, one bit an entry, in the layout of module
//!   `layout` (set of cells, order of the tiles, region), which the build also searches in.

pub mod build;
pub mod cache;
pub mod heuristic;
pub mod index;
mod layout;
mod perm;
mod regions;
pub mod store;
mod subsets;
pub mod table;

use std::fmt;
use std::path::PathBuf;

use crate::board::{size_with_article, Board};

pub use build::{build, BuildProgress};
pub use cache::{default_dir, BuildPolicy, PdbEvent};
pub use heuristic::{
    DualPdbHeuristic, PdbHeuristic, MAX_PATTERNS, NARROW_PATTERNS, SMALL_PATTERNS,
};
#[cfg(test)]
pub(crate) use layout::BUILT_ON_THIS_THREAD;
pub use table::PatternDb;

/// Evaluates `$body` with `$h` bound to the pattern-database heuristic of `$preset` for `$goal`
/// (`Tables::pdb_heuristic_sized`, the `?` applied), sized for [`SMALL_PATTERNS`] or
/// [`NARROW_PATTERNS`] patterns when the preset has that few (the smaller search state, which
/// a search copies at every node) and for [`MAX_PATTERNS`] otherwise. The one place that makes
/// this choice: each branch is compiled for its own size.
macro_rules! with_pdb_heuristic {
    ($tables:expr, $preset:expr, $goal:expr, $policy:expr, $limits:expr, |$h:ident| $body:expr) => {
        if $preset.fits($crate::pdb::SMALL_PATTERNS) {
            let $h = $tables.pdb_heuristic_sized::<{ $crate::pdb::SMALL_PATTERNS }>(
                $preset, $goal, $policy, $limits,
            )?;
            $body
        } else if $preset.fits($crate::pdb::NARROW_PATTERNS) {
            let $h = $tables.pdb_heuristic_sized::<{ $crate::pdb::NARROW_PATTERNS }>(
                $preset, $goal, $policy, $limits,
            )?;
            $body
        } else {
            let $h = $tables.pdb_heuristic_sized::<{ $crate::pdb::MAX_PATTERNS }>(
                $preset, $goal, $policy, $limits,
            )?;
            $body
        }
    };
}
pub(crate) use with_pdb_heuristic;

/// Largest number of cells a pattern database supports (positions are kept in 64-bit masks).
pub const MAX_CELLS: usize = 64;

/// Why a pattern database could not be built, stored or loaded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
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
    #[error("{path}: {reason}; the file is not used (a table of a minute or less is rebuilt on its next use, a file of the large sets only on request: run the `taquin pdb build` command that made it again, which builds only the files missing or damaged, e.g. `taquin pdb build --size WxH` for the set the planner prefers on a WxH board, with `--metric mtm` for a multi-tile table)")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// A file the caller may not rebuild by itself ([`BuildPolicy::Never`]: a large set the
    /// planner found on disk) is not a valid database; `rebuild` is the command that makes it
    /// anew.
    #[error("{path}: {reason}; the file is not used, and a set this large is not rebuilt unasked: rebuild it with `{rebuild}`")]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
        /// The command that builds it anew.
        rebuild: String,
    },
    /// The pattern or partition does not fit the board, or the database would be too large.
    #[error("{0}")]
    Unsupported(String),
    /// A limit of the caller (deadline, cancel flag, memory budget) stopped a build, or refused
    /// it before it started. Nothing is kept: the next caller builds again, within its own limits.
    #[error("{hit}: {what}")]
    Stopped {
        /// Which limit.
        hit: crate::limits::LimitHit,
        /// What was being built, and for a memory limit how much it needs.
        what: String,
    },
}

impl From<PdbError> for crate::solution::SolveError {
    fn from(e: PdbError) -> Self {
        match e {
            // A limit stays a limit (the API's 422 with its `limit` field, the CLI's exit 1),
            // whether a search or the build of its table hit it. No search ran: nothing proven.
            PdbError::Stopped { hit, .. } => crate::solution::SolveError::Limit {
                hit,
                stats: crate::solution::Stats::default(),
                bound: 0,
            },
            e => crate::solution::SolveError::Unsupported(format!("pattern database: {e}")),
        }
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
    /// A zero-aware table (Clausecker & Reinefeld 2019): one value for each region the blank
    /// can be in, rather than the smallest of them (see [`PatternDb`]).
    pub zero_aware: bool,
}

impl PatternSpec {
    /// The command that builds this database anew with the set the planner prefers for its
    /// board (only its files that are missing or damaged: the others are checked and kept, so
    /// no `--force`, which would rebuild them all): that set's files are named by the goal's
    /// blank cell, which `--size` (the usual
    /// goal, mapped by a symmetry onto the tables' goal, see [`crate::symmetry`]) reaches for
    /// the corner cells; another blank cell needs that goal.
    pub fn rebuild_command(&self) -> String {
        format!(
            "taquin pdb build --size {}x{}{}",
            self.width,
            self.height,
            self.goal_flag()
        )
    }

    /// The `--goal` a `taquin pdb build` of this table needs: none where the goal's blank is in
    /// a corner (every such goal shares the standard goal's tables, `crate::symmetry`), else a
    /// placeholder for the user's goal.
    pub fn goal_flag(&self) -> &'static str {
        let (w, h) = (self.width, self.height);
        if [0, w - 1, w * (h - 1), w * h - 1].contains(&self.blank_goal) {
            ""
        } else {
            " --goal YOUR-GOAL"
        }
    }

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
                "{} board cannot have a pattern database",
                size_with_article(width, height)
            )));
        }
        if n > MAX_CELLS {
            return Err(PdbError::Unsupported(format!(
                "{} board has {n} cells; pattern databases support at most {MAX_CELLS}",
                size_with_article(width, height)
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
            zero_aware: false,
        })
    }

    /// The same pattern with a zero-aware table.
    pub fn zero_aware(mut self) -> PatternSpec {
        self.zero_aware = true;
        self
    }

    /// Number of cells of the board.
    pub fn board_cells(&self) -> usize {
        self.width * self.height
    }

    /// Number of placements of the pattern tiles, `N! / (N-k)!`: the entries of a table that is
    /// not zero-aware (a zero-aware one has more: [`PatternDb::entries`]).
    pub fn entries(&self) -> u64 {
        index::placements(self.board_cells(), self.cells.len())
    }

    /// The cache file name: board, blank goal cell and pattern cells, and `-z` for a zero-aware
    /// table, e.g. `4x4-b00-01020304050607.pdb`. Equal specs, and only they, share a name.
    pub fn file_name(&self) -> String {
        let cells: String = self.cells.iter().map(|c| format!("{c:02x}")).collect();
        let kind = if self.zero_aware { "-z" } else { "" };
        format!(
            "{}x{}-b{:02x}-{cells}{kind}.pdb",
            self.width, self.height, self.blank_goal
        )
    }
}

impl fmt::Display for PatternSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cells: Vec<String> = self.cells.iter().map(|c| c.to_string()).collect();
        write!(
            f,
            "{}x{} cells {{{}}} (blank goal cell {}{})",
            self.width,
            self.height,
            cells.join(","),
            self.blank_goal,
            if self.zero_aware { ", zero-aware" } else { "" }
        )
    }
}

/// A partition of a board's tiles into patterns, named by its group sizes: `pdb:7-8`,
/// `pdb:6-6-3`, `pdb:5-4-4` (the name the CLI and the web take after `pdb:`).
///
/// The sizes must add up to the board's tile count. Where the literature has a tried partition
/// for those sizes, it is used: the 15-puzzle's 5-5-5, 6-6-3 and 7-8 compact blocks (Felner,
/// Korf & Hanan 2004; Korf & Felner 2002), the 24-puzzle's 6-6-6-6 (Korf & Felner 2002) and the
/// complete 8-puzzle table. Any other board or sizes get compact blocks cut along the board's
/// longer side ([`PdbPreset::partition`]), so every m x n board of up to [`MAX_CELLS`] cells has
/// partitions, and the planner picks sizes whose tables build in a fraction of a second.
///
/// A preset is *zero-aware* (`zpdb:7-8`) when its tables keep a value for each region of the
/// blank (see [`PatternDb`]): more nodes cut for the same patterns, a quarter of the memory per
/// entry (one bit), and tables about 2.75 (4x4) or 1.4 (5x5) times as many entries.
///
/// Two partitions can be combined (`zpdb:6-6-6-6+7-7-7-3`): the heuristic is then the larger of
/// their values, each read on the board and its reflection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PdbPreset {
    sizes: [u8; heuristic::MAX_PATTERNS],
    groups: u8,
    /// Groups of the first partition when two are combined; 0 for a single partition.
    split: u8,
    zero_aware: bool,
}

impl PdbPreset {
    /// 8-puzzle: one database of all eight tiles, the exact distance.
    pub const COMPLETE8: PdbPreset = PdbPreset::of(&[8]);
    /// 15-puzzle: three patterns of five tiles.
    pub const P555: PdbPreset = PdbPreset::of(&[5, 5, 5]);
    /// 15-puzzle: two patterns of six tiles and one of three.
    pub const P663: PdbPreset = PdbPreset::of(&[6, 6, 3]);
    /// 15-puzzle: seven and eight tiles (Korf & Felner 2002).
    pub const P78: PdbPreset = PdbPreset::of(&[7, 8]);
    /// 24-puzzle: four patterns of six tiles (Korf & Felner 2002).
    pub const P6666: PdbPreset = PdbPreset::of(&[6, 6, 6, 6]);
    /// 15-puzzle: the 7-8 with zero-aware tables, the planner's choice for 4x4.
    pub const ZP78: PdbPreset = PdbPreset::P78.zero_aware();
    /// 24-puzzle: the 6-6-6-6 with zero-aware tables, the planner's choice for 5x5.
    pub const ZP6666: PdbPreset = PdbPreset::P6666.zero_aware();
    /// 24-puzzle: three patterns of seven tiles and one of three, a partition to combine with
    /// the 6-6-6-6 (`zpdb:6-6-6-6+7-7-7-3`).
    pub const P7773: PdbPreset = PdbPreset::of(&[7, 7, 7, 3]);
    /// 24-puzzle: the zero-aware 6-6-6-6 and 7-7-7-3 together, the larger of their values
    /// (`zpdb:6-6-6-6+7-7-7-3`), the planner's choice for 5x5 when on disk (1.6 GB).
    pub const ZP6666_7773: PdbPreset = PdbPreset::ZP6666.combined(PdbPreset::P7773);
    /// 35-puzzle (6x6): 2 x 3 blocks, zero-aware, the planner's choice for 6x6 when on disk
    /// (1.1 GB; a 6-tile table of 36 cells has 1.4 billion states, a bit each).
    pub const ZP6X6: PdbPreset = PdbPreset::of(&[5, 6, 6, 6, 6, 6]).zero_aware();

    /// The partitions of the literature, smallest board first (the ones `taquin pdb build`
    /// lists by name), then the zero-aware ones the planner prefers.
    pub const ALL: [PdbPreset; 7] = [
        PdbPreset::COMPLETE8,
        PdbPreset::P555,
        PdbPreset::P663,
        PdbPreset::P78,
        PdbPreset::P6666,
        PdbPreset::ZP78,
        PdbPreset::ZP6666,
    ];

    /// The partition with these group sizes (at most [`heuristic::MAX_PATTERNS`] groups, each
    /// of 1 to 255 tiles; checked against a board by [`PdbPreset::partition`]).
    ///
    /// # Panics
    /// When `sizes` is empty or has more than [`heuristic::MAX_PATTERNS`] groups, or a size is
    /// 0: the constants above are the intended use; names go through [`PdbPreset::from_name`].
    pub const fn of(sizes: &[u8]) -> PdbPreset {
        assert!(!sizes.is_empty() && sizes.len() <= heuristic::MAX_PATTERNS);
        let mut s = [0u8; heuristic::MAX_PATTERNS];
        let mut i = 0;
        while i < sizes.len() {
            assert!(sizes[i] > 0);
            s[i] = sizes[i];
            i += 1;
        }
        PdbPreset {
            sizes: s,
            groups: sizes.len() as u8,
            split: 0,
            zero_aware: false,
        }
    }

    /// This partition and `other` combined (see the type's docs), if they have at most
    /// [`heuristic::MAX_PATTERNS`] groups together; zero-aware if either is.
    pub fn plus(self, other: PdbPreset) -> Option<PdbPreset> {
        let groups = usize::from(self.groups) + usize::from(other.groups);
        (self.split == 0 && other.split == 0 && groups <= heuristic::MAX_PATTERNS)
            .then(|| self.combined(other))
    }

    /// [`PdbPreset::plus`] for constants.
    ///
    /// # Panics
    /// When either is a combination already, or they have more than
    /// [`heuristic::MAX_PATTERNS`] groups together.
    pub const fn combined(self, other: PdbPreset) -> PdbPreset {
        assert!(self.split == 0 && other.split == 0);
        let groups = self.groups as usize + other.groups as usize;
        assert!(groups <= heuristic::MAX_PATTERNS);
        let mut sizes = self.sizes;
        let mut i = 0;
        while i < other.groups as usize {
            sizes[self.groups as usize + i] = other.sizes[i];
            i += 1;
        }
        PdbPreset {
            sizes,
            groups: groups as u8,
            split: self.groups,
            zero_aware: self.zero_aware || other.zero_aware,
        }
    }

    /// The partitions this preset combines (itself alone when it is one partition).
    pub fn parts(&self) -> Vec<PdbPreset> {
        let with = |p: PdbPreset| PdbPreset {
            zero_aware: self.zero_aware,
            ..p
        };
        match self.split {
            0 => vec![*self],
            split => {
                let (a, b) = self.sizes().split_at(usize::from(split));
                vec![with(PdbPreset::of(a)), with(PdbPreset::of(b))]
            }
        }
    }

    /// The same partition with zero-aware tables.
    pub const fn zero_aware(self) -> PdbPreset {
        PdbPreset {
            zero_aware: true,
            ..self
        }
    }

    /// True when the tables are zero-aware.
    pub fn is_zero_aware(&self) -> bool {
        self.zero_aware
    }

    /// The heuristic's name: `pdb:7-8`, or `zpdb:7-8` for zero-aware tables.
    pub fn label(&self) -> String {
        let kind = if self.zero_aware { "zpdb" } else { "pdb" };
        format!("{kind}:{}", self.name())
    }

    /// A partition named as the command line and the API take it: group sizes (`7-8`), with an
    /// optional `pdb:` prefix, or `zpdb:` for zero-aware tables.
    pub fn parse(text: &str) -> Option<PdbPreset> {
        match text.strip_prefix("zpdb:") {
            Some(sizes) => PdbPreset::from_name(sizes).map(PdbPreset::zero_aware),
            None => PdbPreset::from_name(text.strip_prefix("pdb:").unwrap_or(text)),
        }
    }

    /// The group sizes, in order.
    pub fn sizes(&self) -> &[u8] {
        &self.sizes[..self.groups as usize]
    }

    /// True when the heuristic of this set fits a [`PdbHeuristic`] of at most `patterns`
    /// patterns ([`SMALL_PATTERNS`], [`NARROW_PATTERNS`], [`MAX_PATTERNS`]: the fewer, the
    /// smaller the search state).
    pub fn fits(&self, patterns: usize) -> bool {
        self.sizes().len() <= patterns
    }

    /// Tiles covered by the groups of one partition (of the first, when two are combined).
    pub fn tiles(&self) -> usize {
        self.parts()[0]
            .sizes()
            .iter()
            .map(|&s| usize::from(s))
            .sum()
    }

    /// The name after `pdb:` (or `zpdb:`), the sizes joined by `-` (`"7-8"`), two combined
    /// partitions by `+`.
    pub fn name(&self) -> String {
        let names: Vec<String> = self
            .parts()
            .iter()
            .map(|p| {
                let sizes: Vec<String> = p.sizes().iter().map(|s| s.to_string()).collect();
                sizes.join("-")
            })
            .collect();
        names.join("+")
    }

    /// The partition named `name` (`"7-8"`, `"5-5-5"`, `"6-6-6-6+7-7-7-3"`, ...), if it is well
    /// formed: 1 to [`heuristic::MAX_PATTERNS`] sizes of 1 to 63 tiles, joined by `-`, and at
    /// most two such partitions joined by `+`.
    pub fn from_name(name: &str) -> Option<PdbPreset> {
        if let Some((a, b)) = name.split_once('+') {
            return PdbPreset::from_name(a)?.plus(PdbPreset::from_name(b)?);
        }
        let sizes: Vec<u8> = name
            .split('-')
            .map(|s| {
                s.parse::<u8>()
                    .ok()
                    .filter(|&v| (1..MAX_CELLS as u8).contains(&v))
            })
            .collect::<Option<_>>()?;
        (!sizes.is_empty() && sizes.len() <= heuristic::MAX_PATTERNS).then(|| PdbPreset::of(&sizes))
    }

    /// The quick partition for a `width` x `height` board: the largest even groups whose
    /// tables each have at most `max_entries` entries, the remainder in a last group (5-5-5 on
    /// the 15-puzzle for a million entries, 6-6-3 for six million). None when the board has
    /// more than [`MAX_CELLS`] cells or needs more than [`heuristic::MAX_PATTERNS`] groups.
    pub fn sized_for(width: usize, height: usize, max_entries: u64) -> Option<PdbPreset> {
        let n = width.checked_mul(height)?;
        if !(4..=MAX_CELLS).contains(&n) || width < 2 || height < 2 {
            return None;
        }
        let tiles = n - 1;
        let k = (1..=tiles)
            .take_while(|&k| index::placements(n, k) <= max_entries)
            .last()?;
        let mut sizes = vec![k as u8; tiles / k];
        if tiles % k > 0 {
            sizes.push((tiles % k) as u8);
        }
        (sizes.len() <= heuristic::MAX_PATTERNS).then(|| PdbPreset::of(&sizes))
    }

    /// The tried groups of the literature for this board and these sizes, as goal cells for
    /// a goal whose blank is on cell 0 (Korf's goal orientation), if there are any.
    ///
    /// The 15-puzzle's 5-5-5 and 6-6-3 groups were chosen by measurement: nodes generated by
    /// the default IDA* (regular and reflected lookups) over Korf's 100 instances, one
    /// partition after another. What matters most with these blank-aware tables is that one
    /// group holds both of the blank's goal neighbours (cells 1 and 4): the blank ends every
    /// solution between them, and only a pattern holding both counts the moves that bring it
    /// there. The 6-6-3 below generates 290,352 nodes per instance against 838,916 for the
    /// compact 2x3 blocks of Felner, Korf & Hanan (2004), the 5-5-5 650,590 against 2,477,470.
    /// The 7-8 (the top two rows and the bottom two, cells 1 and 4 together) and the 24-puzzle's
    /// 6-6-6-6 are Korf & Felner's (2002).
    fn korf_groups(&self, width: usize, height: usize) -> Option<Vec<Vec<usize>>> {
        Some(match (width, height, PdbPreset::of(self.sizes())) {
            (3, 3, PdbPreset::COMPLETE8) => vec![(1..9).collect()],
            // . 1 2 3 / 4 5 6 7 / 8 9 10 11 / 12 13 14 15
            (4, 4, PdbPreset::P555) => vec![
                vec![1, 4, 5, 8, 12],
                vec![2, 3, 6, 7, 11],
                vec![9, 10, 13, 14, 15],
            ],
            (4, 4, PdbPreset::P663) => vec![
                vec![1, 4, 5, 8, 9, 12],
                vec![2, 3, 6, 7, 10, 11],
                vec![13, 14, 15],
            ],
            (4, 4, PdbPreset::P78) => vec![(1..8).collect(), (8..16).collect()],
            (5, 5, PdbPreset::P6666) => vec![
                vec![1, 2, 5, 6, 7, 12],
                vec![3, 4, 8, 9, 13, 14],
                vec![10, 11, 15, 16, 20, 21],
                vec![17, 18, 19, 22, 23, 24],
            ],
            // Blocks around the 6-6-6-6's, as one more partition beside it: measured with
            // it, 2.1, 4.9 and 1.2 times fewer nodes on Korf & Felner's instances 25, 38, 40.
            (5, 5, PdbPreset::P7773) => vec![
                vec![1, 2, 5, 6, 7, 10, 11],
                vec![3, 4, 8, 9, 12, 13, 14],
                vec![15, 16, 17, 20, 21, 22, 23],
                vec![18, 19, 24],
            ],
            // 2 x 3 blocks, the one at the blank's corner holding both of its goal neighbours
            // (its reflection reads them as 3 x 2 blocks).
            (6, 6, p) if p == PdbPreset::of(&[5, 6, 6, 6, 6, 6]) => vec![
                vec![1, 2, 6, 7, 8],
                vec![3, 4, 5, 9, 10, 11],
                vec![12, 13, 14, 18, 19, 20],
                vec![15, 16, 17, 21, 22, 23],
                vec![24, 25, 26, 30, 31, 32],
                vec![27, 28, 29, 33, 34, 35],
            ],
            _ => return None,
        })
    }

    /// Compact blocks for any board, as goal cells for a goal whose blank is on cell 0: the
    /// other cells taken column by column on a board at least as wide as high (row by row
    /// otherwise), so that each group is a block of whole short lines, and cut into groups of
    /// the preset's sizes.
    fn block_groups(&self, width: usize, height: usize) -> Vec<Vec<usize>> {
        let order: Vec<usize> = if width >= height {
            (0..width)
                .flat_map(|x| (0..height).map(move |y| y * width + x))
                .collect()
        } else {
            (0..width * height).collect()
        };
        let mut cells = order.into_iter().filter(|&c| c != 0);
        self.sizes()
            .iter()
            .map(|&k| cells.by_ref().take(usize::from(k)).collect())
            .collect()
    }

    /// True when every database of this partition for `goal` has a file in `tables` (or is in
    /// memory), so that solving with it costs at most a load, never a build.
    pub fn is_available(&self, goal: &Board, tables: &crate::tables::Tables) -> bool {
        self.partition(goal)
            .is_ok_and(|specs| specs.iter().all(|s| tables.has_database(s)))
    }

    /// The patterns of this partition for `goal`: the groups for a goal with the blank on
    /// cell 0, turned by 180 degrees when the goal's blank is on the last cell (the usual
    /// `1 2 ... N-1 0` goal), and otherwise with the blank's cell swapped for cell 0. The
    /// databases then depend only on where the goal puts the pattern tiles and the blank,
    /// never on how the tiles are numbered.
    pub fn partition(&self, goal: &Board) -> Result<Vec<PatternSpec>, PdbError> {
        if self.split != 0 {
            let mut specs = Vec::new();
            for part in self.parts() {
                specs.extend(part.partition(goal)?);
            }
            return Ok(specs);
        }
        let (w, h) = (goal.width(), goal.height());
        let n = w * h;
        if self.tiles() != n - 1 {
            return Err(PdbError::Unsupported(format!(
                "{} has {} tiles in its groups, but {} board has {}: give group sizes \
                 that add up to {} (e.g. {})",
                self.label(),
                self.tiles(),
                size_with_article(w, h),
                n - 1,
                n - 1,
                PdbPreset::sized_for(w, h, 1 << 20).map_or_else(
                    || "pdb:7-8".into(),
                    |p| PdbPreset {
                        zero_aware: self.zero_aware,
                        ..p
                    }
                    .label()
                )
            )));
        }
        let blank = goal.blank();
        let groups = self
            .korf_groups(w, h)
            .unwrap_or_else(|| self.block_groups(w, h));
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
            .map(|cells| {
                let spec = PatternSpec::new(w, h, blank, cells)?;
                Ok(if self.zero_aware {
                    spec.zero_aware()
                } else {
                    spec
                })
            })
            .collect()
    }

    /// The estimated time in seconds to build the tables of this preset for `goal` on
    /// `threads` cores ([`build::estimate_seconds`] of each); infinite when the preset does not
    /// fit the board.
    pub fn build_seconds(&self, goal: &Board, threads: usize) -> f64 {
        self.partition(goal).map_or(f64::INFINITY, |specs| {
            specs
                .iter()
                .map(|s| build::estimate_seconds(s, threads))
                .sum()
        })
    }

    /// Entries of the largest table of this partition on a board of `cells` cells.
    pub fn largest_table(&self, cells: usize) -> u64 {
        self.sizes()
            .iter()
            .map(|&k| index::placements(cells, usize::from(k)))
            .max()
            .unwrap_or(0)
    }
}

impl fmt::Display for PdbPreset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label())
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
                    "tile {tile} is not a tile of {} board (1 to {})",
                    size_with_article(goal.width(), goal.height()),
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
        for (preset, (w, h)) in PdbPreset::ALL
            .into_iter()
            .zip([(3, 3), (4, 4), (4, 4), (4, 4), (5, 5)])
            .chain([
                (PdbPreset::of(&[6, 5]), (4, 3)),
                (PdbPreset::of(&[5, 5, 4]), (5, 3)),
                (PdbPreset::of(&[7]), (2, 4)),
            ])
        {
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
            assert_eq!(PdbPreset::parse(&p.label()), Some(p));
            assert_eq!(PdbPreset::parse(&p.to_string()), Some(p));
        }
        assert_eq!(PdbPreset::from_name("6-6-3"), Some(PdbPreset::P663));
        assert_eq!(PdbPreset::parse("7-8"), Some(PdbPreset::P78));
        assert_eq!(PdbPreset::parse("zpdb:7-8"), Some(PdbPreset::ZP78));
        assert_eq!(PdbPreset::ZP78.label(), "zpdb:7-8");
        let both = PdbPreset::parse("zpdb:6-6-6-6+7-7-7-3").unwrap();
        assert_eq!(both.label(), "zpdb:6-6-6-6+7-7-7-3");
        assert_eq!(
            both.parts(),
            [PdbPreset::ZP6666, PdbPreset::P7773.zero_aware()]
        );
        assert_eq!(both.tiles(), 24);
        let korf = Board::from_tiles(5, 5, (0..25).collect()).unwrap();
        let specs = both.partition(&korf).unwrap();
        assert_eq!(specs.len(), 8);
        assert!(specs.iter().all(|s| s.zero_aware));
        assert_eq!(specs[4].cells, vec![1, 2, 5, 6, 7, 10, 11]);
        // At most sixteen groups (MAX_PATTERNS), in one partition or two.
        let many = |groups: usize| vec!["1"; groups].join("-");
        assert!(PdbPreset::from_name(&many(16)).is_some());
        let (seventeen, nine_and_eight) = (many(17), format!("{}+{}", many(9), many(8)));
        for bad in ["7-8+", "+7-8", "7-8+7-8+7-8", &nine_and_eight] {
            assert_eq!(PdbPreset::from_name(bad), None, "{bad}");
        }
        for bad in ["", "7-", "0-15", "x", &seventeen, "300"] {
            assert_eq!(PdbPreset::from_name(bad), None, "{bad}");
        }
        let goal = Board::solved(4, 4).unwrap();
        let a = PdbPreset::P78.partition(&goal).unwrap();
        assert_ne!(a[0].file_name(), a[1].file_name());
        assert_eq!(a[0].file_name(), "4x4-b0f-0e0d0c0b0a0908.pdb");
        let z = PdbPreset::ZP78.partition(&goal).unwrap();
        assert_eq!(z[0].file_name(), "4x4-b0f-0e0d0c0b0a0908-z.pdb");
        assert!(z.iter().all(|s| s.zero_aware));
    }

    #[test]
    fn bad_specs_and_partitions_are_explained() {
        assert!(PatternSpec::new(3, 3, 0, vec![0, 1]).is_err());
        assert!(PatternSpec::new(3, 3, 0, vec![1, 1]).is_err());
        assert!(PatternSpec::new(3, 3, 0, vec![]).is_err());
        let goal = Board::solved(3, 3).unwrap();
        assert!(PdbPreset::P78.partition(&goal).is_err());
        assert!(PdbPreset::of(&[4, 3]).partition(&goal).is_err());
        assert!(partition_from_tiles(&goal, "1 2/2 3").is_err());
        assert!(partition_from_tiles(&goal, "1 x").is_err());
        let p = partition_from_tiles(&goal, "1 2 3/4 5").unwrap();
        assert_eq!(p[1].cells, vec![3, 4]);
    }
}

#[cfg(test)]
mod sized_tests {
    use super::*;

    #[test]
    fn sized_partitions_follow_the_entry_budget() {
        assert_eq!(PdbPreset::sized_for(4, 4, 1 << 20), Some(PdbPreset::P555));
        assert_eq!(PdbPreset::sized_for(4, 4, 6 << 20), Some(PdbPreset::P663));
        assert_eq!(
            PdbPreset::sized_for(3, 3, 1 << 20),
            Some(PdbPreset::COMPLETE8)
        );
        assert_eq!(
            PdbPreset::sized_for(4, 3, 1 << 20),
            Some(PdbPreset::of(&[6, 5]))
        );
        assert_eq!(
            PdbPreset::sized_for(5, 3, 1 << 20),
            Some(PdbPreset::of(&[5, 5, 4]))
        );
        assert_eq!(PdbPreset::sized_for(9, 9, 1 << 20), None);
        assert_eq!(PdbPreset::sized_for(1, 8, 1 << 20), None);
    }

    #[test]
    fn block_groups_are_compact_on_thin_boards() {
        // 5 columns x 3 rows, standard goal: groups are whole columns, from the far side.
        let goal = Board::solved(5, 3).unwrap();
        let specs = PdbPreset::of(&[5, 5, 4]).partition(&goal).unwrap();
        let mut all: Vec<usize> = specs.iter().flat_map(|s| s.cells.clone()).collect();
        all.push(goal.blank());
        all.sort_unstable();
        assert_eq!(all, (0..15).collect::<Vec<_>>());
        // The first group holds the columns nearest the goal's top-left, away from the blank.
        let cols: Vec<usize> = specs[0].cells.iter().map(|c| c % 5).collect();
        assert!(cols.iter().all(|&c| c >= 3), "{cols:?}");
    }
}
