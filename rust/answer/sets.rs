//! Sets of real numbers: intervals, unions, finite sets, `\mathbb{R}`, and one-variable
//! inequalities (`x > 3` is `(3, \infty)`, `0 < x \le 4` is `(0, 4]`, `x \ne 1` is
//! `(-\infty, 1) \cup (1, \infty)`).
//!
//! Both sides are brought to a canonical form — intervals sorted and merged where they overlap or
//! touch (`(0,1) \cup \{1\}` is `(0,1]`) — and compared interval by interval. Canonicalisation needs
//! every endpoint ordered with certainty; when one cannot be, the sets are compared as written.

use std::cmp::Ordering;

use super::expr::Expr;
use super::judgement::{Judgement, Method, Reason, Verdict};
use super::node::{Node, RelOp, Relation};
use super::policy::Policy;
use super::scalar::{self, Scalar};

#[derive(Debug, Clone, Copy)]
enum End<'a> {
    NegInf,
    PosInf,
    At(&'a Scalar),
}

#[derive(Debug, Clone, Copy)]
struct Interval<'a> {
    lo: End<'a>,
    lo_closed: bool,
    hi: End<'a>,
    hi_closed: bool,
}

fn end_of(node: &Node) -> Option<End<'_>> {
    let Node::Scalar(s) = node else { return None };
    match s.infinity {
        Some(1) => Some(End::PosInf),
        Some(_) => Some(End::NegInf),
        None if s.is_constant() && s.info.plus_minus == 0 => Some(End::At(s)),
        None => None,
    }
}

/// True for nodes that can only be read as sets of reals (so a bracketed pair compared with
/// them is an interval, not an ordered pair).
pub fn is_set_valued(node: &Node) -> bool {
    match node {
        Node::Union(_) | Node::NamedSet('R') | Node::EmptySet => true,
        Node::Bracketed { open, close, items } if items.len() == 2 => {
            (*open == '(') != (*close == ')')
                || items.iter().any(|i| matches!(i, Node::Scalar(s) if s.infinity.is_some()))
        }
        Node::Relation(r) => inequality_intervals(r).is_some() || r.assigned_value().is_some_and(is_set_valued),
        Node::List(items) => list_intervals(items).is_some(),
        _ => false,
    }
}

/// The intervals a list of inequalities in one variable stands for (`None` for any other
/// list, or fewer than two items). The lexer reads "and" and "or" alike, so the intervals
/// decide:
/// - pairwise disjoint ones (`x < -2, x > 2`) can only be alternatives, since together they
///   would hold for no x: their union;
/// - ones with a common part (`x > -2, x < 2`, each an interval) are conditions that all hold:
///   their intersection, `(-2, 2)`. Joined by "or" they would be their union, a set nobody
///   writes that way;
/// - ones that overlap in part but have nothing in common all together (`x < 1, x > 2, x > 3`)
///   can only be alternatives with a redundant member: their union.
fn list_intervals(items: &[Node]) -> Option<Vec<Interval<'_>>> {
    if items.len() < 2 {
        return None;
    }
    let mut variable: Option<&str> = None;
    let mut each = Vec::with_capacity(items.len());
    for item in items {
        let Node::Relation(r) = item else { return None };
        let name = inequality_variable(r)?;
        if *variable.get_or_insert(name) != name {
            return None;
        }
        each.push(inequality_intervals(r)?);
    }
    let policy = Policy::default();
    let all: Vec<Interval<'_>> = each.iter().flatten().copied().collect();
    let before = |p: &Interval<'_>, q: &Interval<'_>| ends_before(p, q, &policy) == Some(true);
    let disjoint = all.iter().enumerate().all(|(i, p)| all[i + 1..].iter().all(|q| before(p, q) || before(q, p)));
    if disjoint {
        return Some(all);
    }
    let mut common = canonical(each[0].clone(), &policy)?;
    for parts in &each[1..] {
        common = intersect_all(&common, &canonical(parts.clone(), &policy)?, &policy)?;
    }
    if common.is_empty() {
        // Conditions that together hold for no x were alternatives after all, a redundant
        // one among them: `x < 1 or x > 2 or x > 3` is `x < 1 or x > 2`.
        return canonical(all, &policy);
    }
    Some(common)
}

