//! Text-level building blocks: offsets, math regions, sentences, cue words and restatements.
pub mod chars;
pub mod cues;
pub mod math_regions;
pub mod offsets;
pub mod restatements;
pub mod sentences;

#[cfg(test)]
mod properties;
