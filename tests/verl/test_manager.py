"""The APR reward inside real verl 0.9.1: reward-loop manager, legacy batch manager,
compute_score, plugin registration and the training dry run.

Built from real token ids of real traces with the real DeepSeek-R1-Distill-Qwen tokenizer;
verl's own loader (``load_reward_manager``) builds the manager from an OmegaConf config.
"""
from __future__ import annotations

import asyncio
import gzip
import json
import logging
import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

verl = pytest.importorskip("verl")
torch = pytest.importorskip("torch")
np = pytest.importorskip("numpy")
from omegaconf import OmegaConf  # noqa: E402
from verl import DataProto  # noqa: E402
from verl.trainer.ppo.reward import load_reward_manager  # noqa: E402

import apr_fast  # noqa: E402
from apr_fast import APRScorer, RewardConfig  # noqa: E402
from apr_fast.verl.rows import REWARD_EXTRA_KEYS, SplitMarks  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "data"
TRACES = SHARED / "traces" / "traces.jsonl.gz"
TOKENIZER = SHARED / "tokenizer" / "deepseek-r1-distill-qwen.tokenizer.json"
pytestmark = pytest.mark.skipif(not TRACES.exists(), reason="../shared/data is not present")
ROLLOUTS = 48
GROUP = 4  # rollouts per prompt (uid), as rollout.n would make them


@pytest.fixture(scope="module")
def tokenizer():
    transformers = pytest.importorskip("transformers")
    return transformers.PreTrainedTokenizerFast(
        tokenizer_file=str(TOKENIZER), eos_token="<｜end▁of▁sentence｜>", pad_token="<｜end▁of▁sentence｜>"
    )


@pytest.fixture(scope="module")
def rows() -> list[dict]:
    out = []
    for line in gzip.open(TRACES, "rt", encoding="utf-8"):
        r = json.loads(line)
        if len(r["completion"]) < 20000:
            out.append(r)
        if len(out) == ROLLOUTS:
            break
    return out


def make_batch(tokenizer, rows: list[dict], prompt_end: tuple[int, ...] = (151648,),
               splits: list[str] | None = None) -> tuple[DataProto, list[list[int]]]:
    """A right-padded batch as verl builds it: prompts [B,P], responses [B,R], mask [B,P+R].
    Prompts end with ``prompt_end`` (``<think>``, as R1's chat template ends them); ``splits``
    gives each row an ``extra_info.split`` (none by default)."""
    eos = tokenizer.eos_token_id
    prompts = [tokenizer.encode(r["problem"], add_special_tokens=False)[-64:] + list(prompt_end) for r in rows]
    responses = [tokenizer.encode(r["completion"], add_special_tokens=False) + [eos] for r in rows]
    P, R = max(map(len, prompts)), max(map(len, responses))
    pad = tokenizer.pad_token_id
    prompt_t = torch.tensor([[pad] * (P - len(p)) + p for p in prompts])
    resp_t = torch.tensor([r + [pad] * (R - len(r)) for r in responses])
    mask = torch.tensor([[0] * (P - len(p)) + [1] * len(p) + [1] * len(r) + [0] * (R - len(r))
                         for p, r in zip(prompts, responses)])
    alternatives = [json.dumps([r["ground_truth"]]) if i % 2 else "" for i, r in enumerate(rows)]
    data = DataProto.from_dict(
        tensors={"prompts": prompt_t, "responses": resp_t, "attention_mask": mask,
                 "input_ids": torch.cat([prompt_t, resp_t], dim=1)},
        non_tensors={
            "data_source": np.array([r["dataset"] for r in rows], dtype=object),
            "reward_model": np.array([{"ground_truth": r["ground_truth"], "style": "rule"} for r in rows], dtype=object),
            "extra_info": np.array([{"problem": r["problem"], "ground_truth_alternatives": a, "index": 100 + i,
                                     **({"split": splits[i]} if splits else {})}
                                    for i, (r, a) in enumerate(zip(rows, alternatives))], dtype=object),
            "uid": np.array([f"q{i // GROUP}" for i in range(len(rows))], dtype=object),
        },
    )
    return data, responses


def config(**reward_kwargs) -> "OmegaConf":
    return OmegaConf.create({"reward": {
        "reward_manager": {"source": "importlib", "name": "APRRewardManager",
                           "module": {"path": "pkg://apr_fast.verl.manager", "name": None}},
        "custom_reward_function": {"path": None, "name": "compute_score"},
        "reward_kwargs": {"beta": 5e-4, "max_wait_ms": 20.0, **reward_kwargs},
    }})


def dapo_filtered_uids(uids, infos, metric="acc") -> set[str]:
    """verl 0.9.1 trainer/ppo/v1/replay_buffer.py::_dapo_filtered_keys, on our outputs."""
    values: dict[str, list[float]] = defaultdict(list)
    for uid, info in zip(uids, infos):
        if metric not in info:
            raise RuntimeError(f"Finished groups are missing DAPO metric {metric!r}")
        values[uid].append(float(info[metric]))
    return {u for u, v in values.items() if len(v) > 1 and float(np.std(v)) == 0.0}


