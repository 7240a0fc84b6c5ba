//! Rule-based localisation of the reasoning anchor (APR paper, section 3.2).
//!
//! The thinking is split into sentences s_1..s_N. With A(s) the candidate answers a sentence
//! states and E the equivalence test against the reference answer:
//!
//! ```text
//! I_math = { i : some a in A(s_i) is equivalent to y_ref }
//! I_ctx  = { i : Con(s_i) or Ver(s_{i+1}) }      (conclusion cue here, verification cue next)
//! k*     = min((I_math ∩ I_ctx) ∪ {N})
//! ```
//!
//! [`AnchorMode::Paper`] is exactly that rule. Other modes add refinements the paper names as
//! its hazards (values copied from the problem statement, intermediate numbers, "so" that
//! introduces a step); each refinement is a field of [`AnchorOptions`] so it can be measured on
//! its own (`benches/anchor_devset.py`). A comparison that the native engine cannot decide
//! (Unknown) never makes a sentence an anchor: an undecided match can only move the anchor
//! later, which shortens the penalised tail, never lengthens it.

use std::ops::Range;

mod figures;

use figures::Figures;

use crate::answer::{compare, matching_brace, superscript_digit, unreduced_forms, Answer, Policy, Reason, Verdict};
use crate::extract::{
    cardinal, extract_candidates_with, states_verbatim, Candidate, CandidateKind, ProblemValues, WordValues,
};
use crate::hash::FastMap;
use crate::text::byte_sets::{any_hit, has_ascii_digit};
use crate::text::cues::CueMatcher;
use crate::text::restatements::{
    counted_nouns, follows_argument_word, has_property, noun_stem, opens_clause, precedes_operation_word, states_task,
    two_words_before, word_after, word_before,
};
use crate::text::sentences::Sentence;

/// When a sentence's context admits it as an anchor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContextRule {
    /// Con(s_i) or Ver(s_{i+1}): the paper's rule.
    Paper,
    /// Con(s_i), Ver(s_i) or Ver(s_{i+1}): a verification cue in the sentence itself also counts
    /// ("Let me check: 3 + 4 = 7" states and checks at once).
    Loose,
    /// No context requirement: the first sentence with a matching candidate.
    None,
}

/// The refinements, each independent, that a mode switches on.
#[derive(Debug, Clone, PartialEq)]
pub struct AnchorOptions {
    pub context: ContextRule,
    /// Ignore candidates whose text the problem statement states verbatim (a restatement of
    /// the data is not an answer). Needs the problem text; without it this does nothing.
    pub skip_problem_values: bool,
    /// Ignore candidates the problem mentions ([`Problem::mentions`]) in a sentence that
    /// states the task ([`states_task`]: "So I need to find the sum of the divisors of 284."),
    /// an assignment the problem states, restated ([`restates_assignment`]: `n = 5` from
    /// "... is one such sequence, with $n = 5$."), and a count the problem gives, restated with
    /// its noun ("We have 12 letters" for "The twelve letters ..."; [`counted_nouns`]).
    /// A narrow form of `skip_problem_values`, which also drops the answer where the model
    /// derives a value that the problem happens to give. Needs the problem text.
    pub skip_task_statements: bool,
    /// Ignore candidates the problem mentions where they are the argument of an operation
    /// ([`follows_argument_word`]: "factoring 284", "divided by 100", "a power of 2", "remove
    /// 284"), a label the problem gives ("labeled 124"), or an operand before an operation word
    /// ([`precedes_operation_word`]: "110 divided by 3"). Needs the problem text.
    pub skip_problem_arguments: bool,
    /// Ignore values the sentence describes instead of stating them as a result: the subject
    /// of a factorization ("But 8 is 4*2", "I can write 25 as 5^2"; [`is_factored_value`]),
    /// and a value the problem mentions as the subject of a property ("284 is an even
    /// number", "Since 4 is a power of 2"; [`has_property`], which needs the problem text).
    pub skip_described_values: bool,
    /// Ignore an assignment tried as an input, and its value: `n=1` in "So, if n=1, how many
    /// sequences are there?", `y = 0` in "What if I set y = 0?" ([`is_trial_value`]).
    pub skip_trial_values: bool,
    /// After finding k*, move back over the sentences right before it that state the same
    /// value without a cue: "h = 45/9 = 5." then "So the height is 5 cm." anchors at the
    /// computation, where the value first appears. When no sentence in context states the
    /// value, the last sentence of the thinking, which ends it, is a match if it states the
    /// value, and the walk back starts there.
    pub backtrack: bool,
    /// A candidate more complex than the reference by more than this many (numeric literals
    /// plus operations, see [`complexity`]) is an unsimplified expression on the way to the
    /// value (`(5/2 · 56)/(-10)` or `\sqrt{291600}` for 540), not a statement of it; `None`
    /// counts every candidate.
    pub max_extra_complexity: Option<usize>,
    /// How many sentences without the value may separate the first statement from the next
    /// one when backtracking ("C(10,2) = 45." / "However, ..." / "Therefore, ... is 45.").
    pub backtrack_gap: usize,
    /// Count number words ("four equations") as candidates. Off, a count that happens to equal
    /// the answer cannot anchor; answers stated in words are rare in math traces.
    pub number_words: bool,
    /// A `\boxed{}` in a sentence is a conclusion cue by itself.
    pub boxed_is_conclusion: bool,
    /// Count the items of an enumeration (`x = 0 or x = 5`, `k = 1, 2, ..., 8`) one by one.
    /// Off, only the enumeration as a whole can match: listing a value among others is not
    /// committing to it. A list of assignments that ends with a derived quantity ("m=40, n=20,
    /// p=3, sum=63") is no enumeration of its last item ([`derived_result`]).
    pub list_items: bool,
    /// Count the sides of inequalities (`3` in `a \geq 3`), the bounds of a range in words
    /// (`0` in "0 to 18", "between 0 and 18") and the value of a comparison in words ("greater
    /// than 3", "different from 1"). Off, a bound is not a value.
    pub inequality_sides: bool,
    /// A candidate equal to a reference but in a less simplified form than it (more of the
    /// forms [`unreduced_forms`] counts: `8/32` or `\sqrt{117}` against `1/4` or `3\sqrt{13}`)
    /// is a step on the way to the value, not a statement of it.
    pub skip_unreduced_forms: bool,
    /// A sentence that announces the answer and ends with a colon ("So, the final answer is:",
    /// "The answer would be:") puts the sentence after it in context: the value stated on the
    /// next line. Other colons ("So, Equation 2 becomes:") introduce steps.
    pub colon_carries_cue: bool,
    /// A candidate equal to a reference that is no plain integer shows one of the reference's
    /// figures ([`Figures`]): one of its numerals, the leading digits of its value, or a
    /// decimal coefficient of one of its fractions (`5/36`, `0.25`, `0.25\pi`); one that
    /// writes the value with other numbers computes it (`60/0.7` for `600/7`). Tested on
    /// sentences before their candidates are extracted, like the digits of an integer
    /// reference; only with `max_extra_complexity == Some(0)`, `skip_unreduced_forms` and
    /// without `number_words` (what makes the figures a necessary condition). When the
    /// reference is the response's own final answer ([`AnchorSearch::own_answer`]), all of
    /// its numerals together (`11\sqrt{5}+11` does not state `11(1+\sqrt{5})`: it is another
    /// form of it), or, for a plain rational p/q, p and q.
    pub reference_figures: bool,
}

impl AnchorOptions {
    /// Whether a rule in effect reads the problem statement (else the search is given none).
    pub fn reads_problem(&self) -> bool {
        self.skip_problem_values
            || self.skip_task_statements
            || self.skip_problem_arguments
            || self.skip_described_values
    }
}

/// Named sets of options. `Paper` is the rule exactly as published.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AnchorMode {
    Paper,
    Default,
}

impl AnchorMode {
    pub const ALL: [AnchorMode; 2] = [AnchorMode::Paper, AnchorMode::Default];

    pub fn as_str(self) -> &'static str {
        match self {
            AnchorMode::Paper => "paper",
            AnchorMode::Default => "default",
        }
    }

    pub fn from_name(name: &str) -> Option<AnchorMode> {
        AnchorMode::ALL.into_iter().find(|m| m.as_str() == name)
    }

    pub fn options(self) -> AnchorOptions {
        match self {
            AnchorMode::Paper => AnchorOptions {
                context: ContextRule::Paper,
                skip_problem_values: false,
                skip_task_statements: false,
                skip_problem_arguments: false,
                skip_described_values: false,
                skip_trial_values: false,
                backtrack: false,
                max_extra_complexity: None,
                backtrack_gap: 0,
                number_words: true,
                boxed_is_conclusion: false,
                list_items: true,
                inequality_sides: true,
                skip_unreduced_forms: false,
                colon_carries_cue: false,
                reference_figures: false,
            },
            AnchorMode::Default => AnchorOptions {
                context: ContextRule::Paper,
                skip_problem_values: false,
                skip_task_statements: true,
                skip_problem_arguments: true,
                skip_described_values: true,
                skip_trial_values: true,
                backtrack: true,
                backtrack_gap: 0,
                max_extra_complexity: Some(0),
                number_words: false,
                boxed_is_conclusion: true,
                list_items: false,
                inequality_sides: false,
                skip_unreduced_forms: true,
                colon_carries_cue: true,
                reference_figures: true,
            },
        }
    }
}

/// Where the anchor is, in the thinking text the search was given.
#[derive(Debug, Clone, PartialEq)]
pub struct Anchor {
    /// k*, 0-based. When no sentence qualifies this is the last sentence (k* = N) and `found`
    /// is false. `None` only for a thinking without any sentence (empty text).
    pub sentence: Option<usize>,
    pub found: bool,
    pub num_sentences: usize,
    /// Byte span of the anchor sentence (whitespace after it included).
    pub sentence_span: Range<usize>,
    /// Byte offset one past the anchor sentence's last non-whitespace character: the anchor
    /// character is the one that ends here.
    pub content_end: usize,
    /// The candidate that matched: byte span in the thinking and its text.
    pub matched: Option<(Range<usize>, String)>,
    /// Candidate comparisons before the anchor that the native engine could not decide. The
    /// search needs only proofs of equality ([`Policy::prove_not_equal`] is off), so relations
    /// that are not proportional count here; values that differ at a real point do not.
    pub undecided: usize,
}

impl Anchor {
    /// No anchor and no sentence: the anchor of a thinking without any sentence, and what a
    /// caller reports for a thinking it did not search.
    pub const NO_SENTENCE: Anchor = Anchor {
        sentence: None,
        found: false,
        num_sentences: 0,
        sentence_span: 0..0,
        content_end: 0,
        matched: None,
        undecided: 0,
    };
}

/// The problem statement of one search. Its values ([`ProblemValues`]) are read the first time
/// a rule asks for them, which most searches never do.
pub struct Problem<'p> {
    text: &'p str,
    values: std::cell::OnceCell<ProblemValues>,
    counts: std::cell::OnceCell<Vec<(u64, String)>>,
}

impl<'p> Problem<'p> {
    pub fn new(text: &'p str) -> Problem<'p> {
        Problem { text, values: std::cell::OnceCell::new(), counts: std::cell::OnceCell::new() }
    }

    fn values(&self) -> &ProblemValues {
        self.values.get_or_init(|| ProblemValues::from_problem(self.text))
    }

    /// Whether the problem gives the integer `value` as a count of `noun`: "We have 12
    /// letters" restates "The twelve letters ..." ([`counted_nouns`]).
    fn counts(&self, value: &str, noun: &str) -> bool {
        let Ok(value) = value.trim().parse::<u64>() else { return false };
        let noun = noun_stem(noun);
        self.counts.get_or_init(|| counted_nouns(self.text, cardinal)).iter().any(|(v, n)| *v == value && *n == noun)
    }

    /// Whether the problem mentions `candidate_text`: an integer written anywhere, inside a
    /// formula too ([`Digits::stated_in`]: `4` is mentioned by `\log_{4} T`, `1` is not
    /// mentioned by `16`), or any other value stated verbatim as one of the problem's values
    /// ([`ProblemValues::contains`], after the cheap necessary condition [`states_verbatim`]).
    fn mentions(&self, candidate_text: &str) -> bool {
        let trimmed = candidate_text.trim();
        if !trimmed.is_empty() && trimmed.bytes().all(|b| b.is_ascii_digit()) {
            return Digits::new(trimmed).stated_in(self.text.as_bytes());
        }
        states_verbatim(self.text, candidate_text) && self.values().contains(candidate_text)
    }
}

/// Everything one search needs besides the text, built once per batch or per rollout.
pub struct AnchorSearch<'a> {
    pub options: &'a AnchorOptions,
    pub policy: &'a Policy,
    /// The references are the response's own final answer, written as the model writes (the
    /// reward's default), not a ground truth from a dataset, which may use another notation:
    /// with [`AnchorOptions::reference_figures`], a candidate must then show every numeral of
    /// a reference (or of another numeral set of a plain rational: [`Figures`]).
    pub own_answer: bool,
}

