"""JSON envelope codec: the CLI's note record ``{"id", "text", "patient"?}`` plus ``patient_ref`` / ``kind``.

Rendering edits the decoded JSON in place (key order and unknown-to-us formatting choices such as
ISO date strings are kept) and replaces each header value found by the same walk that
``header_values`` uses, so the two can never disagree about what is PHI.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from schemas.events import EventFormat, EventParseError, HeaderSurrogates, NoteText, ParsedMessage
from schemas.fhir import describe_fhir_validation_error, load_json_object
from schemas.patient import PatientHeader
from schemas.phi import PhiType


class EnvelopeRecord(BaseModel):
    """One JSON envelope event."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(min_length=1)
    text: str
    patient: PatientHeader | None = None
    patient_ref: str | None = Field(default=None, min_length=1)
    kind: str | None = Field(default=None, description="note kind as sent (e.g. 'discharge'); not PHI")


@dataclass(slots=True)
class _Slot:
    type: PhiType
    parent: dict[str, Any] | list[Any]
    key: str | int
    value: str
    """The value as the header model sees it (whitespace-stripped; dates in ISO form)."""


_ADDRESS_TYPES = (("city", PhiType.CITY), ("state", PhiType.STATE), ("zip", PhiType.ZIP), ("country", PhiType.COUNTRY))


def _list_slots(out: list[_Slot], parent: dict[str, Any], key: str, typ: PhiType) -> None:
    values = parent.get(key)
    if isinstance(values, list):
        for i, v in enumerate(values):
            if isinstance(v, str):
                out.append(_Slot(typ, values, i, v.strip()))


def _slots(obj: dict[str, Any], record: EnvelopeRecord) -> list[_Slot]:
    """PHI slots of a validated envelope, walking the raw JSON beside its model."""
    out: list[_Slot] = []
    raw_patient = obj.get("patient")
    header = record.patient
    if header is not None and isinstance(raw_patient, dict):
        out.append(_Slot(PhiType.IDNUM, raw_patient, "patient_id", header.patient_id))
        _list_slots(out, raw_patient, "names", PhiType.PATIENT)
        if header.mrn is not None:
            out.append(_Slot(PhiType.MEDICALRECORD, raw_patient, "mrn", header.mrn))
        raw_ids = raw_patient.get("identifiers")
        if isinstance(raw_ids, list):
            for raw_ident, ident in zip(raw_ids, header.identifiers, strict=True):
                out.append(_Slot(ident.type, raw_ident, "value", ident.value))
        if header.birth_date is not None:
            out.append(_Slot(PhiType.DATE, raw_patient, "birth_date", header.birth_date.isoformat()))
        raw_addr = raw_patient.get("address")
        if header.address is not None and isinstance(raw_addr, dict):
            _list_slots(out, raw_addr, "street", PhiType.STREET)
            for key, typ in _ADDRESS_TYPES:
                value = getattr(header.address, key)
                if value:
                    out.append(_Slot(typ, raw_addr, key, value))
        _list_slots(out, raw_patient, "phones", PhiType.PHONE)
        _list_slots(out, raw_patient, "emails", PhiType.EMAIL)
        _list_slots(out, raw_patient, "next_of_kin", PhiType.PATIENT)
        _list_slots(out, raw_patient, "doctors", PhiType.DOCTOR)
    if record.patient_ref is not None:
        out.append(_Slot(PhiType.IDNUM, obj, "patient_ref", record.patient_ref))
    return [s for s in out if s.value]


class EnvelopeCodec:
    """``MessageCodec`` for the JSON envelope."""

    format = EventFormat.JSON

    def _load(self, raw: bytes) -> tuple[dict[str, Any], EnvelopeRecord]:
        obj = load_json_object(raw, "json.decode")
        try:
            return obj, EnvelopeRecord.model_validate(obj)
        except ValidationError as exc:
            # Not schemas.jsonl.describe_validation_error: its pydantic messages can quote the input
            # (e.g. PhiType.parse's "unknown PHI type 'x'"); this one reports locations and error types.
            raise EventParseError("json.invalid", describe_fhir_validation_error(exc)) from None

    def parse(self, raw: bytes) -> ParsedMessage:
        _, record = self._load(raw)
        patient_ref = record.patient_ref or (record.patient.patient_id if record.patient else None)
        return ParsedMessage(
            format=EventFormat.JSON,
            message_id=record.id,
            notes=(NoteText(record.id, record.text),),
            patient=record.patient,
            patient_ref=patient_ref,
        )

    def header_values(self, raw: bytes) -> list[tuple[PhiType, str]]:
        obj, record = self._load(raw)
        return list(dict.fromkeys((s.type, s.value) for s in _slots(obj, record)))

    def render(self, raw: bytes, texts: Sequence[str], surrogates: HeaderSurrogates) -> bytes:
        obj, record = self._load(raw)
        if len(texts) != 1:
            raise ValueError(f"expected 1 note text, got {len(texts)}")
        slots = _slots(obj, record)
        replacements = [surrogates[(s.type, s.value)] for s in slots]
        for slot, surrogate in zip(slots, replacements, strict=True):
            slot.parent[slot.key] = surrogate  # type: ignore[index]
        obj["text"] = texts[0]
        return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
