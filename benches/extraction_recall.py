"""How well answer extraction works on real reasoning traces (../shared/data/traces).

Final answers: for every response with a ``\\boxed``, whether ``extract_final`` finds an answer
(by rule) and whether it agrees with an independent reading of the last box (a plain
brace-counting parser written here). Responses without a box: how many still get an answer
from a phrase.

Candidates: for responses whose final answer is an integer N, the thinking is cut into
sentences (a simple splitter written here, independent of the library) and every sentence in
which N appears as a standalone token (an independent regex judge: not part of a larger
expression) is a test case: recall is the share of those sentences whose candidates include N
(a candidate whose text is N once spaces and thousands separators are removed, or a number
word for N). Precision check: the share of candidates that sit inside a larger expression
(an arithmetic operator right outside the candidate's span), which should be 0.

Non-integer answers: sentences that hold the final answer verbatim (spaces aside) as an
expression of its own, and whether a candidate is that expression.

Usage: python benches/extraction_recall.py [--traces PATH] [--show N] [--seed S]
"""
from __future__ import annotations

import argparse
import collections
import gzip
import json
import random
import re
import time
import typing
from pathlib import Path

import apr_fast

from _common import at_least

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_TRACES = ROOT.parent / "shared" / "data" / "traces" / "traces.jsonl.gz"


def last_box_reference(response: str) -> str | None:
    """The content of the last balanced ``\\boxed{`` after ``</think>`` (else anywhere)."""
    cut = response.find("</think>")
    for region in ([response[cut + 8 :]] if cut >= 0 else []) + [response[: cut if cut >= 0 else None]]:
        found = None
        for m in re.finditer(r"\\(?:boxed|fbox)\s*\{", region):
            depth, i = 1, m.end()
            while i < len(region) and depth:
                if region[i] == "\\":
                    i += 2
                    continue
                depth += {"{": 1, "}": -1}.get(region[i], 0)
                i += 1
            content = region[m.end() : i - 1].strip()
            if depth == 0 and content:
                found = content
        if found is not None:
            return found
    return None


def split_sentences(text: str) -> list[str]:
    """Lines, then ``. ! ?`` before white space outside ``$..$``, ``\\(..\\)``, ``\\[..\\]``."""
    sentences = []
    for line in text.split("\n"):
        start, i, math = 0, 0, None
        while i < len(line):
            two = line[i : i + 2]
            if math:
                if line.startswith(math, i):
                    i += len(math)
                    math = None
                    continue
                i += 2 if line[i] == "\\" else 1
                continue
            if two in ("\\(", "\\["):
                math = "\\)" if two == "\\(" else "\\]"
                i += 2
                continue
            if line[i] == "$":
                math = "$$" if two == "$$" else "$"
                i += len(math)
                continue
            if line[i] in ".!?" and (i + 1 == len(line) or line[i + 1].isspace()):
                sentences.append(line[start : i + 1])
                start = i + 1
            i += 1
        sentences.append(line[start:])
    return [s for s in sentences if s.strip()]


OPERATOR_CHARS = set("+-*/^_×÷·⋅±∓√")
# Words that make the number after them a label rather than a value ("Case 2", "equation 4").
LABEL_BEFORE = re.compile(
    r"(?i)\b(?:case|subcase|step|part|problem|question|equation|eq|method|approach|example|figure|"
    r"line|row|column|lemma|theorem|claim|condition|property|rule|option|choice)\s*$"
)
# A function or command whose argument the number would be ("\log 2", "sqrt 2", "mod 7").
IMPLICIT_PRODUCT = re.compile(r" *(?:\\[A-Za-z]|[A-Za-z](?![A-Za-z'’])|[\[(])")
ARGUMENT_OF = re.compile(r"(?:\\[A-Za-z]+|\b(?:log|ln|sin|cos|tan|sqrt|mod|gcd|lcm))(?:_\{[^}]*\}|_\w)?\s*$")


def touches_operator(text: str, start: int, end: int) -> bool:
    """Whether an arithmetic operator sits right outside ``text[start:end]`` (spaces aside)."""
    before = text[:start].rstrip(" ")
    after = text[end:].lstrip(" ")
    # Markdown: "**Question:** 44x", "- item" at the start of a line.
    before = before.removesuffix("**")
    after = after.removeprefix("**")
    if re.fullmatch(r"\s*[-*]", before):
        before = ""
    if re.search(r"\\(?:cdot|times|div|pm)$", before) or re.match(r"\\(?:cdot|times|div|pm)(?![A-Za-z])", after):
        return True
    if after.startswith("->"):
        after = ""  # an arrow between steps, not a minus
    prev = before[-1:] if before else ""
    nxt = after[:1]
    # A dash before a word is prose punctuation ("5 - wait"), not a minus.
    dash_is_prose = nxt in "-–" and re.match(r"[-–]\s+[A-Za-z]{2}", after) is not None
    return prev in OPERATOR_CHARS and prev != "" or (nxt in OPERATOR_CHARS and nxt != "" and not dash_is_prose)