impl AnchorSearch<'_> {
    /// Locates the anchor in `thinking`, split into `sentences`, against any of `references`
    /// (parsed once by the caller).
    ///
    /// Cheapest test first: a sentence must hold the reference's digits when that is a
    /// necessary condition ([`Self::prefilters`]), then its context (cue flags,
    /// computed only for sentences that get this far, each at most once), then a candidate
    /// equal to a reference. Nothing after the anchor is read, except the next sentence's cues.
    pub fn locate(
        &self,
        thinking: &str,
        sentences: &[Sentence],
        cues: &CueMatcher,
        references: &[Answer],
        problem: Option<&Problem<'_>>,
    ) -> Anchor {
        let n = sentences.len();
        let text_of = |i: usize| &thinking[sentences[i].start..sentences[i].content_end];
        let mut flags: Vec<Option<(bool, bool)>> = vec![None; n];
        let mut flags_of = |i: usize| -> (bool, bool) {
            if i >= n {
                return (false, false);
            }
            *flags[i].get_or_insert_with(|| cues.sentence_flags(&thinking[sentences[i].start..sentences[i].end]))
        };
        let unreduced = self
            .options
            .skip_unreduced_forms
            .then(|| references.iter().map(|r| unreduced_forms(r.canonical())).collect());
        let prefilters = self.prefilters(references);
        let figures = self.figures(references, prefilters.as_deref());
        let targets = Targets::new(references, unreduced, prefilters, figures, thinking);
        let holds_needle = |i: usize| targets.sentence_may_match(thinking, &sentences[i]);
        // Both sentence tests, for a sentence asked out of the search's order.
        let may_state = |i: usize| holds_needle(i) && targets.sentence_shows_figures(text_of(i));
        let mut undecided = 0;
        // Only Equal makes an anchor: skip the costly proofs that two answers differ.
        let policy = Policy { prove_not_equal: false, ..self.policy.for_grading() };
        let search = AnchorSearch { options: self.options, policy: &policy, own_answer: self.own_answer };
        let mut memo = Memo::default();
        let mut found = None;
        if !references.is_empty() {
            let mut visit = |i: usize| {
                let text = text_of(i);
                if !holds_needle(i) {
                    return None;
                }
                let in_context = match self.options.context {
                    ContextRule::None => true,
                    rule => {
                        let boxed = self.options.boxed_is_conclusion && text.contains("\\boxed");
                        let (conclusion, verification_here) = flags_of(i);
                        conclusion
                            || boxed
                            || (rule == ContextRule::Loose && verification_here)
                            || flags_of(i + 1).1
                            || (self.options.colon_carries_cue && i > 0 && announces_answer(text_of(i - 1)))
                    }
                };
                if !in_context || !targets.sentence_shows_figures(text) {
                    return None;
                }
                search.sentence_match(text, &targets, problem, &mut memo, &mut undecided).map(|m| (i, m))
            };
            // The sentences in order; only those the digits of integer references point to.
            found = match targets.sentences_to_read(sentences) {
                Some(listed) => listed.into_iter().find_map(&mut visit),
                None => (0..n).find_map(&mut visit),
            };
            // The thinking's last sentence ends it: with backtracking, a value stated there is
            // a match even without a cue, and the walk back starts from it. (Without a
            // reference nothing can match: a response without a final answer, mostly a
            // truncated one, whose last "sentence" can be a long run without a stop.)
            if found.is_none() && self.options.backtrack && n > 0 && may_state(n - 1) {
                found = search
                    .sentence_match(text_of(n - 1), &targets, problem, &mut memo, &mut undecided)
                    .map(|m| (n - 1, m));
            }
        }
        let Some((mut k, mut matched)) = found else {
            return match sentences.last() {
                Some(last) => Anchor {
                    sentence: Some(n - 1),
                    found: false,
                    num_sentences: n,
                    sentence_span: last.start..last.end,
                    content_end: last.content_end,
                    matched: None,
                    undecided,
                },
                None => Anchor { undecided, ..Anchor::NO_SENTENCE },
            };
        };
        if self.options.backtrack {
            // Walk back while a sentence holding the value lies within `backtrack_gap + 1`.
            let mut gap = 0;
            let mut i = k;
            while i > 0 && gap <= self.options.backtrack_gap {
                i -= 1;
                let text = text_of(i);
                if is_answer_heading(text) {
                    continue;
                }
                let m = if may_state(i) {
                    search.sentence_match(text, &targets, problem, &mut memo, &mut undecided)
                } else {
                    None
                };
                match m {
                    Some(m) => {
                        k = i;
                        matched = m;
                        gap = 0;
                    }
                    None => gap += 1,
                }
            }
        }
        let sentence = sentences[k];
        let (span, text) = matched;
        Anchor {
            sentence: Some(k),
            found: true,
            num_sentences: n,
            sentence_span: sentence.start..sentence.end,
            content_end: sentence.content_end,
            matched: Some((sentence.start + span.start..sentence.start + span.end, text)),
            undecided,
        }
    }

    /// What every sentence holding a match must show, per reference, when the options make
    /// that knowable cheaply; `None` when any sentence may match. A sentence that fails every
    /// reference's prefilter is skipped before candidate extraction (the costly step).
    ///
    /// With `max_extra_complexity == Some(0)` and no number words, a candidate is no more
    /// complex (numeric literals plus operations, [`complexity`]) than the reference:
    /// - a candidate equal to an integer N is one numeric literal (`17`, `17.0`, `x = 17`), whose
    ///   text holds N's digits, and not inside a longer number (`117`, `17.5`; see
    ///   [`Digits::stated_in`]);
    /// - a candidate equal to a non-integer rational is written as a fraction (`/`, `\frac`,
    ///   `\div`, `÷`, `½`), a decimal (a `.` before a digit), a power (`4^{-1}`,
    ///   `10^{-10}`), an e-notation (`1e-10`) or a percentage, so its sentence holds one of
    ///   those marks;
    /// - a candidate equal to any other reference written with numerals (`26+13\sqrt{3}`,
    ///   `\frac{5\pi}{4}`, `(-3, 1)`, `y = -2x`; not a choice or a text answer) is written with
    ///   numerals too: the candidate and its sentence hold a numeral (`²` and `½` count).
    ///
    /// This is part of the rule, not only a shortcut: what it excludes are values computed by
    /// a function that is not counted as an operation (`\cos 0` or `0!` for 1, `\log_8 2` for
    /// 1/3, `\sin 30°` for 1/2, `5 dozen` for 60), or written without a numeral (`\cos\pi` for
    /// -1). Such a sentence computes the value; it is not an anchor. A scale word is a way of
    /// writing an integer that ends in zeros (`2 million`), so it passes for such an integer.
    fn prefilters(&self, references: &[Answer]) -> Option<Vec<Prefilter>> {
        if self.options.max_extra_complexity != Some(0) || self.options.number_words || references.is_empty() {
            return None;
        }
        references.iter().map(Prefilter::of).collect()
    }

    /// The figures every candidate equal to each reference shows ([`Figures`], see
    /// [`AnchorOptions::reference_figures`]), given the references' `prefilters`
    /// ([`Self::prefilters`], whose conditions the figures need too): `None` for an integer
    /// reference (its prefilter asks for its digits) or one whose value is not known well
    /// enough to name its digits; empty without the option, `skip_unreduced_forms` or
    /// prefilters.
    fn figures(&self, references: &[Answer], prefilters: Option<&[Prefilter]>) -> Vec<Option<Figures>> {
        let Some(prefilters) =
            prefilters.filter(|_| self.options.reference_figures && self.options.skip_unreduced_forms)
        else {
            return Vec::new();
        };
        references
            .iter()
            .zip(prefilters)
            .map(|(r, f)| {
                let rational = r.plain_rational();
                match f {
                    Prefilter::Digits(_) => None,
                    _ if rational.is_some_and(|v| v.is_integer()) => None,
                    _ => Figures::new(r.canonical(), &r.real_values()?, self.own_answer, rational),
                }
            })
            .collect()
    }

    /// [`Self::first_match`] for a sentence `text` of the thinking, remembering the texts
    /// that hold no match: traces repeat sentences word for word ("Let me check again."), and
    /// a repeated text is decided, its undecided comparisons counted again, without a new
    /// extraction (the result depends on the text alone within one search).
    fn sentence_match<'t>(
        &self,
        text: &'t str,
        targets: &Targets<'_>,
        problem: Option<&Problem<'_>>,
        memo: &mut Memo<'t>,
        undecided: &mut usize,
    ) -> Option<(Range<usize>, String)> {
        if let Some(&counted) = memo.unmatched.get(text) {
            *undecided += counted;
            return None;
        }
        let before = *undecided;
        let found = self.first_match(text, targets, problem, &mut memo.verdicts, undecided);
        if found.is_none() {
            memo.unmatched.insert(text, *undecided - before);
        }
        found
    }

    /// The first candidate of `text` (one sentence) equivalent to a reference, as its span in
    /// `text` and its text; counts comparisons left undecided.
    fn first_match(
        &self,
        text: &str,
        targets: &Targets<'_>,
        problem: Option<&Problem<'_>>,
        memo: &mut FastMap<String, Verdict>,
        undecided: &mut usize,
    ) -> Option<(Range<usize>, String)> {
        // Plain-number references (prefilters) equal no choice letter or text answer.
        let words = WordValues { number_words: self.options.number_words, stated_words: targets.prefilters.is_none() };
        let (references, complexities) = (targets.answers, &targets.complexities);
        let candidates = extract_candidates_with(text, words);
        let mut states_the_task = None;
        let mut enumerations = None;
        for (c, candidate) in candidates.iter().enumerate() {
            if !self.options.number_words && candidate.kind == CandidateKind::NumberWord {
                continue;
            }
            // What holds for the sentence holds for each candidate's own text: most fail here.
            let scale_word = || targets.scale_words.any() && has_scale_word(candidate.text.as_bytes());
            if !targets.may_match(&candidate.text, scale_word) {
                continue;
            }
            if !self.options.list_items
                && enumerations.get_or_insert_with(|| Enumerations::of(&candidates)).enclose(candidate)
            {
                continue;
            }
            if !self.options.inequality_sides
                && (is_inequality_part(text, &candidates, c) || is_range_bound(text, candidate))
            {
                continue;
            }
            if self.options.skip_problem_values && problem.is_some_and(|p| p.values().contains(&candidate.text)) {
                continue;
            }
            // Traces restate the same expressions again and again: decide each text once. A
            // text is remembered only once it passed the complexity bound, which depends on
            // the text alone: a remembered one needs no new test.
            let verdict = match memo.get(&candidate.text) {
                Some(&v) => v,
                None => {
                    // The complexity bound is read off the text: test it before parsing anything.
                    let admissible: Vec<bool> = match self.options.max_extra_complexity {
                        Some(extra) => {
                            let own = complexity(&candidate.text);
                            complexities.iter().map(|&allowed| own <= allowed + extra).collect()
                        }
                        None => vec![true; references.len()],
                    };
                    if !admissible.contains(&true) {
                        continue;
                    }
                    let parsed = Answer::parse(&candidate.text);
                    let mut verdict = Verdict::NotEqual;
                    let mut own_forms = None;
                    for (k, (reference, _)) in references.iter().zip(&admissible).enumerate().filter(|(_, (_, &ok))| ok)
                    {
                        let judgement = compare(&parsed, reference, self.policy);
                        match judgement.verdict {
                            // Equal, but a step before the reference's simplest form.
                            Verdict::Equal if targets.less_reduced(k, &candidate.text, &mut own_forms) => {}
                            Verdict::Equal => {
                                verdict = Verdict::Equal;
                                break;
                            }
                            // Equal is ruled out over the reals: not undecided for this search.
                            Verdict::Unknown if judgement.reason == Reason::DiffersOnReals => {}
                            Verdict::Unknown => verdict = Verdict::Unknown,
                            Verdict::NotEqual => {}
                        }
                    }
                    memo.insert(candidate.text.clone(), verdict);
                    verdict
                }
            };
            match verdict {
                // The restatement rules are tested on a match only: few candidates get here.
                Verdict::Equal if self.options.skip_described_values && is_factored_value(text, &candidates, c) => {}
                Verdict::Equal if self.options.skip_trial_values && is_trial_value(text, &candidates, c) => {}
                Verdict::Equal
                    if problem.is_some_and(|p| {
                        let restates = (self.options.skip_problem_arguments
                            && (follows_argument_word(text, candidate.start)
                                || precedes_operation_word(text, candidate.end)))
                            || (self.options.skip_described_values
                                && has_property(text, candidate.start, candidate.end))
                            || (self.options.skip_task_statements
                                && *states_the_task.get_or_insert_with(|| states_task(text)))
                            || (self.options.skip_task_statements && restates_assignment(&candidates, c, p));
                        restates && p.mentions(&candidate.text)
                    }) => {}
                // A count the problem gives, with its noun: "We have 12 letters".
                Verdict::Equal
                    if self.options.skip_task_statements
                        && problem.is_some_and(|p| p.counts(&candidate.text, word_after(text, candidate.end).0)) => {}
                Verdict::Equal => return Some((candidate.start..candidate.end, candidate.text.clone())),
                Verdict::Unknown => *undecided += 1,
                Verdict::NotEqual => {}
            }
        }
        None
    }
}

