"""What the VeRL adapters read from a row: the training-split mark, and a batch scored in two
groups put back in order (importable and testable without verl)."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from apr_fast import ConfigError
from apr_fast.verl.rows import is_training_row, scored_by_flag
from apr_fast.verl.settings import APRRewardSettings


@pytest.mark.parametrize(("extra_info", "training"), [
    ({"split": "train", "index": 3}, True),
    ({"split": " Train "}, True),
    ({"split": "test"}, False),
    ({"split": "validation"}, False),
    ({"split": None}, None),
    ({"split": 1}, None),
    ({"index": 3}, None),  # DAPO-Math-17k's rows carry no split: validation, every anchor searched
    (None, None),
    ("train", None),  # not a mapping
])
def test_a_training_row_is_one_whose_split_says_train(extra_info, training) -> None:
    """True for a training split, False for another split, None (not a training row) without one."""
    assert is_training_row(extra_info) is training


def test_a_numpy_string_split_is_read_as_a_string() -> None:
    np = pytest.importorskip("numpy")
    assert is_training_row({"split": np.str_("train")})


@given(st.lists(st.booleans(), max_size=40))
def test_scored_by_flag_puts_each_groups_results_back_in_place(flags) -> None:
    calls: list[tuple[bool, list[int]]] = []

    def score(flag: bool, positions: list[int]) -> list[tuple[bool, int]]:
        calls.append((flag, positions))
        return [(flag, i) for i in positions]

    assert scored_by_flag(flags, score) == [(flag, i) for i, flag in enumerate(flags)]
    assert sorted(flag for flag, _ in calls) == sorted(set(flags))  # one call per kind present
    assert all(positions == sorted(positions) for _, positions in calls)


def test_scored_by_flag_rejects_a_group_scored_short() -> None:
    with pytest.raises(RuntimeError, match="scored 1 rows for 2"):
        scored_by_flag([True, False, True], lambda flag, positions: positions[:1])


def test_by_split_is_the_default_and_picks_the_scope_by_row() -> None:
    settings = APRRewardSettings()
    assert settings.anchors == "by_split" and settings.scope_by_row
    assert settings.reward_config().anchors == "all"
    assert settings.reward_config(training_row=True).anchors == "rewarded"
    for anchors in ("all", "rewarded"):
        fixed = APRRewardSettings(anchors=anchors)
        assert not fixed.scope_by_row
        assert fixed.reward_config().anchors == fixed.reward_config(training_row=True).anchors == anchors
    with pytest.raises(ConfigError, match=r"reward_kwargs.anchors must be one of \('by_split', 'all', 'rewarded'\)"):
        APRRewardSettings(anchors="train")


def test_split_marks_say_once_and_name_the_row_only_then(caplog) -> None:
    import logging

    from apr_fast.verl.rows import SplitMarks

    named: list[int] = []

    def name(i: int):
        def row_name() -> str:
            named.append(i)
            return f"row index={i}"
        return row_name

    marks = SplitMarks(logging.getLogger("apr_fast.test"))
    with caplog.at_level(logging.WARNING, logger="apr_fast.test"):
        flags = [marks.is_training(e, name(i)) for i, e in
                 enumerate([{"split": "train"}, {"index": 1}, None, {"split": "test"}, {"split": "train"}])]
    assert flags == [True, False, False, False, True]
    assert named == [1]  # only the first row without a split was named, for the one message
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 1 and "row index=1 has no extra_info.split" in said[0]
