//! `taquin batch`: solves many instances on every core and writes one JSON record per instance
//! line, in input order, so that the output can be resumed, sharded and merged.
//!
//! Input, one instance per line, detected line by line ([`LineKind`]): the bench format of the
//! files in `bench/` (`ID OPTLEN t0 t1 ...`, square board, goal with the blank first), a JSON
//! object (`{"id": .., "board": "1 2 3/4 5 6/7 8 0", "goal": .., "optimal_length": ..}`, the goal
//! a board or a name such as `korf`, defaulting to 1..N-1 then the blank) or a board as `solve`
//! takes one. Blank lines and `#` comments are skipped and give no record. The input must be
//! UTF-8: a UTF-16 file is refused as a whole.
//!
//! Output, one JSON object per instance line, in the order of the input: `line` (1-based, in
//! the input), `id` (when the line gives one, a string or a number as given), `board` and
//! `goal` (for a line read as an instance), `status` (`solved`, `limit`, `unsolvable`,
//! `cycle` or `error`), for a solved instance the fields of [`SolveReport`] (`moves, length,
//! optimal, algorithm, heuristic, expanded, generated, time_ms, ...`, and `notation` when it
//! is `tiles`), `lower_bound` (Manhattan
//! distance) and, where known, `optimal_length` (with `check`, the length and bound against it,
//! as `taquin bench` reports it: [`check`]) and `suboptimality_bound`; for an instance over its
//! limit, `limit` (which), `lower_bound` (the best proven) and `check` when that bound
//! contradicts `optimal_length`; otherwise `error`.
//!
//! Records are written as soon as every earlier one is, and flushed, so an interrupted run's
//! output is always a prefix of the full output: `--resume` checks that it is this run's prefix,
//! drops a torn last line, retries the records stopped by a limit (a later record of a line
//! supersedes its earlier one) and solves what comes after.

use std::fs::{File, OpenOptions};
use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use serde_json::Value;
use taquin::instances::without_comment;
use taquin::solvers::manhattan_lower_bound;
use taquin::{Board, LimitHit, Request, SolveError, SolveReport, Tables};

use crate::common::{self, LimitArgs, EXIT_FAILED, EXIT_INTERRUPTED};
use crate::errors;
use crate::solve::SearchArgs;

/// Arguments of `taquin batch`.
#[derive(clap::Args, Debug)]
pub struct BatchArgs {
    /// Instances, one a line: the bench format (`ID OPTLEN t0 t1 ...`, blank-first goal),
    /// JSON Lines (`{"id": "a", "board": "1 2 3/4 5 6/7 8 0", "goal": "..."}`), or a board
    /// as `solve` takes one (`taquin generate`'s lines). Standard input when absent or `-`.
    #[arg(value_name = "INSTANCES")]
    pub file: Option<String>,
    /// The goal of the lines that give none (boards, JSON lines without "goal"): standard,
    /// korf or snail laid out on each board's size, a board, or a file holding one (default:
    /// standard). The bench format's lines keep their blank-first goal.
    #[arg(long, short)]
    pub goal: Option<String>,
    /// Write the records to this file instead of standard output (needed by --resume).
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Keep the records already in --output, drop a torn last line, and solve only the
    /// instances after them, appending.
    #[arg(long, requires = "output")]
    pub resume: bool,
    /// With --resume: solve again, with the limits given now, the lines whose record says a
    /// limit stopped them; each new record is appended after the old one, and the last record
    /// of a line is its answer. Without it they are kept, so that a restarted run (a cluster's
    /// requeue) does not redo them with the same limits.
    #[arg(long, requires = "resume")]
    pub retry_limits: bool,
    /// Solve only shard I of N (I from 1 to N): the instance lines whose line number is I
    /// modulo N. The N outputs, merged by `line`, are the unsharded output.
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    pub shard: Option<Shard>,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Limits for each instance (the timeout starts when the instance does).
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Worker threads; default: every core.
    #[arg(long, short, value_name = "N", allow_negative_numbers = true, value_parser = crate::common::job_count)]
    pub jobs: Option<usize>,
    /// Shorten every solution not proven optimal with the post-pass (loops cut, windows
    /// re-solved optimally); the record keeps the length before as `original_length`.
    #[arg(long)]
    pub shorten: bool,
    /// How the `moves` field is written: blank (DLLURR) or tiles (where the tiles go, runs as R3).
    #[arg(long, default_value = "blank", value_parser = crate::interchange::parse_notation)]
    pub notation: taquin::notation::Notation,
}

/// One shard of a sharded run: `index` in 1..=`count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    index: usize,
    count: usize,
}

impl Shard {
    fn owns(self, line: usize) -> bool {
        (line - 1) % self.count == self.index - 1
    }
}

fn parse_shard(text: &str) -> Result<Shard, String> {
    let bad = || format!("'{text}' is not a shard: write I/N with 1 <= I <= N, e.g. 2/8");
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let index: usize = i.trim().parse().map_err(|_| bad())?;
    let count: usize = n.trim().parse().map_err(|_| bad())?;
    if count == 0 || index == 0 || index > count {
        return Err(bad());
    }
    Ok(Shard { index, count })
}

/// One instance line to solve.
struct Work {
    line: usize,
    /// The line's text; bytes that are not UTF-8 replaced (for the id of the error record).
    text: String,
    /// Where the line stops being UTF-8, if it does: the line gets an error record.
    bad_byte: Option<usize>,
}

/// An instance read from a line.
struct Instance {
    /// A string or a number, echoed as it was given ([`instance_id`]).
    id: Option<Value>,
    board: Board,
    goal: Board,
    optimal_length: Option<u32>,
}

