//! The planner: the one place that decides, for a request, which algorithm, heuristic and
//! tables to use when the caller leaves them open, and says why in one line.
//!
//! What it weighs: the board's size, which pattern databases are already on disk (a handle's
//! [`Tables`]), and how many boards the caller will solve with the same tables
//! ([`Workload`]). Up to 16 cells it plans an optimal IDA* over blank-aware additive pattern
//! databases: the largest set on disk (the zero-aware 7-8 on the 15-puzzle), else a set small
//! enough to build at once (the 15-puzzle's 6-6-3 in about 0.3 s on two cores; where that would
//! take longer, a first single solve builds the 5-5-5, a fraction of that). It never plans a
//! build of more than a second: it names the larger set that would pay off ([`Plan::better`])
//! so that a front end can suggest `taquin pdb build`.
//! Larger boards, where an optimal search may not end in any time a person waits, get the anytime
//! search ([`crate::solvers::anytime`]): a first solution at once and better ones until the
//! deadline, guided by the size's largest pattern databases on disk ([`large_sets`]: 5x5 and
//! 6x6), by linear conflict otherwise. When the request sets no deadline, that search takes
//! [`ANYTIME_BUDGET`] (10 s), even with [`crate::Limits::none`]: to give it another time, set a
//! deadline of your own ([`crate::Limits::with_timeout`]).
//!
//! An explicit choice always wins: an algorithm or heuristic given in [`SolveOptions`] is used
//! as given, and the planner fills in only what is left open.

use crate::algorithm::Algorithm;
use crate::board::size_with_article;
use crate::heuristic::HeuristicKind;
use crate::pdb::{BuildPolicy, PdbPreset};
use crate::request::Request;
use crate::solution::SolveError;
use crate::solver::{SolveOptions, Workload};
use crate::symmetry::Symmetry;
use crate::tables::Tables;

/// Entries of the largest table in a set the planner builds for a single board: the 15-puzzle's
/// 5-5-5 (524,160 entries a table) builds in a fraction of a second.
pub const QUICK_ENTRIES: u64 = 1 << 20;
/// Entries of the largest table in a set the planner builds when the tables will serve many
/// boards, or once the quick set is on disk: the 15-puzzle's 6-6-3 (5,765,760 entries) builds
/// in about a second on two cores.
pub const STANDARD_ENTRIES: u64 = 6 << 20;
/// The longest build of the standard set that a first single solve starts rather than building
/// the quick set first (an estimate for this machine's cores).
pub const FAST_BUILD_SECONDS: f64 = 0.5;
/// Most cells of a board the planner solves optimally with tables it builds itself; past it, the
/// planner picks the anytime search.
pub const MAX_QUICK_CELLS: usize = 16;
/// The time the anytime search takes when the request sets no deadline (whether the planner
/// chose it or the caller asked for it): a search that improves its answer for as long as it
/// is let would otherwise never return. Set a deadline ([`crate::Limits::with_timeout`]) for
/// another time.
pub const ANYTIME_BUDGET: std::time::Duration = std::time::Duration::from_secs(10);

/// What the planner decided: everything a run needs, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// The search.
    pub algorithm: Algorithm,
    /// The heuristic that guides it (unused by BFS and the constructive solver).
    pub heuristic: HeuristicKind,
    /// Weight of weighted A*.
    pub weight: f64,
    /// Look-ahead depth of the real-time players.
    pub depth: usize,
    /// Threads of one IDA* search.
    pub threads: usize,
    /// Where IDA* keeps its place ([`SolveOptions::checkpoint`]).
    pub checkpoint: Option<std::sync::Arc<crate::search::CheckpointFile>>,
    /// How many boards the tables will serve (the planner's choice of tables depends on it).
    pub workload: Workload,
    /// May the run build missing pattern databases?
    pub build: BuildPolicy,
    /// A time budget the run takes when the request sets no deadline (the anytime search).
    pub budget: Option<std::time::Duration>,
    /// The optimal search the planner chose (up to 16 cells) has a deadline: if it has not
    /// ended by half the time, the anytime search answers with the best solution it finds in
    /// the rest, so that the planner's choice never ends with no answer. Most boards of up to
    /// 16 cells are solved in milliseconds; some (2x8 boards with their small tables, hard
    /// 15-puzzles without the large set) take minutes.
    pub anytime_after_half: bool,
    /// Why these, in one line.
    pub reason: String,
    /// A larger pattern-database set for this board that is not on disk and would have cut the
    /// search by a large factor; building it takes long enough that nobody should start it
    /// unasked (`taquin pdb build --size WxH`).
    pub better: Option<PdbPreset>,
}

