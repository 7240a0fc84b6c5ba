//! The expression tree of one scalar value, and the facts about it that comparison needs.
//!
//! Some notations have two standard readings, and an answer is only called equal when it is
//! equal under every reading both sides could have meant. Each such notation is a node that
//! knows both readings and a bit in [`Readings`]:
//! - [`Expr::Log`] without a base: natural or decimal logarithm;
//! - [`Expr::Apply`], a letter before a parenthesised single symbol or number (`f(x)`, `I(0)`,
//!   `u(t)`): a function application or a product. Read as an application it is an opaque value
//!   keyed by its text, which proves equality for every function the letter could name;
//! - [`Expr::SlashTail`], `a/b c`: `(a/b)·c` or `a/(b·c)`.

use num_bigint::BigInt;
use num_rational::BigRational;

/// A bit set of the ambiguous notations an expression contains.
pub type Readings = u8;
pub const READING_LOG: Readings = 1;
pub const READING_APPLY: Readings = 2;
pub const READING_SLASH: Readings = 4;
pub const ALL_READINGS: Readings = READING_LOG | READING_APPLY | READING_SLASH;

/// A free variable. The hash (of the name) seeds its pseudo-random values at evaluation points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    pub hash: u64,
}

impl Symbol {
    pub fn new(name: impl Into<String>) -> Symbol {
        let name = name.into();
        let hash = fnv1a(name.as_bytes());
        Symbol { name, hash }
    }
}

/// FNV-1a: small, stable across runs and platforms (evaluation points must be reproducible).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Constant {
    Pi,
    /// Euler's number: `e`, `\mathrm{e}`, `\exp`.
    E,
    /// The imaginary unit `i`.
    I,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Func {
    Sqrt,
    /// `\sqrt[n]{x}`: arguments (index, radicand); the real root for odd n and negative x.
    Root,
    Sin,
    Cos,
    Tan,
    Cot,
    Sec,
    Csc,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Tanh,
    Ln,
    Exp,
    Abs,
    Floor,
    Ceil,
    /// `\binom{n}{k}`: arguments (n, k).
    Binom,
    Gcd,
    Lcm,
    Max,
    Min,
    /// The real part, the imaginary part and the principal argument (in (-pi, pi]) of a
    /// complex number.
    Re,
    Im,
    Arg,
    /// `atan2(y, x)`: the argument of the point (x, y), in (-pi, pi].
    Atan2,
    /// The complex conjugate (`\overline{3+4i}`).
    Conj,
}

impl Func {
    /// Number of arguments, `None` for the variadic ones.
    pub fn arity(self) -> Option<usize> {
        match self {
            Func::Root | Func::Binom => Some(2),
            Func::Gcd | Func::Lcm | Func::Max | Func::Min => None,
            Func::Atan2 => Some(2),
            _ => Some(1),
        }
    }

    pub fn from_name(name: &str) -> Option<Func> {
        Some(match name {
            "sqrt" => Func::Sqrt,
            "sin" => Func::Sin,
            "cos" => Func::Cos,
            "tan" => Func::Tan,
            "cot" => Func::Cot,
            "sec" => Func::Sec,
            "csc" | "cosec" => Func::Csc,
            "arcsin" | "asin" => Func::Asin,
            "arccos" | "acos" => Func::Acos,
            "arctan" | "atan" => Func::Atan,
            "sinh" => Func::Sinh,
            "cosh" => Func::Cosh,
            "tanh" => Func::Tanh,
            "ln" => Func::Ln,
            "exp" => Func::Exp,
            // sympy writes `Abs`, `ceiling` and `binomial`.
            "abs" | "Abs" => Func::Abs,
            "floor" => Func::Floor,
            "ceil" | "ceiling" => Func::Ceil,
            "binomial" => Func::Binom,
            "gcd" => Func::Gcd,
            "lcm" => Func::Lcm,
            "max" => Func::Max,
            "min" => Func::Min,
            "re" | "Re" => Func::Re,
            "im" | "Im" => Func::Im,
            "arg" | "Arg" => Func::Arg,
            "atan2" | "arctan2" => Func::Atan2,
            "conj" | "conjugate" => Func::Conj,
            _ => return None,
        })
    }

