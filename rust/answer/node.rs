//! The parsed shape of an answer: scalars, relations and the structures built from them.

use std::sync::OnceLock;

use super::expr::{Expr, Func};
use super::judgement::Reason;
use super::scalar::Scalar;

/// A relation operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RelOp {
    Eq,
    Lt,
    Le,
    Gt,
    Ge,
    Ne,
    /// `\approx`: an assignment of an approximate value (`x \approx 3.14`).
    Approx,
    /// `\in`: membership (`x \in [-2, 7]`).
    In,
}

impl RelOp {
    /// The operator with its sides swapped (`<` <-> `>`).
    pub fn flipped(self) -> RelOp {
        match self {
            RelOp::Lt => RelOp::Gt,
            RelOp::Gt => RelOp::Lt,
            RelOp::Le => RelOp::Ge,
            RelOp::Ge => RelOp::Le,
            other => other,
        }
    }

    pub fn is_inequality(self) -> bool {
        matches!(self, RelOp::Lt | RelOp::Le | RelOp::Gt | RelOp::Ge)
    }
}

/// A chain of relations: `parts[0] ops[0] parts[1] ops[1] parts[2] ...`.
#[derive(Debug, Clone)]
pub struct Relation {
    pub parts: Vec<Node>,
    pub ops: Vec<RelOp>,
    /// `lhs - rhs` of a single scalar relation, evaluated on first use (most relations are
    /// assignments like `x = 3`, compared by their value alone).
    difference: OnceLock<Option<Box<Scalar>>>,
}

impl Relation {
    pub fn new(parts: Vec<Node>, ops: Vec<RelOp>) -> Relation {
        Relation { parts, ops, difference: OnceLock::new() }
    }

    /// `lhs - rhs` as a scalar: two relations are the same when their differences are
    /// proportional (by a positive factor for inequalities).
    pub fn difference(&self) -> Option<&Scalar> {
        self.difference
            .get_or_init(|| match (self.ops.as_slice(), self.parts.as_slice()) {
                ([_], [Node::Scalar(l), Node::Scalar(r)]) => {
                    let diff = Expr::Add(vec![l.expr.clone(), Expr::neg(r.expr.clone())]);
                    Some(Box::new(Scalar::new(diff, false, None)))
                }
                _ => None,
            })
            .as_deref()
    }

    /// The value of an assignment: `x = 3`, `f(x) = 2x`, `(x, y) = (1, 2)`, `x \in [0, 1]`,
    /// `m_{\max} = n^2 - 1`, `a = b = 5` (the last part). A name-like left side is a symbol, a
    /// function application or a tuple of those.
    ///
    /// The left side may also be a label ([`Node::is_label`]: `AB = 4`, `|AB| = 1`,
    /// `\frac{NO}{BO} = \frac{1}{\sqrt{6}}`). An approximation after the value does not replace
    /// it: `x = \frac{1}{3} \approx 0.333` assigns 1/3, and a constant followed only by
    /// approximations (`\frac{\sqrt{3}}{3} \approx 0.577`) states the constant.
    pub fn assigned_value(&self) -> Option<&Node> {
        let all_assign = self.ops.iter().all(|op| matches!(op, RelOp::Eq | RelOp::Approx | RelOp::In));
        let single_in = self.ops.len() == 1 || !self.ops.contains(&RelOp::In);
        let first = self.parts.first()?;
        if !(all_assign && single_in) {
            return None;
        }
        if first.is_name_like() || first.is_label() {
            let value =
                self.ops.iter().skip(1).position(|op| *op == RelOp::Approx).map_or(self.parts.len() - 1, |k| k + 1);
            // `x = \sqrt{11 - 2x} + 4` is an equation in x, not a value given to x.
            let names_itself = |v: &Node| match (first, v) {
                (Node::Scalar(name), Node::Scalar(value)) => match &name.expr {
                    Expr::Sym(symbol) => value.expr.symbol_names().contains(&symbol.name.as_str()),
                    _ => false,
                },
                _ => false,
            };
            return self.parts.get(value).filter(|v| !names_itself(v));
        }
        self.approximated_constant().or_else(|| self.true_constant_chain())
    }

