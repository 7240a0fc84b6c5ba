//! Python bindings of the text layer: sentences, math regions and cue matching.
//!
//! Offsets handed to Python are character offsets (`text[s.start:s.end]`), with the byte offsets
//! alongside (`byte_start`, ...) for tokenizer offset maps. Sentence, hit and region objects keep
//! a reference to their source `str` and slice it only when `.text` is read, so building them
//! copies no text. All work on text runs with the interpreter released, through
//! `parallel::map_items`, which also turns a panic (a bug) into an `AprError` for that call.
//!
//! Two shapes of result: object lists (`split_sentences`, `find_cues`), convenient but paying
//! for one Python object per sentence and hit; and `Segmentation` (`segment`, `segment_batch`),
//! one object per text holding flat offset arrays, for the reward's hot path.

use std::sync::Arc;

use pyo3::basic::CompareOp;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::once_cell::GILOnceCell;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

use super::{
    borrow_str, borrow_str_list, known_name, rebuilder, sequence_items, threads_arg, AprError, ConfigError, Reduced,
};
use crate::parallel::{map_items, ItemPanic};
use crate::text::cues::{
    segment as core_segment, CueKind, CueMatcher as CoreMatcher, Segmentation as CoreSegmentation,
    SentenceCues as CoreSentenceCues, CHINESE_CONCLUSION_CUES, CHINESE_VERIFICATION_CUES, PAPER_CONCLUSION_CUES,
    PAPER_VERIFICATION_CUES,
};
use crate::text::math_regions::{math_regions as core_math_regions, MathKind, MathRegion as CoreRegion};
use crate::text::offsets::CharIndex;
use crate::text::sentences::{split_sentences as core_split, SplitOptions as CoreOptions};

// ---------------------------------------------------------------------------------------------
// Work done without the interpreter
// ---------------------------------------------------------------------------------------------

/// A segmentation plus the character offsets of everything in it.
struct Segmented {
    seg: CoreSegmentation,
    /// Per sentence: `[start, content_end, end]` in characters.
    sentence_chars: Vec<[usize; 3]>,
    /// Per hit: `[start, end]` in characters.
    hit_chars: Vec<[usize; 2]>,
}

/// Splits `text` (and finds cues when a matcher is given) and computes character offsets.
fn segmented(text: &str, opts: &CoreOptions, matcher: Option<&CoreMatcher>) -> Segmented {
    let seg = match matcher {
        Some(m) => core_segment(text, opts, m),
        None => CoreSegmentation {
            sentences: core_split(text, opts)
                .into_iter()
                .map(|sentence| CoreSentenceCues { sentence, hits: 0..0, conclusion: false, verification: false })
                .collect(),
            hits: Vec::new(),
        },
    };
    let index = CharIndex::new(text);
    let hit_chars = seg.hits.iter().map(|h| [index.chars_at(h.start), index.chars_at(h.end)]).collect();
    let mut sentence_chars: Vec<[usize; 3]> = seg
        .sentences
        .iter()
        .map(|s| [index.chars_at(s.sentence.start), index.chars_at(s.sentence.content_end), 0])
        .collect();
    let total = index.chars_at(text.len());
    for k in 0..sentence_chars.len() {
        sentence_chars[k][2] = sentence_chars.get(k + 1).map_or(total, |next| next[0]);
    }
    Segmented { seg, sentence_chars, hit_chars }
}

fn internal_error(what: &str, panic: ItemPanic) -> PyErr {
    AprError::new_err(format!("internal error on {what}: {}; this is a bug in apr_fast, please report it", panic.0))
}

/// Runs `f` on every text with the interpreter released; the first caught panic becomes an
/// `AprError` naming its item (`what[i]`).
pub(super) fn run_released<R: Send>(
    py: Python<'_>,
    texts: &[&str],
    threads: Option<usize>,
    what: &str,
    f: impl Fn(&str) -> R + Sync + Send,
) -> PyResult<Vec<R>> {
    let results = py.allow_threads(|| map_items(texts, threads, |t| f(t)));
    results.into_iter().enumerate().map(|(i, r)| r.map_err(|p| internal_error(&format!("{what}[{i}]"), p))).collect()
}

/// Same, for one text.
pub(super) fn run_one<R: Send>(py: Python<'_>, text: &str, f: impl Fn(&str) -> R + Sync + Send) -> PyResult<R> {
    let mut results = py.allow_threads(|| map_items(&[text], Some(1), |t| f(t)));
    match results.pop() {
        Some(Ok(r)) => Ok(r),
        Some(Err(p)) => Err(internal_error("text", p)),
        None => Err(AprError::new_err("internal error: no result")),
    }
}

/// The `str` objects of a list/tuple already checked by `borrow_str_list`.
fn str_objects(obj: &PyAny) -> PyResult<Vec<&PyString>> {
    sequence_items(obj, &"texts", "a list of str")?.into_iter().map(|item| Ok(item.downcast::<PyString>()?)).collect()
}

/// Borrowed texts and their `str` objects.
fn texts_arg(texts: &PyAny) -> PyResult<(Vec<&str>, Vec<&PyString>)> {
    let strs = borrow_str_list(texts, "texts")?;
    let objs = str_objects(texts)?;
    Ok((strs, objs))
}

fn slice_of<'py>(py: Python<'py>, source: &Py<PyString>, start: usize, end: usize) -> PyResult<&'py PyString> {
    let text = source.as_ref(py).to_str()?;
    text.get(start..end)
        .map(|s| PyString::new(py, s))
        .ok_or_else(|| AprError::new_err("internal error: offsets outside the source text"))
}

fn eq_only(py: Python<'_>, op: CompareOp, equal: bool) -> PyObject {
    match op {
        CompareOp::Eq => equal.into_py(py),
        CompareOp::Ne => (!equal).into_py(py),
        _ => py.NotImplemented(),
    }
}

fn hash_of(value: impl std::hash::Hash) -> isize {
    use std::hash::Hasher;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    value.hash(&mut h);
    h.finish() as isize
}

// ---------------------------------------------------------------------------------------------
// SplitOptions
// ---------------------------------------------------------------------------------------------

