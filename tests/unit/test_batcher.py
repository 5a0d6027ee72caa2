"""MessageBatcher: concurrent calls share pipeline batches; failures reach every caller of their batch."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import pytest

from deid_core.message.batcher import MessageBatcher
from schemas.events import EventParseError


class _Pipeline:
    """Stands for MessagePipeline: echoes each message, records batch sizes, fails when told to."""

    def __init__(self) -> None:
        self.batches: list[int] = []
        self.fail_next: Exception | None = None

    async def deidentify(self, items: Sequence[tuple[Any, Any]]) -> list[Any]:
        self.batches.append(len(items))
        await asyncio.sleep(0.01)
        if self.fail_next is not None:
            exc, self.fail_next = self.fail_next, None
            raise exc
        return [EventParseError("bad", "refused") if message == "bad" else f"out:{message}" for message, _ in items]


async def test_concurrent_calls_share_batches_up_to_max_items() -> None:
    pipeline = _Pipeline()
    batcher = MessageBatcher(pipeline, max_items=4)  # type: ignore[arg-type]
    results = await asyncio.gather(*(batcher.submit(f"m{i}", None) for i in range(10)))  # type: ignore[arg-type]
    assert results == [f"out:m{i}" for i in range(10)]
    assert sum(pipeline.batches) == 10 and max(pipeline.batches) <= 4 and len(pipeline.batches) < 10


async def test_a_parse_error_concerns_only_its_own_message() -> None:
    batcher = MessageBatcher(_Pipeline(), max_items=8)  # type: ignore[arg-type]
    good, bad = await asyncio.gather(batcher.submit("m", None), batcher.submit("bad", None))  # type: ignore[arg-type]
    assert good == "out:m" and isinstance(bad, EventParseError)


async def test_a_failed_batch_fails_every_caller_and_an_immediate_retry_runs() -> None:
    pipeline = _Pipeline()
    batcher = MessageBatcher(pipeline, max_items=8)  # type: ignore[arg-type]
    pipeline.fail_next = ConnectionError("down")

    async def call_with_one_retry(message: str) -> Any:
        try:
            return await batcher.submit(message, None)  # type: ignore[arg-type]
        except ConnectionError:
            # Re-submitted before the failed runner's task is done: must not wait for a runner that left.
            return await batcher.submit(message, None)  # type: ignore[arg-type]

    results = await asyncio.wait_for(asyncio.gather(*(call_with_one_retry(f"m{i}") for i in range(3))), 5)
    assert results == ["out:m0", "out:m1", "out:m2"]


async def test_back_to_back_calls_never_wait_for_a_finished_runner() -> None:
    batcher = MessageBatcher(_Pipeline(), max_items=2)  # type: ignore[arg-type]
    for i in range(50):
        assert await asyncio.wait_for(batcher.submit(f"m{i}", None), 5) == f"out:m{i}"  # type: ignore[arg-type]


async def test_close_cancels_queued_calls() -> None:
    batcher = MessageBatcher(_Pipeline(), max_items=1)  # type: ignore[arg-type]
    calls = [asyncio.create_task(batcher.submit(f"m{i}", None)) for i in range(3)]  # type: ignore[arg-type]
    await asyncio.sleep(0)
    await batcher.close()
    outcomes = await asyncio.gather(*calls, return_exceptions=True)
    assert any(isinstance(o, asyncio.CancelledError) for o in outcomes)


def test_limits_must_be_positive() -> None:
    with pytest.raises(ValueError):
        MessageBatcher(_Pipeline(), max_items=0)  # type: ignore[arg-type]
