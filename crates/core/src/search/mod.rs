//! Searches.
//!
//! - [`astar()`] and [`bfs()`] are generic: they run on any [`Graph`] (neighbours with step costs, a
//!   heuristic, a goal test), in the style of the `pathfinding` crate, and show the algorithm
//!   plainly. [`puzzle_graph::PuzzleGraph`] is the sliding puzzle as such a graph.
//! - [`idastar()`] is specialised for the puzzle and for speed: one board mutated in place, the
//!   inverse of the previous move never generated, the heuristic updated incrementally, no
//!   allocation per node; [`Pruning`] adds duplicate pruning by an automaton ([`fsm`]) and
//!   bidirectional pathmax.

pub mod astar;
pub mod bfs;
pub mod checkpoint;
mod chunked;
pub mod fsm;
pub mod idastar;
pub mod parallel;
pub mod puzzle_graph;
mod slot_index;
pub mod trace;
pub mod trace_report;

pub use astar::{astar, best_first, Priority};
pub use bfs::bfs;
pub use checkpoint::{Checkpoint, CheckpointFile};
pub use idastar::{idastar, idastar_with, Pruning};
pub use parallel::{idastar_parallel, idastar_parallel_with};

use std::hash::Hash;
use std::sync::{Condvar, Mutex};

use crate::limits::{LimitHit, Limits};
use crate::solution::Stats;

/// Values smaller than this are dropped where they are: freeing them takes a few milliseconds
/// at most, less than starting a thread is worth.
const DROP_ASIDE_BYTES: usize = 16 << 20;

/// Drops `value`, which holds about `bytes`, on a thread of its own where threads exist and it
/// is large: freeing the millions of nodes a large A* or breadth-first search stored (each one an
/// allocation on boards over 16 cells) takes a good part of a second, which would otherwise come
/// after the deadline the search just stopped at. Where no thread can be started (a browser, a
/// busy system) it is dropped here. The next memory-bound search waits for it first
/// ([`wait_for_frees`]), so that the two never hold their memory at once.
pub(crate) fn drop_aside<T: Send + 'static>(value: T, bytes: usize) {
    if bytes < DROP_ASIDE_BYTES || cfg!(target_arch = "wasm32") {
        return drop(value);
    }
    let freeing = Freeing::start();
    // A refused thread drops the closure, with the value and the count, here.
    let _ = std::thread::Builder::new()
        .name("taquin-free".into())
        .spawn(move || {
            drop(value);
            drop(freeing);
        });
}

/// How many [`drop_aside`] frees are under way, and a signal when one ends.
static FREEING: (Mutex<usize>, Condvar) = (Mutex::new(0), Condvar::new());

/// One free under way, counted in [`FREEING`] until it is dropped (a panic included).
struct Freeing;

impl Freeing {
    fn start() -> Freeing {
        *FREEING.0.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        Freeing
    }
}

impl Drop for Freeing {
    fn drop(&mut self) {
        *FREEING.0.lock().unwrap_or_else(|e| e.into_inner()) -= 1;
        FREEING.1.notify_all();
    }
}

/// How often [`wait_for_frees`] looks at its caller's cancel flag, which no free signals.
const FREES_POLL: std::time::Duration = std::time::Duration::from_millis(5);

/// Waits until the frees [`drop_aside`] started are over: a memory-bound search (A*, BFS)
/// starts with the memory of the one before it given back, whose budget it may share (a batch,
/// a server's worker).
///
/// The wait keeps the caller's limits: it ends at their deadline or cancel even when frees are
/// still under way, with the limit that ended it. The search then does not start at all (it
/// could not have gone on past that limit anyway), so it never holds memory of its own beside
/// the memory still being freed, and its budget stays honest without counting those bytes. A
/// 5 ms search right after a large A* search used to wait the third of a second that free took.
pub(crate) fn wait_for_frees(limits: &Limits) -> Result<(), LimitHit> {
    let mut under_way = FREEING.0.lock().unwrap_or_else(|e| e.into_inner());
    while *under_way > 0 {
        limits.check(0)?;
        let slice = limits.deadline.map_or(FREES_POLL, |d| {
            d.saturating_duration_since(crate::clock::Instant::now())
                .min(FREES_POLL)
        });
        under_way = FREEING
            .1
            .wait_timeout(under_way, slice)
            .unwrap_or_else(|e| e.into_inner())
            .0;
    }
    Ok(())
}

/// `limits` for each of `jobs` searches run at once (a batch, a benchmark): they share its
/// memory budget, each getting an equal share (at least one byte), and, unless
/// [`Limits::cores`] says how many cores each may keep busy, the machine's cores, each getting
/// an equal share (at least one): two jobs that each spread over every core would run twice
/// the threads there are cores, and each would be timed as if it had them all.
pub fn limits_per_job(limits: Limits, jobs: usize) -> Limits {
    let jobs = jobs.max(1);
    let budget = limits.memory_budget();
    let cores = limits
        .cores
        .unwrap_or_else(|| (limits.cores_in_use() / jobs).max(1));
    limits
        .with_max_memory((budget / jobs).max(1))
        .with_cores(cores)
}