    /// The inverse written `f^{-1}` (`\sin^{-1} x` is `\arcsin x`).
    pub fn inverse(self) -> Option<Func> {
        Some(match self {
            Func::Sin => Func::Asin,
            Func::Cos => Func::Acos,
            Func::Tan => Func::Atan,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Func::Sqrt => "sqrt",
            Func::Root => "root",
            Func::Sin => "sin",
            Func::Cos => "cos",
            Func::Tan => "tan",
            Func::Cot => "cot",
            Func::Sec => "sec",
            Func::Csc => "csc",
            Func::Asin => "asin",
            Func::Acos => "acos",
            Func::Atan => "atan",
            Func::Sinh => "sinh",
            Func::Cosh => "cosh",
            Func::Tanh => "tanh",
            Func::Ln => "log",
            Func::Exp => "exp",
            Func::Abs => "Abs",
            Func::Floor => "floor",
            Func::Ceil => "ceiling",
            Func::Binom => "binomial",
            Func::Gcd => "gcd",
            Func::Lcm => "lcm",
            Func::Max => "Max",
            Func::Min => "Min",
            Func::Re => "re",
            Func::Im => "im",
            Func::Arg => "arg",
            Func::Atan2 => "atan2",
            Func::Conj => "conjugate",
        }
    }
}

/// A decimal literal as written (`0.333`, `8.7 \times 10^{8}`, `4.5e33`): its value and how
/// precisely it was written, for the decimal-vs-exact policy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decimal {
    pub value: BigRational,
    pub significant_digits: u32,
    /// The power of ten of the last written digit (`0.333` -> -3, `4.5e33` -> 32).
    pub last_digit_exponent: i64,
}

impl Decimal {
    /// Largest power of ten used for [`Decimal::half_ulp`].
    pub const MAX_EXPONENT: i64 = 4_000;

    /// Half a unit of the last written digit, exactly: what the value may be off by and still
    /// round to this decimal (`None` beyond 10^±[`Decimal::MAX_EXPONENT`]).
    pub fn half_ulp(&self) -> Option<BigRational> {
        let e = self.last_digit_exponent;
        if e.abs() > Self::MAX_EXPONENT {
            return None;
        }
        let power = BigInt::from(10).pow(e.unsigned_abs() as u32);
        let two = BigInt::from(2);
        Some(if e >= 0 { BigRational::new(power, two) } else { BigRational::new(BigInt::from(1), power * two) })
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// An exact rational literal (integer, fraction digits of an integer, `10^{k}` folded later).
    Num(Box<BigRational>),
    /// A literal written with a decimal point.
    Decimal(Box<Decimal>),
    /// A numeral in another base, `52_8`: digits as written, the base and the value.
    Based {
        digits: String,
        base: u32,
        value: Box<BigInt>,
    },
    Sym(Symbol),
    Const(Constant),
    /// `\infty` (negative infinity is `Neg(Infinity)`); only meaningful as an interval bound.
    Infinity,
    Add(Vec<Expr>),
    Mul(Vec<Expr>),
    Neg(Box<Expr>),
    Div(Box<Expr>, Box<Expr>),
    Pow(Box<Expr>, Box<Expr>),
    Func(Func, Vec<Expr>),
    /// A logarithm; `base: None` is `\log x` with no base (natural or decimal: see module doc).
    Log {
        base: Option<Box<Expr>>,
        arg: Box<Expr>,
    },
    Factorial(Box<Expr>),
    /// `x\%` inside a larger expression: x/100.
    Percent(Box<Expr>),
    /// `x^\circ` inside a larger expression (`\sin 30^\circ`): x·π/180.
    Degrees(Box<Expr>),
    /// `f(x)`: the product `func·arg` or the opaque application `atom` (see module doc).
    Apply {
        func: Symbol,
        arg: Box<Expr>,
        atom: Symbol,
    },
    /// `a/b c`: `(a/b)·c` or `a/(b·c)`.
    SlashTail {
        num: Box<Expr>,
        den: Box<Expr>,
        tail: Box<Expr>,
    },
    /// `a \pm b` (or unary `\pm b`); expanded into two answers before comparison. Where it
    /// cannot be expanded (inside a tuple) it has no value.
    PlusMinus {
        lhs: Option<Box<Expr>>,
        rhs: Box<Expr>,
        minus_first: bool,
    },
}

/// Levels [`Expr::info`] walks by recursion before it continues with an explicit stack.
const INFO_RECURSION: u32 = 32;

/// Facts gathered in one walk over an expression.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ExprInfo {
    pub readings: Readings,
    pub free_symbols: bool,
    pub plus_minus: u32,
    /// Some sign is `\mp`: then every sign follows one choice ([`Expr::expand_plus_minus`]).
    pub minus_plus: bool,
    pub infinity: bool,
    pub depth: u32,
}