/// What one search has decided, to decide it once ([`AnchorSearch::sentence_match`]).
#[derive(Default)]
struct Memo<'t> {
    /// The verdict on every candidate text compared with the references.
    verdicts: FastMap<String, Verdict>,
    /// Sentence texts without a match, with the comparisons each left undecided.
    unmatched: FastMap<&'t str, usize>,
}

/// The references of one search with what is derived from them once.
struct Targets<'r> {
    answers: &'r [Answer],
    /// [`complexity`] of each reference.
    complexities: Vec<usize>,
    /// [`unreduced_forms`] of each reference (None unless `skip_unreduced_forms`).
    unreduced: Option<Vec<usize>>,
    /// See [`AnchorSearch::prefilters`].
    prefilters: Option<Vec<Prefilter>>,
    /// See [`AnchorSearch::figures`]: per reference, or empty.
    figures: Vec<Option<Figures>>,
    /// Where the thinking holds a scale word's stem ([`SCALE_WORD_STEMS`]): a sentence holds
    /// one when one of these offsets falls inside it (one search per thinking, not per
    /// sentence). Only a digits prefilter asks: empty without one.
    scale_words: ScaleWords,
    /// For each prefilter, where the thinking holds its digits when it is
    /// [`Prefilter::Digits`] (one search per thinking, not per sentence); empty without
    /// prefilters.
    digits_at: Vec<Option<DigitsAt>>,
}

/// Where one thinking holds a scale word's stem ([`Targets::scale_words`]).
#[derive(Default)]
struct ScaleWords {
    /// Byte offsets, in order.
    at: Vec<usize>,
}

impl ScaleWords {
    fn of(thinking: &str) -> ScaleWords {
        // The stems in one pass (SIMD over all three at once); they never overlap, so the
        // matches are every occurrence of each, in order.
        static SEARCHER: std::sync::OnceLock<Option<aho_corasick::packed::Searcher>> = std::sync::OnceLock::new();
        let searcher =
            SEARCHER.get_or_init(|| aho_corasick::packed::Config::new().builder().extend(SCALE_WORD_STEMS).build());
        let at = match searcher {
            Some(s) => s.find_iter(thinking.as_bytes()).map(|m| m.start()).collect(),
            None => {
                let mut at: Vec<usize> = Vec::new();
                for stem in scale_word_finders() {
                    at.extend(stem.find_iter(thinking.as_bytes()));
                }
                at.sort_unstable();
                at
            }
        };
        ScaleWords { at }
    }

    fn any(&self) -> bool {
        !self.at.is_empty()
    }

    /// Whether a stem starts in `start..end` (a sentence's bytes).
    fn in_range(&self, start: usize, end: usize) -> bool {
        let first = self.at.partition_point(|&p| p < start);
        self.at.get(first).is_some_and(|&p| p < end)
    }
}

impl Targets<'_> {
    /// The targets of a search in `thinking` for `answers`, with what the sentence tests of
    /// `prefilters` look for found in `thinking` once.
    fn new<'r>(
        answers: &'r [Answer],
        unreduced: Option<Vec<usize>>,
        prefilters: Option<Vec<Prefilter>>,
        figures: Vec<Option<Figures>>,
        thinking: &str,
    ) -> Targets<'r> {
        let bytes = thinking.as_bytes();
        let digits_at: Vec<Option<DigitsAt>> = prefilters
            .iter()
            .flatten()
            .map(|f| match f {
                Prefilter::Digits(digits) => Some(digits.occurrences(bytes)),
                _ => None,
            })
            .collect();
        let scale_words =
            if digits_at.iter().any(Option::is_some) { ScaleWords::of(thinking) } else { ScaleWords::default() };
        Targets {
            answers,
            complexities: answers.iter().map(|r| complexity(r.canonical())).collect(),
            unreduced,
            prefilters,
            figures,
            scale_words,
            digits_at,
        }
    }

    /// [`Self::may_match`] for the content of `sentence` of `thinking` (the text these
    /// targets were made for): the same verdict, from the occurrences found once instead of a
    /// search of the sentence.
    fn sentence_may_match(&self, thinking: &str, sentence: &Sentence) -> bool {
        let Some(prefilters) = &self.prefilters else { return true };
        let (start, end) = (sentence.start, sentence.content_end);
        let text = &thinking[start..end];
        prefilters.iter().zip(&self.digits_at).any(|(f, at)| match (f, at) {
            (Prefilter::Digits(digits), Some(at)) => {
                let (whole, groups) = at.within(start, end, digits.len());
                digits.stated_at(text.as_bytes(), whole, groups) || self.scale_words.in_range(start, end)
            }
            _ => f.may_match(text),
        })
    }

    /// The sentences that may hold a match, in order, when the references are all integers:
    /// those holding an occurrence of their digits, of the digits' last group or of a scale
    /// word, found once in the thinking ([`Self::sentence_may_match`] passes no other
    /// sentence). `None` when the prefilters do not tell (any sentence may then match).
    fn sentences_to_read(&self, sentences: &[Sentence]) -> Option<Vec<usize>> {
        // One entry per prefilter, none without prefilters.
        if self.digits_at.is_empty() || self.digits_at.iter().any(Option::is_none) {
            return None;
        }
        let mut at: Vec<usize> = self
            .digits_at
            .iter()
            .flatten()
            .flat_map(|d| d.whole.iter().chain(&d.groups))
            .chain(&self.scale_words.at)
            .copied()
            .collect();
        at.sort_unstable();
        let mut listed: Vec<usize> = Vec::new();
        for p in at {
            let i = sentences.partition_point(|s| s.end <= p);
            if i < sentences.len() && listed.last() != Some(&i) {
                listed.push(i);
            }
        }
        Some(listed)
    }

    /// Whether `text` shows the figures of reference `k` ([`Figures::shown_in`]); true when
    /// there are none to show.
    fn shows_figures(&self, k: usize, text: &str) -> bool {
        self.figures.get(k).and_then(Option::as_ref).map_or(true, |f| f.shown_in(text))
    }

    /// Whether a sentence (its content `text`) may show a candidate equal to some reference by
    /// its figures ([`Self::shows_figures`]), asked after its cheaper tests: of prefilters and
    /// context ([`Self::sentence_may_match`] asks for the digits of an integer reference).
    fn sentence_shows_figures(&self, text: &str) -> bool {
        self.figures.is_empty() || (0..self.figures.len()).any(|k| self.shows_figures(k, text))
    }

    /// Whether `text` (whose [`unreduced_forms`] `own` holds once counted) is written less
    /// reduced than reference `k`; never without `skip_unreduced_forms`.
    fn less_reduced(&self, k: usize, text: &str, own: &mut Option<usize>) -> bool {
        self.unreduced.as_ref().is_some_and(|forms| *own.get_or_insert_with(|| unreduced_forms(text)) > forms[k])
    }

    /// Whether `text` passes any reference's prefilter (always, without prefilters);
    /// `scale_word` tells, when asked, whether it holds a scale word.
    fn may_match(&self, text: &str, scale_word: impl Fn() -> bool) -> bool {
        self.prefilters.as_ref().map_or(true, |fs| {
            let mut holds = None;
            fs.iter().enumerate().any(|(k, f)| {
                f.may_match_with(text, || *holds.get_or_insert_with(&scale_word)) && self.shows_figures(k, text)
            })
        })
    }
}

/// Whether `rest`, after a multiplication sign, begins a factor that could follow the left
/// one without the sign: a letter, `(`, a root or a constant (not a digit: `2*3` is no `23`).
fn juxtaposes(rest: &str) -> bool {
    let rest = rest.trim_start();
    rest.starts_with(['√', 'π']) || (starts_factor(rest) && !rest.starts_with(|c: char| c.is_ascii_digit()))
}

/// Commands that begin a factor of a product (`\frac{1}{2}\pi`, `\frac{1}{a}\sinh(at)`).
const FACTOR_COMMANDS: &[&str] = &[
    "sin", "cos", "tan", "cot", "sec", "csc", "sinh", "cosh", "tanh", "coth", "arcsin", "arccos", "arctan", "log",
    "ln", "exp", "pi", "sqrt", "left", "alpha", "beta", "gamma", "theta", "lambda", "mu", "sigma", "omega", "phi",
    "varphi",
];

/// Whether `rest` begins a factor: a letter, a digit, `(` or one of [`FACTOR_COMMANDS`] (not
/// `\\`, `\end`, an operator or the end of the text).
fn starts_factor(rest: &str) -> bool {
    let rest = rest.trim_start();
    match rest.as_bytes().first() {
        Some(b) if b.is_ascii_alphanumeric() || *b == b'(' => true,
        Some(b'\\') => {
            let name = &rest[1..];
            let name = &name[..name.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(name.len())];
            FACTOR_COMMANDS.contains(&name)
        }
        _ => false,
    }
}

/// The longest denominator of a reciprocal coefficient that is looked for (bytes).
const MAX_DENOMINATOR_BYTES: usize = 64;

/// Whether `rest`, what follows a `\frac`, is `{1}{...}` followed by a factor: `\frac{1}{a}
/// \sinh(at)` writes `\frac{\sinh(at)}{a}`, so its `1` is no literal of the value.
fn is_reciprocal_coefficient(rest: &str) -> bool {
    if !rest.starts_with("{1}{") {
        return false;
    }
    // A coefficient's denominator is short: the search for its `}` is bounded, so that nested
    // reciprocals (`\frac{1}{\frac{1}{...}}`) cost no more than linear time.
    let window = &rest.as_bytes()[3..rest.len().min(3 + MAX_DENOMINATOR_BYTES)];
    match matching_brace(window, 0) {
        Some(close) => starts_factor(&rest[3 + close + 1..]),
        None => false,
    }
}

/// Whether `rest`, what follows a `1` that begins a term, is `/d` followed by a factor (`1/15
/// cos(2t)`, `(1/(2a)) e^{at}`; `in_parens`: the `1` follows a `(`, whose `)` may come first):
/// the plain-text form of [`is_reciprocal_coefficient`].
fn is_plain_reciprocal_coefficient(rest: &str, in_parens: bool) -> bool {
    let Some(denominator) = rest.strip_prefix('/') else { return false };
    let denominator = denominator.trim_start();
    let len = if denominator.starts_with('(') {
        let mut depth = 0;
        let close = denominator.char_indices().take_while(|&(k, _)| k < MAX_DENOMINATOR_BYTES).find(|&(_, c)| {
            depth += match c {
                '(' => 1,
                ')' => -1,
                _ => 0,
            };
            depth == 0
        });
        match close {
            Some((k, _)) => k + 1,
            None => return false,
        }
    } else {
        let run = denominator.find(|c: char| !(c.is_ascii_alphanumeric() || c == '.')).unwrap_or(denominator.len());
        if run > MAX_DENOMINATOR_BYTES {
            return false;
        }
        run
    };
    if len == 0 {
        return false;
    }
    let after = denominator[len..].trim_start();
    let after = match after.strip_prefix(')') {
        Some(closed) if in_parens => closed,
        _ => after,
    };
    starts_factor(after)
}

/// The length of a number's integer part written in thousands groups at the start of `bytes`
/// (`15,625`, `1{,}000{,}000`: one to three digits, then groups of three after `,` or `{,}`),
/// or 0 when it is not so written: one literal, as the candidate extractor reads it.
fn digit_groups_len(bytes: &[u8]) -> usize {
    let digits = |from: usize| bytes.get(from..).map_or(0, |r| r.iter().take_while(|b| b.is_ascii_digit()).count());
    let lead = digits(0);
    if !(1..=3).contains(&lead) {
        return 0;
    }
    let mut len = lead;
    loop {
        let sep = if bytes[len..].starts_with(b",") {
            1
        } else if bytes[len..].starts_with(b"{,}") {
            3
        } else {
            break;
        };
        if digits(len + sep) != 3 {
            break;
        }
        len += sep + 3;
    }
    if len == lead {
        0
    } else {
        len
    }
}

/// Whether `text` (one sentence) ends with a colon and names the answer: "So, the final
/// answer is:", "**Answer:**" (see [`AnchorOptions::colon_carries_cue`]).
fn announces_answer(text: &str) -> bool {
    let text = text.trim_end_matches(|c: char| c.is_whitespace() || c == '*' || c == '_');
    text.ends_with(':') && text.len() <= 200 && text.as_bytes().windows(6).any(|w| w.eq_ignore_ascii_case(b"answer"))
}

/// Whether `text` (one sentence) is only a heading that announces the answer: `**Final
/// Answer**`, `### Answer:`. Backtracking passes over it: it belongs to the statement it
/// announces, not to the reasoning between two statements of the value.
fn is_answer_heading(text: &str) -> bool {
    let words = text.trim_matches(|c: char| c.is_whitespace() || matches!(c, '*' | '#' | ':' | '.'));
    words.eq_ignore_ascii_case("final answer") || words.eq_ignore_ascii_case("answer")
}

