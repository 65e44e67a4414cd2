//! `taquin generate`: random solvable boards, uniformly random or by a random walk from the goal,
//! reproducible with a seed.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{Context, Result};
use serde_json::json;
use taquin::generate::{random_walk_within, uniform, Rng};
use taquin::Board;

use crate::common;

/// Output formats of `taquin generate`.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// One board per line, rows separated by '/': what `taquin solve` reads.
    Line,
    /// The benchmark format `ID - t0 t1 ...` (OPTLEN unknown); square boards against the
    /// blank-first goal of that format.
    Bench,
    /// JSON Lines: {"id", "board", "goal"}.
    Json,
}

/// Arguments of `taquin generate`.
#[derive(clap::Args, Debug)]
pub struct GenerateArgs {
    /// Board size as WIDTHxHEIGHT (columns x rows), e.g. 4x4 or 3x5 (default: the size of a
    /// --goal board, else 4x4).
    #[arg(long, short, value_parser = common::parse_size)]
    pub size: Option<(usize, usize)>,
    /// How many boards.
    #[arg(long, short, default_value_t = 1, allow_negative_numbers = true, value_parser = crate::common::whole_number::<usize>)]
    pub count: usize,
    /// Seed of the random generator: the same seed gives the same boards.
    #[arg(long, allow_negative_numbers = true, value_parser = crate::common::whole_number::<u64>)]
    pub seed: Option<u64>,
    /// Make each board by this many random moves from the goal (never undoing the last one)
    /// instead of uniformly at random; fewer moves give easier boards.
    #[arg(long, short, allow_negative_numbers = true, value_parser = crate::common::whole_number::<usize>)]
    pub moves: Option<usize>,
    /// The goal the boards must be solvable to: standard, korf, snail, or a board (default:
    /// 1..N-1 then the blank; blank first for --format bench).
    #[arg(long, short)]
    pub goal: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Line)]
    pub format: Format,
}

/// The size when none is given.
const DEFAULT_SIZE: (usize, usize) = (4, 4);

/// The longest walk `--moves` takes: about 30 s a board here, with nothing shown meanwhile.
/// Walks are for boards easier than random ones; fully random boards come at once from the
/// uniform default.
const MAX_WALK: usize = 1_000_000_000;

/// Runs `taquin generate`.
pub fn run(args: GenerateArgs) -> Result<ExitCode> {
    if args.count == 0 {
        return Err(crate::errors::Coded::bad_fields(
            "--count 0 makes no boards: give 1 or more (the default is 1)",
        )
        .into());
    }
    if let Some(k) = args.moves.filter(|&k| k > MAX_WALK) {
        return Err(crate::errors::Coded::bad_fields(format!(
            "--moves {} is more than {}: a walk that long takes minutes a board; for fully \
             random boards leave out --moves (uniform boards, at once)",
            common::thousands(k as u64),
            common::thousands(MAX_WALK as u64)
        ))
        .into());
    }
    let named = |g: &str| taquin::goals::NamedGoal::from_name(g).is_some();
    let goal = match &args.goal {
        Some(name) if named(name) => {
            let (w, h) = args.size.unwrap_or(DEFAULT_SIZE);
            taquin::goals::parse_goal(name, w, h)?
        }
        Some(g) => {
            let (w, h) = args.size.unwrap_or(DEFAULT_SIZE);
            // A mistyped name is said as solve says it (the names it knows), not as a board.
            let g = common::goal_from_text(g, w, h)?;
            if let Some((w, h)) = args.size {
                anyhow::ensure!(
                    (g.width(), g.height()) == (w, h),
                    "the goal is {}x{} but --size is {w}x{h}: leave out --size to take the goal's",
                    g.width(),
                    g.height()
                );
            }
            g
        }
        None => {
            let (w, h) = args.size.unwrap_or(DEFAULT_SIZE);
            match args.format {
                Format::Bench => blank_first(w, h)?,
                _ => Board::solved(w, h)?,
            }
        }
    };
    if args.format == Format::Bench {
        // The format's lines carry no goal: whoever reads them solves for the blank-first one.
        let (w, h) = (goal.width(), goal.height());
        anyhow::ensure!(w == h, "--format bench needs a square board, got {w}x{h}");
        anyhow::ensure!(
            goal == blank_first(w, h)?,
            "--format bench lines carry no goal, and their readers solve them for the blank-first \
             goal (korf): leave out --goal (or give --goal korf), or use --format json, whose \
             lines carry their goal"
        );
    }
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let mut rng = Rng::new(seed);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    // Ctrl-C ends a long run (many boards, or walks of billions of moves) after the boards
    // written so far.
    let limits = taquin::Limits::none().with_cancel(common::cancel_flag());
    for i in 0..args.count {
        let board = match args.moves {
            Some(k) => match random_walk_within(&goal, k, &mut rng, &limits) {
                Ok(board) => board,
                Err(_) => break,
            },
            None if limits.check(0).is_err() => break,
            None => uniform(&goal, &mut rng),
        };
        match args.format {
            Format::Line => writeln!(out, "{}", board.to_line())?,
            Format::Bench => {
                let tiles: Vec<String> = board.tiles().iter().map(|t| t.to_string()).collect();
                writeln!(out, "{} - {}", i + 1, tiles.join(" "))?
            }
            Format::Json => writeln!(
                out,
                "{}",
                json!({"id": i + 1, "board": board.to_line(), "goal": goal.to_line()})
            )?,
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The goal of the benchmark format: the blank first, then 1 .. N-1.
fn blank_first(w: usize, h: usize) -> Result<Board> {
    Board::from_tiles(w, h, (0..(w * h) as u32).collect()).context("building the blank-first goal")
}
