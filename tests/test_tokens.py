"""apr_fast.tokens against the ``tokenizers`` library on SentencePiece-style tokenizers built in
process (no downloaded files): decode parity, offsets, the Python surface and its validation.

The two tokenizers are trained here on a fixed corpus (deterministic): a Llama-style BPE with
byte fallback and a T5-style Unigram with a Metaspace decoder."""
from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import AddedToken, Encoding, Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers

from apr_fast import DecodedIds, TokenizerError, Vocabulary, token_ends_from_offsets, token_index_at

CORPUS = [
    "Let me compute the sum of the first n squares: 1 + 4 + 9 + ... = n(n+1)(2n+1)/6.",
    "Therefore the answer is 42. Wait, let me double-check the arithmetic once more.",
    "So x^2 - 5x + 6 = 0 gives x = 2 or x = 3, and the product of the roots is 6.",
    "The area of a circle of radius r is pi r^2; with r = 3 it is 9 pi.",
    "Hmm, perhaps I should verify: 17 * 23 = 391, which is correct.",
    "因此答案是 5。我们再检查一下计算过程。",
    "First, note that the function is increasing on the interval [0, 1].",
] * 20

SPECIALS = ["<unk>", "<s>", "</s>"]


def _byte_tokens() -> list[str]:
    return [f"<0x{b:02X}>" for b in range(256)]


def llama_style() -> Tokenizer:
    """BPE with byte fallback laid out like Llama 2: ``<unk> <s> </s>``, then the 256
    ``<0xHH>`` byte tokens, then the learned pieces; Metaspace pre-tokenizer; the decoder chain
    ``Replace("▁", " ") / ByteFallback / Fuse / Strip(" ", 1, 0)``; plus ``<think>``/``</think>``
    as non-special added tokens."""
    trainer_tok = Tokenizer(models.BPE(unk_token="<unk>", byte_fallback=True, fuse_unk=True))
    trainer_tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="first")
    # A small alphabet, so that rare characters (CJK, emoji, accents) go through byte fallback.
    trainer = trainers.BpeTrainer(vocab_size=600, special_tokens=SPECIALS, limit_alphabet=60, show_progress=False)
    trainer_tok.train_from_iterator(CORPUS, trainer)
    learned = json.loads(trainer_tok.to_str())["model"]
    vocab: dict[str, int] = {}
    for piece in SPECIALS + _byte_tokens():
        vocab[piece] = len(vocab)
    for piece, _ in sorted(learned["vocab"].items(), key=lambda kv: kv[1]):
        vocab.setdefault(piece, len(vocab))
    merges = [tuple(m.split(" ")) if isinstance(m, str) else tuple(m) for m in learned["merges"]]
    tok = Tokenizer(models.BPE(vocab=vocab, merges=merges, unk_token="<unk>", byte_fallback=True, fuse_unk=True))
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="first")
    tok.decoder = decoders.Sequence(
        [decoders.Replace("▁", " "), decoders.ByteFallback(), decoders.Fuse(), decoders.Strip(" ", 1, 0)]
    )
    tok.add_special_tokens([AddedToken(t, special=True, normalized=False) for t in SPECIALS])
    tok.add_tokens([AddedToken(t, special=False, normalized=False) for t in ("<think>", "</think>")])
    return tok


def unigram_metaspace() -> Tokenizer:
    """A Unigram model with a Metaspace decoder (prepend scheme ``always``), as T5-style
    conversions have; no byte fallback, so unknown characters become ``<unk>``."""
    tok = Tokenizer(models.Unigram())
    tok.normalizer = normalizers.NFKC()
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always")
    tok.decoder = decoders.Metaspace(replacement="▁", prepend_scheme="always")
    trainer = trainers.UnigramTrainer(vocab_size=300, special_tokens=SPECIALS, unk_token="<unk>", show_progress=False)
    tok.train_from_iterator(CORPUS, trainer)
    return tok


