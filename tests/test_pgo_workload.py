"""The workload scripts/build_pgo.sh trains its profile on: it must run the normal paths of
the installed build (a workload that breaks, or that scores only errors, gives a profile of the
wrong code; scripts/build_pgo.sh itself takes three release builds and is run by hand)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_pgo_workload_runs_the_example_traces_through_the_normal_paths() -> None:
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "pgo_workload.py")],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "pgo workload: 50 traces (45 correct, 48 anchors found), 3 rounds" in out.stderr


def test_build_pgo_script_is_valid_bash_and_explains_itself() -> None:
    script = ROOT / "scripts" / "build_pgo.sh"
    assert subprocess.run(["bash", "-n", str(script)], capture_output=True).returncode == 0
    # --help prints the usage without building anything.
    out = subprocess.run(["bash", str(script), "--help"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "Usage: scripts/build_pgo.sh" in out.stdout and "llvm-profdata" in out.stdout
