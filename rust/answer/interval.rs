//! High-precision check of algebraic constants with rational interval arithmetic.
//!
//! f64 balls cannot see differences below about 1e-16 relative: `\sqrt{10^{20}+1}` and `10^{10}`
//! differ by 5e-21 relative and look equal. When two constants built from rationals with `+ - × ÷`,
//! integer powers and roots look equal in f64, they are evaluated again as intervals with rational
//! end points, rounded outwards to about [`PRECISION_BITS`] bits after every operation. An interval
//! difference that excludes zero proves them different; one narrower than 2^-200 relative confirms
//! the equality far beyond f64. Anything else (π, e, logarithms, trigonometry) is not handled here.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

use super::expr::{Expr, Func, Readings, READING_SLASH};

/// Significant bits kept by the outward rounding.
const PRECISION_BITS: u64 = 320;
/// Integer exponents evaluated by repeated squaring (larger ones are left alone).
const MAX_EXPONENT: u64 = 4096;
const MAX_ROOT: u32 = 16;
/// Operand sizes beyond which the check gives up (bounded work).
const MAX_BITS: u64 = 20_000;

#[derive(Debug, Clone, PartialEq)]
pub struct Interval {
    pub lo: BigRational,
    pub hi: BigRational,
}

/// What the high-precision check concludes about two constants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refined {
    Different,
    Equal,
    Undecided,
}

impl Interval {
    fn point(r: BigRational) -> Interval {
        Interval { lo: r.clone(), hi: r }
    }

    /// Rounds the end points outwards to about PRECISION_BITS significant bits.
    fn rounded(self) -> Option<Interval> {
        let lo = round(&self.lo, false)?;
        let hi = round(&self.hi, true)?;
        Some(Interval { lo, hi })
    }

    fn add(&self, o: &Interval) -> Option<Interval> {
        Interval { lo: &self.lo + &o.lo, hi: &self.hi + &o.hi }.rounded()
    }

    fn neg(&self) -> Interval {
        Interval { lo: -self.hi.clone(), hi: -self.lo.clone() }
    }

    fn mul(&self, o: &Interval) -> Option<Interval> {
        let products = [&self.lo * &o.lo, &self.lo * &o.hi, &self.hi * &o.lo, &self.hi * &o.hi];
        let lo = products.iter().min()?.clone();
        let hi = products.iter().max()?.clone();
        Interval { lo, hi }.rounded()
    }

    fn contains_zero(&self) -> bool {
        !self.lo.is_positive() && !self.hi.is_negative()
    }

    fn recip(&self) -> Option<Interval> {
        if self.contains_zero() {
            return None;
        }
        Interval { lo: self.hi.recip(), hi: self.lo.recip() }.rounded()
    }

    fn powi(&self, n: i64) -> Option<Interval> {
        let k = n.unsigned_abs();
        if k > MAX_EXPONENT {
            return None;
        }
        let mut base = if n < 0 { self.recip()? } else { self.clone() };
        let mut acc = Interval::point(BigRational::one());
        let mut e = k;
        // Even powers of an interval straddling zero start at zero: square via |x|.
        if e % 2 == 0 && base.contains_zero() {
            let m = base.lo.abs().max(base.hi.abs());
            base = Interval { lo: BigRational::zero(), hi: m };
        }
        while e > 0 {
            if e & 1 == 1 {
                acc = acc.mul(&base)?;
            }
            e >>= 1;
            if e > 0 {
                base = base.mul(&base)?;
            }
        }
        Some(acc)
    }

    /// The real q-th root of a non-negative interval (odd roots of negatives by symmetry).
    fn root(&self, q: u32) -> Option<Interval> {
        if self.lo.is_negative() {
            if q % 2 == 1 && !self.hi.is_positive() {
                return Some(self.neg().root(q)?.neg());
            }
            return None;
        }
        Some(Interval { lo: root_bound(&self.lo, q, false)?, hi: root_bound(&self.hi, q, true)? })
    }
}

/// Floor (or ceiling) of r on a dyadic grid PRECISION_BITS below its magnitude.
fn round(r: &BigRational, up: bool) -> Option<BigRational> {
    if r.numer().bits() + r.denom().bits() > MAX_BITS {
        return None;
    }
    if r.numer().bits() + r.denom().bits() <= 2 * PRECISION_BITS {
        return Some(r.clone());
    }
    let magnitude = r.numer().bits() as i64 - r.denom().bits() as i64;
    let shift = PRECISION_BITS as i64 - magnitude;
    let scaled = if shift >= 0 { r * BigRational::from_integer(BigInt::one() << shift as usize) } else { r / BigRational::from_integer(BigInt::one() << (-shift) as usize) };
    let integer = if up { scaled.ceil() } else { scaled.floor() };
    Some(if shift >= 0 {
        integer / BigRational::from_integer(BigInt::one() << shift as usize)
    } else {
        integer * BigRational::from_integer(BigInt::one() << (-shift) as usize)
    })
}

/// A lower (or upper) bound of the q-th root of r >= 0, PRECISION_BITS fine.
fn root_bound(r: &BigRational, q: u32, up: bool) -> Option<BigRational> {
    if r.is_zero() {
        return Some(BigRational::zero());
    }
    // r^(1/q) = (n d^(q-1))^(1/q) / d, scaled by 2^P for precision.
    let (n, d) = (r.numer(), r.denom());
    let radicand = (n * d.pow(q - 1)) << (PRECISION_BITS as usize * q as usize);
    if radicand.bits() > MAX_BITS * 4 {
        return None;
    }
    let mut floor = radicand.nth_root(q);
    if up && floor.pow(q) != radicand {
        floor += 1;
    }
    Some(BigRational::new(floor, d << PRECISION_BITS as usize))
}

