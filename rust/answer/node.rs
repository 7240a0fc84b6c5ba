//! The parsed shape of an answer: scalars, relations and the structures built from them.

use std::sync::OnceLock;

use super::expr::Expr;
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
    pub fn assigned_value(&self) -> Option<&Node> {
        let all_assign = self.ops.iter().all(|op| matches!(op, RelOp::Eq | RelOp::Approx | RelOp::In));
        let single_in = self.ops.len() == 1 || !self.ops.contains(&RelOp::In);
        (all_assign && single_in && self.parts.first().is_some_and(Node::is_name_like)).then(|| self.parts.last()).flatten()
    }
}

#[derive(Debug, Clone)]
pub enum Node {
    Scalar(Box<Scalar>),
    Relation(Box<Relation>),
    /// `(a, b)`, `[a, b)`, `(1, 2, 3)`: ordered, brackets kept (an interval is a bracketed pair).
    Bracketed { open: char, close: char, items: Vec<Node> },
    /// `\{a, b\}`: unordered.
    Set(Vec<Node>),
    /// `a, b` or `a \text{ or } b`: several answers, compared as an unordered multiset.
    List(Vec<Node>),
    /// `A \cup B`.
    Union(Vec<Node>),
    /// A matrix, row-major.
    Matrix { rows: usize, cols: usize, cells: Vec<Node> },
    /// A multiple-choice letter, possibly with the value written after it (`\textbf{(C)}\ 20`).
    Choice { letter: char, value: Option<Box<Node>> },
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