/// Bounds on how far a math region may reach, in UTF-8 bytes, delimiters included.
///
/// A region longer than its bound (or containing a blank line) is not math: its opener is
/// read as literal text, so an unclosed ``$`` or ``\[`` cannot swallow the rest of a trace.
#[pyclass(name = "SplitOptions", module = "apr_fast", frozen)]
#[pyo3(text_signature = "(max_inline_bytes=4096, max_display_bytes=16384, max_boxed_bytes=4096)")]
#[derive(Clone)]
pub struct PySplitOptions {
    inner: CoreOptions,
}

fn bound_arg(value: i64, what: &str) -> PyResult<usize> {
    usize::try_from(value).map_err(|_| PyValueError::new_err(format!("{what} must be >= 0, got {value}")))
}

#[pymethods]
impl PySplitOptions {
    #[new]
    #[args(
        max_inline_bytes = "CoreOptions::DEFAULT_MAX_INLINE_BYTES as i64",
        max_display_bytes = "CoreOptions::DEFAULT_MAX_DISPLAY_BYTES as i64",
        max_boxed_bytes = "CoreOptions::DEFAULT_MAX_BOXED_BYTES as i64"
    )]
    fn new(max_inline_bytes: i64, max_display_bytes: i64, max_boxed_bytes: i64) -> PyResult<Self> {
        Ok(PySplitOptions {
            inner: CoreOptions {
                max_inline_bytes: bound_arg(max_inline_bytes, "max_inline_bytes")?,
                max_display_bytes: bound_arg(max_display_bytes, "max_display_bytes")?,
                max_boxed_bytes: bound_arg(max_boxed_bytes, "max_boxed_bytes")?,
            },
        })
    }

    /// Longest ``$...$`` or ``\(...\)`` region.
    #[getter]
    fn max_inline_bytes(&self) -> usize {
        self.inner.max_inline_bytes
    }

    /// Longest ``$$...$$``, ``\[...\]`` or ``\begin{env}...\end{env}`` region.
    #[getter]
    fn max_display_bytes(&self) -> usize {
        self.inner.max_display_bytes
    }

    /// Longest ``\boxed{...}`` or ``\fbox{...}`` region.
    #[getter]
    fn max_boxed_bytes(&self) -> usize {
        self.inner.max_boxed_bytes
    }

    fn __repr__(&self) -> String {
        let o = &self.inner;
        format!(
            "SplitOptions(max_inline_bytes={}, max_display_bytes={}, max_boxed_bytes={})",
            o.max_inline_bytes, o.max_display_bytes, o.max_boxed_bytes
        )
    }

    fn __richcmp__(&self, other: PyRef<'_, Self>, op: CompareOp) -> PyObject {
        eq_only(other.py(), op, self.inner == other.inner)
    }

    fn __hash__(&self) -> isize {
        hash_of(self.inner)
    }

    fn __reduce__(&self, py: Python<'_>) -> (PyObject, (usize, usize, usize)) {
        let o = self.inner;
        (py.get_type::<Self>().into_py(py), (o.max_inline_bytes, o.max_display_bytes, o.max_boxed_bytes))
    }
}

fn options_of(options: Option<PyRef<'_, PySplitOptions>>) -> CoreOptions {
    options.map_or_else(CoreOptions::default, |o| o.inner)
}

// ---------------------------------------------------------------------------------------------
// Sentence, MathRegion
// ---------------------------------------------------------------------------------------------

/// One sentence of a text: its content plus the whitespace that follows it.
///
/// ``start``/``end``/``content_end`` are character offsets (``text[s.start:s.end] == s.text``);
/// ``byte_*`` are the same offsets in the UTF-8 encoding. ``content_end`` ends the last
/// non-whitespace character: the reasoning anchor is the character before it.
#[pyclass(name = "Sentence", module = "apr_fast", frozen)]
pub struct PySentence {
    /// Position of the sentence in its text (0-based).
    #[pyo3(get)]
    index: usize,
    /// Character offset of the first character.
    #[pyo3(get)]
    start: usize,
    /// Character offset just past the sentence (whitespace after it included).
    #[pyo3(get)]
    end: usize,
    /// Character offset just past the last non-whitespace character.
    #[pyo3(get)]
    content_end: usize,
    /// ``start`` in UTF-8 bytes.
    #[pyo3(get)]
    byte_start: usize,
    /// ``end`` in UTF-8 bytes.
    #[pyo3(get)]
    byte_end: usize,
    /// ``content_end`` in UTF-8 bytes.
    #[pyo3(get)]
    byte_content_end: usize,
    source: Py<PyString>,
}

impl PySentence {
    fn key<'a>(&self, py: Python<'a>) -> PyResult<(usize, usize, usize, usize, &'a str)> {
        Ok((self.index, self.byte_start, self.byte_end, self.byte_content_end, self.text(py)?.to_str()?))
    }
}

#[pymethods]
impl PySentence {
    /// The sentence, whitespace after it included.
    #[getter]
    fn text<'py>(&self, py: Python<'py>) -> PyResult<&'py PyString> {
        slice_of(py, &self.source, self.byte_start, self.byte_end)
    }

    /// The sentence without the whitespace after it.
    #[getter]
    fn content<'py>(&self, py: Python<'py>) -> PyResult<&'py PyString> {
        slice_of(py, &self.source, self.byte_start, self.byte_content_end)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Sentence(index={}, start={}, end={}, content_end={}, text={})",
            self.index,
            self.start,
            self.end,
            self.content_end,
            self.text(py)?.repr()?
        ))
    }

    fn __richcmp__(&self, other: PyRef<'_, Self>, op: CompareOp) -> PyResult<PyObject> {
        let py = other.py();
        Ok(eq_only(py, op, self.key(py)? == other.key(py)?))
    }

    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        Ok(hash_of(self.key(py)?))
    }

    /// Pickles as its offsets and its source text (one copy per pickle, however many of its
    /// sentences it holds).
    fn __reduce__(&self, py: Python<'_>) -> PyResult<Reduced> {
        let args = (
            self.index,
            self.start,
            self.end,
            self.content_end,
            self.byte_start,
            self.byte_end,
            self.byte_content_end,
            self.source.clone_ref(py),
        );
        Ok((rebuilder(py, "_sentence")?, args.into_py(py)))
    }
}

