//! `taquin bench`: solves every instance of a benchmark file (`ID OPTLEN t0 t1 ...`, goal with the
//! blank first, as in the files in `bench/`), checks each length against OPTLEN, and prints
//! per-instance and total nodes and time, with a summary per heuristic.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use taquin::instances::parse_file;
use taquin::{Algorithm, HeuristicKind, Request, SolveOptions, Tables, Workload};

use crate::common::{self, LimitArgs, EXIT_FAILED};
use crate::solve::{parse_algorithm_or_auto, parse_heuristic_or_auto, Auto};

/// Arguments of `taquin bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Instance file, e.g. bench/korf100.txt (`-` for standard input).
    pub file: String,
    /// Search algorithm (default: IDA*, the optimal search; `auto` is the same here).
    #[arg(long, short, default_value = "auto", value_parser = parse_algorithm_or_auto)]
    pub algorithm: Auto<Algorithm>,
    /// Heuristic; repeat (or comma-separate) to compare several, each with its own summary
    /// (default auto: the best tables on disk, or quick ones built once for the run).
    #[arg(long = "heuristic", short = 'H', value_delimiter = ',', default_values = ["auto"], value_parser = parse_heuristic_or_auto)]
    pub heuristics: Vec<Auto<HeuristicKind>>,
    /// Only the first N instances.
    #[arg(long, value_name = "N")]
    pub first: Option<usize>,
    /// Only these instance IDs (comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub ids: Vec<String>,
    /// Limits for each instance.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// One JSON object per instance (and one summary object per heuristic) instead of tables.
    #[arg(long)]
    pub json: bool,
    /// Threads for each instance's IDA* (0: every core); the moves found are the same as with 1.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub threads: usize,
}

#[derive(Default)]
struct Totals {
    solved: usize,
    wrong: usize,
    failed: usize,
    expanded: u64,
    generated: u64,
    time: Duration,
}

