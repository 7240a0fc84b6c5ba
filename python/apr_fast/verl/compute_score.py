"""``compute_score`` for verl's ``reward.custom_reward_function`` (the string path).

    reward.custom_reward_function.path=pkg://apr_fast.verl.compute_score
    reward.custom_reward_function.name=compute_score
    +reward.custom_reward_function.reward_kwargs.tokenizer=deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B
    +reward.custom_reward_function.reward_kwargs.beta=2e-4

verl decodes the response to text and calls this once per sample. Lengths are counted in the
tokens of ``tokenizer`` (a path to a ``tokenizer.json``, a local model directory or a hub
name) when it is given, else in characters (``length_unit`` says which); the Qwen2, Llama 3 and
DeepSeek-V3 tokenizers are encoded natively (:mod:`apr_fast.encoding`, ~0.2 ms per 3,000-token
sample against ~5 ms through ``tokenizers``; ``reward_kwargs.native_encoding=false`` encodes with
``tokenizers`` itself, for checking). The reward-loop
manager (:mod:`apr_fast.verl.manager`) is exact in the policy's own tokens and batches the
native work; prefer it for training.
"""
from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Hashable, Mapping
from typing import Any, Optional

from apr_fast.errors import ConfigError
from apr_fast.reward import APRScorer
from apr_fast.tokens import load_hf_tokenizer
from apr_fast.verl.rows import SplitMarks, extra_info_of, ground_truth_of, problem_of, row_name_of
from apr_fast.verl.settings import APRRewardSettings

__all__ = ["compute_score", "load_tokenizer"]

# Keyword arguments verl itself may pass; accepted and not used here.
_VERL_EXTRAS = ("reward_router_address", "reward_model_tokenizer")

_lock = threading.Lock()
logger = logging.getLogger(__name__)


@functools.lru_cache(maxsize=8)
def load_tokenizer(name: str) -> Any:
    """A ``tokenizers.Tokenizer`` from a tokenizer.json(.gz) path, a model directory or a hub
    name, loaded once per process."""
    return load_hf_tokenizer(name)


@functools.lru_cache(maxsize=32)
def _scorer(settings: APRRewardSettings, tokenizer: Optional[str], native_encoding: bool,
            training_row: bool = False) -> APRScorer:
    return APRScorer(settings.reward_config(training_row=training_row),
                     tokenizer=load_tokenizer(tokenizer) if tokenizer else None, native_encoding=native_encoding)


class _Unhashable(Exception):
    pass


def _frozen(value: Any) -> Hashable:
    """A hashable copy of a reward_kwargs value: mappings as sorted items, sequences as tuples,
    each scalar with its type (``1`` and ``True`` stay apart); `_Unhashable` for anything else."""
    if isinstance(value, Mapping):
        items = ((type(k).__name__, str(k), _frozen(v)) for k, v in value.items())
        return ("mapping", tuple(sorted(items, key=lambda item: item[:2])))
    if isinstance(value, (list, tuple)) or type(value).__name__ == "ListConfig":
        return ("sequence", tuple(_frozen(v) for v in value))
    if value is None or isinstance(value, (str, int, float, bool)):
        return (type(value).__name__, value)
    raise _Unhashable


_SETTINGS: dict[Hashable, APRRewardSettings] = {}
_MAX_SETTINGS = 32


def _settings(kwargs: Mapping[str, Any]) -> APRRewardSettings:
    """The settings of ``kwargs``, parsed and validated once per distinct reward_kwargs: verl
    passes the same ones with every sample, and parsing them took longer than scoring."""
    try:
        key = _frozen(kwargs)
    except _Unhashable:
        return APRRewardSettings.from_mapping(kwargs, ignore=_VERL_EXTRAS)
    settings = _SETTINGS.get(key)
    if settings is None:
        settings = APRRewardSettings.from_mapping(kwargs, ignore=_VERL_EXTRAS)
        with _lock:
            if len(_SETTINGS) >= _MAX_SETTINGS:
                _SETTINGS.clear()
            _SETTINGS[key] = settings
    return settings


# anchors=by_split's reading of rows: a row without a split is said once per process.
_split_marks = SplitMarks(logger)


def compute_score(
    data_source: Any,
    solution_str: str,
    ground_truth: Any,
    extra_info: Optional[dict] = None,
    *,
    tokenizer: Optional[str] = None,
    native_encoding: bool = True,
    **kwargs: Any,
) -> dict[str, Any]:
    """The APR reward of one decoded response, as a dict verl copies into reward_extra_info:
    ``score`` (the reward), ``acc``, ``pred`` and the anchor figures (the keys of
    :data:`~apr_fast.verl.rows.REWARD_EXTRA_KEYS`). ``native_encoding=False`` counts the tokens
    of ``tokenizer`` with the ``tokenizers`` library instead of apr-fast's encoder (the same
    tokens where the encoder applies; slower). Other keyword arguments are APR settings
    (:class:`~apr_fast.verl.settings.APRRewardSettings`)."""
    if not isinstance(native_encoding, bool):
        raise ConfigError(f"native_encoding must be true or false, got {native_encoding!r}")
    settings = _settings(kwargs)
    if settings.overlong_buffer_cfg.enable:
        # verl's manager calls this with the decoded text only; the response's token length is
        # the manager's to know, and its DAPO manager applies the shaping itself.
        raise ConfigError(
            "overlong_buffer_cfg is not applied by compute_score, which sees only the decoded text: "
            "give it to the reward manager instead (+reward.reward_kwargs.overlong_buffer_cfg.* with "
            "reward.reward_manager.name=dapo, whose manager adds it around compute_score, or with "
            "apr_fast.verl.manager.APRRewardManager, which applies it from the token ids)"
        )
    training_row = settings.scope_by_row and _split_marks.is_training(
        extra_info, lambda: row_name_of(data_source, extra_info))
    with _lock:  # lru_cache is thread-safe for reads; building a scorer twice is only waste
        scorer = _scorer(settings, tokenizer, native_encoding, training_row)
    score = scorer.score(
        solution_str, ground_truth_of(ground_truth, extra_info), problem=problem_of(extra_info)
    )
    return extra_info_of(score)
