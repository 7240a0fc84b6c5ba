#!/usr/bin/env python3
"""Full APR reward speed on the real traces, side by side in one process:

* apr-fast ``APRScorer.score_token_ids`` (the VeRL path: response token ids in, as arrays, anchor token
  found natively from the vocabulary bytes) and ``APRScorer.score_batch`` with an HF tokenizer
  (the string path: text in, counted in that tokenizer's tokens), in the paper's mode and in the
  default mode. The string path encodes natively (``apr_fast.encoding``, the same tokens) and,
  in its own rows, with ``tokenizers`` itself (``native_encoding=False``: offsets from
  ``encode_batch``); and the token-id path with ``anchors="rewarded"``, the training setting
  that searches only the rollouts whose reward depends on their anchor (the same rewards);
* the same rule-based search written directly in Python, the way a researcher would write it
  today: sentences and cues with the ``regex`` package (``apr_fast._reference.segmentation``,
  the rules of the native engine), the final answer and every candidate sentence parsed and
  compared with HuggingFace ``math-verify``, token counts from HF ``tokenizers`` offsets. It
  checks the context rule first so it parses only sentences that could be the anchor (the
  cheap order; the paper's rule is the intersection, so the result is the same). Slow: it runs
  on a subset;
* apr-fast's own ``compute_score`` for verl's ``custom_reward_function`` (one call per decoded
  sample, lengths in characters);
* verl's outcome-only ``math_dapo.compute_score`` (no anchor at all: the floor of what any
  reward costs), twice: on the decoded text alone, and as verl's reward managers run it, where
  each rollout's token ids are first decoded with the tokenizer (``tokenizers``' own decode,
  the fast core of the ``transformers`` call the managers make) — the same input the apr-fast
  token-id rows start from.

Per-core figures are process CPU time with one worker thread, best of ``--repeat``; rows that
take text get new ``str`` objects of the same texts before every run, as a real batch comes
(``FreshTexts``: CPython keeps a string's UTF-8 once made). Thread
scaling is wall time of one batch call over all traces with 1 and 2 workers.

    .venv/bin/python benches/bench_reward.py [--repeat 3] [--reference-rollouts 40]
    .venv/bin/python benches/bench_reward.py --parity-rounds 4   # the parity rows alone
    .venv/bin/python benches/bench_reward.py --by-kind   # the token-id rows by kind of rollout
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import warnings
from typing import Any, Callable

from _common import (
    TOKENIZER, FreshTexts, at_least, ceiling_note, interleaved_best, interleaved_wall_best, load_traces,
    machine_scaling_fns, responses_and_truths, rollout_kind, token_id_arrays, traces_missing,
)


class PythonAPR:
    """The paper's rule-based anchor and reward in plain Python on math-verify + tokenizers."""

    def __init__(self, hf_tokenizer: Any, beta: float) -> None:
        from math_verify import parse, verify

        from apr_fast._reference.segmentation import CueMatcher

        self.parse, self.verify = parse, verify
        self.tokenizer = hf_tokenizer
        self.matcher = CueMatcher()
        self.beta = beta

    def __call__(self, response: str, ground_truth: str) -> dict[str, Any]:
        from apr_fast._reference.segmentation import find_cues

        think, closed, after = response.partition("</think>")
        think = think.removeprefix("<think>")
        offset = response.find(think) if think else 0
        final = self.parse(after if closed else response)
        gold = self.parse("$" + ground_truth + "$")
        correct = bool(closed) and bool(final) and bool(self.verify(gold, final))
        anchor_end = None
        if final:
            sentences = find_cues(think, self.matcher)
            for k, (sentence, hits) in enumerate(sentences):
                conclusion = any(h.kind == "conclusion" for h in hits)
                verified_next = k + 1 < len(sentences) and any(
                    h.kind == "verification" for h in sentences[k + 1][1])
                if not (conclusion or verified_next):
                    continue
                candidate = self.parse(think[sentence.start:sentence.end])
                if candidate and self.verify(final, candidate):
                    anchor_end = offset + sentence.end
                    break
        offsets = self.tokenizer.encode(response, add_special_tokens=False).offsets
        think_end = offset + len(think)
        t_think = sum(1 for start, _ in offsets if start < think_end)
        l_ast = 0 if anchor_end is None else sum(1 for start, _ in offsets if anchor_end <= start < think_end)
        reward = (1.0 - self.beta * l_ast) if correct else 0.0
        return {"correct": correct, "t_think": t_think, "l_ast": l_ast, "reward": reward}