/// A graph to search: what the generic searches need to know, and nothing more.
///
/// ```
/// use taquin::search::{astar, Graph};
/// use taquin::Limits;
///
/// /// Walk along the integers from 0 to 17 by steps of +1 or +5; a +5 step costs 3.
/// struct Line;
/// impl Graph for Line {
///     type Node = i32;
///     fn neighbours(&self, n: &i32, out: &mut Vec<(i32, u32)>) {
///         out.push((n + 1, 1));
///         out.push((n + 5, 3));
///     }
///     fn heuristic(&self, n: &i32) -> u32 {
///         // every unit of distance costs at least 3/5 of a move
///         ((17 - n).max(0) as u32 * 3) / 5
///     }
///     fn is_goal(&self, n: &i32) -> bool {
///         *n == 17
///     }
/// }
/// let path = astar(&Line, 0, &Limits::none(), None).unwrap();
/// assert_eq!(path.cost, 11); // 5+5+5+1+1: 3+3+3+1+1
/// assert_eq!(path.nodes.last(), Some(&17));
/// ```
pub trait Graph {
    /// A node of the graph (a state of the puzzle).
    type Node: Clone + Eq + Hash;
    /// Appends every neighbour of `node` with the cost of the step to it.
    fn neighbours(&self, node: &Self::Node, out: &mut Vec<(Self::Node, u32)>);
    /// A lower bound on the cost from `node` to a goal (0 turns A* into Dijkstra's algorithm).
    fn heuristic(&self, node: &Self::Node) -> u32;
    /// True when `node` is a goal.
    fn is_goal(&self, node: &Self::Node) -> bool;
    /// Appends every neighbour with its step cost and its heuristic value. The default calls
    /// [`Graph::neighbours`] then [`Graph::heuristic`]; a graph that can estimate a neighbour
    /// more cheaply while generating it (the puzzle, with its tiles already decoded) overrides it.
    fn neighbours_with_heuristic(&self, node: &Self::Node, out: &mut Vec<(Self::Node, u32, u32)>) {
        let mut plain = Vec::new();
        self.neighbours(node, &mut plain);
        out.extend(plain.into_iter().map(|(n, cost)| {
            let h = self.heuristic(&n);
            (n, cost, h)
        }));
    }
    /// Bytes one stored node takes beyond `size_of::<Node>()`, for the memory budget.
    fn node_heap_bytes(&self, _node: &Self::Node) -> usize {
        0
    }
}

/// A path found by a generic search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Path<N> {
    /// Nodes from the start to the goal, both included.
    pub nodes: Vec<N>,
    /// Sum of the step costs.
    pub cost: u32,
    /// What the search spent.
    pub stats: Stats,
}

/// Why a generic search stopped without a path.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SearchFailure {
    /// A limit stopped it; `bound` is the best proven lower bound on the cost.
    Limit {
        /// Which limit.
        hit: LimitHit,
        /// What was spent.
        stats: Stats,
        /// Smallest f on the open list when it stopped (for A*), depth for BFS.
        bound: u32,
    },
    /// The whole reachable graph was searched and holds no goal.
    NoPath {
        /// What was spent.
        stats: Stats,
    },
}

#[cfg(test)]
mod tests {
    use super::drop_aside;

    #[test]
    fn jobs_at_once_share_the_memory() {
        use crate::Limits;
        let whole = Limits::none().with_max_memory(1 << 30);
        let one = super::limits_per_job(whole.clone(), 1);
        assert_eq!(one.memory_budget(), 1 << 30);
        let two = super::limits_per_job(whole.with_cores(1), 2);
        assert_eq!(two.memory_budget(), 1 << 29);
        assert_eq!(two.cores, Some(1), "the cores asked for are kept");
    }

    #[test]
    fn jobs_at_once_share_the_cores() {
        use crate::Limits;
        let machine = Limits::none().cores_in_use();
        let alone = super::limits_per_job(Limits::none(), 1);
        assert_eq!(alone.cores_in_use(), machine, "one job keeps every core");
        let two = super::limits_per_job(Limits::none(), 2);
        assert_eq!(two.cores_in_use(), (machine / 2).max(1));
        let many = super::limits_per_job(Limits::none(), machine + 3);
        assert_eq!(many.cores_in_use(), 1, "every job keeps at least one core");
        let asked = super::limits_per_job(Limits::none().with_cores(machine), 2);
        assert_eq!(asked.cores, Some(machine), "the cores asked for are kept");
    }

    /// Says on its channel when it is dropped.
    struct Tell(std::sync::mpsc::Sender<()>);

    impl Drop for Tell {
        fn drop(&mut self) {
            let _ = self.0.send(());
        }
    }

    #[test]
    fn a_value_dropped_aside_is_dropped() {
        let (tx, rx) = std::sync::mpsc::channel();
        // Small (dropped here) and large (on a thread of its own): dropped all the same, and
        // over once the next search has waited for them.
        drop_aside(vec![Tell(tx.clone())], 0);
        drop_aside(vec![Tell(tx)], usize::MAX);
        super::wait_for_frees(&crate::Limits::none()).unwrap();
        assert_eq!(rx.try_iter().count(), 2);
    }

    #[test]
    fn the_wait_for_frees_keeps_the_callers_limits() {
        use crate::limits::LimitHit;
        use crate::Limits;
        use std::sync::atomic::AtomicBool;
        use std::sync::Arc;
        use std::time::Duration;
        // A free that ends only when told to, standing for a large one still under way.
        let (release, held) = std::sync::mpsc::channel::<()>();
        let freeing = super::Freeing::start();
        let free = std::thread::spawn(move || {
            let _ = held.recv();
            drop(freeing);
        });
        let started = std::time::Instant::now();
        let soon = Limits::none().with_timeout(Duration::from_millis(5));
        assert_eq!(super::wait_for_frees(&soon), Err(LimitHit::Time));
        let cancel = Arc::new(AtomicBool::new(true));
        let cancelled = Limits::none().with_cancel(cancel);
        assert_eq!(super::wait_for_frees(&cancelled), Err(LimitHit::Cancelled));
        // It used to wait for the free whatever the limits: here, for ever.
        assert!(started.elapsed() < Duration::from_secs(2));
        release.send(()).unwrap();
        free.join().unwrap();
        assert_eq!(super::wait_for_frees(&Limits::none()), Ok(()));
    }
}
