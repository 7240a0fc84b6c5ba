"""apr-fast: Anchor-based Process Rewards for reasoning-model RL."""
from apr_fast._core import THREADS_ENV, __version__, default_threads
from apr_fast.errors import AprError, ConfigError, TokenizerError

__all__ = [
    "AprError",
    "ConfigError",
    "THREADS_ENV",
    "TokenizerError",
    "__version__",
    "default_threads",
]
