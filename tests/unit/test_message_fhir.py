"""The FHIR loader: every primitive of any resource a typed leaf, decisions applied, output validated."""

from __future__ import annotations

import base64
import copy
import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deid_core.message.fhir.codec import FhirLoader, LoadedFhirMessage, element_specs, resource_types
from deid_core.message.fhir.load import load_json_object
from schemas.events import EventParseError
from schemas.message import Kind, Leaf, Role
from schemas.phi import PhiType

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "fhir"
FIXTURE_NAMES = sorted(p.stem for p in FIXTURES.glob("*.json"))
SECRET = "Zebulon Farquharson"
LOADER = FhirLoader()
PRAC_UUID = "6f1c1a52-92a4-4c55-9a37-2b0d3c1e7a10"


def dump(o: object) -> bytes:
    return json.dumps(o).encode()


def b64(text: str, charset: str = "utf-8") -> str:
    return base64.b64encode(text.encode(charset)).decode()


def load(o: dict[str, Any] | bytes) -> LoadedFhirMessage:
    return LOADER.load(o if isinstance(o, bytes) else dump(o))


def without_narratives(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: without_narratives(v) for k, v in node.items() if not (k == "text" and isinstance(v, dict) and "div" in v)}
    if isinstance(node, list):
        return [without_narratives(v) for v in node]
    return node


def render(msg: LoadedFhirMessage, decide: Callable[[Leaf], str | None] = lambda leaf: leaf.value) -> dict[str, Any]:
    for leaf in msg.leaves():
        leaf.decide(decide(leaf))
    out: dict[str, Any] = json.loads(msg.render([n.text for n in msg.notes]))
    return out


def by_path(msg: LoadedFhirMessage, path: str) -> list[Leaf]:
    return [leaf for leaf in msg.leaves() if leaf.path == path]


def strings(node: Any) -> list[str]:
    if isinstance(node, dict):
        return [s for k, v in node.items() for s in [k, *strings(v)]]
    if isinstance(node, list):
        return [s for v in node for s in strings(v)]
    return [node] if isinstance(node, str) else []


def empty_containers(node: Any) -> bool:
    if isinstance(node, dict):
        return not node or any(empty_containers(v) for v in node.values())
    if isinstance(node, list):
        return not node or any(empty_containers(v) for v in node)
    return False


# --- a Bundle of many resource types ---------------------------------------------------------------

PAT = {"reference": "Patient/pat-1", "display": "Orla Quennell"}
DOC = {"reference": "Practitioner/pr-1", "display": "Dr. Tobias Wren"}
CC = {"coding": [{"system": "http://loinc.org", "code": "1234-5", "display": "Something"}], "text": "Something"}


def _patient() -> dict[str, Any]:
    return {
        "resourceType": "Patient",
        "id": "pat-1",
        "meta": {"versionId": "3", "lastUpdated": "2024-02-01T08:00:00Z"},
        "text": {"status": "generated", "div": '<div xmlns="http://www.w3.org/1999/xhtml">Orla Quennell</div>'},
        "extension": [
            {"url": "http://hl7.org/fhir/StructureDefinition/patient-mothersMaidenName", "valueString": "Halloran"},
            {"url": "http://hl7.org/fhir/StructureDefinition/patient-birthPlace", "valueAddress": {"city": "Boscobel", "state": "WI"}},
        ],
        "identifier": [
            {"type": {"coding": [{"system": "http://terminology.hl7.org/CodeSystem/v2-0203", "code": "MR"}]}, "system": "urn:oid:2.16.840.1.113883.19.5", "value": "MRN-7730215"},
            {"type": {"coding": [{"system": "http://terminology.hl7.org/CodeSystem/v2-0203", "code": "SS"}]}, "value": "900-55-1234"},
        ],
        "name": [{"use": "official", "family": "Quennell", "given": ["Orla", "Maeve"], "_given": [None, {"extension": [{"url": "http://example.org/ext/given-kind", "valueCode": "middle"}]}]}],
        "telecom": [{"system": "phone", "value": "(555) 301-7788"}, {"system": "email", "value": "orla.q@example.org"}],
        "gender": "female",
        "birthDate": "1961-07-14",
        "_birthDate": {"extension": [{"url": "http://hl7.org/fhir/StructureDefinition/patient-birthTime", "valueDateTime": "1961-07-14T03:20:00-05:00"}]},
        "address": [
            {
                "extension": [
                    {
                        "url": "http://hl7.org/fhir/StructureDefinition/geolocation",
                        "extension": [{"url": "latitude", "valueDecimal": 43.1}, {"url": "longitude", "valueDecimal": -90.7}],
                    }
                ],
                "line": ["47 Larkspur Way"],
                "city": "Fennimore",
                "postalCode": "53809",
            }
        ],
        "photo": [{"contentType": "image/png", "data": base64.b64encode(b"\x89PNG\r\n\x1a\nfake").decode()}],
        "contact": [{"name": {"family": "Quennell", "given": ["Bridget"]}, "telecom": [{"system": "phone", "value": "555-301-4422"}]}],
        "generalPractitioner": [DOC],
        "managingOrganization": {"reference": "Organization/org-1"},
    }