def test_reward_loop_manager_matches_the_native_batch(tokenizer, rows) -> None:
    data, responses = make_batch(tokenizer, rows)
    manager = load_reward_manager(config(), tokenizer)
    assert type(manager).__name__ == "APRRewardManager"

    async def all_rollouts():
        return await asyncio.gather(*[manager.run_single(data[i:i + 1]) for i in range(len(data))])

    outputs = manager.loop.run_until_complete(all_rollouts())
    # Concurrent run_single calls were scored in few native batch calls.
    assert manager._batcher.items_run == len(data)
    assert manager._batcher.batches_run < len(data) // 4

    expected = APRScorer(RewardConfig(beta=5e-4), vocabulary=manager.scorer.vocabulary).score_token_ids(
        responses, [r["ground_truth"] for r in rows], problems=[r["problem"] for r in rows])
    for out, exp in zip(outputs, expected):
        assert out["reward_score"] == pytest.approx(exp.reward)
        info = out["reward_extra_info"]
        assert tuple(info) == REWARD_EXTRA_KEYS  # the same keys for every sample
        assert info["acc"] == float(exp.correct)
        assert info["l_ast"] == exp.l_ast and info["t_think"] == exp.t_think
        assert info["pred"] == (exp.final_answer or "")
    assert any(o["reward_extra_info"]["l_ast"] > 0 for o in outputs)
    assert any(o["reward_extra_info"]["acc"] == 1.0 for o in outputs)

    # What verl does next: rm_scores with the score on the last valid token, and the
    # extra-info columns as numpy arrays (non-V1 path), DAPO filter as the V1 replay buffer.
    rm = type(manager).assemble_rm_scores(data, [o["reward_score"] for o in outputs])
    lengths = data.batch["attention_mask"][:, data.batch["prompts"].shape[1]:].sum(dim=1)
    for i, out in enumerate(outputs):
        assert rm[i, lengths[i] - 1].item() == pytest.approx(out["reward_score"])
        assert rm[i].sum().item() == pytest.approx(out["reward_score"])
    infos = [o["reward_extra_info"] for o in outputs]
    for key in REWARD_EXTRA_KEYS:
        np.array([info[key] for info in infos])
    uids = list(data.non_tensor_batch["uid"])
    filtered = dapo_filtered_uids(uids, infos)
    by_uid = defaultdict(set)
    for uid, info in zip(uids, infos):
        by_uid[uid].add(info["acc"])
    assert filtered == {u for u, accs in by_uid.items() if len(accs) == 1}


def agent_loop_rollout(ids: list[int], ground_truth: str, extra_info: dict) -> DataProto:
    """One trajectory's DataProto as verl 0.9.1's ``AgentLoopWorker._compute_score`` builds it
    for the reward loop: the response unpadded, the attention mask all ones."""
    from tensordict import TensorDict

    prompt, response = torch.tensor([151648]), torch.tensor(ids)
    input_ids = torch.cat([prompt, response])
    batch = TensorDict({
        "prompts": prompt.unsqueeze(0), "responses": response.unsqueeze(0), "input_ids": input_ids.unsqueeze(0),
        "attention_mask": torch.ones_like(input_ids).unsqueeze(0), "position_ids": torch.arange(len(input_ids)).unsqueeze(0),
    }, batch_size=1)
    return DataProto(batch=batch, non_tensor_batch={
        "data_source": np.array(["math_dapo"]), "reward_model": np.array([{"ground_truth": ground_truth, "style": "rule"}]),
        "extra_info": np.array([extra_info]), "__num_turns__": np.array([2]),
    })


def test_rollout_inputs_reads_the_last_row_as_verls_managers_do(tokenizer, rows) -> None:
    """``rollout_inputs`` reads the batch's columns directly; it must read what verl's own
    managers read through ``data[-1]``: from slices of a padded batch and from the reward loop's
    one-trajectory DataProtos."""
    from apr_fast.verl.manager import rollout_inputs

    data, responses = make_batch(tokenizer, rows[:6])
    singles = [data[i:i + 1] for i in range(len(data))] + [data[:3]]
    singles += [agent_loop_rollout(ids, r["ground_truth"], {"problem": r["problem"]}) for ids, r in zip(responses, rows)]
    for single in singles:
        item = single[-1]  # as verl's DAPO reward-loop manager reads it
        width = item.batch["responses"].shape[-1]
        length = int(item.batch["attention_mask"][-width:].sum())
        ids, ground_truth, problem, n = rollout_inputs(single)
        assert n == length and list(ids) == item.batch["responses"][:length].tolist()
        extra = item.non_tensor_batch["extra_info"]
        alternatives = json.loads(extra["ground_truth_alternatives"]) if extra.get("ground_truth_alternatives") else None
        assert ground_truth == (alternatives or item.non_tensor_batch["reward_model"]["ground_truth"])
        assert problem == extra["problem"]


