"""The patient header a FHIR message carries: from its Patient, else from a subject reference.

The header is detection evidence (names, ids, phones to look for in free text) and the patient's key
for enrichment and the consistency scope; it is read from the JSON as received, before any decision.
Besides the Patient's own data it carries, as the HL7 header does with NK1 and the doctor fields, the
people the message names elsewhere: practitioners as doctors, related persons as next of kin.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from deid_core.message.fhir.kinds import identifier_type
from schemas.patient import Address, Identifier, PatientHeader
from schemas.phi import PhiType

# A literal reference to a Patient: relative ("Patient/123"), absolute or versioned.
_PATIENT_REF = re.compile(r"^(?:.*/)?Patient/(?P<id>[A-Za-z0-9\-.]{1,64})(?:/_history/[A-Za-z0-9\-.]{1,64})?$")
# Elements whose Reference displays name the clinicians of a resource.
DOCTOR_ELEMENTS = ("author", "authenticator", "performer", "resultsInterpreter")
# Elements that point at the patient a resource is about, in the order they are tried.
SUBJECT_ELEMENTS = ("subject", "patient")


def _str(v: object) -> str | None:
    return v if isinstance(v, str) and v.strip() else None


def _strings(v: object) -> list[str]:
    return [x.strip() for x in v if isinstance(x, str) and x.strip()] if isinstance(v, list) else []


def _dicts(v: object) -> list[dict[str, Any]]:
    return [x for x in v if isinstance(x, dict)] if isinstance(v, list) else []


def dedupe(values: list[str]) -> list[str]:
    return list(dict.fromkeys(values))


def names(values: object) -> list[str]:
    out: list[str] = []
    for name in _dicts(values):
        text = _str(name.get("text"))
        if text is not None:
            out.append(text.strip())
        given = _strings(name.get("given"))
        family = _str(name.get("family"))
        parts = [*given, *([family.strip()] if family else [])]
        if parts:
            out.append(" ".join(parts))
    return out


def displays(refs: object) -> list[str]:
    out = []
    for ref in refs if isinstance(refs, list) else [refs]:
        display = _str(ref.get("display")) if isinstance(ref, dict) else None
        if display is not None:
            out.append(display.strip())
    return out


def doctors(resources: list[dict[str, Any]]) -> list[str]:
    return dedupe([d for res in resources for key in DOCTOR_ELEMENTS for d in displays(res.get(key))])


@dataclass(frozen=True, slots=True)
class Evidence:
    """People a message names anywhere (any resource, contained ones too), by role."""

    doctors: list[str]
    """Practitioner names and displays of references to a Practitioner or PractitionerRole."""
    relatives: list[str]
    """RelatedPerson names and displays of references to a RelatedPerson."""
    patient_names: list[str]
    """Displays of references to a Patient."""


def evidence(resources: list[dict[str, Any]], references: list[tuple[dict[str, Any], str | None]]) -> Evidence:
    """Like the HL7 header's NK1 and doctor fields: names found in structured values are what detection
    looks for in the notes and the free text elements (a Reference.display, an answer) of the message."""
    docs = [n for r in resources if r.get("resourceType") == "Practitioner" for n in names(r.get("name"))]
    relatives = [n for r in resources if r.get("resourceType") == "RelatedPerson" for n in names(r.get("name"))]
    patient_names: list[str] = []
    for ref, target in references:
        display = _str(ref.get("display"))
        if display is None:
            continue
        if target in ("Practitioner", "PractitionerRole"):
            docs.append(display.strip())
        elif target == "RelatedPerson":
            relatives.append(display.strip())
        elif target == "Patient":
            patient_names.append(display.strip())
    return Evidence(dedupe(docs), dedupe(relatives), dedupe(patient_names))


def patient_header(patient: dict[str, Any], patient_id: str, found: Evidence, extra_doctors: list[str]) -> PatientHeader:
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
    next_of_kin = [n for contact in _dicts(patient.get("contact")) for n in names([contact.get("name")])]
    return PatientHeader(
        patient_id=patient_id,
        names=dedupe(names(patient.get("name")) + found.patient_names),
        mrn=mrn,
        identifiers=identifiers,
        # Partial FHIR dates (YYYY, YYYY-MM) do not fit a date; the leaf still carries them.
        birth_date=birth if birth is not None and len(birth) == 10 else None,  # type: ignore[arg-type]
        sex=_str(patient.get("gender")),
        address=address,
        phones=dedupe(phones),
        emails=dedupe(emails),
        next_of_kin=dedupe(next_of_kin + found.relatives),
        doctors=dedupe(displays(patient.get("generalPractitioner")) + extra_doctors + found.doctors),
    )


def subject_patient_id(res: dict[str, Any]) -> str | None:
    """The Patient id a resource's subject (or ``patient``) reference names, if it is a literal one."""
    for key in SUBJECT_ELEMENTS:
        ref = res.get(key)
        literal = ref.get("reference") if isinstance(ref, dict) else None
        m = _PATIENT_REF.match(literal) if isinstance(literal, str) else None
        if m:
            return m["id"]
    return None


def subject_displays(resources: list[dict[str, Any]]) -> list[str]:
    return dedupe([d for res in resources for key in SUBJECT_ELEMENTS for d in displays(res.get(key))])
