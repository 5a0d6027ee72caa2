"""PROFESSION in a phrase about work (rules/work_phrases.py). Examples invented for these tests."""

from __future__ import annotations

import pytest

from deid_core.detect.rules import build_rule_detector
from schemas import EnrichedNote, PhiType


def professions(text: str) -> set[str]:
    spans = build_rule_detector().detect(EnrichedNote("t", text))
    return {text[s.start : s.end] for s in spans if s.type is PhiType.PROFESSION}


@pytest.mark.parametrize(
    ("text", "job"),
    [
        ("Work: marine surveyor at a shipyard in the county.", "marine surveyor"),
        ("She is studying and becoming a phlebotomist (evening classes).", "phlebotomist"),
        ("Dad works weekends as an LPN at a group home.", "LPN"),
        ("Spent 22 years as a tugboat captain out of the port.", "tugboat captain"),
        ("He was a mill-floor foreman and later a janitor.", "mill-floor foreman"),
        ("Occupation: retired tool-and-die maker", "tool-and-die maker"),
    ],
)
def test_work_phrases(text: str, job: str) -> None:
    assert job in professions(text)


@pytest.mark.parametrize(
    "text",
    [
        "Worked as a teenager in the orchard.",  # no job
        "Works as a result of the new schedule.",
        "He was a restrained driver in the collision.",  # an everyday role after "was a"
        "She was a smoker until 2010.",
        "As a child he had asthma.",
    ],
)
def test_no_work_phrases(text: str) -> None:
    assert not professions(text)
