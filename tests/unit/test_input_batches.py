"""input_batches acks a batch only after the runner has finished it, never when it is cancelled."""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass

from workers.app import input_batches
from workers.settings import WorkerSettings


@dataclass(frozen=True)
class _Message:
    topic: str
    partition: int
    offset: int


@dataclass(frozen=True)
class _Event:
    value: bytes
    message: _Message


class _Stream:
    def __init__(self, batches: list[list[_Event]]) -> None:
        self._batches = batches
        self.acked: list[int] = []

    async def noack_take(self, max_: int, within: float):
        for batch in self._batches:
            yield batch

    async def ack(self, event: _Event) -> bool:
        self.acked.append(event.message.offset)
        return True


def _batch(*offsets: int) -> list[_Event]:
    return [_Event(b"x", _Message("notes", 0, o)) for o in offsets]


def test_a_batch_is_acked_when_the_next_one_is_asked_for() -> None:
    async def run() -> list[int]:
        stream = _Stream([_batch(0, 1), _batch(2)])
        seen = []
        async with contextlib.aclosing(input_batches(stream, WorkerSettings())) as batches:
            async for events in batches:
                assert stream.acked == seen  # this batch is not acked while it is processed
                seen.extend(e.offset for e in events)
        return stream.acked

    assert asyncio.run(run()) == [0, 1, 2]


def test_a_batch_interrupted_by_shutdown_is_never_acked() -> None:
    async def run() -> list[int]:
        stream = _Stream([_batch(0, 1), _batch(2)])
        started = asyncio.Event()

        async def agent() -> None:
            async with contextlib.aclosing(input_batches(stream, WorkerSettings())) as batches:
                async for _ in batches:
                    started.set()
                    await asyncio.sleep(3600)  # paused on an outage

        task = asyncio.create_task(agent())
        await started.wait()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        return stream.acked

    assert asyncio.run(run()) == []
