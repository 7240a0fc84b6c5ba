//! Exact rational evaluation, with hard caps on size.
//!
//! Integers, fractions, decimals, percentages, scientific notation, integer powers, perfect
//! roots (`\sqrt{16}`, `8^{2/3}`), factorials, binomials, `\log_2 8` and a handful of exact
//! special values (`\sin 0`, `\ln 1`) evaluate to one [`BigRational`]. Anything irrational is
//! [`ExactError::NotRational`] and goes to the numeric path. Sizes are bounded before work is
//! done: a result above [`MAX_BITS`] (`10^{10^{10}}`, `100000!`) is [`ExactError::TooLarge`] in
//! microseconds instead of an out-of-memory error minutes later.

use num_bigint::{BigInt, Sign};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

use super::expr::{Constant, Expr, Func, Readings, Symbol, READING_APPLY, READING_LOG, READING_SLASH};
use super::rational;

/// Largest numerator + denominator size kept exact: 65,536 bits, about 19,700 decimal digits
/// (`2004!` has 5,700 digits; `100000!` has 456,574 and is refused).
pub const MAX_BITS: u64 = 1 << 16;
/// Largest n for which n! (and binomials with k up to n) is computed exactly.
pub const MAX_FACTORIAL: u64 = 5_000;
/// Largest root index tried exactly (`x^{p/q}` with q above this is left to the numeric path).
const MAX_ROOT_INDEX: u64 = 64;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExactError {
    /// The value exists but is not rational (or not provably so here): `\sqrt 2`, `\pi`, `i`.
    NotRational,
    /// The value exceeds the size caps.
    TooLarge,
    /// Division by zero, `\infty`, an unresolved `\pm`.
    Undefined,
    /// A free variable with no value.
    Symbolic,
}

pub type Exact = Result<BigRational, ExactError>;

/// Values of free variables for exact evaluation (used at integer evaluation points).
pub trait SymbolValues {
    fn exact(&self, symbol: &Symbol) -> Option<BigRational>;
}

/// No free variable has a value.
pub struct NoSymbols;

impl SymbolValues for NoSymbols {
    fn exact(&self, _: &Symbol) -> Option<BigRational> {
        None
    }
}

fn bits(r: &BigRational) -> u64 {
    r.numer().bits() + r.denom().bits()
}

fn capped(r: BigRational) -> Exact {
    if bits(&r) > MAX_BITS {
        Err(ExactError::TooLarge)
    } else {
        Ok(r)
    }
}

fn integer(r: &BigRational) -> Option<&BigInt> {
    r.is_integer().then(|| r.numer())
}

fn small_integer(r: &BigRational) -> Option<i64> {
    integer(r).and_then(ToPrimitive::to_i64)
}

fn int(v: i64) -> BigRational {
    BigRational::from_integer(BigInt::from(v))
}

