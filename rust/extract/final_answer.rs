//! The final answer of a whole response.
//!
//! Order of preference (the first that finds a value wins):
//! 1. the last `\boxed{}`/`\fbox{}` after the first `</think>`;
//! 2. the last `<answer>…</answer>` after `</think>` that holds a value (the tag format of
//!    DeepSeek-R1-Zero-style prompts): an answer phrase inside it, else its whole content
//!    without math delimiters and a closing period;
//! 3. the text after `</think>` when it is one bare value and nothing else (`</think>42`,
//!    `</think> $\frac{1}{2}$.`);
//! 4. the last box in the thinking (the text before `</think>`, or all of a response without it);
//! 5. the last `<answer>` tag in the thinking, read as in 2;
//! 6. answer phrases after `</think>`, the last one that is followed by a value: a
//!    "Final Answer" heading, an "Answer:" line, "the final answer is X", "the answer is X",
//!    GSM8K's marker line `#### 42`, or the Chinese "答案" ("答案是 5", "最终答案：5"; the
//!    latest of the last phrase, marker and Chinese phrase);
//! 7. the same phrases in the thinking.
//!
//! Boxes: braces must balance (escaped `\{ \}` are not groups); empty boxes (`\boxed{}`) and
//! unclosed ones state nothing and are skipped, so the box before them counts. Several boxes in
//! a row, separated only by commas, "and"/"or", `\quad` or math delimiters, are one answer:
//! `\boxed{2}, \boxed{3}` gives `2, 3` (a repeated box is kept once), with a span from the first
//! box's content to the last one's.
//!
//! Phrases: "answer" in lower, title or upper case; the value is the first candidate
//! ([`super::candidates`]) after the phrase within its sentence, so "The answer is 3.5." gives
//! `3.5` and "the answer is \(x = 3\), which" gives `x = 3`; after a heading it is the last
//! candidate of the first statement below it.
//!
//! Linear time: the boxes come from one brace-matching pass; each phrase reads at most
//! [`MAX_PHRASE_VALUE_BYTES`] and never past the next occurrence of "answer", and at most the
//! last [`MAX_PHRASES_TRIED`] phrases are read.

use std::ops::Range;

use crate::hash::FastSet;

use super::boxes::{is_braceless_delimiter, outermost_boxes, self_contained_boxes, BoxSpan, MAX_ROW_GAP};
use super::candidates::{extract_candidates, Candidate};
use super::think_tags::THINK_CLOSE;

/// The tag that opens a final answer in the R1-Zero prompt format (`</answer>` closes it).
const ANSWER_OPEN: &[u8] = b"<answer>";

/// How far after an answer phrase its value may lie.
pub const MAX_PHRASE_VALUE_BYTES: usize = 1000;

/// How many answer phrases, from the last one back, may be read for a value. A response that
/// says "answer" thousands of times without stating one (degenerate repetition) then costs no
/// more than one that says it a few dozen times; no real trace needs more than a few.
pub const MAX_PHRASES_TRIED: usize = 64;

/// Which rule found the final answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FinalRule {
    /// The last box after `</think>`.
    BoxedAfterThink,
    /// The last box in the thinking (no box after `</think>`).
    BoxedInThinking,
    /// A "Final Answer" heading line with the value on the lines below.
    FinalAnswerHeading,
    /// A line that starts with "Answer:" (or "Final Answer:").
    AnswerLine,
    /// "the final answer is X" inside a sentence.
    FinalAnswerPhrase,
    /// "the answer is X" inside a sentence.
    AnswerPhrase,
    /// `#### X`: GSM8K's final-answer marker, the format verl's GSM8K recipe asks for.
    HashMarker,
    /// The content of an `<answer>…</answer>` tag.
    AnswerTag,
    /// The whole text after `</think>`, when it is one bare value.
    BareAfterThink,
}

impl FinalRule {
    pub const ALL: [FinalRule; 9] = [
        FinalRule::BoxedAfterThink,
        FinalRule::BoxedInThinking,
        FinalRule::FinalAnswerHeading,
        FinalRule::AnswerLine,
        FinalRule::FinalAnswerPhrase,
        FinalRule::AnswerPhrase,
        FinalRule::HashMarker,
        FinalRule::AnswerTag,
        FinalRule::BareAfterThink,
    ];

    /// The snake_case name used by the Python API.
    pub fn as_str(self) -> &'static str {
        match self {
            FinalRule::BoxedAfterThink => "boxed_after_think",
            FinalRule::BoxedInThinking => "boxed_in_thinking",
            FinalRule::FinalAnswerHeading => "final_answer_heading",
            FinalRule::AnswerLine => "answer_line",
            FinalRule::FinalAnswerPhrase => "final_answer_phrase",
            FinalRule::AnswerPhrase => "answer_phrase",
            FinalRule::HashMarker => "hash_marker",
            FinalRule::AnswerTag => "answer_tag",
            FinalRule::BareAfterThink => "bare_after_think",
        }
    }
}

/// The final answer of a response.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FinalAnswer {
    /// The answer as it would sit inside `\boxed{}`; boxes in a row are joined with ", ".
    pub text: String,
    /// Byte offset of the answer's content in the response.
    pub start: usize,
    /// Byte offset one past the answer's content.
    pub end: usize,
    pub rule: FinalRule,
    /// The answer lies before `</think>` (or the response has no `</think>`).
    pub in_thinking: bool,
}

/// The final answer of `response`, or `None` when it states none (see the module docs).
pub fn extract_final(response: &str) -> Option<FinalAnswer> {
    extract_final_with(response, THINK_CLOSE)
}

/// [`extract_final`] with `close` (a [`ThinkTags::close`]) in the place of `</think>`.
pub fn extract_final_with(response: &str, close: &str) -> Option<FinalAnswer> {
    let bytes = response.as_bytes();
    // The common case reads only the tail: a box after the last `</think>` that no brace from
    // before that tag encloses is the last box after the first one too (the text in between
    // cannot join it into a row of boxes: `</think>` is no separator). So a response is
    // searched from the end, and read whole only when its tail has no such box.
    let last_close = last_think_close(bytes, close.as_bytes());
    if let Some(q) = last_close {
        // Quick: reading the rest costs less here than a longer scan of the tail.
        if let Some(a) = boxed_after_close(response, q + close.len(), false, false) {
            return Some(a);
        }
    }
    let first_close = last_close.and_then(|q| memchr::memmem::find(&bytes[..q + close.len()], close.as_bytes()));
    extract_final_reading_all(response, first_close.map(|p| p..p + close.len()))
}