/// The record written for one instance line.
#[derive(Serialize, Default)]
struct Record {
    line: usize,
    /// The line's id, of the JSON type it was given (a string or a number).
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<Value>,
    /// The board and goal solved, as `solve --json` gives them: a record read alone (or
    /// joined with others by board) says which instance it answers.
    #[serde(skip_serializing_if = "Option::is_none")]
    board: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    goal: Option<String>,
    /// [`record_key`]: which line and settings the record answers, for `--resume`.
    key: String,
    status: &'static str,
    /// What went wrong, with the codes of `--json` errors and the web API ([`errors`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    code: Option<String>,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    report: Option<SolveReport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lower_bound: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    optimal_length: Option<u32>,
    /// A solved length against `optimal_length`: [`check`].
    #[serde(skip_serializing_if = "Option::is_none")]
    check: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    original_length: Option<usize>,
    /// The notation of `moves` when it is not the blank's letters (`--notation tiles`), as
    /// `solve --json` says it.
    #[serde(skip_serializing_if = "Option::is_none")]
    notation: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    limit: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    expanded: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    generated: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    time_ms: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

/// What a worker hands back: the record line, or `None` when Ctrl-C cut the instance short
/// (it is then left for `--resume`).
type Outcome = Option<(bool, String)>;

/// Runs `taquin batch`.
pub fn run(args: BatchArgs, tables: &Tables) -> Result<ExitCode> {
    args.search.validate()?;
    // Validates the limit flags once; each instance gets its own deadline later.
    args.limits.limits()?;
    let from_stdin = args.file.as_deref().is_none_or(|f| f == "-");
    // A usage error (`bad_usage`), as `solve` and `verify` say of two inputs from standard
    // input.
    anyhow::ensure!(
        !(from_stdin && args.goal.as_deref() == Some("-")),
        "--goal - and the instances would both read standard input: give the instances or the \
         goal as a file"
    );
    let goal = args.goal.as_deref().map(LineGoal::read).transpose()?;

    if let Some(output) = &args.output {
        refuse_to_overwrite_input(args.file.as_deref(), output)?;
        if !args.resume {
            common::refuse_to_overwrite_records(output)?;
        }
    }

    let input = crate::interchange::batch_input(read_input(args.file.as_deref())?, &args.file)?;
    // Split as bytes, so that a line that is not UTF-8 spoils only itself.
    let mut work: Vec<Work> = input
        .split(|&b| b == b'\n')
        .map(|bytes| bytes.strip_suffix(b"\r").unwrap_or(bytes))
        .enumerate()
        .map(|(i, bytes)| {
            let bad_byte = std::str::from_utf8(bytes).err().map(|e| e.valid_up_to());
            (i + 1, String::from_utf8_lossy(bytes).into_owned(), bad_byte)
        })
        .filter(|(line, text, _)| {
            let t = text.trim();
            !t.is_empty() && !t.starts_with('#') && args.shard.is_none_or(|s| s.owns(*line))
        })
        .map(|(line, text, bad_byte)| Work {
            line,
            text,
            bad_byte,
        })
        .collect();
    let earlier_failed = match (&args.output, args.resume) {
        (Some(path), true) => {
            let input_name = args.file.as_deref().filter(|f| *f != "-");
            let resumed = resume_point(
                path,
                &work,
                input_name.unwrap_or("standard input"),
                goal.as_ref(),
                &args,
            )?;
            let left = resumed.done.iter().filter(|done| !**done).count() - resumed.retried;
            let limits = if args.retry_limits {
                format!(
                    "{} stopped by a limit retried (each new record is appended and supersedes \
                     the old one)",
                    resumed.retried
                )
            } else {
                format!(
                    "{} of them stopped by a limit (--retry-limits solves those again with the \
                     limits given now)",
                    resumed.limited
                )
            };
            eprintln!(
                "resuming {}: {} kept, {limits}, {} not yet solved",
                path.display(),
                common::count(resumed.kept(), "record"),
                common::count(left, "instance line"),
            );
            let mut done = resumed.done.iter();
            work.retain(|_| !done.next().is_some_and(|done| *done));
            resumed.failed
        }
        _ => false,
    };

    let mut out: Box<dyn Write> = match &args.output {
        Some(path) => {
            let file = if args.resume {
                OpenOptions::new().append(true).create(true).open(path)
            } else {
                File::create(path)
            }
            .with_context(|| format!("opening {} for writing", path.display()))?;
            Box::new(std::io::BufWriter::new(file))
        }
        None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
    };

    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, work.len().max(1));
    let bar = progress_bar(work.len());
    let cancel = common::cancel_flag();
    let mut all_solved = !earlier_failed;
    let mut interrupted = false;
    let (mut solved, mut failed) = (0u64, 0u64);
    // Records leave in input order, each as soon as all earlier ones are written.
    crate::in_order::run(
        &work,
        jobs,
        &cancel,
        |item| solve_line(item, &args, goal.as_ref(), jobs, tables),
        |_, _| Ok(()),
        |_, outcome| {
            match outcome {
                Some((ok, line)) => {
                    if !interrupted {
                        writeln!(out, "{line}")?;
                        out.flush()?;
                    }
                    if ok {
                        solved += 1;
                    } else {
                        failed += 1;
                        all_solved = false;
                    }
                }
                None => interrupted = true,
            }
            if let Some(bar) = &bar {
                bar.inc(1);
                bar.set_message(counts(solved, failed));
            }
            Ok(true)
        },
    )?;
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    out.flush()?;
    if interrupted || cancel.load(Ordering::Relaxed) {
        eprintln!(
            "interrupted: the records written are complete; run again with --resume to go on"
        );
        return Ok(ExitCode::from(EXIT_INTERRUPTED));
    }
    Ok(if all_solved {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_FAILED)
    })
}

