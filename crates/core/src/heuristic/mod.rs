//! Heuristics: lower bounds on the number of moves from a board to its goal.
//!
//! Every heuristic here is built for one goal (any goal, any m x n board) and promises, as the
//! contract of [`Heuristic`], never to exceed the true distance (admissible). The exhaustive
//! tests in `tests/oracle.rs` check that promise, and consistency where a doc claims it, on all
//! 181,440 states of the 8-puzzle and all states of the 4x2 and 2x4 boards.
//!
//! In order of cleverness, as the classic heuristics comparison presents them, then stronger
//! ones:
//! [`misplaced`], [`manhattan`], [`linear_conflict`], [`walking_distance`].

pub mod linear_conflict;
pub mod manhattan;
pub mod misplaced;
pub mod walking_distance;

use crate::algorithm::UnknownName;
use crate::board::{Board, Tile};
use crate::solution::SolveError;

pub use linear_conflict::LinearConflict;
pub use manhattan::Manhattan;
pub use misplaced::Misplaced;
pub use walking_distance::WalkingDistance;

/// A lower bound on the moves from a board to the goal the heuristic was built for.
///
/// **Contract:** for every board `b` of the goal's size from which the goal is reachable,
/// `estimate(b.tiles())` never exceeds the true optimal distance, and it is 0 on the goal.
pub trait Heuristic: Send + Sync {
    /// The estimate for `tiles` (row-major, the goal's size, `0` for the blank).
    fn estimate(&self, tiles: &[Tile]) -> u32;
}

/// A shared heuristic (e.g. tables cached per goal) estimates like the one it points to.
impl<T: Heuristic + ?Sized> Heuristic for std::sync::Arc<T> {
    fn estimate(&self, tiles: &[Tile]) -> u32 {
        (**self).estimate(tiles)
    }
}

/// A heuristic that IDA* can update after each move instead of recomputing it.
///
/// `Aux` is whatever extra state the update needs (copied on the search stack, so keep it small).
pub trait Incremental: Heuristic {
    /// Per-node state beside the value: plain data, which the searches store, share between
    /// threads and free on a thread of their own.
    type Aux: Copy + Send + Sync + 'static;
    /// What [`Incremental::prepare`] leaves for [`Incremental::finish`] (`()` for a heuristic
    /// that reads no large table).
    type Pending: Copy + Default;
    /// Value and state for `tiles`; the value equals `estimate(tiles)`.
    fn init(&self, tiles: &[Tile]) -> (u32, Self::Aux);
    /// The value after `tile` slid from cell `from` to cell `to` (the blank went the other way).
    /// `tiles` already shows the move; `h` and `aux` are the values before it. Must return
    /// exactly what `init` would return for the new tiles.
    fn update(
        &self,
        tiles: &[Tile],
        tile: Tile,
        from: usize,
        to: usize,
        h: u32,
        aux: &mut Self::Aux,
    ) -> u32;

    /// [`Incremental::update`] for a search that cuts off every node whose value passes
    /// `limit`: where the value is the largest of several lower bounds, it may stop as soon as
    /// one passes `limit`. It then returns that bound (more than `limit`, at most the value
    /// `update` gives) and leaves `aux` fit only to be dropped, as the cut node's state is.
    /// Otherwise it returns what `update` returns, with the same `aux`. Default:
    /// [`Incremental::update`].
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn update_within(
        &self,
        tiles: &[Tile],
        tile: Tile,
        from: usize,
        to: usize,
        h: u32,
        aux: &mut Self::Aux,
        limit: u32,
    ) -> u32 {
        let _ = limit;
        self.update(tiles, tile, from, to, h, aux)
    }

    /// True when the heuristic is consistent: a move changes its value by at most one. A
    /// child then never proves its parent farther than the parent's own value, so
    /// bidirectional pathmax raises nothing, and a search may stop
    /// [`Incremental::update_within`] at the bound itself. Default: false, the answer that is
    /// always safe.
    fn consistent(&self) -> bool {
        false
    }

