"""How long texts cross from Python into the native engine.

A response that is not ASCII is read from its code points and encoded to UTF-8 by apr_fast
(``TextReader`` in ``rust/bindings/mod.rs``), a part of a batch at a time, instead of asking
CPython for its UTF-8. Whatever the representation (ASCII, Latin-1, BMP, astral), in whichever
part of a batch, the results must be what the same text gives alone, with consistent character
and byte offsets; bad items are named errors.
"""
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import apr_fast
from apr_fast import extract_final, extract_final_batch, is_correct, is_correct_batch

# Characters of every width: ASCII, Latin-1 (é), two-byte (π), three-byte (×, 答), four-byte (😀).
PIECES = ["x = 3. ", "So ", "é", "π", "×", "答案", "😀", " \\boxed{", "}", "$", "\n", "</think>", "12", "\\frac{1}{2}"]

texts = st.lists(st.sampled_from(PIECES), max_size=40).map("".join)


def test_representations_give_the_same_answer_and_offsets() -> None:
    for prefix in ["", "é", "π", "😀", "答" * 300]:
        response = f"<think>{prefix} so it is 5.</think> {prefix} The answer is $\\boxed{{5}}$."
        found = extract_final(response)
        assert found is not None and found.text == "5"
        assert response[found.start : found.end] == "5"
        assert response.encode()[found.byte_start : found.byte_end] == b"5"
        assert is_correct(response, "5", cas=False).correct


@settings(max_examples=60, deadline=None)
@given(st.lists(texts, min_size=1, max_size=12), st.integers(0, 300))
def test_a_batch_reads_every_item_as_it_reads_one(items: list[str], pad: int) -> None:
    # Padding moves the items across the boundary between the parts a batch is read in.
    batch = ["plain ASCII filler"] * pad + items
    finals = extract_final_batch(batch, threads=2)
    outcomes = is_correct_batch(batch, ["5"] * len(batch), cas=False, threads=2)
    for text, found, outcome in zip(batch, finals, outcomes):
        alone = extract_final(text)
        assert found == alone and outcome.final_answer == alone
        assert outcome == is_correct(text, "5", cas=False)
        if found is not None:
            assert text.encode()[found.byte_start : found.byte_end].decode() == text[found.start : found.end]


def test_scores_from_text_do_not_depend_on_the_representation() -> None:
    scorer = apr_fast.APRScorer(apr_fast.RewardConfig(cas=False))
    ascii_text = "<think>We get 5. Let me check: yes.</think> $\\boxed{5}$"
    wide = ascii_text.replace("We get", "答案: we get")
    rows = scorer.score_batch([ascii_text, wide, ascii_text], ["5", "5", "5"], threads=1)
    assert rows[0] == rows[2]
    assert rows[1].correct and rows[1].anchor_sentence == rows[0].anchor_sentence
    assert rows[1].anchor_end == rows[0].anchor_end + len("答案: ")
    assert rows[1].final_answer == rows[0].final_answer == "5"


def test_bad_items_are_named_errors() -> None:
    good = "<think>a</think> \\boxed{1}"
    for call in (
        lambda rs: is_correct_batch(rs, ["1"] * len(rs), cas=False),
        lambda rs: extract_final_batch(rs),
        lambda rs: apr_fast.APRScorer(apr_fast.RewardConfig(cas=False)).score_batch(rs, ["1"] * len(rs)),
    ):
        # The bad item lies in the second part of the batch.
        responses = [good] * 300 + ["π\ud800"]
        with pytest.raises(ValueError, match=r"responses\[300\] is not valid Unicode"):
            call(responses)
        with pytest.raises(TypeError, match=r"responses\[2\] must be str, got int"):
            call([good, "π", 3])
    with pytest.raises(ValueError, match="not valid Unicode"):
        extract_final("π\udfff")


