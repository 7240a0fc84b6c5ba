//! Bindings of `crate::tokens`: the native vocabulary behind `apr_fast.tokens.Vocabulary`.
//!
//! Ids arrive as a `list`/`tuple` of `int`, or as a 1-D C-contiguous int64 numpy array (how the Python layer passes numpy arrays and torch
//! tensors). abi3 has no buffer protocol, so an array is read in place through the address
//! its own `__array_interface__` reports, while the call holds a reference to it: no copy
//! (a `tobytes()` copy of a training step's ids cost more than decoding them, mostly in page
//! faults). Values are range-checked here, so a negative or oversized id is a clear
//! `ValueError`, never a wrapped-around id.
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use super::{borrow_str, threads_arg, AprError, TokenizerError};
use crate::parallel::{map_items, ItemPanic};
use crate::text::offsets::bytes_to_chars_sorted;
use crate::tokens::{token_ends_from_spans, DecodeError, Decoded, Vocabulary, VocabularyError};

/// A tokenizer vocabulary loaded natively (immutable; methods release the interpreter).
#[pyclass(module = "apr_fast._core", frozen)]
pub(crate) struct NativeVocabulary {
    /// Shared with the scorers built on this vocabulary.
    pub(crate) inner: std::sync::Arc<Vocabulary>,
}

fn vocabulary_error(e: VocabularyError) -> PyErr {
    TokenizerError::new_err(e.to_string())
}

fn internal_error(p: ItemPanic) -> String {
    format!("internal error in apr_fast (please report): {}", p.0)
}

/// Ids as received, before range checks (which run without the interpreter).
pub(crate) enum IdsArg<'py> {
    /// Native-endian int64 read in place: the memory of an array the caller's argument holds
    /// (and so keeps alive for the call).
    Array(&'py [i64]),
    Ints(Vec<i64>),
    /// An int too large even for int64, found while extracting: the message to report.
    Invalid(String),
}

pub(crate) fn ids_arg<'py>(obj: &'py PyAny, what: &str) -> PyResult<IdsArg<'py>> {
    if let Some(values) = int64_array(obj, what)? {
        return Ok(IdsArg::Array(values));
    }
    let items: Vec<&PyAny> = if let Ok(list) = obj.downcast::<PyList>() {
        list.iter().collect()
    } else if let Ok(tuple) = obj.downcast::<PyTuple>() {
        tuple.iter().collect()
    } else {
        return Err(PyTypeError::new_err(format!(
            "{what} must be a list of int, a 1-D integer numpy array or torch tensor, got {}",
            obj.get_type().name()?
        )));
    };
    let mut ids = Vec::with_capacity(items.len());
    for (i, item) in items.into_iter().enumerate() {
        match item.extract::<i64>() {
            Ok(v) => ids.push(v),
            Err(_) if item.downcast::<pyo3::types::PyLong>().is_ok() => {
                return Ok(IdsArg::Invalid(format!(
                    "{what}[{i}] = {item} is not a token id (must be in 0..2**32)"
                )));
            }
            Err(_) => {
                return Err(PyTypeError::new_err(format!(
                    "{what}[{i}] must be int, got {}",
                    item.get_type().name()?
                )))
            }
        }
    }
    Ok(IdsArg::Ints(ids))
}

/// The values of a 1-D C-contiguous native-endian int64 numpy array, in place; `None` for an
/// object without `__array_interface__`.
fn int64_array<'py>(obj: &'py PyAny, what: &str) -> PyResult<Option<&'py [i64]>> {
    Ok(int64_buffer(obj, what, 1)?.map(|(values, _)| values))
}

