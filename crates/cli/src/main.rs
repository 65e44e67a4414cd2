//! `taquin`: the sliding-tile puzzle from the command line.
//!
//! Exit codes: 0 solved (or done), 1 unsolvable or a limit reached, 2 bad usage, input or I/O.

mod bench;
mod common;
mod compare;
mod generate;
mod serve;
mod solve;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Solve, study and play the sliding-tile puzzle (8-, 15-, 24-puzzle and any m x n board).
///
/// Boards are written row by row: rows separated by '/' or newlines, tiles by spaces or commas,
/// the blank as 0, '_' or '.', e.g. "6 4 7/8 5 0/3 2 1". The default goal is 1..N-1 then the
/// blank. Moves are letters naming the direction the BLANK moves: U, D, L, R.
#[derive(Parser, Debug)]
#[command(name = "taquin", version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
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
    /// Start the web game on a local address and print it (Ctrl-C stops it).
    Serve(serve::ServeArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Solve(args) => solve::run(args),
        Command::Compare(args) => compare::run(args),
        Command::Generate(args) => generate::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Serve(args) => serve::run(args),
    };
    match result {
        Ok(code) => code,
        Err(err) if common::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(common::EXIT_USAGE)
        }
    }
}
