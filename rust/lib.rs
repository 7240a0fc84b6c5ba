//! apr-fast: the native core of the Anchor-based Process Reward.
//!
//! Data flows one way: text -> sentences -> candidates -> anchor -> reward; the outcome check
//! (final answer -> equivalence) feeds the reward and stands alone for outcome-only use.
//! Every module here is pure Rust; `bindings` (feature `python`) is the only one that knows Python.

pub mod anchor;
pub mod answer;
pub mod extract;
pub mod hash;
pub mod outcome;
pub mod parallel;
pub mod reward;
pub mod text;
pub mod tokens;

#[cfg(feature = "python")]
mod bindings;
