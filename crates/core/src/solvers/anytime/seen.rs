//! The set of boards a beam has kept, by their 64-bit Zobrist hashes: an open-addressing table
//! (linear probing, at most half full) whose slot for a hash is known before it is read, so
//! that a beam can ask the memory for the slots of a batch of children before checking any
//! ([`crate::prefetch`]). With millions of boards the table is far larger than the caches and
//! every check would otherwise wait on the memory.

/// A set of nonzero 64-bit hashes (0 marks an empty slot; a hash of 0 is stored as 1, which can
/// only make two boards look alike, and a beam that drops a board by such a collision loses
/// nothing but that board).
pub(super) struct SeenSet {
    slots: Vec<u64>,
    len: usize,
    /// `64 - log2(slots.len())`: a hash's slot is its top bits.
    shift: u32,
}

/// Slots of a new set.
const INITIAL_SLOTS: usize = 1 << 10;
/// How many hashes ahead [`SeenSet::insert_all`] asks for a slot: enough reads in flight to
/// hide the memory's latency, few enough that the slot is still cached when it is written.
const INSERT_AHEAD: usize = 16;

impl SeenSet {
    /// An empty set.
    pub fn new() -> SeenSet {
        SeenSet {
            slots: vec![0; INITIAL_SLOTS],
            len: 0,
            shift: 64 - INITIAL_SLOTS.trailing_zeros(),
        }
    }

    /// Bytes the set takes per hash it holds, at most (half full after a doubling).
    pub const BYTES_PER_HASH: usize = 4 * std::mem::size_of::<u64>();

    #[inline]
    fn key(hash: u64) -> u64 {
        hash.max(1)
    }

    #[inline]
    fn home(&self, key: u64) -> usize {
        // Zobrist hashes are uniform already; the multiply spreads the ones made by other means.
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// Asks the memory for the slot where `hash` would be.
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        crate::prefetch::prefetch(&self.slots[self.home(Self::key(hash))]);
    }

    /// True when `hash` is in the set.
    #[inline]
    pub fn contains(&self, hash: u64) -> bool {
        let key = Self::key(hash);
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            match self.slots[i] {
                0 => return false,
                k if k == key => return true,
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// Adds every hash of `hashes` (nothing for one in already): the table grows once for all
    /// of them, and each slot is asked of the memory a few hashes ahead of its write, so that a
    /// layer's thousands of inserts into a table far larger than the caches do not wait on the
    /// memory one by one.
    pub fn insert_all(&mut self, hashes: &[u64]) {
        while 2 * (self.len + hashes.len()) > self.slots.len() {
            self.grow();
        }
        for (i, &hash) in hashes.iter().enumerate() {
            if let Some(&ahead) = hashes.get(i + INSERT_AHEAD) {
                self.prefetch(ahead);
            }
            if self.place(Self::key(hash)) {
                self.len += 1;
            }
        }
    }

    /// Puts `key` in its slot; false when it was there already.
    fn place(&mut self, key: u64) -> bool {
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            match self.slots[i] {
                0 => {
                    self.slots[i] = key;
                    return true;
                }
                k if k == key => return false,
                _ => i = (i + 1) & mask,
            }
        }
    }

    // The zeros are written on purpose (see below), which this lint takes for a slow `vec!`.
    #[allow(clippy::slow_vector_initialization)]
    fn grow(&mut self) {
        // Zeros written, not `vec![0; n]`: that maps the system's shared zero page, which the
        // first read of a slot (a check or a probe) maps read-only, so that each page's first
        // write then faults a second time and, with the beam's threads on other cores, makes
        // every core flush that page from its address cache (the kernel's copy-on-write).
        // The allocation is passed through `black_box` so that the compiler cannot merge it
        // with the zeros into a zeroed allocation, which it may do for an allocator's memory.
        let mut doubled = std::hint::black_box(Vec::with_capacity(2 * self.slots.len()));
        doubled.resize(2 * self.slots.len(), 0);
        let old = std::mem::replace(&mut self.slots, doubled);
        self.shift -= 1;
        for key in old.into_iter().filter(|&k| k != 0) {
            self.place(key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_what_was_inserted_and_nothing_else() {
        let mut set = SeenSet::new();
        let mut state = 12345u64;
        let mut hashes = Vec::new();
        for _ in 0..10_000 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            hashes.push(state);
        }
        for h in hashes[..5_000].chunks(1) {
            set.insert_all(h);
            set.insert_all(h);
        }
        assert_eq!(set.len, 5_000);
        // The same through one batch, repeats included.
        let mut batch = SeenSet::new();
        batch.insert_all(&hashes[..2_500]);
        batch.insert_all(&hashes[..5_000]);
        assert_eq!(batch.len, 5_000);
        assert!(hashes[..5_000].iter().all(|&h| batch.contains(h)));
        assert!(hashes[5_000..].iter().all(|&h| !batch.contains(h)));
        assert!(hashes[..5_000].iter().all(|&h| set.contains(h)));
        assert!(hashes[5_000..].iter().all(|&h| !set.contains(h)));
        // A hash of 0 is held as 1.
        set.insert_all(&[0]);
        assert!(set.contains(0) && set.contains(1));
        assert!(set.slots.len() >= 2 * set.len);
    }
}
