"""Canary messages for the whole-message acceptance test: every PHI-bearing field of many HL7 v2.5.1 segment
types and FHIR R4 resource types filled with canary PHI, and a search for those canaries.

Pure functions of a seed: no I/O, the same bytes for the same seed.

How fields are filled
---------------------
HL7 v2.5.1: every field of every segment in ``HL7_SEGMENTS`` is filled from hl7apy's v2.5.1 tables, leaf
by leaf, by datatype and by the names of the field and its components (see ``_Hl7Filler.leaf``):

* name parts of XPN/XCN/PPN/CNN/FN -> a canary person (the patient in PID, the relative in NK1, the
  guarantor in GT1, the insured in IN1-IN3, doctors in XCN-type fields...);
* XAD/AD/LA2 street, city, ZIP, other designation, county -> the person's canary address parts;
* XTN telephone, e-mail, local number, unformatted number -> the person's canary contacts;
* CX/EI/XCN ids and ST fields whose name says ID/NUMBER/SSN/LICENSE -> canary ids (8 digits from 97) or
  the person's SSN; HL7 facility names (HD namespace of a facility, PL point of care/room/bed/building/
  floor, XON organisation names) -> canary facility, ward, employer or insurer names;
* TS/DTM/DT (and hl7apy's ST-typed DR parts) -> canary dates: the person's birth date in ``*BIRTH*``
  fields, else one of the visit dates, in several precisions, some with a zone (``19300122000000+0215``);
* ST/TX/FT and the text components of CE/CWE/CNE -> a sentence naming the patient;
* ID/IS and the code components of coded types -> short codes (``A``, ``X1``, ``LN``): codes are kept
  on purpose by every policy, so they are never canaries;
* NM/SI -> small numbers.

PRT (added in v2.7) and OBX-20..22 (reserved without a datatype in v2.5.1) are filled from hl7apy's
v2.8.2 tables, as the loader reads them. Z-segments (ZPI, ZXT) are filled with canary values where a site
would put them. Each case has an ORU^R01, an MDM^T02, an SIU^S12 and an ORM^O01
message; each carries MSH, EVN, PID (exactly one), NK1, PV1, PRT, the Z-segments and the OBX group (one TX
note plus ST, FT, NM, CE, ED (base64 text), TS, DT, SN, XPN, XAD, XTN and CX valued OBX), and a quarter
of the other segments (``hl7_segments_of``), so the four together carry all of ``HL7_SEGMENTS``. No
canary value contains an HL7 delimiter, so python-hl7 parses every message.

FHIR R4: one collection Bundle per case and variant with ``FHIR_RESOURCE_TYPES`` (28 types), contained
resources referenced as ``#id``, extensions (mother's maiden name, birth place, birth time on
``_birthDate``, geolocation inside an address), conditional references
(``Patient?identifier=http://hosp.example/mrn|<MRN>``), ids and fullUrls built from the MRN, a
Bundle.link search URL with the MRN, narratives, attachments with base64 text. Every resource validates
with ``fhir.resources.R4B``.

Canary values
-------------
Built like ``deid_tools.drivers.canaries``: persons from ``make_canary_patients`` (syllable names that no
dictionary or surrogate pool holds, MRNs of 8 digits from 97), plus organisation, ward, county and
district names from the same syllable generator, e-mails, local numbers, extra ids and message ids.

Dates: every canary date (birth dates of all persons and the visit dates) sits in its own slot of 733
days from 1921, so a date shifted by a patient's offset (1-365 days) can never land on another canary
date, and a date kept unchanged is always found. Compact HL7 dates are searched as a prefix (a
timestamp ``20210514101500`` holds the date ``20210514``).

``CanaryValues.by_kind`` groups values by kind so a policy that keeps some kinds on purpose
(limited-data-set keeps dates, cities, ZIPs and facility names) can be checked for the rest.
"""

from __future__ import annotations

import base64
import dataclasses
import datetime as dt
import json
import random
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from deid_tools.drivers.canaries import (
    CanaryPatient,
    _syllable_name,
    _value_pattern,
    _views,
    dob_forms,
    make_canary_patients,
)

DEFAULT_SEED = 20260
CASES = 4
"""Patients per seed. Each has its own relatives, doctors, organisations and ids."""

_SLOT_BASE = dt.date(1921, 1, 1)
_SLOT_DAYS = 733  # > 2 x 365: a shifted canary date never equals another canary date
_VISIT_SLOTS = (49, 50, 51)  # 2019, 2021, 2023
_PATIENT_SLOTS = (2, 20, 33, 44)  # born 1925 (aged over 89: birth date removed), 1961, 1987, 2009
_PERSON_SLOTS = tuple(k for k in range(48) if k not in _PATIENT_SLOTS)
ROLES = ("patient", "mother", "relative", "spouse", "guarantor", "insured", "doctor1", "doctor2", "doctor3")

OID = "2.16.840.1.113883.19.5"
HOSP = "http://hosp.example"
MRN_SYSTEM = f"{HOSP}/mrn"

# The segment types of the canary HL7 messages, in message order: 68 of v2.5.1, PRT (v2.7), two Z-segments.
HL7_SEGMENTS = (
    "MSH", "SFT", "EVN", "SCH", "TQ1", "TQ2", "NTE", "PID", "PD1", "PRT", "ROL", "NK1", "PV1", "PV2", "DB1",
    "CTD", "OBX", "AL1", "IAM", "DG1", "DRG", "PR1", "GT1", "IN1", "IN2", "IN3", "ACC", "UB1", "UB2", "MRG",
    "AUT", "RF1", "RGS", "AIS", "AIG", "AIL", "AIP", "ORC", "RXO", "RXE", "RXR", "RXA", "OBR", "SPM", "SAC",
    "TXA", "FT1", "CON", "PRB", "GOL", "PTH", "VAR", "PES", "PEO", "PCR", "PSH", "PDC", "FAC", "STF", "PRA",
    "ORG", "AFF", "EDU", "LAN", "CER", "INV", "EQU", "TCD", "NST", "ZPI", "ZXT",
)  # fmt: skip
HL7_MESSAGE_TYPES = ("ORU^R01^ORU_R01", "MDM^T02^MDM_T02", "SIU^S12^SIU_S12", "ORM^O01^ORM_O01")
# In every message; the other segments are dealt round-robin to the message types, so that each case's
# messages together carry every segment while one message stays small enough to process quickly.
HL7_CORE_SEGMENTS = frozenset({"MSH", "EVN", "PID", "NK1", "PV1", "OBX", "PRT", "ZPI", "ZXT"})


def hl7_segments_of(message_no: int) -> tuple[str, ...]:
    """The segments (in message order) of message ``message_no`` of a case."""
    others = [s for s in HL7_SEGMENTS if s not in HL7_CORE_SEGMENTS]
    mine = set(others[message_no % len(HL7_MESSAGE_TYPES) :: len(HL7_MESSAGE_TYPES)])
    return tuple(s for s in HL7_SEGMENTS if s in HL7_CORE_SEGMENTS or s in mine)


FHIR_RESOURCE_TYPES = (
    "Patient", "RelatedPerson", "Practitioner", "PractitionerRole", "Organization", "Location", "Encounter",
    "Observation", "Condition", "Procedure", "MedicationRequest", "AllergyIntolerance", "Immunization",
    "CarePlan", "Appointment", "Coverage", "Claim", "DocumentReference", "DiagnosticReport", "ServiceRequest",
    "Specimen", "Provenance", "QuestionnaireResponse", "Communication", "Account", "EpisodeOfCare", "CareTeam",
    "Device",
)  # fmt: skip

# Kinds of canary values (``CanaryValues.by_kind``).
KINDS = (
    "name", "id", "ssn", "phone", "email", "street", "city", "zip", "county", "date", "facility", "ward",
    "employer", "insurer", "message_id", "geo",
)  # fmt: skip


# ------------------------------------------------------------------------------------------- the cast


@dataclass(frozen=True)
class CanaryPerson(CanaryPatient):
    """A canary person: a ``CanaryPatient`` (names, ids, birth date, phone, SSN, address) plus contacts."""

    email: str = ""
    local_number: str = ""
    """The phone's local 7 digits, as XTN.7 carries it."""

    @property
    def full_name(self) -> str:
        return f"{self.given} {self.family}"

    @property
    def street_number(self) -> str:
        return self.street.split(" ", 1)[0]

    @property
    def street_name(self) -> str:
        return self.street.split(" ", 1)[1]

    @property
    def street_word(self) -> str:
        return self.street.split(" ")[1]


