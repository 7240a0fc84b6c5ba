"""apr-fast: Anchor-based Process Rewards for reasoning-model RL."""
from apr_fast._core import THREADS_ENV, __version__, default_threads
from apr_fast.errors import AprError, ConfigError, TokenizerError
from apr_fast.tokens import DecodedIds, TokenIds, Vocabulary, token_index_at
from apr_fast.extraction import (
    Candidate,
    FinalAnswer,
    extract_candidates,
    extract_candidates_batch,
    extract_final,
    extract_final_batch,
    problem_values,
)
from apr_fast.equivalence import Judgement, Method, Verdict, equivalent, equivalent_batch
from apr_fast.equivalence import Policy as EquivalencePolicy
from apr_fast.equivalence import normalize as normalize_answer
# text: sentences and cues
from apr_fast.cues import (
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
from apr_fast.sentences import (
    MathRegion,
    Sentence,
    SplitOptions,
    math_regions,
    split_sentences,
    split_sentences_batch,
)

__all__ = [
    "AprError",
    "Candidate",
    "ConfigError",
    "DecodedIds",
    "FinalAnswer",
    "EquivalencePolicy",
    "Judgement",
    "Method",
    "THREADS_ENV",
    "TokenIds",
    "TokenizerError",
    "Vocabulary",
    "__version__",
    "default_threads",
    "token_index_at",
    "extract_candidates",
    "extract_candidates_batch",
    "extract_final",
    "extract_final_batch",
    "problem_values",
    "Verdict",
    "__version__",
    "default_threads",
    "equivalent",
    "equivalent_batch",
    "normalize_answer",
    # text: sentences and cues
    "CueHit",
    "CueMatcher",
    "MathRegion",
    "PAPER_CONCLUSION_CUES",
    "PAPER_VERIFICATION_CUES",
    "Segmentation",
    "Sentence",
    "SentenceCues",
    "SplitOptions",
    "find_cues",
    "find_cues_batch",
    "math_regions",
    "segment",
    "segment_batch",
    "split_sentences",
    "split_sentences_batch",
]
