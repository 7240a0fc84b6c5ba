//! Text -> token ids with the policy's own `tokenizer.json`, natively, for the byte-level BPE
//! tokenizers of Qwen2 / DeepSeek-R1-Distill-Qwen, Llama 3 and DeepSeek-V3 / R1 / V4.
//!
//! The text path counts lengths in tokens by encoding the response; through HF `tokenizers`
//! that costs ~1.4 µs per token (~5 ms for an average reasoning trace), a hundred times the
//! rest of the reward. [`Encoder`] does what `tokenizers`' `encode(text,
//! add_special_tokens=False)` does for these files, step for step:
//!
//! 1. added tokens (`<think>`, `</think>`, `<|im_end|>`, ...) are cut out first, leftmost-longest:
//!    those the file marks `normalized: false`, then in what is left the others;
//! 2. each stretch between them is split by the file's `Split` pattern, or DeepSeek-V3's three
//!    in a row ([`super::pretokenize`]);
//! 3. each piece's bytes are merged by byte-level BPE ([`super::bpe`]).
//!
//! GPT-2's `ByteLevel` pre-tokenizer with its own regex is reproduced too. A file this module
//! cannot reproduce exactly (another pre-tokenizer or pattern, a normalizer other than NFC
//! (an empty normalizer sequence, as DeepSeek-V3's, is none),
//! added tokens that strip white space or match single words, a post-processor that trims
//! offsets, dropout, truncation or padding) is refused with [`VocabularyError::Unsupported`], so the caller can
//! fall back to `tokenizers`. NFC is a no-op on text already in NFC, which the caller checks
//! ([`Encoder::needs_nfc`]); this module does not normalize.

use std::collections::HashMap;
use std::ops::Range;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use serde::Deserialize;
use serde_json::Value;

use super::bpe::{BytePairs, MergeTable, WordToken};
use super::byte_level::{byte_to_char, char_to_byte};
use super::pretokenize::{classes_available, SplitPattern};
use super::vocabulary::AddedTokenNumbering;
use super::VocabularyError;

/// The tokens of a text: ids, and where each ends in the text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Encoding {
    pub ids: Vec<u32>,
    /// Byte offset in the text where each token ends, ascending. A token holding only the first
    /// bytes of a character ends where that character starts (the character belongs to the
    /// token holding its last byte, as in [`super::Decoded`]).
    pub ends: Vec<usize>,
}

/// A text encoder for one `tokenizer.json`. Immutable, `Send + Sync`.
#[derive(Debug)]
pub struct Encoder {
    pattern: SplitPattern,
    pairs: BytePairs,
    /// Added tokens matched on the text as given, then those matched after normalization
    /// (which is the identity on the NFC text this encoder takes).
    raw_added: Option<AddedTokens>,
    normalized_added: Option<AddedTokens>,
    needs_nfc: bool,
}

