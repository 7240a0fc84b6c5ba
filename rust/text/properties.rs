//! Property tests of the text layer: sentences tile any text on char boundaries, never split
//! inside a math region, and cue hits lie inside their sentence on word boundaries. Inputs are
//! arbitrary strings (every Unicode plane, NUL) and strings assembled from the tokens that
//! matter to the rules (delimiters, terminators, abbreviations, labels, cues).

use proptest::prelude::*;

use crate::text::chars::{is_space, skip_space, trim_space_back, word_boundary_after, word_boundary_before};
use crate::text::cues::{
    for_each_word, normalize_cue, segment, CueKind, CueMatcher, INFLECTION_SUFFIXES, PAPER_CONCLUSION_CUES,
    PAPER_VERIFICATION_CUES,
};
use crate::text::math_regions::math_regions;
use crate::text::sentences::{split_sentences, SplitOptions};

#[rustfmt::skip]
const TOKENS: &[&str] = &[
    "$", "$$", "\\(", "\\)", "\\[", "\\]", "\\begin{align}", "\\end{align}", "\\begin{cases}",
    "\\end{cases}", "\\boxed{", "\\fbox{", "{", "}", "\\{", "\\", "\\\\", ".", "!", "?", "...", "?!", ")",
    "\"", "’", "**", " ", " ", "  ", "\t", "\n", "\n\n", "\r\n", "\u{a0}", "\u{2028}", "e.g.", "etc.",
    "No.", "no.", "Dr.", "1.", "12.", "a.", "iv.", "Step 2.", "# ", "- ", "3.14", "5", "x", "word", "The",
    "so", "also", "So", "wait", "Wait", "let’s", "Let's", "we", "get", "double-check", "it is", "é", "日本",
    "😀", "\0", "_", "Checks",
];

fn tokenish() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TOKENS), 0..48).prop_map(|t| t.concat())
}

fn any_text() -> impl Strategy<Value = String> {
    prop_oneof![tokenish(), any::<String>(), "[\\x00-\\x7f]{0,64}", "[ .!?\\n$\\\\{}()\\[\\]a-c0-9]{0,64}"]
}

/// Texts long enough to span several of the 64-byte blocks the word walk works in.
fn long_text() -> impl Strategy<Value = String> {
    prop::collection::vec(any_text(), 0..8).prop_map(|t| t.concat())
}

/// The maximal runs of word characters, found one character at a time: what
/// [`for_each_word`] computes with block masks.
fn words_one_by_one(text: &str) -> Vec<(usize, usize)> {
    let mut words = Vec::new();
    let mut open = None;
    for (i, c) in text.char_indices() {
        match (c == '_' || c.is_alphanumeric(), open) {
            (true, None) => open = Some(i),
            (false, Some(start)) => {
                words.push((start, i));
                open = None;
            }
            _ => {}
        }
    }
    if let Some(start) = open {
        words.push((start, text.len()));
    }
    words
}

/// Every hit of `cues` in `text` by brute force: each cue is tried at every character boundary,
/// character by character (what [`CueMatcher::find`] computes from anchor words). See the
/// [`crate::text::cues`] documentation for the rules spelled out here.
fn hits_by_brute_force(text: &str, matcher: &CueMatcher) -> Vec<(usize, usize, CueKind, usize)> {
    let is_word = |c: char| c == '_' || c.is_alphanumeric();
    let boundary_before = |i: usize| !text[..i].chars().next_back().is_some_and(is_word);
    let boundary_after = |i: usize| !text[i..].chars().next().is_some_and(is_word);
    // End of `cue` matched from `i`, before any suffix.
    let spell = |cue: &str, mut i: usize| -> Option<usize> {
        for c in cue.chars() {
            let rest = &text[i..];
            if c == ' ' {
                let run = rest.len() - rest.trim_start_matches(char::is_whitespace).len();
                if run == 0 {
                    return None;
                }
                i += run;
            } else if c == '\'' && rest.starts_with('’') {
                i += '’'.len_utf8();
            } else {
                let t = rest.chars().next()?;
                if !(t == c || (t.is_ascii() && t.to_ascii_lowercase() == c)) {
                    return None;
                }
                i += t.len_utf8();
            }
        }
        Some(i)
    };
    let mut hits = Vec::new();
    for kind in CueKind::ALL {
        for (index, cue) in matcher.cues(kind).iter().enumerate() {
            let inflectable = matcher.inflections() && cue.ends_with(|c: char| c.is_ascii_alphabetic());
            for start in (0..=text.len()).filter(|&i| text.is_char_boundary(i) && boundary_before(i)) {
                let Some(end) = spell(cue, start) else { continue };
                if boundary_after(end) {
                    hits.push((start, end, kind, index));
                } else if inflectable {
                    let suffixed = INFLECTION_SUFFIXES.iter().find_map(|s| {
                        let e = end + s.len();
                        let spelled = text.get(end..e).is_some_and(|t| t.eq_ignore_ascii_case(s));
                        (spelled && boundary_after(e)).then_some(e)
                    });
                    if let Some(e) = suffixed {
                        hits.push((start, e, kind, index));
                    }
                }
            }
        }
    }
    hits.sort();
    hits
}