def test_a_text_longer_than_one_read_is_read_in_slices() -> None:
    """Past 2**20 code points a text is copied out of CPython a slice at a time."""
    head = "<think>" + "π = 3.14; " * 120_000  # 1.2M code points
    response = head + "so 7</think> The answer is $\\boxed{7}$."
    found = extract_final(response)
    assert found is not None and found.text == "7"
    assert response[found.start : found.end] == "7"
    assert response.encode()[found.byte_start : found.byte_end] == b"7"
    assert is_correct_batch([response], ["7"], cas=False)[0].correct
    with pytest.raises(ValueError, match=r"responses\[0\] is not valid Unicode"):
        is_correct_batch([head + "\udc80" + "</think> \\boxed{7}"], ["7"], cas=False)


def test_a_str_subclass_is_read_as_its_text() -> None:
    class Response(str):
        pass

    response = Response("<think>π so 7</think> \\boxed{7}")
    assert is_correct_batch([response], ["7"], cas=False)[0].correct
    assert extract_final(response) == extract_final(str(response))


@pytest.mark.parametrize("length", [0, 3, 10**6])
def test_a_subclass_that_misstates_its_length_is_read_by_its_text(length: int) -> None:
    """The string's own length counts, not ``__len__``: a wrong one could make the reader copy
    fewer code points than it reads, or count character offsets from the wrong end."""

    class Liar(str):
        def __len__(self) -> int:
            return length

    text = "<think>π × ≤ so 7</think> The answer is \\boxed{7}."
    expected = extract_final(text)
    assert expected is not None
    for response in (Liar(text), Liar(text.replace("π × ≤ ", ""))):
        plain = str(response)
        assert extract_final(response) == extract_final(plain)
        assert extract_final_batch([response]) == [extract_final(plain)]
        outcome = is_correct_batch([response], ["7"], cas=False)[0]
        assert outcome.correct and outcome.final_answer == extract_final(plain)


@pytest.mark.skipif(sys.implementation.name != "cpython", reason="CPython's str layout")
def test_a_response_keeps_no_utf8_copy() -> None:
    """CPython counts a str's UTF-8 copy, once made, in its size: none is made for the batch."""
    response = "<think>" + "π × 答 " * 2000 + "so 7</think> \\boxed{7}"
    size = sys.getsizeof(response)
    assert is_correct_batch([response], ["7"], cas=False)[0].correct
    assert extract_final_batch([response])[0] is not None
    assert sys.getsizeof(response) == size
    # The check can see a copy: splitting sentences borrows CPython's UTF-8 (sentence objects
    # slice the text again on access), and the string grows by it.
    apr_fast.split_sentences(response)
    assert sys.getsizeof(response) > size


# A response that is not ASCII is read by its end when the box after its last closing tag
# decides the final answer there (``TextReader::read_part_or_ends``, in ``is_correct_batch`` and
# ``extract_final_batch``): the answer must be what reading it whole (``extract_final``) gives,
# offsets included, also where the end does not decide and the whole is read after all.
LONG = "答案 π × " * 30  # 180 code points: the end starts past the response's start

END_CASES = {
    "box after the tag": f"<think>{LONG} so 5.</think> {LONG} so $\\boxed{{5}}$.",
    "brace closed just before the box": f"<think>{LONG}</think> so $\\frac{{1}}{{2}}$, \\boxed{{\\frac12}}",
    "brace from before the tag closed after it": f"<think>\\boxed{{3 {LONG}</think> x}}, \\boxed{{4}}",
    "no delimiter before the tag": f"<think>{LONG.replace(' ', '')}</think>\\boxed{{6}}",
    "brace-less box before the tag": f"{LONG} \\boxed 12</think>5, \\boxed{{6}}",
    "boxes in a row": f"{LONG}</think> \\boxed{{2}}, \\boxed{{3}} and \\boxed{{2}}",
    "box only in the thinking": f"<think>{LONG} \\boxed{{3}}</think> done, π.",
    "two tags": f"{LONG}</think> \\boxed{{1}} {LONG}</think> \\boxed{{2}}",
    "answer phrase after the tag": f"{LONG}</think> The answer is 7 π.",
    "tag too close to the start": f"π</think> \\boxed{{8}}",
}


