//! `taquin solve`: one board, one algorithm, one heuristic; the moves, their count, whether they
//! are optimal, and what the search spent.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use serde_json::json;
use taquin::solvers::manhattan_lower_bound;
use taquin::solvers::shorten::{shorten_within, ShortenOptions};
use taquin::{solve_with, Algorithm, Board, HeuristicKind, SolveError, SolveOptions, SolveReport};

use crate::common::{self, LimitArgs, Spinner, EXIT_FAILED, EXIT_USAGE};

/// Arguments of `taquin solve`.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// The board, e.g. "6 4 7/8 5 0/3 2 1"; `-` reads it from standard input.
    pub board: String,
    /// The goal (default: 1..N-1 then the blank); `-` reads it from standard input.
    #[arg(long, short)]
    pub goal: Option<String>,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Threads for one IDA* search (0: every core); the parallel search returns the same moves
    /// as the sequential one.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Print the result as one JSON object (fields: moves, length, optimal, algorithm,
    /// heuristic, expanded, generated, time_ms, ...).
    #[arg(long)]
    pub json: bool,
    /// Print the board after every move.
    #[arg(long)]
    pub show: bool,
    /// Shorten a non-optimal solution afterwards: cancel moves undone at once, cut loops, and
    /// re-solve short windows optimally.
    #[arg(long)]
    pub shorten: bool,
}

/// How to search, shared by `solve` and `batch`.
#[derive(clap::Args, Debug)]
pub struct SearchArgs {
    /// Search algorithm: idastar, astar, bfs, weighted-astar, greedy, constructive, lookahead,
    /// lrta.
    #[arg(long, short, default_value = "idastar", value_parser = parse_algorithm)]
    pub algorithm: Algorithm,
    /// Heuristic: misplaced, manhattan, linear-conflict, walking-distance, or a pattern
    /// database (pdb:8, pdb:5-5-5, pdb:6-6-3, pdb:7-8, pdb:6-6-6-6). Default: walking-distance
    /// up to 4x4 boards, linear-conflict above.
    #[arg(long = "heuristic", short = 'H', value_parser = parse_heuristic)]
    pub heuristic: Option<HeuristicKind>,
    /// Weight w >= 1 of weighted A* (f = g + w·h).
    #[arg(long, default_value_t = SolveOptions::DEFAULT_WEIGHT)]
    pub weight: f64,
    /// Look-ahead depth of the real-time players (lookahead, lrta).
    #[arg(long, default_value_t = SolveOptions::DEFAULT_DEPTH)]
    pub depth: usize,
}

impl SearchArgs {
    /// Checks the flags a parser cannot: a weight from 1 to [`SolveOptions::MAX_WEIGHT`], a
    /// depth from 1 to [`taquin::solvers::MAX_DEPTH`].
    pub fn validate(&self) -> Result<()> {
        let max_weight = SolveOptions::MAX_WEIGHT;
        anyhow::ensure!(
            self.weight.is_finite() && (1.0..=max_weight).contains(&self.weight),
            "--weight must be a number from 1 to {max_weight}, got {:?}",
            self.weight
        );
        let max_depth = taquin::solvers::MAX_DEPTH;
        anyhow::ensure!(
            (1..=max_depth).contains(&self.depth),
            "--depth must be from 1 to {max_depth}, got {}: the look-ahead tree grows threefold \
             with each level",
            self.depth
        );
        Ok(())
    }

    /// The heuristic asked for, or the default for `board`'s size.
    pub fn heuristic_for(&self, board: &Board) -> HeuristicKind {
        self.heuristic.unwrap_or_else(|| default_heuristic(board))
    }

    /// Solve options for `board` with `limits` (one thread).
    pub fn options(&self, board: &Board, limits: taquin::Limits) -> SolveOptions {
        SolveOptions {
            weight: self.weight,
            depth: self.depth,
            limits,
            ..SolveOptions::new(self.algorithm, self.heuristic_for(board))
        }
    }
}

/// Parses an algorithm name, listing the valid ones on error.
pub fn parse_algorithm(name: &str) -> Result<Algorithm, String> {
    Algorithm::from_name(name).ok_or_else(|| {
        let names: Vec<_> = Algorithm::ALL.iter().map(|a| a.name()).collect();
        format!(
            "unknown algorithm '{name}': use one of {}",
            names.join(", ")
        )
    })
}

/// Parses a heuristic name, listing the valid ones on error.
pub fn parse_heuristic(name: &str) -> Result<HeuristicKind, String> {
    HeuristicKind::from_name(name).ok_or_else(|| {
        let names: Vec<_> = HeuristicKind::ALL.iter().map(|h| h.name()).collect();
        format!(
            "unknown heuristic '{name}': use one of {}",
            names.join(", ")
        )
    })
}

/// The heuristic used when none is asked for: the strongest without a database that builds at
/// once for the size.
pub fn default_heuristic(board: &Board) -> HeuristicKind {
    if board.len() <= 16 {
        HeuristicKind::WalkingDistance
    } else {
        HeuristicKind::LinearConflict
    }
}

