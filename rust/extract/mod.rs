//! Answers in text: the final answer of a whole response, and every answer value a single
//! sentence states (the candidates A(s) that the anchor search compares with the reference).
//!
//! This module finds spans and answer strings; whether two answers are equal is decided by
//! `answer`. Every function takes any `&str`, never panics and runs in linear time.

mod boxes;
mod candidates;
pub(crate) mod commands;
mod final_answer;
mod lexer;
mod math_regions;
pub(crate) mod mixed_number;
mod number_words;
pub(crate) mod repeating_decimal;
mod think_tags;

pub use candidates::{extract_candidates, extract_candidates_with, Candidate, CandidateKind, WordValues};
pub use final_answer::{
    extract_final, extract_final_with, final_answer_in_tail, FinalAnswer, FinalRule, MAX_PHRASE_VALUE_BYTES,
};
pub use lexer::MAX_TEXT_BYTES;
pub(crate) use number_words::{cardinal, counted_fraction, denominator, is_operation_word, power_word, scale, Scale};
pub use think_tags::{
    tag_is_tokens, think_tag_preset_names, ThinkTags, AUTO_THINK_TAGS, THINK_CLOSE, THINK_OPEN, THINK_TAG_PRESETS,
};

/// The values a problem statement states, so that a candidate copied from the problem ("We
/// are told the perimeter is 12") can be told apart from a derived one.
///
/// It holds the texts of the problem's candidates; [`ProblemValues::contains`] compares texts
/// with white space removed, which catches verbatim copies cheaply. Equality in the
/// mathematical sense (`0.5` vs `\frac{1}{2}`) belongs to the answer engine, which can be run
/// over [`ProblemValues::texts`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProblemValues {
    texts: Vec<String>,
    compact: std::collections::HashSet<String>,
}

impl ProblemValues {
    /// Collects the candidate texts of `problem` (any length: all its sentences at once).
    pub fn from_problem(problem: &str) -> ProblemValues {
        let mut values = ProblemValues::default();
        for candidate in extract_candidates(problem) {
            if values.compact.insert(without_space(&candidate.text)) {
                values.texts.push(candidate.text);
            }
        }
        values
    }

    /// The distinct candidate texts, in order of first appearance.
    pub fn texts(&self) -> &[String] {
        &self.texts
    }

    /// Whether the problem states `candidate_text` verbatim, white space aside.
    pub fn contains(&self, candidate_text: &str) -> bool {
        self.compact.contains(&without_space(candidate_text))
    }
}

/// The contents of the outermost `\boxed{}` / `\fbox{}` of `text`, in order (a problem that
/// quotes an earlier subproblem's boxed solution).
pub fn boxed_contents(text: &str) -> Vec<&str> {
    boxes::outermost_boxes(text, 0..text.len()).into_iter().map(|b| &text[b.content]).collect()
}

/// Whether `problem` holds `text` verbatim, white space aside: a cheap necessary condition for
/// [`ProblemValues::contains`] (a candidate of the problem is a piece of its text).
pub fn states_verbatim(problem: &str, text: &str) -> bool {
    let needle = without_space(text);
    !needle.is_empty() && memchr::memmem::find(without_space(problem).as_bytes(), needle.as_bytes()).is_some()
}

