"""A state's postal code after a town with no ZIP after it (``Ashgrove, VT``, ``in Dunmore, PA;``); the
``City, ST 02114`` rule (rules/location.py) needs the ZIP.

Place evidence is required, more for codes that are also credentials or abbreviations (``Smith, PA``,
``Jones, MD``, ``Lee, MS``, ``chest, CT``; ``ambiguous_state_codes`` in state_codes.yaml):

* any code: the town is in the gazetteer and no person's name, or a place preposition comes before it
  (``from Scottsdale, AZ``), or it follows a comma in an address line (``Family Practice, Ashgrove, VT``)
  and is no name, title or ordinary word;
* an ambiguous code: the town is in the gazetteer and no person's name, or a preposition that never
  comes before a person's name stands before it (``in Dunmore, PA``).

Never after a title (``Dr. Lee, MD``). The town is reported as CITY too; so is a town before a state's
full name, after a place preposition or known to the gazetteer (``from Mobile, Alabama``). In a lower-case note the town
must be the gazetteer's and the code end its clause (``lives in dubuque, ia (north end)``, ``in bend,
or.``); a town that is also an ordinary word needs a place preposition (``from normal, il``).
"""

from __future__ import annotations

import re
from functools import cache

from deid_core.detect.base import Pattern
from deid_core.detect.rules.context import last_word
from deid_core.detect.rules.location import STATE_ABBREVIATIONS
from deid_core.lexicon import load_lexicons
from schemas import PhiType

_TOWN_WORD = r"[A-Z][a-z][A-Za-z'’\-]*"
# A capitalised word or an initial right before the town: the town is then the end of a person's name.
_NAME_BEFORE = re.compile(r"\b[A-Z][\w'’\-]*\.?[ \t]+$")


@cache
def _cues() -> tuple[frozenset[str], frozenset[str], frozenset[str], frozenset[str]]:
    cues = load_lexicons().cues
    return cues["ambiguous_state_codes"], cues["place_prepositions"], cues["strong_place_prepositions"], cues["titles"]


def _town_evidence(text: str, m: re.Match[str]) -> bool:
    lex = load_lexicons()
    ambiguous, prepositions, strong, titles = _cues()
    town = m.group("town")
    words = town.split()
    before = last_word(text, m.start("town"))
    if before in titles:
        return False  # "Dr. Lee, MD"
    if _NAME_BEFORE.search(text, max(0, m.start("town") - 24), m.start("town")):
        return False  # "Melanie A. Murphy, MD": the end of a longer name, not a town
    known = town.lower() in lex.cities and not any(w.lower() in lex.first_names for w in words)
    if m.group("st").lower() in ambiguous:
        return known or before in strong
    if known or before in prepositions:
        return True
    after_comma = text[max(0, m.start("town") - 2) : m.start("town")].strip(" \t") == ","
    return after_comma and not any(lex.is_name(w) or lex.is_word(w) for w in words)


def _lower_town_at(text: str, m: re.Match[str]) -> tuple[int, int] | None:
    """The town before the code: the longest of the last one to three lower-case words that the
    gazetteer knows as a town and that holds no first name; a town that is also an ordinary word
    (``normal``, ``reading``) needs a place preposition before it."""
    lex = load_lexicons()
    _, prepositions, _, _ = _cues()
    words = list(re.finditer(r"[a-z][a-z'’\-]+", m.group("town")))
    base = m.start("town")
    for k in range(len(words)):
        town = m.group("town")[words[k].start() :]
        if town not in lex.cities or any(w in lex.first_names for w in town.split()):
            continue
        start = base + words[k].start()
        if lex.is_word(town) and last_word(text, start) not in prepositions:
            return None
        return start, m.end("town")
    return None


def _lower_town(text: str, m: re.Match[str]) -> bool:
    return _lower_town_at(text, m) is not None


def _lower_town_span(text: str, m: re.Match[str]) -> list[tuple[int, int, PhiType]]:
    found = _lower_town_at(text, m)
    return [] if found is None else [(found[0], found[1], PhiType.CITY)]


@cache
def _state_names() -> str:
    names = sorted((n.title() for n in load_lexicons().us_states.values()), key=len, reverse=True)
    return "|".join(re.escape(n) for n in names)


def _town_before_state_name(text: str, m: re.Match[str]) -> bool:
    """``from Mobile, Alabama``, ``in Superior, Wisconsin``: a town before a state's full name, after a
    place preposition or known to the gazetteer; no first name in it (``Dear Lee, Georgia ...``)."""
    lex = load_lexicons()
    _, prepositions, _, titles = _cues()
    town = m.group("town")
    if any(w.lower() in lex.first_names for w in town.split()) or last_word(text, m.start("town")) in titles:
        return False
    return town.lower() in lex.cities or last_word(text, m.start("town")) in prepositions


def state_after_town_patterns() -> list[Pattern]:
    codes = "|".join(STATE_ABBREVIATIONS)
    return [
        Pattern(
            "state_after_town",
            rf"(?<![\w\-])(?P<town>{_TOWN_WORD}(?: {_TOWN_WORD}){{0,2}}),[ \t]+(?P<st>{codes})(?![\w\-]|[ \t]*\d)",
            PhiType.STATE,
            score=0.7,
            group="st",
            flags=0,
            validate=_town_evidence,
            extra_groups=(("town", PhiType.CITY),),
            gate=(",",),
        ),
        Pattern(
            "town_before_state_name",
            rf"(?<![\w\-])(?P<town>{_TOWN_WORD}(?: {_TOWN_WORD}){{0,2}}),[ \t]+(?:{_state_names()})(?![\w\-])",
            PhiType.CITY,
            score=0.7,
            group="town",
            flags=0,
            validate=_town_before_state_name,
            gate=(",",),
        ),
        Pattern(
            "state_after_lower_town",
            # a lower-case note ("lives in dubuque, ia", "pharmacy in bend, or. callback"): the code ends a
            # clause (punctuation, a ZIP, a parenthesis or the line's end)
            rf"(?<![\w\-])(?P<town>[a-z][a-z'’\-]+(?: [a-z][a-z'’\-]+){{0,2}}),[ \t]+(?P<st>{codes.lower()})"
            r"(?=[ \t]*(?:[.,;:)(]|\d{5}|$))",
            PhiType.STATE,
            score=0.7,
            group="st",
            flags=re.MULTILINE,
            validate=_lower_town,
            extra_spans=_lower_town_span,
            gate=(",",),
        ),
    ]