def test_searching_only_rewarded_rollouts_gives_the_same_rewards_in_the_manager(tokenizer, rows) -> None:
    """``reward_kwargs.anchors=rewarded``: the same reward for every sample, through a real reward
    loop manager; the samples left unsearched report L_AST 0 and no anchor."""
    data, _ = make_batch(tokenizer, rows)
    outputs = {}
    for anchors in ("all", "rewarded"):
        manager = load_reward_manager(config(anchors=anchors), tokenizer)
        assert manager.scorer.config.anchors == anchors

        async def all_rollouts(m=manager):
            return await asyncio.gather(*[m.run_single(data[i:i + 1]) for i in range(len(data))])

        outputs[anchors] = manager.loop.run_until_complete(all_rollouts())
    assert [o["reward_score"] for o in outputs["rewarded"]] == [o["reward_score"] for o in outputs["all"]]
    unsearched = [(a["reward_extra_info"], r["reward_extra_info"]) for a, r in zip(outputs["all"], outputs["rewarded"])
                  if r["reward_extra_info"] != a["reward_extra_info"]]
    assert unsearched, "some sample is incorrect or truncated"
    for a, r in unsearched:
        assert a["score"] == r["score"] == 0.0 and (r["l_ast"], r["anchor_found"]) == (0.0, 0.0)
    with pytest.raises(apr_fast.ConfigError, match="anchors must be one of .'by_split', 'all', 'rewarded'."):
        load_reward_manager(config(anchors="correct"), tokenizer)


def _scope_outputs(tokenizer, data, **kwargs) -> tuple[object, list[dict]]:
    manager = load_reward_manager(config(**kwargs), tokenizer)

    async def all_rollouts():
        return await asyncio.gather(*[manager.run_single(data[i:i + 1]) for i in range(len(data))])

    return manager, [o["reward_extra_info"] for o in manager.loop.run_until_complete(all_rollouts())]


def test_by_split_searches_a_training_rows_anchor_only_where_its_reward_needs_it(tokenizer, rows, caplog) -> None:
    """The default ``anchors=by_split``, through a real reward-loop manager on a real DataProto
    whose rows say their split as verl's preprocessors write it: a training row is scored as with
    ``anchors=rewarded``, any other row (test, or no split) as with ``all``, within one micro-batch."""
    splits = ["train", "test", "TRAIN", "validation"] * (len(rows) // 4)
    data, _ = make_batch(tokenizer, rows, splits=splits)
    with caplog.at_level(logging.WARNING):
        manager, by_split = _scope_outputs(tokenizer, data)
    assert not [r for r in caplog.records if "no extra_info.split" in r.getMessage()]
    assert manager.settings.anchors == "by_split"
    assert (manager.scorer.config.anchors, manager.training_scorer.config.anchors) == ("all", "rewarded")
    assert manager._batcher.batches_run < len(data) // 4  # mixed micro-batches: two native calls each
    _, every = _scope_outputs(tokenizer, data, anchors="all")
    _, rewarded = _scope_outputs(tokenizer, data, anchors="rewarded")
    assert [o["score"] for o in by_split] == [o["score"] for o in every]
    training = [split.lower() == "train" for split in splits]
    assert by_split == [r if t else a for t, r, a in zip(training, rewarded, every)]
    assert any(t and r != a for t, r, a in zip(training, rewarded, every)), "a training row left unsearched"
    assert any(not t and r != a for t, r, a in zip(training, rewarded, every)), "a validation row searched"
    # Rows without a split are validation rows: the whole batch as with anchors=all, and the
    # manager says once why a training run would not be faster.
    plain, _ = make_batch(tokenizer, rows[:8])
    with caplog.at_level(logging.WARNING, logger="apr_fast.verl.manager"):
        assert _scope_outputs(tokenizer, plain)[1] == _scope_outputs(tokenizer, plain, anchors="all")[1]
    said = [r.getMessage() for r in caplog.records if "no extra_info.split" in r.getMessage()]
    assert len(said) == 1 and "index=100" in said[0], said


def test_the_legacy_manager_and_compute_score_read_the_rows_split(tokenizer, rows, caplog) -> None:
    from apr_fast.verl.compute_score import compute_score
    from apr_fast.verl.legacy import APRBatchRewardManager

    splits = ["train", "test"] * 8
    data, _ = make_batch(tokenizer, rows[:16], splits=splits)
    outputs = {anchors: APRBatchRewardManager(tokenizer, beta=5e-4, anchors=anchors)(data, return_dict=True)
               for anchors in ("by_split", "all", "rewarded")}
    assert APRBatchRewardManager(tokenizer, beta=5e-4).settings.anchors == "by_split"
    for key in REWARD_EXTRA_KEYS:
        expected = [outputs["rewarded" if split == "train" else "all"]["reward_extra_info"][key][i]
                    for i, split in enumerate(splits)]
        assert outputs["by_split"]["reward_extra_info"][key] == expected, key
    assert torch.equal(outputs["by_split"]["reward_tensor"], outputs["all"]["reward_tensor"])
    assert outputs["rewarded"]["reward_extra_info"]["l_ast"] != outputs["all"]["reward_extra_info"]["l_ast"]
    plain, _ = make_batch(tokenizer, rows[:4])
    legacy = APRBatchRewardManager(tokenizer, beta=5e-4)
    with caplog.at_level(logging.WARNING, logger="apr_fast.verl.legacy"):
        legacy(plain), legacy(plain), legacy(data)
    said = [r.getMessage() for r in caplog.records if "no extra_info.split" in r.getMessage()]
    assert len(said) == 1 and "index=100" in said[0], said

    # compute_score: an incorrect response's anchor is searched in a test row, not in a train row.
    r = next(r for r in rows if r["ground_truth"] != "0")
    wrong = "<think>Let me see. So the answer is 0. Wait, let me check that again.</think> \\boxed{0}"
    test = compute_score(r["dataset"], wrong, r["ground_truth"], {"split": "test"})
    train = compute_score(r["dataset"], wrong, r["ground_truth"], {"split": "train"})
    assert test["score"] == train["score"] == 0.0
    assert (test["anchor_found"], train["anchor_found"]) == (1.0, 0.0)
    assert compute_score(r["dataset"], wrong, r["ground_truth"], {"split": "train"}, anchors="all") == test
    from apr_fast.verl import compute_score as module

    module._split_marks = SplitMarks(module.logger)  # once per process: earlier tests may have said it
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="apr_fast.verl.compute_score"):
        for _ in range(2):
            assert compute_score(r["dataset"], wrong, r["ground_truth"], {"index": 7}) == test
    said = [r.getMessage() for r in caplog.records if "no extra_info.split" in r.getMessage()]
    assert len(said) == 1 and "index=7" in said[0], said