def _resources() -> list[dict[str, Any]]:
    subj = {"subject": PAT}
    return [
        _patient(),
        {"resourceType": "Practitioner", "id": "pr-1", "name": [{"family": "Wren", "given": ["Tobias"], "prefix": ["Dr."]}], "birthDate": "1970-01-02", "telecom": [{"system": "fax", "value": "555-1000"}]},
        {"resourceType": "RelatedPerson", "id": "rp-1", "patient": PAT, "name": [{"text": "Bridget Quennell"}], "birthDate": "1990-03-04"},
        {"resourceType": "Organization", "id": "org-1", "name": "Fennimore Valley Clinic", "address": [{"line": ["1 Main St"], "city": "Fennimore"}]},
        {"resourceType": "Location", "id": "loc-1", "name": "Ward 3", "position": {"longitude": -90.7, "latitude": 43.1}, "managingOrganization": {"reference": "Organization/org-1"}},
        {"resourceType": "Encounter", "id": "enc-1", "status": "finished", "class": {"system": "http://terminology.hl7.org/CodeSystem/v3-ActCode", "code": "AMB"}, **subj, "period": {"start": "2024-01-30T14:30:00Z", "end": "2024-01-30T15:10:00Z"}, "participant": [{"individual": DOC}], "location": [{"location": {"reference": "Location/loc-1"}}]},
        {"resourceType": "Observation", "id": "obs-1", "status": "final", "code": CC, **subj, "effectiveDateTime": "2024-01-30T15:00:00Z", "valueString": "Patient says her neighbour Ann drove her", "performer": [DOC]},
        {"resourceType": "Observation", "id": "obs-2", "status": "final", "code": CC, **subj, "valueQuantity": {"value": 72.5, "unit": "kg", "system": "http://unitsofmeasure.org", "code": "kg"}, "component": [{"code": CC, "valueInteger": 3}]},
        {"resourceType": "Condition", "id": "cond-1", **subj, "code": CC, "onsetDateTime": "2020-05-01", "note": [{"authorString": "Dr. Wren", "text": "Started after the fall at home"}]},
        {"resourceType": "Procedure", "id": "proc-1", "status": "completed", **subj, "performedPeriod": {"start": "2024-01-02"}, "performer": [{"actor": DOC}]},
        {
            "resourceType": "MedicationRequest", "id": "mr-1", "status": "active", "intent": "order",
            "contained": [{"resourceType": "Medication", "id": "med1", "code": CC, "batch": {"lotNumber": "L-77", "expirationDate": "2025-01-01"}}],
            "medicationReference": {"reference": "#med1"}, **subj, "authoredOn": "2024-01-30", "requester": DOC,
            "dosageInstruction": [{"text": "1 tablet daily", "timing": {"repeat": {"frequency": 1, "period": 1, "periodUnit": "d"}}, "doseAndRate": [{"doseQuantity": {"value": 1, "unit": "tablet"}}]}],
        },
        {"resourceType": "AllergyIntolerance", "id": "al-1", "patient": PAT, "code": CC, "recordedDate": "2023-03-03", "reaction": [{"manifestation": [CC], "onset": "2023-03-01"}]},
        {"resourceType": "Immunization", "id": "imm-1", "status": "completed", "vaccineCode": CC, "patient": PAT, "occurrenceDateTime": "2023-10-10", "lotNumber": "LOT-123"},
        {"resourceType": "CarePlan", "id": "cp-1", "status": "active", "intent": "plan", **subj, "period": {"start": "2024-01-01"}, "activity": [{"detail": {"status": "scheduled", "description": "Call Orla weekly"}}]},
        {"resourceType": "Appointment", "id": "ap-1", "status": "booked", "start": "2024-03-01T09:00:00Z", "end": "2024-03-01T09:30:00Z", "participant": [{"actor": PAT, "status": "accepted"}]},
        {"resourceType": "Coverage", "id": "cov-1", "status": "active", "identifier": [{"type": {"coding": [{"code": "MB"}]}, "value": "HP-441"}], "subscriberId": "SUB-9", "beneficiary": PAT, "payor": [{"reference": "Organization/org-1"}]},
        {
            "resourceType": "Claim", "id": "cl-1", "status": "active", "type": CC, "use": "claim", "patient": PAT, "created": "2024-02-01",
            "provider": {"reference": "Organization/org-1"}, "priority": CC,
            "insurance": [{"sequence": 1, "focal": True, "coverage": {"reference": "Coverage/cov-1"}}], "total": {"value": 120.5, "currency": "USD"},
        },
        {
            "resourceType": "DocumentReference", "id": "doc-1", "status": "current", **subj, "description": "Letter to Orla", "author": [DOC],
            "content": [
                {"attachment": {"contentType": "text/plain", "data": b64("Seen Orla Quennell today.")}},
                {"attachment": {"contentType": "application/pdf", "data": b64("%PDF-1.4 fake"), "title": "Scan of Orla's letter", "url": "http://example.org/docs/orla.pdf"}},
                {"attachment": {"contentType": "text/html; charset=iso-8859-1", "data": b64("<p>Größe</p>", "latin-1"), "size": 13, "hash": "2jmj7l5rSw0yVb/vlWAYkK/YBwk="}},
            ],
        },
        {"resourceType": "DiagnosticReport", "id": "dr-1", "status": "final", "code": CC, **subj, "conclusion": "Normal study for Orla.", "presentedForm": [{"contentType": "text/plain", "data": b64("Report text.")}], "resultsInterpreter": [DOC]},
        {"resourceType": "ServiceRequest", "id": "sr-1", "status": "active", "intent": "order", **subj, "code": CC, "requester": DOC, "occurrenceDateTime": "2024-02-02"},
        {"resourceType": "Specimen", "id": "sp-1", **subj, "accessionIdentifier": {"value": "ACC-55"}, "receivedTime": "2024-02-02T10:00:00Z", "collection": {"collectedDateTime": "2024-02-02T09:00:00Z"}},
        {"resourceType": "Provenance", "id": "prov-1", "target": [{"reference": "Observation/obs-1"}], "recorded": "2024-02-02T10:00:00Z", "agent": [{"who": DOC}]},
        {
            "resourceType": "QuestionnaireResponse", "id": "qr-1", "status": "completed", **subj, "authored": "2024-02-02",
            "item": [{"linkId": "1", "text": "Who lives with you?", "answer": [{"valueString": "My son Pat"}], "item": [{"linkId": "1.1", "answer": [{"valueDate": "2001-01-01"}]}]}],
        },
    ]


def big_bundle() -> dict[str, Any]:
    return {
        "resourceType": "Bundle",
        "id": "bundle-1",
        "meta": {"lastUpdated": "2024-02-03T00:00:00Z"},
        "type": "collection",
        "timestamp": "2024-02-03T00:00:00Z",
        "entry": [{"fullUrl": f"http://example.org/fhir/{r['resourceType']}/{r['id']}", "resource": r} for r in _resources()],
    }


