"""The package surface: version, error hierarchy, thread defaults."""
import os
import subprocess
import sys

import apr_fast


def test_errors_share_one_base() -> None:
    assert issubclass(apr_fast.ConfigError, apr_fast.AprError)
    assert issubclass(apr_fast.TokenizerError, apr_fast.AprError)
    assert issubclass(apr_fast.AprError, Exception)
    assert apr_fast.AprError.__module__ == "apr_fast"


def test_thread_default_follows_environment() -> None:
    code = "import apr_fast; print(apr_fast.default_threads())"
    env = dict(os.environ, **{apr_fast.THREADS_ENV: "3"})
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "3"
