//! `taquin pdb build|list|verify`: manage the pattern databases in the cache directory, and the
//! progress display every command uses when a solve has to load or build one.
//!
//! The directory is `--pdb-dir`, else `TAQUIN_PDB_DIR`, else `$XDG_CACHE_HOME/taquin`, else
//! `~/.cache/taquin`.

use std::collections::HashMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use taquin::metric::Metric;
use taquin::pdb::{self, store, BuildPolicy, PatternSpec, PdbEvent, PdbPreset};
use taquin::symmetry::Symmetry;
use taquin::{Board, Tables};

use crate::common::{self, EXIT_FAILED};

/// Arguments of `taquin pdb`.
#[derive(clap::Args, Debug)]
pub struct PdbArgs {
    #[command(subcommand)]
    pub command: PdbCommand,
}

/// The `taquin pdb` subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum PdbCommand {
    /// Build databases (on every core) and save them: `taquin pdb build --size 4x4` builds the
    /// set the planner prefers for 4x4 boards; `taquin pdb build 7-8 --goal korf` a named one.
    Build(BuildArgs),
    /// List the database files in the directory, with the metric each serves (`stm`:
    /// single-tile moves, `mtm`: multi-tile moves, `solve --metric mtm`), board, pattern and
    /// size.
    List,
    /// Check database files completely (header, size, checksum); exit 1 if one is bad.
    Verify {
        /// Files to check (default: every .pdb and .mtm file in the directory).
        files: Vec<PathBuf>,
    },
}

/// Arguments of `taquin pdb build`.
#[derive(clap::Args, Debug)]
pub struct BuildArgs {
    /// Partitions by group sizes: 8 (8-puzzle), 5-5-5, 6-6-3, 7-8 (15-puzzle), 6-6-6-6
    /// (24-puzzle), or any sizes adding up to the tiles of --size; `pdb:` prefix allowed.
    /// None: the set the planner prefers for --size.
    #[arg(value_name = "PRESET")]
    pub presets: Vec<String>,
    /// A custom partition as groups of tiles of the goal, e.g. "1 2 3 4 5 6 7/8 9 10 11 12 13 14 15"
    /// (needs --size or --goal).
    #[arg(long, value_name = "GROUPS")]
    pub partition: Option<String>,
    /// Board size, e.g. 4x4: alone, builds the set the planner prefers for that size (the
    /// zero-aware 7-8 on 4x4, 196 MB, about 30 s; on 5x5 the zero-aware 6-6-6-6 and 7-7-7-3,
    /// 1.6 GB, a few minutes; see README); needed by --partition and by sizes of non-square
    /// boards.
    #[arg(long, value_name = "WxH", value_parser = common::parse_size)]
    pub size: Option<(usize, usize)>,
    /// The goal the databases serve, as `solve --goal` takes it: `standard` (1..N-1 then the
    /// blank, the default), `korf` (the blank first, as in Korf's instance files in bench/),
    /// `snail` (1 in the top-left corner, spiralling clockwise to the blank), a board such as
    /// "0 1 2/3 4 5/6 7 8", or a file holding one.
    #[arg(long, default_value = "standard")]
    pub goal: String,
    /// Build even when a valid file exists, and replace it. Without it, a build checks the
    /// files there, keeps the valid ones and builds only those missing or damaged.
    #[arg(long)]
    pub force: bool,
    /// `mtm`: build the multi-tile tables of --size instead (the standard set `solve --metric
    /// mtm` uses when it is on disk: 6 tiles and the blank per table on 4x4, about a minute).
    #[arg(long, default_value = "stm", value_parser = crate::interchange::parse_metric)]
    pub metric: Metric,
    /// Stop after this many seconds in all (fractions allowed): the tables built before the
    /// deadline are saved, the one under way is not, and the same command builds the rest.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = crate::common::seconds_value)]
    pub timeout: Option<f64>,
    /// Memory budget in MiB of each table's build (with `--metric mtm`, of the set's tables
    /// together): a table whose build needs more is refused before it starts. Default: none
    /// (the 5x5 set's largest table needs about 1.5 GiB).
    #[arg(long, value_name = "MIB", allow_negative_numbers = true, value_parser = crate::common::positive_number::<usize>)]
    pub max_memory: Option<usize>,
}

impl BuildArgs {
    /// The limits of the whole command (`--timeout` counts from now), with the process-wide
    /// Ctrl-C flag: no node budget, which bounds searches, not builds.
    fn limits(&self) -> Result<taquin::Limits> {
        common::LimitArgs {
            timeout: self.timeout,
            max_nodes: None,
            max_memory: self.max_memory,
        }
        .limits()
    }
}

