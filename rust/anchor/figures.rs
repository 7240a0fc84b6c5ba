//! The figures a reference answer is written with, and whether a text shows them: the anchor
//! search's sentence and candidate test for references that are not plain integers (see
//! [`crate::anchor::AnchorOptions::reference_figures`]).
//!
//! A stated value is written with the reference's own numbers: `\frac{5}{36}` as `5/36`,
//! `26+13\sqrt{3}` as `13\sqrt{3}+26`, `(-3, 1)` as `x=-3, y=1`; or, when it has a value, with
//! that value's digits: `0.25` for `\frac{1}{4}`, `36` for `40_{9}`, `300 million` for
//! `3\cdot10^{8}`; or with a decimal coefficient of the reference's numbers (`0.25\pi` for
//! `\frac{\pi}{4}`). A text that shows none of these can only state the value by computing it
//! from other numbers (`60/0.7` for `\frac{600}{7}`, `\sqrt{\sqrt[3]{1/27}}` for
//! `\frac{\sqrt{3}}{3}`), which is a step of the work, not a statement of its result.
//!
//! A reference that is the response's own final answer ([`crate::anchor::AnchorSearch::own_answer`],
//! the reward's default) is shown by all of its numerals together, or by one of the other
//! figures: the model writes its terms and coordinates with their own numbers, and a form that
//! drops some of them is another form of the expression, factored or expanded
//! (`13(2+\sqrt{3})` for `26+13\sqrt{3}`, `11\sqrt{5}+11` for `11(1+\sqrt{5})`), a step before
//! the answer as it is finally written. A plain rational p/q may also show p and q together
//! (`3/2` for `1\frac{1}{2}` or `1.5`), and a repeating decimal (`0.\overline{3}` for
//! `\frac{1}{3}`) shows the value's leading digits once its repeated digits are read
//! ([`digit_view`]); `\frac12` shows 1 and 2. (A mixed number is more complex than the improper
//! fraction it equals, so never a candidate for it: see
//! [`crate::anchor::AnchorOptions::max_extra_complexity`].) Any one numeral is enough for a ground truth from a
//! dataset, whose notation may not be the model's (`100p^{\frac{1}{2}}` for the model's
//! `100\sqrt{p}`).

use num_rational::BigRational;
use num_traits::Signed;

use super::{continues_a_number, finder};
use crate::answer::matching_brace;
use crate::extract::repeating_decimal::repeating_decimal_after;
use crate::text::byte_sets::has_ascii_digit;

/// The most numerals of a fraction's numerator or denominator whose ratios are taken as
/// coefficients (pairs grow with the square).
const MAX_COEFFICIENT_NUMERALS: usize = 8;

/// What a text must show to state a reference ([`Figures::shown_in`]).
#[derive(Debug, Clone)]
pub(super) struct Figures {
    /// The reference's numerals (maximal runs of digits, a decimal point between digits
    /// included), each to be found whole in a text: not inside a longer number.
    numerals: Vec<memchr::memmem::Finder<'static>>,
    /// Whether a text must show every numeral or one is enough (see the module documentation).
    every_numeral: bool,
    /// Other numerals a text may show instead, each whole and all together: those of a plain
    /// rational's fraction (see the module documentation).
    other_numerals: Option<Vec<memchr::memmem::Finder<'static>>>,
    /// Digit strings to be found among a text's digits, separators dropped ([`digit_view`]):
    /// the significant digits of the numerals that a text may write otherwise (`.25` for
    /// `0.25`, `2.50` for `2.5`, `15,625` for `15625`), the first significant digits of each
    /// value of the reference (truncated and rounded to two), and those of the finite decimal
    /// ratios of the integers of a fraction's numerator (1 when it has none) and denominator
    /// (`25` for `\frac{\pi}{4}`, written `0.25\pi`; `25` for `\frac{5\sqrt{2}}{2}`).
    digit_strings: Vec<memchr::memmem::Finder<'static>>,
}

