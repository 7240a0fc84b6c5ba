#!/usr/bin/env python3
"""How a VeRL batch of token ids reaches the reward: one torch row view per rollout, or the
padded ``responses`` tensor itself with its lengths (what ``APRRewardManagerLegacy`` passes).

The real traces are tokenized with the shared tokenizer; rollouts of at most ``--width`` tokens
are padded into one ``[batch, width]`` int64 tensor, as VeRL's ``DataProto`` holds them. Both
forms are scored with 1 and 2 worker threads; the four runs take turns for ``--repeat``
rounds and the best wall time of each is kept, so that a phase of a shared machine hits all of
them. The scores of both forms are checked to be identical.

    .venv/bin/python benches/bench_verl_batch.py [--repeat 9] [--width 8192]

``--managers`` times, instead, the same batch as a real verl ``DataProto`` through verl's
batch reward managers, 1 thread: verl's own DAPO manager (decoding every response, then
``math_dapo``), and apr-fast's (``reward_model.reward_manager=apr``) with its default
``anchors=by_split``, once with the rows marked as training rows (``extra_info.split`` =
``train``: the anchor searched only where the reward needs it) and once as validation rows
(every anchor searched). The rewards of both markings are checked to be identical.

``--reward-loop`` times verl 0.9's primary path the same way: one ``DataProto`` per rollout, as
``AgentLoopWorker._compute_score`` builds it (the response unpadded, its attention mask all
ones), each handed to ``run_single`` of verl's DAPO reward-loop manager or of apr-fast's
(``reward.reward_manager.name=apr``), all of a batch awaited together as the reward loop
worker awaits them. CPU time of the whole process per rollout: verl's manager decodes in the
event loop's executor threads.
"""
from __future__ import annotations

import argparse
from typing import Any

from _common import TOKENIZER, at_least, ceiling_note, interleaved_wall_best, load_traces, machine_scaling_fns, traces_missing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=at_least(1), default=9)
    parser.add_argument("--width", type=at_least(1), default=8192, help="padded response length (VeRL's max_response_length)")
    parser.add_argument("--managers", action="store_true",
                        help="time verl's DAPO manager and apr-fast's on a DataProto, training and validation rows")
    parser.add_argument("--reward-loop", action="store_true",
                        help="time verl's DAPO reward-loop manager and apr-fast's, one DataProto per rollout")
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
    if args.managers:
        return time_managers(args.repeat, responses, lengths, gts)
    if args.reward_loop:
        return time_reward_loop(args.repeat, [ids for ids, _ in kept], gts)

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


def time_managers(repeat: int, responses: Any, lengths: list[int], gts: list[Any]) -> int:
    """verl's DAPO manager against apr-fast's batch manager on training and validation rows."""
    import numpy as np
    import torch
    import transformers
    from verl import DataProto
    from verl.workers.reward_manager.dapo import DAPORewardManager

    from apr_fast.verl.legacy import APRBatchRewardManager

    tokenizer = transformers.PreTrainedTokenizerFast(
        tokenizer_file=str(TOKENIZER), eos_token="<｜end▁of▁sentence｜>", pad_token="<｜end▁of▁sentence｜>")
    n, width = responses.shape
    prompts = torch.full((n, 1), tokenizer.convert_tokens_to_ids("<think>"), dtype=torch.int64)
    valid = torch.arange(width).unsqueeze(0) < torch.tensor(lengths).unsqueeze(1)
    mask = torch.cat([torch.ones((n, 1), dtype=torch.int64), valid.to(torch.int64)], dim=1)

    def batch(split: str) -> Any:
        return DataProto.from_dict(
            tensors={"prompts": prompts, "responses": responses, "attention_mask": mask},
            non_tensors={
                # "math_dapo": verl's default_compute_score sends the row to math_dapo.compute_score.
                "data_source": np.array(["math_dapo"] * n, dtype=object),
                "reward_model": np.array([{"ground_truth": g, "style": "rule"} for g in gts], dtype=object),
                "extra_info": np.array([{"split": split, "index": i} for i in range(n)], dtype=object),
            },
        )

    training, validation = batch("train"), batch("test")
    dapo = DAPORewardManager(tokenizer, num_examine=0)
    apr = APRBatchRewardManager(tokenizer, cas=False, threads=1)
    assert apr.settings.anchors == "by_split"
    train_out, val_out = apr(training, return_dict=True), apr(validation, return_dict=True)
    assert torch.equal(train_out["reward_tensor"], val_out["reward_tensor"]), "the same rewards"
    differ = sum(a != b for a, b in zip(train_out["reward_extra_info"]["l_ast"], val_out["reward_extra_info"]["l_ast"]))
    times = interleaved_wall_best(repeat, {
        "dapo": lambda: dapo(training, return_dict=True),
        "apr, training rows": lambda: apr(training, return_dict=True),
        "apr, validation rows": lambda: apr(validation, return_dict=True),
    })
    print(f"{n} real rollouts in one DataProto ([{n}, {width}] responses); 1 thread, CAS off; wall time, "
          f"best of {repeat} rounds in turns. Every reward is the same in both markings; {differ} rollouts "
          f"report another l_ast as training rows (unsearched: reward 0 whatever their anchor).\n")
    print("| verl batch reward manager | ms per batch | µs per rollout | verl's DAPO manager takes |")
    print("|---|---:|---:|---:|")
    labels = [
        ("dapo", "verl `DAPORewardManager` (decode each response, `math_dapo.compute_score`)"),
        ("apr, training rows", "apr-fast `reward_manager=apr`, `anchors=by_split`, training rows (`split=train`)"),
        ("apr, validation rows", "apr-fast `reward_manager=apr`, `anchors=by_split`, validation rows (`split=test`)"),
    ]
    for key, label in labels:
        t = times[key]
        print(f"| {label} | {t * 1e3:.1f} | {t / n * 1e6:.1f} | {times['dapo'] / t:.2f}x |")
    return 0