def standalone_positions(sentence: str, number: str) -> list[int]:
    """Where ``number`` occurs as a value of its own: between white space, ``=``, ``$``, bold
    ``**``, math delimiters or sentence punctuation; not next to an operator; not a label
    ("Case 2") or a function's argument ("\\log 2")."""
    found = []
    pattern = (
        r"(?:(?<=^)|(?<=[\s=$*:(])|(?<=\\\(|\\\[))"
        + re.escape(number)
        + r"(?=$|[\s=$*;:!?]|[.,](?!\d)|\\\)|\\\])"
    )
    for m in re.finditer(pattern, sentence):
        before = sentence[: m.start()]
        if before.endswith("(") and sentence[m.end() : m.end() + 1] != ")":
            continue  # "(2, 3)", "(5 +": part of a tuple or an expression
        if LABEL_BEFORE.search(before) or ARGUMENT_OF.search(before):
            continue
        if IMPLICIT_PRODUCT.match(sentence, m.end()):
            continue  # "2 \\log 2", "196 T", "2 [a + b]": a coefficient
        if not touches_operator(sentence, m.start(), m.end()):
            found.append(m.start())
    return found


def candidate_says(candidate: apr_fast.Candidate, number: str) -> bool:
    """Whether the candidate is ``number`` itself, up to spaces, thousands separators and a
    degree sign (an equivalence engine strips those; this check must not need one)."""
    compact = re.sub(r"[\s,]|\{,\}|\\,|°|\^\\circ|\^\{\\circ\}", "", candidate.text)
    return compact.lstrip("+") == number


T = typing.TypeVar("T")


def best_time(call: typing.Callable[[], T], runs: int = 3) -> tuple[T, float]:
    """The result of ``call`` and its least CPU time over ``runs`` runs. CPU time of this
    thread, not wall time: the machine is shared, and with ``threads=1`` the batch runs on
    the calling thread."""
    best, result = float("inf"), None
    for _ in range(runs):
        t0 = time.thread_time()
        result = call()
        best = min(best, time.thread_time() - t0)
    return typing.cast(T, result), best


def final_answers(rows: list[dict], show: int, rng: random.Random) -> None:
    responses = [r["completion"] for r in rows]
    finals, elapsed = best_time(lambda: apr_fast.extract_final_batch(responses, threads=1))
    with_box = [i for i, r in enumerate(responses) if "\\boxed" in r or "\\fbox" in r]
    found_by_rule = collections.Counter(finals[i].rule for i in with_box if finals[i] is not None)
    missing = [i for i in with_box if finals[i] is None]
    disagree, grouped = [], 0
    for i in with_box:
        reference = last_box_reference(responses[i])
        got = finals[i]
        if reference is None or got is None or got.text == reference or not got.rule.startswith("boxed"):
            continue
        if got.text.endswith(", " + reference):
            grouped += 1  # several boxes in a row: the reference reads only the last one
        else:
            disagree.append((i, reference, got.text))
    print("== final answers ==")
    print(f"responses: {len(responses)}; best of 3: {elapsed * 1e3:.1f} ms CPU on 1 thread "
          f"({elapsed / len(responses) * 1e6:.1f} us per response, "
          f"{sum(map(len, responses)) / elapsed / 1e6:.1f} MB/s)")
    print(f"with a \\boxed: {len(with_box)}; answer found: {len(with_box) - len(missing)} "
          f"by rule {dict(found_by_rule)}; none: {len(missing)}")
    print(f"boxes in a row joined into one answer: {grouped}; other differences from the "
          f"independent last-box reading: {len(disagree)}")
    for i, reference, got in disagree[:show]:
        print(f"   reference {reference!r:.80}  extracted {got!r:.80}")
    for i in missing[:show]:
        tail = responses[i][responses[i].rfind("\\boxed") - 40 :][:160]
        print(f"   no answer: ...{tail!r}")
    no_box = [i for i in range(len(responses)) if i not in set(with_box)]
    by_phrase = collections.Counter(finals[i].rule for i in no_box if finals[i] is not None)
    print(f"without a box: {len(no_box)}; answer from a phrase: {sum(by_phrase.values())} {dict(by_phrase)}")
    for i in rng.sample([i for i in no_box if finals[i] is not None], min(show, sum(by_phrase.values()))):
        f = finals[i]
        print(f"   {f.rule}: {f.text!r:.60}  from ...{responses[i][max(0, f.start - 60) : f.end + 10]!r}")


