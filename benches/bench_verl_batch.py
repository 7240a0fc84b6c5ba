#!/usr/bin/env python3
"""How a VeRL batch of token ids reaches the reward: one torch row view per rollout, or the
padded ``responses`` tensor itself with its lengths (what ``APRRewardManagerLegacy`` passes).

The real traces are tokenized with the shared tokenizer; rollouts of at most ``--width`` tokens
are padded into one ``[batch, width]`` int64 tensor, as VeRL's ``DataProto`` holds them. Both
forms are scored with 1 and 2 worker threads; the four runs take turns for ``--repeat``
rounds and the best wall time of each is kept, so that a phase of a shared machine hits all of
them. The scores of both forms are checked to be identical.

    .venv/bin/python benches/bench_verl_batch.py [--repeat 9] [--width 8192]
"""
from __future__ import annotations

import argparse

from _common import TOKENIZER, at_least, ceiling_note, interleaved_wall_best, load_traces, machine_scaling_fns, traces_missing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=at_least(1), default=9)
    parser.add_argument("--width", type=at_least(1), default=8192, help="padded response length (VeRL's max_response_length)")
    args = parser.parse_args(argv)
    if traces_missing():
        return 2
    import numpy as np
    import tokenizers
    import torch

    import apr_fast

    rows = load_traces()
    hf = tokenizers.Tokenizer.from_file(str(TOKENIZER))
    encoded = hf.encode_batch([r["completion"] for r in rows], add_special_tokens=False)
    kept = [(e.ids, r["ground_truth"]) for e, r in zip(encoded, rows) if len(e.ids) <= args.width]
    pad = hf.token_to_id("<｜end▁of▁sentence｜>") or 0
    batch = np.full((len(kept), args.width), pad, dtype=np.int64)
    for i, (ids, _) in enumerate(kept):
        batch[i, : len(ids)] = ids
    responses = torch.from_numpy(batch)
    lengths = [len(ids) for ids, _ in kept]
    gts = [g for _, g in kept]
    row_views = [responses[i, :n] for i, n in enumerate(lengths)]

    scorer = apr_fast.APRScorer(apr_fast.RewardConfig(cas=False),
                                vocabulary=apr_fast.Vocabulary.from_file(str(TOKENIZER)))
    by_rows = scorer.score_token_ids(row_views, gts, threads=1)
    assert scorer.score_token_ids(responses, gts, lengths=lengths, threads=2) == by_rows
    times = interleaved_wall_best(args.repeat, {
        "rows, 1 thread": lambda: scorer.score_token_ids(row_views, gts, threads=1),
        "rows, 2 threads": lambda: scorer.score_token_ids(row_views, gts, threads=2),
        "batch, 1 thread": lambda: scorer.score_token_ids(responses, gts, lengths=lengths, threads=1),
        "batch, 2 threads": lambda: scorer.score_token_ids(responses, gts, lengths=lengths, threads=2),
        **machine_scaling_fns(),
    })
    n = len(kept)
    print(f"{n} of {len(rows)} real rollouts fit in {args.width} tokens; default mode, CAS off; "
          f"wall time, best of {args.repeat} rounds in turns\n")
    print("| token ids given as | 1 thread (ms) | 2 threads (ms) | µs per rollout, 1 thread | speed-up |")
    print("|---|---:|---:|---:|---:|")
    for name, label in [("rows", "one torch row view per rollout"), ("batch", "the padded tensor + lengths")]:
        one, two = times[f"{name}, 1 thread"], times[f"{name}, 2 threads"]
        print(f"| {label} | {one * 1e3:.1f} | {two * 1e3:.1f} | {one / n * 1e6:.1f} | {one / two:.2f}x |")
    print(f"\n{ceiling_note(times)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