LLAMA = llama_style()
UNIGRAM = unigram_metaspace()
VOCABS = {"llama": (LLAMA, Vocabulary.from_hf(LLAMA)), "unigram": (UNIGRAM, Vocabulary.from_hf(UNIGRAM))}

# Text that exercises byte fallback (characters outside the learned alphabet), leading and
# repeated spaces (Metaspace, Strip), added tokens and newlines.
SAMPLES = [
    "",
    " ",
    "  two leading spaces",
    "x² + π = 😀🦀",
    "因此答案是 5。",
    "<think>\nLet me check.</think>  The answer is 42.\n",
    "tab\tand\r\nCRLF",
    "e\u0301 vs é",
    *CORPUS[:7],
]


def expected_ends(encoding: Encoding) -> list[int]:
    """The last-byte rule stated on tokenizers' encoding offsets: a token ends where its last
    character ends, unless the next token starts inside that character (a character split
    across tokens), which then is not complete yet: the token ends where the character starts."""
    offsets = encoding.offsets
    return [min(end, offsets[i + 1][0]) if i + 1 < len(offsets) else end for i, (_, end) in enumerate(offsets)]


def assert_offsets(tok: Tokenizer, vocab: Vocabulary, ids: list[int], skip: bool, text: str, ends: list[int]) -> None:
    """Offsets are well formed; without byte-fallback tokens each token's end is exactly where
    tokenizers' decode of the ids so far stops. (With them it is not: ByteFallback decodes a
    run of byte tokens all or nothing, so cutting a run mid-character turns the whole run into
    U+FFFD, even characters already complete.)"""
    assert len(ends) == len(ids)
    assert all(a <= b for a, b in zip([0, *ends], ends))
    assert not ends or ends[-1] == len(text)
    if any(vocab.token_id(f"<0x{b:02X}>") in ids for b in range(256)):
        return
    for k in range(1, len(ids) + 1):
        assert tok.decode(ids[:k], skip_special_tokens=skip) == text[: ends[k - 1]], k


@pytest.mark.parametrize("name", sorted(VOCABS))
@pytest.mark.parametrize("text", SAMPLES)
@pytest.mark.parametrize("skip", [False, True])
def test_sentencepiece_parity_on_samples(name: str, text: str, skip: bool) -> None:
    tok, vocab = VOCABS[name]
    encoding = tok.encode(text)
    decoded, ends = vocab.decode_with_offsets(encoding.ids, skip_special_tokens=skip)
    assert decoded == tok.decode(encoding.ids, skip_special_tokens=skip)
    assert vocab.decode(encoding.ids, skip_special_tokens=skip) == decoded
    if decoded == text:
        assert ends == expected_ends(encoding)
    assert_offsets(tok, vocab, encoding.ids, skip, decoded, ends)


def test_samples_round_trip_through_byte_fallback() -> None:
    """The offsets comparison above runs on samples that decode back to their input."""
    tok, vocab = VOCABS["llama"]
    round_trips = [t for t in SAMPLES if vocab.decode(tok.encode(t).ids) == t]
    assert {"x² + π = 😀🦀", "因此答案是 5。", "<think>\nLet me check.</think>  The answer is 42.\n"} <= set(round_trips)


@pytest.mark.parametrize("name", sorted(VOCABS))
@settings(max_examples=150, deadline=None)
@given(text=st.text(max_size=40), skip=st.booleans())
def test_sentencepiece_parity_on_random_text(name: str, text: str, skip: bool) -> None:
    tok, vocab = VOCABS[name]
    encoding = tok.encode(text)
    decoded, ends = vocab.decode_with_offsets(encoding.ids, skip_special_tokens=skip)
    assert decoded == tok.decode(encoding.ids, skip_special_tokens=skip)
    if decoded == text:
        assert ends == expected_ends(encoding)
    assert_offsets(tok, vocab, encoding.ids, skip, decoded, ends)


