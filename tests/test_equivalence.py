"""Answer equivalence from Python: the API contract, the policy, and properties (hypothesis)."""
from __future__ import annotations

import dataclasses
import math
import re
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import apr_fast
from apr_fast.equivalence import Judgement, Method, Policy, Verdict, equivalent, equivalent_batch, normalize


def native(a: str, b: str, policy: Policy | None = None) -> Judgement:
    return equivalent(a, b, policy=policy, cas=False)


# --- API contract ---------------------------------------------------------------------------


def test_package_exports() -> None:
    assert apr_fast.equivalent is equivalent
    assert apr_fast.EquivalencePolicy is Policy
    assert apr_fast.normalize_answer("\\dfrac12") == normalize("\\frac{1}{2}")


def test_result_says_how_it_was_decided() -> None:
    j = native("\\dfrac{1}{2}", "0.5")
    assert (j.verdict, j.method, j.detail) == (Verdict.EQUAL, Method.NATIVE_EXACT, "exact_value")
    assert j.is_equal
    assert native("\\sqrt{2}/2", "1/\\sqrt{2}").method is Method.NATIVE_NUMERIC
    assert native("(B)", "\\text{(B)}").method is Method.NATIVE_TEXT
    j = native("\\sin(\\pi)", "0")
    assert (j.verdict, j.method, j.detail) == (Verdict.UNKNOWN, Method.NATIVE_UNDECIDED, "too_close")
    with pytest.raises(dataclasses.FrozenInstanceError):
        j.verdict = Verdict.EQUAL  # type: ignore[misc]


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: equivalent(1, "1"), "a"),  # type: ignore[arg-type]
        (lambda: equivalent("1", None), "b"),  # type: ignore[arg-type]
        (lambda: equivalent("1", "1", policy="strict"), "policy"),  # type: ignore[arg-type]
        (lambda: equivalent("1", "1", cas="yes"), "cas"),  # type: ignore[arg-type]
        (lambda: equivalent("1", "1", cas_timeout="5"), "cas_timeout"),  # type: ignore[arg-type]
        (lambda: equivalent_batch("12"), "pairs"),  # type: ignore[arg-type]
        (lambda: equivalent_batch([("1", 2)]), "pairs[0][1]"),  # type: ignore[list-item]
        (lambda: equivalent_batch([("1", "2")], threads="2"), "threads"),  # type: ignore[arg-type]
        (lambda: Policy(percent=1), "percent"),  # type: ignore[arg-type]
        (lambda: Policy(decimal_min_sig_digits=6.0), "decimal_min_sig_digits"),  # type: ignore[arg-type]
        (lambda: normalize(b"x"), "text"),  # type: ignore[arg-type]
    ],
)
def test_wrong_types_name_the_argument(call, name: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(TypeError, match=name.replace("[", r"\[").replace("]", r"\]")):
        call()


@pytest.mark.parametrize(
    "kwargs",
    [dict(percent="sometimes"), dict(units="convert"), dict(decimal_min_sig_digits=0), dict(rel_tol=0.0), dict(rel_tol=2.0)],
)
def test_bad_policy_values(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        Policy(**kwargs)  # type: ignore[arg-type]


def test_bad_values() -> None:
    with pytest.raises(ValueError, match="cas_timeout"):
        equivalent("1", "1", cas_timeout=0)
    with pytest.raises(ValueError, match="threads"):
        equivalent_batch([("1", "1")], threads=0)
    with pytest.raises(ValueError, match="2 items"):
        equivalent_batch([("1", "1", "1")])  # type: ignore[list-item]


def test_batch_matches_single_for_every_thread_count() -> None:
    answers = ["17", "\\frac{1}{2}", "0.5", "x = 3", "3", "(1, 2]", "[1, 2)", "\\{1,2\\}", "2, 1", "p - q", "\\text{Evelyn}",
               "(B)", "10\\%", "0.1", "\\sqrt{8}", "2\\sqrt{2}", "\\int x dx", "", "\\frac{"]
    pairs = [(a, b) for a in answers for b in answers]
    single = [native(a, b) for a, b in pairs]
    for threads in (1, 2, 3, 8):
        assert equivalent_batch(pairs, cas=False, threads=threads) == single
    assert equivalent_batch(tuple(pairs), cas=False) == single
    assert equivalent_batch(iter(pairs), cas=False) == single  # type: ignore[arg-type]
    assert equivalent_batch([], cas=False) == []


# --- the policy --------------------------------------------------------------------------------


def test_percent_policy() -> None:
    strict, fraction, either = Policy(), Policy(percent="as_fraction"), Policy(percent="either")
    assert native("10\\%", "10", strict).verdict is Verdict.EQUAL
    assert native("10\\%", "0.1", strict).verdict is Verdict.NOT_EQUAL
    assert native("10\\%", "1000", strict).verdict is Verdict.NOT_EQUAL
    assert native("10\\%", "0.1", fraction).verdict is Verdict.EQUAL
    assert native("10\\%", "10", fraction).verdict is Verdict.NOT_EQUAL
    assert native("10\\%", "0.1", either).verdict is Verdict.EQUAL
    assert native("10\\%", "1000", either).verdict is Verdict.NOT_EQUAL


def test_units_policy() -> None:
    assert native("12 cm", "12").verdict is Verdict.EQUAL
    assert native("12 cm", "12 \\text{ m}").verdict is Verdict.NOT_EQUAL
    assert native("12 cm", "12 \\text{ m}", Policy(units="ignore")).verdict is Verdict.EQUAL


def test_decimal_policy() -> None:
    assert native("0.333", "\\frac{1}{3}").verdict is Verdict.NOT_EQUAL
    assert native("0.333333", "\\frac{1}{3}").verdict is Verdict.EQUAL
    assert native("0.333", "\\frac{1}{3}", Policy(decimal_min_sig_digits=3)).verdict is Verdict.EQUAL
    assert native("0.5", "0.50").verdict is Verdict.EQUAL


@pytest.mark.parametrize(
    ("a", "b", "verdict"),
    [
        ("\\frac{1}{2^{99}}", "\\frac{1}{2^{98}}", Verdict.NOT_EQUAL),
        ("\\frac{1}{2004!}", "\\frac{1}{2006!}", Verdict.NOT_EQUAL),
        ("1-\\frac1{\\mathrm e}", "1+\\frac1{\\mathrm e}", Verdict.NOT_EQUAL),
        ("2,3", "2.3", Verdict.NOT_EQUAL),
        ("\\boxed{1,000}", "1000", Verdict.EQUAL),
        ("(1,2]", "[1,2)", Verdict.NOT_EQUAL),
        ("\\{1,2\\}", "\\{2,1\\}", Verdict.EQUAL),
        ("x = 3", "3", Verdict.EQUAL),
        ("x=3 \\text{ or } x=-2", "-2, 3", Verdict.EQUAL),
        ("y = 2x + 3", "2x - y + 3 = 0", Verdict.EQUAL),
        ("x > 3", "(3, \\infty)", Verdict.EQUAL),
        ("\\textbf{(B)}", "B", Verdict.EQUAL),
        ("\\text{Evelyn}", "evelyn", Verdict.EQUAL),
        ("p - q", "q - p", Verdict.NOT_EQUAL),
        ("\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}", "(1, 2)", Verdict.EQUAL),
        ("7\\frac{3}{4}", "7.75", Verdict.EQUAL),
        ("10^{10^{10}}", "10^{10^{10}}+1", Verdict.UNKNOWN),
    ],
)
def test_named_traps(a: str, b: str, verdict: Verdict) -> None:
    assert native(a, b).verdict is verdict
    assert native(b, a).verdict is verdict


# --- properties ----------------------------------------------------------------------------------

latex_atoms = st.one_of(
    st.integers(-10**6, 10**6).map(str),
    st.builds(lambda a, b: f"\\frac{{{a}}}{{{b}}}", st.integers(0, 999), st.integers(1, 999)),
    st.sampled_from(["\\pi", "e", "\\sqrt{2}", "x", "y_{1}", "\\theta", "i", "\\infty", "\\ln 2", "3!", "0.125"]),
)


def _compose(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.builds(lambda a, b: f"{a}+{b}", children, children),
        st.builds(lambda a, b: f"{a} - {b}", children, children),
        st.builds(lambda a, b: f"\\dfrac{{{a}}}{{{b}}}", children, children),
        st.builds(lambda a: f"\\left({a}\\right)^{{2}}", children),
        st.builds(lambda a: f"\\sqrt{{{a}}}", children),
        st.builds(lambda a, b: f"({a}, {b}]", children, children),
        st.builds(lambda a, b: f"\\{{{a}, {b}\\}}", children, children),
    )


latex = st.recursive(latex_atoms, _compose, max_leaves=8)
noise = st.lists(
    st.sampled_from(list("\\{}()[]^_$,.=+-*/ 0123456789abcxyzπ√∞²−°%;µΩ") + ["\\frac", "\\left", "\\text{", "\\sqrt", "\\,", "{,}", "\\\\frac", "\\\\le",
                                                                              "\\SI{", "\\num{", "\\si{", "\\ang{", "\\kilo", "\\metre", "\\per", "\\squared",
                                                                              "\\mu", "\\Omega", "\\mathrm{", "[", "MW", "mW", "e3",
                                                                              " million", " hundred", "dozen ", "\\text{ billion", " squared", " thirds",
                                                                              "{:}", ":0", " below", " square"]),
    max_size=30,
).map("".join)
FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# Recursive strategies have long reprs; hypothesis warns about building them.
pytestmark = pytest.mark.filterwarnings("ignore:Generating overly large repr")


@FAST
@given(st.one_of(latex, noise, st.text(max_size=40)))
def test_normalize_is_idempotent(s: str) -> None:
    once = normalize(s)
    assert normalize(once) == once


@FAST
@given(latex)
def test_reflexive(s: str) -> None:
    assert native(s, s).verdict is Verdict.EQUAL


@FAST
@given(st.one_of(latex, noise), st.one_of(latex, noise))
def test_symmetric(a: str, b: str) -> None:
    assert native(a, b).verdict is native(b, a).verdict


def _decimal(q: Fraction) -> str | None:
    for digits in range(0, 10):
        scaled = q * 10**digits
        if scaled.denominator == 1:
            sign = "-" if q < 0 else ""
            whole, frac = divmod(abs(scaled.numerator), 10**digits)
            return f"{sign}{whole}" + (f".{frac:0{digits}d}" if digits else "")
    return None


@FAST
@given(st.integers(-10**6, 10**6), st.sampled_from([1, 2, 4, 5, 8, 10, 16, 20, 25, 40, 125, 1000]))
def test_fraction_and_decimal_rewritings(n: int, d: int) -> None:
    q = Fraction(n, d)
    decimal = _decimal(q)
    assert decimal is not None
    fraction = f"\\frac{{{n}}}{{{d}}}"
    for rewriting in (decimal, f"\\dfrac{{{n}}}{{{d}}}", f"\\left( {fraction} \\right)", f"x = {decimal}", f"{n}/{d}"):
        assert native(fraction, rewriting).verdict is Verdict.EQUAL, rewriting


# siunitx units and the plain notation they typeset; the first six are units proper.
SIUNITX_UNITS = [
    ("\\kilo\\metre", "\\mathrm{km}"),
    ("\\metre\\per\\second\\squared", "\\mathrm{m/s^2}"),
    ("\\micro\\metre", "\\mu\\mathrm{m}"),
    ("\\kilo\\ohm", "\\mathrm{k\\Omega}"),
    ("\\milli\\watt", "\\text{ mW}"),
    ("\\mega\\watt", "\\text{ MW}"),
    ("\\percent", "\\%"),
    ("\\degreeCelsius", "^\\circ\\mathrm{C}"),
]


@FAST
@given(n=st.integers(-10**6, 10**6), d=st.sampled_from([1, 10, 100, 1000]),
       unit=st.integers(0, len(SIUNITX_UNITS) - 1), other=st.integers(0, 5))
def test_siunitx_quantities_are_their_plain_notation(n: int, d: int, unit: int, other: int) -> None:
    value, next_value = _decimal(Fraction(n, d)), _decimal(Fraction(n + 1, d))
    macro, plain = SIUNITX_UNITS[unit]
    quantity = f"\\SI{{{value}}}{{{macro}}}"
    assert native(f"\\num{{{value}}}", str(value)).verdict is Verdict.EQUAL
    assert native(quantity, f"{value}\\,{plain}").verdict is Verdict.EQUAL
    assert native(f"\\qty{{{value}}}{{{macro}}}", quantity).verdict is Verdict.EQUAL
    assert native(quantity, f"{next_value}\\,{plain}").verdict is Verdict.NOT_EQUAL
    if unit < 6 and other != unit:
        # Another unit, the prefix's case included (`mW` is not `MW`).
        assert native(quantity, f"{value}\\,{SIUNITX_UNITS[other][1]}").verdict is Verdict.NOT_EQUAL


SCALE_WORDS = [("hundred", 10**2), ("thousand", 10**3), ("million", 10**6), ("billion", 10**9), ("dozen", 12)]


@FAST
@given(n=st.integers(1, 10**4), d=st.sampled_from([1, 10, 100]), scale=st.integers(0, len(SCALE_WORDS) - 1),
       form=st.sampled_from(["{v} {w}", "{v}\\text{{ {w}}}", "{v} {w}s", "\\${v} {w}"]))
def test_a_scale_word_multiplies_its_numeral(n: int, d: int, scale: int, form: str) -> None:
    word, factor = SCALE_WORDS[scale]
    value = _decimal(Fraction(n, d))
    written = form.format(v=value, w=word)
    assert native(written, _decimal(Fraction(n * factor, d))).verdict is Verdict.EQUAL, written
    # The numeral alone is another value (it was "equal", the word dropped as a noun).
    assert native(written, str(value)).verdict is Verdict.NOT_EQUAL, written
    assert native(written, _decimal(Fraction((n + 1) * factor, d))).verdict is Verdict.NOT_EQUAL, written


VALUE_WORDS = [("squared", lambda n: Fraction(n**2)), ("cubed", lambda n: Fraction(n**3)),
               ("thirds", lambda n: Fraction(n, 3)), ("tenths", lambda n: Fraction(n, 10)),
               ("hundredths", lambda n: Fraction(n, 100))]


@FAST
@given(n=st.integers(2, 10**4), word=st.integers(0, len(VALUE_WORDS) - 1), text=st.booleans())
def test_power_and_fraction_words_change_the_numeral(n: int, word: int, text: bool) -> None:
    name, value = VALUE_WORDS[word]
    written = f"{n}\\text{{ {name}}}" if text else f"{n} {name}"
    q = value(n)
    assert native(written, f"\\frac{{{q.numerator}}}{{{q.denominator}}}").verdict is Verdict.EQUAL, written
    # It was "equal" to the bare numeral, the word dropped as a noun.
    assert native(written, str(n)).verdict is Verdict.NOT_EQUAL, written


@FAST
@given(st.integers(1000, 10**12))
def test_thousands_separator_rewritings(n: int) -> None:
    grouped = f"{n:,}"
    for rewriting in (grouped, grouped.replace(",", "\\,"), grouped.replace(",", "{,}"), grouped.replace(",", ",\\!"),
                      grouped.replace(",", " "), grouped.replace(",", " {, }")):
        assert native(str(n), rewriting).verdict is Verdict.EQUAL, rewriting
    # Two numbers in a row stay two: normalize renders them apart, and reads its output back alike.
    spaced = grouped.replace(",", " ")
    assert normalize(normalize(spaced + "\n" + "123")) == normalize(spaced + "\n" + "123")


@FAST
@given(label=st.sampled_from(["AB", "|AB|", "\\frac{NO}{BO}", "xy", "a_1 a_2", "PD"]),
       n=st.integers(-10**6, 10**6), d=st.integers(1, 50))
def test_a_labelled_value_states_its_value(label: str, n: int, d: int) -> None:
    value = f"\\frac{{{n}}}{{{d}}}"
    assert native(f"{label} = {value}", value).verdict is Verdict.EQUAL
    assert native(f"{label} = {value}", f"\\frac{{{n + 1}}}{{{d}}}").verdict is Verdict.NOT_EQUAL
    # An approximation written after the value does not replace it.
    approx = f"{n / d:.3f}"
    assert native(f"{label} = {value} \\approx {approx}", value).verdict is Verdict.EQUAL


@FAST
@given(p=st.integers(1, 10**4), q=st.integers(1, 10**4), k=st.integers(2, 50),
       label=st.sampled_from(["A:B", "V_1 : V_2", "AB:BC", "S_{ABC}:S"]))
def test_a_ratio_is_its_quotient_unless_it_may_be_a_time(p: int, q: int, k: int, label: str) -> None:
    clock_like = len(str(p)) <= 2 and len(str(q)) == 2 and q <= 59  # h:mm
    quotient = native(f"{p}:{q}", f"\\frac{{{p}}}{{{q}}}").verdict
    assert quotient is (Verdict.UNKNOWN if clock_like else Verdict.EQUAL)
    assert native(f"{p}:{q}", f"{p} : {q}").verdict is Verdict.EQUAL
    assert native(f"{label} = {p}:{q}", f"{p}:{q}").verdict is Verdict.EQUAL
    scaled = f"{k * p}:{k * q}"
    scaled_clock = len(str(k * p)) <= 2 and len(str(k * q)) == 2 and k * q <= 59
    expected = Verdict.UNKNOWN if clock_like or scaled_clock else Verdict.EQUAL
    assert native(f"{p}:{q}", scaled).verdict is expected
    assert native(f"{p}:{q}", f"{p}:{q + 1}").verdict is not Verdict.EQUAL
    if not clock_like:
        assert native(f"{p}:{q}", f"\\frac{{{p + 1}}}{{{q}}}").verdict is Verdict.NOT_EQUAL
    # Three terms and a zero second term are no ratio.
    assert native(f"{p}:{q}:{k}", f"{k * p}:{k * q}:{k * k}").verdict is Verdict.UNKNOWN
    assert native(f"{p}:0", str(p)).verdict is Verdict.UNKNOWN


@FAST
@given(whole=st.integers(0, 10**6), den=st.integers(2, 10**4), data=st.data())
def test_a_mixed_number_is_its_whole_plus_its_proper_fraction(whole: int, den: int, data: st.DataObject) -> None:
    num = data.draw(st.integers(0, den - 1))
    value = Fraction(whole) + Fraction(num, den)
    text = f"{whole} {num}/{den}"
    assert native(text, f"\\frac{{{value.numerator}}}{{{value.denominator}}}").verdict is Verdict.EQUAL
    assert native(f"-{text}", f"{-value.numerator}/{value.denominator}").verdict is Verdict.EQUAL
    assert native(text, f"{whole}\\frac{{{num}}}{{{den}}}").verdict is Verdict.EQUAL
    if num:
        assert native(text, str(whole)).verdict is Verdict.NOT_EQUAL
    # An improper fraction or a line break makes no mixed number: never combined.
    improper = f"{whole} {den + num}/{den}"
    assert native(improper, f"{whole * den + den + num}/{den}").verdict is not Verdict.EQUAL
    assert native(f"{whole}\n{num}/{den}", f"{value.numerator}/{value.denominator}").verdict is not Verdict.EQUAL


@FAST
@given(a=st.integers(-10**6, 10**6), b=st.integers(1, 10**6), op=st.sampled_from(["+", "-", "\\cdot", "/"]), delta=st.integers(1, 50))
def test_a_true_computation_states_its_result(a: int, b: int, op: str, delta: int) -> None:
    result = {"+": Fraction(a + b), "-": Fraction(a - b), "\\cdot": Fraction(a * b), "/": Fraction(a, b)}[op]
    value = f"\\frac{{{result.numerator}}}{{{result.denominator}}}"
    other = f"\\frac{{{result.numerator + delta * result.denominator}}}{{{result.denominator}}}"
    chain = f"{a} {op} {b} = {value}"
    assert native(chain, value).verdict is Verdict.EQUAL
    assert native(chain, f"x = {value}").verdict is Verdict.EQUAL
    assert native(chain, other).verdict is Verdict.NOT_EQUAL
    # A false computation states nothing, not even its right-hand side.
    assert native(f"{a} {op} {b} = {other}", other).verdict is not Verdict.EQUAL


@FAST
@given(a=st.integers(-1000, 1000), gap=st.integers(0, 1000), var=st.sampled_from(["x", "t", "y"]))
def test_disjoint_inequalities_are_alternatives(a: int, gap: int, var: str) -> None:
    b = a + gap
    union = f"(-\\infty,{a})\\cup({b},\\infty)"
    assert native(f"{var}<{a} \\text{{ or }} {var}>{b}", union).verdict is Verdict.EQUAL
    assert native(f"{var}>{b} \\text{{ or }} {var}<{a}", union).verdict is Verdict.EQUAL
    assert native(f"{var}<{a} \\text{{ or }} {var}>{b}", f"(-\\infty,{a}]\\cup({b},\\infty)").verdict is Verdict.NOT_EQUAL
    # Overlapping bounds may be an "and": never read as the union.
    assert native(f"{var}<{b + 1} \\text{{ or }} {var}>{a - 1}", "\\mathbb{R}").verdict is not Verdict.EQUAL


@FAST
@given(a=st.integers(-50, 50), gap=st.integers(1, 50), var=st.sampled_from(["x", "t", "y"]), form=st.sampled_from(["product", "expanded"]))
def test_a_condition_equals_its_solution_set(a: int, gap: int, var: str, form: str) -> None:
    b = a + gap
    # (v - a)(v - b), written as a product or expanded.
    p = f"({var} - ({a}))({var} - ({b}))" if form == "product" else f"{var}^2 - ({a + b}){var} + ({a * b})"
    assert native(f"{p} < 0", f"({a}, {b})").verdict is Verdict.EQUAL
    assert native(f"{p} \\le 0", f"[{a}, {b}]").verdict is Verdict.EQUAL
    assert native(f"{p} > 0", f"{var} < {a} \\text{{ or }} {var} > {b}").verdict is Verdict.EQUAL
    assert native(f"{p} = 0", f"{var} = {a} \\text{{ or }} {var} = {b}").verdict is Verdict.EQUAL
    assert native(f"{p} = 0", f"\\{{{b}, {a}\\}}").verdict is Verdict.EQUAL
    # A perturbed bound, a lost root, an open end made closed: different solution sets.
    assert native(f"{p} < 0", f"({a}, {b + 1})").verdict is Verdict.NOT_EQUAL
    assert native(f"{p} = 0", f"{var} = {b}").verdict is Verdict.NOT_EQUAL
    assert native(f"{p} < 0", f"({a}, {b}]").verdict is Verdict.NOT_EQUAL
    # Grading: a response that boxes the condition it was asked to solve does not answer it.
    restated = apr_fast.is_correct(f"\\boxed{{{p} < 0}}", f"({a}, {b})", cas=False)
    assert not restated.correct
    assert restated.judgement is not None and restated.judgement.detail == "unsolved_condition"
    assert apr_fast.is_correct(f"\\boxed{{{a} < {var} < {b}}}", f"({a}, {b})", cas=False).correct


def _tex(q: Fraction) -> str:
    return f"({q.numerator})" if q.denominator == 1 else f"(\\frac{{{q.numerator}}}{{{q.denominator}}})"


@FAST
@given(a=st.fractions(-1000, 1000, max_denominator=20), g1=st.fractions(Fraction(1, 20), 1000, max_denominator=20),
       g2=st.fractions(Fraction(1, 20), 1000, max_denominator=20))
def test_cubic_rational_and_absolute_conditions_equal_their_solution_sets(a: Fraction, g1: Fraction, g2: Fraction) -> None:
    b, c = a + g1, a + g1 + g2
    A, B, C = _tex(a), _tex(b), _tex(c)
    cubic = f"(x - {A})(x - {B})(x - {C}) > 0"
    assert native(cubic, f"({A}, {B}) \\cup ({C}, \\infty)").verdict is Verdict.EQUAL
    assert native(cubic, f"({A}, {B}] \\cup ({C}, \\infty)").verdict is Verdict.NOT_EQUAL
    # A pole is never a solution: the quotient is undefined there.
    quotient = f"\\frac{{x - {A}}}{{x - {B}}}"
    assert native(f"{quotient} \\ge 0", f"x \\le {A} \\text{{ or }} x > {B}").verdict is Verdict.EQUAL
    assert native(f"{quotient} \\ge 0", f"x \\le {A} \\text{{ or }} x \\ge {B}").verdict is Verdict.NOT_EQUAL
    absolute = f"|x - {B}| < {_tex(g1)}"
    assert native(absolute, f"({A}, {_tex(b + g1)})").verdict is Verdict.EQUAL
    assert native(absolute, f"[{A}, {_tex(b + g1)})").verdict is Verdict.NOT_EQUAL


@FAST
@given(whole=st.integers(0, 999), fixed=st.text("0123456789", max_size=4), period=st.text("0123456789", min_size=1, max_size=6),
       spelling=st.sampled_from(["\\overline{{{}}}", "\\overline{{{}}}{}"]))
def test_a_repeating_decimal_is_its_fraction(whole: int, fixed: str, period: str, spelling: str) -> None:
    # whole.fixed(period)(period)... = whole + (fixed period - fixed) / (10^|fixed| (10^|period| - 1))
    value = whole + Fraction(int(fixed + period) - int(fixed or "0"), 10 ** len(fixed) * (10 ** len(period) - 1))
    text = f"{whole}.{fixed}" + spelling.format(period, "")
    assert native(text, f"\\frac{{{value.numerator}}}{{{value.denominator}}}").verdict is Verdict.EQUAL
    assert native(text, f"{value.numerator + 1}/{value.denominator}").verdict is Verdict.NOT_EQUAL
    # With an ellipsis, a digit written three times repeats (longer blocks written twice can
    # read as a shorter period, `0.10001000...`: see the Rust tests).
    digit = period[-1]
    value = whole + Fraction(int(fixed + digit) - int(fixed or "0"), 10 ** len(fixed) * 9)
    assert native(f"{whole}.{fixed}{digit * 3}...", f"{value.numerator}/{value.denominator}").verdict is Verdict.EQUAL


@FAST
@given(low=st.integers(-20, 20), count=st.integers(0, 100), a=st.integers(-9, 9), b=st.integers(-9, 9),
       power=st.integers(0, 3), index=st.sampled_from(["k", "i", "n"]))
def test_a_finite_sum_or_product_is_written_out(low: int, count: int, a: int, b: int, power: int, index: str) -> None:
    high = low + count - 1
    terms = [a * k**power + b for k in range(low, high + 1)]
    body = f"({a}{index}^{{{power}}} + {b})"
    total = native(f"\\sum_{{{index}={low}}}^{{{high}}} {body}", str(sum(terms)))
    assert total.verdict is Verdict.EQUAL
    assert native(f"\\sum_{{{index}={low}}}^{{{high}}} {body}", str(sum(terms) + 1)).verdict is Verdict.NOT_EQUAL
    product = math.prod(terms)
    if abs(product) < 10**300:
        assert native(f"\\prod_{{{index}={low}}}^{{{high}}} {body}", str(product)).verdict is Verdict.EQUAL


@FAST
@given(names=st.sampled_from([("p", "q"), ("x", "y"), ("a", "b")]),
       points=st.lists(st.tuples(st.integers(-99, 99), st.integers(-99, 99)), min_size=2, max_size=4, unique=True))
def test_semicolon_groups_of_assignments_are_solutions(names: tuple[str, str], points: list[tuple[int, int]]) -> None:
    u, v = names
    grouped = "; ".join(f"{u}={a}, {v}={b}" for a, b in points)
    tuples = ", ".join(f"({a}, {b})" for a, b in reversed(points))
    assert native(grouped, tuples).verdict is Verdict.EQUAL
    moved = [(a + 1, b) for a, b in points[:1]] + points[1:]
    if len(set(moved)) == len(moved) and moved[0] not in points:
        assert native(grouped, ", ".join(f"({a}, {b})" for a, b in moved)).verdict is Verdict.NOT_EQUAL


@FAST
@given(latex)
def test_wrapping_rewritings(s: str) -> None:
    for rewriting in (f"\\boxed{{{s}}}", f"\\displaystyle {s}", s.replace("\\frac", "\\dfrac"), f"$ {s} $"):
        assert native(s, rewriting).verdict is Verdict.EQUAL, rewriting


@FAST
@given(latex)
def test_unicode_spellings_of_roots_and_subscripts(s: str) -> None:
    # Plain-text writers: `√(...)` for `\\sqrt{(...)}`, `∛(...)` for `\\sqrt[3]{(...)}`, `y₁₂` for `y_{12}`.
    assert normalize(f"√({s})") == normalize(f"\\sqrt{{({s})}}")
    assert normalize(f"∛({s})") == normalize(f"\\sqrt[3]{{({s})}}")
    assert normalize(f"y₁₂ + {s}") == normalize(f"y_{{12}} + {s}")


@FAST
@given(latex, st.integers(2, 99))
def test_square_brackets_group_like_parentheses(s: str, k: int) -> None:
    assume("," not in s)  # one expression, not a tuple, interval or set
    product = f"{k} \\cdot ({s})"
    # Decided when written with parentheses (`2 \cdot (\infty)` is left undecided).
    assume(native(f"{k}\\left({s}\\right)", product).verdict is Verdict.EQUAL)
    assert native(f"{k}[{s}]", product).verdict is Verdict.EQUAL


@FAST
@given(latex)
def test_latex_escaped_twice_is_the_same_answer(s: str) -> None:
    # A JSON or Python string printed raw doubles every backslash: `\\frac{1}{2}`.
    assume(re.search(r"\\[a-zA-Z]{2}", s) is not None)
    doubled = s.replace("\\", "\\\\")
    assert native(s, doubled).verdict is Verdict.EQUAL, doubled
    assert normalize(doubled) == normalize(s)


@FAST
@given(st.integers(-10**9, 10**9), st.integers(1, 10**6), st.sampled_from([1, 3, 7, 1000]))
def test_perturbed_values_differ(n: int, delta: int, d: int) -> None:
    assert native(f"\\frac{{{n}}}{{{d}}}", f"\\frac{{{n + delta}}}{{{d}}}").verdict is Verdict.NOT_EQUAL
    assert native(f"{n}\\sqrt{{2}}", f"{n + delta}\\sqrt{{2}}").verdict is Verdict.NOT_EQUAL
    # Exponents small enough for the evaluation points (x^65534 overflows at every point: unknown).
    k = delta % 60 + 1
    assert native(f"x^{{{k}}}", f"x^{{{k + 1}}}").verdict is Verdict.NOT_EQUAL


@settings(max_examples=200, deadline=None)
@given(threshold=st.integers(min_value=31, max_value=10**9), var=st.sampled_from(["x", "n", "t", "a_1"]))
def test_a_max_min_or_abs_seen_on_one_branch_is_never_equal(threshold: int, var: str) -> None:
    """The evaluation points are positive and below about 30: beyond a kink they never reach,
    the sides differ, so agreement at the points must not make them equal."""
    for a, b in [
        (f"\\max({var}, {threshold})", f"{threshold}"),
        (f"\\min({var}, {threshold})", var),
        (f"|{var} - {threshold}|", f"{threshold} - {var}"),
    ]:
        for x, y in [(a, b), (b, a)]:
            j = native(x, y)
            assert j.verdict is Verdict.UNKNOWN and j.detail == "one_branch", (x, y, j)


def test_the_cas_settles_one_branch_unknowns_but_never_as_equal_when_they_differ() -> None:
    # Variables are positive quantities: |x| is x there, which the CAS (positive symbols) shows.
    assert native("|x|", "x").detail == "one_branch"
    assert equivalent("|x|", "x", cas=True).verdict is Verdict.EQUAL
    for a, b in [("\\max(x, 1000)", "1000"), ("|x - 50|", "50 - x")]:
        assert equivalent(a, b, cas=True).verdict is not Verdict.EQUAL


def test_kinks_crossed_by_the_points_still_prove_identities() -> None:
    for a, b in [("|x-3|", "|3-x|"), ("\\max(x,y)+\\min(x,y)", "x+y"), ("\\max(x, 1)", "\\frac{x + 1 + |x - 1|}{2}")]:
        assert native(a, b).verdict is Verdict.EQUAL, (a, b)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.sampled_from([3, 5, 7]), st.integers(-4, 4))
def test_odd_roots_of_negative_bases_are_real(k: int, q: int, p: int) -> None:
    # (-k^q)^{p/q} = (-k)^p, as \sqrt[q]{-k^q} = -k: school algebra, not the principal branch.
    assume(p != 0 and math.gcd(p, q) == 1)
    power = f"(-{k ** q})^{{{p}/{q}}}"
    expected = f"{(-k) ** p}" if p > 0 else f"\\frac{{1}}{{{(-k) ** -p}}}"
    assert equivalent(power, expected, cas=False).verdict == Verdict.EQUAL
    assert equivalent(power, f"(\\sqrt[{q}]{{-{k ** q}}})^{{{p}}}", cas=False).verdict == Verdict.EQUAL


@pytest.mark.parametrize(
    ("damaged", "meant"),
    [
        ("\\\\dfrac{1}{2} + \\frac{1}{72}", "\\frac{1}{2} + \\frac{1}{72}"),  # some commands escaped twice
        ("\x0crac{\\sqrt{17}}{17}", "\\frac{\\sqrt{17}}{17}"),  # \f read as a form feed
        ("\x08inom{5}{2}", "\\binom{5}{2}"),  # \b read as a backspace
        ("2\times 3", "2 \\times 3"),  # \t read as a tab
        ("x\neq 2", "x \\neq 2"),  # \n read as a line feed
    ],
)
def test_backslashes_damaged_by_string_escaping(damaged: str, meant: str) -> None:
    assert equivalent(damaged, meant, cas=False).verdict == Verdict.EQUAL
    assert normalize(damaged) == normalize(meant)