def time_reward_loop(repeat: int, responses: list[list[int]], gts: list[Any]) -> int:
    """verl's DAPO reward-loop manager against apr-fast's, one single-rollout DataProto each."""
    import asyncio
    import time

    import numpy as np
    import torch
    import transformers
    from omegaconf import OmegaConf
    from tensordict import TensorDict
    from verl import DataProto
    from verl.trainer.ppo.reward import load_reward_manager

    tokenizer = transformers.PreTrainedTokenizerFast(
        tokenizer_file=str(TOKENIZER), eos_token="<｜end▁of▁sentence｜>", pad_token="<｜end▁of▁sentence｜>")
    think = tokenizer.convert_tokens_to_ids("<think>")

    def rollout(ids: list[int], gt: Any, i: int, split: str) -> Any:
        # As verl 0.9.1's agent_loop.py::_compute_score builds it for one trajectory.
        prompt, response = torch.tensor([think], dtype=torch.int64), torch.tensor(ids, dtype=torch.int64)
        input_ids = torch.cat([prompt, response])
        batch = TensorDict({
            "prompts": prompt.unsqueeze(0), "responses": response.unsqueeze(0), "input_ids": input_ids.unsqueeze(0),
            "attention_mask": torch.ones_like(input_ids).unsqueeze(0),
            "position_ids": torch.arange(len(input_ids)).unsqueeze(0),
        }, batch_size=1)
        return DataProto(batch=batch, non_tensor_batch={
            "data_source": np.array(["math_dapo"]), "reward_model": np.array([{"ground_truth": gt, "style": "rule"}]),
            "extra_info": np.array([{"split": split, "index": i}]), "uid": np.array([f"q{i}"], dtype=object),
        })

    def config(name: str, **kwargs: Any) -> Any:
        return OmegaConf.create({"reward": {
            "reward_manager": {"source": "register", "name": name},
            "custom_reward_function": {"path": None, "name": "compute_score"}, "reward_kwargs": kwargs}})

    rollouts = {split: [rollout(ids, gt, i, split) for i, (ids, gt) in enumerate(zip(responses, gts))]
                for split in ("train", "test")}
    runs = {
        "dapo": (load_reward_manager(config("dapo"), tokenizer), "train"),
        "apr, training rows": (load_reward_manager(config("apr", cas=False, threads=1), tokenizer), "train"),
        "apr, validation rows": (load_reward_manager(config("apr", cas=False, threads=1), tokenizer), "test"),
    }
    assert type(runs["apr, training rows"][0]).__name__ == "APRRewardManager"

    def score_all(manager: Any, split: str) -> list[Any]:
        async def all_rollouts() -> list[Any]:
            return await asyncio.gather(*[manager.run_single(d) for d in rollouts[split]])
        return manager.loop.run_until_complete(all_rollouts())

    rewards = {key: [o["reward_score"] for o in score_all(m, split)] for key, (m, split) in runs.items()}
    assert rewards["apr, training rows"] == rewards["apr, validation rows"], "the same rewards"
    best = {key: float("inf") for key in runs}
    for _ in range(repeat):
        for key, (manager, split) in runs.items():
            t0 = time.process_time()
            score_all(manager, split)
            best[key] = min(best[key], time.process_time() - t0)
    n = len(responses)
    print(f"{n} real rollouts, one DataProto each, awaited together; CAS off, apr-fast's native work on 1 "
          f"thread; process CPU time, best of {repeat} rounds in turns\n")
    print("| verl reward-loop manager (`run_single` per rollout) | µs per rollout | verl's DAPO manager takes |")
    print("|---|---:|---:|")
    labels = [
        ("dapo", "verl `DAPORewardManager` (decode, `math_dapo.compute_score`, each in an executor)"),
        ("apr, training rows", "apr-fast `reward_manager.name=apr`, `anchors=by_split`, training rows"),
        ("apr, validation rows", "apr-fast `reward_manager.name=apr`, `anchors=by_split`, validation rows"),
    ]
    for key, label in labels:
        print(f"| {label} | {best[key] / n * 1e6:.1f} | {best['dapo'] / best[key]:.2f}x |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
