"""Given names in speech, in small letters, after a spoken or texted cue (rules/spoken_names.py).
Examples invented for these tests."""

from __future__ import annotations

import pytest

from deid_core.detect.rules import build_rule_detector
from schemas import EnrichedNote, PhiType


def spoken(text: str) -> list[str]:
    spans = build_rule_detector().detect(EnrichedNote("t", text))
    return [text[s.start : s.end] for s in spans if s.type is PhiType.PATIENT and "spoken_" in s.explanation]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ('"yeah its ron again from the feed store, call me back"', "ron"),
        ('"its bill from high plains ambulance unit 4"', "bill"),
        ('"hey del its priya on nights"', "del"),
        ("ok we come 10:45. thank u hope", "hope"),
        ('she replied "ty!! tell pete grandpa says hi."', "pete"),
        ("omw. tell ruthie i'm 10 min late", "ruthie"),
        ('"larkspur 6 it\'s deb in pharmacy, the chemo is ready"', "deb"),
    ],
)
def test_a_name_after_a_spoken_cue(text: str, name: str) -> None:
    assert name in spoken(text)


@pytest.mark.parametrize(
    "text",
    [
        "If this is an emergency call 911.",
        "mother asked if this is ok (yes for tea).",
        "the wallet? its in the car",
        "phleb ty drew am labs x6",
        "thank you honey, see you sunday",
        "hi doc, quick question",
        "Thank you Rose.",  # capitalised: the tagger's, whose type a rule would override
        "tell one person at work",
    ],
)
def test_no_name_where_the_word_goes_on_as_text(text: str) -> None:
    assert spoken(text) == []