/// The table handle of this process: over `--pdb-dir`, else the default directory (memory
/// only when there is none), showing loads and builds on standard error: a progress bar with
/// the expected duration on a terminal, plain lines otherwise. Builds expected to take under a
/// second of one core (the planner's quick tables) pass silently.
pub fn open_tables(pdb_dir: Option<PathBuf>) -> Tables {
    let tables = match pdb_dir {
        Some(dir) => Tables::open(dir),
        None => Tables::open_default().unwrap_or_else(|_| Tables::in_memory()),
    };
    tables.set_observer(Some(observer(true)));
    tables
}

/// Builds expected to take less than this of one core's work pass without a word (the same
/// builds on any machine, however many cores it has).
const ANNOUNCE_BUILDS_FROM: Duration = Duration::from_secs(1);

/// What the observer remembers between events: the bar on a terminal, and the builds it
/// announced until their file is saved, each with the last tenth of its placements it printed.
/// Builds can run side by side (a server's background build and a request's): off a terminal,
/// each one's lines carry its name; on a terminal they share the one bar.
#[derive(Default)]
struct Shown {
    bar: Option<ProgressBar>,
    builds: HashMap<PatternSpec, u64>,
}

/// The display of loads and builds; `advise_build`: a build a limit stopped ends with the
/// advice to build the tables once with `taquin pdb build` (not within that command itself).
fn observer(advise_build: bool) -> pdb::cache::Observer {
    let terminal = std::io::stderr().is_terminal();
    let shown = Mutex::new(Shown::default());
    Arc::new(move |event: &PdbEvent| {
        let mut shown = shown.lock().unwrap_or_else(|e| e.into_inner());
        let Shown { bar, builds } = &mut *shown;
        match event {
            PdbEvent::BuildStarted {
                spec,
                estimate,
                threads,
                ..
            } if estimate.mul_f64(*threads as f64) < ANNOUNCE_BUILDS_FROM => {
                // Quiet, even if an earlier build of it (kept in memory only) was not.
                builds.remove(spec);
            }
            PdbEvent::BuildStarted {
                spec,
                entries,
                threads,
                estimate,
                peak_bytes,
            } => {
                builds.insert(spec.clone(), 0);
                let line = format!(
                    "building the pattern database of {spec}: {entries} entries on {threads} threads, expected to take {} and {} of memory",
                    common::human_duration(*estimate),
                    human_bytes(*peak_bytes)
                );
                if terminal {
                    let b = common::shown(ProgressBar::new(1000));
                    b.set_style(
                        ProgressStyle::with_template(
                            "{msg}\n[{elapsed_precise}] {wide_bar} {percent:>3}% (eta {eta})",
                        )
                        .expect("valid template"),
                    );
                    b.set_message(line);
                    b.enable_steady_tick(Duration::from_millis(200));
                    *bar = Some(b);
                } else {
                    common::print_line(&line);
                }
            }
            PdbEvent::BuildProgress { spec, progress: p } => {
                // Off a terminal (a log, a CI job), a line at each tenth of the placements,
                // so that a build of minutes shows that it goes on.
                let Some(tenth) = builds.get_mut(spec) else {
                    return;
                };
                if let Some(b) = bar.as_ref() {
                    b.set_position(p.done * 1000 / p.total.max(1));
                } else if !terminal {
                    let now = p.done * 10 / p.total.max(1);
                    if now > *tenth && now < 10 {
                        *tenth = now;
                        common::print_line(&format!(
                            "  {spec}: {} % of the placements known (layer {})",
                            now * 10,
                            p.depth
                        ));
                    }
                }
            }
            PdbEvent::BuildFinished { spec, elapsed } => {
                // Still followed: its file is saved next.
                if !builds.contains_key(spec) {
                    return;
                }
                if let Some(b) = bar.take() {
                    b.finish_and_clear();
                }
                common::print_line(&format!(
                    "built the pattern database of {spec} in {:.1} s",
                    elapsed.as_secs_f64()
                ));
            }
            PdbEvent::BuildStopped { spec, hit } => {
                if builds.remove(spec).is_none() {
                    return;
                }
                if let Some(b) = bar.take() {
                    b.finish_and_clear();
                }
                // A limit's stop says how to build once and for all; Ctrl-C was the user's, and
                // `pdb build` says what to do itself.
                let advice = if *hit == taquin::LimitHit::Cancelled || !advise_build {
                    ""
                } else {
                    " (a build given the time to finish is saved for every later run: `taquin \
                     pdb build` makes the tables once, without a limit)"
                };
                common::print_line(&format!(
                    "stopped building the pattern database of {spec}: {hit}; nothing was \
                     saved{advice}"
                ));
            }
            PdbEvent::Loading { path } => {
                if terminal {
                    let b = common::shown(ProgressBar::new_spinner());
                    b.set_message(format!("loading {}", path.display()));
                    b.enable_steady_tick(Duration::from_millis(120));
                    *bar = Some(b);
                }
            }
            PdbEvent::Loaded { .. } => {
                if let Some(b) = bar.take() {
                    b.finish_and_clear();
                }
            }
            PdbEvent::Rejected { error } => {
                if let Some(b) = bar.take() {
                    b.finish_and_clear();
                }
                common::print_line(&format!("warning: {error}; rebuilding it"));
            }
            PdbEvent::Damaged { error } => {
                if let Some(b) = bar.take() {
                    b.finish_and_clear();
                }
                common::print_line(&format!(
                    "warning: {error}; the planner passes over this set until the file changes"
                ));
            }
            PdbEvent::Saved { spec, path } => {
                // A quiet build's file is saved quietly too.
                if builds.remove(spec).is_some() {
                    common::print_line(&format!("saved {}", path.display()));
                }
            }
            PdbEvent::SaveFailed { spec, error } => {
                builds.remove(spec);
                common::print_line(&format!(
                    "warning: could not save the database ({error}); it is used from memory"
                ))
            }
        }
    })
}

