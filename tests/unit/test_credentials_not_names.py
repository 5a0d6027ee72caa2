"""Credentials of audiology, travel medicine, sleep and addiction staff are never names (cues.yaml
not_names). Examples invented for these tests."""

from __future__ import annotations

import pytest

from deid_core.detect.lexical import build_lexicon_detector
from schemas import EnrichedNote, PhiType


def people(text: str) -> set[str]:
    spans = build_lexicon_detector().detect(EnrichedNote("t", text))
    return {text[s.start : s.end] for s in spans if s.type in (PhiType.DOCTOR, PhiType.PATIENT)}


@pytest.mark.parametrize(
    ("text", "credential"),
    [
        ("Seen by Imogen Reyes-Vance, MD, CTropMed   scribe present", "CTropMed"),
        ("Audiologist: Bram Osei, AuD", "AuD"),
        ("Scored by Lene Holt, RPSGT.", "RPSGT"),
    ],
)
def test_credential_is_no_name(text: str, credential: str) -> None:
    assert not any(credential in found for found in people(text))
