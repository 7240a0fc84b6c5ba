"""Results pickle: they cross process boundaries (multiprocessing pools, Ray tasks and actors).

Every value object a public function returns is rebuilt equal from its pickle, on real traces
and on drawn text; the rebuilding functions reject fields that could not have come from a
pickle of theirs with a ValueError.
"""
from __future__ import annotations

import copy
import json
import pickle
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import apr_fast
from apr_fast import _core

SAMPLES = Path(__file__).resolve().parents[1] / "examples" / "data" / "sample_traces.jsonl"

_PIECES = st.sampled_from([
    "So the answer is 5. ", "Wait, let me check. ", "$\\frac{1}{2}$", "\\boxed{3}", "x = 4. ",
    "所以答案是 7。", "Therefore $x^2$ ", "\n\n", "</think>", "Hmm", "é", "(2, 3)", "twelve. ",
])
_TEXTS = st.lists(_PIECES, max_size=12).map("".join)


def _views(text: str) -> list[object]:
    """Every kind of value object the text gives."""
    views: list[object] = []
    views += apr_fast.extract_candidates(text)
    final = apr_fast.extract_final(text)
    views += [final] if final is not None else []
    views += apr_fast.split_sentences(text)
    views += apr_fast.math_regions(text)
    for cues in apr_fast.find_cues(text):
        views += [cues, *cues.conclusion, *cues.verification]
    return views


def _round_trips(view: object) -> None:
    again = pickle.loads(pickle.dumps(view))
    assert type(again) is type(view)
    assert again == view and hash(again) == hash(view) and repr(again) == repr(view)
    assert copy.deepcopy(view) == view


def _segmentations_equal(a: apr_fast.Segmentation, b: apr_fast.Segmentation) -> bool:
    fields = ("text", "starts", "ends", "content_ends", "byte_starts", "byte_ends", "byte_content_ends",
              "conclusion", "verification")
    return all(getattr(a, f) == getattr(b, f) for f in fields) and a.sentences() == b.sentences() and a.cues() == b.cues()


@settings(max_examples=200)
@given(_TEXTS)
def test_every_view_of_a_text_round_trips(text: str) -> None:
    for view in _views(text):
        _round_trips(view)
    options = apr_fast.SplitOptions(max_inline_bytes=8)
    seg = apr_fast.segment(text, options=options)
    assert _segmentations_equal(pickle.loads(pickle.dumps(seg)), seg)


@pytest.mark.skipif(not SAMPLES.exists(), reason="bundled sample traces missing")
def test_results_of_the_sample_traces_round_trip() -> None:
    rows = [json.loads(line) for line in SAMPLES.read_text().splitlines() if line.strip()]
    responses = [r["completion"] for r in rows]
    gts = [r["ground_truth"] for r in rows]
    outcomes = apr_fast.is_correct_batch(responses, gts, cas=False)
    assert any(o.final_answer is not None for o in outcomes)
    assert pickle.loads(pickle.dumps(outcomes)) == outcomes
    for response in responses[:5]:
        for view in _views(response):
            _round_trips(view)
    segs = apr_fast.segment_batch(responses[:5])
    for seg, again in zip(segs, pickle.loads(pickle.dumps(segs))):
        assert _segmentations_equal(seg, again)


def test_one_pickle_holds_one_copy_of_a_text_with_many_sentences() -> None:
    text = "One sentence here. " * 500
    sentences = apr_fast.split_sentences(text)
    assert len(pickle.dumps(sentences)) < 2 * len(pickle.dumps(text)) + 60 * len(sentences)


@pytest.mark.parametrize(
    "call",
    [
        lambda: _core._final_answer("3", 0, 1, 0, 1, "no_such_rule", False),
        lambda: _core._candidate("3", 0, 1, 0, 1, "no_such_kind"),
        lambda: _core._sentence(0, 0, 1, 1, 0, 99, 1, "abc"),
        lambda: _core._sentence(0, 0, 1, 1, 0, 2, 1, "é"),  # inside a character
        lambda: _core._math_region(0, 1, 0, 1, "no_such_kind", "abc"),
        lambda: _core._cue_hit("so", "no_such_kind", 0, 0, 2, 0, 2, "so"),
    ],
)
def test_rebuilding_rejects_fields_no_pickle_holds(call) -> None:
    with pytest.raises(ValueError):
        call()
