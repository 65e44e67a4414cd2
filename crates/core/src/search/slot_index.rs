//! The nodes a search has stored, found again by their hashes: each entry is the node's slot
//! number (its place in the search's own list of nodes, a [`super::chunked::Chunked`]) and 32
//! bits of its hash. The node itself is not copied into the set: 8 bytes an entry, where a set
//! of the nodes themselves takes the node's size (40 bytes for a packed board, more with a
//! heuristic's state) and a second copy of its heap block. A growth rehashes from the
//! fingerprints alone, without reading a node, so it is quick and touches little memory.
//!
//! BFS and the best-first searches (A*, weighted A*, greedy) keep their nodes so.

use std::hash::{BuildHasher, Hash};
use std::mem::size_of;

use hashbrown::HashTable;

use crate::hashing::FoldState;

/// An entry: a slot number and its node's [`fingerprint`].
type Entry = (u32, u32);

/// Slot numbers of stored nodes, found by their nodes' hashes; see the [module docs](self).
#[derive(Debug, Default)]
pub(crate) struct SlotIndex {
    table: HashTable<Entry>,
}

/// The fingerprint of `node`, by which [`SlotIndex`] finds it: 32 bits of its hash.
pub(crate) fn print_of<N: Hash>(node: &N) -> u32 {
    fingerprint(FoldState.hash_one(node))
}

impl SlotIndex {
    /// An empty index.
    pub(crate) fn new() -> SlotIndex {
        SlotIndex::default()
    }

    /// The slot of the node of fingerprint `print` for which `is(slot)` holds, if stored.
    #[inline]
    pub(crate) fn find(&self, print: u32, is: impl Fn(u32) -> bool) -> Option<u32> {
        self.table
            .find(spread(print), |&(slot, p)| p == print && is(slot))
            .map(|&(slot, _)| slot)
    }

    /// Adds `slot`, whose node has fingerprint `print` and is not in the index yet.
    #[inline]
    pub(crate) fn insert(&mut self, print: u32, slot: u32) {
        self.table
            .insert_unique(spread(print), (slot, print), |&(_, p)| spread(p));
    }

    /// True when the next insertion grows the index ([`SlotIndex::grow`] first to count it).
    pub(crate) fn is_full(&self) -> bool {
        self.table.len() == self.table.capacity()
    }

    /// Makes room for one more entry (a growth when full: twice the buckets).
    pub(crate) fn grow(&mut self) {
        self.table.reserve(1, |&(_, p)| spread(p));
    }

    /// Bytes held, by capacity.
    pub(crate) fn bytes(&self) -> usize {
        table_bytes::<Entry>(buckets(self.table.capacity()))
    }

    /// Bytes held at once while the index grows: the old table and the new one.
    pub(crate) fn growth_bytes(&self) -> usize {
        self.bytes() + table_bytes::<Entry>(grown_buckets(buckets(self.table.capacity())))
    }
}

/// 32 bits of a node's 64-bit hash, kept in the index: compared before the node itself, and
/// all a growth of the index needs to place the entry again.
fn fingerprint(hash: u64) -> u32 {
    (hash ^ (hash >> 32)) as u32
}

/// The 64-bit hash the index places an entry by, from its fingerprint: multiplied by an odd
/// constant and rotated by half, so that both the low bits (the bucket) and the top seven (the
/// table's control byte) depend on all 32 (a product's bits depend only on the factor's bits
/// below them; its top half, rotated down, on all of a 32-bit factor's).
fn spread(fingerprint: u32) -> u64 {
    u64::from(fingerprint)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .rotate_left(32)
}

/// Buckets of a hash table (hashbrown's layout, as std's) that holds `capacity` entries without
/// growing: a power of two, at most 7/8 of them used (all but one below 8 buckets).
pub(crate) fn buckets(capacity: usize) -> usize {
    match capacity {
        0 => 0,
        1..=7 => (capacity + 1).next_power_of_two(),
        _ => (capacity * 8 / 7).next_power_of_two(),
    }
}

/// Buckets after a full table grows: twice as many; a first table may have up to 16.
pub(crate) fn grown_buckets(buckets: usize) -> usize {
    (2 * buckets).max(16)
}

/// Bytes of a hash table of `buckets` buckets of `T`: an entry and a control byte each,
/// plus a group of 16 control bytes and the alignment of the entries.
pub(crate) fn table_bytes<T>(buckets: usize) -> usize {
    if buckets == 0 {
        0
    } else {
        buckets * (size_of::<T>() + 1) + 32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Follows a hash table of `T` through its growths, as a search grows its index: the
    /// modelled buckets hold exactly its capacity, and a growth never takes more buckets than
    /// modelled.
    fn follow<T: Hash + Eq>(make: impl Fn(u32) -> T) {
        let mut set: HashTable<T> = HashTable::new();
        for i in 0..300_000u32 {
            let before = set.capacity();
            if set.len() == set.capacity() {
                set.reserve(1, |t| FoldState.hash_one(t));
            }
            let t = make(i);
            set.insert_unique(FoldState.hash_one(&t), t, |t| FoldState.hash_one(t));
            let (cap, b) = (set.capacity(), buckets(set.capacity()));
            if cap != before {
                assert!(b <= grown_buckets(buckets(before)), "{before} -> {cap}");
            }
            let held = if b < 8 { b - 1 } else { b / 8 * 7 };
            assert!(
                b.is_power_of_two() && held == cap,
                "{cap} entries in {b} buckets"
            );
        }
    }

    #[test]
    fn the_table_model_matches_the_hash_tables() {
        follow(|i| i as u8);
        follow(u64::from);
        follow(|i| (u128::from(i), 0u32, 0u32));
        follow(|i| [i; 12]);
        follow(|i| (i, i));
    }

    #[test]
    fn nodes_are_found_by_their_slot_and_not_confused_by_their_fingerprints() {
        let nodes: Vec<u64> = (0..10_000).map(|i| i * 7919).collect();
        let mut index = SlotIndex::new();
        for (slot, node) in nodes.iter().enumerate() {
            assert_eq!(
                index.find(print_of(node), |s| nodes[s as usize] == *node),
                None
            );
            if index.is_full() {
                let before = index.bytes();
                assert!(index.growth_bytes() > before);
                index.grow();
                assert!(index.bytes() > before);
            }
            index.insert(print_of(node), slot as u32);
        }
        for (slot, node) in nodes.iter().enumerate() {
            let found = index.find(print_of(node), |s| nodes[s as usize] == *node);
            assert_eq!(found, Some(slot as u32));
        }
        // A node never stored is not found, even where a fingerprint matches.
        assert_eq!(index.find(print_of(&3u64), |_| false), None);
    }
}