impl Figures {
    /// The figures of a reference with canonical text `canonical`, real values `values`
    /// ([`crate::answer::Answer::real_values`]; empty when it has none) and exact value
    /// `rational` when it is a plain rational ([`crate::answer::Answer::plain_rational`]);
    /// `every_numeral`: a text must show all its numerals, not one (see the module
    /// documentation). `None` when it is written without an ASCII numeral (nothing to look
    /// for).
    pub(super) fn new(
        canonical: &str,
        values: &[f64],
        every_numeral: bool,
        rational: Option<&BigRational>,
    ) -> Option<Figures> {
        let own = numerals(canonical.as_bytes());
        if own.is_empty() {
            return None;
        }
        let mut digit_strings = Vec::new();
        for n in &own {
            if n.contains(&b'.') || n.len() >= 4 {
                digit_strings.push(significant_digits(n));
            }
        }
        for &v in values {
            digit_strings.extend(leading_digits(v));
        }
        for (numerator, denominator) in fractions(canonical.as_bytes()) {
            let integers = |group: &[u8]| -> Vec<u64> {
                numerals(group)
                    .iter()
                    .filter(|n| !n.contains(&b'.') && n.len() <= 9)
                    .filter_map(|n| std::str::from_utf8(n).ok()?.parse().ok())
                    .take(MAX_COEFFICIENT_NUMERALS)
                    .collect()
            };
            let (ps, qs) = (integers(numerator), integers(denominator));
            let ps = if ps.is_empty() { vec![1] } else { ps };
            for &q in &qs {
                for &p in &ps {
                    digit_strings.extend(finite_decimal_digits(p, q));
                }
            }
        }
        digit_strings.retain(|d| !d.is_empty());
        digit_strings.sort_unstable();
        digit_strings.dedup();
        let other_numerals = rational
            .filter(|_| every_numeral)
            .and_then(fraction_numerals)
            .map(|set| set.iter().map(|n| finder(n)).collect());
        Some(Figures {
            numerals: own.iter().map(|n| finder(n)).collect(),
            every_numeral,
            other_numerals,
            digit_strings: digit_strings.iter().map(|d| finder(d)).collect(),
        })
    }

    /// Whether `text` shows the figures: its numerals whole (every one, or any one, as
    /// [`Self::new`] was told), or a digit string among its digits.
    /// Superscript, subscript and full-width digits count as the digits they are, and a
    /// vulgar fraction as its numerator and denominator (`½` as `1/2`); a text with any other
    /// numeral outside ASCII (`Ⅳ`, `①`) shows the figures, as this does not read them.
    pub(super) fn shown_in(&self, text: &str) -> bool {
        let bytes = text.as_bytes();
        // Its ASCII digits first: spelling other numerals out only adds digits.
        if has_ascii_digit(bytes) && self.shown_in_ascii(text) {
            return true;
        }
        let Some(first) = bytes.iter().position(|&b| b >= 0x80) else { return false };
        if !text[first..].chars().any(|c| !c.is_ascii() && c.is_numeric()) {
            return false;
        }
        let mut spelled = String::with_capacity(text.len() + 8);
        for c in text.chars() {
            match ascii_digits_of(c) {
                Some(digits) => spelled.push_str(digits),
                None if c.is_numeric() && !c.is_ascii() => return true,
                None => spelled.push(c),
            }
        }
        self.shown_in_ascii(&spelled)
    }

    /// Whether `bytes` shows the numerals whole: every one (or any one, as [`Self::new`] was
    /// told), or every one of a plain rational's fraction.
    fn numerals_shown(&self, bytes: &[u8]) -> bool {
        let whole = |n: &memchr::memmem::Finder<'_>| stated_whole(bytes, n);
        let own = if self.every_numeral { self.numerals.iter().all(whole) } else { self.numerals.iter().any(whole) };
        own || self.other_numerals.as_ref().is_some_and(|set| set.iter().all(whole))
    }

    /// [`Self::shown_in`] of a text whose numerals are ASCII digits.
    fn shown_in_ascii(&self, text: &str) -> bool {
        if self.numerals_shown(text.as_bytes()) {
            return true;
        }
        if self.digit_strings.is_empty() {
            return false;
        }
        let digits = digit_view(text);
        self.digit_strings.iter().any(|d| d.find(&digits).is_some())
    }
}

