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
]