/// The final answer of a response known only by its end: `window` is the response from some
/// point on (`cut`: that point is past the response's start). `Some` when the response's last
/// `close` (a [`ThinkTags::close`]) lies in `window` and the box rule after it decides the
/// answer without the text before `window`: what [`extract_final_with`] finds in the whole
/// response, with offsets into `window`. `None` when the rest must be read (no such tag or box
/// in the window, or a box whose reading could depend on what comes before it).
///
/// [`ThinkTags::close`]: super::think_tags::ThinkTags::close
pub fn final_answer_in_tail(window: &str, cut: bool, close: &str) -> Option<FinalAnswer> {
    let q = last_think_close(window.as_bytes(), close.as_bytes())?;
    // Thorough: the rest is what the caller wants not to read.
    boxed_after_close(window, q + close.len(), cut, true)
}

/// The box rule after the last closing tag, which ends at `after` in `text`: the last box
/// there, with the boxes before it in its row, when no text before the tag can change them
/// ([`self_contained_boxes`], `thorough` or not). `cut`: `text` starts past the response's
/// start, so a run of bytes that reaches back to `text`'s start without a delimiter might go on
/// before it (and hold the digit of a brace-less box running into the tail): undecided.
fn boxed_after_close(text: &str, after: usize, cut: bool, thorough: bool) -> Option<FinalAnswer> {
    if cut && text.as_bytes()[..after].iter().all(|&b| !is_braceless_delimiter(b)) {
        return None;
    }
    let (answer, span) =
        self_contained_boxes(text, after..text.len(), thorough).and_then(|boxes| answer_of_boxes(text, &boxes))?;
    Some(FinalAnswer {
        text: answer,
        start: span.start,
        end: span.end,
        rule: FinalRule::BoxedAfterThink,
        in_thinking: false,
    })
}

/// [`extract_final`] by the rules as the module docs state them, reading the whole response;
/// `first_close` is the first `</think>`.
fn extract_final_reading_all(response: &str, first_close: Option<Range<usize>>) -> Option<FinalAnswer> {
    let bytes = response.as_bytes();
    let (thinking, after) = match first_close {
        Some(close) => (0..close.start, Some(close.end..response.len())),
        None => (0..response.len(), None),
    };
    let found = |rule: FinalRule, in_thinking: bool| {
        move |(text, span): (String, Range<usize>)| FinalAnswer {
            text,
            start: span.start,
            end: span.end,
            rule,
            in_thinking,
        }
    };
    // Tags and phrases both start at the word "answer": each region is searched for it once.
    let mut after_words = Vec::new();
    if let Some(after) = &after {
        if let Some(a) = boxed_answer(response, after.clone()) {
            return Some(found(FinalRule::BoxedAfterThink, false)(a));
        }
        after_words = answer_words(bytes, after.clone());
        if let Some(a) = tagged_answer(response, &after_words, false) {
            return Some(a);
        }
        if let Some(a) = bare_answer(response, after.clone()) {
            return Some(found(FinalRule::BareAfterThink, false)(a));
        }
    }
    if let Some(a) = boxed_answer(response, thinking.clone()) {
        return Some(found(FinalRule::BoxedInThinking, true)(a));
    }
    let thinking_words = answer_words(bytes, thinking.clone());
    if let Some(a) = tagged_answer(response, &thinking_words, true) {
        return Some(a);
    }
    if let Some(after) = after {
        if let Some(a) = marked_answer(response, after, &after_words, false) {
            return Some(a);
        }
    }
    marked_answer(response, thinking, &thinking_words, true)
}

/// The offsets of the word "answer" in `region`, in order: in lower, title or upper case
/// ("answer", "Answer", "ANSWER"; the letters after the first in one case). Found with
/// memchr's vectorised substring search for "nswer" and "NSWER", two passes that skip most
/// bytes. Stopping at every `w` (about one byte in 60 of prose), as before, made the 186 real
/// traces without a box (36 KB on average, read whole) take 23 µs each instead of 7.5.
fn answer_words(bytes: &[u8], region: Range<usize>) -> Vec<usize> {
    let hay = &bytes[region.clone()];
    let at = |needle: &'static [u8]| {
        memchr::memmem::find_iter(hay, needle)
            .filter(|&k| k >= 1 && matches!(hay[k - 1], b'a' | b'A'))
            .map(|k| region.start + k - 1)
    };
    let mut found: Vec<usize> = at(b"nswer").collect();
    let upper: Vec<usize> = at(b"NSWER").collect();
    if !upper.is_empty() {
        found.extend(upper);
        found.sort_unstable();
    }
    found
}

/// The value of the last closed `<answer>…</answer>` in a region that holds one, among the last
/// [`MAX_PHRASES_TRIED`]: an answer phrase inside the tag ("<answer>The answer is 5.</answer>"),
/// else the whole content ([`bare_span`]). An unclosed tag (a truncated response) states
/// nothing. The tags are found among the region's `words` ([`answer_words`]).
fn tagged_answer(text: &str, words: &[usize], in_thinking: bool) -> Option<FinalAnswer> {
    let bytes = text.as_bytes();
    let word_is_tag = |k: usize, before: &[u8]| {
        bytes[k..].starts_with(b"answer>") && k >= before.len() && bytes[k - before.len()..k] == *before
    };
    // Where each tag starts.
    let closes: Vec<usize> = words.iter().filter(|&&k| word_is_tag(k, b"</")).map(|&k| k - 2).collect();
    if closes.is_empty() {
        return None;
    }
    let opens: Vec<usize> = words.iter().filter(|&&k| word_is_tag(k, b"<")).map(|&k| k - 1).collect();
    let mut tried = 0;
    let mut read: Option<usize> = None;
    for &close in closes.iter().rev() {
        // The nearest opening tag before this closing one. An opening tag is read once, with
        // its last closing tag, so the contents read are disjoint: linear time in all.
        let Some(&open) = opens[..opens.partition_point(|&o| o < close)].last() else { continue };
        if read.replace(open) == Some(open) {
            continue;
        }
        tried += 1;
        if tried > MAX_PHRASES_TRIED {
            return None;
        }
        let content = open + ANSWER_OPEN.len()..close;
        let tagged = |mut a: FinalAnswer| {
            a.rule = FinalRule::AnswerTag;
            a
        };
        let inside = &words[words.partition_point(|&k| k < content.start)..words.partition_point(|&k| k < content.end)];
        if let Some(a) = phrase_answer(text, content.clone(), inside, in_thinking) {
            return Some(tagged(a));
        }
        if let Some(span) = bare_span(text, content) {
            return Some(FinalAnswer {
                text: text[span.clone()].to_string(),
                start: span.start,
                end: span.end,
                rule: FinalRule::AnswerTag,
                in_thinking,
            });
        }
    }
    None
}

