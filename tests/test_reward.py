"""The APR reward: invariants on real traces and generated responses, batch/thread parity,
token-exact lengths against the real tokenizer."""
from __future__ import annotations

import gzip
import json
import logging
import math
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import apr_fast
from apr_fast import ANCHOR_MODES, AnchorOptions, APRScorer, RewardConfig, RolloutScore, apr_reward

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "examples" / "data" / "sample_traces.jsonl"
SHARED = ROOT.parent / "shared" / "data"
TRACES = SHARED / "traces" / "traces.jsonl.gz"
TOKENIZER = SHARED / "tokenizer" / "deepseek-r1-distill-qwen.tokenizer.json"
needs_shared = pytest.mark.skipif(not TRACES.exists(), reason="../shared/data is not present")


def load_samples() -> list[dict]:
    return [json.loads(line) for line in SAMPLES.open(encoding="utf-8")]


@pytest.fixture(scope="module")
def samples() -> list[dict]:
    return load_samples()


@pytest.fixture(scope="module")
def hf_tokenizer():
    tokenizers = pytest.importorskip("tokenizers")
    if not TOKENIZER.exists():
        pytest.skip("../shared/data is not present")
    return tokenizers.Tokenizer.from_file(str(TOKENIZER))


def check_invariants(s: RolloutScore, response: str, config: RewardConfig) -> None:
    t0, t1 = s.thinking_span
    assert 0 <= t0 <= t1 <= len(response)
    assert 0 <= s.l_ast <= s.t_think
    assert 0.0 <= s.rho <= 1.0
    if s.t_think:
        assert math.isclose(s.rho, s.l_ast / s.t_think)
    if not s.anchor_found:
        assert s.l_ast == 0 and s.rho == 0.0
        assert s.matched_candidate is None
    else:
        a0, a1 = s.anchor_span
        # The anchor never lies after the end of thinking.
        assert t0 <= a0 < s.anchor_end <= a1 <= t1
        m0, m1 = s.matched_span
        assert a0 <= m0 < m1 <= s.anchor_end
        assert s.anchor_sentence is not None and 0 <= s.anchor_sentence < s.num_sentences
    if not s.anchor_searched:
        # Only the "rewarded" scope leaves a rollout unsearched, and only one whose reward is 0
        # (or a rollout that could not be scored at all).
        assert config.anchors == "rewarded" or s.status in ("invalid_input", "internal_error")
        assert s.reward == 0.0 and s.status != "correctness_unknown"
        assert (s.anchor_found, s.anchor_sentence, s.num_sentences, s.anchor_token) == (False, None, 0, None)
    expected = apr_reward(s.correct, s.has_think_close, s.l_ast, config.beta, config.floor)
    assert s.reward == expected
    if config.floor is not None:
        assert config.floor <= s.reward <= 1.0 or s.reward == 0.0
    assert s.reward <= 1.0
    if not s.correct or not s.has_think_close:
        assert s.reward == 0.0
    assert s.status in apr_fast.STATUS_CODES and s.status_code == apr_fast.STATUS_CODES[s.status]
    if s.final_answer_span is not None:
        f0, f1 = s.final_answer_span
        assert 0 <= f0 <= f1 <= len(response)


@pytest.mark.parametrize("mode", ANCHOR_MODES)
def test_real_traces_satisfy_the_invariants(samples, mode) -> None:
    config = RewardConfig(mode=mode, floor=0.0, beta=5e-4)
    scorer = APRScorer(config)
    responses = [r["completion"] for r in samples]
    scores = scorer.score_batch(responses, [r["ground_truth"] for r in samples],
                                problems=[r["problem"] for r in samples])
    assert len(scores) == len(samples)
    for s, response in zip(scores, responses):
        check_invariants(s, response, config)
    # Real traces: most have an anchor, and every field is present on every score.
    assert sum(s.anchor_found for s in scores) > len(scores) // 2
    assert len({tuple(s.to_dict()) for s in scores}) == 1


def test_scores_built_from_native_rows_are_whole_dataclasses(samples) -> None:
    from dataclasses import asdict, fields

    responses = [r["completion"] for r in samples]
    gts = [r["ground_truth"] for r in samples]
    scorer = APRScorer(RewardConfig(cas=False))
    scores = scorer.score_batch(responses, gts)
    names = [f.name for f in fields(RolloutScore)]
    # Its fields are slots (the native layer fills them through their descriptors): no
    # __dict__, every slot set.
    assert RolloutScore.__slots__ == tuple(names)
    for s in scores:
        assert not hasattr(s, "__dict__") and all(hasattr(s, name) for name in names)
        assert list(s.to_dict()) == names and s.to_dict() == asdict(s)
        assert RolloutScore(**asdict(s)) == s
        with pytest.raises(AttributeError):
            s.reward = 1.0  # type: ignore[misc]
    # The native layer builds them from the same values it gives as tuples (SCORE_FIELDS order).
    alternatives, bad = apr_fast.reward._alternatives_list(gts, len(gts))
    assert not bad
    rows = scorer._native.score_texts(responses, alternatives, None, None, 1)
    assert [RolloutScore(**dict(zip(apr_fast._core.SCORE_FIELDS, row))) for row in rows] == scores
    with pytest.raises(TypeError, match="into must be a class"):
        scorer._native.score_texts(responses, alternatives, None, None, 1, RolloutScore(**asdict(scores[0])))


def test_score_rows_are_left_alone_by_the_garbage_collector(samples) -> None:
    import gc
    from dataclasses import make_dataclass

    responses = [r["completion"] for r in samples]
    gts = [r["ground_truth"] for r in samples]
    scorer = APRScorer(RewardConfig(cas=False))
    scores = scorer.score_batch(responses, gts)
    # Frozen rows of atomic values and int spans cannot be in a reference cycle: untracked,
    # like CPython's tuples of such values, so a batch adds nothing for collections to visit.
    for s in scores:
        spans = [s.thinking_span, s.anchor_span, s.anchor_byte_span, s.final_answer_span, s.matched_span]
        assert not gc.is_tracked(s)
        assert not any(gc.is_tracked(span) for span in spans if span is not None)
    gc.collect()
    assert scores == scorer.score_batch(responses, gts)
    alternatives, _ = apr_fast.reward._alternatives_list(gts, len(gts))
    rows = scorer._native.score_texts(responses, alternatives, None, None, 1)
    assert not any(gc.is_tracked(row) for row in rows)
    # A class whose instances may change later keeps its instances tracked: a dataclass that
    # is not frozen, and a plain subclass of a frozen one (it takes other attributes).
    mutable = make_dataclass("Mutable", [(n, object) for n in apr_fast._core.SCORE_FIELDS], slots=True)
    built = scorer._native.score_texts(responses, alternatives, None, None, 1, mutable)
    assert all(gc.is_tracked(b) for b in built)
    assert [tuple(getattr(b, n) for n in apr_fast._core.SCORE_FIELDS) for b in built] == rows

    class Annotated(RolloutScore):
        pass

    built = scorer._native.score_texts(responses, alternatives, None, None, 1, Annotated)
    assert all(gc.is_tracked(b) for b in built) and list(map(RolloutScore.to_dict, built)) == [s.to_dict() for s in scores]


