//! The Python binding layer: the only code that knows Python.
//!
//! One file per concept, each with a `register` function; this file builds the module, the
//! exception hierarchy and the argument helpers shared by every concept. Conventions:
//! - validate Python arguments first and raise `TypeError`/`ValueError` with the argument's name;
//! - read long texts with [`TextReader`] (ASCII borrowed, any other encoded here, faster than
//!   CPython does) and borrow short, shared `str` data without copying, then release the interpreter
//!   with `py.allow_threads` for all real work;
//! - batches run through `crate::parallel::map_items`; a failure in one item becomes a status
//!   on that item, never a failed batch or a `PanicException`.

// pyo3 0.17's macros expand to `#[cfg(addr_of)]`, a cfg that pyo3's own build script sets;
// compilers from 1.80 check it against this crate's cfgs and warn (`unexpected_cfgs`, a lint
// that older compilers do not know, hence `unknown_lints`).
#![allow(unknown_lints, unexpected_cfgs)]

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyTypeError, PyValueError};
use pyo3::once_cell::GILOnceCell;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PySequence, PyString, PyTuple, PyType};
use pyo3::AsPyPointer;
use std::borrow::Cow;
use std::sync::Mutex;

use crate::extract::{think_tag_preset_names, ThinkTags, THINK_TAG_PRESETS};
use crate::hash::FastMap;
use crate::text::code_points::{
    append_utf8_of_code_points, rfind_code_points, utf8_len_of_code_points, InvalidCodePoint,
};

mod answer;
mod extract;
mod outcome;
mod reward;
mod text;
mod tokens;

create_exception!(apr_fast, AprError, PyException, "Base class of every error raised by apr_fast.");
create_exception!(apr_fast, ConfigError, AprError, "An invalid option or configuration value.");
create_exception!(apr_fast, TokenizerError, AprError, "A tokenizer file or vocabulary that cannot be used.");

/// The Python `str` of a name the crate spells as a `&'static str` (a status, a method, a
/// reason, a rule): made once per process and shared, as Python shares interned names, so
/// that a batch of thousands of results does not allocate the same few names again and again.
pub(crate) fn static_name(py: Python<'_>, name: &'static str) -> PyObject {
    type Names = FastMap<(usize, usize), Py<PyString>>;
    static NAMES: GILOnceCell<Mutex<Names>> = GILOnceCell::new();
    let names = NAMES.get_or_init(py, Default::default);
    // Only static strings come here: their address and length identify them, and the table
    // holds at most one entry per name constant of the crate.
    let mut names = names.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    names
        .entry((name.as_ptr() as usize, name.len()))
        .or_insert_with(|| PyString::new(py, name).into())
        .clone_ref(py)
        .into_py(py)
}

/// What a value object's `__reduce__` gives pickle: the `_core` function that rebuilds it and
/// the tuple of that function's arguments.
pub(crate) type Reduced = (PyObject, PyObject);

/// The `_core` function named `name`, for a `__reduce__` to name as the rebuilder. The module
/// is looked up once per process, not imported again for every object pickled (a list of
/// thousands of sentences pickles each one).
pub(crate) fn rebuilder(py: Python<'_>, name: &str) -> PyResult<PyObject> {
    static CORE: GILOnceCell<Py<PyModule>> = GILOnceCell::new();
    let core = match CORE.get(py) {
        Some(core) => core,
        None => {
            let module: Py<PyModule> = py.import("apr_fast._core")?.into();
            CORE.get_or_init(py, || module)
        }
    };
    Ok(core.as_ref(py).getattr(name)?.into_py(py))
}

/// The static name among `names` equal to `name` (a rule or kind read back from a pickle);
/// ValueError otherwise (a pickle from another version, or a hand-made call).
pub(crate) fn known_name(
    name: &str,
    names: impl IntoIterator<Item = &'static str>,
    what: &str,
) -> PyResult<&'static str> {
    names.into_iter().find(|n| *n == name).ok_or_else(|| PyValueError::new_err(format!("unknown {what}: {name:?}")))
}

