//! A fast hasher for search tables.
//!
//! The keys of the search tables (packed boards, count tables) are dense bit patterns made by
//! the program itself, so the protection of the standard library's SipHash against crafted keys
//! buys nothing there, and it costs most of the time of an A* on the 8-puzzle. This multiply-fold
//! hash (the 128-bit product of the state and a large odd constant, folded to 64 bits) mixes
//! every input bit into the output at a fraction of the cost.

use std::hash::{BuildHasher, Hasher};

/// Builds [`FoldHasher`]s: pass it to `HashMap::with_hasher`.
#[derive(Debug, Clone, Copy, Default)]
pub struct FoldState;

impl BuildHasher for FoldState {
    type Hasher = FoldHasher;
    fn build_hasher(&self) -> FoldHasher {
        FoldHasher(0)
    }
}

/// A multiply-fold hasher: fast on integer keys, not meant for untrusted input.
#[derive(Debug, Clone, Copy)]
pub struct FoldHasher(u64);

impl Hasher for FoldHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }
    fn write_u8(&mut self, v: u8) {
        self.write_u64(u64::from(v));
    }
    fn write_u32(&mut self, v: u32) {
        self.write_u64(u64::from(v));
    }
    fn write_usize(&mut self, v: usize) {
        self.write_u64(v as u64);
    }
    fn write_u64(&mut self, v: u64) {
        // Wrapping: the product of a 64-bit state and a 128-bit constant may exceed 128 bits,
        // and only its low 128 bits are folded.
        let m = u128::from(self.0 ^ v).wrapping_mul(0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C835);
        self.0 = (m as u64) ^ ((m >> 64) as u64);
    }
    fn write_u128(&mut self, v: u128) {
        self.write_u64(v as u64);
        self.write_u64((v >> 64) as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinct_small_keys_hash_apart() {
        let hashes: std::collections::HashSet<u64> =
            (0u128..10_000).map(|k| FoldState.hash_one(k)).collect();
        assert_eq!(hashes.len(), 10_000);
        assert_ne!(
            FoldState.hash_one(1u128 << 100),
            FoldState.hash_one(1u128 << 101)
        );
    }
}
