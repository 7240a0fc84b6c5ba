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
//!
//! A caller that needs only the end of a text (the outcome check: the box after the last
//! `</think>`) finds the tag among the code points ([`rfind_code_points`]), encodes the end
//! alone and counts the UTF-8 length of what comes before it for the end's byte offset
//! ([`utf8_len_of_code_points`]): both scans take 32 code points a step with AVX2 (checked
//! for at run time), 16 otherwise.

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
    // SSE2 is part of x86-64: the test, then four loads and two packs.
    use std::arch::x86_64::*;
    if !is_ascii_chunk(chunk) {
        return false;
    }
    let src = chunk as *const __m128i;
    let (a, b, c, d) =
        (_mm_loadu_si128(src), _mm_loadu_si128(src.add(1)), _mm_loadu_si128(src.add(2)), _mm_loadu_si128(src.add(3)));
    _mm_storeu_si128(dst as *mut __m128i, _mm_packus_epi16(_mm_packs_epi32(a, b), _mm_packs_epi32(c, d)));
    true
}

/// [`ascii_chunk`] without vector instructions.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
unsafe fn ascii_chunk(chunk: *const u32, dst: *mut u8) -> bool {
    if !is_ascii_chunk(chunk) {
        return false;
    }
    let chunk = std::slice::from_raw_parts(chunk, CHUNK);
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
/// encode) `out` is left as it was. One pass: with AVX2 (checked for at run time) 32 code
/// points a step, narrowed at once when all are ASCII ([`wide::append_utf8`]); without it by
/// [`append_utf8_by_chunks`]. `out` may end with more capacity than its length: meant for a
/// buffer that many texts are appended to.
pub fn append_utf8_of_code_points(points: &[u32], out: &mut Vec<u8>) -> Result<(), InvalidCodePoint> {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2.
        return unsafe { wide::append_utf8(points, out) };
    }
    append_utf8_by_chunks(points, out)
}

/// [`append_utf8_of_code_points`] [`CHUNK`] code points at a time: a chunk of ASCII is
/// narrowed at once; any other is encoded a quarter at a time (a quarter of ASCII at once),
/// after making sure `out` has room for it and for one byte per code point after it, so that
/// a run of ASCII chunks needs no check.
fn append_utf8_by_chunks(points: &[u32], out: &mut Vec<u8>) -> Result<(), InvalidCodePoint> {
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

/// Whether the [`CHUNK`] code points at `chunk` are all ASCII.
///
/// # Safety
/// `chunk` must hold [`CHUNK`] code points.
#[cfg(target_arch = "x86_64")]
#[inline]
unsafe fn is_ascii_chunk(chunk: *const u32) -> bool {
    use std::arch::x86_64::*;
    let src = chunk as *const __m128i;
    let any = _mm_or_si128(
        _mm_or_si128(_mm_loadu_si128(src), _mm_loadu_si128(src.add(1))),
        _mm_or_si128(_mm_loadu_si128(src.add(2)), _mm_loadu_si128(src.add(3))),
    );
    let high = _mm_and_si128(any, _mm_set1_epi32(!0x7F));
    _mm_movemask_epi8(_mm_cmpeq_epi32(high, _mm_setzero_si128())) == 0xFFFF
}

/// [`is_ascii_chunk`] without vector instructions.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
unsafe fn is_ascii_chunk(chunk: *const u32) -> bool {
    std::slice::from_raw_parts(chunk, CHUNK).iter().fold(0, |acc, &c| acc | c) < 0x80
}

/// The length of the UTF-8 of `points`, or the first code point UTF-8 cannot encode: what
/// [`append_utf8_of_code_points`] would append, without writing it ([`CHUNK`] code points at
/// a time: tested for ASCII at once, else counted four at a time). For the byte offset of a
/// text's end when only the end is encoded.
pub fn utf8_len_of_code_points(points: &[u32]) -> Result<usize, InvalidCodePoint> {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2.
        return unsafe { wide::utf8_len(points) };
    }
    utf8_len_by_chunks(points)
}

