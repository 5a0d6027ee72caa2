"""Hostile input through NoteProcessor.process_batch: >= 10,000 hypothesis-generated malformed or mutated
HL7 v2, FHIR and JSON-envelope messages. Nothing raises, each event has exactly one outcome, every dead
letter has a known code and a message that quotes no input, and what still parses leaves de-identified.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deid_core.detect.registry import build_detectors
from deid_core.message.path import MessagePipeline
from deid_core.message.policy import shipped_policy
from deid_core.pipeline import DetectionPipeline
from deid_core.surrogate.engine import Surrogator
from deid_core.surrogate.keys import HmacKey
from deid_core.surrogate.store import InMemoryMappingStore
from deid_core.tagger.base import TaggerUnavailable
from schemas import Span
from schemas.events import EventFormat
from tests import hostile_strategies as hs
from workers.compose import build_loaders
from workers.processor import (
    DependencyUnavailable,
    InMemoryDemographics,
    InputEvent,
    NoteProcessor,
    OutputRecord,
    TopicNames,
    sniff_format,
)

KEY = HmacKey(b"hostile-test-secret-hostile-test", "v1")
TOPICS = TopicNames()
KNOWN_CODES = frozenset({
    "format.unknown", "too-large",
    "hl7.not_hl7", "hl7.decode", "hl7.malformed", "hl7.unsupported_type", "hl7.missing_pid", "hl7.multi_patient",
    "hl7.no_text",
    "fhir.json", "fhir.invalid", "fhir.base64", "fhir.charset", "fhir.unsupported_resource", "fhir.missing_id",
    "fhir.no_text", "fhir.render_invalid", "hl7.render_invalid",
    "json.decode", "json.invalid",
})
# Outcomes tallied per format over the whole session (printed with -s; read by the report).
OUTCOMES: dict[str, Counter[str]] = {"hl7v2": Counter(), "fhir": Counter(), "json": Counter()}


def _settings(max_examples: int) -> settings:
    return settings(max_examples=max_examples, deadline=None, database=None, suppress_health_check=list(HealthCheck))


def _processor(tagger: object | None = None, **limits: int) -> NoteProcessor:
    detection = DetectionPipeline(build_detectors(["rules", "header"]), tagger)  # type: ignore[arg-type]
    return NoteProcessor(_pipeline(detection), InMemoryDemographics(), TOPICS, **limits)


def _pipeline(detection: DetectionPipeline) -> MessagePipeline:
    return MessagePipeline(detection, Surrogator(InMemoryMappingStore(), KEY), shipped_policy("surrogate"), build_loaders())


def _check(processor: NoteProcessor, raws: Sequence[bytes], tally: Counter[str]) -> list[OutputRecord]:
    """Run one batch and assert the invariants; return its records."""
    events = [InputEvent(raw, "in", 0, i) for i, raw in enumerate(raws)]
    records, stats = asyncio.run(processor.process_batch(events))  # raises nothing but DependencyUnavailable
    dead = [r for r in records if r.topic == TOPICS.dead_letter]
    # Exactly one outcome per event: a dead letter, a demographics update, or one published message.
    assert stats.dead_letters == len(dead)
    assert stats.dead_letters + stats.demographics + stats.messages == len(events)
    assert len({r.key for r in dead}) == len(dead)
    assert len([r for r in records if r.topic == TOPICS.notes_out]) == stats.messages
    for r in dead:
        headers = dict(r.headers)
        code = headers["deid-error-code"].decode()
        message = headers["deid-error-message"].decode()
        tally[code] += 1
        assert code in KNOWN_CODES, (code, message)  # internal-error or missing surrogates would be bugs
        assert message and len(message) < 400
        for canary in (*hs.CANARIES, hs.FHIR_FAMILY):
            assert canary.lower() not in message.lower()
        source = events[int(r.key.rsplit(b"/", 1)[1])].value
        assert len(r.value) <= processor.dead_letter_max_bytes
        if headers.get("deid-truncated"):
            assert int(headers["deid-original-size"]) == len(source)
            assert headers["deid-original-sha256"].decode() == hashlib.sha256(source).hexdigest()
        else:
            assert r.value == source
    required = _required_canaries(processor, raws)
    for r in records:
        assert len(r.value) <= processor.max_message_bytes
        if r.topic in (TOPICS.notes_out, TOPICS.json_out):
            # A canary the message's own header named must have been replaced everywhere, note text included.
            for canary in required.get(r.key, ()):
                assert canary.encode() not in r.value, (canary, r.topic)
    tally["(published)"] += stats.messages
    tally["(demographics)"] += stats.demographics
    return records


def _required_canaries(processor: NoteProcessor, raws: Sequence[bytes]) -> dict[bytes, set[str]]:
    """Output key -> the canaries in that message's parsed header (what it must not publish)."""
    out: dict[bytes, set[str]] = {}
    for raw in raws:
        fmt = sniff_format(raw)
        try:
            parsed = processor.codecs[fmt].parse(raw) if fmt else None
        except Exception:  # noqa: BLE001 - the processor's verdict is checked elsewhere
            continue
        if parsed is None or parsed.patient is None:
            continue
        p = parsed.patient
        words = {w for name in p.names for w in name.split()} | {p.patient_id, p.mrn or ""}
        words |= {i.value for i in p.identifiers}
        found = {c for c in (*hs.CANARIES, hs.FHIR_FAMILY) if c in words}
        out.setdefault(processor.output_key(parsed.format, parsed.message_id), set()).update(found)
    return out


