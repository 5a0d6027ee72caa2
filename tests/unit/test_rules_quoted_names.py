"""A name in quotes after a word for a person or pointing at one (rules/quoted_names.py). Examples
invented for these tests."""

from __future__ import annotations

import pytest

from deid_core.detect.rules import build_rule_detector
from schemas import EnrichedNote, PhiType


def quoted(text: str) -> list[tuple[str, PhiType]]:
    spans = build_rule_detector().detect(EnrichedNote("t", text))
    return [(text[s.start : s.end], s.type) for s in spans if "quoted_name" in s.explanation]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ('The maintenance man, "Bones," will not open a door.', "Bones"),
        ('He said his old running buddy "T-Bone" got out last month.', "T-Bone"),
        ('Bullied by the student he calls "Tank".', "Tank"),
        ('Ran into an old friend, "Peaches", outside the laundromat.', "Peaches"),
        ('2/27 called again; answered by "Dani", says she is his girlfriend.', "Dani"),
    ],
)
def test_a_quoted_name_after_a_word_for_a_person(text: str, name: str) -> None:
    assert (name, PhiType.PATIENT) in quoted(text)


def test_after_a_staff_role_the_name_is_staff() -> None:
    assert quoted('Ask the nurse "Marisol" at the desk.') == [("Marisol", PhiType.DOCTOR)]


@pytest.mark.parametrize(
    "text",
    [
        'Dog "Biscuit" stays with him.',
        'Pt asked for "Pippin" (her cat) photos.',
        'He still asks for "Papa" most evenings.',
        'Pill box open, "Tue" and "Wed" slots empty.',
        'Said "Okay" and left.',
    ],
)
def test_no_name_for_pets_family_words_or_days(text: str) -> None:
    assert quoted(text) == []
