//! Which multi-tile pattern databases a solve uses, and where they come from: the quick set
//! (tables of up to 6 M entries, 5 tiles and the blank on the 15-puzzle, seconds to build)
//! built on first use, and the standard set (up to 60 M entries, 6 tiles and the blank, about
//! a minute) used when `taquin pdb build --metric mtm` has put it on disk.

use std::cell::Cell;
use std::sync::Arc;
use std::time::Duration;

use crate::clock::Instant;

use super::pdb::MtmPdb;
use super::{store, MtmSolver};
use crate::board::Board;
use crate::limits::{LimitHit, Limits};
use crate::pdb::index::placements;
use crate::pdb::{PatternSpec, PdbError, MAX_CELLS};
use crate::solution::{SolveError, Stats};
use crate::tables::Tables;

/// Told of each table build: its spec when it starts, then its time when it is done.
pub type BuildReport<'a> = &'a dyn Fn(&PatternSpec, Option<Duration>);

/// A set of multi-tile pattern databases for one goal, by the size of its tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MtmSet {
    /// Tables of at most 6 M entries (seconds to build on first use).
    Quick,
    /// Tables of at most 60 M entries (about a minute; built by `taquin pdb build`).
    Standard,
}

impl MtmSet {
    fn max_entries(self) -> u64 {
        match self {
            MtmSet::Quick => 6_000_000,
            MtmSet::Standard => 60_000_000,
        }
    }

    /// Tiles per table on a board of `cells` cells: the most whose placements with the blank
    /// fit the set's entries (0 when not even one tile does).
    pub fn tiles_per_table(self, cells: usize) -> usize {
        (1..cells)
            .take_while(|&k| placements(cells, k + 1) <= self.max_entries())
            .last()
            .unwrap_or(0)
    }

    /// The name shown to users: `mtm:5-5-5`, `mtm:6-6-6` (tiles per table).
    pub fn name(self, goal: &Board) -> String {
        let sizes: Vec<String> = self
            .specs(goal)
            .iter()
            .map(|s| s.cells.len().to_string())
            .collect();
        format!("mtm:{}", sizes.join("-"))
    }

    /// The tables of the set for `goal`: the goal's tiles in reading order cut into groups of
    /// [`MtmSet::tiles_per_table`], the last group completed with the tiles before it (the
    /// tables combine by their maximum, so groups may overlap, and a full-size last table is
    /// stronger than a small one).
    pub fn specs(self, goal: &Board) -> Vec<PatternSpec> {
        let n = goal.len();
        let k = self.tiles_per_table(n);
        if k == 0 || n > MAX_CELLS {
            return Vec::new();
        }
        let cells: Vec<usize> = (0..n).filter(|&c| c != goal.blank()).collect();
        let mut groups: Vec<Vec<usize>> = cells.chunks(k).map(<[usize]>::to_vec).collect();
        if let [.., before, last] = groups.as_mut_slice() {
            let missing = k - last.len();
            let mut extra: Vec<usize> = before[before.len() - missing..].to_vec();
            extra.append(last);
            *last = extra;
        }
        groups
            .into_iter()
            .filter_map(|cells| {
                PatternSpec::new(goal.width(), goal.height(), goal.blank(), cells).ok()
            })
            .collect()
    }

    /// True when every table of the set for `goal` has a valid-looking file in `tables`'
    /// directory (the header is checked when it is loaded).
    pub fn is_on_disk(self, goal: &Board, tables: &Tables) -> bool {
        let specs = self.specs(goal);
        !specs.is_empty()
            && tables
                .dir()
                .is_some_and(|dir| specs.iter().all(|s| store::path_in(dir, s).is_file()))
    }