@pytest.fixture(scope="module")
def processor() -> NoteProcessor:
    return _processor()


def _count(fmt: str) -> Counter[str]:
    return OUTCOMES[fmt]


# 5 tests x 500 single-message examples plus ~1,400 in the mixed batches below keep this under two
# minutes on 2 cores; tests/integration/test_hostile_stream.py sends 10,000 through a real worker.
N = 500


@_settings(N)
@given(raw=hs.hl7_messages())
def test_hostile_hl7(processor: NoteProcessor, raw: bytes) -> None:
    _check(processor, [raw], _count("hl7v2"))


@_settings(N)
@given(raw=hs.fhir_messages())
def test_hostile_fhir(processor: NoteProcessor, raw: bytes) -> None:
    _check(processor, [raw], _count("fhir"))


@_settings(N)
@given(raw=hs.envelope_messages())
def test_hostile_envelope(processor: NoteProcessor, raw: bytes) -> None:
    _check(processor, [raw], _count("json"))


@_settings(N)
@given(raw=st.one_of(hs.hl7_messages(hs.SENDABLE), hs.fhir_messages(hs.SENDABLE), hs.envelope_messages(hs.SENDABLE)))
def test_hostile_sendable_sizes(processor: NoteProcessor, raw: bytes) -> None:
    """Sizes a broker would deliver (300-900 kB huge fields): dead letters over 512 KiB are truncated."""
    fmt = sniff_format(raw)
    _check(processor, [raw], _count(fmt.value if fmt else "json"))


@_settings(N)
@given(raw=st.one_of(hs.hl7_messages(), hs.fhir_messages(), hs.envelope_messages()))
def test_hostile_any_format(processor: NoteProcessor, raw: bytes) -> None:
    fmt = sniff_format(raw)
    _check(processor, [raw], _count(fmt.value if fmt else "json"))


@_settings(300)
@given(
    hostile=st.lists(st.one_of(hs.hl7_messages(hs.SENDABLE), hs.fhir_messages(hs.SENDABLE), hs.envelope_messages(hs.SENDABLE)),
                     min_size=1, max_size=8),
    valid=st.lists(hs.envelope_docs(), min_size=1, max_size=4, unique_by=lambda d: d["id"]),
    data=st.data(),
)
def test_valid_notes_flow_between_hostile_ones(
    processor: NoteProcessor, hostile: list[bytes], valid: list[dict[str, object]], data: st.DataObject
) -> None:
    valid = [{**d, "id": f"valid-{d['id']}"} for d in valid]
    raws = [json.dumps(d).encode() for d in valid]
    mixed = data.draw(st.permutations(hostile + raws))
    records = _check(processor, mixed, OUTCOMES["json"])
    # Envelope ids are pseudonymized on output: find the valid notes by their output keys.
    keys = {processor.output_key(EventFormat.JSON, str(d["id"])) for d in valid}
    published = [json.loads(r.value)["text"] for r in records if r.topic == TOPICS.notes_out and r.key in keys]
    assert len(published) == len(valid)
    assert all(hs.CANARY_FAMILY not in t for t in published)


def test_parsers_survive_huge_inputs_under_a_raised_limit() -> None:
    """With the size guard lifted, the codecs themselves must cope with multi-megabyte fields in bounded time."""
    big = _processor(max_message_bytes=8 * hs.MiB, dead_letter_max_bytes=1024)
    tally: Counter[str] = Counter()

    @settings(deadline=10_000, database=None, max_examples=30, suppress_health_check=list(HealthCheck))
    @given(raw=st.one_of(
        st.deferred(lambda: st.sampled_from(hs.hl7_seeds())).flatmap(lambda r: hs.hl7_structural(r, hs.HUGE)),
        st.deferred(lambda: st.sampled_from(hs.fhir_seeds())).flatmap(lambda r: hs.json_structural(r, hs.HUGE)),
    ))
    def run(raw: bytes) -> None:
        _check(big, [raw], tally)

    run()


