//! Exact rational arithmetic with a fast path for values that fit in machine words.
//!
//! `num-rational` keeps every `BigRational` in lowest terms by a big-integer gcd after each
//! operation, and `num-bigint`'s gcd (binary, one allocation per step) costs about 1,700
//! instructions even on one-word numbers: it was a tenth of the outcome check. Most values an
//! answer holds are small (`3/4`, `3.61`, `10^{-10}`), so these functions reduce them with a
//! word-size gcd and build the result in lowest terms directly; larger values take
//! `num-rational`'s own path. The results are exactly those of `num-rational` (tested).

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// Greatest common divisor of two machine words (binary gcd); `gcd(0, b) = b`.
fn gcd_u128(a: u128, b: u128) -> u128 {
    match (u64::try_from(a), u64::try_from(b)) {
        (Ok(a), Ok(b)) => u128::from(gcd_u64(a, b)),
        _ => gcd_wide(a, b),
    }
}

/// Binary gcd on one unsigned word type; `gcd(0, b) = b`.
macro_rules! binary_gcd {
    ($name:ident, $word:ty) => {
        fn $name(mut a: $word, mut b: $word) -> $word {
            if a == 0 {
                return b;
            }
            if b == 0 {
                return a;
            }
            let shift = (a | b).trailing_zeros();
            a >>= a.trailing_zeros();
            loop {
                b >>= b.trailing_zeros();
                if a > b {
                    std::mem::swap(&mut a, &mut b);
                }
                b -= a;
                if b == 0 {
                    return a << shift;
                }
            }
        }
    };
}

binary_gcd!(gcd_u64, u64);
binary_gcd!(gcd_wide, u128);

/// `n / d` in lowest terms with a positive denominator; `None` when `d` is zero or a value is
/// `i128::MIN` (whose magnitude has no `i128`).
fn small(n: i128, d: i128) -> Option<BigRational> {
    if d == 0 || n == i128::MIN || d == i128::MIN {
        return None;
    }
    let g = gcd_u128(n.unsigned_abs(), d.unsigned_abs()) as i128;
    let (n, d) = if d < 0 { (-n / g, -d / g) } else { (n / g, d / g) };
    Some(BigRational::new_raw(BigInt::from(n), BigInt::from(d)))
}

/// The numerator and denominator of `r` when both fit in an `i64`.
fn words(r: &BigRational) -> Option<(i64, i64)> {
    Some((r.numer().to_i64()?, r.denom().to_i64()?))
}

/// The greatest common divisor of `a` and `b` (non-negative), with a word-size path when
/// either fits in a `u64`: `gcd(a, b) = gcd(a mod b, b)`.
fn gcd(a: &BigInt, b: &BigInt) -> BigInt {
    let small = |x: &BigInt| x.magnitude().to_u64();
    match (small(a), small(b)) {
        (Some(x), Some(y)) => BigInt::from(gcd_u64(x, y)),
        (Some(0), None) => b.abs(),
        (None, Some(0)) => a.abs(),
        (Some(x), None) => BigInt::from(gcd_u64(x, (b.magnitude() % x).to_u64().unwrap_or(0))),
        (None, Some(y)) => BigInt::from(gcd_u64((a.magnitude() % y).to_u64().unwrap_or(0), y)),
        (None, None) => a.gcd(b),
    }
}

/// `n / d` in lowest terms with a positive denominator (`d` non-zero).
fn reduce(n: BigInt, d: BigInt) -> BigRational {
    let g = gcd(&n, &d);
    let (n, d) = if g.is_one() { (n, d) } else { (n / &g, d / &g) };
    if d.is_negative() {
        BigRational::new_raw(-n, -d)
    } else {
        BigRational::new_raw(n, d)
    }
}

/// `n / d` in lowest terms, as `BigRational::new(n, d)` (which panics on a zero `d`).
pub fn ratio(n: BigInt, d: BigInt) -> BigRational {
    assert!(!d.is_zero(), "denominator == 0");
    match (n.to_i128(), d.to_i128()) {
        (Some(a), Some(b)) => small(a, b).unwrap_or_else(|| reduce(n, d)),
        _ => reduce(n, d),
    }
}

