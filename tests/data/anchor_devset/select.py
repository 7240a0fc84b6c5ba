"""Deterministically choose the traces of the anchor development set.

Stratified by model and dataset over ../shared/data/traces/traces.jsonl.gz; only complete
traces (with </think>) that carry a \\boxed final answer, thinking under 30k characters so a
person can read each one whole.

History: the first round (dev000-dev077, batches A and B) matched models by substring, and the
ShorterBetter model names contain their base model's name, so base-model strata drew
ShorterBetter traces and 13 traces were drawn twice. Those ids stay as they are (their
annotations refer to them; `evaluate` deduplicates by trace and uses the pairs annotated by
both annotators as an agreement check). Models are now matched exactly, and `--extend` tops up
every stratum with distinct new traces as batch C.

A held-out set (`holdout_selection.jsonl`, ids ho000...) is drawn the same way from traces not
in the development set, with a different hash salt and half the counts; it is annotated under
the same rules and never used to tune anchor modes, only to check them.

Later rounds (`--round 2` to `--round 4`) each draw one more full set of strata from traces
in neither set, with their own salt, and deal it alternately to the development set (batches
D and E, F and G, K and L) and the held-out set (H3 and H4, H5 and H6, H7 and H8), so that
both grow by the same mix; strata run out of traces as rounds go (round 4 drew 52).

Round 5 (`--round 5`, eighteenth stop) goes whole to the held-out set, batches H9 to H12: the
seventeenth stop drew ideas from reading held-out misses, so rounds 1 to 4 of the held-out set
no longer check those changes cleanly; round 5 was read after them and is reported on its own
(`benches/anchor_devset.py --set holdout --round 5`). From round 5 the Llama strata match the
`DeepSeek-R1-Distill-Llama-*` models they name (see `model_matches`). Round 6 (same stop)
goes whole to the development set, batches M, N, P and Q: new traces to look for faults in,
so that round 5 stays unread. Round 7 (nineteenth stop) goes whole to the development set
too, batches R, S, T and U, for the same reason, and so does round 8 (twentieth stop),
batches V, W, X and Y.

Round 9 (`--round 9`, twenty-first stop) goes whole to the held-out set, batches H13 to H16, a
second clean check: it is read after every change so far. By then the table's strata were spent
(of the traces under 30k characters left, 1,456 of 1,492 were ShorterBetter's), so round 9 has
its own strata (`LONG_STRATA`): by model alone, any dataset, and thinking up to 60k characters.
The base models' long traces are where most of a policy's tokens lie and where the tail is
longest, and no earlier round had one. Round 10 (`--round 10`, same stop) draws the same strata
again (38 traces: some models had fewer left) whole to the development set, batches Z1 to Z4:
long traces to look for faults in, so that round 9 stays unread.

Round 11 (`--round 11`, twenty-second stop) takes every trace left of those models whose thinking
is at least 20k characters long (`LONG_MIN_CHARS`), with no upper bound, whole to the
development set, batches J1 to J6: the long traces are where the default mode misses most (12
of round 9's 13 misses are early), and the development set held only 41 of them.

Rerun: python tests/data/anchor_devset/select.py --extend
       python tests/data/anchor_devset/select.py --holdout
       python tests/data/anchor_devset/select.py --round 2
       python tests/data/anchor_devset/select.py --round 3
       python tests/data/anchor_devset/select.py --round 4
       python tests/data/anchor_devset/select.py --round 5
       python tests/data/anchor_devset/select.py --round 6
       python tests/data/anchor_devset/select.py --round 7
       python tests/data/anchor_devset/select.py --round 8
       python tests/data/anchor_devset/select.py --round 9
       python tests/data/anchor_devset/select.py --round 10
       python tests/data/anchor_devset/select.py --round 11
"""
from __future__ import annotations

import gzip
import hashlib
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TRACES = HERE.parents[2] / ".." / "shared" / "data" / "traces" / "traces.jsonl.gz"

# (model prefix, dataset) -> how many distinct traces; a prefix names exactly one model.
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

# Rounds 9 and 10: model prefix -> how many traces, from any dataset, thinking up to LONG_MAX_CHARS.
LONG_STRATA = {
    "DeepSeek-R1-Distill-Qwen-1.5B": 8, "DeepSeek-R1-Distill-Qwen-7B": 9, "Llama-8B": 7,
    "Llama-70B": 7, "QwQ-32B": 7, "DeepSeek-R1 (API": 2, "SB_DS1.5B": 2, "SB_DS7B": 2,
}
LONG_MAX_CHARS = 60000
# Round 11: every trace left of the LONG_STRATA models with at least this much thinking.
LONG_MIN_CHARS = 20000


def key(row: dict) -> str:
    return f"{row['source_repo']}|{row['source_path']}|{row['index']}"


def model_matches(model: str, prefix: str, distill_prefix: bool = False) -> bool:
    """Exact model family: "deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B" is not a ShorterBetter model.

    With `distill_prefix` (round 5 on), a prefix also names the `DeepSeek-R1-Distill-` model it
    abbreviates: "Llama-8B" is "deepseek-ai/DeepSeek-R1-Distill-Llama-8B". Before, the Llama
    strata matched no model, so rounds 2 to 4 drew no Llama trace."""
    short = model.split("/", 1)[-1]
    if prefix.startswith("SB_"):
        return prefix in model
    if model.startswith("ShorterBetter"):
        return False
    return short.startswith(prefix) or (distill_prefix and short.startswith("DeepSeek-R1-Distill-" + prefix))


