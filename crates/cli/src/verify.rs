//! `taquin verify BOARD MOVES`: checks a solution written by any tool. It says where the moves
//! go wrong (which move, from which board, why), or gives their length in both metrics and
//! whether it is optimal, solving the board optimally in each metric within `--timeout`.
//!
//! Exit codes: 0 a valid solution, 1 not a solution, 2 bad usage or input.

use std::io::{Read, Write};
use std::process::ExitCode;

use anyhow::{Context, Result};
use serde_json::json;
use taquin::metric::Metric;
use taquin::notation::Notation;
use taquin::replay::{check, CheckError, ReplayError, Replayed};
use taquin::search::idastar::MAX_CELLS;
use taquin::solvers::manhattan_lower_bound;
use taquin::{Algorithm, Board, LimitHit, Request, SolveError, SolveOptions, Tables};

use crate::common::{self, LimitArgs, EXIT_FAILED};
use crate::errors::Coded;
use crate::interchange::parse_notation;

/// Arguments of `taquin verify`.
#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    /// The start board, e.g. "6 4 7/8 5 0/3 2 1", a file (also in the n-puzzle format), or `-`.
    pub board: String,
    /// The moves to check, e.g. "ULDR" (blank notation) or "D R2 U" (tile notation), or a
    /// file holding them; `-` reads them from standard input. Moves win over a file of the
    /// same name: `./NAME` reads the file.
    pub moves: String,
    /// The goal: standard, korf, snail, a board, a file holding one, or `-` for standard input
    /// (default: standard, 1..N-1 then the blank).
    #[arg(long, short)]
    pub goal: Option<String>,
    /// How the moves are written: blank (the letter is where the blank goes) or tiles (where
    /// the tiles go, runs as R3).
    #[arg(long, default_value = "blank", value_parser = parse_notation)]
    pub notation: Notation,
    /// Seconds allowed to find the optimal length in each metric, to say whether the moves
    /// are optimal ("not known" when the time runs out).
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 10.0,
        allow_negative_numbers = true,
        value_parser = crate::common::seconds_value
    )]
    pub timeout: f64,
    /// Nodes each of those searches may generate (default: no limit but the time).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = crate::common::positive_number::<u64>)]
    pub max_nodes: Option<u64>,
    /// Memory budget in MiB (default 4096) of those searches' beams, on boards over 16 cells.
    #[arg(long, value_name = "MIB", allow_negative_numbers = true, value_parser = crate::common::positive_number::<usize>)]
    pub max_memory: Option<usize>,
    /// Print the verdict as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// What is known of the optimum in one metric.
enum Optimum {
    /// The optimal length.
    Known(usize),
    /// A limit (or Ctrl-C) stopped the search: the best lower bound proven, the limit, and
    /// what to do when it came while the search's tables were being built (nothing of them is
    /// kept).
    Unknown(u32, LimitHit, Option<String>),
    /// The board is beyond the optimal searches' reach ([`MAX_CELLS`]): the bound every board
    /// has in that metric, found without a search.
    Beyond(u32),
}