/// Whether interval `p` ends before `q` starts, with no point in common (`(0, 1)` before
/// `[1, 2]`, not `[0, 1]` before `[1, 2]`); `None` when the order of the ends is uncertain.
fn ends_before(p: &Interval<'_>, q: &Interval<'_>, policy: &Policy) -> Option<bool> {
    Some(match cmp_end(p.hi, q.lo, policy)? {
        Ordering::Less => true,
        Ordering::Equal => !(p.hi_closed && q.lo_closed),
        Ordering::Greater => false,
    })
}

/// The intersection of two intervals; `None` when it is empty or an ordering is uncertain.
fn intersection<'a>(a: Interval<'a>, b: Interval<'a>, policy: &Policy) -> Option<Interval<'a>> {
    let (lo, lo_closed) = match cmp_end(a.lo, b.lo, policy)? {
        Ordering::Greater => (a.lo, a.lo_closed),
        Ordering::Less => (b.lo, b.lo_closed),
        Ordering::Equal => (a.lo, a.lo_closed && b.lo_closed),
    };
    let (hi, hi_closed) = match cmp_end(a.hi, b.hi, policy)? {
        Ordering::Less => (a.hi, a.hi_closed),
        Ordering::Greater => (b.hi, b.hi_closed),
        Ordering::Equal => (a.hi, a.hi_closed && b.hi_closed),
    };
    match cmp_end(lo, hi, policy)? {
        Ordering::Less => Some(Interval { lo, lo_closed, hi, hi_closed }),
        Ordering::Equal if lo_closed && hi_closed => Some(Interval { lo, lo_closed, hi, hi_closed }),
        _ => None,
    }
}

/// The name of the variable an inequality bounds (`x` in `x > 3`, `-2 < x < 2`).
fn inequality_variable(r: &Relation) -> Option<&str> {
    let var = match r.parts.as_slice() {
        [a, b] => [a, b].into_iter().find(|n| n.is_name_like())?,
        [_, x, _] => x,
        _ => return None,
    };
    match var {
        Node::Scalar(s) => match &s.expr {
            super::expr::Expr::Sym(sym) => Some(sym.name.as_str()),
            _ => None,
        },
        _ => None,
    }
}

/// The intervals of a node read as a set of reals.
fn intervals(node: &Node) -> Option<Vec<Interval<'_>>> {
    match node {
        Node::Bracketed { open, close, items } if items.len() == 2 => Some(vec![Interval {
            lo: end_of(&items[0])?,
            lo_closed: *open == '[',
            hi: end_of(&items[1])?,
            hi_closed: *close == ']',
        }]),
        Node::Set(items) => items
            .iter()
            .map(|i| match end_of(i)? {
                End::At(s) => Some(Interval { lo: End::At(s), lo_closed: true, hi: End::At(s), hi_closed: true }),
                _ => None,
            })
            .collect(),
        Node::EmptySet => Some(Vec::new()),
        Node::NamedSet('R') => {
            Some(vec![Interval { lo: End::NegInf, lo_closed: false, hi: End::PosInf, hi_closed: false }])
        }
        Node::Union(parts) => {
            let mut all = Vec::new();
            for p in parts {
                all.extend(intervals(p)?);
            }
            Some(all)
        }
        Node::Relation(r) => inequality_intervals(r).or_else(|| r.assigned_value().and_then(intervals)),
        Node::List(items) => list_intervals(items),
        _ => None,
    }
}

