"""Numbers the tagger reads as dates that cannot be one: ``24/7`` (around the clock), a vaccine schedule
in days (``0/7/21 days``), a range of hours after a frequency word (``visits daily 8-10``). Used by
``deid_core.hygiene`` on tagger-only DATE spans.
"""

from __future__ import annotations

import re

from deid_core.detect.rules.context import last_word, next_word

_ROUND_THE_CLOCK = re.compile(r"24/7(?:/365)?|24x7")
# Day numbers of a schedule: three short numbers, the first of them day 0 or a "days" after them.
_SCHEDULE = re.compile(r"\d{1,2}/\d{1,2}/\d{1,2}(?:/\d{1,2})*")
_SMALL_RANGE = re.compile(r"\d{1,2}-\d{1,2}")
_DAYS = frozenset({"d", "day", "days"})


def not_a_date(text: str, start: int, end: int, hour_cues: frozenset[str]) -> bool:
    value = text[start:end]
    if _ROUND_THE_CLOCK.fullmatch(value):
        return True
    if _SCHEDULE.fullmatch(value) and (value.startswith("0/") or next_word(text, end) in _DAYS):
        return True  # "accelerated 0/7/21 days": a vaccine schedule
    return bool(_SMALL_RANGE.fullmatch(value)) and last_word(text, start) in hour_cues  # "daily 8-10"
