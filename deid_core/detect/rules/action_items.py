"""The owners of action items: initials opening the items of a list of tasks (``ACTION ITEMS`` then
``- RP: schedule the visit``; ``1. SA - start budesonide``, ``2. MY - new spacer``).

A list's items are the lines of one block (lines between blank lines) that open with a bullet or a
number; an owned item has two or three capitals next, then a colon or a spaced dash. Whether their
capitals are people is decided for the whole list, because one item alone cannot say (``1. DC - respite
options`` beside ``1. DC - discharge Friday``): capitals that are no unit, credential or clinical
abbreviation (``capital_initials``) are persons' initials, and a numbered list where they are at least
half of the items is a list of owners, so its items' other capitals are initials too (``SA``, ``DC``).

* Under an action heading (``ACTION ITEMS``, ``Follow-up items:``, ``FOLLOW-UP / ACTIONS``), the heading
  right above the items, persons' initials own items, and so do a degree's letters (``1. BA - call``).
* Without a heading, numbered items with a spaced dash only (``1. SA - start``), at least two of them
  persons' initials: a problem list's items are clinical abbreviations (``1. DM - start metformin``,
  ``2. HTN - continue``) and a vitals list has colons (``- BP: 120/80``).

A discipline owning an item is no person (``2. PT - gait training``, ``SW``, ``RN``; ``discipline_roles``).
Typed DOCTOR (staff own a care plan's tasks).
"""

from __future__ import annotations

import re
from functools import lru_cache

from deid_core.detect.base import Pattern
from deid_core.detect.rules.staff_initials import capital_initials, credential_words
from deid_core.lexicon import load_lexicons
from schemas import PhiType

_ITEM = r"(?m)^[ \t]*(?:[-*•]|(?P<n>\d{1,2}[.)]))[ \t]*(?P<i>[A-Z]{2,3})(?:[ \t]*:|(?P<d>[ \t]+[-–—][ \t]))"
_ITEM_RE = re.compile(_ITEM)
# "ACTION ITEMS", "Follow-up items:", "FOLLOW-UP / ACTIONS": a heading line of owned items.
_ACTION_HEADING = re.compile(
    r"(?im)^[ \t]*(?:[a-z\-]+[ \t]*/[ \t]*)?(?:action items|actions|action plan items|follow-up items|assignments)[ \t]*(?::[ \t]*)?$"
)
_BULLET_LINE = re.compile(r"(?m)^[ \t]*(?:[-*•]|\d{1,2}[.)])")
_BLANK_LINE = re.compile(r"\n[ \t]*\n")
_MAX_ACTION_ITEMS = 40


@lru_cache(maxsize=8)
def _lists(text: str) -> dict[int, tuple[int, int]]:
    """For each item's capitals (by offset): how many bullet or numbered lines its block holds (``2.
    Apnea of prematurity -`` counts too) and how many open with persons' initials. One pass over the
    note, so a hostile note of many items stays linear."""
    out: dict[int, tuple[int, int]] = {}
    block: list[int] = []
    lines = persons = 0
    items = {m.start(): m for m in _ITEM_RE.finditer(text)}
    blocks = iter(b.end() for b in _BLANK_LINE.finditer(text))
    edge = next(blocks, len(text) + 1)
    for bullet in _BULLET_LINE.finditer(text):
        while bullet.start() >= edge:
            out.update({i: (lines, persons) for i in block})
            block, lines, persons, edge = [], 0, 0, next(blocks, len(text) + 1)
        lines += 1
        m = items.get(bullet.start())
        if m is not None:
            block.append(m.start("i"))
            persons += capital_initials(m.group("i"))
    out.update({i: (lines, persons) for i in block})
    return out


def _under_heading(text: str, m: re.Match[str]) -> bool:
    """An action heading stands right above the bullets this item belongs to."""
    cur = text.rfind("\n", 0, m.start()) + 1  # the bullet's line
    for _ in range(_MAX_ACTION_ITEMS):  # bounded: a hostile list of bullets must not make this quadratic
        if cur <= 0:
            return False
        prev_start = text.rfind("\n", 0, cur - 1) + 1
        line = text[prev_start : cur - 1]
        if _ACTION_HEADING.match(line):
            return True
        if not _BULLET_LINE.match(line):
            return False
        cur = prev_start
    return False


def _item_owner(text: str, m: re.Match[str]) -> bool:
    ini = m.group("i")
    cues = load_lexicons().cues
    if ini.lower() in cues["discipline_roles"]:
        return False  # "2. PT - gait training": a discipline
    if _under_heading(text, m):
        return capital_initials(ini) or ini.lower() in credential_words()  # "1. BA - call": a degree's letters
    items, persons = _lists(text).get(m.start("i"), (1, int(capital_initials(ini))))
    return bool(m.group("n") and m.group("d")) and persons >= 2 and 2 * persons >= items


def action_item_patterns() -> list[Pattern]:
    return [
        Pattern(
            "staff_initials_action_item",
            _ITEM,
            PhiType.DOCTOR,
            score=0.75,
            group="i",
            flags=0,
            validate=_item_owner,
            gate=(":", "-", "–", "—"),
        ),
    ]
