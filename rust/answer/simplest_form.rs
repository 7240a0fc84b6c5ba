//! Whether an answer is written in simplest form: the forms that a simplified numeric answer
//! does not use, counted in the text as written (a candidate's own text, or a reference's
//! canonical form, [`super::Answer::canonical`]).
//!
//! Three are counted, each where it is certain from the digits alone:
//! - a fraction of two integers that is not in lowest terms (`\frac{8}{32}`, `8/32`, `6/3`,
//!   `\frac{5}{1}`, `5047 ÷ 63`);
//! - the square root of an integer with a square factor (`\sqrt{117}` = `3\sqrt{13}`,
//!   `\sqrt{16}`, `sqrt(8)`, `√117`);
//! - a square root in a denominator (`\frac{1}{\sqrt{3}}`, `1/sqrt(3)`, `1/(2√3)`).
//!
//! Read the written text, not a normal form: normalization writes a repeating decimal
//! `0.\overline{3}` as the fraction `3/9`, which its writer did not write.
//!
//! The anchor search reads the count: a candidate equal to the final answer but with more of
//! these forms than the final answer is a step on the way to it ("So distance = √117." before
//! "√117 = 3√13"), not the answer stated.

use super::numeric::gcd;

/// Integers with more digits than this are not read (no trial division on huge numbers).
const MAX_DIGITS: usize = 15;

const FRACTION_COMMANDS: [&str; 4] = ["\\frac", "\\dfrac", "\\tfrac", "\\cfrac"];

/// How many forms of `text` a simplest form would not have (see the module docs). Linear in
/// the length of `text`: brackets and roots are looked up in a [`Layout`] read once.
pub fn unreduced_forms(text: &str) -> usize {
    let b = text.as_bytes();
    let layout = Layout::of(text);
    let mut count = 0;
    let mut i = 0;
    while i < b.len() {
        if !text.is_char_boundary(i) {
            i += 1;
            continue;
        }
        let rest = &text[i..];
        if let Some(command) = FRACTION_COMMANDS.iter().find(|c| rest.starts_with(**c)) {
            let numerator = layout.argument(text, i + command.len(), false);
            let denominator = numerator.as_ref().and_then(|n| layout.argument(text, n.end, false));
            if let (Some(n), Some(d)) = (numerator, denominator) {
                let reduces = reducible(&text[n.content], &text[d.content.clone()]);
                count += usize::from(reduces) + usize::from(layout.holds_root(d.content));
            }
            i += command.len();
            continue;
        }
        if let Some(len) = root_command_len(rest) {
            let radicand = layout.argument(text, i + len, true).map(|a| &text[a.content]);
            // An integer radicand, perhaps in parentheses (`√(117)`, `sqrt((8))`); a longer one
            // is not trimmed (nested roots would be trimmed once per level).
            let integer = radicand.filter(|r| r.len() <= 2 * MAX_DIGITS).map(|r| r.trim_matches(['(', ')']));
            count += usize::from(integer.is_some_and(has_square_factor));
            i += len;
            continue;
        }
        let division = match b[i] {
            b'/' => Some(1),
            _ if rest.starts_with('÷') => Some('÷'.len_utf8()),
            _ if rest.starts_with("\\div") && !rest[4..].starts_with(|c: char| c.is_ascii_alphabetic()) => Some(4),
            _ => None,
        };
        match division {
            Some(len) => {
                let after = skip_spaces(text, i + len);
                let group = (b.get(after) == Some(&b'(')).then(|| layout.closing(after)).flatten();
                let denominator_root = root_command_len(&text[after..]).is_some()
                    || group.is_some_and(|close| layout.holds_root(after + 1..close));
                count += usize::from(denominator_root);
                if let (Some(n), Some(d)) = (integer_before(text, i), integer_after(text, i + len)) {
                    count += usize::from(reducible(n, d));
                }
                i += len;
            }
            None => i += rest.chars().next().map_or(1, char::len_utf8),
        }
    }
    count
}

/// One argument of a command.
struct Argument {
    content: std::ops::Range<usize>,
    end: usize,
}

const NONE: usize = usize::MAX;

/// Where each bracket of a text closes and where its roots are, each read in one pass, so
/// that [`unreduced_forms`] looks them up in constant time (a nested `\frac{\frac{...` or
/// `1/(1/(...` is read once, not once per level).
struct Layout {
    /// The index of the `}` or `)` that closes the `{` or `(` at each index (`NONE` where
    /// none does, or where no bracket opens). A backslash escapes the next byte (`\{`).
    close: Vec<usize>,
    /// The end of the first root (`sqrt`, `√`) that starts at or after each index.
    next_root_end: Vec<usize>,
}

