//! A tokenizer vocabulary reduced to what decoding needs: for every id, the bytes it
//! contributes to decoded text, in one flat buffer.
//!
//! Ids follow `tokenizers` exactly, including how it assigns ids to `added_tokens` (in file
//! order: the model's id when the content is already a model piece, else the next free id after
//! the model vocabulary). A file whose listed ids disagree with that assignment is refused
//! rather than decoded under one guess or the other.

use std::collections::{HashMap, HashSet};
use std::fmt;

use super::decoder::DecoderPlan;
use super::json::{TokenizerFile, VocabTable};
use super::normalizer::normalize_added;

/// Largest id accepted. Tables are indexed by id, so this bounds memory (about 10 bytes per id)
/// for files with huge, sparse ids; the largest real vocabularies have ~260k ids.
pub const MAX_ID: u32 = (1 << 22) - 1;

/// Why a `tokenizer.json` cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VocabularyError {
    /// Not JSON, or not shaped like a `tokenizer.json`.
    Json(String),
    /// A valid file for a tokenizer this module cannot decode exactly (WordPiece, a decoder
    /// chain it does not reproduce, ...).
    Unsupported(String),
    /// A file that contradicts itself (one id for two pieces, added-token ids that `tokenizers`
    /// would assign differently, ...).
    Inconsistent(String),
}

impl fmt::Display for VocabularyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VocabularyError::Json(m) => write!(f, "not a usable tokenizer.json: {m}"),
            VocabularyError::Unsupported(m) => write!(f, "unsupported tokenizer: {m}"),
            VocabularyError::Inconsistent(m) => write!(f, "inconsistent tokenizer.json: {m}"),
        }
    }
}

impl std::error::Error for VocabularyError {}

/// How `tokenizers` numbers `added_tokens` as it loads them (`AddedVocabulary::add_tokens`,
/// over the list in file order): a content seen before keeps its id, a model piece has the
/// model's id, anything else takes the next id after the model's entries. A file that lists
/// other ids is refused rather than read under one guess or the other.
pub(crate) struct AddedTokenNumbering {
    next_id: u64,
    seen: HashMap<String, u32>,
}

impl AddedTokenNumbering {
    pub(crate) fn new(model_entries: usize) -> Result<AddedTokenNumbering, VocabularyError> {
        let next_id = u32::try_from(model_entries)
            .map_err(|_| VocabularyError::Unsupported("vocabulary has more than 2^32 entries".into()))?;
        Ok(AddedTokenNumbering { next_id: u64::from(next_id), seen: HashMap::new() })
    }

    /// Checks the id the file lists for the next added token (`model_id`: the model's id for
    /// the same content, if any); `Ok(true)` the first time `content` is seen.
    pub(crate) fn check(
        &mut self,
        content: &str,
        listed_id: u32,
        model_id: Option<u32>,
    ) -> Result<bool, VocabularyError> {
        if content.is_empty() {
            return Err(VocabularyError::Inconsistent(format!(
                "added token {listed_id} has empty content (tokenizers drops it)"
            )));
        }
        let seen = self.seen.get(content).copied();
        let id = match seen.or(model_id) {
            Some(id) => u64::from(id),
            None => {
                self.next_id += 1;
                self.next_id - 1
            }
        };
        if id != u64::from(listed_id) {
            return Err(VocabularyError::Inconsistent(format!(
                "added token {content:?} is listed with id {listed_id} but tokenizers gives it id {id}"
            )));
        }
        self.seen.insert(content.to_owned(), listed_id);
        Ok(seen.is_none())
    }
}

/// Many byte strings in one buffer; item `i` is `data[starts[i]..starts[i + 1]]`.
#[derive(Debug, Clone)]
struct FlatBytes {
    data: Vec<u8>,
    starts: Vec<u32>,
}

impl FlatBytes {
    fn with_capacity(items: usize, bytes: usize) -> Self {
        let mut starts = Vec::with_capacity(items + 1);
        starts.push(0);
        FlatBytes { data: Vec::with_capacity(bytes), starts }
    }

    /// Closes the item whose bytes were appended to `data` since the previous call.
    fn close_item(&mut self) -> Result<(), VocabularyError> {
        let end = u32::try_from(self.data.len())
            .map_err(|_| VocabularyError::Unsupported("vocabulary text over 4 GiB".into()))?;
        self.starts.push(end);
        Ok(())
    }

    /// Item `i`, empty when out of range.
    fn get(&self, i: usize) -> &[u8] {
        match (self.starts.get(i), self.starts.get(i + 1)) {
            (Some(&a), Some(&b)) => self.data.get(a as usize..b as usize).unwrap_or_default(),
            _ => &[],
        }
    }

    fn heap_bytes(&self) -> usize {
        self.data.capacity() + self.starts.capacity() * 4
    }
}

