//! Conclusion and verification cues, and the per-sentence view the anchor search needs.
//!
//! The APR rule-based localisation asks, for each sentence, whether it holds a conclusion cue
//! ("therefore", "so", "we get", ...) and whether the next one holds a verification cue
//! ("wait", "let me", ...). Matching rules:
//! - ASCII case-insensitive; the typographic apostrophe `’` equals `'` ("let’s" is "let's");
//! - on word boundaries: no word character (letter, digit, `_`, see [`crate::text::chars`])
//!   directly before or after a hit, so "so" never matches "also" or "sock"; hyphens and
//!   apostrophes are not word characters, so "check" also matches inside "double-check";
//! - a space inside a cue matches any run of whitespace ("we  get", "we\u{a0}get"). A run that
//!   holds a line break puts the two words in different sentences, and a hit must lie inside one
//!   sentence, so [`segment`] drops it (inside a display formula it is still one sentence);
//! - whole words by default. The paper lists keywords, not stems: "seem" does not match
//!   "seems" and "check" does not match "checking". With `inflections` on, the last word of a
//!   cue that ends in a letter may also carry one of the suffixes [`INFLECTION_SUFFIXES`]
//!   ("seems", "checked", "checking"); no stemming beyond that ("verified", "concluding" and
//!   "setting" still do not match). Prefix matching was rejected: "so" would match "some" and
//!   "solve", "set" would match "settle".
//!
//! Every occurrence of every cue is reported, overlapping ones included ("double-check" gives
//! a "double-check" hit and a "check" hit). A cue must hold at least one letter or digit.
//!
//! Scripts written without spaces (Chinese and Japanese: Han, Hiragana, Katakana) have no word
//! boundaries to test: a cue made only of such characters ("所以", "验证") matches wherever it
//! occurs, also inside a longer run ("所以答案是5"). Such cues are looked up separately, by
//! first character, at each byte of a non-ASCII text that can start a character of those
//! scripts; lists without them cost nothing more.
//!
//! How: every hit contains its cue's *anchor*, the cue's longest run of word characters ("only"
//! in "the only", "right" in "is that right"), and that run is a whole word of the text. One
//! pass walks the text's words ([`for_each_word`], 64-byte blocks turned into bit masks) and
//! looks each up in an index of anchor *forms* (each anchor, and with inflections each anchor
//! plus a suffix): a bit test on the low bits of the word's first and last bytes and its length
//! rejects about nine words in ten; a word that passes is compared, as one case-folded 8-byte
//! word, with the forms of its filter bucket only. A form that matches is then checked
//! character by character for the rest of each of its cues, backwards to the cue's start and
//! forwards to its end, including the boundaries. Longest-word anchors keep
//! candidates rare: in the shared traces "the" (193k occurrences) and "is" (116k) would
//! otherwise be checked as the start of "the only" and of the three "is that ..." cues.
//!
//! Why not an Aho-Corasick automaton over the cues: the paper's cues start with some 20
//! different letters (40 bytes with upper case), so the automaton gets no prefilter and steps
//! through every byte, and its raw matches (about 2 million per 21 MB of traces, mostly "i",
//! "it", "is", "so", "the" inside other words) each need a boundary check. Walking words with
//! bit masks does less work per byte and checks far fewer candidates.

use std::fmt;
use std::ops::Range;

use crate::text::chars::{char_at, is_word, skip_space, trim_space_back, word_boundary_after, word_boundary_before};
use crate::text::sentences::{split_sentences, Sentence, SplitOptions};

/// The paper's conclusion cues, in its order.
pub const PAPER_CONCLUSION_CUES: &[&str] = &[
    "therefore", "thus", "hence", "so", "answer", "solution", "result", "final", "indeed", "conclude", "equals",
    "valid", "set", "maybe", "seem", "perhaps", "we get", "we have", "i get", "would be", "should be", "it is", "it's",
    "that's", "lead to", "value of", "the only", "correct option", "maximum possible",
];

/// The paper's verification cues, in its order.
pub const PAPER_VERIFICATION_CUES: &[&str] = &[
    "check", "verify", "confirm", "wait", "make sure", "double-check", "let me", "let's", "straightforward",
    "miss anything", "is that right", "is that correct", "is that all",
];

/// Chinese counterparts of the paper's conclusion cues, for reasoning written in Chinese (which
/// the paper's English lists never match): add them to the conclusion list. Substring matches
/// (no word boundaries in Chinese), so only words whose every occurrence makes the same point.
pub const CHINESE_CONCLUSION_CUES: &[&str] = &[
    "因此", "所以", "因而", "于是", "从而", "故而", "答案", "解为", "解得", "结果", "最终", "确实", "综上", "结论",
    "总之", "等于", "成立", "也许", "可能", "似乎", "看来", "得到", "可得", "应该是", "应为", "就是", "即为", "的值",
    "唯一", "正确选项", "最大可能",
];

/// Chinese counterparts of the paper's verification cues (see [`CHINESE_CONCLUSION_CUES`]).
pub const CHINESE_VERIFICATION_CUES: &[&str] = &[
    "检查", "核对", "验证", "确认", "等等", "等一下", "确保", "再检查", "复查", "让我", "我们来", "遗漏", "对吗",
    "对不对", "正确吗", "是否正确", "就这些吗",
];

/// Suffixes the last word of a cue may carry when inflections are enabled.
pub const INFLECTION_SUFFIXES: &[&str] = &["s", "es", "d", "ed", "ing"];

/// Which list a cue comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CueKind {
    Conclusion,
    Verification,
}

impl CueKind {
    /// Both kinds.
    pub const ALL: [CueKind; 2] = [CueKind::Conclusion, CueKind::Verification];

    /// Stable lower-case name (used by the Python API).
    pub fn as_str(self) -> &'static str {
        match self {
            CueKind::Conclusion => "conclusion",
            CueKind::Verification => "verification",
        }
    }
}

/// One occurrence of a cue: byte span `start..end` of the text (suffix included when
/// inflections are on); `cue` indexes the list of its `kind`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CueHit {
    pub kind: CueKind,
    pub cue: usize,
    pub start: usize,
    pub end: usize,
}

