"""What the VeRL adapters read from a dataset row and write back, shared by all of them
(and importable without verl)."""
from __future__ import annotations

import json
import logging
from typing import Any, Callable, Optional, Sequence, TypeVar

from apr_fast.reward import RolloutScore

R = TypeVar("R")

__all__ = [
    "NO_SPLIT_MESSAGE", "PROBLEM_KEYS", "REWARD_EXTRA_KEYS", "TRAINING_SPLITS", "SplitMarks", "extra_info_of",
    "ground_truth_of", "is_training_row", "problem_of", "row_name_of", "scored_by_flag",
]

#: The keys of ``reward_extra_info``, the same for every sample (verl builds columns from the
#: first sample's keys). ``acc`` is what DAPO's group filter reads; ``pred`` is a string
#: (verl's maj@N reads it, its aux metrics skip strings).
REWARD_EXTRA_KEYS: tuple[str, ...] = (
    "score", "acc", "pred", "l_ast", "t_think", "rho", "anchor_found", "status", "overlong_reward",
)


def ground_truth_of(ground_truth: Any, extra_info: Any) -> Any:
    """The accepted answers of a row: ``train/prepare_data.py`` stores every alternative in
    ``extra_info.ground_truth_alternatives`` (JSON, so parquet columns keep one type); other
    datasets give only ``reward_model.ground_truth``."""
    alternatives = extra_info.get("ground_truth_alternatives") if isinstance(extra_info, dict) else None
    if isinstance(alternatives, str):
        try:
            alternatives = json.loads(alternatives)
        except json.JSONDecodeError:
            alternatives = None
    return alternatives if alternatives else ground_truth


#: Where rows keep the raw problem statement: ``train/prepare_data.py`` writes ``problem``;
#: verl's own preprocessors (``examples/data_preprocess/gsm8k.py``, ``math_dataset.py`` ...)
#: write ``question``.
PROBLEM_KEYS: tuple[str, ...] = ("problem", "question")


def problem_of(extra_info: Any) -> Optional[str]:
    """The raw problem statement, when the row carries it (``extra_info.problem`` or
    ``extra_info.question``, see :data:`PROBLEM_KEYS`)."""
    if not isinstance(extra_info, dict):
        return None
    for key in PROBLEM_KEYS:
        problem = extra_info.get(key)
        if isinstance(problem, str) and problem.strip():
            return problem
    return None


#: The ``extra_info.split`` values of training rows: verl's own preprocessors
#: (``examples/data_preprocess/gsm8k.py``, ``math_dataset.py`` ...) and ``train/prepare_data.py``
#: write ``"train"`` for training rows and ``"test"`` for validation rows.
TRAINING_SPLITS: tuple[str, ...] = ("train",)


def is_training_row(extra_info: Any) -> Optional[bool]:
    """Whether the row says it is a training row (``extra_info.split`` is one of
    :data:`TRAINING_SPLITS`, in any case): True, False for another split, None when the row
    says no split (no ``extra_info`` mapping, or no string ``split`` in it), which counts as not
    a training row. verl tells a reward neither whether it scores a training or a validation
    step, so ``reward_kwargs.anchors=by_split`` reads the row's own mark."""
    split = extra_info.get("split") if isinstance(extra_info, dict) else None
    if not isinstance(split, str):
        return None
    return split.strip().lower() in TRAINING_SPLITS


#: Logged once per adapter when ``anchors=by_split`` meets a row without a split (:class:`SplitMarks`).
NO_SPLIT_MESSAGE = (
    "APR reward: %s has no extra_info.split; with anchors=by_split such rows are scored as validation "
    "rows (every rollout's anchor searched). Mark training rows with extra_info.split='train' "
    "(train/prepare_data.py and verl's preprocessors do) to search only where the reward needs it, or "
    "set reward_kwargs.anchors to 'all' or 'rewarded' to choose one scope for every row."
)


class SplitMarks:
    """How ``anchors=by_split`` reads rows for one adapter: whether each is a training row
    (:func:`is_training_row`), saying once on ``logger`` when a row has no split (it is then
    scored as a validation row: every rollout's anchor searched)."""

    def __init__(self, logger: logging.Logger) -> None:
        self._logger = logger
        self._said = False

    def is_training(self, extra_info: Any, row_name: Callable[[], Optional[str]]) -> bool:
        """Whether the row is a training row; ``row_name`` names it in the message, called only
        when the message is logged."""
        mark = is_training_row(extra_info)
        if mark is None and not self._said:
            self._said = True
            self._logger.warning(NO_SPLIT_MESSAGE, row_name() or "a row")
        return bool(mark)


def scored_by_flag(flags: Sequence[bool], score: Callable[[bool, list[int]], Sequence[R]]) -> list[R]:
    """One result per flag, in order: ``score(flag, positions)`` is called once for each flag
    value present, with the positions holding it, and returns their results in that order (a
    batch scored by two scorers, one call each; a batch of one kind is one call)."""
    groups: dict[bool, list[int]] = {}
    for i, flag in enumerate(flags):
        groups.setdefault(bool(flag), []).append(i)
    if len(groups) == 1:
        [(flag, positions)] = groups.items()
        return list(score(flag, positions))
    results: list[Optional[R]] = [None] * len(flags)
    for flag, positions in groups.items():
        part = score(flag, positions)
        if len(part) != len(positions):
            raise RuntimeError(f"scored {len(part)} rows for {len(positions)}")
        for i, result in zip(positions, part):
            results[i] = result
    return results  # type: ignore[return-value]


def row_name_of(data_source: Any, extra_info: Any, uid: Any = None) -> Optional[str]:
    """How a log message names a row: its ``data_source``, its ``extra_info.index`` (verl's
    preprocessors and ``train/prepare_data.py`` write it) and its ``uid`` (the prompt's group in
    the step), as far as the row has them, e.g. ``row data_source='math_dapo' index=1234
    uid='q3'``; None when it has none of them."""
    index = extra_info.get("index") if isinstance(extra_info, dict) else None
    named = (("data_source", data_source), ("index", index), ("uid", uid))
    parts = [f"{key}={_plain(value)!r}" for key, value in named if value is not None and not _is_empty_str(value)]
    return "row " + " ".join(parts) if parts else None


def _plain(value: Any) -> Any:
    """A numpy scalar (from a parquet column) as the Python value it holds, so that it prints
    as ``1234``, not ``np.int64(1234)``."""
    try:
        return value.item() if hasattr(value, "item") and getattr(value, "ndim", None) == 0 else value
    except (TypeError, ValueError):
        return value


def _is_empty_str(value: Any) -> bool:
    return isinstance(value, str) and not value


def extra_info_of(score: RolloutScore, overlong_reward: float = 0.0) -> dict[str, Any]:
    """``reward_extra_info`` of one sample (keys: :data:`REWARD_EXTRA_KEYS`); ``score`` is the
    reward VeRL trains on (APR plus DAPO's overlong shaping)."""
    return {
        "score": score.reward + overlong_reward,
        "acc": float(score.correct),
        "pred": score.final_answer or "",
        "l_ast": float(score.l_ast),
        "t_think": float(score.t_think),
        "rho": score.rho,
        "anchor_found": float(score.anchor_found),
        "status": float(score.status_code),
        "overlong_reward": overlong_reward,
    }