fn sentence_object(py: Python<'_>, source: &Py<PyString>, sm: &Segmented, k: usize) -> PyResult<Py<PySentence>> {
    let s = &sm.seg.sentences[k].sentence;
    let [start, content_end, end] = sm.sentence_chars[k];
    Py::new(
        py,
        PySentence {
            index: k,
            start,
            end,
            content_end,
            byte_start: s.start,
            byte_end: s.end,
            byte_content_end: s.content_end,
            source: source.clone_ref(py),
        },
    )
}

fn sentence_objects(py: Python<'_>, source: &Py<PyString>, sm: &Segmented) -> PyResult<Vec<Py<PySentence>>> {
    (0..sm.seg.sentences.len()).map(|k| sentence_object(py, source, sm, k)).collect()
}

/// A span of math that sentences are never split inside.
///
/// ``kind`` is one of ``inline_dollar`` (``$...$``), ``inline_paren`` (``\(...\)``),
/// ``display_dollar`` (``$$...$$``), ``display_bracket`` (``\[...\]``), ``environment``
/// (``\begin{align}...\end{align}`` and friends) or ``boxed`` (``\boxed{...}``, ``\fbox{...}``).
#[pyclass(name = "MathRegion", module = "apr_fast", frozen)]
pub struct PyMathRegion {
    /// Character offset of the opening delimiter.
    #[pyo3(get)]
    start: usize,
    /// Character offset just past the closing delimiter.
    #[pyo3(get)]
    end: usize,
    /// ``start`` in UTF-8 bytes.
    #[pyo3(get)]
    byte_start: usize,
    /// ``end`` in UTF-8 bytes.
    #[pyo3(get)]
    byte_end: usize,
    /// What delimits the region.
    #[pyo3(get)]
    kind: &'static str,
    source: Py<PyString>,
}

#[pymethods]
impl PyMathRegion {
    /// The region, delimiters included.
    #[getter]
    fn text<'py>(&self, py: Python<'py>) -> PyResult<&'py PyString> {
        slice_of(py, &self.source, self.byte_start, self.byte_end)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "MathRegion(start={}, end={}, kind='{}', text={})",
            self.start,
            self.end,
            self.kind,
            self.text(py)?.repr()?
        ))
    }

    fn __richcmp__(&self, other: PyRef<'_, Self>, op: CompareOp) -> PyResult<PyObject> {
        let py = other.py();
        let equal = (self.byte_start, self.byte_end, self.kind) == (other.byte_start, other.byte_end, other.kind)
            && self.text(py)?.to_str()? == other.text(py)?.to_str()?;
        Ok(eq_only(py, op, equal))
    }

    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        Ok(hash_of((self.byte_start, self.byte_end, self.kind, self.text(py)?.to_str()?)))
    }

    /// Pickles as its offsets, kind and source text.
    fn __reduce__(&self, py: Python<'_>) -> PyResult<Reduced> {
        let args = (self.start, self.end, self.byte_start, self.byte_end, self.kind, self.source.clone_ref(py));
        Ok((rebuilder(py, "_math_region")?, args.into_py(py)))
    }
}

// ---------------------------------------------------------------------------------------------
// Cues
// ---------------------------------------------------------------------------------------------

/// One occurrence of a cue inside a sentence.
///
/// ``cue`` is the cue as normalised by its ``CueMatcher`` (lower case, ``’`` written ``'``),
/// ``cue_index`` its position in the list of its ``kind`` (``"conclusion"`` or
/// ``"verification"``); ``start``/``end`` are character offsets into the text, ``byte_*`` the
/// same in UTF-8 bytes, ``text`` the words as written.
#[pyclass(name = "CueHit", module = "apr_fast", frozen)]
pub struct PyCueHit {
    /// The matched cue, normalised.
    #[pyo3(get)]
    cue: Py<PyString>,
    /// ``"conclusion"`` or ``"verification"``.
    #[pyo3(get)]
    kind: &'static str,
    /// Index of the cue in the list of its kind.
    #[pyo3(get)]
    cue_index: usize,
    /// Character offset of the first character of the hit.
    #[pyo3(get)]
    start: usize,
    /// Character offset just past the hit.
    #[pyo3(get)]
    end: usize,
    /// ``start`` in UTF-8 bytes.
    #[pyo3(get)]
    byte_start: usize,
    /// ``end`` in UTF-8 bytes.
    #[pyo3(get)]
    byte_end: usize,
    source: Py<PyString>,
}

impl PyCueHit {
    fn key<'a>(&self, py: Python<'a>) -> PyResult<(&'static str, usize, usize, usize, &'a str)> {
        Ok((self.kind, self.cue_index, self.byte_start, self.byte_end, self.text(py)?.to_str()?))
    }
}

#[pymethods]
impl PyCueHit {
    /// The hit as written in the text.
    #[getter]
    fn text<'py>(&self, py: Python<'py>) -> PyResult<&'py PyString> {
        slice_of(py, &self.source, self.byte_start, self.byte_end)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "CueHit(cue={}, kind='{}', start={}, end={}, text={})",
            self.cue.as_ref(py).repr()?,
            self.kind,
            self.start,
            self.end,
            self.text(py)?.repr()?
        ))
    }

    fn __richcmp__(&self, other: PyRef<'_, Self>, op: CompareOp) -> PyResult<PyObject> {
        let py = other.py();
        Ok(eq_only(py, op, self.key(py)? == other.key(py)?))
    }

    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        Ok(hash_of(self.key(py)?))
    }

    /// Pickles as its cue, offsets and source text.
    fn __reduce__(&self, py: Python<'_>) -> PyResult<Reduced> {
        let args = (
            self.cue.clone_ref(py),
            self.kind,
            self.cue_index,
            self.start,
            self.end,
            self.byte_start,
            self.byte_end,
            self.source.clone_ref(py),
        );
        Ok((rebuilder(py, "_cue_hit")?, args.into_py(py)))
    }
}

