"""Every gold answer of the evaluation sets equals itself and its rewritings; no perturbed gold
is ever equal. Skips where ../shared/data is absent (a user's clone)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from apr_fast.equivalence import Verdict, equivalent_batch

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "benchmarks"
pytestmark = pytest.mark.skipif(not DATA.exists(), reason="../shared/data is absent")


def _bench():  # type: ignore[no-untyped-def]
    """The rewriting and perturbation rules live in the benchmark script; tests reuse them."""
    spec = importlib.util.spec_from_file_location("gold_answers", ROOT / "benches" / "gold_answers.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def bench():  # type: ignore[no-untyped-def]
    return _bench()


@pytest.fixture(scope="module")
def golds(bench) -> dict[str, list[str]]:  # type: ignore[no-untyped-def]
    loaded = bench.load_golds(DATA)
    assert set(loaded) == set(bench.BENCHMARKS)
    return loaded


# The one gold the parser does not read ("t(0,4]", a typo in OlympiadBench): it is still equal
# to itself by its canonical text, and its rewritings are honestly unknown.
UNREADABLE = {"$t(0,4]$"}


def test_every_gold_equals_itself_and_its_rewritings(bench, golds: dict[str, list[str]]) -> None:  # type: ignore[no-untyped-def]
    pairs = []
    for answers in golds.values():
        for g in answers:
            pairs.append((g, g))
            if g not in UNREADABLE:
                pairs.extend((g, text) for _, text in bench.rewritings(g))
    judged = equivalent_batch(pairs, cas=False)
    wrong = [(a, b, j) for (a, b), j in zip(pairs, judged) if j.verdict is not Verdict.EQUAL]
    assert not wrong, wrong[:10]
    assert len(pairs) > 10_000


def test_no_perturbed_gold_is_equal(bench, golds: dict[str, list[str]]) -> None:  # type: ignore[no-untyped-def]
    pairs = [(g, text) for answers in golds.values() for g in answers for _, text in bench.perturbations(g)]
    judged = equivalent_batch(pairs, cas=False)
    equal = [(a, b) for (a, b), j in zip(pairs, judged) if j.verdict is Verdict.EQUAL]
    assert not equal, equal[:10]
    not_equal = sum(j.verdict is Verdict.NOT_EQUAL for j in judged)
    assert not_equal > 0.95 * len(pairs)
