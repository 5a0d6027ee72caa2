"""Persons listed after a plural title or role (rules/plural_titles.py). Examples invented for these tests."""

from __future__ import annotations

import pytest

from deid_core.detect.rules import build_rule_detector
from schemas import EnrichedNote, PhiType


def listed(text: str) -> list[tuple[str, PhiType]]:
    spans = build_rule_detector().detect(EnrichedNote("t", text))
    return sorted((text[s.start : s.end], s.type) for s in spans if "plural_title" in s.explanation)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("arrived via van w/ officers Pelletier and Gagnon, restraints off", [("Gagnon", PhiType.PATIENT), ("Pelletier", PhiType.PATIENT)]),
        ("Present: Drs. Ostrowski, Lemieux-Tran;\nCheryl (quality)", [("Lemieux-Tran", PhiType.DOCTOR), ("Ostrowski", PhiType.DOCTOR)]),
        ("nurses Ana Ruiz and Bo Lee on shift", [("Ana Ruiz", PhiType.DOCTOR), ("Bo Lee", PhiType.DOCTOR)]),
        ("cabin Heron counsellors Jesse and Ro symptom-free", [("Jesse", PhiType.PATIENT), ("Ro", PhiType.PATIENT)]),
        ("Residents Farid Haddad, Molly Tran; students", [("Farid Haddad", PhiType.DOCTOR), ("Molly Tran", PhiType.DOCTOR)]),
    ],
)
def test_each_listed_person_is_a_span_typed_by_the_title(text: str, expected: list[tuple[str, PhiType]]) -> None:
    assert listed(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Records from Drs. Ruiz and Lee Clinic",  # a firm's head ends it
        "Officers On Duty and Staff",  # function and staff words
        "officers Pelletier arrived",  # one item is no list
    ],
)
def test_no_list_of_persons(text: str) -> None:
    assert listed(text) == []