/// A sentence and the cues found inside it.
///
/// ``conclusion`` and ``verification`` are tuples of ``CueHit`` in text order; a sentence
/// qualifies for the APR context rule when it has a conclusion hit or the next sentence has a
/// verification hit.
#[pyclass(name = "SentenceCues", module = "apr_fast", frozen)]
pub struct PySentenceCues {
    /// The sentence.
    #[pyo3(get)]
    sentence: Py<PySentence>,
    /// Conclusion cue hits inside the sentence.
    #[pyo3(get)]
    conclusion: Py<PyTuple>,
    /// Verification cue hits inside the sentence.
    #[pyo3(get)]
    verification: Py<PyTuple>,
}

#[pymethods]
impl PySentenceCues {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "SentenceCues(sentence={}, conclusion={}, verification={})",
            self.sentence.as_ref(py).repr()?,
            self.conclusion.as_ref(py).repr()?,
            self.verification.as_ref(py).repr()?
        ))
    }

    fn __richcmp__(&self, other: PyRef<'_, Self>, op: CompareOp) -> PyResult<PyObject> {
        let py = other.py();
        let equal = self.sentence.as_ref(py).eq(other.sentence.as_ref(py))?
            && self.conclusion.as_ref(py).eq(other.conclusion.as_ref(py))?
            && self.verification.as_ref(py).eq(other.verification.as_ref(py))?;
        Ok(eq_only(py, op, equal))
    }

    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        let parts = (
            self.sentence.as_ref(py).hash()?,
            self.conclusion.as_ref(py).hash()?,
            self.verification.as_ref(py).hash()?,
        );
        Ok(hash_of(parts))
    }

    /// Pickles as its sentence and hits.
    fn __reduce__(&self, py: Python<'_>) -> PyResult<Reduced> {
        let args = (self.sentence.clone_ref(py), self.conclusion.clone_ref(py), self.verification.clone_ref(py));
        Ok((rebuilder(py, "_sentence_cues")?, args.into_py(py)))
    }
}

/// Reusable conclusion/verification cue matcher (build once, use for many texts and threads).
///
/// ``conclusion`` / ``verification``: lists of cue words or phrases; ``None`` takes the paper's
/// list (``PAPER_CONCLUSION_CUES`` / ``PAPER_VERIFICATION_CUES``), ``[]`` none. Matching is
/// ASCII case-insensitive, on word boundaries (``"so"`` never matches ``"also"``), ``’`` equals
/// ``'``, and a space inside a phrase matches any run of whitespace. With ``inflections=True``
/// the last word may also end in ``s``, ``es``, ``d``, ``ed`` or ``ing`` (``"seems"``,
/// ``"checking"``). A cue written only in Chinese or Japanese characters (``"所以"``) matches
/// anywhere, also inside a longer run, since those scripts put no spaces between words; the
/// Chinese lists are ``CHINESE_CONCLUSION_CUES`` / ``CHINESE_VERIFICATION_CUES``, to add to
/// the paper's. Raises ``ConfigError`` for an empty or duplicate cue, a cue without any
/// letter or digit, or a non-``str`` item; ``TypeError`` when a list argument is not a list or
/// tuple. Picklable.
#[pyclass(name = "CueMatcher", module = "apr_fast", frozen)]
#[pyo3(text_signature = "(conclusion=None, verification=None, inflections=False)")]
pub struct PyCueMatcher {
    core: Arc<CoreMatcher>,
    /// Normalised conclusion cues.
    #[pyo3(get)]
    conclusion: Py<PyTuple>,
    /// Normalised verification cues.
    #[pyo3(get)]
    verification: Py<PyTuple>,
}

/// Reads a cue-list argument: `None` -> the paper's list.
fn cue_list_arg(arg: Option<&PyAny>, what: &str, paper: &[&str]) -> PyResult<Vec<String>> {
    let Some(obj) = arg.filter(|o| !o.is_none()) else {
        return Ok(paper.iter().map(|s| s.to_string()).collect());
    };
    if obj.is_instance_of::<PyString>()? {
        return Err(PyTypeError::new_err(format!("{what} must be a list of str, not a single str")));
    }
    sequence_items(obj, &what, "a list of str")?
        .into_iter()
        .enumerate()
        .map(|(i, item)| match item.downcast::<PyString>() {
            Ok(s) => Ok(s.to_str()?.to_string()),
            Err(_) => Err(ConfigError::new_err(format!("{what}[{i}] must be str, got {}", item.get_type().name()?))),
        })
        .collect()
}

impl PyCueMatcher {
    fn build(py: Python<'_>, conclusion: &[String], verification: &[String], inflections: bool) -> PyResult<Self> {
        let core =
            CoreMatcher::new(conclusion, verification, inflections).map_err(|e| ConfigError::new_err(e.to_string()))?;
        let tuple_of = |kind| PyTuple::new(py, core.cues(kind)).into_py(py);
        Ok(PyCueMatcher {
            conclusion: tuple_of(CueKind::Conclusion),
            verification: tuple_of(CueKind::Verification),
            core: Arc::new(core),
        })
    }

    fn names(&self, kind: CueKind) -> &Py<PyTuple> {
        match kind {
            CueKind::Conclusion => &self.conclusion,
            CueKind::Verification => &self.verification,
        }
    }
}

/// The matcher of the paper's lists, built once per process.
fn paper_matcher(py: Python<'_>) -> PyResult<Py<PyCueMatcher>> {
    static PAPER: GILOnceCell<Py<PyCueMatcher>> = GILOnceCell::new();
    if let Some(m) = PAPER.get(py) {
        return Ok(m.clone_ref(py));
    }
    let paper = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let m =
        Py::new(py, PyCueMatcher::build(py, &paper(PAPER_CONCLUSION_CUES), &paper(PAPER_VERIFICATION_CUES), false)?)?;
    // Another caller may have filled the cell meanwhile; either matcher is the same.
    let _ = PAPER.set(py, m.clone_ref(py));
    Ok(m)
}

