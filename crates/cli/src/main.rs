//! `taquin`: the sliding-tile puzzle from the command line.
//!
//! Exit codes: 0 solved (or done), 1 unsolvable or a limit reached, 2 bad usage, input or I/O,
//! 130 stopped by Ctrl-C. With `--json`, an error is also one JSON object on standard output
//! ([`errors`]).

mod batch;
mod bench;
mod bench_places;
mod bench_results;
mod common;
mod compare;
mod errors;
mod generate;
mod gods_number;
mod in_flight;
mod in_order;
mod interchange;
mod pdb_cmd;
mod serve;
mod solve;
mod verify;

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Solve, study and play the sliding-tile puzzle (8-, 15-, 24-puzzle and any m x n board).
///
/// Boards are written row by row: rows separated by '/' or newlines (or ';'), tiles by spaces or commas,
/// the blank as 0, '_' or '.', e.g. "6 4 7/8 5 0/3 2 1". The default goal is 1..N-1 then the
/// blank. Moves are letters naming the direction the BLANK moves: U, D, L, R.
#[derive(Parser, Debug)]
#[command(name = "taquin", version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Directory of the pattern-database files (default: TAQUIN_PDB_DIR, else
    /// $XDG_CACHE_HOME/taquin or ~/.cache/taquin).
    #[arg(long, global = true, value_name = "DIR")]
    pdb_dir: Option<std::path::PathBuf>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve one board and print the moves (U/D/L/R: the direction the blank moves).
    Solve(solve::SolveArgs),
    /// Solve one board with every heuristic and algorithm and compare the effort.
    Compare(compare::CompareArgs),
    /// Generate random solvable boards (uniform or by a random walk), reproducible with --seed.
    Generate(generate::GenerateArgs),
    /// Solve every instance of a benchmark file and check each length against its OPTLEN.
    Bench(bench::BenchArgs),
    /// Solve many instances (bench format or JSON Lines) on every core: one JSON record per
    /// line, in input order, resumable (--resume) and shardable (--shard I/N).
    Batch(batch::BatchArgs),
    /// Start the web game on a local address and print it (Ctrl-C stops it).
    Serve(serve::ServeArgs),
    /// Build, list and verify the pattern databases (pdb:7-8 etc.) in the cache directory.
    Pdb(pdb_cmd::PdbArgs),
    /// Check a solution from any tool: where it goes wrong, or its length in both metrics
    /// and whether it is optimal (exit 0 valid, 1 invalid, 2 bad usage).
    Verify(verify::VerifyArgs),
    /// God's number of a small board (e.g. 3x3, 3x4): the largest distance from the goal and
    /// the number of states at each distance, by a breadth-first search over every state.
    GodsNumber(gods_number::GodsNumberArgs),
}

impl Command {
    /// True when the command was asked for JSON output, or always gives it (`batch`'s records):
    /// its errors are then JSON too.
    fn json(&self) -> bool {
        match self {
            Command::Solve(args) => args.json,
            Command::Compare(args) => args.json,
            Command::Bench(args) => args.json,
            Command::Verify(args) => args.json,
            Command::GodsNumber(args) => args.json,
            Command::Batch(_) => true,
            Command::Generate(_) | Command::Serve(_) | Command::Pdb(_) => false,
        }
    }
}

/// The command line, or clap's error and exit; a board typed without quotes (its tiles taken
/// for arguments of their own) gets a line saying to quote it.
fn parse_command_line() -> Cli {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    Cli::try_parse().unwrap_or_else(|e| {
        let stray_tile = e.kind() == ErrorKind::UnknownArgument
            && matches!(
                e.get(ContextKind::InvalidArg),
                Some(ContextValue::String(arg))
                    if arg.chars().all(|c| c.is_ascii_digit() || "/,._".contains(c))
            );
        if stray_tile {
            let _ = e.print();
            eprintln!(
                "tip: a board is one argument: quote it, e.g. taquin solve \"6 4 7/8 5 0/3 2 1\""
            );
            std::process::exit(i32::from(common::EXIT_USAGE));
        }
        e.exit()
    })
}

fn main() -> ExitCode {
    let cli = parse_command_line();
    let json = cli.command.json();
    let tables = pdb_cmd::open_tables(cli.pdb_dir);
    let result = match cli.command {
        Command::Solve(args) => solve::run(args, &tables),
        Command::Compare(args) => compare::run(args, &tables),
        Command::Generate(args) => generate::run(args),
        Command::Bench(args) => bench::run(args, &tables),
        Command::Batch(args) => batch::run(args, &tables),
        Command::Serve(args) => serve::run(args, tables),
        Command::Pdb(args) => pdb_cmd::run(args, &tables),
        Command::Verify(args) => verify::run(args, &tables),
        Command::GodsNumber(args) => gods_number::run(args),
    };
    let code = match result {
        Ok(code) => code,
        Err(err) if common::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            if json {
                // A closed standard output leaves the message on standard error only.
                let _ = writeln!(std::io::stdout(), "{}", errors::json(&err));
            }
            ExitCode::from(common::EXIT_USAGE)
        }
    };
    // Whatever a command made of it (a search cancelled, the best answer so far, the records
    // written), Ctrl-C ends every command the same way.
    if common::interrupted() {
        ExitCode::from(common::EXIT_INTERRUPTED)
    } else {
        code
    }
}
