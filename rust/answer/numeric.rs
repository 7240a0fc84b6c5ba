//! Complex midpoint-radius ("ball") arithmetic on f64, and numeric evaluation of expressions.
//!
//! A [`Ball`] is a centre and a radius that contains the true value: every operation adds its
//! own rounding error (a few ulps of the result; the platform libm is accurate to about one ulp)
//! and propagates its inputs' radii through a bound on the derivative. This is what lets a
//! comparison say *NotEqual* with confidence (`\frac{1}{2^{99}}` vs `\frac{1}{2^{98}}`: the
//! difference excludes zero by a wide margin) and *Unknown* where f64 cannot tell (`\sin\pi` vs
//! `0`: the difference is a few ulps of a value that is itself a few ulps). A flag records values
//! known to be exactly real, so that `\sqrt{-3}` and `\ln(-2)` take their principal values
//! instead of falling on the branch cut. Magnitudes outside 1e-290..1e290 are refused (no
//! value): extreme exponents cannot be trusted in f64, and the exact path covers rationals there.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};

use super::expr::{Constant, Expr, Func, Readings, Symbol, READING_APPLY, READING_LOG, READING_SLASH};

const EPS: f64 = f64::EPSILON;
const HUGE: f64 = 1e290;
const TINY: f64 = 1e-290;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ball {
    pub re: f64,
    pub im: f64,
    pub rad: f64,
    /// The true value is real (its imaginary part is exactly zero).
    pub real: bool,
}

impl Ball {
    pub fn exact_real(x: f64) -> Ball {
        Ball { re: x, im: 0.0, rad: 0.0, real: true }
    }

    fn real(x: f64, rad: f64) -> Option<Ball> {
        Ball { re: x, im: 0.0, rad, real: true }.checked()
    }

    fn complex(re: f64, im: f64, rad: f64) -> Option<Ball> {
        Ball { re, im, rad, real: false }.checked()
    }

    pub fn abs(&self) -> f64 {
        // `hypot` is exact for a zero imaginary part too, at ten times the cost of `abs`.
        if self.im == 0.0 {
            self.re.abs()
        } else {
            self.re.hypot(self.im)
        }
    }

    /// Refuses non-finite values and magnitudes f64 cannot carry with a relative error bound.
    fn checked(self) -> Option<Ball> {
        let m = self.abs();
        let ok = self.re.is_finite()
            && self.im.is_finite()
            && self.rad.is_finite()
            && self.rad >= 0.0
            && m < HUGE
            && self.rad < HUGE
            && (m == 0.0 || m > TINY || self.rad > TINY);
        ok.then_some(self)
    }

    pub fn contains_zero(&self) -> bool {
        self.abs() <= self.rad
    }

    pub fn from_rational(r: &BigRational) -> Option<Ball> {
        let (value, exact) = rational_to_f64(r)?;
        Ball::real(value, if exact { 0.0 } else { 2.0 * EPS * value.abs() })
    }

    pub fn from_integer(i: &BigInt) -> Option<Ball> {
        Ball::from_rational(&BigRational::from_integer(i.clone()))
    }

    pub fn add(self, o: Ball) -> Option<Ball> {
        let (re, im) = (self.re + o.re, self.im + o.im);
        let rounding = EPS * (re.abs() + im.abs());
        Ball { re, im, rad: self.rad + o.rad + rounding, real: self.real && o.real }.checked()
    }

    pub fn neg(self) -> Ball {
        Ball { re: -self.re, im: -self.im, ..self }
    }

    pub fn sub(self, o: Ball) -> Option<Ball> {
        self.add(o.neg())
    }

    pub fn mul(self, o: Ball) -> Option<Ball> {
        let (re, im) = if self.real && o.real {
            (self.re * o.re, 0.0)
        } else {
            (self.re * o.re - self.im * o.im, self.re * o.im + self.im * o.re)
        };
        let (ma, mb) = (self.abs(), o.abs());
        let rad = ma * o.rad + mb * self.rad + self.rad * o.rad + 4.0 * EPS * ma * mb;
        Ball { re, im, rad, real: self.real && o.real }.checked()
    }

