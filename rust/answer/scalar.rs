//! One scalar value of an answer, evaluated once at parse time, and the comparison of two.
//!
//! At parse time a scalar gets, for every reading of its ambiguous notation (see
//! [`super::expr`]): its exact rational value when it has one, a certified numeric ball, and —
//! when it has free variables — its values at [`REAL_POINTS`] pseudo-random positive real points
//! and [`INTEGER_POINTS`] integer points. Each variable's value at a point depends only on its
//! name, so two answers parsed separately are evaluated at the same points and comparing them is
//! a few float comparisons.
//!
//! Deciding:
//! - both exact: exact comparison, with the decimal policy (a decimal literal of at least
//!   `decimal_min_sig_digits` significant digits equals the exact values that round to it);
//! - constants: ball comparison with a relative criterion, or rounding for long decimals;
//! - free variables: equal when every real point agrees (a probabilistic identity test); not
//!   equal when some real point clearly differs *and* some integer point clearly differs
//!   (identities that hold on the integers only, like `\cos(n\pi) = (-1)^n`, stay Unknown).

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use std::sync::OnceLock;

use super::exact::{self, Exact, ExactError, NoSymbols, SymbolValues};
use super::expr::{Decimal, Expr, ExprInfo, Func, Readings, Symbol, ALL_READINGS};
use super::interval::{self, Refined};
use super::judgement::{Judgement, Method, Reason, Verdict};
use super::magnitude;
use super::numeric::{self, compare_balls, Ball, BallOrder, PointValues};
use super::policy::{PercentPolicy, Policy, UnitsPolicy};
use super::rational;

pub const REAL_POINTS: usize = 6;
pub const INTEGER_POINTS: usize = 4;
/// Agreement is only trusted on at least this many points where both sides are defined.
const MIN_DEFINED_POINTS: usize = 3;
/// Scales of the real points: identities are probed at small, unit-size and large values.
const POINT_SCALES: [f64; REAL_POINTS] = [1.0, 2.7, 0.45, 7.3, 1.6, 13.0];

fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The value of a variable at real point `k`: positive, in `scale·[0.7, 2.2)`. Dyadic (a multiple
/// of 2^-20), so it is exact in f64 and its ball has radius zero.
pub fn real_point_value(symbol: &Symbol, k: usize) -> f64 {
    let u = (splitmix(symbol.hash ^ (k as u64).wrapping_mul(0x2545_f491_4f6c_dd1d)) >> 11) as f64 / (1u64 << 53) as f64;
    let v = POINT_SCALES[k] * (0.7 + 1.5 * u);
    (v * 1_048_576.0).round() / 1_048_576.0
}

/// The value of a variable at integer point `k`: an integer in 2..=13.
pub fn integer_point_value(symbol: &Symbol, k: usize) -> i64 {
    2 + (splitmix(symbol.hash.rotate_left(17) ^ (k as u64 + 101)) % 12) as i64
}

struct RealPoint(usize);

impl PointValues for RealPoint {
    fn ball(&self, symbol: &Symbol) -> Option<Ball> {
        Some(Ball::exact_real(real_point_value(symbol, self.0)))
    }
}

struct IntegerPoint(usize);

impl PointValues for IntegerPoint {
    fn ball(&self, symbol: &Symbol) -> Option<Ball> {
        Some(Ball::exact_real(integer_point_value(symbol, self.0) as f64))
    }
}

impl SymbolValues for IntegerPoint {
    fn exact(&self, symbol: &Symbol) -> Option<BigRational> {
        Some(BigRational::from_integer(BigInt::from(integer_point_value(symbol, self.0))))
    }
}

/// A value at one evaluation point.
#[derive(Debug, Clone, PartialEq)]
pub enum PointValue {
    Exact(BigRational),
    Approx(Ball),
    Undefined,
}

impl PointValue {
    fn ball(&self) -> Option<Ball> {
        match self {
            PointValue::Exact(r) => Ball::from_rational(r),
            PointValue::Approx(b) => Some(*b),
            PointValue::Undefined => None,
        }
    }
}

/// Everything known about a scalar under one reading.
#[derive(Debug, Clone)]
pub struct Values {
    /// The exact value (constants only).
    pub exact: Exact,
    /// The certified numeric value (constants only).
    pub ball: Option<Ball>,
    /// The reading these values are of.
    readings: Readings,
    /// The values at the evaluation points: expressions with free variables only (a constant
    /// has its own value at every point), out of line so that the many constants stay small.
    points: Option<Box<Points>>,
    /// Divided by 100 (a percentage read as a fraction): applies to the points too.
    percent_scaled: bool,
}

/// The values of an expression with free variables at the evaluation points, each computed on
/// first use.
#[derive(Debug, Clone, Default)]
struct Points {
    /// At the real points ([`Values::real_point`]): a comparison stops at the first point that
    /// differs, and most candidates of an anchor search that have variables differ from the
    /// reference at the first.
    real: [OnceLock<Option<Ball>>; REAL_POINTS],
    /// At the integer points ([`Values::integer_point`]): exact evaluation is costly, only needed
    /// once the real points disagree, and usually the first integer point already shows a
    /// difference.
    integer: [OnceLock<PointValue>; INTEGER_POINTS],
}

impl Values {
    fn of(expr: &Expr, readings: Readings, free_symbols: bool) -> Values {
        if !free_symbols {
            let exact = exact::evaluate(expr, readings, &NoSymbols);
            let ball = match &exact {
                Ok(r) => Ball::from_rational(r).or_else(|| numeric::evaluate(expr, readings, &RealPoint(0))),
                Err(_) => numeric::evaluate(expr, readings, &RealPoint(0)),
            };
            return Values { exact, ball, readings, points: None, percent_scaled: false };
        }
        Values {
            exact: Err(ExactError::Symbolic),
            ball: None,
            readings,
            points: Some(Box::default()),
            percent_scaled: false,
        }
    }

    /// The value at real point `k` of `expr` (the expression these values are of).
    pub(super) fn real_point(&self, k: usize, expr: &Expr) -> Option<Ball> {
        let Some(points) = &self.points else { return self.ball };
        *points.real[k].get_or_init(|| {
            let value = numeric::evaluate(expr, self.readings, &RealPoint(k));
            if self.percent_scaled {
                value.and_then(hundredth)
            } else {
                value
            }
        })
    }

    /// The value at integer point `k` of `expr` (the expression these values are of); `None`
    /// for constants.
    fn integer_point(&self, k: usize, expr: &Expr) -> Option<&PointValue> {
        let points = self.points.as_ref()?;
        Some(points.integer[k].get_or_init(|| {
            let value = match exact::evaluate(expr, self.readings, &IntegerPoint(k)) {
                Ok(r) => PointValue::Exact(r),
                Err(ExactError::Undefined) => PointValue::Undefined,
                Err(_) => numeric::evaluate(expr, self.readings, &IntegerPoint(k))
                    .map_or(PointValue::Undefined, PointValue::Approx),
            };
            if !self.percent_scaled {
                return value;
            }
            match value {
                PointValue::Exact(r) => PointValue::Exact(r / BigRational::from_integer(BigInt::from(100))),
                PointValue::Approx(b) => hundredth(b).map_or(PointValue::Undefined, PointValue::Approx),
                PointValue::Undefined => PointValue::Undefined,
            }
        }))
    }

    pub(super) fn has_points(&self) -> bool {
        self.points.is_some()
    }

    /// The value divided by 100 (a percentage read as a fraction).
    fn percent_of(&self) -> Values {
        let hundred = BigRational::from_integer(BigInt::from(100));
        Values {
            exact: self.exact.clone().map(|r| r / &hundred),
            ball: self.ball.and_then(hundredth),
            readings: self.readings,
            // Each point is scaled when it is computed.
            points: self.points.as_ref().map(|_| Box::default()),
            percent_scaled: true,
        }
    }
}

/// A numeric value divided by 100 (a percentage read as a fraction).
fn hundredth(b: Ball) -> Option<Ball> {
    b.div(Ball::exact_real(100.0))
}

/// One scalar value of an answer with its notation-level attributes.
#[derive(Debug, Clone)]
pub struct Scalar {
    pub expr: Expr,
    pub info: ExprInfo,
    /// Set when the whole scalar is a decimal literal (`0.333`, `-8.7 \times 10^{8}`).
    pub decimal: Option<Decimal>,
    /// Written with a trailing `\%`.
    pub percent: bool,
    /// A trailing unit, canonical (`cm`, `inch^2`, `degree`).
    pub unit: Option<String>,
    /// ±1 when the scalar is `\pm\infty`.
    pub infinity: Option<i8>,
    /// Values under each combination of this scalar's own readings, computed on first use:
    /// most candidates of an anchor search are told apart from the reference by shape or by a
    /// cheap exact comparison, and never need their numeric or random-point values.
    values: OnceLock<Vec<(Readings, Values)>>,
}

impl Scalar {
    pub fn new(expr: Expr, percent: bool, unit: Option<String>) -> Scalar {
        let info = expr.info();
        Scalar::with_info(expr, info, percent, unit)
    }

    /// [`Scalar::new`] of an expression whose [`Expr::info`] is known.
    pub(super) fn with_info(expr: Expr, info: ExprInfo, percent: bool, unit: Option<String>) -> Scalar {
        debug_assert_eq!(info, expr.info());
        let decimal = decimal_literal(&expr);
        let infinity = expr.infinity_sign();
        Scalar { expr, info, decimal, percent, unit, infinity, values: OnceLock::new() }
    }

    fn all_values(&self) -> &[(Readings, Values)] {
        self.values.get_or_init(|| {
            let own = self.info.readings;
            (0..=ALL_READINGS)
                .filter(|r| r & !own == 0)
                .map(|r| (r, Values::of(&self.expr, r, self.info.free_symbols)))
                .collect()
        })
    }

    /// The values under `readings` (bits of other notations are ignored).
    pub fn values(&self, readings: Readings) -> &Values {
        let own = readings & self.info.readings;
        let all = self.all_values();
        all.iter().find(|(r, _)| *r == own).map_or(&all[0].1, |(_, v)| v)
    }

    /// The exact value under the primary reading, if the scalar is a rational constant.
    pub fn exact(&self) -> Option<&BigRational> {
        self.values(0).exact.as_ref().ok()
    }

    /// The numeric value under the primary reading, if the scalar is a constant.
    pub fn ball(&self) -> Option<Ball> {
        self.values(0).ball
    }

    pub fn is_constant(&self) -> bool {
        !self.info.free_symbols
    }
}

/// Recognises a whole-scalar decimal literal: `d`, `-d`, `d \times 10^{k}` (d with a decimal
/// point; an integer mantissa makes an exact value, not a decimal one).
fn decimal_literal(e: &Expr) -> Option<Decimal> {
    match e {
        Expr::Decimal(d) => Some((**d).clone()),
        Expr::Neg(inner) => decimal_literal(inner).map(|d| Decimal { value: -d.value, ..d }),
        Expr::Mul(factors) if factors.len() == 2 => {
            let mantissa = decimal_literal(&factors[0])?;
            let Expr::Pow(base, exponent) = &factors[1] else { return None };
            let (Expr::Num(base), Expr::Num(_) | Expr::Neg(_)) = (&**base, &**exponent) else { return None };
            if **base != BigRational::from_integer(BigInt::from(10)) {
                return None;
            }
            let k = match exact::evaluate(exponent, 0, &NoSymbols) {
                Ok(k) if k.is_integer() => i64::try_from(k.to_integer()).ok()?,
                _ => return None,
            };
            let scale =
                exact::power(BigRational::from_integer(BigInt::from(10)), &BigRational::from_integer(BigInt::from(k)))
                    .ok()?;
            Some(Decimal {
                value: rational::mul(&mantissa.value, &scale),
                significant_digits: mantissa.significant_digits,
                last_digit_exponent: mantissa.last_digit_exponent.checked_add(k)?,
            })
        }
        _ => None,
    }
}

/// Compares two scalars under `policy`, over every reading of their notation.
pub fn compare(a: &Scalar, b: &Scalar, policy: &Policy) -> Judgement {
    if policy.units == UnitsPolicy::Strict {
        if let (Some(ua), Some(ub)) = (&a.unit, &b.unit) {
            if ua != ub {
                return Judgement::not_equal(Method::Exact, Reason::DifferentUnits);
            }
        }
    }
    match (a.infinity, b.infinity) {
        (Some(x), Some(y)) => {
            return if x == y {
                Judgement::equal(Method::Exact, Reason::Infinity)
            } else {
                Judgement::not_equal(Method::Exact, Reason::Infinity)
            };
        }
        (Some(_), None) | (None, Some(_)) => {
            let finite = if a.infinity.is_some() { b } else { a };
            return if finite.is_constant() && finite.ball().is_some() {
                Judgement::not_equal(Method::Exact, Reason::Infinity)
            } else {
                Judgement::unknown(Reason::EvaluationFailed)
            };
        }
        (None, None) => {}
    }
    // Percent readings: (divide a by 100?, divide b by 100?) combinations to try.
    let options: &[(bool, bool)] = match (policy.percent, a.percent, b.percent) {
        (PercentPolicy::Strict, _, _) | (_, false, false) | (_, true, true) => &[(false, false)],
        (PercentPolicy::AsFraction, true, false) => &[(true, false)],
        (PercentPolicy::AsFraction, false, true) => &[(false, true)],
        (PercentPolicy::Either, true, false) => &[(false, false), (true, false)],
        (PercentPolicy::Either, false, true) => &[(false, false), (false, true)],
    };
    let judgement =
        Judgement::any(options.iter().map(|&(scale_a, scale_b)| compare_readings(a, scale_a, b, scale_b, policy)));
    let differs_on_reals = matches!(
        (judgement.verdict, judgement.reason),
        (Verdict::NotEqual, Reason::RandomPoints) | (Verdict::Unknown, Reason::DiffersOnReals)
    );
    if differs_on_reals && differ_only_in_case(a, b) {
        // `ce^{-2t}` against `Ce^{-2t}`: the same arbitrary constant, or two symbols? Undecided
        // if folding case makes them equal.
        let fold =
            |s: &Scalar| Scalar::new(s.expr.rename_symbols(&|n: &str| n.to_lowercase()), s.percent, s.unit.clone());
        if compare_readings(&fold(a), false, &fold(b), false, policy).verdict == Verdict::Equal {
            // `C` against `c` (or `C_1` against `c_1`) is the integration constant written two
            // ways; any other letter could be two quantities (`X` and `x`).
            return if case_differences_are_constants(a, b) {
                Judgement::equal(Method::Numeric, Reason::ConstantCase)
            } else {
                Judgement::unknown(Reason::AmbiguousNotation)
            };
        }
    }
    judgement
}

/// Every symbol that only one side has is an arbitrary constant's name: `c` or `C`, optionally
/// subscripted (`C_1`, `c_{2}`).
fn case_differences_are_constants(a: &Scalar, b: &Scalar) -> bool {
    let (x, y) = (a.expr.symbol_names(), b.expr.symbol_names());
    let is_constant = |name: &str| {
        let base = name.split('_').next().unwrap_or(name);
        base == "c" || base == "C"
    };
    x.iter().filter(|n| !y.contains(n)).chain(y.iter().filter(|n| !x.contains(n))).all(|n| is_constant(n))
}

/// The variables differ, but only in letter case (`c` and `C`).
fn differ_only_in_case(a: &Scalar, b: &Scalar) -> bool {
    let (x, y) = (a.expr.symbol_names(), b.expr.symbol_names());
    let folded = |names: &[&str]| {
        let mut v: Vec<String> = names.iter().map(|n| n.to_lowercase()).collect();
        v.sort();
        v.dedup();
        v
    };
    let (mut sx, mut sy) = (x.clone(), y.clone());
    sx.sort_unstable();
    sy.sort_unstable();
    sx != sy && folded(&x) == folded(&y)
}

fn compare_readings(a: &Scalar, scale_a: bool, b: &Scalar, scale_b: bool, policy: &Policy) -> Judgement {
    let union = a.info.readings | b.info.readings;
    let readings = (0..=ALL_READINGS).filter(|r| r & !union == 0);
    Judgement::every_reading(readings.map(|r| {
        let (va, vb) = (a.values(r), b.values(r));
        let scaled_a;
        let scaled_b;
        let va = if scale_a {
            scaled_a = va.percent_of();
            &scaled_a
        } else {
            va
        };
        let vb = if scale_b {
            scaled_b = vb.percent_of();
            &scaled_b
        } else {
            vb
        };
        // A percentage read as a fraction is no longer the decimal literal that was written.
        let da = if scale_a { None } else { a.decimal.as_ref() };
        let db = if scale_b { None } else { b.decimal.as_ref() };
        let judgement = compare_values(va, da, vb, db, policy, (&a.expr, &b.expr, r));
        let constants = !scale_a && !scale_b && a.is_constant() && b.is_constant();
        if let Some((decimal, other_is_b)) = rounding_side(da, db, policy) {
            // The decimal stands for every value that rounds to it, not for itself.
            if constants && judgement.verdict == Verdict::Unknown && judgement.reason == Reason::TooClose {
                let other = if other_is_b { &b.expr } else { &a.expr };
                match decimal.half_ulp().map(|h| interval::refine_rounding(other, &decimal.value, &h, r)) {
                    Some(Refined::Different) => return Judgement::not_equal(Method::Numeric, Reason::DecimalRounding),
                    Some(Refined::Equal) => return Judgement::equal(Method::Numeric, Reason::DecimalRounding),
                    _ => {}
                }
            }
            return judgement;
        }
        let f64_verdict = matches!(
            (judgement.verdict, judgement.reason),
            (Verdict::Equal | Verdict::Unknown, Reason::NumericValue | Reason::TooClose)
        );
        if f64_verdict && constants {
            // Algebraic constants get a second look far beyond f64 (see `interval`).
            match interval::refine(&a.expr, &b.expr, r) {
                Refined::Different => return Judgement::not_equal(Method::Numeric, Reason::NumericValue),
                Refined::Equal => return Judgement::equal(Method::Numeric, Reason::NumericValue),
                Refined::Undecided => {}
            }
        }
        judgement
    }))
}

/// The expressions two [`Values`] are of, and the reading: what their integer points need.
type Sources<'e> = (&'e Expr, &'e Expr, Readings);

/// Compares two evaluated values (one reading).
pub fn compare_values(
    a: &Values,
    da: Option<&Decimal>,
    b: &Values,
    db: Option<&Decimal>,
    policy: &Policy,
    sources: Sources<'_>,
) -> Judgement {
    if a.has_points() || b.has_points() {
        return compare_at_points(a, b, policy, sources);
    }
    // A long decimal against a non-decimal value: equal when the value rounds to it.
    if let Some((decimal, other_is_b)) = rounding_side(da, db, policy) {
        return compare_rounded(decimal, if other_is_b { b } else { a });
    }
    match (&a.exact, &b.exact) {
        (Ok(x), Ok(y)) => exact_verdict(x == y),
        _ => match (a.ball, b.ball) {
            (Some(x), Some(y)) => ball_verdict(compare_balls(&x, &y, policy.rel_tol)),
            _ => {
                let reason = failure_reason(&a.exact, &b.exact);
                if reason == Reason::TooLarge && sizes_apart(a, b, sources) {
                    return Judgement::not_equal(Method::Numeric, Reason::Magnitude);
                }
                Judgement::unknown(reason)
            }
        },
    }
}

fn exact_verdict(equal: bool) -> Judgement {
    if equal {
        Judgement::equal(Method::Exact, Reason::ExactValue)
    } else {
        Judgement::not_equal(Method::Exact, Reason::ExactValue)
    }
}

fn ball_verdict(order: BallOrder) -> Judgement {
    match order {
        BallOrder::Close => Judgement::equal(Method::Numeric, Reason::NumericValue),
        BallOrder::Apart => Judgement::not_equal(Method::Numeric, Reason::NumericValue),
        BallOrder::Undecided => Judgement::unknown(Reason::TooClose),
    }
}

/// Whether two constants beyond f64 (`2^{10^{10}}` against `\sqrt{2}`) certainly differ in
/// size ([`magnitude`]).
fn sizes_apart(a: &Values, b: &Values, (expr_a, expr_b, readings): Sources<'_>) -> bool {
    // A percentage read as a fraction is its expression divided by 100.
    let bounds = |v: &Values, e: &Expr| {
        let (lo, hi) = magnitude::log_magnitude(e, readings)?;
        let shift = if v.percent_scaled { std::f64::consts::LN_10 * 2.0 } else { 0.0 };
        Some((lo - shift, hi - shift))
    };
    let zero = |v: &Values| matches!(&v.exact, Ok(x) if x.is_zero());
    match (bounds(a, expr_a), bounds(b, expr_b)) {
        (Some(x), Some(y)) => magnitude::apart(x, y),
        // A size bound excludes 0: `2^{-10^{10}}` is not 0.
        (Some(_), None) => zero(b),
        (None, Some(_)) => zero(a),
        (None, None) => false,
    }
}

fn failure_reason(a: &Exact, b: &Exact) -> Reason {
    if matches!(a, Err(ExactError::TooLarge)) || matches!(b, Err(ExactError::TooLarge)) {
        Reason::TooLarge
    } else {
        Reason::EvaluationFailed
    }
}

/// The decimal of a comparison decided by rounding (a long decimal against a value that is not
/// a decimal), and whether the other value is `b`.
fn rounding_side<'d>(da: Option<&'d Decimal>, db: Option<&'d Decimal>, policy: &Policy) -> Option<(&'d Decimal, bool)> {
    match (da, db) {
        (Some(d), None) if d.significant_digits >= policy.decimal_min_sig_digits => Some((d, true)),
        (None, Some(d)) if d.significant_digits >= policy.decimal_min_sig_digits => Some((d, false)),
        _ => None,
    }
}

