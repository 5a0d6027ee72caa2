"""Type vote: names the lexicon reads as people keep a person type when the tagger calls them a place.

The merger ranks sources, not types, so where the tagger and the lexicon detector find the same words
the tagger's type wins (it reads context; the lexicon guesses the subtype from a cue at best). One
confusion is systematic on text the training corpus did not write: a first name and a surname after a
role word or a field label (``SW Benedikt Arne``, ``Pharmacist: Anjali Menon-Reid``, ``From: Dorothea
Okwuosa``), or two first names joined by ``and`` (``Ingrid and Lars``), tagged ORGANIZATION or another
place type. A name list cannot tell a daughter from a doctor, but it does know that a first name and a
surname-like word are a person, and a person's name replaced by a hospital's surrogate reads wrong and
is scored as a missed name.

Invariant: only types change, never extents. A tagger span of a place or organisation type takes the
person type of the lexicon's person spans when

* one lexicon span has exactly its extent and was found after a cue (``neighbour Florence``), or
* it has two or more words, the lexicon's person spans cover each of them but the conjunctions, and
  nothing in it says place or firm: no comma (``Martin, Roman and Ellis``), no first word that starts
  place names (``West``, ``El``, ``Lake``), no last word that ends the names of facilities, schools
  or firms (``General``, ``High``, ``Partners``); all of these are data in the lexicon's cues.

A one-word span without a cue (``Florence``, ``Rowan``) is as likely a place as a person, so the tagger
keeps it.

A second, smaller vote settles the tagger's region types by the gazetteer: a tagger city, state or
country whose whole text is a US state's name and no country's is a STATE (``moved from Ohio`` was
COUNTRY), and one that is a country's name and no state's is a COUNTRY; a name that is both
(``Georgia``) keeps the tagger's type. The same holds for a tagger person whose whole text is a state's
or a country's name and no first name or surname (``Knoxville, Tennessee`` in a signature: Tennessee was
a DOCTOR). A state's surrogate is then a state, and a policy that keeps states keeps it. A tagger country
or person that is a gazetteer's city and no country's or state's name (for a person, no first name or
surname either) is a CITY (``moved to Mesa``, ``flew in from Accra``): a policy that keeps countries must
not keep a town, and a town's surrogate is a town.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from deid_core.lexicon import Lexicons, load_lexicons
from schemas import PhiType, Span

PERSON_TYPES: frozenset[PhiType] = frozenset({PhiType.PATIENT, PhiType.DOCTOR})
PLACE_TYPES: frozenset[PhiType] = frozenset({
    PhiType.ORGANIZATION, PhiType.HOSPITAL, PhiType.DEPARTMENT, PhiType.STREET, PhiType.CITY,
    PhiType.LOCATION_OTHER, PhiType.COUNTRY, PhiType.STATE,
})
REGION_TYPES: frozenset[PhiType] = frozenset({PhiType.CITY, PhiType.STATE, PhiType.COUNTRY})
TAGGER = "tagger"
LEXICON = "lexicon"
CUED = 0.8
"""The lexicon detector's score for a name found after a cue (a title, a relation, a staff role)."""
_CONJUNCTIONS = frozenset({"and", "&"})
_WORD = re.compile(r"[^\W_]+(?:['\u2019\-][^\W_]+)*|&")


@dataclass(frozen=True, slots=True)
class TypeVote:
    """Applies the vote of the module docstring; built once from the lexicons' cue lists."""

    first_words: frozenset[str]
    last_words: frozenset[str]
    state_names: frozenset[str]
    country_names: frozenset[str]
    first_names: frozenset[str] = frozenset()
    surnames: frozenset[str] = frozenset()
    city_names: frozenset[str] = frozenset()

    def vote(self, text: str, spans: Sequence[Span]) -> list[Span]:
        """``spans`` with tagger place types replaced by the lexicon's person type where the vote says so."""
        spans = [
            self._region(text, s) if s.sources == {TAGGER} and s.type in REGION_TYPES | PERSON_TYPES else s
            for s in spans
        ]
        persons = [s for s in spans if LEXICON in s.sources and s.type in PERSON_TYPES]
        if not persons:
            return spans
        return [self._voted(text, s, persons) if s.sources == {TAGGER} and s.type in PLACE_TYPES else s for s in spans]

    def _region(self, text: str, span: Span) -> Span:
        name = " ".join(text[span.start : span.end].split()).lower()
        state, country = name in self.state_names, name in self.country_names
        if span.type in PERSON_TYPES and (name in self.first_names or name in self.surnames):
            return span  # "Georgia", "Israel", "Chad": a person as well as a place
        if state and not country and span.type is not PhiType.STATE:
            return replace(span, type=PhiType.STATE)
        if country and not state and span.type is not PhiType.COUNTRY:
            return replace(span, type=PhiType.COUNTRY)
        if span.type in PERSON_TYPES | {PhiType.COUNTRY} and not country and not state and name in self.city_names:
            return replace(span, type=PhiType.CITY)  # "Mesa", "Cedar Rapids": a policy keeping countries keeps no town
        return span

    def _voted(self, text: str, span: Span, persons: Sequence[Span]) -> Span:
        inside = sorted((p for p in persons if span.start <= p.start and p.end <= span.end), key=lambda p: p.start)
        if not inside:
            return span
        only = inside[0]
        if len(inside) == 1 and (only.start, only.end) == (span.start, span.end) and only.score >= CUED:
            return replace(span, type=only.type)
        words = list(_WORD.finditer(text, span.start, span.end))
        if len(words) < 2 or "," in text[span.start : span.end]:
            return span
        if words[0].group().lower() in self.first_words or words[-1].group().lower() in self.last_words:
            return span
        covered = all(
            any(p.start <= m.start() and m.end() <= p.end for p in inside)
            for m in words
            if m.group().lower() not in _CONJUNCTIONS
        )
        return replace(span, type=only.type) if covered else span


def build_type_vote(lexicons: Lexicons | None = None) -> TypeVote:
    lex = load_lexicons() if lexicons is None else lexicons
    cues = lex.cues
    heads = {w for key in ("facility_heads", "organization_heads", "ward_tails") for w in cues[key] if " " not in w}
    return TypeVote(
        cues["place_first_words"], frozenset(heads | cues["place_last_words"]),
        frozenset(lex.us_states.values()), lex.countries, lex.first_names, lex.surnames, lex.cities,
    )
