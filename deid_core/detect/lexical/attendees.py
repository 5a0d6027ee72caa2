"""People listed after a meeting's attendance cue: ``Present: Deb (nurse mgr), Ama (charge), Tor (PT)``,
``Present: Drs. Oduya, Matsumoto-Reyes, Pilar Esquivel (radiology), Fennimore (pathology)``.

The cue (``attendance_cues`` in staff_marks.yaml) opening a line and its colon open a list on one line; its items are
separated by commas, semicolons, ``and`` or ``&``. An item that opens with a capitalised word (after
``Dr.`` or ``Drs.`` perhaps) names a person by its leading capitalised words when one of them is a
listed given name or surname, is no ordinary word, or is a short given name (``Tor``, ``Ama``, ``Li``).
Items that open with a lower-case word (``wife Halina``, ``pt``) are the people detector's (a relation
is its cue). Roles, titles, relations, credentials, languages and places are no names (``Chaplain``,
``SW``, ``English``, ``Jamaica``), nor an item inside parentheses (``(PGY1, Gold team)``) or after a
place (``from Halifax, Nova Scotia``).

A comma before a credential stays inside its item (``Hollis Greer, LSW; Deepak, PT``). Type:
DOCTOR when the list marks anyone's role, credential or title (``Deb (nurse mgr)``, ``Hollis Greer,
LSW``, ``Drs.``): a team's meeting; PATIENT otherwise. Source ``lexicon``, scored as a cue: where the tagger typed a listed
name as a place (``Fennimore`` a CITY), the type vote gives it the person type; where the tagger or a
rule found the same words as a person, their type stands.
"""

from __future__ import annotations

import re

from deid_core.lexicon import Lexicons
from schemas import PhiType, Span

SOURCE = "lexicon"
_SCORE = 0.8
_PLACED = re.compile(r"\b(?:from|in|near|outside|at)[ \t]+[A-Z][A-Za-z'’\-]*(?:[ \t]+[A-Z][A-Za-z'’\-]*)*$")
_PLACE_LOOKBACK = 60  # characters before an item that may hold the place it follows ("from Halifax,")
_SPECIALTY = ("ology", "iatry", "ics", "onc")
# Team words that mark a member's role in parentheses ("Ama (charge)", "Li (pharm)").
_TEAM_WORDS = frozenset({"charge", "pharm", "pharmacy", "primary", "bedside", "attending", "fellow", "resident", "intern"})
# Items end at a semicolon, "and", "&", or a comma that no credential follows ("Delphine Aucoin, NP;").
_ITEM_SPLIT = re.compile(r";|,(?![ \t]*[A-Z]{2,6}(?![A-Za-z]))|(?<![ \t])[ \t]+(?:and|&)[ \t]+")  # linear on blank runs
_TITLE_OR_CREDENTIAL = re.compile(r"\bDrs?\b|,[ \t]*[A-Z]{2,}(?![A-Za-z])")
_PARENTHESIS = re.compile(r"\((?P<first>[A-Za-z][A-Za-z\-]*)")
_WORD = re.compile(r"[A-Za-z][A-Za-z'’\-]*\.?")
_NAME_WORDS = re.compile(r"(?:Drs?\.?[ \t]+)?(?P<n>[A-Z][A-Za-z'’\-]*(?:[ \t]+[A-Z][A-Za-z'’\-]*\.?){0,2})")


