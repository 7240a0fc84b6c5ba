"""The ``apr-fast`` command line.

    apr-fast score rollouts.jsonl --tokenizer tokenizer.json     # APR reward of every rollout
    apr-fast segment traces.jsonl                                # sentences and cues per trace
    apr-fast check '\\frac{1}{2}' 0.5                             # are two answers equivalent?

``score`` and ``segment`` read JSONL (optionally gzipped), a JSON list, or parquet, stream
large files in batches with a progress bar on stderr, and write a table (default on a
terminal) or one JSON object per line (``--format jsonl``, default when piped) to stdout or
``-o FILE``; each row is named by its file and its index in that file. Exit status: 0 on
success, 1 when an input could not be read, 2 on bad usage; ``check``: 0 equal, 3 not equal,
4 undecided.
"""
from __future__ import annotations

import argparse
import gzip
import io
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import IO, Any, Iterable, Iterator, Optional, Sequence

import apr_fast
from apr_fast import _core
from apr_fast.cues import cue_lists
from apr_fast.errors import ConfigError, TokenizerError
from apr_fast.reward import ANCHOR_MODES, AnchorOptions, APRScorer, RewardConfig, RolloutScore
from apr_fast.think_tags import AUTO_THINK_TAGS, DEFAULT_THINK_TAGS, THINK_TAG_PRESETS, ResolvedThinkTags, resolve_think_tags
from apr_fast.tokens import load_hf_tokenizer
from apr_fast.verl.rows import PROBLEM_KEYS as VERL_PROBLEM_KEYS

RESPONSE_KEYS = ("completion", "response", "solution_str", "output", "generated_text", "text")
GROUND_TRUTH_KEYS = ("ground_truth", "answer", "gt", "reward_model.ground_truth")
# Where rows keep the problem: top level, or in extra_info as the VeRL adapters read it.
PROBLEM_KEYS = (*VERL_PROBLEM_KEYS, *(f"extra_info.{k}" for k in VERL_PROBLEM_KEYS), "prompt")


class InputError(Exception):
    """An input file that cannot be read as rollouts."""


class UsageError(Exception):
    """Options that parse but do not make a valid configuration (exit status 2)."""


# ------------------------------------------------------------------------------------ input


def read_records(path: str) -> Iterator[dict[str, Any]]:
    """Rows of a JSONL(.gz), JSON list or parquet file, streamed where the format allows."""
    p = Path(path)
    if path != "-" and not p.exists():
        raise InputError(f"{path}: no such file")
    if p.is_dir():
        raise InputError(f"{path}: is a directory (name the files in it)")
    name = p.name.lower()
    if name.endswith(".parquet"):
        try:
            import pyarrow
            import pyarrow.parquet as pq
        except ImportError:
            raise InputError(f"{path}: reading parquet needs pyarrow (pip install pyarrow)") from None
        try:
            for batch in pq.ParquetFile(path).iter_batches(batch_size=1024):
                yield from batch.to_pylist()
        except (pyarrow.ArrowException, OSError) as e:
            raise InputError(f"{path}: not a readable parquet file ({e})") from None
        return
    stream: IO[str]
    if path == "-":
        stream = sys.stdin
    elif name.endswith(".gz"):
        stream = io.TextIOWrapper(gzip.open(path, "rb"), encoding="utf-8")
    else:
        stream = open(path, encoding="utf-8")
    with stream:
        first = ""
        while not first.strip():
            first = stream.readline()
            if not first:
                return
        if first.lstrip().startswith("[") and not name.endswith((".jsonl", ".jsonl.gz")):
            try:
                data = json.loads(first + stream.read())
            except json.JSONDecodeError as e:
                raise InputError(f"{path}: not JSON ({e.msg} at line {e.lineno})") from None
            if not isinstance(data, list):
                raise InputError(f"{path}: expected a JSON list of objects")
            for i, item in enumerate(data):
                if not isinstance(item, dict):
                    raise InputError(f"{path}: item {i} of the list is {type(item).__name__}, expected a JSON object")
                yield item
            return
        yield _json_line(first, path, 1)
        for n, line in enumerate(stream, start=2):
            if line.strip():
                yield _json_line(line, path, n)


