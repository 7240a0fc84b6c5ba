"""Native engine vs the pure-Python reference (apr_fast._reference.segmentation).

Both must give identical math regions, sentence spans and cue hits on every real trace and on
generated text. The generated alphabet is restricted to characters whose Unicode properties
(White_Space, Alphabetic, numeric) are the same in the Unicode tables of Rust's standard library
and of the ``regex`` module: the two ship different Unicode versions, and a character assigned
in the newer one is a word character for one engine and not for the other.
"""
from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
import regex
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import apr_fast
from apr_fast._reference import segmentation as reference

TRACES = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "traces" / "traces.jsonl.gz"


def native_view(text: str, matcher: apr_fast.CueMatcher, options: apr_fast.SplitOptions) -> list:
    return [
        (
            (sc.sentence.start, sc.sentence.end, sc.sentence.content_end),
            sorted((h.start, h.end, h.kind, h.cue_index) for h in sc.conclusion + sc.verification),
        )
        for sc in matcher.find(text, options=options)
    ]


def reference_view(text: str, matcher: reference.CueMatcher, options: reference.Options) -> list:
    return [(tuple(s), [tuple(h) for h in hits]) for s, hits in reference.find_cues(text, matcher, options)]


def assert_same(
    text: str,
    native: apr_fast.CueMatcher | None = None,
    ref: reference.CueMatcher | None = None,
    bounds: tuple[int, int, int] | None = None,
) -> None:
    native = native or apr_fast.CueMatcher()
    ref = ref or reference.CueMatcher()
    n_opts = apr_fast.SplitOptions(*bounds) if bounds else apr_fast.SplitOptions()
    r_opts = reference.Options(*bounds) if bounds else reference.Options()
    assert [(r.start, r.end, r.kind) for r in apr_fast.math_regions(text, options=n_opts)] == [
        tuple(r) for r in reference.math_regions(text, r_opts)
    ], text
    assert native_view(text, native, n_opts) == reference_view(text, ref, r_opts), text


@pytest.mark.skipif(not TRACES.exists(), reason="shared trace data not available")
@pytest.mark.parametrize("field", ["thinking", "after_think"])
def test_real_traces(field: str) -> None:
    with gzip.open(TRACES, "rt", encoding="utf-8") as f:
        texts = [row[field] for row in map(json.loads, f) if row[field]]
    assert len(texts) > 100
    native = apr_fast.CueMatcher()
    ref = reference.CueMatcher()
    natives = native.find_batch(texts)
    mismatches = []
    for text, got in zip(texts, natives):
        got_view = [
            (
                (sc.sentence.start, sc.sentence.end, sc.sentence.content_end),
                sorted((h.start, h.end, h.kind, h.cue_index) for h in sc.conclusion + sc.verification),
            )
            for sc in got
        ]
        if got_view != reference_view(text, ref, reference.Options()):
            mismatches.append(text[:80])
    assert mismatches == []


# Characters with stable Unicode properties, chosen to hit every class the rules look at:
# ASCII, Latin-1 and CJK letters, numerics that are not ASCII digits (², ٣, Ⅻ), marks, typographic
# quotes, CJK sentence marks and their neighbours in the same blocks, every kind of whitespace (and U+001C..U+001F, which Python's isspace() accepts but
# White_Space does not), NUL and an astral-plane symbol.
STABLE = list(
    "abcxyzABCXYZ0123456789_ .,;:!?()[]{}\"'*#>+-/\\$\n\r\t"
    "é ßЖ中日²٣Ⅻ\u0301’”“\u00a0\u2028\u2029\u3000\u2009\u0085\x0b\x0c\x1c\x1f\x00😀"
    "。！？」』）、，；"
)
TOKENS = [
    "$", "$$", "\\(", "\\)", "\\[", "\\]", "\\begin{align}", "\\end{align}", "\\begin{cases*}",
    "\\end{cases*}", "\\boxed{", "\\fbox{", "\\{", "\\}", "\\\\", "...", "?!", ".)", ".**", "e.g.",
    "i.e.", "etc.", "Etc.", "No.", "no. 5", "vs.", "Dr.", "1.", "12.", "1234.", "a.", "iv.",
    "Step 2.", "case 3.", "# ", "- ", "> ", "3.14", " The", " so", "also", " Wait,", " let’s",
    " Let's", " we", " get", "double-check", " it is", "it's", " I get", " is that right",
    "seems", " checking", "\n\n", "\n \n", "所以", "验证", "中中中", "日本",
    "<|end|>", "<|start|>", "<|", "|>", "<",
]
stable_text = st.lists(st.one_of(st.sampled_from(TOKENS), st.sampled_from(STABLE)), max_size=60).map("".join)


@pytest.mark.parametrize("text", [
    "So it is 42.<|end|><|start|>assistant<|channel|>commentary<|message|>print(42)<|call|>",
    "So it is 42?!<|end|>x", "So it is 42<|end|> ok.", "a.<b. c", "See e.g.<|end|>x", "etc.<|end|> No.<|x",
])
def test_special_tokens_after_terminators(text: str) -> None:
    """gpt-oss's ``<|end|>`` right after a sentence's period ends the sentence on both sides."""
    assert_same(text)


@given(stable_text)
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_generated_text(text: str) -> None:
    assert_same(text)


@given(stable_text, st.integers(0, 30), st.integers(0, 60), st.integers(0, 30))
# A `$$` that starts on the bound's last byte is `$$`, not an inline closer (found by this test).
@example("$\\($$", 4, 0, 0)
@example("$ab$$", 4, 0, 0)
@settings(max_examples=300, deadline=None)
def test_generated_text_with_tight_bounds(text: str, inline: int, display: int, boxed: int) -> None:
    assert_same(text, bounds=(inline, display, boxed))


cue_words = st.one_of(
    st.lists(
        st.text(alphabet=st.sampled_from(list("abcé’'-_(). 2中")), min_size=1, max_size=5), min_size=1, max_size=3
    ).map(" ".join),
    # Cues in a script without spaces: substring matches, no word boundaries.
    st.text(alphabet=st.sampled_from(list("中日所以验证")), min_size=1, max_size=3),
)
WORD = regex.compile(r"[\p{Alphabetic}\p{N}_]")


@given(
    stable_text,
    st.lists(cue_words, max_size=4, unique_by=reference.normalize_cue),
    st.lists(cue_words, max_size=3, unique_by=reference.normalize_cue),
    st.booleans(),
)
@settings(max_examples=300, deadline=None)
def test_generated_cue_lists(text: str, conclusion: list[str], verification: list[str], inflections: bool) -> None:
    # A cue needs a letter or digit (both engines reject one without).
    conclusion = [c for c in conclusion if WORD.search(c)]
    verification = [c for c in verification if WORD.search(c)]
    native = apr_fast.CueMatcher(conclusion, verification, inflections)
    ref = reference.CueMatcher(conclusion, verification, inflections)
    assert list(native.conclusion) == ref.conclusion and list(native.verification) == ref.verification
    for sample in (text, " ".join(conclusion + verification) + " " + text):
        assert_same(sample, native, ref)
