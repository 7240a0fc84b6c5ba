"""Type stubs for the native module (checked with mypy.stubtest)."""

__version__: str
THREADS_ENV: str

class AprError(Exception): ...
class ConfigError(AprError): ...
class TokenizerError(AprError): ...

def default_threads() -> int: ...

# --- answer equivalence (rust/bindings/answer.rs) ---------------------------------------------
# A judgement is (verdict, method, reason, sympy_a, sympy_b); see apr_fast.equivalence.
def answer_equivalent(
    a: str, b: str, percent: str, units: str, decimal_min_sig_digits: int, rel_tol: float
) -> tuple[str, str, str, str | None, str | None]: ...
def answer_equivalent_batch(
    pairs: list[tuple[str, str]] | tuple[tuple[str, str], ...],
    percent: str,
    units: str,
    decimal_min_sig_digits: int,
    rel_tol: float,
    threads: int | None,
) -> list[tuple[str, str, str, str | None, str | None]]: ...
def answer_normalize(text: str) -> str: ...
def answer_to_sympy(text: str) -> str | None: ...
# --- end answer equivalence -------------------------------------------------------------------
