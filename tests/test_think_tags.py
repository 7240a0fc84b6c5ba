"""Think tags by model family (apr_fast.think_tags): presets by name, gpt-oss's harmony format
on text and on token ids, and the warnings that catch a policy scored with the wrong tags."""
from __future__ import annotations

import json
import logging
import pickle
import re

import pytest

import apr_fast
from apr_fast import APRScorer, RewardConfig
from apr_fast.think_tags import THINK_TAG_PRESETS, resolve_think_tags

from harmony_format import TOKENIZER, as_family, as_harmony, as_stripped_harmony, harmony_tokenizer
from test_reward import load_samples

def test_presets_are_named_everywhere() -> None:
    assert apr_fast.THINK_TAG_PRESETS == THINK_TAG_PRESETS
    assert THINK_TAG_PRESETS["think"] == apr_fast.DEFAULT_THINK_TAGS == ("<think>", "</think>")
    assert THINK_TAG_PRESETS["harmony"] == ("<|channel|>analysis<|message|>", "<|end|>")
    for name, tags in THINK_TAG_PRESETS.items():
        assert RewardConfig(think_tags=name).think_tags == tags == resolve_think_tags(name)
        assert resolve_think_tags(list(tags)) == tags
    response = "<|channel|>analysis<|message|>so \\boxed{4}?<|end|><|start|>assistant<|channel|>final<|message|>\\boxed{5}"
    assert apr_fast.extract_final(response, think_tags="harmony").text == "5"
    assert apr_fast.extract_final_batch([response], think_tags="harmony")[0].text == "5"
    assert apr_fast.extract_final(response).text == "5"  # the last box; read as thinking without a </think>
    assert apr_fast.extract_final(response).in_thinking
    assert apr_fast.is_correct(response, "5", cas=False, think_tags="harmony").final_answer.in_thinking is False
    with pytest.raises(apr_fast.ConfigError, match="harmony"):  # the message lists the names
        RewardConfig(think_tags="gpt-oss")
    with pytest.raises(TypeError, match="a preset name"):
        apr_fast.extract_final(response, think_tags=("<think>", "</think>", "x"))


def test_a_bare_final_message_is_the_answer() -> None:
    """gpt-oss's final channel holding the value alone: read past the channel header and
    <|return|>, as a bare value after </think> is (and R1 text decoded with its end token)."""
    harmony = ("<|channel|>analysis<|message|>So the probability is 3/20.<|end|><|start|>assistant<|channel|>final"
               "<|message|>\n\n$\\frac{3}{20}$<|return|>")
    s = APRScorer(RewardConfig(cas=False, think_tags="harmony")).score(harmony, "0.15")
    assert (s.status, s.correct, s.final_answer, s.final_answer_rule) == ("ok", True, "\\frac{3}{20}", "bare_after_think")
    assert harmony[s.final_answer_span[0]:s.final_answer_span[1]] == "\\frac{3}{20}"
    r1 = apr_fast.is_correct("<think>So it is 3/20.</think>\n\n0.15<｜end▁of▁sentence｜>", "\\frac{3}{20}", cas=False)
    assert r1.correct and r1.final_answer.rule == "bare_after_think"


def test_an_answer_with_no_analysis_is_complete() -> None:
    """gpt-oss may answer in the final channel with no analysis message: complete, with empty
    thinking, from text and from token ids; a correct answer gets the full reward."""
    tokenizer = harmony_tokenizer()
    response = "<|channel|>final<|message|>The answer is \\boxed{5}.<|return|>"
    scorer = APRScorer(RewardConfig(cas=False, think_tags="harmony"), tokenizer=tokenizer)
    ids = tokenizer.encode(response, add_special_tokens=False).ids
    for s in (scorer.score(response, "5"), scorer.score_token_ids([ids], ["5"])[0]):
        assert (s.status, s.has_think_close, s.correct, s.reward, s.t_think) == ("empty_thinking", True, True, 1.0, 0)
        assert s.final_answer_rule == "boxed_after_think"


