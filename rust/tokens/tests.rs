//! Hand-made `tokenizer.json` files for each supported shape, the expected decodes (checked
//! against `tokenizers` 0.23.3 with the same files), and property tests of the offsets.

use proptest::prelude::*;
use serde_json::{json, Value};

use super::byte_level::tests::spell;
use super::*;

fn added(id: u32, content: &str, special: bool) -> Value {
    json!({"id": id, "content": content, "single_word": false, "lstrip": false, "rstrip": false,
           "normalized": false, "special": special})
}

fn file(model: Value, added_tokens: Vec<Value>, decoder: Value, normalizer: Value) -> String {
    json!({"version": "1.0", "truncation": null, "padding": null, "added_tokens": added_tokens,
           "normalizer": normalizer, "pre_tokenizer": null, "post_processor": null,
           "decoder": decoder, "model": model})
    .to_string()
}

// ---- byte-level BPE (GPT-2 / Qwen style) --------------------------------------------------

/// Ids 0..256: the single bytes. Then merged pieces, then added tokens.
const BL_HELLO: u32 = 256; // "Ġhello"
const BL_SQUARED: u32 = 257; // "²" = C2 B2 as one token
const BL_THINK: u32 = 258; // added "<think>", not special
const BL_END: u32 = 259; // added "<|end|>", special
const BL_QQ: u32 = 260; // added "Ġqq": its characters are in the byte table

fn byte_level_json() -> String {
    let mut vocab = serde_json::Map::new();
    for b in 0..=255u8 {
        vocab.insert(spell(&[b]), json!(b));
    }
    vocab.insert("Ġhello".into(), json!(BL_HELLO));
    vocab.insert(spell("²".as_bytes()), json!(BL_SQUARED));
    file(
        json!({"type": "BPE", "dropout": null, "unk_token": null, "byte_fallback": false,
               "vocab": vocab, "merges": ["Ġ h", "Â ²"]}),
        vec![added(BL_THINK, "<think>", false), added(BL_END, "<|end|>", true), added(BL_QQ, "Ġqq", false)],
        json!({"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": false, "use_regex": false}),
        json!({"type": "NFC"}),
    )
}

fn byte_level() -> Vocabulary {
    Vocabulary::from_tokenizer_json(&byte_level_json()).expect("byte-level test tokenizer")
}

/// [`byte_level`] with two added tokens longer than a slot holds inline: 261 (26 bytes) and
/// 262 (30 bytes, special).
fn byte_level_with_long_pieces() -> Vocabulary {
    let mut json: Value = serde_json::from_str(&byte_level_json()).unwrap();
    let added_tokens = json["added_tokens"].as_array_mut().unwrap();
    added_tokens.push(added(261, "<|a_long_added_token_26|>x", false));
    added_tokens.push(added(262, "<|a_long_special_token_30|>xyz", true));
    let v = Vocabulary::from_tokenizer_json(&json.to_string()).expect("byte-level test tokenizer");
    assert_eq!((v.piece(261).len(), v.piece(262).len()), (26, 30));
    v
}

fn bytes_ids(s: &str) -> Vec<u32> {
    s.bytes().map(u32::from).collect()
}

#[test]
fn byte_level_decodes_pieces_and_added_tokens() {
    let v = byte_level();
    assert_eq!(v.len(), 261);
    assert_eq!(v.decoder_kind(), "byte-level");
    let mut ids = vec![BL_THINK];
    ids.extend(bytes_ids("x"));
    ids.extend([BL_SQUARED, BL_HELLO, BL_QQ, BL_END]);
    let d = v.decode_with_offsets(&ids, false).unwrap();
    assert_eq!(d.text, "<think>x² hello qq<|end|>");
    assert_eq!(d.token_ends, vec![7, 8, 10, 16, 19, 26]);
    let d = v.decode_with_offsets(&ids, true).unwrap();
    assert_eq!(d.text, "<think>x² hello qq");
    assert_eq!(d.token_ends, vec![7, 8, 10, 16, 19, 19]);
}

