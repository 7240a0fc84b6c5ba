"""Fuzzing and adversarial timing of the native sentence and cue engine.

1. Fuzz: hypothesis generates inputs (token soup built from the rules' delimiters, arbitrary
   Unicode with NUL and every plane, random cue lists and math bounds) and every call's result is
   checked: sentences tile the text in characters and bytes, math regions hold no sentence start,
   cue hits lie inside their sentence on word boundaries. Any exception is a failure (a Rust
   panic would surface as ``pyo3_runtime.PanicException``); a watchdog aborts with a traceback if
   one call takes longer than ``--hang-seconds``.
2. Adversarial inputs: 1, 10 and 20 MB of deep braces, lone or unclosed delimiters, endless
   abbreviations, labels, cue words and whitespace, each segmented (best of 3, CPU time).
   Linear time shows as a 20 MB / 10 MB ratio of 2; from 1 to 10 MB the ratio can exceed 10
   when the result arrays outgrow the CPU caches.

    .venv/bin/python benches/fuzz_segmentation.py [--examples 20000] [--hang-seconds 60]

The Rust core has its own fuzzing through proptest:
``PROPTEST_CASES=100000 cargo test --release text::properties``.
"""
from __future__ import annotations

import argparse
import faulthandler
import sys
import time

import regex
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import apr_fast
from apr_fast._reference.segmentation import UNSPACED as UNSPACED_CUE  # cues matched without word boundaries

from _common import at_least

TOKENS = [
    "$", "$$", "\\(", "\\)", "\\[", "\\]", "\\begin{align}", "\\end{align}", "\\begin{pmatrix*}",
    "\\end{pmatrix*}", "\\boxed{", "\\fbox{", "{", "}", "\\{", "\\}", "\\", "\\\\", ".", "!", "?",
    "...", "?!", ")", '"', "’", "**", " ", "  ", "\t", "\n", "\n\n", "\r", "\r\n", "\u00a0",
    "\u2028", "\x1c", "\x00", "e.g.", "etc.", "No.", "1.", "a.", "iv.", "Step 2.", "# ", "3.14",
    "so", "also", "Wait", "let’s", "we", "get", "double-check", "é", "日本", "😀", "\U000e0001",
    "所以", "等等等", "。",
]
token_soup = st.lists(st.sampled_from(TOKENS), max_size=80).map("".join)
texts = st.one_of(token_soup, st.text(max_size=200), st.binary(max_size=200).map(lambda b: b.decode("utf-8", "replace")))
cue_lists = st.lists(st.text(alphabet=st.sampled_from(list("abwsé’'-( .所以等日")), min_size=1, max_size=5), max_size=4)
bounds = st.tuples(st.integers(0, 64), st.integers(0, 128), st.integers(0, 64))
WORD = regex.compile(r"[\p{Alphabetic}\p{N}_]")



def check(text: str, conclusion: list[str], verification: list[str], inflections: bool, bound: tuple[int, int, int]) -> None:
    options = apr_fast.SplitOptions(*bound)
    try:
        matcher = apr_fast.CueMatcher(conclusion, verification, inflections)
    except apr_fast.ConfigError:
        matcher = apr_fast.CueMatcher()  # a generated cue was empty, a duplicate or had no letter
    raw = text.encode("utf-8")
    sentences = apr_fast.split_sentences(text, options=options)
    assert "".join(s.text for s in sentences) == text
    for s in sentences:
        assert raw[s.byte_start : s.byte_end].decode("utf-8") == text[s.start : s.end] == s.text
    starts = {s.start for s in sentences}
    for r in apr_fast.math_regions(text, options=options):
        assert not any(r.start < p < r.end for p in starts)
    seg = matcher.segment(text, options=options)
    assert seg.starts == [s.start for s in sentences]
    for sc in seg.cues():
        for h in sc.conclusion + sc.verification:
            assert sc.sentence.start <= h.start < h.end <= sc.sentence.end
            if UNSPACED_CUE.fullmatch(text[h.start : h.end]):
                continue  # a Chinese/Japanese cue matches inside a run: no word boundaries
            assert h.start == 0 or not WORD.match(text[h.start - 1])
            assert h.end == len(text) or not WORD.match(text[h.end])


