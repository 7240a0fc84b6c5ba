#!/usr/bin/env python3
"""Correctness of the 2,921 real traces: apr-fast's verdict against the sources' own labels.

For every trace: is there a ``\\boxed`` answer, did apr-fast extract a final answer (and by
which rule), is it equivalent to the ground truth (native engine, then sympy for the rest),
and does that agree with the source's ``source_label_correct`` (an LLM judge for the
ShorterBetter traces; unreliable for the DeepSeek-R1 MATH500 rows, per the data README)?

Writes every disagreement to ``--disagreements`` (JSONL) so each can be read and explained.

    .venv/bin/python benches/trace_correctness.py --disagreements bench-results/disagreements.jsonl
"""
from __future__ import annotations

import argparse
import collections
import json
from pathlib import Path

from _common import load_traces, traces_missing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--disagreements", help="write the disagreeing traces here (JSONL)")
    parser.add_argument("--no-problems", action="store_true", help="score without the problem texts")
    args = parser.parse_args(argv)
    if traces_missing():
        return 2
    import apr_fast

    rows = load_traces()
    scorer = apr_fast.APRScorer(apr_fast.RewardConfig(cas=True, cas_timeout=10.0))
    # The problem text as in training (VeRL's extra_info): drops ground-truth alternatives the
    # problem shows boxed, and rejects a boxed echo of the problem's expression.
    problems = None if args.no_problems else [r.get("problem") for r in rows]
    scores = scorer.score_batch([r["completion"] for r in rows], [r["ground_truth"] for r in rows], problems=problems)

    boxed = [("\\boxed" in r["completion"]) or ("\\fbox" in r["completion"]) for r in rows]
    with_box = sum(boxed)
    extracted_with_box = sum(1 for b, s in zip(boxed, scores) if b and s.final_answer is not None)
    rules = collections.Counter(s.final_answer_rule for s in scores if s.final_answer is not None)
    methods = collections.Counter(s.correctness_method for s in scores)
    print(f"{len(rows)} traces; {with_box} hold a \\boxed/\\fbox; a final answer was extracted from "
          f"{extracted_with_box} of them ({extracted_with_box / with_box:.2%}); "
          f"{sum(s.final_answer is not None for s in scores)} final answers in all")
    print(f"rules: {dict(rules)}")
    print(f"how correctness was decided: {dict(methods)}")

    table: collections.Counter[tuple[str, bool, bool]] = collections.Counter()
    disagreements = []
    for r, s in zip(rows, scores):
        label = bool(r["source_label_correct"])
        source = r["source_repo"].split("/")[0]
        table[(source, s.correct, label)] += 1
        if s.correct != label:
            disagreements.append({
                "source_repo": r["source_repo"], "source_path": r["source_path"], "index": r["index"],
                "model": r["model"], "dataset": r["dataset"], "label_method": r.get("label_method"),
                "ground_truth": r["ground_truth"], "final_answer": s.final_answer,
                "final_answer_rule": s.final_answer_rule, "apr_correct": s.correct,
                "source_label": label, "correctness_method": s.correctness_method,
                "correctness_detail": s.correctness_detail, "status": s.status,
                "after_think_tail": (r["after_think"] or r["completion"])[-400:],
            })
    print("\n| source | apr-fast correct & label correct | both incorrect | apr-fast only | label only | agreement |")
    print("|---|---:|---:|---:|---:|---:|")
    for source in sorted({k[0] for k in table}):
        tt, ff = table[(source, True, True)], table[(source, False, False)]
        tf, ft = table[(source, True, False)], table[(source, False, True)]
        n = tt + ff + tf + ft
        print(f"| {source} | {tt} | {ff} | {tf} | {ft} | {(tt + ff) / n:.1%} |")
    truncated = sum(d["status"] == "truncated" for d in disagreements)
    print(f"\n{len(disagreements)} disagreements, {truncated} of them on truncated responses (no "
          "</think>: the reward is 0 whatever the verdict; the verdict reads a phrase in the thinking)")
    if args.disagreements:
        out = Path(args.disagreements)
        out.parent.mkdir(parents=True, exist_ok=True)
        with out.open("w", encoding="utf-8") as f:
            for d in disagreements:
                f.write(json.dumps(d, ensure_ascii=False) + "\n")
        print(f"written to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
