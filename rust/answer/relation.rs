//! Equations and inequalities compared as relations.
//!
//! Two single relations `f = 0` and `g = 0` are the same relation when `f = k·g` for a constant
//! k != 0 (k > 0 for inequalities, after turning `>` into `<`): `y = 2x + 3` is `2x - y + 3 = 0`,
//! `x < 3` is `2x < 6` but not `x > 3`. The ratio is checked at the evaluation points of
//! [`super::scalar`]: constant and non-zero at every point means equal.
//!
//! A ratio that varies proves nothing by itself: `m v' + b v = f` and `v' + (b/m) v = f/m` differ
//! by the factor m and are the same equation wherever m != 0. Not equal needs a witness: a point
//! where one relation holds and the other clearly does not, found by fixing all variables but one
//! at an evaluation point and bisecting a sign change of one side (`x + y = 3` has x = 3 - y,
//! where `x + y = 4` fails). Without a witness the verdict is Unknown.

use super::expr::{Readings, Symbol, ALL_READINGS};
use super::judgement::{Judgement, Method, Reason, Verdict};
use super::node::{RelOp, Relation};
use super::numeric::{self, certain_sign, compare_balls, Ball, BallOrder, PointValues};
use super::policy::Policy;
use super::scalar::{on_one_branch, real_point_value, Scalar, REAL_POINTS};

/// `<` and `<=` after moving everything left; `>`/`>=` flip the sign of the difference.
fn normal_form(op: RelOp) -> (RelOp, bool) {
    match op {
        RelOp::Gt => (RelOp::Lt, true),
        RelOp::Ge => (RelOp::Le, true),
        RelOp::Approx => (RelOp::Eq, false),
        other => (other, false),
    }
}

/// Compares two single relations by proportional differences; none for chains and `\in`.
pub fn compare(a: &Relation, b: &Relation, policy: &Policy) -> Option<Judgement> {
    let ([op_a], [op_b]) = (a.ops.as_slice(), b.ops.as_slice()) else { return None };
    if matches!(op_a, RelOp::In) || matches!(op_b, RelOp::In) {
        return None;
    }
    let (da, db) = (a.difference()?, b.difference()?);
    let (op_a, flip_a) = normal_form(*op_a);
    let (op_b, flip_b) = normal_form(*op_b);
    if op_a != op_b {
        return Some(Judgement::not_equal(Method::Exact, Reason::RelationFactor));
    }
    let positive_factor = op_a.is_inequality();
    let union = da.info.readings | db.info.readings;
    Some(Judgement::every_reading((0..=ALL_READINGS).filter(|r| r & !union == 0).map(|r| {
        let judgement = proportional(da, db, r, flip_a != flip_b, positive_factor, policy);
        // The points are positive: where an |…|, max or min kept one branch at all of them,
        // a constant ratio shows the relations agree on that branch only (`|x| = 2` is not
        // `x = 2`, `|x| = |y|` not `x = y`).
        let one_branch = || on_one_branch(&da.expr, r, policy) || on_one_branch(&db.expr, r, policy);
        if judgement.verdict == Verdict::Equal && one_branch() {
            Judgement::unknown(Reason::OneBranch)
        } else {
            judgement
        }
    })))
}

