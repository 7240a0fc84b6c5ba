"""The apr-fast command line, run as users run it."""
from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest

from apr_fast.cli import count_rows, main

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "examples" / "data" / "sample_traces.jsonl"
TOKENIZER = ROOT / "examples" / "data" / "deepseek-r1-distill-qwen.tokenizer.json.gz"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "apr_fast.cli", *args], capture_output=True, text=True, timeout=600)


def test_score_jsonl_output_has_one_record_per_rollout_with_the_same_keys() -> None:
    out = run("score", str(SAMPLES), "--tokenizer", str(TOKENIZER), "--format", "jsonl", "-q")
    assert out.returncode == 0, out.stderr
    records = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(records) == 50
    assert len({tuple(r) for r in records}) == 1
    assert all(r["length_unit"] == "tokens" for r in records)
    assert [r["index"] for r in records] == list(range(50))
    assert sum(r["correct"] for r in records) >= 40


def test_native_and_tokenizers_encoding_give_the_same_records() -> None:
    native = run("score", str(SAMPLES), "--tokenizer", str(TOKENIZER), "--format", "jsonl", "-q", "--limit", "20")
    by_tokenizers = run("score", str(SAMPLES), "--tokenizer", str(TOKENIZER), "--format", "jsonl", "-q", "--limit", "20",
                        "--tokenizers-encoding")
    assert native.returncode == by_tokenizers.returncode == 0, native.stderr + by_tokenizers.stderr
    assert native.stdout == by_tokenizers.stdout and len(native.stdout.splitlines()) == 20
    alone = run("score", str(SAMPLES), "--tokenizers-encoding", "-q")
    assert alone.returncode == 2 and "--tokenizers-encoding goes with --tokenizer" in alone.stderr


def test_score_table_prints_rows_and_a_summary(tmp_path) -> None:
    dest = tmp_path / "out.txt"
    assert main(["score", str(SAMPLES), "--limit", "5", "--format", "table", "-o", str(dest)]) == 0
    text = dest.read_text()
    assert "T_think" in text and "accuracy" in text and "mean rho" in text
    assert len([line for line in text.splitlines() if line.strip()[:1].isdigit()]) == 5


def test_reads_gzip_json_lists_and_nested_fields(tmp_path) -> None:
    rows = [json.loads(line) for line in SAMPLES.open()][:3]
    nested = [{"solution_str": r["completion"], "reward_model": {"ground_truth": r["ground_truth"]}} for r in rows]
    (tmp_path / "a.json").write_text(json.dumps(nested))
    with gzip.open(tmp_path / "b.jsonl.gz", "wt") as f:
        for r in nested:
            f.write(json.dumps(r) + "\n")
    for name in ("a.json", "b.jsonl.gz"):
        out = run("score", str(tmp_path / name), "--format", "jsonl", "-q")
        assert out.returncode == 0, out.stderr
        assert len(out.stdout.splitlines()) == 3


def test_parquet_input(tmp_path) -> None:
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    rows = [json.loads(line) for line in SAMPLES.open()][:4]
    pd.DataFrame([{"response": r["completion"], "answer": r["ground_truth"]} for r in rows]).to_parquet(tmp_path / "r.parquet")
    out = run("score", str(tmp_path / "r.parquet"), "--format", "jsonl", "-q")
    assert out.returncode == 0, out.stderr
    assert len(out.stdout.splitlines()) == 4


def test_the_progress_bar_knows_the_row_count_where_it_is_cheap(tmp_path) -> None:
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    pd.DataFrame({"response": ["a", "b", "c"], "answer": ["1", "2", "3"]}).to_parquet(tmp_path / "r.parquet")
    (tmp_path / "r.jsonl").write_text('{"a": 1}\n\n{"a": 2}\n')
    assert count_rows([str(SAMPLES)]) == 50
    assert count_rows([str(tmp_path / "r.parquet"), str(tmp_path / "r.jsonl")]) == 5
    assert count_rows([str(SAMPLES), "-"]) is None  # stdin, gzip or a JSON list: unknown
    assert count_rows([str(tmp_path / "missing.jsonl")]) is None  # the reader reports it


