"""A facility's name made only of generic words is a kind of service, not one place
(deid_core.generic_facilities, through the lexicon's head rule and hygiene). Examples invented for these tests."""

from __future__ import annotations

import pytest

from deid_core.detect.lexical import build_lexicon_detector
from deid_core.generic_facilities import generic_facility, generic_words
from deid_core.hygiene import build_hygiene
from deid_core.lexicon import load_lexicons
from schemas import EnrichedNote, PhiType, Span


@pytest.mark.parametrize(
    ("value", "generic"),
    [
        ("DERMATOLOGY CLINIC", True),
        ("Wound Care Center", True),
        ("COMMUNITY-BASED OUTPATIENT CLINIC", True),
        ("SLEEP & NEUROLOGY", True),
        ("Pre-admission Testing Center", True),
        ("Harwick Pediatric Clinic", False),  # a name before the generic words
        ("Sacred Heart Hospital", False),  # ordinary words that open a real name
        ("Mercy Medical Center", False),
    ],
)
def test_generic_facility(value: str, generic: bool) -> None:
    assert generic_facility(value, generic_words(load_lexicons())) is generic


def facilities(text: str) -> set[str]:
    spans = build_lexicon_detector().detect(EnrichedNote("t", text))
    return {text[s.start : s.end] for s in spans if s.type in (PhiType.HOSPITAL, PhiType.ORGANIZATION)}


def test_lexicon_skips_a_generic_heading_but_keeps_a_named_facility() -> None:
    text = "PULMONARY CLINIC - FOLLOW-UP\nSeen at Harwick Pulmonary Clinic today.\n"
    found = facilities(text)
    assert "PULMONARY CLINIC" not in found
    assert "Harwick Pulmonary Clinic" in found


def test_hygiene_drops_a_generic_tagger_facility() -> None:
    text = "Brookvale Hospital - Preoperative Testing Center, room 2\n"
    value = "Preoperative Testing Center"
    start = text.index(value)
    span = Span(start, start + len(value), PhiType.HOSPITAL, 0.9, frozenset({"tagger"}), "t")
    named = Span(0, len("Brookvale Hospital"), PhiType.HOSPITAL, 0.9, frozenset({"tagger"}), "t")
    kept = {text[s.start : s.end] for s in build_hygiene().clean(text, [span, named])}
    assert value not in kept
    assert "Brookvale Hospital" in kept