/// Runs `taquin solve`.
pub fn run(args: SolveArgs) -> Result<ExitCode> {
    let board = common::read_board(&args.board, "board")?;
    let goal = common::read_goal(args.goal.as_deref(), &board)?;
    args.search.validate()?;
    let options = SolveOptions {
        threads: args.threads,
        ..args.search.options(&board, args.limits.limits()?)
    };
    let heuristic = options.heuristic;
    let spinner = Spinner::new(&format!("{} + {}", args.search.algorithm, heuristic));
    let progress = |p| spinner.update(p);
    let result = solve_with(&board, &goal, &options, Some(&progress));
    spinner.finish();
    let heuristic_name = args.search.algorithm.heuristic_name(heuristic);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    match result {
        Ok(mut solution) => {
            let mut original_length = None;
            if args.shorten && !solution.optimal {
                // Within the same limits as the search: at the deadline, the best so far.
                let shortened = shorten_within(
                    &board,
                    &goal,
                    &solution.moves,
                    &ShortenOptions::default(),
                    &options.limits,
                )?;
                original_length = Some(solution.len());
                solution.moves = shortened.moves;
            }
            // solve_with already replayed the moves; this is the CLI's own promise.
            solution.verify(&board, &goal)?;
            let lower_bound = manhattan_lower_bound(&board, &goal);
            let bound = options.suboptimality_bound().filter(|_| !solution.optimal);
            if args.json {
                write_json(
                    &mut out,
                    &solution,
                    &args,
                    heuristic_name,
                    &board,
                    &goal,
                    |v| {
                        if !solution.optimal {
                            v["lower_bound"] = json!(lower_bound);
                            v["suboptimality_bound"] = json!(bound);
                            v["original_length"] = json!(original_length);
                        }
                    },
                )?;
            } else {
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
                    "Solved in {} moves ({verdict}) with {} + {heuristic_name}",
                    solution.len(),
                    args.search.algorithm
                )?;
                if !solution.optimal {
                    let ratio = if lower_bound > 0 {
                        solution.len() as f64 / lower_bound as f64
                    } else {
                        1.0
                    };
                    write!(out, "Lower bound (Manhattan distance): {lower_bound} moves, so at most {ratio:.2}x optimal")?;
                    if let Some(before) = original_length {
                        write!(out, "; shortened from {before} moves")?;
                    }
                    writeln!(out)?;
                }
                write!(out, "Moves: ")?;
                if solution.is_empty() {
                    write!(out, "(none: the board is the goal)")?;
                } else {
                    write_letters(&mut out, &solution.moves)?;
                }
                writeln!(out)?;
                let s = &solution.stats;
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
                writeln!(out)?;
                if args.show {
                    show_steps(&mut out, &board, &solution.moves)?;
                }
            }
            out.flush()?;
            Ok(ExitCode::SUCCESS)
        }
        Err(err) => {
            let (kind, code) = match &err {
                SolveError::Unsolvable(_) => ("unsolvable", EXIT_FAILED),
                SolveError::Limit { .. } => ("limit", EXIT_FAILED),
                SolveError::Cycle { .. } => ("cycle", EXIT_FAILED),
                SolveError::Parse(_) => ("input", EXIT_USAGE),
                // The algorithm or heuristic cannot take this board: a choice to change (exit 2).
                _ => ("unsupported", EXIT_USAGE),
            };
            if args.json {
                let mut value = json!({ "error": err.to_string(), "kind": kind });
                if let SolveError::Limit { stats, bound, .. } = &err {
                    value["expanded"] = json!(stats.expanded);
                    value["generated"] = json!(stats.generated);
                    value["time_ms"] = json!(stats.elapsed.as_secs_f64() * 1000.0);
                    value["bound"] = json!(bound);
                }
                writeln!(out, "{value}")?;
                out.flush()?;
            } else {
                eprintln!("{err}");
            }
            Ok(ExitCode::from(code))
        }
    }
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
#[allow(clippy::too_many_arguments)]
fn write_json(
    out: &mut impl Write,
    solution: &taquin::Solution,
    args: &SolveArgs,
    heuristic_name: &str,
    board: &Board,
    goal: &Board,
    extra: impl FnOnce(&mut serde_json::Value),
) -> Result<()> {
    let report = SolveReport::summary(solution, args.search.algorithm.name(), heuristic_name);
    let mut value = serde_json::to_value(&report)?;
    value["board"] = json!(board.to_line());
    value["goal"] = json!(goal.to_line());
    extra(&mut value);
    let text = value.to_string();
    // The letters need no escaping: splice them into the empty "moves" string.
    let marker = "\"moves\":\"\"";
    let at = text
        .find(marker)
        .map_or(text.len(), |i| i + marker.len() - 1);
    out.write_all(&text.as_bytes()[..at])?;
    write_letters(out, &solution.moves)?;
    out.write_all(&text.as_bytes()[at..])?;
    writeln!(out)?;
    Ok(())
}

/// Prints the board before the first move and after each one.
fn show_steps(out: &mut impl Write, board: &Board, moves: &[taquin::Move]) -> Result<()> {
    let mut b = board.clone();
    writeln!(out, "\nStart:\n{b}")?;
    for (i, &m) in moves.iter().enumerate() {
        b.apply(m);
        writeln!(out, "\n{}. {m}\n{b}", i + 1)?;
    }
    Ok(())
}