impl Expr {
    /// `p/q` when `self` is a rational constant written as such (`\frac{2}{3}`, `-5/3`, `2/6`)
    /// whose denominator in lowest terms is odd and at least 3: the exponents for which a
    /// negative base has a real power, `x^{p/q} = (\sqrt[q]{x})^p` (see [`super::exact::power`]).
    pub fn odd_root_exponent(&self) -> Option<(i64, u64)> {
        use num_integer::Integer as _;
        use num_traits::{ToPrimitive as _, Zero as _};
        fn small(e: &Expr) -> Option<BigRational> {
            match e {
                Expr::Num(r) => Some((**r).clone()),
                Expr::Neg(a) => small(a).map(|r| -r),
                Expr::Div(a, b) => {
                    let (a, b) = (small(a)?, small(b)?);
                    (!b.numer().is_zero()).then(|| a / b)
                }
                _ => None,
            }
        }
        let r = small(self)?;
        let q = r.denom().to_u64()?;
        (q >= 3 && q.is_odd()).then_some(())?;
        Some((r.numer().to_i64()?, q))
    }

    pub fn int(v: i64) -> Expr {
        Expr::Num(Box::new(BigRational::from_integer(BigInt::from(v))))
    }

    pub fn rational(v: BigRational) -> Expr {
        Expr::Num(Box::new(v))
    }

    pub fn neg(e: Expr) -> Expr {
        Expr::Neg(Box::new(e))
    }

    /// Calls `f` on each direct child.
    pub fn for_each_child<'a>(&'a self, mut f: impl FnMut(&'a Expr)) {
        match self {
            Expr::Num(_) | Expr::Decimal(_) | Expr::Based { .. } | Expr::Sym(_) | Expr::Const(_) | Expr::Infinity => {}
            Expr::Add(v) | Expr::Mul(v) | Expr::Func(_, v) => v.iter().for_each(f),
            Expr::Neg(a) | Expr::Factorial(a) | Expr::Percent(a) | Expr::Degrees(a) | Expr::Apply { arg: a, .. } => {
                f(a)
            }
            Expr::Div(a, b) | Expr::Pow(a, b) => {
                f(a);
                f(b);
            }
            Expr::Log { base, arg } => {
                if let Some(b) = base {
                    f(b);
                }
                f(arg);
            }
            Expr::SlashTail { num, den, tail } => {
                f(num);
                f(den);
                f(tail);
            }
            Expr::PlusMinus { lhs, rhs, .. } => {
                if let Some(l) = lhs {
                    f(l);
                }
                f(rhs);
            }
        }
    }

    /// Walks the tree: recursion at most [`INFO_RECURSION`] levels at a time, deeper subtrees
    /// through an explicit stack (allocated only for them), so any depth is safe. The facts are
    /// order-independent (or, max, sum), so the walk order does not matter.
    pub fn info(&self) -> ExprInfo {
        let mut info = ExprInfo::default();
        let mut deeper: Vec<(&Expr, u32)> = Vec::new();
        self.info_walk(1, 0, &mut info, &mut deeper);
        while let Some((e, depth)) = deeper.pop() {
            e.info_walk(depth, 0, &mut info, &mut deeper);
        }
        info
    }

    fn info_walk<'a>(&'a self, depth: u32, level: u32, info: &mut ExprInfo, deeper: &mut Vec<(&'a Expr, u32)>) {
        info.depth = info.depth.max(depth);
        match self {
            Expr::Sym(_) => info.free_symbols = true,
            Expr::Infinity => info.infinity = true,
            Expr::Log { base: None, .. } => info.readings |= READING_LOG,
            Expr::Apply { .. } => {
                info.readings |= READING_APPLY;
                info.free_symbols = true;
            }
            Expr::SlashTail { .. } => info.readings |= READING_SLASH,
            Expr::PlusMinus { minus_first, .. } => {
                info.plus_minus += 1;
                info.minus_plus |= *minus_first;
            }
            _ => {}
        }
        if level >= INFO_RECURSION {
            self.for_each_child(|c| deeper.push((c, depth + 1)));
        } else {
            self.for_each_child(|c| c.info_walk(depth + 1, level + 1, info, deeper));
        }
    }

