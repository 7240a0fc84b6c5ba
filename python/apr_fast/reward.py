"""The APR reward: rule-based anchor localisation, token-exact tail length, batch scoring.

R = 1[ŷ ≡ y*] · (1 − β · L_AST) for complete responses (with ``</think>``), 0 for incorrect or
truncated ones, where L_AST counts the thinking tokens after the reasoning anchor — the last
token of the first sentence that states the reference answer in a conclusion context.

Three ways to give responses, all scored natively in one call per batch:

* token ids (:meth:`APRScorer.score_token_ids`), the training path: decoded with the policy's
  vocabulary (no re-tokenization), ``</think>`` found by its id, lengths exact in those tokens;
* text with a tokenizer (``APRScorer(tokenizer=...)``): lengths in the tokens that tokenizer
  gives the text (exact when it is the policy's tokenizer and the text round-trips), encoded
  natively for the byte-level BPE tokenizers :mod:`apr_fast.encoding` reproduces;
* text alone: lengths in characters (``length_unit == "chars"``).

When the native engine cannot decide ŷ ≡ y* (a CAS is needed), the rollout goes to the
sympy worker (:mod:`apr_fast.cas`) with a timeout; the result records how it was decided.

When β · L_AST > 1 the paper's formula gives a correct answer a negative reward, below an
incorrect one (0); ``floor`` bounds it (``floor=0.0`` keeps correct >= incorrect).
"""
from __future__ import annotations

import logging
import math
import operator
import warnings
from dataclasses import dataclass, field, fields, replace
from typing import Any, ClassVar, Literal, Mapping, Optional, Sequence, Union

from apr_fast import _core
from apr_fast.cues import PAPER_CONCLUSION_CUES, PAPER_VERIFICATION_CUES
from apr_fast.equivalence import Policy, Verdict, equivalent
from apr_fast.ground_truth import _alternatives_rows
from apr_fast.encoding import native_encoder_for
from apr_fast.think_tags import (
    DEFAULT_THINK_TAGS, ThinkTagsArg, resolve_think_tags, warn_of_other_closing_tags, warn_of_other_families,
)
from apr_fast.tokens import TokenIds, Vocabulary, tokenizer_json, _is_id_matrix, _is_one_id_row, _native_id_list, _native_id_rows, _package_of

__all__ = [
    "ANCHOR_MODES",
    "AnchorOptions",
    "APRScorer",
    "RewardConfig",
    "RolloutScore",
    "STATUS_CODES",
    "apr_reward",
    "score",
]

logger = logging.getLogger(__name__)

#: Anchor-localisation modes: ``"paper"`` is the published rule exactly; ``"default"`` adds
#: the refinements measured on the development set (see README, "How well it finds the anchor").
ANCHOR_MODES: tuple[str, ...] = tuple(_core.ANCHOR_MODES)
#: Status name -> stable numeric code (VeRL logs the code as a metric).
STATUS_CODES: dict[str, int] = {name: code for code, name in enumerate(_core.STATUS_NAMES)}

AnchorMode = Literal["paper", "default"]
Reference = Literal["final_answer", "ground_truth"]
AnchorScope = Literal["all", "rewarded"]


def apr_reward(correct: bool, complete: bool, l_ast: int, beta: float, floor: Optional[float] = None) -> float:
    """R = 1[correct and complete] · (1 − β · L_AST), bounded below by ``floor`` when given."""
    return float(_core.apr_reward(bool(correct), bool(complete), int(l_ast), float(beta), floor))


