#!/usr/bin/env python3
"""Whether two builds of apr-fast give the same rows on the real traces, field by field.

A change meant for speed must change no result: this scores the 2,921 traces with each build,
in one child process per build, and compares every row of every configuration (the fields'
``repr``, so a float's last bit counts):

* the reward from token ids (``APRScorer.score_token_ids``) in the default and the paper's
  mode, with the final answer and with the ground truth as reference, and in both modes with
  ``anchors="rewarded"``;
* the reward from text, lengths in characters (``APRScorer.score_batch``), default mode;
* the outcome check (``is_correct_batch``, CAS off).

It prints, per configuration, ``same`` or how many rows differ, with the first differing rows'
fields side by side, and exits 1 when any row differs.

    .venv/bin/python benches/compare_rows.py BUILD_A BUILD_B [--show 3]

A build is a directory holding an importable ``apr_fast`` with its native module, or
``installed`` (see ``compare_builds.py``). The rules' accuracy on the annotated traces needs
no rerun when every row is the same.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import pickle
import sys
from pathlib import Path
from typing import Any

from _common import (
    TOKENIZER,
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

#: One row as compared: (field name, ``repr`` of its value) in field order.
Row = tuple[tuple[str, str], ...]


def as_row(obj: Any) -> Row:
    return tuple((f.name, repr(getattr(obj, f.name))) for f in dataclasses.fields(obj))


def inner(data: Path, out: Path) -> None:
    """One build: every configuration's rows, pickled to ``out``."""
    import apr_fast

    with open(data, "rb") as f:
        responses, gts, ids = pickle.load(f)
    vocabulary = apr_fast.Vocabulary.from_file(TOKENIZER)
    rows: dict[str, list[Row]] = {}
    configs = [(mode, reference, "all") for mode in ("default", "paper") for reference in ("final_answer", "ground_truth")]
    configs += [(mode, "final_answer", "rewarded") for mode in ("default", "paper")]
    for mode, reference, anchors in configs:
        config = apr_fast.RewardConfig(beta=5e-4, cas=False, mode=mode, reference=reference, anchors=anchors)
        scorer = apr_fast.APRScorer(config, vocabulary=vocabulary)
        rows[f"token ids, {mode}, reference {reference}, anchors {anchors}"] = [as_row(r) for r in scorer.score_token_ids(ids, gts)]
    text_scorer = apr_fast.APRScorer(apr_fast.RewardConfig(beta=5e-4, cas=False))
    rows["text, default, characters"] = [as_row(r) for r in text_scorer.score_batch(responses, gts)]
    rows["outcome check"] = [as_row(c) for c in apr_fast.is_correct_batch(responses, gts, cas=False)]
    with open(out, "wb") as f:
        pickle.dump(rows, f)
    print(json.dumps({"module": apr_fast.__file__}))


def rows_of(build: str, data: Path, out: Path) -> dict[str, list[Row]]:
    stdout = run_with_build(build, __file__, [str(data), str(out)])
    check_build_imported(build, json.loads(stdout.strip().splitlines()[-1])["module"])
    with open(out, "rb") as f:
        rows: dict[str, list[Row]] = pickle.load(f)
    return rows


def differences(a: Row, b: Row) -> list[str]:
    """The fields of two rows that differ, as ``name: A -> B``."""
    return [f"{name}: {va} -> {vb}" for (name, va), (_, vb) in zip(a, b) if va != vb]


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "--inner":
        inner(Path(argv[1]), Path(argv[2]))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("build_a")
    parser.add_argument("build_b")
    parser.add_argument("--show", type=at_least(0), default=3, help="differing rows printed per configuration")
    args = parser.parse_args(argv)
    check_builds(parser, [args.build_a, args.build_b])
    if traces_missing("compare_rows.py"):
        return 2
    responses, gts = responses_and_truths(load_traces())
    ids = token_id_arrays(responses)
    with pickled_for_children((responses, gts, ids)) as data:
        out = data.with_suffix(".rows")
        try:
            a, b = rows_of(args.build_a, data, out), rows_of(args.build_b, data, out)
        finally:
            out.unlink(missing_ok=True)
    print(f"A = {args.build_a}\nB = {args.build_b}\n{len(responses)} rollouts")
    differ = False
    for name, rows_a in a.items():
        rows_b = b.get(name, [])
        if len(rows_a) != len(rows_b):
            print(f"{name}: {len(rows_a)} rows against {len(rows_b)}")
            differ = True
            continue
        changed = [i for i, (ra, rb) in enumerate(zip(rows_a, rows_b)) if ra != rb]
        print(f"{name}: {'same' if not changed else f'{len(changed)} rows differ'}")
        differ |= bool(changed)
        for i in changed[: args.show]:
            print(f"  row {i}: " + "; ".join(differences(rows_a[i], rows_b[i])))
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
