//! The CAS form of an answer: a Python expression over sympy names and the container helpers
//! of `apr_fast.cas` (`Tuple_`, `Set_`, `List_`, `Union_`, `Matrix_`, `Rel_`, `S_`).
//!
//! Built from the parsed tree, never from LaTeX, so the worker never parses TeX and only sees
//! names this renderer emits: sympy functions from a fixed list, integer literals, and symbol
//! names reduced to `[A-Za-z0-9_]` inside `S_('...')`. Readings of ambiguous notation take the
//! primary one (natural log, `(a/b)c`), except that `f(x)` is an undefined function
//! `F_('f')(x)`, which makes an Equal from sympy hold for every reading. A top-level `\%` is the
//! number written (the strict percent policy); units are dropped.

use std::fmt::Write as _;

use num_rational::BigRational;

use super::expr::{Constant, Expr, Func};
use super::node::{Node, RelOp};

/// The CAS form of a node, if it has one.
pub fn render(node: &Node) -> Option<String> {
    render_rounding(node, u32::MAX)
}

/// [`render`], with each value that is a decimal of at least `min_digits` significant digits
/// written `Rounded_(value, half_ulp)`: it stands for every value that rounds to it, as the
/// native comparison reads it (`Policy::decimal_min_sig_digits`), and the worker compares the
/// other side at 60 digits against that window instead of exactly (`\pi` against
/// `3.141592653589793` is beyond f64 natively, and exactly the two differ).
pub fn render_rounding(node: &Node, min_digits: u32) -> Option<String> {
    let mut out = String::new();
    node_into(node, min_digits, &mut out)?;
    Some(out)
}

fn node_into(node: &Node, min_digits: u32, out: &mut String) -> Option<()> {
    match node {
        Node::Scalar(s) => {
            if s.info.plus_minus > 0 {
                return None;
            }
            if let Expr::Decimal(d) = &s.expr {
                if d.significant_digits >= min_digits {
                    let half_ulp = d.half_ulp()?;
                    out.push_str("Rounded_(");
                    rational_into(&d.value, out);
                    out.push_str(", ");
                    rational_into(&half_ulp, out);
                    out.push(')');
                    return Some(());
                }
            }
            expr_into(&s.expr, out)
        }
        Node::Relation(r) => {
            let ([lhs, rhs], [op]) = (r.parts.as_slice(), r.ops.as_slice()) else { return None };
            let name = match op {
                RelOp::Eq | RelOp::Approx => "eq",
                RelOp::Lt => "lt",
                RelOp::Le => "le",
                RelOp::Gt => "gt",
                RelOp::Ge => "ge",
                RelOp::Ne => "ne",
                RelOp::In => "in",
            };
            let _ = write!(out, "Rel_('{name}', ");
            node_into(lhs, min_digits, out)?;
            out.push_str(", ");
            node_into(rhs, min_digits, out)?;
            out.push(')');
            Some(())
        }
        Node::Bracketed { open, close, items } => {
            let _ = write!(out, "Tuple_('{open}{close}'");
            for item in items {
                out.push_str(", ");
                node_into(item, min_digits, out)?;
            }
            out.push(')');
            Some(())
        }
        Node::Ratio(r) if !r.clock_like => match &r.quotient {
            Some(quotient) => node_into(quotient, min_digits, out),
            None => None,
        },
        Node::Set(items) => container("Set_", items, min_digits, out),
        Node::List(items) => container("List_", items, min_digits, out),
        Node::Union(items) => container("Union_", items, min_digits, out),
        Node::EmptySet => {
            out.push_str("Set_()");
            Some(())
        }
        Node::NamedSet('R') => {
            out.push_str("Reals_()");
            Some(())
        }
        Node::Matrix { rows, cols, cells } => {
            let _ = write!(out, "Matrix_({rows}, {cols}");
            for cell in cells {
                out.push_str(", ");
                node_into(cell, min_digits, out)?;
            }
            out.push(')');
            Some(())
        }
        Node::NamedSet(_) | Node::Ratio(_) | Node::Choice { .. } | Node::Text(_) | Node::Unparsed(_) => None,
    }
}