@pytest.mark.parametrize("name", sorted(VOCABS))
@settings(max_examples=300, deadline=None)
@given(data=st.data(), skip=st.booleans())
def test_sentencepiece_parity_on_random_ids(name: str, data: Any, skip: bool) -> None:
    """Arbitrary id sequences, byte-fallback tokens over-represented: invalid UTF-8 runs,
    special tokens inside byte runs, markers in the first token."""
    tok, vocab = VOCABS[name]
    n = tok.get_vocab_size()
    id_ = st.one_of(st.integers(0, min(n, 259) - 1), st.integers(0, n - 1))
    ids = data.draw(st.lists(id_, max_size=24))
    decoded, ends = vocab.decode_with_offsets(ids, skip_special_tokens=skip)
    assert decoded == tok.decode(ids, skip_special_tokens=skip)
    assert_offsets(tok, vocab, ids, skip, decoded, ends)


def test_byte_fallback_offsets_follow_the_last_byte() -> None:
    vocab = VOCABS["llama"][1]
    ids = [vocab.token_id(t) for t in ("▁x", "<0xC2>", "<0xB2>", "<0xE6>", "<0x97>", "<0xA5>")]
    assert None not in ids
    text, ends = vocab.decode_with_offsets(ids)
    assert text == "x²日"
    assert ends == [1, 1, 2, 2, 2, 3]
    assert [token_index_at(ends, c) for c in range(len(text))] == [0, 2, 5]


def test_token_lookup_and_special_flags() -> None:
    tok, vocab = VOCABS["llama"]
    assert len(vocab) == tok.get_vocab_size()
    assert vocab.decoder_kind == "sentencepiece (byte fallback)"
    assert VOCABS["unigram"][1].decoder_kind == "metaspace"
    for token in ("<s>", "</s>", "<think>", "</think>", "<0x0A>", "▁x"):
        assert vocab.token_id(token) == tok.token_to_id(token)
    assert vocab.token_id("definitely not a token") is None
    assert vocab.is_special(tok.token_to_id("</s>"))
    assert not vocab.is_special(tok.token_to_id("</think>"))
    assert not vocab.is_special(-1) and not vocab.is_special(10**12)
    assert 0 in vocab and len(vocab) not in vocab and -1 not in vocab and "x" not in vocab
    assert repr(vocab) == f"Vocabulary({len(vocab)} ids, sentencepiece (byte fallback))"
    assert 0 < vocab.nbytes < 1_000_000


# ---- ids: types, validation, errors -------------------------------------------------------

def test_numpy_ids_of_every_integer_dtype() -> None:
    tok, vocab = VOCABS["llama"]
    ids = tok.encode("Therefore the answer is 42. 😀").ids
    expected = vocab.decode_with_offsets(ids)
    for dtype in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64):
        if np.iinfo(dtype).max < max(ids):
            continue
        array = np.array(ids, dtype=dtype)
        assert vocab.decode_with_offsets(array) == expected, dtype
        assert vocab.decode_with_offsets(array.astype(dtype).byteswap().view(array.dtype.newbyteorder())) == expected
    strided = np.repeat(np.array(ids, dtype=np.int64), 2)[::2]
    assert vocab.decode_with_offsets(strided) == expected
    assert vocab.decode(tuple(ids)) == expected[0]
    assert vocab.decode([np.int64(i) for i in ids]) == expected[0]


class _Id(int):
    """An int subclass: not an exact int, so the native layer converts it the general way."""


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_sequences_of_any_int_kind_read_as_their_int64_array(data: Any) -> None:
    # Exact ints take the native fast path; bools, numpy ints, int subclasses and values out of
    # range send the whole sequence down the general path: the result must not depend on which.
    vocab = VOCABS["llama"][1]
    ids = data.draw(st.lists(st.integers(0, len(vocab) - 1), max_size=30))
    kinds = [int, np.int64, _Id, lambda i: bool(i) if i in (0, 1) else i]
    mixed = [data.draw(st.sampled_from(kinds))(i) for i in ids]
    expected = vocab.decode_with_offsets(np.array(ids, dtype=np.int64))
    assert vocab.decode_with_offsets(mixed) == expected
    assert vocab.decode_with_offsets(tuple(mixed)) == expected
    bad = data.draw(st.sampled_from([-1, 2**32, 2**63, -(2**63) - 1, 2**80]))
    at = data.draw(st.integers(0, len(mixed)))
    with pytest.raises(ValueError, match=rf"ids\[{at}\] = {bad} is not a token id"):
        vocab.decode(mixed[:at] + [bad] + mixed[at:])


