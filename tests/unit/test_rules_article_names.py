"""``An`` is a person where the article cannot stand: before a verb, a conjunction, a possessive or
punctuation; never before a noun or an adjective. Examples invented for these tests."""

from __future__ import annotations

import pytest

from deid_core.detect.rules import build_rule_detector
from schemas import EnrichedNote, PhiType


def patients(text: str) -> list[str]:
    spans = build_rule_detector().detect(EnrichedNote("t", text))
    return [text[s.start : s.end] for s in spans if s.type is PhiType.PATIENT]


@pytest.mark.parametrize(
    "text",
    [
        "Her sister runs the salon. An is a pharmacy technician.",
        "Close friends An and Quinn.",
        "Vaped once at a sleepover at An's.",
        "Firearms: none (confirmed with An).",
        "- An: mom called back 15:30",
        "An (a barista) called 911.",
        "Collateral by phone from An, 03:50.",
        "An asked about adult day care.",
        "Mrs. Phan prefers that An hear everything first.",
        "She moved to live with An here in 2019.",
        "An lives nearby.",
    ],
)
def test_an_where_no_article_can_stand_is_a_name(text: str) -> None:
    assert patients(text) == ["An"]


@pytest.mark.parametrize(
    "text",
    [
        "An elevated troponin was noted.",
        "An MRI is pending.",
        "An interpreter was used.",
        "Plan: an is-it-safe check.",
        "There was an (unclear) episode.",
        "An s/p appendectomy patient.",
        "An analysis showed no change.",
        "An abscess was drained.",
        "An agreed-upon plan.",
    ],
)
def test_the_article_is_no_name(text: str) -> None:
    assert patients(text) == []
