//! Pieces every subcommand shares: reading boards, limits from flags, Ctrl-C, progress display,
//! exit codes.

use std::io::{IsTerminal, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use anyhow::{anyhow, Context, Result};
use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use taquin::{Board, Limits, Progress};

use crate::errors::Coded;

/// Exit code: unsolvable, or a limit stopped the search.
pub const EXIT_FAILED: u8 = 1;
/// Exit code: bad usage, input or I/O.
pub const EXIT_USAGE: u8 = 2;
/// Exit code: Ctrl-C stopped the command (128 + SIGINT, as a shell reports a process that the
/// signal ended): whatever it printed is complete, but the work is not done.
pub const EXIT_INTERRUPTED: u8 = 130;

/// Limits shared by every command that searches.
#[derive(clap::Args, Debug, Clone)]
pub struct LimitArgs {
    /// Give up after this many seconds (fractions allowed).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = crate::common::seconds_value)]
    pub timeout: Option<f64>,
    /// Give up once this many nodes have been generated (the node being expanded is finished
    /// first, so the count may pass N by its few children).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = crate::common::positive_number::<u64>)]
    pub max_nodes: Option<u64>,
    /// Memory budget in MiB (default 4096) of the searches whose memory grows: A* and BFS stop
    /// with an error, and the beams of the anytime search and of IDA* beyond 16 cells stay
    /// narrower, instead of exhausting the machine.
    #[arg(long, value_name = "MIB", allow_negative_numbers = true, value_parser = crate::common::positive_number::<usize>)]
    pub max_memory: Option<usize>,
}

impl LimitArgs {
    /// The limits these flags ask for, with the process-wide Ctrl-C flag attached.
    pub fn limits(&self) -> Result<Limits> {
        let timeout = self.timeout.map(|t| seconds("timeout", t)).transpose()?;
        let memory = self
            .max_memory
            .map(|m| mib_to_bytes("max-memory", m))
            .transpose()?;
        let nodes = self
            .max_nodes
            .map(|n| node_budget("max-nodes", n))
            .transpose()?;
        Ok(Limits::new(timeout, nodes, memory).with_cancel(cancel_flag()))
    }

    /// The limits of one instance among `jobs` solved at once, as `batch` gives them: its
    /// share of the memory budget ([`taquin::search::limits_per_job`]).
    pub fn per_instance(&self, jobs: usize) -> Result<Limits> {
        Ok(taquin::search::limits_per_job(self.limits()?, jobs))
    }
}

/// The duration of a `--NAME SECONDS` flag, checked by the core's
/// [`taquin::limits::timeout_secs`] (positive, fractions allowed, at most a year).
pub fn seconds(name: &str, value: f64) -> Result<Duration> {
    taquin::limits::timeout_secs(value)
        .map_err(|e| Coded::bad_limit(format!("--{name} {e}")).into())
}

/// The bytes of a `--NAME MIB` flag, refused when they do not fit in memory addresses.
pub fn mib_to_bytes(name: &str, mib: usize) -> Result<usize> {
    taquin::limits::mebibytes(mib).map_err(|e| Coded::bad_limit(format!("--{name} {e}")).into())
}

/// A node budget given as `--{name}`, refused when 0 ([`taquin::limits::node_budget`]).
pub fn node_budget(name: &str, nodes: u64) -> Result<u64> {
    taquin::limits::node_budget(nodes).map_err(|e| Coded::bad_limit(format!("--{name} {e}")).into())
}

/// A thread count given as `--{name}`, refused above [`taquin::limits::MAX_THREADS`].
pub fn thread_count(name: &str, threads: usize) -> Result<usize> {
    taquin::limits::thread_count(threads)
        .map_err(|e| Coded::bad_fields(format!("--{name} {e}")).into())
}

/// A whole-number flag's value (for clap's `value_parser`, with `allow_negative_numbers` so
/// that `-5` reaches it rather than being taken for a flag), refused in words that say what is
/// wrong with it.
pub fn whole_number<T: std::str::FromStr>(text: &str) -> Result<T, String> {
    number_from(text, 0)
}

/// [`whole_number`] of a flag that takes 1 or more (a node or memory budget, `--jobs`): a
/// negative value is told that range, not "0 or more", since 0 is refused too.
pub fn positive_number<T: std::str::FromStr>(text: &str) -> Result<T, String> {
    number_from(text, 1)
}

/// A whole-number flag's value, whose range starts at `least` (said when a negative one is
/// given).
fn number_from<T: std::str::FromStr>(text: &str, least: u8) -> Result<T, String> {
    let trimmed = text.trim();
    trimmed.parse().map_err(|_| {
        let digits = trimmed.trim_start_matches(['-', '+']);
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            if trimmed.starts_with('-') {
                format!("a negative number: give a whole number, {least} or more")
            } else {
                format!("too large: the most any flag takes is {}", u64::MAX)
            }
        } else {
            "not a whole number: give digits only, no fraction, unit or exponent (e.g. 1000)"
                .to_string()
        }
    })
}

