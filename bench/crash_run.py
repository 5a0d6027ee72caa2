"""Crash recovery at scale: SIGKILL `deid worker` processes mid-batch while they de-identify canary notes.

Usage (after ./dev.sh setup):

    .venv/bin/python bench/crash_run.py [--notes 3000] [--kills 30] [--workers 2] [--seed 7]

The scenario is tools/deid_tools/drivers/crash.py (the CI test runs it with 1,000 notes and 10 kills):
canary notes produced up front, ``--workers`` workers in one group sharing a Redis mapping store, a kill
of a mid-batch worker whenever outputs advanced by notes / (2 x kills), each followed by a replacement.
Services (broker, Redis) are started through scripts/services.sh in .run/bench-crash and stopped at the
end. Prints the figures; exit status 1 when a note is missing, a duplicate differs, a note was
dead-lettered or canary PHI was found in an output.
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import signal
import sys
from pathlib import Path
from types import FrameType

from deid_tools.drivers.crash import CrashConfig, CrashReport, run_crash
from deid_tools.drivers.stream import StreamSetup, services_sh

ROOT = Path(__file__).resolve().parents[1]
RUN_DIR = ROOT / ".run" / "bench-crash"


def services(cmd: str, *names: str) -> dict[str, str]:
    return services_sh(RUN_DIR, cmd, *names)


async def crash(args: argparse.Namespace, bootstrap: str, redis_url: str) -> CrashReport:
    from tqdm import tqdm

    secret_file = RUN_DIR / f"secret-{secrets.token_hex(4)}"
    secret_file.write_text(f"crash:{secrets.token_hex(24)}\n")
    setup = StreamSetup(bootstrap, store=redis_url, secret_file=str(secret_file))
    patients = max(1, args.notes // args.notes_per_patient)
    config = CrashConfig(
        patients=patients, notes_per_patient=args.notes_per_patient, kills=args.kills, workers=args.workers,
        seed=args.seed, timeout_s=args.timeout_s,
    )
    with tqdm(total=config.notes, desc="de-identified", unit="note", file=sys.stderr) as bar:
        try:
            return await run_crash(setup, RUN_DIR, config, progress=bar.update)
        finally:
            secret_file.unlink(missing_ok=True)


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=3000, help="note-bearing messages (default: %(default)s)")
    parser.add_argument("--notes-per-patient", type=int, default=20)
    parser.add_argument("--kills", type=int, default=30)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--timeout-s", type=float, default=1800.0)
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, _interrupt)
    RUN_DIR.mkdir(parents=True, exist_ok=True)
    for old in [*RUN_DIR.glob("worker-*.log"), *RUN_DIR.glob("secret-*")]:
        old.unlink()
    ok = False
    interrupted = False
    try:
        env = services("start", "broker", "redis")
        report = asyncio.run(crash(args, env["DEID_TEST_KAFKA_BOOTSTRAP"], env["DEID_TEST_REDIS_URL"]))
        print("\n".join(report.lines()))
        ok = not (
            report.missing or report.json_missing or report.differing or report.dead_letters
            or report.canary_hits or report.unexpected_keys
        )
        if report.kills < args.kills:
            print(f"note: only {report.kills} of {args.kills} kills happened before the run ended")
        print("PASS" if ok else "FAIL")
    except KeyboardInterrupt:
        print("\ninterrupted; stopping services", file=sys.stderr)
        interrupted = True
    finally:
        services("stop")
    if interrupted:
        sys.exit(130)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
