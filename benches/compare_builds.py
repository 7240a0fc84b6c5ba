#!/usr/bin/env python3
"""Two builds of apr-fast timed against each other, in alternating processes.

An instruction count (``count_instructions.py``) is steady where timings drift, but it does
not always follow time: a change that keeps more memory alive can take instructions off and
still be slower (the forty-ninth stop's batch parse cache: 4.6k fewer instructions per
rollout, slower in 7 of 8 pairs). This script times the reward in one process per build, the
builds taking turns, ``--pairs`` times: each process times ``--calls`` calls of
``APRScorer.score_token_ids`` on the 2,921 traces' token ids in default mode and with
``anchors="rewarded"``, and as many calls of the outcome check (``is_correct_batch`` on new
``str`` objects of the responses) (CPU time, one worker thread, the best call of each), and
the script prints every pair, the means and how many pairs each build won. A shared VM drifts by ±30%
over minutes; pairs side by side see the same drift, and a consistent winner over 8 pairs
says more than any one run.

    .venv/bin/python benches/compare_builds.py BUILD_A BUILD_B [--pairs 8] [--calls 8]

A build is a directory that holds an importable ``apr_fast`` with its native module (a copy
of this repository's ``python/`` directory with ``libapr_fast.so`` from ``cargo build
--release --lib --features python`` copied in as ``apr_fast/_core.abi3.so``), or
``installed`` for the one this environment imports. Build both the same way: a maturin build
and a cargo build of the same code differ by a few thousand instructions per rollout.
"""
from __future__ import annotations

import argparse
import json
import pickle
import statistics
import sys
import time
from pathlib import Path
from typing import Literal

from _common import (
    TOKENIZER,
    FreshTexts,
    at_least,
    check_build_imported,
    check_builds,
    load_traces,
    pickled_for_children,
    responses_and_truths,
    run_with_build,
    token_id_arrays,
    traces_missing,
)

SETTINGS: tuple[Literal["all", "rewarded"], ...] = ("all", "rewarded")
#: The outcome check (``is_correct_batch``), timed beside the reward in the same processes.
OUTCOME = "outcome"
COLUMNS: tuple[str, ...] = (*SETTINGS, OUTCOME)


def inner(data: Path, calls: int) -> None:
    """One process: the best CPU time per rollout of each setting and of the outcome check, as
    one JSON line."""
    import apr_fast

    with open(data, "rb") as f:
        ids, gts, responses = pickle.load(f)
    vocabulary = apr_fast.Vocabulary.from_file(TOKENIZER)
    scorers = {s: apr_fast.APRScorer(apr_fast.RewardConfig(beta=5e-4, cas=False, anchors=s), vocabulary=vocabulary)
               for s in SETTINGS}
    best = {s: float("inf") for s in COLUMNS}
    fresh = FreshTexts(responses)  # new str objects before every outcome call, as a batch comes
    for _ in range(calls):
        for s, scorer in scorers.items():
            t0 = time.process_time()
            scorer.score_token_ids(ids, gts, threads=1)
            best[s] = min(best[s], time.process_time() - t0)
        fresh.renew()
        t0 = time.process_time()
        apr_fast.is_correct_batch(fresh.texts, gts, cas=False, threads=1)
        best[OUTCOME] = min(best[OUTCOME], time.process_time() - t0)
    print(json.dumps({"module": apr_fast.__file__, **{s: best[s] / len(ids) * 1e6 for s in COLUMNS}}))


def run_build(build: str, data: Path, calls: int) -> dict[str, float]:
    result: dict[str, float] = json.loads(run_with_build(build, __file__, [str(data), str(calls)]).strip().splitlines()[-1])
    check_build_imported(build, str(result.pop("module")))
    return result


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "--inner":
        inner(Path(argv[1]), int(argv[2]))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("build_a")
    parser.add_argument("build_b")
    parser.add_argument("--pairs", type=at_least(1), default=8)
    parser.add_argument("--calls", type=at_least(1), default=8, help="timed calls of each setting per process (the best counts)")
    args = parser.parse_args(argv)
    check_builds(parser, [args.build_a, args.build_b])
    if traces_missing("compare_builds.py"):
        return 2
    responses, gts = responses_and_truths(load_traces())
    ids = token_id_arrays(responses)
    names = {"A": args.build_a, "B": args.build_b}
    print(f"A = {args.build_a}\nB = {args.build_b}\n{len(ids)} rollouts; µs per rollout, CPU time, 1 worker thread, "
          f"best of {args.calls} calls per process; the builds alternate, A first")
    times: dict[str, dict[str, list[float]]] = {k: {s: [] for s in COLUMNS} for k in names}
    with pickled_for_children((ids, gts, responses)) as data:
        for pair in range(1, args.pairs + 1):
            cells = []
            for key, build in names.items():
                result = run_build(build, data, args.calls)
                for s in COLUMNS:
                    times[key][s].append(result[s])
                cells.append(f"{key}: " + ", ".join(f"{s} {result[s]:.2f}" for s in COLUMNS))
            print(f"pair {pair}: " + " | ".join(cells), flush=True)
    for s in COLUMNS:
        a, b = times["A"][s], times["B"][s]
        a_wins = sum(x < y for x, y in zip(a, b))
        label = "outcome check" if s == OUTCOME else f"anchors={s!r}"
        print(f"{label}: A {statistics.mean(a):.2f} against B {statistics.mean(b):.2f} µs on average "
              f"(A/B {statistics.mean(a) / statistics.mean(b):.3f}); A faster in {a_wins} of {len(a)} pairs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
