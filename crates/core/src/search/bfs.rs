//! Breadth-first search over any [`Graph`], ignoring step costs and the heuristic: the fewest
//! steps to a goal. On small boards it is the ground truth the other searches are tested against.
//!
//! Each node is stored once, in slots in discovery order that grow by blocks (`Chunked`:
//! never copied, so never held twice); the set that finds the nodes seen before holds only
//! slot numbers and a fingerprint of each node's hash (8 bytes an entry, where a set of the
//! nodes themselves takes the node's size, 40 bytes for a packed board, and a second copy of
//! its heap block). So a memory budget holds about twice as many nodes, and a growth of the
//! set, which rehashes from the fingerprints alone, is quick.
//!
//! Its memory is counted as allocated, not estimated from entry counts: the slots' blocks and
//! the hash set by their capacities, a hash set's growth with its old and new tables both alive
//! (a rehash copies one into the other), the heap blocks of the nodes stored, of the neighbours
//! being added and of the path answered. Each growth is checked against the budget before it
//! is made, so the memory held never passes the budget; a growth that would pass it stops the
//! search with [`LimitHit::Memory`]. Two things are counted only once made: the graph's own
//! scratch while it generates a node's neighbours, and neighbours beyond the four room is kept
//! for (none on a board, with single-tile moves), so a budget of a few hundred bytes may be
//! passed by that much.

use crate::clock::Instant;
use std::hash::Hash;
use std::mem::size_of;

use super::chunked::Chunked;
use super::slot_index::{print_of, SlotIndex};
use super::{Graph, Path, SearchFailure};
use crate::limits::{LimitHit, Limits, Pace, Progress, ProgressFn};
use crate::solution::Stats;

/// Fewest steps from `start` to a goal; `cost` counts steps. Its stored nodes are freed on a
/// thread of their own when large, so that the answer, or the limit that stopped
/// it, comes without waiting for that.
pub fn bfs<G: Graph>(
    graph: &G,
    start: G::Node,
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
        return Err(SearchFailure::Limit {
            hit,
            stats,
            bound: 0,
        });
    }
    if graph.is_goal(&start) {
        // Nothing to store but the answer: the start alone.
        let path = size_of::<G::Node>() + block_bytes(graph.node_heap_bytes(&start));
        stats.elapsed = started.elapsed();
        if let Err(hit) = limits.check_memory(path) {
            return Err(SearchFailure::Limit {
                hit,
                stats,
                bound: 0,
            });
        }
        stats.peak_memory_bytes = path;
        return Ok(Path {
            nodes: vec![start],
            cost: 0,
            stats,
        });
    }
    let mut store = Store::new(limits);
    let stop = |hit: LimitHit, mut stats: Stats, store: Store<G::Node>, bound: u32| {
        stats.elapsed = started.elapsed();
        stats.peak_closed = store.slots.len();
        stats.peak_memory_bytes = store.peak;
        store.free_aside();
        Err(SearchFailure::Limit { hit, stats, bound })
    };
    let heap = graph.node_heap_bytes(&start);
    if let Err(hit) = store.insert(start, u32::MAX, 0, heap) {
        return stop(hit, stats, store, 0);
    }
    // Slots are in discovery order, so BFS's FIFO queue is a cursor into them: the frontier is
    // `store.slots[next..]`, and takes no memory of its own.
    let mut next = 0usize;
    // Limits are checked by work done, not nodes: a node of a huge board costs its size.
    let mut work = 0u64;
    let mut pace = Pace::new();
    let mut next_check = pace.first(limits);
    // Room for a board's four neighbours and their heap blocks (the start's size: a board's
    // nodes all have it), counted before they are taken; more, generated inside
    // `Graph::neighbours`, can only be counted after.
    let mut neighbours: Vec<(G::Node, u32)> = Vec::new();
    let four = 4 * (size_of::<(G::Node, u32)>() + block_bytes(heap));
    if let Err(hit) = store.hold_scratch(four) {
        return stop(hit, stats, store, 0);
    }
    neighbours.reserve_exact(4);
    while next < store.slots.len() {
        let slot = next as u32;
        next += 1;
        let (node, _, depth) = &store.slots[slot as usize];
        let depth = *depth;
        if graph.is_goal(node) {
            // The path's copies of its nodes, made once the set is freed.
            let heap = store.path_heap_bytes(slot, |n| block_bytes(graph.node_heap_bytes(n)));
            let path = (depth as usize + 1) * size_of::<G::Node>() + heap;
            if let Err(hit) = store.hold_path(path) {
                return stop(hit, stats, store, depth);
            }
            stats.elapsed = started.elapsed();
            stats.peak_closed = store.slots.len();
            stats.peak_memory_bytes = store.peak;
            let nodes = store.path(slot, depth as usize + 1);
            return Ok(Path {
                nodes,
                cost: depth,
                stats,
            });
        }
        stats.expanded += 1;
        neighbours.clear();
        graph.neighbours(node, &mut neighbours);
        // The list of neighbours and their heap blocks are held while they are added.
        let scratch = neighbours.capacity() * size_of::<(G::Node, u32)>()
            + neighbours
                .iter()
                .map(|(n, _)| block_bytes(graph.node_heap_bytes(n)))
                .sum::<usize>();
        if let Err(hit) = store.hold_scratch(scratch) {
            return stop(hit, stats, store, depth);
        }
        for (n, _) in neighbours.drain(..) {
            stats.generated += 1;
            let heap = graph.node_heap_bytes(&n);
            work += 1 + heap as u64 / 64;
            if let Err(hit) = store.insert(n, slot, depth + 1, heap) {
                return stop(hit, stats, store, depth);
            }
        }
        stats.peak_open = stats.peak_open.max(store.slots.len() - next);
        if work >= next_check {
            next_check = pace.next(limits, work, stats.generated);
            if let Err(hit) = limits.check(stats.generated) {
                return stop(hit, stats, store, depth);
            }
            if let Some(p) = progress {
                p(Progress {
                    generated: stats.generated,
                    expanded: stats.expanded,
                    bound: depth,
                    elapsed: started.elapsed(),
                    best: None,
                    best_moves: None,
                });
            }
        }
    }
    stats.elapsed = started.elapsed();
    stats.peak_closed = store.slots.len();
    stats.peak_memory_bytes = store.peak;
    Err(SearchFailure::NoPath { stats })
}

