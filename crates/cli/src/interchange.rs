//! What `taquin solve` does for the formats of other tools: `--notation tiles` (the speed
//! solvers' tile moves with runs), `--metric mtm` (solutions optimal in multi-tile moves) and
//! `--report` (the 42 school n-puzzle project's report: time and size complexity, moves, and
//! every board from the start to the goal).

use std::io::Write;
use std::process::ExitCode;

use anyhow::{Context, Result};
use serde_json::json;
use taquin::metric::{metrics, Metric};
use taquin::mtm::{self, sets::MtmPlan, MtmSolver};
use taquin::notation::Notation;
use taquin::{Board, LimitHit, Solution, SolveError, SolveReport, Tables};

use crate::common::{self, Spinner, EXIT_FAILED};
use crate::errors::Coded;
use crate::solve::SolveArgs;

/// Flags of `solve` for other tools' conventions.
#[derive(clap::Args, Debug)]
pub struct InterchangeArgs {
    /// How moves are written: `blank` (each letter is where the blank goes, one cell each:
    /// DLLURR) or `tiles` (each letter is where the tiles slide, runs with their length:
    /// U R2 D L2).
    #[arg(long, default_value = "blank", value_parser = parse_notation)]
    pub notation: Notation,
    /// The metric the solution is optimal in: `stm` (one move per tile slid) or `mtm` (one
    /// move per run of tiles slid at once in a row or column; IDA* over the slides).
    #[arg(long, default_value = "stm", value_parser = parse_metric)]
    pub metric: Metric,
    /// Print the 42 n-puzzle project's report: states selected (time complexity), most states
    /// held in memory at once (size complexity), the number of moves, and every board from the
    /// start to the goal.
    #[arg(long)]
    pub report: bool,
}

impl InterchangeArgs {
    /// True when a flag asks for something the plain `solve` output does not give.
    pub fn is_asked(&self) -> bool {
        self.notation != Notation::Blank || self.metric != Metric::Stm || self.report
    }
}

/// Parses a notation name, listing the valid ones on error.
pub fn parse_notation(name: &str) -> Result<Notation, String> {
    Notation::from_name(name).ok_or_else(|| {
        format!("unknown notation '{name}': use blank (the letter is where the blank goes) or tiles (where the tiles go, runs as R3)")
    })
}

/// Parses a metric name, listing the valid ones on error.
pub fn parse_metric(name: &str) -> Result<Metric, String> {
    Metric::from_name(name).ok_or_else(|| {
        format!("unknown metric '{name}': use stm (single-tile moves) or mtm (multi-tile moves)")
    })
}

/// Writes the line giving a solution's length in both metrics.
pub fn write_lengths(out: &mut impl Write, moves: &[taquin::Move]) -> std::io::Result<()> {
    let (stm, mtm) = metrics(moves);
    writeln!(
        out,
        "Length: {} (STM), {} (MTM)",
        common::count(stm, "single-tile move"),
        common::count(mtm, "multi-tile move")
    )
}

/// `batch` reads one instance a line; an input that is one board in the n-puzzle file format
/// (several lines) becomes one JSON line holding that board (goal: the standard one), its id
/// the file's name. A file in that format that is not a valid board is a usage error. Any other
/// input (not UTF-8 included: batch gives such lines error records) passes unchanged.
pub fn batch_input(input: Vec<u8>, file: &Option<String>) -> Result<Vec<u8>> {
    let Ok(text) = std::str::from_utf8(&input) else {
        return Ok(input);
    };
    if !taquin::npuzzle_file::looks_like(text) {
        return Ok(input);
    }
    let board = taquin::npuzzle_file::parse(text).context(
        "invalid n-puzzle file (batch reads one instance a line, or one board in the n-puzzle format)",
    )?;
    let id = file.as_deref().filter(|f| *f != "-").unwrap_or("stdin");
    Ok(json!({ "id": id, "board": board.to_line() })
        .to_string()
        .into_bytes())
}

