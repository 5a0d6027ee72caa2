"""Worker readiness and liveness as facts, without faust."""

from __future__ import annotations

import asyncio

from workers.health import STORE, DependencyHealth
from workers.metrics import WorkerMetrics
from workers.probes import WorkerProbes
from workers.state import WorkerState


def _probes(rebalancing: bool = False) -> tuple[WorkerProbes, WorkerState, DependencyHealth, WorkerMetrics]:
    state, health, metrics = WorkerState(), DependencyHealth(), WorkerMetrics()
    return WorkerProbes(state, health, metrics, rebalancing=lambda: rebalancing), state, health, metrics


def test_ready_only_once_assigned_with_dependencies_up_and_nothing_paused() -> None:
    probes, state, health, metrics = _probes()
    assert probes.liveness() == {"status": "ok"}
    assert probes.readiness().status == 503  # not assigned yet
    state.mark_assigned()
    ready = probes.readiness()
    assert ready.status == 200 and ready.body() == {"ready": True, "down": [], "paused": False}
    assert metrics.registry.get_sample_value("deid_ready") == 1

    health.mark_down(STORE)
    state.pause()
    assert probes.readiness().body() == {"ready": False, "down": [STORE], "paused": True}
    assert metrics.registry.get_sample_value("deid_ready") == 0


def test_not_ready_while_rebalancing() -> None:
    probes, state, _, _ = _probes(rebalancing=True)
    state.mark_assigned()
    assert not probes.readiness().ready


class _CountingProbe:
    name = "tagger"

    def __init__(self) -> None:
        self.checks = 0
        self.closed = False

    async def check(self) -> bool:
        self.checks += 1
        return self.checks == 1  # up, then down

    async def close(self) -> None:
        self.closed = True


async def test_watch_probes_refreshes_readiness_and_closes_the_probes_when_stopped() -> None:
    probe = _CountingProbe()
    state, metrics = WorkerState(assigned=True), WorkerMetrics()
    probes = WorkerProbes(state, DependencyHealth([probe]), metrics, rebalancing=lambda: False)
    task = asyncio.create_task(probes.watch(0.01))
    while probe.checks < 2:
        await asyncio.sleep(0.01)
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    assert probe.closed and probes.readiness().down == ("tagger",)
    assert metrics.registry.get_sample_value("deid_ready") == 0
