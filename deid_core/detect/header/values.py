"""Identifiers, phones, the birth date, the address and e-mails: the spellings a note may use for them.

Numbers are looked up in the note without separators (identifiers, phones, ZIP codes) or as whole digit
runs (dates), and must not continue into a longer number, including across one ``-``, ``.`` or ``/``.
Dates are searched only as full dates (with the year): a day and month alone are too common.
"""

from __future__ import annotations

import datetime as dt
import re
from functools import lru_cache, partial

from deid_core.detect.header.variant import (
    ANYWHERE,
    SPACES,
    WORD_AFTER,
    WORD_BEFORE,
    Guard,
    Part,
    Variant,
    fold,
    is_weak,
    joined,
    title,
    token_parts,
)
from deid_core.detect.header.words import MONTHS, US_ALIASES, street_words, us_states
from schemas import Address, PhiType

_NUM_BEFORE: Guard = re.compile(r"(?<!\d)(?<!\d[-./])").match
_NUM_AFTER: Guard = re.compile(r"(?!\d)(?![-./]\d)").match
_NO_DIGIT_BEFORE: Guard = re.compile(r"(?<!\d)").match
_NO_DIGIT_AFTER: Guard = re.compile(r"(?!\d)").match
_SEPARATORS = re.compile(r"[\s\-./#]")
_NON_DIGIT = re.compile(r"\D")


def strip_separators(value: str) -> str:
    return _SEPARATORS.sub("", value)


def digits_of(value: str) -> str:
    return _NON_DIGIT.sub("", value)


# --- identifiers ---------------------------------------------------------------------------------------

_ID_GAP = re.compile(r"[\s\-./]?")
_ID_AFTER_LETTER: Guard = re.compile(r"(?![A-Za-z0-9])", re.IGNORECASE).match


def identifier_variants(core: str, type_: PhiType, field_: str) -> list[Variant]:
    """One separator (space, ``-``, ``.``, ``/``) or none between any two characters, any case. A
    trailing digit may touch letters ("MC#0937884Date"); a trailing letter may not."""
    folded, digits = fold(core), digits_of(core)
    before = _NUM_BEFORE if core[0].isdigit() else WORD_BEFORE
    after = _NUM_AFTER if core[-1].isdigit() else _ID_AFTER_LETTER
    variant = partial(Variant, joined(((c,) for c in folded), _ID_GAP), type_, f"header={field_}", len(core))
    if not digits:
        return [variant(before, after, lookup="ids", key=folded)]
    # Found by its digits, together in the note's digits wherever it occurs; each letter before them may
    # have a separator after it.
    lead = 2 * next(k for k, c in enumerate(core) if c.isdecimal())
    return [variant(before, after, lookup="digits", key=digits, lead=lead)]


# --- phones ------------------------------------------------------------------------------------------

_EXTENSION = re.compile(r"(?i)\s*(?:x|ext\.?|extension)\s*\d+\s*$")
_PHONE_HEAD = re.compile(r"(?:\+?1[\s\-.]?)?\(?")
_AREA_GAP = re.compile(r"\)?[\s\-.]*")
_PHONE_SEP = re.compile(r"[\s\-.]?")
_FULL_BEFORE: Guard = re.compile(r"(?<![\d+])").match
_LOCAL_BEFORE: Guard = re.compile(r"(?<!\d)(?<!\d[\s\-.])(?<!\d\))(?<!\d\)\s)").match  # no area code before
_PLUS = re.compile(r"\+?")
_DIGIT_GAP = re.compile(r"[\s\-.()]{0,2}")


def phone_digits(phone: str) -> str:
    digits = _NON_DIGIT.sub("", _EXTENSION.split(phone.strip())[0])
    return digits[1:] if len(digits) == 11 and digits[0] == "1" else digits


def phone_variants(digits: str) -> list[Variant]:
    phone = partial(
        Variant, type=PhiType.PHONE, explanation="header=phones", after=_NUM_AFTER, lookup="digits"
    )
    if len(digits) == 10:  # "(617) 555-1234", "+1-617-555-1234", "16175551234"; "555-1234"
        area, exch, line = (Part((digits[:3],), False, _AREA_GAP), Part((digits[3:6],), False, _PHONE_SEP),
                            Part((digits[6:],)))  # fmt: skip
        return [
            phone((area, exch, line), weight=10, before=_FULL_BEFORE, head=_PHONE_HEAD, key=digits),
            phone((exch, line), weight=7, before=_LOCAL_BEFORE, key=digits[3:]),
        ]
    if len(digits) >= 5:
        parts = joined(((c,) for c in digits), _DIGIT_GAP)
        return [phone(parts, weight=len(digits), before=_NO_DIGIT_BEFORE, head=_PLUS, key=digits)]
    return []


