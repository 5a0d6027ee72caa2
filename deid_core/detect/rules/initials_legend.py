"""Initials that a legend defines (``RA = Rosa Aguilar; LV = Lam Vu``, ``jt = Jenna Tolliver``): the
initials stand for that person wherever the note uses them, in a medication grid's cells (``| RA | LV |``)
or a shift note's ``(KM)``.

A legend item is two or three letters in one case, ``=`` and a capitalised given name and surname (not
ordinary words: ``BP = Normal Range``). The item, the name and every other occurrence of the same
letters in the same case, standing alone, are DOCTOR (legends explain the initials of the staff who sign
grids and logs). The legend is what makes a credential-like pair (``DO = Dmitri Orlov``) initials in that
note; an occurrence right after a comma is still a credential (``Ann Lee, DO``) and is left alone.
"""

from __future__ import annotations

import re

from deid_core.detect.base import Pattern
from deid_core.lexicon import load_lexicons
from schemas import PhiType

_NAME = r"[A-Z][a-z'’\-]+(?:[ \t]+[A-Z]\.?)?[ \t]+[A-Z][a-z'’\-]+"
_LEGEND = rf"(?<![\w'’.\-/])(?P<i>[A-Z]{{2,3}}|[a-z]{{2,3}})[ \t]*=[ \t]*(?P<name>{_NAME})"


def _a_name(text: str, m: re.Match[str]) -> bool:
    """Not ordinary words (``BP = Normal Range``): a name's words are not all in the dictionary."""
    lex = load_lexicons()
    return not all(lex.is_word(w) for w in re.findall(r"[A-Za-z]{2,}", m.group("name")))


def _name_and_uses(text: str, m: re.Match[str]) -> list[tuple[int, int, PhiType]]:
    ini = m.group("i")
    spans = [(m.start("name"), m.end("name"), PhiType.DOCTOR)]
    for use in re.finditer(rf"(?<![\w'’.\-/@]){ini}(?![\w'’\-@]|\.\w)", text):
        if use.start() == m.start("i") or text[max(0, use.start() - 2) : use.start()].endswith((", ", ",")):
            continue  # the legend itself; a credential after a name
        spans.append((use.start(), use.end(), PhiType.DOCTOR))
    return spans


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
    ]
