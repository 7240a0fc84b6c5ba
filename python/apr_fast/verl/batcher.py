"""Micro-batching of concurrent per-item coroutine calls into one batch call.

VeRL's reward loop calls ``run_single`` once per trajectory, as each generation finishes, on
an asyncio event loop inside a Ray actor; there is no batch-level API. Scoring one rollout
natively costs microseconds, so the per-call overhead of crossing into an executor would
dominate. :class:`MicroBatcher` collects the items submitted within a short window (or until a
size limit) and hands them to one blocking batch function run in an executor thread, which
releases the interpreter and uses every core.
"""
from __future__ import annotations

import asyncio
import weakref
from concurrent.futures import Executor
from typing import Callable, Generic, Sequence, TypeVar

T = TypeVar("T")
R = TypeVar("R")

__all__ = ["MicroBatcher"]


class _LoopState(Generic[T, R]):
    """Pending items of one event loop (a batcher may be shared by several loops)."""

    def __init__(self) -> None:
        self.items: list[T] = []
        self.futures: list[asyncio.Future[R]] = []
        self.timer: asyncio.TimerHandle | None = None


class MicroBatcher(Generic[T, R]):
    """Turns many ``await submit(item)`` calls into few ``process(items)`` calls.

    A batch is flushed when it holds ``max_batch`` items or when ``max_wait_s`` has passed
    since its first item arrived, whichever comes first. ``process`` must return one result
    per item, in order; it runs in ``executor`` (the loop's default executor if ``None``). If
    it raises, every item of that batch receives the exception.
    """

    def __init__(
        self,
        process: Callable[[Sequence[T]], Sequence[R]],
        *,
        max_batch: int = 512,
        max_wait_s: float = 0.005,
        executor: Executor | None = None,
    ) -> None:
        if max_batch < 1:
            raise ValueError(f"max_batch must be >= 1, got {max_batch}")
        if max_wait_s < 0:
            raise ValueError(f"max_wait_s must be >= 0, got {max_wait_s}")
        self._process = process
        self._max_batch = max_batch
        self._max_wait_s = max_wait_s
        self._executor = executor
        # Weak keys: a finished event loop must not be kept alive by its (empty) queue.
        self._states: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _LoopState[T, R]] = (
            weakref.WeakKeyDictionary()
        )
        self.batches_run = 0
        self.items_run = 0

    async def submit(self, item: T) -> R:
        """Queues ``item`` and waits for its result."""
        loop = asyncio.get_running_loop()
        state = self._states.get(loop)
        if state is None:
            state = self._states[loop] = _LoopState()
        future: asyncio.Future[R] = loop.create_future()
        state.items.append(item)
        state.futures.append(future)
        if len(state.items) >= self._max_batch:
            self._flush(loop, state)
        elif state.timer is None:
            state.timer = loop.call_later(self._max_wait_s, self._flush, loop, state)
        return await future

    def _flush(self, loop: asyncio.AbstractEventLoop, state: _LoopState[T, R]) -> None:
        if state.timer is not None:
            state.timer.cancel()
            state.timer = None
        items, futures = state.items, state.futures
        state.items, state.futures = [], []
        if items:
            loop.create_task(self._run(loop, items, futures))

    async def _run(
        self, loop: asyncio.AbstractEventLoop, items: list[T], futures: list[asyncio.Future[R]]
    ) -> None:
        try:
            results = await loop.run_in_executor(self._executor, self._process, items)
            if len(results) != len(items):
                raise RuntimeError(
                    f"batch function returned {len(results)} results for {len(items)} items"
                )
        except BaseException as exc:  # delivered to every waiter, never lost
            for future in futures:
                if not future.done():
                    future.set_exception(exc)
            if not isinstance(exc, Exception):
                raise
            return
        self.batches_run += 1
        self.items_run += len(items)
        for future, result in zip(futures, results):
            if not future.done():
                future.set_result(result)