/// Builds instances of a Python class (a frozen dataclass such as `RolloutScore` or
/// `Correctness`) as `object.__new__(cls)` followed by one `object.__setattr__(obj, name,
/// value)` per field, which is what the dataclass's `__init__` does, but without a Python call,
/// so a batch of thousands of rows leaves the Python layer no per-row work. The attributes go
/// where the interpreter keeps them (since Python 3.11 an instance's values without a
/// `__dict__` object until one is asked for: one allocation and one collected object fewer per
/// row than filling a new `__dict__`, as this did before).
///
/// A class with `__slots__` (`@dataclass(slots=True)`) keeps each field in a slot: its value
/// is stored by calling the slot's member descriptor's setter directly, as `object.__setattr__`
/// ends up doing, without the lookup of the name on the type and the instance each time (about
/// 40 instructions per field instead of 200).
pub(crate) struct InstanceBuilder<'py> {
    cls: &'py PyType,
    names: Vec<&'py PyString>,
    /// Per field, its slot's member descriptor and that descriptor's setter, when it has one.
    slots: Vec<Option<(&'py PyAny, pyo3::ffi::descrsetfunc)>>,
    object_new: pyo3::ffi::newfunc,
    no_args: &'py PyTuple,
    /// Whether the class is a frozen dataclass whose instances the garbage collector may
    /// leave alone ([`Self::build`]).
    immutable: bool,
}

extern "C" {
    // Part of the stable ABI since Python 3.9; pyo3 0.17's declarations lack it.
    fn PyObject_GC_IsTracked(op: *mut pyo3::ffi::PyObject) -> std::os::raw::c_int;
}

/// Whether the garbage collector tracks `obj`: false for atomic objects (str, int, float,
/// None) and for containers it was told to leave alone.
pub(crate) fn gc_tracked(obj: &PyObject) -> bool {
    // SAFETY: the caller holds the GIL (it owns `obj`); the call reads the object's header.
    unsafe { PyObject_GC_IsTracked(obj.as_ptr()) != 0 }
}

/// A tuple of `items`, which the garbage collector does not track when it tracks none of
/// them: such a tuple cannot be part of a reference cycle, and CPython itself stops tracking
/// it at the first collection it survives; untracked from the start, it is never visited. A
/// batch's rows (as tuples) and their spans are thousands of such tuples.
pub(crate) fn tuple_of<const N: usize>(py: Python<'_>, items: [PyObject; N]) -> PyObject {
    let atomic = items.iter().all(|item| !gc_tracked(item));
    let tuple: PyObject = PyTuple::new(py, items).into_py(py);
    if atomic {
        untracked(tuple)
    } else {
        tuple
    }
}

/// A span as a tuple of two ints, untracked ([`tuple_of`]; ints are never tracked, so
/// nothing is asked of them).
pub(crate) fn untracked_pair(py: Python<'_>, pair: (usize, usize)) -> PyObject {
    untracked(pair.into_py(py))
}

/// `tuple`, a tuple of items the collector does not track, no longer tracked itself.
fn untracked(tuple: PyObject) -> PyObject {
    // SAFETY: `tuple` is a live tuple (a GC type) holding no tracked object (both callers),
    // and the GIL is held (the caller owns a Python object): what `_PyTuple_MaybeUntrack` does.
    unsafe { pyo3::ffi::PyObject_GC_UnTrack(tuple.as_ptr().cast()) };
    tuple
}

