//! The outcome check: whether a response's final answer equals one of the accepted answers.
//!
//! final answer ([`extract_final_with`]) -> one [`Judgement`] per accepted answer, in order, stopping
//! at the first equal one -> correct when one is equal and the answer does not merely restate
//! the problem ([`restates_problem`]). The reward ([`crate::reward`]) uses the same rules; this
//! module is the outcome alone, for outcome-only rewards and evaluation, without the anchor
//! search. An undecided comparison stays [`Verdict::Unknown`]: the Python layer sends it to the
//! CAS.

use crate::anchor::complexity;
use crate::answer::{compare, unreduced_forms, Answer, DistinctTexts, Judgement, Numbering, Policy, Verdict};
use crate::extract::{extract_final_with, states_verbatim, FinalAnswer, ProblemValues, ThinkTags};
use crate::hash::FastMap;
use crate::parallel::{drop_cheap_items, map_cheap_items, map_cheap_owned, ItemPanic};

/// One response to check.
#[derive(Debug, Clone, Copy)]
pub struct OutcomeQuery<'a> {
    pub response: &'a str,
    /// Accepted answers (any one is correct); empty = no answer can be correct.
    pub ground_truth: &'a [&'a str],
    /// The problem statement, for the echo rule.
    pub problem: Option<&'a str>,
}

/// How to check outcomes.
#[derive(Debug, Clone, PartialEq)]
pub struct OutcomeRules {
    pub policy: Policy,
    /// An answer that restates the problem's expression is not correct ([`restates_problem`]).
    pub reject_problem_echo: bool,
    /// Only an answer after `</think>` counts ([`final_answer_of`]).
    pub require_answer_after_think: bool,
    /// The tags around the thinking; the closing one is what `</think>` means here.
    pub think: ThinkTags,
}

impl OutcomeRules {
    /// The final answer of `response` under these rules ([`final_answer_of`] with the closing
    /// tag [`ThinkTags::of_response`] gives it).
    pub fn final_answer(&self, response: &str) -> Option<FinalAnswer> {
        final_answer_of(response, self.require_answer_after_think, self.think.of_response(response).1)
    }
}

/// The outcome of one response.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub final_answer: Option<FinalAnswer>,
    /// The final answer against the accepted answers, in order, up to the first equal one;
    /// empty without a final answer.
    pub judgements: Vec<Judgement>,
    /// The final answer restates the problem's expression ([`restates_problem`]; checked
    /// whatever the verdict, so that a CAS "equal" later cannot make an echo correct).
    pub problem_echo: bool,
}

impl Outcome {
    /// The combined verdict: equal if any comparison is, else unknown if any is, else not
    /// equal; `None` when there was nothing to compare.
    pub fn correctness(&self) -> Option<Judgement> {
        (!self.judgements.is_empty()).then(|| Judgement::any(self.judgements.iter().copied()))
    }

    pub fn correct(&self) -> bool {
        !self.problem_echo && self.judgements.last().is_some_and(|j| j.verdict == Verdict::Equal)
    }
}

/// The final answer against each accepted answer, in order, up to the first equal one.
pub fn judge_alternatives<'a>(
    final_answer: &Answer,
    ground_truth: impl IntoIterator<Item = &'a Answer>,
    policy: &Policy,
) -> Vec<Judgement> {
    let mut judgements = Vec::new();
    let policy = policy.for_grading();
    for g in ground_truth {
        let j = compare(final_answer, g, &policy);
        judgements.push(j);
        if j.verdict == Verdict::Equal {
            break;
        }
    }
    judgements
}

/// The final answer of `response` ([`extract_final_with`], `close` being the closing tag that
/// [`ThinkTags::of_response`] gives it); with `require_after_think`, one found only inside the
/// thinking (or in a response without `</think>`) counts as none, as a strict format reward
/// counts it: the answer section after `</think>` must state the answer.
pub fn final_answer_of(response: &str, require_after_think: bool, close: &str) -> Option<FinalAnswer> {
    extract_final_with(response, close).filter(|f| !(require_after_think && f.in_thinking))
}