def test_batch_equals_single_for_every_thread_count(samples) -> None:
    scorer = APRScorer()
    responses = [r["completion"] for r in samples]
    gts = [r["ground_truth"] for r in samples]
    single = [scorer.score(r, g) for r, g in zip(responses, gts)]
    for threads in (1, 2, 3, None):
        assert scorer.score_batch(responses, gts, threads=threads) == single


def test_paper_mode_is_the_published_rule() -> None:
    # Con(s_i) or Ver(s_{i+1}) gates the sentence; the first such sentence with the answer wins.
    response = (
        "We compute 3 + 4 = 7 apples. Then 7 again. So the answer is 7. Let me check it once more."
        "</think>\\boxed{7}"
    )
    s = apr_fast.score(response, "7", config=RewardConfig(mode="paper"))
    assert s.anchor_found
    assert response[s.anchor_span[0]:s.anchor_span[1]].strip() == "So the answer is 7."
    assert s.length_unit == "chars"
    assert s.l_ast == len(" Let me check it once more.")


def test_default_mode_moves_back_to_the_computation() -> None:
    response = "h = 45/9 = 5.\n\nSo the height is 5 cm.\n\nLet me verify: 9 times 5 is 45.</think>\\boxed{5}"
    paper = apr_fast.score(response, "5", config=RewardConfig(mode="paper"))
    default = apr_fast.score(response, "5", config=RewardConfig(mode="default"))
    assert paper.anchor_sentence == 1
    assert default.anchor_sentence == 0
    assert default.l_ast > paper.l_ast


def test_default_mode_passes_over_the_problem_restated() -> None:
    # The answer equals a value the problem gives: the restatement and the argument do not anchor.
    problem = "What is the sum of the proper divisors of the sum of the proper divisors of 284?"
    response = (
        "So I need to find the sum of the proper divisors of the sum of the proper divisors of 284. "
        "So let me start by factoring 284. So 284 = 4 * 71, and its proper divisors sum to 220. "
        "So the proper divisors of 220 sum to 284.</think>\\boxed{284}"
    )
    with_problem = apr_fast.score(response, "284", problem=problem)
    assert with_problem.anchor_sentence == 2  # "284 = 4 * 71" states the value
    assert apr_fast.score(response, "284").anchor_sentence == 0  # no problem: nothing to compare with
    for option in ("skip_task_statements", "skip_problem_arguments"):
        assert getattr(AnchorOptions.of_mode("default"), option)
        assert not getattr(AnchorOptions.of_mode("paper"), option)
    paper = apr_fast.score(response, "284", problem=problem, config=RewardConfig(mode="paper"))
    assert paper.anchor_sentence == 0


def test_default_mode_passes_over_less_simplified_forms_of_the_answer() -> None:
    # sqrt(117) equals the answer 3 sqrt(13), but it is a step on the way, not the answer stated.
    response = (
        "So the distance is sqrt(81 + 36) = \\sqrt{117}. Simplify: 117 = 9 * 13, so \\sqrt{117} = 3\\sqrt{13}. "
        "Let me double-check the squares.</think>\\boxed{3\\sqrt{13}}"
    )
    assert apr_fast.score(response, "3\\sqrt{13}", config=RewardConfig(mode="paper")).anchor_sentence == 0
    default = apr_fast.score(response, "3\\sqrt{13}")
    assert default.anchor_sentence == 1
    assert AnchorOptions.of_mode("default").skip_unreduced_forms
    assert not AnchorOptions.of_mode("paper").skip_unreduced_forms
    # A fraction not in lowest terms, and the same text when the answer itself is written so.
    steps = "So the probability is 8/32. That is 1/4. Let me verify the count.</think>\\boxed{\\frac{1}{4}}"
    assert apr_fast.score(steps, "1/4").anchor_sentence == 1
    assert apr_fast.score(steps.replace("frac{1}{4}", "frac{8}{32}"), "8/32").anchor_sentence == 0


