"""Fuzzing and worst-case timing of the whole APR reward (extraction, anchor search, reward).

1. Random rollouts: the extraction fuzzer's fragments (delimiters, boxes, braces, relations,
   answer phrases, Unicode of all planes, NUL) glued into a thinking, a ``</think>`` and a
   final part, scored against a random ground truth in both modes. Each result is checked:
   a status from the documented set, the anchor inside the thinking, L_AST in [0, T_think],
   the reward in [floor, 1], batch == single. A Rust panic surfaces as
   ``pyo3_runtime.PanicException`` (a ``BaseException``) and is counted; a call slower than
   ``--hang-ms`` is counted as a hang.
2. Adversarial rollouts of growing size: one structure repeated or nested (``\\frac{`` nested
   100k deep, ``1/(`` chains, a sentence that states the answer repeated, a value that never
   equals it, long lists, one sentence of 100k inequalities or enumerations, lone ``$``) in
   the thinking, with its final answer boxed and given as the ground truth (the thinking's own
   text where it is one expression), so that the anchor search reads all of it. The best of
   ``--repeat`` timings per size, in both modes, scored with a problem that mentions their
   values (so that the rules reading the problem run): the time per MB should stay flat.

Usage: python benches/fuzz_reward.py [--rollouts N] [--seed S] [--sizes-mb 0.25 0.5 1 2]
                                     [--repeat 3] [--hang-ms 1000] [--think-preset harmony]
"""
from __future__ import annotations

import argparse
import logging
import random
import sys
import time
from collections.abc import Callable

from fuzz_extraction import random_text

import apr_fast
from apr_fast import RewardConfig

from _common import at_least

MODES = ("default", "paper")
FLOOR = -1.0
STATUSES = {"ok", "truncated", "empty_thinking", "no_final_answer", "correctness_unknown", "error"}