#[rustfmt::skip]
const CUE_TOKENS: &[&str] = &[
    "so", "So", "SO", "also", "wait", "WAIT", "a", "A", "b", "c", "x", "X", "x_1", "1", "(", ")", "-", "+",
    "'", "’", "tis", "called", "été", "ÉTÉ", "don", "t", "we", "get", "check", "let", "me", "it", "is",
    "that", "the", "only", "double", "seem", "set", "s", "es", "d", "ed", "ing", "ED", " ", "  ", "\n",
    "\u{a0}", "\u{3000}", ".", ",", "é", "²", "日", "_", "therefore", "maximum", "possible", "make",
    "sure", "miss", "anything", "right", "correct", "all",
];

/// Texts made of cue pieces, for the brute-force comparison.
fn cue_text() -> impl Strategy<Value = String> {
    prop_oneof![prop::collection::vec(prop::sample::select(CUE_TOKENS), 0..80).prop_map(|t| t.concat()), long_text(),]
}

/// Cue lists for the brute-force comparison: the paper's, and cues with punctuation around or
/// inside the anchor, non-ASCII letters, digits and shared anchors.
fn cue_lists() -> impl Strategy<Value = (Vec<&'static str>, Vec<&'static str>)> {
    prop_oneof![
        Just((PAPER_CONCLUSION_CUES.to_vec(), PAPER_VERIFICATION_CUES.to_vec())),
        Just((
            vec!["(a)", "'tis so", "-x", "so-called x", "c++", "été x", "x_1", "don’t", "so", "also so", "we get"],
            vec!["so", "wait", "wait a", "check", "a b c", "x"],
        )),
    ]
}

fn small_bounds() -> impl Strategy<Value = SplitOptions> {
    prop_oneof![
        Just(SplitOptions::default()),
        (0usize..24, 0usize..48, 0usize..24).prop_map(|(i, d, b)| SplitOptions {
            max_inline_bytes: i,
            max_display_bytes: d,
            max_boxed_bytes: b
        }),
    ]
}

/// A line holding only whitespace: `\n`, whitespace other than `\n`, `\n`.
fn has_blank_line(s: &str) -> bool {
    s.match_indices('\n').any(|(i, _)| s[i + 1..].chars().take_while(|&c| c == '\n' || is_space(c)).any(|c| c == '\n'))
}

fn check_sentences(text: &str, opts: &SplitOptions) -> Result<(), TestCaseError> {
    let sentences = split_sentences(text, opts);
    if text.is_empty() {
        prop_assert!(sentences.is_empty());
        return Ok(());
    }
    prop_assert_eq!(sentences[0].start, 0);
    prop_assert_eq!(sentences.last().map(|s| s.end), Some(text.len()));
    let all_space = text.chars().all(is_space);
    for (k, s) in sentences.iter().enumerate() {
        prop_assert!(s.start < s.end, "empty sentence {:?}", s);
        prop_assert!(s.start <= s.content_end && s.content_end <= s.end);
        for off in [s.start, s.end, s.content_end] {
            prop_assert!(text.is_char_boundary(off));
        }
        if k + 1 < sentences.len() {
            prop_assert_eq!(s.end, sentences[k + 1].start);
        }
        if k > 0 {
            prop_assert!(!text[s.start..].starts_with(is_space), "sentence starts with whitespace");
        }
        prop_assert!(text[s.content_end..s.end].chars().all(is_space));
        if all_space {
            prop_assert_eq!(s.content_end, s.start);
        } else {
            prop_assert!(!text[..s.content_end].ends_with(is_space) && s.content_end > s.start);
        }
    }
    let regions = math_regions(text, opts);
    for w in regions.windows(2) {
        prop_assert!(w[0].end <= w[1].start, "overlapping regions");
    }
    for r in &regions {
        prop_assert!(r.start < r.end && text.is_char_boundary(r.start) && text.is_char_boundary(r.end));
        prop_assert!(!has_blank_line(&text[r.start..r.end]), "blank line inside math {:?}", r);
        for s in &sentences {
            prop_assert!(!(r.start < s.start && s.start < r.end), "sentence starts inside math {:?}", r);
        }
    }
    Ok(())
}

