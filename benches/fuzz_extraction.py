"""Fuzzing and worst-case timing of answer extraction.

1. Random inputs: a fast generator glues fragments that exercise every rule (delimiters,
   boxes, braces, relations, answer phrases, number words, Unicode of all planes, NUL) with
   random characters; every input runs through ``extract_final`` and ``extract_candidates``
   (single and batch) and the results are checked: spans inside the input and on character
   boundaries, non-empty texts, batch == single. A Rust panic surfaces as
   ``pyo3_runtime.PanicException`` (a ``BaseException``) and is counted; a call slower than
   ``--hang-ms`` is counted as a hang.
2. Hypothesis at scale: the same checks on ``--hypothesis`` generated examples (shrinks any
   failure to a small input).
3. Adversarial inputs of 1, 2, 5 and 10 MB (100k-fold ``\\boxed{``, deep braces, ``$`` runs,
   unclosed ``\\(``, answer phrases, long lists): the best of ``--repeat`` timings per size,
   to show that time grows linearly.

Usage: python benches/fuzz_extraction.py [--inputs N] [--hypothesis N] [--seed S]
                                         [--sizes-mb 1 2 5 10] [--repeat 3] [--hang-ms 500]
"""
from __future__ import annotations

import argparse
import random
import sys
import time

import apr_fast

from _common import at_least

FRAGMENTS = [
    "$", "$$", "\\(", "\\)", "\\[", "\\]", "\\boxed{", "\\fbox{", "\\boxed ", "{", "}", "\\{", "\\}",
    "(", ")", "[", "]", "\\frac", "\\sqrt", "\\pi", "\\text{", "\\left(", "\\right)", "\\begin{pmatrix}",
    "\\end{pmatrix}", "\\\\", "&", "=", "<", "≤", "\\approx", "≡", " mod ", "+", "-", "*", "/", "^", "_",
    "!", "'", "|", ",", ";", ".", ":", "?", "...", "**", "√", "π", "²", "₆", "°", "%", "½", " ", "\n",
    "x", "n", "AB", "a", "I", "the answer is ", "Answer:", "**Final Answer**\n", "</think>", "option ",
    "(B)", "one", "twelve", "twenty-one", "two thirds", "17", "3.5", "1,000", ".5", "0", "Case 1", "5th",
    "sqrt(2)", "log_6", "\x00", "\U0010ffff", "é", "𝔸", "\u200b", "\r", "\ud7ff", "\ue000",
    "<answer>", "</answer>", "<think>", "<|end|>", "<|return|>", "<|start|>assistant<|channel|>final<|message|>",
    "<|", "|>", "<｜end▁of▁sentence｜>", "｜>",
]


def random_text(rng: random.Random, max_parts: int = 60) -> str:
    parts = []
    for _ in range(rng.randrange(max_parts)):
        if rng.random() < 0.8:
            parts.append(rng.choice(FRAGMENTS))
        else:
            # Any code point of any plane except the surrogates, which a str cannot encode.
            cp = rng.randrange(0x110000)
            parts.append(chr(cp) if not 0xD800 <= cp <= 0xDFFF else "\ufffd")
    return "".join(parts)


def check(text: str) -> None:
    """Raises AssertionError when a result breaks an invariant."""
    encoded = text.encode()
    for c in apr_fast.extract_candidates(text):
        assert 0 <= c.start < c.end <= len(text), c
        assert encoded[c.byte_start : c.byte_end].decode() == text[c.start : c.end], c
        assert c.text, c
    found = apr_fast.extract_final(text)
    if found is not None:
        assert 0 <= found.start <= found.end <= len(text), found
        assert encoded[found.byte_start : found.byte_end].decode() == text[found.start : found.end]
        assert found.text


class Tally:
    def __init__(self, hang_ms: float) -> None:
        self.inputs = self.panics = self.hangs = self.failures = 0
        self.slowest = 0.0
        self.slowest_input = ""
        self.hang_s = hang_ms / 1000

    def run(self, text: str) -> None:
        self.inputs += 1
        t0 = time.perf_counter()
        try:
            check(text)
        except AssertionError as e:
            self.failures += 1
            print(f"invariant broken on {text!r:.200}: {e}", file=sys.stderr)
        except BaseException as e:  # noqa: BLE001 - a PanicException derives from BaseException
            if isinstance(e, KeyboardInterrupt):
                raise
            self.panics += 1
            print(f"panic on {text!r:.200}: {e!r}", file=sys.stderr)
        elapsed = time.perf_counter() - t0
        if elapsed > self.slowest:
            self.slowest, self.slowest_input = elapsed, text
        if elapsed > self.hang_s:
            self.hangs += 1
            print(f"slow ({elapsed * 1e3:.0f} ms) on {text!r:.200}", file=sys.stderr)


def random_inputs(n: int, seed: int, tally: Tally) -> None:
    rng = random.Random(seed)
    t0 = time.perf_counter()
    batch: list[str] = []
    for _ in range(n):
        text = random_text(rng)
        tally.run(text)
        batch.append(text)
        if len(batch) == 2000:
            check_batches(batch, tally)
            batch = []
    check_batches(batch, tally)
    print(f"random inputs: {n} in {time.perf_counter() - t0:.1f} s")


