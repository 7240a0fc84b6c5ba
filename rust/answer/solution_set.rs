//! Conditions on one variable compared by their real solution sets.
//!
//! `x^2 = 4` and `x = 2 \text{ or } x = -2`, `|x| < 2` and `-2 < x < 2` (or `(-2, 2)`),
//! `x^2 - 3 \ne 1` and `x \ne \pm 2` state the same condition: the same set of real x. A
//! condition is an equation or inequality in one variable (chains too), `x \in S`, a set of reals
//! (interval, finite set, union) standing for membership, or a list of conditions. A list is read
//! as [`super::sets`] reads lists of inequalities, since the lexer reads "and" and "or" alike:
//! items whose solution sets are pairwise disjoint are alternatives (their union), items that
//! overlap must all hold (their intersection); a parenthesised group is a nested list.
//!
//! Every relation's truth changes only where the difference of two neighbouring sides changes
//! sign, is zero, or stops being defined. Those events are found on a grid (fine steps over the
//! scales of the constants, decades from 10^-100 to 10^100, the integers up to 64), bisected to
//! f64 precision; where the difference comes closer to zero inside a cell without changing sign,
//! a golden-section search finds a double root or two roots in one cell. Both conditions are
//! then evaluated at every event, between neighbouring events and beyond the outermost ones:
//! equal when they agree at all of these points, not equal at a point where they clearly differ
//! (a witness), no verdict otherwise. At an event, a side is zero when it is tiny against its
//! values a little way off (a root found to f64 precision), so two writings of one root agree;
//! points within [`SAME_POINT`] (relative) are one point. Where rounding hides a sign, exact
//! rational arithmetic decides if the sides are rational there, else the point is skipped.
//!
//! Limits, as for any numeric method: roots closer than [`SAME_POINT`] are one root, and a
//! double root off the grid is found only if the closest-approach search lands on it. Unlike
//! the expression comparisons, the variable ranges over all reals, negative ones included:
//! that is what solving means. Grading ([`Policy::unsolved_conditions`] off) never takes a
//! response's unsolved condition for a solved reference.

use std::cell::Cell;

use num_rational::BigRational;
use num_traits::{Signed, Zero};

use super::exact::{self, SymbolValues};
use super::expr::{Expr, Symbol};
use super::judgement::{Judgement, Method, Reason};
use super::node::{Node, RelOp};
use super::numeric::{self, Ball, PointValues};
use super::policy::Policy;
use super::scalar::Scalar;
use super::sets;

/// Expression nodes one comparison may evaluate, all evaluations together (a few milliseconds
/// at most); at most [`MAX_EVALUATIONS`] evaluations.
const MAX_NODE_EVALUATIONS: usize = 200_000;
const MAX_EVALUATIONS: usize = 20_000;
/// Grid ratio: consecutive grid points differ by this factor.
const GRID_RATIO: f64 = 1.25;
/// Enough halvings to take a grid cell next to zero down to one ulp of a root far smaller.
const BISECTIONS: usize = 2_100;
/// Two points this close (relative) are one point: a root found to f64 precision from rounded
/// constants lies within it of the exact root. The zero test of [`sign`] has the same reach
/// (a thousandth of the change over 1e-7·|x|).
const SAME_POINT: f64 = 1e-10;
/// Smallest non-zero magnitude of x looked at: the ball arithmetic loses range well before
/// f64 does (`1/x` squares x), so roots and poles are located down to this scale.
const MIN_MAGNITUDE: f64 = 1e-100;
/// Largest magnitude of x looked at.
const MAX_MAGNITUDE: f64 = 1e100;
/// Integers added to the grid, where roots of answers often lie.
const SMALL_INTEGERS: i32 = 64;
/// Golden-section steps in a search for a closest approach to zero.
const GOLDEN_STEPS: usize = 90;
/// What an exact evaluation costs, in evaluations of the budget.
const EXACT_COST: usize = 32;
/// Most items and relations one side may have.
const MAX_ATOMS: usize = 8;

/// A condition on the variable.
enum Condition<'a> {
    /// `parts[0] ops[0] parts[1] ...`.
    Relation { parts: Vec<&'a Scalar>, ops: Vec<RelOp> },
    /// Membership in a union of intervals with numeric ends.
    Member(Vec<sets::NumericInterval>),
    /// Items joined by "and" or "or" (decided by their truth sets, see the module docs).
    Joined(Vec<Condition<'a>>),
}

impl Condition<'_> {
    /// Solved for the variable: `x op c`, `c op x op c`, sets, and lists of those.
    fn is_solved(&self) -> bool {
        match self {
            Condition::Member(_) => true,
            Condition::Joined(items) => items.iter().all(Condition::is_solved),
            Condition::Relation { parts, .. } => {
                let is_variable = |s: &Scalar| matches!(s.expr, Expr::Sym(_));
                let constant = |s: &&Scalar| !s.info.free_symbols;
                match parts.as_slice() {
                    [a, b] => (is_variable(a) && constant(b)) || (constant(a) && is_variable(b)),
                    [a, x, b] => is_variable(x) && constant(a) && constant(b),
                    _ => false,
                }
            }
        }
    }
}

