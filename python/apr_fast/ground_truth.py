"""Ground-truth answers as they arrive from datasets: str, float or a list of alternatives.

AIME and MATH give a LaTeX string, AMC a float (``142.0``), Minerva a list of accepted
alternatives (``['6630.65\\n', '6630\\n']``), OlympiadBench a one-element list whose string may
hold ``$...$`` and several answers (``'$69$,$84$'``); parquet list columns come back as numpy
arrays. :func:`ground_truth_alternatives` turns all of these into a list of clean answer
strings, any one of which counts as correct.
"""
from __future__ import annotations

import ast
import functools
import math
import numbers
import re
from dataclasses import dataclass
from typing import Any, Optional, Sequence, Union

from apr_fast import _core
from apr_fast.equivalence import equivalent_batch

__all__ = ["GoldSupport", "GroundTruth", "alternatives_of_batch", "gold_support", "ground_truth_alternatives"]

#: What a ground truth may be: one answer, a number, or several accepted alternatives.
GroundTruth = Union[str, float, int, "list[str | float | int]", "tuple[str | float | int, ...]"]

# Functions and constants in the engine's sympy form that make a value a closed form.
_CLOSED_FORM = re.compile(r"\b(sqrt|root|exp|log|sin|cos|tan|cot|sec|csc|asin|acos|atan|factorial|binomial|pi|E|I)\b")
# A gold string that marks its answer inside a worked solution (MATH's `solution` with a box,
# GSM8K's `#### 72`, "The answer is 5") is read for that answer, as a response is.
_SOLUTION_MARK = re.compile(r"\\(?:boxed|fbox)|####|answer", re.IGNORECASE)
# An unescaped "$" (math delimiter in a gold string); "\$" is a currency sign and stays.
_MATH_DOLLAR = re.compile(r"(?<!\\)\$")


def _one(value: Any, where: str) -> str:
    if isinstance(value, bool):
        raise TypeError(f"{where} must be str, int or float, got bool")
    if isinstance(value, str):
        if _SOLUTION_MARK.search(value):
            stated = _core.extract_final(value)
            if stated is not None:
                value = stated.text
        return _MATH_DOLLAR.sub("", value).strip()
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        x = float(value)
        if not math.isfinite(x):
            raise ValueError(f"{where} is not a finite number: {x!r}")
        # 142.0 -> "142"; other floats keep their shortest round-trip form (0.25, 1e-07).
        return str(int(x)) if x.is_integer() and abs(x) < 2**63 else repr(x)
    raise TypeError(f"{where} must be str, int or float, got {type(value).__name__}")


def _listed_strings(text: str) -> list[str] | None:
    """The items of a Python list literal of strings (``"['9.6\\n', '9.60']"``: some datasets
    store Minerva/OlympiadBench alternatives as ``str(list)``), else None. A list of numbers
    such as ``[1, 2]`` is an interval, not alternatives, and stays a string."""
    t = text.strip()
    if not (t.startswith("[") and t.endswith("]") and ("'" in t or '"' in t)):
        return None
    try:
        value = ast.literal_eval(t)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return value
    return None


def ground_truth_alternatives(ground_truth: Any, problem: Optional[str] = None) -> list[str]:
    """The accepted answers of a ground truth, cleaned, in order, without duplicates.

    >>> ground_truth_alternatives(142.0)
    ['142']
    >>> ground_truth_alternatives(['6630.65\\n', '6630\\n'])
    ['6630.65', '6630']
    >>> ground_truth_alternatives('$69$,$84$')
    ['69,84']
    >>> ground_truth_alternatives("['6630.65\\\\n', '6630']")
    ['6630.65', '6630']
    >>> ground_truth_alternatives('[1, 2]')
    ['[1, 2]']

    A gold that is a worked solution gives the answer it marks (a box, GSM8K's ``####``, "the
    answer is"), as a response would:

    >>> ground_truth_alternatives('Natalia sold 48/2 = 24 clips in May. 48+24 = 72.\\n#### 72')
    ['72']
    >>> ground_truth_alternatives('so the answer is $\\\\boxed{\\\\frac{1}{2}}$.')
    ['\\\\frac{1}{2}']

    With ``problem``, alternatives that the problem statement itself shows in a ``\\boxed{}``
    are dropped (unless that would drop all): Minerva's multi-part problems quote the previous
    subproblem's boxed solution, and some of its answer lists carry that earlier answer too.

    >>> ground_truth_alternatives(['1/(4p^2)', '-1/2'], problem='Solution: $\\\\boxed{-1/2}$. Subproblem 1: ...')
    ['1/(4p^2)']

    Raises ``TypeError`` for other types and ``ValueError`` for NaN or infinity. An empty
    string or list gives ``[]`` (no answer can match it).
    """
    if isinstance(ground_truth, str):
        alternatives = list(_alternatives_of_str(str(ground_truth)))
    else:
        if hasattr(ground_truth, "tolist") and not isinstance(ground_truth, bytes):
            ground_truth = ground_truth.tolist()  # numpy arrays and scalars from parquet
        if isinstance(ground_truth, str):
            alternatives = list(_alternatives_of_str(ground_truth))
        else:
            alternatives = _alternatives_of_items(ground_truth)
    if problem is None or len(alternatives) < 2:
        return alternatives
    if not isinstance(problem, str):
        raise TypeError(f"problem must be str or None, got {type(problem).__name__}")
    return list(_not_boxed_in(tuple(alternatives), problem))