/// `region` as one whole answer: without surrounding white space, enclosing math delimiters
/// (`$…$`, `$$…$$`, `\(…\)`, `\[…\]`), a closing period and the special tokens of a chat
/// format kept in decoded text (gpt-oss's `<|start|>assistant<|channel|>final<|message|>`
/// before the value, `<|return|>` or `<｜end▁of▁sentence｜>` after it); `None` when nothing is
/// left or it is longer than [`MAX_PHRASE_VALUE_BYTES`].
fn bare_span(text: &str, region: Range<usize>) -> Option<Range<usize>> {
    const DELIMITERS: [(&str, &str); 4] = [("$$", "$$"), ("$", "$"), ("\\(", "\\)"), ("\\[", "\\]")];
    let (mut start, mut end) = (region.start, region.end);
    loop {
        let inner = &text[start..end];
        let trimmed = inner.trim();
        start += inner.len() - inner.trim_start().len();
        end = start + trimmed.len();
        let inner = &text[start..end];
        if let Some(rest) = inner.strip_suffix('.') {
            end = start + rest.len();
            continue;
        }
        // Trailing markers first: in `<|message|>42<|return|>`, 42 is no header word.
        if let Some(marker) = special_marker_at_end(inner) {
            end -= marker;
            continue;
        }
        if let Some(header) = chat_header_len(inner) {
            start += header;
            continue;
        }
        // `$2$ and $3$` starts and ends with `$` but is no single math span.
        let encloses = |(open, close): &&(&str, &str)| {
            inner.len() >= open.len() + close.len()
                && inner.starts_with(open)
                && inner.ends_with(close)
                && !inner[open.len()..inner.len() - close.len()].contains(close)
        };
        match DELIMITERS.iter().find(encloses) {
            Some((open, close)) => {
                start += open.len();
                end -= close.len();
            }
            None => break,
        }
    }
    (start < end && end - start <= MAX_PHRASE_VALUE_BYTES).then_some(start..end)
}

/// The longest special-token marker a chat format writes (`<|return|>`, `<｜end▁of▁sentence｜>`).
const MAX_SPECIAL_MARKER_BYTES: usize = 64;

/// The length of the special-token marker `s` starts with: `<|name|>` or DeepSeek's
/// full-width `<｜name｜>`, the name without white space.
fn special_marker_at_start(s: &str) -> Option<usize> {
    let (open, close) = if s.starts_with("<|") {
        ("<|", "|>")
    } else if s.starts_with("<｜") {
        ("<｜", "｜>")
    } else {
        return None;
    };
    let limit = floor_char_boundary(s, s.len().min(MAX_SPECIAL_MARKER_BYTES));
    let name_end = open.len() + s[open.len()..limit].find(close)?;
    let name = &s[open.len()..name_end];
    (!name.is_empty() && !name.contains(|c: char| c.is_whitespace() || c == '<')).then_some(name_end + close.len())
}

/// The length of the special-token marker `s` ends with (see [`special_marker_at_start`]).
fn special_marker_at_end(s: &str) -> Option<usize> {
    let open = if s.ends_with("|>") {
        "<|"
    } else if s.ends_with("｜>") {
        "<｜"
    } else {
        return None;
    };
    let from = floor_char_boundary(s, s.len().saturating_sub(MAX_SPECIAL_MARKER_BYTES));
    let at = from + s[from..].rfind(open)?;
    (special_marker_at_start(&s[at..]) == Some(s.len() - at)).then_some(s.len() - at)
}

/// The length of the chat-format header `s` starts with: special-token markers, each maybe
/// followed by one word that another marker follows (`<|start|>assistant<|channel|>final<|message|>`).
fn chat_header_len(s: &str) -> Option<usize> {
    let mut at = special_marker_at_start(s)?;
    loop {
        let rest = &s[at..];
        let word = rest.find(|c: char| !c.is_ascii_alphanumeric() && c != '_').unwrap_or(rest.len());
        match special_marker_at_start(&rest[word..]) {
            Some(marker) => at += word + marker,
            None => return Some(at),
        }
    }
}

/// The text of `region` (after `</think>`) when it is one bare value: a candidate that is the
/// whole text, up to math delimiters and a closing period. Prose, several values or
/// words around the value ("The answer is in the box") are no bare answer.
fn bare_answer(text: &str, region: Range<usize>) -> Option<(String, Range<usize>)> {
    let span = bare_span(text, region)?;
    let candidates = extract_candidates(&text[span.clone()]);
    // The others lie inside it (`5` in `x = 5`).
    let whole = candidates.into_iter().find(|c| c.start == 0 && c.end == span.len())?;
    Some((whole.text, span))
}

/// The latest of the last answer phrase with a value, the last `####` marker with one and the
/// last Chinese answer phrase with one.
fn marked_answer(text: &str, region: Range<usize>, words: &[usize], in_thinking: bool) -> Option<FinalAnswer> {
    let phrase = phrase_answer(text, region.clone(), words, in_thinking);
    let marker = hash_marker_answer(text, region.clone(), in_thinking);
    let chinese = chinese_phrase_answer(text, region, in_thinking);
    [phrase, marker, chinese].into_iter().flatten().max_by_key(|a| a.start)
}

/// The word "answer" in Chinese.
const DA_AN: &str = "答案";

/// The value of the last "答案" phrase in `region` followed by one, among the last
/// [`MAX_PHRASES_TRIED`]: "答案是 5", "最终答案为 \(\frac{1}{2}\)", "答案：5". The value is the
/// first candidate after the connecting words, within its clause (up to "。", "，", "；" or a line
/// break, at most [`MAX_PHRASE_VALUE_BYTES`]).
fn chinese_phrase_answer(text: &str, region: Range<usize>, in_thinking: bool) -> Option<FinalAnswer> {
    const CONNECTORS: &[&str] =
        &["应该是", "应是", "应为", "就是", "是", "为", "為", "：", ":", "=", "*", "_", " ", "\t"];
    let hay = &text.as_bytes()[region.clone()];
    // The forward search is vectorised, the reverse one is not: collect, then read from the end.
    let found: Vec<usize> = memchr::memmem::find_iter(hay, DA_AN.as_bytes()).collect();
    for &k in found.iter().rev().take(MAX_PHRASES_TRIED) {
        let mut from = region.start + k + DA_AN.len();
        let mut connected = false;
        while let Some(c) = CONNECTORS.iter().find(|c| text[from..region.end].starts_with(**c)) {
            from += c.len();
            connected = true;
        }
        if !connected {
            continue;
        }
        let cap = floor_char_boundary(text, region.end.min(from.saturating_add(MAX_PHRASE_VALUE_BYTES)));
        let clause = &text[from..cap];
        let end = from + clause.find(['。', '，', '；', '\n']).unwrap_or(clause.len());
        if let Some(c) = extract_candidates(&text[from..end]).into_iter().next() {
            return Some(FinalAnswer {
                text: c.text,
                start: from + c.start,
                end: from + c.end,
                rule: FinalRule::AnswerPhrase,
                in_thinking,
            });
        }
    }
    None
}

