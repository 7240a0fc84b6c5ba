//! Tokens of an answer string, with the purely notational noise already gone.
//!
//! The lexer is where spelling variants collapse: `\dfrac` and `\tfrac` become `\frac`, `\leq`
//! and `⩽` become `\le`, `$`, `\left`, `\displaystyle`, spacing commands and font wrappers
//! (`\boxed`, `\mathbf`, `\mathrm`, ...) vanish, Unicode spellings (`√`, `π`, `×`, `−`, `²`, `≤`,
//! `∞`) become their TeX tokens, `^\circ` becomes one degree token and thousands separators
//! (`1,000`, `1\,000`, `1{,}000`, `10,\!080`) disappear inside numbers. It also gives every
//! undelimited macro argument its braces (`\frac12` -> `\frac{1}{2}`, `x^2` -> `x^{2}`), following
//! TeX where TeX is unambiguous and the writer's evident intent where it is not (`\sqrt12` and
//! `2^10` take the whole number: TeX would render `\sqrt{1}2` and `2^{1}0`, nobody means that).
//!
//! Everything here is one forward pass, linear in the input, with no recursion: a 10 MB string of
//! nested braces is just a long token list.

use std::borrow::Cow;
use std::fmt::Write as _;

use num_bigint::BigInt;
use num_traits::Zero;

use super::parse::{function_name, GREEK_LETTERS};
use crate::extract::commands::{command_class, CommandClass};
use crate::extract::mixed_number::mixed_fraction_after;
use crate::extract::repeating_decimal::{repeating_decimal_after, ELLIPSES};

/// A number as written: integer digits (leading zeros dropped), optional fraction digits (kept
/// verbatim: trailing zeros are significant digits) and an optional `e` exponent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Numeral<'a> {
    pub int: Cow<'a, str>,
    pub frac: Option<Cow<'a, str>>,
    pub exp: Option<i64>,
}

impl Numeral<'_> {
    fn render(&self, out: &mut String) {
        out.push_str(if self.int.is_empty() { "0" } else { &self.int });
        if let Some(frac) = &self.frac {
            out.push('.');
            out.push_str(frac);
        }
        if let Some(exp) = self.exp {
            let _ = write!(out, "e{exp}");
        }
    }
}

/// A token; its text borrows from the input where it is a slice of it (most words, commands
/// and numerals), so lexing allocates little.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tok<'a> {
    Num(Numeral<'a>),
    /// A run of ASCII letters (`x`, `xy`, `cm`, `Evelyn`): the parser decides whether it is a
    /// product of symbols, a unit, a function name or prose.
    Word(Cow<'a, str>),
    /// A TeX command by its canonical name, without the backslash (`frac`, `pi`, `le`, `alpha`).
    /// Blackboard letters keep their argument in the name: `mathbb{R}`.
    Cmd(Cow<'a, str>),
    /// The content of a text-mode command (`\text`, `\mbox`, `\textbf`, ...) that contains
    /// letters, whitespace collapsed. Text without letters is lexed as math instead.
    Text(Cow<'a, str>),
    /// One punctuation or operator character: `+ - * / ^ _ = < > ! , ; | ( ) [ ] { } & % : .`
    Sym(char),
    /// `\{` or `\lbrace`.
    SetOpen,
    /// `\}` or `\rbrace`.
    SetClose,
    /// `\\`, the row separator of matrices.
    RowSep,
    /// `^\circ`, `^{\circ}`, `°` or `\degree`.
    Degree,
    /// `'`, `^\prime`, `′`.
    Prime,
    /// A character with no meaning in an answer; it makes the parse fail (never the lexer).
    Other(char),
}

/// Commands dropped with no trace: sizing, styles, spacing, font wrappers whose group stays,
/// and `\textdollar` (dropped as `\$` is).
const DROPPED_COMMANDS: &[&str] = &[
    "left", "right", "middle", "big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl", "Bigr", "biggl", "biggr", "Biggl",
    "Biggr", "displaystyle", "textstyle", "scriptstyle", "scriptscriptstyle", "limits", "nolimits", "boxed", "fbox",
    "mathbf", "mathrm", "mathit", "mathsf", "mathtt", "mathnormal", "mathcal", "mathscr", "mathfrak", "boldsymbol",
    "bm", "bf", "rm", "it", "sf", "tt", "cal", "quad", "qquad", "enspace", "thinspace", "medspace", "thickspace",
    "negthinspace", "negmedspace", "negthickspace", "nonumber", "notag", "mathord", "mathop", "mathrel", "mathbin",
    "mathpunct", "strut", "phantom", "cr", "newline", "textdollar",
];

/// Commands dropped together with their one braced argument (colours, explicit spaces, labels).
const DROPPED_WITH_ARGUMENT: &[&str] =
    &["color", "hspace", "vspace", "label", "tag", "hphantom", "vphantom", "kern", "mkern"];

/// Text-mode commands: their content is text, not math.
const TEXT_COMMANDS: &[&str] = &[
    "text", "textrm", "textit", "textbf", "textnormal", "textsf", "texttt", "textup", "textmd", "textsc", "emph",
    "mbox", "hbox", "textsl",
];

/// Spelling variants of one command -> the canonical name.
fn canonical_command(name: &str) -> &str {
    match name {
        "dfrac" | "tfrac" | "cfrac" | "sfrac" => "frac",
        "dbinom" | "tbinom" => "binom",
        "leq" | "leqslant" | "leqq" | "le" => "le",
        "geq" | "geqslant" | "geqq" | "ge" => "ge",
        "neq" | "ne" => "ne",
        "times" | "cdot" | "ast" | "cross" | "bullet" => "cdot",
        "varnothing" | "emptyset" => "emptyset",
        "varepsilon" | "epsilon" => "epsilon",
        "vartheta" | "theta" => "theta",
        "varphi" | "phi" => "phi",
        "varrho" | "rho" => "rho",
        "varsigma" | "sigma" => "sigma",
        "varpi" => "pi",
        "dots" | "ldots" | "cdots" | "dotsc" | "dotsb" | "dotso" | "vdots" | "ddots" => "dots",
        "lor" | "vee" => "lor",
        "land" | "wedge" => "land",
        "to" | "rightarrow" | "longrightarrow" => "to",
        "implies" | "Rightarrow" | "Longrightarrow" => "implies",
        "iff" | "Leftrightarrow" | "Longleftrightarrow" => "iff",
        "approx" | "simeq" | "thickapprox" | "doteq" => "approx",
        "arcsec" => "arcsec",
        "tg" => "tan",
        "ctg" | "cotg" => "cot",
        "arctg" => "arctan",
        "infin" | "infty" => "infty",
        "R" | "Reals" | "reals" => "mathbb{R}",
        "N" | "naturals" => "mathbb{N}",
        "Z" | "integers" => "mathbb{Z}",
        "Q" => "mathbb{Q}",
        "C" | "complexes" => "mathbb{C}",
        "degree" => "degree",
        // One accent, two spellings: `\overline{x}` is `\bar{x}`.
        "overline" | "bar" => "bar",
        "widehat" | "hat" => "hat",
        "widetilde" | "tilde" => "tilde",
        "overrightarrow" | "vec" => "vec",
        other => other,
    }
}

/// Lexes `text` into canonical tokens. Never fails and never panics; unknown characters become
/// [`Tok::Other`]. Text whose backslashes were damaged by string escaping (`\\frac{1}{2}`, a
/// form feed for the `\f` of `\frac`; see [`repaired_escapes`]) is lexed as the LaTeX it stood
/// for.
pub fn lex(text: &str) -> Vec<Tok<'_>> {
    match repaired_escapes(text) {
        Some(repaired) => lex_latex(&repaired).into_iter().map(Tok::into_owned).collect(),
        None => lex_latex(text),
    }
}

/// `text` with the LaTeX backslashes that string escaping damaged put back, or `None` when
/// nothing needs it. Three kinds of damage, each read only where plain LaTeX has no meaning:
/// - every backslash escaped a second time ([`escaped_twice`]);
/// - some commands escaped twice and others not (`\\dfrac{1}{2} + \frac{1}{72}`): outside
///   environments, where `\\` is a line break, a run of exactly two backslashes directly
///   before a known math command ([`is_math_command`]) is that command;
/// - a backslash and letter read as a control character by a non-raw Python string or a JSON
///   decoder (`\f` of `\frac` as a form feed, `\b` of `\beta` as a backspace): BEL, BS, VT
///   and FF never occur in an answer, and tab, CR and LF count only when the letters after them
///   complete a math command of three letters or more (`\times`, `\right`, `\neq`).
pub fn repaired_escapes(text: &str) -> Option<String> {
    if let Some(single) = escaped_twice(text) {
        return Some(single);
    }
    let b = text.as_bytes();
    if memchr::memmem::find(b, b"\\\\").is_none() && !b.iter().any(|&c| (0x07..0x0e).contains(&c)) {
        return None;
    }
    let damaged_control = |i: usize| -> Option<u8> {
        let letter = match b[i] {
            0x07 => b'a',
            0x08 => b'b',
            0x0b => b'v',
            0x0c => b'f',
            b'\t' => b't',
            b'\r' => b'r',
            b'\n' => b'n',
            _ => return None,
        };
        let rest = b[i + 1..].iter().take_while(|c| c.is_ascii_alphabetic()).count();
        let min = if matches!(b[i], b'\t' | b'\r' | b'\n') { 3 } else { 1 };
        // Command names are short: a long run of letters (prose after a line break) is none.
        if rest + 1 < min || rest > 15 {
            return None;
        }
        let mut name = [0u8; 16];
        name[0] = letter;
        name[1..=rest].copy_from_slice(&b[i + 1..i + 1 + rest]);
        is_math_command(&name[..=rest]).then_some(letter)
    };
    let in_environment = text.contains("\\begin");
    let doubled_command = |i: usize| -> bool {
        // `i` starts a run of exactly two backslashes.
        let rest = b[i + 2..].iter().take_while(|c| c.is_ascii_alphabetic()).count();
        !in_environment && rest >= 2 && is_math_command(&b[i + 2..i + 2 + rest])
    };
    let mut out: Option<String> = None;
    let mut copied = 0;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'\\' {
            let run = b[i..].iter().take_while(|&&c| c == b'\\').count();
            if run == 2 && doubled_command(i) {
                let o = out.get_or_insert_with(|| String::with_capacity(text.len()));
                o.push_str(&text[copied..i]);
                copied = i + 1;
            }
            i += run;
            continue;
        }
        if (0x07..0x0e).contains(&c) {
            if let Some(letter) = damaged_control(i) {
                let o = out.get_or_insert_with(|| String::with_capacity(text.len() + 4));
                o.push_str(&text[copied..i]);
                o.push('\\');
                o.push(letter as char);
                copied = i + 1;
            }
        }
        i += 1;
    }
    out.map(|mut o| {
        o.push_str(&text[copied..]);
        o
    })
}

/// Whether `name` is a LaTeX math command that candidate extraction knows
/// ([`command_class`]): what a damaged escape most likely stood for ([`repaired_escapes`]).
fn is_math_command(name: &[u8]) -> bool {
    std::str::from_utf8(name).is_ok_and(|name| command_class(name) != CommandClass::Other)
}

/// `text` with every `\\` halved when it reads as LaTeX whose backslashes were escaped a second
/// time (a JSON or Python string printed raw: `\\frac{1}{2}`, `-2 \\le x`): every run of
/// backslashes is exactly two long and at least one run is followed by a command name of two
/// letters or more. Read as LaTeX, such a run is a line break followed by plain letters, which
/// no answer means. A text with any other backslash (`\begin{pmatrix}1 \\ 2`, `\\\\`) is LaTeX
/// already.
pub fn escaped_twice(text: &str) -> Option<String> {
    let b = text.as_bytes();
    let mut named = false;
    let mut i = memchr::memchr(b'\\', b)?;
    while i < b.len() {
        if b[i] != b'\\' {
            i += 1;
            continue;
        }
        if b.get(i + 1) != Some(&b'\\') || b.get(i + 2) == Some(&b'\\') {
            return None;
        }
        named |= b.get(i + 2).is_some_and(u8::is_ascii_alphabetic) && b.get(i + 3).is_some_and(u8::is_ascii_alphabetic);
        i += 2;
    }
    named.then(|| text.replace("\\\\", "\\"))
}

/// The tokens of `\frac{num}{den}` for two integer digit strings.
pub(super) fn frac_tokens<'a>(num: Cow<'a, str>, den: Cow<'a, str>) -> [Tok<'a>; 7] {
    let integer = |int| Tok::Num(Numeral { int, frac: None, exp: None });
    [
        Tok::Cmd(Cow::Borrowed("frac")),
        Tok::Sym('{'),
        integer(num),
        Tok::Sym('}'),
        Tok::Sym('{'),
        integer(den),
        Tok::Sym('}'),
    ]
}

