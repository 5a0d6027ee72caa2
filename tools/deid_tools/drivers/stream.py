"""Helpers for the streaming integration tests: run real `deid worker` processes against a real broker."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import urllib.request
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer

from workers.demo import wait_until_ready

# The checkout these drivers run from (tools/deid_tools/drivers/ -> repository root): they start
# scripts/services.sh and worker processes in it, so they need an editable install, not a wheel.
ROOT = Path(__file__).resolve().parents[3]


def services_sh(run_dir: Path, *args: str, env: dict[str, str] | None = None) -> dict[str, str]:
    """Run scripts/services.sh with its state in ``run_dir``; the KEY=VALUE lines it prints, as a dict."""
    full_env = {**os.environ, "DEID_RUN_DIR": str(run_dir), **(env or {})}
    proc = subprocess.run(
        [str(ROOT / "scripts" / "services.sh"), *args], env=full_env, capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        raise RuntimeError(f"scripts/services.sh {' '.join(args)} failed:\n{proc.stderr[-2000:]}")
    return dict(line.split("=", 1) for line in proc.stdout.splitlines() if "=" in line)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class StreamSetup:
    bootstrap: str
    store: str = "memory"
    triton_url: str | None = None
    prefix: str = field(default_factory=lambda: f"t{uuid.uuid4().hex[:8]}")
    secret_file: str | None = None
    lake_path: str | None = None

    def topic(self, name: str) -> str:
        return f"{self.prefix}.{name}"

    def env(self, web_port: int) -> dict[str, str]:
        env = {
            **os.environ,
            "DEID_APP_ID": f"{self.prefix}-app",
            "DEID_KAFKA_BOOTSTRAP": self.bootstrap,
            "DEID_STORE": self.store,
            "DEID_WEB_PORT": str(web_port),
            "DEID_TOPIC_PARTITIONS": "2",
            "DEID_BATCH_WAIT_MS": "100",
            "DEID_DATA_DIR": str(ROOT / ".run" / "faust-data" / self.prefix),
            **{f"DEID_TOPIC_{n.upper()}": self.topic(n) for n in ("notes_in", "demographics", "notes_out", "json_out", "dead_letter", "audit")},
        }
        if self.triton_url:
            env["DEID_TRITON_URL"] = self.triton_url
        if self.secret_file:
            env["DEID_SECRET_FILE"] = self.secret_file
        if self.lake_path:
            env["DEID_LAKE_PATH"] = self.lake_path
        return env


class Worker:
    def __init__(self, setup: StreamSetup, log_dir: Path, loglevel: str = "info") -> None:
        self.web_port = free_port()
        self.log_path = log_dir / f"worker-{self.web_port}.log"
        self._log = self.log_path.open("wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "workers.cli", "worker", "--loglevel", loglevel],
            env=setup.env(self.web_port), stdout=self._log, stderr=subprocess.STDOUT, cwd=ROOT,
        )

    def wait_ready(self, timeout_s: float = 90) -> None:
        wait_until_ready(self.proc, self.web_port, self.log_path, timeout_s)

    def metrics(self) -> str:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.web_port}/metrics", timeout=2) as r:
            return r.read().decode()

    def stop(self, sig: int = signal.SIGTERM, timeout_s: float = 30) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout_s)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self._log.close()


async def produce(bootstrap: str, topic: str, values: Sequence[bytes], keys: Sequence[bytes] | None = None) -> None:
    producer = AIOKafkaProducer(bootstrap_servers=bootstrap)
    await producer.start()
    try:
        for i, value in enumerate(values):
            await producer.send_and_wait(topic, value, key=keys[i] if keys else None)
    finally:
        await producer.stop()


async def consume(bootstrap: str, topics: Sequence[str], n: int, timeout_s: float = 90) -> list[tuple[str, bytes, bytes, dict[str, bytes]]]:
    """The first ``n`` records of ``topics`` from the beginning (or fewer when the timeout passes)."""
    # Short metadata age: an output topic may not exist yet when this subscribes.
    consumer = AIOKafkaConsumer(
        *topics, bootstrap_servers=bootstrap, auto_offset_reset="earliest", group_id=None, metadata_max_age_ms=1000
    )
    await consumer.start()
    got: list[tuple[str, bytes, bytes, dict[str, bytes]]] = []
    try:
        async with asyncio.timeout(timeout_s):
            async for m in consumer:
                got.append((m.topic, m.key or b"", m.value or b"", dict(m.headers or ())))
                if len(got) >= n:
                    break
    except TimeoutError:
        pass
    finally:
        await consumer.stop()
    return got


# --------------------------------------------------------------------------- crash and soak helpers


def metric_sum(text: str, name: str) -> float:
    """Sum of a Prometheus sample over all its label sets (0 when absent)."""
    total = 0.0
    for line in text.splitlines():
        if line.startswith(name) and line[len(name) : len(name) + 1] in (" ", "{"):
            total += float(line.rsplit(" ", 1)[1])
    return total


def in_flight(metrics_text: str) -> int:
    """Events a worker took into a batch that is not finished yet (>0: the worker is mid-batch).

    ``deid_events_in_total`` grows when a batch starts, the message, dead-letter and demographics
    counters when it has been published.
    """
    done = sum(
        metric_sum(metrics_text, n)
        for n in ("deid_messages_out_total", "deid_dead_letters_total", "deid_demographics_events_total")
    )
    return int(metric_sum(metrics_text, "deid_events_in_total") - done)


def rss_mb(pid: int) -> float | None:
    """Resident set size of a process in MiB from /proc (None once it has exited)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