    /// The first half of [`Incremental::update`], for the same arguments: whatever needs no
    /// read of a large table, and a request to the memory for the entries the update will
    /// read. A search that prepares the children of a batch of boards before finishing any
    /// (the anytime search's beams do) lets those reads overlap instead of waiting for one
    /// after another. (IDA*, which reads each child's value at once, calls `update`: the two
    /// halves cost it more than they save.) Default: nothing (the update is all in
    /// [`Incremental::finish`]).
    #[inline]
    fn prepare(
        &self,
        _tiles: &[Tile],
        _tile: Tile,
        _from: usize,
        _to: usize,
        _aux: &Self::Aux,
    ) -> Self::Pending {
        Self::Pending::default()
    }

    /// The second half of [`Incremental::update`]: with what [`Incremental::prepare`] gave
    /// for the same move and state, updates `aux` and returns the value, exactly as `update`
    /// would (`tiles` as the move left them, as for `update`). Default: [`Incremental::update`].
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn finish(
        &self,
        tiles: &[Tile],
        tile: Tile,
        from: usize,
        to: usize,
        h: u32,
        aux: &mut Self::Aux,
        pending: &Self::Pending,
    ) -> u32 {
        let _ = pending;
        self.update(tiles, tile, from, to, h, aux)
    }

    /// A further lower bound for `tiles` (blank on `blank`), at least `h`, worth its cost only
    /// for a node that `h` did not cut off: IDA* asks it then and searches with the larger
    /// value. `aux` is the state [`Incremental::update`] left (the refinement may keep what it
    /// looked up there, for the node's children). The work may stop as soon as the value
    /// exceeds `limit` (the node is then cut off whatever the exact value; pass `u32::MAX` for
    /// the full value). Default: `h` (no further lookup). The value may be inconsistent (a
    /// move can lower it by more than one); IDA* stays optimal with any admissible value.
    #[inline]
    fn refine(
        &self,
        _tiles: &[Tile],
        _blank: usize,
        h: u32,
        _aux: &mut Self::Aux,
        _limit: u32,
    ) -> u32 {
        h
    }

    /// A cheaper heuristic of the same kind, weaker but faster to update: for searches that
    /// rank boards rather than prove bounds (the anytime search's beams), where more boards a
    /// second can be worth more than a tighter value. `None` (the default) where there is none.
    fn lighter(&self) -> Option<Self>
    where
        Self: Sized,
    {
        None
    }
}

/// The heuristics the CLI and the web API offer by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HeuristicKind {
    /// Tiles not on their goal cell (blank not counted).
    Misplaced,
    /// Sum of the tiles' Manhattan distances to their goal cells (blank not counted).
    Manhattan,
    /// Manhattan distance plus two moves per tile that must leave its line (Hansson et al. 1992).
    LinearConflict,
    /// Takahashi's walking distance, for any m x n and goal.
    WalkingDistance,
    /// Additive disjoint pattern databases with the reflected lookup (Korf & Felner 2002;
    /// Felner, Korf & Hanan 2004), named by group sizes: `pdb:5-5-5`, `pdb:6-6-3`, `pdb:7-8`,
    /// `pdb:6-6-6-6`, `pdb:8`, or any sizes that add up to the board's tiles; `zpdb:` instead
    /// of `pdb:` for zero-aware tables (Clausecker & Reinefeld 2019). Not in
    /// [`HeuristicKind::ALL`]: large databases take seconds to build on first use, which a
    /// comparison of every heuristic must not start unasked.
    Pdb(crate::pdb::PdbPreset),
}

impl HeuristicKind {
    /// Every kind, weakest first (the classic comparison's order of cleverness).
    pub const ALL: [HeuristicKind; 4] = [
        HeuristicKind::Misplaced,
        HeuristicKind::Manhattan,
        HeuristicKind::LinearConflict,
        HeuristicKind::WalkingDistance,
    ];

