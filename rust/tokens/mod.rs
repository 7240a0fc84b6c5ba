//! Tokenizer vocabularies: token ids -> bytes -> text, with the offset where each token ends.
//!
//! In RL training the reward receives the policy's response as token ids. Decoding them here,
//! with the exact tables of the policy's own `tokenizer.json`, gives the text and, for every
//! character of it, the token that produced it, so a position found in the text (the reasoning
//! anchor) maps back to a token index without re-tokenizing anything.
//!
//! - `vocabulary`: loading a `tokenizer.json` into flat per-id tables; `token_id`, `is_special`.
//! - `decode`: ids -> [`Decoded`] text + token ends, as `tokenizers`' `decode` does.
//! - `encoder`: text -> ids and token ends, natively, for byte-level BPE files (Qwen2, Llama 3,
//!   DeepSeek-V3, GPT-2),
//!   from `pretokenize` (the file's Split pattern) and `bpe` (the merges).
//! - `spans`: token ends from the `(start, end)` spans a tokenizer reports (the text path).
//! - `decoder`, `normalizer`, `byte_level`, `json`: the parts of the file that decoding needs.

mod bpe;
mod byte_level;
mod decode;
mod decoder;
mod encoder;
mod json;
mod normalizer;
mod pretokenize;
// Generated tables (scripts/unicode_class_additions.py): kept as the script writes them.
#[rustfmt::skip]
mod unicode_additions;
mod spans;
mod vocabulary;

pub use decode::{DecodeError, Decoded};
pub use encoder::{Encoder, Encoding};
pub use spans::token_ends_from_spans;
pub use vocabulary::{Vocabulary, VocabularyError, MAX_ID};

#[cfg(test)]
mod tests;
