//! The `decoder` section of a `tokenizer.json`, reduced to the few shapes real tokenizers use
//! and that can be reproduced exactly, with per-token offsets.
//!
//! `tokenizers` decodes a list of token strings by running each decoder of the chain over the
//! whole list and joining the result. Most steps act on each token alone (`Replace`, the
//! byte-level table), so their effect is computed once per id when the vocabulary loads; the rest
//! depend on neighbours (`ByteFallback` runs, `Metaspace`'s first token, `Strip` after `Fuse`) and
//! run at decode time (`decode.rs`). Only these shapes are accepted:
//!
//! - `ByteLevel` alone (GPT-2, Qwen, Llama 3, DeepSeek);
//! - `Metaspace` alone (T5-style SentencePiece conversions);
//! - `Replace*`, then optionally `ByteFallback`, then optionally `Fuse`, then optionally one
//!   `Strip` (after `Fuse`): the Llama 2 / Mistral / Gemma chain
//!   `Sequence[Replace("▁", " "), ByteFallback, Fuse, Strip(" ", 1, 0)]`.
//!
//! Anything else (WordPiece, BPE suffix, CTC, regex replacements, other orders) is refused with
//! a `VocabularyError::Unsupported`, never decoded approximately.

use serde_json::Value;

use super::byte_level;
use super::vocabulary::VocabularyError;

/// Nested `Sequence` decoders deeper than this are refused (real files nest at most once).
const MAX_SEQUENCE_DEPTH: usize = 8;

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum DecoderPlan {
    /// Each token's characters stand for bytes; the concatenated bytes are decoded as UTF-8,
    /// every maximal invalid sequence becoming one U+FFFD.
    ByteLevel,
    /// SentencePiece-style text pieces.
    Pieces(PiecePlan),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PiecePlan {
    /// `(pattern, replacement)` applied in order to every token's text.
    pub replaces: Vec<(String, String)>,
    /// `Metaspace` with a prepend scheme other than `never`: in the first token of the list,
    /// every occurrence of this character is dropped instead of becoming a space.
    pub first_token_drops: Option<char>,
    /// `ByteFallback`: runs of consecutive `<0xHH>` tokens are decoded together as UTF-8; a run
    /// that is not valid UTF-8 gives one U+FFFD per token.
    pub byte_fallback: bool,
    /// `Strip` after `Fuse`: trims the decoded text as a whole.
    pub strip: Option<Strip>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Strip {
    pub content: char,
    /// At most this many leading `content` characters are removed...
    pub start: usize,
    /// ...and at most this many trailing ones.
    pub stop: usize,
}

impl DecoderPlan {
    pub(crate) fn from_json(decoder: Option<&Value>) -> Result<Self, VocabularyError> {
        let decoder = match decoder {
            None | Some(Value::Null) => {
                // tokenizers then joins the token strings with spaces, which no model decodes with.
                return Err(unsupported("the tokenizer has no decoder".to_string()));
            }
            Some(d) => d,
        };
        let mut steps = Vec::new();
        flatten(decoder, 0, &mut steps)?;
        match steps.as_slice() {
            [only] if kind(only) == "ByteLevel" => return Ok(DecoderPlan::ByteLevel),
            [only] if kind(only) == "Metaspace" => return metaspace(only),
            _ => {}
        }
        let mut plan = PiecePlan { replaces: Vec::new(), first_token_drops: None, byte_fallback: false, strip: None };
        // Position in the accepted order Replace* -> ByteFallback? -> Fuse? -> Strip?
        let mut stage = 0;
        let mut fused = false;
        for step in &steps {
            let k = kind(step);
            let next = match k {
                "Replace" => 0,
                "ByteFallback" => 1,
                "Fuse" => 2,
                "Strip" => 3,
                "ByteLevel" | "Metaspace" => {
                    return Err(unsupported(format!("a {k} decoder combined with other decoders")));
                }
                other => return Err(unsupported(format!("the {other} decoder"))),
            };
            if next < stage || (next == stage && next != 0) {
                return Err(unsupported(format!(
                    "decoder order {} (expected Replace*, ByteFallback, Fuse, Strip)",
                    steps.iter().map(|s| kind(s)).collect::<Vec<_>>().join(", ")
                )));
            }
            stage = next;
            match k {
                "Replace" => plan.replaces.push(replace(step)?),
                "ByteFallback" => plan.byte_fallback = true,
                "Fuse" => fused = true,
                _ => {
                    if !fused {
                        // Without Fuse, Strip trims every token separately.
                        return Err(unsupported("a Strip decoder that is not preceded by Fuse".into()));
                    }
                    plan.strip = Some(strip(step)?);
                }
            }
        }
        Ok(DecoderPlan::Pieces(plan))
    }

    /// Appends what a token contributes to decoded text before the steps that depend on its
    /// neighbours.
    pub(crate) fn append_static(&self, token: &str, out: &mut Vec<u8>) {
        match self {
            DecoderPlan::ByteLevel => byte_level::append_piece_bytes(token, out),
            DecoderPlan::Pieces(plan) => out.extend_from_slice(plan.replace_all(token).as_bytes()),
        }
    }

    /// The byte a token stands for under `ByteFallback`, given its text after the `Replace`s.
    pub(crate) fn fallback_byte(&self, piece: &[u8]) -> Option<u8> {
        match self {
            DecoderPlan::Pieces(plan) if plan.byte_fallback => parse_byte_token(piece),
            _ => None,
        }
    }

    /// A short human description, for `repr` and error messages.
    pub(crate) fn describe(&self) -> &'static str {
        match self {
            DecoderPlan::ByteLevel => "byte-level",
            DecoderPlan::Pieces(p) if p.first_token_drops.is_some() => "metaspace",
            DecoderPlan::Pieces(p) if p.byte_fallback => "sentencepiece (byte fallback)",
            DecoderPlan::Pieces(_) => "sentencepiece",
        }
    }
}

impl PiecePlan {
    pub(crate) fn replace_all(&self, token: &str) -> String {
        let mut text = token.to_string();
        for (pattern, with) in &self.replaces {
            if text.contains(pattern.as_str()) {
                text = text.replace(pattern.as_str(), with);
            }
        }
        text
    }
}

/// `tokenizers`' test for a byte-fallback token: exactly six bytes `<0x`, two characters that
/// `u8::from_str_radix(_, 16)` accepts (so `0A`, `0a`, and even `+A`), then `>`.
fn parse_byte_token(piece: &[u8]) -> Option<u8> {
    if piece.len() != 6 || !piece.starts_with(b"<0x") || piece[5] != b'>' {
        return None;
    }
    let digits = std::str::from_utf8(&piece[3..5]).ok()?;
    u8::from_str_radix(digits, 16).ok()
}

fn unsupported(what: String) -> VocabularyError {
    VocabularyError::Unsupported(format!("{what} cannot be decoded exactly"))
}

fn kind(step: &Value) -> &str {
    step.get("type").and_then(Value::as_str).unwrap_or("<untyped>")
}

fn flatten<'a>(step: &'a Value, depth: usize, out: &mut Vec<&'a Value>) -> Result<(), VocabularyError> {
    if kind(step) != "Sequence" {
        out.push(step);
        return Ok(());
    }
    if depth >= MAX_SEQUENCE_DEPTH {
        return Err(unsupported(format!("decoder Sequences nested over {MAX_SEQUENCE_DEPTH} deep")));
    }
    let inner = step
        .get("decoders")
        .and_then(Value::as_array)
        .ok_or_else(|| VocabularyError::Json("decoder Sequence without a `decoders` list".into()))?;
    for s in inner {
        flatten(s, depth + 1, out)?;
    }
    Ok(())
}