def reference_bundle() -> dict[str, Any]:
    """A transaction with every reference form: relative, absolute, versioned, urn, contained, conditional."""
    return {
        "resourceType": "Bundle",
        "id": "tx-1",
        "type": "transaction",
        "entry": [
            {"fullUrl": "http://example.org/fhir/Patient/pat-1", "resource": {"resourceType": "Patient", "id": "pat-1"}, "request": {"method": "PUT", "url": "Patient/pat-1"}},
            {"fullUrl": f"urn:uuid:{PRAC_UUID}", "resource": {"resourceType": "Practitioner", "id": PRAC_UUID}, "request": {"method": "POST", "url": "Practitioner"}},
            {
                "fullUrl": "urn:uuid:0a0b0c0d-1111-4222-8333-444455556666",
                "resource": {
                    "resourceType": "Observation",
                    "contained": [{"resourceType": "Practitioner", "id": "cont1", "name": [{"family": "Local"}]}],
                    "status": "final",
                    "code": {"text": "x"},
                    "subject": {"reference": "Patient/pat-1"},
                    "focus": [{"reference": "http://example.org/fhir/Patient/pat-1"}, {"reference": "Patient/pat-1/_history/3"}],
                    "performer": [{"reference": f"urn:uuid:{PRAC_UUID}"}, {"reference": "#cont1"}],
                    "basedOn": [{"reference": "ServiceRequest?identifier=http://example.org/sr|SR-9"}],
                },
                "request": {"method": "POST", "url": "Observation"},
            },
        ],
    }


# --- the element table ------------------------------------------------------------------------------


def test_every_resource_type_yields_specs_with_known_kinds() -> None:
    types = resource_types()
    assert len(types) > 130 and {"Patient", "Bundle", "Observation", "Parameters", "Binary"} <= set(types)
    assert not {"Resource", "DomainResource", "HumanName"} & set(types)
    for rtype in types:
        specs = element_specs(rtype)
        assert specs, rtype
        assert all(s.path.startswith(f"{rtype}.") for s in specs)
        unknown = [s.path for s in specs if s.kind is Kind.UNKNOWN]
        assert not unknown, unknown[:5]


def _spec(path: str) -> Any:
    found = [s for s in element_specs(path.split(".")[0]) if s.path == path]
    assert found, path
    return found[0]


@pytest.mark.parametrize(
    "path,kind,phi_type,role",
    [
        ("Patient.name.given", Kind.NAME, PhiType.PATIENT, Role.NONE),
        ("Patient.contact.name.family", Kind.NAME, PhiType.PATIENT, Role.NONE),
        ("Practitioner.name.family", Kind.NAME, PhiType.DOCTOR, Role.NONE),
        ("Patient.name.prefix", Kind.TEXT, None, Role.NONE),
        ("Patient.birthDate", Kind.DATE, None, Role.BIRTH_DATE),
        ("Practitioner.birthDate", Kind.DATE, None, Role.BIRTH_DATE),
        ("Patient._birthDate.extension.valueDateTime", Kind.DATE, None, Role.BIRTH_DATE),
        ("Patient.deceasedDateTime", Kind.DATE, None, Role.NONE),
        ("DocumentReference.description", Kind.TEXT, None, Role.NONE),
        ("Bundle.timestamp", Kind.DATE, None, Role.NONE),
        ("Bundle.entry.fullUrl", Kind.IDENTIFIER, PhiType.IDNUM, Role.NONE),
        ("Bundle.entry.request.url", Kind.IDENTIFIER, PhiType.IDNUM, Role.NONE),
        ("Bundle.link.url", Kind.IDENTIFIER, PhiType.IDNUM, Role.NONE),
        ("Patient.meta.lastUpdated", Kind.DATE, None, Role.NONE),
        ("Patient.meta.versionId", Kind.IDENTIFIER, PhiType.IDNUM, Role.NONE),
        ("Patient.photo.data", Kind.ATTACHMENT, None, Role.NONE),
        ("Patient.photo.url", Kind.TEXT, None, Role.NONE),
        ("Observation.valueString", Kind.TEXT, None, Role.NONE),
        ("Observation.valueQuantity.value", Kind.NUMBER, None, Role.NONE),
        ("Observation.valueQuantity.unit", Kind.CODE, None, Role.NONE),
        ("Observation.code.coding.display", Kind.TEXT, None, Role.NONE),
        ("Observation.code.coding.code", Kind.CODE, None, Role.NONE),
        ("Encounter.period.start", Kind.DATE, None, Role.NONE),
        ("Patient.extension.valueAddress.city", Kind.ADDRESS, PhiType.CITY, Role.NONE),
        ("Patient.extension.valueString", Kind.TEXT, None, Role.NONE),
        ("Patient.extension.url", Kind.CODE, None, Role.NONE),
        ("Patient.address.postalCode", Kind.ADDRESS, PhiType.ZIP, Role.NONE),
        ("Patient.address.district", Kind.ADDRESS, PhiType.LOCATION_OTHER, Role.NONE),
        ("Patient.telecom.value", Kind.CONTACT, PhiType.PHONE, Role.NONE),
        ("Patient.telecom.rank", Kind.NUMBER, None, Role.NONE),
        ("Patient.identifier.value", Kind.IDENTIFIER, PhiType.IDNUM, Role.NONE),
        ("Patient.identifier.system", Kind.CODE, None, Role.NONE),
        ("Patient.identifier.assigner.display", Kind.LOCATION, PhiType.ORGANIZATION, Role.NONE),
        ("Patient.managingOrganization.display", Kind.LOCATION, PhiType.ORGANIZATION, Role.NONE),
        ("Encounter.location.location.display", Kind.LOCATION, PhiType.HOSPITAL, Role.NONE),
        ("DocumentReference.author.display", Kind.TEXT, None, Role.NONE),  # people or organisations
        ("Location.name", Kind.LOCATION, PhiType.HOSPITAL, Role.NONE),
        ("Location.position.latitude", Kind.ADDRESS, PhiType.LOCATION_OTHER, Role.NONE),
        ("Coverage.class.value", Kind.IDENTIFIER, PhiType.HEALTHPLAN, Role.NONE),
        ("Device.udiCarrier.carrierHRF", Kind.IDENTIFIER, PhiType.DEVICE, Role.NONE),
        ("AuditEvent.agent.network.address", Kind.CONTACT, PhiType.IPADDR, Role.NONE),
        ("QuestionnaireResponse.item.linkId", Kind.TEXT, None, Role.NONE),
        ("Patient.generalPractitioner.reference", Kind.IDENTIFIER, PhiType.IDNUM, Role.NONE),
        ("Patient.id", Kind.IDENTIFIER, PhiType.IDNUM, Role.NONE),
        ("Patient.name.id", Kind.IDENTIFIER, PhiType.IDNUM, Role.NONE),
        ("Patient.active", Kind.NUMBER, None, Role.NONE),
        ("Encounter.subject.display", Kind.TEXT, None, Role.NONE),
        ("RelatedPerson.patient.display", Kind.TEXT, PhiType.PATIENT, Role.NONE),
        ("Condition.note.authorString", Kind.NAME, PhiType.DOCTOR, Role.NONE),
        ("Condition.onsetAge.value", Kind.NUMBER, None, Role.NONE),  # Age finds Quantity's rules
        ("Appointment.minutesDuration", Kind.NUMBER, None, Role.NONE),
        ("Binary.data", Kind.ATTACHMENT, None, Role.NONE),
    ],
)
def test_kind_of_named_elements(path: str, kind: Kind, phi_type: PhiType | None, role: Role) -> None:
    spec = _spec(path)
    assert (spec.kind, spec.phi_type, spec.role) == (kind, phi_type, role)