    /// The set's tables for `goal`: read from `tables`' directory, or built (on every core,
    /// within `limits`) and saved there when a file is missing or damaged and `build` is true.
    /// `report` hears of each build: its spec, then its time. Before each table the limits are
    /// checked, the bytes of the tables so far and of the next one against the memory budget;
    /// a build stopped by a limit saves nothing.
    pub fn load(
        self,
        goal: &Board,
        tables: &Tables,
        build: bool,
        limits: &Limits,
        report: Option<BuildReport>,
    ) -> Result<Vec<Arc<MtmPdb>>, SolveError> {
        let started = Instant::now();
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let mut held = 0usize;
        let mut databases = Vec::new();
        for spec in &self.specs(goal) {
            let entries = usize::try_from(MtmPdb::entries(spec)).unwrap_or(usize::MAX);
            limits
                .check_memory(held.saturating_add(entries))
                .and_then(|()| limits.check(0))
                .map_err(|hit| limit_error(hit, started))?;
            held = held.saturating_add(entries);
            let path = tables.dir().map(|dir| store::path_in(dir, spec));
            let found = match &path {
                Some(path) => match store::load(path, spec) {
                    Ok(found) => found,
                    // A damaged file is rebuilt over.
                    Err(PdbError::Corrupt { .. }) if build => None,
                    Err(e) => return Err(SolveError::from(e)),
                },
                None => None,
            };
            if let Some(db) = found {
                databases.push(Arc::new(db));
                continue;
            }
            if !build {
                return Err(SolveError::Unsupported(format!(
                    "the multi-tile table {spec} is not built: run `taquin pdb build --metric mtm --size {}x{}`",
                    spec.width, spec.height
                )));
            }
            if let Some(report) = report {
                report(spec, None);
            }
            let built = Instant::now();
            let db = MtmPdb::build(spec, limits, threads, None)
                .map_err(|hit| limit_error(hit, started))?;
            if let Some(report) = report {
                report(spec, Some(built.elapsed()));
            }
            if let Some(path) = &path {
                store::save(&db, path)?;
            }
            databases.push(Arc::new(db));
        }
        Ok(databases)
    }
}

/// The error of a limit met while the tables were set up, `started` then: no search ran.
fn limit_error(hit: LimitHit, started: Instant) -> SolveError {
    SolveError::Limit {
        hit,
        stats: Stats {
            elapsed: started.elapsed(),
            ..Stats::default()
        },
        bound: 0,
    }
}

/// What [`planned_solver`] picked: the solver, the name of its bound, and why.
#[derive(Debug)]
pub struct MtmPlan {
    /// IDA* over slides with the bound.
    pub solver: MtmSolver,
    /// The bound's name (`mtm:6-6-6+walking-distance-mtm`, ...).
    pub heuristic: String,
    /// Why these tables: on disk, built on first use, or none for a board this size.
    pub reason: String,
}

impl MtmPlan {
    /// The search's name.
    pub const ALGORITHM: &'static str = "idastar-mtm";

    /// The plan in one line, as [`crate::Plan::explain`] says a single-tile one:
    /// `idastar-mtm + BOUND: REASON`.
    pub fn explain(&self) -> String {
        format!("{} + {}: {}", Self::ALGORITHM, self.heuristic, self.reason)
    }
}

/// The solver the planner picks for `goal` in the multi-tile metric: the standard set when it
/// is on disk, else the quick set (read, or built and saved on first use), with the walking
/// distance; with the walking distance alone on boards too large for any table. Everything is
/// read and built within `limits`: a limit met on the way is a [`SolveError::Limit`] with a
/// bound of 0 (no search ran) and the time since the plan began.
pub fn planned_solver(
    goal: &Board,
    tables: &Tables,
    limits: &Limits,
    report: Option<BuildReport>,
) -> Result<MtmPlan, SolveError> {
    let started = Instant::now();
    plan(goal, tables, limits, report, started).map_err(|err| match err {
        SolveError::Limit { hit, .. } => limit_error(hit, started),
        err => err,
    })
}

