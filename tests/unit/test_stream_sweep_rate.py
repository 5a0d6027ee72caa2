"""bench/stream_sweep.py's capacity estimate: a small burst in a few chunks must not read as a huge rate.

The quick sweep sized its latency phases from a 12-note burst whose outputs came in three chunks; the
least-squares slope inside those chunks read as ~600 notes/s, the next phase sent 1,801 notes at
80 % of that, and they could not drain in the phase's time limit.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def sweep():  # noqa: ANN201 - a script loaded as a module
    spec = importlib.util.spec_from_file_location("stream_sweep_under_test", ROOT / "bench" / "stream_sweep.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _phase(sweep, sent: list[float], out: list[float]):  # noqa: ANN001, ANN202
    phase = sweep.Phase()
    phase.sent_at = {f"k{i}".encode(): t for i, t in enumerate(sent)}
    phase.consumed_at = {f"k{i}".encode(): t for i, t in enumerate(out)}
    return phase


def test_a_small_chunky_burst_gives_the_overall_rate(sweep) -> None:  # noqa: ANN001
    # 12 notes sent at t=0, out in three chunks a second apart, each chunk spread over a few ms.
    out = [1.0 + i * 0.003 for i in range(4)] + [2.0 + i * 0.003 for i in range(4)] + [3.0 + i * 0.003 for i in range(4)]
    steady, overall = sweep.sustained_rate(_phase(sweep, [0.0] * 12, out))
    assert steady == overall
    assert overall == pytest.approx(12 / out[-1])


def test_a_long_burst_gives_the_slope(sweep) -> None:  # noqa: ANN001
    # 400 notes at t=0, out 8 per chunk every 0.4 s after a 2 s fill: 20 notes/s steady.
    out = [2.0 + (i // 8) * 0.4 + (i % 8) * 0.001 for i in range(400)]
    steady, overall = sweep.sustained_rate(_phase(sweep, [0.0] * 400, out))
    assert steady == pytest.approx(20.0, rel=0.05)
    assert overall < steady