/// A `--NAME SECONDS` flag's value (for clap's `value_parser`, with `allow_negative_numbers`
/// so that `-5` reaches the range check): a number, fractions allowed, refused in words that
/// say what to give. Its range is checked with the other limits ([`seconds`]).
pub fn seconds_value(text: &str) -> Result<f64, String> {
    text.trim().parse().map_err(|_| {
        "not a number of seconds: give digits, a fraction allowed, no unit (e.g. 10 or 0.5)"
            .to_string()
    })
}

/// A `--jobs` value: a whole number of instances solved at once, refused when 0 (which would
/// solve none; leaving the flag out gives every core).
pub fn job_count(text: &str) -> Result<usize, String> {
    match positive_number::<usize>(text)? {
        0 => Err("0 solves nothing: give 1 or more, or leave --jobs out for every core".into()),
        n => Ok(n),
    }
}

/// Parses a `WxH` size argument with the core's [`taquin::board::parse_size`] (for clap's
/// `value_parser`).
pub fn parse_size(text: &str) -> Result<(usize, usize), String> {
    taquin::board::parse_size(text).map_err(|e| e.to_string())
}

/// Set by Ctrl-C only. The cancel flag itself cannot tell: a search may raise the flag it is
/// given to stop a helper of its own.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// A second interrupt this soon after the first is the same one delivered twice, not a second
/// Ctrl-C: `timeout -s INT` sends its signal both to the command and to the command's process
/// group, so a script that stops a search that way would otherwise lose its answer.
const SAME_INTERRUPT: std::time::Duration = std::time::Duration::from_millis(500);

/// A flag raised by Ctrl-C: searches see it and stop cleanly with "cancelled", and the command
/// then exits with [`EXIT_INTERRUPTED`] ([`interrupted`]). A second Ctrl-C (more than
/// [`SAME_INTERRUPT`] after the first) exits at once. The handler is installed by the first
/// call, so that a command that never searches keeps the default effect of Ctrl-C (the shell
/// also reports 130 for it).
pub fn cancel_flag() -> Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let f = flag.clone();
        let mut first: Option<std::time::Instant> = None;
        // If a handler cannot be installed, Ctrl-C simply keeps its default effect. Whether
        // this is a second Ctrl-C is told by the handler's own record, not by the flag, which
        // a search may also raise to stop its helpers.
        let _ = ctrlc::set_handler(move || {
            INTERRUPTED.store(true, Ordering::SeqCst);
            f.store(true, Ordering::SeqCst);
            match first {
                None => first = Some(std::time::Instant::now()),
                Some(at) if at.elapsed() >= SAME_INTERRUPT => {
                    std::process::exit(EXIT_INTERRUPTED.into())
                }
                Some(_) => {}
            }
        });
        flag
    })
    .clone()
}

/// True once Ctrl-C was pressed while the handler of [`cancel_flag`] was installed.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// The most bytes of board text read from a file or standard input: a 1000 x 1000 board (the
/// largest there is) takes under 7 MB, so more is not a board, and reading it all would only
/// fill the memory.
pub const MAX_BOARD_TEXT: u64 = 64 << 20;

/// At most [`MAX_BOARD_TEXT`] bytes of `reader` as text, or an error that says the input is
/// too large to be a board, or not UTF-8 text ([`text_of`]).
fn read_bounded(reader: impl Read, what: &str, from: &str) -> Result<String> {
    let mut bytes = Vec::new();
    reader
        .take(MAX_BOARD_TEXT + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("reading the {what} from {from}"))?;
    anyhow::ensure!(
        bytes.len() as u64 <= MAX_BOARD_TEXT,
        "the {what} from {from} is over {} MiB: no board is that large (a 1000x1000 board's text \
         is under 7 MB)",
        MAX_BOARD_TEXT >> 20
    );
    text_of(bytes, from).map_err(|message| Coded::bad_board(what, message).into())
}

