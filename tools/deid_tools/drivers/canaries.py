"""Canary PHI: synthetic, distinctive patients planted in test messages, and a search for them in outputs.

Every value is made to be findable without false positives in de-identified output:

* names are built from a seeded syllable generator (``Qorvex``, ``Zyltharo``): no English word, no
  surrogate pool name, so a case-insensitive whole-word search is exact;
* MRNs have 8 digits behind the prefix ``97``; a 6-digit MRN would collide with the random 6-digit
  shape-preserving surrogates of other MRNs (about 1 in 20 runs for 1,000 notes of 50 patients);
* birth dates lie at least 731 days apart for up to ``DOB_SLOTS`` patients, so a date shifted by the
  pipeline (at most 365 days either way) never lands on another canary's birth date; visit dates in the
  notes are in 2023-2024, far from any birth date;
* phone numbers and SSNs are searched written and as bare digits, with digit boundaries.

Message keys equal message ids (HL7 MSH-10, FHIR Bundle id, envelope id), so the expected output key
of each input is ``HMAC(secret, "output", format, key)`` (see ``expected_output_key``).
"""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import json
import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from deid_core.surrogate.keys import HmacKey, mapping_key

DOB_SLOTS = 50
_DOB_BASE = dt.date(1921, 1, 1)
_DOB_STRIDE_DAYS = 733  # > 2 x 365: a shifted birth date never equals another patient's
_ONSETS = ("Q", "Z", "X", "V", "Kr", "Zh", "Vr", "Thr", "Xh", "Qu")
_VOWELS = ("o", "a", "e", "y", "u", "i")
_CODAS = ("rv", "lth", "zk", "xw", "rq", "vn", "ndr", "lx", "zv", "mbr")
_ENDS = ("ex", "ar", "ith", "on", "ux", "ek", "yl", "oz")
_STREET_KINDS = ("Lane", "Road", "Street", "Way", "Court")
_CITY_ENDS = ("wick", "ford", "holm", "stead")

Message = tuple[bytes, bytes, str]
"""(Kafka key = message id, value, format: 'hl7v2' | 'fhir' | 'json')."""


@dataclass(frozen=True)
class CanaryPatient:
    patient_id: str
    mrn: str
    given: str
    family: str
    dob: dt.date
    phone: str
    ssn: str
    street: str
    city: str
    zip: str

    def values(self) -> tuple[str, ...]:
        """The strings that must never appear in any output (every form the messages write them in)."""
        return (
            self.patient_id, self.mrn, self.given, self.family, self.ssn, self.phone, self.street, self.city,
            *dob_forms(self.dob),
        )


def dob_forms(dob: dt.date) -> tuple[str, str, str]:
    """A birth date as the messages write it: note text (US), FHIR/envelope (ISO), HL7 (compact)."""
    return (f"{dob:%m/%d/%Y}", dob.isoformat(), f"{dob:%Y%m%d}")


def _syllable_name(rng: random.Random, parts: int) -> str:
    word = rng.choice(_ONSETS) + rng.choice(_VOWELS)
    for _ in range(parts - 1):
        word += rng.choice(_CODAS) + rng.choice(_VOWELS)
    return (word + rng.choice(_ENDS)).capitalize()


def make_canary_patients(n: int, seed: int) -> list[CanaryPatient]:
    """``n`` patients with unique synthetic values (birth dates spread as the module docstring says)."""
    rng = random.Random(f"canary-patients:{seed}")
    used: set[str] = set()

    def unique(make: object) -> str:
        while True:
            value = make()  # type: ignore[operator]
            if value.lower() not in used:
                used.add(value.lower())
                return value

    patients = []
    for i in range(n):
        family = unique(lambda: _syllable_name(rng, 2))
        given = unique(lambda: _syllable_name(rng, rng.choice((1, 2))))
        dob = _DOB_BASE + dt.timedelta(days=(i % DOB_SLOTS) * _DOB_STRIDE_DAYS + rng.randrange(30))
        patients.append(CanaryPatient(
            patient_id=unique(lambda: f"CNRY{rng.randrange(10**7):07d}"),
            mrn=unique(lambda: f"97{rng.randrange(10**6):06d}"),
            given=given,
            family=family,
            dob=dob,
            phone=unique(lambda: f"555-{rng.randrange(200, 1000)}-{rng.randrange(10**4):04d}"),
            ssn=unique(lambda: f"{rng.randrange(100, 666)}-{rng.randrange(10, 100)}-{rng.randrange(1000, 10**4)}"),
            street=unique(lambda: f"{rng.randrange(100, 9999)} {_syllable_name(rng, 2)} {rng.choice(_STREET_KINDS)}"),
            city=unique(lambda: _syllable_name(rng, 1) + rng.choice(_CITY_ENDS)),
            zip=f"{rng.randrange(10**5):05d}",
        ))
    return patients