fn lex_latex(text: &str) -> Vec<Tok<'_>> {
    let mut lexer = Lexer { s: text, b: text.as_bytes(), i: 0, bracket_depth: 0 };
    // Usually at most one token per byte (the synthetic braces of `\frac12` aside); capped so a
    // huge input grows as before.
    let mut framer = ArgumentFramer { out: Vec::with_capacity(text.len().min(256) + 4), ..Default::default() };
    let mut raw = Vec::with_capacity(4);
    while lexer.next_tokens(&mut raw) {
        for tok in raw.drain(..) {
            framer.push(tok);
        }
    }
    framer.finish()
}

struct Lexer<'a> {
    s: &'a str,
    b: &'a [u8],
    i: usize,
    /// Depth of `(`, `[`, `\{` nesting: a plain `,` is a thousands separator only outside them,
    /// where `(1,000)` would otherwise be read as a number rather than a pair.
    bracket_depth: usize,
}

impl<'a> Lexer<'a> {
    fn peek_char(&self) -> Option<char> {
        self.s[self.i..].chars().next()
    }

    fn at(&self, k: usize) -> u8 {
        self.b.get(self.i + k).copied().unwrap_or(0)
    }

    /// Emits the next token(s) into `out`; false at end of input.
    fn next_tokens(&mut self, out: &mut Vec<Tok<'a>>) -> bool {
        let Some(c) = self.peek_char() else { return false };
        match c {
            '\\' => self.command(out),
            '0'..='9' => self.number(out),
            '.' if self.at(1).is_ascii_digit() => self.number(out),
            'a'..='z' | 'A'..='Z' => {
                let start = self.i;
                while self.at(0).is_ascii_alphabetic() {
                    self.i += 1;
                }
                // `atan2(y, x)` is one name, where `x2` is x times 2.
                if matches!(&self.s[start..self.i], "atan" | "arctan") && self.at(0) == b'2' && self.at(1) == b'(' {
                    self.i += 1;
                }
                out.push(Tok::Word(Cow::Borrowed(&self.s[start..self.i])));
            }
            '$' | '~' => self.i += 1,
            '^' => self.superscript(out),
            '*' => {
                self.i += 1;
                if self.at(0) == b'*' {
                    self.i += 1;
                    out.push(Tok::Sym('^'));
                } else {
                    out.push(Tok::Sym('*'));
                }
            }
            '\'' => {
                self.i += 1;
                out.push(Tok::Prime);
            }
            '(' | '[' => {
                self.i += 1;
                self.bracket_depth += 1;
                out.push(Tok::Sym(c));
            }
            ')' | ']' => {
                self.i += 1;
                self.bracket_depth = self.bracket_depth.saturating_sub(1);
                out.push(Tok::Sym(c));
            }
            // An ellipsis is `\dots`, never sentence periods to drop (`1, 2, 3, ...` is no list
            // of three).
            '.' if self.s[self.i..].starts_with("...") => {
                while self.at(0) == b'.' {
                    self.i += 1;
                }
                out.push(Tok::Cmd(Cow::Borrowed("dots")));
            }
            '…' => {
                self.i += c.len_utf8();
                out.push(Tok::Cmd(Cow::Borrowed("dots")));
            }
            '+' | '-' | '/' | '_' | '=' | '<' | '>' | '!' | ',' | ';' | '|' | '{' | '}' | '&' | '%' | ':' | '.' => {
                self.i += 1;
                out.push(Tok::Sym(c));
            }
            c if c.is_whitespace() || c.is_control() => self.i += c.len_utf8(),
            c if c == '⁻' || c == '⁺' || superscript_digit(c).is_some() => self.unicode_superscript(out),
            c if subscript_digit(c).is_some() => self.unicode_subscript(out),
            c => {
                self.i += c.len_utf8();
                unicode_tokens(c, out);
            }
        }
        true
    }