/// The spans of a sentence's candidates that enumerate several values (lists, sets, tuples),
/// sorted by start, so that whether one encloses a candidate is a binary search, not a scan of
/// every candidate (a sentence can hold tens of thousands).
struct Enumerations {
    /// Start of each enumeration, ascending.
    starts: Vec<usize>,
    /// The largest end among the enumerations up to each index (inclusive).
    max_end: Vec<usize>,
    /// Spans of the results that end sequences of assignments, sorted ([`derived_result`]).
    results: Vec<(usize, usize)>,
}

impl Enumerations {
    fn of(candidates: &[Candidate]) -> Enumerations {
        let mut spans: Vec<(usize, usize)> = candidates
            .iter()
            .filter(|o| matches!(o.kind, CandidateKind::List | CandidateKind::Set | CandidateKind::Tuple))
            .map(|o| (o.start, o.end))
            .collect();
        let mut results: Vec<(usize, usize)> = candidates
            .iter()
            .enumerate()
            .filter(|(_, o)| o.kind == CandidateKind::List)
            .filter_map(|(i, o)| derived_result(o, &candidates[i + 1..]))
            .collect();
        results.sort_unstable();
        spans.sort_unstable();
        let max_end = spans.iter().scan(0, |m, &(_, end)| {
            *m = end.max(*m);
            Some(*m)
        });
        Enumerations { max_end: max_end.collect(), starts: spans.iter().map(|&(start, _)| start).collect(), results }
    }

    /// Whether `me` lies inside an enumeration whose span is not its own, and not inside the
    /// result that ends a sequence of assignments ([`derived_result`]).
    fn enclose(&self, me: &Candidate) -> bool {
        let last_result = self.results.partition_point(|&(s, _)| s <= me.start);
        if last_result > 0 && self.results[last_result - 1].1 >= me.end {
            return false;
        }
        // Enumerations starting before `me` enclose it when they reach its end; those starting
        // with it, when they reach past its end (sorted by end, the last one reaches furthest).
        let before = self.starts.partition_point(|&s| s < me.start);
        let at = self.starts.partition_point(|&s| s <= me.start);
        (before > 0 && self.max_end[before - 1] >= me.end) || (at > before && self.max_end[at - 1] > me.end)
    }
}

/// The most assignments read in one list: a longer list is an enumeration (linear time).
const MAX_ASSIGNMENTS: usize = 16;

/// The span of the last item of `list` when `list` is a sequence of assignments that ends
/// with a derived quantity: "m=40, n=20, p=3, sum=63" states the sum, its result, where
/// "x = 2, y = 3" or "a=-4, b=4" enumerate the parts of one solution. The items are equations
/// (among `inner`, the candidates after `list`, outer first) with pairwise distinct names,
/// joined by a comma, a semicolon or "and"; the last one names a sum or another combination
/// (`m+n+p`, `a \cdot b`) or a quantity in a word of three letters or more (`sum`, `total`).
fn derived_result(list: &Candidate, inner: &[Candidate]) -> Option<(usize, usize)> {
    let mut names: Vec<&str> = Vec::new();
    let mut last = None;
    let mut at = list.start;
    for item in inner.iter().take_while(|o| o.start < list.end) {
        if item.start < at {
            continue; // inside an item already read
        }
        if item.kind != CandidateKind::Equation {
            return None; // an item that assigns nothing: stop at once (linear time)
        }
        let gap = list.text.get(at - list.start..item.start - list.start)?.trim();
        let joined = matches!(gap, "," | ";" | "and" | ", and");
        if names.is_empty() != gap.is_empty() || (!names.is_empty() && !joined) {
            return None;
        }
        let name = assigned_name(item)?;
        if names.contains(&name) || names.len() == MAX_ASSIGNMENTS {
            return None;
        }
        names.push(name);
        last = Some((item.start, item.end));
        at = item.end;
    }
    let name = *names.last()?;
    let derived = name.contains(['+', '-', '*', '/', '·', '×'])
        || ["\\cdot", "\\times"].iter().any(|op| name.contains(op))
        || (name.len() >= 3 && name.bytes().all(|b| b.is_ascii_alphabetic()));
    (names.len() >= 2 && at == list.end && derived).then_some(last?)
}

/// Relation symbols of inequalities, as they appear in candidate texts.
const INEQUALITY_MARKS: &[&str] = &[
    "<", ">", "<=", ">=", "!=", "\\leq", "\\geq", "\\le", "\\ge", "\\lt", "\\gt", "\\leqslant", "\\geqslant", "≤", "≥",
    "⩽", "⩾", "\\neq", "\\ne", "≠", "\\not=",
];

/// Whether `candidate`, a number, is a bound of a range or a comparison written in words: the
/// first of "0 to 18" (`to` and a number after it), the number after "between", "than"
/// ("greater than 3") or "different from". The upper bound of "from 3 to 5" may be a value
/// reached, so it is not a bound here, nor is "at least 64", which often states a minimum.
fn is_range_bound(text: &str, candidate: &Candidate) -> bool {
    if candidate.kind != CandidateKind::Number {
        return false;
    }
    let (next, rest) = word_after(text, candidate.end);
    let upper = rest.strip_prefix(' ').map(|rest| rest.trim_start_matches([' ', '$', '-']));
    let (before_that, before) = two_words_before(text, candidate.start);
    (next == "to" && upper.is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit())))
        || before.eq_ignore_ascii_case("between")
        || before.eq_ignore_ascii_case("than")
        || (before.eq_ignore_ascii_case("from") && before_that.eq_ignore_ascii_case("different"))
}

/// The left side of `equation` when it names what is assigned: it starts with an ASCII letter
/// (`n` in `n = 5`, `C_1` in `C_1=3`; not `2x` or `(a+b)`).
fn assigned_name(equation: &Candidate) -> Option<&str> {
    let (name, _) = equation.text.split_once('=')?;
    let name = name.trim();
    name.bytes().next().is_some_and(|b| b.is_ascii_alphabetic()).then_some(name)
}

/// Candidate `c` if it is an equation, or the equation whose right side it is (`n=1` for the
/// `1` of `n=1`). Candidates come outer first, so a side follows its equation; only the 64
/// candidates before it are read, so that a chain of thousands of `=` stays linear.
fn assignment_of(candidates: &[Candidate], c: usize) -> Option<&Candidate> {
    let me = &candidates[c];
    match me.kind {
        CandidateKind::Equation => Some(me),
        CandidateKind::EquationSide => candidates[c.saturating_sub(64)..c]
            .iter()
            .rev()
            .find(|o| o.kind == CandidateKind::Equation)
            .filter(|e| e.end == me.end && e.start < me.start),
        _ => None,
    }
}

/// Whether candidate `c`, an assignment to a name (`n = 5`) or its value, copies an assignment
/// the problem states ("... is one such sequence, with $n = 5$."): the data restated, not a
/// result, even when the value equals the answer.
fn restates_assignment(candidates: &[Candidate], c: usize, problem: &Problem<'_>) -> bool {
    let Some(equation) = assignment_of(candidates, c) else { return false };
    assigned_name(equation).is_some_and(|name| name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
        && problem.mentions(&equation.text)
}

/// Words before an assignment that make its value an input, not a result: "if n=1", "What if
/// I set y = 0?", "try x = 5", "suppose k = 2". Not "for", "at" or "when", which also name
/// where a result holds: "the maximum occurs at t = 20", "so, for n=30, the units digit is 4".
const TRIAL_WORDS: &[&str] = &[
    "if", "set", "setting", "plug", "plugging", "substitute", "substituting", "try", "trying", "test", "testing",
    "suppose", "assume", "assuming", "take", "taking",
];

/// Whether candidate `c` of `text` is an assignment tried as an input (`n=1` in "So, if n=1,
/// how many sequences are there?") or the value of one: a single name, `=`, the value, and
/// one of [`TRIAL_WORDS`] before the name.
fn is_trial_value(text: &str, candidates: &[Candidate], c: usize) -> bool {
    let Some(equation) = assignment_of(candidates, c) else { return false };
    assigned_name(equation).is_some_and(|name| name.len() == 1)
        && TRIAL_WORDS.iter().any(|w| word_before(text, equation.start).eq_ignore_ascii_case(w))
}

/// Words between a value and the expression that rewrites it: "8 is 4*2", "write 25 as 5^2".
const REWRITING_WORDS: &[&str] = &["is", "as", "equals"];

/// Whether candidate `c` of `text`, an integer, is the subject of a factorization rather than
/// a result: the next candidate follows it with only `=`, "is", "as" or "equals" between and
/// is a product or power of numerals ([`is_factorization`]: "But 8 is 4*2", "I can write 25
/// as 5^2", "159 is 3*53"), and the value opens its clause ([`opens_clause`]: after "is", "="
/// or "so" it is the result of the clause, "the area is 468 = 12*39", "So, 81 is 3^4").
fn is_factored_value(text: &str, candidates: &[Candidate], c: usize) -> bool {
    let me = &candidates[c];
    let integer = matches!(me.kind, CandidateKind::Number | CandidateKind::EquationSide)
        && me.text.bytes().all(|b| b.is_ascii_digit());
    if !integer || !opens_clause(text, me.start) {
        return false;
    }
    // Candidates come ordered by start, outer before inner: the first one at or after the
    // value's end is the longest that starts there.
    let Some(next) = candidates.get(candidates.partition_point(|o| o.start < me.end)) else {
        return false;
    };
    let between = text.get(me.end..next.start).unwrap_or("").trim_matches(|ch: char| ch.is_whitespace() || ch == '$');
    let joined = between == "=" || REWRITING_WORDS.iter().any(|w| between.eq_ignore_ascii_case(w));
    joined && is_factorization(&next.text)
}

/// Whether `text` is a product or power of numerals: `4*2`, `5^2`, `3 \\times 17^{2}`,
/// `3³`; no sum, difference or quotient, which may be a conversion (`15 39/40`, `225 +
/// 15/289`), and no variable.
fn is_factorization(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut operations = 0;
    while i < bytes.len() {
        let rest = &text[i..];
        if let Some(mark) = ["\\times", "\\cdot", "×", "·", "²", "³", "*", "^"].iter().find(|m| rest.starts_with(**m))
        {
            operations += 1;
            i += mark.len();
        } else if bytes[i].is_ascii_digit() || matches!(bytes[i], b' ' | b'{' | b'}' | b'(' | b')') {
            i += 1;
        } else {
            return false;
        }
    }
    operations > 0 && bytes.iter().any(u8::is_ascii_digit)
}

/// Whether candidate `c` of `text` is an inequality or a side of one (`a \\geq 3`, or its `3`):
/// an inequality mark in the statement, or right before or after the side.
fn is_inequality_part(text: &str, candidates: &[Candidate], c: usize) -> bool {
    let me = &candidates[c];
    // Every mark starts with `<`, `>`, `!`, `\\` or the lead byte 0xE2 of `≤ ≥ ⩽ ⩾ ≠`.
    let may_hold_mark = |t: &[u8]| t.iter().any(|b| matches!(b, b'<' | b'>' | b'!' | b'\\' | 0xE2));
    let is_inequality = |t: &str| may_hold_mark(t.as_bytes()) && INEQUALITY_MARKS.iter().any(|m| t.contains(m));
    match me.kind {
        CandidateKind::Equation => is_inequality(&me.text),
        CandidateKind::EquationSide => {
            let before = text.get(..me.start).unwrap_or("").trim_end();
            let after = text.get(me.end..).unwrap_or("").trim_start();
            // The longest mark, `\\geqslant`, has 9 bytes.
            let near = |t: &str, before: bool| {
                let b = t.as_bytes();
                may_hold_mark(if before { &b[b.len().saturating_sub(9)..] } else { &b[..b.len().min(9)] })
            };
            (near(before, true) || near(after, false))
                && INEQUALITY_MARKS.iter().any(|m| before.ends_with(m.trim_end()) || after.starts_with(m.trim_end()))
        }
        _ => false,
    }
}

/// What a sentence must show to hold a candidate equal to one reference (see
/// [`AnchorSearch::prefilters`]).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Prefilter {
    /// An integer reference: its digits, without the sign.
    Digits(Digits),
    /// A non-integer rational reference: a fraction, decimal, power or percent mark.
    RationalMarks,
    /// Any other reference written with numerals (no choice, no text answer): a numeral.
    Numerals,
}

/// An integer's digits with their substring searchers, built once per search.
#[derive(Debug, Clone)]
struct Digits {
    finder: memchr::memmem::Finder<'static>,
    /// The last three digits, for a number written with thousands separators (`15,625`,
    /// `15{,}625`, `15\,625`, `15 625`); `None` below 1000.
    last_group: Option<memchr::memmem::Finder<'static>>,
}

/// How scale words are spelled (see [`crate::extract::scale`]), without their first letter so
/// that title case is found too: "illion" covers million, billion, trillion and quadrillion.
/// Any integer may be written with one ("2 million" for 2000000, "1.25 thousand" for 1250;
/// "5 dozen" for 60 is a computation for the prefilter, like `\cos 0` for 1).
const SCALE_WORD_STEMS: [&str; 3] = ["illion", "undred", "housand"];

