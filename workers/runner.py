"""The worker's loop without faust: take a batch, process it, write the lake, publish, and only then move on.

The failure policy is the one at the top of workers/processor.py; this module carries out its batch half:

- a batch that fails because a dependency is down (``DependencyUnavailable``, or the lake or the broker
  failing while its outputs are written) is retried, with a backoff that doubles up to a ceiling and is cut
  short when a probe sees the dependency back. Nothing counts as done meanwhile: the worker reports itself
  paused and the batch's offsets stay uncommitted;
- a batch that keeps failing inside the pipeline itself (a bug, not a dependency) is retried
  ``internal_error_attempts`` times, then each of its events is dead-lettered with the reason, so that a
  poison batch never blocks its partition;
- records sent before a failed attempt are sent again by the next one with the same keys, which is harmless.

Commit order (at-least-once): ``run`` asks its source for the next batch only once every record of the
current one is acknowledged by the broker, and the source commits a batch's offsets only when asked for
the next batch (``workers.app.input_batches`` acks then). So offsets never run ahead of published outputs.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterable, Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from workers.health import BROKER, LAKE, STORE, TAGGER
from workers.lake import LakeRow
from workers.metrics import WorkerMetrics
from workers.processor import CODE_INTERNAL, BatchStats, DependencyUnavailable, InputEvent, OutputRecord
from workers.settings import WorkerSettings
from workers.state import WorkerState

log = logging.getLogger(__name__)


class BatchProcessor(Protocol):
    """What the runner needs of a ``NoteProcessor``."""

    async def process_batch(self, events: Sequence[InputEvent]) -> tuple[list[OutputRecord], BatchStats]: ...

    def dead_letter(self, event: InputEvent, code: str, message: str) -> OutputRecord: ...


class Publisher(Protocol):
    async def publish(self, records: Sequence[OutputRecord]) -> None:
        """Send every record; return only once the broker has acknowledged all of them (raise otherwise)."""
        ...


class LakeWriter(Protocol):
    def write(self, rows: Sequence[LakeRow]) -> object: ...


class DependencyMarks(Protocol):
    """The part of ``workers.health.DependencyHealth`` the runner uses."""

    def mark_down(self, name: str) -> None: ...

    def mark_up(self, name: str) -> None: ...

    async def wait_for_recovery(self, name: str, timeout_s: float) -> None: ...


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    backoff_s: float
    backoff_max_s: float
    internal_error_attempts: int

    @classmethod
    def from_settings(cls, settings: WorkerSettings) -> RetryPolicy:
        return cls(
            settings.retry_backoff_ms / 1000, settings.retry_backoff_max_ms / 1000, settings.internal_error_attempts
        )


class BatchFailed(Exception):
    """A batch attempt failed; ``dependency`` is the service to wait for, or None for an internal error."""

    def __init__(self, dependency: str | None, cause: BaseException) -> None:
        super().__init__(dependency or "internal")
        self.dependency = dependency
        self.cause = cause


def failed_dependency(exc: BaseException) -> str | None:
    """Which dependency a pipeline failure points at, or None for an internal error."""
    return exc.dependency if isinstance(exc, DependencyUnavailable) else None


class BatchRunner:
    """Runs batches to completion, one at a time. ``processor`` is called on each attempt (it may build the
    processor on first use; a failure to build it counts as an internal error of that attempt)."""

    def __init__(
        self,
        processor: Callable[[], BatchProcessor],
        publisher: Publisher,
        *,
        health: DependencyMarks,
        state: WorkerState,
        metrics: WorkerMetrics,
        retry: RetryPolicy,
        lake: LakeWriter | None = None,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        self._processor = processor
        self._publisher = publisher
        self._health = health
        self._state = state
        self._metrics = metrics
        self._retry = retry
        self._lake = lake
        self._sleep = sleep

    async def run(self, batches: AsyncIterable[Sequence[InputEvent]]) -> None:
        async for events in batches:
            # The source commits this batch when the loop comes back for the next one, i.e. after this.
            await self.run_batch(events)

    async def run_batch(self, events: Sequence[InputEvent]) -> BatchStats:
        """Return once every output of ``events`` is published (retrying as long as that takes)."""
        self._metrics.events_in.inc(len(events))
        self._metrics.batch_size.observe(len(events))
        stats = await self._until_done(events)
        for name in (TAGGER, STORE, BROKER, LAKE):
            self._health.mark_up(name)
        self._state.resume()
        m = self._metrics
        m.paused.set(0)
        m.notes_out.inc(stats.notes)
        m.messages_out.inc(stats.messages)
        m.demographics.inc(stats.demographics)
        m.dead_letters.inc(stats.dead_letters)
        for type_, n in stats.phi_by_type.items():
            m.phi.labels(type_).inc(n)
        log.info("batch: %d events, %d notes, %d dead letters", len(events), stats.notes, stats.dead_letters)
        return stats

    async def _until_done(self, events: Sequence[InputEvent]) -> BatchStats:
        floor = self._retry.backoff_s
        delay = floor
        internal_failures = 0
        while True:
            try:
                return await self._attempt(events, give_up=internal_failures >= self._retry.internal_error_attempts)
            except BatchFailed as failure:
                # Fail closed: nothing of this batch counts as done (its offsets stay uncommitted).
                dependency = failure.dependency
                if dependency is None:
                    internal_failures += 1
                self._paused(len(events), failure, delay)
                # At least the floor between attempts (no busy loop), at most the backoff delay, and
                # sooner when a probe sees the dependency back.
                await self._sleep(floor)
                if dependency is not None:
                    await self._health.wait_for_recovery(dependency, delay - floor)
                else:
                    await self._sleep(delay - floor)
                delay = min(delay * 2, self._retry.backoff_max_s)

    def _paused(self, size: int, failure: BatchFailed, delay: float) -> None:
        dependency = failure.dependency
        self._state.pause()
        m = self._metrics
        m.paused.set(1)
        m.ready.set(0)
        m.batch_retries.inc()
        m.dependency_errors.labels(dependency or "internal").inc()
        if dependency is not None:
            self._health.mark_down(dependency)
        # The type only: exception messages may quote data.
        log.warning(
            "batch of %d paused: %s unavailable (%s); retrying in %.1fs at most",
            size, dependency or "internal", type(failure.cause).__name__, delay,
        )  # fmt: skip

    async def _attempt(self, events: Sequence[InputEvent], give_up: bool) -> BatchStats:
        """One try at a batch: process, write the lake, publish. Raises ``BatchFailed`` naming the culprit."""
        try:
            if give_up:
                # The batch keeps failing inside the pipeline itself (not a dependency): rather than block
                # the partition forever, each event goes to the dead-letter topic with the reason.
                processor = self._processor()
                records = [processor.dead_letter(e, CODE_INTERNAL, "batch failed repeatedly") for e in events]
                stats = BatchStats(dead_letters=len(records))
            else:
                with self._metrics.batch_seconds.time():
                    records, stats = await self._processor().process_batch(events)
        except Exception as exc:
            raise BatchFailed(failed_dependency(exc), exc) from None
        with self._metrics.publish_seconds.time():
            if self._lake is not None and stats.lake_rows:
                try:
                    await asyncio.to_thread(self._lake.write, stats.lake_rows)
                except Exception as exc:
                    raise BatchFailed(LAKE, exc) from None
            try:
                await self._publisher.publish(records)
            except Exception as exc:
                raise BatchFailed(BROKER, exc) from None
        return stats
