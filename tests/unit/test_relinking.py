"""Relinking: no real date beside a shifted one, no birth date implying 90+, and byte-identical reruns.

Every sample message (the shared HL7 v2 samples, the bundled worker samples and the test fixtures, HL7
and FHIR) goes through the library message path under the default policy. Then, reading the output back
with the same loaders:
- every date in a structured field equals an input date moved by the patient's one offset (so a real
  date never sits beside a shifted twin that would reveal the offset);
- no birth date, together with the message's latest other date, implies an age of 90 or more;
- a second run with a fresh store and the same key gives the same bytes.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from deid_core.detect.registry import build_detectors
from deid_core.message import datetimes
from deid_core.message.path import MessagePipeline
from deid_core.message.policy import shipped_policy
from deid_core.pipeline import DetectionPipeline
from deid_core.surrogate.engine import Surrogator
from deid_core.surrogate.keys import HmacKey
from deid_core.surrogate.store import InMemoryMappingStore
from schemas.message import Kind, LoadedMessage, Role
from workers.compose import build_loaders

ROOT = Path(__file__).resolve().parents[2]
KEY = HmacKey(b"relinking-test-secret-relinking-test", "v1")
SOURCES = [ROOT.parent / "shared" / "data" / "hl7v2-samples", ROOT / "workers" / "samples", ROOT / "tests" / "fixtures" / "hl7", ROOT / "tests" / "fixtures" / "fhir"]

OLD_PATIENT = (
    "MSH|^~\\&|EPIC|HOSP|LAB|HOSP|20240611093000-0500||ORU^R01|OLD0001|P|2.5.1\r"
    "PID|1||97000001^^^HOSP^MR||Quorvath^Zyltha||19300122000000+0215|F\r"
    "OBR|1|ORD1|FIL1|NOTE^Progress note|||20240610080000\r"
    "OBX|1|TX|NOTE^Note||Ms. Quorvath is a 94-year-old seen 06/10/2024.||||||F|||20240610\r"
)


def sample_messages() -> list[tuple[str, bytes]]:
    out = [("old-patient.hl7", OLD_PATIENT.encode())]
    for folder in SOURCES:
        if folder.is_dir():
            out += [(f"{folder.name}/{p.name}", p.read_bytes()) for p in sorted(folder.iterdir()) if p.suffix in (".hl7", ".json")]
    return out


def _pipeline() -> MessagePipeline:
    detection = DetectionPipeline(build_detectors(["rules", "header"]), None)
    return MessagePipeline(detection, Surrogator(InMemoryMappingStore(), KEY), shipped_policy("surrogate"), build_loaders())


def _dates(message: LoadedMessage, birth: bool) -> list[dt.date]:
    out = []
    for leaf in message.leaves():
        if leaf.kind is Kind.DATE and (leaf.role is Role.BIRTH_DATE) == birth:
            parsed = datetimes.parse(leaf.value, leaf.datatype)
            if parsed is not None and parsed.precision == "day":
                out.append(parsed.value)
    return out


async def _run(messages: list[tuple[str, bytes]]) -> dict[str, tuple[bytes, int] | None]:
    pipeline = _pipeline()
    results: dict[str, tuple[bytes, int] | None] = {}
    for name, raw in messages:
        try:
            loaded = pipeline.load(raw)
        except Exception:  # noqa: BLE001 - inputs the loaders refuse are another test's business
            results[name] = None
            continue
        (result,) = await pipeline.deidentify([(loaded, loaded.patient)])
        assert not isinstance(result, Exception), f"{name}: {result}"
        scope = f"patient:{loaded.patient.patient_id}" if loaded.patient else f"note:{result.ref}"
        results[name] = (result.output, await pipeline.surrogator.date_offset_days(scope))
    return results


@pytest.fixture(scope="module")
def runs() -> tuple[list[tuple[str, bytes]], dict[str, tuple[bytes, int] | None], dict[str, tuple[bytes, int] | None]]:
    import asyncio

    messages = sample_messages()
    return messages, asyncio.run(_run(messages)), asyncio.run(_run(messages))


def test_enough_messages_were_processed(runs: tuple) -> None:  # type: ignore[type-arg]
    messages, first, _ = runs
    processed = [n for n, r in first.items() if r is not None]
    assert len(messages) >= 100 and len(processed) >= 0.9 * len(messages)


def test_no_real_date_beside_a_shifted_one(runs: tuple) -> None:  # type: ignore[type-arg]
    messages, first, _ = runs
    pipeline = _pipeline()
    for name, raw in messages:
        result = first[name]
        if result is None:
            continue
        output, offset = result
        before = pipeline.load(raw)
        after = pipeline.load(output)
        shifted = {d + dt.timedelta(days=offset) for d in _dates(before, birth=False) + _dates(before, birth=True)}
        for d in _dates(after, birth=False) + _dates(after, birth=True):
            assert d in shifted, f"{name}: an output date is not an input date moved by the patient's offset"


def test_no_birth_date_implies_90_or_older(runs: tuple) -> None:  # type: ignore[type-arg]
    messages, first, _ = runs
    pipeline = _pipeline()
    for name, _ in messages:
        result = first[name]
        if result is None:
            continue
        after = pipeline.load(result[0])
        others = _dates(after, birth=False)
        on = max(others) if others else dt.date.today()
        for dob in _dates(after, birth=True):
            assert datetimes.age_on(dob, on) < 90, name
    old = first["old-patient.hl7"]
    assert old is not None and b"1930" not in old[0] and b"1929" not in old[0]
    assert b"90+" in old[0]


def test_reruns_are_byte_identical(runs: tuple) -> None:  # type: ignore[type-arg]
    _, first, second = runs
    assert first == second
