"""Ages: generalise ages at or above the cap (HIPAA Safe Harbor: "90 or older"); keep the rest.

Ages under 90 are not HIPAA identifiers, so they are kept: changing them would corrupt clinical
meaning for no privacy gain. An age at or over the cap has its number (digits or words, such as
``93`` or ``ninety-three``) replaced by the cap text and the rest of the mention kept:
``93 yo`` -> ``90+ yo``, ``ninety-three`` -> ``90+``; a hyphen right after the number becomes a space
so that ``93-year-old`` reads ``90+ year-old``, and a decade ``90s`` becomes ``90+``. A mention whose value cannot be read is kept.
"""

from __future__ import annotations

import re

from deid_core.agewords import age_value

_UNITS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
}  # fmt: skip
_TENS = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_WORD = "|".join(sorted([*_UNITS, *_TENS, "hundred"], key=len, reverse=True))
_NUMBER_RE = re.compile(
    rf"\d+(?:\.\d+)?|(?:(?:{_WORD})(?:[\s-]+(?:and[\s-]+)?(?=(?:{_WORD})\b))?)+\b", re.IGNORECASE
)


def age_surrogate(original: str, cap: int, cap_text: str) -> str:
    value = age_value(original)
    if value is None or value < cap:
        return original
    m = _NUMBER_RE.search(original)
    if m is None:
        return cap_text
    rest = original[m.end() :]
    decade = re.match(r"'?s(?![A-Za-z])", rest)
    if decade:  # "90s" means 90-99: "90+" says it all
        rest = rest[decade.end() :]
    elif rest.startswith("-") and rest[1:2].isalpha():
        rest = " " + rest[1:]
    return original[: m.start()] + cap_text + rest