    /// `^` followed by `\circ` or `\prime` (braced or not, spaces allowed) is a degree or
    /// prime mark.
    fn superscript(&mut self, out: &mut Vec<Tok<'a>>) {
        self.i += 1;
        match degree_or_primes_at(&self.s[self.i..]) {
            Some((len, 0)) => {
                self.i += len;
                out.push(Tok::Degree);
            }
            Some((len, primes)) => {
                self.i += len;
                out.extend(std::iter::repeat(Tok::Prime).take(primes));
            }
            None => out.push(Tok::Sym('^')),
        }
    }

    /// A run of Unicode superscript characters: `x⁻¹` -> `x^{-1}`, `x²³` -> `x^{23}`.
    fn unicode_superscript(&mut self, out: &mut Vec<Tok<'a>>) {
        out.extend([Tok::Sym('^'), Tok::Sym('{')]);
        while let Some(c) = self.peek_char() {
            let tok = match c {
                '⁻' => Tok::Sym('-'),
                '⁺' => Tok::Sym('+'),
                _ => match superscript_digit(c) {
                    Some(d) => {
                        if let Some(Tok::Num(prev)) = out.last_mut() {
                            prev.int.to_mut().push(d);
                            self.i += c.len_utf8();
                            continue;
                        }
                        Tok::Num(Numeral { int: Cow::Owned(d.to_string()), frac: None, exp: None })
                    }
                    None => break,
                },
            };
            self.i += c.len_utf8();
            out.push(tok);
        }
        out.push(Tok::Sym('}'));
    }

    /// A run of Unicode subscript digits: `x₃` -> `x_{3}`, `log₂` -> `log_{2}`, `r₁₂` -> `r_{12}`.
    fn unicode_subscript(&mut self, out: &mut Vec<Tok<'a>>) {
        let mut digits = String::new();
        while let Some(d) = self.peek_char().and_then(subscript_digit) {
            digits.push(d);
            self.i += '₀'.len_utf8();
        }
        out.extend([
            Tok::Sym('_'),
            Tok::Sym('{'),
            Tok::Num(Numeral { int: Cow::Owned(digits), frac: None, exp: None }),
            Tok::Sym('}'),
        ]);
    }