/// `bytes` read from `from` (a file's name, or "standard input") as text, without the
/// byte-order mark some Windows editors write first ([`taquin::npuzzle_file::without_bom`]),
/// or the sentence of [`not_utf8`] when they are not UTF-8 text.
pub fn text_of(bytes: Vec<u8>, from: &str) -> Result<String, String> {
    if is_utf16(&bytes) {
        return Err(not_utf8(from, None));
    }
    let mut text =
        String::from_utf8(bytes).map_err(|e| not_utf8(from, Some(e.utf8_error().valid_up_to())))?;
    let bom = text.len() - taquin::npuzzle_file::without_bom(&text).len();
    text.drain(..bom);
    Ok(text)
}

/// Whether `bytes` look like UTF-16 text, as some Windows editors and PowerShell's `>` save
/// it: a UTF-16 byte-order mark first, or NUL bytes, which every character of the ASCII range
/// holds in UTF-16 and no text holds in UTF-8. Read as UTF-8, such text is garbage throughout,
/// not one bad line.
pub fn is_utf16(bytes: &[u8]) -> bool {
    bytes.starts_with(b"\xff\xfe") || bytes.starts_with(b"\xfe\xff") || bytes.contains(&0)
}

/// The one sentence for text that is not UTF-8: `what` (a file's name, "standard input", "the
/// line") is not UTF-8 text, why (`bad_byte`: which byte is not, from 0; `None`: the text is
/// UTF-16, [`is_utf16`]), and what to do.
pub fn not_utf8(what: &str, bad_byte: Option<usize>) -> String {
    let why = match bad_byte {
        Some(at) => format!("its byte {} is not", at + 1),
        None => "it is UTF-16, as some Windows editors save text".to_string(),
    };
    format!("{what} is not UTF-8 text ({why}): save the file as UTF-8")
}

/// Whether `arg` names something to read as a file: a regular file, or a pipe or device
/// (`<(...)`, `/dev/stdin`, a named pipe), anything that exists and is not a directory.
pub fn names_a_file(path: impl AsRef<std::path::Path>) -> bool {
    std::fs::metadata(path).is_ok_and(|meta| !meta.is_dir())
}

/// Reads a board given on the command line, or from standard input when the argument is `-`.
pub fn read_board(arg: &str, what: &str) -> Result<Board> {
    let text = if arg == "-" {
        // Standard input is read to its end once: a second '-' would find it empty.
        static STDIN_TAKEN: AtomicBool = AtomicBool::new(false);
        anyhow::ensure!(
            !STDIN_TAKEN.swap(true, Ordering::SeqCst),
            "the board and the goal cannot both come from standard input ('-'): give one of \
             them on the command line"
        );
        read_bounded(std::io::stdin(), what, "standard input")?
    } else if names_a_file(arg) {
        let file =
            std::fs::File::open(arg).with_context(|| format!("reading the {what} from {arg}"))?;
        read_bounded(file, what, arg)?
    } else if std::path::Path::new(arg).is_dir() {
        return Err(Coded::bad_board(
            what,
            format!("invalid {what}: '{arg}' is a directory, not a board or a board's file"),
        )
        .into());
    } else {
        arg.to_string()
    };
    taquin::npuzzle_file::parse_board(&text).with_context(|| {
        // Board text holds no letters (the blank is 0, _ or .): an argument with letters was
        // most likely meant as a file's name.
        let message = if arg != "-" && arg.chars().any(char::is_alphabetic) && !names_a_file(arg) {
            format!("invalid {what}: there is no file '{arg}', and it is not a board either")
        } else {
            match stacked_blocks(&text) {
                blocks @ 2.. => format!(
                    "invalid {what}: the text holds {blocks} blocks of rows with empty lines \
                     between them, read here as one board; give one board (`taquin batch` takes \
                     many, one a line)"
                ),
                _ => format!("invalid {what}"),
            }
        };
        Coded::bad_board(what, message)
    })
}

