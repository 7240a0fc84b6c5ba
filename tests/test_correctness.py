"""is_correct: a response's final answer against the ground truth, with how it was decided."""
import gzip
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import apr_fast
from apr_fast import is_correct, is_correct_batch
from apr_fast.equivalence import equivalent_batch
from apr_fast.ground_truth import ground_truth_alternatives

TRACES = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "traces" / "traces.jsonl.gz"
needs_shared = pytest.mark.skipif(not TRACES.exists(), reason="../shared/data is not present")


def boxed(answer: str) -> str:
    return f"<think>Let me think. So it is {answer}.</think>\nThe answer is $\\boxed{{{answer}}}$."


@pytest.mark.parametrize(
    ("response", "ground_truth", "correct", "method"),
    [
        (boxed("\\dfrac{1}{2}"), "0.5", True, "native_exact"),
        (boxed("142"), 142.0, True, "native_exact"),
        (boxed("6630"), ["6630.65\n", "6630\n"], True, "native_exact"),
        (boxed("9.6"), "['9.6\\n']", True, "native_exact"),
        (boxed("2\\sqrt{2}"), "\\sqrt{8}", True, "native_numeric"),
        (boxed("\\text{Evelyn}"), "Evelyn", True, "native_text"),
        (boxed("7"), "8", False, "native_exact"),
        (boxed("4 4/9"), "\\frac{40}{9}", True, "native_exact"),
        (boxed("4 4/9"), "4", False, "native_exact"),
        ("Adding the parts, the answer is 4 4/9.", "4", False, "native_exact"),
        ("I could not finish", "3", False, "none"),
        (boxed("3"), "", False, "none"),
    ],
)
def test_verdict_and_method(response: str, ground_truth: object, correct: bool, method: str) -> None:
    result = is_correct(response, ground_truth, cas=False)
    assert result.correct is correct and bool(result) is correct
    assert result.method == method
    if correct:
        assert result.matched is not None and result.final_answer is not None


def test_matched_names_the_alternative_that_equals() -> None:
    result = is_correct(boxed("6630"), ["6630.65", "6630"], cas=False)
    assert result.matched == "6630"
    assert result.final_answer is not None and result.final_answer.rule == "boxed_after_think"


def test_undecided_is_reported_not_silently_unequal() -> None:
    # `X` and `x` may be two quantities: undecided, not "not equal".
    result = is_correct(boxed("X^2 + 1"), "x^2 + 1", cas=False)
    assert not result.correct
    assert not result.decided and result.method == "native_undecided"
    # An integration constant written `C` against `c` is one constant.
    assert is_correct(boxed("x^2 + C"), "x^2 + c", cas=False).correct


def test_cas_settles_what_the_native_engine_cannot() -> None:
    pytest.importorskip("sympy")
    result = is_correct(boxed("\\sin^2 x + \\cos^2 x"), "1", cas=True, cas_timeout=20.0)
    assert result.decided
    assert result.correct is (result.judgement is not None and result.judgement.is_equal)


def test_bad_arguments_raise_clear_errors() -> None:
    with pytest.raises(TypeError, match="response must be str"):
        is_correct(b"bytes", "1")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="responses must be a list"):
        is_correct_batch("one string", ["1"])
    with pytest.raises(ValueError, match="2 ground truths for 1 responses"):
        is_correct_batch(["x"], ["1", "2"])
    with pytest.raises(TypeError, match="ground_truth"):
        is_correct(boxed("1"), {"answer": 1})
    with pytest.raises(TypeError, match="ground_truths\\[1\\]: ground_truth must be str, int or float, got NoneType"):
        is_correct_batch([boxed("1"), boxed("2")], ["1", None])


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.one_of(st.integers(-50, 50).map(str), st.sampled_from(["\\frac{1}{2}", "0.5", "x+1", "(1,2)", "\\pi"])),
            st.one_of(st.integers(-50, 50).map(str), st.sampled_from(["1/2", "2", "1+x", "[1,2]", "3.14159"])),
        ),
        max_size=8,
    ),
    st.sampled_from([1, 2]),
)
def test_batch_equals_single_for_every_thread_count(pairs: list[tuple[str, str]], threads: int) -> None:
    responses = [boxed(a) for a, _ in pairs]
    gts = [g for _, g in pairs]
    batch = is_correct_batch(responses, gts, cas=False, threads=threads)
    singles = [is_correct(r, g, cas=False) for r, g in zip(responses, gts)]
    assert [(b.correct, b.method, b.matched) for b in batch] == [(s.correct, s.method, s.matched) for s in singles]


@needs_shared
def test_same_verdict_as_the_reward_on_every_real_trace() -> None:
    rows = [json.loads(line) for line in gzip.open(TRACES, "rt", encoding="utf-8")]
    responses = [r["completion"] for r in rows]
    gts = [r["ground_truth"] for r in rows]
    outcomes = is_correct_batch(responses, gts, cas=False)
    scores = apr_fast.APRScorer(apr_fast.RewardConfig(cas=False)).score_batch(responses, gts)
    assert [o.correct for o in outcomes] == [s.correct for s in scores]
    assert [o.final_answer.text if o.final_answer else None for o in outcomes] == [s.final_answer for s in scores]
    decided = [(o.method, s.correctness_method) for o, s in zip(outcomes, scores) if o.decided]
    assert all(a == b for a, b in decided)
    assert sum(o.correct for o in outcomes) > 1400