# ------------------------------------------------------------------------------------------- messages


def _note_text(p: CanaryPatient, visit: dt.date, rng: random.Random) -> list[str]:
    """Note lines that mention the canary values where the header matcher and the rules must catch them."""
    name = rng.choice((f"{p.given} {p.family}", f"{p.family}, {p.given}", f"Mr. {p.family}"))
    return [
        f"Progress note {visit:%m/%d/%Y}: {name} seen in clinic for follow-up of hypertension.",
        f"MRN {p.mrn}. DOB {p.dob:%m/%d/%Y}. Call back at {p.phone} if symptoms worsen.",
        f"{p.given} lives at {p.street}, {p.city}; {p.family} reports good adherence to lisinopril.",
    ]


def _hl7(p: CanaryPatient, message_id: str, kind: str, lines: list[str], visit: dt.date) -> bytes:
    ts = f"{visit:%Y%m%d}101500"
    msh_type = "MDM^T02^MDM_T02" if kind == "MDM" else "ORU^R01^ORU_R01"
    pid = (
        f"PID|1||{p.patient_id}^^^CANARYHOSP^PI~{p.mrn}^^^CANARYHOSP^MR||{p.family}^{p.given}||{p.dob:%Y%m%d}|F|||"
        f"{p.street}^^{p.city}^WI^{p.zip}^USA||{p.phone}|||||||{p.ssn}"
    )
    text = "~".join(lines)  # one OBX-5 repetition per line
    segments = [f"MSH|^~\\&|CANARYAPP|CANARYFAC|DEID|DEID|{ts}||{msh_type}|{message_id}|P|2.5.1", f"EVN|T02|{ts}", pid, "PV1|1|O"]
    if kind == "MDM":
        segments += [f"TXA|1|PN|TX|{ts}", f"OBX|1|TX|11506-3^Progress note^LN||{text}||||||F"]
    else:
        segments += [
            f"OBR|1|ORD{message_id[-6:]}||11506-3^Progress note^LN|||{ts}",
            "OBX|1|NM|718-7^Hemoglobin^LN||13.2|g/dL|12-16|N|||F",
            f"OBX|2|TX|11506-3^Progress note^LN||{text}||||||F",
        ]
    return ("\r".join(segments) + "\r").encode()


def _fhir(p: CanaryPatient, message_id: str, lines: list[str], visit: dt.date) -> bytes:
    patient = {
        "resourceType": "Patient", "id": p.patient_id,
        "identifier": [
            {"type": {"coding": [{"system": "http://terminology.hl7.org/CodeSystem/v2-0203", "code": "MR"}]},
             "system": "urn:example:canary", "value": p.mrn},
            {"type": {"coding": [{"system": "http://terminology.hl7.org/CodeSystem/v2-0203", "code": "SS"}]},
             "system": "http://hl7.org/fhir/sid/us-ssn", "value": p.ssn},
        ],
        "name": [{"use": "official", "family": p.family, "given": [p.given]}],
        "telecom": [{"system": "phone", "value": p.phone, "use": "home"}],
        "gender": "female", "birthDate": p.dob.isoformat(),
        "address": [{"line": [p.street], "city": p.city, "state": "WI", "postalCode": p.zip}],
    }
    text = "\n".join(lines) + "\n"
    doc = {
        "resourceType": "DocumentReference", "id": f"doc-{message_id}", "status": "current",
        "subject": {"reference": f"Patient/{p.patient_id}", "display": f"{p.given} {p.family}"},
        "date": f"{visit.isoformat()}T10:15:00Z",
        "content": [{"attachment": {
            "contentType": "text/plain; charset=utf-8", "data": base64.b64encode(text.encode()).decode(),
        }}],
    }
    bundle = {
        "resourceType": "Bundle", "id": message_id, "type": "collection",
        "entry": [
            {"fullUrl": f"urn:uuid:{message_id}-p", "resource": patient},
            {"fullUrl": f"urn:uuid:{message_id}-d", "resource": doc},
        ],
    }
    return json.dumps(bundle).encode()


