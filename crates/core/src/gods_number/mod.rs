//! God's number of small boards: the largest optimal distance from the goal, and how many
//! states lie at each distance, by a breadth-first search over every reachable state.
//!
//! Memory is two bits per state, indexed by a perfect hash of the `N!/2` reachable boards
//! ([`rank::Ranker`]): no state is ever stored as such, only its bit pair, which says unseen,
//! in the current layer, in the next layer, or done. Each layer is one sweep over the array
//! (Korf's two-bit breadth-first search, "Linear-time disk-based implicit graph search",
//! JACM 2008, here in memory), split into chunks that every core takes in turn; the bit pairs
//! are changed only by atomic AND, so the threads never lock.
//!
//! A 3x4 board (239,500,800 states) takes 60 MB; a 2x7 board (43.6 billion) would take 10.9 GB.

pub mod rank;

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use crate::clock::Instant;

use crate::board::{size_with_article, Board, Tile};
use crate::limits::{LimitHit, Limits};
use crate::metric::Metric;
use crate::moves::Move;
use crate::report::thousands;
use rank::Ranker;

/// The result of a complete breadth-first search from a goal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GodsNumber {
    /// The goal searched from.
    pub goal: Board,
    /// The metric distances are counted in.
    pub metric: Metric,
    /// `distribution[d]`: how many states are exactly `d` moves from the goal.
    pub distribution: Vec<u64>,
    /// Up to [`ANTIPODES_KEPT`] of the states at the largest distance.
    pub antipodes: Vec<Board>,
    /// Wall-clock time of the search.
    pub elapsed: Duration,
    /// Bytes of the state array.
    pub memory_bytes: usize,
}

impl GodsNumber {
    /// The largest distance from the goal: God's number of the board in this metric.
    pub fn diameter(&self) -> usize {
        self.distribution.len() - 1
    }

    /// Number of states reached (every reachable state: `N!/2`).
    pub fn states(&self) -> u64 {
        self.distribution.iter().sum()
    }
}

/// How many of the farthest states [`gods_number`] keeps to show.
pub const ANTIPODES_KEPT: usize = 8;

/// Why the search did not run to its end.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GodsError {
    /// The state array would not fit in the memory budget.
    #[error("{} board has {states} reachable states, which need {need} at two bits each, over the budget of {budget_mib} MiB: raise the memory budget if the machine has that much{smaller}", size_with_article(*.width, *.height))]
    TooLarge {
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
        /// `N!/2`, as text (it may not fit in 64 bits).
        states: String,
        /// Memory needed, in words: "58 MiB", or more than 64-bit sizes can say.
        need: String,
        /// Memory allowed.
        budget_mib: u64,
        /// The smaller boards to pick instead, as the end of the message (", or pick ..."),
        /// empty when there are none.
        smaller: &'static str,
    },
    /// The system refused the memory of the state array (within the budget, beyond what the
    /// machine has).
    #[error("the state array needs {need}, which the system refused: pick a smaller board, or free memory")]
    NoMemory {
        /// Memory needed: "58 MiB".
        need: String,
    },
    /// The deadline passed or the search was cancelled; the layers done so far are kept.
    #[error(
        "{hit} after {} complete layer{}{}: God's number is at least {}",
        distribution.len(),
        if distribution.len() == 1 { "" } else { "s" },
        if *deeper > 0 { format!(" and {} state{} of the next", thousands(*deeper), if *deeper == 1 { "" } else { "s" }) } else { String::new() },
        self.lower_bound().unwrap_or(0)
    )]
    Stopped {
        /// Which limit.
        hit: LimitHit,
        /// The layers finished before it stopped.
        distribution: Vec<u64>,
        /// States of the next layer found before it stopped: one is enough to prove a state
        /// that many moves away.
        deeper: u64,
    },
}

impl GodsError {
    /// What a stopped search proves: God's number is at least the depth of the deepest state
    /// found, the last complete layer's or one more when the next was begun. `None` for the
    /// other errors.
    pub fn lower_bound(&self) -> Option<usize> {
        match self {
            GodsError::Stopped {
                distribution,
                deeper,
                ..
            } => Some(distribution.len().saturating_sub(1) + usize::from(*deeper > 0)),
            _ => None,
        }
    }
}

