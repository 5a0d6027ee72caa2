"""NoteProcessor without Kafka: dead letters, enrichment from demographics, fail-closed dependencies."""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest

from deid_core.detect.registry import build_detectors
from deid_core.pipeline import DetectionPipeline
from deid_core.surrogate.engine import Surrogator
from deid_core.surrogate.keys import HmacKey
from deid_core.surrogate.store import InMemoryMappingStore
from deid_core.tagger.base import TaggerUnavailable
from schemas import PatientHeader, PhiType, Span
from schemas.events import EventFormat, EventParseError, HeaderSurrogates, NoteText, ParsedMessage
from workers.processor import (
    DependencyUnavailable,
    InMemoryDemographics,
    InputEvent,
    NoteProcessor,
    TopicNames,
    sniff_format,
)

KEY = HmacKey(b"unit-test-secret-unit-test-secret", "v1")


class TinyEnvelope:
    """A minimal JSON codec for these tests: {"id", "text", "patient"?, "demographics"?}."""

    format = EventFormat.JSON

    def parse(self, raw: bytes) -> ParsedMessage:
        try:
            doc = json.loads(raw)
        except ValueError:
            raise EventParseError("json.decode", "not JSON") from None
        patient = PatientHeader.model_validate(doc["patient"]) if doc.get("patient") else None
        if doc.get("demographics"):
            return ParsedMessage(EventFormat.JSON, doc["id"], (), patient, None, demographics_only=True)
        return ParsedMessage(EventFormat.JSON, doc["id"], (NoteText(doc["id"], doc["text"]),), patient, doc.get("patient_ref"))

    def header_values(self, raw: bytes) -> list[tuple[PhiType, str]]:
        doc = json.loads(raw)
        patient = doc.get("patient") or {}
        ids = [patient["patient_id"]] if patient else []
        ids += [doc["patient_ref"]] if doc.get("patient_ref") else []
        return [(PhiType.PATIENT, n) for n in patient.get("names", [])] + [(PhiType.IDNUM, i) for i in ids]

    def render(self, raw: bytes, texts: Sequence[str], surrogates: HeaderSurrogates) -> bytes:
        doc = json.loads(raw)
        doc["text"] = texts[0]
        if doc.get("patient"):
            p = doc["patient"]
            p["names"] = [surrogates[(PhiType.PATIENT, n)] for n in p.get("names", [])]
            p["patient_id"] = surrogates[(PhiType.IDNUM, p["patient_id"])]
        if doc.get("patient_ref"):
            doc["patient_ref"] = surrogates[(PhiType.IDNUM, doc["patient_ref"])]
        return json.dumps(doc).encode()


class DownTagger:
    model_version = "down"

    async def tag(self, texts: Sequence[str]) -> list[list[Span]]:
        raise TaggerUnavailable("test: triton is down")

    async def close(self) -> None:
        return None


def _processor(tagger: object | None = None) -> NoteProcessor:
    detection = DetectionPipeline(build_detectors(["rules", "header"]), tagger)  # type: ignore[arg-type]
    return NoteProcessor(detection, Surrogator(InMemoryMappingStore(), KEY), KEY, [TinyEnvelope()], InMemoryDemographics(), TopicNames())


def _event(doc: dict[str, object] | bytes, offset: int = 0) -> InputEvent:
    raw = doc if isinstance(doc, bytes) else json.dumps(doc).encode()
    return InputEvent(raw, "deid.notes.in", 0, offset)


def test_sniff_format() -> None:
    assert sniff_format(b"MSH|^~\\&|") is EventFormat.HL7V2
    assert sniff_format(b'{"resourceType": "Bundle"}') is EventFormat.FHIR
    assert sniff_format(b'{"id": "x"}') is EventFormat.JSON
    assert sniff_format(b"\x00garbage") is None
    assert sniff_format(b"\xef\xbb\xbfMSH|") is EventFormat.HL7V2  # byte order mark


async def test_demographics_enrich_later_notes_and_nothing_phi_leaks() -> None:
    processor = _processor()
    adt = {"id": "adt1", "demographics": True, "patient": {"patient_id": "MRN777", "names": ["Zebulon Quackenbush"]}}
    note = {"id": "n1", "text": "Zebulon Quackenbush seen today; Quackenbush stable.", "patient_ref": "MRN777"}
    records, stats = await processor.process_batch([_event(adt, 0), _event(note, 1)])
    assert stats.demographics == 1 and stats.notes == 1 and stats.dead_letters == 0
    topics = [r.topic for r in records]
    assert topics == ["deid.demographics", "deid.notes.out", "deid.notes.json", "deid.audit"]
    for r in records[1:]:  # the demographics record carries the raw event to the internal demographics topic
        assert b"Quackenbush" not in r.value and b"Zebulon" not in r.value and b"MRN777" not in r.value
    audit = json.loads(records[-1].value)
    assert audit["replaced_by_type"]["PATIENT"] == 2 and audit["hmac_key_version"] == "v1"


async def test_bad_input_is_dead_lettered_and_the_batch_goes_on() -> None:
    processor = _processor()
    records, stats = await processor.process_batch(
        [_event(b"\x00\x01 not a message", 0), _event(b"{broken json", 1), _event({"id": "n2", "text": "ok"}, 2)]
    )
    dead = [r for r in records if r.topic == "deid.deadletter"]
    assert stats.dead_letters == 2 and len(dead) == 2
    codes = [dict(r.headers)["deid-error-code"] for r in dead]
    assert codes == [b"format.unknown", b"json.decode"]
    assert dead[0].value == b"\x00\x01 not a message"  # the input is kept, nothing accepted is lost
    assert any(r.topic == "deid.notes.out" for r in records)


async def test_output_keys_are_stable_across_redelivery() -> None:
    note = {"id": "n3", "text": "Seen 03/05/2014.", "patient": {"patient_id": "p9", "names": ["Ann Lee"]}}
    first, _ = await _processor().process_batch([_event(note)])
    second, _ = await _processor().process_batch([_event(note, 5)])
    assert [(r.topic, r.key, r.value) for r in first if r.topic != "deid.audit"] == [
        (r.topic, r.key, r.value) for r in second if r.topic != "deid.audit"
    ]


async def test_tagger_down_fails_the_whole_batch_closed() -> None:
    processor = _processor(DownTagger())
    with pytest.raises(DependencyUnavailable, match="tagger"):
        await processor.process_batch([_event({"id": "n4", "text": "Seen by Dr. Lee."})])
