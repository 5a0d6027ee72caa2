"""A table's signer column (``| by |``, ``| init |``): the initials under it are staff, even when they
spell an abbreviation; roles, credentials and relations are not. Examples invented for these tests."""

from __future__ import annotations

import pytest

from deid_core.detect.rules import build_rule_detector
from schemas import EnrichedNote, PhiType


def found(text: str) -> set[tuple[str, PhiType]]:
    spans = build_rule_detector().detect(EnrichedNote("t", text))
    return {(text[s.start : s.end], s.type) for s in spans if s.type in (PhiType.DOCTOR, PhiType.USERNAME)}


D, U = PhiType.DOCTOR, PhiType.USERNAME


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "| time | phase | HR | init |\n|------|-------|----|------|\n| 09:10 | pre | 116 | AF |\n| 09:30 | 15 min | 114 | AF |\n",
            {("AF", D)},
        ),
        (
            "time  | intervention          | by\n21:55 | escort to seclusion   | OQ, TW, security\n22:15 | obs: pacing   | ah\n",
            {("OQ", D), ("TW", D), ("ah", D)},
        ),
        ("| # | notes | by |\n| 1 | confused 40 min | RA / CRNA Lemaire |\n", {("RA", D)}),
        ("| date | action | init |\n| 3/2 | filled | kbelrose2 |\n", {("kbelrose2", U)}),
        ("TIME | VS | PAIN | NOTE | INIT\n0730 | HR 88 | 6/10 | Foley out | AT\n0900 | -- | 4/10 | ambulated | AT\n",
         {("AT", D)}),  # a function word's letters in capitals
    ],
)
def test_initials_and_logins_under_a_signer_header(text: str, expected: set[tuple[str, PhiType]]) -> None:
    assert expected <= found(text)


@pytest.mark.parametrize(
    "text",
    [
        "| drug | sig | prescriber |\n| tamsulosin 0.4 mg | qhs | see list |\n",  # "sig": directions, not a signer
        "| date | req by | action |\n| 3/2 | IVR | filled |\n| 3/4 | wife | approved |\n",  # who asked, not who signed
        "| time | note | by |\n| 08:00 | walked | PT |\n| 09:00 | fed | mom |\n| 10:00 | vitals | RN |\n",
        "| time | note | by |\n| 08:00 | walked | and |\n",  # a function word in small letters
        "| time | by | note |\n",  # the header row itself
        "HR | 88 | AF\nBP | 120/70 | ok\n",  # no signer header
    ],
)
def test_other_columns_roles_relations_and_headers_are_no_initials(text: str) -> None:
    assert found(text) == set()


def test_given_names_under_a_nurse_column_but_no_words() -> None:
    text = "CHAIR | IN    | REGIMEN     | RN  | COMMENTS\nC3    | 07:45 | FOLFOX C4D1 | Bo  | port ok\nC4    | 08:10 | FOLFIRI     | An  | -\nC5    | 08:30 | AC          | Security | -\n"
    assert found(text) == {("Bo", D), ("An", D)}