impl<'py> InstanceBuilder<'py> {
    /// A builder for `cls` whose instances get the fields `names`, in this order.
    pub(crate) fn new(py: Python<'py>, cls: &'py PyAny, names: &[&str]) -> PyResult<Self> {
        let cls: &PyType = cls.downcast().map_err(|_| {
            PyTypeError::new_err(format!("into must be a class, got {}", cls.get_type().name().unwrap_or("?")))
        })?;
        // SAFETY: `object` is a live static type; its `tp_new` slot is `object.__new__`.
        let object_new = unsafe {
            pyo3::ffi::PyType_GetSlot(std::ptr::addr_of_mut!(pyo3::ffi::PyBaseObject_Type), pyo3::ffi::Py_tp_new)
        };
        if object_new.is_null() {
            return Err(PyTypeError::new_err("object has no tp_new slot"));
        }
        // SAFETY: a `Py_tp_new` slot holds a `newfunc`.
        let object_new: pyo3::ffi::newfunc = unsafe { std::mem::transmute(object_new) };
        let member_descriptor = py.import("types")?.getattr("MemberDescriptorType")?;
        let mut slots = Vec::with_capacity(names.len());
        for name in names {
            let slot = match cls.getattr(*name) {
                Ok(descriptor) if descriptor.get_type().is(member_descriptor) => {
                    // SAFETY: the GIL is held and `member_descriptor` is a live type; the slot
                    // of a static type is readable with PyType_GetSlot since Python 3.10.
                    let set = unsafe {
                        pyo3::ffi::PyType_GetSlot(descriptor.get_type().as_type_ptr(), pyo3::ffi::Py_tp_descr_set)
                    };
                    // SAFETY: a `Py_tp_descr_set` slot holds a `descrsetfunc`.
                    (!set.is_null()).then(|| {
                        (descriptor, unsafe {
                            std::mem::transmute::<*mut std::ffi::c_void, pyo3::ffi::descrsetfunc>(set)
                        })
                    })
                }
                _ => None,
            };
            slots.push(slot);
        }
        // An instance of a frozen dataclass (the class's own parameters: a plain subclass of
        // one takes other attributes) cannot be given another value after `build` without
        // `object.__setattr__`; a class that is no metaclass has a GC header on every instance
        // when its type says so.
        let frozen = match cls.getattr("__dict__")?.get_item("__dataclass_params__") {
            Ok(params) => params.getattr("frozen")?.is_true()?,
            Err(_) => false,
        };
        // SAFETY: `cls` is a live type object.
        let gc_type = unsafe { pyo3::ffi::PyType_IS_GC(cls.as_type_ptr()) != 0 };
        let builder = InstanceBuilder {
            cls,
            names: names.iter().map(|n| PyString::intern(py, n)).collect(),
            slots,
            object_new,
            no_args: PyTuple::empty(py),
            immutable: frozen && gc_type && !cls.is_subclass_of::<PyType>()?,
        };
        // A class whose instances take no such attributes (slots of other names, a native
        // type) fails here, once.
        let values = builder.names.iter().map(|_| py.None());
        builder.build(py, values)?;
        Ok(builder)
    }

    /// An instance whose fields take `values`, in the order of the names.
    ///
    /// An instance of a frozen dataclass whose values are all untracked by the garbage
    /// collector (str, numbers, None, [`untracked_pair`] spans) is untracked too, as CPython
    /// untracks a tuple of such values: it cannot be part of a reference cycle. The collector
    /// then never visits the rows of a batch. Tracked, each of thousands of rows was visited by
    /// every collection until it died, and their number set off the collector's full
    /// collections (about 3% of a reward call's time on the real traces).
    pub(crate) fn build(&self, py: Python<'py>, values: impl IntoIterator<Item = PyObject>) -> PyResult<PyObject> {
        // SAFETY: the GIL is held, `cls` is a live type object and `object_new` is
        // `object.__new__`, which returns a new reference or NULL with an exception set.
        let obj = unsafe {
            let obj = (self.object_new)(self.cls.as_type_ptr(), self.no_args.as_ptr(), std::ptr::null_mut());
            PyObject::from_owned_ptr_or_err(py, obj)?
        };
        let mut untrack = self.immutable;
        for ((name, slot), value) in self.names.iter().zip(&self.slots).zip(values) {
            // Asked only while every value so far is untracked (and the class allows it).
            untrack = untrack && !gc_tracked(&value);
            let value = value.into_ptr();
            // SAFETY: the GIL is held and all objects are live; `set` is the member
            // descriptor's own setter, which checks that `obj` is an instance of the class the
            // slot belongs to; both setters take their own reference, and the one `value`
            // owned is given back here.
            let status = unsafe {
                let status = match slot {
                    Some((descriptor, set)) => set(descriptor.as_ptr(), obj.as_ptr(), value),
                    None => pyo3::ffi::PyObject_GenericSetAttr(obj.as_ptr(), name.as_ptr(), value),
                };
                pyo3::ffi::Py_DECREF(value);
                status
            };
            if status != 0 {
                return Err(PyErr::fetch(py));
            }
        }
        if untrack {
            // SAFETY: `obj` is a live instance of a GC type (checked in `new`), GIL held.
            unsafe { pyo3::ffi::PyObject_GC_UnTrack(obj.as_ptr().cast()) };
        }
        Ok(obj)
    }
}