/// `x > c`, `c \le x`, `a < x < b`, `x \ne c` with x a name and the bounds constants.
fn inequality_intervals(r: &Relation) -> Option<Vec<Interval<'_>>> {
    let is_var = |n: &Node| n.is_name_like();
    match (r.parts.as_slice(), r.ops.as_slice()) {
        ([lhs, rhs], [op]) if is_var(lhs) => single(bound(rhs)?, *op),
        ([lhs, rhs], [op]) if is_var(rhs) => single(bound(lhs)?, op.flipped()),
        ([a, x, b], [op1, op2]) if is_var(x) => {
            // `-\infty < x < 1` is `x < 1`: an infinite end is allowed where it belongs, and open.
            let (a, b) = (end_of(a)?, end_of(b)?);
            let finite = |e: End<'_>| matches!(e, End::At(_));
            let (lo, lo_op, hi, hi_op, closed) = match (op1, op2) {
                (RelOp::Lt | RelOp::Le, RelOp::Lt | RelOp::Le) => (a, op1, b, op2, RelOp::Le),
                (RelOp::Gt | RelOp::Ge, RelOp::Gt | RelOp::Ge) => (b, op2, a, op1, RelOp::Ge),
                _ => return None,
            };
            let lo_ok = finite(lo) || matches!(lo, End::NegInf);
            let hi_ok = finite(hi) || matches!(hi, End::PosInf);
            (lo_ok && hi_ok).then(|| {
                vec![Interval {
                    lo,
                    lo_closed: finite(lo) && *lo_op == closed,
                    hi,
                    hi_closed: finite(hi) && *hi_op == closed,
                }]
            })
        }
        _ => None,
    }
}

fn bound(n: &Node) -> Option<End<'_>> {
    end_of(n).filter(|e| matches!(e, End::At(_)))
}

/// `x op c` as intervals.
fn single(c: End<'_>, op: RelOp) -> Option<Vec<Interval<'_>>> {
    let below = |closed| Interval { lo: End::NegInf, lo_closed: false, hi: c, hi_closed: closed };
    let above = |closed| Interval { lo: c, lo_closed: closed, hi: End::PosInf, hi_closed: false };
    Some(match op {
        RelOp::Lt => vec![below(false)],
        RelOp::Le => vec![below(true)],
        RelOp::Gt => vec![above(false)],
        RelOp::Ge => vec![above(true)],
        RelOp::Ne => vec![below(false), above(false)],
        _ => return None,
    })
}

fn cmp_end(a: End<'_>, b: End<'_>, policy: &Policy) -> Option<Ordering> {
    match (a, b) {
        (End::NegInf, End::NegInf) | (End::PosInf, End::PosInf) => Some(Ordering::Equal),
        (End::NegInf, _) | (_, End::PosInf) => Some(Ordering::Less),
        (_, End::NegInf) | (End::PosInf, _) => Some(Ordering::Greater),
        (End::At(x), End::At(y)) => scalar::order(x, y, policy),
    }
}

/// Sorted, disjoint, merged intervals; none when an ordering is uncertain.
fn canonical<'a>(mut parts: Vec<Interval<'a>>, policy: &Policy) -> Option<Vec<Interval<'a>>> {
    // Empty intervals ((2, 1), (1, 1), [1, 1)) contribute nothing.
    let mut kept = Vec::with_capacity(parts.len());
    for p in parts.drain(..) {
        match cmp_end(p.lo, p.hi, policy)? {
            Ordering::Greater => {}
            Ordering::Equal if !(p.lo_closed && p.hi_closed) => {}
            _ => kept.push(p),
        }
    }
    // Insertion sort: comparisons can fail, and sets are small.
    for i in 1..kept.len() {
        let mut j = i;
        while j > 0 {
            let before = match cmp_end(kept[j - 1].lo, kept[j].lo, policy)? {
                Ordering::Greater => true,
                Ordering::Equal => !kept[j - 1].lo_closed && kept[j].lo_closed,
                Ordering::Less => false,
            };
            if !before {
                break;
            }
            kept.swap(j - 1, j);
            j -= 1;
        }
    }
    let mut merged: Vec<Interval<'a>> = Vec::with_capacity(kept.len());
    for p in kept {
        if let Some(last) = merged.last_mut() {
            let joins = match cmp_end(p.lo, last.hi, policy)? {
                Ordering::Less => true,
                Ordering::Equal => p.lo_closed || last.hi_closed,
                Ordering::Greater => false,
            };
            if joins {
                match cmp_end(p.hi, last.hi, policy)? {
                    Ordering::Greater => {
                        last.hi = p.hi;
                        last.hi_closed = p.hi_closed;
                    }
                    Ordering::Equal => last.hi_closed |= p.hi_closed,
                    Ordering::Less => {}
                }
                continue;
            }
        }
        merged.push(p);
    }
    Some(merged)
}

