//! The table store: a handle that owns every table a solve may use (pattern databases from a
//! directory, mapped or built, and walking-distance tables), so that nothing of the kind is
//! global. Create one per program (or per test), pass it to [`crate::solve`], and clone it
//! freely: clones share the same tables.
//!
//! ```
//! use taquin::{Tables, pdb::PdbPreset, Board};
//! let tables = Tables::in_memory(); // nothing read from or written to disk
//! let goal = Board::solved(3, 3)?;
//! assert!(!PdbPreset::COMPLETE8.is_available(&goal, &tables));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::clock::Instant;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::board::{Board, Tile};
use crate::heuristic::WalkingDistance;
use crate::limits::Limits;
use crate::pdb::cache::{BuildPolicy, DatabaseCache, Observer};
use crate::pdb::{PatternDb, PatternSpec, PdbError, PdbHeuristic, PdbPreset};
use crate::solution::SolveError;

/// Bytes of walking-distance tables a handle keeps before it drops the least recently used.
pub const WALKING_DISTANCE_BUDGET: usize = 256 << 20;

/// Shared handle to the tables of one program (see the module documentation).
#[derive(Clone)]
pub struct Tables {
    inner: Arc<Inner>,
}

struct Inner {
    databases: DatabaseCache,
    walking: Mutex<WalkingCache>,
    background: Mutex<Vec<BackgroundJob>>,
    /// Held by the background build running now: jobs run one after another, on one core.
    background_turn: Mutex<()>,
}

impl std::fmt::Debug for Tables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tables")
            .field("dir", &self.dir())
            .finish_non_exhaustive()
    }
}

impl Tables {
    /// A handle over the pattern-database files of `dir` (created when a database is saved).
    pub fn open(dir: impl Into<PathBuf>) -> Tables {
        Tables::with_dir(Some(dir.into()))
    }

    /// A handle over the default directory ([`crate::pdb::cache::default_dir`]: the
    /// `TAQUIN_PDB_DIR` variable, else the user's cache directory).
    pub fn open_default() -> Result<Tables, PdbError> {
        crate::pdb::cache::default_dir().map(Tables::open)
    }

    /// A handle with no directory: tables are built in memory and never saved.
    pub fn in_memory() -> Tables {
        Tables::with_dir(None)
    }

    fn with_dir(dir: Option<PathBuf>) -> Tables {
        Tables {
            inner: Arc::new(Inner {
                databases: DatabaseCache::new(dir),
                walking: Mutex::new(WalkingCache::default()),
                background: Mutex::new(Vec::new()),
                background_turn: Mutex::new(()),
            }),
        }
    }

    /// The directory of the pattern-database files, if any.
    pub fn dir(&self) -> Option<&Path> {
        self.inner.databases.dir()
    }