/// Runs `taquin pdb` on the directory of `tables`.
pub fn run(args: PdbArgs, tables: &Tables) -> Result<ExitCode> {
    let dir = tables.dir().map(Path::to_path_buf).with_context(|| {
        format!(
            "no directory for pattern databases: set {} or pass --pdb-dir",
            pdb::cache::ENV_DIR
        )
    })?;
    if dir.exists() && !dir.is_dir() {
        anyhow::bail!(
            "{} is not a directory: --pdb-dir must name a directory (it is created when missing)",
            dir.display()
        );
    }
    match args.command {
        PdbCommand::Build(b) => build(tables, &dir, b),
        PdbCommand::List => list(&dir),
        PdbCommand::Verify { files } => verify(&dir, files),
    }
}

/// The goal `--goal` names for `width x height` boards, read as `solve --goal` reads it: a
/// name (`standard`, `korf`, `snail`) laid out on the size, else a board, its file or `-`
/// (a file of that name comes first, as for `solve`).
fn goal_for(text: &str, width: usize, height: usize) -> Result<Board> {
    let goal = common::goal_from_text(text, width, height)?;
    anyhow::ensure!(
        goal.width() == width && goal.height() == height,
        "the goal is {}x{} but the databases are for {width}x{height} boards",
        goal.width(),
        goal.height()
    );
    Ok(goal)
}

/// The board a partition named by group sizes is for: `--size`, else the square board with
/// one more cell than the sizes have tiles.
fn board_for(preset: PdbPreset, size: Option<(usize, usize)>) -> Result<(usize, usize)> {
    if let Some(size) = size {
        return Ok(size);
    }
    let cells = preset.tiles() + 1;
    let side = (1..=8).find(|s| s * s == cells).with_context(|| {
        format!(
            "{preset} has {} tiles, no square board has {cells} cells: give --size WxH",
            preset.tiles()
        )
    })?;
    Ok((side, side))
}