def test_spec_types_are_enclosing_datatypes() -> None:
    assert _spec("Patient.extension.valueAddress.city").types == ("Extension", "Address")
    assert _spec("Patient.name.given").types == ("HumanName",)
    assert _spec("Patient.contact.name.given").types == ("HumanName",)  # backbone elements are no datatypes
    assert _spec("Patient.birthDate").datatype == "date" and _spec("Patient.meta.lastUpdated").datatype == "instant"


def test_element_rules_name_existing_primitive_elements() -> None:
    from fhir.resources.R4B import get_fhir_model_class

    from deid_core.message.fhir import kinds, schema

    for type_name, element in kinds.ELEMENT_RULES:
        if type_name in ("Resource", "Element", "FHIRPrimitiveExtension"):
            continue
        found = schema.elements(get_fhir_model_class(type_name)).get(element)
        assert found is not None and found.primitive, (type_name, element)


# --- leaves of a message ----------------------------------------------------------------------------


def test_leaves_of_the_bundle() -> None:
    msg = load(big_bundle())
    leaves = msg.leaves()
    assert leaves is msg.leaves()
    assert all(leaf.kind is not Kind.UNKNOWN for leaf in leaves)

    def one(path: str, value: str | None = None) -> Leaf:
        found = [leaf for leaf in by_path(msg, path) if value is None or leaf.value == value]
        assert found, path
        return found[0]

    assert one("Patient.name.given", "Orla").phi_type is PhiType.PATIENT
    assert one("Practitioner.name.family").phi_type is PhiType.DOCTOR
    assert one("Patient.birthDate").role is Role.BIRTH_DATE
    birth_time = one("Patient._birthDate.extension.valueDateTime")
    assert (birth_time.kind, birth_time.role, birth_time.datatype) == (Kind.DATE, Role.BIRTH_DATE, "dateTime")
    assert one("Patient.extension.valueString").value == "Halloran"
    city = one("Patient.extension.valueAddress.city")
    assert (city.kind, city.phi_type, city.types) == (Kind.ADDRESS, PhiType.CITY, ("Extension", "Address"))
    latitude = one("Patient.address.extension.extension.valueDecimal", "43.1")
    assert (latitude.kind, latitude.types) == (Kind.NUMBER, ("Address", "Extension", "Extension"))
    assert one("Patient.name._given.extension.valueCode").kind is Kind.CODE
    photo = one("Patient.photo.data")
    assert photo.kind is Kind.ATTACHMENT and photo.binary
    assert one("Patient.identifier.value", "MRN-7730215").phi_type is PhiType.MEDICALRECORD
    assert one("Patient.identifier.value", "900-55-1234").phi_type is PhiType.SSN
    assert one("Coverage.identifier.value").phi_type is PhiType.HEALTHPLAN
    assert one("Patient.telecom.value", "orla.q@example.org").phi_type is PhiType.EMAIL
    assert one("Practitioner.telecom.value").phi_type is PhiType.FAX
    assert one("Observation.performer.display").phi_type is PhiType.DOCTOR  # by the reference's target
    assert one("Encounter.subject.display").phi_type is PhiType.PATIENT
    assert one("Observation.valueString").kind is Kind.TEXT
    assert one("Observation.valueQuantity.value").value == "72.5"
    assert one("Observation.component.valueInteger").value == "3"
    assert one("Claim.insurance.focal").value == "true"
    assert one("Encounter.period.start").kind is Kind.DATE
    assert one("Bundle.timestamp").kind is Kind.DATE
    assert one("Patient.meta.lastUpdated").datatype == "instant"
    assert one("Medication.batch.lotNumber").kind is Kind.IDENTIFIER  # contained: rooted at its own type
    assert one("Medication.id").value == "med1"
    assert (one("Location.position.latitude").kind, one("Location.position.latitude").phi_type) == (Kind.ADDRESS, PhiType.LOCATION_OTHER)
    assert (one("Location.name").kind, one("Organization.name").phi_type) == (Kind.LOCATION, PhiType.ORGANIZATION)
    assert one("Coverage.subscriberId").phi_type is PhiType.HEALTHPLAN
    assert one("QuestionnaireResponse.item.item.answer.valueDate").kind is Kind.DATE
    assert one("DocumentReference.description").kind is Kind.TEXT
    html = one("DocumentReference.content.attachment.data", "<p>Größe</p>")
    assert not html.binary
    pdf = one("DocumentReference.content.attachment.data", b64("%PDF-1.4 fake"))
    assert pdf.binary
    assert one("DocumentReference.content.attachment.title").kind is Kind.TEXT
    assert one("DocumentReference.content.attachment.url").kind is Kind.TEXT
    # Narratives and notes are no leaves.
    assert not [leaf for leaf in leaves if leaf.path.endswith(".text.div") or leaf.path == "DiagnosticReport.conclusion"]
    assert not [leaf for leaf in leaves if leaf.value in ("Seen Orla Quennell today.", "Report text.")]