/// Cases per property: `PROPTEST_CASES` when set (long fuzzing runs), else 2000.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(2000)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn sentences_tile_every_text(text in any_text(), opts in small_bounds()) {
        check_sentences(&text, &opts)?;
    }

    #[test]
    fn cue_hits_lie_inside_sentences_on_word_boundaries(text in any_text(), inflections in any::<bool>()) {
        let matcher = CueMatcher::new(PAPER_CONCLUSION_CUES, PAPER_VERIFICATION_CUES, inflections).unwrap();
        let seg = segment(&text, &SplitOptions::default(), &matcher);
        for (i, s) in seg.sentences.iter().enumerate() {
            for h in seg.hits_of(i) {
                prop_assert!(s.sentence.start <= h.start && h.end <= s.sentence.end);
                prop_assert!(text.is_char_boundary(h.start) && text.is_char_boundary(h.end));
                prop_assert!(word_boundary_before(&text, h.start) && word_boundary_after(&text, h.end));
                let cue = &matcher.cues(h.kind)[h.cue];
                let spelled = normalize_cue(&text[h.start..h.end]).unwrap_or_default();
                prop_assert!(spelled.starts_with(cue.as_str()), "{:?} is not {:?}", spelled, cue);
            }
            prop_assert_eq!(s.conclusion, seg.hits_of(i).iter().any(|h| h.kind == CueKind::Conclusion));
        }
        // segment() keeps exactly the hits of find() that fit in one sentence.
        let inside = matcher.find(&text).into_iter().filter(|h| {
            seg.sentences.iter().any(|s| s.sentence.start <= h.start && h.end <= s.sentence.end)
        }).count();
        prop_assert_eq!(inside, seg.hits.len());
    }

    #[test]
    fn whitespace_skipping_matches_char_by_char(text in any_text()) {
        // Every offset, char boundary or not, and past the end: the helpers are total.
        for i in 0..=text.len() + 1 {
            let forward = match text.get(i..) {
                Some(rest) => i + rest.len() - rest.trim_start_matches(is_space).len(),
                None => i.min(text.len()),
            };
            prop_assert_eq!(skip_space(&text, i), forward, "skip_space at {}", i);
            // Callers pass a sentence start as the floor: a char boundary.
            for floor in [0, i / 2, i].into_iter().filter(|&f| text.is_char_boundary(f)) {
                let back = match text.get(..i) {
                    Some(head) => floor.max(head.trim_end_matches(is_space).len()),
                    None => i,
                };
                prop_assert_eq!(trim_space_back(&text, i, floor), back, "trim_space_back at {} from {}", i, floor);
            }
        }
    }

    #[test]
    fn the_word_walk_finds_every_maximal_word(text in long_text()) {
        let mut words = Vec::new();
        for_each_word(&text, |start, end| words.push((start, end)));
        prop_assert_eq!(words, words_one_by_one(&text));
    }

    #[test]
    fn find_matches_brute_force(text in cue_text(), lists in cue_lists(), inflections in any::<bool>()) {
        let matcher = CueMatcher::new(&lists.0, &lists.1, inflections).unwrap();
        let found: Vec<_> = matcher.find(&text).into_iter().map(|h| (h.start, h.end, h.kind, h.cue)).collect();
        prop_assert_eq!(found, hits_by_brute_force(&text, &matcher));
    }

    #[test]
    fn a_cue_between_non_word_characters_is_found(
        prefix in "[ .,;:!?()\\n]{0,3}",
        cue in prop::sample::select(PAPER_CONCLUSION_CUES),
        suffix in "[ .,;:!?()\\n]{0,3}",
        upper in any::<bool>(),
    ) {
        let body = if upper { cue.to_ascii_uppercase() } else { cue.to_string() };
        let text = format!("{prefix}{body}{suffix}");
        let hits = CueMatcher::paper().find(&text);
        let start = prefix.len();
        prop_assert!(hits.iter().any(|h| h.start == start && h.end == start + body.len()), "{:?}", text);
    }

    #[test]
    fn a_cue_glued_to_a_letter_is_not_found(
        cue in prop::sample::select(PAPER_VERIFICATION_CUES),
        glue_left in any::<bool>(),
        letter in "[a-zA-Z0-9_é]",
    ) {
        let text = if glue_left { format!("{letter}{cue}") } else { format!("{cue}{letter}") };
        let matcher = CueMatcher::new::<&str>(&[], &[cue], false).unwrap();
        prop_assert!(matcher.find(&text).is_empty(), "{:?}", text);
    }
}
