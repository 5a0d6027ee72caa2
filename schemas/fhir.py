"""FHIR R4 codec: notes in DocumentReference / DiagnosticReport, the patient header in Patient.

Model choice: fhir.resources 8 ships R5 at the top level plus ``R4B`` and ``STU3`` subpackages and no
pure R4 package. R4B is R4 with corrections that do not touch Patient, DocumentReference,
DiagnosticReport or Bundle on the wire, so R4 documents are validated with the ``fhir.resources.R4B``
classes.

The models are used to *reject* malformed resources; everything else works on the decoded JSON itself so
that values are reported exactly as they appear and rendering keeps the input's key order. Reading
(``header_values``) and writing (``render``) enumerate the same PHI slots, so every value that is
reported is also replaced.

What rendering changes besides the listed values, and why:

* ``attachment.size`` is recomputed and ``attachment.hash`` dropped: the hash of the original bytes
  would no longer match (and a hash of a short note is itself a confirmation oracle for guesses).
* A text attachment whose new text does not fit its declared charset is re-encoded as UTF-8 and its
  ``contentType`` charset updated, rather than failing on a valid message.
* Narratives (``text``) are dropped: their XHTML repeats header PHI in free form that is not scanned.
* Attachments that are not inline ``text/plain`` (PDFs, images, URLs) are dropped: nothing inspects them.
* ``contained`` resources and entry types other than Patient / DocumentReference / DiagnosticReport are
  refused (``fhir.unsupported_resource``) instead of being passed through unscanned.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from schemas.events import EventFormat, EventParseError, HeaderSurrogates, NoteText, ParsedMessage
from schemas.patient import Address, Identifier, PatientHeader
from schemas.phi import PhiType

NOTE_RESOURCES = ("DocumentReference", "DiagnosticReport")
BUNDLE_ENTRY_RESOURCES = ("Patient", *NOTE_RESOURCES)
BUNDLE_TYPES = ("collection", "transaction", "batch", "document", "message")

# HL7 v2 table 0203 identifier type codes, as used in Identifier.type.coding.
IDENTIFIER_TYPES: dict[str, PhiType] = {
    "MR": PhiType.MEDICALRECORD,
    "SS": PhiType.SSN,
    "SB": PhiType.SSN,
    "AN": PhiType.ACCOUNT,
    "MB": PhiType.HEALTHPLAN,
    "SN": PhiType.HEALTHPLAN,
    "DL": PhiType.LICENSE,
}

# Telecom systems the patient header files under phones; "email" goes to emails, "url" to neither.
_TELECOM_TYPES: dict[str, PhiType] = {
    "phone": PhiType.PHONE,
    "pager": PhiType.PHONE,
    "sms": PhiType.PHONE,
    "other": PhiType.PHONE,
    "fax": PhiType.FAX,
    "email": PhiType.EMAIL,
    "url": PhiType.URL,
}

# A literal reference to a Patient: relative ("Patient/123"), absolute or versioned.
_PATIENT_REF = re.compile(r"^(?P<prefix>(?:.*/)?Patient/)(?P<id>[A-Za-z0-9\-.]{1,64})(?P<suffix>/_history/[A-Za-z0-9\-.]{1,64})?$")
_B64_WHITESPACE = re.compile(rb"\s+")
# Loc parts safe to print: FHIR element names. Anything else (a key the sender invented) is redacted.
_SAFE_LOC = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")
_MAX_REPORTED_ERRORS = 5
# A JSON \\u escape of a UTF-16 surrogate (D800-DFFF); paired ones decode to one character, lone ones do not.
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _error(code: str, message: str) -> EventParseError:
    return EventParseError(code, message)


def describe_fhir_validation_error(err: ValidationError) -> str:
    """Locations and error types only: fhir_core's (and custom validators') messages can quote the value."""
    parts = []
    errors = err.errors(include_input=False, include_url=False, include_context=False)
    for e in errors[:_MAX_REPORTED_ERRORS]:
        loc = list(e["loc"])
        if e["type"] == "extra_forbidden" and loc:
            loc[-1] = "<unknown field>"
        shown = [str(p) if isinstance(p, int) or _SAFE_LOC.match(str(p)) else "<redacted>" for p in loc]
        parts.append(f"field '{'.'.join(shown) or 'resource'}': {e['type']}")
    if len(errors) > _MAX_REPORTED_ERRORS:
        parts.append(f"and {len(errors) - _MAX_REPORTED_ERRORS} more")
    return "; ".join(parts)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def load_json_object(raw: bytes, code: str) -> dict[str, Any]:
    """Strict UTF-8 JSON object; errors carry positions, never content."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _error(code, f"not valid UTF-8 (byte offset {exc.start})") from None
    try:
        obj = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise _error(code, f"invalid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None
    except (ValueError, RecursionError):
        raise _error(code, "invalid JSON (non-standard constant or nesting too deep)") from None
    if not isinstance(obj, dict):
        raise _error(code, f"expected a JSON object, got {type(obj).__name__}")
    if _SURROGATE_ESCAPE.search(raw) and _has_lone_surrogate(obj):
        # json.loads accepts "\\ud800"; such a string cannot be encoded to UTF-8 on output.
        raise _error(code, "invalid JSON (unpaired UTF-16 surrogate escape)")
    return obj


def _has_lone_surrogate(obj: object) -> bool:
    stack = [obj]
    while stack:  # iterative: the document may be nested as deep as json.loads allows
        node = stack.pop()
        if isinstance(node, dict):
            stack.extend(node.keys())
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, str):
            try:
                node.encode("utf-8")
            except UnicodeEncodeError:
                return True
    return False


