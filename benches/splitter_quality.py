"""Quality of the sentence splitter on the shared traces, checked without its own math detector.

For every ``thinking`` text in ``<repo>/../shared/data/traces/traces.jsonl.gz``:

- sentences: how many, and how long;
- sentences that cross a math span: a sentence whose delimiters do not balance (``\\(`` vs
  ``\\)``, ``\\[`` vs ``\\]``, an odd number of ``$$``, an odd number of single ``$``, or a
  ``\\begin{env}`` without its ``\\end{env}``), counted with plain string counts. A sentence can
  be unbalanced because the splitter cut a formula (an error) or because the model wrote an
  unbalanced delimiter (``costs $5``, a lone ``\\(`` in a degenerate trace). The script tells the
  two apart: where a formula was cut, the sentence leaves a formula open, the next one is
  unbalanced for the same delimiter, the two balance once joined, and no blank line separates
  them (TeX ends math at a paragraph break, so a pair across one is two stray delimiters). A
  ``$`` before a digit after a space (``$5``) counts as a currency sign, not a delimiter;
- sentences that end inside a number: the content ends with a digit and ``.`` or ``,`` and the
  next sentence starts with a digit, with no whitespace between (a number such as 3.14 cut in
  two), and, for reference, the same with whitespace on the same line ("divisible by 5. 115 / 5
  = 23"), which are ordinary sentence ends followed by a number.

Then prints split sentences of one MIT-licensed trace (``sample_mit.jsonl``) for the README.

    .venv/bin/python benches/splitter_quality.py [--examples 5] [--sample 21] [--sentences 24]
"""
from __future__ import annotations

import argparse
import collections
import gzip
import json
import re
import sys
from pathlib import Path

import apr_fast

from _common import at_least

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "traces"
ENV = re.compile(r"\\(begin|end)\{([A-Za-z]+\*?)\}")
ESCAPED = re.compile(r"\\.", re.DOTALL)
BLANK_LINE = re.compile(r"\n[^\S\n]*\n")
# "$5", "($20,000": a dollar sign before a digit, after a space or an opening bracket.
CURRENCY = re.compile(r"(?:^|(?<=[\s(\[]))\$(?=\d)")


def imbalances(s: str) -> list[str]:
    """Delimiter kinds that do not balance in ``s`` (plain counts, TeX escapes removed)."""
    out = []
    if s.count("\\(") != s.count("\\)"):
        out.append("\\( \\)")
    if s.count("\\[") != s.count("\\]"):
        out.append("\\[ \\]")
    # Drop escape pairs (\\, \$, \{ ...) so that `\$` and `\\[` are not counted as delimiters.
    plain = ESCAPED.sub("", s)
    if plain.count("$$") % 2:
        out.append("$$")
    if CURRENCY.sub("", plain.replace("$$", "")).count("$") % 2:
        out.append("$")
    envs = collections.Counter((m.group(2), m.group(1)) for m in ENV.finditer(s))
    if any(envs[(name, "begin")] != envs[(name, "end")] for name, _ in envs):
        out.append("begin/end")
    return out


def opens(s: str, kind: str) -> bool:
    """Whether ``s`` leaves a formula of this kind open (more openers than closers)."""
    if kind == "\\( \\)":
        return s.count("\\(") > s.count("\\)")
    if kind == "\\[ \\]":
        return s.count("\\[") > s.count("\\]")
    return True  # symmetric delimiters: any odd count may open


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--examples", type=at_least(0), default=5, help="examples to print per finding")
    parser.add_argument("--sample", type=at_least(0), default=21, help="line of sample_mit.jsonl to print")
    parser.add_argument("--sentences", type=at_least(0), default=24, help="sentences of the sample to print")
    args = parser.parse_args()
    traces = DATA / "traces.jsonl.gz"
    if not traces.exists():
        sys.exit(f"no traces at {traces}")
    with gzip.open(traces, "rt", encoding="utf-8") as f:
        texts = [row["thinking"] for row in map(json.loads, f)]

    all_sentences = apr_fast.split_sentences_batch(texts)
    n_sentences = sum(len(s) for s in all_sentences)
    lengths = sorted(len(s.content) for ss in all_sentences for s in ss)

    unbalanced: collections.Counter[str] = collections.Counter()
    cut_formulas: list[str] = []
    literal_examples: dict[str, list[str]] = collections.defaultdict(list)
    number_cuts: list[str] = []
    number_then_number: list[str] = []
    for text, sentences in zip(texts, all_sentences):
        for k, s in enumerate(sentences):
            nxt = sentences[k + 1] if k + 1 < len(sentences) else None
            for kind in imbalances(s.text):
                joined = text[s.start : nxt.end] if nxt else ""
                paragraph_break = nxt is not None and BLANK_LINE.search(text, s.content_end, nxt.start) is not None
                if (
                    nxt
                    and not paragraph_break
                    and opens(s.text, kind)
                    and kind in imbalances(nxt.text)
                    and kind not in imbalances(joined)
                ):
                    unbalanced["cut formula"] += 1
                    cut_formulas.append(f"{kind}: {s.text!r} | {nxt.text!r}")
                else:
                    unbalanced[f"literal {kind}"] += 1
                    literal_examples[kind].append(repr(s.text))
            if nxt and re.search(r"\d[.,]$", s.content) and nxt.text[:1].isdigit():
                gap = text[s.content_end : nxt.start]
                pair = f"{s.content[-40:]!r} | {nxt.text[:40]!r}"
                if gap == "":
                    number_cuts.append(pair)
                elif "\n" not in gap and "\r" not in gap:
                    number_then_number.append(pair)

    print(f"traces: {len(texts)}; sentences: {n_sentences}; "
          f"content length p50/p90/p99/max: {lengths[len(lengths) // 2]}/{lengths[int(len(lengths) * .9)]}/"
          f"{lengths[int(len(lengths) * .99)]}/{lengths[-1]} characters")
    print(f"sentences crossing a math span (formula cut between two sentences): {unbalanced['cut formula']}")
    for kind in sorted(k for k in unbalanced if k.startswith("literal")):
        print(f"sentences holding an unbalanced delimiter the model wrote ({kind[8:]}): {unbalanced[kind]}")
    print(f"sentences ending inside a number (no whitespace before the next digit): {len(number_cuts)}")
    print(f"sentences ending in a number followed on the same line by one starting with a digit: "
          f"{len(number_then_number)}")
    findings = [("cut formulas", cut_formulas), ("numbers cut", number_cuts),
                ("sentence ends followed by a number", number_then_number[:: max(1, len(number_then_number) // 50)])]
    findings += [(f"unbalanced {k} written by the model", v) for k, v in sorted(literal_examples.items())]
    for title, examples in findings:
        if examples:
            print(f"\n{title}, {min(args.examples, len(examples))} examples:")
            for e in examples[: args.examples]:
                print("   ", e[:200])

    # The README sample comes from the MIT-licensed traces, which may be copied into the project.
    sample = json.loads((DATA / "sample_mit.jsonl").read_text(encoding="utf-8").splitlines()[args.sample])
    seg = apr_fast.segment(sample["thinking"])
    print(f"\nsample: sample_mit.jsonl line {args.sample} ({sample['model']}, {sample['dataset']}, MIT), "
          f"{len(seg)} sentences; C/V = conclusion/verification cue")
    for s, c, v in list(zip(seg.sentences(), seg.conclusion, seg.verification))[: args.sentences]:
        flags = ("C" if c else "-") + ("V" if v else "-")
        print(f"  {s.index:3d} {flags} {s.text!r}")


if __name__ == "__main__":
    main()
