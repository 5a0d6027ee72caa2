"""A name in quotes right after a word for a person or pointing at one: ``answered by "Dani"``, ``asked
for "Nora"``, ``the maintenance man, "Bones,"``, ``his old running buddy "T-Bone"``, ``coworker "Sully"``
(after a naming word, ``goes by "Tex"``, it is ``staff_names``' quoted_given_name).

Notes quote the name a person goes by, a caller gives or a patient asks for, and set a nickname in quotes
after the word for who the person is. The quoted word is capitalised (a hyphen joining two parts allowed,
a comma inside the quotes too) and is a name there even when it is also a word (``Bones``, ``Tank``),
since the word before it names a person: a word for one or pointing at one (``by``, ``for``, ``man``,
``buddy``: ``quoted_name_cues``), a relation, a staff role or another role. Not a pet's name (a pet word shortly
before or after: ``dog "Biscuit"``, ``"Pippin" (her cat)``), a family word (``asks for "Papa"``: ``quoted_not_names``), a title or a
month's or weekday's name. PATIENT, DOCTOR after a staff role.
"""

from __future__ import annotations

import re
from functools import cache

from deid_core.detect.base import Pattern
from deid_core.lexicon import load_lexicons
from schemas import PhiType

_SCORE = 0.7
_PET_WINDOW = 30
_PET_AFTER = 15  # "Pippin" (her cat)


@cache
def _cues() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """(every cue word, the staff ones among them, the words that are no name in quotes)."""
    lex = load_lexicons()
    c = lex.cues
    staff = _single_words(c["staff"])
    cues = _single_words(c["quoted_name_cues"] | c["relations"] | c["staff"] | c["extra_roles"] | lex.professions)
    never = frozenset(c["quoted_not_names"] | c["relations"] | c["titles"] | c["function_words"] | c["calendar_words"])
    return cues, staff, never


def _single_words(phrases: frozenset[str]) -> frozenset[str]:
    """The one-word entries: the word right before the quote is one word."""
    return frozenset(p for p in phrases if " " not in p)


def _a_quoted_name(text: str, m: re.Match[str]) -> bool:
    cues, _, never = _cues()
    if m.group("cue").lower() not in cues or m.group("n").lower() in never:
        return False
    around = text[max(0, m.start() - _PET_WINDOW) : m.start()] + " " + text[m.end() : m.end() + _PET_AFTER]
    return not any(w in load_lexicons().cues["pet_words"] for w in re.findall(r"[a-z]+", around.lower()))


def _type(text: str, m: re.Match[str]) -> PhiType:
    return PhiType.DOCTOR if m.group("cue").lower() in _cues()[1] else PhiType.PATIENT


def quoted_name_patterns() -> list[Pattern]:
    return [
        Pattern(
            "quoted_name",
            r"(?<![\w'’\-])(?P<cue>[a-z][a-z\-]*),?[ \t]+[\"“](?P<n>[A-Z](?:[a-z'’]+(?:-[A-Z]?[a-z'’]+)?|-[A-Z][a-z'’]+)),?[\"”]",
            PhiType.PATIENT,
            score=_SCORE,
            group="n",
            flags=0,
            validate=_a_quoted_name,
            resolve_type=_type,
            gate=('"', "“"),
        ),
    ]
