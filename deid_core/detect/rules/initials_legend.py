"""Initials that a legend defines (``RA = Rosa Aguilar; LV = Lam Vu``, ``jt = Jenna Tolliver``, or a
name and its initials in parentheses, ``Jo Whitcombe (JW)``, when the letters are the name's): the
initials stand for that person wherever the note uses them, in a medication grid's cells (``| RA | LV |``)
or a shift note's ``(KM)``.

A legend item is two or three letters in one case, ``=`` and a capitalised given name and surname (not
ordinary words: ``BP = Normal Range``), an initial and a surname whose letters the initials are (``AM =
A. Mensah-Boateng``), or in a log written in small letters a given name that the initials open (``ds =
dariusz``). The item, the name and every other occurrence of the same
letters in the same case, standing alone, are DOCTOR (legends explain the initials of the staff who sign
grids and logs). The legend is what makes a credential-like pair (``DO = Dmitri Orlov``) initials in that
note; an occurrence right after a comma is still a credential (``Ann Lee, DO``), and one right after a
number a time's or a unit's letters (``10 AM``): both are left alone.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from deid_core.detect.base import Pattern
from deid_core.lexicon import load_lexicons
from schemas import PhiType

_NAME = (
    r"[A-Z][a-z'’\-]+(?:[ \t]+[A-Z]\.?)?[ \t]+[A-Z][a-z'’\-]+"
    # an initial and a surname ("AM = A. Mensah-Boateng"); a log's given name in small letters, a surname
    # perhaps ("ds = dariusz (fill-in)", "mw = maribel watanabe-cruz HHA")
    r"|[A-Z]\.[ \t]*[A-Z][a-z'’]+(?:-[A-Za-z][a-z'’]+)*|[a-z][a-z'’\-]+(?:[ \t]+[a-z][a-z'’\-]+)?"
)
_LEGEND = rf"(?<![\w'’.\-/])(?P<i>[A-Z]{{2,3}}|[a-z]{{2,3}})[ \t]*=[ \t]*(?P<name>{_NAME})"


def _a_name(text: str, m: re.Match[str]) -> bool:
    """Not ordinary words (``BP = Normal Range``): a name's words are not all in the dictionary. The two
    shorter forms need more: after an initial, the initials are its letter and the surname's (``AM = A.
    Mensah-Boateng``); in small letters, initials in small letters that the name opens with, and a listed
    given name first that is no word in use (``ds = dariusz``; not ``bp = blood pressure``)."""
    lex = load_lexicons()
    name, ini = m.group("name"), m.group("i")
    if name[1:2] == ".":
        return ini == name[0] + name[2:].lstrip(" \t")[0]
    if name.islower():
        first = name.split()[0]
        return ini.islower() and ini[0] == name[0] and first in lex.first_names and not lex.in_use(first)
    return not all(lex.is_word(w) for w in re.findall(r"[A-Za-z]{2,}", name))


def _name_and_uses(text: str, m: re.Match[str]) -> list[tuple[int, int, PhiType]]:
    ini = m.group("i")
    spans = [(m.start("name"), m.end("name"), PhiType.DOCTOR)]
    if _first_legends(text).get(ini) != m.start("i"):
        return spans  # a later legend of the same initials: the first one gave their uses already
    for start, end in _uses(text, ini):
        if start == m.start("i") or text[max(0, start - 2) : start].endswith((", ", ",")):
            continue  # the legend itself; a credential after a name
        if _AFTER_A_NUMBER.search(text, max(0, start - 4), start):
            continue  # a time's or a measure's letters ("10 AM", "2 mg"), not the person's
        spans.append((start, end, PhiType.DOCTOR))
    return spans


_AFTER_A_NUMBER = re.compile(r"\d[ \t]{0,2}$")


@lru_cache(maxsize=64)
def _uses(text: str, ini: str) -> tuple[tuple[int, int], ...]:
    """The standalone uses of ``ini`` in ``text``, found once per note and initials (a hostile note of
    many legends would otherwise be scanned once per legend)."""
    return tuple(u.span() for u in re.finditer(rf"(?<![\w'’.\-/@]){ini}(?![\w'’\-@]|\.\w)", text))


# "Jo Whitcombe (JW)": a name and, in parentheses, the initials it goes by in the note.
_NAMED_INITIALS = r"(?<![\w'’\-])(?P<name>[A-Z][a-z'’]+(?:-[A-Z][a-z'’]+)?(?:[ \t]+[A-Z][a-z'’]+(?:-[A-Z][a-z'’]+)?){1,2})[ \t]{0,3}\((?P<i>[A-Z]{2,3})\)"


def _initials_of_the_name(text: str, m: re.Match[str]) -> bool:
    """The capitals are the name's words' first letters (``Noor Saleh (NS)``; ``Ana Lucia Ortiz (ALO)``,
    ``Ana Ortiz-Reyes (AOR)`` counting a hyphen's parts too), a word of the name is a listed name or no
    word in use, and none is a word of places' names (``Kestrel Bay Hospital (KBH)``)."""
    words = m.group("name").split()
    firsts = "".join(w[0] for w in words)
    parts = "".join(p[0] for w in words for p in w.split("-"))
    if m.group("i") not in (firsts, parts):
        return False
    lex = load_lexicons()  # a listed name, or a word no list knows; not "Chronic Obstructive (CO)"
    found = re.findall(r"[A-Za-z]{2,}", m.group("name"))
    if any(w.lower() in _place_words() for w in found):
        return False  # "Kestrel Bay Hospital (KBH)", "Mercy Alder Regional (MAR)": a place's abbreviation
    return any(lex.is_name(w) or not lex.in_use(w) for w in found)


@cache
def _place_words() -> frozenset[str]:
    """Words that end or start the names of facilities, organisations and places (``Hospital``,
    ``Regional``, ``Manor``, ``Living``, ``Saint``)."""
    cues = load_lexicons().cues
    keys = ("facility_heads", "organization_heads", "ward_tails", "place_last_words", "place_first_words",
            "generic_facility_words", "extra_facility_heads", "extra_organization_heads")
    return frozenset(w for key in keys for phrase in cues[key] for w in phrase.split())


@lru_cache(maxsize=8)
def _first_legends(text: str) -> dict[str, int]:
    """Where each initials' first valid legend stands in ``text`` (either form): only that legend adds the
    initials' other uses, so a note of many legends yields each use once, not once per legend."""
    first: dict[str, int] = {}
    for regex, valid in ((_LEGEND_RE, _a_name), (_NAMED_RE, _initials_of_the_name)):
        for m in regex.finditer(text):
            ini = m.group("i")
            if (ini not in first or m.start("i") < first[ini]) and valid(text, m):
                first[ini] = m.start("i")
    return first


_LEGEND_RE = re.compile(_LEGEND)
_NAMED_RE = re.compile(_NAMED_INITIALS)


def initials_legend_patterns() -> list[Pattern]:
    return [
        Pattern(
            "initials_legend",
            _LEGEND,
            PhiType.DOCTOR,
            score=0.75,
            group="i",
            flags=0,
            validate=_a_name,
            extra_spans=_name_and_uses,
            gate=("=",),
        ),
        Pattern(
            "initials_after_name",
            _NAMED_INITIALS,
            PhiType.DOCTOR,
            score=0.75,
            group="i",
            flags=0,
            validate=_initials_of_the_name,
            extra_spans=_name_and_uses,
            gate=("(",),
        ),
    ]
