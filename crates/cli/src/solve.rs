//! `taquin solve`: one board, one algorithm, one heuristic; the moves, their count, whether they
//! are optimal, and what the search spent.

use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result};
use serde_json::json;
use taquin::search::{Checkpoint, CheckpointFile};
use taquin::solvers::shorten::{shorten_within, ShortenOptions};
use taquin::LimitHit;
use taquin::{
    Algorithm, Board, HeuristicKind, Plan, Request, Setting, Solution, SolveError, SolveOptions,
    SolveReport, Tables,
};

use crate::common::{self, LimitArgs, Spinner};
use crate::errors::{self, Coded};

/// Arguments of `taquin solve`.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// The board, e.g. "6 4 7/8 5 0/3 2 1"; `-` reads it from standard input.
    pub board: String,
    /// The goal: standard (1..N-1 then the blank, the default), korf (the blank first), snail,
    /// a board, a file holding one, or `-` for standard input.
    #[arg(long, short)]
    pub goal: Option<String>,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Threads for one search (0: every core). IDA* splits its iterations over them and
    /// returns the same moves as on one (default 1); the anytime search (the planner's choice
    /// beyond 16 cells) shares its beams' layers among them, and with 1 runs on one thread
    /// (default: every core).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = crate::common::whole_number::<usize>)]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Print the result as one JSON object (fields: moves, length, optimal, lower_bound,
    /// algorithm, heuristic, expanded, generated, time_ms, plan, ...).
    #[arg(long)]
    pub json: bool,
    /// Say which algorithm, heuristic and tables the planner picked, and why, in one line
    /// (on standard error, before solving). When standard error is not a terminal, each
    /// improvement of an anytime search is written there too (`improved: ...` lines).
    #[arg(long)]
    pub explain: bool,
    /// Print the board after every move.
    #[arg(long)]
    pub show: bool,
    /// Shorten a non-optimal solution afterwards: cancel moves undone at once, cut loops, and
    /// re-solve short windows optimally.
    #[arg(long)]
    pub shorten: bool,
    /// Keep IDA*'s place in FILE as it goes (every 30 s, and when a limit or Ctrl-C stops it),
    /// and go on from the place kept there: a search too long for one sitting resumes where it
    /// stopped, even after the machine went down. IDA* only (which then takes the whole time
    /// limit, with no anytime answer after half of it); FILE is deleted once solved.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub interchange: crate::interchange::InterchangeArgs,
}

/// How to search, shared by `solve` and `batch`.
#[derive(clap::Args, Debug)]
pub struct SearchArgs {
    /// Search algorithm: auto (the planner's choice, the default), idastar, astar, bfs,
    /// weighted-astar, greedy, constructive, lookahead, lrta, anytime (what auto picks beyond
    /// 16 cells).
    #[arg(long, short, default_value = "auto", value_parser = parse_algorithm_or_auto)]
    pub algorithm: Auto<Algorithm>,
    /// Heuristic: auto (the planner's choice, the default), misplaced, manhattan,
    /// linear-conflict, walking-distance, or pattern databases named by group sizes (pdb:8,
    /// pdb:5-5-5, pdb:6-6-3, pdb:7-8, pdb:6-6-6-6, or any sizes adding up to the tiles);
    /// zpdb:SIZES for zero-aware tables (zpdb:7-8), and two partitions joined by + for the
    /// larger of their values (zpdb:6-6-6-6+7-7-7-3).
    #[arg(long = "heuristic", short = 'H', default_value = "auto", value_parser = parse_heuristic_or_auto)]
    pub heuristic: Auto<HeuristicKind>,
    /// Weight w >= 1 of weighted A* (f = g + w·h); weighted-astar only.
    #[arg(long, value_name = "W", allow_negative_numbers = true, value_parser = weight_value, help = format!(
        "Weight w >= 1 of weighted A* (f = g + w·h; default {}); weighted-astar only",
        SolveOptions::DEFAULT_WEIGHT
    ))]
    pub weight: Option<f64>,
    /// Look-ahead depth of the real-time players; lookahead and lrta only.
    #[arg(long, value_name = "D", allow_negative_numbers = true, value_parser = crate::common::whole_number::<usize>, help = format!(
        "Look-ahead depth of the real-time players (default {}); lookahead and lrta only",
        SolveOptions::DEFAULT_DEPTH
    ))]
    pub depth: Option<usize>,
}

