#!/usr/bin/env python3
"""Agreement with the published test suite of HuggingFace math-verify.

math-verify ships its regression tests in its source distribution: (gold, prediction, expected)
cases collected from model outputs. This script downloads that sdist from PyPI (the version
installed here, kept in ``--cache``), reads the cases from the tests' ``pytest.mark.parametrize``
tables, and judges each with apr-fast. Nothing of it is copied into this repository.

Each side is read the way apr-fast reads a response: its final answer (a box, "the answer is",
an "Answer:" line) when it has one, else the whole string as an answer. math-verify instead
takes the last LaTeX or number anywhere in free text ("Therefore x \\geq 5 is the solution."),
so the cases whose prediction is prose without a final-answer marker are counted apart: they
measure extraction from unmarked prose, which rollouts asked to box their answer do not need.

    .venv/bin/python benches/published_suites.py [--show 40] [--cas-timeout 5]
"""
from __future__ import annotations

import argparse
import importlib
import inspect
import subprocess
import sys
import tarfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from _common import at_least


@dataclass(frozen=True)
class Case:
    suite: str
    gold: str
    pred: str
    expected: bool


def fetch_tests(cache: Path) -> Path:
    """The ``tests`` package of the installed math-verify's sdist, extracted under ``cache``."""
    from importlib.metadata import version

    v = version("math-verify")
    root = cache / f"math_verify-{v}"
    if not (root / "tests").is_dir():
        cache.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "download", f"math-verify=={v}", "--no-deps",
                        "--no-binary", ":all:", "-d", str(cache), "-q"], check=True)
        archive = cache / f"math_verify-{v}.tar.gz"
        with tarfile.open(archive) as tar:
            members = [m for m in tar.getmembers() if m.name.startswith(f"math_verify-{v}/tests/")]
            tar.extractall(cache, members=members, filter="data")
    (root / "tests" / "__init__.py").touch()
    return root


def collect(root: Path) -> list[Case]:
    """Every parametrized (gold, pred, expected) case of the test modules."""
    sys.path.insert(0, str(root))
    cases = []
    for path in sorted((root / "tests").glob("test_*.py")):
        try:
            module = importlib.import_module(f"tests.{path.stem}")
        except Exception as e:  # a module needing what is not installed here
            print(f"skipped {path.name}: {e}", file=sys.stderr)
            continue
        for name, fn in inspect.getmembers(module, inspect.isfunction):
            for mark in getattr(fn, "pytestmark", []):
                if mark.name != "parametrize":
                    continue
                names = mark.args[0]
                names = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
                for values in mark.args[1]:
                    row = dict(zip(names, getattr(values, "values", values)))
                    expected = row.get("expected", row.get("result"))
                    if "gold" in row and "pred" in row and expected is not None:
                        cases.append(Case(f"{path.stem}.{name}", str(row["gold"]), str(row["pred"]), bool(expected)))
    return cases


def answer_of(text: str) -> tuple[str, Optional[str]]:
    """The final answer of ``text`` and the rule that found it (None: the whole string)."""
    import apr_fast
    from apr_fast.ground_truth import ground_truth_alternatives

    final = apr_fast.extract_final(text)
    if final is not None:
        return final.text, final.rule
    alternatives = ground_truth_alternatives(text)
    return (alternatives[0] if alternatives else ""), None


def is_unmarked_prose(text: str, rule: Optional[str]) -> bool:
    """A prediction in words with no final-answer marker (math-verify reads its last math)."""
    return rule is None and sum(w.isalpha() and len(w) > 2 for w in text.replace("$", " ").split()) >= 2


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "apr-fast" / "published-suites")
    parser.add_argument("--show", type=at_least(0), default=40, help="print this many disagreements")
    parser.add_argument("--cas-timeout", type=float, default=5.0)
    args = parser.parse_args(argv)
    try:
        root = fetch_tests(args.cache)
    except Exception as e:
        print(f"could not get math-verify's tests ({e}); install the bench extra and reach PyPI", file=sys.stderr)
        return 2
    import apr_fast

    cases = collect(root)
    if not cases:
        print("no cases found", file=sys.stderr)
        return 2
    rows: list[tuple[Case, Any, str, str, bool]] = []
    for case in cases:
        gold, _ = answer_of(case.gold)
        pred, rule = answer_of(case.pred)
        judgement = apr_fast.equivalent(pred, gold, cas=True, cas_timeout=args.cas_timeout)
        rows.append((case, judgement, gold, pred, is_unmarked_prose(case.pred, rule)))

    def agreement(selected: list[tuple[Case, Any, str, str, bool]]) -> str:
        agree = sum(j.is_equal == c.expected for c, j, *_ in selected)
        return f"{agree}/{len(selected)} ({agree / max(len(selected), 1):.1%})"

    answers = [r for r in rows if not r[4]]
    prose = [r for r in rows if r[4]]
    print(f"math-verify {root.name.split('-')[-1]} published tests: {len(rows)} cases")
    print(f"- answers and marked final answers: agreement {agreement(answers)}")
    print(f"- predictions in unmarked prose (extraction, not equivalence): agreement {agreement(prose)}")
    wrong = [r for r in answers if r[1].is_equal != r[0].expected]
    false_equal = [r for r in wrong if r[1].is_equal]
    print(f"- disagreements on answers: {len(wrong)}; apr-fast says equal where math-verify's test "
          f"says not: {len(false_equal)}")
    print("  by verdict:", dict(Counter(f"{j.verdict.value}/{j.detail}" for _, j, *_ in wrong).most_common()))
    for case, j, gold, pred, _ in wrong[: args.show]:
        print(f"  [{case.suite}] expected {'equal' if case.expected else 'not equal'}, got "
              f"{j.verdict.value} ({j.method.value}: {j.detail}) | {gold[:60]!r} | {pred[:60]!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
