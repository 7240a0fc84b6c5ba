"""What the benchmark scripts share: where the data lies, loading the traces, and timing.

The scripts run as ``python benches/NAME.py``, so this directory is on ``sys.path``.
"""
from __future__ import annotations

import argparse
import contextlib
import gzip
import hashlib
import json
import os
import pickle
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable, Iterator

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
TRACES = DATA / "traces" / "traces.jsonl.gz"
TOKENIZER = DATA / "tokenizer" / "deepseek-r1-distill-qwen.tokenizer.json"


def at_least(minimum: int) -> Callable[[str], int]:
    """An ``argparse`` type for a count: an int of at least ``minimum``, else the usage error
    ("argument --repeat: must be at least 1, got 0") and exit status 2, not a crash or a table
    of ``inf`` later."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be an integer, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
        return value

    parse.__name__ = f"integer of at least {minimum}"
    return parse


def traces_missing(needed_by: str = "") -> bool:
    """Whether the shared traces file is absent; then it says so on stderr (the scripts then
    exit with status 2). ``needed_by`` names what needs them, for the message."""
    if TRACES.exists():
        return False
    print(f"{TRACES} not found" + (f": {needed_by} needs ../shared/data" if needed_by else ""), file=sys.stderr)
    return True


def load_traces() -> list[dict[str, Any]]:
    """Every row of the shared traces file."""
    with gzip.open(TRACES, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def responses_and_truths(rows: list[dict[str, Any]]) -> tuple[list[str], list[Any]]:
    """The responses and the ground truths of trace rows, in order."""
    return [r["completion"] for r in rows], [r["ground_truth"] for r in rows]


def response_shape(response: str, close: str = "</think>") -> str:
    """What reading a response costs, by its shape: ``"ASCII, with </think>"``,
    ``"not ASCII, without </think>"``, ... An ASCII ``str`` is borrowed as it is; one that is
    not is copied out of CPython and encoded; one with the tag is read from its end, one
    without it whole."""
    return f"{'ASCII' if response.isascii() else 'not ASCII'}, {'with' if close in response else 'without'} {close}"


def token_id_arrays(responses: list[str], hf: Any = None) -> list[Any]:
    """Each response's ids in the shared tokenizer (``hf``, a loaded ``tokenizers.Tokenizer``,
    or loaded here), as numpy int64 arrays: they stand in for the tensor rows a VeRL
    ``DataProto`` hands a reward manager."""
    import numpy as np
    from tokenizers import Tokenizer

    hf = Tokenizer.from_file(str(TOKENIZER)) if hf is None else hf
    return [np.asarray(e.ids, dtype=np.int64) for e in hf.encode_batch(responses, add_special_tokens=False)]


@contextlib.contextmanager
def pickled_for_children(data: Any) -> Iterator[Path]:
    """`data` pickled to a temporary file for child processes to load (the builds or the
    counted programs a benchmark starts), removed when the block ends."""
    with tempfile.NamedTemporaryFile(suffix=".pkl", delete=False) as f:
        pickle.dump(data, f)
        path = Path(f.name)
    try:
        yield path
    finally:
        path.unlink(missing_ok=True)


def rollout_kind(row: Any) -> str:
    """A reward row's kind, for the figures by kind (``bench_reward.py --by-kind``,
    ``count_instructions.py --kind``): its status, whether it is correct, and whether it has a
    final answer, as in ``ok, incorrect`` or ``truncated, incorrect, no final answer``."""
    return f"{row.status}, {'correct' if row.correct else 'incorrect'}" + (", no final answer" if row.final_answer is None else "")


def run_with_build(build: str, script: str, args: list[str]) -> str:
    """Runs ``script`` (a benchmark's own file, with its ``--inner`` arguments) in a child
    process that imports the build ``build``: a directory holding an importable ``apr_fast``
    with its native module, or ``installed`` for the one this environment imports. Returns
    the child's standard output; a child that fails ends the benchmark with its error.
    OpenBLAS is held to one thread (numpy's spinning threads otherwise share the two cores)."""
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    if build != "installed":
        env["PYTHONPATH"] = os.pathsep.join([build, env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    out = subprocess.run([sys.executable, script, "--inner", *args], capture_output=True, text=True, env=env, check=False)
    if out.returncode != 0:
        raise SystemExit(f"{build}: the child process failed ({out.returncode}):\n{out.stderr[-2000:]}")
    return out.stdout


def check_build_imported(build: str, module_file: str) -> None:
    """Ends the benchmark when a child meant to import ``build`` imported ``apr_fast`` (whose
    ``__file__`` it reported) from elsewhere."""
    if build != "installed" and not Path(module_file).resolve().is_relative_to(Path(build).resolve()):
        raise SystemExit(f"{build}: the process imported apr_fast from {module_file}, not from this build")


def check_builds(parser: Any, builds: list[str]) -> None:
    """Rejects (through ``parser.error``) a build directory without an ``apr_fast`` package."""
    for build in builds:
        if build != "installed" and not (Path(build) / "apr_fast").is_dir():
            parser.error(f"{build} holds no apr_fast package")


class FreshTexts:
    """Texts as new ``str`` objects before every timed call (``renew``), as a training step or
    an evaluation gets its responses: decoded or read from a file just now.

    CPython makes a string's UTF-8 the first time something asks for it and keeps it with the
    string: a benchmark that calls a checker again and again on the same objects times every
    call after the first without the conversion that a real batch pays. apr-fast reads such
    strings itself (``TextReader`` in ``rust/bindings/mod.rs``) and keeps no UTF-8 with them,
    so both its first and its repeated calls pay; a peer that asks CPython for the UTF-8 would
    pay only once. Renewing the objects gives every checker what a real batch gives it.
    """

    def __init__(self, texts: list[str]) -> None:
        self._originals = list(texts)
        self.texts = self._originals

    def renew(self) -> None:
        self.texts = [t.encode().decode() for t in self._originals]


def cpu_best(repeat: int, fn: Callable[[], object]) -> tuple[float, Any]:
    """Best process CPU time of ``repeat`` runs (robust when other processes share the
    machine), and the last run's result."""
    best, result = float("inf"), None
    for _ in range(repeat):
        t0 = time.process_time()
        result = fn()
        best = min(best, time.process_time() - t0)
    return best, result


def interleaved_best(
    repeat: int, fns: dict[str, Callable[[], object]], once: frozenset[str] = frozenset(),
    before: Callable[[], None] | None = None,
) -> dict[str, tuple[float, Any]]:
    """Best process CPU time of each function over ``repeat`` rounds, the functions taking
    turns within each round, and each one's last result. On a shared machine whose speed
    drifts over minutes, turns keep the ratios between the functions honest: each one sees
    the same slow and fast periods. Functions named in ``once`` run in the first round only
    (math-verify caches what it parsed: a second run would time its cache). ``before`` runs,
    untimed, before every call (``FreshTexts.renew``)."""
    best: dict[str, float] = {name: float("inf") for name in fns}
    results: dict[str, Any] = {}
    for round_ in range(repeat):
        for name, fn in fns.items():
            if round_ > 0 and name in once:
                continue
            if before is not None:
                before()
            t0 = time.process_time()
            results[name] = fn()
            best[name] = min(best[name], time.process_time() - t0)
    return {name: (best[name], results[name]) for name in fns}


def interleaved_wall_best(
    repeat: int, fns: dict[str, Callable[[], object]], before: Callable[[], None] | None = None
) -> dict[str, float]:
    """Best wall time of each function over ``repeat`` rounds, the functions taking turns
    within each round (for thread scaling: a 1-worker and a 2-worker run side by side see the
    same slow and fast periods of a shared machine, so their ratio is not one block's luck).
    ``before`` runs, untimed, before every call."""
    best: dict[str, float] = {name: float("inf") for name in fns}
    for _ in range(repeat):
        for name, fn in fns.items():
            if before is not None:
                before()
            t0 = time.perf_counter()
            fn()
            best[name] = min(best[name], time.perf_counter() - t0)
    return best


#: Keys of the two runs :func:`machine_scaling_fns` adds to a round.
MACHINE_1, MACHINE_2 = "machine check, 1 thread", "machine check, 2 threads"


def machine_scaling_fns(megabytes: int = 48) -> dict[str, Callable[[], object]]:
    """The same hashing work (``hashlib`` releases the GIL) on one thread and split over two.

    Timed in the same rounds as a benchmark's 1- and 2-thread runs, their ratio says how well
    this machine ran two threads at that moment. On a shared VM the second vCPU is at times
    partly taken by a neighbour, and then no code reaches 2x: a low figure here tells such a
    run from a regression of the code. It is a check, not a strict ceiling: a rayon pool that
    just finished a batch is still spinning for a moment when the hashing starts, which can
    cost the check a few percent.
    """
    block_mb = 8  # large blocks: each thread takes the GIL only a few times
    block = os.urandom(block_mb << 20)
    blocks = max(megabytes // block_mb // 2, 1)

    def hash_blocks(n: int) -> None:
        for _ in range(n):
            hashlib.sha256(block).digest()

    def two_threads() -> None:
        workers = [threading.Thread(target=hash_blocks, args=(blocks,)) for _ in range(2)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()

    return {MACHINE_1: lambda: hash_blocks(2 * blocks), MACHINE_2: two_threads}


def ceiling_note(walls: dict[str, float]) -> str:
    """One line on how well the machine ran two threads in the rounds of ``walls``."""
    one, two = walls[MACHINE_1], walls[MACHINE_2]
    return (f"machine check in the same rounds (sha256 split over 2 threads, GIL released): "
            f"{one * 1e3:.1f} ms on 1 thread, {two * 1e3:.1f} ms on 2, {one / two:.2f}x")