/// What [`build`] found out about a side.
#[derive(Default)]
struct Scan<'a> {
    variable: Option<&'a str>,
    relations: usize,
    /// Expression nodes of the relations' sides.
    nodes: usize,
    /// Largest and smallest non-zero magnitude of a literal.
    largest: f64,
    smallest: f64,
}

/// Compares `a` and `b` as conditions on one variable; none when either is not one, when
/// neither holds a relation, or when the evaluation cannot decide. With
/// [`Policy::unsolved_conditions`] off, `a` (the response) unsolved against a solved `b` (the
/// reference) is not equal: it restates a question rather than answering it.
pub fn compare(a: &Node, b: &Node, policy: &Policy) -> Option<Judgement> {
    let mut scan = Scan { smallest: f64::INFINITY, ..Scan::default() };
    let ca = build(a, &mut scan)?;
    let cb = build(b, &mut scan)?;
    if scan.relations == 0 || scan.relations > 2 * MAX_ATOMS {
        return None;
    }
    if !policy.unsolved_conditions && !ca.is_solved() && cb.is_solved() {
        return Some(Judgement::not_equal(Method::Exact, Reason::UnsolvedCondition));
    }
    let budget = Cell::new((MAX_NODE_EVALUATIONS / scan.nodes.max(1)).min(MAX_EVALUATIONS));
    let lo = scan.smallest.clamp(1e-12, 1e-4) * 0.1;
    let hi = (scan.largest * 10.0).clamp(1e4, 1e15);
    let mut points = sample_points(&scan);
    for c in [&ca, &cb] {
        events(c, lo, hi, &budget, &mut points)?;
    }
    let points = with_midpoints(points);
    let truth_a = truth(&ca, &points, &budget)?;
    let truth_b = truth(&cb, &points, &budget)?;
    let (mut unsure, mut decided) = (false, 0);
    for (x, y) in truth_a.iter().zip(&truth_b) {
        match (x, y) {
            (Truth::Yes, Truth::No) | (Truth::No, Truth::Yes) => {
                return Some(Judgement::not_equal(Method::Numeric, Reason::SolutionSet))
            }
            (Truth::Yes | Truth::No, Truth::Yes | Truth::No) => decided += 1,
            // Within rounding of a root: no evidence either way.
            (Truth::Blurred, _) | (_, Truth::Blurred) => {}
            _ => unsure = true,
        }
    }
    (!unsure && decided > 0).then(|| Judgement::equal(Method::Numeric, Reason::SolutionSet))
}

/// Whether a condition holds at a point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Truth {
    Yes,
    No,
    /// A side is zero to within the rounding of its constants, and the relation needs its sign
    /// (`|x - 0.05| < 0.05` a few ulps from 0): the point says nothing.
    Blurred,
    /// Not evaluable (an overflow, a wide ball).
    Unsure,
}

impl Truth {
    fn of(b: bool) -> Truth {
        if b {
            Truth::Yes
        } else {
            Truth::No
        }
    }

    fn and(self, o: Truth) -> Truth {
        match (self, o) {
            (Truth::No, _) | (_, Truth::No) => Truth::No,
            (Truth::Unsure, _) | (_, Truth::Unsure) => Truth::Unsure,
            (Truth::Blurred, _) | (_, Truth::Blurred) => Truth::Blurred,
            _ => Truth::Yes,
        }
    }

    fn not(self) -> Truth {
        match self {
            Truth::Yes => Truth::No,
            Truth::No => Truth::Yes,
            other => other,
        }
    }

    fn or(self, o: Truth) -> Truth {
        self.not().and(o.not()).not()
    }
}