pub(crate) const PRESENT: u8 = 1;
pub(crate) const SPECIAL: u8 = 2;
const FALLBACK_BYTE: u8 = 4;
/// The piece alone is not UTF-8: it starts or ends inside a character (the token before or
/// after it ends or starts there), or holds a byte no UTF-8 has. Text made of pieces without
/// it is UTF-8 without a check (set on the [`Slot`] only, from the piece's bytes).
pub(crate) const NOT_UTF8: u8 = 8;
/// The piece is longer than a [`Slot`] holds inline ([`Slot::len`] is [`LONG_PIECE`]): a
/// flag as well, so that one test of the flags tells a decoding loop a token needs nothing
/// but the slot's 16 bytes.
pub(crate) const LONG: u8 = 16;

/// Bytes a piece may have to be stored inline in its [`Slot`].
pub(crate) const INLINE_BYTES: usize = 14;
/// [`Slot::len`] of a piece longer than [`INLINE_BYTES`] (read from `pieces` instead).
const LONG_PIECE: u8 = u8::MAX;
/// Where a [`Slot`] keeps the piece's length and the id's flags.
pub(crate) const LEN_AT: usize = INLINE_BYTES;
pub(crate) const FLAGS_AT: usize = INLINE_BYTES + 1;

/// One id's decoding facts in 16 bytes, so that decoding a token reads one cache line: the
/// piece inline when it is short (nearly all are), its length, and its flags.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[repr(C, align(16))]
pub(crate) struct Slot {
    /// The piece's bytes, then zeros; copied 16 bytes at a time (the tail is overwritten).
    pub(crate) bytes: [u8; 16],
}

impl Slot {
    fn new(piece: &[u8], flags: u8) -> Slot {
        let mut bytes = [0u8; 16];
        if piece.len() <= INLINE_BYTES {
            bytes[..piece.len()].copy_from_slice(piece);
            bytes[LEN_AT] = piece.len() as u8;
        } else {
            bytes[LEN_AT] = LONG_PIECE;
        }
        let long = if piece.len() > INLINE_BYTES { LONG } else { 0 };
        bytes[FLAGS_AT] = flags | long | if std::str::from_utf8(piece).is_err() { NOT_UTF8 } else { 0 };
        Slot { bytes }
    }

    /// Length of the inline piece, or [`LONG_PIECE`].
    #[inline]
    pub(crate) fn len(&self) -> u8 {
        self.bytes[LEN_AT]
    }

    #[inline]
    pub(crate) fn flags(&self) -> u8 {
        self.bytes[FLAGS_AT]
    }
}

/// A loaded vocabulary: immutable, `Send + Sync`, shareable across threads.
#[derive(Debug, Clone)]
pub struct Vocabulary {
    /// Model pieces by id (empty for ids the model does not define), for `token_id`.
    model_pieces: FlatBytes,
    /// Model ids sorted by (piece, id).
    model_order: Vec<u32>,
    /// Added token content -> id; `token_id` looks here first, as `tokenizers` does.
    added_ids: HashMap<String, u32>,
    /// Decode-time text of added tokens (their content, normalized where the file says so).
    added_text: HashMap<u32, String>,
    /// What each id contributes before the decoder steps that depend on neighbours.
    pieces: FlatBytes,
    /// Per id: short piece inline, length and flags (the byte-level decoder's one lookup; the
    /// flags' only home).
    slots: Vec<Slot>,
    /// The byte of each byte-fallback token (`<0x0A>` -> 0x0A), 0 elsewhere.
    fallback_bytes: Vec<u8>,
    plan: DecoderPlan,
}

