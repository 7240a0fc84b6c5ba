#!/usr/bin/env python3
"""Build VeRL parquet files for APR training and validation.

Training data: DeepScaleR-format JSON (a list of {problem, answer, ...}) or a Hugging Face
dataset name (default in the paper: agentica-org/DeepScaleR-Preview-Dataset, 40k problems).
Every problem gets the paper's prompt suffix. Problems whose gold answer the rule-based engine
cannot handle are dropped, as in the paper (40k -> 33,113 there); the script reports how many
were kept and why the others were not.

Validation data: the five benchmarks of the paper (AIME 2024, AMC, MATH500, Minerva,
OlympiadBench) from a directory of DeepScaleR test-split JSON files, one parquet per benchmark.

Rows follow VeRL's RL dataset convention::

    {"data_source": ..., "prompt": [{"role": "user", "content": problem + suffix}],
     "ability": "math", "reward_model": {"style": "rule", "ground_truth": <str>},
     "extra_info": {"split": ..., "index": ..., "problem": <raw problem>,
                    "ground_truth_alternatives": <JSON list of accepted answers>}}

``ground_truth`` is always one string so that every VeRL reward function can read it and
parquet columns stay one type; benchmarks whose gold answer is a float (AMC: 142.0) are written
canonically ("142"), lists of accepted alternatives (Minerva) keep their first entry there and
the whole list in ``extra_info.ground_truth_alternatives``, which the apr-fast reward reads.

Usage::

    python train/prepare_data.py --train ../shared/data/train/deepscaler_head803.json \\
        --benchmarks ../shared/data/benchmarks --out-dir ~/data/apr
"""
from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path
from typing import Any, Iterable

PROMPT_SUFFIX = "Please reason step by step, and put your final answer within \\boxed{}."

# file name in the benchmark directory -> data_source written to the parquet
BENCHMARKS = {
    "aime.json": "aime2024",
    "amc.json": "amc",
    "math.json": "math500",
    "minerva.json": "minerva",
    "olympiad_bench.json": "olympiad_bench",
}


def load_problems(source: str) -> list[dict[str, Any]]:
    """Rows with at least ``problem`` and ``answer`` from a JSON/JSONL file or a hub dataset."""
    path = Path(source).expanduser()
    if path.exists():
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".jsonl":
            return [json.loads(line) for line in text.splitlines() if line.strip()]
        data = json.loads(text)
        if not isinstance(data, list):
            raise SystemExit(f"{path}: expected a JSON list of problems, got {type(data).__name__}")
        return data
    try:
        import datasets
    except ImportError:  # pragma: no cover - depends on the environment
        raise SystemExit(f"{source!r} is not a file and the `datasets` package is not installed")
    return [dict(row) for row in datasets.load_dataset(source, split="train")]


def make_row(problem: str, answer: Any, data_source: str, split: str, index: int) -> dict[str, Any]:
    from apr_fast import ground_truth_alternatives

    alternatives = ground_truth_alternatives(answer)
    return {
        "data_source": data_source,
        "prompt": [{"role": "user", "content": f"{problem.strip()} {PROMPT_SUFFIX}"}],
        "ability": "math",
        "reward_model": {"style": "rule", "ground_truth": alternatives[0] if alternatives else ""},
        "extra_info": {
            "split": split,
            "index": index,
            "problem": problem,
            "ground_truth_alternatives": json.dumps(alternatives, ensure_ascii=False),
        },
    }


def build(
    problems: Iterable[dict[str, Any]], data_source: str, split: str, filter_golds: bool
) -> tuple[list[dict[str, Any]], collections.Counter[str]]:
    """Rows for the problems, and a count of why problems were kept or dropped."""
    from apr_fast import gold_support

    rows: list[dict[str, Any]] = []
    reasons: collections.Counter[str] = collections.Counter()
    for i, item in enumerate(problems):
        problem, answer = item.get("problem"), item.get("answer")
        if not isinstance(problem, str) or not problem.strip() or answer is None:
            reasons["dropped: missing problem or answer"] += 1
            continue
        support = gold_support(answer)
        if filter_golds and not support.supported:
            reasons[f"dropped: {support.reason}"] += 1
            continue
        reasons[f"kept: {support.reason}"] += 1
        rows.append(make_row(problem, answer, data_source, split, i))
    return rows, reasons


def write_parquet(rows: list[dict[str, Any]], path: Path) -> None:
    import pandas as pd

    path.parent.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(rows).to_parquet(path, index=False)


def report(name: str, total: int, rows: list[dict[str, Any]], reasons: collections.Counter[str]) -> None:
    print(f"{name}: kept {len(rows)} of {total}", file=sys.stderr)
    for reason, n in sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"    {n:6d}  {reason}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--train", help="DeepScaleR-format JSON/JSONL file or Hugging Face dataset name")
    parser.add_argument("--train-source", default="deepscaler", help="data_source written for training rows")
    parser.add_argument("--benchmarks", help="directory with aime.json, amc.json, math.json, minerva.json, olympiad_bench.json")
    parser.add_argument("--out-dir", required=True, help="where to write the parquet files")
    parser.add_argument("--no-filter", action="store_true", help="keep problems whose gold answer the engine cannot handle")
    args = parser.parse_args(argv)
    if not args.train and not args.benchmarks:
        parser.error("give --train and/or --benchmarks")
    out_dir = Path(args.out_dir).expanduser()

    if args.train:
        problems = load_problems(args.train)
        rows, reasons = build(problems, args.train_source, "train", filter_golds=not args.no_filter)
        write_parquet(rows, out_dir / "train.parquet")
        report(f"train ({args.train})", len(problems), rows, reasons)

    if args.benchmarks:
        bench_dir = Path(args.benchmarks).expanduser()
        for file_name, source in BENCHMARKS.items():
            path = bench_dir / file_name
            if not path.exists():
                print(f"{source}: {path} not found, skipped", file=sys.stderr)
                continue
            problems = load_problems(str(path))
            # Validation keeps every problem: filtering the test set would flatter the model.
            rows, reasons = build(problems, source, "test", filter_golds=False)
            write_parquet(rows, out_dir / f"val_{source}.parquet")
            report(f"val {source}", len(problems), rows, reasons)
    print(f"wrote parquet files to {out_dir}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