    /// The value of a chain of `=` between constants that all agree: `\binom{11}{2} = 55`,
    /// `2 + 3 = 5`, `\frac{6}{15} = \frac{2}{5}` state 55, 5 and 2/5 (exactly), `\sqrt{8} =
    /// 2\sqrt{2}` states 2√2 (numerically, as closed forms are compared). A chain whose sides
    /// differ (`2 + 3 = 6`) or that computes nothing (`1 = 1`) states nothing; sides with a
    /// unit or a percent sign are not read this way, nor written decimals among irrationals.
    pub fn true_constant_chain(&self) -> Option<&Node> {
        if !self.ops.iter().all(|op| *op == RelOp::Eq) {
            return None;
        }
        fn value(n: &Node) -> Option<&num_rational::BigRational> {
            match n {
                Node::Scalar(s) if !s.percent && s.unit.is_none() && s.info.readings == 0 => s.exact(),
                _ => None,
            }
        }
        // `1 = 1` computes nothing: a tautology, not a statement of the value 1. A conversion
        // between literal forms (`15.975 = 15 39/40`) does state its value.
        let literal_kind = |n: &Node| match n {
            Node::Scalar(s) => match s.expr {
                Expr::Num(_) => Some(0),
                Expr::Decimal(_) => Some(1),
                _ => None,
            },
            _ => None,
        };
        let first_kind = literal_kind(self.parts.first()?);
        if first_kind.is_some() && self.parts.iter().all(|p| literal_kind(p) == first_kind) {
            return None;
        }
        let last = self.parts.last()?;
        if self.parts.iter().all(|p| value(p).is_some()) {
            let v = value(last)?;
            return self.parts.iter().all(|p| value(p) == Some(v)).then_some(last);
        }
        // Closed forms agree numerically: `\sqrt{8} = 2\sqrt{2}`, `\sin(\pi/2) = 1`,
        // `e^{i\pi} = -1`. Written decimals are approximations, not read this way.
        fn ball(n: &Node) -> Option<super::numeric::Ball> {
            match n {
                Node::Scalar(s)
                    if !s.percent
                        && s.unit.is_none()
                        && s.info.readings == 0
                        && s.is_constant()
                        && s.decimal.is_none() =>
                {
                    s.ball()
                }
                _ => None,
            }
        }
        let v = ball(last)?;
        let tolerance = super::policy::Policy::default().rel_tol;
        self.parts
            .iter()
            .all(|p| {
                ball(p).is_some_and(|b| {
                    super::numeric::compare_balls(&b, &v, tolerance) == super::numeric::BallOrder::Close
                })
            })
            .then_some(last)
    }

    /// The constant of `c \approx 0.577` (only `\approx` after a constant without variables).
    pub fn approximated_constant(&self) -> Option<&Node> {
        let constant = matches!(self.parts.first(), Some(Node::Scalar(s)) if !s.info.free_symbols);
        (constant && self.ops.iter().all(|op| *op == RelOp::Approx)).then(|| &self.parts[0])
    }
}

/// A ratio `a : b` of two constants (`3:4`, `1 : 2`): it says the quotient a/b.
#[derive(Debug, Clone)]
pub struct Ratio {
    /// The terms as written.
    pub terms: [Node; 2],
    /// a/b, what the ratio says as a number; `None` for a time on the hour (`12:00`), which
    /// is no ratio.
    pub quotient: Option<Node>,
    /// Written `h:mm` (at most two digits, then exactly two up to 59): it may be a time of day
    /// (`10:30`), so only the same terms make it equal to a ratio or a number (`10:30` is not
    /// `7:21` as a time, and is 1/3 as a ratio: undecided), and two such differ when they
    /// differ under both readings (`12:00` and `1:00`, `3:45` and `3:40`).
    pub clock_like: bool,
}

