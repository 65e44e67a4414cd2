//! `taquin compare`: the classic heuristics comparison as a table. The same board is solved with each
//! heuristic (and algorithm), so a user sees the cleverer heuristic expand fewer nodes.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use serde_json::json;
use taquin::{
    Algorithm, HeuristicKind, Limits, Request, SolveError, SolveOptions, SolveReport, Tables,
};

use crate::common::{self, Spinner, EXIT_INTERRUPTED};
use crate::errors;
use crate::solve::{parse_algorithm, parse_heuristic};

/// Arguments of `taquin compare`.
#[derive(clap::Args, Debug)]
pub struct CompareArgs {
    /// The board; `-` reads it from standard input.
    pub board: String,
    /// The goal: standard (1..N-1 then the blank, the default), korf (the blank first), snail,
    /// a board, a file holding one, or `-` for standard input.
    #[arg(long, short)]
    pub goal: Option<String>,
    /// Algorithms to compare (repeat or comma-separate).
    #[arg(long, short, value_delimiter = ',', default_values = ["astar", "idastar"], value_parser = parse_algorithm)]
    pub algorithm: Vec<Algorithm>,
    /// Heuristics to run each algorithm with (repeat or comma-separate; default: misplaced,
    /// manhattan, linear-conflict, walking-distance). Pattern databases too, e.g.
    /// `-H linear-conflict,pdb:6-6-3`.
    #[arg(long = "heuristic", short = 'H', value_delimiter = ',', value_parser = parse_heuristic)]
    pub heuristics: Vec<HeuristicKind>,
    /// Time limit of each run, in seconds: a run stopped by a limit shows the lower bound it
    /// proved (">=BOUND") for its length, and the limit (time, nodes, memory) for "optimal".
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 10.0,
        allow_negative_numbers = true,
        value_parser = crate::common::seconds_value
    )]
    pub timeout: f64,
    /// Nodes each run may generate (default: no limit but the time).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = crate::common::positive_number::<u64>)]
    pub max_nodes: Option<u64>,
    /// Memory budget of each A* run in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 2048, allow_negative_numbers = true, value_parser = crate::common::positive_number::<usize>)]
    pub max_memory: usize,
    /// One JSON object per run instead of the table (`default`: true on the planner's own run).
    #[arg(long)]
    pub json: bool,
}