/// `a · b`.
pub fn mul(a: &BigRational, b: &BigRational) -> BigRational {
    if let (Some((an, ad)), Some((bn, bd))) = (words(a), words(b)) {
        // Each product of two i64 fits in an i128.
        if let Some(r) = small(i128::from(an) * i128::from(bn), i128::from(ad) * i128::from(bd)) {
            return r;
        }
    }
    // Both are in lowest terms: only a numerator and the other denominator can share factors.
    let (g1, g2) = (gcd(a.numer(), b.denom()), gcd(b.numer(), a.denom()));
    let numer = (a.numer() / &g1) * (b.numer() / &g2);
    let denom = (a.denom() / &g2) * (b.denom() / &g1);
    BigRational::new_raw(numer, denom)
}

/// `a + b`.
pub fn add(a: &BigRational, b: &BigRational) -> BigRational {
    if let (Some((an, ad)), Some((bn, bd))) = (words(a), words(b)) {
        // |an·bd + bn·ad| < 2^127: denominators are positive, each product below 2^126.
        if let Some(r) =
            small(i128::from(an) * i128::from(bd) + i128::from(bn) * i128::from(ad), i128::from(ad) * i128::from(bd))
        {
            return r;
        }
    }
    reduce(a.numer() * b.denom() + b.numer() * a.denom(), a.denom() * b.denom())
}

/// `a / b` (`b` non-zero).
pub fn div(a: &BigRational, b: &BigRational) -> BigRational {
    assert!(!b.is_zero(), "division by zero");
    mul(a, &BigRational::new_raw(b.denom().clone(), b.numer().clone()).reduced_sign())
}

trait ReducedSign {
    /// The same value with a positive denominator (the terms stay coprime).
    fn reduced_sign(self) -> Self;
}

impl ReducedSign for BigRational {
    fn reduced_sign(self) -> Self {
        if self.denom().is_negative() {
            let (n, d) = self.into();
            BigRational::new_raw(-n, -d)
        } else {
            self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn r(n: i64, d: i64) -> BigRational {
        BigRational::new(BigInt::from(n), BigInt::from(d))
    }

    /// Structural equality: the same numerator and denominator, not only the same value.
    fn same(x: &BigRational, y: &BigRational) -> bool {
        x.numer() == y.numer() && x.denom() == y.denom()
    }

    fn value() -> impl Strategy<Value = i64> {
        prop_oneof![-20i64..20, any::<i64>(), Just(i64::MIN), Just(i64::MAX), (0u32..63).prop_map(|k| 1i64 << k)]
    }

    proptest! {
        #[test]
        fn operations_give_what_num_rational_gives(an in value(), ad in value(), bn in value(), bd in value()) {
            prop_assume!(ad != 0 && bd != 0);
            let (a, b) = (r(an, ad), r(bn, bd));
            prop_assert!(same(&mul(&a, &b), &(&a * &b)));
            prop_assert!(same(&add(&a, &b), &(&a + &b)));
            if bn != 0 {
                prop_assert!(same(&div(&a, &b), &(&a / &b)));
            }
            prop_assert!(same(&ratio(BigInt::from(an), BigInt::from(ad)), &a));
        }

        #[test]
        fn large_values_take_the_general_path(
            an in any::<i128>(), ad in any::<i128>(), bn in any::<i64>(), bd in any::<i64>(),
            shift in 0u32..80, other in 0u32..80,
        ) {
            prop_assume!(ad != 0 && bd != 0);
            let n = BigInt::from(an) << shift;
            let a = BigRational::new(n.clone(), BigInt::from(ad));
            prop_assert!(same(&ratio(n, BigInt::from(ad)), &a));
            let b = BigRational::new(BigInt::from(bn) << other, BigInt::from(bd));
            prop_assert!(same(&mul(&a, &b), &(&a * &b)));
            prop_assert!(same(&add(&a, &b), &(&a + &b)));
            if bn != 0 {
                prop_assert!(same(&div(&a, &b), &(&a / &b)));
            }
        }
    }

    #[test]
    fn gcd_of_words() {
        assert_eq!(gcd_u128(0, 0), 0);
        assert_eq!(gcd_u128(0, 12), 12);
        assert_eq!(gcd_u128(361, 1_000_000_000_000), 1);
        assert_eq!(gcd_u128(48, 180), 12);
        assert_eq!(gcd_u128(1 << 100, 1 << 90), 1 << 90);
        assert_eq!(gcd_u128(3 << 100, 9), 3);
        assert_eq!(gcd_u64(u64::MAX, 5), 5);
    }
}
