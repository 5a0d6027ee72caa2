"""People listed after a meeting's attendance cue (``Present: Deb (nurse mgr), Ama (charge)``); not roles,
languages, places or what parentheses hold. Examples invented for these tests."""

from __future__ import annotations

import pytest

from deid_core.detect.lexical import build_lexicon_detector
from schemas import EnrichedNote, PhiType


def attendees(text: str) -> list[tuple[str, PhiType]]:
    spans = build_lexicon_detector().detect(EnrichedNote("t", text))
    return [(text[s.start : s.end], s.type) for s in spans if s.explanation == "lexicon=attendee"]


D, P = PhiType.DOCTOR, PhiType.PATIENT


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Present: Deb (nurse mgr), Ama (charge), Tor (PT), Marcus & Jo (RNs)",
         [("Deb", D), ("Ama", D), ("Tor", D), ("Marcus", D), ("Jo", D)]),
        ("Present: Drs. Oduya, Matsumoto-Reyes, Fennimore (pathology); Delphine Aucoin, NP",
         [("Oduya", D), ("Matsumoto-Reyes", D), ("Fennimore", D), ("Delphine Aucoin", D)]),
        ("Attendance: Shayla, Rocio, Al", [("Shayla", P), ("Rocio", P), ("Al", P)]),
    ],
)
def test_listed_people_and_their_type(text: str, expected: list[tuple[str, PhiType]]) -> None:
    assert attendees(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Present: Chaplain, Pharmacy, SW",
        "Present: pt; wife Halina (by phone from Kingston, Jamaica)",
        "Present: son by video from Halifax, Nova Scotia",
        "Present: Spanish and English speakers",
        "Present: Ty Brandt (PGY1, Gold team)",
        "Attendance: 11 of 12 scheduled days",
    ],
)
def test_no_roles_places_languages_or_parentheses(text: str) -> None:
    assert [v for v, _ in attendees(text) if v not in {"Ty Brandt", "Halina"}] == []
