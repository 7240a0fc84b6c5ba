//! The quantities of the LaTeX package siunitx: `\num{1.5e3}`, `\si{\kilo\gram}`,
//! `\SI{9.8}{\metre\per\second\squared}`, `\qty{5}{\m}`, `\unit{\percent}`, `\ang{30}`,
//! `\numlist{1;2;3}`, read as the plain notation they typeset (`1.5 \times 10^{3}`, `kg`,
//! `9.8\,\mathrm{m\,s^{-2}}`, `30^\circ`, `1, 2, 3`), so that they compare as any other value
//! with a unit.
//!
//! A pass over the lexer's tokens ([`read_quantities`]): the lexer reads a siunitx command as
//! any unknown command followed by its brace groups, and this pass replaces a command whose
//! groups, rendered back to text, fit siunitx's grammar ([`number`], [`unit`]). Working on
//! tokens keeps normalization idempotent: the canonical form of a command left unread renders
//! and reads back to the same tokens, so it is left unread again. An argument outside the
//! grammar leaves the command unread (undecided, never a wrong value): ranges (`\numrange`,
//! `\SIrange`), uncertainties (`1.2(3)`, `\pm`), products (`1 x 2`), unit macros not listed
//! here.

use std::borrow::Cow;

use super::lexer::{collapse_text, frac_tokens, render_with, Numeral, Tok};

/// The commands, by what their arguments are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    /// `\num{N}`.
    Number,
    /// `\si{U}`, `\unit{U}`.
    Unit,
    /// `\SI{N}[pre]{U}`, `\qty{N}{U}`.
    Quantity,
    /// `\ang{d}` or `\ang{d;m;s}`.
    Angle,
    /// `\numlist{N;N;...}`.
    NumberList,
    /// `\SIlist{N;N;...}{U}`, `\qtylist{N;N;...}{U}`.
    QuantityList,
}

impl Command {
    /// The command named `name` (without the backslash), if it is one of siunitx's.
    pub fn of(name: &str) -> Option<Command> {
        Some(match name {
            "num" => Command::Number,
            "si" | "unit" => Command::Unit,
            "SI" | "qty" => Command::Quantity,
            "ang" => Command::Angle,
            "numlist" => Command::NumberList,
            "SIlist" | "qtylist" => Command::QuantityList,
            _ => return None,
        })
    }
}

/// The tokens with every readable siunitx command replaced by the notation it typesets.
pub fn read_quantities(tokens: Vec<Tok<'_>>) -> Vec<Tok<'_>> {
    let is_command = |t: &Tok| matches!(t, Tok::Cmd(c) if Command::of(c).is_some());
    if !tokens.iter().any(is_command) {
        return tokens;
    }
    let groups = Groups::of(&tokens);
    let mut out = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        if let Tok::Cmd(name) = &tokens[i] {
            if let Some(command) = Command::of(name) {
                if let Some(next) = read_command(command, &tokens, &groups, i + 1, &mut out) {
                    i = next;
                    continue;
                }
            }
        }
        out.push(tokens[i].clone());
        i += 1;
    }
    out
}

/// Where each `{` and `[` closes (independently: brackets may hold braces and braces
/// brackets), found in one pass so that reading many commands stays linear.
struct Groups {
    close: Vec<usize>,
}

impl Groups {
    fn of(tokens: &[Tok]) -> Groups {
        let mut close = vec![usize::MAX; tokens.len()];
        let (mut braces, mut brackets) = (Vec::new(), Vec::new());
        for (j, t) in tokens.iter().enumerate() {
            match t {
                Tok::Sym('{') => braces.push(j),
                Tok::Sym('[') => brackets.push(j),
                Tok::Sym('}') => {
                    if let Some(o) = braces.pop() {
                        close[o] = j;
                    }
                }
                Tok::Sym(']') => {
                    if let Some(o) = brackets.pop() {
                        close[o] = j;
                    }
                }
                _ => {}
            }
        }
        Groups { close }
    }

    /// The span inside the group that opens at `k` with `open`, and its closing token's index.
    fn at(&self, tokens: &[Tok], k: usize, open: char) -> Option<(std::ops::Range<usize>, usize)> {
        let close = *self.close.get(k)?;
        (tokens[k].is_sym(open) && close != usize::MAX).then(|| (k + 1..close, close))
    }
}

/// The most tokens an argument may hold: siunitx arguments are short, and the bound keeps
/// nested commands (`\num{\num{...}}`) from rendering their groups again and again.
const MAX_ARGUMENT_TOKENS: usize = 256;

