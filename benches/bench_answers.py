#!/usr/bin/env python3
"""Outcome checking speed: final-answer extraction + equivalence with the ground truth, per
rollout and per core, side by side in one process on the real traces.

* apr-fast: ``APRScorer.score_batch`` is the whole reward; for this issue's comparison the
  outcome check alone is ``is_correct_batch`` (final-answer extraction + equivalence with every
  ground-truth alternative in one native call; 1 thread, CAS off so every rollout is decided
  natively or counted as undecided); ``is_correct`` one rollout per call shows the per-call cost;
* verl ``math_dapo.compute_score`` (the outcome reward of verl's DAPO recipe, last 300
  characters, string comparison after normalisation);
* HuggingFace math-verify ``parse`` + ``verify`` on the whole response (subset: it is slow).

Times are process CPU time, best of ``--repeat`` runs (robust when other processes share the
machine), each run on new ``str`` objects of the same texts, as a real batch comes (``FreshTexts``:
CPython keeps a string's UTF-8 once made, which would spare repeated runs the conversion); the thread scaling of ``is_correct_batch`` is wall time, 1 and 2 workers in turns with
a machine check. Agreement between the checkers is reported too: speed only matters if the answers
are right.

    .venv/bin/python benches/bench_answers.py [--repeat 3] [--math-verify-rollouts 300] [--shapes]

``--shapes`` also times the outcome check on the traces of each shape apart (ASCII or not, with
or without ``</think>``): what reading costs shows as the gap between shapes, and what the rest
costs as the time of the ASCII responses with the tag, which cost nothing to read. Beside it,
in the same turns, each shape's final answers found alone (the floor under the check: reading
and the final-answer rule, before any answer is parsed or compared) and ``math_dapo`` on the
same rollouts.
"""
from __future__ import annotations

import argparse
import os
import sys
import warnings

from typing import Any, Callable

from _common import (
    FreshTexts, at_least, ceiling_note, interleaved_best, interleaved_wall_best, load_traces, machine_scaling_fns,
    response_shape, responses_and_truths, traces_missing,
)


