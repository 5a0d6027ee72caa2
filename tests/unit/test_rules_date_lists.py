"""Months and days listed or ranged together are dates; lists of scores or fractions are not. Examples
invented for these tests."""

from __future__ import annotations

import pytest

from deid_core.detect.rules import build_rule_detector
from schemas import EnrichedNote, PhiType


def dates(text: str) -> list[str]:
    spans = build_rule_detector().detect(EnrichedNote("t", text))
    return sorted(text[s.start : s.end] for s in spans if s.type is PhiType.DATE)


@pytest.mark.parametrize(("text", "expected"), [
    ("Monitoring 3/6, 3/8, 3/10.", ["3/10", "3/6", "3/8"]),
    ("Family training sessions 4/8 and 4/10 with Darlene.", ["4/10", "4/8"]),
    ("Admitted 1/10 - 1/15/26 after a fall.", ["1/10", "1/15/26"]),
])
def test_listed_and_ranged_dates(text: str, expected: list[str]) -> None:
    assert dates(text) == expected


@pytest.mark.parametrize("text", ["Pain 6/10, 7/10 at worst.", "Pain 3/10 - 5/10 today.", "Take 1/2 and 3/4 tab.", "BP 120/80, 118/76."])
def test_scores_fractions_and_pressures_are_no_dates(text: str) -> None:
    assert dates(text) == []