/// The planner's multi-tile solver for `goal` ([`MtmPlan`]: the solver, its bound's name and
/// why), saying on standard error when it builds a table (seconds each, on first use only).
pub fn mtm_solver(
    goal: &Board,
    tables: &Tables,
    limits: &taquin::Limits,
) -> Result<MtmPlan, SolveError> {
    // Tables of under a million entries build in a fraction of a second: not worth a line.
    let report = |spec: &taquin::pdb::PatternSpec, done: Option<std::time::Duration>| {
        if mtm::pdb::MtmPdb::entries(spec) < 1 << 20 {
            return;
        }
        match done {
            None => eprintln!(
                "building the multi-tile table of {spec} (saved once built, for every later run)"
            ),
            Some(t) => eprintln!("built in {:.1} s", t.as_secs_f64()),
        }
    };
    mtm::sets::planned_solver(goal, tables, limits, Some(&report))
}

/// The multi-tile search's bound from `board` to `goal` without its pattern databases (the
/// walking distance in slides where its tables build at once, else the distances per direction
/// over the longest slide): what is known when a limit stopped the tables' set-up, computed
/// without building anything that could take longer.
pub fn slides_floor(board: &Board, goal: &Board) -> u32 {
    MtmSolver::at_once(goal).lower_bound(board)
}

/// What to say when `hit` stopped the build of `goal`'s multi-tile tables after `elapsed`,
/// before any search: what happened, and advice that fits the limit ([`table_advice`]).
fn table_limit(hit: LimitHit, goal: &Board, elapsed: std::time::Duration) -> String {
    format!(
        "{hit} while building the multi-tile tables for {}x{}, after {}: {}",
        goal.width(),
        goal.height(),
        common::millis(elapsed),
        table_advice(hit, goal)
    )
}

/// What to do when `hit` stopped the build of `goal`'s multi-tile tables (nothing of them is
/// kept): build them once with `taquin pdb build`, or raise the limit that stopped it.
pub fn table_advice(hit: LimitHit, goal: &Board) -> String {
    let build = format!(
        "`taquin pdb build --metric mtm --size {}x{}{}`",
        goal.width(),
        goal.height(),
        common::goal_flag(goal)
    );
    match hit {
        LimitHit::Time => format!("give more time (--timeout), or build them once with {build}"),
        LimitHit::Memory => {
            format!("give more memory (--max-memory), or build them once with {build}")
        }
        LimitHit::Nodes => {
            format!("give a larger --max-nodes, or build them once with {build}")
        }
        LimitHit::Cancelled => format!("build them once with {build}"),
    }
}

/// On a terminal only, after a search of more than a few seconds without the standard
/// multi-tile set, names the command that builds it.
fn mtm_tip(goal: &Board, tables: &Tables, elapsed: std::time::Duration) {
    use std::io::IsTerminal;
    let standard = mtm::sets::MtmSet::Standard;
    if elapsed < std::time::Duration::from_secs(2)
        || !std::io::stderr().is_terminal()
        || standard.specs(goal).is_empty()
        || standard.is_on_disk(goal, tables)
    {
        return;
    }
    eprintln!(
        "tip: `taquin pdb build --metric mtm --size {}x{}{}` builds the {} tables once (about a minute); hard boards then solve several times faster",
        goal.width(),
        goal.height(),
        common::goal_flag(goal),
        standard.name(goal)
    );
}

