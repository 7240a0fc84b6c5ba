"""Gold answers of the evaluation sets against themselves and their rewritings.

For every gold answer of AIME 2024/2025, AMC 2022-23/2023, MATH500, Minerva and OlympiadBench
(each alternative of a list counts), this generates equivalent rewritings of it — wrapped in
``\\left( \\right)``, ``\\dfrac`` for ``\\frac``, an ``x =`` prefix, lists and sets reordered,
decimal <-> fraction where exact, thousands separators, thin spaces, Unicode, ``\\boxed{}`` — and
checks that every one is judged equal, natively where possible. Prints one row per benchmark and
lists the golds that needed sympy or stayed unknown, with the reason. Last, each gold boxed in a
response is checked with its problem text, as training checks it (the echo rule and the
alternatives a problem shows boxed must not reject a gold).

    .venv/bin/python benches/gold_answers.py [--data ../shared/data/benchmarks] [--no-cas]
    .venv/bin/python benches/gold_answers.py --train --no-cas    # the 9,252 training answers

Columns: golds; golds equal to themselves; rewritings; rewritings judged equal; share of all
comparisons decided natively (no sympy); decided by sympy; still unknown; judged not equal.
Native per-call timings of parse and compare on the same golds:
``cargo test --release --lib answer::bench -- --ignored --nocapture``.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Iterator

from apr_fast.equivalence import Method, Verdict, equivalent, equivalent_batch

BENCHMARKS = ["aime", "aime2025", "amc", "amc23", "math", "minerva", "olympiad_bench"]
# With --train: the training rows in ../shared/data/train (9,252 answers).
TRAINING_SETS = ["math_train", "aime_1983_2023", "deepscaler_head803"]


def load_rows(data: Path, name: str) -> list[dict] | None:
    """The rows of `name`.json or `name`.jsonl under `data`; None when neither exists."""
    json_path, jsonl_path = data / f"{name}.json", data / f"{name}.jsonl"
    if json_path.exists():
        return json.loads(json_path.read_text())
    if jsonl_path.exists():
        return [json.loads(line) for line in jsonl_path.read_text().splitlines() if line.strip()]
    return None


def answer_text(alt: object) -> str:
    """One gold alternative as a string (AMC's floats as numbers)."""
    if isinstance(alt, float):
        return str(int(alt)) if alt.is_integer() else repr(alt)
    return str(alt)


def load_golds(data: Path, names: list[str] = BENCHMARKS) -> dict[str, list[str]]:
    """Gold answer strings per benchmark (lists of alternatives flattened; floats as numbers)."""
    golds: dict[str, list[str]] = {}
    for name in names:
        rows = load_rows(data, name)
        if rows is None:
            continue
        out: list[str] = []
        for row in rows:
            answer = row["answer"]
            out.extend(answer_text(alt) for alt in (answer if isinstance(answer, list) else [answer]))
        golds[name] = out
    return golds


def print_boxed_with_problems(data: Path, names: list[str]) -> None:
    """Each row's first gold alternative boxed in a response and checked as training checks it,
    with the problem text (`is_correct_batch(..., problems=...)`): the echo rule must not take a
    gold for a restatement of its problem, nor may the alternatives the problem shows boxed
    (dropped as earlier subproblems' answers) drop the gold."""
    import apr_fast

    responses, gts, problems, where = [], [], [], []
    for name in names:
        for i, row in enumerate(load_rows(data, name) or []):
            answer = row.get("answer")
            first = answer[0] if isinstance(answer, list) and answer else answer
            if first in (None, "") or not row.get("problem"):
                continue
            responses.append(f"<think>...</think> The answer is $\\boxed{{{answer_text(first).strip().strip('$')}}}$.")
            gts.append(answer)
            problems.append(row["problem"])
            where.append(f"{name} #{i}")
    results = apr_fast.is_correct_batch(responses, gts, problems=problems, cas=False)
    misses = [(w, r) for w, r in zip(where, results) if not r.correct]
    print(f"\nEach gold boxed in a response, with its problem text: {len(results) - len(misses)} of {len(results)} correct")
    for w, r in misses:
        how = "problem echo" if r.problem_echo else (r.judgement.detail if r.judgement is not None else "no answer")
        print(f"  {w}: {r.final_answer.text if r.final_answer else None!r} ({how})")


def top_level_commas(s: str) -> bool:
    """True when `s` has a comma outside every bracket (a list of answers)."""
    depth = 0
    i = 0
    while i < len(s):
        c = s[i]
        if s.startswith("\\{", i) or s.startswith("\\left", i) and s[i + 5 : i + 6] in "([":
            depth += 1
        elif s.startswith("\\}", i):
            depth -= 1
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            # A thousands separator is not a list comma.
            if not re.match(r"\d{3}(?!\d)", s[i + 1 :]) and not s.startswith(",\\!", i):
                return True
        i += 1
    return False


def split_top_level(s: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for i, c in enumerate(s):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(s[start:i])
            start = i + 1
    parts.append(s[start:])
    return parts


def exact_decimal(q: Fraction) -> str | None:
    """The terminating decimal of q, if it has one of at most 12 digits."""
    d = q.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    if d != 1:
        return None
    for digits in range(0, 13):
        scaled = q * 10**digits
        if scaled.denominator == 1:
            sign = "-" if scaled < 0 else ""
            n = abs(scaled.numerator)
            if digits == 0:
                return f"{sign}{n}"
            whole, frac = divmod(n, 10**digits)
            return f"{sign}{whole}.{frac:0{digits}d}"
    return None


def as_fraction(s: str) -> Fraction | None:
    s = s.strip().strip("$").strip()
    m = re.fullmatch(r"(-?)\\[dt]?frac\{(\d+)\}\{(\d+)\}", s) or re.fullmatch(r"(-?)(\d+)/(\d+)", s)
    if m and int(m.group(3)) != 0:
        return Fraction(int(m.group(2)), int(m.group(3))) * (-1 if m.group(1) else 1)
    if re.fullmatch(r"-?\d+(\.\d+)?", s):
        return Fraction(s)
    return None


def rewritings(gold: str) -> Iterator[tuple[str, str]]:
    """Equivalent rewritings of `gold`, each with the name of the rule that made it."""
    g = gold.strip()
    core = g.strip("$").strip() if g.count("$") == 2 and g.startswith("$") and g.endswith("$") else g
    is_list = top_level_commas(core)
    is_choice = bool(re.fullmatch(r"(\\text(bf)?\{\s*)?\(?[A-E]\)?\s*\}?", core))
    # Prose (a word of four letters or more outside a command) is compared as text: rewriting
    # its punctuation changes it.
    is_text = "\\text{" in core and not is_choice or bool(re.search(r"(?<![\\a-zA-Z])[a-zA-Z]{4,}", core))
    plain_thousands = bool(re.search(r"\d,\d{3}(?!\d)", core))
    is_relation = bool(re.search(r"=|<|>|\\le|\\ge|\\in\b|\\ne", core))
    yield "boxed", f"\\boxed{{{core}}}"
    yield "thin spaces", f"\\, {core} \\;"
    yield "dollars", f"${core}$"
    if "\\frac" in core:
        yield "dfrac", core.replace("\\frac", "\\dfrac")
    if not (is_list or is_text or is_choice or plain_thousands) and "\\begin" not in core:
        yield "left-right", f"\\left( {core} \\right)"
    if not (is_list or is_relation or is_text or is_choice):
        # A name the value does not mention: `x = x^2 + 1` would be an equation in x.
        name = next((n for n in ("x", "y", "k", "m", "r") if not re.search(rf"(?<![\\a-zA-Z]){n}(?![a-zA-Z])", core)), None)
        if name is not None:
            yield "x =", f"{name} = {core}"
    if is_list and not is_text and "\\{" not in core:
        parts = split_top_level(core)
        yield "list reversed", ",".join(reversed(parts))
        yield "list with or", " \\text{ or } ".join(p.strip() for p in parts)
    m = re.fullmatch(r"\\\{(.*)\\\}", core)
    if m and top_level_commas(m.group(1)):
        yield "set reversed", "\\{" + ",".join(reversed(split_top_level(m.group(1)))) + "\\}"
    q = as_fraction(core)
    if q is not None:
        decimal = exact_decimal(q)
        if decimal is not None and decimal != core:
            yield "as decimal", decimal
        if decimal is not None:
            yield "siunitx num", f"\\num{{{decimal}}}"
        if q.denominator != 1:
            yield "as fraction", f"\\frac{{{q.numerator}}}{{{q.denominator}}}"
        if q.denominator == 1 and abs(q) >= 1000:
            n = abs(q.numerator)
            sign = "-" if q < 0 else ""
            yield "thousands comma", sign + f"{n:,}"
            yield "thousands thin space", sign + f"{n:,}".replace(",", "\\,")
            yield "thousands {,}", sign + f"{n:,}".replace(",", "{,}")
        if q.denominator == 1 and q >= 0 and q < 1000:
            yield "leading zeros", f"00{q.numerator}"
    if "\\pi" in core or "\\sqrt" in core or "\\cdot" in core:
        yield "unicode", core.replace("\\pi", "π").replace("\\cdot", "·")
    if re.fullmatch(r"[^,]*[^\\a-zA-Z]\+[^,]*", core):
        yield "spaced plus", core.replace("+", " + ")
    if not (is_list or is_text or is_relation):
        terms = split_top_level_sum(core)
        if len(terms) > 1:
            yield "sum reordered", " + ".join(reversed(terms)).replace("+ -", "- ")
    m = re.fullmatch(r"(-?)\\[dt]?frac\{(\d+)\}\{(\d+)\}", core)
    if m:
        yield "slash fraction", f"{m.group(1)}{m.group(2)}/{m.group(3)}"
        yield "scaled fraction", f"{m.group(1)}\\frac{{{2 * int(m.group(2))}}}{{{2 * int(m.group(3))}}}"
    if re.fullmatch(r"\\sqrt\{\d+\}", core):
        yield "power one half", core.replace("\\sqrt{", "(").replace("}", ")^{1/2}")


def split_top_level_sum(s: str) -> list[str]:
    """Terms of a top-level sum (split at + and - outside brackets and scripts), signs kept."""
    terms, depth, start = [], 0, 0
    for i, c in enumerate(s):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c in "+-" and depth == 0 and i > start and s[i - 1] not in "^_({=,\\" and not s[:i].rstrip().endswith(("\\times", "\\cdot", "e", "E")):
            terms.append(s[start:i].strip())
            start = i if c == "-" else i + 1
    terms.append(s[start:].strip())
    return [t for t in terms if t]


def is_zero(gold: str) -> bool:
    """Whether `gold` is zero, a zero tuple or a zero matrix (`0`, `(0,0)`, a pmatrix of
    zeros): doubling it changes nothing."""
    rest = re.sub(r"\\(begin|end)\{\w+\}|\\left|\\right|\\\\|[&(),\s$]", "", gold)
    return rest != "" and set(rest) == {"0"}


def perturbations(gold: str) -> Iterator[tuple[str, str]]:
    """Non-equivalent variants of `gold`: a digit changed, a sign flipped, an interval's brackets
    swapped, a term added, a number word appended, a letter changed. None of them may be judged
    equal."""
    core = gold.strip()
    m = re.search(r"\d", core)
    if m:
        digit = int(m.group())
        yield "digit changed", core[: m.start()] + str((digit + 1) % 10 if digit != 0 else 1) + core[m.end() :]
    m = re.search(r"(?<=[\w})])\s*\+", core)
    if m:
        yield "plus to minus", core[: m.start()] + "-" + core[m.end() :]
    swapped = core.translate(str.maketrans({"(": "[", "[": "(", ")": "]", "]": ")"}))
    # An interval's brackets matter; three or more items are a vector either way.
    if swapped != core and re.fullmatch(r"\$?[\[(][^()\[\],]*,[^()\[\],]*[\])]\$?", core):
        yield "brackets swapped", swapped
    if not top_level_commas(core) and not re.search(r"[=<>]|\\text|\\in\b", core):
        yield "plus one", f"{core.strip('$')} + 1"
        if not is_zero(core):
            yield "doubled", f"2\\left({core.strip('$')}\\right)"
    # A number word after a plain number changes it (they were once dropped as nouns).
    number = re.fullmatch(r"\$?(-?\d+(?:\.\d+)?)\$?", core)
    if number and float(number.group(1)) not in (0.0, 1.0, -1.0):
        for word in ("million", "squared", "thirds"):
            yield f"'{word}' appended", f"{number.group(1)} {word}"
    m = re.search(r"\\text\{\s*([a-zA-Z])", core)
    if m and len(core) > 12:
        letter = "b" if m.group(1).lower() == "a" else "a"
        yield "letter changed", core[: m.start(1)] + letter + core[m.end(1) :]


def print_perturbations(golds: dict[str, list[str]], cas: bool) -> None:
    """Perturbed golds: judged equal must be zero."""
    pairs, labels = [], []
    for answers in golds.values():
        for g in answers:
            for rule, text in perturbations(g):
                pairs.append((g, text))
                labels.append(rule)
    judged = equivalent_batch(pairs, cas=cas)
    counts = {v: sum(1 for j in judged if j.verdict is v) for v in Verdict}
    print(f"\nPerturbed golds (must never be equal): {len(pairs)} pairs, "
          f"equal {counts[Verdict.EQUAL]}, not equal {counts[Verdict.NOT_EQUAL]}, unknown {counts[Verdict.UNKNOWN]}")
    for (a, b), j, label in zip(pairs, judged, labels):
        if j.verdict is Verdict.EQUAL:
            print(f"  EQUAL [{label}] {a!r} vs {b!r}: {j.method.value} {j.detail}")


def print_alternatives(golds: dict[str, list[str]], data: Path) -> None:
    """The alternatives given for one problem (Minerva, OlympiadBench) compared with each other."""
    pairs = []
    for name in ("minerva", "olympiad_bench"):
        path = data / f"{name}.json"
        if not path.exists():
            continue
        for row in json.loads(path.read_text()):
            alts = [str(a) for a in row["answer"]] if isinstance(row["answer"], list) else []
            pairs.extend((alts[0], other) for other in alts[1:])
    if not pairs:
        return
    judged = equivalent_batch(pairs, cas=False)
    counts = {v: sum(1 for j in judged if j.verdict is v) for v in Verdict}
    print(f"\nAlternative golds of one problem against each other: {len(pairs)} pairs, "
          f"equal {counts[Verdict.EQUAL]}, not equal {counts[Verdict.NOT_EQUAL]}, unknown {counts[Verdict.UNKNOWN]}")
    for (a, b), j in zip(pairs, judged):
        if j.verdict is not Verdict.EQUAL:
            print(f"  {j.verdict.value}: {a!r} vs {b!r} ({j.detail})")


def main() -> int:
    # Imported here: the tests load this file by its path, without benches/ on sys.path.
    from _common import at_least

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "benchmarks")
    parser.add_argument("--no-cas", action="store_true", help="report native results only")
    parser.add_argument("--show", type=at_least(0), default=40, help="undecided golds to list")
    parser.add_argument("--train", action="store_true",
                        help="the answers of the training rows in ../shared/data/train instead of the benchmarks")
    args = parser.parse_args()
    if args.train:
        args.data = args.data.parent / "train"
    golds = load_golds(args.data, TRAINING_SETS if args.train else BENCHMARKS)
    if not golds:
        print(f"no benchmark data under {args.data}", file=sys.stderr)
        return 1
    header = f"{'benchmark':<15}{'golds':>6}{'self =':>8}{'rewrites':>9}{'rewr. =':>9}{'native':>9}{'sympy':>7}{'unknown':>8}{'not =':>7}"
    print(header)
    print("-" * len(header))
    undecided: list[tuple[str, str, str, str]] = []
    totals = [0] * 8
    started = time.perf_counter()
    for name, answers in golds.items():
        pairs = [(g, g) for g in answers]
        labels = ["self"] * len(answers)
        for g in answers:
            for rule, text in rewritings(g):
                pairs.append((g, text))
                labels.append(rule)
        native = equivalent_batch(pairs, cas=False)
        final = list(native)
        for i, j in enumerate(native):
            if j.verdict is Verdict.UNKNOWN and not args.no_cas:
                final[i] = equivalent(*pairs[i])
        self_equal = sum(1 for j, l in zip(final, labels) if l == "self" and j.verdict is Verdict.EQUAL)
        rewrites = [(p, j, n, l) for p, j, n, l in zip(pairs, final, native, labels) if l != "self"]
        rewr_equal = sum(1 for _, j, _, _ in rewrites if j.verdict is Verdict.EQUAL)
        native_decided = sum(1 for j in native if j.verdict is not Verdict.UNKNOWN)
        by_sympy = sum(1 for j in final if j.method is Method.SYMPY and j.verdict is not Verdict.UNKNOWN)
        unknown = sum(1 for j in final if j.verdict is Verdict.UNKNOWN)
        not_equal = sum(1 for j in final if j.verdict is Verdict.NOT_EQUAL)
        row = [len(answers), self_equal, len(rewrites), rewr_equal, native_decided, by_sympy, unknown, not_equal]
        totals = [t + r for t, r in zip(totals, row)]
        print(
            f"{name:<15}{row[0]:>6}{row[1]:>8}{row[2]:>9}{row[3]:>9}"
            f"{100 * native_decided / len(pairs):>8.2f}%{by_sympy:>7}{unknown:>8}{not_equal:>7}"
        )
        for (pair, j, n, label) in zip(pairs, final, native, labels):
            if n.verdict is not Verdict.EQUAL:
                undecided.append((name, label, f"{pair[0]!r} vs {pair[1]!r}", f"native {n.detail} -> {j.verdict.value} ({j.method.value}: {j.detail})"))
    print("-" * len(header))
    all_pairs = totals[0] + totals[2]
    print(
        f"{'all':<15}{totals[0]:>6}{totals[1]:>8}{totals[2]:>9}{totals[3]:>9}"
        f"{100 * totals[4] / all_pairs:>8.2f}%{totals[5]:>7}{totals[6]:>8}{totals[7]:>7}"
    )
    print(f"\n{all_pairs} comparisons in {time.perf_counter() - started:.1f} s (including sympy)")
    print_perturbations(golds, cas=not args.no_cas)
    print_alternatives(golds, args.data)
    print_boxed_with_problems(args.data, TRAINING_SETS if args.train else BENCHMARKS)
    print(f"\nNot decided Equal natively ({len(undecided)}):")
    for name, label, pair, outcome in undecided[: args.show]:
        print(f"  [{name} / {label}] {pair}\n      {outcome}")
    if len(undecided) > args.show:
        print(f"  ... and {len(undecided) - args.show} more (--show N)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
