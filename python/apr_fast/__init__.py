"""apr-fast: Anchor-based Process Rewards for reasoning-model RL."""
from apr_fast._core import THREADS_ENV, __version__, default_threads
from apr_fast.errors import AprError, ConfigError, TokenizerError
from apr_fast.tokens import DecodedIds, TokenIds, Vocabulary, token_index_at

__all__ = [
    "AprError",
    "ConfigError",
    "DecodedIds",
    "THREADS_ENV",
    "TokenIds",
    "TokenizerError",
    "Vocabulary",
    "__version__",
    "default_threads",
    "token_index_at",
]