/// The numerals of `text`: maximal runs of ASCII digits, with a `.` between two digits, each
/// once, in order of first appearance.
fn numerals(text: &[u8]) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = Vec::new();
    let mut i = 0;
    while i < text.len() {
        if !text[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < text.len()
            && (text[i].is_ascii_digit() || (text[i] == b'.' && text.get(i + 1).is_some_and(u8::is_ascii_digit)))
        {
            i += 1;
        }
        let numeral = text[start..i].to_vec();
        if !out.contains(&numeral) {
            out.push(numeral);
        }
    }
    out
}

/// A numeral's significant digits: without its decimal point, its leading zeros and the zeros
/// that end its fraction (`0.250` gives `25`, `15625` itself, `0` for zero).
fn significant_digits(numeral: &[u8]) -> Vec<u8> {
    let mut digits: Vec<u8> = numeral.to_vec();
    if digits.contains(&b'.') {
        while digits.last() == Some(&b'0') {
            digits.pop();
        }
        digits.retain(|&b| b != b'.');
    }
    let first = digits.iter().position(|&b| b != b'0');
    match first {
        Some(k) => digits[k..].to_vec(),
        None => b"0".to_vec(),
    }
}

/// Whether `numeral` stands in `text` as a whole number: no digit (or a decimal point after a
/// digit) right before it, no digit right after it. `3.0` shows `3`; `13`, `0.3` and `34` do
/// not. A digit that is an undelimited argument of `\frac` (`\frac12`, `\dfrac32`) stands
/// alone too.
fn stated_whole(text: &[u8], numeral: &memchr::memmem::Finder<'_>) -> bool {
    let len = numeral.needle().len();
    numeral.find_iter(text).any(|at| {
        (!continues_a_number(text, at) && !text.get(at + len).is_some_and(u8::is_ascii_digit))
            || (len == 1 && is_fraction_digit(text, at))
    })
}

/// Whether the digit at `at` is the numerator or the denominator of `\frac` written with
/// undelimited digits (`\frac12` is `\frac{1}{2}`; the `3` of `\frac123` is no argument).
fn is_fraction_digit(text: &[u8], at: usize) -> bool {
    let digit = |i: usize| text.get(i).is_some_and(u8::is_ascii_digit);
    let after_frac = |i: usize| text[..i].ends_with(b"frac");
    (after_frac(at) && digit(at + 1)) || (at > 0 && digit(at - 1) && after_frac(at - 1))
}

/// `text` with what writes one number in pieces dropped: decimal points and the group
/// separators `,`, `{,}` and `\,` (`15{,}625.5` reads `156255`). A space stays: it separates
/// numbers more often than it groups digits. A repeating decimal, as the lexers read it
/// ([`repeating_decimal_after`]), has its period written twice (`0.\overline{3}` and
/// `0.\dot{3}` read `033`, `0.1\overline{6}` reads `0166`), so that its value's leading digits
/// are found.
fn digit_view(text: &str) -> Vec<u8> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len() + 8);
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'.' && i > 0 && bytes[i - 1].is_ascii_digit() {
            if let Some(r) = repeating_decimal_after(text, i) {
                let period = &bytes[r.period.clone()];
                out.extend_from_slice(&bytes[r.fixed.clone()]);
                out.extend_from_slice(period);
                out.extend_from_slice(period);
                i = r.end;
                continue;
            }
        }
        if !matches!(b, b'.' | b',' | b'{' | b'}' | b'\\') {
            out.push(b);
        }
        i += 1;
    }
    out
}

/// The numerals of a plain rational p/q (in lowest terms) that is no integer, written as a
/// fraction: `|p|` and `q`, which differ.
fn fraction_numerals(v: &BigRational) -> Option<Vec<Vec<u8>>> {
    if v.is_integer() {
        return None;
    }
    Some(vec![v.numer().abs().to_string().into_bytes(), v.denom().to_string().into_bytes()])
}

