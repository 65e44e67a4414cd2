//! Where databases live, and the process-wide cache of loaded ones.
//!
//! The directory is, in order: the one given to [`set_cache_dir`] (the CLI's `--pdb-dir`), the
//! `TAQUIN_PDB_DIR` environment variable, `$XDG_CACHE_HOME/taquin`, `~/.cache/taquin`.
//!
//! [`load_or_build`] returns a database already in memory, or loads its file, or (when the file
//! is missing, damaged or foreign) builds it on every core and saves it. Each database is loaded
//! or built once per process, however many solves (bench, batch, web requests) ask for it; two
//! threads asking at once wait for the same build. Long steps are reported as [`PdbEvent`]s to
//! the observer set with [`set_observer`]: the core draws nothing itself.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, RwLock};
use std::time::{Duration, Instant};

use super::build::{self, BuildProgress};
use super::table::PatternDb;
use super::{store, PatternSpec, PdbError};

/// The environment variable naming the database directory.
pub const ENV_DIR: &str = "TAQUIN_PDB_DIR";

/// Something the cache did or is doing, for a progress display.
#[derive(Debug, Clone)]
pub enum PdbEvent {
    /// A file is being read.
    Loading {
        /// The file.
        path: PathBuf,
    },
    /// A file was read and checked.
    Loaded {
        /// The file.
        path: PathBuf,
        /// Its size.
        bytes: u64,
        /// Time to read and check it.
        elapsed: Duration,
    },
    /// A file was rejected; it is rebuilt next.
    Rejected {
        /// Why, with the path.
        error: String,
    },
    /// A build starts.
    BuildStarted {
        /// What is built.
        spec: PatternSpec,
        /// Entries of the table.
        entries: u64,
        /// Threads used.
        threads: usize,
        /// Rough duration.
        estimate: Duration,
        /// Memory the build needs at its peak.
        peak_bytes: u64,
        /// The board symmetry that halves the search, if the pattern has one (e.g.
        /// "left-right").
        symmetry: Option<&'static str>,
    },
    /// A build advanced.
    BuildProgress(BuildProgress),
    /// A build ended.
    BuildFinished {
        /// What was built.
        spec: PatternSpec,
        /// How long it took.
        elapsed: Duration,
    },
    /// A built database was saved.
    Saved {
        /// The file.
        path: PathBuf,
    },
    /// A built database could not be saved; it is used from memory for this process.
    SaveFailed {
        /// Why.
        error: String,
    },
}

/// The observer of [`PdbEvent`]s (see [`set_observer`]).
pub type Observer = Arc<dyn Fn(&PdbEvent) + Send + Sync>;

fn dir_override() -> &'static RwLock<Option<PathBuf>> {
    static DIR: OnceLock<RwLock<Option<PathBuf>>> = OnceLock::new();
    DIR.get_or_init(|| RwLock::new(None))
}

fn observer() -> &'static RwLock<Option<Observer>> {
    static OBSERVER: OnceLock<RwLock<Option<Observer>>> = OnceLock::new();
    OBSERVER.get_or_init(|| RwLock::new(None))
}

type Slot = Arc<Mutex<Option<Arc<PatternDb>>>>;

fn loaded() -> &'static Mutex<HashMap<PathBuf, Slot>> {
    static LOADED: OnceLock<Mutex<HashMap<PathBuf, Slot>>> = OnceLock::new();
    LOADED.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Uses `dir` for every later load and build of this process (`None`: back to the default).
pub fn set_cache_dir(dir: Option<PathBuf>) {
    *dir_override().write().unwrap_or_else(|e| e.into_inner()) = dir;
}

/// Sends every later [`PdbEvent`] to `f` (`None`: to nobody).
pub fn set_observer(f: Option<Observer>) {
    *observer().write().unwrap_or_else(|e| e.into_inner()) = f;
}

fn emit(event: PdbEvent) {
    let f = observer().read().unwrap_or_else(|e| e.into_inner()).clone();
    if let Some(f) = f {
        f(&event);
    }
}

/// The database directory in force (see the module documentation for the order).
pub fn cache_dir() -> Result<PathBuf, PdbError> {
    if let Some(d) = dir_override()
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
    {
        return Ok(d);
    }
    let non_empty = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(d) = non_empty(ENV_DIR) {
        return Ok(PathBuf::from(d));
    }
    if let Some(d) = non_empty("XDG_CACHE_HOME") {
        return Ok(PathBuf::from(d).join("taquin"));
    }
    if let Some(home) = non_empty("HOME") {
        return Ok(PathBuf::from(home).join(".cache").join("taquin"));
    }
    Err(PdbError::Unsupported(format!(
        "no directory for pattern databases: set {ENV_DIR} or pass --pdb-dir"
    )))
}

