#!/usr/bin/env bash
# APR training on VeRL 0.9.x: `python -m verl.trainer.main_ppo` (V1 trainer) with the apr-fast
# reward-loop manager. The settings are the paper's (apr-method.md, "Training"); every
# variable below can be overridden from the environment, and extra Hydra overrides can be
# appended on the command line:
#
#   ALGO=dapo MODEL_SIZE=1.5b DATA_DIR=~/data/apr bash train/run_apr.sh trainer.total_epochs=3
#
# ALGO        dapo (dynamic sampling, clip-higher, no KL) | grpo (KL loss + KL in reward)
# MODEL_SIZE  1.5b (beta 2e-4) | 7b (beta 5e-4) | gpt-oss-20b (beta 5e-4, the 7B value: the
#             paper trains no model this size; think_tags=harmony, rollout TP 2, reasoning
#             effort REASONING_EFFORT, default medium); MODEL overrides the model path
# DATA_DIR    where train/prepare_data.py wrote train.parquet and val_*.parquet
# APR_ANCHORS by_split (default: in training rows, extra_info.split "train" as
#             prepare_data.py writes it, the anchor only of rollouts whose reward needs it,
#             about 38% less reward time for the same rewards; in validation rows every
#             rollout's L_AST and rho, which validation logs) | all (every row's every
#             rollout) | rewarded (every row as training rows: validation's l_ast/rho are then
#             0 for incorrect rollouts)
# APR_DRY_RUN=1 composes and validates the whole config without GPUs (train/dry_run.py).
# APR_ENTRYPOINT  default "python3 -m verl.trainer.main_ppo" (V1 trainer, DAPO filter built in);
#             "python3 -m recipe.dapo.main_dapo" runs verl-recipe's classic DAPO loop (the
#             paper's gen_batch_size/max_num_gen_batches semantics) with the same settings.
set -euo pipefail

ALGO=${ALGO:-dapo}
MODEL_SIZE=${MODEL_SIZE:-1.5b}
THINK_TAGS=think ROLLOUT_TP=1 MINI_BATCH=64 model_specific=()
case "$MODEL_SIZE" in
    1.5b) MODEL=${MODEL:-deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B}; BETA=${BETA:-2e-4} ;;
    7b)   MODEL=${MODEL:-deepseek-ai/DeepSeek-R1-Distill-Qwen-7B};   BETA=${BETA:-5e-4} ;;
    gpt-oss-20b)
        # verl's own gpt-oss example: a bf16 (dequantized MXFP4) checkpoint, rollout tensor
        # parallel 2, one optimizer step per batch (mini batch = batch: MoE training is
        # unstable otherwise), the chat template's reasoning effort. The thinking is the
        # analysis channel: think_tags=harmony.
        MODEL=${MODEL:-lmsys/gpt-oss-20b-bf16}; BETA=${BETA:-5e-4}
        THINK_TAGS=harmony ROLLOUT_TP=2 MINI_BATCH=128
        model_specific=(
            +data.apply_chat_template_kwargs.reasoning_effort=${REASONING_EFFORT:-medium}
            actor_rollout_ref.actor.fsdp_config.model_dtype=bfloat16
        ) ;;
    *) echo "MODEL_SIZE must be 1.5b, 7b or gpt-oss-20b, got '$MODEL_SIZE'" >&2; exit 2 ;;
esac
DATA_DIR=${DATA_DIR:-$HOME/data/apr}
TRAIN_FILES=${TRAIN_FILES:-$DATA_DIR/train.parquet}
VAL_FILES=${VAL_FILES:-[$DATA_DIR/val_aime2024.parquet,$DATA_DIR/val_amc.parquet,$DATA_DIR/val_math500.parquet,$DATA_DIR/val_minerva.parquet,$DATA_DIR/val_olympiad_bench.parquet]}
NNODES=${NNODES:-1}
GPUS_PER_NODE=${GPUS_PER_NODE:-8}
MAX_PROMPT=${MAX_PROMPT:-2048}
MAX_RESPONSE=${MAX_RESPONSE:-8192}
PROJECT=${PROJECT:-apr}
EXPERIMENT=${EXPERIMENT:-apr-$ALGO-$MODEL_SIZE-beta$BETA}