/// Reads the arguments of `command` from `k` on and pushes what they typeset; the index after
/// them, or `None` (nothing pushed) when they do not fit the grammar.
fn read_command<'a>(
    command: Command,
    tokens: &[Tok<'a>],
    groups: &Groups,
    mut k: usize,
    out: &mut Vec<Tok<'a>>,
) -> Option<usize> {
    let text =
        |span: std::ops::Range<usize>| (span.len() <= MAX_ARGUMENT_TOKENS).then(|| render_with(&tokens[span], false));
    // Options (`\SI[round-mode=places]{...}{...}`) change the typesetting, not the value.
    if let Some((_, close)) = groups.at(tokens, k, '[') {
        k = close + 1;
    }
    let argument = |k: &mut usize| -> Option<String> {
        let (span, close) = groups.at(tokens, *k, '{')?;
        *k = close + 1;
        text(span)
    };
    let mut read: Vec<Tok<'a>> = Vec::new();
    match command {
        Command::Number => push_number(&number(&argument(&mut k)?)?, &mut read),
        Command::NumberList => {
            for (j, n) in number_list(&argument(&mut k)?)?.iter().enumerate() {
                if j > 0 {
                    read.push(Tok::Sym(','));
                }
                push_number(n, &mut read);
            }
        }
        Command::Unit => push_unit(unit(&argument(&mut k)?)?, &mut read),
        Command::Quantity | Command::QuantityList => {
            let numbers = match command {
                Command::Quantity => vec![number(&argument(&mut k)?)?],
                _ => number_list(&argument(&mut k)?)?,
            };
            // A pre-unit (`\SI{10}[\$]{}`) is not read.
            if let Some((span, close)) = groups.at(tokens, k, '[') {
                if !span.is_empty() {
                    return None;
                }
                k = close + 1;
            }
            let unit = unit(&argument(&mut k)?)?;
            for (j, n) in numbers.iter().enumerate() {
                if j > 0 {
                    read.push(Tok::Sym(','));
                }
                push_number(n, &mut read);
                push_unit(unit.clone(), &mut read);
            }
        }
        Command::Angle => push_angle(&argument(&mut k)?, &mut read)?,
    }
    out.extend(read);
    Some(k)
}

/// A number's tokens, braced so that nothing around it joins it (`\num{1}\num{000}` is not
/// 1000).
fn push_number(n: &Number, out: &mut Vec<Tok<'_>>) {
    out.push(Tok::Sym('{'));
    if n.negative {
        out.push(Tok::Sym('-'));
    }
    let int = if n.int.is_empty() { "0".to_string() } else { n.int.clone() };
    out.push(Tok::Num(Numeral { int: Cow::Owned(int), frac: n.frac.clone().map(Cow::Owned), exp: n.exp }));
    out.push(Tok::Sym('}'));
}

/// A unit's tokens: `%`, `^\circ`, `^\circ C`, or the phrase as the text of `\mathrm{}`
/// (`5\,\mathrm{kg}`).
fn push_unit(unit: Unit, out: &mut Vec<Tok<'_>>) {
    match unit {
        Unit::None => {}
        Unit::Percent => out.push(Tok::Sym('%')),
        Unit::Degree => out.push(Tok::Degree),
        Unit::DegreeCelsius => out.extend([Tok::Degree, Tok::Text(Cow::Borrowed("C"))]),
        Unit::Phrase(p) => out.push(Tok::Text(Cow::Owned(collapse_text(&p)))),
    }
}

