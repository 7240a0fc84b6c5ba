//! Byte-level BPE: one pre-token's bytes -> token ids, merging as `tokenizers` does.
//!
//! A word starts as one symbol per byte (byte-level vocabularies hold all 256) and the pair of
//! adjacent symbols with the lowest merge rank is merged, the leftmost first among equals,
//! until no pair has a merge. This is `tokenizers`' `Word::merge_all` step by step (a min-heap
//! of (rank, position), stale entries recognised by the merged id they would produce), so the
//! ids are the same even in the rare words where two merges produce the same piece.
//! Words repeat, so each thread keeps the words it has encoded (`WordCache`).

use std::cell::RefCell;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::hash::FastMap;

/// (left id, right id) -> (rank, merged id).
pub(crate) type MergeTable = FastMap<(u32, u32), (u32, u32)>;

/// The merge table and the single-byte ids.
#[derive(Debug)]
pub(crate) struct BytePairs {
    /// The id of each single byte's piece.
    byte_ids: [u32; 256],
    merges: MergeTable,
    /// With `ignore_merges` (Llama 3): a word that is a piece of the vocabulary is that piece.
    whole_words: Option<FastMap<Box<[u8]>, u32>>,
    /// Tells this table's cached words from another's in a thread's cache.
    cache_key: u64,
}

/// One token of a word: its id and how many bytes of the word it holds.
pub(crate) type WordToken = (u32, u32);

impl BytePairs {
    pub(crate) fn new(
        byte_ids: [u32; 256],
        merges: MergeTable,
        whole_words: Option<FastMap<Box<[u8]>, u32>>,
    ) -> BytePairs {
        static NEXT_KEY: AtomicU64 = AtomicU64::new(1);
        BytePairs { byte_ids, merges, whole_words, cache_key: NEXT_KEY.fetch_add(1, Ordering::Relaxed) }
    }

    /// Appends the tokens of one pre-token (`word`, its original bytes) to `out`.
    pub(crate) fn encode_word(&self, word: &[u8], out: &mut Vec<WordToken>) {
        match word {
            [] => {}
            &[b] => out.push((self.byte_ids[usize::from(b)], 1)),
            _ => {
                if let Some(&id) = self.whole_words.as_ref().and_then(|w| w.get(word)) {
                    out.push((id, word.len() as u32));
                    return;
                }
                WORDS.with(|cache| {
                    let mut cache = cache.borrow_mut();
                    if cache.owner != self.cache_key || cache.len() >= WORD_CACHE_LIMIT {
                        cache.clear();
                        cache.owner = self.cache_key;
                    }
                    if cache.extend_with(word, out) {
                        return;
                    }
                    let start = out.len();
                    self.merge_word(word, out);
                    cache.insert(word, &out[start..]);
                });
            }
        }
    }

    /// `tokenizers`' `Word::merge_all`, without dropout.
    fn merge_word(&self, word: &[u8], out: &mut Vec<WordToken>) {
        let n = word.len();
        let mut symbols: Vec<Symbol> = word
            .iter()
            .enumerate()
            .map(|(i, &b)| Symbol {
                id: self.byte_ids[usize::from(b)],
                prev: i.checked_sub(1),
                next: (i + 1 < n).then_some(i + 1),
                len: 1,
            })
            .collect();
        let mut queue: BinaryHeap<Reverse<(u32, usize, u32)>> = BinaryHeap::with_capacity(n);
        for pos in 0..n - 1 {
            if let Some(&(rank, merged)) = self.merges.get(&(symbols[pos].id, symbols[pos + 1].id)) {
                queue.push(Reverse((rank, pos, merged)));
            }
        }
        while let Some(Reverse((_, pos, merged))) = queue.pop() {
            if symbols[pos].len == 0 {
                continue;
            }
            let Some(next) = symbols[pos].next else { continue };
            let right = symbols[next];
            if self.merges.get(&(symbols[pos].id, right.id)).map_or(true, |&(_, m)| m != merged) {
                continue;
            }
            symbols[pos].id = merged;
            symbols[pos].len += right.len;
            symbols[pos].next = right.next;
            symbols[next].len = 0;
            if let Some(after) = right.next {
                symbols[after].prev = Some(pos);
            }
            if let Some(prev) = symbols[pos].prev {
                if let Some(&(rank, m)) = self.merges.get(&(symbols[prev].id, merged)) {
                    queue.push(Reverse((rank, prev, m)));
                }
            }
            if let Some(after) = symbols[pos].next {
                if let Some(&(rank, m)) = self.merges.get(&(merged, symbols[after].id)) {
                    queue.push(Reverse((rank, pos, m)));
                }
            }
        }
        out.extend(symbols.iter().filter(|s| s.len != 0).map(|s| (s.id, s.len)));
    }
}