impl SearchArgs {
    /// Checks the flags a parser cannot: a weight from 1 to [`SolveOptions::MAX_WEIGHT`], a
    /// depth from 1 to [`taquin::solvers::MAX_DEPTH`], each given only with an algorithm that
    /// uses it (the planner, `auto`, picks none of those).
    pub fn validate(&self) -> Result<()> {
        let algorithm = self.algorithm.0;
        if let Some(weight) = self.weight {
            let max_weight = SolveOptions::MAX_WEIGHT;
            ensure(
                weight.is_finite() && (1.0..=max_weight).contains(&weight),
                || format!("--weight must be a number from 1 to {max_weight}, got {weight:?}"),
            )?;
            used_by("--weight", algorithm, Setting::Weight)?;
        }
        if let Some(depth) = self.depth {
            let max_depth = taquin::solvers::MAX_DEPTH;
            ensure((1..=max_depth).contains(&depth), || {
                format!(
                    "--depth must be from 1 to {max_depth}, got {depth}: the look-ahead tree \
                     grows threefold with each level"
                )
            })?;
            used_by("--depth", algorithm, Setting::Depth)?;
        }
        Ok(())
    }

    /// Solve options as the flags ask (what they leave open, the planner decides).
    pub fn options(&self, workload: taquin::Workload) -> SolveOptions {
        let defaults = SolveOptions::default();
        SolveOptions {
            algorithm: self.algorithm.0,
            heuristic: self.heuristic.0,
            weight: self.weight.unwrap_or(defaults.weight),
            depth: self.depth.unwrap_or(defaults.depth),
            workload,
            ..defaults
        }
    }
}

/// A `--weight` value (for clap's `value_parser`): a number, refused in words that say what to
/// give. Its range is checked by [`SearchArgs::validate`].
fn weight_value(text: &str) -> Result<f64, String> {
    text.trim().parse().map_err(|_| {
        format!(
            "not a number: give a weight from 1 to {}, a fraction allowed (e.g. 1.5)",
            SolveOptions::MAX_WEIGHT
        )
    })
}

/// A flag's value out of range, or flags that do not fit together: a usage error (`bad_fields`
/// with `--json`) saying `message` unless `ok`.
fn ensure(ok: bool, message: impl FnOnce() -> String) -> Result<()> {
    if ok {
        Ok(())
    } else {
        Err(Coded::bad_fields(message()).into())
    }
}

/// Refuses `flag` given with an algorithm (`None`: the planner's choice) that does not use
/// it, rather than solving without it.
pub fn used_by(flag: &str, algorithm: Option<Algorithm>, setting: Setting) -> Result<()> {
    match setting.unused_with(flag, algorithm, |a| format!("-a {a}")) {
        Some(message) => Err(Coded::bad_fields(message).into()),
        None => Ok(()),
    }
}

/// Refuses `--threads` other than 1 when the search that runs, `algorithm` (the planner's
/// choice included), is neither IDA*, which splits its iterations over them, nor the anytime
/// search, which shares its beams' layers among them (with 1, runs on one thread).
pub fn threads_used(threads: usize, algorithm: Algorithm) -> Result<()> {
    crate::common::thread_count("threads", threads)?;
    if threads == 1 {
        return Ok(());
    }
    used_by("--threads", Some(algorithm), Setting::Threads)
}

/// A choice given on the command line, or `auto` (`None`): left to the planner.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Auto<T>(pub Option<T>);

/// Parses an algorithm name with the core's [`Algorithm::parse`] (the error lists the names).
pub fn parse_algorithm(name: &str) -> Result<Algorithm, String> {
    Algorithm::parse(name).map_err(|e| e.to_string())
}

/// Parses an algorithm name or `auto`.
pub fn parse_algorithm_or_auto(name: &str) -> Result<Auto<Algorithm>, String> {
    Algorithm::parse_choice(name)
        .map(Auto)
        .map_err(|e| e.to_string())
}

/// Parses a heuristic name with the core's [`HeuristicKind::parse`] (the error lists the names).
pub fn parse_heuristic(name: &str) -> Result<HeuristicKind, String> {
    HeuristicKind::parse(name).map_err(|e| e.to_string())
}

/// Parses a heuristic name or `auto` with the core's [`HeuristicKind::parse_choice`].
pub fn parse_heuristic_or_auto(name: &str) -> Result<Auto<HeuristicKind>, String> {
    HeuristicKind::parse_choice(name)
        .map(Auto)
        .map_err(|e| e.to_string())
}

