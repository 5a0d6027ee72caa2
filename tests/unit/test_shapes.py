"""deid_core.detect.shapes: what a value of a type can look like, applied to the tagger's guesses."""

from __future__ import annotations

import pytest

from deid_core.detect.shapes import TYPE_SHAPES, possible_value
from deid_core.hygiene import build_hygiene
from deid_core.lexicon import load_lexicons
from deid_tools.corpus import generate_notes
from schemas import PhiType, Span


@pytest.mark.parametrize(
    ("type_", "value"),
    [
        (PhiType.USERNAME, "jsmith42"), (PhiType.USERNAME, "cindylee"), (PhiType.USERNAME, "the_real_mary"),
        (PhiType.USERNAME, "daniel.k"), (PhiType.VEHICLE, "2XPL 418"), (PhiType.VEHICLE, "KZR-4471"),
        (PhiType.VEHICLE, "1HGCM82633A004352"), (PhiType.URL, "www.example.org"), (PhiType.URL, "https://x.org/a"),
        (PhiType.STATE, "MA"), (PhiType.STATE, "New Hampshire"), (PhiType.STATE, "Mass."), (PhiType.STATE, "Calif"),
        (PhiType.DATE, "3/4"), (PhiType.DATE, "2019"), (PhiType.DATE, "the 22nd"), (PhiType.DATE, "Labor Day"),
        (PhiType.DATE, "Mother's Day"), (PhiType.DATE, "spring of '98"), (PhiType.DATE, "Mondays"),
        (PhiType.PATIENT, "anything at all"),
    ],
)  # fmt: skip
def test_values_a_type_can_take(type_: PhiType, value: str) -> None:
    assert possible_value(type_, value, load_lexicons())


@pytest.mark.parametrize(
    ("type_", "value"),
    [
        (PhiType.USERNAME, "practice"), (PhiType.USERNAME, "CORRECTED"), (PhiType.USERNAME, "Spiritual"),
        (PhiType.VEHICLE, "$340"), (PhiType.VEHICLE, "another 2 lb"), (PhiType.VEHICLE, "formal driving"),
        (PhiType.URL, "; podiatry "), (PhiType.URL, "anti-Jk(a) and anti-E"), (PhiType.STATE, "PharmD"),
        (PhiType.STATE, "IBCLC"), (PhiType.DATE, "Set 2"), (PhiType.DATE, "FEV1 0.61"), (PhiType.DATE, "1030"),
        (PhiType.DATE, "day 1"),
    ],
)  # fmt: skip
def test_values_a_type_cannot_take(type_: PhiType, value: str) -> None:
    assert not possible_value(type_, value, load_lexicons())


def test_every_synthetic_gold_value_of_a_checked_type_passes() -> None:
    """The checks state properties of the types, so no labelled value of the corpus fails one."""
    lex = load_lexicons()
    failed = [
        (s.type.value, note.text[s.start : s.end])
        for split in ("train", "dev", "test")
        for note in generate_notes(split, 300, seed=5)
        for s in note.spans
        if s.type in TYPE_SHAPES and not possible_value(s.type, note.text[s.start : s.end], lex)
    ]
    assert failed == []


def test_only_the_taggers_own_guesses_are_dropped() -> None:
    hygiene = build_hygiene()
    text = "Note: practice daily."
    start, end = text.index("practice"), text.index("practice") + len("practice")
    tagged = Span(start, end, PhiType.USERNAME, 0.9, frozenset({"tagger"}))
    ruled = Span(start, end, PhiType.USERNAME, 0.9, frozenset({"rules"}))
    assert hygiene.clean(text, [tagged]) == []
    assert hygiene.clean(text, [ruled]) == [ruled]
