//! Text-level building blocks: offsets, math regions, sentences and cue words.
pub mod chars;
pub mod math_regions;
pub mod offsets;
pub mod sentences;
pub mod cues;

#[cfg(test)]
mod properties;