/// Runs `taquin solve` when [`InterchangeArgs::is_asked`].
pub fn solve(args: &SolveArgs, tables: &Tables) -> Result<ExitCode> {
    let extra = &args.interchange;
    if args.show && extra.report {
        return Err(Coded::bad_fields(
            "--report shows every board already: leave out --show or --report",
        )
        .into());
    }
    if args.checkpoint.is_some() && extra.metric == Metric::Mtm {
        return Err(Coded::bad_fields(
            "--checkpoint keeps the place of IDA* over single-tile moves, not of --metric mtm's \
             search: leave out --checkpoint or --metric mtm",
        )
        .into());
    }
    if args.shorten && extra.metric == Metric::Mtm {
        return Err(Coded::bad_fields(
            "--shorten cuts single-tile moves, and --metric mtm's solutions are optimal in \
             multi-tile moves already: leave out --shorten or --metric mtm",
        )
        .into());
    }
    let board = common::read_board(&args.board, "board")?;
    let goal = common::read_goal(args.goal.as_deref(), &board)?;
    args.validate()?;
    let limits = args.limits()?;
    let mut original_length = None;
    // Where a stopped search's place is kept (--checkpoint).
    let mut kept = None;
    let result = match extra.metric {
        Metric::Stm => crate::solve::planned(args, &board, &goal, limits.clone(), tables)?
            .and_then(|(request, plan)| {
                let spinner = Spinner::for_plan(&plan).logging_improvements(args.explain);
                let progress = |p| spinner.update(p);
                let watch = crate::solve::PlaceWatch::before(&plan);
                let result = plan.run(&request, tables, Some(&progress));
                spinner.finish();
                kept = watch.after(&plan, &result);
                result
            })
            .and_then(|mut solution| {
                original_length = crate::solve::shorten_if_asked(
                    args.shorten,
                    &board,
                    &goal,
                    &mut solution,
                    &limits,
                )?;
                Ok(solution)
            }),
        Metric::Mtm => {
            if args.search.algorithm.0.is_some() || args.search.heuristic.0.is_some() {
                return Err(Coded::bad_fields("--metric mtm has its own search (IDA* over slides with a multi-tile bound): leave out --algorithm and --heuristic").into());
            }
            let started = std::time::Instant::now();
            let planned = mtm_solver(&goal, tables, &limits);
            // The search's stats count the tables' set-up too, as the planner's do.
            let set_up = started.elapsed();
            if let Err(SolveError::Limit { hit, .. }) = &planned {
                // A limit met while a table was being built: no search ran.
                let message = table_limit(*hit, &goal, started.elapsed());
                crate::errors::report_run_error(
                    &mut std::io::stdout().lock(),
                    planned.as_ref().unwrap_err(),
                    &message,
                    args.json,
                    &[("metric", json!(extra.metric.name()))],
                )?;
                return Ok(ExitCode::from(EXIT_FAILED));
            }
            let result = planned.and_then(|plan| {
                let explained = plan.explain();
                if args.explain {
                    eprintln!("plan: {explained}");
                }
                let solver = plan.solver.with_threads(args.ida_threads());
                let spinner = Spinner::new(&format!("{} + {}", MtmPlan::ALGORITHM, plan.heuristic));
                let progress = |p| spinner.update(p);
                let result = solver.solve(&board, &limits, Some(&progress));
                spinner.finish();
                let result = match result {
                    Err(SolveError::Limit {
                        hit,
                        mut stats,
                        bound,
                    }) => {
                        stats.elapsed += set_up;
                        Err(SolveError::Limit { hit, stats, bound })
                    }
                    result => result,
                };
                result.map(|mut s| {
                    s.stats.elapsed += set_up;
                    s.algorithm = MtmPlan::ALGORITHM.to_string();
                    s.heuristic = plan.heuristic;
                    s.plan = explained;
                    // Optimal in slides, not in single-tile moves: the bound beside `optimal`
                    // is in slides too (`mtm_length`), as the record's `metric` says.
                    s.lower_bound = if s.optimal {
                        Metric::Mtm.length(&s.moves) as u64
                    } else {
                        u64::from(slides_floor(&board, &goal))
                    };
                    s
                })
            });
            mtm_tip(&goal, tables, started.elapsed());
            result
        }
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let solution = match result {
        Ok(solution) => solution,
        Err(err) => {
            // The bound in the metric searched, which the record names, as a result's does.
            let code = crate::errors::report_run_error(
                &mut out,
                &err,
                &err.sentence_in(extra.metric),
                args.json,
                &[("metric", json!(extra.metric.name()))],
            )?;
            crate::solve::kept_note(kept.as_ref());
            return Ok(code);
        }
    };
    solution.verify(&board, &goal)?;
    let names = (solution.algorithm.as_str(), solution.heuristic.as_str());
    let complexity = Complexity::of(&solution, names.0);
    if args.json {
        let report = SolveReport::new(&solution).in_notation(&solution, extra.notation);
        let mut value = serde_json::to_value(&report)?;
        value["board"] = json!(board.to_line());
        value["goal"] = json!(goal.to_line());
        value["notation"] = json!(extra.notation.name());
        value["metric"] = json!(extra.metric.name());
        if let Some(before) = original_length {
            value["original_length"] = json!(before);
        }
        if extra.report {
            value["time_complexity"] = json!(complexity.time);
            value["size_complexity"] = json!(complexity.size);
            value["states"] = json!(boards(&board, &solution.moves)
                .iter()
                .map(Board::to_line)
                .collect::<Vec<_>>());
        }
        writeln!(out, "{value}")?;
    } else {
        let (stm, mtm) = metrics(&solution.moves);
        let verdict = match (solution.optimal, extra.metric) {
            (true, m) => format!("optimal in {}", m.name().to_uppercase()),
            (false, _) => "not proven optimal".to_string(),
        };
        let shortened = crate::solve::shortened_note(original_length, solution.len());
        writeln!(
            out,
            "Solved in {}, {} ({verdict}{shortened}) with {} + {}",
            common::count(stm, "move"),
            common::count(mtm, "multi-tile move"),
            names.0,
            names.1
        )?;
        let moves = if solution.is_empty() {
            "(none: the board is the goal)".to_string()
        } else {
            extra.notation.format(&solution.moves)
        };
        writeln!(out, "Moves ({}): {moves}", extra.notation)?;
        if extra.report {
            writeln!(
                out,
                "Complexity in time: {} states selected (expanded)",
                common::thousands(complexity.time)
            )?;
            writeln!(out, "Complexity in size: {}", complexity.size_text)?;
            writeln!(out, "Number of moves: {stm} ({mtm} multi-tile)")?;
            writeln!(out, "Boards from the start to the goal:")?;
            for b in boards(&board, &solution.moves) {
                writeln!(out, "\n{b}")?;
            }
        } else {
            crate::solve::write_stats(&mut out, &solution.stats)?;
            if args.show {
                crate::solve::show_steps(&mut out, &board, &solution.moves, extra.notation)?;
            }
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Every board from `board` to the end of `moves`, both included.
fn boards(board: &Board, moves: &[taquin::Move]) -> Vec<Board> {
    let mut b = board.clone();
    let mut all = vec![b.clone()];
    for &m in moves {
        b.apply(m);
        all.push(b.clone());
    }
    all
}

/// The 42 project's two complexity figures, from what the search counted.
struct Complexity {
    /// States selected for expansion.
    time: u64,
    /// Most states held at once, where the search measures it (`None` otherwise: JSON's
    /// `null`, not a count of 0).
    size: Option<u64>,
    /// The size figure in words, saying what it is.
    size_text: String,
}

impl Complexity {
    fn of(solution: &Solution, algorithm: &str) -> Complexity {
        let s = &solution.stats;
        let (size, size_text) = if algorithm.starts_with("idastar") {
            // IDA* keeps only the current path; in its last iteration the path never grows
            // beyond the bound, which is the solution's length (in its metric).
            let depth = if algorithm == MtmPlan::ALGORITHM {
                Metric::Mtm.length(&solution.moves)
            } else {
                solution.len()
            } as u64;
            (
                Some(depth + 1),
                format!(
                    "{} state{} at most (IDA* holds only the path from the start, at most the solution's length + 1)",
                    depth + 1,
                    if depth == 0 { "" } else { "s" }
                ),
            )
        } else if s.peak_open + s.peak_closed > 0 {
            let held = (s.peak_open + s.peak_closed) as u64;
            (
                Some(held),
                format!(
                    "{} states at most (largest open list {} + largest closed set {}; about {:.1} MiB)",
                    common::thousands(held),
                    common::thousands(s.peak_open as u64),
                    common::thousands(s.peak_closed as u64),
                    s.peak_memory_bytes as f64 / (1 << 20) as f64
                ),
            )
        } else {
            (None, "not measured by this algorithm".to_string())
        };
        Complexity {
            time: s.expanded,
            size,
            size_text,
        }
    }
}
