//! Where databases live, and the cache of loaded ones that a [`crate::Tables`] handle owns.
//!
//! The default directory is, in order: the `TAQUIN_PDB_DIR` environment variable,
//! `$XDG_CACHE_HOME/taquin`, `~/.cache/taquin` ([`default_dir`]); a handle opened on another
//! directory (the CLI's `--pdb-dir`) uses that one.
//!
//! The cache returns a database already in memory, or maps its file, or (when the
//! file is missing, damaged or foreign, and building is allowed) builds it on every core and
//! saves it. Each database is loaded or built once per handle, however many solves (bench,
//! batch, web requests) ask for it; two threads asking at once wait for the same build. Long
//! steps are reported as [`PdbEvent`]s to the handle's observer: the core draws nothing itself.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use crate::clock::Instant;
use crate::limits::Limits;

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
    /// A file that may not be rebuilt here (a file of the planner's large sets, which are
    /// built only on request) failed its check: it is not used, and the planner passes over
    /// its set until the file changes. Heard once per file, not at each later use.
    Damaged {
        /// Why, with the path and the command that builds it anew.
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
    },
    /// A build advanced.
    BuildProgress {
        /// What is built (builds may run side by side, in a server).
        spec: PatternSpec,
        /// How far it got.
        progress: BuildProgress,
    },
    /// A build ended.
    BuildFinished {
        /// What was built.
        spec: PatternSpec,
        /// How long it took.
        elapsed: Duration,
    },
    /// A build was stopped by a limit of the caller that waited on it; nothing is kept.
    BuildStopped {
        /// What was being built.
        spec: PatternSpec,
        /// Which limit (its `Display` says it in words).
        hit: crate::limits::LimitHit,
    },
    /// A built database was saved.
    Saved {
        /// What was saved.
        spec: PatternSpec,
        /// The file.
        path: PathBuf,
    },
    /// A built database could not be saved; it is used from memory for this process.
    SaveFailed {
        /// What was built.
        spec: PatternSpec,
        /// Why.
        error: String,
    },
}

/// The observer of [`PdbEvent`]s (see [`crate::Tables::set_observer`]).
pub type Observer = Arc<dyn Fn(&PdbEvent) + Send + Sync>;

/// The default database directory (see the module documentation for the order).
pub fn default_dir() -> Result<PathBuf, PdbError> {
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
        "no directory for pattern databases: set {ENV_DIR}, or choose a directory for them"
    )))
}

/// Whether fetching a database ([`crate::Tables::database`]) may build a database that has no valid file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BuildPolicy {
    /// Load it, or build (and save) it when it has no valid file.
    IfMissing,
    /// Load it; fail when it has no valid file.
    Never,
    /// Build it even when a valid file exists, and replace the file.
    Force,
}

type Slot = Arc<Mutex<Option<Arc<PatternDb>>>>;

/// A file that failed its check where nothing may rebuild it.
struct Damaged {
    /// What identifies the file that failed (device, inode, size, times: see
    /// [`store::file_identity`]), taken before its check, so that a file put in its place
    /// while it was checked is not taken for it.
    identity: Option<store::FileIdentity>,
    path: PathBuf,
    reason: String,
}

impl Damaged {
    /// The error that says so, for the database of `spec`.
    fn error(&self, spec: &PatternSpec) -> PdbError {
        PdbError::Damaged {
            path: self.path.clone(),
            reason: self.reason.clone(),
            rebuild: spec.rebuild_command(),
        }
    }
}

/// The databases one handle has loaded or built, by spec, and where their files live.
pub(crate) struct DatabaseCache {
    dir: Option<PathBuf>,
    loaded: Mutex<HashMap<PatternSpec, Slot>>,
    /// Databases whose file failed its check where nothing may rebuild it: no longer
    /// [`DatabaseCache::available`] while the file stays the one that failed, so that the
    /// planner plans without them (a server picks up a file rebuilt or put back).
    damaged: Mutex<HashMap<PatternSpec, Damaged>>,
    observer: RwLock<Option<Observer>>,
}

impl DatabaseCache {
    /// A cache over the files of `dir` (`None`: memory only, nothing read or saved).
    pub(crate) fn new(dir: Option<PathBuf>) -> DatabaseCache {
        DatabaseCache {
            dir,
            loaded: Mutex::new(HashMap::new()),
            damaged: Mutex::new(HashMap::new()),
            observer: RwLock::new(None),
        }
    }

    pub(crate) fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    pub(crate) fn set_observer(&self, f: Option<Observer>) {
        *self.observer.write().unwrap_or_else(|e| e.into_inner()) = f;
    }

    fn emit(&self, event: PdbEvent) {
        let f = self
            .observer
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        if let Some(f) = f {
            f(&event);
        }
    }

    fn slot(&self, spec: &PatternSpec) -> Slot {
        self.loaded
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(spec.clone())
            .or_default()
            .clone()
    }

    /// True when the database of `spec` is in memory or has a file in the directory whose
    /// header describes it (the pattern, the entries, the file's length), so that using it
    /// costs at most a load, never a build. A file cut short, of another version or of another
    /// pattern would only fail its load: the planner, asking this, takes the next best set
    /// instead. (A file damaged inside is found by its checksum when it is loaded.)
    pub(crate) fn available(&self, spec: &PatternSpec) -> bool {
        if self.is_damaged(spec) {
            return false;
        }
        let in_memory = self
            .loaded
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(spec)
            .is_some_and(|slot| slot.try_lock().is_ok_and(|db| db.is_some()));
        in_memory
            || self.dir.as_deref().is_some_and(|dir| {
                store::info(&store::path_in(dir, spec)).is_ok_and(|info| info.spec == *spec)
            })
    }

