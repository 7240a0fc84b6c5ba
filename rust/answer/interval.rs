//! High-precision check of algebraic constants with dyadic interval arithmetic.
//!
//! f64 balls cannot see differences below about 1e-16 relative: `\sqrt{10^{20}+1}` and `10^{10}`
//! differ by 5e-21 relative and look equal. When two constants built from rationals with `+ - × ÷`,
//! integer powers and roots look equal in f64, they are evaluated again as intervals whose end
//! points are dyadic numbers (a big-integer mantissa of [`PRECISION_BITS`] bits times a power of
//! two), rounded outwards after every operation. A difference interval that excludes zero proves
//! them different; one narrower than 2^-[`EQUAL_BITS`] of their magnitude confirms the equality
//! far beyond f64. Anything else (π, e, logarithms, trigonometry) is not handled here.

use std::cmp::Ordering;

use num_bigint::{BigInt, Sign};
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

use super::expr::{Expr, Func, Readings, READING_SLASH};

/// Mantissa bits kept by the outward rounding.
const PRECISION_BITS: u64 = 192;
/// A difference narrower than 2^-EQUAL_BITS of the magnitude confirms equality.
const EQUAL_BITS: i64 = 150;
/// Integer exponents evaluated by repeated squaring (larger ones are left alone).
const MAX_EXPONENT: u64 = 4096;
const MAX_ROOT: u32 = 16;
/// Exponents of two beyond which the check gives up (bounded work and memory).
const MAX_EXPONENT_OF_TWO: i64 = 1 << 20;

/// m · 2^e.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Dyadic {
    m: BigInt,
    e: i64,
}

/// m / 2^k rounded down (or up).
fn shift_right(m: &BigInt, k: u64, up: bool) -> BigInt {
    let floor = if m.sign() == Sign::Minus {
        let magnitude = -m;
        let q: BigInt = &magnitude >> k as usize;
        if (&q << k as usize) == magnitude {
            -q
        } else {
            -q - 1
        }
    } else {
        m >> k as usize
    };
    if up && (&floor << k as usize) != *m {
        floor + 1
    } else {
        floor
    }
}

/// a / b rounded down (or up), b > 0.
fn divide(a: &BigInt, b: &BigInt, up: bool) -> BigInt {
    let (q, r) = (a / b, a % b);
    if r.is_zero() {
        q
    } else if a.sign() == Sign::Minus {
        if up {
            q
        } else {
            q - 1
        }
    } else if up {
        q + 1
    } else {
        q
    }
}

impl Dyadic {
    fn zero() -> Dyadic {
        Dyadic { m: BigInt::zero(), e: 0 }
    }

    fn int(v: i64) -> Dyadic {
        Dyadic { m: BigInt::from(v), e: 0 }
    }

    /// Keeps PRECISION_BITS bits, rounding down (or up).
    fn rounded(self, up: bool) -> Option<Dyadic> {
        if self.e.abs() > MAX_EXPONENT_OF_TWO {
            return None;
        }
        let bits = self.m.bits();
        if bits <= PRECISION_BITS {
            return Some(self);
        }
        let k = bits - PRECISION_BITS;
        Some(Dyadic { m: shift_right(&self.m, k, up), e: self.e + k as i64 })
    }

    fn from_rational(r: &BigRational, up: bool) -> Option<Dyadic> {
        let (n, d) = (r.numer(), r.denom());
        if d.is_one() {
            return Dyadic { m: n.clone(), e: 0 }.rounded(up);
        }
        // n / d = (n << s) / d · 2^-s with enough bits in the quotient.
        let s = (PRECISION_BITS + d.bits()).saturating_sub(n.bits()) as i64 + 2;
        Dyadic { m: divide(&(n << s as usize), d, up), e: -s }.rounded(up)
    }

    fn neg(&self) -> Dyadic {
        Dyadic { m: -&self.m, e: self.e }
    }

    /// Position of the highest bit: the value is below 2^top.
    fn top(&self) -> i64 {
        self.m.bits() as i64 + self.e
    }