def test_anchor_options_are_checked_by_name_and_value() -> None:
    default = AnchorOptions.of_mode("default")
    assert default.replace(skip_unreduced_forms=False).skip_unreduced_forms is False
    assert default.replace() == default
    assert set(AnchorOptions.names()) == {f for f in vars(default)}
    with pytest.raises(ValueError, match="unknown anchor options \\['nope'\\]"):
        default.replace(nope=True)
    with pytest.raises(TypeError, match="list_items must be bool"):
        AnchorOptions(list_items="yes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="backtrack_gap must be an int >= 0"):
        default.replace(backtrack_gap=-1)
    with pytest.raises(ValueError, match="max_extra_complexity must be an int >= 0 or None"):
        default.replace(max_extra_complexity=True)
    with pytest.raises(ValueError, match="context must be"):
        AnchorOptions(context="strict")  # type: ignore[arg-type]
    # RewardConfig takes the options, or the changes to its mode's options as a mapping.
    changed = RewardConfig(mode="paper", anchor_options={"backtrack": True})
    assert changed.anchor_options == AnchorOptions.of_mode("paper").replace(backtrack=True)
    assert hash(changed) == hash(RewardConfig(mode="paper", anchor_options={"backtrack": True}))
    with pytest.raises(ValueError, match="unknown anchor options \\['bogus'\\]"):
        RewardConfig(anchor_options={"bogus": True})
    with pytest.raises(TypeError, match="anchor_options must be apr_fast.AnchorOptions, a mapping"):
        RewardConfig(anchor_options="default")  # type: ignore[arg-type]


def test_text_input_to_a_scorer_without_tokenizer_warns_that_it_counts_characters(hf_tokenizer) -> None:
    vocabulary = apr_fast.Vocabulary.from_hf(hf_tokenizer)
    scorer = APRScorer(RewardConfig(cas=False), vocabulary=vocabulary)
    with pytest.warns(UserWarning, match="measured in characters"):
        assert scorer.score("So x = 5.</think> \\boxed{5}", "5").length_unit == "chars"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        scorer.score("So x = 5.</think> \\boxed{5}", "5")  # once per scorer
        assert APRScorer(tokenizer=hf_tokenizer).score("So x = 5.</think> \\boxed{5}", "5").length_unit == "tokens"


def test_every_option_reaches_the_native_scorer_and_comes_back() -> None:
    # FLAGS names every on/off option once, so the nested native tuple cannot drift from the
    # dataclass; each flag, switched alone, comes back from the native scorer switched.
    bools = {f for f, v in vars(AnchorOptions.of_mode("paper")).items() if isinstance(v, bool)}
    assert sorted(AnchorOptions.FLAGS) == sorted(bools) and len(set(AnchorOptions.FLAGS)) == len(bools)
    default = AnchorOptions.of_mode("default")
    for name in AnchorOptions.FLAGS:
        changed = default.replace(**{name: not getattr(default, name)})
        scorer = apr_fast.APRScorer(RewardConfig(anchor_options=changed))
        assert scorer._native.anchor_options == changed._native(), name


def test_a_colon_that_announces_the_answer_puts_the_next_line_in_context() -> None:
    response = ("Let me think.\nSo, the final answer is:\narcsin(1.3 sin x)\nOr, in LaTeX:\n"
                "\\boxed{\\arcsin(1.3 \\sin x)}</think>\\boxed{\\arcsin(1.3 \\sin x)}")
    assert apr_fast.score(response, "\\arcsin(1.3 \\sin x)").anchor_sentence == 2
    off = AnchorOptions.of_mode("default").replace(colon_carries_cue=False)
    assert apr_fast.score(response, "\\arcsin(1.3 \\sin x)", config=RewardConfig(anchor_options=off)).anchor_sentence == 4


def test_a_value_written_with_other_numbers_does_not_anchor() -> None:
    # From a real trace: 60 / 0.7 equals 600/7 but shows none of its figures (its numerals,
    # its value's leading digits); the next sentence states the value.
    response = "So, v = 60 / 0.7.\nSo v = 600 / 7.\nLet me check.</think>\\boxed{\\dfrac{600}{7}}"
    assert apr_fast.score(response, "\\dfrac{600}{7}").anchor_sentence == 1
    off = AnchorOptions.of_mode("default").replace(reference_figures=False)
    assert apr_fast.score(response, "\\dfrac{600}{7}", config=RewardConfig(anchor_options=off)).anchor_sentence == 0
    assert AnchorOptions.of_mode("default").reference_figures
    assert not AnchorOptions.of_mode("paper").reference_figures
    # A flag list of the wrong length is a configuration error, not a crash.
    with pytest.raises(apr_fast.ConfigError, match="13 flags"):
        apr_fast._core.NativeScorer(5e-4, None, "default", "final_answer", "strict", "strict", 6, 1e-9, [], [], True,
                                    None, ("paper", 0, None, [True] * 12), False, False, None, "all")


def test_values_the_sentence_describes_do_not_anchor() -> None:
    # "8 is 4*2" takes the value apart; "284 is an even number" describes the problem's 284.
    factored = "But 8 is 4*2, so sqrt(8) = 2*sqrt(2).\nSo m + n = 8.\nLet me check.</think>\\boxed{8}"
    assert apr_fast.score(factored, "8").anchor_sentence == 1
    off = AnchorOptions.of_mode("default").replace(skip_described_values=False)
    assert apr_fast.score(factored, "8", config=RewardConfig(anchor_options=off)).anchor_sentence == 0
    problem = "What is the sum of the proper divisors of the sum of the proper divisors of 284?"
    described = "Let me see, 284 is an even number, so it is divisible by 2.\nSo the sum is 284.\nLet me check.</think>\\boxed{284}"
    assert apr_fast.score(described, "284", problem=problem).anchor_sentence == 1
    # Without the problem a described value may be a result ("7 is prime" of a derived 7).
    assert apr_fast.score(described, "284").anchor_sentence == 0
    assert not AnchorOptions.of_mode("paper").skip_described_values


def test_a_count_the_problem_gives_restated_with_its_noun_does_not_anchor() -> None:
    problem = "The twelve letters A to L are grouped into six pairs. The probability is m/n. Find m+n."
    response = "We have 12 letters, which are all distinct, right?\nSo m + n = 12.\nLet me check.</think>\\boxed{12}"
    assert apr_fast.score(response, "12", problem=problem).anchor_sentence == 1
    # Without the problem, or with the option off, the count is a match.
    assert apr_fast.score(response, "12").anchor_sentence == 0
    off = AnchorOptions.of_mode("default").replace(skip_task_statements=False)
    assert apr_fast.score(response, "12", problem=problem,
                          config=RewardConfig(anchor_options=off)).anchor_sentence == 0


def test_assignments_tried_as_inputs_do_not_anchor() -> None:
    response = "What if I set y = 0?\nLet's see.\nSo P(0) = 0.\nLet me check.</think>\\boxed{0}"
    assert apr_fast.score(response, "0").anchor_sentence == 2
    off = AnchorOptions.of_mode("default").replace(skip_trial_values=False)
    assert apr_fast.score(response, "0", config=RewardConfig(anchor_options=off)).anchor_sentence == 0
    assert not AnchorOptions.of_mode("paper").skip_trial_values


def test_correctness_methods_are_method_values_even_when_undecided() -> None:
    methods = {m.value for m in apr_fast.Method} | {"none"}
    undecided = apr_fast.score("So it is 52.</think>\\boxed{52}", "52_8", config=RewardConfig(cas=False))
    assert (undecided.status, undecided.correctness_method) == ("correctness_unknown", "native_undecided")
    for response, gt in [("So 5.</think>\\boxed{5}", "5"), ("So 5.</think>\\boxed{6}", "5"), ("So 5.</think>", "5")]:
        assert apr_fast.score(response, gt, config=RewardConfig(cas=False)).correctness_method in methods


@pytest.mark.parametrize(
    ("response", "status"),
    [
        ("So the answer is 5. Let me keep going", "truncated"),
        ("<think>   </think>\\boxed{5}", "empty_thinking"),
        ("So it is 5.</think>no box here", "no_final_answer"),
        ("So it is 5.</think>\\boxed{5}", "ok"),
    ],
)
def test_unusual_rollouts_get_a_status_not_a_crash(response, status) -> None:
    s = apr_fast.score(response, "5")
    assert s.status == status
    if status in ("truncated", "no_final_answer"):
        assert s.reward == 0.0
    if status == "empty_thinking":  # correct with no thinking at all: no tail to penalise
        assert s.correct and s.reward == 1.0


def test_ground_truth_shapes() -> None:
    response = "So the total is 142. Let me check.</think>\\boxed{142}"
    for gt in ("142", 142.0, 142, ["141", "142"]):
        assert apr_fast.score(response, gt).correct
    assert not apr_fast.score(response, ["141"]).correct


def test_boxing_the_problem_expression_is_not_rewarded() -> None:
    # A reward hack found in real traces: for "Simplify E", boxing E equals the answer.
    problem = "Simplify $\\tan 100^\\circ + 4 \\sin 100^\\circ.$"
    echo = "<think>It is what it is.</think> \\boxed{\\tan 100^\\circ + 4 \\sin 100^\\circ}"
    simplified = "<think>So it is -\\sqrt{3}.</think> \\boxed{-\\sqrt{3}}"
    scorer = APRScorer(RewardConfig(cas=False))
    hacked = scorer.score(echo, "-\\sqrt{3}", problem=problem)
    assert (hacked.correct, hacked.status, hacked.reward) == (False, "problem_echo", 0.0)
    assert hacked.status_code == apr_fast.STATUS_CODES["problem_echo"]
    assert scorer.score(simplified, "-\\sqrt{3}", problem=problem).correct
    assert scorer.score(echo, "-\\sqrt{3}").correct, "without the problem text nothing is known"
    lenient = APRScorer(RewardConfig(cas=False, reject_problem_echo=False))
    assert lenient.score(echo, "-\\sqrt{3}", problem=problem).correct
    # "Simplify" a fraction or a root: the unsimplified form copied back is an echo too.
    unreduced = scorer.score("<think>So 84/144.</think> \\boxed{\\frac{84}{144}}", "\\frac{7}{12}",
                             problem="Simplify $\\frac{84}{144}$.")
    assert (unreduced.correct, unreduced.status) == (False, "problem_echo")
    with pytest.raises(TypeError):
        RewardConfig(reject_problem_echo="yes")  # type: ignore[arg-type]


def test_a_strict_format_needs_the_answer_after_think() -> None:
    inside = "<think>So x = 5, and the answer is \\boxed{5}.</think>"
    strict = APRScorer(RewardConfig(cas=False, require_answer_after_think=True))
    s = strict.score(inside, "5")
    assert (s.status, s.correct, s.reward, s.final_answer) == ("no_final_answer", False, 0.0, None)
    assert strict.score("<think>So x = 5.</think> \\boxed{5}", "5").correct
    assert APRScorer(RewardConfig(cas=False)).score(inside, "5").correct
    with pytest.raises(TypeError, match="require_answer_after_think"):
        RewardConfig(require_answer_after_think="yes")  # type: ignore[arg-type]


# Other models' thinking tags: Magistral, Seed-OSS, Kimi.
OTHER_THINK_TAGS = [("[THINK]", "[/THINK]"), ("<seed:think>", "</seed:think>"), ("◁think▷", "◁/think▷")]


def _retagged(response: str, tags: tuple[str, str]) -> str:
    return response.replace("<think>", tags[0]).replace("</think>", tags[1])


@pytest.mark.parametrize("tags", OTHER_THINK_TAGS)
def test_other_think_tags_score_as_think_does(samples, tags) -> None:
    """The bundled traces with another model's tags, scored with those tags: the same
    statuses, answers, anchors, lengths and rewards as with <think>/</think>; spans move by the
    opening tag's length. Scored with the default tags, they have no </think>: truncated."""
    responses = [r["completion"] for r in samples]
    gts = [r["ground_truth"] for r in samples]
    standard = APRScorer(RewardConfig(cas=False)).score_batch(responses, gts)
    tagged = APRScorer(RewardConfig(cas=False, think_tags=tags)).score_batch([_retagged(r, tags) for r in responses], gts)
    figures = [[(s.status, s.reward, s.correct, s.final_answer, s.anchor_sentence, s.t_think, s.l_ast,
                 s.has_think_close) for s in scores] for scores in (standard, tagged)]
    assert figures[0] == figures[1]
    shift = len(tags[0]) - len("<think>")
    for s, t, r in zip(standard, tagged, responses):
        if r.lstrip().startswith("<think>"):
            assert t.thinking_span == (s.thinking_span[0] + shift, s.thinking_span[1] + shift)
    untagged = APRScorer(RewardConfig(cas=False)).score_batch([_retagged(r, tags) for r in responses], gts)
    assert {s.status for s in untagged} == {"truncated"}


def test_other_think_tags_from_token_ids(hf_tokenizer) -> None:
    """A vocabulary with Magistral's tags as added tokens: the closing tag is found by its id,
    and ids and text count the same tokens as <think>/</think> do in the original vocabulary."""
    from tokenizers import Tokenizer

    tagged_tokenizer = Tokenizer.from_str(hf_tokenizer.to_str())
    tagged_tokenizer.add_special_tokens(["[THINK]", "[/THINK]"])
    tags = ("[THINK]", "[/THINK]")
    rows = load_samples()[:12]
    responses = [r["completion"] for r in rows]
    gts = [r["ground_truth"] for r in rows]
    config = RewardConfig(cas=False, think_tags=tags)
    scorer = APRScorer(config, tokenizer=tagged_tokenizer)
    retagged = [_retagged(r, tags) for r in responses]
    ids = [tagged_tokenizer.encode(r, add_special_tokens=False).ids for r in retagged]
    assert all(tagged_tokenizer.token_to_id("[/THINK]") in i for i in ids)
    from_ids = scorer.score_token_ids(ids, gts)
    from_text = scorer.score_batch(retagged, gts)
    standard = APRScorer(RewardConfig(cas=False), tokenizer=hf_tokenizer).score_batch(responses, gts)
    figures = [[(s.status, s.reward, s.t_think, s.l_ast, s.anchor_sentence) for s in scores]
               for scores in (from_ids, from_text, standard)]
    assert figures[0] == figures[1] == figures[2]
    assert all(s.length_unit == "tokens" for s in from_ids)


def test_a_vocabulary_with_another_models_tags_is_flagged(hf_tokenizer, caplog) -> None:
    """A policy whose vocabulary has [/THINK] and no </think>: the scorer says so once, at
    construction, instead of letting every response score as truncated in silence."""
    from tokenizers import Tokenizer

    plain = json.loads(hf_tokenizer.to_str())
    plain["added_tokens"] = [a for a in plain["added_tokens"] if a["content"] not in ("<think>", "</think>")]
    magistral = Tokenizer.from_str(json.dumps(plain))
    magistral.add_special_tokens(["[THINK]", "[/THINK]"])
    with caplog.at_level(logging.WARNING, logger="apr_fast.think_tags"):
        APRScorer(RewardConfig(cas=False), tokenizer=hf_tokenizer)
        assert caplog.records == []
        APRScorer(RewardConfig(cas=False, think_tags=("[THINK]", "[/THINK]")), tokenizer=magistral)
        assert caplog.records == []
        APRScorer(RewardConfig(cas=False), tokenizer=magistral)
    assert len(caplog.records) == 1
    assert "think_tags='magistral'" in caplog.records[0].getMessage()
    # Text alone: the truncated rows that hold another closing tag are counted, once per scorer.
    caplog.clear()
    scorer = APRScorer(RewardConfig(cas=False))
    retagged = "<seed:think>So x = 5.</seed:think> \\boxed{5}"
    with caplog.at_level(logging.WARNING, logger="apr_fast.think_tags"):
        scorer.score_batch(["<think>So x = 5.</think> \\boxed{5}", "So x = 5"], ["5", "5"])
        assert caplog.records == []
        scorer.score_batch([retagged, retagged, "So x = 5"], ["5"] * 3)
        scorer.score_batch([retagged], ["5"])
    assert len(caplog.records) == 1
    assert "2 response(s)" in caplog.records[0].getMessage() and "'</seed:think>'" in caplog.records[0].getMessage()


def test_think_tags_are_checked() -> None:
    assert RewardConfig(think_tags=["[THINK]", "[/THINK]"]).think_tags == ("[THINK]", "[/THINK]")
    for tags, error, message in [
        (("<t>", "</t> "), apr_fast.ConfigError, "white space"),
        (("<t>", "\\end"), apr_fast.ConfigError, "backslash"),
        (("<t>", "<t>"), apr_fast.ConfigError, "the same"),
        (("THINK", "END"), apr_fast.ConfigError, "holds no mark"),
        ("<think>", apr_fast.ConfigError, "no think tags are named"),
        (("<think>", None), TypeError, "two str"),
        (5, TypeError, "a preset name"),
    ]:
        with pytest.raises(error, match=message):
            RewardConfig(think_tags=tags)  # type: ignore[arg-type]


def test_floor_bounds_a_long_tail() -> None:
    response = "So x = 5. " + "Wait, let me check again. " * 100 + "</think>\\boxed{5}"
    unfloored = apr_fast.score(response, "5", config=RewardConfig(beta=0.01))
    floored = apr_fast.score(response, "5", config=RewardConfig(beta=0.01, floor=0.0))
    assert unfloored.reward < 0
    assert floored.reward == 0.0
    assert floored.correct


def test_reference_ground_truth_anchors_a_truncated_trace() -> None:
    response = "So the answer is 42. Wait, let me recompute everything from scratch and"
    s = apr_fast.score(response, "42", config=RewardConfig(reference="ground_truth"))
    assert s.status == "truncated" and s.anchor_found and s.l_ast > 0 and s.reward == 0.0


def test_a_bad_ground_truth_is_that_rollout_s_status_not_a_failed_batch(hf_tokenizer) -> None:
    response = "<think>So x = 5. Wait, let me check: yes.</think> \\boxed{5}"
    scorer = APRScorer(RewardConfig(cas=False), tokenizer=hf_tokenizer)
    gts = ["5", None, "", [], True, float("nan"), "   ", {"a": 1}, 5.0]
    ids = hf_tokenizer.encode(response, add_special_tokens=False).ids
    text_scores = scorer.score_batch([response] * len(gts), gts)
    # A row scores the same alone as in any batch (its error names no index).
    assert [scorer.score(response, g) for g in gts] == text_scores
    for scores in (text_scores, scorer.score_token_ids([ids] * len(gts), gts)):
        good = scores[0]
        assert good.status == "ok" and good.correct and good.reward > 0
        assert scores[-1].status == "ok" and scores[-1].correct, "AMC's float 5.0 is a ground truth"
        for i, s in enumerate(scores[1:-1], start=1):
            assert (s.status, s.correct, s.reward) == ("invalid_input", False, 0.0), (i, s)
            assert s.status_code == apr_fast.STATUS_CODES["invalid_input"]
            assert s.error is not None and s.error.startswith(("bad ground truth", "empty ground truth")), s.error
            # What does not depend on the ground truth is still measured.
            assert (s.anchor_found, s.l_ast, s.final_answer) == (good.anchor_found, good.l_ast, good.final_answer)
        assert "NoneType" in scores[1].error and "empty" in scores[2].error


def test_rollouts_the_cas_leaves_undecided_are_logged_once_per_batch(caplog) -> None:
    """A status per rollout, and one log line per batch (not one per rollout): how many, and the
    first, by its row name."""
    scorer = APRScorer(RewardConfig(cas=True))
    responses = ["<think>So x = 5.</think> \\boxed{5}", "So it is 52.</think>\\boxed{52}", "So 61.</think>\\boxed{61}"]
    with caplog.at_level(logging.WARNING, logger="apr_fast.reward"):
        scores = scorer.score_batch(responses, ["5", "52_8", "61_8"], row_names=["a", "b", "c"])
    assert [s.status for s in scores] == ["ok", "correctness_unknown", "correctness_unknown"]
    assert [s.reward for s in scores[1:]] == [0.0, 0.0]
    messages = [r.getMessage() for r in caplog.records]
    assert len(messages) == 1, messages
    assert "2 rollout(s) scored 0 with correctness undecided" in messages[0]
    assert "the first, b: final answer '52' against ['52_8']" in messages[0]


def test_the_log_names_a_bad_ground_truth_s_row_as_the_caller_names_it(caplog) -> None:
    response = "<think>So x = 5.</think> \\boxed{5}"
    scorer = APRScorer(RewardConfig(cas=False))
    with caplog.at_level(logging.WARNING, logger="apr_fast.reward"):
        by_position = scorer.score_batch([response] * 3, ["5", "", None])
        by_name = scorer.score_batch([response] * 3, ["5", "", None], row_names=["a", "row 7", None])
    assert by_position == by_name, "a name changes the log, never a score"
    messages = [r.getMessage() for r in caplog.records]
    assert len(messages) == 2, "one line per batch"
    assert "2 rollout(s)" in messages[0] and "the first, rollout 1 of the batch: empty" in messages[0]
    assert "the first, row 7: empty" in messages[1]
    # A row without a name is named by its position.
    with caplog.at_level(logging.WARNING, logger="apr_fast.reward"):
        scorer.score_batch([response] * 2, ["5", ""], row_names=["a", None])
    assert "the first, rollout 1 of the batch" in caplog.records[-1].getMessage()
    with pytest.raises(ValueError, match="row names"):
        scorer.score_batch([response], ["5"], row_names=["a", "b"])
    with pytest.raises(TypeError, match=r"row_names\[0\]"):
        scorer.score_batch([response], ["5"], row_names=[3])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="row_names"):
        scorer.score_batch([response], ["5"], row_names="a")



