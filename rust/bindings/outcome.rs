//! The outcome check for Python: final answers against accepted answers, a batch in one call.
//!
//! Each response crosses back as a finished `Correctness` (the class is passed in and built
//! here, [`InstanceBuilder`]): its `FinalAnswer` (or None), the judgement that decided (one
//! shared `Judgement` object per distinct verdict, method and reason, made by the Python
//! factory passed in), the accepted answer it matched and the echo flag. A response with an
//! undecided comparison also crosses back as `(index, final_answer, judgements, echo)`, its
//! `(verdict, method, reason)` names per accepted answer, for `apr_fast.correctness` to send to
//! the CAS.
use std::borrow::Cow;

use pyo3::prelude::*;
use pyo3::types::PyList;

use super::answer::{method_name, policy_arg, verdict_name};
use super::extract::{final_answers_in_parts, AnswerSpan, PyFinalAnswer};
use super::reward::{ground_truth_lists, problem_list};
use super::{sequence_items, static_name, think_tags_of, threads_arg, InstanceBuilder};
use crate::answer::{Judgement, Verdict};
use crate::hash::FastMap;
use crate::outcome::{judge_final_answers, Outcome, OutcomeQuery, OutcomeRules};
use crate::parallel::map_cheap_owned;

/// A judgement's names; the detail is a reason name, or the message of an internal error.
type NativeJudgement = (&'static str, &'static str, Cow<'static, str>);

/// One response's outcome, its byte offsets turned into character offsets.
struct NativeOutcome {
    final_answer: Option<PyFinalAnswer>,
    /// Names of the judgement per accepted answer, up to the first equal one; only for an
    /// undecided outcome (the CAS reads them), empty otherwise.
    judgements: Vec<NativeJudgement>,
    /// The judgement that decides ([`Outcome::correctness`]: the equal one, else the first
    /// undecided one, else the first).
    decisive: Option<NativeJudgement>,
    /// The index of the accepted answer found equal (the list stops there).
    equal_at: Option<usize>,
    /// No alternative is equal and one comparison is undecided: the CAS may settle it.
    undecided: bool,
    problem_echo: bool,
}

fn names(j: Judgement) -> NativeJudgement {
    (verdict_name(j.verdict), method_name(j.method), Cow::Borrowed(j.reason.name()))
}

fn native_outcome(span: Option<AnswerSpan>, outcome: Outcome) -> NativeOutcome {
    let equal_at =
        outcome.judgements.last().filter(|j| j.verdict == Verdict::Equal).map(|_| outcome.judgements.len() - 1);
    let undecided = equal_at.is_none() && outcome.judgements.iter().any(|j| j.verdict == Verdict::Unknown);
    NativeOutcome {
        decisive: outcome.correctness().map(names),
        undecided,
        equal_at,
        judgements: if undecided { outcome.judgements.iter().copied().map(names).collect() } else { Vec::new() },
        final_answer: outcome
            .final_answer
            .map(|f| PyFinalAnswer::with_span(f, span.expect("a final answer's span is counted where it is found"))),
        problem_echo: outcome.problem_echo,
    }
}

fn internal_error(message: String) -> NativeOutcome {
    let error: NativeJudgement = ("unknown", "error", Cow::Owned(format!("internal error: {message}")));
    NativeOutcome {
        final_answer: None,
        judgements: vec![error.clone()],
        decisive: Some(error),
        equal_at: None,
        undecided: true,
        problem_echo: false,
    }
}

/// The `Correctness` fields, in the order given to the builder.
const CORRECTNESS_FIELDS: &[&str] = &["correct", "final_answer", "matched", "judgement", "problem_echo"];

/// `Judgement` objects made by the Python factory, one per distinct `(verdict, method, reason)`
/// of static names (keyed by their addresses); an internal error's message gets its own.
struct Judgements<'py> {
    factory: &'py PyAny,
    made: FastMap<(usize, usize, usize), PyObject>,
}

impl<'py> Judgements<'py> {
    fn get(&mut self, py: Python<'py>, (verdict, method, detail): &NativeJudgement) -> PyResult<PyObject> {
        let make = |detail: PyObject| {
            self.factory.call1((static_name(py, verdict), static_name(py, method), detail)).map(|j| j.into_py(py))
        };
        match detail {
            Cow::Borrowed(reason) => {
                let key = (verdict.as_ptr() as usize, method.as_ptr() as usize, reason.as_ptr() as usize);
                if let Some(j) = self.made.get(&key) {
                    return Ok(j.clone_ref(py));
                }
                let j = make(static_name(py, reason))?;
                self.made.insert(key, j.clone_ref(py));
                Ok(j)
            }
            Cow::Owned(message) => make(message.into_py(py)),
        }
    }
}

