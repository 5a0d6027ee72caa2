from __future__ import annotations

import ipaddress
import random
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from deid_core.surrogate import formats


def _classes(text: str) -> list[str]:
    return ["9" if c.isdigit() else "A" if c.isupper() else "a" if c.islower() else c for c in text]


@given(st.text(alphabet=st.sampled_from("abcXYZ0123456789-_./ #"), min_size=1, max_size=30), st.integers())
def test_shape_preserving_keeps_every_character_class(original: str, seed: int) -> None:
    out = formats.shape_preserving(original, random.Random(seed))
    assert _classes(out) == _classes(original)
    if any(c.isalnum() for c in original) and sum(c.isalnum() for c in original) > 1:
        assert out != original


@given(
    st.from_regex(
        r"\(\d{3}\) \d{3}-\d{4}|\d{3}-\d{3}-\d{4}|1-\d{3}-\d{3}-\d{4}|\d{3}\.\d{4}", fullmatch=True
    ),
    st.integers(),
)
def test_phone_keeps_layout(original: str, seed: int) -> None:
    out = formats.phone(original, random.Random(seed))
    assert _classes(out) == _classes(original) and out != original
    digits = re.sub(r"\D", "", out)
    if len(digits) in (10, 11):
        base = len(digits) - 10
        assert digits[base] in "23456789" and digits[base + 3] in "23456789"
        if base:
            assert digits[0] == re.sub(r"\D", "", original)[0]


def test_phone_keeps_extension_words() -> None:
    out = formats.phone("617-555-0100 ext 12", random.Random(0))
    assert _classes(out) == _classes("617-555-0100 ext 12")
    assert out[12:17] == " ext " and out[:12] != "617-555-0100"


@given(st.from_regex(r"\d{3}-\d{2}-\d{4}|\d{9}|\d{3} \d{2} \d{4}", fullmatch=True), st.integers())
def test_ssn_is_valid_range_and_same_layout(original: str, seed: int) -> None:
    out = formats.ssn(original, random.Random(seed))
    assert _classes(out) == _classes(original) and out != original
    digits = re.sub(r"\D", "", out)
    area, group, serial = int(digits[:3]), int(digits[3:5]), int(digits[5:])
    assert 1 <= area <= 899 and area != 666
    assert 1 <= group <= 99 and 1 <= serial <= 9999


@given(st.from_regex(r"\d{5}(-\d{4})?|\d{9}", fullmatch=True), st.integers())
def test_zip_stays_5_or_9_digits(original: str, seed: int) -> None:
    out = formats.zip_code(original, random.Random(seed))
    assert _classes(out) == _classes(original) and out != original


@given(st.ip_addresses(v=4), st.integers())
def test_ipv4_stays_valid_with_same_octet_widths(addr: ipaddress.IPv4Address, seed: int) -> None:
    original = str(addr)
    out = formats.ip_address(original, random.Random(seed))
    ipaddress.IPv4Address(out)
    assert [len(o) for o in out.split(".")] == [len(o) for o in original.split(".")]
    assert out != original


def test_ipv6_stays_valid() -> None:
    out = formats.ip_address("fe80::1ab:22ff", random.Random(0))
    ipaddress.IPv6Address(out)
    assert out != "fe80::1ab:22ff"


@pytest.mark.parametrize("original", ["john.smith@partners.org", "J_Smith42@mail.example.co.uk", "a@b.com"])
def test_email_keeps_at_dots_and_tld(original: str) -> None:
    out = formats.email(original, random.Random(1))
    assert out != original
    assert out.count("@") == 1 and out.count(".") == original.count(".")
    assert out.rsplit(".", 1)[1] == original.rsplit(".", 1)[1]
    assert _classes(out) == _classes(original)


@pytest.mark.parametrize(
    "original",
    [
        "https://www.mgh.harvard.edu/patients?id=12",
        "http://example.org",
        "www.smithfamily.net/blog/2014",
        "ftp://files.acme.com:21/x",
    ],
)
def test_url_keeps_scheme_www_and_tld(original: str) -> None:
    out = formats.url(original, random.Random(2))
    assert out != original
    scheme = original.split("://")[0] + "://" if "://" in original else ""
    assert out.startswith(scheme + ("www." if "www." in original else ""))
    host_tld = re.match(r"(?:[a-z]+://)?([^/:?]+)", original).group(1).rsplit(".", 1)[1]  # type: ignore[union-attr]
    assert re.match(r"(?:[a-z]+://)?([^/:?]+)", out).group(1).rsplit(".", 1)[1] == host_tld  # type: ignore[union-attr]
    assert len(out) == len(original)
