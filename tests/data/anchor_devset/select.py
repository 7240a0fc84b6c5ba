"""Deterministically choose the traces of the anchor development set.

Stratified by model and dataset over ../shared/data/traces/traces.jsonl.gz; only complete
traces (with </think>) that carry a \\boxed final answer, thinking under 30k characters so a
person can read each one whole. Rerun: python tests/data/anchor_devset/select.py
"""
from __future__ import annotations

import gzip
import hashlib
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TRACES = HERE.parents[2] / ".." / "shared" / "data" / "traces" / "traces.jsonl.gz"

# (model substring, dataset) -> how many traces
STRATA = {
    ("DeepSeek-R1-Distill-Qwen-1.5B", "aime2024"): 3, ("DeepSeek-R1-Distill-Qwen-1.5B", "aime2025"): 3,
    ("DeepSeek-R1-Distill-Qwen-1.5B", "amc_2022_2023"): 4,
    ("DeepSeek-R1-Distill-Qwen-7B", "aime2024"): 3, ("DeepSeek-R1-Distill-Qwen-7B", "aime2025"): 3,
    ("DeepSeek-R1-Distill-Qwen-7B", "amc_2022_2023"): 4, ("DeepSeek-R1-Distill-Qwen-7B", "math500"): 4,
    ("DeepSeek-R1-Distill-Qwen-32B", "aime2025"): 4, ("QwQ-32B", "aime2025"): 4,
    ("DeepSeek-R1 (API", "math500"): 4,
    ("Llama-8B", "aime2025"): 3, ("Llama-8B", "math500"): 3, ("Llama-70B", "aime2025"): 3,
    ("SB_DS1.5B", "aime2024"): 2, ("SB_DS1.5B", "amc_2022_2023"): 3, ("SB_DS1.5B", "math500"): 5,
    ("SB_DS1.5B", "minerva_math"): 4, ("SB_DS1.5B", "olympiadbench"): 5,
    ("SB_DS7B", "aime2024"): 2, ("SB_DS7B", "amc_2022_2023"): 3, ("SB_DS7B", "math500"): 5,
    ("SB_DS7B", "minerva_math"): 4,
}


def key(row: dict) -> str:
    return f"{row['source_repo']}|{row['source_path']}|{row['index']}"


def main() -> None:
    rows = [json.loads(line) for line in gzip.open(TRACES, "rt", encoding="utf-8")]
    chosen = []
    for (model_part, dataset), n in STRATA.items():
        pool = [
            r for r in rows
            if model_part in r["model"] and r["dataset"] == dataset and r["has_think_close"]
            and "\\boxed" in ((r["after_think"] or "") + r["thinking"][-3000:])
            and 300 < len(r["thinking"]) < 30000
        ]
        # A stable pseudo-random order: hash of the row's identity.
        pool.sort(key=lambda r: hashlib.sha256(key(r).encode()).hexdigest())
        chosen.extend(pool[:n])
    out = HERE / "selection.jsonl"
    with out.open("w", encoding="utf-8") as f:
        for i, r in enumerate(chosen):
            f.write(json.dumps({
                "id": f"dev{i:03d}", "batch": "AB"[i % 2], "source_repo": r["source_repo"],
                "source_path": r["source_path"], "index": r["index"], "model": r["model"],
                "dataset": r["dataset"], "thinking_chars": len(r["thinking"]),
            }) + "\n")
    print(f"wrote {len(chosen)} traces to {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
