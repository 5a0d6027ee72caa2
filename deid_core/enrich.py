"""Enrichment: the header evidence for a note is what its message carries plus what the demographics
table (built from ADT / FHIR Patient events) knows about the same patient."""

from __future__ import annotations

from schemas import PatientHeader


def _union(a: list[str], b: list[str]) -> list[str]:
    return list(dict.fromkeys([*a, *b]))


def merge_headers(message: PatientHeader | None, known: PatientHeader | None) -> PatientHeader | None:
    """Values from both; where a single-valued field differs, the message (newer) wins."""
    if message is None or known is None:
        return message or known
    return PatientHeader(
        patient_id=message.patient_id,
        names=_union(message.names, known.names),
        mrn=message.mrn or known.mrn,
        identifiers=list({(i.type, i.value): i for i in [*known.identifiers, *message.identifiers]}.values()),
        birth_date=message.birth_date or known.birth_date,
        sex=message.sex or known.sex,
        address=message.address or known.address,
        phones=_union(message.phones, known.phones),
        emails=_union(message.emails, known.emails),
        next_of_kin=_union(message.next_of_kin, known.next_of_kin),
        doctors=_union(message.doctors, known.doctors),
    )
