//! Mixed numbers written with a slash: `4 4/9` is 4 + 4/9 = 40/9, as `4\frac{4}{9}` is.
//!
//! Plain-text answers write mixed numbers this way ("The answer is 4 4/9."), and reading the
//! whole part alone would judge `4 4/9` equal to 4. Both the candidate lexer (prose) and the
//! answer lexer (equivalence) ask this module whether the digits they just read are the whole
//! part of a mixed number. The notation is read only where it cannot mean anything else:
//! - one line: the whole part and the fraction are separated by spaces or tabs only
//!   (`11\n5/6` is two values);
//! - a proper fraction of integer literals: `0 <= numerator < denominator`, no leading zeros
//!   (`11 6/6`, `11 7/6` and `4 4/0` are no mixed numbers, and stay unread);
//! - nothing glued after the denominator that would continue it (a digit, `.5`, `/`, `^`, `_`,
//!   a letter, `(`, `{`, `[`, `!`, a command other than text or spacing);
//! - nothing glued before the whole part that binds it more tightly than the mixed number's
//!   implicit addition (`11/10 4/9`, `11.0 4/9`, `x^2 1/2`, `2*3 1/4`, `x2 1/2`); a sign binds
//!   more loosely (`-3 1/4`, `2 - 3 1/4` hold the mixed number 3 1/4).

use std::ops::Range;

use crate::text::chars::char_before;

/// The fraction of a mixed number: where its numerator and denominator digits lie.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MixedFraction {
    pub numerator: Range<usize>,
    pub denominator: Range<usize>,
    /// One past the denominator.
    pub end: usize,
}

/// Commands that may follow a mixed number directly: text (units), spacing, closing delimiters.
const COMMANDS_AFTER: &[&str] =
    &["text", "mbox", "textrm", "mathrm", "quad", "qquad", "right", "end", "rangle", "rbrace"];

/// The proper fraction that makes the integer at `whole` (its digits) a mixed number, if any.
pub(crate) fn mixed_fraction_after(text: &str, whole: Range<usize>) -> Option<MixedFraction> {
    let bytes = text.as_bytes();
    let whole_end = whole.end;
    let digits =
        |from: usize| from + bytes.get(from..).map_or(0, |b| b.iter().take_while(|d| d.is_ascii_digit()).count());
    let gap = bytes.get(whole_end..)?.iter().take_while(|&&b| b == b' ' || b == b'\t').count();
    if gap == 0 {
        return None;
    }
    let numerator = whole_end + gap..digits(whole_end + gap);
    if numerator.is_empty() || bytes.get(numerator.end) != Some(&b'/') {
        return None;
    }
    let denominator = numerator.end + 1..digits(numerator.end + 1);
    if denominator.is_empty() || !ends_value(text, denominator.end) {
        return None;
    }
    let (num, den) = (&text[numerator.clone()], &text[denominator.clone()]);
    let leading_zero = |s: &str| s.len() > 1 && s.starts_with('0');
    if leading_zero(num) || leading_zero(den) || den == "0" {
        return None;
    }
    // Proper: compare the digit strings as numbers (any length).
    if (num.len(), num) >= (den.len(), den) || bound_before(text, whole.start) {
        return None;
    }
    Some(MixedFraction { end: denominator.end, numerator, denominator })
}

/// Whether the character right before `pos` binds the number there to what precedes it: an
/// operand (a letter, a digit, a closing bracket, a postfix such as `%` or `²`) or an operator
/// tighter than addition (`/`, `^`, `_`, `*`, `×`, `÷`, `·`), a decimal point or a colon.
fn bound_before(text: &str, pos: usize) -> bool {
    char_before(text, pos).is_some_and(|c| {
        c.is_alphanumeric()
            || matches!(
                c,
                '/' | '.'
                    | '^'
                    | '_'
                    | '*'
                    | ')'
                    | '}'
                    | ']'
                    | '\''
                    | '’'
                    | '%'
                    | '°'
                    | '×'
                    | '÷'
                    | '·'
                    | '⋅'
                    | '√'
                    | '!'
                    | '|'
                    | ':'
                    | '?'
                    | '—'
            )
    })
}

/// Whether nothing at `pos` continues the value before it.
fn ends_value(text: &str, pos: usize) -> bool {
    let rest = &text[pos..];
    let Some(c) = rest.chars().next() else { return true };
    match c {
        '0'..='9' | '/' | '^' | '_' | '(' | '{' | '[' | '!' | '*' | '\'' => false,
        '.' => !rest[1..].starts_with(|d: char| d.is_ascii_digit()),
        '\\' => {
            let name_len = rest[1..].bytes().take_while(u8::is_ascii_alphabetic).count();
            name_len == 0 || COMMANDS_AFTER.contains(&&rest[1..1 + name_len])
        }
        'π' | '√' => false,
        c => !c.is_alphanumeric(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The mixed number starting at the first digit of `text`, as (whole, numerator, denominator).
    fn read(text: &str) -> Option<(&str, &str, &str)> {
        let whole_end = text.bytes().take_while(u8::is_ascii_digit).count();
        let m = mixed_fraction_after(text, 0..whole_end)?;
        Some((&text[..whole_end], &text[m.numerator], &text[m.denominator]))
    }

    #[test]
    fn proper_fractions_after_a_space_make_mixed_numbers() {
        assert_eq!(read("4 4/9"), Some(("4", "4", "9")));
        assert_eq!(read("4 4/9."), Some(("4", "4", "9")));
        assert_eq!(read("11  5/6 cups"), Some(("11", "5", "6")));
        assert_eq!(read("4 0/9"), Some(("4", "0", "9")));
        assert_eq!(read("0 4/9,"), Some(("0", "4", "9")));
        assert_eq!(read("2 1/2\\text{ cm}"), Some(("2", "1", "2")));
        assert_eq!(read("2 99/100)"), Some(("2", "99", "100")));
    }

    #[test]
    fn what_is_glued_before_the_whole_part_decides() {
        let at = |text: &str, whole: Range<usize>| mixed_fraction_after(text, whole).is_some();
        assert!(at("-3 1/4", 1..2) && at("x = 3 1/4", 4..5) && at("2 - 3 1/4", 4..5) && at("(3 1/4)", 1..2));
        for (text, whole) in
            [("11/10 4/9", 3..5), ("11.0 4/9", 3..4), ("x^2 1/2", 2..3), ("2*3 1/4", 2..3), ("x2 1/2", 1..2)]
        {
            assert!(!at(text, whole), "{text:?}");
        }
    }

    #[test]
    fn anything_else_is_no_mixed_number() {
        for text in [
            "4/9", "4 4/0", "11 6/6", "11 7/6", "11\n5/6", "11\r\n5/6", "4 4/9x", "4 4/9.5", "4 4/9/2", "4 4/9^2",
            "4 4/9(x)", "4 04/9", "4 4/09", "4 4 /9", "4 4/ 9", "4 4/9\\pi", "4 4/9π", "4 4/9!", "12 34",
        ] {
            assert_eq!(read(text), None, "{text:?}");
        }
    }
}
