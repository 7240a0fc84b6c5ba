"""Token ids -> text with exact per-token offsets, from the policy's own ``tokenizer.json``.

In RL training the reward receives each response as token ids. :class:`Vocabulary` decodes them
exactly as Hugging Face ``tokenizers`` does (same text, same U+FFFD replacements, same
``skip_special_tokens`` behaviour) and also says where each token ends in that text, so a
character position found in the text (the reasoning anchor) maps back to a token index without
re-tokenizing anything.

Offsets are **character** offsets into the decoded ``str``: token ``i`` holds
``text[ends[i - 1]:ends[i]]`` (from 0 for the first token). A character whose UTF-8 bytes are
split across tokens (a Chinese character, an emoji, ``²`` in byte-level BPE) belongs to the token
holding its last byte; the earlier tokens hold an empty span. Skipped special tokens hold an
empty span too, so there is always exactly one end per id.

Supported tokenizers: byte-level BPE (GPT-2, Qwen, Llama 3, DeepSeek-R1-Distill) and
SentencePiece conversions (a ``Metaspace`` decoder, or Llama's
``Replace("▁", " ") / ByteFallback / Fuse / Strip`` chain). Anything else (WordPiece, other
decoders) raises :class:`~apr_fast.TokenizerError` when loading, never decodes approximately.
Parity target: ``tokenizers.Tokenizer.decode``. A transformers tokenizer may additionally apply
``clean_up_tokenization_spaces`` in its own ``decode``; this module does not, since those edits
would break the mapping from characters to tokens.
"""
from __future__ import annotations

import bisect
import functools
import gzip
import os
import sys
from collections import abc
from pathlib import Path
from typing import Any, NamedTuple, Optional, Protocol, Sequence, Union

from apr_fast._core import NativeVocabulary, token_ends_from_offsets as _token_ends_from_offsets
from apr_fast.errors import TokenizerError

__all__ = [
    "DecodedIds", "TokenIds", "Vocabulary", "load_hf_tokenizer", "read_tokenizer_json", "token_ends_from_offsets",
    "token_index_at", "tokenizer_json",
]


class _IntArray(Protocol):
    """A numpy array or torch tensor (checked at run time: 1-D, integer dtype)."""

    @property
    def ndim(self) -> int: ...

    def tolist(self) -> Any: ...


#: Token ids: a list/tuple of int, or a 1-D integer numpy array or torch tensor (any device).
TokenIds = Union[Sequence[int], _IntArray]

#: What the native layer reads: a list/tuple of int, or a 1-D C-contiguous int64 numpy array
#: (read in place; typed Any so that numpy stays an optional dependency).
_NativeIds = Any


class DecodedIds(NamedTuple):
    """One decoded sequence of a batch.

    ``token_ends`` are character offsets as in :meth:`Vocabulary.decode_with_offsets`. When the
    sequence could not be decoded (an id outside the vocabulary), ``error`` says why and
    ``text``/``token_ends`` are empty.
    """

    text: str
    token_ends: list[int]
    error: str | None


def _read_in_place(array: Any, int64: Any, ndim: int = 1) -> bool:
    """Whether the native side reads numpy ``array`` in place: C-contiguous, native int64
    (``int64``, numpy's dtype, passed in so that this module does not import numpy), ``ndim``
    dimensions. One look per array: a per-row batch pays it once per row."""
    return (array.dtype is int64 or array.dtype == int64) and array.ndim == ndim and array.flags.c_contiguous


def _numpy_ids(array: Any, what: str, ndim: int = 1) -> Any:
    import numpy as np  # already imported by whoever made the array

    if _read_in_place(array, np.dtype(np.int64), ndim):
        return array
    if array.ndim != ndim:
        raise ValueError(f"{what} must be {ndim}-D, got shape {tuple(array.shape)}")
    if array.dtype.kind not in "iu":
        raise TypeError(f"{what} must have an integer dtype, got {array.dtype}")
    if array.dtype == np.uint64 and array.size and int(array.max()) > np.iinfo(np.int64).max:
        raise ValueError(f"{what} holds {int(array.max())}, which is not a token id")
    # The native side reads a C-contiguous native int64 array in place (no copy for such
    # input, one conversion for any other).
    return np.ascontiguousarray(array, dtype=np.int64)


