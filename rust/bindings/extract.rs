//! Python surface of `crate::extract`: final answers of responses and answer candidates in
//! sentences, with character offsets (for `str` slicing) beside the core's byte offsets.
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use pyo3::basic::CompareOp;
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};

use super::{
    borrow_str, known_name, read_text, rebuilder, sequence_items, str_len, think_tags_of, threads_arg,
    utf8_len_of_str_start, PartText, Reduced, TextReader,
};
use crate::extract::{self, Candidate, CandidateKind, FinalAnswer, FinalRule, ProblemValues};
use crate::parallel::{map_cheap_items, ItemPanic};
use crate::text::offsets::{bytes_to_chars_sorted, bytes_to_chars_sorted_with_total};

/// The final answer of a response.
///
/// ``response[start:end]`` is the answer's source text (for several boxes in a row, from the
/// first box's content to the last one's); ``byte_start``/``byte_end`` are the same span in
/// UTF-8 bytes. ``text`` is the answer as it would sit inside ``\boxed{}``. ``rule`` names the
/// rule that found it; ``in_thinking`` is true when it lies before ``</think>``.
///
/// The batch calls read a response that is not ASCII by its end when the answer lies there;
/// the byte offsets of such an answer are counted from the response when first asked for
/// (the answer keeps a reference to the response until then; a lone surrogate in the part
/// not read counts as ``"surrogatepass"`` encodes it).
#[pyclass(module = "apr_fast", name = "FinalAnswer")]
#[derive(Clone)]
pub(crate) struct PyFinalAnswer {
    #[pyo3(get)]
    text: String,
    #[pyo3(get)]
    start: usize,
    #[pyo3(get)]
    end: usize,
    bytes: ByteSpan,
    #[pyo3(get)]
    rule: &'static str,
    #[pyo3(get)]
    in_thinking: bool,
}

/// A final answer's span in UTF-8 bytes.
#[derive(Clone)]
enum ByteSpan {
    Known([usize; 2]),
    /// `within` counts from code point `chars` of `response`, whose UTF-8 before that point is
    /// counted when the offsets are asked for ([`utf8_len_of_str_start`]): the response was
    /// read by its end ([`TextReader::read_part_or_ends`]), and reading the rest costs about as
    /// much as the rest of the check of a response that is not ASCII. The part not read may
    /// hold a lone surrogate, which no read found: it counts as `"surrogatepass"` encodes it.
    Deferred {
        response: Py<PyString>,
        chars: usize,
        within: [usize; 2],
    },
}

impl ByteSpan {
    fn offsets(&self, py: Python<'_>) -> PyResult<[usize; 2]> {
        match self {
            ByteSpan::Known(span) => Ok(*span),
            ByteSpan::Deferred { response, chars, within } => {
                let before = utf8_len_of_str_start(response.as_ref(py), *chars)?;
                Ok([before + within[0], before + within[1]])
            }
        }
    }
}

/// Where a final answer found by [`final_answers_in_parts`] lies: its characters, and, for
/// one found in a response's end, the response and the character its byte offsets count from.
pub(crate) struct AnswerSpan {
    pub chars: [usize; 2],
    pub bytes_from: Option<(Py<PyString>, usize)>,
}

impl PyFinalAnswer {
    /// The answer `found` in `response`, a text of `total_chars` characters (Python knows the
    /// count): the span's characters are counted from the nearer end.
    pub(crate) fn with_chars(response: &str, total_chars: usize, found: FinalAnswer) -> Self {
        let chars = Self::char_span(response, total_chars, &found);
        Self::with_span(found, AnswerSpan { chars, bytes_from: None })
    }

    /// The character offsets of `found`'s span in `response` (of `total_chars` characters).
    pub(crate) fn char_span(response: &str, total_chars: usize, found: &FinalAnswer) -> [usize; 2] {
        let mut chars = [found.start, found.end];
        bytes_to_chars_sorted_with_total(response, total_chars, &mut chars);
        chars
    }

