//! Text-level building blocks: offsets, math regions, sentences and cue words.
pub mod chars;
pub mod cues;
pub mod math_regions;
pub mod offsets;
pub mod sentences;

#[cfg(test)]
mod properties;
