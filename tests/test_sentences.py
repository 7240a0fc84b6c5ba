"""Sentence splitting through the Python API: rules, offsets, batches, errors, fork safety."""
from __future__ import annotations

import pickle
import subprocess
import sys
import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import apr_fast
from apr_fast import SplitOptions, math_regions, split_sentences, split_sentences_batch
from apr_fast._reference.segmentation import WHITESPACE

# Pieces that exercise every rule: math delimiters, terminators, abbreviations, labels, cues,
# several widths of UTF-8, NUL and odd whitespace.
TOKENS = [
    "$", "$$", "\\(", "\\)", "\\[", "\\]", "\\begin{align}", "\\end{align}", "\\begin{pmatrix}",
    "\\end{pmatrix}", "\\boxed{", "\\fbox{", "{", "}", "\\{", "\\}", "\\", "\\\\", ".", "!", "?",
    "...", "?!", ")", '"', "’", "”", "**", " ", " ", "  ", "\t", "\n", "\n\n", "\r\n", "\u00a0",
    "\u2028", "\u3000", "\x1c", "e.g.", "i.e.", "etc.", "No.", "no.", "Dr.", "Fig.", "1.", "12.",
    "1234.", "a.", "iv.", "Step 2.", "case 3.", "# ", "- ", "> ", "3.14", "5", "x", "word", "The",
    "so", "also", "So", "wait", "Wait", "let’s", "Let's", "we", "get", "double-check", "it is",
    "é", "日本", "😀", "\x00", "_", "Checks", "seems",
]
latexish = st.lists(st.sampled_from(TOKENS), max_size=40).map("".join)
any_text = st.one_of(latexish, st.text(), st.text(alphabet=st.characters(codec="utf-8")))


def check_tiling(text: str, sentences: list[apr_fast.Sentence]) -> None:
    if not text:
        assert sentences == []
        return
    raw = text.encode("utf-8")
    assert sentences[0].start == 0 and sentences[0].byte_start == 0
    assert sentences[-1].end == len(text) and sentences[-1].byte_end == len(raw)
    for k, s in enumerate(sentences):
        assert s.index == k
        assert s.start < s.end and s.byte_start < s.byte_end
        assert s.start <= s.content_end <= s.end
        assert s.byte_start <= s.byte_content_end <= s.byte_end
        assert text[s.start : s.end] == s.text
        assert raw[s.byte_start : s.byte_end].decode("utf-8") == s.text
        assert raw[s.byte_start : s.byte_content_end].decode("utf-8") == s.content
        assert text[s.start : s.content_end] == s.content
        assert s.text[len(s.content) :].strip(WHITESPACE) == ""
        if k + 1 < len(sentences):
            assert s.end == sentences[k + 1].start and s.byte_end == sentences[k + 1].byte_start
    assert "".join(s.text for s in sentences) == text


@given(any_text)
def test_sentences_tile_the_text_in_chars_and_bytes(text: str) -> None:
    check_tiling(text, split_sentences(text))


@given(any_text, st.integers(0, 40), st.integers(0, 80), st.integers(0, 40))
def test_tiling_holds_for_any_bounds(text: str, inline: int, display: int, boxed: int) -> None:
    opts = SplitOptions(max_inline_bytes=inline, max_display_bytes=display, max_boxed_bytes=boxed)
    sentences = split_sentences(text, options=opts)
    check_tiling(text, sentences)
    for region in math_regions(text, options=opts):
        assert text[region.start : region.end] == region.text
        assert len(region.text.encode("utf-8")) <= {
            "inline_dollar": inline, "inline_paren": inline, "boxed": boxed
        }.get(region.kind, display)
        assert not any(region.start < s.start < region.end for s in sentences)


@given(st.lists(any_text, max_size=12))
@settings(max_examples=60)
def test_batch_equals_single_for_every_thread_count(texts: list[str]) -> None:
    single = [split_sentences(t) for t in texts]
    for threads in (1, 2, 3, None):
        assert split_sentences_batch(texts, threads=threads) == single
    assert split_sentences_batch(tuple(texts), threads=2) == single


def texts_of(text: str) -> list[str]:
    return [s.text for s in split_sentences(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", []),
        ("Hi. How are you? Fine!", ["Hi. ", "How are you? ", "Fine!"]),
        ("one\ntwo\n\n  three", ["one\n", "two\n\n  ", "three"]),
        ("Really?! Yes... Sure.) So.** Done.’ End", ["Really?! ", "Yes... ", "Sure.) ", "So.** ", "Done.’ ", "End"]),
        ("Pi is 3.14 and e is 2.718. Next.", ["Pi is 3.14 and e is 2.718. ", "Next."]),
        ("Use e.g. this, i.e. that, vs. them, approx. 3, cf. Fig. 2, Eq. 5, Dr. X now.", None),
        ("Mr. and Mrs. Smith. Then", ["Mr. and Mrs. Smith. ", "Then"]),
        ("Item No. 5 works. Is 9 prime? No. It is 3^2.", ["Item No. 5 works. ", "Is 9 prime? ", "No. ", "It is 3^2."]),
        ("apples, etc. and pears, etc. Then", ["apples, etc. and pears, etc. ", "Then"]),
        ("1. First. 2) second\n(iii) third\n  a. alpha\n**Step 2.** Add.", ["1. First. ", "2) second\n", "(iii) third\n  ", "a. alpha\n", "**Step 2.** Add."]),
        ("this is case 2. Now", ["this is case 2. ", "Now"]),
        ("So $x = 1. y$ holds. And \\(a. b\\) too.", ["So $x = 1. y$ holds. ", "And \\(a. b\\) too."]),
        ("We get:\n\\[\nx = 1.\ny = 2\n\\]\nThus x.", ["We get:\n", "\\[\nx = 1.\ny = 2\n\\]\n", "Thus x."]),
        ("A \\begin{align*}a. &b\\\\\nc\\end{align*} B. C", ["A \\begin{align*}a. &b\\\\\nc\\end{align*} B. ", "C"]),
        ("So \\boxed{\\{1. 2\\}}. Next", ["So \\boxed{\\{1. 2\\}}. ", "Next"]),
        ("**Final Answer**\n\\[\n\\boxed{5}\n\\]", ["**Final Answer**\n", "\\[\n\\boxed{5}\n\\]"]),
        ("# Heading\n- item one.\n- item two", ["# Heading\n", "- item one.\n", "- item two"]),
        ("costs $5 and $10. Done", ["costs $5 and $10. ", "Done"]),
        ("Then $x. More\n\nEnd. $", ["Then $x. ", "More\n\n", "End. ", "$"]),
        ("\\[ a. b\n\ncc. d", ["\\[ a. ", "b\n\n", "cc. ", "d"]),
        ("\\begin{align} a. b", ["\\begin{align} a. ", "b"]),
        ("Find $m+n+p.\nLet $ABCD$ be", ["Find $m+n+p.\n", "Let $ABCD$ be"]),
        ("   \n ", ["   \n "]),
    ],
)
def test_rules(text: str, expected: list[str] | None) -> None:
    assert texts_of(text) == (expected if expected is not None else [text])