#[test]
fn a_character_split_across_tokens_belongs_to_its_last_byte() {
    let v = byte_level();
    // "x😀": the emoji's four bytes in four tokens.
    let ids = bytes_ids("x😀!");
    let d = v.decode_with_offsets(&ids, false).unwrap();
    assert_eq!(d.text, "x😀!");
    assert_eq!(d.token_ends, vec![1, 1, 1, 1, 5, 6]);
    assert_eq!(d.token_at_byte(0), Some(0));
    for b in 1..5 {
        assert_eq!(d.token_at_byte(b), Some(4), "byte {b}");
    }
    assert_eq!(d.token_at_byte(5), Some(5));
    assert_eq!(d.token_at_byte(6), None);
}

#[test]
fn invalid_utf8_is_replaced_as_tokenizers_does() {
    let v = byte_level();
    // é's bytes around an added token: both halves are invalid on their own.
    let d = v.decode_with_offsets(&[0xC3, BL_THINK, 0xA9], false).unwrap();
    assert_eq!(d.text, "\u{FFFD}<think>\u{FFFD}");
    assert_eq!(d.token_ends, vec![3, 10, 13]);
    // A skipped special token vanishes before decoding, so the halves join up again.
    let d = v.decode_with_offsets(&[0xC3, BL_END, 0xA9], true).unwrap();
    assert_eq!(d.text, "é");
    assert_eq!(d.token_ends, vec![0, 0, 2]);
    let d = v.decode_with_offsets(&[0xC3, BL_END, 0xA9], false).unwrap();
    assert_eq!(d.text, "\u{FFFD}<|end|>\u{FFFD}");
    // A truncated sequence at the end is one replacement character, owned by its last byte.
    let d = v.decode_with_offsets(&[b'a'.into(), 0xF0, 0x9F, 0x98], false).unwrap();
    assert_eq!(d.text, "a\u{FFFD}");
    assert_eq!(d.token_ends, vec![1, 1, 1, 4]);
    // A lone continuation byte, then a valid character.
    let d = v.decode_with_offsets(&[0x80, 0xC3, 0xA9], false).unwrap();
    assert_eq!(d.text, "\u{FFFD}é");
    assert_eq!(d.token_ends, vec![3, 3, 5]);
}

#[test]
fn unknown_ids_are_errors_not_silently_dropped() {
    let v = byte_level();
    assert_eq!(v.decode(&[1, 2, 261, 3], false), Err(DecodeError::UnknownId { index: 2, id: 261, vocab_len: 261 }));
    assert!(v.decode(&[u32::MAX], true).is_err());
    assert_eq!(v.decode(&[], false), Ok(String::new()));
}

#[test]
fn token_ids_and_special_flags() {
    let v = byte_level();
    assert_eq!(v.token_id("<think>"), Some(BL_THINK));
    assert_eq!(v.token_id("Ġhello"), Some(BL_HELLO));
    assert_eq!(v.token_id("Ġ"), Some(u32::from(b' ')));
    assert_eq!(v.token_id("hello"), None);
    assert!(v.is_special(BL_END));
    assert!(!v.is_special(BL_THINK));
    assert!(!v.is_special(100_000));
    assert!(v.contains(260) && !v.contains(261));
}

// ---- SentencePiece: Llama-2 decoder chain, byte fallback ------------------------------------

const SP_HELLO: u32 = 259; // "▁hello"
const SP_WORLD: u32 = 260; // "▁world"
const SP_SPACE: u32 = 261; // "▁"
const SP_A: u32 = 262; // "a"

fn sp_byte(b: u8) -> u32 {
    3 + u32::from(b)
}

