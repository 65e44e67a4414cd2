//! How much a pattern-database set adds to linear conflict, measured the cheap way: the mean of
//! Manhattan distance, linear conflict, the set's value and the larger of the last two at the
//! boards of a bench file (`ID OPTLEN t0 t1 ...`, square boards, Korf's goal with the blank
//! first), with the set's tables taken from a directory (`taquin pdb build` puts them there).
//! Used to choose the partitions of the larger boards (BENCHMARKS.md).
//!
//! `cargo run --release -p taquin-core --example pdb_roots -- FILE zpdb:5-6-6-6-6-6 DIR`

use taquin::heuristic::{Heuristic, LinearConflict, Manhattan};
use taquin::pdb::{BuildPolicy, PdbPreset, MAX_PATTERNS};
use taquin::{Board, Limits, Tables};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [file, set, dir] = args.as_slice() else {
        return Err("usage: pdb_roots FILE SET DIR".into());
    };
    let preset = PdbPreset::parse(set).ok_or("unknown set: name group sizes, e.g. zpdb:7-8")?;
    let tables = Tables::open(dir);
    let mut sums = [0u64; 4];
    let mut boards = 0u64;
    let mut heuristic = None;
    for line in std::fs::read_to_string(file)?.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let tiles: Vec<u32> = line
            .split_whitespace()
            .skip(2)
            .map(str::parse)
            .collect::<Result<_, _>>()?;
        let side = (tiles.len() as f64).sqrt().round() as usize;
        let board = Board::from_tiles(side, side, tiles)?;
        let goal = Board::from_tiles(side, side, (0..(side * side) as u32).collect())?;
        if heuristic.is_none() {
            heuristic = Some(tables.pdb_heuristic_sized::<MAX_PATTERNS>(
                preset,
                &goal,
                BuildPolicy::Never,
                &Limits::none(),
            )?);
        }
        let pdb = heuristic.as_ref().map_or(0, |h| h.estimate(board.tiles()));
        let lc = LinearConflict::new(&goal).estimate(board.tiles());
        let md = Manhattan::new(&goal).estimate(board.tiles());
        for (sum, v) in sums.iter_mut().zip([md, lc, pdb, pdb.max(lc)]) {
            *sum += u64::from(v);
        }
        boards += 1;
    }
    let mean = |i: usize| sums[i] as f64 / boards.max(1) as f64;
    println!(
        "{boards} boards: manhattan {:.2}, linear conflict {:.2}, {set} {:.2}, larger of the two {:.2}",
        mean(0),
        mean(1),
        mean(2),
        mean(3)
    );
    Ok(())
}