fn single_char(step: &Value, field: &str) -> Result<char, VocabularyError> {
    let text = step
        .get(field)
        .and_then(Value::as_str)
        .ok_or_else(|| VocabularyError::Json(format!("{} decoder without a string `{field}`", kind(step))))?;
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Ok(c),
        _ => Err(unsupported(format!("a {} decoder with {field} {text:?} (not one character)", kind(step)))),
    }
}

fn metaspace(step: &Value) -> Result<DecoderPlan, VocabularyError> {
    let replacement = single_char(step, "replacement")?;
    // Newer files say `prepend_scheme`; older ones `add_prefix_space` (true = always).
    let drops_first = match step.get("prepend_scheme").and_then(Value::as_str) {
        Some("always") | Some("first") => true,
        Some("never") => false,
        Some(other) => return Err(unsupported(format!("Metaspace prepend_scheme {other:?}"))),
        None => step.get("add_prefix_space").and_then(Value::as_bool).unwrap_or(true),
    };
    Ok(DecoderPlan::Pieces(PiecePlan {
        replaces: vec![(replacement.to_string(), " ".to_string())],
        first_token_drops: drops_first.then_some(replacement),
        byte_fallback: false,
        strip: None,
    }))
}

fn replace(step: &Value) -> Result<(String, String), VocabularyError> {
    let pattern = step.get("pattern");
    let literal = pattern.and_then(|p| p.get("String")).and_then(Value::as_str);
    let with = step.get("content").and_then(Value::as_str);
    match (literal, with) {
        (Some(p), Some(w)) if !p.is_empty() => Ok((p.to_string(), w.to_string())),
        (Some(_), Some(_)) => Err(unsupported("a Replace decoder with an empty pattern".into())),
        _ if pattern.and_then(|p| p.get("Regex")).is_some() => {
            Err(unsupported("a Replace decoder with a regex pattern".into()))
        }
        _ => Err(VocabularyError::Json("Replace decoder without a string pattern and content".into())),
    }
}