@dataclass(frozen=True)
class CanaryCase:
    """One patient and everyone and everything around them; every string here is a canary unless noted."""

    index: int
    persons: Mapping[str, CanaryPerson]
    facility: str
    ward: str
    employer: str
    insurer: str
    county: str
    district: str
    suite: str
    ids: tuple[str, ...]
    """Extra canary ids (8 digits from 97) for visit, account, order, specimen, policy, lot... numbers."""
    visits: tuple[dt.date, ...]
    geo: tuple[str, str]
    """Latitude and longitude (decimal strings) of the patient's home."""

    @property
    def patient(self) -> CanaryPerson:
        return self.persons["patient"]

    @property
    def doctors(self) -> tuple[CanaryPerson, ...]:
        return (self.persons["doctor1"], self.persons["doctor2"], self.persons["doctor3"])

    def id_at(self, n: int) -> str:
        return self.ids[n % len(self.ids)]

    def message_id(self, n: int) -> str:
        return f"MC{self.patient.mrn}-{n}"

    def values(self) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {k: set() for k in KINDS}
        for p in self.persons.values():
            out["name"].update((p.given, p.family))
            out["id"].update((p.patient_id, p.mrn))
            out["ssn"].add(p.ssn)
            out["phone"].update((p.phone, p.local_number))
            out["email"].add(p.email)
            out["street"].update((p.street, p.street_name, p.street_word))
            out["city"].add(p.city)
            out["zip"].add(p.zip)
            out["date"].update(dob_forms(p.dob))
        out["id"].update(self.ids)
        for visit in self.visits:
            out["date"].update(dob_forms(visit))
        out["facility"].add(self.facility)
        out["ward"].add(self.ward)
        out["employer"].add(self.employer)
        out["insurer"].add(self.insurer)
        out["county"].add(self.county)
        out["street"].update((self.district, self.suite))
        out["message_id"].update(self.message_id(n) for n in range(len(HL7_MESSAGE_TYPES)))
        out["message_id"].update(_bundle_id(self, v) for v in range(FHIR_VARIANTS))
        out["geo"].update(self.geo)
        return out


def _slot_date(slot: int, rng: random.Random) -> dt.date:
    return _SLOT_BASE + dt.timedelta(days=slot * _SLOT_DAYS + rng.randrange(30))


@cache
def canary_cases(seed: int = DEFAULT_SEED) -> tuple[CanaryCase, ...]:
    rng = random.Random(f"canary-messages:{seed}")
    people = make_canary_patients(CASES * len(ROLES), seed=seed)
    person_slots = list(_PERSON_SLOTS)
    rng.shuffle(person_slots)
    used = {v.lower() for p in people for v in (p.given, p.family, p.city, p.street)}

    def word(parts: int = 2) -> str:
        while True:
            w = _syllable_name(rng, parts)
            if w.lower() not in used:
                used.add(w.lower())
                return w

    used_ids = {p.mrn for p in people}

    def canary_id() -> str:
        while True:
            v = f"97{rng.randrange(10**6):06d}"
            if v not in used_ids:
                used_ids.add(v)
                return v

    visits = tuple(_slot_date(s, rng) for s in _VISIT_SLOTS)
    cases = []
    for i in range(CASES):
        persons: dict[str, CanaryPerson] = {}
        for j, role in enumerate(ROLES):
            base = people[i * len(ROLES) + j]
            slot = _PATIENT_SLOTS[i] if role == "patient" else person_slots.pop()
            persons[role] = CanaryPerson(
                **{**dataclasses.asdict(base), "dob": _slot_date(slot, rng)},
                email=f"{base.given.lower()}.{base.family.lower()}@{word(1).lower()}.example",
                local_number=re.sub(r"\D", "", base.phone)[3:],
            )
        cases.append(CanaryCase(
            index=i, persons=persons, facility=word(2), ward=word(1), employer=word(2), insurer=word(2),
            county=word(2), district=word(2), suite=word(1), ids=tuple(canary_id() for _ in range(24)),
            visits=visits,
            geo=(f"43.{rng.randrange(10**6, 10**7)}", f"-89.{rng.randrange(10**6, 10**7)}"),
        ))  # fmt: skip
    return tuple(cases)


# ------------------------------------------------------------------------------------ values and search


@dataclass(frozen=True)
class CanaryValues:
    by_kind: Mapping[str, frozenset[str]]

    def all(self) -> frozenset[str]:
        return frozenset(v for values in self.by_kind.values() for v in values)

    def without(self, *kinds: str) -> CanaryValues:
        unknown = set(kinds) - set(KINDS)
        if unknown:
            raise ValueError(f"unknown kinds {sorted(unknown)}")
        return CanaryValues({k: v for k, v in self.by_kind.items() if k not in kinds})

    def kind_of(self, value: str) -> str:
        return next((k for k, vs in self.by_kind.items() if value in vs), "?")

    def __len__(self) -> int:
        return len(self.all())


@cache
def all_canary_values(seed: int = DEFAULT_SEED) -> CanaryValues:
    """Every canary value the messages of ``seed`` carry, by kind."""
    merged: dict[str, set[str]] = {k: set() for k in KINDS}
    for case in canary_cases(seed):
        for kind, values in case.values().items():
            merged[kind].update(values)
    return CanaryValues({k: frozenset(v) for k, v in merged.items()})


_COMPACT_DATE = re.compile(r"^\d{8}$")


def _pattern(value: str) -> str:
    if _COMPACT_DATE.match(value) and value[:2] in ("19", "20"):
        # A compact HL7 date is also the head of a timestamp: only the left side is bounded.
        return r"(?<!\d)" + re.escape(value)
    if value.isdigit() and len(value) < 8:
        # Short digit runs (ZIPs, local numbers) also bounded against hex digits, so that a keyed hash
        # such as 'a5370f...' is not taken for the ZIP 53701.
        return r"(?<![0-9A-Fa-f])" + re.escape(value) + r"(?![0-9A-Fa-f])"
    return _value_pattern(value)


@cache
def _matcher(values: frozenset[str]) -> tuple[tuple[str, str, re.Pattern[str]], ...]:
    """(lower-cased needle, value to report, boundary-checked pattern) per searched form."""
    forms: dict[str, str] = {}
    for v in values:
        forms[v.lower()] = v
        digits = re.sub(r"\D", "", v)
        if re.fullmatch(r"[\d\- ().]+", v) and digits != v and len(digits) >= 7:
            forms[digits] = v  # phones and SSNs written as bare digits
    return tuple((needle, v, re.compile(_pattern(needle), re.IGNORECASE)) for needle, v in sorted(forms.items()))


def find(blob: bytes | str, values: CanaryValues | Iterable[str]) -> set[str]:
    """Every canary value that occurs in ``blob``: plain, HL7-unescaped, JSON-decoded, base64-decoded."""
    text = blob.decode("utf-8", "replace") if isinstance(blob, bytes) else blob
    wanted = values.all() if isinstance(values, CanaryValues) else frozenset(values)
    needles = _matcher(wanted)
    found: set[str] = set()
    for view in _views(text):
        low = view.lower()
        for needle, v, pattern in needles:
            if v in found:
                continue
            # str.find for candidates (fast, in C); the boundary-checked pattern only where one starts.
            at = low.find(needle)
            while at >= 0 and not pattern.match(low, at):
                at = low.find(needle, at + 1)
            if at >= 0:
                found.add(v)
    return found


def describe(found: Iterable[str], values: CanaryValues) -> list[str]:
    """``kind:value`` for a report."""
    return sorted(f"{values.kind_of(v)}:{v}" for v in found)


# -------------------------------------------------------------------------------------------- sentences


def sentence(case: CanaryCase, n: int) -> str:
    """A short text naming the patient, in one of several forms the header matcher and rules must find."""
    p = case.patient
    forms = (
        f"{p.given} {p.family} seen today",
        f"Spoke with {p.family}, {p.given} at {p.phone}",
        f"MRN {p.mrn} belongs to {p.given} {p.family}",
        f"{p.given} {p.family} lives at {p.street}, {p.city}",
        f"DOB {p.dob:%m/%d/%Y} confirmed with {p.family}",
        f"{p.family} called from {p.phone}",
    )
    return forms[n % len(forms)]


def note_lines(case: CanaryCase, visit: dt.date) -> list[str]:
    """The TX note: patient, relative and doctor mentioned the way clinicians write them."""
    p, rel, doc = case.patient, case.persons["relative"], case.doctors[0]
    return [
        f"Progress note {visit:%m/%d/%Y}: {p.given} {p.family} seen in clinic for follow-up of hypertension.",
        f"MRN {p.mrn}. DOB {p.dob:%m/%d/%Y}. Call back at {p.phone} if symptoms worsen.",
        f"{p.given} lives at {p.street}, {p.city}; {p.family} reports good adherence to lisinopril.",
        f"Daughter {rel.given} {rel.family} present. Seen with Dr. {doc.family}.",
    ]


