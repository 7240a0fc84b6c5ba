//! What "equal" means where mathematics leaves a choice: percentages, units, decimals.

/// How a percent sign is read when one side has it and the other does not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PercentPolicy {
    /// `10\%` equals `10` (the sign is notation) and nothing else; not `0.1`, not `1000`.
    Strict,
    /// `10\%` is the number 0.1: it equals `0.1` and `\frac{1}{10}`, not `10`.
    AsFraction,
    /// Either reading may match: `10\%` equals `10` and `0.1` (never `1000`).
    Either,
}

/// How units are compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnitsPolicy {
    /// A unit on one side only is ignored (`12 cm` = `12`); different units on both sides are
    /// not equal (`12 cm` != `12 m`), with no conversion.
    Strict,
    /// Units are ignored everywhere (`12 cm` = `12 m`).
    Ignore,
}

/// The comparison policy. [`Policy::default`] is the strict one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Policy {
    pub percent: PercentPolicy,
    pub units: UnitsPolicy,
    /// A decimal literal with at least this many significant digits equals an exact or
    /// irrational value that rounds to it at its last digit (`0.333333` = `1/3` with 6; `0.333`
    /// != `1/3`). Shorter decimals must match exactly. Decimal vs decimal is always exact.
    pub decimal_min_sig_digits: u32,
    /// Relative tolerance of numeric (non-exact) equality: values whose certified difference
    /// is within `rel_tol` of their magnitude are equal. Exact values are compared exactly.
    pub rel_tol: f64,
    /// Spend the work that tells NotEqual from Unknown once Equal is ruled out: the search for
    /// a point that proves two non-proportional relations different (up to milliseconds a
    /// pair), and the exact evaluation at integer points that tells values differing at a real
    /// point from an identity true on the integers only (`\cos(n\pi)` vs `(-1)^n`). Off, such
    /// pairs are Unknown at once (reason `non_constant_factor` or `differs_on_reals`); Equal
    /// verdicts are the same either way. The anchor search, which acts only on Equal, turns it
    /// off.
    pub prove_not_equal: bool,
    /// Compare a condition on one variable that is not solved for it (`x^2 = 4`, `|x| < 2`)
    /// with a solved one (`x = 2 \text{ or } x = -2`, `(-2, 2)`) by their solution sets, as
    /// mathematics does. Grading turns it off ([`Policy::for_grading`]): there a response's
    /// unsolved condition restates the question rather than answering it, and a response that
    /// boxes the inequality it was asked to solve must not score. Off, the comparison is
    /// directed: the first answer (the response) unsolved against a solved second (the
    /// reference) is not equal (reason `unsolved_condition`), unless the shapes already agree
    /// (`2x = 6` against `x = 3`); a solved response against an unsolved reference compares
    /// by solution sets.
    pub unsolved_conditions: bool,
}

impl Default for Policy {
    fn default() -> Policy {
        Policy {
            percent: PercentPolicy::Strict,
            units: UnitsPolicy::Strict,
            decimal_min_sig_digits: 6,
            rel_tol: 1e-10,
            prove_not_equal: true,
            unsolved_conditions: true,
        }
    }
}

impl Policy {
    /// This policy as answer grading uses it (the outcome check and the anchor search): an
    /// unsolved condition is no answer to a solved one.
    pub fn for_grading(&self) -> Policy {
        Policy { unsolved_conditions: false, ..*self }
    }
}
