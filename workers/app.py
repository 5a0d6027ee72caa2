"""The faust application: a thin composition of the worker's parts, which know nothing of faust.

- workers/runner.py runs each batch to completion (retry, backoff, dead letters, publish before commit);
- workers/state.py is what the worker knows about itself (partitions assigned, a batch paused);
- workers/probes.py turns that and the dependencies' health into /health and /ready;
- workers/demographics.py keeps patient headers in a faust Table.

Commit order (at-least-once): ``input_batches`` acks a batch's events, which faust later commits, only
when the runner asks for the next batch, i.e. once every output record of this one is acknowledged by
the broker; a batch interrupted by shutdown is never acked. Output keys are stable, so a batch redelivered after a crash yields the same records.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import faust

from workers.demographics import TableDemographics
from workers.health import DependencyHealth, DependencyProbe, KafkaBrokerProbe
from workers.lake import ParquetLakeSink
from workers.logsafety import install_payload_redaction
from workers.metrics import WorkerMetrics
from workers.probes import WorkerProbes
from workers.processor import InputEvent, NoteProcessor, OutputRecord
from workers.runner import BatchRunner, RetryPolicy
from workers.security import aiokafka_client_options, faust_broker_options
from workers.settings import WorkerSettings
from workers.state import WorkerState
from workers.transport import DeidApp


class TopicPublisher:
    """Publishes output records to faust topics and waits for the broker's acknowledgement of each."""

    def __init__(self, topics: Mapping[str, Any]) -> None:
        self._topics = topics

    async def publish(self, records: Sequence[OutputRecord]) -> None:
        futures = [
            await self._topics[r.topic].send(key=r.key, value=r.value, headers=list(r.headers)) for r in records
        ]
        await asyncio.gather(*futures)


async def input_batches(stream: Any, settings: WorkerSettings) -> AsyncIterator[list[InputEvent]]:
    """Batches of the stream's events; a batch is acked (so faust may commit it) only when the runner
    asks for the next one, i.e. after its outputs are published.

    ``noack_take``, not ``take_events``: ``take_events`` acks a batch in a ``finally`` even when the agent
    is cancelled mid-batch (shutdown while paused on an outage), and the consumer commits acked offsets
    as it stops, so the batch would be lost. Here a cancelled runner never comes back, and the unacked
    batch is redelivered to whoever takes the partition."""
    async for batch in stream.noack_take(settings.batch_max, within=settings.batch_wait_ms / 1000):
        yield [InputEvent(e.value, e.message.topic, e.message.partition, e.message.offset) for e in batch]
        for event in batch:
            await stream.ack(event)


def create_app(
    settings: WorkerSettings,
    processor_factory: Callable[[TableDemographics], NoteProcessor],
    probes: Sequence[DependencyProbe] = (),
) -> faust.App:
    """``processor_factory(table) -> NoteProcessor`` is called once the app's table exists, on first use.

    ``probes`` check the tagger and the mapping store in the background; the broker probe is added here.
    """
    install_payload_redaction()
    if settings.data_dir:
        Path(settings.data_dir).mkdir(parents=True, exist_ok=True)
    app = DeidApp(
        settings.app_id,
        fetch_wait_ms=settings.consumer_fetch_wait_ms,
        **faust_broker_options(settings),
        store="memory://",
        key_serializer="raw",
        value_serializer="raw",
        topic_partitions=settings.topic_partitions,
        broker_session_timeout=settings.broker_session_timeout_s,
        broker_heartbeat_interval=settings.broker_heartbeat_interval_s,
        web_port=settings.web_port,
        producer_acks=-1,
        **({"datadir": settings.data_dir} if settings.data_dir else {}),
    )
    names = settings.topic_names()
    # The table's changelog must have as many partitions as its source topic; a broker that auto-creates
    # topics would otherwise pick its own default, so the worker creates its input topics itself.
    inputs = {"partitions": settings.topic_partitions, "internal": settings.create_topics}
    notes_in = app.topic(names.notes_in, key_type=bytes, value_type=bytes, **inputs)
    demographics_in = app.topic(names.demographics, key_type=bytes, value_type=bytes, **inputs)
    outputs = {
        name: app.topic(name, key_type=bytes, value_type=bytes)
        for name in {names.notes_out, names.json_out, names.dead_letter, names.audit, names.demographics}
        if name
    }
    table = app.Table("demographics", key_type=str, value_type=bytes, partitions=settings.topic_partitions)
    state = WorkerState()
    metrics = WorkerMetrics()
    health = DependencyHealth(
        [KafkaBrokerProbe(settings.kafka_bootstrap, aiokafka_client_options(settings)), *probes],
        timeout_s=settings.health_timeout_ms / 1000,
        on_change=lambda name, up: metrics.dependency_up.labels(name).set(1 if up else 0),
    )
    demographics = TableDemographics(table)
    # Built on first use, not at startup; a failed build is retried by the next call.
    processor = functools.cache(lambda: processor_factory(demographics))
    runner = BatchRunner(
        processor, TopicPublisher(outputs), health=health, state=state, metrics=metrics,
        retry=RetryPolicy.from_settings(settings),
        lake=ParquetLakeSink(settings.lake_path) if settings.lake_path else None,
    )  # fmt: skip
    worker_probes = WorkerProbes(state, health, metrics, rebalancing=lambda: bool(app.rebalancing))

    @app.agent(demographics_in)
    async def apply_demographics(stream: Any) -> None:
        async for raw in stream:
            header = processor().parse_demographics(raw)
            if header is not None:
                demographics.write(header)

    @app.agent(notes_in)
    async def deidentify(stream: Any) -> None:
        # Closed as soon as the agent stops (as a loop over the stream itself would be), not when collected.
        async with contextlib.aclosing(input_batches(stream, settings)) as batches:
            await runner.run(batches)

    @app.task
    async def watch_dependencies() -> None:
        await worker_probes.watch(settings.health_interval_ms / 1000)

    @app.on_rebalance_complete.connect
    async def _assigned(sender: Any, **kwargs: Any) -> None:
        state.mark_assigned()

    @app.page("/health")
    async def health_page(web: Any, request: Any) -> Any:
        return web.json(worker_probes.liveness())

    @app.page("/ready")
    async def ready(web: Any, request: Any) -> Any:
        readiness = worker_probes.readiness()
        return web.json(readiness.body(), status=readiness.status)

    @app.page("/metrics")
    async def prometheus(web: Any, request: Any) -> Any:
        return web.bytes(metrics.render(), content_type="text/plain; version=0.0.4")

    app.deid_state = state  # type: ignore[attr-defined]
    app.deid_health = health  # type: ignore[attr-defined]
    app.deid_metrics = metrics  # type: ignore[attr-defined]
    return app