/// [`utf8_len_of_code_points`] [`CHUNK`] code points at a time (SSE2 on x86-64).
fn utf8_len_by_chunks(points: &[u32]) -> Result<usize, InvalidCodePoint> {
    let mut len = 0;
    let mut chunks = points.chunks_exact(CHUNK);
    let mut at = 0;
    for chunk in &mut chunks {
        // SAFETY: a chunk of `chunks_exact(CHUNK)` holds CHUNK code points.
        len += match unsafe { is_ascii_chunk(chunk.as_ptr()) } {
            true => CHUNK,
            false => unsafe { utf8_len_of_chunk(chunk.as_ptr()) }.ok_or_else(|| first_invalid(chunk, at))?,
        };
        at += CHUNK;
    }
    Ok(len + utf8_len_of_few(chunks.remainder(), at)?)
}

/// The UTF-8 length of the [`CHUNK`] code points at `chunk`, None when UTF-8 cannot encode
/// one. Each lane adds one byte per bound (0x7F, 0x7FF, 0xFFFF) its code point lies above:
/// SSE2 compares give -1 for "above".
///
/// # Safety
/// `chunk` must hold [`CHUNK`] code points.
#[cfg(target_arch = "x86_64")]
#[inline]
unsafe fn utf8_len_of_chunk(chunk: *const u32) -> Option<usize> {
    use std::arch::x86_64::*;
    let src = chunk as *const __m128i;
    let (b1, b2, b3) = (_mm_set1_epi32(0x7F), _mm_set1_epi32(0x7FF), _mm_set1_epi32(0xFFFF));
    let (s_low, s_high, past) = (_mm_set1_epi32(0xD7FF), _mm_set1_epi32(0xE000), _mm_set1_epi32(0x10FFFF));
    let mut extra = _mm_setzero_si128();
    let mut invalid = _mm_setzero_si128();
    for k in 0..4 {
        let c = _mm_loadu_si128(src.add(k));
        extra = _mm_sub_epi32(
            extra,
            _mm_add_epi32(_mm_add_epi32(_mm_cmpgt_epi32(c, b1), _mm_cmpgt_epi32(c, b2)), _mm_cmpgt_epi32(c, b3)),
        );
        // The compares are signed: a value from 2^31 on is negative, and invalid too.
        let surrogate = _mm_and_si128(_mm_cmpgt_epi32(c, s_low), _mm_cmplt_epi32(c, s_high));
        let out_of_range = _mm_or_si128(_mm_cmpgt_epi32(c, past), _mm_cmplt_epi32(c, _mm_setzero_si128()));
        invalid = _mm_or_si128(invalid, _mm_or_si128(surrogate, out_of_range));
    }
    if _mm_movemask_epi8(invalid) != 0 {
        return None;
    }
    let mut lanes = [0u32; 4];
    _mm_storeu_si128(lanes.as_mut_ptr() as *mut __m128i, extra);
    Some(CHUNK + lanes.iter().sum::<u32>() as usize)
}

/// [`utf8_len_of_chunk`] without vector instructions.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
unsafe fn utf8_len_of_chunk(chunk: *const u32) -> Option<usize> {
    utf8_len_of_few(std::slice::from_raw_parts(chunk, CHUNK), 0).ok()
}

/// [`utf8_len_of_code_points`] of a few code points (`at`: the index of the first).
fn utf8_len_of_few(points: &[u32], at: usize) -> Result<usize, InvalidCodePoint> {
    let mut len = 0;
    for &c in points {
        if is_invalid(c) {
            return Err(first_invalid(points, at));
        }
        len += 1 + usize::from(c >= 0x80) + usize::from(c >= 0x800) + usize::from(c >= 0x10000);
    }
    Ok(len)
}

/// Where the last occurrence of `needle` starts in `haystack` (None for an empty needle).
/// Searched from the end for the needle's last code point ([`last_index_of`]): what lies
/// after the last occurrence is all that is read.
pub fn rfind_code_points(haystack: &[u32], needle: &[u32]) -> Option<usize> {
    let &last = needle.last()?;
    let mut end = haystack.len();
    loop {
        let k = last_index_of(&haystack[..end], last)?;
        if k + 1 >= needle.len() && haystack[..=k].ends_with(needle) {
            return Some(k + 1 - needle.len());
        }
        end = k;
    }
}

/// The index of the last `c` in `haystack`: 32 code points at a time with AVX2, else
/// [`CHUNK`] at a time (SSE2 on x86-64).
fn last_index_of(haystack: &[u32], c: u32) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2.
        return unsafe { wide::last_index_of(haystack, c) };
    }
    last_index_by_chunks(haystack, c)
}

