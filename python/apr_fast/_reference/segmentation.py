"""Sentence splitting and cue matching in plain Python with the ``regex`` package.

The same rules as the native engine (``rust/text/``), written the way a researcher would write
them: one regular expression per rule, offsets in characters. It exists for two reasons: the
parity tests (native and reference must agree on every real trace and on generated text) and the
benchmark peer (``benches/bench_segmentation.py``). It is not linear-time on adversarial input
and it is not meant to be fast.

Rules, in brief (the Rust module docs have the reasons):

- Math regions never contain a sentence break: ``$...$`` (pandoc rules), ``\\(...\\)``,
  ``$$...$$``, ``\\[...\\]``, ``\\begin{env}...\\end{env}`` for known math environments, and
  ``\\boxed{...}``/``\\fbox{...}`` up to the brace that closes the argument. A backslash and the
  character after it are one token. A region ends at the first closer token; it may not contain
  a blank line (inline math: no line break at all) nor exceed its byte bound, otherwise its
  opener is plain text.
- A sentence ends at a line break, or after a run of ``.!?`` (plus closing ``)]"'*”’``) that
  whitespace or the end of the text follows; except after an abbreviation, ``etc.`` before a
  lower-case word, ``No.`` before a number, and a list label at the start of a line.
- Cues match ASCII case-insensitively between non-word characters; ``’`` equals ``'``; a space
  in a cue matches a whitespace run; with inflections the last word may end in s/es/d/ed/ing.
"""
from __future__ import annotations

import bisect
import string
from dataclasses import dataclass
from typing import Iterator, Literal, NamedTuple, Sequence

import regex

# Unicode White_Space, spelled out: Python's str.isspace() and the regex module's \s also
# accept U+001C..U+001F, which the native engine (Rust's char::is_whitespace) does not.
WHITESPACE = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680"
    + "".join(map(chr, range(0x2000, 0x200B)))
    + "\u2028\u2029\u202f\u205f\u3000"
)
_WS_SET = "".join(f"\\u{ord(c):04x}" for c in WHITESPACE)
_WS = f"[{_WS_SET}]"
_NON_WS = f"[^{_WS_SET}]"
# Word characters for boundaries: Rust's char::is_alphanumeric() (Alphabetic or N*) or "_".
_WORD = r"[\p{Alphabetic}\p{N}_]"

MATH_ENVIRONMENTS = (
    "align", "alignat", "aligned", "array", "Bmatrix", "bmatrix", "cases", "dcases", "eqnarray",
    "equation", "gather", "gathered", "matrix", "multline", "pmatrix", "smallmatrix", "split",
    "tabular", "Vmatrix", "vmatrix",
)
ABBREVIATIONS = ("approx", "cf", "dr", "e.g", "eq", "fig", "i.e", "mr", "mrs", "vs")

PAPER_CONCLUSION_CUES = (
    "therefore", "thus", "hence", "so", "answer", "solution", "result", "final", "indeed",
    "conclude", "equals", "valid", "set", "maybe", "seem", "perhaps", "we get", "we have",
    "i get", "would be", "should be", "it is", "it's", "that's", "lead to", "value of",
    "the only", "correct option", "maximum possible",
)
PAPER_VERIFICATION_CUES = (
    "check", "verify", "confirm", "wait", "make sure", "double-check", "let me", "let's",
    "straightforward", "miss anything", "is that right", "is that correct", "is that all",
)
INFLECTION_SUFFIXES = ("s", "es", "d", "ed", "ing")


@dataclass(frozen=True)
class Options:
    """Byte bounds on math regions (same meaning and defaults as ``apr_fast.SplitOptions``)."""

    max_inline_bytes: int = 4096
    max_display_bytes: int = 16384
    max_boxed_bytes: int = 4096


class Region(NamedTuple):
    start: int
    end: int
    kind: str


class Sentence(NamedTuple):
    start: int
    end: int
    content_end: int