def test_gpt_oss_harmony_rollouts_score_as_think_rollouts(tokenizer, rows) -> None:
    """gpt-oss's format through verl's loader and a real DataProto: prompts end with
    ``<|start|>assistant``, responses are the analysis channel, ``<|end|>``, the final channel and
    ``<|return|>`` (the end-of-sequence token). With ``think_tags=harmony`` (or ``auto``) every
    reward and figure is the one the same rollouts get written with <think>/</think>."""
    transformers = pytest.importorskip("transformers")
    from harmony_format import as_harmony, harmony_tokenizer

    gpt_oss_like = transformers.PreTrainedTokenizerFast(
        tokenizer_object=harmony_tokenizer(), eos_token="<|return|>", pad_token="<|return|>")
    subset = rows[:12]
    harmony_rows = [{**r, "completion": as_harmony(r["completion"]).removesuffix("<|return|>")} for r in subset]
    prompt_end = tuple(gpt_oss_like.encode("<|start|>assistant", add_special_tokens=False))
    data, _ = make_batch(gpt_oss_like, harmony_rows, prompt_end=prompt_end)
    standard_data, _ = make_batch(tokenizer, subset)

    async def run(manager, batch):
        return await asyncio.gather(*[manager.run_single(batch[i:i + 1]) for i in range(len(batch))])

    harmony = load_reward_manager(config(think_tags="harmony"), gpt_oss_like)
    standard = load_reward_manager(config(), tokenizer)
    got = harmony.loop.run_until_complete(run(harmony, data))
    expected = standard.loop.run_until_complete(run(standard, standard_data))
    keys = ("acc", "l_ast", "t_think", "rho", "status", "pred")
    assert [[o["reward_extra_info"][k] for k in keys] + [o["reward_score"]] for o in got] == \
        [[o["reward_extra_info"][k] for k in keys] + [o["reward_score"]] for o in expected]
    assert any(o["reward_extra_info"]["l_ast"] > 0 for o in got)
    # think_tags=auto settles on the tokenizer's family, harmony's.
    auto = load_reward_manager(config(think_tags="auto"), gpt_oss_like)
    settled = auto.loop.run_until_complete(run(auto, data))
    assert [[o["reward_extra_info"][k] for k in keys] + [o["reward_score"]] for o in settled] == \
        [[o["reward_extra_info"][k] for k in keys] + [o["reward_score"]] for o in got]
    # With the default tags, the same ids have no </think>: all truncated, reward 0.
    untagged = load_reward_manager(config(), gpt_oss_like)
    wrong = untagged.loop.run_until_complete(run(untagged, data))
    assert {o["reward_extra_info"]["status"] for o in wrong} == {float(apr_fast.STATUS_CODES["truncated"])}


def test_overlong_buffer_composes_as_in_verls_dapo_manager(tokenizer, rows) -> None:
    data, _ = make_batch(tokenizer, rows[:8])
    max_len, buffer = 2048, 1024
    manager = load_reward_manager(config(
        max_resp_len=max_len,
        overlong_buffer_cfg={"enable": True, "len": buffer, "penalty_factor": 1.0, "log": True},
    ), tokenizer)
    plain = load_reward_manager(config(), tokenizer)

    async def run(m):
        return await asyncio.gather(*[m.run_single(data[i:i + 1]) for i in range(len(data))])

    shaped = manager.loop.run_until_complete(run(manager))
    base = plain.loop.run_until_complete(run(plain))
    width = data.batch["responses"].shape[1]
    for i, (s, b) in enumerate(zip(shaped, base)):
        length = int(data.batch["attention_mask"][i, -width:].sum())
        penalty = min(-(length - (max_len - buffer)) / buffer * 1.0, 0)  # verl DAPORewardManager
        assert s["reward_score"] == pytest.approx(b["reward_score"] + penalty)
        assert s["reward_extra_info"]["overlong_reward"] == pytest.approx(penalty)


