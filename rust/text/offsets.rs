//! Byte <-> character offset conversion.

/// Converts ascending byte offsets into character (code point) offsets in one pass.
///
/// `byte_offsets` must be sorted ascending and each must lie on a char boundary of `text`
/// (or equal `text.len()`); offsets are converted in place.
pub fn bytes_to_chars_sorted(text: &str, byte_offsets: &mut [usize]) {
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

/// Number of code points in a UTF-8 byte slice (counts non-continuation bytes).
///
/// Counted per chunk of at most 64 bytes into a `u8` (no overflow): the compiler then adds 16
/// byte flags per SIMD instruction. Counting straight into a `usize` made it widen every flag
/// to 64 bits, 2 to 4 bytes per instruction, and the character offsets of a trace's sentences
/// (counted sentence by sentence, a few dozen bytes at a time) cost as much as splitting it.
#[inline]
pub fn count_chars(bytes: &[u8]) -> usize {
    let count_chunk = |chunk: &[u8]| usize::from(chunk.iter().fold(0u8, |n, &b| n + u8::from((b as i8) >= -0x40)));
    bytes.chunks(64).map(count_chunk).sum()
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
        // Any bytes, not only UTF-8: the count of non-continuation bytes.
        let bytes: Vec<u8> = (0..=255u8).cycle().take(1000).collect();
        for len in 0..bytes.len() {
            let want = bytes[..len].iter().filter(|&&b| !(0x80..0xC0).contains(&b)).count();
            assert_eq!(count_chars(&bytes[..len]), want, "{len}");
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
    }

    #[test]
    fn converts_mixed_width_text() {
        let text = "aé€😀b";
        let mut offs = vec![0, 1, 3, 6, 10, 11];
        bytes_to_chars_sorted(text, &mut offs);
        assert_eq!(offs, vec![0, 1, 2, 3, 4, 5]);
    }
}
