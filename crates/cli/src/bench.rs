//! `taquin bench`: solves every instance of a benchmark file (`ID OPTLEN t0 t1 ...`, goal with the
//! blank first, as in `bench/`), checks each length against OPTLEN, and prints per-instance and
//! total nodes and time, with a summary per heuristic; beside each count, the published one
//! and the ratio where a published-counts file gives it ([`crate::bench_results`]).
//!
//! `--results FILE` appends one JSON record per instance as it finishes, with the commit, date
//! and CPU, so that a long run (the 24-puzzle's 50) can stop and go on with `--resume`, which
//! skips the instances already in the file. Each instance's IDA* also keeps its place beside
//! the file ([`crate::bench_places`]), so that `--resume` goes on with an instance stopped in
//! the middle of an iteration from where it was, not from its start.

use std::collections::HashSet;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use taquin::instances::{parse_file, Instance};
use taquin::{
    Algorithm, HeuristicKind, LimitHit, Request, Solution, SolveError, SolveOptions, Tables,
    Workload,
};

use crate::bench_places::{describe, Places};
use crate::bench_results::{published_beside, read_published, RunInfo};
use crate::common::{self, LimitArgs, EXIT_FAILED};
use crate::errors::Coded;
use crate::in_flight::InFlight;
use crate::solve::{
    no_progress_note, parse_algorithm_or_auto, parse_heuristic_or_auto, unmoved, Auto,
};

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
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = crate::common::whole_number::<usize>)]
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
    #[arg(long, default_value_t = 1, value_name = "N", allow_negative_numbers = true, value_parser = crate::common::whole_number::<usize>)]
    pub threads: usize,
    /// Instances solved at once, each on its own core (default: every core when each instance's
    /// IDA* runs on one thread, else 1). They share the memory budget (`--max-memory` / N
    /// each), which bounds the beams beside IDA* beyond 16 cells: the node counts of those
    /// depend on N through it, others not. The order of the output does not depend on it; each
    /// instance's time is its own.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = crate::common::job_count)]
    pub jobs: Option<usize>,
    /// Append one JSON record per instance to FILE as each one finishes (id, status, length,
    /// optimal_length, generated, published_generated, ratio, time_ms, threads, memory_mib (each
    /// instance's share of the memory budget), commit, date, cpu, ...).
    #[arg(long, value_name = "FILE")]
    pub results: Option<PathBuf>,
    /// Skip the instances already in --results for the same heuristic (a torn last line is
    /// dropped) and append the others. An instance whose IDA* was stopped (a limit, Ctrl-C, a
    /// machine switched off) goes on from the place it kept in FILE's `.checkpoints`
    /// directory.
    #[arg(long, requires = "results")]
    pub resume: bool,
    /// Published node counts, `ID NODES` a line (default: NAME.nodes.txt beside the instance
    /// file NAME.txt, when there is one, e.g. bench/korf24.nodes.txt).
    #[arg(long, value_name = "FILE")]
    pub published: Option<PathBuf>,
    /// Solve the instances in increasing order of their published node count (those without
    /// one last, in file order).
    #[arg(long)]
    pub easiest_first: bool,
}

#[derive(Default)]
struct Totals {
    solved: usize,
    /// Of the solved ones, those whose length was checked against an optimal length given.
    checked: usize,
    wrong: usize,
    failed: usize,
    expanded: u64,
    generated: u64,
    time: Duration,
    /// Published nodes of the solved instances that have a published count.
    published: u64,
    /// Nodes generated on those same instances.
    generated_published: u64,
}