def test_bad_reward_kwargs_fail_loudly(tokenizer) -> None:
    import apr_fast

    with pytest.raises(apr_fast.ConfigError, match="bta"):
        load_reward_manager(config(bta=1e-4), tokenizer)
    with pytest.raises(apr_fast.ConfigError, match="max_resp_len"):
        load_reward_manager(config(overlong_buffer_cfg={"enable": True, "len": 10}), tokenizer)
    with pytest.raises(apr_fast.ConfigError, match="distinct keys"):
        load_reward_manager(config(cue_languages=["en", "fr"]), tokenizer)


def test_cue_languages_reach_the_reward_config() -> None:
    import apr_fast
    from apr_fast.verl.settings import APRRewardSettings

    assert APRRewardSettings().reward_config().conclusion_cues == apr_fast.PAPER_CONCLUSION_CUES
    both = APRRewardSettings.from_mapping({"cue_languages": ["en", "zh"]}).reward_config()
    assert both.conclusion_cues == apr_fast.PAPER_CONCLUSION_CUES + apr_fast.CHINESE_CONCLUSION_CUES
    assert both.verification_cues == apr_fast.PAPER_VERIFICATION_CUES + apr_fast.CHINESE_VERIFICATION_CUES
    strict = APRRewardSettings.from_mapping({"require_answer_after_think": True}).reward_config()
    assert strict.require_answer_after_think and not APRRewardSettings().reward_config().require_answer_after_think


@pytest.mark.parametrize(
    ("kwargs", "read"),
    [
        ({"beta": "2e-4"}, {"beta": 2e-4}),  # YAML 1.1 reads an exponent without a dot as a string
        ({"max_batch": "64", "threads": "2", "max_wait_ms": "5"}, {"max_batch": 64, "threads": 2, "max_wait_ms": 5.0}),
        ({"max_batch": 64.0, "floor": 0}, {"max_batch": 64, "floor": 0.0}),
        ({"threads": None, "floor": None}, {"threads": None, "floor": None}),
        ({"max_resp_len": "200", "overlong_buffer_cfg": {"enable": True, "len": "100", "penalty_factor": "0.5"}},
         {"max_resp_len": 200}),
    ],
)
def test_numbers_written_as_strings_are_read_as_numbers(kwargs, read) -> None:
    np = pytest.importorskip("numpy")
    from apr_fast.verl.settings import APRRewardSettings

    settings = APRRewardSettings.from_mapping(kwargs)
    assert {k: getattr(settings, k) for k in read} == read
    assert all(type(getattr(settings, k)) is type(v) for k, v in read.items())
    assert APRRewardSettings.from_mapping({"max_batch": np.int64(8)}).max_batch == 8
    o = APRRewardSettings.from_mapping({"max_resp_len": 200, "overlong_buffer_cfg": {"enable": True, "len": "100"}})
    assert (o.overlong_buffer_cfg.len, o.overlong_buffer_cfg.penalty(200, 200)) == (100, -1.0)


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"cas": "false"}, "reward_kwargs.cas must be true or false, got 'false' (a string"),
        ({"cas": 0}, "reward_kwargs.cas must be true or false"),
        ({"reject_problem_echo": "no"}, "reward_kwargs.reject_problem_echo must be true or false"),
        ({"max_batch": "lots"}, "reward_kwargs.max_batch must be an integer, got 'lots'"),
        ({"max_batch": 1.5}, "reward_kwargs.max_batch must be an integer"),
        ({"threads": True}, "reward_kwargs.threads must be an integer or null"),
        ({"beta": None}, "reward_kwargs.beta must be a number, got None"),
        ({"max_wait_ms": [5]}, "reward_kwargs.max_wait_ms must be a number"),
        ({"max_resp_len": 100, "overlong_buffer_cfg": {"enable": True, "len": "x"}}, "overlong_buffer_cfg.len must be an integer"),
        ({"max_resp_len": 100, "overlong_buffer_cfg": {"enable": "yes", "len": 5}}, "overlong_buffer_cfg.enable must be true or false"),
    ],
)
def test_settings_of_the_wrong_type_are_errors_naming_the_key(kwargs, words) -> None:
    """Never a raw TypeError, and never a silent truthiness: "false" would have turned the CAS on."""
    import apr_fast
    from apr_fast.verl.settings import APRRewardSettings

    with pytest.raises(apr_fast.ConfigError) as e:
        APRRewardSettings.from_mapping(kwargs)
    assert words in str(e.value)


def test_anchor_options_reach_the_scorer(tokenizer) -> None:
    import apr_fast
    from apr_fast.verl.settings import APRRewardSettings

    manager = load_reward_manager(config(anchor_options={"skip_unreduced_forms": False, "backtrack_gap": 1}), tokenizer)
    expected = apr_fast.AnchorOptions.of_mode("default").replace(skip_unreduced_forms=False, backtrack_gap=1)
    assert manager.scorer.config.anchor_options == expected
    assert manager.scorer._native.anchor_options == expected._native()
    assert manager.scorer.config.mode == "default"
    # Scorers are cached per settings: settings with options stay hashable and compare by value.
    one = APRRewardSettings.from_mapping({"anchor_options": OmegaConf.create({"backtrack_gap": 1})})
    assert hash(one) == hash(APRRewardSettings.from_mapping({"anchor_options": {"backtrack_gap": 1}}))
    assert APRRewardSettings.from_mapping({"anchor_options": None}).reward_config().anchor_options is None
    with pytest.raises(apr_fast.ConfigError, match="unknown anchor options"):
        load_reward_manager(config(anchor_options={"skip_unreduced": False}), tokenizer)
    with pytest.raises(apr_fast.ConfigError, match="backtrack_gap must be an int >= 0"):
        APRRewardSettings.from_mapping({"anchor_options": {"backtrack_gap": -1}})
    with pytest.raises(apr_fast.ConfigError, match="mapping"):
        APRRewardSettings.from_mapping({"anchor_options": ["skip_unreduced_forms"]})


