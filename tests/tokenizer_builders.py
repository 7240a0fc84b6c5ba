"""Small tokenizers built with the ``tokenizers`` library, for parity tests that need no
downloaded files: a Llama-style SentencePiece BPE with byte fallback, and a T5-style Unigram
with a Metaspace decoder. Both are trained on a fixed corpus, so they are deterministic."""
from __future__ import annotations

import json

from tokenizers import AddedToken, Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers

CORPUS = [
    "Let me compute the sum of the first n squares: 1 + 4 + 9 + ... = n(n+1)(2n+1)/6.",
    "Therefore the answer is 42. Wait, let me double-check the arithmetic once more.",
    "So x^2 - 5x + 6 = 0 gives x = 2 or x = 3, and the product of the roots is 6.",
    "The area of a circle of radius r is pi r^2; with r = 3 it is 9 pi.",
    "Hmm, perhaps I should verify: 17 * 23 = 391, which is correct.",
    "因此答案是 5。我们再检查一下计算过程。",
    "First, note that the function is increasing on the interval [0, 1].",
] * 20

SPECIALS = ["<unk>", "<s>", "</s>"]


def _byte_tokens() -> list[str]:
    return [f"<0x{b:02X}>" for b in range(256)]


def llama_style() -> Tokenizer:
    """BPE with byte fallback laid out like Llama 2: ``<unk> <s> </s>``, then the 256
    ``<0xHH>`` byte tokens, then the learned pieces; Metaspace pre-tokenizer; the decoder chain
    ``Replace("▁", " ") / ByteFallback / Fuse / Strip(" ", 1, 0)``; plus ``<think>``/``</think>``
    as non-special added tokens."""
    trainer_tok = Tokenizer(models.BPE(unk_token="<unk>", byte_fallback=True, fuse_unk=True))
    trainer_tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="first")
    # A small alphabet, so that rare characters (CJK, emoji, accents) go through byte fallback.
    trainer = trainers.BpeTrainer(vocab_size=600, special_tokens=SPECIALS, limit_alphabet=60, show_progress=False)
    trainer_tok.train_from_iterator(CORPUS, trainer)
    learned = json.loads(trainer_tok.to_str())["model"]
    vocab: dict[str, int] = {}
    for piece in SPECIALS + _byte_tokens():
        vocab[piece] = len(vocab)
    for piece, _ in sorted(learned["vocab"].items(), key=lambda kv: kv[1]):
        vocab.setdefault(piece, len(vocab))
    merges = [tuple(m.split(" ")) if isinstance(m, str) else tuple(m) for m in learned["merges"]]
    tok = Tokenizer(models.BPE(vocab=vocab, merges=merges, unk_token="<unk>", byte_fallback=True, fuse_unk=True))
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="first")
    tok.decoder = decoders.Sequence(
        [decoders.Replace("▁", " "), decoders.ByteFallback(), decoders.Fuse(), decoders.Strip(" ", 1, 0)]
    )
    tok.add_special_tokens([AddedToken(t, special=True, normalized=False) for t in SPECIALS])
    tok.add_tokens([AddedToken(t, special=False, normalized=False) for t in ("<think>", "</think>")])
    return tok


def unigram_metaspace() -> Tokenizer:
    """A Unigram model with a Metaspace decoder (prepend scheme ``always``), as T5-style
    conversions have; no byte fallback, so unknown characters become ``<unk>``."""
    tok = Tokenizer(models.Unigram())
    tok.normalizer = normalizers.NFKC()
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always")
    tok.decoder = decoders.Metaspace(replacement="▁", prepend_scheme="always")
    trainer = trainers.UnigramTrainer(vocab_size=300, special_tokens=SPECIALS, unk_token="<unk>", show_progress=False)
    tok.train_from_iterator(CORPUS, trainer)
    return tok
