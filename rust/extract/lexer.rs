//! The tokens of one piece of text, for the candidate scanner.
//!
//! Tokens cover the text without gaps and start and end on char boundaries. Each knows whether
//! it lies inside delimited math (`$..$`, `\(..\)`, ...), whose delimiters become
//! [`TokenKind::MathDelim`] tokens. Lexing needs a little memory of what came before: a `,`
//! between digit groups is a thousands separator only outside brackets (`(2,345)` is a pair),
//! and `!` and `'` are operators only right after an operand ("5!", "f'") and punctuation
//! otherwise ("Wait!", "let's").
//!
//! Offsets are `u32` to keep tokens small (12 bytes): the scanner caps its input at
//! [`MAX_TEXT_BYTES`].

use super::math_regions::MathRegion;
use super::mixed_number::mixed_fraction_after;
use super::repeating_decimal::repeating_decimal_after;

/// The longest text the candidate scanner reads; longer input is scanned up to this length.
pub const MAX_TEXT_BYTES: usize = u32::MAX as usize;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bracket {
    /// `(`, `[`, `)`, `]`: one class, so that intervals such as `[0, 1)` balance.
    Round,
    /// `{` `}`: LaTeX groups.
    Brace,
    /// `\{` `\}`: set braces.
    Set,
    /// `\begin{pmatrix}` ... `\end{pmatrix}` and the other matrix-like environments.
    Env,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TokenKind {
    Space,
    /// Digits with an optional decimal part and thousands groups (`1,000.5`), or `.5`.
    Number,
    /// A run of letters (any script, apostrophes inside: "let's").
    Word,
    /// `\name`, and `\begin{name}`/`\end{name}` of environments that are not matrices.
    Command,
    /// `\,` `\;` `\!` `\ ` `~` `&`: spacing and alignment, transparent inside math.
    Spacing,
    /// `\\`
    LineBreak,
    Open(Bracket),
    Close(Bracket),
    /// `+ - * / ^ _ |`, `±`, `×`, `÷`, `·`, `√`, `∪`, a factorial `!`.
    Operator,
    /// `'` or `’` right after an operand: `f'(x)`.
    Prime,
    /// `=`, `<`, `>`, `<=`, `>=`, `!=`, `==`, `:=`, `≤`, `≥`, `≈`, `≠`, `≡`, `∈`, ...
    Relation,
    /// `=>`, `->`, `⇒`, `→`: the step from one statement to the next.
    Arrow,
    Comma,
    Semicolon,
    /// `...` or `…`
    Ellipsis,
    /// `%`, `\%`, `°`, `′`, superscript and subscript digits (`²`, `₆`): glued to the operand
    /// before them.
    Postfix,
    /// `π`, `∞`, `∅`, `½` and the other vulgar fractions.
    Constant,
    /// `**` (markdown bold).
    Markup,
    /// A `$` that opens no math (a price) or `\$`.
    Dollar,
    /// An opening or closing math delimiter.
    MathDelim,
    /// `.`, `:`, `?`, `!`, `—`: ends a statement.
    Punct,
    Other,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Token {
    pub start: u32,
    pub end: u32,
    pub kind: TokenKind,
    /// Inside delimited math.
    pub math: bool,
}

impl Token {
    pub fn range(&self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// Texts up to this long get a token vector that never has to grow (12 bytes per byte).
const SENTENCE_CAPACITY_BYTES: usize = 4096;

/// Matrix-like environments: their content is one value, its `\\` and `&` are not separators.
const MATRIX_ENVIRONMENTS: &[&str] =
    &["matrix", "pmatrix", "bmatrix", "Bmatrix", "vmatrix", "Vmatrix", "smallmatrix", "array", "cases"];

/// Tokenizes `text` (at most [`MAX_TEXT_BYTES`] long), marking the tokens inside `regions`.
pub(crate) fn tokenize(text: &str, regions: &[MathRegion]) -> Vec<Token> {
    // A token covers at least one byte. A sentence (the anchor search's input) gets room for
    // that bound at once, so its vector never grows; long texts start at a third and grow.
    let capacity = if text.len() <= SENTENCE_CAPACITY_BYTES { text.len() + 1 } else { text.len() / 3 + 4 };
    let mut lexer = Lexer { text, tokens: Vec::with_capacity(capacity), bracket_depth: 0 };
    let mut pos = 0;
    for region in regions {
        lexer.lex(pos, region.open_start, false);
        lexer.push(region.open_start, region.content_start, TokenKind::MathDelim, true);
        lexer.lex(region.content_start, region.content_end, true);
        lexer.push(region.content_end, region.close_end, TokenKind::MathDelim, true);
        pos = region.close_end;
    }
    lexer.lex(pos, text.len(), false);
    lexer.tokens
}

/// How far (bytes) a markdown emphasis mark looks for its partner.
const EMPHASIS_REACH: usize = 120;

struct Lexer<'t> {
    text: &'t str,
    tokens: Vec<Token>,
    /// Depth of `(`/`[` in the current segment: thousands separators only occur outside them.
    bracket_depth: u32,
}

impl<'t> Lexer<'t> {
    fn push(&mut self, start: usize, end: usize, kind: TokenKind, math: bool) {
        self.tokens.push(Token { start: start as u32, end: end as u32, kind, math });
    }

    fn lex(&mut self, from: usize, to: usize, math: bool) {
        self.bracket_depth = 0;
        let mut pos = from;
        while pos < to {
            let (len, kind) = self.next_token(pos, to, math);
            match kind {
                TokenKind::Open(Bracket::Round) => self.bracket_depth += 1,
                TokenKind::Close(Bracket::Round) => self.bracket_depth = self.bracket_depth.saturating_sub(1),
                _ => {}
            }
            self.push(pos, pos + len, kind, math);
            pos += len;
        }
    }

    /// Whether the last token is an operand that `!` (factorial) or `'` (prime) can follow.
    fn after_operand(&self, pos: usize) -> bool {
        match self.tokens.last() {
            Some(t) if t.end as usize == pos => match t.kind {
                TokenKind::Number | TokenKind::Close(_) | TokenKind::Constant => true,
                // The second `!` of a double factorial `n!!`.
                TokenKind::Operator => &self.text[t.range()] == "!",
                TokenKind::Word => t.end - t.start <= 2,
                _ => false,
            },
            _ => false,
        }
    }

    /// Whether the single `*` or `_` at `pos` opens or closes markdown emphasis: it opens when
    /// white space (or the start) is before it and text after it, and a closing mark follows
    /// on the same line; it closes when text is before it, white space or punctuation after it,
    /// and an opening mark precedes it on the same line. Partners are looked for within
    /// [`EMPHASIS_REACH`] bytes (an emphasised answer is short; long lines stay linear).
    fn is_emphasis_mark(&self, pos: usize, mark: char, to: usize) -> bool {
        let text = self.text;
        let before = |k: usize| text[..k].chars().next_back();
        let after = |k: usize| text[k + 1..to].chars().next();
        let opens =
            |k: usize| before(k).map_or(true, char::is_whitespace) && after(k).is_some_and(|c| !c.is_whitespace());
        let closes = |k: usize| {
            before(k).is_some_and(|c| !c.is_whitespace())
                && after(k).map_or(true, |c| {
                    c.is_whitespace() || matches!(c, '.' | ',' | ';' | ':' | '!' | '?' | ')' | ']' | '"' | '\'')
                })
        };
        if opens(pos) {
            let mut end = (pos + 1 + EMPHASIS_REACH).min(to);
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            let ahead = &text[pos + 1..end];
            let ahead = &ahead[..ahead.find('\n').unwrap_or(ahead.len())];
            return ahead.match_indices(mark).any(|(k, _)| closes(pos + 1 + k));
        }
        if closes(pos) {
            let mut start = pos.saturating_sub(EMPHASIS_REACH);
            while !text.is_char_boundary(start) {
                start += 1;
            }
            let behind = &text[start..pos];
            let behind = &behind[behind.rfind('\n').map_or(0, |n| n + 1)..];
            let base = pos - behind.len();
            return behind.match_indices(mark).any(|(k, _)| opens(base + k));
        }
        false
    }

    /// Length and kind of the token at `pos` (which is `< to`).
    fn next_token(&self, pos: usize, to: usize, math: bool) -> (usize, TokenKind) {
        let s = &self.text[pos..to];
        let bytes = s.as_bytes();
        // The commonest tokens first, read as the match below reads them: a word of ASCII
        // letters (no arm of the match before the letters' own takes an ASCII letter) and a
        // single space before an ASCII byte that is no white space.
        match bytes.first() {
            Some(b) if b.is_ascii_alphabetic() => return (word_len(s), TokenKind::Word),
            Some(b' ') if bytes.get(1).map_or(true, |&b| b.is_ascii() && !b.is_ascii_whitespace() && b != 0x0b) => {
                return (1, TokenKind::Space)
            }
            _ => {}
        }
        let Some(c) = s.chars().next() else { return (to - pos, TokenKind::Other) };
        let byte_at = |k: usize| bytes.get(k).copied();
        match c {
            _ if c.is_whitespace() => {
                let len = s.find(|ch: char| !ch.is_whitespace()).unwrap_or(s.len());
                (len, TokenKind::Space)
            }
            '0'..='9' => (self.number_len(pos, to), TokenKind::Number),
            '.' if byte_at(1).is_some_and(|b| b.is_ascii_digit()) => (1 + digits_len(&bytes[1..]), TokenKind::Number),
            '.' if s.starts_with("...") => (3, TokenKind::Ellipsis),
            '\\' => self.backslash_token(s),
            '{' => (1, TokenKind::Open(Bracket::Brace)),
            '}' => (1, TokenKind::Close(Bracket::Brace)),
            '(' | '[' => (1, TokenKind::Open(Bracket::Round)),
            ')' | ']' => (1, TokenKind::Close(Bracket::Round)),
            '*' if byte_at(1) == Some(b'*') => {
                let stars = bytes.iter().take_while(|&&b| b == b'*').count();
                let before = self.text[..pos].chars().next_back();
                let after = s[stars..].chars().next();
                let glued = |ch: Option<char>| ch.is_some_and(|ch| ch.is_ascii_alphanumeric());
                // `2**3` is a power; anything else is markdown bold.
                if stars == 2 && glued(before) && glued(after) {
                    (2, TokenKind::Operator)
                } else {
                    (stars, TokenKind::Markup)
                }
            }
            // `_120_`, `*x = 5*`: markdown emphasis in prose, around a value.
            '*' | '_' if !math && self.is_emphasis_mark(pos, c, to) => (1, TokenKind::Markup),
            '-' if byte_at(1) == Some(b'>') => (2, TokenKind::Arrow),
            '=' if byte_at(1) == Some(b'>') => (2, TokenKind::Arrow),
            '=' if byte_at(1) == Some(b'=') => (2, TokenKind::Relation),
            '<' | '>' if byte_at(1) == Some(b'=') => (2, TokenKind::Relation),
            '!' if byte_at(1) == Some(b'=') => (2, TokenKind::Relation),
            ':' if byte_at(1) == Some(b'=') => (2, TokenKind::Relation),
            '<' => match html_tag_len(s) {
                Some(len) => (len, TokenKind::Other),
                None => (1, TokenKind::Relation),
            },
            '=' | '>' => (1, TokenKind::Relation),
            '!' if self.after_operand(pos) => (1, TokenKind::Operator),
            '\'' | '’' if self.after_operand(pos) => (c.len_utf8(), TokenKind::Prime),
            '+' | '-' | '*' | '/' | '^' | '_' | '|' => (1, TokenKind::Operator),
            ',' => (1, TokenKind::Comma),
            ';' => (1, TokenKind::Semicolon),
            // A colon is never a ratio here: traces write "n=12:12" for "n = 12: 12", and no
            // benchmark answer is a ratio.
            '.' | '?' | '!' | '—' | ':' => (c.len_utf8(), TokenKind::Punct),
            '~' | '&' => (1, TokenKind::Spacing),
            '$' => (1, TokenKind::Dollar),
            '%' | '°' | '′' | '″' | '²' | '³' | '¹' | '⁰' | '⁴'..='⁹' | '⁺' | '⁻' | '₀'..='₉' => {
                (c.len_utf8(), TokenKind::Postfix)
            }
            'π' | '∞' | '∅' | '½' | '⅓' | '⅔' | '¼' | '¾' | '⅕' | '⅙' | '⅛' => {
                (c.len_utf8(), TokenKind::Constant)
            }
            '±' | '∓' | '×' | '÷' | '·' | '⋅' | '√' | '∛' | '∜' | '−' | '–' | '∪' | '∩' | '∖' => {
                (c.len_utf8(), TokenKind::Operator)
            }
            '≤' | '≥' | '≈' | '≠' | '≡' | '≅' | '≃' | '∼' | '⩽' | '⩾' | '≦' | '≧' | '∈' | '∉' | '⊂' | '⊆' | '∝' => {
                (c.len_utf8(), TokenKind::Relation)
            }
            '⇒' | '→' | '⟹' | '⟶' | '↦' | '⇔' | '⟺' => (c.len_utf8(), TokenKind::Arrow),
            '…' => (c.len_utf8(), TokenKind::Ellipsis),
            _ if c.is_alphabetic() => (word_len(s), TokenKind::Word),
            _ => (c.len_utf8(), TokenKind::Other),
        }
    }

    /// Digits, then thousands groups (outside brackets, after at most three leading digits),
    /// then a decimal part, or a repeating decimal (`0.1\overline{6}`, `0.333...`:
    /// [`repeating_decimal_after`]); or a mixed number, `4 4/9` ([`mixed_fraction_after`]).
    fn number_len(&self, pos: usize, to: usize) -> usize {
        let s = &self.text[pos..to];
        let bytes = s.as_bytes();
        let mut len = digits_len(bytes);
        if self.bracket_depth == 0 && len <= 3 {
            while bytes.get(len) == Some(&b',') && digits_len(&bytes[len + 1..]) == 3 {
                len += 4;
            }
        }
        if let Some(r) = repeating_decimal_after(&self.text[..to], pos + len) {
            return r.end - pos;
        }
        if bytes.get(len) == Some(&b'.') && bytes.get(len + 1).is_some_and(|b| b.is_ascii_digit()) {
            return len + 1 + digits_len(&bytes[len + 1..]);
        }
        if let Some(m) = mixed_fraction_after(&self.text[..to], pos..pos + len) {
            return m.end - pos;
        }
        len
    }

    fn backslash_token(&self, s: &str) -> (usize, TokenKind) {
        let bytes = s.as_bytes();
        let Some(next) = s[1..].chars().next() else { return (1, TokenKind::Other) };
        if next.is_ascii_alphabetic() {
            let name_len = bytes[1..].iter().take_while(|b| b.is_ascii_alphabetic()).count();
            let name = &s[1..1 + name_len];
            if name == "begin" || name == "end" {
                if let Some((env, len)) = environment_name(&s[1 + name_len..]) {
                    let total = 1 + name_len + len;
                    let kind = match (MATRIX_ENVIRONMENTS.contains(&env), name == "begin") {
                        (true, true) => TokenKind::Open(Bracket::Env),
                        (true, false) => TokenKind::Close(Bracket::Env),
                        (false, _) => TokenKind::Command,
                    };
                    return (total, kind);
                }
            }
            return (1 + name_len, TokenKind::Command);
        }
        let len = 1 + next.len_utf8();
        let kind = match next {
            '\\' => TokenKind::LineBreak,
            '{' => TokenKind::Open(Bracket::Set),
            '}' => TokenKind::Close(Bracket::Set),
            ',' | ';' | '!' | ':' | '>' | ' ' => TokenKind::Spacing,
            '%' => TokenKind::Postfix,
            '$' => TokenKind::Dollar,
            _ => TokenKind::Other,
        };
        (len, kind)
    }
}

fn digits_len(bytes: &[u8]) -> usize {
    bytes.iter().take_while(|b| b.is_ascii_digit()).count()
}

/// Letters, with apostrophes between letters ("let's", "don’t").
fn word_len(s: &str) -> usize {
    // Most words are ASCII letters ended by an ASCII byte other than an apostrophe.
    let bytes = s.as_bytes();
    let ascii = bytes.iter().take_while(|b| b.is_ascii_alphabetic()).count();
    if ascii > 0 && bytes.get(ascii).map_or(true, |&b| b.is_ascii() && b != b'\'') {
        return ascii;
    }
    word_len_by_chars(s)
}

fn word_len_by_chars(s: &str) -> usize {
    let mut len = 0;
    let mut chars = s.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c.is_alphabetic() && c != 'π' {
            len = i + c.len_utf8();
        } else if (c == '\'' || c == '’') && len == i {
            match chars.peek() {
                Some(&(_, n)) if n.is_alphabetic() && n != 'π' => continue,
                _ => break,
            }
        } else {
            break;
        }
    }
    len
}

/// `{name}` right after `\begin`/`\end`: the name and the length including braces.
fn environment_name(s: &str) -> Option<(&str, usize)> {
    let rest = s.strip_prefix('{')?;
    let name_len = rest.bytes().take_while(|b| b.is_ascii_alphabetic() || *b == b'*').count();
    if name_len == 0 || rest.as_bytes().get(name_len) != Some(&b'}') {
        return None;
    }
    Some((&rest[..name_len], name_len + 2))
}

/// Length of an HTML-like tag such as `<think>` or `</think>` at the start of `s`.
fn html_tag_len(s: &str) -> Option<usize> {
    let bytes = s.as_bytes();
    let mut i = 1;
    if bytes.get(i) == Some(&b'/') {
        i += 1;
    }
    let letters = bytes[i..].iter().take(16).take_while(|b| b.is_ascii_alphabetic()).count();
    if letters == 0 || bytes.get(i + letters) != Some(&b'>') {
        return None;
    }
    Some(i + letters + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::math_regions::find_math_regions;

    fn lex(text: &str) -> Vec<(&str, TokenKind)> {
        tokenize(text, &find_math_regions(text))
            .iter()
            .filter(|t| t.kind != TokenKind::Space)
            .map(|t| (&text[t.range()], t.kind))
            .collect()
    }

    proptest::proptest! {
        #[test]
        fn the_ascii_word_path_agrees_with_the_general_one(s in "[a-zA-Z'’é π1 .]{0,12}") {
            proptest::prop_assert_eq!(word_len(&s), word_len_by_chars(&s));
        }
    }

    #[test]
    fn numbers_keep_decimals_and_thousands_but_not_a_final_period() {
        use TokenKind::*;
        assert_eq!(lex("3.5."), vec![("3.5", Number), (".", Punct)]);
        assert_eq!(
            lex("1,000,000 and 1,23"),
            vec![("1,000,000", Number), ("and", Word), ("1", Number), (",", Comma), ("23", Number)]
        );
        assert_eq!(lex("(2,345)")[1], ("2", Number));
        assert_eq!(lex(".5")[0], (".5", Number));
    }

    #[test]
    fn factorial_and_prime_only_after_operands() {
        use TokenKind::*;
        assert_eq!(lex("5! Wait!"), vec![("5", Number), ("!", Operator), ("Wait", Word), ("!", Punct)]);
        assert_eq!(lex("let's f'(x)")[0], ("let's", Word));
        assert_eq!(lex("f'(x)")[1], ("'", Prime));
    }

    #[test]
    fn commands_environments_and_tags() {
        use TokenKind::*;
        assert_eq!(lex(r"\frac{1}{2}")[0], (r"\frac", Command));
        assert_eq!(lex(r"\begin{pmatrix}")[0], (r"\begin{pmatrix}", Open(Bracket::Env)));
        assert_eq!(lex(r"\begin{aligned}")[0], (r"\begin{aligned}", Command));
        assert_eq!(lex(r"\{1\}"), vec![(r"\{", Open(Bracket::Set)), ("1", Number), (r"\}", Close(Bracket::Set))]);
        assert_eq!(lex("</think> x<y"), vec![("</think>", Other), ("x", Word), ("<", Relation), ("y", Word)]);
    }

    #[test]
    fn math_tokens_are_marked() {
        let text = "a $x$ b";
        let tokens = tokenize(text, &find_math_regions(text));
        let marked: Vec<bool> = tokens.iter().map(|t| t.math).collect();
        assert_eq!(marked, vec![false, false, true, true, true, false, false]);
    }
}
