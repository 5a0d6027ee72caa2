"""Months and days listed or ranged together (``Monitoring 3/6, 3/8, 3/10``, ``sessions 4/8 and 4/10``,
``1/10 - 1/15/26``): each is a DATE.

Alone, ``3/10`` reads as a score out of ten and ``3/8`` as a fraction, so the other date rules want a cue;
two or more such values joined by a list's or a range's word are dates when each is a real month and
day and the list is no list of scores or fractions: one has a year, or the days differ and one is six
or more and not ten (``pain 6/10, 7/10``, ``strength 4/5 and 5/5`` and ``1/2 and 3/4`` stay).
"""

from __future__ import annotations

import re

from deid_core.detect.base import Pattern
from schemas import PhiType

_MD = r"(?:1[0-2]|0?[1-9])/(?:[12]\d|3[01]|0?[1-9])(?:/(?:\d{4}|\d{2}))?(?!\d)"
_JOIN = r"[ \t]*(?:,|and|&|-|–|to|through)[ \t]*"
_CHAIN = rf"(?<![\w/.])(?P<c>{_MD}(?:{_JOIN}{_MD})+)(?![\w/]|\.\d)"
_ITEM = re.compile(_MD)


def _a_date_among(text: str, m: re.Match[str]) -> bool:
    """A year in one, or days that differ with one of six or more that is not ten: ``3/6, 3/8, 3/10``;
    not scores out of five or ten (``4/5 and 5/5``, ``3/5 and 6/10``) or fractions (``3/4-4/5``)."""
    parts = [item.split("/") for item in _ITEM.findall(m.group("c"))]
    if any(len(p) == 3 for p in parts):
        return True
    days = {int(p[1]) for p in parts}
    return len(days) > 1 and any(d >= 6 and d != 10 for d in days)


def _first(text: str, m: re.Match[str]) -> tuple[int, int] | None:
    first = _ITEM.match(m.group("c"))
    return None if first is None else (m.start("c"), m.start("c") + first.end())


def _items(text: str, m: re.Match[str]) -> list[tuple[int, int, PhiType]]:
    base = m.start("c")
    return [(base + i.start(), base + i.end(), PhiType.DATE) for i in _ITEM.finditer(m.group("c"))][1:]


def date_list_patterns() -> list[Pattern]:
    return [
        Pattern(
            "date_list",
            _CHAIN,
            PhiType.DATE,
            score=0.75,
            locate=_first,
            flags=0,
            validate=_a_date_among,
            extra_spans=_items,
            gate=("/",),
        ),
    ]
