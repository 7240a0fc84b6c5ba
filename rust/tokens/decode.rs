//! Token ids -> text, with the byte where each token ends.
//!
//! The text is what `tokenizers`' `decode` returns for the same ids. Offsets follow one rule: a
//! character belongs to the token holding its **last** byte. A byte-level token that carries
//! only the first bytes of `²` or of an emoji therefore ends where it began (it owns no complete
//! character), and the token carrying the final byte owns the character. With this rule every
//! token end lies on a character boundary, ends never decrease, and the text up to a token's
//! end does not change when more tokens follow.
//!
//! Each call is linear in the number of ids plus the length of the text.

use std::fmt;

use super::decoder::{DecoderPlan, PiecePlan, Strip};
use super::vocabulary::{Vocabulary, LONG, NOT_UTF8, PRESENT, SPECIAL};

/// How many ids ahead the byte-level loop asks for a slot to be cached: enough to cover a
/// last-level-cache load at a few cycles per token.
const PREFETCH_DISTANCE: usize = 16;

/// Tokens per reservation of output room in the byte-level loop (16 bytes each).
const RESERVE_RUN: usize = 64;

/// Tokens the byte-level loop decodes at a time with AVX2 ([`wide::common_blocks`]).
const BLOCK: usize = 8;

/// Decoded text with per-token offsets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded {
    pub text: String,
    /// For each input id, the byte offset in `text` where that token ends: token `i` holds
    /// `text[token_ends[i - 1]..token_ends[i]]` (from 0 for the first). Skipped special tokens
    /// and tokens holding only part of a character hold an empty span.
    pub token_ends: Vec<usize>,
}

impl Decoded {
    /// Index of the token holding the byte at `byte_offset` of `text` (for a multi-byte
    /// character, every byte maps to the token holding its last byte); `None` past the end.
    pub fn token_at_byte(&self, byte_offset: usize) -> Option<usize> {
        if byte_offset >= self.text.len() {
            return None;
        }
        Some(self.token_ends.partition_point(|&end| end <= byte_offset))
    }
}

/// Why ids cannot be decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodeError {
    /// `ids[index]` has no token (`tokenizers` silently drops such ids).
    UnknownId { index: usize, id: u32, vocab_len: usize },
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::UnknownId { index, id, vocab_len } => {
                write!(f, "ids[{index}] = {id} is not a token of this vocabulary ({vocab_len} ids)")
            }
        }
    }
}

impl std::error::Error for DecodeError {}

impl Vocabulary {
    /// Decodes `ids` as `tokenizers`' `decode(ids, skip_special_tokens)` does, with the byte
    /// offset where each token ends.
    pub fn decode_with_offsets(&self, ids: &[u32], skip_special: bool) -> Result<Decoded, DecodeError> {
        let unknown = |index: usize| DecodeError::UnknownId { index, id: ids[index], vocab_len: self.len() };
        match self.plan() {
            DecoderPlan::ByteLevel if skip_special => self.decode_byte_level::<true>(ids).map_err(unknown),
            DecoderPlan::ByteLevel => self.decode_byte_level::<false>(ids).map_err(unknown),
            DecoderPlan::Pieces(plan) => match ids.iter().position(|&id| !self.contains(id)) {
                Some(index) => Err(unknown(index)),
                None => Ok(self.decode_pieces(plan, ids, skip_special)),
            },
        }
    }

    /// The text alone.
    pub fn decode(&self, ids: &[u32], skip_special: bool) -> Result<String, DecodeError> {
        self.decode_with_offsets(ids, skip_special).map(|d| d.text)
    }