def _json_line(line: str, path: str, n: int) -> dict[str, Any]:
    try:
        row = json.loads(line)
    except json.JSONDecodeError as e:
        raise InputError(f"{path}:{n}: not JSON ({e.msg})") from None
    if not isinstance(row, dict):
        raise InputError(f"{path}:{n}: expected a JSON object, got {type(row).__name__}")
    return row


_MISSING = object()


def lookup(row: dict[str, Any], key: str, default: Any = None) -> Any:
    """``row[key]``, where ``a.b`` looks inside nested objects; ``default`` when absent."""
    value: Any = row
    for part in key.split("."):
        if not isinstance(value, dict) or part not in value:
            return default
        value = value[part]
    return value


def pick_key(row: dict[str, Any], given: Optional[str], candidates: Sequence[str], what: str, required: bool) -> Optional[str]:
    """The field of ``row`` (the first row) holding ``what``: ``given`` (which must exist), else
    the first of ``candidates`` that the row has (a null value counts: a row's null ground truth
    is that row's problem, reported with its score)."""
    if given:
        if lookup(row, given, _MISSING) is _MISSING:
            raise InputError(f"the first row has no {what} field {given!r} (fields: {sorted(row)})")
        return given
    for key in candidates:
        if lookup(row, key) is not None:
            return key
    for key in candidates:
        if lookup(row, key, _MISSING) is not _MISSING:
            return key
    if required:
        raise InputError(f"no {what} field found (tried {list(candidates)}; fields: {sorted(row)}); "
                         f"name it with --{what.replace(' ', '-')}-key")
    return None


def numbered_records(paths: Sequence[str], limit: Optional[int]) -> Iterator[tuple[str, int, dict[str, Any]]]:
    """``(file, index in that file, row)`` over the files in turn, at most ``limit`` rows in all."""
    rows = ((path, i, row) for path in paths for i, row in enumerate(read_records(path)))
    if limit is not None:
        rows = (item for _, item in zip(range(limit), rows))
    return rows


def count_rows(paths: Sequence[str]) -> Optional[int]:
    """How many rows the files hold, when that is cheap to know: a parquet file's metadata, or
    the non-blank lines of a plain JSONL file (one fast pass over its bytes). None when any
    file is stdin, gzipped, a JSON list, or unreadable (the reader will report it)."""
    total = 0
    for path in paths:
        name = path.lower()
        try:
            if name.endswith(".parquet"):
                import pyarrow.parquet as pq

                total += pq.ParquetFile(path).metadata.num_rows
            elif name.endswith(".jsonl"):
                with open(path, "rb") as f:
                    total += sum(1 for line in f if line.strip())
            else:
                return None
        except Exception:  # any failure to count is the reader's to report, with its message
            return None
    return total


def _think_tags_option(args: argparse.Namespace) -> ResolvedThinkTags:
    """The tags of ``--think-tags OPEN CLOSE`` or ``--think-preset NAME`` (default: <think>;
    ``auto``: each response's own family's)."""
    try:
        return resolve_think_tags(args.think_preset if args.think_preset is not None else args.think_tags)
    except ConfigError as e:
        raise UsageError(str(e)) from None


def thinking_part(text: str, tags: ResolvedThinkTags = DEFAULT_THINK_TAGS) -> str:
    """The thinking of a response: after a leading opening tag (``<think>``), before the first
    closing tag (``</think>``), the whole text when it has neither, as the scorer reads it."""
    start, end, _ = _core.thinking_span(text, think_tags=tags)
    return text[start:end]


def print_file_heading(paths: Sequence[str], path: str, index: int, out: IO[str]) -> None:
    """In a table over several files, a ``# FILE`` line before each file's first row."""
    if len(paths) > 1 and index == 0:
        print(f"# {path}", file=out)


def batched(items: Iterable[Any], size: int) -> Iterator[list[Any]]:
    batch: list[Any] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