def test_notes_patient_and_message_id() -> None:
    msg = load(big_bundle())
    assert [n.note_id for n in msg.notes] == ["doc-1:0", "dr-1:0", "dr-1:1"]
    assert [n.text for n in msg.notes] == ["Seen Orla Quennell today.", "Report text.", "Normal study for Orla."]
    assert msg.message_id == "bundle-1" and msg.patient_ref == "pat-1" and not msg.demographics_only
    assert msg.patient is not None and msg.patient.mrn == "MRN-7730215"
    assert "Orla Maeve Quennell" in msg.patient.names and "Dr. Tobias Wren" in msg.patient.doctors
    assert str(msg.patient.birth_date) == "1961-07-14"


@pytest.mark.parametrize(
    "o,demographics_only",
    [
        (_patient(), True),
        ({"resourceType": "Bundle", "id": "b", "type": "collection", "entry": [{"fullUrl": "urn:uuid:1", "resource": _patient()}]}, True),
        ({"resourceType": "Bundle", "id": "b", "type": "searchset", "entry": [{"resource": _patient()}, {"resource": _resources()[6]}]}, False),
        (_resources()[6], False),
        ({"resourceType": "Bundle", "id": "b", "type": "history", "entry": []}, False),
        ({"resourceType": "DocumentReference", "id": "d", "status": "current", "content": [{"attachment": {"contentType": "application/pdf", "data": b64("%PDF")}}]}, False),
    ],
)
def test_any_resource_is_accepted(o: dict[str, Any], demographics_only: bool) -> None:
    msg = load(o)
    assert msg.demographics_only is demographics_only
    assert without_narratives(o) == render(msg)


def test_header_from_subject_reference_or_display() -> None:
    obs = {"resourceType": "Observation", "id": "o1", "status": "final", "code": {"text": "x"}, "subject": {"reference": "Patient/p9", "display": "Ann Lee"}, "performer": [DOC]}
    msg = load(obs)
    assert msg.patient is not None and msg.patient_ref == "p9"
    assert msg.patient.names == ["Ann Lee"] and msg.patient.doctors == ["Dr. Tobias Wren"]
    group = obs | {"subject": {"reference": "Group/g1", "display": "Ann Lee"}}
    msg = load(group)
    assert msg.patient_ref is None and msg.patient is not None and msg.patient.patient_id.startswith("fhir-message-")
    bare = {"resourceType": "Observation", "id": "o1", "status": "final", "code": {"text": "x"}}
    assert load(bare).patient is None


def test_header_carries_the_people_named_anywhere() -> None:
    msg = load(reference_bundle() | {"type": "collection"})
    assert msg.patient is not None and "Local" in msg.patient.doctors  # a contained Practitioner's name
    big = load(big_bundle())
    assert big.patient is not None
    assert {"Tobias Wren", "Dr. Tobias Wren"} <= set(big.patient.doctors)
    assert {"Bridget Quennell"} <= set(big.patient.next_of_kin)


def test_display_types_follow_contained_and_urn_references() -> None:
    o = reference_bundle()
    obs = o["entry"][2]["resource"]
    obs["performer"][0]["display"] = "Dr. Uuid"
    obs["performer"][1]["display"] = "Dr. Local"
    msg = load(o)
    displays = {leaf.value: leaf.phi_type for leaf in by_path(msg, "Observation.performer.display")}
    assert displays == {"Dr. Uuid": PhiType.DOCTOR, "Dr. Local": PhiType.DOCTOR}
    assert msg.patient is not None and {"Dr. Uuid", "Dr. Local"} <= set(msg.patient.doctors)


def test_patient_key_is_the_id_the_leaves_carry() -> None:
    pat = {k: v for k, v in _patient().items() if k != "id"}
    msg = load({"resourceType": "Bundle", "id": "b", "type": "collection", "entry": [{"fullUrl": "urn:uuid:5b3e", "resource": pat}]})
    assert msg.patient_ref == "5b3e" and by_path(msg, "Bundle.entry.fullUrl")[0].value == "5b3e"


# --- references -------------------------------------------------------------------------------------


def test_reference_leaves_hold_the_id_part() -> None:
    msg = load(reference_bundle())
    refs = [leaf.value for leaf in msg.leaves() if leaf.path.endswith(".reference")]
    assert refs == ["pat-1", "pat-1", "pat-1", PRAC_UUID, "cont1", "identifier=http://example.org/sr|SR-9"]
    assert all(leaf.kind is Kind.IDENTIFIER and leaf.types == ("Reference",) for leaf in msg.leaves() if leaf.path.endswith(".reference"))
    assert [leaf.value for leaf in by_path(msg, "Bundle.entry.fullUrl")] == ["pat-1", PRAC_UUID, "0a0b0c0d-1111-4222-8333-444455556666"]
    # Transaction URLs are references too; a bare type (POST) is a code.
    assert [leaf.value for leaf in by_path(msg, "Bundle.entry.request.url")] == ["pat-1", "Practitioner", "Observation"]
    assert [leaf.kind for leaf in by_path(msg, "Bundle.entry.request.url")] == [Kind.IDENTIFIER, Kind.CODE, Kind.CODE]


def pseudonym(value: str) -> str:
    return "p" + hashlib.sha256(value.encode()).hexdigest()[:20]


def _pseudonymize_ids(leaf: Leaf) -> str | None:
    if leaf.kind is Kind.IDENTIFIER and (leaf.path.endswith((".id", ".reference")) or leaf.path in ("Bundle.entry.fullUrl", "Bundle.entry.request.url")):
        return pseudonym(leaf.value)
    return leaf.value