/// What a running search reports, after each chunk of states and at each new layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LayerProgress {
    /// The distance being expanded.
    pub depth: usize,
    /// States found so far, all layers.
    pub found: u64,
    /// All reachable states.
    pub total: u64,
    /// Time since the start.
    pub elapsed: Duration,
}

/// The progress callback of [`gods_number`].
pub type LayerProgressFn<'a> = &'a (dyn Fn(LayerProgress) + Sync);

/// Bit pair of a state never reached (a state whose layer is done has `0b00`).
const UNSEEN: u64 = 0b11;
/// Bit pairs alternate between layers: layer `d` uses `1 + d % 2`.
fn layer_code(depth: usize) -> u64 {
    1 + (depth as u64 & 1)
}

/// States per 64-bit word.
const PER_WORD: u64 = 32;
/// Words per chunk of work handed to a thread.
const CHUNK_WORDS: usize = 1 << 11;
const LOW_BITS: u64 = 0x5555_5555_5555_5555;

/// Runs the breadth-first search from `goal` over every reachable state, counting distances in
/// `metric`, on `threads` threads (0: every core). `limits` supplies the memory budget
/// (default 4 GiB), the node budget (states reached), the deadline and the cancel flag,
/// checked after every chunk.
pub fn gods_number(
    goal: &Board,
    metric: Metric,
    threads: usize,
    limits: &Limits,
    progress: Option<LayerProgressFn>,
) -> Result<GodsNumber, GodsError> {
    let started = Instant::now();
    let (width, height) = (goal.width(), goal.height());
    let budget = limits.memory_budget();
    let ranker = Ranker::new(goal)
        .filter(|r| r.states().div_ceil(4) <= budget as u64)
        .ok_or_else(|| too_large(width, height, budget))?;
    let total = ranker.states();
    let words = total.div_ceil(PER_WORD) as usize;
    let memory_bytes = words * 8;
    let bits = unseen_states(words, limits).map_err(|e| match e {
        Unseen::Stopped(hit) => GodsError::Stopped {
            hit,
            distribution: vec![1],
            deeper: 0,
        },
        Unseen::Refused => GodsError::NoMemory {
            need: format!(
                "{} MiB",
                crate::report::thousands(memory_bytes.div_ceil(1 << 20) as u64)
            ),
        },
    })?;
    let threads = crate::search::parallel::threads_or_cores(threads);
    let start = ranker.rank(goal.tiles(), goal.blank());
    mark(&bits, start, layer_code(0));
    let mut distribution = vec![1u64];
    let mut found = 1u64;
    let mut antipodes: Vec<u64>;
    let stop = AtomicBool::new(false);
    let hit: Mutex<Option<LimitHit>> = Mutex::new(None);
    loop {
        let depth = distribution.len() - 1;
        let sweep = Sweep {
            bits: &bits,
            ranker: &ranker,
            width,
            height,
            metric,
            current: layer_code(depth),
            next: layer_code(depth + 1),
            total,
        };
        let next_chunk = AtomicUsize::new(0);
        let new_states = AtomicU64::new(0);
        let layer_sample: Mutex<Vec<u64>> = Mutex::new(Vec::new());
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| {
                    let mut cells = vec![0 as Tile; width * height];
                    let mut sample = Vec::new();
                    let mut count = 0u64;
                    while !stop.load(Ordering::Relaxed) {
                        let chunk = next_chunk.fetch_add(1, Ordering::Relaxed);
                        let first = chunk * CHUNK_WORDS;
                        if first >= words {
                            break;
                        }
                        let last = (first + CHUNK_WORDS).min(words);
                        count += sweep.expand(first..last, &mut cells, &mut sample);
                        let reached = found + new_states.load(Ordering::Relaxed) + count;
                        // Once every state is reached, the sweeps left reach none: a node
                        // budget of all the states lets the search end with its full answer.
                        let counted = if reached >= total { 0 } else { reached };
                        if let Err(h) = limits.check(counted) {
                            stop.store(true, Ordering::Relaxed);
                            *hit.lock().unwrap_or_else(|e| e.into_inner()) = Some(h);
                        }
                        if let Some(report) = progress {
                            report(LayerProgress {
                                depth,
                                found: reached,
                                total,
                                elapsed: started.elapsed(),
                            });
                        }
                    }
                    new_states.fetch_add(count, Ordering::Relaxed);
                    let mut kept = layer_sample.lock().unwrap_or_else(|e| e.into_inner());
                    kept.extend(sample);
                });
            }
        });
        if let Some(h) = *hit.lock().unwrap_or_else(|e| e.into_inner()) {
            return Err(GodsError::Stopped {
                hit: h,
                distribution,
                deeper: new_states.into_inner(),
            });
        }
        antipodes = layer_sample.into_inner().unwrap_or_else(|e| e.into_inner());
        let new_states = new_states.into_inner();
        if new_states == 0 {
            break;
        }
        found += new_states;
        distribution.push(new_states);
    }
    antipodes.sort_unstable();
    antipodes.truncate(ANTIPODES_KEPT);
    let mut cells = vec![0 as Tile; width * height];
    let antipodes = antipodes
        .into_iter()
        .map(|i| {
            ranker.unrank(i, &mut cells);
            Board::from_tiles(width, height, cells.clone()).expect("unranked boards are valid")
        })
        .collect();
    Ok(GodsNumber {
        goal: goal.clone(),
        metric,
        distribution,
        antipodes,
        elapsed: started.elapsed(),
        memory_bytes,
    })
}

