"""CONTACT and SSN patterns: phone/fax/pager, e-mail, URL, IPv4/IPv6, social security numbers."""

from __future__ import annotations

import ipaddress
import re

from deid_core.detect.base import Pattern
from deid_core.detect.rules.context import digit_start, followed_by_unit, word_start
from schemas import PhiType

_EXT = r"(?:\s*,?\s*(?:x|ext\.?|extension)\s*\d{1,6})?"
_PHONE_CUES = (
    "phone", "ph", "tel", "telephone", "call", "called", "cell", "cellphone", "mobile", "home", "work", "contact",
    "number", "fax", "pager", "beeper", "reached", "at", "office", "daughter", "son", "wife", "husband",
    "phone#", "tel#", "callback", "hotline", "line", "voicemail", "vm",
)
# The last phone-ish cue before a number decides PHONE vs FAX ("Tel ..., Fax ..." has one of each).
_CUE_RE = re.compile(
    r"(?<![A-Za-z])(fax|facsimile|fx|f|phone|ph|tel|telephone|cell|mobile|pager|beeper|call|p|t|c|h|w)"
    r"(?![A-Za-z])",
    re.IGNORECASE,
)
_FAX_CUES = frozenset({"fax", "facsimile", "fx", "f"})


_LAST_DIGIT = re.compile(r"\d(?=\D*$)")


def _phone_or_fax(text: str, m: re.Match[str]) -> PhiType:
    window = text[max(0, m.start() - 30) : m.start()]
    # Cues before an earlier number belong to that number.
    prev = _LAST_DIGIT.search(window)
    if prev is not None:
        window = window[prev.end() :]
    last = None
    for cue in _CUE_RE.finditer(window):
        last = cue.group(1).lower()
    return PhiType.FAX if last in _FAX_CUES else PhiType.PHONE


_AREA_BEFORE = re.compile(r"[\d)][ .\-]?$")


def _valid_local_phone(text: str, m: re.Match[str]) -> bool:
    # "(617) 555-1234" is found whole by phone_nanp; its tail is not a second number.
    if _AREA_BEFORE.search(text, max(0, m.start() - 2), m.start()):
        return False
    return not followed_by_unit(text, m.end())


_SSN_SEP = re.compile(r"[\- ]")


def _valid_ssn(text: str, m: re.Match[str]) -> bool:
    digits = _SSN_SEP.sub("", m.group(0))
    area, group, serial = int(digits[:3]), int(digits[3:5]), int(digits[5:])
    return area != 0 and area != 666 and area < 900 and group != 0 and serial != 0


def _valid_ipv6(text: str, m: re.Match[str]) -> bool:
    cand = m.group(0)
    if cand.count(":") < 2 or not any(c not in ":" for c in cand):
        return False
    if "::" not in cand and cand.count(":") != 7:
        return False
    try:
        ipaddress.IPv6Address(cand)
    except ValueError:
        return False
    return True


_URL_BODY = r"[^\s<>\"'\[\](){}]*[^\s<>\"'\[\](){}.,;:!?]"
_TLDS = ("com", "org", "net", "edu", "gov", "mil", "int", "io", "us", "info", "biz", "health", "care", "uk", "ca",
         "app", "co")
_AREA = r"(?:\([2-9]\d{2}\)[ \t.\-]?|[2-9]\d{2}[ \t.\-])"
# Opens with one character class; which branch applies is decided by looking back at that character.
_PHONE = (
    r"[+(1-9](?<![\w+\-.][+(1-9])"
    rf"(?:(?<=\+)1[ \t.\-]?{_AREA}|(?<=1)[ \t.\-]?{_AREA}|(?<=\()[2-9]\d{{2}}\)[ \t.\-]?|(?<=[2-9])\d{{2}}[ \t.\-])"
    rf"[2-9]\d{{2}}[ \t.\-]\d{{4}}{_EXT}(?!\d)"
)


_D_NOT_WORD_DASH_DOT = digit_start(r"\w\-.")
_D_NOT_WORD_DOT = digit_start(r"\w.")
_D_NOT_WORD_DASH = digit_start(r"\w\-")


_URL_START = word_start(("https?://", "ftp://", r"www\."))
_LOCAL_PART = re.compile(r"[\w.%+\-]{1,64}$")
_DOMAIN_LABELS = re.compile(r"(?<![\w@.\-/])[A-Za-z0-9\-]{1,63}(?:\.[A-Za-z0-9\-]{1,63}){0,8}$")