/// Refuses an `output` that is the input file (or, on Unix, the file standard input reads):
/// the records would overwrite the instances. Checked before anything is read or written, so
/// that `--resume` does not cut the input either.
fn refuse_to_overwrite_input(file: Option<&str>, output: &Path) -> Result<()> {
    let same = match file.filter(|f| *f != "-") {
        Some(path) => same_file(Path::new(path), output),
        None => stdin_is(output),
    };
    if same {
        bail!(
            "{} is the input file: writing the records there would overwrite the instances; \
             give -o another file",
            output.display()
        );
    }
    Ok(())
}

/// Whether `a` and `b` name one existing file (through links or different spellings).
fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // Hard links have different canonical paths but one inode.
        match (std::fs::metadata(a), std::fs::metadata(b)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    matches!((a.canonicalize(), b.canonicalize()), (Ok(a), Ok(b)) if a == b)
}

/// Whether standard input is redirected from the regular file `path` (`batch -o f < f`).
#[cfg(unix)]
fn stdin_is(path: &Path) -> bool {
    use std::os::fd::AsFd;
    use std::os::unix::fs::MetadataExt;
    let stdin = std::io::stdin()
        .as_fd()
        .try_clone_to_owned()
        .and_then(|fd| File::from(fd).metadata());
    match (stdin, std::fs::metadata(path)) {
        // Only a regular file: a terminal or a pipe is no file that the records could overwrite.
        (Ok(a), Ok(b)) => a.is_file() && a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// Whether standard input is redirected from `path`: not known here, so not refused.
#[cfg(not(unix))]
fn stdin_is(_path: &Path) -> bool {
    false
}

/// The whole input, from the file or standard input, as bytes (each line is decoded alone),
/// without the byte-order mark some Windows editors write first (which would spoil line 1).
fn read_input(file: Option<&str>) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    match file {
        None | Some("-") => {
            std::io::stdin()
                .read_to_end(&mut bytes)
                .context("reading instances from standard input")?;
        }
        Some(path) => {
            File::open(path)
                .and_then(|mut f| f.read_to_end(&mut bytes))
                .with_context(|| format!("reading instances from {path}"))?;
        }
    }
    if bytes.starts_with(UTF8_BOM) {
        bytes.drain(..UTF8_BOM.len());
    }
    // Each line is decoded alone, so that one stray byte spoils only its line; but UTF-16 read
    // as UTF-8 is garbage on every line (a NUL byte before each character), not instances.
    if common::is_utf16(&bytes) {
        let from = file.filter(|f| *f != "-").unwrap_or("standard input");
        return Err(errors::Coded::new("bad_board", common::not_utf8(from, None)).into());
    }
    Ok(bytes)
}

/// The UTF-8 encoding of U+FEFF, the byte-order mark.
const UTF8_BOM: &[u8] = b"\xef\xbb\xbf";

/// What `--resume` found in the output: which of this run's instance lines it holds a record
/// of that stands (`done`, by the index of the line in the run's work; a record stopped by a
/// limit does not stand: its line is solved again), how many of those are retried, and
/// whether a record that stands is not solved (for the exit code).
struct Resumed {
    done: Vec<bool>,
    retried: usize,
    /// Records kept that a limit stopped (none with `--retry-limits`, which retries them).
    limited: usize,
    failed: bool,
}

impl Resumed {
    /// Records that stand, kept as they are.
    fn kept(&self) -> usize {
        self.done.iter().filter(|done| **done).count()
    }
}

/// Reads the output `path` for `--resume`: its records must be those of the first instance lines
/// of `work` (this input and shard), in order, line number and id alike, so that appending goes
/// on where that run stopped; after them may come records of those lines again, each the retry
/// of a record stopped by a limit (a resumed run's), which supersedes it: the last record of a
/// line is its answer. A torn last line, without its newline, is what an interruption leaves:
/// it is cut off ([`common::Written::cut_torn_line`]) and redone. Anything else, a line that is
/// not JSON or records of other lines, means the file is not this run's output: an error that
/// says so, before the file is changed, rather than lines silently skipped or dropped.
fn resume_point(
    path: &Path,
    work: &[Work],
    input: &str,
    goal: Option<&LineGoal>,
    args: &BatchArgs,
) -> Result<Resumed> {
    let mismatch = |what: String| {
        anyhow!(
            "{} does not hold the records of {input}, so --resume will not append to it: \
             {what}. Write the records to another file with -o, or delete {0} to start \
             again",
            path.display()
        )
    };
    let written = common::Written::read(path)?;
    // The last record of each of the first instance lines, in the order of `work`.
    let mut latest: Vec<&Value> = Vec::new();
    for (i, record) in written.records.iter().enumerate() {
        let line = record.get("line").and_then(Value::as_u64);
        let id = record.get("id").and_then(id_text);
        let found = || match line {
            Some(n) => format!("is for input line {n}{}", id_note(&id)),
            None => "has no \"line\" field".to_string(),
        };
        let answered = line.and_then(|n| {
            latest
                .iter()
                .zip(work)
                .position(|(_, w)| w.line as u64 == n)
        });
        let k = match answered {
            // A line answered already: only the retry of a record stopped by a limit.
            Some(k) if status(latest[k]) != Some("limit") => {
                return Err(mismatch(format!(
                    "its record {} {}, whose earlier record is not stopped by a limit (--resume \
                     writes a line's record again only to retry one that is)",
                    i + 1,
                    found()
                )))
            }
            Some(k) => k,
            None if latest.len() == work.len() => {
                return Err(mismatch(format!(
                    "its record {} {}, past the records of all {} instance lines to solve",
                    i + 1,
                    found(),
                    work.len()
                )))
            }
            None => latest.len(),
        };
        let item = &work[k];
        let expected_id = if item.bad_byte.is_some() {
            None
        } else {
            line_id(&item.text).as_ref().and_then(id_text)
        };
        // Earlier versions echoed ids that this one refuses (`1e2` as 100.0): their records
        // still resume.
        let echoed = item
            .bad_byte
            .is_none()
            .then(|| echoed_id(&item.text))
            .flatten();
        let same_id = id == expected_id || (echoed.is_some() && id == echoed);
        if line != Some(item.line as u64) || !same_id {
            return Err(mismatch(format!(
                "its record {} {}, but this run's record {} is for input line {}{}: it is the \
                 output of another input or another --shard",
                i + 1,
                found(),
                k + 1,
                item.line,
                id_note(&expected_id)
            )));
        }
        // Every record batch writes has one of these: a line without is another tool's.
        if !matches!(
            status(record),
            Some("solved" | "limit" | "unsolvable" | "cycle" | "error")
        ) {
            return Err(mismatch(format!(
                "its record {} has no \"status\" of a batch record (solved, limit, \
                 unsolvable, cycle or error)",
                i + 1
            )));
        }
        // Records written before keys were: the line and id are all there is to check.
        let key = record.get("key").and_then(Value::as_str);
        let expected = || read_instance(item, goal, args).1;
        if key.is_some_and(|key| key != expected() && key != typed_flags_key(&item.text, args)) {
            return Err(mismatch(format!(
                "its record {} answers another board, goal or setting (--goal, -a, -H, \
                 --weight, --depth, --shorten, --notation) than this run's input line {}{}: it \
                 is the output of another input or other flags",
                i + 1,
                item.line,
                id_note(&expected_id)
            )));
        }
        if k == latest.len() {
            latest.push(record);
        } else {
            latest[k] = record;
        }
    }
    // This run's prefix: only now is the file changed.
    written.cut_torn_line()?;
    let mut done = vec![false; work.len()];
    let (mut retried, mut limited, mut failed) = (0, 0, false);
    for (k, record) in latest.iter().enumerate() {
        let limit = status(record) == Some("limit");
        if limit && args.retry_limits {
            retried += 1;
        } else {
            limited += usize::from(limit);
            done[k] = true;
            failed |= status(record) != Some("solved")
                || record.get("check").and_then(Value::as_str) == Some(WRONG);
        }
    }
    Ok(Resumed {
        done,
        retried,
        limited,
        failed,
    })
}

/// A record's `status`.
fn status(record: &Value) -> Option<&str> {
    record.get("status").and_then(Value::as_str)
}

/// `item`'s instance, read with `--goal` (`goal`), and the key of its record ([`record_key`]).
/// `None` for a line that is not UTF-8, which is not read.
fn read_instance(
    item: &Work,
    goal: Option<&LineGoal>,
    args: &BatchArgs,
) -> (Option<Result<Instance>>, String) {
    let parsed = item
        .bad_byte
        .is_none()
        .then(|| parse_instance(&item.text, item.line, goal));
    let inst = parsed.as_ref().and_then(|p| p.as_ref().ok());
    let key = record_key(&item.text, goal_key(inst, goal), args);
    (parsed, key)
}

/// A digest (16 hex digits) of an instance line's text, of the goal it is solved for (`goal`,
/// [`goal_key`]) and of the other flags that shape its answer as they take effect (`-a`, `-H`,
/// `--weight` and `--depth` with their defaults, `--shorten`, `--notation`; not the limits, so
/// that a run resumed with more time goes on): `--resume` appends only to records of the same
/// lines solved the same way, however the flags were spelt.
fn record_key(text: &str, goal: String, args: &BatchArgs) -> String {
    let options = args.search.options(taquin::Workload::Many);
    let settings = format!(
        "{text}\n{goal}\n{:?}\n{:?}\n{:?}\n{:?}\n{}\n{}",
        options.algorithm.map(|a| a.name()),
        options.heuristic.map(|h| h.name()),
        options.weight,
        options.depth,
        args.shorten,
        args.notation.name()
    );
    digest(&settings)
}

/// The goal a line is solved for, as [`record_key`] takes it: the board of a line read
/// (`parsed`), so that `--goal standard`, `--goal STANDARD`, that board or no `--goal` give one
/// key; for a line that is no instance, `--goal` (`goal`) with its name written one way.
fn goal_key(parsed: Option<&Instance>, goal: Option<&LineGoal>) -> String {
    match (parsed, goal) {
        (Some(inst), _) => inst.goal.to_line(),
        (None, None) => taquin::goals::NamedGoal::Standard.name().to_string(),
        (None, Some(LineGoal::Named(name))) => name.name().to_string(),
        (None, Some(LineGoal::Board(board))) => board.to_line(),
    }
}

/// The key records were given before [`record_key`] took the goal as resolved: the flags as
/// typed. Still accepted by `--resume`, so that the output of a run begun then goes on.
fn typed_flags_key(text: &str, args: &BatchArgs) -> String {
    let search = &args.search;
    let settings = format!(
        "{text}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{}\n{}",
        search.algorithm.0.map(|a| a.name()),
        search.heuristic.0.map(|h| h.name()),
        search.weight,
        search.depth,
        args.goal,
        args.shorten,
        args.notation.name()
    );
    digest(&settings)
}

/// 16 hex digits of `text`'s checksum.
fn digest(text: &str) -> String {
    format!("{:016x}", taquin::pdb::store::checksum(text.as_bytes()))
}

/// " (id \"x\")", or " (no id)", for the messages of [`resume_point`].
fn id_note(id: &Option<String>) -> String {
    match id {
        Some(id) => format!(" (id {id:?})"),
        None => " (no id)".to_string(),
    }
}

/// The progress bar of `len` instances, on a terminal only.
fn progress_bar(len: usize) -> Option<ProgressBar> {
    std::io::stderr().is_terminal().then(|| {
        let bar = styled(common::shown(ProgressBar::new(len as u64)));
        bar.enable_steady_tick(Duration::from_millis(200));
        bar
    })
}

/// `bar` with batch's style, and the counts it shows from its first draw: none solved yet.
fn styled(bar: ProgressBar) -> ProgressBar {
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:40} {pos}/{len} instances, {msg}, {elapsed} elapsed, ~{eta} left (Ctrl-C stops; --resume goes on)",
        )
        .expect("valid template"),
    );
    bar.set_message(counts(0, 0));
    bar
}

