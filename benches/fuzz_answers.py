"""Fuzzing the answer engine: no panics, no hangs, properties hold; hostile CAS input times out.

Three campaigns, all deterministic (fixed seeds):

1. hypothesis at scale: generated LaTeX, token soup and arbitrary Unicode, each input checked for
   a caught native panic (an ``error`` judgement), a slow call, ``normalize`` idempotence,
   reflexivity and symmetry;
2. mutation of the real gold answers (insert, delete, duplicate, swap tokens and characters), with
   the same checks, run in native batches;
3. hostile input for the sympy fallback (huge exponents, towers, deep nesting, giant factorials):
   every call must end by its timeout with a status.

    .venv/bin/python benches/fuzz_answers.py [--examples 20000] [--mutations 200000] [--cas-timeout 2]

Rust-side fuzzing is the proptest suite: ``PROPTEST_CASES=20000 cargo test --release --lib answer::tests``.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apr_fast.equivalence import Method, Verdict, equivalent, equivalent_batch, normalize

from _common import at_least

SLOW_CALL_S = 1.0
TOKENS = [
    "\\frac", "\\dfrac", "\\sqrt", "\\left(", "\\right)", "\\left[", "\\right]", "\\{", "\\}", "{", "}", "(", ")",
    "[", "]", "^", "_", ",", ";", "=", "<", ">", "\\le", "\\ge", "+", "-", "\\pm", "\\cdot", "\\times", "/", "!",
    "\\%", "^\\circ", "\\pi", "e", "i", "x", "y", "n", "\\infty", "\\cup", "\\in", "\\text{", "\\text{ cm}",
    "\\textbf{(B)}", "\\ln", "\\log_", "\\sin", "\\cos", "\\binom", "\\begin{pmatrix}", "\\end{pmatrix}", "&", "\\\\",
    "0", "1", "2", "10", "023", ".5", "3.14", "1,000", "1\\,000", "4.5e33", "\\,", "\\!", "$", " ", "|", "\\lfloor",
    "\\rfloor", "or", "and", "\\emptyset", "\\mathbb{R}", "52_8", "'", "√", "π", "−", "²", "≤", "∞", "\\",
    # siunitx and unit symbols.
    "\\SI{", "\\num{", "\\si{", "\\qty{", "\\ang{", "\\numlist{", "\\kilo", "\\metre", "\\per", "\\squared",
    "\\tothe{", "\\percent", "\\degreeCelsius", "\\mu", "\\Omega", "\\mathrm{", "µ", "Ω", "MW", "mW", "e3", "\\text{m", "\\mathrm{m", "\\rm", "C",
    # Backslashes damaged by string escaping: doubled, or read as control characters.
    "\\\\frac", "\\\\sqrt", "\\\\le", "\x0crac", "\x08inom", "\times", "\neq", "\right)", "\x0c", "\t", "\n",
]


class Stats:
    def __init__(self) -> None:
        self.inputs = 0
        self.panics: list[str] = []
        self.slow: list[tuple[float, str]] = []
        self.violations: list[str] = []
        self.max_call_s = 0.0

    def timed(self, fn: Callable[[], object], what: str) -> object:
        started = time.perf_counter()
        result = fn()
        elapsed = time.perf_counter() - started
        self.max_call_s = max(self.max_call_s, elapsed)
        if elapsed > SLOW_CALL_S:
            self.slow.append((elapsed, what[:200]))
        return result

    def check(self, a: str, b: str) -> None:
        self.inputs += 1
        once = self.timed(lambda: normalize(a), a)
        if normalize(once) != once:  # type: ignore[arg-type]
            self.violations.append(f"normalize not idempotent: {a!r}")
        for x, y in ((a, a), (a, b)):
            j = self.timed(lambda: equivalent(x, y, cas=False), f"{x!r} vs {y!r}")
            if j.method is Method.ERROR:  # type: ignore[union-attr]
                self.panics.append(f"{x!r} vs {y!r}: {j.detail}")  # type: ignore[union-attr]
        if equivalent(a, a, cas=False).verdict is not Verdict.EQUAL and normalize(a):
            self.violations.append(f"not reflexive: {a!r}")
        if equivalent(a, b, cas=False).verdict is not equivalent(b, a, cas=False).verdict:
            self.violations.append(f"not symmetric: {a!r} vs {b!r}")


def hypothesis_campaign(stats: Stats, examples: int) -> None:
    soup = st.lists(st.sampled_from(TOKENS), max_size=40).map("".join)
    atoms = st.one_of(st.integers(-10**30, 10**30).map(str), st.sampled_from(["x", "\\pi", "e", "\\sqrt{2}", "0.5", "n!", "\\infty"]))
    latex = st.recursive(
        atoms,
        lambda c: st.one_of(
            st.builds(lambda a, b: f"{a}+{b}", c, c),
            st.builds(lambda a, b: f"\\frac{{{a}}}{{{b}}}", c, c),
            st.builds(lambda a, b: f"{a}^{{{b}}}", c, c),
            st.builds(lambda a, b: f"({a}, {b}]", c, c),
            st.builds(lambda a: f"\\sqrt{{{a}}}", c),
            st.builds(lambda a: f"\\sin({a})", c),
            st.builds(lambda a: f"{a}!", c),
        ),
        max_leaves=12,
    )
    inputs = st.one_of(soup, latex, st.text(max_size=80))

    @settings(max_examples=examples, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(inputs, inputs)
    def run(a: str, b: str) -> None:
        stats.check(a, b)

    run()


def mutate(rng: random.Random, s: str) -> str:
    pieces = list(s)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(5)
        k = rng.randrange(len(pieces) + 1)
        if op == 0:
            pieces.insert(k, rng.choice(TOKENS))
        elif op == 1 and pieces:
            del pieces[min(k, len(pieces) - 1)]
        elif op == 2 and pieces:
            pieces.insert(k, pieces[rng.randrange(len(pieces))])
        elif op == 3 and len(pieces) > 1:
            i, j = rng.randrange(len(pieces)), rng.randrange(len(pieces))
            pieces[i], pieces[j] = pieces[j], pieces[i]
        else:
            pieces.insert(k, chr(rng.randrange(32, 0x2FFF)))
    return "".join(pieces)


def mutation_campaign(stats: Stats, golds: list[str], count: int) -> None:
    rng = random.Random(20240601)
    batch = 5000
    done = 0
    while done < count:
        pairs = []
        for _ in range(min(batch, count - done)):
            g = rng.choice(golds)
            pairs.append((mutate(rng, g), rng.choice([g, mutate(rng, g)])))
        judged = stats.timed(lambda: equivalent_batch(pairs, cas=False), f"batch of {len(pairs)}")
        back = equivalent_batch([(b, a) for a, b in pairs], cas=False)
        selves = equivalent_batch([(a, a) for a, _ in pairs], cas=False)
        for (a, b), j, k, s in zip(pairs, judged, back, selves):  # type: ignore[arg-type]
            stats.inputs += 1
            if j.method is Method.ERROR or k.method is Method.ERROR:
                stats.panics.append(f"{a!r} vs {b!r}: {j.detail}")
            if j.verdict is not k.verdict:
                stats.violations.append(f"not symmetric: {a!r} vs {b!r}")
            if s.verdict is not Verdict.EQUAL and normalize(a):
                stats.violations.append(f"not reflexive: {a!r}")
            once = normalize(a)
            if normalize(once) != once:
                stats.violations.append(f"normalize not idempotent: {a!r}")
        done += len(pairs)


HOSTILE = [
    ("10^{10^{10}}", "10^{10^{10}}+1"),
    ("2^{2^{2^{2^{2^{2}}}}}", "2^{2^{2^{2^{2^{2}}}}} - 1"),
    ("100000!", "100000! + 1"),
    ("\\binom{10^{9}}{10^{6}}", "\\binom{10^{9}}{10^{6}} + 1"),
    ("9^{9^{9}} \\sin(\\pi)", "0"),
    ("(" * 40 + "x" + ")" * 40 + "^{10^{6}}", "x^{10^{6}} + \\sin(\\pi)"),
    ("\\sqrt{" * 40 + "2" + "}" * 40, "2^{2^{-40}}"),
    ("e^{e^{e^{e^{10}}}}", "e^{e^{e^{e^{10}}}} + 1"),
    ("\\sin(10^{100})", "\\sin(10^{100} + 2\\pi)"),
    ("x^{123456789} - 1", "(x-1)(x^{123456788} + 1)"),
]


def hostile_campaign(timeout: float) -> list[tuple[str, str, str, str, float]]:
    rows = []
    for a, b in HOSTILE:
        started = time.perf_counter()
        j = equivalent(a, b, cas_timeout=timeout)
        rows.append((a[:40], b[:40], j.verdict.value, j.method.value, time.perf_counter() - started))
    return rows


def deep_and_long(stats: Stats) -> None:
    """Inputs far past every limit: 100k-deep nesting, 1 MB strings, a 10 MB string."""
    for s in ["{" * 100_000 + "}" * 100_000, "(" * 100_000, "\\frac" * 50_000, "-" * 200_000 + "1",
              "1+" * 300_000 + "1", "x" * 1_000_000, "\\sqrt{" * 100_000, "9" * 1_000_000, "a" * 10_000_000,
              # siunitx commands whose groups never close, nested, and many in a row.
              "\\SI{1}{" * 100_000, "\\num{" * 100_000 + "}" * 100_000, "\\SI{1}{\\metre}" * 100_000,
              # A numeral followed by 100k scale words.
              "2" + " million" * 100_000]:
        stats.check(s, "1")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--examples", type=at_least(0), default=20_000, help="hypothesis examples")
    parser.add_argument("--mutations", type=at_least(0), default=200_000, help="mutated gold pairs")
    parser.add_argument("--cas-timeout", type=float, default=2.0)
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "benchmarks")
    args = parser.parse_args()

    stats = Stats()
    started = time.perf_counter()
    hypothesis_campaign(stats, args.examples)
    print(f"hypothesis: {stats.inputs} input pairs in {time.perf_counter() - started:.0f} s")
    golds: list[str] = []
    for path in sorted(args.data.glob("*.json*")):
        text = path.read_text()
        rows = [json.loads(line) for line in text.splitlines() if line.strip()] if path.suffix == ".jsonl" else json.loads(text)
        for row in rows:
            answer = row["answer"]
            golds.extend(str(a) for a in (answer if isinstance(answer, list) else [answer]))
    if golds:
        before, t0 = stats.inputs, time.perf_counter()
        mutation_campaign(stats, golds, args.mutations)
        print(f"mutated golds: {stats.inputs - before} input pairs in {time.perf_counter() - t0:.0f} s")
    t0 = time.perf_counter()
    deep_and_long(stats)
    print(f"past the limits (100k-deep nesting, 1-10 MB strings): 13 inputs in {time.perf_counter() - t0:.1f} s")

    print(f"\ninputs: {stats.inputs}   caught native panics: {len(stats.panics)}   "
          f"calls over {SLOW_CALL_S:.0f} s: {len(stats.slow)}   property violations: {len(stats.violations)}   "
          f"slowest single call: {1000 * stats.max_call_s:.1f} ms")
    for line in (stats.panics + stats.violations)[:20]:
        print("  ", line)
    for elapsed, what in sorted(stats.slow, reverse=True)[:10]:
        print(f"   slow {elapsed:.2f} s: {what}")

    print(f"\nhostile input for the sympy fallback (cas_timeout = {args.cas_timeout} s):")
    for a, b, verdict, method, elapsed in hostile_campaign(args.cas_timeout):
        print(f"  {elapsed:6.2f} s  {verdict:>9} {method:<17} {a} | {b}")
    return 1 if stats.panics or stats.violations or stats.slow else 0


if __name__ == "__main__":
    sys.exit(main())
