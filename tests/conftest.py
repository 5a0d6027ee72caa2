"""Shared fixtures. Real services come from scripts/services.sh (the same script CI uses)."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """URL of a real Redis server: the one the test command started, or one started here for this session."""
    url = os.environ.get("DEID_TEST_REDIS_URL")
    if url:
        yield url
        return
    run_dir = ROOT / ".run" / f"pytest-{os.getpid()}"
    env = {**os.environ, "DEID_RUN_DIR": str(run_dir)}
    out = subprocess.run(
        [str(ROOT / "scripts" / "services.sh"), "start", "redis"], env=env, check=True, capture_output=True, text=True
    ).stdout
    values = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
    try:
        yield values["DEID_TEST_REDIS_URL"]
    finally:
        subprocess.run([str(ROOT / "scripts" / "services.sh"), "stop"], env=env, check=False)
