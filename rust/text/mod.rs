//! Text-level building blocks: offsets, math regions, sentences, cue words and restatements
//! (and UTF-8 from code points, for text that comes as them).
pub mod byte_sets;
pub mod chars;
pub mod code_points;
pub mod cues;
pub mod math_regions;
pub mod offsets;
pub mod restatements;
pub mod sentences;

#[cfg(test)]
mod properties;