/// One discovered node: the node, its parent's slot (`u32::MAX` for the start), its depth.
type Slot<N> = (N, u32, u32);

/// The nodes BFS has seen, with the bytes they really take, checked against the memory budget
/// before every allocation that adds to them.
struct Store<'l, N> {
    /// Every node seen, in discovery order.
    slots: Chunked<Slot<N>>,
    /// The slots again, found by their nodes' hashes: to tell the nodes seen before.
    seen: SlotIndex,
    limits: &'l Limits,
    /// Bytes held now: both structures by capacity, the nodes' heap blocks and the largest
    /// list of neighbours so far.
    bytes: usize,
    /// The most bytes held at once, a growth's old and new allocations together.
    peak: usize,
    /// The largest list of neighbours so far (part of `bytes`).
    scratch: usize,
}

impl<'l, N: Clone + Eq + Hash> Store<'l, N> {
    fn new(limits: &'l Limits) -> Self {
        Store {
            slots: Chunked::new(),
            seen: SlotIndex::new(),
            limits,
            bytes: 0,
            peak: 0,
            scratch: 0,
        }
    }

    /// Checks that `extra` bytes more than those held now fit in the budget at once, and
    /// records the peak.
    fn fits(&mut self, extra: usize) -> Result<(), LimitHit> {
        let total = self.bytes.saturating_add(extra);
        self.limits.check_memory(total)?;
        self.peak = self.peak.max(total);
        Ok(())
    }

    /// Counts a list of neighbours of `bytes` (the largest so far is kept held, as the list's
    /// capacity is). Only a list larger than all before it was allocated before it is counted.
    fn hold_scratch(&mut self, bytes: usize) -> Result<(), LimitHit> {
        if bytes > self.scratch {
            let more = bytes - self.scratch;
            self.fits(more)?;
            self.bytes += more;
            self.scratch = bytes;
        }
        Ok(())
    }

