"""The lexicons every detector and the tagger share: names, nicknames, places, words, cue words.

One place, loaded once: ``load_lexicons()`` reads the files under ``data/`` (built from maintained
packages by ``scripts/build_lexicons.py``, plus hand-written lists; licences in ``data/LICENSES.md``) on
first use and returns the same frozen ``Lexicons`` afterwards. Nothing is read at import time.

Everything is lower case. ``common_words`` answers "is this token an ordinary English word?", which a
name or place lexicon alone cannot: ``Will``, ``Grace`` and ``Holly`` are names and words, so evidence
for them must come from context (a cue word, a title, a neighbouring name) rather than membership.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from types import MappingProxyType

from deid_core import yamldata

_DATA = "data"


_WORD_CACHE_MAX = 200_000
"""is_word answers kept per Lexicons; about the distinct words of a few thousand notes."""


@dataclass(frozen=True, slots=True)
class Lexicons:
    first_names: frozenset[str]
    surnames: frozenset[str]
    common_words: frozenset[str]
    nicknames: Mapping[str, frozenset[str]]
    """formal name -> nicknames, and each nickname -> the formal names it shortens."""
    cities: frozenset[str]
    us_states: Mapping[str, str]
    """two-letter code (upper case) -> state name (lower case)."""
    countries: frozenset[str]
    hospitals: frozenset[str]
    hospital_abbreviations: frozenset[str]
    """upper case, as written."""
    professions: frozenset[str]
    cues: Mapping[str, frozenset[str]]
    vocabulary: frozenset[str] = frozenset()
    """More words in use (wordfreq's English list, no name of the name lists), beyond the dictionary of
    ``common_words``: ``nightstand``, ``turmeric``, ``caregivers``. Not a tagger feature; read through
    ``in_use`` by the checks that a lower-case token is a login or someone's initials, not English."""
    # is_word's answers by lower-case word: the detectors ask about the same words many times per note.
    # Per instance (not module state), so a test's own Lexicons never sees another's answers.
    _word_cache: dict[str, bool] = field(default_factory=dict, init=False, repr=False, compare=False, hash=False)

    def is_name(self, token: str) -> bool:
        low = token.lower()
        return low in self.first_names or low in self.surnames

    def in_use(self, token: str) -> bool:
        """An English word in use: the dictionary's (``is_word``) or the wider vocabulary's (``nightstand``)."""
        return self.is_word(token) or token.lower() in self.vocabulary

    def is_word(self, token: str) -> bool:
        """True for an ordinary English word (``will``, ``grace``), whatever the case it is written in."""
        low = token.lower()
        known = self._word_cache.get(low)
        if known is None:
            # The dictionary lists lemmas ("guideline", "attend", "call", "review"), not their inflections.
            words = self.common_words
            known = low in words or any(stem in words for stem in _stems(low))
            if len(self._word_cache) >= _WORD_CACHE_MAX:
                self._word_cache.clear()  # bounded: a long-running worker meets new words (names too) forever
            self._word_cache[low] = known
        return known

    def name_variants(self, name: str) -> frozenset[str]:
        """Other spellings one person may go by: the nicknames of a formal name and the formal names a
        nickname shortens (``William`` -> ``bill``, ``will``...; ``Peggy`` -> ``margaret``). One hop
        only: two hops fan out (``bill`` -> ``william`` -> ``wilhelmina``). Lower case, without ``name``."""
        low = name.lower()
        return self.nicknames.get(low, frozenset()) - {low}


# Bits of ``Lexicons.token_class``: what the lexicons know about one token's spelling, for the tagger.
FIRST_NAME, SURNAME, COMMON_WORD, PLACE, PERSON_CUE, PLACE_HEAD = (1 << k for k in range(6))
MEDICAL_SUFFIXES = ("ology", "itis", "ectomy", "otomy", "ostomy", "osis", "emia", "pathy", "scopy", "plasty", "gram", "iatry", "ics")
"""Endings of specialties, procedures and conditions ("Urology", "Geriatrics", "Colectomy"): a word with
one of them is no surname, however a name list spells it."""

SPECIALTY_SUFFIXES = ("ology", "iatry", "ics")
"""Endings of specialties ("Urology", "Psychiatry", "Geriatrics"): a word with one names no one place or
person ("Green Pines Urology" spreads no "Urology"; "(Urology, ...)" stays a department)."""

N_TOKEN_CLASSES = 64


@cache
def load_token_classes() -> Mapping[str, int]:
    """What the lexicons know of each word, for the tagger's input: lower-case word -> bits
    (``FIRST_NAME``, ``SURNAME``, ``COMMON_WORD``, ``PLACE``, ``PERSON_CUE``, ``PLACE_HEAD``), 0..63;
    words no lexicon knows are absent (class 0). Built once, on first use (~0.2 s)."""
    lex = load_lexicons()
    classes: dict[str, int] = {}

    def mark(words: Iterable[str], bit: int) -> None:
        for w in words:
            if " " not in w:
                classes[w] = classes.get(w, 0) | bit

    mark(lex.common_words, COMMON_WORD)
    mark((w for w in lex.first_names if w not in lex.common_words), FIRST_NAME)
    mark((w for w in lex.surnames if w not in lex.common_words), SURNAME)
    mark((w for p in (*lex.cities, *lex.us_states.values(), *lex.countries) for w in p.split()), PLACE)
    cues = lex.cues
    mark((w for key in ("relations", "staff", "titles", "naming") for p in cues[key] for w in p.split()), PERSON_CUE)
    mark((p.split()[-1] for key in ("facility_heads", "organization_heads") for p in cues[key]), PLACE_HEAD)
    return MappingProxyType(classes)


_MIN_STEM = 3
_VOWELS = frozenset("aeiou")


def _stems(low: str) -> list[str]:
    """The lemmas an inflected word may come from: plurals and third persons (``guidelines``,
    ``carries``), past forms (``called``, ``dictated``, ``stopped``, ``carried``) and ``-ing`` forms
    (``answering``, ``making``, ``stopping``). Stems shorter than three letters are not tried, so
    ``Ted`` or ``Ring`` are never read as inflections."""
    out: list[str] = []
    for suffix, adds in (("ies", ("y",)), ("es", ("",)), ("s", ("",)), ("ied", ("y",)), ("ed", ("", "e")), ("ing", ("", "e"))):
        if not low.endswith(suffix):
            continue
        base = low[: -len(suffix)]
        out += [base + a for a in adds if len(base + a) >= _MIN_STEM]
        # A doubled final consonant: "stopped" -> "stop", "stopping" -> "stop".
        if suffix in ("ed", "ing") and len(base) > _MIN_STEM and base[-1] == base[-2] and base[-1] not in _VOWELS:
            out.append(base[:-1])
    return out


def _lines(name: str) -> list[str]:
    text = (resources.files(__package__) / _DATA / name).read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]