/// `\ang{30}` is 30°, `\ang{1;2;3}` is (1 + 2/60 + 3/3600)° (empty fields are 0; minutes and
/// seconds whole numbers); `None` otherwise.
fn push_angle(content: &str, out: &mut Vec<Tok<'_>>) -> Option<()> {
    let fields: Vec<&str> = content.split(';').collect();
    if fields.len() == 1 {
        push_number(&number(fields[0])?, out);
        out.push(Tok::Degree);
        return Some(());
    }
    if fields.len() > 3 {
        return None;
    }
    let degrees = match fields[0].trim() {
        "" => None,
        d => Some(number(d)?),
    };
    let mut parts: Vec<(String, &str)> = Vec::new();
    for (field, denominator) in fields[1..].iter().zip(["60", "3600"]) {
        if field.trim().is_empty() {
            continue;
        }
        let n = number(field)?;
        if n.negative || n.frac.is_some() || n.exp.is_some() {
            return None;
        }
        parts.push((n.int, denominator));
    }
    if degrees.is_none() && parts.is_empty() {
        return None;
    }
    if degrees.as_ref().is_some_and(|d| d.negative) {
        out.push(Tok::Sym('-'));
    }
    out.push(Tok::Sym('('));
    let mut first = true;
    if let Some(d) = degrees {
        push_number(&Number { negative: false, ..d }, out);
        first = false;
    }
    for (numerator, denominator) in parts {
        if !first {
            out.push(Tok::Sym('+'));
        }
        out.extend(frac_tokens(Cow::Owned(numerator), Cow::Borrowed(denominator)));
        first = false;
    }
    out.push(Tok::Sym(')'));
    out.push(Tok::Degree);
    Some(())
}

/// A number as siunitx reads its input: sign, integer digits, decimal digits (after `.` or `,`,
/// both decimal markers in siunitx), exponent (after `e`, `E`, `d` or `D`). Spaces and thin
/// spaces between digits group them and are dropped (`12 345`, `12\,345`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Number {
    pub negative: bool,
    /// Integer digits as written; empty for `.5`.
    pub int: String,
    pub frac: Option<String>,
    pub exp: Option<i64>,
}

/// Spacing that may group digits inside a number argument.
const DIGIT_SPACING: &[&str] = &["\\,", "\\ ", "\\;", "\\:", "\\!", "{}", "~", " ", "\u{2009}", "\u{202f}"];

/// Reads a number argument; `None` outside the grammar (see [`Number`]).
pub fn number(content: &str) -> Option<Number> {
    let mut rest = content.trim();
    let negative = match rest.as_bytes().first() {
        Some(b'-') => true,
        Some(b'+') => false,
        _ => false,
    };
    if matches!(rest.as_bytes().first(), Some(b'-' | b'+')) {
        rest = rest[1..].trim_start();
    }
    let digits = |rest: &mut &str| -> String {
        let mut out = String::new();
        loop {
            let run = rest.bytes().take_while(u8::is_ascii_digit).count();
            out.push_str(&rest[..run]);
            *rest = &rest[run..];
            // Spacing counts only between digits.
            let Some(space) = DIGIT_SPACING.iter().find(|s| rest.starts_with(**s)) else { break };
            let after = rest[space.len()..].trim_start_matches([' ', '~']);
            if run == 0 || !after.starts_with(|c: char| c.is_ascii_digit()) {
                break;
            }
            *rest = after;
        }
        out
    };
    let int = digits(&mut rest);
    let mut frac = None;
    if let Some(after) = rest.strip_prefix(['.', ',']) {
        // The lexer renders a comma with a space after it.
        rest = after.trim_start_matches(' ');
        let f = digits(&mut rest);
        if f.is_empty() {
            // `5.` is 5 in siunitx; `.` alone is nothing.
            if int.is_empty() {
                return None;
            }
        } else {
            frac = Some(f);
        }
    }
    if int.is_empty() && frac.is_none() {
        return None;
    }
    let mut exp = None;
    let trimmed = rest.trim_start();
    if let Some(after) = trimmed.strip_prefix(['e', 'E', 'd', 'D']) {
        let after = after.trim_start();
        let (sign, after) = match after.as_bytes().first() {
            Some(b'-') => (-1, after[1..].trim_start()),
            Some(b'+') => (1, after[1..].trim_start()),
            _ => (1, after),
        };
        let run = after.bytes().take_while(u8::is_ascii_digit).count();
        if run == 0 || run > 6 {
            return None;
        }
        exp = Some(sign * after[..run].parse::<i64>().ok()?);
        rest = &after[run..];
    }
    rest.trim().is_empty().then_some(Number { negative, int, frac, exp })
}

/// The `;`-separated numbers of a list argument (`\numlist{1;2;3}`); `None` if any is not one.
pub fn number_list(content: &str) -> Option<Vec<Number>> {
    content.split(';').map(number).collect()
}

/// What a unit argument typesets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unit {
    /// Nothing (`\SI{5}{}`).
    None,
    /// `\percent`: `%`.
    Percent,
    /// `\degree`: `^\circ`.
    Degree,
    /// `\degreeCelsius`, `\celsius`: `^\circ` and then `C`.
    DegreeCelsius,
    /// Any other unit, as the plain phrase a writer would put in `\mathrm{}` (`kg`,
    /// `m s^-2`, `µm`, `kΩ`): units separated by spaces, each with its exponent.
    Phrase(String),
}