class Hit(NamedTuple):
    """Fields in sort order: by position, then kind ("conclusion" first), then cue."""

    start: int
    end: int
    kind: Literal["conclusion", "verification"]
    cue_index: int


# --- math regions --------------------------------------------------------------------------

_OPENER = regex.compile(
    r"\\begin\{(?P<env>(?:" + "|".join(MATH_ENVIRONMENTS) + r")\*?)\}"
    r"|\\(?:boxed|fbox)(?P<boxed>\{)"
    r"|(?P<paren>\\\()|(?P<bracket>\\\[)|(?P<ddollar>\$\$)"
    rf"|(?P<dollar>\$)(?={_NON_WS})"
    r"|\\.",  # any other backslash pair is one token: skip it
    regex.DOTALL,
)
_BLANK_LINE = regex.compile(rf"\n(?:(?!\n){_WS})*\n")
_LINE_BREAK = regex.compile(r"[\n\r]")
_DOLLAR_TOKENS = regex.compile(r"\\.|\$\$|\$", regex.DOTALL)
_BRACE_TOKENS = regex.compile(r"\\.|[{}]", regex.DOTALL)


def _closer_tokens(closer: str) -> regex.Pattern[str]:
    return regex.compile(regex.escape(closer) + r"|\\.", regex.DOTALL)


_PAREN_CLOSER = _closer_tokens("\\)")
_BRACKET_CLOSER = _closer_tokens("\\]")
_ENV_CLOSERS = {
    env + star: _closer_tokens("\\end{" + env + star + "}")
    for env in MATH_ENVIRONMENTS
    for star in ("", "*")
}


def _is_space(c: str) -> bool:
    return c != "" and c in WHITESPACE


def _tokens(pattern: regex.Pattern[str], text: str, pos: int, endpos: int) -> Iterator[regex.Match[str]]:
    """The tokens of ``pattern`` from ``pos`` that start before ``endpos``, each read whole (a
    ``$$`` that starts at ``endpos - 1`` is ``$$``, as the native lexer reads it, not ``$``)."""
    for m in pattern.finditer(text, pos):
        if m.start() >= endpos:
            return
        yield m


def _first_closer(text: str, pattern: regex.Pattern[str], token: str, pos: int, endpos: int) -> int | None:
    """End of the first ``token`` at or after ``pos`` (whole tokens starting before ``endpos``)."""
    for m in _tokens(pattern, text, pos, endpos):
        if m.group() == token:
            return m.end()
    return None


def _dollar_closer(text: str, pos: int, endpos: int, double: bool) -> int | None:
    for m in _tokens(_DOLLAR_TOKENS, text, pos, endpos):
        tok = m.group()
        if double and tok == "$$":
            return m.end()
        if not double and tok == "$":
            # pandoc: a closing $ has a non-space before it and no digit after it
            before, after = text[m.start() - 1], text[m.end() : m.end() + 1]
            if not _is_space(before) and not (after != "" and after in "0123456789"):
                return m.end()
    return None


def _brace_closer(text: str, brace: int, endpos: int) -> int | None:
    depth = 0
    for m in _tokens(_BRACE_TOKENS, text, brace, endpos):
        if m.group() == "{":
            depth += 1
        elif m.group() == "}":
            depth -= 1
            if depth == 0:
                return m.end()
    return None