def test_content_end_is_the_anchor_position() -> None:
    text = "  So x = 5.  \nWait\t\n"
    first, second = split_sentences(text)
    assert text[first.content_end - 1] == "." and first.content == "  So x = 5."
    assert second.content == "Wait" and second.text == "Wait\t\n"
    (blank,) = split_sentences(" \n\t")
    assert blank.content_end == blank.start == 0


def test_character_and_byte_offsets_differ_with_wide_characters() -> None:
    text = "Ça coûte 5€. 😀 Fin."
    first, second = split_sentences(text)
    assert (first.start, first.end, second.start) == (0, 13, 13)
    assert (first.byte_end, second.byte_start) == (len("Ça coûte 5€. ".encode()), len("Ça coûte 5€. ".encode()))


def test_math_regions_api() -> None:
    text = "a $x$ b \\(y\\) c $$z$$ d \\[w\\] e \\begin{cases}p\\end{cases} f \\boxed{q} é \\fbox{r}"
    kinds = [(r.kind, r.text) for r in math_regions(text)]
    assert kinds == [
        ("inline_dollar", "$x$"),
        ("inline_paren", "\\(y\\)"),
        ("display_dollar", "$$z$$"),
        ("display_bracket", "\\[w\\]"),
        ("environment", "\\begin{cases}p\\end{cases}"),
        ("boxed", "\\boxed{q}"),
        ("boxed", "\\fbox{r}"),
    ]
    last = math_regions(text)[-1]
    assert text[last.start : last.end] == last.text
    assert last.byte_end == len(text.encode()) and last.end == len(text)


def test_split_options() -> None:
    default = SplitOptions()
    assert (default.max_inline_bytes, default.max_display_bytes, default.max_boxed_bytes) == (4096, 16384, 4096)
    assert SplitOptions(1, 2, 3) == SplitOptions(max_inline_bytes=1, max_display_bytes=2, max_boxed_bytes=3)
    assert SplitOptions(1, 2, 3) != default and hash(SplitOptions(1, 2, 3)) == hash(SplitOptions(1, 2, 3))
    assert pickle.loads(pickle.dumps(SplitOptions(7, 8, 9))) == SplitOptions(7, 8, 9)
    assert "max_inline_bytes=4096" in repr(default)
    with pytest.raises(ValueError, match="max_display_bytes"):
        SplitOptions(max_display_bytes=-1)
    tight = SplitOptions(max_inline_bytes=4)
    assert texts_of("So $a. b$ c. D") == ["So $a. b$ c. ", "D"]
    assert [s.text for s in split_sentences("So $a. b$ c. D", options=tight)] == ["So $a. ", "b$ c. ", "D"]


def test_sentence_objects() -> None:
    a, b = split_sentences("Hi. Yo")
    assert a == split_sentences("Hi. Yo")[0] and a != b
    assert a != split_sentences("Ho. Yo")[0], "same offsets, different text"
    assert hash(a) == hash(split_sentences("Hi. Yo")[0])
    assert repr(a) == "Sentence(index=0, start=0, end=4, content_end=3, text='Hi. ')"
    assert (a == 1) is False


def test_wrong_types_name_the_argument() -> None:
    with pytest.raises(TypeError, match="text must be str, got int"):
        split_sentences(5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"texts\[1\] must be str"):
        split_sentences_batch(["a", b"b"])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="texts must be a list of str"):
        split_sentences_batch("abc")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="options"):
        split_sentences("a", options={"max_inline_bytes": 1})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="threads"):
        split_sentences_batch(["a"], threads=0)
    with pytest.raises(TypeError):
        math_regions(None)  # type: ignore[arg-type]


def test_lone_surrogates_are_a_value_error() -> None:
    with pytest.raises(ValueError, match="not valid Unicode"):
        split_sentences("a\ud800b")


def test_forked_child_can_run_a_batch() -> None:
    """A child forked after the parent used the thread pool must not deadlock on it."""
    code = textwrap.dedent(
        """
        import os, apr_fast
        texts = ["One. Two. Three."] * 64
        expected = apr_fast.split_sentences_batch(texts, threads=2)
        pid = os.fork()
        if pid == 0:
            ok = apr_fast.split_sentences_batch(texts, threads=2) == expected
            ok = ok and len(apr_fast.segment_batch(texts, threads=2)) == 64
            os._exit(0 if ok else 1)
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0, status
        print("ok")
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