/// The request and the planner's plan for `solve`'s board and goal within `limits`, said on
/// standard error with `--explain`. A flag the planned search does not take (`--threads`, see
/// [`threads_used`]) is the outer error; the inner one is the planner's (a board it refuses).
pub fn planned(
    args: &SolveArgs,
    board: &Board,
    goal: &Board,
    limits: taquin::Limits,
    tables: &Tables,
) -> Result<Result<(Request, Plan), SolveError>> {
    let planned = Request::new(board.clone(), goal.clone(), limits).and_then(|request| {
        let options = SolveOptions {
            threads: args.ida_threads(),
            ..args.search.options(taquin::Workload::One)
        };
        let plan = taquin::plan(&request, &options, tables)?;
        Ok((request, plan))
    });
    let mut planned = planned;
    if let Ok((_, plan)) = &mut planned {
        if let Some(threads) = args.threads {
            threads_used(threads, plan.algorithm)?;
        }
        if let Some(path) = &args.checkpoint {
            // The key names the planned heuristic, known only now.
            let file = Arc::new(checkpoint_for(path, plan, board, goal)?);
            *plan = plan.clone().keeping(file);
        }
        if args.explain {
            eprintln!("plan: {}", plan.explain());
        }
    }
    Ok(planned)
}

/// `--checkpoint FILE` for `plan`'s search of `board` -> `goal`: refused for a search that is
/// not IDA*; said on standard error when it goes on from a place kept there. The key names
/// the boards and the heuristic, so that the file of another search is refused, not resumed.
fn checkpoint_for(
    path: &std::path::Path,
    plan: &Plan,
    board: &Board,
    goal: &Board,
) -> Result<CheckpointFile> {
    if plan.algorithm != Algorithm::IdaStar {
        return Err(Coded::bad_fields(format!(
            "--checkpoint keeps the place of IDA*, and the search here is {}: add -a idastar \
             (an optimal search, which may take hours beyond 16 cells), or leave out \
             --checkpoint",
            plan.algorithm
        ))
        .into());
    }
    let key = format!(
        "solve {} to {} with {}",
        board.to_line(),
        goal.to_line(),
        plan.heuristic_name()
    );
    let file = CheckpointFile::new(path, &key);
    // A damaged or foreign file is the search's error, which says what to do.
    if let Ok(Some(place)) = file.load() {
        eprintln!(
            "{}",
            crate::bench_places::describe("the search", &file, &place)
        );
    }
    Ok(file)
}

/// The place a run with `--checkpoint` starts from, read before the run so that
/// [`PlaceWatch::after`] can tell whether the sitting moved it on.
pub struct PlaceWatch {
    before: Option<Checkpoint>,
}

/// A stopped search's kept place, for [`kept_note`].
pub struct Kept {
    path: std::path::PathBuf,
    /// The limit that stopped a sitting which left the place where it found it.
    stalled: Option<LimitHit>,
}

impl PlaceWatch {
    /// The place `plan`'s checkpoint holds now (none without `--checkpoint`, or for a search
    /// not begun).
    pub fn before(plan: &Plan) -> PlaceWatch {
        let before = plan
            .checkpoint
            .as_ref()
            .and_then(|f| f.load().ok().flatten());
        PlaceWatch { before }
    }

    /// After the run: a solved search's file goes (a failure to delete it is warned of); a
    /// stopped one's is kept, and returned for [`kept_note`] after the error, with the limit
    /// that stopped it if the place did not move.
    pub fn after(self, plan: &Plan, result: &Result<Solution, SolveError>) -> Option<Kept> {
        let file = plan.checkpoint.as_ref()?;
        match result {
            Ok(s) if s.optimal => {
                let removed = file
                    .remove()
                    .with_context(|| format!("deleting the checkpoint {}", file.path().display()));
                if let Err(e) = removed {
                    eprintln!("warning: {e:#}");
                }
                None
            }
            Err(SolveError::Limit { hit, .. }) if file.path().exists() => {
                let stalled = unmoved(self.before.as_ref(), file).then_some(*hit);
                Some(Kept {
                    path: file.path().to_path_buf(),
                    stalled,
                })
            }
            Ok(_) | Err(_) => None,
        }
    }
}