def math_regions(text: str, options: Options = Options()) -> list[Region]:
    """Math regions of ``text`` as ``Region(start, end, kind)`` in characters."""
    regions: list[Region] = []
    pos = 0
    while (m := _OPENER.search(text, pos)) is not None:
        start = m.start()
        if m["env"] is not None:
            kind, bound = "environment", options.max_display_bytes
            end = _first_closer(text, _ENV_CLOSERS[m["env"]], "\\end{" + m["env"] + "}", m.end(), start + bound)
        elif m["boxed"] is not None:
            kind, bound = "boxed", options.max_boxed_bytes
            end = _brace_closer(text, m.start("boxed"), start + bound)
        elif m["paren"] is not None:
            kind, bound = "inline_paren", options.max_inline_bytes
            end = _first_closer(text, _PAREN_CLOSER, "\\)", m.end(), start + bound)
        elif m["bracket"] is not None:
            kind, bound = "display_bracket", options.max_display_bytes
            end = _first_closer(text, _BRACKET_CLOSER, "\\]", m.end(), start + bound)
        elif m["ddollar"] is not None:
            kind, bound = "display_dollar", options.max_display_bytes
            end = _dollar_closer(text, m.end(), start + bound, double=True)
        elif m["dollar"] is not None:
            kind, bound = "inline_dollar", options.max_inline_bytes
            end = _dollar_closer(text, m.end(), start + bound, double=False)
        else:  # an escape pair
            pos = m.end()
            continue
        # A character is at least one byte, so searching `bound` characters sees every closer
        # within `bound` bytes; the byte length is checked here.
        inline = kind in ("inline_dollar", "inline_paren")
        if (
            end is not None
            and len(text[start:end].encode("utf-8")) <= bound
            and _BLANK_LINE.search(text, start, end) is None
            and not (inline and _LINE_BREAK.search(text, start, end))
        ):
            regions.append(Region(start, end, kind))
            pos = end
        else:
            pos = m.end()
    return regions


# --- sentences -----------------------------------------------------------------------------

# A line break, or a terminator run: a terminator then terminators, closers and CJK marks. A run
# ends a sentence when it holds a CJK terminator, or else when whitespace or the end follows.
_BREAK = regex.compile(r"[\n\r]|[.!?。！？][.!?)\]\"'*’”。！？」』）]*")
_CJK_TERMINATORS = frozenset("。！？")
_LABEL = regex.compile(
    r"(?:^|(?<=[\n\r]))[ \t]*(?:[#>*+\-]+[ \t]*)?"
    r"(?:[0-9]{1,3}|[a-z]|[ivx]{1,5}|(?:step|case|part)[ \t]+[0-9]{1,3})\."
)
_ABBREVIATION = regex.compile(rf"(?<!{_WORD})(?:" + "|".join(regex.escape(a) for a in ABBREVIATIONS) + r")\.")
_ETC = regex.compile(rf"(?<!{_WORD})etc\.")
_CAPITAL_NEXT = regex.compile(rf"{_WS}+[A-Z]")
_NUMBER_NO = regex.compile(rf"(?<!{_WORD})no\.(?={_WS}+[0-9])")
_SPACES = regex.compile(rf"{_WS}*")
_WS_AT = regex.compile(_WS)
_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)


def _dots_that_continue(text: str, lowered: str) -> set[int]:
    """Offsets of the dots of abbreviations and line-start list labels."""
    dots = {m.end() - 1 for m in _LABEL.finditer(lowered)}
    dots |= {m.end() - 1 for m in _ABBREVIATION.finditer(lowered, overlapped=True)}
    dots |= {m.end() - 1 for m in _NUMBER_NO.finditer(lowered)}
    dots |= {m.end() - 1 for m in _ETC.finditer(lowered) if not _CAPITAL_NEXT.match(text, m.end())}
    return dots


#: How a special token such as gpt-oss's ``<|end|>`` starts: after a terminator run it ends the
#: sentence as white space does.
SPECIAL_TOKEN_START = "<|"