/// Checks one response.
pub fn check_outcome(query: &OutcomeQuery<'_>, rules: &OutcomeRules) -> Outcome {
    let final_answer = rules.final_answer(query.response);
    let parsed = final_answer.as_ref().map(|f| Answer::parse(&f.text));
    let ground_truth: Vec<Answer> = query.ground_truth.iter().map(|g| Answer::parse(g)).collect();
    judge_outcome(final_answer, parsed.as_ref(), &ground_truth, query, &rules.policy, rules.reject_problem_echo)
}

/// The outcome of a final answer that is already extracted and parsed (`parsed` is
/// `final_answer`'s text; `ground_truth` is `query.ground_truth` parsed).
pub fn judge_outcome<'a>(
    final_answer: Option<FinalAnswer>,
    parsed: Option<&Answer>,
    ground_truth: impl IntoIterator<Item = &'a Answer>,
    query: &OutcomeQuery<'_>,
    policy: &Policy,
    reject_problem_echo: bool,
) -> Outcome {
    let judgements = parsed.map(|a| judge_alternatives(a, ground_truth, policy)).unwrap_or_default();
    outcome_of(final_answer, judgements, query, reject_problem_echo)
}

/// Judgements of (final answer, accepted answers) pairs already made in one batch, shared by
/// its worker threads: the rollouts of one prompt share its ground truth and often state the
/// same answer, so most pairs of a training step repeat. Only the judging is shared; the echo
/// rule stays per rollout ([`outcome_of`]).
#[derive(Debug, Default)]
pub struct OutcomeMemo {
    judged: std::sync::Mutex<FastMap<Vec<u8>, Vec<Judgement>>>,
}

impl OutcomeMemo {
    /// The judgements of `final_text` against `ground_truth`, made by `judge` the first time
    /// this pair is asked for (outside the lock, so threads judge different pairs at once).
    pub fn judgements(
        &self,
        final_text: &str,
        ground_truth: &[&str],
        judge: impl FnOnce() -> Vec<Judgement>,
    ) -> Vec<Judgement> {
        // One key, each text preceded by its length (eight bytes): no two pairs share a key.
        let mut key =
            Vec::with_capacity(final_text.len() + ground_truth.iter().map(|g| g.len() + 8).sum::<usize>() + 8);
        for text in std::iter::once(&final_text).chain(ground_truth) {
            key.extend_from_slice(&(text.len() as u64).to_le_bytes());
            key.extend_from_slice(text.as_bytes());
        }
        let lock = || self.judged.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(known) = lock().get(&key) {
            return known.clone();
        }
        let made = judge();
        lock().insert(key, made.clone());
        made
    }
}

/// The outcome of a final answer whose judgements are made ([`judge_alternatives`]): adds the
/// echo rule.
pub fn outcome_of(
    final_answer: Option<FinalAnswer>,
    judgements: Vec<Judgement>,
    query: &OutcomeQuery<'_>,
    reject_problem_echo: bool,
) -> Outcome {
    let problem_echo = reject_problem_echo
        && match (&final_answer, query.problem) {
            (Some(f), Some(p)) => restates_problem(&f.text, query.ground_truth, p),
            _ => false,
        };
    Outcome { final_answer, judgements, problem_echo }
}

