//! A* (Hart, Nilsson & Raphael 1968) and its best-first relatives over any [`Graph`].
//!
//! The open list is a binary heap ordered by f = g + h; among equal f the node with the larger g
//! (the deeper one) comes first, since it is closer to a goal by the heuristic's own account, and
//! among equal f and g the one added first (FIFO), so runs are reproducible. Each node is stored
//! once, with its best g and parent, in slots that grow by blocks and are found again through
//! an index of slot numbers and hash fingerprints (`slot_index.rs`, as BFS stores its nodes). A
//! node reached again by a cheaper path is updated and pushed again (reopened), so the result
//! stays optimal even for an admissible heuristic that is not consistent. Stale heap entries
//! are skipped when popped.

use crate::clock::Instant;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::chunked::Chunked;
use super::slot_index::{print_of, SlotIndex};
use super::{Graph, Path, SearchFailure};
use crate::limits::{LimitHit, Limits, Pace, Progress, ProgressFn};
use crate::solution::Stats;
use std::time::Duration;

/// How a best-first search orders its open list.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Priority {
    /// f = g + h: optimal with an admissible heuristic.
    AStar,
    /// f = g + w·h with w >= 1 (Pohl 1970): the cost found is at most w times the optimal.
    Weighted(f64),
    /// f = h (greedy best-first): fast, no bound on the cost.
    Greedy,
}

impl Priority {
    /// The open-list key, scaled by 1024 so fractional weights keep integer keys.
    fn key(self, g: u32, h: u32) -> u64 {
        let (g, h) = (u64::from(g), u64::from(h));
        match self {
            Priority::AStar => (g + h) << 10,
            Priority::Weighted(w) => (g << 10) + (w * 1024.0 * h as f64).round() as u64,
            Priority::Greedy => h << 10,
        }
    }
}

/// One stored node: its best known g, its heuristic value, its parent's slot, and whether it
/// was expanded.
struct Slot<N> {
    node: N,
    g: u32,
    h: u32,
    parent: u32,
    closed: bool,
}

/// A* from `start`: the cheapest path to a goal when the heuristic is admissible.
pub fn astar<G: Graph>(
    graph: &G,
    start: G::Node,
    limits: &Limits,
    progress: Option<ProgressFn>,
) -> Result<Path<G::Node>, SearchFailure>
where
    G::Node: Send + 'static,
{
    best_first(graph, start, Priority::AStar, limits, progress)
}

