#!/usr/bin/env bash
# APR + DAPO on DeepSeek-R1-Distill-Qwen-7B (the paper's settings); see train/run_apr.sh.
exec env ALGO=dapo MODEL_SIZE=7b bash "$(dirname "$0")/run_apr.sh" "$@"
