"""A state's postal code after a town with no ZIP after it (``Ashgrove, VT``, ``in Dunmore, PA;``); the
``City, ST 02114`` rule (rules/location.py) needs the ZIP.

Place evidence is required, more for codes that are also credentials or abbreviations (``Smith, PA``,
``Jones, MD``, ``Lee, MS``, ``chest, CT``; ``ambiguous_state_codes`` in state_codes.yaml):

* any code: the town is in the gazetteer and no person's name, or a place preposition comes before it
  (``from Scottsdale, AZ``), or it follows a comma in an address line (``Family Practice, Ashgrove, VT``)
  and is no name, title or ordinary word;
* an ambiguous code: the town is in the gazetteer and no person's name, or a preposition that never
  comes before a person's name stands before it (``in Dunmore, PA``).

Never after a title (``Dr. Lee, MD``). The town is reported as CITY too.
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
    ]