def _model_class(resource_type: str) -> Any:
    # Imported lazily: loading fhir.resources costs ~1 s and only FHIR workers need it.
    from fhir.resources.R4B import get_fhir_model_class

    return get_fhir_model_class(resource_type)


def _validate_model(obj: dict[str, Any]) -> None:
    try:
        _model_class(obj["resourceType"]).model_validate(obj)
    except ValidationError as exc:
        errors = exc.errors(include_input=False, include_url=False, include_context=False)
        if errors and all(e["type"] == "base64_decode" for e in errors):
            raise _error("fhir.base64", describe_fhir_validation_error(exc)) from None
        raise _error("fhir.invalid", describe_fhir_validation_error(exc)) from None
    except (RecursionError, KeyError, TypeError, AttributeError, ValueError) as exc:
        # fhir_core raises bare KeyError/TypeError for some shapes instead of a ValidationError.
        raise _error("fhir.invalid", f"model validation failed ({type(exc).__name__})") from None


# ---------------------------------------------------------------------------------------------------
# The loaded document: resources, note slots and PHI slots


@dataclass(slots=True)
class _Slot:
    """One PHI string inside the JSON tree; for references, ``value`` is the id inside the URL."""

    type: PhiType
    parent: dict[str, Any] | list[Any]
    key: str | int
    value: str
    prefix: str = ""
    suffix: str = ""

    def replace(self, surrogate: str) -> None:
        self.parent[self.key] = f"{self.prefix}{surrogate}{self.suffix}"  # type: ignore[index]


@dataclass(slots=True)
class _NoteSlot:
    note_id: str
    text: str
    attachment: dict[str, Any] | None
    """The attachment to re-encode, or None for DiagnosticReport.conclusion."""
    charset: str
    resource: dict[str, Any]


@dataclass(slots=True)
class _Resource:
    obj: dict[str, Any]
    full_url: str | None

    @property
    def type(self) -> str:
        return str(self.obj["resourceType"])

    def key(self) -> str | None:
        rid = self.obj.get("id")
        if isinstance(rid, str) and rid:
            return rid
        return self.full_url or None


@dataclass(slots=True)
class _Document:
    obj: dict[str, Any]
    resources: list[_Resource]
    notes: list[_NoteSlot] = field(default_factory=list)
    dropped: list[tuple[list[Any], dict[str, Any]]] = field(default_factory=list)
    """(list, element) pairs removed on render: non-text attachments."""


def _str(v: object) -> str | None:
    return v if isinstance(v, str) and v.strip() else None


def _strings(v: object) -> list[str]:
    return [x.strip() for x in v if isinstance(x, str) and x.strip()] if isinstance(v, list) else []


def _dicts(v: object) -> list[dict[str, Any]]:
    return [x for x in v if isinstance(x, dict)] if isinstance(v, list) else []


def _dict(v: object) -> dict[str, Any] | None:
    return v if isinstance(v, dict) else None