impl Encoder {
    /// Reads a Hugging Face `tokenizer.json` (the text of the file).
    pub fn from_tokenizer_json(json: &str) -> Result<Encoder, VocabularyError> {
        let file: EncoderFile = serde_json::from_str(json).map_err(|e| VocabularyError::Json(e.to_string()))?;
        let unsupported = |m: String| Err(VocabularyError::Unsupported(m));
        if !file.truncation.is_null() || !file.padding.is_null() {
            return unsupported("truncation or padding is set: encode with tokenizers".into());
        }
        let Some(needs_nfc) = nfc_or_nothing(&file.normalizer) else {
            return unsupported(format!("normalizer {} (only NFC or none is reproduced)", describe(&file.normalizer)));
        };
        let pattern = split_pattern(&file.pre_tokenizer)?;
        if !keeps_offsets(&file.post_processor) {
            return unsupported(format!(
                "post-processor {} trims offsets (only none, TemplateProcessing or ByteLevel without trim_offsets)",
                describe(&file.post_processor)
            ));
        }
        if !classes_available() {
            return unsupported("Unicode class tables are missing from this build".into());
        }
        let model = &file.model;
        if model.kind.as_deref().is_some_and(|k| k != "BPE") {
            return unsupported(format!("model type {:?} (only byte-level BPE is encoded natively)", model.kind));
        }
        if model.dropout.is_some_and(|d| d > 0.0) {
            return unsupported("BPE dropout (random merges)".into());
        }
        if model.continuing_subword_prefix.as_deref().is_some_and(|p| !p.is_empty())
            || model.end_of_word_suffix.as_deref().is_some_and(|s| !s.is_empty())
        {
            return unsupported("subword prefix or suffix".into());
        }
        let mut byte_ids = [0u32; 256];
        for (b, id) in byte_ids.iter_mut().enumerate() {
            let piece = byte_to_char(b as u8).to_string();
            *id = *model.vocab.get(&piece).ok_or_else(|| {
                VocabularyError::Unsupported(format!("byte {b:#04x} has no piece: not a byte-level vocabulary"))
            })?;
        }
        let merges = merge_table(model)?;
        let whole_words = model.ignore_merges.then(|| {
            model
                .vocab
                .iter()
                .filter_map(|(piece, &id)| piece_bytes(piece).map(|bytes| (bytes.into_boxed_slice(), id)))
                .collect()
        });
        let mut added_contents: Vec<&str> = Vec::new();
        let mut added_ids = Vec::new();
        let mut added_normalized = Vec::new();
        let mut numbering = AddedTokenNumbering::new(model.vocab.len())?;
        for entry in &file.added_tokens {
            if entry.single_word || entry.lstrip || entry.rstrip {
                return unsupported(format!(
                    "added token {:?} strips white space or matches single words only",
                    entry.content
                ));
            }
            if numbering.check(&entry.content, entry.id, model.vocab.get(&entry.content).copied())? {
                added_contents.push(&entry.content);
                added_ids.push(entry.id);
                added_normalized.push(entry.normalized);
            }
        }
        let matcher = |normalized: bool| {
            let (contents, ids): (Vec<&str>, Vec<u32>) = (0..added_contents.len())
                .filter(|&i| added_normalized[i] == normalized)
                .map(|i| (added_contents[i], added_ids[i]))
                .unzip();
            AddedTokens::new(&contents, ids)
        };
        Ok(Encoder {
            pattern,
            pairs: BytePairs::new(byte_ids, merges, whole_words),
            raw_added: matcher(false),
            normalized_added: matcher(true),
            needs_nfc,
        })
    }

    /// Whether the file normalizes to NFC: then text must already be in NFC for [`Self::encode`]
    /// to equal `tokenizers` (the caller checks it; NFC changes nothing then).
    pub fn needs_nfc(&self) -> bool {
        self.needs_nfc
    }

    /// The tokens of `text`, as `tokenizers`' `encode(text, add_special_tokens=False)`.
    pub fn encode(&self, text: &str) -> Encoding {
        let mut out = Encoding { ids: Vec::with_capacity(text.len() / 3), ends: Vec::with_capacity(text.len() / 3) };
        let mut pieces = Vec::new();
        let mut word = Vec::new();
        let mut plain = |stretch: Range<usize>, out: &mut Encoding| {
            AddedTokens::split(self.normalized_added.as_ref(), text, stretch, out, &mut |stretch, out| {
                self.encode_stretch(text, stretch, &mut pieces, &mut word, out)
            })
        };
        AddedTokens::split(self.raw_added.as_ref(), text, 0..text.len(), &mut out, &mut plain);
        for end in &mut out.ends {
            while !text.is_char_boundary(*end) {
                *end -= 1;
            }
        }
        out
    }