/// The value of the last `#### X` in `region` (exactly four `#`), among the last
/// [`MAX_PHRASES_TRIED`]. The value must fill the rest of its line, up to math delimiters,
/// bold marks and a closing period, so that a markdown heading (`#### Step 2: ...`,
/// `#### 1. Setting up`) is no answer.
fn hash_marker_answer(text: &str, region: Range<usize>, in_thinking: bool) -> Option<FinalAnswer> {
    let bytes = text.as_bytes();
    // The last `#` of each run of exactly four, from the end: `#` is rare in prose, so the
    // vectorised byte search skips most of the text (memchr's reverse substring search is
    // scalar).
    let markers = memchr::memrchr_iter(b'#', &bytes[region.clone()])
        .map(|k| region.start + k)
        .filter(|&last| last >= region.start + 3 && bytes.get(last + 1) != Some(&b'#'))
        .map(|last| last - 3)
        .filter(|&p| bytes[p..p + 4] == *b"####" && (p == 0 || bytes[p - 1] != b'#'))
        .take(MAX_PHRASES_TRIED);
    for p in markers {
        let line_end = memchr::memchr(b'\n', &bytes[p..region.end]).map_or(region.end, |k| p + k);
        let line = &text[p + 4..line_end];
        let Some(c) = extract_candidates(line).into_iter().next() else { continue };
        let is_markup = |s: &str| {
            s.chars().all(|ch| matches!(ch, ' ' | '\t' | '\r' | '$' | '*' | '\\' | '(' | ')' | '[' | ']' | '.'))
        };
        // `#### 18 dollars`: up to three lower-case words after the value (a unit, a noun); a
        // heading's words are capitalised (`#### 2 Methods`) or follow numbering (`#### 1. Set`).
        let unit_words = |s: &str| {
            let words: Vec<&str> = s.trim_end_matches(['.', ' ', '\r', '*']).split_whitespace().collect();
            s.starts_with(' ')
                && (1..=3).contains(&words.len())
                && words.iter().all(|w| w.chars().all(|ch| ch.is_ascii_lowercase()))
        };
        let rest = &line[c.end..];
        if is_markup(&line[..c.start]) && (is_markup(rest) || unit_words(rest)) {
            return Some(FinalAnswer {
                text: c.text.clone(),
                start: p + 4 + c.start,
                end: p + 4 + c.end,
                rule: FinalRule::HashMarker,
                in_thinking,
            });
        }
    }
    None
}

/// The last group of boxes in `region`: its joined text and span.
fn boxed_answer(text: &str, region: Range<usize>) -> Option<(String, Range<usize>)> {
    answer_of_boxes(text, &outermost_boxes(text, region))
}

/// Where the last `close` (`</think>`) starts: found from the end with the vectorised reverse
/// byte search for its last byte (memchr's reverse substring search is scalar), so a response
/// is read only back to it.
fn last_think_close(bytes: &[u8], close: &[u8]) -> Option<usize> {
    let &last = close.last()?;
    let mut end = bytes.len();
    while let Some(k) = memchr::memrchr(last, &bytes[..end]) {
        if bytes[..=k].ends_with(close) {
            return Some(k + 1 - close.len());
        }
        end = k;
    }
    None
}

/// The last of `boxes` with the boxes right before it that form one answer with it
/// ([`is_box_separator`]): their contents joined, and the span from the first content to the
/// last.
fn answer_of_boxes(text: &str, boxes: &[BoxSpan]) -> Option<(String, Range<usize>)> {
    let last = boxes.len().checked_sub(1)?;
    let mut first = last;
    while first > 0 && is_box_separator(&text[boxes[first - 1].end..boxes[first].command_start]) {
        first -= 1;
    }
    let group: &[BoxSpan] = &boxes[first..];
    if let [only] = group {
        // The common case, one box: no set of parts to build.
        return Some((text[only.content.clone()].to_string(), only.content.clone()));
    }
    let mut seen: FastSet<&str> = FastSet::default();
    let parts: Vec<&str> =
        group.iter().map(|b| &text[b.content.clone()]).filter(|content| seen.insert(*content)).collect();
    Some((parts.join(", "), group[0].content.start..group[last - first].content.end))
}

/// Whether the text between two boxes makes them one answer: only spaces, commas,
/// semicolons, "and"/"or" (also inside `\text{}`), `\quad` and math delimiters.
fn is_box_separator(gap: &str) -> bool {
    const PIECES: &[&str] = &[
        ",", ";", "$", "\\(", "\\)", "\\[", "\\]", "\\qquad", "\\quad", "\\,", "\\;", "\\ ", "~", "&", "\\\\",
        "\\text{", "\\mbox{", "\\textrm{", "}", "and", "or",
    ];
    if gap.len() > MAX_ROW_GAP {
        return false;
    }
    let mut rest = gap;
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            return true;
        }
        let piece = PIECES.iter().find(|p| {
            rest.starts_with(**p)
                && !(p.ends_with(|c: char| c.is_ascii_alphabetic())
                    && rest[p.len()..].starts_with(|c: char| c.is_ascii_alphabetic()))
        });
        match piece {
            Some(p) => rest = &rest[p.len()..],
            None => return false,
        }
    }
}

/// Where an answer phrase puts its value.
struct Phrase {
    rule: FinalRule,
    /// The value starts at or after this byte.
    value_from: usize,
    /// The value is the last candidate of the statement (after a heading) rather than the first.
    last_candidate: bool,
}

/// The value of the last answer phrase in `region` that is followed by one, among the last
/// [`MAX_PHRASES_TRIED`] phrases.
fn phrase_answer(text: &str, region: Range<usize>, words: &[usize], in_thinking: bool) -> Option<FinalAnswer> {
    let occurrences = words.iter().copied().rev();
    // Each phrase reads up to the next occurrence of "answer".
    let mut limit = region.end;
    let mut tried = 0;
    for p in occurrences {
        let next = std::mem::replace(&mut limit, p);
        let Some(phrase) = classify_phrase(text, p, region.start, next) else { continue };
        tried += 1;
        if tried > MAX_PHRASES_TRIED {
            return None;
        }
        let cap = floor_char_boundary(text, next.min(phrase.value_from.saturating_add(MAX_PHRASE_VALUE_BYTES)));
        let mut from = phrase.value_from.min(cap);
        from += text[from..cap].len() - text[from..cap].trim_start().len();
        let end = statement_end(text, from, cap);
        let candidates = extract_candidates(&text[p..end]);
        let value = pick_value(&candidates, phrase.value_from - p, phrase.last_candidate);
        if let Some(c) = value {
            return Some(FinalAnswer {
                text: c.text.clone(),
                start: p + c.start,
                end: p + c.end,
                rule: phrase.rule,
                in_thinking,
            });
        }
    }
    None
}