/// Does `other` round to `decimal` at its last written digit?
fn compare_rounded(decimal: &Decimal, other: &Values) -> Judgement {
    let e = decimal.last_digit_exponent;
    if let (Ok(x), Some(half_ulp)) = (&other.exact, decimal.half_ulp()) {
        let within = (x - &decimal.value).abs() <= half_ulp;
        return if within {
            Judgement::equal(Method::Exact, Reason::DecimalRounding)
        } else {
            Judgement::not_equal(Method::Exact, Reason::DecimalRounding)
        };
    }
    let Some(ball) = other.ball else {
        return Judgement::unknown(failure_reason(&other.exact, &Ok(BigRational::zero())));
    };
    let Some(d) = Ball::from_rational(&decimal.value) else { return Judgement::unknown(Reason::TooLarge) };
    if numeric::certainly_complex(&ball) {
        return Judgement::not_equal(Method::Numeric, Reason::DecimalRounding);
    }
    let Some((lo, hi)) = numeric::real_bounds(&ball) else { return Judgement::unknown(Reason::TooClose) };
    let half_ulp = 0.5 * 10f64.powi(e.clamp(-400, 400) as i32);
    // f64 slack on the rounding window itself.
    let slack = 4.0 * f64::EPSILON * (d.re.abs() + half_ulp) + d.rad;
    if lo >= d.re - half_ulp + slack && hi <= d.re + half_ulp - slack {
        Judgement::equal(Method::Numeric, Reason::DecimalRounding)
    } else if hi < d.re - half_ulp - slack || lo > d.re + half_ulp + slack {
        Judgement::not_equal(Method::Numeric, Reason::DecimalRounding)
    } else {
        Judgement::unknown(Reason::TooClose)
    }
}

