"""Mathematical equivalence of two answers: native first, sympy only when really needed.

>>> from apr_fast.equivalence import equivalent
>>> j = equivalent("\\\\dfrac{1}{2}", "0.5")
>>> (j.verdict.value, j.method.value)
('equal', 'native_exact')

The native engine (Rust) parses both answers and decides with exact rational arithmetic,
certified ball arithmetic or pseudo-random evaluation points; see the Rust module
``rust/answer`` for every rule. When it answers *unknown* for a reason a CAS can resolve, the
pair goes to a killable sympy worker (:mod:`apr_fast.cas`) with a timeout. Every result says how
it was decided (:class:`Method`) and why (``detail``).

Policy (defaults are strict; see :class:`Policy`):

- ``10\\%`` equals ``10``, not ``0.1`` and not ``1000`` (``percent="as_fraction"`` or ``"either"``
  change that);
- a unit on one side only is ignored; different units on both sides are not equal
  (``units="ignore"`` ignores them);
- a decimal literal with at least ``decimal_min_sig_digits`` (6) significant digits equals an exact
  or irrational value that rounds to it at its last digit (``0.333333`` = ``1/3``; ``0.333`` != ``1/3``);
  decimals are compared exactly with each other (``0.5`` = ``0.50``);
- ``e`` is Euler's number and ``i`` the imaginary unit; variables are compared at positive values;
- a bare list ``2, 3`` is an unordered multiset, like a set; tuples and intervals keep their order
  and brackets;
- a ratio ``a:b`` of two constants is its quotient (``6:4`` = ``1.5``), except when written like a
  time of day (``h:mm``: ``2:30``), which equals only the same terms and is otherwise undecided.
"""
from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from typing import Iterable, Literal, Optional, Sequence

from apr_fast import _core
from apr_fast.cas import CasResult, default_checker

__all__ = ["Judgement", "Method", "Policy", "Verdict", "equivalent", "equivalent_batch", "normalize"]

DEFAULT_CAS_TIMEOUT = 5.0


class Verdict(str, enum.Enum):
    """Whether two answers are mathematically equivalent."""

    EQUAL = "equal"
    NOT_EQUAL = "not_equal"
    UNKNOWN = "unknown"


class Method(str, enum.Enum):
    """How a verdict was reached."""

    NATIVE_EXACT = "native_exact"
    """Exact rational arithmetic, exact structure or identical canonical text."""
    NATIVE_NUMERIC = "native_numeric"
    """Certified ball arithmetic, or agreement at pseudo-random evaluation points."""
    NATIVE_TEXT = "native_text"
    """Text answers or multiple-choice letters."""
    NATIVE_UNDECIDED = "native_undecided"
    """The native engine could not decide and the CAS was not used (or could not help)."""
    SYMPY = "sympy"
    """Decided (or left undecided) by sympy in the worker process."""
    TIMEOUT = "timeout"
    """The sympy check exceeded its timeout; the worker was killed."""
    ERROR = "error"
    """An internal error (the sympy worker failed, or a native bug caught at the boundary)."""
    CAS_UNAVAILABLE = "cas_unavailable"
    """A CAS was needed but sympy is not installed."""


@dataclass(frozen=True)
class Judgement:
    """The verdict, how it was reached, and why (a stable reason name, or the CAS's detail)."""

    verdict: Verdict
    method: Method
    detail: str

    @property
    def is_equal(self) -> bool:
        return self.verdict is Verdict.EQUAL


@dataclass(frozen=True)
class Policy:
    """What "equal" means where mathematics leaves a choice (defaults: strict)."""

    percent: Literal["strict", "as_fraction", "either"] = "strict"
    units: Literal["strict", "ignore"] = "strict"
    decimal_min_sig_digits: int = 6
    rel_tol: float = 1e-10

    def __post_init__(self) -> None:
        if not isinstance(self.percent, str):
            raise TypeError(f"percent must be str, got {type(self.percent).__name__}")
        if self.percent not in ("strict", "as_fraction", "either"):
            raise ValueError(f"percent must be 'strict', 'as_fraction' or 'either', got {self.percent!r}")
        if not isinstance(self.units, str):
            raise TypeError(f"units must be str, got {type(self.units).__name__}")
        if self.units not in ("strict", "ignore"):
            raise ValueError(f"units must be 'strict' or 'ignore', got {self.units!r}")
        if not isinstance(self.decimal_min_sig_digits, int) or isinstance(self.decimal_min_sig_digits, bool):
            raise TypeError(f"decimal_min_sig_digits must be int, got {type(self.decimal_min_sig_digits).__name__}")
        if self.decimal_min_sig_digits < 1:
            raise ValueError(f"decimal_min_sig_digits must be >= 1, got {self.decimal_min_sig_digits}")
        if not isinstance(self.rel_tol, (int, float)) or isinstance(self.rel_tol, bool):
            raise TypeError(f"rel_tol must be float, got {type(self.rel_tol).__name__}")
        if not (math.isfinite(self.rel_tol) and 0 < self.rel_tol < 1):
            raise ValueError(f"rel_tol must be in (0, 1), got {self.rel_tol}")

    def _native(self) -> tuple[str, str, int, float]:
        return self.percent, self.units, self.decimal_min_sig_digits, float(self.rel_tol)


