//! Bindings of `crate::tokens`: the native vocabulary behind `apr_fast.tokens.Vocabulary`.
//!
//! Ids arrive as a `list`/`tuple` of `int`, or as a 1-D C-contiguous int64 numpy array (how the
//! Python layer passes numpy arrays and torch tensors). abi3 for Python 3.10 has no buffer
//! protocol, so an array is read in place through the address its `__array_struct__` (or
//! `__array_interface__`) reports, while the call holds a reference to it: no copy (a
//! `tobytes()` copy of a training step's ids cost more than decoding them, mostly in page
//! faults). Values are range-checked here, so a negative or oversized id is a clear
//! `ValueError`, never a wrapped-around id.

use std::fmt::Display;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use super::text::{run_one, run_released};
use super::{borrow_str, read_text, sequence_items, threads_arg, AprError, TextReader, TokenizerError};
use crate::parallel::{map_items, ItemPanic};
use crate::text::offsets::bytes_to_chars_sorted;
use crate::tokens::{token_ends_from_spans, DecodeError, Decoded, Encoder, Vocabulary, VocabularyError};

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

/// `name[index]`, the name of one item of an argument in an error message (written only when
/// there is an error to report, not once per item).
pub(crate) struct Indexed<'a>(pub &'a str, pub usize);

impl Display for Indexed<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}[{}]", self.0, self.1)
    }
}

pub(crate) fn ids_arg<'py>(obj: &'py PyAny, what: &dyn Display) -> PyResult<IdsArg<'py>> {
    let is_list = obj.downcast::<PyList>().is_ok();
    if is_list || obj.downcast::<PyTuple>().is_ok() {
        if let Some(ids) = exact_ints(obj, is_list) {
            return Ok(IdsArg::Ints(ids));
        }
    } else if let Some(values) = int64_array(obj, what)? {
        return Ok(IdsArg::Array(values));
    }
    let items = sequence_items(obj, what, "a list of int, a 1-D integer numpy array or torch tensor")?;
    let mut ids = Vec::with_capacity(items.len());
    for (i, item) in items.into_iter().enumerate() {
        match item.extract::<i64>() {
            Ok(v) => ids.push(v),
            Err(_) if item.downcast::<pyo3::types::PyLong>().is_ok() => {
                return Ok(IdsArg::Invalid(format!("{what}[{i}] = {item} is not a token id (must be in 0..2**32)")));
            }
            Err(_) => {
                return Err(PyTypeError::new_err(format!("{what}[{i}] must be int, got {}", item.get_type().name()?)))
            }
        }
    }
    Ok(IdsArg::Ints(ids))
}

/// The items of a `list` (`is_list`) or `tuple` when every one is an exact `int` within int64;
/// `None` otherwise (then the general path above converts them, with its error messages). Reads
/// each item as a borrowed reference with no Python code run in between (an exact int has no
/// `__index__` to call), so the sequence cannot change under the loop: about 4x cheaper per id
/// than extracting each item as an owned object.
fn exact_ints(seq: &PyAny, is_list: bool) -> Option<Vec<i64>> {
    use pyo3::{ffi, AsPyPointer};
    let ptr = seq.as_ptr();
    // SAFETY: `ptr` is a live list or tuple (checked by the caller and kept alive by `seq`);
    // the GIL is held for the whole loop and nothing in it runs Python code, so the length and
    // the borrowed items stay valid; indexes are below the length.
    unsafe {
        let len = if is_list { ffi::PyList_Size(ptr) } else { ffi::PyTuple_Size(ptr) };
        let mut ids = Vec::with_capacity(usize::try_from(len).ok()?);
        for i in 0..len {
            let item = if is_list { ffi::PyList_GetItem(ptr, i) } else { ffi::PyTuple_GetItem(ptr, i) };
            if item.is_null() || ffi::PyLong_CheckExact(item) == 0 {
                ffi::PyErr_Clear();
                return None;
            }
            let mut overflow = 0;
            let v = ffi::PyLong_AsLongLongAndOverflow(item, &mut overflow);
            if overflow != 0 {
                return None;
            }
            ids.push(v);
        }
        Some(ids)
    }
}

