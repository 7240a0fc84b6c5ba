"""What the benchmark scripts share: where the data lies, loading the traces, and timing.

The scripts run as ``python benches/NAME.py``, so this directory is on ``sys.path``.
"""
from __future__ import annotations

import gzip
import json
import time
from pathlib import Path
from typing import Any, Callable

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
TRACES = DATA / "traces" / "traces.jsonl.gz"
TOKENIZER = DATA / "tokenizer" / "deepseek-r1-distill-qwen.tokenizer.json"


def load_traces() -> list[dict[str, Any]]:
    """Every row of the shared traces file."""
    with gzip.open(TRACES, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def cpu_best(repeat: int, fn: Callable[[], object]) -> tuple[float, Any]:
    """Best process CPU time of ``repeat`` runs (robust when other processes share the
    machine), and the last run's result."""
    best, result = float("inf"), None
    for _ in range(repeat):
        t0 = time.process_time()
        result = fn()
        best = min(best, time.process_time() - t0)
    return best, result


def wall_best(repeat: int, fn: Callable[[], object]) -> float:
    """Best wall time of ``repeat`` runs (for thread scaling)."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best