# ------------------------------------------------------------------------------------------------ HL7


def _hl7_tables() -> tuple[dict[str, Any], dict[str, Any]]:
    from hl7apy.v2_5_1 import datatypes, segments

    return segments.SEGMENTS, datatypes.DATATYPES_STRUCTS


def _newer_segments() -> dict[str, Any]:
    """hl7apy's v2.8.2 segments: PRT (added in v2.7) and OBX-20..22 (reserved without a type in v2.5.1)."""
    from hl7apy.v2_8_2 import segments

    return segments.SEGMENTS


_NAME_TYPES = frozenset({"XPN", "XCN", "PPN", "CNN", "FN", "NDL"})
_DOCTOR_TYPES = frozenset({"XCN", "PPN", "CNN", "NDL"})
_CODED_TYPES = frozenset({"CE", "CWE", "CNE", "CF"})
_ADDRESS_TYPES = frozenset({"XAD", "AD", "SAD", "LA2", "LA1"})
_PLACE_PARTS = frozenset({"POINT_OF_CARE", "ROOM", "BED", "BUILDING", "FLOOR"})
_ID_WORDS = frozenset({"ID", "NUMBER", "IDENTIFIER", "SSN", "LICENSE"})
_NOT_ID_WORDS = frozenset({"SUB", "VERSION", "SYSTEM", "CHECK", "TYPE", "UNIVERSAL", "NAMESPACE", "SCHEME", "CODE"})
# The person a segment's fields describe, when not the patient (doctor-typed fields name doctors anywhere).
_SEGMENT_PERSON = {
    "NK1": "relative", "GT1": "guarantor", "IN1": "insured", "IN2": "insured", "IN3": "insured", "CTD": "relative",
    "STF": "doctor2", "PRA": "doctor2", "ORG": "doctor2", "AFF": "doctor2", "EDU": "doctor2", "LAN": "doctor2",
    "CER": "doctor2", "ROL": "doctor3", "AIP": "doctor3", "AIG": "doctor3", "PRT": "doctor3", "PEO": "relative",
}  # fmt: skip
# Coded fields that name an organisation (ORC-17, PRA-9, RXE-38, RXE-40): their text is its name.
_CODED_ORG_FIELDS = frozenset(
    {"ENTERING_ORGANIZATION", "INSTITUTION", "PHARMACY_OF_MOST_RECENT_FILL", "DISPENSING_PHARMACY"}
)
# Segments about products and reports, not people: their ids are catalogue data (kept as codes).
_PRODUCT_SEGMENTS = frozenset({"PDC", "PSH", "NST", "INV"})
_DTM_FORMATS = ("%Y%m%d%H%M%S+0215", "%Y%m%d%H%M", "%Y%m%d", "%Y%m%d%H%M%S.1234-0500", "%Y%m%d%H%M%S")