def _resolves(bundle: dict[str, Any]) -> None:
    """Every literal reference of the Bundle names an entry (by type/id or fullUrl) or a contained resource."""
    full_urls = {e["fullUrl"] for e in bundle["entry"]}
    ids = {f"{e['resource']['resourceType']}/{e['resource']['id']}" for e in bundle["entry"] if "id" in e["resource"]}

    def walk(node: Any, contained: set[str]) -> None:
        if isinstance(node, dict):
            if "contained" in node:
                contained = {c["id"] for c in node["contained"]}
            ref = node.get("reference")
            if isinstance(ref, str) and "?" not in ref:
                if ref.startswith("#"):
                    assert ref[1:] in contained, ref
                elif ref.startswith("urn:"):
                    assert ref in full_urls, ref
                else:
                    assert "/".join(ref.split("/_history/")[0].split("/")[-2:]) in ids, ref
            for v in node.values():
                walk(v, contained)
        elif isinstance(node, list):
            for v in node:
                walk(v, contained)

    walk(bundle, set())


def test_pseudonyms_keep_references_resolving() -> None:
    original = reference_bundle()
    _resolves(original)
    out = render(load(original), _pseudonymize_ids)
    _resolves(out)
    obs = out["entry"][2]["resource"]
    assert obs["subject"]["reference"] == f"Patient/{pseudonym('pat-1')}"
    assert obs["focus"][0]["reference"] == f"http://example.org/fhir/Patient/{pseudonym('pat-1')}"
    assert obs["focus"][1]["reference"] == f"Patient/{pseudonym('pat-1')}/_history/3"
    assert obs["performer"] == [{"reference": f"urn:uuid:{pseudonym(PRAC_UUID)}"}, {"reference": f"#{pseudonym('cont1')}"}]
    assert obs["basedOn"][0]["reference"].startswith("ServiceRequest?p")
    assert "pat-1" not in json.dumps(out["entry"][2]) and "SR-9" not in json.dumps(out)


def test_pseudonyms_keep_the_big_bundle_resolving() -> None:
    out = render(load(big_bundle()), _pseudonymize_ids)
    _resolves(out)
    assert "pat-1" not in json.dumps(out)


def test_transaction_urls_keep_pointing_at_their_resources() -> None:
    bundle = {
        "resourceType": "Bundle", "id": "tx-1", "type": "transaction",
        "entry": [
            {"fullUrl": "http://example.org/fhir/Patient/pat-1", "resource": {"resourceType": "Patient", "id": "pat-1"},
             "request": {"method": "PUT", "url": "Patient/pat-1"}},
            {"resource": {"resourceType": "Observation", "status": "final", "code": {"text": "x"},
                          "subject": {"reference": "Patient/pat-1"}},
             "request": {"method": "POST", "url": "Observation"}},
            {"request": {"method": "DELETE", "url": "Patient?identifier=http://hosp/mrn|97001234"}},
        ],
    }  # fmt: skip
    out = render(load(bundle), _pseudonymize_ids)
    new_id = pseudonym("pat-1")
    assert out["entry"][0]["resource"]["id"] == new_id
    assert out["entry"][0]["request"]["url"] == f"Patient/{new_id}"
    assert out["entry"][1]["request"]["url"] == "Observation"  # a bare type names no one
    assert "97001234" not in json.dumps(out) and out["entry"][2]["request"]["url"].startswith("Patient?")


# --- rendering --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_fixtures_round_trip(name: str) -> None:
    raw = (FIXTURES / f"{name}.json").read_bytes()
    assert render(load(raw)) == without_narratives(json.loads(raw))


def test_big_bundle_round_trip_keeps_order() -> None:
    original = big_bundle()
    msg = load(original)
    for leaf in msg.leaves():
        leaf.decide(leaf.value)
    out = msg.render([n.text for n in msg.notes])
    expected = without_narratives(original)
    assert json.loads(out) == expected
    assert out == json.dumps(expected, ensure_ascii=False, separators=(",", ":")).encode()
    assert len({json.loads(out)["entry"][i]["resource"]["resourceType"] for i in range(len(original["entry"]))}) >= 20


def _removed(leaf: Leaf) -> bool:
    # Every name, address, contact and attachment; the dates of the Patient (none of them required).
    return leaf.kind in {Kind.NAME, Kind.ADDRESS, Kind.CONTACT, Kind.ATTACHMENT} or (leaf.kind is Kind.DATE and leaf.path.startswith("Patient.")) or leaf.path.endswith(".display")


def test_removed_elements_disappear_and_output_validates() -> None:
    msg = load(big_bundle())
    gone = {leaf.value for leaf in msg.leaves() if _removed(leaf)}
    out = render(msg, lambda leaf: None if _removed(leaf) else leaf.value)
    text = json.dumps(out, ensure_ascii=False)
    assert {"Quennell", "47 Larkspur Way", "53809", "1961-07-14", "1961-07-14T03:20:00-05:00", "(555) 301-7788", "<p>Größe</p>"} <= gone
    for value in ("Quennell", "Larkspur", "53809", "1961-07-14", "(555) 301-7788", "Größe", "Tobias"):
        assert value not in text, value
    assert not empty_containers(out)
    patient = out["entry"][0]["resource"]
    assert patient["name"] == [{"use": "official", "_given": [_patient()["name"][0]["_given"][1]]}]
    assert "birthDate" not in patient and "_birthDate" not in patient  # birthTime: only its url was left
    assert patient["telecom"] == [{"system": "phone"}, {"system": "email"}]
    assert patient["contact"] == [{"telecom": [{"system": "phone"}]}]
    assert patient["photo"] == [{"contentType": "image/png"}]
    assert patient["address"] == [{"extension": _patient()["address"][0]["extension"]}]
    assert patient["extension"] == _patient()["extension"][:1]  # birthPlace: only its url was left
    assert patient["generalPractitioner"] == [{"reference": "Practitioner/pr-1"}]
    assert "Seen Orla" in base64.b64decode(out["entry"][17]["resource"]["content"][0]["attachment"]["data"]).decode()
    pdf = out["entry"][17]["resource"]["content"][1]["attachment"]
    assert set(pdf) == {"contentType", "title", "url"}  # data removed (it is binary), the text leaves kept
    LOADER.load(dump(out))  # the output is a valid message again


