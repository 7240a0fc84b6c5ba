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

/// Number of code points in a UTF-8 byte slice (counts non-continuation bytes).
#[inline]
pub fn count_chars(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_mixed_width_text() {
        let text = "aé€😀b";
        let mut offs = vec![0, 1, 3, 6, 10, 11];
        bytes_to_chars_sorted(text, &mut offs);
        assert_eq!(offs, vec![0, 1, 2, 3, 4, 5]);
    }
}