/// Blocks of rows in `text` separated by empty lines (comments after `#` left out): more than
/// one is most likely several boards in one file.
fn stacked_blocks(text: &str) -> usize {
    let mut blocks = 0;
    let mut in_block = false;
    for line in text.lines() {
        let empty = line.split('#').next().unwrap_or("").trim().is_empty();
        if !empty && !in_block {
            blocks += 1;
        }
        in_block = !empty;
    }
    blocks
}

/// The goal: the one given, or 1..N-1 then the blank for the board's size.
pub fn read_goal(goal: Option<&str>, board: &Board) -> Result<Board> {
    let goal = match goal {
        Some(g) => goal_from_text(g, board.width(), board.height())?,
        None => Board::solved(board.width(), board.height())?,
    };
    board.check_same_size(&goal)?;
    Ok(goal)
}

/// A goal as the user wrote it: a name (`korf`, `snail`, ...) laid out on a `width` x
/// `height` board, a board, `-` for standard input or a file holding a board. A name wins
/// over a file of that name in the working directory (`./korf` reads the file), so that a
/// stray file never changes the goal unseen. A board of another size is returned as it is:
/// the caller refuses it in its own words.
pub fn goal_from_text(text: &str, width: usize, height: usize) -> Result<Board> {
    let is_name = taquin::goals::NamedGoal::from_name(text).is_some();
    if text != "-" && (is_name || !names_a_file(text)) {
        if let Some(named) = taquin::goals::goal_by_name(text, width, height) {
            return named.context(Coded::bad_board("goal", "invalid goal"));
        }
    }
    read_board(text, "goal")
}

/// A spinner on standard error showing a running search, or nothing when stderr is not a
/// terminal (so pipes and logs stay clean).
pub struct Spinner {
    bar: Option<ProgressBar>,
    /// The answers a search reported (an anytime search's, IDA*'s beams' solutions beyond 16
    /// cells).
    improvements: taquin::Improvements,
    /// Whether a Ctrl-C gives the best so far as the answer (the anytime search) or ends the
    /// search with none (IDA*, whose answer must be proven).
    cancel_keeps_best: bool,
    /// Whether each improvement is written as a plain line when there is no spinner (stderr
    /// is a pipe or a log): `--explain` asks for it, so that a log records how the answer
    /// came.
    logs_improvements: bool,
}

impl Spinner {
    /// A spinner with `label`, visible only on a terminal.
    pub fn new(label: &str) -> Spinner {
        let bar = std::io::stderr()
            .is_terminal()
            .then(|| shown(ProgressBar::new_spinner()));
        let spinner = Spinner::on(bar, label);
        // Ticking once the style is set, so that the first frame has it too.
        if let Some(bar) = &spinner.bar {
            bar.enable_steady_tick(Duration::from_millis(120));
        }
        spinner
    }

