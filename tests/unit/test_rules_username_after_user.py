"""A user name right after a bare "user" or "handle", when it is shaped like a handle. Examples invented
for these tests."""

from __future__ import annotations

import pytest

from deid_core.detect.rules import build_rule_detector
from schemas import EnrichedNote, PhiType


def usernames(text: str) -> set[str]:
    return {text[s.start : s.end] for s in build_rule_detector().detect(EnrichedNote("t", text)) if s.type is PhiType.USERNAME}


@pytest.mark.parametrize(
    ("text", "name"),
    [("She uses the clinic app, user tavi.r.88.", "tavi.r.88"), ("Posts under the handle quiet_owl_7 nightly.", "quiet_owl_7"),
     ("Portal user mkeane42 locked out.", "mkeane42"), ("District login used: acastellanos   -- ac", "acastellanos")],
)
def test_a_handle_after_user_or_handle(text: str, name: str) -> None:
    assert name in usernames(text)


@pytest.mark.parametrize("text", ["The user reports pain.", "Give to the user a.m. dose.", "A handle bar injury."])
def test_prose_after_user_is_no_handle(text: str) -> None:
    assert usernames(text) == set()