def test_bad_arguments_raise_clear_errors() -> None:
    scorer = APRScorer()
    with pytest.raises(TypeError, match="responses"):
        scorer.score_batch("not a list", ["1"])
    with pytest.raises(ValueError, match="ground truths"):
        scorer.score_batch(["a"], ["1", "2"])
    with pytest.raises(TypeError, match="response"):
        scorer.score(b"bytes", "1")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="beta"):
        RewardConfig(beta=-1)
    with pytest.raises(ValueError, match="mode"):
        RewardConfig(mode="nope")  # type: ignore[arg-type]
    with pytest.raises(apr_fast.ConfigError):
        scorer.score_token_ids([[1, 2]], ["1"])
    with pytest.raises(apr_fast.ConfigError):
        APRScorer(RewardConfig(conclusion_cues=("",)))


# ------------------------------------------------------------------ generated responses

SENTENCES = st.sampled_from([
    "Let me think about this.", "So the answer is 5.", "Wait, let me check.", "x = 5", "Thus 12.",
    "\\[ y = \\frac{3}{4} \\]", "Therefore, n = 17 works.", "Hmm, 5 + 7 = 12.", "我们得到 5。", "x² = π",
    "**Final Answer**", "Is that right?", "$5$ apples", "So it's \\boxed{5}.", "", "twelve", "\n\n",
])
TAILS = st.sampled_from(["</think>\\boxed{5}", "</think>The answer is \\boxed{12}.", "", "</think>", "</think></think>\\boxed{x = 5}"])
GROUND_TRUTHS = st.sampled_from(["5", "12", "\\frac{3}{4}", "17", ["5", "12"], 5.0])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    body=st.lists(SENTENCES, max_size=12),
    junk=st.text(max_size=20),
    tail=TAILS,
    gt=GROUND_TRUTHS,
    mode=st.sampled_from(ANCHOR_MODES),
    lead=st.sampled_from(["", "<think>\n", "  <think>"]),
)
def test_generated_responses_satisfy_the_invariants(body, junk, tail, gt, mode, lead) -> None:
    response = lead + " ".join(body) + junk + tail
    config = RewardConfig(mode=mode, floor=0.0)
    s = APRScorer(config).score(response, gt)
    check_invariants(s, response, config)
    # Searching only the rewarded rollouts changes no reward, and no row it searches.
    rewarded = RewardConfig(mode=mode, floor=0.0, anchors="rewarded")
    r = APRScorer(rewarded).score(response, gt)
    check_invariants(r, response, rewarded)
    assert (r.reward, r.status, r.correct, r.t_think) == (s.reward, s.status, s.correct, s.t_think)
    if r.anchor_searched:
        assert r == s