    fn command(&mut self, out: &mut Vec<Tok<'a>>) {
        let next = self.at(1);
        if !next.is_ascii_alphabetic() {
            // Control symbol: backslash and one character.
            let sym = self.s[self.i + 1..].chars().next();
            self.i += 1 + sym.map_or(0, char::len_utf8);
            match sym {
                Some('{') => {
                    self.bracket_depth += 1;
                    out.push(Tok::SetOpen);
                }
                Some('}') => {
                    self.bracket_depth = self.bracket_depth.saturating_sub(1);
                    out.push(Tok::SetClose);
                }
                Some('\\') => out.push(Tok::RowSep),
                Some('%') => out.push(Tok::Sym('%')),
                Some('|') => out.push(Tok::Sym('|')),
                Some('#') | Some('&') => out.push(Tok::Other(sym.unwrap_or('&'))),
                // `\$`, `\(`, `\)`, `\[`, `\]`, spacing `\,` `\;` `\:` `\!` `\ ` `\>`: notation only.
                _ => {}
            }
            return;
        }
        let start = self.i + 1;
        let mut end = start;
        while self.b.get(end).is_some_and(u8::is_ascii_alphabetic) {
            end += 1;
        }
        // `\quadx_{2}` (no space after the spacing command, seen in dataset answers) is `\quad`
        // and then `x`: no command name starts with "quad" or "qquad".
        if let Some(spacing) = ["qquad", "quad"].iter().find(|q| self.s[start..end].starts_with(**q)) {
            end = start + spacing.len();
        }
        let name = &self.s[start..end];
        self.i = end;
        if name == "operatorname" {
            // `\operatorname{lcm}` and `\operatorname*{arg max}` name a function.
            if self.at(0) == b'*' {
                self.i += 1;
            }
            let content = self.braced_argument().unwrap_or_default();
            // Letters and digits: `\operatorname{atan2}` is not `atan` applied to 2.
            let name: String = content.chars().filter(char::is_ascii_alphanumeric).collect();
            if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
                return;
            }
            let canonical = canonical_command(&name).to_string();
            // A name the lexer treats specially (`\operatorname{text}`) would not read back as
            // the same command: it stays a plain word.
            let as_command = Tok::Cmd(Cow::Owned(canonical.clone()));
            let plain = lex(&format!("\\{canonical}")) == [as_command.clone()];
            out.push(if plain { as_command } else { Tok::Word(Cow::Owned(name)) });
            return;
        }
        if name == "mathbb" || name == "Bbb" || name == "mathbf" && self.next_is_set_letter() {
            if let Some(letter) = self.single_letter_argument() {
                let canonical = format!("mathbb{{{letter}}}");
                out.push(Tok::Cmd(Cow::Owned(canonical)));
                return;
            }
        }
        if matches!(name, "mathrm" | "rm" | "mathbf" | "boldsymbol") {
            // A choice label `\mathrm{(D)}` or `\mathbf{(B)}` reads as `\text{(D)}` does;
            // spacing inside the group is no part of it (`\mathrm{(B)\ }18`).
            if let Some(content) = self.peek_braced_argument().filter(|c| c.trim_start().starts_with('(')) {
                let label = content.replace("\\ ", "").replace("\\,", "").replace("\\;", "").replace('~', "");
                if is_choice_label(label.trim()) {
                    let _ = self.braced_argument();
                    out.push(Tok::Text(Cow::Owned(label.trim().to_string())));
                    return;
                }
            }
        }
        if name == "mathrm" || name == "rm" {
            // `\mathrm{cm}` is a unit, `\mathrm{e}` Euler's number: only known units become text.
            if let Some(content) = self.peek_braced_argument() {
                // `\mathrm{^\circ C}`: a degree sign and the scale's letter.
                let degrees = ["^\\circ", "^{\\circ}"].iter().find_map(|d| content.trim_start().strip_prefix(d));
                if let Some(scale) = degrees.map(str::trim).filter(|s| s.is_empty() || matches!(*s, "C" | "F" | "K")) {
                    let _ = self.braced_argument();
                    out.push(Tok::Degree);
                    if !scale.is_empty() {
                        out.push(Tok::Text(Cow::Owned(scale.to_string())));
                    }
                    return;
                }
                let spaced = unit_spacing(content);
                if super::units::is_unit_phrase(spaced.trim()) && !matches!(content.trim(), "e" | "d" | "i") {
                    let content = spaced;
                    let _ = self.braced_argument();
                    out.push(Tok::Text(Cow::Owned(collapse_text(&content))));
                    return;
                }
            }
        }
        if TEXT_COMMANDS.contains(&name) {
            let content = self.braced_argument().unwrap_or_default();
            text_tokens(&content, out);
            return;
        }
        if DROPPED_WITH_ARGUMENT.contains(&name) {
            let _ = self.braced_argument();
            return;
        }
        if DROPPED_COMMANDS.contains(&name) {
            return;
        }
        match canonical_command(name) {
            "lbrace" => {
                self.bracket_depth += 1;
                out.push(Tok::SetOpen);
            }
            "rbrace" => {
                self.bracket_depth = self.bracket_depth.saturating_sub(1);
                out.push(Tok::SetClose);
            }
            "vert" | "lvert" | "rvert" | "mid" | "Vert" | "lVert" | "rVert" => out.push(Tok::Sym('|')),
            "langle" => out.push(Tok::Sym('(')),
            "rangle" => out.push(Tok::Sym(')')),
            "lbrack" => out.push(Tok::Sym('[')),
            "rbrack" => out.push(Tok::Sym(']')),
            "lt" => out.push(Tok::Sym('<')),
            "gt" => out.push(Tok::Sym('>')),
            "div" => out.push(Tok::Sym('/')),
            "colon" => out.push(Tok::Sym(':')),
            "prime" => out.push(Tok::Prime),
            "degree" => out.push(Tok::Degree),
            "percent" => out.push(Tok::Sym('%')),
            canonical => out.push(Tok::Cmd(Cow::Borrowed(canonical))),
        }
    }

    fn next_is_set_letter(&self) -> bool {
        let rest = self.s[self.i..].trim_start();
        let rest = rest.strip_prefix('{').unwrap_or(rest).trim_start();
        let mut chars = rest.chars();
        matches!(chars.next(), Some('R' | 'N' | 'Z' | 'Q' | 'C')) && matches!(chars.next(), Some('}') | None)
    }

    /// The argument of `\mathbb`: `{R}` or `R`.
    fn single_letter_argument(&mut self) -> Option<char> {
        let rest = &self.s[self.i..];
        let trimmed = rest.trim_start();
        let start = self.i + rest.len() - trimmed.len();
        if trimmed.starts_with('{') {
            let close = matching_brace(trimmed.as_bytes(), 0)?;
            let mut inner = trimmed[1..close].trim().chars();
            let letter = inner.next().filter(char::is_ascii_alphabetic)?;
            if inner.next().is_some() {
                return None;
            }
            self.i = start + close + 1;
            return Some(letter);
        }
        let letter = trimmed.chars().next().filter(char::is_ascii_alphabetic)?;
        self.i = start + 1;
        Some(letter)
    }

    /// The content of a `{...}` argument after optional spaces, without consuming it.
    fn peek_braced_argument(&self) -> Option<&'a str> {
        let rest = &self.s[self.i..];
        let trimmed = rest.trim_start();
        if !trimmed.starts_with('{') {
            return None;
        }
        let close = matching_brace(trimmed.as_bytes(), 0)?;
        Some(&trimmed[1..close])
    }

    /// Consumes a `{...}` argument (balanced, `\{` and `\}` escapes honoured) and returns its
    /// content; an unclosed group takes the rest of the input. A single undelimited character
    /// counts as the argument, as in TeX.
    fn braced_argument(&mut self) -> Option<String> {
        let rest = &self.s[self.i..];
        let trimmed = rest.trim_start();
        let skipped = rest.len() - trimmed.len();
        if let Some(inner) = trimmed.strip_prefix('{') {
            match matching_brace(trimmed.as_bytes(), 0) {
                Some(close) => {
                    self.i += skipped + close + 1;
                    Some(trimmed[1..close].to_string())
                }
                None => {
                    self.i = self.s.len();
                    Some(inner.to_string())
                }
            }
        } else {
            let c = trimmed.chars().next()?;
            if c == '\\' || c == '}' {
                return None;
            }
            self.i += skipped + c.len_utf8();
            Some(c.to_string())
        }
    }

    fn number(&mut self, out: &mut Vec<Tok<'a>>) {
        let start_digits = self.i;
        while self.at(0).is_ascii_digit() {
            self.i += 1;
        }
        let mut int = Cow::Borrowed(&self.s[start_digits..self.i]);
        // After a list comma (`27,54,108`) a plain comma cannot start a thousands run: the run
        // already broke the three-digit pattern.
        let after_list_comma = start_digits > 0 && self.b[start_digits - 1] == b',';
        // `4 4/9` is `4\frac{4}{9}` (see `crate::extract::mixed_number`); `1 100/101` is a mixed
        // number, not 1100/101, and `0 100` is no thousands run.
        let mut mixed = mixed_fraction_after(self.s, start_digits..self.i);
        if mixed.is_none() && int.len() <= 3 && !int.is_empty() && !int.starts_with('0') {
            let before = self.i;
            self.thousands_groups(&mut int, after_list_comma);
            if self.i != before {
                mixed = mixed_fraction_after(self.s, start_digits..self.i); // `1,000 1/2`
            }
        }
        if let Some(m) = mixed {
            out.push(Tok::Num(Numeral { int, frac: None, exp: None }));
            out.extend(frac_tokens(Cow::Borrowed(&self.s[m.numerator]), Cow::Borrowed(&self.s[m.denominator])));
            self.i = m.end;
            return;
        }
        if let Some(r) = repeating_decimal_after(self.s, self.i) {
            // `0.1\overline{6}`, `0.333...`: the exact fraction, grouped.
            let (num, den) = r.fraction(self.s);
            let whole: BigInt = if int.is_empty() { BigInt::zero() } else { int.parse().unwrap_or_default() };
            out.push(Tok::Sym('('));
            out.extend(frac_tokens(Cow::Owned((whole * &den + num).to_string()), Cow::Owned(den.to_string())));
            out.push(Tok::Sym(')'));
            self.i = r.end;
            return;
        }
        let mut frac = None;
        if self.at(0) == b'.' && self.at(1).is_ascii_digit() {
            self.i += 1;
            let start = self.i;
            while self.at(0).is_ascii_digit() {
                self.i += 1;
            }
            frac = Some(Cow::Borrowed(&self.s[start..self.i]));
            // A truncated decimal (`3.14...`) is read as written; the decimal policy decides.
            if let Some(ellipsis) = ELLIPSES.iter().find(|e| self.s[self.i..].starts_with(**e)) {
                self.i += ellipsis.len();
            }
        }
        let exp = self.exponent();
        out.push(Tok::Num(Numeral { int, frac, exp }));
    }

    /// Scientific notation written directly after the mantissa: `4.5e33`, `1e-5`, `1.70E4`.
    fn exponent(&mut self) -> Option<i64> {
        if !matches!(self.at(0), b'e' | b'E') {
            return None;
        }
        let mut k = 1;
        let negative = match self.at(1) {
            b'-' => {
                k += 1;
                true
            }
            b'+' => {
                k += 1;
                false
            }
            _ => false,
        };
        if !self.at(k).is_ascii_digit() {
            return None;
        }
        let start = self.i + k;
        let mut end = start;
        while self.b.get(end).is_some_and(u8::is_ascii_digit) {
            end += 1;
        }
        // A letter right after the digits (`2e3x` is fine, `1e5cm` too) does not matter; a
        // saturated exponent is only reachable with absurd inputs and stays absurd.
        let magnitude = self.s[start..end].parse::<i64>().unwrap_or(i64::MAX / 2);
        self.i = end;
        Some(if negative { -magnitude } else { magnitude })
    }

    /// Merges thousands groups into `int` when every group of the run is a separator followed by
    /// exactly three digits. A plain comma counts only outside brackets and only when no comma of
    /// the run breaks the pattern (`1,000` is one number; `1,2,3`, `1,000,5` and `(1,000)` are lists).
    fn thousands_groups(&mut self, int: &mut Cow<'a, str>, after_list_comma: bool) {
        let mut pos = self.i;
        let mut groups: Vec<(usize, usize)> = Vec::new();
        let (mut any_plain, mut broken_plain) = (false, false);
        let (mut any_space, mut broken_space) = (false, false);
        while let Some((after, kind)) = self.separator_at(pos) {
            let end = after + 3;
            let three_digits = self.b.get(after..end).is_some_and(|d| d.iter().all(u8::is_ascii_digit));
            if !three_digits || self.b.get(end).is_some_and(u8::is_ascii_digit) {
                let digit_after = self.b.get(after).is_some_and(u8::is_ascii_digit);
                broken_plain = kind == Separator::Comma && digit_after;
                broken_space = kind == Separator::Space && digit_after;
                break;
            }
            any_plain |= kind == Separator::Comma;
            any_space |= kind == Separator::Space;
            groups.push((after, end));
            pos = end;
        }
        if any_plain && (broken_plain || after_list_comma || self.bracket_depth > 0) {
            return;
        }
        // `1 000 000`: only a whole run of three-digit groups after single spaces (`1 0000` and
        // `12 34` stay apart), and never mixed with commas.
        if any_space && (broken_space || any_plain) {
            return;
        }
        for &(start, end) in &groups {
            int.to_mut().push_str(&self.s[start..end]);
        }
        if let Some(&(_, end)) = groups.last() {
            self.i = end;
        }
    }

    /// A thousands separator at byte `pos`: returns the position after it and its kind.
    fn separator_at(&self, pos: usize) -> Option<(usize, Separator)> {
        let rest = self.b.get(pos..)?;
        let skip_spaces = |mut k: usize| {
            while rest.get(k) == Some(&b' ') {
                k += 1;
            }
            k
        };
        // `{,}`, also spaced: `14 {, }916`.
        let brace = skip_spaces(0);
        if rest.get(brace) == Some(&b'{') {
            let comma = skip_spaces(brace + 1);
            let close = skip_spaces(comma + 1);
            if rest.get(comma) == Some(&b',') && rest.get(close) == Some(&b'}') {
                return Some((pos + close + 1, Separator::Marked));
            }
        }
        if rest.starts_with(b",\\!") {
            return Some((pos + skip_spaces(3), Separator::Marked));
        }
        if rest.starts_with(b"\\!,") {
            return Some((pos + 3, Separator::Marked));
        }
        if rest.starts_with(b"\\,") || rest.starts_with(b"\\ ") {
            return Some((pos + skip_spaces(2), Separator::Marked));
        }
        if rest.starts_with(b",") {
            return Some((pos + 1, Separator::Comma));
        }
        if rest.starts_with(b" ") && rest.get(1).is_some_and(u8::is_ascii_digit) {
            return Some((pos + 1, Separator::Space));
        }
        None
    }
}

