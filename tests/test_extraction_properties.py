"""Properties of the extraction API on generated text (hypothesis)."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import apr_fast

FRAGMENTS = [
    "$", "$$", "\\(", "\\)", "\\[", "\\]", "\\boxed{", "\\fbox{", "{", "}", "\\{", "\\}", "(", ")", "[",
    "]", "\\frac{1}{2}", "\\sqrt{3}", "\\pi", "=", "<", "\\approx", "+", "-", "*", "/", "^", ",", ".",
    " ", "\n", "x", "n", "the answer is ", "Answer: ", "</think>", "(B)", "twelve", "one", "17", "3.5",
    "1,000", "√2", "π", "²", "é", "😀", "\x00", "**",
]
mathy = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=3)), max_size=40).map("".join)
any_text = st.one_of(st.text(), mathy)


@settings(max_examples=400, deadline=None)
@given(any_text)
def test_candidate_char_spans_slice_their_source(text: str) -> None:
    encoded = text.encode()
    for c in apr_fast.extract_candidates(text):
        source = text[c.start : c.end]
        assert source and encoded[c.byte_start : c.byte_end].decode() == source
        if c.kind not in ("number_word", "text", "worded_expression"):
            assert c.text == source


# Text around a statement; without `$` or `\`, which could open math around it.
plain = st.text(st.characters(blacklist_characters="$\\", blacklist_categories=("Cs",)), max_size=20)


@settings(max_examples=200, deadline=None)
@given(plain, st.integers(), plain)
def test_a_number_between_any_texts_is_found_where_it_is(prefix: str, n: int, suffix: str) -> None:
    sentence = f"{prefix} so the answer is \\({n}\\). {suffix}"
    spans = [(c.start, c.end, c.text) for c in apr_fast.extract_candidates(sentence)]
    start = len(prefix) + len(" so the answer is \\(")
    assert (start, start + len(str(n)), str(n)) in spans


@settings(max_examples=300, deadline=None)
@given(any_text)
def test_final_answer_span_lies_inside_the_response(response: str) -> None:
    found = apr_fast.extract_final(response)
    if found is not None:
        assert 0 <= found.start <= found.end <= len(response)
        assert response.encode()[found.byte_start : found.byte_end].decode() == response[found.start : found.end]
        assert found.text
        close = response.find("</think>")
        assert found.in_thinking == (close < 0 or found.end <= close)


@settings(max_examples=60, deadline=None)
@given(st.lists(any_text, max_size=12))
def test_batch_equals_single_for_every_thread_count(texts: list[str]) -> None:
    singles_final = [apr_fast.extract_final(t) for t in texts]
    singles_candidates = [apr_fast.extract_candidates(t) for t in texts]
    for threads in (1, 2, None):
        assert apr_fast.extract_final_batch(texts, threads=threads) == singles_final
        assert apr_fast.extract_candidates_batch(texts, threads=threads) == singles_candidates


@settings(max_examples=200, deadline=None)
@given(any_text)
def test_extraction_is_deterministic(text: str) -> None:
    assert apr_fast.extract_candidates(text) == apr_fast.extract_candidates(text)
    assert apr_fast.extract_final(text) == apr_fast.extract_final(text)