/// The matcher for `find_cues`-style arguments (the cached paper matcher when all are default).
fn matcher_from_args(
    py: Python<'_>,
    conclusion: Option<&PyAny>,
    verification: Option<&PyAny>,
    inflections: bool,
) -> PyResult<Py<PyCueMatcher>> {
    let is_default = |a: Option<&PyAny>| a.map_or(true, |o| o.is_none());
    if is_default(conclusion) && is_default(verification) && !inflections {
        return paper_matcher(py);
    }
    let c = cue_list_arg(conclusion, "conclusion", PAPER_CONCLUSION_CUES)?;
    let v = cue_list_arg(verification, "verification", PAPER_VERIFICATION_CUES)?;
    Py::new(py, PyCueMatcher::build(py, &c, &v, inflections)?)
}

fn hit_tuple(
    py: Python<'_>,
    source: &Py<PyString>,
    matcher: &PyCueMatcher,
    sm: &Segmented,
    k: usize,
    kind: CueKind,
) -> PyResult<Py<PyTuple>> {
    let range = sm.seg.sentences[k].hits.clone();
    let mut hits = Vec::new();
    for (h, [start, end]) in sm.seg.hits[range.clone()].iter().zip(&sm.hit_chars[range]) {
        if h.kind != kind {
            continue;
        }
        let cue = matcher.names(kind).as_ref(py).get_item(h.cue)?.downcast::<PyString>()?.into_py(py);
        hits.push(Py::new(
            py,
            PyCueHit {
                cue,
                kind: kind.as_str(),
                cue_index: h.cue,
                start: *start,
                end: *end,
                byte_start: h.start,
                byte_end: h.end,
                source: source.clone_ref(py),
            },
        )?);
    }
    Ok(PyTuple::new(py, hits).into_py(py))
}

fn cue_objects(
    py: Python<'_>,
    source: &Py<PyString>,
    matcher: &PyCueMatcher,
    sm: &Segmented,
) -> PyResult<Vec<Py<PySentenceCues>>> {
    (0..sm.seg.sentences.len())
        .map(|k| {
            Py::new(
                py,
                PySentenceCues {
                    sentence: sentence_object(py, source, sm, k)?,
                    conclusion: hit_tuple(py, source, matcher, sm, k, CueKind::Conclusion)?,
                    verification: hit_tuple(py, source, matcher, sm, k, CueKind::Verification)?,
                },
            )
        })
        .collect()
}

#[pymethods]
impl PyCueMatcher {
    #[new]
    #[args(conclusion = "None", verification = "None", inflections = "false")]
    fn new(
        py: Python<'_>,
        conclusion: Option<&PyAny>,
        verification: Option<&PyAny>,
        inflections: bool,
    ) -> PyResult<Self> {
        let c = cue_list_arg(conclusion, "conclusion", PAPER_CONCLUSION_CUES)?;
        let v = cue_list_arg(verification, "verification", PAPER_VERIFICATION_CUES)?;
        Self::build(py, &c, &v, inflections)
    }

    /// Whether inflection suffixes are accepted.
    #[getter]
    fn inflections(&self) -> bool {
        self.core.inflections()
    }

    /// Sentences of ``text`` with the cues inside each.
    #[args(text, "*", options = "None")]
    #[pyo3(text_signature = "($self, text, *, options=None)")]
    fn find(
        slf: PyRef<'_, Self>,
        text: &PyAny,
        options: Option<PyRef<'_, PySplitOptions>>,
    ) -> PyResult<Vec<Py<PySentenceCues>>> {
        let py = slf.py();
        let s = borrow_str(text, "text")?;
        let opts = options_of(options);
        let core = Arc::clone(&slf.core);
        let sm = run_one(py, s, |t| segmented(t, &opts, Some(&core)))?;
        cue_objects(py, &text.downcast::<PyString>()?.into_py(py), &slf, &sm)
    }

    /// ``find`` for every text, in parallel (``threads``: None = ``default_threads()``).
    #[args(texts, "*", options = "None", threads = "None")]
    #[pyo3(text_signature = "($self, texts, *, options=None, threads=None)")]
    fn find_batch(
        slf: PyRef<'_, Self>,
        texts: &PyAny,
        options: Option<PyRef<'_, PySplitOptions>>,
        threads: Option<i64>,
    ) -> PyResult<Vec<Vec<Py<PySentenceCues>>>> {
        find_batch_with(slf.py(), &slf, texts, options_of(options), threads)
    }

    /// Sentences and cue flags of ``text`` as flat arrays (see ``Segmentation``).
    #[args(text, "*", options = "None")]
    #[pyo3(text_signature = "($self, text, *, options=None)")]
    fn segment(
        slf: PyRef<'_, Self>,
        py: Python<'_>,
        text: &PyAny,
        options: Option<PyRef<'_, PySplitOptions>>,
    ) -> PyResult<PySegmentation> {
        let matcher: Py<PyCueMatcher> = slf.into();
        segment_with(py, matcher, text, options_of(options))
    }

    /// ``segment`` for every text, in parallel.
    #[args(texts, "*", options = "None", threads = "None")]
    #[pyo3(text_signature = "($self, texts, *, options=None, threads=None)")]
    fn segment_batch(
        slf: PyRef<'_, Self>,
        py: Python<'_>,
        texts: &PyAny,
        options: Option<PyRef<'_, PySplitOptions>>,
        threads: Option<i64>,
    ) -> PyResult<Vec<PySegmentation>> {
        let matcher: Py<PyCueMatcher> = slf.into();
        segment_batch_with(py, matcher, texts, options_of(options), threads)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "CueMatcher(conclusion={}, verification={}, inflections={})",
            self.conclusion.as_ref(py).repr()?,
            self.verification.as_ref(py).repr()?,
            if self.core.inflections() { "True" } else { "False" }
        ))
    }

    fn __reduce__(&self, py: Python<'_>) -> (PyObject, (PyObject, PyObject, bool)) {
        let list = |t: &Py<PyTuple>| PyList::new(py, t.as_ref(py)).into_py(py);
        (py.get_type::<Self>().into_py(py), (list(&self.conclusion), list(&self.verification), self.core.inflections()))
    }
}