/// SI prefixes by macro name.
const PREFIXES: &[(&str, &str)] = &[
    ("yocto", "y"),
    ("zepto", "z"),
    ("atto", "a"),
    ("femto", "f"),
    ("pico", "p"),
    ("nano", "n"),
    ("micro", "µ"),
    ("milli", "m"),
    ("centi", "c"),
    ("deci", "d"),
    ("deca", "da"),
    ("deka", "da"),
    ("hecto", "h"),
    ("kilo", "k"),
    ("mega", "M"),
    ("giga", "G"),
    ("tera", "T"),
    ("peta", "P"),
    ("exa", "E"),
    // binary prefixes
    ("kibi", "Ki"),
    ("mebi", "Mi"),
    ("gibi", "Gi"),
];

/// Unit macros and the symbols they typeset (siunitx's named units; [`ABBREVIATIONS`] apart).
const UNITS: &[(&str, &str)] = &[
    // base and derived SI units
    ("ampere", "A"),
    ("candela", "cd"),
    ("kelvin", "K"),
    ("kilogram", "kg"),
    ("gram", "g"),
    ("metre", "m"),
    ("meter", "m"),
    ("mole", "mol"),
    ("second", "s"),
    ("becquerel", "Bq"),
    ("coulomb", "C"),
    ("farad", "F"),
    ("gray", "Gy"),
    ("hertz", "Hz"),
    ("henry", "H"),
    ("joule", "J"),
    ("katal", "kat"),
    ("lumen", "lm"),
    ("lux", "lx"),
    ("newton", "N"),
    ("ohm", "Ω"),
    ("pascal", "Pa"),
    ("radian", "rad"),
    ("siemens", "S"),
    ("sievert", "Sv"),
    ("steradian", "sr"),
    ("tesla", "T"),
    ("volt", "V"),
    ("watt", "W"),
    ("weber", "Wb"),
    // accepted with the SI
    ("astronomicalunit", "au"),
    ("bel", "B"),
    ("dalton", "Da"),
    ("day", "day"),
    ("decibel", "dB"),
    ("electronvolt", "eV"),
    ("hectare", "ha"),
    ("hour", "h"),
    ("litre", "L"),
    ("liter", "L"),
    ("minute", "min"),
    ("neper", "Np"),
    ("tonne", "t"),
    ("arcminute", "arcmin"),
    ("arcsecond", "arcsec"),
    ("angstrom", "Å"),
    ("bar", "bar"),
    ("barn", "b"),
    ("knot", "kn"),
    ("mmHg", "mmHg"),
    ("nauticalmile", "M"),
    ("atomicmassunit", "u"),
    ("calorie", "cal"),
];

/// siunitx's abbreviations (`\kg`, `\MHz`, `\uA`, `\kohm`): each typesets its own name, with
/// `u` for the micro sign and `ohm` for Ω ([`abbreviation_symbol`]).
const ABBREVIATIONS: &[&str] = &[
    "fg", "pg", "ng", "ug", "mg", "g", "kg", "pm", "nm", "um", "mm", "cm", "dm", "m", "km", "as", "fs", "ps", "ns",
    "us", "ms", "s", "fmol", "pmol", "nmol", "umol", "mmol", "mol", "kmol", "pA", "nA", "uA", "mA", "A", "kA", "ul",
    "ml", "l", "hl", "uL", "mL", "L", "hL", "mHz", "Hz", "kHz", "MHz", "GHz", "THz", "mN", "N", "kN", "MN", "Pa",
    "kPa", "MPa", "GPa", "mohm", "kohm", "Mohm", "pV", "nV", "uV", "mV", "V", "kV", "W", "uW", "mW", "kW", "MW", "GW",
    "J", "uJ", "mJ", "kJ", "eV", "meV", "keV", "MeV", "GeV", "TeV", "kWh", "F", "fF", "pF", "nF", "uF", "mF", "H",
    "fH", "pH", "nH", "mH", "uH", "C", "nC", "mC", "uC", "K", "dB",
];

/// The symbol an abbreviation typesets: `kg` is kg, `uA` µA, `kohm` kΩ.
fn abbreviation_symbol(name: &str) -> String {
    let micro = match name.strip_prefix('u') {
        Some(rest) if !rest.is_empty() => format!("µ{rest}"),
        _ => name.to_string(),
    };
    micro.replace("ohm", "Ω")
}