/// The rows of a 2-D C-contiguous native-endian int64 numpy array (a batch of padded
/// sequences), in place, each cut to its length: row `i` is `values[i][..lengths[i]]`.
pub(crate) fn int64_rows<'py>(obj: &'py PyAny, lengths: &[usize], what: &str) -> PyResult<Vec<&'py [i64]>> {
    let bad = |why: String| PyValueError::new_err(format!("{what}: {why}"));
    let Some((values, shape)) = int64_buffer(obj, what, 2)? else {
        return Err(PyTypeError::new_err(format!(
            "{what} must be a 2-D integer numpy array, got {}",
            obj.get_type().name()?
        )));
    };
    let (rows, width) = (shape[0], shape[1]);
    if lengths.len() != rows {
        return Err(bad(format!("lengths has {} items for {rows} rows", lengths.len())));
    }
    lengths
        .iter()
        .enumerate()
        .map(|(i, &len)| {
            if len > width {
                return Err(bad(format!("lengths[{i}] = {len} is longer than a row ({width} ids)")));
            }
            Ok(&values[i * width..i * width + len])
        })
        .collect()
}

/// A C-contiguous native-endian int64 array of `ndim` dimensions, read in place through its
/// `__array_interface__`: its values and shape; `None` for an object without the interface.
fn int64_buffer<'py>(obj: &'py PyAny, what: &str, ndim: usize) -> PyResult<Option<(&'py [i64], Vec<usize>)>> {
    let Ok(interface) = obj.getattr(pyo3::intern!(obj.py(), "__array_interface__")) else { return Ok(None) };
    let bad = |why: String| PyValueError::new_err(format!("{what}: {why}"));
    let interface: &PyDict = interface.downcast().map_err(|_| bad("__array_interface__ is not a dict".into()))?;
    let field = |key: &str| interface.get_item(key).ok_or_else(|| bad(format!("__array_interface__ has no {key:?}")));
    let native = if cfg!(target_endian = "little") { "<i8" } else { ">i8" };
    let typestr: String = field("typestr")?.extract()?;
    if typestr != native {
        return Err(bad(format!("the array must hold native int64 ({native}), got {typestr}")));
    }
    let shape: Vec<usize> = field("shape")?.extract()?;
    if shape.len() != ndim {
        return Err(bad(format!("the array must be {ndim}-D, got shape {shape:?}")));
    }
    // C order: each dimension's stride is the product of the later ones, times 8 bytes.
    let c_strides: Vec<isize> = (0..ndim).map(|d| 8 * shape[d + 1..].iter().product::<usize>() as isize).collect();
    let contiguous = interface.get_item("strides").map_or(true, |s| s.is_none() || s.extract::<Vec<isize>>().ok() == Some(c_strides));
    if !contiguous {
        return Err(bad("the array must be C-contiguous".into()));
    }
    let (address, _read_only): (usize, bool) = field("data")?.extract()?;
    let len = shape.iter().try_fold(1usize, |n, &d| n.checked_mul(d)).ok_or_else(|| bad(format!("shape {shape:?} is too large")))?;
    if len == 0 {
        return Ok(Some((&[], shape)));
    }
    if address == 0 || address % std::mem::align_of::<i64>() != 0 {
        return Err(bad(format!("the array's data address {address:#x} is not an aligned int64 buffer")));
    }
    // SAFETY: the array reports `len` contiguous aligned int64 values at `address`; `obj`
    // (borrowed for 'py) keeps it, and so its memory, alive while the slice is used.
    Ok(Some((unsafe { std::slice::from_raw_parts(address as *const i64, len) }, shape)))
}

impl IdsArg<'_> {
    /// The ids as `u32`, or a message naming the first one that cannot be a token id.
    pub(crate) fn to_u32(&self, what: &str) -> Result<Vec<u32>, String> {
        match self {
            IdsArg::Ints(ids) => narrow(ids, what),
            IdsArg::Array(values) => narrow(values, what),
            IdsArg::Invalid(message) => Err(message.clone()),
        }
    }
}