_DEFAULT_POLICY = Policy()

_NativeJudgement = tuple[str, str, str, Optional[str], Optional[str]]


def _policy_arg(policy: Optional[Policy]) -> Policy:
    if policy is None:
        return _DEFAULT_POLICY
    if not isinstance(policy, Policy):
        raise TypeError(f"policy must be apr_fast.equivalence.Policy or None, got {type(policy).__name__}")
    return policy


def _check_cas_args(cas: bool, cas_timeout: float) -> None:
    if not isinstance(cas, bool):
        raise TypeError(f"cas must be bool, got {type(cas).__name__}")
    if not isinstance(cas_timeout, (int, float)) or isinstance(cas_timeout, bool):
        raise TypeError(f"cas_timeout must be float, got {type(cas_timeout).__name__}")
    if not (math.isfinite(cas_timeout) and cas_timeout > 0):
        raise ValueError(f"cas_timeout must be > 0, got {cas_timeout}")


def _from_cas(result: CasResult) -> Judgement:
    if result.status == "equal":
        return Judgement(Verdict.EQUAL, Method.SYMPY, result.detail)
    if result.status == "not_equal":
        return Judgement(Verdict.NOT_EQUAL, Method.SYMPY, result.detail)
    method = {
        "unknown": Method.SYMPY,
        "timeout": Method.TIMEOUT,
        "unavailable": Method.CAS_UNAVAILABLE,
    }.get(result.status, Method.ERROR)
    return Judgement(Verdict.UNKNOWN, method, result.detail)


# Native judgements take few distinct (verdict, method, reason) values and Judgement is
# immutable: share one object per value instead of building thousands per batch.
_NATIVE_JUDGEMENTS: dict[tuple[str, str, str], Judgement] = {}
_MAX_SHARED_JUDGEMENTS = 4096


def _native_judgement(verdict: str, method: str, reason: str) -> Judgement:
    key = (verdict, method, reason)
    judgement = _NATIVE_JUDGEMENTS.get(key)
    if judgement is None:
        judgement = Judgement(Verdict(verdict), Method(method), reason)
        if len(_NATIVE_JUDGEMENTS) < _MAX_SHARED_JUDGEMENTS:
            _NATIVE_JUDGEMENTS[key] = judgement
    return judgement


def _resolve(native: _NativeJudgement, cas: bool, cas_timeout: float) -> Judgement:
    verdict, method, reason, cas_a, cas_b = native
    judgement = _native_judgement(verdict, method, reason)
    if judgement.verdict is not Verdict.UNKNOWN or not cas or cas_a is None or cas_b is None:
        return judgement
    return _from_cas(default_checker().check(cas_a, cas_b, cas_timeout))


def equivalent(
    a: str,
    b: str,
    *,
    policy: Optional[Policy] = None,
    cas: bool = True,
    cas_timeout: float = DEFAULT_CAS_TIMEOUT,
) -> Judgement:
    """Whether answers ``a`` and ``b`` are mathematically equivalent.

    Decided natively when possible; an unknown that a CAS can resolve goes to the sympy worker
    (``cas=False`` skips it) with ``cas_timeout`` seconds. Never raises for odd input: the result
    says how it was decided.
    """
    policy = _policy_arg(policy)
    _check_cas_args(cas, cas_timeout)
    return _resolve(_core.answer_equivalent(a, b, *policy._native()), cas, cas_timeout)


def equivalent_batch(
    pairs: Sequence[tuple[str, str]],
    *,
    policy: Optional[Policy] = None,
    cas: bool = True,
    cas_timeout: float = DEFAULT_CAS_TIMEOUT,
    threads: Optional[int] = None,
) -> list[Judgement]:
    """:func:`equivalent` for many pairs: the native part runs in parallel on ``threads``
    workers (each distinct string is parsed once); the few CAS checks run afterwards, in order."""
    policy = _policy_arg(policy)
    _check_cas_args(cas, cas_timeout)
    if threads is not None and (not isinstance(threads, int) or isinstance(threads, bool)):
        raise TypeError(f"threads must be int or None, got {type(threads).__name__}")
    if isinstance(pairs, (str, bytes)) or not isinstance(pairs, (list, tuple)):
        pairs = _as_pair_list(pairs)
    natives = _core.answer_equivalent_batch(pairs, *policy._native(), threads)
    return [_resolve(n, cas, cas_timeout) for n in natives]


def _as_pair_list(pairs: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    if isinstance(pairs, (str, bytes)):
        raise TypeError("pairs must be a list of (str, str) tuples, got str")
    try:
        return list(pairs)
    except TypeError:
        raise TypeError(f"pairs must be a list of (str, str) tuples, got {type(pairs).__name__}") from None


def normalize(s: str) -> str:
    """The canonical string of an answer (idempotent; equal strings are equal answers)."""
    return _core.answer_normalize(s)
