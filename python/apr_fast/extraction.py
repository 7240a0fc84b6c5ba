"""Answers in text: the final answer of a response and the answer values a sentence states.

``extract_final`` finds the answer a response ends with (the last ``\\boxed{}`` after
``</think>``, else in the thinking, else "the answer is X" phrases and GSM8K's ``#### X``). ``extract_candidates``
returns every value one sentence states -- the candidates A(s) that the anchor search compares
with the reference answer. Spans are character offsets (``text[c.start:c.end]``), with byte
offsets beside them. Whether two answers are *equal* is not decided here.
"""
from typing import Literal

from apr_fast._core import (
    CANDIDATE_KINDS,
    FINAL_RULES,
    Candidate,
    FinalAnswer,
    extract_candidates,
    extract_candidates_batch,
    extract_final,
    extract_final_batch,
    problem_values,
)

#: The rule that found a final answer (``FinalAnswer.rule``).
FinalRule = Literal[
    "boxed_after_think",
    "boxed_in_thinking",
    "final_answer_heading",
    "answer_line",
    "final_answer_phrase",
    "answer_phrase",
    "hash_marker",
    "answer_tag",
    "bare_after_think",
]

#: Where a candidate came from or what shape it has (``Candidate.kind``).
CandidateKind = Literal[
    "boxed",
    "math_span",
    "equation",
    "equation_side",
    "list",
    "tuple",
    "interval",
    "set",
    "bare_expression",
    "number",
    "number_word",
    "choice",
    "text",
    "worded_expression",
]

__all__ = [
    "CANDIDATE_KINDS",
    "FINAL_RULES",
    "Candidate",
    "CandidateKind",
    "FinalAnswer",
    "FinalRule",
    "extract_candidates",
    "extract_candidates_batch",
    "extract_final",
    "extract_final_batch",
    "problem_values",
]