fn container(name: &str, items: &[Node], min_digits: u32, out: &mut String) -> Option<()> {
    out.push_str(name);
    out.push('(');
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        node_into(item, min_digits, out)?;
    }
    out.push(')');
    Some(())
}

/// A symbol name as a safe identifier: letters, digits, `_` (primes become `_p`).
fn safe_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        match c {
            'a'..='z' | 'A'..='Z' | '0'..='9' | '_' => out.push(c),
            '\'' => out.push_str("_p"),
            '(' | ' ' | '/' | ',' => out.push('_'),
            _ => {}
        }
    }
    if out.is_empty() {
        out.push_str("s_");
    }
    out
}

fn rational_into(r: &BigRational, out: &mut String) {
    if r.is_integer() {
        let _ = write!(out, "Integer({})", r.numer());
    } else {
        let _ = write!(out, "Rational({}, {})", r.numer(), r.denom());
    }
}

fn call(name: &str, args: &[&Expr], out: &mut String) -> Option<()> {
    out.push_str(name);
    out.push('(');
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        expr_into(a, out)?;
    }
    out.push(')');
    Some(())
}

fn binary(a: &Expr, op: &str, b: &Expr, out: &mut String) -> Option<()> {
    out.push('(');
    expr_into(a, out)?;
    out.push_str(op);
    expr_into(b, out)?;
    out.push(')');
    Some(())
}

