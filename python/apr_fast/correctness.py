"""Whether a response is correct: its final answer against the ground truth (outcome only).

>>> from apr_fast.correctness import is_correct
>>> r = is_correct("<think>...</think> The answer is $\\\\boxed{\\\\dfrac{1}{2}}$.", "0.5")
>>> bool(r), r.final_answer.text, r.method
(True, '\\\\dfrac{1}{2}', 'native_exact')
>>> is_correct("no box here", "3").method
'none'

The final answer comes from :func:`apr_fast.extract_final`; the ground truth may be a str, a
number (AMC's ``142.0``) or a list of accepted alternatives (:func:`ground_truth_alternatives`).
Each alternative is compared with :func:`apr_fast.equivalent` (native, then sympy for what the
native engine leaves undecided). The result says how it was decided; an undecided comparison is
``correct=False`` with ``method`` naming why (``native_undecided``, ``timeout``, ...), never a
silent "not equal". This is the outcome check alone; :class:`apr_fast.APRScorer` gives the same
verdict together with the anchor and the reward.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Sequence

from apr_fast._core import FinalAnswer, check_outcome_batch
from apr_fast.equivalence import (
    DEFAULT_CAS_TIMEOUT,
    Judgement,
    Policy,
    Verdict,
    _check_cas_args,
    _native_judgement,
    _policy_arg,
    equivalent_batch,
)
from apr_fast.ground_truth import _alternatives_rows
from apr_fast.reward import _problems_list
from apr_fast.think_tags import DEFAULT_THINK_TAGS, ThinkTagsArg

__all__ = ["Correctness", "is_correct", "is_correct_batch"]


@dataclass(frozen=True, slots=True)
class Correctness:
    """The outcome of one response; truthy when correct.

    ``final_answer``: what was extracted (None: no final answer). ``matched``: the ground-truth
    alternative it equals (None unless correct). ``judgement``: the comparison that decided (the
    equal one; else the first undecided one; else the first not-equal one; None without an
    answer or without alternatives). ``problem_echo``: the answer equals the ground truth but
    restates the problem's own expression (boxing the expression to simplify), so it is not
    correct; only with the problem text and ``reject_problem_echo`` (the reward's rule).
    """

    correct: bool
    final_answer: Optional[FinalAnswer]
    matched: Optional[str]
    judgement: Optional[Judgement]
    problem_echo: bool = False

    def __bool__(self) -> bool:
        return self.correct

    @property
    def method(self) -> str:
        """How it was decided: a :class:`apr_fast.Method` value, or ``none`` (nothing to compare)."""
        return self.judgement.method.value if self.judgement is not None else "none"

    @property
    def decided(self) -> bool:
        """False when the only comparisons left were undecided (a timeout, a CAS error, ...)."""
        return self.judgement is None or self.judgement.verdict is not Verdict.UNKNOWN


def _decide(final: Optional[FinalAnswer], alternatives: Sequence[str], judgements: list[Judgement]) -> Correctness:
    for alt, j in zip(alternatives, judgements):
        if j.verdict is Verdict.EQUAL:
            return Correctness(True, final, alt, j)
    undecided = [j for j in judgements if j.verdict is Verdict.UNKNOWN]
    first = undecided[0] if undecided else (judgements[0] if judgements else None)
    return Correctness(False, final, None, first)


def is_correct_batch(
    responses: Sequence[str],
    ground_truths: Sequence[Any],
    *,
    problems: Optional[Sequence[Optional[str]]] = None,
    policy: Optional[Policy] = None,
    cas: bool = True,
    cas_timeout: float = DEFAULT_CAS_TIMEOUT,
    threads: Optional[int] = None,
    reject_problem_echo: bool = True,
    require_answer_after_think: bool = False,
    think_tags: ThinkTagsArg = DEFAULT_THINK_TAGS,
) -> list[Correctness]:
    """:func:`is_correct` for many responses: extraction and the native comparisons run as one
    parallel call on ``threads`` workers; sympy sees only what they leave undecided.
    ``problems`` (one str or None per response) drops ground-truth alternatives that the problem
    shows boxed itself (:func:`~apr_fast.ground_truth.ground_truth_alternatives`) and, with
    ``reject_problem_echo``, does not count an echo of the problem's expression as correct.
    ``require_answer_after_think`` counts only a final answer after ``</think>`` (a strict
    format: an answer only inside the thinking is no final answer). ``think_tags`` (opening,
    closing), or a preset's name such as ``"harmony"`` (:mod:`apr_fast.think_tags`), name other
    tags than ``<think>``/``</think>``, as :class:`~apr_fast.reward.RewardConfig` does: the
    closing one is then what ``</think>`` means here; ``"auto"`` reads each response with the
    tags of the family it is written in."""
    if isinstance(responses, (str, bytes)) or not isinstance(responses, (list, tuple)):
        raise TypeError(f"responses must be a list of str, got {type(responses).__name__}")
    if isinstance(ground_truths, (str, bytes)) or not hasattr(ground_truths, "__len__"):
        raise TypeError("ground_truths must be a sequence with one ground truth per response")
    if len(ground_truths) != len(responses):
        raise ValueError(f"got {len(ground_truths)} ground truths for {len(responses)} responses")
    for name, flag in (("reject_problem_echo", reject_problem_echo), ("require_answer_after_think", require_answer_after_think)):
        if not isinstance(flag, bool):
            raise TypeError(f"{name} must be bool, got {type(flag).__name__}")
    policy = _policy_arg(policy)
    _check_cas_args(cas, cas_timeout)
    if threads is not None and (not isinstance(threads, int) or isinstance(threads, bool)):
        raise TypeError(f"threads must be int or None, got {type(threads).__name__}")
    problem_list = _problems_list(problems, len(responses))
    alternatives, errors = _alternatives_rows(ground_truths, problem_list)
    if errors:  # name the item: a batch may hold thousands
        i = min(errors)
        raise type(errors[i])(f"ground_truths[{i}]: {errors[i]}")
    # Rows come back as finished Correctness objects; the ones with an undecided comparison
    # also come back with their judgements, for the CAS.
    results, undecided = check_outcome_batch(list(responses), alternatives, problem_list, *policy._native(),
                                             reject_problem_echo, require_answer_after_think,
                                             think_tags, threads, Correctness, _native_judgement)
    if not cas:
        return results
    for i, final, native, echo in undecided:
        alts = alternatives[i]
        judgements = [_native_judgement(*j) for j in native]
        # Only the undecided comparisons go to sympy (equivalent_batch re-runs them natively
        # first, then sends what a CAS can settle).
        pairs = [(final.text, a) for a, j in zip(alts, judgements) if j.verdict is Verdict.UNKNOWN]
        settled = iter(equivalent_batch(pairs, policy=policy, cas=True, cas_timeout=cas_timeout, threads=1))
        judgements = [next(settled) if j.verdict is Verdict.UNKNOWN else j for j in judgements]
        result = _decide(final, alts, judgements)
        if result.correct and echo:
            result = Correctness(False, final, None, result.judgement, True)
        results[i] = result
    return results


def is_correct(
    response: str,
    ground_truth: Any,
    *,
    problem: Optional[str] = None,
    policy: Optional[Policy] = None,
    cas: bool = True,
    cas_timeout: float = DEFAULT_CAS_TIMEOUT,
    reject_problem_echo: bool = True,
    require_answer_after_think: bool = False,
    think_tags: ThinkTagsArg = DEFAULT_THINK_TAGS,
) -> Correctness:
    """Whether ``response``'s final answer equals ``ground_truth`` (any of its alternatives;
    with ``problem``, not those the problem shows boxed itself, and not an echo of the problem's
    expression: see :func:`is_correct_batch`)."""
    if not isinstance(response, str):
        raise TypeError(f"response must be str, got {type(response).__name__}")
    return is_correct_batch([response], [ground_truth], problems=[problem], policy=policy, cas=cas,
                            cas_timeout=cas_timeout, reject_problem_echo=reject_problem_echo,
                            require_answer_after_think=require_answer_after_think, think_tags=think_tags)[0]
