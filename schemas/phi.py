"""The PHI taxonomy of the i2b2 2014 de-identification task, with the HIPAA Safe Harbor subset flagged.

The i2b2 2014 guidelines group PHI into 7 categories; the subtypes are what detectors emit and what
surrogate generators dispatch on. ``hipaa`` marks the subtypes that HIPAA Safe Harbor (45 CFR
164.514(b)(2)) requires removing; the other subtypes (doctor names, hospitals, states, ...) are
removed by default too, because the i2b2 guidelines judged them re-identifying in practice.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class PhiCategory(StrEnum):
    NAME = "NAME"
    PROFESSION = "PROFESSION"
    LOCATION = "LOCATION"
    AGE = "AGE"
    DATE = "DATE"
    CONTACT = "CONTACT"
    ID = "ID"


class PhiType(StrEnum):
    """i2b2 2014 subtypes. Values are the strings used in i2b2 XML ``TYPE`` attributes."""

    PATIENT = "PATIENT"
    DOCTOR = "DOCTOR"
    USERNAME = "USERNAME"
    PROFESSION = "PROFESSION"
    ROOM = "ROOM"
    DEPARTMENT = "DEPARTMENT"
    HOSPITAL = "HOSPITAL"
    ORGANIZATION = "ORGANIZATION"
    STREET = "STREET"
    CITY = "CITY"
    STATE = "STATE"
    COUNTRY = "COUNTRY"
    ZIP = "ZIP"
    LOCATION_OTHER = "LOCATION-OTHER"
    AGE = "AGE"
    DATE = "DATE"
    PHONE = "PHONE"
    FAX = "FAX"
    EMAIL = "EMAIL"
    URL = "URL"
    IPADDR = "IPADDR"
    SSN = "SSN"
    MEDICALRECORD = "MEDICALRECORD"
    HEALTHPLAN = "HEALTHPLAN"
    ACCOUNT = "ACCOUNT"
    LICENSE = "LICENSE"
    VEHICLE = "VEHICLE"
    DEVICE = "DEVICE"
    BIOID = "BIOID"
    IDNUM = "IDNUM"

    @property
    def category(self) -> PhiCategory:
        return TAXONOMY[self].category

    @property
    def hipaa(self) -> bool:
        return TAXONOMY[self].hipaa

    @classmethod
    def parse(cls, value: str) -> PhiType:
        """Accept i2b2 spellings (``LOCATION-OTHER``, ``OTHER``, any case, ``_`` for ``-``)."""
        norm = value.strip().upper().replace("_", "-")
        if norm in ("OTHER", "LOCATION_OTHER"):
            norm = "LOCATION-OTHER"
        try:
            return cls(norm)
        except ValueError:
            raise ValueError(f"unknown PHI type ({len(value)} characters); expected one of {', '.join(t.value for t in cls)}") from None


@dataclass(frozen=True, slots=True)
class PhiTypeInfo:
    category: PhiCategory
    hipaa: bool
    description: str


_C = PhiCategory
TAXONOMY: dict[PhiType, PhiTypeInfo] = {
    PhiType.PATIENT: PhiTypeInfo(_C.NAME, True, "patient or relative name"),
    PhiType.DOCTOR: PhiTypeInfo(_C.NAME, False, "clinician name"),
    PhiType.USERNAME: PhiTypeInfo(_C.NAME, False, "user id or sign-off initials"),
    PhiType.PROFESSION: PhiTypeInfo(_C.PROFESSION, False, "occupation"),
    PhiType.ROOM: PhiTypeInfo(_C.LOCATION, False, "room or bed"),
    PhiType.DEPARTMENT: PhiTypeInfo(_C.LOCATION, False, "hospital department"),
    PhiType.HOSPITAL: PhiTypeInfo(_C.LOCATION, False, "hospital or clinic"),
    # Employers are HIPAA identifiers of the patient.
    PhiType.ORGANIZATION: PhiTypeInfo(_C.LOCATION, True, "organization or employer"),
    PhiType.STREET: PhiTypeInfo(_C.LOCATION, True, "street address"),
    PhiType.CITY: PhiTypeInfo(_C.LOCATION, True, "city"),
    PhiType.STATE: PhiTypeInfo(_C.LOCATION, False, "state"),
    PhiType.COUNTRY: PhiTypeInfo(_C.LOCATION, False, "country"),
    PhiType.ZIP: PhiTypeInfo(_C.LOCATION, True, "ZIP code"),
    PhiType.LOCATION_OTHER: PhiTypeInfo(_C.LOCATION, False, "other location"),
    # Only ages over 89 are HIPAA identifiers; the AGE subtype as a whole is flagged because the
    # i2b2 HIPAA evaluation counts it, and the surrogate step generalises >= 90 to "90+".
    PhiType.AGE: PhiTypeInfo(_C.AGE, True, "age"),
    PhiType.DATE: PhiTypeInfo(_C.DATE, True, "date (any element but the year alone)"),
    PhiType.PHONE: PhiTypeInfo(_C.CONTACT, True, "phone or pager number"),
    PhiType.FAX: PhiTypeInfo(_C.CONTACT, True, "fax number"),
    PhiType.EMAIL: PhiTypeInfo(_C.CONTACT, True, "e-mail address"),
    # Safe Harbor items 14 and 15 (URLs, IP addresses), although the i2b2 table marks them "No".
    PhiType.URL: PhiTypeInfo(_C.CONTACT, True, "web address"),
    PhiType.IPADDR: PhiTypeInfo(_C.CONTACT, True, "IP address"),
    PhiType.SSN: PhiTypeInfo(_C.ID, True, "social security number"),
    PhiType.MEDICALRECORD: PhiTypeInfo(_C.ID, True, "medical record number"),
    PhiType.HEALTHPLAN: PhiTypeInfo(_C.ID, True, "health plan beneficiary number"),
    PhiType.ACCOUNT: PhiTypeInfo(_C.ID, True, "account number"),
    PhiType.LICENSE: PhiTypeInfo(_C.ID, True, "certificate or license number (DEA, NPI, ...)"),
    PhiType.VEHICLE: PhiTypeInfo(_C.ID, True, "vehicle identifier or plate"),
    PhiType.DEVICE: PhiTypeInfo(_C.ID, True, "device identifier or serial number"),
    PhiType.BIOID: PhiTypeInfo(_C.ID, True, "biometric identifier"),
    PhiType.IDNUM: PhiTypeInfo(_C.ID, True, "other identifying number"),
}

assert set(TAXONOMY) == set(PhiType)


def types_in(category: PhiCategory) -> list[PhiType]:
    return [t for t, info in TAXONOMY.items() if info.category is category]
