"""The exception hierarchy: every error apr_fast raises derives from :class:`AprError`.

Wrong argument types raise the built-in :class:`TypeError` and out-of-range values
:class:`ValueError`, as Python users expect; problems specific to this library raise an
:class:`AprError` subclass.
"""
from apr_fast._core import AprError, ConfigError, TokenizerError

__all__ = ["AprError", "ConfigError", "TokenizerError"]
