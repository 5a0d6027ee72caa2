"""A bounded loopback load test of ``deid serve``: requests/s and latency percentiles for 1 KB and 10 KB notes.

Starts ``deid serve`` on 127.0.0.1 (a free port, a bearer token in a temporary file, the settings of the
environment: in-process tagger and memory store unless ``DEID_TRITON_URL`` / ``DEID_STORE`` say
otherwise), sends a fixed number of ``POST /v1/deidentify`` requests per note size with a fixed
concurrency, prints the figures, and stops the server. Every loop is bounded in count and in time;
nothing leaves the loopback interface. Notes are synthetic (``deid_tools.corpus``): consecutive notes
joined to the target size, each with the patient header of its first note. Prints figures; asserts nothing.

    .venv/bin/python bench/serve_load.py                      # 400 requests per size, 8 at a time
    .venv/bin/python bench/serve_load.py --requests 200 --concurrency 16 --sizes 1024,10240,50000
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"  # loopback only, on purpose


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def notes_of_size(size: int, count: int, seed: int) -> list[dict[str, Any]]:
    """``count`` request bodies of about ``size`` characters (cut at a space), from synthetic notes."""
    from deid_tools.corpus import generate_notes

    per_body = max(1, size // 900 + 1)
    pool = list(generate_notes("test", count * per_body, seed=seed))
    bodies, i = [], 0
    for _ in range(count):
        first, text = pool[i % len(pool)], ""
        while len(text) < size:
            text += pool[i % len(pool)].text + "\n\n"
            i += 1
        cut = text.rfind(" ", 0, size)
        bodies.append({"text": text[: cut if cut > size // 2 else size], "patient": first.patient.model_dump(mode="json", exclude_none=True)})
    return bodies


class Server:
    def __init__(self, log_dir: Path, startup_s: float) -> None:
        self.port = free_port()
        self.token = secrets.token_hex(24)
        token_file = log_dir / "token"
        token_file.write_text(self.token + "\n")
        env = {**os.environ, "DEID_SERVE_TOKEN_FILE": str(token_file)}
        self.log_path = log_dir / "serve.log"
        self._log = self.log_path.open("wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "workers.cli", "serve", "--host", HOST, "--port", str(self.port)],
            env=env, stdout=self._log, stderr=subprocess.STDOUT, cwd=ROOT,
        )
        self.url = f"http://{HOST}:{self.port}"
        deadline = time.monotonic() + startup_s
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"deid serve exited ({self.proc.returncode}):\n{self.log_path.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.url}/ready", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"deid serve was not ready within {startup_s:.0f} s")
            time.sleep(0.3)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self._log.close()


async def run_load(url: str, token: str, bodies: list[dict[str, Any]], concurrency: int, max_s: float) -> dict[str, Any]:
    latencies: list[float] = []
    failures: dict[int, int] = {}
    next_index = 0
    deadline = time.monotonic() + max_s
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=url, headers={"Authorization": f"Bearer {token}"}, limits=limits, timeout=60) as client:
        for body in bodies[: min(5, len(bodies))]:  # warm-up (first calls load lazily built tables), not counted
            await client.post("/v1/deidentify", json=body)

        async def worker() -> None:
            nonlocal next_index
            while next_index < len(bodies) and time.monotonic() < deadline:
                body = bodies[next_index]
                next_index += 1
                started = time.perf_counter()
                response = await client.post("/v1/deidentify", json=body)
                if response.status_code == 200:
                    latencies.append(time.perf_counter() - started)
                else:
                    failures[response.status_code] = failures.get(response.status_code, 0) + 1

        started = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        elapsed = time.perf_counter() - started
    return {"ok": len(latencies), "failures": failures, "elapsed": elapsed, "latencies": sorted(latencies)}


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values) - 1, max(0, round(q * len(sorted_values)) - 1))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=400, help="requests per note size (default: %(default)s)")
    parser.add_argument("--concurrency", type=int, default=8, help="requests in flight (default: %(default)s)")
    parser.add_argument("--sizes", default="1024,10240", help="note sizes in characters (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--max-seconds", type=float, default=300, help="time limit per note size (default: %(default)s)")
    parser.add_argument("--startup-seconds", type=float, default=180, help="time limit for the server to be ready")
    args = parser.parse_args()
    if args.requests < 1 or args.concurrency < 1:
        parser.error("--requests and --concurrency must be at least 1")
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    workloads = {size: notes_of_size(size, args.requests, args.seed + size) for size in sizes}
    with tempfile.TemporaryDirectory(prefix="deid-serve-load-") as tmp:
        server = Server(Path(tmp), args.startup_seconds)
        try:
            print(f"deid serve on {server.url} (pid {server.proc.pid}); {args.requests} requests per size, concurrency {args.concurrency}")
            print(f"{'size':>8} {'mean chars':>10} {'ok':>5} {'failed':>7} {'req/s':>8} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}")
            for size, bodies in workloads.items():
                r = asyncio.run(run_load(server.url, server.token, bodies, args.concurrency, args.max_seconds))
                lat = r["latencies"]
                mean_chars = statistics.mean(len(b["text"]) for b in bodies)
                failed = sum(r["failures"].values())
                print(
                    f"{size:>8} {mean_chars:>10.0f} {r['ok']:>5} {failed:>7} {r['ok'] / r['elapsed']:>8.1f} "
                    f"{percentile(lat, 0.50) * 1000:>8.1f} {percentile(lat, 0.95) * 1000:>8.1f} {percentile(lat, 0.99) * 1000:>8.1f}"
                    + (f"  statuses {r['failures']}" if failed else "")
                )
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
