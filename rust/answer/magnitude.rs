//! Bounds on the size of constants too large (or too small) for f64: ln |value| as an interval.
//!
//! `2^{10^{10}}` has no exact value within the size caps and no f64 value, yet it is plainly not
//! `\sqrt{2}`: its natural logarithm is about 6.9e9. When neither exact nor ball arithmetic can
//! evaluate a side, [`log_magnitude`] bounds ln |value| through the logarithm (a power
//! multiplies it, a product adds it, a sum is led by its largest term), and two constants whose
//! bounds are apart are different. This never shows two values equal.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Signed;

use super::expr::{Constant, Expr, Func, Readings};
use super::numeric::{self, Ball, NoPoints};

/// Relative slack on every bound (f64 rounding of the logarithms, many times over).
const SLACK: f64 = 1e-9;

/// Bounds (lo, hi) on ln |x|: lo may be `-inf` (x may be tiny or 0 is not excluded: then `None`)
/// and hi `+inf` (unbounded above).
pub type LnBounds = (f64, f64);

/// Bounds on ln |e| for a constant expression `e` under `readings`; `None` when they cannot be
/// found (a variable, a value that may be 0, an operation not covered).
pub fn log_magnitude(e: &Expr, readings: Readings) -> Option<LnBounds> {
    log_magnitude_at(e, readings, 0)
}

fn widen((lo, hi): LnBounds) -> LnBounds {
    (lo - SLACK * (1.0 + lo.abs()), hi + SLACK * (1.0 + hi.abs()))
}

fn of_ball(b: Ball) -> Option<LnBounds> {
    let m = b.abs();
    if m <= b.rad {
        return None;
    }
    Some(widen(((m - b.rad).ln(), (m + b.rad).ln())))
}

/// ln |n| for a big integer n != 0: between (bits - 1) ln 2 and bits ln 2.
fn of_integer(n: &BigInt) -> Option<LnBounds> {
    let bits = n.bits();
    (bits > 0).then(|| widen(((bits - 1) as f64 * std::f64::consts::LN_2, bits as f64 * std::f64::consts::LN_2)))
}

fn of_rational(r: &BigRational) -> Option<LnBounds> {
    if let Some(b) = Ball::from_rational(r) {
        return of_ball(b);
    }
    let (n, d) = (of_integer(r.numer())?, of_integer(r.denom())?);
    Some((n.0 - d.1, n.1 - d.0))
}

fn sum((a, b): LnBounds, (c, d): LnBounds) -> LnBounds {
    (a + c, b + d)
}

/// Whether `e` is certainly a positive real (for the sign of a huge exponent).
fn positive(e: &Expr) -> bool {
    match e {
        Expr::Num(r) => r.is_positive(),
        Expr::Decimal(d) => d.value.is_positive(),
        Expr::Const(Constant::Pi | Constant::E) => true,
        Expr::Add(items) | Expr::Mul(items) => !items.is_empty() && items.iter().all(positive),
        Expr::Div(a, b) => positive(a) && positive(b),
        Expr::Pow(base, _) => positive(base),
        Expr::Factorial(n) => positive(n),
        Expr::Func(Func::Sqrt | Func::Exp, args) => args.iter().all(positive),
        _ => false,
    }
}

