"""The APR reward-loop manager for verl >= 0.7 (0.9.x primary).

Select it with::

    reward.reward_manager.source=importlib
    reward.reward_manager.module.path=pkg://apr_fast.verl.manager
    reward.reward_manager.name=APRRewardManager
    +reward.reward_kwargs.beta=2e-4 ...

or, with the ``verl.plugins`` entry point this package installs, ``reward.reward_manager.name=apr``.

verl calls ``run_single`` once per trajectory as its generation finishes. Concurrent calls of
one worker are gathered by a :class:`~apr_fast.verl.batcher.MicroBatcher` into one native
batch call (token ids decoded with the policy's vocabulary, ``</think>`` found by its id,
lengths exact in the policy's tokens), run in an executor thread that releases the GIL. The
vocabulary is loaded once per process. Every sample returns the same ``reward_extra_info``
keys, including ``acc`` (the metric DAPO's group filter reads).
"""
from __future__ import annotations

import logging
from typing import Any, ClassVar, Optional, Sequence

from verl import DataProto
from verl.experimental.reward_loop.reward_manager.base import RewardManagerBase

from apr_fast.reward import RolloutScore
from apr_fast.tokens import Vocabulary
from apr_fast.verl.batcher import MicroBatcher
from apr_fast.verl.rows import (
    REWARD_EXTRA_KEYS, SplitMarks, extra_info_of, ground_truth_of, problem_of, row_name_of, scored_by_flag,
)
from apr_fast.verl.settings import APRRewardSettings

__all__ = ["APRRewardManager", "rollout_inputs"]

logger = logging.getLogger(__name__)

def rollout_inputs(data: DataProto) -> tuple[Any, Any, Optional[str], int]:
    """(valid response ids, ground truth, problem, valid response length) of the last row,
    read the way verl's own managers read them."""
    ids, ground_truth, problem, length, _, _ = _last_row(data)
    return ids, ground_truth, problem, length


#: What the micro-batcher gathers per rollout: ids, ground truth, problem, row name, and
#: whether the row is a training row (:func:`~apr_fast.verl.rows.is_training_row`).
_Item = tuple[Any, Any, Optional[str], Optional[str], bool]


def _last_row(data: DataProto) -> tuple[Any, Any, Optional[str], int, Optional[str], Any]:
    """What :func:`rollout_inputs` returns, then the row's name for log messages
    (:func:`~apr_fast.verl.rows.row_name_of`) and its ``extra_info``.

    Read from the batch's own columns: ``data[-1]`` (a ``DataProtoItem``, as verl's managers
    read a row) costs about 7 us per call, more than this whole function. The valid length is
    the response part of the attention mask summed, as verl's managers sum it; CPU tensors are
    read as numpy views of their memory (no copy), others through torch.
    """
    batch = data.batch
    responses, mask = batch["responses"], batch["attention_mask"]
    width = responses.shape[-1]
    try:  # indexing the numpy views: a torch index costs about 2 us
        responses, mask = responses.numpy()[-1], mask.numpy()[-1]
    except (RuntimeError, TypeError):  # on an accelerator
        responses, mask = responses[-1], mask[-1]
    length = int(mask[-width:].sum())
    columns = data.non_tensor_batch
    extra = columns["extra_info"][-1] if "extra_info" in columns else None
    ground_truth = ground_truth_of(columns["reward_model"][-1]["ground_truth"], extra)
    source = columns["data_source"][-1] if "data_source" in columns else None
    uid = columns["uid"][-1] if "uid" in columns else None
    return responses[:length], ground_truth, problem_of(extra), length, row_name_of(source, extra, uid), extra


class APRRewardManager(RewardManagerBase):
    """Anchor-based Process Reward for verl's reward loop (settings: ``reward.reward_kwargs``)."""

    # One vocabulary per tokenizer per process (the tokenizer.json is 7 MB; load it once). The
    # tokenizer is kept with it: a collected tokenizer's id could be reused by another one.
    _vocabularies: ClassVar[dict[int, tuple[Any, Vocabulary]]] = {}
    reward_extra_keys: ClassVar[tuple[str, ...]] = REWARD_EXTRA_KEYS

    def __init__(
        self,
        config: Any,
        tokenizer: Any,
        compute_score: Any = None,
        reward_router_address: Optional[str] = None,
        reward_model_tokenizer: Any = None,
        **kwargs: Any,
    ) -> None:
        try:
            super().__init__(config, tokenizer, compute_score)
        except TypeError:  # verl 0.7.0: RewardManagerBase.__init__(config, tokenizer)
            super().__init__(config, tokenizer)  # type: ignore[call-arg]
        self.settings = APRRewardSettings.from_config(config)
        # Validation rows (every row unless anchors="by_split") and training rows.
        self.scorer, self.training_scorer = self.settings.scorers(vocabulary=self.vocabulary_for(tokenizer))
        self._split_marks = SplitMarks(logger)
        self._batcher: MicroBatcher[_Item, RolloutScore] = MicroBatcher(
            self._score_batch, max_batch=self.settings.max_batch, max_wait_s=self.settings.max_wait_ms / 1000
        )
        logger.info("APR reward: %s", self.settings)

    @classmethod
    def init_class(cls, config: Any, tokenizer: Any) -> None:
        super().init_class(config, tokenizer)
        cls.vocabulary_for(tokenizer)

    @classmethod
    def vocabulary_for(cls, tokenizer: Any) -> Vocabulary:
        """The native vocabulary of ``tokenizer``, built once per process."""
        entry = cls._vocabularies.get(id(tokenizer))
        if entry is None or entry[0] is not tokenizer:
            entry = cls._vocabularies[id(tokenizer)] = (tokenizer, Vocabulary.from_hf(tokenizer))
        return entry[1]

    def _score_batch(self, items: Sequence[_Item]) -> list[RolloutScore]:
        ids, ground_truths, problems, names, training = (list(column) for column in zip(*items))

        def score_group(training_rows: bool, positions: list[int]) -> list[RolloutScore]:
            scorer = self.training_scorer if training_rows else self.scorer

            def part(column: list[Any]) -> list[Any]:
                return column if len(positions) == len(items) else [column[i] for i in positions]

            # Logs name a rollout by its dataset row: its place in a micro-batch means nothing.
            return scorer.score_token_ids(
                part(ids), part(ground_truths), problems=part(problems), threads=self.settings.threads,
                row_names=part(names),
            )

        return scored_by_flag(training, score_group)

    async def run_single(self, data: DataProto) -> dict[str, Any]:
        ids, ground_truth, problem, length, name, extra = _last_row(data)
        training = self.settings.scope_by_row and self._split_marks.is_training(extra, lambda: name)
        score = await self._batcher.submit((ids, ground_truth, problem, name, training))
        overlong = 0.0
        if self.settings.max_resp_len is not None:
            overlong = self.settings.overlong_buffer_cfg.penalty(length, self.settings.max_resp_len)
        info = extra_info_of(score, overlong)
        return {"reward_score": info["score"], "reward_extra_info": info}
