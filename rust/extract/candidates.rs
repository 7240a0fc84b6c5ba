//! Every answer value one sentence states: the paper's A(s).
//!
//! The sentence is split into tokens ([`super::lexer`]) and then into *runs*, stretches that
//! are one piece of mathematics:
//! - the content of each delimited math region (`$..$`, `\(..\)`, `\[..\]`, `$$..$$`);
//! - the content of each `\boxed{}`/`\fbox{}`;
//! - in prose, maximal stretches of math-like tokens: numbers, operators, brackets, LaTeX
//!   commands with their groups, Unicode math, and letters that act as variables (a single
//!   letter next to an operator or a number, `2x`, `sqrt(2)`, `log_6 x`). English words end a
//!   run, so "So n = 17 works" gives the run `n = 17`.
//!
//! Each run is read at bracket depth 0: commas and `\quad`/`\implies` separate *items*;
//! relations (`=`, `<`, `\approx`, ...) separate an item into *sides*. Candidates are the
//! wholes of these parts, never pieces inside them: `3\sqrt{2}` gives `3\sqrt{2}` and no `2`,
//! `\frac{5}{36}` no `5`. Concretely:
//! - an item without relation that is a value (it holds a number, a constant such as `\pi`, a
//!   value command such as `\frac`, or an operator applied to a variable);
//! - every side of a relation that is a value and not just a name (`x`, `a_1`, `f(2)`, `AB`);
//! - a whole two-sided `=`/`<`/`>` statement (`x = 3`, `y = 2x + 1`) or a double inequality
//!   (`-2 < x < 3`); chains such as `a = 2 + 3 = 5` give their sides only;
//! - a comma list of values, or of `name = value` equations, as a whole (`1, 2, 3`), besides
//!   its items;
//! - after `≡`, a side's residue without its `mod` (`3` of `24 \equiv 3 \pmod 7`), and a
//!   value's number without units written in `\text{}` (`99.8` of `99.8 \, \text{rad/s}`).
//!
//! A side or item that continues past the run -- cut off at a stray bracket (`3*(1+2`) or at
//! an operator (`5 + 4 + something`, a line that starts with `+ 3n`) -- is a piece of a larger
//! expression and no candidate. A number that only labels ("Case 1", "Step 2", a `1.` list
//! marker), an ordinal (`5th`) or an adjective (`60-degree`) states no value either.
//!
//! Besides runs: number words ("twelve" -> `12`), multiple-choice letters, and a capitalised
//! word stated as "the answer is Evelyn" (-> `\text{Evelyn}`). Each rule's limits are
//! documented where it is implemented: [`Scanner::number_words`], [`Scanner::stated_words`].

use std::ops::Range;

use super::commands::{command_class, is_connective, is_function_word, CommandClass, Relation};
use super::lexer::{tokenize, Bracket, Token, TokenKind, MAX_TEXT_BYTES};
use super::math_regions::find_math_regions;
use super::number_words;
use crate::text::restatements::precedes_operation_word;

/// The most scale words after a numeral that still make a value ([`Scanner::scales_numeral`]).
const MAX_SCALE_WORDS: usize = 4;

/// How many tokens back [`Scanner::inside_function_call`] looks for the call's `(`.
const FUNCTION_CALL_LOOKBACK: usize = 16;

/// Where a candidate came from, or its shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CandidateKind {
    /// The content of `\boxed{...}` or `\fbox{...}`.
    Boxed,
    /// The whole content of delimited math (`$..$`, `\(..\)`, ...) that is one value.
    MathSpan,
    /// A whole two-sided statement: `x = 3`, `y = 2x + 1`, `x \le 5`, `-2 < x < 3`.
    Equation,
    /// One side of a relation or chain: `\frac{\pi}{2}` in `x = \frac{\pi}{2}`.
    EquationSide,
    /// A comma-separated list of values as a whole: `1, 2, 3`.
    List,
    /// `(2, 3)`
    Tuple,
    /// `[0, 1)`, `(-\infty, 3]`, `(-\infty, 1) \cup (2, \infty)`
    Interval,
    /// `\{1, 2\}`, or `{1, 2}` in plain text
    Set,
    /// Plain or LaTeX math in prose that is more than a number: `3\sqrt{2}`, `3/4`, `sqrt(2)`.
    BareExpression,
    /// A number in prose: `17`, `-2.5`, `1,000`.
    Number,
    /// A number written in words: "twelve" -> `12`, "two thirds" -> `2/3`.
    NumberWord,
    /// A multiple-choice letter: `(B)`, "option C", "the answer is D".
    Choice,
    /// A word given as the answer: "the answer is Evelyn" -> `\text{Evelyn}`.
    Text,
    /// An operation written in words on numbers: "the square root of 15" -> `\sqrt{15}`,
    /// "200 choose 100" -> `\binom{200}{100}`.
    WordedExpression,
}

impl CandidateKind {
    pub const ALL: [CandidateKind; 14] = [
        CandidateKind::Boxed,
        CandidateKind::MathSpan,
        CandidateKind::Equation,
        CandidateKind::EquationSide,
        CandidateKind::List,
        CandidateKind::Tuple,
        CandidateKind::Interval,
        CandidateKind::Set,
        CandidateKind::BareExpression,
        CandidateKind::Number,
        CandidateKind::NumberWord,
        CandidateKind::Choice,
        CandidateKind::Text,
        CandidateKind::WordedExpression,
    ];

    /// The snake_case name used by the Python API.
    pub fn as_str(self) -> &'static str {
        match self {
            CandidateKind::Boxed => "boxed",
            CandidateKind::MathSpan => "math_span",
            CandidateKind::Equation => "equation",
            CandidateKind::EquationSide => "equation_side",
            CandidateKind::List => "list",
            CandidateKind::Tuple => "tuple",
            CandidateKind::Interval => "interval",
            CandidateKind::Set => "set",
            CandidateKind::BareExpression => "bare_expression",
            CandidateKind::Number => "number",
            CandidateKind::NumberWord => "number_word",
            CandidateKind::Choice => "choice",
            CandidateKind::Text => "text",
            CandidateKind::WordedExpression => "worded_expression",
        }
    }

    /// When two rules find the same span, the more specific kind names it.
    fn priority(self) -> u8 {
        match self {
            CandidateKind::Boxed => 9,
            CandidateKind::Choice
            | CandidateKind::Text
            | CandidateKind::NumberWord
            | CandidateKind::WordedExpression => 8,
            CandidateKind::Equation => 7,
            CandidateKind::List => 6,
            CandidateKind::Tuple | CandidateKind::Interval | CandidateKind::Set => 5,
            CandidateKind::EquationSide => 4,
            CandidateKind::MathSpan => 3,
            CandidateKind::BareExpression => 2,
            CandidateKind::Number => 1,
        }
    }
}

/// One value stated in the text.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Candidate {
    /// Byte offset of the candidate's source text.
    pub start: usize,
    /// Byte offset one past the candidate's source text.
    pub end: usize,
    /// The value as it would sit inside `\boxed{}`: the source text itself, except for number
    /// words (`12` for "twelve") and text answers (`\text{Evelyn}`).
    pub text: String,
    pub kind: CandidateKind,
}

/// Every answer value that `text` (one sentence) states, ordered by start, outer before inner.
/// Spans are byte offsets into `text` on char boundaries; no two candidates share a span.
/// Runs in time linear in the length of `text`; text past [`MAX_TEXT_BYTES`] is not read.
pub fn extract_candidates(text: &str) -> Vec<Candidate> {
    extract_candidates_with(text, WordValues::ALL)
}

/// Which values written in words [`extract_candidates_with`] reads. A caller that cannot use
/// them (a search for a number written with digits) skips the work.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WordValues {
    /// Number words: "twelve", "two thirds" ([`CandidateKind::NumberWord`]).
    pub number_words: bool,
    /// Choice letters and text answers stated as the answer ([`CandidateKind::Choice`],
    /// [`CandidateKind::Text`]).
    pub stated_words: bool,
}

impl WordValues {
    pub const ALL: WordValues = WordValues { number_words: true, stated_words: true };
    pub const NONE: WordValues = WordValues { number_words: false, stated_words: false };
}

/// [`extract_candidates`] reading only the word values `words` asks for: the result is
/// `extract_candidates(text)` without the candidates of the kinds left out, except that a span
/// one of those took may keep its other reading (`twenty-one` as an equation side).
pub fn extract_candidates_with(text: &str, words: WordValues) -> Vec<Candidate> {
    let text = prefix_within(text, MAX_TEXT_BYTES);
    let regions = find_math_regions(text);
    let tokens = tokenize(text, &regions);
    let mut scanner = Scanner::new(text, &tokens, words);
    scanner.boxes();
    scanner.math_regions();
    scanner.prose();
    scanner.into_candidates()
}

/// The longest prefix of `text` no longer than `limit` bytes that ends on a char boundary.
fn prefix_within(text: &str, limit: usize) -> &str {
    if text.len() <= limit {
        return text;
    }
    let mut end = limit;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// Where a run came from: decides the kind of a whole value and a few reading rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    Prose,
    Math,
    Boxed,
}

const NO_PARTNER: u32 = u32::MAX;

struct Scanner<'t> {
    text: &'t str,
    tokens: &'t [Token],
    /// For every `{` its matching `}`, and for every `\begin{pmatrix}` its `\end`, over the
    /// whole text (LaTeX groups are reliable).
    brace_partner: Vec<u32>,
    /// For every bracket of the run being analysed, its partner within that run.
    partner: Vec<u32>,
    found: Vec<Candidate>,
    words: WordValues,
    /// The class of every command token (`None` for other tokens), looked up once.
    command_classes: Vec<Option<CommandClass>>,
}

/// What a token does in prose when runs are built.
enum ProseRole {
    /// Part of a run; the run continues at this token index (after a whole `{...}` group).
    Math(usize),
    /// Joins two math tokens (spaces, commas), never starts or ends a run.
    Glue,
    /// Ends the run.
    Stop,
}

/// The item being read by [`Scanner::analyze_balanced`].
struct Item {
    start: usize,
    side_start: usize,
    /// The first side, `None` if it is a piece of a cut-off expression.
    first_side: Option<Range<usize>>,
    relations: u32,
    first_relation: Option<Relation>,
    /// All relations are `<`-like, or all `>`-like: a double inequality.
    one_direction: bool,
    /// The side being read follows `≡`: its value stops before a `mod`.
    after_congruence: bool,
    /// No side so far is a piece of a cut-off expression.
    complete: bool,
    /// The item's first side continues an expression cut off before the run.
    piece_at_start: bool,
}

/// The comma list being read by [`Scanner::analyze_balanced`].
struct List {
    items: u32,
    first: Option<usize>,
    last_end: usize,
    all_values: bool,
    all_named_equations: bool,
    /// Every separator enumerates (a comma, "and", "or"); `\quad` or `\implies` between
    /// statements make no list.
    commas_only: bool,
}

impl<'t> Scanner<'t> {
    fn new(text: &'t str, tokens: &'t [Token], words: WordValues) -> Self {
        let mut brace_partner = vec![NO_PARTNER; tokens.len()];
        let (mut braces, mut environments): (Vec<usize>, Vec<usize>) = (Vec::new(), Vec::new());
        for (i, t) in tokens.iter().enumerate() {
            let open = match t.kind {
                TokenKind::Open(Bracket::Brace) | TokenKind::Close(Bracket::Brace) => &mut braces,
                TokenKind::Open(Bracket::Env) | TokenKind::Close(Bracket::Env) => &mut environments,
                _ => continue,
            };
            if matches!(t.kind, TokenKind::Open(_)) {
                open.push(i);
            } else if let Some(o) = open.pop() {
                brace_partner[o] = i as u32;
                brace_partner[i] = o as u32;
            }
        }
        let command_classes = tokens
            .iter()
            .map(|t| (t.kind == TokenKind::Command).then(|| command_class(&text[t.range()][1..])))
            .collect();
        Scanner {
            text,
            tokens,
            brace_partner,
            partner: vec![NO_PARTNER; tokens.len()],
            found: Vec::new(),
            words,
            command_classes,
        }
    }

    // ---------------------------------------------------------------- token helpers