def test_dead_letter_payload_is_truncated_with_size_and_hash() -> None:
    processor = _processor(dead_letter_max_bytes=1000)
    raw = b"\xff" * 5000
    records, stats = asyncio.run(processor.process_batch([InputEvent(raw, "in", 3, 7)]))
    (dead,) = records
    headers = dict(dead.headers)
    assert dead.value == raw[:1000] and dead.key == b"in/3/7"
    assert headers["deid-error-code"] == b"format.unknown"
    assert headers["deid-truncated"] == b"true"
    assert headers["deid-original-size"] == b"5000"
    assert headers["deid-original-sha256"] == hashlib.sha256(raw).hexdigest().encode()


def test_too_large_input_and_note_are_dead_lettered() -> None:
    processor = _processor(max_message_bytes=10_000)
    big_message = json.dumps({"id": "a", "text": "x" * 20_000}).encode()
    # A short HL7 message whose escapes expand into a note longer than the limit.
    seed = hs.hl7_seeds()[0] if b"|ORU^" in hs.hl7_seeds()[0] else next(s for s in hs.hl7_seeds() if b"|ORU^" in s)
    bomb = seed + b"\rOBX|1|TX|N^N||" + b"\\.sp99\\" * 200
    assert len(bomb) < 10_000
    records, _ = asyncio.run(processor.process_batch([InputEvent(big_message, "in", 0, 0), InputEvent(bomb, "in", 0, 1)]))
    assert [dict(r.headers)["deid-error-code"] for r in records] == [b"too-large", b"too-large"]


class _ExplodingDetector:
    """Raises a non-dependency error for notes containing a trigger word: a poison message."""

    name = "exploding"

    def detect(self, note: object) -> list[Span]:
        if "POISON" in note.text:  # type: ignore[attr-defined]
            raise ZeroDivisionError("boom with note text POISON")
        return []


def test_a_poison_message_is_dead_lettered_alone_and_the_rest_of_the_batch_is_published() -> None:
    detection = DetectionPipeline([*build_detectors(["rules", "header"]), _ExplodingDetector()], None)  # type: ignore[list-item]
    processor = NoteProcessor(_pipeline(detection), InMemoryDemographics())
    raws = [json.dumps({"id": f"n{i}", "text": "POISON here" if i == 2 else f"Seen 03/0{i + 1}/2014."}).encode() for i in range(5)]
    records, stats = asyncio.run(processor.process_batch([InputEvent(r, "in", 0, i) for i, r in enumerate(raws)]))
    dead = [r for r in records if r.topic == TOPICS.dead_letter]
    assert stats.messages == 4 and stats.dead_letters == 1
    assert dead[0].key == b"in/0/2"
    headers = dict(dead[0].headers)
    assert headers["deid-error-code"] == b"internal-error"
    assert headers["deid-error-message"] == b"processing raised ZeroDivisionError"  # the type only, no text


class _FlakyTagger:
    """Fails the first batch-wide call with a bug, then the per-message retry with an outage."""

    model_version = "flaky"

    def __init__(self) -> None:
        self.calls = 0

    async def tag(self, texts: Sequence[str]) -> list[list[Span]]:
        self.calls += 1
        if self.calls == 1:
            raise RuntimeError("bug")
        raise TaggerUnavailable("down")

    async def close(self) -> None:
        return None


def test_an_outage_during_the_one_by_one_retry_still_fails_the_whole_batch_closed() -> None:
    processor = _processor(_FlakyTagger())
    raws = [json.dumps({"id": f"n{i}", "text": "ok"}).encode() for i in range(3)]
    with pytest.raises(DependencyUnavailable):
        asyncio.run(processor.process_batch([InputEvent(r, "in", 0, i) for i, r in enumerate(raws)]))


def test_poison_demographics_event_is_ignored_not_raised() -> None:
    processor = _processor()
    assert processor.parse_demographics(b'{"resourceType":"Patient","id":"p","name":"\\ud800"}') is None
    assert processor.parse_demographics(b"[" * 100_000) is None


def test_report_outcomes() -> None:
    """Runs last in this module: print the tallies (pytest -s) for the report."""
    for fmt, tally in OUTCOMES.items():
        print(f"\n{fmt}: {sum(tally.values())} outcomes: {dict(tally.most_common())}")
