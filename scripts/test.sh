#!/usr/bin/env bash
# The whole test suite: Rust unit and property tests, then the Python suite (pytest +
# hypothesis, parity and integration tests), then the type stubs against the native module.
# Installs what it needs first (scripts/setup.sh), so it passes on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test verl
[ -x "$HOME/.cargo/bin/cargo" ] && export PATH="$HOME/.cargo/bin:$PATH"

echo "== cargo test ==" >&2
cargo test --release --quiet

echo "== pytest ==" >&2
.venv/bin/python -m pytest -q "$@"

echo "== stubtest ==" >&2
.venv/bin/python -m mypy.stubtest apr_fast._core --ignore-missing-stub