impl Totals {
    /// Counts the `--results` records of `earlier` that are of `instances` and of heuristic
    /// `hname` (the latest record of each instance), as the run counts an instance it solves:
    /// what a resumed run does not solve again still belongs to its summary. Instances that
    /// keep the place of a stopped search (`kept`) are not done: they are solved again from
    /// there, and their new record replaces the old one. Nor are those whose latest record is
    /// an error (a damaged place, a table that could not be read): the error says what to fix,
    /// and the run after the fix solves them. Returns the ids of the instances counted: the
    /// run's instances done already.
    fn add_records<'a>(
        &mut self,
        earlier: &'a [serde_json::Value],
        instances: &[Instance],
        hname: &str,
        kept: &dyn Fn(&Instance) -> bool,
    ) -> HashSet<&'a str> {
        let selected: HashSet<&str> = instances
            .iter()
            .filter(|i| !kept(i))
            .map(|i| i.id.as_str())
            .collect();
        let mut counted = HashSet::new();
        let mut latest = HashSet::new();
        for record in earlier.iter().rev() {
            let field = |name: &str| record.get(name);
            let number = |name: &str| field(name).and_then(|v| v.as_u64());
            let (Some(id), Some(heuristic)) = (
                field("id").and_then(|v| v.as_str()),
                field("heuristic").and_then(|v| v.as_str()),
            ) else {
                continue;
            };
            if heuristic != hname || !selected.contains(id) || !latest.insert(id) {
                continue;
            }
            let status = field("status").and_then(|v| v.as_str());
            if status == Some("error") {
                continue;
            }
            counted.insert(id);
            let generated = number("generated").unwrap_or(0);
            let solved = status == Some("solved");
            match (solved, field("check").and_then(|v| v.as_str())) {
                // A stopped search's bound can contradict the optimal length too.
                (_, Some(crate::batch::WRONG)) => self.wrong += 1,
                (true, check) => {
                    self.solved += 1;
                    self.checked += usize::from(check.is_some_and(|c| c != "-"));
                }
                (false, _) => self.failed += 1,
            }
            self.expanded += number("expanded").unwrap_or(0);
            self.generated += generated;
            let ms = field("time_ms").and_then(|v| v.as_f64()).unwrap_or(0.0);
            // A file edited by hand may hold anything: a time that is not one counts as none.
            self.time += Duration::try_from_secs_f64(ms / 1000.0).unwrap_or_default();
            if let (true, Some(p)) = (solved, number("published_generated")) {
                self.published += p;
                self.generated_published += generated;
            }
        }
        counted
    }
}

