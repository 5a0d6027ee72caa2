"""Dependency outages with a real worker: Triton stopped for 30 s, Redis stopped, the broker frozen.

Each test starts private services (scripts/services.sh with a run directory of its own and fixed ports,
so a service comes back at the same address) and one `deid worker`. While a dependency is down the
worker must publish nothing for the notes that need it (fail closed), say so on /ready and /metrics,
retry with backoff rather than in a loop, and afterwards publish every note exactly as if nothing had
happened.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from deid_tools.drivers.stream import StreamSetup, Worker, consume, metric_sum, produce
from tests.integration.private_services import PrivateServices

pytestmark = [pytest.mark.slow, pytest.mark.broker]

# A dependency outage may cost a worker one attempt per backoff step (0.5, 1, 2, 4, 8, 10, 10, ... s):
# about 8 in 30 s plus the probe-driven retry on recovery. A busy loop would make hundreds.
MAX_RETRIES_PER_30S = 15


@pytest.fixture
def services(tmp_path: Path) -> Iterator[PrivateServices]:
    s = PrivateServices("outage", tmp_path)
    try:
        yield s
    finally:
        if (s.run_dir / "broker.pid").exists():
            os.kill(s.pid("broker"), signal.SIGCONT)
        s.stop()


def notes(prefix: str, n: int) -> tuple[list[bytes], list[bytes]]:
    values = [
        json.dumps({
            "id": f"{prefix}-{i}",
            "text": f"Seen on 03/0{1 + i % 9}/2021. Mr. Quillon Vantree (MRN 88{i:05d}) reports chest pain; call 617-555-01{i:02d}.",
            "patient": {"patient_id": f"{prefix}-p{i}", "names": ["Quillon Vantree"], "mrn": f"88{i:05d}"},
        }).encode()
        for i in range(n)
    ]
    return values, [f"{prefix}-{i}".encode() for i in range(n)]


def readiness(worker: Worker) -> tuple[int, dict[str, object]]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{worker.web_port}/ready", timeout=3) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def metric(worker: Worker, name: str) -> float:
    """A worker's metric; ``name`` may carry labels as written, e.g. 'deid_dependency_up{dependency="store"}'."""
    return metric_sum(worker.metrics(), name)


def wait_for(predicate, timeout_s: float, what: str) -> None:  # noqa: ANN001
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.5)
    raise AssertionError(f"timed out waiting for {what}")


async def outputs(setup: StreamSetup, n: int, timeout_s: float) -> dict[bytes, bytes]:
    got = await consume(setup.bootstrap, [setup.topic("notes_out")], n, timeout_s)
    return {key: value for _, key, value, _ in got}


def assert_outage_observed(worker: Worker, dependency: str, seconds: float, out_before: int) -> None:
    """Watch the worker for ``seconds`` of an outage: not ready, paused, dependency down, nothing published."""
    deadline = time.monotonic() + seconds
    log_size = worker.log_path.stat().st_size
    seen_down = False
    while time.monotonic() < deadline:
        status, body = readiness(worker)
        if status == 503 and dependency in body.get("down", []) and body.get("paused"):
            seen_down = True
        assert metric(worker, "deid_notes_out_total") == out_before, "a note was published while a dependency was down"
        time.sleep(2)
    assert seen_down, f"/ready never reported {dependency} down while paused"
    assert metric(worker, f'deid_dependency_up{{dependency="{dependency}"}}') == 0
    assert metric(worker, "deid_paused") == 1
    retries = metric(worker, "deid_batch_retries_total")
    assert 1 <= retries <= MAX_RETRIES_PER_30S * max(1.0, seconds / 30), f"{retries} retries: busy loop?"
    # Logging stays proportional to the retries, not to time spent spinning.
    assert worker.log_path.stat().st_size - log_size < 20_000


@pytest.mark.parametrize(
    ("service", "dependency", "seconds"),
    [("triton", "tagger", 30), ("redis", "store", 20)],
    ids=["triton-stopped-30s", "redis-stopped-20s"],
)
def test_dependency_stopped_then_restarted(
    services: PrivateServices, tmp_path: Path, service: str, dependency: str, seconds: float
) -> None:
    env = services.start("broker", service)
    setup = StreamSetup(bootstrap=env["DEID_TEST_KAFKA_BOOTSTRAP"])
    if service == "triton":
        setup.triton_url = env["DEID_TEST_TRITON_GRPC_URL"]
    else:
        setup.store = env["DEID_TEST_REDIS_URL"]
    worker = Worker(setup, tmp_path)
    try:
        worker.wait_ready()
        before, before_keys = notes("pre", 4)
        asyncio.run(produce(setup.bootstrap, setup.topic("notes_in"), before, before_keys))
        first_out = asyncio.run(outputs(setup, 4, 90))
        assert len(first_out) == 4

        services.stop(service)
        during, during_keys = notes("down", 6)
        asyncio.run(produce(setup.bootstrap, setup.topic("notes_in"), during, during_keys))
        assert_outage_observed(worker, dependency, seconds, out_before=4)

        services.start(service)
        out = asyncio.run(outputs(setup, 10, 120))
        assert set(first_out) <= set(out) and len(out) == 10  # output keys are per note, hence distinct
        for value in out.values():
            assert b"Vantree" not in value and b"Quillon" not in value
        wait_for(lambda: readiness(worker)[0] == 200, 30, "ready again")
        assert metric(worker, f'deid_dependency_up{{dependency="{dependency}"}}') == 1
        assert metric(worker, "deid_paused") == 0
        assert worker.proc.poll() is None
    finally:
        worker.stop()


def test_broker_frozen_then_resumed(services: PrivateServices, tmp_path: Path) -> None:
    env = services.start("broker")
    setup = StreamSetup(bootstrap=env["DEID_TEST_KAFKA_BOOTSTRAP"])
    worker = Worker(setup, tmp_path)
    try:
        worker.wait_ready()
        first, first_keys = notes("pre", 4)
        asyncio.run(produce(setup.bootstrap, setup.topic("notes_in"), first, first_keys))
        first_out = asyncio.run(outputs(setup, 4, 90))
        assert len(first_out) == 4

        broker = services.pid("broker")
        os.kill(broker, signal.SIGSTOP)
        try:
            log_size = worker.log_path.stat().st_size
            wait_for(lambda: readiness(worker) == (503, {"ready": False, "down": ["broker"], "paused": False}), 20,
                     "/ready to report the broker down")
            assert metric(worker, 'deid_dependency_up{dependency="broker"}') == 0
            time.sleep(20)
            assert worker.proc.poll() is None
            assert worker.log_path.stat().st_size - log_size < 20_000, "log flood while the broker was frozen"
        finally:
            os.kill(broker, signal.SIGCONT)

        wait_for(lambda: readiness(worker)[0] == 200, 60, "ready after the broker resumed")
        second, second_keys = notes("post", 5)
        asyncio.run(produce(setup.bootstrap, setup.topic("notes_in"), second, second_keys))
        out = asyncio.run(outputs(setup, 9, 90))
        assert set(first_out) <= set(out) and len(out) == 9
    finally:
        worker.stop()