impl Layout {
    fn of(text: &str) -> Layout {
        let b = text.as_bytes();
        let mut close = vec![NONE; b.len()];
        let (mut braces, mut parens) = (Vec::new(), Vec::new());
        let mut k = 0;
        while k < b.len() {
            match b[k] {
                b'\\' => k += 1,
                b'{' => braces.push(k),
                b'(' => parens.push(k),
                b'}' => close_last(&mut braces, &mut close, k),
                b')' => close_last(&mut parens, &mut close, k),
                _ => {}
            }
            k += 1;
        }
        let mut next_root_end = vec![NONE; b.len() + 1];
        for k in (0..b.len()).rev() {
            next_root_end[k] = match &b[k..] {
                rest if rest.starts_with(b"sqrt") => k + 4,
                rest if rest.starts_with("√".as_bytes()) => k + "√".len(),
                _ => next_root_end[k + 1],
            };
        }
        Layout { close, next_root_end }
    }

    /// The index of the bracket closing the one at `at`, if a bracket opens there and closes.
    fn closing(&self, at: usize) -> Option<usize> {
        self.close.get(at).copied().filter(|&c| c != NONE)
    }

    /// Whether a root lies wholly inside `range`.
    fn holds_root(&self, range: std::ops::Range<usize>) -> bool {
        self.next_root_end.get(range.start).is_some_and(|&end| end <= range.end)
    }

    /// The argument that starts at `from` (after spaces): a `{...}` group, else one digit
    /// (`\frac84`) or, with `digit_run`, every digit (`\sqrt12` is `\sqrt{12}`, `sqrt 8`), or
    /// a `(...)` group (`sqrt(8)`, `√(8)`).
    fn argument(&self, text: &str, from: usize, digit_run: bool) -> Option<Argument> {
        let start = skip_spaces(text, from);
        let rest = &text[start..];
        let group = rest.starts_with('{') || (digit_run && rest.starts_with('('));
        if group {
            let close = self.closing(start)?;
            return Some(Argument { content: start + 1..close, end: close + 1 });
        }
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let len = if digit_run { digits } else { digits.min(1) };
        (len > 0).then(|| Argument { content: start..start + len, end: start + len })
    }
}

/// Closes the innermost open bracket of `open` (if any) at `at`.
fn close_last(open: &mut Vec<usize>, close: &mut [usize], at: usize) {
    if let Some(k) = open.pop() {
        close[k] = at;
    }
}

/// The index of the first byte at or after `from` that is not whitespace.
fn skip_spaces(text: &str, from: usize) -> usize {
    from + text[from..].len() - text[from..].trim_start().len()
}

/// The length of `\sqrt`, `sqrt` or `√` at the start of `text` (not `\sqrt[3]`, a cube root).
fn root_command_len(text: &str) -> Option<usize> {
    let len = ["\\sqrt", "sqrt", "√"].iter().find(|c| text.starts_with(**c))?.len();
    (!text[len..].starts_with('[')).then_some(len)
}

fn is_integer(text: &str) -> bool {
    !text.is_empty() && text.len() <= MAX_DIGITS && text.bytes().all(|c| c.is_ascii_digit())
}

/// A digit run that is a whole operand: not part of a decimal, a power, an index, a radicand or
/// a longer name (`2^3/4`, `0.5/2`, `x_2/4`, `(8)/32`, `√2/2`, `\sqrt 2/2` are not read).
fn integer_before(text: &str, slash: usize) -> Option<&str> {
    let b = text.as_bytes();
    let end = slash - b[..slash].iter().rev().take_while(|c| **c == b' ').count();
    let start = end - b[..end].iter().rev().take_while(|c| c.is_ascii_digit()).count();
    let standalone =
        start == 0 || !matches!(b[start - 1], b'.' | b'^' | b'_' | b'}' | b')' | b'!' | b'a'..=b'z' | b'A'..=b'Z');
    let before = text[..start].trim_end();
    let radicand = before.ends_with("sqrt") || before.ends_with('√');
    (start < end && standalone && !radicand && is_integer(&text[start..end])).then(|| &text[start..end])
}

