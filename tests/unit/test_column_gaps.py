"""Names and places stop at a column gap (a tab or three spaces or more): the word beyond it is the next
field's label in a form or header, not part of the name. Examples invented for these tests."""

from __future__ import annotations

import pytest

from deid_core.detect.lexical import build_lexicon_detector
from deid_core.detect.lexical.tokens import TokenView, column_gap
from deid_core.hygiene import build_hygiene
from schemas import EnrichedNote, PhiType, Span


@pytest.fixture(scope="module")
def lexicon():
    return build_lexicon_detector()


def values(detector, text: str) -> set[str]:
    return {text[s.start : s.end] for s in detector.detect(EnrichedNote("n", text))}


@pytest.mark.parametrize(
    ("gap", "expected"),
    [("   ", True), ("\t", True), ("      ", True), (" ", False), ("  ", False), ("\n", False), (" \n ", False)],
)
def test_column_gap(gap: str, expected: bool) -> None:
    assert column_gap(gap) is expected


def test_same_field_is_same_line_without_a_column_gap() -> None:
    view = TokenView("Gideon Marsh      Age 71\nnext")
    assert view.same_field(0)  # Gideon -> Marsh
    assert view.same_line(1) and not view.same_field(1)  # Marsh -> Age


@pytest.mark.parametrize(
    ("text", "name", "label"),
    [
        ("Patient: HOLLOWAY, MARGARET J      MRN 50112233", "HOLLOWAY, MARGARET J", "MRN"),
        ("Resident: Theodore Quillfeather      Age 91", "Theodore Quillfeather", "Age"),
        ("Referring: Dr. Winifred Ostrander\tDx: gout", "Winifred Ostrander", "Dx"),
    ],
)
def test_person_stops_at_a_column_gap(lexicon, text: str, name: str, label: str) -> None:
    found = values(lexicon, text)
    assert name in found
    assert not any(label in v for v in found)


def test_facility_name_does_not_reach_back_over_a_column_gap(lexicon) -> None:
    found = values(lexicon, "Attending: Dr. Cornelius Abernethy      Hospice chaplain: none")
    assert not any("Cornelius" in v and "Hospice" in v for v in found)


def test_whole_name_does_not_take_a_label_across_a_column_gap() -> None:
    text = "Student: PEMBERTON, ODALYS      Grade 9      Age 14"
    start = text.index("PEMBERTON")
    span = Span(start, start + len("PEMBERTON, ODALYS"), PhiType.PATIENT, 0.9, frozenset({"tagger"}), "t")
    (out,) = [s for s in build_hygiene().clean(text, [span]) if s.type is PhiType.PATIENT]
    assert text[out.start : out.end] == "PEMBERTON, ODALYS"


def test_whole_name_still_takes_the_surname_one_space_away() -> None:
    text = "Seen with Dr. Petra Okonkwo today."
    start = text.index("Petra")
    span = Span(start, start + 5, PhiType.DOCTOR, 0.9, frozenset({"tagger"}), "t")
    out = build_hygiene().clean(text, [span])
    assert any(text[s.start : s.end] == "Petra Okonkwo" for s in out)