fn find_batch_with(
    py: Python<'_>,
    matcher: &PyCueMatcher,
    texts: &PyAny,
    opts: CoreOptions,
    threads: Option<i64>,
) -> PyResult<Vec<Vec<Py<PySentenceCues>>>> {
    let threads = threads_arg(threads)?;
    let (strs, objs) = texts_arg(texts)?;
    let core = Arc::clone(&matcher.core);
    let all = run_released(py, &strs, threads, "texts", |t| segmented(t, &opts, Some(&core)))?;
    all.iter().zip(objs).map(|(sm, obj)| cue_objects(py, &obj.into_py(py), matcher, sm)).collect()
}

// ---------------------------------------------------------------------------------------------
// Segmentation: the lean form
// ---------------------------------------------------------------------------------------------

/// Sentences of one text with their cue flags, as flat arrays (one Python object per text).
///
/// ``len(seg)`` sentences; ``starts``/``ends``/``content_ends`` are character offsets,
/// ``byte_starts``/... the same in UTF-8 bytes, ``conclusion``/``verification`` say whether
/// each sentence holds a cue of that kind. ``sentences()`` and ``cues()`` build the object
/// views on demand.
#[pyclass(name = "Segmentation", module = "apr_fast", frozen)]
pub struct PySegmentation {
    source: Py<PyString>,
    matcher: Py<PyCueMatcher>,
    /// The options it was split with (for pickling).
    options: CoreOptions,
    data: Segmented,
}

#[pymethods]
impl PySegmentation {
    /// The segmented text.
    #[getter]
    fn text(&self, py: Python<'_>) -> Py<PyString> {
        self.source.clone_ref(py)
    }

    /// The matcher whose cues were searched.
    #[getter]
    fn matcher(&self, py: Python<'_>) -> Py<PyCueMatcher> {
        self.matcher.clone_ref(py)
    }

    /// Character offset where each sentence starts.
    #[getter]
    fn starts(&self) -> Vec<usize> {
        self.data.sentence_chars.iter().map(|c| c[0]).collect()
    }

    /// Character offset where each sentence ends (the next one's start).
    #[getter]
    fn ends(&self) -> Vec<usize> {
        self.data.sentence_chars.iter().map(|c| c[2]).collect()
    }

    /// Character offset just past each sentence's last non-whitespace character.
    #[getter]
    fn content_ends(&self) -> Vec<usize> {
        self.data.sentence_chars.iter().map(|c| c[1]).collect()
    }

    /// ``starts`` in UTF-8 bytes.
    #[getter]
    fn byte_starts(&self) -> Vec<usize> {
        self.data.seg.sentences.iter().map(|s| s.sentence.start).collect()
    }

    /// ``ends`` in UTF-8 bytes.
    #[getter]
    fn byte_ends(&self) -> Vec<usize> {
        self.data.seg.sentences.iter().map(|s| s.sentence.end).collect()
    }

    /// ``content_ends`` in UTF-8 bytes.
    #[getter]
    fn byte_content_ends(&self) -> Vec<usize> {
        self.data.seg.sentences.iter().map(|s| s.sentence.content_end).collect()
    }

    /// Whether each sentence holds a conclusion cue.
    #[getter]
    fn conclusion(&self) -> Vec<bool> {
        self.data.seg.sentences.iter().map(|s| s.conclusion).collect()
    }

    /// Whether each sentence holds a verification cue.
    #[getter]
    fn verification(&self) -> Vec<bool> {
        self.data.seg.sentences.iter().map(|s| s.verification).collect()
    }

    /// The sentences as ``Sentence`` objects.
    #[pyo3(text_signature = "($self)")]
    fn sentences(&self, py: Python<'_>) -> PyResult<Vec<Py<PySentence>>> {
        sentence_objects(py, &self.source, &self.data)
    }

    /// The sentences with their hits, as ``find_cues`` returns them.
    #[pyo3(text_signature = "($self)")]
    fn cues(&self, py: Python<'_>) -> PyResult<Vec<Py<PySentenceCues>>> {
        cue_objects(py, &self.source, &self.matcher.borrow(py), &self.data)
    }

    fn __len__(&self) -> usize {
        self.data.seg.sentences.len()
    }

    fn __repr__(&self) -> String {
        format!("Segmentation(sentences={}, hits={})", self.data.seg.sentences.len(), self.data.seg.hits.len())
    }

    /// Pickles as its text, matcher and split options: unpickling segments the text again
    /// (the same sentences and hits: segmentation is deterministic).
    fn __reduce__(&self, py: Python<'_>) -> PyResult<Reduced> {
        let args = (self.source.clone_ref(py), self.matcher.clone_ref(py), PySplitOptions { inner: self.options });
        Ok((rebuilder(py, "_segmentation")?, args.into_py(py)))
    }
}

fn segment_with(
    py: Python<'_>,
    matcher: Py<PyCueMatcher>,
    text: &PyAny,
    opts: CoreOptions,
) -> PyResult<PySegmentation> {
    let s = borrow_str(text, "text")?;
    let core = Arc::clone(&matcher.borrow(py).core);
    let data = run_one(py, s, |t| segmented(t, &opts, Some(&core)))?;
    Ok(PySegmentation { source: text.downcast::<PyString>()?.into_py(py), matcher, options: opts, data })
}

fn segment_batch_with(
    py: Python<'_>,
    matcher: Py<PyCueMatcher>,
    texts: &PyAny,
    opts: CoreOptions,
    threads: Option<i64>,
) -> PyResult<Vec<PySegmentation>> {
    let threads = threads_arg(threads)?;
    let (strs, objs) = texts_arg(texts)?;
    let core = Arc::clone(&matcher.borrow(py).core);
    let all = run_released(py, &strs, threads, "texts", |t| segmented(t, &opts, Some(&core)))?;
    Ok(all
        .into_iter()
        .zip(objs)
        .map(|(data, obj)| PySegmentation {
            source: obj.into_py(py),
            matcher: matcher.clone_ref(py),
            options: opts,
            data,
        })
        .collect())
}

