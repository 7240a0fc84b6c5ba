"""The apr-fast command line, run as users run it."""
from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest

from apr_fast.cli import main

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


def test_missing_file_and_bad_options() -> None:
    out = run("score", "/nonexistent.jsonl")
    assert out.returncode == 1 and "no such file" in out.stderr
    assert run("score", str(SAMPLES), "--threads", "0").returncode == 2
    assert run("score", str(SAMPLES), "--mode", "nope").returncode == 2
