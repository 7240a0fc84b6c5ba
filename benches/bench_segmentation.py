"""Throughput of sentence splitting + cue matching on the shared traces, native vs reference.

Runs in one process, on the ``thinking`` text of every trace in
``<repo>/../shared/data/traces/traces.jsonl.gz``:

- native, lean:     ``segment_batch(texts, threads=1)`` -> one ``Segmentation`` per text
- native, objects:  ``find_cues_batch(texts, threads=1)`` -> ``SentenceCues``/``CueHit`` objects
- native, split:    ``split_sentences_batch(texts, threads=1)`` -> ``Sentence`` objects
- reference:        ``apr_fast._reference.segmentation.find_cues`` (pure Python + ``regex``)
- threads:          the lean and object batches with ``threads=1`` and ``threads=2`` (wall
                    time, best of ``--thread-repeat`` rounds in which the runs take turns),
                    beside a machine check in the same rounds (hashing on 1 and 2 threads)

Single-thread figures use process CPU time (robust when other processes share the machine);
the thread speed-up uses wall time. Prints a markdown table.

    .venv/bin/python benches/bench_segmentation.py [--repeat 5] [--reference-repeat 1] [--thread-repeat 30]
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
import time
from pathlib import Path
from typing import Callable

import apr_fast
from apr_fast._reference import segmentation as reference
from _common import at_least, ceiling_note, interleaved_wall_best, machine_scaling_fns

TRACES = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "traces" / "traces.jsonl.gz"


def best_of(repeat: int, fn: Callable[[], object], clock: Callable[[], float]) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = clock()
        fn()
        best = min(best, clock() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=at_least(1), default=5, help="runs per native measurement (best is kept)")
    parser.add_argument("--reference-repeat", type=at_least(1), default=1, help="runs of the reference")
    parser.add_argument("--thread-repeat", type=at_least(1), default=30,
                        help="rounds of the 1- and 2-thread runs, in turns (best wall time of each; "
                             "a round takes about 0.6 s, so 30 rounds span some 20 s of a shared "
                             "machine's phases, and the best of each is its undisturbed time)")
    parser.add_argument("--traces", type=Path, default=TRACES)
    args = parser.parse_args()
    if not args.traces.exists():
        sys.exit(f"no traces at {args.traces}")
    with gzip.open(args.traces, "rt", encoding="utf-8") as f:
        texts = [row["thinking"] for row in map(json.loads, f)]
    megabytes = sum(len(t.encode("utf-8")) for t in texts) / 1e6
    load_before = os.getloadavg()

    cpu = time.process_time
    matcher = apr_fast.CueMatcher()
    ref_matcher = reference.CueMatcher()
    segments = apr_fast.segment_batch(texts, threads=1)
    sentences = sum(len(s) for s in segments)
    hits = sum(sum(s.conclusion) + sum(s.verification) for s in segments)

    rows: list[tuple[str, float]] = []
    rows.append(("native `segment_batch` (lean), 1 thread", best_of(args.repeat, lambda: apr_fast.segment_batch(texts, matcher=matcher, threads=1), cpu)))
    rows.append(("native `find_cues_batch` (objects), 1 thread", best_of(args.repeat, lambda: apr_fast.find_cues_batch(texts, threads=1), cpu)))
    rows.append(("native `split_sentences_batch` (objects, no cues), 1 thread", best_of(args.repeat, lambda: apr_fast.split_sentences_batch(texts, threads=1), cpu)))
    ref_time = best_of(args.reference_repeat, lambda: [reference.find_cues(t, ref_matcher) for t in texts], cpu)
    rows.append(("reference (Python `regex`), sentences + cues", ref_time))

    # In turns: a 1-thread and a 2-thread run side by side see the same phases of a shared
    # machine (blocks of runs made the ratio swing between 1.6x and 1.9x from run to run).
    walls = interleaved_wall_best(args.thread_repeat, {
        "lean 1": lambda: apr_fast.segment_batch(texts, matcher=matcher, threads=1),
        "lean 2": lambda: apr_fast.segment_batch(texts, matcher=matcher, threads=2),
        "objects 1": lambda: apr_fast.find_cues_batch(texts, threads=1),
        "objects 2": lambda: apr_fast.find_cues_batch(texts, threads=2),
        **machine_scaling_fns(),
    })
    lean_1, lean_2, obj_1, obj_2 = (walls[k] for k in ("lean 1", "lean 2", "objects 1", "objects 2"))
    load_after = os.getloadavg()

    print(f"{len(texts)} traces, {megabytes:.1f} MB of thinking text, {sentences} sentences, "
          f"{hits} sentences with a cue flag; os.cpu_count()={os.cpu_count()}, "
          f"load average {load_before[0]:.2f} before / {load_after[0]:.2f} after\n")
    print("| path | CPU time (s) | MB/s per core | vs reference |")
    print("|---|---:|---:|---:|")
    for name, seconds in rows:
        print(f"| {name} | {seconds:.3f} | {megabytes / seconds:.1f} | {ref_time / seconds:.1f}x |")
    print()
    print("| batch, all traces | 1 thread (s, wall) | 2 threads (s, wall) | speed-up |")
    print("|---|---:|---:|---:|")
    print(f"| `segment_batch` (lean) | {lean_1:.3f} | {lean_2:.3f} | {lean_1 / lean_2:.2f}x |")
    print(f"| `find_cues_batch` (objects) | {obj_1:.3f} | {obj_2:.3f} | {obj_1 / obj_2:.2f}x |")
    print(f"\n{ceiling_note(walls)}")


if __name__ == "__main__":
    main()
