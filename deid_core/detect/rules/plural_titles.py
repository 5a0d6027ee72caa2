"""Persons listed after a plural title or role: ``officers Kessler and Farouk``, ``Drs. Ostrowski,
Lemieux-Tran``, ``EMTs Bo, Tavita``. Each item of the list is a person, whatever a name list or the tagger
makes of its words (the tagger reads ``Kessler and Farouk`` after ``officers`` as a firm).

An item is one or two capitalised words; items are joined by a comma, ``and`` or ``&``, and a list has two
or more. Every item must be able to be a name: no function word, title, role, credential, language or
never-name, and no head of a facility's or firm's name (``Drs. Ruiz and Lee Clinic`` is no list of
persons). Officers, deputies, troopers, detectives, sergeants, counsellors, volunteers, interpreters,
drivers, coaches, teachers and chaperones are PATIENT (no care staff, as the guideline types them);
doctors, nurses, medics, chaplains, techs, therapists, aides, pharmacists, residents, interns, midwives
and sitters are DOCTOR.
"""

from __future__ import annotations

import re
from functools import cache

from deid_core.detect.base import Pattern
from deid_core.detect.rules.context import letter_start
from deid_core.lexicon import load_lexicons
from schemas import PhiType

_ITEM = r"[A-Z][\w'\u2019\-]+(?:[ \t]+[A-Z][\w'\u2019\-]+)?"
_JOIN = r"(?:[ \t]*,[ \t]*(?:and[ \t]+|&[ \t]+)?|[ \t]+(?:and|&)[ \t]+)"
_WORD = re.compile(r"[^\W\d_][\w'\u2019]*")


@cache
def _not_name_words() -> frozenset[str]:
    cues = load_lexicons().cues
    keys = (
        "function_words", "titles", "officer_titles", "staff", "credentials", "languages", "not_names",
        "facility_heads", "organization_heads", "ward_tails", "place_last_words", "place_first_words",
    )  # fmt: skip
    return frozenset(w for key in keys for w in cues[key] if " " not in w)


def _items(text: str, m: re.Match[str]) -> list[tuple[int, int]]:
    base = m.start("list")
    return [(base + i.start(), base + i.end()) for i in re.finditer(_ITEM, m.group("list"))]


def _all_names(text: str, m: re.Match[str]) -> bool:
    never = _not_name_words()
    return all(
        w.lower() not in never for start, end in _items(text, m) for w in _WORD.findall(text, start, end)
    )


def _type(text: str, m: re.Match[str]) -> PhiType:
    return PhiType.PATIENT if m.group("title").lower() in load_lexicons().cues["plural_titles_outside_care"] else PhiType.DOCTOR


def _rest(text: str, m: re.Match[str]) -> list[tuple[int, int, PhiType]]:
    type_ = _type(text, m)
    return [(start, end, type_) for start, end in _items(text, m)[1:]]


def plural_title_patterns() -> list[Pattern]:
    cues = load_lexicons().cues  # the titles are data (type_vote.yaml): outside care, and care staff
    titles = letter_start(sorted(cues["plural_titles_outside_care"] | cues["plural_titles_care"], key=lambda t: (-len(t), t)), r"\w")
    return [
        Pattern(
            "persons_after_plural_title",
            rf"(?P<title>{titles})\.?[ \t]+"
            rf"(?P<list>(?P<first>{_ITEM})(?:{_JOIN}{_ITEM})+)",
            PhiType.DOCTOR,
            score=0.75,
            group="first",
            flags=0,
            validate=_all_names,
            resolve_type=_type,
            extra_spans=_rest,
        ),
    ]