fn matcher_arg(py: Python<'_>, matcher: Option<Py<PyCueMatcher>>) -> PyResult<Py<PyCueMatcher>> {
    match matcher {
        Some(m) => Ok(m),
        None => paper_matcher(py),
    }
}

// ---------------------------------------------------------------------------------------------
// Module functions
// ---------------------------------------------------------------------------------------------

/// Splits ``text`` into sentences that tile it exactly.
///
/// A sentence ends at a line break, or after ``.``, ``!`` or ``?`` (with any closing
/// ``.!?)]"'*”’`` run) followed by whitespace or the end; never inside math (``$...$``,
/// ``\(...\)``, ``$$...$$``, ``\[...\]``, ``\begin{align}...``, ``\boxed{...}``), a decimal
/// number, an abbreviation (e.g., i.e., etc., vs., Fig., ...) or a line-start list label
/// (``1.``, ``a.``, ``iv.``, ``Step 2.``). ``options`` bounds how far math may reach.
#[pyfunction(text, "*", options = "None")]
#[pyo3(text_signature = "(text, *, options=None)")]
fn split_sentences(
    py: Python<'_>,
    text: &PyAny,
    options: Option<PyRef<'_, PySplitOptions>>,
) -> PyResult<Vec<Py<PySentence>>> {
    let s = borrow_str(text, "text")?;
    let opts = options_of(options);
    let sm = run_one(py, s, |t| segmented(t, &opts, None))?;
    sentence_objects(py, &text.downcast::<PyString>()?.into_py(py), &sm)
}

/// ``split_sentences`` for every text, in parallel (``threads``: None = ``default_threads()``).
#[pyfunction(texts, "*", options = "None", threads = "None")]
#[pyo3(text_signature = "(texts, *, options=None, threads=None)")]
fn split_sentences_batch(
    py: Python<'_>,
    texts: &PyAny,
    options: Option<PyRef<'_, PySplitOptions>>,
    threads: Option<i64>,
) -> PyResult<Vec<Vec<Py<PySentence>>>> {
    let threads = threads_arg(threads)?;
    let (strs, objs) = texts_arg(texts)?;
    let opts = options_of(options);
    let all = run_released(py, &strs, threads, "texts", |t| segmented(t, &opts, None))?;
    all.iter().zip(objs).map(|(sm, obj)| sentence_objects(py, &obj.into_py(py), sm)).collect()
}

/// The math regions of ``text`` that sentences are never split inside, in text order.
#[pyfunction(text, "*", options = "None")]
#[pyo3(text_signature = "(text, *, options=None)")]
fn math_regions(
    py: Python<'_>,
    text: &PyAny,
    options: Option<PyRef<'_, PySplitOptions>>,
) -> PyResult<Vec<Py<PyMathRegion>>> {
    let s = borrow_str(text, "text")?;
    let opts = options_of(options);
    let (regions, chars): (Vec<CoreRegion>, Vec<usize>) = run_one(py, s, |t| {
        let regions = core_math_regions(t, &opts);
        let index = CharIndex::new(t);
        let chars = regions.iter().flat_map(|r| [r.start, r.end]).map(|b| index.chars_at(b)).collect();
        (regions, chars)
    })?;
    let source: Py<PyString> = text.downcast::<PyString>()?.into_py(py);
    regions
        .iter()
        .zip(chars.chunks_exact(2))
        .map(|(r, c)| {
            Py::new(
                py,
                PyMathRegion {
                    start: c[0],
                    end: c[1],
                    byte_start: r.start,
                    byte_end: r.end,
                    kind: r.kind.as_str(),
                    source: source.clone_ref(py),
                },
            )
        })
        .collect()
}

/// Sentences of ``text`` with the conclusion and verification cues inside each.
///
/// ``conclusion``/``verification``: cue lists (``None`` = the paper's); ``inflections``: also
/// match ``-s``/``-es``/``-d``/``-ed``/``-ing`` forms. Build a ``CueMatcher`` once to reuse
/// custom lists. A phrase broken across sentences is not a hit.
#[pyfunction(text, "*", conclusion = "None", verification = "None", inflections = "false", options = "None")]
#[pyo3(text_signature = "(text, *, conclusion=None, verification=None, inflections=False, options=None)")]
fn find_cues(
    py: Python<'_>,
    text: &PyAny,
    conclusion: Option<&PyAny>,
    verification: Option<&PyAny>,
    inflections: bool,
    options: Option<PyRef<'_, PySplitOptions>>,
) -> PyResult<Vec<Py<PySentenceCues>>> {
    let matcher = matcher_from_args(py, conclusion, verification, inflections)?;
    PyCueMatcher::find(matcher.borrow(py), text, options)
}

/// ``find_cues`` for every text, in parallel (``threads``: None = ``default_threads()``).
#[pyfunction(
    texts,
    "*",
    conclusion = "None",
    verification = "None",
    inflections = "false",
    options = "None",
    threads = "None"
)]
#[pyo3(
    text_signature = "(texts, *, conclusion=None, verification=None, inflections=False, options=None, threads=None)"
)]
fn find_cues_batch(
    py: Python<'_>,
    texts: &PyAny,
    conclusion: Option<&PyAny>,
    verification: Option<&PyAny>,
    inflections: bool,
    options: Option<PyRef<'_, PySplitOptions>>,
    threads: Option<i64>,
) -> PyResult<Vec<Vec<Py<PySentenceCues>>>> {
    let matcher = matcher_from_args(py, conclusion, verification, inflections)?;
    let m = matcher.borrow(py);
    find_batch_with(py, &m, texts, options_of(options), threads)
}

/// Sentences and cue flags of ``text`` as one ``Segmentation`` (``matcher``: None = the paper's
/// lists).
#[pyfunction(text, "*", matcher = "None", options = "None")]
#[pyo3(text_signature = "(text, *, matcher=None, options=None)")]
fn segment(
    py: Python<'_>,
    text: &PyAny,
    matcher: Option<Py<PyCueMatcher>>,
    options: Option<PyRef<'_, PySplitOptions>>,
) -> PyResult<PySegmentation> {
    segment_with(py, matcher_arg(py, matcher)?, text, options_of(options))
}