    pub fn scale(self, k: f64) -> Option<Ball> {
        self.mul(Ball::exact_real(k))
    }

    pub fn recip(self) -> Option<Ball> {
        let m = self.abs();
        if m <= self.rad {
            return None;
        }
        let m2 = self.re * self.re + self.im * self.im;
        let (re, im) = (self.re / m2, -self.im / m2);
        let q = 1.0 / m;
        let rad = self.rad * q / (m - self.rad) + 4.0 * EPS * q;
        Ball { re, im, rad, real: self.real }.checked()
    }

    pub fn div(self, o: Ball) -> Option<Ball> {
        self.mul(o.recip()?)
    }

    /// Integer powers by repeated squaring: exact signs for negative real bases.
    pub fn powi(self, n: i64) -> Option<Ball> {
        if n == 0 {
            return Some(Ball::exact_real(1.0));
        }
        let mut base = if n < 0 { self.recip()? } else { self };
        let mut k = n.unsigned_abs();
        let mut acc = Ball::exact_real(1.0);
        while k > 0 {
            if k & 1 == 1 {
                acc = acc.mul(base)?;
            }
            k >>= 1;
            if k > 0 {
                base = base.mul(base)?;
            }
        }
        Some(acc)
    }

    pub fn exp(self) -> Option<Ball> {
        let magnitude = self.re.exp();
        let (re, im) =
            if self.real { (magnitude, 0.0) } else { (magnitude * self.im.cos(), magnitude * self.im.sin()) };
        // |e^(z+d) - e^z| <= |e^z| (e^|d| - 1).
        let rad = magnitude * self.rad.exp_m1() + 4.0 * EPS * magnitude * (1.0 + self.im.abs());
        Ball { re, im, rad, real: self.real }.checked()
    }

    /// Principal logarithm; none when the ball touches zero or straddles the branch cut.
    pub fn ln(self) -> Option<Ball> {
        let m = self.abs();
        if m <= self.rad {
            return None;
        }
        let spread = self.rad / (m - self.rad);
        if self.real {
            let v = self.re.abs().ln();
            let rad = spread + 2.0 * EPS * v.abs();
            return if self.re > 0.0 {
                Ball::real(v, rad)
            } else {
                Ball::complex(v, std::f64::consts::PI, rad + EPS * 4.0)
            };
        }
        if self.re < 0.0 && self.im.abs() <= self.rad {
            return None;
        }
        let (v, arg) = (m.ln(), self.im.atan2(self.re));
        Ball::complex(v, arg, spread + 2.0 * EPS * (v.abs() + arg.abs()))
    }

    /// Principal square root.
    pub fn sqrt(self) -> Option<Ball> {
        let m = self.abs();
        if m <= 2.0 * self.rad {
            // Too close to zero for a derivative bound: a disc around 0 that surely holds it.
            return Ball {
                re: 0.0,
                im: 0.0,
                rad: (m + self.rad).sqrt() * (1.0 + 4.0 * EPS),
                real: self.real && self.re >= self.rad,
            }
            .checked();
        }
        let rad_from_input = self.rad / (2.0 * (m - self.rad).sqrt());
        if self.real {
            let v = self.re.abs().sqrt();
            let rad = rad_from_input + 2.0 * EPS * v;
            return if self.re > 0.0 { Ball::real(v, rad) } else { Ball::complex(0.0, v, rad) };
        }
        if self.re < 0.0 && self.im.abs() <= self.rad {
            return None;
        }
        let t = ((m + self.re.abs()) / 2.0).sqrt();
        let (re, im) =
            if self.re >= 0.0 { (t, self.im / (2.0 * t)) } else { (self.im.abs() / (2.0 * t), t.copysign(self.im)) };
        Ball::complex(re, im, rad_from_input + 6.0 * EPS * m.sqrt())
    }