/// [`last_index_of`] [`CHUNK`] code points at a time.
fn last_index_by_chunks(haystack: &[u32], c: u32) -> Option<usize> {
    let mut end = haystack.len();
    while end >= CHUNK {
        let start = end - CHUNK;
        // SAFETY: `start..end` lies inside `haystack` and holds CHUNK code points.
        if unsafe { chunk_holds(haystack.as_ptr().add(start), c) } {
            return (start..end).rev().find(|&k| haystack[k] == c);
        }
        end = start;
    }
    haystack[..end].iter().rposition(|&x| x == c)
}

/// The scans above with AVX2 (checked for at run time): 32 code points per step.
#[cfg(target_arch = "x86_64")]
mod wide {
    use super::{first_invalid, utf8_len_of_few, InvalidCodePoint};
    use std::arch::x86_64::*;

    /// Code points per step: four vectors of eight.
    pub(super) const STEP: usize = 32;

    /// [`super::append_utf8_of_code_points`]: a step of ASCII is narrowed and stored at once;
    /// in a step with a few other code points (prose with a symbol here and there) the ASCII
    /// between them is taken from the narrowed step and each of them is encoded alone; a step
    /// with more (a text in another script) is encoded by [`append_utf8_by_chunks`], as is
    /// the last part, shorter than a step.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn append_utf8(points: &[u32], out: &mut Vec<u8>) -> Result<(), InvalidCodePoint> {
        let start = out.len();
        let n = points.len();
        let high = _mm256_set1_epi32(!0x7F);
        let zero = _mm256_setzero_si256();
        // The packs below interleave the two 128-bit halves; this puts the bytes back in order.
        let order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
        // A bit per code point of `v` that is ASCII.
        let ascii_bits = |v: __m256i| {
            _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_and_si256(v, high), zero))) as u32
        };
        let fail = |out: &mut Vec<u8>, e: InvalidCodePoint, at: usize| {
            out.truncate(start);
            Err(InvalidCodePoint { index: at + e.index, ..e })
        };
        // Kept: the capacity is at least the length plus a byte per code point not yet
        // encoded plus a step (an ASCII step's store needs no check).
        out.reserve(n + STEP);
        let mut i = 0;
        while n - i >= STEP {
            let p = points.as_ptr().add(i) as *const __m256i;
            let v = [
                _mm256_loadu_si256(p),
                _mm256_loadu_si256(p.add(1)),
                _mm256_loadu_si256(p.add(2)),
                _mm256_loadu_si256(p.add(3)),
            ];
            let bytes = _mm256_permutevar8x32_epi32(
                _mm256_packus_epi16(_mm256_packus_epi32(v[0], v[1]), _mm256_packus_epi32(v[2], v[3])),
                order,
            );
            let any = _mm256_or_si256(_mm256_or_si256(v[0], v[1]), _mm256_or_si256(v[2], v[3]));
            if _mm256_testz_si256(any, high) != 0 {
                let len = out.len();
                // SAFETY: room kept above.
                _mm256_storeu_si256(out.as_mut_ptr().add(len) as *mut __m256i, bytes);
                out.set_len(len + STEP);
                i += STEP;
                continue;
            }
            let mut others =
                !(ascii_bits(v[0]) | ascii_bits(v[1]) << 8 | ascii_bits(v[2]) << 16 | ascii_bits(v[3]) << 24);
            if others.count_ones() as usize > STEP / 2 {
                if let Err(e) = super::append_utf8_by_chunks(&points[i..i + STEP], out) {
                    return fail(out, e, i);
                }
                out.reserve(n - i);
                i += STEP;
                continue;
            }
            // The narrowed step, then room to load a step from any of its positions.
            let mut narrowed = [0u8; 2 * STEP];
            _mm256_storeu_si256(narrowed.as_mut_ptr() as *mut __m256i, bytes);
            out.reserve(4 * STEP + (n - i));
            let dst = out.as_mut_ptr();
            let mut written = out.len();
            let mut from = 0;
            while others != 0 {
                let k = others.trailing_zeros() as usize;
                others &= others - 1;
                // The ASCII before it: a whole step stored, its first `k - from` bytes kept.
                // SAFETY: `narrowed` has a step past `from` (< STEP); room reserved above.
                _mm256_storeu_si256(
                    dst.add(written) as *mut __m256i,
                    _mm256_loadu_si256(narrowed.as_ptr().add(from) as *const __m256i),
                );
                written += k - from;
                let c = points[i + k];
                if super::is_invalid(c) {
                    return fail(out, InvalidCodePoint { index: k, value: c }, i);
                }
                // SAFETY: room reserved above; `c` is valid.
                written += super::encode_one(c, dst.add(written));
                from = k + 1;
            }
            // SAFETY: as above.
            _mm256_storeu_si256(
                dst.add(written) as *mut __m256i,
                _mm256_loadu_si256(narrowed.as_ptr().add(from) as *const __m256i),
            );
            written += STEP - from;
            // SAFETY: every byte below `written` was written.
            out.set_len(written);
            i += STEP;
        }
        if let Err(e) = super::append_utf8_by_chunks(&points[i..], out) {
            return fail(out, e, i);
        }
        Ok(())
    }

    /// [`super::utf8_len_of_code_points`].
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn utf8_len(points: &[u32]) -> Result<usize, InvalidCodePoint> {
        let high = _mm256_set1_epi32(!0x7F);
        let (b1, b2, b3) = (_mm256_set1_epi32(0x7F), _mm256_set1_epi32(0x7FF), _mm256_set1_epi32(0xFFFF));
        let (s_low, s_high, past) = (_mm256_set1_epi32(0xD7FF), _mm256_set1_epi32(0xE000), _mm256_set1_epi32(0x10FFFF));
        let mut len = 0;
        let mut at = 0;
        let mut steps = points.chunks_exact(STEP);
        for step in &mut steps {
            let p = step.as_ptr() as *const __m256i;
            let v = [
                _mm256_loadu_si256(p),
                _mm256_loadu_si256(p.add(1)),
                _mm256_loadu_si256(p.add(2)),
                _mm256_loadu_si256(p.add(3)),
            ];
            let any = _mm256_or_si256(_mm256_or_si256(v[0], v[1]), _mm256_or_si256(v[2], v[3]));
            len += STEP;
            if _mm256_testz_si256(any, high) == 0 {
                // Not all ASCII: one byte more per bound a code point lies above (a compare
                // gives -1 for "above"; signed, so a value from 2^31 on is negative, and invalid).
                let mut extra = _mm256_setzero_si256();
                let mut invalid = _mm256_setzero_si256();
                for c in v {
                    let above = _mm256_add_epi32(
                        _mm256_add_epi32(_mm256_cmpgt_epi32(c, b1), _mm256_cmpgt_epi32(c, b2)),
                        _mm256_cmpgt_epi32(c, b3),
                    );
                    extra = _mm256_sub_epi32(extra, above);
                    let surrogate = _mm256_and_si256(_mm256_cmpgt_epi32(c, s_low), _mm256_cmpgt_epi32(s_high, c));
                    let out_of_range =
                        _mm256_or_si256(_mm256_cmpgt_epi32(c, past), _mm256_cmpgt_epi32(_mm256_setzero_si256(), c));
                    invalid = _mm256_or_si256(invalid, _mm256_or_si256(surrogate, out_of_range));
                }
                if _mm256_testz_si256(invalid, invalid) == 0 {
                    return Err(first_invalid(step, at));
                }
                let mut lanes = [0u32; 8];
                _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, extra);
                len += lanes.iter().sum::<u32>() as usize;
            }
            at += STEP;
        }
        Ok(len + utf8_len_of_few(steps.remainder(), at)?)
    }

    /// [`super::last_index_of`].
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn last_index_of(haystack: &[u32], c: u32) -> Option<usize> {
        let wanted = _mm256_set1_epi32(c as i32);
        let mut end = haystack.len();
        while end >= STEP {
            let start = end - STEP;
            let p = haystack.as_ptr().add(start) as *const __m256i;
            let eq = |k: usize| _mm256_cmpeq_epi32(_mm256_loadu_si256(p.add(k)), wanted);
            let any = _mm256_or_si256(_mm256_or_si256(eq(0), eq(1)), _mm256_or_si256(eq(2), eq(3)));
            if _mm256_testz_si256(any, any) == 0 {
                return (start..end).rev().find(|&k| haystack[k] == c);
            }
            end = start;
        }
        haystack[..end].iter().rposition(|&x| x == c)
    }
}

