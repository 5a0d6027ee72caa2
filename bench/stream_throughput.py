"""End-to-end streaming throughput and latency: real `deid worker` processes against the tansu broker.

Prints figures; asserts nothing. Usage (after ./dev.sh setup):

    .venv/bin/python bench/stream_throughput.py [--notes 400] [--workers 1 2] [--triton]
        [--store memory|redis] [--batch-max 32] [--batch-wait-ms 100] [--partitions N] [--rate 0]

Services (broker; Redis with --store redis; tritonserver with --triton) are started through
scripts/services.sh in .run/bench-stream and stopped at the end, also on errors and Ctrl-C.

For each worker count: fresh topics (pre-created with --partitions partitions), that many workers, a fresh
HMAC secret (so a Redis store never serves mappings from an earlier run), a warm-up of one note per
partition (the processor and the tagger load lazily on a worker's first batch), then N held-out notes
(``generate_notes("test", N)``) as JSON envelopes keyed by patient id, sent as fast as possible (or
paced with --rate notes/s).

How outputs are matched to inputs: the output key is ``HMAC(secret, "output", "json", note id)``. The
benchmark writes the secret file itself, so it computes each note's expected output key and matches
the records of the notes-out topic by key; no marker is added to the notes and nothing in the payload
is parsed. A note that goes to the dead-letter topic is matched by its input's topic/partition/offset
(the dead-letter key) and counted separately. An output key that matches nothing aborts the run, as it
means the key scheme changed.

Latency of a note = the output record's timestamp - the input record's timestamp (both Kafka
CreateTime, set by the producing client: the input by this script at send, the output by the worker
when it publishes; one host, one clock; millisecond resolution). It includes queueing: with the default
burst send, later notes wait behind earlier ones, so p95/p99 approach the wall time. Wall time = last
output timestamp - first input timestamp; sustained rates are notes (chars) over that wall time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import shutil
import signal
import sys
import time
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer
from aiokafka.admin import AIOKafkaAdminClient, NewTopic

from deid_core.surrogate.keys import HmacKey, load_secret, mapping_key
from deid_tools.corpus import generate_notes
from deid_tools.drivers.stream import StreamSetup, Worker, metric_sum, services_sh

ROOT = Path(__file__).resolve().parents[1]
RUN_DIR = ROOT / ".run" / "bench-stream"
OUTPUT_TIMEOUT_S = 600.0
WARMUP_TIMEOUT_S = 300.0


@dataclass
class BenchSetup(StreamSetup):
    """A StreamSetup with the benchmark's partitions, batching and data directory."""

    partitions: int = 4
    batch_max: int = 32
    batch_wait_ms: int = 100
    data_dir: Path = RUN_DIR

    def env(self, web_port: int) -> dict[str, str]:
        return {
            **super().env(web_port),
            "DEID_TOPIC_PARTITIONS": str(self.partitions),
            "DEID_BATCH_MAX": str(self.batch_max),
            "DEID_BATCH_WAIT_MS": str(self.batch_wait_ms),
            # faust's data directory defaults to <app id>-data in the working directory (the repo root).
            "APP_DATADIR": str(self.data_dir / f"{self.prefix}-data"),
        }


@dataclass(frozen=True)
class Note:
    id: str
    value: bytes
    key: bytes
    chars: int


@dataclass
class RunResult:
    workers: int
    notes: int
    chars: int
    delivered: int
    dead_letters: int
    wall_s: float
    latencies_ms: list[float]
    per_worker_notes: list[int]
    mean_batch: float


