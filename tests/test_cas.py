"""The sympy fallback: decisions, timeouts that kill the worker, restarts, threads, no sympy."""
from __future__ import annotations

import concurrent.futures
import threading

import pytest

from apr_fast import cas
from apr_fast.cas import CasChecker
from apr_fast.equivalence import Method, Verdict, equivalent

pytestmark = pytest.mark.skipif(not cas.sympy_available(), reason="sympy is not installed")


@pytest.fixture(scope="module")
def checker():  # type: ignore[no-untyped-def]
    c = CasChecker()
    yield c
    c.close()


def form(text: str) -> str:
    from apr_fast import _core

    f = _core.answer_to_sympy(text)
    assert f is not None, text
    return f


def test_sympy_decides_what_f64_cannot(checker: CasChecker) -> None:
    assert checker.check(form("\\sin(\\pi)"), form("0"), 30).status == "equal"
    assert checker.check(form("\\sin(\\pi)"), form("10^{-20}"), 30).status == "not_equal"
    assert checker.check(form("\\sqrt{10^{20}+1}"), form("10^{10}"), 30).status == "not_equal"


def test_integer_only_identities_stay_unknown(checker: CasChecker) -> None:
    # cos(n pi) = (-1)^n on the integers only: neither equal nor provably different.
    assert checker.check(form("\\cos(n\\pi)"), form("(-1)^n"), 30).status == "unknown"


def test_a_difference_is_shown_at_a_point_before_not_equal(checker: CasChecker) -> None:
    # sympy's equals() says False for this identity; no sample point shows a difference.
    identity = checker.check(form("\\ln|x^2-9|"), form("\\ln|x-3|+\\ln|x+3|"), 30)
    assert identity.status == "unknown"
    assert checker.check(form("\\ln|x^2-9|"), form("\\ln|x-3|+\\ln|x+4|"), 30).status == "not_equal"


def test_structures_and_relations(checker: CasChecker) -> None:
    assert checker.check(form("(\\sin(\\pi), 1)"), form("(0, 1)"), 30).status == "equal"
    assert checker.check(form("\\{\\sin(\\pi), 1\\}"), form("\\{1, 0\\}"), 30).status == "equal"
    assert checker.check(form("x = \\sin(\\pi)"), form("0"), 30).status == "equal"


def test_a_long_decimal_is_a_rounding_window_for_the_cas_too() -> None:
    # Beyond f64 natively (too_close); exactly the two differ, but the decimal stands for every
    # value that rounds to it, as natively (a checker suite's case: pi at 14 places).
    for decimal in ("3.14159265358979", "3.141592653589793", "3.1415926535897932384626433832795028841972"):
        assert equivalent("\\pi", decimal, cas=False).detail == "too_close"
        j = equivalent("\\pi", decimal)
        assert (j.verdict, j.method) == (Verdict.EQUAL, Method.SYMPY), decimal
        assert "rounds" in j.detail
        assert equivalent(decimal, "\\pi").verdict is Verdict.EQUAL
    for decimal in ("3.141592653589794", "3.1415926535897932384626433832795028841971"):
        assert equivalent("\\pi", decimal).verdict is Verdict.NOT_EQUAL, decimal
    assert equivalent("x = \\pi", "3.141592653589793").verdict is Verdict.EQUAL
    assert equivalent("(\\pi, 1)", "(3.141592653589793, 1)").verdict is Verdict.EQUAL
    # A decimal below the policy's digits is sent as its exact value, not as a window.
    from apr_fast import _core

    assert "Rounded_" not in (_core.answer_to_sympy("3.141592653589793") or "")


