#!/usr/bin/env python3
"""gpt-oss's harmony format against <think>/</think> on the real traces.

Every trace is rewritten in harmony's format (the thinking in the analysis channel, the answer
in the final channel; ``tests/harmony_format.py``) and scored with ``think_tags="harmony"``
from token ids (the bundled R1 tokenizer with harmony's markers added as special tokens:
gpt-oss's own vocabulary cannot be downloaded here), from text with the markers and from text
decoded without them (``analysis...assistantfinal...``, as verl's own managers decode), in
tokens and in characters. Each is compared with the original trace scored with the default
tags (status, reward, correctness, final answer, anchor sentence, T_think, L_AST), and the
token-id path is timed against the original's (CPU time, one thread, best of ``--repeat``).
Then each thinking gets a python call and its output inside it (``as_harmony_with_tool_call``):
its status, correctness, answer and anchor sentence against the same trace without the call,
token ids against text, and text decoded without the markers against text with them.

    .venv/bin/python benches/harmony_parity.py [--repeat 4]
"""
from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path
from typing import Any

from _common import TOKENIZER, at_least, load_traces, responses_and_truths, traces_missing

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))


def figures(s: Any) -> tuple[Any, ...]:
    return (s.status, s.reward, s.correct, s.final_answer, s.anchor_sentence, s.t_think, s.l_ast)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=at_least(1), default=4)
    args = parser.parse_args()
    if traces_missing("harmony_parity.py"):
        return 2
    from tokenizers import Tokenizer

    import apr_fast
    from harmony_format import TOOL_CALL, as_harmony, as_harmony_with_tool_call, as_stripped_harmony, harmony_tokenizer

    rows = load_traces()
    responses, gts = responses_and_truths(rows)
    r1 = Tokenizer.from_file(str(TOKENIZER))
    harmony_tok = harmony_tokenizer()
    harmony = [as_harmony(r) for r in responses]
    stripped = [as_stripped_harmony(r) for r in responses]
    r1_ids = [e.ids for e in r1.encode_batch(responses, add_special_tokens=False)]
    harmony_ids = [e.ids for e in harmony_tok.encode_batch(harmony, add_special_tokens=False)]

    standard = apr_fast.APRScorer(apr_fast.RewardConfig(cas=False), tokenizer=r1)
    tagged = apr_fast.APRScorer(apr_fast.RewardConfig(cas=False, think_tags="harmony"), tokenizer=harmony_tok)
    by_chars = apr_fast.APRScorer(apr_fast.RewardConfig(cas=False))
    tagged_chars = apr_fast.APRScorer(apr_fast.RewardConfig(cas=False, think_tags="harmony"))
    expected = [figures(s) for s in standard.score_token_ids(r1_ids, gts)]
    expected_chars = [figures(s) for s in by_chars.score_batch(responses, gts)]
    runs = {
        "token ids (markers as special tokens)": (tagged.score_token_ids(harmony_ids, gts), expected),
        "text with the markers, in tokens": (tagged.score_batch(harmony, gts), expected),
        "text without the markers, in tokens (re-encoded)": (tagged.score_batch(stripped, gts), expected),
        "text without the markers, in characters": (tagged_chars.score_batch(stripped, gts), expected_chars),
    }
    print(f"{len(rows)} traces in harmony's format, scored with think_tags='harmony', against <think>/</think>:")
    for name, (scores, reference) in runs.items():
        same = sum(figures(s) == r for s, r in zip(scores, reference))
        print(f"  {name:52} the same figures on {same} of {len(rows)}")

    # A python call and its output inside each thinking (tests/harmony_format.py): the thinking
    # now runs over it to the message before the final channel.
    called = [as_harmony_with_tool_call(r) for r in responses]
    called_ids = [e.ids for e in harmony_tok.encode_batch(called, add_special_tokens=False)]
    with_call = tagged.score_batch(called, gts)
    plain = tagged.score_batch(harmony, gts)

    def outcome(text: str, s: Any) -> tuple[Any, ...]:
        return (s.status, s.correct, s.final_answer, text[s.anchor_span[0]:s.anchor_span[1]].strip())

    def token_figures(s: Any) -> tuple[Any, ...]:
        return (s.status, s.reward, s.t_think, s.l_ast, s.anchor_token)

    same = sum(outcome(c, a) == outcome(h, b) for c, h, a, b in zip(called, harmony, with_call, plain))
    same_ids = sum(token_figures(a) == token_figures(b)
                   for a, b in zip(tagged.score_token_ids(called_ids, gts), with_call))
    stripped_call = [re.sub(r"<\|[a-z]+\|>", "", c) for c in called]
    same_stripped = sum(outcome(u, a) == outcome(c, b) for u, c, a, b in
                        zip(stripped_call, called, tagged_chars.score_batch(stripped_call, gts), with_call))
    print(f"with a python call in the thinking ({sum(TOOL_CALL in c for c in called)} of {len(rows)} have room for one):")
    print(f"  status, correctness, answer and anchor sentence as without it on {same} of {len(rows)}; "
          f"token ids as text on {same_ids}; text without the markers as with them on {same_stripped}")

    best = {"<think>/</think>": float("inf"), "harmony": float("inf")}
    for _ in range(args.repeat):
        for name, scorer, ids in (("<think>/</think>", standard, r1_ids), ("harmony", tagged, harmony_ids)):
            t = time.process_time()
            scorer.score_token_ids(ids, gts, threads=1)
            best[name] = min(best[name], time.process_time() - t)
    print("token-id path, CPU time per rollout, one thread: "
          + ", ".join(f"{name} {t / len(rows) * 1e6:.1f} µs" for name, t in best.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