@dataclass(frozen=True)
class AnchorOptions:
    """The refinements of rule-based anchor localisation, each independent.

    ``context``: ``"paper"`` (a conclusion cue in the sentence or a verification cue in the
    next), ``"loose"`` (a verification cue in the sentence itself also counts) or ``"none"``.
    ``skip_problem_values``: candidates the problem statement states verbatim never anchor.
    ``skip_task_statements``: candidates the problem mentions (verbatim, or as a number
    anywhere in it) never anchor in a sentence that states the task ("So I need to find the
    sum of the divisors of 284."), nor an assignment the problem states, restated (``n = 5``
    from "... is one such sequence, with $n = 5$."), nor a count the problem gives, restated
    with its noun ("We have 12 letters" for "The twelve letters ..."); a narrow form of
    ``skip_problem_values``.
    ``skip_problem_arguments``: candidates the problem mentions never anchor where they are the
    argument of an operation ("factoring 284", "divided by 100", "a power of 2", "so we remove
    284"), a label the problem gives ("the angle labeled 124 degrees") or an operand before an
    operation word ("110 divided by 3").
    ``backtrack``: move the anchor back over the sentences right before it that state the
    same value (a computation line before its "So the answer is ..." restatement). When no
    sentence in context states the value, the thinking's last sentence counts as a match if
    it states it, and the walk back starts there.
    ``backtrack_gap``: how many sentences without the value may lie between two statements
    of it when backtracking.
    ``max_extra_complexity``: candidates more complex than the reference (numeric literals
    plus operations) by more than this are unsimplified expressions on the way to the value,
    not statements of it (None: all count).
    ``number_words``: count "four"-style number words as candidates.
    ``boxed_is_conclusion``: a ``\\boxed{}`` counts as a conclusion cue.
    ``list_items``: count the items of an enumeration one by one. Off, the last item of a
    list of assignments to distinct names still counts when it names a derived quantity
    ("m=40, n=20, p=3, sum=63" states the sum).
    ``inequality_sides``: count the sides of inequalities (``3`` in ``a \\geq 3``), the bounds
    of a range in words (``0`` in "0 to 18", "between 0 and 18") and the value of a comparison
    in words ("greater than 3", "different from 1").
    ``skip_unreduced_forms``: a candidate equal to the reference but less simplified than it
    (a fraction not in lowest terms, the root of an integer with a square factor, a root in a
    denominator: ``8/32`` or ``\\sqrt{117}`` against ``1/4`` or ``3\\sqrt{13}``) is a step
    on the way, not the answer stated.
    ``colon_carries_cue``: a sentence that names the answer and ends with a colon ("So, the
    final answer is:") puts the next sentence in context (the value on the next line).
    ``skip_described_values``: values the sentence describes instead of stating them as a
    result never anchor: the subject of a factorization ("But 8 is 4*2", "write 25 as 5^2"),
    and a value the problem mentions as the subject of a property ("284 is an even number",
    "Since 4 is a power of 2"; this part needs the problem text).
    ``skip_trial_values``: an assignment tried as an input never anchors, nor its value
    (``n=1`` in "So, if n=1, how many sequences are there?", ``y = 0`` in "What if I set y = 0?").
    ``reference_figures``: a candidate equal to a reference that is no plain integer shows one
    of the reference's figures: one of its numerals (``5`` or ``36`` of ``\\frac{5}{36}``), the
    leading digits of its value (``0.25`` for ``\\frac{1}{4}``, ``36`` for ``40_{9}``) or a
    decimal coefficient of one of its fractions (``0.25\\pi`` for ``\\frac{\\pi}{4}``); one
    that writes the value with other numbers computes it (``60/0.7`` for ``600/7``). With the
    response's own final answer as reference, an answer must show all of its numerals
    together (a plain rational p/q: those written, or p and q), or one of the other figures
    (``11\\sqrt{5}+11`` is another form of ``11(1+\\sqrt{5})``). Sentences
    without any are skipped before their candidates are extracted. Acts only with
    ``max_extra_complexity=0`` and ``skip_unreduced_forms``, without ``number_words``.
    """

    context: Literal["paper", "loose", "none"] = "paper"
    skip_problem_values: bool = False
    backtrack: bool = False
    backtrack_gap: int = 0
    max_extra_complexity: Optional[int] = None
    number_words: bool = True
    boxed_is_conclusion: bool = False
    list_items: bool = True
    inequality_sides: bool = True
    skip_task_statements: bool = False
    skip_problem_arguments: bool = False
    skip_unreduced_forms: bool = False
    colon_carries_cue: bool = False
    skip_described_values: bool = False
    skip_trial_values: bool = False
    reference_figures: bool = False

    def __post_init__(self) -> None:
        if self.context not in ("paper", "loose", "none"):
            raise ValueError(f"AnchorOptions.context must be 'paper', 'loose' or 'none', got {self.context!r}")
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in ("context", "backtrack_gap", "max_extra_complexity"):
                continue
            if not isinstance(value, bool):
                raise TypeError(f"AnchorOptions.{f.name} must be bool, got {type(value).__name__}")
        for name, optional in (("backtrack_gap", False), ("max_extra_complexity", True)):
            value = getattr(self, name)
            if value is None and optional:
                continue
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                allowed = "an int >= 0 or None" if optional else "an int >= 0"
                raise ValueError(f"AnchorOptions.{name} must be {allowed}, got {value!r}")

    # The on/off options in the order of the native tuple's last item.
    FLAGS: ClassVar[tuple[str, ...]] = (
        "skip_problem_values", "backtrack", "number_words", "boxed_is_conclusion", "list_items",
        "inequality_sides", "skip_task_statements", "skip_problem_arguments",
        "skip_unreduced_forms", "colon_carries_cue", "skip_described_values",
        "skip_trial_values", "reference_figures",
    )

    @classmethod
    def of_mode(cls, mode: str) -> "AnchorOptions":
        """The options a named mode stands for."""
        context, backtrack_gap, max_extra_complexity, flags = _core.anchor_mode_options(mode)
        return cls(context=context, backtrack_gap=backtrack_gap, max_extra_complexity=max_extra_complexity,
                   **dict(zip(cls.FLAGS, flags)))

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """The option names, in field order."""
        return tuple(f.name for f in fields(cls))

    def replace(self, **changes: Any) -> "AnchorOptions":
        """These options with some changed (``AnchorOptions.of_mode("default").replace(
        skip_unreduced_forms=False)``); an unknown name raises ``ValueError`` naming the valid
        ones, a wrong value ``TypeError`` or ``ValueError``."""
        unknown = sorted(set(changes) - set(self.names()))
        if unknown:
            raise ValueError(f"unknown anchor options {unknown}; valid: {list(self.names())}")
        return replace(self, **changes)

    def _native(self) -> tuple[str, int, Optional[int], list[bool]]:
        flags = [getattr(self, name) for name in self.FLAGS]
        return (self.context, self.backtrack_gap, self.max_extra_complexity, flags)


