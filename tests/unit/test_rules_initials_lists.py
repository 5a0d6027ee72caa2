"""Staff initials listed after a cue word (rules/initials_lists.py). Examples invented for these tests."""

from __future__ import annotations

import pytest

from deid_core.detect.rules import build_rule_detector
from schemas import EnrichedNote, PhiType


def doctors(text: str) -> set[str]:
    spans = build_rule_detector().detect(EnrichedNote("t", text))
    return {text[s.start : s.end] for s in spans if s.type is PhiType.DOCTOR}


@pytest.mark.parametrize(
    ("text", "initials"),
    [
        ("Team: AS / BI / jwp / IF / LGP", {"AS", "BI", "jwp", "IF", "LGP"}),
        ("Attendance: AM-C, GP, YF, KB, RO-B, ET", {"AM-C", "GP", "YF", "KB", "RO-B", "ET"}),
        ("Attendees signed: AK, SF, KM, TB, RS, TV  (minutes by the SW)", {"AK", "SF", "KM", "TB", "RS", "TV"}),
        ("-- R. Achenbach MD, with the team (kw, mot, bc, lbh)", {"kw", "mot", "bc", "lbh"}),
    ],
)
def test_initials_listed_after_a_cue(text: str, initials: set[str]) -> None:
    assert initials <= doctors(text)


@pytest.mark.parametrize(
    "text",
    [
        "Team: ICU, ED, OR all notified.",  # clinical abbreviations
        "Staff: RN, LPN and CNA on the floor.",  # credentials and a conjunction
        "Team: AS / BI",  # two items are no list
        "Reviewed AS, BI, TV today.",  # no cue
    ],
)
def test_no_initials_without_a_cued_list_of_them(text: str) -> None:
    assert doctors(text) == set()
