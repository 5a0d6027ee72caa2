"""Street, PO box, City/State/ZIP and room rules."""

from __future__ import annotations

import pytest

from deid_core.detect.rules import build_rule_detector
from schemas import EnrichedNote, PhiType


def found(text: str) -> set[tuple[str, PhiType]]:
    spans = build_rule_detector().detect(EnrichedNote("t", text))
    return {(text[s.start : s.end], s.type) for s in spans}


T = PhiType


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("lives at 123 Main St with", "123 Main St"),
        ("lives at 77 Elm Street.", "77 Elm Street"),
        ("home: 45 Oak Avenue Apt 4B, with", "45 Oak Avenue Apt 4B"),
        ("office 1200 N. Washington Blvd, Suite 300.", "1200 N. Washington Blvd, Suite 300"),
        ("at 12 Harbor View Dr.", "12 Harbor View Dr"),
        ("mail to P.O. Box 1234 please", "P.O. Box 1234"),
        ("mail to PO Box 77", "PO Box 77"),
        ("farm address: RR 3 Box 210, then", "RR 3 Box 210"),
        ("Address: Rural Route 4, Box 17 (the ranch)", "Rural Route 4, Box 17"),
        ("hit a deer on I-80 near the exit", "I-80"),
    ],
)
def test_street_forms(text: str, expected: str) -> None:
    assert (expected, T.STREET) in found(text)


def test_an_immigration_form_is_no_interstate() -> None:
    assert not {v for v, t in found("Alien # on I-94: A-000 111 222") if t == T.STREET}


def test_city_state_zip_line() -> None:
    got = found("Home: 45 Oak Avenue Apt 4B, Boston, MA 02114.")
    assert {("Boston", T.CITY), ("MA", T.STATE), ("02114", T.ZIP), ("45 Oak Avenue Apt 4B", T.STREET)} <= got


@pytest.mark.parametrize(
    ("text", "city", "state", "zip_"),
    [
        ("New York, NY 10001", "New York", "NY", "10001"),
        ("Salt Lake City, UT 84101-1234", "Salt Lake City", "UT", "84101-1234"),
        ("lives in West Des Moines, IA 50265", "West Des Moines", "IA", "50265"),
        ("Springfield, Massachusetts 01101", "Springfield", "Massachusetts", "01101"),
        ("seen at Oak Street Boston, MA 02114", "Boston", "MA", "02114"),
    ],
)
def test_city_state_zip_variants(text: str, city: str, state: str, zip_: str) -> None:
    assert {(city, T.CITY), (state, T.STATE), (zip_, T.ZIP)} <= found(text)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("Tongan interpreter by phone: Lupe Fifita, ID 40117", "ID"),  # Idaho's ZIP codes start with 8
        ("used phone interpreter Itzel (ID 40912) for goals talk", "ID"),
        ("CT plate AK 55219 on level 2", "AK"),  # Alaska's start with 9
    ],
)
def test_a_postal_code_before_a_number_of_another_zip_area_is_no_address(text: str, code: str) -> None:
    got = found(text)
    assert (code, T.STATE) not in got and not {t for _, t in got} & {T.CITY, T.ZIP}


def test_zip_after_cue() -> None:
    assert ("02115-1234", T.ZIP) in found("zip 02115-1234")
    assert ("02115", T.ZIP) in found("Zip code: 02115")


@pytest.mark.parametrize(
    "text",
    [
        "WBC 12345 and BNP 10001",
        "Given 2 Tylenol Pt tolerated",
        "Had 2 Head CT scans",
        "6 Minute Walk test",
        "12 Lead ECG",
        "saw 3 Dr Smith",
        "Smith, MD 12 patients",
    ],
)
def test_location_look_alikes(text: str) -> None:
    assert {t for t in found(text) if t[1].category.value == "LOCATION"} == set()


def test_rooms() -> None:
    assert ("412", T.ROOM) in found("moved to Room 412.")
    assert ("3", T.ROOM) in found("Bed 3, 4th floor")
    assert found("on room air, bed rest, in bed 3 days") == set()


@pytest.mark.parametrize(
    ("text", "room"),
    [("Moved to 6 West, bed 7-14 overnight.", "7-14"), ("Triaged to bay 9 in the ED.", "9"), ("Now in bed 12B on the unit.", "12B")],
)
def test_beds_and_bays(text: str, room: str) -> None:
    assert (room, PhiType.ROOM) in found(text)


def test_bed_ranges_of_measures_are_no_rooms() -> None:
    assert found("Head of bed 30-45 degrees; elevate head of bed 30. Bay leaf tea.") == set()


@pytest.mark.parametrize(
    ("text", "road"),
    [("Lives on a farm off Rte 28 near the river.", "Rte 28"), ("Crash on Highway 17 at night.", "Highway 17")],
)
def test_numbered_roads(text: str, road: str) -> None:
    assert (road, PhiType.STREET) in found(text)


def test_routes_of_administration_are_no_roads() -> None:
    assert found("Route: IV. Change route of administration; route 2 doses orally.") == set()


@pytest.mark.parametrize(("text", "room"), [("Transferred to bed 3-08.", "3-08"), ("In bay 11. Monitor on.", "11")])
def test_a_bed_at_a_sentence_end(text: str, room: str) -> None:
    assert (room, PhiType.ROOM) in found(text)


def test_a_bed_number_with_a_decimal_is_no_room() -> None:
    assert not any(t is PhiType.ROOM for _, t in found("Tilt bed 3.5 degrees."))


@pytest.mark.parametrize(("text", "state"), [("Drove a sedan, VT plate 4KX 221.", "VT"), ("Car with ME license plate on file.", "ME")])
def test_the_state_of_a_plate(text: str, state: str) -> None:
    assert (state, PhiType.STATE) in found(text)


def test_capital_words_before_plate_that_are_no_state_stay_untagged() -> None:
    assert not any(t is PhiType.STATE for _, t in found("Growth PL plate count normal; XX tag removed."))


@pytest.mark.parametrize(("text", "road"), [("She is staying at the inn on Route 9.", "Route 9"), ("Exit off Hwy 12. Then left.", "Hwy 12")])
def test_a_numbered_road_at_a_sentence_end(text: str, road: str) -> None:
    assert (road, PhiType.STREET) in found(text)


def test_a_dialysis_chair_is_a_room_and_a_wheelchair_is_not() -> None:
    assert ("11", PhiType.ROOM) in found("Dialysis MWF, chair 11; nephrologist aware.")
    assert not any(t is PhiType.ROOM for _, t in found("Uses a wheelchair 2 days a week. Chair 3 times daily."))


@pytest.mark.parametrize(("text", "room"), [("Transferred to bed 314B on 5 North.", "314B"), ("Now bed 1207C, isolation.", "1207C")])
def test_long_bed_numbers_with_a_bed_letter(text: str, room: str) -> None:
    assert (room, PhiType.ROOM) in found(text)


def test_long_bed_numbers_without_a_letter_are_no_rooms() -> None:
    # "bed 100" and "bay 250" are more often counts or volumes than beds; a letter after makes it a bed
    assert found("hospital has bed 100 capacity; bay 250 cars") == set()
