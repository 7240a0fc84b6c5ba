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
//! Conventions (each rule is stated where it is implemented: `equivalence`, `parse`, `scalar`,
//! `relation`, `sets`, `solution_set`, `policy`):
//! - `e` is Euler's number and `i` the imaginary unit; every other letter is a variable, and
//!   variables take positive values at the evaluation points (`\sqrt{x^2} = x`);
//! - notation with two readings is equal only if equal under both: `\log` without a base
//!   (natural or decimal), `f(x)` with a lone argument (application or product), `a/b c`;
//! - `7\frac{3}{4}` and `4 4/9` are mixed numbers (the slash form only with a proper fraction on
//!   the same line, see `crate::extract::mixed_number`); `\sqrt12` is `\sqrt{12}` and `2^10` is `2^{10}` (what the
//!   writer meant, not what TeX renders); `4.5e33`, `1e-5` and `2e-1` are scientific notation;
//! - `x = 3` equals `3`; assignments to the same name compare by value, to different names not
//!   (`x = 1, y = 2` is not `x = 2, y = 1`); other equations are equal up to a constant factor,
//!   not equal given a witness point, Unknown otherwise (`m v' = f` vs `v' = f/m`); conditions
//!   on one variable that no shape rule finds equal compare by their real solution sets
//!   (`x^2 = 4` vs `x = \pm 2`, `|x| < 2` vs `(-2, 2)`; `solution_set`), except that grading
//!   never takes a response's unsolved condition for a solved reference;
//! - a bare list `2, 3` is an unordered multiset, as is a set; tuples and intervals are ordered
//!   and keep their brackets; a list against a tuple of the same elements is Unknown;
//! - a decimal of at least `decimal_min_sig_digits` significant digits equals what rounds to it;
//! - numeric Equal means equal within certified f64 error of at most `rel_tol` relative; for
//!   algebraic constants (rationals, `+ - × ÷`, powers, roots) it is confirmed with ~320-bit
//!   rational intervals (`\sqrt{10^{20}+1}` and `10^{10}`, 5e-21 apart, are not equal); with π, e,
//!   logarithms or trigonometry a difference below f64 precision cannot be seen.
//!
//! Unknown is returned where a decision needs a CAS ([`Reason::cas_may_help`]) or where the
//! notation or the question is genuinely ambiguous; never a NotEqual without evidence, never an
//! Equal without a match.

mod distinct;
mod equivalence;
mod exact;
mod expr;
mod interval;
mod judgement;
mod lexer;
mod linear;
mod magnitude;
mod node;
mod normalize;
mod numeric;
mod parse;
mod policy;
mod rational;
mod relation;
mod scalar;
mod sets;
mod simplest_form;
mod siunitx;
mod solution_set;
mod sympy;
mod units;

pub use distinct::{DistinctTexts, Numbering};
pub use equivalence::{compare, equivalent, Answer};
pub use judgement::{Judgement, Method, Reason, Verdict};
pub(crate) use lexer::{matching_brace, superscript_digit};
pub use normalize::normalize;
pub use policy::{PercentPolicy, Policy, UnitsPolicy};
pub use simplest_form::unreduced_forms;

#[cfg(test)]
mod bench;
#[cfg(test)]
mod tests;