@dataclass(frozen=True)
class RewardConfig:
    """Everything that shapes the reward.

    ``beta``: penalty per tail token (paper: 2e-4 for 1.5B models, 5e-4 for 7B).
    ``floor``: lower bound of a correct response's reward (None: the paper's formula).
    ``mode``: anchor localisation mode (:data:`ANCHOR_MODES`).
    ``reference``: what the anchor search looks for: the response's own final answer (the
    paper's training setting) or the ground truth (its study of truncated traces).
    ``policy``: what "equal" means for percentages, units and decimals.
    ``cas`` / ``cas_timeout``: send undecided correctness checks to sympy, with this timeout.
    ``anchor_options``: overrides the options ``mode`` stands for (then ``mode`` is only the
    name reported): an :class:`AnchorOptions`, or a mapping of the options to change from
    ``mode``'s (``{"skip_unreduced_forms": False}``), which becomes one.
    ``reject_problem_echo``: when the problem text is given, a final answer that restates one of
    its expressions and is less simplified than every accepted answer (more complex, or with a
    fraction not in lowest terms or a root not simplified: boxing the expression to simplify)
    is not correct: status ``problem_echo``, reward 0.
    ``require_answer_after_think``: only a final answer after ``</think>`` counts, as a strict
    format reward counts it: a response whose answer is only inside the thinking (nothing after
    ``</think>``, or no answer there) has status ``no_final_answer`` and reward 0. Off by
    default, such a response is judged by the last answer of its thinking.
    ``think_tags``: the opening and closing tags of the thinking, ``("<think>", "</think>")``
    unless the policy writes others: two str, or a preset's name (:mod:`apr_fast.think_tags`):
    ``"magistral"`` (``[THINK]``), ``"seed"`` (Seed-OSS), ``"kimi"``, ``"harmony"`` (gpt-oss's
    analysis channel; its text decoded without the special tokens is read too); stored as the
    (opening, closing) pair. ``"auto"`` reads each response with the tags of the family it is
    written in, and a scorer whose vocabulary holds the tags of one family reads that family's
    (its ``config.think_tags`` then holds them). Everything said here of ``</think>`` then holds for the closing
    tag; with token ids, it is found by its id when the vocabulary has it as one token. A
    response written with other tags than the configured ones has no closing tag: status
    ``truncated``, reward 0.
    ``anchors``: which rollouts the anchor search reads. ``"all"`` (the default) reports the
    anchor, L_AST and rho of every rollout, as the redundancy study and VeRL's validation
    metrics read them. ``"rewarded"`` searches only the rollouts whose reward depends on it
    (correct and complete, or sent to the CAS): the others score 0 whatever their anchor and
    are reported with ``anchor_searched=False``, no anchor sentence and L_AST 0. The rewards
    are the same, in 38% less time on the shared traces (36.6 → 22.7 µs per rollout,
    ``benches/bench_reward.py``).
    """

    beta: float = 2e-4
    floor: Optional[float] = None
    mode: AnchorMode = "default"
    reference: Reference = "final_answer"
    policy: Policy = field(default_factory=Policy)
    conclusion_cues: tuple[str, ...] = PAPER_CONCLUSION_CUES
    verification_cues: tuple[str, ...] = PAPER_VERIFICATION_CUES
    cue_inflections: bool = False
    cas: bool = True
    cas_timeout: float = 5.0
    anchor_options: Union[AnchorOptions, Mapping[str, Any], None] = None  # a Mapping becomes AnchorOptions
    reject_problem_echo: bool = True
    require_answer_after_think: bool = False
    think_tags: ThinkTagsArg = DEFAULT_THINK_TAGS  # becomes (opening, closing), or stays "auto"
    anchors: AnchorScope = "all"

    def __post_init__(self) -> None:
        for name in ("beta", "cas_timeout"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                raise TypeError(f"{name} must be a number, got {type(value).__name__}")
        if self.floor is not None and (not isinstance(self.floor, (int, float)) or isinstance(self.floor, bool)):
            raise TypeError(f"floor must be a number or None, got {type(self.floor).__name__}")
        if not (math.isfinite(self.beta) and self.beta >= 0):
            raise ValueError(f"beta must be a finite number >= 0, got {self.beta}")
        if self.floor is not None and not (math.isfinite(self.floor) and self.floor <= 1):
            raise ValueError(f"floor must be a finite number <= 1, got {self.floor}")
        if not (math.isfinite(self.cas_timeout) and self.cas_timeout > 0):
            raise ValueError(f"cas_timeout must be > 0, got {self.cas_timeout}")
        if self.mode not in ANCHOR_MODES:
            raise ValueError(f"mode must be one of {ANCHOR_MODES}, got {self.mode!r}")
        if isinstance(self.anchor_options, Mapping):
            object.__setattr__(self, "anchor_options", AnchorOptions.of_mode(self.mode).replace(**self.anchor_options))
        elif self.anchor_options is not None and not isinstance(self.anchor_options, AnchorOptions):
            raise TypeError(
                "anchor_options must be apr_fast.AnchorOptions, a mapping of option names to values, or None, "
                f"got {type(self.anchor_options).__name__}"
            )
        if self.reference not in ("final_answer", "ground_truth"):
            raise ValueError(f"reference must be 'final_answer' or 'ground_truth', got {self.reference!r}")
        if self.anchors not in ("all", "rewarded"):
            raise ValueError(f"anchors must be 'all' or 'rewarded', got {self.anchors!r}")
        if not isinstance(self.policy, Policy):
            raise TypeError(f"policy must be apr_fast.Policy, got {type(self.policy).__name__}")
        for name in ("conclusion_cues", "verification_cues"):
            cues = getattr(self, name)
            if isinstance(cues, str) or not all(isinstance(c, str) for c in cues):
                raise TypeError(f"{name} must be a sequence of str")
            object.__setattr__(self, name, tuple(cues))
        if not isinstance(self.cas, bool) or not isinstance(self.cue_inflections, bool):
            raise TypeError("cas and cue_inflections must be bool")
        for name in ("reject_problem_echo", "require_answer_after_think"):
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"{name} must be bool, got {type(getattr(self, name)).__name__}")
        object.__setattr__(self, "think_tags", resolve_think_tags(self.think_tags))