def _load(raw: bytes) -> _Document:
    obj = load_json_object(raw, "fhir.json")
    rtype = obj.get("resourceType")
    if not isinstance(rtype, str):
        raise _error("fhir.invalid", "field 'resourceType': missing")
    resources: list[_Resource] = []
    if rtype == "Bundle":
        if obj.get("type") not in BUNDLE_TYPES:
            raise _error("fhir.unsupported_resource", f"Bundle.type must be one of {', '.join(BUNDLE_TYPES)}")
        entries = obj.get("entry", [])
        if not isinstance(entries, list):
            raise _error("fhir.invalid", "field 'entry': list_type")
        for i, entry in enumerate(entries):
            res = _dict(entry.get("resource")) if isinstance(entry, dict) else None
            if res is None:
                raise _error("fhir.invalid", f"field 'entry.{i}.resource': missing")
            if res.get("resourceType") not in BUNDLE_ENTRY_RESOURCES:
                raise _error("fhir.unsupported_resource", f"entry {i}: only {', '.join(BUNDLE_ENTRY_RESOURCES)} are supported in a Bundle")
            full_url = entry.get("fullUrl")
            resources.append(_Resource(res, full_url if isinstance(full_url, str) and full_url else None))
    elif rtype in BUNDLE_ENTRY_RESOURCES:
        resources.append(_Resource(obj, None))
    else:
        raise _error("fhir.unsupported_resource", "expected Patient, DocumentReference, DiagnosticReport or Bundle")
    for i, res in enumerate(resources):
        if res.obj.get("contained"):
            raise _error("fhir.unsupported_resource", f"resource {i}: contained resources are not supported")
    _validate_model(obj)
    doc = _Document(obj, resources)
    _collect_notes(doc)
    return doc


def _charset(content_type: str) -> tuple[str, str]:
    """(media type, charset) of an attachment, charset defaulting to UTF-8."""
    media, *params = (p.strip() for p in content_type.split(";"))
    charset = "utf-8"
    for p in params:
        name, _, value = p.partition("=")
        if name.strip().lower() == "charset":
            charset = value.strip().strip('"').strip("'")
    return media.lower(), charset


def _decode_attachment(att: dict[str, Any], where: str) -> tuple[str, str] | None:
    """(text, charset) of an inline text/plain attachment; None for any other attachment."""
    ctype, data = att.get("contentType"), att.get("data")
    if not isinstance(ctype, str) or not isinstance(data, str):
        return None
    media, charset = _charset(ctype)
    if media != "text/plain":
        return None
    try:
        codecs.lookup(charset)
    except LookupError:
        raise _error("fhir.charset", f"{where}: unknown charset") from None
    try:
        payload = base64.b64decode(_B64_WHITESPACE.sub(b"", data.encode("ascii")), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError):
        raise _error("fhir.base64", f"{where}: attachment data is not valid base64") from None
    try:
        return payload.decode(charset), charset
    except UnicodeDecodeError as exc:
        raise _error("fhir.charset", f"{where}: attachment data is not valid in its charset (byte offset {exc.start})") from None


def _collect_notes(doc: _Document) -> None:
    for ri, res in enumerate(doc.resources):
        if res.type not in NOTE_RESOURCES:
            continue
        key = res.key()
        if key is None:
            raise _error("fhir.missing_id", f"resource {ri} ({res.type}) has no id and no fullUrl")
        count = 0
        if res.type == "DocumentReference":
            holders = [(c, _dict(c.get("attachment"))) for c in _dicts(res.obj.get("content"))]
            container = res.obj.get("content")
        else:
            holders = [(a, a) for a in _dicts(res.obj.get("presentedForm"))]
            container = res.obj.get("presentedForm")
        for ai, (holder, att) in enumerate(holders):
            decoded = _decode_attachment(att, f"resource {ri} attachment {ai}") if att is not None else None
            if decoded is None:
                assert isinstance(container, list)
                doc.dropped.append((container, holder))
                continue
            doc.notes.append(_NoteSlot(f"{key}:{count}", decoded[0], att, decoded[1], res.obj))
            count += 1
        conclusion = _str(res.obj.get("conclusion")) if res.type == "DiagnosticReport" else None
        if conclusion is not None:
            doc.notes.append(_NoteSlot(f"{key}:{count}", conclusion, None, "utf-8", res.obj))
            count += 1
        if res.type == "DocumentReference" and count == 0:
            raise _error("fhir.no_text", f"resource {ri} (DocumentReference) has no inline text/plain attachment")


