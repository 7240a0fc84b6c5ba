#!/usr/bin/env bash
# A profile-guided (PGO) release build of the native core: build it instrumented, run the
# workload of scripts/pgo_workload.py (the example traces bundled in the repository: rewards
# from token ids and from text, the outcome check, equivalence, splitting, encoding), merge the
# counts, and build again with them. The code is the same; the compiler lays it out and
# inlines for the paths that run. Rows are identical to a plain build's
# (`benches/compare_rows.py`); `benches/compare_builds.py` times the two.
#
# Usage: scripts/build_pgo.sh [--wheel DIR] [extra ...]
#   without --wheel: installs the PGO build into .venv (editable, as scripts/setup.sh does);
#   --wheel DIR:     also writes a PGO-built wheel to DIR (maturin build --release).
#   extra:           pyproject optional-dependency groups, passed to scripts/setup.sh.
# Needs llvm-profdata of the LLVM that rustc uses (`rustc -vV` names it): rustup's
# llvm-tools component (`rustup component add llvm-tools`), Debian/Ubuntu's llvm-N package,
# or $LLVM_PROFDATA. A later scripts/setup.sh (scripts/test.sh runs it) rebuilds without PGO.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '\033[1m[pgo]\033[0m %s\n' "$*" >&2; }

wheel_dir=""
extras=()
while [ $# -gt 0 ]; do
    case "$1" in
        --wheel) [ $# -ge 2 ] || { log "--wheel needs a directory"; exit 2; }; wheel_dir="$2"; shift 2 ;;
        -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) extras+=("$1"); shift ;;
    esac
done

# (The `+` form: bash 3.2, macOS's, calls an empty array unbound under `set -u`.)
bash scripts/setup.sh ${extras[@]+"${extras[@]}"}
[ -x "$HOME/.cargo/bin/cargo" ] && export PATH="$HOME/.cargo/bin:$PATH"

# --- llvm-profdata of rustc's LLVM -----------------------------------------------------------
llvm_major=$(rustc -vV | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p')
host=$(rustc -vV | sed -n 's/^host: //p')
profdata=""
for candidate in "${LLVM_PROFDATA:-}" "$(rustc --print sysroot)/lib/rustlib/$host/bin/llvm-profdata" \
        "llvm-profdata-$llvm_major" "llvm-profdata"; do
    [ -n "$candidate" ] && command -v "$candidate" >/dev/null 2>&1 || continue
    major=$("$candidate" --version 2>/dev/null | sed -n 's/.*LLVM version \([0-9]*\).*/\1/p' | head -1)
    if [ "$major" = "$llvm_major" ]; then
        profdata=$(command -v "$candidate")
        break
    fi
    log "skipping $candidate: LLVM ${major:-?}, rustc uses LLVM $llvm_major (profiles differ by version)"
done
if [ -z "$profdata" ]; then
    log "no llvm-profdata of LLVM $llvm_major: run \`rustup component add llvm-tools\`," \
        "install llvm-$llvm_major (apt-get install llvm-$llvm_major), or set LLVM_PROFDATA"
    exit 1
fi
log "llvm-profdata: $profdata (LLVM $llvm_major)"

# --- instrumented build, workload, merge ------------------------------------------------------
profiles="$PWD/target/pgo"
rm -rf "$profiles"
mkdir -p "$profiles/raw"
base_flags="${RUSTFLAGS:-}"
# An instrumented build left in .venv would be slow and write a profile from every process
# that imports it: if any step fails before the PGO build is in, put a plain build back.
restore_plain() {
    log "failed: reinstalling the plain build"
    RUSTFLAGS="$base_flags" .venv/bin/python -m pip install -q -e . --no-deps || true
}
trap restore_plain ERR
log "building instrumented (-Cprofile-generate)"
RUSTFLAGS="$base_flags -Cprofile-generate=$profiles/raw" .venv/bin/python -m pip install -q -e . --no-deps
log "running the workload (scripts/pgo_workload.py)"
LLVM_PROFILE_FILE="$profiles/raw/%p-%m.profraw" .venv/bin/python scripts/pgo_workload.py
if ! ls "$profiles"/raw/*.profraw >/dev/null 2>&1; then
    log "the workload wrote no profile to $profiles/raw: was the instrumented build imported?"
    restore_plain
    exit 1
fi
"$profdata" merge -o "$profiles/merged.profdata" "$profiles"/raw/*.profraw

# --- the optimized build ----------------------------------------------------------------------
use_flags="$base_flags -Cprofile-use=$profiles/merged.profdata"
log "building with the profile (-Cprofile-use)"
RUSTFLAGS="$use_flags" .venv/bin/python -m pip install -q -e . --no-deps
trap - ERR
if [ -n "$wheel_dir" ]; then
    mkdir -p "$wheel_dir"
    RUSTFLAGS="$use_flags" .venv/bin/python -m maturin build --release --locked --out "$wheel_dir"
    log "wheel written to $wheel_dir"
fi
log "ready: apr_fast built with PGO in .venv ($(.venv/bin/python -c 'import apr_fast; print(apr_fast.__version__)'))"