    /// Byte-level pieces are concatenated and then read as UTF-8. Each token costs one
    /// [`Slot`] lookup and one fixed 16-byte copy (a short piece is inline in its slot); the
    /// index of the first unknown id is the error.
    ///
    /// With AVX2, blocks of eight common tokens are decoded at once ([`wide::common_blocks`])
    /// and the loop below takes only a block holding another token.
    ///
    /// The loop is the reward's hottest (a few nanoseconds per token): one test of a slot's
    /// flags sends the common token (present, not skipped, its piece inline and UTF-8 alone)
    /// down a path that only copies and records its end, and any other to [`Self::rare_token`];
    /// the output's room is reserved once per run of [`RESERVE_RUN`] tokens (16 bytes each)
    /// instead of checked per token, its length is kept in a local until the run ends, and the
    /// slot [`PREFETCH_DISTANCE`] ids ahead is prefetched by address without a bounds check (a
    /// prefetch never faults; the last ids of the list prefetch nothing).
    fn decode_byte_level<const SKIP_SPECIAL: bool>(&self, ids: &[u32]) -> Result<Decoded, usize> {
        let slots = self.slots();
        let common = PRESENT | LONG | NOT_UTF8 | if SKIP_SPECIAL { SPECIAL } else { 0 };
        let n = ids.len();
        let mut raw: Vec<u8> = Vec::with_capacity(n * 4 + 16);
        let mut ends: Vec<usize> = Vec::with_capacity(n);
        // The tokens whose piece alone is not UTF-8 (its flag), with the byte where it starts:
        // without any, the text is UTF-8 unchecked; with some, it is checked, and the ends
        // before a piece that starts inside a character move back to that character's start.
        let mut partial: Vec<(usize, usize)> = Vec::new();
        // The tokens before this one have a slot PREFETCH_DISTANCE ids ahead.
        let prefetched = n.saturating_sub(PREFETCH_DISTANCE);
        #[cfg(target_arch = "x86_64")]
        let wide = std::is_x86_feature_detected!("avx2");
        #[cfg(not(target_arch = "x86_64"))]
        let wide = false;
        // With AVX2, the scalar loop takes one block (the one the vector loop stopped at).
        let scalar_run = if wide { BLOCK } else { RESERVE_RUN };
        let mut index = 0;
        while index < n {
            #[cfg(target_arch = "x86_64")]
            if wide {
                // SAFETY: AVX2 is present; `ends` has capacity `n`, written below `index`.
                index = unsafe { wide::common_blocks(slots, ids, common, &mut raw, ends.as_mut_ptr(), index) };
                if index == n {
                    break;
                }
            }
            let run_end = (index + scalar_run).min(n);
            raw.reserve(16 * (run_end - index));
            let mut len = raw.len();
            let mut out = raw.as_mut_ptr();
            while index < run_end {
                // SAFETY: `index < n`.
                let id = unsafe { *ids.get_unchecked(index) };
                if index < prefetched {
                    // SAFETY: `index + PREFETCH_DISTANCE < n`.
                    self.prefetch_slot(unsafe { *ids.get_unchecked(index + PREFETCH_DISTANCE) });
                }
                let Some(slot) = slots.get(id as usize) else { return Err(index) };
                if slot.flags() & common == PRESENT {
                    // SAFETY: the run reserved 16 bytes per token after the length it started
                    // with (again after a rare token, for the tokens left), and each token adds
                    // at most 16 (an inline piece is at most 14): the 16 bytes written fit. The
                    // length grows by the piece's length only, so every byte below it is
                    // initialized.
                    unsafe { std::ptr::copy_nonoverlapping(slot.bytes.as_ptr(), out.add(len), 16) };
                    len += slot.len() as usize;
                } else {
                    // SAFETY: the bytes below `len` are initialized (copied pieces).
                    unsafe { raw.set_len(len) };
                    self.rare_token::<SKIP_SPECIAL>(index, id, slot.flags(), &mut raw, &mut partial)
                        .map_err(|()| index)?;
                    raw.reserve(16 * (run_end - index));
                    len = raw.len();
                    out = raw.as_mut_ptr();
                }
                // SAFETY: `ends` has capacity `n` and `index < n`; the elements below `index`
                // are written, so its length is set once all are.
                unsafe { ends.as_mut_ptr().add(index).write(len) };
                index += 1;
            }
            // SAFETY: as above: every byte below `len` is initialized, within the capacity.
            unsafe { raw.set_len(len) };
        }
        // SAFETY: the loop ran over every id (an unknown one returned early) and wrote each of
        // the first `n` elements; the capacity is `n`.
        unsafe { ends.set_len(n) };
        if !runs_are_utf8(&raw, &ends, &partial) {
            let text = lossy_slow(&raw, &mut ends);
            return Ok(Decoded { text, token_ends: ends });
        }
        debug_assert!(std::str::from_utf8(&raw).is_ok());
        // SAFETY: `runs_are_utf8` holds: the pieces between those runs are UTF-8 alone.
        let text = unsafe { String::from_utf8_unchecked(raw) };
        floor_ends_inside(text.as_bytes(), &mut ends, &partial);
        Ok(Decoded { text, token_ends: ends })
    }

