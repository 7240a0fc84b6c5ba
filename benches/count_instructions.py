#!/usr/bin/env python3
"""Instructions per rollout of the outcome check or of the full reward, counted by valgrind.

A shared VM's speed drifts by ±30% over minutes, so a change of a few percent does not show in
timings; instruction counts do not drift (the same binary on the same inputs counts the same
whatever else the machine is doing). This runs one batch call on the 2,921 real traces under
``valgrind --tool=callgrind`` once and three times (after a warm-up call each, in one process
for the whole Python program), and prints the difference divided by two and by the number of
rollouts: the instructions of one batch call per rollout, the interpreter's and the native
module's together, loading excluded. Each outcome call gets new ``str`` objects, as a real
batch comes (reading the responses' text is part of the count).

    .venv/bin/python benches/count_instructions.py outcome   # is_correct_batch, CAS off, 1 thread
    .venv/bin/python benches/count_instructions.py reward    # APRScorer.score_token_ids, default mode
    .venv/bin/python benches/count_instructions.py reward-rewarded   # the same, anchors="rewarded"
    .venv/bin/python benches/count_instructions.py reward-rewarded --kind "ok, incorrect"   # one kind
    .venv/bin/python benches/count_instructions.py reward --top 30   # and where they go, by function
    .venv/bin/python benches/count_instructions.py outcome --shape "ASCII, with </think>"   # one shape

Needs valgrind (``apt-get install valgrind``). Compare two builds by running this once in each
(``PYTHONPATH`` pointing at the other build's ``python/`` directory selects it). Takes about a
minute for ``outcome`` and two for ``reward``.
"""
from __future__ import annotations

import argparse
import os
import pickle
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from _common import (
    TOKENIZER, at_least, load_traces, pickled_for_children, response_shape, responses_and_truths, rollout_kind,
    token_id_arrays, traces_missing,
)


#: The most calls one counted run makes after its warm-up call.
MAX_RUNS = 3


def inner(what: str, runs: int, data: Path) -> None:
    """The program valgrind counts: a warm-up call, then `runs` calls."""
    import apr_fast

    with open(data, "rb") as f:
        responses, gts, ids = pickle.load(f)
    if what == "outcome":
        # New str objects for every call, as a real batch comes (see _common.FreshTexts); the
        # same number of copies whatever `runs` is, so that the difference counts calls only.
        copies = [[r.encode().decode() for r in responses] for _ in range(MAX_RUNS + 1)]

        def call() -> object:
            return [c.correct for c in apr_fast.is_correct_batch(copies.pop(), gts, cas=False, threads=1)]
    else:
        vocabulary = apr_fast.Vocabulary.from_file(TOKENIZER)
        anchors = "rewarded" if what == "reward-rewarded" else "all"
        scorer = apr_fast.APRScorer(apr_fast.RewardConfig(beta=5e-4, cas=False, anchors=anchors), vocabulary=vocabulary)

        def call() -> object:
            return scorer.score_token_ids(ids, gts, threads=1)
    call()
    assert runs <= MAX_RUNS
    for _ in range(runs):
        call()


def count(what: str, runs: int, data: Path, functions: str | None = None) -> tuple[int, dict[str, int]]:
    """The program's instructions, and with ``functions`` ("self" or "inclusive") each
    function's, as ``callgrind_annotate`` names them."""
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/callgrind.out",
             sys.executable, __file__, "--inner", what, str(runs), str(data)],
            capture_output=True, text=True, check=False,
            # numpy's OpenBLAS starts worker threads that spin while idle, and valgrind counts
            # their instructions too: up to 2k per rollout from run to run. One thread, none.
            env={**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"},
        )
        m = re.search(r"Collected : (\d+)", out.stderr)
        if out.returncode != 0 or m is None:
            raise SystemExit(f"valgrind failed ({out.returncode}):\n{out.stderr[-2000:]}")
        return int(m.group(1)), (by_function(Path(tmp) / "callgrind.out", functions == "inclusive") if functions else {})