fn build(tables: &Tables, dir: &Path, args: BuildArgs) -> Result<ExitCode> {
    tables.set_observer(Some(observer(false)));
    let size = args.size;
    if args.metric == Metric::Mtm {
        return build_mtm(tables, dir, size, &args);
    }
    let mut specs: Vec<PatternSpec> = Vec::new();
    for name in &args.presets {
        let preset = PdbPreset::parse(name).with_context(|| {
            format!("unknown partition '{name}': name group sizes such as 7-8, 5-5-5, 6-6-3, 6-6-6-6 or 8 (zpdb:7-8 for zero-aware tables)")
        })?;
        let (w, h) = board_for(preset, size)?;
        let goal = Symmetry::table_goal(&goal_for(&args.goal, w, h)?);
        specs.extend(preset.partition(&goal)?);
    }
    if let Some(groups) = &args.partition {
        let goal = match size {
            Some((w, h)) => goal_for(&args.goal, w, h)?,
            // A goal name has no size of its own: only a goal board gives one.
            None if taquin::goals::NamedGoal::from_name(&args.goal).is_some() => {
                anyhow::bail!(
                    "--partition needs the board's size: give --size WxH (or --goal with a \
                     board)"
                )
            }
            None => common::read_board(&args.goal, "goal")
                .context("--partition needs --size WxH, or --goal with a board")?,
        };
        let partition = pdb::partition_from_tiles(&goal, groups)?;
        // Tiles in no group are legal (their moves are counted by Manhattan distance alone),
        // but more often a slip than a choice: said, not refused.
        let grouped: Vec<usize> = partition.iter().flat_map(|s| s.cells.clone()).collect();
        let left_out: Vec<String> = (0..goal.len())
            .filter(|&c| c != goal.blank() && !grouped.contains(&c))
            .map(|c| goal.tiles()[c].to_string())
            .collect();
        if !left_out.is_empty() {
            eprintln!(
                "note: {} {} in no group: a search with these tables counts {} by Manhattan distance alone",
                if left_out.len() == 1 { "tile" } else { "tiles" },
                left_out.join(", ") + if left_out.len() == 1 { " is" } else { " are" },
                if left_out.len() == 1 { "its moves" } else { "their moves" }
            );
        }
        specs.extend(partition);
    }
    if specs.is_empty() {
        if let Some((w, h)) = size {
            anyhow::ensure!(
                w * h <= pdb::MAX_CELLS,
                "no pattern databases for {w}x{h} boards: they are built for boards of at most {} cells",
                pdb::MAX_CELLS
            );
            let preset = taquin::planner::preferred_set(w, h).with_context(|| {
                // Groups of five tiles, the rest in the last: a partition that builds quickly.
                let tiles = w * h - 1;
                let mut groups = vec!["5".to_string(); tiles / 5];
                if tiles % 5 > 0 {
                    groups.push((tiles % 5).to_string());
                }
                format!(
                    "no set to build for {w}x{h} boards: the planner guides their searches by \
                     linear conflict, as no set it knows does better there (BENCHMARKS.md); to \
                     build tables for -H anyway, name a partition of the {tiles} tiles (e.g. \
                     pdb:{})",
                    groups.join("-")
                )
            })?;
            let goal = Symmetry::table_goal(&goal_for(&args.goal, w, h)?);
            eprintln!("building {preset} for {w}x{h} boards");
            specs.extend(preset.partition(&goal)?);
        }
    }
    anyhow::ensure!(
        !specs.is_empty(),
        "nothing to build: give --size WxH (the set the planner prefers), name a partition (7-8, 6-6-6-6, ...) or give --partition"
    );
    let mut out = std::io::stdout().lock();
    // Ctrl-C and --timeout stop the build under way (within milliseconds); the tables already
    // built stay.
    let limits = args.limits()?;
    for spec in &specs {
        let path = store::path_in(dir, spec);
        let policy = if args.force {
            BuildPolicy::Force
        } else {
            BuildPolicy::IfMissing
        };
        // Whether the file was kept or written: a sound file on disk is loaded, not built
        // again (a damaged one is rebuilt, with a warning), unless --force. A file written
        // is a new file (renamed over the old one), so its inode tells, whatever the clock's
        // resolution.
        let written = || file_identity(&path);
        let before = written();
        let started = std::time::Instant::now();
        // A table to build whose build needs more than --max-memory is refused before the
        // observer says it starts (one on disk is loaded, whatever its build needs).
        let refused = (before.is_none() || args.force)
            .then(|| taquin::pdb::build::check_memory(spec, &limits).err())
            .flatten();
        let db = match refused.map_or_else(|| tables.database(spec, policy, &limits), Err) {
            // The observer said which build stopped, if it had said it started; a memory
            // limit's sentence says which table needs how much.
            Err(taquin::pdb::PdbError::Stopped { hit, what }) => {
                let said = (hit == taquin::LimitHit::Memory).then_some(what.as_str());
                return Ok(build_stopped(hit, said, true));
            }
            other => other?,
        };
        let what = match (before, written()) {
            (Some(a), Some(b)) if a == b => "already on disk (--force builds it again)".to_string(),
            (_, Some(_)) => format!("built in {}", common::millis(started.elapsed())),
            // The warning before this said why; the command's work is the file.
            (_, None) => anyhow::bail!(
                "the database of {spec} was built but could not be saved as {}: give a \
                 directory this user can write with --pdb-dir (or TAQUIN_PDB_DIR)",
                path.display()
            ),
        };
        writeln!(
            out,
            "{}  {}  {} entries, {} bits each, largest excess {}; {what}",
            path.display(),
            spec,
            db.entries(),
            db.bits(),
            db.max_excess()
        )?;
        // Saved: free it before the next build, so the peak is one build's, not their sum.
        drop(db);
        tables.forget(spec);
    }
    Ok(ExitCode::SUCCESS)
}