/// Whether `file` holds the place `before` still: a sitting that left it there made no
/// progress that the next one keeps. Without a place before the sitting the file is not read.
pub fn unmoved(before: Option<&Checkpoint>, file: &CheckpointFile) -> bool {
    before.is_some_and(|before| {
        file.load()
            .ok()
            .flatten()
            .is_some_and(|now| before.same_place(&now))
    })
}

/// Says, after a stopped search's error, where its place is kept, and when the sitting left
/// that place as it found it because of its limits, that the next one is likely to as well
/// unless they are raised.
pub fn kept_note(kept: Option<&Kept>) {
    let Some(kept) = kept else {
        return;
    };
    eprintln!(
        "the search's place is kept in {}: the same command goes on from there, its limits \
         (--timeout, --max-nodes) counted afresh; the counts above are of every sitting",
        kept.path.display()
    );
    if let Some(note) = kept.stalled.and_then(no_progress_note) {
        eprintln!("{note}");
    }
}

/// What to say of a sitting that the limit `hit` stopped where it began (the search's kept
/// place did not move): the next one with the same limit is likely to stop there too. None for
/// Ctrl-C, the user's own choice, and for the memory limit, whose error says what to do.
pub fn no_progress_note(hit: LimitHit) -> Option<String> {
    let flag = match hit {
        LimitHit::Nodes => "--max-nodes",
        LimitHit::Time => "--timeout",
        LimitHit::Memory | LimitHit::Cancelled => return None,
    };
    Some(format!(
        "this sitting made no progress: {flag} ended it before the search's kept place moved \
         on (one of IDA*'s subtrees done, or one step of the work between its iterations), so \
         a sitting with the same limit is likely to stop at the same place; give a larger \
         {flag}"
    ))
}

impl SolveArgs {
    /// Checks the flags a parser cannot ([`SearchArgs::validate`]), and `--threads` with an
    /// algorithm named (the planner's choice is checked once planned: [`threads_used`]),
    /// before any table is read.
    pub fn validate(&self) -> Result<()> {
        self.search.validate()?;
        // Also where the multi-tile search (--metric mtm) takes the threads.
        crate::common::thread_count("threads", self.ida_threads())?;
        if self.show && self.json {
            // Not dropped without a word: the JSON has the moves, not the boards.
            return Err(Coded::bad_fields(
                "--show goes with the plain output only: leave out --show or --json (the JSON's \
                 moves replay with `taquin verify BOARD MOVES`)",
            )
            .into());
        }
        match (self.search.algorithm.0, self.threads) {
            (Some(algorithm), Some(threads)) => threads_used(threads, algorithm),
            _ => Ok(()),
        }
    }

    /// The threads of IDA* (and of the multi-tile search): `--threads`, 1 when not given.
    pub fn ida_threads(&self) -> usize {
        self.threads.unwrap_or(1)
    }

    /// The limits of `--timeout`, `--max-nodes` and `--max-memory`, with the cores of the
    /// anytime search (`--threads`; every core when not given).
    pub fn limits(&self) -> Result<taquin::Limits> {
        let limits = self.limits.limits()?;
        Ok(match self.threads {
            Some(threads) => limits.with_cores(threads),
            None => limits,
        })
    }
}

