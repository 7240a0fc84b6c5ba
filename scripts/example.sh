#!/usr/bin/env bash
# The main job on the example data bundled in the repository: the APR reward of 50 real
# reasoning traces (examples/data, MIT), lengths in the DeepSeek-R1-Distill-Qwen tokenizer's
# own tokens. Prints, per trace, the final answer, whether it is correct, the anchor sentence,
# T_think, L_AST, rho and the reward, then a summary. Installs what it needs first.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/apr-fast score examples/data/sample_traces.jsonl \
    --tokenizer examples/data/deepseek-r1-distill-qwen.tokenizer.json.gz \
    --beta 5e-4 --format table "$@"