@dataclass(frozen=True, slots=True)
class RolloutScore:
    """The score of one rollout. Every rollout has the same fields.

    Spans are character offsets into the response (for token-id input, into its decoded
    text); ``anchor_end`` is one past the anchor character. Lengths are in ``length_unit``.
    ``correctness_method`` says how ŷ ≡ y* was decided (``native_exact``, ``native_numeric``,
    ``native_text``, ``sympy``, ``timeout``, ``error``, ...; ``none`` without an answer).
    ``anchor_searched`` is false for a rollout whose thinking was not searched: one that
    ``RewardConfig.anchors="rewarded"`` leaves out (its reward is 0 whatever its anchor), or
    one that could not be scored (``invalid_input`` token ids, ``internal_error``).
    """

    status: str
    status_code: int
    reward: float
    correct: bool
    correctness_method: str
    correctness_detail: str
    final_answer: Optional[str]
    final_answer_rule: Optional[str]
    final_answer_span: Optional[tuple[int, int]]
    has_think_close: bool
    thinking_span: tuple[int, int]
    anchor_found: bool
    anchor_searched: bool
    anchor_sentence: Optional[int]
    num_sentences: int
    anchor_span: tuple[int, int]
    anchor_end: int
    anchor_byte_span: tuple[int, int]
    anchor_token: Optional[int]
    matched_candidate: Optional[str]
    matched_span: Optional[tuple[int, int]]
    undecided_comparisons: int
    t_think: int
    l_ast: int
    rho: float
    length_unit: str
    mode: str
    error: Optional[str]

    def to_dict(self) -> dict[str, Any]:
        """All fields as a plain dict (JSON-serialisable), in field order. Every field is a
        scalar or a tuple of ints, so a shallow copy is what ``dataclasses.asdict`` gives, at a
        twentieth of its cost (asdict recursed into every field; it was most of ``apr-fast
        score``'s own time)."""
        return dict(zip(_ROLLOUT_SCORE_FIELDS, _rollout_score_values(self)))

    def metrics(self) -> dict[str, float]:
        """The numeric fields, for logging (VeRL's reward_extra_info)."""
        return {
            "score": self.reward,
            "acc": float(self.correct),
            "l_ast": float(self.l_ast),
            "t_think": float(self.t_think),
            "rho": self.rho,
            "anchor_found": float(self.anchor_found),
            "status": float(self.status_code),
        }