/// The condition a node states; none for anything else or a second variable.
fn build<'a>(node: &'a Node, scan: &mut Scan<'a>) -> Option<Condition<'a>> {
    match node {
        Node::Relation(r) => {
            if let ([Node::Scalar(v), set], [RelOp::In]) = (r.parts.as_slice(), r.ops.as_slice()) {
                let Expr::Sym(s) = &v.expr else { return None };
                same_variable(scan, &s.name)?;
                return Some(Condition::Member(sets::numeric_intervals(set)?));
            }
            let comparable =
                |op: &RelOp| matches!(op, RelOp::Eq | RelOp::Lt | RelOp::Le | RelOp::Gt | RelOp::Ge | RelOp::Ne);
            if !r.ops.iter().all(comparable) {
                return None;
            }
            let mut parts = Vec::with_capacity(r.parts.len());
            let mut has_variable = false;
            for part in &r.parts {
                let Node::Scalar(s) = part else { return None };
                if s.percent
                    || s.unit.is_some()
                    || s.infinity.is_some()
                    || s.info.readings != 0
                    || s.info.plus_minus != 0
                {
                    return None;
                }
                has_variable |= s.info.free_symbols;
                literals(&s.expr, scan)?;
                parts.push(&**s);
            }
            if !has_variable {
                return None;
            }
            scan.relations += 1;
            Some(Condition::Relation { parts, ops: r.ops.clone() })
        }
        Node::List(items) | Node::Bracketed { open: '(', close: ')', items }
            if items.len() >= 2 && items.len() <= MAX_ATOMS =>
        {
            // A bracketed pair of constants is an interval, not a group.
            if let Some(intervals) = sets::numeric_intervals(node).filter(|_| matches!(node, Node::Bracketed { .. })) {
                return Some(Condition::Member(intervals));
            }
            let conditions = items.iter().map(|i| build(i, scan)).collect::<Option<Vec<_>>>()?;
            conditions.iter().any(|c| !matches!(c, Condition::Member(_))).then_some(Condition::Joined(conditions))
        }
        _ => sets::numeric_intervals(node).map(Condition::Member),
    }
}

fn same_variable<'a>(scan: &mut Scan<'a>, name: &'a str) -> Option<()> {
    (*scan.variable.get_or_insert(name) == name).then_some(())
}

/// Records the magnitudes of the constant parts of `e` (largest constant subexpressions:
/// `10^{9}` and `\frac{10^9}{-7}`, not their digits) and checks that its only variable is the
/// scan's.
fn literals<'a>(e: &'a Expr, scan: &mut Scan<'a>) -> Option<()> {
    // (expression, whether its parent is constant)
    let mut stack = vec![(e, false)];
    while let Some((e, parent_constant)) = stack.pop() {
        scan.nodes += 1;
        match e {
            Expr::Sym(s) => same_variable(scan, &s.name)?,
            Expr::Apply { .. } | Expr::Based { .. } | Expr::Infinity => return None,
            _ => {}
        }
        let constant = parent_constant || !e.info().free_symbols;
        if constant && !parent_constant {
            let value = numeric::evaluate(e, 0, &At(0.0)).map(|b| b.abs()).filter(|m| *m > 0.0 && m.is_finite());
            if let Some(m) = value {
                scan.largest = scan.largest.max(m);
                scan.smallest = scan.smallest.min(m);
            }
        }
        e.for_each_child(|c| stack.push((c, constant)));
    }
    Some(())
}

/// Points every comparison looks at: zero, small integers and halves, the literals and their
/// negatives (where a double root often lies).
fn sample_points(scan: &Scan<'_>) -> Vec<f64> {
    let mut points: Vec<f64> = (-20..=20).map(|k| k as f64 * 0.5).collect();
    for m in [scan.largest, scan.smallest] {
        if m.is_finite() && m > 0.0 {
            points.extend([m, -m]);
        }
    }
    points
}

/// The variable's value at an evaluation.
struct At(f64);

impl PointValues for At {
    fn ball(&self, _: &Symbol) -> Option<Ball> {
        Some(Ball::exact_real(self.0))
    }
}

/// The sign of a difference at a point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sign {
    Negative,
    Zero,
    Positive,
    /// A side has no real value there (a pole, a square root of a negative number).
    Undefined,
    /// Zero to within the sides' rounding, but not against the values a little way off.
    Blurred,
}

fn spend(budget: &Cell<usize>) -> Option<()> {
    budget.set(budget.get().checked_sub(1)?);
    Some(())
}

/// `a - b` at x: its value and the larger magnitude of the two sides, or `Err(())` where a side
/// has no real value (a pole, a square root of a negative number). `None`: out of budget.
/// `Some(Ok(None))`: not evaluable for another reason (an overflow: the values a little way off
/// are not evaluable either).
fn difference(a: &Expr, b: &Expr, x: f64, budget: &Cell<usize>) -> Option<Result<Option<(Ball, f64)>, ()>> {
    spend(budget)?;
    let side = |e: &Expr, x: f64| numeric::evaluate(e, 0, &At(x));
    let value = |x: f64| -> Result<Option<(Ball, f64)>, ()> {
        let (Some(p), Some(q)) = (side(a, x), side(b, x)) else { return Ok(None) };
        if numeric::certainly_complex(&p) || numeric::certainly_complex(&q) {
            return Err(());
        }
        Ok(p.sub(q).map(|d| (d, p.abs().max(q.abs()))))
    };
    match value(x) {
        Ok(None) => {
            spend(budget)?;
            let h = 1e-6 * x.abs().max(MIN_MAGNITUDE);
            // A pole has values on both sides that grow toward it; an overflow or underflow has
            // no values nearby, or ones that do not grow.
            let magnitude = |y: f64| match value(y) {
                Ok(Some((b, _))) => Some(b.abs()),
                _ => None,
            };
            let grows = |side: f64| match (magnitude(x + side * h), magnitude(x + side * 100.0 * h)) {
                (Some(near), Some(far)) => near > 10.0 * far,
                _ => false,
            };
            let pole = grows(-1.0) && grows(1.0);
            Some(if pole { Err(()) } else { Ok(None) })
        }
        other => Some(other),
    }
}

