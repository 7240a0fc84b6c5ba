"""Ground-truth answers as they arrive from datasets: str, float or a list of alternatives.

AIME and MATH give a LaTeX string, AMC a float (``142.0``), Minerva a list of accepted
alternatives (``['6630.65\\n', '6630\\n']``), OlympiadBench a one-element list whose string may
hold ``$...$`` and several answers (``'$69$,$84$'``); parquet list columns come back as numpy
arrays. :func:`ground_truth_alternatives` turns all of these into a list of clean answer
strings, any one of which counts as correct.
"""
from __future__ import annotations

import math
import numbers
import re
from typing import Any, Union

__all__ = ["GroundTruth", "ground_truth_alternatives"]

#: What a ground truth may be: one answer, a number, or several accepted alternatives.
GroundTruth = Union[str, float, int, "list[str | float | int]", "tuple[str | float | int, ...]"]

# An unescaped "$" (math delimiter in a gold string); "\$" is a currency sign and stays.
_MATH_DOLLAR = re.compile(r"(?<!\\)\$")


def _one(value: Any, where: str) -> str:
    if isinstance(value, bool):
        raise TypeError(f"{where} must be str, int or float, got bool")
    if isinstance(value, str):
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


def ground_truth_alternatives(ground_truth: Any) -> list[str]:
    """The accepted answers of a ground truth, cleaned, in order, without duplicates.

    >>> ground_truth_alternatives(142.0)
    ['142']
    >>> ground_truth_alternatives(['6630.65\\n', '6630\\n'])
    ['6630.65', '6630']
    >>> ground_truth_alternatives('$69$,$84$')
    ['69,84']

    Raises ``TypeError`` for other types and ``ValueError`` for NaN or infinity. An empty
    string or list gives ``[]`` (no answer can match it).
    """
    if hasattr(ground_truth, "tolist") and not isinstance(ground_truth, (str, bytes)):
        ground_truth = ground_truth.tolist()  # numpy arrays and scalars from parquet
    if isinstance(ground_truth, (list, tuple)):
        items = [_one(v, f"ground_truth[{i}]") for i, v in enumerate(ground_truth)]
    else:
        items = [_one(ground_truth, "ground_truth")]
    return list(dict.fromkeys(s for s in items if s))
