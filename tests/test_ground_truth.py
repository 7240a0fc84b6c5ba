"""Ground truths arrive as str, float or lists (real benchmark shapes)."""
import json
import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from apr_fast.ground_truth import alternatives_of_batch, ground_truth_alternatives

BENCHMARKS = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "benchmarks"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("204", ["204"]),
        ("025", ["025"]),
        (142.0, ["142"]),
        (0.25, ["0.25"]),
        (7, ["7"]),
        (["6630.65\n", "6630\n"], ["6630.65", "6630"]),
        (["7.5 \\times 10^7", "7.5 \\times 10^7\n"], ["7.5 \\times 10^7"]),
        (["$\\frac{1}{2 n+2}$"], ["\\frac{1}{2 n+2}"]),
        (["$69$,$84$"], ["69,84"]),
        ("\\$18.90", ["\\$18.90"]),
        ("['9.6\\n']", ["9.6"]),
        ("['7.5 \\\\times 10^7', '7.5e7']", ["7.5 \\times 10^7", "7.5e7"]),
        ("[1, 2]", ["[1, 2]"]),
        ("['a', 3]", ["['a', 3]"]),
        ("", []),
        ([], []),
        # Worked solutions given as the ground truth: the answer they mark.
        ("Natalia sold 48/2 = 24 clips in May.\n48+24 = 72 clips.\n#### 72", ["72"]),
        ("The total is $2+3$, so the answer is $\\boxed{5}$.", ["5"]),
        (["answer is 10000", "\\boxed{10^4}"], ["10000", "10^4"]),
        ("\\text{answer}", ["\\text{answer}"]),
    ],
)
def test_real_shapes(raw, expected) -> None:
    assert ground_truth_alternatives(raw) == expected


def test_numpy_arrays_from_parquet() -> None:
    np = pytest.importorskip("numpy")
    assert ground_truth_alternatives(np.array(["1", "2"], dtype=object)) == ["1", "2"]
    assert ground_truth_alternatives(np.float64(81.0)) == ["81"]


@pytest.mark.parametrize("bad", [None, True, {"a": 1}, b"12", [1, None]])
def test_wrong_types_raise_type_error(bad) -> None:
    with pytest.raises(TypeError):
        ground_truth_alternatives(bad)


@pytest.mark.parametrize("bad", [math.nan, math.inf, [1.0, -math.inf]])
def test_non_finite_numbers_raise_value_error(bad) -> None:
    with pytest.raises(ValueError):
        ground_truth_alternatives(bad)


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_floats_round_trip(x: float) -> None:
    (s,) = ground_truth_alternatives(x)
    assert float(s) == x


_GROUND_TRUTH_TEXTS = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["['9.6\\n', '9.60']", "#### 72", "so the answer is \\boxed{5}", "$\\frac{1}{2}$", "[1, 2]"]),
    st.lists(st.sampled_from(["1", "x", "\\boxed{2}", "'", "\ud800", "\\boxed{\ud800}", " "]), max_size=4).map("".join),
)


@given(st.lists(_GROUND_TRUTH_TEXTS, max_size=8), st.booleans())
def test_a_batch_reads_each_ground_truth_as_one_call_would(items, with_bad_item) -> None:
    """A batch of str ground truths (the fast path) and one with an item of another type (the
    per-item path) give every item what ground_truth_alternatives gives it, or its error."""
    batch = items + [None] if with_bad_item else items
    alternatives, errors = alternatives_of_batch(batch)
    assert len(alternatives) == len(batch)
    for i, g in enumerate(batch):
        try:
            expected = ground_truth_alternatives(g)
        except (TypeError, ValueError) as e:
            assert alternatives[i] == [] and type(errors[i]) is type(e) and str(errors[i]) == str(e)
        else:
            assert alternatives[i] == expected and i not in errors
            assert type(alternatives[i]) is list


@pytest.mark.skipif(not BENCHMARKS.exists(), reason="../shared/data is not present")
def test_every_benchmark_gold_has_an_answer() -> None:
    for name in ["aime.json", "amc.json", "math.json", "minerva.json", "olympiad_bench.json"]:
        for row in json.loads((BENCHMARKS / name).read_text()):
            alternatives = ground_truth_alternatives(row["answer"])
            assert alternatives, (name, row["answer"])
            assert all(a == a.strip() and "\n" not in a for a in alternatives)


def test_problem_drops_alternatives_the_problem_shows_boxed() -> None:
    # Minerva's multi-part problems quote the previous subproblem's boxed solution, and some of
    # its answer lists carry that earlier answer as an "alternative".
    problem = ("Subproblem 0: Find a solution. Solution: $\\boxed{\\frac{\\cos (2 t)}{15}}$.\n"
               "Subproblem 1: What is the general solution?")
    gold = ["\\frac{\\cos (2 t)}{15}\n", "\\frac{\\cos (2 t)}{15}+C_{1} e^{t}+C_{2} e^{-t}\n"]
    assert ground_truth_alternatives(gold) == [g.strip() for g in gold]
    assert ground_truth_alternatives(gold, problem) == [gold[1].strip()]
    # Never all of them, and a single answer is kept as it is.
    assert ground_truth_alternatives(gold[:1], problem) == [gold[0].strip()]
    assert ground_truth_alternatives(["1", "\\frac{\\cos(2t)}{15}"], problem="$\\boxed{1}$ $\\fbox{\\frac{\\cos(2t)}{15}}$") \
        == ["1", "\\frac{\\cos(2t)}{15}"]
    # Unclosed boxes and odd text are harmless.
    assert ground_truth_alternatives(["1", "2"], problem="\\boxed{1") == ["1", "2"]
    with pytest.raises(TypeError):
        ground_truth_alternatives(["1", "2"], problem=3)  # type: ignore[arg-type]


@pytest.mark.skipif(not (BENCHMARKS / "minerva.json").exists(), reason="shared benchmarks absent")
def test_minerva_answer_lists_lose_only_answers_boxed_in_their_problem() -> None:
    from apr_fast import equivalent
    from apr_fast._core import boxed_contents

    rows = json.loads((BENCHMARKS / "minerva.json").read_text())
    changed = []
    for row in rows:
        everything = ground_truth_alternatives(row["answer"])
        kept = ground_truth_alternatives(row["answer"], row["problem"])
        assert kept and set(kept) <= set(everything)
        for dropped in set(everything) - set(kept):
            assert any(equivalent(dropped, box, cas=False).is_equal for box in boxed_contents(row["problem"]))
        if kept != everything:
            changed.append(kept)
    # The one item whose list mixes the earlier subproblem's answer with its own (the other
    # lists that repeat an earlier box hold nothing else, and are kept whole).
    assert changed == [["\\frac{\\cos (2 t)}{15}+C_{1} e^{t}+C_{2} e^{-t}+C_{3} \\cos (t)+C_{4} \\sin (t)"]]