impl Plan {
    /// The name of the heuristic as reports show it: `none` for BFS and the constructive
    /// solver, `manhattan` for the look-ahead player, which always scores by it.
    pub fn heuristic_name(&self) -> String {
        match self.algorithm {
            Algorithm::Bfs | Algorithm::Constructive => "none".into(),
            Algorithm::Lookahead => HeuristicKind::Manhattan.name(),
            _ => self.heuristic.name(),
        }
    }

    /// The plan in one line: `idastar + pdb:6-6-3: <reason>`.
    pub fn explain(&self) -> String {
        format!(
            "{} + {}: {}",
            self.algorithm,
            self.heuristic_name(),
            self.reason
        )
    }

    /// The proven factor between a solution's length and the optimal one: 1 for the optimal
    /// algorithms, w for weighted A* (Pohl 1970; every heuristic offered is admissible), none
    /// for the others.
    pub fn suboptimality_bound(&self) -> Option<f64> {
        match self.algorithm {
            a if a.is_optimal() => Some(1.0),
            Algorithm::WeightedAStar => Some(self.weight),
            _ => None,
        }
    }
}

/// Plans the solve of `request` as `options` ask, with the tables of `tables`.
///
/// ```
/// use taquin::{plan, Board, Limits, Request, SolveOptions, Tables};
/// let request = Request::new("6 4 7/8 5 0/3 2 1".parse()?, Board::solved(3, 3)?, Limits::none())?;
/// let plan = plan(&request, &SolveOptions::default(), &Tables::in_memory())?;
/// assert_eq!(plan.explain().split(':').next(), Some("idastar + pdb"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn plan(
    request: &Request,
    options: &SolveOptions,
    tables: &Tables,
) -> Result<Plan, SolveError> {
    let algorithm = options.algorithm;
    // An algorithm that takes no heuristic builds no table (the front ends say it is unused).
    if let (Some(HeuristicKind::Pdb(set)), true) = (
        options.heuristic,
        algorithm.is_none_or(|a| a.takes_heuristic()),
    ) {
        refuse_build_past_deadline(set, request, tables)?;
    }
    let (heuristic, build, reason, better) = match options.heuristic {
        Some(h) => (h, BuildPolicy::IfMissing, "as asked".to_string(), None),
        None => match algorithm {
            Some(a) if !a.takes_heuristic() => (
                HeuristicKind::Manhattan,
                BuildPolicy::Never,
                "as asked".to_string(),
                None,
            ),
            _ => auto_heuristic(request, options.workload, tables),
        },
    };
    let anytime = request.goal().len() > MAX_QUICK_CELLS;
    let algorithm = algorithm.unwrap_or(if anytime {
        Algorithm::Anytime
    } else {
        Algorithm::IdaStar
    });
    let reason = match (options.algorithm, options.heuristic) {
        (Some(_), Some(_)) => "as asked".to_string(),
        (None, Some(_)) if !anytime => format!(
            "IDA* is the fastest optimal search for a given heuristic ({})",
            goal_size(request)
        ),
        _ => reason,
    };
    let budget = (algorithm == Algorithm::Anytime && request.limits().deadline.is_none())
        .then_some(ANYTIME_BUDGET);
    let anytime_after_half = options.algorithm.is_none()
        && algorithm == Algorithm::IdaStar
        && request.limits().deadline.is_some();
    let reason = if options.algorithm.is_none() && algorithm == Algorithm::Anytime {
        format!(
            "{reason}; anytime search, as an optimal search may not end in time on {} cells: a \
             first solution at once, then better ones until the deadline{}",
            request.goal().len(),
            budget.map_or(String::new(), |b| format!(
                " ({} s, as no time limit was given)",
                b.as_secs()
            ))
        )
    } else {
        reason
    };
    let plan = Plan {
        algorithm,
        heuristic,
        weight: options.weight,
        depth: options.depth,
        threads: options.threads,
        checkpoint: None,
        workload: options.workload,
        build,
        budget,
        anytime_after_half,
        reason,
        better,
    };
    Ok(match &options.checkpoint {
        Some(file) => plan.keeping(file.clone()),
        None => plan,
    })
}