/// Compares at the evaluation points; a constant side has the same value at every point.
fn compare_at_points(a: &Values, b: &Values, policy: &Policy, sources: Sources<'_>) -> Judgement {
    let (expr_a, expr_b, _) = sources;
    // Variables are compared as positive reals, which makes `\operatorname{Re}(z)` equal `z`
    // and `\arg z` equal 0: whoever takes the real part of a variable means a complex one.
    if takes_a_complex_part(expr_a) || takes_a_complex_part(expr_b) {
        return Judgement::unknown(Reason::AmbiguousNotation);
    }
    let mut defined = 0;
    let mut undecided = false;
    for k in 0..REAL_POINTS {
        let (Some(x), Some(y)) = (a.real_point(k, expr_a), b.real_point(k, expr_b)) else { continue };
        defined += 1;
        match compare_balls(&x, &y, policy.rel_tol) {
            BallOrder::Close => {}
            // One point that differs decides, whatever the others show: the later points are
            // not computed.
            BallOrder::Apart if !policy.prove_not_equal => return Judgement::unknown(Reason::DiffersOnReals),
            BallOrder::Apart => return compare_at_integer_points(a, b, policy, sources),
            BallOrder::Undecided => undecided = true,
        }
    }
    if undecided {
        return Judgement::unknown(Reason::TooClose);
    }
    if defined < MIN_DEFINED_POINTS {
        return Judgement::unknown(Reason::EvaluationFailed);
    }
    let readings = sources.2;
    // An |…|, max or min is one smooth piece between its kinks: agreement shows an identity
    // only where the points saw more than one piece (`\max(x, 1000)` against `1000` never
    // leaves one, nor does `|x - 50|` against `50 - x`).
    if on_one_branch(expr_a, readings, policy) || on_one_branch(expr_b, readings, policy) {
        return Judgement::unknown(Reason::OneBranch);
    }
    // A step function is constant between its jumps: agreement means something only where
    // the points saw it take more than one value (`\lfloor n/2 \rfloor + 1` in two notations),
    // not where they all fell on one step (`\lfloor 0.1005 k \rfloor` against `0`).
    let (steps_a, steps_b) = (steps_on_a_variable(expr_a), steps_on_a_variable(expr_b));
    if !(steps_a || steps_b) {
        return Judgement::equal(Method::Numeric, Reason::RandomPoints);
    }
    let constant = |v: &Values, expr: &Expr| one_value((0..REAL_POINTS).filter_map(|k| v.real_point(k, expr)), policy);
    if (steps_a && constant(a, expr_a)) || (steps_b && constant(b, expr_b)) {
        return Judgement::unknown(Reason::StepFunction);
    }
    // Step functions can also differ exactly where real points never land: at the jumps, which
    // are often the integers (`\lfloor n^2/2 \rfloor + 1` against `\lceil n^2/2 \rceil`).
    let at_integers = compare_at_integer_points(a, b, policy, sources);
    if at_integers.verdict == Verdict::NotEqual {
        return at_integers;
    }
    Judgement::equal(Method::Numeric, Reason::RandomPoints)
}