    /// A token [`Self::decode_byte_level`]'s common path does not take: an id the vocabulary
    /// lacks (the error), a skipped special token (nothing), or a piece to append that is long
    /// or not UTF-8 alone (then recorded in `partial` with the byte where it starts).
    #[cold]
    #[inline(never)]
    fn rare_token<const SKIP_SPECIAL: bool>(
        &self,
        index: usize,
        id: u32,
        flags: u8,
        raw: &mut Vec<u8>,
        partial: &mut Vec<(usize, usize)>,
    ) -> Result<(), ()> {
        if flags & PRESENT == 0 {
            return Err(());
        }
        if SKIP_SPECIAL && flags & SPECIAL != 0 {
            return Ok(());
        }
        if flags & NOT_UTF8 != 0 {
            partial.push((index, raw.len()));
        }
        raw.extend_from_slice(self.piece(id));
        Ok(())
    }

    fn decode_pieces(&self, plan: &PiecePlan, ids: &[u32], skip_special: bool) -> Decoded {
        let mut out: Vec<u8> = Vec::with_capacity(ids.len() * 4);
        let mut ends = vec![0usize; ids.len()];
        let mut run = ByteRun::default();
        // Metaspace treats the first token of the list it receives, i.e. after skipping.
        let mut first = true;
        for (i, &id) in ids.iter().enumerate() {
            if skip_special && self.is_special(id) {
                // Skipped tokens vanish before the decoder runs, so a byte run goes on across them.
                if run.is_open() {
                    run.members.push((i, run.bytes.len(), false));
                } else {
                    ends[i] = out.len();
                }
                continue;
            }
            if let Some(b) = self.fallback_byte(id) {
                run.bytes.push(b);
                run.members.push((i, run.bytes.len(), true));
                first = false;
                continue;
            }
            run.flush(&mut out, &mut ends);
            match plan.first_token_drops {
                Some(drop) if first => {
                    out.extend(self.token_text(id).chars().filter(|&c| c != drop).collect::<String>().bytes());
                }
                _ => out.extend_from_slice(self.piece(id)),
            }
            ends[i] = out.len();
            first = false;
        }
        run.flush(&mut out, &mut ends);
        // Every part appended is UTF-8 (token text or a checked run), so this never replaces.
        let mut text = String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        if let Some(strip) = plan.strip {
            apply_strip(strip, &mut text, &mut ends);
        }
        Decoded { text, token_ends: ends }
    }
}

/// Consecutive byte-fallback tokens, decoded together when the run ends.
#[derive(Default)]
struct ByteRun {
    bytes: Vec<u8>,
    /// (position in ids, run length after it, whether it is a byte token rather than a
    /// skipped special token inside the run).
    members: Vec<(usize, usize, bool)>,
}

impl ByteRun {
    fn is_open(&self) -> bool {
        !self.bytes.is_empty()
    }

    /// As tokenizers' ByteFallback: a valid UTF-8 run becomes its text; otherwise every byte
    /// token becomes one U+FFFD.
    fn flush(&mut self, out: &mut Vec<u8>, ends: &mut [usize]) {
        if self.members.is_empty() {
            return;
        }
        match std::str::from_utf8(&self.bytes) {
            Ok(valid) => {
                let base = out.len();
                out.extend_from_slice(valid.as_bytes());
                for &(i, len, _) in &self.members {
                    ends[i] = base + floor_char_boundary(valid.as_bytes(), len);
                }
            }
            Err(_) => {
                for &(i, _, is_byte) in &self.members {
                    if is_byte {
                        out.extend_from_slice("\u{FFFD}".as_bytes());
                    }
                    ends[i] = out.len();
                }
            }
        }
        self.bytes.clear();
        self.members.clear();
    }
}

