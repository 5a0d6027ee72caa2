"""Given names of naming traditions the census and name-dictionary lists miss (lexicon/data/
first_names_world.txt): short names and names that are also words (Ama, Per, Mere, Dev) are read as names
where a cue says a person is meant, and the words they collide with stay words. Local detectors only;
examples invented for these tests."""

from __future__ import annotations

import pytest

from deid_core.detect.registry import LOCAL_DETECTORS, build_detectors
from deid_core.lexicon import load_lexicons
from deid_core.pipeline import DetectionPipeline
from schemas import EnrichedNote, PhiType


@pytest.fixture(scope="module")
def pipeline() -> DetectionPipeline:
    return DetectionPipeline(build_detectors(LOCAL_DETECTORS), None)


def spans(pipeline: DetectionPipeline, text: str) -> set[tuple[str, PhiType]]:
    return {(text[s.start : s.end], s.type) for s in pipeline.detect_batch_sync([EnrichedNote("t", text)])[0]}


def test_the_world_names_join_the_first_names() -> None:
    names = load_lexicons().first_names
    assert {"ama", "kwame", "per", "mere", "thu", "dev"} <= names
    assert not {"aud", "aba", "esi"} & names  # AuD, ABA therapy, ESI triage level


@pytest.mark.parametrize(
    ("text", "name", "type_"),
    [
        ("His wife Ama drove him; she is a bus driver.", "Ama", PhiType.PATIENT),
        ("Provider: Tomasz Wierzbicki, NP   Nurse: Ama   Scribe: jdoe", "Ama", PhiType.DOCTOR),
        ("Her son Per (66), a retired teacher, visits.", "Per", PhiType.PATIENT),
        ("MA: Dev\nPATIENT: Kowal", "Dev", PhiType.DOCTOR),
        ("Radiology tech: Mo (EOS imaging)", "Mo", PhiType.DOCTOR),
        ("Battery tested low, replaced by maintenance (Ro).", "Ro", PhiType.PATIENT),
    ],
)
def test_a_cue_makes_a_short_world_name_a_person(pipeline: DetectionPipeline, text: str, name: str, type_: PhiType) -> None:
    assert (name, type_) in spans(pipeline, text)


@pytest.mark.parametrize(
    "text",
    [
        "Per Dr. Okafor, hold heparin. Tylenol 650 mg per day.",
        "Audiology: Helga Strand, AuD, CCC-A",
        "Started ABA therapy 3x/week.",
        "ESI 3 at triage.",
        "Left AMA at 14:00.",
        "Follow up in 3 Mo. Seen 2 mo ago.",
    ],
)
def test_the_words_they_collide_with_stay_words(pipeline: DetectionPipeline, text: str) -> None:
    found = {value for value, _ in spans(pipeline, text)}
    assert not found & {"Per", "per", "AuD", "ABA", "ESI", "AMA", "Mo", "mo"}