@functools.lru_cache(maxsize=1)
def _torch_integer_dtypes(torch: Any) -> frozenset[Any]:
    """torch's integer dtypes (the unsigned wide ones exist from torch 2.3 on)."""
    names = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
    return frozenset(getattr(torch, n) for n in names if hasattr(torch, n))


def _torch_ids(tensor: Any, what: str, ndim: int = 1) -> Any:
    import torch  # type: ignore[import-not-found,unused-ignore]  # imported by whoever made the tensor

    if tensor.ndim != ndim:
        raise ValueError(f"{what} must be {ndim}-D, got shape {tuple(tensor.shape)}")
    if tensor.dtype not in _torch_integer_dtypes(torch):
        raise TypeError(f"{what} must have an integer dtype, got {tensor.dtype}")
    try:
        # A CPU tensor shares its memory with the array: no copy, and a third of the cost of
        # detach().cpu() first (integer tensors carry no gradient).
        array = tensor.numpy()
    except (RuntimeError, TypeError):  # on an accelerator, or a view numpy cannot share
        array = tensor.detach().cpu().numpy()
    return _numpy_ids(array, what, ndim)


def _package_of(obj: object) -> str:
    """The top-level package of ``obj``'s type (``numpy``, ``torch``, ``tokenizers``...), read
    off its module name, so that none of them is imported here."""
    return type(obj).__module__.partition(".")[0]


def _native_ids(ids: object, what: str) -> _NativeIds:
    """What the native layer accepts: the list/tuple itself, arrays as contiguous int64, and any
    other sequence of int (``array.array``, ``range``, ``collections.deque``) as a list. Text and
    bytes are no ids."""
    if isinstance(ids, (list, tuple)):
        return ids  # the native side checks each item
    package = _package_of(ids)
    if package == "numpy":
        return _numpy_ids(ids, what)
    if package == "torch":
        return _torch_ids(ids, what)
    if isinstance(ids, abc.Sequence) and not isinstance(ids, (str, bytes, bytearray)):
        return list(ids)  # the native side checks each item, as for a list
    raise TypeError(
        f"{what} must be a list of int, a 1-D integer numpy array or torch tensor, "
        f"got {type(ids).__name__}"
    )


def _native_id_list(batch: Sequence[Any], what: str) -> list[_NativeIds]:
    """:func:`_native_ids` for every item of a batch (``what[i]`` names item i in errors). A
    batch of 1-D C-contiguous native int64 numpy arrays (what the other forms become) is
    passed on as it is, after one cheap look at each array: no per-row conversion call; so is a
    batch of CPU int64 torch rows (VeRL's row views), as the numpy views of their memory."""
    items = list(batch)
    numpy = sys.modules.get("numpy")
    if numpy is None:
        return [_native_ids(ids, f"{what}[{i}]") for i, ids in enumerate(items)]
    ndarray, int64 = numpy.ndarray, numpy.dtype(numpy.int64)

    def native_int64(arrays: list[Any]) -> bool:
        return all(type(a) is ndarray and _read_in_place(a, int64) for a in arrays)

    if native_int64(items):
        return items
    torch = sys.modules.get("torch")
    if torch is not None and items and all(type(t) is torch.Tensor for t in items):
        try:
            views = [t.numpy() for t in items]
        except (RuntimeError, TypeError):  # a tensor on an accelerator: converted row by row below
            views = None
        if views is not None and native_int64(views):
            return views
    return [_native_ids(ids, f"{what}[{i}]") for i, ids in enumerate(items)]


def _is_id_matrix(ids: object) -> bool:
    """Whether ``ids`` is a numpy array or torch tensor of two dimensions (a padded batch)."""
    return _package_of(ids) in ("numpy", "torch") and getattr(ids, "ndim", None) == 2