def _envelope(p: CanaryPatient, message_id: str, lines: list[str]) -> bytes:
    doc = {
        "id": message_id, "text": "\n".join(lines), "kind": "progress",
        "patient": {
            "patient_id": p.patient_id, "names": [f"{p.given} {p.family}"], "mrn": p.mrn,
            "identifiers": [{"value": p.ssn, "type": "SSN"}], "birth_date": p.dob.isoformat(),
            "address": {"street": [p.street], "city": p.city, "state": "WI", "zip": p.zip},
            "phones": [p.phone],
        },
    }
    return json.dumps(doc).encode()


FORMATS = ("hl7v2-mdm", "hl7v2-oru", "fhir", "json")


def canary_messages(patients: Sequence[CanaryPatient], notes_per_patient: int, seed: int) -> list[Message]:
    """``notes_per_patient`` note-bearing messages per patient, formats in rotation, patients interleaved."""
    rng = random.Random(f"canary-messages:{seed}")
    out: list[Message] = []
    for j in range(notes_per_patient):
        for i, p in enumerate(patients):
            variant = FORMATS[(i + j) % len(FORMATS)]
            message_id = f"cm{seed}-{i:04d}-{j:04d}"
            visit = dt.date(2023, 1, 1) + dt.timedelta(days=rng.randrange(700))
            lines = _note_text(p, visit, rng)
            if variant.startswith("hl7v2"):
                value, fmt = _hl7(p, message_id, variant[-3:].upper(), lines, visit), "hl7v2"
            elif variant == "fhir":
                value, fmt = _fhir(p, message_id, lines, visit), "fhir"
            else:
                value, fmt = _envelope(p, message_id, lines), "json"
            out.append((message_id.encode(), value, fmt))
    return out


def expected_output_key(key: HmacKey, fmt: str, message_id: str) -> bytes:
    """Mirrors ``workers.processor.NoteProcessor.output_key``."""
    return mapping_key(key, "output", fmt, message_id).hex()[:32].encode()


# ----------------------------------------------------------------------------------------------- search


def _value_pattern(value: str) -> str:
    # Whole words for names and places, whole numbers for digit strings (a surrogate "197012345" is not
    # the MRN "97012345").
    body = re.escape(value)
    left = r"(?<!\d)" if value[:1].isdigit() else r"(?<![^\W\d_])"
    right = r"(?!\d)" if value[-1:].isdigit() else r"(?![^\W\d_])"
    return left + body + right


@lru_cache(maxsize=64)
def _matcher(patients: tuple[CanaryPatient, ...]) -> dict[str, tuple[str, re.Pattern[str]]]:
    """Lower-cased needle -> (the value to report, its boundary-checked pattern)."""
    canon: dict[str, str] = {}
    for p in patients:
        for v in p.values():
            canon[v.lower()] = v
        for v in (p.phone, p.ssn):
            canon[re.sub(r"\D", "", v)] = v  # bare digits: reported as the written value
    return {needle: (v, re.compile(_value_pattern(needle), re.IGNORECASE)) for needle, v in canon.items()}


_B64_RUN = re.compile(r"[A-Za-z0-9+/]{16,}={0,2}")
_HL7_ESCAPES = (("\\F\\", "|"), ("\\S\\", "^"), ("\\R\\", "~"), ("\\T\\", "&"), ("\\.br\\", "\n"), ("\\E\\", "\\"))


def _views(text: str) -> Iterable[str]:
    yield text
    unescaped = text
    for esc, char in _HL7_ESCAPES:
        unescaped = unescaped.replace(esc, char)
    if unescaped != text:
        yield unescaped
    try:  # JSON string escapes (\u00e9, \n) as in an envelope written with ensure_ascii
        yield json.dumps(json.loads(text), ensure_ascii=False)
    except ValueError:
        pass
    for m in _B64_RUN.finditer(text):
        try:
            yield base64.b64decode(m.group(0), validate=True).decode("utf-8")
        except (binascii.Error, ValueError):
            continue


def find_canaries(blob: bytes | str, patients: Sequence[CanaryPatient]) -> set[str]:
    """Every canary value that occurs in ``blob``: plain, HL7-unescaped, JSON-decoded, base64-decoded."""
    text = blob.decode("utf-8", "replace") if isinstance(blob, bytes) else blob
    needles = _matcher(tuple(patients))
    found: set[str] = set()
    for view in _views(text):
        low = view.lower()
        # A plain substring test first (fast, in C); the boundary-checked pattern only where it hits.
        found.update(v for needle, (v, pattern) in needles.items() if needle in low and pattern.search(view))
    return found