impl Plan {
    /// The plan with IDA* keeping its place in `file` ([`SolveOptions::checkpoint`]). A search
    /// that goes on over sittings keeps its whole time: no anytime answer after half of it,
    /// which would end the sitting with the place unused.
    pub fn keeping(self, file: std::sync::Arc<crate::search::CheckpointFile>) -> Plan {
        Plan {
            checkpoint: Some(file),
            anytime_after_half: false,
            ..self
        }
    }

    /// The plan to run instead of this one when its tables failed their check at the load: the
    /// planner's next choice of tables, which passes over the damaged set (see
    /// [`crate::pdb::PdbEvent::Damaged`]), its reason saying so and how to rebuild the set.
    /// `None` unless this plan's tables are the planner's choice of a large set (tables asked
    /// for are rebuilt when damaged, never passed over) and one of their files is damaged.
    pub(crate) fn instead_of_damaged(&self, request: &Request, tables: &Tables) -> Option<Plan> {
        let HeuristicKind::Pdb(set) = self.heuristic else {
            return None;
        };
        if self.build != BuildPolicy::Never {
            return None;
        }
        damaged_file(set, request, tables)?;
        // The reason says which set was passed over (`auto_heuristic`); what it said beyond
        // the tables (the anytime search's own words) stays.
        let (heuristic, build, reason, better) = auto_heuristic(request, self.workload, tables);
        let rest = self
            .reason
            .split_once("; ")
            .map_or(String::new(), |(_, rest)| format!("; {rest}"));
        Some(Plan {
            heuristic,
            build,
            better,
            reason: format!("{reason}{rest}"),
            ..self.clone()
        })
    }
}

/// The first table of `set`, for the request's goal, whose file is damaged
/// ([`Tables::is_damaged`]), if any.
fn damaged_file(
    set: PdbPreset,
    request: &Request,
    tables: &Tables,
) -> Option<crate::pdb::PatternSpec> {
    set.partition(&Symmetry::table_goal(request.goal()))
        .ok()?
        .into_iter()
        .find(|spec| tables.is_damaged(spec))
}

/// Tables asked for by name (`-H pdb:8-7`) that are not on disk are built before the search;
/// a build expected to take more than twice the whole time limit (the estimate is rough) would
/// be cut off, save nothing and leave the search no heuristic (and the anytime half of the
/// time would start it again): refused at once, with the command that builds the tables. The
/// planner's own choice never asks for such a build. Tables kept in memory only (the web
/// server's, Python's without a cache directory) are left to the build as before: no command
/// builds them ahead, and the web API refuses large sets itself.
fn refuse_build_past_deadline(
    set: PdbPreset,
    request: &Request,
    tables: &Tables,
) -> Result<(), SolveError> {
    let (Some(deadline), Some(_)) = (request.limits().deadline, tables.dir()) else {
        return Ok(());
    };
    let goal = request.goal();
    // A set that does not fit the board: the search says why, in its own words.
    let Ok(specs) = set.partition(&Symmetry::table_goal(goal)) else {
        return Ok(());
    };
    let missing: Vec<_> = specs
        .iter()
        .filter(|spec| !tables.has_database(spec))
        .collect();
    // A table too large to build at all is refused as such, in the build's own words.
    for spec in &missing {
        crate::pdb::build::check_buildable(spec)?;
    }
    let threads = crate::pdb::build::default_threads();
    let seconds: f64 = missing
        .iter()
        .map(|spec| crate::pdb::build::estimate_seconds(spec, threads))
        .sum();
    let left = deadline
        .saturating_duration_since(crate::clock::Instant::now())
        .as_secs_f64();
    if seconds <= 2.0 * left {
        return Ok(());
    }
    Err(SolveError::Unsupported(format!(
        "{set} is not on disk for this goal, and building it is expected to take {}, longer \
         than the time limit ({} left) allows: build it once with `taquin pdb build {set} \
         --size {}{}`, give more time, or leave the heuristic to the planner",
        about(seconds),
        about(left).trim_start_matches("about "),
        goal_size(request),
        missing.first().map_or("", |spec| spec.goal_flag()),
    )))
}

