//! Text-level building blocks: offsets and sentences.
pub mod offsets;