fn llama_json(normalized_extra: bool) -> String {
    let mut vocab = serde_json::Map::new();
    for (i, piece) in ["<unk>", "<s>", "</s>"].iter().enumerate() {
        vocab.insert((*piece).into(), json!(i));
    }
    for b in 0..=255u8 {
        vocab.insert(format!("<0x{b:02X}>"), json!(sp_byte(b)));
    }
    for (piece, id) in [("▁hello", SP_HELLO), ("▁world", SP_WORLD), ("▁", SP_SPACE), ("a", SP_A)] {
        vocab.insert(piece.into(), json!(id));
    }
    let mut added_tokens = vec![added(0, "<unk>", true), added(1, "<s>", true), added(2, "</s>", true)];
    if normalized_extra {
        let mut t = added(263, "X Y", false);
        t["normalized"] = json!(true);
        added_tokens.push(t);
    }
    file(
        json!({"type": "BPE", "unk_token": "<unk>", "byte_fallback": true, "fuse_unk": true,
               "vocab": vocab, "merges": []}),
        added_tokens,
        json!({"type": "Sequence", "decoders": [
            {"type": "Replace", "pattern": {"String": "▁"}, "content": " "},
            {"type": "ByteFallback"}, {"type": "Fuse"},
            {"type": "Strip", "content": " ", "start": 1, "stop": 0}]}),
        json!({"type": "Sequence", "normalizers": [
            {"type": "Prepend", "prepend": "▁"},
            {"type": "Replace", "pattern": {"String": " "}, "content": "▁"}]}),
    )
}

fn llama() -> Vocabulary {
    Vocabulary::from_tokenizer_json(&llama_json(false)).expect("llama test tokenizer")
}

#[test]
fn llama_chain_matches_tokenizers() {
    let v = llama();
    assert_eq!(v.decoder_kind(), "sentencepiece (byte fallback)");
    let d = |ids: &[u32], skip| v.decode_with_offsets(ids, skip).unwrap();
    // Strip(" ", 1, 0) removes the first space of the whole text.
    let r = d(&[SP_HELLO, SP_WORLD], false);
    assert_eq!((r.text.as_str(), r.token_ends.as_slice()), ("hello world", &[5, 11][..]));
    assert_eq!(d(&[1, SP_HELLO, SP_WORLD], false).text, "<s> hello world");
    let r = d(&[1, SP_HELLO, SP_WORLD], true);
    assert_eq!((r.text.as_str(), r.token_ends.as_slice()), ("hello world", &[0, 5, 11][..]));
    assert_eq!(d(&[SP_SPACE, SP_HELLO], false).text, " hello");
    // Byte runs are decoded together; invalid runs give one U+FFFD per byte token.
    let r = d(&[sp_byte(0xC3), sp_byte(0xA9), SP_A], false);
    assert_eq!((r.text.as_str(), r.token_ends.as_slice()), ("éa", &[0, 2, 3][..]));
    assert_eq!(d(&[sp_byte(0xC3), SP_A], false).text, "\u{FFFD}a");
    let r = d(&[sp_byte(0xC3), sp_byte(0xC3), sp_byte(0xA9)], false);
    assert_eq!((r.text.as_str(), r.token_ends.as_slice()), ("\u{FFFD}\u{FFFD}\u{FFFD}", &[3, 6, 9][..]));
    // Bytes spelling "▁" are not replaced: Replace runs before ByteFallback.
    assert_eq!(d(&[sp_byte(0xE2), sp_byte(0x96), sp_byte(0x81), SP_HELLO], false).text, "▁ hello");
    // A skipped special token does not break a byte run.
    let r = d(&[sp_byte(0xC3), 2, sp_byte(0xA9)], true);
    assert_eq!((r.text.as_str(), r.token_ends.as_slice()), ("é", &[0, 0, 2][..]));
    assert_eq!(d(&[sp_byte(0xC3), 2, sp_byte(0xA9)], false).text, "\u{FFFD}</s>\u{FFFD}");
    assert_eq!(d(&[sp_byte(b'\n'), SP_HELLO], false).text, "\n hello");
    assert_eq!(d(&[], false).text, "");
    assert_eq!(v.token_id("<0x0A>"), Some(sp_byte(b'\n')));
    assert_eq!(v.token_id("<s>"), Some(1));
}