class _Hl7Filler:
    """Fills fields of one message for one case (a counter makes ids, dates and sentences vary)."""

    def __init__(self, case: CanaryCase, message_no: int) -> None:
        self.case = case
        self.n = message_no * 7
        self.segments, self.datatypes = _hl7_tables()

    def tick(self) -> int:
        self.n += 1
        return self.n

    # -- persons

    def person_for(self, seg: str, field_name: str, types: tuple[str, ...]) -> CanaryPerson:
        persons = self.case.persons
        if "MOTHER" in field_name:
            return persons["mother"]
        if "SPOUSE" in field_name or "CONTACT_PERSON" in field_name:
            return persons["spouse"]
        if "GUARANTOR" in field_name:
            return persons["guarantor"]
        if "INSURED" in field_name:
            return persons["insured"]
        if types and types[0] in _DOCTOR_TYPES:
            return self.case.doctors[sum(map(ord, field_name)) % 3]
        return persons[_SEGMENT_PERSON.get(seg, "patient")]

    # -- values

    def date(self, names: tuple[str, ...], person: CanaryPerson, datatype: str) -> str:
        birth = any("BIRTH" in n for n in names)
        n = self.tick()
        day = person.dob if birth else self.case.visits[n % len(self.case.visits)]
        if datatype == "DT":
            return f"{day:%Y%m%d}"
        stamp = dt.datetime(day.year, day.month, day.day, 10 + n % 8, 15, 30)
        if birth and names and names[0] in ("DATE_TIME_OF_BIRTH",):
            return f"{day:%Y%m%d}000000+0215"
        return stamp.strftime(_DTM_FORMATS[n % len(_DTM_FORMATS)])

    def org(self, field_name: str) -> str:
        if "EMPLOY" in field_name:
            return self.case.employer
        if any(w in field_name for w in ("INSUR", "PAYOR", "PAYER", "COMPANY", "PLAN")):
            return self.case.insurer
        return self.case.facility

    def leaf(self, seg: str, datatype: str, names: tuple[str, ...], types: tuple[str, ...]) -> str:
        """One primitive value. ``names``: field name then component names; ``types``: enclosing types."""
        name = names[-1]
        field_name = names[0]
        inner = types[-1] if types else ""
        person = self.person_for(seg, field_name, types)
        case = self.case
        words = set(name.split("_"))
        if datatype in ("ID", "IS"):
            if inner == "ED" and name in ("TYPE_OF_DATA", "DATA_SUBTYPE", "ENCODING"):
                return {"TYPE_OF_DATA": "TEXT", "DATA_SUBTYPE": "plain", "ENCODING": "Base64"}[name]
            if inner in ("PL", "LA1", "LA2", "NDL") and name in _PLACE_PARTS:
                return case.ward
            if inner == "HD" and name == "NAMESPACE_ID" and any(n in _PLACE_PARTS for n in names):
                return case.ward  # v2.7+ PL.1 (point of care) is an HD
            if (inner == "HD" and name == "NAMESPACE_ID" and any("FACILITY" in n for n in names)) or (
                not types and ("FACILITY" in name or name.endswith("LOCATION")) and "TYPE" not in words
            ):
                return case.facility
            if "COUNTY" in words:
                return case.county
            if name == "ADMINISTRATIVE_SEX":
                return "F"
            if name == "IDENTIFIER_TYPE_CODE":
                return "AN" if "ACCOUNT" in field_name else "MR"
            if "STATE" in name:
                return "WI"
            if name == "COUNTRY":
                return "USA"
            if name == "NAME_OF_CODING_SYSTEM" or name == "NAME_OF_ALTERNATE_CODING_SYSTEM":
                return "LN"
            return "A"
        if datatype == "WD":
            return ""  # withdrawn (v2.7+ tables): no sender fills it
        if datatype in ("DTM", "DT") and inner in _CODED_TYPES:
            return "20150101"  # a value set's version date (CWE.16/19/22), not a date about anyone
        if datatype in ("DTM", "DT") or inner == "DR_SIMPLE":
            return self.date(names, person, datatype)
        if datatype == "TM":
            return "1015"
        if datatype in ("NM", "SI", "SNM"):
            if inner == "XTN" and name == "LOCAL_NUMBER":
                return person.local_number
            if inner == "XTN" and name == "AREA_CITY_CODE":
                return "555"
            return "1" if datatype == "SI" else "2"
        if datatype in ("TX", "FT"):
            if inner == "ED" and name == "DATA":
                return base64.b64encode(sentence(case, self.tick()).encode()).decode()
            return sentence(case, self.tick())
        # ST, and fields the tables give no type (withdrawn): by where they sit and what they are called.
        if inner in _NAME_TYPES:
            if name in ("SURNAME", "OWN_SURNAME", "SURNAME_FROM_PARTNER_SPOUSE", "FAMILY_NAME"):
                # An employer's name sent in a person-name field (GT1-16, IN2-3) sits in the surname.
                return case.employer if "EMPLOYER" in field_name else person.family
            if name in ("GIVEN_NAME", "SECOND_AND_FURTHER_GIVEN_NAMES_OR_INITIALS_THEREOF"):
                return person.given
            if "PREFIX" in name and "SURNAME" in name:
                return "van"
            if name.startswith("SUFFIX"):
                return "Jr"
            if name.startswith("PREFIX"):
                return "Dr"
            if name == "PROFESSIONAL_SUFFIX":
                return "MD"
            if name == "ID_NUMBER":
                return person.mrn
            if name == "IDENTIFIER_CHECK_DIGIT":
                return "7"
            if "UNIVERSAL_ID" in name:
                return OID
        if inner in _ADDRESS_TYPES:
            if name in ("STREET_OR_MAILING_ADDRESS", "STREET_ADDRESS"):
                return person.street
            if name == "STREET_NAME":
                return person.street_name
            if name == "DWELLING_NUMBER":
                return person.street_number
            if name == "OTHER_DESIGNATION":
                return f"Suite {case.suite}"
            if name == "CITY":
                return person.city
            if name == "STATE_OR_PROVINCE":
                return "WI"
            if name == "ZIP_OR_POSTAL_CODE":
                return person.zip
            if name == "OTHER_GEOGRAPHIC_DESIGNATION":
                return case.district
            if name == "ADDRESSEE":
                return person.full_name
        if inner == "XTN":
            if name == "TELEPHONE_NUMBER":
                return person.phone
            if name in ("EMAIL_ADDRESS", "COMMUNICATION_ADDRESS"):
                return person.email
            if name == "UNFORMATTED_TELEPHONE_NUMBER":
                return re.sub(r"\D", "", person.phone)
            if name == "EXTENSION_PREFIX":
                return "x"
            if name == "SPEED_DIAL_CODE":
                return "7"
        if inner == "XON":
            if name == "ORGANIZATION_NAME":
                return self.org(field_name)
            if name == "ORGANIZATION_IDENTIFIER":
                return case.id_at(self.tick())
        if inner in _CODED_TYPES:
            if name.endswith("IDENTIFIER"):
                return "X1"
            if "VERSION" in name:
                return "1"
            if name.endswith("OID"):
                return OID
            if names[0] in _CODED_ORG_FIELDS or "INSTITUTION_NAME" in names:
                return self.org(field_name)  # a coded organisation, institution or pharmacy: its name
            return sentence(case, self.tick())
        if inner in ("HD", "EI", "OSD") and "UNIVERSAL_ID" in name and "TYPE" not in name:
            return OID
        if inner == "CX" and name == "CHECK_DIGIT":
            return "7"
        if inner == "SN":
            return ">" if name == "COMPARATOR" else ":"
        if inner == "RP" and name == "POINTER":
            return f"{HOSP}/docs/{case.id_at(self.tick())}.txt"
        if inner == "PL" and name == "LOCATION_DESCRIPTION":
            return f"{case.ward} wing of {case.facility}"
        if inner in ("PLN", "SPD") and name in ("STATE_OTHER_QUALIFYING_INFORMATION", "GOVERNING_BOARD"):
            return "WI"
        # Field-level ST (and ST components not handled above), by their names.
        if "SSN" in words or "SOCIAL" in words:
            return person.ssn
        if "BIRTH" in words and "PLACE" in words:
            return person.city
        if "EMAIL" in name or "E_MAIL" in name:
            return person.email
        if "DATE" in words or "DATE_TIME" in name:
            # A date in a text field is written as people write it.
            day = self.date(names, person, "DT")
            return f"{day[4:6]}/{day[6:8]}/{day[:4]}"
        if "ORGANIZATION" in words and "NAME" in words:
            return self.org(field_name)
        if "ADDRESS" in words:
            return person.street
        if "DIRECTOR" in words:
            return self.case.doctors[0].full_name
        if (words & _ID_WORDS or name.endswith(("_ID", "FILE_NAME"))) and not words & _NOT_ID_WORDS:
            if seg in _PRODUCT_SEGMENTS:
                return "X1"  # a product's model, catalogue or lot number identifies no person
            return case.id_at(self.tick())
        if "COMPANY" in words and "NAME" in words:
            return case.insurer
        if name == "ACCIDENT_LOCATION":
            return f"Near {person.street}"
        if words & {"ORGANIZATION", "STATION", "INSTITUTION"}:
            return self.org(field_name)
        if name == "SUBJECT_NAME":
            return person.full_name
        if words & {"DAYS", "AMOUNT", "UNIT", "PRIORITY", "DEDUCTIBLE"} or name in ("SEPARATOR_SUFFIX", "DURATION"):
            return "3"
        if name in ("REFERENCES_RANGE",):
            return "12-16"
        if name in ("SECURITY", "CONTINUATION_POINTER", "VERSION", "VERIFICATION_STATUS", "REPORT_TYPE"):
            return "A"
        return sentence(case, self.tick())

    def fill(self, seg: str, spec: Any, names: tuple[str, ...], types: tuple[str, ...], level: int) -> str:
        """ER7 text of a field (level 0), component (1) or subcomponent (2) described by ``spec``."""
        kind, body, datatype, name = spec[0], spec[1], spec[2] or "", spec[3] or ""
        names = (*names, name)
        if kind != "sequence":
            if datatype in self.datatypes and datatype != "varies":
                return self.fill_type(seg, datatype, names, types, level)
            return self.leaf(seg, datatype, names, types)
        parts = [self.fill(seg, child[1], names, (*types, datatype), level + 1) for child in body]
        if level >= 2:
            return next((p for p in parts if p), "")  # ER7 has no level below subcomponents
        if datatype == "TS":
            parts = parts[:1]  # TS.2 (degree of precision) is withdrawn
        return ("^" if level == 0 else "&").join(parts).rstrip("^&")

    def fill_type(self, seg: str, datatype: str, names: tuple[str, ...], types: tuple[str, ...], level: int) -> str:
        """A value of a named composite datatype (OBX-5 by OBX-2, or a leaf the tables type as composite)."""
        children = self.datatypes.get(datatype)
        if not children:
            return self.leaf(seg, datatype, names, types)
        spec = ("sequence", tuple(children), datatype, names[-1] if names else datatype)
        return self.fill(seg, spec, names[:-1], types, level)

    def segment(self, seg: str, overrides: Mapping[int, str] | None = None) -> str:
        newer = _newer_segments().get(seg, ("", ()))[1]
        fields = self.segments[seg][1] if seg in self.segments else newer
        values = []
        for i, f in enumerate(fields, 1):
            spec = f[1]
            if spec[2] is None and i <= len(newer) and newer[i - 1][1][2] not in (None, "WD"):
                spec = newer[i - 1][1]  # a field v2.5.1 reserves, as v2.6+ defines it (OBX-20..22)
            values.append(self.fill(seg, spec, (), (), 0))
        for i, v in (overrides or {}).items():
            while len(values) < i:
                values.append("")
            values[i - 1] = v
        return "|".join([seg, *values]).rstrip("|")


def _msh(filler: _Hl7Filler, msg_type: str, message_id: str, visit: dt.date) -> str:
    # MSH-1 is the field separator itself: field n of the segment is MSH-(n+1).
    body = filler.segment("MSH", {
        1: "", 2: "^~\\&", 7: f"{visit:%Y%m%d}101500", 9: msg_type, 10: message_id, 11: "P", 12: "2.5.1",
        14: "", 18: "UNICODE UTF-8", 21: "X1^A^2.16.840.1.113883.9.1^ISO",  # a conformance profile: a code
    })  # fmt: skip
    fields = body.split("|")
    return "MSH|" + "|".join(fields[2:])


def _obx_group(filler: _Hl7Filler, case: CanaryCase, visit: dt.date, lines: list[str]) -> list[str]:
    """One TX note OBX and one OBX per other value type, every other OBX field filled."""
    p, rel = case.patient, case.persons["relative"]
    b64 = base64.b64encode(f"{sentence(case, 0)}. {sentence(case, 1)}.".encode()).decode()
    values = [
        ("TX", "11506-3^Progress note^LN", "~".join(lines)),
        ("ST", "8251-1^Service comment^LN", sentence(case, 2)),
        ("FT", "48767-8^Annotation^LN", f"{sentence(case, 3)}\\.br\\{sentence(case, 4)}"),
        ("NM", "718-7^Hemoglobin^LN", "13.2"),
        ("CE", "X1^" + sentence(case, 5) + "^LN", "X1^" + sentence(case, 0) + "^LN"),
        ("ED", "11488-4^Consult note^LN", f"APP^TEXT^plain^Base64^{b64}"),
        ("TS", "8665-2^Last menstrual period^LN", f"{visit:%Y%m%d}083000+0215"),
        ("DT", "21112-8^Birth date^LN", f"{p.dob:%Y%m%d}"),
        ("SN", "5902-2^Prothrombin time^LN", ">^5"),
        ("XPN", "X2^Contact^L", f"{rel.family}^{rel.given}^^^^^L"),
        ("XAD", "X3^Home address^L", f"{p.street}^Suite {case.suite}^{p.city}^WI^{p.zip}^USA^H"),
        ("XTN", "X4^Contact number^L", f"{p.phone}^PRN^PH^{p.email}^1^555^{case.patient.local_number}"),
        ("CX", "X5^Other id^L", f"{case.id_at(1)}^^^HOSP^MR"),
    ]
    out = []
    for i, (vt, code, value) in enumerate(values, 1):
        out.append(filler.segment("OBX", {1: str(i), 2: vt, 3: code, 4: "1", 5: value, 7: "12-16", 11: "F"}))
    return out