    /// `self^o`: exact integer exponents by squaring, otherwise the principal `exp(o ln self)`.
    pub fn pow(self, o: Ball) -> Option<Ball> {
        if o.real && o.rad == 0.0 && o.re.fract() == 0.0 && o.re.abs() <= 1_048_576.0 {
            return self.powi(o.re as i64);
        }
        if self.re == 0.0 && self.im == 0.0 && self.rad == 0.0 {
            return (o.real && o.re - o.rad > 0.0).then_some(Ball::exact_real(0.0));
        }
        self.ln()?.mul(o)?.exp()
    }

    fn sin_cos(self) -> Option<(Ball, Ball)> {
        if self.real {
            let (s, c) = self.re.sin_cos();
            return Some((
                Ball::real(s, self.rad + 2.0 * EPS * s.abs() + f64::MIN_POSITIVE)?,
                Ball::real(c, self.rad + 2.0 * EPS * c.abs() + f64::MIN_POSITIVE)?,
            ));
        }
        let (s, c) = self.re.sin_cos();
        let (ch, sh) = (self.im.cosh(), self.im.sinh());
        let growth = (self.im.abs() + self.rad).cosh();
        let rad = self.rad * growth + 8.0 * EPS * growth;
        Some((Ball::complex(s * ch, c * sh, rad)?, Ball::complex(c * ch, -s * sh, rad)?))
    }

    /// The real interval holding the value, rounded outwards (an exact ball stays a point).
    fn real_interval(self) -> Option<(f64, f64)> {
        if !self.real {
            return None;
        }
        if self.rad == 0.0 {
            return Some((self.re, self.re));
        }
        let slack = EPS * self.re.abs() + f64::MIN_POSITIVE;
        Some((self.re - self.rad - slack, self.re + self.rad + slack))
    }

    fn asin_acos(self, cosine: bool) -> Option<Ball> {
        let Some((lo, hi)) = self.real_interval().filter(|&(lo, hi)| lo >= -1.0 && hi <= 1.0) else {
            return self.complex_asin_acos(cosine);
        };
        let v = if cosine { self.re.acos() } else { self.re.asin() };
        let edge = lo.abs().max(hi.abs());
        let rad = if self.rad == 0.0 {
            0.0
        } else if edge < 1.0 {
            self.rad / (1.0 - edge * edge).sqrt()
        } else {
            (2.0 * self.rad).sqrt() * 2.0
        };
        Ball::real(v, rad + 2.0 * EPS * v.abs())
    }

    /// Principal branches off the real segment [-1, 1]: asin z = -i ln(iz + sqrt(1 - z^2)),
    /// acos z = pi/2 - asin z (sympy's branches).
    fn complex_asin_acos(self, cosine: bool) -> Option<Ball> {
        let i = Ball { re: 0.0, im: 1.0, rad: 0.0, real: false };
        let one = Ball::exact_real(1.0);
        let root = one.sub(self.mul(self)?)?.sqrt()?;
        let asin = i.mul(self)?.add(root)?.ln()?.mul(i.neg())?;
        if cosine {
            Ball::real(std::f64::consts::FRAC_PI_2, EPS * 2.0)?.sub(asin)
        } else {
            Some(asin)
        }
    }

    /// Principal arctangent off the real line: atan z = (i/2)(ln(1 - iz) - ln(1 + iz)).
    fn complex_atan(self) -> Option<Ball> {
        let i = Ball { re: 0.0, im: 1.0, rad: 0.0, real: false };
        let one = Ball::exact_real(1.0);
        let iz = i.mul(self)?;
        one.sub(iz)?.ln()?.sub(one.add(iz)?.ln()?)?.mul(Ball { re: 0.0, im: 0.5, rad: 0.0, real: false })
    }

