"""``Local`` and a number, capitalised, is a union's branch (ORGANIZATION); the ordinary word is not.
Examples invented for these tests."""

from __future__ import annotations

import pytest

from deid_core.detect.rules import build_rule_detector
from schemas import EnrichedNote, PhiType


def organisations(text: str) -> list[str]:
    spans = build_rule_detector().detect(EnrichedNote("t", text))
    return [text[s.start : s.end] for s in spans if s.type is PhiType.ORGANIZATION]


@pytest.mark.parametrize("text", ["Former ironworker (Local 913), on SSDI.", "Drank his way out of the Local 417."])
def test_a_union_local_is_an_organisation(text: str) -> None:
    assert organisations(text) == [text[text.index("Local") : text.index("Local") + 9].rstrip(").")]


@pytest.mark.parametrize("text", ["Local 2 cm margin.", "local 5 mg lidocaine", "Local 1.5 cm flap", "Local anesthesia"])
def test_other_locals_are_not(text: str) -> None:
    assert organisations(text) == []
