//! Byte <-> character offset conversion.

/// Converts ascending byte offsets into character (code point) offsets in one pass.
///
/// `byte_offsets` must be sorted ascending and each must lie on a char boundary of `text`
/// (or equal `text.len()`); offsets are converted in place.
pub fn bytes_to_chars_sorted(text: &str, byte_offsets: &mut [usize]) {
    // Many offsets (a token's end each) are close together: a fixed cost per gap would dominate.
    if byte_offsets.len() > 64 {
        let index = CharIndex::new(text);
        for off in byte_offsets.iter_mut() {
            *off = index.chars_at((*off).min(text.len()));
        }
        return;
    }
    let bytes = text.as_bytes();
    let mut pos = 0usize;
    let mut chars = 0usize;
    for off in byte_offsets.iter_mut() {
        let target = (*off).min(bytes.len());
        chars += count_chars(&bytes[pos..target]);
        pos = target;
        *off = chars;
    }
}

/// [`bytes_to_chars_sorted`] when the text's length in characters is known (a Python `str`
/// knows it): the offsets after the widest gap between neighbours (the start and the end of
/// the text count as neighbours) are counted back from the end, so that an answer near the end
/// of a long response costs the bytes after it, not the whole response.
pub fn bytes_to_chars_sorted_with_total(text: &str, total_chars: usize, byte_offsets: &mut [usize]) {
    let bytes = text.as_bytes();
    let clamped = |o: usize| o.min(bytes.len());
    if total_chars == bytes.len() {
        // As many characters as bytes: ASCII, every byte offset is its character offset.
        for off in byte_offsets.iter_mut() {
            *off = clamped(*off);
        }
        return;
    }
    // The offsets from index `split` on are counted from the end.
    let mut split = 0;
    let mut widest = 0;
    let mut previous = 0;
    for (i, &o) in byte_offsets.iter().enumerate() {
        if clamped(o) - previous > widest {
            widest = clamped(o) - previous;
            split = i;
        }
        previous = clamped(o);
    }
    if bytes.len() - previous > widest {
        split = byte_offsets.len();
    }
    let (front, back) = byte_offsets.split_at_mut(split);
    bytes_to_chars_sorted(text, front);
    let mut pos = bytes.len();
    let mut chars = total_chars;
    for off in back.iter_mut().rev() {
        let target = clamped(*off);
        chars -= count_chars(&bytes[target..pos]);
        pos = target;
        *off = chars;
    }
}

/// Character offsets of any byte offsets of one text, each in constant time after one pass.
///
/// For every 64-byte block it keeps the number of characters before the block and a bit per
/// byte that starts a character; the offset of byte `b` is the block's count plus the set bits
/// below `b` in its block. Converting the ~170 sentence bounds of a trace this way costs one pass
/// over its bytes, where counting each gap ([`count_chars`]) paid a fixed cost per gap that
/// came to a fifth of the segmentation's time. ASCII text needs no table.
pub struct CharIndex {
    /// Per block: characters before it, and the character-start bits of its bytes. One more
    /// block than the text fills, so that the end of the text has one too.
    blocks: Vec<(usize, u64)>,
    ascii: bool,
}

impl CharIndex {
    pub fn new(text: &str) -> CharIndex {
        let bytes = text.as_bytes();
        if bytes.is_ascii() {
            return CharIndex { blocks: Vec::new(), ascii: true };
        }
        let mut blocks = Vec::with_capacity(bytes.len() / 64 + 1);
        let mut before = 0;
        for chunk in bytes.chunks(64) {
            let starts = char_starts(chunk);
            blocks.push((before, starts));
            before += starts.count_ones() as usize;
        }
        if bytes.len() % 64 == 0 {
            blocks.push((before, 0));
        }
        CharIndex { blocks, ascii: false }
    }

