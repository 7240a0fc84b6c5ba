//! A fast, non-cryptographic hash for the engine's internal tables.
//!
//! The tables hold a batch's distinct answer texts, its (answer, ground truth) pairs and the
//! verdicts already made in one anchor search: short keys, looked up a few times per rollout.
//! std's SipHash (made to resist chosen collisions from untrusted keys) cost more than the
//! lookups themselves; this is the multiply-rotate word hash of rustc's `FxHasher`. A table
//! here lives for one call and its worst case is a slower lookup, never a wrong one.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// A `HashMap` with [`WordHasher`].
pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<WordHasher>>;
/// A `HashSet` with [`WordHasher`].
pub type FastSet<K> = HashSet<K, BuildHasherDefault<WordHasher>>;

/// Hashes a word at a time: rotate, xor, multiply by a large odd constant.
#[derive(Default, Clone, Copy)]
pub struct WordHasher(u64);

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl Hasher for WordHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.write_u64(u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8])));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.write_u64(u64::from_le_bytes(last));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(SEED);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_find_what_they_hold() {
        let mut map: FastMap<String, usize> = FastMap::default();
        let keys: Vec<String> = (0..2000)
            .map(|i| format!("\\frac{{{i}}}{{7}}"))
            .chain(["".into(), "a".into(), "12345678".into()])
            .collect();
        for (i, k) in keys.iter().enumerate() {
            map.insert(k.clone(), i);
        }
        assert_eq!(map.len(), keys.len());
        for (i, k) in keys.iter().enumerate() {
            assert_eq!(map.get(k), Some(&i));
        }
        // Keys that differ only past a word boundary, or in length with zero bytes, differ.
        let set: FastSet<&[u8]> = [&b"12345678a"[..], b"12345678b", b"a", b"a\0"].into_iter().collect();
        assert_eq!(set.len(), 4);
    }
}