/// The first candidate starting at or after `from` (the longest at that start), or the last
/// outermost one.
fn pick_value(candidates: &[Candidate], from: usize, last: bool) -> Option<&Candidate> {
    let mut after = candidates.iter().filter(|c| c.start >= from);
    if !last {
        return after.next();
    }
    let mut outermost: Option<&Candidate> = None;
    for c in after {
        if outermost.map_or(true, |o| c.start >= o.end) {
            outermost = Some(c);
        }
    }
    outermost
}

/// Reads the words around "answer" at `p`; `None` when they are no answer phrase.
fn classify_phrase(text: &str, p: usize, region_start: usize, limit: usize) -> Option<Phrase> {
    let bytes = text.as_bytes();
    let word_before = p > region_start && bytes[p - 1].is_ascii_alphanumeric();
    let after_word = p + 6;
    if word_before || bytes.get(after_word).is_some_and(|b| b.is_ascii_alphanumeric()) {
        return None;
    }
    // "Final" right before "answer", and whether the line holds nothing else before them.
    let look_back = floor_char_boundary(text, p.saturating_sub(80).max(region_start));
    let before = &text[look_back..p];
    let line_start = match before.rfind('\n') {
        Some(k) => Some(look_back + k + 1),
        None => (look_back == region_start).then_some(region_start),
    };
    let before_word = before.trim_end_matches([' ', '*', '_']);
    let has_final = before_word.len() >= 5
        && before_word.is_char_boundary(before_word.len() - 5)
        && before_word[before_word.len() - 5..].eq_ignore_ascii_case("final");
    let label = if has_final { &before_word[..before_word.len() - 5] } else { before_word };
    let at_line_start = line_start.is_some_and(|s| {
        label.len() + look_back >= s && text[s..look_back + label.len()].chars().all(|c| " \t*#->_".contains(c))
    });

    let skip_markup = |mut i: usize| {
        while i < limit && matches!(bytes[i], b'*' | b' ' | b'\t' | b'_') {
            i += 1;
        }
        i
    };
    let q = skip_markup(after_word);
    let rest_of_line_blank = |from: usize| {
        let line_end = text[from..limit].find('\n').map(|k| from + k);
        line_end.filter(|&e| text[from..e].chars().all(|c| c.is_whitespace() || c == '*' || c == '#'))
    };
    if q < limit && bytes[q] == b':' {
        let value_from = skip_markup(q + 1);
        if at_line_start {
            if let Some(line_end) = rest_of_line_blank(value_from) {
                let rule = if has_final { FinalRule::FinalAnswerHeading } else { FinalRule::AnswerLine };
                return Some(Phrase { rule, value_from: line_end + 1, last_candidate: true });
            }
            return Some(Phrase { rule: FinalRule::AnswerLine, value_from, last_candidate: false });
        }
        let rule = if has_final { FinalRule::FinalAnswerPhrase } else { FinalRule::AnswerPhrase };
        return Some(Phrase { rule, value_from, last_candidate: false });
    }
    const VERBS: &[&str] = &["is", "would be", "should be", "will be", "must be", "=", "equals"];
    let rest = &text[q..limit];
    for verb in VERBS {
        let matches = rest.len() >= verb.len()
            && rest.as_bytes()[..verb.len()].eq_ignore_ascii_case(verb.as_bytes())
            // A digit may follow at once: models drop the space ("the answer is600.").
            && !rest[verb.len()..].starts_with(|c: char| c.is_ascii_alphabetic());
        if matches {
            let rule = if has_final { FinalRule::FinalAnswerPhrase } else { FinalRule::AnswerPhrase };
            return Some(Phrase { rule, value_from: q + verb.len(), last_candidate: false });
        }
    }
    if at_line_start {
        if let Some(line_end) = rest_of_line_blank(q) {
            let rule = if has_final { FinalRule::FinalAnswerHeading } else { FinalRule::AnswerLine };
            return Some(Phrase { rule, value_from: line_end + 1, last_candidate: true });
        }
        // "Answer $9$", "Final answer \[ 9 \]": the label, then math, without a colon.
        let rest = &bytes[q..limit];
        if rest.starts_with(b"$") || rest.starts_with(b"\\(") || rest.starts_with(b"\\[") {
            return Some(Phrase { rule: FinalRule::AnswerLine, value_from: q, last_candidate: false });
        }
    }
    None
}

/// The end of the statement that starts at `from`: a line break, or `.`, `!`, `?` before
/// white space, outside math and braces; at most `cap`.
fn statement_end(text: &str, from: usize, cap: usize) -> usize {
    let bytes = text.as_bytes();
    let mut math_closer: Option<&[u8]> = None;
    let mut depth = 0u32;
    let mut i = from;
    while i < cap {
        let b = bytes[i];
        if let Some(closer) = math_closer {
            if bytes[i..cap].starts_with(closer) {
                math_closer = None;
                i += closer.len();
                continue;
            }
            i += if b == b'\\' { 2 } else { 1 };
            continue;
        }
        match b {
            b'\\' => {
                match bytes.get(i + 1) {
                    Some(b'(') => math_closer = Some(b"\\)"),
                    Some(b'[') => math_closer = Some(b"\\]"),
                    _ => {}
                }
                i += 2;
                continue;
            }
            b'$' if bytes.get(i + 1) == Some(&b'$') => {
                math_closer = Some(b"$$");
                i += 2;
                continue;
            }
            b'$' => math_closer = Some(b"$"),
            b'{' => depth += 1,
            b'}' => depth = depth.saturating_sub(1),
            b'\n' if depth == 0 => return i,
            // `5!` is a factorial, not the end of a sentence.
            b'!' if i > from && (bytes[i - 1].is_ascii_digit() || bytes[i - 1] == b')') => {}
            b'.' | b'!' | b'?' if depth == 0 && bytes.get(i + 1).map_or(true, |n| n.is_ascii_whitespace()) => {
                return i;
            }
            _ => {}
        }
        i += 1;
    }
    floor_char_boundary(text, cap.min(text.len()))
}