def _is_one_id_row(ids: Any) -> bool:
    """Whether ``ids`` is one response's ids (or one id) where a batch is expected: a numeric
    numpy array or torch tensor of at most one dimension. A 1-D numpy array of objects is a
    batch of rows (a ragged parquet column)."""
    package = _package_of(ids)
    if package not in ("numpy", "torch") or getattr(ids, "ndim", None) not in (0, 1):
        return False
    return package == "torch" or getattr(getattr(ids, "dtype", None), "kind", "O") != "O"


def _native_id_rows(batch: Any, lengths: Any, what: str) -> tuple[Any, list[int]]:
    """A padded 2-D batch of ids as the native layer reads it (one contiguous int64 array,
    read in place) and each row's length: ``lengths`` (ints, or a 1-D array or tensor), or the
    full width when None."""
    matrix = _torch_ids(batch, what, 2) if _package_of(batch) == "torch" else _numpy_ids(batch, what, 2)
    rows, width = matrix.shape
    if lengths is None:
        return matrix, [width] * rows
    if hasattr(lengths, "tolist") and not isinstance(lengths, (list, tuple)):
        lengths = lengths.tolist()  # numpy arrays and torch tensors
    if isinstance(lengths, (str, bytes)) or not isinstance(lengths, (list, tuple)):
        raise TypeError(f"lengths must be a sequence of int, got {type(lengths).__name__}")
    if len(lengths) != rows:
        raise ValueError(f"lengths has {len(lengths)} items for {rows} rows of {what}")
    for i, n in enumerate(lengths):
        if isinstance(n, bool) or not isinstance(n, int):
            raise TypeError(f"lengths[{i}] must be int, got {type(n).__name__}")
        if not 0 <= n <= width:
            raise ValueError(f"lengths[{i}] = {n} is not a length within a row of {width} ids")
    return matrix, list(lengths)