    /// Stores `node` (whose heap blocks take `heap` bytes) unless it was seen before; true when
    /// it is new. Refused with [`LimitHit::Memory`] when storing it would pass the budget.
    fn insert(&mut self, node: N, parent: u32, depth: u32, heap: usize) -> Result<bool, LimitHit> {
        let print = print_of(&node);
        let slots = &self.slots;
        if self
            .seen
            .find(print, |slot| slots[slot as usize].0 == node)
            .is_some()
        {
            return Ok(false);
        }
        let copy = block_bytes(heap);
        if self.seen.is_full() {
            // The set is full: this insertion moves it into a table of twice the buckets, the
            // old one alive until every entry is moved.
            let old = self.seen.bytes();
            self.fits(self.seen.growth_bytes() - old + copy)?;
            self.seen.grow();
            self.bytes = self.bytes - old + self.seen.bytes();
        }
        if self.slots.is_full() {
            // A block more: the blocks held stay where they are, so nothing is copied.
            let before = self.slots.bytes();
            self.fits(self.slots.add_block_bytes() + copy)?;
            self.slots.add_block();
            self.bytes = self.bytes - before + self.slots.bytes();
        }
        self.fits(copy)?;
        self.bytes += copy;
        // u32::MAX is the start's parent: no slot takes that number.
        let slot = u32::try_from(self.slots.len())
            .ok()
            .filter(|&s| s < u32::MAX)
            .ok_or(LimitHit::Memory)?;
        self.seen.insert(print, slot);
        self.slots.push((node, parent, depth));
        Ok(true)
    }

    /// Bytes of the heap blocks of the nodes from the start to `slot`, each `heap(node)`.
    fn path_heap_bytes(&self, mut slot: u32, heap: impl Fn(&N) -> usize) -> usize {
        let mut bytes = 0;
        while slot != u32::MAX {
            let (node, parent, _) = &self.slots[slot as usize];
            bytes += heap(node);
            slot = *parent;
        }
        bytes
    }

    /// Checks that a path of `bytes` fits once the set is freed ([`Store::path`]), and records
    /// the peak.
    fn hold_path(&mut self, bytes: usize) -> Result<(), LimitHit> {
        self.fits(bytes.saturating_sub(self.seen.bytes()))
    }

    /// The `len` nodes from the start to `slot`, copied once the set is freed ([`Store::hold_path`]
    /// counted them).
    fn path(self, mut slot: u32, len: usize) -> Vec<N>
    where
        N: Send + 'static,
    {
        let Store {
            slots, seen, bytes, ..
        } = self;
        drop(seen);
        let mut nodes = Vec::with_capacity(len);
        while slot != u32::MAX {
            nodes.push(slots[slot as usize].0.clone());
            slot = slots[slot as usize].1;
        }
        nodes.reverse();
        super::drop_aside(slots.into_blocks(), bytes);
        nodes
    }

    /// Frees the nodes on a thread of their own ([`super::drop_aside`]): a search stopped at
    /// its deadline answers at once. The set goes first, here: it is one block, quick to
    /// free, and the thread's own allocations then come under what was held.
    fn free_aside(self)
    where
        N: Send + 'static,
    {
        let Store {
            slots, seen, bytes, ..
        } = self;
        let set = seen.bytes();
        drop(seen);
        super::drop_aside(slots.into_blocks(), bytes.saturating_sub(set));
    }
}

/// Bytes the allocator takes for a block of `bytes` (none for none): glibc's malloc adds an
/// 8-byte header, rounds to 16 and gives at least 32.
fn block_bytes(bytes: usize) -> usize {
    if bytes == 0 {
        0
    } else {
        (bytes + 8).next_multiple_of(16).max(32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The integers, each joined to the next two: BFS from 0 never runs out of nodes.
    struct Line;
    impl Graph for Line {
        type Node = u64;
        fn neighbours(&self, n: &u64, out: &mut Vec<(u64, u32)>) {
            out.push((n + 1, 1));
            out.push((n + 2, 1));
        }
        fn heuristic(&self, _: &u64) -> u32 {
            0
        }
        fn is_goal(&self, _: &u64) -> bool {
            false
        }
    }

    #[test]
    fn a_memory_budget_stops_bfs_with_its_structures_inside_it() {
        for budget in [1usize, 200, 5_000, 100_000, 1 << 20, 3 << 20] {
            let limits = Limits::none().with_max_memory(budget);
            let Err(SearchFailure::Limit { hit, stats, .. }) = bfs(&Line, 0, &limits, None) else {
                panic!("{budget}: the line never ends");
            };
            assert_eq!(hit, LimitHit::Memory, "{budget}");
            assert!(stats.peak_memory_bytes <= budget, "{budget}: {stats:?}");
        }
    }
}
