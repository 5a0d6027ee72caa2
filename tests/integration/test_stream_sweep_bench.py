"""bench/stream_sweep.py --quick as a smoke test: real workers on the broker, Redis and Triton, a tiny grid.

Only that it runs, delivers every note and reports the rows it should is tested; the figures are not.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.broker, pytest.mark.redis, pytest.mark.triton]
ROOT = Path(__file__).resolve().parents[2]


def test_the_stream_sweep_runs_quick(kafka_bootstrap: str, redis_url: str, triton_grpc_url: str, tmp_path: Path) -> None:
    out = tmp_path / "sweep.json"
    args = ["--quick", "--json", str(out), "--bootstrap", kafka_bootstrap, "--store", redis_url,
            "--triton-url", triton_grpc_url]  # fmt: skip
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "stream_sweep.py"), *args],
        cwd=ROOT, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "phase A, capacity" in proc.stdout and "phase B, end-to-end latency" in proc.stdout
    assert "recommended (1 worker" in proc.stdout

    report = json.loads(out.read_text())
    defaults = report["defaults"]
    rows = {(r["workers"], r["label"]): r for r in report["results"]}
    fetch = defaults["fetch_wait_ms"] or 1500  # unset: faust's own wait
    default_label = f"max={defaults['batch_max']} wait={defaults['batch_wait_ms']} fetch={fetch}"
    # --quick: the defaults and one other batch wait with 1 worker; the defaults (and the pick) with 2.
    assert (1, default_label) in rows and (2, default_label) in rows
    assert (1, f"max={defaults['batch_max']} wait=50 fetch={fetch}") in rows
    assert report["recommended"]["label"] in {label for workers, label in rows if workers == 1}
    for row in rows.values():
        capacity = row["capacity"]
        assert capacity["delivered"] == capacity["notes"] > 0 and capacity["dead_letters"] == 0
        assert capacity["sustained_per_s"] > 0
        assert [p["fraction"] for p in row["points"]] == [0.5, 0.8]
        for point in row["points"]:
            assert point["delivered"] == point["sent"] > 0 and point["dead_letters"] == 0
            assert 0 < point["p50_ms"] <= point["p95_ms"] <= point["p99_ms"] <= point["max_ms"]
    assert set(report["summary_recommended"]) == {"1", "2"}
    assert isinstance(report["p99_below_1s_at_80pct_1_worker"], bool)