fn floor_char_boundary(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    fn final_of(response: &str) -> Option<(String, FinalRule, bool)> {
        extract_final(response).map(|f| (f.text, f.rule, f.in_thinking))
    }

    fn text_of(response: &str) -> Option<String> {
        extract_final(response).map(|f| f.text)
    }

    fn text_of_with(response: &str, close: &str) -> Option<String> {
        extract_final_with(response, close).map(|f| f.text)
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4096))]
        /// Reading from the end finds what reading the whole response finds, with any number
        /// of `</think>` tags, braces spanning them and boxes on either side.
        #[test]
        fn reading_from_the_end_finds_what_reading_all_finds(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "</think>", "\\boxed{", "\\boxed{7}", "\\fbox{B}", "{", "}", "\\", ", ", " and ", "x",
                "The answer is 5.", "<answer>6</answer>", "\\boxed 8", "$", "\n", "#### 9",
            ]), 0..24),
        ) {
            let response = parts.concat();
            let first_close = memchr::memmem::find(response.as_bytes(), THINK_CLOSE.as_bytes());
            let first_close = first_close.map(|p| p..p + THINK_CLOSE.len());
            proptest::prop_assert_eq!(extract_final(&response), extract_final_reading_all(&response, first_close));
            // Another tag of the same length and kind in its place: the same answer, same span
            // (a brace-less box that runs into the tag holds the other tag's text).
            let other = response.replace(THINK_CLOSE, "</THINK>");
            let found = extract_final_with(&other, "</THINK>")
                .map(|f| FinalAnswer { text: f.text.replace("</THINK>", THINK_CLOSE), ..f });
            proptest::prop_assert_eq!(found, extract_final(&response));
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4096))]
        /// What the end of a response decides alone is what the whole response gives, wherever
        /// the end is cut off (a brace-less box or a brace running into the cut included), and
        /// the uncut end decides whenever the quick rule does.
        #[test]
        fn the_end_alone_decides_only_what_the_whole_would(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "</think>", "\\boxed{", "\\boxed{7}", "\\fbox{B}", "{", "}", "\\", ", ", " and ", "x",
                "\\boxed 8", "12", "$", "\n", " ", "π", "</think>\\boxed{1}", "</think>3, \\boxed{2}",
                "\\frac{1}{2}", "</think>\\frac{1}{2} \\boxed{5}",
            ]), 0..24),
            cut in 0usize..200,
        ) {
            let response = parts.concat();
            let mut k = cut.min(response.len());
            while !response.is_char_boundary(k) {
                k -= 1;
            }
            let whole = extract_final(&response);
            if let Some(f) = final_answer_in_tail(&response[k..], k > 0, THINK_CLOSE) {
                proptest::prop_assert_eq!(Some(FinalAnswer { start: f.start + k, end: f.end + k, ..f }), whole.clone());
            }
            let uncut = final_answer_in_tail(&response, false, THINK_CLOSE);
            if let Some(f) = &uncut {
                proptest::prop_assert_eq!(Some(f), whole.as_ref());
            }
            if let Some(q) = last_think_close(response.as_bytes(), THINK_CLOSE.as_bytes()) {
                if let Some(quick) = boxed_after_close(&response, q + THINK_CLOSE.len(), false, false) {
                    proptest::prop_assert_eq!(Some(quick), uncut);
                }
            }
        }
    }

    #[test]
    fn the_end_decides_when_no_run_or_brace_reaches_past_it() {
        let response = r"so \boxed 12</think>5, \boxed{6}";
        // Cut inside the run of bytes before the tag: undecided (the run might hold a
        // brace-less box that runs into the end).
        assert_eq!(final_answer_in_tail(&response[12..], true, THINK_CLOSE), None);
        assert_eq!(final_answer_in_tail(r"x </think> \boxed{4}", true, THINK_CLOSE).unwrap().text, "4");
        assert_eq!(final_answer_in_tail(r"x</think> \boxed{4}", true, THINK_CLOSE), None);
        assert_eq!(final_answer_in_tail(r"think> \boxed{4}", true, THINK_CLOSE), None);
        assert_eq!(final_answer_in_tail(r"x</think> \boxed{4}", false, THINK_CLOSE).unwrap().text, "4");
        // A `\frac{1}{2}` just before the box: decided by the end alone; a `}` that closes a
        // brace from before the end is not.
        let f = final_answer_in_tail(r"a </think> so $\frac{1}{2}$, \boxed{\frac12}", true, THINK_CLOSE).unwrap();
        assert_eq!((f.text.as_str(), f.rule), (r"\frac12", FinalRule::BoxedAfterThink));
        assert_eq!(final_answer_in_tail(r"a </think> so x}, \boxed{3}", true, THINK_CLOSE), None);
        // A box only before the tag: the end holds none, undecided.
        assert_eq!(final_answer_in_tail(r"a \boxed{3} </think> done", true, THINK_CLOSE), None);
    }

    #[test]
    fn a_brace_open_across_the_last_think_close_is_read_whole() {
        // The box opened before the second `</think>` closes after it: reading all of the
        // response finds it, with the box after it in one row.
        let r = r"x</think> \boxed{3 </think>} , \boxed{4}";
        assert_eq!(text_of(r).as_deref(), Some("3 </think>, 4"));
        let r = r"x</think> \boxed{3} </think> \boxed{4}";
        assert_eq!(final_of(r), Some(("4".into(), FinalRule::BoxedAfterThink, false)));
    }

    #[test]
    fn prefers_the_box_after_think() {
        let r = r"so \boxed{3} maybe</think>The answer is \(\boxed{4}\).";
        assert_eq!(final_of(r), Some(("4".into(), FinalRule::BoxedAfterThink, false)));
        let f = extract_final(r).unwrap();
        assert_eq!(&r[f.start..f.end], "4");
    }

    #[test]
    fn falls_back_to_the_last_box_in_the_thinking() {
        let r = r"first \boxed{1} then \boxed{2}</think> I am done.";
        assert_eq!(final_of(r), Some(("2".into(), FinalRule::BoxedInThinking, true)));
        // No `</think>` at all: the whole response is thinking.
        assert_eq!(final_of(r"\boxed{7}"), Some(("7".into(), FinalRule::BoxedInThinking, true)));
    }

    #[test]
    fn an_answer_tag_states_the_answer() {
        // The R1-Zero format: the tag after the thinking, with or without a box inside.
        assert_eq!(
            final_of("<think>so 6?</think><answer>42</answer>"),
            Some(("42".into(), FinalRule::AnswerTag, false))
        );
        assert_eq!(
            final_of(r"</think><answer>\boxed{42}</answer>"),
            Some(("42".into(), FinalRule::BoxedAfterThink, false))
        );
        assert_eq!(
            final_of(r"<answer> $\frac{1}{2}$. </answer>"),
            Some((r"\frac{1}{2}".into(), FinalRule::AnswerTag, true))
        );
        assert_eq!(final_of("<answer>Paris</answer>"), Some(("Paris".into(), FinalRule::AnswerTag, true)));
        // A phrase inside the tag gives its value; the last closed tag with a value counts.
        assert_eq!(text_of("</think><answer>The answer is 5.</answer>"), Some("5".into()));
        assert_eq!(text_of("</think><answer>3</answer> then <answer>4</answer> <answer></answer>"), Some("4".into()));
        // The tag after the thinking outranks a box inside it; an unclosed tag states nothing.
        assert_eq!(text_of(r"try \boxed{6}</think><answer>7</answer>"), Some("7".into()));
        assert_eq!(text_of(r"\boxed{6}</think><answer>7"), Some("6".into()));
        assert_eq!(text_of("<answer>$2$ and $3$</answer>"), Some("$2$ and $3$".into()));
        let r = "<think>x</think><answer> 12 </answer>";
        let f = extract_final(r).unwrap();
        assert_eq!(&r[f.start..f.end], "12");
    }

    #[test]
    fn a_bare_value_after_the_thinking_is_the_answer() {
        assert_eq!(final_of("<think>so 6?</think>42"), Some(("42".into(), FinalRule::BareAfterThink, false)));
        assert_eq!(text_of("<think>x</think>\n\n$\\frac{3}{4}$.\n"), Some(r"\frac{3}{4}".into()));
        assert_eq!(text_of("<think>x</think> x = 5"), Some("x = 5".into()));
        // Words around the value are no bare answer; a hedge is one list, judged as such.
        assert_eq!(text_of("<think>x</think>I think it is 42"), None);
        assert_eq!(text_of("<think>x</think>42, then 43"), None);
        assert_eq!(text_of("<think>x</think>Done."), None);
        assert_eq!(text_of("<think>x</think>42 or 43"), Some("42 or 43".into()));
        // A box in the thinking does not outrank the value stated after it.
        assert_eq!(text_of(r"\boxed{6}</think>7"), Some("7".into()));
        let r = "<think>x</think>  42.";
        let f = extract_final(r).unwrap();
        assert_eq!(&r[f.start..f.end], "42");
    }

    #[test]
    fn a_bare_value_between_chat_format_markers_is_the_answer() {
        // Decoded with the special tokens kept: DeepSeek's end of sentence, Qwen's end of turn,
        // gpt-oss's final channel (its header before the value, <|return|> after it).
        assert_eq!(text_of("<think>x</think>\n\n42<｜end▁of▁sentence｜>"), Some("42".into()));
        assert_eq!(text_of("<think>x</think>\n$\\frac{3}{20}$<|im_end|>\n<|endoftext|>"), Some(r"\frac{3}{20}".into()));
        let harmony =
            "<|channel|>analysis<|message|>so 6?<|end|><|start|>assistant<|channel|>final<|message|>\n\n$42$<|return|>";
        let f = extract_final_with(harmony, "<|end|>").unwrap();
        assert_eq!((&harmony[f.start..f.end], f.rule), ("42", FinalRule::BareAfterThink));
        assert_eq!(
            text_of_with("<|end|><|start|>assistant<|channel|>final<|message|>42", "<|end|>"),
            Some("42".into())
        );
        // A value glued to a marker is no header word; prose is still no bare answer.
        assert_eq!(text_of_with("<|end|><|message|>42<|return|>", "<|end|>"), Some("42".into()));
        assert_eq!(text_of_with("<|end|><|message|>It is 42<|return|>", "<|end|>"), None);
        // Not markers: a space or nothing inside, or no closing bar.
        assert_eq!(special_marker_at_start("<| x |>"), None);
        assert_eq!(special_marker_at_start("<||>"), None);
        assert_eq!(special_marker_at_start("<|x"), None);
        assert_eq!(special_marker_at_end("|x|>"), None);
        assert_eq!(special_marker_at_end("5<|return|>"), Some(10));
        assert_eq!(chat_header_len("<|start|>assistant<|channel|>final<|message|>42"), Some(45));
    }

    #[test]
    fn braces_nest_and_escapes_do_not_count() {
        assert_eq!(text_of(r"\boxed{\frac{\pi}{2}}"), Some(r"\frac{\pi}{2}".into()));
        assert_eq!(text_of(r"\boxed{\{1, 2\}}"), Some(r"\{1, 2\}".into()));
        assert_eq!(text_of(r"\fbox{B}"), Some("B".into()));
        assert_eq!(text_of(r"$\text{so }\boxed{5}$"), Some("5".into()));
        assert_eq!(text_of(r"so \boxed 5."), Some("5".into()));
    }

    #[test]
    fn boxes_in_a_row_are_one_answer() {
        assert_eq!(text_of(r"\boxed{2}, \boxed{3}"), Some("2, 3".into()));
        assert_eq!(text_of(r"\boxed{2} and \boxed{3}"), Some("2, 3".into()));
        assert_eq!(text_of(r"\(\boxed{2}\) \quad \text{and} \quad \(\boxed{3}\)"), Some("2, 3".into()));
        assert_eq!(text_of(r"\boxed{5} \boxed{5}"), Some("5".into()));
        // Prose between boxes separates them: the last one counts.
        assert_eq!(text_of(r"x = \boxed{2} and then y = \boxed{3}"), Some("3".into()));
        let r = r"roots: \boxed{2}, \boxed{3}.";
        let f = extract_final(r).unwrap();
        assert_eq!(&r[f.start..f.end], r"2}, \boxed{3");
    }

    #[test]
    fn empty_and_unclosed_boxes_are_skipped() {
        assert_eq!(text_of(r"\boxed{4} then \boxed{}"), Some("4".into()));
        assert_eq!(text_of(r"\boxed{4} then \boxed{12"), Some("4".into()));
        assert_eq!(text_of(r"\boxed{}"), None);
    }

    #[test]
    fn phrases_when_there_is_no_box() {
        assert_eq!(
            final_of("So the final answer is 3.5. Done"),
            Some(("3.5".into(), FinalRule::FinalAnswerPhrase, true))
        );
        assert_eq!(
            final_of("</think>The answer is \\(x = 3\\), which"),
            Some(("x = 3".into(), FinalRule::AnswerPhrase, false))
        );
        assert_eq!(final_of("work\nAnswer: 42\n"), Some(("42".into(), FinalRule::AnswerLine, true)));
        assert_eq!(final_of("**Answer:** (B)"), Some(("B".into(), FinalRule::AnswerLine, true)));
        assert_eq!(final_of("work\nAnswer $9$"), Some(("9".into(), FinalRule::AnswerLine, true)));
        assert_eq!(
            final_of("Final answer \\[ \n \\frac{10}{9} \n \\]"),
            Some(("\\frac{10}{9}".into(), FinalRule::AnswerLine, true))
        );
        // Not at the start of a line, or not followed by math: no answer line.
        assert_eq!(final_of("We check the answer $9$ again."), None);
        assert_eq!(final_of("Answer choices follow."), None);
        assert_eq!(
            final_of("</think>\n**Final Answer**\nThe product is 81.\n"),
            Some(("81".into(), FinalRule::FinalAnswerHeading, false))
        );
        assert_eq!(text_of("the answer should be 13! - 12!."), Some("13! - 12!".into()));
        assert_eq!(text_of("so the answer is Evelyn."), Some(r"\text{Evelyn}".into()));
        // The last phrase with a value wins; "answers" is no phrase.
        assert_eq!(text_of("The answer is 5. Later the answer is 6."), Some("6".into()));
        assert_eq!(text_of("The answer is 5. This answers it."), Some("5".into()));
        assert_eq!(text_of("The answer is not obvious"), None);
        assert_eq!(text_of("So the answer is600."), Some("600".into()));
        assert_eq!(text_of("So the answer isn't 600."), None);
    }

    #[test]
    fn answer_in_lower_title_and_upper_case() {
        assert_eq!(final_of("work\nANSWER: 42\n"), Some(("42".into(), FinalRule::AnswerLine, true)));
        assert_eq!(final_of("**FINAL ANSWER:** 7"), Some(("7".into(), FinalRule::AnswerLine, true)));
        assert_eq!(text_of("So The Answer Is 12."), Some("12".into()));
        // The words found are those a scan of every position finds in these three cases.
        let text = "answer Answer ANSWER aNSWER answers nswer a\nanswer xanswer ANSWERanswer é answer";
        let naive: Vec<usize> = (0..text.len())
            .filter(|&i| {
                ["answer", "Answer", "ANSWER", "aNSWER"].iter().any(|w| text.as_bytes()[i..].starts_with(w.as_bytes()))
            })
            .collect();
        assert_eq!(answer_words(text.as_bytes(), 0..text.len()), naive);
        assert_eq!(answer_words(text.as_bytes(), 1..text.len()), naive[1..].to_vec());
    }

    #[test]
    fn markdown_emphasis_around_the_answer() {
        // Single `_` or `*` emphasis hid the value (a correct rollout scored wrong).
        assert_eq!(text_of("The answer is _120°_."), Some("120°".into()));
        assert_eq!(text_of("The final answer is *120*."), Some("120".into()));
        assert_eq!(text_of("Answer: _120_"), Some("120".into()));
        assert_eq!(text_of("So the answer is *x = 5*."), Some("x = 5".into()));
        // Not emphasis: products and subscripts, and a mark with no partner on its line.
        assert_eq!(text_of("the answer is 2*3*4 = 24."), Some("2*3*4 = 24".into()));
        assert_eq!(text_of("The answer is x_1 + x_2 = 5"), Some("x_1 + x_2 = 5".into()));
        assert_eq!(text_of("The answer is a*b*c = 6."), Some("a*b*c = 6".into()));
        assert_eq!(text_of("The answer is 2 * 3 * 4 = 24."), Some("2 * 3 * 4 = 24".into()));
    }

    #[test]
    fn chinese_answer_phrases() {
        assert_eq!(final_of("所以答案是 5。"), Some(("5".into(), FinalRule::AnswerPhrase, true)));
        assert_eq!(text_of("最终答案为 \\(\\frac{1}{2}\\)。"), Some("\\frac{1}{2}".into()));
        assert_eq!(text_of("答案：12"), Some("12".into()));
        // The last phrase with a value wins, also against an English one before it.
        assert_eq!(text_of("The answer is 3. 检查一下答案。答案是 4，对的。"), Some("4".into()));
        // "检查答案" (check the answer) states nothing.
        assert_eq!(text_of("检查答案。"), None);
        assert_eq!(final_of("</think>答案是 7"), Some(("7".into(), FinalRule::AnswerPhrase, false)));
    }

    #[test]
    fn gsm8k_hash_marker() {
        assert_eq!(final_of("2 + 40 = 42.\n#### 42\n"), Some(("42".into(), FinalRule::HashMarker, true)));
        assert_eq!(text_of("#### 7\nwait, let me redo that.\n#### 42\n"), Some("42".into()));
        assert_eq!(text_of("#### 1,234\n"), Some("1,234".into()));
        assert_eq!(text_of("#### 18 dollars.\n"), Some("18".into()));
        assert_eq!(final_of("#### 2 Methods\n#### 3 Cases to check\n"), None);
        assert_eq!(text_of("so she pays 18 dollars. #### $18$."), Some("18".into()));
        assert_eq!(final_of("</think>\n#### **-3.5**"), Some(("-3.5".into(), FinalRule::HashMarker, false)));
        // Markdown headings are no marker: words on the line, or five or more '#'.
        assert_eq!(final_of("#### Step 2: add 40\n#### 1. Setting up\n"), None);
        assert_eq!(final_of("##### 42\n"), None);
        assert_eq!(final_of("####\n42"), None);
        // A box wins; otherwise the later of the last phrase and the last marker.
        assert_eq!(text_of("#### 41\n\\boxed{42}"), Some("42".into()));
        assert_eq!(text_of("The answer is 5.\n#### 6"), Some("6".into()));
        assert_eq!(text_of("#### 6\nSo the answer is 5."), Some("5".into()));
        let many = format!("#### 5\n{}", "#### none\n".repeat(MAX_PHRASES_TRIED));
        assert_eq!(text_of(&many), None);
        let adversarial = "####".repeat(100_000);
        assert_eq!(extract_final(&adversarial), None);
    }

    #[test]
    fn only_the_last_phrases_are_read() {
        let empty = "The answer is not clear.\n";
        let within = format!("The answer is 5.\n{}", empty.repeat(MAX_PHRASES_TRIED - 1));
        assert_eq!(text_of(&within), Some("5".into()));
        let beyond = format!("The answer is 5.\n{}", empty.repeat(MAX_PHRASES_TRIED));
        assert_eq!(text_of(&beyond), None);
        // Words that are no phrase ("answers", "answered") do not count.
        let words = format!("The answer is 5.\n{}", "This answers nothing; I answered.\n".repeat(1000));
        assert_eq!(text_of(&words), Some("5".into()));
    }

    #[test]
    fn nothing_to_find() {
        assert_eq!(extract_final(""), None);
        assert_eq!(extract_final("just words"), None);
        assert_eq!(extract_final("</think>"), None);
    }

    #[test]
    fn adversarial_inputs_finish() {
        let unclosed = r"\boxed{".repeat(100_000);
        assert_eq!(extract_final(&unclosed), None);
        let deep = format!(r"\boxed{{{}7{}}}", "{".repeat(100_000), "}".repeat(100_000));
        assert!(extract_final(&deep).is_some());
        let phrases = "the answer is ".repeat(100_000);
        assert_eq!(extract_final(&phrases), None);
        let dollars = "$".repeat(100_001);
        assert_eq!(extract_final(&dollars), None);
    }
}