def _token_offsets(tokenizer: Any, texts: list[str]) -> list[list[tuple[int, int]]]:
    """Each token's ``(start, end)`` character span in each text, from a HF tokenizer. The
    native scorer turns them into token ends as :func:`apr_fast.tokens.token_ends_from_offsets`
    does (a character split across byte-level tokens belongs to the one holding its last byte)."""
    if hasattr(tokenizer, "encode_batch"):  # tokenizers.Tokenizer
        return [e.offsets for e in tokenizer.encode_batch(texts, add_special_tokens=False)]
    if hasattr(tokenizer, "backend_tokenizer"):  # transformers fast tokenizer
        out = tokenizer(texts, add_special_tokens=False, return_offsets_mapping=True)
        return list(out["offset_mapping"])  # (start, end) tuples or two-item lists: both read
    raise TypeError(
        "tokenizer must be a tokenizers.Tokenizer or a transformers fast tokenizer, "
        f"got {type(tokenizer).__name__}"
    )


def _alternatives_list(
    ground_truths: Sequence[Any], n: int, problems: Optional[Sequence[Optional[str]]] = None
) -> tuple[list[Sequence[str]], dict[int, str]]:
    """Each rollout's accepted answers; with the problem texts, without the alternatives a
    problem shows boxed itself (see :func:`ground_truth_alternatives`).

    A ground truth that cannot be read (None, a bool, NaN, an unknown type) or that holds no
    answer ("", []) is one bad row of a batch, not a failed batch: its alternatives are empty
    and the second result maps its index to why, which :func:`_mark_bad_ground_truths` turns
    into that rollout's ``invalid_input`` status."""
    if isinstance(ground_truths, (str, bytes)) or not hasattr(ground_truths, "__len__"):
        raise TypeError("ground_truths must be a sequence with one ground truth per response")
    if len(ground_truths) != n:
        raise ValueError(f"got {len(ground_truths)} ground truths for {n} responses")
    alternatives, errors = _alternatives_rows(ground_truths, problems)
    # The reason is the row's own (a row scores the same in any batch); the log names the index.
    bad = {i: f"bad ground truth: {e}" for i, e in errors.items()}
    for i, (g, found) in enumerate(zip(ground_truths, alternatives)):
        if i not in bad and not any(map(str.strip, found)):
            alternatives[i], bad[i] = [], f"empty ground truth ({g!r}): no answer can match it"
    return alternatives, bad


def _per_row_strings(values: Optional[Sequence[Optional[str]]], n: int, name: str) -> Optional[list[Optional[str]]]:
    """``values`` (``problems``, ``row_names``) as a checked list of one str or None per
    response; None when not given."""
    if values is None:
        return None
    if isinstance(values, (str, bytes)) or not hasattr(values, "__len__"):
        raise TypeError(f"{name} must be a sequence with one str or None per response")
    items = list(values)
    if len(items) != n:
        raise ValueError(f"got {len(items)} {name.replace('_', ' ')} for {n} responses")
    for i, item in enumerate(items):
        if item is not None and not isinstance(item, str):
            raise TypeError(f"{name}[{i}] must be str or None, got {type(item).__name__}")
    return items


def _row_names_list(row_names: Optional[Sequence[Optional[str]]], n: int) -> Optional[list[Optional[str]]]:
    return _per_row_strings(row_names, n, "row_names")


def _rollout_name(i: int, row_names: Optional[list[Optional[str]]]) -> str:
    """How a log line names rollout ``i`` of a batch: its row name when the caller gave one."""
    name = row_names[i] if row_names is not None else None
    return name if name is not None else f"rollout {i} of the batch"


