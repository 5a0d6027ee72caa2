"""Rooms named or numbered outside the "Room 412" shape (rules/rooms.py). Examples invented for these tests."""

from __future__ import annotations

import pytest

from deid_core.detect.rules import build_rule_detector
from schemas import EnrichedNote, PhiType


def rooms(text: str) -> set[str]:
    spans = build_rule_detector().detect(EnrichedNote("t", text))
    return {text[s.start : s.end] for s in spans if s.type is PhiType.ROOM}


@pytest.mark.parametrize(
    ("text", "room"),
    [
        ("Meeting at 10:00 in Family Room B; sister attending.", "Family Room B"),
        ("Excision done in Mohs Suite A, with the fellow.", "Mohs Suite A"),
        ("Complained about noise in the Birchwood Lounge.", "Birchwood Lounge"),
        ("Tumor board in the Halloran Conference Room.", "Halloran Conference Room"),
        ("Update given (Conference Room 4C): wife present.", "Conference Room 4C"),
        ("Seen Tue 2/4, op 6, hygienist present.", "6"),
        ("Surgeon: T. Vale, MD   Location: OR 12, main campus", "12"),
        ("Triage: Blue Pod, bed B-9\n", "B-9"),
        ("Held in cell K-118 overnight.", "K-118"),
        ("Neurology clinic, Exam 12\nDate of visit: 3/4", "12"),
        ("Tested in Booth 3 (sound-treated).", "3"),
        ("Sleep center, Bedroom 4   Study PSG-1", "4"),
        ("Started HBO #3 of 30 today (Chamber B).", "B"),
        ("Pod B bed B-11 (hallway H3 if B full)", "H3"),
        ("Bed near restroom, cot C-27.", "C-27"),
    ],
)
def test_rooms(text: str, room: str) -> None:
    assert room in rooms(text)


@pytest.mark.parametrize(
    "text",
    [
        "Family waited in the Family Room.",  # a kind of room
        "Moved to the Waiting Room after triage.",
        "Office: 12 Elm Street, Suite 300",  # an address's suite
        "Clinic Health   Room B-2",  # a column gap: the facility is no part of the room
        "Doing well post op 4 days out.",  # a day after surgery
        "Wound checked on op day 3; op 5 days ago.",
        "Risk rose (OR 3, 95% CI 1.2-7).",  # an odds ratio
        "SMOKING OR 2 PACKS",  # a line in capitals
        "Physical exam 2 weeks ago was normal.",  # lower case: an examination
        "Exam 2 weeks ago was normal.",  # a duration
        "Operator IDs: op17 = Tasha, op22 = Dev",  # an operator's id written together
    ],
)
def test_no_rooms(text: str) -> None:
    found = rooms(text)
    assert not found or found <= {"B-2"}, found


@pytest.mark.parametrize(
    ("text", "room"),
    [
        ("Handoff: sickest is 814-B, mr oyelaran, DKA.", "814-B"),
        ("Dc #2 6120 Kowalczyk to rehab.", "6120"),
        ("fall overnight 6118 (Garcia), no injury", "6118"),
    ],
)
def test_a_handoffs_room_before_its_patient(text: str, room: str) -> None:
    assert room in rooms(text)


@pytest.mark.parametrize("text", ["in 2019 Kowalski moved", "Labs 1230 Garcia called", "0830 Mr. Lund up"])
def test_no_room_from_a_year_or_a_time_before_a_name(text: str) -> None:
    assert not rooms(text)