def test_a_removed_required_primitive_is_marked_absent() -> None:
    msg = load(big_bundle())
    out = render(msg, lambda leaf: None if leaf.path in ("Claim.created", "Location.position.latitude") else leaf.value)
    res = {e["resource"]["id"]: e["resource"] for e in out["entry"]}
    masked = {"extension": [{"url": "http://hl7.org/fhir/StructureDefinition/data-absent-reason", "valueCode": "masked"}]}
    assert "created" not in res["cl-1"] and res["cl-1"]["_created"] == masked
    assert list(res["cl-1"]).index("_created") == list(big_bundle()["entry"][16]["resource"]).index("created")
    assert res["loc-1"]["position"] == {"longitude": -90.7, "_latitude": masked}


def test_a_required_element_emptied_by_removals_is_marked_absent() -> None:
    msg = load(big_bundle())
    out = render(msg, lambda leaf: None if leaf.path.startswith(("Provenance.agent.who", "Immunization.patient")) else leaf.value)
    res = {e["resource"]["id"]: e["resource"] for e in out["entry"]}
    masked = {"extension": [{"url": "http://hl7.org/fhir/StructureDefinition/data-absent-reason", "valueCode": "masked"}]}
    assert res["imm-1"]["patient"] == masked
    assert list(res["imm-1"]).index("patient") == list(big_bundle()["entry"][12]["resource"]).index("patient")
    # The agent went with its only element, and the required agent comes back with its own required who.
    assert res["prov-1"]["agent"] == [masked | {"who": masked}]


def test_an_invalid_result_is_refused_without_values() -> None:
    msg = load(big_bundle())
    with pytest.raises(EventParseError) as info:
        # Immunization.occurrence[x] is a required choice: no data-absent-reason stands in for it.
        render(msg, lambda leaf: None if leaf.path == "Immunization.occurrenceDateTime" else leaf.value)
    assert info.value.code == "fhir.render_invalid" and "entry.12.resource" in info.value.message
    assert "2023-10-10" not in str(info.value)


def test_parallel_primitive_arrays_stay_aligned() -> None:
    msg = load(_patient())
    given = by_path(msg, "Patient.name.given")
    decisions = {id(given[0]): None, id(given[1]): None}
    out = render(msg, lambda leaf: decisions.get(id(leaf), leaf.value))
    assert "given" not in out["name"][0]  # only nulls would be left
    assert out["name"][0]["_given"] == [{"extension": [{"url": "http://example.org/ext/given-kind", "valueCode": "middle"}]}]

    msg = load(_patient())
    given = by_path(msg, "Patient.name.given")
    ext = by_path(msg, "Patient.name._given.extension.valueCode") + by_path(msg, "Patient.name._given.extension.url")
    drop = {id(given[1]), *map(id, ext)}
    out = render(msg, lambda leaf: None if id(leaf) in drop else leaf.value)
    assert out["name"][0]["given"] == ["Orla"] and "_given" not in out["name"][0]

    msg = load(_patient())
    drop = {id(by_path(msg, "Patient.name.given")[0])}
    out = render(msg, lambda leaf: None if id(leaf) in drop else leaf.value)
    assert out["name"][0]["given"] == ["Maeve"] and out["name"][0]["_given"][0]["extension"][0]["valueCode"] == "middle"


def test_replaced_values_are_written_in_their_json_type() -> None:
    msg = load(big_bundle())
    new = {"Observation.valueQuantity.value": "80", "Claim.insurance.focal": "false", "Claim.insurance.sequence": "2", "Claim.total.value": "[NUMBER]"}
    out = render(msg, lambda leaf: new.get(leaf.path, leaf.value))
    res = {e["resource"]["id"]: e["resource"] for e in out["entry"]}
    assert res["obs-2"]["valueQuantity"]["value"] == 80
    assert res["cl-1"]["insurance"][0]["focal"] is False and res["cl-1"]["insurance"][0]["sequence"] == 2
    assert res["cl-1"]["total"] == {"currency": "USD"}  # a label cannot be a decimal: the value goes


def test_text_attachment_reencoded_with_size_and_hash() -> None:
    msg = load(big_bundle())
    out = render(msg, lambda leaf: "<p>Größe – ok</p>" if leaf.value == "<p>Größe</p>" else leaf.value)
    att = out["entry"][17]["resource"]["content"][2]["attachment"]
    assert att["contentType"] == "text/html; charset=utf-8"  # an en dash does not fit latin-1
    assert base64.b64decode(att["data"]).decode("utf-8") == "<p>Größe – ok</p>"
    assert att["size"] == len("<p>Größe – ok</p>".encode()) and "hash" not in att


def test_notes_are_written_back() -> None:
    msg = load(big_bundle())
    for leaf in msg.leaves():
        leaf.decide(leaf.value)
    out = json.loads(msg.render(["[PATIENT] seen.", "Report text.", "Normal study for [PATIENT]."]))
    doc = out["entry"][17]["resource"]["content"][0]["attachment"]
    assert base64.b64decode(doc["data"]).decode() == "[PATIENT] seen." and doc["size"] == 15
    assert out["entry"][18]["resource"]["conclusion"] == "Normal study for [PATIENT]."
    with pytest.raises(ValueError, match="expected 3 note texts"):
        msg.render(["x"])


def test_undecided_leaf_refuses_to_render() -> None:
    msg = load(big_bundle())
    for leaf in msg.leaves()[:-1]:
        leaf.decide(leaf.value)
    with pytest.raises(RuntimeError) as info:
        msg.render([n.text for n in msg.notes])
    assert "Orla" not in str(info.value) and "1 values" in str(info.value)
    with pytest.raises(RuntimeError):
        msg.leaves()[0].decide("x")


