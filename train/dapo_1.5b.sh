#!/usr/bin/env bash
# APR + DAPO on DeepSeek-R1-Distill-Qwen-1.5B (the paper's settings); see train/run_apr.sh.
exec env ALGO=dapo MODEL_SIZE=1.5b bash "$(dirname "$0")/run_apr.sh" "$@"