/// The counts the progress bar shows: "3 solved, 1 not".
fn counts(solved: u64, failed: u64) -> String {
    format!("{solved} solved, {failed} not")
}

/// The fields a JSON instance line may have.
const JSON_FIELDS: [&str; 4] = ["id", "board", "goal", "optimal_length"];

/// What an instance line is, told by its text ([`line_text`]) alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LineKind {
    /// A JSON object, `{...}`: an instance's fields.
    Object,
    /// JSON that is no object (an array, a string): no instance, but said to be JSON.
    OtherJson,
    /// A board as `solve` takes one ([`is_board_line`]).
    Board,
    /// Anything else is read in the bench format, `ID OPTLEN t0 t1 ...`.
    Bench,
}

/// The kind of the instance line `text` ([`line_text`]): the one place that tells them apart.
fn line_kind(text: &str) -> LineKind {
    if text.starts_with('{') {
        LineKind::Object
    } else if text.starts_with(['[', '"']) {
        LineKind::OtherJson
    } else if is_board_line(text) {
        LineKind::Board
    } else {
        LineKind::Bench
    }
}

/// Whether a line that is not JSON is a board as `solve` takes one rather than a bench-format
/// instance: rows separated by `/` (or `;`), or k² tiles on one line (a bench line holds two
/// fields more, and k² + 2 is never a square). A `/` or `;` after the first field makes a
/// board whatever the fields are (a bench line's tiles are numbers; only its id may hold one),
/// so that a board with a bad tile gets the board's error, which names it.
fn is_board_line(text: &str) -> bool {
    let tile = |t: &str| t == "_" || t == "." || t.bytes().all(|b| b.is_ascii_digit());
    let fields: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ',' || c == '/' || c == ';')
        .filter(|f| !f.is_empty())
        .collect();
    let after_id = text
        .find(|c: char| c.is_whitespace() || c == ',')
        .map_or("", |end| &text[end..]);
    // A bench line's id may hold anything, its OPTLEN may be `-`: such a line is no board.
    after_id.contains(['/', ';'])
        || (fields.iter().all(|f| tile(f))
            && (text.contains(['/', ';']) || taquin::board::square_side(fields.len()).is_some()))
}

