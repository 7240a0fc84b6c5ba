"""Type stubs for the native module (checked with mypy.stubtest)."""
from os import PathLike
from collections.abc import Sequence
from typing import Any, Callable, TypeVar, final

_T = TypeVar("_T")

__version__: str
THREADS_ENV: str
THINK_TAG_PRESETS: dict[str, tuple[str, str]]

class AprError(Exception): ...
class ConfigError(AprError): ...
class TokenizerError(AprError): ...

def default_threads() -> int: ...

# --- tokens: token ids -> text with per-token offsets (wrapped by apr_fast.tokens) ---
# Ids: a list/tuple of int, or a 1-D C-contiguous native int64 numpy array (any object with
# such an ``__array_struct__`` or ``__array_interface__``), read in place.
_Ids = list[int] | tuple[int, ...] | Any
# AnchorOptions.FLAGS, in order (13 of them; the native side checks the count). Returned as a
# list, accepted as any sequence.
_OptionFlags = tuple[bool, ...] | list[bool]

def token_ends_from_offsets(offsets: list[tuple[int, int]] | list[list[int]]) -> list[int]: ...

@final
class NativeVocabulary:
    @staticmethod
    def from_json(json: str) -> NativeVocabulary: ...
    @staticmethod
    def from_file(path: str | PathLike[str]) -> NativeVocabulary: ...
    def __len__(self) -> int: ...
    def token_id(self, token: str) -> int | None: ...
    def holds_tag(self, tag: str) -> bool: ...
    def is_special(self, id: int) -> bool: ...
    def contains(self, id: int) -> bool: ...
    @property
    def decoder_kind(self) -> str: ...
    @property
    def nbytes(self) -> int: ...
    def decode(self, ids: _Ids, skip_special_tokens: bool) -> str: ...
    def decode_with_offsets(
        self, ids: _Ids, skip_special_tokens: bool
    ) -> tuple[str, list[int]]: ...
    def decode_batch(
        self,
        batch: list[_Ids],
        skip_special_tokens: bool,
        threads: int | None,
    ) -> list[tuple[str, list[int], str | None]]: ...
@final
class NativeEncoder:
    @staticmethod
    def from_json(json: str) -> NativeEncoder: ...
    @property
    def needs_nfc(self) -> bool: ...
    def encode(self, text: str) -> tuple[list[int], list[int]]: ...
    def encode_batch(self, texts: list[str], threads: int | None) -> list[tuple[list[int], list[int]]]: ...
# --- end tokens ---
# --- extraction (rust/bindings/extract.rs) ---------------------------------------------------
from typing import Literal, final

FINAL_RULES: tuple[str, ...]
CANDIDATE_KINDS: tuple[str, ...]

@final
class FinalAnswer:
    @property
    def text(self) -> str: ...
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def byte_start(self) -> int: ...
    @property
    def byte_end(self) -> int: ...
    @property
    def rule(
        self,
    ) -> Literal[
        "boxed_after_think",
        "boxed_in_thinking",
        "final_answer_heading",
        "answer_line",
        "final_answer_phrase",
        "answer_phrase",
        "hash_marker",
        "answer_tag",
        "bare_after_think",
    ]: ...
    @property
    def in_thinking(self) -> bool: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Candidate:
    @property
    def text(self) -> str: ...
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def byte_start(self) -> int: ...
    @property
    def byte_end(self) -> int: ...
    @property
    def kind(
        self,
    ) -> Literal[
        "boxed",
        "math_span",
        "equation",
        "equation_side",
        "list",
        "tuple",
        "interval",
        "set",
        "bare_expression",
        "number",
        "number_word",
        "choice",
        "text",
        "worded_expression",
    ]: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...

def extract_final(response: str, *, think_tags: str | Sequence[str] | None = None) -> FinalAnswer | None: ...
def boxed_contents(text: str) -> list[str]: ...
def extract_final_batch(
    responses: list[str] | tuple[str, ...], *, threads: int | None = None, think_tags: str | Sequence[str] | None = None
) -> list[FinalAnswer | None]: ...
def extract_candidates(text: str) -> list[Candidate]: ...
def extract_candidates_batch(texts: list[str] | tuple[str, ...], *, threads: int | None = None) -> list[list[Candidate]]: ...
def problem_values(problem: str) -> list[str]: ...

