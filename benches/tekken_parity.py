#!/usr/bin/env python3
"""The native encoder on a real Tekken vocabulary (Mistral Nemo, Pixtral, Magistral's family)
against `tokenizers`, on every real trace and problem; and the reward on those tokens with
Magistral's thinking tags.

Mistral ships its Tekken vocabularies in the `mistral-common` wheel (`tekken_240911.json`,
131,072 ids, the pattern `tokenizer.json` files carry for these models). This script downloads
that wheel from PyPI (kept in ``--cache``; nothing of it is copied into this repository),
converts the vocabulary into a `tokenizer.json` with transformers' own converter (what
`transformers` does for a model that ships `tekken.json`), and encodes the traces both ways:
same ids and token boundaries is the pass mark. Times are wall time with both encoders on all
cores. Then, with the vocabulary's special tokens 34 and 35 named `[THINK]` and `[/THINK]` (as
Magistral's vocabulary has them), every third trace is retagged and scored with
`think_tags="magistral"` from the token ids (decoded natively) and from the text (encoded
natively): T_think, L_AST and the reward must agree, and status, correctness, final answer and
anchor sentence must be those of the trace scored with `<think>` tags.

    .venv/bin/python benches/tekken_parity.py [--cache ~/.cache/apr-fast-bench]
"""
from __future__ import annotations

import argparse
import base64
import json
import subprocess
import sys
import time
import zipfile
from pathlib import Path

from _common import load_traces, traces_missing

MISTRAL_COMMON = "mistral-common==1.13.1"
VOCABULARY = "mistral_common/data/tekken_240911.json"


def tekken_file(cache: Path) -> dict:
    """The Tekken vocabulary from the mistral-common wheel, downloaded into ``cache`` once."""
    cache.mkdir(parents=True, exist_ok=True)
    wheels = sorted(cache.glob("mistral_common-*.whl"))
    if not wheels:
        subprocess.run([sys.executable, "-m", "pip", "download", MISTRAL_COMMON, "--no-deps", "--only-binary", ":all:",
                        "-d", str(cache), "-q"], check=True)
        wheels = sorted(cache.glob("mistral_common-*.whl"))
    with zipfile.ZipFile(wheels[-1]) as wheel:
        return json.loads(wheel.read(VOCABULARY))


def tokenizer_json(tekken: dict) -> str:
    """The vocabulary as a `tokenizer.json`, converted the way `transformers` converts it."""
    from transformers.integrations.mistral import MistralConverter

    config = tekken["config"]
    n_special, size = config["default_num_special_tokens"], config["default_vocab_size"]
    specials = ["<unk>", "<s>", "</s>"] + [f"<SPECIAL_{i}>" for i in range(3, n_special)]
    vocab: dict = {s: i for i, s in enumerate(specials)}
    for entry in tekken["vocab"][: size - n_special]:
        vocab[base64.b64decode(entry["token_bytes"])] = entry["rank"] + n_special
    tokenizer = MistralConverter(vocab=vocab, additional_special_tokens=specials, pattern=config["pattern"]).converted()
    tokenizer.model.ignore_merges = True  # as transformers' conversion sets it
    return tokenizer.to_str()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "apr-fast-bench")
    args = parser.parse_args(argv)
    if traces_missing():
        return 2
    from tokenizers import Tokenizer

    from apr_fast import token_ends_from_offsets
    from apr_fast.encoding import TextEncoder

    tekken = tekken_file(args.cache)
    converted = tokenizer_json(tekken)
    encoder = TextEncoder.from_json(converted)  # raises if the native encoder refuses the file
    hf = Tokenizer.from_str(converted)
    rows = load_traces()
    texts = [r["completion"] for r in rows] + [r.get("problem") or "" for r in rows]
    t0 = time.perf_counter()
    expected = hf.encode_batch(texts, add_special_tokens=False)
    t1 = time.perf_counter()
    got = encoder.encode_batch(texts)
    t2 = time.perf_counter()
    mismatched = [i for i, (e, (ids, ends)) in enumerate(zip(expected, got))
                  if ids != e.ids or ends != token_ends_from_offsets(e.offsets)]
    n_tokens = sum(len(e.ids) for e in expected)
    print(f"Tekken vocabulary {VOCABULARY.rsplit('/', 1)[-1]} ({hf.get_vocab_size():,} ids), encoded natively; "
          f"{len(texts):,} texts, {n_tokens:,} tokens")
    print(f"same ids and token ends as tokenizers: {len(texts) - len(mismatched):,} of {len(texts):,}")
    print(f"wall time, all cores: tokenizers {t1 - t0:.2f} s, apr-fast {t2 - t1:.2f} s ({(t1 - t0) / (t2 - t1):.1f}x)")
    disagreements = magistral_rewards(converted, rows[::3], args.cache)
    return 1 if mismatched or disagreements else 0


def magistral_rewards(converted: str, rows: list, cache: Path) -> int:
    """Scores ``rows`` retagged with Magistral's `[THINK]`/`[/THINK]` on the Tekken vocabulary
    (from ids and from text) and with `<think>` on the bundled one; prints and returns the
    number of rows where they disagree."""
    from tokenizers import Tokenizer

    import apr_fast
    from _common import TOKENIZER

    t = json.loads(converted)
    names = {"<SPECIAL_34>": "[THINK]", "<SPECIAL_35>": "[/THINK]"}
    for added in t["added_tokens"]:
        added["content"] = names.get(added["content"], added["content"])
    t["model"]["vocab"] = {names.get(k, k): v for k, v in t["model"]["vocab"].items()}
    path = cache / "tekken_240911_magistral_tags.tokenizer.json"
    path.write_text(json.dumps(t), encoding="utf-8")
    hf = Tokenizer.from_file(str(path))
    texts = [r["completion"].replace("<think>", "[THINK]").replace("</think>", "[/THINK]") for r in rows]
    gts = [r["ground_truth"] for r in rows]
    ids = [e.ids for e in hf.encode_batch(texts, add_special_tokens=False)]
    config = apr_fast.RewardConfig(cas=False, think_tags="magistral")
    from_ids = apr_fast.APRScorer(config, vocabulary=apr_fast.Vocabulary.from_file(path)).score_token_ids(ids, gts)
    by_text = apr_fast.APRScorer(config, tokenizer=hf)
    assert by_text._encoder is not None, "the Tekken vocabulary is encoded natively"
    from_text = by_text.score_batch(texts, gts)
    r1 = apr_fast.APRScorer(apr_fast.RewardConfig(cas=False), tokenizer=Tokenizer.from_file(str(TOKENIZER)))
    original = r1.score_batch([r["completion"] for r in rows], gts)
    lengths = sum((a.t_think, a.l_ast, a.reward) == (b.t_think, b.l_ast, b.reward) for a, b in zip(from_ids, from_text))
    outcome = sum((a.status, a.correct, a.final_answer, a.anchor_sentence) == (b.status, b.correct, b.final_answer,
                                                                                b.anchor_sentence)
                  for a, b in zip(from_ids, original))
    print(f"Magistral's tags on this vocabulary, {len(rows):,} traces: T_think, L_AST and reward the same from ids "
          f"and from text on {lengths:,}; status, correctness, final answer and anchor sentence the same as with "
          f"<think> tags on {outcome:,}")
    return 2 * len(rows) - lengths - outcome


if __name__ == "__main__":
    raise SystemExit(main())