    fn slice(&self, i: usize) -> &'t str {
        &self.text[self.tokens[i].range()]
    }

    fn kind(&self, i: usize) -> TokenKind {
        self.tokens[i].kind
    }

    fn command(&self, i: usize) -> Option<CommandClass> {
        self.command_classes[i]
    }

    fn word_is(&self, i: usize, words: &[&str]) -> bool {
        self.kind(i) == TokenKind::Word && words.iter().any(|w| w.eq_ignore_ascii_case(self.slice(i)))
    }

    fn span_text(&self, range: &Range<usize>) -> &'t str {
        &self.text[self.tokens[range.start].start as usize..self.tokens[range.end - 1].end as usize]
    }

    /// The token after `i` within `limit`, skipping one space token.
    fn next_non_space(&self, i: usize, limit: usize) -> Option<usize> {
        let j = i + 1;
        match self.tokens.get(j) {
            Some(t) if j < limit && t.kind == TokenKind::Space => (j + 1 < limit).then_some(j + 1),
            Some(_) if j < limit => Some(j),
            _ => None,
        }
    }

    /// The token before `i` not before `floor`, skipping one space token.
    fn prev_non_space(&self, i: usize, floor: usize) -> Option<usize> {
        let j = i.checked_sub(1).filter(|&j| j >= floor)?;
        if self.kind(j) == TokenKind::Space {
            return j.checked_sub(1).filter(|&k| k >= floor);
        }
        Some(j)
    }

    /// `i` followed directly by a `{...}` group: the index after the last of its groups
    /// (`\frac{a}{b}`), or `None`.
    fn after_groups(&self, i: usize, limit: usize) -> Option<usize> {
        let mut j = i + 1;
        let mut any = false;
        while j < limit && self.kind(j) == TokenKind::Open(Bracket::Brace) {
            let close = self.brace_partner[j];
            if close == NO_PARTNER || close as usize >= limit {
                break;
            }
            j = close as usize + 1;
            any = true;
        }
        any.then_some(j)
    }

    fn push(&mut self, start: usize, end: usize, text: String, kind: CandidateKind) {
        if start < end && !text.is_empty() {
            self.found.push(Candidate { start, end, text, kind });
        }
    }

    fn push_range(&mut self, range: &Range<usize>, kind: CandidateKind) {
        let start = self.tokens[range.start].start as usize;
        let end = self.tokens[range.end - 1].end as usize;
        self.push(start, end, self.text[start..end].to_string(), kind);
    }

    fn into_candidates(mut self) -> Vec<Candidate> {
        self.found.sort_by(|a, b| (a.start, b.end, b.kind.priority()).cmp(&(b.start, a.end, a.kind.priority())));
        self.found.dedup_by(|later, earlier| later.start == earlier.start && later.end == earlier.end);
        self.found
    }

    // ---------------------------------------------------------------- sources of runs

    /// Boxes: the whole content is a candidate even when it is no value by the usual test
    /// (`\boxed{B}`, `\boxed{x}`): the model boxed it. A box inside a box belongs to the outer.
    fn boxes(&mut self) {
        let mut boxes: Vec<(usize, Range<usize>)> = Vec::new();
        for i in 0..self.tokens.len() {
            if self.command(i) != Some(CommandClass::Box) {
                continue;
            }
            let Some(j) = self.next_non_space(i, self.tokens.len()) else { continue };
            let content = if self.kind(j) == TokenKind::Open(Bracket::Brace) {
                match self.brace_partner[j] {
                    NO_PARTNER => continue,
                    close => j + 1..close as usize,
                }
            } else {
                self.braceless_box(i, j)
            };
            boxes.push((i, content));
        }
        // Keep the outermost: a box that starts inside the previous kept one is nested in it.
        let mut last_end = 0;
        for (command, content) in boxes {
            if command < last_end {
                continue;
            }
            last_end = content.end + 1;
            let whole = self.trim(content.clone());
            if whole.is_empty() {
                continue;
            }
            self.push_range(&whole, CandidateKind::Boxed);
            self.analyze(content, Source::Boxed);
        }
    }

    /// `\boxed 5`: the tokens after the space up to the next space or punctuation.
    fn braceless_box(&self, command: usize, first: usize) -> Range<usize> {
        // A number, as in `boxes::outermost_boxes`: `\boxed 5`, `\boxed5`, `\boxed -2`.
        let signed = self.kind(first) == TokenKind::Operator && matches!(self.slice(first), "-" | "+");
        let number_at = if signed { first + 1 } else { first };
        if self.tokens.get(number_at).map_or(true, |t| t.kind != TokenKind::Number) || (first == command + 1 && signed)
        {
            return first..first;
        }
        let mut end = first;
        while end < self.tokens.len()
            && matches!(
                self.kind(end),
                TokenKind::Number | TokenKind::Word | TokenKind::Constant | TokenKind::Operator | TokenKind::Postfix
            )
        {
            end += 1;
        }
        first..end
    }

    fn math_regions(&mut self) {
        let mut open: Option<usize> = None;
        for i in 0..self.tokens.len() {
            if self.kind(i) != TokenKind::MathDelim {
                continue;
            }
            match open.take() {
                None => open = Some(i),
                Some(o) => {
                    self.analyze(o + 1..i, Source::Math);
                    if self.words.stated_words {
                        self.choices_in_math(o + 1..i);
                    }
                }
            }
        }
    }

    fn prose(&mut self) {
        let mut i = 0;
        while i < self.tokens.len() {
            if self.tokens[i].math {
                i += 1;
                continue;
            }
            let start = i;
            while i < self.tokens.len() && !self.tokens[i].math {
                i += 1;
            }
            self.prose_segment(start..i);
        }
    }

    // ---------------------------------------------------------------- prose

    fn prose_segment(&mut self, segment: Range<usize>) {
        let mut run: Option<(usize, usize)> = None; // (first token, last token)
        let mut i = segment.start;
        while i < segment.end {
            match self.prose_role(i, &segment) {
                ProseRole::Math(next) => {
                    run = match run {
                        Some((start, last)) if self.joins(last, i) => Some((start, next - 1)),
                        Some((start, last)) => {
                            self.prose_run(start..last + 1, &segment);
                            Some((i, next - 1))
                        }
                        None => Some((i, next - 1)),
                    };
                    i = next;
                }
                ProseRole::Glue => i += 1,
                ProseRole::Stop if run.is_some() && self.enumerates(i, &segment) => i += 1,
                ProseRole::Stop => {
                    if let Some((start, last)) = run.take() {
                        self.prose_run(start..last + 1, &segment);
                    }
                    i += 1;
                }
            }
        }
        if let Some((start, last)) = run {
            self.prose_run(start..last + 1, &segment);
        }
        if self.words.number_words {
            self.number_words(segment.clone());
        }
        self.worded_expressions(segment.clone());
        if self.words.stated_words {
            self.stated_words(segment);
        }
    }

    /// Operations on numbers written in words: "the square root of 15" (`\sqrt{15}`), "cube
    /// root of 27" (`\sqrt[3]{27}`), "200 choose 100" and "(200 choose 100)"
    /// (`\binom{200}{100}`). The numbers are written in digits, non-negative (whole for a
    /// binomial), and the whole operand; the span runs from the first word ("the", or the
    /// parenthesis) to the last number.
    fn worded_expressions(&mut self, segment: Range<usize>) {
        // Most segments hold neither word ("root"/"Root", "choose"/"Choose"; not in capitals):
        // one pass over the bytes instead of a look at every word.
        if segment.is_empty() || !has_root_or_choose(self.span_text(&segment).as_bytes()) {
            return;
        }
        let mut found: Vec<(usize, usize, String)> = Vec::new();
        let number = |k: usize| k < segment.end && self.kind(k) == TokenKind::Number && !self.slice(k).starts_with('-');
        // Tokens `first..=last` are a whole operand: no operator or number right before or after
        // ("3 + 3 choose 3", "n-1 choose 2", "the square root of 81/16").
        let whole_operand = |first: usize, last: usize| {
            let joins = |k: Option<usize>| {
                k.is_some_and(|k| matches!(self.kind(k), TokenKind::Operator | TokenKind::Number | TokenKind::Postfix))
            };
            !joins(self.prev_non_space(first, segment.start)) && !joins(self.next_non_space(last, segment.end))
        };
        // The token after a single space (no line break) from `k`, when there is one.
        let after_space = |k: usize| {
            (k + 2 < segment.end && self.kind(k + 1) == TokenKind::Space && self.slice(k + 1) == " ").then_some(k + 2)
        };
        for i in segment.clone() {
            if self.kind(i) != TokenKind::Word {
                continue;
            }
            // "square root of N", "cube root of N".
            let index = if self.word_is(i, &["square"]) {
                Some(2)
            } else if self.word_is(i, &["cube"]) {
                Some(3)
            } else {
                None
            };
            if let Some(index) = index {
                let root = after_space(i).filter(|&k| self.word_is(k, &["root"]));
                let of = root.and_then(after_space).filter(|&k| self.word_is(k, &["of"]));
                if let Some(n) = of.and_then(after_space).filter(|&k| number(k) && whole_operand(k, k)) {
                    let value = self.slice(n);
                    let text = if index == 2 { format!("\\sqrt{{{value}}}") } else { format!("\\sqrt[3]{{{value}}}") };
                    let start = match self.prev_non_space(i, segment.start) {
                        Some(p) if self.word_is(p, &["the"]) => self.tokens[p].start as usize,
                        _ => self.tokens[i].start as usize,
                    };
                    found.push((start, self.tokens[n].end as usize, text));
                }
                continue;
            }
            // "N choose K", "(N choose K)".
            if self.word_is(i, &["choose"]) && i > segment.start + 1 && self.slice(i - 1) == " " && number(i - 2) {
                if let Some(k) = after_space(i).filter(|&k| number(k)) {
                    let (n_text, k_text) = (self.slice(i - 2), self.slice(k));
                    let whole = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
                    if !whole(n_text) || !whole(k_text) {
                        continue;
                    }
                    let text = format!("\\binom{{{n_text}}}{{{k_text}}}");
                    let parenthesised = i >= segment.start + 3
                        && self.slice(i - 3) == "("
                        && k + 1 < segment.end
                        && self.slice(k + 1) == ")";
                    let (start, end) = if parenthesised { (i - 3, k + 1) } else { (i - 2, k) };
                    if !whole_operand(start, end) {
                        continue;
                    }
                    found.push((self.tokens[start].start as usize, self.tokens[end].end as usize, text));
                }
            }
        }
        for (start, end, text) in found {
            // "(200 choose 100) divided by something": an operand, not a value stated.
            if !precedes_operation_word(self.text, end) {
                self.push(start, end, text, CandidateKind::WordedExpression);
            }
        }
    }

    fn prose_role(&self, i: usize, segment: &Range<usize>) -> ProseRole {
        use TokenKind::*;
        match self.kind(i) {
            Number => {
                // "5th" is an ordinal and "60-degree" an adjective: neither states a value.
                let ordinal = i + 1 < segment.end && self.word_is(i + 1, &["st", "nd", "rd", "th"]);
                let compound = i + 2 < segment.end && self.is_hyphen(i + 1, segment) && self.kind(i + 2) == Word;
                if ordinal || compound {
                    ProseRole::Stop
                } else {
                    ProseRole::Math(i + 1)
                }
            }
            Constant
            | Postfix
            | Prime
            | Relation
            | Open(Bracket::Round | Bracket::Set)
            | Close(Bracket::Round | Bracket::Set) => ProseRole::Math(i + 1),
            Operator if self.is_bullet(i, segment) => ProseRole::Stop,
            Operator => match self.after_groups(i, segment.end) {
                Some(next) => ProseRole::Math(next),
                None => ProseRole::Math(i + 1),
            },
            Open(Bracket::Brace | Bracket::Env) => match self.brace_partner[i] {
                close if close != NO_PARTNER && (close as usize) < segment.end => ProseRole::Math(close as usize + 1),
                _ => ProseRole::Stop,
            },
            Close(Bracket::Brace | Bracket::Env) => ProseRole::Stop,
            Command => match self.command(i) {
                Some(CommandClass::Separator) => ProseRole::Stop,
                _ => ProseRole::Math(self.after_groups(i, segment.end).unwrap_or(i + 1)),
            },
            Word if self.word_is_math(i, segment) => ProseRole::Math(i + 1),
            Space if self.slice(i).contains('\n') => ProseRole::Stop,
            Space | Comma | Semicolon | Ellipsis | Spacing | Dollar => ProseRole::Glue,
            _ => ProseRole::Stop,
        }
    }

    /// Whether token `i` is "and"/"or" continuing an enumeration: a value (or `name = value`)
    /// comes right after it ("x = 0 or x = 5", "π/6, and 5π/6"), so the words join items of
    /// one list instead of ending the run.
    fn enumerates(&self, i: usize, segment: &Range<usize>) -> bool {
        if !self.word_is(i, &["and", "or"]) {
            return false;
        }
        match self.next_non_space(i + 1, segment.end) {
            Some(next) => {
                matches!(self.prose_role(next, segment), ProseRole::Math(_)) && !self.word_is(next, &["and", "or"])
            }
            None => false,
        }
    }

    /// `-`, `*` or `•` then a space at the start of a line: a list bullet, not a sign.
    fn is_bullet(&self, i: usize, segment: &Range<usize>) -> bool {
        matches!(self.slice(i), "-" | "*" | "•")
            && self.tokens.get(i + 1).is_some_and(|t| t.kind == TokenKind::Space)
            && (i == segment.start
                || (self.kind(i - 1) == TokenKind::Space
                    && (i - 1 == segment.start || self.slice(i - 1).contains('\n'))))
    }

    /// Whether the word at `i` is mathematics: a variable, a function name, a unit glued to a
    /// number.
    fn word_is_math(&self, i: usize, segment: &Range<usize>) -> bool {
        let word = self.slice(i);
        let prev = (i > segment.start).then(|| i - 1);
        let next = (i + 1 < segment.end).then_some(i + 1);
        if self.number_word_after_numeral(i, segment.start) {
            return true;
        }
        // Most words of prose have no math token beside them (a space between counts as
        // beside, and a space is no math token): every rule below but a function's and `pi`
        // then says no.
        let quiet = |j: Option<usize>| j.map_or(true, |j| !makes_words_math(self.kind(j)));
        if quiet(self.prev_non_space(i, segment.start)) && quiet(self.next_non_space(i, segment.end)) {
            return if is_function_word(word) { self.function_applies(i, segment) } else { word == "pi" };
        }
        if let Some(p) = prev {
            if self.kind(p) == TokenKind::Number {
                // `2x`, `3n`, `12cm`, `144s²`, but not the ordinal `5th` or the plural `6s`.
                let math_follows = next.is_some_and(|n| {
                    matches!(
                        self.kind(n),
                        TokenKind::Postfix | TokenKind::Operator | TokenKind::Relation | TokenKind::Open(_)
                    )
                });
                return !matches!(word, "st" | "nd" | "rd" | "th") && (word != "s" || math_follows);
            }
        }
        if is_function_word(word) {
            return self.function_applies(i, segment);
        }
        if word == "pi" || (matches!(word, "x" | "X") && self.is_times_sign(i, segment)) {
            return true;
        }
        let spaced_operator = |j: Option<usize>| -> bool {
            j.is_some_and(|j| match self.kind(j) {
                TokenKind::Relation => true,
                TokenKind::Operator => !matches!(self.slice(j), "!" | "_" | "^"),
                _ => false,
            })
        };
        let spaced = || {
            spaced_operator(self.prev_non_space(i, segment.start))
                || spaced_operator(self.next_non_space(i, segment.end))
        };
        if !is_identifier(word) {
            // A longer word is math glued to an operator (`xy=1`, `ab+c`, `xy²`), or when it
            // is a product of variables next to one (`b^2 - 4ac`, `hk + 12h`).
            let glued_operator = |j: Option<usize>, after: bool| {
                j.is_some_and(|j| match self.kind(j) {
                    TokenKind::Operator => !self.is_hyphen(j, segment) && self.slice(j) != "!",
                    TokenKind::Relation => true,
                    TokenKind::Postfix => after,
                    // An array index: `dp[3]`.
                    TokenKind::Open(Bracket::Round) => after && self.slice(j) == "[",
                    _ => false,
                })
            };
            return glued_operator(prev, false)
                || glued_operator(next, true)
                || (spaced() && is_variable_product(word));
        }
        let glued_to_math = |j: Option<usize>, after: bool| -> bool {
            j.is_some_and(|j| match self.kind(j) {
                TokenKind::Operator => !self.is_hyphen(j, segment),
                TokenKind::Relation
                | TokenKind::Number
                | TokenKind::Constant
                | TokenKind::Command
                | TokenKind::Open(_)
                | TokenKind::Close(_) => true,
                TokenKind::Postfix | TokenKind::Prime => after,
                _ => false,
            })
        };
        glued_to_math(prev, false) || glued_to_math(next, true) || spaced()
    }

    /// Whether the token at `i` is a scale or power word after a numeral ([`Self::scales_numeral`],
    /// [`Self::powers_numeral`]). Asked of every word of prose: most are rejected by their
    /// length and first letter.
    fn number_word_after_numeral(&self, i: usize, start: usize) -> bool {
        let word = self.slice(i).as_bytes();
        let candidate = self.kind(i) == TokenKind::Word
            && (5..=12).contains(&word.len())
            && matches!(word[0] | 0x20, b'h' | b't' | b'm' | b'b' | b'q' | b'd' | b's' | b'c' | b'f' | b'e' | b'n');
        candidate && (self.scales_numeral(i, start) || self.powers_numeral(i, start))
    }

    /// Whether the word at `i` is a scale word after a numeral, directly or after other scale
    /// words, spaces between: "2 million", "1.5 billion", "3 hundred thousand", "5 dozen"
    /// ([`number_words::scale`]). It belongs to the value: "2 million" states 2000000, not 2.
    fn scales_numeral(&self, i: usize, start: usize) -> bool {
        let mut k = i;
        // "3 hundred thousand million" is as long as a chain gets; a longer one is no value
        // (and walking it back from each of its words would be quadratic).
        for _ in 0..MAX_SCALE_WORDS {
            if !(self.kind(k) == TokenKind::Word && number_words::scale(self.slice(k)).is_some()) {
                return false;
            }
            match self.prev_non_space(k, start) {
                Some(p) if self.kind(p) == TokenKind::Number && k - p <= 2 => return true,
                Some(p) if k - p <= 2 => k = p,
                _ => return false,
            }
        }
        false
    }

    /// Whether the word at `i` is a power word ("squared", "cubed") or a fraction word that
    /// counts after a numeral ("thirds", "tenths", "twelfth"; [`number_words::counted_fraction`],
    /// as the answer engine's `normalize` reads them) right after a numeral: "5 squared is 25",
    /// "2 thirds of them". The value is the power or the quotient, and the numeral alone is no
    /// candidate (the base of a computation, a numerator). A whole number of wholes ("all 3
    /// thirds") states no fraction ([`number_words::states_fraction`]): the count stays.
    fn powers_numeral(&self, i: usize, start: usize) -> bool {
        if self.kind(i) != TokenKind::Word {
            return false;
        }
        let Some(p) = self.prev_non_space(i, start).filter(|&p| self.kind(p) == TokenKind::Number && i - p <= 2) else {
            return false;
        };
        let word = self.slice(i);
        number_words::power_word(word).is_some()
            || number_words::counted_fraction(word)
                .is_some_and(|d| self.slice(p).parse::<u64>().map_or(true, |n| number_words::states_fraction(n, d)))
    }

    /// `x` between two numbers written apart is a multiplication sign: "3 x 10^8", "2 x 2".
    fn is_times_sign(&self, i: usize, segment: &Range<usize>) -> bool {
        let spaced_number = |j: Option<usize>, gap: usize| {
            j.is_some_and(|j| {
                self.kind(j) == TokenKind::Number && j.abs_diff(i) == 2 && self.kind(gap) == TokenKind::Space
            })
        };
        i > segment.start
            && i + 1 < segment.end
            && spaced_number(self.prev_non_space(i, segment.start), i - 1)
            && spaced_number(self.next_non_space(i, segment.end), i + 1)
    }

    /// A `-` glued between two words ("x-axis", "well-known", "5-digit"'s suffix) is a hyphen.
    fn is_hyphen(&self, j: usize, segment: &Range<usize>) -> bool {
        if !matches!(self.slice(j), "-" | "–") {
            return false;
        }
        let long_word = |k: usize| {
            self.kind(k) == TokenKind::Word && self.slice(k).chars().count() >= 2 && !is_function_word(self.slice(k))
        };
        (j + 1 < segment.end && long_word(j + 1)) || (j > segment.start && long_word(j - 1))
    }

    /// `sqrt(2)`, `log_6 x`, `sin x`, `8321 mod 1000`; not "log base 6", "the max is".
    fn function_applies(&self, i: usize, segment: &Range<usize>) -> bool {
        if i + 1 >= segment.end {
            return false;
        }
        match self.kind(i + 1) {
            TokenKind::Open(_) | TokenKind::Postfix => true,
            TokenKind::Operator => matches!(self.slice(i + 1), "_" | "^"),
            TokenKind::Space => self.next_non_space(i, segment.end).is_some_and(|j| match self.kind(j) {
                TokenKind::Number | TokenKind::Constant | TokenKind::Command => true,
                TokenKind::Word => is_identifier(self.slice(j)) && !is_english_letter(self.slice(j)),
                _ => false,
            }),
            _ => false,
        }
    }

    /// Whether the math tokens `left` and `right` (glue between them) belong to one run.
    fn joins(&self, left: usize, right: usize) -> bool {
        use TokenKind::*;
        if left + 1 == right {
            return true;
        }
        let between = &self.tokens[left + 1..right];
        // "x = 0 or x = 5", "π/6, and 5π/6": a connective between two items of an enumeration.
        let connectives = (left + 1..right).filter(|&k| self.word_is(k, &["and", "or"])).count();
        if connectives == 1 {
            // Not across brackets: "(which is 20) and (x = 5)" are two remarks, not a list.
            let bracketed =
                matches!(self.kind(left), Close(Bracket::Round)) || matches!(self.kind(right), Open(Bracket::Round));
            let commas = between.iter().filter(|t| matches!(t.kind, Comma)).count();
            return !bracketed && commas <= 1 && self.ends_operand(left) && self.starts_item(right);
        }
        let commas = between.iter().filter(|t| matches!(t.kind, Comma | Semicolon)).count();
        if between.iter().any(|t| t.kind == Ellipsis) {
            return commas <= 2;
        }
        match commas {
            0 => {}
            1 => return self.ends_operand(left) && self.starts_item(right),
            _ => return false,
        }
        if self.number_word_after_numeral(right, 0) {
            return true;
        }
        let function = |k: usize| self.kind(k) == Word && is_function_word(self.slice(k));
        let times = |k: usize| self.kind(k) == Word && matches!(self.slice(k), "x" | "X");
        if function(left) || function(right) || times(left) || times(right) {
            return true;
        }
        // `log_6 9`: the argument after a subscripted base continues the term.
        let script = left > 0 && self.slice(left - 1) == "_";
        match (self.kind(left), self.kind(right)) {
            (Number, Number | Word) if script => true,
            // `cosh(a t)`, `sin(2 t)`: inside a function's parentheses, letters juxtaposed
            // with letters or numbers are a product, not words of prose.
            (Number | Word, Word)
                if self.single_letter(right)
                    && (self.kind(left) == Number || self.single_letter(left))
                    && self.inside_function_call(left) =>
            {
                true
            }
            (Number | Postfix | Constant | Close(_) | Prime, Number) => false,
            // "2 pi", and "2 T - 1" where the letter is a variable in a spaced expression; but
            // "12 m/s", "5 V", "5 x" hold a unit or stand apart.
            (Number | Postfix | Constant | Prime, Word) => {
                let word = self.slice(right);
                let spaced_operator_after = self.tokens.get(right + 1).is_some_and(|t| t.kind == Space)
                    && self.tokens.get(right + 2).is_some_and(|t| matches!(t.kind, Operator | Relation))
                    && self.is_binary_or_relation(right + 2);
                word == "pi"
                    || (is_identifier(word)
                        && word.chars().count() == 1
                        && !is_english_letter(word)
                        && spaced_operator_after)
            }
            // `\frac{1}{2} t^2`, `\right) e^{-t}`: LaTeX multiplies by juxtaposition; but in
            // "(1) x + y" the bracket is a label.
            (Close(_), Word) => {
                self.kind(left) == Close(Bracket::Brace)
                    || (left > 0 && self.command(left - 1) == Some(CommandClass::Sizing))
            }
            (Word, Number | Word | Constant) => false,
            (Number | Postfix | Constant | Close(_) | Word | Prime, Open(Bracket::Round)) => false,
            _ => true,
        }
    }

    fn single_letter(&self, i: usize) -> bool {
        self.kind(i) == TokenKind::Word && self.slice(i).chars().count() == 1
    }

    /// Whether token `i` lies inside the parentheses of a function applied to them (`cosh(`,
    /// `\sin(`): the nearest unclosed `(` before it, within [`FUNCTION_CALL_LOOKBACK`] tokens,
    /// follows a function name.
    fn inside_function_call(&self, i: usize) -> bool {
        let mut depth = 0usize;
        for k in (i.saturating_sub(FUNCTION_CALL_LOOKBACK)..i).rev() {
            match (self.kind(k), self.slice(k)) {
                (TokenKind::Close(Bracket::Round), ")") => depth += 1,
                (TokenKind::Open(Bracket::Round), "(") if depth > 0 => depth -= 1,
                (TokenKind::Open(Bracket::Round), "(") => {
                    return k > 0
                        && ((self.kind(k - 1) == TokenKind::Word && is_function_word(self.slice(k - 1)))
                            || self.command(k - 1) == Some(CommandClass::Function));
                }
                _ => {}
            }
        }
        false
    }

    fn is_binary_or_relation(&self, k: usize) -> bool {
        self.kind(k) == TokenKind::Relation || self.is_binary_operator(k)
    }

    fn ends_operand(&self, i: usize) -> bool {
        match self.kind(i) {
            TokenKind::Number
            | TokenKind::Postfix
            | TokenKind::Constant
            | TokenKind::Close(_)
            | TokenKind::Prime
            | TokenKind::Word => true,
            TokenKind::Operator => self.slice(i) == "!",
            TokenKind::Command => matches!(self.command(i), Some(CommandClass::Value | CommandClass::Name)),
            _ => false,
        }
    }

    fn starts_item(&self, i: usize) -> bool {
        match self.kind(i) {
            TokenKind::Number | TokenKind::Constant | TokenKind::Open(_) | TokenKind::Command | TokenKind::Word => true,
            TokenKind::Operator => matches!(self.slice(i), "-" | "+" | "−" | "±" | "√"),
            _ => false,
        }
    }

    /// A run of prose math, unless it is a lone label number ("Case 1", "Step 2", "1." as a
    /// list marker): those number things, they state no value.
    fn prose_run(&mut self, run: Range<usize>, segment: &Range<usize>) {
        let trimmed = self.trim(run.clone());
        if trimmed.len() == 1 && self.kind(trimmed.start) == TokenKind::Number {
            let i = trimmed.start;
            const LABELS: &[&str] = &[
                "case", "subcase", "step", "part", "problem", "question", "equation", "eq", "method", "approach",
                "example", "figure", "fig", "line", "row", "column", "lemma", "theorem", "claim", "condition",
                "property", "rule", "attempt", "trial", "scenario", "iteration", "version", "chapter", "section",
                "page", "round", "day", "option", "choice",
            ];
            if let Some(p) = self.prev_non_space(i, segment.start) {
                if self.word_is(p, LABELS) {
                    return;
                }
            }
            let line_starts_at = |at: usize| {
                (segment.start..at).all(|k| {
                    matches!(self.kind(k), TokenKind::Space | TokenKind::Markup)
                        || (self.kind(k) == TokenKind::Other && self.slice(k) == "#")
                })
            };
            // "1. ", "2) " and "11: " at the start of a line number the lines of a list.
            let marker_follows = i + 2 < segment.end
                && matches!(self.slice(i + 1), "." | ")" | ":")
                && self.kind(i + 2) == TokenKind::Space;
            if line_starts_at(i) && marker_follows {
                return;
            }
            // "Triplet 4: (-1, -6, 1)", "Pair 2: ...": a word and a number that open a line
            // before a colon name it, whatever the word.
            let colon_follows = i + 1 < segment.end && self.slice(i + 1) == ":";
            if colon_follows
                && self
                    .prev_non_space(i, segment.start)
                    .is_some_and(|p| self.kind(p) == TokenKind::Word && line_starts_at(p))
            {
                return;
            }
        }
        self.analyze(run, Source::Prose);
    }

    // ---------------------------------------------------------------- reading a run

    /// Splits `range` at brackets without a partner inside it and reads each part.
    fn analyze(&mut self, range: Range<usize>, source: Source) {
        let mut stack: Vec<(Bracket, usize)> = Vec::new();
        let mut unmatched: Vec<usize> = Vec::new();
        for i in range.clone() {
            match self.kind(i) {
                TokenKind::Open(b) => stack.push((b, i)),
                TokenKind::Close(b) => match stack.last() {
                    Some(&(top, o)) if top == b => {
                        stack.pop();
                        self.partner[o] = i as u32;
                        self.partner[i] = o as u32;
                    }
                    _ => unmatched.push(i),
                },
                _ => {}
            }
        }
        unmatched.extend(stack.into_iter().map(|(_, o)| o));
        unmatched.sort_unstable();
        // A stray bracket between two pieces of mathematics (`3*(1 + 2`, `x + 1) * 2`) joins
        // them into one unfinished expression: the sides touching it are no values.
        let last_content = range.clone().rev().find(|&k| !self.trims_anywhere(k));
        let mut piece_start = range.start;
        let mut glued_at = Vec::with_capacity(unmatched.len());
        for &cut in &unmatched {
            let content_before = (piece_start..cut).any(|k| !self.trims_anywhere(k));
            glued_at.push(content_before && last_content.is_some_and(|last| last > cut));
            piece_start = cut + 1;
        }
        let mut start = range.start;
        let mut piece_at_start = false;
        for (cut, glued) in unmatched.into_iter().zip(glued_at) {
            self.analyze_balanced(start..cut, source, piece_at_start, glued);
            start = cut + 1;
            piece_at_start = glued;
        }
        self.analyze_balanced(start..range.end, source, piece_at_start, false);
    }

    /// Reads a run whose brackets all have partners: items at depth-0 separators, sides at
    /// depth-0 relations, emitting as described in the module documentation. `piece_at_start`
    /// and `piece_at_end` say that the first or last side continues beyond the run.
    fn analyze_balanced(&mut self, range: Range<usize>, source: Source, piece_at_start: bool, piece_at_end: bool) {
        let mut range = range;
        // "(x = 5)" in prose is a remark in parentheses: read what is inside.
        if let Some(trimmed) = self.trim_complete(range.clone()).filter(|t| !t.is_empty()) {
            if source == Source::Prose && !piece_at_start && !piece_at_end && !self.has_inner_comma(&trimmed) {
                if let Some((open, close)) = self.wrapped(&trimmed).filter(|&(open, _)| self.slice(open) == "(") {
                    range = open + 1..close;
                }
            }
        }
        let mut list = List {
            items: 0,
            first: None,
            last_end: range.start,
            all_values: true,
            all_named_equations: true,
            commas_only: true,
        };
        let mut item = Item::starting_at(range.start);
        item.piece_at_start = piece_at_start;
        let mut depth: u32 = 0;
        let mut i = range.start;
        while i < range.end {
            match self.kind(i) {
                TokenKind::Open(_) => depth += 1,
                TokenKind::Close(_) => depth = depth.saturating_sub(1),
                _ if depth == 0 => {
                    if let Some(after) = self.separator_end(i, range.end) {
                        let enumerating = matches!(self.kind(i), TokenKind::Comma)
                            || self.word_is(i, &["and", "or"])
                            || self.is_connective_text(i);
                        self.finish_item(&item, i, false, source, &mut list);
                        list.commas_only &= enumerating;
                        item = Item::starting_at(after);
                        i = after;
                        continue;
                    }
                    if let Some(relation) = self.relation(i) {
                        self.finish_side(&mut item, i, relation);
                    } else if self.kind(i) == TokenKind::Command {
                        // A `\text{...}` group is one atom: its words are no statement.
                        if let Some(next) = self.after_groups(i, range.end) {
                            i = next;
                            continue;
                        }
                    }
                }
                _ => {}
            }
            i += 1;
        }
        self.finish_item(&item, range.end, piece_at_end, source, &mut list);
        if list.items >= 2 && list.commas_only && (list.all_values || list.all_named_equations) {
            if let Some(first) = list.first {
                self.push_range(&(first..list.last_end), CandidateKind::List);
            }
        }
    }

    /// The end of a depth-0 item separator at `i`: `,`, `;`, `\\`, `=>`, `\quad`, `\implies`,
    /// `\text{ or }`, a table's ` | `.
    fn separator_end(&self, i: usize, limit: usize) -> Option<usize> {
        let spaced = |k: usize| self.tokens.get(k).is_some_and(|t| t.kind == TokenKind::Space);
        match self.kind(i) {
            TokenKind::Comma | TokenKind::Semicolon | TokenKind::LineBreak | TokenKind::Arrow => Some(i + 1),
            TokenKind::Word if self.word_is(i, &["and", "or"]) => Some(i + 1),
            // A `|` between spaces separates table columns ("12 | 6 | 1"); `|x|` is glued.
            TokenKind::Operator if self.slice(i) == "|" && i > 0 && spaced(i - 1) && spaced(i + 1) => Some(i + 1),
            TokenKind::Command => match self.command(i)? {
                CommandClass::Separator => Some(i + 1),
                CommandClass::Text => {
                    let open = i + 1;
                    if open >= limit || self.kind(open) != TokenKind::Open(Bracket::Brace) {
                        return None;
                    }
                    let close = self.brace_partner[open];
                    if close == NO_PARTNER {
                        return None;
                    }
                    let close = close as usize;
                    let inner = open + 1..close;
                    let connective = close < limit && !inner.is_empty() && is_connective(self.span_text(&inner));
                    connective.then_some(close + 1)
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// `\text{ and }` / `\text{ or }` (a connective written in math).
    fn is_connective_text(&self, i: usize) -> bool {
        if self.kind(i) != TokenKind::Command || self.command(i) != Some(CommandClass::Text) {
            return false;
        }
        match self.tokens.get(i + 1) {
            Some(t) if t.kind == TokenKind::Open(Bracket::Brace) => {
                let close = self.brace_partner[i + 1];
                close != NO_PARTNER && matches!(self.span_text(&(i + 2..close as usize)).trim(), "and" | "or")
            }
            _ => false,
        }
    }

    fn relation(&self, i: usize) -> Option<Relation> {
        match self.kind(i) {
            TokenKind::Relation => Some(Relation::of_symbol(self.slice(i))),
            TokenKind::Command => match self.command(i)? {
                CommandClass::Relation(r) => Some(r),
                _ => None,
            },
            _ => None,
        }
    }

    fn finish_side(&mut self, item: &mut Item, relation_at: usize, relation: Relation) {
        let piece = item.piece_at_start && item.relations == 0;
        let side = self.trim_complete(item.side_start..relation_at).filter(|_| !piece);
        if item.relations == 0 {
            item.first_side = side.clone();
            item.first_relation = Some(relation);
        } else if item.first_relation != Some(relation) || !matches!(relation, Relation::Less | Relation::Greater) {
            item.one_direction = false;
        }
        item.complete &= side.is_some();
        if let Some(side) = side {
            self.emit_side(&side, item.after_congruence);
        }
        item.relations += 1;
        item.side_start = relation_at + 1;
        // In `3^4 ≡ 2^2 = 4 mod 7` every side after the `≡` is taken modulo 7.
        item.after_congruence |= matches!(self.slice(relation_at), "≡" | "\\equiv");
    }

    /// A side of a relation; after `≡` also its residue alone (`3` of `3 \pmod{7}`).
    fn emit_side(&mut self, side: &Range<usize>, after_congruence: bool) {
        if after_congruence {
            if let Some(residue) = self.before_modulus(side) {
                self.emit_side(&residue, false);
            }
        }
        if !side.is_empty() && self.is_value(side) && !self.is_name(side) && !self.is_single_box(side) {
            let kind = self.bracket_shape(side).unwrap_or(CandidateKind::EquationSide);
            self.push_value(side, kind);
        }
    }

    /// `range` up to a depth-0 `mod`, `\pmod`, `\bmod` or `(mod`, if it has one.
    fn before_modulus(&self, range: &Range<usize>) -> Option<Range<usize>> {
        let is_mod = |k: usize| {
            k < range.end && (self.word_is(k, &["mod"]) || matches!(self.slice(k), "\\mod" | "\\pmod" | "\\bmod"))
        };
        let mut depth = 0u32;
        for k in range.clone() {
            match self.kind(k) {
                TokenKind::Open(_) if depth == 0 && self.next_non_space(k, range.end).is_some_and(is_mod) => {
                    return Some(self.trim(range.start..k));
                }
                TokenKind::Open(_) => depth += 1,
                TokenKind::Close(_) => depth = depth.saturating_sub(1),
                _ if depth == 0 && is_mod(k) => return Some(self.trim(range.start..k)),
                _ => {}
            }
        }
        None
    }

    /// Ends the item at `end`; `piece_at_end`: its last side continues beyond the run.
    fn finish_item(&mut self, item: &Item, end: usize, piece_at_end: bool, source: Source, list: &mut List) {
        list.items += 1;
        let inner = self.trim(item.start..end);
        // ", and" / ", or": the comma and the word separate the same two items.
        if inner.is_empty() && list.items > 1 {
            list.items -= 1;
            return;
        }
        // `1, 2, 3, \ldots, 8`: the ellipsis stands for members of the list, it is no value.
        if inner.len() == 1
            && (self.kind(inner.start) == TokenKind::Ellipsis
                || self.command(inner.start) == Some(CommandClass::Ellipsis))
        {
            list.last_end = inner.end;
            return;
        }
        let piece = piece_at_end || (item.piece_at_start && item.relations == 0);
        let whole = self.trim_complete(item.start..end).filter(|_| !piece && !item.piece_at_start);
        match &whole {
            Some(w) if !w.is_empty() => {
                list.first.get_or_insert(w.start);
                list.last_end = w.end;
            }
            Some(_) => {}
            None => {
                list.all_values = false;
                list.all_named_equations = false;
            }
        }
        if item.relations == 0 {
            let value =
                whole.filter(|w| !w.is_empty() && self.is_value(w) && !self.is_name(w) && !self.is_single_box(w));
            list.all_values &= value.is_some();
            list.all_named_equations = false;
            if let Some(value) = value {
                let kind = self.value_kind(&value, source);
                self.push_value(&value, kind);
            }
            return;
        }
        list.all_values = false;
        let last_side = self.trim_complete(item.side_start..end).filter(|_| !piece);
        if let Some(side) = &last_side {
            self.emit_side(side, item.after_congruence);
        }
        let relation = item.first_relation.unwrap_or(Relation::Other);
        let two_sided = item.relations == 1 && relation.states_answer();
        let double_inequality = item.relations == 2 && item.one_direction;
        let sides_present = |side: &Option<Range<usize>>| side.as_ref().is_some_and(|s| !s.is_empty());
        let complete = item.complete && sides_present(&item.first_side) && sides_present(&last_side);
        let named = complete
            && item.relations == 1
            && relation == Relation::Equal
            && item.first_side.as_ref().is_some_and(|first| self.is_name(first));
        list.all_named_equations &= named;
        if let (true, Some(whole)) = (complete && (two_sided || double_inequality), whole) {
            self.push_range(&whole, CandidateKind::Equation);
        }
    }

    /// A value, and also its number without the units written after it in `\text{}`:
    /// `99.875 \, \text{rad/s}` gives `99.875` too (`12 cm` in prose is read without the unit
    /// already).
    fn push_value(&mut self, range: &Range<usize>, kind: CandidateKind) {
        self.push_range(range, kind);
        if let Some(head) = self.before_units(range).or_else(|| self.before_scale_words(range)) {
            self.push_range(&head, kind);
        }
    }

    /// `range` without the scale words that end it, when a numeral is left: `72 million`
    /// gives `72` too. The whole is the value (72000000); the numeral alone is what a response
    /// that boxes `72` and writes "72 million years" means by its box (the scale is then part
    /// of the unit), so the anchor search may match either, as it may `99.8` of
    /// `99.8 \, \text{rad/s}`. Equivalence reads the whole only.
    fn before_scale_words(&self, range: &Range<usize>) -> Option<Range<usize>> {
        let mut end = range.end;
        let mut stripped = false;
        while end > range.start {
            let t = end - 1;
            match self.kind(t) {
                TokenKind::Space => end = t,
                TokenKind::Word if number_words::scale(self.slice(t)).is_some() => {
                    end = t;
                    stripped = true;
                }
                _ => break,
            }
        }
        (stripped && end > range.start && self.kind(end - 1) == TokenKind::Number).then_some(range.start..end)
    }

    /// `range` without a tail of units: `\text{...}` groups joined by `^`, `/`, `\cdot` and
    /// exponents (`\text{cm}^2/\text{s}`), when what is left is a value.
    fn before_units(&self, range: &Range<usize>) -> Option<Range<usize>> {
        let mut k = range.end;
        let mut units_start = None;
        while k > range.start {
            let t = k - 1;
            match self.kind(t) {
                TokenKind::Space | TokenKind::Spacing | TokenKind::Postfix => k = t,
                TokenKind::Operator if matches!(self.slice(t), "/" | "^") => k = t,
                TokenKind::Number if t > range.start && self.slice(t - 1) == "^" => k = t,
                TokenKind::Command if self.slice(t) == "\\cdot" => k = t,
                TokenKind::Close(Bracket::Brace) => {
                    let open = self.partner[t] as usize;
                    if open <= range.start || open >= t {
                        break;
                    }
                    if matches!(self.slice(open - 1), "\\text" | "\\textrm" | "\\mathrm" | "\\mbox") {
                        k = open - 1;
                        units_start = Some(k);
                    } else if self.slice(open - 1) == "^" {
                        k = open;
                    } else {
                        break;
                    }
                }
                _ => break,
            }
        }
        // Units follow a quantity: the head holds a number, a constant or a value command,
        // and no operator dangles from it (`\mathbf{v} - \text{...}` is no quantity).
        let head = self.trim_complete(range.start..units_start?)?;
        let quantity = head.clone().any(|k| {
            matches!(self.kind(k), TokenKind::Number | TokenKind::Constant)
                || self.command(k) == Some(CommandClass::Value)
        });
        (quantity && !self.is_name(&head)).then_some(head)
    }

    /// `range` trimmed ([`Scanner::trim`]), or `None` when trimming cut off an arithmetic
    /// operator: then the range is the piece of a larger expression ("3*(1+2" cut at its
    /// bracket, "5+4+ something", a line that continues a sum: "+ 3n") and states no value.
    fn trim_complete(&self, range: Range<usize>) -> Option<Range<usize>> {
        let trimmed = self.trim(range.clone());
        let cut = (range.start..trimmed.start).chain(trimmed.end..range.end).any(|k| self.is_binary_operator(k));
        (!cut).then_some(trimmed)
    }

    /// An arithmetic operator between two operands (not `!`, `|`, nor a dash in prose).
    fn is_binary_operator(&self, k: usize) -> bool {
        let binary = match self.kind(k) {
            TokenKind::Operator => !matches!(self.slice(k), "!" | "|"),
            TokenKind::Command => self.command(k) == Some(CommandClass::Operator),
            _ => false,
        };
        binary && !self.is_prose_dash(k)
    }

    /// `-` between spaces before an English word: "x = 5 - wait" (but not "- sqrt(3)").
    fn is_prose_dash(&self, k: usize) -> bool {
        let english_word = |j: usize| {
            self.tokens.get(j).is_some_and(|t| t.kind == TokenKind::Word) && {
                let word = self.slice(j);
                word.chars().count() >= 2
                    && !is_function_word(word)
                    && !is_identifier(word)
                    && !is_variable_product(word)
                    && word != "pi"
            }
        };
        matches!(self.slice(k), "-" | "–")
            && k > 0
            && self.kind(k - 1) == TokenKind::Space
            && self.tokens.get(k + 1).is_some_and(|t| t.kind == TokenKind::Space)
            && english_word(k + 2)
    }

    // ---------------------------------------------------------------- shapes of a range

    /// `range` without the tokens that cannot begin or end a value.
    fn trim(&self, range: Range<usize>) -> Range<usize> {
        let (mut start, mut end) = (range.start, range.end);
        while start < end && self.trims_at_start(start) {
            start += 1;
        }
        while end > start && self.trims_at_end(end - 1) {
            end -= 1;
        }
        start..end
    }

    fn trims_anywhere(&self, i: usize) -> bool {
        use TokenKind::*;
        match self.kind(i) {
            Space | Spacing | Comma | Semicolon | Relation | Arrow | Ellipsis | Punct | MathDelim | Markup
            | LineBreak | Dollar | Other => true,
            Command => {
                matches!(
                    self.command(i),
                    Some(
                        CommandClass::Transparent
                            | CommandClass::Separator
                            | CommandClass::Relation(_)
                            | CommandClass::Ellipsis
                            | CommandClass::Operator
                    )
                ) && !(self.slice(i) == "\\pm" || self.slice(i) == "\\mp")
            }
            _ => false,
        }
    }

    fn trims_at_start(&self, i: usize) -> bool {
        // A sign is glued to its operand ("-3"); "+ 3n" at the start continues a sum.
        let sign = || {
            matches!(self.slice(i), "-" | "+" | "−" | "±" | "∓")
                && self.tokens.get(i + 1).is_some_and(|t| t.kind != TokenKind::Space)
        };
        self.trims_anywhere(i)
            || matches!(self.kind(i), TokenKind::Close(_) | TokenKind::Postfix | TokenKind::Prime)
            || (self.kind(i) == TokenKind::Operator && !sign() && !matches!(self.slice(i), "√" | "∛" | "∜" | "|"))
    }

    fn trims_at_end(&self, i: usize) -> bool {
        self.trims_anywhere(i)
            || matches!(self.kind(i), TokenKind::Open(_))
            || (self.kind(i) == TokenKind::Operator && !matches!(self.slice(i), "!" | "|"))
            || (self.kind(i) == TokenKind::Command
                && matches!(self.command(i), Some(CommandClass::Sizing | CommandClass::Function | CommandClass::Box)))
    }

    /// The first and last bracket if one bracket pair encloses all of `range` (a leading
    /// `\left` is allowed).
    fn wrapped(&self, range: &Range<usize>) -> Option<(usize, usize)> {
        let mut first = range.start;
        if self.command(first) == Some(CommandClass::Sizing) {
            first += 1;
        }
        let last = range.end - 1;
        let opens = first < last && matches!(self.kind(first), TokenKind::Open(_));
        (opens && self.partner[first] as usize == last).then_some((first, last))
    }

    /// Whether a comma sits directly inside the outer brackets of `range` (a tuple, not a
    /// parenthesised expression).
    fn has_inner_comma(&self, range: &Range<usize>) -> bool {
        let mut depth = 0i64;
        for i in range.clone() {
            match self.kind(i) {
                TokenKind::Open(_) => depth += 1,
                TokenKind::Close(_) => depth -= 1,
                TokenKind::Comma if depth == 1 => return true,
                _ => {}
            }
        }
        false
    }

    fn value_kind(&self, range: &Range<usize>, source: Source) -> CandidateKind {
        if let Some(shape) = self.bracket_shape(range) {
            return shape;
        }
        match source {
            Source::Boxed => CandidateKind::Boxed,
            Source::Math => CandidateKind::MathSpan,
            Source::Prose => {
                let mut first = range.start;
                if self.kind(first) == TokenKind::Operator && matches!(self.slice(first), "-" | "+" | "−") {
                    first += 1;
                }
                let scaled = self
                    .before_scale_words(range)
                    .is_some_and(|head| head.start == range.start && head.end == first + 1);
                if (first + 1 == range.end || scaled) && self.kind(first) == TokenKind::Number {
                    CandidateKind::Number
                } else {
                    CandidateKind::BareExpression
                }
            }
        }
    }

    /// Tuple, interval or set: brackets around comma-separated parts, or a union of intervals.
    fn bracket_shape(&self, range: &Range<usize>) -> Option<CandidateKind> {
        if let Some((first, last)) = self.wrapped(range) {
            match self.kind(first) {
                TokenKind::Open(Bracket::Set) => return Some(CandidateKind::Set),
                // Plain braces around a list: a set written without backslashes.
                TokenKind::Open(Bracket::Brace) if self.has_inner_comma(range) => return Some(CandidateKind::Set),
                TokenKind::Open(Bracket::Round) if self.has_inner_comma(range) => {
                    let open = self.slice(first);
                    let close = self.slice(last);
                    let infinite = range.clone().any(|i| self.slice(i) == "\\infty" || self.slice(i) == "∞");
                    let kind = if open == "(" && close == ")" && !infinite {
                        CandidateKind::Tuple
                    } else {
                        CandidateKind::Interval
                    };
                    return Some(kind);
                }
                _ => return None,
            }
        }
        let starts_with_bracket = matches!(self.kind(range.start), TokenKind::Open(Bracket::Round));
        let mut depth = 0i64;
        for i in range.clone() {
            match self.kind(i) {
                TokenKind::Open(_) => depth += 1,
                TokenKind::Close(_) => depth -= 1,
                _ if depth == 0 && starts_with_bracket && matches!(self.slice(i), "\\cup" | "∪") => {
                    return Some(CandidateKind::Interval)
                }
                _ => {}
            }
        }
        None
    }

    /// A value holds a number, a constant, a value command (`\frac`, `\text`) or an operator
    /// applied to a variable (`2x`, `x^2 - y^2`).
    fn is_value(&self, range: &Range<usize>) -> bool {
        let mut variable = false;
        let mut arithmetic = false;
        for i in range.clone() {
            match self.kind(i) {
                TokenKind::Number | TokenKind::Constant => return true,
                // A function applied (`sqrt(x)`, `cosh(a t)`), as its command `\cosh` is.
                TokenKind::Word if self.slice(i) == "pi" || is_function_word(self.slice(i)) => return true,
                TokenKind::Word => variable = true,
                TokenKind::Postfix => arithmetic = true,
                TokenKind::Operator => arithmetic |= !matches!(self.slice(i), "_" | "|" | "!"),
                TokenKind::Command => match self.command(i) {
                    Some(CommandClass::Value | CommandClass::Text | CommandClass::Function) => return true,
                    Some(CommandClass::Name) => variable = true,
                    Some(CommandClass::Operator) => arithmetic = true,
                    _ => {}
                },
                _ => {}
            }
        }
        variable && arithmetic
    }

    /// A name rather than a value: `x`, `AB`, `a_1`, `S_{10}`, `f'`, `f(2022)`, `\theta`,
    /// `\angle ABC`, `\overline{AB}`, `x2`, `dp[3][5]`.
    fn is_name(&self, range: &Range<usize>) -> bool {
        let end = range.end;
        let mut i = range.start;
        let skip_space = |mut k: usize| {
            while k < end && matches!(self.kind(k), TokenKind::Space | TokenKind::Spacing) {
                k += 1;
            }
            k
        };
        match self.kind(i) {
            TokenKind::Word if !is_function_word(self.slice(i)) => {
                i += 1;
                if i < end && self.kind(i) == TokenKind::Number {
                    i += 1;
                }
            }
            TokenKind::Command if self.command(i) == Some(CommandClass::Name) => {
                let name = &self.slice(i)[1..];
                i = self.after_groups(i, end).unwrap_or(i + 1);
                if matches!(name, "angle" | "measuredangle" | "triangle") {
                    i = skip_space(i);
                    if i < end && self.kind(i) == TokenKind::Word {
                        i += 1;
                    }
                }
            }
            _ => return false,
        }
        if i + 1 < end && self.slice(i) == "_" {
            i = match self.kind(i + 1) {
                TokenKind::Open(Bracket::Brace) => self.after_groups(i, end).unwrap_or(end + 1),
                _ => i + 2,
            };
        }
        while i < end && self.kind(i) == TokenKind::Prime {
            i += 1;
        }
        // Indices: `dp[3][5]`.
        while i < end && self.slice(i) == "[" && (self.partner[i] as usize) < end - 1 {
            i = self.partner[i] as usize + 1;
        }
        if i < end && matches!(self.kind(i), TokenKind::Open(Bracket::Round)) && self.partner[i] as usize == end - 1 {
            i = end;
        }
        i == end
    }

    /// `\boxed{...}` and nothing else: the box rule already gave its content.
    fn is_single_box(&self, range: &Range<usize>) -> bool {
        self.command(range.start) == Some(CommandClass::Box)
            && self.after_groups(range.start, range.end) == Some(range.end)
    }

    // ---------------------------------------------------------------- words

    /// Number words: "twelve" -> 12, "twenty-one" -> 21, "two thirds" -> 2/3. A lone "one" is
    /// mostly a pronoun ("one of the", "no one", "this one"); it counts only right after a verb
    /// or quantifier that states it ("is one", "only one", "exactly one") and not before "of",
    /// "another", "more", ....
    fn number_words(&mut self, segment: Range<usize>) {
        let mut i = segment.start;
        while i < segment.end {
            if self.kind(i) != TokenKind::Word || number_words::cardinal(self.slice(i)).is_none() {
                i += 1;
                continue;
            }
            // Gather up to five more words joined by single spaces or hyphens.
            let mut words = vec![i];
            let mut k = i;
            while words.len() < 6 && k + 2 < segment.end {
                let gap_ok = matches!(self.kind(k + 1), TokenKind::Space) && !self.slice(k + 1).contains('\n')
                    || self.slice(k + 1) == "-";
                if !gap_ok || self.kind(k + 2) != TokenKind::Word {
                    break;
                }
                k += 2;
                words.push(k);
            }
            let texts: Vec<&str> = words.iter().map(|&w| self.slice(w)).collect();
            let longest = (1..=texts.len()).rev().find_map(|n| number_words::phrase_value(&texts[..n]).map(|v| (n, v)));
            let Some((n, value)) = longest else {
                i += 1;
                continue;
            };
            let mut last = words[n - 1];
            let mut text = value.to_string();
            // "non-zero", "exactly_two": part of a longer word.
            let mut compound = i > segment.start && matches!(self.slice(i - 1), "-" | "_");
            if let Some(&next) = words.get(n) {
                match self.fraction_denominator(value, next, &segment) {
                    Some(d) => {
                        text = format!("{value}/{d}");
                        last = next;
                    }
                    // "three-digit", "nine-point": an adjective, no stated value.
                    None => compound |= self.slice(next - 1) == "-",
                }
            }
            if compound {
                i = last + 1;
                continue;
            }
            let lone_one = last == i && self.slice(i).eq_ignore_ascii_case("one");
            // "exactly two + 3*exactly three": the words name quantities in a formula.
            let arithmetic = |j: Option<usize>| j.is_some_and(|j| self.is_binary_operator(j));
            let in_formula =
                arithmetic(self.prev_non_space(i, segment.start)) || arithmetic(self.next_non_space(last, segment.end));
            if !in_formula && (!lone_one || self.one_is_stated(i, &segment)) {
                let (start, end) = (self.tokens[i].start as usize, self.tokens[last].end as usize);
                self.push(start, end, text, CandidateKind::NumberWord);
            }
            i = last + 1;
        }
    }

    /// The denominator when the word at `word` makes `numerator` a fraction: "one half",
    /// "two thirds", "three-quarters", "three halves"; not "two quarter-circles" (singular after
    /// a plural numerator, or an adjective), and not "the two halves" or "three thirds", which
    /// count the parts of a whole (a whole number of wholes is no fraction stated).
    fn fraction_denominator(&self, numerator: u32, word: usize, segment: &Range<usize>) -> Option<u32> {
        let name = self.slice(word);
        let d = number_words::denominator(name)?;
        let plural = name.ends_with('s') || name.eq_ignore_ascii_case("halves");
        let adjective = word + 1 < segment.end && self.slice(word + 1) == "-";
        ((numerator == 1) != plural && !adjective && number_words::states_fraction(u64::from(numerator), d))
            .then_some(d)
    }

    fn one_is_stated(&self, i: usize, segment: &Range<usize>) -> bool {
        const STATING: &[&str] = &[
            "is", "are", "was", "were", "be", "been", "equals", "exactly", "only", "just", "get", "gets", "got",
            "gives", "give", "yields", "answer",
        ];
        const PRONOUN_NEXT: &[&str] = &[
            "of", "another", "other", "such", "more", "less", "way", "can", "could", "would", "should", "might",
            "must", "may", "will",
        ];
        let stated = match self.prev_non_space(i, segment.start) {
            // "the only one where ..." is a pronoun.
            Some(p) if self.word_is(p, &["only"]) => {
                self.prev_non_space(p, segment.start).map_or(true, |q| !self.word_is(q, &["the"]))
            }
            Some(p) if self.word_is(p, STATING) => true,
            Some(p) if self.word_is(p, &["to"]) => {
                self.prev_non_space(p, segment.start).is_some_and(|q| self.word_is(q, &["equal"]))
            }
            _ => false,
        };
        let pronoun = self.next_non_space(i, segment.end).is_some_and(|n| self.word_is(n, PRONOUN_NEXT));
        stated && !pronoun
    }

    /// Multiple-choice letters and words given as the answer. A capital A-E is a choice as
    /// `(B)` (not `P(B)`), or after "option", "choice" or "answer is/:" ("A is the point" is
    /// not). A capitalised word right after "answer is" is a text answer.
    fn stated_words(&mut self, segment: Range<usize>) {
        for i in segment.clone() {
            if self.kind(i) != TokenKind::Word {
                continue;
            }
            let word = self.slice(i);
            let choice_letter = word.len() == 1 && matches!(word.as_bytes()[0], b'A'..=b'E');
            let start = self.tokens[i].start as usize;
            let end = self.tokens[i].end as usize;
            if choice_letter {
                let stated = self.parenthesised_letter(i, &segment)
                    || (self.after_answer_words(i, &segment, true) && self.letter_stands_alone(i, &segment));
                if stated {
                    self.push(start, end, word.to_string(), CandidateKind::Choice);
                }
            } else if is_proper_word(word)
                && (self.after_answer_words(i, &segment, false) || self.named_after_copula(i, &segment))
            {
                self.push(start, end, format!("\\text{{{word}}}"), CandidateKind::Text);
            }
        }
    }

    /// `\textbf{(B)}` inside math.
    fn choices_in_math(&mut self, region: Range<usize>) {
        for i in region.clone() {
            let word = self.slice(i);
            let letter =
                self.kind(i) == TokenKind::Word && word.len() == 1 && matches!(word.as_bytes()[0], b'A'..=b'E');
            if letter && self.parenthesised_letter(i, &region) {
                let t = self.tokens[i];
                self.push(t.start as usize, t.end as usize, word.to_string(), CandidateKind::Choice);
            }
        }
    }

    fn parenthesised_letter(&self, i: usize, segment: &Range<usize>) -> bool {
        if i == segment.start || i + 1 >= segment.end {
            return false;
        }
        let open = i - 1;
        if self.slice(open) != "(" || self.slice(i + 1) != ")" {
            return false;
        }
        // `P(A)`, `sin⁻¹(A)` apply a function and `(C)/2` is an operand; `(A)` alone names a
        // choice.
        let operand_before = open > segment.start
            && matches!(
                self.kind(open - 1),
                TokenKind::Word
                    | TokenKind::Number
                    | TokenKind::Close(_)
                    | TokenKind::Command
                    | TokenKind::Postfix
                    | TokenKind::Operator
                    | TokenKind::Constant
            );
        let operand_after = i + 2 < segment.end
            && matches!(
                self.kind(i + 2),
                TokenKind::Word
                    | TokenKind::Number
                    | TokenKind::Open(_)
                    | TokenKind::Operator
                    | TokenKind::Postfix
                    | TokenKind::Relation
            );
        !operand_before && !operand_after
    }

    /// A letter after "answer is" that starts no expression: "B." but not "B e^{-t}".
    fn letter_stands_alone(&self, i: usize, segment: &Range<usize>) -> bool {
        let Some(next) = (i + 1 < segment.end).then_some(i + 1) else { return true };
        let starts_math = |k: usize| {
            matches!(
                self.kind(k),
                TokenKind::Operator
                    | TokenKind::Relation
                    | TokenKind::Command
                    | TokenKind::Number
                    | TokenKind::Open(_)
                    | TokenKind::Postfix
                    | TokenKind::Constant
                    | TokenKind::Prime
            ) || (self.kind(k) == TokenKind::Word && is_identifier(self.slice(k)))
        };
        match self.kind(next) {
            TokenKind::Space => self.next_non_space(i, segment.end).map_or(true, |k| !starts_math(k)),
            _ => !starts_math(next) || matches!(self.kind(next), TokenKind::Close(_)),
        }
    }

    /// Whether the word at `i` is named by "is" or "was" right before it, as the whole
    /// complement: "the highest average speed is Evelyn with 3.6", "the winner was Bob." (not
    /// "is Newton's method", "is Euler line").
    fn named_after_copula(&self, i: usize, segment: &Range<usize>) -> bool {
        const LINKS: &[&str] =
            &["with", "and", "or", "at", "who", "which", "because", "since", "as", "by", "for", "in", "on"];
        let before = self.prev_non_space(i, segment.start).is_some_and(|p| self.word_is(p, &["is", "was"]));
        // The name ends the statement: then only punctuation, a bracket or markup, or a word that
        // links a clause ("Evelyn with 3.6"); not a noun ("Euler line"), an operator ("Total -
        // ..."), a subscript ("Product_{k=0}") or a possessive ("Newton's").
        let ends_statement = |k: usize| {
            k >= segment.end
                || matches!(
                    self.kind(k),
                    TokenKind::Punct
                        | TokenKind::Comma
                        | TokenKind::Semicolon
                        | TokenKind::Close(_)
                        | TokenKind::Markup
                        | TokenKind::MathDelim
                )
                || self.word_is(k, LINKS)
        };
        let next = i + 1;
        let ends = if next < segment.end && self.kind(next) == TokenKind::Space {
            self.slice(next).contains('\n') || ends_statement(next + 1)
        } else {
            ends_statement(next)
        };
        before && ends
    }

    /// Whether the word at `i` follows "answer is", "answer:", "the answer would be" (and, for
    /// choice letters, "option" or "choice"), allowing `(`, `**`, `\textbf{` in between.
    fn after_answer_words(&self, i: usize, segment: &Range<usize>, choice: bool) -> bool {
        const FILLERS: &[&str] = &["is", "be", "would", "should", "must", "will", "correct", "the", "final"];
        let mut k = i;
        let mut steps = 0;
        while k > segment.start && steps < 8 {
            k -= 1;
            steps += 1;
            match self.kind(k) {
                TokenKind::Space if self.slice(k).contains('\n') => return false,
                TokenKind::Space | TokenKind::Markup | TokenKind::Open(_) | TokenKind::Dollar => {}
                TokenKind::Punct if self.slice(k) == ":" => {}
                TokenKind::Command if self.command(k) == Some(CommandClass::Text) => {}
                TokenKind::Word if self.word_is(k, &["answer"]) => return true,
                TokenKind::Word if choice && self.word_is(k, &["option", "choice"]) => return true,
                TokenKind::Word if self.word_is(k, FILLERS) => {}
                _ => return false,
            }
        }
        false
    }
}

impl Item {
    fn starting_at(start: usize) -> Item {
        Item {
            start,
            side_start: start,
            first_side: None,
            relations: 0,
            first_relation: None,
            one_direction: true,
            after_congruence: false,
            complete: true,
            piece_at_start: false,
        }
    }
}

/// Whether `bytes` hold "oot" or "hoose" (of "root" and "choose"): a pass for the "oo" both
/// have, which most sentences lack, then the two words. Segments are a sentence's prose, tens
/// of bytes: a substring search's set-up (memchr's `memmem::find` builds a searcher each call)
/// cost more than these passes, about a tenth of the extraction of a real trace's sentence.
fn has_root_or_choose(bytes: &[u8]) -> bool {
    let holds = |needle: &[u8]| bytes.windows(needle.len()).any(|w| w == needle);
    holds(b"oo") && (holds(b"oot") || holds(b"hoose"))
}

/// The kinds of token that [`Scanner::word_is_math`] reads as mathematics beside a word: an
/// operand, an operator, a relation, a bracket, a command, a postfix or a prime.
fn makes_words_math(kind: TokenKind) -> bool {
    use TokenKind::*;
    matches!(kind, Number | Operator | Relation | Postfix | Open(_) | Close(_) | Constant | Command | Prime)
}

/// A letter that names a variable: one letter of any script, two to four capitals (`AB`,
/// `ABC`: points, segments), or a Greek letter spelled out (`theta`).
fn is_identifier(word: &str) -> bool {
    const GREEK: &[&str] = &[
        "alpha", "beta", "gamma", "delta", "epsilon", "theta", "lambda", "mu", "sigma", "phi", "omega", "rho", "tau",
        "psi",
    ];
    let mut chars = word.chars();
    match (chars.next(), chars.next()) {
        (Some(_), None) => true,
        _ => ((2..=4).contains(&word.len()) && word.bytes().all(|b| b.is_ascii_uppercase())) || GREEK.contains(&word),
    }
}

/// The one-letter English words, which are variables only when glued to mathematics.
fn is_english_letter(word: &str) -> bool {
    matches!(word, "a" | "A" | "I")
}

/// A short lowercase word that reads as a product of variables in plain-text math (`ac`, `bx`,
/// `hk`), unless it is an English word.
fn is_variable_product(word: &str) -> bool {
    const ENGLISH: &[&str] = &[
        "is", "to", "so", "an", "or", "of", "in", "at", "be", "by", "as", "it", "we", "if", "on", "no", "do", "go",
        "he", "me", "my", "up", "us", "am", "ok", "and", "the", "for", "but", "not", "are", "was", "can", "has", "had",
        "its", "let", "get", "got", "see", "say", "use", "how", "why", "who", "any", "all", "one", "two", "six", "ten",
        "may", "now", "new", "off", "our", "out", "per", "try", "way", "yes", "too", "set", "put", "sum", "lot", "few",
        "him", "her", "she", "you", "did", "end", "add", "odd", "its", "way", "mod", "max", "min", "log", "sin", "cos",
        "tan", "hmm", "etc", "via", "vs", "ie", "eg", "cm", "mm", "km", "kg", "mph", "day", "yet", "own", "far", "big",
        "old", "top", "low", "key", "fit", "fix", "run", "own",
    ];
    (2..=3).contains(&word.len()) && word.bytes().all(|b| b.is_ascii_lowercase()) && !ENGLISH.contains(&word)
}

/// A capitalised word that can be a text answer (a name), not a sentence word.
fn is_proper_word(word: &str) -> bool {
    const SENTENCE_WORDS: &[&str] = &[
        "The", "This", "That", "These", "Those", "It", "Its", "There", "Then", "So", "Not", "No", "Yes", "Correct",
        "Wrong", "Also", "And", "But", "Therefore", "Thus", "Hence", "Because", "Since", "Let", "We", "I", "In", "If",
        "When", "Option", "Choice", "Answer", "Final", "Wait", "Hmm", "Okay", "Ok", "Alright", "Well", "Now", "First",
        "Actually", "Maybe", "Perhaps", "Note", "However", "Given", "Hence", "Likely", "Probably", "Still", "Negative",
        "Positive", "Infinity", "Undefined", "None",
    ];
    let mut chars = word.chars();
    chars.next().is_some_and(|c| c.is_uppercase())
        && word.chars().count() >= 2
        && chars.all(|c| c.is_lowercase())
        && number_words::cardinal(word).is_none()
        && !SENTENCE_WORDS.contains(&word)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (text, kind) of every candidate.
    fn found(text: &str) -> Vec<(String, &'static str)> {
        extract_candidates(text).into_iter().map(|c| (c.text, c.kind.as_str())).collect()
    }

    fn texts(text: &str) -> Vec<String> {
        extract_candidates(text).into_iter().map(|c| c.text).collect()
    }

    fn has(text: &str, value: &str) -> bool {
        texts(text).iter().any(|t| t == value)
    }

    fn pairs(items: &[(&str, &'static str)]) -> Vec<(String, &'static str)> {
        items.iter().map(|&(t, k)| (t.to_string(), k)).collect()
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2048))]

        /// The test with its "oo" pass first says what searching for the two words says,
        /// beside bytes one off from `o` (`n`, `p`) and bytes with the top bit set.
        #[test]
        fn the_double_o_test_is_a_substring_search(bytes in proptest::collection::vec(proptest::sample::select(vec![b'o', b'n', b'p', b'O', b' ', 0xEF, 0x6F ^ 0x80, b't', b's', b'h']), 0..40)) {
            let holds = |needle: &[u8]| bytes.windows(needle.len()).any(|w| w == needle);
            proptest::prop_assert_eq!(has_root_or_choose(&bytes), holds(b"oot") || holds(b"hoose"));
        }
    }

    #[test]
    fn answer_in_prose_stops_before_the_period() {
        assert_eq!(found("So the answer is 3/4."), pairs(&[("3/4", "bare_expression")]));
        assert_eq!(found("So the answer is 3.5."), pairs(&[("3.5", "number")]));
    }

    #[test]
    fn bare_latex_without_delimiters() {
        assert_eq!(
            found(r"Thus x = \frac{\pi}{2}"),
            pairs(&[(r"x = \frac{\pi}{2}", "equation"), (r"\frac{\pi}{2}", "equation_side")])
        );
    }

    #[test]
    fn plain_text_functions_of_products() {
        // Inside a function's parentheses, `a t` is a product, not the article "a".
        assert!(has("x(t) = cosh(a t).", "cosh(a t)"));
        assert!(has("x(t) = \\cosh(a t).", "\\cosh(a t)"));
        assert!(has("so x = sin(2 t) + 1.", "sin(2 t) + 1"));
        // A function applied is a value, as its command is.
        assert!(has("x = sin(t).", "sin(t)"));
        assert!(has("so the answer is cosh(a t).", "cosh(a t)"));
        // Outside a function's parentheses, words stay prose.
        assert_eq!(texts("y = a t."), vec!["y = a"]);
        assert!(texts("take the log of both sides").is_empty());
    }

    #[test]
    fn units_stay_out_of_the_number() {
        assert_eq!(found("that gives 12 cm"), pairs(&[("12", "number")]));
    }

    #[test]
    fn delimited_math_in_the_middle_of_a_sentence() {
        assert_eq!(
            found(r"the probability is \(\frac{5}{36}\), but let me verify"),
            pairs(&[(r"\frac{5}{36}", "math_span")])
        );
        assert_eq!(
            found(r"so $x=3$ and $$y = 4$$"),
            pairs(&[("x=3", "equation"), ("3", "equation_side"), ("y = 4", "equation"), ("4", "equation_side")])
        );
    }

    #[test]
    fn one_sentence_gives_only_its_own_values() {
        assert_eq!(texts("So n = 17 works."), vec!["n = 17", "17"]);
        assert!(!has("So n = 17 works.", "18"));
    }

    #[test]
    fn numbers_inside_expressions_are_not_candidates() {
        assert_eq!(texts(r"the area is 3\sqrt{2}"), vec![r"3\sqrt{2}"]);
        assert_eq!(texts(r"so it is \(\frac{5}{36}\)"), vec![r"\frac{5}{36}"]);
        assert_eq!(texts("so 2^{10} = 1024"), vec!["2^{10} = 1024", "2^{10}", "1024"]);
        // A piece cut off from a larger expression states nothing.
        assert_eq!(texts("so 3*(1 + 2 and more"), Vec::<String>::new());
        assert_eq!(texts("/ 2 = 28 * 60 = 1680."), vec!["28 * 60", "1680"]);
        assert_eq!(texts("+ 3n."), Vec::<String>::new());
    }

    #[test]
    fn a_mixed_number_is_one_value() {
        assert_eq!(found("The answer is 4 4/9."), pairs(&[("4 4/9", "number")]));
        assert_eq!(texts("So x = -3 1/4 here."), vec!["x = -3 1/4", "-3 1/4"]);
        assert_eq!(texts("we need 2 1/2 cups"), vec!["2 1/2"]);
        // Not a mixed number: an improper fraction, a fraction before it, another line.
        assert_eq!(texts("it is 11 7/6"), vec!["11", "7/6"]);
        assert_eq!(texts("it is 11/10 4/9"), vec!["11/10", "4/9"]);
        assert_eq!(texts("it is 11\n5/6"), vec!["11", "5/6"]);
    }

    #[test]
    fn worded_expressions() {
        assert_eq!(
            found("So, the length of BP is the square root of 15."),
            pairs(&[(r"\sqrt{15}", "worded_expression"), ("15", "number")])
        );
        assert!(texts("the cube root of 27 is 3").contains(&r"\sqrt[3]{27}".to_string()));
        assert!(texts("the number is (200 choose 100) because").contains(&r"\binom{200}{100}".to_string()));
        assert!(texts("that is 10 choose 3 = 120").contains(&r"\binom{10}{3}".to_string()));
        // An operand of an operation in words is no value stated.
        assert!(!texts("is this just (200 choose 100) divided by something?").iter().any(|t| t.starts_with('\\')));
        assert!(texts("square root of 15 éé").contains(&r"\sqrt{15}".to_string()));
        // Not without a number, nor across a line break, nor a non-integer binomial.
        assert!(texts("the square root of x").is_empty());
        assert!(!texts("square root of\n15").iter().any(|t| t.starts_with('\\')));
        assert!(!texts("2.5 choose 1").iter().any(|t| t.starts_with('\\')));
        // Nor part of a larger expression.
        for t in
            ["(3 + 3 choose 3) = 20", "which is n-1 choose 2.", "9/4 is the square root of 81/16.", "2 * (8 choose 6)"]
        {
            assert!(!texts(t).iter().any(|c| c.starts_with(r"\binom") || c.starts_with(r"\sqrt")), "{t}");
        }
        assert!(texts("= 6 choose 3 = 20").contains(&r"\binom{6}{3}".to_string()));
    }

    #[test]
    fn number_words() {
        assert_eq!(found("there are twelve of them"), pairs(&[("12", "number_word")]));
        assert_eq!(texts("twenty-one ways"), vec!["21"]);
        assert_eq!(texts("three hundred and five"), vec!["305"]);
        assert_eq!(texts("two thirds of it"), vec!["2/3"]);
        assert_eq!(texts("one half"), vec!["1/2"]);
        assert!(texts("two quarter-circles").iter().all(|t| t != "2/4"));
        assert!(texts("a three-digit number, non-zero").is_empty());
        assert_eq!(texts("three halves"), vec!["3/2"]);
        assert_eq!(texts("three quarters of the pie"), vec!["3/4"]);
        // The parts of a whole are counted, not a fraction stated ("2 halves" is 2 too).
        assert_eq!(texts("split it into the two halves"), vec!["2"]);
        assert_eq!(texts("all three thirds"), vec!["3"]);
    }

    #[test]
    fn one_counts_only_where_it_is_stated() {
        assert_eq!(texts("So there is only one solution."), vec!["1"]);
        assert_eq!(texts("The answer is one."), vec!["1"]);
        assert!(texts("one of the roots, no one knows, this one, one can see").is_empty());
        assert!(texts("it is one of them").is_empty());
        assert!(texts("N=30 is the only one where it fails").iter().all(|t| t != "1"));
    }

    #[test]
    fn tuples_intervals_sets() {
        assert_eq!(found("(2, 3)"), pairs(&[("(2, 3)", "tuple")]));
        assert_eq!(found("[0, 1)"), pairs(&[("[0, 1)", "interval")]));
        assert_eq!(found(r"(-\infty, 3]"), pairs(&[(r"(-\infty, 3]", "interval")]));
        assert_eq!(found(r"\{1,2\}"), pairs(&[(r"\{1,2\}", "set")]));
        assert_eq!(found("S = {1400, 1040}"), pairs(&[("S = {1400, 1040}", "equation"), ("{1400, 1040}", "set")]));
        assert_eq!(
            found(r"$x \in (-\infty, 1) \cup (2, \infty)$"),
            pairs(&[(r"(-\infty, 1) \cup (2, \infty)", "interval")])
        );
        assert_eq!(found(r"\(\left( 1, 2 \right)\)"), pairs(&[(r"\left( 1, 2 \right)", "tuple")]));
    }

    #[test]
    fn equations_and_chains() {
        assert_eq!(found("so y = 2x + 1"), pairs(&[("y = 2x + 1", "equation"), ("2x + 1", "equation_side")]));
        // A chain is no value; its sides are.
        assert_eq!(found("a = 2 + 3 = 5"), pairs(&[("2 + 3", "equation_side"), ("5", "equation_side")]));
        assert_eq!(texts(r"\(\pi/2 \approx 1.57\)"), vec![r"\pi/2", "1.57"]);
        assert_eq!(texts("so -2 < x < 3"), vec!["-2 < x < 3", "-2", "3"]);
        assert_eq!(texts("so x = 1, y = 2"), vec!["x = 1, y = 2", "x = 1", "1", "y = 2", "2"]);
        // Names are not values: `f(2022)`, `a_1`, `AB`.
        assert_eq!(
            texts("f(2022) = 2 and a_1 = 7 and AB = 5"),
            vec!["f(2022) = 2 and a_1 = 7 and AB = 5", "f(2022) = 2", "2", "a_1 = 7", "7", "AB = 5", "5"]
        );
    }

    #[test]
    fn congruences_give_the_residue() {
        assert!(has(r"\(24 \equiv 3 \pmod{7}\)", "3"));
        assert!(has("so 24 ≡ 3 mod 7", "3"));
        // Without `≡` a `mod` is an operation: 8321 is no separate value.
        assert_eq!(texts("8321 mod 1000 is 321"), vec!["8321 mod 1000", "321"]);
    }

    #[test]
    fn multiple_choice_letters() {
        assert_eq!(found("The answer is (B)."), pairs(&[("B", "choice")]));
        assert_eq!(found("so option C"), pairs(&[("C", "choice")]));
        assert_eq!(found("the answer is B"), pairs(&[("B", "choice")]));
        assert!(found(r"\(\textbf{(D)}\)").contains(&("D".to_string(), "choice")));
        assert!(found("A is the point where P(A) meets B").is_empty());
        assert!(found("so 9/8 - (C)/2 and sin⁻¹(A)").iter().all(|(_, kind)| *kind != "choice"));
        assert!(found("The final answer is B e^{-t}").iter().all(|(_, kind)| *kind != "choice"));
        assert_eq!(found("**Answer: (C)**"), pairs(&[("C", "choice")]));
    }

    #[test]
    fn boxes_bold_and_unicode() {
        assert_eq!(found(r"so \boxed{5}."), pairs(&[("5", "boxed")]));
        assert_eq!(found(r"so $\boxed{x = 5}$"), pairs(&[("x = 5", "boxed"), ("5", "equation_side")]));
        assert_eq!(found(r"\boxed{\boxed{7}}"), pairs(&[(r"\boxed{7}", "boxed")]));
        assert_eq!(found("so **5** it is"), pairs(&[("5", "number")]));
        assert_eq!(texts("√2 and π/2 and 6²"), vec!["√2 and π/2 and 6²", "√2", "π/2", "6²"]);
        assert_eq!(texts(r"\(\cot x\) and the 1980s and 144s²"), vec![r"\cot x", "1980", "144s²"]);
    }

    #[test]
    fn plain_text_math() {
        assert_eq!(texts("so 3 x 10^8 m/s"), vec!["3 x 10^8", "m/s"]);
        assert_eq!(texts("(2 T - 1) - T + 1 = T and 5 V."), vec!["(2 T - 1) - T + 1 = T", "(2 T - 1) - T + 1", "5"]);
        assert_eq!(
            texts("sqrt(2) and log_6 x - log_6 9 = 2"),
            vec!["sqrt(2)", "log_6 x - log_6 9 = 2", "log_6 x - log_6 9", "2"]
        );
        assert_eq!(texts("so b^2 - 4ac = 0"), vec!["b^2 - 4ac = 0", "b^2 - 4ac", "0"]);
        assert_eq!(texts("1,000 and 1{,}000"), vec!["1,000 and 1{,}000", "1,000", "1{,}000"]);
    }

    #[test]
    fn bare_latex_groups_multiply_by_juxtaposition() {
        assert_eq!(
            texts(r"x_p(t) = \left( \frac{1}{2} t^2 - t \right) e^{-t}"),
            vec![r"x_p(t) = \left( \frac{1}{2} t^2 - t \right) e^{-t}", r"\left( \frac{1}{2} t^2 - t \right) e^{-t}"]
        );
        assert_eq!(
            texts(r"so \begin{pmatrix} -1 & 0 \\ 0 & -1 \end{pmatrix} = -I"),
            vec![
                r"\begin{pmatrix} -1 & 0 \\ 0 & -1 \end{pmatrix} = -I",
                r"\begin{pmatrix} -1 & 0 \\ 0 & -1 \end{pmatrix}",
                "-I"
            ]
        );
    }

    #[test]
    fn units_in_text_give_the_bare_number_too() {
        assert_eq!(
            texts(r"\(d = 6\sqrt{2} \text{ cm}\)"),
            vec![r"d = 6\sqrt{2} \text{ cm}", r"6\sqrt{2} \text{ cm}", r"6\sqrt{2}"]
        );
        assert!(has(r"\(D = 1.29 \times 10^{-5} \, \text{cm}^2/\text{s}\)", r"1.29 \times 10^{-5}"));
        assert_eq!(texts(r"\(\text{Evelyn}\)"), vec![r"\text{Evelyn}"]);
        assert_eq!(
            texts(r"\(\mathbf{w_1} - \mathbf{w_2}\) and \(x - \text{cm}\)"),
            vec![r"\mathbf{w_1} - \mathbf{w_2}", r"x - \text{cm}"]
        );
    }

    #[test]
    fn number_words_after_a_numeral_belong_to_the_value() {
        // A scale word: the whole, and the numeral a box may mean with the scale as its unit.
        assert_eq!(
            found("So the population is 2 million."),
            vec![("2 million".to_string(), "number"), ("2".to_string(), "number")]
        );
        assert_eq!(texts("So it is 3 hundred thousand."), vec!["3 hundred thousand", "3"]);
        assert_eq!(texts("around 100 billion to 400 billion"), vec!["100 billion", "100", "400 billion", "400"]);
        // A chain is at most four words long.
        assert_eq!(
            texts("So 2 million million million million million."),
            vec!["2 million million million million", "2"]
        );
        // A power word: the power only; the base is no result.
        assert_eq!(texts("So 5 squared is 25."), vec!["5 squared", "25"]);
        assert_eq!(texts("So it is 3 cubed."), vec!["3 cubed"]);
        // A fraction word: the quotient only; the numerator is no result.
        assert_eq!(texts("So 2 thirds of them passed, and 3 tenths failed."), vec!["2 thirds", "3 tenths"]);
        assert_eq!(texts("So it is 1 third."), vec!["1 third"]);
        // Half and quarter stay nouns after a count (3 quarters is as often coins).
        assert_eq!(texts("So 3 quarters are left."), vec!["3"]);
        // A whole number of wholes counts parts, as "all three thirds" does.
        assert_eq!(texts("So all 3 thirds are done."), vec!["3"]);
        assert_eq!(texts("So it is 7 thirds."), vec!["7 thirds"]);
        // Not after a numeral: prose.
        assert!(texts("a million reasons").is_empty());
    }

    #[test]
    fn labels_ordinals_and_bullets_are_not_values() {
        assert!(texts("Case 1: we try").is_empty());
        assert!(texts("Step 2 is next").is_empty());
        assert!(texts("1. First we expand").is_empty());
        assert!(texts("the 5th term and the x-axis").is_empty());
        assert_eq!(texts("- 3 balls"), vec!["3"]);
        assert_eq!(texts("x = 5 - wait"), vec!["x = 5", "5"]);
    }

    #[test]
    fn text_answers() {
        assert_eq!(found("Thus answer should be Evelyn."), pairs(&[(r"\text{Evelyn}", "text")]));
        assert!(found("So the answer is Wait").is_empty());
        // A name as the whole complement of "is"/"was" states it too.
        assert_eq!(
            found("the highest average speed is Evelyn with 3.6 units"),
            pairs(&[(r"\text{Evelyn}", "text"), ("3.6", "number")])
        );
        assert_eq!(found("the winner was Bob."), pairs(&[(r"\text{Bob}", "text")]));
        // Not a possessive, nor a name that starts a noun phrase.
        assert!(found("This is Newton's method.").is_empty());
        assert!(found("The line is Euler line").is_empty());
        for t in ["the formula is Total - (a + b)", "the product we want is Product_{k=0}^{12} P(k)."] {
            assert!(!texts(t).iter().any(|c| c.starts_with(r"\text")), "{t}");
        }
        assert_eq!(found("the winner was Bob, clearly"), pairs(&[(r"\text{Bob}", "text")]));
    }

    #[test]
    fn prices_are_not_math_but_their_numbers_count() {
        assert_eq!(texts("it costs $5 and $6"), vec!["5", "6"]);
    }

    #[test]
    fn a_number_labelling_a_line_is_no_value() {
        assert_eq!(texts("11: Hmm, can I make 12?"), vec!["12"]);
        assert_eq!(texts("So x: 11 works"), vec!["11"]);
        // A word and a number opening a line before a colon name the line.
        assert_eq!(texts("Triplet 4: (-1, -6, 1)"), vec!["(-1, -6, 1)"]);
        assert_eq!(texts("### Pair 2: a = 3"), vec!["a = 3", "3"]);
        // Not at the start of the line, or without the colon, the number is a value.
        assert_eq!(texts("So we get triplet 4: done"), vec!["4"]);
        assert_eq!(texts("Total 4 pairs"), vec!["4"]);
    }

    #[test]
    fn enumerations_joined_by_words_or_an_ellipsis_are_lists() {
        assert_eq!(texts("x = 0 or x = 5"), vec!["x = 0 or x = 5", "x = 0", "0", "x = 5", "5"]);
        assert_eq!(
            texts("all θ are π/4, 3π/4, π/6, and 5π/6."),
            vec!["π/4, 3π/4, π/6, and 5π/6", "π/4", "3π/4", "π/6", "5π/6"]
        );
        assert_eq!(texts(r"k can be \( 1, 2, 3, \ldots, 8 \)."), vec![r"1, 2, 3, \ldots, 8", "1", "2", "3", "8"]);
        // A word after "and" ends the enumeration: the value stands alone.
        assert_eq!(texts("So the answer is 5 and we are done."), vec!["5"]);
    }

    #[test]
    fn a_remark_in_parentheses_is_read_inside() {
        assert_eq!(texts("the area (which is 20) and (x = 5)"), vec!["20", "x = 5", "5"]);
        // One level only: deeper brackets belong to the value.
        assert_eq!(texts("(((1)))"), vec!["((1))"]);
    }

    #[test]
    fn degenerate_input() {
        for text in ["", " ", "$", "$$", r"\(", r"\boxed{", "{{{{", "))))", "\0", "(((x", "=====", ",,,,", "**", "𝔸𝔹"]
        {
            for c in extract_candidates(text) {
                assert!(c.start < c.end && c.end <= text.len() && !c.text.is_empty(), "{text:?}");
            }
        }
    }

    #[test]
    fn deep_and_long_inputs_finish() {
        // Deep brackets around a number are that value, read in one piece.
        let deep = format!("{}1{}", "(".repeat(100_000), ")".repeat(100_000));
        let found = texts(&deep);
        assert!(found.len() == 1 && found[0] == deep[1..deep.len() - 1]);
        let boxes = r"\boxed{".repeat(100_000);
        assert!(texts(&boxes).is_empty());
        let dollars = "$".repeat(100_001);
        assert!(texts(&dollars).is_empty());
        let list = "1, ".repeat(50_000);
        assert_eq!(extract_candidates(&list).len(), 50_001);
    }
}