def test_an_answer_with_no_analysis_decoded_without_its_markers_is_complete() -> None:
    """The same answer decoded the way verl's managers decode (``skip_special_tokens=True``)
    reads ``final...``: complete with empty thinking too, through compute_score and the
    scorer; thinking that starts with "finally" or "final " is not taken for it."""
    from apr_fast.verl.compute_score import compute_score

    for text in ("finalThe answer is \\boxed{5}.", "final5"):
        s = APRScorer(RewardConfig(cas=False, think_tags="harmony")).score(text, "5")
        assert (s.status, s.has_think_close, s.correct, s.reward, s.t_think) == ("empty_thinking", True, True, 1.0, 0)
        out = compute_score("math", text, "5", None, think_tags="harmony", cas=False)
        assert (out["score"], out["acc"], out["pred"], out["t_think"]) == (1.0, 1.0, "5", 0.0)
    for thinking in ("finally, \\boxed{5}", "final check: \\boxed{5}"):
        s = APRScorer(RewardConfig(cas=False, think_tags="harmony")).score(thinking, "5")
        assert (s.status, s.reward) == ("truncated", 0.0)


def test_harmony_text_encoded_natively_with_o200k_scores_as_its_token_ids() -> None:
    """gpt-oss's pre-tokenizer (o200k's pattern) with harmony's markers: text encoded natively
    (no fallback to tokenizers) gives the tokens, T_think, L_AST and reward of the token ids."""
    tokenizer = harmony_tokenizer(o200k=True)
    rows = load_samples()
    responses = [as_harmony(r["completion"]) for r in rows]
    gts = [r["ground_truth"] for r in rows]
    config = RewardConfig(cas=False, think_tags="harmony")
    by_text = APRScorer(config, tokenizer=tokenizer)
    assert by_text._encoder is not None, "o200k's pattern is encoded natively"
    ids = [tokenizer.encode(r, add_special_tokens=False).ids for r in responses]
    assert [by_text._encoder.encode(r) for r in responses] == ids
    from_text = by_text.score_batch(responses, gts)
    from_ids = by_text.score_token_ids(ids, gts)
    figures = [[(s.status, s.t_think, s.l_ast, s.anchor_token, s.reward) for s in scores] for scores in (from_text, from_ids)]
    assert figures[0] == figures[1]
    assert sum(s.l_ast > 0 for s in from_ids) > len(rows) // 4


def test_harmony_text_scores_as_think_does() -> None:
    """The bundled traces written in harmony's format, special tokens kept in the text: the
    same statuses, answers, anchors, lengths and rewards as with <think>/</think>."""
    rows = load_samples()
    responses = [r["completion"] for r in rows]
    gts = [r["ground_truth"] for r in rows]
    standard = APRScorer(RewardConfig(cas=False)).score_batch(responses, gts)
    harmony = APRScorer(RewardConfig(cas=False, think_tags="harmony")).score_batch(list(map(as_harmony, responses)), gts)
    figures = [[(s.status, s.reward, s.correct, s.final_answer, s.anchor_sentence, s.t_think, s.l_ast)
                for s in scores] for scores in (standard, harmony)]
    assert figures[0] == figures[1]
    assert {s.status for s in harmony} >= {"ok", "truncated"}


def test_harmony_token_ids_score_as_text_and_as_think(caplog) -> None:
    """Token ids of harmony-format rollouts (markers as special tokens, decoded with them kept):
    ``<|end|>`` found by its id; the same tokens counted as from the text and as <think>/</think>
    count in the original vocabulary."""
    tokenizer = harmony_tokenizer()
    rows = load_samples()[:16]
    responses = [as_harmony(r["completion"]) for r in rows]
    gts = [r["ground_truth"] for r in rows]
    ids = [tokenizer.encode(r, add_special_tokens=False).ids for r in responses]
    end = tokenizer.token_to_id("<|end|>")
    assert sum(end in i for i in ids) >= 12
    scorer = APRScorer(RewardConfig(cas=False, think_tags="harmony"), tokenizer=tokenizer)
    from_ids = scorer.score_token_ids(ids, gts)
    from_text = scorer.score_batch(responses, gts)
    r1 = APRScorer(RewardConfig(cas=False), tokenizer=pytest.importorskip("tokenizers").Tokenizer.from_file(str(TOKENIZER)))
    standard = r1.score_batch([r["completion"] for r in rows], gts)
    figures = [[(s.status, s.reward, s.t_think, s.l_ast, s.anchor_sentence) for s in scores]
               for scores in (from_ids, from_text, standard)]
    assert figures[0] == figures[1] == figures[2]
    assert all(s.length_unit == "tokens" for s in from_ids)
    assert [tokenizer.decode(i, skip_special_tokens=True) for i in ids] == list(map(as_stripped_harmony, (r["completion"] for r in rows)))