/// A substring finder per stem of [`SCALE_WORD_STEMS`], made once.
fn scale_word_finders() -> &'static [memchr::memmem::Finder<'static>] {
    static FINDERS: std::sync::OnceLock<Vec<memchr::memmem::Finder<'static>>> = std::sync::OnceLock::new();
    FINDERS.get_or_init(|| SCALE_WORD_STEMS.iter().map(|s| finder(s.as_bytes())).collect())
}

/// Whether `text` holds a scale word's stem ([`SCALE_WORD_STEMS`]).
fn has_scale_word(text: &[u8]) -> bool {
    scale_word_finders().iter().any(|f| f.find(text).is_some())
}

impl Digits {
    fn new(digits: &str) -> Digits {
        let last_group = (digits.len() > 3).then(|| finder(&digits.as_bytes()[digits.len() - 3..]));
        Digits { finder: finder(digits.as_bytes()), last_group }
    }

    /// Whether `text` writes the integer itself somewhere: its digits, not inside a longer
    /// number. Before them only zeros may follow another digit (`023` is 23, `123` is not), and
    /// they are no decimal's fractional digits (`0.25` does not write 25);
    /// after them comes no digit, and a decimal point only with zeros after it (`23.0` is 23,
    /// `234` and `23.5` are not). A decimal equals an integer only when its digits after the
    /// point are zeros, whatever the rounding rule (the difference is a multiple of the
    /// decimal's last place), so this is still a necessary condition. A number of four digits
    /// or more may also be written in groups (`15,625`): then its last group ends the number
    /// the same way and follows a separator, not a digit.
    fn stated_in(&self, text: &[u8]) -> bool {
        self.stated_at(text, self.finder.find_iter(text), self.groups_in(text))
    }

    /// Where `text` holds the last group of three digits (none below 1000).
    fn groups_in<'a>(&'a self, text: &'a [u8]) -> impl Iterator<Item = usize> + 'a {
        self.last_group.iter().flat_map(move |group| group.find_iter(text))
    }

    /// The number of digits.
    fn len(&self) -> usize {
        self.finder.needle().len()
    }

    /// Where `text` holds the digits and their last group.
    fn occurrences(&self, text: &[u8]) -> DigitsAt {
        DigitsAt { whole: self.finder.find_iter(text).collect(), groups: self.groups_in(text).collect() }
    }

    /// [`Self::stated_in`] given where `text` holds the digits (`whole`, ascending, as a
    /// search from `text`'s start finds them) and their last group (`groups`).
    fn stated_at(
        &self,
        text: &[u8],
        whole: impl IntoIterator<Item = usize>,
        groups: impl IntoIterator<Item = usize>,
    ) -> bool {
        let digit = |i: usize| text.get(i).is_some_and(u8::is_ascii_digit);
        // Nothing after `end` continues the number but zeros after a decimal point.
        let ends_number = |end: usize| {
            if digit(end) {
                return false;
            }
            if text.get(end) == Some(&b'.') {
                let mut k = end + 1;
                while text.get(k) == Some(&b'0') {
                    k += 1;
                }
                return !digit(k);
            }
            true
        };
        let len = self.len();
        let whole = whole.into_iter().any(|at| {
            let mut start = at;
            while start > 0 && text[start - 1] == b'0' {
                start -= 1;
            }
            !continues_a_number(text, start) && ends_number(at + len)
        });
        whole || groups.into_iter().any(|at| at > 0 && !digit(at - 1) && ends_number(at + 3))
    }
}

/// Whether the digits at `start` of `text` continue a number begun before them: a digit right
/// before them, or a decimal point after a digit (`13`, `0.3` for `3`).
fn continues_a_number(text: &[u8], start: usize) -> bool {
    let digit = |i: usize| text.get(i).is_some_and(u8::is_ascii_digit);
    (start > 0 && digit(start - 1)) || (start > 1 && text[start - 1] == b'.' && digit(start - 2))
}

/// An owned substring searcher for `needle`.
fn finder(needle: &[u8]) -> memchr::memmem::Finder<'static> {
    memchr::memmem::Finder::new(needle).into_owned()
}

/// Where a text holds an integer's digits and their last group ([`Digits::occurrences`]),
/// byte offsets in order.
struct DigitsAt {
    whole: Vec<usize>,
    groups: Vec<usize>,
}

impl DigitsAt {
    /// The occurrences of the digits (`len` of them) and of their last group inside
    /// `start..end`, as offsets from `start`. They are the ones a search of that part alone
    /// finds: a sentence starts after a byte that is no ASCII digit and its content ends before
    /// one, so no run of digits crosses its edges and a search of the whole text takes the
    /// same steps inside it.
    fn within(
        &self,
        start: usize,
        end: usize,
        len: usize,
    ) -> (impl Iterator<Item = usize> + '_, impl Iterator<Item = usize> + '_) {
        (offsets_inside(&self.whole, start, end, len), offsets_inside(&self.groups, start, end, 3))
    }
}

/// The offsets of `at` (ascending) of matches of `len` bytes inside `start..end`, from `start`.
fn offsets_inside(at: &[usize], start: usize, end: usize, len: usize) -> impl Iterator<Item = usize> + '_ {
    let first = at.partition_point(|&p| p < start);
    at[first..].iter().take_while(move |&&p| p + len <= end).map(move |&p| p - start)
}

impl PartialEq for Digits {
    fn eq(&self, other: &Digits) -> bool {
        self.finder.needle() == other.finder.needle()
    }
}

impl Eq for Digits {}

/// Whether `text` holds a numeral: an ASCII digit, or a numeric character such as `²` or `½`.
fn has_numeral(text: &str) -> bool {
    has_ascii_digit(text.as_bytes()) || (!text.is_ascii() && text.chars().any(char::is_numeric))
}

/// Marks outside ASCII that write a non-integer rational (their first bytes are 0xC2, 0xC3
/// or 0xE2).
const NON_ASCII_RATIONAL_MARKS: &[&str] = &["÷", "∕", "½", "⅓", "⅔", "¼", "¾", "⅕", "⅙", "⅛"];

/// Whether `text` shows a mark of a non-integer rational: `/`, `^`, `%`, `frac`, `\div`,
/// `\over`, a decimal point before a digit or a period (`0.75`, `.5`, `0.\overline{3}`), an
/// e-notation (`1e-10`) or one of [`NON_ASCII_RATIONAL_MARKS`]. Only the bytes that may start
/// one are looked at: most sentences show none.
fn has_rational_mark(text: &str) -> bool {
    let bytes = text.as_bytes();
    let digit_at = |i: usize| bytes.get(i).is_some_and(u8::is_ascii_digit);
    let rest_starts = |i: usize, s: &[u8]| bytes.get(i..).is_some_and(|r| r.starts_with(s));
    let starts = [b'/', b'^', b'%', b'.', b'e', b'E', b'f', b'\\', 0xC2, 0xC3, 0xE2];
    any_hit(bytes, starts, |i| match bytes[i] {
        b'/' | b'^' | b'%' => true,
        b'.' => digit_at(i + 1) || rest_starts(i + 1, b"\\overline") || rest_starts(i + 1, b"\\dot"),
        b'e' | b'E' => {
            i > 0
                && digit_at(i - 1)
                && (digit_at(i + 1) || (matches!(bytes.get(i + 1), Some(b'-' | b'+')) && digit_at(i + 2)))
        }
        b'f' => rest_starts(i, b"frac"),
        b'\\' => rest_starts(i + 1, b"div") || rest_starts(i + 1, b"over"),
        0xC2 | 0xC3 | 0xE2 => NON_ASCII_RATIONAL_MARKS.iter().any(|m| rest_starts(i, m.as_bytes())),
        _ => false,
    })
}

impl Prefilter {
    /// The prefilter of a reference; `None` for one written without numerals, a choice or a
    /// text answer.
    fn of(reference: &Answer) -> Option<Prefilter> {
        let digits = reference.canonical().strip_prefix('-').unwrap_or(reference.canonical());
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            return Some(Prefilter::Digits(Digits::new(digits)));
        }
        if reference.plain_rational().is_some_and(|r| !r.is_integer()) {
            return Some(Prefilter::RationalMarks);
        }
        (reference.is_mathematical() && has_numeral(reference.canonical())).then_some(Prefilter::Numerals)
    }

    /// `scale_words`: whether `text` holds a scale word (asked only when needed), so a text
    /// without the integer's digits may still state it with one.
    fn may_match_with(&self, text: &str, mut scale_words: impl FnMut() -> bool) -> bool {
        match self {
            Prefilter::Digits(digits) => digits.stated_in(text.as_bytes()) || scale_words(),
            Prefilter::RationalMarks => has_rational_mark(text),
            Prefilter::Numerals => has_numeral(text),
        }
    }

    /// [`Self::may_match_with`], searching `text` for a scale word when asked.
    fn may_match(&self, text: &str) -> bool {
        self.may_match_with(text, || has_scale_word(text.as_bytes()))
    }
}