    /// A spinner drawn by `bar` (none: nothing is shown).
    fn on(bar: Option<ProgressBar>, label: &str) -> Spinner {
        if let Some(bar) = &bar {
            // The time is the spinner's own clock, so that it runs on between a search's
            // reports (IDA*'s come every few thousand nodes, but a table read from a cold disk
            // or a build holds them up).
            let style = ProgressStyle::with_template("{spinner} {prefix} {seconds}  {msg}")
                .expect("valid template")
                .with_key(
                    "seconds",
                    |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                        let _ = write!(w, "{:.1}s", state.elapsed().as_secs_f64());
                    },
                );
            bar.set_style(style);
            bar.set_prefix(label.to_string());
        }
        Spinner {
            bar,
            improvements: taquin::Improvements::new(),
            cancel_keeps_best: true,
            logs_improvements: false,
        }
    }

    /// The spinner of a search run by `plan`: a Ctrl-C keeps the best answer so far only in
    /// an anytime search.
    pub fn for_plan(plan: &taquin::Plan) -> Spinner {
        Spinner {
            cancel_keeps_best: plan.algorithm == taquin::Algorithm::Anytime,
            ..Spinner::new(&format!("{} + {}", plan.algorithm, plan.heuristic_name()))
        }
    }

    /// The same spinner, writing each improvement as a plain line on standard error when it
    /// is not a terminal (`--explain`).
    pub fn logging_improvements(self, explain: bool) -> Spinner {
        Spinner {
            logs_improvements: explain,
            ..self
        }
    }

    /// Shows a search's progress.
    pub fn update(&self, p: Progress) {
        if self.bar.is_none() && !self.logs_improvements {
            return;
        }
        // An anytime search's improvement: a line of its own (above the spinner, if any).
        if let Some(best) = self.improvements.news(&p) {
            let line = format!(
                "improved: {best} moves, optimal >= {}  ({:.2} s)",
                p.bound,
                p.elapsed.as_secs_f64()
            );
            match &self.bar {
                Some(bar) => bar.println(line),
                None => eprintln!("{line}"),
            }
        }
        let Some(bar) = &self.bar else {
            return;
        };
        match p.best {
            Some(best) => {
                // Within 80 columns with the longest label, so that it never wraps.
                let cancel = if self.cancel_keeps_best {
                    "keeps it"
                } else {
                    "cancels"
                };
                bar.set_message(format!(
                    "best {best}, optimal >= {}  (Ctrl-C {cancel})",
                    p.bound,
                ));
            }
            None => {
                let best = self
                    .improvements
                    .shortest()
                    .map_or(String::new(), |b| format!(", best {b}"));
                bar.set_message(format!(
                    "bound {}{best}  {} nodes  (Ctrl-C cancels)",
                    p.bound,
                    thousands(p.generated),
                ))
            }
        }
    }

    /// Removes the spinner.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// `1234567` -> `"1,234,567"`.
pub use taquin::report::thousands;

/// Milliseconds with sensible precision.
pub fn millis(d: Duration) -> String {
    let ms = d.as_secs_f64() * 1000.0;
    if ms < 10.0 {
        format!("{ms:.3} ms")
    } else if ms < 10_000.0 {
        format!("{ms:.1} ms")
    } else {
        format!("{:.2} s", ms / 1000.0)
    }
}

/// A search that took at least this long with a smaller table set than the one the planner
/// knows earns the tip of [`table_tip`].
const TIP_AFTER: Duration = Duration::from_millis(300);

/// Prints, on a terminal's standard error only (never in pipes or JSON), one line suggesting
/// the build of the larger table set `plan` names when the search took long enough that it
/// would have paid off. The CLI never starts a build of minutes on its own.
pub fn table_tip(plan: &taquin::Plan, goal: &Board, elapsed: Duration) {
    let Some(better) = plan.better else {
        return;
    };
    if elapsed < TIP_AFTER || !std::io::stderr().is_terminal() {
        return;
    }
    let specs = better.partition(goal).unwrap_or_default();
    let entries: u64 = specs.iter().map(|s| s.entries()).sum();
    let threads = taquin::pdb::build::default_threads();
    let seconds = better.build_seconds(goal, threads);
    eprintln!(
        "tip: `taquin pdb build --size {}x{}{}` builds the {} tables once ({} entries, {} on {threads} cores); boards like this one then solve many times faster",
        goal.width(),
        goal.height(),
        goal_flag(goal),
        better,
        thousands(entries),
        human_duration(Duration::from_secs_f64(seconds)),
    );
}

/// A duration as a person reads an estimate: "under a second", "about 40 s", "about 4.5 min".
pub fn human_duration(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s < 1.0 {
        "under a second".into()
    } else if s < 90.0 {
        format!("about {s:.0} s")
    } else {
        format!("about {:.1} min", s / 60.0)
    }
}

/// ` --goal NAME` for a named goal other than the standard one (`korf`, `snail`), ` --goal
/// "..."` for any other goal, else nothing.
pub fn goal_flag(goal: &Board) -> String {
    let named = taquin::goals::NamedGoal::ALL.into_iter().find(|g| {
        g.board(goal.width(), goal.height())
            .is_ok_and(|b| &b == goal)
    });
    match named {
        Some(taquin::goals::NamedGoal::Standard) => String::new(),
        Some(name) => format!(" --goal {name}"),
        None => format!(" --goal \"{}\"", goal.to_line()),
    }
}