    /// The answer `found` at `span`; `found`'s byte offsets count from `span.bytes_from`'s
    /// character when it has one.
    pub(crate) fn with_span(found: FinalAnswer, span: AnswerSpan) -> Self {
        let within = [found.start, found.end];
        PyFinalAnswer {
            text: found.text,
            start: span.chars[0],
            end: span.chars[1],
            bytes: match span.bytes_from {
                None => ByteSpan::Known(within),
                Some((response, chars)) => ByteSpan::Deferred { response, chars, within },
            },
            rule: found.rule.as_str(),
            in_thinking: found.in_thinking,
        }
    }

    /// The byte offsets, counted once: the response is let go then.
    fn counted_bytes(&mut self, py: Python<'_>) -> PyResult<[usize; 2]> {
        let span = self.bytes.offsets(py)?;
        self.bytes = ByteSpan::Known(span);
        Ok(span)
    }

    /// Everything but the byte offsets, which [`ByteSpan::offsets`] may have to count.
    fn key(&self) -> (&str, usize, usize, &'static str, bool) {
        (&self.text, self.start, self.end, self.rule, self.in_thinking)
    }
}

#[pymethods]
impl PyFinalAnswer {
    #[getter]
    fn byte_start(&mut self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.counted_bytes(py)?[0])
    }

    #[getter]
    fn byte_end(&mut self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.counted_bytes(py)?[1])
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "FinalAnswer(text={}, start={}, end={}, rule={}, in_thinking={})",
            python_repr(py, &self.text)?,
            self.start,
            self.end,
            python_repr(py, self.rule)?,
            if self.in_thinking { "True" } else { "False" }
        ))
    }

    fn __richcmp__(&self, other: &Self, op: CompareOp, py: Python<'_>) -> PyResult<PyObject> {
        let equal = self.key() == other.key() && self.bytes.offsets(py)? == other.bytes.offsets(py)?;
        Ok(compare(equal, op, py))
    }

    /// Leaves the byte offsets out (they may have to be counted): objects that compare equal
    /// still hash equally.
    fn __hash__(&self) -> u64 {
        hash_of(&self.key())
    }

    /// Pickles as its fields (results cross process boundaries: multiprocessing, Ray).
    fn __reduce__(&self, py: Python<'_>) -> PyResult<Reduced> {
        let [byte_start, byte_end] = self.bytes.offsets(py)?;
        let f = self.clone();
        Ok((
            rebuilder(py, "_final_answer")?,
            (f.text, f.start, f.end, byte_start, byte_end, f.rule, f.in_thinking).into_py(py),
        ))
    }
}

/// Unpickles a `FinalAnswer` ([`PyFinalAnswer::__reduce__`]).
#[pyfunction]
#[pyo3(name = "_final_answer")]
#[allow(clippy::too_many_arguments)]
fn rebuild_final_answer(
    text: String,
    start: usize,
    end: usize,
    byte_start: usize,
    byte_end: usize,
    rule: &str,
    in_thinking: bool,
) -> PyResult<PyFinalAnswer> {
    let rule = known_name(rule, FinalRule::ALL.iter().map(|r| r.as_str()), "final-answer rule")?;
    Ok(PyFinalAnswer { text, start, end, bytes: ByteSpan::Known([byte_start, byte_end]), rule, in_thinking })
}

/// Unpickles a `Candidate` ([`PyCandidate::__reduce__`]).
#[pyfunction]
#[pyo3(name = "_candidate")]
fn rebuild_candidate(
    text: String,
    start: usize,
    end: usize,
    byte_start: usize,
    byte_end: usize,
    kind: &str,
) -> PyResult<PyCandidate> {
    let kind = known_name(kind, CandidateKind::ALL.iter().map(|k| k.as_str()), "candidate kind")?;
    Ok(PyCandidate { text, start, end, byte_start, byte_end, kind })
}

/// One answer value stated in a sentence.
///
/// ``text[start:end]`` is the candidate's source text; ``byte_start``/``byte_end`` are the same
/// span in UTF-8 bytes. ``text`` is the value as it would sit inside ``\boxed{}`` (the source
/// text, except ``12`` for "twelve" and ``\text{Evelyn}`` for a word answer). ``kind`` says
/// where it came from or what shape it has.
#[pyclass(module = "apr_fast", name = "Candidate")]
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) struct PyCandidate {
    #[pyo3(get)]
    text: String,
    #[pyo3(get)]
    start: usize,
    #[pyo3(get)]
    end: usize,
    #[pyo3(get)]
    byte_start: usize,
    #[pyo3(get)]
    byte_end: usize,
    #[pyo3(get)]
    kind: &'static str,
}