class _SlotCollector:
    """Enumerates PHI slots in a fixed order (resource by resource, field by field)."""

    def __init__(self) -> None:
        self.slots: list[_Slot] = []

    def value(self, parent: object, key: str | int, typ: PhiType) -> None:
        if isinstance(parent, dict) and isinstance(key, str):
            v = parent.get(key)
        elif isinstance(parent, list) and isinstance(key, int) and key < len(parent):
            v = parent[key]
        else:
            return
        if v is None:
            return
        if not isinstance(v, str):
            raise _error("fhir.invalid", f"a {typ.value} field is not a string")
        if v.strip():
            self.slots.append(_Slot(typ, parent, key, v))  # type: ignore[arg-type]

    def strings(self, parent: dict[str, Any], key: str, typ: PhiType) -> None:
        values = parent.get(key)
        if isinstance(values, list):
            for i in range(len(values)):
                self.value(values, i, typ)
        else:
            self.value(parent, key, typ)

    def name(self, name: dict[str, Any] | None, typ: PhiType) -> None:
        if name is None:
            return
        self.value(name, "text", typ)
        self.value(name, "family", typ)
        self.strings(name, "given", typ)

    def identifier(self, ident: dict[str, Any] | None) -> None:
        if ident is not None:
            self.value(ident, "value", identifier_type(ident))

    def address(self, addr: dict[str, Any] | None) -> None:
        if addr is None:
            return
        self.value(addr, "text", PhiType.STREET)
        self.strings(addr, "line", PhiType.STREET)
        self.value(addr, "city", PhiType.CITY)
        self.value(addr, "district", PhiType.LOCATION_OTHER)
        self.value(addr, "state", PhiType.STATE)
        self.value(addr, "postalCode", PhiType.ZIP)
        self.value(addr, "country", PhiType.COUNTRY)

    def telecom(self, points: object) -> None:
        for cp in _dicts(points):
            self.value(cp, "value", _TELECOM_TYPES.get(str(cp.get("system")), PhiType.PHONE))

    def reference(self, ref: object, display_type: PhiType) -> None:
        if isinstance(ref, dict):
            self.value(ref, "display", display_type)
            self.identifier(_dict(ref.get("identifier")))

    def references(self, refs: object, display_type: PhiType) -> None:
        for ref in refs if isinstance(refs, list) else [refs]:
            self.reference(ref, display_type)

    def period(self, period: object) -> None:
        if isinstance(period, dict):
            self.value(period, "start", PhiType.DATE)
            self.value(period, "end", PhiType.DATE)


def identifier_type(ident: dict[str, Any]) -> PhiType:
    type_ = _dict(ident.get("type"))
    for coding in _dicts(type_.get("coding") if type_ else None):
        code = coding.get("code")
        if isinstance(code, str) and code in IDENTIFIER_TYPES:
            return IDENTIFIER_TYPES[code]
    return PhiType.IDNUM


def _resource_slots(c: _SlotCollector, res: dict[str, Any]) -> None:
    rtype = res["resourceType"]
    if rtype == "Patient":
        c.value(res, "id", PhiType.IDNUM)
        for ident in _dicts(res.get("identifier")):
            c.identifier(ident)
        for name in _dicts(res.get("name")):
            c.name(name, PhiType.PATIENT)
        c.telecom(res.get("telecom"))
        c.value(res, "birthDate", PhiType.DATE)
        c.value(res, "deceasedDateTime", PhiType.DATE)
        for addr in _dicts(res.get("address")):
            c.address(addr)
        for contact in _dicts(res.get("contact")):
            c.name(_dict(contact.get("name")), PhiType.PATIENT)
            c.telecom(contact.get("telecom"))
            c.address(_dict(contact.get("address")))
            c.reference(contact.get("organization"), PhiType.ORGANIZATION)
        c.references(res.get("generalPractitioner"), PhiType.DOCTOR)
        c.reference(res.get("managingOrganization"), PhiType.HOSPITAL)
        return
    for ident in _dicts(res.get("identifier")):
        c.identifier(ident)
    c.reference(res.get("subject"), PhiType.PATIENT)
    if rtype == "DocumentReference":
        c.identifier(_dict(res.get("masterIdentifier")))
        c.value(res, "date", PhiType.DATE)
        c.references(res.get("author"), PhiType.DOCTOR)
        c.reference(res.get("authenticator"), PhiType.DOCTOR)
        c.reference(res.get("custodian"), PhiType.HOSPITAL)
        for content in _dicts(res.get("content")):
            att = _dict(content.get("attachment"))
            if att is not None:
                c.value(att, "creation", PhiType.DATE)
        context = _dict(res.get("context"))
        if context is not None:
            c.period(context.get("period"))
            c.reference(context.get("sourcePatientInfo"), PhiType.PATIENT)
    else:
        c.value(res, "effectiveDateTime", PhiType.DATE)
        c.period(res.get("effectivePeriod"))
        c.value(res, "issued", PhiType.DATE)
        c.references(res.get("performer"), PhiType.DOCTOR)
        c.references(res.get("resultsInterpreter"), PhiType.DOCTOR)
        for att in _dicts(res.get("presentedForm")):
            c.value(att, "creation", PhiType.DATE)


