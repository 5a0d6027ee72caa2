"""A state's postal code after a town with no ZIP (rules/state_after_town.py). Examples invented for these tests."""

from __future__ import annotations

import pytest

from deid_core.detect.rules import build_rule_detector
from schemas import EnrichedNote, PhiType


def found(text: str, type_: PhiType) -> set[str]:
    spans = build_rule_detector().detect(EnrichedNote("t", text))
    return {text[s.start : s.end] for s in spans if s.type is type_}


@pytest.mark.parametrize(
    ("text", "state", "town"),
    [
        ("Referred by Pine Hollow Pediatrics, Quillmont, VT   Fax: 802-555-0101", "VT", "Quillmont"),
        ("Grew up on a farm in Corvallis, OR; moved east at 20.", "OR", "Corvallis"),
        ("Widowed, lives in Tarrowby, PA; retired.", "PA", "Tarrowby"),
        ("Daughter called from Tucson, AZ this morning.", "AZ", "Tucson"),
    ],
)
def test_state_after_a_town(text: str, state: str, town: str) -> None:
    assert state in found(text, PhiType.STATE)
    assert town in found(text, PhiType.CITY)


@pytest.mark.parametrize(
    "text",
    [
        "Seen with Harriet Okafor, PA; plan agreed.",  # a credential after a name
        "Discussed with Dr. Lee, MD today.",
        "Signed: Melanie A. Murphy, MD",  # a surname that is also a town
        "Referred to Quillmont, MD for follow-up.",  # an ambiguous code and no strong place word
        "Imaging of the chest, CT pending.",  # lower case before the comma
    ],
)
def test_no_state_after_a_name_or_credential(text: str) -> None:
    assert not found(text, PhiType.STATE)


@pytest.mark.parametrize(
    ("text", "town", "state"),
    [
        ("lives alone in dubuque, ia (north end)", "dubuque", "ia"),
        ("pharmacy on nw tumbleweed ct in bend, or. callback", "bend", "or"),
        ("moved from normal, il.", "normal", "il"),
        ("5521 old stage rd, eagle river, ak 99577", "eagle river", "ak"),
    ],
)
def test_a_lower_case_town_and_its_code(text: str, town: str, state: str) -> None:
    spans = build_rule_detector().detect(EnrichedNote("t", text))
    got = {(text[s.start : s.end], s.type.value) for s in spans}
    assert {(town, "CITY"), (state, "STATE")} <= got


@pytest.mark.parametrize("text", ["walked to the bend, or.", "pain in chest, or back", "home in broken arrow, ok   cb"])
def test_no_lower_case_town_without_the_gazetteer_a_preposition_or_a_clause_end(text: str) -> None:
    spans = build_rule_detector().detect(EnrichedNote("t", text))
    assert not [s for s in spans if s.type.value in ("CITY", "STATE")]


@pytest.mark.parametrize(("text", "town"), [
    ("She called once from Mobile, Alabama; she works nights.", "Mobile"),
    ("He owns a salon in Superior, Wisconsin.", "Superior"),
    ("They moved to Mesa from Reading, Pennsylvania in 2015.", "Reading"),
])
def test_a_town_before_a_state_s_full_name(text: str, town: str) -> None:
    spans = build_rule_detector().detect(EnrichedNote("t", text))
    assert (town, "CITY") in {(text[s.start : s.end], s.type.value) for s in spans}


def test_no_town_from_a_first_name_before_a_state_s_name() -> None:
    text = "Dear Lee, Georgia and Tom send their love."
    spans = build_rule_detector().detect(EnrichedNote("t", text))
    assert not [s for s in spans if s.type.value == "CITY"]