    /// Encodes `text[stretch]`, a stretch without added tokens.
    fn encode_stretch(
        &self,
        text: &str,
        stretch: Range<usize>,
        pieces: &mut Vec<Range<usize>>,
        word: &mut Vec<WordToken>,
        out: &mut Encoding,
    ) {
        if stretch.is_empty() {
            return;
        }
        pieces.clear();
        self.pattern.split(&text[stretch.clone()], pieces);
        for piece in pieces.iter() {
            let start = stretch.start + piece.start;
            word.clear();
            self.pairs.encode_word(&text.as_bytes()[start..stretch.start + piece.end], word);
            let mut end = start;
            for &(id, len) in word.iter() {
                end += len as usize;
                out.ids.push(id);
                out.ends.push(end);
            }
        }
    }
}

/// One pass of added-token matching: contents found leftmost-longest, as `tokenizers`'
/// `AddedVocabulary` finds them.
#[derive(Debug)]
struct AddedTokens {
    automaton: AhoCorasick,
    /// The id of each pattern of `automaton`.
    ids: Vec<u32>,
}

impl AddedTokens {
    fn new(contents: &[&str], ids: Vec<u32>) -> Option<AddedTokens> {
        (!contents.is_empty()).then(|| AddedTokens {
            automaton: AhoCorasickBuilder::new().match_kind(MatchKind::LeftmostLongest).build(contents),
            ids,
        })
    }

    /// Appends the added tokens found in `text[stretch]` to `out`, and hands each stretch
    /// between them (empty ones included) to `between`.
    fn split(
        tokens: Option<&AddedTokens>,
        text: &str,
        stretch: Range<usize>,
        out: &mut Encoding,
        between: &mut dyn FnMut(Range<usize>, &mut Encoding),
    ) {
        let mut at = stretch.start;
        if let Some(tokens) = tokens {
            for m in tokens.automaton.find_iter(&text[stretch.clone()]) {
                between(at..stretch.start + m.start(), out);
                out.ids.push(tokens.ids[m.pattern()]);
                out.ends.push(stretch.start + m.end());
                at = stretch.start + m.end();
            }
        }
        between(at..stretch.end, out);
    }
}

/// Whether the post-processor leaves token offsets as the tokens' bytes give them: none,
/// `TemplateProcessing` (which adds nothing without special tokens), `ByteLevel` with
/// `trim_offsets: false`, or a sequence of those. A trimming one moves white space out of the
/// tokens' spans.
fn keeps_offsets(post: &Value) -> bool {
    match post.get("type").and_then(Value::as_str) {
        None => post.is_null(),
        Some("TemplateProcessing") => true,
        Some("ByteLevel") => post.get("trim_offsets") == Some(&Value::Bool(false)),
        Some("Sequence") => {
            post.get("processors").and_then(Value::as_array).is_some_and(|steps| steps.iter().all(keeps_offsets))
        }
        Some(_) => false,
    }
}

/// Whether the normalizer is NFC (`Some(true)`) or does nothing (`Some(false)`: none, or an
/// empty `Sequence` as DeepSeek-V3's file has); `None` for any other.
fn nfc_or_nothing(normalizer: &Value) -> Option<bool> {
    match normalizer.get("type").and_then(Value::as_str) {
        None => normalizer.is_null().then_some(false),
        Some("NFC") => Some(true),
        Some("Sequence") => {
            let steps = normalizer.get("normalizers").and_then(Value::as_array)?;
            let mut nfc = false;
            for step in steps {
                // NFC twice is NFC once.
                nfc |= nfc_or_nothing(step)?;
            }
            Some(nfc)
        }
        Some(_) => None,
    }
}

fn describe(v: &Value) -> String {
    v.get("type").and_then(Value::as_str).map_or_else(|| v.to_string(), str::to_owned)
}