/// True when the error is a write to a closed pipe (e.g. `taquin generate | head`): a clean exit.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Refuses to start a run afresh into `path`, a file of records (`batch --output`, `bench
/// --results`) that already holds something: hours of answers must not be lost to a
/// forgotten `--resume`. A pipe or device (`-o /dev/stdout`) is written as it is.
pub fn refuse_to_overwrite_records(path: &std::path::Path) -> Result<()> {
    let holds = std::fs::metadata(path).is_ok_and(|meta| meta.is_file() && meta.len() > 0);
    anyhow::ensure!(
        !holds,
        "{} already holds records: add --resume to go on with them, or name a new file",
        path.display()
    );
    Ok(())
}

/// What a JSON Lines file that a run writes as it goes (`batch --output`, `bench --results`)
/// holds, for `--resume`: its complete records, and an unfinished last line (an interruption
/// mid-write) that [`Written::cut_torn_line`] removes once the caller has checked the records,
/// so that appending goes on from a clean end.
pub struct Written {
    path: std::path::PathBuf,
    /// Every line that ends with its newline, each a JSON record.
    pub records: Vec<serde_json::Value>,
    /// Bytes of the complete lines.
    complete: u64,
    /// Bytes of the whole file.
    len: u64,
}

impl Written {
    /// Reads `path` and changes nothing. A complete line that is not a JSON record, or an
    /// unfinished last line that does not begin like one, is an error: the file is not a run's
    /// output, and nothing in it may be lost. A missing file holds nothing.
    pub fn read(path: &std::path::Path) -> Result<Written> {
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => {
                return Err(e).with_context(|| format!("reading {} to resume", path.display()))
            }
        };
        // Bytes, not text: an interruption may cut a line inside a character.
        let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let refuse = |line: usize, text: &[u8]| {
            let shown: String = String::from_utf8_lossy(text)
                .trim()
                .chars()
                .take(60)
                .collect();
            anyhow!(
                "{} is not the output of this run, so --resume leaves it as it is: its line {line} \
                 is not a JSON record ({shown:?}; an interrupted run leaves at most an unfinished \
                 last line). Write to another file, or delete this one to start again",
                path.display()
            )
        };
        let mut records = Vec::new();
        for (i, line) in bytes[..complete]
            .split_inclusive(|&b| b == b'\n')
            .enumerate()
        {
            records.push(serde_json::from_slice(line).map_err(|_| refuse(i + 1, line))?);
        }
        let tail = &bytes[complete..];
        if !tail.is_empty() && !tail.trim_ascii_start().starts_with(b"{") {
            return Err(refuse(records.len() + 1, tail));
        }
        Ok(Written {
            path: path.to_path_buf(),
            records,
            complete: complete as u64,
            len: bytes.len() as u64,
        })
    }

    /// Removes the unfinished last line, if there is one, for appending to go on.
    pub fn cut_torn_line(&self) -> Result<()> {
        if self.complete == self.len {
            return Ok(());
        }
        std::fs::OpenOptions::new()
            .write(true)
            .open(&self.path)
            .and_then(|f| f.set_len(self.complete))
            .with_context(|| format!("truncating the torn last line of {}", self.path.display()))
    }
}

/// "1 move", "31 moves": a count and its word, plural but for one.
pub fn count(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// Every progress bar and spinner of the process, drawn together: a table's loading spinner and
/// the search's each keep a line of their own instead of drawing over each other, and lines
/// printed while they show ([`print_line`]) go above them.
fn bars() -> &'static MultiProgress {
    static BARS: OnceLock<MultiProgress> = OnceLock::new();
    BARS.get_or_init(MultiProgress::new)
}

/// `bar`, drawn with the process's other bars ([`bars`]).
pub fn shown(bar: ProgressBar) -> ProgressBar {
    bars().add(bar)
}