/// The values as `u32` token ids, or a message naming the first that cannot be one: one
/// branch-free range check over all (vectorised), then one conversion.
fn narrow(values: &[i64], what: &str) -> Result<Vec<u32>, String> {
    // A negative value is huge as u64.
    let out_of_range = |v: i64| v as u64 > u64::from(u32::MAX);
    if values.iter().fold(false, |bad, &v| bad | out_of_range(v)) {
        if let Some((i, v)) = values.iter().enumerate().find(|(_, &v)| out_of_range(v)) {
            return Err(format!("{what}[{i}] = {v} is not a token id (must be in 0..2**32)"));
        }
    }
    Ok(values.iter().map(|&v| v as u32).collect())
}

/// One result of `decode_batch`: text, character ends, and the error that replaced them.
type BatchItem = (String, Vec<usize>, Option<String>);

/// Character offsets for Python.
fn with_char_ends(decoded: Decoded) -> (String, Vec<usize>) {
    let Decoded { text, mut token_ends } = decoded;
    bytes_to_chars_sorted(&text, &mut token_ends);
    (text, token_ends)
}

impl NativeVocabulary {
    /// Text and, if `char_offsets`, the character offset where each token ends.
    fn decode_one(
        &self,
        ids: &IdsArg<'_>,
        what: &str,
        skip: bool,
        char_offsets: bool,
    ) -> Result<(String, Vec<usize>), String> {
        let ids = ids.to_u32(what)?;
        let decoded = self.inner.decode_with_offsets(&ids, skip).map_err(|e| match e {
            DecodeError::UnknownId { index, id, vocab_len } => {
                format!("{what}[{index}] = {id} is not a token of this vocabulary ({vocab_len} ids)")
            }
        })?;
        Ok(if char_offsets {
            with_char_ends(decoded)
        } else {
            (decoded.text, Vec::new())
        })
    }

    /// A single call, run through `map_items` so that a panic (a bug) still becomes an error.
    fn decode_single(
        &self,
        py: Python<'_>,
        ids: &PyAny,
        skip: bool,
        char_offsets: bool,
    ) -> PyResult<(String, Vec<usize>)> {
        let ids = ids_arg(ids, "ids")?;
        let out = py.allow_threads(|| {
            map_items(std::slice::from_ref(&ids), Some(1), |ids| {
                self.decode_one(ids, "ids", skip, char_offsets)
            })
        });
        match out.into_iter().next() {
            Some(Ok(Ok(result))) => Ok(result),
            Some(Ok(Err(message))) => Err(PyValueError::new_err(message)),
            Some(Err(panic)) => Err(AprError::new_err(internal_error(panic))),
            None => Err(AprError::new_err("internal error in apr_fast: no result")),
        }
    }
}

#[pymethods]
impl NativeVocabulary {
    /// Loads the text of a `tokenizer.json`.
    #[staticmethod]
    fn from_json(py: Python<'_>, json: &PyAny) -> PyResult<Self> {
        let json = borrow_str(json, "json")?;
        let inner = py
            .allow_threads(|| Vocabulary::from_tokenizer_json(json))
            .map_err(vocabulary_error)?;
        Ok(NativeVocabulary { inner: std::sync::Arc::new(inner) })
    }

    /// Reads and loads a `tokenizer.json` file.
    #[staticmethod]
    fn from_file(py: Python<'_>, path: std::path::PathBuf) -> PyResult<Self> {
        let bytes = py.allow_threads(|| std::fs::read(&path))?;
        let json = std::str::from_utf8(&bytes)
            .map_err(|e| TokenizerError::new_err(format!("{} is not UTF-8 text: {e}", path.display())))?;
        let inner = py
            .allow_threads(|| Vocabulary::from_tokenizer_json(json))
            .map_err(vocabulary_error)?;
        Ok(NativeVocabulary { inner: std::sync::Arc::new(inner) })
    }

    fn __len__(&self) -> usize {
        self.inner.len()
    }

    fn token_id(&self, token: &str) -> Option<u32> {
        self.inner.token_id(token)
    }