/// The ASCII spelling of a superscript, subscript or full-width digit, or of a vulgar
/// fraction (`½` is `1/2`); `None` for any other character.
fn ascii_digits_of(c: char) -> Option<&'static str> {
    const DIGITS: [&str; 10] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"];
    let digit = |k: u32| Some(DIGITS[k as usize]);
    match c {
        '⁰' => digit(0),
        '¹' => digit(1),
        '²' => digit(2),
        '³' => digit(3),
        '⁴'..='⁹' => digit(c as u32 - '⁴' as u32 + 4),
        '₀'..='₉' => digit(c as u32 - '₀' as u32),
        '０'..='９' => digit(c as u32 - '０' as u32),
        '½' => Some("1/2"),
        '⅓' => Some("1/3"),
        '⅔' => Some("2/3"),
        '¼' => Some("1/4"),
        '¾' => Some("3/4"),
        '⅕' => Some("1/5"),
        '⅖' => Some("2/5"),
        '⅗' => Some("3/5"),
        '⅘' => Some("4/5"),
        '⅙' => Some("1/6"),
        '⅚' => Some("5/6"),
        '⅛' => Some("1/8"),
        '⅜' => Some("3/8"),
        '⅝' => Some("5/8"),
        '⅞' => Some("7/8"),
        _ => None,
    }
}

/// The first two significant digits of `|v|`, truncated and rounded, each without the zeros
/// that end it (`0.25` gives `25`, `0.1996` gives `19` and `2`, `300` gives `3`, zero `0`).
fn leading_digits(v: f64) -> Vec<Vec<u8>> {
    if v == 0.0 {
        return vec![b"0".to_vec()];
    }
    let first_two = |s: String| {
        // `d.ddd…e±k`: the digits before the exponent, the point dropped.
        let mantissa: Vec<u8> = s.bytes().take_while(|&b| b != b'e').filter(|&b| b != b'.').take(2).collect();
        let mut digits = mantissa;
        while digits.len() > 1 && digits.last() == Some(&b'0') {
            digits.pop();
        }
        digits
    };
    let truncated = first_two(format!("{:.15e}", v.abs()));
    let rounded = first_two(format!("{:.1e}", v.abs()));
    if truncated == rounded {
        vec![truncated]
    } else {
        vec![truncated, rounded]
    }
}

/// The numerator and denominator groups of every `\frac{..}{..}` of `text` (canonical: braced
/// arguments), outer ones before the fractions inside them.
fn fractions(text: &[u8]) -> Vec<(&[u8], &[u8])> {
    let mut out = Vec::new();
    for at in memchr::memmem::find_iter(text, b"\\frac{") {
        let open = at + 5;
        let Some(close) = matching_brace(text, open) else { continue };
        if text.get(close + 1) != Some(&b'{') {
            continue;
        }
        let Some(end) = matching_brace(text, close + 1) else { continue };
        out.push((&text[open + 1..close], &text[close + 2..end]));
    }
    out
}