/// The items of a list or tuple; any other object is a `TypeError` that says what `what` (the
/// argument's name) must be: "{what} must be {expected}, got {type}".
pub(crate) fn sequence_items<'py>(
    obj: &'py PyAny,
    what: &dyn std::fmt::Display,
    expected: &str,
) -> PyResult<Vec<&'py PyAny>> {
    if let Ok(list) = obj.downcast::<PyList>() {
        return Ok(list.iter().collect());
    }
    if let Ok(tuple) = obj.downcast::<PyTuple>() {
        return Ok(tuple.iter().collect());
    }
    Err(PyTypeError::new_err(format!("{what} must be {expected}, got {}", obj.get_type().name()?)))
}

/// Borrows every item of a list/tuple of `str` without copying the text.
/// `what` names the argument in the error message (formatted only for an error: a batch
/// borrows one list per row).
pub(crate) fn borrow_str_list<'py>(
    obj: &'py PyAny,
    what: &(impl std::fmt::Display + ?Sized),
) -> PyResult<Vec<&'py str>> {
    sequence_items(obj, &what, "a list of str")?
        .into_iter()
        .enumerate()
        .map(|(i, item)| match item.downcast::<PyString>() {
            // The name is only formatted for an error.
            Ok(s) => s.to_str().or_else(|_| borrow_str(item, &format!("{what}[{i}]"))),
            Err(_) => borrow_str(item, &format!("{what}[{i}]")),
        })
        .collect()
}

/// Reads long texts that a call reads once (responses, thinking, texts to split or encode)
/// as UTF-8: a `str` that is ASCII is borrowed (CPython keeps ASCII text as its own UTF-8);
/// any other is read as its code points (`PyUnicode_AsUCS4`, a widening copy into a buffer
/// reused from text to text) and encoded by [`append_utf8_of_code_points`], into one buffer
/// for a whole part of a list ([`Self::read_part`]) that the next part reuses. Borrowing such
/// a `str` makes CPython encode it, about twice as slowly, into memory of its own that stays
/// attached to the string for its life; a training step's responses are new strings every
/// time, so that memory is fresh (page faults and all) and nothing is saved for later.
/// Short strings read again and again (ground truths, problems: one per prompt, shared by its
/// rollouts) are borrowed instead ([`borrow_str_list`], [`borrow_str`]).
pub(crate) struct TextReader<'py> {
    /// `str.isascii` (a flag test in CPython).
    isascii: &'py PyAny,
    /// The thread's code-point buffer, taken for the reader's life and given back on drop, so
    /// that one call per text (an evaluation loop's `is_correct`) does not allocate it anew.
    code_points: Vec<u32>,
    /// The UTF-8 of the texts of the part read last that are not ASCII.
    part: Vec<u8>,
    /// The UTF-8 of a text's end ([`Self::read_part_or_ends`]).
    end: Vec<u8>,
}

thread_local! {
    /// The code-point buffer of the thread's last [`TextReader`] (at most
    /// [`MAX_CODE_POINTS_AT_ONCE`] code points: a longer text is read in slices).
    static CODE_POINTS: std::cell::Cell<Vec<u32>> = const { std::cell::Cell::new(Vec::new()) };
}

impl Drop for TextReader<'_> {
    fn drop(&mut self) {
        let buffer = std::mem::take(&mut self.code_points);
        // A thread being torn down has no buffer to keep it in.
        let _ = CODE_POINTS.try_with(|cell| cell.set(buffer));
    }
}

impl<'py> TextReader<'py> {
    pub(crate) fn new(py: Python<'py>) -> PyResult<TextReader<'py>> {
        static ISASCII: GILOnceCell<PyObject> = GILOnceCell::new();
        let isascii = match ISASCII.get(py) {
            Some(f) => f,
            None => {
                let f: PyObject = py.get_type::<PyString>().getattr("isascii")?.into();
                ISASCII.get_or_init(py, || f)
            }
        };
        let code_points = CODE_POINTS.try_with(|cell| cell.take()).unwrap_or_default();
        Ok(TextReader { isascii: isascii.as_ref(py), code_points, part: Vec::new(), end: Vec::new() })
    }

    /// `obj`'s text when it is an ASCII `str` (borrowed); else None, after its UTF-8 is
    /// appended to `out` ([`append_utf8_of_str`], through the buffer `code_points`). `what`
    /// names the argument in an error.
    fn borrow_or_append(
        isascii: &PyAny,
        code_points: &mut Vec<u32>,
        obj: &'py PyAny,
        what: &dyn std::fmt::Display,
        out: &mut Vec<u8>,
    ) -> PyResult<Option<&'py str>> {
        let s = Self::ascii_or_str(isascii, obj, what)?;
        let Err(s) = s else { return Ok(s.ok()) };
        append_utf8_of_str(s, code_points, out)?.map_err(|_| not_unicode(what))?;
        Ok(None)
    }