/// Whether the values are all one (within the policy's tolerance); true when there are none.
fn one_value(mut values: impl Iterator<Item = Ball>, policy: &Policy) -> bool {
    let Some(first) = values.next() else { return true };
    values.all(|x| compare_balls(&x, &first, policy.rel_tol) == BallOrder::Close)
}

/// Whether `expr` or one of its subexpressions satisfies `test`.
fn any_subexpression(expr: &Expr, mut test: impl FnMut(&Expr) -> bool) -> bool {
    let mut stack = vec![expr];
    while let Some(e) = stack.pop() {
        if test(e) {
            return true;
        }
        e.for_each_child(|c| stack.push(c));
    }
    false
}

/// Whether `expr` takes the real or imaginary part, the argument or the conjugate of an expression with a
/// variable.
fn takes_a_complex_part(expr: &Expr) -> bool {
    any_subexpression(
        expr,
        |e| matches!(e, Expr::Func(Func::Re | Func::Im | Func::Arg | Func::Conj, args) if args.iter().any(|a| a.info().free_symbols)),
    )
}

/// Whether `expr` takes the floor or ceiling of an expression with a variable.
fn steps_on_a_variable(expr: &Expr) -> bool {
    any_subexpression(
        expr,
        |e| matches!(e, Expr::Func(Func::Floor | Func::Ceil, args) if args.iter().any(|a| a.info().free_symbols)),
    )
}