async def create_input_topics(setup: StreamSetup, partitions: int = 2) -> None:
    """Create the input topics before producing: the broker would auto-create them with its own default."""
    from aiokafka.admin import AIOKafkaAdminClient, NewTopic

    admin = AIOKafkaAdminClient(bootstrap_servers=setup.bootstrap)
    await admin.start()
    try:
        existing = set(await admin.list_topics())
        new = [
            NewTopic(setup.topic(n), num_partitions=partitions, replication_factor=1)
            for n in ("notes_in", "demographics")
            if setup.topic(n) not in existing
        ]
        if new:
            await admin.create_topics(new)
    finally:
        await admin.close()


@dataclass(frozen=True, slots=True)
class Consumed:
    topic: str
    partition: int
    offset: int
    key: bytes
    value: bytes
    headers: tuple[tuple[str, bytes], ...]
    timestamp_ms: int


class TopicRecorder:
    """Reads topics from their beginning in the background and keeps (or hands on) every record.

    Waits are on record counts, never on end offsets: tansu's ListOffsets is wrong for multi-record
    batches. ``keep=False`` with ``on_record`` suits long runs where only figures are needed.
    """

    def __init__(
        self, bootstrap: str, topics: Sequence[str], keep: bool = True,
        on_record: Callable[[Consumed], None] | None = None,
    ) -> None:
        self.records: list[Consumed] = []
        self.count = 0
        self.last_record_at = 0.0
        self._keep = keep
        self._on_record = on_record
        self._changed = asyncio.Event()
        # Short metadata age: output topics appear only with the first output.
        self._consumer = AIOKafkaConsumer(
            *topics, bootstrap_servers=bootstrap, auto_offset_reset="earliest", group_id=None,
            metadata_max_age_ms=1000, fetch_max_wait_ms=100,
        )
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        await self._consumer.start()
        self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        async for m in self._consumer:
            record = Consumed(
                m.topic, m.partition, m.offset, m.key or b"", m.value or b"", tuple(m.headers or ()), m.timestamp
            )
            self.count += 1
            self.last_record_at = loop.time()
            if self._keep:
                self.records.append(record)
            if self._on_record is not None:
                self._on_record(record)
            self._changed.set()

    def by_topic(self, topic: str) -> list[Consumed]:
        return [r for r in self.records if r.topic == topic]

    async def wait_until(self, predicate: Callable[[], bool], timeout_s: float) -> bool:
        """True once ``predicate()`` holds (re-checked on every record), False when the timeout passes."""
        try:
            async with asyncio.timeout(timeout_s):
                while not predicate():
                    if self._task is not None and self._task.done():
                        self._task.result()  # a crashed consumer: raise its error rather than time out
                    self._changed.clear()
                    try:
                        await asyncio.wait_for(self._changed.wait(), 1.0)
                    except TimeoutError:
                        pass
        except TimeoutError:
            return False
        return True

    async def settle(self, idle_s: float = 3.0, timeout_s: float = 60.0) -> None:
        """Wait until no record has arrived for ``idle_s`` (late duplicates included)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout_s
        start = loop.time()
        while loop.time() < deadline and loop.time() - max(self.last_record_at, start) < idle_s:
            await asyncio.sleep(0.2)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        await self._consumer.stop()
