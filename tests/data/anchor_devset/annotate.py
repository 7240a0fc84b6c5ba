"""Tools for annotators of the anchor development and held-out sets (see RULES.md).

It shows a trace for reading and checks an annotation file's offsets. It never shows what any
anchor mode predicts, nor any other annotation, so that annotators stay independent.

    python tests/data/anchor_devset/annotate.py list D            # the ids of batch D
    python tests/data/anchor_devset/annotate.py show dev093       # problem, final answer, thinking
    python tests/data/anchor_devset/annotate.py find dev093 '17'  # offsets of a string in the thinking
    python tests/data/anchor_devset/annotate.py check annotations_D.jsonl

`show` prints the thinking one line per row, each prefixed by the `str` index of its first
character, so that `answer_char` is that index plus the column of the value.
"""
from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TRACES = HERE.parents[2] / ".." / "shared" / "data" / "traces" / "traces.jsonl.gz"
SELECTIONS = ("selection.jsonl", "holdout_selection.jsonl")
REQUIRED = ("id", "source_repo", "source_path", "index", "final_answer", "answer_char", "quote",
            "quote_start", "tentative", "confidence", "excluded", "note")
# Annotation round -> (development batches, held-out batches). Each batch has its
# `annotations_<batch>.jsonl`; from round 2 on also an `agreement_<batch>.jsonl`, its annotator's
# second reading of three traces of the other batch of the same set.
ROUNDS = {
    1: (("A", "B", "C"), ("H1", "H2")),
    2: (("D", "E"), ("H3", "H4")),
    3: (("F", "G"), ("H5", "H6")),
    4: (("K", "L"), ("H7", "H8")),
    5: ((), ("H9", "H10", "H11", "H12")),  # all held-out: a clean check after the 17th stop
    6: (("M", "N", "P", "Q"), ()),  # all dev: new traces to find faults in, round 5 unread
    7: (("R", "S", "T", "U"), ()),  # all dev again (19th stop); round 5 still unread
    8: (("V", "W", "X", "Y"), ()),  # all dev again (20th stop); round 5 still unread
    9: ((), ("H13", "H14", "H15", "H16")),  # all held-out: a second clean check (21st stop)
    10: (("Z1", "Z2", "Z3", "Z4"), ()),  # all dev, long traces like round 9's; round 9 unread
    11: (("J1", "J2", "J3", "J4", "J5", "J6"), ()),  # all dev: every long trace left (22nd stop)
}


def batches(held_out: bool, rounds: tuple[int, ...] = tuple(ROUNDS)) -> list[str]:
    """The batches of the development (or held-out) set in `rounds`, in round order."""
    return [b for r in rounds for b in ROUNDS[r][held_out]]


def read_jsonl(name: str) -> list[dict]:
    """The records of a file of this folder."""
    return [json.loads(line) for line in (HERE / name).open(encoding="utf-8")]


def selection() -> dict[str, dict]:
    out: dict[str, dict] = {}
    for name in SELECTIONS:
        for r in read_jsonl(name):
            out.setdefault(r["id"], r)
    return out


def key(r: dict) -> tuple[str, str, int]:
    return (r["source_repo"], r["source_path"], r["index"])


def traces_of(entries: list[dict]) -> dict[tuple[str, str, int], dict]:
    """The traces of `entries` by key, read in one pass over the traces file."""
    wanted = {key(e) for e in entries}
    found = {}
    with gzip.open(TRACES, "rt", encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            if key(r) in wanted:
                found[key(r)] = r
    missing = wanted - found.keys()
    if missing:
        sys.exit(f"traces {sorted(missing)} not found in {TRACES}")
    return found


def trace_of(entry: dict) -> dict:
    return traces_of([entry])[key(entry)]


def show(trace_id: str) -> None:
    entry = selection()[trace_id]
    r = trace_of(entry)
    print(f"# {trace_id} ({entry['model']}, {entry['dataset']})")
    print(f"## problem\n{r['problem']}\n")
    print(f"## after </think>\n{r['after_think'] or ''}\n")
    print("## thinking (each row: index of its first character | text)")
    thinking, at = r["thinking"], 0
    for line in thinking.split("\n"):
        print(f"{at:6d} | {line}")
        at += len(line) + 1


def find(trace_id: str, needle: str) -> None:
    thinking = trace_of(selection()[trace_id])["thinking"]
    at = thinking.find(needle)
    while at >= 0:
        print(f"{at:6d}: {thinking[max(0, at - 40):at + len(needle) + 40]!r}")
        at = thinking.find(needle, at + 1)


def check(path: str) -> int:
    sel = selection()
    records = [json.loads(line) for line in Path(path).open(encoding="utf-8")]
    traces = traces_of([sel[a["id"]] for a in records if a.get("id") in sel])
    bad = 0
    for n, a in enumerate(records, 1):
        missing = [k for k in REQUIRED if k not in a]
        if missing or a["id"] not in sel:
            print(f"line {n}: missing {missing} or unknown id {a.get('id')!r}")
            bad += 1
            continue
        if a["answer_char"] is None:
            continue
        thinking = traces[key(sel[a["id"]])]["thinking"]
        qs, quote, ac = a["quote_start"], a["quote"], a["answer_char"]
        if thinking[qs:qs + len(quote)] != quote:
            print(f"{a['id']}: quote is not thinking[{qs}:{qs + len(quote)}] = {thinking[qs:qs + len(quote)]!r}")
            bad += 1
        elif not qs <= ac < qs + len(quote):
            print(f"{a['id']}: answer_char {ac} lies outside the quote [{qs}, {qs + len(quote)})")
            bad += 1
    print(f"{path}: {'ok' if not bad else f'{bad} problem(s)'}")
    return 1 if bad else 0


def main(argv: list[str]) -> int:
    if len(argv) >= 2 and argv[0] == "list":
        for i, r in selection().items():
            if r["batch"] == argv[1]:
                print(i, r["model"], r["dataset"], r["thinking_chars"])
        return 0
    if len(argv) == 2 and argv[0] == "show":
        show(argv[1])
        return 0
    if len(argv) == 3 and argv[0] == "find":
        find(argv[1], argv[2])
        return 0
    if len(argv) == 2 and argv[0] == "check":
        return check(argv[1])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