@dataclass
class Collector:
    """Matches output and dead-letter records to the notes sent; set ``done`` once all expected arrived."""

    by_output_key: dict[bytes, str]
    out_ts: dict[str, int] = field(default_factory=dict)
    by_source: dict[bytes, str] = field(default_factory=dict)
    dead: set[str] = field(default_factory=set)
    expected: set[str] = field(default_factory=set)
    done: asyncio.Event = field(default_factory=asyncio.Event)
    error: str | None = None

    def expect(self, ids: Sequence[str]) -> None:
        self.expected = set(ids)
        self.done.clear()
        self._check()

    def _check(self) -> None:
        if self.expected <= (self.out_ts.keys() | self.dead):
            self.done.set()

    def on_output(self, key: bytes, timestamp_ms: int) -> None:
        note_id = self.by_output_key.get(key)
        if note_id is None:
            self.error = "an output key matches no note sent: the output key scheme changed"
            self.done.set()
            return
        self.out_ts.setdefault(note_id, timestamp_ms)  # a redelivery after a rebalance keeps the first
        self._check()

    def on_dead_letter(self, key: bytes) -> None:
        note_id = self.by_source.get(key)
        if note_id is not None:
            self.dead.add(note_id)
            self._check()


def expected_output_key(key: HmacKey, note_id: str) -> bytes:
    # Mirrors workers.processor.NoteProcessor.output_key for the JSON envelope format.
    return mapping_key(key, "output", "json", note_id).hex()[:32].encode()


