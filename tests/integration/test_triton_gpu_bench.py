"""bench/triton_gpu.py as a smoke test on the CPU: it starts its own tritonserver with the CPU config,
sends notes from two client processes, prints a throughput and asserts the spans equal the in-process
tagger's. Only that it runs and checks is tested; the figures are not."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.triton
ROOT = Path(__file__).resolve().parents[2]


def test_the_gpu_bench_runs_tiny_on_the_cpu() -> None:
    args = ["--config", "cpu", "--instances", "1", "--max-batch", "8", "--notes", "12", "--batch", "4",
            "--concurrency", "2", "--processes", "2", "--check", "6"]  # fmt: skip
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "triton_gpu.py"), *args],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    assert "chars/s" in proc.stdout
    assert "span check: 6 notes" in proc.stdout and "0 notes differ" in proc.stdout
