"""Sentence splitting of a model's thinking text.

Sentences tile the text exactly (every character in one sentence, whitespace after a sentence
included in it), so their offsets map back to characters, bytes and tokens. A sentence ends at a
line break or after ``.``/``!``/``?`` followed by whitespace, but never inside math (``$...$``,
``\\(...\\)``, ``$$...$$``, ``\\[...\\]``, ``\\begin{align}...``, ``\\boxed{...}``), a decimal
number, a common abbreviation or a line-start list label. ``SplitOptions`` bounds how far an
unclosed math opener may reach.

>>> from apr_fast import split_sentences
>>> [s.text for s in split_sentences("So $x = 1.5$. Wait, e.g. 3.14? Yes.")]
['So $x = 1.5$. ', 'Wait, e.g. 3.14? ', 'Yes.']
"""
from apr_fast._core import (
    MathRegion,
    Sentence,
    SplitOptions,
    math_regions,
    split_sentences,
    split_sentences_batch,
)

__all__ = [
    "MathRegion",
    "Sentence",
    "SplitOptions",
    "math_regions",
    "split_sentences",
    "split_sentences_batch",
]