def by_function(profile: Path, inclusive: bool) -> dict[str, int]:
    """Instructions per function of a callgrind profile (``callgrind_annotate``'s table; a
    function inlined from several files is summed over them)."""
    table = subprocess.run(
        ["callgrind_annotate", f"--inclusive={'yes' if inclusive else 'no'}", "--threshold=100", str(profile)],
        capture_output=True, text=True, check=True,
    ).stdout
    counts: dict[str, int] = {}
    for line in table.splitlines():
        m = re.match(r"\s*([\d,]+) (?:\([^)]*\))?\s*(.+)$", line)
        if m is None or "PROGRAM TOTALS" in line:
            continue
        # "file:function [object]" -> "function".
        name = re.sub(r"\s*\[[^\]]*\]$", "", m.group(2)).split(":", 1)[-1]
        counts[name] = counts.get(name, 0) + int(m.group(1).replace(",", ""))
    return counts


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "--inner":
        inner(argv[1], int(argv[2]), Path(argv[3]))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("outcome", "reward", "reward-rewarded"))
    parser.add_argument("--kind", metavar="KIND",
                        help="count only the rollouts of this kind, as `bench_reward.py --by-kind` names them "
                             "(\"ok, incorrect\", \"truncated, incorrect, no final answer\", ...; from the default "
                             "reward's rows); the count is per rollout of the kind")
    parser.add_argument("--shape", metavar="SHAPE",
                        help="count only the rollouts of this shape, as `bench_answers.py --shapes` names them "
                             "(\"ASCII, with </think>\", \"not ASCII, without </think>\", ...: what reading them "
                             "costs); the count is per rollout of the shape")
    parser.add_argument("--top", type=at_least(0), default=0, metavar="N",
                        help="also the N functions with the most instructions per rollout (the same difference of "
                             "one and three calls, per function)")
    parser.add_argument("--inclusive", action="store_true", help="with --top: a function's callees counted in it")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("valgrind not found: apt-get install valgrind", file=sys.stderr)
        return 2
    if traces_missing():
        return 2
    import apr_fast

    responses, gts = responses_and_truths(load_traces())
    if args.shape is not None:
        shapes = [response_shape(r) for r in responses]
        keep = [i for i, shape in enumerate(shapes) if shape == args.shape]
        if not keep:
            parser.error(f"no rollout is of the shape {args.shape!r}; the shapes are {sorted(set(shapes))}")
        responses, gts = [responses[i] for i in keep], [gts[i] for i in keep]
    # The outcome check reads text only; the ids tell the kinds apart.
    ids = token_id_arrays(responses) if args.what != "outcome" or args.kind is not None else []
    if args.kind is not None:
        scorer = apr_fast.APRScorer(apr_fast.RewardConfig(beta=5e-4, cas=False), vocabulary=apr_fast.Vocabulary.from_file(TOKENIZER))
        kinds = [rollout_kind(row) for row in scorer.score_token_ids(ids, gts)]
        keep = [i for i, kind in enumerate(kinds) if kind == args.kind]
        if not keep:
            parser.error(f"no rollout is of the kind {args.kind!r}; the kinds are {sorted(set(kinds))}")
        responses, gts, ids = [responses[i] for i in keep], [gts[i] for i in keep], [ids[i] for i in keep]
    functions = ("inclusive" if args.inclusive else "self") if args.top > 0 else None
    with pickled_for_children((responses, gts, ids if args.what != "outcome" else None)) as data:
        (one, one_by), (three, three_by) = count(args.what, 1, data, functions), count(args.what, 3, data, functions)
    n = len(responses)
    per_rollout = (three - one) / 2 / n
    of_subset = "".join(f" of the {what} {value!r}" for what, value in (("shape", args.shape), ("kind", args.kind))
                      if value is not None)
    print(f"{args.what}: {per_rollout:,.0f} instructions per rollout{of_subset} "
          f"({n} rollouts; apr_fast {apr_fast.__version__} from {Path(apr_fast.__file__).parent})")
    if functions:
        per_function = {name: (three_by.get(name, 0) - one_by.get(name, 0)) / 2 / n for name in three_by.keys() | one_by.keys()}
        print(f"\nthe {args.top} functions with the most ({functions}) instructions per rollout:")
        for name, k in sorted(per_function.items(), key=lambda kv: -kv[1])[: args.top]:
            print(f"{k:10,.0f}  {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