/// `Strip` after `Fuse`: removes up to `start` leading and `stop` trailing `content` characters
/// of the whole text; removed characters belong to no token. (tokenizers panics when the two
/// ends overlap, e.g. `stop` on an empty text; here the trailing count just stops early.)
fn apply_strip(strip: Strip, text: &mut String, ends: &mut [usize]) {
    let lead: usize = text.chars().take(strip.start).take_while(|&c| c == strip.content).map(char::len_utf8).sum();
    let rest = text.get(lead..).unwrap_or_default();
    let trail: usize =
        rest.chars().rev().take(strip.stop).take_while(|&c| c == strip.content).map(char::len_utf8).sum();
    let keep_end = text.len() - trail;
    for e in ends.iter_mut() {
        *e = (*e).clamp(lead, keep_end) - lead;
    }
    text.truncate(keep_end);
    text.drain(..lead);
}

/// Whether `raw`, pieces concatenated (`ends`: where each token's piece ends), is UTF-8, when
/// `partial` lists every piece that is not UTF-8 alone (token index, byte where it starts;
/// ascending): each other piece starts and ends at a character's edge, so the text is UTF-8
/// exactly when each run of such pieces that touch (only empty pieces between) is UTF-8 alone.
/// Checking those runs instead of the text saves most of a check that costs about 1.5% of the
/// reward from token ids.
fn runs_are_utf8(raw: &[u8], ends: &[usize], partial: &[(usize, usize)]) -> bool {
    let mut k = 0;
    while k < partial.len() {
        let start = partial[k].1;
        let mut end = ends[partial[k].0];
        k += 1;
        while k < partial.len() && partial[k].1 == end {
            end = ends[partial[k].0];
            k += 1;
        }
        if std::str::from_utf8(&raw[start..end]).is_err() {
            return false;
        }
    }
    true
}

/// Moves each of `ends` (token ends of a byte-level decoding, into its text `bytes`, valid
/// UTF-8) that falls inside a character back to that character's start, so that a character
/// belongs to the token holding its last byte. An end lies inside a character only where the
/// next piece with bytes starts with a continuation byte; `partial` lists those pieces among
/// the others that are not UTF-8 alone (ascending), by token index and the byte where the
/// piece starts (the decoding loop records them from a flag of the id's slot): each moves
/// the ends before its token that lie in its character (none for a piece that starts at a
/// character's start), and no other end is read. Scanning all the text for continuation bytes instead,
/// and stepping over every end, cost about 2.5% of the reward from token ids.
fn floor_ends_inside(bytes: &[u8], ends: &mut [usize], partial: &[(usize, usize)]) {
    for &(token, start) in partial {
        let char_start = floor_char_boundary(bytes, start);
        for end in ends[..token].iter_mut().rev() {
            if *end <= char_start {
                break;
            }
            *end = char_start;
        }
    }
}

/// The largest character boundary of `bytes` (valid UTF-8) at or before `offset`.
fn floor_char_boundary(bytes: &[u8], offset: usize) -> usize {
    let mut e = offset.min(bytes.len());
    while e > 0 && e < bytes.len() && is_continuation(bytes[e]) {
        e -= 1;
    }
    e
}

#[inline]
fn is_continuation(b: u8) -> bool {
    b & 0xC0 == 0x80
}