fn too_large(width: usize, height: usize, budget: usize) -> GodsError {
    let cells = (width * height) as u128;
    let states = (3..=cells).try_fold(1u128, |acc, k| acc.checked_mul(k));
    let (states, need) = match states {
        // Rounded up: a budget of the figure said is enough.
        Some(s) => (
            crate::report::thousands(s),
            format!(
                "{} MiB",
                crate::report::thousands((s / 4).div_ceil(1 << 20))
            ),
        ),
        None => (
            format!("{cells}!/2"),
            "more bytes than 128-bit numbers can count".to_string(),
        ),
    };
    GodsError::TooLarge {
        width,
        height,
        states,
        need,
        budget_mib: (budget >> 20) as u64,
        smaller: match cells {
            13.. => ", or pick a smaller board (12 cells, e.g. 3x4 or 2x6, need 58 MiB; 9 cells, under 1 MiB)",
            10..=12 => ", or pick a smaller board (9 cells, e.g. 3x3, need under 1 MiB)",
            _ => "",
        },
    }
}

/// Words of the state array written between two checks of the limits: 8 MiB, a few
/// milliseconds.
const FILL_WORDS: usize = 1 << 20;

/// Why the state array was not made.
enum Unseen {
    /// A limit came while it was written.
    Stopped(LimitHit),
    /// The system refused the memory.
    Refused,
}

/// The state array of `words` words, every state unseen. Written piece by piece with the limits
/// checked between pieces: a 2x7 board's array is 11 GB, which takes tens of seconds to write,
/// and a time limit or Ctrl-C must not wait for it. Memory the system refuses (or a size no
/// allocation can have) is an error, not an abort.
fn unseen_states(words: usize, limits: &Limits) -> Result<Vec<AtomicU64>, Unseen> {
    let mut bits: Vec<AtomicU64> = Vec::new();
    bits.try_reserve_exact(words).map_err(|_| Unseen::Refused)?;
    while bits.len() < words {
        limits.check(0).map_err(Unseen::Stopped)?;
        let piece = FILL_WORDS.min(words - bits.len());
        bits.extend((0..piece).map(|_| AtomicU64::new(u64::MAX)));
    }
    Ok(bits)
}

