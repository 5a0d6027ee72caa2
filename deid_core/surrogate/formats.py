"""Format-preserving random replacements for identifiers and contact details.

Every function takes the original and a ``random.Random`` seeded from the mapping key, so the same
input always proposes the same candidate, and none returns the original itself when the original
has at least one letter or digit to change.
"""

from __future__ import annotations

import ipaddress
import random
import re
import string
from collections.abc import Callable

_MAX_TRIES = 32
_HEX = frozenset(string.hexdigits)


def _retry(original: str, make: Callable[[], str]) -> str:
    """Call ``make`` until it differs from ``original`` (it almost always does the first time)."""
    candidate = make()
    for _ in range(_MAX_TRIES):
        if candidate != original:
            return candidate
        candidate = make()
    return candidate


def _char(c: str, rng: random.Random) -> str:
    if c.isdigit():
        return rng.choice(string.digits)
    if c.isalpha():
        if c.isupper():
            return rng.choice(string.ascii_uppercase)
        return rng.choice(string.ascii_lowercase)
    return c


def shape_preserving(original: str, rng: random.Random) -> str:
    """Digit for digit, letter for letter (case kept), every other character kept."""
    return _retry(original, lambda: "".join(_char(c, rng) for c in original))


def _digits_into(template: str, digits: list[str]) -> str:
    it = iter(digits)
    return "".join(next(it) if c.isdigit() else c for c in template)


def phone(original: str, rng: random.Random) -> str:
    """Digits replaced, letters kept; a leading US country code kept; NANP area code and exchange start with 2-9."""
    n = sum(c.isdigit() for c in original)

    def make() -> str:
        digits = [rng.choice(string.digits) for _ in range(n)]
        if n in (10, 11):
            base = 0
            if n == 11:
                # "1 (617) ..." keeps its country code; it identifies nobody.
                digits[0] = next(c for c in original if c.isdigit())
                base = 1
            digits[base] = rng.choice("23456789")
            digits[base + 3] = rng.choice("23456789")
        # Letters in a phone are words such as "ext" or "x", not part of the number.
        return _digits_into(original, digits)

    return _retry(original, make)


def ssn(original: str, rng: random.Random) -> str:
    """A valid-range SSN (area 001-899 but not 666, group 01-99, serial 0001-9999) in the same layout."""
    if sum(c.isdigit() for c in original) != 9:
        return shape_preserving(original, rng)

    def make() -> str:
        area = rng.randint(1, 898)
        area = area + 1 if area >= 666 else area
        text = f"{area:03d}{rng.randint(1, 99):02d}{rng.randint(1, 9999):04d}"
        return _digits_into(original, list(text))

    return _retry(original, make)


def ipv4(original: str, rng: random.Random) -> str:
    """A valid IPv4 address with the same number of digits in each octet."""
    octets = original.split(".")
    if len(octets) != 4 or not all(o.isdigit() and 1 <= len(o) <= 3 for o in octets):
        return shape_preserving(original, rng)

    def octet(width: int, first: bool) -> str:
        low = 10 ** (width - 1) if width > 1 else (1 if first else 0)
        high = min(255, 10**width - 1)
        if width == 3 and first:
            high = 223  # stay out of multicast/reserved space for the first octet
        return str(rng.randint(low, high))

    def make() -> str:
        return ".".join(octet(len(o), i == 0) for i, o in enumerate(octets))

    return _retry(original, make)


def ip_address(original: str, rng: random.Random) -> str:
    """IPv4 via :func:`ipv4`; IPv6 hex digits replaced by hex digits (case kept), colons kept."""
    text = original.strip()
    try:
        version = ipaddress.ip_address(text).version
    except ValueError:
        version = 0
    if version == 4 or re.fullmatch(r"\d{1,3}(?:\.\d{1,3}){3}", text):
        return ipv4(original, rng)
    if version == 6:

        def hexchar(c: str) -> str:
            if c in _HEX:
                h = rng.choice("0123456789abcdef")
                return h.upper() if c.isupper() else h
            return c

        return _retry(original, lambda: "".join(hexchar(c) for c in original))
    return shape_preserving(original, rng)


_EMAIL_RE = re.compile(r"^(?P<local>[^@\s]+)@(?P<domain>[^@\s]+)$")


def _host(host: str, rng: random.Random) -> str:
    """Replace every label but a leading ``www`` and the final (top-level) label."""
    labels = host.split(".")
    if len(labels) < 2:
        return shape_preserving(host, rng)
    out = []
    for i, label in enumerate(labels):
        keep = i == len(labels) - 1 or (i == 0 and label.lower() == "www")
        out.append(label if keep else shape_preserving(label, rng))
    return ".".join(out)


def email(original: str, rng: random.Random) -> str:
    """Local part and domain labels replaced shape for shape; ``@``, dots and the TLD kept."""
    m = _EMAIL_RE.match(original)
    if not m:
        return shape_preserving(original, rng)
    return _retry(original, lambda: f"{shape_preserving(m['local'], rng)}@{_host(m['domain'], rng)}")


_URL_RE = re.compile(r"^(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*://)?(?P<host>[^/?#:\s]+)(?P<rest>.*)$", re.DOTALL)


def url(original: str, rng: random.Random) -> str:
    """Scheme, ``www``, the TLD and every separator kept; host labels, path and query replaced."""
    m = _URL_RE.match(original)
    if not m:
        return shape_preserving(original, rng)
    scheme = m["scheme"] or ""
    rest = m["rest"]

    def make() -> str:
        new_rest = "".join(_char(c, rng) for c in rest) if rest else ""
        return f"{scheme}{_host(m['host'], rng)}{new_rest}"

    return _retry(original, make)


def zip_code(original: str, rng: random.Random) -> str:
    """5 or 9 digits stay 5 or 9 digits, in the same layout (``02115`` or ``02115-1234``)."""
    return shape_preserving(original, rng)
