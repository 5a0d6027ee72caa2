"""Given names found by where they are written (rules/staff_names.py). Examples invented for these tests."""

from __future__ import annotations

import pytest

from deid_core.detect.rules import build_rule_detector
from schemas import EnrichedNote, PhiType


def people(text: str) -> set[tuple[str, PhiType]]:
    spans = build_rule_detector().detect(EnrichedNote("t", text))
    return {(text[s.start : s.end], s.type) for s in spans if s.type in (PhiType.DOCTOR, PhiType.PATIENT)}


@pytest.mark.parametrize(
    ("text", "name", "type_"),
    [
        ("Provider: Ines Varga, CNM   MA: Tuyet\nG2P1 at 30w", "Tuyet", PhiType.DOCTOR),
        ("Scribe: Oyelowo (float)", "Oyelowo", PhiType.DOCTOR),
        ("Dressing change done by Zsofi, LPN, at 14:00.", "Zsofi", PhiType.DOCTOR),
        ('Twin A, called "Bao" by her parents.', "Bao", PhiType.PATIENT),
        ('Under the east ramp, "Dusty" (real name withheld) declined a ride.', "Dusty", PhiType.PATIENT),
        ('name given: "Rocky"   legal name on file', "Rocky", PhiType.PATIENT),
        ('PATIENT: LI, MEI-HUA (prefers "May")   MRN RV-01', "May", PhiType.PATIENT),
        ("7. \"Hi, it's Precious, the nurse from Lanternlight\"", "Precious", PhiType.PATIENT),
        ("VM 09:10: this is Ty from transport", "Ty", PhiType.PATIENT),
    ],
)
def test_given_names_by_their_place(text: str, name: str, type_: PhiType) -> None:
    assert (name, type_) in people(text)


@pytest.mark.parametrize(
    "text",
    [
        "Nurse: Present at bedside.",  # an ordinary word
        "Reviewed, RN",  # a word before a credential
        "Interpreter: Somali, in person",  # a language
        "14 Depot Road, Bethlehem, PA 18017",  # a town before a state code
        "Pt: Varga, Ines   MRN 55",  # the patient's field, read whole by the name detectors
    ],
)
def test_no_given_name_there(text: str) -> None:
    found = {v for v, _ in people(text)}
    assert not found & {"Present", "Reviewed", "Somali", "Bethlehem", "Varga"}, found


@pytest.mark.parametrize("text", ["It's Monday.", "it is June, and warm", "This is Important, please read", "it's OK to call"])
def test_no_introduction_of_a_month_weekday_word_or_abbreviation(text: str) -> None:
    spans = build_rule_detector().detect(EnrichedNote("t", text))
    assert not [s for s in spans if s.type is PhiType.PATIENT]
