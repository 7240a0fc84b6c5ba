"""MicroBatcher: concurrent submits become few batch calls, results return in order."""
import asyncio
import threading
import time

import pytest

from apr_fast.verl.batcher import MicroBatcher


def test_concurrent_submits_share_batches_and_keep_their_results() -> None:
    calls: list[int] = []

    def square_all(items):
        calls.append(len(items))
        return [x * x for x in items]

    batcher = MicroBatcher(square_all, max_batch=64, max_wait_s=0.01)

    async def main():
        return await asyncio.gather(*[batcher.submit(i) for i in range(200)])

    results = asyncio.run(main())
    assert results == [i * i for i in range(200)]
    assert sum(calls) == 200
    assert max(calls) <= 64
    assert len(calls) <= 5  # 200 items arriving at once: 64 + 64 + 64 + 8


def test_a_lone_item_is_flushed_by_the_timer() -> None:
    batcher = MicroBatcher(lambda items: [x + 1 for x in items], max_batch=1000, max_wait_s=0.002)
    t0 = time.perf_counter()
    assert asyncio.run(batcher.submit(41)) == 42
    assert time.perf_counter() - t0 < 5  # a hang would fail here, not block the suite forever


def test_batch_errors_reach_every_waiter() -> None:
    def broken(items):
        raise ValueError("native batch failed")

    batcher = MicroBatcher(broken, max_batch=4, max_wait_s=0.001)

    async def main():
        return await asyncio.gather(*[batcher.submit(i) for i in range(6)], return_exceptions=True)

    results = asyncio.run(main())
    assert all(isinstance(r, ValueError) for r in results)


def test_wrong_result_count_is_an_error_not_a_silent_misalignment() -> None:
    batcher = MicroBatcher(lambda items: list(items)[:-1], max_batch=3, max_wait_s=0.001)

    async def main():
        return await asyncio.gather(*[batcher.submit(i) for i in range(3)], return_exceptions=True)

    assert all(isinstance(r, RuntimeError) for r in asyncio.run(main()))


def test_each_event_loop_has_its_own_queue() -> None:
    batcher = MicroBatcher(lambda items: [x * 2 for x in items], max_batch=8, max_wait_s=0.001)
    out: dict[int, list[int]] = {}

    def worker(k: int) -> None:
        async def main():
            return await asyncio.gather(*[batcher.submit(k * 100 + i) for i in range(20)])

        out[k] = asyncio.run(main())

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert out == {k: [2 * (k * 100 + i) for i in range(20)] for k in range(3)}


@pytest.mark.parametrize("kwargs", [{"max_batch": 0}, {"max_wait_s": -1}])
def test_invalid_settings_are_rejected(kwargs) -> None:
    with pytest.raises(ValueError):
        MicroBatcher(lambda items: items, **kwargs)
