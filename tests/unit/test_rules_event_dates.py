"""Dates named by an event before them, and numbers the tagger reads as dates that cannot be one
(rules/event_dates.py, deid_core.date_lookalikes through hygiene). Examples invented for these tests."""

from __future__ import annotations

import pytest

from deid_core.detect.rules import build_rule_detector
from deid_core.hygiene import build_hygiene
from schemas import EnrichedNote, PhiType, Span


def dates(text: str) -> set[str]:
    spans = build_rule_detector().detect(EnrichedNote("t", text))
    return {text[s.start : s.end] for s in spans if s.type is PhiType.DATE}


@pytest.mark.parametrize(
    ("text", "date"),
    [
        ("Start metformin. Recheck 11/14.", "11/14"),
        ("Bruised hip after a fall 6/2 at home.", "6/2"),
        ("Fall 4/9: slipped in the shower.", "4/9"),
        ("Held apixaban the evening of 7/8.", "7/8"),
        ("Study ran overnight 3/11/2025 into 3/12.", "3/12"),
        ("Immunizations: MMR x2, Tdap 2017, flu shot 2024.", "2017"),
    ],
)
def test_event_dates(text: str, date: str) -> None:
    assert date in dates(text)


@pytest.mark.parametrize(
    "text",
    [
        "Fall risk: falls 1/3 of the time when tired.",  # a fraction of the time
        "Recheck 13/40 next week.",  # no month 13
        "Divided into 1/4 tabs.",  # no date before "into"
        "Tdap 2019 mg",  # a unit after the number
    ],
)
def test_no_event_dates(text: str) -> None:
    assert not dates(text) - {"next week"}


def tagged_date(text: str, value: str) -> Span:
    start = text.index(value)
    return Span(start, start + len(value), PhiType.DATE, 0.9, frozenset({"tagger"}), "t")


@pytest.mark.parametrize(
    ("text", "value", "kept"),
    [
        ("Crisis line open 24/7 for callers.", "24/7", False),
        ("Rabies series 0/7/21 days.", "0/7/21", False),
        ("Aide comes daily 9-11 and 16-18.", "9-11", False),
        ("Seen 3/11 for review.", "3/11", True),
    ],
)
def test_tagger_dates_that_cannot_be_dates(text: str, value: str, kept: bool) -> None:
    out = build_hygiene().clean(text, [tagged_date(text, value)])
    assert any(text[s.start : s.end] == value for s in out) is kept