impl Vocabulary {
    /// Loads a Hugging Face `tokenizer.json` (the text of the file).
    pub fn from_tokenizer_json(json: &str) -> Result<Vocabulary, VocabularyError> {
        let file: TokenizerFile = serde_json::from_str(json).map_err(|e| VocabularyError::Json(e.to_string()))?;
        let plan = DecoderPlan::from_json(file.decoder.as_ref())?;
        check_model_kind(file.model.kind.as_deref(), &file.model.vocab, file.model.merges.is_some())?;
        let model = ModelVocab::build(file.model.vocab)?;

        let mut added_ids: HashMap<String, u32> = HashMap::new();
        let mut added_text: HashMap<u32, String> = HashMap::new();
        let mut special_contents: HashSet<String> = HashSet::new();
        let mut numbering = AddedTokenNumbering::new(model.entry_count)?;
        for entry in &file.added_tokens {
            numbering.check(&entry.content, entry.id, model.lookup(&entry.content))?;
            let id = entry.id;
            if id > MAX_ID {
                return Err(VocabularyError::Unsupported(format!("id {id} is over the limit {MAX_ID}")));
            }
            let text = if entry.normalized {
                normalize_added(&entry.content, file.normalizer.as_ref())?
            } else {
                entry.content.clone()
            };
            added_ids.insert(entry.content.clone(), id);
            added_text.insert(id, text);
            if entry.special {
                special_contents.insert(entry.content.clone());
            }
        }

        let len = added_text.keys().map(|&id| id as usize + 1).fold(model.pieces.starts.len() - 1, usize::max);
        let mut pieces = FlatBytes::with_capacity(len, model.pieces.data.len());
        let mut flags = vec![0u8; len];
        let mut fallback_bytes = vec![0u8; len];
        for id in 0..len {
            let text = match added_text.get(&(id as u32)) {
                Some(t) => Some(t.as_str()),
                None if model.present.get(id).copied().unwrap_or(false) => {
                    std::str::from_utf8(model.pieces.get(id)).ok()
                }
                None => None,
            };
            if let Some(text) = text {
                let start = pieces.data.len();
                plan.append_static(text, &mut pieces.data);
                let mut f = PRESENT;
                // tokenizers skips by the token's text, so a model piece equal to a special
                // added token's content is skipped too.
                if !special_contents.is_empty() && special_contents.contains(text) {
                    f |= SPECIAL;
                }
                if let Some(b) = plan.fallback_byte(&pieces.data[start..]) {
                    f |= FALLBACK_BYTE;
                    fallback_bytes[id] = b;
                }
                flags[id] = f;
            }
            pieces.close_item()?;
        }
        let slots = (0..len).map(|id| Slot::new(pieces.get(id), flags[id])).collect();
        Ok(Vocabulary {
            model_pieces: model.pieces,
            model_order: model.order,
            added_ids,
            added_text,
            pieces,
            slots,
            fallback_bytes,
            plan,
        })
    }

    /// Number of id slots: one more than the largest id. Ids below it that neither the model nor
    /// `added_tokens` defines (rare holes) are unknown to decoding.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Whether `id` has a token.
    pub fn contains(&self, id: u32) -> bool {
        self.flag(id) & PRESENT != 0
    }

    /// Whether decoding with `skip_special` drops `id` (a special added token, or a piece with
    /// the same text).
    pub fn is_special(&self, id: u32) -> bool {
        self.flag(id) & SPECIAL != 0
    }

    /// The id of a token string (`"</think>"`, `"Ġthe"`), as `tokenizers`' `token_to_id`:
    /// added tokens first, then model pieces.
    pub fn token_id(&self, token: &str) -> Option<u32> {
        self.added_ids.get(token).copied().or_else(|| lookup(&self.model_pieces, &self.model_order, token))
    }

    /// A short description of the decoder kind (`"byte-level"`, `"sentencepiece (byte fallback)"`, ...).
    pub fn decoder_kind(&self) -> &'static str {
        self.plan.describe()
    }

    /// Heap memory held by the tables, in bytes (approximate for the hash maps).
    pub fn heap_bytes(&self) -> usize {
        let map_text: usize = self.added_ids.keys().chain(self.added_text.values()).map(|s| s.capacity() + 32).sum();
        self.model_pieces.heap_bytes()
            + self.model_order.capacity() * 4
            + self.pieces.heap_bytes()
            + self.slots.capacity() * std::mem::size_of::<Slot>()
            + self.fallback_bytes.capacity()
            + map_text
    }

    pub(crate) fn plan(&self) -> &DecoderPlan {
        &self.plan
    }

    /// The bytes `id` contributes before the neighbour-dependent decoder steps.
    pub(crate) fn piece(&self, id: u32) -> &[u8] {
        self.pieces.get(id as usize)
    }

    /// The token's text as `tokenizers` hands it to the decoder.
    pub(crate) fn token_text(&self, id: u32) -> &str {
        match self.added_text.get(&id) {
            Some(t) => t,
            None => std::str::from_utf8(self.model_pieces.get(id as usize)).unwrap_or_default(),
        }
    }

    pub(crate) fn fallback_byte(&self, id: u32) -> Option<u8> {
        if self.flag(id) & FALLBACK_BYTE != 0 {
            self.fallback_bytes.get(id as usize).copied()
        } else {
            None
        }
    }

    /// Every id's [`Slot`], indexed by id.
    #[inline]
    pub(crate) fn slots(&self) -> &[Slot] {
        &self.slots
    }

    /// Asks the CPU to load the id's [`Slot`] into cache ahead of use. The slot table (16 bytes
    /// per id, 2.4 MB for Qwen's 152k ids) does not fit in a core's L2, so a decode loop that
    /// reads each slot only when it reaches the id waits on memory for most tokens; a hint a
    /// few ids ahead hides that wait. No effect on results; a no-op off x86_64. The address is
    /// computed without a bounds check (an id past the table asks for a line nothing reads).
    #[inline]
    pub(crate) fn prefetch_slot(&self, id: u32) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let slot = self.slots.as_ptr().wrapping_add(id as usize);
            // SAFETY: a prefetch reads nothing architecturally and never faults, whatever the
            // address; the pointer is never dereferenced.
            unsafe { _mm_prefetch(slot as *const i8, _MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = id;
    }

    fn flag(&self, id: u32) -> u8 {
        self.slots.get(id as usize).map_or(0, Slot::flags)
    }
}