    /// Characters before byte offset `byte` (at most the text's length in bytes).
    #[inline]
    pub fn chars_at(&self, byte: usize) -> usize {
        if self.ascii {
            return byte;
        }
        let (before, starts) = self.blocks[(byte / 64).min(self.blocks.len() - 1)];
        let below = (1u64 << (byte % 64)) - 1;
        before + (starts & below).count_ones() as usize
    }
}

/// Bit `i` set when `chunk[i]` (at most 64 bytes) starts a character (is no continuation byte).
#[inline]
fn char_starts(chunk: &[u8]) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if chunk.len() == 64 {
        // SSE2 is part of x86_64: 16 bytes per compare and mask.
        use std::arch::x86_64::{__m128i, _mm_cmpgt_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8};
        let mut bits = 0u64;
        for k in 0..4 {
            // SAFETY: `chunk` has 64 bytes, so bytes 16k..16k+16 are in bounds; unaligned load.
            let lanes = unsafe {
                let v = _mm_loadu_si128(chunk.as_ptr().add(16 * k) as *const __m128i);
                _mm_movemask_epi8(_mm_cmpgt_epi8(v, _mm_set1_epi8(-0x41))) as u16
            };
            bits |= u64::from(lanes) << (16 * k);
        }
        return bits;
    }
    chunk.iter().enumerate().fold(0u64, |bits, (i, &b)| bits | (u64::from((b as i8) >= -0x40) << i))
}

/// Number of code points in a UTF-8 byte slice (counts non-continuation bytes).
///
/// Counted per chunk of at most 64 bytes into a `u8` (no overflow): the compiler then adds 16
/// byte flags per SIMD instruction. Counting straight into a `usize` made it widen every flag
/// to 64 bits, 2 to 4 bytes per instruction, and the character offsets of a trace's sentences
/// (counted sentence by sentence, a few dozen bytes at a time) cost as much as splitting it.
///
/// A long slice (a response's characters before an offset near its end) is counted 32 bytes
/// per AVX2 compare where the CPU has it, half the instructions.
#[inline]
pub fn count_chars(bytes: &[u8]) -> usize {
    #[cfg(target_arch = "x86_64")]
    if bytes.len() >= LONG_SLICE && std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2.
        return unsafe { count_chars_avx2(bytes) };
    }
    count_chars_by_chunks(bytes)
}

/// The length from which [`count_chars`] takes AVX2 (the dispatch costs a few instructions).
const LONG_SLICE: usize = 256;

#[inline]
fn count_chars_by_chunks(bytes: &[u8]) -> usize {
    let count_chunk = |chunk: &[u8]| usize::from(chunk.iter().fold(0u8, |n, &b| n + u8::from((b as i8) >= -0x40)));
    bytes.chunks(64).map(count_chunk).sum()
}

