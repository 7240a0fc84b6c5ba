#!/usr/bin/env bash
# The whole test suite: Rust unit and property tests, then the Python suite (pytest +
# hypothesis, parity and integration tests), then the type stubs against the native module and
# the package's annotations (mypy).
# Installs what it needs first (scripts/setup.sh), so it passes on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test verl
[ -x "$HOME/.cargo/bin/cargo" ] && export PATH="$HOME/.cargo/bin:$PATH"

echo "== cargo test ==" >&2
cargo test --release --quiet

# One layout for the crate (rustfmt.toml): a contributor's `cargo fmt` changes only their own lines.
echo "== rustfmt ==" >&2
if cargo fmt --version >/dev/null 2>&1; then
    cargo fmt --check
else
    echo "rustfmt is not installed (rustup component add rustfmt): format check skipped" >&2
fi

# The crate declares `rust-version` (its MSRV): clippy's `incompatible_msrv` lint fails on any
# std API newer than that, which the current toolchain would otherwise accept silently.
echo "== MSRV check (clippy incompatible_msrv) ==" >&2
if cargo clippy --version >/dev/null 2>&1; then
    cargo clippy --release --all-targets --features python --quiet -- \
        -A warnings -A clippy::all -D clippy::incompatible_msrv
else
    echo "clippy is not installed (rustup component add clippy): MSRV check skipped" >&2
fi

echo "== pytest ==" >&2
.venv/bin/python -m pytest -q "$@"

echo "== stubtest ==" >&2
.venv/bin/python -m mypy.stubtest apr_fast._core --ignore-missing-stub

# The package's annotations against the stubs and each other: a typed API users can rely on.
echo "== mypy ==" >&2
.venv/bin/python -m mypy python/apr_fast