/// A cue list that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CueError {
    /// The cue is empty or only whitespace.
    Empty { kind: CueKind, index: usize },
    /// The cue holds no letter or digit (nothing to anchor it to a word of the text).
    NoWord { kind: CueKind, index: usize, cue: String },
    /// The cue repeats an earlier one of the same list (after normalisation).
    Duplicate { kind: CueKind, index: usize, cue: String },
}

impl fmt::Display for CueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CueError::Empty { kind, index } => {
                write!(f, "{} cue {index} is empty", kind.as_str())
            }
            CueError::NoWord { kind, index, cue } => {
                write!(f, "{} cue {index} ({cue:?}) holds no letter or digit", kind.as_str())
            }
            CueError::Duplicate { kind, index, cue } => {
                write!(f, "{} cue {index} ({cue:?}) repeats an earlier cue", kind.as_str())
            }
        }
    }
}

impl std::error::Error for CueError {}

/// The canonical form of a cue: `’` -> `'`, ASCII lower case, words separated by one space.
/// `None` when nothing but whitespace is left.
pub fn normalize_cue(cue: &str) -> Option<String> {
    let words: Vec<String> = cue
        .split(char::is_whitespace)
        .filter(|w| !w.is_empty())
        .map(|w| w.replace('’', "'").to_ascii_lowercase())
        .collect();
    (!words.is_empty()).then(|| words.join(" "))
}

/// A cue as the matcher sees it: its anchor word and what surrounds it.
#[derive(Debug, Clone)]
struct CueSpec {
    kind: CueKind,
    index: usize,
    /// The normalised cue before and after its anchor, matched character by character: a
    /// space matches any whitespace run and `'` also matches `’`.
    before: Vec<u8>,
    after: Vec<u8>,
    /// Whether inflection suffixes may follow (inflections on, cue ends in an ASCII letter).
    inflectable: bool,
}

/// One spelling of an anchor that a word of the text may have: the anchor itself, or (with
/// inflections) the anchor plus one of [`INFLECTION_SUFFIXES`].
#[derive(Debug, Clone)]
struct Form {
    /// ASCII lower case, suffix included.
    spelling: Box<[u8]>,
    /// The first 8 bytes of `spelling`, zero padded, as [`fold8`] gives them.
    head: u64,
    /// Whether `spelling` carries a suffix: the word then ends the cue.
    inflected: bool,
    /// The cues anchored on this form: all cues of the anchor for the anchor itself, the
    /// inflectable ones that end with their anchor for an inflected form.
    cues: Box<[usize]>,
}

impl Form {
    fn new(spelling: Vec<u8>, inflected: bool, cues: Vec<usize>) -> Self {
        let head = fold8(head8(&spelling, 0, spelling.len()));
        Form { spelling: spelling.into(), head, inflected, cues: cues.into() }
    }
}

/// The bytes `bytes[start..end]`, at most 8 of them, zero padded, as a little-endian `u64`.
#[inline]
fn head8(bytes: &[u8], start: usize, end: usize) -> u64 {
    let len = (end - start).min(8);
    match bytes.get(start..start + 8) {
        // One load, then the bytes past the word cleared.
        Some(eight) => {
            let mut word = [0u8; 8];
            word.copy_from_slice(eight);
            u64::from_le_bytes(word) & u64::MAX.checked_shr(64 - 8 * len as u32).unwrap_or(0)
        }
        // Near the end of the text.
        None => bytes[start..start + len].iter().rev().fold(0, |acc, &b| acc << 8 | u64::from(b)),
    }
}

/// ASCII upper-case letters of 8 packed bytes in lower case, other bytes unchanged:
/// `fold8(x) == fold8(y)` exactly when the 8 bytes are equal ignoring ASCII case. SWAR on
/// 7-bit lanes (no carry crosses a byte), bytes >= 0x80 excluded.
#[inline]
fn fold8(x: u64) -> u64 {
    let v = x & splat(0x7f);
    let at_least_a = v.wrapping_add(splat(0x80 - b'A'));
    let past_z = v.wrapping_add(splat(0x80 - b'Z' - 1));
    let upper = at_least_a & !past_z & !x & splat(0x80);
    x | upper >> 2
}

/// Finds conclusion and verification cues; build once, use from many threads.
#[derive(Debug, Clone)]
pub struct CueMatcher {
    conclusion: Vec<String>,
    verification: Vec<String>,
    inflections: bool,
    specs: Vec<CueSpec>,
    /// Forms sorted by filter bucket; those of bucket `b` are `forms[form_starts[b]..form_starts[b + 1]]`.
    forms: Vec<Form>,
    form_starts: Box<[u32; FILTER_BUCKETS + 1]>,
    /// Bit `len % 64` of bucket `filter_bucket(first, last)` is set when a word with these
    /// first and last bytes and this length may be an anchor, inflected forms included. Most
    /// words of a text ("in" against "it", "this" against "that") fail this one test and never
    /// reach the anchor lists.
    word_filter: Box<[u64; FILTER_BUCKETS]>,
    /// Cues in a script written without spaces ([`is_unspaced_cue`]), matched as substrings,
    /// grouped by first character (sorted): their UTF-8 bytes and spec.
    unspaced: Vec<(char, Vec<UnspacedCue>)>,
}

/// An unspaced cue: its UTF-8 bytes and the index of its spec.
type UnspacedCue = (Box<[u8]>, usize);

/// Whether every character of `cue` belongs to a script written without spaces between words
/// (Han, Hiragana, Katakana), so that word boundaries say nothing about where it may match.
pub fn is_unspaced_cue(cue: &str) -> bool {
    !cue.is_empty() && cue.chars().all(is_unspaced_script)
}

fn is_unspaced_script(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF // Hiragana, Katakana
        | 0x31F0..=0x31FF // Katakana phonetic extensions
        | 0x3400..=0x4DBF // CJK unified ideographs, extension A
        | 0x4E00..=0x9FFF // CJK unified ideographs
        | 0xF900..=0xFAFF // CJK compatibility ideographs
        | 0x20000..=0x3134F) // supplementary ideographs
}

const FILTER_BUCKETS: usize = 32 * 32;