class Progress:
    """A progress line on stderr (tqdm when installed); silent when stderr is not a terminal."""

    def __init__(self, total: Optional[int], unit: str, enabled: bool) -> None:
        self.enabled = enabled
        self.count = 0
        self.start = time.perf_counter()
        self._bar = None
        if enabled:
            try:
                from tqdm import tqdm

                self._bar = tqdm(total=total, unit=unit, file=sys.stderr, dynamic_ncols=True)
            except ImportError:
                pass
        self.unit = unit

    def update(self, n: int) -> None:
        self.count += n
        if self._bar is not None:
            self._bar.update(n)
        elif self.enabled:
            rate = self.count / max(time.perf_counter() - self.start, 1e-9)
            print(f"\r{self.count} {self.unit} ({rate:,.0f}/s)", end="", file=sys.stderr, flush=True)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
        elif self.enabled:
            print(file=sys.stderr)


# ------------------------------------------------------------------------------------ score


def load_tokenizer(name: str) -> Any:
    """A ``tokenizers.Tokenizer`` from a tokenizer.json(.gz), a model directory or a hub name."""
    try:
        return load_hf_tokenizer(name)
    except TokenizerError as e:
        raise InputError(f"--tokenizer: {e}") from None


def short(text: Optional[str], width: int) -> str:
    if text is None:
        return "-"
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def short_end(text: str, width: int) -> str:
    """The end of ``text`` on one line (the anchor is the end of its sentence)."""
    text = " ".join(text.split())
    return text if len(text) <= width else "…" + text[len(text) - width + 1:]


def score_table_header() -> str:
    return (f"{'#':>5}  {'final answer':<18} {'ok':<3} {'anchor':>9} {'T_think':>8} {'L_AST':>7} "
            f"{'rho':>6} {'reward':>8}  {'status':<16} anchor sentence (its end)")


def score_table_row(i: int, s: RolloutScore, response: str) -> str:
    found = s.anchor_found and s.anchor_sentence is not None
    anchor = f"{s.anchor_sentence + 1}/{s.num_sentences}" if found and s.anchor_sentence is not None else "-"
    sentence = short_end(response[s.anchor_span[0]:s.anchor_span[1]], 48) if found else "-"
    return (f"{i:>5}  {short(s.final_answer, 18):<18} {'✓' if s.correct else '✗':<3} {anchor:>9} "
            f"{s.t_think:>8} {s.l_ast:>7} {s.rho:>6.3f} {s.reward:>8.4f}  {s.status:<16} {sentence}")


def summarize_scores(scores: list[RolloutScore]) -> str:
    n = len(scores)
    if n == 0:
        return "no rollouts"
    unit = scores[0].length_unit
    complete = [s for s in scores if s.has_think_close]
    anchored = [s for s in scores if s.anchor_found]
    statuses = Counter(s.status for s in scores)
    lines = [
        f"rollouts           {n}",
        f"accuracy           {sum(s.correct for s in scores) / n:.1%}",
        f"complete (</think>) {len(complete) / n:.1%}",
        f"anchor found       {len(anchored) / n:.1%}",
        f"mean T_think       {statistics.fmean(s.t_think for s in scores):,.0f} {unit}",
        f"mean L_AST         {statistics.fmean(s.l_ast for s in scores):,.0f} {unit}",
        f"mean rho           {statistics.fmean(s.rho for s in scores):.3f}"
        + (f" (anchored only: {statistics.fmean(s.rho for s in anchored):.3f})" if anchored else ""),
        f"mean reward        {statistics.fmean(s.reward for s in scores):.4f}",
        "status             " + ", ".join(f"{k} {v}" for k, v in statuses.most_common()),
    ]
    return "\n".join(lines)


def _cue_languages(value: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    try:
        return cue_lists([x.strip() for x in value.split(",")])
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from e


_TRUE, _FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")


def _anchor_option(value: str) -> tuple[str, Any]:
    """``NAME=VALUE`` of one :class:`AnchorOptions` field, its value read by the field's type."""
    name, sep, text = value.partition("=")
    name, text = name.strip().replace("-", "_"), text.strip()
    if not sep or name not in AnchorOptions.names():
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE with NAME one of {', '.join(AnchorOptions.names())}; "
                                         f"got {value!r}")
    parsed: Any = text
    if name == "backtrack_gap" or (name == "max_extra_complexity" and text.lower() != "none"):
        try:
            parsed = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} takes an integer, got {text!r}") from None
    elif name == "max_extra_complexity":
        parsed = None
    elif name != "context":
        if text.lower() not in _TRUE + _FALSE:
            raise argparse.ArgumentTypeError(f"{name} takes true or false, got {text!r}")
        parsed = text.lower() in _TRUE
    try:
        AnchorOptions().replace(**{name: parsed})
    except (TypeError, ValueError) as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return name, parsed