#[pymethods]
impl PyCandidate {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Candidate(text={}, start={}, end={}, kind={})",
            python_repr(py, &self.text)?,
            self.start,
            self.end,
            python_repr(py, self.kind)?
        ))
    }

    fn __richcmp__(&self, other: &Self, op: CompareOp, py: Python<'_>) -> PyObject {
        compare(self == other, op, py)
    }

    fn __hash__(&self) -> u64 {
        hash_of(self)
    }

    /// Pickles as its fields.
    fn __reduce__(&self, py: Python<'_>) -> PyResult<Reduced> {
        let c = self.clone();
        Ok((rebuilder(py, "_candidate")?, (c.text, c.start, c.end, c.byte_start, c.byte_end, c.kind).into_py(py)))
    }
}

fn python_repr(py: Python<'_>, text: &str) -> PyResult<String> {
    Ok(PyString::new(py, text).repr()?.to_str()?.to_owned())
}

fn compare(equal: bool, op: CompareOp, py: Python<'_>) -> PyObject {
    match op {
        CompareOp::Eq => equal.into_py(py),
        CompareOp::Ne => (!equal).into_py(py),
        _ => py.NotImplemented(),
    }
}

fn hash_of<T: Hash>(value: &T) -> u64 {
    let mut hasher = DefaultHasher::new();
    value.hash(&mut hasher);
    hasher.finish()
}

/// The candidates of `text` with character offsets, converted in one pass over the text.
fn candidates_with_chars(text: &str) -> Vec<PyCandidate> {
    let found: Vec<Candidate> = extract::extract_candidates(text);
    let mut offsets: Vec<usize> = found.iter().flat_map(|c| [c.start, c.end]).collect();
    offsets.sort_unstable();
    offsets.dedup();
    let mut chars = offsets.clone();
    bytes_to_chars_sorted(text, &mut chars);
    let char_of = |byte: usize| offsets.binary_search(&byte).map_or(0, |k| chars[k]);
    found
        .into_iter()
        .map(|c| PyCandidate {
            start: char_of(c.start),
            end: char_of(c.end),
            byte_start: c.start,
            byte_end: c.end,
            kind: c.kind.as_str(),
            text: c.text,
        })
        .collect()
}

/// Results of a batch, with a `RuntimeWarning` for items whose extraction panicked (a bug:
/// those items get `fallback` instead of failing the whole batch).
fn unwrap_items<R>(py: Python<'_>, results: Vec<Result<R, ItemPanic>>, fallback: impl Fn() -> R) -> PyResult<Vec<R>> {
    let mut out = Vec::with_capacity(results.len());
    for (i, result) in results.into_iter().enumerate() {
        match result {
            Ok(r) => out.push(r),
            Err(ItemPanic(message)) => {
                let warning = format!("apr_fast: extraction failed on item {i} ({message}); please report this input");
                // PyO3 0.17 has no binding for the warning classes.
                let category = py.import("builtins")?.getattr("RuntimeWarning")?;
                PyErr::warn(py, category, &warning, 1)?;
                out.push(fallback());
            }
        }
    }
    Ok(out)
}

/// The final answer of one response, or None when it states none.
///
/// Prefers the last ``\boxed{}``/``\fbox{}`` after ``</think>``, then the last box in the
/// thinking, then "Final Answer" headings, "Answer:" lines and "the (final) answer is X"
/// phrases (after ``</think>`` first). Several boxes in a row form one answer ("2, 3").
/// ``think_tags``: the tags of another model's thinking, as (opening, closing) (``("[THINK]",
/// "[/THINK]")``), a preset's name (``"harmony"``, ``THINK_TAG_PRESETS``) or ``"auto"`` (the
/// tags of the family the response is written in); the closing one is then what ``</think>``
/// means. Raises TypeError if ``response`` is not a str, ConfigError
/// for unusable tags or an unknown name.
#[pyfunction(response, "*", think_tags = "None")]
#[pyo3(text_signature = "(response, *, think_tags=None)")]
fn extract_final(py: Python<'_>, response: &PyAny, think_tags: Option<&PyAny>) -> PyResult<Option<PyFinalAnswer>> {
    let (text, chars) = (read_text(response, "response")?, str_len(response)?);
    let text = &*text;
    let tags = think_tags_of(think_tags)?;
    Ok(py.allow_threads(|| {
        extract::extract_final_with(text, tags.of_response(text).1).map(|f| PyFinalAnswer::with_chars(text, chars, f))
    }))
}