def test_legacy_batch_manager_gives_the_same_scores(tokenizer, rows) -> None:
    from apr_fast.verl.legacy import APRBatchRewardManager

    data, responses = make_batch(tokenizer, rows[:16])
    manager = APRBatchRewardManager(tokenizer, num_examine=0, compute_score=None, beta=5e-4)
    out = manager(data, return_dict=True)
    expected = APRScorer(RewardConfig(beta=5e-4), tokenizer=tokenizer).score_token_ids(
        responses, [r["ground_truth"] for r in rows[:16]], problems=[r["problem"] for r in rows[:16]])
    assert out["reward_tensor"].sum(dim=1).tolist() == pytest.approx([e.reward for e in expected])
    assert out["reward_extra_info"]["acc"] == [float(e.correct) for e in expected]
    assert torch.equal(manager(data), out["reward_tensor"])


def test_a_bad_ground_truth_fails_its_rollout_not_the_micro_batch(tokenizer, rows, caplog) -> None:
    data, _ = make_batch(tokenizer, rows[:8])
    data.non_tensor_batch["reward_model"][2] = {"ground_truth": None, "style": "rule"}
    data.non_tensor_batch["reward_model"][4] = {"ground_truth": "", "style": "rule"}
    manager = load_reward_manager(config(), tokenizer)

    async def all_rollouts():
        return await asyncio.gather(*[manager.run_single(data[i:i + 1]) for i in range(len(data))])

    with caplog.at_level(logging.WARNING, logger="apr_fast.reward"):
        infos = [o["reward_extra_info"] for o in manager.loop.run_until_complete(all_rollouts())]
    invalid = float(apr_fast.STATUS_CODES["invalid_input"])
    assert [i for i, info in enumerate(infos) if info["status"] == invalid] == [2, 4]
    assert all(infos[i]["score"] == 0.0 and infos[i]["acc"] == 0.0 for i in (2, 4))
    assert any(info["acc"] == 1.0 for info in infos)
    # The log names the dataset row, not the rollout's place in a micro-batch.
    warnings = [r.getMessage() for r in caplog.records if "ground truth" in r.getMessage()]
    assert warnings and all("rollout" not in w.split("the first, ")[1].split(":")[0] for w in warnings)
    source = rows[2]["dataset"]
    assert any(f"row data_source={source!r} index=102 uid='q0'" in w for w in warnings), warnings


def test_the_legacy_manager_names_a_bad_ground_truths_row(tokenizer, rows, caplog) -> None:
    data, _ = make_batch(tokenizer, rows[:4])
    data.non_tensor_batch["reward_model"][2] = {"ground_truth": "", "style": "rule"}  # no alternatives
    from apr_fast.verl.legacy import APRBatchRewardManager

    with caplog.at_level(logging.WARNING, logger="apr_fast.reward"):
        out = APRBatchRewardManager(tokenizer)(data, return_dict=True)
    assert out["reward_extra_info"]["status"][2] == float(apr_fast.STATUS_CODES["invalid_input"])
    assert any("the first, row data_source=" in r.getMessage() and "index=102" in r.getMessage()
               for r in caplog.records), [r.getMessage() for r in caplog.records]


def test_compute_score_string_path(rows) -> None:
    from apr_fast.verl.compute_score import compute_score

    r = rows[0]
    out = compute_score(r["dataset"], r["completion"], r["ground_truth"], {"problem": r["problem"]},
                        tokenizer=str(TOKENIZER), beta=5e-4, reward_router_address=None)
    assert set(REWARD_EXTRA_KEYS) == set(out)
    expected = APRScorer(RewardConfig(beta=5e-4), tokenizer=__import__("tokenizers").Tokenizer.from_file(
        str(TOKENIZER))).score(r["completion"], r["ground_truth"], problem=r["problem"])
    assert out["score"] == pytest.approx(expected.reward)
    assert out["t_think"] == expected.t_think
    # Encoded by tokenizers itself on request: the same tokens, the same figures.
    assert compute_score(r["dataset"], r["completion"], r["ground_truth"], {"problem": r["problem"]},
                         tokenizer=str(TOKENIZER), beta=5e-4, native_encoding=False) == out
    from apr_fast.verl import compute_score as module
    settings = module._settings({"beta": 5e-4})
    assert module._scorer(settings, str(TOKENIZER), True)._encoder is not None
    assert module._scorer(settings, str(TOKENIZER), False)._encoder is None
    with pytest.raises(apr_fast.ConfigError, match="native_encoding must be true or false"):
        compute_score("x", "y", "1", None, tokenizer=str(TOKENIZER), native_encoding="no")
    with pytest.raises(Exception, match="unknown APR reward_kwargs"):
        compute_score("x", "y", "1", None, betta=1.0)
    # compute_score sees only text: DAPO's overlong shaping belongs to the manager.
    with pytest.raises(apr_fast.ConfigError, match="overlong_buffer_cfg is not applied by compute_score"):
        compute_score("x", "y", "1", None, overlong_buffer_cfg={"enable": True, "len": 100}, max_resp_len=200)
    # verl's own preprocessors keep the problem in extra_info.question: the echo check reads it.
    echo = "<think>So it is 2^{10}.</think> \\boxed{2^{10}}"
    for key in ("problem", "question"):
        out = compute_score("math", echo, "1024", {key: "Compute $2^{10}$."})
        assert (out["acc"], out["status"]) == (0.0, float(apr_fast.STATUS_CODES["problem_echo"])), key
    assert compute_score("math", echo, "1024", {"index": 3})["acc"] == 1.0