/// Runs `taquin bench`.
pub fn run(args: BenchArgs, tables: &Tables) -> Result<ExitCode> {
    // The default here is IDA*, the search that --threads splits.
    let algorithm = args.algorithm.0.unwrap_or(Algorithm::IdaStar);
    crate::common::thread_count("threads", args.threads)?;
    // Every flag is checked before anything is read, planned or built.
    args.limits.limits()?;
    if algorithm != Algorithm::IdaStar && args.threads != 1 {
        return Err(Coded::bad_fields(format!(
            "bench's --threads splits IDA* only, not {algorithm}: drop it or choose -a idastar"
        ))
        .into());
    }
    let (bytes, from) = if args.file == "-" {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes)
            .context("reading instances from standard input")?;
        (bytes, "standard input")
    } else {
        let bytes = std::fs::read(&args.file).with_context(|| format!("reading {}", args.file))?;
        (bytes, args.file.as_str())
    };
    let text = common::text_of(bytes, from).map_err(|message| Coded::new("bad_board", message))?;
    let mut instances = parse_file(&text).with_context(|| {
        // JSON lines and plain boards are batch's: say so rather than misread them.
        let other = text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with('#'))
            .is_some_and(|l| l.starts_with('{') || l.contains('/'));
        let hint = if other {
            " (bench reads lines `ID OPTLEN t0 t1 ...`, with the optimal lengths to check; \
             for JSON lines or boards, use `taquin batch`)"
        } else {
            ""
        };
        format!("in {}{hint}", args.file)
    })?;
    if !args.ids.is_empty() {
        // An id asked for that is not in the file is a typo, not an instance to skip.
        let missing: Vec<&str> = args
            .ids
            .iter()
            .filter(|id| !instances.iter().any(|i| &i.id == *id))
            .map(String::as_str)
            .collect();
        anyhow::ensure!(
            missing.is_empty(),
            "no instance {} in {}: the ids are the first field of each line",
            missing
                .iter()
                .map(|id| format!("{id:?}"))
                .collect::<Vec<_>>()
                .join(", "),
            args.file
        );
        instances.retain(|i| args.ids.contains(&i.id));
    }
    let published = match args
        .published
        .clone()
        .or_else(|| published_beside(&args.file))
    {
        Some(path) => read_published(&path)?,
        None => Default::default(),
    };
    if args.easiest_first {
        // A stable sort: instances without a published count keep their order, last.
        instances.sort_by_key(|i| published.get(&i.id).copied().unwrap_or(u64::MAX));
    }
    if let Some(n) = args.first {
        instances.truncate(n);
    }
    let earlier = match (&args.results, args.resume) {
        (Some(path), true) => {
            let written = common::Written::read(path)?;
            written.cut_torn_line()?;
            written.records
        }
        _ => Vec::new(),
    };
    let mut results = match &args.results {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .append(true)
                .create(true)
                .open(path)
                .with_context(|| format!("opening {} for appending", path.display()))?,
        ),
        None => None,
    };
    if results.is_some() && !args.resume {
        common::refuse_to_overwrite_records(args.results.as_ref().expect("results"))?;
        // Nor are earlier searches' places taken up by a run that starts afresh.
        let places = Places::beside(args.results.as_ref().expect("results"));
        let kept = std::fs::read_dir(places.dir()).is_ok_and(|mut d| d.next().is_some());
        anyhow::ensure!(
            !kept,
            "{} holds the places of earlier searches: add --resume to go on with them, or \
             delete that directory to start them over",
            places.dir().display()
        );
    }
    let run_info = RunInfo::now();
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
            algorithm: Some(algorithm),
            heuristic,
            threads: args.threads,
            workload: Workload::Many,
            ..SolveOptions::default()
        };
        // One plan for the run (the instances share a size and goal, and tables built for the
        // first serve the others); each instance is still planned, and says so if it differs.
        // Planned on the first instance that can be solved: an unsolvable one is reported in
        // its own row like any other instance that fails, not as an error of the whole run.
        // (If none can, the goal stands in for a board: its row says why each one fails.)
        let solvable = instances.iter().find_map(|i| {
            Request::new(i.board.clone(), i.goal.clone(), taquin::Limits::none())
                .ok()
                .map(|request| (i, request))
        });
        let solvable_any = solvable.is_some();
        let (first, request) = match solvable {
            Some(found) => found,
            None => {
                let first = &instances[0];
                let request = Request::new(
                    first.goal.clone(),
                    first.goal.clone(),
                    taquin::Limits::none(),
                )
                .with_context(|| format!("instance {}", first.id))?;
                (first, request)
            }
        };
        let plan = taquin::plan(&request, &options, tables)?;
        let algorithm = plan.algorithm;
        let hname = plan.heuristic_name();
        if !args.json {
            eprintln!("plan: {}", plan.explain());
        }
        // Tables first, so that per-instance times are search times (none when no instance
        // can be solved: each row says why).
        let started = std::time::Instant::now();
        if solvable_any {
            plan.prepare_tables(&first.goal, tables, &args.limits.limits()?)?;
        }
        let tables_time = started.elapsed();
        if !args.json && tables_time > Duration::from_millis(50) {
            eprintln!("tables ready in {}", common::millis(tables_time));
        }
        let bar = if std::io::stderr().is_terminal() {
            let bar = common::shown(ProgressBar::new(instances.len() as u64));
            // The search is named on the line above the table; the bar leaves the rest of the
            // line to the instances under way ([`InFlight`]).
            bar.set_style(
                ProgressStyle::with_template(
                    "[{bar:24}] {pos}/{len} {elapsed_precise} eta {eta}  {wide_msg}",
                )
                .expect("valid template")
                .progress_chars("=> "),
            );
            bar
        } else {
            ProgressBar::hidden()
        };
        if !args.json {
            writeln!(
                out,
                "# {algorithm} + {hname} on {} ({})",
                args.file,
                common::count(instances.len(), "instance")
            )?;
            writeln!(
                out,
                "{}",
                row([
                    "id",
                    "optlen",
                    "length",
                    "check",
                    "expanded",
                    "generated",
                    "published",
                    "ratio",
                    "time"
                ]
                .map(String::from))
            )?;
        }
        let mut totals = Totals::default();
        // Where each instance's IDA* keeps its place (with --results).
        let places = args
            .results
            .as_deref()
            .filter(|_| algorithm == Algorithm::IdaStar)
            .map(Places::beside);
        let kept = |inst: &Instance| places.as_ref().is_some_and(|p| p.kept(inst, &hname));
        // The summary is the run's as a whole: the instances already in the file count too.
        let done = totals.add_records(&earlier, &instances, &hname, &kept);
        let resumed = done.len();
        bar.inc(resumed as u64);
        let todo: Vec<&Instance> = instances
            .iter()
            .filter(|i| !done.contains(i.id.as_str()))
            .collect();
        // IDA*'s memory is linear in the depth, so its instances can share the machine (the
        // beams beside it beyond 16 cells share the memory budget, below); the other searches
        // keep the whole memory budget to one instance.
        let jobs_asked = match args.jobs {
            Some(n) => n,
            None if args.threads == 1 && algorithm == Algorithm::IdaStar => {
                std::thread::available_parallelism().map_or(1, |n| n.get())
            }
            None => 1,
        };
        let jobs = jobs_asked.clamp(1, todo.len().max(1));
        // Each instance's share of the memory budget bounds the beams beside IDA*, and with
        // them its node count: shared by the jobs asked for, not by those the instances left
        // fill, so that a run resumed on its last instance counts as the first run did.
        let memory_mib =
            taquin::search::limits_per_job(args.limits.limits()?, jobs_asked).memory_budget() >> 20;
        let wall = std::time::Instant::now();
        // `--timeout` is per instance: each one's deadline is counted from its own start.
        // Beside the bar, what each instance under way last reported.
        let in_flight = InFlight::new(&bar);
        let solve = |inst: &&Instance| {
            // The instances share the memory budget.
            let limits = args
                .limits
                .per_instance(jobs_asked)
                .expect("the limit flags were checked before the run");
            let report = |p| in_flight.update(&inst.id, &p);
            let mut options = options.clone();
            let mut before = None;
            if let Some(places) = &places {
                let file = places.of(inst, &hname);
                // A damaged or foreign file is the solve's error, in the instance's row.
                if let Ok(Some(place)) = file.load() {
                    bar.suspend(|| {
                        eprintln!(
                            "{}",
                            describe(&format!("instance {}", inst.id), &file, &place)
                        )
                    });
                    before = Some(place);
                }
                options.checkpoint = Some(Arc::new(file));
            }
            let result = Request::new(inst.board.clone(), inst.goal.clone(), limits)
                .and_then(|request| taquin::solve(&request, &options, tables, Some(&report)));
            in_flight.done(&inst.id);
            // A sitting its limit stopped where it began is likely to stop there again.
            if let (Some(file), Err(SolveError::Limit { hit, .. })) = (&options.checkpoint, &result)
            {
                let stalled = unmoved(before.as_ref(), file);
                if let Some(note) = stalled.then(|| no_progress_note(*hit)).flatten() {
                    bar.suspend(|| eprintln!("instance {}: {note}", inst.id));
                }
            }
            result
        };
        // The results file gets each instance as it finishes; the output, in file order.
        let finished = |k: usize, result: &Result<Solution, SolveError>| {
            let inst = todo[k];
            bar.inc(1);
            match (results.as_mut(), result) {
                // A cancelled instance is left for --resume.
                (
                    _,
                    Err(SolveError::Limit {
                        hit: LimitHit::Cancelled,
                        ..
                    }),
                )
                | (None, _) => {}
                (Some(file), _) => {
                    let v = results_record(
                        inst,
                        result,
                        published.get(&inst.id).copied(),
                        (&hname, args.threads, memory_mib),
                        &run_info,
                    );
                    writeln!(file, "{v}").and_then(|()| file.flush())?;
                }
            }
            // A solved instance's place is of no more use once its record is written.
            if let (Some(places), Ok(Solution { optimal: true, .. })) = (&places, result) {
                // The record is written: a file left behind only costs a search again.
                if let Err(e) = places.done(inst, &hname) {
                    bar.suspend(|| eprintln!("warning: {e:#}"));
                }
            }
            Ok(())
        };
        let in_order = |k: usize, result: Result<Solution, SolveError>| -> Result<bool> {
            let inst = todo[k];
            let published_generated = published.get(&inst.id).copied();
            match result {
                Ok(s) => {
                    let check = check(inst, &s);
                    if check == crate::batch::WRONG {
                        totals.wrong += 1;
                    } else {
                        totals.solved += 1;
                        totals.checked += usize::from(check != "-");
                    }
                    totals.expanded += s.stats.expanded;
                    totals.generated += s.stats.generated;
                    totals.time += s.stats.elapsed;
                    if let Some(p) = published_generated {
                        totals.published += p;
                        totals.generated_published += s.stats.generated;
                    }
                    let ratio = ratio(&s, published_generated);
                    if args.json {
                        let v = json!({"id": inst.id, "status": "solved", "optimal_length": inst.optimal_length, "length": s.len(), "check": check,
                            "optimal": s.optimal, "lower_bound": s.lower_bound, "algorithm": s.algorithm, "heuristic": s.heuristic,
                            "expanded": s.stats.expanded, "generated": s.stats.generated,
                            "published_generated": published_generated, "ratio": ratio,
                            "time_ms": taquin::report::millis(s.stats.elapsed), "moves": s.letters()});
                        bar.suspend(|| writeln!(out, "{v}"))?;
                    } else {
                        let line = row([
                            inst.id.clone(),
                            inst.optimal_length.map_or("-".into(), |o| o.to_string()),
                            s.len().to_string(),
                            check.to_string(),
                            common::thousands(s.stats.expanded),
                            common::thousands(s.stats.generated),
                            published_generated.map_or("-".into(), common::thousands),
                            ratio.map_or("-".into(), |r| format!("{r:.4}")),
                            common::millis(s.stats.elapsed),
                        ]);
                        bar.suspend(|| writeln!(out, "{line}"))?;
                    }
                    Ok(true)
                }
                Err(e) => {
                    if stopped_check(inst, &e).is_some() {
                        totals.wrong += 1;
                    } else {
                        totals.failed += 1;
                    }
                    if let SolveError::Limit { stats, .. } = &e {
                        totals.expanded += stats.expanded;
                        totals.generated += stats.generated;
                        totals.time += stats.elapsed;
                    }
                    if args.json {
                        let mut v = failed_record(inst, &e, &hname, published_generated);
                        v["algorithm"] = json!(algorithm.name());
                        bar.suspend(|| writeln!(out, "{v}"))?;
                    } else {
                        let line = failed_row(inst, &e, published_generated);
                        bar.suspend(|| writeln!(out, "{line}"))?;
                    }
                    // Ctrl-C: no further instance.
                    Ok(!matches!(
                        e,
                        SolveError::Limit {
                            hit: LimitHit::Cancelled,
                            ..
                        }
                    ))
                }
            }
        };
        crate::in_order::run(
            &todo,
            jobs,
            &common::cancel_flag(),
            solve,
            finished,
            in_order,
        )?;
        let wall = wall.elapsed();
        bar.finish_and_clear();
        let secs = totals.time.as_secs_f64();
        // The instances of the run, those already in the results file included.
        let instances_run = totals.solved + totals.wrong + totals.failed;
        // At least 1 for the means.
        let n = (instances_run as u64).max(1);
        let ratio_of_sums = (totals.published > 0)
            .then(|| totals.generated_published as f64 / totals.published as f64);
        if args.json {
            writeln!(
                out,
                "{}",
                json!({"summary": true, "algorithm": algorithm.name(), "heuristic": hname, "plan": plan.explain(),
                "instances": instances_run, "resumed": resumed, "solved": totals.solved, "wrong": totals.wrong, "failed": totals.failed,
                "jobs": jobs, "wall_ms": taquin::report::millis(wall),
                "expanded": totals.expanded, "generated": totals.generated,
                "mean_generated": totals.generated / n, "time_ms": taquin::report::millis(totals.time),
                "published_generated": (totals.published > 0).then_some(totals.published), "ratio": ratio_of_sums,
                "nodes_per_second": if secs > 0.0 { (totals.generated as f64 / secs).round() } else { 0.0 }})
            )?;
        } else {
            let resumed = match (resumed, &args.results) {
                (0, _) | (_, None) => String::new(),
                (k, Some(file)) if k == instances_run => {
                    format!(" (all {k} already in {})", file.display())
                }
                (k, Some(file)) => format!(" ({k} already in {})", file.display()),
            };
            writeln!(
                out,
                "total: {}{resumed}, {} solved{}, {} wrong, {} failed; expanded {}, generated {} (mean {} per instance); time {:.2} s; {:.1} M nodes/s; wall {:.2} s, {} at once",
                common::count(instances_run, "instance"),
                totals.solved,
                match totals.checked {
                    _ if totals.solved == 0 => String::new(),
                    0 => " (no optimal length given to check them against)".to_string(),
                    k if k == totals.solved => " and checked".to_string(),
                    k => format!(" ({k} checked against their optimal length)"),
                },
                totals.wrong,
                totals.failed,
                common::thousands(totals.expanded),
                common::thousands(totals.generated),
                common::thousands(totals.generated / n),
                secs,
                if secs > 0.0 { totals.generated as f64 / secs / 1e6 } else { 0.0 },
                wall.as_secs_f64(),
                jobs,
            )?;
            if let Some(r) = ratio_of_sums {
                writeln!(
                    out,
                    "against the published counts: {} generated where they report {} (ratio {r:.4})",
                    common::thousands(totals.generated_published),
                    common::thousands(totals.published),
                )?;
            }
        }
        if let Some(places) = &places {
            let waiting = todo.iter().filter(|i| places.kept(i, &hname)).count();
            if waiting > 0 {
                eprintln!(
                    "{} of this run keep{} the place where {} search stopped in {}: run again \
                     with --resume to go on from there",
                    common::count(waiting, "instance"),
                    if waiting == 1 { "s" } else { "" },
                    if waiting == 1 { "its" } else { "their" },
                    places.dir().display()
                );
            }
        }
        all_ok &= totals.wrong == 0 && totals.failed == 0;
    }
    Ok(if all_ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_FAILED)
    })
}