#[derive(Debug, Clone, Copy)]
struct Symbol {
    id: u32,
    prev: Option<usize>,
    next: Option<usize>,
    /// Bytes of the word this symbol holds; 0 once merged into its left neighbour.
    len: u32,
}

/// Words longer than this are not cached (long runs of spaces or symbols: rare, unique).
const CACHED_WORD_LEN: usize = 64;
/// A thread's cache is emptied when it holds this many words (~10 MB at most).
const WORD_CACHE_LIMIT: usize = 1 << 17;
/// Words of at most this many bytes are keyed by one integer (their bytes and length), so a
/// lookup neither follows a pointer nor compares memory: nearly every word is this short.
const PACKED_WORD_LEN: usize = 15;

/// Slots of the direct-mapped first level (a power of two; 48 bytes each, so it stays in the
/// L2 cache, where the full table of a long run does not).
const HOT_SLOTS: usize = 4096;

/// A first-level slot: a short word's packed key and its tokens when it has at most two.
#[derive(Clone, Copy, Default)]
struct HotWord {
    key: u128,
    count: u8,
    tokens: [WordToken; 2],
}

/// The words a thread has encoded, with their tokens.
#[derive(Default)]
struct WordCache {
    owner: u64,
    /// Frequent short words, by hash: one probe, no pointer chase.
    hot: Vec<HotWord>,
    /// Short words: packed key -> (start, count) in `tokens`.
    short: FastMap<u128, (u32, u32)>,
    tokens: Vec<WordToken>,
    long: FastMap<Box<[u8]>, Box<[WordToken]>>,
}

impl WordCache {
    /// The bytes of a short word and its length in one integer (built from loads, not through
    /// a buffer on the stack: a copy of a variable length followed by a wide read of it stalls
    /// the store buffer).
    #[inline]
    fn packed(word: &[u8]) -> Option<u128> {
        let n = word.len();
        if n > PACKED_WORD_LEN {
            return None;
        }
        let (low, high) = if n <= 8 { (load_le(word), 0) } else { (load_le(&word[..8]), load_le(&word[8..])) };
        Some(u128::from(low) | u128::from(high) << 64 | (n as u128) << 120)
    }

    fn len(&self) -> usize {
        self.short.len() + self.long.len()
    }

    fn clear(&mut self) {
        self.hot.clear();
        self.hot.resize(HOT_SLOTS, HotWord::default());
        self.short.clear();
        self.tokens.clear();
        self.long.clear();
    }

    /// Appends the cached tokens of `word` to `out`; false when it is not cached.
    fn hot_slot(key: u128) -> usize {
        let folded = (key as u64) ^ ((key >> 64) as u64).rotate_left(29);
        (folded.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 52) as usize & (HOT_SLOTS - 1)
    }

    fn extend_with(&mut self, word: &[u8], out: &mut Vec<WordToken>) -> bool {
        let tokens = match Self::packed(word) {
            Some(key) => {
                let slot = Self::hot_slot(key);
                if let Some(hot) = self.hot.get(slot).filter(|h| h.key == key && h.count > 0) {
                    out.extend_from_slice(&hot.tokens[..usize::from(hot.count)]);
                    return true;
                }
                let found =
                    self.short.get(&key).and_then(|&(start, n)| self.tokens.get(start as usize..(start + n) as usize));
                if let (Some(&[first, ref rest @ ..]), Some(hot)) = (found, self.hot.get_mut(slot)) {
                    if rest.len() <= 1 {
                        let second = rest.first().copied().unwrap_or_default();
                        *hot = HotWord { key, count: 1 + rest.len() as u8, tokens: [first, second] };
                    }
                }
                found
            }
            None => self.long.get(word).map(|t| &t[..]),
        };
        tokens.map(|t| out.extend_from_slice(t)).is_some()
    }