def test_the_vocabulary_cache_holds_each_tokenizer_object() -> None:
    """One vocabulary per tokenizer object; an id that a collected tokenizer left behind (ids are
    reused) is not taken for another tokenizer's."""
    from tokenizers import Tokenizer

    from apr_fast.verl.manager import APRRewardManager

    a, b = Tokenizer.from_file(str(TOKENIZER)), Tokenizer.from_file(str(TOKENIZER))
    va = APRRewardManager.vocabulary_for(a)
    assert APRRewardManager.vocabulary_for(a) is va
    APRRewardManager._vocabularies[id(b)] = (a, va)  # as if b had taken a dead tokenizer's id
    vb = APRRewardManager.vocabulary_for(b)
    assert vb is not va and APRRewardManager.vocabulary_for(b) is vb


def test_compute_score_parses_each_reward_kwargs_once() -> None:
    """verl passes the same reward_kwargs with every sample: they are parsed once per distinct
    value (by value and type), and what cannot be keyed is parsed per call, to the same result."""
    np = pytest.importorskip("numpy")
    from apr_fast.verl import compute_score as module

    kwargs = {"beta": 5e-4, "anchor_options": {"skip_problem_values": False}, "cue_languages": ["en"]}
    assert module._settings(kwargs) is module._settings(dict(kwargs))
    assert module._settings(kwargs) is not module._settings({**kwargs, "beta": 1e-3})
    assert module._frozen({"cas": 1}) != module._frozen({"cas": True})
    response = "<think>So x = 2. Let me check it again: 2 + 2 = 4, yes.</think> \\boxed{2}"
    small, large = (module.compute_score("math", response, "2", None, beta=b) for b in (1e-3, 2e-3))
    assert small["acc"] == large["acc"] == 1.0 and small["l_ast"] > 0
    assert 1.0 - small["score"] == pytest.approx((1.0 - large["score"]) / 2)
    # A numpy scalar is no plain value: parsed per call, same score.
    assert module.compute_score("math", response, "2", None, beta=np.float64(1e-3)) == small
    # A list from YAML (cue_languages=[en,zh]) is a hashable setting like a tuple (it raised
    # "unhashable type: 'list'" here before).
    both = module.compute_score("math", response, "2", None, cue_languages=["en", "zh"])
    assert both == module.compute_score("math", response, "2", None, cue_languages=("en", "zh"))
    for _ in range(2):  # an error is not cached away
        with pytest.raises(apr_fast.ConfigError, match="unknown APR reward_kwargs"):
            module.compute_score("x", "y", "1", None, betta=1.0)
    # Another model's thinking tags, as a list from YAML (Magistral's [THINK] ... [/THINK]).
    magistral = response.replace("<think>", "[THINK]").replace("</think>", "[/THINK]")
    tagged = module.compute_score("math", magistral, "2", None, beta=1e-3, think_tags=["[THINK]", "[/THINK]"])
    assert tagged == small
    assert module.compute_score("math", magistral, "2", None, beta=1e-3)["status"] == float(
        apr_fast.STATUS_CODES["truncated"])
    with pytest.raises(apr_fast.ConfigError, match="closing think tag"):
        module.compute_score("math", magistral, "2", None, think_tags=["[THINK]", "}"])
    # A preset's name, as YAML gives a plain string (+reward.reward_kwargs.think_tags=magistral).
    assert module.compute_score("math", magistral, "2", None, beta=1e-3, think_tags="magistral") == small
    # Each response's own family's tags.
    assert module.compute_score("math", magistral, "2", None, beta=1e-3, think_tags="auto") == small
    # gpt-oss text as verl's managers decode it for compute_score (special tokens skipped).
    from harmony_format import as_stripped_harmony
    assert module.compute_score("math", as_stripped_harmony(response), "2", None, beta=1e-3, think_tags="harmony") == small
    with pytest.raises(apr_fast.ConfigError, match="no think tags are named"):
        module.compute_score("math", magistral, "2", None, think_tags="gpt_oss")


