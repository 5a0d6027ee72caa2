"""Sustained load: notes at a fixed rate through real `deid worker` processes, sampling memory, lag, latency.

Shared by tests/integration/test_soak.py (CI size) and bench/soak.py (10 minutes and more).

The producer sends JSON-envelope notes at ``rate`` notes/s for ``duration_s``: texts cycle through a pool
of held-out synthetic notes (``generate_notes("test")``), each send with a new id, so every send is a new
message while the set of patients stays bounded (a worker with the in-memory mapping store keeps one
entry per patient value by design; with Redis the worker holds none). Every ``sample_every_s`` a
sample records each worker's RSS (VmRSS from /proc), the lag (notes produced - distinct outputs
received) and the latencies of the outputs received since the last sample.

Latency of a note = output record timestamp (Kafka CreateTime, set by the worker when it publishes)
- the wall-clock time this driver handed the input to its producer (one host, one clock, ms). Outputs
are matched to inputs by key: the output key is ``HMAC(secret, "output", "json", note id)`` and this
driver writes the secret file itself.

Memory "flat" is judged on the least-squares slope of RSS against time over the samples after
``warmup_s`` (the tagger, allocator arenas and client buffers reach their working size in the first
batches).
"""

from __future__ import annotations

import asyncio
import json
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from aiokafka import AIOKafkaProducer

from deid_core.surrogate.keys import load_secret
from deid_tools.corpus import generate_notes
from deid_tools.drivers.canaries import expected_output_key
from deid_tools.drivers.stream import (
    Consumed,
    StreamSetup,
    TopicRecorder,
    Worker,
    create_input_topics,
    rss_mb,
)


@dataclass(frozen=True)
class SoakConfig:
    rate: float = 15.0
    duration_s: float = 600.0
    workers: int = 1
    sample_every_s: float = 5.0
    warmup_s: float = 60.0
    pool: int = 300
    seed: int = 3
    drain_timeout_s: float = 120.0


@dataclass(frozen=True)
class Sample:
    t_s: float
    produced: int
    delivered: int
    rss_mb: tuple[float, ...]
    latency_p50_ms: float
    latency_max_ms: float

    @property
    def lag(self) -> int:
        return self.produced - self.delivered

    @property
    def rss_total_mb(self) -> float:
        return sum(self.rss_mb)


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (nan for no values)."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = max(1, -(-int(q * len(ordered)) // 100))
    return ordered[min(rank, len(ordered)) - 1]


def slope_per_min(points: Sequence[tuple[float, float]]) -> float:
    """Least-squares slope of (seconds, value) points, in value units per minute (0 for < 2 points)."""
    if len(points) < 2:
        return 0.0
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        return 0.0
    return 60.0 * sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx


