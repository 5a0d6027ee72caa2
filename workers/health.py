"""Dependency health: probes for the broker, the tagger and the mapping store, checked in the background.

Why probes and not only batch failures: a batch fails only when there is work, and a worker whose broker
is unreachable gets no work at all, so readiness and the ``deid_dependency_up`` gauges come from periodic
probes, while a failed batch marks its dependency down at once. A paused batch waits for the next probe
that sees the dependency back (or its backoff delay), so an outage costs a handful of retries, not a loop.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

log = logging.getLogger(__name__)

BROKER = "broker"
TAGGER = "tagger"
STORE = "store"
LAKE = "lake"


class DependencyProbe(Protocol):
    @property
    def name(self) -> str: ...

    async def check(self) -> bool:
        """True when the dependency answers; may raise (counted as down)."""
        ...

    async def close(self) -> None: ...


@dataclass(frozen=True)
class CallableProbe:
    """A probe from a zero-argument coroutine function: ``True``/``None`` = up, ``False``/raise = down."""

    name: str
    call: Callable[[], Awaitable[Any]]

    async def check(self) -> bool:
        result = await self.call()
        return result is None or bool(result)

    async def close(self) -> None:
        return None


class KafkaBrokerProbe:
    """Asks the cluster for its metadata over a client of its own (the worker's clients are faust's)."""

    name = BROKER

    def __init__(self, bootstrap: str, client_options: dict[str, Any] | None = None) -> None:
        self._bootstrap = bootstrap
        self._options = client_options or {}
        self._client: Any = None

    async def check(self) -> bool:
        from aiokafka.client import AIOKafkaClient

        if self._client is None:
            client = AIOKafkaClient(bootstrap_servers=self._bootstrap, **self._options)
            try:
                await client.bootstrap()
            except BaseException:
                await client.close()
                raise
            self._client = client
            return True
        try:
            await self._client.fetch_all_metadata()
        except BaseException:
            # A half-open connection to a frozen broker can stay broken (this also runs when the
            # caller's timeout cancels the request): start clean next time.
            await self.close()
            raise
        return True

    async def close(self) -> None:
        if self._client is not None:
            await self._client.close()
            self._client = None


class DependencyHealth:
    """The up/down state of each dependency, from probes and from batch failures.

    ``on_change(name, up)`` is called on every transition (metrics, logs).
    """

    def __init__(
        self,
        probes: Sequence[DependencyProbe] = (),
        *,
        timeout_s: float = 2.0,
        on_change: Callable[[str, bool], None] | None = None,
    ) -> None:
        self._probes = list(probes)
        self._timeout_s = timeout_s
        self._on_change = on_change
        self._up: dict[str, bool] = {}
        self._since: dict[str, float] = {}
        self._changed = asyncio.Event()
        for probe in self._probes:
            self._set(probe.name, True)

    def is_up(self, name: str) -> bool:
        return self._up.get(name, True)

    def all_up(self) -> bool:
        return all(self._up.values())

    def down(self) -> list[str]:
        return sorted(name for name, up in self._up.items() if not up)

    def mark_down(self, name: str) -> None:
        self._set(name, False)

    def mark_up(self, name: str) -> None:
        """A batch that went through proves what it used is up, probed or not."""
        if name in self._up:
            self._set(name, True)

    def _set(self, name: str, up: bool) -> None:
        if self._up.get(name) == up:
            return
        previous = self._up.get(name)
        self._up[name] = up
        now = time.monotonic()
        if previous is not None:
            took = now - self._since.get(name, now)
            if up:
                log.warning("dependency %s is back after %.1fs", name, took)
            else:
                log.warning("dependency %s is down", name)
        self._since[name] = now
        if self._on_change is not None:
            self._on_change(name, up)
        self._changed.set()
        self._changed = asyncio.Event()

    async def _check(self, probe: DependencyProbe) -> bool:
        try:
            async with asyncio.timeout(self._timeout_s):
                return await probe.check()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - any failure of a probe means "down"
            log.debug("probe %s failed: %s", probe.name, type(exc).__name__)
            return False

    async def check_all(self) -> None:
        results = await asyncio.gather(*(self._check(p) for p in self._probes))
        for probe, up in zip(self._probes, results, strict=True):
            self._set(probe.name, up)

    async def close(self) -> None:
        for probe in self._probes:
            await probe.close()

    async def wait_for_recovery(self, name: str, timeout_s: float) -> None:
        """Return once ``name`` is seen up again, or after ``timeout_s``, whichever comes first."""
        deadline = time.monotonic() + timeout_s
        while not self.is_up(name):
            left = deadline - time.monotonic()
            if left <= 0:
                return
            try:
                await asyncio.wait_for(self._changed.wait(), left)
            except TimeoutError:
                return
