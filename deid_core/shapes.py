"""Shapes that a PHI type can never take, for span hygiene (``deid_core.hygiene``).

Each test reads only the span's text and says whether a tagger span of that type is impossible there:
the tagger guesses from context, and a value of the wrong form for its type (an e-mail without an at
sign, a day/month with day 0) is a guess that no evidence supports. Only the spelling is judged, so
these tests cannot drop a value that has the form of the PHI they are about.
"""

from __future__ import annotations

import re

from schemas import PhiType

# Three-digit service numbers (911, 411, 311): dialled by everyone, nobody's phone.
_SERVICE_NUMBER = re.compile(r"[2-9]11")
# "jdoe at clinic dot org": a spelled-out address still has an "at".
_SPELLED_AT = re.compile(r"(?i)(?<![a-z])at(?![a-z])|[(\[{]\s*at\s*[)\]}]")
# The spelled-out "at" as a word, and what a domain after it needs: two letters ("breast ca at 38" has none).
_AT_WORD = re.compile(r"\bat\b", re.IGNORECASE)
_DOMAIN_LETTERS = re.compile(r"[^\W\d_]{2,}")
_DAY_MONTH = re.compile(r"(\d{1,2})[/.](\d{1,2})")
# Three digits, then a slash or a dot and a number ("112/70": a blood pressure): no day or month is written
# with three digits. ("7/214" may be a grade and a homeroom the tagger mistyped: it is kept.)
_NO_DATE_PAIR = re.compile(r"\d{3}[/.]\d{1,4}")
# An ICD-10 code ("M23.221", "E11.9"): a letter, two digits, a dot, more.
_ICD10 = re.compile(r"[A-TV-Z]\d[0-9A-Z]\.[0-9A-Z]{1,4}")
# Gravida/para ("G2P1001", "G3P2"): obstetric history, never an identifier or a name.
_GRAVIDA_PARA = re.compile(r"G\d{1,2}\s?P\d{1,4}(?:-?\d){0,3}", re.IGNORECASE)
# Every IP address has dotted groups of digits ("10.4.22.7", a masked "10.4.x.x" too) or colons between
# hex groups (IPv6, "::1"); "132/70 76 16 36.8" (vital signs) has neither.
_IP_MARK = re.compile(r"\d{1,3}(?:\.(?:\d{1,3}|[xX*]{1,3})){2}|[0-9A-Fa-f]*::?[0-9A-Fa-f]+(?::|\b)")
# A web address joins its parts with a dot or colon between word characters, the dot before a letter
# ("x.org", "https://"), or spells the dot out ("example dot org"); a slash alone joins words of prose
# ("red/green/amber", "ferrous/folate").
_URL_JOIN = re.compile(r"\w[.:]+/*[A-Za-z]|(?i:\sdot\s)")


def impossible(type_: PhiType, value: str) -> bool:
    """True when ``value`` cannot be PHI of ``type_`` whatever its context."""
    if _GRAVIDA_PARA.fullmatch(value):
        return True
    if type_ is PhiType.PHONE:
        return bool(_SERVICE_NUMBER.fullmatch(value))
    if type_ is PhiType.IPADDR:
        return _IP_MARK.search(value) is None  # a field label and its dot leader ("Born ......")
    if type_ is PhiType.EMAIL:
        at = None if "@" in value else _AT_WORD.search(value)
        return at is not None and _DOMAIN_LETTERS.search(value, at.end()) is None
    if type_ is PhiType.URL:
        return _URL_JOIN.search(value) is None  # "E-mail ...........": a label, not an address
    if type_ is PhiType.DATE:
        if _ICD10.fullmatch(value):
            return True
        if _NO_DATE_PAIR.fullmatch(value):
            return True
        m = _DAY_MONTH.fullmatch(value)
        return m is not None and not _month_day_either_way(int(m[1]), int(m[2]))
    return False


def no_address(value: str) -> bool:
    """True for an e-mail guess with no at sign, written or spelled out; whether it is still PHI of
    another kind (an employer the tagger mistyped) is for the caller to judge."""
    return "@" not in value and not _SPELLED_AT.search(value)


def _month_day_either_way(a: int, b: int) -> bool:
    return (1 <= a <= 12 and 1 <= b <= 31) or (1 <= b <= 12 and 1 <= a <= 31)