def test_other_sequences_of_int_read_as_lists() -> None:
    # ``TokenIds`` is any Sequence[int]: array.array (vLLM's token-id type in some versions),
    # range and deque read as the list of their items; text and bytes are no ids.
    import array
    from collections import deque

    tok, vocab = VOCABS["llama"]
    ids = tok.encode("So the answer is 42, then 17.").ids
    expected = vocab.decode_with_offsets(ids)
    for typecode in "hHiIlLqQ":
        assert vocab.decode_with_offsets(array.array(typecode, ids)) == expected, typecode
    assert vocab.decode_with_offsets(deque(ids)) == expected
    assert vocab.decode(range(3, 9)) == vocab.decode(list(range(3, 9)))
    assert vocab.decode_batch([array.array("l", ids), deque(ids)]) == vocab.decode_batch([ids, ids])
    with pytest.raises(ValueError, match=r"ids\[1\] = -4 is not a token id"):
        vocab.decode(array.array("l", [3, -4]))
    with pytest.raises(TypeError, match=r"ids\[0\] must be int, got float"):
        vocab.decode(array.array("d", [3.0, 4.5]))
    for text in ("abc", b"\x01\x00", bytearray(b"\x01")):
        with pytest.raises(TypeError, match="ids must be a list of int"):
            vocab.decode(text)


def test_native_layer_reads_int64_arrays_in_place_and_checks_their_layout() -> None:
    tok, vocab = VOCABS["llama"]
    ids = tok.encode("So the answer is 42.").ids
    native = vocab._native
    assert native.decode(np.array(ids, dtype=np.int64), False) == vocab.decode(ids)
    for array, message in [
        (np.array(ids, dtype=np.int32), "native int64"),
        (np.array([ids, ids], dtype=np.int64), "1-D"),
        (np.repeat(np.array(ids, dtype=np.int64), 2)[::2], "C-contiguous"),
        (np.array(ids, dtype=np.int64).byteswap().view(np.dtype(np.int64).newbyteorder()), "native int64"),
        (np.array(ids, dtype=np.float64), "native int64"),
    ]:
        with pytest.raises(ValueError, match=message):
            native.decode(array, False)


class _InterfaceOnly:
    """An array-like that offers only ``__array_interface__`` (no ``__array_struct__``)."""

    def __init__(self, array: np.ndarray) -> None:
        self.array = array
        self.__array_interface__ = array.__array_interface__


def test_native_layer_reads_the_array_struct_and_the_array_interface_alike() -> None:
    tok, vocab = VOCABS["llama"]
    ids = tok.encode("So the answer is 42, then 17.").ids
    native = vocab._native
    array = np.array(ids, dtype=np.int64)
    assert hasattr(array, "__array_struct__")
    assert native.decode(_InterfaceOnly(array), False) == native.decode(array, False) == vocab.decode(ids)
    # A column of a 2-D array: C-contiguous by its size-1 dimension, and read in place.
    column = np.array(ids, dtype=np.int64).reshape(-1, 1)[:, 0]
    assert native.decode(column, False) == vocab.decode(ids)
    for bad in (np.array(ids, dtype=np.int32), np.repeat(array, 2)[::2]):
        with pytest.raises(ValueError) as by_struct:
            native.decode(bad, False)
        with pytest.raises(ValueError) as by_interface:
            native.decode(_InterfaceOnly(bad), False)
        assert str(by_struct.value) == str(by_interface.value)
    assert native.decode(np.array([], dtype=np.int64), False) == ""