def _mark_bad_ground_truths(
    scores: list[RolloutScore], bad: dict[int, str], row_names: Optional[list[Optional[str]]] = None
) -> list[RolloutScore]:
    """The rollouts whose ground truth could not be read, as ``invalid_input`` with why
    (reward 0: correctness cannot be decided). Their anchor fields stay: with the default
    reference the anchor does not depend on the ground truth. The log names the first such
    rollout by ``row_names`` when the caller gave one (a dataset row), else by its position."""
    if bad:  # one line per batch: a dataset with many empty answers must not flood the log
        first = min(bad)
        logger.warning("%d rollout(s) scored 0 for an unreadable or empty ground truth (status invalid_input); "
                       "the first, %s: %s", len(bad), _rollout_name(first, row_names), bad[first])
    for i, why in bad.items():
        scores[i] = _replace(
            scores[i], status="invalid_input", error=why, reward=0.0, correct=False,
            correctness_method="none", correctness_detail=why,
        )
    return scores


def _problems_list(problems: Optional[Sequence[Optional[str]]], n: int) -> Optional[list[Optional[str]]]:
    return _per_row_strings(problems, n, "problems")


def _rebuild_scorer(
    config: RewardConfig, vocabulary: Optional[Vocabulary], tokenizer: Any, native_encoding: bool = True
) -> "APRScorer":
    return APRScorer(config, vocabulary=vocabulary, tokenizer=tokenizer, native_encoding=native_encoding)


