"""Services private to one test (scripts/services.sh with a run directory of its own and fixed ports)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.integration.stream_helpers import ROOT, free_port

SERVICES = ROOT / "scripts" / "services.sh"


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

    def _run(self, *args: str) -> dict[str, str]:
        env = {**os.environ, "DEID_RUN_DIR": str(self.run_dir), **self.ports}
        proc = subprocess.run([str(SERVICES), *args], env=env, capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            raise RuntimeError(f"services.sh {' '.join(args)} failed: {proc.stderr[-2000:]}")
        return dict(line.split("=", 1) for line in proc.stdout.splitlines() if "=" in line)

    def start(self, *names: str) -> dict[str, str]:
        return self._run("start", *names)

    def stop(self, *names: str) -> None:
        self._run("stop", *names)

    def pid(self, name: str) -> int:
        return int((self.run_dir / f"{name}.pid").read_text())