def check_batches(texts: list[str], tally: Tally) -> None:
    single_final = [apr_fast.extract_final(t) for t in texts]
    single_candidates = [apr_fast.extract_candidates(t) for t in texts]
    for threads in (1, 2, None):
        if apr_fast.extract_final_batch(texts, threads=threads) != single_final:
            tally.failures += 1
            print(f"extract_final_batch differs from single calls (threads={threads})", file=sys.stderr)
        if apr_fast.extract_candidates_batch(texts, threads=threads) != single_candidates:
            tally.failures += 1
            print(f"extract_candidates_batch differs from single calls (threads={threads})", file=sys.stderr)


def hypothesis_inputs(n: int, tally: Tally) -> None:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    fragments = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=4)), max_size=60).map("".join)

    @settings(max_examples=n, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(st.one_of(st.text(), fragments))
    def run(text: str) -> None:
        tally.run(text)

    t0 = time.perf_counter()
    run()
    print(f"hypothesis examples: {n} in {time.perf_counter() - t0:.1f} s")


ADVERSARIAL = {
    "\\boxed{ repeated": "\\boxed{",
    "deep braces {{{...}}}": None,  # built per size: half openers, half closers
    "unclosed braces {{{": "{",
    "$ repeated": "$",
    "unclosed \\( repeated": "\\(",
    "( repeated": "(",
    "'the answer is ' repeated": "the answer is ",
    "list '1, ' repeated": "1, ",
    "chain 'x = ' repeated": "x = ",
    "'<answer>' then '1</answer>' repeated": "<answer>",  # built per size: one opening tag
    "'<answer>1</answer>' repeated": "<answer>1</answer>",
    # Markdown emphasis marks with no partner: each looks a bounded way along its line.
    "' _x' repeated (emphasis, no partner)": " _x",
    "' _x_ the answer is _1_.' repeated": " _x_ the answer is _1_.",
    # A numeral then scale words: each word looks back a bounded chain ("3 hundred thousand").
    "'2' then ' million' repeated": " million",
    # Chat-format markers after </think>: a header of markers and words, or trailing markers,
    # each stripped once by the bare-value rule.
    "'</think>' then '<|m|>x' repeated": "<|m|>x",
    "'</think>1' then '<|m|>' repeated": "<|m|>",
    "random fragments": "",
}


def adversarial(name: str, unit: str | None, size: int, rng: random.Random) -> str:
    if unit is None:
        return "{" * (size // 2) + "x" + "}" * (size // 2)
    if unit == "<answer>":
        return unit + "1</answer>" * max(1, size // 10)
    if unit in ("<|m|>x", "<|m|>"):
        return ("</think>" if unit == "<|m|>x" else "</think>1") + unit * max(1, size // len(unit))
    if unit == " million":
        return "So it is 2" + unit * max(1, size // len(unit))
    if not unit:
        parts, total = [], 0
        while total < size:
            piece = rng.choice(FRAGMENTS)
            parts.append(piece)
            total += len(piece.encode())
        return "".join(parts)
    return unit * max(1, size // len(unit.encode()))


def timings(sizes_mb: list[float], repeat: int, seed: int) -> None:
    rng = random.Random(seed)
    print("adversarial inputs: best of", repeat, "runs (s); per-MB time should stay flat")
    header = "".join(f"{f'{mb:g} MB':>22}" for mb in sizes_mb)
    print(f"{'input':32}{'call':>20}{header}")
    for name, unit in ADVERSARIAL.items():
        texts = [adversarial(name, unit, int(mb * 1_000_000), rng) for mb in sizes_mb]
        for call_name, call in (("extract_final", apr_fast.extract_final), ("extract_candidates", apr_fast.extract_candidates)):
            cells = []
            for mb, text in zip(sizes_mb, texts):
                best = float("inf")
                for _ in range(repeat):
                    t0 = time.perf_counter()
                    call(text)
                    best = min(best, time.perf_counter() - t0)
                cells.append(f"{best:8.3f} ({best / mb:6.3f}/MB)")
            print(f"{name:32}{call_name:>20}" + "".join(f"{c:>22}" for c in cells))


def timed(text: str) -> float:
    t0 = time.perf_counter()
    check(text)
    return time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--inputs", type=at_least(0), default=200_000, help="random inputs")
    parser.add_argument("--hypothesis", type=at_least(0), default=20_000, help="hypothesis examples")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sizes-mb", type=float, nargs="*", default=[1, 2, 5, 10])
    parser.add_argument("--repeat", type=at_least(1), default=3)
    parser.add_argument("--hang-ms", type=float, default=500.0)
    args = parser.parse_args()
    tally = Tally(args.hang_ms)
    random_inputs(args.inputs, args.seed, tally)
    if args.hypothesis:
        hypothesis_inputs(args.hypothesis, tally)
    # A single slow call on a shared machine may be a scheduling pause: time it again.
    retimed = min(timed(tally.slowest_input) for _ in range(5))
    print(
        f"total inputs: {tally.inputs}; panics: {tally.panics}; hangs (> {args.hang_ms:g} ms): {tally.hangs}; "
        f"broken invariants: {tally.failures}; slowest call pair: {tally.slowest * 1e3:.2f} ms "
        f"(best of 5 reruns of that input: {retimed * 1e3:.3f} ms, {len(tally.slowest_input)} characters)"
    )
    if args.sizes_mb:
        timings(args.sizes_mb, args.repeat, args.seed)
    if tally.panics or tally.hangs or tally.failures:
        sys.exit(1)


if __name__ == "__main__":
    main()