/// Evaluates `e` exactly under `readings` (see [`super::expr`]).
pub fn evaluate(e: &Expr, readings: Readings, symbols: &dyn SymbolValues) -> Exact {
    let eval = |x: &Expr| evaluate(x, readings, symbols);
    match e {
        Expr::Num(r) => Ok((**r).clone()),
        Expr::Decimal(d) => Ok(d.value.clone()),
        Expr::Based { value, .. } => Ok(BigRational::from_integer((**value).clone())),
        Expr::Sym(s) => symbols.exact(s).ok_or(ExactError::Symbolic),
        Expr::Const(Constant::Pi | Constant::E | Constant::I) => Err(ExactError::NotRational),
        Expr::Infinity | Expr::PlusMinus { .. } => Err(ExactError::Undefined),
        Expr::Add(terms) => {
            let mut sum = BigRational::zero();
            let mut first_error = None;
            for t in terms {
                match eval(t) {
                    Ok(v) => sum = capped(rational::add(&sum, &v))?,
                    Err(err) => first_error = Some(worse(first_error, err)),
                }
            }
            first_error.map_or(Ok(sum), Err)
        }
        Expr::Mul(factors) => {
            let mut product = BigRational::one();
            let mut first_error = None;
            for f in factors {
                match eval(f) {
                    Ok(v) => product = capped(rational::mul(&product, &v))?,
                    Err(err) => first_error = Some(worse(first_error, err)),
                }
            }
            first_error.map_or(Ok(product), Err)
        }
        Expr::Neg(a) => eval(a).map(|v| -v),
        Expr::Div(a, b) => divide(eval(a), eval(b)),
        Expr::Pow(base, exponent) => {
            if matches!(**base, Expr::Const(Constant::E)) {
                // e^0 = 1 is the only rational power of e worth knowing.
                return match eval(exponent) {
                    Ok(x) if x.is_zero() => Ok(BigRational::one()),
                    Ok(_) => Err(ExactError::NotRational),
                    Err(err) => Err(err),
                };
            }
            power(eval(base)?, &eval(exponent)?)
        }
        Expr::Func(f, args) => function(*f, args, &eval),
        Expr::Log { base, arg } => {
            let x = eval(arg)?;
            match base.as_deref() {
                Some(Expr::Const(Constant::E)) => natural_log(x),
                Some(b) => logarithm(&eval(b)?, &x),
                None if readings & READING_LOG != 0 => logarithm(&int(10), &x),
                None => natural_log(x),
            }
        }
        Expr::Factorial(n) => factorial(&eval(n)?),
        Expr::Percent(x) => eval(x).map(|v| rational::div(&v, &int(100))),
        Expr::Degrees(x) => match eval(x)? {
            v if v.is_zero() => Ok(v),
            _ => Err(ExactError::NotRational),
        },
        Expr::Apply { func, arg, atom } => {
            if readings & READING_APPLY != 0 {
                symbols.exact(atom).ok_or(ExactError::Symbolic)
            } else {
                let f = symbols.exact(func).ok_or(ExactError::Symbolic);
                let a = eval(arg);
                capped(rational::mul(&f?, &a?))
            }
        }
        Expr::SlashTail { num, den, tail } => {
            let (n, d, t) = (eval(num), eval(den), eval(tail));
            if readings & READING_SLASH != 0 {
                divide(n, d.and_then(|d| capped(rational::mul(&d, &t?))))
            } else {
                divide(n, d).and_then(|q| capped(rational::mul(&q, &t?)))
            }
        }
    }
}

/// Which failure to report when several subterms fail: a symbol or overflow says more than
/// "irrational".
fn worse(previous: Option<ExactError>, new: ExactError) -> ExactError {
    let rank = |e: ExactError| match e {
        ExactError::Undefined => 3,
        ExactError::TooLarge => 2,
        ExactError::Symbolic => 1,
        ExactError::NotRational => 0,
    };
    match previous {
        Some(p) if rank(p) >= rank(new) => p,
        _ => new,
    }
}

fn divide(a: Exact, b: Exact) -> Exact {
    let b = b?;
    if b.is_zero() {
        return Err(ExactError::Undefined);
    }
    let a = a?;
    if a.is_integer() && b.is_integer() {
        // One reduction instead of the general ratio division's several (`\frac{1}{2}`).
        return capped(rational::ratio(a.numer().clone(), b.numer().clone()));
    }
    capped(rational::div(&a, &b))
}

/// `base^exponent` for rational exponents: integer powers, and p/q powers of perfect q-th powers.
pub fn power(base: BigRational, exponent: &BigRational) -> Exact {
    if exponent.is_zero() {
        return Ok(BigRational::one());
    }
    if base.is_zero() {
        return if exponent.is_positive() { Ok(base) } else { Err(ExactError::Undefined) };
    }
    if base.is_one() {
        return Ok(base);
    }
    let q = exponent.denom().to_u64().ok_or(ExactError::TooLarge)?;
    let p = exponent.numer();
    if base == -BigRational::one() && q == 1 {
        return Ok(if p.is_even() { BigRational::one() } else { base });
    }
    let root = if q == 1 {
        base
    } else if q > MAX_ROOT_INDEX || (base.is_negative() && q.is_even()) {
        // Even roots of negative bases take the principal (complex) branch: the numeric path.
        return Err(ExactError::NotRational);
    } else if base.is_negative() {
        // Odd roots of negative bases are real, as in school algebra and as `\sqrt[3]{-8}` is
        // read: (-8)^{2/3} = (\sqrt[3]{-8})^2 = 4, and not the principal complex value.
        -exact_root(&-base, q as u32).ok_or(ExactError::NotRational)?
    } else {
        exact_root(&base, q as u32).ok_or(ExactError::NotRational)?
    };
    let magnitude = root.numer().bits().max(root.denom().bits()).saturating_sub(1).max(1);
    let p_abs = p.abs().to_u64().ok_or(ExactError::TooLarge)?;
    if magnitude.saturating_mul(p_abs) > MAX_BITS {
        return Err(ExactError::TooLarge);
    }
    let p_abs = u32::try_from(p_abs).map_err(|_| ExactError::TooLarge)?;
    // Powers of coprime integers are coprime: already in lowest terms.
    let raised = BigRational::new_raw(root.numer().pow(p_abs), root.denom().pow(p_abs));
    capped(if p.is_negative() { raised.recip() } else { raised })
}