    /// How tables this handle builds are kept, in the words of a plan's reason: `built once and
    /// saved` in its directory, or built for this process when it has none
    /// ([`Tables::in_memory`]), where the next process builds them again.
    pub(crate) fn how_built(&self) -> &'static str {
        if self.dir().is_some() {
            "built once and saved"
        } else {
            "built for this process (no table directory to save them in)"
        }
    }

    /// Sends every later [`crate::pdb::PdbEvent`] of this handle (loads, builds, saves) to `f`
    /// (`None`: to nobody).
    pub fn set_observer(&self, f: Option<Observer>) {
        self.inner.databases.set_observer(f);
    }

    /// True when the database of `spec` is in memory or has a file, so that using it costs at
    /// most a load, never a build; false while its file is one that failed its check where
    /// nothing could rebuild it ([`Tables::is_damaged`]).
    pub fn has_database(&self, spec: &PatternSpec) -> bool {
        self.inner.databases.available(spec)
    }

    /// True when the file of `spec` failed its check where nothing may rebuild it (a file of
    /// the planner's large sets) and is still that file: the planner passes over its set
    /// until the file changes (rebuilt, or put back).
    pub fn is_damaged(&self, spec: &PatternSpec) -> bool {
        self.inner.databases.is_damaged(spec)
    }

    /// The database of `spec`: from memory, mapped from its file, or built as `policy` allows
    /// (and saved when the handle has a directory). A build runs within the deadline, the
    /// cancel flag and the memory budget of `limits`, and fails with [`PdbError::Stopped`] when
    /// one of them stops it (nothing is saved then).
    pub fn database(
        &self,
        spec: &PatternSpec,
        policy: BuildPolicy,
        limits: &Limits,
    ) -> Result<Arc<PatternDb>, PdbError> {
        self.inner.databases.get(spec, policy, 0, limits)
    }

    /// Drops this handle's in-memory copy of `spec` (its file stays).
    pub fn forget(&self, spec: &PatternSpec) {
        self.inner.databases.forget(spec);
    }

    /// Drops every table held in memory; they are mapped or built again on next use.
    pub fn clear_memory(&self) {
        self.inner.databases.clear();
        *self.inner.walking.lock().unwrap_or_else(|e| e.into_inner()) = WalkingCache::default();
    }

    /// The pattern-database heuristic of `preset` for `goal` (with the reflected lookup where
    /// valid), its databases fetched as `policy` allows. A build it needs runs within the deadline, the cancel flag
    /// and the memory budget of `limits` (not its node budget), and fails with
    /// [`PdbError::Stopped`] when one of them stops it.
    ///
    /// Without the dual lookups ([`PdbHeuristic::with_dual`]): with these blank-aware tables
    /// a pattern's dual lookup is valid only while the blank stands in the pattern's goal
    /// region, which for Korf's goal rules out the pattern around the blank's corner, so they
    /// cut few nodes (5 % on 24-puzzle instance 38, 13 % on 40, 12 % on Korf's 100) and cost
    /// more time than they save, even looked up lazily and only where a move changed them.
    ///
    /// Of at most [`crate::pdb::NARROW_PATTERNS`] patterns (every set up to the 24-puzzle's
    /// combined one, and the 6x6 set); [`Tables::pdb_heuristic_sized`] takes more, or fewer
    /// for a smaller search state ([`crate::pdb::SMALL_PATTERNS`]).
    pub fn pdb_heuristic(
        &self,
        preset: PdbPreset,
        goal: &Board,
        policy: BuildPolicy,
        limits: &Limits,
    ) -> Result<PdbHeuristic, PdbError> {
        self.pdb_heuristic_sized(preset, goal, policy, limits)
    }

    /// [`Tables::pdb_heuristic`] of at most `P` patterns ([`crate::pdb::SMALL_PATTERNS`],
    /// [`crate::pdb::NARROW_PATTERNS`] or [`crate::pdb::MAX_PATTERNS`], as the solver picks
    /// them for a set): a preset with more patterns is refused.
    pub fn pdb_heuristic_sized<const P: usize>(
        &self,
        preset: PdbPreset,
        goal: &Board,
        policy: BuildPolicy,
        limits: &Limits,
    ) -> Result<PdbHeuristic<P>, PdbError> {
        let partitions = preset
            .parts()
            .iter()
            .map(|part| {
                part.partition(goal)?
                    .iter()
                    .map(|spec| self.inner.databases.get(spec, policy, 0, limits))
                    .collect::<Result<Vec<_>, _>>()
            })
            .collect::<Result<Vec<_>, _>>()?;
        PdbHeuristic::of_partitions(goal, partitions, true)
    }

    /// The walking-distance tables for `goal`, built once (within `limits`: a build stopped
    /// by them is not kept) and kept while they fit [`WALKING_DISTANCE_BUDGET`] (the least
    /// recently used goal's tables go first).
    pub fn walking_distance(
        &self,
        goal: &Board,
        limits: &Limits,
    ) -> Result<Arc<WalkingDistance>, SolveError> {
        let key = (goal.width(), goal.tiles().to_vec());
        if let Some(wd) = self.walking_cache().get(&key) {
            return Ok(wd);
        }
        // Built outside the lock so that other goals are not held up meanwhile.
        let wd = Arc::new(WalkingDistance::build(goal, limits)?);
        self.walking_cache().insert(key, wd.clone());
        Ok(wd)
    }

    fn walking_cache(&self) -> std::sync::MutexGuard<'_, WalkingCache> {
        self.inner.walking.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Builds the databases of `specs` one after another on a thread of their own, one
    /// core at a time (and one background build at a time: later calls wait for the earlier
    /// ones) so that a server keeps the other cores for its requests, skipping those
    /// already on disk, and keeps them (saved when the handle has a directory). [`Tables::background`] tells how far it got; a solve planned after a
    /// build finished uses its tables (the planner asks [`Tables::has_database`]).
    pub fn build_in_background(&self, name: &str, specs: Vec<PatternSpec>) {
        let job = BackgroundJob {
            name: name.to_string(),
            state: BackgroundState::Waiting,
            done: 0,
            total: specs.iter().map(PatternSpec::entries).sum(),
        };
        let index = {
            let mut jobs = self
                .inner
                .background
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            jobs.push(job);
            jobs.len() - 1
        };
        let tables = self.clone();
        std::thread::spawn(move || tables.run_background(index, specs));
    }

    fn run_background(&self, index: usize, specs: Vec<PatternSpec>) {
        let set = |f: &dyn Fn(&mut BackgroundJob)| {
            let mut jobs = self
                .inner
                .background
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            f(&mut jobs[index]);
        };
        // One background build at a time: the others wait their turn.
        let _turn = self
            .inner
            .background_turn
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let started = Instant::now();
        set(&|j| j.state = BackgroundState::Building);
        for spec in &specs {
            if !self.has_database(spec) {
                let result =
                    self.inner
                        .databases
                        .get(spec, BuildPolicy::IfMissing, 1, &Limits::none());
                if let Err(e) = result {
                    let message = e.to_string();
                    set(&|j| j.state = BackgroundState::Failed(message.clone()));
                    return;
                }
            }
            let entries = spec.entries();
            set(&|j| j.done += entries);
        }
        let seconds = started.elapsed().as_secs_f64();
        set(&|j| j.state = BackgroundState::Ready { seconds });
    }

    /// The background builds started on this handle, oldest first.
    pub fn background(&self) -> Vec<BackgroundJob> {
        self.inner
            .background
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

/// One background build ([`Tables::build_in_background`]).
#[derive(Debug, Clone, PartialEq)]
pub struct BackgroundJob {
    /// What is built, e.g. `pdb:7-8 for 4x4 (standard goal)`.
    pub name: String,
    /// Where it stands.
    pub state: BackgroundState,
    /// Entries of the databases finished so far.
    pub done: u64,
    /// Entries of all its databases.
    pub total: u64,
}

/// The state of a background build.
#[derive(Debug, Clone, PartialEq)]
pub enum BackgroundState {
    /// Not started yet.
    Waiting,
    /// Running.
    Building,
    /// Every database is on disk (or in memory); the build took this long.
    Ready {
        /// Seconds the build took.
        seconds: f64,
    },
    /// A build failed; the message says why.
    Failed(String),
}

type WalkingKey = (usize, Vec<Tile>);

/// Walking-distance tables by goal, least recently used first.
#[derive(Default)]
struct WalkingCache {
    entries: Vec<(WalkingKey, Arc<WalkingDistance>)>,
}

impl WalkingCache {
    fn get(&mut self, key: &WalkingKey) -> Option<Arc<WalkingDistance>> {
        let at = self.entries.iter().position(|(k, _)| k == key)?;
        let entry = self.entries.remove(at);
        let wd = entry.1.clone();
        self.entries.push(entry);
        Some(wd)
    }

    fn insert(&mut self, key: WalkingKey, wd: Arc<WalkingDistance>) {
        self.entries.retain(|(k, _)| k != &key);
        self.entries.push((key, wd));
        while self.entries.len() > 1
            && self
                .entries
                .iter()
                .map(|(_, w)| w.memory_bytes())
                .sum::<usize>()
                > WALKING_DISTANCE_BUDGET
        {
            self.entries.remove(0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walking_distance_tables_are_shared_and_bounded() {
        let tables = Tables::in_memory();
        let goal = Board::solved(4, 4).unwrap();
        let a = tables.walking_distance(&goal, &Limits::none()).unwrap();
        let b = tables
            .clone()
            .walking_distance(&goal, &Limits::none())
            .unwrap();
        assert!(Arc::ptr_eq(&a, &b), "clones share one cache");
        let other = Tables::in_memory()
            .walking_distance(&goal, &Limits::none())
            .unwrap();
        assert!(!Arc::ptr_eq(&a, &other), "handles do not share");
        // Many goals: the cache stays within its budget.
        for t in 1..40u32 {
            let mut tiles: Vec<u32> = (0..8).collect();
            tiles.swap(0, (t % 7 + 1) as usize);
            tiles.rotate_left((t % 8) as usize);
            let g = Board::from_tiles(2, 4, tiles).unwrap();
            tables.walking_distance(&g, &Limits::none()).unwrap();
        }
        let held: usize = tables
            .walking_cache()
            .entries
            .iter()
            .map(|(_, w)| w.memory_bytes())
            .sum();
        assert!(held <= WALKING_DISTANCE_BUDGET);
    }

    #[test]
    fn in_memory_handles_build_without_a_directory() {
        let tables = Tables::in_memory();
        let goal = Board::solved(2, 4).unwrap();
        let spec = &PdbPreset::of(&[7]).partition(&goal).unwrap()[0];
        assert!(!tables.has_database(spec));
        assert!(tables
            .database(spec, BuildPolicy::Never, &Limits::none())
            .is_err());
        let db = tables
            .database(spec, BuildPolicy::IfMissing, &Limits::none())
            .unwrap();
        assert!(tables.has_database(spec));
        assert!(Arc::ptr_eq(
            &db,
            &tables
                .database(spec, BuildPolicy::Never, &Limits::none())
                .unwrap()
        ));
        assert!(tables.dir().is_none());
    }

    #[test]
    fn a_table_build_obeys_the_deadline_the_cancel_flag_and_the_memory_budget() {
        use crate::limits::LimitHit;
        use std::sync::atomic::AtomicBool;
        let goal = Board::solved(4, 4).unwrap();
        let tables = Tables::in_memory();
        let stopped_by = |limits: &Limits| match tables.pdb_heuristic(
            PdbPreset::P555,
            &goal,
            BuildPolicy::IfMissing,
            limits,
        ) {
            Err(PdbError::Stopped { hit, .. }) => hit,
            other => panic!("expected a stopped build, got {:?}", other.map(|_| ())),
        };
        let past = Limits::none().with_timeout(std::time::Duration::ZERO);
        assert_eq!(stopped_by(&past), LimitHit::Time);
        let cancel = Limits::none().with_cancel(Arc::new(AtomicBool::new(true)));
        assert_eq!(stopped_by(&cancel), LimitHit::Cancelled);
        let small = Limits::none().with_max_memory(1 << 10);
        assert_eq!(stopped_by(&small), LimitHit::Memory);
        // A node budget is the search's: it does not stop the build.
        let nodes = Limits::none().with_max_nodes(0);
        // Nothing of the stopped builds was kept; the next caller builds the whole table.
        let spec = &PdbPreset::P555.partition(&goal).unwrap()[0];
        assert!(!tables.has_database(spec));
        tables
            .pdb_heuristic(PdbPreset::P555, &goal, BuildPolicy::IfMissing, &nodes)
            .unwrap();
        assert!(tables.has_database(spec));
        // A stopped build reaches a solver as a limit, not as an unsupported board.
        let err: SolveError = PdbError::Stopped {
            hit: LimitHit::Time,
            what: String::new(),
        }
        .into();
        assert!(matches!(
            err,
            SolveError::Limit {
                hit: LimitHit::Time,
                ..
            }
        ));
    }
}