# --- end extraction --------------------------------------------------------------------------
# --- answer equivalence (rust/bindings/answer.rs) ---------------------------------------------
# A judgement is (verdict, method, reason, sympy_a, sympy_b); see apr_fast.equivalence.
def answer_equivalent(
    a: str, b: str, percent: str, units: str, decimal_min_sig_digits: int, rel_tol: float
) -> tuple[str, str, str, str | None, str | None]: ...
def answer_equivalent_batch(
    pairs: list[tuple[str, str]] | tuple[tuple[str, str], ...],
    percent: str,
    units: str,
    decimal_min_sig_digits: int,
    rel_tol: float,
    threads: int | None,
) -> list[tuple[str, str, str, str | None, str | None]]: ...
def answer_normalize(text: str) -> str: ...
def answer_to_sympy(text: str) -> str | None: ...
# --- end answer equivalence -------------------------------------------------------------------
# --- outcome check (rust/bindings/outcome.rs) -------------------------------------------------
# Per response: a Correctness built from `into` (judgements made by `judgement_of(verdict,
# method, reason)`, shared); and per response with an undecided comparison, (index, final answer,
# one (verdict, method, reason) per alternative up to the first equal one, problem echo), for the
# CAS; see apr_fast.correctness.
def check_outcome_batch(
    responses: list[str] | tuple[str, ...],
    ground_truths: list[Sequence[str]],
    problems: list[str | None] | None,
    percent: str,
    units: str,
    decimal_min_sig_digits: int,
    rel_tol: float,
    reject_problem_echo: bool,
    require_answer_after_think: bool,
    think_tags: str | Sequence[str] | None,
    threads: int | None,
    into: type[_T],
    judgement_of: Callable[[str, str, str], Any],
) -> tuple[list[_T], list[tuple[int, FinalAnswer, list[tuple[str, str, str]], bool]]]: ...

# --- end outcome check -------------------------------------------------------------------------

# --- text: sentences, math regions, cues (rust/bindings/text.rs) ------------------------------
from typing import Literal, final

_MathKind = Literal[
    "inline_dollar", "inline_paren", "display_dollar", "display_bracket", "environment", "boxed"
]
_CueKind = Literal["conclusion", "verification"]

PAPER_CONCLUSION_CUES: tuple[str, ...]
CHINESE_CONCLUSION_CUES: tuple[str, ...]
CHINESE_VERIFICATION_CUES: tuple[str, ...]
PAPER_VERIFICATION_CUES: tuple[str, ...]

@final
class SplitOptions:
    def __new__(
        cls, max_inline_bytes: int = 4096, max_display_bytes: int = 16384, max_boxed_bytes: int = 4096
    ) -> SplitOptions: ...
    @property
    def max_inline_bytes(self) -> int: ...
    @property
    def max_display_bytes(self) -> int: ...
    @property
    def max_boxed_bytes(self) -> int: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[type[SplitOptions], tuple[int, int, int]]: ...

@final
class Sentence:
    @property
    def index(self) -> int: ...
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def content_end(self) -> int: ...
    @property
    def byte_start(self) -> int: ...
    @property
    def byte_end(self) -> int: ...
    @property
    def byte_content_end(self) -> int: ...
    @property
    def text(self) -> str: ...
    @property
    def content(self) -> str: ...
    def __hash__(self) -> int: ...

@final
class MathRegion:
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def byte_start(self) -> int: ...
    @property
    def byte_end(self) -> int: ...
    @property
    def kind(self) -> _MathKind: ...
    @property
    def text(self) -> str: ...
    def __hash__(self) -> int: ...

@final
class CueHit:
    @property
    def cue(self) -> str: ...
    @property
    def kind(self) -> _CueKind: ...
    @property
    def cue_index(self) -> int: ...
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def byte_start(self) -> int: ...
    @property
    def byte_end(self) -> int: ...
    @property
    def text(self) -> str: ...
    def __hash__(self) -> int: ...

@final
class SentenceCues:
    @property
    def sentence(self) -> Sentence: ...
    @property
    def conclusion(self) -> tuple[CueHit, ...]: ...
    @property
    def verification(self) -> tuple[CueHit, ...]: ...
    def __hash__(self) -> int: ...

@final
class CueMatcher:
    def __new__(
        cls,
        conclusion: list[str] | tuple[str, ...] | None = None,
        verification: list[str] | tuple[str, ...] | None = None,
        inflections: bool = False,
    ) -> CueMatcher: ...
    @property
    def conclusion(self) -> tuple[str, ...]: ...
    @property
    def verification(self) -> tuple[str, ...]: ...
    @property
    def inflections(self) -> bool: ...
    def find(self, text: str, *, options: SplitOptions | None = None) -> list[SentenceCues]: ...
    def find_batch(
        self,
        texts: list[str] | tuple[str, ...],
        *,
        options: SplitOptions | None = None,
        threads: int | None = None,
    ) -> list[list[SentenceCues]]: ...
    def segment(self, text: str, *, options: SplitOptions | None = None) -> Segmentation: ...
    def segment_batch(
        self,
        texts: list[str] | tuple[str, ...],
        *,
        options: SplitOptions | None = None,
        threads: int | None = None,
    ) -> list[Segmentation]: ...
    def __reduce__(self) -> tuple[type[CueMatcher], tuple[list[str], list[str], bool]]: ...