def eligible(r: dict, model_prefix: str, dataset: str | None, distill_prefix: bool = False,
             max_chars: int = 30000) -> bool:
    """Whether `r` belongs to the stratum (`dataset` None: any dataset) and can be annotated."""
    return (
        model_matches(r["model"], model_prefix, distill_prefix) and dataset in (None, r["dataset"])
        and r["has_think_close"]
        and "\\boxed" in ((r["after_think"] or "") + r["thinking"][-3000:])
        and 300 < len(r["thinking"]) < max_chars
    )


def record(i: int, batch: str, r: dict) -> dict:
    return {
        "id": f"dev{i:03d}", "batch": batch, "source_repo": r["source_repo"],
        "source_path": r["source_path"], "index": r["index"], "model": r["model"],
        "dataset": r["dataset"], "thinking_chars": len(r["thinking"]),
    }


def holdout(rows: list[dict]) -> None:
    dev = {key(json.loads(line)) for line in (HERE / "selection.jsonl").open(encoding="utf-8")}
    out = HERE / "holdout_selection.jsonl"
    chosen = []
    for (model_part, dataset), n in STRATA.items():
        pool = [r for r in rows if eligible(r, model_part, dataset) and key(r) not in dev]
        pool.sort(key=lambda r: hashlib.sha256(("holdout|" + key(r)).encode()).hexdigest())
        chosen.extend(pool[: (n + 1) // 2])
    with out.open("w", encoding="utf-8") as f:
        for i, r in enumerate(chosen):
            rec = record(i, "H1" if i % 2 == 0 else "H2", r)
            rec["id"] = f"ho{i:03d}"
            f.write(json.dumps(rec) + "\n")
    print(f"wrote {len(chosen)} held-out traces to {out}", file=sys.stderr)


def later_round(rows: list[dict], number: int) -> None:
    from annotate import ROUNDS  # this folder's table of rounds and batches

    dev_batches, held_batches = ROUNDS[number]
    dev_file, held_file = HERE / "selection.jsonl", HERE / "holdout_selection.jsonl"
    dev = [json.loads(line) for line in dev_file.open(encoding="utf-8")]
    held = [json.loads(line) for line in held_file.open(encoding="utf-8")]
    if any(r["batch"] in dev_batches + held_batches for r in dev + held):
        sys.exit(f"round {number} is drawn already")
    taken = {key(r) for r in dev + held}
    chosen = []
    min_chars = 0
    if number >= 11:
        strata = {(model_part, None): len(rows) for model_part in LONG_STRATA}
        max_chars, min_chars = sys.maxsize, LONG_MIN_CHARS
    elif number >= 9:
        strata = {(model_part, None): n for model_part, n in LONG_STRATA.items()}
        max_chars = LONG_MAX_CHARS
    else:
        strata, max_chars = STRATA, 30000
    for (model_part, dataset), n in strata.items():
        pool = [r for r in rows if eligible(r, model_part, dataset, number >= 5, max_chars) and key(r) not in taken
                and len(r["thinking"]) >= min_chars]
        pool.sort(key=lambda r: hashlib.sha256((f"round{number}|" + key(r)).encode()).hexdigest())
        chosen.extend(pool[:n])
    # A round without development batches (rounds 5 and 9) goes whole to the held-out set, one without
    # held-out batches (rounds 6 to 8, 10 and 11) whole to the development set.
    if dev_batches and held_batches:
        to_dev, to_held = chosen[0::2], chosen[1::2]
    else:
        to_dev, to_held = (chosen, []) if dev_batches else ([], chosen)
    with dev_file.open("a", encoding="utf-8") as f:
        for j, r in enumerate(to_dev):
            f.write(json.dumps(record(len(dev) + j, dev_batches[j % len(dev_batches)], r)) + "\n")
    with held_file.open("a", encoding="utf-8") as f:
        for j, r in enumerate(to_held):
            rec = record(len(held) + j, held_batches[j % len(held_batches)], r)
            rec["id"] = f"ho{len(held) + j:03d}"
            f.write(json.dumps(rec) + "\n")
    print(f"round {number}: {len(to_dev)} traces to {dev_file.name}, {len(to_held)} to {held_file.name}", file=sys.stderr)


def main() -> None:
    rows = [json.loads(line) for line in gzip.open(TRACES, "rt", encoding="utf-8")]
    if "--holdout" in sys.argv:
        holdout(rows)
        return
    if "--round" in sys.argv:
        later_round(rows, int(sys.argv[sys.argv.index("--round") + 1]))
        return
    out = HERE / "selection.jsonl"
    existing = [json.loads(line) for line in out.open(encoding="utf-8")] if out.exists() else []
    if existing and "--extend" not in sys.argv:
        sys.exit(f"{out} exists; pass --extend to top up strata without renumbering")
    taken = {key(r) for r in existing}
    by_key = {key(r): r for r in rows}
    new = []
    for (model_part, dataset), n in STRATA.items():
        have = sum(1 for k in taken if eligible(by_key[k], model_part, dataset))
        pool = [r for r in rows if eligible(r, model_part, dataset) and key(r) not in taken]
        # A stable pseudo-random order: hash of the row's identity.
        pool.sort(key=lambda r: hashlib.sha256(key(r).encode()).hexdigest())
        for r in pool[: max(0, n - have)]:
            taken.add(key(r))
            new.append(r)
    batch = "C" if existing else None
    with out.open("a", encoding="utf-8") as f:
        for j, r in enumerate(new):
            i = len(existing) + j
            f.write(json.dumps(record(i, batch or "AB"[i % 2], r)) + "\n")
    print(f"added {len(new)} traces to {out} (now {len(existing) + len(new)} ids)", file=sys.stderr)


if __name__ == "__main__":
    main()