def test_harmony_text_decoded_without_its_markers(caplog) -> None:
    """gpt-oss text decoded the way verl's own managers decode it (``skip_special_tokens=True``:
    ``analysis...assistantfinal...``): with think_tags='harmony' it is read by those words,
    with the same figures in characters as <think>/</think>; with the default tags it scores
    as truncated and a warning names the preset."""
    rows = load_samples()
    responses = [r["completion"] for r in rows]
    gts = [r["ground_truth"] for r in rows]
    stripped = list(map(as_stripped_harmony, responses))
    assert stripped[0].startswith("analysis") and "assistantfinal" in stripped[0]
    standard = APRScorer(RewardConfig(cas=False)).score_batch(responses, gts)
    harmony = APRScorer(RewardConfig(cas=False, think_tags="harmony")).score_batch(stripped, gts)
    figures = [[(s.status, s.reward, s.correct, s.final_answer, s.anchor_sentence, s.t_think, s.l_ast)
                for s in scores] for scores in (standard, harmony)]
    assert figures[0] == figures[1]
    for s, text, response in zip(harmony, stripped, responses):
        thinking = response.partition("</think>")[0].removeprefix("<think>")
        assert text[s.thinking_span[0]:s.thinking_span[1]] == thinking
        assert apr_fast._core.thinking_span(text, think_tags="harmony")[:2] == s.thinking_span
        final = apr_fast.extract_final(text, think_tags="harmony")
        assert (final.text if final else None) == s.final_answer
    # Marked text whose thinking starts with the word (the prompt opened the channel) is read by
    # its markers.
    marked = "analysis of the cases gives 5.<|end|><|start|>assistant<|channel|>final<|message|>\\boxed{5}"
    s = APRScorer(RewardConfig(cas=False, think_tags="harmony")).score(marked, "5")
    assert (s.status, s.thinking_span, s.final_answer_rule) == ("ok", (0, 30), "boxed_after_think")
    with caplog.at_level(logging.WARNING, logger="apr_fast.think_tags"):
        plain = APRScorer(RewardConfig(cas=False))
        assert {s.status for s in plain.score_batch(stripped, gts)} == {"truncated"}
        plain.score_batch(stripped, gts)
    assert len(caplog.records) == 1
    message = caplog.records[0].getMessage()
    assert "skip_special_tokens=True" in message and "think_tags='harmony'" in message
    assert f"{sum('assistantfinal' in s for s in stripped)} response(s)" in message


def test_a_gpt_oss_vocabulary_scored_with_think_tags_is_flagged(caplog) -> None:
    """A vocabulary with harmony's markers and no </think>: scored with the default tags, every
    response would be truncated; the scorer says to set think_tags='harmony'. A vocabulary
    with only an <|end|> token (Phi-3 ends its turns with one) is not taken for gpt-oss's."""
    tokenizers = pytest.importorskip("tokenizers")
    gpt_oss_like = harmony_tokenizer(without_think=True)
    with caplog.at_level(logging.WARNING, logger="apr_fast.think_tags"):
        APRScorer(RewardConfig(cas=False, think_tags="harmony"), tokenizer=gpt_oss_like)
        assert caplog.records == []
        APRScorer(RewardConfig(cas=False), tokenizer=gpt_oss_like)
    assert len(caplog.records) == 1
    assert "think_tags='harmony'" in caplog.records[0].getMessage()

    caplog.clear()
    spec = json.loads(TOKENIZER.read_text(encoding="utf-8"))
    spec["added_tokens"] = [a for a in spec["added_tokens"] if a["content"] not in ("<think>", "</think>")]
    phi_like = tokenizers.Tokenizer.from_str(json.dumps(spec))
    phi_like.add_special_tokens(["<|end|>"])
    with caplog.at_level(logging.WARNING, logger="apr_fast.think_tags"):
        APRScorer(RewardConfig(cas=False), tokenizer=phi_like)
    assert caplog.records == []

    # Text alone: truncated rows that hold <|end|> point to the preset.
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="apr_fast.think_tags"):
        APRScorer(RewardConfig(cas=False)).score_batch([as_harmony("<think>So x = 5.</think> \\boxed{5}")], ["5"])
    assert len(caplog.records) == 1 and "think_tags='harmony'" in caplog.records[0].getMessage()