/// Checks a batch on `threads` workers; a query that panics gives its `Err` and the rest are
/// unaffected. Each distinct answer text (final answers and accepted answers alike) is parsed
/// once per batch ([`DistinctTexts`]), and each distinct pair of a final answer and a list of
/// accepted answers is judged once (a training step's rollouts of one prompt share its ground
/// truth and often state the same answer).
pub fn check_outcomes(
    queries: &[OutcomeQuery<'_>],
    rules: &OutcomeRules,
    threads: Option<usize>,
) -> Vec<Result<Outcome, ItemPanic>> {
    let finals = map_cheap_items(queries, threads, |q| rules.final_answer(q.response));
    judge_final_answers(finals, queries, rules, threads)
}

/// [`check_outcomes`] from the final answers on: `finals[i]` is what
/// [`OutcomeRules::final_answer`] found in `queries[i].response` (or the panic it raised),
/// for a caller that reads the responses in parts and lets each part go once its final
/// answers are found. The responses are not read here.
pub fn judge_final_answers(
    finals: Vec<Result<Option<FinalAnswer>, ItemPanic>>,
    queries: &[OutcomeQuery<'_>],
    rules: &OutcomeRules,
    threads: Option<usize>,
) -> Vec<Result<Outcome, ItemPanic>> {
    assert_eq!(finals.len(), queries.len(), "one final answer per query");
    let mut distinct = DistinctTexts::default();
    let mut pairs: Numbering<(usize, Vec<usize>)> = Numbering::default();
    // Per query: the number of its (final answer, accepted answers) pair; None without a final
    // answer (nothing to judge).
    let pair_of: Vec<Option<usize>> = queries
        .iter()
        .zip(&finals)
        .map(|(q, f)| {
            let final_id = f.as_ref().ok().and_then(Option::as_ref).map(|f| distinct.id(f.text.as_str()))?;
            Some(pairs.id((final_id, q.ground_truth.iter().map(|g| distinct.id(g)).collect())))
        })
        .collect();
    let parsed = distinct.parse(threads);
    let answer = |id: usize| parsed[id].as_ref().unwrap_or_else(|panic| panic!("answer parsing failed: {}", panic.0));
    // A panic in an earlier stage fails the queries that need its result only (map_items
    // catches it again there).
    let judged = map_cheap_items(pairs.keys(), threads, |(final_id, gt_ids)| {
        judge_alternatives(answer(*final_id), gt_ids.iter().map(|&id| answer(id)), &rules.policy)
    });
    drop_cheap_items(parsed, threads);
    let jobs: Vec<_> = finals.into_iter().zip(pair_of).zip(queries).collect();
    map_cheap_owned(jobs, threads, |((final_answer, pair), query)| {
        let final_answer = final_answer.unwrap_or_else(|panic| panic!("final-answer extraction failed: {}", panic.0));
        let judgements = match pair {
            Some(p) => judged[p].clone().unwrap_or_else(|panic| panic!("{}", panic.0)),
            None => Vec::new(),
        };
        outcome_of(final_answer, judgements, query, rules.reject_problem_echo)
    })
}

/// Whether `final_text` restates an expression of the problem instead of stating a value: the
/// problem states it verbatim (white space aside), no accepted answer appears there, and it is
/// less simplified than every accepted answer: more complex ([`complexity`]: numeric literals
/// plus operations), or with more of the forms a simplest form does not have
/// ([`unreduced_forms`]: a fraction not in lowest terms, a root with a square factor, a root
/// in a denominator; `\sqrt{117}` is less complex than `3\sqrt{13}`, and less simplified).
/// `\tan 100^\circ + 4 \sin 100^\circ` for `-\sqrt{3}` is an echo, and so is `\frac{84}{144}`
/// for `\frac{7}{12}` ("Simplify $\frac{84}{144}$"); a multiple-choice value or an answer the
/// problem itself names ("show that it equals n(n+1)/2") is not.
pub fn is_problem_echo(final_text: &str, ground_truth: &[&str], problem: &ProblemValues) -> bool {
    if ground_truth.is_empty() || !problem.contains(final_text) || ground_truth.iter().any(|g| problem.contains(g)) {
        return false;
    }
    let own = complexity(final_text);
    let own_unreduced = unreduced_forms(final_text);
    ground_truth.iter().all(|g| {
        let theirs = complexity(g);
        own > theirs || own_unreduced > unreduced_forms(g)
    })
}

/// [`is_problem_echo`] for a problem given as text: its candidates are extracted only when
/// `final_text` appears in it (white space aside), so most calls cost one substring search.
pub fn restates_problem(final_text: &str, ground_truth: &[&str], problem: &str) -> bool {
    states_verbatim(problem, final_text)
        && is_problem_echo(final_text, ground_truth, &ProblemValues::from_problem(problem))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::Reason;

    fn rules() -> OutcomeRules {
        OutcomeRules {
            policy: Policy::default(),
            reject_problem_echo: true,
            require_answer_after_think: false,
            think: ThinkTags::default(),
        }
    }

    fn check(response: &str, gt: &[&str], problem: Option<&str>) -> Outcome {
        check_outcome(&OutcomeQuery { response, ground_truth: gt, problem }, &rules())
    }

    #[test]
    fn stops_at_the_first_equal_alternative() {
        let o = check("<think>x</think> So $\\boxed{\\frac{1}{2}}$.", &["3", "0.5", "1/2"], None);
        assert_eq!(o.final_answer.as_ref().unwrap().text, "\\frac{1}{2}");
        assert_eq!(o.judgements.len(), 2);
        assert_eq!(o.judgements[0].verdict, Verdict::NotEqual);
        assert!(o.correct());
        assert_eq!(o.correctness().unwrap().verdict, Verdict::Equal);
    }

    #[test]
    fn nothing_to_compare() {
        let o = check("<think>x</think> no answer here", &["3"], None);
        assert!(o.final_answer.is_none() && o.judgements.is_empty() && !o.correct());
        assert_eq!(o.correctness(), None);
        let o = check("<think>x</think> $\\boxed{3}$", &[], None);
        assert!(o.final_answer.is_some() && o.judgements.is_empty() && !o.correct());
    }

    #[test]
    fn undecided_stays_unknown() {
        let o = check("\\boxed{\\int_0^1 x^x dx}", &["0.7834305107"], None);
        assert!(!o.correct());
        assert_eq!(o.correctness().unwrap().verdict, Verdict::Unknown);
    }

    #[test]
    fn echo_of_the_problem_is_not_correct() {
        let problem = "Simplify $\\tan 100^\\circ + 4 \\sin 100^\\circ.$";
        let response = "<think>...</think> $\\boxed{\\tan 100^\\circ + 4 \\sin 100^\\circ}$";
        let o = check(response, &["-\\sqrt{3}"], Some(problem));
        assert_eq!((o.judgements[0].verdict, o.judgements[0].reason), (Verdict::Equal, Reason::NumericValue));
        assert!(o.problem_echo && !o.correct());
        let kept = check_outcome(
            &OutcomeQuery { response, ground_truth: &["-\\sqrt{3}"], problem: Some(problem) },
            &OutcomeRules { reject_problem_echo: false, ..rules() },
        );
        assert!(!kept.problem_echo && kept.correct());
    }

    #[test]
    fn an_unreduced_fraction_or_root_copied_from_the_problem_is_an_echo() {
        let echo = |problem: &str, boxed: &str, gt: &str| {
            let response = format!("<think>...</think> $\\boxed{{{boxed}}}$");
            let o = check(&response, &[gt], Some(problem));
            assert_eq!(o.judgements[0].verdict, Verdict::Equal, "{boxed} = {gt}");
            o.problem_echo
        };
        assert!(echo("Simplify $\\frac{84}{144}$.", "\\frac{84}{144}", "\\frac{7}{12}"));
        assert!(echo("Simplify $\\sqrt{117}$.", "\\sqrt{117}", "3\\sqrt{13}"));
        // The simplest form itself, or an answer as simple as the ground truth, is no echo.
        assert!(!echo("Simplify $\\frac{84}{144}$.", "\\frac{7}{12}", "\\frac{7}{12}"));
        assert!(!echo("Compute $\\frac{7}{12}$ of 1.", "\\frac{7}{12}", "7/12"));
    }

    #[test]
    fn a_repeated_pair_is_judged_once_and_the_echo_rule_stays_per_query() {
        let problem = "Simplify $\\tan 100^\\circ + 4 \\sin 100^\\circ.$";
        let echo = "<think>...</think> $\\boxed{\\tan 100^\\circ + 4 \\sin 100^\\circ}$";
        let gt: &[&str] = &["-\\sqrt{3}"];
        let queries = [
            OutcomeQuery { response: echo, ground_truth: gt, problem: Some(problem) },
            OutcomeQuery { response: echo, ground_truth: gt, problem: None },
            OutcomeQuery { response: "\\boxed{-\\sqrt{3}}", ground_truth: gt, problem: Some(problem) },
            OutcomeQuery { response: "so \\boxed{-\\sqrt 3}", ground_truth: gt, problem: None },
            OutcomeQuery { response: "\\boxed{-\\sqrt{3}}", ground_truth: &["2", "-\\sqrt{3}"], problem: None },
            OutcomeQuery { response: "no answer", ground_truth: gt, problem: None },
        ];
        for threads in [1, 2] {
            let batch: Vec<Outcome> =
                check_outcomes(&queries, &rules(), Some(threads)).into_iter().map(Result::unwrap).collect();
            for (q, b) in queries.iter().zip(&batch) {
                assert_eq!(*b, check_outcome(q, &rules()));
            }
            assert!(batch[0].problem_echo && !batch[0].correct());
            assert!(!batch[1].problem_echo && batch[1].correct());
            assert_eq!(batch[4].judgements.len(), 2);
        }
    }

    #[test]
    fn a_strict_format_counts_only_an_answer_after_think() {
        let strict = OutcomeRules { require_answer_after_think: true, ..rules() };
        let inside = "<think>so \\boxed{5}</think>";
        let after = "<think>so 5</think> The answer is \\boxed{5}.";
        let unclosed = "<think>so \\boxed{5}";
        for (response, lenient_correct, strict_correct) in
            [(inside, true, false), (after, true, true), (unclosed, true, false)]
        {
            let query = OutcomeQuery { response, ground_truth: &["5"], problem: None };
            assert_eq!(check_outcome(&query, &rules()).correct(), lenient_correct, "{response}");
            let o = check_outcome(&query, &strict);
            assert_eq!(o.correct(), strict_correct, "{response}");
            assert_eq!(o.final_answer.is_some(), strict_correct);
            assert_eq!(check_outcomes(&[query], &strict, Some(1))[0].as_ref().unwrap(), &o);
        }
    }

    #[test]
    fn final_answers_found_apart_are_judged_as_in_one_call() {
        let responses = ["\\boxed{2}", "the answer is 4.", "\\boxed{5}", "none"];
        let gts: [&[&str]; 4] = [&["2"], &["3", "4"], &[], &["1"]];
        let queries: Vec<OutcomeQuery<'_>> = responses
            .iter()
            .zip(gts)
            .map(|(r, g)| OutcomeQuery { response: r, ground_truth: g, problem: None })
            .collect();
        let finals = queries.iter().map(|q| Ok(rules().final_answer(q.response))).collect();
        let apart: Vec<Outcome> =
            judge_final_answers(finals, &queries, &rules(), Some(2)).into_iter().map(Result::unwrap).collect();
        let together: Vec<Outcome> =
            check_outcomes(&queries, &rules(), Some(2)).into_iter().map(Result::unwrap).collect();
        assert_eq!(apart, together);
        assert!(apart[0].correct() && apart[1].correct() && !apart[2].correct() && apart[3].final_answer.is_none());
    }

    #[test]
    fn batch_matches_one_by_one() {
        let gts: [&[&str]; 3] = [&["2"], &["3", "4"], &[]];
        let responses = ["\\boxed{2}", "the answer is 4.", "\\boxed{5}"];
        let queries: Vec<OutcomeQuery<'_>> = responses
            .iter()
            .zip(gts)
            .map(|(r, g)| OutcomeQuery { response: r, ground_truth: g, problem: None })
            .collect();
        let batch = check_outcomes(&queries, &rules(), Some(2));
        for (q, b) in queries.iter().zip(batch) {
            assert_eq!(b.unwrap(), check_outcome(q, &rules()));
        }
    }
}