#[derive(Debug, Clone)]
pub enum Node {
    Scalar(Box<Scalar>),
    Relation(Box<Relation>),
    /// `(a, b)`, `[a, b)`, `(1, 2, 3)`: ordered, brackets kept (an interval is a bracketed pair).
    Bracketed {
        open: char,
        close: char,
        items: Vec<Node>,
    },
    /// `\{a, b\}`: unordered.
    Set(Vec<Node>),
    /// `a, b` or `a \text{ or } b`: several answers, compared as an unordered multiset.
    List(Vec<Node>),
    /// `A \cup B`.
    Union(Vec<Node>),
    /// A matrix, row-major.
    Matrix {
        rows: usize,
        cols: usize,
        cells: Vec<Node>,
    },
    /// `a : b` with constant terms.
    Ratio(Box<Ratio>),
    /// A multiple-choice letter, possibly with the value written after it (`\textbf{(C)}\ 20`).
    Choice {
        letter: char,
        value: Option<Box<Node>>,
    },
    /// Prose: compared as lowercase text.
    Text(String),
    /// `\emptyset`, `\{\}`.
    EmptySet,
    /// `\mathbb{R}` and friends, by letter.
    NamedSet(char),
    /// Could not be parsed; compared by canonical text only.
    Unparsed(Reason),
}

impl Node {
    pub fn scalar(expr: Expr) -> Node {
        Node::Scalar(Box::new(Scalar::new(expr, false, None)))
    }

    /// A symbol, a function application, a decorated name, or a tuple of those.
    pub fn is_name_like(&self) -> bool {
        match self {
            Node::Scalar(s) => s.expr.as_symbol().is_some() && s.unit.is_none() && !s.percent,
            Node::Bracketed { open: '(', close: ')', items } => items.iter().all(Node::is_name_like),
            _ => false,
        }
    }

    /// A quantity named by letters: a name, or products, quotients and absolute values of
    /// names (`AB`, `|AB|`, `\frac{NO}{BO}`, `a_1 a_2`), without numbers or sums. `AB = 4`
    /// answers "find AB" with 4, as `x = 4` answers "find x".
    pub fn is_label(&self) -> bool {
        matches!(self, Node::Scalar(s) if s.unit.is_none() && !s.percent && is_label_expr(&s.expr))
    }

    /// A single letter usable as a multiple-choice answer (`B`, or `b` compared to `(B)`).
    pub fn choice_letter(&self) -> Option<char> {
        match self {
            Node::Choice { letter, .. } => Some(*letter),
            Node::Scalar(s) => match &s.expr {
                Expr::Sym(sym) if sym.name.len() == 1 && s.unit.is_none() => {
                    sym.name.chars().next().filter(char::is_ascii_alphabetic).map(|c| c.to_ascii_uppercase())
                }
                _ => None,
            },
            _ => None,
        }
    }
}

/// The values of `x = 1, y = 2` in order: two or more `=` assignments to plain names written in
/// alphabetical order (the order of the tuple they answer; `y = 2, x = 1` gives `None`).
pub fn assignments_as_tuple(items: &[Node]) -> Option<Vec<&Node>> {
    let mut names: Vec<&str> = Vec::with_capacity(items.len());
    let mut values = Vec::with_capacity(items.len());
    for item in items {
        let Node::Relation(r) = item else { return None };
        let ([RelOp::Eq], [Node::Scalar(lhs), value]) = (r.ops.as_slice(), r.parts.as_slice()) else { return None };
        let Expr::Sym(symbol) = &lhs.expr else { return None };
        names.push(&symbol.name);
        values.push(value);
    }
    (names.len() >= 2 && names.windows(2).all(|w| w[0] < w[1])).then_some(values)
}

/// The expression of a label ([`Node::is_label`]): names, and products, quotients and absolute
/// values of names.
pub fn is_label_expr(e: &Expr) -> bool {
    // Recursion is bounded: parsed trees are at most MAX_TREE_DEPTH deep.
    match e {
        Expr::Sym(_) | Expr::Apply { .. } => true,
        Expr::Mul(factors) => factors.iter().all(is_label_expr),
        Expr::Div(a, b) => is_label_expr(a) && is_label_expr(b),
        Expr::Func(Func::Abs, args) => matches!(args.as_slice(), [a] if is_label_expr(a)),
        _ => false,
    }
}
