"""The other half of a pair whose one half is a person (deid_core/paired_names.py)."""

from __future__ import annotations

import time

import pytest

from deid_core.paired_names import names_in_pairs
from schemas import PhiType, Span


def _person(text: str, value: str, source: str = "rules") -> Span:
    start = text.index(value)
    return Span(start, start + len(value), PhiType.DOCTOR, 0.8, frozenset({source}))


def _found(text: str, *persons: Span) -> list[str]:
    return [text[s.start : s.end] for s in names_in_pairs(text, list(persons))]


@pytest.mark.parametrize(
    ("text", "person", "expected"),
    [
        ("Night shift: Ro + Tessa handled 3 admits.", "Ro", ["Tessa"]),
        ("Intake staff: Marco / mt\n\nSECTION B", "Marco", ["mt"]),
        ('said "he did my toenails". -OF/lz\n01/06/26 f/u', "OF", ["lz"]),
        ("03/16 1410    | bk / OA\n0835 | RX7741066", "OA", ["bk"]),
    ],
)
def test_the_other_half_of_a_person_s_pair_is_a_person(text: str, person: str, expected: list[str]) -> None:
    found = names_in_pairs(text, [_person(text, person)])
    assert [text[s.start : s.end] for s in found] == expected
    assert all(s.type is PhiType.DOCTOR for s in found)


@pytest.mark.parametrize(
    ("text", "person"),
    [
        ("To: Dr. Obadiah Fenn / Rheumatology nurse pool", "Obadiah Fenn"),  # a specialty
        ("-- T. Wierzbicki / RN", "T. Wierzbicki"),  # a credential
        ("HIV Ag/Ab negative", "Ab"),  # a test's halves: two letters
        ("Crystal LaPointe + dtr Aiyana at bedside", "Crystal LaPointe"),  # the word names what follows
        ("Lena Ostrom / ICU charge", "Lena Ostrom"),  # a unit
        ("DATE/TIME: 02/03/2026", "DATE"),  # a heading in capitals is no person to pair with
    ],
)
def test_words_that_are_no_names_pair_with_no_one(text: str, person: str) -> None:
    assert _found(text, _person(text, person)) == []


def test_capitals_pair_only_with_initials_a_rule_found() -> None:
    text = "| NAAT GC/CT | neg |"
    assert _found(text, _person(text, "CT", "tagger")) == []
    signed = "-- PE / DA   signed 04/02/2026"
    assert _found(signed, _person(signed, "PE", "rules")) == ["DA"]
    assert _found(signed, _person(signed, "PE", "tagger")) == []


def test_a_covered_half_is_left_alone() -> None:
    text = "Night shift: Ro + Tessa handled 3 admits."
    assert _found(text, _person(text, "Ro"), _person(text, "Tessa", "tagger")) == []


def test_many_pairs_take_linear_time() -> None:
    text = "Ro + Tessa did it.\n" * 50_000
    persons = [Span(i, i + 2, PhiType.DOCTOR, 0.8, frozenset({"rules"})) for i in range(0, len(text), 19)]
    start = time.perf_counter()
    found = names_in_pairs(text, persons)
    assert time.perf_counter() - start < 10
    assert len(found) == 50_000
