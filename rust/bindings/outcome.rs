//! The outcome check for Python: final answers against accepted answers, a batch in one call.
//!
//! Each response crosses back as `(final_answer, judgements, problem_echo)`: the
//! `FinalAnswer` (or None), one `(verdict, method, reason)` of stable names per accepted answer
//! up to the first equal one, and the echo flag. `apr_fast.correctness` turns them into
//! `Correctness` objects and sends the undecided ones to the CAS.
use std::borrow::Cow;

use pyo3::prelude::*;

use super::answer::{method_name, policy_arg, verdict_name};
use super::extract::PyFinalAnswer;
use super::reward::{ground_truth_lists, problem_list};
use super::{borrow_str_list, char_lengths, static_name, threads_arg};
use crate::outcome::{check_outcomes, Outcome, OutcomeQuery, OutcomeRules};

/// A judgement's names; the detail is a reason name, or the message of an internal error.
type NativeJudgement = (&'static str, &'static str, Cow<'static, str>);
type NativeOutcome = (Option<PyFinalAnswer>, Vec<NativeJudgement>, bool);

fn native_outcome(response: &str, chars: usize, outcome: Outcome) -> NativeOutcome {
    let judgements = outcome.judgements.iter().map(|j| (verdict_name(j.verdict), method_name(j.method), Cow::Borrowed(j.reason.name()))).collect();
    (outcome.final_answer.map(|f| PyFinalAnswer::with_chars(response, chars, f)), judgements, outcome.problem_echo)
}

/// The Python tuple of one outcome, its names shared ([`static_name`]).
fn outcome_tuple(py: Python<'_>, (final_answer, judgements, echo): NativeOutcome) -> PyObject {
    let judgements: Vec<PyObject> = judgements
        .into_iter()
        .map(|(verdict, method, detail)| {
            let detail = match detail {
                Cow::Borrowed(name) => static_name(py, name),
                Cow::Owned(message) => message.into_py(py),
            };
            (static_name(py, verdict), static_name(py, method), detail).into_py(py)
        })
        .collect();
    (final_answer, judgements, echo).into_py(py)
}

/// Checks the final answer of every response against its accepted answers, in parallel
/// without the GIL. ``ground_truths``: one list of str per response (cleaned alternatives);
/// ``problems``: None or one str/None per response. A response whose check fails internally
/// gets an ``("unknown", "error", "internal error: ...")`` judgement.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn check_outcome_batch(
    py: Python<'_>,
    responses: &PyAny,
    ground_truths: &PyAny,
    problems: Option<&PyAny>,
    percent: &str,
    units: &str,
    decimal_min_sig_digits: i64,
    rel_tol: f64,
    reject_problem_echo: bool,
    threads: Option<i64>,
) -> PyResult<Vec<PyObject>> {
    let (texts, chars) = (borrow_str_list(responses, "responses")?, char_lengths(responses)?);
    let n = texts.len();
    let gts = ground_truth_lists(ground_truths, n)?;
    let problems = problem_list(problems, n)?;
    let rules = OutcomeRules { policy: policy_arg(percent, units, decimal_min_sig_digits, rel_tol)?, reject_problem_echo };
    let threads = threads_arg(threads)?;
    let outcomes = py.allow_threads(|| {
        let queries: Vec<OutcomeQuery<'_>> =
            (0..n).map(|i| OutcomeQuery { response: texts[i], ground_truth: &gts[i], problem: problems[i] }).collect();
        let outcomes = check_outcomes(&queries, &rules, threads);
        outcomes.into_iter().enumerate().map(|(i, o)| o.map(|o| native_outcome(texts[i], chars[i], o))).collect::<Vec<_>>()
    });
    Ok(outcomes
        .into_iter()
        .map(|o| o.unwrap_or_else(|panic| (None, vec![("unknown", "error", Cow::Owned(format!("internal error: {}", panic.0)))], false)))
        .map(|o| outcome_tuple(py, o))
        .collect())
}

pub(crate) fn register(m: &PyModule) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(check_outcome_batch, m)?)?;
    Ok(())
}