def test_torch_ids() -> None:
    torch = pytest.importorskip("torch")
    tok, vocab = VOCABS["llama"]
    ids = tok.encode("So x = 2 or x = 3. 因此").ids
    expected = vocab.decode_with_offsets(ids)
    for dtype in (torch.int32, torch.int64, torch.int16):
        assert vocab.decode_with_offsets(torch.tensor(ids, dtype=dtype)) == expected
    padded = torch.tensor([ids + [0, 0]], dtype=torch.long)
    assert vocab.decode_with_offsets(padded[0, : len(ids)]) == expected
    with pytest.raises(TypeError, match="integer dtype"):
        vocab.decode(torch.tensor([1.0, 2.0]))
    with pytest.raises(TypeError, match="integer dtype"):
        vocab.decode(torch.tensor([True]))
    with pytest.raises(ValueError, match="1-D"):
        vocab.decode(padded)
    with pytest.raises(ValueError, match="not a token id"):
        vocab.decode(torch.tensor([-1]))


@pytest.mark.parametrize(
    ("ids", "error", "match"),
    [
        ("abc", TypeError, "ids must be a list of int"),
        (b"\x01\x00", TypeError, "ids must be a list of int"),
        ([1, "2"], TypeError, r"ids\[1\] must be int"),
        ([1, 2.0], TypeError, r"ids\[1\] must be int"),
        ([1, None], TypeError, r"ids\[1\] must be int"),
        ([0, -1], ValueError, r"ids\[1\] = -1 is not a token id"),
        ([2**32], ValueError, r"ids\[0\] = 4294967296 is not a token id"),
        ([2**70], ValueError, r"ids\[0\] = 1180591620717411303424 is not a token id"),
        ([0, 10**6], ValueError, r"ids\[1\] = 1000000 is not a token of this vocabulary"),
        (np.array([1.5]), TypeError, "integer dtype"),
        (np.array([True]), TypeError, "integer dtype"),
        (np.array([[1, 2]]), ValueError, "1-D"),
        (np.array([3, -4]), ValueError, r"ids\[1\] = -4"),
        (np.array([2**64 - 1], dtype=np.uint64), ValueError, "not a token id"),
    ],
)
def test_invalid_ids_raise_clear_errors(ids: Any, error: type[Exception], match: str) -> None:
    vocab = VOCABS["llama"][1]
    with pytest.raises(error, match=match):
        vocab.decode_with_offsets(ids)
    with pytest.raises(error, match=match):
        vocab.decode(ids)


def test_empty_ids() -> None:
    vocab = VOCABS["llama"][1]
    assert vocab.decode_with_offsets([]) == ("", [])
    assert vocab.decode(np.array([], dtype=np.int64)) == ""


# ---- batches and threads ------------------------------------------------------------------

def test_batch_equals_single_for_every_thread_count() -> None:
    tok, vocab = VOCABS["llama"]
    batch: list[Any] = [tok.encode(t).ids for t in SAMPLES]
    batch[3] = np.array(batch[3], dtype=np.int32)
    expected = [vocab.decode_with_offsets(ids, skip_special_tokens=True) for ids in batch]
    for threads in (None, 1, 2, 3, 8):
        out = vocab.decode_batch(batch, skip_special_tokens=True, threads=threads)
        assert [(d.text, d.token_ends) for d in out] == expected, threads
        assert all(isinstance(d, DecodedIds) and d.error is None for d in out)
    assert vocab.decode_batch([]) == []