fn strip(step: &Value) -> Result<Strip, VocabularyError> {
    let count = |field: &str| {
        step.get(field)
            .and_then(Value::as_u64)
            .and_then(|n| usize::try_from(n).ok())
            .ok_or_else(|| VocabularyError::Json(format!("Strip decoder without a count `{field}`")))
    };
    Ok(Strip { content: single_char(step, "content")?, start: count("start")?, stop: count("stop")? })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn plan(v: Value) -> Result<DecoderPlan, VocabularyError> {
        DecoderPlan::from_json(Some(&v))
    }

    #[test]
    fn recognises_the_common_decoders() {
        assert_eq!(plan(json!({"type": "ByteLevel", "add_prefix_space": true})), Ok(DecoderPlan::ByteLevel));
        assert_eq!(plan(json!({"type": "Sequence", "decoders": [{"type": "ByteLevel"}]})), Ok(DecoderPlan::ByteLevel));
        let llama = plan(json!({"type": "Sequence", "decoders": [
            {"type": "Replace", "pattern": {"String": "▁"}, "content": " "},
            {"type": "ByteFallback"}, {"type": "Fuse"},
            {"type": "Strip", "content": " ", "start": 1, "stop": 0}]}))
        .unwrap();
        assert_eq!(
            llama,
            DecoderPlan::Pieces(PiecePlan {
                replaces: vec![("▁".into(), " ".into())],
                first_token_drops: None,
                byte_fallback: true,
                strip: Some(Strip { content: ' ', start: 1, stop: 0 }),
            })
        );
        for (decoder, drops) in [
            (json!({"type": "Metaspace", "replacement": "▁", "prepend_scheme": "first", "split": true}), true),
            (json!({"type": "Metaspace", "replacement": "▁", "add_prefix_space": true}), true),
            (json!({"type": "Metaspace", "replacement": "▁"}), true),
            (
                json!({"type": "Metaspace", "replacement": "▁", "add_prefix_space": true, "prepend_scheme": "never"}),
                false,
            ),
        ] {
            let DecoderPlan::Pieces(p) = plan(decoder.clone()).unwrap() else { panic!("{decoder}") };
            assert_eq!(p.first_token_drops, drops.then_some('▁'), "{decoder}");
        }
    }

    #[test]
    fn refuses_what_it_cannot_reproduce() {
        for decoder in [
            json!(null),
            json!({"type": "WordPiece", "prefix": "##", "cleanup": true}),
            json!({"type": "BPEDecoder", "suffix": "</w>"}),
            json!({"type": "CTC"}),
            json!({"type": "Replace", "pattern": {"Regex": "▁+"}, "content": " "}),
            json!({"type": "Sequence", "decoders": [{"type": "ByteFallback"}, {"type": "Replace", "pattern": {"String": "▁"}, "content": " "}]}),
            json!({"type": "Sequence", "decoders": [{"type": "Strip", "content": " ", "start": 1, "stop": 0}]}),
            json!({"type": "Sequence", "decoders": [{"type": "ByteLevel"}, {"type": "Fuse"}]}),
            json!({"type": "Sequence", "decoders": [{"type": "Fuse"}, {"type": "Strip", "content": " ", "start": 1, "stop": 0}, {"type": "Strip", "content": " ", "start": 1, "stop": 0}]}),
            json!({"type": "Metaspace", "replacement": "ab"}),
        ] {
            assert!(matches!(plan(decoder.clone()), Err(VocabularyError::Unsupported(_))), "{decoder}");
        }
        let mut deep = json!({"type": "Fuse"});
        for _ in 0..10 {
            deep = json!({"type": "Sequence", "decoders": [deep]});
        }
        assert!(plan(deep).is_err());
    }

    #[test]
    fn byte_tokens_follow_from_str_radix() {
        assert_eq!(parse_byte_token(b"<0x0A>"), Some(0x0A));
        assert_eq!(parse_byte_token(b"<0xfe>"), Some(0xFE));
        assert_eq!(parse_byte_token(b"<0x+A>"), Some(0x0A));
        assert_eq!(parse_byte_token(b"<0xG0>"), None);
        assert_eq!(parse_byte_token(b"<0x0A"), None);
        assert_eq!(parse_byte_token("<0xé>".as_bytes()), None);
        assert_eq!(parse_byte_token(b"<0x0AB>"), None);
    }
}
