"""Sign-off initials after a credential or role and a column gap, at the end of the line. Examples
invented for these tests."""

from __future__ import annotations

import pytest

from deid_core.detect.rules import build_rule_detector
from schemas import EnrichedNote, PhiType


def doctors(text: str) -> set[str]:
    spans = build_rule_detector().detect(EnrichedNote("t", text))
    return {text[s.start : s.end] for s in spans if s.type is PhiType.DOCTOR}


@pytest.mark.parametrize(
    ("text", "initials"),
    [
        ("Plan reviewed with family.\nOdile Varga, RN      ov\n", "ov"),
        ("Seen today.\nTeodor Lisk, BSN, RN, school nurse\ttl", "tl"),
        ("Wound care done.\nPia Ruud, PT      pr", "pr"),
    ],
)
def test_initials_after_a_credential_and_a_column_gap(text: str, initials: str) -> None:
    assert initials in doctors(text)


@pytest.mark.parametrize(
    "text",
    [
        "Ceftriaxone 1 g      im",  # a route after a dose: no credential before the gap
        "Odile Varga, RN ov",  # no column gap
        "Odile Varga, RN      ov today",  # not the end of the line
    ],
)
def test_no_initials_without_credential_gap_and_line_end(text: str) -> None:
    assert not {"im", "ov"} & doctors(text)


@pytest.mark.parametrize(
    ("text", "initials"),
    [
        ("Reviewed with the family.\nSigned KTB 02/11/2025 08:40", "KTB"),
        ("Co-signed by RJ.", "RJ"),
        ("Plan as above. Initialed PDQ, 14:05", "PDQ"),
    ],
)
def test_initials_after_signed(text: str, initials: str) -> None:
    assert initials in doctors(text)


@pytest.mark.parametrize(
    "text",
    [
        "Signed MD 02/11/2025 08:40",  # a credential
        "Signed DNR form on file.",  # a form, followed by a word
        "signed consent 3 pages",
    ],
)
def test_no_initials_after_signed(text: str) -> None:
    assert not doctors(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Crisis resources reviewed.\n\nMAK   mabou-khalil\nME   mebanks\n", {"MAK", "ME"}),
        ("cooler.\n\nkb -- kiera beaudoin rn  kbeaudoin\n", {"kb"}),
        ("thrombectomy eval pending.\n\n-- OF RN, night shift 19:00-07:00", {"OF"}),
        ("next visit 3/20/26.\nPNS   login pnakamura\n", {"PNS"}),
        ("after-hours line.\n\nIS 02/17/2026 15:40\n", {"IS"}),
    ],
)
def test_a_signature_legend_line_and_initials_before_a_credential(text: str, expected: set[str]) -> None:
    assert expected <= doctors(text)


@pytest.mark.parametrize(
    "text", ["PO   pork\nED  education\nIV   ivermectin\nBP  bpm 80\n", "-- RN note\n", "RN 02/17/2026 15:40\n"]
)
def test_no_legend_line_from_an_abbreviation_before_a_word(text: str) -> None:
    assert doctors(text) == set()


def test_a_login_opening_a_legend_line_is_a_username() -> None:
    text = "softball opener).\n\ntvasilescu -- T. Vasilescu RN   on-call\n"
    spans = build_rule_detector().detect(EnrichedNote("t", text))
    assert {text[s.start : s.end] for s in spans if s.type is PhiType.USERNAME} >= {"tvasilescu"}
    assert not any(s.type is PhiType.USERNAME for s in build_rule_detector().detect(EnrichedNote("t", "lisinopril -- T. Vasilescu\n")))
