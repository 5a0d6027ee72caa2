"""The worker loop without faust: a real NoteProcessor over the in-memory store, demographics and a fake
tagger, driven by a fake batch source (which commits like faust's take_events) and a fake publisher."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Sequence

from deid_core.detect.registry import build_detectors
from deid_core.message.path import MessagePipeline
from deid_core.message.policy import shipped_policy
from deid_core.pipeline import DetectionPipeline
from deid_core.surrogate.engine import Surrogator
from deid_core.surrogate.store import InMemoryMappingStore
from deid_core.tagger.base import TaggerUnavailable
from schemas import Span
from tests.unit.test_processor import KEY, TinyLoader
from workers.health import TAGGER, DependencyHealth
from workers.metrics import WorkerMetrics
from workers.processor import (
    BatchStats,
    InMemoryDemographics,
    InputEvent,
    NoteProcessor,
    OutputRecord,
    TopicNames,
)
from workers.runner import BatchRunner, RetryPolicy
from workers.state import WorkerState

TOPICS = TopicNames()
RETRY = RetryPolicy(backoff_s=0.001, backoff_max_s=0.004, internal_error_attempts=2)


class OutageTagger:
    """Unavailable for its first ``down_calls`` calls, then up (and finds nothing: the rules still do)."""

    model_version = "outage"

    def __init__(self, down_calls: int = 0) -> None:
        self.down_calls = down_calls
        self.calls = 0

    async def tag(self, texts: Sequence[str]) -> list[list[Span]]:
        self.calls += 1
        if self.calls <= self.down_calls:
            raise TaggerUnavailable("test: tagger down")
        return [[] for _ in texts]

    async def close(self) -> None:
        return None


class FakePublisher:
    """Records what was published; ``fail_first`` publishes fail like an unreachable broker."""

    def __init__(self, log: list[str], fail_first: int = 0) -> None:
        self.log = log
        self.fail_first = fail_first
        self.published: list[OutputRecord] = []
        self.calls = 0

    async def publish(self, records: Sequence[OutputRecord]) -> None:
        self.calls += 1
        if self.calls <= self.fail_first:
            self.log.append("publish failed")
            raise ConnectionError("test: broker down")
        self.published.extend(records)
        self.log.append(f"flushed {len(records)} records")


async def committing_source(
    batches: Sequence[Sequence[InputEvent]], log: list[str]
) -> AsyncIterator[list[InputEvent]]:
    """Like faust's take_events: a batch's offsets are committed when the next batch is asked for."""
    for events in batches:
        try:
            yield list(events)
        finally:
            log.append(f"commit {[e.offset for e in events]}")


def _processor(tagger: object | None = None) -> NoteProcessor:
    detection = DetectionPipeline(build_detectors(["rules", "header"]), tagger)  # type: ignore[arg-type]
    surrogator = Surrogator(InMemoryMappingStore(), KEY)
    pipeline = MessagePipeline(detection, surrogator, shipped_policy("surrogate"), [TinyLoader()])
    return NoteProcessor(pipeline, InMemoryDemographics(), TOPICS)


def _note(i: int) -> InputEvent:
    doc = {
        "id": f"n{i}", "text": f"Seen 03/0{i + 1}/2014 by Dr. Quillon Vantree.",
        "patient": {"patient_id": f"p{i}", "names": ["Quillon Vantree"]},
    }  # fmt: skip
    return InputEvent(json.dumps(doc).encode(), TOPICS.notes_in, 0, i)


def _runner(
    processor: object, publisher: FakePublisher, lake: object | None = None
) -> tuple[BatchRunner, WorkerState, WorkerMetrics]:
    state, metrics = WorkerState(), WorkerMetrics()
    runner = BatchRunner(
        lambda: processor,  # type: ignore[arg-type, return-value]
        publisher, health=DependencyHealth(), state=state, metrics=metrics, retry=RETRY, lake=lake,  # type: ignore[arg-type]
    )  # fmt: skip
    return runner, state, metrics


def _metric(metrics: WorkerMetrics, name: str, **labels: str) -> float:
    return metrics.registry.get_sample_value(name, labels) or 0.0


async def test_a_batch_is_published_whole_and_counted() -> None:
    publisher = FakePublisher([])
    runner, state, metrics = _runner(_processor(OutageTagger()), publisher)
    stats = await runner.run_batch([_note(0), _note(1)])
    assert stats.notes == 2 and stats.dead_letters == 0
    assert [r.topic for r in publisher.published].count(TOPICS.notes_out) == 2
    assert {r.topic for r in publisher.published} == {TOPICS.notes_out, TOPICS.json_out, TOPICS.audit}
    assert all(b"Vantree" not in r.value for r in publisher.published)
    assert not state.paused
    assert _metric(metrics, "deid_notes_out_total") == 2 and _metric(metrics, "deid_events_in_total") == 2
    assert _metric(metrics, "deid_batch_retries_total") == 0 and _metric(metrics, "deid_paused") == 0


async def test_a_dependency_outage_pauses_with_backoff_then_publishes_everything_once() -> None:
    log: list[str] = []
    publisher = FakePublisher(log)
    state = WorkerState()
    health = DependencyHealth()
    pauses: list[tuple[float, bool, bool]] = []

    async def sleep(seconds: float) -> None:
        # What the worker looks like while it waits: paused, the tagger down, nothing published.
        pauses.append((seconds, state.paused, health.is_up(TAGGER)))
        assert publisher.published == []

    metrics = WorkerMetrics()
    processor = _processor(OutageTagger(down_calls=3))
    runner = BatchRunner(
        lambda: processor, publisher, health=health, state=state, metrics=metrics, retry=RETRY, sleep=sleep
    )
    stats = await runner.run_batch([_note(0), _note(1)])

    assert stats.notes == 2
    assert publisher.calls == 1 and len(log) == 1  # nothing partial: one publish, after the outage
    assert [r.topic for r in publisher.published].count(TOPICS.notes_out) == 2
    # One floor pause per failed attempt (the rest of each backoff waits on the tagger's recovery).
    assert [seconds for seconds, _, _ in pauses] == [RETRY.backoff_s] * 3
    assert all(paused and not up for _, paused, up in pauses)
    assert not state.paused and health.is_up(TAGGER)
    assert _metric(metrics, "deid_batch_retries_total") == 3
    assert _metric(metrics, "deid_dependency_errors_total", dependency=TAGGER) == 3
    assert _metric(metrics, "deid_paused") == 0


async def test_bad_input_is_dead_lettered_with_a_reason_and_the_rest_published() -> None:
    publisher = FakePublisher([])
    runner, _, metrics = _runner(_processor(OutageTagger()), publisher)
    garbage = InputEvent(b"\x00\x01 not a message", TOPICS.notes_in, 3, 7)
    stats = await runner.run_batch([garbage, _note(1)])
    dead = [r for r in publisher.published if r.topic == TOPICS.dead_letter]
    assert stats.dead_letters == 1 and len(dead) == 1
    headers = dict(dead[0].headers)
    assert headers["deid-error-code"] == b"format.unknown" and headers["deid-error-message"]
    assert dead[0].key == f"{TOPICS.notes_in}/3/7".encode() and dead[0].value == garbage.value
    assert any(r.topic == TOPICS.notes_out for r in publisher.published)
    assert _metric(metrics, "deid_dead_letters_total") == 1


class ExplodingProcessor:
    """A pipeline bug on every batch; dead letters still work."""

    def __init__(self, inner: NoteProcessor) -> None:
        self.inner = inner
        self.attempts = 0

    async def process_batch(self, events: Sequence[InputEvent]) -> tuple[list[OutputRecord], BatchStats]:
        self.attempts += 1
        raise ZeroDivisionError("a bug that might quote Quillon Vantree")

    def dead_letter(self, event: InputEvent, code: str, message: str) -> OutputRecord:
        return self.inner.dead_letter(event, code, message)


async def test_a_batch_failing_inside_the_pipeline_is_dead_lettered_after_its_attempts() -> None:
    publisher = FakePublisher([])
    processor = ExplodingProcessor(_processor())
    runner, state, metrics = _runner(processor, publisher)
    stats = await runner.run_batch([_note(0), _note(1)])
    assert processor.attempts == RETRY.internal_error_attempts
    assert stats.dead_letters == 2 and {r.topic for r in publisher.published} == {TOPICS.dead_letter}
    for record in publisher.published:
        headers = dict(record.headers)
        assert headers["deid-error-code"] == b"internal-error"
        assert headers["deid-error-message"] == b"batch failed repeatedly"
    assert _metric(metrics, "deid_dependency_errors_total", dependency="internal") == 2 and not state.paused


async def test_offsets_are_committed_only_after_the_outputs_are_flushed() -> None:
    log: list[str] = []
    publisher = FakePublisher(log, fail_first=1)  # the first flush fails: the batch must not be committed
    lake_rows: list[int] = []

    class Lake:
        def write(self, rows: Sequence[object]) -> None:
            lake_rows.append(len(rows))
            log.append("lake")

    runner, _, metrics = _runner(_processor(OutageTagger()), publisher, lake=Lake())
    await runner.run(committing_source([[_note(0), _note(1)], [_note(2)]], log))
    # Each attempt writes the lake, then publishes; a batch is committed only after a flush that went through.
    assert log == [
        "lake", "publish failed",
        "lake", "flushed 6 records", "commit [0, 1]",
        "lake", "flushed 3 records", "commit [2]",
    ]  # fmt: skip
    assert lake_rows == [2, 2, 1]
    assert _metric(metrics, "deid_dependency_errors_total", dependency="broker") == 1