/// An estimated build time in words: `about 0.3 s`, or `under 0.1 s`.
fn about(seconds: f64) -> String {
    if seconds < 0.1 {
        "under 0.1 s".to_string()
    } else {
        format!("about {seconds:.1} s")
    }
}

fn goal_size(request: &Request) -> String {
    format!("{}x{}", request.goal().width(), request.goal().height())
}

/// The heuristic (and whether it may build tables) for a board when none is asked for; the
/// reason names a large set passed over because a file of it is damaged, with the command
/// that rebuilds it.
fn auto_heuristic(
    request: &Request,
    workload: Workload,
    tables: &Tables,
) -> (HeuristicKind, BuildPolicy, String, Option<PdbPreset>) {
    let (heuristic, build, reason, better) = first_choice(request, workload, tables);
    let goal = request.goal();
    let damaged = large_sets(goal.width(), goal.height())
        .into_iter()
        .find_map(|set| Some((set, damaged_file(set, request, tables)?)));
    let reason = match damaged {
        Some((set, spec)) => format!(
            "{reason}, as a file of {set} on disk is damaged (rebuild it with `{}`)",
            spec.rebuild_command()
        ),
        None => reason,
    };
    (heuristic, build, reason, better)
}

/// [`auto_heuristic`]'s choice and its reason.
fn first_choice(
    request: &Request,
    workload: Workload,
    tables: &Tables,
) -> (HeuristicKind, BuildPolicy, String, Option<PdbPreset>) {
    let goal = request.goal();
    let (w, h) = (goal.width(), goal.height());
    let size = goal_size(request);
    // A run maps goals that differ by a symmetry onto one (see `crate::symmetry`): the
    // tables that count are those of that goal.
    let table_goal = Symmetry::table_goal(goal);
    let on_disk = |p: PdbPreset| p.is_available(&table_goal, tables);
    let largest = largest_set(w, h);
    // The planner's own set, else the best of the smaller ones it knows (part of the set, or the
    // same partition with plain tables, a directory filled by an earlier version) on disk.
    if let Some(best) = large_sets(w, h).into_iter().find(|&p| on_disk(p)) {
        let what = if Some(best) == largest {
            "the largest pattern databases"
        } else {
            "large pattern databases"
        };
        return (
            HeuristicKind::Pdb(best),
            BuildPolicy::Never,
            format!("{what} for {size} are on disk"),
            (Some(best) != largest).then_some(largest).flatten(),
        );
    }
    if goal.len() <= MAX_QUICK_CELLS {
        let quick = PdbPreset::sized_for(w, h, QUICK_ENTRIES);
        let standard = PdbPreset::sized_for(w, h, STANDARD_ENTRIES);
        if let (Some(quick), Some(standard)) = (quick, standard) {
            let better = largest.filter(|&p| p != standard);
            if on_disk(standard) {
                // A set the planner builds by itself: a damaged file is rejected and rebuilt.
                return (
                    HeuristicKind::Pdb(standard),
                    BuildPolicy::IfMissing,
                    format!("pattern databases for {size} on disk"),
                    better,
                );
            }
            // The standard set builds in a fraction of a second on two cores (the 15-puzzle's
            // 6-6-3 in about 0.3 s): a first single solve builds it at once. Where it would take
            // longer (one core, a browser), a first single solve builds the quick set, and the
            // standard one comes when the tables will serve many boards or the user came back.
            let cores = crate::pdb::build::default_threads();
            let standard_seconds = standard.build_seconds(&table_goal, cores);
            let quick_seconds = quick.build_seconds(&table_goal, cores);
            let fast = standard_seconds <= FAST_BUILD_SECONDS;
            // A build the time limit cuts off saves nothing (and a batch's next board would
            // start it again), and leaves the search no time: a set is built only when it is
            // expected in half the time left, else the quick set on disk serves, or no table.
            let time_left = request.limits().deadline.map(|d| {
                d.saturating_duration_since(crate::clock::Instant::now())
                    .as_secs_f64()
            });
            let fits = |seconds: f64| time_left.is_none_or(|left| seconds <= left / 2.0);
            if !fits(standard_seconds) && (on_disk(quick) || fits(quick_seconds)) {
                let why = if on_disk(quick) {
                    "on disk".to_string()
                } else {
                    format!(
                        "{}, expected to take {}",
                        tables.how_built(),
                        about(quick_seconds)
                    )
                };
                return (
                    HeuristicKind::Pdb(quick),
                    BuildPolicy::IfMissing,
                    format!(
                        "quick pattern databases for {size} ({why}): the larger set, expected \
                         to take {} to build, does not fit the time limit",
                        about(standard_seconds)
                    ),
                    better.or(Some(standard)),
                );
            }
            if !fits(standard_seconds) {
                return (
                    HeuristicKind::LinearConflict,
                    BuildPolicy::Never,
                    format!(
                        "linear conflict: no pattern database for {size} is on disk, and even \
                         the quick set, expected to take {} to build, does not fit the time \
                         limit",
                        about(quick_seconds)
                    ),
                    Some(standard),
                );
            }
            if workload == Workload::Many || on_disk(quick) || quick == standard || fast {
                let why = if quick == standard || fast {
                    // An estimate for this machine, said as one: a busy machine takes longer.
                    format!(
                        "a small set, expected to build in {}",
                        about(standard_seconds)
                    )
                } else if workload == Workload::Many {
                    "they serve every board of the run".to_string()
                } else {
                    "the quick set is already on disk".to_string()
                };
                return (
                    HeuristicKind::Pdb(standard),
                    BuildPolicy::IfMissing,
                    format!(
                        "pattern databases for {size}, {} ({why})",
                        tables.how_built()
                    ),
                    better,
                );
            }
            return (
                HeuristicKind::Pdb(quick),
                BuildPolicy::IfMissing,
                format!(
                    "quick pattern databases for {size}, {} (expected to take {})",
                    tables.how_built(),
                    about(quick_seconds)
                ),
                better.or(Some(standard)),
            );
        }
    }
    (
        HeuristicKind::LinearConflict,
        BuildPolicy::Never,
        format!(
            "linear conflict, the strongest heuristic that needs no table on {} board",
            size_with_article(w, h)
        ),
        largest,
    )
}

