"""Initials a legend defines, spread over the note (rules/initials_legend.py). Examples invented here."""

from __future__ import annotations

from deid_core.detect.rules import build_rule_detector
from schemas import EnrichedNote, PhiType


def doctors(text: str) -> list[str]:
    spans = build_rule_detector().detect(EnrichedNote("t", text))
    return sorted(text[s.start : s.end] for s in spans if s.type is PhiType.DOCTOR)


def test_a_legend_names_its_initials_wherever_the_note_uses_them() -> None:
    text = "| 0800 | QP | QP | mw |\n| 2000 | DO | QP |\nKey: QP = Quentin Pale; mw = Mina Wolde; DO = Dara Osei\n(DO) refused."
    assert doctors(text) == ["DO", "DO", "DO", "Dara Osei", "Mina Wolde", "QP", "QP", "QP", "QP", "Quentin Pale", "mw", "mw"]


def test_no_legend_without_a_name_and_no_credential_after_a_comma() -> None:
    assert doctors("pH = 7.4; BP = Normal Range") == []
    text = "DO = Dara Osei\nSeen by Ann Lee, DO."
    assert "DO" in doctors(text) and doctors(text).count("DO") == 1