/// The filter bucket of a word with these first and last bytes: their low 5 bits, which are
/// the same for both cases of an ASCII letter (`b'a' & 31 == b'A' & 31 == 1`). Other bytes
/// share them with letters ("p" and "0"), which costs a false positive of the filter at worst:
/// the exact comparison follows. No table: a word costs two masks and a shift here.
#[inline(always)]
fn filter_bucket(first: u8, last: u8) -> usize {
    usize::from(first & 31) << 5 | usize::from(last & 31)
}

/// The length bit of the filter. Lengths 64 apart share a bit: a false positive costs only
/// the exact comparison that follows.
#[inline(always)]
fn length_bit(len: usize) -> u64 {
    1u64 << (len % 64)
}

/// The longest run of word characters in `cue` (the first of equally long ones), as a byte range.
fn anchor_of(cue: &str) -> Option<(usize, usize)> {
    let mut best: Option<(usize, usize)> = None;
    let mut run_start = None;
    for (i, c) in cue.char_indices().chain(std::iter::once((cue.len(), ' '))) {
        match (is_word(c), run_start) {
            (true, None) => run_start = Some(i),
            (false, Some(s)) => {
                if best.map_or(true, |(bs, be)| i - s > be - bs) {
                    best = Some((s, i));
                }
                run_start = None;
            }
            _ => {}
        }
    }
    best
}

impl CueMatcher {
    /// A matcher for the given lists (any order, any case; see [`normalize_cue`]).
    pub fn new<S: AsRef<str>>(conclusion: &[S], verification: &[S], inflections: bool) -> Result<Self, CueError> {
        let conclusion = normalize_list(conclusion, CueKind::Conclusion)?;
        let verification = normalize_list(verification, CueKind::Verification)?;
        let mut specs = Vec::new();
        // Anchor spellings and their cues, in order of first appearance.
        let mut anchors: Vec<(Vec<u8>, Vec<usize>)> = Vec::new();
        let lists = [(CueKind::Conclusion, &conclusion), (CueKind::Verification, &verification)];
        let mut unspaced: Vec<(char, Vec<UnspacedCue>)> = Vec::new();
        for (kind, list) in lists {
            for (index, cue) in list.iter().enumerate() {
                if let Some(first) = cue.chars().next().filter(|_| is_unspaced_cue(cue)) {
                    let entry = (cue.as_bytes().into(), specs.len());
                    match unspaced.iter_mut().find(|(c, _)| *c == first) {
                        Some((_, cues)) => cues.push(entry),
                        None => unspaced.push((first, vec![entry])),
                    }
                    specs.push(CueSpec { kind, index, before: Vec::new(), after: Vec::new(), inflectable: false });
                    continue;
                }
                let (start, end) = anchor_of(cue).ok_or_else(|| CueError::NoWord { kind, index, cue: cue.clone() })?;
                let word = &cue.as_bytes()[start..end];
                let spec = CueSpec {
                    kind,
                    index,
                    before: cue.as_bytes()[..start].to_vec(),
                    after: cue.as_bytes()[end..].to_vec(),
                    inflectable: inflections && cue.ends_with(|c: char| c.is_ascii_alphabetic()),
                };
                let id = specs.len();
                specs.push(spec);
                match anchors.iter_mut().find(|(w, _)| w == word) {
                    Some((_, cues)) => cues.push(id),
                    None => anchors.push((word.to_vec(), vec![id])),
                }
            }
        }
        let mut forms = Vec::new();
        for (word, cues) in &anchors {
            forms.push(Form::new(word.clone(), false, cues.clone()));
            // An inflected anchor ends its cue.
            let inflectable: Vec<usize> =
                cues.iter().copied().filter(|&id| specs[id].inflectable && specs[id].after.is_empty()).collect();
            if !inflectable.is_empty() {
                for suffix in INFLECTION_SUFFIXES {
                    forms.push(Form::new([word.as_slice(), suffix.as_bytes()].concat(), true, inflectable.clone()));
                }
            }
        }
        let bucket_of = |f: &Form| filter_bucket(f.spelling[0], f.spelling[f.spelling.len() - 1]);
        forms.sort_by_key(bucket_of); // stable: forms of one bucket keep their order
        let mut word_filter = Box::new([0u64; FILTER_BUCKETS]);
        let mut form_starts = Box::new([0u32; FILTER_BUCKETS + 1]);
        for form in &forms {
            let bucket = bucket_of(form);
            word_filter[bucket] |= length_bit(form.spelling.len());
            form_starts[bucket + 1] += 1;
        }
        for b in 0..FILTER_BUCKETS {
            form_starts[b + 1] += form_starts[b];
        }
        unspaced.sort_by_key(|(c, _)| *c);
        Ok(CueMatcher { conclusion, verification, inflections, specs, forms, form_starts, word_filter, unspaced })
    }

    /// The paper's lists, whole words.
    pub fn paper() -> Self {
        // The paper's lists are fixed and valid: this cannot fail.
        match Self::new(PAPER_CONCLUSION_CUES, PAPER_VERIFICATION_CUES, false) {
            Ok(m) => m,
            Err(e) => unreachable!("the paper's cue lists are valid: {e}"),
        }
    }

    /// The normalised cues of one kind, in the order given.
    pub fn cues(&self, kind: CueKind) -> &[String] {
        match kind {
            CueKind::Conclusion => &self.conclusion,
            CueKind::Verification => &self.verification,
        }
    }

    /// Whether inflection suffixes are accepted.
    pub fn inflections(&self) -> bool {
        self.inflections
    }

    /// Every cue occurrence in `text`, sorted by `(start, end, kind, cue)`.
    pub fn find(&self, text: &str) -> Vec<CueHit> {
        // About one hit per 60 bytes of a trace: reserve enough to rarely grow.
        let mut hits = Vec::with_capacity(text.len() / 48 + 4);
        self.for_each_hit(text, &mut hits);
        // Hits come out in anchor order; only a cue with words before its anchor can break
        // the order, which is rare enough to check before sorting.
        let key = |h: &CueHit| (h.start, h.end, h.kind, h.cue);
        if hits.windows(2).any(|w| key(&w[0]) > key(&w[1])) {
            hits.sort_unstable_by_key(key);
        }
        hits
    }