/// Best-first search ordered by `priority`; [`astar`] is `Priority::AStar`. Its stored nodes
/// are freed on a thread of their own when large, so that the answer, or the limit
/// that stopped it, comes without waiting for that.
pub fn best_first<G: Graph>(
    graph: &G,
    start: G::Node,
    priority: Priority,
    limits: &Limits,
    progress: Option<ProgressFn>,
) -> Result<Path<G::Node>, SearchFailure>
where
    G::Node: Send + 'static,
{
    let started = Instant::now();
    let mut stats = Stats::default();
    // The search before may still be giving its memory back: this one starts once it has, or
    // not at all when its own limits run out first.
    if let Err(hit) = super::wait_for_frees(limits) {
        stats.elapsed = started.elapsed();
        let bound = graph.heuristic(&start);
        return Err(SearchFailure::Limit { hit, stats, bound });
    }
    // Each node once, in slots that grow by blocks (never copied), found again through an
    // index of slot numbers and hash fingerprints (8 bytes a node, quick to grow).
    let mut slots: Chunked<Slot<G::Node>> = Chunked::new();
    let mut index = SlotIndex::new();
    // (Reverse(f), g, Reverse(sequence), slot)
    let mut open: BinaryHeap<(Reverse<u64>, u32, Reverse<u64>, u32)> =
        BinaryHeap::with_capacity(4096);
    let mut sequence = 0u64;
    let mut heap_bytes = 0usize;
    // Bytes of the open and closed sets, by capacity: the slots' blocks, the index, the nodes'
    // heap blocks and the open list.
    let open_bytes = std::mem::size_of::<(Reverse<u64>, u32, Reverse<u64>, u32)>();
    let memory = |slots: &Chunked<Slot<G::Node>>,
                  index: &SlotIndex,
                  heap_bytes: usize,
                  open: &BinaryHeap<_>| {
        slots.bytes() + index.bytes() + heap_bytes + open.capacity() * open_bytes
    };

    let h0 = graph.heuristic(&start);
    heap_bytes += graph.node_heap_bytes(&start);
    index.grow();
    index.insert(print_of(&start), 0);
    slots.add_block();
    slots.push(Slot {
        node: start,
        g: 0,
        h: h0,
        parent: u32::MAX,
        closed: false,
    });
    open.push((Reverse(priority.key(0, h0)), 0, Reverse(0), 0));
    // Limits are checked by work done, not nodes: a node of a huge board costs its size.
    let mut work = 0u64;
    let mut pace = Pace::new();
    let mut next_check = pace.first(limits);
    let mut neighbours = Vec::new();
    let mut bound = h0;
    // The time of the last growth of the slots, the index or the open list, to foresee the
    // next (see `growth_would_pass`).
    let mut last_growth = Duration::ZERO;

    while let Some((Reverse(_), g, _, slot)) = open.pop() {
        let s = &mut slots[slot as usize];
        if s.g != g || (s.closed && priority == Priority::AStar) {
            continue; // stale entry: a cheaper path to this node was found after it was pushed
        }
        s.closed = true;
        if priority == Priority::AStar {
            bound = bound.max(g + s.h);
        }
        let node = s.node.clone();
        if graph.is_goal(&node) {
            stats.elapsed = started.elapsed();
            let bytes = memory(&slots, &index, heap_bytes, &open);
            stats.peak_memory_bytes = stats.peak_memory_bytes.max(bytes);
            let nodes = rebuild(&slots, slot);
            super::drop_aside((slots, index, open), bytes);
            return Ok(Path {
                nodes,
                cost: g,
                stats,
            });
        }
        stats.expanded += 1;
        neighbours.clear();
        graph.neighbours_with_heuristic(&node, &mut neighbours);
        for (next, step, h) in neighbours.drain(..) {
            stats.generated += 1;
            work += 1 + graph.node_heap_bytes(&next) as u64 / 64;
            // A new node here may grow a table of millions of entries: copied into fresh memory,
            // which takes seconds past a gigabyte. Not started when it could not end in time.
            let grows = slots.is_full() || index.is_full() || open.len() == open.capacity();
            // A growth that would pass the memory budget is not made either: the old and the
            // new index, or open list, are held at once while it is made.
            let growth_bytes = if grows {
                let index_growth = if index.is_full() {
                    index.growth_bytes() - index.bytes()
                } else {
                    0
                };
                let slots_growth = if slots.is_full() {
                    slots.add_block_bytes()
                } else {
                    0
                };
                let open_growth = if open.len() == open.capacity() {
                    2 * open.capacity().max(4) * open_bytes
                } else {
                    0
                };
                index_growth + slots_growth + open_growth
            } else {
                0
            };
            let hit = if !grows {
                None
            } else if growth_would_pass(last_growth, limits) {
                Some(LimitHit::Time)
            } else {
                let bytes = memory(&slots, &index, heap_bytes, &open) + growth_bytes;
                limits.check_memory(bytes).err()
            };
            if let Some(hit) = hit {
                stats.elapsed = started.elapsed();
                let bytes = memory(&slots, &index, heap_bytes, &open);
                stats.peak_memory_bytes = stats.peak_memory_bytes.max(bytes);
                super::drop_aside((slots, index, open), bytes);
                return Err(SearchFailure::Limit { hit, stats, bound });
            }
            let growing = grows.then(Instant::now);
            let ng = g + step;
            let print = print_of(&next);
            let (target, h) = match index.find(print, |t| slots[t as usize].node == next) {
                Some(t) => {
                    let old = &mut slots[t as usize];
                    if ng >= old.g {
                        continue;
                    }
                    old.g = ng;
                    old.parent = slot;
                    old.closed = false;
                    (t, old.h)
                }
                None => {
                    // u32::MAX is the start's parent: no slot takes that number (four billion
                    // nodes are far past any memory budget anyway).
                    let Some(t) = u32::try_from(slots.len()).ok().filter(|&t| t < u32::MAX) else {
                        stats.elapsed = started.elapsed();
                        let bytes = memory(&slots, &index, heap_bytes, &open);
                        super::drop_aside((slots, index, open), bytes);
                        return Err(SearchFailure::Limit {
                            hit: LimitHit::Memory,
                            stats,
                            bound,
                        });
                    };
                    heap_bytes += graph.node_heap_bytes(&next);
                    if index.is_full() {
                        index.grow();
                    }
                    if slots.is_full() {
                        slots.add_block();
                    }
                    index.insert(print, t);
                    slots.push(Slot {
                        node: next,
                        g: ng,
                        h,
                        parent: slot,
                        closed: false,
                    });
                    (t, h)
                }
            };
            sequence += 1;
            open.push((Reverse(priority.key(ng, h)), ng, Reverse(sequence), target));
            if let Some(began) = growing {
                last_growth = last_growth.max(began.elapsed());
            }
        }
        stats.peak_open = stats.peak_open.max(open.len());
        stats.peak_closed = slots.len();
        if work >= next_check {
            next_check = pace.next(limits, work, stats.generated);
            let bytes = memory(&slots, &index, heap_bytes, &open);
            stats.peak_memory_bytes = stats.peak_memory_bytes.max(bytes);
            stats.elapsed = started.elapsed();
            let hit = limits
                .check(stats.generated)
                .err()
                .or(limits.check_memory(bytes).err());
            if let Some(hit) = hit {
                super::drop_aside((slots, index, open), bytes);
                return Err(SearchFailure::Limit { hit, stats, bound });
            }
            if let Some(p) = progress {
                p(Progress {
                    generated: stats.generated,
                    expanded: stats.expanded,
                    bound,
                    elapsed: stats.elapsed,
                    best: None,
                    best_moves: None,
                });
            }
        }
    }
    stats.elapsed = started.elapsed();
    Err(SearchFailure::NoPath { stats })
}