/// The sign of `a - b` at x, zero when tiny against its size a little way off; `Some(None)`
/// when unsure (a wide ball, an overflow), `None` when out of budget.
fn sign(a: &Expr, b: &Expr, x: f64, budget: &Cell<usize>) -> Option<Option<Sign>> {
    let (d, magnitude) = match difference(a, b, x, budget)? {
        Ok(Some(d)) => d,
        Ok(None) => return Some(None),
        Err(()) => return Some(Some(Sign::Undefined)),
    };
    // Relative to x; at zero itself, at the smallest scale looked at.
    let h = 1e-7 * if x == 0.0 { MIN_MAGNITUDE } else { x.abs() };
    let mut scale: f64 = 0.0;
    for y in [x - h, x + h] {
        if let Ok(Some((e, _))) = difference(a, b, y, budget)? {
            scale = scale.max(e.re.abs());
        }
    }
    let re = d.re;
    if re == 0.0 && d.rad == 0.0 {
        return Some(Some(Sign::Zero));
    }
    // Zero needs the rounding to lie below the change a little way off as well: 0.05 - 0.05
    // at x = 10^{-100} is rounding, not a root.
    let tiny = re.abs() <= 1e-3 * scale;
    if tiny && d.rad <= 1e-3 * scale {
        return Some(Some(Sign::Zero));
    }
    if !tiny && re.abs() > d.rad {
        return Some(Some(if re > 0.0 { Sign::Positive } else { Sign::Negative }));
    }
    // Next to a pole (found to f64 precision) the value is huge and its sign unknown.
    if scale > 0.0 && re.abs() + d.rad > 1e3 * scale {
        return Some(Some(Sign::Undefined));
    }
    // Rounding hides the sign: exact arithmetic may still tell (`|x - 0.05| - 0.05` is zero at
    // 0 and negative at 10^{-100}).
    if let Some(s) = exact_sign(a, b, x, budget)? {
        return Some(Some(s));
    }
    // The sides agree to within their rounding, a few ulps from a root.
    Some((d.rad <= 1e-12 * magnitude).then_some(Sign::Blurred))
}

/// The variable's value at an exact evaluation (every f64 is a rational).
struct ExactAt(BigRational);

impl SymbolValues for ExactAt {
    fn exact(&self, _: &Symbol) -> Option<BigRational> {
        Some(self.0.clone())
    }
}

/// The sign of `a - b` at x in exact rational arithmetic, where both sides are rational there.
fn exact_sign(a: &Expr, b: &Expr, x: f64, budget: &Cell<usize>) -> Option<Option<Sign>> {
    // Big-rational arithmetic costs many float evaluations.
    for _ in 0..EXACT_COST {
        spend(budget)?;
    }
    let Some(at) = BigRational::from_float(x).map(ExactAt) else { return Some(None) };
    let (Ok(p), Ok(q)) = (exact::evaluate(a, 0, &at), exact::evaluate(b, 0, &at)) else { return Some(None) };
    let d = p - q;
    Some(Some(if d.is_zero() {
        Sign::Zero
    } else if d.is_positive() {
        Sign::Positive
    } else {
        Sign::Negative
    }))
}

/// Adds to `points` where the truth of `c` may change.
fn events(c: &Condition<'_>, lo: f64, hi: f64, budget: &Cell<usize>, points: &mut Vec<f64>) -> Option<()> {
    match c {
        Condition::Member(intervals) => {
            for i in intervals {
                points.extend([i.lo, i.hi].into_iter().filter(|e| e.is_finite()));
            }
        }
        Condition::Joined(items) => {
            for i in items {
                events(i, lo, hi, budget, points)?;
            }
        }
        // `x op c`, `c op x op c`: the differences change sign at the constants alone, so those
        // are the events (a grid search finds the same points to f64 precision, in hundreds of
        // evaluations). A constant without a real value here leaves it to the search.
        Condition::Relation { parts, .. } if c.is_solved() => {
            let constants = parts.iter().filter(|s| !s.info.free_symbols);
            let mut values = Vec::with_capacity(2);
            for constant in constants {
                spend(budget)?;
                match numeric::evaluate(&constant.expr, 0, &At(0.0)) {
                    Some(v) if !numeric::certainly_complex(&v) && v.re.is_finite() => values.push(v.re),
                    _ => return events_by_search(parts, lo, hi, budget, points),
                }
            }
            points.extend(values);
        }
        Condition::Relation { parts, .. } => events_by_search(parts, lo, hi, budget, points)?,
    }
    Some(())
}

