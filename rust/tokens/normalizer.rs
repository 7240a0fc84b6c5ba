//! The decode-time text of added tokens marked `normalized: true`.
//!
//! `tokenizers` (0.22+) decodes such an added token from its *normalized* content (the form it
//! matched in normalized input), not from its raw content: with a `Lowercase` normalizer, added
//! token `ABC` decodes as `abc`. Only the normalizers that are plain string maps are reproduced
//! here; for any other normalizer such a token makes the vocabulary `Unsupported` (tokens with
//! `normalized: false`, which covers the special tokens of every common model, never need this).

use serde_json::Value;

use super::vocabulary::VocabularyError;

const MAX_SEQUENCE_DEPTH: usize = 8;

/// `content` as the tokenizer's normalizer (`None`: none) rewrites it.
pub(crate) fn normalize_added(content: &str, normalizer: Option<&Value>) -> Result<String, VocabularyError> {
    match normalizer {
        None | Some(Value::Null) => Ok(content.to_string()),
        Some(n) => apply(n, content.to_string(), 0),
    }
}

fn apply(normalizer: &Value, text: String, depth: usize) -> Result<String, VocabularyError> {
    let kind = normalizer.get("type").and_then(Value::as_str).unwrap_or("<untyped>");
    let refuse = || {
        VocabularyError::Unsupported(format!(
            "added token {text:?} is marked normalized, and its decoded form depends on the \
             {kind} normalizer, which cannot be reproduced exactly"
        ))
    };
    let field = |name: &str| normalizer.get(name).and_then(Value::as_str);
    match kind {
        "Sequence" if depth < MAX_SEQUENCE_DEPTH => {
            let steps = normalizer
                .get("normalizers")
                .and_then(Value::as_array)
                .ok_or_else(|| VocabularyError::Json("normalizer Sequence without a `normalizers` list".into()))?;
            steps.iter().try_fold(text, |t, step| apply(step, t, depth + 1))
        }
        // Character-wise, as tokenizers does (no final-sigma rule).
        "Lowercase" => Ok(text.chars().flat_map(char::to_lowercase).collect()),
        "Prepend" => match field("prepend") {
            // tokenizers prepends only to non-empty text.
            Some(_) if text.is_empty() => Ok(text),
            Some(p) => Ok(format!("{p}{text}")),
            None => Err(VocabularyError::Json("Prepend normalizer without `prepend`".into())),
        },
        "Replace" => {
            match (normalizer.get("pattern").and_then(|p| p.get("String")).and_then(Value::as_str), field("content")) {
                (Some(p), Some(with)) if !p.is_empty() => Ok(text.replace(p, with)),
                _ => Err(refuse()),
            }
        }
        "Strip" => {
            let flag = |name: &str| normalizer.get(name).and_then(Value::as_bool).unwrap_or(false);
            let t = if flag("strip_left") { text.trim_start() } else { text.as_str() };
            let t = if flag("strip_right") { t.trim_end() } else { t };
            Ok(t.to_string())
        }
        // Unicode normalization leaves ASCII unchanged; other text would need the tables.
        "NFC" | "NFD" | "NFKC" | "NFKD" if text.is_ascii() => Ok(text),
        _ => Err(refuse()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn applies_string_normalizers_in_order() {
        let llama = json!({"type": "Sequence", "normalizers": [
            {"type": "Prepend", "prepend": "▁"},
            {"type": "Replace", "pattern": {"String": " "}, "content": "▁"}]});
        assert_eq!(normalize_added("a b", Some(&llama)).unwrap(), "▁a▁b");
        assert_eq!(normalize_added("ΑΣ", Some(&json!({"type": "Lowercase"}))).unwrap(), "ασ");
        assert_eq!(normalize_added("<x>", Some(&json!({"type": "NFKC"}))).unwrap(), "<x>");
        let strip = json!({"type": "Strip", "strip_left": true, "strip_right": false});
        assert_eq!(normalize_added("  x ", Some(&strip)).unwrap(), "x ");
        assert_eq!(normalize_added("X", None).unwrap(), "X");
    }

    #[test]
    fn refuses_normalizers_it_cannot_reproduce() {
        for n in [
            json!({"type": "NFKC"}),
            json!({"type": "Precompiled", "precompiled_charsmap": "AAAA"}),
            json!({"type": "BertNormalizer"}),
            json!({"type": "Replace", "pattern": {"Regex": " +"}, "content": " "}),
        ] {
            assert!(matches!(normalize_added("ｘ", Some(&n)), Err(VocabularyError::Unsupported(_))), "{n}");
        }
    }
}