/// The database of `spec` from the cache directory: from memory, from its file, or built (and
/// saved) when the file is missing or rejected.
pub fn load_or_build(spec: &PatternSpec) -> Result<Arc<PatternDb>, PdbError> {
    let dir = cache_dir()?;
    get(&dir, spec, false)
}

/// True when the database of `spec` is in memory or has a file in the cache directory, so that
/// using it costs at most a load, never a build. A server can refuse a pattern-database request
/// (or build ahead of time) when this is false.
pub fn available(spec: &PatternSpec) -> bool {
    let Ok(dir) = cache_dir() else {
        return false;
    };
    let path = store::path_in(&dir, spec);
    let in_memory = loaded()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&path)
        .is_some_and(|slot| slot.try_lock().is_ok_and(|db| db.is_some()));
    in_memory || path.exists()
}

/// Drops this process's in-memory copy of the database of `spec` in `dir` (the file stays), so
/// that a command building several databases one after another holds one at a time. Holders
/// of an `Arc` from an earlier [`get`] keep theirs.
pub fn forget(dir: &Path, spec: &PatternSpec) {
    let path = store::path_in(dir, spec);
    loaded()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .remove(&path);
}

/// Builds the database of `spec` in `dir` even if a valid file exists, replacing it.
pub fn rebuild(dir: &Path, spec: &PatternSpec) -> Result<Arc<PatternDb>, PdbError> {
    get(dir, spec, true)
}

/// The database of `spec` in `dir`; `force` rebuilds it.
pub fn get(dir: &Path, spec: &PatternSpec, force: bool) -> Result<Arc<PatternDb>, PdbError> {
    let path = store::path_in(dir, spec);
    let slot = loaded()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry(path.clone())
        .or_default()
        .clone();
    // Holding the slot makes a second asker wait for the first one's load or build.
    let mut held = slot.lock().unwrap_or_else(|e| e.into_inner());
    if !force {
        if let Some(db) = held.as_ref() {
            return Ok(db.clone());
        }
        if path.exists() {
            emit(PdbEvent::Loading { path: path.clone() });
            let started = Instant::now();
            match store::load(&path, Some(spec)) {
                Ok(db) => {
                    emit(PdbEvent::Loaded {
                        path: path.clone(),
                        bytes: db.bytes() as u64,
                        elapsed: started.elapsed(),
                    });
                    let db = Arc::new(db);
                    *held = Some(db.clone());
                    return Ok(db);
                }
                Err(e @ PdbError::Corrupt { .. }) => emit(PdbEvent::Rejected {
                    error: e.to_string(),
                }),
                Err(e) => return Err(e),
            }
        }
    }
    let db = Arc::new(build_reporting(spec, 0)?);
    match store::save(&db, &path) {
        Ok(()) => emit(PdbEvent::Saved { path }),
        Err(e) => emit(PdbEvent::SaveFailed {
            error: e.to_string(),
        }),
    }
    *held = Some(db.clone());
    Ok(db)
}

/// Builds `spec` with `threads` threads (0: every core), reporting to the observer.
pub fn build_reporting(spec: &PatternSpec, threads: usize) -> Result<PatternDb, PdbError> {
    let threads = if threads == 0 {
        build::default_threads()
    } else {
        threads
    };
    emit(PdbEvent::BuildStarted {
        spec: spec.clone(),
        entries: spec.entries(),
        threads,
        estimate: Duration::from_secs_f64(build::estimate_seconds(spec, threads)),
        peak_bytes: build::peak_bytes(spec),
        symmetry: build::symmetry(spec),
    });
    let started = Instant::now();
    let report = |p: BuildProgress| emit(PdbEvent::BuildProgress(p));
    let db = build::build(spec, threads, Some(&report))?;
    emit(PdbEvent::BuildFinished {
        spec: spec.clone(),
        elapsed: started.elapsed(),
    });
    Ok(db)
}

/// Forgets every database held in memory (they are reloaded from their files on next use).
pub fn clear_memory() {
    loaded().lock().unwrap_or_else(|e| e.into_inner()).clear();
}
