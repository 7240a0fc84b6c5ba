//! Math regions: the spans of a text that a sentence may never be split inside.
//!
//! Recognised regions (delimiters included in the span):
//! - inline: `$...$` (pandoc rules, see below) and `\(...\)`;
//! - display: `$$...$$`, `\[...\]` and `\begin{env}...\end{env}` for the environments in
//!   [`MATH_ENVIRONMENTS`] (and their starred forms; the closer must name the same environment);
//! - boxed answers: `\boxed{...}` and `\fbox{...}`, up to the brace that closes the argument
//!   (nested braces counted, escaped `\{` `\}` not).
//!
//! Tokens follow TeX: a backslash and the character after it form one token, so `\$`, `\\(`,
//! `\{` are never delimiters (`\\(` is a line break followed by a parenthesis). `$$` is one
//! token; a run of `$` is read left to right as `$$` pairs. A single `$` opens inline math when
//! the next character is not whitespace, and closes it when the previous character is not
//! whitespace and the next is not an ASCII digit, so "costs $5 and $10" is not math.
//!
//! Unbalanced delimiters must not swallow the rest of a trace. A region is accepted only when:
//! - its closer is the *first* closer token of its kind after the opener;
//! - it contains no blank line (a line holding only whitespace): TeX itself rejects a paragraph
//!   break inside math mode or inside a macro argument, so a blank line is where an unclosed
//!   opener certainly ended;
//! - if inline (`$...$`, `\(...\)`), it contains no line break at all. Well-formed inline math
//!   stays on one line in practice (over the shared traces, 3 of 40,306 inline regions found
//!   without this rule spanned a line break, all opened by a stray delimiter), and the rule
//!   confines a stray `$` to its line;
//! - its length (delimiters included) is at most the bound of its class in [`SplitOptions`].
//!
//! Otherwise the opener is literal text and scanning goes on after it.
//!
//! Time is linear in the text: one lexing pass records every opener and every closer token
//! (braces matched with an explicit stack), then each opener looks up its first closer through
//! a cursor that only moves forward. The line-break and blank-line tests search forward from
//! the opener only when asked and keep their answer for the next opener, so a text's many line
//! breaks are never all listed. Nothing recurses and nothing is rescanned.

use crate::text::chars::{char_at, char_before, is_space, utf8_len};
use crate::text::sentences::SplitOptions;

/// Environments whose `\begin{..}...\end{..}` span is math (starred forms included).
pub const MATH_ENVIRONMENTS: &[&str] = &[
    "align", "alignat", "aligned", "array", "Bmatrix", "bmatrix", "cases", "dcases", "eqnarray", "equation", "gather",
    "gathered", "matrix", "multline", "pmatrix", "smallmatrix", "split", "tabular", "Vmatrix", "vmatrix",
];

/// Longest name in [`MATH_ENVIRONMENTS`]; bounds the look-ahead after `\begin{`.
const MAX_ENV_NAME: usize = 11;

/// What delimits a math region.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MathKind {
    /// `$...$`
    InlineDollar,
    /// `\(...\)`
    InlineParen,
    /// `$$...$$`
    DisplayDollar,
    /// `\[...\]`
    DisplayBracket,
    /// `\begin{env}...\end{env}`
    Environment,
    /// `\boxed{...}` or `\fbox{...}`
    Boxed,
}

impl MathKind {
    /// Every kind (for reading a name back, as unpickling does).
    pub const ALL: [MathKind; 6] = [
        MathKind::InlineDollar,
        MathKind::InlineParen,
        MathKind::DisplayDollar,
        MathKind::DisplayBracket,
        MathKind::Environment,
        MathKind::Boxed,
    ];

    /// Stable lower-case name (used by the Python API).
    pub fn as_str(self) -> &'static str {
        match self {
            MathKind::InlineDollar => "inline_dollar",
            MathKind::InlineParen => "inline_paren",
            MathKind::DisplayDollar => "display_dollar",
            MathKind::DisplayBracket => "display_bracket",
            MathKind::Environment => "environment",
            MathKind::Boxed => "boxed",
        }
    }

    /// `$...$` or `\(...\)`.
    pub fn is_inline(self) -> bool {
        matches!(self, MathKind::InlineDollar | MathKind::InlineParen)
    }

    /// The length bound that applies to this kind.
    fn max_bytes(self, opts: &SplitOptions) -> usize {
        match self {
            MathKind::InlineDollar | MathKind::InlineParen => opts.max_inline_bytes,
            MathKind::DisplayDollar | MathKind::DisplayBracket | MathKind::Environment => opts.max_display_bytes,
            MathKind::Boxed => opts.max_boxed_bytes,
        }
    }
}

