"""Acceptance test of whole-message de-identification: canary messages through a real worker on a real broker.

Every string-, name-, address-, id- and date-bearing field of the canary messages of
``tests/canary_messages.py`` (71 HL7 segment types with GT1, IN1, NTE, ORC, EVN, PD1, PRT, ROL,
SPM and Z-segments; 28 FHIR R4 resource types with contained resources and extensions) holds canary PHI.
A worker at DEBUG log level with the in-process tagger and the default ``surrogate`` policy takes them
all from the notes-in topic. Every input must have exactly one outcome (a de-identified message, its
JSON notes and its audit record, under the keyed output key of its message id), none may be
dead-lettered, and no canary may appear in any output key, value or header, in the dead-letter records'
keys and headers, in the worker's log or in its /metrics page. Codes are never canaries (they are kept on
purpose), so nothing is excepted.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from deid_core.surrogate.keys import load_secret
from deid_tools.drivers.canaries import expected_output_key
from deid_tools.drivers.stream import StreamSetup, TopicRecorder, Worker, create_input_topics, produce
from tests.canary_messages import (
    FHIR_VARIANTS,
    HL7_MESSAGE_TYPES,
    all_canary_values,
    canary_cases,
    describe,
    fhir_bundle,
    find,
    hl7_message,
    locate,
)

pytestmark = [pytest.mark.slow, pytest.mark.broker]

CASES = 2
"""Patients sent: each one's messages carry every segment and resource type; two keep it under 90 s."""
OUTPUT_TOPICS = ("notes_out", "json_out", "audit", "dead_letter")


def _messages() -> list[tuple[bytes, bytes, str]]:
    out = []
    for case in canary_cases()[:CASES]:
        out += [(*hl7_message(case, n), "hl7v2") for n in range(len(HL7_MESSAGE_TYPES))]
        out += [(*fhir_bundle(case, v), "fhir") for v in range(FHIR_VARIANTS)]
    return out


async def _run(setup: StreamSetup, messages: list[tuple[bytes, bytes, str]]) -> TopicRecorder:
    topics = {name: setup.topic(name) for name in OUTPUT_TOPICS}
    recorder = TopicRecorder(setup.bootstrap, list(topics.values()))
    await recorder.start()
    try:
        await produce(setup.bootstrap, setup.topic("notes_in"), [v for _, v, _ in messages], [k for k, _, _ in messages])
        n = len(messages)

        def done() -> bool:
            dead = len(recorder.by_topic(topics["dead_letter"]))
            out = len({r.key for r in recorder.by_topic(topics["notes_out"])})
            audit = len({r.key for r in recorder.by_topic(topics["audit"])})
            json_out = len({r.key for r in recorder.by_topic(topics["json_out"])})
            return out + dead >= n and audit >= out and json_out >= out

        await recorder.wait_until(done, timeout_s=150)
        await recorder.settle(idle_s=2.0, timeout_s=10)
    finally:
        await recorder.stop()
    return recorder


def test_no_canary_leaves_the_worker(kafka_bootstrap: str, tmp_path: Path) -> None:
    setup = StreamSetup(kafka_bootstrap)
    secret = tmp_path / "hmac.key"
    secret.write_text("v1:" + "canary-worker-acceptance-secret-" * 2)
    setup.secret_file = str(secret)
    messages = _messages()
    values = all_canary_values()
    worker = Worker(setup, tmp_path, loglevel="debug")
    try:
        worker.wait_ready()
        asyncio.run(create_input_topics(setup))
        recorder = asyncio.run(_run(setup, messages))
        metrics_text = worker.metrics()
    finally:
        worker.stop()

    records = recorder.records
    by_topic = {name: [r for r in records if r.topic == setup.topic(name)] for name in OUTPUT_TOPICS}
    dead = by_topic["dead_letter"]
    assert not dead, "dead-lettered (error headers never quote data): " + "; ".join(
        " ".join(v.decode("utf-8", "replace") for k, v in r.headers if k.startswith("deid-error")) for r in dead
    )

    # One outcome per input, under the keyed hash of its message id.
    key = load_secret(str(secret))
    expected = {expected_output_key(key, fmt, k.decode()) for k, _, fmt in messages}
    for name in ("notes_out", "json_out", "audit"):
        assert {r.key for r in by_topic[name]} == expected, name
    assert len({r.key for r in by_topic["notes_out"]}) == len(messages)
    for r in by_topic["audit"]:
        assert json.loads(r.value)["policy"] == "surrogate"

    leaks: dict[str, set[str]] = {}

    def check(where: str, blob: bytes | str, fmt: str | None = None) -> None:
        for value in find(blob, values):
            places = locate(blob, value, fmt) if fmt else [""]
            for place in places:
                leaks.setdefault(describe([value], values)[0], set()).add(f"{where} {place}".strip())

    log_text = worker.log_path.read_text(errors="replace")
    assert "DEBUG" in log_text or "debug" in log_text.lower(), "the worker did not log at debug level"
    check("worker log", log_text)
    check("metrics", metrics_text)
    for r in records:
        name = r.topic.removeprefix(f"{setup.prefix}.")
        check(f"{name} key", r.key)
        check(f"{name} headers", json.dumps({k: v.decode("utf-8", "replace") for k, v in r.headers}))
        if name == "notes_out":
            fmt = dict(r.headers).get("deid-format", b"").decode()
            check("notes_out value", r.value, fmt)
        elif name != "dead_letter":  # a dead letter's value is the rejected input, kept for repair
            check(f"{name} value", r.value)
    assert not leaks, f"{len(leaks)} canary values left the worker:\n" + "\n".join(
        f"  {value}: {', '.join(sorted(places))}" for value, places in sorted(leaks.items())
    )
