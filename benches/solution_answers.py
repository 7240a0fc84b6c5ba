#!/usr/bin/env python3
"""Final answers of reference solutions against their rows' answers: the DeepScaleR training rows
in ``../shared/data/train`` that carry a written solution (``deepscaler_head803.json``,
``aime_1983_2023.json``; 1,778 rows).

Each solution is scored as a response would be (``is_correct_batch(solution, answer)``): its
final answer is extracted and compared with the row's ``answer``. Human-written AoPS solutions
box answers in shapes models copy (a choice label beside the value, ``{-}1``, ``\\textdollar``),
so this is a check of extraction and equivalence on text no checker round was written from.
What is not equal is either a letter alone (these rows' problems carry no choices, so a letter
cannot be checked), a row whose solution and answer disagree, or a miss of apr-fast's: print
them with ``--show`` and read them.

    .venv/bin/python benches/solution_answers.py [--show] [--cas]
"""
from __future__ import annotations

import argparse
import collections
import json
import sys

from _common import DATA

FILES = ("deepscaler_head803.json", "aime_1983_2023.json")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--show", action="store_true", help="print every row not judged equal")
    parser.add_argument("--cas", action="store_true", help="send undecided comparisons to sympy (default: native only)")
    args = parser.parse_args(argv)
    rows = []
    for name in FILES:
        path = DATA / "train" / name
        if not path.exists():
            print(f"{path} not found", file=sys.stderr)
            return 2
        rows += [(name, r) for r in json.loads(path.read_text()) if r.get("solution")]

    import apr_fast

    results = apr_fast.is_correct_batch([r["solution"] for _, r in rows], [r["answer"] for _, r in rows], cas=args.cas)
    table: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for (name, _), result in zip(rows, results):
        if result.final_answer is None:
            outcome = "no final answer"
        elif result.correct:
            outcome = "equal"
        else:
            assert result.judgement is not None
            outcome = f"{result.judgement.verdict.value} ({result.judgement.detail})"
        table[name][outcome] += 1
    print(f"{len(rows)} solutions; final answer against the row's answer ({'sympy on' if args.cas else 'native only'})\n")
    print("| file | solutions | equal | outcome counts |")
    print("|---|---:|---:|---|")
    for name, counts in table.items():
        rest = ", ".join(f"{k}: {v}" for k, v in counts.most_common() if k != "equal")
        print(f"| {name} | {sum(counts.values())} | {counts['equal']} | {rest} |")
    total = sum(c["equal"] for c in table.values())
    print(f"\nequal: {total} of {len(rows)}")
    if args.show:
        for (name, row), result in zip(rows, results):
            if result.correct:
                continue
            final = result.final_answer.text if result.final_answer is not None else None
            how = result.judgement.detail if result.judgement is not None else "-"
            print(f"{name}: final {final!r} | answer {row['answer']!r} | {how}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