#: The row the others are compared with.
BASE_ROW = "apr-fast outcome check (is_correct_batch, native)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=at_least(1), default=3)
    parser.add_argument("--math-verify-rollouts", type=at_least(0), default=300,
                        help="rollouts for math-verify (it takes milliseconds each; 0 skips it)")
    parser.add_argument("--shapes", action="store_true",
                        help="also time the outcome check on each shape of response apart, beside the final "
                             "answers found alone (its floor) and math_dapo on the same rollouts")
    parser.add_argument("--thread-repeat", type=at_least(1), default=15,
                        help="rounds of the 1- and 2-worker runs, in turns (best wall time of each)")
    args = parser.parse_args(argv)
    if traces_missing():
        return 2

    import apr_fast

    rows = load_traces()
    responses, gts = responses_and_truths(rows)
    n = len(rows)
    mb = sum(len(r.encode()) for r in responses) / 1e6
    # New str objects before every timed call, as a real batch comes (see FreshTexts).
    fresh = FreshTexts(responses)

    def apr_outcome() -> list[bool]:
        return [c.correct for c in apr_fast.is_correct_batch(fresh.texts, gts, cas=False, threads=1)]

    scorer = apr_fast.APRScorer(apr_fast.RewardConfig(cas=False))
    timed: dict[str, tuple[Callable[[], Any], int]] = {
        BASE_ROW: (apr_outcome, n),
        "apr-fast full APR reward (anchor + reward, characters)": (
            lambda: scorer.score_batch(fresh.texts, gts, threads=1), n),
        # An evaluation loop that checks one response at a time: the per-call cost.
        "apr-fast is_correct, one call per rollout": (
            lambda: [apr_fast.is_correct(r, g, cas=False).correct for r, g in zip(fresh.texts, gts)], n),
    }
    dapo_name = "verl math_dapo.compute_score"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from verl.utils.reward_score import math_dapo
        timed[dapo_name] = (lambda: [math_dapo.compute_score(r, g) for r, g in zip(fresh.texts, gts)], n)
    except ImportError:
        print("verl not installed: math_dapo skipped (scripts/setup.sh test verl)", file=sys.stderr)
    mv_name = None
    if args.math_verify_rollouts == 0:
        print("math-verify skipped (--math-verify-rollouts 0)", file=sys.stderr)
    else:
        try:
            from math_verify import parse, verify

            k = min(args.math_verify_rollouts, n)
            step = max(n // k, 1)
            subset = list(range(0, n, step))[:k]

            def run_mv() -> list[bool]:
                out = []
                for i in subset:
                    gold = parse("$" + str(gts[i]) + "$")
                    out.append(bool(verify(gold, parse(fresh.texts[i]))))
                return out

            mv_name = f"math-verify parse + verify ({len(subset)} rollouts)"
            timed[mv_name] = (run_mv, len(subset))
        except ImportError:
            print("math-verify not installed: skipped (pip install math-verify)", file=sys.stderr)

    # In turns (see interleaved_best): the ratios between rows are what the table is for.
    times = interleaved_best(args.repeat, {name: fn for name, (fn, _) in timed.items()},
                             once=frozenset({mv_name} if mv_name else ()), before=fresh.renew)
    rows_out = [(name, times[name][0], count) for name, (_, count) in timed.items()]
    t_apr, apr_correct = times[BASE_ROW]
    scores = times["apr-fast full APR reward (anchor + reward, characters)"][1]
    dapo_correct = [bool(o["acc"]) for o in times[dapo_name][1]] if dapo_name in times else None
    mv_correct = dict(zip(subset, times[mv_name][1])) if mv_name is not None else None

    # Thread scaling of the whole call (wall time, in turns with the machine check): its
    # serial parts are the Python wrapper, reading the arguments, building the result objects,
    # numbering the distinct texts and freeing them.
    by_workers = interleaved_wall_best(args.thread_repeat, {
        "1": lambda: apr_fast.is_correct_batch(fresh.texts, gts, cas=False, threads=1),
        "2": lambda: apr_fast.is_correct_batch(fresh.texts, gts, cas=False, threads=2),
        **machine_scaling_fns(),
    }, before=fresh.renew)

    base = t_apr / n
    print(f"{n} real rollouts, {mb:.1f} MB; os.cpu_count()={os.cpu_count()}; "
          f"load {os.getloadavg()[0]:.2f}; CPU time, 1 thread, best of {args.repeat}\n")
    print("| checker | µs per rollout | rollouts/s per core | apr-fast outcome check is |")
    print("|---|---:|---:|---:|")
    for name, t, count in rows_out:
        per = t / count
        relative = "1.0x" if name == BASE_ROW else f"{per / base:,.1f}x faster"
        print(f"| {name} | {per * 1e6:,.1f} | {1 / per:,.0f} | {relative} |")

    print(f"\nThreads (is_correct_batch, all {n} rollouts, wall time, best of {args.thread_repeat} rounds in "
          f"turns): 1 worker {by_workers['1'] * 1e3:.1f} ms, 2 workers {by_workers['2'] * 1e3:.1f} ms, "
          f"speed-up {by_workers['1'] / by_workers['2']:.2f}x")
    print(ceiling_note(by_workers))
    if args.shapes:
        print_shapes(apr_fast, responses, gts, args.repeat, t_apr / n,
                     math_dapo.compute_score if dapo_name in times else None)
    print("\nAgreement (rollouts judged correct):")
    print(f"- apr-fast: {sum(apr_correct)} / {n}")
    print(f"- apr-fast full reward (correct): {sum(s.correct for s in scores)} / {n}")
    if dapo_correct is not None:
        both = sum(a == d for a, d in zip(apr_correct, dapo_correct))
        print(f"- math_dapo: {sum(dapo_correct)} / {n}; same verdict as apr-fast on {both} ({both / n:.1%})")
    if mv_correct is not None:
        same = sum(apr_correct[i] == v for i, v in mv_correct.items())
        print(f"- math-verify: {sum(mv_correct.values())} / {len(mv_correct)}; same verdict as apr-fast on "
              f"{same} of {len(mv_correct)} ({same / len(mv_correct):.1%})")
    return 0


def print_shapes(apr_fast: Any, responses: list[str], gts: list[Any], repeat: int, whole: float,
                 dapo_score: Callable[[str, Any], object] | None) -> None:
    """The outcome check on the responses of each shape apart (new objects every run, CPU
    time, best of ``repeat`` in turns): per rollout of the shape, and per rollout of the whole
    batch (the shares add up to a little more than the batch: each call has its fixed cost).

    In the same turns, each shape's final answers found alone (``extract_final_batch``, 1
    thread: reading the responses and the final-answer rule, with the answer objects, before
    any answer is parsed or compared), and ``math_dapo`` on the shape (``dapo_score``, None
    without verl). The outcome check does all the work of the first, so the first is a floor
    under it: where that floor alone is above a tenth of ``math_dapo``'s time, no speed-up of
    the judging reaches the issue's 10x on that shape."""
    groups: dict[str, list[int]] = {}
    for i, r in enumerate(responses):
        groups.setdefault(response_shape(r), []).append(i)
    fresh = {shape: FreshTexts([responses[i] for i in sel]) for shape, sel in groups.items()}
    truths = {shape: [gts[i] for i in sel] for shape, sel in groups.items()}

    def check(shape: str) -> Callable[[], object]:
        return lambda: apr_fast.is_correct_batch(fresh[shape].texts, truths[shape], cas=False, threads=1)

    def find(shape: str) -> Callable[[], object]:
        return lambda: apr_fast.extract_final_batch(fresh[shape].texts, threads=1)

    def dapo(shape: str, score: Callable[[str, Any], object]) -> Callable[[], object]:
        return lambda: [score(r, g) for r, g in zip(fresh[shape].texts, truths[shape])]

    def renew() -> None:
        for f in fresh.values():
            f.renew()

    fns: dict[str, Callable[[], object]] = {}
    for shape in groups:
        fns[f"check {shape}"] = check(shape)
        fns[f"find {shape}"] = find(shape)
        if dapo_score is not None:
            fns[f"dapo {shape}"] = dapo(shape, dapo_score)
    times = interleaved_best(repeat, fns, before=renew)
    n = len(responses)
    print(f"\nBy shape (is_correct_batch on each shape's rollouts alone; the final answers found alone by "
          f"extract_final_batch; math_dapo on the same rollouts; CPU time, 1 thread, best of {repeat} in turns; "
          f"the whole batch {whole * 1e6:.2f} µs per rollout):\n")
    print("| responses | rollouts | outcome check, µs per rollout | of the batch | final answers found alone "
          "| of the batch | math_dapo | math_dapo / outcome check |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    floor = dapo_total = 0.0
    for shape, sel in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        t, f = times[f"check {shape}"][0], times[f"find {shape}"][0]
        floor += f
        d = times[f"dapo {shape}"][0] if dapo_score is not None else None
        dapo_cells = "| – | – |" if d is None else f"| {d / len(sel) * 1e6:.2f} | {d / t:.2f}x |"
        dapo_total += d or 0.0
        print(f"| {shape} | {len(sel)} | {t / len(sel) * 1e6:.2f} | {t / n * 1e6:.2f} "
              f"| {f / len(sel) * 1e6:.2f} | {f / n * 1e6:.2f} {dapo_cells}")
    print(f"\nThe final answers found alone, all shapes: {floor / n * 1e6:.2f} µs per rollout of the batch.")
    if dapo_score is not None:
        print(f"10x math_dapo is {dapo_total / n / 10 * 1e6:.2f} µs per rollout (math_dapo by shape, summed; "
              f"{dapo_total / n * 1e6:.2f} µs per rollout).")


if __name__ == "__main__":
    raise SystemExit(main())