def _email_span(text: str, m: re.Match[str]) -> tuple[int, int] | None:
    # The regex starts at "@" so the scan is a literal search; the local part is found looking back.
    local = _LOCAL_PART.search(text, max(0, m.start() - 64), m.start())
    return (local.start(), m.end()) if local else None


def _domain_span(text: str, m: re.Match[str]) -> tuple[int, int] | None:
    # The regex starts at ".com"/".org"/...; the labels before it are found looking back. Domains of
    # e-mail addresses and of URLs with a scheme are left to those patterns.
    labels = _DOMAIN_LABELS.search(text, max(0, m.start() - 200), m.start())
    return (labels.start(), m.end()) if labels else None


def _valid_ipv4(text: str, m: re.Match[str]) -> bool:
    parts = m.group(0).split(".")
    return all(int(p) <= 255 and (p == "0" or not p.startswith("0")) for p in parts)


def contact_patterns() -> list[Pattern]:
    return [
        Pattern("phone_nanp", _PHONE, PhiType.PHONE, score=0.9, flags=0, resolve_type=_phone_or_fax),
        Pattern(
            "phone_local",
            rf"{_D_NOT_WORD_DASH_DOT}\d{{2}}-\d{{4}}{_EXT}(?![\w\-])",
            PhiType.PHONE, score=0.75, flags=0, context=_PHONE_CUES, context_required=True, context_window=30,
            validate=_valid_local_phone, resolve_type=_phone_or_fax,
        ),
        Pattern(
            "phone_pager",
            rf"{word_start(('pager', 'beeper', 'pgr', 'beep', 'page', 'pg'))}\b(?i:\.?\s*(?:\#|no\.?|number)?\s*[:\#]?\s*)"
            rf"(?P<num>\d{{3}}-\d{{4}}|\d{{4,7}}){_EXT}(?![\w\-])",
            PhiType.PHONE, score=0.85, group="num", flags=0,
        ),
        Pattern(
            "phone_extension",
            rf"{word_start(('extension', 'ext'))}\b\.?\s*(?:\#\s*)?(?P<num>\d{{3,6}})(?![\w\-])",
            PhiType.PHONE, score=0.7, group="num", flags=0,
        ),
        Pattern(
            "email",
            r"@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,24}\b",
            PhiType.EMAIL, score=0.95, flags=0, locate=_email_span,
        ),
        Pattern(
            "url_scheme",
            rf"{_URL_START}{_URL_BODY}",
            PhiType.URL, score=0.95, flags=0, gate=("http", "ftp", "www."),
        ),
        Pattern(
            "url_bare_domain",
            rf"\.(?i:{'|'.join(_TLDS)})\b(?![@\-]|\.\w)(?:/{_URL_BODY})?",
            PhiType.URL, score=0.8, flags=0, locate=_domain_span, gate=tuple(f".{t}" for t in _TLDS),
        ),
        Pattern(
            "ipv4",
            rf"{_D_NOT_WORD_DOT}\d{{0,2}}(?:\.\d{{1,3}}){{3}}(?!\w|\.\d)",
            PhiType.IPADDR, score=0.9, flags=0, validate=_valid_ipv4,
        ),
        Pattern(
            "ipv6",
            r"[0-9A-Fa-f:](?<![\w:][0-9A-Fa-f:])(?=[0-9A-Fa-f]{0,4}:)[0-9A-Fa-f:]{1,38}(?![\w:]|\.\w)",
            PhiType.IPADDR, score=0.9, flags=0, validate=_valid_ipv6, gate=(":",),
        ),
        Pattern(
            "ssn",
            rf"{_D_NOT_WORD_DASH}\d{{2}}(?P<sep>[\- ])\d{{2}}(?P=sep)\d{{4}}(?![\w\-])",
            PhiType.SSN, score=0.9, flags=0, validate=_valid_ssn,
        ),
        Pattern(
            "ssn_nine_digits",
            rf"{_D_NOT_WORD_DASH}\d{{8}}(?![\w\-])",
            PhiType.SSN, score=0.8, flags=0, validate=_valid_ssn,
            context=("ssn", "ss#", "ss", "social security", "soc sec", "social", "ss no", "ssn#"),
            context_required=True, context_window=30,
        ),
    ]
