"""The APR reward for verl's older batch managers (verl <= 0.6, or 0.7.0 with
``reward_model.use_reward_loop=False``): ``__call__(data, return_dict)`` over a whole batch.

    reward_model.reward_manager=apr            # registered by apr_fast.verl.plugin
    +reward_model.reward_kwargs.beta=2e-4

The whole batch is one native call; the score sits on the last valid response token.
"""
from __future__ import annotations

from collections import defaultdict
from typing import Any

import torch
from verl import DataProto
from verl.workers.reward_manager.abstract import AbstractRewardManager

from apr_fast.reward import APRScorer
from apr_fast.tokens import Vocabulary
from apr_fast.verl.rows import extra_info_of, ground_truth_of, problem_of, row_name_of
from apr_fast.verl.settings import APRRewardSettings

__all__ = ["APRBatchRewardManager"]

# Keyword arguments the legacy trainers pass to every manager; the DAPO recipe's overlong
# settings arrive here too and are read as APR settings.
_TRAINER_KWARGS = ("reward_fn_key",)


class APRBatchRewardManager(AbstractRewardManager):
    """``AbstractRewardManager``-style APR reward: one native call per batch."""

    def __init__(
        self,
        tokenizer: Any,
        num_examine: int = 0,
        compute_score: Any = None,
        reward_fn_key: str = "data_source",
        **reward_kwargs: Any,
    ) -> None:
        self.tokenizer = tokenizer
        self.num_examine = num_examine
        self.settings = APRRewardSettings.from_mapping(reward_kwargs, ignore=_TRAINER_KWARGS)
        self.scorer = APRScorer(self.settings.reward_config(), vocabulary=Vocabulary.from_hf(tokenizer))

    def __call__(self, data: DataProto, return_dict: bool = False) -> Any:
        if "rm_scores" in data.batch.keys():  # scored upstream already
            if return_dict:
                keys = data.meta_info.get("reward_extra_keys", [])
                return {"reward_tensor": data.batch["rm_scores"],
                        "reward_extra_info": {k: data.non_tensor_batch[k] for k in keys}}
            return data.batch["rm_scores"]
        responses = data.batch["responses"]
        width = responses.shape[-1]
        lengths = [int(n) for n in data.batch["attention_mask"][:, -width:].sum(dim=-1).tolist()]
        extras = [data.non_tensor_batch.get("extra_info", [None] * len(data))[i] for i in range(len(data))]
        ground_truths = [
            ground_truth_of(data.non_tensor_batch["reward_model"][i]["ground_truth"], extras[i])
            for i in range(len(data))
        ]
        sources = data.non_tensor_batch.get("data_source", [None] * len(data))
        uids = data.non_tensor_batch.get("uid", [None] * len(data))
        names = [row_name_of(sources[i], extras[i], uids[i]) for i in range(len(data))]
        # The padded batch crosses into the native layer as one array, each row cut to its
        # attention-mask length there.
        scores = self.scorer.score_token_ids(
            responses, ground_truths, problems=[problem_of(e) for e in extras], lengths=lengths,
            threads=self.settings.threads, row_names=names,
        )
        reward_tensor = torch.zeros_like(responses, dtype=torch.float32)
        extra_info: dict[str, list[Any]] = defaultdict(list)
        for i, (score, n) in enumerate(zip(scores, lengths)):
            overlong = 0.0
            if self.settings.max_resp_len is not None:
                overlong = self.settings.overlong_buffer_cfg.penalty(int(n), self.settings.max_resp_len)
            info = extra_info_of(score, overlong)
            if n > 0:
                reward_tensor[i, int(n) - 1] = info["score"]
            for key, value in info.items():
                extra_info[key].append(value)
        if return_dict:
            return {"reward_tensor": reward_tensor, "reward_extra_info": dict(extra_info)}
        return reward_tensor