def _z_segments(case: CanaryCase, visit: dt.date) -> list[str]:
    p, g, ins, doc = case.patient, case.persons["guarantor"], case.persons["insured"], case.doctors[1]
    return [
        "|".join([
            "ZPI", "1", p.patient_id, f"{p.family}^{p.given}", f"{p.dob:%Y%m%d}",
            f"{p.street}^^{p.city}^WI^{p.zip}", p.phone, p.ssn, sentence(case, 3), case.employer, p.email,
            f"{g.family}^{g.given}", case.id_at(5),
        ]),
        "|".join([
            "ZXT", "1", p.mrn, f"{doc.family}^{doc.given}", f"{visit:%Y%m%d}101500+0215", sentence(case, 1),
            case.facility, f"{ins.family}^{ins.given}", ins.ssn, case.id_at(6), case.insurer, case.county,
        ]),
    ]  # fmt: skip


def hl7_message(case: CanaryCase, message_no: int) -> tuple[bytes, bytes]:
    """(Kafka key = MSH-10, message) for one case and one of ``HL7_MESSAGE_TYPES``."""
    msg_type = HL7_MESSAGE_TYPES[message_no % len(HL7_MESSAGE_TYPES)]
    message_id = case.message_id(message_no)
    visit = case.visits[message_no % len(case.visits)]
    filler = _Hl7Filler(case, message_no)
    p = case.patient
    lines = note_lines(case, visit)
    out: list[str] = []
    for seg in hl7_segments_of(message_no):
        if seg == "MSH":
            out.append(_msh(filler, msg_type, message_id, visit))
        elif seg == "PID":
            out.append(filler.segment("PID", {
                1: "1",
                3: f"{p.patient_id}^^^HOSP^PI~{p.mrn}^7^M10^HOSP&{OID}&ISO^MR^{case.facility}&{OID}&ISO",
                5: f"{p.family}^{p.given}^{p.given}^Jr^Ms^^L~{p.family}^{p.given}^^^^^A",
                8: "F", 19: p.ssn,
            }))  # fmt: skip
        elif seg == "OBX":
            out.extend(_obx_group(filler, case, visit, lines))
        elif seg == "ZPI":
            out.extend(_z_segments(case, visit))
        elif seg == "ZXT":
            continue
        elif seg == "SFT":
            out.append(filler.segment("SFT", {1: f"{case.facility}^L", 2: "1.0", 3: "DEID", 4: "1"}))
        elif seg == "EVN":
            out.append(filler.segment("EVN", {1: "T02"}))
        else:
            out.append(filler.segment(seg))
    return message_id.encode(), ("\r".join(out) + "\r").encode()


def canary_hl7_messages(seed: int = DEFAULT_SEED) -> list[tuple[bytes, bytes]]:
    """(key, value) of every canary HL7 message: each case in each of ``HL7_MESSAGE_TYPES``."""
    return [hl7_message(case, n) for case in canary_cases(seed) for n in range(len(HL7_MESSAGE_TYPES))]


def hl7_segment_types(messages: Iterable[bytes]) -> set[str]:
    return {seg[:3] for m in messages for seg in m.decode().split("\r") if seg}


# ----------------------------------------------------------------------------------------------- FHIR

FHIR_VARIANTS = 2
"""Variant 0 refers to resources by ``<Type>/<id>`` with http fullUrls; variant 1 by ``urn:uuid:``."""


def _bundle_id(case: CanaryCase, variant: int) -> str:
    return f"b{case.patient.mrn}-{variant}"


