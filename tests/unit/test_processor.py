"""NoteProcessor without Kafka: dead letters, enrichment from demographics, fail-closed dependencies."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest

from deid_core.detect.registry import build_detectors
from deid_core.message.path import MessagePipeline
from deid_core.message.policy import shipped_policy
from deid_core.pipeline import DetectionPipeline
from deid_core.surrogate.engine import Surrogator
from deid_core.surrogate.keys import HmacKey
from deid_core.surrogate.store import InMemoryMappingStore
from deid_core.tagger.base import TaggerUnavailable
from schemas import PatientHeader, PhiType, Span
from schemas.events import EventFormat, EventParseError, NoteText
from schemas.message import Kind, Leaf
from workers.processor import (
    DependencyUnavailable,
    InMemoryDemographics,
    InputEvent,
    NoteProcessor,
    TopicNames,
    sniff_format,
)

KEY = HmacKey(b"unit-test-secret-unit-test-secret", "v1")


class TinyMessage:
    """{"id", "text", "patient"?, "patient_ref"?, "demographics"?} as a LoadedMessage: names and ids are leaves."""

    format = EventFormat.JSON

    def __init__(self, doc: dict[str, Any]) -> None:
        self.doc = doc
        self.message_id = doc["id"]
        self.patient = PatientHeader.model_validate(doc["patient"]) if doc.get("patient") else None
        self.demographics_only = bool(doc.get("demographics"))
        self.notes = () if self.demographics_only else (NoteText(doc["id"], doc["text"]),)
        self.patient_ref = doc.get("patient_ref") or (self.patient.patient_id if self.patient else None)
        self._leaves: list[Leaf] = []
        patient = doc.get("patient") or {}
        for i in range(len(patient.get("names", []))):
            self._leaves.append(self._leaf("$.patient.names", Kind.NAME, PhiType.PATIENT, patient["names"], i))
        if patient:
            self._leaves.append(self._leaf("$.patient.patient_id", Kind.IDENTIFIER, PhiType.IDNUM, patient, "patient_id"))
        if doc.get("patient_ref"):
            self._leaves.append(self._leaf("$.patient_ref", Kind.IDENTIFIER, PhiType.IDNUM, doc, "patient_ref"))

    @staticmethod
    def _leaf(path: str, kind: Kind, phi: PhiType, parent: Any, key: Any) -> Leaf:
        def setter(new: str | None) -> None:
            parent[key] = new

        return Leaf(path, kind, parent[key], phi, "string", setter=setter)

    def leaves(self) -> list[Leaf]:
        return self._leaves

    def render(self, note_texts: Sequence[str]) -> bytes:
        assert all(leaf.decided for leaf in self._leaves)
        self.doc["text"] = note_texts[0] if note_texts else None
        return json.dumps(self.doc).encode()


class TinyLoader:
    format = EventFormat.JSON

    def load(self, raw: bytes) -> TinyMessage:
        try:
            return TinyMessage(json.loads(raw))
        except ValueError:
            raise EventParseError("json.decode", "not JSON") from None


class DownTagger:
    model_version = "down"

    async def tag(self, texts: Sequence[str]) -> list[list[Span]]:
        raise TaggerUnavailable("test: triton is down")

    async def close(self) -> None:
        return None


def _processor(tagger: object | None = None) -> NoteProcessor:
    detection = DetectionPipeline(build_detectors(["rules", "header"]), tagger)  # type: ignore[arg-type]
    pipeline = MessagePipeline(detection, Surrogator(InMemoryMappingStore(), KEY), shipped_policy("surrogate"), [TinyLoader()])
    return NoteProcessor(pipeline, InMemoryDemographics(), TopicNames())


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