/// The pattern of a `Sequence[Split(pattern, Isolated)..., ByteLevel(no prefix space, no
/// regex)]` pre-tokenizer (one known pattern, or DeepSeek-V3's three), or GPT-2's for a
/// `ByteLevel(no prefix space, regex)` alone.
fn split_pattern(pre: &Value) -> Result<SplitPattern, VocabularyError> {
    let unsupported = |why: &str| VocabularyError::Unsupported(format!("pre-tokenizer: {why}"));
    let field = |v: &Value, k: &str| v.get(k).cloned().unwrap_or(Value::Null);
    if field(pre, "type") == "ByteLevel" {
        if field(pre, "add_prefix_space") == Value::Bool(false) && field(pre, "use_regex") == Value::Bool(true) {
            return Ok(SplitPattern::Gpt2);
        }
        return Err(unsupported("ByteLevel with a prefix space or without its regex"));
    }
    if pre.get("type").and_then(Value::as_str) != Some("Sequence") {
        return Err(unsupported(&format!(
            "{} (only Split + ByteLevel, or ByteLevel alone, is reproduced)",
            describe(pre)
        )));
    }
    let steps = pre.get("pretokenizers").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    let Some((byte_level, splits)) = steps.split_last().filter(|(_, splits)| !splits.is_empty()) else {
        return Err(unsupported("a sequence of other than Split... + ByteLevel"));
    };
    let mut regexes = Vec::with_capacity(splits.len());
    for split in splits {
        let is_split = field(split, "type") == "Split"
            && field(split, "behavior") == "Isolated"
            && field(split, "invert") == Value::Bool(false);
        match split.get("pattern").and_then(|p| p.get("Regex")).and_then(Value::as_str) {
            Some(regex) if is_split => regexes.push(regex),
            _ => return Err(unsupported("a step before ByteLevel is not an isolating Split by regex")),
        }
    }
    let pattern = SplitPattern::from_regexes(&regexes).ok_or_else(|| unsupported("an unknown Split pattern"))?;
    if field(byte_level, "type") != "ByteLevel"
        || field(byte_level, "add_prefix_space") != Value::Bool(false)
        || field(byte_level, "use_regex") != Value::Bool(false)
    {
        return Err(unsupported("the last step is not ByteLevel without prefix space and regex"));
    }
    Ok(pattern)
}

/// The bytes a byte-level piece spells, `None` if a character is outside the byte table.
fn piece_bytes(piece: &str) -> Option<Vec<u8>> {
    piece.chars().map(char_to_byte).collect()
}

/// (left id, right id) -> (rank, merged id), as `tokenizers` builds it (a later duplicate
/// overrides an earlier one).
fn merge_table(model: &ModelSection) -> Result<MergeTable, VocabularyError> {
    let id = |piece: &str| {
        model
            .vocab
            .get(piece)
            .copied()
            .ok_or_else(|| VocabularyError::Inconsistent(format!("merge piece {piece:?} is not in the vocabulary")))
    };
    let mut table = MergeTable::default();
    table.reserve(model.merges.len());
    for (rank, merge) in model.merges.iter().enumerate() {
        let (a, b) = match merge {
            Merge::Pair(a, b) => (a.as_str(), b.as_str()),
            Merge::Line(line) => line
                .split_once(' ')
                .filter(|(_, b)| !b.contains(' '))
                .ok_or_else(|| VocabularyError::Inconsistent(format!("merge {line:?} is not two pieces")))?,
        };
        let merged = id(&format!("{a}{b}"))?;
        let rank = u32::try_from(rank).map_err(|_| VocabularyError::Unsupported("over 2^32 merges".into()))?;
        table.insert((id(a)?, id(b)?), (rank, merged));
    }
    Ok(table)
}

#[derive(Deserialize)]
struct EncoderFile {
    #[serde(default)]
    added_tokens: Vec<AddedToken>,
    #[serde(default)]
    normalizer: Value,
    #[serde(default)]
    pre_tokenizer: Value,
    #[serde(default)]
    post_processor: Value,
    #[serde(default)]
    truncation: Value,
    #[serde(default)]
    padding: Value,
    model: ModelSection,
}

#[derive(Deserialize)]
struct AddedToken {
    id: u32,
    content: String,
    #[serde(default)]
    normalized: bool,
    #[serde(default)]
    single_word: bool,
    #[serde(default)]
    lstrip: bool,
    #[serde(default)]
    rstrip: bool,
}

