#!/usr/bin/env bash
# APR + GRPO on DeepSeek-R1-Distill-Qwen-7B (the paper's settings); see train/run_apr.sh.
exec env ALGO=grpo MODEL_SIZE=7b bash "$(dirname "$0")/run_apr.sh" "$@"
