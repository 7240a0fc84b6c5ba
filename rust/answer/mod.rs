//! Mathematical equivalence of two answers, decided natively.
//!
//! ```text
//! text --lexer--> tokens --normalize--> canonical tokens --parse--> Node tree of Scalars
//!                                         |                              |
//!                                   normalize() string          evaluated once: exact value,
//!                                                               numeric ball, random points
//! compare(Answer, Answer, Policy) -> Judgement { verdict, method, reason }
//! ```
//! Parse the reference once ([`Answer::parse`]) and [`compare`] it with every candidate: a
//! comparison of two numbers is a rational or float comparison, no parsing.
//!
//! Conventions (the full list is in `equivalence`, `parse`, `scalar` and `policy`):
//! - `e` is Euler's number and `i` the imaginary unit; every other letter is a variable;
//!   variables take positive values at the evaluation points;
//! - `\log` without a base may be natural or decimal: equal only if equal both ways;
//! - `f(x)` may be an application or a product: equal only if equal both ways;
//! - `a/b c` may be `(a/b)c` or `a/(bc)`: equal only if equal both ways;
//! - `7\frac{3}{4}` is a mixed number; `\sqrt12` is `\sqrt{12}`; `2^10` is `2^{10}`;
//! - `4.5e33` and `1e-5` are scientific notation (`2e-1` is 0.2, not 2e - 1);
//! - a bare list `2, 3` is an unordered multiset, as are sets; tuples and intervals are ordered;
//! - a decimal of at least `decimal_min_sig_digits` significant digits equals what rounds to it.
//!
//! Unknown is returned only where a decision would need more than this module knows (a CAS:
//! see [`Reason::cas_may_help`]) or where the notation is genuinely ambiguous; never a NotEqual
//! without evidence, never an Equal without a match.

mod equivalence;
mod exact;
mod expr;
mod judgement;
mod lexer;
mod node;
mod normalize;
mod numeric;
mod parse;
mod policy;
mod relation;
mod scalar;
mod sets;
mod sympy;
mod units;

pub use equivalence::{compare, equivalent, Answer};
pub use judgement::{Judgement, Method, Reason, Verdict};
pub use normalize::normalize;
pub use policy::{PercentPolicy, Policy, UnitsPolicy};

#[cfg(test)]
mod bench;
#[cfg(test)]
mod tests;