/// A math region: byte span `start..end` of the text, delimiters included.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MathRegion {
    pub start: usize,
    pub end: usize,
    pub kind: MathKind,
}

/// An opener token and what closes it.
#[derive(Debug, Clone, Copy)]
struct Opener {
    start: usize,
    /// First byte after the opener token (where a closer may begin).
    content_start: usize,
    close: Closer,
}

#[derive(Debug, Clone, Copy)]
enum Closer {
    Dollar,
    DoubleDollar,
    Paren,
    Bracket,
    /// Index into `Lexed::env_closers` (environment index * 2 + starred).
    Env(usize),
    /// Index into `Lexed::boxed_close`.
    Boxed(usize),
}

/// Number of environment closer lists: each environment, plain and starred.
const ENV_IDS: usize = MATH_ENVIRONMENTS.len() * 2;

/// Everything one lexing pass learns about the delimiters of a text.
struct Lexed {
    openers: Vec<Opener>,
    /// Start offsets of closer tokens, ascending.
    dollar_closers: Vec<usize>,
    double_dollars: Vec<usize>,
    paren_closers: Vec<usize>,
    bracket_closers: Vec<usize>,
    /// Kept in place, not in a `Vec` of lists: environments are rare, and empty lists cost no
    /// allocation.
    env_closers: [Vec<usize>; ENV_IDS],
    /// For the n-th `\boxed{`/`\fbox{`: offset of the `}` that closes its argument, if any.
    boxed_close: Vec<Option<usize>>,
}

/// The environment named at `bytes[i..]` (`name` or `name*` then `}`): its closer-list index and
/// the offset just past the `}`.
fn env_at(bytes: &[u8], i: usize) -> Option<(usize, usize)> {
    let name_len = bytes.get(i..)?.iter().take(MAX_ENV_NAME + 1).take_while(|b| b.is_ascii_alphabetic()).count();
    let name = bytes.get(i..i + name_len)?;
    let env = MATH_ENVIRONMENTS.iter().position(|e| e.as_bytes() == name)?;
    let mut j = i + name_len;
    let starred = bytes.get(j) == Some(&b'*');
    if starred {
        j += 1;
    }
    (bytes.get(j) == Some(&b'}')).then_some((env * 2 + usize::from(starred), j + 1))
}

/// Length of the `\end{name}` token that closes environment-list index `id`.
fn env_closer_len(id: usize) -> usize {
    // `\end{` + name + optional `*` + `}`
    5 + MATH_ENVIRONMENTS[id / 2].len() + (id % 2) + 1
}

fn lex(text: &str) -> Lexed {
    let bytes = text.as_bytes();
    let n = bytes.len();
    let mut lx = Lexed {
        // Traces average one opener per ~400 bytes: reserve enough to rarely grow.
        openers: Vec::with_capacity(n / 256 + 4),
        dollar_closers: Vec::new(),
        double_dollars: Vec::new(),
        paren_closers: Vec::new(),
        bracket_closers: Vec::new(),
        env_closers: std::array::from_fn(|_| Vec::new()),
        boxed_close: Vec::new(),
    };
    // Offsets of the `{` that each `\boxed`/`\fbox` token announces, in order.
    let mut boxed_braces = Vec::new();
    let mut i = 0;
    while let Some(k) = memchr::memchr2(b'\\', b'$', &bytes[i..]) {
        i += k;
        if bytes[i] == b'$' {
            if bytes.get(i + 1) == Some(&b'$') {
                lx.openers.push(Opener { start: i, content_start: i + 2, close: Closer::DoubleDollar });
                lx.double_dollars.push(i);
                i += 2;
            } else {
                let next = char_at(text, i + 1);
                if next.is_some_and(|c| !is_space(c)) {
                    lx.openers.push(Opener { start: i, content_start: i + 1, close: Closer::Dollar });
                }
                let prev_ok = char_before(text, i).is_some_and(|c| !is_space(c));
                if prev_ok && !next.is_some_and(|c| c.is_ascii_digit()) {
                    lx.dollar_closers.push(i);
                }
                i += 1;
            }
            continue;
        }
        let Some(&next) = bytes.get(i + 1) else {
            break;
        };
        let rest = &bytes[i + 1..];
        match next {
            b'(' => lx.openers.push(Opener { start: i, content_start: i + 2, close: Closer::Paren }),
            b'[' => lx.openers.push(Opener { start: i, content_start: i + 2, close: Closer::Bracket }),
            b')' => lx.paren_closers.push(i),
            b']' => lx.bracket_closers.push(i),
            b'b' if rest.starts_with(b"begin{") => {
                if let Some((id, after)) = env_at(bytes, i + 7) {
                    lx.openers.push(Opener { start: i, content_start: after, close: Closer::Env(id) });
                }
            }
            b'e' if rest.starts_with(b"end{") => {
                if let Some((id, _)) = env_at(bytes, i + 5) {
                    lx.env_closers[id].push(i);
                }
            }
            b'b' | b'f' if rest.starts_with(b"boxed{") || rest.starts_with(b"fbox{") => {
                let brace = i + if next == b'b' { 6 } else { 5 };
                lx.openers.push(Opener {
                    start: i,
                    content_start: brace + 1,
                    close: Closer::Boxed(boxed_braces.len()),
                });
                boxed_braces.push(brace);
            }
            _ => {}
        }
        // A backslash and the whole character after it form one token.
        i = (i + 1 + utf8_len(next)).min(n);
    }
    lx.boxed_close = match_boxed_braces(bytes, &boxed_braces);
    lx
}

