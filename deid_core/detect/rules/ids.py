"""Identifier patterns driven by a context word (``MRN: 1234567`` -> MEDICALRECORD on the number only).

One combined regex covers every cue family; the named group of the cue that matched picks the
subtype. DEA numbers are checked with the DEA checksum, NPIs with the Luhn check (prefix 80840) and
VINs with the ISO 3779 check digit, so a cue followed by an invalid number is not tagged.
"""

from __future__ import annotations

import re

from deid_core.detect.base import Pattern
from deid_core.detect.rules.context import next_word, word_start
from schemas import PhiType

# Cue words per family; each alternative opens with a literal letter (see ``word_start``). The longest
# cue at a position wins ("medical record number" over "med"), and "license plate" falls through to
# the "plate" cue because the license cue refuses to be followed by "plate".
_CUES: tuple[tuple[str, PhiType, tuple[str, ...]], ...] = (
    (
        "mrn",
        PhiType.MEDICALRECORD,
        (r"MRN", r"MR\s*\#", r"MR\s+no\.?", r"medical\s+record(?:\s+number)?", r"med\s*rec(?:ord)?",
         r"unit\s+(?:no\.?|number|\#)", r"MC\s*\#", r"hospital\s+(?:number|no\.?)", r"chart\s+(?:number|no\.?|\#)",
         r"patient\s+id", r"pt\s+id", r"hosp\s+no\.?"),
    ),
    ("acct", PhiType.ACCOUNT, (r"acct", r"account", r"a/c", r"billing\s+(?:number|no\.?|id)", r"card\s+ending(?:\s+in)?")),
    (
        "plan",
        PhiType.HEALTHPLAN,
        (r"member\s+(?:id|no\.?|number|\#)", r"subscriber\s+(?:id|no\.?|number|\#)", r"policy",
         r"insurance(?:\s+(?:id|no\.?|number|\#))?", r"group\s+(?:number|no\.?|\#|id)", r"medicare", r"medicaid",
         r"health\s+plan(?:\s+(?:id|no\.?|number))?", r"plan\s+(?:id|no\.?|number)", r"hicn", r"mbi",
         r"beneficiary\s+(?:id|no\.?|number)"),
    ),
    ("dea", PhiType.LICENSE, (r"DEA",)),
    ("npi", PhiType.LICENSE, (r"NPI",)),
    ("lic", PhiType.LICENSE, (r"licen[sc]e(?!\s+plate)", r"lic\.?", r"certificate", r"cert\.?")),
    ("vin", PhiType.VEHICLE, (r"VIN",)),
    ("plate", PhiType.VEHICLE, (r"plate", r"tag\s+(?:number|no\.?|\#)")),
    ("dev", PhiType.DEVICE, (r"serial", r"S/N", r"device\s+(?:id|no\.?|number|\#)", r"model", r"UDI", r"implant\s+id")),
    ("bio", PhiType.BIOID, (r"biometric(?:\s+id)?", r"fingerprint(?:\s+id)?", r"voiceprint", r"retinal\s+scan(?:\s+id)?")),
    (
        "idn",
        PhiType.IDNUM,
        (r"accession", r"acc\s*\#", r"specimen(?:\s+id)?", r"order", r"encounter", r"visit\s+(?:id|number|no\.?|\#)",
         r"case", r"requisition", r"req\s*\#", r"CSN", r"ID(?=\s*[:\#])", r"Rx(?=\s*\#)", r"Rx\s+(?:number|no\.)",
         r"prescription\s+(?:number|no\.?|\#)", r"site(?=\s*\#)", r"site\s+(?:number|no\.|id)"),
    ),
)
_LOOKAROUND = re.compile(r"\(\?<?[=!][^)]*\)")
# Classifying a matched cue: the same words without their look-arounds (the cue text alone has no context).
_CUE_FAMILIES = tuple(
    (type_, name, re.compile("(?:" + "|".join(_LOOKAROUND.sub("", w) for w in words) + ")", re.IGNORECASE))
    for name, type_, words in _CUES
)
_ID_REGEX = (
    rf"(?P<cue>{word_start(tuple(w for _, _, words in _CUES for w in words))})(?![A-Za-z])"
    r"(?i:(?:\s{0,3}(?:\#|no\.?|num(?:ber)?|nbr|id)(?![a-z]))?"
    r"[\s:\#=.\-]{0,5}"
    # The value must hold a digit; checking it here (not in the validator) lets "Insurance: Medicare 1EG4..."
    # fail at "Insurance" and match again at "Medicare".
    r"(?P<id>(?=[A-Z0-9\-]{0,29}\d)[A-Z0-9](?:[A-Z0-9\-]{0,28}[A-Z0-9])?))(?![\w\-])"
)
_ID_UNITS = frozenset({"mg", "mcg", "g", "gm", "kg", "ml", "cc", "units", "mmol", "meq", "tabs", "tablets",
                       "patients", "cases", "%", "mg/kg", "mg/dl"})