def _nicknames() -> Mapping[str, frozenset[str]]:
    pairs: dict[str, set[str]] = {}
    for line in _lines("nicknames.tsv"):
        formal, _, nicks = line.partition("\t")
        for nick in filter(None, nicks.split(",")):
            pairs.setdefault(formal, set()).add(nick)
            pairs.setdefault(nick, set()).add(formal)
    return MappingProxyType({k: frozenset(v) for k, v in pairs.items()})


def _hospitals() -> tuple[frozenset[str], frozenset[str]]:
    names: set[str] = set()
    abbreviations: set[str] = set()
    for line in _lines("hospitals.tsv"):
        name, _, abbrs = line.partition("\t")
        names.add(name.lower())
        abbreviations.update(a.strip() for a in abbrs.split(",") if a.strip())
    return frozenset(names), frozenset(abbreviations)


# cues.yaml, then smaller files of cues for one family of rules each; a key may be defined once only.
_CUE_FILES = ("cues.yaml", "staff_marks.yaml", "rooms.yaml", "generic_facilities.yaml", "event_dates.yaml", "state_codes.yaml", "work_phrases.yaml", "clinical_abbreviations.yaml", "type_vote.yaml")


def _cues() -> Mapping[str, frozenset[str]]:
    merged: dict[str, frozenset[str]] = {}
    for name in _CUE_FILES:
        raw = yamldata.safe_load((resources.files(__package__) / _DATA / name).read_text(encoding="utf-8"))
        for key, words in raw.items():
            if key in merged:
                raise ValueError(f"cue list {key!r} defined twice ({name})")
            if not all(isinstance(w, str) for w in words):
                # YAML reads a bare on, off, yes, no or a number as no string: such a word must be quoted.
                raise ValueError(f"cue list {key!r} in {name} holds an entry that is no string: quote it")
            merged[key] = frozenset(w.lower() for w in words)
    return MappingProxyType(merged)


@cache
def load_lexicons() -> Lexicons:
    """The shared lexicons, read once per process (a few hundred ms; forked workers inherit them)."""
    hospitals, abbreviations = _hospitals()
    states: dict[str, str] = {}
    for line in _lines("us_states.tsv"):
        code, _, name = line.partition("\t")
        states[code] = name.lower()
    return Lexicons(
        first_names=frozenset(_lines("first_names.txt")) | frozenset(_lines("first_names_world.txt")),
        surnames=frozenset(_lines("surnames.txt")),
        common_words=frozenset(_lines("common_words.txt")),
        nicknames=_nicknames(),
        cities=frozenset(c.lower() for c in _lines("cities.txt")),
        us_states=MappingProxyType(states),
        countries=frozenset(c.lower() for c in _lines("countries.txt")),
        hospitals=hospitals,
        hospital_abbreviations=abbreviations,
        professions=frozenset(_lines("professions.txt")),
        cues=_cues(),
        vocabulary=frozenset(_lines("vocabulary.txt")),
    )


__all__ = ["N_TOKEN_CLASSES", "Lexicons", "load_lexicons", "load_token_classes"]