# --- dates -------------------------------------------------------------------------------------------

_DATE_SEP = re.compile(r"[/\-.]")
_AFTER_MONTH = re.compile(r"\.?[-\s]*")  # "Mar. 5", "March 5", "Mar-5"
_BEFORE_YEAR = re.compile(r"(?:st|nd|rd|th)?(?:\s*,\s*|[-\s]+)")  # "5th, 1950", "5 1950"
_DAY_BEFORE_MONTH = re.compile(r"(?:st|nd|rd|th)?(?:\s+of)?[\s\-/]*")  # "5th of March", "05-MAR"
_MONTH_BEFORE_YEAR = re.compile(r"\.?,?[\s\-/]*")


def _number(n: int) -> tuple[str, ...]:
    """5 -> "05" or "5" (the longer first); 12 -> "12"."""
    return (f"0{n}", str(n)) if n < 10 else (str(n),)


def date_triggers(date: dt.date) -> tuple[str, ...]:
    """Digit runs one of which every match of ``date_variants(date)`` has whole: its year in four digits or
    two, or the eight digits written together (every variant's year, or all of it, has a non-digit or
    nothing on each side)."""
    y4, mmdd = f"{date.year:04d}", f"{date.month:02d}{date.day:02d}"
    return y4, y4[-2:], y4 + mmdd, mmdd + y4


def month_names(month: int) -> tuple[str, ...]:
    """The month's names, longest first: what a worded date starts with (folded)."""
    name = MONTHS[month - 1]
    return tuple(sorted({name, name[:3]} | ({"sept"} if month == 9 else set()), key=len, reverse=True))


@lru_cache(maxsize=4096)
def date_variants(date: dt.date, field_: str) -> tuple[Variant, ...]:
    y4, y2 = f"{date.year:04d}", f"{date.year % 100:02d}"
    m, d, mmdd = _number(date.month), _number(date.day), f"{date.month:02d}{date.day:02d}"
    months = month_names(date.month)
    date_ = partial(Variant, type=PhiType.DATE, explanation=f"header={field_}", after=_NUM_AFTER)
    numeric = partial(date_, before=_NUM_BEFORE, lookup="runs")
    out = [
        numeric(joined((m, d, (y4, y2)), _DATE_SEP), weight=10),  # 03/05/1950, 3/5/50, 3-5-1950, 03.05.1950
        numeric(joined(((y4,), m, d), _DATE_SEP), weight=10),  # 1950-03-05
        numeric((Part((y4 + mmdd, mmdd + y4)),), weight=8),  # 19500305
    ]
    if date.day != date.month:  # 05/03/1950, day first
        out.append(numeric(joined((d, m, (y4,)), _DATE_SEP), weight=10))
    worded = (Part(months, False, _AFTER_MONTH), Part(d, False, _BEFORE_YEAR), Part((y4, "'" + y2)))
    day_first = (Part(d, False, _DAY_BEFORE_MONTH), Part(months, False, _MONTH_BEFORE_YEAR), Part((y4, y2)))
    out.append(date_(worded, weight=14, after=_NO_DIGIT_AFTER))  # March 5th, 1950
    out.append(numeric(day_first, weight=14, after=_NO_DIGIT_AFTER))  # 5-Mar-1950
    return tuple(out)


# --- address -----------------------------------------------------------------------------------------

_STREET_SEP = re.compile(r"\.?[\s,]+")
_STREET_SPLIT = re.compile(r"[\s,]+")
_AFTER_COMMA: Guard = re.compile(r"(?<=,)|(?<=, )").match
_ZIP_FOLLOWS: Guard = re.compile(r"(?=\s+\d{5}(?!\d))").match
_ZIP_SEP = re.compile(r"[-\s]?")
_ZIP4 = re.compile(r"-\d{4}")


def address_variants(addr: Address) -> list[Variant]:
    return [*street_variants(addr), *place_variants(addr), *zip_variants(addr), *country_variants(addr)]


def _street_lines(addr: Address) -> list[tuple[tuple[tuple[str, ...], ...], int]]:
    """Each street line and, with a house number, the line without it ("Oak Street" too): its tokens as
    their spellings (folded), and its weight."""
    out = []
    for line in addr.street:
        tokens = [t for t in _STREET_SPLIT.split(line) if t.strip(".")]
        without_number = len(tokens) >= 3 and any(c.isdigit() for c in tokens[0])
        for toks in (tokens, tokens[1:]) if without_number else (tokens,):
            if toks:
                alts = tuple(street_words().get(t.lower().strip(".")) or (fold(t.strip(".")),) for t in toks)
                out.append((alts, len(" ".join(toks))))
    return out


def street_variants(addr: Address) -> list[Variant]:
    return [
        Variant(joined(alts, _STREET_SEP), PhiType.STREET, "header=address.street", weight)
        for alts, weight in _street_lines(addr)
    ]


