"""Type vote: a name the lexicon reads as a person keeps a person type when the tagger calls it a place.

The merger ranks sources, not types, so where the tagger and the lexicon detector find the same words
the tagger's type wins (it reads context; the lexicon guesses the subtype from a cue at best). One
confusion is systematic on text the training corpus did not write: a first name and a surname after a
role word or a field label (``SW Benedikt Arne``, ``Pharmacist: Anjali Menon-Reid``, ``From: Dorothea
Okwuosa``) tagged ORGANIZATION or another place type. A name list cannot tell a daughter from a doctor,
but it does know that a first name followed by a surname-like word is a person, and a person's name
replaced by a hospital's surrogate reads wrong and is scored as a missed name.

Invariant: only types change, never extents. A tagger span of a place or organisation type takes the
person type of a lexicon span with exactly its extent when that extent is two or more words, or when
the lexicon found it after a cue (``neighbour Florence``); a one-word span without a cue (``Florence``,
``Rowan``) is as likely a place as a person, so the tagger keeps it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from schemas import PhiType, Span

PERSON_TYPES: frozenset[PhiType] = frozenset({PhiType.PATIENT, PhiType.DOCTOR})
PLACE_TYPES: frozenset[PhiType] = frozenset({
    PhiType.ORGANIZATION, PhiType.HOSPITAL, PhiType.DEPARTMENT, PhiType.STREET, PhiType.CITY,
    PhiType.LOCATION_OTHER, PhiType.COUNTRY, PhiType.STATE,
})
TAGGER = "tagger"
LEXICON = "lexicon"
CUED = 0.8
"""The lexicon detector's score for a name found after a cue (a title, a relation, a staff role)."""


def vote_person_types(text: str, spans: Sequence[Span]) -> list[Span]:
    """``spans`` with tagger place types replaced by the lexicon's person type on identical multi-word extents."""
    persons: dict[tuple[int, int], Span] = {
        (s.start, s.end): s for s in spans if LEXICON in s.sources and s.type in PERSON_TYPES
    }
    if not persons:
        return list(spans)
    out: list[Span] = []
    for s in spans:
        person = persons.get((s.start, s.end))
        if (
            person is not None
            and s.sources == {TAGGER}
            and s.type in PLACE_TYPES
            and (len(text[s.start : s.end].split()) >= 2 or person.score >= CUED)
        ):
            s = replace(s, type=person.type)
        out.append(s)
    return out
