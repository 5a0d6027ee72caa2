"""Hostile input against a real `deid worker` on the real tansu broker: >= 10,000 hypothesis-generated
malformed or mutated HL7 v2 / FHIR / JSON-envelope messages interleaved with valid notes. The worker stays
up, every hostile message that is refused yields exactly one dead letter with a reason, and every valid
note comes out de-identified, within a time bound.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import Counter
from pathlib import Path

import pytest
from aiokafka import AIOKafkaProducer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deid_core.surrogate.keys import development_key
from deid_tools.drivers.canaries import expected_output_key
from deid_tools.drivers.stream import StreamSetup, Worker, consume
from tests import hostile_strategies as hs

pytestmark = [pytest.mark.slow, pytest.mark.broker]

HOSTILE = 10_000
HUGE_HOSTILE = 40
SENDABLE_MAX = 1_000_000 - 16_384  # the producer's max_request_size, less room for the record's framing
"""Of which this many have 300-900 kB fields (dead letters over 512 KiB travel truncated)."""
MODERATE = (2_000, 20_000)
VALID = 100
TIME_BOUND_S = 600


def _generate(n: int, big: tuple[int, int]) -> list[bytes]:
    """Run a hypothesis collector: n hostile messages whose huge fields have sizes in ``big``."""
    out: list[bytes] = []
    strategy = st.one_of(hs.hl7_messages(big), hs.fhir_messages(big), hs.envelope_messages(big))

    @settings(max_examples=n, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(raw=strategy)
    def collect(raw: bytes) -> None:
        out.append(raw)

    while len(out) < n:  # hypothesis may stop early once it has exhausted small spaces
        collect()
    return out[:n]


async def _send_all(bootstrap: str, topic: str, values: list[bytes]) -> None:
    producer = AIOKafkaProducer(bootstrap_servers=bootstrap, linger_ms=5)
    await producer.start()
    try:
        pending = []
        for value in values:
            pending.append(await producer.send(topic, value))
            if len(pending) >= 500:
                await asyncio.gather(*pending)
                pending.clear()
        await asyncio.gather(*pending)
    finally:
        await producer.stop()


async def test_worker_survives_hostile_input_and_keeps_publishing_valid_notes(kafka_bootstrap: str, tmp_path: Path) -> None:
    setup = StreamSetup(kafka_bootstrap)
    # A huge field can grow past the producer's 1 MB request limit once encoded (base64 in FHIR): those
    # cannot reach a broker at all, and their in-process handling is tested in tests/unit.
    huge = [m for m in _generate(HUGE_HOSTILE * 8, hs.SENDABLE) if 300_000 < len(m) <= SENDABLE_MAX][:HUGE_HOSTILE]
    hostile = _generate(HOSTILE - len(huge), MODERATE) + huge
    valid = [
        json.dumps({
            "id": f"valid-{i}",
            "text": f"{hs.CANARY_GIVEN} {hs.CANARY_FAMILY} seen on 03/05/2014; stable.",
            "patient": {"patient_id": f"{hs.CANARY_ID}-{i}", "names": [f"{hs.CANARY_GIVEN} {hs.CANARY_FAMILY}"]},
        }).encode()
        for i in range(VALID)
    ]
    mixed = hostile + valid
    random.Random(5).shuffle(mixed)
    worker = Worker(setup, tmp_path)
    try:
        worker.wait_ready()
        started = time.monotonic()
        await _send_all(setup.bootstrap, setup.topic("notes_in"), mixed)
        sent_s = time.monotonic() - started
        # Every input has exactly one outcome: a dead letter, a published message, or a demographics update.
        topics = [setup.topic("dead_letter"), setup.topic("notes_out"), setup.topic("demographics")]
        got = await consume(setup.bootstrap, topics, len(mixed), timeout_s=TIME_BOUND_S)
        elapsed = time.monotonic() - started
        assert worker.proc.poll() is None, "the worker died"
        dead = [g for g in got if g[0] == topics[0]]
        out = [g for g in got if g[0] == topics[1]]
        assert len(got) == len(mixed), f"{len(got)} outcomes for {len(mixed)} inputs after {elapsed:.0f}s"
        # One dead letter per input offset, each with a reason.
        assert len({g[1] for g in dead}) == len(dead)
        codes = Counter(g[3]["deid-error-code"].decode() for g in dead)
        assert all(g[3].get("deid-error-message") for g in dead)
        assert "internal-error" not in codes
        truncated = sum(1 for g in dead if g[3].get("deid-truncated"))
        # Every valid note was de-identified (and no hostile message that still parsed leaked the canary).
        # Envelope ids leave pseudonymized: the valid notes are found by their output keys.
        valid_keys = {expected_output_key(development_key(), "json", f"valid-{i}") for i in range(VALID)}
        texts = [json.loads(g[2]).get("text", "") for g in out if g[1] in valid_keys]
        assert len(texts) == VALID
        assert all(hs.CANARY_FAMILY not in t and hs.CANARY_GIVEN not in t for t in texts)
        assert elapsed < TIME_BOUND_S
        print(
            f"\nhostile stream: {len(hostile)} hostile + {VALID} valid sent in {sent_s:.0f}s; all outcomes in "
            f"{elapsed:.0f}s; {len(huge)} over 300 kB; dead letters {len(dead)} ({truncated} truncated), published {len(out)}; codes {dict(codes)}"
        )
    finally:
        worker.stop()