fn check_model_kind(kind: Option<&str>, vocab: &VocabTable, has_merges: bool) -> Result<(), VocabularyError> {
    let kind = match kind {
        Some(k) => k,
        // tokenizers reads an untyped model with merges as BPE.
        None if has_merges && !vocab.is_list => "BPE",
        None => return Err(VocabularyError::Unsupported("a model without a `type`".into())),
    };
    match (kind, vocab.is_list) {
        ("BPE" | "WordLevel", false) | ("Unigram", true) => Ok(()),
        ("BPE" | "WordLevel" | "Unigram", _) => {
            Err(VocabularyError::Json(format!("a {kind} model with a vocabulary of the wrong shape")))
        }
        // Its decoder glues `##` pieces and cleans up spaces: not a byte-exact inverse.
        ("WordPiece", _) => Err(VocabularyError::Unsupported("WordPiece models cannot be decoded exactly".into())),
        (other, _) => Err(VocabularyError::Unsupported(format!("model type {other:?}"))),
    }
}

/// The model vocabulary indexed by id.
struct ModelVocab {
    pieces: FlatBytes,
    present: Vec<bool>,
    order: Vec<u32>,
    /// Number of entries: what tokenizers calls the model's vocabulary size, from which it
    /// numbers added tokens.
    entry_count: usize,
}

impl ModelVocab {
    fn build(table: VocabTable) -> Result<ModelVocab, VocabularyError> {
        let entry_count = table.entries.len();
        let max_id = table.entries.iter().map(|e| e.2).max();
        if let Some(id) = max_id.filter(|&id| id > MAX_ID) {
            return Err(VocabularyError::Unsupported(format!("id {id} is over the limit {MAX_ID}")));
        }
        let len = max_id.map_or(0, |m| m as usize + 1);
        let mut slot = vec![usize::MAX; len];
        let text_of = |k: usize| {
            let (s, e, _) = table.entries[k];
            String::from_utf8_lossy(&table.text[s as usize..e as usize]).into_owned()
        };
        for (k, &(_, _, id)) in table.entries.iter().enumerate() {
            let previous = std::mem::replace(&mut slot[id as usize], k);
            if previous != usize::MAX {
                return Err(VocabularyError::Inconsistent(format!(
                    "id {id} is given to both {:?} and {:?}",
                    text_of(previous),
                    text_of(k)
                )));
            }
        }
        let mut pieces = FlatBytes::with_capacity(len, table.text.len());
        let mut present = vec![false; len];
        for (id, &k) in slot.iter().enumerate() {
            if let Some(&(s, e, _)) = table.entries.get(k) {
                pieces.data.extend_from_slice(&table.text[s as usize..e as usize]);
                present[id] = true;
            }
            pieces.close_item()?;
        }
        let mut order: Vec<u32> = (0..len as u32).filter(|&id| present[id as usize]).collect();
        order.sort_unstable_by(|&a, &b| pieces.get(a as usize).cmp(pieces.get(b as usize)).then(a.cmp(&b)));
        // A map cannot hold one piece twice unless the JSON repeats a key; a Unigram list can,
        // and tokenizers then resolves the piece to its last id (see `lookup`).
        if !table.is_list {
            if let Some(w) = order.windows(2).find(|w| pieces.get(w[0] as usize) == pieces.get(w[1] as usize)) {
                return Err(VocabularyError::Inconsistent(format!(
                    "piece {:?} appears twice in the vocabulary (ids {} and {})",
                    String::from_utf8_lossy(pieces.get(w[0] as usize)),
                    w[0],
                    w[1]
                )));
            }
        }
        Ok(ModelVocab { pieces, present, order, entry_count })
    }

    fn lookup(&self, piece: &str) -> Option<u32> {
        lookup(&self.pieces, &self.order, piece)
    }
}

/// Binary search of `order` (ids sorted by (piece, id)); the last id when a piece repeats.
fn lookup(pieces: &FlatBytes, order: &[u32], piece: &str) -> Option<u32> {
    let key = piece.as_bytes();
    let after = order.partition_point(|&id| pieces.get(id as usize) <= key);
    let id = *order.get(after.checked_sub(1)?)?;
    (pieces.get(id as usize) == key).then_some(id)
}