    /// `obj`'s text when it is an ASCII `str` (borrowed), else the `str` to read; TypeError
    /// naming the argument `what` when it is no `str`.
    fn ascii_or_str(
        isascii: &PyAny,
        obj: &'py PyAny,
        what: &dyn std::fmt::Display,
    ) -> PyResult<Result<&'py str, &'py PyString>> {
        let Ok(s) = obj.downcast::<PyString>() else {
            return Err(PyTypeError::new_err(format!("{what} must be str, got {}", obj.get_type().name()?)));
        };
        if isascii.call1((s,))?.is_true()? {
            return Ok(Ok(s.to_str()?));
        }
        Ok(Err(s))
    }

    /// The UTF-8 text of `obj`, a `str`; `what` names the argument in an error.
    pub(crate) fn read(&mut self, obj: &'py PyAny, what: &dyn std::fmt::Display) -> PyResult<Cow<'py, str>> {
        let mut out = Vec::new();
        if let Some(text) = Self::borrow_or_append(self.isascii, &mut self.code_points, obj, what, &mut out)? {
            return Ok(Cow::Borrowed(text));
        }
        // SAFETY: only the UTF-8 of valid code points was appended.
        Ok(Cow::Owned(unsafe { String::from_utf8_unchecked(out) }))
    }

    /// The UTF-8 texts of the items of `obj`, a list/tuple of `str` (the argument `what`), valid
    /// until the next part is read.
    pub(crate) fn read_all<'s>(&'s mut self, obj: &'py PyAny, what: &str) -> PyResult<Vec<&'s str>>
    where
        'py: 's,
    {
        let items = sequence_items(obj, &what, "a list of str")?;
        self.read_part(&items, what, 0)
    }

    /// The UTF-8 texts of `items` (`str` objects, items `first`, `first + 1`, ... of the list
    /// argument `what`, named so in an error), valid until the next part is read.
    pub(crate) fn read_part<'s>(&'s mut self, items: &[&'py PyAny], what: &str, first: usize) -> PyResult<Vec<&'s str>>
    where
        'py: 's,
    {
        let TextReader { isascii, code_points, part, .. } = self;
        part.clear();
        // A borrowed text, or the span of its UTF-8 in `part`.
        let mut read: Vec<Result<&'py str, std::ops::Range<usize>>> = Vec::with_capacity(items.len());
        for (k, item) in items.iter().enumerate() {
            let start = part.len();
            read.push(
                match Self::borrow_or_append(isascii, code_points, item, &format_args!("{what}[{}]", first + k), part)?
                {
                    Some(text) => Ok(text),
                    None => Err(start..part.len()),
                },
            );
        }
        let part: &'s Vec<u8> = part;
        // SAFETY: each span holds the UTF-8 of whole code points, appended in one piece.
        Ok(read
            .into_iter()
            .map(|r| r.unwrap_or_else(|span| unsafe { std::str::from_utf8_unchecked(&part[span]) }))
            .collect())
    }

    /// [`Self::read_part`] for a caller that may need only the end of a text: one that is not
    /// ASCII and holds `close` (its last one) is first offered to `decide` by its end, from
    /// [`END_CONTEXT`] code points before that tag on; what `decide` makes of it stands for
    /// the text, which is then not read before its end: its last [`TAIL_READ`] code points
    /// are read first, and the whole text when the tag (or the context before it) is not
    /// among them. The byte offset of such an end is not counted here (the caller counts it from
    /// the `str` if asked: [`utf8_len_of_str_start`]), and UTF-8's lone surrogates are only
    /// found in what was read. A text `decide` declines (None), and every text when `close`
    /// is None, is read whole. ASCII text is borrowed whole, as it costs nothing to read.
    /// Final answers are read so (`extract::final_answers_in_parts`,
    /// [`crate::extract::final_answer_in_tail`]): the box after the last `</think>` decides
    /// most responses' answers, and that end is a tenth of a response.
    pub(crate) fn read_part_or_ends<'s, T>(
        &'s mut self,
        items: &[&'py PyAny],
        what: &str,
        first: usize,
        close: Option<&str>,
        mut decide: impl FnMut(TextEnd<'_>) -> Option<T>,
    ) -> PyResult<Vec<PartText<'s, T>>>
    where
        'py: 's,
    {
        let Some(close) = close.filter(|c| !c.is_empty()) else {
            return Ok(self.read_part(items, what, first)?.into_iter().map(PartText::Whole).collect());
        };
        let close: Vec<u32> = close.chars().map(u32::from).collect();
        let TextReader { isascii, code_points, part, end } = self;
        part.clear();
        // How each text was read: borrowed, encoded into `part` (its span there), or decided
        // by its end (the value, the end's first code point).
        enum Read<'py, T> {
            Borrowed(&'py str),
            Encoded(std::ops::Range<usize>),
            Decided(T, usize),
        }
        let mut read: Vec<Read<'py, T>> = Vec::with_capacity(items.len());
        for (k, item) in items.iter().enumerate() {
            let name = format_args!("{what}[{}]", first + k);
            let s = match Self::ascii_or_str(isascii, item, &name)? {
                Ok(text) => {
                    read.push(Read::Borrowed(text));
                    continue;
                }
                Err(s) => s,
            };
            let n = str_len(s)?;
            let start = part.len();
            if n > MAX_CODE_POINTS_AT_ONCE {
                append_utf8_of_str(s, code_points, part)?.map_err(|_| not_unicode(&name))?;
                read.push(Read::Encoded(start..part.len()));
                continue;
            }
            // The last TAIL_READ code points, from `read_from` on; the end from END_CONTEXT
            // code points before the last tag, when those hold it and its context (a text
            // whose tag lies further back, or that has none, is read whole).
            let read_from = n.saturating_sub(TAIL_READ);
            read_code_points(s, n, read_from..n, code_points)?;
            let from = rfind_code_points(code_points, &close)
                .filter(|&q| q >= END_CONTEXT)
                .map(|q| read_from + q - END_CONTEXT)
                .filter(|&from| from > 0);
            if let Some(from) = from {
                end.clear();
                append_utf8_of_code_points(&code_points[from - read_from..], end).map_err(|_| not_unicode(&name))?;
                // SAFETY: `end` holds the UTF-8 of whole code points.
                let text = unsafe { std::str::from_utf8_unchecked(end) };
                if let Some(decided) = decide(TextEnd { text, chars: n - from }) {
                    read.push(Read::Decided(decided, from));
                    continue;
                }
            }
            if read_from > 0 {
                read_code_points(s, n, 0..n, code_points)?;
            }
            append_utf8_of_code_points(code_points, part).map_err(|_| not_unicode(&name))?;
            read.push(Read::Encoded(start..part.len()));
        }
        let part: &'s Vec<u8> = part;
        Ok(read
            .into_iter()
            .map(|r| match r {
                Read::Borrowed(text) => PartText::Whole(text),
                // SAFETY: each span holds the UTF-8 of whole code points, appended in one piece.
                Read::Encoded(span) => PartText::Whole(unsafe { std::str::from_utf8_unchecked(&part[span]) }),
                Read::Decided(decided, char_start) => PartText::End { decided, char_start },
            })
            .collect())
    }
}

/// How many code points before a text's last closing tag [`TextReader::read_part_or_ends`]
/// offers with its end: enough for the final-answer rule to see a delimiter before the tag
/// (a run of bytes without one might hold a brace-less box running into the end) in all but
/// degenerate texts, which it then reads whole.
pub(crate) const END_CONTEXT: usize = 64;

/// How many code points [`TextReader::read_part_or_ends`] reads first from a text's end: the
/// part after the last `</think>` (with [`END_CONTEXT`]) is shorter in all but 2.7% of the
/// real traces that are not ASCII (median 1,088 code points).
const TAIL_READ: usize = 2048;

/// The end of a text offered by [`TextReader::read_part_or_ends`]: its UTF-8 and its length
/// in characters. It starts past the text's start.
pub(crate) struct TextEnd<'a> {
    pub text: &'a str,
    pub chars: usize,
}

/// A text of a part read by [`TextReader::read_part_or_ends`].
pub(crate) enum PartText<'s, T> {
    Whole(&'s str),
    /// What the caller's `decide` made of the text's end, which starts at its code point
    /// `char_start` (its byte offset is not counted: [`utf8_len_of_str_start`]).
    End {
        decided: T,
        char_start: usize,
    },
}

/// The ValueError of a text that UTF-8 cannot encode (`what` names it).
fn not_unicode(what: &dyn std::fmt::Display) -> PyErr {
    PyValueError::new_err(format!("{what} is not valid Unicode (lone surrogate?)"))
}

/// The most code points copied out of a `str` at a time (4 MiB of them): a longer string is
/// read a slice at a time, so that one huge text does not need four bytes per character of
/// buffer on top of its own memory.
const MAX_CODE_POINTS_AT_ONCE: usize = 1 << 20;

/// Appends the UTF-8 of `s` to `out`, reading its code points into `code_points` (a buffer
/// reused from text to text) [`MAX_CODE_POINTS_AT_ONCE`] at a time; the inner error (`out`
/// then as it was) is a code point UTF-8 cannot encode, a lone surrogate.
fn append_utf8_of_str(
    s: &PyString,
    code_points: &mut Vec<u32>,
    out: &mut Vec<u8>,
) -> PyResult<Result<(), InvalidCodePoint>> {
    let n = str_len(s)?;
    let start = out.len();
    let mut from = 0;
    while from < n {
        let to = (from + MAX_CODE_POINTS_AT_ONCE).min(n);
        read_code_points(s, n, from..to, code_points)?;
        if let Err(e) = append_utf8_of_code_points(code_points, out) {
            out.truncate(start);
            return Ok(Err(InvalidCodePoint { index: from + e.index, ..e }));
        }
        from = to;
    }
    Ok(Ok(()))
}

/// The length in UTF-8 of code points `..chars` of `s` (at most its length), read
/// [`MAX_CODE_POINTS_AT_ONCE`] at a time, a lone surrogate counted as the three bytes that
/// `"surrogatepass"` encodes it in (the length of `s[:chars].encode("utf-8", "surrogatepass")`,
/// which is its UTF-8's length when it has one).
pub(crate) fn utf8_len_of_str_start(s: &PyString, chars: usize) -> PyResult<usize> {
    let n = str_len(s)?;
    let mut code_points = Vec::new();
    let (mut len, mut from) = (0, 0);
    while from < chars.min(n) {
        let to = (from + MAX_CODE_POINTS_AT_ONCE).min(chars).min(n);
        read_code_points(s, n, from..to, &mut code_points)?;
        let mut rest = &code_points[..];
        loop {
            match utf8_len_of_code_points(rest) {
                Ok(k) => break len += k,
                Err(e) => {
                    // A str's code points are at most U+10FFFF: this one is a surrogate.
                    len += utf8_len_of_code_points(&rest[..e.index]).expect("valid before the first invalid one") + 3;
                    rest = &rest[e.index + 1..];
                }
            }
        }
        from = to;
    }
    Ok(len)
}

/// Code points `range` of `s` (a `str` of `n` code points, [`str_len`]; `range` within them)
/// into `code_points` (cleared first): `PyUnicode_AsUCS4`, of a slice when that is not all of
/// `s`.
fn read_code_points(s: &PyString, n: usize, range: std::ops::Range<usize>, code_points: &mut Vec<u32>) -> PyResult<()> {
    let py = s.py();
    let (from, to) = (range.start, range.end);
    // SAFETY: the GIL is held and `s` is a live `str`; the slice is a new reference owned by
    // the pool (or `s` itself when it is read at once).
    let slice: &PyString = if from == 0 && to == n {
        s
    } else {
        unsafe {
            py.from_owned_ptr_or_err(pyo3::ffi::PyUnicode_Substring(
                s.as_ptr(),
                from as pyo3::ffi::Py_ssize_t,
                to as pyo3::ffi::Py_ssize_t,
            ))?
        }
    };
    let len = to - from;
    code_points.clear();
    code_points.reserve(len);
    // SAFETY: `slice` holds `len` code points; the buffer has room for `len` (no terminating
    // zero is asked for), and they are written when the call returns non-NULL.
    unsafe {
        let filled =
            pyo3::ffi::PyUnicode_AsUCS4(slice.as_ptr(), code_points.as_mut_ptr(), len as pyo3::ffi::Py_ssize_t, 0);
        if filled.is_null() {
            return Err(PyErr::fetch(py));
        }
        code_points.set_len(len);
    }
    Ok(())
}

/// [`TextReader::read`] with a reader of its own, for one text.
pub(crate) fn read_text<'py>(obj: &'py PyAny, what: &str) -> PyResult<Cow<'py, str>> {
    TextReader::new(obj.py())?.read(obj, &what)
}

