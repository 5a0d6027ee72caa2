"""No PHI at rest or in telemetry: canary patients through a real worker at DEBUG log level.

The worker processes valid canary messages, malformed ones that carry the same canaries, and a Redis
outage in the middle (so error paths log too). Afterwards no canary value may appear in the worker's log
(every level), the broker's and Redis's logs, its /metrics and /ready pages, any output record (key,
value, headers), the dead-letter descriptions (headers and keys; a dead letter's value is the rejected
input itself, kept for repair on a topic as restricted as the input), the audit topic, or any Redis key
or value. Exception messages are checked where they surface: the worker log, dead-letter headers and the
CLI's stderr.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis

from deid_tools.drivers.canaries import CanaryPatient, canary_messages, find_canaries, make_canary_patients
from deid_tools.drivers.stream import ROOT, StreamSetup, Worker, consume, produce
from tests.integration.private_services import PrivateServices

pytestmark = [pytest.mark.slow, pytest.mark.broker, pytest.mark.redis]


def malformed_with_canaries(patients: list[CanaryPatient]) -> list[tuple[bytes, bytes]]:
    """Messages that must be dead-lettered, each quoting canary PHI where a careless error would echo it."""
    p = patients[0]
    name = f"{p.given} {p.family}"
    pid = f"PID|1||{p.mrn}^^^HOSP^MR||{p.family}^{p.given}||{p.dob:%Y%m%d}|F|||{p.street}^^{p.city}^WI^{p.zip}"
    return [
        # A note whose PID names the patient but carries no id: it cannot be attributed (hl7.missing_pid).
        (b"bad-hl7-no-id", f"MSH|^~\\&|EPIC|HOSP|||20240101||MDM^T02|bad1|P|2.5\rPID|1||||{p.family}^{p.given}\rOBX|1|TX|N||{name} seen||||||F".encode()),
        (b"bad-hl7-no-msh", f"{pid}\rOBX|1|TX|NOTE||{name} seen today||||||F".encode()),
        (b"bad-hl7-latin1", f"MSH|^~\\&|A|B|||20240101||MDM^T02|bad3|P|2.5\r{pid}\rOBX|1|TX|N||{name} caf\xe9".encode("latin-1")),
        (b"bad-json-type", json.dumps({"id": "bad4", "text": 12345, "patient": {"patient_id": p.patient_id, "names": name}}).encode()),
        (b"bad-json-syntax", f'{{"id": "bad5", "text": "{name} {p.ssn}", '.encode()),
        (b"bad-fhir-base64", json.dumps({
            "resourceType": "DocumentReference", "id": "bad6", "status": "current",
            "subject": {"display": name},
            "content": [{"attachment": {"contentType": "text/plain", "data": f"{p.family}!!not base64"}}],
        }).encode()),
        (b"bad-fhir-type", json.dumps({"resourceType": "Patient", "id": p.patient_id, "birthDate": name}).encode()),
        (b"bad-nested", ("[" * 50_000 + json.dumps(name) + "]" * 50_000).encode()),
    ]


def redis_dump(url: str) -> list[str]:
    client = redis.Redis.from_url(url, decode_responses=True)
    out: list[str] = []
    for key in client.scan_iter(count=1000):
        out.append(key)
        kind = client.type(key)
        if kind == "string":
            out.append(client.get(key) or "")
        elif kind == "hash":
            out.extend(f"{k}={v}" for k, v in client.hgetall(key).items())
        else:
            out.append(f"<{kind}>")
    return out


def test_no_canary_in_logs_metrics_dead_letters_outputs_or_redis(tmp_path: Path) -> None:
    services = PrivateServices("leak", tmp_path)
    env = services.start("broker", "redis")
    try:
        setup = StreamSetup(bootstrap=env["DEID_TEST_KAFKA_BOOTSTRAP"], store=env["DEID_TEST_REDIS_URL"])
        secret = tmp_path / "hmac.key"
        secret.write_text("v3:" + "s3cr3t-for-the-leak-test-" * 2)
        setup.secret_file = str(secret)
        patients = make_canary_patients(8, seed=7)
        valid = canary_messages(patients, 3, seed=7)
        bad = malformed_with_canaries(patients)
        worker = Worker(setup, tmp_path, loglevel="debug")
        try:
            worker.wait_ready()
            topic = setup.topic("notes_in")
            half = len(valid) // 2
            asyncio.run(produce(setup.bootstrap, topic, [v for _, v, _ in valid[:half]], [k for k, _, _ in valid[:half]]))
            asyncio.run(produce(setup.bootstrap, topic, [v for _, v in bad], [k for k, _ in bad]))
            asyncio.run(consume(setup.bootstrap, [setup.topic("notes_out")], half, 90))

            # An outage in the middle: the error paths must not leak either.
            services.stop("redis")
            asyncio.run(produce(setup.bootstrap, topic, [v for _, v, _ in valid[half:]], [k for k, _, _ in valid[half:]]))
            time.sleep(8)
            services.start("redis")

            topics = [setup.topic(t) for t in ("notes_out", "json_out", "dead_letter", "audit")]
            expected = 2 * len(valid) + len(bad) + len(valid)  # notes out + json out + dead letters + audit
            records = asyncio.run(consume(setup.bootstrap, topics, expected, 120))
            metrics_text = worker.metrics()
        finally:
            worker.stop()

        by_topic: dict[str, int] = {}
        for topic_name, *_ in records:
            by_topic[topic_name] = by_topic.get(topic_name, 0) + 1
        assert by_topic.get(setup.topic("notes_out"), 0) >= len(valid), by_topic
        assert by_topic.get(setup.topic("dead_letter"), 0) >= len(bad), by_topic

        leaks: dict[str, set[str]] = {}

        def check(where: str, blob: bytes | str) -> None:
            found = find_canaries(blob, patients)
            if found:
                leaks.setdefault(where, set()).update(found)

        log_text = worker.log_path.read_text(errors="replace")
        assert "DEBUG" in log_text or "debug" in log_text.lower(), "the worker did not log at debug level"
        check("worker log", log_text)
        check("metrics", metrics_text)
        for service_log in sorted(services.run_dir.glob("*.log")):  # the broker's and Redis's own logs
            check(service_log.name, service_log.read_text(errors="replace"))
        for topic_name, key, value, headers in records:
            check(f"{topic_name} key", key)
            check(f"{topic_name} headers", json.dumps({k: v.decode("utf-8", "replace") for k, v in headers.items()}))
            if topic_name != setup.topic("dead_letter"):
                check(f"{topic_name} value", value)
        dead = [h for t, _, _, h in records if t == setup.topic("dead_letter")]
        assert all(h.get("deid-error-code") and h.get("deid-error-message") for h in dead)
        for entry in redis_dump(env["DEID_TEST_REDIS_URL"]):
            check("redis", entry)
        assert leaks == {}, f"canary PHI found: { {k: sorted(v) for k, v in leaks.items()} }"
        # The worker did meet the outage (so its error paths were exercised and checked above).
        assert "store unavailable" in log_text
    finally:
        services.stop()


def test_cli_errors_do_not_echo_input(tmp_path: Path) -> None:
    """`deid deidentify` on bad input names the line and the problem, never the content."""
    p = make_canary_patients(1, seed=11)[0]
    bad = tmp_path / "bad.jsonl"
    good = json.dumps({"id": "ok", "text": f"{p.given} {p.family} seen."})
    bad.write_text(good + "\n" + json.dumps({"id": "x", "text": [p.family, p.ssn]}) + "\n" + f'{{"id": "{p.mrn}", "text": ')
    proc = subprocess.run(
        [sys.executable, "-m", "workers.cli", "-vv", "deidentify", "-i", str(bad), "--detectors", "rules,header",
         "-o", str(tmp_path / "out.jsonl")],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )
    assert proc.returncode != 0
    assert "line 2" in proc.stderr
    assert find_canaries(proc.stderr + proc.stdout, [p]) == set()
