"""Conclusion and verification cues per sentence (the APR context rule's inputs).

A sentence qualifies for the anchor when it holds a conclusion cue or the next sentence holds a
verification cue. Cues match ASCII case-insensitively on word boundaries (``"so"`` never matches
``"also"``), ``’`` equals ``'``, and a space in a phrase matches any whitespace run; the paper's
lists are the defaults (``PAPER_CONCLUSION_CUES``, ``PAPER_VERIFICATION_CUES``).

``find_cues`` returns objects per sentence; ``segment``/``segment_batch`` return one
``Segmentation`` per text with flat offset and flag arrays, the fast path for rewards.

>>> from apr_fast import find_cues
>>> [(c.sentence.text, [h.cue for h in c.conclusion], [h.cue for h in c.verification])
...  for c in find_cues("So x = 2. Wait, let me check.")]
[('So x = 2. ', ['so'], []), ('Wait, let me check.', [], ['wait', 'let me', 'check'])]
"""
from apr_fast._core import (
    PAPER_CONCLUSION_CUES,
    PAPER_VERIFICATION_CUES,
    CueHit,
    CueMatcher,
    Segmentation,
    SentenceCues,
    find_cues,
    find_cues_batch,
    segment,
    segment_batch,
)

__all__ = [
    "PAPER_CONCLUSION_CUES",
    "PAPER_VERIFICATION_CUES",
    "CueHit",
    "CueMatcher",
    "Segmentation",
    "SentenceCues",
    "find_cues",
    "find_cues_batch",
    "segment",
    "segment_batch",
]