class Vocabulary:
    """A tokenizer vocabulary for exact decoding with per-token offsets.

    Load it once per process (``from_file``, ``from_json`` or ``from_hf``); it is immutable,
    holds a few MB (its tables, and the tokenizer.json text it pickles as), and every method
    releases the interpreter, so one instance can serve many threads. Vocabularies and
    :class:`~apr_fast.APRScorer` objects pickle (Ray workers, process pools).

    Example::

        vocab = Vocabulary.from_hf(tokenizer)            # the actor's tokenizer
        text, ends = vocab.decode_with_offsets(response_ids)
        anchor_token = token_index_at(ends, anchor_char)  # token holding that character

    Pass a torch tensor or numpy array as it is (e.g. ``responses[0, :n]``): it crosses to
    the native side without a copy (an int64 array is read in place), whereas ``.tolist()`` first costs more than the decode
    itself (``benches/bench_tokens.py``).
    """

    __slots__ = ("_native", "_json")

    def __init__(self, native: NativeVocabulary, json: Optional[str] = None) -> None:
        """Wraps a loaded native vocabulary; use the ``from_*`` constructors instead. ``json``
        (the ``tokenizer.json`` text it was loaded from) makes it picklable."""
        if not isinstance(native, NativeVocabulary):
            raise TypeError(f"native must be NativeVocabulary, got {type(native).__name__}")
        self._native = native
        self._json = json

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        """Pickles as the ``tokenizer.json`` text (so a scorer can travel to Ray workers and
        process pools): the tables are rebuilt on load."""
        if self._json is None:
            raise TypeError("this Vocabulary was built without its tokenizer.json text and cannot be pickled")
        return (Vocabulary.from_json, (self._json,))

    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> Vocabulary:
        """Loads a Hugging Face ``tokenizer.json`` file (gzip-compressed too).

        Raises :class:`OSError` if it cannot be read and :class:`~apr_fast.TokenizerError` if it
        is not a tokenizer this module decodes exactly.
        """
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"path must be str or os.PathLike, got {type(path).__name__}")
        return cls.from_json(read_tokenizer_json(path))

    @classmethod
    def from_json(cls, json: str) -> Vocabulary:
        """Loads the text of a ``tokenizer.json``."""
        return cls(NativeVocabulary.from_json(json), json)

    @classmethod
    def from_hf(cls, tokenizer: object) -> Vocabulary:
        """Loads the vocabulary of a ``tokenizers.Tokenizer`` or a transformers *fast* tokenizer.

        Uses the tokenizer's current state (added tokens included), serialized with ``to_str()``.
        A transformers slow (pure Python) tokenizer has no ``tokenizer.json`` form and raises
        :class:`~apr_fast.TokenizerError`.
        """
        return cls.from_json(tokenizer_json(tokenizer))

    def __len__(self) -> int:
        """Number of id slots (one more than the largest id)."""
        return len(self._native)

    def __contains__(self, id: object) -> bool:
        """Whether ``id`` is a token id of this vocabulary."""
        return isinstance(id, int) and self._native.contains(id)

    def __repr__(self) -> str:
        return f"Vocabulary({len(self)} ids, {self.decoder_kind})"

    @property
    def decoder_kind(self) -> str:
        """``"byte-level"``, ``"metaspace"``, ``"sentencepiece"`` or ``"sentencepiece (byte fallback)"``."""
        return self._native.decoder_kind

    @property
    def nbytes(self) -> int:
        """Memory held by the native tables, in bytes."""
        return self._native.nbytes

    def token_id(self, token: str) -> int | None:
        """The id of a token string (``"</think>"``, ``"Ġthe"``), or ``None``; as ``token_to_id``."""
        if not isinstance(token, str):
            raise TypeError(f"token must be str, got {type(token).__name__}")
        return self._native.token_id(token)

    def is_special(self, id: int) -> bool:
        """Whether ``skip_special_tokens=True`` drops ``id``."""
        if not isinstance(id, int):
            raise TypeError(f"id must be int, got {type(id).__name__}")
        return self._native.is_special(id)

    def decode(self, ids: TokenIds, *, skip_special_tokens: bool = False) -> str:
        """The text of ``ids``, equal to ``tokenizers.Tokenizer.decode(ids, skip_special_tokens)``.

        Raises :class:`ValueError` for an id outside the vocabulary (``tokenizers`` would silently
        drop it).
        """
        return self._native.decode(_native_ids(ids, "ids"), bool(skip_special_tokens))

    def decode_with_offsets(self, ids: TokenIds, *, skip_special_tokens: bool = False) -> tuple[str, list[int]]:
        """The text of ``ids`` and, for each id, the character offset where that token ends.

        ``len(ends) == len(ids)``; ends never decrease; the last equals ``len(text)``.
        """
        return self._native.decode_with_offsets(_native_ids(ids, "ids"), bool(skip_special_tokens))

    def decode_batch(
        self,
        batch: Sequence[TokenIds],
        *,
        skip_special_tokens: bool = False,
        threads: int | None = None,
    ) -> list[DecodedIds]:
        """Decodes many id sequences in parallel (``threads``: default ``APR_FAST_NUM_THREADS``,
        else all CPUs). A sequence that cannot be decoded gets an ``error``; the others are
        unaffected.
        """
        if not isinstance(batch, (list, tuple)):
            raise TypeError(f"batch must be a list of id sequences, got {type(batch).__name__}")
        native = _native_id_list(batch, "batch")
        return [
            DecodedIds(text, ends, error)
            for text, ends, error in self._native.decode_batch(native, bool(skip_special_tokens), threads)
        ]


_GZIP_MAGIC = b"\x1f\x8b"


def read_tokenizer_json(path: str | os.PathLike[str]) -> str:
    """The text of a ``tokenizer.json`` file, gzip-compressed or not (told by its first bytes).

    Raises :class:`OSError` if it cannot be read and :class:`~apr_fast.TokenizerError` if it is
    not UTF-8 text or not valid gzip."""
    with open(path, "rb") as f:
        raw = f.read()
    try:
        if raw.startswith(_GZIP_MAGIC):
            raw = gzip.decompress(raw)
        return raw.decode("utf-8")
    except (OSError, EOFError, UnicodeDecodeError) as e:
        raise TokenizerError(f"{os.fspath(path)!r} is not a tokenizer.json (UTF-8 text, or gzip of it): {e}") from None


