"""Texts that exercise a byte-level tokenizer's edges (characters split over tokens, added
tokens, control bytes, Unicode spaces), shared by the decoding and encoding parity tests."""
from __future__ import annotations

TRICKY_TEXTS = [
    "x² + y² = r², so π r² is the area.",
    "因此答案是 $\\boxed{5}$。让我们验证一下。",
    "😀🦀👨‍👩‍👧 ZWJ family, flags 🇫🇷, and 𝔸 (U+1D538).",
    "<think>\nLet me think.</think>\n\nThe answer is $\\frac{1}{2}$.",
    "<｜User｜>What is 2+2?<｜Assistant｜><think>\n4</think>4<｜end▁of▁sentence｜>",
    "tabs\tand\r\nCRLF and trailing spaces   ",
    "e\u0301 (combining) vs é, Å, ﬁ ligature",
    "\x00\x01 control bytes and \u00a0 NBSP and \u200b ZWSP",
    "",
]
