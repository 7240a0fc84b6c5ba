//! Character classes shared by the sentence splitter, the math-region scanner and the cue
//! matcher. They are defined once, here, because the pure-Python reference
//! (`apr_fast._reference.segmentation`) must use exactly the same classes for the parity test.
//!
//! - whitespace: Unicode `White_Space` (`char::is_whitespace`: `\t \n \x0b \x0c \r`, space,
//!   U+0085, U+00A0, U+1680, U+2000..U+200A, U+2028, U+2029, U+202F, U+205F, U+3000). Note that
//!   Python's `str.isspace` also accepts U+001C..U+001F; the reference spells the class out.
//! - line break: `\n` or `\r` only (a `\r\n` pair is two line-break characters, which is harmless
//!   because a line break only ends a sentence and the whitespace after it is absorbed).
//! - word character (cue and abbreviation boundaries): `char::is_alphanumeric` (Unicode
//!   `Alphabetic` or a numeric general category `Nd`/`Nl`/`No`) or `_`.
//!
//! Every helper takes byte offsets and is total: an offset past the end or off a char boundary
//! yields `None`/`false` rather than a panic.

/// Unicode whitespace.
#[inline]
pub fn is_space(c: char) -> bool {
    c.is_whitespace()
}

/// A character that glues a cue or an abbreviation to its neighbour: letters, digits, `_`.
#[inline]
pub fn is_word(c: char) -> bool {
    let u = c as usize;
    if u < 0x80 {
        c == '_' || c.is_ascii_alphanumeric()
    } else if u < WORD_TABLE_END {
        word_table()[u / 64] >> (u % 64) & 1 == 1
    } else {
        c.is_alphanumeric()
    }
}

/// Characters below this code point are classified by [`word_table`].
const WORD_TABLE_END: usize = 0x3000;

/// Bit `u % 64` of word `u / 64` is set when U+`u` is a word character (`char::is_alphanumeric`),
/// for every code point below [`WORD_TABLE_END`]. Why: outside ASCII, `is_alphanumeric` searches
/// two Unicode tables (`Alphabetic`, then the numeric categories), some 300 instructions per call,
/// and traces are full of `²`, `√`, `≈`, `π`, `≤`, `₂`, all below U+3000 (96% of their non-ASCII
/// characters). The table is computed once, from `is_alphanumeric` itself, so it cannot disagree
/// with it; building it takes about a millisecond, on first use.
fn word_table() -> &'static [u64; WORD_TABLE_END / 64] {
    static TABLE: std::sync::OnceLock<[u64; WORD_TABLE_END / 64]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = [0u64; WORD_TABLE_END / 64];
        for (u, c) in (0..WORD_TABLE_END as u32).filter_map(|u| Some((u as usize, char::from_u32(u)?))) {
            if c == '_' || c.is_alphanumeric() {
                table[u / 64] |= 1 << (u % 64);
            }
        }
        table
    })
}

/// `\n` or `\r`.
#[inline]
pub fn is_line_break_byte(b: u8) -> bool {
    b == b'\n' || b == b'\r'
}

/// The character starting at byte `i`.
#[inline]
pub fn char_at(text: &str, i: usize) -> Option<char> {
    text.get(i..).and_then(|rest| rest.chars().next())
}

/// The character ending at byte `i`.
#[inline]
pub fn char_before(text: &str, i: usize) -> Option<char> {
    text.get(..i).and_then(|head| head.chars().next_back())
}

/// Whether the character starting at byte `i` is whitespace (false at the end of the text).
#[inline]
pub fn space_at(text: &str, i: usize) -> bool {
    match text.as_bytes().get(i) {
        // ASCII fast path: the six ASCII White_Space characters.
        Some(&b) if b < 0x80 => is_ascii_space_byte(b),
        Some(_) => char_at(text, i).is_some_and(is_space),
        None => false,
    }
}