/// The values of a 1-D C-contiguous native-endian int64 numpy array, in place; `None` for an
/// object that is no array ([`int64_buffer`]).
fn int64_array<'py>(obj: &'py PyAny, what: &dyn Display) -> PyResult<Option<&'py [i64]>> {
    Ok(int64_buffer(obj, what, 1)?.map(|(values, _)| values))
}

/// The rows of a 2-D C-contiguous native-endian int64 numpy array (a batch of padded
/// sequences), in place, each cut to its length: row `i` is `values[i][..lengths[i]]`.
pub(crate) fn int64_rows<'py>(obj: &'py PyAny, lengths: &[usize], what: &str) -> PyResult<Vec<&'py [i64]>> {
    let bad = |why: String| PyValueError::new_err(format!("{what}: {why}"));
    let Some((values, shape)) = int64_buffer(obj, &what, 2)? else {
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

/// A C-contiguous native-endian int64 array of `ndim` dimensions, read in place: its values and
/// shape; `None` for an object that is no array. Read through numpy's `__array_struct__` (a
/// capsule holding a C struct, ~20x cheaper than building the `__array_interface__` dict,
/// which matters when a batch passes one array per row), else `__array_interface__`.
fn int64_buffer<'py>(obj: &'py PyAny, what: &dyn Display, ndim: usize) -> PyResult<Option<(&'py [i64], Vec<usize>)>> {
    let bad = |why: String| PyValueError::new_err(format!("{what}: {why}"));
    let layout = match obj.getattr(pyo3::intern!(obj.py(), "__array_struct__")) {
        Ok(capsule) => array_struct_layout(capsule).map_err(bad)?,
        Err(_) => match obj.getattr(pyo3::intern!(obj.py(), "__array_interface__")) {
            Ok(interface) => array_interface_layout(interface)?.map_err(bad)?,
            Err(_) => return Ok(None),
        },
    };
    let ArrayLayout { typestr, shape, contiguous, address } = layout;
    if typestr != NATIVE_INT64 {
        return Err(bad(format!("the array must hold native int64 ({NATIVE_INT64}), got {typestr}")));
    }
    if shape.len() != ndim {
        return Err(bad(format!("the array must be {ndim}-D, got shape {shape:?}")));
    }
    if !contiguous {
        return Err(bad("the array must be C-contiguous".into()));
    }
    let len = shape
        .iter()
        .try_fold(1usize, |n, &d| n.checked_mul(d))
        .ok_or_else(|| bad(format!("shape {shape:?} is too large")))?;
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

/// The array interface's type string of native-endian int64.
const NATIVE_INT64: &str = if cfg!(target_endian = "little") { "<i8" } else { ">i8" };

/// What [`int64_buffer`] needs to know of an array.
struct ArrayLayout {
    /// The element type as the array interface writes it (`<i8`: little-endian int64).
    typestr: String,
    shape: Vec<usize>,
    /// C order (each stride the product of the later dimensions, times 8 bytes).
    contiguous: bool,
    address: usize,
}

/// numpy's `PyArrayInterface` (the C side of the array interface protocol, version 3).
#[repr(C)]
struct PyArrayInterface {
    two: std::os::raw::c_int,
    nd: std::os::raw::c_int,
    typekind: std::os::raw::c_char,
    itemsize: std::os::raw::c_int,
    flags: std::os::raw::c_int,
    shape: *const isize,
    strides: *const isize,
    data: *const std::os::raw::c_void,
    descr: *mut pyo3::ffi::PyObject,
}

const NPY_ARRAY_C_CONTIGUOUS: std::os::raw::c_int = 0x0001;
const NPY_ARRAY_NOTSWAPPED: std::os::raw::c_int = 0x0200;

/// The layout an `__array_struct__` capsule describes.
fn array_struct_layout(capsule: &PyAny) -> Result<ArrayLayout, String> {
    use pyo3::ffi;
    // SAFETY: the capsule is checked to be one; its pointer, whatever its name, is a
    // PyArrayInterface (checked by its `two` field) that lives as long as the capsule, which
    // `capsule` holds for this function.
    unsafe {
        let ptr = pyo3::AsPyPointer::as_ptr(capsule);
        if ffi::PyCapsule_CheckExact(ptr) == 0 {
            return Err("__array_struct__ is not a capsule".into());
        }
        let name = ffi::PyCapsule_GetName(ptr);
        let inter = ffi::PyCapsule_GetPointer(ptr, name) as *const PyArrayInterface;
        if inter.is_null() {
            ffi::PyErr_Clear();
            return Err("__array_struct__ holds no array description".into());
        }
        let inter = &*inter;
        if inter.two != 2 || inter.nd < 0 {
            return Err("__array_struct__ holds no array description".into());
        }
        let nd = inter.nd as usize;
        let dims = |p: *const isize| if nd == 0 || p.is_null() { &[][..] } else { std::slice::from_raw_parts(p, nd) };
        if nd > 0 && inter.shape.is_null() {
            return Err("__array_struct__ has no shape".into());
        }
        let shape: Vec<usize> = dims(inter.shape).iter().map(|&d| d.max(0) as usize).collect();
        let contiguous = inter.flags & NPY_ARRAY_C_CONTIGUOUS != 0
            || inter.strides.is_null()
            || c_order(&shape, dims(inter.strides));
        let native_order = if cfg!(target_endian = "little") { '<' } else { '>' };
        let swapped_order = if cfg!(target_endian = "little") { '>' } else { '<' };
        let order = if inter.flags & NPY_ARRAY_NOTSWAPPED != 0 { native_order } else { swapped_order };
        Ok(ArrayLayout {
            typestr: format!("{order}{}{}", inter.typekind as u8 as char, inter.itemsize),
            shape,
            contiguous,
            address: inter.data as usize,
        })
    }
}

/// Whether `strides` (bytes) are those of a C-ordered int64 array of `shape`.
fn c_order(shape: &[usize], strides: &[isize]) -> bool {
    strides.len() == shape.len()
        && (0..shape.len())
            .all(|d| shape[d] <= 1 || strides[d] == 8 * shape[d + 1..].iter().product::<usize>() as isize)
}

/// The layout an `__array_interface__` dict describes.
fn array_interface_layout(interface: &PyAny) -> PyResult<Result<ArrayLayout, String>> {
    let Ok(interface) = interface.downcast::<PyDict>() else {
        return Ok(Err("__array_interface__ is not a dict".into()));
    };
    macro_rules! field {
        ($key:literal) => {
            match interface.get_item($key) {
                Some(v) => v,
                None => return Ok(Err(format!("__array_interface__ has no {:?}", $key))),
            }
        };
    }
    let typestr: String = field!("typestr").extract()?;
    let shape: Vec<usize> = field!("shape").extract()?;
    let contiguous = match interface.get_item("strides") {
        None => true,
        Some(s) if s.is_none() => true,
        Some(s) => s.extract::<Vec<isize>>().is_ok_and(|strides| c_order(&shape, &strides)),
    };
    let (address, _read_only): (usize, bool) = field!("data").extract()?;
    Ok(Ok(ArrayLayout { typestr, shape, contiguous, address }))
}

impl IdsArg<'_> {
    /// The ids as `u32`, or a message naming the first one that cannot be a token id.
    pub(crate) fn to_u32(&self, what: &dyn Display) -> Result<Vec<u32>, String> {
        match self {
            IdsArg::Ints(ids) => narrow(ids, what),
            IdsArg::Array(values) => narrow(values, what),
            IdsArg::Invalid(message) => Err(message.clone()),
        }
    }
}