def test_segment_reports_sentences_and_cues() -> None:
    out = run("segment", str(SAMPLES), "--limit", "2")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("#0:") and "conclusion cue" in out.stdout


def test_cue_languages_option(tmp_path) -> None:
    path = tmp_path / "zh.jsonl"
    path.write_text(json.dumps({"thinking": "所以答案是5。让我验证一下。"}, ensure_ascii=False) + "\n", encoding="utf-8")
    english = run("segment", str(path), "--format", "jsonl")
    both = run("segment", str(path), "--format", "jsonl", "--cue-languages", "en,zh")
    assert english.returncode == 0 and both.returncode == 0, both.stderr
    first = lambda out: json.loads(out.stdout.splitlines()[0])  # noqa: E731
    assert (first(english)["conclusion_sentences"], first(english)["verification_sentences"]) == (0, 0)
    assert (first(both)["conclusion_sentences"], first(both)["verification_sentences"]) == (1, 1)
    bad = run("segment", str(path), "--cue-languages", "en,fr")
    assert bad.returncode == 2 and "distinct keys" in bad.stderr


def test_check_exit_status() -> None:
    assert run("check", "\\frac{1}{2}", "0.5").returncode == 0
    out = run("check", "1/3", "0.333")
    assert out.returncode == 3 and out.stdout.startswith("not_equal")
    undecided = run("check", "", "0.5", "--no-cas")
    assert undecided.returncode == 4 and undecided.stdout.startswith("unknown")


def test_a_row_with_a_bad_ground_truth_gets_a_status_and_the_others_are_scored(tmp_path) -> None:
    rows = [json.loads(line) for line in SAMPLES.open()][:4]
    rows[1]["ground_truth"], rows[2]["ground_truth"] = None, ""
    del rows[3]["ground_truth"]
    path = tmp_path / "r.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = run("score", str(path), "--format", "jsonl", "-q")
    assert out.returncode == 0, out.stderr
    statuses = [json.loads(line)["status"] for line in out.stdout.splitlines()]
    assert statuses[0] != "invalid_input" and statuses[1:] == ["invalid_input"] * 3
    # A null in the first row still finds the field, and the row is reported, not the file.
    first_null = tmp_path / "n.jsonl"
    first_null.write_text("".join(json.dumps(r) + "\n" for r in rows[1:3] + rows[:1]))
    out = run("score", str(first_null), "--format", "jsonl", "-q")
    assert out.returncode == 0, out.stderr
    assert [json.loads(line)["status"] for line in out.stdout.splitlines()][:2] == ["invalid_input"] * 2


def test_several_files_name_each_row_by_file_and_index(tmp_path) -> None:
    out = run("score", str(SAMPLES), str(SAMPLES), "--format", "jsonl", "-q", "--limit", "52")
    assert out.returncode == 0, out.stderr
    records = [json.loads(line) for line in out.stdout.splitlines()]
    assert [(r["file"], r["index"]) for r in records[48:]] == [(str(SAMPLES), 48), (str(SAMPLES), 49),
                                                              (str(SAMPLES), 0), (str(SAMPLES), 1)]


def test_segment_of_a_response_reads_its_thinking_only(tmp_path) -> None:
    thinking = "So x is 5. Let me verify it."
    (tmp_path / "r.jsonl").write_text(json.dumps({"response": f"<think>{thinking}</think>\n\nSo $\\boxed{{5}}$."}) + "\n")
    (tmp_path / "t.jsonl").write_text(json.dumps({"thinking": thinking}) + "\n")
    counts = []
    for name in ("r.jsonl", "t.jsonl"):
        out = run("segment", str(tmp_path / name), "--format", "jsonl")
        assert out.returncode == 0, out.stderr
        counts.append(json.loads(out.stdout)["sentences"])
    assert counts == [2, 2]