class _Fhir:
    def __init__(self, case: CanaryCase, variant: int) -> None:
        self.case = case
        self.variant = variant
        self.visit = case.visits[(variant + 1) % len(case.visits)]
        self.n = variant * 11
        self.entries: list[dict[str, Any]] = []
        self.ids: dict[str, str] = {}

    def tick(self) -> int:
        self.n += 1
        return self.n

    # -- building blocks

    def text(self) -> str:
        return sentence(self.case, self.tick())

    def rid(self, rt: str, k: int = 0) -> str:
        return f"{rt[:3].lower()}{self.case.patient.mrn}-{k}"

    def full_url(self, rt: str, rid: str) -> str:
        if self.variant == 0:
            return f"{HOSP}/fhir/{rt}/{rid}"
        k = list(FHIR_RESOURCE_TYPES).index(rt) if rt in FHIR_RESOURCE_TYPES else 99
        return f"urn:uuid:{self.case.patient.mrn}-0000-4000-8000-{k * 1000 + int(rid.rsplit('-', 1)[1]):012d}"

    def ref(self, rt: str, k: int = 0, display: str | None = None) -> dict[str, Any]:
        rid = self.rid(rt, k)
        out: dict[str, Any] = {"reference": f"{rt}/{rid}" if self.variant == 0 else self.full_url(rt, rid)}
        if display:
            out["display"] = display
        return out

    def patient_ref(self, conditional: bool = False) -> dict[str, Any]:
        p = self.case.patient
        if conditional:
            return {"reference": f"Patient?identifier={MRN_SYSTEM}|{p.mrn}", "display": p.full_name}
        return self.ref("Patient", 0, p.full_name)

    def instant(self, day: dt.date | None = None, hour: int = 9) -> str:
        day = day or self.visit
        return f"{day.isoformat()}T{hour:02d}:15:30.123+02:15"

    def datetime(self, day: dt.date | None = None) -> str:
        day = day or self.visit
        n = self.tick()
        return (day.isoformat(), f"{day.isoformat()}T10:{n % 60:02d}:00+02:15", f"{day.isoformat()}T08:30:00Z")[n % 3]

    def period(self) -> dict[str, str]:
        return {"start": self.datetime(self.case.visits[0]), "end": self.datetime(self.visit)}

    def identifier(self, value: str, code: str = "MR", system: str = MRN_SYSTEM) -> dict[str, Any]:
        return {
            "use": "official",
            "type": {
                "coding": [{"system": "http://terminology.hl7.org/CodeSystem/v2-0203", "code": code}],
                "text": self.text(),
            },
            "system": system, "value": value, "period": self.period(),
            "assigner": {"display": self.case.facility},
        }  # fmt: skip

    def any_id(self) -> dict[str, Any]:
        return self.identifier(self.case.id_at(self.tick()), "RI", f"{HOSP}/ids")

    def name(self, person: CanaryPerson, prefix: str = "Ms") -> dict[str, Any]:
        return {
            "use": "official", "text": person.full_name, "family": person.family,
            "given": [person.given, person.given], "prefix": [prefix], "suffix": ["Jr"], "period": self.period(),
        }  # fmt: skip

    def address(self, person: CanaryPerson, geo: bool = False) -> dict[str, Any]:
        case = self.case
        out: dict[str, Any] = {
            "use": "home", "type": "both",
            "text": f"{person.street}, Suite {case.suite}, {person.city}, WI {person.zip}",
            "line": [person.street, f"Suite {case.suite}"], "city": person.city, "district": case.county,
            "state": "WI", "postalCode": person.zip, "country": "USA", "period": self.period(),
        }  # fmt: skip
        if geo:
            out["extension"] = [{
                "url": "http://hl7.org/fhir/StructureDefinition/geolocation",
                "extension": [
                    {"url": "latitude", "valueDecimal": float(case.geo[0])},
                    {"url": "longitude", "valueDecimal": float(case.geo[1])},
                ],
            }]  # fmt: skip
        return out

    def telecom(self, person: CanaryPerson) -> list[dict[str, Any]]:
        return [
            {"system": "phone", "value": person.phone, "use": "home", "rank": 1, "period": self.period()},
            {"system": "email", "value": person.email, "use": "work"},
            {"system": "fax", "value": re.sub(r"\D", "", person.phone), "use": "work"},
            {"system": "url", "value": f"{HOSP}/people/{person.mrn}"},
        ]

    def cc(self, code: str = "X1", system: str = "http://loinc.org") -> dict[str, Any]:
        return {"coding": [{"system": system, "code": code, "display": self.text()}], "text": self.text()}

    def note(self) -> list[dict[str, Any]]:
        doc = self.case.doctors[0]
        return [
            {"authorString": doc.full_name, "time": self.datetime(), "text": self.text()},
            {"authorReference": self.ref("Practitioner", 0, doc.full_name), "text": self.text()},
        ]

    def text_attachment(self, text: str, title: str) -> dict[str, Any]:
        return {
            "contentType": "text/plain; charset=utf-8", "language": "en",
            "data": base64.b64encode(text.encode()).decode(),
            "url": f"{HOSP}/docs/{self.case.patient.mrn}.txt", "title": title, "creation": self.datetime(),
        }  # fmt: skip

    def narrative(self) -> dict[str, str]:
        p = self.case.patient
        return {
            "status": "generated",
            "div": f'<div xmlns="http://www.w3.org/1999/xhtml">{p.full_name}, MRN {p.mrn}, {p.street}</div>',
        }

    def meta(self) -> dict[str, Any]:
        return {"versionId": "1", "lastUpdated": self.instant(), "source": f"{HOSP}/src/{self.case.id_at(self.tick())}"}

    def add(self, resource: dict[str, Any], k: int = 0) -> None:
        rt = resource["resourceType"]
        resource = {"resourceType": rt, "id": self.rid(rt, k), "meta": self.meta(), **{
            key: v for key, v in resource.items() if key != "resourceType"
        }}  # fmt: skip
        self.entries.append({"fullUrl": self.full_url(rt, resource["id"]), "resource": resource})

    # -- resources

    def contained_practitioner(self, cid: str, person: CanaryPerson) -> dict[str, Any]:
        return {
            "resourceType": "Practitioner", "id": cid,
            "identifier": [self.identifier(person.mrn, "NPI", "http://hl7.org/fhir/sid/us-npi")],
            "name": [self.name(person, "Dr")], "telecom": self.telecom(person), "address": [self.address(person)],
        }  # fmt: skip

    def build(self) -> dict[str, Any]:
        c = self.case
        p, rel, mother = c.patient, c.persons["relative"], c.persons["mother"]
        insured, guarantor = c.persons["insured"], c.persons["guarantor"]
        d1, d2, d3 = c.doctors
        note_text = "\n".join(note_lines(c, self.visit)) + "\n"
        self.add({
            "resourceType": "Patient", "text": self.narrative(),
            "extension": [
                {"url": "http://hl7.org/fhir/StructureDefinition/patient-mothersMaidenName", "valueString": mother.family},
                {"url": "http://hl7.org/fhir/StructureDefinition/patient-birthPlace", "valueAddress": self.address(mother)},
                {"url": f"{HOSP}/fhir/StructureDefinition/intake-remark", "valueString": self.text()},
                {"url": f"{HOSP}/fhir/StructureDefinition/other-id", "valueIdentifier": self.any_id()},
                {"url": f"{HOSP}/fhir/StructureDefinition/alias", "valueHumanName": self.name(p)},
            ],
            "identifier": [
                self.identifier(p.mrn),
                self.identifier(p.ssn, "SS", "http://hl7.org/fhir/sid/us-ssn"),
                self.identifier(p.patient_id, "PI", f"{HOSP}/patient-id"),
                self.identifier(c.id_at(2), "DL", "urn:oid:2.16.840.1.113883.4.3.55"),
            ],
            "active": True, "name": [self.name(p), {"use": "maiden", "family": mother.family, "given": [p.given]}],
            "telecom": self.telecom(p), "gender": "female", "birthDate": p.dob.isoformat(),
            "_birthDate": {"extension": [{
                "url": "http://hl7.org/fhir/StructureDefinition/patient-birthTime",
                "valueDateTime": f"{p.dob.isoformat()}T08:15:00+02:15",
            }]},
            "deceasedBoolean": False, "address": [self.address(p, geo=True)], "maritalStatus": self.cc("M"),
            "multipleBirthInteger": 1,
            "photo": [{
                "contentType": "image/jpeg", "data": base64.b64encode(f"JFIF photo of {p.full_name}".encode()).decode(),
                "url": f"{HOSP}/photos/{p.mrn}.jpg", "title": f"Photo of {p.full_name}", "creation": self.datetime(),
            }],
            "contact": [{
                "relationship": [self.cc("N", "http://terminology.hl7.org/CodeSystem/v2-0131")],
                "name": self.name(rel), "telecom": self.telecom(rel), "address": self.address(rel), "gender": "male",
                "organization": {"display": c.employer}, "period": self.period(),
            }],
            "communication": [{"language": {"coding": [{"system": "urn:ietf:bcp:47", "code": "en"}], "text": self.text()}}],
            "generalPractitioner": [self.ref("Practitioner", 0, d1.full_name)],
            "managingOrganization": self.ref("Organization", 0, c.facility),
        })  # fmt: skip
        self.add({
            "resourceType": "RelatedPerson", "identifier": [self.identifier(rel.mrn)], "active": True,
            "patient": self.patient_ref(), "relationship": [self.cc("DAU", "http://terminology.hl7.org/CodeSystem/v3-RoleCode")],
            "name": [self.name(rel)], "telecom": self.telecom(rel), "gender": "female", "birthDate": rel.dob.isoformat(),
            "address": [self.address(rel)], "period": self.period(),
        })  # fmt: skip
        self.add({
            "resourceType": "RelatedPerson", "identifier": [self.identifier(insured.ssn, "SS", "http://hl7.org/fhir/sid/us-ssn")],
            "patient": self.patient_ref(True), "name": [self.name(insured)], "telecom": self.telecom(insured),
            "birthDate": insured.dob.isoformat(), "address": [self.address(insured)],
        }, 1)  # fmt: skip
        self.add({
            "resourceType": "RelatedPerson", "identifier": [self.identifier(guarantor.mrn, "AN", f"{HOSP}/guarantors")],
            "patient": self.patient_ref(), "relationship": [self.cc("GUAR", "http://terminology.hl7.org/CodeSystem/v3-RoleCode")],
            "name": [self.name(guarantor)], "telecom": self.telecom(guarantor), "birthDate": guarantor.dob.isoformat(),
            "address": [self.address(guarantor)],
        }, 2)  # fmt: skip
        for k, doc in enumerate((d1, d2)):
            self.add({
                "resourceType": "Practitioner",
                "identifier": [self.identifier(doc.mrn, "NPI", "http://hl7.org/fhir/sid/us-npi")], "active": True,
                "name": [self.name(doc, "Dr")], "telecom": self.telecom(doc), "address": [self.address(doc)],
                "gender": "male", "birthDate": doc.dob.isoformat(),
                "qualification": [{
                    "identifier": [self.identifier(c.id_at(self.tick()), "LN", f"{HOSP}/licenses")],
                    "code": self.cc("MD"), "period": self.period(), "issuer": {"display": c.facility},
                }],
            }, k)  # fmt: skip
        self.add({
            "resourceType": "PractitionerRole", "identifier": [self.any_id()], "active": True, "period": self.period(),
            "practitioner": self.ref("Practitioner", 0, d1.full_name), "organization": self.ref("Organization", 0, c.facility),
            "code": [self.cc("doctor")], "specialty": [self.cc("394814009")], "location": [self.ref("Location", 0, c.ward)],
            "telecom": self.telecom(d1), "availabilityExceptions": self.text(),
        })  # fmt: skip
        for k, (org, person) in enumerate(((c.facility, d3), (c.employer, guarantor), (c.insurer, insured))):
            self.add({
                "resourceType": "Organization", "identifier": [self.any_id()], "active": True, "name": org,
                "alias": [f"{org} Center"], "telecom": self.telecom(person), "address": [self.address(person)],
                "contact": [{
                    "purpose": self.cc("ADMIN"), "name": self.name(person), "telecom": self.telecom(person),
                    "address": self.address(person),
                }],
            }, k)  # fmt: skip
        self.add({
            "resourceType": "Location", "identifier": [self.any_id()], "status": "active", "name": c.ward,
            "alias": [f"{c.ward} ward of {c.facility}"], "description": self.text(), "mode": "instance",
            "telecom": self.telecom(d3), "address": self.address(p),
            "position": {"longitude": float(c.geo[1]), "latitude": float(c.geo[0])},
            "managingOrganization": self.ref("Organization", 0, c.facility),
        })  # fmt: skip
        self.add({
            "resourceType": "Encounter", "text": self.narrative(),
            "extension": [{"url": f"{HOSP}/fhir/StructureDefinition/visit-note", "valueString": self.text()}],
            "identifier": [self.identifier(c.id_at(3), "VN", f"{HOSP}/visits")], "status": "finished",
            "class": {"system": "http://terminology.hl7.org/CodeSystem/v3-ActCode", "code": "AMB", "display": "ambulatory"},
            "subject": self.patient_ref(),
            "participant": [{"type": [self.cc("ATND")], "period": self.period(), "individual": self.ref("Practitioner", 0, d1.full_name)}],
            "period": self.period(), "reasonCode": [self.cc("38341003")],
            "hospitalization": {
                "preAdmissionIdentifier": self.any_id(), "origin": {"display": c.facility},
                "admitSource": self.cc("hosp-trans"), "destination": self.ref("Location", 0, c.ward),
            },
            "location": [{"location": self.ref("Location", 0, c.ward), "period": self.period()}],
            "serviceProvider": self.ref("Organization", 0, c.facility),
        })  # fmt: skip
        self.add({
            "resourceType": "Observation", "identifier": [self.any_id()], "status": "final",
            "category": [self.cc("social-history")], "code": self.cc("8251-1"), "subject": self.patient_ref(True),
            "encounter": self.ref("Encounter", 0), "effectiveDateTime": self.datetime(), "issued": self.instant(),
            "performer": [self.ref("Practitioner", 1, d2.full_name), self.ref("RelatedPerson", 0, rel.full_name)],
            "valueString": self.text(), "note": self.note(),
            "component": [
                {"code": self.cc("X2"), "valueString": self.text()},
                {"code": self.cc("X3"), "valueDateTime": self.datetime()},
                {"code": self.cc("X4"), "valuePeriod": self.period()},
            ],
        })  # fmt: skip
        self.add({
            "resourceType": "Observation", "status": "final", "code": self.cc("21112-8"), "subject": self.patient_ref(),
            "effectivePeriod": self.period(), "valueDateTime": f"{p.dob.isoformat()}T08:15:00+02:15",
            "derivedFrom": [self.ref("DocumentReference", 0, self.text())],
        }, 1)  # fmt: skip
        self.add({
            "resourceType": "Condition", "identifier": [self.any_id()],
            "clinicalStatus": {"coding": [{"system": "http://terminology.hl7.org/CodeSystem/condition-clinical", "code": "active"}]},
            "code": self.cc("38341003"), "subject": self.patient_ref(), "encounter": self.ref("Encounter", 0),
            "onsetDateTime": self.datetime(), "recordedDate": self.datetime(), "recorder": self.ref("Practitioner", 0, d1.full_name),
            "asserter": self.ref("RelatedPerson", 0, rel.full_name), "note": self.note(),
        })  # fmt: skip
        self.add({
            "resourceType": "Procedure", "contained": [self.contained_practitioner("prac1", d3)],
            "identifier": [self.any_id()], "status": "completed", "code": self.cc("80146002"),
            "subject": self.patient_ref(), "encounter": self.ref("Encounter", 0), "performedPeriod": self.period(),
            "recorder": {"reference": "#prac1", "display": d3.full_name},
            "performer": [{"actor": {"reference": "#prac1", "display": d3.full_name}, "onBehalfOf": self.ref("Organization", 0, c.facility)}],
            "location": self.ref("Location", 0, c.ward), "reasonCode": [self.cc("X5")], "note": self.note(),
        })  # fmt: skip
        self.add({
            "resourceType": "MedicationRequest", "identifier": [self.any_id()], "status": "active", "intent": "order",
            "medicationCodeableConcept": self.cc("29046"), "subject": self.patient_ref(), "authoredOn": self.datetime(),
            "requester": self.ref("Practitioner", 0, d1.full_name),
            "dosageInstruction": [{"text": self.text(), "patientInstruction": self.text()}], "note": self.note(),
            "dispenseRequest": {"validityPeriod": self.period(), "performer": self.ref("Organization", 0, c.facility)},
        })  # fmt: skip
        self.add({
            "resourceType": "AllergyIntolerance", "identifier": [self.any_id()],
            "clinicalStatus": {"coding": [{"system": "http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical", "code": "active"}]},
            "code": self.cc("7980"), "patient": self.patient_ref(), "onsetDateTime": self.datetime(),
            "recordedDate": self.datetime(), "recorder": self.ref("Practitioner", 1, d2.full_name),
            "asserter": self.ref("RelatedPerson", 0, rel.full_name), "note": self.note(),
            "reaction": [{"manifestation": [self.cc("39579001")], "description": self.text(), "onset": self.datetime(), "note": self.note()}],
        })  # fmt: skip
        self.add({
            "resourceType": "Immunization", "identifier": [self.any_id()], "status": "completed",
            "vaccineCode": self.cc("140"), "patient": self.patient_ref(), "occurrenceDateTime": self.datetime(),
            "recorded": self.datetime(), "location": self.ref("Location", 0, c.ward), "lotNumber": c.id_at(9),
            "expirationDate": self.case.visits[2].isoformat(),
            "performer": [{"actor": self.ref("Practitioner", 1, d2.full_name)}], "note": self.note(),
        })  # fmt: skip
        self.add({
            "resourceType": "CarePlan", "identifier": [self.any_id()], "status": "active", "intent": "plan",
            "title": self.text(), "description": self.text(), "subject": self.patient_ref(), "period": self.period(),
            "created": self.datetime(), "author": self.ref("Practitioner", 0, d1.full_name), "note": self.note(),
            "activity": [{"detail": {"status": "scheduled", "description": self.text(), "scheduledPeriod": self.period()}}],
        })  # fmt: skip
        self.add({
            "resourceType": "Appointment", "identifier": [self.any_id()], "status": "booked", "description": self.text(),
            "start": self.instant(), "end": self.instant(hour=10), "created": self.datetime(), "comment": self.text(),
            "patientInstruction": self.text(),
            "participant": [
                {"actor": self.patient_ref(), "status": "accepted"},
                {"actor": self.ref("Practitioner", 0, d1.full_name), "status": "accepted", "period": self.period()},
            ],
        })  # fmt: skip
        self.add({
            "resourceType": "Coverage", "identifier": [self.identifier(c.id_at(10), "MB", f"{HOSP}/members")],
            "status": "active", "subscriber": self.ref("RelatedPerson", 1, insured.full_name), "subscriberId": c.id_at(11),
            "beneficiary": self.patient_ref(), "dependent": "01", "relationship": self.cc("child"), "period": self.period(),
            "payor": [self.ref("Organization", 2, c.insurer)],
            "class": [{"type": self.cc("group"), "value": c.id_at(12), "name": self.text()}],
        })  # fmt: skip
        self.add({
            "resourceType": "Claim", "identifier": [self.any_id()], "status": "active", "type": self.cc("professional"),
            "use": "claim", "patient": self.patient_ref(), "billablePeriod": self.period(), "created": self.datetime(),
            "provider": self.ref("Practitioner", 0, d1.full_name), "priority": self.cc("normal"),
            "insurance": [{
                "sequence": 1, "focal": True, "coverage": self.ref("Coverage", 0), "preAuthRef": [c.id_at(13)],
                "identifier": self.any_id(), "businessArrangement": c.id_at(14),
            }],
            "accident": {"date": self.visit.isoformat(), "type": self.cc("SPT"), "locationAddress": self.address(p)},
            "item": [{"sequence": 1, "productOrService": self.cc("1200"), "servicedDate": self.visit.isoformat(),
                      "locationAddress": self.address(p)}],
        })  # fmt: skip
        self.add({
            "resourceType": "DocumentReference", "text": self.narrative(),
            "masterIdentifier": self.identifier(c.id_at(15), "RI", f"{HOSP}/documents"),
            "identifier": [self.any_id()], "status": "current", "type": self.cc("11506-3"),
            "subject": self.patient_ref(), "date": self.instant(),
            "author": [self.ref("Practitioner", 0, d1.full_name), self.ref("Organization", 0, c.facility)],
            "authenticator": self.ref("Practitioner", 1, d2.full_name), "custodian": self.ref("Organization", 0, c.facility),
            "description": self.text(),
            "content": [{"attachment": self.text_attachment(note_text, f"Progress note for {p.full_name}")}],
            "context": {
                "encounter": [self.ref("Encounter", 0)], "period": self.period(),
                "facilityType": self.cc("clinic"), "sourcePatientInfo": self.patient_ref(True),
                "related": [self.ref("ServiceRequest", 0, self.text())],
            },
        })  # fmt: skip
        self.add({
            "resourceType": "DiagnosticReport", "contained": [self.contained_practitioner("interp", d2)],
            "identifier": [self.any_id()], "basedOn": [self.ref("ServiceRequest", 0)], "status": "final",
            "code": self.cc("11502-2"), "subject": self.patient_ref(), "encounter": self.ref("Encounter", 0),
            "effectiveDateTime": self.datetime(), "issued": self.instant(),
            "performer": [self.ref("Organization", 0, c.facility)],
            "resultsInterpreter": [{"reference": "#interp", "display": d2.full_name}],
            "specimen": [self.ref("Specimen", 0)], "result": [self.ref("Observation", 0, self.text())],
            "conclusion": f"{self.text()}. {self.text()}.", "conclusionCode": [self.cc("X6")],
            "presentedForm": [self.text_attachment(f"{self.text()}\n", f"Report for {p.full_name}")],
        })  # fmt: skip
        self.add({
            "resourceType": "ServiceRequest", "identifier": [self.any_id()],
            "requisition": self.identifier(c.id_at(16), "PLAC", f"{HOSP}/requisitions"), "status": "active",
            "intent": "order", "code": self.cc("24627-2"), "subject": self.patient_ref(), "encounter": self.ref("Encounter", 0),
            "occurrenceDateTime": self.datetime(), "authoredOn": self.datetime(),
            "requester": self.ref("Practitioner", 0, d1.full_name), "performer": [self.ref("Organization", 0, c.facility)],
            "reasonCode": [self.cc("X7")], "note": self.note(), "patientInstruction": self.text(),
        })  # fmt: skip
        self.add({
            "resourceType": "Specimen", "identifier": [self.any_id()],
            "accessionIdentifier": self.identifier(c.id_at(17), "ACSN", f"{HOSP}/accessions"), "status": "available",
            "type": self.cc("119297000"), "subject": self.patient_ref(), "receivedTime": self.datetime(),
            "request": [self.ref("ServiceRequest", 0)],
            "collection": {"collector": self.ref("Practitioner", 1, d2.full_name), "collectedDateTime": self.datetime(),
                           "bodySite": self.cc("368208006")},
            "note": self.note(),
        })  # fmt: skip
        self.add({
            "resourceType": "Provenance", "target": [self.ref("DocumentReference", 0), self.patient_ref()],
            "occurredDateTime": self.datetime(), "recorded": self.instant(), "reason": [self.cc("TREAT")],
            "location": self.ref("Location", 0, c.ward),
            "agent": [{"who": self.ref("Practitioner", 0, d1.full_name), "onBehalfOf": self.ref("Organization", 0, c.facility)}],
            "entity": [{"role": "source", "what": {"identifier": self.any_id(), "display": self.text()}}],
            "signature": [{
                "type": [{"system": "urn:iso-astm:E1762-95:2013", "code": "1.2.840.10065.1.12.1.1"}],
                "when": self.instant(), "who": self.ref("Practitioner", 0, d1.full_name),
                "data": base64.b64encode(f"signed by {d1.full_name} for {p.full_name}".encode()).decode(),
            }],
        })  # fmt: skip
        self.add({
            "resourceType": "QuestionnaireResponse", "identifier": self.any_id(), "status": "completed",
            "subject": self.patient_ref(), "authored": self.datetime(), "author": self.ref("Practitioner", 0, d1.full_name),
            "source": self.ref("RelatedPerson", 0, rel.full_name),
            "item": [
                {"linkId": "1", "text": self.text(), "answer": [{"valueString": self.text()}]},
                {"linkId": "2", "text": "Date of birth", "answer": [{"valueDate": p.dob.isoformat()}]},
                {"linkId": "3", "text": "Last visit", "answer": [{"valueDateTime": self.datetime()}]},
                {"linkId": "4", "text": "Contact", "answer": [{"valueString": f"{p.full_name} {p.phone}"}]},
            ],
        })  # fmt: skip
        self.add({
            "resourceType": "Communication", "identifier": [self.any_id()], "status": "completed",
            "subject": self.patient_ref(), "encounter": self.ref("Encounter", 0), "sent": self.datetime(),
            "received": self.datetime(), "recipient": [self.ref("RelatedPerson", 0, rel.full_name)],
            "sender": self.ref("Practitioner", 0, d1.full_name),
            "payload": [
                {"contentString": self.text()},
                {"contentAttachment": self.text_attachment(f"{self.text()}\n", f"Letter to {rel.full_name}")},
            ],
            "note": self.note(),
        })  # fmt: skip
        self.add({
            "resourceType": "Account", "identifier": [self.identifier(c.id_at(18), "AN", f"{HOSP}/accounts")],
            "status": "active", "name": f"Account of {p.full_name}", "subject": [self.patient_ref()],
            "servicePeriod": self.period(), "owner": self.ref("Organization", 0, c.facility), "description": self.text(),
            "guarantor": [{"party": self.ref("RelatedPerson", 2, guarantor.full_name), "period": self.period()}],
        })  # fmt: skip
        self.add({
            "resourceType": "EpisodeOfCare", "identifier": [self.any_id()], "status": "active",
            "patient": self.patient_ref(), "managingOrganization": self.ref("Organization", 0, c.facility),
            "period": self.period(), "careManager": self.ref("Practitioner", 1, d2.full_name),
        })  # fmt: skip
        self.add({
            "resourceType": "CareTeam", "identifier": [self.any_id()], "status": "active", "name": f"Team of {p.full_name}",
            "subject": self.patient_ref(), "period": self.period(),
            "participant": [
                {"member": self.ref("Practitioner", 0, d1.full_name), "period": self.period()},
                {"member": self.ref("RelatedPerson", 0, rel.full_name)},
            ],
            "note": self.note(),
        })  # fmt: skip
        self.add({
            "resourceType": "Device", "identifier": [self.any_id()],
            "udiCarrier": [{"deviceIdentifier": c.id_at(19), "carrierHRF": f"(01){c.id_at(20)}(21){c.id_at(21)}"}],
            "status": "active", "lotNumber": c.id_at(22), "serialNumber": c.id_at(23),
            "manufactureDate": c.visits[0].isoformat(), "expirationDate": c.visits[2].isoformat(),
            "patient": self.patient_ref(), "owner": self.ref("Organization", 0, c.facility),
            "contact": [{"system": "phone", "value": p.phone}], "location": self.ref("Location", 0, c.ward),
            "note": self.note(),
        })  # fmt: skip
        return {
            "resourceType": "Bundle", "id": _bundle_id(c, self.variant), "meta": {"lastUpdated": self.instant()},
            "identifier": {"system": f"{HOSP}/bundles", "value": c.id_at(4)}, "type": "collection",
            "timestamp": self.instant(),
            "link": [{"relation": "self", "url": f"{HOSP}/fhir/Patient?identifier={MRN_SYSTEM}|{p.mrn}&family={p.family}"}],
            "entry": self.entries,
        }  # fmt: skip