/// [`count_chars`] with AVX2: per 32-byte block, the bytes that start a character (greater
/// than -0x41 as signed bytes) are counted in 32 byte lanes, at most 255 blocks before the
/// lanes are summed.
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn count_chars_avx2(bytes: &[u8]) -> usize {
    use std::arch::x86_64::{
        __m256i, _mm256_cmpgt_epi8, _mm256_extract_epi64, _mm256_loadu_si256, _mm256_sad_epu8, _mm256_set1_epi8,
        _mm256_setzero_si256, _mm256_sub_epi8,
    };
    let continuation_max = _mm256_set1_epi8(-0x41);
    let zero = _mm256_setzero_si256();
    let mut blocks = bytes.chunks_exact(32);
    let mut total = 0usize;
    loop {
        let mut lanes = zero;
        let mut counted = 0;
        for block in blocks.by_ref().take(255) {
            // An unaligned load of the block's 32 bytes; a start is -1 in the compare's lane.
            let v = _mm256_loadu_si256(block.as_ptr() as *const __m256i);
            lanes = _mm256_sub_epi8(lanes, _mm256_cmpgt_epi8(v, continuation_max));
            counted += 1;
        }
        let sums = _mm256_sad_epu8(lanes, zero);
        let sum = _mm256_extract_epi64::<0>(sums)
            + _mm256_extract_epi64::<1>(sums)
            + _mm256_extract_epi64::<2>(sums)
            + _mm256_extract_epi64::<3>(sums);
        total += sum as usize;
        if counted < 255 {
            break;
        }
    }
    total + count_chars_by_chunks(blocks.remainder())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_chars_of_every_length_and_alignment() {
        let text = "aé€😀b日本語x\u{a0}y".repeat(20);
        for start in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
            for end in (start..=text.len()).filter(|&i| text.is_char_boundary(i)) {
                assert_eq!(count_chars(&text.as_bytes()[start..end]), text[start..end].chars().count());
            }
        }
        // Any bytes, not only UTF-8: the count of non-continuation bytes (beyond 255 blocks of
        // 32 bytes too, where the AVX2 count sums its lanes and starts again).
        let bytes: Vec<u8> = (0..=255u8).cycle().take(9000).collect();
        for len in (0..1000).chain([8159, 8160, 8161, 8191, 8999]) {
            let want = bytes[..len].iter().filter(|&&b| !(0x80..0xC0).contains(&b)).count();
            assert_eq!(count_chars(&bytes[..len]), want, "{len}");
        }
    }

    #[test]
    fn char_index_agrees_with_counting_at_every_boundary() {
        for text in ["", "ascii only", &"aé€😀b日本語x\u{a0}y".repeat(13), &"é".repeat(32), &"é".repeat(33)] {
            let index = CharIndex::new(text);
            for b in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
                assert_eq!(index.chars_at(b), text[..b].chars().count(), "{text:?} at {b}");
            }
            // Many offsets go through the index, few are counted gap by gap: the same result.
            let mut all: Vec<usize> = (0..=text.len()).filter(|&i| text.is_char_boundary(i)).collect();
            let want: Vec<usize> = all.iter().map(|&b| text[..b].chars().count()).collect();
            bytes_to_chars_sorted(text, &mut all);
            assert_eq!(all, want);
        }
    }

    #[test]
    fn counting_from_either_end_agrees() {
        let text = "aé€😀b日本語x\u{a0}y".repeat(7);
        let total = text.chars().count();
        let boundaries: Vec<usize> = (0..=text.len()).filter(|&i| text.is_char_boundary(i)).collect();
        // Every sorted pair and triple of boundaries, duplicates included.
        for (i, &a) in boundaries.iter().enumerate() {
            for &b in &boundaries[i..] {
                for &c in boundaries.iter().filter(|&&c| c >= b).step_by(5) {
                    let mut want = vec![a, b, c];
                    bytes_to_chars_sorted(&text, &mut want);
                    let mut got = vec![a, b, c];
                    bytes_to_chars_sorted_with_total(&text, total, &mut got);
                    assert_eq!(got, want, "{a} {b} {c}");
                }
            }
        }
        let mut none: Vec<usize> = vec![];
        bytes_to_chars_sorted_with_total(&text, total, &mut none);
        let mut past = vec![text.len() + 5];
        bytes_to_chars_sorted_with_total(&text, total, &mut past);
        assert_eq!(past, vec![total]);
        // ASCII text (as many characters as bytes) takes the shortcut: offsets stay, clamped.
        let ascii = "So x = 3. Then y = 4.";
        let mut offsets = vec![0, 3, 9, ascii.len(), ascii.len() + 2];
        bytes_to_chars_sorted_with_total(ascii, ascii.len(), &mut offsets);
        assert_eq!(offsets, vec![0, 3, 9, ascii.len(), ascii.len()]);
    }

    #[test]
    fn converts_mixed_width_text() {
        let text = "aé€😀b";
        let mut offs = vec![0, 1, 3, 6, 10, 11];
        bytes_to_chars_sorted(text, &mut offs);
        assert_eq!(offs, vec![0, 1, 2, 3, 4, 5]);
    }
}
