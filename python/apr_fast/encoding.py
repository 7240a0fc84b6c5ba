"""Text -> token ids natively, for the policy's byte-level BPE ``tokenizer.json``.

The text path of the reward (``APRScorer(tokenizer=...).score_batch``, ``apr_fast.score``,
verl's ``compute_score`` with a tokenizer, ``apr-fast score --tokenizer``) counts lengths in the
policy's tokens by encoding each response. Through Hugging Face ``tokenizers`` that costs about
1.4 µs per token, ~5 ms for an average reasoning trace: most of the reward's time.
:class:`TextEncoder` gives the same ids natively, with the same token boundaries.

It reproduces ``tokenizers``' ``encode(text, add_special_tokens=False)`` for the tokenizers of
Qwen2 / Qwen2.5 / QwQ, DeepSeek-R1-Distill-Qwen, Llama 3 and DeepSeek-V3 / R1 / V4 (and models
sharing their tokenizer, as DeepSeek-R1-0528-Qwen3-8B does): byte-level BPE behind one ``Split``
pre-tokenizer with their regex, DeepSeek-V3's three ``Split`` s in a row, or ``ByteLevel`` with
GPT-2's regex; an NFC normalizer or none, added
tokens cut out first, a post-processor that does not trim offsets. Any other
``tokenizer.json`` raises :class:`~apr_fast.TokenizerError` saying what is not reproduced (the
scorer then keeps encoding with ``tokenizers``). Under NFC, a text that is not already in NFC is
normalized first by ``tokenizers``, which moves offsets; :meth:`TextEncoder.accepts` tells such
texts apart, and the scorer sends them (rare: decoded model output is NFC) to ``tokenizers``.

Example::

    encoder = TextEncoder.from_hf(tokenizer)          # or from_file("tokenizer.json")
    ids = encoder.encode("So the answer is 42.")
    ids, ends = encoder.encode_with_offsets(text)    # ends: character offset of each token's end
"""
from __future__ import annotations

import logging
import os
import unicodedata
from typing import Any, Optional, Sequence

from apr_fast._core import NativeEncoder
from apr_fast.errors import TokenizerError
from apr_fast.tokens import read_tokenizer_json, tokenizer_json

__all__ = ["TextEncoder"]

logger = logging.getLogger(__name__)


class TextEncoder:
    """A native encoder for one byte-level BPE ``tokenizer.json``: immutable, thread-safe, and
    every method releases the interpreter. Build it once per process."""

    __slots__ = ("_native", "_json")

    def __init__(self, native: NativeEncoder, json: Optional[str] = None) -> None:
        """Wraps a loaded native encoder; use the ``from_*`` constructors instead."""
        if not isinstance(native, NativeEncoder):
            raise TypeError(f"native must be NativeEncoder, got {type(native).__name__}")
        self._native = native
        self._json = json

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        """Pickles as the ``tokenizer.json`` text; the tables are rebuilt on load."""
        if self._json is None:
            raise TypeError("this TextEncoder was built without its tokenizer.json text and cannot be pickled")
        return (TextEncoder.from_json, (self._json,))

    @classmethod
    def from_json(cls, json: str) -> TextEncoder:
        """Loads the text of a ``tokenizer.json``. Raises :class:`~apr_fast.TokenizerError`
        for a file this encoder does not reproduce exactly."""
        return cls(NativeEncoder.from_json(json), json)

    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> TextEncoder:
        """Loads a ``tokenizer.json`` file (gzip-compressed too)."""
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"path must be str or os.PathLike, got {type(path).__name__}")
        return cls.from_json(read_tokenizer_json(path))

    @classmethod
    def from_hf(cls, tokenizer: object) -> TextEncoder:
        """The encoder of a ``tokenizers.Tokenizer`` or a transformers *fast* tokenizer, in its
        current state (added tokens included). Raises :class:`~apr_fast.TokenizerError` when the
        tokenizer is not one this encoder reproduces, or is set to encode special tokens as
        plain text."""
        return cls._from_json_for(tokenizer_json(tokenizer), tokenizer)

    @classmethod
    def _from_json_for(cls, json: str, tokenizer: object) -> TextEncoder:
        """:meth:`from_hf` with the tokenizer's ``tokenizer.json`` text already at hand."""
        backend = getattr(tokenizer, "backend_tokenizer", tokenizer)
        if getattr(backend, "encode_special_tokens", False) or getattr(tokenizer, "split_special_tokens", False):
            raise TokenizerError("the tokenizer is set to encode special tokens as text (encode_special_tokens / "
                                 "split_special_tokens), which the native encoder does not reproduce")
        return cls.from_json(json)

    @property
    def needs_nfc(self) -> bool:
        """Whether the tokenizer normalizes text to NFC (then see :meth:`accepts`)."""
        return self._native.needs_nfc

    def accepts(self, text: str) -> bool:
        """Whether :meth:`encode_with_offsets` gives ``tokenizers``' tokens and offsets for
        ``text``: always, unless the tokenizer normalizes to NFC and ``text`` is not in NFC."""
        return not self._native.needs_nfc or text.isascii() or unicodedata.is_normalized("NFC", text)

    def encode(self, text: str) -> list[int]:
        """The token ids of ``text``, as ``tokenizer.encode(text, add_special_tokens=False).ids``."""
        if not isinstance(text, str):
            raise TypeError(f"text must be str, got {type(text).__name__}")
        if not self.accepts(text):
            text = unicodedata.normalize("NFC", text)
        return self._native.encode(text)[0]

    def encode_with_offsets(self, text: str) -> tuple[list[int], list[int]]:
        """The token ids of ``text`` and the character offset where each token ends in it (a
        character split across byte-level tokens belongs to the one holding its last byte, as
        :func:`apr_fast.token_ends_from_offsets` reads ``tokenizers``' offsets). Raises
        :class:`ValueError` for a text :meth:`accepts` refuses (normalize it to NFC first)."""
        if not isinstance(text, str):
            raise TypeError(f"text must be str, got {type(text).__name__}")
        self._check_accepted(text, "text")
        return self._native.encode(text)

    def encode_batch(
        self, texts: Sequence[str], *, threads: Optional[int] = None
    ) -> list[tuple[list[int], list[int]]]:
        """:meth:`encode_with_offsets` for many texts, in one native call on ``threads`` workers."""
        if isinstance(texts, str) or not isinstance(texts, (list, tuple)):
            raise TypeError(f"texts must be a list of str, got {type(texts).__name__}")
        for i, t in enumerate(texts):
            if isinstance(t, str):
                self._check_accepted(t, f"texts[{i}]")
        return self._native.encode_batch(list(texts), threads)

    def _check_accepted(self, text: str, what: str) -> None:
        if not self.accepts(text):
            raise ValueError(f"{what} is not in Unicode NFC, which this tokenizer normalizes to (moving offsets): "
                             "pass unicodedata.normalize('NFC', text), or encode it with tokenizers")

    def __repr__(self) -> str:
        return f"TextEncoder(byte-level BPE, {'NFC' if self.needs_nfc else 'no normalizer'})"


def native_encoder_for(tokenizer: object, json: Optional[str] = None) -> Optional[TextEncoder]:
    """The native encoder for ``tokenizer``, or ``None`` (logged at INFO, with the reason)
    when it must keep encoding with ``tokenizers``."""
    try:
        return TextEncoder._from_json_for(tokenizer_json(tokenizer) if json is None else json, tokenizer)
    except TokenizerError as e:
        logger.info("text is encoded with %s, not natively: %s", type(tokenizer).__name__, e)
        return None
