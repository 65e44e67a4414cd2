//! A vector that grows by adding blocks instead of reallocating: growing never copies, so it
//! never holds its old and new storage at once, and a memory budget can be filled to the last
//! block rather than to half of it (a doubling vector needs its old block beside the new one).
//!
//! Blocks start at [`FIRST`] entries and double up to [`LARGEST`], then stay at that size: a
//! small search takes little, and a large one wastes at most one block.

use std::mem::size_of;
use std::ops::{Index, IndexMut};

/// Entries of the first block.
const FIRST: usize = 16;
/// Entries of the largest block, and of every block after it.
const LARGEST: usize = 1 << 16;
/// Blocks of doubling size, from [`FIRST`] to [`LARGEST`] entries.
const DOUBLING: usize = (LARGEST / FIRST).ilog2() as usize + 1;
/// Entries of the doubling blocks together.
const DOUBLING_ENTRIES: usize = FIRST * ((1 << DOUBLING) - 1);

/// Entries in blocks, indexed as one vector; see the [module docs](self).
#[derive(Debug)]
pub(crate) struct Chunked<T> {
    blocks: Vec<Vec<T>>,
    len: usize,
    /// Entries the blocks can take: kept, not summed, since it is asked at every push.
    capacity: usize,
}

impl<T> Chunked<T> {
    /// An empty vector, holding no block.
    pub(crate) fn new() -> Self {
        Chunked {
            blocks: Vec::new(),
            len: 0,
            capacity: 0,
        }
    }

    /// Entries pushed.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Entries the blocks held now can take.
    pub(crate) fn capacity(&self) -> usize {
        self.capacity
    }

    /// True when the next push needs a new block ([`Chunked::add_block`]).
    pub(crate) fn is_full(&self) -> bool {
        self.len == self.capacity()
    }

    /// Bytes held: the blocks and the list of blocks, by capacity.
    pub(crate) fn bytes(&self) -> usize {
        self.capacity() * size_of::<T>() + self.blocks.capacity() * size_of::<Vec<T>>()
    }

    /// Bytes [`Chunked::add_block`] allocates: the next block, and a new list of blocks when
    /// the list is full (the old list is freed after it is copied, so both are held at once).
    pub(crate) fn add_block_bytes(&self) -> usize {
        let list = if self.blocks.len() == self.blocks.capacity() {
            list_capacity(self.blocks.capacity()) * size_of::<Vec<T>>()
        } else {
            0
        };
        block_len(self.blocks.len()) * size_of::<T>() + list
    }

    /// Adds the next block; see [`Chunked::add_block_bytes`].
    pub(crate) fn add_block(&mut self) {
        if self.blocks.len() == self.blocks.capacity() {
            let more = list_capacity(self.blocks.capacity()) - self.blocks.len();
            self.blocks.reserve_exact(more);
        }
        let block = Vec::with_capacity(block_len(self.blocks.len()));
        self.capacity += block.capacity();
        self.blocks.push(block);
    }

    /// Appends `value`. Needs room: call [`Chunked::add_block`] first when
    /// [`Chunked::is_full`].
    pub(crate) fn push(&mut self, value: T) {
        let (block, _) = locate(self.len);
        let block = &mut self.blocks[block];
        assert!(block.len() < block.capacity(), "push into a full block");
        block.push(value);
        self.len += 1;
    }

    /// Every block, to free them together.
    pub(crate) fn into_blocks(self) -> Vec<Vec<T>> {
        self.blocks
    }
}

impl<T> Index<usize> for Chunked<T> {
    type Output = T;
    fn index(&self, index: usize) -> &T {
        assert!(index < self.len, "index {index} of {} entries", self.len);
        let (block, offset) = locate(index);
        &self.blocks[block][offset]
    }
}

impl<T> IndexMut<usize> for Chunked<T> {
    fn index_mut(&mut self, index: usize) -> &mut T {
        assert!(index < self.len, "index {index} of {} entries", self.len);
        let (block, offset) = locate(index);
        &mut self.blocks[block][offset]
    }
}

/// The list of blocks' capacity after it grows from `capacity`.
fn list_capacity(capacity: usize) -> usize {
    (2 * capacity).max(4)
}

/// Entries of block `block`.
fn block_len(block: usize) -> usize {
    if block < DOUBLING {
        FIRST << block
    } else {
        LARGEST
    }
}

/// The block of entry `index`, and its place in that block.
fn locate(index: usize) -> (usize, usize) {
    if index < DOUBLING_ENTRIES {
        // Block k starts at FIRST * (2^k - 1).
        let block = (index / FIRST + 1).ilog2() as usize;
        (block, index - FIRST * ((1 << block) - 1))
    } else {
        let past = index - DOUBLING_ENTRIES;
        (DOUBLING + past / LARGEST, past % LARGEST)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_come_back_in_order_across_every_kind_of_block() {
        let mut v = Chunked::new();
        let n = DOUBLING_ENTRIES + 3 * LARGEST + 5;
        for i in 0..n {
            if v.is_full() {
                let (before, bytes, more) = (v.capacity(), v.bytes(), v.add_block_bytes());
                let list = v.blocks.capacity() * size_of::<Vec<usize>>();
                v.add_block();
                assert_eq!(v.capacity(), before + block_len(v.blocks.len() - 1));
                assert_eq!(
                    v.capacity(),
                    v.blocks.iter().map(Vec::capacity).sum::<usize>()
                );
                // What it allocated: the block, and the new list if the old one was freed.
                let freed = if v.blocks.capacity() * size_of::<Vec<usize>>() == list {
                    0
                } else {
                    list
                };
                assert_eq!(v.bytes(), bytes + more - freed);
            }
            v.push(i);
        }
        assert_eq!(v.len(), n);
        assert!((0..n).all(|i| v[i] == i));
        // The blocks double up to the largest, and then stay at that size.
        let lens: Vec<usize> = v.blocks.iter().map(Vec::capacity).collect();
        assert_eq!(lens[..3], [16, 32, 64]);
        assert_eq!(lens[DOUBLING - 1..], [LARGEST; 5]);
        // At most one block is not full.
        assert!(v.capacity() - v.len() < LARGEST);
    }

    #[test]
    fn an_index_past_the_end_is_refused() {
        let mut v = Chunked::new();
        v.add_block();
        v.push(1u8);
        assert!(std::panic::catch_unwind(|| v[1]).is_err());
    }
}
