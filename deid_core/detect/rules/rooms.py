"""Rooms that ``room_number`` and ``room_bed`` (rules/location.py) miss: a room's own name, a dental
operatory, an operating room's number and a bed or bay whose number starts with a letter.

* **Named rooms** (``Family Room C``, ``Conference Room 6B``, ``Mohs Suite B``, ``Kessler Conference
  Room``, ``Lakeview Lounge``): capitalised words before a room head. It names one room when a number or
  letter follows the head or a word before it is no ordinary word; ``the Family Room`` and ``Waiting
  Room`` name a kind of room, and ``Suite 200`` after a street is part of an address (no capitalised
  word before the head, or more than two digits).
* **Operatories and operating rooms** (``op 4``, ``OR 7``; not ``op17`` written together, an operator's
  id): not a day after surgery (``post op 4``),
  a duration (``op 4 days``), an odds ratio (``OR 3, 95% CI``) nor a line in capitals.
* **Numbered heads** (``Exam 12``, ``Booth 3``, ``Chamber B``: ``numbered_room_heads``), capitalised.
* **Lettered beds** (``bed R-7``, ``bay T4``, ``cell D-217``, ``cot C-27``, ``hallway H3``).
"""

from __future__ import annotations

import re
import string
from functools import cache

from deid_core.detect.base import Pattern
from deid_core.detect.rules.context import letter_start
from deid_core.lexicon import load_lexicons
from schemas import PhiType

_WORD = re.compile(r"[A-Za-z'’\-]+")
_NEXT_WORD = re.compile(r"[ \t,]*([A-Za-z%]+)")
_INTERVAL = re.compile(r"%|\bCI\b")
_PREV_WORD = re.compile(r"([\w/]+)[ \t\-]*$")


@cache
def _cues() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    cues = load_lexicons().cues
    return cues["room_heads"], cues["not_room_before"], cues["not_room_after"]


def _named_room_span(text: str, m: re.Match[str]) -> tuple[int, int] | None:
    lex = load_lexicons()
    openers = lex.cues["not_room_openers"]
    words = list(_WORD.finditer(text, m.start(), m.start("head")))
    while words and words[0].group().lower() in openers:
        words.pop(0)  # "the Lakeview Lounge", "In Procedure Room 2"
    if not words:
        return None
    numbered = m.group("id") is not None
    if not numbered and all(lex.is_word(w.group()) for w in words):
        return None  # "Family Room", "Waiting Room": a kind of room
    return words[0].start(), m.end()


def _count_after(text: str, end: int) -> bool:
    """A duration or count word after the number (``op 4 days``, ``Exam 2 weeks ago``)."""
    nxt = _NEXT_WORD.match(text, end)
    return nxt is not None and nxt.group(1).lower() in _cues()[2]


def _not_day_or_count(text: str, m: re.Match[str]) -> bool:
    _, before, _ = _cues()
    prev = _PREV_WORD.search(text, max(0, m.start() - 12), m.start())
    if prev is not None and prev.group(1).lower() in before:
        return False
    if _count_after(text, m.end()):
        return False
    if _INTERVAL.search(text, m.end(), m.end() + 16):
        return False  # "OR 3, 95% CI": an odds ratio
    line_start = text.rfind("\n", 0, m.start()) + 1
    line_end = text.find("\n", m.end())
    line = text[line_start : line_end if line_end >= 0 else len(text)]
    return any(c.islower() for c in line)  # "X OR 7" in a line of capitals may be a conjunction


def _not_a_count(text: str, m: re.Match[str]) -> bool:
    return not _count_after(text, m.end())


def _room_before_patient(text: str, m: re.Match[str]) -> bool:
    room = m.group("room")
    digits = room.rstrip("-" + string.ascii_uppercase)  # "712-A": the room's number
    if len(digits) == 4 and 1900 <= int(digits) <= 2099:
        return False  # "in 2019 Kowalski moved": a year
    if digits == room and int(digits[:-2]) <= 23 and int(digits[-2:]) <= 59:
        return False  # "1230 Garcia called", "830 Mr. Lund up": a log's time
    sur = m.group("sur")
    if sur is None:
        return True  # a title follows: "712-A, mr ezekwesili"
    lex = load_lexicons()
    low = sur.lower()
    return low in lex.surnames and not lex.is_word(low)


def room_patterns() -> list[Pattern]:
    heads = "|".join(h.capitalize() for h in sorted(_cues()[0]))
    numbered = sorted(load_lexicons().cues["numbered_room_heads"])
    return [
        Pattern(
            "room_named",
            # One space between the words: a column gap ends the field before ("Eastbrook Health   Room B-1").
            rf"(?<![\w\-])(?:[A-Z][a-z][A-Za-z'’\-]* ){{1,3}}(?P<head>(?:{heads}))\b"
            r"(?: (?P<id>\d{1,2}[A-Z]?|[A-Z]\d{0,2})(?![\w\-/]|\.\d))?",
            PhiType.ROOM,
            score=0.7,
            flags=0,
            locate=_named_room_span,
            gate=tuple(sorted(_cues()[0])),
        ),
        Pattern(
            "room_operatory",
            # "op 4", "op #4", "OR7"; not "op17" run together, an operator's id in a call log
            r"(?<![\w\-/])(?:(?:[Oo]p|[Oo]peratory)(?=[ \t#])|OR)[ \t]*(?:\#[ \t]*)?(?P<room>\d{1,2}[A-Z]?)(?![\w\-/]|\.\d)",
            PhiType.ROOM,
            score=0.65,
            group="room",
            flags=0,
            validate=_not_day_or_count,
            gate=("op", "or"),
        ),
        Pattern(
            "room_numbered_head",
            # "Exam 12", "Booth 3", "Bedroom 4" ("Exam Room 4" is room_number's): capitalised only, so
            # "physical exam 2" is no room.
            rf"\b(?:{'|'.join(h.capitalize() for h in numbered)})[ \t]+(?P<room>\d{{1,3}}[A-Z]?|[A-Z])(?![\w\-/]|\.\d)",
            PhiType.ROOM,
            score=0.6,
            group="room",
            flags=0,
            validate=_not_a_count,
            gate=tuple(numbered),
        ),
        Pattern(
            "room_before_patient",
            # A handoff's "712-A, mr ezekwesili", "5112 Kowalczyk going to", "fall yesterday 5118 (Tennyson)":
            # a room's three or four digits right before its patient, a title and a name or a listed
            # surname in capitals or parentheses. Years (1900-2099) are left alone.
            r"(?<![\w\-/.:#$])(?P<room>\d{3,4}(?:-?[A-Z])?)(?=,?[ \t]+(?:\(?(?P<sur>[A-Z][a-z'’\-]+)\)?"
            r"|(?i:mr|mrs|ms|miss)\.?[ \t]+[A-Za-z]))",
            PhiType.ROOM,
            score=0.6,
            group="room",
            flags=0,
            validate=_room_before_patient,
        ),
        Pattern(
            "room_lettered_bed",
            letter_start(("bed", "bay", "bedspace", "cell", "chair", "cot", "hallway", "stretcher"), r"\w")
            + r"[ \t]*(?:(?:\#|(?i:no)\.?)[ \t]*)?"
            r"(?P<room>[A-Z]{1,2}-?\d{1,3}[A-Z]?)(?![\w\-/]|\.\d)",
            PhiType.ROOM,
            score=0.6,
            group="room",
            flags=0,
            gate=("bed", "bay", "cell", "chair", "cot", "hallway", "stretcher"),
        ),
    ]