/// Adds to `points` where the truth of the relation `parts[0] op parts[1] ...` may change: the
/// sign changes, zeros and close approaches to zero of each difference of neighbouring sides,
/// found on a grid.
fn events_by_search(parts: &[&Scalar], lo: f64, hi: f64, budget: &Cell<usize>, points: &mut Vec<f64>) -> Option<()> {
    let parts: Vec<&Expr> = parts.iter().map(|s| &s.expr).collect();
    // Fine steps over the scales of the constants, decades beyond them (`\sqrt{x} \ge
    // 10^9` holds from 10^18 on), integers.
    let steps = ((hi / lo).ln() / GRID_RATIO.ln()).ceil() as i32;
    let decades = (MIN_MAGNITUDE.log10() as i32..=MAX_MAGNITUDE.log10() as i32)
        .map(|k| 10f64.powi(k))
        .filter(|&m| m < lo || m > hi);
    let mut grid: Vec<f64> = (0..=steps)
        .map(|j| lo * GRID_RATIO.powi(j))
        .chain(decades)
        .flat_map(|m| [-m, m])
        .chain((-SMALL_INTEGERS..=SMALL_INTEGERS).map(f64::from))
        .collect();
    grid.sort_by(f64::total_cmp);
    grid.dedup();
    for pair in parts.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let mut values: Vec<Option<(Sign, f64)>> = Vec::with_capacity(grid.len());
        for &x in &grid {
            values.push(rough(a, b, x, budget)?);
        }
        for k in 0..grid.len() {
            let Some((s, _)) = values[k] else { continue };
            // A zero at a grid point is an event itself.
            if s == Sign::Zero {
                points.push(grid[k]);
            }
            let Some((s0, _)) = values.get(k.wrapping_sub(1)).copied().flatten() else { continue };
            let signed = |s: Sign| matches!(s, Sign::Positive | Sign::Negative);
            if s0 != s && s0 != Sign::Zero && s != Sign::Zero {
                bisect(a, b, (grid[k - 1], s0), grid[k], budget, points)?;
            }
            // From a zero the difference may dip to the other sign before it takes the
            // sign of the cell's other end (`(x - 1)(x - 1.02)` on [1, 1.16]).
            if (s0 == Sign::Zero && signed(s)) || (s == Sign::Zero && signed(s0)) {
                let s = if s == Sign::Zero { s0 } else { s };
                hidden_roots(a, b, (grid[k - 1], grid[k]), s, budget, points)?;
            }
            if let (Some((Sign::Positive | Sign::Negative, d0)), Some((s2, d2))) =
                (values[k - 1], values.get(k + 1).copied().flatten())
            {
                let d1 = values[k].map_or(f64::NAN, |(_, d)| d);
                if s0 == s && s == s2 && d1.abs() < d0.abs() && d1.abs() < d2.abs() {
                    hidden_roots(a, b, (grid[k - 1], grid[k + 1]), s, budget, points)?;
                }
            }
        }
    }
    Some(())
}

/// The sign and value of `a - b` at x, cheaply (no zero test: for finding where the sign
/// changes; the value is NaN where undefined); `Some(None)` where unsure.
fn rough(a: &Expr, b: &Expr, x: f64, budget: &Cell<usize>) -> Option<Option<(Sign, f64)>> {
    Some(match difference(a, b, x, budget)? {
        Err(()) => Some((Sign::Undefined, f64::NAN)),
        Ok(None) => None,
        // Zero within its error bound: an event, which the full sign test reads.
        Ok(Some((d, _))) if d.re.abs() <= d.rad => Some((Sign::Zero, 0.0)),
        Ok(Some((d, _))) => Some((if d.re > 0.0 { Sign::Positive } else { Sign::Negative }, d.re)),
    })
}

/// Between grid points where `a - b` keeps sign `s` but comes closer to zero in the middle: the
/// closest approach (golden-section search) is a double root when it touches zero, and lies
/// between two roots when it crosses (`(x + 12)(x + 11)`, both in one grid cell).
fn hidden_roots(
    a: &Expr,
    b: &Expr,
    (mut x0, mut x3): (f64, f64),
    s: Sign,
    budget: &Cell<usize>,
    points: &mut Vec<f64>,
) -> Option<()> {
    let (from, to) = (x0, x3);
    let toward_zero = |x: f64| -> Option<Option<f64>> {
        Some(rough(a, b, x, budget)?.and_then(|(sign, d)| match sign {
            Sign::Zero => Some(0.0),
            Sign::Undefined => None,
            _ if sign == s => Some(d.abs()),
            _ => Some(-d.abs()),
        }))
    };
    const PHI: f64 = 0.618_033_988_749_894_9;
    let mut x1 = x3 - PHI * (x3 - x0);
    let mut x2 = x0 + PHI * (x3 - x0);
    let (Some(mut f1), Some(mut f2)) = (toward_zero(x1)?, toward_zero(x2)?) else { return Some(()) };
    for _ in 0..GOLDEN_STEPS {
        if f1.min(f2) <= 0.0 {
            break;
        }
        if f1 < f2 {
            (x3, x2, f2) = (x2, x1, f1);
            x1 = x3 - PHI * (x3 - x0);
            let Some(f) = toward_zero(x1)? else { return Some(()) };
            f1 = f;
        } else {
            (x0, x1, f1) = (x1, x2, f2);
            x2 = x0 + PHI * (x3 - x0);
            let Some(f) = toward_zero(x2)? else { return Some(()) };
            f2 = f;
        }
    }
    let (xm, fm) = if f1 < f2 { (x1, f1) } else { (x2, f2) };
    if fm < 0.0 {
        // Crossed: a root on each side of the closest approach.
        let flipped = if s == Sign::Positive { Sign::Negative } else { Sign::Positive };
        bisect(a, b, (xm, flipped), from, budget, points)?;
        bisect(a, b, (xm, flipped), to, budget, points)?;
    } else {
        // Touched (or came close): the full sign test at the point decides.
        points.push(xm);
    }
    Some(())
}