/// `--goal` as given, read once for the whole run: a name, laid out on each line's size, or a
/// board (from the text, a file or standard input).
#[derive(Debug, Clone)]
pub enum LineGoal {
    /// `standard`, `korf` or `snail`.
    Named(taquin::goals::NamedGoal),
    /// One goal board for every line that gives none.
    Board(Board),
}

impl LineGoal {
    /// Reads `--goal` (`text`) once, before any line: a mistyped name or a bad board is a
    /// usage error of the run, not of each line.
    pub fn read(text: &str) -> Result<LineGoal> {
        // A name wins over a file of that name, as everywhere ([`common::goal_from_text`]).
        if let Some(named) = taquin::goals::NamedGoal::from_name(text) {
            return Ok(LineGoal::Named(named));
        }
        // Any size will do for a board: it is held to each line's board below.
        Ok(LineGoal::Board(common::goal_from_text(text, 3, 3)?))
    }
}

/// The goal of a line that gives none: `--goal` (`goal`) for `board`'s size, or the standard
/// goal.
fn goal_for_line(goal: Option<&LineGoal>, board: &Board) -> Result<Board> {
    let goal = match goal {
        None => return Ok(Board::solved(board.width(), board.height())?),
        Some(LineGoal::Named(name)) => name.board(board.width(), board.height())?,
        Some(LineGoal::Board(goal)) => goal.clone(),
    };
    board.check_same_size(&goal)?;
    Ok(goal)
}

/// The text of an instance line: trimmed, and without a comment after a board's or a bench
/// line's tiles (a JSON line is kept whole: its strings may hold `#`).
fn line_text(text: &str) -> &str {
    let text = text.trim();
    if text.starts_with(['{', '[', '"']) {
        text
    } else {
        without_comment(text)
    }
}