def test_plugin_entry_point_registers_the_manager_in_a_fresh_process() -> None:
    code = ("import verl\n"
            "from verl.experimental.reward_loop.reward_manager import get_reward_manager_cls\n"
            "from verl.workers.reward_manager import get_reward_manager_cls as legacy\n"
            "print(get_reward_manager_cls('apr').__name__, legacy('apr').__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["APRRewardManager", "APRBatchRewardManager"]


def test_prepared_rows_reach_the_reward_loop_with_their_split(tokenizer, tmp_path) -> None:
    """``train/prepare_data.py`` marks its rows (``extra_info.split``: ``train`` for the training
    parquet, ``test`` for the benchmarks); read back by verl's own ``RLHFDataset`` and handed to
    the reward-loop manager as the agent loop hands a trajectory over, a training row's incorrect
    rollout is left unsearched and a validation row's is searched (``anchors=by_split``)."""
    from verl.utils.dataset.rl_dataset import RLHFDataset

    out = subprocess.run(
        [sys.executable, str(ROOT / "train" / "prepare_data.py"), "--train", str(SHARED / "train" / "deepscaler_head803.json"),
         "--benchmarks", str(SHARED / "benchmarks"), "--out-dir", str(tmp_path)],
        capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    dataset_config = OmegaConf.create({"filter_overlong_prompts": False, "cache_dir": str(tmp_path / "cache")})
    manager = load_reward_manager(config(), tokenizer)
    rows_read = {}
    for name, training in [("train", True), ("val_math500", False), ("val_aime2024", False)]:
        dataset = RLHFDataset(str(tmp_path / f"{name}.parquet"), tokenizer, dataset_config)
        assert len(dataset) > 0
        assert all(dataset[i]["extra_info"]["split"] == ("train" if training else "test") for i in range(0, len(dataset), 50))
        rows_read[name] = dataset[0]
    for name, row in rows_read.items():
        # A wrong answer stated with a conclusion cue: its anchor is found only when searched.
        wrong = "Let me see. So the answer is 987654. Wait, let me check that again.</think> \\boxed{987654}"
        ids = tokenizer.encode(wrong, add_special_tokens=False)
        kwargs = {k: v for k, v in row.items() if not isinstance(v, torch.Tensor)}
        data = agent_loop_rollout(ids, row["reward_model"]["ground_truth"], row["extra_info"])
        data.non_tensor_batch.update({k: np.array([v] * 1, dtype=object) for k, v in kwargs.items()
                                      if k in ("data_source", "reward_model", "extra_info", "uid", "index")})
        info = manager.loop.run_until_complete(manager.run_single(data))["reward_extra_info"]
        assert (info["acc"], info["score"]) == (0.0, 0.0), name
        assert info["anchor_found"] == (0.0 if name == "train" else 1.0), name


@pytest.mark.parametrize(("recipe", "tokenizer_file"), [
    ("dapo_1.5b.sh", TOKENIZER),
    ("grpo_7b.sh", ROOT / "examples" / "data" / "deepseek-r1-distill-qwen.tokenizer.json.gz"),  # bundled, gzip
])
def test_training_recipe_dry_run_passes_verls_validation(recipe, tokenizer_file, tmp_path) -> None:
    # One recipe with the default scope, one searching only the rewarded rollouts.
    anchors = "rewarded" if recipe.startswith("grpo") else "by_split"
    env = dict(os.environ, APR_DRY_RUN="1", APR_DRY_RUN_TOKENIZER=str(tokenizer_file), DATA_DIR=str(tmp_path),
               PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
               **({"APR_ANCHORS": anchors} if anchors != "by_split" else {}))
    out = subprocess.run(["bash", str(ROOT / "train" / recipe)], capture_output=True, text=True, env=env, timeout=600)
    assert out.returncode == 0, (out.stdout[-3000:], out.stderr[-3000:])
    assert "[dry-run] OK" in out.stdout
    assert "APRRewardManager" in out.stdout
    assert "think_tags='think'" in out.stdout
    assert f"anchors={anchors!r}" in out.stdout


def test_gpt_oss_recipe_dry_run_reads_the_analysis_channel(tmp_path) -> None:
    """The gpt-oss-20b recipe composes and passes verl's validation (a stub gpt-oss model with
    the bundled tokenizer plus harmony's markers, gpt-oss's own being out of reach), and its
    reward manager reads the thinking with think_tags=harmony."""
    from harmony_format import harmony_tokenizer

    tokenizer_file = tmp_path / "tokenizer.json"
    harmony_tokenizer(without_think=True).save(str(tokenizer_file))
    env = dict(os.environ, APR_DRY_RUN="1", APR_DRY_RUN_TOKENIZER=str(tokenizer_file), DATA_DIR=str(tmp_path),
               PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    out = subprocess.run(["bash", str(ROOT / "train" / "dapo_gpt_oss_20b.sh")], capture_output=True, text=True,
                         env=env, timeout=600)
    assert out.returncode == 0, (out.stdout[-3000:], out.stderr[-3000:])
    assert "[dry-run] OK" in out.stdout and "stub-gpt-oss-20b" in out.stdout
    assert "think_tags='harmony'" in out.stdout and "beta=0.0005" in out.stdout
    assert "scores as truncated" not in out.stdout + out.stderr  # no warning: the vocabulary has harmony's tags