/// A line on standard error that does not tear the bars on show: they are cleared while it is
/// written, and drawn again below it. Written whether or not stderr is a terminal (a log keeps
/// it).
pub fn print_line(line: &str) {
    bars().suspend(|| eprintln!("{line}"));
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn a_goal_flag_names_a_named_goal_and_writes_out_any_other() {
        let parse = |text: &str| Board::parse(text).unwrap();
        assert_eq!(goal_flag(&parse("1 2 3/4 5 6/7 8 0")), "");
        assert_eq!(goal_flag(&parse("0 1 2/3 4 5/6 7 8")), " --goal korf");
        assert_eq!(goal_flag(&parse("1 2 3/8 0 4/7 6 5")), " --goal snail");
        assert_eq!(
            goal_flag(&parse("2 1 3/4 5 6/7 8 0")),
            " --goal \"2 1 3/4 5 6/7 8 0\""
        );
    }

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(0u64), "0");
        assert_eq!(thousands(999u64), "999");
        assert_eq!(thousands(1000u64), "1,000");
        assert_eq!(thousands(35_911_891_875u64), "35,911,891,875");
    }

    /// A terminal that keeps what is written to it.
    #[derive(Debug, Default, Clone)]
    pub(crate) struct Screen(Arc<std::sync::Mutex<String>>);

    impl Screen {
        /// Everything written to it so far.
        pub(crate) fn text(&self) -> String {
            self.0.lock().unwrap().clone()
        }
    }

    impl indicatif::TermLike for Screen {
        fn width(&self) -> u16 {
            200
        }
        fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn write_line(&self, s: &str) -> std::io::Result<()> {
            self.write_str(&format!("{s}\n"))
        }
        fn write_str(&self, s: &str) -> std::io::Result<()> {
            self.0.lock().unwrap().push_str(s);
            Ok(())
        }
        fn clear_line(&self) -> std::io::Result<()> {
            Ok(())
        }
        fn flush(&self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn the_spinner_shows_its_own_clock_not_the_time_of_the_last_report() {
        let screen = Screen::default();
        let bar = ProgressBar::with_draw_target(
            None,
            indicatif::ProgressDrawTarget::term_like(Box::new(screen.clone())),
        );
        let spinner = Spinner::on(Some(bar.clone()), "anytime + pdb");
        // The search's last report is from long ago (as when an anytime search has found
        // nothing better for a while): the time shown must not be the report's.
        spinner.update(Progress {
            generated: 5,
            expanded: 2,
            bound: 93,
            elapsed: Duration::from_secs(4321),
            best: Some(99),
            best_moves: None,
        });
        // Draws are spaced out (20 a second at most): wait for the next one.
        std::thread::sleep(Duration::from_millis(100));
        bar.tick();
        let shown = screen.0.lock().unwrap().clone();
        assert!(
            shown.contains("improved: 99 moves, optimal >= 93"),
            "{shown}"
        );
        let line = shown
            .lines()
            .rfind(|l| l.contains("anytime + pdb"))
            .unwrap_or_else(|| panic!("no spinner line in {shown:?}"));
        assert!(line.contains("best 99, optimal >= 93"), "{line}");
        assert!(!line.contains("4321"), "{line}");
        let seconds = line
            .split_whitespace()
            .find_map(|w| w.strip_suffix('s')?.parse::<f64>().ok())
            .unwrap_or_else(|| panic!("no time in {line:?}"));
        assert!(seconds < 4321.0, "{line}");
    }

    #[test]
    fn an_optimal_search_with_a_solution_in_hand_says_ctrl_c_cancels_and_shows_it_beside_the_bound()
    {
        let screen = Screen::default();
        let bar = ProgressBar::with_draw_target(
            None,
            indicatif::ProgressDrawTarget::term_like(Box::new(screen.clone())),
        );
        let spinner = Spinner {
            cancel_keeps_best: false,
            ..Spinner::on(Some(bar.clone()), "idastar + pdb")
        };
        let report = |best: Option<u32>| Progress {
            generated: 1_234_567,
            expanded: 2,
            bound: 94,
            elapsed: Duration::from_secs(1),
            best,
            best_moves: None,
        };
        // A solution from the beams, then IDA*'s own report.
        spinner.update(report(Some(100)));
        std::thread::sleep(Duration::from_millis(100));
        bar.tick();
        let line = |screen: &Screen| {
            let shown = screen.0.lock().unwrap().clone();
            shown
                .lines()
                .rfind(|l| l.contains("idastar + pdb"))
                .unwrap_or_else(|| panic!("no spinner line in {shown:?}"))
                .to_string()
        };
        let first = line(&screen);
        assert!(
            first.contains("best 100, optimal >= 94  (Ctrl-C cancels)"),
            "{first}"
        );
        spinner.update(report(None));
        std::thread::sleep(Duration::from_millis(100));
        bar.tick();
        let second = line(&screen);
        assert!(
            second.contains("bound 94, best 100  1,234,567 nodes"),
            "{second}"
        );
    }
}