def test_auto_reads_each_response_by_its_family() -> None:
    """One batch mixing every family's writing (and gpt-oss text decoded without its markers),
    scored with think_tags='auto': each response gets what the scorer with its own family's
    tags gives it, truncated ones included; so do the outcome check and final-answer
    extraction."""
    rows = load_samples()
    gts = [r["ground_truth"] for r in rows]
    families = [*THINK_TAG_PRESETS, "stripped"]
    mixed = [as_family(r["completion"], families[i % len(families)]) for i, r in enumerate(rows)]
    auto = APRScorer(RewardConfig(cas=False, think_tags="auto"))
    assert auto.config.think_tags == "auto"
    got = auto.score_batch(mixed, gts)

    def figures(s):
        return (s.status, s.reward, s.correct, s.final_answer, s.thinking_span, s.anchor_sentence, s.t_think, s.l_ast)

    for i, (response, gt, score) in enumerate(zip(mixed, gts, got)):
        name = families[i % len(families)]
        own = APRScorer(RewardConfig(cas=False, think_tags="harmony" if name == "stripped" else name))
        assert figures(score) == figures(own.score(response, gt)), (i, name)
        final = apr_fast.extract_final(response, think_tags="auto")
        assert (final.text if final else None) == score.final_answer
    assert {s.status for s in got} >= {"ok", "truncated"}
    assert [c.correct for c in apr_fast.is_correct_batch(mixed, gts, cas=False, think_tags="auto")] == [s.correct for s in got]
    # As <think>/</think> scores the original responses.
    standard = APRScorer(RewardConfig(cas=False)).score_batch([r["completion"] for r in rows], gts)
    assert [s.reward for s in got] == [s.reward for s in standard]


def test_auto_settles_on_the_family_of_the_vocabulary(caplog) -> None:
    """A scorer with a vocabulary that holds one family's tags reads that family's (its config
    says which, an INFO line too), finding the closing tag by its token id; one whose
    vocabulary holds two families' tags reads each response by its own, with the same figures
    from token ids."""
    rows = load_samples()[:16]
    gts = [r["ground_truth"] for r in rows]
    harmony_responses = [as_harmony(r["completion"]) for r in rows]
    gpt_oss_like = harmony_tokenizer(without_think=True)
    with caplog.at_level(logging.INFO, logger="apr_fast.reward"):
        settled = APRScorer(RewardConfig(cas=False, think_tags="auto"), tokenizer=gpt_oss_like)
    assert settled.config.think_tags == THINK_TAG_PRESETS["harmony"]
    assert any("think_tags='auto'" in r.getMessage() for r in caplog.records)
    assert pickle.loads(pickle.dumps(settled)).config.think_tags == THINK_TAG_PRESETS["harmony"]
    r1 = APRScorer(RewardConfig(cas=False, think_tags="auto"), vocabulary=apr_fast.Vocabulary.from_file(TOKENIZER))
    assert r1.config.think_tags == ("<think>", "</think>")

    explicit = APRScorer(RewardConfig(cas=False, think_tags="harmony"), tokenizer=gpt_oss_like)
    ids = [gpt_oss_like.encode(r, add_special_tokens=False).ids for r in harmony_responses]

    def figures(scores):
        return [(s.status, s.reward, s.t_think, s.l_ast, s.anchor_token) for s in scores]

    expected = figures(explicit.score_token_ids(ids, gts))
    assert figures(settled.score_token_ids(ids, gts)) == expected
    both = harmony_tokenizer()  # <think>, </think> and harmony's markers
    unsettled = APRScorer(RewardConfig(cas=False, think_tags="auto"), tokenizer=both)
    assert unsettled.config.think_tags == "auto"
    both_ids = [both.encode(r, add_special_tokens=False).ids for r in harmony_responses]
    assert figures(unsettled.score_token_ids(both_ids, gts)) == expected
    # A response that ends with its closing tag, a special token, keeps it (it is no trailing
    # end-of-sequence token to drop): complete, as with the family's own tags.
    ended = [both.encode(r.partition("<|end|>")[0] + "<|end|>", add_special_tokens=False).ids for r in harmony_responses]
    own = APRScorer(RewardConfig(cas=False, think_tags="harmony"), tokenizer=both).score_token_ids(ended, gts)
    assert all(s.has_think_close for s in own)
    assert figures(unsettled.score_token_ids(ended, gts)) == figures(own)
    think_ids = [both.encode(r["completion"], add_special_tokens=False).ids for r in rows]
    standard = APRScorer(RewardConfig(cas=False), tokenizer=both).score_token_ids(think_ids, gts)
    assert figures(unsettled.score_token_ids(think_ids, gts)) == figures(standard)