/// The text of `raw` when it is not UTF-8, as `String::from_utf8_lossy` makes it (each maximal
/// invalid sequence becomes one U+FFFD, as tokenizers' ByteLevel decoder does), with `ends`
/// (ascending offsets into `raw`) turned into offsets into the text: each lands after the last
/// character whose final byte lies before it.
fn lossy_slow(raw: &[u8], ends: &mut [usize]) -> String {
    let mut text = String::with_capacity(raw.len() + 16);
    let mut k = 0;
    let mut pos = 0;
    while pos < raw.len() {
        let rest = &raw[pos..];
        let (valid, invalid_len) = match std::str::from_utf8(rest) {
            Ok(s) => (s, 0),
            Err(e) => {
                let valid = std::str::from_utf8(&rest[..e.valid_up_to()]).unwrap_or_default();
                // `None`: the input ends inside a sequence, which from_utf8_lossy replaces whole.
                (valid, e.error_len().unwrap_or(rest.len() - e.valid_up_to()))
            }
        };
        let base = text.len();
        let vb = valid.as_bytes();
        while k < ends.len() && ends[k] <= pos + vb.len() {
            ends[k] = base + floor_char_boundary(vb, ends[k].saturating_sub(pos));
            k += 1;
        }
        text.push_str(valid);
        pos += vb.len();
        if invalid_len > 0 {
            // An end inside the invalid sequence comes before its replacement character.
            while k < ends.len() && ends[k] < pos + invalid_len {
                ends[k] = text.len();
                k += 1;
            }
            text.push('\u{FFFD}');
            pos += invalid_len;
        }
    }
    for e in &mut ends[k..] {
        *e = text.len();
    }
    text
}

/// The byte-level loop's common path for blocks of [`BLOCK`] tokens, with AVX2.
#[cfg(target_arch = "x86_64")]
mod wide {
    use std::arch::x86_64::*;

    use super::super::vocabulary::{Slot, FLAGS_AT, LEN_AT, PRESENT};
    use super::{BLOCK, RESERVE_RUN};