/// The large pattern-database sets the planner knows for a board, best first, built only on
/// request; it uses the first one on disk:
/// - 15-puzzle: the zero-aware 7-8, then the plain 7-8;
/// - 24-puzzle: the zero-aware 6-6-6-6 and 7-7-7-3 together (the larger of their values:
///   1.74 times fewer nodes than the 6-6-6-6 alone in about the same time, and shorter
///   anytime solutions), then the zero-aware 6-6-6-6 alone (96 MB, built in seconds), then the
///   plain one;
/// - 6x6: 2 x 3 blocks, zero-aware. Not 7x7: blocks of five tiles there (300 MB) guide the
///   anytime search no better than linear conflict (BENCHMARKS.md), and blocks of six would take
///   over 10 GB.
pub fn large_sets(width: usize, height: usize) -> Vec<PdbPreset> {
    match (width, height) {
        (4, 4) => vec![PdbPreset::ZP78, PdbPreset::P78],
        (5, 5) => vec![PdbPreset::ZP6666_7773, PdbPreset::ZP6666, PdbPreset::P6666],
        (6, 6) => vec![PdbPreset::ZP6X6],
        _ => Vec::new(),
    }
}

/// The best of [`large_sets`]: what `taquin pdb build --size WxH` builds, and what the planner
/// suggests building when it is not on disk.
pub fn largest_set(width: usize, height: usize) -> Option<PdbPreset> {
    large_sets(width, height).first().copied()
}