_MIN_ID_LEN = 4
_SENTENCE_END = re.compile(r"\.[ \t]*\n")
_DEA_FIRST = frozenset("ABCDEFGHJKLMPRSTUX")
_DEA_RE = re.compile(r"[A-Z][A-Z9]\d{7}")
_VIN_RE = re.compile(r"[A-HJ-NPR-Z0-9]{17}")
_VIN_TRANSLIT = {**{str(d): d for d in range(10)}, **dict(zip("ABCDEFGH", range(1, 9), strict=True)),
                 **dict(zip("JKLMN", range(1, 6), strict=True)), "P": 7, "R": 9,
                 **dict(zip("STUVWXYZ", range(2, 10), strict=True))}
_VIN_WEIGHTS = (8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2)


def dea_valid(value: str) -> bool:
    """DEA registration number: 2 letters, 7 digits, (d1+d3+d5 + 2*(d2+d4+d6)) % 10 == d7."""
    value = value.upper()
    if not _DEA_RE.fullmatch(value) or value[0] not in _DEA_FIRST:
        return False
    d = [int(c) for c in value[2:]]
    return (d[0] + d[2] + d[4] + 2 * (d[1] + d[3] + d[5])) % 10 == d[6]


def luhn_valid(digits: str) -> bool:
    total = 0
    for i, c in enumerate(reversed(digits)):
        n = int(c)
        if i % 2 == 1:
            n = n * 2 - 9 if n > 4 else n * 2
        total += n
    return total % 10 == 0


def npi_valid(value: str) -> bool:
    """US NPI: 10 digits starting 1 or 2, Luhn-valid with the card-issuer prefix 80840."""
    return len(value) == 10 and value.isdigit() and value[0] in "12" and luhn_valid("80840" + value)


def vin_valid(value: str) -> bool:
    """17-character VIN (no I, O, Q) whose 9th character is the ISO 3779 / NHTSA check digit."""
    value = value.upper()
    if not _VIN_RE.fullmatch(value) or not any(c.isdigit() for c in value):
        return False
    total = sum(_VIN_TRANSLIT[c] * w for c, w in zip(value, _VIN_WEIGHTS, strict=True))
    check = total % 11
    return value[8] == ("X" if check == 10 else str(check))


def _cue(m: re.Match[str]) -> tuple[PhiType, str] | None:
    cue = m.group("cue")
    for type_, name, regex in _CUE_FAMILIES:
        if regex.fullmatch(cue):
            return type_, name
    return None


def _valid_id(text: str, m: re.Match[str]) -> bool:
    value = m.group("id")
    cue = _cue(m)
    if cue is None:
        return False
    if _SENTENCE_END.match(text, m.end("cue")):
        return False  # "per unit policy.\n1430 granddaughter visiting": the cue's sentence ended
    family = cue[1]
    if family == "dea":
        return dea_valid(value)
    if family == "npi":
        return npi_valid(value)
    if family == "vin":
        return bool(_VIN_RE.fullmatch(value.upper()))
    if len(value) < _MIN_ID_LEN or not any(c.isdigit() for c in value):
        return False
    return not (value.isdigit() and next_word(text, m.end()) in _ID_UNITS)


def _id_type(text: str, m: re.Match[str]) -> PhiType | None:
    cue = _cue(m)
    return cue[0] if cue else None


def _valid_vin(text: str, m: re.Match[str]) -> bool:
    return vin_valid(m.group(0))


# A table's first cell holding a letter code and three digits or more ("| S-041 | 01/07/26 |"): a roster's
# or a screening log's identifiers when three rows or more share the letters.
_ROW_CODE = re.compile(r"(?m)^[ \t]*\|[ \t]*(?P<id>(?P<letters>[A-Z]{1,4})-?\d{3,6})[ \t]*\|")
_BILLING_CODE = re.compile(r"[A-Z]\d{4}")  # HCPCS ("A0427"): a service's code, no person's


def _roster_code(text: str, m: re.Match[str]) -> bool:
    if _BILLING_CODE.fullmatch(m.group("id")):
        return False
    letters = m.group("letters")
    rows = {r.group("id") for r in _ROW_CODE.finditer(text) if r.group("letters") == letters}
    return len(rows) >= 3


def id_patterns() -> list[Pattern]:
    return [
        Pattern("id_roster_column", _ROW_CODE.pattern, PhiType.IDNUM, score=0.7, group="id", flags=0,
                validate=_roster_code, gate=("|",)),
        Pattern(
            "id_after_cue", _ID_REGEX, PhiType.IDNUM, score=0.85, group="id", flags=0,
            validate=_valid_id, resolve_type=_id_type,
        ),
        # A VIN's check digit makes it safe to tag without a cue.
        Pattern("vin_checksum", r"[A-HJ-NPR-Z0-9](?<![\w\-][A-HJ-NPR-Z0-9])[A-HJ-NPR-Z0-9]{16}(?![\w\-])", PhiType.VEHICLE, score=0.8,
                flags=0, validate=_valid_vin),
    ]