/// Adds to `points` where the rough sign of `a - b` changes between `from` (with its sign) and
/// `to`: the point where it does, or, where the values between stop being evaluable (an
/// overflow near a pole), the last two points where they were.
fn bisect(a: &Expr, b: &Expr, from: (f64, Sign), to: f64, budget: &Cell<usize>, points: &mut Vec<f64>) -> Option<()> {
    let (mut lo, s0) = from;
    let mut hi = to;
    for _ in 0..BISECTIONS {
        let mid = 0.5 * (lo + hi);
        if mid <= lo.min(hi) || mid >= lo.max(hi) || (mid != 0.0 && mid.abs() < MIN_MAGNITUDE) {
            break;
        }
        match rough(a, b, mid, budget)?.map(|(s, _)| s) {
            Some(s) if s == s0 => lo = mid,
            Some(Sign::Zero) => {
                points.push(mid);
                return Some(());
            }
            Some(_) => hi = mid,
            None => {
                points.extend([lo, hi]);
                return Some(());
            }
        }
    }
    points.push(0.5 * (lo + hi));
    Some(())
}

/// The points sorted, points within [`SAME_POINT`] of the previous one dropped, with the
/// midpoints between neighbours and a point beyond each end added.
fn with_midpoints(mut points: Vec<f64>) -> Vec<f64> {
    points.retain(|x| x.is_finite());
    points.sort_by(f64::total_cmp);
    let mut kept: Vec<f64> = Vec::with_capacity(points.len());
    for x in points {
        match kept.last() {
            Some(&p) if (x - p).abs() <= SAME_POINT * x.abs().max(p.abs()) => {}
            _ => kept.push(x),
        }
    }
    let mut out = Vec::with_capacity(2 * kept.len() + 2);
    if let (Some(&first), Some(&last)) = (kept.first(), kept.last()) {
        out.push(first - first.abs().max(1.0));
        for w in kept.windows(2) {
            out.extend([w[0], 0.5 * (w[0] + w[1])]);
        }
        out.extend([last, last + last.abs().max(1.0)]);
    }
    out.retain(|x| *x == 0.0 || x.abs() >= MIN_MAGNITUDE);
    out
}

/// Whether `c` holds at each point.
fn truth(c: &Condition<'_>, points: &[f64], budget: &Cell<usize>) -> Option<Vec<Truth>> {
    match c {
        Condition::Member(intervals) => {
            Some(points.iter().map(|&x| Truth::of(intervals.iter().any(|i| i.contains(x, SAME_POINT)))).collect())
        }
        Condition::Relation { parts, ops } => {
            let mut out = Vec::with_capacity(points.len());
            for &x in points {
                let mut holds = Truth::Yes;
                for (pair, op) in parts.windows(2).zip(ops) {
                    let this = match sign(&pair[0].expr, &pair[1].expr, x, budget)? {
                        Some(Sign::Blurred) => Truth::Blurred,
                        Some(s) => Truth::of(satisfies(s, *op)),
                        None => Truth::Unsure,
                    };
                    holds = holds.and(this);
                }
                out.push(holds);
            }
            Some(out)
        }
        Condition::Joined(items) => {
            let each = items.iter().map(|i| truth(i, points, budget)).collect::<Option<Vec<_>>>()?;
            // Disjoint items are alternatives; overlapping ones all hold.
            let overlap = (0..points.len()).any(|k| each.iter().filter(|t| t[k] == Truth::Yes).count() >= 2);
            let (start, join): (Truth, fn(Truth, Truth) -> Truth) =
                if overlap { (Truth::Yes, Truth::and) } else { (Truth::No, Truth::or) };
            Some((0..points.len()).map(|k| each.iter().map(|t| t[k]).fold(start, join)).collect())
        }
    }
}