def test_a_rounding_window_inside_relations_and_sets_is_its_exact_value(checker: CasChecker) -> None:
    # A relation's side or an interval's end is an expression: no window there, and no error.
    third = "Rounded_(Rational(333333, 1000000), Rational(1, 2000000))"
    for a, b in [(f"Rel_('gt', S_('x'), {third})", form("x > 1/3")),
                 (f"Union_(Tuple_('(]', {third}, Integer(1)), Tuple_('[]', Integer(2), Integer(3)))",
                  form("(\\frac{1}{3}, 1] \\cup [2, 3]")),
                 (f"Set_({third}, Integer(2))", form("\\{2, \\sin(\\pi) + \\frac{1}{3}\\}"))]:
        assert checker.check(a, b, 30).status != "error", a
    assert checker.check(f"Set_({third}, Integer(2))", form("\\{2, \\sin(\\pi) + \\frac{1}{3}\\}"), 30).status == "equal"
    union = f"Union_(Tuple_('(]', {third}, Integer(1)), Tuple_('[]', Integer(2), Integer(3)))"
    assert checker.check(union, form("(0.333333, 1] \\cup [2, 3]"), 30).status == "equal"


def test_equivalent_uses_the_cas_only_when_needed() -> None:
    j = equivalent("\\sin(\\pi)", "0")
    assert (j.verdict, j.method) == (Verdict.EQUAL, Method.SYMPY)
    j = equivalent("\\frac12", "0.5")
    assert j.method is Method.NATIVE_EXACT
    # Ambiguous notation is not a CAS question.
    j = equivalent("\\log 100", "2")
    assert (j.verdict, j.method, j.detail) == (Verdict.UNKNOWN, Method.NATIVE_UNDECIDED, "ambiguous_notation")
    j = equivalent("\\sin(\\pi)", "0", cas=False)
    assert (j.verdict, j.method) == (Verdict.UNKNOWN, Method.NATIVE_UNDECIDED)


def test_hostile_input_times_out_kills_and_restarts() -> None:
    checker = CasChecker()
    try:
        result = checker.check(form("10^{10^{10}}"), form("10^{10^{10}}+1"), 1.0)
        # Either the timeout fires or the worker's memory cap does: a status either way.
        assert result.status in ("timeout", "error"), result
        assert checker.restarts >= 1 or result.status == "error"
        # The next call gets a fresh worker and a real answer.
        assert checker.check(form("\\sin(\\pi)"), form("0"), 30).status == "equal"
    finally:
        checker.close()


def test_timeouts_become_judgements() -> None:
    j = equivalent("10^{10^{10}}", "10^{10^{10}}+1", cas_timeout=0.5)
    assert j.verdict is Verdict.UNKNOWN
    assert j.method in (Method.TIMEOUT, Method.ERROR)


def test_thread_safe_and_off_the_main_thread(checker: CasChecker) -> None:
    pairs = [(form(f"\\sin({k}\\pi)"), form("0")) for k in range(1, 9)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda p: checker.check(p[0], p[1], 60).status, pairs))
    assert results == ["equal"] * len(pairs)
    seen: list[str] = []
    worker = threading.Thread(target=lambda: seen.append(checker.check(form("\\cos(\\pi)"), form("-1"), 60).status))
    worker.start()
    worker.join()
    assert seen == ["equal"]


def test_cache_answers_repeats_without_the_worker(checker: CasChecker) -> None:
    a, b = form("\\tan(\\pi)"), form("0")
    first = checker.check(a, b, 30)
    checker.close()  # no worker now: a cache hit must not need one
    assert checker.check(b, a, 30) == first


def test_without_sympy_unknown_stays_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cas, "sympy_available", lambda: False)
    result = CasChecker().check("pi", "0", 5)
    assert result.status == "unavailable" and "pip install" in result.detail
    j = equivalent("\\sin(2\\pi)", "0")
    assert (j.verdict, j.method) == (Verdict.UNKNOWN, Method.CAS_UNAVAILABLE)


def test_argument_checks(checker: CasChecker) -> None:
    with pytest.raises(TypeError, match="a must be str"):
        checker.check(1, "0", 5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="timeout"):
        checker.check("0", "0", 0)
    with pytest.raises(ValueError, match="start_timeout"):
        CasChecker(start_timeout=0)
