//! Code points to UTF-8 text, fast for text that is mostly ASCII.
//!
//! The engine reads UTF-8. CPython keeps a `str` that is not ASCII as one, two or four bytes
//! per code point and makes its UTF-8 only when asked (`PyUnicode_AsUTF8AndSize`), into
//! memory that then stays attached to the string. Half of the real traces hold a `×`, a `π`
//! or a `≤` somewhere; for those 1,451 responses (18.4M characters) CPython's encoder took
//! 15.4 ms, about 5 µs per rollout of the batch: as much as the outcome check itself. The
//! binding therefore reads such a `str` as its code points (`PyUnicode_AsUCS4`, a widening
//! copy) and encodes them here, sixteen ASCII code points at a time, into memory that the next
//! part of a batch reuses: 9.4–11.6 ms in all for the same responses, about 5 ms of it here.

/// A code point that UTF-8 cannot encode: a surrogate (a Python `str` may hold a lone one) or
/// a value past U+10FFFF.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InvalidCodePoint {
    /// Its index in the code points.
    pub index: usize,
    pub value: u32,
}

/// How many code points the ASCII test takes at a time.
const CHUNK: usize = 16;

/// Whether UTF-8 has no encoding for `c`.
#[inline]
fn is_invalid(c: u32) -> bool {
    (0xD800..=0xDFFF).contains(&c) || c > 0x10FFFF
}

/// Writes the UTF-8 encoding of the valid code point `c` at `dst`; returns its length.
///
/// # Safety
/// `dst` must have room for 4 bytes, and `c` must not be [`is_invalid`].
#[inline]
unsafe fn encode_one(c: u32, dst: *mut u8) -> usize {
    if c < 0x80 {
        *dst = c as u8;
        1
    } else if c < 0x800 {
        *dst = 0xC0 | (c >> 6) as u8;
        *dst.add(1) = 0x80 | (c & 0x3F) as u8;
        2
    } else if c < 0x10000 {
        *dst = 0xE0 | (c >> 12) as u8;
        *dst.add(1) = 0x80 | ((c >> 6) & 0x3F) as u8;
        *dst.add(2) = 0x80 | (c & 0x3F) as u8;
        3
    } else {
        *dst = 0xF0 | (c >> 18) as u8;
        *dst.add(1) = 0x80 | ((c >> 12) & 0x3F) as u8;
        *dst.add(2) = 0x80 | ((c >> 6) & 0x3F) as u8;
        *dst.add(3) = 0x80 | (c & 0x3F) as u8;
        4
    }
}

/// Writes the [`CHUNK`] code points at `chunk` to `dst` as as many bytes when all are ASCII
/// (and says so); writes nothing otherwise.
///
/// # Safety
/// `chunk` must hold [`CHUNK`] code points and `dst` must have room for [`CHUNK`] bytes.
#[cfg(target_arch = "x86_64")]
#[inline]
unsafe fn ascii_chunk(chunk: *const u32, dst: *mut u8) -> bool {
    // SSE2 is part of x86-64: four loads, a test of the bits above 0x7F, two packs.
    use std::arch::x86_64::*;
    let src = chunk as *const __m128i;
    let (a, b, c, d) = (_mm_loadu_si128(src), _mm_loadu_si128(src.add(1)), _mm_loadu_si128(src.add(2)), _mm_loadu_si128(src.add(3)));
    let high = _mm_and_si128(_mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d)), _mm_set1_epi32(!0x7F));
    if _mm_movemask_epi8(_mm_cmpeq_epi32(high, _mm_setzero_si128())) != 0xFFFF {
        return false;
    }
    _mm_storeu_si128(dst as *mut __m128i, _mm_packus_epi16(_mm_packs_epi32(a, b), _mm_packs_epi32(c, d)));
    true
}

/// [`ascii_chunk`] without vector instructions.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
unsafe fn ascii_chunk(chunk: *const u32, dst: *mut u8) -> bool {
    let chunk = std::slice::from_raw_parts(chunk, CHUNK);
    if chunk.iter().fold(0, |acc, &c| acc | c) >= 0x80 {
        return false;
    }
    for (k, &c) in chunk.iter().enumerate() {
        *dst.add(k) = c as u8;
    }
    true
}

/// The first code point of `chunk` (which starts at index `at`) that UTF-8 cannot encode.
#[cold]
fn first_invalid(chunk: &[u32], at: usize) -> InvalidCodePoint {
    let k = chunk.iter().position(|&c| is_invalid(c)).unwrap_or(0);
    InvalidCodePoint { index: at + k, value: chunk[k] }
}

