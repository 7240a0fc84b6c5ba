"""apr_fast.tokens against the ``tokenizers`` library on the policy's real tokenizer
(DeepSeek-R1-Distill-Qwen, byte-level BPE) and on every real trace in ../shared/data.

Skipped when ../shared/data is absent (a user's clone)."""
from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import Encoding, Tokenizer

from apr_fast import Vocabulary, token_ends_from_offsets, token_index_at
from tricky_texts import TRICKY_TEXTS

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
DEEPSEEK = DATA / "tokenizer" / "deepseek-r1-distill-qwen.tokenizer.json"
QWEN25 = DATA / "tokenizer" / "qwen2.5.tokenizer.json"
TRACES = DATA / "traces" / "traces.jsonl.gz"

pytestmark = pytest.mark.skipif(
    not (DEEPSEEK.exists() and QWEN25.exists() and TRACES.exists()), reason="../shared/data is absent"
)

THINK, THINK_END, EOS, BOS = 151648, 151649, 151643, 151646



@pytest.fixture(scope="module")
def hf() -> Tokenizer:
    return Tokenizer.from_file(str(DEEPSEEK))


@pytest.fixture(scope="module")
def vocab() -> Vocabulary:
    return Vocabulary.from_file(DEEPSEEK)


@pytest.fixture(scope="module")
def traces() -> list[dict[str, Any]]:
    with gzip.open(TRACES, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


@pytest.fixture(scope="module")
def encodings(hf: Tokenizer, traces: list[dict[str, Any]]) -> list[Encoding]:
    """Every completion encoded without BOS (as the traces' token counts were)."""
    return hf.encode_batch([t["completion"] for t in traces], add_special_tokens=False)


def expected_ends(encoding: Encoding) -> list[int]:
    """Our rule, stated on tokenizers' encoding offsets: a token ends where its last character
    ends, except that when the next token starts inside that character (a character split across
    tokens), the character is not yet complete and the token ends where the character starts."""
    offsets = encoding.offsets
    return [min(end, offsets[i + 1][0]) if i + 1 < len(offsets) else end for i, (_, end) in enumerate(offsets)]


def test_real_tokenizer_basics(hf: Tokenizer, vocab: Vocabulary) -> None:
    assert len(vocab) == hf.get_vocab_size() == 151665
    assert vocab.decoder_kind == "byte-level"
    assert vocab.token_id("</think>") == THINK_END and vocab.token_id("<think>") == THINK
    assert vocab.is_special(EOS) and vocab.is_special(BOS)
    assert not vocab.is_special(THINK_END)  # so skip_special_tokens=True keeps </think>
    mismatched = [t for t, i in hf.get_vocab(with_added_tokens=True).items() if vocab.token_id(t) != i]
    assert mismatched == []
    # Compact: one flat table, a few MB.
    assert vocab.nbytes < 8_000_000


def test_decode_matches_tokenizers_on_every_trace(
    hf: Tokenizer, vocab: Vocabulary, encodings: list[Encoding], traces: list[dict[str, Any]]
) -> None:
    # hf.encode(completion).ids: the post-processor puts BOS first.
    assert hf.encode(traces[0]["completion"]).ids == [BOS, *encodings[0].ids]
    batch = [[BOS, *e.ids] for e in encodings]
    for skip in (False, True):
        ours = vocab.decode_batch(batch, skip_special_tokens=skip)
        theirs = hf.decode_batch(batch, skip_special_tokens=skip)
        mismatches = [i for i, (a, b) in enumerate(zip(ours, theirs)) if a.error or a.text != b]
        assert mismatches == [], f"skip={skip}: {len(mismatches)} of {len(batch)} traces differ"


def test_token_counts_match_the_traces(encodings: list[Encoding], traces: list[dict[str, Any]]) -> None:
    counted = [(len(e.ids), t["completion_tokens"]) for e, t in zip(encodings, traces) if t["completion_tokens"] is not None]
    agree = sum(a == b for a, b in counted)
    assert len(counted) > 2000
    assert agree == len(counted), f"token counts agree on {agree} of {len(counted)} traces"


def test_offsets_match_tokenizers_on_every_trace(
    vocab: Vocabulary, encodings: list[Encoding], traces: list[dict[str, Any]]
) -> None:
    decoded = vocab.decode_batch([e.ids for e in encodings])
    compared = 0
    for trace, encoding, d in zip(traces, encodings, decoded):
        # Encoding offsets refer to the input; compare where decoding gives the input back
        # (the NFC normalizer could change it).
        if d.text != trace["completion"]:
            continue
        compared += 1
        assert d.token_ends == expected_ends(encoding), trace["index"]
        # The text path (HF offsets) gives the same token ends as the token-id path.
        assert token_ends_from_offsets(encoding.offsets) == d.token_ends, trace["index"]
        # The use case: a character position in the text maps to the token that produced it.
        at = d.text.find("</think>")
        if at >= 0:
            assert encoding.ids[token_index_at(d.token_ends, at)] == THINK_END
    assert compared >= 0.99 * len(traces), f"only {compared} of {len(traces)} traces round-trip"


@pytest.mark.parametrize("text", TRICKY_TEXTS)
def test_text_path_token_ends_equal_the_id_path(hf: Tokenizer, vocab: Vocabulary, text: str) -> None:
    encoding = hf.encode(text, add_special_tokens=False)
    decoded, ends = vocab.decode_with_offsets(encoding.ids)
    if decoded == text:  # NFC may change the text (`e` + combining accent), and then its offsets
        assert token_ends_from_offsets(encoding.offsets) == ends


@pytest.mark.parametrize("text", TRICKY_TEXTS)
@pytest.mark.parametrize("skip", [False, True])
def test_tricky_texts(hf: Tokenizer, vocab: Vocabulary, text: str, skip: bool) -> None:
    encoding = hf.encode(text, add_special_tokens=False)
    decoded, ends = vocab.decode_with_offsets(encoding.ids, skip_special_tokens=skip)
    assert decoded == hf.decode(encoding.ids, skip_special_tokens=skip)
    if not skip and decoded == text:
        assert ends == expected_ends(encoding)
    assert_prefix_property(hf, encoding.ids, skip, decoded, ends)


def assert_prefix_property(hf: Tokenizer, ids: list[int], skip: bool, text: str, ends: list[int]) -> None:
    """tokenizers' decode of the first k ids is our text up to token k-1's end, then at most
    what an incomplete character leaves behind -- never the next real character."""
    for k in range(1, len(ids) + 1):
        prefix = hf.decode(ids[:k], skip_special_tokens=skip)
        assert prefix.startswith(text[: ends[k - 1]])
        if ends[k - 1] < len(text) and "\ufffd" not in text:
            assert not prefix.startswith(text[: ends[k - 1] + 1])


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=60))
def test_random_unicode_round_trips(hf: Tokenizer, vocab: Vocabulary, text: str) -> None:
    encoding = hf.encode(text, add_special_tokens=False)
    decoded, ends = vocab.decode_with_offsets(encoding.ids)
    assert decoded == hf.decode(encoding.ids, skip_special_tokens=False)
    if decoded == text:
        assert ends == expected_ends(encoding)
    assert_prefix_property(hf, encoding.ids, False, decoded, ends)


