"""Forms a PHI type never takes (deid_core.shapes) and their use by span hygiene on tagger spans.

Examples are written here for these tests; none comes from eval/handwritten (which is only measured).
"""

from __future__ import annotations

import pytest

from deid_core.hygiene import build_hygiene
from deid_core.shapes import impossible, no_address
from schemas import PhiType, Span


@pytest.mark.parametrize(
    ("type_", "value", "expected"),
    [
        (PhiType.PHONE, "911", True),
        (PhiType.IPADDR, "Admitted ..........", True),  # a field label and its dot leader
        (PhiType.IPADDR, "10.12.0.7", False),
        (PhiType.IPADDR, "fe80::a1", False),
        (PhiType.IPADDR, "::1", False),
        (PhiType.IPADDR, "10.4.x.x", False),  # masked, still an address
        (PhiType.IPADDR, "132/70 76 16 36.8", True),  # vital signs
        (PhiType.IPADDR, "2.5-3.5", True),  # a target range
        (PhiType.URL, "Website ........ ", True),
        (PhiType.URL, "clinic.example.net", False),
        (PhiType.URL, "https://x.io/a", False),
        (PhiType.URL, "harbor dot example dot com", False),
        (PhiType.URL, "red/green/amber", True),  # a slash joins words of prose
        (PhiType.PHONE, "411", True),
        (PhiType.PHONE, "4417", False),  # a pager or an extension
        (PhiType.PHONE, "617-555-0142", False),
        (PhiType.DATE, "0/5", True),  # no month or day 0
        (PhiType.DATE, "14/40", True),
        (PhiType.DATE, "3/14", False),
        (PhiType.DATE, "14/3", False),  # day/month
        (PhiType.DATE, "K57.30", True),  # an ICD-10 code
        (PhiType.DATE, "11.9.2021", False),
        (PhiType.DATE, "112/70", True),  # a blood pressure: no date part has three digits
        (PhiType.DATE, "44.12", True),  # a reading: 44 is no day or month
        (PhiType.DATE, "3.12", False),
        (PhiType.DATE, "2019/10", False),  # a year and a month
        (PhiType.DATE, "12/2019", False),
        (PhiType.DEPARTMENT, "G3P2", True),
        (PhiType.IDNUM, "G1P0101", True),
        (PhiType.IDNUM, "GH-2231901", False),
        (PhiType.EMAIL, "ca at ", True),  # "breast ca at 38": no domain after the spelled "at"
        (PhiType.EMAIL, "dx at 4", True),
        (PhiType.EMAIL, "jo.ng at example", False),
        (PhiType.EMAIL, "ca at 38@x.org", False),
    ],
)
def test_impossible_forms(type_: PhiType, value: str, expected: bool) -> None:
    assert impossible(type_, value) is expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [("long-term disability", True), ("kfarrow@example.org", False), ("kfarrow at example dot org", False), ("kfarrow (at) example", False)],
)
def test_no_address(value: str, expected: bool) -> None:
    assert no_address(value) is expected


def _tagger(text: str, value: str, type_: PhiType) -> Span:
    start = text.index(value)
    return Span(start, start + len(value), type_, 0.9, frozenset({"tagger"}), "")


@pytest.mark.parametrize(
    ("text", "value", "type_", "kept"),
    [
        ("Neighbour called 911 at once.", "911", PhiType.PHONE, False),
        ("Benefits: long-term disability through work.", "long-term disability", PhiType.EMAIL, False),
        ("She is employed at brackwell-tannen now.", "brackwell-tannen", PhiType.EMAIL, True),  # a mistyped employer
        ("Son (61, tugboat captain) is POA.", "tugboat captain", PhiType.EMAIL, True),  # a mistyped occupation
        ("Lens in the bag, centered. Viscoelastic removed.", "centered. Viscoelastic removed", PhiType.EMAIL, False),
        ("I would be grateful if you could see him.", "grateful if you could", PhiType.EMAIL, False),
        ("Stay home while symptoms stay ≤3/10.", "≤3/10", PhiType.DATE, False),  # a score
        ("Reviewed by Imogen Ashdown, PharmD, today.", "PharmD", PhiType.DEPARTMENT, False),
        ("Assessed by Teodor (ATC) on the field.", "ATC", PhiType.HOSPITAL, False),
        ("Seen at ATC Lakeshore.", "ATC", PhiType.HOSPITAL, True),  # no comma or parenthesis before it
        ("Word recall 0/5 at five minutes.", "0/5", PhiType.DATE, False),
    ],
)
def test_hygiene_drops_impossible_tagger_spans(text: str, value: str, type_: PhiType, kept: bool) -> None:
    span = _tagger(text, value, type_)
    assert build_hygiene().clean(text, [span]) == ([span] if kept else [])
    evidence = Span(span.start, span.end, type_, 0.9, frozenset({"rules"}), "")
    assert build_hygiene().clean(text, [evidence]) == [evidence]


@pytest.mark.parametrize(
    ("text", "value", "kept"),
    [
        ("G1P0 at 34w2d by early ultrasound.", "34", False),
        ("Dated by 12-week scan.", "12", False),
        ("Office on the 6th floor.", "6th", False),
        ("A 6-week-old infant with fever.", "6", True),
        ("Turned 70 this spring.", "70", True),
    ],
)
def test_hygiene_drops_tagger_ages_in_weeks_or_floors(text: str, value: str, kept: bool) -> None:
    span = _tagger(text, value, PhiType.AGE)
    assert build_hygiene().clean(text, [span]) == ([span] if kept else [])


@pytest.mark.parametrize(
    ("text", "value", "kept"),
    [
        ("ID band: 47 F      MRN 5521", "F", False),
        ("Plan: home w/ services, f/u with PCP.", "u", False),
        ("Signed J. Ostrowska", "J", True),  # an initial
    ],
)
def test_hygiene_drops_one_letter_people_that_are_a_sex_or_shorthand(text: str, value: str, kept: bool) -> None:
    span = _tagger(text, value, PhiType.DOCTOR)
    assert build_hygiene().clean(text, [span]) == ([span] if kept else [])