fn integer_after(text: &str, from: usize) -> Option<&str> {
    let b = text.as_bytes();
    let start = from + b[from..].iter().take_while(|c| **c == b' ').count();
    let end = start + b[start..].iter().take_while(|c| c.is_ascii_digit()).count();
    let standalone = end == b.len() || !matches!(b[end], b'.' | b'^' | b'_' | b'!' | b'{' | b'(');
    (start < end && standalone && is_integer(&text[start..end])).then(|| &text[start..end])
}

/// Whether `numerator / denominator`, both digit strings, is not in lowest terms.
fn reducible(numerator: &str, denominator: &str) -> bool {
    let (Some(n), Some(d)) = (parse(numerator), parse(denominator)) else { return false };
    d == 1 || (d != 0 && n != 0 && gcd(n, d) > 1)
}

/// Whether the integer `radicand` is divisible by a square greater than 1 (`117` = 9 · 13,
/// `16`). Trial division up to the cube root finds every square factor p² with p below it;
/// what is left then has at most two prime factors above the cube root, so it is a square
/// factor itself exactly when it is a perfect square.
fn has_square_factor(radicand: &str) -> bool {
    let Some(mut n) = parse(radicand) else { return false };
    if n < 4 {
        return false;
    }
    let mut p = 2u64;
    while p.saturating_mul(p).saturating_mul(p) <= n {
        if n % p == 0 {
            n /= p;
            if n % p == 0 {
                return true;
            }
        }
        p += 1;
    }
    let r = integer_sqrt(n);
    n > 1 && r * r == n
}

fn integer_sqrt(n: u64) -> u64 {
    let mut r = (n as f64).sqrt() as u64;
    while r.saturating_mul(r) > n {
        r -= 1;
    }
    while (r + 1).saturating_mul(r + 1) <= n {
        r += 1;
    }
    r
}