/// ``segment`` for every text, in parallel: the lean batch form, one object per text.
#[pyfunction(texts, "*", matcher = "None", options = "None", threads = "None")]
#[pyo3(text_signature = "(texts, *, matcher=None, options=None, threads=None)")]
fn segment_batch(
    py: Python<'_>,
    texts: &PyAny,
    matcher: Option<Py<PyCueMatcher>>,
    options: Option<PyRef<'_, PySplitOptions>>,
    threads: Option<i64>,
) -> PyResult<Vec<PySegmentation>> {
    segment_batch_with(py, matcher_arg(py, matcher)?, texts, options_of(options), threads)
}

// ---------------------------------------------------------------------------------------------
// Pickling: the `_core` functions the views' `__reduce__` name
// ---------------------------------------------------------------------------------------------

/// ValueError unless `source[start..end]` is a span of whole characters.
fn check_span(py: Python<'_>, source: &Py<PyString>, start: usize, end: usize) -> PyResult<()> {
    match source.as_ref(py).to_str()?.get(start..end) {
        Some(_) => Ok(()),
        None => Err(PyValueError::new_err(format!("byte span {start}..{end} is not a span of the source text"))),
    }
}

/// Unpickles a `Sentence`.
#[pyfunction]
#[pyo3(name = "_sentence")]
#[allow(clippy::too_many_arguments)]
fn rebuild_sentence(
    py: Python<'_>,
    index: usize,
    start: usize,
    end: usize,
    content_end: usize,
    byte_start: usize,
    byte_end: usize,
    byte_content_end: usize,
    source: Py<PyString>,
) -> PyResult<PySentence> {
    check_span(py, &source, byte_start, byte_end)?;
    check_span(py, &source, byte_start, byte_content_end)?;
    Ok(PySentence { index, start, end, content_end, byte_start, byte_end, byte_content_end, source })
}

/// Unpickles a `MathRegion`.
#[pyfunction]
#[pyo3(name = "_math_region")]
fn rebuild_math_region(
    py: Python<'_>,
    start: usize,
    end: usize,
    byte_start: usize,
    byte_end: usize,
    kind: &str,
    source: Py<PyString>,
) -> PyResult<PyMathRegion> {
    check_span(py, &source, byte_start, byte_end)?;
    let kind = known_name(kind, MathKind::ALL.map(MathKind::as_str), "math region kind")?;
    Ok(PyMathRegion { start, end, byte_start, byte_end, kind, source })
}

/// Unpickles a `CueHit`.
#[pyfunction]
#[pyo3(name = "_cue_hit")]
#[allow(clippy::too_many_arguments)]
fn rebuild_cue_hit(
    py: Python<'_>,
    cue: Py<PyString>,
    kind: &str,
    cue_index: usize,
    start: usize,
    end: usize,
    byte_start: usize,
    byte_end: usize,
    source: Py<PyString>,
) -> PyResult<PyCueHit> {
    check_span(py, &source, byte_start, byte_end)?;
    let kind = known_name(kind, CueKind::ALL.map(CueKind::as_str), "cue kind")?;
    Ok(PyCueHit { cue, kind, cue_index, start, end, byte_start, byte_end, source })
}

/// Unpickles a `SentenceCues`.
#[pyfunction]
#[pyo3(name = "_sentence_cues")]
fn rebuild_sentence_cues(
    sentence: Py<PySentence>,
    conclusion: Py<PyTuple>,
    verification: Py<PyTuple>,
) -> PySentenceCues {
    PySentenceCues { sentence, conclusion, verification }
}

/// Unpickles a `Segmentation`: the text segmented again with the same matcher and options.
#[pyfunction]
#[pyo3(name = "_segmentation")]
fn rebuild_segmentation(
    py: Python<'_>,
    text: &PyAny,
    matcher: Py<PyCueMatcher>,
    options: PyRef<'_, PySplitOptions>,
) -> PyResult<PySegmentation> {
    segment_with(py, matcher, text, options.inner)
}

pub(crate) fn register(py: Python<'_>, m: &PyModule) -> PyResult<()> {
    m.add_class::<PySplitOptions>()?;
    m.add_class::<PySentence>()?;
    m.add_class::<PyMathRegion>()?;
    m.add_class::<PyCueHit>()?;
    m.add_class::<PySentenceCues>()?;
    m.add_class::<PyCueMatcher>()?;
    m.add_class::<PySegmentation>()?;
    m.add("PAPER_CONCLUSION_CUES", PyTuple::new(py, PAPER_CONCLUSION_CUES))?;
    m.add("PAPER_VERIFICATION_CUES", PyTuple::new(py, PAPER_VERIFICATION_CUES))?;
    m.add("CHINESE_CONCLUSION_CUES", PyTuple::new(py, CHINESE_CONCLUSION_CUES))?;
    m.add("CHINESE_VERIFICATION_CUES", PyTuple::new(py, CHINESE_VERIFICATION_CUES))?;
    m.add_function(wrap_pyfunction!(split_sentences, m)?)?;
    m.add_function(wrap_pyfunction!(split_sentences_batch, m)?)?;
    m.add_function(wrap_pyfunction!(math_regions, m)?)?;
    m.add_function(wrap_pyfunction!(find_cues, m)?)?;
    m.add_function(wrap_pyfunction!(find_cues_batch, m)?)?;
    m.add_function(wrap_pyfunction!(segment, m)?)?;
    m.add_function(wrap_pyfunction!(segment_batch, m)?)?;
    m.add_function(wrap_pyfunction!(rebuild_sentence, m)?)?;
    m.add_function(wrap_pyfunction!(rebuild_math_region, m)?)?;
    m.add_function(wrap_pyfunction!(rebuild_cue_hit, m)?)?;
    m.add_function(wrap_pyfunction!(rebuild_sentence_cues, m)?)?;
    m.add_function(wrap_pyfunction!(rebuild_segmentation, m)?)?;
    Ok(())
}