#[derive(Deserialize)]
struct ModelSection {
    #[serde(rename = "type", default)]
    kind: Option<String>,
    vocab: HashMap<String, u32>,
    merges: Vec<Merge>,
    #[serde(default)]
    dropout: Option<f64>,
    #[serde(default)]
    continuing_subword_prefix: Option<String>,
    #[serde(default)]
    end_of_word_suffix: Option<String>,
    #[serde(default)]
    ignore_merges: bool,
}

/// A merge as `"a b"` (older files) or `["a", "b"]` (tokenizers >= 0.20).
#[derive(Deserialize)]
#[serde(untagged)]
enum Merge {
    Line(String),
    Pair(String, String),
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::pretokenize::QWEN2_PATTERN;
    use super::*;

    const THINK: u32 = 260;
    const END: u32 = 261;

    /// Bytes are ids 0..256 (spelled as byte-level pieces), then "Ġt" 256, "he" 257, "Ġthe" 258,
    /// "²" (C2 B2) 259; added `<think>` and `<|end|>`.
    fn file(change: impl FnOnce(&mut Value)) -> String {
        let mut vocab = serde_json::Map::new();
        for b in 0..=255u8 {
            vocab.insert(byte_to_char(b).to_string(), json!(b));
        }
        for (piece, id) in [("Ġt", 256), ("he", 257), ("Ġthe", 258), ("Â²", 259)] {
            vocab.insert(piece.into(), json!(id));
        }
        let added = |id: u32, content: &str| {
            json!({"id": id, "content": content, "single_word": false, "lstrip": false, "rstrip": false,
                   "normalized": false, "special": true})
        };
        let mut v = json!({
            "version": "1.0", "truncation": null, "padding": null,
            "added_tokens": [added(THINK, "<think>"), added(END, "<|end|>")],
            "normalizer": {"type": "NFC"},
            "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
                {"type": "Split", "pattern": {"Regex": QWEN2_PATTERN}, "behavior": "Isolated", "invert": false},
                {"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": false, "use_regex": false}]},
            "post_processor": null, "decoder": {"type": "ByteLevel"},
            "model": {"type": "BPE", "dropout": null, "unk_token": null, "continuing_subword_prefix": "",
                      "end_of_word_suffix": "", "fuse_unk": false, "byte_fallback": false, "ignore_merges": false,
                      "vocab": vocab, "merges": ["Ġ t", ["h", "e"], "Ġt he", "Â ²"]}
        });
        change(&mut v);
        v.to_string()
    }

    fn encoder(change: impl FnOnce(&mut Value)) -> Result<Encoder, VocabularyError> {
        Encoder::from_tokenizer_json(&file(change))
    }

    #[test]
    fn merges_added_tokens_and_ends() {
        let e = encoder(|_| {}).unwrap();
        assert!(e.needs_nfc());
        let text = "<think>x the²<|end|>";
        let got = e.encode(text);
        assert_eq!(got.ids, [THINK, u32::from(b'x'), 258, 259, END]);
        assert_eq!(got.ends, [7, 8, 12, 14, 21]);
        // A character split over two tokens belongs to the one holding its last byte.
        let got = e.encode("é");
        assert_eq!(got.ids, [0xC3, 0xA9]);
        assert_eq!(got.ends, [0, 2]);
        assert_eq!(e.encode(""), Encoding::default());
    }

    #[test]
    fn leftmost_longest_added_tokens() {
        let e = encoder(|v| {
            v["added_tokens"]
                .as_array_mut()
                .unwrap()
                .push(json!({"id": 262, "content": "<think", "single_word": false,
                "lstrip": false, "rstrip": false, "normalized": false, "special": false}));
        })
        .unwrap();
        assert_eq!(e.encode("<think>").ids, [THINK]);
        assert_eq!(e.encode("<thinks").ids, [262, u32::from(b's')]);
    }

    #[test]
    fn tokens_matched_on_the_raw_text_go_first() {
        // In one pass the normalized "x<|", found first, would win over "<|end|>"; tokenizers
        // cuts out the raw tokens first, then the normalized ones in what is left.
        let e = encoder(|v| {
            v["added_tokens"].as_array_mut().unwrap().push(json!({"id": 262, "content": "x<|", "normalized": true}));
        })
        .unwrap();
        assert_eq!(e.encode("x<|end|>").ids, [u32::from(b'x'), END]);
        assert_eq!(e.encode("x<|y").ids, [262, u32::from(b'y')]);
    }

    #[test]
    fn what_is_not_reproduced_is_refused_with_the_reason() {
        let refused = |change: fn(&mut Value), why: &str| match encoder(change) {
            Err(VocabularyError::Unsupported(m)) => assert!(m.contains(why), "{m:?} lacks {why:?}"),
            other => panic!("expected Unsupported({why}), got {other:?}"),
        };
        refused(|v| v["normalizer"] = json!({"type": "NFKC"}), "NFKC");
        refused(
            |v| v["pre_tokenizer"]["pretokenizers"][0]["pattern"]["Regex"] = json!(r"\s+"),
            "unknown Split pattern",
        );
        refused(
            |v| v["pre_tokenizer"] = json!({"type": "ByteLevel", "add_prefix_space": true, "use_regex": true}),
            "prefix space",
        );
        refused(|v| v["pre_tokenizer"] = json!({"type": "Metaspace"}), "Metaspace");
        refused(|v| v["post_processor"] = json!({"type": "ByteLevel", "trim_offsets": true}), "trims offsets");
        refused(|v| v["post_processor"] = json!({"type": "RobertaProcessing"}), "trims offsets");
        refused(|v| v["pre_tokenizer"]["pretokenizers"][1]["add_prefix_space"] = json!(true), "prefix space");
        refused(|v| v["added_tokens"][0]["lstrip"] = json!(true), "strips white space");
        refused(|v| v["truncation"] = json!({"max_length": 8}), "truncation");
        refused(|v| v["model"]["dropout"] = json!(0.1), "dropout");
        refused(|v| v["model"]["continuing_subword_prefix"] = json!("##"), "prefix");
        refused(|v| v["model"]["type"] = json!("WordPiece"), "WordPiece");
        refused(|v| drop(v["model"]["vocab"].as_object_mut().unwrap().remove("Ġ")), "byte 0x20");
        match encoder(|v| v["model"]["merges"].as_array_mut().unwrap().push(json!("x y z"))) {
            Err(VocabularyError::Inconsistent(m)) => assert!(m.contains("two pieces")),
            other => panic!("{other:?}"),
        }
        assert!(matches!(Encoder::from_tokenizer_json("{"), Err(VocabularyError::Json(_))));
    }

    #[test]
    fn post_processors_that_keep_offsets() {
        for post in [
            json!(null),
            json!({"type": "TemplateProcessing"}),
            json!({"type": "Sequence", "processors": [{"type": "ByteLevel", "trim_offsets": false}, {"type": "TemplateProcessing"}]}),
        ] {
            assert!(encoder(|v| v["post_processor"] = post.clone()).is_ok(), "{post}");
        }
    }

    #[test]
    fn deepseek_v3s_three_splits_and_normalizer_sequences() {
        use super::super::pretokenize::{DEEPSEEK_V3_CJK, DEEPSEEK_V3_NUMBERS, DEEPSEEK_V3_PATTERN};
        let split = |regex: &str| json!({"type": "Split", "pattern": {"Regex": regex}, "behavior": "Isolated", "invert": false});
        // DeepSeek-V3's file writes the pattern's CR and LF as themselves.
        let literal = DEEPSEEK_V3_PATTERN.replace(r"\r", "\r").replace(r"\n", "\n");
        let steps = json!([split(DEEPSEEK_V3_NUMBERS), split(DEEPSEEK_V3_CJK), split(&literal),
            {"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": false}]);
        let v3 = |normalizer: Value| {
            let steps = steps.clone();
            Encoder::from_tokenizer_json(&file(move |v| {
                v["pre_tokenizer"]["pretokenizers"] = steps;
                v["normalizer"] = normalizer;
            }))
        };
        let e = v3(json!({"type": "Sequence", "normalizers": []})).unwrap();
        assert!(!e.needs_nfc());
        // Numbers are cut off before the words' pattern runs: " the12" is " the", "12".
        assert_eq!(e.encode(" the12").ids, [258, u32::from(b'1'), u32::from(b'2')]);
        assert!(v3(json!({"type": "Sequence", "normalizers": [{"type": "NFC"}]})).unwrap().needs_nfc());
        assert!(matches!(
            v3(json!({"type": "Sequence", "normalizers": [{"type": "Lowercase"}]})),
            Err(VocabularyError::Unsupported(m)) if m.contains("normalizer")
        ));
        // The three splits in another order are another pre-tokenizer.
        let swapped = json!([split(DEEPSEEK_V3_CJK), split(DEEPSEEK_V3_NUMBERS), split(DEEPSEEK_V3_PATTERN),
            {"type": "ByteLevel", "add_prefix_space": false, "use_regex": false}]);
        assert!(matches!(
            encoder(move |v| v["pre_tokenizer"]["pretokenizers"] = swapped),
            Err(VocabularyError::Unsupported(m)) if m.contains("unknown Split pattern")
        ));
    }

    #[test]
    fn byte_level_alone_splits_by_gpt2s_pattern() {
        let e = encoder(|v| {
            v["pre_tokenizer"] =
                json!({"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": true})
        })
        .unwrap();
        assert_eq!(e.encode(" the12").ids, [258, u32::from(b'1'), u32::from(b'2')]);
    }

    #[test]
    fn without_a_normalizer_nfc_is_not_needed() {
        let e = encoder(|v| v["normalizer"] = Value::Null).unwrap();
        assert!(!e.needs_nfc());
    }

    #[test]
    fn ignore_merges_takes_a_whole_word_from_the_vocabulary() {
        let only_first_merge = |v: &mut Value| v["model"]["merges"] = json!(["Ġ t"]);
        let e = encoder(only_first_merge).unwrap();
        assert_eq!(e.encode(" the").ids, [256, u32::from(b'h'), u32::from(b'e')]);
        let e = encoder(|v| {
            only_first_merge(v);
            v["model"]["ignore_merges"] = json!(true);
        })
        .unwrap();
        assert_eq!(e.encode(" the").ids, [258]);
    }

    #[test]
    fn added_token_ids_follow_tokenizers_numbering() {
        match encoder(|v| v["added_tokens"][0]["id"] = json!(300)) {
            Err(VocabularyError::Inconsistent(m)) => assert!(m.contains("tokenizers gives it id 260"), "{m}"),
            other => panic!("{other:?}"),
        }
        // An added token that is a model piece keeps the piece's id.
        let e = encoder(|v| {
            v["added_tokens"].as_array_mut().unwrap().push(json!({"id": 258, "content": "Ġthe"}));
        })
        .unwrap();
        assert_eq!(e.encode("x the").ids, [u32::from(b'x'), 258]);
    }

    proptest::proptest! {
        /// Token ends ascend, lie on character boundaries and end at the text's end.
        #[test]
        fn ends_tile_the_text(text in "[a-c ²é\\n<>|thinkd'0-9中😀]{0,40}") {
            let e = encoder(|_| {}).unwrap();
            let got = e.encode(&text);
            proptest::prop_assert_eq!(got.ids.len(), got.ends.len());
            proptest::prop_assert!(got.ends.windows(2).all(|w| w[0] <= w[1]));
            proptest::prop_assert!(got.ends.iter().all(|&end| text.is_char_boundary(end)));
            proptest::prop_assert_eq!(got.ends.last().copied().unwrap_or(0), text.len());
        }
    }
}
