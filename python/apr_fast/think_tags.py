"""The tags around a response's thinking, by model family, and the checks that catch the wrong ones.

Everything apr-fast says of ``<think>``/``</think>`` holds for the tags configured
(``RewardConfig(think_tags=...)``, ``is_correct(..., think_tags=...)``, ``extract_final(...,
think_tags=...)``, ``reward_kwargs.think_tags`` in VeRL): two str (opening, closing) or the
name of a preset in :data:`THINK_TAG_PRESETS` (on the command line ``--think-tags OPEN CLOSE``
or ``--think-preset NAME``):

========== ===================================== ===================================
name       opening                               closing
========== ===================================== ===================================
think      ``<think>``                           ``</think>`` (DeepSeek-R1, Qwen3, QwQ)
magistral  ``[THINK]``                           ``[/THINK]`` (Magistral)
seed       ``<seed:think>``                      ``</seed:think>`` (Seed-OSS)
kimi       ``◁think▷``                           ``◁/think▷`` (Kimi)
harmony    ``<|channel|>analysis<|message|>``    ``<|end|>`` (gpt-oss)
========== ===================================== ===================================

``"auto"`` reads each response with the tags of the family it is written in: the family whose
opening tag (or gpt-oss's final-channel header) starts it, else the one whose closing tag comes
first in it (for gpt-oss text decoded without the special tokens, which starts with
``analysis``, its ``assistantfinal``), else gpt-oss's when it reads as such text otherwise (it
starts with ``analysis``, or reads ``final42``), else the default tags (the response holds no
family's closing tag: truncated under every one). A scorer with a vocabulary settles it on the
vocabulary's family when the vocabulary holds the two tags of exactly one family as tokens
(gpt-oss's as its special tokens), so that ``</think>`` is found by its token id; the scorer's
``config.think_tags`` then holds those tags. ``"auto"`` costs one search per family's closing
tag in each response.

``harmony`` reads gpt-oss's analysis channel as the thinking and the final channel after it as
the answer. With tools, the thinking runs over the tool calls, their outputs and the analysis
after them to the message before the final channel; a response cut short after a tool call
(another message after the first ``<|end|>``, no final channel) is truncated. Its markers are special tokens: token ids are decoded with them kept, and text
decoded with ``skip_special_tokens=True``, as verl's own reward managers decode it for
``compute_score``, has lost them and reads ``analysisWe need...assistantfinalThe answer is...``:
such text (starting with ``analysis``) is read by those two words instead. Lengths in tokens
are then those of the stripped text re-encoded, which may differ from the policy's at the
thinking's first token. A response that starts with the final channel
(``<|channel|>final<|message|>``, no analysis written; ``final`` followed by neither a
lowercase letter nor white space when decoded without the markers) is complete with empty
thinking.

A response written with other tags than the configured ones has no closing tag and scores as
``truncated`` (reward 0). A scorer says so once, in a warning, when its vocabulary has another
family's tags and not the configured ones, or when text it scored as truncated holds another
family's closing tag or is gpt-oss output stripped of its markers.
"""
from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, Optional, Union

from apr_fast import _core

__all__ = ["AUTO_THINK_TAGS", "DEFAULT_THINK_TAGS", "THINK_TAG_PRESETS", "ResolvedThinkTags", "ThinkTagsArg",
           "resolve_think_tags"]

logger = logging.getLogger(__name__)

#: Preset name -> (opening tag, closing tag); the table above.
THINK_TAG_PRESETS: dict[str, tuple[str, str]] = dict(_core.THINK_TAG_PRESETS)
DEFAULT_THINK_TAGS: tuple[str, str] = THINK_TAG_PRESETS["think"]

#: The name that reads each response with its own family's tags (see above).
AUTO_THINK_TAGS = "auto"

#: What a ``think_tags`` argument may be: a preset's name, ``"auto"`` or (opening, closing).
ThinkTagsArg = Union[str, Sequence[str]]

#: What a ``think_tags`` argument gives: (opening, closing), or ``"auto"``.
ResolvedThinkTags = Union[tuple[str, str], str]


def resolve_think_tags(tags: Any) -> ResolvedThinkTags:
    """The (opening, closing) tags ``tags`` gives: a preset's name or any sequence of two str
    (a YAML list too); ``"auto"`` stays ``"auto"``. ``TypeError`` for another type;
    :class:`~apr_fast.ConfigError` for an unknown name or tags that cannot be used (empty,
    braces, a closing tag with no mark such as ``<``, ``/`` or ``|``, ...)."""
    return _core.resolve_think_tags(tags)


def preset_name(tags: tuple[str, str]) -> Optional[str]:
    """The name of the preset with these tags, if one has them."""
    return next((name for name, preset in THINK_TAG_PRESETS.items() if preset == tags), None)


def _suggestion(tags: tuple[str, str]) -> str:
    name = preset_name(tags)
    return f"think_tags={name!r}" if name else f"think_tags={tags!r}"


def _in_vocabulary(vocabulary: Any, tag: str) -> bool:
    """Whether ``tag`` is one token of ``vocabulary``, or made of special tokens that are
    (harmony's ``<|channel|>analysis<|message|>``: ``<|channel|>`` and ``<|message|>``), as the
    native scorer reads it for ``"auto"``."""
    return bool(vocabulary._native.holds_tag(tag))


def warn_of_other_families(vocabulary: Any, tags: ThinkTagsArg) -> bool:
    """A vocabulary without the configured closing tag but with both tags of a preset: its
    responses would all score as truncated (reward 0) unless ``think_tags`` names them.
    Warns once and says whether it did (never for ``"auto"``, which reads every family)."""
    if isinstance(tags, str) or _in_vocabulary(vocabulary, tags[1]):
        return False
    for preset in THINK_TAG_PRESETS.values():
        if preset != tags and all(_in_vocabulary(vocabulary, tag) for tag in preset):
            logger.warning("the vocabulary has no %r token but has the tokens of %r and %r: if the policy writes "
                           "its thinking that way, set %s, or every response scores as truncated",
                           tags[1], preset[0], preset[1], _suggestion(preset))
            return True
    return False


def warn_of_other_closing_tags(responses: Sequence[str], scores: Sequence[Any], tags: ThinkTagsArg) -> bool:
    """Text responses scored as truncated that another preset reads as complete, as the scorer
    would read them with it (they hold its closing tag, or are gpt-oss output decoded without
    its special tokens): warns once (which preset, how many) and says whether it did. Only
    truncated rows are read; never for ``"auto"``, which reads every family."""
    truncated = [r for r, s in zip(responses, scores) if s.status == "truncated"]
    if isinstance(tags, str) or not truncated:
        return False
    for name, preset in THINK_TAG_PRESETS.items():
        if preset == tags:
            continue
        complete = [r for r in truncated if _core.thinking_span(r, think_tags=name)[2]]
        if not complete:
            continue
        if all(preset[1] in r for r in complete):
            logger.warning("%d response(s) of this batch have no %r but hold %r and score as truncated: if the "
                           "policy writes its thinking that way, set %s", len(complete), tags[1], preset[1],
                           _suggestion(preset))
        else:
            logger.warning("%d response(s) of this batch have no %r and score as truncated but read as complete "
                           "with %s (gpt-oss output decoded with skip_special_tokens=True, or an answer with no "
                           "thinking): set it", len(complete), tags[1], _suggestion(preset))
        return True
    return False
