#!/usr/bin/env bash
# One-time (idempotent) set-up for a fresh machine or a normal developer machine:
#   - a Python virtual environment in .venv with the build and test tools;
#   - Rust crates: from crates.io when it can be reached, otherwise from Debian's
#     librust-*-dev packages through cargo source replacement, written to the user's cargo
#     config outside this repository (never committed, never needed where crates.io works);
#   - the apr_fast package itself, built with maturin in release mode.
# Usage: scripts/setup.sh [extra ...]   where extra is a pyproject optional-dependency group.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '\033[1m[setup]\033[0m %s\n' "$*" >&2; }

# --- Rust toolchain --------------------------------------------------------------------------
if ! command -v cargo >/dev/null 2>&1; then
    [ -x "$HOME/.cargo/bin/cargo" ] && export PATH="$HOME/.cargo/bin:$PATH"
fi
command -v cargo >/dev/null 2>&1 || {
    log "cargo not found: install Rust >= 1.70 (https://rustup.rs) and rerun"; exit 1; }

# --- Crate source ----------------------------------------------------------------------------
DEBIAN_CRATES="librust-pyo3-dev librust-rayon-dev librust-aho-corasick-dev librust-memchr-dev
  librust-num-bigint-dev librust-num-rational-dev librust-num-traits-dev librust-num-integer-dev
  librust-serde-dev librust-serde-derive-dev librust-serde-json-dev librust-proptest-dev
  librust-regex-syntax-dev"
cargo_home="${CARGO_HOME:-$HOME/.cargo}"
if curl -fsS --max-time 8 -o /dev/null https://index.crates.io/config.json 2>/dev/null; then
    log "crates.io reachable: cargo fetches crates normally"
elif grep -qs 'replace-with *= *"debian"' "$cargo_home/config.toml"; then
    log "crates.io unreachable: using Debian crates (already configured in $cargo_home/config.toml)"
else
    log "crates.io unreachable: installing Debian's crate sources and pointing cargo at them"
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    if ! dpkg -s $DEBIAN_CRATES >/dev/null 2>&1; then
        $SUDO apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $DEBIAN_CRATES >/dev/null
    fi
    mkdir -p "$cargo_home"
    cat >> "$cargo_home/config.toml" <<'TOML'

# Added by apr-fast scripts/setup.sh: crates.io was unreachable, so crates come from
# Debian's librust-*-dev packages. Delete these lines to use crates.io again.
[source.crates-io]
replace-with = "debian"
[source.debian]
directory = "/usr/share/cargo/registry"
TOML
fi
if grep -qs 'replace-with *= *"debian"' "$cargo_home/config.toml" && ! dpkg -s $DEBIAN_CRATES >/dev/null 2>&1; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $DEBIAN_CRATES >/dev/null
fi

# --- Python ----------------------------------------------------------------------------------
PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
    log "creating .venv with $($PY --version)"
    "$PY" -m venv .venv
fi
extras="${*:-}"
.venv/bin/python -m pip install -q --upgrade "pip>=23" "maturin>=1.4,<2"
case " $extras " in
    *" verl "*)
        # verl's test stack wants torch; take the CPU build (APR_TORCH_SPEC / APR_TORCH_INDEX
        # override it, e.g. APR_TORCH_INDEX=https://download.pytorch.org/whl/cpu on a normal
        # machine, where PyPI's default Linux wheel is a multi-GB CUDA build).
        if ! .venv/bin/python -c "import torch" 2>/dev/null; then
            log "installing ${APR_TORCH_SPEC:-torch==2.13.0} (CPU) for the verl integration tests"
            .venv/bin/python -m pip install -q "${APR_TORCH_SPEC:-torch==2.13.0}" \
                ${APR_TORCH_INDEX:+--index-url "$APR_TORCH_INDEX"}
        fi ;;
esac
spec="."
[ -n "$extras" ] && spec=".[$(echo "$extras" | tr ' ' ',')]"
log "installing apr-fast$([ -n "$extras" ] && echo "[$extras]") (release build of the Rust core)"
.venv/bin/python -m pip install -q -e "$spec"
case " $extras " in
    *" verl "*)
        # verl's own requirements pull vllm, wandb, peft...: install it alone, its light
        # runtime dependencies came with the extra above.
        .venv/bin/python -m pip install -q --no-deps "verl==${APR_VERL_VERSION:-0.9.1}" ;;
esac
log "ready: $(.venv/bin/python -c 'import apr_fast; print("apr_fast", apr_fast.__version__)')"