/// Whether an |…|, max or min of `expr` whose arguments vary (a variable that does not cancel)
/// took the same branch (the sign of the |…|'s argument, the argument that is largest or
/// smallest) at every real point where the branch is certain.
pub(super) fn on_one_branch(expr: &Expr, readings: Readings, policy: &Policy) -> bool {
    any_subexpression(expr, |e| match e {
        Expr::Func(f @ (Func::Abs | Func::Max | Func::Min), args) if args.iter().any(|a| a.info().free_symbols) => {
            kink_on_one_branch(*f, args, readings, policy)
        }
        _ => false,
    })
}

fn kink_on_one_branch(f: Func, args: &[Expr], readings: Readings, policy: &Policy) -> bool {
    // The arguments at each real point where all of them are defined.
    let points: Vec<Vec<Ball>> = (0..REAL_POINTS)
        .filter_map(|k| args.iter().map(|a| numeric::evaluate(a, readings, &RealPoint(k))).collect())
        .collect();
    // `|(1416 - 30s/7) - (-600 - 30s/7)|` has one value: no kink to cross.
    if (0..args.len()).all(|i| one_value(points.iter().map(|p| p[i]), policy)) {
        return false;
    }
    let certainly_positive =
        |d: Option<Ball>| d.and_then(|d| numeric::certain_sign(&d)) == Some(std::cmp::Ordering::Greater);
    let branch_at = |values: &[Ball]| -> Option<usize> {
        match f {
            Func::Abs => match numeric::certain_sign(values.first()?)? {
                std::cmp::Ordering::Less => Some(0),
                std::cmp::Ordering::Greater => Some(1),
                std::cmp::Ordering::Equal => None,
            },
            // The argument certainly above (max) or below (min) every other one.
            _ => (0..values.len()).find(|&i| {
                values.iter().enumerate().all(|(j, &other)| {
                    j == i
                        || certainly_positive(if f == Func::Max { values[i].sub(other) } else { other.sub(values[i]) })
                })
            }),
        }
    };
    let mut branches = points.iter().filter_map(|values| branch_at(values));
    match branches.next() {
        Some(first) => branches.all(|b| b == first),
        None => true,
    }
}

