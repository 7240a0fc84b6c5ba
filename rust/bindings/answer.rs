//! Answer equivalence for Python: single and batch comparison, normalisation, CAS forms.
//!
//! A judgement crosses the boundary as a tuple `(verdict, method, reason, sympy_a, sympy_b)` of
//! stable names; `apr_fast.equivalence` turns it into enums and runs the CAS fallback. The sympy
//! forms are only filled in when the verdict is unknown and a CAS could still decide it.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use super::{borrow_str, sequence_items, threads_arg};
use crate::answer::{
    self, Answer, DistinctTexts, Judgement, Method, Numbering, PercentPolicy, Policy, UnitsPolicy, Verdict,
};
use crate::parallel::{map_cheap_items, map_items};

type JudgementTuple = (&'static str, &'static str, String, Option<String>, Option<String>);

pub(crate) fn policy_arg(percent: &str, units: &str, decimal_min_sig_digits: i64, rel_tol: f64) -> PyResult<Policy> {
    let percent = match percent {
        "strict" => PercentPolicy::Strict,
        "as_fraction" => PercentPolicy::AsFraction,
        "either" => PercentPolicy::Either,
        other => {
            return Err(PyValueError::new_err(format!(
                "percent must be 'strict', 'as_fraction' or 'either', got {other:?}"
            )))
        }
    };
    let units = match units {
        "strict" => UnitsPolicy::Strict,
        "ignore" => UnitsPolicy::Ignore,
        other => return Err(PyValueError::new_err(format!("units must be 'strict' or 'ignore', got {other:?}"))),
    };
    let decimal_min_sig_digits = u32::try_from(decimal_min_sig_digits).ok().filter(|&d| d >= 1).ok_or_else(|| {
        PyValueError::new_err(format!("decimal_min_sig_digits must be >= 1, got {decimal_min_sig_digits}"))
    })?;
    if !(rel_tol.is_finite() && rel_tol > 0.0 && rel_tol < 1.0) {
        return Err(PyValueError::new_err(format!("rel_tol must be in (0, 1), got {rel_tol}")));
    }
    Ok(Policy { percent, units, decimal_min_sig_digits, rel_tol, prove_not_equal: true, unsolved_conditions: true })
}

pub(crate) fn verdict_name(v: Verdict) -> &'static str {
    match v {
        Verdict::Equal => "equal",
        Verdict::NotEqual => "not_equal",
        Verdict::Unknown => "unknown",
    }
}

pub(crate) fn method_name(m: Method) -> &'static str {
    match m {
        Method::Exact => "native_exact",
        Method::Numeric => "native_numeric",
        Method::Text => "native_text",
        Method::Undecided => "native_undecided",
    }
}

fn judgement_tuple(j: Judgement, a: &Answer, b: &Answer, policy: &Policy) -> JudgementTuple {
    let cas = j.verdict == Verdict::Unknown && j.reason.cas_may_help();
    let (sa, sb) = if cas { (a.to_sympy_for(policy), b.to_sympy_for(policy)) } else { (None, None) };
    (verdict_name(j.verdict), method_name(j.method), j.reason.name().to_string(), sa, sb)
}

fn internal_error(message: &str) -> JudgementTuple {
    ("unknown", "error", format!("internal error: {message}"), None, None)
}

/// Compares two answers natively.
#[pyfunction]
fn answer_equivalent(
    py: Python<'_>,
    a: &PyAny,
    b: &PyAny,
    percent: &str,
    units: &str,
    decimal_min_sig_digits: i64,
    rel_tol: f64,
) -> PyResult<JudgementTuple> {
    let a = borrow_str(a, "a")?;
    let b = borrow_str(b, "b")?;
    let policy = policy_arg(percent, units, decimal_min_sig_digits, rel_tol)?;
    let result = py.allow_threads(|| {
        guarded(|| {
            let (a, b) = (Answer::parse(a), Answer::parse(b));
            judgement_tuple(answer::compare(&a, &b, &policy), &a, &b, &policy)
        })
    });
    Ok(result.unwrap_or_else(|message| internal_error(&message)))
}