    fn insert(&mut self, word: &[u8], tokens: &[WordToken]) {
        match Self::packed(word) {
            Some(key) => {
                let (Ok(start), Ok(n)) = (u32::try_from(self.tokens.len()), u32::try_from(tokens.len())) else {
                    return;
                };
                self.tokens.extend_from_slice(tokens);
                self.short.insert(key, (start, n));
            }
            None if word.len() <= CACHED_WORD_LEN => {
                self.long.insert(word.into(), tokens.into());
            }
            None => {}
        }
    }
}

/// Up to 8 bytes as a little-endian integer (zeros above them).
#[inline]
fn load_le(bytes: &[u8]) -> u64 {
    let n = bytes.len();
    let at = |i: usize| u64::from(bytes[i]);
    match n {
        0 => 0,
        1..=3 => at(0) | at(n / 2) << (8 * (n / 2)) | at(n - 1) << (8 * (n - 1)),
        4..=8 => {
            let word = |i: usize| u64::from(u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]));
            word(0) | word(n - 4) << (8 * (n - 4))
        }
        _ => 0,
    }
}

thread_local! {
    static WORDS: RefCell<WordCache> = RefCell::new(WordCache::default());
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bytes are their own ids; merges given as (left, right, merged) in rank order.
    fn table(merges: &[(u32, u32, u32)]) -> BytePairs {
        let mut byte_ids = [0u32; 256];
        for (b, id) in byte_ids.iter_mut().enumerate() {
            *id = b as u32;
        }
        let merges = merges.iter().enumerate().map(|(rank, &(a, b, m))| ((a, b), (rank as u32, m))).collect();
        BytePairs::new(byte_ids, merges, None)
    }

    fn encode(t: &BytePairs, word: &[u8]) -> Vec<WordToken> {
        let mut out = Vec::new();
        t.encode_word(word, &mut out);
        // The cached answer is the same.
        let mut again = Vec::new();
        t.encode_word(word, &mut again);
        assert_eq!(out, again);
        out
    }

    #[test]
    fn lowest_rank_first_leftmost_among_equals() {
        let (a, b) = (u32::from(b'a'), u32::from(b'b'));
        // aa (300) ranks before ab (301).
        let t = table(&[(a, a, 300), (a, b, 301)]);
        assert_eq!(encode(&t, b"aab"), [(300, 2), (b, 1)]);
        assert_eq!(encode(&t, b"aaa"), [(300, 2), (a, 1)]);
        assert_eq!(encode(&t, b"aaaa"), [(300, 2), (300, 2)]);
        // A merge made of merged pieces.
        let t = table(&[(a, a, 300), (300, 300, 301)]);
        assert_eq!(encode(&t, b"aaaaa"), [(301, 4), (a, 1)]);
        assert_eq!(encode(&t, b"x"), [(u32::from(b'x'), 1)]);
        assert_eq!(encode(&t, b""), []);
    }

    #[test]
    fn packed_keys_are_the_bytes_and_the_length() {
        for n in 0..=PACKED_WORD_LEN {
            let word: Vec<u8> = (1..=n as u8).collect();
            let mut bytes = [0u8; 16];
            bytes[..n].copy_from_slice(&word);
            bytes[15] = n as u8;
            assert_eq!(WordCache::packed(&word), Some(u128::from_le_bytes(bytes)), "{n} bytes");
        }
        assert_eq!(WordCache::packed(&[0; PACKED_WORD_LEN + 1]), None);
        // A word and the same word with a zero byte more are different keys.
        assert_ne!(WordCache::packed(b"a"), WordCache::packed(b"a\0"));
    }

    #[test]
    fn whole_words_skip_the_merges() {
        let mut t = table(&[]);
        t.whole_words = Some([(Box::from(&b"hello"[..]), 999)].into_iter().collect());
        assert_eq!(encode(&t, b"hello"), [(999, 5)]);
        assert_eq!(encode(&t, b"he").len(), 2);
    }
}
