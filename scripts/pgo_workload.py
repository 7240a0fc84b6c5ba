#!/usr/bin/env python3
"""The workload a profile-guided build of the native core is trained on (scripts/build_pgo.sh).

Only data bundled in the repository: the 50 example traces (examples/data, MIT) and their
tokenizer. It runs what a training step and an analysis run call: the reward from token ids
(default and ``anchors="rewarded"``, the response's own final answer and the ground truth as
reference, the paper's mode), the reward from text, the outcome check, answer equivalence,
sentence splitting and cues, extraction, and the native encoder. Not the benchmark's traces:
the profile must not be fitted to what the benchmarks measure.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import apr_fast

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "examples" / "data"
ROUNDS = 3


def main() -> None:
    rows = [json.loads(line) for line in (DATA / "sample_traces.jsonl").read_text().splitlines() if line.strip()]
    responses = [r["completion"] for r in rows]
    truths = [r["ground_truth"] for r in rows]
    problems = [r.get("problem") for r in rows]
    tokenizer = DATA / "deepseek-r1-distill-qwen.tokenizer.json.gz"
    vocabulary = apr_fast.Vocabulary.from_file(tokenizer)
    encoder = apr_fast.TextEncoder.from_file(tokenizer)
    ids = [encoder.encode(text) for text in responses]
    # Truncated shapes too: the same responses cut before their end.
    cut_ids = [row[: max(1, len(row) * 2 // 3)] for row in ids]
    configs = [
        apr_fast.RewardConfig(beta=5e-4, cas=False),
        apr_fast.RewardConfig(beta=5e-4, cas=False, anchors="rewarded"),
        apr_fast.RewardConfig(beta=5e-4, cas=False, reference="ground_truth"),
        apr_fast.RewardConfig(beta=2e-4, cas=False, mode="paper"),
    ]
    # A profile of error paths would optimise the wrong code: the workload checks that it runs
    # the normal ones (the README's figures for these traces: 45 correct, 48 anchors found).
    first = apr_fast.APRScorer(configs[0], vocabulary=vocabulary).score_token_ids(ids, truths, threads=1)
    correct, anchored = sum(r.correct for r in first), sum(r.anchor_found for r in first)
    if correct < 40 or anchored < 40:
        sys.exit(f"pgo workload: only {correct} correct and {anchored} anchors found of {len(rows)}: not the normal paths")
    padded = None
    try:  # VeRL's batch: one padded 2-D array of ids and each row's length (numpy is optional)
        import numpy as np

        padded = np.zeros((len(ids), max(map(len, ids))), dtype=np.int64)
        for row, row_ids in zip(padded, ids):
            row[: len(row_ids)] = row_ids
    except ImportError:
        print("pgo workload: numpy is not installed, so no padded 2-D batch", file=sys.stderr)
    for _ in range(ROUNDS):
        for config in configs:
            scorer = apr_fast.APRScorer(config, vocabulary=vocabulary)
            scorer.score_token_ids(ids, truths, threads=1)
            if padded is not None:
                scorer.score_token_ids(padded, truths, lengths=[len(row) for row in ids], threads=1)
            scorer.score_token_ids(cut_ids, truths, threads=1)
            scorer.score_token_ids(ids, truths, problems=problems, threads=1)
            apr_fast.APRScorer(config).score_batch(responses, truths, threads=1)
        apr_fast.is_correct_batch(responses, truths, cas=False, threads=1)
        apr_fast.is_correct_batch([r[-1500:] for r in responses], truths, cas=False, threads=1)
        for truth in truths:
            apr_fast.equivalent(truth, truth, cas=False)
        for text in responses[:10]:
            apr_fast.split_sentences(text)
            apr_fast.extract_candidates(text[:4000])
        encoder.encode_batch(responses[:10])
    print(f"pgo workload: {len(rows)} traces ({correct} correct, {anchored} anchors found), {ROUNDS} rounds", file=sys.stderr)


if __name__ == "__main__":
    main()
