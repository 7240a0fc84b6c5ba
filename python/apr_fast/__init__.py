"""apr-fast: Anchor-based Process Rewards for reasoning-model RL."""
from apr_fast._core import THREADS_ENV, __version__, default_threads
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

__all__ = [
    "AprError",
    "Candidate",
    "ConfigError",
    "FinalAnswer",
    "THREADS_ENV",
    "TokenizerError",
    "__version__",
    "default_threads",
    "extract_candidates",
    "extract_candidates_batch",
    "extract_final",
    "extract_final_batch",
    "problem_values",
]