def parity_rounds(args: argparse.Namespace, ids: list[Any], gts: list[Any], fresh: FreshTexts, vocabulary: Any) -> int:
    """The rows the per-core parity target compares, alone, round after round: a firmer
    reading of a ratio near 1 than one table."""
    import apr_fast

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from verl.utils.reward_score import math_dapo
    n = len(ids)
    scorers = {anchors: apr_fast.APRScorer(apr_fast.RewardConfig(beta=args.beta, cas=False, anchors=anchors), vocabulary=vocabulary)
               for anchors in ("all", "rewarded")}
    fns: dict[str, Callable[[], object]] = {
        f'anchors="{anchors}"': (lambda s=scorer: s.score_token_ids(ids, gts, threads=1)) for anchors, scorer in scorers.items()
    }
    fns["compute_score"] = lambda: [math_dapo.compute_score(r, g) for r, g in zip(fresh.texts, gts)]
    print(f"{n} rollouts; µs per rollout, CPU time, 1 worker thread, best of {args.repeat} in turns per round; "
          "each round starts the turns at the next row (what runs just before a row changes its time)")
    names = list(fns)
    ratios: dict[str, list[float]] = {"all": [], "rewarded": []}
    for round_ in range(args.parity_rounds):
        order = names[round_ % len(names):] + names[:round_ % len(names)]
        t = {name: best / n * 1e6 for name, (best, _) in interleaved_best(args.repeat, {k: fns[k] for k in order}, before=fresh.renew).items()}
        cells = ", ".join(f"{name} {t[name]:.1f}" for name in names)
        for anchors, row in ratios.items():
            row.append(t[f'anchors="{anchors}"'] / t["compute_score"])
        print(f"{cells}; rewarded / compute_score {ratios['rewarded'][-1]:.3f} (first: {order[0]})", flush=True)
    for anchors, row in ratios.items():
        print(f'anchors="{anchors}" / compute_score over {len(row)} rounds: median {statistics.median(row):.3f}, '
              f"range {min(row):.3f}-{max(row):.3f}")
    return 0