/// The exact non-negative q-th root of a non-negative rational, when there is one.
fn exact_root(x: &BigRational, q: u32) -> Option<BigRational> {
    let n = x.numer().nth_root(q);
    let d = x.denom().nth_root(q);
    // Roots of coprime integers are coprime: already in lowest terms.
    (n.pow(q) == *x.numer() && d.pow(q) == *x.denom()).then(|| BigRational::new_raw(n, d))
}

fn natural_log(x: BigRational) -> Exact {
    if x.is_one() {
        Ok(BigRational::zero())
    } else if x.is_positive() {
        Err(ExactError::NotRational)
    } else if x.is_zero() {
        Err(ExactError::Undefined)
    } else {
        Err(ExactError::NotRational)
    }
}

/// `log_b x` when it is rational: the k = p/q (q <= 12) with b^p = x^q.
fn logarithm(b: &BigRational, x: &BigRational) -> Exact {
    if !b.is_positive() || b.is_one() || x.is_zero() {
        return Err(ExactError::Undefined);
    }
    if x.is_negative() {
        return Err(ExactError::NotRational);
    }
    if x.is_one() {
        return Ok(BigRational::zero());
    }
    let approx = log2_approx(x) / log2_approx(b);
    if !approx.is_finite() || approx.abs() > 4096.0 {
        return Err(ExactError::NotRational);
    }
    for q in 1..=12i64 {
        let p = (approx * q as f64).round() as i64;
        let candidate = BigRational::new(BigInt::from(p), BigInt::from(q));
        let lhs = power(b.clone(), &BigRational::from_integer(BigInt::from(p)));
        let rhs = power(x.clone(), &BigRational::from_integer(BigInt::from(q)));
        if let (Ok(l), Ok(r)) = (lhs, rhs) {
            if l == r {
                return Ok(candidate);
            }
        }
    }
    Err(ExactError::NotRational)
}

fn log2_approx(r: &BigRational) -> f64 {
    let log2_int = |i: &BigInt| {
        let b = i.bits();
        let shift = b.saturating_sub(60);
        let top = (i.magnitude() >> shift).to_f64().unwrap_or(f64::NAN);
        top.log2() + shift as f64
    };
    log2_int(r.numer()) - log2_int(r.denom())
}

fn factorial(n: &BigRational) -> Exact {
    let n = integer(n).ok_or(ExactError::NotRational)?;
    if n.sign() == Sign::Minus {
        return Err(ExactError::Undefined);
    }
    let n = n.to_u64().filter(|&n| n <= MAX_FACTORIAL).ok_or(ExactError::TooLarge)?;
    Ok(BigRational::from_integer(product_range(1, n)))
}

/// Product of lo..=hi by balanced splitting (fast for big factorials).
fn product_range(lo: u64, hi: u64) -> BigInt {
    if lo > hi {
        return BigInt::one();
    }
    if hi - lo < 16 {
        return (lo..=hi).fold(BigInt::one(), |acc, k| acc * k);
    }
    let mid = lo + (hi - lo) / 2;
    product_range(lo, mid) * product_range(mid + 1, hi)
}

/// `binom(n, k)` for integer k >= 0 and any rational n (the falling-factorial formula).
fn binomial(n: &BigRational, k: &BigRational) -> Exact {
    let k = integer(k).ok_or(ExactError::NotRational)?;
    if k.is_negative() {
        return Ok(BigRational::zero());
    }
    let mut k = k.to_u64().filter(|&k| k <= MAX_FACTORIAL).ok_or(ExactError::TooLarge)?;
    if let Some(n_int) = integer(n).filter(|n| !n.is_negative()) {
        if BigInt::from(k) > *n_int {
            return Ok(BigRational::zero());
        }
        // Symmetry keeps the loop short: binom(1000, 998) = binom(1000, 2).
        if let Some(n_small) = n_int.to_u64() {
            k = k.min(n_small - k);
        }
        // Integers stay integers: each step's product of j+1 consecutive integers is divisible
        // by (j+1)!, so the division is exact and no rational (gcd) arithmetic is needed
        // (binom(200, 100): 1 ms -> 18 µs). The cap is `capped`'s: numerator and denominator bits.
        let mut result = BigInt::one();
        for j in 0..k {
            result = result * (n_int - BigInt::from(j)) / BigInt::from(j + 1);
            if result.bits() + 1 > MAX_BITS {
                return Err(ExactError::TooLarge);
            }
        }
        return Ok(BigRational::from_integer(result));
    }
    let mut result = BigRational::one();
    for j in 0..k {
        result = capped(result * (n - int(j as i64)) / int(j as i64 + 1))?;
    }
    Ok(result)
}

