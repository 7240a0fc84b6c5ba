"""gpt-oss's harmony format for the tests: responses rewritten into it (and into the other
families' think tags) and a vocabulary with its markers (gpt-oss's own vocabulary is not
available offline)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from split_patterns import O200K

TOKENIZER = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "tokenizer" / "deepseek-r1-distill-qwen.tokenizer.json"
HARMONY_SPECIALS = ["<|start|>", "<|channel|>", "<|message|>", "<|end|>", "<|return|>", "<|call|>", "<|constrain|>"]

#: A python tool call and its output, between two analysis messages, as gpt-oss writes them.
TOOL_CALL = ("<|end|><|start|>assistant<|channel|>commentary to=functions.python <|constrain|>json<|message|>"
             "{\"code\": \"print('checking')\"}<|call|><|start|>functions.python to=assistant<|channel|>commentary"
             "<|message|>checking<|end|><|start|>assistant<|channel|>analysis<|message|>")


def as_harmony(response: str) -> str:
    """An R1 response written as gpt-oss writes it: the thinking in the analysis channel, the
    answer in the final channel (a response without ``</think>`` stays in the analysis one)."""
    thinking, closed, answer = response.partition("</think>")
    if thinking.lstrip().startswith("<think>"):
        thinking = thinking.lstrip()[len("<think>"):]
    analysis = "<|channel|>analysis<|message|>" + thinking
    if not closed:
        return analysis
    return analysis + "<|end|><|start|>assistant<|channel|>final<|message|>" + answer + "<|return|>"


def as_harmony_with_tool_call(response: str) -> str:
    """:func:`as_harmony` with a tool call (:data:`TOOL_CALL`) in the thinking, at the first
    paragraph break after its first third; as it is when it has none there."""
    harmony = as_harmony(response)
    start = len("<|channel|>analysis<|message|>")
    end = harmony.find("<|end|>")
    end = len(harmony) if end < 0 else end
    cut = harmony.find("\n\n", start + (end - start) // 3, end)
    return harmony if cut < 0 else harmony[:cut] + TOOL_CALL + harmony[cut:]


def as_stripped_harmony(response: str) -> str:
    """:func:`as_harmony` decoded with ``skip_special_tokens=True``, as verl's own reward managers
    decode: ``analysis...assistantfinal...``."""
    return re.sub(r"<\|[a-z]+\|>", "", as_harmony(response))


def as_family(response: str, name: str) -> str:
    """A bundled R1 response as the family ``name`` of ``THINK_TAG_PRESETS`` writes it
    (harmony's with its markers), or, for ``stripped``, as gpt-oss text decoded without them."""
    from apr_fast.think_tags import THINK_TAG_PRESETS

    if name == "harmony":
        return as_harmony(response)
    if name == "stripped":
        return as_stripped_harmony(response)
    open_tag, close_tag = THINK_TAG_PRESETS[name]
    return response.replace("<think>", open_tag).replace("</think>", close_tag)


def harmony_tokenizer(without_think: bool = False, o200k: bool = False):
    """The bundled R1 tokenizer with harmony's markers as special tokens (gpt-oss's own
    vocabulary is not available offline); ``without_think`` drops ``<think>``/``</think>``;
    ``o200k`` puts gpt-oss's pre-tokenizer pattern in front of the vocabulary."""
    tokenizers = pytest.importorskip("tokenizers")
    if not TOKENIZER.exists():
        pytest.skip("../shared/data is not present")
    spec = json.loads(TOKENIZER.read_text(encoding="utf-8"))
    if without_think:
        spec["added_tokens"] = [a for a in spec["added_tokens"] if a["content"] not in ("<think>", "</think>")]
    if o200k:
        spec["pre_tokenizer"]["pretokenizers"][0]["pattern"] = {"Regex": O200K}
    tokenizer = tokenizers.Tokenizer.from_str(json.dumps(spec))
    tokenizer.add_special_tokens([tokenizers.AddedToken(t, special=True, normalized=False) for t in HARMONY_SPECIALS])
    return tokenizer
