"""A weekday written before a date is part of the date span (``Mon 11/4``, ``Wed, Aug 7, 2024``), and
it is the cue that makes a bare single-digit ``d/d`` a date. Examples invented for these tests."""

from __future__ import annotations

import pytest

from deid_core.detect.rules import build_rule_detector
from schemas import EnrichedNote, PhiType


def dates(text: str) -> set[str]:
    spans = build_rule_detector().detect(EnrichedNote("t", text))
    return {text[s.start : s.end] for s in spans if s.type is PhiType.DATE}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Voicemail left Tue 9/3 at 14:10.", "Tue 9/3"),
        ("Sent: Thu 12/19/2023 08:02", "Thu 12/19/2023"),
        ("Ride booked for Sat 5/6/24, 09:30.", "Sat 5/6/24"),
        ("Seen Friday 3/8 in clinic.", "Friday 3/8"),
        ("Date: Wed, Oct 2, 2024", "Wed, Oct 2, 2024"),
        ("SURGERY MON 7/15", "MON 7/15"),
    ],
)
def test_a_weekday_joins_the_date_after_it(text: str, expected: str) -> None:
    assert expected in dates(text)


@pytest.mark.parametrize(
    "text",
    [
        "Sun 3/10 pain at rest.",  # a score after a weekday
        "Mon 13/45 nothing",  # no such month and day
        "amon 3/4 tabs",  # not a weekday word
        "Monday 2/5 strength in the left arm",
    ],
)
def test_no_weekday_date_without_a_plausible_date(text: str) -> None:
    assert not any(d[:1].isalpha() and "/" in d for d in dates(text))


@pytest.mark.parametrize(
    ("text", "score"),
    [
        ("Screens: GAD-7 4/21 and PHQ-9 11/27 today.", "4/21"),
        ("Screens: GAD-7 4/21 and PHQ-9 11/27 today.", "11/27"),
        ("Symptom checklist (BESS2) 7/18 items positive.", "7/18"),
        ("Knee pain improved from 7/10 to 3/10 this week.", "7/10"),
        ("Knee pain improved from 7/10 to 3/10 this week.", "3/10"),
    ],
)
def test_a_score_after_a_named_test_or_in_a_range_of_tens_is_no_date(text: str, score: str) -> None:
    assert score not in dates(text)


@pytest.mark.parametrize(("text", "date"), [("Seen on 11/27 in clinic.", "11/27"), ("Labs from 4/21 reviewed.", "4/21")])
def test_partial_dates_with_a_cue_stay(text: str, date: str) -> None:
    assert date in dates(text)


@pytest.mark.parametrize(
    ("text", "date"),
    [("Therapy notes 3/2 and 3/9 sent.", "3/9"), ("Therapy notes 3/2 and 3/9 sent.", "3/2"), ("Seen on 5/1, 5/8 in clinic.", "5/8"),
     ("Op note 2/6 attached.", "2/6")],
)
def test_a_fraction_listed_after_a_cued_date_is_a_date(text: str, date: str) -> None:
    assert date in dates(text)


def test_a_fraction_listed_after_an_uncued_fraction_is_not() -> None:
    assert dates("Took 1/2 and 1/4 of the pill.") == set()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Post-op delirium 10/5-10/7, resolved.", {"10/5", "10/7"}),
        ("Admitted 12/20\u201312/24 for pneumonia.", {"12/20", "12/24"}),
        ("Seen 3/4-3/6 in clinic.", {"3/4", "3/6"}),  # single digits after a cue
    ],
)
def test_both_ends_of_a_range_of_partial_dates_are_dates(text: str, expected: set[str]) -> None:
    assert dates(text) == expected


@pytest.mark.parametrize(
    "text",
    ["Pain 6/10-8/10 with walking.", "Strength 4/5-5/5 in both legs.", "Took 1/2-1/4 tab at night.", "Range 3/4-4/5 here."],
)
def test_a_range_of_scores_measures_or_uncued_fractions_is_no_date(text: str) -> None:
    assert dates(text) == set()