    fn add(&self, o: &Dyadic, up: bool) -> Option<Dyadic> {
        if self.m.is_zero() {
            return Some(o.clone());
        }
        if o.m.is_zero() {
            return Some(self.clone());
        }
        let (big, small) = if self.top() >= o.top() { (self, o) } else { (o, self) };
        if big.top() - small.top() > 2 * PRECISION_BITS as i64 + 8 {
            // The smaller term is far below the precision: one unit of the last place, in the
            // rounding direction, bounds it.
            let ulp = Dyadic { m: BigInt::one(), e: big.e.min(big.top() - 2 * PRECISION_BITS as i64) };
            let bump = if up == (small.m.sign() == Sign::Minus) {
                Dyadic::zero()
            } else if up {
                ulp
            } else {
                ulp.neg()
            };
            let e = big.e.min(bump.e);
            let m = (&big.m << (big.e - e) as usize) + (&bump.m << (bump.e - e) as usize);
            return Dyadic { m, e }.rounded(up);
        }
        let e = self.e.min(o.e);
        let m = (&self.m << (self.e - e) as usize) + (&o.m << (o.e - e) as usize);
        Dyadic { m, e }.rounded(up)
    }

    fn mul(&self, o: &Dyadic, up: bool) -> Option<Dyadic> {
        Dyadic { m: &self.m * &o.m, e: self.e + o.e }.rounded(up)
    }

    /// 1 / self, self != 0: (2^k / m) · 2^(-k-e) with k large enough for the precision.
    fn recip(&self, up: bool) -> Option<Dyadic> {
        let k = 2 * PRECISION_BITS as i64 + self.m.bits() as i64;
        let one = BigInt::one() << k as usize;
        let m = if self.m.sign() == Sign::Minus { -divide(&one, &-&self.m, !up) } else { divide(&one, &self.m, up) };
        Dyadic { m, e: -k - self.e }.rounded(up)
    }

    fn cmp(&self, o: &Dyadic) -> Ordering {
        match (self.m.sign(), o.m.sign()) {
            (a, b) if a != b => return sign_rank(a).cmp(&sign_rank(b)),
            _ => {}
        }
        let e = self.e.min(o.e);
        let (a_shift, b_shift) = ((self.e - e) as usize, (o.e - e) as usize);
        // Exponent gaps are bounded by MAX_EXPONENT_OF_TWO, so the shifts stay finite.
        (&self.m << a_shift).cmp(&(&o.m << b_shift))
    }

    fn is_negative(&self) -> bool {
        self.m.sign() == Sign::Minus
    }

    fn is_positive(&self) -> bool {
        self.m.sign() == Sign::Plus
    }
}

fn sign_rank(s: Sign) -> i8 {
    match s {
        Sign::Minus => -1,
        Sign::NoSign => 0,
        Sign::Plus => 1,
    }
}

#[derive(Debug, Clone)]
struct Interval {
    lo: Dyadic,
    hi: Dyadic,
}

/// What the high-precision check concludes about two constants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refined {
    Different,
    Equal,
    Undecided,
}

impl Interval {
    fn from_rational(r: &BigRational) -> Option<Interval> {
        Some(Interval { lo: Dyadic::from_rational(r, false)?, hi: Dyadic::from_rational(r, true)? })
    }

    fn point(d: Dyadic) -> Interval {
        Interval { lo: d.clone(), hi: d }
    }

    fn add(&self, o: &Interval) -> Option<Interval> {
        Some(Interval { lo: self.lo.add(&o.lo, false)?, hi: self.hi.add(&o.hi, true)? })
    }

    fn neg(&self) -> Interval {
        Interval { lo: self.hi.neg(), hi: self.lo.neg() }
    }

    fn mul(&self, o: &Interval) -> Option<Interval> {
        let pairs = [(&self.lo, &o.lo), (&self.lo, &o.hi), (&self.hi, &o.lo), (&self.hi, &o.hi)];
        let mut lo: Option<Dyadic> = None;
        let mut hi: Option<Dyadic> = None;
        for (a, b) in pairs {
            let down = a.mul(b, false)?;
            let up = a.mul(b, true)?;
            if lo.as_ref().map_or(true, |l| down.cmp(l) == Ordering::Less) {
                lo = Some(down);
            }
            if hi.as_ref().map_or(true, |h| up.cmp(h) == Ordering::Greater) {
                hi = Some(up);
            }
        }
        Some(Interval { lo: lo?, hi: hi? })
    }

    fn contains_zero(&self) -> bool {
        !self.lo.is_positive() && !self.hi.is_negative()
    }

    fn recip(&self) -> Option<Interval> {
        if self.contains_zero() {
            return None;
        }
        Some(Interval { lo: self.hi.recip(false)?, hi: self.lo.recip(true)? })
    }