/// Parses one instance line, in any of the formats, with `goal` (`--goal`) for the lines that
/// give none.
fn parse_instance(text: &str, line: usize, goal: Option<&LineGoal>) -> Result<Instance> {
    let text = line_text(text);
    let kind = line_kind(text);
    if kind == LineKind::Board {
        // The line itself, never a file it might name.
        let board = Board::parse(text).context("invalid board")?;
        return Ok(Instance {
            id: None,
            goal: goal_for_line(goal, &board)?,
            board,
            optimal_length: None,
        });
    }
    if kind == LineKind::OtherJson {
        // JSON, but not an object: read as a bench line it would only give a puzzling error.
        let v: Value = serde_json::from_str(text).context("invalid JSON")?;
        return Err(errors::Coded::bad_fields(format!(
            "a JSON line must be an object, with the board under \"board\": write {}",
            serde_json::json!({ "board": v })
        ))
        .into());
    }
    if kind == LineKind::Object {
        let v: Value = match taquin_api::json_of(text) {
            Ok(v) => v,
            // As the web API refuses a body that gives a field twice: which one would count?
            Err(e) if e.code == "repeated_key" => {
                let key = e
                    .extra
                    .get("field")
                    .and_then(Value::as_str)
                    .unwrap_or("a key");
                return Err(errors::Coded::new(
                    "repeated_key",
                    format!("\"{key}\" is given more than once: give each field once"),
                )
                .into());
            }
            // serde_json's own message, with where it went wrong.
            Err(_) => serde_json::from_str(text).context("invalid JSON")?,
        };
        // A misspelt field would otherwise be ignored, and its instance solved without it.
        let unknown: Vec<String> = v
            .as_object()
            .into_iter()
            .flat_map(|fields| fields.keys())
            .filter(|key| !JSON_FIELDS.contains(&key.as_str()))
            .map(|key| format!("{key:?}"))
            .collect();
        if !unknown.is_empty() {
            // `bad_fields`, as the web API calls a request with a field it does not know.
            return Err(errors::Coded::bad_fields(format!(
                "unknown field{} {}: the fields of an instance line are {}",
                if unknown.len() == 1 { "" } else { "s" },
                unknown.join(", "),
                JSON_FIELDS.map(|f| format!("\"{f}\"")).join(", ")
            ))
            .into());
        }
        let id = instance_id(v.get("id"))?;
        // `bad_fields`, as the web API calls a request without a field it needs.
        let board = json_board(v.get("board"), "board")?.ok_or_else(|| {
            errors::Coded::bad_fields(
                "missing \"board\": give it as \"1 2 3/4 5 6/7 8 0\" or [[1,2,3],[4,5,6],[7,8,0]]",
            )
        })?;
        let goal = match v.get("goal") {
            // A name (korf, snail, standard) laid out on the board's size, as --goal takes it.
            // A bad one is `bad_board`, as the same goal given as --goal is.
            Some(Value::String(s)) => taquin::goals::parse_goal(s, board.width(), board.height())
                .context(errors::Coded::bad_board("goal", "invalid goal"))?,
            other => match json_board(other, "goal")? {
                Some(g) => g,
                None => goal_for_line(goal, &board)?,
            },
        };
        board.check_same_size(&goal)?;
        let optimal_length =
            match v.get("optimal_length") {
                None | Some(Value::Null) => None,
                // `bad_fields`, as the web API calls a field of the wrong type or range.
                Some(n) => Some(n.as_u64().and_then(|n| u32::try_from(n).ok()).ok_or_else(
                    || {
                        errors::Coded::bad_fields(format!(
                            "\"optimal_length\" must be a whole number from 0 to {}, not {n}",
                            u32::MAX
                        ))
                    },
                )?),
            };
        Ok(Instance {
            id,
            board,
            goal,
            optimal_length,
        })
    } else {
        let inst = taquin::instances::parse_line(text, line)
            .map_err(|e| {
                // Neither a board nor JSON, so read as a bench line: say what a line may be.
                anyhow::Error::new(e).context(
                    "not a board (rows separated by /), a JSON object or an instance line \
                     (ID OPTLEN tiles)",
                )
            })?
            .context("the line holds no instance")?;
        Ok(Instance {
            id: Some(Value::String(inst.id)),
            board: inst.board,
            goal: inst.goal,
            optimal_length: inst.optimal_length,
        })
    }
}

/// The id of a line that is not a valid instance, when one can still be read, so that its
/// error record says which instance it is.
fn line_id(text: &str) -> Option<Value> {
    let text = line_text(text);
    match line_kind(text) {
        LineKind::Object => {
            instance_id(serde_json::from_str::<Value>(text).ok()?.get("id")).unwrap_or(None)
        }
        LineKind::OtherJson | LineKind::Board => None,
        LineKind::Bench => text
            .split(|c: char| c.is_whitespace() || c == ',')
            .find(|f| !f.is_empty())
            .map(|id| Value::String(id.to_string())),
    }
}

/// A JSON line's `id` as a record of an earlier version gave it: any string or number, even
/// one [`instance_id`] now refuses, in [`id_text`]'s words.
fn echoed_id(text: &str) -> Option<String> {
    let text = line_text(text);
    if !matches!(line_kind(text), LineKind::Object) {
        return None;
    }
    let value: Value = serde_json::from_str(text).ok()?;
    value
        .get("id")
        .filter(|id| id.is_string() || id.is_number())
        .and_then(id_text)
}

/// A JSON line's `id`, echoed by its record with the JSON type it has: a string or a whole
/// number of up to 64 bits (`null` is none). An object, an array or a boolean names no
/// instance, and any other number (`1e2`, or past 64 bits, which JSON's reader holds as a
/// float) would not come back as written: `bad_fields`.
fn instance_id(id: Option<&Value>) -> Result<Option<Value>> {
    match id {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) if n.is_f64() => Err(errors::Coded::bad_fields(format!(
            "\"id\" is a number that is not whole or passes 64 bits (read as {n}), so its record \
             could not give it back as written: write the id in quotes, as a string"
        ))
        .into()),
        Some(id @ (Value::String(_) | Value::Number(_))) => Ok(Some(id.clone())),
        Some(other) => Err(errors::Coded::bad_fields(format!(
            "\"id\" must be a string or a number, such as \"a1\" or 7, not {other}: it names \
             the instance in its record"
        ))
        .into()),
    }
}