/// The length in characters of each `str` of a list or tuple that [`borrow_str_list`] accepted
/// (Python keeps it: no counting).
pub(crate) fn char_lengths(obj: &PyAny) -> PyResult<Vec<usize>> {
    obj.iter()?.map(|item| str_len(item?)).collect()
}

/// The length in code points of `obj`, a `str` (`len()` for anything else): the string's
/// own, which a subclass's `__len__` cannot change.
pub(crate) fn str_len(obj: &PyAny) -> PyResult<usize> {
    match obj.downcast::<PyString>() {
        Ok(s) => {
            // SAFETY: the GIL is held and `s` is a live `str`.
            let n = unsafe { pyo3::ffi::PyUnicode_GetLength(s.as_ptr()) };
            usize::try_from(n).map_err(|_| PyErr::fetch(obj.py()))
        }
        Err(_) => obj.len(),
    }
}

/// Borrows one `str` argument without copying; `TypeError` naming the argument otherwise.
pub(crate) fn borrow_str<'py>(obj: &'py PyAny, what: &str) -> PyResult<&'py str> {
    match obj.downcast::<PyString>() {
        Ok(s) => {
            s.to_str().map_err(|_| PyValueError::new_err(format!("{what} is not valid Unicode (lone surrogate?)")))
        }
        Err(_) => Err(PyTypeError::new_err(format!("{what} must be str, got {}", obj.get_type().name()?))),
    }
}