/// How much writing an answer takes: numeric literals (a maximal digit run, decimal point
/// included) plus operations (`+ * / ^ × ÷ · √`, a binary `-`, `\frac`, `\sqrt`, `\cdot`,
/// `\times`, `\div`, `sqrt`, a superscript exponent of a numeral, `5²`). A stated value is no
/// more complex than the final answer; an expression still being simplified usually is. (A
/// superscript exponent of anything else, `x³`, is not counted: counting it moved anchors later
/// on real traces, where `4*(π)²` restates `4π²`.) A multiplication sign before a factor
/// that juxtaposition writes (`3*sqrt(13)`, `14 \cdot (\sqrt{2} - 1)`, `2 × π`) is not
/// counted after a numeral: `3*sqrt(13)` is the product `3\sqrt{13}` (but `(7 + 2i) * i`
/// is still counted, a product not yet expanded).
pub fn complexity(text: &str) -> usize {
    const COMMANDS: &[&str] = &["\\frac", "\\dfrac", "\\tfrac", "\\sqrt", "\\cdot", "\\times", "\\div", "sqrt"];
    let bytes = text.as_bytes();
    let mut count = 0;
    let mut i = 0;
    // Whether the previous non-space byte ends an operand (so a `-` here is binary).
    let mut after_operand = false;
    // Whether the previous non-space byte ends a numeral (a coefficient before `*`).
    let mut after_numeral = false;
    while i < bytes.len() {
        let b = bytes[i];
        let coefficient = std::mem::replace(&mut after_numeral, false);
        if b.is_ascii_digit() {
            let term_start = !after_operand;
            let run_start = i;
            count += 1;
            i += digit_groups_len(&bytes[i..]);
            while i < bytes.len()
                && (bytes[i].is_ascii_digit() || (bytes[i] == b'.' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)))
            {
                i += 1;
            }
            if text[i..].chars().next().and_then(superscript_digit).is_some() {
                count += 2; // a numeral's power, `5²`, as `5^2`: the exponent and the power
            }
            let in_parens = text[..run_start].trim_end().ends_with('(');
            if term_start && &text[run_start..i] == "1" && is_plain_reciprocal_coefficient(&text[i..], in_parens) {
                count -= 1; // the `1` of `(1/15) cos(2t)`, which writes `cos(2t)/15`
            }
            after_operand = true;
            after_numeral = true;
            continue;
        }
        if let Some(cmd) = COMMANDS.iter().find(|c| c.as_bytes()[0] == b && text[i..].starts_with(**c)) {
            let times = matches!(*cmd, "\\cdot" | "\\times");
            count += usize::from(!(times && coefficient && juxtaposes(&text[i + cmd.len()..])));
            i += cmd.len();
            after_operand = false;
            if cmd.ends_with("frac") && is_reciprocal_coefficient(&text[i..]) {
                i += 3; // the `{1}` of `\frac{1}{a} X`, which writes `\frac{X}{a}`
            }
            continue;
        }
        match b {
            b'*' if coefficient && juxtaposes(&text[i + 1..]) => after_operand = false,
            b'+' | b'*' | b'/' | b'^' => {
                count += 1;
                after_operand = false;
            }
            b'-' => {
                if after_operand {
                    count += 1;
                }
                after_operand = false;
            }
            b' ' | b'\t' | b'\n' => after_numeral = coefficient,
            b'(' | b'{' | b'[' | b'=' | b',' => after_operand = false,
            _ => after_operand = b.is_ascii_alphanumeric() || b == b')' || b == b'}' || b == b']',
        }
        // Multi-byte operators: × ÷ · √ (UTF-8 lead byte 0xC3/0xC2/0xE2).
        let rest = &text[i..];
        let width = rest.chars().next().map_or(1, char::len_utf8);
        if width > 1 && rest.starts_with(['×', '÷', '·', '√']) {
            let times = rest.starts_with(['×', '·']);
            count += usize::from(!(times && coefficient && juxtaposes(&rest[width..])));
            after_operand = false;
        }
        i += width;
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::sentences::{split_sentences, SplitOptions};

    fn locate_with(thinking: &str, reference: &str, options: &AnchorOptions, problem: Option<&str>) -> Anchor {
        let cues = CueMatcher::paper();
        let sentences = split_sentences(thinking, &SplitOptions::default());
        let policy = Policy::default();
        let problem = problem.map(Problem::new);
        AnchorSearch { options, policy: &policy, own_answer: true }.locate(
            thinking,
            &sentences,
            &cues,
            &[Answer::parse(reference)],
            problem.as_ref(),
        )
    }

    fn locate(thinking: &str, reference: &str, mode: AnchorMode) -> Anchor {
        locate_with(thinking, reference, &mode.options(), None)
    }

    fn paper_with(change: impl FnOnce(&mut AnchorOptions)) -> AnchorOptions {
        let mut o = AnchorMode::Paper.options();
        change(&mut o);
        o
    }

    fn sentence_text(thinking: &str, a: &Anchor) -> String {
        thinking[a.sentence_span.clone()].trim().to_string()
    }

    #[test]
    fn paper_rule_needs_a_cue_here_or_a_verification_next() {
        let t = "We compute 3 + 4 = 7 apples. Then 7 again. So the answer is 7. Let me check.";
        let a = locate(t, "7", AnchorMode::Paper);
        assert!(a.found);
        // Sentence 0 has a matching candidate but no conclusion cue and no verification after.
        assert_eq!(sentence_text(t, &a), "So the answer is 7.");
        assert_eq!(a.sentence, Some(2));
    }

    #[test]
    fn scale_word_stems_are_found_in_one_pass_as_each_alone_finds_them() {
        let t = "Two hundred thousand, 3 Million. A thousand-fold, hundredth; the billionth housand illionundred.";
        let mut each: Vec<usize> =
            SCALE_WORD_STEMS.iter().flat_map(|s| memchr::memmem::find_iter(t.as_bytes(), s.as_bytes())).collect();
        each.sort_unstable();
        assert_eq!(each.len(), 9);
        assert_eq!(ScaleWords::of(t).at, each);
        assert!(ScaleWords::of("no scale here, 12 apples").at.is_empty());
    }

    #[test]
    fn a_repeated_sentence_counts_its_undecided_comparisons_each_time() {
        // `5` against `...` is undecided; the second and third sentences repeat the first word
        // for word and are decided from it, counted again.
        let t = "So it is 5. Hmm. So it is 5. So it is 5. Done.";
        let a = locate(t, "...", AnchorMode::Paper);
        assert!(!a.found);
        assert_eq!(a.undecided, 3);
        let once = locate("So it is 5. Hmm. Done.", "...", AnchorMode::Paper);
        assert_eq!(once.undecided, 1);
    }

    #[test]
    fn verification_in_the_next_sentence_admits_a_sentence_without_cue() {
        let t = "The total comes to 12.\nWait, let me recount.";
        let a = locate(t, "12", AnchorMode::Paper);
        assert_eq!(a.sentence, Some(0));
        assert_eq!(&t[..a.content_end], "The total comes to 12.");
    }

    #[test]
    fn no_match_defaults_to_the_last_sentence() {
        let t = "So we get 5. Hence 6.";
        let a = locate(t, "99", AnchorMode::Paper);
        assert!(!a.found);
        assert_eq!(a.sentence, Some(1));
        assert_eq!(a.num_sentences, 2);
    }

    #[test]
    fn the_last_sentence_concludes_the_thinking_when_backtracking() {
        // No cue anywhere: the paper's rule falls back to the last sentence, not found.
        let t = "Speed: 240 / 60 = 4 inches per second.\nThe speed is 4 inches per second.";
        let paper = locate(t, "4", AnchorMode::Paper);
        assert_eq!((paper.found, paper.sentence), (false, Some(1)));
        // With backtracking, the last sentence states the value, and the walk back finds the
        // computation before it.
        let default = locate(t, "4", AnchorMode::Default);
        assert_eq!((default.found, default.sentence), (true, Some(0)));
        // A last sentence without the value is still the fallback, not found.
        let a = locate("So we get 4.\nLet me think about it.", "7", AnchorMode::Default);
        assert_eq!((a.found, a.sentence), (false, Some(1)));
    }

    #[test]
    fn empty_thinking_has_no_sentence() {
        let a = locate("", "1", AnchorMode::Paper);
        assert_eq!(a.sentence, None);
        assert!(!a.found);
    }

    #[test]
    fn rational_prefilter_keeps_every_written_form_and_skips_computations() {
        let marks = Prefilter::of(&Answer::parse("\\frac{3}{4}")).expect("a rational");
        assert_eq!(marks, Prefilter::RationalMarks);
        for text in [
            "So it is 3/4.", "We get \\dfrac{6}{8}.", "That is 0.75 of it.", "So .75 it is.", "It equals 3 \\div 4.",
            "So 3÷4.", "Hence ¾.", "So 4^{-1}.", "That gives 7.5e-1.", "So 75\\% of it.", "x = {3 \\over 4}.",
            "So 0.\\overline{3} here.", "So 0.\\dot{3} here.",
        ] {
            assert!(marks.may_match(text), "{text}");
        }
        for text in ["So the answer is 3.", "We compute \\sin 30° here.", "Then 2e and 3.", "Wait."] {
            assert!(!marks.may_match(text), "{text}");
        }
        assert_eq!(Prefilter::of(&Answer::parse("-17")), Some(Prefilter::Digits(Digits::new("17"))));
        let digits = Prefilter::of(&Answer::parse("23")).expect("an integer");
        for text in [
            "So 23.", "x = -23", "It is 023 or", "23.0 it is", "23.000", "23. Then", "a_{23}", "1,023", "23,000",
            "(23)",
        ] {
            assert!(digits.may_match(text), "{text}");
        }
        for text in ["So 123.", "234 apples", "23.5", "1023", "23.05", "2 3", "0.230"] {
            assert!(!digits.may_match(text), "{text}");
        }
        let zero = Prefilter::of(&Answer::parse("0")).expect("an integer");
        assert!(zero.may_match("x = 0.") && zero.may_match("000") && zero.may_match("0.00"));
        assert!(!zero.may_match("10 and 100") && !zero.may_match("0.5"));
        // Other references written with numerals need a numeral (`²` and `½` count).
        for with_numerals in ["\\sqrt{2}", "x + 1", "12.5\\%", "3/4 cm", "(1, 2)", "26+13\\sqrt{3}", "y = -2x"] {
            let numerals = Prefilter::of(&Answer::parse(with_numerals));
            assert_eq!(numerals, Some(Prefilter::Numerals), "{with_numerals}");
        }
        let numerals = Prefilter::Numerals;
        assert!(numerals.may_match("So BD² it is.") && numerals.may_match("Half: ½") && numerals.may_match("x_1"));
        assert!(!numerals.may_match("So \\cos\\pi it is.") && !numerals.may_match("Wait."));
        // Without numerals, or a choice or text answer: any sentence may state it.
        for other in ["\\pi", "x", "(B) 17", "\\text{Evelyn}", "A, B", "\\text{June 3}"] {
            assert_eq!(Prefilter::of(&Answer::parse(other)), None, "{other}");
        }
        let t = "So it is \\cos\\pi. So the value is -1.";
        let a = locate(t, "-1 + 0\\sqrt{2}", AnchorMode::Default);
        assert_eq!(a.matched.as_ref().map(|m| m.1.as_str()), Some("-1"));
        // A repeating decimal states its fraction; a truncated one does not.
        let t = "First 0.33... is close. So 0.\\overline{3} it is. Thus 1/3.";
        let a = locate(t, "\\frac{1}{3}", AnchorMode::Default);
        assert_eq!(a.matched.as_ref().map(|m| m.1.as_str()), Some("0.\\overline{3}"));
        let a = locate("So it is 0.333... in the end.", "\\frac{1}{3}", AnchorMode::Default);
        assert_eq!(a.matched.as_ref().map(|m| m.1.as_str()), Some("0.333..."));
        // A value computed by a function is no anchor; the fraction stated later is. (With a
        // mark, `\\sin 30^\\circ`, the sentence is searched and the rule is the complexity
        // bound's.)
        let t = "So we need \\sin 30°. Thus \\cos 60° is it. So the answer is 1/2.";
        assert_eq!(crate::answer::equivalent("\\sin 30°", "1/2", &Policy::default()).verdict, Verdict::Equal);
        let a = locate(t, "\\frac{1}{2}", AnchorMode::Default);
        assert_eq!(a.matched.as_ref().map(|m| m.1.as_str()), Some("1/2"));
    }

    #[test]
    fn equivalent_forms_match() {
        let t = "So the probability is \\(\\frac{6}{8}\\). Let me verify.";
        let a = locate(t, "0.75", AnchorMode::Paper);
        assert!(a.found);
        assert_eq!(a.matched.as_ref().map(|m| m.1.as_str()), Some("\\frac{6}{8}"));
    }

    #[test]
    fn skipping_problem_values_ignores_a_restated_datum() {
        let problem = "A rectangle has perimeter 12 and area 8. Find its longer side.";
        let t = "So we have perimeter 12. Thus the sides satisfy a + b = 6. So the longer side is 4.";
        assert_eq!(locate_with(t, "12", &AnchorMode::Paper.options(), Some(problem)).sentence, Some(0));
        let skip = paper_with(|o| o.skip_problem_values = true);
        assert!(!locate_with(t, "12", &skip, Some(problem)).found);
    }

    #[test]
    fn a_problem_value_restated_in_the_task_statement_does_not_anchor() {
        let problem = "What is the sum of the proper divisors of the sum of the proper divisors of 284?";
        let t = "So I need to find the sum of the proper divisors of the sum of the proper divisors of 284. \
                 So the divisors of 284 sum to 220. So the divisors of 220 sum to 284.";
        let task = paper_with(|o| o.skip_task_statements = true);
        assert_eq!(locate_with(t, "284", &AnchorMode::Paper.options(), Some(problem)).sentence, Some(0));
        // Without the problem the option cannot tell a datum from a result.
        assert_eq!(locate_with(t, "284", &task, None).sentence, Some(0));
        let arguments = paper_with(|o| o.skip_problem_arguments = true);
        // "of 284" is an argument in the first two sentences; the third states the value.
        assert_eq!(locate_with(t, "284", &arguments, Some(problem)).sentence, Some(2));
        let a = locate_with(t, "284", &task, Some(problem));
        assert_eq!(a.sentence, Some(1), "the task statement is skipped, the argument is not");
        // A value the problem does not mention anchors in a task statement as before.
        let derived = "So I need to find x, which is 7. Let me verify.";
        assert_eq!(locate_with(derived, "7", &task, Some(problem)).sentence, Some(0));
    }

    #[test]
    fn an_assignment_the_problem_states_is_data() {
        let problem = "For example, {}, {5, 7} is one such sequence, with $n = 5$. What is K mod 10?";
        let t = "Here each set is a subset of the next, and \\( n = 5 \\) in this case.\nSo K mod 10 is 5.";
        let task = paper_with(|o| o.skip_task_statements = true);
        assert_eq!(locate_with(t, "5", &task, Some(problem)).sentence, Some(1));
        assert_eq!(locate_with(t, "5", &task, None).sentence, Some(0));
        // Another name, or a value not assigned in the problem, is no copy.
        let t = "So m = 5 here.\nThus 5.";
        assert_eq!(locate_with(t, "5", &task, Some(problem)).sentence, Some(0));
    }

    #[test]
    fn a_count_the_problem_gives_restated_with_its_noun_is_data() {
        let problem = "The twelve letters $A$, ..., $L$ are grouped into six pairs. Find $m+n$.";
        let t = "We have 12 letters, which are all distinct, right?\nSo m + n = 12.";
        let task = paper_with(|o| o.skip_task_statements = true);
        assert_eq!(locate_with(t, "12", &task, Some(problem)).sentence, Some(1));
        assert_eq!(locate_with(t, "12", &task, None).sentence, Some(0));
        assert_eq!(locate_with(t, "12", &AnchorMode::Paper.options(), Some(problem)).sentence, Some(0));
        // Another noun, or the count the problem gives of something else, is a result.
        let t = "So we get 12 pairs.\nSo 12.";
        assert_eq!(locate_with(t, "12", &task, Some(problem)).sentence, Some(0));
        let t = "So we get 6 letters.\nSo 6.";
        assert_eq!(locate_with(t, "6", &task, Some(problem)).sentence, Some(0));
    }

    #[test]
    fn a_problem_mentions_its_numbers_and_its_values() {
        let problem = Problem::new("Let $T=$ 16. Solve $\\log _{4} T=\\log _{2} x$ within 0.25 for $x^2 = 9$.");
        for n in ["16", "4", "2", "0.25", " 4 ", "x^2 = 9", "x^2=9"] {
            assert!(problem.mentions(n), "{n}");
        }
        for n in ["1", "6", "0.2", "25", "-4", "8", "x^2 = 8"] {
            assert!(!problem.mentions(n), "{n}");
        }
    }

    #[test]
    fn a_value_the_problem_writes_inside_a_formula_is_mentioned() {
        let problem = "Let $T=16$. Compute $x$ such that $\\log_{4} T = \\log_{2} x$.";
        let t = "So I need to find x with log base 4 of T equal to log base 2 of x. So x = 4.";
        let task = paper_with(|o| o.skip_task_statements = true);
        assert_eq!(locate_with(t, "4", &task, Some(problem)).sentence, Some(1));
        assert_eq!(locate_with(t, "4", &AnchorMode::Paper.options(), Some(problem)).sentence, Some(0));
    }

    #[test]
    fn backtracking_reaches_the_computation_before_its_restatement() {
        let t = "h = 45/9 = 5.\nSo the height is 5 cm.\nLet me verify.";
        assert_eq!(locate(t, "5", AnchorMode::Paper).sentence, Some(1));
        let back = paper_with(|o| o.backtrack = true);
        assert_eq!(locate_with(t, "5", &back, None).sentence, Some(0));
        // A sentence without the value stops the walk unless the gap allows it.
        let t = "C(10,2) = 45.\nHowever, A cannot exceed 9.\nTherefore, the count is 45.";
        assert_eq!(locate_with(t, "45", &back, None).sentence, Some(2));
        let gap = paper_with(|o| {
            o.backtrack = true;
            o.backtrack_gap = 1;
        });
        assert_eq!(locate_with(t, "45", &gap, None).sentence, Some(0));
    }

    #[test]
    fn less_reduced_forms_do_not_state_the_value() {
        let skip = paper_with(|o| o.skip_unreduced_forms = true);
        for (t, reference) in [
            ("So the distance is √117.\nSo √117 = 3√13.", "3\\sqrt{13}"),
            ("So the probability is 8/32.\nSo it is 1/4.", "\\frac{1}{4}"),
            ("So the ratio is 1/sqrt(3).\nSo it is sqrt(3)/3.", "\\frac{\\sqrt{3}}{3}"),
        ] {
            assert_eq!(locate(t, reference, AnchorMode::Paper).sentence, Some(0), "{t}");
            assert_eq!(locate_with(t, reference, &skip, None).sentence, Some(1), "{t}");
        }
        // Not less reduced than the reference itself; a repeating decimal is no fraction.
        let t = "So the probability is 8/32.\nSo it is 1/4.";
        assert_eq!(locate_with(t, "\\frac{8}{32}", &skip, None).sentence, Some(0));
        let t = "So it is 0.\\overline{3}.\nThus 1/3.";
        assert_eq!(locate_with(t, "\\frac{1}{3}", &skip, None).sentence, Some(0));
        assert!(
            AnchorMode::Default.options().skip_unreduced_forms && !AnchorMode::Paper.options().skip_unreduced_forms
        );
    }

    #[test]
    fn unsimplified_expressions_do_not_state_the_value() {
        let t = "So x = (5/2 * 56) / (-10). Thus x = -14.";
        assert_eq!(locate(t, "-14", AnchorMode::Paper).sentence, Some(0));
        let simple = paper_with(|o| o.max_extra_complexity = Some(0));
        assert_eq!(locate_with(t, "-14", &simple, None).sentence, Some(1));
        // A coefficient's multiplication sign is juxtaposition written out.
        let times = "So r = 14*(sqrt(2) - 1).\nWait, is that simplified? So r = 14(\\sqrt{2} - 1).";
        assert_eq!(locate_with(times, "14(\\sqrt{2} - 1)", &simple, None).sentence, Some(0));
        assert_eq!(complexity("-14"), 1);
        assert_eq!(complexity("(5/2 * 56) / (-10)"), 7);
        assert_eq!(complexity("\\frac{14}{3}"), complexity("14/3"));
        assert_eq!(complexity("x = 5"), 1);
        assert_eq!(complexity("5²"), complexity("5^2"));
        // A multiplication sign where juxtaposition would do is the same product.
        assert_eq!(complexity("3*sqrt(13)"), complexity("3\\sqrt{13}"));
        assert_eq!(complexity("14*(sqrt(2) - 1)"), complexity("14(\\sqrt{2} - 1)"));
        assert_eq!(complexity("2 \\cdot \\pi"), complexity("2\\pi"));
        assert_eq!(complexity("2 × π"), complexity("2π"));
        assert_eq!(complexity("2 \\times x"), complexity("2x"));
        assert_eq!(complexity("2*3"), 3);
        assert_eq!(complexity("2 × 3"), 3);
        assert_eq!(complexity("*x"), 1);
        assert_eq!(complexity("(7 + 2i) * i"), 4);
        assert_eq!(complexity("4π²"), 1);
        // A reciprocal coefficient writes the same quotient; a lone reciprocal keeps its 1.
        assert_eq!(complexity("\\frac{1}{a} \\sinh(at)"), complexity("\\frac{\\sinh(at)}{a}"));
        assert_eq!(complexity("\\dfrac{1}{2}\\pi"), complexity("\\frac{\\pi}{2}"));
        assert_eq!(complexity("\\frac{1}{6}"), 3);
        assert_eq!(complexity("\\frac{1}{2} + x"), 4);
        assert_eq!(complexity("(1/15) cos(2t)"), complexity("\\dfrac{1}{15} \\cos(2t)"));
        assert_eq!(complexity("1/(2a) e^{at}"), complexity("\\frac{1}{2a} e^{at}"));
        // Matrix rows and the end of the text are no factors.
        assert_eq!(complexity("\\begin{pmatrix} \\dfrac{1}{5} \\\\ \\dfrac{6}{5} \\end{pmatrix}"), 6);
        assert_eq!(complexity("1/5"), 3);
        // Nested reciprocals finish (each denominator scan is bounded, so this is linear) and
        // count every operation.
        let nested = "(1/".repeat(100_000) + &")".repeat(100_000);
        assert_eq!(complexity(&nested), 200_000);
        let nested = "\\frac{1}{".repeat(100_000) + &"}".repeat(100_000);
        assert_eq!(complexity(&nested), 200_000);
        assert_eq!(complexity("15,625"), 1);
        assert_eq!(complexity("1{,}000{,}000.5"), 1);
        assert_eq!(complexity("1,2,3"), 3);
        assert_eq!(complexity("2500,7500"), 2);
    }

    #[test]
    fn a_colon_that_announces_the_answer_puts_the_next_line_in_context() {
        let t =
            "Let me think.\nSo, the final answer is:\narcsin(1.3 sin x)\nOr, in LaTeX:\n\\boxed{\\arcsin(1.3 \\sin x)}";
        assert_eq!(locate(t, "\\arcsin(1.3 \\sin x)", AnchorMode::Default).sentence, Some(2));
        let off = paper_with(|o| {
            *o = AnchorMode::Default.options();
            o.colon_carries_cue = false;
        });
        assert_eq!(locate_with(t, "\\arcsin(1.3 \\sin x)", &off, None).sentence, Some(4));
        // A colon that introduces a step does not.
        let t = "So, Equation 2 becomes:\nx^2 = 4\nSolving, x = 2.\nThus, the answer is 4.";
        assert_eq!(locate(t, "4", AnchorMode::Default).sentence, Some(3));
        assert!(announces_answer("**Answer:**") && announces_answer("The final answer is: "));
        assert!(!announces_answer("So we get:") && !announces_answer("The answer is 4."));
    }

    #[test]
    fn a_value_written_with_other_numbers_is_computed_not_stated() {
        // From a real trace: `60 / 0.7` equals 600/7 and is no more complex, but shows none of
        // its figures; the next statement does.
        let t = "So, v = 60 / 0.7. Let me simplify that. So v = 600 / 7.";
        let reference = "\\dfrac{600}{7}";
        let found = locate(t, reference, AnchorMode::Default);
        assert_eq!((found.sentence, found.matched.map(|(_, text)| text)), (Some(2), Some("v = 600 / 7".to_string())));
        let off = paper_with(|o| {
            *o = AnchorMode::Default.options();
            o.reference_figures = false;
        });
        assert_eq!(locate_with(t, reference, &off, None).sentence, Some(0));
        // The value's own digits, or a decimal coefficient of the reference's fraction, count.
        let t = "Thus the probability is 0.25. So it is 1/4.";
        assert_eq!(locate(t, "\\frac{1}{4}", AnchorMode::Default).sentence, Some(0));
        let t = "Hence the angle is 0.25\\pi. Therefore it is \\frac{\\pi}{4}.";
        assert_eq!(locate(t, "\\frac{\\pi}{4}", AnchorMode::Default).sentence, Some(0));
        // An integer reference keeps its digits prefilter; the paper's mode reads every value.
        assert!(AnchorSearch { options: &AnchorMode::Default.options(), policy: &Policy::default(), own_answer: true }
            .figures(&[Answer::parse("17")], Some(&[Prefilter::of(&Answer::parse("17")).expect("an integer")]))
            .iter()
            .all(Option::is_none));
        let t = "So, v = 60 / 0.7. So v = 600 / 7.";
        assert_eq!(locate(t, reference, AnchorMode::Paper).sentence, Some(0));
    }

    #[test]
    fn the_model_s_own_expression_is_stated_with_all_its_numerals() {
        // From a real trace: the expanded form equals the final answer and is no more complex,
        // but drops its `1`; the answer as finally written comes later.
        let t = "So the sum is 11 sqrt(5) + 11. Let me write it nicely. So it is 11(1 + \\sqrt{5}).";
        let (options, policy, cues) = (AnchorMode::Default.options(), Policy::default(), CueMatcher::paper());
        let sentences = split_sentences(t, &SplitOptions::default());
        let refs = [Answer::parse("11(1 + \\sqrt{5})")];
        let search = |own_answer| {
            AnchorSearch { options: &options, policy: &policy, own_answer }.locate(t, &sentences, &cues, &refs, None)
        };
        assert_eq!(search(true).sentence, Some(2));
        // A ground truth may be written in another notation than the model's: any numeral.
        assert_eq!(search(false).sentence, Some(0));
        // A plain rational: every numeral as written or of its fraction, or, for a repeating
        // decimal, which writes only some, its value's leading digits.
        let t = "So 0.\\overline{3} it is. Thus 1/3.";
        assert_eq!(locate(t, "\\frac{1}{3}", AnchorMode::Default).sentence, Some(0));
        let t = "Hmm, 3 apples. So it is 3/2 cups. So 1\\frac{1}{2}.";
        assert_eq!(locate(t, "1\\frac{1}{2}", AnchorMode::Default).sentence, Some(1));
        let t = "So 1 of 2 is it. Thus 1\\frac12 cups.";
        assert_eq!(locate(t, "1\\frac{1}{2}", AnchorMode::Default).sentence, Some(1));
    }

    #[test]
    fn answer_headings_do_not_interrupt_backtracking() {
        let t = "Sum: 1 + 4 + 9 + 9 = 23\n**Final Answer**\nThe sum is \\boxed{23}.";
        assert_eq!(locate(t, "23", AnchorMode::Default).sentence, Some(0));
        let t = "Sum: 1 + 4 + 9 + 9 = 23\nNow we write it up.\nThe sum is \\boxed{23}.";
        assert_eq!(locate(t, "23", AnchorMode::Default).sentence, Some(2));
        assert!(is_answer_heading("### Final answer:") && is_answer_heading("**Answer**"));
        assert!(!is_answer_heading("Answer: 23") && !is_answer_heading("The final answer"));
    }

    #[test]
    fn the_prefilter_holds_for_each_candidate() {
        // A sentence holding 1000 is searched, but only candidates holding its digits can
        // match: `10³` computes 1000, `1000` states it.
        let t = "So 10³, which is 1000. Hence 10³.";
        let a = locate(t, "1000", AnchorMode::Default);
        assert_eq!((a.sentence, a.matched.as_ref().map(|m| m.1.as_str())), (Some(0), Some("1000")));
        assert!(!locate("So it is 10³.", "1000", AnchorMode::Default).found);
        // A number written in thousands groups states the integer.
        for written in ["15,625", "15{,}625"] {
            let t = format!("So the luminosity is {written} times the Sun's.");
            assert!(locate(&t, "15625", AnchorMode::Default).found, "{written}");
        }
        assert!(!locate("So it is 15,626.", "15625", AnchorMode::Default).found);
    }

    #[test]
    fn a_value_written_with_a_scale_word_states_the_integer() {
        for (t, reference) in [
            ("So the population is 2 million.", "2000000"),
            ("So the total is 2\\text{ million}.", "2000000"),
            ("So there are 3 hundred thousand.", "300000"),
            ("So the total is 2 million.", "2\\text{ million}"),
            // A response that boxes 72 and writes "72 million years" means 72 in millions of
            // years by its box: the numeral alone is a candidate too (a real Minerva trace).
            ("Therefore, the time is about 72 million years.", "72"),
        ] {
            for mode in [AnchorMode::Paper, AnchorMode::Default] {
                assert!(locate(t, reference, mode).found, "{t} / {reference}");
            }
        }
        assert!(!locate("So the population is 2 million.", "3000000", AnchorMode::Default).found);
        assert!(!locate("So the population is 2 million.", "200", AnchorMode::Default).found);
    }

    #[test]
    fn described_values_are_not_results() {
        // The default mode, whose complexity bound keeps `4*2` itself from matching 8.
        let on = AnchorMode::Default.options();
        let off = AnchorOptions { skip_described_values: false, ..on.clone() };
        // The subject of a factorization is being taken apart, not derived.
        let t = "But 8 is 4*2, so sqrt(8) = 2*sqrt(2).\nSo m + n = 8.\nThus \\boxed{8}.";
        assert_eq!(locate_with(t, "8", &off, None).sentence, Some(0));
        assert_eq!(locate_with(t, "8", &on, None).sentence, Some(1));
        let t = "Hmm, I can write 25 as 5^{2}, but not sure.\nSo xy = 25.\nThus \\boxed{25}.";
        assert_eq!(locate_with(t, "25", &on, None).sentence, Some(1));
        // After "is", "=" or "so" the value is the clause's result, whatever follows it.
        for t in ["So the area is 468 = 12*39.\nThus \\boxed{468}.", "So, 468 is 12*39.\nThus \\boxed{468}."] {
            assert_eq!(locate_with(t, "468", &on, None).sentence, Some(0), "{t}");
        }
        // A conversion is no factorization: 15.975 = 15 39/40 states the value 639/40.
        let t = "So, 15.975 = 15 39/40 inches.\nThus \\boxed{\\frac{639}{40}}.";
        assert_eq!(locate_with(t, "\\frac{639}{40}", &on, None).sentence, Some(0));
        // A value the problem gives, as the subject of a property, needs the problem to be known.
        let problem = "What is the sum of the proper divisors of the sum of the proper divisors of 284?";
        let t = "Let me see, 284 is an even number, so it is divisible by 2.\nSo the total is 284.\nThus \\boxed{284}.";
        assert_eq!(locate_with(t, "284", &on, Some(problem)).sentence, Some(1));
        assert_eq!(locate_with(t, "284", &on, None).sentence, Some(0));
        assert_eq!(locate_with(t, "284", &off, Some(problem)).sentence, Some(0));
    }

    #[test]
    fn trial_values_are_inputs() {
        let on = paper_with(|o| o.skip_trial_values = true);
        let off = paper_with(|_| {});
        let t = "What if I set y = 0?\nLet's see.\nSo P(0) = 0.\nThus \\boxed{0}.";
        assert_eq!(locate_with(t, "0", &off, None).sentence, Some(0));
        assert_eq!(locate_with(t, "0", &on, None).sentence, Some(2));
        let t = "So, if n=1, how many are there?\nSo the count is 1.\nThus \\boxed{1}.";
        assert_eq!(locate_with(t, "1", &on, None).sentence, Some(1));
        // "at" and "for" also name where a result holds; a longer name is no trial.
        for t in [
            "So the maximum occurs at t = 20.\nThus \\boxed{20}.",
            "So, for n=20, it works.\nThus \\boxed{20}.",
            "So if xy = 20 then done.\nThus \\boxed{20}.",
        ] {
            assert_eq!(locate_with(t, "20", &on, None).sentence, Some(0), "{t}");
        }
    }

    #[test]
    fn range_bounds_are_not_answers() {
        let t = "S is c + f, digits, so 0 to 18.\nThen the sum is 0.\nSo the answer is \\boxed{0}.";
        assert_eq!(locate(t, "0", AnchorMode::Default).sentence, Some(1));
        let t = "It lies between 2 and 9.\nSo x = 2.\nThus \\boxed{2}.";
        assert_eq!(locate(t, "2", AnchorMode::Default).sentence, Some(1));
        // The upper end of a change is a value reached.
        let t = "So it goes from 3 to 5.\nThus \\boxed{5}.";
        assert_eq!(locate(t, "5", AnchorMode::Default).sentence, Some(0));
        // Text before the number in any script.
        let t = "由between 4 and 9.\nSo x = 4.\nThus \\boxed{4}.";
        assert_eq!(locate(t, "4", AnchorMode::Default).sentence, Some(1));
        // A comparison in words: "greater than 3", "different from 1".
        let t = "So a must be greater than 3.\nSo the least a is 3.\nThus \\boxed{3}.";
        assert_eq!(locate_with(t, "3", &AnchorMode::Default.options(), None).sentence, Some(1));
        let t = "So it is a number different from 1.\nSo the product is 1.\nThus \\boxed{1}.";
        assert_eq!(locate_with(t, "1", &AnchorMode::Default.options(), None).sentence, Some(1));
        let on = paper_with(|o| o.inequality_sides = true);
        assert_eq!(locate_with("so 0 to 18.\nSo \\boxed{0}.", "0", &on, None).sentence, Some(0));
    }

    #[test]
    fn enumeration_items_and_inequality_bounds_are_not_answers() {
        let t = "So x = 0 or x = 5.\nSince x is positive, x = 5.";
        assert_eq!(locate(t, "5", AnchorMode::Paper).sentence, Some(0));
        let whole = paper_with(|o| o.list_items = false);
        assert_eq!(locate_with(t, "5", &whole, None).sentence, Some(1));
        let t = "So a \\geq 3 or a \\leq -1.\nTherefore the smallest a is 3.";
        assert_eq!(locate(t, "3", AnchorMode::Paper).sentence, Some(0));
        let no_bounds = paper_with(|o| o.inequality_sides = false);
        assert_eq!(locate_with(t, "3", &no_bounds, None).sentence, Some(1));
        // Plain-text marks of two characters: the side before `>=` is a bound too.
        for mark in [">=", "<=", "!=", "⩾"] {
            let t = format!("So we must have a {mark} 3.\nTherefore the smallest a is 3.");
            assert_eq!(locate_with(&t, "3", &no_bounds, None).sentence, Some(1), "{mark}");
        }
    }

    #[test]
    fn a_sequence_of_assignments_states_the_result_that_ends_it() {
        let whole = paper_with(|o| o.list_items = false);
        // The last item names a derived quantity: the sum is stated, not enumerated.
        for (t, answer) in [
            ("So m=40, n=20, p=3, sum=63.\nThus \\boxed{63}.", "63"),
            ("So x=3, y=4 and area=12.\nThus \\boxed{12}.", "12"),
        ] {
            assert_eq!(locate_with(t, answer, &whole, None).sentence, Some(0), "{t}");
        }
        // The parts of one solution, a repeated name, or a derived quantity that is not the
        // last item: an enumeration still.
        for (t, answer) in [
            ("So a=-4, b=4.\nIn total 4 quadratics.", "4"),
            ("So x = 2, y = 3.\nThus there are 3 ways.", "3"),
            ("So total=5, total=7.\nThus the total is 7.", "7"),
            ("So sum=11, m=4.\nThus the sum is 11.", "11"),
            ("So \\alpha=3, \\beta=4.\nThus the angle is 4.", "4"),
        ] {
            assert_eq!(locate_with(t, answer, &whole, None).sentence, Some(1), "{t}");
        }
    }

    #[test]
    fn a_box_is_a_conclusion_and_number_words_are_optional() {
        let t = "\\boxed{4}\nNow the derivation: two plus two.";
        assert!(!locate(t, "4", AnchorMode::Paper).found);
        let boxed = paper_with(|o| o.boxed_is_conclusion = true);
        assert_eq!(locate_with(t, "4", &boxed, None).sentence, Some(0));
        let t = "So we have four equations. Thus x = 4.";
        assert_eq!(locate(t, "4", AnchorMode::Paper).sentence, Some(0));
        let digits = paper_with(|o| o.number_words = false);
        assert_eq!(locate_with(t, "4", &digits, None).sentence, Some(1));
    }

    #[test]
    fn several_references_any_matches() {
        let cues = CueMatcher::paper();
        let t = "Thus the answer is 6630. Let me check.";
        let sentences = split_sentences(t, &SplitOptions::default());
        let options = AnchorMode::Paper.options();
        let policy = Policy::default();
        let refs = [Answer::parse("6630.65"), Answer::parse("6630")];
        let a = AnchorSearch { options: &options, policy: &policy, own_answer: true }
            .locate(t, &sentences, &cues, &refs, None);
        assert!(a.found);
    }

    #[test]
    fn mode_names_round_trip() {
        for mode in AnchorMode::ALL {
            assert_eq!(AnchorMode::from_name(mode.as_str()), Some(mode));
        }
        assert_eq!(AnchorMode::from_name("nope"), None);
    }

    proptest::proptest! {
        /// The sorted enumerations answer as the scan of every candidate does.
        #[test]
        fn enumerations_enclose_as_a_scan_finds(
            spans in proptest::collection::vec((0usize..40, 0usize..12, 0usize..5), 0..30),
        ) {
            let kinds = [CandidateKind::List, CandidateKind::Set, CandidateKind::Tuple, CandidateKind::Number, CandidateKind::Equation];
            let candidates: Vec<Candidate> = spans
                .iter()
                .map(|&(start, len, kind)| Candidate { start, end: start + len, text: String::new(), kind: kinds[kind] })
                .collect();
            let enumerations = Enumerations::of(&candidates);
            for me in &candidates {
                let scan = candidates.iter().any(|o| {
                    matches!(o.kind, CandidateKind::List | CandidateKind::Set | CandidateKind::Tuple)
                        && o.start <= me.start
                        && me.end <= o.end
                        && (o.start, o.end) != (me.start, me.end)
                });
                proptest::prop_assert_eq!(enumerations.enclose(me), scan, "{:?} in {:?}", (me.start, me.end), spans);
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4000))]

        /// The integer prefilter is a necessary condition: every candidate that a
        /// complexity-bounded search could accept as equal to N (one numeric literal, equal
        /// to N) passes it, on text built around N's digits.
        #[test]
        fn the_integer_prefilter_never_rejects_a_candidate_equal_to_it(
            n in 0u32..3000,
            pieces in proptest::collection::vec(proptest::sample::select(vec![
                "0", "1", "5", "9", ".", ",", " ", "-", "+", "x = ", "$", "\\(", "\\)", "{", "}", "^", "/",
                "e", "10", "00", ".0", ".5", "\\frac{", "is ", "\\,", "%", "°", "²",
                " million", " hundred", " thousand", "\\text{ million}",
            ]), 0..12),
            at in 0usize..12,
            separator in proptest::sample::select(vec!["", ",", "{,}", "\\,", "\\ ", ",\\!", " "]),
        ) {
            let digits = n.to_string();
            // Written in thousands groups: `2,345`, `2{,}345`, `2\,345`.
            let written = if n >= 1000 { format!("{}{separator}{}", n / 1000, &digits[digits.len() - 3..]) } else { digits.clone() };
            let mut parts: Vec<&str> = pieces.clone();
            parts.insert(at.min(parts.len()), &written);
            let text = parts.concat();
            let reference = Answer::parse(&digits);
            let filter = Prefilter::of(&reference).expect("an integer");
            let policy = Policy::default();
            for c in crate::extract::extract_candidates(&text) {
                if complexity(&c.text) > complexity(&digits) {
                    continue;
                }
                if compare(&Answer::parse(&c.text), &reference, &policy).verdict == Verdict::Equal {
                    proptest::prop_assert!(filter.may_match(&c.text), "{:?} in {:?}", c.text, text);
                    proptest::prop_assert!(filter.may_match(&text), "{:?}", text);
                }
            }
        }

        /// A sentence's test from the occurrences found once in the whole thinking gives the
        /// verdict of the test of the sentence alone, for every sentence of any thinking.
        #[test]
        fn a_sentence_test_from_the_whole_thinking_gives_the_sentence_alone_s_verdict(
            n in proptest::sample::select(vec![0u32, 1, 5, 7, 10, 11, 100, 111, 625, 1000, 15625, 20000]),
            pieces in proptest::collection::vec(proptest::sample::select(vec![
                "0", "1", "5", "6", "2", "25", "11", "7", ".", ". ", "! ", "? ", "\n", "\n\n", ",", " ", "-",
                "x = ", "$", "{,}", "\\,", "So ", "e.g. ", "1. ", "。", "答案", " million", "thousand", "15,625",
                "0.5", ".0", "3.", "$$", "\\boxed{", "}",
            ]), 0..40),
        ) {
            let text = pieces.concat();
            let reference = Answer::parse(&n.to_string());
            let references = [reference];
            let options = AnchorMode::Default.options();
            let search = AnchorSearch { options: &options, policy: &Policy::default(), own_answer: true };
            let prefilters = search.prefilters(&references);
            let figures = search.figures(&references, prefilters.as_deref());
            let targets = Targets::new(&references, None, prefilters, figures, &text);
            proptest::prop_assert!(targets.prefilters.is_some());
            let sentences = split_sentences(&text, &SplitOptions::default());
            // The sentences the occurrences point to, in order, hold every one that passes.
            let listed = targets.sentences_to_read(&sentences).expect("an integer reference lists its sentences");
            proptest::prop_assert!(listed.windows(2).all(|w| w[0] < w[1]), "{:?}", listed);
            for (i, s) in sentences.iter().enumerate() {
                let alone = &text[s.start..s.content_end];
                let expected = targets.may_match(alone, || has_scale_word(alone.as_bytes()));
                proptest::prop_assert_eq!(targets.sentence_may_match(&text, s), expected, "{:?} in {:?}", alone, text);
                proptest::prop_assert!(!expected || listed.contains(&i), "{:?} not listed in {:?}", alone, text);
            }
        }
    }
}
