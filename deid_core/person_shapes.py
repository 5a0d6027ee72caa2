"""Person shapes: tagger spans whose own shape says person, whatever type the tagger gave them.

The type vote (``deid_core.typevote``) weighs the lexicon's and the rules' persons against the tagger's
places; these shapes need no voter. On a tagger span:

* an identifier that ends in a capitalised given name or surname is the identifier and the person
  (``license 103771940 - Manny``): no identifier ends in a name;
* a date of one capitalised word said twice is a nickname (``Jun-Jun``, ``Bong-Bong``), a PATIENT;
* a room, ward or street that is a census line's bed and patient (``601  Teodorescu 74M``: a number, a
  listed name, an age and a sex) is the room and the person;
* a date that opens with a given name's possessive is the person and the date (``Kevin's 2011 Ford
  Focus``), and a month that is a given name before a possessive and a noun is the person (``June's
  teacher``): months own nothing in notes;
* a place whose possessive names a relative (``Chaska's cousin Wade``) or that names a family after
  "the" (``the Okafor family``; the article cut off where the tagger read it in, ``the Tran``) is a
  person; relations that also join places and firms before a noun keep the place (``Chicago's sister
  city``), and so does a two-word place (``the Cardinal House family lodging``).

Invariant: types change, and a span is only ever cut in two at the name's edge; no span grows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from deid_core.lexicon import Lexicons
from schemas import PhiType, Span

MONTHS = frozenset("january february march april may june july august september october november december".split())
_POSSESSIVE_NEXT = re.compile(r"['\u2019]s[ \t]+([a-z][a-z\-]+)(?:[ \t]+([a-z]+))?")
_CAPITALISED_WORDS = re.compile(r"[A-Z][a-z'\u2019\-]+(?:[ \t][A-Z][a-z'\u2019\-]+)?")
# The word in small letters after a surname ("the Okafor family": not "the Hollis Family Suite").
_NEXT_SMALL_WORD = re.compile(r"[ \t]+([a-z]+)\b")
# A given name's possessive opening a tagger date ("Kevin's 2011"), and a possessive before a noun after a month
# ("June's teacher").
_POSSESSIVE_HEAD = re.compile(r"([A-Z][a-z]+)['\u2019]s(?=[ \t]+\S)")
_POSSESSIVE_NOUN = re.compile(r"['\u2019]s[ \t]+[a-z]")
# The given name that ends a tagger identifier ("license 103771940 - Manny").
_NAME_WORD = re.compile(r"[A-Z][a-z]{2,}")
_ID_TYPES = frozenset({
    PhiType.IDNUM, PhiType.MEDICALRECORD, PhiType.ACCOUNT, PhiType.LICENSE, PhiType.HEALTHPLAN, PhiType.DEVICE,
})
_DOUBLED = re.compile(r"([A-Z][a-z]{1,8})-\1")
# A census line: a room's number, a capitalised name, then an age and a sex ("601  Teodorescu 74M",
# "304 Fairweather, 90,"): the name is a patient, not part of the room.
_ROOM_THEN_NAME = re.compile(r"(?<!\S)(\d{1,4}[A-Z]?)[ \t]+([A-Z][a-z'\u2019\-]{2,})(?![\w'\u2019\-])")
_AGE_SEX_AFTER = re.compile(r"[ \t]+\d{1,3}[ \t]?[MFmf]\b|,[ \t]*\d{1,3}[ \t]*,")
_ROOM_TYPES = frozenset({PhiType.ROOM, PhiType.DEPARTMENT, PhiType.STREET})


@dataclass(frozen=True, slots=True)
class PersonShapes:
    """The shapes of the module docstring; built once from the lexicons (``build_person_shapes``)."""

    first_names: frozenset[str] = frozenset()
    surnames: frozenset[str] = frozenset()
    words: frozenset[str] = frozenset()
    relations: frozenset[str] = frozenset()
    generic: frozenset[str] = frozenset()
    # Relations that also join places and firms before a noun ("sister city"), and the words after "the" and a
    # surname that name a family ("the Okafor family"): type_vote.yaml.
    compound_relations: frozenset[str] = frozenset()
    family_words: frozenset[str] = frozenset()

    def split(self, text: str, span: Span) -> tuple[Span, ...]:
        """A tagger identifier or date: itself, or the pieces its shape says it is."""
        if span.type in _ID_TYPES:
            return self._named_after_id(text, span)
        if span.type is PhiType.DATE:
            return self._possessive_date(text, self._doubled_name(text, span))
        if span.type in _ROOM_TYPES:
            return self._room_and_patient(text, span)
        return (span,)

    def relative(self, text: str, span: Span) -> Span:
        """A tagger place whose possessive names a relative (``Chaska's cousin Wanbli``, ``Hal's wife``), or
        that names a family (``the Okafor family``, ``the Tran kids``): places have no cousins, so it is a
        person; the town keeps its type before a place's word (``Chicago's sister city``)."""
        if text[span.start : span.start + 4].lower() == "the " and _CAPITALISED_WORDS.fullmatch(text, span.start + 4, span.end):
            family = _NEXT_SMALL_WORD.match(text, span.end)  # "the Tran" read as a place before "family"
            if " " not in text[span.start + 4 : span.end] and family and family.group(1) in self.family_words:
                return replace(span, start=span.start + 4, type=PhiType.PATIENT)
        if not _CAPITALISED_WORDS.fullmatch(text, span.start, span.end):
            return span
        one_word = " " not in text[span.start : span.end]  # "the Cardinal House family lodging" is a place
        family = _NEXT_SMALL_WORD.match(text, span.end)
        if one_word and family and family.group(1) in self.family_words and text[max(0, span.start - 4) : span.start].lower() == "the ":
            return replace(span, type=PhiType.PATIENT)  # "the Okafor family", "the Tran kids"
        m = _POSSESSIVE_NEXT.match(text, span.end)
        if m is None or m.group(1).lower() not in self.relations:
            return span
        after = m.group(2)
        if after and (after in self.generic or (m.group(1) in self.compound_relations and not after.endswith(("ed", "s")))):
            return span  # "Chicago's sister city", "Acme's parent company"; not "Hal's sister called"
        return replace(span, type=PhiType.PATIENT)

    @staticmethod
    def _doubled_name(text: str, span: Span) -> Span:
        """A tagger date that is one capitalised word said twice (``Jun-Jun``, ``Bong-Bong``): a nickname,
        as Filipino families give them, not a month."""
        return replace(span, type=PhiType.PATIENT) if _DOUBLED.fullmatch(text, span.start, span.end) else span

    def _named_after_id(self, text: str, span: Span) -> tuple[Span, ...]:
        """A tagger identifier that ends in a capitalised given name or surname (``license 103771940 -
        Manny``) is the identifier and the person: no identifier ends in a name."""
        # String methods, not a pattern: a pattern reading the identifier first backtracks quadratically over a
        # long run of non-blanks, and one reading blanks before the name over a long run of blanks.
        value = text[span.start : span.end]
        parts = value.split()
        if len(parts) not in (2, 3) or (len(parts) == 3 and parts[1] not in ("-", "\u2013")):
            return (span,)
        ident, name = parts[0], parts[-1]
        if _NAME_WORD.fullmatch(name) is None or not any(c.isdigit() for c in ident):
            return (span,)  # an identifier is one token with a digit ("103771940", "PPE-04")
        low = name.lower()
        if not (low in self.first_names or (low in self.surnames and low not in self.words)):
            return (span,)
        name_at = span.start + value.rindex(name)
        return (replace(span, end=span.start + len(ident)), replace(span, start=name_at, type=PhiType.PATIENT))

    def _room_and_patient(self, text: str, span: Span) -> tuple[Span, ...]:
        """A tagger room, ward or street that is a room's number and a listed name (no word) with an age
        and a sex after it, a census line's bed and patient (``601  Teodorescu 74M``, ``Orchard 3 304
        Fairweather, 90,``): the room, the PATIENT, and what the span held after the name."""
        # The last number and name: a ward's own number comes first ("Orchard 3 304 Fairweather").
        m = next(reversed(list(_ROOM_THEN_NAME.finditer(text, span.start, span.end))), None)
        if m is None or not _AGE_SEX_AFTER.match(text, m.end(2)):
            return (span,)
        low = m.group(2).lower()
        if low in self.words or not (low in self.surnames or low in self.first_names):
            return (span,)
        pieces = [replace(span, end=m.end(1)), replace(span, start=m.start(2), end=m.end(2), type=PhiType.PATIENT)]
        rest = text[m.end(2) : span.end]
        if rest.strip():  # "74M" read into the room: still what the tagger found, whatever its type
            pieces.append(replace(span, start=m.end(2) + len(rest) - len(rest.lstrip())))
        return tuple(pieces)

    def _possessive_date(self, text: str, span: Span) -> tuple[Span, ...]:
        """A tagger date that opens with a given name's possessive is the person and the date (``Kevin's
        2011 Ford Focus``: ``Kevin`` and ``2011``); a month that is a given name, alone before a possessive
        and a noun, is the person (``June's teacher``): months own nothing in notes."""
        if span.type is not PhiType.DATE:
            return (span,)
        m = _POSSESSIVE_HEAD.match(text, span.start, span.end)
        if m is not None and m.group(1).lower() in self.first_names and m.group(1).lower() not in MONTHS:
            rest = m.end() + len(text[m.end() : span.end]) - len(text[m.end() : span.end].lstrip())
            return (replace(span, end=m.end(1), type=PhiType.PATIENT), replace(span, start=rest))
        value = text[span.start : span.end]
        if value.lower() in MONTHS and value.lower() in self.first_names and _POSSESSIVE_NOUN.match(text, span.end):
            return (replace(span, type=PhiType.PATIENT),)
        return (span,)


def build_person_shapes(lex: Lexicons, generic: frozenset[str]) -> PersonShapes:
    return PersonShapes(
        lex.first_names, lex.surnames, lex.common_words | lex.vocabulary,
        frozenset(r for r in lex.cues["relations"] if " " not in r), generic,
        lex.cues["compound_relations"], lex.cues["family_words"],
    )
