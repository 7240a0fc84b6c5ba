//! The parts of a Hugging Face `tokenizer.json` that decoding needs, read in one pass.
//!
//! The file is large (7 MB for Qwen2: 151k vocabulary entries and 151k merges), so the model
//! vocabulary is streamed straight into one flat byte buffer (no allocation per entry), and the
//! sections decoding does not use (`merges`, `pre_tokenizer`, `post_processor`, ...) are only
//! scanned, never built into values. The small `decoder` and `normalizer` sections are kept as
//! JSON values and interpreted by `plan`.

use std::fmt;

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};

#[derive(Deserialize)]
pub(crate) struct TokenizerFile {
    #[serde(default)]
    pub added_tokens: Vec<AddedTokenEntry>,
    #[serde(default)]
    pub normalizer: Option<serde_json::Value>,
    #[serde(default)]
    pub decoder: Option<serde_json::Value>,
    pub model: ModelSection,
}

/// One entry of `added_tokens`. `tokenizers` itself refuses entries without these fields.
#[derive(Deserialize)]
pub(crate) struct AddedTokenEntry {
    pub id: u32,
    pub content: String,
    pub special: bool,
    pub normalized: bool,
}

#[derive(Deserialize)]
pub(crate) struct ModelSection {
    #[serde(rename = "type", default)]
    pub kind: Option<String>,
    pub vocab: VocabTable,
    /// Only whether it is present: `tokenizers` reads a model without `type` as BPE when it has
    /// merges.
    #[serde(default)]
    pub merges: Option<IgnoredAny>,
}

/// The model vocabulary: every piece's text in one buffer, with its id.
pub(crate) struct VocabTable {
    pub text: Vec<u8>,
    /// (start, end, id) of each entry in `text`, in file order.
    pub entries: Vec<(u32, u32, u32)>,
    /// `true` for a Unigram-style list of `[piece, score]` (id = position), `false` for a
    /// `{piece: id}` map (BPE, WordLevel).
    pub is_list: bool,
}

impl<'de> Deserialize<'de> for VocabTable {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(VocabVisitor)
    }
}

struct VocabVisitor;

impl<'de> Visitor<'de> for VocabVisitor {
    type Value = VocabTable;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a vocabulary: a map of piece to id, or a list of [piece, score]")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<VocabTable, A::Error> {
        let mut table = VocabTable { text: Vec::new(), entries: Vec::new(), is_list: false };
        while let Some((start, end)) = map.next_key_seed(AppendStr(&mut table.text))? {
            let id: u32 = map.next_value()?;
            table.entries.push((start, end, id));
        }
        Ok(table)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<VocabTable, A::Error> {
        let mut table = VocabTable { text: Vec::new(), entries: Vec::new(), is_list: true };
        while let Some((start, end)) = seq.next_element_seed(UnigramEntry(&mut table.text))? {
            let id = u32::try_from(table.entries.len())
                .map_err(|_| de::Error::custom("vocabulary has more than 2^32 entries"))?;
            table.entries.push((start, end, id));
        }
        Ok(table)
    }
}

/// Appends a JSON string to the buffer and yields its (start, end) there.
struct AppendStr<'a>(&'a mut Vec<u8>);

impl AppendStr<'_> {
    fn push<E: de::Error>(self, s: &str) -> Result<(u32, u32), E> {
        let start = self.0.len();
        self.0.extend_from_slice(s.as_bytes());
        match (u32::try_from(start), u32::try_from(self.0.len())) {
            (Ok(a), Ok(b)) => Ok((a, b)),
            _ => Err(E::custom("vocabulary text exceeds 4 GiB")),
        }
    }
}

impl<'de> DeserializeSeed<'de> for AppendStr<'_> {
    type Value = (u32, u32);

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(u32, u32), D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for AppendStr<'_> {
    type Value = (u32, u32);

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a vocabulary piece (string)")
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<(u32, u32), E> {
        self.push(s)
    }
}

/// One `[piece, score]` element of a Unigram vocabulary; the score is not needed to decode.
struct UnigramEntry<'a>(&'a mut Vec<u8>);

impl<'de> DeserializeSeed<'de> for UnigramEntry<'_> {
    type Value = (u32, u32);

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(u32, u32), D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for UnigramEntry<'_> {
    type Value = (u32, u32);

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a [piece, score] pair")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(u32, u32), A::Error> {
        let span = seq
            .next_element_seed(AppendStr(self.0))?
            .ok_or_else(|| de::Error::invalid_length(0, &"a [piece, score] pair"))?;
        // The score, and anything after it.
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(span)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_map_and_list_vocabularies_with_escapes() {
        let file: TokenizerFile = serde_json::from_str(
            r#"{"model": {"type": "BPE", "vocab": {"a": 0, "\u0120b\"": 1}, "merges": [["a", "b"]]},
                "ignored": {"deep": [1, 2, {"x": null}]}}"#,
        )
        .unwrap();
        let v = &file.model.vocab;
        assert!(!v.is_list);
        let pieces: Vec<(&[u8], u32)> =
            v.entries.iter().map(|&(s, e, id)| (&v.text[s as usize..e as usize], id)).collect();
        assert_eq!(pieces, vec![(&b"a"[..], 0), ("Ġb\"".as_bytes(), 1)]);
        assert!(file.model.merges.is_some());
        assert!(file.added_tokens.is_empty() && file.decoder.is_none());

        let file: TokenizerFile = serde_json::from_str(
            r#"{"model": {"type": "Unigram", "unk_id": 0, "vocab": [["<unk>", 0.0], ["▁x", -1.5]]}}"#,
        )
        .unwrap();
        let v = &file.model.vocab;
        assert!(v.is_list);
        assert_eq!(v.entries, vec![(0, 5, 0), (5, 9, 1)]);
    }

    #[test]
    fn rejects_malformed_vocabularies() {
        for bad in [
            r#"{"model": {"type": "BPE", "vocab": {"a": -1}}}"#,
            r#"{"model": {"type": "BPE", "vocab": {"a": "x"}}}"#,
            r#"{"model": {"type": "Unigram", "vocab": [[]]}}"#,
            r#"{"model": {"type": "Unigram", "vocab": [[3, 0.0]]}}"#,
            r#"{"model": {"type": "BPE", "vocab": 7}}"#,
            r#"{"model": {"type": "BPE"}}"#,
            r#"{"added_tokens": [{"id": 1, "content": "x"}], "model": {"vocab": {}}}"#,
            "[1, 2",
        ] {
            assert!(serde_json::from_str::<TokenizerFile>(bad).is_err(), "{bad}");
        }
    }
}
