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
//! a "double-check" hit and a "check" hit). The automaton (Aho-Corasick, overlapping search)
//! looks for the first word of every cue in one pass; each raw match is then checked for the
//! boundaries and the remaining words, so a rejected match never hides a valid one.

use std::collections::HashMap;
use std::fmt;
use std::ops::Range;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder};

use crate::text::chars::{skip_space, word_boundary_after, word_boundary_before};
use crate::text::sentences::{split_sentences, Sentence, SplitOptions};

/// The paper's conclusion cues, in its order.
pub const PAPER_CONCLUSION_CUES: &[&str] = &[
    "therefore",
    "thus",
    "hence",
    "so",
    "answer",
    "solution",
    "result",
    "final",
    "indeed",
    "conclude",
    "equals",
    "valid",
    "set",
    "maybe",
    "seem",
    "perhaps",
    "we get",
    "we have",
    "i get",
    "would be",
    "should be",
    "it is",
    "it's",
    "that's",
    "lead to",
    "value of",
    "the only",
    "correct option",
    "maximum possible",
];

/// The paper's verification cues, in its order.
pub const PAPER_VERIFICATION_CUES: &[&str] = &[
    "check",
    "verify",
    "confirm",
    "wait",
    "make sure",
    "double-check",
    "let me",
    "let's",
    "straightforward",
    "miss anything",
    "is that right",
    "is that correct",
    "is that all",
];

/// Suffixes the last word of a cue may carry when inflections are enabled.
pub const INFLECTION_SUFFIXES: &[&str] = &["s", "es", "d", "ed", "ing"];

/// Most apostrophes a cue's first word may hold: the automaton gets one pattern per spelling
/// (`'` or `’` at each), so this bounds its size at 16 spellings per cue.
pub const MAX_APOSTROPHES: usize = 4;

/// Which list a cue comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CueKind {
    Conclusion,
    Verification,
}

impl CueKind {
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
    /// The cue repeats an earlier one of the same list (after normalisation).
    Duplicate { kind: CueKind, index: usize, cue: String },
    /// The cue's first word holds more than [`MAX_APOSTROPHES`] apostrophes.
    TooManyApostrophes { kind: CueKind, index: usize, cue: String },
    /// The automaton could not be built (too many or too long cues).
    TooLarge(String),
}

impl fmt::Display for CueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CueError::Empty { kind, index } => {
                write!(f, "{} cue {index} is empty", kind.as_str())
            }
            CueError::Duplicate { kind, index, cue } => {
                write!(f, "{} cue {index} ({cue:?}) repeats an earlier cue", kind.as_str())
            }
            CueError::TooManyApostrophes { kind, index, cue } => write!(
                f,
                "{} cue {index} ({cue:?}) has more than {MAX_APOSTROPHES} apostrophes in its first word",
                kind.as_str()
            ),
            CueError::TooLarge(why) => write!(f, "cue lists too large: {why}"),
        }
    }
}

impl std::error::Error for CueError {}

/// The canonical form of a cue: `’` -> `'`, ASCII lower case, words separated by one space.
/// `None` when nothing but whitespace is left.
pub fn normalize_cue(cue: &str) -> Option<String> {
    let words: Vec<String> =
        cue.split(char::is_whitespace).filter(|w| !w.is_empty()).map(|w| w.replace('’', "'").to_ascii_lowercase()).collect();
    (!words.is_empty()).then(|| words.join(" "))
}

/// A cue after its first word: what must follow a raw automaton match.
#[derive(Debug, Clone)]
struct CueTail {
    kind: CueKind,
    index: usize,
    /// Words after the first, normalised; each preceded by a whitespace run in the text.
    words: Vec<Vec<u8>>,
    /// Whether inflection suffixes may follow (inflections on, cue ends in an ASCII letter).
    inflectable: bool,
}

/// Finds conclusion and verification cues; build once, use from many threads.
#[derive(Debug, Clone)]
pub struct CueMatcher {
    conclusion: Vec<String>,
    verification: Vec<String>,
    inflections: bool,
    automaton: AhoCorasick<u32>,
    /// For each automaton pattern (a spelling of a first word): indices into `tails`.
    tails_of_pattern: Vec<Vec<usize>>,
    tails: Vec<CueTail>,
}