/// An operation between sets of reals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SetOp {
    Union,
    /// `A \cap B`.
    Intersection,
    /// `A \setminus B`.
    Difference,
}

/// `a op b` for sets of reals with constant ends (intervals, finite sets, `\mathbb{R}`, unions),
/// worked out: `(1,5] \cap [2,7)` is `[2,5]`, `\mathbb{R} \setminus \{1\}` is
/// `(-\infty,1) \cup (1,\infty)`. `None` when a side is no such set or the order of two ends is
/// uncertain.
pub fn combine(a: &Node, op: SetOp, b: &Node) -> Option<Node> {
    let policy = Policy::default();
    let x = canonical(intervals(a)?, &policy)?;
    let y = canonical(intervals(b)?, &policy)?;
    let result = match op {
        SetOp::Union => canonical(x.into_iter().chain(y).collect(), &policy)?,
        SetOp::Intersection => intersect_all(&x, &y, &policy)?,
        SetOp::Difference => intersect_all(&x, &complement(&y), &policy)?,
    };
    Some(set_node(&result))
}

/// Pairwise intersections of two canonical interval lists: canonical again.
fn intersect_all<'a>(x: &[Interval<'a>], y: &[Interval<'a>], policy: &Policy) -> Option<Vec<Interval<'a>>> {
    let mut out = Vec::new();
    for p in x {
        for q in y {
            // `intersection` is none when empty or uncertain: tell the two apart.
            match intersection(*p, *q, policy) {
                Some(i) => out.push(i),
                None => {
                    let (pq, qp) = (ends_before(p, q, policy)?, ends_before(q, p, policy)?);
                    if !(pq || qp) {
                        return None;
                    }
                }
            }
        }
    }
    canonical(out, policy)
}

/// The reals outside a canonical interval list.
fn complement<'a>(x: &[Interval<'a>]) -> Vec<Interval<'a>> {
    let mut out = Vec::with_capacity(x.len() + 1);
    let (mut lo, mut lo_closed) = (End::NegInf, false);
    for p in x {
        if !matches!(p.lo, End::NegInf) {
            out.push(Interval { lo, lo_closed, hi: p.lo, hi_closed: !p.lo_closed });
        }
        (lo, lo_closed) = (p.hi, !p.hi_closed);
    }
    if !matches!(lo, End::PosInf) {
        out.push(Interval { lo, lo_closed, hi: End::PosInf, hi_closed: false });
    }
    out
}

/// A canonical interval list as the node that writes it: one interval or point, their union,
/// or the empty set.
fn set_node(x: &[Interval<'_>]) -> Node {
    let end = |e: End<'_>| {
        Node::Scalar(Box::new(match e {
            End::NegInf => Scalar::new(Expr::neg(Expr::Infinity), false, None),
            End::PosInf => Scalar::new(Expr::Infinity, false, None),
            End::At(s) => s.clone(),
        }))
    };
    let mut parts: Vec<Node> = x
        .iter()
        .map(|p| match (p.lo, p.hi) {
            (End::At(a), End::At(b))
                if p.lo_closed && p.hi_closed && scalar::order(a, b, &Policy::default()) == Some(Ordering::Equal) =>
            {
                Node::Set(vec![end(p.lo)])
            }
            _ => Node::Bracketed {
                open: if p.lo_closed { '[' } else { '(' },
                close: if p.hi_closed { ']' } else { ')' },
                items: vec![end(p.lo), end(p.hi)],
            },
        })
        .collect();
    match parts.len() {
        0 => Node::EmptySet,
        1 => parts.pop().unwrap_or(Node::EmptySet),
        _ => Node::Union(parts),
    }
}

