#!/usr/bin/env python3
"""Compose a training run's full Hydra config and validate it, without GPUs.

Takes exactly the overrides `python -m verl.trainer.main_ppo` would get (the launch scripts
call this instead when ``APR_DRY_RUN=1``), composes verl's ``ppo_trainer`` config with them,
runs verl's own ``validate_config``, then loads the configured reward manager the way verl's
reward workers do (``load_reward_manager``) and checks that it returns the metric DAPO's
group filter reads.

The model named by ``actor_rollout_ref.model.path`` must be readable for verl's validation (its
config and tokenizer are loaded). Where it is a hub name and the hub is out of reach, pass
``--tokenizer-json PATH`` (or set ``APR_DRY_RUN_TOKENIZER``; gzip-compressed works too): a stub
model directory with that tokenizer and the architecture of DeepSeek-R1-Distill-Qwen (or of
gpt-oss-20b, for a model path that names gpt-oss) is used instead. The repository bundles the
DeepSeek-R1-Distill-Qwen tokenizer:

    APR_DRY_RUN=1 APR_DRY_RUN_TOKENIZER=examples/data/deepseek-r1-distill-qwen.tokenizer.json.gz \
        bash train/dapo_1.5b.sh
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import warnings
from pathlib import Path

from apr_fast.tokens import read_tokenizer_json

# config.json of DeepSeek-R1-Distill-Qwen-1.5B / -7B (public model cards); no weights needed.
QWEN2 = {"architectures": ["Qwen2ForCausalLM"], "model_type": "qwen2", "hidden_act": "silu",
         "max_position_embeddings": 131072, "rms_norm_eps": 1e-6, "rope_theta": 10000,
         "tie_word_embeddings": False, "torch_dtype": "bfloat16", "bos_token_id": 151646,
         "eos_token_id": 151643, "use_sliding_window": False}
R1_TOKENS = {"bos_token": "<｜begin▁of▁sentence｜>", "eos_token": "<｜end▁of▁sentence｜>",
             "pad_token": "<｜end▁of▁sentence｜>"}
ARCHITECTURES = {
    "7b": ({**QWEN2, "hidden_size": 3584, "intermediate_size": 18944, "num_attention_heads": 28,
            "num_hidden_layers": 28, "num_key_value_heads": 4, "vocab_size": 152064}, R1_TOKENS),
    "1.5b": ({**QWEN2, "hidden_size": 1536, "intermediate_size": 8960, "num_attention_heads": 12,
              "num_hidden_layers": 28, "num_key_value_heads": 2, "vocab_size": 151936}, R1_TOKENS),
    # gpt-oss-20b (its model card: 24 layers, 32 experts, 4 active per token); the tokenizer
    # given must hold harmony's markers, <|return|> ending a response.
    "gpt-oss-20b": ({"architectures": ["GptOssForCausalLM"], "model_type": "gpt_oss", "hidden_size": 2880,
                     "intermediate_size": 2880, "num_attention_heads": 64, "num_key_value_heads": 8,
                     "head_dim": 64, "num_hidden_layers": 24, "num_local_experts": 32,
                     "num_experts_per_tok": 4, "vocab_size": 201088, "sliding_window": 128,
                     "torch_dtype": "bfloat16"},
                    {"eos_token": "<|return|>", "pad_token": "<|return|>"}),
}


def stub_model_dir(model_name: str, tokenizer_json: Path, root: Path) -> Path:
    """A local model directory verl can validate against: config.json + the tokenizer."""
    name = model_name.lower()
    size = "gpt-oss-20b" if "gpt-oss" in name else "7b" if "7b" in name else "1.5b"
    config, special_tokens = ARCHITECTURES[size]
    out = root / f"stub-{size}"
    out.mkdir(parents=True, exist_ok=True)
    (out / "config.json").write_text(json.dumps(config))
    (out / "tokenizer.json").write_text(read_tokenizer_json(tokenizer_json), encoding="utf-8")
    (out / "tokenizer_config.json").write_text(json.dumps({
        "tokenizer_class": "PreTrainedTokenizerFast", "model_max_length": 16384, **special_tokens,
    }))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Validate a VeRL + apr-fast training config without GPUs.")
    parser.add_argument("--tokenizer-json", default=os.environ.get("APR_DRY_RUN_TOKENIZER"),
                        help="tokenizer.json for a stub model when the model path is not a local directory")
    parser.add_argument("overrides", nargs="*", help="Hydra overrides, as given to verl.trainer.main_ppo")
    args = parser.parse_args(argv)

    from hydra import compose, initialize_config_module
    from omegaconf import OmegaConf, open_dict

    with initialize_config_module(config_module="verl.trainer.config", version_base=None):
        config = compose(config_name="ppo_trainer", overrides=args.overrides)

    model_path = str(config.actor_rollout_ref.model.path)
    with tempfile.TemporaryDirectory() as tmp:
        if not Path(model_path).expanduser().is_dir():
            if not args.tokenizer_json:
                parser.error(f"model {model_path!r} is not a local directory: pass --tokenizer-json for a stub")
            stub = stub_model_dir(model_path, Path(args.tokenizer_json), Path(tmp))
            with open_dict(config):
                config.actor_rollout_ref.model.path = str(stub)
            print(f"[dry-run] {model_path} is not local: validating against a stub model ({stub.name})")

        from verl.trainer.ppo.reward import load_reward_manager
        from verl.trainer.ppo.utils import need_critic, need_reference_policy
        from verl.utils.config import validate_config
        from verl.utils.device import auto_set_device
        from verl.utils.tokenizer import hf_tokenizer

        auto_set_device(config)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            validate_config(config, use_reference_policy=need_reference_policy(config),
                            use_critic=need_critic(config))

        tokenizer = hf_tokenizer(config.actor_rollout_ref.model.path)
        manager = load_reward_manager(config, tokenizer)
        metric = config.algorithm.filter_groups.metric
        keys = getattr(manager, "reward_extra_keys", None)
        if config.algorithm.filter_groups.enable and keys is not None and metric not in keys:
            print(f"[dry-run] FAIL: filter_groups.metric={metric!r} is not among the reward's keys {keys}")
            return 1

    settings = getattr(manager, "settings", None)
    print(f"[dry-run] reward manager: {type(manager).__module__}.{type(manager).__name__}")
    if settings is not None:
        print(f"[dry-run] APR settings: {settings}")
    print(f"[dry-run] algorithm: adv={config.algorithm.adv_estimator} kl_in_reward={config.algorithm.use_kl_in_reward} "
          f"kl_loss={config.actor_rollout_ref.actor.use_kl_loss} clip=({config.actor_rollout_ref.actor.clip_ratio_low}, "
          f"{config.actor_rollout_ref.actor.clip_ratio_high}) filter_groups={OmegaConf.to_container(config.algorithm.filter_groups)}")
    print("[dry-run] OK: config composed, verl validation passed, reward manager loaded")
    return 0


if __name__ == "__main__":
    sys.exit(main())