@pytest.mark.parametrize("think_tags", [None, "auto", "harmony", ("<reasoning>", "</reasoning>")])
@pytest.mark.parametrize("case", sorted(END_CASES))
def test_an_outcome_read_by_its_end_is_the_outcome_read_whole(case: str, think_tags: object) -> None:
    response = END_CASES[case]
    if isinstance(think_tags, tuple):
        response = response.replace("<think>", think_tags[0]).replace("</think>", think_tags[1])
    kwargs = {} if think_tags is None else {"think_tags": think_tags}
    # extract_final reads the whole text: the reference.
    whole = extract_final(response, **kwargs)  # type: ignore[arg-type]
    assert extract_final_batch([response], **kwargs) == [whole]  # type: ignore[arg-type]
    for require in (False, True):
        outcome = is_correct_batch([response], ["5"], cas=False, require_answer_after_think=require, **kwargs)[0]  # type: ignore[arg-type]
        expected = None if require and whole is not None and whole.in_thinking else whole
        assert outcome.final_answer == expected, case
        if expected is not None:
            assert response[expected.start : expected.end] == response.encode()[expected.byte_start : expected.byte_end].decode()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([LONG, "</think>", " \\boxed{", "}", "{", "\\boxed 8", ", ", "5", " ", "π", "x"]), max_size=16).map("".join))
def test_any_response_read_by_its_end_is_read_as_whole(response: str) -> None:
    outcome = is_correct_batch([response], ["5"], cas=False)[0]
    assert outcome.final_answer == extract_final(response) == extract_final_batch([response])[0]


def test_a_surrogate_in_the_end_is_a_named_error() -> None:
    response = f"{LONG}</think> \\boxed{{7\udc80}}"
    with pytest.raises(ValueError, match=r"responses\[1\] is not valid Unicode"):
        is_correct_batch(["ok", response], ["7", "7"], cas=False)


@pytest.mark.parametrize("before", [LONG, LONG * 20])  # within the first read of the end, and not
def test_a_surrogate_before_the_end_is_not_read(before: str) -> None:
    """The thinking before the end is not read, so nothing finds a lone surrogate there; the
    answer's byte offsets, counted when asked, count it as "surrogatepass" encodes it."""
    response = f"{before}\udc80{LONG}</think> \\boxed{{7}}"
    for found in (is_correct_batch(["ok", response], ["7", "7"], cas=False)[1].final_answer, extract_final_batch([response])[0]):
        assert found is not None and found.text == "7" and response[found.start : found.end] == "7"
        assert response.encode("utf-8", "surrogatepass")[found.byte_start : found.byte_end] == b"7"
    with pytest.raises(ValueError, match="not valid Unicode"):
        extract_final(response)  # one response is read whole


@pytest.mark.parametrize("end_length", [1983, 1984, 1985, 2047, 2048, 2049, 2056, 5000])
def test_an_end_longer_than_the_first_read_is_read_whole(end_length: int) -> None:
    """The end is read 2,048 code points first (``TAIL_READ``); when the last tag, or the 64
    code points of context before it, lie further back, the response is read whole."""
    box = " \\boxed{5}"
    end = "</think>" + "π" * (end_length - len("</think>") - len(box)) + box
    assert len(end) == end_length
    response = LONG * 20 + "</think> \\boxed{4} " + LONG + end
    whole = extract_final(response)
    assert whole is not None and whole.text == "5"
    found = is_correct_batch([response], ["5"], cas=False)[0].final_answer
    assert found == whole == extract_final_batch([response])[0]
    assert found is not None and (found.byte_start, found.byte_end) == (whole.byte_start, whole.byte_end)
    assert response.encode()[found.byte_start : found.byte_end] == b"5"


def test_a_final_answer_lets_its_response_go_once_its_offsets_are_counted() -> None:
    response = LONG + "</think> \\boxed{7}"
    found = extract_final_batch([response])[0]
    assert found is not None
    before = sys.getrefcount(response)
    assert (found.byte_start, found.byte_end) == (len(LONG.encode()) + len(b"</think> \\boxed{"), len(response.encode()) - 1)
    assert sys.getrefcount(response) == before - 1