def _reference_slots(c: _SlotCollector, node: object) -> None:
    """Patient ids inside literal references, entry fullUrls and transaction request URLs."""
    if isinstance(node, list):
        for v in node:
            _reference_slots(c, v)
        return
    if not isinstance(node, dict):
        return
    for k, v in node.items():
        if isinstance(v, str):
            # ``url`` only in Bundle.entry.request (it has a method); elsewhere it names a profile or extension.
            if k in ("reference", "fullUrl") or (k == "url" and "method" in node):
                m = _PATIENT_REF.match(v)
                if m:
                    c.slots.append(_Slot(PhiType.IDNUM, node, k, m["id"], m["prefix"], m["suffix"] or ""))
        else:
            _reference_slots(c, v)


def _slots(doc: _Document) -> list[_Slot]:
    c = _SlotCollector()
    for res in doc.resources:
        _resource_slots(c, res.obj)
    _reference_slots(c, doc.obj)
    return c.slots


# ---------------------------------------------------------------------------------------------------
# Patient header


def _names(names: object) -> list[str]:
    out: list[str] = []
    for name in _dicts(names):
        if _str(name.get("text")):
            out.append(name["text"].strip())
        given = _strings(name.get("given"))
        family = _str(name.get("family"))
        parts = [*given, *([family.strip()] if family else [])]
        if parts:
            out.append(" ".join(parts))
    return out


def _dedupe(values: list[str]) -> list[str]:
    return list(dict.fromkeys(values))


def _displays(refs: object) -> list[str]:
    out = []
    for ref in refs if isinstance(refs, list) else [refs]:
        if isinstance(ref, dict) and _str(ref.get("display")):
            out.append(ref["display"].strip())
    return out


def _patient_header(patient: dict[str, Any], patient_id: str, extra_doctors: list[str]) -> PatientHeader:
    identifiers: list[Identifier] = []
    mrn: str | None = None
    for ident in _dicts(patient.get("identifier")):
        value = _str(ident.get("value"))
        if value is None:
            continue
        typ = identifier_type(ident)
        if typ is PhiType.MEDICALRECORD and mrn is None:
            mrn = value.strip()
            continue
        system = ident.get("system") if isinstance(ident.get("system"), str) else None
        identifiers.append(Identifier(value=value, type=typ, system=system))
    phones, emails = [], []
    for cp in _dicts(patient.get("telecom")):
        value = _str(cp.get("value"))
        system = cp.get("system")
        if value is None or system == "url":
            continue
        (emails if system == "email" else phones).append(value.strip())
    address = None
    addresses = _dicts(patient.get("address"))
    if addresses:
        a = addresses[0]
        address = Address(
            street=_strings(a.get("line")),
            city=_str(a.get("city")),
            state=_str(a.get("state")),
            zip=_str(a.get("postalCode")),
            country=_str(a.get("country")),
        )
    birth = _str(patient.get("birthDate"))
    next_of_kin = [n for contact in _dicts(patient.get("contact")) for n in _names([contact.get("name")])]
    return PatientHeader(
        patient_id=patient_id,
        names=_dedupe(_names(patient.get("name"))),
        mrn=mrn,
        identifiers=identifiers,
        # Partial FHIR dates (YYYY, YYYY-MM) do not fit a date; header_values still reports them.
        birth_date=birth if birth is not None and len(birth) == 10 else None,  # type: ignore[arg-type]
        sex=_str(patient.get("gender")),
        address=address,
        phones=_dedupe(phones),
        emails=_dedupe(emails),
        next_of_kin=_dedupe(next_of_kin),
        doctors=_dedupe(_displays(patient.get("generalPractitioner")) + extra_doctors),
    )


def _subject_patient_id(res: dict[str, Any]) -> str | None:
    subject = _dict(res.get("subject"))
    ref = subject.get("reference") if subject else None
    if not isinstance(ref, str):
        return None
    m = _PATIENT_REF.match(ref)
    return m["id"] if m else None