/// Runs `taquin compare`: the chosen algorithms with every heuristic, then the planner's default
/// (marked `default` in the table, with its reason below it).
pub fn run(args: CompareArgs, tables: &Tables) -> Result<ExitCode> {
    let board = common::read_board(&args.board, "board")?;
    let goal = common::read_goal(args.goal.as_deref(), &board)?;
    let timeout = common::seconds("timeout", args.timeout)?;
    let max_memory = common::mib_to_bytes("max-memory", args.max_memory)?;
    let max_nodes = args
        .max_nodes
        .map(|n| common::node_budget("max-nodes", n))
        .transpose()?;
    named_once("-a", args.algorithm.iter().map(|a| a.name().to_string()))?;
    named_once("-H", args.heuristics.iter().map(|h| h.name()))?;
    let heuristics = if args.heuristics.is_empty() {
        HeuristicKind::ALL.to_vec()
    } else {
        args.heuristics.clone()
    };
    let mut out = std::io::stdout().lock();
    let request = match Request::new(board, goal, Limits::none()) {
        Ok(r) => r,
        Err(e) => {
            return Ok(errors::report_solve_error(
                &mut out,
                &e,
                &e.to_string(),
                args.json,
            )?)
        }
    };
    if !args.json {
        writeln!(
            out,
            "{:<14} {:<17} {:>6} {:>8} {:>14} {:>14} {:>12}",
            "algorithm", "heuristic", "length", "optimal", "expanded", "generated", "time"
        )?;
    }
    let mut runs: Vec<SolveOptions> = Vec::new();
    for &a in &args.algorithm {
        // An algorithm that takes no heuristic gives the same run whatever it is offered: one
        // row (the heuristic given is ignored, and the row names what the algorithm uses).
        let heuristics: &[HeuristicKind] = if a.takes_heuristic() {
            &heuristics
        } else {
            &[HeuristicKind::Manhattan]
        };
        runs.extend(heuristics.iter().map(|&h| SolveOptions::new(a, h)));
    }
    runs.push(SolveOptions::default());
    let mut default_plan = None;
    let mut any_solved = false;
    for options in runs {
        let mut limits = Limits::none()
            .with_cancel(common::cancel_flag())
            .with_timeout(timeout)
            .with_max_memory(max_memory);
        if let Some(n) = max_nodes {
            limits = limits.with_max_nodes(n);
        }
        let request = request.clone().with_limits(limits);
        let plan = taquin::plan(&request, &options, tables)?;
        let algorithm = plan.algorithm;
        let is_default = options.algorithm.is_none();
        let hname = plan.heuristic_name();
        if is_default {
            default_plan = Some(plan.explain());
        }
        let label = if is_default {
            "default"
        } else {
            algorithm.name()
        };
        let spinner = Spinner::for_plan(&plan);
        let progress = |p| spinner.update(p);
        let result = plan.run(&request, tables, Some(&progress));
        spinner.finish();
        match result {
            Ok(s) => {
                any_solved = true;
                // The tables the answer used: a plan whose set turned out damaged ran the
                // planner's next choice instead.
                if is_default {
                    default_plan = Some(s.plan.clone());
                }
                let report = SolveReport::new(&s);
                if args.json {
                    let mut value = serde_json::to_value(&report)?;
                    // The planner's own row, which the table names `default`.
                    value["default"] = json!(is_default);
                    writeln!(out, "{value}")?;
                } else {
                    let optimal = if s.optimal { "yes" } else { "no" };
                    write_row(
                        &mut out,
                        label,
                        &s.heuristic,
                        &s.len().to_string(),
                        optimal,
                        &s.stats,
                    )?;
                }
            }
            Err(e) => {
                if args.json {
                    let mut value = run_error(&e, algorithm, &hname);
                    value["default"] = json!(is_default);
                    writeln!(out, "{value}")?;
                } else if let SolveError::Limit { hit, stats, bound } = &e {
                    write_row(
                        &mut out,
                        label,
                        &hname,
                        &format!(">={bound}"),
                        hit.name(),
                        stats,
                    )?;
                } else {
                    // The row names the heuristic: advice to pass another with a flag (which
                    // compare does not take) is no help here.
                    let message = e.to_string();
                    let said = message.split(": use --").next().unwrap_or(&message);
                    writeln!(out, "{label:<14} {hname:<17} {said}")?;
                }
                // Ctrl-C: no further run.
                if let SolveError::Limit {
                    hit: taquin::LimitHit::Cancelled,
                    ..
                } = e
                {
                    return Ok(ExitCode::from(EXIT_INTERRUPTED));
                }
            }
        }
    }
    if let (false, Some(plan)) = (args.json, default_plan) {
        writeln!(out, "default: {plan}")?;
    }
    // As every command: 1 when no run gave an answer (every one stopped by a limit).
    Ok(if any_solved {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(common::EXIT_FAILED)
    })
}

/// Refuses a name given twice to `flag` (the same run twice is a mistake, as the web API's
/// `/api/compare` says too).
fn named_once(flag: &str, names: impl Iterator<Item = String>) -> Result<()> {
    let mut seen = Vec::new();
    for name in names {
        if seen.contains(&name) {
            return Err(errors::Coded::bad_fields(format!(
                "{flag} names '{name}' twice: name each one once"
            ))
            .into());
        }
        seen.push(name);
    }
    Ok(())
}

/// The JSON line of a run that gave no solution: the error object of `taquin solve --json`
/// with the run's algorithm and heuristic.
fn run_error(e: &SolveError, algorithm: Algorithm, heuristic: &str) -> serde_json::Value {
    let mut v = errors::solve_error(e);
    v["algorithm"] = json!(algorithm.name());
    v["heuristic"] = json!(heuristic);
    v
}

/// One row of the comparison table.
fn write_row(
    out: &mut impl Write,
    algorithm: &str,
    heuristic: &str,
    length: &str,
    optimal: &str,
    stats: &taquin::Stats,
) -> std::io::Result<()> {
    writeln!(
        out,
        "{:<14} {:<17} {:>6} {:>8} {:>14} {:>14} {:>12}",
        algorithm,
        heuristic,
        length,
        optimal,
        common::thousands(stats.expanded),
        common::thousands(stats.generated),
        common::millis(stats.elapsed)
    )
}