fn without_space(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

#[cfg(test)]
mod properties {
    use super::*;
    use proptest::prelude::*;

    /// Pieces that exercise every rule, glued in any order with arbitrary characters.
    const FRAGMENTS: &[&str] = &[
        "$", "$$", r"\(", r"\)", r"\[", r"\]", r"\boxed{", r"\fbox{", r"\boxed ", "{", "}", r"\{", r"\}", "(", ")",
        "[", "]", r"\frac", r"\sqrt", r"\pi", r"\text{", r"\left(", r"\right)", r"\begin{pmatrix}", r"\end{pmatrix}",
        r"\\", "&", "=", "<", "≤", r"\approx", "≡", "mod", "+", "-", "*", "/", "^", "_", "!", "'", "|", ",", ";", ".",
        ":", "?", "...", "**", "√", "π", "²", "°", "%", "½", " ", "\n", "x", "n", "AB", "a", "I", "the answer is ",
        "Answer:", "**Final Answer**\n", "</think>", "option ", "(B)", "one", "twelve", "twenty-one", "two thirds",
        "17", "3.5", "1,000", ".5", "0", "Case 1", "5th", "sqrt(2)", "log_6", "e", "\0", "\u{10FFFF}", "é", "𝔸",
        "\u{200B}", "\r",
    ];

    fn mathy() -> impl Strategy<Value = String> {
        prop::collection::vec(
            prop_oneof![3 => prop::sample::select(FRAGMENTS).prop_map(str::to_string), 1 => any::<char>().prop_map(String::from)],
            0..60,
        )
        .prop_map(|parts| parts.concat())
    }

    fn check_candidates(text: &str) {
        let found = extract_candidates(text);
        for c in &found {
            assert!(c.start < c.end && c.end <= text.len(), "{c:?}");
            assert!(text.is_char_boundary(c.start) && text.is_char_boundary(c.end), "{c:?}");
            assert!(!c.text.is_empty());
            if !matches!(c.kind, CandidateKind::NumberWord | CandidateKind::Text) {
                assert_eq!(c.text, &text[c.start..c.end]);
            }
        }
        for pair in found.windows(2) {
            assert!((pair[0].start, pair[1].end) <= (pair[1].start, pair[0].end), "order {pair:?}");
            assert!((pair[0].start, pair[0].end) != (pair[1].start, pair[1].end), "duplicate span {pair:?}");
        }
    }

    fn check_final(response: &str) {
        if let Some(f) = extract_final(response) {
            assert!(f.start <= f.end && f.end <= response.len(), "{f:?}");
            assert!(response.is_char_boundary(f.start) && response.is_char_boundary(f.end));
            assert!(!f.text.is_empty());
            let think_close = response.find(THINK_CLOSE);
            assert_eq!(f.in_thinking, think_close.map_or(true, |p| f.end <= p), "{f:?}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        #[test]
        fn candidates_are_well_formed_on_any_text(text in any::<String>()) {
            check_candidates(&text);
        }

        #[test]
        fn candidates_are_well_formed_on_mathy_text(text in mathy()) {
            check_candidates(&text);
        }

        #[test]
        fn leaving_word_values_out_only_drops_their_kinds(text in mathy(), number_words: bool, stated_words: bool) {
            let words = WordValues { number_words, stated_words };
            let kept = |c: &Candidate| match c.kind {
                CandidateKind::NumberWord => number_words,
                CandidateKind::Choice | CandidateKind::Text => stated_words,
                _ => true,
            };
            let (all, left_out): (Vec<Candidate>, Vec<Candidate>) = extract_candidates(&text).into_iter().partition(kept);
            let some = extract_candidates_with(&text, words);
            for c in &all {
                prop_assert!(some.contains(c), "{:?} lost", c);
            }
            // A span a left-out reading took may keep its other reading.
            for c in some.iter().filter(|c| !all.contains(c)) {
                prop_assert!(left_out.iter().any(|o| (o.start, o.end) == (c.start, c.end)), "{:?} new", c);
            }
        }

        #[test]
        fn final_answers_are_well_formed_on_any_text(text in any::<String>()) {
            check_final(&text);
        }

        #[test]
        fn final_answers_are_well_formed_on_mathy_text(text in mathy()) {
            check_final(&text);
        }

        #[test]
        fn problem_values_contain_their_own_texts(text in mathy()) {
            let values = ProblemValues::from_problem(&text);
            for t in values.texts() {
                prop_assert!(values.contains(t));
                let padded = format!(" {} ", t);
                prop_assert!(values.contains(&padded));
            }
        }

        #[test]
        fn a_boxed_number_is_the_final_answer(n in any::<i64>(), before in mathy()) {
            let before = before.replace(THINK_CLOSE, "");
            let response = format!("{before}</think>so \\boxed{{{n}}}.");
            let f = extract_final(&response).unwrap();
            prop_assert_eq!(f.text, n.to_string());
            prop_assert_eq!(f.rule, FinalRule::BoxedAfterThink);
        }
    }

    #[test]
    fn problem_values_hold_what_the_problem_states() {
        let values = ProblemValues::from_problem("A rectangle has perimeter 12 and area $x^2 = 9$. Find x.");
        assert_eq!(values.texts(), ["12", "x^2 = 9", "x^2", "9"]);
        assert!(values.contains("12"));
        assert!(values.contains("x^2=9"));
        assert!(!values.contains("3"));
    }
}
