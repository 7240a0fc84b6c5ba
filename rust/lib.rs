//! apr-fast: the native core of the Anchor-based Process Reward.
//!
//! Data flows one way: text -> sentences -> candidates -> anchor -> reward; the outcome check
//! (final answer -> equivalence) feeds the reward and stands alone for outcome-only use.
//! Every module here is pure Rust; `bindings` (feature `python`) is the only one that knows Python.

pub mod alloc;
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

/// The extension (and the core's own tests) allocate through [`alloc::ThreadCaching`] on Linux
/// with glibc (see that module); a Rust program that links the core as a library keeps its own
/// allocator.
#[cfg(all(any(feature = "python", test), target_os = "linux", target_env = "gnu"))]
#[global_allocator]
static ALLOCATOR: alloc::ThreadCaching = alloc::ThreadCaching;
