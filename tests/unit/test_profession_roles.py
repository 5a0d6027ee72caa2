"""Role words beside a name are who the person is to the patient, not an occupation (lexical/professions.py);
things that end like an agent noun are no occupation (hygiene).
Examples invented for these tests."""

from __future__ import annotations

import pytest

from deid_core.detect.lexical import build_lexicon_detector
from deid_core.hygiene import build_hygiene
from schemas import EnrichedNote, PhiType, Span


def professions(text: str) -> set[str]:
    spans = build_lexicon_detector().detect(EnrichedNote("t", text))
    return {text[s.start : s.end] for s in spans if s.type is PhiType.PROFESSION}


@pytest.mark.parametrize(
    ("text", "role"),
    [
        ("The report was taken by Detective Marisol Quayle of the county.", "Detective"),
        ("Papers signed by the guardian, Attorney Felix Brandt; copy in chart.", "Attorney"),
        ("Our paralegal, Ingrid Solberg, will call the family.", "paralegal"),
        ("Rails to be fitted by his handyman Tobiah next week.", "handyman"),
        ('Neighbor knows him as "Gus, the roofer."', "roofer"),
    ],
)
def test_a_role_beside_a_name_is_no_profession(text: str, role: str) -> None:
    assert role not in professions(text)


@pytest.mark.parametrize(
    ("text", "job"),
    [
        ("He is a retired paralegal and lives alone.", "paralegal"),
        ("Worked as a roofer, Halvard says, until his fall.", "roofer"),  # a cue before it
        ("Paralegal. Ingrid Solberg is the contact.", "Paralegal"),  # a sentence ends between them
    ],
)
def test_an_occupation_away_from_a_name_stays(text: str, job: str) -> None:
    assert job in professions(text)


@pytest.mark.parametrize(
    ("text", "value", "kept"),
    [
        ("Checks the soles of her feet with a mirror daily.", "mirror", False),  # a thing ending in -or
        ("Uses a walker at home.", "walker", False),
        ("He is a surveyor for the county.", "surveyor", True),
    ],
)
def test_tagger_occupation_that_is_a_thing(text: str, value: str, kept: bool) -> None:
    start = text.index(value)
    span = Span(start, start + len(value), PhiType.PROFESSION, 0.9, frozenset({"tagger"}), "t")
    out = build_hygiene().clean(text, [span])
    assert any(text[s.start : s.end] == value for s in out) is kept