/// Says what a stopped `pdb build` leaves and what to do (`said`: what the limit stopped, when
/// the observer has not said it already; `smaller`: tables of smaller patterns can be named);
/// its exit code: 130 for Ctrl-C, 1 for `--timeout` or `--max-memory`.
fn build_stopped(hit: taquin::LimitHit, said: Option<&str>, smaller: bool) -> ExitCode {
    let said = said.map(|s| format!("{s}; ")).unwrap_or_default();
    match hit {
        taquin::LimitHit::Cancelled => {
            eprintln!(
                "build cancelled: the tables built before it are saved, the one under way is \
                 not; the same command builds the rest"
            );
            return ExitCode::from(common::EXIT_INTERRUPTED);
        }
        taquin::LimitHit::Memory => eprintln!(
            "{said}the tables built before it are saved; raise --max-memory{}",
            if smaller {
                ", or name a partition of smaller patterns"
            } else {
                ""
            }
        ),
        _ => eprintln!(
            "{said}{hit}: the tables built before it are saved, the one under way is not; the \
             same command with more time (--timeout) builds the rest"
        ),
    }
    ExitCode::from(EXIT_FAILED)
}

/// What tells a file from the one written in its place: its inode (on Unix), size and time of
/// modification; `None` when there is no file (a directory in its place is none either: the
/// table could not be saved there).
fn file_identity(path: &Path) -> Option<(u64, u64, std::time::SystemTime)> {
    let meta = std::fs::metadata(path).ok().filter(|m| m.is_file())?;
    #[cfg(unix)]
    let inode = std::os::unix::fs::MetadataExt::ino(&meta);
    #[cfg(not(unix))]
    let inode = 0;
    Some((inode, meta.len(), meta.modified().ok()?))
}