/// For each brace offset in `boxed_braces` (ascending, each a token start), the offset of the
/// `}` that closes it. One pass with an explicit stack from the first of them; escaped braces
/// (`\{`, `\}`) are not grouping braces. Braces before the first boxed brace cannot change how
/// later braces pair up, so the pass starts there.
fn match_boxed_braces(bytes: &[u8], boxed_braces: &[usize]) -> Vec<Option<usize>> {
    let mut close = vec![None; boxed_braces.len()];
    let Some(&first) = boxed_braces.first() else {
        return close;
    };
    // Open braces; `Some(k)` marks the argument brace of the k-th boxed opener.
    let mut stack: Vec<Option<usize>> = Vec::new();
    let mut next_boxed = 0;
    let mut i = first;
    while let Some(k) = memchr::memchr3(b'{', b'}', b'\\', &bytes[i..]) {
        i += k;
        match bytes[i] {
            b'{' => {
                let is_boxed = boxed_braces.get(next_boxed) == Some(&i);
                stack.push(is_boxed.then_some(next_boxed));
                next_boxed += usize::from(is_boxed);
                i += 1;
            }
            b'}' => {
                if let Some(Some(b)) = stack.pop() {
                    close[b] = Some(i);
                }
                i += 1;
            }
            // A backslash escapes the next character, whatever its width.
            _ => i = (i + 1 + bytes.get(i + 1).map_or(0, |&b| utf8_len(b))).min(bytes.len()),
        }
    }
    close
}

/// Finds line breaks (`\n`, `\r`) and blank lines for queries that never move backwards:
/// each answer is kept until a query passes it, so the text is searched at most once however
/// many openers ask. Only openers that found a closer ask (a few per trace), so the line breaks
/// of a text (hundreds) are never all listed.
struct LineFinder<'t> {
    text: &'t str,
    /// First line break at or after the last query (`None` before the first query).
    line_break: Option<usize>,
    /// First `\n` at or after the last query that begins a blank line: `\n`, whitespace
    /// without `\n`, `\n`. Plain text, not tokens: a `\` before a line break hides it from TeX
    /// no more than from us.
    blank_line: Option<usize>,
}

impl<'t> LineFinder<'t> {
    fn new(text: &'t str) -> Self {
        LineFinder { text, line_break: None, blank_line: None }
    }

    /// Offset of the first line break at or after `from` (`text.len()` if none).
    fn line_break(&mut self, from: usize) -> usize {
        let bytes = self.text.as_bytes();
        match self.line_break {
            Some(p) if p >= from => p,
            _ => {
                let p = memchr::memchr2(b'\n', b'\r', &bytes[from..]).map_or(bytes.len(), |k| from + k);
                self.line_break = Some(p);
                p
            }
        }
    }

    /// Offset of the first `\n` at or after `from` that begins a blank line (`text.len()` if
    /// none). Each whitespace run is walked only by the newline in front of it.
    fn blank_line(&mut self, from: usize) -> usize {
        if let Some(p) = self.blank_line.filter(|&p| p >= from) {
            return p;
        }
        let (text, bytes) = (self.text, self.text.as_bytes());
        let mut i = from;
        let found = loop {
            let Some(k) = memchr::memchr(b'\n', &bytes[i..]) else {
                break bytes.len();
            };
            i += k;
            let mut j = i + 1;
            let blank = loop {
                match char_at(text, j) {
                    Some('\n') => break true,
                    Some(c) if is_space(c) => j += c.len_utf8(),
                    _ => break false,
                }
            };
            if blank {
                break i;
            }
            // The run after this newline holds no newline: the next one is where it stopped.
            i = j.max(i + 1);
        };
        self.blank_line = Some(found);
        found
    }
}