def cmd_score(args: argparse.Namespace, out: IO[str]) -> int:
    conclusion, verification = args.cue_languages
    try:
        config = RewardConfig(beta=args.beta, floor=args.floor, mode=args.mode, reference=args.reference,
                              cas=not args.no_cas, conclusion_cues=conclusion, verification_cues=verification,
                              anchor_options=dict(args.anchor_option or ()) or None,
                              require_answer_after_think=args.require_answer_after_think,
                              think_tags=_think_tags_option(args), anchors=args.anchors)
    except (TypeError, ValueError, ConfigError) as e:
        raise UsageError(str(e)) from None
    tokenizer = load_tokenizer(args.tokenizer) if args.tokenizer else None
    if args.tokenizers_encoding and tokenizer is None:
        raise UsageError("--tokenizers-encoding goes with --tokenizer")
    scorer = APRScorer(config, tokenizer=tokenizer, native_encoding=not args.tokenizers_encoding)
    fmt = args.format or ("table" if out.isatty() else "jsonl")
    rows = numbered_records(args.files, args.limit)
    show_progress = sys.stderr.isatty() and not args.quiet
    total = count_rows(args.files) if show_progress else None
    if total is not None and args.limit is not None:
        total = min(total, args.limit)
    progress = Progress(total if total is not None else args.limit, "rollouts", enabled=show_progress)
    keys: Optional[tuple[str, Optional[str], Optional[str]]] = None
    all_scores: list[RolloutScore] = []
    if fmt == "table":
        print(score_table_header(), file=out)
    try:
        for batch in batched(rows, args.batch_size):
            if keys is None:
                first = batch[0][2]
                keys = (
                    pick_key(first, args.response_key, RESPONSE_KEYS, "response", True),  # type: ignore[assignment]
                    pick_key(first, args.ground_truth_key, GROUND_TRUTH_KEYS, "ground truth", True),
                    pick_key(first, args.problem_key, PROBLEM_KEYS, "problem", False),
                )
            assert keys is not None
            rk, gk, pk = keys
            responses: list[str] = []
            gts: list[Any] = []
            problems: list[Optional[str]] = []
            for path, i, row in batch:
                response = lookup(row, rk)
                if not isinstance(response, str):
                    raise InputError(f"{path}: row {i}: {rk!r} is {type(response).__name__}, not str")
                responses.append(response)
                gts.append(lookup(row, gk) if gk else "")
                problem = lookup(row, pk) if pk else None
                problems.append(problem if isinstance(problem, str) else None)
            # Log lines name a rollout by its file and row, as the output does.
            names = [f"{path} row {i}" for path, i, _ in batch]
            scores = scorer.score_batch(responses, gts, problems=problems, threads=args.threads, row_names=names)
            for s, response, (path, i, _) in zip(scores, responses, batch):
                if fmt == "table":
                    print_file_heading(args.files, path, i, out)
                    print(score_table_row(i, s, response), file=out)
                else:
                    print(json.dumps({"file": path, "index": i, **s.to_dict()}, ensure_ascii=False), file=out)
            all_scores.extend(scores)
            progress.update(len(batch))
    finally:
        progress.close()
    if fmt == "table" or not args.quiet:
        dest = out if fmt == "table" else sys.stderr
        print(f"\n{summarize_scores(all_scores)}", file=dest)
    return 0


# ------------------------------------------------------------------------------------ segment


