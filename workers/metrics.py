"""Prometheus metrics of a worker, in a registry of its own (no module-level globals)."""

from __future__ import annotations

from dataclasses import dataclass, field

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest


@dataclass
class WorkerMetrics:
    registry: CollectorRegistry = field(default_factory=CollectorRegistry)

    def __post_init__(self) -> None:
        r = self.registry
        self.events_in = Counter("deid_events_in_total", "input events consumed", registry=r)
        self.notes_out = Counter("deid_notes_out_total", "de-identified notes published", registry=r)
        self.messages_out = Counter("deid_messages_out_total", "de-identified messages published", registry=r)
        self.demographics = Counter("deid_demographics_events_total", "demographics events applied", registry=r)
        self.dead_letters = Counter("deid_dead_letters_total", "events sent to the dead-letter topic", registry=r)
        self.dependency_errors = Counter(
            "deid_dependency_errors_total", "batches paused because a dependency was down", ["dependency"], registry=r
        )
        self.phi = Counter("deid_phi_replaced_total", "PHI spans replaced", ["type"], registry=r)
        self.batch_size = Histogram(
            "deid_batch_size", "events per batch", buckets=(1, 2, 4, 8, 16, 32, 64, 128), registry=r
        )
        self.batch_seconds = Histogram("deid_batch_seconds", "pipeline time per batch", registry=r)
        self.publish_seconds = Histogram("deid_publish_seconds", "time to publish and flush a batch", registry=r)
        self.ready = Gauge(
            "deid_ready", "1 when the worker is ready: partitions assigned, dependencies up, not paused", registry=r
        )
        self.dependency_up = Gauge(
            "deid_dependency_up", "1 while a dependency answers its probe", ["dependency"], registry=r
        )
        self.paused = Gauge("deid_paused", "1 while a batch waits for a dependency (nothing is published)", registry=r)
        self.batch_retries = Counter("deid_batch_retries_total", "batch attempts that failed and were retried", registry=r)
        self.ready.set(0)

    def render(self) -> bytes:
        return generate_latest(self.registry)