fn parse(digits: &str) -> Option<u64> {
    is_integer(digits).then(|| digits.parse().ok()).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::Answer;

    /// The count of `text` as written, checked against its canonical form's.
    fn forms(text: &str) -> usize {
        let written = unreduced_forms(text);
        assert_eq!(unreduced_forms(Answer::parse(text).canonical()), written, "{text}");
        written
    }

    #[test]
    fn fractions_not_in_lowest_terms() {
        assert_eq!(forms("8/32"), 1);
        assert_eq!(forms("\\frac{8}{32}"), 1);
        assert_eq!(forms("\\tfrac84"), 1);
        assert_eq!(forms("\\frac{5}{1}"), 1);
        assert_eq!(forms("-\\dfrac{6}{4}"), 1);
        assert_eq!(forms("\\frac{1}{4}"), 0);
        assert_eq!(forms("1/4"), 0);
        assert_eq!(forms("\\frac{66}{7}"), 0);
        assert_eq!(forms("5047 ÷ 63"), 1);
        assert_eq!(forms("6 \\div 3"), 1);
        assert_eq!(forms("7 \\div 3"), 0);
        // Not two integers: a power, a decimal, a variable.
        assert_eq!(forms("2^3/4"), 0);
        assert_eq!(forms("0.5/2"), 0);
        assert_eq!(forms("2x/4"), 0);
        assert_eq!(forms("\\frac{2x}{4}"), 0);
        // A root's radicand is not a numerator: `√2/2` is (√2)/2.
        assert_eq!(forms("√2/2"), 0);
        assert_eq!(unreduced_forms("\\sqrt 2/2"), 0);
        assert_eq!(unreduced_forms("sqrt 2/2"), 0);
    }

    #[test]
    fn roots_with_a_square_factor() {
        assert_eq!(forms("\\sqrt{117}"), 1);
        assert_eq!(forms("√117"), 1);
        assert_eq!(forms("sqrt(8)"), 1);
        assert_eq!(forms("\\sqrt{16}"), 1);
        assert_eq!(forms("3\\sqrt{13}"), 0);
        assert_eq!(forms("2\\sqrt{2}"), 0);
        assert_eq!(forms("\\sqrt{30}"), 0);
        assert_eq!(forms("\\sqrt[3]{16}"), 0);
        assert_eq!(forms("\\sqrt{x^2}"), 0);
        // Squares of primes above the cube root: 10007² · 2, and 10007 · 10009.
        assert_eq!(forms("\\sqrt{200280098}"), 1);
        assert_eq!(forms("\\sqrt{100160063}"), 0);
    }

    #[test]
    fn the_written_form_counts_not_the_normal_form() {
        // Normalization writes `0.\overline{3}` as `(\frac{3}{9})`.
        assert_eq!(unreduced_forms("0.\\overline{3}"), 0);
        assert_eq!(unreduced_forms("\\sqrt 12"), 1);
        assert_eq!(unreduced_forms("sqrt 8"), 1);
        assert_eq!(unreduced_forms("√(117)"), 1);
        assert_eq!(unreduced_forms("\\frac{3}{\\sqrt 3}"), 1);
    }

    #[test]
    fn roots_in_a_denominator() {
        assert_eq!(forms("\\frac{1}{\\sqrt{3}}"), 1);
        assert_eq!(forms("1/sqrt(3)"), 1);
        assert_eq!(forms("1/√3"), 1);
        assert_eq!(forms("1/(2√3)"), 1);
        assert_eq!(forms("\\frac{\\sqrt{3}}{3}"), 0);
        assert_eq!(forms("\\frac{\\sqrt{2}}{2}"), 0);
        assert_eq!(forms("14(\\sqrt{2} - 1)"), 0);
    }

    #[test]
    fn square_factors_by_brute_force() {
        for n in 0u64..3000 {
            let expected = (2..n).take_while(|p| p * p <= n).any(|p| n % (p * p) == 0);
            assert_eq!(has_square_factor(&n.to_string()), expected, "{n}");
        }
    }

    #[test]
    fn nested_forms_are_each_read() {
        assert_eq!(forms("\\frac{1}{\\frac{2}{4}}"), 1);
        assert_eq!(unreduced_forms("1/(1/(2/4))"), 1);
        assert_eq!(unreduced_forms("\\sqrt{\\sqrt{8}}"), 1);
        assert_eq!(unreduced_forms("\\frac{1}{1 + \\frac{1}{\\sqrt{2}}}"), 2);
        // An escaped brace opens no group.
        assert_eq!(unreduced_forms("\\frac\\{6}{4}"), 0);
        // Deep nesting, read once per level: every level's denominator holds a root, and the
        // innermost `\sqrt 8` has a square factor.
        let depth = 20_000;
        let nested = format!("{}8{}", "\\frac{1}{\\sqrt ".repeat(depth), "}".repeat(depth));
        assert_eq!(unreduced_forms(&nested), depth + 1);
        let slashes = format!("{}8{}", "1/(√".repeat(depth), ")".repeat(depth));
        assert_eq!(unreduced_forms(&slashes), depth + 1);
        let roots = format!("{}8{}", "sqrt(".repeat(depth), ")".repeat(depth));
        assert_eq!(unreduced_forms(&roots), 1);
        let unclosed = "\\frac{".repeat(depth);
        assert_eq!(unreduced_forms(&unclosed), 0);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(3000))]

        /// Forms are read where they are written: two texts joined by a separator hold the
        /// forms of both, no more (no read crosses into the neighbour), and any text is read
        /// without panic.
        #[test]
        fn forms_of_joined_texts_add_up(
            a in proptest::collection::vec(proptest::sample::select(PIECES.to_vec()), 0..12),
            b in proptest::collection::vec(proptest::sample::select(PIECES.to_vec()), 0..12),
            noise in "\\PC{0,40}",
        ) {
            let (a, b) = (a.concat(), b.concat());
            let joined = format!("{a} ; {b}");
            proptest::prop_assert_eq!(unreduced_forms(&joined), unreduced_forms(&a) + unreduced_forms(&b), "{}", joined);
            unreduced_forms(&format!("{a}{noise}{b}"));
        }
    }

    /// Balanced pieces of answers for the property test.
    const PIECES: [&str; 22] = [
        "\\frac{6}{4}", "\\frac{1}{\\sqrt{3}}", "\\dfrac84", "\\sqrt{12}", "\\sqrt 8", "sqrt(18)", "√117", "√(20)",
        "3\\sqrt{13}", "8/32", "1/4", "1/(2√3)", "5047 ÷ 63", "6 \\div 3", "x", "+", "-", "2", " ", "\\pi", "(7)",
        "{x}",
    ];

    #[test]
    fn any_text_is_read_without_panic() {
        for text in [
            "\\frac{", "\\frac{1}", "/", "sqrt", "\\sqrt{", "1/", "/2", "sqrt(", "\\frac{}{}",
            "99999999999999999999/3", "π/√2", "√/", "é/(√",
        ] {
            unreduced_forms(text);
        }
    }
}