    /// Gives `sink` every cue occurrence in `text`, in anchor order.
    #[inline(always)]
    fn for_each_hit(&self, text: &str, sink: &mut impl HitSink) {
        for_each_word_with_ends(text, |start, end, first, last| {
            // Most words fail this one test; keep it inline and the rest out of line.
            let bucket = filter_bucket(first, last);
            if self.word_filter[bucket] & length_bit(end - start) != 0 {
                self.match_word(text, start, end, bucket, sink);
            }
        });
        if !self.unspaced.is_empty() && !text.is_ascii() {
            self.match_unspaced(text, sink);
        }
    }

    /// Hits of the cues in scripts without spaces: every occurrence, overlapping ones included.
    /// Only bytes that can start such a character (U+3000..U+9FFF, U+F900.., supplementary
    /// planes) are looked at, 32 bytes at a time, so text with few of them costs little more
    /// than one read.
    #[inline(never)]
    fn match_unspaced(&self, text: &str, sink: &mut impl HitSink) {
        let bytes = text.as_bytes();
        let may_start = |b: u8| b.wrapping_sub(0xE3) < 7 || b == 0xEF || b == 0xF0;
        let mut chunk_start = 0;
        while chunk_start < bytes.len() {
            let chunk_end = (chunk_start + 32).min(bytes.len());
            let chunk = &bytes[chunk_start..chunk_end];
            if chunk.iter().fold(false, |any, &b| any | may_start(b)) {
                for (k, &b) in chunk.iter().enumerate() {
                    if may_start(b) {
                        self.unspaced_at(text, chunk_start + k, sink);
                    }
                }
            }
            chunk_start = chunk_end;
        }
    }

    /// Hits of the unspaced cues that start at byte `start` (a character's first byte).
    fn unspaced_at(&self, text: &str, start: usize, sink: &mut impl HitSink) {
        let Some(first) = char_at(text, start) else { return };
        let Ok(group) = self.unspaced.binary_search_by_key(&first, |(c, _)| *c) else { return };
        for (cue, id) in &self.unspaced[group].1 {
            if text.as_bytes()[start..].starts_with(cue) {
                let spec = &self.specs[*id];
                sink.hit(CueHit { kind: spec.kind, cue: spec.index, start, end: start + cue.len() });
            }
        }
    }

    /// Hits of the cues anchored on the text's word `start..end`, whose filter bucket is `bucket`.
    #[inline(never)]
    fn match_word(&self, text: &str, start: usize, end: usize, bucket: usize, sink: &mut impl HitSink) {
        let bytes = text.as_bytes();
        let len = end - start;
        // The word's first 8 bytes, folded once for all the forms of the bucket.
        let head = fold8(head8(bytes, start, end));
        let forms = &self.forms[self.form_starts[bucket] as usize..self.form_starts[bucket + 1] as usize];
        for form in forms {
            if form.head != head
                || form.spelling.len() != len
                || (len > 8 && !bytes[start + 8..end].eq_ignore_ascii_case(&form.spelling[8..]))
            {
                continue;
            }
            for &id in form.cues.iter() {
                let spec = &self.specs[id];
                // The word is maximal, so with nothing before or after the anchor the word
                // boundaries hold already.
                let hit_start =
                    if spec.before.is_empty() { Some(start) } else { match_before(text, start, &spec.before) };
                let hit_end = match hit_start {
                    Some(_) if form.inflected || spec.after.is_empty() => Some(end),
                    Some(_) => match_after(text, end, &spec.after, spec.inflectable),
                    None => None,
                };
                if let (Some(hit_start), Some(hit_end)) = (hit_start, hit_end) {
                    sink.hit(CueHit { kind: spec.kind, cue: spec.index, start: hit_start, end: hit_end });
                }
            }
        }
    }
}

/// Where [`CueMatcher::match_word`] puts its hits.
trait HitSink {
    fn hit(&mut self, hit: CueHit);
}

/// All hits, for [`CueMatcher::find`].
impl HitSink for Vec<CueHit> {
    #[inline(always)]
    fn hit(&mut self, hit: CueHit) {
        self.push(hit);
    }
}

/// Only which kinds were hit, for [`CueMatcher::sentence_flags`].
struct KindFlags {
    conclusion: bool,
    verification: bool,
}

impl HitSink for KindFlags {
    #[inline(always)]
    fn hit(&mut self, hit: CueHit) {
        match hit.kind {
            CueKind::Conclusion => self.conclusion = true,
            CueKind::Verification => self.verification = true,
        }
    }
}

const TYPOGRAPHIC_APOSTROPHE: &[u8] = "’".as_bytes();

/// Start of the hit whose anchor starts at `pos`, if `before` (the cue before its anchor) ends
/// there and no word character precedes it.
fn match_before(text: &str, pos: usize, before: &[u8]) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = pos;
    for &c in before.iter().rev() {
        if c == b' ' {
            let gap_start = trim_space_back(text, i, 0);
            if gap_start == i {
                return None;
            }
            i = gap_start;
        } else if c == b'\'' && i >= 3 && &bytes[i - 3..i] == TYPOGRAPHIC_APOSTROPHE {
            i -= 3;
        } else if i > 0 && bytes[i - 1].eq_ignore_ascii_case(&c) {
            i -= 1;
        } else {
            return None;
        }
    }
    word_boundary_before(text, i).then_some(i)
}

/// End of the hit whose anchor ends at `pos`, if `after` (the cue after its anchor) follows,
/// then a word boundary, or with `inflectable` a suffix and a word boundary.
fn match_after(text: &str, pos: usize, after: &[u8], inflectable: bool) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = pos;
    for &c in after {
        if c == b' ' {
            let gap_end = skip_space(text, i);
            if gap_end == i {
                return None;
            }
            i = gap_end;
        } else if c == b'\'' && bytes.get(i..i + 3) == Some(TYPOGRAPHIC_APOSTROPHE) {
            i += 3;
        } else if bytes.get(i).is_some_and(|b| b.eq_ignore_ascii_case(&c)) {
            i += 1;
        } else {
            return None;
        }
    }
    if word_boundary_after(text, i) {
        return Some(i);
    }
    if inflectable {
        for suffix in INFLECTION_SUFFIXES {
            let end = i + suffix.len();
            let spelled = bytes.get(i..end).is_some_and(|s| s.eq_ignore_ascii_case(suffix.as_bytes()));
            if spelled && word_boundary_after(text, end) {
                return Some(end);
            }
        }
    }
    None
}