/// The think tags a `think_tags` argument gives: None (the default ones), the name of a
/// preset (`THINK_TAG_PRESETS`), `"auto"` (each response's own family's, `ThinkTags::auto`)
/// or a sequence of two str (opening, closing). TypeError for
/// anything else, ConfigError for an unknown name or tags that cannot be used.
pub(crate) fn think_tags_of(value: Option<&PyAny>) -> PyResult<ThinkTags> {
    let Some(value) = value.filter(|v| !v.is_none()) else { return Ok(ThinkTags::default()) };
    if let Ok(name) = value.downcast::<PyString>() {
        return ThinkTags::named(name.to_str()?).map_err(ConfigError::new_err);
    }
    let pair = value.downcast::<PySequence>().ok().and_then(|seq| {
        let items: Vec<&str> = seq.iter().ok()?.map(|item| item.ok()?.extract::<&str>().ok()).collect::<Option<_>>()?;
        (items.len() == 2).then(|| (items[0], items[1]))
    });
    match pair {
        Some((open, close)) => ThinkTags::new(open, close).map_err(ConfigError::new_err),
        None => Err(PyTypeError::new_err(format!(
            "think_tags must be a preset name ({}), \"auto\" or two str (opening, closing), got {}",
            think_tag_preset_names(),
            value.repr()?
        ))),
    }
}

