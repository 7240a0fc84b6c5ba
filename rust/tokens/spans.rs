//! Token ends from the `(start, end)` spans a tokenizer reports for its tokens.
//!
//! HF `tokenizers` gives every token of an encoding the character span it covers
//! (`Encoding.offsets`, `offset_mapping`). A byte-level token may hold only some bytes of a
//! character (`²`, an emoji, a flag, a CJK character), and its span then covers the whole
//! character: `" 🇫"` splits into a token with the space and the first bytes of `🇫`, span
//! `(25, 27)`, and a token with the rest, span `(26, 27)`; `😀` may come as three tokens that
//! each report `(1, 2)`. Special tokens added by a post-processor report `(0, 0)`.
//! [`token_ends_from_spans`] applies the rule of [`super::Decoded`] instead: a character
//! belongs to the token holding its last byte.

/// Where each token ends, from its `(start, end)` span (characters for HF): where the next
/// token's span is not empty and starts inside this one, this token holds only the first bytes
/// of that character and ends where the character starts. Ends never decrease.
pub fn token_ends_from_spans(spans: &[(usize, usize)]) -> Vec<usize> {
    let mut ends = Vec::with_capacity(spans.len());
    let mut last = 0;
    for (i, &(start, end)) in spans.iter().enumerate() {
        let own_end = match spans.get(i + 1) {
            Some(&(next_start, next_end)) if next_end > next_start && next_start >= start => end.min(next_start),
            _ => end,
        };
        last = last.max(own_end);
        ends.push(last);
    }
    ends
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_split_character_belongs_to_its_last_token() {
        // "x²": "x", then `²` in two byte-level tokens that both report span 1..2.
        assert_eq!(token_ends_from_spans(&[(0, 1), (1, 2), (1, 2)]), vec![1, 1, 2]);
        // Three tokens for one emoji.
        assert_eq!(token_ends_from_spans(&[(0, 1), (1, 2), (1, 2), (1, 2), (2, 3)]), vec![1, 1, 1, 2, 3]);
        // A space and the first bytes of a flag letter, then the rest of it.
        assert_eq!(token_ends_from_spans(&[(24, 25), (25, 27), (26, 27), (27, 28)]), vec![25, 26, 27, 28]);
    }

    #[test]
    fn empty_spans_move_nothing_and_ends_never_step_back() {
        // A special token reporting (0, 0) after text, and empty spans repeated.
        assert_eq!(token_ends_from_spans(&[(0, 3), (0, 0), (3, 5), (5, 5), (5, 5)]), vec![3, 3, 5, 5, 5]);
        assert_eq!(token_ends_from_spans(&[(0, 0), (0, 2)]), vec![0, 2]);
        assert_eq!(token_ends_from_spans(&[]), Vec::<usize>::new());
    }
}