/// The values as `u32` token ids, or a message naming the first that cannot be one: each
/// value's low half is kept and all values are ORed (a value that is no id has a high bit set:
/// a negative one too), in one pass, 8 values a step with AVX2 (checked for at run time).
fn narrow(values: &[i64], what: &dyn Display) -> Result<Vec<u32>, String> {
    let mut ids: Vec<u32> = Vec::with_capacity(values.len());
    #[cfg(target_arch = "x86_64")]
    let (done, mut all) = if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2; `ids` has room for every value.
        unsafe { narrow_avx2(values, ids.as_mut_ptr()) }
    } else {
        (0, 0)
    };
    #[cfg(not(target_arch = "x86_64"))]
    let (done, mut all) = (0, 0);
    // SAFETY: the first `done` elements were written.
    unsafe { ids.set_len(done) };
    ids.extend(values[done..].iter().map(|&v| {
        all |= v as u64;
        v as u32
    }));
    if all >> 32 != 0 {
        let (i, v) =
            values.iter().enumerate().find(|(_, &v)| (v as u64) >> 32 != 0).expect("a value with a high bit set");
        return Err(format!("{what}[{i}] = {v} is not a token id (must be in 0..2**32)"));
    }
    Ok(ids)
}

/// [`narrow`]'s steps of 8 values: writes their low halves to `out` and returns how many it
/// wrote (whole steps only) and the OR of those values.
///
/// # Safety
/// The CPU must have AVX2, and `out` must have room for `values.len()` elements.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn narrow_avx2(values: &[i64], out: *mut u32) -> (usize, u64) {
    use std::arch::x86_64::*;
    // The low halves of a vector's four values to its low 128 bits.
    let lows = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
    let mut all = _mm256_setzero_si256();
    let steps = values.len() / 8;
    let p = values.as_ptr() as *const __m256i;
    for k in 0..steps {
        let (a, b) = (_mm256_loadu_si256(p.add(2 * k)), _mm256_loadu_si256(p.add(2 * k + 1)));
        all = _mm256_or_si256(all, _mm256_or_si256(a, b));
        let halves =
            _mm256_permute2x128_si256(_mm256_permutevar8x32_epi32(a, lows), _mm256_permutevar8x32_epi32(b, lows), 0x20);
        _mm256_storeu_si256(out.add(8 * k) as *mut __m256i, halves);
    }
    let mut lanes = [0u64; 4];
    _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, all);
    (8 * steps, lanes.iter().fold(0, |a, &l| a | l))
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
        what: &dyn Display,
        skip: bool,
        char_offsets: bool,
    ) -> Result<(String, Vec<usize>), String> {
        let ids = ids.to_u32(what)?;
        let decoded = self.inner.decode_with_offsets(&ids, skip).map_err(|e| match e {
            DecodeError::UnknownId { index, id, vocab_len } => {
                format!("{what}[{index}] = {id} is not a token of this vocabulary ({vocab_len} ids)")
            }
        })?;
        Ok(if char_offsets { with_char_ends(decoded) } else { (decoded.text, Vec::new()) })
    }

    /// A single call, run through `map_items` so that a panic (a bug) still becomes an error.
    fn decode_single(
        &self,
        py: Python<'_>,
        ids: &PyAny,
        skip: bool,
        char_offsets: bool,
    ) -> PyResult<(String, Vec<usize>)> {
        let ids = ids_arg(ids, &"ids")?;
        let out = py.allow_threads(|| {
            map_items(std::slice::from_ref(&ids), Some(1), |ids| self.decode_one(ids, &"ids", skip, char_offsets))
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
        let inner = py.allow_threads(|| Vocabulary::from_tokenizer_json(json)).map_err(vocabulary_error)?;
        Ok(NativeVocabulary { inner: std::sync::Arc::new(inner) })
    }

    /// Reads and loads a `tokenizer.json` file.
    #[staticmethod]
    fn from_file(py: Python<'_>, path: std::path::PathBuf) -> PyResult<Self> {
        let bytes = py.allow_threads(|| std::fs::read(&path))?;
        let json = std::str::from_utf8(&bytes)
            .map_err(|e| TokenizerError::new_err(format!("{} is not UTF-8 text: {e}", path.display())))?;
        let inner = py.allow_threads(|| Vocabulary::from_tokenizer_json(json)).map_err(vocabulary_error)?;
        Ok(NativeVocabulary { inner: std::sync::Arc::new(inner) })
    }

    fn __len__(&self) -> usize {
        self.inner.len()
    }

    fn token_id(&self, token: &str) -> Option<u32> {
        self.inner.token_id(token)
    }

    /// Whether a think tag is one token, or made of special tokens with words between them
    /// (harmony's `<|channel|>analysis<|message|>`), as `think_tags="auto"` reads vocabularies.
    fn holds_tag(&self, tag: &str) -> bool {
        crate::extract::tag_is_tokens(tag, &|t: &str| self.inner.token_id(t).is_some())
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
        self.decode_single(py, ids, skip_special_tokens, false).map(|(text, _)| text)
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
        let args: Vec<(usize, IdsArg<'_>)> = sequence_items(batch, &"batch", "a list of id sequences")?
            .into_iter()
            .enumerate()
            .map(|(i, item)| ids_arg(item, &Indexed("batch", i)).map(|ids| (i, ids)))
            .collect::<PyResult<_>>()?;
        let results = py.allow_threads(|| {
            map_items(&args, threads, |(i, ids)| self.decode_one(ids, &Indexed("batch", *i), skip_special_tokens, true))
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
        format!("<NativeVocabulary: {} ids, {}>", self.inner.len(), self.inner.decoder_kind())
    }
}

/// A native text encoder for a byte-level BPE `tokenizer.json` (immutable; methods release
/// the interpreter).
#[pyclass(module = "apr_fast._core", frozen)]
pub(crate) struct NativeEncoder {
    /// Shared with the scorers that count text in its tokens.
    pub(crate) inner: std::sync::Arc<Encoder>,
}

/// Ids and the character offset where each token ends.
fn encoded_with_char_ends(encoder: &Encoder, text: &str) -> (Vec<u32>, Vec<usize>) {
    let encoding = encoder.encode(text);
    let mut ends = encoding.ends;
    bytes_to_chars_sorted(text, &mut ends);
    (encoding.ids, ends)
}

#[pymethods]
impl NativeEncoder {
    /// Loads the text of a `tokenizer.json`; `TokenizerError` says why a file is not one
    /// this encoder reproduces exactly.
    #[staticmethod]
    fn from_json(py: Python<'_>, json: &PyAny) -> PyResult<Self> {
        let json = borrow_str(json, "json")?;
        let inner = py.allow_threads(|| Encoder::from_tokenizer_json(json)).map_err(vocabulary_error)?;
        Ok(NativeEncoder { inner: std::sync::Arc::new(inner) })
    }

    #[getter]
    fn needs_nfc(&self) -> bool {
        self.inner.needs_nfc()
    }

    /// The ids of `text` and the character offset where each token ends.
    fn encode(&self, py: Python<'_>, text: &PyAny) -> PyResult<(Vec<u32>, Vec<usize>)> {
        run_one(py, &read_text(text, "text")?, |t| encoded_with_char_ends(&self.inner, t))
    }

    /// `encode` for many texts, in parallel.
    fn encode_batch(
        &self,
        py: Python<'_>,
        texts: &PyAny,
        threads: Option<i64>,
    ) -> PyResult<Vec<(Vec<u32>, Vec<usize>)>> {
        let mut reader = TextReader::new(py)?;
        let texts = reader.read_all(texts, "texts")?;
        run_released(py, &texts, threads_arg(threads)?, "texts", |t| encoded_with_char_ends(&self.inner, t))
    }

    fn __repr__(&self) -> String {
        format!("<NativeEncoder: byte-level BPE, NFC {}>", if self.inner.needs_nfc() { "required" } else { "not used" })
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
    lists
        .into_iter()
        .map(|p| match p[..] {
            [start, end] => Some((start, end)),
            _ => None,
        })
        .collect()
}

pub(crate) fn register(m: &PyModule) -> PyResult<()> {
    m.add_class::<NativeVocabulary>()?;
    m.add_class::<NativeEncoder>()?;
    m.add_function(wrap_pyfunction!(token_ends_from_offsets, m)?)
}
