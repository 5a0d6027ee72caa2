"""Crash recovery: workers SIGKILLed mid-batch at least 10 times while de-identifying 1,000 canary notes.

Real tansu broker, real Redis (the mapping store shared by all workers and their replacements), real
`deid worker` processes with the in-process tagger; the scenario is in deid_tools/drivers/crash.py. Afterwards every
input has an output (by its expected output key), none is missing, duplicates are identical, nothing
was dead-lettered, and no record of any output topic contains a canary PHI value.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from deid_tools.drivers.canaries import canary_messages, find_canaries, make_canary_patients
from deid_tools.drivers.crash import CrashConfig, run_crash
from deid_tools.drivers.stream import StreamSetup


def test_canary_search_sees_every_encoding() -> None:
    patients = make_canary_patients(3, seed=1)
    p = patients[1]
    assert find_canaries(f"seen {p.family.upper()} today", patients) == {p.family}
    assert find_canaries(base64.b64encode(f"call {p.phone} now".encode()), patients) == {p.phone}
    assert find_canaries(p.phone.replace("-", ""), patients) == {p.phone}
    assert find_canaries(json.dumps({"t": f"{p.street}\n"}), patients) == {p.street}
    assert find_canaries(f"x\\F\\{p.mrn}\\S\\y", patients) == {p.mrn}
    assert find_canaries(f"1{p.mrn} {p.family}son", patients) == set()  # longer numbers and words are not hits
    # Every generated message carries its patient's canaries (else the leak search proves nothing).
    for _, value, _ in canary_messages(patients, 4, seed=1):
        assert len(find_canaries(value, patients)) >= 6


@pytest.mark.slow
@pytest.mark.broker
@pytest.mark.redis
async def test_sigkilled_workers_lose_nothing_and_leak_nothing(
    kafka_bootstrap: str, redis_url: str, tmp_path: Path
) -> None:
    secret = tmp_path / "secret"
    secret.write_text("crash-test:0123456789abcdef0123456789\n")
    setup = StreamSetup(kafka_bootstrap, store=redis_url, secret_file=str(secret))
    config = CrashConfig(patients=50, notes_per_patient=20, kills=10, workers=2, seed=7, timeout_s=420)
    report = await run_crash(setup, tmp_path, config)
    print("\n" + "\n".join(report.lines()))

    assert report.sent >= 1000
    # Only a worker seen mid-batch (events taken, not yet published) is killed: 10 kills, 10 lost batches.
    assert report.kills >= 10, "the run ended before 10 mid-batch kills"
    assert report.missing == [] and report.json_missing == [], f"{len(report.missing)} notes lost"
    assert report.distinct == report.sent
    assert report.unexpected_keys == 0
    assert report.dead_letters == 0
    assert report.differing == [], "a redelivered note produced a different output"
    assert report.canary_hits == {}, f"canary PHI in {len(report.canary_hits)} output records"