    /// Decodes `ids` from `index` on, a block of [`BLOCK`] at a time, while every token of a
    /// block takes the common path (`flags & common == PRESENT`: known, kept, inline, UTF-8
    /// alone): appends their pieces to `raw` and writes their ends to `ends[index..]`. Returns
    /// where it stopped: the first block with another token (the scalar loop takes it), or
    /// the last ids, fewer than a block.
    ///
    /// A block's ids are loaded at once and checked against the table's length; then each
    /// slot is loaded (16 bytes: the piece, its length and the flags), the slots' last four
    /// bytes are gathered into one vector by unpacking (no gather instruction: slow on some
    /// CPUs) and the flags of all eight are tested at once. The slots already loaded are then
    /// stored, each at the end of the one before, and each end is that plus the slot's length
    /// byte. About 11 instructions per token against the scalar loop's 27, and 1.35 ns per
    /// token on the real traces against 1.9 (a prefix sum of the lengths in a vector was
    /// slower: its ends, stored as a vector and read back one by one, wait on the store; a
    /// prefetch of the slots ahead, as the scalar loop has, gained nothing).
    ///
    /// # Safety
    /// The CPU must have AVX2; `ends` must have room for `ids.len()` elements.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn common_blocks(
        slots: &[Slot],
        ids: &[u32],
        common: u8,
        raw: &mut Vec<u8>,
        ends: *mut usize,
        mut index: usize,
    ) -> usize {
        const _: () = assert!(FLAGS_AT == 15, "a slot's last byte holds the flags");
        let n = ids.len();
        if slots.is_empty() || slots.len() > i32::MAX as usize {
            return index;
        }
        let last_id = _mm256_set1_epi32((slots.len() - 1) as i32);
        // The flags are the top byte of a slot's last dword.
        let flags = _mm256_set1_epi32(((common as u32) << 24) as i32);
        let present = _mm256_set1_epi32(((PRESENT as u32) << 24) as i32);
        let table = slots.as_ptr();
        let mut len = raw.len();
        while n - index >= BLOCK {
            // Room for a block: each token writes 16 bytes from its start, at most 14 past
            // the last.
            if raw.capacity() - len < 16 * BLOCK {
                raw.set_len(len);
                raw.reserve(16 * RESERVE_RUN);
            }
            let block = ids.as_ptr().add(index);
            let v = _mm256_loadu_si256(block as *const __m256i);
            // Every id within the table (unsigned), else the scalar loop reports the unknown one.
            if _mm256_movemask_epi8(_mm256_cmpeq_epi32(_mm256_max_epu32(v, last_id), last_id)) != -1 {
                break;
            }
            let mut slot = [_mm_setzero_si128(); BLOCK];
            for (j, s) in slot.iter_mut().enumerate() {
                *s = _mm_loadu_si128(table.add(*block.add(j) as usize) as *const __m128i);
            }
            // The last dword of each slot, in order: unpacking the high dwords of two slots
            // gives [a2, b2, a3, b3]; of two such pairs' high halves, [a3, b3, c3, d3].
            let quad = |a: __m128i, b: __m128i, c: __m128i, d: __m128i| {
                _mm_unpackhi_epi64(_mm_unpackhi_epi32(a, b), _mm_unpackhi_epi32(c, d))
            };
            let words =
                _mm256_set_m128i(quad(slot[4], slot[5], slot[6], slot[7]), quad(slot[0], slot[1], slot[2], slot[3]));
            if _mm256_movemask_epi8(_mm256_cmpeq_epi32(_mm256_and_si256(words, flags), present)) != -1 {
                break;
            }
            // Each slot's 16 bytes at the end of the token before (the next overwrites what
            // lies past the piece), and the token's end.
            let out = raw.as_mut_ptr();
            let at = ends.add(index);
            let mut end = len;
            for (j, &s) in slot.iter().enumerate() {
                _mm_storeu_si128(out.add(end) as *mut __m128i, s);
                end += _mm_extract_epi8::<{ LEN_AT as i32 }>(s) as usize;
                *at.add(j) = end;
            }
            len = end;
            index += BLOCK;
        }
        raw.set_len(len);
        index
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Any valid text cut into pieces anywhere (inside characters too; an empty piece is a
        /// skipped special token): the recorded starts move every end as flooring each does.
        #[test]
        fn ends_inside_characters_move_back_as_flooring_each_does(
            text in "[a-z ²π因😀\u{301}]{0,60}",
            cuts in prop::collection::vec(0usize..300, 0..40),
        ) {
            let bytes = text.as_bytes();
            let mut ends: Vec<usize> = cuts.iter().map(|&c| c % (bytes.len() + 1)).collect();
            ends.sort_unstable();
            ends.push(bytes.len());
            // As the decoding loop records them: every piece that is not UTF-8 alone.
            let partial = not_utf8_pieces(bytes, &ends);
            prop_assert!(runs_are_utf8(bytes, &ends, &partial));
            let expected: Vec<usize> = ends.iter().map(|&e| floor_char_boundary(bytes, e)).collect();
            floor_ends_inside(bytes, &mut ends, &partial);
            prop_assert_eq!(ends, expected);
        }

        /// Pieces of a text that may have a byte replaced by one no UTF-8 has, or by a lone
        /// lead or continuation byte: checking the runs of pieces that are not UTF-8 alone
        /// says what checking the whole text says.
        #[test]
        fn checking_the_runs_is_checking_the_text(
            text in "[a-z ²π因😀]{0,40}",
            cuts in prop::collection::vec(0usize..200, 0..30),
            damage in prop::option::of((0usize..200, prop::sample::select(vec![0x80u8, 0xBF, 0xC3, 0xE2, 0xF0, 0xFF, b'a']))),
        ) {
            let mut bytes = text.into_bytes();
            if let (Some((at, b)), false) = (damage, bytes.is_empty()) {
                let at = at % bytes.len();
                bytes[at] = b;
            }
            let mut ends: Vec<usize> = cuts.iter().map(|&c| c % (bytes.len() + 1)).collect();
            ends.sort_unstable();
            ends.push(bytes.len());
            let partial = not_utf8_pieces(&bytes, &ends);
            prop_assert_eq!(runs_are_utf8(&bytes, &ends, &partial), std::str::from_utf8(&bytes).is_ok());
        }
    }

    /// The pieces of `bytes` cut at `ends` that are not UTF-8 alone: (token, start).
    fn not_utf8_pieces(bytes: &[u8], ends: &[usize]) -> Vec<(usize, usize)> {
        let mut partial = Vec::new();
        let mut start = 0;
        for (token, &end) in ends.iter().enumerate() {
            if std::str::from_utf8(&bytes[start..end]).is_err() {
                partial.push((token, start));
            }
            start = end;
        }
        partial
    }
}