@needs_shared
def test_searching_only_the_rewarded_rollouts_keeps_every_reward_on_the_real_traces(hf_tokenizer) -> None:
    """All 2,921 real traces by token ids: the same rewards and statuses with both scopes; the
    rows searched are the same rows; the others are the incorrect, truncated and answerless ones."""
    rows = [json.loads(line) for line in gzip.open(TRACES, "rt", encoding="utf-8")]
    gts = [r["ground_truth"] for r in rows]
    ids = [e.ids for e in hf_tokenizer.encode_batch([r["completion"] for r in rows], add_special_tokens=False)]
    vocabulary = apr_fast.Vocabulary.from_file(TOKENIZER)
    every = APRScorer(RewardConfig(beta=5e-4), vocabulary=vocabulary).score_token_ids(ids, gts)
    rewarded = APRScorer(RewardConfig(beta=5e-4, anchors="rewarded"), vocabulary=vocabulary).score_token_ids(ids, gts)
    skipped = 0
    for a, r in zip(every, rewarded):
        assert a.anchor_searched
        assert (r.reward, r.status, r.correct, r.t_think, r.final_answer) == (a.reward, a.status, a.correct, a.t_think, a.final_answer)
        if r.anchor_searched:
            assert r == a
        else:
            skipped += 1
            assert not (a.correct and a.has_think_close) and r.l_ast == 0 and r.anchor_sentence is None
    # Searched too: the rollouts the native engine left undecided, whatever the CAS then said.
    to_cas = [a.status == "correctness_unknown" or a.correctness_method in ("sympy", "timeout", "error") for a in every]
    assert skipped == sum(not (a.correct and a.has_think_close) and not c for a, c in zip(every, to_cas)) > 1000
    assert any(to_cas)


