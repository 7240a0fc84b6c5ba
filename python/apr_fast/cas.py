"""The sympy fallback: a killable worker process with a per-call timeout.

The native engine answers *unknown* when a CAS is really needed (``\\sin\\pi`` against ``0``,
identities that hold on the integers only, values beyond its size caps). Those pairs come here as
the native engine's sympy forms (built from the parsed tree, never from LaTeX) and are checked by
sympy in a separate process:

- the worker is a persistent ``python -m apr_fast.cas`` subprocess, started lazily on first use
  (importing sympy once, about a second) and reused; a plain subprocess rather than
  ``multiprocessing`` because spawn/forkserver children re-import the caller's ``__main__``, which
  re-runs an unguarded training script;
- every call has a timeout measured with a queue read in the calling thread: no ``signal.alarm``,
  so it works off the main thread and inside Ray workers; on timeout the worker is killed (a hung
  sympy call cannot be interrupted any other way) and restarted on the next call;
- the worker caps its own address space (``APR_FAST_CAS_MEMORY_MB``, default 2048) so that
  ``10^{10^{10}}`` ends in a ``MemoryError`` rather than in the machine's swap;
- calls are serialised by a lock (thread-safe) and results are kept in an LRU cache;
- timeouts and internal errors are a status (:class:`~apr_fast.equivalence.Method` ``TIMEOUT`` /
  ``ERROR``, verdict unknown), logged with :mod:`logging`, never a silent "not equal".

Without sympy installed (a dependency of apr-fast; ``pip install sympy``) every check answers unknown with
method ``CAS_UNAVAILABLE`` and says so.
"""
from __future__ import annotations

import atexit
import collections
import importlib.util
import json
import logging
import os
import queue
import subprocess
import sys
import threading
from dataclasses import dataclass
from typing import IO, Any, Optional

__all__ = ["CasChecker", "CasResult", "default_checker", "sympy_available"]

logger = logging.getLogger("apr_fast.cas")

MEMORY_ENV = "APR_FAST_CAS_MEMORY_MB"


@dataclass(frozen=True)
class CasResult:
    """Outcome of one CAS check: ``status`` is ``equal``, ``not_equal``, ``unknown``,
    ``timeout``, ``error`` or ``unavailable``."""

    status: str
    detail: str


def sympy_available() -> bool:
    """Whether sympy can be imported (the ``cas`` extra)."""
    return importlib.util.find_spec("sympy") is not None


