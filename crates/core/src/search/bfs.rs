//! Breadth-first search over any [`Graph`], ignoring step costs and the heuristic: the fewest
//! steps to a goal. On small boards it is the ground truth the other searches are tested against.

use crate::clock::Instant;
use std::collections::{HashSet, VecDeque};

use super::{Graph, Path, SearchFailure};
use crate::hashing::FoldState;
use crate::limits::{Limits, Progress, ProgressFn};
use crate::solution::Stats;

/// Fewest steps from `start` to a goal; `cost` counts steps.
pub fn bfs<G: Graph>(
    graph: &G,
    start: G::Node,
    limits: &Limits,
    progress: Option<ProgressFn>,
) -> Result<Path<G::Node>, SearchFailure> {
    let started = Instant::now();
    let mut stats = Stats::default();
    // node -> parent slot; slots hold (node, parent, depth) in discovery order
    let mut parent_of: Vec<(G::Node, u32, u32)> = Vec::new();
    let mut seen: HashSet<G::Node, FoldState> = HashSet::with_hasher(FoldState);
    let mut queue: VecDeque<u32> = VecDeque::new();
    let slot_bytes = 2 * std::mem::size_of::<(G::Node, u32, u32)>() + 16;
    let mut heap_bytes = graph.node_heap_bytes(&start);
    seen.insert(start.clone());
    parent_of.push((start, u32::MAX, 0));
    queue.push_back(0);
    // Limits are checked by work done, not nodes: a node of a huge board costs its size.
    let mut work = 0u64;
    let mut next_check = limits.next_check(0, 0);
    let mut neighbours = Vec::new();
    while let Some(slot) = queue.pop_front() {
        let (node, _, depth) = parent_of[slot as usize].clone();
        if graph.is_goal(&node) {
            stats.elapsed = started.elapsed();
            stats.peak_closed = parent_of.len();
            let bytes = parent_of.len() * slot_bytes + heap_bytes + stats.peak_open * 4;
            stats.peak_memory_bytes = stats.peak_memory_bytes.max(bytes);
            let mut nodes = Vec::new();
            let mut s = slot;
            while s != u32::MAX {
                nodes.push(parent_of[s as usize].0.clone());
                s = parent_of[s as usize].1;
            }
            nodes.reverse();
            return Ok(Path {
                nodes,
                cost: depth,
                stats,
            });
        }
        stats.expanded += 1;
        neighbours.clear();
        graph.neighbours(&node, &mut neighbours);
        for (next, _) in neighbours.drain(..) {
            stats.generated += 1;
            work += 1 + graph.node_heap_bytes(&next) as u64 / 64;
            if seen.contains(&next) {
                continue;
            }
            heap_bytes += 2 * graph.node_heap_bytes(&next);
            seen.insert(next.clone());
            parent_of.push((next, slot, depth + 1));
            queue.push_back(parent_of.len() as u32 - 1);
        }
        stats.peak_open = stats.peak_open.max(queue.len());
        if work >= next_check {
            next_check = limits.next_check(work, stats.generated);
            let bytes = parent_of.len() * slot_bytes + heap_bytes + stats.peak_open * 4;
            stats.peak_memory_bytes = stats.peak_memory_bytes.max(bytes);
            stats.peak_closed = parent_of.len();
            stats.elapsed = started.elapsed();
            if let Some(hit) = limits
                .check(stats.generated)
                .err()
                .or(limits.check_memory(bytes).err())
            {
                return Err(SearchFailure::Limit {
                    hit,
                    stats,
                    bound: depth,
                });
            }
            if let Some(p) = progress {
                p(Progress {
                    generated: stats.generated,
                    expanded: stats.expanded,
                    bound: depth,
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