def street_triggers(addr: Address) -> dict[str, bool]:
    """The spellings of the street variants' first tokens, one of which every match starts a word with."""
    return {alt: False for alts, _ in _street_lines(addr) for alt in alts[0]}


def place_variants(addr: Address) -> list[Variant]:
    """The city, then the state."""
    out: list[Variant] = []
    words = [w for w in (t.strip(".,;-'’") for t in (addr.city or "").split()) if w]
    weak = len(words) == 1 and is_weak(words[0])
    if words and len(" ".join(words)) > 1:
        parts = (
            *(p for w in words[:-1] for p in token_parts(w, weak, SPACES)),
            *token_parts(words[-1], weak),
        )
        out.append(Variant(parts, PhiType.CITY, "header=address.city", len(" ".join(words))))
    if addr.state:
        out += _state_variants(addr.state.strip(), tuple(words), weak)
    return out


def zip_variants(addr: Address) -> list[Variant]:
    out: list[Variant] = []
    digits = _NON_DIGIT.sub("", addr.zip or "")
    zip_ = partial(Variant, type=PhiType.ZIP, explanation="header=address.zip", lookup="digits")
    zip_ = partial(zip_, before=_NO_DIGIT_BEFORE, after=_NO_DIGIT_AFTER)
    if len(digits) == 9:
        out.append(zip_(joined(((digits[:5],), (digits[5:],)), _ZIP_SEP), weight=9, key=digits))
    if len(digits) >= 5:
        out.append(zip_((Part((digits[:5],)),), weight=5, tail=_ZIP4, key=digits[:5]))
    return out


def zip_trigger(addr: Address) -> str | None:
    """Five digits every ZIP match has together in the note's digits; None: no ZIP is searched."""
    digits = _NON_DIGIT.sub("", addr.zip or "")
    return digits[:5] if len(digits) >= 5 else None


def country_variants(addr: Address) -> tuple[Variant, ...]:
    return _country_variants(addr.country.strip()) if addr.country and len(addr.country) > 1 else ()


@lru_cache(maxsize=256)
def _country_variants(country: str) -> tuple[Variant, ...]:
    out = []
    for name in US_ALIASES if country.lower() in US_ALIASES or country.upper() == "US" else (country,):
        exact = len(name.replace(".", "")) <= 3  # "US", "U.S.A.": upper-case only
        parts = joined(((w.upper() if exact else fold(w),) for w in name.split()), SPACES, exact)
        if parts:
            after = WORD_AFTER if name[-1].isalnum() else ANYWHERE
            out.append(Variant(parts, PhiType.COUNTRY, "header=address.country", len(name), after=after))
    return tuple(out)


@lru_cache(maxsize=1024)
def _state_variants(state: str, city_words: tuple[str, ...], city_weak: bool) -> tuple[Variant, ...]:
    """The state's name, and its two-letter code, upper-case, only where an address puts it: after the
    city, or after a comma with a ZIP following. ``CAD, MI`` is not Michigan."""
    states = us_states()
    code = (
        state.upper()
        if len(state) == 2 and state.isalpha()
        else {n: c for c, n in states.items()}.get(state.lower())
    )
    full = states.get(code, state) if code else state
    state_ = partial(Variant, type=PhiType.STATE, explanation="header=address.state")
    out = (
        [state_(joined(((fold(w),) for w in full.split()), SPACES), weight=len(full))]
        if len(full) > 2
        else []
    )
    if code:
        if len(city_words) == 1 and "-" not in city_words[0]:
            city = (title if city_weak else fold)(city_words[0]).replace("’", "'")
            out.append(state_((Part((code,), True),), weight=2, before=partial(_after_city, city, city_weak)))
        out.append(state_((Part((code,), True),), weight=2, before=_AFTER_COMMA, after=_ZIP_FOLLOWS))
    return tuple(out)


def _after_city(city: str, exact: bool, text: str, pos: int) -> bool:
    """Where a state code follows the header's one-word city: "Boston MA", "Boston, MA"."""
    for sep in (" ", ", ", ","):
        start = pos - len(city) - len(sep)
        if start >= 0 and text.endswith(sep, 0, pos):
            seen = text[start : pos - len(sep)]
            if (seen if exact else fold(seen)).replace("’", "'") == city:
                return True
    return False


_EMAIL_BEFORE: Guard = re.compile(r"(?<![\w.+\-])").match
_EMAIL_AFTER: Guard = re.compile(r"(?![\w\-])(?!\.\w)").match


def email_variants(email: str) -> list[Variant]:
    parts = (Part((fold(email.strip()),)),)
    return [Variant(parts, PhiType.EMAIL, "header=emails", len(email), _EMAIL_BEFORE, _EMAIL_AFTER)]