/// One row of the table: id, optlen, length, check, expanded, generated, published, ratio,
/// time, each right-aligned in its column.
fn row(columns: [String; 9]) -> String {
    const WIDTHS: [usize; 9] = [6, 6, 6, 6, 16, 16, 18, 8, 12];
    columns
        .iter()
        .zip(WIDTHS)
        .map(|(c, w)| format!("{c:>w$}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The table row of an instance that was not solved: within the columns, `limit` (with the
/// nodes and time spent) or `error` in the check column, then the reason after the last column.
fn failed_row(inst: &Instance, e: &SolveError, published_generated: Option<u64>) -> String {
    let optlen = inst.optimal_length.map_or("-".into(), |o| o.to_string());
    let published = published_generated.map_or("-".into(), common::thousands);
    let dash = || "-".to_string();
    match e {
        SolveError::Limit { hit, stats, bound } => {
            let reason = match hit {
                LimitHit::Cancelled => "cancelled".to_string(),
                _ => format!("{} limit; at least {bound} moves", hit.name()),
            };
            let columns = row([
                inst.id.clone(),
                optlen,
                dash(),
                stopped_check(inst, e).unwrap_or("limit").into(),
                common::thousands(stats.expanded),
                common::thousands(stats.generated),
                published,
                dash(),
                common::millis(stats.elapsed),
            ]);
            format!("{columns}  {reason}")
        }
        _ => {
            let columns = row([
                inst.id.clone(),
                optlen,
                dash(),
                "error".into(),
                dash(),
                dash(),
                published,
                dash(),
                dash(),
            ]);
            format!("{columns}  {e}")
        }
    }
}

/// How a solution compares with the instance's published optimal length (as `taquin batch`
/// checks it), `-` where none is published.
fn check(inst: &Instance, s: &Solution) -> &'static str {
    inst.optimal_length.map_or("-", |opt| {
        crate::batch::check(opt, s.len(), s.optimal, s.lower_bound)
    })
}

/// `WRONG` for a search stopped by a limit after it proved a bound above the instance's
/// optimal length (as `taquin batch` checks it): the length or the search is wrong.
fn stopped_check(inst: &Instance, e: &SolveError) -> Option<&'static str> {
    match (inst.optimal_length, e) {
        (Some(opt), SolveError::Limit { bound, .. }) => {
            crate::batch::bound_check(opt, u64::from(*bound))
        }
        _ => None,
    }
}

/// Nodes generated over the published count, where there is one.
fn ratio(s: &Solution, published_generated: Option<u64>) -> Option<f64> {
    published_generated
        .filter(|&p| p > 0)
        .map(|p| s.stats.generated as f64 / p as f64)
}

/// The JSON of an instance that was not solved, as `bench --json` and `--results` give it: the
/// error's fields as `batch` gives them (`code`, `error`, and for a stopped search `limit`,
/// `lower_bound`, `expanded`, `generated`, `time_ms`), with `id`, `status` (`limit`,
/// `unsolvable` or `error`, as batch says them: [`crate::batch::failure_status`]), `optimal_length`, `heuristic` and `published_generated`.
fn failed_record(
    inst: &Instance,
    e: &SolveError,
    hname: &str,
    published_generated: Option<u64>,
) -> serde_json::Value {
    let mut record = crate::errors::solve_error(e);
    let status = crate::batch::failure_status(e);
    record["id"] = json!(inst.id);
    record["status"] = json!(status);
    record["optimal_length"] = json!(inst.optimal_length);
    record["heuristic"] = json!(hname);
    record["published_generated"] = json!(published_generated);
    if let Some(check) = stopped_check(inst, e) {
        record["check"] = json!(check);
    }
    record
}

/// The `--results` record of one instance: `(heuristic name, threads, memory budget in MiB)`
/// as run.
fn results_record(
    inst: &Instance,
    result: &Result<Solution, SolveError>,
    published_generated: Option<u64>,
    (hname, threads, memory_mib): (&str, usize, usize),
    run_info: &RunInfo,
) -> serde_json::Value {
    match result {
        Ok(s) => {
            json!({"id": inst.id, "status": "solved", "length": s.len(), "optimal_length": inst.optimal_length,
            "check": check(inst, s), "optimal": s.optimal, "algorithm": s.algorithm, "heuristic": hname,
            "threads": threads, "memory_mib": memory_mib, "expanded": s.stats.expanded, "generated": s.stats.generated,
            "published_generated": published_generated, "ratio": ratio(s, published_generated),
            "time_ms": taquin::report::millis(s.stats.elapsed),
            "commit": run_info.commit, "date": run_info.date, "cpu": run_info.cpu})
        }
        Err(e) => {
            let mut record = failed_record(inst, e, hname, published_generated);
            for (key, value) in [
                ("threads", json!(threads)),
                ("memory_mib", json!(memory_mib)),
                ("commit", json!(run_info.commit)),
                ("date", json!(run_info.date)),
                ("cpu", json!(run_info.cpu)),
            ] {
                record[key] = value;
            }
            record
        }
    }
}