/// Whether a difference of this sign satisfies `op` (`a op b` with `a - b` of sign `s`).
fn satisfies(s: Sign, op: RelOp) -> bool {
    match s {
        Sign::Undefined | Sign::Blurred => false,
        Sign::Zero => matches!(op, RelOp::Eq | RelOp::Le | RelOp::Ge),
        Sign::Negative => matches!(op, RelOp::Lt | RelOp::Le | RelOp::Ne),
        Sign::Positive => matches!(op, RelOp::Gt | RelOp::Ge | RelOp::Ne),
    }
}

#[cfg(test)]
mod tests {
    use crate::answer::{equivalent, Method, Policy, Reason, Verdict};

    fn all_equal_by_solution_sets(pairs: &[(&str, &str)]) {
        for (a, b) in pairs {
            assert_eq!(verdict(a, b), (Verdict::Equal, Reason::SolutionSet), "{a} / {b}");
        }
    }

    fn verdict(a: &str, b: &str) -> (Verdict, Reason) {
        let j = equivalent(a, b, &Policy::default());
        let k = equivalent(b, a, &Policy::default());
        assert_eq!(j.verdict, k.verdict, "asymmetric: {a} / {b}");
        (j.verdict, j.reason)
    }

    #[test]
    fn equations_equal_their_solutions() {
        all_equal_by_solution_sets(&[
            ("x^2=4", "x=2 \\text{ or } x=-2"),
            ("x^2 - 5x + 6 = 0", "x = 2, x = 3"),
            ("x^2=4", "x \\in \\{-2, 2\\}"),
            ("(x-1)^2 = 0", "x = 1"),
            ("x^3 = 8", "x = 2"),
            ("2^x = 8", "x = 3"),
            ("x^2 = 10^{-40}", "x = 10^{-20} \\text{ or } x = -10^{-20}"),
            ("\\sqrt{11 - 2x} = 1", "x = 5"),
            // An "assignment" whose value holds its own variable is an equation.
            ("x = \\sqrt{11 - 2x} + 4", "x = 5"),
            ("x^2 = -1", "\\emptyset"),
            // Two roots in one grid cell, a double root off the integers.
            ("x^2 + 23x + 132 = 0", "x = -11 \\text{ or } x = -12"),
            ("(x - 100.25)(x - 100.75) = 0", "x = 100.25 \\text{ or } x = 100.75"),
            ("(x - \\sqrt{2})^2 = 0", "x = \\sqrt{2}"),
        ]);
    }

    #[test]
    fn inequalities_equal_their_solution_sets() {
        all_equal_by_solution_sets(&[
            ("|x|<2", "-2<x \\text{ and } x<2"),
            ("|x|<2", "(-2,2)"),
            ("x^2<4", "x<2 \\text{ and } x>-2"),
            ("x^2>4", "x>2 \\text{ or } x<-2"),
            ("|x|\\le 3", "x^2\\le 9"),
            ("|x|<1", "x^6<1"),
            ("x^2\\ge 4", "x^4\\ge 16"),
            ("x^2\\ge 0", "x^4\\ge 0"),
            ("x\\ge 1 \\text{ and } x\\le 1", "x=1"),
            ("x^2-3\\neq 1", "x<-2 \\text{ or } (-2<x \\text{ and } x<2) \\text{ or } 2<x"),
            ("(x<0 \\text{ or } x\\ge 1) \\text{ and } x\\le 3", "x<0 \\text{ or } (x\\ge 1 \\text{ and } x\\le 3)"),
            ("\\sqrt{x} < 2", "[0, 4)"),
            ("x^2 > 0", "x \\ne 0"),
            ("\\frac{1}{x} > 0", "x > 0"),
        ]);
    }

    #[test]
    fn different_solution_sets_differ() {
        for (a, b) in [
            ("x^2=4", "x=2"),
            ("x^2=3x", "x=3"),
            ("|x|<2", "(-2,2]"),
            ("x^2\\le 4", "-2<x<2"),
            ("x^2 > 4", "x > 2"),
            ("\\frac{1}{x} \\ge 0", "x \\ge 0"),
            ("x^2 = 2", "x = 1.4142 \\text{ or } x = -1.4142"),
            ("x = 1000000", "x = 1000001"),
            // Far beyond every literal digit: the constants' values set the range.
            ("x = \\frac{10^{9}}{-7}", "\\emptyset"),
            ("x < 10^{9}", "\\mathbb{R}"),
            ("\\sqrt{x} \\ge 10^{9}", "\\emptyset"),
            ("10^{9} \\sqrt{x} = 10^{-8}", "\\emptyset"),
            ("x^2 + 23x + 132 = 0", "x = -11"),
            ("(x - 100.25)(x - 100.75) \\le 0", "x = 100.25"),
            ("(x - \\sqrt{2})^2 > 0", "\\mathbb{R}"),
            ("x^2 = 10^{-40}", "x = 10^{-20} \\text{ or } x = -2 \\cdot 10^{-20}"),
            ("\\frac{1}{x} \\ge 0", "x \\ge 0"),
            ("x^{1000} < 2", "-1 < x < 1"),
            ("x^2 > 0", "x > 0"),
        ] {
            let (v, r) = verdict(a, b);
            assert_eq!(v, Verdict::NotEqual, "{a} / {b} ({r:?})");
        }
    }