/// The significant digits of `p / q` when it is a finite decimal (`q` a power of two times a
/// power of five after reduction; not for `q` 0 or 1).
fn finite_decimal_digits(p: u64, q: u64) -> Option<Vec<u8>> {
    if q <= 1 || p == 0 {
        return None;
    }
    let g = gcd(p, q);
    let (mut p, mut q) = (p / g, q / g);
    if q == 1 {
        return None;
    }
    // Scale to p' / 10^k.
    let (mut twos, mut fives) = (0u32, 0u32);
    while q % 2 == 0 {
        q /= 2;
        twos += 1;
    }
    while q % 5 == 0 {
        q /= 5;
        fives += 1;
    }
    if q != 1 {
        return None;
    }
    let k = twos.max(fives);
    p = p.checked_mul(2u64.checked_pow(k - twos)?)?.checked_mul(5u64.checked_pow(k - fives)?)?;
    let digits = p.to_string().into_bytes();
    let mut digits: Vec<u8> = digits.into_iter().skip_while(|&b| b == b'0').collect();
    while digits.last() == Some(&b'0') {
        digits.pop();
    }
    Some(digits)
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The figures of a reference that is the response's own final answer: every numeral,
    /// with a plain rational's other numeral sets.
    fn figures(canonical: &str, values: &[f64]) -> Figures {
        let answer = crate::answer::Answer::parse(canonical);
        Figures::new(canonical, values, true, answer.plain_rational()).expect("a reference with numerals")
    }

    #[test]
    fn the_numerals_of_a_reference_are_found_whole() {
        let f = figures("26+13\\sqrt{3}", &[48.516_660_498_395_4]);
        assert!(f.shown_in("which gives 13\\sqrt3 + 26."));
        // An expression's numerals together: a factored form is another form of it.
        assert!(!f.shown_in("so the area is 13(2+\\sqrt{3})"));
        assert!(!f.shown_in("so 26 it is"));
        assert!(!f.shown_in("then 128 and 0.26 and 1.3 follow"));
        // The value's digits: a decimal approximation.
        assert!(f.shown_in("about 48.5"));
        // A plain rational: the numerals of its fraction, together, as written or reduced.
        let f = figures("\\frac{3}{2}", &[1.5]);
        assert!(
            f.shown_in("so 3/2 cups")
                && f.shown_in("3 over 2")
                && f.shown_in("\\dfrac32 it is")
                && f.shown_in("so 1.5")
        );
        assert!(!f.shown_in("3 halves") && !f.shown_in("so 2 and 2") && !f.shown_in("so 1\\frac{1}{3}"));
        let mixed = figures("1\\frac{1}{2}", &[1.5]);
        assert!(mixed.shown_in("so 3/2 cups") && mixed.shown_in("so 1\\frac12") && mixed.shown_in("so 1 1/2"));
        assert!(!mixed.shown_in("3 of 4") && !mixed.shown_in("so 1/3 more"));
        assert!(
            figures("1.5", &[1.5]).shown_in("so 3/2") && figures("-\\frac{7}{3}", &[-7.0 / 3.0]).shown_in("x = -7/3")
        );
        // A repeating decimal shows its value's leading digits once its repeated digits are read.
        let third = figures("\\frac{1}{3}", &[1.0 / 3.0]);
        assert!(
            third.shown_in("so 0.\\overline{3} it is")
                && third.shown_in("so 0.\\dot{3}")
                && !third.shown_in("so 0.3 it is")
        );
        assert!(figures("\\frac{1}{6}", &[1.0 / 6.0]).shown_in("so 0.1\\overline{6}"));
        assert_eq!(digit_view("0.\\overline{142857}, 2.\\dot{x}"), b"0142857142857 2dotx".to_vec());
        assert_eq!(digit_view("so 0.\\overline3 and 0.1666..."), b"so 033 and 016666".to_vec());
        // `\\frac12` shows 1 and 2; `\\tfrac345` is `\\frac{3}{4}5`.
        let whole = |text: &str, numeral: &str| stated_whole(text.as_bytes(), &finder(numeral.as_bytes()));
        assert!(
            whole("\\frac12 + 1", "1")
                && whole("\\frac12", "2")
                && whole("\\tfrac345", "3")
                && whole("\\tfrac345", "4")
        );
        assert!(!whole("\\tfrac345", "5") && !whole("\\frac{1}{2} and frac123", "3") && !whole("so 12", "2"));
        // A ground truth's notation may not be the model's: any one numeral.
        let gold = Figures::new("26+13\\sqrt{3}", &[48.516_660_498_395_4], false, None).expect("numerals");
        assert!(gold.shown_in("so the area is 13(2+\\sqrt{3})"));
    }

    #[test]
    fn a_value_written_with_its_own_digits() {
        let quarter = figures("\\frac{1}{4}", &[0.25]);
        assert!(quarter.shown_in("so p = 0.25"));
        assert!(quarter.shown_in("or 25%"));
        assert!(quarter.shown_in("that is 4^{-1}"));
        assert!(!quarter.shown_in("then 3 and 7"));
        // Three hundred million, and zero.
        assert!(figures("3\\cdot10^{8}", &[3e8]).shown_in("300,000,000 m/s"));
        assert!(figures("0.0", &[0.0]).shown_in("0.000 days"));
        // Rounded: 0.1996 may be written 0.200 under a lenient decimal policy.
        assert_eq!(leading_digits(0.1996), vec![b"19".to_vec(), b"2".to_vec()]);
        assert_eq!(leading_digits(-12.6), vec![b"12".to_vec(), b"13".to_vec()]);
        assert_eq!(leading_digits(300.0), vec![b"3".to_vec()]);
    }

    #[test]
    fn numerals_written_otherwise() {
        let f = figures("2.50", &[2.5]);
        assert!(f.shown_in("x = 2.5"));
        assert!(figures("0.25", &[0.25]).shown_in("p = .25"));
        assert!(figures("15625", &[15625.0]).shown_in("15{,}625 ways"));
        assert!(figures("15625", &[15625.0]).shown_in("15\\,625 ways"));
        assert!(!figures("57.5", &[57.5]).shown_in("5 7 5"));
        assert!(figures("90.00^{\\circ}", &[90.0]).shown_in("θ=90 degrees"));
    }

    #[test]
    fn decimal_coefficients_of_the_numerals() {
        let f = figures("\\frac{\\pi}{4}", &[std::f64::consts::FRAC_PI_4]);
        assert!(f.shown_in("the angle is 0.25\\pi"));
        assert!(figures("\\frac{5\\sqrt{2}}{2}", &[3.535_533_905_932_737_6]).shown_in("r = 2.5\\sqrt{2}"));
        assert!(!figures("26+13\\sqrt{3}", &[48.516_660_498_395_4]).shown_in("a 5 and a 7"));
        assert_eq!(
            fractions(b"\\frac{3\\pi}{4}+\\frac{1}{\\frac{2}{5}}"),
            vec![(&b"3\\pi"[..], &b"4"[..]), (&b"1"[..], &b"\\frac{2}{5}"[..]), (&b"2"[..], &b"5"[..])]
        );
        assert_eq!(finite_decimal_digits(1, 8), Some(b"125".to_vec()));
        assert_eq!(finite_decimal_digits(6, 4), Some(b"15".to_vec()));
        assert_eq!(finite_decimal_digits(1, 3), None);
        assert_eq!(finite_decimal_digits(4, 2), None);
    }

    #[test]
    fn numerals_outside_ascii_pass() {
        let f = figures("\\frac{1}{2}", &[0.5]);
        assert!(f.shown_in("so ½ of them"));
        assert!(figures("BD^{2}", &[]).shown_in("less than BD² for all"));
        assert!(!f.shown_in("no numbers here"));
        // Read as digits: x₁² shows 1 and 2, not 3.
        assert!(!figures("\\frac{3}{7}", &[3.0 / 7.0]).shown_in("so x₁² + y₁² = 0.5"));
        assert!(figures("\\frac{3}{7}", &[3.0 / 7.0]).shown_in("so x = ３/７"));
        assert!(figures("\\frac{3}{7}", &[3.0 / 7.0]).shown_in("chapter Ⅳ"));
    }

    #[test]
    fn computations_from_other_numbers_do_not_show_the_reference() {
        assert!(!figures("\\frac{600}{7}", &[600.0 / 7.0]).shown_in("So, v = 60 / 0.7"));
        assert!(Figures::new("\\pi", &[std::f64::consts::PI], false, None).is_none());
    }

    proptest::proptest! {
        /// Any text is read without a panic, and a text that writes the reference as the
        /// reference is written shows its figures, whatever surrounds it.
        #[test]
        fn the_reference_written_out_shows_its_figures(
            before in "(\\PC|[0-9.,{} ²½₁]|\\\\)*",
            after in "(\\PC|[0-9.,{} ²½₁]|\\\\)*",
            k in 0usize..6,
        ) {
            let references = [("\\frac{5}{36}", 5.0 / 36.0), ("26+13\\sqrt{3}", 48.516_660_498_395_4), ("0.25", 0.25),
                ("(-3, 1)", f64::NAN), ("\\frac{\\pi}{4}", std::f64::consts::FRAC_PI_4), ("15625", 15625.0)];
            let (canonical, value) = references[k];
            let values: Vec<f64> = if value.is_nan() { Vec::new() } else { vec![value] };
            let f = figures(canonical, &values);
            let _ = f.shown_in(&before);
            proptest::prop_assert!(f.shown_in(&format!("{before} {canonical} {after}")), "{before:?} {canonical} {after:?}");
        }
    }

    #[test]
    fn significant_digits_of_numerals() {
        assert_eq!(significant_digits(b"0.250"), b"25");
        assert_eq!(significant_digits(b"15625"), b"15625");
        assert_eq!(significant_digits(b"0.000"), b"0");
        assert_eq!(numerals(b"2.5x+3.0-2.5"), vec![b"2.5".to_vec(), b"3.0".to_vec()]);
    }
}