    /// True when the file of `spec` failed its check and nothing here may rebuild it.
    /// (Until the file changes: a rebuilt file is used again.)
    pub(crate) fn is_damaged(&self, spec: &PatternSpec) -> bool {
        self.damaged_error(spec).is_some()
    }

    /// The error of the file of `spec` when it is still the one that failed its check.
    fn damaged_error(&self, spec: &PatternSpec) -> Option<PdbError> {
        let damaged = self.damaged.lock().unwrap_or_else(|e| e.into_inner());
        let known = damaged.get(spec)?;
        (store::file_identity(&known.path) == known.identity).then(|| known.error(spec))
    }

    /// Drops the in-memory copy of `spec` (the file stays), so that a command building several
    /// databases one after another holds one at a time. Holders of an `Arc` keep theirs.
    pub(crate) fn forget(&self, spec: &PatternSpec) {
        self.loaded
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(spec);
    }

    /// Forgets every database held in memory (mapped again from their files on next use).
    pub(crate) fn clear(&self) {
        self.loaded
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
    }

    /// The database of `spec`, as `policy` allows, built (if it comes to that) on `threads`
    /// threads (0: every core) within `limits`.
    pub(crate) fn get(
        &self,
        spec: &PatternSpec,
        policy: BuildPolicy,
        threads: usize,
        limits: &Limits,
    ) -> Result<Arc<PatternDb>, PdbError> {
        let slot = self.slot(spec);
        // Holding the slot makes a second asker wait for the first one's load or build.
        let mut held = slot.lock().unwrap_or_else(|e| e.into_inner());
        let path = self.dir.as_deref().map(|d| store::path_in(d, spec));
        if policy != BuildPolicy::Force {
            if let Some(db) = held.as_ref() {
                return Ok(db.clone());
            }
            // Told once: a second asker (another job of a batch, another request) gets the
            // same error without checking the file again.
            if policy == BuildPolicy::Never {
                if let Some(damaged) = self.damaged_error(spec) {
                    return Err(damaged);
                }
            }
            if let Some(path) = path.as_ref().filter(|p| p.exists()) {
                self.emit(PdbEvent::Loading { path: path.clone() });
                let started = Instant::now();
                let identity = store::file_identity(path);
                match store::open(path, Some(spec)) {
                    Ok(db) => {
                        self.emit(PdbEvent::Loaded {
                            path: path.clone(),
                            bytes: db.bytes() as u64,
                            elapsed: started.elapsed(),
                        });
                        let db = Arc::new(db);
                        *held = Some(db.clone());
                        return Ok(db);
                    }
                    Err(e @ PdbError::Corrupt { .. }) if policy == BuildPolicy::IfMissing => self
                        .emit(PdbEvent::Rejected {
                            error: e.to_string(),
                        }),
                    // Not "rebuilt on next use": nothing here may build it.
                    Err(PdbError::Corrupt { path, reason }) => {
                        let known = Damaged {
                            identity,
                            path,
                            reason,
                        };
                        let error = known.error(spec);
                        self.damaged
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .insert(spec.clone(), known);
                        self.emit(PdbEvent::Damaged {
                            error: error.to_string(),
                        });
                        return Err(error);
                    }
                    Err(e) => return Err(e),
                }
            }
            if policy == BuildPolicy::Never {
                return Err(PdbError::Unsupported(format!(
                    "the database of {spec} is not built: build it with `taquin pdb build`"
                )));
            }
        }
        let db = Arc::new(self.build_reporting(spec, threads, limits)?);
        if let Some(path) = path {
            match store::save(&db, &path) {
                Ok(()) => self.emit(PdbEvent::Saved {
                    spec: spec.clone(),
                    path,
                }),
                Err(e) => self.emit(PdbEvent::SaveFailed {
                    spec: spec.clone(),
                    error: e.to_string(),
                }),
            }
        }
        *held = Some(db.clone());
        Ok(db)
    }

    /// Builds `spec` with `threads` threads (0: every core) within `limits` (see
    /// [`build::build`]), reporting to the observer.
    pub(crate) fn build_reporting(
        &self,
        spec: &PatternSpec,
        threads: usize,
        limits: &Limits,
    ) -> Result<PatternDb, PdbError> {
        let threads = if threads == 0 {
            build::default_threads()
        } else {
            threads
        };
        build::check_buildable(spec)?;
        self.emit(PdbEvent::BuildStarted {
            spec: spec.clone(),
            entries: spec.entries(),
            threads,
            estimate: Duration::from_secs_f64(build::estimate_seconds(spec, threads)),
            peak_bytes: build::peak_bytes(spec),
        });
        let started = Instant::now();
        let report = |progress: BuildProgress| {
            self.emit(PdbEvent::BuildProgress {
                spec: spec.clone(),
                progress,
            })
        };
        let db = build::build(spec, threads, Some(&report), limits).inspect_err(|e| {
            if let PdbError::Stopped { hit, .. } = e {
                self.emit(PdbEvent::BuildStopped {
                    spec: spec.clone(),
                    hit: *hit,
                });
            }
        })?;
        self.emit(PdbEvent::BuildFinished {
            spec: spec.clone(),
            elapsed: started.elapsed(),
        });
        Ok(db)
    }
}
