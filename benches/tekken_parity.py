#!/usr/bin/env python3
"""The native encoder on a real Tekken vocabulary (Mistral Nemo, Pixtral, Magistral's family)
against `tokenizers`, on every real trace and problem.

Mistral ships its Tekken vocabularies in the `mistral-common` wheel (`tekken_240911.json`,
131,072 ids, the pattern `tokenizer.json` files carry for these models). This script downloads
that wheel from PyPI (kept in ``--cache``; nothing of it is copied into this repository),
converts the vocabulary into a `tokenizer.json` with transformers' own converter (what
`transformers` does for a model that ships `tekken.json`), and encodes the traces both ways:
same ids and token boundaries is the pass mark. Times are wall time with both encoders on all
cores.

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
    return 1 if mismatched else 0


if __name__ == "__main__":
    raise SystemExit(main())
