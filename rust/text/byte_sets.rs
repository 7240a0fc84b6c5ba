//! Finding the bytes of a small set in a text, sixteen bytes at a time.
//!
//! The anchor search asks of every sentence before its candidates are extracted whether it
//! holds a numeral or a mark of a fraction, and most sentences are long prose whose bytes are
//! none of those: a loop that tests each byte on its own spends several instructions per byte,
//! where a vector compare against each byte of the set, packed into a bit mask with
//! `pmovmskb`, spends about one and a half and only looks closer at the bytes that are in it.
//! On x86-64 (SSE2 is part of the base instruction set) the masks come from vector compares;
//! elsewhere from a plain loop that gives the same masks.

/// Whether `bytes` holds an ASCII digit.
pub fn has_ascii_digit(bytes: &[u8]) -> bool {
    let mut chunks = bytes.chunks_exact(16);
    for chunk in &mut chunks {
        if digit_mask(chunk.try_into().expect("16-byte chunk")) != 0 {
            return true;
        }
    }
    chunks.remainder().iter().any(u8::is_ascii_digit)
}

/// Calls `hit` with the offset of each byte of `bytes` that is one of `set`, in order, until
/// `hit` returns true; whether one did.
pub fn any_hit<const N: usize>(bytes: &[u8], set: [u8; N], mut hit: impl FnMut(usize) -> bool) -> bool {
    let mut chunks = bytes.chunks_exact(16);
    let mut base = 0;
    for chunk in &mut chunks {
        let mut mask = set_mask(chunk.try_into().expect("16-byte chunk"), &set);
        while mask != 0 {
            if hit(base + mask.trailing_zeros() as usize) {
                return true;
            }
            mask &= mask - 1;
        }
        base += 16;
    }
    chunks.remainder().iter().enumerate().any(|(k, b)| set.contains(b) && hit(base + k))
}

/// Bit `k` set when byte `k` of `chunk` is an ASCII digit.
#[inline(always)]
fn digit_mask(chunk: &[u8; 16]) -> u32 {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        // SAFETY: SSE2 is enabled in this build (the `cfg` above; every x86-64 target has it).
        unsafe { digit_mask_sse2(chunk) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    digit_mask_portable(chunk)
}

/// Bit `k` set when byte `k` of `chunk` is one of `set`.
#[inline(always)]
fn set_mask<const N: usize>(chunk: &[u8; 16], set: &[u8; N]) -> u32 {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        // SAFETY: SSE2 is enabled in this build (the `cfg` above; every x86-64 target has it).
        unsafe { set_mask_sse2(chunk, set) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    set_mask_portable(chunk, set)
}

/// # Safety
/// The CPU must have SSE2 (every x86-64 CPU has).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[target_feature(enable = "sse2")]
#[inline]
unsafe fn digit_mask_sse2(chunk: &[u8; 16]) -> u32 {
    use std::arch::x86_64::{__m128i, _mm_add_epi8, _mm_cmplt_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8};
    // The chunk is 16 readable bytes; the load is unaligned.
    let v = _mm_loadu_si128(chunk.as_ptr().cast::<__m128i>());
    // Unsigned `b - '0' < 10` as a signed compare: shift the range to start at -128.
    let digit = _mm_cmplt_epi8(_mm_add_epi8(v, _mm_set1_epi8((0x80 - b'0') as i8)), _mm_set1_epi8((0x80u8 + 10) as i8));
    _mm_movemask_epi8(digit) as u32 & 0xFFFF
}

/// # Safety
/// The CPU must have SSE2 (every x86-64 CPU has).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[target_feature(enable = "sse2")]
#[inline]
unsafe fn set_mask_sse2<const N: usize>(chunk: &[u8; 16], set: &[u8; N]) -> u32 {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8, _mm_setzero_si128,
    };
    // The chunk is 16 readable bytes; the load is unaligned.
    let v = _mm_loadu_si128(chunk.as_ptr().cast::<__m128i>());
    let mut any = _mm_setzero_si128();
    for &b in set {
        any = _mm_or_si128(any, _mm_cmpeq_epi8(v, _mm_set1_epi8(b as i8)));
    }
    _mm_movemask_epi8(any) as u32 & 0xFFFF
}

#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
fn digit_mask_portable(chunk: &[u8; 16]) -> u32 {
    chunk.iter().enumerate().fold(0, |m, (k, b)| m | u32::from(b.is_ascii_digit()) << k)
}

#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
fn set_mask_portable<const N: usize>(chunk: &[u8; 16], set: &[u8; N]) -> u32 {
    chunk.iter().enumerate().fold(0, |m, (k, b)| m | u32::from(set.contains(b)) << k)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SET: [u8; 5] = [b'/', b'e', 0x80, 0xC3, 0xFF];

    #[test]
    fn masks_flag_exactly_the_bytes_of_their_class() {
        // Every byte value at every position of a chunk, among bytes of every kind.
        let fill = [0u8, b'/', b'0', b'9', b'a', b'e', 0x7F, 0x80, 0xC3, 0xFF, b':', b'.'];
        for b in 0..=255u8 {
            for pos in 0..16 {
                let mut chunk = [0u8; 16];
                for (k, x) in chunk.iter_mut().enumerate() {
                    *x = fill[(k + usize::from(b)) % fill.len()];
                }
                chunk[pos] = b;
                let digits = chunk.iter().enumerate().fold(0, |m, (k, x)| m | u32::from(x.is_ascii_digit()) << k);
                let in_set = chunk.iter().enumerate().fold(0, |m, (k, x)| m | u32::from(SET.contains(x)) << k);
                assert_eq!(digit_mask(&chunk), digits, "{b:#x} at {pos}");
                assert_eq!(digit_mask_portable(&chunk), digits, "{b:#x} at {pos}");
                assert_eq!(set_mask(&chunk, &SET), in_set, "{b:#x} at {pos}");
                assert_eq!(set_mask_portable(&chunk, &SET), in_set, "{b:#x} at {pos}");
            }
        }
    }

    #[test]
    fn scans_visit_every_hit_in_order_across_chunks_and_the_tail() {
        for len in 0..70 {
            let bytes: Vec<u8> = (0..len).map(|k| [b'x', b'/', b'7', 0xC3, b'e', b' '][k * 7 % 6]).collect();
            assert_eq!(has_ascii_digit(&bytes), bytes.contains(&b'7'), "{len}");
            let want: Vec<usize> = (0..len).filter(|&k| SET.contains(&bytes[k])).collect();
            let mut seen = Vec::new();
            assert!(!any_hit(&bytes, SET, |k| {
                seen.push(k);
                false
            }));
            assert_eq!(seen, want, "{len}");
            // Stops at the first hit the callback accepts.
            if let Some(&third) = want.get(2) {
                let mut calls = 0;
                assert!(any_hit(&bytes, SET, |k| {
                    calls += 1;
                    k == third
                }));
                assert_eq!(calls, 3);
            }
        }
    }
}