class APRScorer:
    """Scores rollouts with the APR reward; build once, reuse for every batch.

    ``vocabulary`` (or ``tokenizer``, from which one is built) enables token-id input;
    ``tokenizer`` also counts the tokens of text input. The scorer is thread-safe.

    Text is encoded natively (:class:`~apr_fast.encoding.TextEncoder`, the same tokens as
    ``tokenizer``, ~30x faster) when the tokenizer is a byte-level BPE one it reproduces (Qwen2,
    DeepSeek-R1-Distill-Qwen, Llama 3, DeepSeek-V3 / R1 / V4, GPT-2); otherwise, or with ``native_encoding=False``, by
    ``tokenizer`` itself.
    """

    def __init__(
        self,
        config: Optional[RewardConfig] = None,
        *,
        vocabulary: Optional[Vocabulary] = None,
        tokenizer: Any = None,
        native_encoding: bool = True,
    ) -> None:
        config = RewardConfig() if config is None else config
        if not isinstance(config, RewardConfig):
            raise TypeError(f"config must be apr_fast.RewardConfig, got {type(config).__name__}")
        if vocabulary is not None and not isinstance(vocabulary, Vocabulary):
            raise TypeError(f"vocabulary must be apr_fast.Vocabulary, got {type(vocabulary).__name__}")
        if not isinstance(native_encoding, bool):
            raise TypeError(f"native_encoding must be bool, got {type(native_encoding).__name__}")
        json = tokenizer_json(tokenizer) if tokenizer is not None else None
        if vocabulary is None and json is not None:
            vocabulary = Vocabulary.from_json(json)
        self.config = config
        self.vocabulary = vocabulary
        self.tokenizer = tokenizer
        self.native_encoding = native_encoding
        self._encoder = native_encoder_for(tokenizer, json) if json is not None and native_encoding else None
        self._warned_chars = False
        p = config.policy
        self._native = _core.NativeScorer(
            config.beta, config.floor, config.mode, config.reference, p.percent, p.units,
            p.decimal_min_sig_digits, float(p.rel_tol), list(config.conclusion_cues),
            list(config.verification_cues), config.cue_inflections,
            vocabulary._native if vocabulary is not None else None,
            config.anchor_options._native() if isinstance(config.anchor_options, AnchorOptions) else None,
            config.reject_problem_echo,
            config.require_answer_after_think,
            config.think_tags,
            config.anchors,
        )
        tags = self._native.think_tags
        if tags != config.think_tags:
            # "auto" settled by the vocabulary, which holds one family's tags.
            logger.info("think_tags='auto': the vocabulary holds the tags %r and %r, so the thinking is read between them",
                        tags[0], tags[1])
            self.config = replace(config, think_tags=tags)
        self._warned_tags = vocabulary is not None and warn_of_other_families(vocabulary, self.config.think_tags)

    def __repr__(self) -> str:
        return f"APRScorer({self.config!r}, vocabulary={'yes' if self.vocabulary else 'no'})"

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickles as its configuration, vocabulary and tokenizer (for Ray workers and process
        pools); the native scorer is rebuilt on load."""
        return (_rebuild_scorer, (self.config, self.vocabulary, self.tokenizer, self.native_encoding))

    def score(self, response: str, ground_truth: Any, *, problem: Optional[str] = None) -> RolloutScore:
        """Scores one response given as text (see :meth:`score_batch`)."""
        if not isinstance(response, str):
            raise TypeError(f"response must be str, got {type(response).__name__}")
        return self.score_batch([response], [ground_truth], problems=None if problem is None else [problem])[0]

    def score_batch(
        self,
        responses: Sequence[str],
        ground_truths: Sequence[Any],
        *,
        problems: Optional[Sequence[Optional[str]]] = None,
        threads: Optional[int] = None,
        row_names: Optional[Sequence[Optional[str]]] = None,
    ) -> list[RolloutScore]:
        """Scores responses given as text, in one native call on ``threads`` workers.

        ``ground_truths`` holds one ground truth per response: a str, a number (AMC's 142.0)
        or a list of accepted alternatives. ``problems`` (optional) lets the default mode
        recognise values copied from the problem statement. ``row_names`` (optional, one str
        or None per response) is how log messages name a rollout, such as its dataset row
        (default: its position in this batch); it does not change any score.
        """
        if isinstance(responses, str) or not isinstance(responses, (list, tuple)):
            raise TypeError(f"responses must be a list of str, got {type(responses).__name__}")
        responses = list(responses)
        probs = _problems_list(problems, len(responses))
        names = _row_names_list(row_names, len(responses))
        gts, bad = _alternatives_list(ground_truths, len(responses), probs)
        if self.tokenizer is None and self.vocabulary is not None and not self._warned_chars:
            # A vocabulary decodes ids; it cannot split text into tokens.
            self._warned_chars = True
            warnings.warn(
                "this APRScorer has a vocabulary but no tokenizer, so text input is measured in characters "
                "(length_unit='chars'), not tokens: pass token ids to score_token_ids, or build the scorer "
                "with tokenizer=... to count the tokens of text",
                stacklevel=2,
            )
        offsets = self._spans_from_tokenizers(responses)
        encoder = self._encoder._native if self._encoder is not None else None
        scores = self._native.score_texts(responses, gts, probs, offsets, threads, RolloutScore, encoder)
        if not self._warned_tags:
            self._warned_tags = warn_of_other_closing_tags(responses, scores, self.config.think_tags)
        return self._finish(_mark_bad_ground_truths(scores, bad, names), gts, names)

    def _spans_from_tokenizers(self, responses: list[str]) -> Optional[list[Optional[list[tuple[int, int]]]]]:
        """The token spans ``tokenizers`` gives the responses the native encoder cannot take
        (``None`` for the others; ``None`` in all when it takes them all or there is no
        tokenizer)."""
        if self.tokenizer is None:
            return None
        if self._encoder is None:
            return list(_token_offsets(self.tokenizer, responses))
        refused = [i for i, r in enumerate(responses) if not self._encoder.accepts(r)]
        if not refused:
            return None
        offsets: list[Optional[list[tuple[int, int]]]] = [None] * len(responses)
        for i, spans in zip(refused, _token_offsets(self.tokenizer, [responses[i] for i in refused])):
            offsets[i] = spans
        return offsets

    def score_token_ids(
        self,
        token_ids: Union[Sequence[TokenIds], Any],
        ground_truths: Sequence[Any],
        *,
        problems: Optional[Sequence[Optional[str]]] = None,
        lengths: Optional[Sequence[int]] = None,
        threads: Optional[int] = None,
        row_names: Optional[Sequence[Optional[str]]] = None,
    ) -> list[RolloutScore]:
        """Scores responses given as the policy's token ids (lists of int, 1-D numpy arrays or
        torch tensors; trailing end-of-sequence/padding ids are ignored). Needs a vocabulary.
        ``problems`` and ``row_names`` are as in :meth:`score_batch`.

        ``token_ids`` may also be one 2-D numpy array or torch tensor of padded rows (VeRL's
        ``responses`` batch), with ``lengths`` giving each row's valid length (its attention
        mask summed; default: the whole row): the batch crosses into the native layer as one
        array instead of one per row.
        """
        if not self._native.has_vocabulary:
            raise _core.ConfigError("score_token_ids needs a vocabulary: APRScorer(vocabulary=...) or tokenizer=...")
        payload: Any
        row_lengths: Optional[list[int]] = None
        if _is_id_matrix(token_ids):
            payload, row_lengths = _native_id_rows(token_ids, lengths, "token_ids")
        elif lengths is not None:
            raise TypeError("lengths goes with a 2-D array or tensor of token ids")
        elif isinstance(token_ids, (str, bytes)) or not hasattr(token_ids, "__len__"):
            raise TypeError("token_ids must be a sequence of id sequences")
        elif _is_one_id_row(token_ids):
            raise TypeError(
                f"token_ids must be a batch (a sequence of id sequences, or a 2-D array), got a "
                f"{getattr(token_ids, 'ndim', 1)}-D {_package_of(token_ids)} array: for one response pass [ids]"
            )
        else:
            payload = _native_id_list(token_ids, "token_ids")
        n = len(payload)
        probs = _problems_list(problems, n)
        names = _row_names_list(row_names, n)
        gts, bad = _alternatives_list(ground_truths, n, probs)
        scores = self._native.score_ids(payload, gts, probs, threads, False, row_lengths, RolloutScore)
        return self._finish(_mark_bad_ground_truths(scores, bad, names), gts, names)

    def _finish(
        self, scores: list[RolloutScore], gts: list[Sequence[str]], row_names: Optional[list[Optional[str]]] = None
    ) -> list[RolloutScore]:
        """The native scores, with what the native engine left undecided settled by sympy. What
        stays undecided is logged once per batch (a training step must not log a line per
        rollout): how many, and the first, named by ``row_names`` when given."""
        if not self.config.cas:
            return scores
        undecided: list[int] = []
        for i, s in enumerate(scores):
            if s.status == "correctness_unknown" and s.final_answer is not None:
                scores[i] = self._decide_with_cas(s, gts[i])
                if scores[i].status != "ok":
                    undecided.append(i)
        if undecided:
            k = undecided[0]
            logger.warning("%d rollout(s) scored 0 with correctness undecided after the CAS (status correctness_unknown, "
                           "cas_timeout or cas_error); the first, %s: final answer %r against %r (%s: %s)",
                           len(undecided), _rollout_name(k, row_names), scores[k].final_answer, list(gts[k]),
                           scores[k].correctness_method, scores[k].correctness_detail)
        return scores

    def _decide_with_cas(self, s: RolloutScore, alternatives: Sequence[str]) -> RolloutScore:
        """Settles ŷ ≡ y* with sympy for a rollout the native engine left undecided."""
        assert s.final_answer is not None
        judgements = [
            equivalent(s.final_answer, g, policy=self.config.policy, cas=True, cas_timeout=self.config.cas_timeout)
            for g in alternatives
        ]
        decided = next((j for j in judgements if j.verdict is Verdict.EQUAL), None)
        if decided is None and all(j.verdict is Verdict.NOT_EQUAL for j in judgements):
            decided = judgements[0]
        if decided is None:
            j = next(j for j in judgements if j.verdict is Verdict.UNKNOWN)
            status = {"timeout": "cas_timeout", "error": "cas_error"}.get(j.method.value, "correctness_unknown")
            return _replace(s, status=status, correctness_method=j.method.value, correctness_detail=j.detail)
        correct = decided.verdict is Verdict.EQUAL
        reward = apr_reward(correct, s.has_think_close, s.l_ast, self.config.beta, self.config.floor)
        return _replace(
            s, status="ok", correct=correct, reward=reward,
            correctness_method=decided.method.value, correctness_detail=decided.detail,
        )


def _replace(s: RolloutScore, **changes: Any) -> RolloutScore:
    if "status" in changes:
        changes["status_code"] = STATUS_CODES[changes["status"]]
    return replace(s, **changes)


_ROLLOUT_SCORE_FIELDS = tuple(f.name for f in fields(RolloutScore))
#: A score's field values, in field order (its fields are slots: it has no ``__dict__``).
_rollout_score_values = operator.attrgetter(*_ROLLOUT_SCORE_FIELDS)

_default_scorers: dict[tuple[RewardConfig, int], APRScorer] = {}
_MAX_DEFAULT_SCORERS = 16


def score(
    response: str,
    ground_truth: Any,
    *,
    problem: Optional[str] = None,
    config: Optional[RewardConfig] = None,
    tokenizer: Any = None,
) -> RolloutScore:
    """Scores one response with a cached :class:`APRScorer` (see :meth:`APRScorer.score`)."""
    config = RewardConfig() if config is None else config
    # The scorer keeps its tokenizer alive, so the tokenizer's id stays its own while cached.
    key = (config, id(tokenizer))
    scorer = _default_scorers.get(key)
    if scorer is None:
        if len(_default_scorers) >= _MAX_DEFAULT_SCORERS:  # one per config, each maybe with a vocabulary
            _default_scorers.clear()
        scorer = _default_scorers[key] = APRScorer(config, tokenizer=tokenizer)
    return scorer.score(response, ground_truth, problem=problem)