@dataclass
class SoakReport:
    config: SoakConfig
    samples: list[Sample] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)
    warm_latencies_ms: list[float] = field(default_factory=list)
    """Latencies of the notes sent after ``warmup_s`` (the first batches also load the tagger)."""
    produced: int = 0
    delivered: int = 0
    dead_letters: int = 0
    drain_s: float = float("nan")
    """Seconds from the last send until every note had its output (nan: not within the drain timeout)."""

    def _post_warmup(self) -> list[Sample]:
        return [s for s in self.samples if s.t_s >= self.config.warmup_s and len(s.rss_mb) == self.config.workers]

    @property
    def rss_start_mb(self) -> float:
        return self.samples[0].rss_total_mb if self.samples else float("nan")

    @property
    def rss_warm_mb(self) -> float:
        post = self._post_warmup()
        return post[0].rss_total_mb if post else float("nan")

    @property
    def rss_end_mb(self) -> float:
        return self.samples[-1].rss_total_mb if self.samples else float("nan")

    @property
    def rss_slope_mb_per_min(self) -> float:
        return slope_per_min([(s.t_s, s.rss_total_mb) for s in self._post_warmup()])

    @property
    def rss_creep_mb_per_min(self) -> float:
        """RSS growth after warm-up without its largest single rise, per minute.

        A leak grows RSS sample after sample; an allocator or buffer that settles at a larger working size
        does it in one step (seen in CI: +8.8 MB once, then flat for 70 s), which would dominate a
        least-squares slope over a short window. Dropping the largest rise keeps steady growth visible
        and ignores one such step.
        """
        post = self._post_warmup()
        if len(post) < 2 or post[-1].t_s <= post[0].t_s:
            return 0.0
        rises = [max(0.0, b.rss_total_mb - a.rss_total_mb) for a, b in zip(post, post[1:], strict=False)]
        growth = post[-1].rss_total_mb - post[0].rss_total_mb - max(rises)
        return max(0.0, growth) / ((post[-1].t_s - post[0].t_s) / 60)

    @property
    def lag_max(self) -> int:
        return max((s.lag for s in self.samples), default=0)

    @property
    def warm_lag_max(self) -> int:
        """The largest lag after warm-up (the first batches wait for the tagger to load)."""
        return max((s.lag for s in self._post_warmup()), default=0)

    @property
    def lag_end(self) -> int:
        return self.produced - self.delivered

    @property
    def lag_slope_per_min(self) -> float:
        """Lag trend while producing, after warm-up: > 0 means the workers fall behind the rate."""
        producing = [s for s in self._post_warmup() if s.t_s <= self.config.duration_s]
        return slope_per_min([(s.t_s, float(s.lag)) for s in producing])

    def table(self) -> list[str]:
        head = f"{'t s':>6} {'sent':>6} {'out':>6} {'lag':>5} {'RSS MB':>8} {'p50 ms':>7} {'max ms':>7}"
        rows = [head, "-" * len(head)]
        for s in self.samples:
            rows.append(
                f"{s.t_s:>6.0f} {s.produced:>6} {s.delivered:>6} {s.lag:>5} {s.rss_total_mb:>8.1f} "
                f"{s.latency_p50_ms:>7.0f} {s.latency_max_ms:>7.0f}"
            )
        return rows

    def summary(self) -> dict[str, float | int]:
        return {
            "rate": self.config.rate, "duration_s": self.config.duration_s, "workers": self.config.workers,
            "produced": self.produced, "delivered": self.delivered, "dead_letters": self.dead_letters,
            "rss_start_mb": round(self.rss_start_mb, 1), "rss_warm_mb": round(self.rss_warm_mb, 1),
            "rss_end_mb": round(self.rss_end_mb, 1), "rss_slope_mb_per_min": round(self.rss_slope_mb_per_min, 3),
            "rss_creep_mb_per_min": round(self.rss_creep_mb_per_min, 3),
            "lag_max": self.lag_max, "warm_lag_max": self.warm_lag_max, "lag_end": self.lag_end,
            "lag_slope_per_min": round(self.lag_slope_per_min, 2), "drain_s": round(self.drain_s, 1),
            "latency_p50_ms": percentile(self.latencies_ms, 50), "latency_p95_ms": percentile(self.latencies_ms, 95),
            "latency_p99_ms": percentile(self.latencies_ms, 99),
            "warm_latency_p50_ms": percentile(self.warm_latencies_ms, 50),
            "warm_latency_p95_ms": percentile(self.warm_latencies_ms, 95),
            "warm_latency_p99_ms": percentile(self.warm_latencies_ms, 99),
        }

    def summary_lines(self) -> list[str]:
        s = self.summary()
        return [
            f"rate {s['rate']:g} notes/s for {s['duration_s']:g} s, {s['workers']} worker(s): produced {s['produced']}, "
            f"delivered {s['delivered']}, dead letters {s['dead_letters']}",
            f"RSS MB: start {s['rss_start_mb']}, after warm-up {s['rss_warm_mb']}, end {s['rss_end_mb']}; "
            f"slope after warm-up {s['rss_slope_mb_per_min']} MB/min, creep without the largest step "
            f"{s['rss_creep_mb_per_min']} MB/min",
            f"lag: max {s['lag_max']} (after warm-up {s['warm_lag_max']}), end {s['lag_end']}, trend while producing {s['lag_slope_per_min']} notes/min; "
            f"drained {s['drain_s']} s after the last send",
            f"latency ms: p50 {s['latency_p50_ms']:.0f}, p95 {s['latency_p95_ms']:.0f}, p99 {s['latency_p99_ms']:.0f}; "
            f"after warm-up p50 {s['warm_latency_p50_ms']:.0f}, p95 {s['warm_latency_p95_ms']:.0f}, "
            f"p99 {s['warm_latency_p99_ms']:.0f}",
        ]


