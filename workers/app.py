"""The faust application: agents that move bytes between topics and a NoteProcessor that does the work.

Commit order (at-least-once): a batch's output records are sent and their delivery awaited before the
agent asks for the next batch, and faust commits an input offset only once its event is acknowledged,
i.e. after that. Output keys are stable, so a batch redelivered after a crash yields the same records.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from pathlib import Path
from typing import Any

import faust

from deid_core.enrich import merge_headers
from schemas import PatientHeader
from workers.lake import ParquetLakeSink
from workers.metrics import WorkerMetrics
from workers.processor import DependencyUnavailable, InputEvent, NoteProcessor, OutputRecord, TopicNames
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


def create_app(settings: WorkerSettings, processor_factory: Any) -> faust.App:
    """``processor_factory(table) -> NoteProcessor`` is called once the app's table exists."""
    if settings.data_dir:
        Path(settings.data_dir).mkdir(parents=True, exist_ok=True)
    app = faust.App(
        settings.app_id,
        broker=f"kafka://{settings.kafka_bootstrap}",
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

    @app.agent(notes_in)
    async def deidentify(stream: Any) -> None:
        async for batch in stream.take(settings.batch_max, within=settings.batch_wait_ms / 1000):
            events = [InputEvent(v) for v in batch]
            metrics.events_in.inc(len(events))
            metrics.batch_size.observe(len(events))
            delay = settings.retry_backoff_ms / 1000
            while True:
                try:
                    with metrics.batch_seconds.time():
                        records, stats = await processor().process_batch(events)
                    with metrics.publish_seconds.time():
                        if lake is not None:
                            await asyncio.to_thread(lake.write, stats.lake_rows)
                        await publish(records)
                    metrics.ready.set(1)
                    break
                except DependencyUnavailable as exc:
                    # Fail closed: nothing of this batch was published; pause, then retry it whole.
                    metrics.ready.set(0)
                    metrics.dependency_errors.labels(str(exc).split(":", 1)[0]).inc()
                    log.warning("dependency unavailable (%s); retrying batch of %d in %.1fs", exc, len(events), delay)
                except Exception as exc:  # noqa: BLE001 - a crashed agent could drop the batch; pause instead
                    metrics.ready.set(0)
                    metrics.dependency_errors.labels("internal").inc()
                    # The type only: exception messages may quote data.
                    log.error("batch of %d failed (%s); retrying in %.1fs", len(events), type(exc).__name__, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, settings.retry_backoff_max_ms / 1000)
            metrics.notes_out.inc(stats.notes)
            metrics.messages_out.inc(stats.messages)
            metrics.demographics.inc(stats.demographics)
            metrics.dead_letters.inc(stats.dead_letters)
            for type_, n in stats.phi_by_type.items():
                metrics.phi.labels(type_).inc(n)
            log.info("batch: %d events, %d notes, %d dead letters", len(events), stats.notes, stats.dead_letters)

    @app.page("/health")
    async def health(web: Any, request: Any) -> Any:
        return web.json({"status": "ok"})

    @app.on_rebalance_complete.connect
    async def _assigned(sender: Any, **kwargs: Any) -> None:
        state["assigned"] = True  # type: ignore[assignment]

    @app.page("/ready")
    async def ready(web: Any, request: Any) -> Any:
        # Ready once partitions are assigned (a worker mid-join is not) and while dependencies are up.
        up = bool(state.get("assigned")) and not app.rebalancing and metrics.ready._value.get() == 1  # noqa: SLF001
        return web.json({"ready": up}, status=200 if up else 503)

    @app.page("/metrics")
    async def prometheus(web: Any, request: Any) -> Any:
        return web.bytes(metrics.render(), content_type="text/plain; version=0.0.4")

    app.deid_state = state  # type: ignore[attr-defined]
    app.deid_metrics = metrics  # type: ignore[attr-defined]
    return app