/// Byte length of the UTF-8 sequence that starts with byte `b` (1 for a stray continuation byte,
/// which cannot occur in a `&str` at a char boundary).
#[inline]
pub fn utf8_len(b: u8) -> usize {
    match b {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xff => 4,
        _ => 1,
    }
}

/// Whether `b` is one of the six ASCII White_Space characters.
#[inline]
fn is_ascii_space_byte(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// First byte offset `>= i` that does not start a whitespace character (or `text.len()`).
#[inline(always)]
pub fn skip_space(text: &str, mut i: usize) -> usize {
    let bytes = text.as_bytes();
    // ASCII fast path: the runs after a sentence are nearly always `' '` or `"\n"` runs.
    while let Some(&b) = bytes.get(i) {
        if is_ascii_space_byte(b) {
            i += 1;
        } else if b < 0x80 || !space_at(text, i) {
            return i;
        } else {
            i += utf8_len(b);
        }
    }
    i.min(bytes.len())
}

/// Smallest offset `j` with `floor <= j <= i` such that `text[j..i]` is all whitespace.
#[inline(always)]
pub fn trim_space_back(text: &str, mut i: usize, floor: usize) -> usize {
    let bytes = text.as_bytes();
    while i > floor {
        // ASCII fast path; a byte >= 0x80 ends a multi-byte character, decoded in full.
        match bytes.get(i - 1) {
            Some(&b) if b < 0x80 => {
                if !is_ascii_space_byte(b) {
                    break;
                }
                i -= 1;
            }
            _ => match char_before(text, i) {
                Some(c) if is_space(c) => i -= c.len_utf8(),
                _ => break,
            },
        }
    }
    i
}

/// True when no word character touches byte offset `i` from the left.
#[inline]
pub fn word_boundary_before(text: &str, i: usize) -> bool {
    !char_before(text, i).is_some_and(is_word)
}

/// True when no word character touches byte offset `i` from the right.
#[inline]
pub fn word_boundary_after(text: &str, i: usize) -> bool {
    !char_at(text, i).is_some_and(is_word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_matches_unicode_white_space() {
        for c in ['\t', '\n', '\u{b}', '\u{c}', '\r', ' ', '\u{85}', '\u{a0}', '\u{2028}', '\u{3000}'] {
            assert!(is_space(c), "{c:?}");
        }
        // Python's str.isspace() says yes to the information separators; we do not.
        for c in ['\u{1c}', '\u{1f}', '\u{200b}', 'a', '\0'] {
            assert!(!is_space(c), "{c:?}");
        }
    }

    #[test]
    fn word_characters_are_alphanumeric_or_underscore() {
        // Every code point below the table's end and a sample above it (the table is the fast
        // path, `char::is_alphanumeric` the definition).
        let above = (WORD_TABLE_END as u32..0x11_0000).step_by(7);
        for c in (0..WORD_TABLE_END as u32).chain(above).filter_map(char::from_u32) {
            assert_eq!(is_word(c), c == '_' || c.is_alphanumeric(), "{c:?} U+{:04X}", c as u32);
        }
        for c in ['a', 'Z', '0', '_', 'é', '²', 'π', '₂', 'ℝ', '①', '日', '𝑥'] {
            assert!(is_word(c), "{c:?}");
        }
        for c in [' ', '-', '\'', '’', '√', '≈', '°', '×', '\u{a0}', '。', '😀'] {
            assert!(!is_word(c), "{c:?}");
        }
    }

    #[test]
    fn helpers_are_total() {
        let t = "aé b";
        assert_eq!(char_at(t, 2), None); // inside 'é'
        assert_eq!(char_before(t, 2), None);
        assert_eq!(char_at(t, 99), None);
        assert!(!space_at(t, 99));
        assert_eq!(skip_space(t, 3), 4);
        assert_eq!(trim_space_back(t, 4, 0), 3);
        assert_eq!(trim_space_back("   ", 3, 0), 0);
        assert!(word_boundary_before(t, 0));
        assert!(!word_boundary_after(t, 0));
        assert!(word_boundary_after(t, 3));
    }
}
