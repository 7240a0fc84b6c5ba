//! The GPT-2 byte <-> unicode table used by byte-level BPE (GPT-2, Qwen, Llama 3, DeepSeek).
//!
//! Byte-level vocabularies spell every byte as a printable character so that BPE pieces are
//! plain strings: the 188 printable Latin-1 bytes stand for themselves and the other 68 bytes
//! (controls, space, DEL, NBSP, soft hyphen) are shifted to U+0100..=U+0143 in byte order.
//! So `Ġ` (U+0120) is the space byte 0x20, `Ċ` (U+010A) the newline 0x0A.

/// The byte a byte-level character stands for, or `None` for characters outside the table.
pub fn char_to_byte(c: char) -> Option<u8> {
    let cp = u32::from(c);
    match cp {
        0x21..=0x7E | 0xA1..=0xAC | 0xAE..=0xFF => Some(cp as u8),
        // The 68 non-printable bytes in ascending order: 0x00..=0x20, 0x7F..=0xA0, 0xAD.
        0x100..=0x120 => Some((cp - 0x100) as u8),
        0x121..=0x142 => Some((cp - 0x121 + 0x7F) as u8),
        0x143 => Some(0xAD),
        _ => None,
    }
}

/// The character a byte stands for (the forward direction of [`char_to_byte`], as GPT-2's
/// `bytes_to_unicode` builds it): `Ġ` for the space.
pub fn byte_to_char(b: u8) -> char {
    let printable = |x: u8| matches!(x, 0x21..=0x7E | 0xA1..=0xAC | 0xAE..=0xFF);
    if printable(b) {
        return char::from(b);
    }
    let rank = (0..b).filter(|&x| !printable(x)).count() as u32;
    char::from_u32(0x100 + rank).unwrap_or(char::REPLACEMENT_CHARACTER)
}

/// Appends the bytes a token contributes under the `ByteLevel` decoder, exactly as `tokenizers`
/// does it: if every character of the token is in the table, the bytes they stand for; otherwise
/// (an added token such as `<｜end▁of▁sentence｜>`) the token's own UTF-8 bytes, unchanged.
pub fn append_piece_bytes(piece: &str, out: &mut Vec<u8>) {
    let start = out.len();
    for c in piece.chars() {
        match char_to_byte(c) {
            Some(b) => out.push(b),
            None => {
                out.truncate(start);
                out.extend_from_slice(piece.as_bytes());
                return;
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Spells arbitrary bytes as a byte-level piece.
    pub(crate) fn spell(bytes: &[u8]) -> String {
        bytes.iter().map(|&b| byte_to_char(b)).collect()
    }

    #[test]
    fn table_is_a_bijection_on_all_256_bytes() {
        let mut seen = [false; 256];
        for b in 0..=255u8 {
            let c = byte_to_char(b);
            assert_eq!(char_to_byte(c), Some(b), "byte {b:#04x} via {c:?}");
            assert!(!seen[usize::from(b)]);
            seen[usize::from(b)] = true;
        }
        assert_eq!(byte_to_char(b' '), 'Ġ');
        assert_eq!(byte_to_char(b'\n'), 'Ċ');
        assert_eq!(char_to_byte('\u{144}'), None);
        assert_eq!(char_to_byte(' '), None);
    }

    fn piece_bytes(piece: &str) -> Vec<u8> {
        let mut out = b"prefix".to_vec();
        append_piece_bytes(piece, &mut out);
        assert!(out.starts_with(b"prefix"));
        out.split_off(6)
    }

    #[test]
    fn pieces_outside_the_table_keep_their_own_bytes() {
        assert_eq!(piece_bytes("Ġhello"), b" hello");
        assert_eq!(piece_bytes("</think>"), b"</think>");
        assert_eq!(piece_bytes("<｜end▁of▁sentence｜>"), "<｜end▁of▁sentence｜>".as_bytes());
        assert_eq!(piece_bytes("Ġ▁"), "Ġ▁".as_bytes());
        assert_eq!(piece_bytes(&spell("é".as_bytes())), "é".as_bytes());
    }
}