/// Checks the final answer of every response against its accepted answers, in parallel
/// without the GIL. ``ground_truths``: one list of str per response (cleaned alternatives);
/// ``problems``: None or one str/None per response. Returns one ``into`` instance
/// (``Correctness``) per response, decided natively, and the responses whose comparisons left
/// one undecided, as ``(index, final_answer, [(verdict, method, reason), ...], echo)``, for the
/// CAS. A response whose check fails internally gets an ``("unknown", "error", "internal
/// error: ...")`` judgement.
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
    require_answer_after_think: bool,
    think_tags: Option<&PyAny>,
    threads: Option<i64>,
    into: &PyAny,
    judgement_of: &PyAny,
) -> PyResult<(Vec<PyObject>, Vec<PyObject>)> {
    let items = sequence_items(responses, &"responses", "a list of str")?;
    let n = items.len();
    let gts = ground_truth_lists(ground_truths, n)?;
    let gt_objects: &PyList = ground_truths.downcast()?;
    let problems = problem_list(problems, n)?;
    let rules = OutcomeRules {
        policy: policy_arg(percent, units, decimal_min_sig_digits, rel_tol)?,
        reject_problem_echo,
        require_answer_after_think,
        think: think_tags_of(think_tags)?,
    };
    let threads = threads_arg(threads)?;
    let builder = InstanceBuilder::new(py, into, CORRECTNESS_FIELDS)?;
    let mut judgements = Judgements { factory: judgement_of, made: FastMap::default() };
    // The final answers (and their character offsets), the responses read a part at a time.
    let (finals, spans): (Vec<_>, Vec<_>) = final_answers_in_parts(
        py,
        &items,
        "responses",
        rules.think.fixed_close(),
        |text| rules.final_answer(text),
        threads,
    )?
    .into_iter()
    .map(|item| match item {
        Ok(Some((found, span))) => (Ok(Some(found)), Some(span)),
        Ok(None) => (Ok(None), None),
        Err(panic) => (Err(panic), None),
    })
    .unzip();
    let outcomes = py.allow_threads(|| {
        // The final answers are found: the queries' responses are not read again.
        let queries: Vec<OutcomeQuery<'_>> =
            (0..n).map(|i| OutcomeQuery { response: "", ground_truth: &gts[i], problem: problems[i] }).collect();
        let outcomes: Vec<_> = judge_final_answers(finals, &queries, &rules, threads).into_iter().zip(spans).collect();
        map_cheap_owned(outcomes, threads, |(o, span)| o.map(|o| native_outcome(span, o)))
    });
    let mut rows = Vec::with_capacity(n);
    let mut undecided = Vec::new();
    for (i, outcome) in outcomes.into_iter().enumerate() {
        let o = outcome.and_then(|o| o).unwrap_or_else(|panic| internal_error(panic.0));
        let final_answer: PyObject = match o.final_answer {
            Some(f) => Py::new(py, f)?.into_py(py),
            None => py.None(),
        };
        let echo = o.problem_echo;
        let judgement = match &o.decisive {
            Some(j) => judgements.get(py, j)?,
            None => py.None(),
        };
        let matched = match o.equal_at {
            Some(k) if !echo => gt_objects.get_item(i)?.get_item(k)?.into_py(py),
            _ => py.None(),
        };
        let equal = o.equal_at.is_some();
        rows.push(builder.build(
            py,
            [(equal && !echo).into_py(py), final_answer.clone_ref(py), matched, judgement, (equal && echo).into_py(py)],
        )?);
        if o.undecided && !final_answer.is_none(py) {
            let names: Vec<PyObject> = o
                .judgements
                .into_iter()
                .map(|(verdict, method, detail)| {
                    let detail = match detail {
                        Cow::Borrowed(name) => static_name(py, name),
                        Cow::Owned(message) => message.into_py(py),
                    };
                    (static_name(py, verdict), static_name(py, method), detail).into_py(py)
                })
                .collect();
            undecided.push((i, final_answer, names, echo).into_py(py));
        }
    }
    Ok((rows, undecided))
}

pub(crate) fn register(m: &PyModule) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(check_outcome_batch, m)?)?;
    Ok(())
}