/// A unit macro's prefix and symbol parts: `\kilo` gives a prefix, `\gram` a unit.
enum Macro {
    Prefix(&'static str),
    Unit(Cow<'static, str>),
    Per,
    PowerNext(i64),
    PowerLast(i64),
    /// `\tothe{n}` (last unit) or `\raiseto{n}` (next): the power follows as an argument.
    ArgumentPower {
        next: bool,
    },
    Percent,
    Degree,
    DegreeCelsius,
}

fn unit_macro(name: &str) -> Option<Macro> {
    Some(match name {
        "per" => Macro::Per,
        "square" => Macro::PowerNext(2),
        "cubic" => Macro::PowerNext(3),
        "squared" => Macro::PowerLast(2),
        "cubed" => Macro::PowerLast(3),
        "tothe" => Macro::ArgumentPower { next: false },
        "raiseto" => Macro::ArgumentPower { next: true },
        "percent" => Macro::Percent,
        "degree" => Macro::Degree,
        "degreeCelsius" | "celsius" => Macro::DegreeCelsius,
        _ => {
            if let Some((_, p)) = PREFIXES.iter().find(|(n, _)| *n == name) {
                return Some(Macro::Prefix(p));
            }
            if let Some((_, symbol)) = UNITS.iter().find(|(n, _)| *n == name) {
                return Some(Macro::Unit(Cow::Borrowed(symbol)));
            }
            return ABBREVIATIONS.contains(&name).then(|| Macro::Unit(Cow::Owned(abbreviation_symbol(name))));
        }
    })
}

/// Reads a unit argument: macros (`\kilo\metre\per\hour`, `\square\centi\metre`,
/// `\metre\squared`, `\metre\tothe{4}`) or literal units (`m/s^2`, `kg.m`), separated by
/// spacing; `None` for an unknown macro or a malformed power.
pub fn unit(content: &str) -> Option<Unit> {
    let content = content.trim();
    if content.is_empty() {
        return Some(Unit::None);
    }
    // (symbol, exponent) of each unit, in order; literal text kept as written.
    let mut parts: Vec<(String, i64)> = Vec::new();
    let (mut prefix, mut per, mut power) = (String::new(), false, 1i64);
    let mut special: Option<Unit> = None;
    let mut rest = content;
    while let Some(c) = rest.chars().next() {
        if c.is_whitespace() || c == '~' || c == '.' {
            rest = &rest[c.len_utf8()..];
            continue;
        }
        if let Some(after) =
            rest.strip_prefix("\\,").or_else(|| rest.strip_prefix("\\ ")).or_else(|| rest.strip_prefix("\\;"))
        {
            rest = after;
            continue;
        }
        // `\degree` and `\percent` as the lexer renders them.
        if let Some(after) = ["^{\\circ}", "^\\circ"].iter().find_map(|d| rest.strip_prefix(d)) {
            special = Some(Unit::Degree);
            rest = after;
            continue;
        }
        if let Some(after) = rest.strip_prefix("\\%").or_else(|| rest.strip_prefix('%')) {
            special = Some(Unit::Percent);
            rest = after;
            continue;
        }
        if let Some(after) = rest.strip_prefix('\\') {
            let len = after.bytes().take_while(u8::is_ascii_alphabetic).count();
            if len == 0 {
                return None;
            }
            let name = &after[..len];
            rest = &after[len..];
            match unit_macro(name)? {
                Macro::Prefix(p) => prefix.push_str(p),
                Macro::Unit(symbol) => {
                    let exponent = if per { -power } else { power };
                    parts.push((format!("{prefix}{symbol}"), exponent));
                    (prefix, per, power) = (String::new(), false, 1);
                }
                Macro::Per => per = true,
                Macro::PowerNext(p) => power = p,
                Macro::PowerLast(p) => parts.last_mut()?.1 *= p,
                Macro::ArgumentPower { next } => {
                    let inner = rest.trim_start().strip_prefix('{')?;
                    let close = inner.find('}')?;
                    let p: i64 = inner[..close].trim().parse().ok().filter(|p: &i64| p.abs() <= 99)?;
                    rest = &inner[close + 1..];
                    if next {
                        power = p;
                    } else {
                        parts.last_mut()?.1 *= p;
                    }
                }
                Macro::Percent => special = Some(Unit::Percent),
                Macro::Degree => special = Some(Unit::Degree),
                Macro::DegreeCelsius => special = Some(Unit::DegreeCelsius),
            }
            continue;
        }
        // Literal units up to the next macro, as written (`m/s^2`, `kg m^{-3}`).
        let len = rest.find('\\').unwrap_or(rest.len());
        let literal: String = rest[..len].chars().filter(|c| !matches!(c, '{' | '}')).collect();
        // A unit has letters (`\si{0}` is no unit).
        if !prefix.is_empty() || per || power != 1 || !literal.chars().any(char::is_alphabetic) {
            return None;
        }
        parts.push((literal.trim().to_string(), 1));
        rest = &rest[len..];
    }
    if !prefix.is_empty() || per || power != 1 {
        return None;
    }
    match special {
        Some(s) => parts.is_empty().then_some(s),
        None if parts.is_empty() => Some(Unit::None),
        None => {
            let phrase: Vec<String> = parts
                .into_iter()
                .map(|(symbol, exponent)| if exponent == 1 { symbol } else { format!("{symbol}^{exponent}") })
                .collect();
            Some(Unit::Phrase(phrase.join(" ")))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(negative: bool, int: &str, frac: Option<&str>, exp: Option<i64>) -> Option<Number> {
        Some(Number { negative, int: int.into(), frac: frac.map(Into::into), exp })
    }

    #[test]
    fn numbers() {
        assert_eq!(number("12345"), n(false, "12345", None, None));
        assert_eq!(number(" -1.5e3 "), n(true, "1", Some("5"), Some(3)));
        assert_eq!(number("1,5"), n(false, "1", Some("5"), None));
        assert_eq!(number("12 345.678 9"), n(false, "12345", Some("6789"), None));
        assert_eq!(number("12\\,345"), n(false, "12345", None, None));
        assert_eq!(number(".5"), n(false, "", Some("5"), None));
        assert_eq!(number("5."), n(false, "5", None, None));
        assert_eq!(number("6.02d23"), n(false, "6", Some("02"), Some(23)));
        assert_eq!(number("+2E-4"), n(false, "2", None, Some(-4)));
        assert_eq!(number("1 e 5"), n(false, "1", None, Some(5)));
        for bad in ["", ".", "-", "1.2(3)", "1 \\pm 2", "1 x 2", "2/3", "1e", "1e1234567", "abc", "1..2", "1 2e3x"] {
            assert_eq!(number(bad), None, "{bad:?}");
        }
        assert_eq!(number_list("1;2;3").map(|l| l.len()), Some(3));
        assert_eq!(number_list("1;;3"), None);
    }

    #[test]
    fn units() {
        let phrase = |s: &str| Some(Unit::Phrase(s.into()));
        assert_eq!(unit("\\kilo\\gram"), phrase("kg"));
        assert_eq!(unit("\\metre\\per\\second\\squared"), phrase("m s^-2"));
        assert_eq!(unit("\\square\\centi\\metre"), phrase("cm^2"));
        assert_eq!(unit("\\kilo\\joule\\per\\mole"), phrase("kJ mol^-1"));
        assert_eq!(unit("\\joule\\per\\mole\\per\\kelvin"), phrase("J mol^-1 K^-1"));
        assert_eq!(unit("\\metre\\tothe{4}"), phrase("m^4"));
        assert_eq!(unit("\\raiseto{4}\\metre"), phrase("m^4"));
        assert_eq!(unit("\\micro\\metre"), phrase("µm"));
        assert_eq!(unit("\\kilo\\ohm"), phrase("kΩ"));
        assert_eq!(unit("\\km\\per\\hour"), phrase("km h^-1"));
        assert_eq!(unit("\\newton\\metre"), phrase("N m"));
        assert_eq!(unit("m/s^2"), phrase("m/s^2"));
        assert_eq!(unit("kg.m^{-3}"), phrase("kg.m^-3"));
        assert_eq!(unit("\\percent"), Some(Unit::Percent));
        assert_eq!(unit("\\degree"), Some(Unit::Degree));
        assert_eq!(unit("\\degreeCelsius"), Some(Unit::DegreeCelsius));
        assert_eq!(unit(""), Some(Unit::None));
        for bad in [
            "0", "2/3", "\\kilo", "\\per", "\\frobnicate", "\\metre\\tothe{x}", "\\percent\\per\\second", "\\squared",
            "\\",
        ] {
            assert_eq!(unit(bad), None, "{bad:?}");
        }
    }
}