/// An id as text, for comparing a record's with its line's: a string as it is, a number as
/// JSON writes it (records written before ids kept their type hold numbers as strings).
fn id_text(id: &Value) -> Option<String> {
    match id {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

/// A board given in JSON as text or as an array of rows.
fn json_board(v: Option<&Value>, what: &str) -> Result<Option<Board>> {
    Ok(match v {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.parse().with_context(|| format!("invalid {what}"))?),
        // Read as the web API reads it: rows, or a flat square, the blank 0, "_" or ".".
        Some(Value::Array(items)) => {
            let text = taquin_api::board_text_of_array(what, items)
                .map_err(|e| errors::Coded::bad_board(what, e.message))?;
            Some(text.parse().with_context(|| format!("invalid {what}"))?)
        }
        // A field of the wrong type: `bad_fields`, as the web API calls it.
        Some(_) => {
            return Err(errors::Coded::bad_fields(format!(
                "\"{what}\" must be a string like \"1 2/3 0\" or an array of rows"
            ))
            .into())
        }
    })
}

/// Solves one line into its record, as one of `jobs` at once: `(solved, json)`, or `None` when
/// Ctrl-C stopped it.
fn solve_line(
    item: &Work,
    args: &BatchArgs,
    goal: Option<&LineGoal>,
    jobs: usize,
    tables: &Tables,
) -> Outcome {
    let (parsed, key) = read_instance(item, goal, args);
    let mut record = Record {
        line: item.line,
        key,
        ..Record::default()
    };
    let inst = match parsed {
        Some(Ok(inst)) => inst,
        None => {
            record.status = "error";
            record.code = Some("bad_board".into());
            record.error = Some(common::not_utf8("the line", item.bad_byte));
            return Some((false, to_json(&record)));
        }
        Some(Err(e)) => {
            record.id = line_id(&item.text);
            record.status = "error";
            record.code = Some(errors::code(&e));
            record.error = Some(format!("{e:#}"));
            return Some((false, to_json(&record)));
        }
    };
    record.id = inst.id;
    record.board = Some(inst.board.to_line());
    record.goal = Some(inst.goal.to_line());
    record.optimal_length = inst.optimal_length;
    record.lower_bound = Some(manhattan_lower_bound(&inst.board, &inst.goal));
    // The instances solved at once share the memory budget.
    let options = args.search.options(taquin::Workload::Many);
    let limits = match args.limits.per_instance(jobs) {
        Ok(limits) => limits,
        Err(e) => {
            record.status = "error";
            record.code = Some(errors::code(&e));
            record.error = Some(format!("{e:#}"));
            return Some((false, to_json(&record)));
        }
    };
    let planned =
        Request::new(inst.board.clone(), inst.goal.clone(), limits.clone()).and_then(|request| {
            let plan = taquin::plan(&request, &options, tables)?;
            plan.run(&request, tables, None)
        });
    let solved = match planned {
        Ok(mut solution) => {
            match crate::solve::shorten_if_asked(
                args.shorten,
                &inst.board,
                &inst.goal,
                &mut solution,
                &limits,
            ) {
                Ok(before) => record.original_length = before,
                Err(e) => {
                    record.status = "error";
                    record.code = Some(errors::solve_code(&e).into());
                    record.error = Some(format!("post-pass: {e}"));
                    return Some((false, to_json(&record)));
                }
            }
            record.status = "solved";
            // The report carries the solve's own lower bound.
            record.lower_bound = None;
            record.check = inst
                .optimal_length
                .map(|opt| check(opt, solution.len(), solution.optimal, solution.lower_bound));
            record.report = Some(SolveReport::new(&solution).in_notation(&solution, args.notation));
            record.notation =
                (args.notation != taquin::notation::Notation::Blank).then(|| args.notation.name());
            // A length that contradicts the given optimum is a failure, as in `taquin bench`.
            record.check != Some(WRONG)
        }
        Err(SolveError::Limit {
            hit: LimitHit::Cancelled,
            ..
        }) => return None,
        Err(
            ref e @ SolveError::Limit {
                hit,
                ref stats,
                bound,
            },
        ) => {
            record.status = "limit";
            record.code = Some("limit_reached".into());
            // Its sentence too, as every record that is not solved has one.
            record.error = Some(e.to_string());
            // The same fields as `solve --json` and the web API: which limit, and the best
            // bound known (the search's, or the Manhattan distance found before it).
            record.limit = Some(hit.name());
            let lower_bound = u64::from(bound).max(record.lower_bound.unwrap_or(0));
            record.lower_bound = Some(lower_bound);
            // A bound proven past the given optimal length contradicts it, solved or not.
            record.check = inst
                .optimal_length
                .and_then(|opt| bound_check(opt, lower_bound));
            record.expanded = Some(stats.expanded);
            record.generated = Some(stats.generated);
            record.time_ms = Some(taquin::report::millis(stats.elapsed));
            false
        }
        Err(e) => {
            record.status = failure_status(&e);
            if matches!(e, SolveError::Unsolvable(_)) {
                // No distance to bound: the goal cannot be reached.
                record.lower_bound = None;
            }
            record.code = Some(errors::solve_code(&e).into());
            record.error = Some(e.to_string());
            false
        }
    };
    Some((solved, to_json(&record)))
}

/// The check of a length that contradicts the instance's optimal length.
pub(crate) const WRONG: &str = "WRONG";

/// How a solution of `length` moves, `optimal` if proven so, with `lower_bound` proven,
/// compares with the optimal length the input gives, in the words of `taquin bench`'s check
/// column: `ok` (proven optimal, and that length), `subopt` (not proven optimal, neither
/// shorter nor bounded above it) or `WRONG` (a solution shorter than it, a proven optimum of
/// another length, or a bound proven above it: either the search or the given length is
/// wrong). `taquin bench` checks its instances with it too.
pub(crate) fn check(
    optimal_length: u32,
    length: usize,
    optimal: bool,
    lower_bound: u64,
) -> &'static str {
    let matches = u32::try_from(length) == Ok(optimal_length);
    let shorter = u32::try_from(length).is_ok_and(|l| l < optimal_length);
    if (optimal && !matches) || shorter || bound_check(optimal_length, lower_bound).is_some() {
        WRONG
    } else if optimal {
        "ok"
    } else {
        "subopt"
    }
}