/// [`planned_solver`], its limit errors not yet timed.
fn plan(
    goal: &Board,
    tables: &Tables,
    limits: &Limits,
    report: Option<BuildReport>,
    started: Instant,
) -> Result<MtmPlan, SolveError> {
    let size = format!("{}x{}", goal.width(), goal.height());
    // The standard set is only read, never rebuilt here (a damaged file would cost a minute):
    // the quick set serves instead, and when the standard one is over the memory budget.
    let standard = MtmSet::Standard;
    let on_disk = standard.is_on_disk(goal, tables);
    let mut too_large = false;
    let loaded = if on_disk {
        match standard.load(goal, tables, false, limits, report) {
            Ok(databases) => Some(databases),
            Err(SolveError::Limit {
                hit: LimitHit::Memory,
                ..
            }) => {
                too_large = true;
                None
            }
            // Out of time or cancelled: the quick set would be too.
            Err(err @ SolveError::Limit { .. }) => return Err(err),
            Err(_) => None,
        }
    } else {
        None
    };
    let (set, databases, reason) = match loaded {
        Some(databases) => (
            standard,
            databases,
            format!("the multi-tile pattern databases for {size} on disk"),
        ),
        None if MtmSet::Quick.specs(goal).is_empty() => {
            return Ok(MtmPlan {
                solver: MtmSolver::within(goal, limits).map_err(|hit| limit_error(hit, started))?,
                heuristic: "walking-distance-mtm".into(),
                reason: format!(
                    "no multi-tile pattern databases for a board of {} cells: the walking distance in slides",
                    goal.len()
                ),
            });
        }
        None => {
            // Whether a table was built is known once the set is loaded: a file on disk may
            // be damaged and built over.
            let built = Cell::new(false);
            let heard = |spec: &PatternSpec, took: Option<Duration>| {
                built.set(true);
                if let Some(report) = report {
                    report(spec, took);
                }
            };
            let databases = MtmSet::Quick.load(goal, tables, true, limits, Some(&heard))?;
            let how = if built.get() {
                tables.how_built()
            } else {
                "on disk"
            };
            let reason = if standard.specs(goal).is_empty()
                || standard.name(goal) == MtmSet::Quick.name(goal)
            {
                format!("the multi-tile pattern databases for {size}, {how}")
            } else {
                let larger = standard.name(goal);
                if too_large {
                    format!(
                        "the quick multi-tile pattern databases for {size}, {how}; the larger {larger} on disk are over the memory budget"
                    )
                } else if on_disk {
                    format!(
                        "the quick multi-tile pattern databases for {size}, {how}; the larger {larger} on disk could not be read: rebuild them with `taquin pdb build --metric mtm --size {size}`"
                    )
                } else {
                    format!(
                        "the quick multi-tile pattern databases for {size}, {how}; the larger {larger} are not on disk"
                    )
                }
            };
            (MtmSet::Quick, databases, reason)
        }
    };
    // The walking-distance tables within what the pattern databases left of the memory budget.
    let held: usize = databases.iter().map(|db| db.data().len()).sum();
    let left = Limits {
        max_memory_bytes: Some(limits.memory_budget().saturating_sub(held)),
        ..limits.clone()
    };
    let solver = MtmSolver::within(goal, &left).map_err(|hit| limit_error(hit, started))?;
    Ok(MtmPlan {
        solver: solver.and_databases(databases),
        heuristic: format!("{}+walking-distance-mtm", set.name(goal)),
        reason,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plan_says_built_when_a_damaged_file_was_built_over() {
        // Deleted with the tables built in it when dropped, also when an assertion fails.
        let scratch = crate::test_support::scratch_dir("mtm-sets");
        let dir = scratch.path();
        // 4x3: the quick set (6-6) is not the standard one (7-7), which is not on disk.
        let goal = Board::solved(4, 3).unwrap();
        assert_ne!(MtmSet::Quick.name(&goal), MtmSet::Standard.name(&goal));
        // The plan's reason, and the tables it built.
        let plan = || {
            let built = std::cell::RefCell::new(Vec::new());
            let report = |spec: &PatternSpec, took: Option<Duration>| {
                if took.is_none() {
                    built.borrow_mut().push(spec.clone());
                }
            };
            let tables = Tables::open(dir);
            let plan = planned_solver(&goal, &tables, &Limits::none(), Some(&report)).unwrap();
            (plan.reason, built.into_inner())
        };
        let (reason, built) = plan();
        assert!(reason.contains("built once and saved"), "{reason}");
        assert_eq!(built.len(), 2);
        let (reason, built) = plan();
        assert!(reason.contains("on disk;"), "{reason}");
        assert!(built.is_empty());
        // A file damaged: it is built over, and the plan says so.
        let spec = &MtmSet::Quick.specs(&goal)[1];
        let path = store::path_in(dir, spec);
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        let (reason, built) = plan();
        assert!(reason.contains("built once and saved"), "{reason}");
        assert_eq!(built, vec![spec.clone()]);
        assert!(plan().0.contains("on disk;"));
        // The standard set's files there but damaged: the quick set serves, and the plan says
        // how to mend the larger one.
        for spec in MtmSet::Standard.specs(&goal) {
            std::fs::write(store::path_in(dir, &spec), b"not a table").unwrap();
        }
        let (reason, built) = plan();
        assert!(reason.contains("could not be read"), "{reason}");
        assert!(
            reason.contains("rebuild them with `taquin pdb build --metric mtm --size 4x3`"),
            "{reason}"
        );
        assert!(built.is_empty());
    }

    #[test]
    fn fifteen_puzzle_sets() {
        let goal = Board::solved(4, 4).unwrap();
        assert_eq!(MtmSet::Quick.name(&goal), "mtm:5-5-5");
        assert_eq!(MtmSet::Standard.name(&goal), "mtm:6-6-6");
        let specs = MtmSet::Standard.specs(&goal);
        assert_eq!(specs[2].cells, vec![9, 10, 11, 12, 13, 14]);
        let eight = Board::solved(3, 3).unwrap();
        // The whole 8-puzzle fits one quick table: its exact distances.
        assert_eq!(MtmSet::Quick.name(&eight), "mtm:8");
    }
}