/// The contents of the outermost ``\boxed{}`` / ``\fbox{}`` of ``text``, in order.
/// Raises TypeError if ``text`` is not a str.
#[pyfunction]
#[pyo3(text_signature = "(text)")]
fn boxed_contents(text: &PyAny) -> PyResult<Vec<String>> {
    let text = read_text(text, "text")?;
    Ok(extract::boxed_contents(&text).into_iter().map(str::to_string).collect())
}

/// ``extract_final`` for every response of a list, in parallel without the GIL.
///
/// ``threads``: worker threads (default: ``APR_FAST_NUM_THREADS``, else all CPUs);
/// ``think_tags`` as for ``extract_final``. Raises TypeError if ``responses`` is not a list of str.
#[pyfunction(responses, "*", threads = "None", think_tags = "None")]
#[pyo3(text_signature = "(responses, *, threads=None, think_tags=None)")]
fn extract_final_batch(
    py: Python<'_>,
    responses: &PyAny,
    threads: Option<i64>,
    think_tags: Option<&PyAny>,
) -> PyResult<Vec<Option<PyFinalAnswer>>> {
    let items = sequence_items(responses, &"responses", "a list of str")?;
    let threads = threads_arg(threads)?;
    let tags = think_tags_of(think_tags)?;
    let results = final_answers_in_parts(
        py,
        &items,
        "responses",
        tags.fixed_close(),
        |r| extract::extract_final_with(r, tags.of_response(r).1),
        threads,
    )?;
    let results =
        results.into_iter().map(|r| r.map(|found| found.map(|(f, span)| PyFinalAnswer::with_span(f, span)))).collect();
    unwrap_items(py, results, || None)
}

/// A response's final answer, if any, with its span.
pub(crate) type FoundWithSpan = Option<(FinalAnswer, AnswerSpan)>;

/// How many responses [`final_answers_in_parts`] reads at a time. A batch's UTF-8 made at once
/// (for every response that is not ASCII) is fresh memory for every call, a page fault per 4
/// KiB; read a part at a time, the memory of one part is reused by the next, and its text is
/// read while cached.
const READ_PART: usize = 256;

/// The final answer of each response of `items` (items of the list argument `what`) with its
/// span in characters, the responses read [`READ_PART`] at a time and each part's text let go
/// once its answers are found. `whole` finds the final answer of a whole response; a
/// response that is not ASCII and holds the closing tag `close` (None: no tag is the same for
/// every response) is first read by its end ([`TextReader::read_part_or_ends`]) and given the
/// answer [`extract::final_answer_in_tail`] finds there, if any, so `whole` must agree with it:
/// [`extract::extract_final_with`] with that tag, or the outcome rule, which only drops answers
/// inside the thinking. The end rule runs while reading, holding the interpreter, with panics
/// caught (the response is then read whole, where `whole` runs guarded and a bug becomes the
/// item's status); `whole` runs on `threads` workers without it.
pub(crate) fn final_answers_in_parts<'py>(
    py: Python<'py>,
    items: &[&'py PyAny],
    what: &str,
    close: Option<&str>,
    whole: impl Fn(&str) -> Option<FinalAnswer> + Sync,
    threads: Option<usize>,
) -> PyResult<Vec<Result<FoundWithSpan, ItemPanic>>> {
    let mut reader = TextReader::new(py)?;
    let mut found = Vec::with_capacity(items.len());
    for (part, part_items) in items.chunks(READ_PART).enumerate() {
        // Lengths asked first, their error raised after reading: an item that is no str is
        // named by the reader's TypeError.
        let chars = part_items.iter().map(|item| str_len(item)).collect::<PyResult<Vec<usize>>>();
        let texts = reader.read_part_or_ends(part_items, what, part * READ_PART, close, |end| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let answer = extract::final_answer_in_tail(end.text, true, close?)?;
                let span = PyFinalAnswer::char_span(end.text, end.chars, &answer);
                Some((answer, span))
            }))
            .ok()
            .flatten()
        })?;
        let texts: Vec<_> = texts.into_iter().zip(chars?).collect();
        let part_found = py.allow_threads(|| {
            map_cheap_items(&texts, threads, |(text, chars)| match text {
                PartText::Whole(text) => whole(text).map(|f| {
                    let span = PyFinalAnswer::char_span(text, *chars, &f);
                    (f, span)
                }),
                PartText::End { decided: (answer, span), char_start } => {
                    Some((answer.clone(), [char_start + span[0], char_start + span[1]]))
                }
            })
        });
        // An answer found in an end has byte offsets within it, counted from the end's start.
        for ((result, (text, _)), item) in part_found.into_iter().zip(&texts).zip(part_items) {
            let bytes_from = match text {
                PartText::End { char_start, .. } => Some((item.downcast::<PyString>()?.into(), *char_start)),
                PartText::Whole(_) => None,
            };
            found.push(result.map(|f| f.map(|(answer, chars)| (answer, AnswerSpan { chars, bytes_from }))));
        }
    }
    Ok(found)
}

