"""apr-fast: Anchor-based Process Rewards for reasoning-model RL."""
from apr_fast._core import THREADS_ENV, __version__, default_threads
from apr_fast.errors import AprError, ConfigError, TokenizerError
from apr_fast.equivalence import Judgement, Method, Verdict, equivalent, equivalent_batch
from apr_fast.equivalence import Policy as EquivalencePolicy
from apr_fast.equivalence import normalize as normalize_answer

__all__ = [
    "AprError",
    "ConfigError",
    "EquivalencePolicy",
    "Judgement",
    "Method",
    "THREADS_ENV",
    "TokenizerError",
    "Verdict",
    "__version__",
    "default_threads",
    "equivalent",
    "equivalent_batch",
    "normalize_answer",
]