def fuzz(examples: int, counter: list[int]) -> None:
    """Runs `examples` generated inputs through `check`; `counter[0]` counts the calls."""

    @given(texts, cue_lists, cue_lists, st.booleans(), bounds)
    @settings(max_examples=examples, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    def run(text: str, conclusion: list[str], verification: list[str], inflections: bool, bound: tuple[int, int, int]) -> None:
        counter[0] += 1
        check(text, conclusion, verification, inflections, bound)

    run()


def adversarial(size: int) -> dict[str, str]:
    def repeat(unit: str) -> str:
        return unit * (size // len(unit.encode("utf-8")))

    half = size // 2
    return {
        "deep braces `\\boxed{{{{...` (unclosed)": "\\boxed{" + "{" * (size - 7),
        "deep braces, closed": "\\boxed{" + "{" * (half - 8) + "}" * (half - 8) + "}",
        "lone `$ `": repeat("$ "),
        "unclosed `$x `": repeat("$x "),
        "`$$` runs": repeat("$$$ "),
        "unclosed `\\[`": repeat("\\["),
        "unclosed `\\( `": repeat("\\( "),
        "unclosed `\\begin{align}`": repeat("\\begin{align}"),
        "`\\end{align}` only": repeat("\\end{align}"),
        "`\\\\` escapes": repeat("\\\\"),
        "dots `.....`": repeat("."),
        "`. ` sentences": repeat("a. "),
        "`e.g. ` abbreviations": repeat("e.g. "),
        "line labels `1. x`": repeat("1. x\n"),
        "newlines": repeat("\n"),
        "blank lines with spaces": repeat("\n \t"),
        "spaces": repeat(" "),
        "cue words `so wait `": repeat("so wait "),
        "phrase over a long gap `we ... get`": "we" + " " * (size - 5) + "get",
        "non-ASCII words `été ’ `": repeat("été ’ "),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--examples", type=at_least(0), default=20000, help="generated inputs to run")
    parser.add_argument("--hang-seconds", type=at_least(1), default=60, help="abort if a call takes longer")
    args = parser.parse_args()

    faulthandler.dump_traceback_later(args.hang_seconds * 10, exit=True)
    start = time.perf_counter()
    counter = [0]
    failure: BaseException | None = None
    try:
        fuzz(args.examples, counter)
    except BaseException as e:  # a PanicException is a BaseException
        failure = e
    faulthandler.cancel_dump_traceback_later()
    print(f"fuzz: {counter[0]} inputs in {time.perf_counter() - start:.0f} s, "
          f"{'0 failures' if failure is None else f'FAILURE: {failure!r}'}, 0 hangs "
          f"(watchdog {args.hang_seconds * 10} s for the run)")

    sizes = (1_000_000, 10_000_000, 20_000_000)
    inputs = [adversarial(size) for size in sizes]
    matcher = apr_fast.CueMatcher()
    print("\n| adversarial input | 1 MB (ms) | 10 MB (ms) | 20 MB (ms) | 10 MB / 1 MB | 20 MB / 10 MB |")
    print("|---|---:|---:|---:|---:|---:|")
    for name in inputs[0]:
        times = []
        for by_name in inputs:
            text = by_name[name]
            best = float("inf")
            for _ in range(3):
                faulthandler.dump_traceback_later(args.hang_seconds, exit=True)
                t = time.process_time()
                seg = matcher.segment(text)
                best = min(best, time.process_time() - t)
                faulthandler.cancel_dump_traceback_later()
            assert seg.ends[-1] == len(text)
            times.append(best)
        ms = " | ".join(f"{t * 1e3:.1f}" for t in times)
        print(f"| {name} | {ms} | {times[1] / times[0]:.1f} | {times[2] / times[1]:.2f} |")
    if failure is not None:
        sys.exit(1)


if __name__ == "__main__":
    main()