/// Whether `b` is an ASCII word byte: `[0-9A-Za-z_]`. Written as range tests rather than a
/// table lookup so that a loop over a block compiles to SIMD compares.
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
#[inline(always)]
fn is_ascii_word_byte(b: u8) -> bool {
    (b | 0x20).wrapping_sub(b'a') < 26 || b.wrapping_sub(b'0') < 10 || b == b'_'
}

/// Gathers bit 0 of each byte of `x` (all other bits clear), byte `i` -> bit `i`.
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
#[inline(always)]
fn gather_low_bits(x: u64) -> u64 {
    // Multiplying by this constant moves bit 8i to bit 56+i; the other products fall outside
    // bits 56..64 without carrying into them.
    x.wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// Bit masks of one 64-byte block: ASCII word bytes, and non-ASCII bytes.
#[inline(always)]
fn classify_block(block: &[u8; 64]) -> (u64, u64) {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        // SAFETY: the only requirement of `classify_block_sse2` is SSE2, which this build
        // enables (the `cfg` above; every x86-64 target has it).
        unsafe { classify_block_sse2(block) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    classify_block_portable(block)
}

/// [`classify_block`] with SSE2: 16 bytes per compare, and `pmovmskb` packs each compare into
/// 16 bits (about 12 instructions per 16 bytes, against some 22 for the portable version,
/// whose packing is a multiply per 8 bytes). 89.6k -> 80.1k instructions per trace for
/// [`CueMatcher::find`].
///
/// # Safety
/// The CPU must have SSE2 (every x86-64 CPU has).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[target_feature(enable = "sse2")]
#[inline]
unsafe fn classify_block_sse2(block: &[u8; 64]) -> (u64, u64) {
    use std::arch::x86_64::{
        _mm_add_epi8, _mm_cmpeq_epi8, _mm_cmplt_epi8, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8, _mm_set_epi64x,
    };
    let half = |k: usize| {
        let mut eight = [0u8; 8];
        eight.copy_from_slice(&block[8 * k..8 * k + 8]);
        i64::from_le_bytes(eight)
    };
    let mut word = 0u64;
    let mut high = 0u64;
    for j in 0..4 {
        let v = _mm_set_epi64x(half(2 * j + 1), half(2 * j));
        // Unsigned `x - lo < n` as a signed compare: shift the range to start at -128.
        let letter = _mm_cmplt_epi8(
            _mm_add_epi8(_mm_or_si128(v, _mm_set1_epi8(0x20)), _mm_set1_epi8((0x80 - b'a') as i8)),
            _mm_set1_epi8((0x80u8 + 26) as i8),
        );
        let digit =
            _mm_cmplt_epi8(_mm_add_epi8(v, _mm_set1_epi8((0x80 - b'0') as i8)), _mm_set1_epi8((0x80u8 + 10) as i8));
        let underscore = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'_' as i8));
        let is_word = _mm_or_si128(_mm_or_si128(letter, digit), underscore);
        word |= u64::from(_mm_movemask_epi8(is_word) as u16) << (16 * j);
        high |= u64::from(_mm_movemask_epi8(v) as u16) << (16 * j);
    }
    (word, high)
}

/// [`classify_block`] without SIMD intrinsics.
///
/// The per-byte flags come from a loop the compiler vectorises (16 bytes per compare); only
/// packing them into bits is scalar, one multiply per 8 bytes. Most blocks of a trace are pure
/// ASCII, so the non-ASCII mask is only packed when some byte has its high bit set.
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
#[inline(always)]
fn classify_block_portable(block: &[u8; 64]) -> (u64, u64) {
    let mut flags = [0u8; 64];
    for (f, &b) in flags.iter_mut().zip(block) {
        *f = u8::from(is_ascii_word_byte(b)) | (b >> 7) << 1;
    }
    let mut word = 0u64;
    let mut any_high = 0u64;
    let lane = |j: usize| {
        let mut eight = [0u8; 8];
        eight.copy_from_slice(&flags[8 * j..8 * j + 8]);
        u64::from_le_bytes(eight)
    };
    for j in 0..8 {
        let x = lane(j);
        word |= gather_low_bits(x & splat(1)) << (8 * j);
        any_high |= x;
    }
    let mut high = 0u64;
    if any_high & splat(2) != 0 {
        for j in 0..8 {
            high |= gather_low_bits(lane(j) >> 1 & splat(1)) << (8 * j);
        }
    }
    (word, high)
}

const fn splat(b: u8) -> u64 {
    u64::from_ne_bytes([b; 8])
}

/// Calls `f(start, end)` for every maximal run of word characters in `text`, in order.
///
/// Why blocks and bit masks: a byte-by-byte loop mispredicts a branch at nearly every word
/// boundary (about 4 million per 21 MB of traces) and was the slowest stage of segmentation.
/// Here each 64-byte block becomes a word mask; word starts and ends are the mask's rising and
/// falling edges, visited with `trailing_zeros`. Non-ASCII characters are decoded and
/// classified one by one (their continuation bytes take the class of their first byte).
pub fn for_each_word(text: &str, mut f: impl FnMut(usize, usize)) {
    for_each_word_with_ends(text, |start, end, _, _| f(start, end));
}

/// [`for_each_word`], also giving each word's first and last bytes, `f(start, end, first,
/// last)`. They are read from the block in hand, where the index is masked to the block
/// (no bounds check, no second load of the text).
#[inline(always)]
fn for_each_word_with_ends(text: &str, mut f: impl FnMut(usize, usize, u8, u8)) {
    let bytes = text.as_bytes();
    let n = bytes.len();
    let mut walk = WordWalk { open: None, open_first: 0, prev_word: false, prev_last: 0 };
    let mut blocks = bytes.chunks_exact(64);
    let mut base = 0;
    for block in &mut blocks {
        let mut whole = [0u8; 64];
        whole.copy_from_slice(block);
        walk.block(text, base, &whole, 64, &mut f);
        base += 64;
    }
    let tail = blocks.remainder();
    if !tail.is_empty() {
        let mut padded = [0u8; 64]; // NUL padding is a non-word byte
        padded[..tail.len()].copy_from_slice(tail);
        walk.block(text, base, &padded, tail.len(), &mut f);
    }
    if let Some(start) = walk.open {
        f(start, n, walk.open_first, walk.prev_last);
    }
}