def alternatives_of_batch(
    ground_truths: Sequence[Any], problems: Optional[Sequence[Optional[str]]] = None
) -> tuple[list[list[str]], dict[int, Exception]]:
    """:func:`ground_truth_alternatives` of every item of a batch, with ``problems[i]`` when
    given. An item that cannot be read (None, a bool, NaN, another type) does not stop the rest:
    its alternatives are ``[]`` and the second result maps its index to the error."""
    rows, errors = _alternatives_rows(ground_truths, problems)
    return [list(row) for row in rows], errors


def _alternatives_rows(
    ground_truths: Sequence[Any], problems: Optional[Sequence[Optional[str]]] = None
) -> tuple[list[Sequence[str]], dict[int, Exception]]:
    """:func:`alternatives_of_batch` for the batch scorers, which only read the rows: a row
    may be the cache's own tuple (shared by the rows of one ground truth), not a new list."""
    errors: dict[int, Exception] = {}
    if problems is None and set(map(type, ground_truths)) <= {str}:
        # The common batch, str ground truths and no problems: one cached lookup per item, with
        # none of the per-item call, checks and error handling below (a batch loop of those
        # took about a thirteenth of an outcome batch's instructions, and a new list per row
        # another twentieth with the collector's passes over them).
        try:
            return list(map(_alternatives_of_str, ground_truths)), errors
        except (TypeError, ValueError):
            pass  # an unreadable item (a lone surrogate in a worked solution): named below
    rows: list[Sequence[str]] = []
    for i, g in enumerate(ground_truths):
        try:
            rows.append(ground_truth_alternatives(g, problems[i] if problems else None))
        except (TypeError, ValueError) as e:
            rows.append([])
            errors[i] = e
    return rows, errors


@functools.lru_cache(maxsize=1 << 12)
def _not_boxed_in(alternatives: tuple[str, ...], problem: str) -> tuple[str, ...]:
    """The alternatives not equal (natively) to a box of ``problem``; all of them when none
    would be left."""
    boxes = dict.fromkeys(_core.boxed_contents(problem))
    if not boxes:
        return alternatives
    equal = iter(j.is_equal for j in equivalent_batch([(a, b) for a in alternatives for b in boxes], cas=False, threads=1))
    shown = [any([next(equal) for _ in boxes]) for _ in alternatives]
    kept = tuple(a for a, s in zip(alternatives, shown) if not s)
    return kept or alternatives


# A training step scores every prompt's ground truth once per rollout (8 or 16 times).
@functools.lru_cache(maxsize=1 << 16)
def _alternatives_of_str(text: str) -> tuple[str, ...]:
    listed = _listed_strings(text)
    return tuple(_alternatives_of_items(listed if listed is not None else text))


def _alternatives_of_items(ground_truth: Any) -> list[str]:
    if isinstance(ground_truth, (list, tuple)):
        items = [_one(v, f"ground_truth[{i}]") for i, v in enumerate(ground_truth)]
    else:
        items = [_one(ground_truth, "ground_truth")]
    return list(dict.fromkeys(s for s in items if s))


@dataclass(frozen=True)
class GoldSupport:
    """Whether the rule-based engine can handle a gold answer, and what kind it is."""

    supported: bool
    reason: str


def gold_support(ground_truth: Any) -> GoldSupport:
    """The paper's training-data filter: keep problems whose gold answer the rule-based method
    can handle (40k DeepScaleR problems -> 33,113 in the paper).

    Supported: a gold the native engine reads as mathematics — a number (``exact number``), a
    closed form or expression (``expression``), or a tuple, interval, set or matrix
    (``structure``). Not supported: text answers, multiple-choice letters without a value, and
    notation the engine does not read (integrals, prose): the anchor search could not find
    them in a trace, so their rewards would carry no anchor signal.
    """
    try:
        alternatives = ground_truth_alternatives(ground_truth)
    except (TypeError, ValueError) as e:
        return GoldSupport(False, f"unreadable ground truth ({e})")
    if not alternatives:
        return GoldSupport(False, "empty ground truth")
    form = _core.answer_to_sympy(alternatives[0])
    if form is None:
        return GoldSupport(False, "text or unparsed answer")
    if form.startswith(("Tuple_", "Set_", "List_", "Matrix_", "Union_", "Interval_")):
        return GoldSupport(True, "structure")
    if "S_(" in form:
        return GoldSupport(True, "expression")
    if _CLOSED_FORM.search(form):
        return GoldSupport(True, "closed form")
    return GoldSupport(True, "exact number")