def split_sentences(text: str, options: Options = Options()) -> list[Sentence]:
    """Sentences of ``text`` as ``Sentence(start, end, content_end)`` in characters."""
    if not text:
        return []
    regions = math_regions(text, options)
    region_starts = [r.start for r in regions]

    def in_math(i: int) -> bool:
        k = bisect.bisect_right(region_starts, i) - 1
        return k >= 0 and i < regions[k].end

    continuing = _dots_that_continue(text, text.translate(_ASCII_LOWER))
    starts = [0]
    first = _SPACES.match(text).end()
    for m in _BREAK.finditer(text, first):
        if in_math(m.start()):
            continue
        if m.group() not in "\n\r" and not _CJK_TERMINATORS.intersection(m.group()):
            followed = (m.end() == len(text) or _WS_AT.match(text, m.end()) is not None
                        or text.startswith(SPECIAL_TOKEN_START, m.end()))
            if not followed or m.start() in continuing:
                continue
        brk = m.start() if m.group() in "\n\r" else m.end()
        nxt = _SPACES.match(text, brk).end()
        if starts[-1] < nxt < len(text):
            starts.append(nxt)
    ends = starts[1:] + [len(text)]
    return [Sentence(s, e, s + len(text[s:e].rstrip(WHITESPACE))) for s, e in zip(starts, ends)]


# --- cues ----------------------------------------------------------------------------------


def normalize_cue(cue: str) -> str:
    """``’`` -> ``'``, ASCII lower case, words joined by one space."""
    return " ".join(w.replace("’", "'").translate(_ASCII_LOWER) for w in regex.split(_WS, cue) if w)


# Scripts written without spaces between words: a cue made only of their characters matches
# anywhere (Han, Hiragana, Katakana).
UNSPACED = regex.compile(r"[\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f]+")


def _cue_pattern(cue: str, inflections: bool) -> regex.Pattern[str]:
    if UNSPACED.fullmatch(cue):
        return regex.compile(regex.escape(cue))

    def word(w: str) -> str:
        return "".join("['’]" if c == "'" else regex.escape(c) for c in w)

    body = f"{_WS}+".join(word(w) for w in cue.split(" "))
    if inflections and cue[-1] in string.ascii_letters:
        body += "(?:" + "|".join(INFLECTION_SUFFIXES) + ")?"
    return regex.compile(rf"(?<!{_WORD}){body}(?!{_WORD})")


class CueMatcher:
    """Compiled cue patterns: one regular expression per cue."""

    def __init__(
        self,
        conclusion: Sequence[str] = PAPER_CONCLUSION_CUES,
        verification: Sequence[str] = PAPER_VERIFICATION_CUES,
        inflections: bool = False,
    ) -> None:
        self.conclusion = [normalize_cue(c) for c in conclusion]
        self.verification = [normalize_cue(c) for c in verification]
        if not all(regex.search(_WORD, c) for c in self.conclusion + self.verification):
            raise ValueError("every cue needs a letter or digit")
        self.patterns = [
            (kind, i, _cue_pattern(cue, inflections))
            for kind, cues in (("conclusion", self.conclusion), ("verification", self.verification))
            for i, cue in enumerate(cues)
        ]

    def find(self, text: str) -> list[Hit]:
        """Every cue occurrence, sorted by (start, end, kind, cue_index)."""
        lowered = text.translate(_ASCII_LOWER)
        hits = [
            Hit(m.start(), m.end(), kind, i)  # type: ignore[arg-type]
            for kind, i, pattern in self.patterns
            for m in pattern.finditer(lowered, overlapped=True)
        ]
        return sorted(hits)


def find_cues(
    text: str, matcher: CueMatcher | None = None, options: Options = Options()
) -> list[tuple[Sentence, list[Hit]]]:
    """Sentences with the hits that lie inside each (a hit crossing a boundary is dropped)."""
    matcher = matcher or CueMatcher()
    sentences = split_sentences(text, options)
    hits = matcher.find(text)
    starts = [s.start for s in sentences]
    per_sentence: list[list[Hit]] = [[] for _ in sentences]
    for h in hits:
        k = bisect.bisect_right(starts, h.start) - 1
        if h.end <= sentences[k].end:
            per_sentence[k].append(h)
    return list(zip(sentences, per_sentence))
