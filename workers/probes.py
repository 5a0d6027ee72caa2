"""Liveness and readiness of a worker, as facts the web pages (/health, /ready) only serialise.

Liveness says the process answers; readiness says it should get traffic: partitions assigned and no
rebalance under way, every dependency up (workers/health.py) and no batch paused (workers/state.py).
A worker that is alive but not ready is left to recover by itself rather than restarted.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from workers.metrics import WorkerMetrics
from workers.state import WorkerState


class DependencyView(Protocol):
    """The part of ``workers.health.DependencyHealth`` the probes use."""

    def all_up(self) -> bool: ...

    def down(self) -> list[str]: ...

    async def check_all(self) -> None: ...

    async def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class Readiness:
    ready: bool
    down: tuple[str, ...]
    paused: bool

    @property
    def status(self) -> int:
        return 200 if self.ready else 503

    def body(self) -> dict[str, object]:
        return {"ready": self.ready, "down": list(self.down), "paused": self.paused}


class WorkerProbes:
    def __init__(
        self, state: WorkerState, health: DependencyView, metrics: WorkerMetrics, rebalancing: Callable[[], bool]
    ) -> None:
        self._state = state
        self._health = health
        self._metrics = metrics
        self._rebalancing = rebalancing

    def liveness(self) -> dict[str, str]:
        return {"status": "ok"}

    def readiness(self) -> Readiness:
        """The current readiness; also refreshes the deid_ready gauge."""
        up = self._state.assigned and not self._rebalancing() and self._health.all_up() and not self._state.paused
        self._metrics.ready.set(1 if up else 0)
        return Readiness(up, tuple(self._health.down()), self._state.paused)

    async def watch(self, interval_s: float) -> None:
        """Probe the dependencies forever, then refresh deid_ready, which otherwise changes only when /ready
        is asked. Closes the probes' connections when cancelled."""
        try:
            while True:
                await self._health.check_all()
                self.readiness()
                await asyncio.sleep(interval_s)
        finally:
            await self._health.close()