def fhir_bundle(case: CanaryCase, variant: int) -> tuple[bytes, bytes]:
    bundle = _Fhir(case, variant).build()
    return bundle["id"].encode(), json.dumps(bundle, ensure_ascii=False).encode()


def canary_fhir_bundles(seed: int = DEFAULT_SEED) -> list[tuple[bytes, bytes]]:
    """(key = Bundle.id, value) of every canary FHIR Bundle: each case in each variant."""
    return [fhir_bundle(case, v) for case in canary_cases(seed) for v in range(FHIR_VARIANTS)]


def fhir_resource_types(bundle: Mapping[str, Any]) -> set[str]:
    """Resource types in a bundle, contained resources included."""

    def walk(node: Any) -> Iterator[str]:
        if isinstance(node, dict):
            if isinstance(node.get("resourceType"), str):
                yield node["resourceType"]
            for v in node.values():
                yield from walk(v)
        elif isinstance(node, list):
            for v in node:
                yield from walk(v)

    return set(walk(bundle)) - {"Bundle"}


def validate_fhir(bundle: Mapping[str, Any]) -> None:
    """Raises pydantic's ValidationError if the Bundle or any resource in it is not valid R4(B)."""
    from fhir.resources.R4B import get_fhir_model_class

    get_fhir_model_class("Bundle").model_validate(bundle)
    for entry in bundle.get("entry", []):
        resource = entry["resource"]
        get_fhir_model_class(resource["resourceType"]).model_validate(resource)