    #[test]
    fn solved_conditions_compare_at_their_constants() {
        // Both sides solved: the constants are the events, no grid search. (Other rules may
        // decide these first; the verdict is what counts.)
        for (a, b) in [
            ("x = 2", "x \\in \\{2\\}"),
            ("x = \\pi", "x \\in \\{\\pi\\}"),
            ("2 < x \\le 5", "(2, 5]"),
            ("x = 1 \\text{ or } x = 10^{-30}", "x \\in \\{10^{-30}, 1\\}"),
            (
                "x = 1 \\text{ or } x = 2",
                "x \\ge 1 \\text{ and } x \\le 2 \\text{ and } (x \\le 1 \\text{ or } x \\ge 2)",
            ),
            ("x > 2", "2 < x"),
        ] {
            assert_eq!(verdict(a, b).0, Verdict::Equal, "{a} / {b}");
        }
        for (a, b) in [
            ("\\emptyset", "a = 2"),
            ("\\text{No solution}", "a=2, a=-6-4 \\sqrt{2}"),
            ("x = \\pi", "x = e"),
            ("x = \\pi", "x = 3.14"),
            ("x = 10^{-30}", "x = 2 \\cdot 10^{-30}"),
            ("x = 10^{40}", "x = 10^{40} + 1"),
            ("x \\ge 2", "x > 2"),
            ("-1 < x < 1", "-1 \\le x < 1"),
            // One side solved, the other searched as before.
            ("x = \\sqrt{2}", "x^2 = 2"),
        ] {
            let (v, r) = verdict(a, b);
            assert_eq!(v, Verdict::NotEqual, "{a} / {b} ({r:?})");
        }
    }

    #[test]
    fn grading_does_not_take_the_condition_for_its_solution() {
        let grading = Policy::default().for_grading();
        for (unsolved, solved) in [
            ("x^2 - 5x - 14 \\le 0", "[-2, 7]"),
            ("x^2 = 4", "x = 2 \\text{ or } x = -2"),
            ("|x| < 2", "-2 < x < 2"),
            ("(x - 3)^2 = 0", "x = 3"),
        ] {
            assert_eq!(verdict(unsolved, solved).0, Verdict::Equal, "{unsolved} / {solved}");
            assert_eq!(
                equivalent(unsolved, solved, &grading).reason,
                Reason::UnsolvedCondition,
                "{unsolved} / {solved}"
            );
        }
        // Two solved forms, two unsolved ones, or a solved response against an unsolved
        // reference (`1 \le |z| \le 3/2`) still compare by their solution sets.
        assert_eq!(
            equivalent("z \\in [-\\frac{3}{2}, -1] \\cup [1, \\frac{3}{2}]", "1 \\le |z| \\le \\frac{3}{2}", &grading)
                .verdict,
            Verdict::Equal
        );
        assert_eq!(equivalent("x \\ge 1 \\text{ and } x \\le 1", "x = 1", &grading).reason, Reason::SolutionSet);
        assert_eq!(equivalent("|x| \\le 3", "x^2 \\le 9", &grading).reason, Reason::SolutionSet);
    }

    #[test]
    fn a_backwards_pair_is_no_interval() {
        // 3x^2 + 6x + 5 = 0 has no real root, and (8, -2) is a pair, not the empty interval.
        assert_ne!(verdict("3x^2 + 6x + 5 = 0", "(8, -2)").0, Verdict::Equal);
    }

    #[test]
    fn other_answers_are_left_to_the_shape_rules() {
        // Two variables, a value against a relation, two sets of constants.
        for (a, b, v) in [
            ("ab=0", "a=0 \\text{ or } b=0", Verdict::NotEqual),
            ("x = 2", "2", Verdict::Equal),
            ("(1,2)", "\\{1, 2\\}", Verdict::Unknown),
        ] {
            let j = equivalent(a, b, &Policy::default());
            assert_ne!(j.reason, Reason::SolutionSet, "{a} / {b}");
            assert_eq!(j.verdict, v, "{a} / {b}");
        }
        // Exact values stay decided, beyond f64's sight too.
        assert_eq!(equivalent("x = 10^{20}", "x = 10^{20} + 1", &Policy::default()).reason, Reason::ExactValue);
        // Equal by shape stays so (variables positive: `\sqrt{x^2} = 2` is `x = 2`).
        assert_eq!(equivalent("\\sqrt{x^2} = 2", "x = 2", &Policy::default()).method, Method::Numeric);
    }
}