common=(
    data.train_files="$TRAIN_FILES" data.val_files="$VAL_FILES"
    data.prompt_key=prompt data.truncation=left
    data.train_batch_size=128
    data.max_prompt_length="$MAX_PROMPT" data.max_response_length="$MAX_RESPONSE"
    actor_rollout_ref.model.path="$MODEL"
    actor_rollout_ref.model.use_remove_padding=True
    actor_rollout_ref.model.enable_gradient_checkpointing=True
    actor_rollout_ref.actor.optim.lr=1e-6
    actor_rollout_ref.actor.grad_clip=1.0
    actor_rollout_ref.actor.ppo_mini_batch_size="$MINI_BATCH"
    actor_rollout_ref.actor.ppo_epochs=1
    actor_rollout_ref.actor.use_dynamic_bsz=True
    actor_rollout_ref.actor.ppo_max_token_len_per_gpu=$(( (MAX_PROMPT + MAX_RESPONSE) * 2 ))
    actor_rollout_ref.actor.entropy_coeff=0
    actor_rollout_ref.actor.loss_agg_mode=token-mean
    actor_rollout_ref.rollout.name=vllm
    actor_rollout_ref.rollout.n=8
    actor_rollout_ref.rollout.temperature=0.9
    actor_rollout_ref.rollout.top_p=1.0
    actor_rollout_ref.rollout.top_k=-1
    actor_rollout_ref.rollout.tensor_model_parallel_size="$ROLLOUT_TP"
    actor_rollout_ref.rollout.gpu_memory_utilization=0.7
    actor_rollout_ref.rollout.max_num_batched_tokens=$(( MAX_PROMPT + MAX_RESPONSE ))
    actor_rollout_ref.rollout.log_prob_use_dynamic_bsz=True
    actor_rollout_ref.rollout.log_prob_max_token_len_per_gpu=$(( (MAX_PROMPT + MAX_RESPONSE) * 3 ))
    actor_rollout_ref.ref.log_prob_use_dynamic_bsz=True
    actor_rollout_ref.ref.log_prob_max_token_len_per_gpu=$(( (MAX_PROMPT + MAX_RESPONSE) * 3 ))
    actor_rollout_ref.rollout.val_kwargs.temperature=0.6
    actor_rollout_ref.rollout.val_kwargs.top_p=0.95
    actor_rollout_ref.rollout.val_kwargs.do_sample=True
    actor_rollout_ref.rollout.val_kwargs.n=4
    trainer.logger='["console","wandb"]'
    trainer.project_name="$PROJECT" trainer.experiment_name="$EXPERIMENT"
    trainer.n_gpus_per_node="$GPUS_PER_NODE" trainer.nnodes="$NNODES"
    trainer.test_freq=10 trainer.save_freq=50 trainer.total_epochs=10
)

case "$ALGO" in
    dapo) algo=(
        algorithm.adv_estimator=grpo
        algorithm.use_kl_in_reward=False
        algorithm.kl_ctrl.kl_coef=0.0
        algorithm.filter_groups.enable=True
        algorithm.filter_groups.metric=acc
        # V1 ignores max_num_gen_batches and gen_batch_size (it warns): 3 batches in flight
        # (384 prompts) is its equivalent of the paper's gen batch 384 / up to 10 gen batches.
        algorithm.filter_groups.max_num_gen_batches=10
        algorithm.filter_groups.max_inflight_gen_batches=3
        data.gen_batch_size=384
        actor_rollout_ref.actor.use_kl_loss=False
        actor_rollout_ref.actor.kl_loss_coef=0.0
        actor_rollout_ref.actor.clip_ratio_low=0.2
        actor_rollout_ref.actor.clip_ratio_high=0.28
        actor_rollout_ref.actor.clip_ratio_c=10.0
        actor_rollout_ref.actor.optim.lr_warmup_steps=10
        actor_rollout_ref.actor.optim.weight_decay=0.1
    ) ;;
    grpo) algo=(
        algorithm.adv_estimator=grpo
        algorithm.use_kl_in_reward=True
        algorithm.kl_ctrl.kl_coef=0.001
        actor_rollout_ref.actor.use_kl_loss=True
        actor_rollout_ref.actor.kl_loss_coef=0.001
        actor_rollout_ref.actor.kl_loss_type=low_var_kl
        actor_rollout_ref.actor.clip_ratio_low=0.2
        actor_rollout_ref.actor.clip_ratio_high=0.2
        actor_rollout_ref.actor.clip_ratio_c=3.0
        actor_rollout_ref.actor.optim.lr_warmup_steps=-1
        actor_rollout_ref.actor.optim.weight_decay=0.01
    ) ;;
    *) echo "ALGO must be dapo or grpo, got '$ALGO'" >&2; exit 2 ;;
esac

if [ "${APR_DRY_RUN:-0}" = "1" ]; then
    entry=(python3 "$(dirname "$0")/dry_run.py")
else
    read -r -a entry <<< "${APR_ENTRYPOINT:-python3 -m verl.trainer.main_ppo}"
fi

# The classic DAPO loop (verl-recipe `python3 -m recipe.dapo.main_dapo`, not in the verl wheel;
# ALGO=dapo): its yaml declares reward.reward_kwargs.overlong_buffer_cfg.*, so those keys take no
# `+`, and it finds verl's configs only through hydra.searchpath when verl is pip-installed.
overlong=+
recipe=()
case "${entry[*]}" in
    *recipe.dapo*) overlong=""; recipe=("hydra.searchpath=[pkg://verl.trainer.config]") ;;
esac

reward=(
    reward.reward_manager.source=importlib
    reward.reward_manager.module.path=pkg://apr_fast.verl.manager
    reward.reward_manager.name=APRRewardManager
    +reward.reward_kwargs.beta="$BETA"
    +reward.reward_kwargs.mode=${APR_MODE:-default}
    +reward.reward_kwargs.anchors=${APR_ANCHORS:-by_split}
    +reward.reward_kwargs.think_tags="$THINK_TAGS"
    +reward.reward_kwargs.max_resp_len="$MAX_RESPONSE"
    ${overlong}reward.reward_kwargs.overlong_buffer_cfg.enable=${OVERLONG:-False}
    ${overlong}reward.reward_kwargs.overlong_buffer_cfg.len=${OVERLONG_LEN:-1024}
    ${overlong}reward.reward_kwargs.overlong_buffer_cfg.penalty_factor=${OVERLONG_PENALTY:-1.0}
    ${overlong}reward.reward_kwargs.overlong_buffer_cfg.log=False
)

args=()
for a in "${common[@]}" "${model_specific[@]}" "${algo[@]}" "${reward[@]}" "${recipe[@]}"; do [ -n "$a" ] && args+=("$a"); done
exec "${entry[@]}" "${args[@]}" "$@"