    fn is_special(&self, id: i64) -> bool {
        u32::try_from(id).is_ok_and(|id| self.inner.is_special(id))
    }

    fn contains(&self, id: i64) -> bool {
        u32::try_from(id).is_ok_and(|id| self.inner.contains(id))
    }

    #[getter]
    fn decoder_kind(&self) -> &'static str {
        self.inner.decoder_kind()
    }

    #[getter]
    fn nbytes(&self) -> usize {
        self.inner.heap_bytes()
    }

    fn decode(&self, py: Python<'_>, ids: &PyAny, skip_special_tokens: bool) -> PyResult<String> {
        self.decode_single(py, ids, skip_special_tokens, false)
            .map(|(text, _)| text)
    }

    fn decode_with_offsets(
        &self,
        py: Python<'_>,
        ids: &PyAny,
        skip_special_tokens: bool,
    ) -> PyResult<(String, Vec<usize>)> {
        self.decode_single(py, ids, skip_special_tokens, true)
    }

    /// Decodes many sequences in parallel; each item is `(text, char_ends, None)` or
    /// `("", [], message)`.
    fn decode_batch(
        &self,
        py: Python<'_>,
        batch: &PyAny,
        skip_special_tokens: bool,
        threads: Option<i64>,
    ) -> PyResult<Vec<BatchItem>> {
        let threads = threads_arg(threads)?;
        let items: Vec<&PyAny> = if let Ok(list) = batch.downcast::<PyList>() {
            list.iter().collect()
        } else if let Ok(tuple) = batch.downcast::<PyTuple>() {
            tuple.iter().collect()
        } else {
            return Err(PyTypeError::new_err(format!(
                "batch must be a list of id sequences, got {}",
                batch.get_type().name()?
            )));
        };
        let args: Vec<(usize, IdsArg<'_>)> = items
            .into_iter()
            .enumerate()
            .map(|(i, item)| ids_arg(item, &format!("batch[{i}]")).map(|ids| (i, ids)))
            .collect::<PyResult<_>>()?;
        let results = py.allow_threads(|| {
            map_items(&args, threads, |(i, ids)| {
                self.decode_one(ids, &format!("batch[{i}]"), skip_special_tokens, true)
            })
        });
        Ok(results
            .into_iter()
            .map(|r| match r {
                Ok(Ok((text, ends))) => (text, ends, None),
                Ok(Err(message)) => (String::new(), Vec::new(), Some(message)),
                Err(panic) => (String::new(), Vec::new(), Some(internal_error(panic))),
            })
            .collect())
    }

    fn __repr__(&self) -> String {
        format!(
            "<NativeVocabulary: {} ids, {}>",
            self.inner.len(),
            self.inner.decoder_kind()
        )
    }
}

/// Where each token ends, from the `(start, end)` spans a tokenizer reports (see
/// `crate::tokens::token_ends_from_spans`).
#[pyfunction]
fn token_ends_from_offsets(offsets: &PyAny) -> PyResult<Vec<usize>> {
    let spans = token_spans(offsets)
        .ok_or_else(|| PyTypeError::new_err("offsets must be a list of (start, end) pairs of int >= 0"))?;
    Ok(token_ends_from_spans(&spans))
}

/// `(start, end)` pairs given as tuples (what `tokenizers` returns) or as two-item lists (JSON).
pub(crate) fn token_spans(obj: &PyAny) -> Option<Vec<(usize, usize)>> {
    if let Ok(pairs) = obj.extract::<Vec<(usize, usize)>>() {
        return Some(pairs);
    }
    let lists: Vec<Vec<usize>> = obj.extract().ok()?;
    lists.into_iter().map(|p| match p[..] { [start, end] => Some((start, end)), _ => None }).collect()
}

pub(crate) fn register(m: &PyModule) -> PyResult<()> {
    m.add_class::<NativeVocabulary>()?;
    m.add_function(wrap_pyfunction!(token_ends_from_offsets, m)?)
}