    /// The name used on the command line and in JSON (`"linear-conflict"`, `"pdb:7-8"`).
    pub fn name(self) -> String {
        match self {
            HeuristicKind::Misplaced => "misplaced".into(),
            HeuristicKind::Manhattan => "manhattan".into(),
            HeuristicKind::LinearConflict => "linear-conflict".into(),
            HeuristicKind::WalkingDistance => "walking-distance".into(),
            HeuristicKind::Pdb(p) => p.label(),
        }
    }

    /// The kind with this [`name`](HeuristicKind::name) in any case (`Manhattan`, `PDB:7-8`),
    /// if any.
    pub fn from_name(name: &str) -> Option<HeuristicKind> {
        let name = name.to_ascii_lowercase();
        if name.starts_with("pdb:") || name.starts_with("zpdb:") {
            return crate::pdb::PdbPreset::parse(&name).map(HeuristicKind::Pdb);
        }
        HeuristicKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The heuristic a user named; the error lists the built-in names and the pattern
    /// databases' form.
    ///
    /// ```
    /// use taquin::HeuristicKind;
    /// assert_eq!(HeuristicKind::parse("manhattan"), Ok(HeuristicKind::Manhattan));
    /// assert_eq!(HeuristicKind::parse("Manhattan"), Ok(HeuristicKind::Manhattan));
    /// assert_eq!(HeuristicKind::parse("ZPDB:7-8").unwrap().name(), "zpdb:7-8");
    /// assert!(HeuristicKind::parse("pdb:6-6-3").is_ok());
    /// assert_eq!(HeuristicKind::parse_choice("auto"), Ok(None));
    /// let e = HeuristicKind::parse("euclid").unwrap_err();
    /// assert!(e.to_string().starts_with("unknown heuristic 'euclid': use one of misplaced, manhattan"));
    /// ```
    pub fn parse(name: &str) -> Result<HeuristicKind, UnknownName> {
        HeuristicKind::from_name(name).ok_or_else(|| {
            let names: Vec<String> = HeuristicKind::ALL.map(HeuristicKind::name).into();
            UnknownName {
                what: "heuristic",
                name: name.to_string(),
                valid: format!(
                    "{}, or pdb: and group sizes, each from 1 to {} tiles, at most {} groups \
                     (pdb:7-8, pdb:6-6-3; zpdb:7-8 for zero-aware tables)",
                    names.join(", "),
                    crate::pdb::MAX_CELLS - 1,
                    crate::pdb::MAX_PATTERNS
                ),
            }
        })
    }

    /// The heuristic a user named, or `None` for `auto` (the planner's choice).
    pub fn parse_choice(name: &str) -> Result<Option<HeuristicKind>, UnknownName> {
        crate::algorithm::parse_choice(name, HeuristicKind::parse)
    }

    /// The pattern-database kinds of the literature, smallest board first (not part of
    /// [`HeuristicKind::ALL`]; any other group sizes are accepted as well, see
    /// [`crate::pdb::PdbPreset`]).
    pub const PDB: [HeuristicKind; 7] = [
        HeuristicKind::Pdb(crate::pdb::PdbPreset::COMPLETE8),
        HeuristicKind::Pdb(crate::pdb::PdbPreset::P555),
        HeuristicKind::Pdb(crate::pdb::PdbPreset::P663),
        HeuristicKind::Pdb(crate::pdb::PdbPreset::P78),
        HeuristicKind::Pdb(crate::pdb::PdbPreset::P6666),
        HeuristicKind::Pdb(crate::pdb::PdbPreset::ZP78),
        HeuristicKind::Pdb(crate::pdb::PdbPreset::ZP6666),
    ];

    /// Builds this heuristic for `goal`, its tables taken from `tables` (pattern databases
    /// built when missing, as `policy` allows; walking-distance tables built within `limits`:
    /// the deadline, the cancel flag and the memory budget). Walking distance fails where its
    /// tables would be too large; pattern databases fail on a board their partition does not fit.
    /// Pattern databases are those of the goal's table goal ([`Symmetry::table_goal`], the
    /// ones the solver and `taquin pdb build` use), read on each board's image.
    ///
    /// [`Symmetry::table_goal`]: crate::symmetry::Symmetry::table_goal
    pub fn build(
        self,
        goal: &Board,
        tables: &crate::Tables,
        policy: crate::pdb::BuildPolicy,
        limits: &crate::limits::Limits,
    ) -> Result<Box<dyn Heuristic>, SolveError> {
        Ok(match self {
            HeuristicKind::Misplaced => Box::new(Misplaced::new(goal)),
            HeuristicKind::Manhattan => Box::new(Manhattan::new(goal)),
            HeuristicKind::LinearConflict => Box::new(LinearConflict::new(goal)),
            HeuristicKind::WalkingDistance => Box::new(tables.walking_distance(goal, limits)?),
            HeuristicKind::Pdb(p) => {
                let symmetry = crate::symmetry::Symmetry::for_tables(goal);
                let image = symmetry.board(goal);
                let h = crate::pdb::with_pdb_heuristic!(tables, p, &image, policy, limits, |h| {
                    Box::new(h) as Box<dyn Heuristic>
                });
                if symmetry.is_identity() {
                    h
                } else {
                    Box::new(OnImage {
                        inner: h,
                        symmetry,
                        size: (goal.width(), goal.height()),
                    })
                }
            }
        })
    }
}

/// A heuristic built for the image of a goal under a symmetry, read on the image of each
/// board: as far from the image goal as the board is from the goal.
struct OnImage {
    inner: Box<dyn Heuristic>,
    symmetry: crate::symmetry::Symmetry,
    /// The boards' width and height.
    size: (usize, usize),
}

impl Heuristic for OnImage {
    fn estimate(&self, tiles: &[Tile]) -> u32 {
        let (w, h) = self.size;
        self.inner.estimate(&self.symmetry.tiles(tiles, w, h))
    }
}

/// [`HeuristicKind::parse`], for `str::parse` and whatever reads through
/// [`std::str::FromStr`].
///
/// ```
/// use taquin::HeuristicKind;
/// let h: HeuristicKind = "linear-conflict".parse()?;
/// assert_eq!(h, HeuristicKind::LinearConflict);
/// assert_eq!("pdb:6-6-3".parse::<HeuristicKind>()?.name(), "pdb:6-6-3");
/// assert!("euclid".parse::<HeuristicKind>().is_err());
/// # Ok::<(), taquin::algorithm::UnknownName>(())
/// ```
impl std::str::FromStr for HeuristicKind {
    type Err = UnknownName;

    fn from_str(name: &str) -> Result<HeuristicKind, UnknownName> {
        HeuristicKind::parse(name)
    }
}

impl std::fmt::Display for HeuristicKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

/// Where each tile of a goal stands, as column and row: the facts every heuristic starts from.
#[derive(Debug, Clone)]
pub struct GoalGeometry {
    /// Board columns.
    pub width: usize,
    /// Board rows.
    pub height: usize,
    /// `goal_cell[t]`: the goal cell of tile `t`.
    pub goal_cell: Vec<usize>,
}

impl GoalGeometry {
    /// Geometry of `goal`.
    pub fn new(goal: &Board) -> GoalGeometry {
        GoalGeometry {
            width: goal.width(),
            height: goal.height(),
            goal_cell: goal.positions(),
        }
    }

    /// Goal column of tile `t`.
    pub fn goal_col(&self, t: Tile) -> usize {
        self.goal_cell[t as usize] % self.width
    }

    /// Goal row of tile `t`.
    pub fn goal_row(&self, t: Tile) -> usize {
        self.goal_cell[t as usize] / self.width
    }
}
