#!/usr/bin/env python3
"""Prints the Rust table of code points that `tokenizers`' pre-tokenizer regex classes as
letters (\\p{L}) or numbers (\\p{N}) and Unicode 14 does not: the characters assigned in
Unicode 15 and 16, which Oniguruma in `tokenizers` 0.22 knows and `regex-syntax` 0.6.27
(Unicode 14, the class tables of rust/tokens/pretokenize.rs) does not.

Each code point is classed by how the Qwen2 pattern splits it, so the table is what the
native encoder must reproduce, whatever Unicode version `tokenizers` was built with:
    "a" + c   is one piece        iff c is in \\p{L};
    c + "a"   is two pieces       iff c is in \\p{N} (c not a letter).

    .venv/bin/python scripts/unicode_class_additions.py tokenizer.json > table.rs
"""
from __future__ import annotations

import sys
import unicodedata

from tokenizers import Tokenizer


def ranges(points: list[int]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for cp in points:
        if out and out[-1][1] == cp - 1:
            out[-1] = (out[-1][0], cp)
        else:
            out.append((cp, cp))
    return out


def main(path: str) -> int:
    if unicodedata.unidata_version != "14.0.0":
        print(f"needs Python's Unicode 14.0.0 tables (Python 3.11), got {unicodedata.unidata_version}", file=sys.stderr)
        return 2
    split = Tokenizer.from_file(path).pre_tokenizer
    letters: list[int] = []
    numbers: list[int] = []
    for cp in range(0x80, 0x110000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        c = chr(cp)
        category = unicodedata.category(c)
        is_letter = len(split.pre_tokenize_str("a" + c)) == 1
        is_number = not is_letter and len(split.pre_tokenize_str(c + "a")) == 2
        if is_letter != category.startswith("L") and category.startswith("L"):
            print(f"U+{cp:04X} is a letter in Unicode 14 but not for tokenizers", file=sys.stderr)
            return 1
        if is_letter and not category.startswith("L"):
            letters.append(cp)
        if is_number and not category.startswith("N"):
            numbers.append(cp)
    for name, points in (("LETTERS_AFTER_14", letters), ("NUMBERS_AFTER_14", numbers)):
        rs = ranges(points)
        print(f"/// {len(points)} code points in {len(rs)} ranges.")
        print(f"pub(crate) const {name}: &[(u32, u32)] = &[")
        for i in range(0, len(rs), 6):
            print("    " + " ".join(f"(0x{a:04X}, 0x{b:04X})," for a, b in rs[i:i + 6]))
        print("];")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1] if len(sys.argv) > 1 else "examples/data/deepseek-r1-distill-qwen.tokenizer.json"))