fn compare_end(a: End<'_>, b: End<'_>, policy: &Policy) -> Judgement {
    match (a, b) {
        (End::NegInf, End::NegInf) | (End::PosInf, End::PosInf) => Judgement::equal(Method::Exact, Reason::RealSet),
        (End::At(x), End::At(y)) => scalar::compare(x, y, policy),
        _ => Judgement::not_equal(Method::Exact, Reason::RealSet),
    }
}

fn compare_intervals(x: &[Interval<'_>], y: &[Interval<'_>], policy: &Policy) -> Judgement {
    if x.len() != y.len() {
        return Judgement::not_equal(Method::Exact, Reason::RealSet);
    }
    Judgement::all(x.iter().zip(y).flat_map(|(p, q)| {
        let finite_closed = |e: End<'_>, closed: bool| matches!(e, End::At(_)) && closed;
        let brackets_match = finite_closed(p.lo, p.lo_closed) == finite_closed(q.lo, q.lo_closed)
            && finite_closed(p.hi, p.hi_closed) == finite_closed(q.hi, q.hi_closed);
        let brackets = if brackets_match {
            Judgement::equal(Method::Exact, Reason::RealSet)
        } else {
            Judgement::not_equal(Method::Exact, Reason::RealSet)
        };
        [brackets, compare_end(p.lo, q.lo, policy), compare_end(p.hi, q.hi, policy)]
    }))
}

/// An interval with f64 ends (infinite ends are `±inf`, never closed).
#[derive(Debug, Clone, Copy)]
pub struct NumericInterval {
    pub lo: f64,
    pub lo_closed: bool,
    pub hi: f64,
    pub hi_closed: bool,
}

impl NumericInterval {
    /// Whether x lies in the interval, an end within `tolerance` (relative) counting as reached.
    pub fn contains(&self, x: f64, tolerance: f64) -> bool {
        let near = |e: f64| e.is_finite() && (x - e).abs() <= tolerance * e.abs().max(x.abs());
        let above_lo = if near(self.lo) { self.lo_closed } else { x > self.lo };
        let below_hi = if near(self.hi) { self.hi_closed } else { x < self.hi };
        above_lo && below_hi
    }
}

/// A set of reals that is no relation (interval, bracketed pair, finite set, union, `\mathbb{R}`,
/// empty set) with its ends as f64; none for anything else or an end that is not a real
/// constant known to f64 precision.
pub fn numeric_intervals(node: &Node) -> Option<Vec<NumericInterval>> {
    if matches!(node, Node::Relation(_) | Node::List(_)) {
        return None;
    }
    let value = |e: End<'_>| -> Option<f64> {
        match e {
            End::NegInf => Some(f64::NEG_INFINITY),
            End::PosInf => Some(f64::INFINITY),
            End::At(s) => {
                let b = s.ball()?;
                (super::numeric::real_bounds(&b).is_some() && b.rad <= 1e-13 * b.re.abs().max(1e-300)).then_some(b.re)
            }
        }
    };
    intervals(node)?
        .into_iter()
        .map(|i| {
            let (lo, hi) = (value(i.lo)?, value(i.hi)?);
            // `(8, -2)` is a pair, not an interval.
            if lo > hi || (lo == hi && !(i.lo_closed && i.hi_closed)) {
                return None;
            }
            Some(NumericInterval {
                lo,
                lo_closed: i.lo_closed && lo.is_finite(),
                hi,
                hi_closed: i.hi_closed && hi.is_finite(),
            })
        })
        .collect()
}

/// Compares two nodes as sets of reals; none when either is not one.
pub fn compare(a: &Node, b: &Node, policy: &Policy) -> Option<Judgement> {
    let (x, y) = (intervals(a)?, intervals(b)?);
    Some(match (canonical(x.clone(), policy), canonical(y.clone(), policy)) {
        (Some(cx), Some(cy)) => {
            let j = compare_intervals(&cx, &cy, policy);
            if j.verdict == Verdict::Equal {
                Judgement { reason: Reason::RealSet, ..j }
            } else {
                j
            }
        }
        // Uncertain order: equal only if equal as written.
        _ => match compare_intervals(&x, &y, policy) {
            j if j.verdict == Verdict::Equal => j,
            _ => Judgement::unknown(Reason::TooClose),
        },
    })
}
