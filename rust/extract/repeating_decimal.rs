//! Repeating decimals: `0.\overline{3}` and `0.1\overline{6}` (the notation of the MATH
//! benchmark), `0.\dot{3}`, and `0.333...` or `0.1212…` where the digits before the ellipsis
//! repeat.
//!
//! An ellipsis after a decimal means "the digits go on". It states a repeating decimal only
//! when the digits show the period: one digit written at least three times (`0.333...`,
//! `0.1666...`) or a block of two to six digits written at least twice (`0.1212...`,
//! `0.142857142857...`). Any other ellipsis truncates (`3.14...`, `1.4142...`) and is left to
//! the callers, who read the decimal as written. Both the candidate lexer and the answer
//! lexer ask this module; the answer lexer turns the digits into the exact fraction
//! ([`RepeatingDecimal::fraction`]).

use std::ops::Range;

use num_bigint::BigInt;
use num_traits::{One, Zero};

/// A repeating decimal `int.fixed(period)(period)...`: where its digit groups lie.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RepeatingDecimal {
    /// The digits after the point that do not repeat (possibly empty).
    pub fixed: Range<usize>,
    /// The repeating block.
    pub period: Range<usize>,
    /// One past the notation (the closing brace of `\overline{..}`, the ellipsis).
    pub end: usize,
}

/// The longest repeating block read; longer periods are written with `\overline`.
const MAX_ELLIPSIS_PERIOD: usize = 6;
/// Digit groups longer than this are not read (the value would be absurdly large to build).
const MAX_DIGITS: usize = 256;

/// Ellipses that may follow the digits.
pub(crate) const ELLIPSES: &[&str] = &["...", "…", "\\ldots", "\\dots", "\\cdots"];

/// The repeating decimal whose integer digits end at `int_end` (where a `.` must follow).
pub(crate) fn repeating_decimal_after(text: &str, int_end: usize) -> Option<RepeatingDecimal> {
    let bytes = text.as_bytes();
    if bytes.get(int_end) != Some(&b'.') {
        return None;
    }
    let digits_end = |from: usize| from + bytes[from..].iter().take_while(|d| d.is_ascii_digit()).count();
    let fixed = int_end + 1..digits_end(int_end + 1);
    if fixed.len() > MAX_DIGITS {
        return None;
    }
    let rest = &text[fixed.end..];
    for command in ["\\overline", "\\dot"] {
        if let Some(after) = rest.strip_prefix(command) {
            // `\overline{3}` or `\dot{3}`, or one undelimited digit: `\overline3`.
            let open = fixed.end + command.len();
            let (period, end) = match after.as_bytes().first() {
                Some(b'{') => {
                    let period = open + 1..digits_end(open + 1);
                    if bytes.get(period.end) != Some(&b'}') {
                        return None;
                    }
                    let end = period.end + 1;
                    (period, end)
                }
                Some(d) if d.is_ascii_digit() => (open..open + 1, open + 1),
                _ => return None,
            };
            let single_digit_only = command == "\\dot";
            if period.is_empty() || period.len() > MAX_DIGITS || (single_digit_only && period.len() != 1) {
                return None;
            }
            return Some(RepeatingDecimal { fixed, period, end });
        }
    }
    let ellipsis = ELLIPSES.iter().find(|e| rest.starts_with(**e))?;
    let digits = &text[fixed.clone()];
    let p = (1..=MAX_ELLIPSIS_PERIOD).find(|&p| {
        let copies = if p == 1 { 3 } else { 2 };
        digits.len() >= p * copies && {
            let block = &digits[digits.len() - p..];
            (1..copies).all(|k| &digits[digits.len() - (k + 1) * p..digits.len() - k * p] == block)
        }
    })?;
    Some(RepeatingDecimal {
        fixed: fixed.start..fixed.end - p,
        period: fixed.end - p..fixed.end,
        end: fixed.end + ellipsis.len(),
    })
}

impl RepeatingDecimal {
    /// The exact value of the digits after the point, as numerator and denominator (not
    /// reduced): `0.1(6)` is (16 - 1) / 90.
    pub fn fraction(&self, text: &str) -> (BigInt, BigInt) {
        let (fixed, period) = (&text[self.fixed.clone()], &text[self.period.clone()]);
        let number = |s: &str| if s.is_empty() { BigInt::zero() } else { s.parse::<BigInt>().unwrap_or_default() };
        let ten = BigInt::from(10u8);
        let numerator = number(&format!("{fixed}{period}")) - number(fixed);
        let denominator = ten.pow(fixed.len() as u32) * (ten.pow(period.len() as u32) - BigInt::one());
        (numerator, denominator)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (fixed digits, period digits, rest of the text) of the repeating decimal in `text`.
    fn read(text: &str) -> Option<(&str, &str, &str)> {
        let int_end = text.bytes().take_while(u8::is_ascii_digit).count();
        let r = repeating_decimal_after(text, int_end)?;
        Some((&text[r.fixed], &text[r.period], &text[r.end..]))
    }

    #[test]
    fn overline_and_dot_mark_the_period() {
        assert_eq!(read("0.\\overline{3}"), Some(("", "3", "")));
        assert_eq!(read("0.1\\overline{6} cm"), Some(("1", "6", " cm")));
        assert_eq!(read("1.\\overline{09}"), Some(("", "09", "")));
        assert_eq!(read("0.\\overline3"), Some(("", "3", "")));
        assert_eq!(read("0.\\dot{3}"), Some(("", "3", "")));
        assert_eq!(read("0.\\dot{34}"), None);
        assert_eq!(read("0.\\overline{}"), None);
        assert_eq!(read("0.\\overline{x}"), None);
    }

    #[test]
    fn an_ellipsis_repeats_only_digits_that_show_their_period() {
        assert_eq!(read("0.333..."), Some(("33", "3", "")));
        assert_eq!(read("0.1666…"), Some(("166", "6", "")));
        assert_eq!(read("0.1212\\ldots"), Some(("12", "12", "")));
        assert_eq!(read("0.142857142857..."), Some(("142857", "142857", "")));
        assert_eq!(read("0.9999..."), Some(("999", "9", "")));
        for truncated in ["3.14...", "1.4142...", "0.33...", "2.71828...", "0.5...", "0.1234...", "0.333", "0.333.."] {
            assert_eq!(read(truncated), None, "{truncated:?}");
        }
    }

    #[test]
    fn fractions_are_exact() {
        let value = |text: &str| {
            let int_end = text.bytes().take_while(u8::is_ascii_digit).count();
            let (n, d) = repeating_decimal_after(text, int_end).unwrap().fraction(text);
            num_rational::BigRational::new(n, d)
        };
        let q = |n: i64, d: i64| num_rational::BigRational::new(n.into(), d.into());
        assert_eq!(value("0.\\overline{3}"), q(1, 3));
        assert_eq!(value("0.1\\overline{6}"), q(1, 6));
        assert_eq!(value("0.\\overline{142857}"), q(1, 7));
        assert_eq!(value("0.\\overline{09}"), q(1, 11));
        assert_eq!(value("0.1666..."), q(1, 6));
        assert_eq!(value("0.9999..."), q(1, 1));
        assert_eq!(value("0.436\\overline{7}"), q(3931, 9000));
    }
}