/// Runs `f` on the calling thread with panics caught (a caught panic is a bug, reported as a
/// status rather than a `PanicException`).
fn guarded<T: Send>(f: impl Fn() -> T + Sync + Send) -> Result<T, String> {
    match map_items(&[()], Some(1), |_| f()).pop() {
        Some(Ok(value)) => Ok(value),
        Some(Err(panic)) => Err(panic.0),
        None => Err("no result".to_string()),
    }
}

/// Borrows `pairs`, a list of `(str, str)`.
fn borrow_pairs(pairs: &PyAny) -> PyResult<Vec<(&str, &str)>> {
    sequence_items(pairs, &"pairs", "a list of (str, str) tuples")?
        .into_iter()
        .enumerate()
        .map(|(i, item)| {
            let pair: Vec<&PyAny> = if let Ok(t) = item.downcast::<PyTuple>() {
                t.iter().collect()
            } else if let Ok(l) = item.downcast::<PyList>() {
                l.iter().collect()
            } else {
                return Err(PyTypeError::new_err(format!(
                    "pairs[{i}] must be a (str, str) tuple, got {}",
                    item.get_type().name()?
                )));
            };
            match pair.as_slice() {
                [a, b] => Ok((borrow_str(a, &format!("pairs[{i}][0]"))?, borrow_str(b, &format!("pairs[{i}][1]"))?)),
                _ => Err(PyValueError::new_err(format!("pairs[{i}] must have 2 items, got {}", pair.len()))),
            }
        })
        .collect()
}

/// Compares many pairs in parallel; every distinct string is parsed once (a reference shared by
/// many pairs costs one parse) and every distinct pair compared once.
#[pyfunction]
fn answer_equivalent_batch(
    py: Python<'_>,
    pairs: &PyAny,
    percent: &str,
    units: &str,
    decimal_min_sig_digits: i64,
    rel_tol: f64,
    threads: Option<i64>,
) -> PyResult<Vec<JudgementTuple>> {
    let pairs = borrow_pairs(pairs)?;
    let policy = policy_arg(percent, units, decimal_min_sig_digits, rel_tol)?;
    let threads = threads_arg(threads)?;
    Ok(py.allow_threads(|| {
        let mut distinct = DistinctTexts::default();
        let mut numbered: Numbering<(usize, usize)> = Numbering::default();
        let pair_ids: Vec<usize> = pairs.iter().map(|&(a, b)| numbered.id((distinct.id(a), distinct.id(b)))).collect();
        let parsed = distinct.parse(threads);
        let judged: Vec<JudgementTuple> =
            map_cheap_items(numbered.keys(), threads, |&(i, j)| match (&parsed[i], &parsed[j]) {
                (Ok(a), Ok(b)) => judgement_tuple(answer::compare(a, b, &policy), a, b, &policy),
                (Err(panic), _) | (_, Err(panic)) => internal_error(&panic.0),
            })
            .into_iter()
            .map(|r| r.unwrap_or_else(|panic| internal_error(&panic.0)))
            .collect();
        pair_ids.iter().map(|&p| judged[p].clone()).collect()
    }))
}

/// The canonical string of an answer.
#[pyfunction]
fn answer_normalize(py: Python<'_>, text: &PyAny) -> PyResult<String> {
    let text = borrow_str(text, "text")?;
    py.allow_threads(|| guarded(|| answer::normalize(text)))
        .map_err(|m| PyValueError::new_err(format!("internal error: {m}")))
}

/// The CAS form of an answer (None where it has none).
#[pyfunction]
fn answer_to_sympy(py: Python<'_>, text: &PyAny) -> PyResult<Option<String>> {
    let text = borrow_str(text, "text")?;
    py.allow_threads(|| guarded(|| Answer::parse(text).to_sympy()))
        .map_err(|m| PyValueError::new_err(format!("internal error: {m}")))
}

pub(crate) fn register(m: &PyModule) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(answer_equivalent, m)?)?;
    m.add_function(wrap_pyfunction!(answer_equivalent_batch, m)?)?;
    m.add_function(wrap_pyfunction!(answer_normalize, m)?)?;
    m.add_function(wrap_pyfunction!(answer_to_sympy, m)?)?;
    Ok(())
}
