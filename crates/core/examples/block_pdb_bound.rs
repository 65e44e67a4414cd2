//! How much additive pattern databases of small blocks would add to linear conflict on boards
//! above 32 cells (the largest the pattern-database heuristic takes): builds blank-aware tables
//! of `BWxBH` blocks of a `S`x`S` board whose goal has the blank first, then prints the mean of
//! Manhattan distance, linear conflict, the tables' sum and the larger of the last two over the
//! boards of a bench file (`ID OPTLEN t0 t1 ...`, blank-first goal).
//!
//! `cargo run --release -p taquin-core --example block_pdb_bound -- 6 2 2 boards.txt`

use taquin::heuristic::{Heuristic, LinearConflict, Manhattan};
use taquin::pdb::{build, PatternSpec};
use taquin::{Board, Limits};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [side, block_w, block_h, file] = args.as_slice() else {
        return Err("usage: block_pdb_bound SIDE BLOCK_WIDTH BLOCK_HEIGHT FILE".into());
    };
    let (side, bw, bh): (usize, usize, usize) = (side.parse()?, block_w.parse()?, block_h.parse()?);
    let n = side * side;
    let goal = Board::from_tiles(side, side, (0..n as u32).collect())?;
    // The goal cells of each block, the blank's cell left out.
    let mut groups = Vec::new();
    for y0 in (0..side).step_by(bh.max(1)) {
        for x0 in (0..side).step_by(bw.max(1)) {
            let cells: Vec<usize> = (y0..(y0 + bh).min(side))
                .flat_map(|y| (x0..(x0 + bw).min(side)).map(move |x| y * side + x))
                .filter(|&c| c != goal.blank())
                .collect();
            groups.push(cells);
        }
    }
    let started = std::time::Instant::now();
    let dbs = groups
        .iter()
        .map(|cells| {
            build(
                &PatternSpec::new(side, side, goal.blank(), cells.clone())?,
                0,
                None,
                &Limits::none(),
            )
        })
        .collect::<Result<Vec<_>, _>>()?;
    println!("{} tables built in {:.1?}", dbs.len(), started.elapsed());
    let (manhattan, lc) = (Manhattan::new(&goal), LinearConflict::new(&goal));
    let mut sums = [0u64; 4];
    let mut boards = 0;
    for line in std::fs::read_to_string(file)?.lines() {
        let tiles: Vec<u32> = line
            .split_whitespace()
            .skip(2)
            .map(str::parse)
            .collect::<Result<_, _>>()?;
        if tiles.is_empty() || line.starts_with('#') {
            continue;
        }
        let board = Board::from_tiles(side, side, tiles)?;
        let at = board.positions();
        let pdb: u32 = groups
            .iter()
            .zip(&dbs)
            .map(|(cells, db)| db.value(&cells.iter().map(|&c| at[c]).collect::<Vec<_>>(), 0))
            .sum();
        let lc_value = lc.estimate(board.tiles());
        for (s, v) in sums.iter_mut().zip([
            manhattan.estimate(board.tiles()),
            lc_value,
            pdb,
            pdb.max(lc_value),
        ]) {
            *s += u64::from(v);
        }
        boards += 1;
    }
    let mean = |s: u64| s as f64 / f64::from(boards.max(1));
    println!(
        "{boards} boards: manhattan {:.1}, linear conflict {:.1}, tables {:.1}, max {:.1}",
        mean(sums[0]),
        mean(sums[1]),
        mean(sums[2]),
        mean(sums[3])
    );
    Ok(())
}
