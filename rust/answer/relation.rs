//! Equations and inequalities compared as relations.
//!
//! Two single relations `f = 0` and `g = 0` are the same relation when `f = k·g` for a constant
//! k != 0 (k > 0 for inequalities, after turning `>` into `<`): `y = 2x + 3` is `2x - y + 3 = 0`,
//! `x < 3` is `2x < 6` but not `x > 3`. The ratio is checked at the evaluation points of
//! [`super::scalar`]: constant and non-zero at every point means equal.

use super::judgement::{Judgement, Method, Reason};
use super::node::{RelOp, Relation};
use super::numeric::{certain_sign, compare_balls, Ball, BallOrder};
use super::policy::Policy;
use super::scalar::{PointValue, Values, INTEGER_POINTS, REAL_POINTS};
use super::expr::ALL_READINGS;

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
        proportional(da.values(r), db.values(r), flip_a != flip_b, positive_factor, policy)
    })))
}

fn at(values: &Values, k: usize) -> Option<Ball> {
    if values.real_points.is_empty() { values.ball } else { values.real_points[k] }
}

/// Is `a = k·b` (k constant, non-zero; positive when `positive` — after negating b if `negate`)?
fn proportional(a: &Values, b: &Values, negate: bool, positive: bool, policy: &Policy) -> Judgement {
    if a.real_points.is_empty() && b.real_points.is_empty() {
        // Relations between constants (`2 = 2`) are statements, not answers worth deciding.
        return Judgement::unknown(Reason::EvaluationFailed);
    }
    let mut ratio: Option<Ball> = None;
    let (mut defined, mut differs, mut undecided) = (0, false, false);
    for k in 0..REAL_POINTS {
        let (Some(x), Some(y)) = (at(a, k), at(b, k)) else { continue };
        let y = if negate { y.neg() } else { y };
        let Some(q) = x.div(y).filter(|_| !x.contains_zero()) else {
            // A point on one relation's boundary: no ratio here.
            undecided |= !(x.contains_zero() && y.contains_zero());
            continue;
        };
        defined += 1;
        match ratio {
            None => ratio = Some(q),
            Some(r) => match compare_balls(&r, &q, policy.rel_tol) {
                BallOrder::Close => {}
                BallOrder::Apart => differs = true,
                BallOrder::Undecided => undecided = true,
            },
        }
    }
    if differs {
        return integer_points_differ(a, b, policy);
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

/// The ratio varied at real points; it is a proof of difference if it also varies at integer
/// points (else the relations may agree on the integers only).
fn integer_points_differ(a: &Values, b: &Values, policy: &Policy) -> Judgement {
    let value = |v: &Values, k: usize| -> Option<Ball> {
        if v.integer_points.is_empty() {
            return v.ball;
        }
        match &v.integer_points[k] {
            PointValue::Exact(r) => Ball::from_rational(r),
            PointValue::Approx(b) => Some(*b),
            PointValue::Undefined => None,
        }
    };
    let mut first: Option<Ball> = None;
    for k in 0..INTEGER_POINTS {
        let (Some(x), Some(y)) = (value(a, k), value(b, k)) else { continue };
        let Some(q) = x.div(y) else { continue };
        match first {
            None => first = Some(q),
            Some(r) if compare_balls(&r, &q, policy.rel_tol) == BallOrder::Apart => {
                return Judgement::not_equal(Method::Numeric, Reason::RelationFactor);
            }
            Some(_) => {}
        }
    }
    Judgement::unknown(Reason::IntegerOnlyIdentity)
}