def candidate_recall(rows: list[dict], show: int, rng: random.Random) -> None:
    cases: list[tuple[str, str]] = []
    sentences_all: list[str] = []
    for r in rows:
        final = apr_fast.extract_final(r["completion"])
        if final is None or not re.fullmatch(r"-?\d+", final.text.strip()):
            continue
        number = final.text.strip()
        for sentence in split_sentences(r["thinking"] or ""):
            sentences_all.append(sentence)
            if standalone_positions(sentence, number):
                cases.append((sentence, number))
    all_candidates, elapsed = best_time(lambda: apr_fast.extract_candidates_batch(sentences_all, threads=1))
    per_case = apr_fast.extract_candidates_batch([s for s, _ in cases], threads=1)
    hits = [any(candidate_says(c, n) for c in cands) for (s, n), cands in zip(cases, per_case)]
    misses = [(s, n, cands) for (s, n), cands, hit in zip(cases, per_case, hits) if not hit]
    total = sum(len(c) for c in all_candidates)
    inside = [
        (s, c)
        for s, cands in zip(sentences_all, all_candidates)
        for c in cands
        if c.kind not in ("boxed",) and touches_operator(s, c.start, c.end)
    ]
    print("== candidates ==")
    print(f"thinking sentences of integer-answer responses: {len(sentences_all)}; "
          f"best of 3: {elapsed * 1e3:.0f} ms CPU on 1 thread, {elapsed / len(sentences_all) * 1e6:.2f} us per sentence "
          f"(mean length {sum(map(len, sentences_all)) / len(sentences_all):.0f} characters)")
    print(f"sentences with the answer as a standalone token: {len(cases)}; "
          f"candidates include it: {sum(hits)} ({sum(hits) / max(1, len(cases)):.2%})")
    print(f"candidates: {total}; inside a larger expression: {len(inside)} ({len(inside) / max(1, total):.3%})")
    for s, n, cands in rng.sample(misses, min(show, len(misses))):
        print(f"   miss {n}: {s.strip()[:200]!r}\n        got {[c.text for c in cands]}")
    for s, c in rng.sample(inside, min(show, len(inside))):
        print(f"   inside: {c.text!r} ({c.kind}) in {s.strip()[:160]!r}")


def compact(text: str) -> str:
    """``text`` without spaces, ``$``, thin spaces and ``\\left``/``\\right``; ``\\dfrac`` as ``\\frac``."""
    return re.sub(r"\s+|\\[,;!]|\\left|\\right|\$", "", text).replace("\\dfrac", "\\frac")


def verbatim_recall(rows: list[dict], show: int, rng: random.Random) -> None:
    """Non-integer answers (fractions, roots, tuples, intervals, expressions): sentences that
    contain the final answer verbatim (spaces aside) as an expression of its own -- nothing
    glued before it, no operator, exponent or bracket after it -- and whether a candidate
    is that expression."""
    cases: list[tuple[str, str]] = []
    for r in rows:
        final = apr_fast.extract_final(r["completion"])
        if final is None:
            continue
        answer = final.text.strip()
        if re.fullmatch(r"-?\d+|[A-Za-z ]+|.{0,2}", answer):
            continue
        body = "\\s*".join(re.escape(ch) for ch in answer.replace(" ", ""))
        pattern = re.compile(body + r"(?!\s*[\w^_}/+\-*{(√×·]|\.\d)")
        for sentence in split_sentences(r["thinking"] or ""):
            for m in pattern.finditer(sentence):
                before = sentence[: m.start()]
                # Glued to a word, a command or an operator, or inside a bracket: part of more.
                glued = re.search(r"(?:\w|\\[A-Za-z]+\s*|[\^_{/\\.+\-*×·√(\[]\s*)$", before)
                if not glued:
                    cases.append((sentence, compact(answer)))
                    break
    found = apr_fast.extract_candidates_batch([s for s, _ in cases])
    def says(candidate: apr_fast.Candidate, answer: str) -> bool:
        # A degree sign is a unit the equivalence engine strips; it is no different value.
        return re.sub(r"°$|\^\\circ$|\^\{\\circ\}$", "", compact(candidate.text)) == answer

    hits = [any(says(c, answer) for c in cands) for (_, answer), cands in zip(cases, found)]
    print("== candidates, non-integer answers ==")
    print(f"sentences with the answer verbatim as an expression of its own: {len(cases)}; "
          f"candidates include it: {sum(hits)} ({sum(hits) / max(1, len(cases)):.2%})")
    misses = [(s, a, cands) for (s, a), cands, hit in zip(cases, found, hits) if not hit]
    for s, a, cands in rng.sample(misses, min(show, len(misses))):
        print(f"   miss {a!r}: {s.strip()[:200]!r}\n        got {[c.text for c in cands][:8]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--traces", type=Path, default=DEFAULT_TRACES)
    parser.add_argument("--show", type=at_least(0), default=10, help="examples of each failure to print")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    with gzip.open(args.traces, "rt") as f:
        rows = [json.loads(line) for line in f]
    rng = random.Random(args.seed)
    final_answers(rows, args.show, rng)
    candidate_recall(rows, args.show, rng)
    verbatim_recall(rows, args.show, rng)


if __name__ == "__main__":
    main()