/// The argument of a rational: 0 when positive; pi (not rational) when negative; undefined at 0.
fn sign_argument(x: &BigRational) -> Exact {
    if x.is_positive() {
        Ok(BigRational::zero())
    } else if x.is_negative() {
        Err(ExactError::NotRational)
    } else {
        Err(ExactError::Undefined)
    }
}

fn function(f: Func, args: &[Expr], eval: &dyn Fn(&Expr) -> Exact) -> Exact {
    let arg = |i: usize| args.get(i).map_or(Err(ExactError::Undefined), eval);
    let zero_to = |value: i64| -> Exact {
        let x = arg(0)?;
        if x.is_zero() {
            Ok(int(value))
        } else {
            Err(ExactError::NotRational)
        }
    };
    match f {
        Func::Sqrt => power(arg(0)?, &BigRational::new(BigInt::one(), BigInt::from(2))),
        Func::Root => {
            let index = small_integer(&arg(0)?).filter(|&n| n >= 1).ok_or(ExactError::NotRational)?;
            let x = arg(1)?;
            if x.is_negative() && index % 2 == 1 {
                // The real cube root of a negative number, as `\sqrt[3]{-8} = -2` is read.
                let inverse = BigRational::new(BigInt::one(), BigInt::from(index));
                return power(-x, &inverse).map(|v| -v);
            }
            power(x, &BigRational::new(BigInt::one(), BigInt::from(index)))
        }
        Func::Sin | Func::Tan | Func::Asin | Func::Atan | Func::Sinh | Func::Tanh => zero_to(0),
        Func::Cos | Func::Sec | Func::Cosh => zero_to(1),
        Func::Acos => {
            if arg(0)?.is_one() {
                Ok(BigRational::zero())
            } else {
                Err(ExactError::NotRational)
            }
        }
        Func::Cot | Func::Csc => {
            if arg(0)?.is_zero() {
                Err(ExactError::Undefined)
            } else {
                Err(ExactError::NotRational)
            }
        }
        Func::Ln => natural_log(arg(0)?),
        Func::Exp => zero_to(1),
        Func::Abs => Ok(arg(0)?.abs()),
        Func::Floor => Ok(arg(0)?.floor()),
        Func::Ceil => Ok(arg(0)?.ceil()),
        Func::Binom => binomial(&arg(0)?, &arg(1)?),
        Func::Gcd | Func::Lcm => {
            let mut acc: Option<BigInt> = None;
            for a in args {
                let v = eval(a)?;
                let v = integer(&v).ok_or(ExactError::NotRational)?.clone();
                acc = Some(match acc {
                    None => v.abs(),
                    Some(prev) if f == Func::Gcd => prev.gcd(&v),
                    Some(prev) => prev.lcm(&v),
                });
            }
            acc.map(BigRational::from_integer).ok_or(ExactError::Undefined)
        }
        // Exact values are real: their real part is themselves, the imaginary part 0, and the
        // argument 0 (positive) or pi (negative, not rational).
        Func::Re | Func::Conj => arg(0),
        Func::Im => {
            arg(0)?;
            Ok(BigRational::zero())
        }
        Func::Arg => sign_argument(&arg(0)?),
        Func::Atan2 => {
            let (y, x) = (arg(0)?, arg(1)?);
            if y.is_zero() {
                sign_argument(&x)
            } else {
                Err(ExactError::NotRational)
            }
        }
        Func::Max | Func::Min => {
            let mut best: Option<BigRational> = None;
            for a in args {
                let v = eval(a)?;
                best = Some(match best {
                    None => v,
                    Some(b) if (f == Func::Max) == (v > b) => v,
                    Some(b) => b,
                });
            }
            best.ok_or(ExactError::Undefined)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::expr::Symbol;

    fn r(n: i64, d: i64) -> BigRational {
        BigRational::new(BigInt::from(n), BigInt::from(d))
    }

    fn ev(e: &Expr) -> Exact {
        evaluate(e, 0, &NoSymbols)
    }

    fn pow(a: Expr, b: Expr) -> Expr {
        Expr::Pow(Box::new(a), Box::new(b))
    }

    #[test]
    fn powers_and_roots() {
        assert_eq!(ev(&pow(Expr::int(2), Expr::int(10))), Ok(r(1024, 1)));
        assert_eq!(ev(&pow(Expr::int(2), Expr::int(-3))), Ok(r(1, 8)));
        assert_eq!(ev(&pow(Expr::int(8), Expr::rational(r(2, 3)))), Ok(r(4, 1)));
        assert_eq!(ev(&Expr::Func(Func::Sqrt, vec![Expr::int(16)])), Ok(r(4, 1)));
        assert_eq!(ev(&Expr::Func(Func::Sqrt, vec![Expr::int(2)])), Err(ExactError::NotRational));
        assert_eq!(ev(&Expr::Func(Func::Root, vec![Expr::int(3), Expr::int(-8)])), Ok(r(-2, 1)));
        assert_eq!(ev(&pow(Expr::int(-1), Expr::int(1_000_000_001))), Ok(r(-1, 1)));
        assert_eq!(ev(&pow(Expr::int(0), Expr::int(-1))), Err(ExactError::Undefined));
    }

    #[test]
    fn huge_values_are_refused_quickly() {
        let tower = pow(Expr::int(10), pow(Expr::int(10), Expr::int(10)));
        assert_eq!(ev(&tower), Err(ExactError::TooLarge));
        assert_eq!(ev(&Expr::Factorial(Box::new(Expr::int(100_000)))), Err(ExactError::TooLarge));
        assert_eq!(ev(&pow(Expr::int(3), Expr::int(1 << 40))), Err(ExactError::TooLarge));
        let big = ev(&Expr::Factorial(Box::new(Expr::int(2004)))).unwrap();
        assert!(big.numer().bits() > 18_000);
    }

    #[test]
    fn factorial_traps_stay_distinct() {
        let inv = |n: i64| Expr::Div(Box::new(Expr::int(1)), Box::new(Expr::Factorial(Box::new(Expr::int(n)))));
        assert_ne!(ev(&inv(2004)).unwrap(), ev(&inv(2006)).unwrap());
        let two_pow = |n: i64| Expr::Div(Box::new(Expr::int(1)), Box::new(pow(Expr::int(2), Expr::int(n))));
        assert_ne!(ev(&two_pow(99)).unwrap(), ev(&two_pow(98)).unwrap());
    }

    #[test]
    fn binomials() {
        let b = |n: Expr, k: i64| ev(&Expr::Func(Func::Binom, vec![n, Expr::int(k)]));
        assert_eq!(b(Expr::int(10), 3), Ok(r(120, 1)));
        assert_eq!(b(Expr::int(1000), 998), Ok(r(499_500, 1)));
        assert_eq!(b(Expr::int(3), 5), Ok(r(0, 1)));
        assert_eq!(
            b(Expr::int(200), 100).map(|v| v.numer().to_string()),
            Ok("90548514656103281165404177077484163874504589675413336841320".to_string())
        );
        assert_eq!(b(Expr::rational(r(1, 2)), 2), Ok(r(-1, 8)));
    }

    #[test]
    fn logarithms() {
        let log = |b: i64, x: Expr| ev(&Expr::Log { base: Some(Box::new(Expr::int(b))), arg: Box::new(x) });
        assert_eq!(log(2, Expr::int(8)), Ok(r(3, 1)));
        assert_eq!(log(8, Expr::int(2)), Ok(r(1, 3)));
        assert_eq!(log(10, Expr::rational(r(1, 1000))), Ok(r(-3, 1)));
        assert_eq!(log(2, Expr::int(3)), Err(ExactError::NotRational));
        let ambiguous = Expr::Log { base: None, arg: Box::new(Expr::int(100)) };
        assert_eq!(evaluate(&ambiguous, READING_LOG, &NoSymbols), Ok(r(2, 1)));
        assert_eq!(evaluate(&ambiguous, 0, &NoSymbols), Err(ExactError::NotRational));
    }

    #[test]
    fn readings_change_values() {
        let slash =
            Expr::SlashTail { num: Box::new(Expr::int(1)), den: Box::new(Expr::int(2)), tail: Box::new(Expr::int(4)) };
        assert_eq!(evaluate(&slash, 0, &NoSymbols), Ok(r(2, 1)));
        assert_eq!(evaluate(&slash, READING_SLASH, &NoSymbols), Ok(r(1, 8)));
        let apply = Expr::Apply { func: Symbol::new("f"), arg: Box::new(Expr::int(0)), atom: Symbol::new("f(0)") };
        assert_eq!(evaluate(&apply, READING_APPLY, &NoSymbols), Err(ExactError::Symbolic));
    }
}