@final
class Segmentation:
    @property
    def text(self) -> str: ...
    @property
    def matcher(self) -> CueMatcher: ...
    @property
    def starts(self) -> list[int]: ...
    @property
    def ends(self) -> list[int]: ...
    @property
    def content_ends(self) -> list[int]: ...
    @property
    def byte_starts(self) -> list[int]: ...
    @property
    def byte_ends(self) -> list[int]: ...
    @property
    def byte_content_ends(self) -> list[int]: ...
    @property
    def conclusion(self) -> list[bool]: ...
    @property
    def verification(self) -> list[bool]: ...
    def sentences(self) -> list[Sentence]: ...
    def cues(self) -> list[SentenceCues]: ...
    def __len__(self) -> int: ...

def split_sentences(text: str, *, options: SplitOptions | None = None) -> list[Sentence]: ...
def split_sentences_batch(
    texts: list[str] | tuple[str, ...], *, options: SplitOptions | None = None, threads: int | None = None
) -> list[list[Sentence]]: ...
def math_regions(text: str, *, options: SplitOptions | None = None) -> list[MathRegion]: ...
def find_cues(
    text: str,
    *,
    conclusion: list[str] | tuple[str, ...] | None = None,
    verification: list[str] | tuple[str, ...] | None = None,
    inflections: bool = False,
    options: SplitOptions | None = None,
) -> list[SentenceCues]: ...
def find_cues_batch(
    texts: list[str] | tuple[str, ...],
    *,
    conclusion: list[str] | tuple[str, ...] | None = None,
    verification: list[str] | tuple[str, ...] | None = None,
    inflections: bool = False,
    options: SplitOptions | None = None,
    threads: int | None = None,
) -> list[list[SentenceCues]]: ...
def segment(
    text: str, *, matcher: CueMatcher | None = None, options: SplitOptions | None = None
) -> Segmentation: ...
def segment_batch(
    texts: list[str] | tuple[str, ...],
    *,
    matcher: CueMatcher | None = None,
    options: SplitOptions | None = None,
    threads: int | None = None,
) -> list[Segmentation]: ...
# --- end text ---------------------------------------------------------------------------------

# --- reward: batch scoring (rust/bindings/reward.rs, wrapped by apr_fast.reward) ---
SCORE_FIELDS: tuple[str, ...]
ANCHOR_MODES: tuple[str, ...]
STATUS_NAMES: tuple[str, ...]

def apr_reward(correct: bool, complete: bool, l_ast: int, beta: float, floor: float | None = None) -> float: ...
def resolve_think_tags(value: str | Sequence[str] | None) -> tuple[str, str] | str: ...
def thinking_span(response: str, *, think_tags: str | Sequence[str] | None = None) -> tuple[int, int, bool]: ...
@final
class NativeScorer:
    def __new__(
        cls,
        beta: float,
        floor: float | None,
        mode: str,
        reference: str,
        percent: str,
        units: str,
        decimal_min_sig_digits: int,
        rel_tol: float,
        conclusion_cues: list[str],
        verification_cues: list[str],
        cue_inflections: bool,
        vocabulary: NativeVocabulary | None,
        anchor_options: tuple[str, int, int | None, _OptionFlags] | None,
        reject_problem_echo: bool,
        require_answer_after_think: bool,
        think_tags: str | Sequence[str] | None,
        anchors: str,
    ) -> NativeScorer: ...
    @property
    def think_tags(self) -> tuple[str, str] | str: ...
    def score_texts(
        self,
        responses: list[str],
        ground_truths: list[Sequence[str]],
        problems: list[str | None] | None = None,
        token_offsets: list[list[tuple[int, int]] | None] | None = None,
        threads: int | None = None,
        into: type | None = None,
        encoder: NativeEncoder | None = None,
    ) -> list[Any]: ...
    def score_ids(
        self,
        token_ids: list[_Ids] | Any,
        ground_truths: list[Sequence[str]],
        problems: list[str | None] | None = None,
        threads: int | None = None,
        return_text: bool = False,
        lengths: list[int] | None = None,
        into: type | None = None,
    ) -> list[Any]: ...
    @property
    def beta(self) -> float: ...
    @property
    def has_vocabulary(self) -> bool: ...
    @property
    def anchor_options(self) -> tuple[str, int, int | None, _OptionFlags]: ...

def anchor_mode_options(
    mode: str,
) -> tuple[Literal["paper", "loose", "none"], int, int | None, _OptionFlags]: ...
# --- end reward ---
