"""Services private to one test (scripts/services.sh with a run directory of its own and fixed ports)."""

from __future__ import annotations

from pathlib import Path

from deid_tools.drivers.stream import free_port, services_sh


class PrivateServices:
    """Services of one test, restartable in place on the same ports."""

    def __init__(self, name: str, tmp: Path) -> None:
        self.run_dir = tmp / f"services-{name}"
        self.ports = {
            "DEID_REDIS_PORT": str(free_port()),
            "DEID_BROKER_PORT": str(free_port()),
            "DEID_TRITON_HTTP_PORT": str(free_port()),
            "DEID_TRITON_GRPC_PORT": str(free_port()),
            "DEID_TRITON_METRICS_PORT": str(free_port()),
        }

    def start(self, *names: str) -> dict[str, str]:
        return services_sh(self.run_dir, "start", *names, env=self.ports)

    def stop(self, *names: str) -> None:
        services_sh(self.run_dir, "stop", *names, env=self.ports)

    def pid(self, name: str) -> int:
        return int((self.run_dir / f"{name}.pid").read_text())
