"""A facility's name made only of generic words names no one place: ``OPHTHALMOLOGY CLINIC``, ``DIABETIC
FOOT CLINIC``, ``SCHOOL-BASED HEALTH CENTER``, ``ALLERGY & IMMUNOLOGY``, ``Preadmission Testing Center``.
Such a phrase is a service's title (mostly a note's heading), not a HOSPITAL or ORGANIZATION.

Generic words: facility heads (cues.yaml; not organisation heads such as "Mills"), specialties (``-ology``, ``-iatry``,
``-ics``) and the kinds of service in ``generic_facility_words`` (generic_facilities.yaml). Used by the
lexicon's head-word rule and by hygiene on the tagger's facilities; DEPARTMENT is not touched (the
synthetic corpus labels generic departments).
"""

from __future__ import annotations

import re

from deid_core.lexicon import Lexicons

_WORDS = re.compile(r"[A-Za-z][A-Za-z'’/]*")
_CONNECTORS = frozenset({"&", "and", "of", "the", "for", "-"})
_SPECIALTY_SUFFIX = ("ology", "iatry", "ics", "ologic", "ological")


def generic_words(lexicons: Lexicons) -> frozenset[str]:
    """The generic words of facility names, built once by each caller."""
    cues = lexicons.cues
    heads = (*cues["facility_heads"], *cues["generic_facility_words"])
    return frozenset(w for phrase in heads for w in phrase.split())


def generic_facility(value: str, generic: frozenset[str]) -> bool:
    """True when every word of ``value`` (hyphenated words part by part) is in ``generic`` (from
    ``generic_words``) or a specialty."""
    words = [p.lower() for w in _WORDS.findall(value) for p in w.split("-") if p]
    words = [w for w in words if w not in _CONNECTORS]
    return bool(words) and all(w in generic or w.endswith(_SPECIALTY_SUFFIX) for w in words)