def test_a_rollout_the_cas_may_make_correct_is_searched() -> None:
    pytest.importorskip("sympy")
    # sin(pi) = 0 only the CAS can decide; its reward then needs the anchor.
    response = "<think>So the value is \\sin(\\pi). Let me double check that.</think>\\boxed{\\sin(\\pi)}"
    every = apr_fast.score(response, "0", config=RewardConfig(anchors="all"))
    rewarded = apr_fast.score(response, "0", config=RewardConfig(anchors="rewarded"))
    assert (rewarded.correctness_method, rewarded.correct, rewarded.anchor_searched) == ("sympy", True, True)
    assert rewarded == every and 0.0 < rewarded.reward < 1.0


def test_the_anchor_scope_is_checked() -> None:
    with pytest.raises(ValueError, match="anchors must be 'all' or 'rewarded'"):
        RewardConfig(anchors="correct")  # type: ignore[arg-type]


# ------------------------------------------------------------------ tokens


@needs_shared
def test_token_ids_and_text_paths_agree_and_count_exactly(hf_tokenizer) -> None:
    """On every real trace: lengths from token ids (decoded natively, </think> found by id)
    equal lengths from text + the tokenizer's offsets, T_think equals the tokenizer's own count
    of the thinking, and the decoded prefix up to the anchor token covers the anchor character
    and ends inside the anchor sentence."""
    rows = [json.loads(line) for line in gzip.open(TRACES, "rt", encoding="utf-8")]
    scorer = APRScorer(tokenizer=hf_tokenizer)
    vocab = scorer.vocabulary
    completions = [r["completion"] for r in rows]
    gts = [r["ground_truth"] for r in rows]
    ids = [e.ids for e in hf_tokenizer.encode_batch(completions, add_special_tokens=False)]
    by_ids = scorer.score_token_ids(ids, gts)
    by_text = scorer.score_batch(completions, gts)
    mismatches = 0
    for r, i, a, b in zip(rows, ids, by_ids, by_text):
        assert (a.t_think, a.l_ast, a.anchor_token, a.anchor_found, a.correct) == (
            b.t_think, b.l_ast, b.anchor_token, b.anchor_found, b.correct), r["source_path"]
        t0, t1 = a.thinking_span
        thinking = r["completion"][t0:t1]
        assert a.t_think == len(hf_tokenizer.encode(thinking, add_special_tokens=False).ids)
        if a.anchor_found:
            prefix = vocab.decode(i[: a.anchor_token + 1])
            assert prefix.startswith(r["completion"][: a.anchor_end])
            if len(prefix) > a.anchor_span[1]:
                mismatches += 1
    assert mismatches == 0