def _pool(n: int, seed: int) -> list[tuple[bytes, dict[str, object]]]:
    """(key, envelope without id) for ``n`` held-out notes."""
    out = []
    for g in generate_notes("test", n, seed=seed):
        doc: dict[str, object] = {"text": g.text, "patient": g.patient.model_dump(mode="json")}
        out.append((g.patient.patient_id.encode(), doc))
    return out


async def run_soak(
    setup: StreamSetup, log_dir: Path, config: SoakConfig, on_sample: Callable[[Sample], None] | None = None
) -> SoakReport:
    """Run the soak; ``setup.secret_file`` must be set (outputs are matched by their HMAC key)."""
    if setup.secret_file is None:
        raise ValueError("run_soak needs setup.secret_file: outputs are matched by their HMAC key")
    key = load_secret(setup.secret_file)
    pool = _pool(config.pool, config.seed)
    report = SoakReport(config)
    sent_at: dict[bytes, int] = {}  # expected output key -> send time (ms since the epoch)
    delivered: set[bytes] = set()
    window: list[float] = []
    notes_out, dead_letter = setup.topic("notes_out"), setup.topic("dead_letter")

    def on_record(r: Consumed) -> None:
        if r.topic == dead_letter:
            report.dead_letters += 1
        elif r.key in sent_at and r.key not in delivered:  # a redelivery keeps the first latency
            delivered.add(r.key)
            latency = float(r.timestamp_ms - sent_at[r.key])
            report.latencies_ms.append(latency)
            if sent_at[r.key] - start_ms >= config.warmup_s * 1000:
                report.warm_latencies_ms.append(latency)
            window.append(latency)

    await create_input_topics(setup)
    recorder = TopicRecorder(setup.bootstrap, [notes_out, dead_letter], keep=False, on_record=on_record)
    workers = [Worker(setup, log_dir) for _ in range(config.workers)]
    producer = AIOKafkaProducer(bootstrap_servers=setup.bootstrap, acks="all", linger_ms=5)
    started = 0.0
    start_ms = 0

    def sample() -> None:
        rss = tuple(r for r in (rss_mb(w.proc.pid) for w in workers) if r is not None)
        s = Sample(
            time.monotonic() - started, report.produced, len(delivered), rss,
            percentile(window, 50), max(window, default=float("nan")),
        )
        window.clear()
        report.samples.append(s)
        if on_sample is not None:
            on_sample(s)

    async def sampler() -> None:
        while True:
            await asyncio.sleep(config.sample_every_s)
            for w in workers:
                if w.proc.poll() is not None:
                    raise RuntimeError(f"a worker exited ({w.proc.returncode}); see {w.log_path}")
            sample()

    sampling: asyncio.Task[None] | None = None
    try:
        await recorder.start()
        await asyncio.gather(*(asyncio.to_thread(w.wait_ready, 120) for w in workers))
        await producer.start()
        topic = setup.topic("notes_in")
        started = time.monotonic()
        start_ms = int(time.time() * 1000)
        sample()
        sampling = asyncio.create_task(sampler())
        total = int(config.rate * config.duration_s)
        pending: list[asyncio.Future[object]] = []
        for i in range(total):
            await asyncio.sleep(max(0.0, started + i / config.rate - time.monotonic()))
            if sampling.done():
                sampling.result()
            part_key, doc = pool[i % len(pool)]
            note_id = f"soak-{config.seed}-{i}"
            # The send time is taken before the send: an output can never precede it.
            sent_at[expected_output_key(key, "json", note_id)] = int(time.time() * 1000)
            fut = await producer.send(topic, json.dumps({"id": note_id, **doc}).encode(), key=part_key)
            pending.append(fut)
            report.produced += 1
            if len(pending) >= 256:
                await asyncio.gather(*pending)
                pending.clear()
        await asyncio.gather(*pending)
        last_send = time.monotonic()
        if await recorder.wait_until(lambda: len(delivered) >= total, config.drain_timeout_s):
            report.drain_s = time.monotonic() - last_send
        sample()
    finally:
        if sampling is not None:
            sampling.cancel()
            await asyncio.gather(sampling, return_exceptions=True)
        await producer.stop()
        await asyncio.gather(*(asyncio.to_thread(w.stop) for w in workers))
        await recorder.stop()
    report.delivered = len(delivered)
    return report
