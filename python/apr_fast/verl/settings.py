"""APR settings as VeRL passes them: ``+reward.reward_kwargs.*`` on the command line.

One reader for every adapter (reward-loop manager, legacy batch manager, ``compute_score``),
so a setting means the same thing wherever it is given. Unknown keys raise
:class:`apr_fast.ConfigError` naming the valid ones: a misspelt ``+reward.reward_kwargs.bta``
must not silently train with the default β.
"""
from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field, fields
from typing import Any, Mapping, Optional, Union

from apr_fast.equivalence import Policy
from apr_fast.errors import ConfigError
from apr_fast.cues import cue_lists
from apr_fast.reward import ANCHOR_MODES, APRScorer, RewardConfig
from apr_fast.think_tags import DEFAULT_THINK_TAGS

__all__ = ["ANCHOR_SCOPES", "APRRewardSettings", "OverlongBuffer"]

#: The values of ``reward_kwargs.anchors``: ``RewardConfig.anchors``' two, and ``"by_split"``,
#: which picks one of them by the row (:meth:`APRRewardSettings.reward_config`).
ANCHOR_SCOPES: tuple[str, ...] = ("by_split", "all", "rewarded")


@dataclass(frozen=True)
class OverlongBuffer:
    """DAPO's overlong-buffer shaping: responses longer than ``max_resp_len - len`` lose up to
    ``penalty_factor`` linearly over the last ``len`` tokens (as verl's DAPO manager does)."""

    enable: bool = False
    len: int = 0
    penalty_factor: float = 1.0
    log: bool = False

    def __post_init__(self) -> None:
        # As APRRewardSettings reads its own fields: numbers may be strings, flags are bools.
        _flag("overlong_buffer_cfg.enable", self.enable)
        _flag("overlong_buffer_cfg.log", self.log)
        object.__setattr__(self, "len", _number("overlong_buffer_cfg.len", self.len, int, False))
        object.__setattr__(self, "penalty_factor",
                           _number("overlong_buffer_cfg.penalty_factor", self.penalty_factor, float, False))

    def penalty(self, response_length: int, max_resp_len: int) -> float:
        """The (non-positive) reward added for a response of ``response_length`` tokens."""
        if not self.enable:
            return 0.0
        exceed = response_length - (max_resp_len - self.len)
        return min(-exceed / self.len * self.penalty_factor, 0.0)