def test_batch_reports_bad_items_without_failing_the_rest() -> None:
    vocab = VOCABS["llama"][1]
    out = vocab.decode_batch([[5, 6], [5, 10**6], [-3], np.array([7])], threads=2)
    assert out[0].error is None and out[0].text == vocab.decode([5, 6])
    assert out[1] == DecodedIds("", [], f"batch[1][1] = 1000000 is not a token of this vocabulary ({len(vocab)} ids)")
    assert out[2].error is not None and "batch[2][0] = -3 is not a token id" in out[2].error
    assert out[3].error is None
    with pytest.raises(TypeError, match=r"batch\[1\]"):
        vocab.decode_batch([[1], "x"])
    with pytest.raises(TypeError, match="batch must be a list"):
        vocab.decode_batch(np.array([[1, 2]]))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="threads must be >= 1"):
        vocab.decode_batch([[1]], threads=0)


def test_one_vocabulary_serves_many_threads() -> None:
    tok, vocab = VOCABS["llama"]
    batch = [tok.encode(t * 5).ids for t in CORPUS[:7]] * 20
    expected = [vocab.decode_with_offsets(ids) for ids in batch]
    with ThreadPoolExecutor(max_workers=4) as pool:
        assert list(pool.map(vocab.decode_with_offsets, batch)) == expected


# ---- loading ------------------------------------------------------------------------------

def test_loading_from_json_file_and_hf_objects_agree(tmp_path: Any) -> None:
    tok, vocab = VOCABS["llama"]
    path = tmp_path / "tokenizer.json"
    path.write_text(tok.to_str(), encoding="utf-8")
    ids = tok.encode(SAMPLES[5]).ids
    expected = vocab.decode_with_offsets(ids)
    assert Vocabulary.from_file(path).decode_with_offsets(ids) == expected
    assert Vocabulary.from_file(str(path)).decode_with_offsets(ids) == expected
    assert Vocabulary.from_json(tok.to_str()).decode_with_offsets(ids) == expected

    class FastTokenizer:  # the part of a transformers PreTrainedTokenizerFast from_hf uses
        backend_tokenizer = tok

    assert Vocabulary.from_hf(FastTokenizer()).decode_with_offsets(ids) == expected


def test_loading_errors() -> None:
    class SlowTokenizer:  # a transformers tokenizer without a Rust backend
        def convert_ids_to_tokens(self, ids: list[int]) -> list[str]:
            return []

    with pytest.raises(TokenizerError, match="slow"):
        Vocabulary.from_hf(SlowTokenizer())
    with pytest.raises(TypeError, match="tokenizers.Tokenizer"):
        Vocabulary.from_hf("gpt2")
    with pytest.raises(FileNotFoundError):
        Vocabulary.from_file("/nonexistent/tokenizer.json")
    with pytest.raises(TypeError, match="path must be"):
        Vocabulary.from_file(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="json must be str"):
        Vocabulary.from_json(b"{}")  # type: ignore[arg-type]
    with pytest.raises(TokenizerError, match="not a usable tokenizer.json"):
        Vocabulary.from_json("{")
    wordpiece = json.loads(LLAMA.to_str())
    wordpiece["decoder"] = {"type": "WordPiece", "prefix": "##", "cleanup": True}
    with pytest.raises(TokenizerError, match="WordPiece decoder cannot be decoded exactly"):
        Vocabulary.from_json(json.dumps(wordpiece))
    moved = json.loads(LLAMA.to_str())
    moved["added_tokens"][-1]["id"] += 5
    with pytest.raises(TokenizerError, match="listed with id"):
        Vocabulary.from_json(json.dumps(moved))


def test_token_index_at() -> None:
    assert token_index_at([0, 2, 2, 5], 0) == 1
    assert token_index_at([0, 2, 2, 5], 1) == 1
    assert token_index_at([0, 2, 2, 5], 2) == 3
    assert token_index_at([0, 2, 2, 5], 4) == 3
    for bad in (-1, 5):
        with pytest.raises(ValueError, match="outside"):
            token_index_at([0, 2, 2, 5], bad)
    with pytest.raises(ValueError):
        token_index_at([], 0)