def tokenizer_json(tokenizer: object) -> str:
    """The ``tokenizer.json`` text of a ``tokenizers.Tokenizer`` or a transformers *fast*
    tokenizer, in its current state (``to_str()``). A transformers slow (pure Python) tokenizer
    has none and raises :class:`~apr_fast.TokenizerError`; any other object, :class:`TypeError`."""
    backend = getattr(tokenizer, "backend_tokenizer", None)  # transformers fast tokenizers
    if backend is not None:
        return str(backend.to_str())
    if _package_of(tokenizer) == "tokenizers" and hasattr(tokenizer, "to_str"):
        return str(tokenizer.to_str())
    if hasattr(tokenizer, "convert_ids_to_tokens"):  # a transformers tokenizer without a backend
        raise TokenizerError(
            f"{type(tokenizer).__name__} is a slow (Python) tokenizer with no tokenizer.json; load "
            "the fast one (AutoTokenizer.from_pretrained(name, use_fast=True)) or use "
            "Vocabulary.from_file on the model's tokenizer.json"
        )
    raise TypeError(
        "tokenizer must be a tokenizers.Tokenizer or a transformers fast tokenizer, "
        f"got {type(tokenizer).__name__}"
    )


def load_hf_tokenizer(name: str | os.PathLike[str]) -> Any:
    """A Hugging Face ``tokenizers.Tokenizer`` from a ``tokenizer.json`` (gzip-compressed too),
    a model directory holding one, or a hub name. Raises :class:`~apr_fast.TokenizerError`
    naming what was tried."""
    try:
        import tokenizers
    except ImportError:
        raise TokenizerError("loading a tokenizer needs the `tokenizers` package (pip install tokenizers)") from None
    path = Path(name).expanduser()
    if path.is_dir() and (path / "tokenizer.json").is_file():
        path = path / "tokenizer.json"
    if path.is_file():
        try:
            return tokenizers.Tokenizer.from_str(read_tokenizer_json(path))
        except TokenizerError:
            raise
        except Exception as e:  # tokenizers raises a bare Exception on malformed JSON
            raise TokenizerError(f"{os.fspath(path)!r} is not a tokenizer.json tokenizers can load: {e}") from None
    try:
        return tokenizers.Tokenizer.from_pretrained(os.fspath(name))
    except Exception as e:
        raise TokenizerError(f"tokenizer {os.fspath(name)!r}: not a tokenizer.json, a model directory holding one, "
                             f"or a reachable hub name ({e})") from None


def token_index_at(token_ends: Sequence[int], char_offset: int) -> int:
    """Index of the token holding the character at ``char_offset``, given the ``token_ends`` of
    :meth:`Vocabulary.decode_with_offsets`. Raises :class:`ValueError` if the offset is outside
    the text.
    """
    if not token_ends or not 0 <= char_offset < token_ends[-1]:
        raise ValueError(f"char_offset {char_offset} is outside the decoded text")
    return bisect.bisect_right(token_ends, char_offset)


def token_ends_from_offsets(offsets: Sequence[tuple[int, int]]) -> list[int]:
    """Where each token ends, from the ``(start, end)`` character spans a HF tokenizer reports
    (``Encoding.offsets``, ``offset_mapping``), in the form :func:`token_index_at` reads.

    A byte-level token may hold only the first bytes of a character (``²``, an emoji, or a space
    plus the start of ``🇫``) and still report the whole character's span; the character belongs
    to the token holding its last byte, so such a token ends where the character starts (where
    the next, non-empty span starts inside its own). Ends never decrease (special tokens may
    report ``(0, 0)``). The same rule gives the same ends as
    :meth:`Vocabulary.decode_with_offsets` on the token ids.
    """
    if isinstance(offsets, (str, bytes)) or not isinstance(offsets, Sequence):
        raise TypeError(f"offsets must be a list of (start, end) pairs, got {type(offsets).__name__}")
    return _token_ends_from_offsets(offsets if isinstance(offsets, list) else list(offsets))