@settings(max_examples=300, deadline=None)
@given(
    ids=st.lists(
        st.one_of(
            st.integers(0, 255),  # single-byte pieces: split characters and invalid UTF-8
            st.integers(0, 151664),
            st.sampled_from([THINK, THINK_END, EOS, BOS]),
        ),
        max_size=30,
    ),
    skip=st.booleans(),
)
def test_random_ids_decode_like_tokenizers(hf: Tokenizer, vocab: Vocabulary, ids: list[int], skip: bool) -> None:
    decoded, ends = vocab.decode_with_offsets(ids, skip_special_tokens=skip)
    assert decoded == hf.decode(ids, skip_special_tokens=skip)
    assert_prefix_property(hf, ids, skip, decoded, ends)


def test_qwen25_tokenizer_on_a_sample(traces: list[dict[str, Any]]) -> None:
    hf = Tokenizer.from_file(str(QWEN25))
    vocab = Vocabulary.from_file(QWEN25)
    assert vocab.is_special(hf.token_to_id("<|im_end|>"))
    sample = [t["completion"] for t in traces[::15]]
    batch = [e.ids for e in hf.encode_batch(sample)]
    for skip in (False, True):
        assert [d.text for d in vocab.decode_batch(batch, skip_special_tokens=skip)] == hf.decode_batch(
            batch, skip_special_tokens=skip
        )