/// The state [`for_each_word`] carries from one block to the next.
struct WordWalk {
    /// Start of a word still open at the end of the last block.
    open: Option<usize>,
    /// The first byte of that word.
    open_first: u8,
    /// Whether the last byte of the last block belongs to a word character.
    prev_word: bool,
    /// The last byte of the last block.
    prev_last: u8,
}

impl WordWalk {
    /// Reports the words that end in `block` (text bytes `base..base + len`, NUL padded).
    #[inline(always)]
    fn block(
        &mut self,
        text: &str,
        base: usize,
        block: &[u8; 64],
        len: usize,
        f: &mut impl FnMut(usize, usize, u8, u8),
    ) {
        let (mut word, high) = classify_block(block);
        if high != 0 {
            word |= non_ascii_word_bits(text, base, block, high, self.prev_word);
        }
        let prev_word = self.prev_word;
        let before = (word << 1) | u64::from(prev_word);
        let mut starts = word & !before;
        let mut ends = !word & before;
        // A word left open by the previous block ends at the first end here (if any); after
        // that, starts and ends alternate, so they pair up in order without a branch per edge.
        if ends != 0 {
            if let Some(start) = self.open.take() {
                let e = ends.trailing_zeros() as usize;
                let last = if e == 0 { self.prev_last } else { block[(e - 1) & 63] };
                f(start, base + e, self.open_first, last);
                ends &= ends - 1;
            }
        }
        while starts != 0 {
            let s = starts.trailing_zeros() as usize;
            starts &= starts - 1;
            if ends == 0 {
                self.open = Some(base + s);
                self.open_first = block[s & 63];
                break;
            }
            // A word that starts in this block ends after its first byte, in this block.
            let e = ends.trailing_zeros() as usize;
            f(base + s, base + e, block[s & 63], block[e.wrapping_sub(1) & 63]);
            ends &= ends - 1;
        }
        self.prev_word = word >> (len - 1) & 1 == 1;
        self.prev_last = block[(len - 1) & 63];
    }
}

/// Word bits of the non-ASCII bytes `high` of a block: every byte of a character takes the
/// class of the character. Continuation bytes at the start of the block continue the previous
/// block's character, whose class is `prev_word`.
#[inline(never)]
fn non_ascii_word_bits(text: &str, base: usize, block: &[u8; 64], high: u64, prev_word: bool) -> u64 {
    let mut word = 0u64;
    let mut rest = high;
    let mut char_is_word = prev_word;
    while rest != 0 {
        let k = rest.trailing_zeros() as usize;
        if block[k] >= 0xC0 {
            char_is_word = char_at(text, base + k).is_some_and(is_word);
        }
        word |= u64::from(char_is_word) << k;
        rest &= rest - 1;
    }
    word
}

fn normalize_list<S: AsRef<str>>(cues: &[S], kind: CueKind) -> Result<Vec<String>, CueError> {
    let mut out: Vec<String> = Vec::with_capacity(cues.len());
    for (index, cue) in cues.iter().enumerate() {
        let norm = normalize_cue(cue.as_ref()).ok_or(CueError::Empty { kind, index })?;
        if out.contains(&norm) {
            return Err(CueError::Duplicate { kind, index, cue: norm });
        }
        out.push(norm);
    }
    Ok(out)
}

/// One sentence with the cues found inside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SentenceCues {
    pub sentence: Sentence,
    /// Indices into [`Segmentation::hits`].
    pub hits: Range<usize>,
    /// Whether a conclusion cue lies inside the sentence.
    pub conclusion: bool,
    /// Whether a verification cue lies inside the sentence.
    pub verification: bool,
}

impl CueMatcher {
    /// Whether `sentence` (the text of one sentence) holds a conclusion cue and a verification
    /// cue. The same flags [`segment`] gives that sentence: sentences start after white space
    /// or a line break and end before them, so word boundaries at the slice's edges are the
    /// boundaries in the whole text.
    ///
    /// The hits are not collected (no allocation per sentence), only their kinds noted.
    pub fn sentence_flags(&self, sentence: &str) -> (bool, bool) {
        let mut flags = KindFlags { conclusion: false, verification: false };
        self.for_each_hit(sentence, &mut flags);
        (flags.conclusion, flags.verification)
    }
}

/// Sentences of a text with their cues: what the anchor search reads.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Segmentation {
    pub sentences: Vec<SentenceCues>,
    /// Hits inside sentences, sorted by `(start, end, kind, cue)`.
    pub hits: Vec<CueHit>,
}

impl Segmentation {
    /// The hits of sentence `i` (empty when out of range).
    pub fn hits_of(&self, i: usize) -> &[CueHit] {
        self.sentences.get(i).and_then(|s| self.hits.get(s.hits.clone())).unwrap_or(&[])
    }
}

