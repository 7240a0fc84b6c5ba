"""The APR reward for verl's older batch managers (verl <= 0.6, or 0.7.0 with
``reward_model.use_reward_loop=False``): ``__call__(data, return_dict)`` over a whole batch.

    reward_model.reward_manager=apr            # registered by apr_fast.verl.plugin
    +reward_model.reward_kwargs.beta=2e-4

The whole batch is one native call; the score sits on the last valid response token.
"""
from __future__ import annotations

import logging
from collections import defaultdict
from functools import partial
from typing import Any

import torch
from verl import DataProto
from verl.workers.reward_manager.abstract import AbstractRewardManager

from apr_fast.reward import RolloutScore
from apr_fast.tokens import Vocabulary
from apr_fast.verl.rows import (
    SplitMarks, extra_info_of, ground_truth_of, problem_of, row_name_of, scored_by_flag,
)
from apr_fast.verl.settings import APRRewardSettings

__all__ = ["APRBatchRewardManager"]

logger = logging.getLogger(__name__)

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
        # Validation rows (every row unless anchors="by_split") and training rows.
        self.scorer, self.training_scorer = self.settings.scorers(vocabulary=Vocabulary.from_hf(tokenizer))
        self._split_marks = SplitMarks(logger)

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
        problems = [problem_of(e) for e in extras]
        training = [self.settings.scope_by_row and self._split_marks.is_training(e, partial(names.__getitem__, i))
                    for i, e in enumerate(extras)]

        def score_group(training_rows: bool, positions: list[int]) -> list[RolloutScore]:
            scorer = self.training_scorer if training_rows else self.scorer
            # The padded batch crosses into the native layer as one array, each row cut to its
            # attention-mask length there.
            if len(positions) == len(data):
                return scorer.score_token_ids(responses, ground_truths, problems=problems, lengths=lengths,
                                              threads=self.settings.threads, row_names=names)
            return scorer.score_token_ids(
                responses[positions], [ground_truths[i] for i in positions],
                problems=[problems[i] for i in positions], lengths=[lengths[i] for i in positions],
                threads=self.settings.threads, row_names=[names[i] for i in positions],
            )

        scores = scored_by_flag(training, score_group)
        extra_info: dict[str, list[Any]] = defaultdict(list)
        for score, n in zip(scores, lengths):
            overlong = 0.0
            if self.settings.max_resp_len is not None:
                overlong = self.settings.overlong_buffer_cfg.penalty(n, self.settings.max_resp_len)
            for key, value in extra_info_of(score, overlong).items():
                extra_info[key].append(value)
        # Each score on its response's last valid token, written in one indexed assignment (one
        # element at a time cost about 4 us per rollout).
        reward_tensor = torch.zeros_like(responses, dtype=torch.float32)
        scored = [i for i, n in enumerate(lengths) if n > 0]
        if scored:
            reward_tensor[torch.tensor(scored), torch.tensor([lengths[i] - 1 for i in scored])] = torch.tensor(
                [extra_info["score"][i] for i in scored], dtype=torch.float32)
        if return_dict:
            return {"reward_tensor": reward_tensor, "reward_extra_info": dict(extra_info)}
        return reward_tensor
