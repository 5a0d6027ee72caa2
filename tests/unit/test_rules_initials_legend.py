"""Initials a legend defines, spread over the note (rules/initials_legend.py). Examples invented here."""

from __future__ import annotations

import pytest

from deid_core.detect.rules import build_rule_detector
from schemas import EnrichedNote, PhiType


def doctors(text: str) -> list[str]:
    spans = build_rule_detector().detect(EnrichedNote("t", text))
    return sorted(text[s.start : s.end] for s in spans if s.type is PhiType.DOCTOR)


def test_a_legend_names_its_initials_wherever_the_note_uses_them() -> None:
    text = "| 0800 | QP | QP | mw |\n| 2000 | DO | QP |\nKey: QP = Quentin Pale; mw = Mina Wolde; DO = Dara Osei\n(DO) refused."
    assert doctors(text) == ["DO", "DO", "DO", "Dara Osei", "Mina Wolde", "QP", "QP", "QP", "QP", "Quentin Pale", "mw", "mw"]


def test_a_legend_of_an_initial_and_a_surname_or_a_given_name_in_small_letters() -> None:
    text = "1300   resting        AM\n1400   calm           AM\nseen at 10 AM\nTR = T. Rusu  AM = A. Mensah-Boateng"
    assert doctors(text) == ["A. Mensah-Boateng", "AM", "AM", "AM", "T. Rusu", "TR"]
    text = "aides: mw = maribel watanabe-cruz HHA, ds = dariusz (fill-in)\n08:02 in. ds covering."
    assert doctors(text) == ["dariusz", "ds", "ds", "maribel watanabe-cruz", "mw"]
    assert doctors("bp = blood pressure; AM = B. Lowe") == []  # words; letters that are not the name's


def test_no_legend_without_a_name_and_no_credential_after_a_comma() -> None:
    assert doctors("pH = 7.4; BP = Normal Range") == []
    text = "DO = Dara Osei\nSeen by Ann Lee, DO."
    assert "DO" in doctors(text) and doctors(text).count("DO") == 1


def test_initials_in_parentheses_after_the_name_they_abbreviate() -> None:
    text = "Technicians: Noor Saleh (NS), Jo Whitcombe (JW)\nSession 3 by JW, motor threshold. NS to recheck."
    spans = build_rule_detector().detect(EnrichedNote("t", text))
    found = sorted(text[s.start : s.end] for s in spans if s.type is PhiType.DOCTOR)
    assert found == ["JW", "JW", "Jo Whitcombe", "NS", "NS", "Noor Saleh"]


@pytest.mark.parametrize("text", [
    "Seen at Kestrel Bay Hospital (KBH) on 3/4.", "Chronic Obstructive (CO) disease", "Noor Saleh (RN) checked.",
])
def test_no_initials_of_a_place_a_phrase_or_a_credential(text: str) -> None:
    spans = build_rule_detector().detect(EnrichedNote("t", text))
    assert not [s for s in spans if s.type is PhiType.DOCTOR and text[s.start : s.end].isupper()]