class AttendeeDetector:
    """Finds the people of attendance lists (see the module docstring)."""

    def __init__(self, lexicons: Lexicons) -> None:
        self._lex = lexicons
        cues = lexicons.cues
        words = "|".join(sorted(map(re.escape, cues["attendance_cues"]), key=len, reverse=True))
        # At a line's start (a bullet perhaps), as minutes write it; the cue, a few words, its colon.
        self._cue = re.compile(rf"(?im)^[ \t]*(?:[-*•][ \t]*)?(?:{words})\b[^\n:]{{0,16}}:[ \t]*(?P<list>[^\n]+)")
        # Speed: the first word of each cue, to skip notes that have none before running the regex.
        self._gate = tuple(sorted({c.split()[-1] for c in cues["attendance_cues"]}))
        self._roles = cues["staff"] | cues["discipline_roles"] | cues["relations"] | cues["titles"]
        self._credentials = cues["credentials"] | cues["not_names"]
        self._function = cues["function_words"]
        self._never = cues["languages"]
        self._places = lexicons.cities | lexicons.countries | frozenset(lexicons.us_states.values())

    def spans(self, text: str) -> list[Span]:
        if ":" not in text:
            return []
        lowered = text.lower()
        if not any(g in lowered for g in self._gate):
            return []
        out: list[Span] = []
        for m in self._cue.finditer(text):
            start, value = m.start("list"), m.group("list")
            # A list that marks anyone's role, credential or title is the staff's: all its people are DOCTOR.
            type_ = PhiType.DOCTOR if self._staff_marked(value) else PhiType.PATIENT
            depth, seen = 0, 0
            for offset, item in _items(value):
                depth += value.count("(", seen, offset) - value.count(")", seen, offset)
                seen = offset
                if depth > 0 or self._after_place(value[max(0, offset - _PLACE_LOOKBACK) : offset]):
                    continue  # "(PGY1, Gold team)": inside a parenthesis; "Halifax, Nova Scotia": a place's region
                found = self._person(item)
                if found is not None:
                    out.append(Span(start + offset + found[0], start + offset + found[1], type_, _SCORE,
                                    frozenset({SOURCE}), "lexicon=attendee"))
        return out

    def _after_place(self, before: str) -> bool:
        """The item before ends with a place (``from Halifax,``, ``Kingston,``): this one is its region."""
        last = before.rstrip(" \t,;&")
        words = _WORD.findall(last)
        return bool(words) and (words[-1].rstrip(".").lower() in self._places or _PLACED.search(last) is not None)

    def _staff_marked(self, value: str) -> bool:
        """A title or a credential (``Drs.``, ``, LSW``), or a role or specialty in parentheses
        (``(nurse mgr)``, ``(pathology)``; not ``(in Santo Domingo)``)."""
        if _TITLE_OR_CREDENTIAL.search(value):
            return True
        for m in _PARENTHESIS.finditer(value):
            first = m.group("first").lower()
            if first in self._roles or first in self._credentials or first.endswith(_SPECIALTY) or first in _TEAM_WORDS:
                return True
        return False

    def _person(self, item: str) -> tuple[int, int] | None:
        lead = len(item) - len(item.lstrip())
        m = _NAME_WORDS.match(item, lead)
        if m is None or m.group("n").isupper():
            return None  # "SW", "LSW": a role or a credential; initials are initials_lists.py's
        words = [w.rstrip(".") for w in _WORD.findall(m.group("n"))]
        lows = [w.lower() for w in words]
        if any(w in self._roles or w in self._credentials or w in self._function or w in self._never for w in lows if len(w) > 1):
            return None  # "Chaplain", "SW", "English"
        if " ".join(lows) in self._places or m.group("n").endswith(("'s", "’s")) or item[m.end() :].startswith(("'", "’")):
            return None  # "Jamaica" after "Kingston,"; "Pt's children"
        lex = self._lex
        full = [w for w in words if len(w) > 1]
        if not full or not any(
            lex.is_name(w) or not lex.is_word(w) or (len(w) <= 3 and w[0].isupper() and w[1:].islower()) for w in full
        ):
            return None
        return m.start("n"), m.end("n")


def _items(value: str) -> list[tuple[int, str]]:
    """The list's items with their offsets in ``value``."""
    out, pos = [], 0
    for sep in _ITEM_SPLIT.finditer(value):
        out.append((pos, value[pos : sep.start()]))
        pos = sep.end()
    out.append((pos, value[pos:]))
    return out
