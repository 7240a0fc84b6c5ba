#!/usr/bin/env bash
# APR + DAPO on gpt-oss-20b (harmony format: the analysis channel is the thinking); see
# train/run_apr.sh for what differs from the paper's settings and why.
exec env ALGO=dapo MODEL_SIZE=gpt-oss-20b bash "$(dirname "$0")/run_apr.sh" "$@"
