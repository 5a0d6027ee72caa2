"""The faust application: agents that move bytes between topics and a NoteProcessor that does the work.

Commit order (at-least-once): a batch's output records are sent and their delivery awaited before the
agent asks for the next batch, and faust commits an input offset only once its event is acknowledged,
i.e. after that. Output keys are stable, so a batch redelivered after a crash yields the same records.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import faust

from deid_core.enrich import merge_headers
from schemas import PatientHeader
from workers.health import BROKER, LAKE, STORE, TAGGER, DependencyHealth, DependencyProbe, KafkaBrokerProbe
from workers.lake import ParquetLakeSink
from workers.logsafety import install_payload_redaction
from workers.metrics import WorkerMetrics
from workers.processor import (
    CODE_INTERNAL,
    BatchStats,
    DependencyUnavailable,
    InputEvent,
    NoteProcessor,
    OutputRecord,
    TopicNames,
)
from workers.security import aiokafka_client_options, faust_broker_options
from workers.settings import WorkerSettings

log = logging.getLogger(__name__)


class TableDemographics:
    """DemographicsTable over a faust Table (changelog-backed: survives restarts).

    faust lets only the agent that consumes a table's own topic write it, so ``put`` (called while
    processing notes) goes to a small in-process overlay that makes the header visible at once, and the
    demographics agent writes the durable table from the demographics topic via ``write``.
    """

    def __init__(self, table: Any, overlay_size: int = 10_000) -> None:
        self._table = table
        self._overlay: OrderedDict[str, PatientHeader] = OrderedDict()
        self._overlay_size = overlay_size

    def get(self, patient_id: str) -> PatientHeader | None:
        raw = self._table.get(patient_id)
        durable = PatientHeader.model_validate_json(raw) if raw else None
        return merge_headers(self._overlay.get(patient_id), durable)

    def put(self, header: PatientHeader) -> None:
        self._overlay[header.patient_id] = merge_headers(header, self._overlay.get(header.patient_id)) or header
        self._overlay.move_to_end(header.patient_id)
        while len(self._overlay) > self._overlay_size:
            self._overlay.popitem(last=False)

    def write(self, header: PatientHeader) -> None:
        merged = merge_headers(header, self.get(header.patient_id)) or header
        self._table[header.patient_id] = merged.model_dump_json().encode()


def topic_names(settings: WorkerSettings) -> TopicNames:
    return TopicNames(
        notes_in=settings.topic_notes_in, demographics=settings.topic_demographics, notes_out=settings.topic_notes_out,
        json_out=settings.topic_json_out, dead_letter=settings.topic_dead_letter, audit=settings.topic_audit,
    )


def failed_dependency(exc: BaseException) -> str | None:
    """Which dependency a pipeline failure points at, or None for an internal error."""
    return exc.dependency if isinstance(exc, DependencyUnavailable) else None


class BatchFailed(Exception):
    """A batch attempt failed; ``dependency`` is the service to wait for, or None for an internal error."""

    def __init__(self, dependency: str | None, cause: BaseException) -> None:
        super().__init__(dependency or "internal")
        self.dependency = dependency
        self.cause = cause


def create_app(
    settings: WorkerSettings, processor_factory: Any, probes: Sequence[DependencyProbe] = ()
) -> faust.App:
    """``processor_factory(table) -> NoteProcessor`` is called once the app's table exists.

    ``probes`` check the tagger and the mapping store in the background; the broker probe is added here.
    """
    install_payload_redaction()
    if settings.data_dir:
        Path(settings.data_dir).mkdir(parents=True, exist_ok=True)
    app = faust.App(
        settings.app_id,
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
    names = topic_names(settings)
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
    state: dict[str, Any] = {}
    metrics = WorkerMetrics()

    def on_change(name: str, up: bool) -> None:
        metrics.dependency_up.labels(name).set(1 if up else 0)

    health = DependencyHealth(
        [KafkaBrokerProbe(settings.kafka_bootstrap, aiokafka_client_options(settings)), *probes],
        timeout_s=settings.health_timeout_ms / 1000,
        on_change=on_change,
    )

    demographics = TableDemographics(table)
    lake = ParquetLakeSink(settings.lake_path) if settings.lake_path else None

    def processor() -> NoteProcessor:
        if "p" not in state:
            state["p"] = processor_factory(demographics)
        return state["p"]

    @app.agent(demographics_in)
    async def apply_demographics(stream: Any) -> None:
        async for raw in stream:
            header = processor().parse_demographics(raw)
            if header is not None:
                demographics.write(header)

    async def publish(records: list[OutputRecord]) -> None:
        futures = [
            await outputs[r.topic].send(key=r.key, value=r.value, headers=list(r.headers)) for r in records
        ]
        # Wait for the broker's acknowledgement of every record before this batch's offsets may commit.
        await asyncio.gather(*futures)

    async def attempt(events: list[InputEvent], give_up: bool) -> BatchStats:
        """One try at a batch: process, write the lake, publish. Raises ``BatchFailed`` naming the culprit."""
        try:
            if give_up:
                # The batch keeps failing inside the pipeline itself (not a dependency): rather than block
                # the partition forever, each event goes to the dead-letter topic with the reason.
                records = [processor().dead_letter(e, CODE_INTERNAL, "batch failed repeatedly") for e in events]
                stats = BatchStats(dead_letters=len(records))
            else:
                with metrics.batch_seconds.time():
                    records, stats = await processor().process_batch(events)
        except Exception as exc:
            raise BatchFailed(failed_dependency(exc), exc) from None
        with metrics.publish_seconds.time():
            if lake is not None and stats.lake_rows:
                try:
                    await asyncio.to_thread(lake.write, stats.lake_rows)
                except Exception as exc:
                    raise BatchFailed(LAKE, exc) from None
            try:
                await publish(records)
            except Exception as exc:
                raise BatchFailed(BROKER, exc) from None
        return stats

    @app.agent(notes_in)
    async def deidentify(stream: Any) -> None:
        async for batch in stream.take_events(settings.batch_max, within=settings.batch_wait_ms / 1000):
            # faust acks (and later commits) these events only when this loop asks for the next batch,
            # i.e. after every record of this one is acknowledged by the broker.
            events = [InputEvent(e.value, e.message.topic, e.message.partition, e.message.offset) for e in batch]
            metrics.events_in.inc(len(events))
            metrics.batch_size.observe(len(events))
            floor = settings.retry_backoff_ms / 1000
            delay = floor
            internal_failures = 0
            while True:
                try:
                    stats = await attempt(events, give_up=internal_failures >= settings.internal_error_attempts)
                    break
                except BatchFailed as failure:
                    # Fail closed: nothing of this batch counts as done (its offsets stay uncommitted); records
                    # already sent before a failure are sent again with the same keys, which is harmless.
                    dependency = failure.dependency
                    if dependency is None:
                        internal_failures += 1
                    state["paused"] = True
                    metrics.paused.set(1)
                    metrics.ready.set(0)
                    metrics.batch_retries.inc()
                    metrics.dependency_errors.labels(dependency or "internal").inc()
                    if dependency is not None:
                        health.mark_down(dependency)
                    # The type only: exception messages may quote data.
                    log.warning(
                        "batch of %d paused: %s unavailable (%s); retrying in %.1fs at most",
                        len(events), dependency or "internal", type(failure.cause).__name__, delay,
                    )
                    # At least the floor between attempts (no busy loop), at most the backoff delay, and
                    # sooner when a probe sees the dependency back.
                    await asyncio.sleep(floor)
                    if dependency is not None:
                        await health.wait_for_recovery(dependency, delay - floor)
                    else:
                        await asyncio.sleep(delay - floor)
                    delay = min(delay * 2, settings.retry_backoff_max_ms / 1000)
            for name in (TAGGER, STORE, BROKER, LAKE):
                health.mark_up(name)
            state["paused"] = False
            metrics.paused.set(0)
            metrics.notes_out.inc(stats.notes)
            metrics.messages_out.inc(stats.messages)
            metrics.demographics.inc(stats.demographics)
            metrics.dead_letters.inc(stats.dead_letters)
            for type_, n in stats.phi_by_type.items():
                metrics.phi.labels(type_).inc(n)
            log.info("batch: %d events, %d notes, %d dead letters", len(events), stats.notes, stats.dead_letters)

    def is_ready() -> bool:
        # Ready once partitions are assigned (a worker mid-join is not), while every dependency is up
        # and no batch is paused.
        up = (
            bool(state.get("assigned")) and not app.rebalancing and health.all_up()
            and not state.get("paused")
        )
        metrics.ready.set(1 if up else 0)
        return up

    @app.task
    async def watch_dependencies() -> None:
        # Probe, then refresh the deid_ready gauge, which otherwise changes only when /ready is asked.
        try:
            while True:
                await health.check_all()
                is_ready()
                await asyncio.sleep(settings.health_interval_ms / 1000)
        finally:
            await health.close()

    @app.page("/health")
    async def health_page(web: Any, request: Any) -> Any:
        return web.json({"status": "ok"})

    @app.on_rebalance_complete.connect
    async def _assigned(sender: Any, **kwargs: Any) -> None:
        state["assigned"] = True  # type: ignore[assignment]

    @app.page("/ready")
    async def ready(web: Any, request: Any) -> Any:
        up = is_ready()
        body = {"ready": up, "down": health.down(), "paused": bool(state.get("paused"))}
        return web.json(body, status=200 if up else 503)

    @app.page("/metrics")
    async def prometheus(web: Any, request: Any) -> Any:
        return web.bytes(metrics.render(), content_type="text/plain; version=0.0.4")

    app.deid_state = state  # type: ignore[attr-defined]
    app.deid_health = health  # type: ignore[attr-defined]
    app.deid_metrics = metrics  # type: ignore[attr-defined]
    return app