# -------------------------------------------------------------------------------------------- reporting


def locate(output: bytes | str, value: str, fmt: str) -> list[str]:
    """Where ``value`` sits in a message: HL7 ``SEG-F.C.S`` or a FHIR element path (indexes dropped)."""
    text = output.decode("utf-8", "replace") if isinstance(output, bytes) else output
    found: set[str] = set()
    if fmt == "hl7v2":
        for segment in re.split(r"[\r\n]+", text):
            fields = segment.split("|")
            seg = fields[0]
            for f, fld in enumerate(fields[1:], 1):
                number = f + 1 if seg == "MSH" else f
                for rep in fld.split("~"):
                    for c, comp in enumerate(rep.split("^"), 1):
                        for s, sub in enumerate(comp.split("&"), 1):
                            if find(sub, [value]):
                                found.add(f"{seg}-{number}.{c}.{s}")
        return sorted(found) or ["(not in one value)"]

    def walk(node: Any, path: str) -> None:
        if isinstance(node, dict):
            base = node["resourceType"] if isinstance(node.get("resourceType"), str) else path
            for k, v in node.items():
                walk(v, f"{base}.{k}" if base else k)
        elif isinstance(node, list):
            for v in node:
                walk(v, path)
        elif isinstance(node, str | int | float) and find(str(node), [value]):
            found.add(path)

    try:
        walk(json.loads(text), "")
    except ValueError:
        return ["(not JSON)"]
    return sorted(found) or ["(not in one value)"]