@needs_shared
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.lists(st.sampled_from([
    "So x² = 4, hence x = 2.", "π ≈ 3.14159.", "因此答案是 2。", "Wait 🤔, check: 1+1 = 2.",
    "<think>", "Thus the answer is 2.", "\\(\\frac{4}{2}\\)", "\n\n", "é̃ combining", "\t",
]), max_size=10), tail=st.sampled_from(["</think>\\boxed{2}<｜end▁of▁sentence｜>", "</think>\\boxed{2}", ""]))
def test_tricky_text_counts_the_same_from_ids_and_from_text(hf_tokenizer, body, tail) -> None:
    response = "<think>\n" + " ".join(body) + tail
    scorer = APRScorer(tokenizer=hf_tokenizer)
    ids = hf_tokenizer.encode(response, add_special_tokens=False).ids
    (a,) = scorer.score_token_ids([ids], ["2"])
    (b,) = scorer.score_batch([response.replace("<｜end▁of▁sentence｜>", "")], ["2"])
    assert (a.t_think, a.l_ast, a.anchor_found, a.correct, a.has_think_close) == (
        b.t_think, b.l_ast, b.anchor_found, b.correct, b.has_think_close)


def test_a_transformers_tokenizer_counts_as_tokenizers_does(hf_tokenizer) -> None:
    transformers = pytest.importorskip("transformers")
    fast = transformers.PreTrainedTokenizerFast(tokenizer_file=str(TOKENIZER))
    responses = ["<think>\nSo x² = 4 🇫🇷, hence x = 2.\nWait, check.</think>\\boxed{2}", "因此答案是 2。</think>\\boxed{2}"]
    by_tokenizers = APRScorer(tokenizer=hf_tokenizer).score_batch(responses, ["2", "2"])
    by_transformers = APRScorer(tokenizer=fast).score_batch(responses, ["2", "2"])
    assert by_transformers == by_tokenizers
    assert all(s.length_unit == "tokens" for s in by_transformers)


def test_token_ids_accept_numpy_and_report_bad_ids() -> None:
    np = pytest.importorskip("numpy")
    vocab_json = json.dumps({
        "version": "1.0", "truncation": None, "padding": None,
        "added_tokens": [{"id": 5, "content": "</think>", "single_word": False, "lstrip": False,
                          "rstrip": False, "normalized": False, "special": False}],
        "normalizer": None, "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False,
                                             "trim_offsets": True, "use_regex": True},
        "post_processor": None, "decoder": {"type": "ByteLevel", "add_prefix_space": True,
                                            "trim_offsets": True, "use_regex": True},
        "model": {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None,
                  "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False,
                  "vocab": {"S": 0, "o": 1, "Ġ": 2, "5": 3, ".": 4}, "merges": []},
    })
    vocab = apr_fast.Vocabulary.from_json(vocab_json)
    scorer = APRScorer(vocabulary=vocab)
    # "So 5." </think> "5"  -> no box, so no final answer; lengths still exact
    (s,) = scorer.score_token_ids([np.array([0, 1, 2, 3, 4, 5, 3])], ["5"])
    assert s.t_think == 5 and s.has_think_close
    (bad,) = scorer.score_token_ids([[0, 1, 999]], ["5"])
    assert bad.status == "invalid_input" and "999" in (bad.error or "")
    assert not bad.anchor_searched and s.anchor_searched  # nothing of it was read


@needs_shared
def test_every_per_row_id_form_scores_alike(hf_tokenizer) -> None:
    """Rows as lists, as int64 arrays (passed on without a per-row conversion), as other
    dtypes or non-contiguous views (converted), as ``array.array`` rows, and mixed in one
    batch: the same scores."""
    import array

    np = pytest.importorskip("numpy")
    rows = [json.loads(line) for line in gzip.open(TRACES, "rt", encoding="utf-8")][::97]
    gts = [r["ground_truth"] for r in rows]
    ids = [e.ids for e in hf_tokenizer.encode_batch([r["completion"] for r in rows], add_special_tokens=False)]
    scorer = APRScorer(tokenizer=hf_tokenizer)
    expected = scorer.score_token_ids(ids, gts, threads=1)
    int64 = [np.array(i, dtype=np.int64) for i in ids]
    strided = [np.repeat(a, 2)[::2] for a in int64]
    mixed = [[a, a.astype(np.int32), list(i), strided[k]][k % 4] for k, (a, i) in enumerate(zip(int64, ids))]
    arrays = [array.array("l", i) for i in ids]
    for form in (int64, tuple(int64), [a.astype(np.uint32) for a in int64], strided, mixed, arrays):
        assert scorer.score_token_ids(form, gts, threads=2) == expected