/// What separates thousands groups.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Separator {
    /// A mark that only separates thousands: `{,}`, `\,`, `\ `, `,\!`.
    Marked,
    /// A plain comma, which may also separate list items.
    Comma,
    /// One plain space (`1 000`).
    Space,
}

/// Index of the `}` matching the `{` at `open`, honouring `\{` and `\}` escapes.
pub(crate) fn matching_brace(b: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut k = open;
    while k < b.len() {
        match b[k] {
            b'\\' => k += 1,
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(k);
                }
            }
            _ => {}
        }
        k += 1;
    }
    None
}

/// Trims, drops `$`, braces and backslashes (text has no structure worth keeping, and an
/// unclosed `\text{a{` must render to something that reads back the same) and collapses
/// whitespace runs to one space.
/// Spacing between units (`\mathrm{kJ\,mol^{-1}}`, `\mathrm{N~m}`, `\mathrm{J\cdot s}`) as
/// plain spaces.
/// The Greek letters of unit symbols become the symbols' own letters: `\Omega` is `Ω`
/// (`\mathrm{k\Omega}`), `\mu` the micro sign (`\mathrm{\mu m}`: the space after a control
/// word is not typeset).
fn unit_spacing(content: &str) -> String {
    const SPACING: &[&str] = &["\\cdot", "\\,", "\\;", "\\:", "\\ ", "~", "·"];
    const LETTERS: &[(&str, &str)] = &[("\\Omega", "Ω"), ("\\mu", "µ")];
    let mut out = String::with_capacity(content.len());
    let mut rest = content;
    while let Some(c) = rest.chars().next() {
        let letter = LETTERS.iter().find(|(cmd, _)| {
            rest.starts_with(cmd) && !rest.as_bytes().get(cmd.len()).is_some_and(u8::is_ascii_alphabetic)
        });
        if let Some((cmd, symbol)) = letter {
            out.push_str(symbol);
            rest = rest[cmd.len()..].trim_start_matches(' ');
            continue;
        }
        match SPACING.iter().find(|p| rest.starts_with(**p)) {
            Some(p) => {
                out.push(' ');
                rest = &rest[p.len()..];
            }
            None => {
                out.push(c);
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    out
}

pub fn collapse_text(content: &str) -> String {
    let mut out = String::with_capacity(content.len());
    let cleaned: String = content.chars().filter(|c| !matches!(c, '{' | '}' | '\\')).collect();
    for word in cleaned.split(|c: char| c.is_whitespace() || c == '$' || c == '~') {
        if word.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// Text-mode content: prose stays one [`Tok::Text`]; content without letters (`\text{5}`,
/// `\text{(}`) is math that happens to be wrapped and is lexed as such.
fn text_tokens<'a>(content: &str, out: &mut Vec<Tok<'a>>) {
    let collapsed = collapse_text(content);
    if collapsed.is_empty() {
        return;
    }
    if collapsed.chars().any(char::is_alphabetic) {
        // A joining word at either end joins the values around the text (`7 \text{ goats and }
        // 4 \text{ helicopters}`): it becomes a token of its own.
        let joining = |w: &str| w.eq_ignore_ascii_case("and") || w.eq_ignore_ascii_case("or");
        let (mut first, mut last) = (None, None);
        let mut body = collapsed.as_str();
        if let Some((head, rest)) = body.split_once(' ').filter(|(head, _)| joining(head) && !out.is_empty()) {
            first = Some(head.to_string());
            body = rest;
        }
        if let Some((rest, tail)) = body.rsplit_once(' ').filter(|(_, tail)| joining(tail)) {
            last = Some(tail.to_string());
            body = rest;
        }
        if first.is_none() && last.is_none() {
            out.push(Tok::Text(Cow::Owned(collapsed)));
            return;
        }
        out.extend(first.map(|w| Tok::Text(Cow::Owned(w))));
        // The rest is text again (`\text{and 7}` leaves math); shorter, so this ends.
        text_tokens(body, out);
        out.extend(last.map(|w| Tok::Text(Cow::Owned(w))));
        return;
    }
    // No letters means no commands either: this nested lex cannot recurse again. Its tokens
    // borrow from `collapsed` and are made owned.
    let mut inner = Lexer { s: &collapsed, b: collapsed.as_bytes(), i: 0, bracket_depth: 0 };
    let mut tokens = Vec::new();
    while inner.next_tokens(&mut tokens) {}
    out.extend(tokens.into_iter().map(|t| -> Tok<'a> { t.into_owned() }));
}

/// Unicode spellings of math tokens.
fn unicode_tokens(c: char, out: &mut Vec<Tok<'_>>) {
    let cmd = |name: &'static str| Tok::Cmd(Cow::Borrowed(name));
    let tok = match c {
        '√' => cmd("sqrt"),
        // `∛x` is `\sqrt[3]{x}`, `∜x` is `\sqrt[4]{x}`.
        '∛' | '∜' => {
            let index = if c == '∛' { "3" } else { "4" };
            out.extend([
                cmd("sqrt"),
                Tok::Sym('['),
                Tok::Num(Numeral { int: Cow::Borrowed(index), frac: None, exp: None }),
            ]);
            Tok::Sym(']')
        }
        'π' => cmd("pi"),
        '×' | '·' | '⋅' | '∙' | '∗' => cmd("cdot"),
        '÷' | '∕' => Tok::Sym('/'),
        '−' | '–' | '—' | '‐' | '‑' | '﹣' | '－' => Tok::Sym('-'),
        '＋' => Tok::Sym('+'),
        '＝' => Tok::Sym('='),
        '≤' | '⩽' | '≦' => cmd("le"),
        '≥' | '⩾' | '≧' => cmd("ge"),
        '≠' => cmd("ne"),
        '≈' | '≃' => cmd("approx"),
        '∞' => cmd("infty"),
        '∈' => cmd("in"),
        '∉' => cmd("notin"),
        '∪' => cmd("cup"),
        '∧' => cmd("land"),
        '∨' => cmd("lor"),
        '∩' => cmd("cap"),
        '∖' => cmd("setminus"),
        '∅' => cmd("emptyset"),
        '±' => cmd("pm"),
        '∓' => cmd("mp"),
        '°' | '∘' => Tok::Degree,
        '′' => Tok::Prime,
        '″' => {
            out.push(Tok::Prime);
            Tok::Prime
        }
        'ℝ' => cmd("mathbb{R}"),
        'ℕ' => cmd("mathbb{N}"),
        'ℤ' => cmd("mathbb{Z}"),
        'ℚ' => cmd("mathbb{Q}"),
        'ℂ' => cmd("mathbb{C}"),
        '⌊' => cmd("lfloor"),
        '⌋' => cmd("rfloor"),
        '⌈' => cmd("lceil"),
        '⌉' => cmd("rceil"),
        '∣' => Tok::Sym('|'),
        '⟨' => Tok::Sym('('),
        '⟩' => Tok::Sym(')'),
        '½' | '⅓' | '⅔' | '¼' | '¾' | '⅕' | '⅙' | '⅛' => {
            let (n, d) = match c {
                '½' => (1, 2),
                '⅓' => (1, 3),
                '⅔' => (2, 3),
                '¼' => (1, 4),
                '¾' => (3, 4),
                '⅕' => (1, 5),
                '⅙' => (1, 6),
                _ => (1, 8),
            };
            out.push(cmd("frac"));
            for v in [n, d] {
                out.push(Tok::Sym('{'));
                out.push(Tok::Num(Numeral { int: Cow::Owned(v.to_string()), frac: None, exp: None }));
                out.push(Tok::Sym('}'));
            }
            return;
        }
        c => match greek_name(c) {
            Some(name) => cmd(name),
            None => Tok::Other(c),
        },
    };
    out.push(tok);
}

fn subscript_digit(c: char) -> Option<char> {
    ('₀'..='₉').contains(&c).then(|| char::from(b'0' + (c as u32 - '₀' as u32) as u8))
}

/// The digit a superscript digit writes (`²` is `2`): a power, as the lexer reads `5²`.
pub(crate) fn superscript_digit(c: char) -> Option<char> {
    Some(match c {
        '⁰' => '0',
        '¹' => '1',
        '²' => '2',
        '³' => '3',
        '⁴' => '4',
        '⁵' => '5',
        '⁶' => '6',
        '⁷' => '7',
        '⁸' => '8',
        '⁹' => '9',
        _ => return None,
    })
}

/// Length of a degree mark (`\circ`, `{ \circ }`, `\degree`; returns 0 marks) or of primes
/// (`\prime`, `{\prime\prime}`; returns their count) at the start of `s`, which follows a `^`.
fn degree_or_primes_at(s: &str) -> Option<(usize, usize)> {
    let b = s.as_bytes();
    let skip = |mut k: usize| {
        while b.get(k).is_some_and(u8::is_ascii_whitespace) {
            k += 1;
        }
        k
    };
    let command_at = |k: usize, name: &str| {
        s.get(k..).is_some_and(|r| r.starts_with(name)) && !b.get(k + name.len()).is_some_and(u8::is_ascii_alphabetic)
    };
    let mut k = skip(0);
    let braced = b.get(k) == Some(&b'{');
    if braced {
        k = skip(k + 1);
    }
    let (mut degree, mut primes) = (false, 0usize);
    loop {
        if command_at(k, "\\circ") {
            degree = true;
            k += 5;
        } else if command_at(k, "\\degree") {
            degree = true;
            k += 7;
        } else if command_at(k, "\\prime") {
            primes += 1;
            k += 6;
        } else {
            break;
        }
        if !braced {
            break;
        }
        k = skip(k);
    }
    if degree == (primes > 0) {
        return None;
    }
    if braced {
        if b.get(k) != Some(&b'}') {
            return None;
        }
        k += 1;
    }
    Some((k, primes))
}

fn greek_name(c: char) -> Option<&'static str> {
    Some(match c {
        'α' => "alpha",
        'β' => "beta",
        'γ' => "gamma",
        'δ' => "delta",
        'ε' | 'ϵ' => "epsilon",
        'ζ' => "zeta",
        'η' => "eta",
        'θ' | 'ϑ' => "theta",
        'ι' => "iota",
        'κ' => "kappa",
        'λ' => "lambda",
        'μ' => "mu",
        'ν' => "nu",
        'ξ' => "xi",
        'ρ' => "rho",
        'σ' | 'ς' => "sigma",
        'τ' => "tau",
        'υ' => "upsilon",
        'φ' | 'ϕ' => "phi",
        'χ' => "chi",
        'ψ' => "psi",
        'ω' => "omega",
        'Γ' => "Gamma",
        'Δ' => "Delta",
        'Θ' => "Theta",
        'Λ' => "Lambda",
        'Ξ' => "Xi",
        'Σ' => "Sigma",
        'Φ' => "Phi",
        'Ψ' => "Psi",
        'Ω' => "Omega",
        _ => return None,
    })
}

/// Number of mandatory arguments of a command whose undelimited arguments get braces.
fn argument_count(cmd: &str) -> u8 {
    match cmd {
        "frac" | "binom" => 2,
        "sqrt" | "dot" | "ddot" | "hat" | "bar" | "vec" | "tilde" | "overline" | "widehat" | "widetilde"
        | "overrightarrow" | "underline" => 1,
        _ => 0,
    }
}

/// How a command with arguments reads an undelimited one.
fn frame_kind_of(cmd: &str) -> FrameKind {
    match cmd {
        "frac" | "binom" => FrameKind::Digits,
        "sqrt" => FrameKind::Root,
        _ => FrameKind::Whole,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FrameKind {
    /// `\frac`, `\binom`: TeX reading, one digit per undelimited argument.
    Digits,
    /// Accents: a whole number is the argument.
    Whole,
    /// `\sqrt`: a whole number, or a parenthesised group (`√(1/27)`, `\sqrt(2)`).
    Root,
    /// `^`, `_`: a whole number, a sign and its operand, or a parenthesised group.
    Script,
}

#[derive(Debug)]
struct Frame {
    kind: FrameKind,
    args_left: u8,
    /// Brace depth at which this command reads its arguments.
    depth: usize,
    /// A synthetic `{` was emitted for the current argument and awaits its `}`.
    wrapping: bool,
    /// Inside `\sqrt[...]`: the optional argument, with its bracket depth.
    optional: Option<usize>,
    optional_allowed: bool,
    /// Inside a parenthesised argument (`2^(n+1)`, `√(1/27)`), with its paren depth.
    parens: Option<usize>,
    /// The current argument is being read inside a real `{...}` group.
    in_group: bool,
    /// The current argument is a command with arguments of its own (a child frame).
    awaiting_child: bool,
    /// The current argument is a function named in plain text (`2^sqrt(3)`), which takes the
    /// parenthesised argument that follows along.
    named_function: bool,
}

/// Gives undelimited macro arguments their braces while tokens stream through. An explicit
/// stack replaces recursion, so depth costs memory proportional to nesting, never stack.
#[derive(Default)]
struct ArgumentFramer<'a> {
    out: Vec<Tok<'a>>,
    frames: Vec<Frame>,
    depth: usize,
}

impl<'a> ArgumentFramer<'a> {
    fn push(&mut self, tok: Tok<'a>) {
        let mut pending = Some(tok);
        while let Some(tok) = pending.take() {
            pending = self.dispatch(tok);
        }
    }

    fn top_wants_argument(&self) -> bool {
        self.frames.last().is_some_and(|f| {
            f.depth == self.depth
                && f.args_left > 0
                && !f.in_group
                && !f.awaiting_child
                && f.optional.is_none()
                && f.parens.is_none()
        })
    }

    /// Handles one token; returns a token to re-dispatch (the rest of a split number).
    fn dispatch(&mut self, tok: Tok<'a>) -> Option<Tok<'a>> {
        // Tokens inside an argument being read (group, optional, parens) pass through, with
        // their closing delimiter ending the argument.
        if let Some(frame) = self.frames.last_mut() {
            if let Some(opt_depth) = frame.optional {
                match tok {
                    Tok::Sym('[') => frame.optional = Some(opt_depth + 1),
                    Tok::Sym(']') if opt_depth == 0 => frame.optional = None,
                    Tok::Sym(']') => frame.optional = Some(opt_depth - 1),
                    _ => {}
                }
                self.emit_plain(tok);
                return None;
            }
            if let Some(paren_depth) = frame.parens {
                match tok {
                    Tok::Sym('(') => frame.parens = Some(paren_depth + 1),
                    Tok::Sym(')') if paren_depth == 0 => {
                        frame.parens = None;
                        self.emit_plain(tok);
                        self.argument_done();
                        return None;
                    }
                    Tok::Sym(')') => frame.parens = Some(paren_depth - 1),
                    _ => {}
                }
                self.emit_plain(tok);
                return None;
            }
        }
        if !self.top_wants_argument() {
            self.emit_plain(tok);
            return None;
        }
        let frame_kind = self.frames.last().map(|f| f.kind);
        let kind = frame_kind.unwrap_or(FrameKind::Whole);
        if self.frames.last().is_some_and(|f| f.named_function) && !tok.is_sym('(') {
            // `e^sin x`: the name alone, no parenthesised argument, ends the script.
            self.argument_done();
            return Some(tok);
        }
        match tok {
            Tok::Sym('{') => {
                if let Some(f) = self.frames.last_mut() {
                    f.in_group = true;
                }
                self.emit_plain(tok);
                None
            }
            Tok::Sym('[') if self.frames.last().is_some_and(|f| f.optional_allowed) => {
                if let Some(f) = self.frames.last_mut() {
                    f.optional = Some(0);
                    f.optional_allowed = false;
                }
                self.emit_plain(tok);
                None
            }
            // `2^(n+1)`, and `√(1/27)`, `\sqrt(2)` as plain-text writers mean them.
            Tok::Sym('(') if matches!(kind, FrameKind::Script | FrameKind::Root) => {
                self.open_wrap();
                if let Some(f) = self.frames.last_mut() {
                    f.parens = Some(0);
                }
                self.emit_plain(tok);
                None
            }
            Tok::Sym('-') | Tok::Sym('+') if kind == FrameKind::Script => {
                let already = self.frames.last().is_some_and(|f| f.wrapping);
                if already {
                    return self.abort_frame(tok);
                }
                self.open_wrap();
                self.out.push(tok);
                None
            }
            Tok::Num(num)
                if kind == FrameKind::Digits && num.frac.is_none() && num.exp.is_none() && num.int.len() > 1 =>
            {
                let (first, rest) = split_cow(num.int, 1);
                let rest = Tok::Num(Numeral { int: rest, frac: None, exp: None });
                self.wrap_single(Tok::Num(Numeral { int: first, frac: None, exp: None }));
                Some(rest)
            }
            // `2^sqrt(3)`, `e^sin(x)`: plain text means the function, with its argument, in
            // the exponent (TeX would take the letter `s` alone).
            // A Greek letter's name is one letter too: `omega^beta`.
            Tok::Word(word) if kind == FrameKind::Script && GREEK_LETTERS.contains(&&*word) => {
                self.wrap_single(Tok::Word(word));
                None
            }
            Tok::Word(word) if kind == FrameKind::Script && (word == "sqrt" || function_name(&word)) => {
                self.open_wrap();
                self.out.push(Tok::Word(word));
                if let Some(f) = self.frames.last_mut() {
                    f.named_function = true;
                }
                None
            }
            Tok::Word(word) if word.len() > 1 => {
                let first_len = word.chars().next().map_or(0, char::len_utf8);
                let (first, rest) = split_cow(word, first_len);
                self.wrap_single(Tok::Word(first));
                Some(Tok::Word(rest))
            }
            Tok::Cmd(name) if argument_count(&name) > 0 => {
                self.open_wrap();
                if let Some(f) = self.frames.last_mut() {
                    f.awaiting_child = true;
                }
                let n = argument_count(&name);
                let child_kind = frame_kind_of(&name);
                self.out.push(Tok::Cmd(name));
                self.frames.push(Frame::new(child_kind, n, self.depth));
                None
            }
            Tok::Sym('^') | Tok::Sym('_') => {
                // `x^_` or `x^^`: the argument is missing.
                self.abort_frame(tok)
            }
            Tok::Sym('}' | ')' | ']' | ',' | ';' | '=' | '<' | '>' | '&' | '|') => self.abort_frame(tok),
            Tok::SetClose | Tok::RowSep => self.abort_frame(tok),
            other => {
                self.wrap_single(other);
                None
            }
        }
    }

    fn open_wrap(&mut self) {
        if let Some(f) = self.frames.last_mut() {
            if !f.wrapping {
                f.wrapping = true;
                self.out.push(Tok::Sym('{'));
            }
        }
    }

    /// Emits one complete argument token, braced.
    fn wrap_single(&mut self, tok: Tok<'a>) {
        self.open_wrap();
        self.out.push(tok);
        self.argument_done();
    }

    /// The argument being read is complete: close a synthetic brace, count it, pop finished
    /// frames (which completes the parent's argument in turn).
    fn argument_done(&mut self) {
        loop {
            let Some(frame) = self.frames.last_mut() else { return };
            if frame.wrapping {
                frame.wrapping = false;
                self.out.push(Tok::Sym('}'));
            }
            frame.in_group = false;
            frame.awaiting_child = false;
            frame.named_function = false;
            frame.optional_allowed = false;
            frame.args_left = frame.args_left.saturating_sub(1);
            if frame.args_left > 0 {
                return;
            }
            self.frames.pop();
            match self.frames.last() {
                Some(parent) if parent.awaiting_child => continue,
                _ => return,
            }
        }
    }

    /// A token that cannot be an argument: close what is open and hand it back.
    fn abort_frame(&mut self, tok: Tok<'a>) -> Option<Tok<'a>> {
        if let Some(frame) = self.frames.pop() {
            if frame.wrapping {
                self.out.push(Tok::Sym('}'));
            }
            if let Some(parent) = self.frames.last_mut() {
                if parent.awaiting_child {
                    // The parent's argument was this command: it ends here too.
                    self.argument_done();
                }
            }
        }
        Some(tok)
    }

    /// A token outside any argument position (or passing through one).
    fn emit_plain(&mut self, tok: Tok<'a>) {
        match &tok {
            Tok::Sym('{') => self.depth += 1,
            Tok::Sym('}') => {
                self.depth = self.depth.saturating_sub(1);
                let closes_group = self.frames.last().is_some_and(|f| f.in_group && f.depth == self.depth);
                self.out.push(tok);
                if closes_group {
                    self.argument_done();
                }
                return;
            }
            _ => {}
        }
        let starts_frame = match &tok {
            Tok::Sym('^') | Tok::Sym('_') => Some(Frame::new(FrameKind::Script, 1, self.depth)),
            Tok::Cmd(name) if argument_count(name) > 0 => {
                Some(Frame::new(frame_kind_of(name), argument_count(name), self.depth))
            }
            _ => None,
        };
        self.out.push(tok);
        if let Some(frame) = starts_frame {
            self.frames.push(frame);
        }
    }

    fn finish(mut self) -> Vec<Tok<'a>> {
        while let Some(frame) = self.frames.pop() {
            if frame.wrapping {
                self.out.push(Tok::Sym('}'));
            }
        }
        // Leading zeros go only now: `\frac{1}{0}`'s digits were split from the raw `10`. After
        // `:` they stay: the minutes of `9:05` and `12:00` tell a time from a ratio.
        for k in 0..self.out.len() {
            let after_colon = k > 0 && self.out[k - 1].is_sym(':');
            if let Tok::Num(n) = &mut self.out[k] {
                if after_colon {
                    continue;
                }
                let zeros = n.int.len() - n.int.trim_start_matches('0').len();
                match &mut n.int {
                    Cow::Borrowed(s) => *s = &s[zeros..],
                    Cow::Owned(s) => {
                        s.drain(..zeros);
                    }
                }
            }
        }
        self.out
    }
}

/// `s` split at byte `at` (a character boundary), slices of the input where `s` is one.
fn split_cow(s: Cow<'_, str>, at: usize) -> (Cow<'_, str>, Cow<'_, str>) {
    match s {
        Cow::Borrowed(s) => {
            let (a, b) = s.split_at(at);
            (Cow::Borrowed(a), Cow::Borrowed(b))
        }
        Cow::Owned(s) => {
            let (a, b) = s.split_at(at);
            (Cow::Owned(a.to_string()), Cow::Owned(b.to_string()))
        }
    }
}

impl Tok<'_> {
    /// Whether this is the symbol `c`: a test of the variant, where `== Tok::Sym(c)` calls the
    /// derived comparison (which handles every variant's text) out of line.
    #[inline]
    pub fn is_sym(&self, c: char) -> bool {
        matches!(self, Tok::Sym(s) if *s == c)
    }

    /// The same token owning its text.
    pub fn into_owned(self) -> Tok<'static> {
        let own = |s: Cow<'_, str>| Cow::Owned(s.into_owned());
        match self {
            Tok::Num(n) => Tok::Num(Numeral { int: own(n.int), frac: n.frac.map(own), exp: n.exp }),
            Tok::Word(w) => Tok::Word(own(w)),
            Tok::Cmd(c) => Tok::Cmd(own(c)),
            Tok::Text(t) => Tok::Text(own(t)),
            Tok::Sym(c) => Tok::Sym(c),
            Tok::SetOpen => Tok::SetOpen,
            Tok::SetClose => Tok::SetClose,
            Tok::RowSep => Tok::RowSep,
            Tok::Degree => Tok::Degree,
            Tok::Prime => Tok::Prime,
            Tok::Other(c) => Tok::Other(c),
        }
    }
}

impl Frame {
    fn new(kind: FrameKind, args: u8, depth: usize) -> Frame {
        Frame {
            kind,
            args_left: args,
            depth,
            wrapping: false,
            optional: None,
            // Only `\sqrt[n]` has an optional argument.
            optional_allowed: kind == FrameKind::Root,
            parens: None,
            in_group: false,
            awaiting_child: false,
            named_function: false,
        }
    }
}

/// `(A)` to `(E)`, either case: a multiple-choice label.
fn is_choice_label(s: &str) -> bool {
    matches!(s.as_bytes(), [b'(', b'A'..=b'E' | b'a'..=b'e', b')'])
}

/// Renders tokens back to a string that lexes to the same tokens; spaces only where two
/// tokens would otherwise merge.
pub fn render(tokens: &[Tok]) -> String {
    render_with(tokens, false)
}

/// [`render`], with text content lowercased when `lowercase_text` is set.
pub fn render_with(tokens: &[Tok], lowercase_text: bool) -> String {
    let mut out = String::with_capacity(tokens.len() * 2);
    let mut prev: Option<&Tok> = None;
    for tok in tokens {
        if let Some(p) = prev {
            if matches!((p, tok), (Tok::Num(_), Tok::Num(_))) {
                // Two numbers in a row (`7\n557`): a plain space would read back as one number
                // with a thousands separator (`7 557`); `~` keeps them apart.
                out.push('~');
            } else if needs_space(p, tok) {
                out.push(' ');
            }
        }
        match tok {
            Tok::Text(t) if lowercase_text => {
                out.push_str("\\text{");
                out.push_str(&super::units::fold_case(t));
                out.push('}');
            }
            _ => render_token(tok, &mut out),
        }
        prev = Some(tok);
    }
    out
}

pub fn render_token(tok: &Tok, out: &mut String) {
    match tok {
        Tok::Num(n) => n.render(out),
        Tok::Word(w) => out.push_str(w),
        Tok::Cmd(name) => {
            out.push('\\');
            out.push_str(name);
        }
        Tok::Text(t) => {
            out.push_str("\\text{");
            out.push_str(t);
            out.push('}');
        }
        Tok::Sym(',') => out.push_str(", "),
        Tok::Sym(c) => out.push(*c),
        Tok::SetOpen => out.push_str("\\{"),
        Tok::SetClose => out.push_str("\\}"),
        Tok::RowSep => out.push_str("\\\\"),
        Tok::Degree => out.push_str("^{\\circ}"),
        Tok::Prime => out.push('\''),
        Tok::Other(c) => out.push(*c),
    }
}

fn needs_space(prev: &Tok, next: &Tok) -> bool {
    let ends_alpha =
        matches!(prev, Tok::Word(_)) || matches!(prev, Tok::Cmd(n) if n.ends_with(|c: char| c.is_ascii_alphabetic()));
    let starts_alpha = matches!(next, Tok::Word(_));
    match (prev, next) {
        _ if ends_alpha && starts_alpha => true,
        (Tok::Num(_), Tok::Num(_)) => true,
        // `2` `e` `-5` would read back as scientific notation.
        (Tok::Num(_), Tok::Word(w)) => w.starts_with(['e', 'E']),
        (Tok::Num(_), Tok::Sym('.')) | (Tok::Sym('.'), Tok::Num(_)) => true,
        (Tok::Sym('*'), Tok::Sym('*')) => true,
        // Periods that came apart in the text (`..\~.`) would read back as an ellipsis.
        (Tok::Sym('.'), Tok::Sym('.')) => true,
        // `\\x` would read back as `\x` escaped twice (see [`escaped_twice`]).
        (Tok::RowSep, Tok::Word(_)) => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(s: &str) -> String {
        render(&lex(s))
    }

    #[test]
    fn notation_noise_disappears() {
        assert_eq!(show("\\left( 3, \\dfrac{\\pi}{2} \\right)"), "(3, \\frac{\\pi}{2})");
        assert_eq!(show("$\\displaystyle \\boxed{\\tfrac{1}{2}}$"), "{\\frac{1}{2}}");
        assert_eq!(show("\\text{a{b\\"), "\\text{ab}");
        assert_eq!(show("\\mathrm{e}^{x}"), "{e}^{x}");
        assert_eq!(show("12\\,\\text{ cm}"), "12\\text{cm}");
    }

    #[test]
    fn undelimited_arguments_get_braces() {
        assert_eq!(show("\\frac12"), "\\frac{1}{2}");
        assert_eq!(show("\\frac123"), "\\frac{1}{2}3");
        assert_eq!(show("\\frac1{20}"), "\\frac{1}{20}");
        assert_eq!(show("\\frac{3}4x"), "\\frac{3}{4}x");
        assert_eq!(show("\\sqrt3"), "\\sqrt{3}");
        assert_eq!(show("\\sqrt12"), "\\sqrt{12}");
        assert_eq!(show("\\sqrt[3]{7}"), "\\sqrt[3]{7}");
        assert_eq!(show("x^2y"), "x^{2}y");
        assert_eq!(show("2^10"), "2^{10}");
        assert_eq!(show("x^-1"), "x^{-1}");
        assert_eq!(show("2^(n+1)"), "2^{(n+1)}");
        assert_eq!(show("e^\\frac12"), "e^{\\frac{1}{2}}");
        assert_eq!(show("\\frac\\pi2"), "\\frac{\\pi}{2}");
        assert_eq!(show("x_12"), "x_{12}");
        assert_eq!(show("\\frac ab"), "\\frac{a}{b}");
    }

    #[test]
    fn thousands_separators_merge_only_where_unambiguous() {
        assert_eq!(show("1,000"), "1000");
        assert_eq!(show("1\\,000"), "1000");
        assert_eq!(show("1{,}000{,}000"), "1000000");
        assert_eq!(show("10,\\!080"), "10080");
        assert_eq!(show("11,\\! 111,\\! 111,\\! 100"), "11111111100");
        assert_eq!(show("1,2,3"), "1, 2, 3");
        assert_eq!(show("1,000,5"), "1, 0, 5");
        assert_eq!(show("(1,000)"), "(1, 0)");
        assert_eq!(show("2500,7500"), "2500, 7500");
        assert_eq!(show("1, 000"), "1, 0");
        assert_eq!(show("27,54,108,135"), "27, 54, 108, 135");
    }

    #[test]
    fn numbers_are_canonical() {
        assert_eq!(show(".5"), "0.5");
        assert_eq!(show("023"), "23");
        assert_eq!(show("0.10"), "0.10");
        assert_eq!(show("4.5e33"), "4.5e33");
        assert_eq!(show("1e-5"), "1e-5");
        assert_eq!(show("2e"), "2 e");
    }

    #[test]
    fn unicode_spellings() {
        assert_eq!(show("√2"), "\\sqrt{2}");
        assert_eq!(show("2π"), "2\\pi");
        assert_eq!(show("x² − 1"), "x^{2}-1");
        assert_eq!(show("x⁻¹"), "x^{-1}");
        assert_eq!(show("x ≤ 3"), "x\\le3");
        assert_eq!(show("30°"), "30^{\\circ}");
        assert_eq!(show("3 × 4 ÷ 2"), "3\\cdot4/2");
    }

    #[test]
    fn degrees_and_primes() {
        assert_eq!(lex("90^\\circ"), vec![Tok::Num(Numeral { int: "90".into(), frac: None, exp: None }), Tok::Degree]);
        assert_eq!(lex("x^{\\prime}"), vec![Tok::Word("x".into()), Tok::Prime]);
        assert_eq!(show("0.003^{\\prime \\prime}"), "0.003''");
    }

    #[test]
    fn text_commands() {
        assert_eq!(lex("\\text{ Evelyn }"), vec![Tok::Text("Evelyn".into())]);
        assert_eq!(lex("\\text{5}"), vec![Tok::Num(Numeral { int: "5".into(), frac: None, exp: None })]);
        assert_eq!(show("\\mathrm{cm}"), "\\text{cm}");
        assert_eq!(show("\\mathbb{R}"), "\\mathbb{R}");
        assert_eq!(show("\\mathbb R"), "\\mathbb{R}");
        assert_eq!(show("\\operatorname{lcm}(2,3)"), "\\lcm(2, 3)");
    }

    #[test]
    fn rendering_relexes_identically() {
        for s in [
            "\\frac{1}{2}",
            "2 e-5",
            "x^{\\circ}",
            "1. 5",
            "a**b",
            "\\sqrt[3]{x}",
            "\\{1, 2\\}",
            "\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}",
            "5\\text{cm}^{2}",
            "\\pi x",
            "1{, }000",
        ] {
            let once = lex(s);
            let rendered = render(&once);
            let again = lex(&rendered);
            assert_eq!(once, again, "{s:?} -> {:?}", render(&once));
        }
    }

    #[test]
    fn hostile_inputs_do_not_panic() {
        for s in [
            "\\", "{", "}", "\\frac", "\\frac{", "^", "x^", "\\sqrt[", "1,", "1{,}", "\\text{", "é", "\u{0}", "$$",
            "\\left", "1e", "1e-", "..", "\\mathbb{", "\\operatorname{",
        ] {
            let _ = render(&lex(s));
        }
        let deep = "{".repeat(100_000) + &"}".repeat(100_000);
        assert_eq!(lex(&deep).len(), 200_000);
        let deep_frac = "\\frac".repeat(50_000);
        let _ = lex(&deep_frac);
    }
}
