"""Organisation and facility names ending in head words the shared cue lists lack (co-ops, mutual
insurers, orchestras, imaging centres, group practices, meal services). Examples invented here."""

from __future__ import annotations

import pytest

from deid_core.detect.lexical import build_lexicon_detector
from schemas import EnrichedNote


@pytest.fixture(scope="module")
def lexicon():
    return build_lexicon_detector()


def found(detector, text: str) -> set[tuple[str, str]]:
    return {(text[s.start : s.end], s.type.value) for s in detector.detect(EnrichedNote("n", text))}


@pytest.mark.parametrize(
    ("text", "name", "type_"),
    [
        ("He works nights at the Harrowgate Grain Co-op in town.", "Harrowgate Grain Co-op", "ORGANIZATION"),
        ("Insurer: Quillon Farmers Mutual, claim pending.", "Quillon Farmers Mutual", "ORGANIZATION"),
        ("Played viola with the Brackwater Symphony for years.", "Brackwater Symphony", "ORGANIZATION"),
        ("CT done at Elmstead Imaging last week.", "Elmstead Imaging", "HOSPITAL"),
        ("Seen by Dr. Vance of Tamsworth Orthopaedic Associates.", "Tamsworth Orthopaedic Associates", "HOSPITAL"),
        ("Referred to Corrin Bay Meals on Wheels for lunches.", "Corrin Bay Meals on Wheels", "ORGANIZATION"),
        ("Prenatal care at Lindqvist Women's Health since May.", "Lindqvist Women's Health", "HOSPITAL"),
        ("O2 from Apex Breath Supply (concentrator).", "Apex Breath Supply", "ORGANIZATION"),
        ("Petition filed with the Tamsworth Probate Court today.", "Tamsworth Probate Court", "ORGANIZATION"),
    ],
)
def test_a_name_before_an_added_head_word(lexicon, text: str, name: str, type_: str) -> None:
    assert (name, type_) in found(lexicon, text)


def test_a_lower_case_inner_word_must_sit_inside_the_head(lexicon) -> None:
    # "on" opens no head: "Wheels" alone is no head word, so nothing is named here.
    assert not any("Wheels" in v for v, _ in found(lexicon, "Ran on Wheels today."))


@pytest.mark.parametrize(
    ("text", "body"),
    [
        ("Officer Lindgren of the Marrowby Police Department drove him in.", "Marrowby Police Department"),
        ("Dr. Vance of Tamsworth Orthopaedic Associates called.", "Tamsworth Orthopaedic Associates"),
    ],
)
def test_a_titled_person_before_of_is_not_part_of_the_body(lexicon, text: str, body: str) -> None:
    values = {v for v, _ in found(lexicon, text)}
    assert body in values
    assert not any(v.startswith(("Lindgren", "Vance")) and "of" in v for v in values)


@pytest.mark.parametrize(
    ("text", "name"),
    [("Officer Quennell stayed at the bedside.", "Quennell"), ("Spoke with Sgt. Abernathy-Lowe by phone.", "Abernathy-Lowe"),
     ("Ofc. Lamberti reviewed the video.", "Lamberti")],
)
def test_an_officer_title_names_the_person_after_it(lexicon, text: str, name: str) -> None:
    assert (name, "PATIENT") in found(lexicon, text)



def test_the_short_form_of_a_saints_facility_spells_the_saint(lexicon) -> None:
    text = "Admitted to St. Brannoch Medical Center.\nFollow-up: SBMC cardiology clinic."
    assert ("SBMC", "HOSPITAL") in found(lexicon, text)


def test_no_saint_initial_without_a_saint(lexicon) -> None:
    text = "Admitted to Brannoch Medical Center.\nFollow-up: SBMC cardiology clinic."
    assert ("SBMC", "HOSPITAL") not in found(lexicon, text)


@pytest.mark.parametrize("text", ["Seen at St. Brannoch Medical Center today.", "Seen at Mount Orrel Hospital today."])
def test_a_facility_named_for_a_saint_or_mount_keeps_its_opening_word(lexicon, text: str) -> None:
    assert any(v.startswith(("St. Brannoch", "Mount Orrel")) for v, _ in found(lexicon, text))