fn compare_at_integer_points(a: &Values, b: &Values, policy: &Policy, (expr_a, expr_b, _): Sources<'_>) -> Judgement {
    let at = |v: &Values, expr: &Expr, k: usize| -> PointValue {
        match v.integer_point(k, expr) {
            Some(point) => point.clone(),
            None => match (&v.exact, v.ball) {
                (Ok(r), _) => PointValue::Exact(r.clone()),
                (_, Some(b)) => PointValue::Approx(b),
                _ => PointValue::Undefined,
            },
        }
    };
    let mut any_defined = false;
    for k in 0..INTEGER_POINTS {
        let (x, y) = (at(a, expr_a, k), at(b, expr_b, k));
        let differs = match (&x, &y) {
            (PointValue::Exact(p), PointValue::Exact(q)) => p != q,
            _ => match (x.ball(), y.ball()) {
                (Some(p), Some(q)) => compare_balls(&p, &q, policy.rel_tol) == BallOrder::Apart,
                _ => continue,
            },
        };
        any_defined = true;
        if differs {
            return Judgement::not_equal(Method::Numeric, Reason::RandomPoints);
        }
    }
    Judgement::unknown(if any_defined { Reason::IntegerOnlyIdentity } else { Reason::EvaluationFailed })
}

/// Orders two constant real scalars, when certain (interval endpoints).
pub fn order(a: &Scalar, b: &Scalar, policy: &Policy) -> Option<std::cmp::Ordering> {
    if let (Some(x), Some(y)) = (a.infinity, b.infinity) {
        return Some(x.cmp(&y));
    }
    if let Some(x) = a.infinity {
        return b.ball().map(|_| if x > 0 { std::cmp::Ordering::Greater } else { std::cmp::Ordering::Less });
    }
    if let Some(y) = b.infinity {
        return a.ball().map(|_| if y > 0 { std::cmp::Ordering::Less } else { std::cmp::Ordering::Greater });
    }
    if a.info.readings != 0 || b.info.readings != 0 || !a.is_constant() || !b.is_constant() {
        return None;
    }
    if let (Some(x), Some(y)) = (a.exact(), b.exact()) {
        return Some(x.cmp(y));
    }
    let (x, y) = (a.ball()?, b.ball()?);
    if compare_balls(&x, &y, policy.rel_tol) == BallOrder::Close {
        return Some(std::cmp::Ordering::Equal);
    }
    numeric::certain_sign(&x.sub(y)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::expr::{Constant, Func};

    fn r(n: i64, d: i64) -> Expr {
        Expr::rational(rational::ratio(BigInt::from(n), BigInt::from(d)))
    }

    fn dec(text: &str) -> Expr {
        let (int, frac) = text.split_once('.').unwrap();
        let digits = format!("{int}{frac}");
        let value = rational::ratio(digits.parse::<BigInt>().unwrap(), BigInt::from(10).pow(frac.len() as u32));
        let significant = digits.trim_start_matches('0').len() as u32;
        Expr::Decimal(Box::new(Decimal {
            value,
            significant_digits: significant,
            last_digit_exponent: -(frac.len() as i64),
        }))
    }

    fn s(e: Expr) -> Scalar {
        Scalar::new(e, false, None)
    }

    fn cmp(a: Expr, b: Expr) -> Verdict {
        compare(&s(a), &s(b), &Policy::default()).verdict
    }

    fn sym(n: &str) -> Expr {
        Expr::Sym(Symbol::new(n))
    }

    #[test]
    fn decimals_against_exact_values() {
        assert_eq!(cmp(dec("0.333"), r(1, 3)), Verdict::NotEqual);
        assert_eq!(cmp(dec("0.333333"), r(1, 3)), Verdict::Equal);
        assert_eq!(cmp(dec("0.666667"), r(2, 3)), Verdict::Equal);
        assert_eq!(cmp(dec("0.666666"), r(2, 3)), Verdict::NotEqual);
        assert_eq!(cmp(dec("0.5"), r(1, 2)), Verdict::Equal);
        assert_eq!(cmp(dec("0.5"), dec("0.50")), Verdict::Equal);
        assert_eq!(cmp(dec("0.333333"), dec("0.3333333")), Verdict::NotEqual);
        assert_eq!(cmp(dec("3.14"), Expr::Const(Constant::Pi)), Verdict::NotEqual);
        assert_eq!(cmp(dec("3.141593"), Expr::Const(Constant::Pi)), Verdict::Equal);
        assert_eq!(cmp(dec("3.141592"), Expr::Const(Constant::Pi)), Verdict::NotEqual);
    }

    #[test]
    fn percent_policies() {
        let ten_percent = Scalar::new(Expr::int(10), true, None);
        let strict = Policy::default();
        let fraction = Policy { percent: PercentPolicy::AsFraction, ..strict };
        let either = Policy { percent: PercentPolicy::Either, ..strict };
        let v = |p: &Policy, e: Expr| compare(&ten_percent, &s(e), p).verdict;
        assert_eq!(v(&strict, Expr::int(10)), Verdict::Equal);
        assert_eq!(v(&strict, r(1, 10)), Verdict::NotEqual);
        assert_eq!(v(&strict, Expr::int(1000)), Verdict::NotEqual);
        assert_eq!(v(&fraction, r(1, 10)), Verdict::Equal);
        assert_eq!(v(&fraction, Expr::int(10)), Verdict::NotEqual);
        assert_eq!(v(&either, Expr::int(10)), Verdict::Equal);
        assert_eq!(v(&either, r(1, 10)), Verdict::Equal);
        assert_eq!(v(&either, Expr::int(1000)), Verdict::NotEqual);
    }

    #[test]
    fn units() {
        let cm = |v| Scalar::new(Expr::int(v), false, Some("cm".into()));
        let m = Scalar::new(Expr::int(12), false, Some("m".into()));
        let p = Policy::default();
        assert_eq!(compare(&cm(12), &s(Expr::int(12)), &p).verdict, Verdict::Equal);
        assert_eq!(compare(&cm(12), &m, &p).verdict, Verdict::NotEqual);
        assert_eq!(compare(&cm(12), &m, &Policy { units: UnitsPolicy::Ignore, ..p }).verdict, Verdict::Equal);
    }

    #[test]
    fn free_variables() {
        let p_minus_q = Expr::Add(vec![sym("p"), Expr::neg(sym("q"))]);
        let q_minus_p = Expr::Add(vec![sym("q"), Expr::neg(sym("p"))]);
        let minus_q_plus_p = Expr::Add(vec![Expr::neg(sym("q")), sym("p")]);
        assert_eq!(cmp(p_minus_q.clone(), minus_q_plus_p), Verdict::Equal);
        assert_eq!(cmp(p_minus_q, q_minus_p), Verdict::NotEqual);
    }

    #[test]
    fn integer_only_identities_stay_unknown() {
        let n = sym("n");
        let cos_n_pi = Expr::Func(Func::Cos, vec![Expr::Mul(vec![n.clone(), Expr::Const(Constant::Pi)])]);
        let minus_one_pow = Expr::Pow(Box::new(Expr::int(-1)), Box::new(n));
        let j = compare(&s(cos_n_pi), &s(minus_one_pow), &Policy::default());
        assert_eq!((j.verdict, j.reason), (Verdict::Unknown, Reason::IntegerOnlyIdentity));
    }

    #[test]
    fn point_values_are_reproducible_and_spread() {
        let x = Symbol::new("x");
        assert_eq!(real_point_value(&x, 3), real_point_value(&Symbol::new("x"), 3));
        assert_ne!(real_point_value(&x, 0), real_point_value(&Symbol::new("y"), 0));
        for k in 0..REAL_POINTS {
            let v = real_point_value(&x, k);
            assert!(v > 0.0 && v == (v * 1_048_576.0).round() / 1_048_576.0);
        }
        assert!((0..INTEGER_POINTS).all(|k| (2..=13).contains(&integer_point_value(&x, k))));
    }
}