    /// The variants of an expression with `\pm`/`\mp` resolved, `+` first. Signs are
    /// independent, 2^k variants for k signs (the caller bounds k: `\pm\sqrt{2} \pm \sqrt{3}` is
    /// four numbers), unless one of them is `\mp`, which only has a meaning against a `\pm`:
    /// then all follow one choice, `\mp` the opposite sign (`a \pm b \mp c` is `a + b - c` and
    /// `a - b + c`).
    pub fn expand_plus_minus(&self) -> Vec<Expr> {
        let info = self.info();
        let all = (1u32 << info.plus_minus) - 1;
        if info.minus_plus {
            return [0, all].iter().map(|&choice| self.resolve_signs(choice, &mut 0)).collect();
        }
        (0..=all).map(|choice| self.resolve_signs(choice, &mut 0)).collect()
    }

    fn resolve_signs(&self, choice: u32, next: &mut u32) -> Expr {
        let map = |e: &Expr, next: &mut u32| Box::new(e.resolve_signs(choice, next));
        match self {
            Expr::PlusMinus { lhs, rhs, minus_first } => {
                let bit = (choice >> *next) & 1 == 1;
                *next += 1;
                let minus = bit != *minus_first;
                let lhs = lhs.as_ref().map(|l| l.resolve_signs(choice, next));
                let rhs = rhs.resolve_signs(choice, next);
                let rhs = if minus { Expr::neg(rhs) } else { rhs };
                match lhs {
                    Some(l) => Expr::Add(vec![l, rhs]),
                    None => rhs,
                }
            }
            Expr::Add(v) => Expr::Add(v.iter().map(|c| c.resolve_signs(choice, next)).collect()),
            Expr::Mul(v) => Expr::Mul(v.iter().map(|c| c.resolve_signs(choice, next)).collect()),
            Expr::Func(f, v) => Expr::Func(*f, v.iter().map(|c| c.resolve_signs(choice, next)).collect()),
            Expr::Neg(a) => Expr::Neg(map(a, next)),
            Expr::Factorial(a) => Expr::Factorial(map(a, next)),
            Expr::Percent(a) => Expr::Percent(map(a, next)),
            Expr::Degrees(a) => Expr::Degrees(map(a, next)),
            Expr::Div(a, b) => {
                let a = map(a, next);
                Expr::Div(a, map(b, next))
            }
            Expr::Pow(a, b) => {
                let a = map(a, next);
                Expr::Pow(a, map(b, next))
            }
            Expr::Log { base, arg } => {
                let base = base.as_ref().map(|b| map(b, next));
                Expr::Log { base, arg: map(arg, next) }
            }
            Expr::Apply { func, arg, atom } => {
                Expr::Apply { func: func.clone(), arg: map(arg, next), atom: atom.clone() }
            }
            Expr::SlashTail { num, den, tail } => {
                let num = map(num, next);
                let den = map(den, next);
                Expr::SlashTail { num, den, tail: map(tail, next) }
            }
            leaf => leaf.clone(),
        }
    }

