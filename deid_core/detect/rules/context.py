"""Context helpers shared by the rule validators: which words sit right before or after a match.

Look-behind and look-ahead are done on small bounded windows so validators stay O(1) per match
whatever the note length.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_WINDOW = 48

# The last word of a window, followed only by punctuation/spaces (no digits: a number in between
# means the word belongs to another value, as in "BP 120/80 on 3/14").
_LAST_WORD = re.compile(r"([A-Za-z][A-Za-z0-9']*)[\s:=#.,()\[\]'-]*$")
# Units follow their number directly ("2000 mg", "5tabs"); punctuation in between ends the value.
_NEXT_WORD = re.compile(r"[ \t]*([A-Za-z%/][A-Za-z0-9%/]*)")

# Words that may sit between a cue and its value ("Apgars of 8/9", "pain was 7/10", "score: 3").
_FILLERS = frozenset({"of", "was", "were", "is", "are", "at", "a", "an", "the", "score", "scores", "scale", "now"})

UNITS = frozenset(
    {
        "mg", "mcg", "ug", "g", "gm", "gram", "grams", "kg", "lb", "lbs", "ml", "cc", "l", "dl", "lpm",
        "unit", "units", "u", "iu", "meq", "mmol", "mol", "tab", "tabs", "tablet", "tablets", "cap", "caps",
        "capsule", "capsules", "puff", "puffs", "drop", "drops", "gtt", "gtts", "%", "mmhg", "bpm", "cells",
        "patients", "pts", "people", "persons", "cases", "women", "men", "kcal", "calories", "steps", "ft",
        "feet", "cm", "mm", "m", "km", "miles", "inches", "hours", "hour", "hrs", "hr", "h", "minutes",
        "minute", "min", "mins", "seconds", "sec", "days", "day", "weeks", "week", "wks", "wk", "months",
        "month", "mos", "mo", "years", "yrs", "times", "x", "dilution", "copies", "ng", "pg", "ng/ml", "mg/dl",
        "mg/kg", "ml/hr", "l/min", "tablespoon", "teaspoon", "tsp", "tbsp", "oz", "packs", "pack", "beers",
        "drinks", "cigarettes", "doses", "dose", "sprays", "vials", "bottles", "meters",
    }
)


def last_word(text: str, start: int) -> str:
    """The word ending just before ``start`` (only punctuation in between), lower-cased, or ""."""
    m = _LAST_WORD.search(text, max(0, start - _WINDOW), start)
    return m.group(1).lower() if m else ""


def preceded_by(text: str, start: int, words: frozenset[str], hops: int = 2) -> bool:
    """True if the word before ``start`` (skipping up to ``hops`` filler words) is one of ``words``."""
    end = start
    lo = max(0, start - _WINDOW)
    for _ in range(hops + 1):
        m = _LAST_WORD.search(text, lo, end)
        if m is None:
            return False
        word = m.group(1).lower()
        if word in words:
            return True
        if word not in _FILLERS:
            return False
        end = m.start()
    return False


def next_word(text: str, end: int) -> str:
    """The word (or unit like ``mg/kg``, ``%``) right after ``end``, lower-cased, or ""."""
    m = _NEXT_WORD.match(text, end, min(len(text), end + _WINDOW))
    return m.group(1).lower() if m else ""


def followed_by_unit(text: str, end: int) -> bool:
    """True if a dose/measure/count unit follows ``end`` ("2012 mg", "5 tabs", "3 days")."""
    word = next_word(text, end)
    if not word:
        return False
    return word in UNITS or word.split("/")[0] in UNITS


def phrase_alternatives(phrases: frozenset[str]) -> str:
    """A regex alternation of cue ``phrases`` (literal, longest first so a longer phrase wins), each space
    matching a run of spaces or tabs ("the morning of", "co-sign")."""
    return "|".join(_phrase_regexes(phrases))


def phrase_start(phrases: frozenset[str], not_before: str = r"\w\-") -> str:
    """``(?<![not_before])(?i:phrase_alternatives(phrases))`` spelled as ``letter_start`` spells it, so a
    scan skips to candidate letters. Every phrase must open with an ASCII letter."""
    return letter_start(_phrase_regexes(phrases), not_before)


def _phrase_regexes(phrases: frozenset[str]) -> list[str]:
    return [re.escape(p).replace(r"\ ", r"[ \t]+") for p in sorted(phrases, key=len, reverse=True)]


def word_start(words: list[str] | tuple[str, ...]) -> str:
    """A regex fragment matching any of ``words`` case-insensitively, at the start of a word (after no
    ASCII letter, digit or underscore); longer words first. See ``letter_start``."""
    return letter_start(sorted(words, key=len, reverse=True))


def letter_start(branches: Sequence[str], not_before: str = "A-Za-z0-9_") -> str:
    """``(?<![not_before])(?i:b1|b2|...)``: the first of ``branches`` that matches, case-insensitively,
    where no character of the class ``not_before`` precedes.

    Each branch is a regex without a top-level ``|`` whose first character is a literal ASCII letter. The
    fragment opens with a plain character class (the first letters in both cases) and checks what
    precedes *after* that letter: a leading ``\\b``, look-behind or IGNORECASE literal would stop ``re``
    from skipping straight to candidate positions, which is most of the cost of a scan. Branches are
    grouped by first letter in their given order; only one letter can match at a position, so the
    alternation's order of trial is kept.
    """
    by_first: dict[str, list[str]] = {}
    for branch in branches:
        first = branch[0].lower()
        if not first.isascii() or not first.isalpha():
            raise ValueError(f"letter_start needs a leading letter, got {branch!r}")
        by_first.setdefault(first, []).append(branch[1:])
    cls = "".join(c + c.upper() for c in sorted(by_first))
    alternatives = "|".join(f"(?<={c})(?:{'|'.join(rests)})" for c, rests in sorted(by_first.items()))
    return f"[{cls}](?<![{not_before}][{cls}])(?i:{alternatives})"


def digit_start(not_before: str) -> str:
    """A regex fragment for one digit not preceded by a character of class ``not_before`` (e.g. ``\\w/.``).

    Same idea as ``word_start``: the boundary is checked after the digit so the regex opens with ``\\d``.
    """
    return rf"\d(?<![{not_before}]\d)"