/// Whether growing the search's tables now, foreseen to take twice their last growth (each
/// doubles them), would end past the deadline of `limits`: then the search stops at its time
/// limit before it, rather than pass the limit by the growth (A* on a 24-puzzle with a 3 s limit
/// ended at 4.2 s, its tables holding millions of entries).
fn growth_would_pass(last_growth: Duration, limits: &Limits) -> bool {
    limits
        .deadline
        .is_some_and(|d| Instant::now() + 2 * last_growth >= d)
}

/// Follows parents from `slot` back to the start.
fn rebuild<N: Clone>(slots: &Chunked<Slot<N>>, mut slot: u32) -> Vec<N> {
    let mut nodes = Vec::new();
    while slot != u32::MAX {
        let s = &slots[slot as usize];
        nodes.push(s.node.clone());
        slot = s.parent;
    }
    nodes.reverse();
    nodes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_growth_that_would_end_past_the_deadline_is_not_started() {
        let soon = Limits::none().with_timeout(Duration::from_secs(60));
        assert!(growth_would_pass(Duration::from_secs(40), &soon));
        assert!(!growth_would_pass(Duration::from_millis(10), &soon));
        assert!(!growth_would_pass(Duration::ZERO, &soon));
        // Without a deadline any growth may run (the memory budget bounds it).
        assert!(!growth_would_pass(
            Duration::from_secs(3600),
            &Limits::none()
        ));
    }

    /// A grid with walls: a classic non-puzzle use of the graph interface.
    struct Grid {
        walls: Vec<&'static str>,
    }
    impl Graph for Grid {
        type Node = (usize, usize);
        fn neighbours(&self, &(x, y): &(usize, usize), out: &mut Vec<((usize, usize), u32)>) {
            let h = self.walls.len();
            let w = self.walls[0].len();
            let cand = [
                (x.wrapping_sub(1), y),
                (x + 1, y),
                (x, y.wrapping_sub(1)),
                (x, y + 1),
            ];
            for (nx, ny) in cand {
                if nx < w && ny < h && self.walls[ny].as_bytes()[nx] != b'#' {
                    out.push(((nx, ny), 1));
                }
            }
        }
        fn heuristic(&self, &(x, y): &(usize, usize)) -> u32 {
            crate::heuristic::manhattan::grid_distance((x, y), (4, 0)) as u32
        }
        fn is_goal(&self, n: &(usize, usize)) -> bool {
            *n == (4, 0)
        }
    }

    #[test]
    fn finds_the_shortest_way_round_a_wall() {
        let g = Grid {
            walls: vec!["..#..", "..#..", ".....", "....."],
        };
        let p = astar(&g, (0, 0), &Limits::none(), None).unwrap();
        assert_eq!(p.cost, 8);
        assert_eq!(p.nodes.len(), 9);
        let p = best_first(&g, (0, 0), Priority::Greedy, &Limits::none(), None).unwrap();
        assert!(p.cost >= 8);
    }

    #[test]
    fn reports_no_path_and_limits() {
        let g = Grid {
            walls: vec!["..#..", "..#..", "..#..", "..#.."],
        };
        assert!(matches!(
            astar(&g, (0, 0), &Limits::none(), None),
            Err(SearchFailure::NoPath { .. })
        ));
    }
}