impl CueMatcher {
    /// A matcher for the given lists (any order, any case; see [`normalize_cue`]).
    pub fn new<S: AsRef<str>>(conclusion: &[S], verification: &[S], inflections: bool) -> Result<Self, CueError> {
        let conclusion = normalize_list(conclusion, CueKind::Conclusion)?;
        let verification = normalize_list(verification, CueKind::Verification)?;
        let mut patterns: Vec<Vec<u8>> = Vec::new();
        let mut pattern_ids: HashMap<Vec<u8>, usize> = HashMap::new();
        let mut tails_of_pattern: Vec<Vec<usize>> = Vec::new();
        let mut tails = Vec::new();
        let lists = [(CueKind::Conclusion, &conclusion), (CueKind::Verification, &verification)];
        for (kind, list) in lists {
            for (index, cue) in list.iter().enumerate() {
                let mut words = cue.split(' ');
                let first = words.next().unwrap_or_default();
                if first.matches('\'').count() > MAX_APOSTROPHES {
                    return Err(CueError::TooManyApostrophes { kind, index, cue: cue.clone() });
                }
                let tail = tails.len();
                tails.push(CueTail {
                    kind,
                    index,
                    words: words.map(|w| w.as_bytes().to_vec()).collect(),
                    inflectable: inflections && cue.ends_with(|c: char| c.is_ascii_alphabetic()),
                });
                for spelling in apostrophe_spellings(first) {
                    let id = *pattern_ids.entry(spelling.clone()).or_insert_with(|| {
                        patterns.push(spelling);
                        tails_of_pattern.push(Vec::new());
                        patterns.len() - 1
                    });
                    tails_of_pattern[id].push(tail);
                }
            }
        }
        let automaton = AhoCorasickBuilder::new()
            .ascii_case_insensitive(true)
            .dfa(true)
            .build_with_size::<u32, _, _>(&patterns)
            .map_err(|e| CueError::TooLarge(e.to_string()))?;
        Ok(CueMatcher { conclusion, verification, inflections, automaton, tails_of_pattern, tails })
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
        let mut hits = Vec::new();
        for m in self.automaton.find_overlapping_iter(text) {
            if !word_boundary_before(text, m.start()) {
                continue;
            }
            for &t in &self.tails_of_pattern[m.pattern()] {
                let tail = &self.tails[t];
                if let Some(end) = self.match_tail(text, m.end(), tail) {
                    hits.push(CueHit { kind: tail.kind, cue: tail.index, start: m.start(), end });
                }
            }
        }
        hits.sort_unstable_by_key(|h| (h.start, h.end, h.kind, h.cue));
        hits
    }

    /// End of the cue whose first word ends at `pos`, if its remaining words and its right
    /// boundary are there.
    fn match_tail(&self, text: &str, mut pos: usize, tail: &CueTail) -> Option<usize> {
        let bytes = text.as_bytes();
        for word in &tail.words {
            let after = skip_space(text, pos);
            if after == pos {
                return None;
            }
            pos = match_word(bytes, after, word)?;
        }
        if word_boundary_after(text, pos) {
            return Some(pos);
        }
        if tail.inflectable {
            for suffix in INFLECTION_SUFFIXES {
                let end = pos + suffix.len();
                let spelled = bytes.get(pos..end).map_or(false, |s| s.eq_ignore_ascii_case(suffix.as_bytes()));
                if spelled && word_boundary_after(text, end) {
                    return Some(end);
                }
            }
        }
        None
    }
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

/// Every spelling of `word` with each `'` written either `'` or `’`.
fn apostrophe_spellings(word: &str) -> Vec<Vec<u8>> {
    let mut spellings = vec![Vec::new()];
    for c in word.chars() {
        if c == '\'' {
            spellings = spellings
                .into_iter()
                .flat_map(|s| {
                    let mut typographic = s.clone();
                    typographic.extend_from_slice("’".as_bytes());
                    let mut straight = s;
                    straight.push(b'\'');
                    [straight, typographic]
                })
                .collect();
        } else {
            let mut buf = [0u8; 4];
            for s in &mut spellings {
                s.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
        }
    }
    spellings
}

/// End of `word` (normalised) spelled at `bytes[at..]`, ASCII case-insensitively, `'` also as `’`.
fn match_word(bytes: &[u8], at: usize, word: &[u8]) -> Option<usize> {
    const TYPOGRAPHIC_APOSTROPHE: &[u8] = "’".as_bytes();
    let mut i = at;
    for &w in word {
        if w == b'\'' && bytes.get(i..i + 3) == Some(TYPOGRAPHIC_APOSTROPHE) {
            i += 3;
        } else if bytes.get(i).map_or(false, |b| b.eq_ignore_ascii_case(&w)) {
            i += 1;
        } else {
            return None;
        }
    }
    Some(i)
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
    let found = matcher.find(text);
    let mut hits = Vec::with_capacity(found.len());
    let mut out = Vec::with_capacity(sentences.len());
    let mut next = found.iter().peekable();
    for sentence in sentences {
        let first = hits.len();
        // Hits are sorted by start and sentences tile the text from 0, so every hit starting
        // before this sentence's end starts inside it.
        while let Some(hit) = next.next_if(|h| h.start < sentence.end) {
            if hit.end <= sentence.end {
                hits.push(*hit);
            }
        }
        let mine = &hits[first..];
        out.push(SentenceCues {
            sentence,
            hits: first..hits.len(),
            conclusion: mine.iter().any(|h| h.kind == CueKind::Conclusion),
            verification: mine.iter().any(|h| h.kind == CueKind::Verification),
        });
    }
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
        assert_eq!(matched(&m, "we get, We  get, we\u{a0}get, we\nget, weget, we gets"), vec![
            "we get",
            "We  get",
            "we\u{a0}get",
            "we\nget"
        ]);
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
    fn invalid_lists_are_rejected() {
        assert_eq!(CueMatcher::new(&["ok", " \n"], &[], false).unwrap_err(), CueError::Empty {
            kind: CueKind::Conclusion,
            index: 1
        });
        assert!(matches!(
            CueMatcher::new(&[], &["Wait", "wait"], false).unwrap_err(),
            CueError::Duplicate { kind: CueKind::Verification, index: 1, .. }
        ));
        assert!(matches!(CueMatcher::new(&["a'b'c'd'e'f"], &[], false), Err(CueError::TooManyApostrophes { .. })));
        assert!(CueMatcher::new(&["a'b'c'd'e"], &[], false).is_ok());
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