def _reference_token_ends(spans: list[tuple[int, int]]) -> list[int]:
    """The rule in plain Python: where the next token's span is not empty and starts inside
    this one, this token holds only the first bytes of that character; ends never step back."""
    ends: list[int] = []
    for i, (start, end) in enumerate(spans):
        own = end
        if i + 1 < len(spans):
            next_start, next_end = spans[i + 1]
            if next_end > next_start and next_start >= start:
                own = min(end, next_start)
        ends.append(max(own, ends[-1] if ends else 0))
    return ends


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 40), st.integers(0, 40)), max_size=30))
def test_token_ends_from_offsets_matches_the_rule(spans: list[tuple[int, int]]) -> None:
    ends = token_ends_from_offsets(spans)
    assert ends == _reference_token_ends(spans)
    assert ends == sorted(ends) and len(ends) == len(spans)
    assert token_ends_from_offsets([list(s) for s in spans]) == ends


def test_token_ends_from_offsets_rejects_what_is_not_pairs() -> None:
    with pytest.raises(TypeError, match="pairs"):
        token_ends_from_offsets([(0, 1, 2)])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="pairs"):
        token_ends_from_offsets("0,1")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="pairs"):
        token_ends_from_offsets([(-1, 2)])


def test_vocabulary_and_scorer_pickle(tmp_path: Any) -> None:
    # Ray and process pools pickle what they ship to workers.
    import pickle

    import apr_fast

    tok, vocab = VOCABS["llama"]
    ids = tok.encode(SAMPLES[5]).ids
    for loaded in (vocab, Vocabulary.from_json(tok.to_str())):
        clone = pickle.loads(pickle.dumps(loaded))
        assert len(clone) == len(loaded) and clone.decode_with_offsets(ids) == loaded.decode_with_offsets(ids)
    scorer = apr_fast.APRScorer(apr_fast.RewardConfig(beta=1e-3, cas=False), vocabulary=vocab)
    copy = pickle.loads(pickle.dumps(scorer))
    assert copy.config == scorer.config
    assert copy.score_token_ids([ids], ["5"]) == scorer.score_token_ids([ids], ["5"])
    path = tmp_path / "tokenizer.json"
    path.write_bytes(b"\xff\xfe not utf-8")
    with pytest.raises(apr_fast.TokenizerError):
        Vocabulary.from_file(path)


BUNDLED_TOKENIZER = __import__("pathlib").Path(__file__).resolve().parents[1] / "examples" / "data" / (
    "deepseek-r1-distill-qwen.tokenizer.json.gz")


def test_tokenizer_files_load_compressed_or_not(tmp_path) -> None:
    from apr_fast.tokens import load_hf_tokenizer, read_tokenizer_json

    text = read_tokenizer_json(BUNDLED_TOKENIZER)
    plain = tmp_path / "model" / "tokenizer.json"
    plain.parent.mkdir()
    plain.write_text(text, encoding="utf-8")
    assert read_tokenizer_json(plain) == text
    ids = load_hf_tokenizer(str(BUNDLED_TOKENIZER)).encode("So x = 5.").ids
    for source in (plain, plain.parent):  # the file, and the model directory holding it
        assert load_hf_tokenizer(source).encode("So x = 5.").ids == ids
    decoded = Vocabulary.from_file(BUNDLED_TOKENIZER).decode(ids, skip_special_tokens=True)
    assert decoded == Vocabulary.from_file(plain).decode(ids, skip_special_tokens=True) == "So x = 5."


@pytest.mark.parametrize("content", [b"\x1f\x8b\x08\x00garbage", b"\xff\xfe not utf-8", b"{not json"])
def test_unreadable_tokenizer_files_are_a_tokenizer_error(tmp_path, content) -> None:
    from apr_fast.tokens import load_hf_tokenizer

    bad = tmp_path / "tokenizer.json"
    bad.write_bytes(content)
    with pytest.raises(TokenizerError):
        load_hf_tokenizer(bad)
    with pytest.raises(TokenizerError):
        Vocabulary.from_file(bad)
    with pytest.raises(TokenizerError, match="not a tokenizer.json, a model directory"):
        load_hf_tokenizer(tmp_path / "missing" / "tok")