fn expr_into(e: &Expr, out: &mut String) -> Option<()> {
    match e {
        Expr::Num(r) => rational_into(r, out),
        Expr::Decimal(d) => rational_into(&d.value, out),
        Expr::Based { value, .. } => {
            let _ = write!(out, "Integer({value})");
        }
        Expr::Sym(s) => {
            let _ = write!(out, "S_('{}')", safe_name(&s.name));
        }
        Expr::Const(Constant::Pi) => out.push_str("pi"),
        Expr::Const(Constant::E) => out.push('E'),
        Expr::Const(Constant::I) => out.push('I'),
        Expr::Infinity => out.push_str("oo"),
        Expr::Add(terms) | Expr::Mul(terms) => {
            let op = if matches!(e, Expr::Add(_)) { " + " } else { "*" };
            out.push('(');
            for (i, t) in terms.iter().enumerate() {
                if i > 0 {
                    out.push_str(op);
                }
                expr_into(t, out)?;
            }
            out.push(')');
        }
        Expr::Neg(a) => {
            out.push_str("(-");
            expr_into(a, out)?;
            out.push(')');
        }
        Expr::Div(a, b) => binary(a, "/", b, out)?,
        // Odd roots of negative bases are real natively: the same here (sympy's `**` takes
        // the principal branch).
        Expr::Pow(a, b) => match b.odd_root_exponent() {
            Some((p, q)) => {
                out.push_str("(real_root(");
                expr_into(a, out)?;
                let _ = write!(out, ", {q})**{p})");
            }
            None => binary(a, "**", b, out)?,
        },
        Expr::Func(f, args) => {
            let refs: Vec<&Expr> = args.iter().collect();
            match f {
                // sympy's real_root takes (radicand, index).
                Func::Root => call("real_root", &[refs.get(1)?, refs.first()?], out)?,
                Func::Gcd | Func::Lcm if refs.len() > 2 => {
                    // Nested pairs: sympy's gcd/lcm take two arguments.
                    let name = f.name();
                    for _ in 1..refs.len() {
                        let _ = write!(out, "{name}(");
                    }
                    expr_into(refs[0], out)?;
                    for r in &refs[1..] {
                        out.push_str(", ");
                        expr_into(r, out)?;
                        out.push(')');
                    }
                }
                _ => call(f.name(), &refs, out)?,
            }
        }
        Expr::Log { base, arg } => match base {
            Some(b) => call("log", &[arg, b], out)?,
            None => call("log", &[arg], out)?,
        },
        Expr::Factorial(a) => call("factorial", &[a], out)?,
        Expr::Percent(a) => binary(a, "/", &Expr::int(100), out)?,
        Expr::Degrees(a) => {
            out.push('(');
            expr_into(a, out)?;
            out.push_str("*pi/180)");
        }
        Expr::Apply { func, arg, .. } => {
            let _ = write!(out, "F_('{}')(", safe_name(&func.name));
            expr_into(arg, out)?;
            out.push(')');
        }
        Expr::SlashTail { num, den, tail } => {
            out.push_str("((");
            expr_into(num, out)?;
            out.push_str(")/(");
            expr_into(den, out)?;
            out.push_str(")*(");
            expr_into(tail, out)?;
            out.push_str("))");
        }
        Expr::PlusMinus { .. } => return None,
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::super::equivalence::Answer;

    fn cas(s: &str) -> Option<String> {
        Answer::parse(s).to_sympy()
    }

    #[test]
    fn long_decimals_are_rounding_windows_under_a_policy() {
        let rounded = |s: &str, digits: u32| super::render_rounding(Answer::parse(s).node(), digits);
        let pi = "Rounded_(Rational(314159265358979, 100000000000000), Rational(1, 200000000000000))";
        assert_eq!(rounded("3.14159265358979", 6).as_deref(), Some(pi));
        assert_eq!(rounded("x = 3.14159265358979", 6).as_deref(), Some(&*format!("Rel_('eq', S_('x'), {pi})")));
        // Below the digits, inside an expression, and without a policy: the exact value.
        assert_eq!(rounded("3.14159265358979", 20).as_deref(), Some("Rational(314159265358979, 100000000000000)"));
        assert_eq!(rounded("2 \\cdot 0.333333", 6).as_deref(), cas("2 \\cdot 0.333333").as_deref());
        assert!(!cas("3.14159265358979").unwrap().contains("Rounded_"));
    }

    #[test]
    fn scalars() {
        assert_eq!(cas("\\frac{1}{2}").as_deref(), Some("(Integer(1)/Integer(2))"));
        assert_eq!(cas("0.5").as_deref(), Some("Rational(1, 2)"));
        assert_eq!(cas("\\sqrt{2}\\pi").as_deref(), Some("(sqrt(Integer(2))*pi)"));
        assert_eq!(cas("x_{1}'").as_deref(), Some("S_('x_1_p')"));
        assert_eq!(cas("\\sqrt[3]{-8}").as_deref(), Some("real_root((-Integer(8)), Integer(3))"));
        assert_eq!(cas("f(x)").as_deref(), Some("F_('f')(S_('x'))"));
        assert_eq!(cas("\\log_2 x").as_deref(), Some("log(S_('x'), Integer(2))"));
    }

    #[test]
    fn structures() {
        assert_eq!(cas("(1, 2]").as_deref(), Some("Tuple_('(]', Integer(1), Integer(2))"));
        assert_eq!(cas("\\{1, 2\\}").as_deref(), Some("Set_(Integer(1), Integer(2))"));
        assert_eq!(cas("x = 3").as_deref(), Some("Rel_('eq', S_('x'), Integer(3))"));
        assert_eq!(cas("\\text{Evelyn}"), None);
        assert_eq!(cas("(B)"), None);
        assert_eq!(cas("\\int x dx"), None);
    }

    #[test]
    fn names_are_safe_identifiers() {
        for s in ["\\dot{x}_{0}", "\\angle B E A_{1}", "\\frac{dM}{dt}", "M_{\\odot}", "x'''"] {
            let form = cas(s).unwrap();
            let inner = form.trim_start_matches("S_('").trim_end_matches("')");
            assert!(inner.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'), "{s} -> {form}");
        }
    }
}