#[test]
fn normalized_added_tokens_decode_in_normalized_form() {
    // tokenizers 0.23 decodes `X Y` (normalized: true) as the Llama normalizer rewrites it.
    let v = Vocabulary::from_tokenizer_json(&llama_json(true)).unwrap();
    assert_eq!(v.decode(&[SP_A, 263], false).unwrap(), "a X Y");
    assert_eq!(v.token_id("X Y"), Some(263));
}

// ---- SentencePiece: Unigram with a Metaspace decoder -----------------------------------------

fn metaspace(scheme: &str) -> Vocabulary {
    let json = file(
        json!({"type": "Unigram", "unk_id": 0, "byte_fallback": false,
               "vocab": [["<unk>", 0.0], ["<s>", 0.0], ["▁hello", -1.0], ["▁", -2.0], ["▁▁", -3.0],
                         ["a▁b", -4.0], ["<0x0A>", -5.0], ["a▁b", -6.0]]}),
        vec![added(0, "<unk>", true), added(1, "<s>", true)],
        json!({"type": "Metaspace", "replacement": "▁", "prepend_scheme": scheme, "split": true}),
        json!(null),
    );
    Vocabulary::from_tokenizer_json(&json).expect("metaspace test tokenizer")
}

#[test]
fn metaspace_drops_every_marker_of_the_first_token() {
    let v = metaspace("always");
    let d = |ids: &[u32], skip| v.decode_with_offsets(ids, skip).unwrap();
    let r = d(&[4, 2], false);
    assert_eq!((r.text.as_str(), r.token_ends.as_slice()), (" hello", &[0, 6][..]));
    assert_eq!(d(&[5, 5], false).text, "aba b");
    assert_eq!(d(&[1, 3, 2], false).text, "<s>  hello");
    // The first token is counted after skipping.
    let r = d(&[1, 3, 2], true);
    assert_eq!((r.text.as_str(), r.token_ends.as_slice()), (" hello", &[0, 0, 6][..]));
    // No ByteFallback in the chain: byte pieces stay literal.
    assert_eq!(d(&[6, 2], false).text, "<0x0A> hello");
    assert_eq!(metaspace("never").decode(&[4, 2], false).unwrap(), "   hello");
    // A repeated Unigram piece resolves to its last id, as tokenizers does.
    assert_eq!(v.token_id("a▁b"), Some(7));
}

// ---- refusals -------------------------------------------------------------------------------

fn unsupported(json: &str) -> bool {
    matches!(Vocabulary::from_tokenizer_json(json), Err(VocabularyError::Unsupported(_)))
}

fn inconsistent(json: &str) -> bool {
    matches!(Vocabulary::from_tokenizer_json(json), Err(VocabularyError::Inconsistent(_)))
}

#[test]
fn refuses_what_it_cannot_decode_exactly() {
    let wordpiece = file(
        json!({"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
               "max_input_chars_per_word": 100, "vocab": {"[UNK]": 0, "a": 1, "##b": 2}}),
        vec![],
        json!({"type": "WordPiece", "prefix": "##", "cleanup": true}),
        json!(null),
    );
    assert!(unsupported(&wordpiece));
    let bpe = |decoder: Value| {
        file(json!({"type": "BPE", "vocab": {"a": 0, "b": 1}, "merges": []}), vec![], decoder, json!(null))
    };
    assert!(unsupported(&bpe(json!(null))));
    assert!(unsupported(&bpe(json!({"type": "BPEDecoder", "suffix": "</w>"}))));
    assert!(Vocabulary::from_tokenizer_json(&bpe(json!({"type": "ByteLevel"}))).is_ok());
    let unknown_model =
        file(json!({"type": "Mystery", "vocab": {"a": 0}}), vec![], json!({"type": "ByteLevel"}), json!(null));
    assert!(unsupported(&unknown_model));
    // An added token marked normalized under a normalizer with tables it would need.
    let mut t = added(2, "ｘ", false);
    t["normalized"] = json!(true);
    let nfkc = file(
        json!({"type": "BPE", "vocab": {"a": 0, "b": 1}, "merges": []}),
        vec![t],
        json!({"type": "ByteLevel"}),
        json!({"type": "NFKC"}),
    );
    assert!(unsupported(&nfkc));
    for bad in ["", "{}", "[]", "{\"model\": {\"type\": \"BPE\", \"vocab\": {\"a\": 0}}", "\u{0}"] {
        assert!(matches!(Vocabulary::from_tokenizer_json(bad), Err(VocabularyError::Json(_))), "{bad:?}");
    }
}