def test_an_echo_of_the_problem_is_not_correct_with_the_problem() -> None:
    problem = "Simplify $\\tan 100^\\circ + 4 \\sin 100^\\circ.$"
    echo = boxed("\\tan 100^\\circ + 4 \\sin 100^\\circ")
    assert is_correct(echo, "-\\sqrt{3}", cas=False).correct, "the value itself equals"
    result = is_correct(echo, "-\\sqrt{3}", problem=problem, cas=False)
    assert not result.correct and result.problem_echo and result.matched is None
    assert result.judgement is not None and result.judgement.is_equal
    assert is_correct(echo, "-\\sqrt{3}", problem=problem, cas=False, reject_problem_echo=False).correct
    assert is_correct(boxed("-\\sqrt{3}"), "-\\sqrt{3}", problem=problem, cas=False).correct


def test_a_strict_format_counts_only_an_answer_after_think() -> None:
    inside = "<think>So x = 5, and the answer is \\boxed{5}.</think>"
    after = "<think>So x = 5.</think> The answer is \\boxed{5}."
    assert is_correct(inside, "5", cas=False).correct, "by default the thinking's answer counts"
    strict = is_correct(inside, "5", cas=False, require_answer_after_think=True)
    assert (strict.correct, strict.final_answer, strict.method) == (False, None, "none")
    assert is_correct(after, "5", cas=False, require_answer_after_think=True).correct
    batch = is_correct_batch([inside, after, "So x = 5"], ["5"] * 3, cas=False, require_answer_after_think=True)
    assert [r.correct for r in batch] == [False, True, False]
    with pytest.raises(TypeError, match="require_answer_after_think"):
        is_correct(after, "5", require_answer_after_think=1)  # type: ignore[arg-type]
    # Another model's tags (Magistral): the closing one is what </think> means.
    tags = ("[THINK]", "[/THINK]")
    retagged = [r.replace("<think>", tags[0]).replace("</think>", tags[1]) for r in (inside, after, "So x = 5")]
    batch = is_correct_batch(retagged, ["5"] * 3, cas=False, require_answer_after_think=True, think_tags=tags)
    assert [r.correct for r in batch] == [False, True, False]
    assert is_correct(retagged[1], "5", cas=False, think_tags=tags).final_answer.in_thinking is False
    assert is_correct(retagged[1], "5", cas=False).final_answer.in_thinking is True
    with pytest.raises(apr_fast.ConfigError, match="closing think tag"):
        is_correct(after, "5", think_tags=("<t>", "}"))
    with pytest.raises(apr_fast.ConfigError, match="no think tags are named"):
        is_correct(after, "5", think_tags="</think>")
    with pytest.raises(TypeError, match="think_tags must be a preset name"):
        is_correct(after, "5", think_tags=("<think>",))
    assert is_correct(retagged[1], "5", cas=False, think_tags="magistral").correct


@needs_shared
def test_one_native_call_matches_extraction_then_equivalence_on_real_traces() -> None:
    rows = [json.loads(line) for line in gzip.open(TRACES, "rt", encoding="utf-8")]
    responses = [r["completion"] for r in rows]
    gts = [r["ground_truth"] for r in rows]
    outcomes = is_correct_batch(responses, gts, cas=False, threads=2)
    finals = apr_fast.extract_final_batch(responses)
    for outcome, final, gt in zip(outcomes, finals, gts):
        assert outcome.final_answer == final
        alternatives = ground_truth_alternatives(gt)
        judgements = equivalent_batch([(final.text, a) for a in alternatives], cas=False) if final else []
        expected = next((a for a, j in zip(alternatives, judgements) if j.is_equal), None)
        assert (outcome.correct, outcome.matched) == (expected is not None, expected)
        if expected is None and judgements:
            undecided = [j for j in judgements if not j.is_equal and j.verdict.value == "unknown"]
            assert outcome.judgement == (undecided[0] if undecided else judgements[0])


def test_batch_results_are_whole_dataclasses() -> None:
    """Batches build Correctness without its __init__: every field is there, and an instance
    built the ordinary way from the same fields is equal, hashes alike and prints alike."""
    import dataclasses

    responses = [boxed("1/2"), boxed("7"), "no answer", boxed("x")]
    outcomes = is_correct_batch(responses, ["0.5", "8", "3", "y"], cas=False)
    names = [f.name for f in dataclasses.fields(apr_fast.Correctness)]
    # Its fields are slots, which the native batch fills through their descriptors.
    assert apr_fast.Correctness.__slots__ == tuple(names)
    for outcome in outcomes:
        assert not hasattr(outcome, "__dict__") and all(hasattr(outcome, n) for n in names)
        rebuilt = apr_fast.Correctness(**{n: getattr(outcome, n) for n in names})
        assert rebuilt == outcome and hash(rebuilt) == hash(outcome) and repr(rebuilt) == repr(outcome)
        with pytest.raises(dataclasses.FrozenInstanceError):
            outcome.correct = not outcome.correct  # type: ignore[misc]
    assert [o.correct for o in outcomes] == [True, False, False, False]
