"""Cars read as streets and capital headings read as names (deid_core.lookalikes, through hygiene and
trimming). Examples invented for these tests."""

from __future__ import annotations

import pytest

from deid_core.hygiene import build_hygiene
from deid_core.lexicon import load_lexicons
from deid_core.lookalikes import capital_heading, car_model, item_label, model_year
from schemas import PhiType, Span


def tagged(text: str, value: str, type_: PhiType) -> Span:
    start = text.index(value)
    return Span(start, start + len(value), type_, 0.9, frozenset({"tagger"}), "t")


@pytest.mark.parametrize(
    ("value", "car"),
    [("2011 Subaru Outback", True), ("1998 Camry", True), ("2019 Ford F-150", True),
     ("2016 Ford Road", False), ("212 Honda Lane", False), ("2016 Maple Street", False)],
)
def test_car_model(value: str, car: bool) -> None:
    assert car_model(value) is car


def test_a_car_read_as_a_street_keeps_its_model_year_as_a_date() -> None:
    text = "Driver of a 2013 Toyota Sienna hit a pole."
    out = build_hygiene().clean(text, [tagged(text, "2013 Toyota Sienna", PhiType.STREET)])
    assert [(text[s.start : s.end], s.type) for s in out] == [("2013", PhiType.DATE)]
    assert model_year("2013 Toyota Sienna")[1] == "2013"  # type: ignore[index]


@pytest.mark.parametrize(
    ("text", "value", "heading"),
    [
        ("OCCUPATIONAL THERAPY & WELLNESS - DAILY NOTE\nPt seen.", "OCCUPATIONAL THERAPY & WELLNESS", True),
        ("WOUND CARE CONSULT\nSeen.", "WOUND CARE CONSULT", True),
        ("HOLLOWAY, MARGARET - 71 F\nSeen.", "HOLLOWAY, MARGARET", False),  # a name in capitals
        ("Seen.\nLA\n", "LA", False),  # one word: may be initials
        ("Note: WOUND CARE CONSULT today", "WOUND CARE CONSULT", False),  # not at the line start
        ("WOUND CARE CONSULT today", "WOUND CARE CONSULT", False),  # the line goes on in prose
    ],
)
def test_capital_heading(text: str, value: str, heading: bool) -> None:
    start = text.index(value)
    assert capital_heading(text, start, start + len(value), load_lexicons()) is heading


def test_hygiene_drops_a_tagger_heading_but_not_a_header_one() -> None:
    text = "WOUND CARE & SUPPORT - ADMISSION NOTE"
    value = "WOUND CARE & SUPPORT"
    header = Span(0, len(value), PhiType.ORGANIZATION, 0.99, frozenset({"header"}), "h")
    out = build_hygiene().clean(text, [tagged(text, value, PhiType.ORGANIZATION), header])
    assert [s.sources for s in out] == [frozenset({"header"})]


@pytest.mark.parametrize(
    ("text", "value", "type_", "dropped"),
    [
        ("Tone: modified Ashworth 2 at the wrist.", "Ashworth 2", PhiType.DEPARTMENT, True),
        ("Pressure 14/15 by Goldmann today.", "Goldmann", PhiType.DOCTOR, True),
        ("Seen with Dr. Tinel in clinic.", "Tinel", PhiType.DOCTOR, False),  # a title: a person
        ("Seen with Rosalind Okafor today.", "Rosalind Okafor", PhiType.PATIENT, False),
    ],
)
def test_instrument_eponyms(text: str, value: str, type_: PhiType, dropped: bool) -> None:
    out = build_hygiene().clean(text, [tagged(text, value, type_)])
    assert (not any(s.type is type_ for s in out)) is dropped


def test_the_gazetteer_names_no_instrument_eponym() -> None:
    from deid_core.detect.lexical import build_lexicon_detector
    from schemas import EnrichedNote

    text = "Function: Lawton IADL 3/8, Barthel 60."
    spans = build_lexicon_detector().detect(EnrichedNote("n", text))
    assert not any(text[s.start : s.end] in {"Lawton", "Barthel"} for s in spans)


@pytest.mark.parametrize(("value", "dropped"), [("nursing student", True), ("law students", True), ("school librarian", False)])
def test_a_student_is_no_profession(value: str, dropped: bool) -> None:
    text = f"She is a {value} in town."
    out = build_hygiene().clean(text, [tagged(text, value, PhiType.PROFESSION)])
    assert (out == []) is dropped


def test_a_first_name_before_a_denomination_is_no_person() -> None:
    from deid_core.detect.lexical import build_lexicon_detector
    from schemas import EnrichedNote

    text = "A 70 y/o Roman Catholic widow; her nephew Roman visits."
    assert [s.start for s in build_lexicon_detector().detect(EnrichedNote("n", text)) if text[s.start : s.end] == "Roman"] == [text.rindex("Roman")]
    assert build_hygiene().clean(text, [tagged(text, "Roman", PhiType.PATIENT)]) == []


_PARTS = "SPECIMENS\nA. Right breast, lumpectomy.\nB. Left axillary node.\nC. Deep margin.\n"


@pytest.mark.parametrize(
    ("text", "value", "label"),
    [
        (_PARTS, "B. Left", True),  # a report's parts: "A." and "C." beside it
        (_PARTS, "C.", True),
        ("Part A. Right breast.\nB. One node, negative.\n", "B. One", False),  # no sibling label opens a line
        ("Covering today:\nJ. Smith, MD\n", "J. Smith", False),  # a name opening a line
        ("A. Skin.\nB. Okonkwo-Reyes reviewed it.\n", "B. Okonkwo", False),  # no ordinary word after the letter
    ],
)
def test_item_label(text: str, value: str, label: bool) -> None:
    start = text.index(value)
    assert item_label(text, start, start + len(value), load_lexicons()) is label