/// Runs `taquin bench`.
pub fn run(args: BenchArgs, tables: &Tables) -> Result<ExitCode> {
    let text = if args.file == "-" {
        std::io::read_to_string(std::io::stdin())
            .context("reading instances from standard input")?
    } else {
        std::fs::read_to_string(&args.file).with_context(|| format!("reading {}", args.file))?
    };
    let mut instances = parse_file(&text).with_context(|| format!("in {}", args.file))?;
    if !args.ids.is_empty() {
        instances.retain(|i| args.ids.contains(&i.id));
    }
    if let Some(n) = args.first {
        instances.truncate(n);
    }
    anyhow::ensure!(
        !instances.is_empty(),
        "no instance selected in {}",
        args.file
    );
    let mut out = std::io::stdout().lock();
    let mut all_ok = true;
    for &Auto(heuristic) in &args.heuristics {
        let options = SolveOptions {
            // A benchmark checks lengths against the published optima and counts nodes beside
            // the published ones: its default is the optimal search, never the anytime one.
            algorithm: args.algorithm.0.or(Some(Algorithm::IdaStar)),
            heuristic,
            threads: args.threads,
            workload: Workload::Many,
            ..SolveOptions::default()
        };
        // One plan for the run (the instances share a size and goal, and tables built for the
        // first serve the others); each instance is still planned, and says so if it differs.
        let first = &instances[0];
        let request = Request::new(
            first.board.clone(),
            first.goal.clone(),
            taquin::Limits::none(),
        )
        .with_context(|| format!("instance {}", first.id))?;
        let plan = taquin::plan(&request, &options, tables)?;
        let algorithm = plan.algorithm;
        let hname = plan.heuristic_name();
        if !args.json {
            eprintln!("plan: {}", plan.explain());
        }
        // Tables first, so that per-instance times are search times.
        let started = std::time::Instant::now();
        plan.prepare_tables(&first.goal, tables, &args.limits.limits()?)?;
        let tables_time = started.elapsed();
        if !args.json && tables_time > Duration::from_millis(50) {
            eprintln!("tables ready in {}", common::millis(tables_time));
        }
        let bar = if std::io::stderr().is_terminal() {
            let bar = ProgressBar::new(instances.len() as u64);
            bar.set_style(
                ProgressStyle::with_template(
                    "{prefix} [{bar:30}] {pos}/{len} {elapsed_precise} eta {eta} {msg}",
                )
                .expect("valid template")
                .progress_chars("=> "),
            );
            bar.set_prefix(format!("{algorithm} + {hname}"));
            bar
        } else {
            ProgressBar::hidden()
        };
        if !args.json {
            writeln!(
                out,
                "# {algorithm} + {hname} on {} ({} instances)",
                args.file,
                instances.len()
            )?;
            writeln!(
                out,
                "{:>6} {:>6} {:>6} {:>6} {:>16} {:>16} {:>12}",
                "id", "optlen", "length", "check", "expanded", "generated", "time"
            )?;
        }
        let mut totals = Totals::default();
        for inst in &instances {
            bar.set_message(format!("instance {}", inst.id));
            let result = Request::new(inst.board.clone(), inst.goal.clone(), args.limits.limits()?)
                .and_then(|request| taquin::solve(&request, &options, tables, None));
            bar.inc(1);
            match result {
                Ok(s) => {
                    let check = match inst.optimal_length {
                        Some(opt) if s.optimal && s.len() as u32 != opt => "WRONG",
                        Some(opt) if (s.len() as u32) < opt => "WRONG",
                        Some(_) if s.optimal => "ok",
                        Some(_) => "subopt",
                        None => "-",
                    };
                    if check == "WRONG" {
                        totals.wrong += 1;
                    } else {
                        totals.solved += 1;
                    }
                    totals.expanded += s.stats.expanded;
                    totals.generated += s.stats.generated;
                    totals.time += s.stats.elapsed;
                    if args.json {
                        let v = json!({"id": inst.id, "optlen": inst.optimal_length, "length": s.len(), "check": check,
                            "optimal": s.optimal, "lower_bound": s.lower_bound, "algorithm": s.algorithm, "heuristic": s.heuristic,
                            "expanded": s.stats.expanded, "generated": s.stats.generated,
                            "time_ms": s.stats.elapsed.as_secs_f64() * 1000.0, "moves": s.letters()});
                        bar.suspend(|| writeln!(out, "{v}"))?;
                    } else {
                        let line = format!(
                            "{:>6} {:>6} {:>6} {:>6} {:>16} {:>16} {:>12}",
                            inst.id,
                            inst.optimal_length.map_or("-".into(), |o| o.to_string()),
                            s.len(),
                            check,
                            common::thousands(s.stats.expanded),
                            common::thousands(s.stats.generated),
                            common::millis(s.stats.elapsed)
                        );
                        bar.suspend(|| writeln!(out, "{line}"))?;
                    }
                }
                Err(e) => {
                    totals.failed += 1;
                    if let taquin::SolveError::Limit { stats, .. } = &e {
                        totals.expanded += stats.expanded;
                        totals.generated += stats.generated;
                        totals.time += stats.elapsed;
                    }
                    if args.json {
                        bar.suspend(|| {
                            writeln!(
                                out,
                                "{}",
                                json!({"id": inst.id, "error": e.to_string(), "heuristic": hname})
                            )
                        })?;
                    } else {
                        bar.suspend(|| {
                            writeln!(
                                out,
                                "{:>6} {:>6} failed: {e}",
                                inst.id,
                                inst.optimal_length.map_or("-".into(), |o| o.to_string())
                            )
                        })?;
                    }
                    if matches!(
                        e,
                        taquin::SolveError::Limit {
                            hit: taquin::LimitHit::Cancelled,
                            ..
                        }
                    ) {
                        break;
                    }
                }
            }
        }
        bar.finish_and_clear();
        let secs = totals.time.as_secs_f64();
        let n = instances.len() as u64;
        if args.json {
            writeln!(
                out,
                "{}",
                json!({"summary": true, "algorithm": algorithm.name(), "heuristic": hname, "plan": plan.explain(),
                "instances": n, "solved": totals.solved, "wrong": totals.wrong, "failed": totals.failed,
                "expanded": totals.expanded, "generated": totals.generated,
                "mean_generated": totals.generated / n, "time_ms": secs * 1000.0,
                "nodes_per_second": if secs > 0.0 { totals.generated as f64 / secs } else { 0.0 }})
            )?;
        } else {
            writeln!(
                out,
                "total: {} instances, {} solved and checked, {} wrong, {} failed; expanded {}, generated {} (mean {} per instance); time {:.2} s; {:.1} M nodes/s",
                n,
                totals.solved,
                totals.wrong,
                totals.failed,
                common::thousands(totals.expanded),
                common::thousands(totals.generated),
                common::thousands(totals.generated / n),
                secs,
                if secs > 0.0 { totals.generated as f64 / secs / 1e6 } else { 0.0 }
            )?;
        }
        all_ok &= totals.wrong == 0 && totals.failed == 0;
    }
    Ok(if all_ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_FAILED)
    })
}
