"""FHIR R4 JSON as a ``LoadedMessage``: any resource type, any Bundle, contained resources included.

Loading validates the whole document with the R4B models, then walks it once (``tree``): every
primitive value of every element becomes a ``Leaf`` whose kind comes from the element's FHIR type.
Notes are the free text the message exists to carry, and are not leaves:

- DocumentReference.content.attachment with inline ``text/plain`` data,
- DiagnosticReport.presentedForm with inline ``text/plain`` data, then DiagnosticReport.conclusion,

of the top-level resource or of the top-level Bundle's entries (note ids ``{resource id}:{i}``, the
entry's ``fullUrl`` standing in for a missing id). Other attachments, and notes of contained or
nested resources, are leaves like any other value (text ones decoded by their charset).

Rendering writes the notes back, applies the decisions (removed elements disappear with whatever
they leave empty; a required element they removed is replaced by the standard data-absent-reason
``masked``), drops narratives, then validates the result with the same models: a document the
decisions made invalid is refused (``fhir.render_invalid``) rather than sent. The output keeps the
input's key order, so a message whose leaves are all kept comes back JSON-equal but for narratives.

The patient header comes from the one Patient of the message (two are an error), else from the
first literal Patient reference in a ``subject``/``patient`` element; without either, names in
subject displays and clinician displays are still evidence, under a scope of the message's own.
Either way it also carries the people the message names elsewhere (``header.evidence``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from deid_core.message.fhir import attachment, header, refs, removals, schema, specs, tree
from deid_core.message.fhir.load import load_json_object, validate_resource
from schemas.events import EventFormat, EventParseError, NoteText
from schemas.message import Leaf, LeafSpec
from schemas.patient import PatientHeader

NOTE_RESOURCES = ("DocumentReference", "DiagnosticReport")


@dataclass(slots=True)
class _Note:
    note_id: str
    text: str
    holder: dict[str, Any]
    """The attachment to re-encode, or the DiagnosticReport whose ``conclusion`` this is."""
    charset: str | None
    """The attachment's charset; None for a conclusion."""


@dataclass(slots=True)
class _Top:
    """A resource of the message proper: the top-level resource, or an entry of a top-level Bundle."""

    obj: dict[str, Any]
    full_url: str | None

    @property
    def type(self) -> str:
        return str(self.obj.get("resourceType"))

    def key(self) -> str | None:
        rid = self.obj.get("id")
        if isinstance(rid, str) and rid:
            return rid
        return self.full_url or None


