"""Bounded soak: `deid worker` processes under a fixed note rate, sampling memory, lag and latency.

Usage (after ./dev.sh setup):

    .venv/bin/python bench/soak.py [--rate 15] [--duration-s 600] [--workers 1] [--store redis|memory]
        [--sample-every-s 5] [--warmup-s 60] [--max-rss-slope 1.0] [--json-out FILE]

Services (broker; Redis with --store redis, the default) are started through scripts/services.sh in
.run/bench-soak and stopped at the end, also on errors and Ctrl-C. The driver (how notes are sent,
matched and timed) is tools/deid_tools/drivers/soak.py.

Prints a row per sample (time, sent, received, lag, worker RSS, latency p50/max of the outputs received
since the previous sample), then a summary: RSS at start / after warm-up / at the end, the RSS slope after
warm-up (least squares, MB/min), lag max / end and its trend while producing, latency p50/p95/p99.

Exit status 1 when memory grows (RSS slope after warm-up above --max-rss-slope MB/min), when the lag
keeps growing (trend above --max-lag-slope notes/min while producing), or when notes are still missing
--drain-timeout-s after the last send; 0 otherwise.

Memory with the in-process tagger: torch's oneDNN kernels keep a cache of compiled primitives, one per
input shape, 1,024 by default; batch sizes and note lengths vary, so RSS climbs by ~90 MB over the first
~5,500 notes and then stays flat. A default run of 10 minutes therefore shows a positive slope after a
60 s warm-up; ``--onednn-cache-capacity 0`` (or a longer ``--warmup-s``) separates that bounded cache from
a leak of the worker's own.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import signal
import sys
from pathlib import Path
from types import FrameType

from deid_tools.drivers.soak import Sample, SoakConfig, SoakReport, run_soak
from deid_tools.drivers.stream import StreamSetup, services_sh

ROOT = Path(__file__).resolve().parents[1]
RUN_DIR = ROOT / ".run" / "bench-soak"


def services(cmd: str, *names: str) -> dict[str, str]:
    return services_sh(RUN_DIR, cmd, *names)


def verdict(report: SoakReport, args: argparse.Namespace) -> list[str]:
    """The reasons this soak failed (empty: passed)."""
    failures = []
    if report.rss_slope_mb_per_min > args.max_rss_slope:
        failures.append(
            f"memory grows: RSS slope {report.rss_slope_mb_per_min:.2f} MB/min > {args.max_rss_slope} MB/min"
        )
    if report.lag_slope_per_min > args.max_lag_slope:
        failures.append(f"lag keeps growing: {report.lag_slope_per_min:.1f} notes/min > {args.max_lag_slope}")
    if report.lag_end > 0:
        failures.append(f"{report.lag_end} notes without output {args.drain_timeout_s:g} s after the last send")
    if report.dead_letters:
        failures.append(f"{report.dead_letters} dead letters")
    return failures


async def soak(args: argparse.Namespace, bootstrap: str, store: str) -> SoakReport:
    secret_file = RUN_DIR / f"secret-{secrets.token_hex(4)}"
    secret_file.write_text(f"soak:{secrets.token_hex(24)}\n")
    setup = StreamSetup(bootstrap, store=store, secret_file=str(secret_file))
    config = SoakConfig(
        rate=args.rate, duration_s=args.duration_s, workers=args.workers, sample_every_s=args.sample_every_s,
        warmup_s=args.warmup_s, pool=args.pool, seed=args.seed, drain_timeout_s=args.drain_timeout_s,
    )
    header = SoakReport(config).table()
    print("\n".join(header[:2]), flush=True)

    def show(s: Sample) -> None:
        print(SoakReport(config, samples=[s]).table()[2], flush=True)

    try:
        return await run_soak(setup, RUN_DIR, config, on_sample=show)
    finally:
        secret_file.unlink(missing_ok=True)


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=15.0, help="notes per second (default: %(default)s)")
    parser.add_argument("--duration-s", type=float, default=600.0, help="seconds of sending (default: %(default)s)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--store", choices=("redis", "memory"), default="redis")
    parser.add_argument("--sample-every-s", type=float, default=5.0)
    parser.add_argument("--warmup-s", type=float, default=60.0, help="samples before this are left out of the slopes")
    parser.add_argument("--pool", type=int, default=300, help="distinct note texts (and patients) cycled through")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--drain-timeout-s", type=float, default=120.0)
    # 1 MB/min: a leak of ~1 KB per note at 15 notes/s; over 9 post-warm-up minutes the allocator's
    # steps (0.5-1 MB) move a least-squares slope by well under that.
    parser.add_argument("--max-rss-slope", type=float, default=1.0, help="MB/min after warm-up (default: %(default)s)")
    parser.add_argument(
        "--max-lag-slope", type=float, default=None,
        help="notes/min of lag growth while producing (default: 1%% of the rate per minute, at least 5)",
    )
    parser.add_argument(
        "--onednn-cache-capacity", type=int, default=None,
        help="set ONEDNN_PRIMITIVE_CACHE_CAPACITY for the workers (default: the worker's own, 0 = off; torch's "
        "default is 1,024). The cache holds one compiled kernel per input shape and fills over the first thousands of notes",
    )
    parser.add_argument("--json-out", help="write the summary and the samples as JSON here")
    args = parser.parse_args()
    if args.max_lag_slope is None:
        args.max_lag_slope = max(5.0, 0.01 * args.rate * 60)
    signal.signal(signal.SIGTERM, _interrupt)
    if args.onednn_cache_capacity is not None:
        os.environ["ONEDNN_PRIMITIVE_CACHE_CAPACITY"] = str(args.onednn_cache_capacity)  # workers inherit it

    RUN_DIR.mkdir(parents=True, exist_ok=True)
    for old in [*RUN_DIR.glob("worker-*.log"), *RUN_DIR.glob("secret-*")]:
        old.unlink()
    names = ["broker", *(["redis"] if args.store == "redis" else [])]
    failures: list[str] = []
    interrupted = False
    try:
        env = services("start", *names)
        store = env["DEID_TEST_REDIS_URL"] if args.store == "redis" else "memory"
        onednn = os.environ.get("ONEDNN_PRIMITIVE_CACHE_CAPACITY", "worker default (off)")
        print(f"soak: {args.rate:g} notes/s for {args.duration_s:g} s, {args.workers} worker(s), store {args.store}, "
              f"oneDNN primitive cache {onednn}; "
              f"load average {' / '.join(f'{x:.1f}' for x in os.getloadavg())}; logs in {RUN_DIR}", flush=True)
        report = asyncio.run(soak(args, env["DEID_TEST_KAFKA_BOOTSTRAP"], store))
        print()
        print("\n".join(report.summary_lines()))
        failures = verdict(report, args)
        if args.json_out:
            doc = {
                "summary": report.summary(), "failures": failures,
                "samples": [
                    {"t_s": round(s.t_s, 1), "produced": s.produced, "delivered": s.delivered, "lag": s.lag,
                     "rss_mb": [round(r, 1) for r in s.rss_mb], "latency_p50_ms": s.latency_p50_ms,
                     "latency_max_ms": s.latency_max_ms}
                    for s in report.samples
                ],
            }
            Path(args.json_out).write_text(json.dumps(doc, indent=1, default=str))
        print("PASS" if not failures else "FAIL: " + "; ".join(failures))
    except KeyboardInterrupt:
        print("\ninterrupted; stopping services", file=sys.stderr)
        interrupted = True
    finally:
        services("stop")
    if interrupted:
        sys.exit(130)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