@dataclass(frozen=True)
class APRRewardSettings:
    """Everything the VeRL adapters read from ``reward_kwargs``.

    ``beta``, ``floor``, ``mode``, ``reference``, ``percent``, ``units``, ``cas``,
    ``cas_timeout``, ``reject_problem_echo``, ``require_answer_after_think``, ``think_tags``: as
    in :class:`apr_fast.RewardConfig` (the problem text comes from ``extra_info``, see
    :mod:`apr_fast.verl.rows`); ``think_tags`` is a preset's name
    (``+reward.reward_kwargs.think_tags=harmony`` for gpt-oss, ``magistral``, ``seed``, ``kimi``;
    ``auto`` for the tags of the family each response is written in, settled on the
    tokenizer's family when it holds one family's tags) or a list of two
    (``'+reward.reward_kwargs.think_tags=["[THINK]","[/THINK]"]'``).
    ``anchor_options``: a mapping of :class:`apr_fast.AnchorOptions` to change from those
    ``mode`` stands for (``+reward.reward_kwargs.anchor_options.skip_unreduced_forms=false``
    trains the default mode without that refinement); ``mode`` is then only the name reported.
    ``anchors``: which rollouts the anchor search reads (:data:`ANCHOR_SCOPES`). ``"by_split"``
    (the default) searches every rollout of a validation row and, in a training row (its
    ``extra_info.split`` is ``"train"``, as verl's preprocessors and ``train/prepare_data.py``
    write it), only the rollouts whose reward depends on their anchor: the rewards are the same
    everywhere, training steps score faster, and validation logs every sample's ``l_ast``,
    ``rho`` and ``anchor_found`` (verl logs them only in validation; during training it logs
    the score alone). A row without a split is scored as a validation row (logged once). ``"all"`` and
    ``"rewarded"`` apply one scope to every row, as in :class:`apr_fast.RewardConfig`; with
    ``"rewarded"`` validation's ``l_ast``, ``rho`` and ``anchor_found`` are 0 for incorrect and
    truncated rollouts.
    ``cue_languages``: the cue lists to use, by language (``["en"]``, the paper's, by default;
    ``["en", "zh"]`` adds the Chinese ones for reasoning written in Chinese).
    ``max_batch`` / ``max_wait_ms``: micro-batching of concurrent ``run_single`` calls.
    ``threads``: native worker threads per batch (None: ``APR_FAST_NUM_THREADS`` or all CPUs).
    ``overlong_buffer_cfg`` and ``max_resp_len``: DAPO's overlong shaping, composed with APR.
    """

    beta: float = 2e-4
    floor: Optional[float] = None
    mode: str = "default"
    reference: str = "final_answer"
    percent: str = "strict"
    units: str = "strict"
    cas: bool = True
    cas_timeout: float = 5.0
    reject_problem_echo: bool = True
    require_answer_after_think: bool = False
    think_tags: Union[str, tuple[str, ...]] = DEFAULT_THINK_TAGS
    anchor_options: Union[Mapping[str, Any], tuple[tuple[str, Any], ...]] = ()
    anchors: str = "by_split"
    cue_languages: tuple[str, ...] = ("en",)
    max_batch: int = 512
    max_wait_ms: float = 5.0
    threads: Optional[int] = None
    overlong_buffer_cfg: OverlongBuffer = field(default_factory=OverlongBuffer)
    max_resp_len: Optional[int] = None

    def __post_init__(self) -> None:
        # YAML and hand-made dicts give strings, floats for ints and the like: a number written
        # as a string is read as one; anything else is an error naming the key, never a raw
        # TypeError, and never a silent truthiness ("false" is a non-empty string).
        for name, kind, optional in _NUMBERS:
            object.__setattr__(self, name, _number(f"reward_kwargs.{name}", getattr(self, name), kind, optional))
        for name in _FLAGS:
            _flag(f"reward_kwargs.{name}", getattr(self, name))
        if not isinstance(self.overlong_buffer_cfg, OverlongBuffer):
            raise ConfigError(f"reward_kwargs.overlong_buffer_cfg must be a mapping, got "
                              f"{type(self.overlong_buffer_cfg).__name__}")
        options = _plain(self.anchor_options) if self.anchor_options is not None else ()
        if isinstance(options, Mapping):
            options = tuple(sorted(options.items()))  # hashable: scorers are cached per settings
        if not isinstance(options, tuple):
            raise ConfigError(f"reward_kwargs.anchor_options must be a mapping of option names to values, "
                              f"got {type(self.anchor_options).__name__}")
        object.__setattr__(self, "anchor_options", options)
        for name in ("cue_languages", "think_tags"):
            value = _plain(getattr(self, name))
            if isinstance(value, list):  # from YAML or the command line: hashable too
                object.__setattr__(self, name, tuple(value))
        if self.mode not in ANCHOR_MODES:
            raise ConfigError(f"reward_kwargs.mode must be one of {ANCHOR_MODES}, got {self.mode!r}")
        if self.anchors not in ANCHOR_SCOPES:
            raise ConfigError(f"reward_kwargs.anchors must be one of {ANCHOR_SCOPES}, got {self.anchors!r}")
        if self.max_batch < 1:
            raise ConfigError(f"reward_kwargs.max_batch must be >= 1, got {self.max_batch}")
        if not (math.isfinite(self.max_wait_ms) and self.max_wait_ms >= 0):
            raise ConfigError(f"reward_kwargs.max_wait_ms must be >= 0, got {self.max_wait_ms}")
        if self.threads is not None and self.threads < 1:
            raise ConfigError(f"reward_kwargs.threads must be >= 1 or null, got {self.threads}")
        o = self.overlong_buffer_cfg
        if o.enable:
            # verl's DAPO manager asserts these; say what is wrong instead.
            if self.max_resp_len is None:
                raise ConfigError("overlong_buffer_cfg.enable needs reward_kwargs.max_resp_len "
                                  "(set it to data.max_response_length)")
            if o.len <= 0:
                raise ConfigError(f"overlong_buffer_cfg.len must be > 0 when enabled, got {o.len}")
            if self.max_resp_len < o.len:
                raise ConfigError(f"max_resp_len ({self.max_resp_len}) must be >= overlong_buffer_cfg.len ({o.len})")
        self.reward_config()  # validates beta, floor, reference, percent, units, cas_timeout

    @property
    def scope_by_row(self) -> bool:
        """Whether a row's split picks its anchor scope (``anchors="by_split"``)."""
        return self.anchors == "by_split"

    def scorers(self, **scorer_kwargs: Any) -> tuple[APRScorer, APRScorer]:
        """(validation rows' scorer, training rows' scorer): one scorer twice unless
        ``anchors="by_split"``. ``scorer_kwargs`` go to both (``vocabulary=...``)."""
        scorer = APRScorer(self.reward_config(), **scorer_kwargs)
        if not self.scope_by_row:
            return scorer, scorer
        return scorer, APRScorer(self.reward_config(training_row=True), **scorer_kwargs)

    def reward_config(self, *, training_row: bool = False) -> RewardConfig:
        """The reward's configuration for a validation row, or a training row with
        ``training_row=True`` (they differ only with ``anchors="by_split"``)."""
        anchors = self.anchors
        if anchors == "by_split":
            anchors = "rewarded" if training_row else "all"
        try:
            conclusion, verification = cue_lists(self.cue_languages)
            return RewardConfig(
                conclusion_cues=conclusion, verification_cues=verification,
                beta=self.beta, floor=self.floor,
                mode=self.mode,  # type: ignore[arg-type]
                reference=self.reference,  # type: ignore[arg-type]
                policy=Policy(percent=self.percent, units=self.units),  # type: ignore[arg-type]
                cas=self.cas, cas_timeout=self.cas_timeout,
                reject_problem_echo=self.reject_problem_echo,
                require_answer_after_think=self.require_answer_after_think,
                think_tags=self.think_tags,
                anchor_options=dict(self.anchor_options) or None,
                anchors=anchors,  # type: ignore[arg-type]
            )
        except (TypeError, ValueError) as e:
            raise ConfigError(f"invalid reward_kwargs: {e}") from e

    @classmethod
    def from_mapping(cls, kwargs: Optional[Mapping[str, Any]], *, ignore: tuple[str, ...] = ()) -> "APRRewardSettings":
        """Settings from a plain mapping (an OmegaConf node converted with ``to_container``
        works too). Keys in ``ignore`` are accepted and skipped."""
        data = dict(_plain(kwargs) or {})
        known = {f.name for f in fields(cls)}
        unknown = sorted(k for k in data if k not in known and k not in ignore)
        if unknown:
            raise ConfigError(f"unknown APR reward_kwargs {unknown}; valid keys: {sorted(known)}")
        overlong = data.pop("overlong_buffer_cfg", None)
        values = {k: v for k, v in data.items() if k in known}
        if overlong is not None:
            o_known = {f.name for f in fields(OverlongBuffer)}
            o_unknown = sorted(set(overlong) - o_known)
            if o_unknown:
                raise ConfigError(f"unknown overlong_buffer_cfg keys {o_unknown}; valid: {sorted(o_known)}")
            values["overlong_buffer_cfg"] = OverlongBuffer(**overlong)
        return cls(**values)

    @classmethod
    def from_config(cls, config: Any) -> "APRRewardSettings":
        """Settings from a full VeRL config: ``reward.reward_kwargs`` (verl >= 0.7.1), else
        ``reward_model.reward_kwargs`` (0.7.0 and the legacy trainers)."""
        for section in ("reward", "reward_model"):
            node = _get(config, section)
            kwargs = _get(node, "reward_kwargs") if node is not None else None
            if kwargs is not None:
                return cls.from_mapping(kwargs)
        return cls()


