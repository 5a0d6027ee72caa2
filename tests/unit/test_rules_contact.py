"""PHONE/FAX, EMAIL, URL, IPADDR and SSN rules."""

from __future__ import annotations

import pytest

from deid_core.detect.rules import build_rule_detector
from schemas import EnrichedNote, PhiType


def found(text: str) -> set[tuple[str, PhiType]]:
    spans = build_rule_detector().detect(EnrichedNote("t", text))
    return {(text[s.start : s.end], s.type) for s in spans}


P, F = PhiType.PHONE, PhiType.FAX


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("call (617) 555-1234 today", ("(617) 555-1234", P)),
        ("call 617-555-1234 today", ("617-555-1234", P)),
        ("call 617.555.1234 today", ("617.555.1234", P)),
        ("call +1 617 555 1234 today", ("+1 617 555 1234", P)),
        ("call 1-800-555-1234", ("1-800-555-1234", P)),
        ("phone 617-555-1234 x1234.", ("617-555-1234 x1234", P)),
        ("phone 617-555-1234 ext. 22", ("617-555-1234 ext. 22", P)),
        ("cell 555-2231.", ("555-2231", P)),
        ("Fax: 617-555-9876", ("617-555-9876", F)),
        ("fax (617) 555-0199", ("(617) 555-0199", F)),
        ("pager 12345", ("12345", P)),
        ("beeper #4321", ("4321", P)),
        ("Cardiology ext. 4521", ("4521", P)),
    ],
)
def test_phone_forms(text: str, expected: tuple[str, PhiType]) -> None:
    assert expected in found(text)


def test_fax_cue_applies_only_to_its_own_number() -> None:
    got = found("Tel 617-555-1234, Fax 617-555-9876, 617.555.1111")
    assert ("617-555-1234", P) in got
    assert ("617-555-9876", F) in got
    assert ("617.555.1111", P) in got


def test_local_number_needs_phone_context_and_is_not_the_tail_of_a_full_number() -> None:
    assert found("range 555-1234 units") == set()
    assert found("call (617) 555-1234") == {("(617) 555-1234", P)}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("mail john.doe@example.com.", ("john.doe@example.com", PhiType.EMAIL)),
        ("to care.team+x@mail.example.org", ("care.team+x@mail.example.org", PhiType.EMAIL)),
        ("see https://portal.example.org/login?id=1.", ("https://portal.example.org/login?id=1", PhiType.URL)),
        ("see http://x.org", ("http://x.org", PhiType.URL)),
        ("see www.mgh.harvard.edu today", ("www.mgh.harvard.edu", PhiType.URL)),
        ("see portal.example.com/login now", ("portal.example.com/login", PhiType.URL)),
        ("see cdc.gov.", ("cdc.gov", PhiType.URL)),
        ("from 192.168.1.1 at", ("192.168.1.1", PhiType.IPADDR)),
        ("host 2001:db8::1 up", ("2001:db8::1", PhiType.IPADDR)),
        ("host 2001:0db8:85a3:0000:0000:8a2e:0370:7334", ("2001:0db8:85a3:0000:0000:8a2e:0370:7334", PhiType.IPADDR)),
        ("host fe80::1 up", ("fe80::1", PhiType.IPADDR)),
    ],
)
def test_electronic_contacts(text: str, expected: tuple[str, PhiType]) -> None:
    assert expected in found(text)


def test_email_domain_is_not_also_a_url() -> None:
    assert found("mail john.doe@example.com") == {("john.doe@example.com", PhiType.EMAIL)}


@pytest.mark.parametrize(
    "text",
    ["10.0.0.256", "01.2.3.4", "1.2.3.4.5", "times 10:22:33", "Na: 135 face: bad", "ratio 1:1:2", "e.g. i.e. a.m."],
)
def test_ip_and_url_look_alikes(text: str) -> None:
    assert {t for t in found(text) if t[1] in (PhiType.IPADDR, PhiType.URL)} == set()


@pytest.mark.parametrize(
    ("text", "expected"),
    [("SSN 123-45-6789.", "123-45-6789"), ("ssn 123 45 6789", "123 45 6789"), ("SSN: 123456789", "123456789")],
)
def test_ssn_forms(text: str, expected: str) -> None:
    assert (expected, PhiType.SSN) in found(text)


@pytest.mark.parametrize(
    "text",
    ["000-12-3456", "666-12-3456", "900-12-3456", "123-00-4567", "123-45-0000", "123456789 without the cue"],
)
def test_invalid_ssn_rejected(text: str) -> None:
    assert {t for t in found(text) if t[1] is PhiType.SSN} == set()


U = PhiType.USERNAME


@pytest.mark.parametrize(
    ("text", "handle"),
    [
        ("Portal username: qbarlowe", "qbarlowe"),
        ("login tvandermeer88 used overnight", "tvandermeer88"),
        ("user id zpelkey from the clinic", "zpelkey"),
        # A dictionary word still counts when a separator marks it as the value.
        ("login: nurse", "nurse"),
        ("username is 'garden'", "garden"),
        ("user id = harbor", "harbor"),
    ],
)
def test_cued_username_kept(text: str, handle: str) -> None:
    assert (handle, U) in found(text)


@pytest.mark.parametrize(
    "text",
    [
        "Remote login recorded from a new device.",
        "Login failed twice before reset.",
        "Portal user reported trouble with the app.",
    ],
)
def test_cued_username_not_the_sentence_going_on(text: str) -> None:
    assert not {v for v, t in found(text) if t == U}


@pytest.mark.parametrize(
    ("text", "handle"),
    [
        ("Signed cmorrow 08/09/2024 12:40", "cmorrow"),  # a sign-off by login before its date
        ("> Reply 11/3 15:10 from dkowalski: received", "dkowalski"),  # an initial and a listed surname
        ("Log closed 3/4 by hwalker22.", "hwalker22"),
        ("e-signed by jvance 14:02", "jvance"),
        ("Ines Osei, RN, CCRC (iosei)     PI: Dr. Brummell", "iosei"),  # a login after a credential
        ("12/13 15:05  tad_kb79 messaged via the portal", "tad_kb79"),  # a handle's shape
        ("Reply from j_ortiz_88 at noon.", "j_ortiz_88"),
    ],
)
def test_logins_in_sign_offs_and_handle_shapes(text: str, handle: str) -> None:
    assert (handle, U) in found(text)


@pytest.mark.parametrize(
    "text",
    [
        "Signed today 3/4 at the desk.",  # a word, not a login
        "Electronically signed: AML 09/15/2024",  # initials are a name, not a login
        "Seen in the ED (today) for pain.",  # no credential before the parenthesis
        "Given covid_19 booster; icd_10 code entered.",  # a label and its number
    ],
)
def test_no_login_without_its_shape_or_place(text: str) -> None:
    assert not {v for v, t in found(text) if t == U}


def test_no_login_from_a_word_after_by() -> None:
    text = "Mom joined by phone. Discharged by ambulance; called from fargo, nd; checked by kalani."
    assert not {v for v, t in found(text) if t is PhiType.USERNAME}

