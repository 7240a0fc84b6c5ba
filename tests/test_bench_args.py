"""The benchmark scripts refuse a count they cannot use (``--repeat 0``, a negative
``--show``) with argparse's usage error and exit status 2, before any work: not a
``ZeroDivisionError`` or a ``KeyError`` minutes later, nor a table of ``inf``."""
from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCHES = ROOT / "benches"


def _common():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("benches_common", BENCHES / "_common.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_at_least_parses_counts_and_names_what_is_wrong() -> None:
    at_least = _common().at_least
    assert at_least(0)("0") == 0
    assert at_least(1)("15") == 15
    with pytest.raises(argparse.ArgumentTypeError, match="must be at least 1, got 0"):
        at_least(1)("0")
    with pytest.raises(argparse.ArgumentTypeError, match="must be at least 0, got -3"):
        at_least(0)("-3")
    with pytest.raises(argparse.ArgumentTypeError, match="must be an integer, got '2.5'"):
        at_least(0)("2.5")


# One count of each script that takes counts, with a value below its least.
BAD_COUNTS = [
    ("anchor_devset.py", ["--errors", "-1"]),
    ("bench_answers.py", ["--repeat", "0"]),
    ("bench_answers.py", ["--math-verify-rollouts", "-1"]),
    ("bench_reward.py", ["--reference-rollouts", "-1"]),
    ("bench_reward.py", ["--thread-repeat", "0"]),
    ("bench_segmentation.py", ["--reference-repeat", "0"]),
    ("bench_tokens.py", ["--repeat", "0"]),
    ("bench_verl_batch.py", ["--width", "0"]),
    ("compare_builds.py", ["A", "B", "--calls", "0"]),
    ("compare_rows.py", ["A", "B", "--show", "-1"]),
    ("count_instructions.py", ["outcome", "--top", "-1"]),
    ("extraction_recall.py", ["--show", "-1"]),
    ("fuzz_answers.py", ["--mutations", "-1"]),
    ("fuzz_encoding.py", ["--texts", "-1"]),
    ("fuzz_extraction.py", ["--repeat", "0"]),
    ("fuzz_reward.py", ["--rollouts", "-1"]),
    ("fuzz_segmentation.py", ["--hang-seconds", "0"]),
    ("gold_answers.py", ["--show", "-1"]),
    ("harmony_parity.py", ["--repeat", "0"]),
    ("published_suites.py", ["--show", "-1"]),
    ("splitter_quality.py", ["--sentences", "-1"]),
    ("think_tags_auto.py", ["--repeat", "0"]),
]


@pytest.mark.parametrize(("script", "args"), BAD_COUNTS, ids=[f"{s} {' '.join(a)}" for s, a in BAD_COUNTS])
def test_a_count_below_its_least_is_a_usage_error(script: str, args: list[str]) -> None:
    out = subprocess.run([sys.executable, str(BENCHES / script), *args], capture_output=True, text=True, timeout=120)
    assert out.returncode == 2, out.stderr[-2000:]
    option = next(a for a in args if a.startswith("--"))
    assert f"argument {option}: must be at least" in out.stderr


def test_every_count_option_is_checked() -> None:
    """No benchmark script takes a bare ``type=int`` option any more (a seed may be any int)."""
    bare = [
        f"{path.name}: {line.strip()}"
        for path in sorted(BENCHES.glob("*.py"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if "type=int" in line and "--seed" not in line and "--round" not in line
    ]
    assert bare == []
