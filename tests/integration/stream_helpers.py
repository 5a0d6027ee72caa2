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
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer

from workers.demo import wait_until_ready

ROOT = Path(__file__).resolve().parents[2]


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
    def __init__(self, setup: StreamSetup, log_dir: Path) -> None:
        self.web_port = free_port()
        self.log_path = log_dir / f"worker-{self.web_port}.log"
        self._log = self.log_path.open("wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "workers.cli", "worker", "--loglevel", "info"],
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