@dataclass(slots=True, eq=False)
class LoadedFhirMessage:
    """One FHIR message, parsed once. ``leaves()`` and ``render`` share the one JSON tree."""

    obj: dict[str, Any]
    message_id: str
    notes: tuple[NoteText, ...]
    patient: PatientHeader | None
    patient_ref: str | None
    demographics_only: bool
    _leaves: list[Leaf]
    _notes: list[_Note]
    _narratives: list[tuple[dict[str, Any], str]]
    _payloads: list[tree.Payload]
    _extensions: set[int]
    _required: list[removals.Required]
    format: EventFormat = field(default=EventFormat.FHIR)

    def leaves(self) -> list[Leaf]:
        return self._leaves

    def render(self, note_texts: Sequence[str]) -> bytes:
        if len(note_texts) != len(self._notes):
            raise ValueError(f"expected {len(self._notes)} note texts, got {len(note_texts)}")
        undecided = sum(1 for leaf in self._leaves if not leaf.decided)
        if undecided:
            raise RuntimeError(f"{undecided} values were not decided by the policy")
        for note, text in zip(self._notes, note_texts, strict=True):
            if text == note.text:
                continue  # unchanged: the payload, its size and its hash stay as sent
            if note.charset is None:
                note.holder["conclusion"] = text
            else:
                attachment.write_text(note.holder, text, note.charset)
        for payload in self._payloads:
            attachment.refresh_derived(payload.obj, payload.size)
        for parent, key in self._narratives:
            if key in parent:
                parent[key] = removals.REMOVED
        try:
            removals.apply_removals(self.obj, self._extensions, self._required)
            validate_resource(self.obj, "fhir.render_invalid")
            return json.dumps(self.obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        except RecursionError:
            raise EventParseError("fhir.render_invalid", "nesting too deep") from None


class FhirLoader:
    """``MessageLoader`` for FHIR R4 JSON (validated with the fhir.resources R4B models)."""

    format = EventFormat.FHIR

    def load(self, raw: bytes) -> LoadedFhirMessage:
        obj = load_json_object(raw, "fhir.json")
        validate_resource(obj)
        try:
            return _build(obj)
        except RecursionError:
            raise EventParseError("fhir.invalid", "nesting too deep") from None

    @staticmethod
    def resource_types() -> list[str]:
        return resource_types()

    @staticmethod
    def element_specs(resource_type: str) -> list[LeafSpec]:
        return element_specs(resource_type)


def resource_types() -> list[str]:
    """Every concrete R4B resource type the loader accepts."""
    return list(schema.resource_types())


def element_specs(resource_type: str) -> list[LeafSpec]:
    """Every element path of ``resource_type`` down to primitives, depth-bounded (see ``specs``)."""
    return list(specs.element_specs(resource_type))


def _tops(obj: dict[str, Any]) -> list[_Top]:
    if obj.get("resourceType") != "Bundle":
        return [_Top(obj, None)]
    tops = []
    for entry in obj.get("entry") or []:
        res = entry.get("resource") if isinstance(entry, dict) else None
        if isinstance(res, dict):
            full_url = entry.get("fullUrl")
            tops.append(_Top(res, full_url if isinstance(full_url, str) and full_url else None))
    return tops


def _dicts(v: object) -> list[dict[str, Any]]:
    return [x for x in v if isinstance(x, dict)] if isinstance(v, list) else []


def _collect_notes(tops: list[_Top], skip: set[tuple[int, str]]) -> list[_Note]:
    notes: list[_Note] = []
    for ri, top in enumerate(tops):
        if top.type not in NOTE_RESOURCES:
            continue
        found: list[tuple[str, dict[str, Any], str | None]] = []
        if top.type == "DocumentReference":
            atts = [a for c in _dicts(top.obj.get("content")) if isinstance(a := c.get("attachment"), dict)]
        else:
            atts = _dicts(top.obj.get("presentedForm"))
        for ai, att in enumerate(atts):
            decoded = attachment.decode_note(att, f"resource {ri} attachment {ai}")
            if decoded is not None:
                found.append((decoded[0], att, decoded[1]))
                # The payload is the note; size and hash are rewritten from it on render.
                skip.update({(id(att), "data"), (id(att), "size"), (id(att), "hash")})
        conclusion = top.obj.get("conclusion") if top.type == "DiagnosticReport" else None
        if isinstance(conclusion, str) and conclusion.strip():
            found.append((conclusion, top.obj, None))
            skip.add((id(top.obj), "conclusion"))
        if not found:
            continue
        key = top.key()
        if key is None:
            raise EventParseError("fhir.missing_id", f"resource {ri} ({top.type}) has no id and no fullUrl")
        notes += [_Note(f"{key}:{i}", text, holder, charset) for i, (text, holder, charset) in enumerate(found)]
    return notes


def _message_id(obj: dict[str, Any]) -> str:
    rid = obj.get("id")
    if not isinstance(rid, str) or not rid:
        raise EventParseError("fhir.missing_id", f"top-level {obj['resourceType']} has no id")
    if obj["resourceType"] == "Patient":
        # A Patient's id is the source system's patient key (PHI): ids travel to logs and metrics.
        return "Patient-" + hashlib.sha256(rid.encode()).hexdigest()[:16]
    return rid


def _patient(tops: list[_Top], message_id: str, found: header.Evidence) -> tuple[PatientHeader | None, str | None]:
    patients = [t for t in tops if t.type == "Patient"]
    if len(patients) > 1:
        raise EventParseError("fhir.invalid", f"message holds {len(patients)} Patient resources; expected at most 1")
    others = [t.obj for t in tops if t.type != "Patient"]
    doctors = header.dedupe(header.doctors(others) + found.doctors)
    if patients:
        pat = patients[0]
        rid = pat.obj.get("id")
        # The key is the id the leaves carry: the resource id, else the id inside the entry's fullUrl,
        # so the patient's id, fullUrl and references all become the patient pseudonym.
        patient_id = rid if isinstance(rid, str) and rid else refs.split_full_url(pat.full_url).value if pat.full_url else None
        if not patient_id:
            raise EventParseError("fhir.missing_id", "Patient has no id and no fullUrl")
        return header.patient_header(pat.obj, patient_id, found, doctors), patient_id
    patient_ref = next((ref for o in others if (ref := header.subject_patient_id(o)) is not None), None)
    names = header.dedupe(header.subject_displays(others) + found.patient_names)
    if patient_ref is not None:
        return PatientHeader(patient_id=patient_ref, names=names, next_of_kin=found.relatives, doctors=doctors), patient_ref
    if names or doctors or found.relatives:
        # A subject that is no Patient reference (a Group, a contained or broken reference) still
        # names people: they are detection evidence for this message alone, under a scope of its own.
        scope = "fhir-message-" + hashlib.sha256(message_id.encode()).hexdigest()[:16]
        return PatientHeader(patient_id=scope, names=names, next_of_kin=found.relatives, doctors=doctors), None
    return None, None


def _build(obj: dict[str, Any]) -> LoadedFhirMessage:
    tops = _tops(obj)
    message_id = _message_id(obj)
    skip: set[tuple[int, str]] = set()
    notes = _collect_notes(tops, skip)
    builder = tree.TreeBuilder(skip)
    builder.resource(obj)
    patient, patient_ref = _patient(tops, message_id, header.evidence(builder.resources, builder.references))
    return LoadedFhirMessage(
        obj=obj,
        message_id=message_id,
        notes=tuple(NoteText(n.note_id, n.text) for n in notes),
        patient=patient,
        patient_ref=patient_ref,
        demographics_only=len(tops) == 1 and tops[0].type == "Patient",
        _leaves=builder.leaves,
        _notes=notes,
        _narratives=builder.narratives,
        _payloads=builder.payloads,
        _extensions=builder.extensions,
        _required=builder.required,
    )