/// The longest build (estimated, on one core, as background builds run) of a set that a
/// server starts by itself in the background ([`background_set`]).
pub const BACKGROUND_BUILD_SECONDS: f64 = 120.0;

/// The best of [`large_sets`] for a `width` x `height` board whose build takes at most
/// [`BACKGROUND_BUILD_SECONDS`] on one core: what `taquin serve` builds by itself after it
/// starts (the 15-puzzle's zero-aware 7-8 and the 24-puzzle's zero-aware 6-6-6-6; the larger
/// sets take many minutes and gigabytes, which a server should not spend unasked). On one
/// core, not on every core: the choice is the same on any machine.
pub fn background_set(width: usize, height: usize) -> Option<PdbPreset> {
    let goal = Symmetry::table_goal(&crate::board::Board::solved(width, height).ok()?);
    large_sets(width, height)
        .into_iter()
        .find(|&p| p.build_seconds(&goal, 1) <= BACKGROUND_BUILD_SECONDS)
}

/// The set `taquin pdb build --size WxH` builds: the largest the planner uses for the size, or
/// up to 16 cells the standard quick set. `None` for larger boards without a large set (7x7,
/// 4x5, ...): the planner guides their searches by linear conflict, and a set built for them
/// would never be used unasked.
pub fn preferred_set(width: usize, height: usize) -> Option<PdbPreset> {
    largest_set(width, height).or_else(|| {
        (width * height <= 16)
            .then(|| PdbPreset::sized_for(width, height, STANDARD_ENTRIES))
            .flatten()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_built_without_a_directory_are_not_said_to_be_saved() {
        use crate::{Board, Limits};
        let request = Request::new(
            "6 4 7/8 5 0/3 2 1".parse().unwrap(),
            Board::solved(3, 3).unwrap(),
            Limits::none(),
        )
        .unwrap();
        let reason = |tables: &Tables| {
            plan(&request, &SolveOptions::default(), tables)
                .unwrap()
                .reason
        };
        let in_memory = reason(&Tables::in_memory());
        assert!(!in_memory.contains("saved"), "{in_memory}");
        assert!(in_memory.contains("built for this process"), "{in_memory}");
        let dir = crate::test_support::scratch_dir("plan-saved");
        let saved = reason(&Tables::open(dir.path()));
        assert!(saved.contains("built once and saved"), "{saved}");
    }

    #[test]
    fn pdb_build_by_size_builds_only_sets_the_planner_uses() {
        assert_eq!(preferred_set(5, 5), Some(PdbPreset::ZP6666_7773));
        assert!(preferred_set(3, 5).is_some());
        // Linear conflict guides these: a set built for them would never be used unasked.
        assert_eq!(preferred_set(7, 7), None);
        assert_eq!(preferred_set(4, 5), None);
    }

    #[test]
    fn a_server_builds_by_itself_only_the_sets_of_a_minute_or_two_on_one_core() {
        assert_eq!(background_set(4, 4), Some(PdbPreset::ZP78));
        // Not the combined set, whatever the number of cores: it takes many minutes.
        assert_eq!(background_set(5, 5), Some(PdbPreset::ZP6666));
        assert_eq!(background_set(6, 6), None);
        assert_eq!(background_set(3, 3), None);
    }

    /// A new directory named after `name` holding the planner's largest set for `width` x
    /// `height` as files damaged inside ([`crate::pdb::store::write_damaged`]: right headers,
    /// sparse zero tables), with the standard goal, the set and its patterns. The directory is
    /// deleted with its files when dropped: keep it until the test ends.
    fn damaged_largest_set(
        width: usize,
        height: usize,
        name: &str,
    ) -> (
        tempfile::TempDir,
        crate::Board,
        PdbPreset,
        Vec<crate::pdb::PatternSpec>,
    ) {
        use crate::pdb::store;
        // Deleted with the files in it when dropped, also when the test fails.
        let dir = crate::test_support::scratch_dir(name);
        let goal = crate::Board::solved(width, height).unwrap();
        let largest = largest_set(width, height).unwrap();
        let specs = largest.partition(&Symmetry::table_goal(&goal)).unwrap();
        for spec in &specs {
            store::write_damaged(&store::path_in(dir.path(), spec), spec);
        }
        (dir, goal, largest, specs)
    }

    #[test]
    fn a_set_whose_build_does_not_fit_the_time_limit_is_not_planned() {
        use crate::{Board, Limits};
        let dir = crate::test_support::scratch_dir("plan-time");
        let tables = Tables::open(dir.path());
        let goal = Board::solved(2, 5).unwrap();
        let board = Board::parse("8 4/3 7/0 1/5 2/9 6").unwrap();
        // The request with a time limit of `seconds` (none: no limit).
        let within = |seconds: Option<f64>| {
            let timeout = seconds.map(std::time::Duration::from_secs_f64);
            Request::new(
                board.clone(),
                goal.clone(),
                Limits::new(timeout, None, None),
            )
            .unwrap()
        };
        let planned = |request: &Request| plan(request, &SolveOptions::default(), &tables).unwrap();
        let quick = PdbPreset::sized_for(2, 5, QUICK_ENTRIES).unwrap();
        let standard = PdbPreset::sized_for(2, 5, STANDARD_ENTRIES).unwrap();
        assert_ne!(quick, standard);
        // Nothing on disk and a millisecond: not even the quick set is built.
        let none = planned(&within(Some(0.001)));
        assert_eq!(
            none.heuristic,
            HeuristicKind::LinearConflict,
            "{}",
            none.reason
        );
        assert!(
            none.reason.contains("does not fit the time limit"),
            "{}",
            none.reason
        );
        // A first solve builds the quick set; then, without a limit, the larger set is built,
        // and with a limit too short for it the quick set on disk serves.
        let first = planned(&within(None));
        assert_eq!(first.heuristic, HeuristicKind::Pdb(quick));
        first.run(&within(None), &tables, None).unwrap();
        assert_eq!(
            planned(&within(None)).heuristic,
            HeuristicKind::Pdb(standard)
        );
        let short = planned(&within(Some(0.2)));
        assert_eq!(
            short.heuristic,
            HeuristicKind::Pdb(quick),
            "{}",
            short.reason
        );
        assert!(
            short.reason.contains("does not fit the time limit"),
            "{}",
            short.reason
        );
        // 31 moves: breadth-first search's length.
        let solution = short.run(&within(Some(0.2)), &tables, None).unwrap();
        assert_eq!((solution.len(), solution.optimal), (31, true));
    }

    #[test]
    fn the_planner_reads_a_large_sets_headers_without_working_out_their_layout() {
        // The layouts of the 6x6 set's zero-aware tables take a quarter of a second, and the
        // anytime search's first answer (due in 0.1 s) comes after the plan: the plan may read
        // the files' headers, not lay their tables out.
        use crate::pdb::BUILT_ON_THIS_THREAD;
        use crate::Limits;
        let (dir, goal, largest, _) = damaged_largest_set(6, 6, "plan-6x6");
        let tables = Tables::open(dir.path());
        let board = crate::generate::random_walk(&goal, 40, &mut crate::generate::Rng::new(1));
        let request = Request::new(board, goal, Limits::none()).unwrap();
        let before = BUILT_ON_THIS_THREAD.with(|built| built.get());
        let plan = plan(&request, &SolveOptions::default(), &tables).unwrap();
        assert_eq!(plan.heuristic, HeuristicKind::Pdb(largest));
        assert_eq!(BUILT_ON_THIS_THREAD.with(|built| built.get()), before);
    }

    #[test]
    fn a_large_set_damaged_inside_is_passed_over_and_the_board_still_solved() {
        use crate::pdb::{store, PdbEvent};
        use crate::{Board, Limits};
        use std::sync::{Arc, Mutex};
        let (dir, goal, largest, specs) = damaged_largest_set(4, 4, "damaged-set");
        let tables = Tables::open(dir.path());
        let heard = Arc::new(Mutex::new(Vec::new()));
        let told = heard.clone();
        tables.set_observer(Some(Arc::new(move |event: &PdbEvent| {
            if let PdbEvent::Damaged { error } = event {
                told.lock().unwrap().push(error.clone());
            }
        })));
        let board = Board::parse("1 2 3 4/5 6 7 8/9 10 0 11/13 14 15 12").unwrap();
        let request = Request::new(board, goal, Limits::none()).unwrap();
        // The headers are right, so the set is planned; its tables fail their check at the load.
        let first = plan(&request, &SolveOptions::default(), &tables).unwrap();
        assert_eq!(first.heuristic, HeuristicKind::Pdb(largest));
        let solution = first.run(&request, &tables, None).unwrap();
        assert_eq!((solution.len(), solution.optimal), (2, true));
        assert_ne!(solution.heuristic, largest.label());
        assert!(
            solution.plan.contains(&format!(
                "as a file of {largest} on disk is damaged (rebuild it with `taquin pdb build --size 4x4"
            )),
            "{}",
            solution.plan
        );
        {
            let heard = heard.lock().unwrap();
            assert_eq!(heard.len(), 1, "{heard:?}");
            assert!(heard[0].contains("checksum"), "{heard:?}");
        }
        // Asked again (another job of a batch, a server's next request), the damaged file is
        // neither checked nor told of again, and the answer still comes.
        let again = first.run(&request, &tables, None).unwrap();
        assert_eq!(again.len(), 2);
        assert_eq!(heard.lock().unwrap().len(), 1);
        // From then on the planner passes over the set, and says so; the damaged files stay
        // for the user to rebuild.
        let next = plan(&request, &SolveOptions::default(), &tables).unwrap();
        assert_ne!(next.heuristic, HeuristicKind::Pdb(largest));
        assert!(
            next.reason.contains("is damaged (rebuild it with"),
            "{}",
            next.reason
        );
        // The plan that took the set has one to run instead; tables asked for by name are
        // rebuilt when damaged, never passed over.
        assert!(first.instead_of_damaged(&request, &tables).is_some());
        let asked = SolveOptions {
            heuristic: Some(HeuristicKind::Pdb(largest)),
            ..SolveOptions::default()
        };
        assert!(plan(&request, &asked, &tables)
            .unwrap()
            .instead_of_damaged(&request, &tables)
            .is_none());
        for spec in &specs {
            assert!(store::path_in(dir.path(), spec).exists());
        }
        // A file changed since (rebuilt by another process, say) is the planner's again.
        let later = std::time::SystemTime::now() + std::time::Duration::from_secs(10);
        for spec in &specs {
            let file = std::fs::File::options()
                .write(true)
                .open(store::path_in(dir.path(), spec))
                .unwrap();
            file.set_modified(later).unwrap();
        }
        let again = plan(&request, &SolveOptions::default(), &tables).unwrap();
        assert_eq!(again.heuristic, HeuristicKind::Pdb(largest));
        assert!(!again.reason.contains("damaged"), "{}", again.reason);
    }
}