#[test]
fn refuses_self_contradicting_files() {
    let bl = json!({"type": "ByteLevel"});
    let model = json!({"type": "BPE", "vocab": {"a": 0, "b": 1, "c": 2}, "merges": []});
    // tokenizers would number these 3 and 4 whatever the file says.
    assert!(inconsistent(&file(model.clone(), vec![added(5, "X", true)], bl.clone(), json!(null))));
    assert!(inconsistent(&file(
        model.clone(),
        vec![added(4, "X", false), added(3, "Y", false)],
        bl.clone(),
        json!(null)
    )));
    // Content already a model piece: the piece's id.
    assert!(inconsistent(&file(model.clone(), vec![added(7, "b", true)], bl.clone(), json!(null))));
    assert!(Vocabulary::from_tokenizer_json(&file(
        model,
        vec![added(1, "b", true), added(3, "X", false)],
        bl.clone(),
        json!(null)
    ))
    .is_ok());
    assert!(inconsistent(&file(
        json!({"type": "BPE", "vocab": {"a": 0, "b": 0}, "merges": []}),
        vec![],
        bl.clone(),
        json!(null)
    )));
    let repeated_key =
        r#"{"model": {"type": "BPE", "vocab": {"a": 0, "a": 1}, "merges": []}, "decoder": {"type": "ByteLevel"}}"#;
    assert!(inconsistent(repeated_key));
    assert!(inconsistent(&file(
        json!({"type": "BPE", "vocab": {"a": 0}, "merges": []}),
        vec![added(1, "", false)],
        bl.clone(),
        json!(null)
    )));
    let huge = file(json!({"type": "BPE", "vocab": {"a": MAX_ID + 1}, "merges": []}), vec![], bl, json!(null));
    assert!(unsupported(&huge));
}

#[test]
fn holes_in_the_id_space_are_unknown() {
    let json = file(
        json!({"type": "BPE", "vocab": {"a": 0, "b": 5}, "merges": []}),
        vec![],
        json!({"type": "ByteLevel"}),
        json!(null),
    );
    let v = Vocabulary::from_tokenizer_json(&json).unwrap();
    assert_eq!(v.len(), 6);
    assert_eq!(v.decode(&[0, 5], false).unwrap(), "ab");
    assert!(matches!(v.decode(&[0, 3], false), Err(DecodeError::UnknownId { index: 1, id: 3, .. })));
}

// ---- properties -----------------------------------------------------------------------------

/// `d`, the decode of `ids` by the byte-level `v`: its text is the kept pieces' bytes read
/// lossily, its offsets are well formed, and on valid UTF-8 every end is the kept pieces'
/// running length, floored to a character boundary.
fn check_against_the_kept_pieces(v: &Vocabulary, ids: &[u32], skip: bool, d: Decoded) {
    let kept = |id: u32| !(skip && v.is_special(id));
    let raw: Vec<u8> = ids.iter().copied().filter(|&id| kept(id)).flat_map(|id| v.piece(id).to_vec()).collect();
    assert_eq!(d.text, String::from_utf8_lossy(&raw).into_owned());
    assert_offsets_well_formed(&d, ids.len());
    if std::str::from_utf8(&raw).is_ok() {
        let mut total = 0;
        for (k, &id) in ids.iter().enumerate() {
            if kept(id) {
                total += v.piece(id).len();
            }
            let mut floor = total;
            while !d.text.is_char_boundary(floor) {
                floor -= 1;
            }
            assert_eq!(d.token_ends[k], floor);
        }
    }
}