@pytest.mark.parametrize(
    ("content", "message"),
    [("not json\n", "not JSON"), ('{"foo": 1}\n', "no response field"), ('[1, 2]\n', "expected a JSON list of objects")],
)
def test_bad_input_is_a_clear_error_not_a_traceback(tmp_path, content, message) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(content)
    out = run("score", str(path), "--format", "jsonl")
    if content.startswith("["):  # a .jsonl holding a JSON list of non-objects
        assert out.returncode == 1 and "expected a JSON object" in out.stderr
    else:
        assert out.returncode == 1 and message in out.stderr
    assert "Traceback" not in out.stderr


def test_anchor_options_change_one_refinement_of_the_mode(tmp_path) -> None:
    rollout = {"completion": "So the probability is 8/32. That is 1/4. Let me verify.</think>\\boxed{\\frac{1}{4}}",
               "ground_truth": "1/4"}
    data = tmp_path / "r.jsonl"
    data.write_text(json.dumps(rollout) + "\n")

    def anchor(*options: str) -> int:
        out = run("score", str(data), "--format", "jsonl", "-q", *options)
        assert out.returncode == 0, out.stderr
        return json.loads(out.stdout)["anchor_sentence"]

    assert anchor() == 1
    assert anchor("--anchor-option", "skip_unreduced_forms=false") == 0
    assert anchor("--mode", "paper", "--anchor-option", "skip-unreduced-forms=yes") == 1
    for bad, message in [("nope=1", "NAME one of"), ("list_items=maybe", "true or false"),
                         ("backtrack_gap=-1", "int >= 0"), ("backtrack_gap", "NAME=VALUE")]:
        out = run("score", str(data), "--anchor-option", bad)
        assert out.returncode == 2 and message in out.stderr, out.stderr
        assert "Traceback" not in out.stderr


def test_missing_file_and_bad_options(tmp_path) -> None:
    out = run("score", "/nonexistent.jsonl")
    assert out.returncode == 1 and "no such file" in out.stderr
    assert run("score", str(SAMPLES), "--threads", "0").returncode == 2


def test_anchors_option_searches_only_the_rewarded_rollouts(tmp_path) -> None:
    data = tmp_path / "r.jsonl"
    rows = [{"completion": "So x = 5. Let me check.</think>\\boxed{5}", "ground_truth": gt} for gt in ("5", "6")]
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    every = run("score", str(data), "--format", "jsonl", "-q")
    rewarded = run("score", str(data), "--format", "jsonl", "-q", "--anchors", "rewarded")
    assert every.returncode == 0 and rewarded.returncode == 0, (every.stderr, rewarded.stderr)
    a = [json.loads(line) for line in every.stdout.splitlines()]
    r = [json.loads(line) for line in rewarded.stdout.splitlines()]
    assert [x["reward"] for x in a] == [x["reward"] for x in r]
    assert [x["anchor_searched"] for x in a] == [True, True] and [x["anchor_searched"] for x in r] == [True, False]
    assert r[0] == a[0] and a[1]["anchor_found"] and (r[1]["anchor_found"], r[1]["l_ast"]) == (False, 0)