class CasChecker:
    """A persistent sympy worker process with timeouts, a lock and an LRU cache."""

    def __init__(self, *, start_timeout: float = 120.0, cache_size: int = 4096) -> None:
        if start_timeout <= 0:
            raise ValueError(f"start_timeout must be > 0, got {start_timeout}")
        if cache_size < 0:
            raise ValueError(f"cache_size must be >= 0, got {cache_size}")
        self._start_timeout = start_timeout
        self._cache_size = cache_size
        self._cache: collections.OrderedDict[tuple[str, str], CasResult] = collections.OrderedDict()
        self._lock = threading.Lock()
        self._proc: Optional[subprocess.Popen[str]] = None
        self._lines: Optional[queue.Queue[Optional[str]]] = None
        self._next_id = 0
        self.restarts = 0

    def check(self, a: str, b: str, timeout: float) -> CasResult:
        """Checks whether the sympy forms ``a`` and ``b`` are equal, within ``timeout`` seconds
        (worker start-up excluded)."""
        if not isinstance(a, str):
            raise TypeError(f"a must be str, got {type(a).__name__}")
        if not isinstance(b, str):
            raise TypeError(f"b must be str, got {type(b).__name__}")
        if not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or not timeout > 0:
            raise ValueError(f"timeout must be a positive number, got {timeout!r}")
        if not sympy_available():
            return CasResult("unavailable", "sympy is not installed (pip install sympy)")
        key = (a, b) if a <= b else (b, a)
        with self._lock:
            cached = self._cache.get(key)
            if cached is not None:
                self._cache.move_to_end(key)
                return cached
            result = self._ask(a, b, float(timeout))
            if self._cache_size and result.status != "unavailable":
                self._cache[key] = result
                if len(self._cache) > self._cache_size:
                    self._cache.popitem(last=False)
            return result

    def close(self) -> None:
        """Stops the worker (a later check starts a new one)."""
        with self._lock:
            self._kill()

    # -- worker management (called with the lock held) ------------------------------------

    def _start(self) -> Optional[CasResult]:
        proc = subprocess.Popen(
            [sys.executable, "-m", "apr_fast.cas"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        lines: queue.Queue[Optional[str]] = queue.Queue()
        threading.Thread(target=_pump, args=(proc.stdout, lines), daemon=True, name="apr-fast-cas-reader").start()
        self._proc, self._lines = proc, lines
        try:
            ready = lines.get(timeout=self._start_timeout)
        except queue.Empty:
            ready = None
        if ready is None or not json.loads(ready).get("ready"):
            self._kill()
            logger.error("the sympy worker did not start")
            return CasResult("error", "the sympy worker did not start")
        return None

    def _kill(self) -> None:
        proc, self._proc, self._lines = self._proc, None, None
        if proc is not None:
            proc.kill()
            proc.wait()

    def _ask(self, a: str, b: str, timeout: float) -> CasResult:
        if self._proc is None or self._proc.poll() is not None:
            failure = self._start()
            if failure is not None:
                return failure
        assert self._proc is not None and self._proc.stdin is not None and self._lines is not None
        self._next_id += 1
        request_id = self._next_id
        try:
            self._proc.stdin.write(json.dumps({"id": request_id, "a": a, "b": b}) + "\n")
            self._proc.stdin.flush()
        except OSError as exc:
            self._kill()
            logger.warning("sympy worker pipe failed (%s); it will be restarted", exc)
            return CasResult("error", f"worker pipe failed: {exc}")
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            self._kill()
            self.restarts += 1
            logger.warning("sympy check timed out after %.3g s; worker killed", timeout)
            return CasResult("timeout", f"sympy did not finish within {timeout:.3g} s (worker killed)")
        if line is None:
            self._kill()
            self.restarts += 1
            logger.warning("the sympy worker died (memory limit or crash); it will be restarted")
            return CasResult("error", "the sympy worker died (memory limit or crash)")
        reply = json.loads(line)
        if reply.get("id") != request_id:
            self._kill()
            return CasResult("error", "the sympy worker answered out of turn")
        if reply["status"] == "error":
            logger.warning("sympy check failed: %s", reply["detail"])
        return CasResult(reply["status"], reply["detail"])


def _pump(stream: Optional[IO[str]], lines: "queue.Queue[Optional[str]]") -> None:
    """Moves the worker's output lines to a queue (None at end of stream)."""
    if stream is not None:
        for line in stream:
            lines.put(line)
    lines.put(None)


_default: Optional[CasChecker] = None
_default_lock = threading.Lock()


def default_checker() -> CasChecker:
    """The process-wide checker, created on first use and stopped at exit."""
    global _default
    with _default_lock:
        if _default is None:
            _default = CasChecker()
            atexit.register(_default.close)
        return _default


# ---------------------------------------------------------------------------------------------
# The worker side: runs in the child process (``python -m apr_fast.cas``).
# ---------------------------------------------------------------------------------------------


def _limit_memory() -> None:
    try:
        import resource
    except ImportError:  # not on this platform
        return
    megabytes = int(os.environ.get(MEMORY_ENV, "2048"))
    limit = megabytes * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


class _Worker:
    """Evaluates sympy forms with a fixed vocabulary and compares them three-valued."""

    def __init__(self) -> None:
        import sympy

        self.sp = sympy
        # The rule the last comparison was decided by ("rounding" for a long decimal), for
        # the detail of its answer.
        self.last_rule: Optional[str] = None
        names = [
            "Integer", "Rational", "pi", "E", "I", "oo", "sqrt", "real_root", "sin", "cos", "tan", "cot",
            "sec", "csc", "asin", "acos", "atan", "sinh", "cosh", "tanh", "log", "exp", "Abs", "floor",
            "ceiling", "binomial", "gcd", "lcm", "Max", "Min", "factorial", "re", "im", "arg", "atan2", "conjugate",
        ]
        self.namespace: dict[str, Any] = {n: getattr(sympy, n) for n in names}
        self.namespace.update(
            S_=lambda name: sympy.Symbol(name, positive=True),
            F_=sympy.Function,
            Tuple_=lambda brackets, *items: ("tuple", brackets, list(items)),
            Set_=lambda *items: ("multiset", list(items)),
            List_=lambda *items: ("multiset", list(items)),
            Union_=lambda *items: ("union", list(items)),
            Reals_=lambda: ("union", [("tuple", "()", [-sympy.oo, sympy.oo])]),
            Matrix_=lambda rows, cols, *cells: ("matrix", (rows, cols), list(cells)),
            Rel_=lambda op, lhs, rhs: ("rel", op, lhs, rhs),
            Rounded_=lambda value, half_ulp: ("rounded", value, half_ulp),
        )

    def evaluate(self, form: str) -> Any:
        # The forms come from the native renderer: sympy names above, integer literals, quoted
        # identifiers. No builtins are reachable.
        return eval(form, {"__builtins__": {}}, dict(self.namespace))  # noqa: S307

    def compare(self, a: Any, b: Any) -> Optional[bool]:
        sp = self.sp
        rounded_a, rounded_b = _is_rounded(a), _is_rounded(b)
        if rounded_a and rounded_b:
            # Decimal against decimal is exact, as natively.
            a, b = a[1], b[1]
        elif rounded_a or rounded_b:
            decimal, other = (a, b) if rounded_a else (b, a)
            if isinstance(other, tuple) and other[0] == "rel":
                return self.compare_assignment(other, decimal)
            if isinstance(other, tuple):
                return False
            return self.rounds_to(sp.sympify(other), decimal[1], decimal[2])
        if isinstance(a, tuple) and a[0] == "rel" and not (isinstance(b, tuple) and b[0] == "rel"):
            return self.compare_assignment(a, b)
        if isinstance(b, tuple) and b[0] == "rel" and not (isinstance(a, tuple) and a[0] == "rel"):
            return self.compare_assignment(b, a)
        if isinstance(a, tuple) or isinstance(b, tuple):
            if not (isinstance(a, tuple) and isinstance(b, tuple)) or a[0] != b[0]:
                return False
            kind = a[0]
            if kind == "tuple" or kind == "matrix":
                if a[1] != b[1] or len(a[2]) != len(b[2]):
                    return False
                return _all3(self.compare(x, y) for x, y in zip(a[2], b[2]))
            if kind == "multiset":
                return self.compare_multiset(a[1], b[1])
            if kind == "union":
                return self.compare_sets(a, b)
            if kind == "rel":
                return self.compare_relations(a, b)
            return None
        return self.compare_scalars(sp.sympify(a), sp.sympify(b))

    def rounds_to(self, value: Any, decimal: Any, half_ulp: Any) -> Optional[bool]:
        """Whether ``value`` rounds to ``decimal`` (lies within ``half_ulp`` of it), the rule
        of ``Policy.decimal_min_sig_digits``, decided at 60 digits; None when that cannot tell
        (free variables, or a value on the window's edge)."""
        sp = self.sp
        if value.free_symbols:
            return None
        offset = sp.N(value - decimal, 60)
        if not offset.is_number:
            return None
        self.last_rule = "rounding"
        # evalf gives the offset to 60 significant digits (it raises the working precision
        # where the two cancel), so a relative margin of 1e-30 is far beyond its error.
        real, imaginary = (abs(part) for part in offset.as_real_imag())
        half = sp.N(half_ulp, 60)
        tiny = sp.Float(10) ** -30
        if imaginary > tiny * max(real, half):
            return False
        if real <= half * (1 - tiny):
            return True
        if real >= half * (1 + tiny):
            return False
        return None

    def compare_scalars(self, a: Any, b: Any) -> Optional[bool]:
        sp = self.sp
        difference = sp.simplify(a - b)
        if difference == 0:
            return True
        if not difference.free_symbols:
            value = sp.N(difference, 60)
            scale = max(1, abs(sp.N(a, 30)), abs(sp.N(b, 30)))
            if value.is_number and abs(value) > sp.Float(10) ** -40 * scale:
                return False
            return None
        if difference.equals(0) is False:
            # Not zero for positive reals; it is only a difference if it is also one on the
            # positive integers (identities like cos(n pi) = (-1)^n hold there), and if a point
            # shows it: `equals` gives False for some identities it cannot prove
            # (log|x^2 - 9| against log|x - 3| + log|x + 3|).
            integers = {s: sp.Symbol(s.name, integer=True, positive=True) for s in difference.free_symbols}
            if (
                sp.simplify(difference.subs(integers)) != 0
                and difference.subs(integers).equals(0) is False
                and self.nonzero_at_a_point(difference, a, b)
            ):
                return False
        return None

    # Positive sample points for each free symbol (irrational-looking, away from small integers
    # where expressions have their poles and kinks).
    _POINTS = ("0.7316", "1.9137", "4.4721", "2.6458", "7.3891", "0.3819")

    def nonzero_at_a_point(self, difference: Any, a: Any, b: Any) -> bool:
        """Whether ``difference`` (= a - b) is clearly nonzero at one of a few positive points."""
        sp = self.sp
        symbols = sorted(difference.free_symbols, key=lambda s: s.name)
        for k in range(3):
            point = {s: sp.Float(self._POINTS[(k + 2 * i) % len(self._POINTS)], 30) for i, s in enumerate(symbols)}
            try:
                value = complex(sp.N(difference.subs(point), 30))
                scale = max(1.0, abs(complex(sp.N(a.subs(point), 30))), abs(complex(sp.N(b.subs(point), 30))))
            except (TypeError, ValueError, ZeroDivisionError, OverflowError):
                continue
            if abs(value) > 1e-12 * scale:
                return True
        return False

    def compare_assignment(self, rel: Any, value: Any) -> Optional[bool]:
        _, op, lhs, rhs = rel
        named = isinstance(lhs, self.sp.Symbol) or isinstance(lhs, self.sp.core.function.AppliedUndef)
        if op not in ("eq", "in") or not named:
            return False
        return self.compare(rhs, value)

    def compare_relations(self, a: Any, b: Any) -> Optional[bool]:
        sp = self.sp
        flip = {"gt": "lt", "ge": "le"}
        # Sides are compared as expressions: a long decimal is its exact value there.
        a = (a[0], a[1], _exact(a[2]), _exact(a[3]))
        b = (b[0], b[1], _exact(b[2]), _exact(b[3]))
        op_a, op_b = flip.get(a[1], a[1]), flip.get(b[1], b[1])
        if op_a != op_b or isinstance(a[2], tuple) or isinstance(b[2], tuple):
            return False if op_a != op_b else None
        left = (a[2] - a[3]) * (-1 if a[1] in flip else 1)
        right = (b[2] - b[3]) * (-1 if b[1] in flip else 1)
        if right == 0:
            return None
        ratio = sp.simplify(left / right)
        if ratio.free_symbols:
            return None
        if ratio == 0:
            return False
        if op_a in ("lt", "le"):
            return bool(ratio > 0)
        return True

    def compare_multiset(self, xs: list[Any], ys: list[Any]) -> Optional[bool]:
        if len(xs) != len(ys):
            return False
        table = [[self.compare(x, y) for y in ys] for x in xs]
        if _has_perfect_matching(table, lambda v: v is True):
            return True
        if not _has_perfect_matching(table, lambda v: v is not False):
            return False
        return None

    def compare_sets(self, a: Any, b: Any) -> Optional[bool]:
        sp = self.sp

        def as_set(node: Any) -> Any:
            parts = []
            for part in node[1]:
                if part[0] == "tuple" and len(part[2]) == 2:
                    lo, hi = (_exact(end) for end in part[2])
                    parts.append(sp.Interval(lo, hi, part[1][0] == "(", part[1][1] == ")"))
                elif part[0] == "multiset":
                    parts.append(sp.FiniteSet(*(_exact(item) for item in part[1])))
                else:
                    raise ValueError("unsupported set")
            return sp.Union(*parts)

        return bool(as_set(a) == as_set(b)) or None

    def serve(self, stdin: IO[str], stdout: IO[str]) -> None:
        stdout.write(json.dumps({"ready": True, "sympy": self.sp.__version__}) + "\n")
        stdout.flush()
        for line in stdin:
            request = json.loads(line)
            try:
                self.last_rule = None
                verdict = self.compare(self.evaluate(request["a"]), self.evaluate(request["b"]))
                status = {True: "equal", False: "not_equal", None: "unknown"}[verdict]
                if self.last_rule == "rounding":
                    detail = {True: "sympy: the value rounds to the decimal (60 digits)",
                              False: "sympy: the value does not round to the decimal (60 digits)",
                              None: "sympy: undecided"}[verdict]
                else:
                    detail = {True: "sympy: the difference simplifies to zero", False: "sympy: the values differ",
                              None: "sympy: undecided"}[verdict]
            except MemoryError:
                status, detail = "error", "sympy ran out of memory (worker memory limit)"
            except Exception as exc:  # any sympy failure is a status, never a crash
                status, detail = "error", f"sympy failed: {type(exc).__name__}: {exc}"[:500]
            stdout.write(json.dumps({"id": request["id"], "status": status, "detail": detail}) + "\n")
            stdout.flush()


def _is_rounded(node: Any) -> bool:
    return isinstance(node, tuple) and node[0] == "rounded"


def _exact(node: Any) -> Any:
    """A long decimal's exact value, where it is read as an expression (a relation's side, an
    interval's end); anything else unchanged."""
    return node[1] if _is_rounded(node) else node


def _all3(values: Any) -> Optional[bool]:
    result: Optional[bool] = True
    for v in values:
        if v is False:
            return False
        if v is None:
            result = None
    return result


def _has_perfect_matching(table: list[list[Optional[bool]]], ok: Any) -> bool:
    n = len(table)
    match_of_right: list[Optional[int]] = [None] * n

    def augment(i: int, seen: list[bool]) -> bool:
        for j in range(n):
            if ok(table[i][j]) and not seen[j]:
                seen[j] = True
                if match_of_right[j] is None or augment(match_of_right[j], seen):  # type: ignore[arg-type]
                    match_of_right[j] = i
                    return True
        return False

    return all(augment(i, [False] * n) for i in range(n))


if __name__ == "__main__":
    _limit_memory()
    sys.setrecursionlimit(10_000)
    _Worker().serve(sys.stdin, sys.stdout)
