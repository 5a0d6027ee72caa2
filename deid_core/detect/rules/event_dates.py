"""Dates named by the event before them rather than a date word: ``Recheck 12/10``, ``fall 5/3``, ``the
morning of 3/3``, ``2/4/2025 into 2/5``, and a year after a vaccine or a screening test (``Tdap 2019``).

``date_partial_md`` (rules/dates.py) takes a short month/day only after a date cue; these cues are events
(event_dates.yaml). Same guards as there: a real month and day, no unit or measure word after it
(``fall 1/3 of the time``), no score or measure cue before it.
"""

from __future__ import annotations

import re
from functools import cache

from deid_core.detect.base import Pattern
from deid_core.detect.rules.context import followed_by_unit, next_word, phrase_start, preceded_by
from deid_core.detect.rules.dates import NOT_DATE_AFTER, NOT_DATE_BEFORE, plausible_md
from deid_core.lexicon import load_lexicons
from schemas import PhiType

_MD = r"(?P<date>(?P<m>\d{1,2})/(?P<d>\d{1,2}))(?![\w/]|[.\-]\d)"


@cache
def _cue_start(key: str) -> str:
    return phrase_start(load_lexicons().cues[key])


def _month_day(text: str, m: re.Match[str]) -> bool:
    if not plausible_md(int(m["m"]), int(m["d"])):
        return False
    if followed_by_unit(text, m.end()) or next_word(text, m.end()) in NOT_DATE_AFTER:
        return False
    return not preceded_by(text, m.start(), NOT_DATE_BEFORE, hops=0)


def _a_year(text: str, m: re.Match[str]) -> bool:
    return not followed_by_unit(text, m.end())


def event_date_patterns() -> list[Pattern]:
    d = PhiType.DATE
    return [
        Pattern(
            "date_md_after_event",
            rf"{_cue_start('event_date_cues')}[ \t]*(?::[ \t]*)?{_MD}",
            d, score=0.7, group="date", flags=0, validate=_month_day, gate=("/",),
        ),
        # The night of one date into the next ("overnight 2/4/2025 into 2/5").
        Pattern(
            "date_md_into",
            rf"(?<![\w/])\d{{1,2}}/\d{{1,2}}(?:/\d{{2,4}})?[ \t]+into[ \t]+{_MD}",
            d, score=0.7, group="date", flags=0, validate=_month_day, gate=("into",),
        ),
        Pattern(
            "date_year_after_event",
            rf"{_cue_start('event_year_cues')}[ \t]+(?P<y>(?:19|20)\d\d)(?![\w/]|[.\-/]\d)",
            d, score=0.7, group="y", flags=0, validate=_a_year,
        ),
    ]
