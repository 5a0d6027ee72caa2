"""JSON envelope loader: ``{"id", "text", "patient"?, "patient_ref"?, "kind"?}`` as a ``LoadedMessage``.

The envelope's keys are fixed by ``EnvelopeRecord`` (unknown keys are refused), so every value has a
known kind: the header's fields by their meaning, ``id`` and ``patient_ref`` identifiers, ``kind`` a
code. ``text`` is the one note. A value decided ``None`` is deleted from its object or list.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from deid_core.message.fhir.load import describe_fhir_validation_error, load_json_object
from schemas.events import EventFormat, EventParseError, NoteText
from schemas.message import Kind, Leaf, Role
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


# key -> (kind, PHI type, datatype, role) for the scalar or list-of-scalar keys of the patient object.
_PATIENT_KEYS: dict[str, tuple[Kind, PhiType | None, str, Role]] = {
    "patient_id": (Kind.IDENTIFIER, PhiType.IDNUM, "string", Role.PATIENT_ID),
    "names": (Kind.NAME, PhiType.PATIENT, "string", Role.NONE),
    "mrn": (Kind.IDENTIFIER, PhiType.MEDICALRECORD, "string", Role.NONE),
    "birth_date": (Kind.DATE, None, "date", Role.BIRTH_DATE),
    "sex": (Kind.CODE, None, "string", Role.NONE),
    "phones": (Kind.CONTACT, PhiType.PHONE, "string", Role.NONE),
    "emails": (Kind.CONTACT, PhiType.EMAIL, "string", Role.NONE),
    "next_of_kin": (Kind.NAME, PhiType.PATIENT, "string", Role.NONE),
    "doctors": (Kind.NAME, PhiType.DOCTOR, "string", Role.NONE),
}
_ADDRESS_KEYS: dict[str, PhiType] = {
    "street": PhiType.STREET, "city": PhiType.CITY, "state": PhiType.STATE, "zip": PhiType.ZIP,
    "country": PhiType.COUNTRY,
}  # fmt: skip


@dataclass(slots=True)
class _Removal:
    parent: dict[str, Any] | list[Any]
    key: str | int


@dataclass(slots=True)
class LoadedEnvelope:
    obj: dict[str, Any]
    record: EnvelopeRecord
    format: EventFormat = EventFormat.JSON
    demographics_only: bool = False
    _leaves: list[Leaf] = field(default_factory=list)
    _removals: list[_Removal] = field(default_factory=list)

    @property
    def message_id(self) -> str:
        return self.record.id

    @property
    def notes(self) -> tuple[NoteText, ...]:
        return (NoteText(self.record.id, self.record.text),)

    @property
    def patient(self) -> PatientHeader | None:
        return self.record.patient

    @property
    def patient_ref(self) -> str | None:
        return self.record.patient_ref or (self.record.patient.patient_id if self.record.patient else None)

    def leaves(self) -> list[Leaf]:
        return self._leaves

    def render(self, note_texts: Sequence[str]) -> bytes:
        if len(note_texts) != 1:
            raise ValueError(f"expected 1 note text, got {len(note_texts)}")
        undecided = sum(1 for leaf in self._leaves if not leaf.decided)
        if undecided:
            raise RuntimeError(f"{undecided} values were not decided by the policy")
        # Delete right to left so list indexes stay valid.
        for removal in sorted(self._removals, key=lambda r: r.key if isinstance(r.key, int) else -1, reverse=True):
            if isinstance(removal.parent, list):
                del removal.parent[removal.key]  # type: ignore[arg-type]
            else:
                removal.parent.pop(removal.key, None)  # type: ignore[arg-type]
        self.obj["text"] = note_texts[0]
        return json.dumps(self.obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")

    # -- building leaves ------------------------------------------------------------------------------

    def _setter(self, parent: dict[str, Any] | list[Any], key: str | int) -> Callable[[str | None], None]:
        def set_value(new: str | None) -> None:
            if new is None:
                self._removals.append(_Removal(parent, key))
            else:
                parent[key] = new  # type: ignore[index]

        return set_value

    def _add(self, parent: dict[str, Any] | list[Any], key: str | int, path: str, spec: tuple[Kind, PhiType | None, str, Role]) -> None:
        value = parent[key]  # type: ignore[index]
        if not isinstance(value, str) or not value.strip():
            return
        kind, phi_type, datatype, role = spec
        self._leaves.append(Leaf(path, kind, value, phi_type, datatype, (), role, setter=self._setter(parent, key)))

    def _add_key(self, parent: dict[str, Any], key: str, path: str, spec: tuple[Kind, PhiType | None, str, Role]) -> None:
        value = parent.get(key)
        if isinstance(value, list):
            for i in range(len(value)):
                self._add(value, i, path, spec)
        elif value is not None:
            self._add(parent, key, path, spec)

    def build(self) -> LoadedEnvelope:
        self._add_key(self.obj, "id", "$.id", (Kind.IDENTIFIER, PhiType.IDNUM, "string", Role.NONE))
        self._add_key(self.obj, "patient_ref", "$.patient_ref", (Kind.IDENTIFIER, PhiType.IDNUM, "string", Role.PATIENT_ID))
        self._add_key(self.obj, "kind", "$.kind", (Kind.CODE, None, "string", Role.NONE))
        patient = self.obj.get("patient")
        if not isinstance(patient, dict):
            return self
        for key, spec in _PATIENT_KEYS.items():
            self._add_key(patient, key, f"$.patient.{key}", spec)
        for ident in patient.get("identifiers") or []:
            if isinstance(ident, dict):
                typ = PhiType.parse(ident["type"]) if isinstance(ident.get("type"), str) else PhiType.IDNUM
                self._add_key(ident, "value", "$.patient.identifiers.value", (Kind.IDENTIFIER, typ, "string", Role.NONE))
                self._add_key(ident, "type", "$.patient.identifiers.type", (Kind.CODE, None, "string", Role.NONE))
                self._add_key(ident, "system", "$.patient.identifiers.system", (Kind.CODE, None, "string", Role.NONE))
        address = patient.get("address")
        if isinstance(address, dict):
            for key, typ in _ADDRESS_KEYS.items():
                self._add_key(address, key, f"$.patient.address.{key}", (Kind.ADDRESS, typ, "string", Role.NONE))
        return self


class EnvelopeLoader:
    """``MessageLoader`` for the JSON envelope."""

    format = EventFormat.JSON

    def load(self, raw: bytes) -> LoadedEnvelope:
        obj = load_json_object(raw, "json.decode")
        try:
            record = EnvelopeRecord.model_validate(obj)
        except ValidationError as exc:
            # Locations and error types only: pydantic's messages can quote the input.
            raise EventParseError("json.invalid", describe_fhir_validation_error(exc, EnvelopeRecord, obj)) from None
        return LoadedEnvelope(obj, record).build()