/// Splits `text` into sentences and assigns each cue hit to the sentence that contains it. A hit
/// that crosses a sentence boundary (a phrase broken by a line break) is dropped.
pub fn segment(text: &str, opts: &SplitOptions, matcher: &CueMatcher) -> Segmentation {
    let sentences = split_sentences(text, opts);
    // The kept hits are compacted in place: `hits[..kept]` are those assigned so far.
    let mut hits = matcher.find(text);
    let mut kept = 0;
    let mut next = 0;
    // Built by `map` over the sentences, not pushed one by one: the length is known, so there
    // is no capacity check per sentence.
    let out = sentences
        .iter()
        .map(|&sentence| {
            let first = kept;
            let (mut conclusion, mut verification) = (false, false);
            // Hits are sorted by start and sentences tile the text from 0, so every hit starting
            // before this sentence's end starts inside it.
            while let Some(&hit) = hits.get(next).filter(|h| h.start < sentence.end) {
                next += 1;
                if hit.end <= sentence.end {
                    conclusion |= hit.kind == CueKind::Conclusion;
                    verification |= hit.kind == CueKind::Verification;
                    hits[kept] = hit;
                    kept += 1;
                }
            }
            SentenceCues { sentence, hits: first..kept, conclusion, verification }
        })
        .collect();
    hits.truncate(kept);
    Segmentation { sentences: out, hits }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found<'a>(m: &'a CueMatcher, text: &'a str) -> Vec<(&'a str, CueKind, &'a str)> {
        m.find(text).into_iter().map(|h| (&text[h.start..h.end], h.kind, m.cues(h.kind)[h.cue].as_str())).collect()
    }

    fn matched(m: &CueMatcher, text: &str) -> Vec<String> {
        found(m, text).into_iter().map(|(t, _, _)| t.to_string()).collect()
    }

    fn only(cues: &[&str], inflections: bool) -> CueMatcher {
        CueMatcher::new(cues, &[], inflections).unwrap()
    }

    #[test]
    fn word_walk_across_block_edges() {
        fn words(text: &str) -> Vec<&str> {
            let mut out = Vec::new();
            for_each_word(text, |s, e| out.push(&text[s..e]));
            out
        }
        // Words that end exactly at, straddle, or continue past a 64-byte block edge, with
        // multi-byte characters split by the edge.
        let a63 = "a".repeat(63);
        assert_eq!(words(&format!("{a63} b")), vec![a63.as_str(), "b"]);
        assert_eq!(words(&format!("{a63}bc d")), vec![format!("{a63}bc").as_str(), "d"]);
        assert_eq!(words(&format!("{a63}é√x")), vec![format!("{a63}é").as_str(), "x"]);
        assert_eq!(words(&format!("{}²√π", " ".repeat(63))), vec!["²", "π"]);
        assert_eq!(words(&"x".repeat(200)), vec!["x".repeat(200).as_str()]);
        assert_eq!(words(""), Vec::<&str>::new());
        assert_eq!(words("_ a1 ’b 日本 ×c"), vec!["_", "a1", "b", "日本", "c"]);
    }

    #[test]
    fn block_masks_agree_with_the_byte_classes() {
        // Every byte value at every position of a block, next to bytes of every class.
        let fill = [0x00u8, b'_', b'a', b'Z', b'0', b'9', b'/', b':', b'@', b'[', b'`', b'{', 0x7f, 0x80, 0xC3, 0xFF];
        for b in 0..=255u8 {
            for pos in 0..64 {
                let mut block = [0u8; 64];
                for (k, x) in block.iter_mut().enumerate() {
                    *x = fill[(k + usize::from(b)) % fill.len()];
                }
                block[pos] = b;
                let mut want = (0u64, 0u64);
                for (k, &x) in block.iter().enumerate() {
                    want.0 |= u64::from(x == b'_' || x.is_ascii_alphanumeric()) << k;
                    want.1 |= u64::from(x >= 0x80) << k;
                }
                assert_eq!(classify_block(&block), want, "{b:#x} at {pos}");
                assert_eq!(classify_block_portable(&block), want, "{b:#x} at {pos}");
            }
        }
    }

    #[test]
    fn packed_comparison_is_ascii_case_insensitive_equality() {
        // Every byte pair, in every lane, next to neighbours of every kind (no carry between lanes).
        let neighbours = [0x00u8, b'@', b'A', b'Z', b'[', b'a', b'z', 0x7f, 0x80, 0xC3, 0xFF];
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                for lane in 0..8 {
                    let n = neighbours[(usize::from(a) + lane) % neighbours.len()];
                    let mut x = [n; 8];
                    let mut y = [n; 8];
                    x[lane] = a;
                    y[lane] = b;
                    let packed = |v: [u8; 8]| fold8(u64::from_le_bytes(v));
                    assert_eq!(packed(x) == packed(y), a.eq_ignore_ascii_case(&b), "{a:#x} {b:#x} lane {lane}");
                }
            }
        }
        // head8 reads the same bytes with 8 of them available or not.
        let text = b"xWAITx-So-straightforward";
        for start in 0..text.len() {
            for end in start..=text.len() {
                let n = (end - start).min(8);
                let mut want = [0u8; 8];
                want[..n].copy_from_slice(&text[start..start + n]);
                assert_eq!(head8(text, start, end), u64::from_le_bytes(want), "{start}..{end}");
            }
        }
    }

    #[test]
    fn paper_lists_are_the_papers() {
        assert_eq!(PAPER_CONCLUSION_CUES.len(), 29);
        assert_eq!(PAPER_VERIFICATION_CUES.len(), 13);
        let m = CueMatcher::paper();
        assert_eq!(m.cues(CueKind::Conclusion), PAPER_CONCLUSION_CUES);
        assert_eq!(m.cues(CueKind::Verification), PAPER_VERIFICATION_CUES);
    }

    #[test]
    fn word_boundaries() {
        let m = only(&["so", "set"], false);
        assert_eq!(matched(&m, "also sock so. So, (so) so_x so1 reset settle set-up"), vec!["so", "So", "so", "set"]);
        assert_eq!(matched(&m, "so"), vec!["so"]);
        assert_eq!(matched(&m, "éso soé"), Vec::<String>::new());
    }

    #[test]
    fn case_and_apostrophes() {
        let m = CueMatcher::paper();
        assert_eq!(
            found(&m, "LET’S see. That’s it. Let's go. IT'S"),
            vec![
                ("LET’S", CueKind::Verification, "let's"),
                ("That’s", CueKind::Conclusion, "that's"),
                ("Let's", CueKind::Verification, "let's"),
                ("IT'S", CueKind::Conclusion, "it's"),
            ]
        );
        let typographic = CueMatcher::new(&["it’s"], &[], false).unwrap();
        assert_eq!(typographic.cues(CueKind::Conclusion), ["it's"]);
        assert_eq!(matched(&typographic, "it's it’s"), vec!["it's", "it’s"]);
    }

    #[test]
    fn phrases_match_across_whitespace_runs() {
        let m = only(&["we get", "is that right"], false);
        assert_eq!(
            matched(&m, "we get, We  get, we\u{a0}get, we\nget, weget, we gets"),
            vec!["we get", "We  get", "we\u{a0}get", "we\nget"]
        );
        assert_eq!(matched(&m, "Is that right? is that righteous"), vec!["Is that right"]);
    }

    #[test]
    fn overlapping_cues_are_all_reported() {
        let m = CueMatcher::paper();
        assert_eq!(
            found(&m, "Let me double-check."),
            vec![
                ("Let me", CueKind::Verification, "let me"),
                ("double-check", CueKind::Verification, "double-check"),
                ("check", CueKind::Verification, "check"),
            ]
        );
        let nested = only(&["final", "final answer", "answer"], false);
        assert_eq!(matched(&nested, "the final answer"), vec!["final", "final answer", "answer"]);
        let both = CueMatcher::new(&["wait"], &["wait"], false).unwrap();
        assert_eq!(found(&both, "wait").len(), 2);
    }

    #[test]
    fn a_rejected_match_never_hides_a_valid_one() {
        // "so" inside "also" is rejected; the "so" right after must still be found.
        let m = only(&["so", "also so"], false);
        assert_eq!(matched(&m, "alsoso also so"), vec!["also so", "so"]);
    }

    #[test]
    fn cues_with_punctuation_around_the_anchor() {
        let m = only(&["(a)", "'tis so", "-x"], false);
        assert_eq!(
            matched(&m, "(a) b(a) (A). ’tis  so 'tis so -x a-x"),
            vec!["(a)", "(A)", "’tis  so", "'tis so", "-x"]
        );
        let mixed = only(&["so", "(so)"], false);
        assert_eq!(matched(&mixed, "(so)"), vec!["(so)", "so"]);
        // Anchored on "only", matched backwards over a whitespace run to "the".
        let m = only(&["the only", "so-called x"], false);
        assert_eq!(matched(&m, "The \n only. the onlyx. atthe only. So-Called X"), vec!["The \n only", "So-Called X"]);
    }

    #[test]
    fn anchors_are_the_longest_word() {
        assert_eq!(anchor_of("the only"), Some((4, 8)));
        assert_eq!(anchor_of("it is"), Some((0, 2)));
        assert_eq!(anchor_of("let's"), Some((0, 3)));
        assert_eq!(anchor_of("(a)"), Some((1, 2)));
        assert_eq!(anchor_of("été x"), Some((0, 5)));
        assert_eq!(anchor_of("?!"), None);
    }

    #[test]
    fn inflections_are_opt_in() {
        let text = "It seems so. Checking, checked, checks. Verified. Concluded. Setting. Sod.";
        assert_eq!(matched(&CueMatcher::paper(), text), vec!["so"]);
        let m = CueMatcher::new(PAPER_CONCLUSION_CUES, PAPER_VERIFICATION_CUES, true).unwrap();
        assert_eq!(matched(&m, text), vec!["seems", "so", "Checking", "checked", "checks", "Concluded", "Sod"]);
        // Cues that end in a non-letter take no suffix.
        let m = only(&["c++"], true);
        assert_eq!(matched(&m, "c++ c++s"), vec!["c++"]);
    }

    #[test]
    fn unspaced_scripts_match_inside_runs() {
        let m = CueMatcher::new(CHINESE_CONCLUSION_CUES, CHINESE_VERIFICATION_CUES, false).unwrap();
        assert_eq!(matched(&m, "所以答案是5。让我验证一下。"), ["所以", "答案", "让我", "验证"]);
        // Overlapping occurrences are all reported, as for words.
        let hits = m.find("等等等");
        assert_eq!(hits.iter().map(|h| (h.start, h.end)).collect::<Vec<_>>(), [(0, 6), (3, 9)]);
        // ASCII text and other scripts are untouched; a mixed cue keeps word boundaries.
        assert!(m.find("so the answer is 5").is_empty());
        let mixed = only(&["so", "所以", "x所"], false);
        assert_eq!(matched(&mixed, "also 所以 x所以"), ["所以", "所以"]);
        assert!(
            is_unspaced_cue("答案")
                && is_unspaced_cue("カタカナ")
                && !is_unspaced_cue("答 案")
                && !is_unspaced_cue("x所")
        );
        // The sentence view sees them too.
        assert_eq!(m.sentence_flags("于是x=2"), (true, false));
    }

    #[test]
    fn invalid_lists_are_rejected() {
        assert_eq!(
            CueMatcher::new(&["ok", " \n"], &[], false).unwrap_err(),
            CueError::Empty { kind: CueKind::Conclusion, index: 1 }
        );
        assert!(matches!(
            CueMatcher::new(&[], &["Wait", "wait"], false).unwrap_err(),
            CueError::Duplicate { kind: CueKind::Verification, index: 1, .. }
        ));
        assert!(matches!(CueMatcher::new(&["?!"], &[], false), Err(CueError::NoWord { index: 0, .. })));
        assert!(CueMatcher::new(&["'a'b'c'd", "a'b'c'd'e'f"], &[], false).is_ok());
        assert!(CueMatcher::new::<&str>(&[], &[], false).unwrap().find("so wait").is_empty());
    }

    #[test]
    fn normalisation() {
        assert_eq!(normalize_cue("  Let’s \t  GO "), Some("let's go".to_string()));
        assert_eq!(normalize_cue(" \u{3000} "), None);
        assert_eq!(normalize_cue("ÉTÉ"), Some("ÉtÉ".to_string()), "only ASCII is folded");
    }

    #[test]
    fn segment_assigns_hits_and_drops_crossing_ones() {
        let text = "So we have x. Wait, let me\ncheck. We\nget y.";
        let seg = segment(text, &SplitOptions::default(), &CueMatcher::paper());
        let sentences: Vec<&str> = seg.sentences.iter().map(|s| &text[s.sentence.start..s.sentence.end]).collect();
        assert_eq!(sentences, vec!["So we have x. ", "Wait, let me\n", "check. ", "We\n", "get y."]);
        let per: Vec<Vec<&str>> =
            (0..sentences.len()).map(|i| seg.hits_of(i).iter().map(|h| &text[h.start..h.end]).collect()).collect();
        assert_eq!(per, vec![vec!["So", "we have"], vec!["Wait", "let me"], vec!["check"], vec![], vec![]]);
        let flags: Vec<(bool, bool)> = seg.sentences.iter().map(|s| (s.conclusion, s.verification)).collect();
        assert_eq!(flags, vec![(true, false), (false, true), (false, true), (false, false), (false, false)]);
        assert!(seg.hits_of(99).is_empty());
        // Inside display math a line break does not split, so the phrase stays whole.
        let math = "\\[\n\\text{we\nget}\n\\]";
        let seg = segment(math, &SplitOptions::default(), &only(&["we get"], false));
        assert_eq!(seg.hits.len(), 1);
    }
}