fn log_magnitude_at(e: &Expr, readings: Readings, depth: usize) -> Option<LnBounds> {
    if depth > 64 {
        return None;
    }
    if let Some(b) = numeric::evaluate(e, readings, &NoPoints) {
        return of_ball(b);
    }
    let at = |x: &Expr| log_magnitude_at(x, readings, depth + 1);
    match e {
        Expr::Num(r) => of_rational(r),
        Expr::Decimal(d) => of_rational(&d.value),
        Expr::Based { value, .. } => of_integer(value),
        Expr::Neg(a) => at(a),
        Expr::Mul(factors) => factors.iter().try_fold((0.0, 0.0), |acc, f| Some(sum(acc, at(f)?))),
        Expr::Div(a, b) => {
            let (x, y) = (at(a)?, at(b)?);
            Some((x.0 - y.1, x.1 - y.0))
        }
        Expr::Add(terms) => {
            // The largest term leads when the others together are less than half of it.
            let bounds: Vec<LnBounds> = terms.iter().map(at).collect::<Option<_>>()?;
            let lead = (0..bounds.len()).max_by(|&i, &j| bounds[i].0.total_cmp(&bounds[j].0))?;
            let others = bounds
                .iter()
                .enumerate()
                .filter(|&(k, _)| k != lead)
                .map(|(_, b)| b.1)
                .fold(f64::NEG_INFINITY, f64::max);
            let count = (bounds.len().max(2) - 1) as f64;
            let hi = bounds.iter().map(|b| b.1).fold(f64::NEG_INFINITY, f64::max) + (bounds.len() as f64).ln();
            if others + (2.0 * count).ln() < bounds[lead].0 {
                Some(widen((bounds[lead].0 - std::f64::consts::LN_2, hi)))
            } else {
                None
            }
        }
        Expr::Pow(base, exponent) => {
            // |b^x| = |b|^x for a real exponent (principal branch).
            let b = if let Expr::Const(Constant::E) = **base { (1.0, 1.0) } else { at(base)? };
            match numeric::evaluate(exponent, readings, &NoPoints) {
                Some(x) if x.real => {
                    let (xlo, xhi) = (x.re - x.rad, x.re + x.rad);
                    let corners = [xlo * b.0, xlo * b.1, xhi * b.0, xhi * b.1];
                    let lo = corners.iter().copied().fold(f64::INFINITY, f64::min);
                    let hi = corners.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                    (lo.is_finite() && hi.is_finite()).then(|| widen((lo, hi)))
                }
                Some(_) => None,
                None => {
                    // A huge positive exponent over a base certainly above 1 (or below 1 in
                    // size): the value is beyond any f64 in that direction.
                    let x = at(exponent)?;
                    if !positive(exponent) || x.0 < 700.0 {
                        return None;
                    }
                    // ln |b^x| = x ln |b|, with x >= e^{x.0}: beyond f64 unless ln |b| is tiny.
                    let scaled = |l: f64| (l.ln() + x.0).exp().min(f64::MAX);
                    if b.0 > 0.0 {
                        Some((scaled(b.0), f64::INFINITY))
                    } else if b.1 < 0.0 {
                        Some((f64::NEG_INFINITY, -scaled(-b.1)))
                    } else {
                        None
                    }
                }
            }
        }
        Expr::Func(Func::Sqrt, args) => {
            let (lo, hi) = at(args.first()?)?;
            Some((lo / 2.0, hi / 2.0))
        }
        Expr::Func(Func::Exp, args) => {
            let x = numeric::evaluate(args.first()?, readings, &NoPoints)?;
            x.real.then(|| widen((x.re - x.rad, x.re + x.rad)))
        }
        Expr::Factorial(n) => {
            // ln n! between n ln n - n + ln(2 pi n)/2 and that plus 1/(12 n) (Stirling), n >= 1.
            let n = numeric::evaluate(n, readings, &NoPoints)?;
            let (lo, hi) = (n.re - n.rad, n.re + n.rad);
            if !n.real || lo < 1.0 {
                return None;
            }
            let stirling = |v: f64| v * v.ln() - v + (2.0 * std::f64::consts::PI * v).ln() / 2.0;
            Some(widen((stirling(lo), stirling(hi) + 1.0 / (12.0 * lo))))
        }
        _ => None,
    }
}

/// Whether two magnitude bounds are certainly apart: the values differ.
pub fn apart(a: LnBounds, b: LnBounds) -> bool {
    a.0 > b.1 || b.0 > a.1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::Answer;

    fn bounds(s: &str) -> Option<LnBounds> {
        match Answer::parse(s).node() {
            crate::answer::node::Node::Scalar(scalar) => log_magnitude(&scalar.expr, 0),
            _ => None,
        }
    }

    #[test]
    fn bounds_hold_the_logarithm() {
        let (lo, hi) = bounds("2^{10^{10}}").unwrap();
        let truth = 1e10 * std::f64::consts::LN_2;
        assert!(lo <= truth && truth <= hi && hi - lo < 1e-8 * truth, "{lo} {hi}");
        let (lo, hi) = bounds("\\frac{1}{2^{10^{10}}}").unwrap();
        assert!(lo <= -truth && -truth <= hi);
        let (lo, hi) = bounds("2^{10^{10}} + 1").unwrap();
        assert!(lo <= truth && truth <= hi);
        let (lo, hi) = bounds("3000!").unwrap();
        let truth = (1..=3000).map(|k| (k as f64).ln()).sum::<f64>();
        assert!(lo <= truth && truth <= hi, "{lo} {truth} {hi}");
        // Beyond f64 in the exponent too.
        let (lo, _) = bounds("10^{10^{10^{10}}}").unwrap();
        assert!(lo > 1e300);
        // A sum whose terms may cancel has no bound.
        assert!(bounds("2^{10^{10}} - 2^{10^{10}}").is_none());
    }
}