/// Runs `taquin verify`.
pub fn run(args: VerifyArgs, tables: &Tables) -> Result<ExitCode> {
    let limits = LimitArgs {
        timeout: Some(args.timeout),
        max_nodes: args.max_nodes,
        max_memory: args.max_memory,
    };
    // Bad values are refused before any search.
    limits.limits()?;
    let from_stdin = [Some(&args.board), args.goal.as_ref(), Some(&args.moves)]
        .into_iter()
        .filter(|arg| arg.is_some_and(|a| a == "-"))
        .count();
    anyhow::ensure!(
        from_stdin <= 1,
        "only one of BOARD, MOVES and --goal can be read from standard input ('-'): give the \
         others on the command line or as files"
    );
    let board = common::read_board(&args.board, "board")?;
    let goal = common::read_goal(args.goal.as_deref(), &board)?;
    let text = moves_text(&args.moves, args.notation)?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let Replayed { moves, stm, mtm } = match check(&board, &goal, &text, args.notation) {
        Ok(found) => found,
        Err(err @ CheckError::Notation(_)) => {
            // Moves hold no dot or slash: such an argument was meant as a file's name.
            if args.moves != "-"
                && args.moves.contains(['.', '/'])
                && !common::names_a_file(&args.moves)
            {
                let message = format!("there is no file '{}', and {err}", args.moves);
                return Err(Coded::bad_moves(message).into());
            }
            return Err(err.into());
        }
        Err(err) => {
            // Moves that are no solution of a pair no moves can solve: say that too, and why.
            let unsolvable = taquin::check_solvable(&board, &goal)
                .err()
                .map(|reason| format!("no moves can solve it ({reason})"));
            if args.json {
                let code = match &err {
                    CheckError::Replay(ReplayError::Illegal { .. }) => "illegal_move",
                    CheckError::Replay(ReplayError::NotGoal { .. }) => "not_the_goal",
                    CheckError::Notation(_) => unreachable!("handled above"),
                    // A reason the core adds later: the moves are no solution all the same.
                    _ => "not_a_solution",
                };
                let error = match &unsolvable {
                    Some(why) => format!("{err}\n{why}"),
                    None => err.to_string(),
                };
                writeln!(
                    out,
                    "{}",
                    json!({"valid": false, "code": code, "error": error, "solvable": unsolvable.is_none()})
                )?;
            } else {
                writeln!(out, "invalid: {err}")?;
                if let Some(why) = unsolvable {
                    writeln!(out, "{why}")?;
                }
            }
            out.flush()?;
            return Ok(ExitCode::from(EXIT_FAILED));
        }
    };
    let optimum_stm = optimum(&board, &goal, Metric::Stm, stm, &limits, tables)?;
    // After Ctrl-C the multi-tile search is not begun: its verdict says so.
    let optimum_mtm = if common::interrupted() {
        match crate::interchange::slides_floor(&board, &goal) {
            floor if floor as usize == mtm => Optimum::Known(mtm),
            floor => Optimum::Unknown(floor, LimitHit::Cancelled, None),
        }
    } else {
        optimum(&board, &goal, Metric::Mtm, mtm, &limits, tables)?
    };
    let verdict = |length: usize, optimum: &Optimum| match optimum {
        Optimum::Known(best) if length == *best => "optimal".to_string(),
        Optimum::Known(best) => format!("not optimal: the optimum is {best}"),
        Optimum::Unknown(bound, hit, None) => {
            format!(
                "optimality not known ({} before an answer; the optimum is at least {bound})",
                stopped_by(*hit)
            )
        }
        Optimum::Unknown(bound, hit, Some(advice)) => {
            format!(
                "optimality not known ({} while its tables were being built; the optimum is at \
                 least {bound}): {advice}",
                stopped_by(*hit)
            )
        }
        Optimum::Beyond(bound) => format!(
            "optimality not known (optimal search takes boards of up to {MAX_CELLS} cells, and \
             this one has {}; the optimum is at least {bound})",
            board.len()
        ),
    };
    if args.json {
        let field = |length: usize, optimum: &Optimum| match optimum {
            Optimum::Known(best) => json!({"optimal": length == *best, "optimal_length": best}),
            Optimum::Unknown(bound, hit, _) => {
                json!({"optimal": null, "lower_bound": bound, "limit": hit.name()})
            }
            Optimum::Beyond(bound) => {
                json!({"optimal": null, "lower_bound": bound, "limit": "board_size"})
            }
        };
        let value = json!({
            "valid": true,
            "length": stm,
            "mtm_length": mtm,
            "moves": args.notation.format(&moves),
            "notation": args.notation.name(),
            "stm": field(stm, &optimum_stm),
            "mtm": field(mtm, &optimum_mtm),
        });
        writeln!(out, "{value}")?;
    } else {
        writeln!(out, "valid: the moves take the board to the goal")?;
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        writeln!(
            out,
            "STM: {stm} single-tile move{}, {}",
            plural(stm),
            verdict(stm, &optimum_stm)
        )?;
        writeln!(
            out,
            "MTM: {mtm} multi-tile move{}, {}",
            plural(mtm),
            verdict(mtm, &optimum_mtm)
        )?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The moves `arg` stands for: standard input for `-`; the argument itself when it is moves
/// in `notation`, even where a file has that name, so that a stray file never changes what is
/// checked (moves hold no `/`: `./NAME` reads the file, as `./korf` reads a goal's file); else
/// the file it names, or the argument as it is, for [`check`] to say what is wrong with it.
fn moves_text(arg: &str, notation: Notation) -> Result<String> {
    let path = std::path::Path::new(arg);
    let read = |bytes: std::io::Result<Vec<u8>>, from: &str| -> Result<String> {
        let bytes = bytes.with_context(|| format!("reading the moves from {from}"))?;
        common::text_of(bytes, from).map_err(|message| Coded::bad_moves(message).into())
    };
    if arg == "-" {
        let mut bytes = Vec::new();
        let read_all = std::io::stdin().read_to_end(&mut bytes).map(|_| bytes);
        read(read_all, "standard input")
    } else if notation.written(arg).all(|m| m.is_ok()) {
        Ok(arg.to_string())
    } else if path.is_dir() {
        Err(Coded::bad_moves(format!(
            "invalid moves: '{arg}' is a directory, not moves or a file holding them"
        ))
        .into())
    } else if common::names_a_file(arg) {
        read(std::fs::read(path), arg)
    } else {
        Ok(arg.to_string())
    }
}

/// What stopped a search, in a verdict's words: "stopped by Ctrl-C", "the time limit came".
fn stopped_by(hit: LimitHit) -> &'static str {
    match hit {
        LimitHit::Cancelled => "stopped by Ctrl-C",
        LimitHit::Time => "the time limit came",
        LimitHit::Nodes => "the node limit came",
        LimitHit::Memory => "the memory limit came",
    }
}

/// Solves `board` optimally in `metric` within `timeout`: the planner's optimal search (IDA*
/// with its heuristic and tables) for STM, the multi-tile IDA* for MTM. A bound proven as long
/// as the moves' `length` in that metric says they are optimal, even where the search stopped.
fn optimum(
    board: &Board,
    goal: &Board,
    metric: Metric,
    length: usize,
    limits: &LimitArgs,
    tables: &Tables,
) -> Result<Optimum> {
    // Each metric's search has the whole of the limits: its deadline counts from its start.
    let limits = limits.limits()?;
    if board.len() > MAX_CELLS {
        let bound = match metric {
            Metric::Stm => u32::try_from(manhattan_lower_bound(board, goal)).unwrap_or(u32::MAX),
            Metric::Mtm => crate::interchange::slides_floor(board, goal),
        };
        return Ok(if bound as usize == length {
            Optimum::Known(length)
        } else {
            Optimum::Beyond(bound)
        });
    }
    let result = match metric {
        Metric::Stm => {
            let options = SolveOptions {
                algorithm: Some(Algorithm::IdaStar),
                ..SolveOptions::default()
            };
            Request::new(board.clone(), goal.clone(), limits)
                .and_then(|request| taquin::solve(&request, &options, tables, None))
        }
        Metric::Mtm => crate::interchange::mtm_solver(goal, tables, &limits)
            .and_then(|plan| plan.solver.solve(board, &limits, None)),
    };
    match result {
        Ok(solution) => Ok(Optimum::Known(metric.length(&solution.moves))),
        // Out of time before the search began (building a multi-tile table), nothing proven:
        // the bound every board has ([`crate::interchange::slides_floor`]).
        Err(SolveError::Limit { bound: 0, hit, .. }) if metric == Metric::Mtm => {
            Ok(Optimum::Unknown(
                crate::interchange::slides_floor(board, goal),
                hit,
                Some(crate::interchange::table_advice(hit, goal)),
            ))
        }
        // Moves as short as the bound proven are optimal, whatever stopped the search.
        Err(SolveError::Limit { bound, .. }) if bound as usize == length => {
            Ok(Optimum::Known(bound as usize))
        }
        Err(SolveError::Limit { bound, hit, .. }) => Ok(Optimum::Unknown(bound, hit, None)),
        Err(err) => Err(err.into()),
    }
}