    fn gamma(self) -> Option<Ball> {
        let (lo, _) = self.real_interval()?;
        if self.rad == 0.0 && self.re.fract() == 0.0 && (1.0..=171.0).contains(&self.re) {
            let n = self.re as u32;
            let v: f64 = (1..n).map(f64::from).product();
            return Ball::real(v, v * EPS * f64::from(n));
        }
        if lo < 0.5 {
            return None;
        }
        let v = lanczos_gamma(self.re);
        // |Γ'(x)| = Γ(x)|ψ(x)| and |ψ(x)| < |ln x| + 1/x for x >= 0.5; the approximation itself
        // is good to about 1e-15 relative.
        let hi = self.re + self.rad;
        let psi = hi.ln().abs().max(lo.ln().abs()) + 1.0 / lo;
        let growth = (psi * self.rad).exp();
        Ball::real(v, v * ((psi * self.rad) * growth + 1e-13))
    }
}

/// Lanczos approximation (g = 7, n = 9), for x >= 0.5.
fn lanczos_gamma(x: f64) -> f64 {
    const G: f64 = 7.0;
    const C: [f64; 9] = [
        0.999_999_999_999_809_9, 676.520_368_121_885_1, -1_259.139_216_722_402_8, 771.323_428_777_653_1,
        -176.615_029_162_140_6, 12.507_343_278_686_905, -0.138_571_095_265_720_12, 9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    let x = x - 1.0;
    let mut a = C[0];
    let t = x + G + 0.5;
    for (i, c) in C.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    (2.0 * std::f64::consts::PI).sqrt() * t.powf(x + 0.5) * (-t).exp() * a
}

/// A rational as f64 and whether the conversion is exact. Works for numerators and
/// denominators of any size; none outside the f64 range this module accepts.
pub fn rational_to_f64(r: &BigRational) -> Option<(f64, bool)> {
    let (n, d) = (r.numer(), r.denom());
    if n.is_zero() {
        return Some((0.0, true));
    }
    const LIMIT: u64 = 53;
    if n.bits() <= LIMIT && d.bits() <= LIMIT {
        let (nf, df) = (n.to_f64()?, d.to_f64()?);
        let v = nf / df;
        // Exact when the denominator is a power of two (the quotient is then representable).
        let exact = d.bits() == 1 || (d.magnitude().count_ones() == 1);
        return Some((v, exact));
    }
    let shift = 64 + d.bits() as i64 - n.bits() as i64;
    let scaled = if shift >= 0 { (n << shift as usize) / d } else { n / (d << (-shift) as usize) };
    let v = ldexp(scaled.to_f64()?, -shift);
    (v.is_finite() && v != 0.0).then_some((v, false))
}

fn ldexp(mut x: f64, mut e: i64) -> f64 {
    while e > 1000 {
        x *= 2f64.powi(1000);
        e -= 1000;
    }
    while e < -1000 {
        x *= 2f64.powi(-1000);
        e += 1000;
    }
    x * 2f64.powi(e as i32)
}

/// Values of free variables at one evaluation point.
pub trait PointValues {
    fn ball(&self, symbol: &Symbol) -> Option<Ball>;
}

/// No variable has a value: for constants.
pub struct NoPoints;

impl PointValues for NoPoints {
    fn ball(&self, _: &Symbol) -> Option<Ball> {
        None
    }
}

/// Evaluates `e` to a ball under `readings`; `None` where the value is undefined or out of range.
pub fn evaluate(e: &Expr, readings: Readings, symbols: &dyn PointValues) -> Option<Ball> {
    let eval = |x: &Expr| evaluate(x, readings, symbols);
    match e {
        Expr::Num(r) => Ball::from_rational(r),
        Expr::Decimal(d) => Ball::from_rational(&d.value),
        Expr::Based { value, .. } => Ball::from_integer(value),
        Expr::Sym(s) => symbols.ball(s),
        Expr::Const(Constant::Pi) => Ball::real(std::f64::consts::PI, EPS * std::f64::consts::PI),
        Expr::Const(Constant::E) => Ball::real(std::f64::consts::E, EPS * std::f64::consts::E),
        Expr::Const(Constant::I) => Some(Ball { re: 0.0, im: 1.0, rad: 0.0, real: false }),
        Expr::Infinity | Expr::PlusMinus { .. } => None,
        Expr::Add(terms) => terms.iter().try_fold(Ball::exact_real(0.0), |acc, t| acc.add(eval(t)?)),
        Expr::Mul(factors) => factors.iter().try_fold(Ball::exact_real(1.0), |acc, f| acc.mul(eval(f)?)),
        Expr::Neg(a) => eval(a).map(Ball::neg),
        Expr::Div(a, b) => eval(a)?.div(eval(b)?),
        Expr::Pow(base, exponent) => {
            if let Expr::Const(Constant::E) = **base {
                return eval(exponent)?.exp();
            }
            let (b, x) = (eval(base)?, eval(exponent)?);
            // A negative base has a real odd root, as in [`super::exact::power`]. The exponent
            // is inspected only for a negative base: this runs at every evaluation point.
            if b.real && b.re + b.rad < 0.0 {
                if let Some((p, _)) = exponent.odd_root_exponent() {
                    let magnitude = b.neg().pow(x)?;
                    return Some(if p % 2 == 0 { magnitude } else { magnitude.neg() });
                }
            }
            b.pow(x)
        }
        Expr::Func(f, args) => function(*f, args, &eval),
        Expr::Log { base, arg } => {
            let x = eval(arg)?.ln()?;
            match base.as_deref() {
                Some(Expr::Const(Constant::E)) => Some(x),
                Some(b) => x.div(eval(b)?.ln()?),
                None if readings & READING_LOG != 0 => x.div(Ball::real(std::f64::consts::LN_10, EPS * 3.0)?),
                None => Some(x),
            }
        }
        Expr::Factorial(n) => eval(n)?.add(Ball::exact_real(1.0))?.gamma(),
        Expr::Percent(x) => eval(x)?.div(Ball::exact_real(100.0)),
        Expr::Degrees(x) => eval(x)?.mul(eval(&Expr::Const(Constant::Pi))?)?.div(Ball::exact_real(180.0)),
        Expr::Apply { func, arg, atom } => {
            if readings & READING_APPLY != 0 {
                symbols.ball(atom)
            } else {
                symbols.ball(func)?.mul(eval(arg)?)
            }
        }
        Expr::SlashTail { num, den, tail } => {
            let (n, d, t) = (eval(num)?, eval(den)?, eval(tail)?);
            if readings & READING_SLASH != 0 {
                n.div(d.mul(t)?)
            } else {
                n.div(d)?.mul(t)
            }
        }
    }
}

/// The argument of a real number: 0 when it is certainly positive, pi when certainly negative,
/// no value when its sign is unknown (or it is zero).
fn sign_argument(x: Ball) -> Option<Ball> {
    let (lo, hi) = x.real_interval()?;
    if lo > 0.0 {
        Some(Ball::exact_real(0.0))
    } else if hi < 0.0 {
        Ball::real(std::f64::consts::PI, EPS * std::f64::consts::PI)
    } else {
        None
    }
}

/// The argument, in (-pi, pi], of a point known to lie within `rad` of (`x`, `y`): no value when
/// that disk reaches the origin or the negative real axis, where the argument jumps. Within the
/// disk the argument moves by at most asin(rad / r) <= rad / (r - rad), r the point's distance
/// from the origin.
fn point_argument(x: f64, y: f64, rad: f64) -> Option<Ball> {
    let r = x.hypot(y);
    let slack = rad + EPS * r;
    if r <= 2.0 * slack || (x - slack < 0.0 && y.abs() <= slack) {
        return None;
    }
    let v = y.atan2(x);
    Ball::real(v, slack / (r - slack) + 4.0 * EPS * v.abs())
}

fn function(f: Func, args: &[Expr], eval: &dyn Fn(&Expr) -> Option<Ball>) -> Option<Ball> {
    let arg = |i: usize| args.get(i).and_then(eval);
    match f {
        Func::Sqrt => arg(0)?.sqrt(),
        Func::Root => {
            let n = arg(0)?;
            let x = arg(1)?;
            if n.real && n.rad == 0.0 && n.re.fract() == 0.0 && n.re >= 1.0 {
                let inverse = Ball::exact_real(1.0).div(n)?;
                if x.real && x.re + x.rad < 0.0 && n.re % 2.0 == 1.0 {
                    return x.neg().pow(inverse).map(Ball::neg);
                }
                return x.pow(inverse);
            }
            x.pow(Ball::exact_real(1.0).div(n)?)
        }
        Func::Sin => Some(arg(0)?.sin_cos()?.0),
        Func::Cos => Some(arg(0)?.sin_cos()?.1),
        Func::Tan => {
            let (s, c) = arg(0)?.sin_cos()?;
            s.div(c)
        }
        Func::Cot => {
            let (s, c) = arg(0)?.sin_cos()?;
            c.div(s)
        }
        Func::Sec => arg(0)?.sin_cos()?.1.recip(),
        Func::Csc => arg(0)?.sin_cos()?.0.recip(),
        Func::Asin => arg(0)?.asin_acos(false),
        Func::Acos => arg(0)?.asin_acos(true),
        Func::Atan => {
            let x = arg(0)?;
            if x.real_interval().is_none() {
                return x.complex_atan();
            }
            let v = x.re.atan();
            Ball::real(v, x.rad + 2.0 * EPS * v.abs())
        }
        Func::Sinh | Func::Cosh | Func::Tanh => {
            let x = arg(0)?;
            let (e, inv) = (x.exp()?, x.neg().exp()?);
            let half = Ball::exact_real(0.5);
            match f {
                Func::Sinh => e.sub(inv)?.mul(half),
                Func::Cosh => e.add(inv)?.mul(half),
                _ => e.sub(inv)?.div(e.add(inv)?),
            }
        }
        Func::Ln => arg(0)?.ln(),
        Func::Exp => arg(0)?.exp(),
        Func::Abs => {
            let x = arg(0)?;
            let v = x.abs();
            Ball::real(v, x.rad + 2.0 * EPS * v)
        }
        Func::Floor | Func::Ceil => {
            let (lo, hi) = arg(0)?.real_interval()?;
            let round = |v: f64| if f == Func::Floor { v.floor() } else { v.ceil() };
            (round(lo) == round(hi)).then(|| Ball::exact_real(round(lo)))
        }
        Func::Binom => {
            let one = Ball::exact_real(1.0);
            let (n, k) = (arg(0)?, arg(1)?);
            let top = n.add(one)?.gamma()?;
            let left = k.add(one)?.gamma()?;
            let right = n.sub(k)?.add(one)?.gamma()?;
            top.div(left.mul(right)?)
        }
        Func::Gcd | Func::Lcm => {
            let mut acc: Option<u64> = None;
            for a in args {
                let v = eval(a)?;
                if !(v.real && v.rad == 0.0 && v.re.fract() == 0.0 && v.re.abs() < 9.0e15) {
                    return None;
                }
                let v = v.re.abs() as u64;
                acc = Some(match acc {
                    None => v,
                    Some(p) if f == Func::Gcd => gcd(p, v),
                    Some(p) => (p / gcd(p, v).max(1)).checked_mul(v)?,
                });
            }
            acc.map(|v| Ball::exact_real(v as f64))
        }
        Func::Re => {
            let x = arg(0)?;
            Ball::real(x.re, x.rad)
        }
        Func::Im => {
            let x = arg(0)?;
            if x.real {
                return Some(Ball::exact_real(0.0));
            }
            Ball::real(x.im, x.rad)
        }
        Func::Arg => {
            let x = arg(0)?;
            if x.real {
                return sign_argument(x);
            }
            point_argument(x.re, x.im, x.rad)
        }
        Func::Conj => {
            let x = arg(0)?;
            Some(Ball { im: -x.im, ..x })
        }
        Func::Atan2 => {
            let (y, x) = (arg(0)?, arg(1)?);
            if !(x.real && y.real) {
                return None;
            }
            if y.rad == 0.0 && y.re == 0.0 {
                return sign_argument(x);
            }
            point_argument(x.re, y.re, x.rad.hypot(y.rad))
        }
        Func::Max | Func::Min => {
            let mut best: Option<Ball> = None;
            for a in args {
                let v = eval(a)?;
                let (lo, hi) = v.real_interval()?;
                best = Some(match best {
                    None => v,
                    Some(b) => {
                        let (blo, bhi) = b.real_interval()?;
                        let v_wins = if f == Func::Max { lo > bhi } else { hi < blo };
                        let b_wins = if f == Func::Max { blo > hi } else { bhi < lo };
                        if v_wins {
                            v
                        } else if b_wins || (b == v) {
                            b
                        } else {
                            return None;
                        }
                    }
                });
            }
            best
        }
    }
}

pub(super) fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The outcome of comparing two balls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BallOrder {
    /// The difference is certified to be within the relative tolerance.
    Close,
    /// The difference clearly excludes zero.
    Apart,
    /// Neither: the radii are too wide relative to the values.
    Undecided,
}

/// Relative comparison: apart when the difference exceeds twice the combined radius (the
/// factor two is a safety margin on the radius bookkeeping), close when the combined radius is
/// within `rel_tol` of the larger magnitude, undecided otherwise.
pub fn compare_balls(a: &Ball, b: &Ball, rel_tol: f64) -> BallOrder {
    let distance = (a.re - b.re).hypot(a.im - b.im);
    let magnitude = a.abs().max(b.abs());
    let radius = a.rad + b.rad + EPS * magnitude;
    if distance > 2.0 * radius + 4.0 * EPS * magnitude {
        BallOrder::Apart
    } else if radius <= rel_tol * magnitude || (magnitude == 0.0 && radius == 0.0) {
        BallOrder::Close
    } else {
        BallOrder::Undecided
    }
}

/// A real interval `[lo, hi]` bounding the real part, when the value is certainly real or its
/// imaginary part is within its radius.
pub fn real_bounds(b: &Ball) -> Option<(f64, f64)> {
    (b.real || b.im.abs() <= b.rad).then_some((b.re - b.rad, b.re + b.rad))
}

/// The sign of a real ball when certain.
pub fn certain_sign(b: &Ball) -> Option<std::cmp::Ordering> {
    let (lo, hi) = real_bounds(b)?;
    if lo > 0.0 {
        Some(std::cmp::Ordering::Greater)
    } else if hi < 0.0 {
        Some(std::cmp::Ordering::Less)
    } else if b.rad == 0.0 && b.re == 0.0 {
        Some(std::cmp::Ordering::Equal)
    } else {
        None
    }
}

/// True when the value is certainly not real.
pub fn certainly_complex(b: &Ball) -> bool {
    !b.real && b.im.abs() > b.rad
}

/// Test helper: `a` is within 1e-10 (relative) of `b`.
#[cfg(test)]
fn close(a: Option<Ball>, b: f64) -> bool {
    a.is_some_and(|a| compare_balls(&a, &Ball::exact_real(b), 1e-10) == BallOrder::Close)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(e: &Expr) -> Option<Ball> {
        evaluate(e, 0, &NoPoints)
    }

    fn f(func: Func, a: Expr) -> Expr {
        Expr::Func(func, vec![a])
    }

    fn div(a: Expr, b: Expr) -> Expr {
        Expr::Div(Box::new(a), Box::new(b))
    }

    fn pi() -> Expr {
        Expr::Const(Constant::Pi)
    }

    #[test]
    fn closed_forms() {
        assert!(close(ev(&f(Func::Sin, div(pi(), Expr::int(6)))), 0.5));
        let lhs = ev(&div(Expr::Func(Func::Sqrt, vec![Expr::int(3)]), Expr::int(3))).unwrap();
        let rhs = ev(&div(Expr::int(1), Expr::Func(Func::Sqrt, vec![Expr::int(3)]))).unwrap();
        assert_eq!(compare_balls(&lhs, &rhs, 1e-10), BallOrder::Close);
        assert!(close(ev(&Expr::Log { base: Some(Box::new(Expr::int(2))), arg: Box::new(Expr::int(8)) }), 3.0));
    }

    #[test]
    fn sin_pi_is_undecided_against_zero() {
        let s = ev(&f(Func::Sin, pi())).unwrap();
        assert_eq!(compare_balls(&s, &Ball::exact_real(0.0), 1e-10), BallOrder::Undecided);
    }

    #[test]
    fn complex_values() {
        let i = Expr::Const(Constant::I);
        let e_i_pi = Expr::Pow(Box::new(Expr::Const(Constant::E)), Box::new(Expr::Mul(vec![i.clone(), pi()])));
        let v = ev(&e_i_pi).unwrap();
        assert_eq!(compare_balls(&v, &Ball::exact_real(-1.0), 1e-10), BallOrder::Close);
        let root = ev(&f(Func::Sqrt, Expr::int(-4))).unwrap();
        assert_eq!(compare_balls(&root, &Ball { re: 0.0, im: 2.0, rad: 0.0, real: false }, 1e-10), BallOrder::Close);
        let ln = ev(&f(Func::Ln, Expr::int(-1))).unwrap();
        assert_eq!(
            compare_balls(&ln, &Ball { re: 0.0, im: std::f64::consts::PI, rad: 0.0, real: false }, 1e-10),
            BallOrder::Close
        );
    }

    #[test]
    fn tiny_and_huge_values() {
        let small = |n: i64| ev(&div(Expr::int(1), Expr::Pow(Box::new(Expr::int(2)), Box::new(Expr::int(n))))).unwrap();
        assert_eq!(compare_balls(&small(99), &small(98), 1e-10), BallOrder::Apart);
        assert!(ev(&Expr::Pow(Box::new(Expr::int(10)), Box::new(Expr::int(400)))).is_none());
        assert!(ev(&Expr::Factorial(Box::new(Expr::int(2004)))).is_none());
        let big = BigRational::from_integer(BigInt::from(10).pow(250));
        let (v, exact) = rational_to_f64(&big).unwrap();
        assert!(!exact && (v / 1e250 - 1.0).abs() < 1e-15);
    }

    #[test]
    fn inverse_trig_off_the_real_segment() {
        // sympy: asin(2) = pi/2 - i acosh(2).
        let v = ev(&f(Func::Asin, Expr::int(2))).unwrap();
        let expected =
            Ball { re: std::f64::consts::FRAC_PI_2, im: -(2.0f64 + 3f64.sqrt()).ln(), rad: 0.0, real: false };
        assert_eq!(compare_balls(&v, &expected, 1e-10), BallOrder::Close);
        let w = ev(&f(Func::Atan, Expr::Const(Constant::I))).is_none();
        assert!(w, "atan(i) is a pole");
    }

    #[test]
    fn gamma_matches_factorials() {
        let five = Ball::exact_real(6.0).gamma().unwrap();
        assert_eq!(five.re, 120.0);
        let half = Ball::exact_real(1.5).gamma().unwrap();
        assert_eq!(compare_balls(&half, &Ball::exact_real(std::f64::consts::PI.sqrt() / 2.0), 1e-10), BallOrder::Close);
    }

    #[test]
    fn floor_refuses_straddling_balls() {
        let third = Ball::from_rational(&BigRational::new(BigInt::from(6), BigInt::from(3))).unwrap();
        assert_eq!(f64::floor(third.re), 2.0);
        let near_two = Ball { re: 2.0, im: 0.0, rad: 1e-16, real: true };
        assert!(function(Func::Floor, &[Expr::int(0)], &|_| Some(near_two)).is_none());
    }
}