/// First element `>= from` of an ascending list, advancing `cursor` (queries must not decrease).
fn next_at_or_after(list: &[usize], cursor: &mut usize, from: usize) -> Option<usize> {
    while *cursor < list.len() && list[*cursor] < from {
        *cursor += 1;
    }
    list.get(*cursor).copied()
}

/// All math regions of `text`, ascending and non-overlapping. See the module documentation for
/// the rules and bounds.
pub fn math_regions(text: &str, opts: &SplitOptions) -> Vec<MathRegion> {
    let lx = lex(text);
    // At most one region per opener.
    let mut regions = Vec::with_capacity(lx.openers.len());
    let mut covered_until = 0;
    let (mut c_dollar, mut c_double, mut c_paren, mut c_bracket) = (0, 0, 0, 0);
    let mut lines = LineFinder::new(text);
    let mut c_env = [0usize; ENV_IDS];
    for op in &lx.openers {
        if op.start < covered_until {
            continue; // inside an accepted region
        }
        let from = op.content_start;
        let (kind, closer) = match op.close {
            Closer::Dollar => {
                (MathKind::InlineDollar, next_at_or_after(&lx.dollar_closers, &mut c_dollar, from).map(|p| (p, p + 1)))
            }
            Closer::DoubleDollar => {
                (MathKind::DisplayDollar, next_at_or_after(&lx.double_dollars, &mut c_double, from).map(|p| (p, p + 2)))
            }
            Closer::Paren => {
                (MathKind::InlineParen, next_at_or_after(&lx.paren_closers, &mut c_paren, from).map(|p| (p, p + 2)))
            }
            Closer::Bracket => (
                MathKind::DisplayBracket,
                next_at_or_after(&lx.bracket_closers, &mut c_bracket, from).map(|p| (p, p + 2)),
            ),
            Closer::Env(id) => (
                MathKind::Environment,
                next_at_or_after(&lx.env_closers[id], &mut c_env[id], from).map(|p| (p, p + env_closer_len(id))),
            ),
            Closer::Boxed(k) => (MathKind::Boxed, lx.boxed_close[k].map(|p| (p, p + 1))),
        };
        let Some((close_start, end)) = closer else {
            continue;
        };
        if end - op.start > kind.max_bytes(opts) {
            continue;
        }
        // Openers come in text order, so these queries only move forward.
        if lines.blank_line(op.start) < close_start {
            continue;
        }
        if kind.is_inline() && lines.line_break(op.start) < close_start {
            continue;
        }
        regions.push(MathRegion { start: op.start, end, kind });
        covered_until = end;
    }
    regions
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(text: &str) -> Vec<(&str, MathKind)> {
        math_regions(text, &SplitOptions::default()).into_iter().map(|r| (&text[r.start..r.end], r.kind)).collect()
    }

    fn texts(text: &str) -> Vec<&str> {
        spans(text).into_iter().map(|(s, _)| s).collect()
    }

    #[test]
    fn finds_every_kind() {
        use MathKind::*;
        let t = r"a $x$ b \(y\) c $$z$$ d \[w\] e \begin{align*}p\end{align*} f \boxed{q} g \fbox{r}";
        assert_eq!(
            spans(t),
            vec![
                ("$x$", InlineDollar),
                (r"\(y\)", InlineParen),
                ("$$z$$", DisplayDollar),
                (r"\[w\]", DisplayBracket),
                (r"\begin{align*}p\end{align*}", Environment),
                (r"\boxed{q}", Boxed),
                (r"\fbox{r}", Boxed),
            ]
        );
    }

    #[test]
    fn dollar_follows_pandoc() {
        assert!(texts("costs $5 and $10 today").is_empty());
        assert!(texts("$ x$").is_empty(), "opener followed by a space");
        assert!(texts("$x $").is_empty(), "closer preceded by a space");
        assert_eq!(texts("$x$5 then $y$"), vec!["$x$5 then $y$"], "closer followed by a digit is skipped");
        assert_eq!(texts(r"\$5 and $x$"), vec!["$x$"], "escaped dollar");
        assert_eq!(texts(r"$a\$b$"), vec![r"$a\$b$"]);
        assert_eq!(texts(r"\\$x$"), vec!["$x$"], "an escaped backslash does not escape the dollar");
    }

    #[test]
    fn escapes_are_single_tokens() {
        assert!(texts(r"\\(x\\)").is_empty());
        assert_eq!(texts(r"\(a \\ b\)"), vec![r"\(a \\ b\)"]);
        assert_eq!(texts(r"\[ \begin{matrix}1\\[2pt]2\end{matrix} \]").len(), 1);
    }

    #[test]
    fn environments_need_a_known_matching_name() {
        assert!(texts(r"\begin{itemize}x\end{itemize}").is_empty());
        assert!(texts(r"\begin{align}x\end{align*}").is_empty());
        assert_eq!(
            texts(r"\begin{pmatrix}1\end{pmatrix} and \begin{cases}a\\b\end{cases}"),
            vec![r"\begin{pmatrix}1\end{pmatrix}", r"\begin{cases}a\\b\end{cases}"]
        );
        assert!(texts(r"\begin{pmatrixx}1\end{pmatrixx}").is_empty());
    }

    #[test]
    fn boxed_counts_nested_but_not_escaped_braces() {
        assert_eq!(texts(r"so \boxed{\frac{1}{2}} done"), vec![r"\boxed{\frac{1}{2}}"]);
        assert_eq!(texts(r"\boxed{\{1,2\}} x"), vec![r"\boxed{\{1,2\}}"]);
        assert!(texts(r"\boxed{\frac{1}{2} and more").is_empty());
        assert!(texts(r"\boxed x").is_empty());
    }

    #[test]
    fn first_region_wins_and_regions_do_not_overlap() {
        assert_eq!(texts(r"$a \(b$ c\)"), vec![r"$a \(b$"]);
        assert_eq!(texts(r"\[ $x$ \]"), vec![r"\[ $x$ \]"]);
        assert_eq!(texts("$$a$$$b$"), vec!["$$a$$", "$b$"]);
    }

    #[test]
    fn unclosed_openers_are_literal() {
        assert!(texts(r"a \( b. c \[ d").is_empty());
        assert_eq!(texts("a $$ b $c$"), vec!["$c$"]);
        assert!(texts(r"\begin{align} x = 1").is_empty());
    }

    #[test]
    fn math_never_crosses_a_blank_line() {
        assert!(texts("$a\n\nb$").is_empty());
        assert!(texts("\\[a\n \t\nb\\]").is_empty());
        assert_eq!(texts("\\[a\nb\\]"), vec!["\\[a\nb\\]"]);
        // Inline math does not even cross a line break.
        assert!(texts("$a\nb$").is_empty());
        assert!(texts("\\(a\rb\\)").is_empty());
        assert_eq!(texts("$a\nb$ $c$"), vec!["$c$"]);
        // The opener is literal, the next one is tried.
        assert_eq!(texts("\\( a\n\n\\(b\\)"), vec!["\\(b\\)"]);
        // Answers kept from one opener to the next, and searched again once passed.
        assert_eq!(
            texts("\\[a\\] \\[b\n \nc\\] \\[d\\]\n\n\\[e\\] \\[f\n\r\ng\\]"),
            vec!["\\[a\\]", "\\[d\\]", "\\[e\\]"]
        );
        assert_eq!(texts("$x$ $y\nz$ $w$\n$v$ \\(u\rt\\) $s$"), vec!["$x$", "$w$", "$v$", "$s$"]);
    }

    #[test]
    fn length_bounds_apply_per_class() {
        let opts = SplitOptions { max_inline_bytes: 5, max_display_bytes: 8, max_boxed_bytes: 9 };
        let got = |t: &str| -> Vec<String> {
            math_regions(t, &opts).into_iter().map(|r| t[r.start..r.end].to_string()).collect()
        };
        assert_eq!(got("$abc$ $abcd$"), vec!["$abc$"]);
        assert_eq!(got(r"\[abcd\] \[abcde\]"), vec![r"\[abcd\]"]);
        assert_eq!(got(r"\boxed{1} \boxed{12}"), vec![r"\boxed{1}"]);
    }

    #[test]
    fn non_ascii_after_backslash_and_around_dollars() {
        assert_eq!(texts("\\é $é$ \\"), vec!["$é$"]);
        assert_eq!(texts("$"), Vec::<&str>::new());
        assert_eq!(texts("\\"), Vec::<&str>::new());
        assert_eq!(texts(""), Vec::<&str>::new());
    }
}