fn assert_offsets_well_formed(d: &Decoded, n_ids: usize) {
    assert_eq!(d.token_ends.len(), n_ids);
    let mut prev = 0;
    for &e in &d.token_ends {
        assert!(e >= prev && e <= d.text.len() && d.text.is_char_boundary(e), "{d:?}");
        prev = e;
    }
    if n_ids > 0 {
        assert_eq!(d.token_ends.last().copied(), Some(d.text.len()), "{d:?}");
    }
}

/// Literal transcription of tokenizers' Replace -> ByteFallback -> Fuse -> Strip(" ", 1, 0).
fn reference_llama(tokens: &[String]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut run: Vec<u8> = Vec::new();
    let flush = |run: &mut Vec<u8>, out: &mut Vec<String>| {
        if run.is_empty() {
            return;
        }
        match String::from_utf8(run.clone()) {
            Ok(s) => out.push(s),
            Err(_) => out.extend(std::iter::repeat("\u{FFFD}".to_string()).take(run.len())),
        }
        run.clear();
    };
    for t in tokens.iter().map(|t| t.replace('▁', " ")) {
        let byte = (t.len() == 6 && t.starts_with("<0x") && t.ends_with('>'))
            .then(|| u8::from_str_radix(&t[3..5], 16).ok())
            .flatten();
        match byte {
            Some(b) => run.push(b),
            None => {
                flush(&mut run, &mut out);
                out.push(t);
            }
        }
    }
    flush(&mut run, &mut out);
    let fused = out.concat();
    fused.strip_prefix(' ').unwrap_or(&fused).to_string()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn byte_level_text_and_offsets(ids in prop::collection::vec(prop_oneof![
        8 => 0u32..256,
        1 => 256u32..261,
        // Bytes of multi-byte characters, so that most sequences are mostly valid UTF-8.
        4 => prop::sample::select(vec![0xC2u32, 0xB2, 0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x98, 0x80]),
    ], 0..40), skip in any::<bool>()) {
        let v = byte_level();
        let d = v.decode_with_offsets(&ids, skip).unwrap();
        // Reference: the kept tokens' bytes, decoded lossily in one go.
        let kept: Vec<u32> = ids.iter().copied().filter(|&id| !(skip && v.is_special(id))).collect();
        let raw: Vec<u8> = kept.iter().flat_map(|&id| v.piece(id).to_vec()).collect();
        prop_assert_eq!(&d.text, &String::from_utf8_lossy(&raw).into_owned());
        assert_offsets_well_formed(&d, ids.len());
        // Text up to a token's end never changes when more tokens follow.
        for k in 1..=ids.len() {
            let prefix = v.decode_with_offsets(&ids[..k], skip).unwrap();
            prop_assert!(prefix.text.starts_with(&d.text[..d.token_ends[k - 1]]));
        }
        // On valid UTF-8, each character belongs to the token holding its last byte.
        if std::str::from_utf8(&raw).is_ok() {
            let mut raw_ends = Vec::new();
            let mut total = 0;
            for &id in &ids {
                if !(skip && v.is_special(id)) {
                    total += v.piece(id).len();
                }
                raw_ends.push(total);
            }
            for (start, c) in d.text.char_indices() {
                let last_byte = start + c.len_utf8() - 1;
                let owner = raw_ends.iter().position(|&end| end > last_byte);
                prop_assert_eq!(d.token_at_byte(start), owner);
                prop_assert_eq!(d.token_at_byte(last_byte), owner);
            }
        }
    }

    /// Long sequences (the byte-level loop reserves room per run of tokens) with pieces too
    /// long to sit inline in a slot (an added token of 26 bytes, a special one of 30), at any
    /// place in a run: the text and every token end as the kept pieces give them.
    #[test]
    fn byte_level_long_sequences_and_long_pieces(ids in prop::collection::vec(prop_oneof![
        8 => 0u32..128,
        2 => 256u32..263,
        1 => prop::sample::select(vec![0xC2u32, 0xB2, 0xE2, 0x82, 0xAC]),
    ], 0..400), skip in any::<bool>()) {
        let v = byte_level_with_long_pieces();
        check_against_the_kept_pieces(&v, &ids, skip, v.decode_with_offsets(&ids, skip).unwrap());
    }

    /// Long runs of common tokens (decoded a block of eight at a time with AVX2) with now and
    /// then one that is not (added, special, long, part of a character) or an id the
    /// vocabulary lacks, anywhere in a block: the text and ends as the kept pieces give
    /// them, or the first unknown id's index as the error.
    #[test]
    fn byte_level_blocks_with_a_rare_token_anywhere(ids in prop::collection::vec(prop_oneof![
        80 => 0u32..128,
        2 => 256u32..263,
        2 => prop::sample::select(vec![0xC2u32, 0xB2, 0xE2, 0x82, 0xAC]),
        1 => prop::sample::select(vec![263u32, 1 << 20, u32::MAX]),
    ], 0..400), skip in any::<bool>()) {
        let v = byte_level_with_long_pieces();
        let decoded = v.decode_with_offsets(&ids, skip);
        match ids.iter().position(|&id| id >= 263) {
            Some(index) => prop_assert_eq!(decoded, Err(DecodeError::UnknownId { index, id: ids[index], vocab_len: v.len() })),
            None => check_against_the_kept_pieces(&v, &ids, skip, decoded.unwrap()),
        }
    }

    #[test]
    fn llama_text_matches_reference_and_offsets_are_well_formed(ids in prop::collection::vec(prop_oneof![
        3 => 0u32..3,
        6 => prop::sample::select(vec![0xC3u8, 0xA9, 0xE2, 0x96, 0x81, b'\n', b' ', 0x80, 0xF0]).prop_map(sp_byte),
        6 => 259u32..263,
    ], 0..30), skip in any::<bool>()) {
        let v = llama();
        let d = v.decode_with_offsets(&ids, skip).unwrap();
        let kept: Vec<String> = ids.iter().copied()
            .filter(|&id| !(skip && v.is_special(id)))
            .map(|id| v.token_text(id).to_string())
            .collect();
        prop_assert_eq!(&d.text, &reference_llama(&kept));
        assert_offsets_well_formed(&d, ids.len());
    }

    #[test]
    fn loading_damaged_files_never_panics(
        which in 0usize..2,
        cut in 0.0f64..1.0,
        removed in 0usize..40,
        junk in "[\\[\\]{}\":,0-9a-zA-Z<>▁Ġ -]{0,12}",
    ) {
        // A valid file with a span replaced by JSON-ish junk: most fail to parse, some parse
        // into odd shapes (wrong types, missing fields, ids out of order); none may panic.
        let json = if which == 0 { byte_level_json() } else { llama_json(true) };
        let chars: Vec<char> = json.chars().collect();
        let at = ((chars.len() as f64) * cut) as usize;
        let damaged: String = chars[..at]
            .iter()
            .chain(junk.chars().collect::<Vec<_>>().iter())
            .chain(chars[(at + removed).min(chars.len())..].iter())
            .collect();
        if let Ok(v) = Vocabulary::from_tokenizer_json(&damaged) {
            let ids: Vec<u32> = (0..v.len() as u32).collect();
            let _ = v.decode_with_offsets(&ids, true);
        }
    }
}