/// Validates an optional `threads` argument (None = environment/CPU default).
pub(crate) fn threads_arg(threads: Option<i64>) -> PyResult<Option<usize>> {
    match threads {
        None => Ok(None),
        Some(n) if n >= 1 => Ok(Some(n as usize)),
        Some(n) => Err(PyValueError::new_err(format!("threads must be >= 1 or None, got {n}"))),
    }
}

/// Number of worker threads a batch call uses when given no `threads` argument.
#[pyfunction]
fn default_threads() -> usize {
    crate::parallel::default_threads()
}

#[pymodule]
fn _core(py: Python<'_>, m: &PyModule) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("THREADS_ENV", crate::parallel::THREADS_ENV)?;
    m.add("AprError", py.get_type::<AprError>())?;
    m.add("ConfigError", py.get_type::<ConfigError>())?;
    m.add("TokenizerError", py.get_type::<TokenizerError>())?;
    m.add_function(wrap_pyfunction!(default_threads, m)?)?;
    let presets = PyDict::new(py);
    for (name, open, close) in THINK_TAG_PRESETS {
        presets.set_item(name, (open, close))?;
    }
    m.add("THINK_TAG_PRESETS", presets)?;
    tokens::register(m)?;
    text::register(py, m)?;
    answer::register(m)?;
    extract::register(py, m)?;
    reward::register(m)?;
    outcome::register(m)?;
    Ok(())
}