def by_kind(args: argparse.Namespace, ids: list[Any], gts: list[Any], vocabulary: Any) -> int:
    """The token-id reward's time by kind of rollout (status and correctness of the default
    call's rows), each kind's rollouts scored alone, by default and with anchors="rewarded":
    where the default's excess over "rewarded" comes from."""
    import apr_fast

    scorers = {anchors: apr_fast.APRScorer(apr_fast.RewardConfig(beta=args.beta, cas=False, anchors=anchors), vocabulary=vocabulary)
               for anchors in ("all", "rewarded")}
    groups: dict[str, list[int]] = {}
    for i, row in enumerate(scorers["all"].score_token_ids(ids, gts, threads=1)):
        groups.setdefault(rollout_kind(row), []).append(i)
    n = len(ids)
    print(f"{n} rollouts; µs per rollout of the kind and per rollout of the whole batch, CPU time, 1 worker thread, "
          f"best of {args.repeat} in turns")
    print("| rollouts | n | tokens each | default, µs each | per batch rollout | rewarded, µs each | per batch rollout |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for kind, members in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        kind_ids, kind_gts = [ids[i] for i in members], [gts[i] for i in members]
        fns: dict[str, Callable[[], object]] = {
            anchors: (lambda s=scorer: s.score_token_ids(kind_ids, kind_gts, threads=1)) for anchors, scorer in scorers.items()
        }
        t = {name: best for name, (best, _) in interleaved_best(args.repeat, fns).items()}
        tokens = statistics.mean(len(ids[i]) for i in members)
        cells = " | ".join(f"{t[a] / len(members) * 1e6:.1f} | {t[a] / n * 1e6:.2f}" for a in ("all", "rewarded"))
        print(f"| {kind} | {len(members):,} | {tokens:,.0f} | {cells} |", flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=at_least(1), default=3)
    parser.add_argument("--reference-rollouts", type=at_least(0), default=40,
                        help="rollouts for the Python + math-verify version (it takes seconds each; 0 skips it)")
    parser.add_argument("--beta", type=float, default=5e-4)
    parser.add_argument("--thread-repeat", type=at_least(1), default=15,
                        help="rounds of the 1- and 2-worker runs, in turns (best wall time of each)")
    parser.add_argument("--parity-rounds", type=at_least(0), default=0, metavar="N",
                        help="instead of the table: N rounds of the parity rows alone (token ids, default and "
                             "anchors=\"rewarded\", against math_dapo's compute_score on decoded text), each the "
                             "best of --repeat runs in turns")
    parser.add_argument("--by-kind", action="store_true",
                        help="instead of the table: the token-id reward's time by kind of rollout (status, correct or "
                             "not), by default and with anchors=\"rewarded\"")
    args = parser.parse_args(argv)
    if traces_missing():
        return 2

    from tokenizers import Tokenizer

    import apr_fast

    rows = load_traces()
    responses, gts = responses_and_truths(rows)
    n = len(rows)
    hf = Tokenizer.from_file(str(TOKENIZER))
    ids = token_id_arrays(responses, hf)
    n_tokens = sum(map(len, ids))
    vocabulary = apr_fast.Vocabulary.from_file(TOKENIZER)
    # Text rows get new str objects before every timed call, as a real batch comes (FreshTexts).
    fresh = FreshTexts(responses)

    if args.parity_rounds:
        return parity_rounds(args, ids, gts, fresh, vocabulary)
    if args.by_kind:
        return by_kind(args, ids, gts, vocabulary)
    # Every row is timed in turns (see interleaved_best): the ratios are what the table is for.
    timed: dict[str, tuple[Callable[[], object], int]] = {}
    for mode in ("paper", "default"):
        config = apr_fast.RewardConfig(beta=args.beta, mode=mode, cas=False)
        by_ids = apr_fast.APRScorer(config, vocabulary=vocabulary)
        timed[f"apr-fast APR reward, {mode} mode, token ids (VeRL path)"] = (
            lambda s=by_ids: s.score_token_ids(ids, gts, threads=1), n)
        by_text = apr_fast.APRScorer(config, tokenizer=hf)
        assert by_text._encoder is not None, "the bundled tokenizer is encoded natively"
        timed[f"apr-fast APR reward, {mode} mode, text, encoded natively (HF tokenizer's tokens)"] = (
            lambda s=by_text: s.score_batch(fresh.texts, gts, threads=1), n)
        by_hf_text = apr_fast.APRScorer(config, tokenizer=hf, native_encoding=False)
        timed[f"apr-fast APR reward, {mode} mode, text, encoded by HF tokenizers"] = (
            lambda s=by_hf_text: s.score_batch(fresh.texts, gts, threads=1), n)
    # The training setting that searches only the rollouts whose reward depends on the anchor
    # (the same rewards; L_AST and rho of the others not reported).
    rewarded = apr_fast.APRScorer(apr_fast.RewardConfig(beta=args.beta, cas=False, anchors="rewarded"), vocabulary=vocabulary)
    timed['apr-fast APR reward, default mode, token ids, anchors="rewarded" (only rollouts whose reward needs it)'] = (
        lambda: rewarded.score_token_ids(ids, gts, threads=1), n)
    # verl's custom_reward_function path: one call per decoded sample, lengths in characters, or
    # in tokens with `reward_kwargs.tokenizer` (encoded natively).
    from apr_fast.verl.compute_score import compute_score
    timed["apr-fast via verl compute_score, one call per decoded sample (default, characters)"] = (
        lambda: [compute_score("math", r, g, None, beta=args.beta, cas=False) for r, g in zip(fresh.texts, gts)], n)
    timed["apr-fast via verl compute_score, one call per decoded sample (default, tokens, native encoding)"] = (
        lambda: [compute_score("math", r, g, None, beta=args.beta, cas=False, tokenizer=str(TOKENIZER))
                 for r, g in zip(fresh.texts, gts)], n)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from verl.utils.reward_score import math_dapo
        timed["verl math_dapo.compute_score on decoded text (outcome only, no anchor)"] = (
            lambda: [math_dapo.compute_score(r, g) for r, g in zip(fresh.texts, gts)], n)
        # What a verl reward manager does per rollout (dapo.py, naive.py, reward_loop/*):
        # tokenizer.decode(valid_response_ids, skip_special_tokens=True), then compute_score.
        # `tokenizers`' own decode is the fast core of transformers' decode, so this is a floor.
        timed["verl math_dapo as verl's reward managers run it (decode ids + compute_score)"] = (
            lambda: [math_dapo.compute_score(hf.decode(i.tolist(), skip_special_tokens=True), g)
                     for i, g in zip(ids, gts)], n)
    except ImportError:
        print("verl not installed: math_dapo skipped (scripts/setup.sh test verl)", file=sys.stderr)
    reference_name = None
    if args.reference_rollouts == 0:
        print("Python reference skipped (--reference-rollouts 0)", file=sys.stderr)
    else:
        try:
            python_apr = PythonAPR(hf, args.beta)
            k = min(args.reference_rollouts, n)
            subset = list(range(0, n, max(n // k, 1)))[:k]
            subset_gts = [str(g[0]) if isinstance(g, list) and g else str(g) for g in (gts[i] for i in subset)]
            reference_name = f"Python + math-verify + tokenizers, paper rule ({len(subset)} rollouts)"
            timed[reference_name] = (lambda: [python_apr(fresh.texts[i], g) for i, g in zip(subset, subset_gts)], len(subset))
            # The subset's traces are not the average trace: the ratio to the reference is taken on
            # the same rollouts.
            subset_ids, subset_all_gts = [ids[i] for i in subset], [gts[i] for i in subset]
            for mode in ("paper", "default"):
                scorer = apr_fast.APRScorer(apr_fast.RewardConfig(beta=args.beta, mode=mode, cas=False), vocabulary=vocabulary)
                timed[f"apr-fast APR reward, {mode} mode, token ids, on the same {len(subset)} rollouts"] = (
                    lambda s=scorer: s.score_token_ids(subset_ids, subset_all_gts, threads=1), len(subset))
        except ImportError as e:
            print(f"reference skipped ({e}): pip install math-verify", file=sys.stderr)
    times = interleaved_best(args.repeat, {name: fn for name, (fn, _) in timed.items()},
                             once=frozenset({reference_name} if reference_name else ()), before=fresh.renew)
    results: list[tuple[str, float, int]] = [(name, times[name][0], count) for name, (_, count) in timed.items()]

    reference_agreement = None
    if reference_name is not None:
        ref_out = times[reference_name][1]
        paper = apr_fast.APRScorer(apr_fast.RewardConfig(beta=args.beta, mode="paper", cas=False), vocabulary=vocabulary)
        ours = paper.score_token_ids([ids[i] for i in subset], [gts[i] for i in subset])
        same_correct = sum(o.correct == r["correct"] for o, r in zip(ours, ref_out))
        same_t_think = sum(o.t_think == r["t_think"] for o, r in zip(ours, ref_out))
        same_l_ast = sum(o.l_ast == r["l_ast"] for o, r in zip(ours, ref_out))
        reference_agreement = (len(subset), same_correct, same_t_think, same_l_ast)

    ids_scorer = apr_fast.APRScorer(apr_fast.RewardConfig(beta=args.beta, cas=False), vocabulary=vocabulary)
    by_workers = interleaved_wall_best(args.thread_repeat, {
        "1": lambda: ids_scorer.score_token_ids(ids, gts, threads=1),
        "2": lambda: ids_scorer.score_token_ids(ids, gts, threads=2),
        **machine_scaling_fns(),
    })
    wall = {int(w): by_workers[w] for w in ("1", "2")}

    base = dict((name, t / count) for name, t, count in results)["apr-fast APR reward, default mode, token ids (VeRL path)"]
    print(f"{n} real rollouts, {n_tokens:,} tokens ({n_tokens / n:,.0f} per rollout); "
          f"os.cpu_count()={os.cpu_count()}; load {os.getloadavg()[0]:.2f}; "
          f"CPU time, 1 worker thread, best of {args.repeat}\n")
    print("| reward | µs per rollout | rollouts/s per core | apr-fast (default, ids) is |")
    print("|---|---:|---:|---:|")
    for name, t, count in results:
        per = t / count
        ratio = per / base
        relative = f"{ratio:,.2f}x faster" if ratio >= 1 else f"{ratio:,.2f}x ({1 / ratio:,.1f}x slower)"
        print(f"| {name} | {per * 1e6:,.1f} | {1 / per:,.0f} | {relative} |")
    print(f"\nThreads (default mode, token ids, all {n} rollouts, wall time, best of {args.thread_repeat} "
          f"rounds in turns): 1 worker {wall[1] * 1e3:.0f} ms, "
          f"2 workers {wall[2] * 1e3:.0f} ms, speed-up {wall[1] / wall[2]:.2f}x")
    print(ceiling_note(by_workers))
    if reference_name is not None:
        per = dict((name, t / count) for name, t, count in results)
        k = len(subset)
        ref = per[reference_name]
        paper_same = per[f"apr-fast APR reward, paper mode, token ids, on the same {k} rollouts"]
        default_same = per[f"apr-fast APR reward, default mode, token ids, on the same {k} rollouts"]
        print(f"On the reference's {k} rollouts: the Python version takes {ref / paper_same:,.0f}x the time of "
              f"apr-fast's paper mode (the same rule) and {ref / default_same:,.0f}x that of its default mode")
    if reference_agreement is not None:
        k, c, t, l = reference_agreement
        print(f"Python reference vs apr-fast paper mode on its {k} rollouts: same correctness {c}/{k}, "
              f"same T_think {t}/{k}, same L_AST {l}/{k} (math-verify and apr-fast differ in what they "
              f"extract from a sentence, so L_AST may differ)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