@needs_shared
def test_a_padded_batch_scores_as_its_rows(hf_tokenizer) -> None:
    """A 2-D batch with lengths (VeRL's padded ``responses`` and attention-mask lengths) gives
    the scores of its rows passed one by one, from numpy and from torch, on real traces; junk
    after a row's length is not read."""
    np = pytest.importorskip("numpy")
    rows = [json.loads(line) for line in gzip.open(TRACES, "rt", encoding="utf-8")][::40]
    completions = [r["completion"] for r in rows]
    gts = [r["ground_truth"] for r in rows]
    ids = [e.ids for e in hf_tokenizer.encode_batch(completions, add_special_tokens=False)]
    lengths = [len(i) for i in ids]
    batch = np.full((len(ids), max(lengths) + 3), 7, dtype=np.int32)  # 7: a real token, not padding
    for k, row in enumerate(ids):
        batch[k, : len(row)] = row
    scorer = APRScorer(tokenizer=hf_tokenizer)
    expected = scorer.score_token_ids(ids, gts, threads=1)
    assert scorer.score_token_ids(batch, gts, lengths=lengths, threads=2) == expected
    assert scorer.score_token_ids(batch, gts, lengths=np.array(lengths), threads=1) == expected
    torch = pytest.importorskip("torch")
    assert scorer.score_token_ids(torch.from_numpy(batch), gts, lengths=torch.tensor(lengths)) == expected
    # One torch row view per rollout: int64 CPU rows cross as numpy views of their memory in one
    # step; other dtypes and strided rows are converted row by row; all score alike.
    wide = torch.from_numpy(batch.astype(np.int64))
    views = [wide[k, :n] for k, n in enumerate(lengths)]
    assert scorer.score_token_ids(views, gts, threads=2) == expected
    assert scorer.score_token_ids([v.to(torch.int32) for v in views], gts) == expected
    assert scorer.score_token_ids([torch.repeat_interleave(v, 2)[::2] for v in views], gts) == expected
    assert scorer.score_token_ids(views[:1] + [v.to(torch.int32) for v in views[1:2]] + views[2:], gts) == expected
    # A bad id in a row view is that row's status, as for the same ids in a list.
    bad = [torch.tensor([-1, 5], dtype=torch.int64)] + views[1:]
    assert scorer.score_token_ids(bad, gts) == scorer.score_token_ids([[-1, 5]] + [list(i) for i in ids[1:]], gts)
    # Without lengths every row is read whole, junk included.
    assert scorer.score_token_ids(batch, gts) != expected


def test_a_padded_batch_rejects_bad_lengths(hf_tokenizer) -> None:
    np = pytest.importorskip("numpy")
    scorer = APRScorer(tokenizer=hf_tokenizer)
    batch = np.zeros((2, 4), dtype=np.int64)
    for lengths, error, words in [
        ([1], ValueError, "1 items for 2 rows"),
        ([1, 5], ValueError, "lengths[1] = 5"),
        ([-1, 2], ValueError, "lengths[0] = -1"),
        ([1, 2.0], TypeError, "lengths[1] must be int"),
        ("12", TypeError, "sequence of int"),
    ]:
        with pytest.raises(error, match=words.replace("[", "\\[").replace("]", "\\]")):
            scorer.score_token_ids(batch, ["1", "2"], lengths=lengths)
    with pytest.raises(ValueError, match="2-D"):
        apr_fast.tokens._native_id_rows(np.zeros((2, 2, 2), dtype=np.int64), None, "token_ids")
    # One response's ids where a batch is expected: say so, instead of failing on row 0.
    torch = pytest.importorskip("torch")
    for one in (np.array([1, 2, 3]), torch.tensor([1, 2, 3]), torch.tensor(5)):
        with pytest.raises(TypeError, match="for one response pass \\[ids\\]"):
            scorer.score_token_ids(one, ["1"])
    ragged = np.empty(2, dtype=object)
    ragged[0], ragged[1] = np.array([16, 17]), np.array([18])
    assert len(scorer.score_token_ids(ragged, ["1", "2"])) == 2  # a parquet column of rows is a batch
    with pytest.raises(TypeError, match="lengths goes with a 2-D"):
        scorer.score_token_ids([[1, 2]], ["1"], lengths=[2])
    assert scorer.score_token_ids(np.zeros((0, 4), dtype=np.int64), [], lengths=[]) == []


def test_the_one_call_score_keeps_a_bounded_cache_of_scorers() -> None:
    """apr_fast.score caches a scorer per (config, tokenizer); a sweep over many configs does not
    keep one for each (a scorer may hold a 7 MB vocabulary)."""
    from apr_fast import reward

    response = "<think>So x = 2. Let me check: 2 + 2 = 4, yes.</think> \\boxed{2}"
    for k in range(3 * reward._MAX_DEFAULT_SCORERS):
        beta = 1e-3 * (k + 1)
        s = apr_fast.score(response, "2", config=RewardConfig(beta=beta))
        assert s.reward == pytest.approx(1.0 - beta * s.l_ast) and s.l_ast > 0
        assert len(reward._default_scorers) <= reward._MAX_DEFAULT_SCORERS


def test_to_dict_is_what_asdict_gives() -> None:
    """The shallow to_dict equals dataclasses.asdict, in field order, for scores built natively
    (ok, truncated, no answer, bad ground truth) and for scores the CAS step rebuilt."""
    import dataclasses

    scorer = APRScorer(RewardConfig(cas=True))
    responses = ["<think>So x = 2. Let me check.</think> \\boxed{2}", "<think>So x = 2.", "<think>Hmm.</think> done",
                 "<think>So x = 2.</think> \\boxed{2}", "So it is \\pi/2.</think>\\boxed{\\frac{\\pi}{2}}"]
    for s in scorer.score_batch(responses, ["2", "2", "2", None, "1.5707963267948966"]):
        assert s.to_dict() == dataclasses.asdict(s)
        assert list(s.to_dict()) == [f.name for f in dataclasses.fields(s)]