def test_render_refuses_an_invalid_result_without_values() -> None:
    msg = load(_patient())
    with pytest.raises(EventParseError) as info:
        render(msg, lambda leaf: f"{SECRET} 1" if leaf.path == "Patient.birthDate" else leaf.value)
    assert info.value.code == "fhir.render_invalid"
    assert "birthDate" in info.value.message and "Zebulon" not in str(info.value)


# --- errors -----------------------------------------------------------------------------------------


def _docref(**attachment: Any) -> dict[str, Any]:
    return {"resourceType": "DocumentReference", "id": "d1", "status": "current", "content": [{"attachment": attachment}]}


@pytest.mark.parametrize(
    "data,code",
    [
        (b"\xff\xfe{}", "fhir.json"),
        (b'{"resourceType": "Patient",', "fhir.json"),
        (b"[1, 2]", "fhir.json"),
        (b'{"resourceType": "Patient", "id": "p1", "multipleBirthDecimal": NaN}', "fhir.json"),
        (b'{"resourceType": "Patient", "id": "p1", "multipleBirthInteger": 1e999}', "fhir.json"),
        (b'{"resourceType": "Patient", "id": "p1", "name": [{"text": "\\ud800"}]}', "fhir.json"),
        (b"[" * 100_000 + b"]" * 100_000, "fhir.json"),
        (dump({"id": "p1"}), "fhir.invalid"),
        (dump({"resourceType": SECRET, "id": "p1"}), "fhir.invalid"),
        (dump({"resourceType": "HumanName", "id": "p1"}), "fhir.invalid"),
        (dump({"resourceType": "Patient", "id": "p1", "birthDate": SECRET}), "fhir.invalid"),
        (dump({"resourceType": "Patient", "id": "p1", SECRET: 1}), "fhir.invalid"),
        (dump({"resourceType": "Patient", "id": "p1", "name": [{"given": ["x"], SECRET: 1}]}), "fhir.invalid"),
        (dump({"resourceType": "Patient", "id": "p1", "contained": [{"resourceType": "Practitioner", SECRET: 1}]}), "fhir.invalid"),
        (dump({"resourceType": "Patient", "id": "p1", "contained": [{"resourceType": SECRET}]}), "fhir.invalid"),
        (dump({"resourceType": "Bundle", "id": "b", "type": "collection", "entry": [{"resource": {"resourceType": "Patient", SECRET: {"a": 1}}}]}), "fhir.invalid"),
        (dump({"resourceType": "Bundle", "id": "b", "type": "collection", "entry": [{"resource": {"resourceType": "Patient", "id": "a"}}, {"resource": {"resourceType": "Patient", "id": "b"}}]}), "fhir.invalid"),
        (dump({"resourceType": "Patient", "name": [{"family": SECRET}]}), "fhir.missing_id"),
        (dump({k: v for k, v in _docref(contentType="text/plain", data=b64("x")).items() if k != "id"}), "fhir.missing_id"),
        (dump({"resourceType": "Bundle", "id": "b", "type": "collection", "entry": [{"resource": {k: v for k, v in _docref(contentType="text/plain", data=b64("x")).items() if k != "id"}}]}), "fhir.missing_id"),
        (dump(_docref(contentType="text/plain", data="aGVsbG8")), "fhir.base64"),
        (dump(_docref(contentType="text/plain; charset=x-no-such-charset", data=b64("x"))), "fhir.charset"),
        (dump(_docref(contentType="text/plain", data=b64("Gr\u00f6\u00dfe", "latin-1"))), "fhir.charset"),
    ],
)
def test_error_codes_without_values(data: bytes, code: str) -> None:
    with pytest.raises(EventParseError) as info:
        LOADER.load(data)
    assert info.value.code == code
    assert "Zebulon" not in str(info.value) and "Farquharson" not in str(info.value)


def test_invalid_message_names_known_fields_only() -> None:
    with pytest.raises(EventParseError) as info:
        load({"resourceType": "Patient", "id": "p1", "name": [{"given": [1234567]}], "contained": [{"resourceType": "Practitioner", "nameX": 1}]})
    assert "name.0.given.0" in info.value.message and "1234567" not in info.value.message
    assert "contained.0.<unknown field>" in info.value.message and "nameX" not in info.value.message
    with pytest.raises(EventParseError) as info:
        load({"resourceType": "Bundle", "id": "b", "type": "collection", "entry": [{"resource": {"resourceType": "Patient", "birthDate": "x"}}]})
    assert "entry.0.resource.birthDate" in info.value.message


def test_lenient_values_and_undecodable_text_attachment_stay_leaves() -> None:
    # The models accept "3" for an integer; a text attachment in the wrong charset is opaque, not an error.
    o = _patient() | {"multipleBirthInteger": "3"}
    o["photo"] = [{"contentType": "text/plain; charset=ascii", "data": b64("Größe", "latin-1")}]
    msg = load(o)
    assert by_path(msg, "Patient.multipleBirthInteger")[0].value == "3"
    assert by_path(msg, "Patient.photo.data")[0].binary
    assert render(msg) == without_narratives(o)


def test_load_json_object_is_strict() -> None:
    with pytest.raises(EventParseError) as info:
        load_json_object(b'{"a": Infinity}', "x.json")
    assert info.value.code == "x.json"


# --- robustness -------------------------------------------------------------------------------------

json_leaf = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=12))
json_value = st.recursive(json_leaf, lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=8), c, max_size=3), max_leaves=6)


def _paths(node: object, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*prefix, i))
    return out


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["bundle", "patient", "documentreference"]), st.data())
def test_mutated_messages_raise_only_parse_errors(name: str, data: st.DataObject) -> None:
    o = json.loads((FIXTURES / f"{name}.json").read_bytes())
    path = data.draw(st.sampled_from(_paths(o)[1:]))
    parent = o
    for p in path[:-1]:
        parent = parent[p]
    parent[path[-1]] = data.draw(json_value)
    try:
        msg = load(copy.deepcopy(o))
    except EventParseError:
        return
    for leaf in msg.leaves():
        leaf.decide(data.draw(st.sampled_from([leaf.value, None])))
    try:
        msg.render([n.text for n in msg.notes])
    except EventParseError as exc:
        assert exc.code == "fhir.render_invalid"