/// Sets the bit pair of an unseen state to `code`; true when this call was the one to do it.
fn mark(bits: &[AtomicU64], index: u64, code: u64) -> bool {
    let shift = (index % PER_WORD) * 2;
    // UNSEEN is 0b11: clearing the bits `code` lacks turns it into `code`.
    let clear = (!code & 0b11) << shift;
    let word = &bits[(index / PER_WORD) as usize];
    if (word.load(Ordering::Relaxed) >> shift) & 0b11 != UNSEEN {
        return false;
    }
    (word.fetch_and(!clear, Ordering::Relaxed) >> shift) & 0b11 == UNSEEN
}

/// One layer's sweep: expands every state of the current layer into the next.
struct Sweep<'a> {
    bits: &'a [AtomicU64],
    ranker: &'a Ranker,
    width: usize,
    height: usize,
    metric: Metric,
    current: u64,
    next: u64,
    total: u64,
}

impl Sweep<'_> {
    /// Expands the current-layer states of `words`, marks them done, and returns how many new
    /// states it put in the next layer. Keeps a few current-layer states in `sample`.
    fn expand(
        &self,
        words: std::ops::Range<usize>,
        cells: &mut [Tile],
        sample: &mut Vec<u64>,
    ) -> u64 {
        let mut new_states = 0;
        for w in words {
            let value = self.bits[w].load(Ordering::Relaxed);
            let (low, high) = (value & LOW_BITS, (value >> 1) & LOW_BITS);
            let mut members = match self.current {
                1 => low & !high,
                _ => high & !low,
            };
            if members == 0 {
                continue;
            }
            let done_mask = members | (members << 1);
            while members != 0 {
                let slot = u64::from(members.trailing_zeros()) / 2;
                members &= members - 1;
                let index = w as u64 * PER_WORD + slot;
                if index >= self.total {
                    break;
                }
                if sample.len() < ANTIPODES_KEPT {
                    sample.push(index);
                }
                let blank = self.ranker.unrank(index, cells);
                new_states += self.successors(cells, blank);
            }
            // Expanded states are done: clearing both bits gives DONE.
            self.bits[w].fetch_and(!done_mask, Ordering::Relaxed);
        }
        new_states
    }

    /// Marks the unseen neighbours of the board in `cells` as next-layer states; returns how
    /// many it marked. `cells` is left as it was.
    fn successors(&self, cells: &mut [Tile], blank: usize) -> u64 {
        let mut marked = 0;
        for mv in Move::ALL {
            let mut at = blank;
            // STM: one cell; MTM: every run length the board allows in this direction.
            while let Some(to) = mv.target(at, self.width, self.height) {
                cells.swap(at, to);
                at = to;
                if mark(self.bits, self.ranker.rank(cells, at), self.next) {
                    marked += 1;
                }
                if self.metric == Metric::Stm {
                    break;
                }
            }
            // Slide the tiles back: the blank returns along the same line.
            let back = mv.inverse();
            while at != blank {
                let to = back.target(at, self.width, self.height).unwrap_or(blank);
                cells.swap(at, to);
                at = to;
            }
        }
        marked
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::goals::NamedGoal;

    fn run(w: usize, h: usize, metric: Metric) -> GodsNumber {
        let goal = Board::solved(w, h).unwrap();
        gods_number(&goal, metric, 2, &Limits::none(), None).unwrap()
    }

    #[test]
    fn tiny_boards_match_the_published_diameters() {
        // OEIS A151944: 2x2 needs 6 moves at most, 2x3 and 3x2 need 21.
        assert_eq!(run(2, 2, Metric::Stm).diameter(), 6);
        assert_eq!(run(3, 2, Metric::Stm).diameter(), 21);
        assert_eq!(run(2, 3, Metric::Stm).states(), 360);
        // On a 2x2 board no run is longer than one tile: both metrics agree.
        assert_eq!(
            run(2, 2, Metric::Mtm).distribution,
            run(2, 2, Metric::Stm).distribution
        );
    }

    #[test]
    fn every_goal_reaches_all_its_states() {
        for g in NamedGoal::ALL {
            let goal = g.board(3, 2).unwrap();
            let result = gods_number(&goal, Metric::Stm, 1, &Limits::none(), None).unwrap();
            assert_eq!(result.states(), 360, "{g}");
        }
    }

    #[test]
    fn a_search_stopped_mid_layer_proves_the_depth_it_reached() {
        let full = run(3, 3, Metric::Stm);
        let goal = Board::solved(3, 3).unwrap();
        let limits = Limits::none().with_max_nodes(100);
        let err = gods_number(&goal, Metric::Stm, 1, &limits, None).unwrap_err();
        let GodsError::Stopped {
            distribution,
            deeper,
            ..
        } = &err
        else {
            panic!("{err}");
        };
        let done = distribution.len();
        assert_eq!(distribution[..], full.distribution[..done]);
        // One thread sweeps the states in one order: the stop comes inside a layer, after
        // some of its states were found and before all of them.
        assert!(*deeper > 0 && *deeper < full.distribution[done], "{err}");
        assert_eq!(err.lower_bound(), Some(done));
        assert!(
            err.to_string()
                .ends_with(&format!("of the next: God's number is at least {done}")),
            "{err}"
        );
    }

    #[test]
    fn a_tight_budget_is_refused_and_a_cancel_stops() {
        let goal = Board::solved(3, 3).unwrap();
        let err = gods_number(
            &goal,
            Metric::Stm,
            1,
            &Limits::none().with_max_memory(100),
            None,
        )
        .unwrap_err();
        assert!(matches!(err, GodsError::TooLarge { .. }), "{err}");
        assert!(err.to_string().contains("raise the memory budget"));
        assert!(
            !err.to_string().contains("--"),
            "no command-line flag: {err}"
        );
        // No board smaller than the 8-puzzle is worth suggesting, and none is the size refused.
        assert!(!err.to_string().contains("pick a smaller"), "{err}");
        // Figures that agree with each other, also where 64 bits cannot hold them.
        let err = too_large(3, 4, 10 << 20).to_string();
        assert!(
            err.contains("239,500,800 reachable states, which need 58 MiB"),
            "{err}"
        );
        assert!(
            err.contains("pick a smaller board (9 cells") && !err.contains("3x4 or 2x6"),
            "{err}"
        );
        let err = too_large(4, 4, 10 << 20).to_string();
        assert!(err.contains("3x4 or 2x6, need 58 MiB"), "{err}");
        let err = too_large(9, 9, 4 << 30).to_string();
        assert!(
            err.contains("81!/2 reachable states, which need more bytes than"),
            "{err}"
        );
        assert!(!err.contains("18446744073709551615"), "{err}");
        let flag = std::sync::Arc::new(AtomicBool::new(true));
        let err = gods_number(
            &goal,
            Metric::Stm,
            1,
            &Limits::none().with_cancel(flag),
            None,
        )
        .unwrap_err();
        assert!(matches!(
            err,
            GodsError::Stopped {
                hit: LimitHit::Cancelled,
                ..
            }
        ));
    }

    #[test]
    fn the_state_array_is_written_within_the_limits_and_refused_memory_is_an_error() {
        let passed = Limits::none().with_timeout(Duration::from_nanos(1));
        std::thread::sleep(Duration::from_millis(1));
        assert!(matches!(
            unseen_states(3 * FILL_WORDS, &passed),
            Err(Unseen::Stopped(LimitHit::Time))
        ));
        let filled = unseen_states(FILL_WORDS + 3, &Limits::none()).ok().unwrap();
        assert_eq!(filled.len(), FILL_WORDS + 3);
        assert!(filled.iter().all(|w| w.load(Ordering::Relaxed) == u64::MAX));
        // A size Rust can allocate but no machine has (just under 8 EiB): the system
        // refuses it, which is an error, not an abort of the process.
        assert!(matches!(
            unseen_states(isize::MAX as usize / 8 - 1, &Limits::none()),
            Err(Unseen::Refused)
        ));
        let err = GodsError::NoMemory {
            need: "11 MiB".into(),
        };
        assert!(err
            .to_string()
            .contains("needs 11 MiB, which the system refused"));
    }
}
