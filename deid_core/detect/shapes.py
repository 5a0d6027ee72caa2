"""What a value of a type can look like at all: the checks span hygiene applies to the tagger's guesses.

The tagger learns shapes from the synthetic corpus and, on text unlike it, tags words that no value of
the type could be: "practice" as a user name, "another 2 lb" as a vehicle id, "Set 2" as a date, a
credential ("PharmD") as a state. Each check here states a property every value of the type has (in the
annotation guideline, in the corpus, and in the rules' own patterns), so it removes only what cannot be
PHI of that type. A value that fails is dropped only when the tagger alone found it; validated detectors
(header, rules, lexicon) are never second-guessed.

Checks by type:

* USERNAME: not only ordinary words or short capitals: a user name has a digit, ``_``, ``.`` or ``@``,
  or at least one letter run that is not an ordinary English word (``jsmith``, ``cindylee``).
* VEHICLE (plates, VINs): letters and digits (both), spaces and hyphens only, and no letter run in lower
  or title case that is an ordinary word (``another 2 lb``); or 6+ digits.
* URL: no whitespace, and a dot or ``://``.
* STATE: a US state's code or name, or the first four or more letters of a name (``Mass``, ``Calif``).
* DATE: a numeric date, a year, an ordinal day, or a month, weekday, season or holiday word.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from deid_core.lexicon import Lexicons
from schemas import PhiType

ShapeCheck = Callable[[str, Lexicons], bool]
"""``check(value, lexicons) -> could be a value of the type``."""

_LETTER_RUN = re.compile(r"[^\W\d_]+")
_PLATE_OR_VIN = re.compile(r"(?=.*\d)(?=.*[A-Za-z])[A-Za-z0-9][A-Za-z0-9 \-]*[A-Za-z0-9]")
_LONG_DIGITS = re.compile(r"\d{6,}")
_NUMERIC_DATE = re.compile(
    r"(?<!\d)(?:\d{1,2}[/\-]\d{1,2}(?:[/\-]\d{2,4})?|\d{1,2}\.\d{1,2}\.\d{2,4}|\d{4}[/.\-]\d{1,2}(?:[/.\-]\d{1,2})?|(?:19|20)\d{2}"
    r"|\d{1,2}(?:st|nd|rd|th)|['’]\d{2}|\d{8})(?!\d)",
    re.IGNORECASE,
)
_DATE_WORDS = frozenset(
    (
        "jan january feb february mar march apr april may jun june jul july aug august sep sept september oct "
        "october nov november dec december monday tuesday wednesday thursday friday saturday sunday mon tue tues "
        "wed thu thur thurs fri sat sun spring summer fall autumn winter christmas xmas thanksgiving easter "
        "halloween hanukkah chanukah passover ramadan diwali kwanzaa juneteenth kippur hashanah year eve "
        "valentine valentines memorial labor labour independence veterans columbus presidents mlk patrick boxing "
        "mother father"
    ).split()
)
_ABBREVIATION_MAX = 5


def _username(value: str, lex: Lexicons) -> bool:
    if any(c.isdigit() or c in "_.@" for c in value):
        return True
    return any(not (lex.is_word(w.lower()) or (w.isupper() and len(w) <= _ABBREVIATION_MAX)) for w in _LETTER_RUN.findall(value))


def _vehicle(value: str, lex: Lexicons) -> bool:
    if _PLATE_OR_VIN.fullmatch(value):
        return not any(not w.isupper() and len(w) >= 3 and lex.is_word(w) for w in _LETTER_RUN.findall(value))
    return _LONG_DIGITS.search(value) is not None


def _url(value: str, lex: Lexicons) -> bool:
    return not any(c.isspace() for c in value) and ("." in value or "://" in value)


def _state(value: str, lex: Lexicons) -> bool:
    key = " ".join(value.replace(".", " ").split()).lower()
    if key.upper() in lex.us_states or key in lex.us_states.values():
        return True
    return len(key) >= 4 and any(name.startswith(key) for name in lex.us_states.values())


def _date(value: str, lex: Lexicons) -> bool:
    if _NUMERIC_DATE.search(value):
        return True
    return any(w.lower().removesuffix("s") in _DATE_WORDS or w.lower() in _DATE_WORDS for w in _LETTER_RUN.findall(value))


TYPE_SHAPES: Mapping[PhiType, ShapeCheck] = {
    PhiType.USERNAME: _username,
    PhiType.VEHICLE: _vehicle,
    PhiType.URL: _url,
    PhiType.STATE: _state,
    PhiType.DATE: _date,
}


def possible_value(type_: PhiType, value: str, lex: Lexicons) -> bool:
    """False only where ``value`` cannot be a value of ``type_`` (types without a check: always True)."""
    check = TYPE_SHAPES.get(type_)
    return check is None or check(value, lex)