def cmd_segment(args: argparse.Namespace, out: IO[str]) -> int:
    think_tags = _think_tags_option(args)
    rows = numbered_records(args.files, args.limit)
    key: Optional[str] = None
    totals: Counter[str] = Counter()
    for batch in batched(rows, args.batch_size):
        if key is None:
            key = pick_key(batch[0][2], args.text_key, ("thinking",) + RESPONSE_KEYS, "text", True)
        texts: list[str] = []
        for path, i, row in batch:
            text = lookup(row, key)  # type: ignore[arg-type]
            if not isinstance(text, str):
                raise InputError(f"{path}: row {i}: {key!r} is {type(text).__name__}, not str")
            # A whole response: only its thinking has the sentences the anchor is sought in.
            texts.append(text if key == "thinking" else thinking_part(text, think_tags))
        conclusion_cues, verification_cues = args.cue_languages
        cued_texts = apr_fast.find_cues_batch(texts, conclusion=list(conclusion_cues),
                                              verification=list(verification_cues), threads=args.threads)
        for (path, index, _), cued in zip(batch, cued_texts):
            n = len(cued)
            conclusion = sum(1 for c in cued if c.conclusion)
            verification = sum(1 for c in cued if c.verification)
            totals.update(traces=1, sentences=n, conclusion=conclusion, verification=verification)
            if args.format == "jsonl":
                print(json.dumps({"file": path, "index": index, "sentences": n, "conclusion_sentences": conclusion,
                                  "verification_sentences": verification,
                                  "examples": [c.sentence.text.strip() for c in cued[: args.examples]]},
                                 ensure_ascii=False), file=out)
            else:
                print_file_heading(args.files, path, index, out)
                print(f"#{index}: {n} sentences, {conclusion} with a conclusion cue, "
                      f"{verification} with a verification cue", file=out)
                for c in cued[: args.examples]:
                    tags = "".join(("C" if c.conclusion else "-", "V" if c.verification else "-"))
                    print(f"    [{tags}] {short(c.sentence.text, 100)}", file=out)
    if args.format != "jsonl":
        t = totals
        print(f"\n{t['traces']} traces, {t['sentences']} sentences "
              f"({t['sentences'] / max(t['traces'], 1):.1f} per trace); {t['conclusion']} with a "
              f"conclusion cue, {t['verification']} with a verification cue", file=out)
    return 0


# ------------------------------------------------------------------------------------ check


def cmd_check(args: argparse.Namespace, out: IO[str]) -> int:
    policy = apr_fast.EquivalencePolicy(percent=args.percent, units=args.units)
    j = apr_fast.equivalent(args.a, args.b, policy=policy, cas=not args.no_cas)
    print(f"{j.verdict.value} ({j.method.value}: {j.detail})", file=out)
    return {apr_fast.Verdict.EQUAL: 0, apr_fast.Verdict.NOT_EQUAL: 3}.get(j.verdict, 4)