def make_notes(n: int, seed: int) -> list[Note]:
    out = []
    for g in generate_notes("test", n, seed=seed):
        doc = {"id": g.id, "text": g.text, "patient": g.patient.model_dump(mode="json")}
        out.append(Note(g.id, json.dumps(doc).encode(), g.patient.patient_id.encode(), len(g.text)))
    return out


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = max(1, int(-(-q * len(ordered) // 100)))
    return ordered[min(rank, len(ordered)) - 1]


def services(cmd: str, *names: str) -> dict[str, str]:
    return services_sh(RUN_DIR, cmd, *names)


async def create_topics(setup: BenchSetup) -> None:
    # The broker auto-creates a topic faust only reads with its own default partition count; create
    # the input topics first so that every topic has --partitions partitions.
    admin = AIOKafkaAdminClient(bootstrap_servers=setup.bootstrap)
    await admin.start()
    try:
        await admin.create_topics([
            NewTopic(setup.topic(n), num_partitions=setup.partitions, replication_factor=1)
            for n in ("notes_in", "demographics")
        ])
    finally:
        await admin.close()


async def consume_into(collector: Collector, setup: BenchSetup) -> None:
    consumer = AIOKafkaConsumer(
        setup.topic("notes_out"), setup.topic("dead_letter"),
        bootstrap_servers=setup.bootstrap, auto_offset_reset="earliest", group_id=None,
        # The output topics appear only with the first output: refresh metadata often to see them.
        metadata_max_age_ms=1000, fetch_max_wait_ms=100,
    )
    await consumer.start()
    try:
        async for m in consumer:
            if m.topic == setup.topic("notes_out"):
                collector.on_output(m.key or b"", m.timestamp)
            else:
                collector.on_dead_letter(m.key or b"")
    finally:
        await consumer.stop()


async def send(producer: AIOKafkaProducer, topic: str, notes: Sequence[Note], collector: Collector,
               rate: float = 0.0, partition_of: dict[str, int] | None = None) -> dict[str, int]:
    """Send ``notes``; returns note id -> input record timestamp (ms)."""
    futures = []
    started = time.monotonic()
    for i, note in enumerate(notes):
        if rate > 0:
            await asyncio.sleep(max(0.0, started + i / rate - time.monotonic()))
        partition = partition_of.get(note.id) if partition_of else None
        futures.append(await producer.send(topic, note.value, key=note.key, partition=partition))
    sent: dict[str, int] = {}
    for note, fut in zip(notes, futures, strict=True):
        md = await fut
        collector.by_source[f"{topic}/{md.partition}/{md.offset}".encode()] = note.id
        sent[note.id] = md.timestamp
    return sent


async def run_once(
    setup: BenchSetup, n_workers: int, notes: list[Note], warmup: list[Note], rate: float
) -> RunResult:
    await create_topics(setup)
    workers: list[Worker] = []
    consumer_task: asyncio.Task[None] | None = None
    producer = AIOKafkaProducer(bootstrap_servers=setup.bootstrap, acks="all", linger_ms=5)
    try:
        for _ in range(n_workers):
            workers.append(Worker(setup, RUN_DIR))
        for w in workers:
            await asyncio.to_thread(w.wait_ready)
        for w in workers:  # the last join rebalanced the earlier workers: wait until all are settled
            await asyncio.to_thread(w.wait_ready)

        key = load_secret(setup.secret_file)
        collector = Collector({expected_output_key(key, n.id): n.id for n in [*warmup, *notes]})
        consumer_task = asyncio.create_task(consume_into(collector, setup))
        await producer.start()
        topic = setup.topic("notes_in")

        collector.expect([n.id for n in warmup])
        await send(producer, topic, warmup, collector, partition_of={n.id: i for i, n in enumerate(warmup)})
        async with asyncio.timeout(WARMUP_TIMEOUT_S):
            await collector.done.wait()
        if collector.error:
            raise RuntimeError(collector.error)
        before = [w.metrics() for w in workers]

        collector.expect([n.id for n in notes])
        sent = await send(producer, topic, notes, collector, rate=rate)
        try:
            async with asyncio.timeout(OUTPUT_TIMEOUT_S):
                await collector.done.wait()
        except TimeoutError:
            print(f"  timed out after {OUTPUT_TIMEOUT_S:.0f}s; reporting what arrived", file=sys.stderr)
        if collector.error:
            raise RuntimeError(collector.error)
        after = [w.metrics() for w in workers]
    finally:
        if consumer_task is not None:
            consumer_task.cancel()
            await asyncio.gather(consumer_task, return_exceptions=True)
        await producer.stop()
        for w in workers:
            w.stop()

    delivered = [i for i in sent if i in collector.out_ts]
    latencies = [float(collector.out_ts[i] - sent[i]) for i in delivered]
    last = max((collector.out_ts[i] for i in delivered), default=min(sent.values()))
    batches = sum(metric_sum(a, "deid_batch_size_count") - metric_sum(b, "deid_batch_size_count")
                  for a, b in zip(after, before, strict=True))
    events = sum(metric_sum(a, "deid_batch_size_sum") - metric_sum(b, "deid_batch_size_sum")
                 for a, b in zip(after, before, strict=True))
    return RunResult(
        workers=n_workers,
        notes=len(notes),
        chars=sum(n.chars for n in notes if n.id in collector.out_ts),
        delivered=len(delivered),
        dead_letters=len(collector.dead & set(sent)),
        wall_s=(last - min(sent.values())) / 1000,
        latencies_ms=latencies,
        per_worker_notes=[
            int(metric_sum(a, "deid_notes_out_total") - metric_sum(b, "deid_notes_out_total"))
            for a, b in zip(after, before, strict=True)
        ],
        mean_batch=events / batches if batches else float("nan"),
    )


def print_table(results: Sequence[RunResult]) -> None:
    head = (f"{'workers':>7} {'notes':>6} {'out':>5} {'dead':>4} {'chars':>10} {'wall s':>7} {'notes/s':>8} "
            f"{'chars/s':>9} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} {'batch':>5}  per-worker notes")
    print(head)
    print("-" * len(head))
    for r in results:
        wall = r.wall_s or float("nan")
        print(
            f"{r.workers:>7} {r.notes:>6} {r.delivered:>5} {r.dead_letters:>4} {r.chars:>10,} "
            f"{r.wall_s:>7.1f} "
            f"{r.delivered / wall:>8.1f} {r.chars / wall:>9,.0f} {percentile(r.latencies_ms, 50):>7.0f} "
            f"{percentile(r.latencies_ms, 95):>7.0f} {percentile(r.latencies_ms, 99):>7.0f} "
            f"{r.mean_batch:>5.1f}  "
            f"{'/'.join(map(str, r.per_worker_notes))}"
        )


async def bench(
    args: argparse.Namespace, bootstrap: str, store: str, triton_url: str | None
) -> list[RunResult]:
    notes = make_notes(args.notes, args.seed)
    chars = sum(n.chars for n in notes)
    print(f"{len(notes)} held-out notes, {chars:,} chars (mean {chars / len(notes):,.0f}), "
          f"{len({n.key for n in notes})} patients")
    results = []
    for n_workers in args.workers:
        secret_file = RUN_DIR / f"secret-{n_workers}-{secrets.token_hex(4)}"
        secret_file.write_text(f"bench:{secrets.token_hex(24)}\n")
        setup = BenchSetup(
            bootstrap, store=store, triton_url=triton_url, secret_file=str(secret_file),
            partitions=args.partitions, batch_max=args.batch_max, batch_wait_ms=args.batch_wait_ms,
        )
        warmup = make_notes(setup.partitions, args.seed + 1)
        print(f"\n{n_workers} worker(s), topics {setup.prefix}.*: starting", flush=True)
        started = time.monotonic()
        result = await run_once(setup, n_workers, notes, warmup, args.rate)
        secret_file.unlink(missing_ok=True)
        print(f"  done in {time.monotonic() - started:.0f}s; worker logs in {RUN_DIR}", flush=True)
        results.append(result)
    return results


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=400)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--triton", action="store_true", help="start tritonserver and tag through it")
    parser.add_argument("--store", choices=("memory", "redis"), default="memory")
    parser.add_argument("--batch-max", type=int, default=32)
    parser.add_argument("--batch-wait-ms", type=int, default=100)
    parser.add_argument("--partitions", type=int, default=None, help="partitions (default max(4, workers))")
    parser.add_argument("--rate", type=float, default=0.0, help="send rate in notes/s; 0 = all at once")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    args.partitions = args.partitions or max(4, *args.workers)
    # SIGTERM takes the same clean-up path as Ctrl-C.
    signal.signal(signal.SIGTERM, _interrupt)

    RUN_DIR.mkdir(parents=True, exist_ok=True)
    for old in [*RUN_DIR.glob("worker-*.log"), *RUN_DIR.glob("secret-*")]:
        old.unlink()
    for old in RUN_DIR.glob("t*-data"):
        shutil.rmtree(old, ignore_errors=True)
    interrupted = False
    names = ["broker", *(["redis"] if args.store == "redis" else []), *(["triton"] if args.triton else [])]
    try:
        env = services("start", *names)
        store = env["DEID_TEST_REDIS_URL"] if args.store == "redis" else "memory"
        triton_url = env.get("DEID_TEST_TRITON_GRPC_URL") if args.triton else None
        cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        tagger = f"Triton at {triton_url} (gRPC)" if triton_url else "in-process tagger (each worker)"
        load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
        print(f"CPUs: {cpus} usable ({os.cpu_count()} online), load average {load} at start")
        print(f"tagger: {tagger}; store: {args.store}; partitions {args.partitions}, "
              f"batch max {args.batch_max}, batch wait {args.batch_wait_ms} ms, "
              f"send rate {'burst' if args.rate <= 0 else f'{args.rate:g} notes/s'}")
        results = asyncio.run(bench(args, env["DEID_TEST_KAFKA_BOOTSTRAP"], store, triton_url))
        print()
        print_table(results)
        if triton_url:
            # Evidence that the workers' tagging went through the server rather than a local model.
            metrics_url = f"http://{env['DEID_TEST_TRITON_METRICS_URL']}/metrics"
            with urllib.request.urlopen(metrics_url, timeout=5) as r:
                text = r.read().decode()
            print(f"Triton: {metric_sum(text, 'nv_inference_request_success'):.0f} successful requests, "
                  f"{metric_sum(text, 'nv_inference_exec_count'):.0f} executions "
                  "(all runs, warm-ups included)")
    except KeyboardInterrupt:
        print("\ninterrupted; stopping services", file=sys.stderr)
        interrupted = True
    finally:
        services("stop")
    if interrupted:
        sys.exit(130)


if __name__ == "__main__":
    main()
