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
                    if cache.owner != self.cache_key || cache.words.len() >= WORD_CACHE_LIMIT {
                        cache.words.clear();
                        cache.owner = self.cache_key;
                    }
                    if let Some(tokens) = cache.words.get(word) {
                        out.extend_from_slice(tokens);
                        return;
                    }
                    let start = out.len();
                    self.merge_word(word, out);
                    if word.len() <= CACHED_WORD_LEN {
                        cache.words.insert(word.into(), out[start..].into());
                    }
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

#[derive(Default)]
struct WordCache {
    owner: u64,
    words: FastMap<Box<[u8]>, Box<[WordToken]>>,
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
    fn whole_words_skip_the_merges() {
        let mut t = table(&[]);
        t.whole_words = Some([(Box::from(&b"hello"[..]), 999)].into_iter().collect());
        assert_eq!(encode(&t, b"hello"), [(999, 5)]);
        assert_eq!(encode(&t, b"he").len(), 2);
    }
}