/// Appends the UTF-8 of `points` to `out`; on an error (the first code point UTF-8 cannot
/// encode) `out` is left as it was. One pass, [`CHUNK`] code points at a time: a chunk of
/// ASCII is narrowed at once; any other is encoded a quarter at a time (a quarter of ASCII at
/// once), after making sure `out` has room for it and for one byte per code point after it,
/// so that a run of ASCII chunks needs no check. `out` may end with more capacity than its
/// length: meant for a buffer that many texts are appended to.
pub fn append_utf8_of_code_points(points: &[u32], out: &mut Vec<u8>) -> Result<(), InvalidCodePoint> {
    let start = out.len();
    let n = points.len();
    out.reserve(n);
    let mut written = start;
    let mut i = 0;
    while i < n {
        let chunk_len = CHUNK.min(n - i);
        // SAFETY: the capacity is at least `written` plus one byte per code point from `i` on
        // (so reserved above, and again below before every chunk that is not ASCII; an ASCII
        // code point takes one byte), so 16 ASCII bytes fit; the chunk lies inside `points`.
        if chunk_len == CHUNK && unsafe { ascii_chunk(points.as_ptr().add(i), out.as_mut_ptr().add(written)) } {
            written += CHUNK;
            i += CHUNK;
            continue;
        }
        // SAFETY: the bytes below `written` are initialized (appended UTF-8).
        unsafe { out.set_len(written) };
        out.reserve(4 * chunk_len + (n - i - chunk_len));
        let dst = out.as_mut_ptr();
        let chunk = &points[i..i + chunk_len];
        // Whole quarters, then the chunk's last code points (a text's end): `chunks(4)` with a
        // length test in one loop cost 2k more instructions per rollout of the outcome batch.
        let mut quads = chunk.chunks_exact(4);
        for quad in &mut quads {
            if (quad[0] | quad[1] | quad[2] | quad[3]) < 0x80 {
                for (k, &c) in quad.iter().enumerate() {
                    // SAFETY: room reserved above.
                    unsafe { *dst.add(written + k) = c as u8 };
                }
                written += 4;
                continue;
            }
            for &c in quad {
                if is_invalid(c) {
                    out.truncate(start);
                    return Err(first_invalid(chunk, i));
                }
                // SAFETY: room reserved above; `c` is valid.
                written += unsafe { encode_one(c, dst.add(written)) };
            }
        }
        for &c in quads.remainder() {
            if is_invalid(c) {
                out.truncate(start);
                return Err(first_invalid(chunk, i));
            }
            // SAFETY: as above.
            written += unsafe { encode_one(c, dst.add(written)) };
        }
        i += chunk_len;
    }
    // SAFETY: every byte below `written` was written: the UTF-8 of every code point.
    unsafe { out.set_len(written) };
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn points(s: &str) -> Vec<u32> {
        s.chars().map(u32::from).collect()
    }

    /// The UTF-8 text of `points`, or the first code point UTF-8 cannot encode.
    fn utf8_from_code_points(points: &[u32]) -> Result<String, InvalidCodePoint> {
        let mut out = Vec::new();
        append_utf8_of_code_points(points, &mut out)?;
        Ok(String::from_utf8(out).expect("the encoder writes UTF-8"))
    }

    #[test]
    fn every_encoding_length_and_the_chunk_edges() {
        for text in [
            "",
            "a",
            "x = 3, so the answer is $\\boxed{12}$.",
            "× π ≤ 答案 😀 é",
            // A non-ASCII code point on each side of a chunk boundary, and a tail.
            "0123456789abcdeé0123456789abcdef\u{10FFFF}xyz",
            "0123456789abcdef0123456789abcdef",
        ] {
            assert_eq!(utf8_from_code_points(&points(text)).unwrap(), text);
        }
    }

    #[test]
    fn surrogates_and_values_past_the_last_code_point_are_errors() {
        let mut p = points("0123456789abcdef0123");
        p[17] = 0xD800;
        assert_eq!(utf8_from_code_points(&p), Err(InvalidCodePoint { index: 17, value: 0xD800 }));
        p[17] = 0xDFFF;
        p[3] = 0x110000;
        assert_eq!(utf8_from_code_points(&p), Err(InvalidCodePoint { index: 3, value: 0x110000 }));
        assert_eq!(utf8_from_code_points(&[0xD7FF, 0xE000]).unwrap(), "\u{D7FF}\u{E000}");
    }

    #[test]
    fn appending_keeps_what_was_there_and_an_error_adds_nothing() {
        let mut out = b"before ".to_vec();
        append_utf8_of_code_points(&points("× π"), &mut out).unwrap();
        assert_eq!(out, "before × π".as_bytes());
        assert!(append_utf8_of_code_points(&[0x41, 0xDC00], &mut out).is_err());
        assert_eq!(out, "before × π".as_bytes());
    }

    proptest! {
        #[test]
        fn encodes_as_std_does(text in "(\\PC|[a-z ]{0,40}){0,80}") {
            prop_assert_eq!(utf8_from_code_points(&points(&text)).unwrap(), text);
        }

        #[test]
        fn any_u32_is_encoded_or_named(values in proptest::collection::vec(any::<u32>(), 0..40), ascii in 0usize..40) {
            // Mostly ASCII with arbitrary values mixed in.
            let mut p: Vec<u32> = (0..ascii as u32).map(|k| 32 + k).collect();
            p.extend(values.iter().map(|v| v % 0x12_0000));
            let expected: Option<String> = p.iter().map(|&c| char::from_u32(c)).collect();
            match utf8_from_code_points(&p) {
                Ok(s) => prop_assert_eq!(Some(s), expected),
                Err(e) => {
                    prop_assert!(expected.is_none());
                    prop_assert_eq!(e.index, p.iter().position(|&c| char::from_u32(c).is_none()).unwrap());
                    prop_assert_eq!(e.value, p[e.index]);
                }
            }
        }
    }
}