/// Every answer value that one sentence states, ordered by start (outer before inner).
///
/// Values inside larger expressions are not separate candidates (``3\sqrt{2}`` gives no
/// ``2``). Run it on a problem statement to learn the values the problem itself states.
/// Raises TypeError if ``text`` is not a str.
#[pyfunction]
#[pyo3(text_signature = "(text)")]
fn extract_candidates(py: Python<'_>, text: &PyAny) -> PyResult<Vec<PyCandidate>> {
    let text = read_text(text, "text")?;
    Ok(py.allow_threads(|| candidates_with_chars(&text)))
}

/// ``extract_candidates`` for every text of a list, in parallel without the GIL.
///
/// ``threads``: worker threads (default: ``APR_FAST_NUM_THREADS``, else all CPUs).
/// Raises TypeError if ``texts`` is not a list of str.
#[pyfunction(texts, "*", threads = "None")]
#[pyo3(text_signature = "(texts, *, threads=None)")]
fn extract_candidates_batch(py: Python<'_>, texts: &PyAny, threads: Option<i64>) -> PyResult<Vec<Vec<PyCandidate>>> {
    let mut reader = TextReader::new(py)?;
    let texts = reader.read_all(texts, "texts")?;
    let threads = threads_arg(threads)?;
    let results = py.allow_threads(|| map_cheap_items(&texts, threads, |t| candidates_with_chars(t)));
    unwrap_items(py, results, Vec::new)
}

/// The distinct candidate texts of a problem statement, in order of first appearance: the
/// values the problem itself states. Raises TypeError if ``problem`` is not a str.
#[pyfunction]
#[pyo3(text_signature = "(problem)")]
fn problem_values(py: Python<'_>, problem: &PyAny) -> PyResult<Vec<String>> {
    let problem = borrow_str(problem, "problem")?;
    Ok(py.allow_threads(|| ProblemValues::from_problem(problem).texts().to_vec()))
}

pub(crate) fn register(py: Python<'_>, m: &PyModule) -> PyResult<()> {
    m.add_class::<PyFinalAnswer>()?;
    m.add_class::<PyCandidate>()?;
    m.add_function(wrap_pyfunction!(extract_final, m)?)?;
    m.add_function(wrap_pyfunction!(extract_final_batch, m)?)?;
    m.add_function(wrap_pyfunction!(boxed_contents, m)?)?;
    m.add_function(wrap_pyfunction!(extract_candidates, m)?)?;
    m.add_function(wrap_pyfunction!(extract_candidates_batch, m)?)?;
    m.add_function(wrap_pyfunction!(problem_values, m)?)?;
    m.add_function(wrap_pyfunction!(rebuild_final_answer, m)?)?;
    m.add_function(wrap_pyfunction!(rebuild_candidate, m)?)?;
    m.add("FINAL_RULES", PyTuple::new(py, FinalRule::ALL.iter().map(|r| r.as_str())))?;
    m.add("CANDIDATE_KINDS", PyTuple::new(py, CandidateKind::ALL.iter().map(|k| k.as_str())))?;
    Ok(())
}