def nested(open_: str, inner: str, close: str) -> Callable[[int], str]:
    return lambda size: (lambda depth: open_ * depth + inner + close * depth)(max(1, size // (len(open_) + len(close))))


def repeated(unit: str) -> Callable[[int], str]:
    return lambda size: unit * max(1, size // len(unit.encode()))


# The problem the adversarial rollouts are scored with, so that the rules that read it run:
# it mentions 284, 8, 5, the assignment n = 1 and the count "twelve letters".
PROBLEM = "What is the sum of the proper divisors of 284, given 8 and 5, with $n = 1$, for the twelve letters?"

# Each thinking with the final answer that it states (None: the thinking's own text, boxed).
ADVERSARIAL: dict[str, tuple[Callable[[int], str], str | None]] = {
    "\\frac{ nested": (nested("\\frac{", "1", "}"), None),
    "\\frac{1}{\\sqrt nested": (nested("\\frac{1}{\\sqrt ", "8", "}"), None),
    "1/( nested": (nested("1/(", "2", ")"), None),
    "sqrt( nested": (nested("sqrt(", "8", ")"), None),
    "( nested": (nested("(", "2", ")"), None),
    "chain '1 + '": (repeated("1 + "), None),
    "'So it is 5. ' repeated": (repeated("So it is 5. "), "5"),
    "'So it is 4. ' repeated": (repeated("So it is 4. "), "5"),
    "'Let me check x = 7/14.\\n'": (repeated("Let me check x = 7/14.\n"), "\\frac{1}{2}"),
    "list '1, '": (repeated("1, "), "1"),
    "list 'a_1=1, a_2=1, ..., sum=7'": (lambda size: "So " + ", ".join(f"a_{i}=1" for i in range(max(1, size // 9))) + ", sum=7", "7"),
    "list 'x=1, ' one name": (repeated("x=1, "), "1"),
    "'So a >= 3 and ' one sentence": (repeated("So a >= 3 and "), "3"),
    "'So 2, 3 and 5, ' one sentence": (repeated("So 2, 3 and 5, "), "5"),
    "'But 8 is 4*2, ' one sentence": (repeated("But 8 is 4*2, "), "8"),
    "'284 is an even number ' one sentence": (repeated("284 is an even number "), "284"),
    "'So if n=1 = ' chain": (lambda size: "So if n=1" + " = 1" * max(1, size // 4), "1"),
    "'greater than 5 and ' one sentence": (repeated("greater than 5 and "), "5"),
    "'So 12 letters and ' one sentence": (repeated("So 12 letters and "), "12"),
    "$ repeated": (repeated("$"), "5"),
    "digits": (repeated("7"), None),
}


def rollout(thinking: str, answer: str | None) -> tuple[str, str]:
    """The response and its ground truth: the final answer, boxed after the thinking."""
    answer = thinking if answer is None else answer
    return thinking + "</think>\\boxed{" + answer + "}", answer


def check(result: apr_fast.RolloutScore, mode: str, truth: str) -> str | None:
    """What is wrong with one result, or None. A ground truth that holds no answer once cleaned
    ("", "$$") is the one bad input here: it must give invalid_input, and nothing else may."""
    holds_no_answer = not any(a.strip() for a in apr_fast.ground_truth_alternatives(truth))
    if (result.status == "invalid_input") != holds_no_answer:
        return f"status {result.status!r} for ground truth {truth!r}"
    if result.status not in STATUSES | {"invalid_input"}:
        return f"status {result.status!r}"
    if not (FLOOR <= result.reward <= 1.0):
        return f"reward {result.reward}"
    if not (0 <= result.l_ast <= result.t_think):
        return f"l_ast {result.l_ast} of t_think {result.t_think}"
    if result.anchor_found and result.anchor_sentence is None:
        return "anchor found without a sentence"
    if not result.anchor_found and result.l_ast != 0 and result.status == "ok":
        return "no anchor but a tail"
    if result.mode != mode:
        return f"mode {result.mode!r}"
    return None


def tag_choices(preset: str) -> tuple[list[str], list[str]]:
    """What a random rollout may start with, and what may end its thinking, with ``preset``'s
    tags (gpt-oss's: also its text decoded without the special tokens, and its final channel
    with no analysis before it; ``auto``: every preset's, mixed)."""
    if preset == "auto":
        choices = [tag_choices(name) for name in apr_fast.THINK_TAG_PRESETS]
        return [s for c in choices for s in c[0]], [e for c in choices for e in c[1]]
    open_, close = apr_fast.THINK_TAG_PRESETS[preset]
    starts, ends = ["", open_], [close, close + "\\boxed{", close + "<answer>", "<answer>", ""]
    if preset == "harmony":
        starts += ["analysis", "<|channel|>final<|message|>"]
        ends += ["assistantfinal", "<|end|><|start|>assistant<|channel|>final<|message|>",
                 # a tool call and its output inside the thinking, then the final channel or not
                 "<|end|><|start|>assistant<|channel|>commentary to=functions.python<|message|>{}<|call|>"
                 "<|start|>functions.python to=assistant<|channel|>commentary<|message|>4<|end|>"
                 "<|start|>assistant<|channel|>analysis<|message|>So 4.<|end|><|start|>assistant<|channel|>final<|message|>",
                 "<|end|><|start|>assistant<|channel|>commentary to=functions.python<|message|>{}<|call|>"]
    return starts, ends


def random_rollouts(count: int, seed: int, hang_ms: float, preset: str) -> None:
    rng = random.Random(seed)
    panics = hangs = wrong = 0
    slowest = 0.0
    scorers = {m: apr_fast.APRScorer(RewardConfig(mode=m, cas=False, floor=FLOOR, think_tags=preset)) for m in MODES}
    starts, ends = tag_choices(preset)
    t_start = time.perf_counter()
    batch_r: list[str] = []
    batch_g: list[str] = []
    for k in range(count):
        thinking, final = random_text(rng), random_text(rng, 8)
        response = rng.choice(starts) + thinking + rng.choice(ends) + final
        if rng.random() < 0.2:
            response += "</answer>"
        truth = rng.choice([random_text(rng, 4), final, "5", "\\frac{1}{2}"])
        batch_r.append(response)
        batch_g.append(truth)
        for mode, scorer in scorers.items():
            t0 = time.perf_counter()
            try:
                result = scorer.score(response, truth)
            except BaseException as error:  # a PanicException is a BaseException
                if isinstance(error, KeyboardInterrupt):
                    raise
                panics += 1
                print(f"panic ({mode}): {error!r} on {response[:200]!r}", file=sys.stderr)
                continue
            elapsed = time.perf_counter() - t0
            slowest = max(slowest, elapsed)
            hangs += elapsed * 1000 > hang_ms
            problem = check(result, mode, truth)
            if problem:
                wrong += 1
                print(f"{problem} ({mode}) on {response[:200]!r}", file=sys.stderr)
        if len(batch_r) == 500 or k == count - 1:
            for mode, scorer in scorers.items():
                single = [scorer.score(r, g) for r, g in zip(batch_r, batch_g)]
                if scorer.score_batch(batch_r, batch_g) != single:
                    wrong += 1
                    print(f"batch != single ({mode})", file=sys.stderr)
            batch_r, batch_g = [], []
    print(
        f"random rollouts ({preset} tags): {count:,} in each of {len(MODES)} modes in {time.perf_counter() - t_start:.1f} s; "
        f"{panics} panics, {hangs} hangs (> {hang_ms:g} ms), {wrong} broken results; slowest {slowest * 1000:.1f} ms"
    )


def timings(sizes_mb: list[float], repeat: int) -> None:
    print(f"\nadversarial rollouts: best of {repeat} runs (s); per-MB time should stay flat")
    header = "".join(f"{f'{mb:g} MB':>22}" for mb in sizes_mb)
    print(f"{'thinking':34}{'mode':>8}{header}")
    for name, (make, answer) in ADVERSARIAL.items():
        pairs = [rollout(make(int(mb * 1_000_000)), answer) for mb in sizes_mb]
        for mode in MODES:
            scorer = apr_fast.APRScorer(RewardConfig(mode=mode, cas=False))
            cells = []
            for mb, (response, truth) in zip(sizes_mb, pairs):
                best = float("inf")
                for _ in range(repeat):
                    t0 = time.perf_counter()
                    scorer.score(response, truth, problem=PROBLEM)
                    best = min(best, time.perf_counter() - t0)
                cells.append(f"{best:8.3f} ({best / mb:6.3f}/MB)")
            print(f"{name:34}{mode:>8}" + "".join(f"{c:>22}" for c in cells))


def main() -> None:
    # Blank random ground truths are expected invalid_input rows (checked above), not news.
    logging.getLogger("apr_fast.reward").setLevel(logging.ERROR)
    logging.getLogger("apr_fast.think_tags").setLevel(logging.ERROR)  # random text holds other tags
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rollouts", type=at_least(0), default=20_000, help="random rollouts")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sizes-mb", type=float, nargs="*", default=[0.25, 0.5, 1, 2])
    parser.add_argument("--repeat", type=at_least(1), default=3)
    parser.add_argument("--hang-ms", type=float, default=1000.0)
    parser.add_argument("--think-preset", choices=(*apr_fast.THINK_TAG_PRESETS, "auto"), default="think",
                        help="the tags of the random rollouts and their scorers (default: think; auto: every "
                             "preset's tags mixed, scored with think_tags='auto')")
    args = parser.parse_args()
    random_rollouts(args.rollouts, args.seed, args.hang_ms, args.think_preset)
    timings(args.sizes_mb, args.repeat)


if __name__ == "__main__":
    main()