/// `WRONG` when `lower_bound`, proven by a search (one stopped by a limit too), exceeds the
/// optimal length the input gives: no solution can be that short. `None` otherwise: a bound
/// alone confirms nothing.
pub(crate) fn bound_check(optimal_length: u32, lower_bound: u64) -> Option<&'static str> {
    (lower_bound > u64::from(optimal_length)).then_some(WRONG)
}

fn to_json(record: &Record) -> String {
    serde_json::to_string(record).unwrap_or_else(|e| {
        serde_json::json!({
            "line": record.line,
            "status": "error",
            "code": "internal",
            "error": format!("cannot write the record: {e}"),
        })
        .to_string()
    })
}

/// The `status` of a record whose search ended without a solution (a limit aside):
/// `unsolvable`, `cycle` (a real-time player going round), or `error`. Batch's and bench's
/// records say it alike.
pub fn failure_status(e: &SolveError) -> &'static str {
    match e {
        SolveError::Limit { .. } => "limit",
        SolveError::Unsolvable(_) => "unsolvable",
        SolveError::Cycle { .. } => "cycle",
        _ => "error",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_lines() {
        assert!(parse_shard("0/3").is_err());
        assert!(parse_shard("4/3").is_err());
        assert!(parse_shard("x").is_err());
        let shards: Vec<Shard> = (1..=3)
            .map(|i| parse_shard(&format!("{i}/3")).unwrap())
            .collect();
        for line in 1..50 {
            assert_eq!(shards.iter().filter(|s| s.owns(line)).count(), 1);
        }
    }

    #[test]
    fn the_progress_bar_shows_the_counts_from_its_first_draw() {
        let screen = crate::common::tests::Screen::default();
        let bar = styled(ProgressBar::with_draw_target(
            Some(3),
            indicatif::ProgressDrawTarget::term_like(Box::new(screen.clone())),
        ));
        bar.tick();
        let shown = screen.text();
        assert!(
            shown.contains("0/3 instances, 0 solved, 0 not, "),
            "{shown:?}"
        );
    }

    #[test]
    fn both_line_formats_parse() {
        let a = parse_instance("7 - 1 2 3 0", 1, None).unwrap();
        assert_eq!(a.id, Some(Value::from("7")));
        assert_eq!(a.goal.blank(), 0);
        let b = parse_instance(r#"{"id": 3, "board": [[1,2],[0,3]]}"#, 2, None).unwrap();
        assert_eq!(b.id, Some(serde_json::json!(3)));
        assert_eq!(b.goal, Board::solved(2, 2).unwrap());
        assert!(parse_instance(r#"{"board": "1 2/3 3"}"#, 3, None).is_err());
        assert!(parse_instance("{not json", 4, None).is_err());
    }

    #[test]
    fn a_board_line_is_read_as_solve_reads_a_board_with_the_goal_given() {
        // `taquin generate`'s lines: rows by `/`, or k² tiles on one line.
        for text in ["2 1 5/4 8 3/7 0 6", "2 1 5 4 8 3 7 0 6"] {
            let inst = parse_instance(text, 1, None).unwrap();
            assert_eq!(inst.id, None);
            assert_eq!(inst.board, Board::parse("2 1 5/4 8 3/7 0 6").unwrap());
            assert_eq!(inst.goal, Board::solved(3, 3).unwrap());
            assert_eq!(line_id(text), None);
        }
        // A bench line holds two fields more than a square: it stays a bench line.
        assert_eq!(
            parse_instance("9 - 1 2 3 0", 1, None).unwrap().id,
            Some(Value::from("9"))
        );
        let korf = LineGoal::read("korf").unwrap();
        let korf = parse_instance("1 2 5/4 8 3/7 0 6", 1, Some(&korf)).unwrap();
        assert_eq!(korf.goal.blank(), 0);
        let small = LineGoal::read("0 1/2 3").unwrap();
        let json = parse_instance(r#"{"board": "1 2/0 3"}"#, 1, Some(&small)).unwrap();
        assert_eq!(json.goal, Board::parse("0 1/2 3").unwrap());
        // A goal board of another size than the line's board is refused for that line.
        let big = LineGoal::read("0 1 2/3 4 5/6 7 8").unwrap();
        assert!(parse_instance("1 2/0 3", 1, Some(&big)).is_err());
        // A bench line whose id holds a `/` or `;` stays a bench line.
        for text in ["set/1 3 1 2 0 3", "x;2 - 3 1 2 0"] {
            assert!(!is_board_line(text), "{text}");
            assert!(
                parse_instance(text, 1, None).unwrap().id.is_some(),
                "{text}"
            );
        }
        // A line is never read as a file it names.
        assert!(!is_board_line("/etc/passwd"));
        // A comment after the tiles is left out, on either kind of line.
        let board = parse_instance("2 1 5/4 8 3/7 0 6 # from generate", 1, None).unwrap();
        assert_eq!(board.board, Board::parse("2 1 5/4 8 3/7 0 6").unwrap());
        let bench = parse_instance("9 - 1 2 3 0 # easy", 1, None).unwrap();
        assert_eq!(bench.id, Some(Value::from("9")));
        // A stray line says what a line may be.
        let err = parse_instance("not a board", 7, None)
            .err()
            .expect("an error");
        assert!(
            format!("{err:#}").starts_with("not a board (rows separated by /), a JSON object"),
            "{err:#}"
        );
    }
}