# (field, int or float, may be None)
_NUMBERS: tuple[tuple[str, type, bool], ...] = (
    ("beta", float, False), ("floor", float, True), ("cas_timeout", float, False),
    ("max_wait_ms", float, False), ("max_batch", int, False), ("threads", int, True),
    ("max_resp_len", int, True),
)
_FLAGS = ("cas", "reject_problem_echo", "require_answer_after_think")


def _number(name: str, value: Any, kind: type, optional: bool) -> Any:
    """``value`` as an int or float (``kind``): numbers, numpy scalars and numbers written as
    strings (``"2e-4"``: YAML 1.1 reads an exponent without a dot as a string); ``ConfigError``
    naming the key otherwise."""
    if value is None and optional:
        return None
    if not isinstance(value, bool):
        if isinstance(value, str):
            try:
                value = float(value.strip()) if kind is float else int(value.strip())
            except ValueError:
                pass
        if kind is int and isinstance(value, numbers.Integral):
            return int(value)
        if kind is int and isinstance(value, numbers.Real) and float(value).is_integer():
            return int(float(value))
        if kind is float and isinstance(value, numbers.Real):
            return float(value)
    what = "an integer" if kind is int else "a number"
    raise ConfigError(f"{name} must be {what}{' or null' if optional else ''}, got {value!r}")


def _flag(name: str, value: Any) -> None:
    """``ConfigError`` unless ``value`` is a bool: the string ``"false"`` would read as true."""
    if not isinstance(value, bool):
        hint = " (a string: write true or false without quotes)" if isinstance(value, str) else ""
        raise ConfigError(f"{name} must be true or false, got {value!r}{hint}")


def _get(node: Any, key: str) -> Any:
    if node is None:
        return None
    if isinstance(node, Mapping) or hasattr(node, "get"):
        try:
            return node.get(key)
        except Exception:  # an OmegaConf struct node raises on missing keys in some versions
            return None
    return getattr(node, key, None)


def _plain(node: Any) -> Any:
    """OmegaConf containers -> plain dicts and lists (without importing omegaconf)."""
    if node is None:
        return None
    try:
        from omegaconf import DictConfig, ListConfig, OmegaConf

        if isinstance(node, (DictConfig, ListConfig)):
            return OmegaConf.to_container(node, resolve=True)
    except ImportError:  # pragma: no cover - omegaconf ships with verl
        pass
    if isinstance(node, Mapping):
        return {k: _plain(v) for k, v in node.items()}
    return node