fn small_integer(r: &BigRational) -> Option<i64> {
    r.is_integer().then(|| r.numer().to_i64()).flatten()
}

/// Encloses the value of an algebraic constant expression; none outside that class.
pub fn enclose(e: &Expr, readings: Readings) -> Option<Interval> {
    let go = |x: &Expr| enclose(x, readings);
    match e {
        Expr::Num(r) => Some(Interval::point((**r).clone())),
        Expr::Decimal(d) => Some(Interval::point(d.value.clone())),
        Expr::Based { value, .. } => Some(Interval::point(BigRational::from_integer((**value).clone()))),
        Expr::Add(terms) => terms.iter().try_fold(Interval::point(BigRational::zero()), |acc, t| acc.add(&go(t)?)),
        Expr::Mul(factors) => factors.iter().try_fold(Interval::point(BigRational::one()), |acc, f| acc.mul(&go(f)?)),
        Expr::Neg(a) => Some(go(a)?.neg()),
        Expr::Div(a, b) => go(a)?.mul(&go(b)?.recip()?),
        Expr::Percent(a) => go(a)?.mul(&Interval::point(BigRational::new(BigInt::one(), BigInt::from(100)))),
        Expr::Pow(base, exponent) => {
            let x = go(base)?;
            let p = exponent_value(exponent)?;
            let q = u32::try_from(p.denom().to_u64()?).ok().filter(|&q| q <= MAX_ROOT)?;
            let rooted = if q == 1 { x } else { x.root(q)? };
            rooted.powi(p.numer().to_i64()?)
        }
        Expr::Func(Func::Sqrt, args) => go(args.first()?)?.root(2),
        Expr::Func(Func::Root, args) => {
            let q = u32::try_from(small_integer(&exponent_value(args.first()?)?)?).ok().filter(|&q| (1..=MAX_ROOT).contains(&q))?;
            go(args.get(1)?)?.root(q)
        }
        Expr::Func(Func::Abs, args) => {
            let x = go(args.first()?)?;
            if x.contains_zero() {
                Some(Interval { lo: BigRational::zero(), hi: x.lo.abs().max(x.hi.abs()) })
            } else if x.lo.is_positive() {
                Some(x)
            } else {
                Some(x.neg())
            }
        }
        Expr::SlashTail { num, den, tail } => {
            let (n, d, t) = (go(num)?, go(den)?, go(tail)?);
            if readings & READING_SLASH != 0 {
                n.mul(&d.mul(&t)?.recip()?)
            } else {
                n.mul(&d.recip()?)?.mul(&t)
            }
        }
        _ => None,
    }
}

/// An exponent that must be an exact rational (`2`, `\frac{3}{2}`, `-1`).
fn exponent_value(e: &Expr) -> Option<BigRational> {
    super::exact::evaluate(e, 0, &super::exact::NoSymbols).ok()
}

/// Compares two algebraic constants at high precision.
pub fn refine(a: &Expr, b: &Expr, readings: Readings) -> Refined {
    let (Some(x), Some(y)) = (enclose(a, readings), enclose(b, readings)) else { return Refined::Undecided };
    let difference = match x.add(&y.neg()) {
        Some(d) => d,
        None => return Refined::Undecided,
    };
    if !difference.contains_zero() {
        return Refined::Different;
    }
    let width = &difference.hi - &difference.lo;
    let magnitude = x.lo.abs().max(x.hi.abs()).max(y.lo.abs().max(y.hi.abs()));
    if magnitude.is_zero() {
        return if width.is_zero() { Refined::Equal } else { Refined::Undecided };
    }
    // Width below 2^-200 of the magnitude: equal far beyond any f64 doubt.
    let bound = magnitude / BigRational::from_integer(BigInt::one() << 200usize);
    if width <= bound {
        Refined::Equal
    } else {
        Refined::Undecided
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::Answer;
    use crate::answer::node::Node;
    use num_bigint::Sign;

    fn sign(r: &BigRational) -> Sign {
        r.numer().sign()
    }

    fn expr(s: &str) -> Expr {
        match Answer::parse(s).node() {
            Node::Scalar(sc) => sc.expr.clone(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn sees_what_f64_cannot() {
        assert_eq!(refine(&expr("\\sqrt{10^{20}+1}"), &expr("10^{10}"), 0), Refined::Different);
        assert_eq!(refine(&expr("\\frac{\\sqrt{3}}{3}"), &expr("\\frac{1}{\\sqrt{3}}"), 0), Refined::Equal);
        assert_eq!(refine(&expr("\\sqrt{2}+\\sqrt{3}"), &expr("\\sqrt{5+2\\sqrt{6}}"), 0), Refined::Equal);
        assert_eq!(refine(&expr("\\sqrt[3]{-8}"), &expr("-2"), 0), Refined::Equal);
        assert_eq!(refine(&expr("8^{2/3}"), &expr("4"), 0), Refined::Equal);
        assert_eq!(refine(&expr("\\pi"), &expr("3.14"), 0), Refined::Undecided);
    }

    #[test]
    fn bounds_enclose_the_value() {
        let iv = enclose(&expr("\\sqrt{2}"), 0).unwrap();
        let two = BigRational::from_integer(BigInt::from(2));
        assert_eq!(sign(&(&iv.lo * &iv.lo - &two)), Sign::Minus);
        assert_eq!(sign(&(&iv.hi * &iv.hi - &two)), Sign::Plus);
        assert!(enclose(&expr("2^{1000000}"), 0).is_none());
    }
}