/// `taquin pdb build --metric mtm --size WxH`: the standard multi-tile set for that size.
fn build_mtm(
    tables: &Tables,
    dir: &Path,
    size: Option<(usize, usize)>,
    args: &BuildArgs,
) -> Result<ExitCode> {
    anyhow::ensure!(
        args.presets.is_empty() && args.partition.is_none(),
        "--metric mtm builds the multi-tile set of --size: leave out partition names and --partition"
    );
    let (w, h) = size.context("--metric mtm needs --size WxH, e.g. --size 4x4")?;
    let goal = goal_for(&args.goal, w, h)?;
    let set = taquin::mtm::sets::MtmSet::Standard;
    let specs = set.specs(&goal);
    anyhow::ensure!(
        !specs.is_empty(),
        "no multi-tile tables for {w}x{h} boards (at most 64 cells)"
    );
    if args.force {
        for spec in &specs {
            let _ = std::fs::remove_file(taquin::mtm::store::path_in(dir, spec));
        }
    }
    eprintln!("building {} for {w}x{h} boards", set.name(&goal));
    let report = |spec: &PatternSpec, done: Option<Duration>| match done {
        None => eprintln!("building the multi-tile table of {spec}"),
        Some(t) => eprintln!("built in {}", common::human_duration(t)),
    };
    let limits = args.limits()?;
    let dbs = match set.load(&goal, tables, true, &limits, Some(&report)) {
        // A build, not a search: no nodes or moves to tell of.
        // The set's own lines said which table was under way.
        Err(taquin::SolveError::Limit { hit, .. }) => {
            let said = format!(
                "the multi-tile tables of {} need more than the memory limit",
                set.name(&goal)
            );
            let said = (hit == taquin::LimitHit::Memory).then_some(said.as_str());
            return Ok(build_stopped(hit, said, false));
        }
        other => other?,
    };
    let mut out = std::io::stdout().lock();
    for db in dbs {
        writeln!(
            out,
            "{}  {}  {} entries, 8 bits each, largest distance {}",
            taquin::mtm::store::path_in(dir, db.spec()).display(),
            db.spec(),
            db.data().len(),
            db.max_distance()
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The metric a table file serves, told by its extension (the names `taquin` gives them:
/// `.pdb` single-tile tables, `.mtm` multi-tile ones); `None` for any other file.
fn file_metric(path: &Path) -> Option<Metric> {
    match path.extension()?.to_str()? {
        "pdb" => Some(Metric::Stm),
        "mtm" => Some(Metric::Mtm),
        _ => None,
    }
}

/// The line `list` prints under the directory's name, saying what the metric column means.
const METRIC_LEGEND: &str =
    "# metric: stm = single-tile moves (solve), mtm = multi-tile moves (solve --metric mtm)";

/// The table files of `dir`, both kinds, by name.
fn pdb_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    match std::fs::read_dir(dir) {
        Ok(entries) => {
            for entry in entries {
                let path = entry
                    .with_context(|| format!("reading {}", dir.display()))?
                    .path();
                if file_metric(&path).is_some() {
                    files.push(path);
                }
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e).with_context(|| format!("reading {}", dir.display())),
    }
    files.sort();
    Ok(files)
}

fn list(dir: &Path) -> Result<ExitCode> {
    let files = if dir.exists() {
        pdb_files(dir)?
    } else {
        Vec::new()
    };
    let mut out = std::io::stdout().lock();
    if files.is_empty() {
        let missing = if dir.exists() {
            ""
        } else {
            ", which does not exist yet (a build creates it)"
        };
        writeln!(
            out,
            "no pattern databases in {}{missing}: build them with `taquin pdb build --size \
             4x4`, or `taquin pdb build --size 4x4 --metric mtm` for the multi-tile metric",
            dir.display()
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(out, "# {}", dir.display())?;
    writeln!(out, "{METRIC_LEGEND}")?;
    for path in files {
        let name = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let metric = file_metric(&path).unwrap_or(Metric::Stm);
        // Both kinds in the same columns: name, metric, pattern, entries, bits, size.
        let info = match metric {
            Metric::Stm => store::info(&path).map(|i| (i.spec, i.entries, i.bits, i.bytes)),
            Metric::Mtm => taquin::mtm::store::info(&path).map(|i| (i.spec, i.entries, 8, i.bytes)),
        };
        match info {
            Ok((spec, entries, bits, bytes)) => writeln!(
                out,
                "{name}  {}  {spec}  {entries} entries  {bits} bits  {}",
                metric.name(),
                human_bytes(bytes)
            )?,
            Err(e) => writeln!(out, "{name}  {}  INVALID: {e}", metric.name())?,
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn verify(dir: &Path, files: Vec<PathBuf>) -> Result<ExitCode> {
    let files = if files.is_empty() {
        // A mistyped directory is no directory of sound tables.
        anyhow::ensure!(
            dir.is_dir(),
            "{} does not exist: nothing to verify (give --pdb-dir the directory of the tables, \
             or name the files)",
            dir.display()
        );
        pdb_files(dir)?
    } else {
        // A mistyped name is a usage error (exit 2), not a damaged table.
        if let Some(missing) = files.iter().find(|f| !common::names_a_file(f)) {
            anyhow::bail!(
                "{} is not a file: name the tables' files, or name none to verify every table \
                 in --pdb-dir",
                missing.display()
            );
        }
        files
    };
    let mut out = std::io::stdout().lock();
    let mut bad = 0;
    for path in &files {
        // A file named on the command line with neither extension is read as a single-tile
        // table, whose check then says what the file is not.
        let metric = file_metric(path).unwrap_or(Metric::Stm);
        let checked = match metric {
            Metric::Stm => store::load(path, None).map(|db| db.spec().to_string()),
            Metric::Mtm => taquin::mtm::store::check(path)
                .map(|db| format!("{}, largest distance {}", db.spec(), db.max_distance())),
        };
        match checked {
            Ok(what) => writeln!(out, "ok   {}  {}  {what}", path.display(), metric.name())?,
            Err(e) => {
                bad += 1;
                writeln!(out, "BAD  {}  {e}", metric.name())?;
            }
        }
    }
    writeln!(out, "{} checked, {bad} bad", files.len())?;
    Ok(if bad == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_FAILED)
    })
}

fn human_bytes(b: u64) -> String {
    let b = b as f64;
    if b >= f64::from(1u32 << 30) {
        format!("{:.2} GiB", b / f64::from(1u32 << 30))
    } else if b >= f64::from(1u32 << 20) {
        format!("{:.1} MiB", b / f64::from(1u32 << 20))
    } else {
        format!("{:.1} KiB", b / 1024.0)
    }
}