    fn abs_max(&self) -> Dyadic {
        let (a, b) = (self.lo.m.abs(), self.hi.m.abs());
        let (la, lb) = (Dyadic { m: a, e: self.lo.e }, Dyadic { m: b, e: self.hi.e });
        if la.cmp(&lb) == Ordering::Greater {
            la
        } else {
            lb
        }
    }

    fn powi(&self, n: i64) -> Option<Interval> {
        let k = n.unsigned_abs();
        if k > MAX_EXPONENT {
            return None;
        }
        let mut base = if n < 0 { self.recip()? } else { self.clone() };
        // Even powers of an interval around zero: start from [0, max |x|].
        if k % 2 == 0 && base.contains_zero() {
            base = Interval { lo: Dyadic::zero(), hi: base.abs_max() };
        }
        let mut acc = Interval::point(Dyadic::int(1));
        let mut e = k;
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

    /// The real q-th root (odd roots of negative intervals by symmetry).
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

/// A lower (or upper) bound of d^(1/q), d >= 0.
fn root_bound(d: &Dyadic, q: u32, up: bool) -> Option<Dyadic> {
    if d.m.is_zero() {
        return Some(Dyadic::zero());
    }
    // (m 2^e)^(1/q) = (m 2^s)^(1/q) · 2^((e - s)/q), with e - s divisible by q and m 2^s large
    // enough for PRECISION_BITS bits of root.
    let q64 = i64::from(q);
    let mut s = (PRECISION_BITS as i64 * q64 - d.m.bits() as i64).max(0);
    s += (d.e - s).rem_euclid(q64);
    let radicand = &d.m << s as usize;
    let mut root = radicand.nth_root(q);
    if up && root.pow(q) != radicand {
        root += 1;
    }
    Dyadic { m: root, e: (d.e - s) / q64 }.rounded(up)
}

fn small_integer(r: &BigRational) -> Option<i64> {
    r.is_integer().then(|| r.numer().to_i64()).flatten()
}

/// Encloses the value of an algebraic constant expression; none outside that class.
fn enclose(e: &Expr, readings: Readings) -> Option<Interval> {
    let go = |x: &Expr| enclose(x, readings);
    match e {
        Expr::Num(r) => Interval::from_rational(r),
        Expr::Decimal(d) => Interval::from_rational(&d.value),
        Expr::Based { value, .. } => Interval::from_rational(&BigRational::from_integer((**value).clone())),
        Expr::Add(terms) => terms.iter().try_fold(Interval::point(Dyadic::zero()), |acc, t| acc.add(&go(t)?)),
        Expr::Mul(factors) => factors.iter().try_fold(Interval::point(Dyadic::int(1)), |acc, f| acc.mul(&go(f)?)),
        Expr::Neg(a) => Some(go(a)?.neg()),
        Expr::Div(a, b) => go(a)?.mul(&go(b)?.recip()?),
        Expr::Percent(a) => go(a)?.mul(&Interval::from_rational(&BigRational::new(BigInt::one(), BigInt::from(100)))?),
        Expr::Pow(base, exponent) => {
            let x = go(base)?;
            let p = exponent_value(exponent)?;
            let q = u32::try_from(p.denom().to_u64()?).ok().filter(|&q| q <= MAX_ROOT)?;
            let rooted = if q == 1 { x } else { x.root(q)? };
            rooted.powi(p.numer().to_i64()?)
        }
        Expr::Func(Func::Sqrt, args) => go(args.first()?)?.root(2),
        Expr::Func(Func::Root, args) => {
            let q = u32::try_from(small_integer(&exponent_value(args.first()?)?)?)
                .ok()
                .filter(|&q| (1..=MAX_ROOT).contains(&q))?;
            go(args.get(1)?)?.root(q)
        }
        Expr::Func(Func::Abs, args) => {
            let x = go(args.first()?)?;
            if x.contains_zero() {
                Some(Interval { lo: Dyadic::zero(), hi: x.abs_max() })
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
    let Some(difference) = x.add(&y.neg()) else { return Refined::Undecided };
    if !difference.contains_zero() {
        return Refined::Different;
    }
    let Some(width) = difference.hi.add(&difference.lo.neg(), true) else { return Refined::Undecided };
    let (mx, my) = (x.abs_max(), y.abs_max());
    let magnitude = if mx.cmp(&my) == Ordering::Less { my } else { mx };
    match magnitude {
        m if m.m.is_zero() => {
            if width.m.is_zero() {
                Refined::Equal
            } else {
                Refined::Undecided
            }
        }
        // width < 2^top(width) <= 2^(top(m) - 1 - EQUAL_BITS) <= m · 2^-EQUAL_BITS.
        m if width.m.is_zero() || width.top() <= m.top() - 1 - EQUAL_BITS => Refined::Equal,
        _ => Refined::Undecided,
    }
}

/// Whether the algebraic constant `value` rounds to `decimal` (within `half_ulp` of it, the
/// half unit of its last written digit), at high precision: a 16-digit decimal of `\sqrt{17}`
/// is beyond what f64 can tell.
pub fn refine_rounding(value: &Expr, decimal: &BigRational, half_ulp: &BigRational, readings: Readings) -> Refined {
    let Some(x) = enclose(value, readings) else { return Refined::Undecided };
    let (low, high) = (decimal - half_ulp, decimal + half_ulp);
    // The window [low, high] rounded inwards must hold the value's interval for "equal"; rounded
    // outwards, it must miss it for "different".
    let bounds = |inwards: bool| Some((Dyadic::from_rational(&low, inwards)?, Dyadic::from_rational(&high, !inwards)?));
    let (Some((inner_lo, inner_hi)), Some((outer_lo, outer_hi))) = (bounds(true), bounds(false)) else {
        return Refined::Undecided;
    };
    if x.lo.cmp(&inner_lo) != Ordering::Less && x.hi.cmp(&inner_hi) != Ordering::Greater {
        Refined::Equal
    } else if x.hi.cmp(&outer_lo) == Ordering::Less || x.lo.cmp(&outer_hi) == Ordering::Greater {
        Refined::Different
    } else {
        Refined::Undecided
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::node::Node;
    use crate::answer::Answer;

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
    fn rounding_seen_beyond_f64() {
        let rational = |s: &str| match Answer::parse(s).node() {
            Node::Scalar(sc) => sc.decimal.clone().expect("a decimal").value,
            other => panic!("{other:?}"),
        };
        let half_ulp =
            |digits: i32| BigRational::new(BigInt::one(), BigInt::from(2) * BigInt::from(10).pow(digits as u32));
        let sqrt17 = expr("\\sqrt{17}");
        assert_eq!(refine_rounding(&sqrt17, &rational("4.123105625617661"), &half_ulp(15), 0), Refined::Equal);
        assert_eq!(refine_rounding(&sqrt17, &rational("4.123105625617660"), &half_ulp(15), 0), Refined::Different);
        assert_eq!(refine_rounding(&sqrt17, &rational("4.123105625617662"), &half_ulp(15), 0), Refined::Different);
    }

    #[test]
    fn bounds_enclose_the_value() {
        let iv = enclose(&expr("\\sqrt{2}"), 0).unwrap();
        let square = |d: &Dyadic| d.mul(d, false).unwrap();
        assert_eq!(square(&iv.lo).cmp(&Dyadic::int(2)), Ordering::Less);
        assert_eq!(iv.hi.mul(&iv.hi, true).unwrap().cmp(&Dyadic::int(2)), Ordering::Greater);
        assert!(enclose(&expr("2^{1000000}"), 0).is_none());
        let third = enclose(&expr("\\frac{-1}{3}"), 0).unwrap();
        assert_eq!(third.lo.mul(&Dyadic::int(3), false).unwrap().cmp(&Dyadic::int(-1)), Ordering::Less);
        assert_eq!(third.hi.mul(&Dyadic::int(3), true).unwrap().cmp(&Dyadic::int(-1)), Ordering::Greater);
    }

    #[test]
    fn directed_rounding() {
        assert_eq!(shift_right(&BigInt::from(-5), 1, false), BigInt::from(-3));
        assert_eq!(shift_right(&BigInt::from(-5), 1, true), BigInt::from(-2));
        assert_eq!(shift_right(&BigInt::from(5), 1, true), BigInt::from(3));
        assert_eq!(divide(&BigInt::from(-7), &BigInt::from(2), false), BigInt::from(-4));
        assert_eq!(divide(&BigInt::from(-7), &BigInt::from(2), true), BigInt::from(-3));
        let tiny = Dyadic { m: BigInt::one(), e: -10_000 };
        let sum = Dyadic::int(1).add(&tiny, true).unwrap();
        assert_eq!(sum.cmp(&Dyadic::int(1)), Ordering::Greater);
        assert_eq!(Dyadic::int(1).add(&tiny, false).unwrap().cmp(&Dyadic::int(1)), Ordering::Equal);
    }
}