def _message_id(doc: _Document) -> str:
    top = doc.resources[0] if doc.obj.get("resourceType") != "Bundle" else None
    rid = doc.obj.get("id")
    if not isinstance(rid, str) or not rid:
        raise _error("fhir.missing_id", f"top-level {doc.obj['resourceType']} has no id")
    if top is not None and top.type == "Patient":
        # A Patient's id is the source system's patient key (PHI): ids travel to logs and metrics.
        return "Patient-" + hashlib.sha256(rid.encode()).hexdigest()[:16]
    return rid


class FhirCodec:
    """``MessageCodec`` for FHIR R4 JSON (validated with the fhir.resources R4B models)."""

    format = EventFormat.FHIR

    def parse(self, raw: bytes) -> ParsedMessage:
        doc = _load(raw)
        # Walked here too so that parse rejects whatever header_values/render would (a non-string PHI field).
        _slots(doc)
        message_id = _message_id(doc)
        patients = [r for r in doc.resources if r.type == "Patient"]
        if len(patients) > 1:
            raise _error("fhir.invalid", f"message holds {len(patients)} Patient resources; expected at most 1")
        note_resources = [r for r in doc.resources if r.type in NOTE_RESOURCES]
        demographics_only = not note_resources
        if demographics_only and not patients:
            raise _error("fhir.no_text", "Bundle holds no Patient, DocumentReference or DiagnosticReport")
        if not demographics_only and not doc.notes:
            raise _error("fhir.no_text", "no inline text/plain attachment or conclusion in the message")
        doctors: list[str] = []
        for r in note_resources:
            for key in ("author", "authenticator", "performer", "resultsInterpreter"):
                doctors += _displays(r.obj.get(key))
        patient: PatientHeader | None = None
        patient_ref: str | None = None
        if patients:
            patient_id = patients[0].key()
            if patient_id is None:
                raise _error("fhir.missing_id", "Patient has no id and no fullUrl")
            patient = _patient_header(patients[0].obj, patient_id, _dedupe(doctors))
            patient_ref = patient_id
        else:
            for r in note_resources:
                patient_ref = _subject_patient_id(r.obj)
                if patient_ref is not None:
                    break
            displays = _dedupe([d for r in note_resources for d in _displays(r.obj.get("subject"))])
            if patient_ref is not None:
                patient = PatientHeader(patient_id=patient_ref, names=displays, doctors=_dedupe(doctors))
            elif displays or doctors:
                # A subject that is no Patient reference (a Group, a contained or broken reference) still
                # names people: they are detection evidence for this message alone, under a scope of its own.
                scope = "fhir-message-" + hashlib.sha256(message_id.encode()).hexdigest()[:16]
                patient = PatientHeader(patient_id=scope, names=displays, doctors=_dedupe(doctors))
        return ParsedMessage(
            format=EventFormat.FHIR,
            message_id=message_id,
            notes=tuple(NoteText(n.note_id, n.text) for n in doc.notes),
            patient=patient,
            patient_ref=patient_ref,
            demographics_only=demographics_only,
        )

    def header_values(self, raw: bytes) -> list[tuple[PhiType, str]]:
        doc = _load(raw)
        return list(dict.fromkeys((s.type, s.value) for s in _slots(doc)))

    def render(self, raw: bytes, texts: Sequence[str], surrogates: HeaderSurrogates) -> bytes:
        doc = _load(raw)
        if len(texts) != len(doc.notes):
            raise ValueError(f"expected {len(doc.notes)} note texts, got {len(texts)}")
        slots = _slots(doc)
        # Look every surrogate up before touching the tree, so a KeyError leaves nothing half-done.
        replacements = [surrogates[(s.type, s.value)] for s in slots]
        for slot, surrogate in zip(slots, replacements, strict=True):
            slot.replace(surrogate)
        for note, text in zip(doc.notes, texts, strict=True):
            if note.attachment is None:
                note.resource["conclusion"] = text
            else:
                _write_attachment(note.attachment, text, note.charset)
        for container, element in doc.dropped:
            container[:] = [x for x in container if x is not element]
        for res in doc.resources:
            res.obj.pop("text", None)
        return json.dumps(doc.obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _write_attachment(att: dict[str, Any], text: str, charset: str) -> None:
    try:
        payload = text.encode(charset)
    except UnicodeEncodeError:
        payload = text.encode("utf-8")
        att["contentType"] = "text/plain; charset=utf-8"
    att["data"] = base64.b64encode(payload).decode("ascii")
    att["size"] = len(payload)
    att.pop("hash", None)

