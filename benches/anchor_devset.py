#!/usr/bin/env python3
"""Anchor-localisation accuracy of each mode on the hand-annotated traces.

The annotations (tests/data/anchor_devset/, rules in RULES.md) mark, by reading, the first
sentence where the model arrives at its own final answer. For every distinct annotated trace
this scores the real completion exactly as training does (reference = the response's own
final answer, lengths in the DeepSeek-R1-Distill-Qwen tokenizer's tokens) and compares the
anchor sentence with the annotated one:

* exact: same sentence; ±1 / ±2: within one / two sentences;
* ρ MAE: mean absolute error of the redundancy ratio ρ = L_AST / T_think (tokens);
* early / late: predicted anchor before / after the annotated one.

Usage::

    python benches/anchor_devset.py                    # dev set, every mode
    python benches/anchor_devset.py --set holdout      # the held-out set (never tuned on)
    python benches/anchor_devset.py --mode default --errors 20   # read the misses
    python benches/anchor_devset.py --set both --round 2         # only the second round's traces
    python benches/anchor_devset.py --agreement        # traces read by two annotators
    python benches/anchor_devset.py --set both --mode default --by-length   # exact match by trace length

Round 1 is batches A, B, C (dev) and H1, H2 (held-out); round 2 is D, E (dev) and H3, H4
(held-out); round 3 is F, G and H5, H6; round 4 is K, L and H7, H8; round 5 is H9 to H12
(held-out only); rounds 6, 7 and 8 are M, N, P, Q, then R, S, T, U, then V, W, X, Y (dev
only); round 9 is H13 to H16 (held-out only) and round 10 Z1 to Z4 (dev only), both mostly
long traces; round 11 is J1 to J6 (dev only), every long trace left (20k characters or more). Rounds 2 to 11 were drawn later by ``select.py --round N`` from traces in
neither set.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parents[1]
DEVSET = ROOT / "tests" / "data" / "anchor_devset"
SHARED = ROOT.parent / "shared" / "data"
TRACES = SHARED / "traces" / "traces.jsonl.gz"
TOKENIZER = SHARED / "tokenizer" / "deepseek-r1-distill-qwen.tokenizer.json"



def _load_annotate():  # type: ignore[no-untyped-def]
    """The annotators' tool module beside the annotations: the table of rounds and batches, and
    the reader of the traces they point at. Loaded by path: that folder also holds a `select.py`,
    which must not shadow the standard library's `select` on `sys.path`."""
    spec = importlib.util.spec_from_file_location("anchor_devset_annotate", DEVSET / "annotate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


annotate = _load_annotate()

SETS = {"dev": "selection.jsonl", "holdout": "holdout_selection.jsonl"}


trace_key = annotate.key


@dataclass
class Case:
    id: str
    trace: dict
    annotation: dict


def first_readings(which: str) -> dict[str, dict]:
    """Each id's annotation in the file of the batch that owns it (a batch not read yet has none)."""
    held_out = which == "holdout"
    files = [f"annotations_{b}.jsonl" for b in annotate.batches(held_out)]
    return {a["id"]: a for name in files if (DEVSET / name).exists() for a in annotate.read_jsonl(name)}


def load_cases(which: str, rounds: Optional[set[int]] = None) -> list[Case]:
    selection = annotate.read_jsonl(SETS[which])
    if rounds:
        wanted = set(annotate.batches(which == "holdout", tuple(sorted(rounds))))
        selection = [s for s in selection if s["batch"] in wanted]
    annotations = first_readings(which)
    pending = [s["id"] for s in selection if s["id"] not in annotations]
    if pending:  # a round drawn and still being read
        print(f"({len(pending)} selected traces not annotated yet, left out: {pending[0]}...{pending[-1]})",
              file=sys.stderr)
        selection = [s for s in selection if s["id"] in annotations]
    traces = annotate.traces_of(selection)
    cases, seen = [], set()
    for s in selection:
        key = trace_key(s)
        if key in seen:  # the first round drew 13 traces twice; each counts once
            continue
        seen.add(key)
        cases.append(Case(s["id"], traces[key], annotations[s["id"]]))
    return cases


@dataclass
class Outcome:
    case: Case
    gold: int
    pred: int
    num_sentences: int
    rho_gold: float
    rho_pred: float
    final_matches: bool
    sentences: list


def evaluate(cases: list[Case], mode: str, tokenizer, options=None) -> list[Outcome]:
    import apr_fast
    from apr_fast.reward import APRScorer, RewardConfig, _token_offsets

    scorer = APRScorer(RewardConfig(mode=mode, cas=False, anchor_options=options), tokenizer=tokenizer)
    completions = [c.trace["completion"] for c in cases]
    scores = scorer.score_batch(
        completions, [c.trace["ground_truth"] for c in cases], problems=[c.trace["problem"] for c in cases]
    )
    token_ends = [apr_fast.token_ends_from_offsets(o) for o in _token_offsets(tokenizer, completions)]
    outcomes = []
    for case, score, completion, ends in zip(cases, scores, completions, token_ends):
        t0, t1 = score.thinking_span
        thinking = completion[t0:t1]
        sentences = apr_fast.split_sentences(thinking)
        n = len(sentences)
        # The trace's `thinking` field may differ from ours by leading white space.
        delta = thinking.find(case.trace["thinking"][:200]) if case.trace["thinking"] else 0
        answer_char = case.annotation["answer_char"]
        if answer_char is None:
            gold = n - 1
        else:
            x = answer_char + max(delta, 0)
            gold = next(i for i, s in enumerate(sentences) if s.start <= x < s.end)
        pred = score.anchor_sentence if score.anchor_found else n - 1

        def token_at(char: int) -> int:
            """The token holding character `char` (as the scorer counts: first end past it)."""
            return next((k for k, e in enumerate(ends) if e > char), len(ends) - 1)

        def tail_ratio(sentence: Optional[int]) -> float:
            if sentence is None or t1 <= t0:
                return 0.0
            first, last = token_at(t0), token_at(t1 - 1)
            anchor = min(max(token_at(t0 + sentences[sentence].content_end - 1), first), last)
            return (last - anchor) / (last - first + 1)

        rho_gold = tail_ratio(None if answer_char is None else gold)
        outcomes.append(Outcome(
            case=case, gold=gold, pred=pred, num_sentences=n, rho_gold=rho_gold, rho_pred=score.rho,
            final_matches=(score.final_answer or "").replace(" ", "") == (case.annotation["final_answer"] or "").replace(" ", ""),
            sentences=sentences,
        ))
    return outcomes


def summarize(mode: str, outcomes: list[Outcome]) -> dict:
    n = len(outcomes)
    diffs = [o.pred - o.gold for o in outcomes]
    return {
        "mode": mode,
        "n": n,
        "exact": sum(d == 0 for d in diffs) / n,
        "within1": sum(abs(d) <= 1 for d in diffs) / n,
        "within2": sum(abs(d) <= 2 for d in diffs) / n,
        "rho_mae": statistics.fmean(abs(o.rho_pred - o.rho_gold) for o in outcomes),
        "rho_gold_mean": statistics.fmean(o.rho_gold for o in outcomes),
        "rho_pred_mean": statistics.fmean(o.rho_pred for o in outcomes),
        "early": sum(d < 0 for d in diffs),
        "late": sum(d > 0 for d in diffs),
    }


def ablations() -> list[tuple[str, str, object]]:
    """(label, mode, options): paper plus one refinement, and default minus one."""
    from dataclasses import fields, replace

    from apr_fast.reward import AnchorOptions

    paper, default = AnchorOptions.of_mode("paper"), AnchorOptions.of_mode("default")
    out = []
    for f in fields(AnchorOptions):
        if getattr(paper, f.name) != getattr(default, f.name):
            out.append((f"paper + {f.name}={getattr(default, f.name)}", "paper",
                        replace(paper, **{f.name: getattr(default, f.name)})))
            out.append((f"default − {f.name}", "default",
                        replace(default, **{f.name: getattr(paper, f.name)})))
    out.append(("default + context=loose", "default", replace(default, context="loose")))
    out.append(("default + max_extra_complexity=1", "default", replace(default, max_extra_complexity=1)))
    out.append(("default + backtrack_gap=1", "default", replace(default, backtrack_gap=1)))
    out.append(("default + backtrack_gap=2", "default", replace(default, backtrack_gap=2)))
    return out


def agreement() -> list[tuple[str, Optional[int], Optional[int], bool]]:
    """Traces read by two annotators: (id, sentence of the first reading, of the second, same).

    The first reading is the batch file that owns the id; the second, an ``agreement_*`` file
    (round 2) or, in round 1, the other batch's reading of a trace drawn twice."""
    import apr_fast

    firsts = {**first_readings("dev"), **first_readings("holdout")}
    later = [b for held_out in (False, True) for b in annotate.batches(held_out, tuple(annotate.ROUNDS)[1:])]
    pairs: list[tuple[str, dict, dict]] = [
        (a["id"], firsts[a["id"]], a) for b in later if (DEVSET / f"agreement_{b}.jsonl").exists()
        for a in annotate.read_jsonl(f"agreement_{b}.jsonl") if a["id"] in firsts
    ]
    batch_of = {i: entry["batch"] for i, entry in annotate.selection().items()}
    by_trace: dict[tuple, dict] = {}
    for a in firsts.values():
        other = by_trace.setdefault(trace_key(a), a)
        if other is not a and batch_of[other["id"]] != batch_of[a["id"]]:  # two annotators
            pairs.append((f"{other['id']}/{a['id']}", other, a))
    thinking = {k: r["thinking"] for k, r in annotate.traces_of([first for _, first, _ in pairs]).items()}
    out = []
    for name, first, second in pairs:
        sentences = apr_fast.split_sentences(thinking[trace_key(first)])

        def sentence_of(a: dict) -> Optional[int]:
            x = a["answer_char"]
            return None if x is None else next(i for i, s in enumerate(sentences) if s.start <= x < s.end)

        i, j = sentence_of(first), sentence_of(second)
        out.append((name, i, j, i == j))
    return out


#: Bins of thinking length (characters) for ``--by-length``: long traces are where most of a
#: policy's tokens lie, and where a coincidental early value is most likely.
LENGTH_BINS = ((0, 10_000), (10_000, 20_000), (20_000, 45_000), (45_000, None))


def print_by_length(outcomes: list[Outcome]) -> None:
    print("\n| thinking (characters) | n | exact | early / late |\n|---|---:|---:|---|")
    for lo, hi in LENGTH_BINS:
        part = [o for o in outcomes if lo <= len(o.case.trace["thinking"]) and (hi is None or len(o.case.trace["thinking"]) < hi)]
        if part:
            exact = sum(o.pred == o.gold for o in part) / len(part)
            early = sum(o.pred < o.gold for o in part)
            late = sum(o.pred > o.gold for o in part)
            label = f"{lo // 1000}k–{hi // 1000}k" if hi else f"≥ {lo // 1000}k"
            print(f"| {label} | {len(part)} | {exact:.1%} | {early} / {late} |")
    print()


def print_errors(outcomes: list[Outcome], limit: int) -> None:
    misses = [o for o in outcomes if o.pred != o.gold]
    for o in misses[:limit]:
        text = lambda i: o.sentences[i].text.strip().replace("\n", " ")[:160] if 0 <= i < len(o.sentences) else ""
        print(f"\n--- {o.case.id} {o.case.trace['model'][:40]} {o.case.trace['dataset']} "
              f"final={o.case.annotation['final_answer']!r} gold={o.gold} pred={o.pred} of {o.num_sentences}")
        print(f"  gold: {text(o.gold)}")
        print(f"  pred: {text(o.pred)}")


def main(argv: Optional[list[str]] = None) -> int:
    # Imported here: the tests load this file by its path, without benches/ on sys.path.
    from _common import at_least

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", choices=["dev", "holdout", "both"], default="dev")
    parser.add_argument("--mode", action="append", help="mode(s) to evaluate (default: all)")
    parser.add_argument("--errors", type=at_least(0), default=0, help="print this many misses per mode")
    parser.add_argument("--json", help="write the summary rows to this file")
    parser.add_argument("--round", type=int, action="append", choices=sorted(annotate.ROUNDS),
                        help="only the traces of this annotation round (default: all)")
    parser.add_argument("--agreement", action="store_true",
                        help="only compare the traces read by two annotators")
    parser.add_argument("--ablate", action="store_true",
                        help="also each refinement alone on top of 'paper', and 'default' without each")
    parser.add_argument("--by-length", action="store_true",
                        help="also each mode's exact match by length of the thinking (characters)")
    args = parser.parse_args(argv)
    if not TRACES.exists():
        print(f"{TRACES} not found: the dev set needs ../shared/data", file=sys.stderr)
        return 2
    import tokenizers

    from apr_fast.reward import ANCHOR_MODES

    if args.agreement:
        pairs = agreement()
        print("| trace | first reading | second reading | same sentence |\n|---|---:|---:|---|")
        for name, i, j, same in pairs:
            print(f"| {name} | {i} | {j} | {'yes' if same else 'no'} |")
        print(f"\n{sum(p[3] for p in pairs)} of {len(pairs)} traces read twice agree on the anchor sentence")
        return 0
    tokenizer = tokenizers.Tokenizer.from_file(str(TOKENIZER))
    sets = ["dev", "holdout"] if args.set == "both" else [args.set]
    rows = []
    for which in sets:
        cases = load_cases(which, set(args.round or ()))
        rounds = f" (round {', '.join(map(str, args.round))})" if args.round else ""
        print(f"\n## {which}{rounds}: {len(cases)} distinct annotated traces\n")
        print("| mode | n | exact | ±1 | ±2 | ρ MAE | mean ρ (gold → pred) | early / late |")
        print("|---|---|---|---|---|---|---|---|")
        variants = [(m, m, None) for m in (args.mode or list(ANCHOR_MODES))]
        if args.ablate:
            variants += ablations()
        for label, mode, options in variants:
            outcomes = evaluate(cases, mode, tokenizer, options)
            s = summarize(label, outcomes)
            s["set"] = which
            rows.append(s)
            print(f"| {label} | {s['n']} | {s['exact']:.1%} | {s['within1']:.1%} | {s['within2']:.1%} | "
                  f"{s['rho_mae']:.3f} | {s['rho_gold_mean']:.3f} → {s['rho_pred_mean']:.3f} | {s['early']} / {s['late']} |")
            mismatched = [o.case.id for o in outcomes if not o.final_matches]
            if mismatched:
                print(f"\n(final answer differs from the annotation's in {mismatched})\n")
            if args.by_length:
                print_by_length(outcomes)
            if args.errors:
                print_errors(outcomes, args.errors)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
