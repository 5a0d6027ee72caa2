"""The state that issued a licence or a benefit, right before it (rules/location.py ``state_of_issue``).
Examples invented for these tests."""

from __future__ import annotations

import pytest

from deid_core.detect.rules import build_rule_detector
from schemas import EnrichedNote, PhiType


def states(text: str) -> set[str]:
    spans = build_rule_detector().detect(EnrichedNote("t", text))
    return {text[s.start : s.end] for s in spans if s.type is PhiType.STATE}


@pytest.mark.parametrize(
    ("text", "state"),
    [
        ("Constance Ferrante, PhD (MN license LP 6127)", "MN"),
        ("She surrendered her NC license 000031847762 in August.", "NC"),
        ("plate 9KXM417; CA driver's license Y5530184", "CA"),
        ("photo ID (his Michigan DL O215-448-190-337 is expired)", "Michigan"),
        ("NC Medicaid ID 94417730R", "NC"),
        ("Philippa Gaskell, Esq., PA Attorney I.D. No. 208815.", "PA"),
        ("Amara Blake, MD   OR license MD-188304", "OR"),
        ("Pharmacist: Ilse Brandt, RPh   IA lic RPH-55012", "IA"),
        ("T. Okoro, MD    WA lic. MD-60231", "WA"),
    ],
)
def test_the_issuing_state_before_a_licence(text: str, state: str) -> None:
    assert state in states(text)


@pytest.mark.parametrize(
    "text", ["MD license 12345 on file.", "PA license renewed.", "DC license posted in the office.", "MD lic 4432"]
)
def test_a_credential_before_a_bare_licence_is_no_state(text: str) -> None:
    assert states(text) == set()
