"""Reading an age written in digits or words ("72", "seventy-two", "93yo", "90s").

Shared by the AGE rules (which find ages) and the age surrogate (which generalises those of 90 and
over), so neither imports the other.
"""

from __future__ import annotations

import re

UNITS_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
}
TEENS_WORDS = {
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19,
}
TENS_WORDS = {
    "twenty": 20, "thirty": 30, "forty": 40, "fourty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
    "eighty": 80, "ninety": 90,
}
DECADE_WORDS = {
    "twenties": 20, "thirties": 30, "forties": 40, "fifties": 50, "sixties": 60, "seventies": 70,
    "eighties": 80, "nineties": 90,
}

_DIGITS = re.compile(r"\d+")
_WORDS = re.compile(r"[a-z]+")


def age_value(span_text: str) -> int | None:
    """The numeric age in an AGE span's text ("72", "72-year-old", "seventy-two", "93yo", "90s")."""
    low = span_text.lower()
    digits = _DIGITS.search(low)
    if digits:
        return int(digits.group())
    total = 0
    seen = False
    for word in _WORDS.findall(low):
        if word in UNITS_WORDS:
            total += UNITS_WORDS[word]
        elif word in TEENS_WORDS:
            total += TEENS_WORDS[word]
        elif word in TENS_WORDS:
            total += TENS_WORDS[word]
        elif word in DECADE_WORDS:
            total += DECADE_WORDS[word]
        elif word == "hundred":
            total = max(total, 1) * 100
        elif word == "and" and seen:
            continue
        elif seen:
            break
        else:
            continue
        seen = True
    return total if seen else None
