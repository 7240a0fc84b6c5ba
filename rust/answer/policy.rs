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
    /// When two relations are not proportional, search for a point that proves them different
    /// (a root of one where the other clearly is not zero: NotEqual). Off, such a pair is
    /// Unknown at once. The search costs up to a few milliseconds a pair; the anchor search,
    /// which acts only on Equal, turns it off.
    pub relation_witness: bool,
}

impl Default for Policy {
    fn default() -> Policy {
        Policy { percent: PercentPolicy::Strict, units: UnitsPolicy::Strict, decimal_min_sig_digits: 6, rel_tol: 1e-10, relation_witness: true }
    }
}