/// Is `a = k·b` (k constant, non-zero; positive when `positive` — after negating b if `negate`)?
fn proportional(
    da: &Scalar,
    db: &Scalar,
    readings: Readings,
    negate: bool,
    positive: bool,
    policy: &Policy,
) -> Judgement {
    let (a, b) = (da.values(readings), db.values(readings));
    if !a.has_points() && !b.has_points() {
        // Relations between constants (`2 = 2`) are statements, not answers worth deciding.
        return Judgement::unknown(Reason::EvaluationFailed);
    }
    let mut ratio: Option<Ball> = None;
    let (mut defined, mut differs, mut undecided) = (0, false, false);
    let mut ratios: Vec<(usize, Ball)> = Vec::with_capacity(REAL_POINTS);
    for k in 0..REAL_POINTS {
        let (Some(x), Some(y)) = (a.real_point(k, &da.expr), b.real_point(k, &db.expr)) else { continue };
        let y = if negate { y.neg() } else { y };
        let Some(q) = x.div(y).filter(|_| !x.contains_zero()) else {
            // A point on one relation's boundary: no ratio here.
            undecided |= !(x.contains_zero() && y.contains_zero());
            continue;
        };
        defined += 1;
        ratios.push((k, q));
        match ratio {
            None => ratio = Some(q),
            Some(r) => match compare_balls(&r, &q, policy.rel_tol) {
                BallOrder::Close => {}
                BallOrder::Apart => differs = true,
                BallOrder::Undecided => undecided = true,
            },
        }
    }
    if differs && !undecided && defined >= 3 {
        // `m y + b x = f` and `y + (b/m) x = f/m`: the factor is a power of one variable, never
        // zero under the convention that variables are positive.
        if let Some(k) = power_factor(da, db, &ratios, policy) {
            if !positive {
                return Judgement::equal(Method::Numeric, Reason::RelationFactor);
            }
            match certain_sign(&k) {
                Some(std::cmp::Ordering::Greater) => return Judgement::equal(Method::Numeric, Reason::RelationFactor),
                Some(std::cmp::Ordering::Less) => return Judgement::not_equal(Method::Numeric, Reason::RelationFactor),
                _ => {}
            }
        }
    }
    if differs {
        return if policy.prove_not_equal && (separating_point(da, db, readings) || separating_point(db, da, readings)) {
            Judgement::not_equal(Method::Numeric, Reason::RelationFactor)
        } else {
            Judgement::unknown(Reason::NonConstantFactor)
        };
    }
    let Some(ratio) = ratio.filter(|_| !undecided && defined >= 3) else { return Judgement::unknown(Reason::TooClose) };
    if positive {
        return match certain_sign(&ratio) {
            Some(std::cmp::Ordering::Greater) => Judgement::equal(Method::Numeric, Reason::RelationFactor),
            Some(std::cmp::Ordering::Less) => Judgement::not_equal(Method::Numeric, Reason::RelationFactor),
            _ => Judgement::unknown(Reason::TooClose),
        };
    }
    Judgement::equal(Method::Numeric, Reason::RelationFactor)
}

/// The constant k when `ratios` (the ratio of the two sides at real points) is k·v^p for one
/// variable v of either side and p in ±1, ±2, in relations of three or more variables.
fn power_factor(da: &Scalar, db: &Scalar, ratios: &[(usize, Ball)], policy: &Policy) -> Option<Ball> {
    let mut names = da.expr.symbol_names();
    for n in db.expr.symbol_names() {
        if !names.contains(&n) {
            names.push(n);
        }
    }
    // With one or two variables the factor may be the unknown itself (`x = 3` against
    // `x^2 = 3x`, `y = 2x` against `xy = 2x^2`): dividing by it loses solutions. Formulas with
    // parameters (`m v' + b v = f`) have more.
    if names.len() < 3 {
        return None;
    }
    for name in names.iter().take(8) {
        let symbol = Symbol::new(*name);
        for p in [1, -1, 2, -2] {
            let scaled: Option<Vec<Ball>> =
                ratios.iter().map(|&(k, q)| q.div(Ball::exact_real(real_point_value(&symbol, k).powi(p)))).collect();
            let Some(scaled) = scaled else { continue };
            let constant = scaled.windows(2).all(|w| compare_balls(&w[0], &w[1], policy.rel_tol) == BallOrder::Close);
            if constant {
                return scaled.first().copied();
            }
        }
    }
    None
}

/// Values of the variables at real point `k`, except `free`, which takes `value`.
struct Line<'a> {
    point: usize,
    free: &'a str,
    value: f64,
}