    /// The distinct names of the free variables (application atoms included), in order of
    /// first appearance.
    pub fn symbol_names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::new();
        let mut stack = vec![self];
        while let Some(e) = stack.pop() {
            let name = match e {
                Expr::Sym(s) => Some(s.name.as_str()),
                Expr::Apply { func, .. } => Some(func.name.as_str()),
                _ => None,
            };
            if let Some(n) = name.filter(|n| !names.contains(n)) {
                names.push(n);
            }
            e.for_each_child(|c| stack.push(c));
        }
        names
    }

    /// A copy with every variable renamed by `rename` (application atoms too).
    pub fn rename_symbols(&self, rename: &dyn Fn(&str) -> String) -> Expr {
        let boxed = |e: &Expr| Box::new(e.rename_symbols(rename));
        let symbol = |s: &Symbol| Symbol::new(rename(&s.name));
        match self {
            Expr::Sym(s) => Expr::Sym(symbol(s)),
            Expr::Add(v) => Expr::Add(v.iter().map(|c| c.rename_symbols(rename)).collect()),
            Expr::Mul(v) => Expr::Mul(v.iter().map(|c| c.rename_symbols(rename)).collect()),
            Expr::Func(f, v) => Expr::Func(*f, v.iter().map(|c| c.rename_symbols(rename)).collect()),
            Expr::Neg(a) => Expr::Neg(boxed(a)),
            Expr::Factorial(a) => Expr::Factorial(boxed(a)),
            Expr::Percent(a) => Expr::Percent(boxed(a)),
            Expr::Degrees(a) => Expr::Degrees(boxed(a)),
            Expr::Div(a, b) => Expr::Div(boxed(a), boxed(b)),
            Expr::Pow(a, b) => Expr::Pow(boxed(a), boxed(b)),
            Expr::Log { base, arg } => Expr::Log { base: base.as_deref().map(boxed), arg: boxed(arg) },
            Expr::Apply { func, arg, atom } => Expr::Apply { func: symbol(func), arg: boxed(arg), atom: symbol(atom) },
            Expr::SlashTail { num, den, tail } => {
                Expr::SlashTail { num: boxed(num), den: boxed(den), tail: boxed(tail) }
            }
            Expr::PlusMinus { lhs, rhs, minus_first } => {
                Expr::PlusMinus { lhs: lhs.as_deref().map(boxed), rhs: boxed(rhs), minus_first: *minus_first }
            }
            leaf => leaf.clone(),
        }
    }

    /// `Some(sign)` when the expression is `\infty`, `+\infty` or `-\infty` (sign ±1).
    pub fn infinity_sign(&self) -> Option<i8> {
        match self {
            Expr::Infinity => Some(1),
            Expr::Neg(inner) => inner.infinity_sign().map(|s| -s),
            _ => None,
        }
    }

    /// The name when the expression is a single symbol (a name-like left side of `x = 3`).
    pub fn as_symbol(&self) -> Option<&Symbol> {
        match self {
            Expr::Sym(s) => Some(s),
            Expr::Apply { atom, .. } => Some(atom),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sym(name: &str) -> Expr {
        Expr::Sym(Symbol::new(name))
    }

    #[test]
    fn info_collects_flags() {
        let e = Expr::Add(vec![
            Expr::Log { base: None, arg: Box::new(sym("x")) },
            Expr::PlusMinus { lhs: None, rhs: Box::new(Expr::int(1)), minus_first: false },
            Expr::Infinity,
        ]);
        let info = e.info();
        assert_eq!(info.readings, READING_LOG);
        assert!(info.free_symbols);
        assert_eq!(info.plus_minus, 1);
        assert!(info.infinity);
        assert_eq!(info.depth, 3);
    }

    #[test]
    fn plus_minus_expands_plus_first() {
        let e = Expr::PlusMinus { lhs: Some(Box::new(Expr::int(1))), rhs: Box::new(sym("s")), minus_first: false };
        let v = e.expand_plus_minus();
        assert_eq!(v.len(), 2);
        assert_eq!(v[0], Expr::Add(vec![Expr::int(1), sym("s")]));
        assert_eq!(v[1], Expr::Add(vec![Expr::int(1), Expr::neg(sym("s"))]));
        let two = Expr::Add(vec![e.clone(), e.clone()]);
        assert_eq!(two.expand_plus_minus().len(), 4);
        // With a `\mp`, the signs are linked: `1 ± s ∓ s` is `1 + s - s` and `1 - s + s`.
        let mp = Expr::PlusMinus { lhs: None, rhs: Box::new(sym("s")), minus_first: true };
        let linked = Expr::Add(vec![e, mp]).expand_plus_minus();
        assert_eq!(linked.len(), 2);
        assert_eq!(linked[0], Expr::Add(vec![Expr::Add(vec![Expr::int(1), sym("s")]), Expr::neg(sym("s"))]));
        assert_eq!(linked[1], Expr::Add(vec![Expr::Add(vec![Expr::int(1), Expr::neg(sym("s"))]), sym("s")]));
    }

    #[test]
    fn deep_trees_walk_without_recursion() {
        let mut e = Expr::int(1);
        for _ in 0..100_000 {
            e = Expr::neg(e);
        }
        assert_eq!(e.info().depth, 100_001);
        // Dropping a deep Box chain recursively would overflow; unwind it iteratively.
        while let Expr::Neg(inner) = e {
            e = *inner;
        }
    }
}