# ------------------------------------------------------------------------------------ main


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="apr-fast", description="Anchor-based Process Rewards for reasoning-model RL.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {apr_fast.__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("files", nargs="+", help="JSONL (.gz), JSON list or parquet files; - reads stdin")
    common.add_argument("-o", "--output", help="write here instead of stdout")
    common.add_argument("--threads", type=int, default=None, help=f"worker threads (default: ${apr_fast.THREADS_ENV} or all CPUs)")
    common.add_argument("--batch-size", type=int, default=4096, help="rows per native call (default 4096)")
    common.add_argument("--limit", type=int, default=None, help="stop after this many rows")
    common.add_argument("--cue-languages", type=_cue_languages, default=cue_lists(["en"]), metavar="LANGS",
                        help="cue lists by language, comma-separated: en (the paper's, default), zh (Chinese); "
                             "e.g. en,zh")
    tags = common.add_mutually_exclusive_group()
    tags.add_argument("--think-tags", nargs=2, type=str, default=DEFAULT_THINK_TAGS, metavar=("OPEN", "CLOSE"),
                      help="the tags around the thinking (default: <think> </think>; e.g. '<seed:think>' "
                           "'</seed:think>')")
    tags.add_argument("--think-preset", choices=(*THINK_TAG_PRESETS, AUTO_THINK_TAGS), default=None, metavar="NAME",
                      help="the tags of a model family instead: " + ", ".join(THINK_TAG_PRESETS)
                           + " (harmony: gpt-oss's analysis channel; magistral: [THINK] [/THINK]), or auto: "
                             "each response's own family's")

    s = sub.add_parser("score", parents=[common], help="APR reward of every rollout in the files",
                       description="Score rollouts with the APR reward and print one result per rollout and a summary.")
    s.add_argument("--tokenizer", help="count lengths in these tokens: tokenizer.json(.gz), model directory or hub name "
                                       "(default: characters)")
    s.add_argument("--tokenizers-encoding", action="store_true",
                   help="encode the text with the tokenizers library itself rather than apr-fast's native encoder "
                        "(the same tokens for the tokenizers it reproduces: Qwen2, Llama 3, DeepSeek-V3, GPT-2 "
                        "families; slower)")
    s.add_argument("--beta", type=float, default=2e-4, help="penalty per tail token (paper: 2e-4 for 1.5B, 5e-4 for 7B)")
    s.add_argument("--floor", type=float, default=None, help="lower bound of a correct response's reward (default: none)")
    s.add_argument("--mode", choices=ANCHOR_MODES, default="default", help="anchor localisation mode")
    s.add_argument("--anchor-option", type=_anchor_option, action="append", default=[], metavar="NAME=VALUE",
                   help="change one refinement of --mode, e.g. skip_unreduced_forms=false (repeatable; names: "
                        "those of apr_fast.AnchorOptions)")
    s.add_argument("--reference", choices=("final_answer", "ground_truth"), default="final_answer",
                   help="anchor on the response's own final answer (training) or on the ground truth")
    s.add_argument("--anchors", choices=("all", "rewarded"), default="all",
                   help="locate the anchor of every rollout (default), or only of those whose reward depends on it "
                        "(the same rewards, faster; others get anchor_searched=false and L_AST 0)")
    s.add_argument("--no-cas", action="store_true", help="never call sympy for undecided correctness")
    s.add_argument("--require-answer-after-think", action="store_true",
                   help="count only a final answer after </think> (a strict format: an answer only in the thinking is none)")
    s.add_argument("--response-key", help=f"field holding the response (default: first of {', '.join(RESPONSE_KEYS)})")
    s.add_argument("--ground-truth-key", help="field holding the ground truth (dots reach into objects)")
    s.add_argument("--problem-key", help="field holding the problem statement")
    s.add_argument("--format", choices=("table", "jsonl"), help="default: table on a terminal, jsonl otherwise")
    s.add_argument("-q", "--quiet", action="store_true", help="no progress bar, no summary with jsonl")
    s.set_defaults(func=cmd_score)

    g = sub.add_parser("segment", parents=[common], help="sentences and conclusion/verification cues per trace")
    g.add_argument("--text-key", help="field holding the text (default: thinking, then the response fields)")
    g.add_argument("--examples", type=int, default=3, help="example sentences to show per trace")
    g.add_argument("--format", choices=("table", "jsonl"), default="table")
    g.set_defaults(func=cmd_segment)

    c = sub.add_parser("check", help="whether two answers are mathematically equivalent (exit 0 if equal)",
                       description="Exit status: 0 equal, 3 not equal, 4 undecided (even with sympy).")
    c.add_argument("a")
    c.add_argument("b")
    c.add_argument("--percent", choices=("strict", "as_fraction", "either"), default="strict")
    c.add_argument("--units", choices=("strict", "ignore"), default="strict")
    c.add_argument("--no-cas", action="store_true", help="native engine only")
    c.set_defaults(func=cmd_check)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    for name in ("threads", "batch_size", "limit"):
        value = getattr(args, name, None)
        if value is not None and value < 1:
            parser.error(f"--{name.replace('_', '-')} must be >= 1")
    out: IO[str] = sys.stdout
    try:
        if getattr(args, "output", None):
            try:
                out = open(args.output, "w", encoding="utf-8")
            except OSError as e:
                raise InputError(f"-o {args.output}: cannot write there ({e.strerror})") from None
        return int(args.func(args, out))
    except UsageError as e:
        parser.exit(2, f"apr-fast {args.command}: error: {e}\n")
    except InputError as e:
        print(f"apr-fast: error: {e}", file=sys.stderr)
        return 1
    except apr_fast.AprError as e:
        print(f"apr-fast: error: {e}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # `apr-fast score ... | head`
        return 0
    finally:
        if out is not sys.stdout:
            out.close()


if __name__ == "__main__":
    raise SystemExit(main())