/// Runs `taquin solve`.
pub fn run(args: SolveArgs, tables: &Tables) -> Result<ExitCode> {
    if args.interchange.is_asked() {
        return crate::interchange::solve(&args, tables);
    }
    let board = common::read_board(&args.board, "board")?;
    let goal = common::read_goal(args.goal.as_deref(), &board)?;
    args.validate()?;
    let limits = args.limits()?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut ran = None;
    // Where a stopped search's place is kept (--checkpoint).
    let mut kept = None;
    let result =
        planned(&args, &board, &goal, limits.clone(), tables)?.and_then(|(request, plan)| {
            // A heuristic asked of a search that takes none is not silently dropped.
            if let Some(note) = args.search.heuristic.0.and_then(|h| {
                plan.algorithm
                    .unused_heuristic(h, &format!("-H {}", h.name()))
            }) {
                eprintln!("note: {note}");
            }
            // Named in a stopped search's JSON error too, as compare's and bench's records do.
            ran = Some((plan.algorithm.name(), plan.heuristic_name()));
            let spinner = Spinner::for_plan(&plan).logging_improvements(args.explain);
            let progress = |p| spinner.update(p);
            let watch = PlaceWatch::before(&plan);
            let result = plan.run(&request, tables, Some(&progress));
            spinner.finish();
            kept = watch.after(&plan, &result);
            result.map(|s| (s, plan))
        });
    match result {
        Ok((mut solution, plan)) => {
            let original_length =
                shorten_if_asked(args.shorten, &board, &goal, &mut solution, &limits)?;
            // The front door already replayed the moves; this is the CLI's own promise.
            solution.verify(&board, &goal)?;
            if args.explain && solution.plan != plan.explain() {
                // The run went another way than planned (a large set's file found damaged, the
                // tables not ready by the deadline): the plan said above no longer holds.
                eprintln!("plan as run: {}", solution.plan);
            }
            // An optimal search's bound (1) holds only for its own answers: a plan that went
            // another way (the anytime search after half the time) proved no factor.
            let bound = plan
                .suboptimality_bound()
                .filter(|&b| !solution.optimal && b > 1.0);
            // Ctrl-C stopped the search (exit 130): the answer is the best found so far, and
            // says so, as batch's and bench's records do.
            let cancelled = common::interrupted();
            if args.json {
                write_json(&mut out, &solution, &board, &goal, |v| {
                    if let Some(before) = original_length {
                        v["original_length"] = json!(before);
                    }
                    if cancelled {
                        v["stopped"] = json!("cancelled");
                    }
                })?;
            } else {
                if cancelled {
                    eprintln!("stopped by Ctrl-C: this is the best solution found so far");
                }
                write_text(
                    &mut out,
                    &solution,
                    &board,
                    bound,
                    original_length,
                    args.show,
                )?;
            }
            out.flush()?;
            if !args.json {
                common::table_tip(&plan, &goal, solution.stats.elapsed);
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(err) => {
            let ran = ran.map_or(Vec::new(), |(algorithm, heuristic)| {
                vec![
                    ("algorithm", json!(algorithm)),
                    ("heuristic", json!(heuristic)),
                ]
            });
            let code = errors::report_run_error(&mut out, &err, &err.to_string(), args.json, &ran)?;
            kept_note(kept.as_ref());
            Ok(code)
        }
    }
}

/// `--shorten` (`asked`): shortens `solution` in place with the post-pass (loops cut, windows
/// re-solved optimally) when it is not proven optimal, within the search's `limits` (at the
/// deadline, the best so far), and returns its length before; `None` when nothing was done.
pub fn shorten_if_asked(
    asked: bool,
    board: &Board,
    goal: &Board,
    solution: &mut taquin::Solution,
    limits: &taquin::Limits,
) -> Result<Option<usize>, SolveError> {
    if !asked || solution.optimal {
        return Ok(None);
    }
    let shortened = shorten_within(
        board,
        goal,
        &solution.moves,
        &ShortenOptions::default(),
        limits,
    )?;
    let before = solution.len();
    shortened.apply_to(solution);
    Ok(Some(before))
}

/// What the post-pass did, for the text output: `before` is the length it was given (`None`:
/// it did not run), `now` the length after it.
pub fn shortened_note(before: Option<usize>, now: usize) -> String {
    match before {
        Some(before) if before > now => format!("; shortened from {before} moves"),
        Some(_) => "; the post-pass found nothing shorter".to_string(),
        None => String::new(),
    }
}

/// Writes the human-readable answer: the verdict, the bound when not optimal, the moves and
/// what the search spent.
fn write_text(
    out: &mut impl Write,
    solution: &taquin::Solution,
    board: &Board,
    bound: Option<f64>,
    original_length: Option<usize>,
    show: bool,
) -> Result<()> {
    let verdict = if solution.optimal {
        "optimal".to_string()
    } else {
        match bound.filter(|b| b.is_finite()) {
            Some(b) => format!("not proven optimal; at most {b}x the optimal length"),
            None => "not proven optimal".to_string(),
        }
    };
    writeln!(
        out,
        "Solved in {} ({verdict}) with {} + {}",
        common::count(solution.len(), "move"),
        solution.algorithm,
        solution.heuristic
    )?;
    if !solution.optimal {
        let lower_bound = solution.lower_bound;
        let ratio = if lower_bound > 0 {
            solution.len() as f64 / lower_bound as f64
        } else {
            1.0
        };
        write!(
            out,
            "Lower bound: {lower_bound} moves, so at most {ratio:.2}x optimal"
        )?;
        write!(out, "{}", shortened_note(original_length, solution.len()))?;
        writeln!(out)?;
    }
    write!(out, "Moves: ")?;
    if solution.is_empty() {
        write!(out, "(none: the board is the goal)")?;
    } else {
        write_letters(out, &solution.moves)?;
    }
    writeln!(out)?;
    crate::interchange::write_lengths(out, &solution.moves)?;
    write_stats(out, &solution.stats)?;
    if show {
        show_steps(
            out,
            board,
            &solution.moves,
            taquin::notation::Notation::Blank,
        )?;
    }
    Ok(())
}

/// Writes what a search spent: nodes expanded and generated, time, IDA* iterations and the
/// peak memory of A* and BFS where there are such.
pub fn write_stats(out: &mut impl Write, s: &taquin::Stats) -> std::io::Result<()> {
    write!(
        out,
        "Expanded {}, generated {}, time {}",
        common::thousands(s.expanded),
        common::thousands(s.generated),
        common::millis(s.elapsed)
    )?;
    match s.iterations {
        0 => {}
        1 => write!(out, ", 1 iteration")?,
        n => write!(out, ", {n} iterations")?,
    }
    if s.peak_memory_bytes > 0 {
        write!(
            out,
            ", peak memory ~{:.1} MiB",
            s.peak_memory_bytes as f64 / (1 << 20) as f64
        )?;
    }
    writeln!(out)
}

/// Writes move letters in chunks: a 1000x1000 solution has billions of moves, and one string
/// of them would double the memory the solve needs.
fn write_letters(out: &mut impl Write, moves: &[taquin::Move]) -> std::io::Result<()> {
    let mut buf = Vec::with_capacity(1 << 16);
    for chunk in moves.chunks(1 << 16) {
        buf.clear();
        buf.extend(chunk.iter().map(|m| m.letter() as u8));
        out.write_all(&buf)?;
    }
    Ok(())
}

/// Writes the JSON report (`extra` adds fields), streaming the moves field so that its letters
/// are never held as one string.
fn write_json(
    out: &mut impl Write,
    solution: &taquin::Solution,
    board: &Board,
    goal: &Board,
    extra: impl FnOnce(&mut serde_json::Value),
) -> Result<()> {
    let report = SolveReport::summary(solution);
    let mut value = serde_json::to_value(&report)?;
    value["board"] = json!(board.to_line());
    value["goal"] = json!(goal.to_line());
    extra(&mut value);
    let serde_json::Value::Object(fields) = value else {
        anyhow::bail!("a solve report is a JSON object");
    };
    serde_json::to_writer(
        &mut *out,
        &Answer {
            fields: &fields,
            moves: &solution.moves,
        },
    )?;
    writeln!(out)?;
    Ok(())
}

/// The JSON answer: the report's fields in order, `moves` streamed from the move list as
/// serde writes it, so that a billion-move solution is never held as one string.
struct Answer<'a> {
    fields: &'a serde_json::Map<String, serde_json::Value>,
    moves: &'a [taquin::Move],
}

impl serde::Serialize for Answer<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.fields.len()))?;
        for (key, value) in self.fields {
            if key == "moves" {
                map.serialize_entry(key, &Letters(self.moves))?;
            } else {
                map.serialize_entry(key, value)?;
            }
        }
        map.end()
    }
}

/// Move letters as a JSON string, written chunk by chunk ([`serde::Serializer::collect_str`]).
struct Letters<'a>(&'a [taquin::Move]);

impl serde::Serialize for Letters<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl std::fmt::Display for Letters<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut buf = String::with_capacity(1 << 16);
        for chunk in self.0.chunks(1 << 16) {
            buf.clear();
            buf.extend(chunk.iter().map(|m| m.letter()));
            f.write_str(&buf)?;
        }
        Ok(())
    }
}

/// Prints the board before the first move and after each one, each move named in `notation`.
pub(crate) fn show_steps(
    out: &mut impl Write,
    board: &Board,
    moves: &[taquin::Move],
    notation: taquin::notation::Notation,
) -> Result<()> {
    let mut b = board.clone();
    writeln!(out, "\nStart:\n{b}")?;
    for (i, &m) in moves.iter().enumerate() {
        b.apply(m);
        writeln!(out, "\n{}. {}\n{b}", i + 1, notation.format(&[m]))?;
    }
    Ok(())
}