def test_require_answer_after_think_option(tmp_path) -> None:
    data = tmp_path / "r.jsonl"
    data.write_text(json.dumps({"completion": "So x = 5, so \\boxed{5}.</think>", "ground_truth": "5"}) + "\n")
    for options, status in [((), "ok"), (("--require-answer-after-think",), "no_final_answer")]:
        out = run("score", str(data), "--format", "jsonl", "-q", *options)
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout)["status"] == status
    assert run("score", str(SAMPLES), "--mode", "nope").returncode == 2
    assert run("score", str(SAMPLES), "--anchors", "correct").returncode == 2
    (tmp_path / "empty.parquet").write_bytes(b"")
    (tmp_path / "ints.json").write_text("[1, 2, 3]")
    for args, status, message in [
        (("--beta", "-1"), 2, "beta must be a finite number >= 0"),
        (("--beta", "nan"), 2, "beta must be"),
        (("--floor", "2"), 2, "floor must be"),
        (("--problem-key", "nope"), 1, "no problem field 'nope'"),
        (("-o", str(tmp_path / "no" / "such" / "dir.jsonl")), 1, "cannot write there"),
    ]:
        out = run("score", str(SAMPLES), "--limit", "1", *args)
        assert out.returncode == status and message in out.stderr, (args, out.stderr)
        assert "Traceback" not in out.stderr
    for path, message in [(tmp_path, "is a directory"), (tmp_path / "empty.parquet", "not a readable parquet"),
                          (tmp_path / "ints.json", "item 0 of the list is int")]:
        out = run("score", str(path))
        assert out.returncode == 1 and message in out.stderr, out.stderr
        assert "Traceback" not in out.stderr


def test_think_tags_option(tmp_path) -> None:
    """Magistral writes [THINK] ... [/THINK]: with --think-tags (the two tags), --think-preset
    or --think-preset auto its rollouts score as <think> ones do; without, they have no closing
    tag (truncated).
    Unusable tags and unknown names are a usage error."""
    rows = [json.loads(line) for line in SAMPLES.read_text(encoding="utf-8").splitlines()[:5]]
    standard, magistral = tmp_path / "s.jsonl", tmp_path / "m.jsonl"
    standard.write_text("".join(json.dumps(r) + "\n" for r in rows))
    magistral.write_text("".join(
        json.dumps({**r, "completion": r["completion"].replace("<think>", "[THINK]").replace("</think>", "[/THINK]")})
        + "\n" for r in rows))
    records = {}
    for name, path, options in [("standard", standard, ()), ("tagged", magistral, ("--think-tags", "[THINK]", "[/THINK]")),
                                ("preset", magistral, ("--think-preset", "magistral")), ("untagged", magistral, ()),
                                ("auto", magistral, ("--think-preset", "auto"))]:
        out = run("score", str(path), "--format", "jsonl", "-q", "--no-cas", *options)
        assert out.returncode == 0, out.stderr
        records[name] = [json.loads(line) for line in out.stdout.splitlines()]
    figures = {name: [(r["status"], r["reward"], r["t_think"], r["l_ast"], r["anchor_sentence"]) for r in recs]
               for name, recs in records.items()}
    assert figures["tagged"] == figures["preset"] == figures["auto"] == figures["standard"]
    assert {r["status"] for r in records["untagged"]} == {"truncated"}
    segments = [run("segment", str(path), "--format", "jsonl", "--think-tags", *tags).stdout
                for path, tags in [(standard, ("<think>", "</think>")), (magistral, ("[THINK]", "[/THINK]"))]]
    assert segments[0] == segments[1].replace(str(magistral), str(standard))
    for command in ("score", "segment"):
        out = run(command, str(magistral), "--think-tags", "[THINK]", "}")
        assert out.returncode == 2 and "holds a brace" in out.stderr and "Traceback" not in out.stderr
        for options, message in [(("--think-preset", "gpt-oss"), "invalid choice"),
                                 (("--think-preset", "harmony", "--think-tags", "<t>", "</t>"), "not allowed with")]:
            out = run(command, str(magistral), *options)
            assert out.returncode == 2 and message in out.stderr and "Traceback" not in out.stderr, out.stderr
    # A preset before the files: one value, the files stay files.
    out = run("score", "--think-preset", "magistral", "--format", "jsonl", "-q", "--no-cas", str(magistral))
    assert out.returncode == 0, out.stderr
    assert [json.loads(line)["reward"] for line in out.stdout.splitlines()] == [r[1] for r in figures["standard"]]
