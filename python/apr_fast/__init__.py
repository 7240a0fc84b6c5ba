"""apr-fast: Anchor-based Process Rewards for reasoning-model RL.

Data flows one way, and each step has its module:

* text -> sentences and cues: :mod:`apr_fast.sentences`, :mod:`apr_fast.cues`
* sentences -> answer candidates, and a response's final answer: :mod:`apr_fast.extraction`
* candidate vs reference: :mod:`apr_fast.equivalence` (native; sympy via :mod:`apr_fast.cas`);
  a response's outcome alone: :mod:`apr_fast.correctness`
* -> anchor -> reward, in one native call per batch: :mod:`apr_fast.reward`; where the thinking
  starts and ends, by model family: :mod:`apr_fast.think_tags`
* token ids <-> text offsets of the policy's tokenizer: :mod:`apr_fast.tokens`; text -> token ids
  natively: :mod:`apr_fast.encoding`

Quick start::

    import apr_fast
    score = apr_fast.score(response, ground_truth="204")
    score.reward, score.correct, score.l_ast, score.rho
"""
from apr_fast._core import THREADS_ENV, __version__, default_threads
from apr_fast.cues import (
    CUE_LANGUAGES,
    CHINESE_CONCLUSION_CUES,
    CHINESE_VERIFICATION_CUES,
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
    cue_lists,
)
from apr_fast.correctness import Correctness, is_correct, is_correct_batch
from apr_fast.equivalence import Judgement, Method, Verdict, equivalent, equivalent_batch
from apr_fast.equivalence import Policy as EquivalencePolicy
from apr_fast.equivalence import normalize as normalize_answer
from apr_fast.errors import AprError, ConfigError, TokenizerError
from apr_fast.extraction import (
    Candidate,
    FinalAnswer,
    extract_candidates,
    extract_candidates_batch,
    extract_final,
    extract_final_batch,
    problem_values,
)
from apr_fast.ground_truth import GoldSupport, gold_support, ground_truth_alternatives
from apr_fast.reward import (
    ANCHOR_MODES,
    STATUS_CODES,
    AnchorOptions,
    APRScorer,
    RewardConfig,
    RolloutScore,
    apr_reward,
    score,
)
from apr_fast.sentences import (
    MathRegion,
    Sentence,
    SplitOptions,
    math_regions,
    split_sentences,
    split_sentences_batch,
)
from apr_fast.encoding import TextEncoder
from apr_fast.think_tags import DEFAULT_THINK_TAGS, THINK_TAG_PRESETS
from apr_fast.tokens import DecodedIds, TokenIds, Vocabulary, token_ends_from_offsets, token_index_at

__all__ = [
    # package
    "THREADS_ENV",
    "__version__",
    "default_threads",
    "AprError",
    "ConfigError",
    "TokenizerError",
    # text -> sentences and cues
    "MathRegion",
    "Sentence",
    "SplitOptions",
    "math_regions",
    "split_sentences",
    "split_sentences_batch",
    "CUE_LANGUAGES",
    "CHINESE_CONCLUSION_CUES",
    "CHINESE_VERIFICATION_CUES",
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
    "cue_lists",
    # answers: extraction and equivalence
    "Candidate",
    "FinalAnswer",
    "extract_candidates",
    "extract_candidates_batch",
    "extract_final",
    "extract_final_batch",
    "problem_values",
    "Judgement",
    "Method",
    "EquivalencePolicy",
    "Verdict",
    "equivalent",
    "equivalent_batch",
    "normalize_answer",
    "GoldSupport",
    "gold_support",
    "ground_truth_alternatives",
    "Correctness",
    "is_correct",
    "is_correct_batch",
    # anchor -> reward
    "ANCHOR_MODES",
    "STATUS_CODES",
    "AnchorOptions",
    "APRScorer",
    "RewardConfig",
    "RolloutScore",
    "apr_reward",
    "score",
    "DEFAULT_THINK_TAGS",
    "THINK_TAG_PRESETS",
    # tokens
    "DecodedIds",
    "TextEncoder",
    "TokenIds",
    "Vocabulary",
    "token_ends_from_offsets",
    "token_index_at",
]