impl PointValues for Line<'_> {
    fn ball(&self, symbol: &Symbol) -> Option<Ball> {
        Some(Ball::exact_real(if symbol.name == self.free { self.value } else { real_point_value(symbol, self.point) }))
    }
}

/// Grid of positive values scanned for a sign change: 0.01 to about 9,000, geometric.
const SCAN_STEPS: usize = 60;
const BISECTIONS: usize = 80;
/// Evaluations one search may spend (a few milliseconds for typical answers).
const MAX_EVALUATIONS: usize = 3_000;

/// A witness that the relations differ: a root of `p` (a sign change where |p| becomes tiny,
/// not a pole) at which `q` keeps one sign, bounded away from zero.
fn separating_point(p: &Scalar, q: &Scalar, readings: Readings) -> bool {
    let names = p.expr.symbol_names();
    // Bounded work: expressions can be thousands of tokens long.
    let budget = std::cell::Cell::new(MAX_EVALUATIONS);
    for free in names.iter().take(4) {
        // Small values first: other variables at unit scale or below leave room for roots.
        for point in [2, 0, 4, 1] {
            let at = |x: f64, s: &Scalar| -> Option<(f64, f64)> {
                budget.set(budget.get().checked_sub(1)?);
                let b = numeric::evaluate(&s.expr, readings, &Line { point, free, value: x })?;
                numeric::real_bounds(&b).filter(|_| b.real || b.im.abs() <= b.rad)
            };
            let grid = |j: usize| 0.01 * 1.2f64.powi(j as i32);
            // Each grid point is evaluated once, as the right end of one pair and the left of
            // the next.
            let mut left = sign(at(grid(0), p));
            for j in 1..SCAN_STEPS {
                if budget.get() == 0 {
                    return false;
                }
                let right = sign(at(grid(j), p));
                let (Some(s0), Some(s1)) = (std::mem::replace(&mut left, right), right) else { continue };
                if s0 == s1 {
                    continue;
                }
                let (mut lo, mut hi) = (grid(j - 1), grid(j));
                for _ in 0..BISECTIONS {
                    let mid = 0.5 * (lo + hi);
                    match sign(at(mid, p)) {
                        Some(s) if s == s0 => lo = mid,
                        Some(_) => hi = mid,
                        None => break,
                    }
                }
                // Magnitudes at the root against magnitudes a little away from it: a root of p
                // is tiny there (a pole is huge); q must stay comparable (a root of q shared
                // with p, even a double one, would be tiny too).
                let magnitude = |x: f64, s: &Scalar| at(x, s).map(|(l, h)| l.abs().max(h.abs()));
                let nearby = |s: &Scalar| {
                    let (a, b) = (magnitude(lo * (1.0 - 1e-3), s), magnitude(hi * (1.0 + 1e-3), s));
                    a.zip(b).map(|(a, b)| a.max(b)).filter(|&m| m > 0.0)
                };
                let (Some(p_scale), Some(q_scale)) = (nearby(p), nearby(q)) else { continue };
                let tiny = |x: f64| magnitude(x, p).is_some_and(|m| m <= 1e-6 * p_scale);
                let clear = |x: f64| {
                    let b = at(x, q);
                    sign(b).filter(|_| b.is_some_and(|(l, h)| l.abs().min(h.abs()) >= 1e-3 * q_scale))
                };
                if tiny(lo) && tiny(hi) {
                    if let (Some(a), Some(b)) = (clear(lo), clear(hi)) {
                        if a == b {
                            return true;
                        }
                    }
                }
            }
        }
    }
    false
}

/// The certain sign of a real interval.
fn sign(bounds: Option<(f64, f64)>) -> Option<bool> {
    let (lo, hi) = bounds?;
    if lo > 0.0 {
        Some(true)
    } else if hi < 0.0 {
        Some(false)
    } else {
        None
    }
}