/// Whether the [`CHUNK`] code points at `chunk` hold `c`.
///
/// # Safety
/// `chunk` must hold [`CHUNK`] code points.
#[cfg(target_arch = "x86_64")]
#[inline]
unsafe fn chunk_holds(chunk: *const u32, c: u32) -> bool {
    use std::arch::x86_64::*;
    let src = chunk as *const __m128i;
    let c = _mm_set1_epi32(c as i32);
    let eq = |k: usize| _mm_cmpeq_epi32(_mm_loadu_si128(src.add(k)), c);
    _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(eq(0), eq(1)), _mm_or_si128(eq(2), eq(3)))) != 0
}

/// [`chunk_holds`] without vector instructions.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
unsafe fn chunk_holds(chunk: *const u32, c: u32) -> bool {
    std::slice::from_raw_parts(chunk, CHUNK).contains(&c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn points(s: &str) -> Vec<u32> {
        s.chars().map(u32::from).collect()
    }

    /// The UTF-8 text of `points`, or the first code point UTF-8 cannot encode; the encoder
    /// without AVX2 must give the same (it is the whole encoder on CPUs without it).
    fn utf8_from_code_points(points: &[u32]) -> Result<String, InvalidCodePoint> {
        let mut out = b"kept".to_vec();
        let found = append_utf8_of_code_points(points, &mut out);
        let mut by_chunks = b"kept".to_vec();
        assert_eq!(append_utf8_by_chunks(points, &mut by_chunks), found);
        assert_eq!(out, by_chunks);
        found?;
        Ok(String::from_utf8(out[4..].to_vec()).expect("the encoder writes UTF-8"))
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

    #[test]
    fn the_length_alone_is_the_length_of_the_text() {
        for text in ["", "abc", "0123456789abcdeé0123456789abcdef\u{10FFFF}xyz", "× π ≤ 答案 😀 é"] {
            assert_eq!(utf8_len_of_code_points(&points(text)), Ok(text.len()));
        }
        let mut p = points("0123456789abcdef0123");
        p[18] = 0xDABC;
        assert_eq!(utf8_len_of_code_points(&p), Err(InvalidCodePoint { index: 18, value: 0xDABC }));
        p[18] = 0x41;
        p[5] = 0x110000;
        assert_eq!(utf8_len_of_code_points(&p), Err(InvalidCodePoint { index: 5, value: 0x110000 }));
    }

    #[test]
    fn the_last_occurrence_at_chunk_edges() {
        let needle = points("</think>");
        assert_eq!(rfind_code_points(&points("a</think>b</think>c"), &needle), Some(10));
        assert_eq!(rfind_code_points(&points("</think>"), &needle), Some(0));
        assert_eq!(rfind_code_points(&points("think>"), &needle), None);
        assert_eq!(rfind_code_points(&points("abc"), &[]), None);
        // The tag across every chunk boundary of a long text, and a decoy `>` after it.
        for at in 0..40 {
            let text = format!("{}</think>{}", "π".repeat(at), "x>".repeat(20));
            assert_eq!(rfind_code_points(&points(&text), &needle), Some(at), "at {at}");
        }
    }

    /// The SSE2 (or portable) scans and, where the CPU has it, the AVX2 ones, on the same input.
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
    fn both_lengths(points: &[u32]) -> Vec<Result<usize, InvalidCodePoint>> {
        let mut found = vec![utf8_len_by_chunks(points)];
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            found.push(unsafe { wide::utf8_len(points) });
        }
        found
    }

    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
    fn both_last_indices(haystack: &[u32], c: u32) -> Vec<Option<usize>> {
        let mut found = vec![last_index_by_chunks(haystack, c)];
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            found.push(unsafe { wide::last_index_of(haystack, c) });
        }
        found
    }

    #[test]
    fn every_scan_agrees_at_every_length() {
        // Lengths around both step sizes, a non-ASCII code point of each width at each place.
        for n in 0..70 {
            for (at, c) in [(0usize, 0x41u32), (n / 2, 0xE9), (n.saturating_sub(1), 0x7B54), (n / 3, 0x1F600)] {
                let mut p: Vec<u32> = (0..n as u32).map(|k| 0x30 + k % 40).collect();
                if at < n {
                    p[at] = c;
                }
                let text: String = p.iter().map(|&c| char::from_u32(c).unwrap()).collect();
                assert_eq!(utf8_from_code_points(&p).unwrap(), text, "n {n} at {at}");
                let expected = text.len();
                assert!(both_lengths(&p).iter().all(|&r| r == Ok(expected)), "n {n} at {at}");
                assert!(
                    both_last_indices(&p, c).iter().all(|&r| r == p.iter().rposition(|&x| x == c)),
                    "n {n} at {at}"
                );
            }
        }
        let mut p = vec![0x41; 64];
        p[40] = 0xDFFF;
        p[50] = 0x8000_0000;
        assert!(both_lengths(&p).iter().all(|&r| r == Err(InvalidCodePoint { index: 40, value: 0xDFFF })));
        // The encoder names it past a run of ASCII steps, and leaves the buffer as it was.
        assert_eq!(utf8_from_code_points(&p), Err(InvalidCodePoint { index: 40, value: 0xDFFF }));
        let mut out = b"before".to_vec();
        assert!(append_utf8_of_code_points(&p, &mut out).is_err());
        assert_eq!(out, b"before");
    }

    #[test]
    fn a_step_with_a_few_or_many_other_code_points() {
        // 0 to 32 code points of each width in a step of ASCII, spread or in a run, past a
        // first step, with a tail: the few are encoded one by one, the many by chunks.
        for width_example in ['é', '×', '😀'] {
            for count in 0..=32usize {
                for spread in [false, true] {
                    let mut p: Vec<u32> = (0..75u32).map(|k| 0x30 + k % 40).collect();
                    for j in 0..count {
                        let at = if spread { 32 + (j * 7) % 32 } else { 32 + j };
                        p[at] = u32::from(width_example);
                    }
                    let text: String = p.iter().map(|&c| char::from_u32(c).unwrap()).collect();
                    assert_eq!(utf8_from_code_points(&p).unwrap(), text, "{width_example} x{count} spread {spread}");
                    p[32 + (count * 5) % 32] = 0xDC00;
                    let bad = p.iter().position(|&c| c == 0xDC00).unwrap();
                    assert_eq!(utf8_from_code_points(&p), Err(InvalidCodePoint { index: bad, value: 0xDC00 }));
                }
            }
        }
    }

    proptest! {
        #[test]
        fn every_scan_finds_what_a_plain_loop_finds(values in proptest::collection::vec(any::<u32>(), 0..100), ascii in 0usize..100, c in 0u32..0x90) {
            let mut p: Vec<u32> = (0..ascii as u32).map(|k| 32 + k % 95).collect();
            p.extend(values.iter().map(|&v| if v % 3 == 0 { v } else { v % 0x90 }));
            let expected = p.iter().map(|&c| char::from_u32(c).map(char::len_utf8)).sum::<Option<usize>>();
            for found in both_lengths(&p) {
                match found {
                    Ok(len) => prop_assert_eq!(Some(len), expected),
                    Err(e) => prop_assert_eq!(Some(e.index), p.iter().position(|&c| char::from_u32(c).is_none())),
                }
            }
            for found in both_last_indices(&p, c) {
                prop_assert_eq!(found, p.iter().rposition(|&x| x == c));
            }
        }

        #[test]
        fn the_last_occurrence_is_what_std_finds(text in "[<>/thinkπ x]{0,80}", needle in "[<>/thinkπ]{1,4}") {
            let (p, n) = (points(&text), points(&needle));
            let expected = text.rfind(&needle).map(|b| text[..b].chars().count());
            prop_assert_eq!(rfind_code_points(&p, &n), expected);
        }

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
            prop_assert_eq!(utf8_len_of_code_points(&p).ok(), expected.as_ref().map(String::len));
            // Any u32 at all, past 2^31 included: counted or named like the encoder does.
            let mut raw: Vec<u32> = (0..ascii as u32).map(|k| 32 + k).collect();
            raw.extend(&values);
            let first_bad = raw.iter().position(|&c| char::from_u32(c).is_none());
            match utf8_len_of_code_points(&raw) {
                Ok(len) => prop_assert_eq!(Some(len), raw.iter().map(|&c| char::from_u32(c).map(char::len_utf8)).sum::<Option<usize>>()),
                Err(e) => prop_assert_eq!(Some(e.index), first_bad),
            }
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