def test_harmony_thinking_runs_over_a_tool_call(caplog) -> None:
    """gpt-oss's thinking with a python call and its output between two analysis messages is
    read to the message before the final channel: the same status, correctness and anchor
    sentence as without the call (a sentence right before the call runs on into it: no space
    after its period), the call's tokens counted in T_think, the same figures from token ids as
    from text, and text decoded without the markers read alike. A response cut short after the
    call is truncated."""
    from harmony_format import TOOL_CALL, as_harmony_with_tool_call

    tokenizer = harmony_tokenizer()
    rows = load_samples()
    gts = [r["ground_truth"] for r in rows]
    plain = [as_harmony(r["completion"]) for r in rows]
    called = [as_harmony_with_tool_call(r["completion"]) for r in rows]
    assert sum(TOOL_CALL in c for c in called) >= 40
    scorer = APRScorer(RewardConfig(cas=False, think_tags="harmony"), tokenizer=tokenizer)
    before = scorer.score_batch(plain, gts)
    after = scorer.score_batch(called, gts)
    ids = [e.ids for e in tokenizer.encode_batch(called, add_special_tokens=False)]
    from_ids = scorer.score_token_ids(ids, gts)
    call_tokens = len(tokenizer.encode(TOOL_CALL, add_special_tokens=False).ids)

    def sentence(text: str, s) -> str:
        return text[s.anchor_span[0]:s.anchor_span[1]].strip()

    for text, old_text, new, old, by_ids in zip(called, plain, after, before, from_ids):
        assert (new.status, new.correct, new.final_answer) == (old.status, old.correct, old.final_answer)
        assert sentence(text, new).startswith(sentence(old_text, old))
        assert (by_ids.status, by_ids.t_think, by_ids.l_ast, by_ids.anchor_token, by_ids.reward) == \
            (new.status, new.t_think, new.l_ast, new.anchor_token, new.reward)
        if TOOL_CALL in text and new.status != "truncated":  # up to a token merged at each join
            assert abs(new.t_think - old.t_think - call_tokens) <= 2
    assert sum(s.status == "ok" and s.l_ast > 0 for s in after) > 10
    stripped = apr_fast.APRScorer(RewardConfig(cas=False, think_tags="harmony")).score_batch(
        [re.sub(r"<\|[a-z]+\|>", "", c) for c in called], gts)
    assert [(s.status, s.correct, s.final_answer) for s in stripped] == [(s.status, s.correct, s.final_answer) for s in after]
    # Cut short after the call (or ending with it): truncated, whatever the later analysis says.
    cut = [c[:c.index("<|start|>assistant<|channel|>final")] if "<|channel|>final" in c else c for c in called]
    assert {s.status for s, c in zip(scorer.score_batch(cut, gts), cut) if TOOL_CALL in c} == {"truncated"}
