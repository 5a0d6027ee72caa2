"""Values that a table's column header types: a month and day under ``| date |`` (``| 3/2 |``), a
number of years under ``| age |`` (``| 9 |``, ``| 88 F |``), a bed, chair or room code under ``| bed |``
or ``| chair |`` (``| C14 |``, ``| ED 7 |``, ``| ISO-2 |``).

Alone, ``3/2`` may be a ratio or a score and ``C14`` a vertebra or a lab code, so the other rules want
a cue word before them; a column's header is that cue for every cell under it. A date cell is a
numeric month/day (a year perhaps) that opens the cell; a room cell is a code of letters and digits
or digits alone, opening the cell or after one short word (``ED 7``, ``hall 2``: the code alone is the
room). Header words are data (``staff_marks.yaml``: ``date_columns``, ``age_columns``, ``room_columns``).

Tables are read by ``deid_core.detect.tables``.
"""

from __future__ import annotations

import re

from deid_core.detect.base import Pattern
from deid_core.detect.tables import header_of
from deid_core.lexicon import load_lexicons
from schemas import PhiType

_SCORE = 0.8
_DATE_CELL = r"(?m)(?:(?<=\|)|^)[ \t]*(?P<d>(?:0?[1-9]|1[0-2])/(?:0?[1-9]|[12]\d|3[01])(?:/(?:\d{4}|\d{2}))?)(?=[ \t]*(?:\||$)|[ \t]+\()"
# An age: a number of years, a sex letter after it perhaps ("| 88 F |", "| 9 |").
_AGE_CELL = r"(?m)(?:(?<=\|)|^)[ \t]*(?P<a>\d{1,3})(?=[ \t]*(?:[MFmf](?![A-Za-z]))?[ \t]*(?:\||$))"
_ROOM_CELL = (
    r"(?m)(?:(?<=\|)|^)[ \t]*(?:[A-Za-z]{2,5}[ \t]+)?(?P<r>[A-Z]{0,4}-?\d{1,4}[A-Z]?)(?=[ \t]*(?:\||$))"
)


def _under(key: str):  # noqa: ANN202 - a validator factory
    def check(text: str, m: re.Match[str]) -> bool:
        found = header_of(text, m.start(m.lastgroup or 0))
        return found is not None and not found[1] and found[0] in load_lexicons().cues[key]

    return check


def typed_column_patterns() -> list[Pattern]:
    return [
        Pattern("date_column", _DATE_CELL, PhiType.DATE, score=_SCORE, group="d", flags=0,
                validate=_under("date_columns"), gate=("|",)),
        Pattern("age_column", _AGE_CELL, PhiType.AGE, score=_SCORE, group="a", flags=0,
                validate=_under("age_columns"), gate=("|",)),
        Pattern("room_column", _ROOM_CELL, PhiType.ROOM, score=_SCORE, group="r", flags=0,
                validate=_under("room_columns"), gate=("|",)),
    ]
