#!/usr/bin/env python3
"""``think_tags="auto"`` against each family's own tags on the real traces.

Every trace is rewritten in one family's tags, the families taking turns (``think``,
``magistral``, ``seed``, ``kimi``, ``harmony`` with its markers, and harmony decoded without them,
as verl's own managers decode gpt-oss output), and the mixed batch is scored once with
``think_tags="auto"``. Each rollout is compared with the same text scored with its own family's
tags (status, reward, correctness, final answer, thinking span, anchor sentence, T_think, L_AST,
in characters), and so is the outcome check (``is_correct_batch``). Then the cost: the original
traces scored with the default tags and with ``"auto"`` (CPU time, one thread, best of
``--repeat``, in turns).

    .venv/bin/python benches/think_tags_auto.py [--repeat 5]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from _common import at_least, interleaved_best, load_traces, responses_and_truths, traces_missing

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))


def figures(s: Any) -> tuple[Any, ...]:
    return (s.status, s.reward, s.correct, s.final_answer, s.thinking_span, s.anchor_sentence, s.t_think, s.l_ast)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=at_least(1), default=5)
    args = parser.parse_args()
    if traces_missing("think_tags_auto.py"):
        return 2

    import apr_fast
    from apr_fast.think_tags import THINK_TAG_PRESETS
    from harmony_format import as_family

    rows = load_traces()
    responses, gts = responses_and_truths(rows)
    families = [*THINK_TAG_PRESETS, "stripped"]
    family_of = [families[i % len(families)] for i in range(len(rows))]
    mixed = [as_family(r, name) for r, name in zip(responses, family_of)]

    def config(tags: Any) -> Any:
        return apr_fast.RewardConfig(cas=False, think_tags=tags)

    auto = apr_fast.APRScorer(config("auto"))
    got = auto.score_batch(mixed, gts)
    got_outcomes = apr_fast.is_correct_batch(mixed, gts, cas=False, think_tags="auto")
    print(f"{len(rows)} traces, each written in one family's tags in turn ({', '.join(families)}; "
          "'stripped' is harmony decoded without its markers), scored with think_tags='auto' "
          "against each family's own tags:")
    for name in families:
        tags = "harmony" if name == "stripped" else name
        index = [i for i, f in enumerate(family_of) if f == name]
        texts, truths = [mixed[i] for i in index], [gts[i] for i in index]
        own = apr_fast.APRScorer(config(tags)).score_batch(texts, truths)
        own_outcomes = apr_fast.is_correct_batch(texts, truths, cas=False, think_tags=tags)
        same = sum(figures(got[i]) == figures(s) for i, s in zip(index, own))
        same_outcomes = sum(got_outcomes[i].correct == o.correct and got_outcomes[i].final_answer == o.final_answer
                            for i, o in zip(index, own_outcomes))
        print(f"  {name:10} reward figures the same on {same} of {len(index)}; outcome check on {same_outcomes}")

    timed = {
        "default tags": lambda: apr_fast.APRScorer(config("think")).score_batch(responses, gts, threads=1),
        "auto": lambda: auto.score_batch(responses, gts, threads=1),
        "outcome, default tags": lambda: apr_fast.is_correct_batch(responses, gts, cas=False, threads=1),
        "outcome, auto": lambda: apr_fast.is_correct_batch(responses, gts, cas=False, threads=1, think_tags="auto"),
    }
    best = interleaved_best(args.repeat, timed)
    print("the original traces, CPU time per rollout, one thread: "
          + ", ".join(f"{name} {t / len(rows) * 1e6:.1f} µs" for name, (t, _) in best.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
