//! `taquin gods-number WxH`: the largest optimal distance from the goal on a small board, with
//! the number of states at each distance, by a breadth-first search over every state at two
//! bits per state on every core.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use anyhow::Result;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use taquin::gods_number::{gods_number, GodsError, LayerProgress};
use taquin::metric::Metric;

use crate::common::parse_size;
use crate::common::{self, LimitArgs, EXIT_FAILED};
use crate::errors::Coded;
use crate::interchange::parse_metric;

/// Arguments of `taquin gods-number`. The limit flags are `solve`'s, with help texts that say
/// what they bound here.
#[derive(clap::Args, Debug)]
#[command(
    mut_arg("timeout", |a| a.help("Give up after this many seconds (the layers done so far are reported)")),
    mut_arg("max_nodes", |a| a.help("Give up once this many states have been reached")),
    mut_arg("max_memory", |a| a.help("Memory budget of the state array (two bits per state) in MiB (default 4096)")),
)]
pub struct GodsNumberArgs {
    /// The board size, WIDTHxHEIGHT: up to 12 cells (3x4, 2x6) in the default memory budget.
    /// May be left out when --goal is a board (its size is taken).
    #[arg(value_parser = parse_size)]
    pub size: Option<(usize, usize)>,
    /// Count moves in stm (one per tile slid) or mtm (one per run of tiles slid at once).
    #[arg(long, default_value = "stm", value_parser = parse_metric)]
    pub metric: Metric,
    /// The goal searched from: standard, korf, snail, a board, `-` for standard input or a
    /// file holding a board (default: standard).
    #[arg(long, short)]
    pub goal: Option<String>,
    /// Threads (0: every core).
    #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = crate::common::whole_number::<usize>)]
    pub threads: usize,
    /// The limits, with what each bounds here (see the help texts set on the struct).
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Print one JSON object: diameter, distribution, states, antipodes (a sample of the
    /// farthest states) and antipode_count (how many there are in all), ...
    #[arg(long)]
    pub json: bool,
}

/// Runs `taquin gods-number`.
pub fn run(args: GodsNumberArgs) -> Result<ExitCode> {
    let (width, height) = match (args.size, &args.goal) {
        (Some(size), _) => size,
        (None, Some(g)) => return run_on(goal_without_size(g)?, args),
        (None, None) => {
            return Err(Coded::new(
                "bad_usage",
                "give the board size, e.g. `taquin gods-number 3x3`, or a goal board \
                 (`--goal \"1 2 3/4 5 6/7 8 0\"`)",
            )
            .into())
        }
    };
    let goal = match &args.goal {
        Some(g) => {
            let goal = common::goal_from_text(g, width, height)?;
            if (goal.width(), goal.height()) != (width, height) {
                return Err(Coded::new(
                    "size_mismatch",
                    format!(
                        "invalid goal: the goal is {}x{} but the size asked is {width}x{height}: \
                         give a goal of that size, or the size of the goal",
                        goal.width(),
                        goal.height()
                    ),
                )
                .into());
            }
            goal
        }
        None => taquin::Board::solved(width, height)?,
    };
    run_on(goal, args)
}

/// The goal `text` names when no size is given: a board, `-` or a file holding one. A name
/// (`korf`, ...) needs the size it is laid out on.
fn goal_without_size(text: &str) -> Result<taquin::Board> {
    // A name wins over a file of that name, as everywhere ([`common::goal_from_text`]).
    let is_file = text == "-"
        || (taquin::goals::NamedGoal::from_name(text).is_none() && common::names_a_file(text));
    match taquin::goals::goal_by_name(text, 3, 3) {
        // A word that is no goal's name: the same message as with a size.
        Some(Err(e)) if !is_file => {
            return Err(anyhow::Error::new(e).context(Coded::bad_board("goal", "invalid goal")))
        }
        Some(Ok(_)) if !is_file => {}
        _ => return common::read_board(text, "goal"),
    }
    Err(Coded::new(
        "bad_usage",
        format!(
            "the goal `{text}` is a name, laid out on the size given: give the size too, \
             e.g. `taquin gods-number 3x3 --goal {text}`"
        ),
    )
    .into())
}

/// Runs the search from `goal` (its size checked by the caller).
fn run_on(goal: taquin::Board, args: GodsNumberArgs) -> Result<ExitCode> {
    let (width, height) = (goal.width(), goal.height());
    let limits = args.limits.limits()?;
    common::thread_count("threads", args.threads)?;
    let bar = (std::io::stderr().is_terminal() && !args.json).then(|| {
        let bar = common::shown(ProgressBar::new(0));
        bar.set_style(
            ProgressStyle::with_template(
                "{bar:30} {pos}/{len} states  distance {msg}  {elapsed}  (Ctrl-C cancels)",
            )
            .expect("valid template"),
        );
        bar
    });
    let show = |p: LayerProgress| {
        if let Some(bar) = &bar {
            bar.set_length(p.total);
            bar.set_position(p.found);
            bar.set_message(p.depth.to_string());
        }
    };
    let started = std::time::Instant::now();
    let result = gods_number(&goal, args.metric, args.threads, &limits, Some(&show));
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let result = match result {
        Ok(r) => r,
        Err(err @ GodsError::Stopped { .. }) => {
            if args.json {
                let mut value = crate::errors::gods_error(&err);
                // As every command's limit_reached and cancelled errors have it.
                value["time_ms"] = json!(taquin::report::millis(started.elapsed()));
                println!("{value}");
            } else {
                eprintln!("{err}");
            }
            return Ok(ExitCode::from(EXIT_FAILED));
        }
        Err(err) => return Err(err.into()),
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let antipodes: Vec<String> = result.antipodes.iter().map(|b| b.to_line()).collect();
    if args.json {
        let value = json!({
            "width": width,
            "height": height,
            "metric": args.metric.name(),
            "goal": goal.to_line(),
            "diameter": result.diameter(),
            "distribution": result.distribution,
            "states": result.states(),
            // A sample of the farthest states; how many there are in all beside it.
            "antipodes": antipodes,
            "antipode_count": result.distribution.last(),
            "time_ms": taquin::report::millis(result.elapsed),
            "peak_memory_bytes": result.memory_bytes,
        });
        writeln!(out, "{value}")?;
    } else {
        writeln!(
            out,
            "{width}x{height}, goal {}, {} metric: God's number is {} ({} states, {} at the largest distance)",
            goal.to_line(),
            args.metric.name().to_uppercase(),
            result.diameter(),
            common::thousands(result.states()),
            common::thousands(*result.distribution.last().unwrap_or(&0)),
        )?;
        writeln!(out, "distance  states")?;
        for (d, count) in result.distribution.iter().enumerate() {
            writeln!(out, "{d:>8}  {}", common::thousands(*count))?;
        }
        let shown = antipodes.len().min(4);
        writeln!(out, "farthest: {}", antipodes[..shown].join(", "))?;
        writeln!(
            out,
            "time {}, memory {:.1} MiB",
            common::millis(result.elapsed),
            result.memory_bytes as f64 / (1 << 20) as f64
        )?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
