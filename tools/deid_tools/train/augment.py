"""Surrogate copies of annotated notes: more training text in a note's own style, with other PHI values.

The synthetic corpus teaches the tagger the generator's phrasings only. Hand-written development notes
(eval/handwritten_dev*) carry the styles users send (relatives by first name, ward names, lower-case
staff marks), but there are few of them and their PHI values would be memorised. So each note is copied
``copies`` times, each gold span replaced by a surrogate of its type from the service's own surrogate
engine (names from Faker's locale pools, shifted dates, format-preserving ids and contacts), the text
around the spans unchanged. Facility, ward and organisation names are half the time the engine's
surrogate and half the time the original with its proper words swapped for surnames (``Ashby 5 West``
-> ``Corliss 5 West``): the engine's pools hold whole generic names and would teach no ward shapes.
People's names in one copy come from one Faker locale drawn from ``NAME_LOCALES`` (Latin-script
locales, en_US most often): the development notes name people from many backgrounds, and copies with
en_US names only taught a first tagger that an unfamiliar given name ("Keiko", "Ayanda") is a place.
The original values are not kept: the model sees the context, never the development notes' invented
names.

Two optional shapes teach what the corpus and the pools rarely show (``deid train --hard-names``,
``--lower-share``): a share of given names drawn from ``hard_first_names`` (given names that are also
English words or towns, and two- or three-letter names: ``Grace``, ``Per``, ``Bo``, ``June``), so a
name's slot and not its spelling says "person"; and a share of copies lower-cased whole (lower-case
logs and text messages), so case is not the only mark of a name. Both are off by default.

Invariant: in every copy, ``text[span.start:span.end]`` is the surrogate of the original span and every
character outside the spans is the original's, in order. The copies are deterministic in
``(seed, note id, copy)``. The blind hand-written set must never be passed here.
"""

from __future__ import annotations

import asyncio
import hashlib
import random
import re
from collections.abc import Sequence

from deid_core.lexicon import Lexicons, load_lexicons
from deid_core.surrogate import HmacKey, InMemoryMappingStore, Surrogator
from deid_core.surrogate.names import NamePools, apply_name_case, case_of, name_pools, split_name
from deid_tools.eval.model import GoldDoc
from schemas import PhiType, Span

NAME_LOCALES = (
    "en_US", "en_US", "en_US", "es_MX", "es_ES", "fr_FR", "de_DE", "it_IT", "pt_BR", "vi_VN", "yo_NG",
    "zu_ZA", "en_IN", "tr_TR", "nl_NL", "ga_IE", "sw", "cs_CZ", "hu_HU", "fi_FI", "en_NG", "ro_RO",
    "sk_SK", "hr_HR", "sl_SI", "lv_LV", "et_EE", "da_DK", "no_NO", "sv_SE", "id_ID", "az_AZ",
)  # fmt: skip
_NAME_TYPES = frozenset({PhiType.PATIENT, PhiType.DOCTOR})
_SWAPPED_TYPES = frozenset({PhiType.HOSPITAL, PhiType.DEPARTMENT, PhiType.ORGANIZATION, PhiType.LOCATION_OTHER})
_WORD = re.compile(r"[^\W\d_]+")
# Words that are given names somewhere but would only teach the model that function words are names.
_NOT_HARD = frozenset(
    "us my among said made else line floor edit valid server sever owe odd till tone tore theres mate sole wage lot "
    "job gun jail canal forum harm harsh kick bent bitten feline corona yoga safari imam pastor queen junior german "
    "marine urban viking prima franc sine ide eta tri tan toy tea paw mile om ion ale bas che gal mar lo rut ante "
    "mart peer pier rein roar rune saga mare dick cord ville stein puck grit made among made boe ica ige ize oke ove "
    "sys ulu uno us vid yug".split()
)
_MONTH_NAMES = ("april", "may", "june", "august", "jun", "jan")


def _swap_proper_words(original: str, rng: random.Random, lexicons: Lexicons, surnames: Sequence[str]) -> str | None:
    """``original`` with each capitalised word that is no ordinary word replaced by a surname; None if none is."""

    def swap(m: re.Match[str]) -> str:
        word = m.group()
        if not word[0].isupper() or lexicons.is_word(word):
            return word
        return apply_name_case(rng.choice(surnames), case_of(word))

    out = _WORD.sub(swap, original)
    return out if out != original else None


def _key(seed: int, doc_id: str, copy: int) -> HmacKey:
    return HmacKey(hashlib.sha256(f"augment:{seed}:{doc_id}:{copy}".encode()).digest())


class _Namer:
    """People's names of one copy from one locale's pools, the same original piece always the same
    surrogate (a family's shared surname stays shared). Pieces are read as first names by the en_US
    pools, the drawing locale's and the lexicon's first names, so "Ximena" stays a given name."""

    def __init__(self, locale: str, rng: random.Random, lexicons: Lexicons, hard: Sequence[str] = (), hard_share: float = 0.0) -> None:
        self.draw = name_pools(locale)
        self.hard, self.hard_share = hard, hard_share
        us = name_pools("en_US")
        firsts = lexicons.first_names | us.male_set | us.female_set | self.draw.male_set | self.draw.female_set
        males = us.male_set | self.draw.male_set
        females = us.female_set | self.draw.female_set
        self.read = NamePools(
            male=(), female=(), last=(),
            male_set=frozenset(males | (firsts - females)), female_set=frozenset(females | (firsts - males)),
            last_set=us.last_set | self.draw.last_set,
        )  # fmt: skip
        self.rng = rng
        self.memo: dict[tuple[str, str], str] = {}

    def __call__(self, original: str) -> str:
        out = []
        for piece in split_name(original, self.read):
            if piece.role in ("keep", "digits"):
                out.append(piece.text)
                continue
            key = (piece.role, piece.normalized)
            if key not in self.memo:
                if piece.role == "initial":  # common initials (no Q, U, X, Y, Z)
                    self.memo[key] = self.rng.choice("ABCDEFGHIJKLMNOPRSTVW")
                elif piece.role == "first" and self.hard and self.rng.random() < self.hard_share:
                    self.memo[key] = self.rng.choice(self.hard).capitalize()
                elif piece.role == "first":
                    self.memo[key] = self.rng.choice(self.draw.first_pool(piece.gender) or self.draw.male)
                else:
                    self.memo[key] = self.rng.choice(self.draw.last)
            new = self.memo[key]
            out.append(new.lower() if piece.text.islower() else apply_name_case(new, case_of(piece.text)))
        return "".join(out)


def hard_first_names(lexicons: Lexicons) -> tuple[str, ...]:
    """Given names of the Faker pools that are also English words or towns, or two or three letters long,
    and the months that are given names; sorted, lower case."""
    firsts: set[str] = set()
    for locale in sorted(set(NAME_LOCALES)):
        pools = name_pools(locale)
        firsts |= {n.lower() for n in pools.male_set | pools.female_set}
    words = lexicons.common_words | lexicons.cities
    hard = {n for n in firsts if n.isascii() and n.isalpha() and (n in words or len(n) <= 3)}
    return tuple(sorted((hard | set(_MONTH_NAMES)) - _NOT_HARD))


def _lower(text: str) -> str:
    """Lower case, character by character where that keeps the length (spans keep their offsets)."""
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in text)


async def _surrogates(
    doc: GoldDoc, copy: int, seed: int, hard: Sequence[str] = (), hard_share: float = 0.0
) -> dict[tuple[PhiType, str], str]:
    surrogator = Surrogator(InMemoryMappingStore(), _key(seed, doc.id, copy))
    scope = f"note:{doc.id}:{copy}"
    unique = sorted({(s.type, doc.text[s.start : s.end]) for s in doc.spans})
    others = [(t, original) for t, original in unique if t not in _NAME_TYPES]
    values = await asyncio.gather(*(surrogator.surrogate_for(scope, t, original) for t, original in others))
    table = dict(zip(others, values, strict=True))
    lexicons, surnames = load_lexicons(), name_pools("en_US").last
    rng = random.Random(f"{seed}:{doc.id}:{copy}:names")
    namer = _Namer(rng.choice(NAME_LOCALES), rng, lexicons, hard, hard_share)
    for t, original in unique:
        if t in _NAME_TYPES:
            table[(t, original)] = namer(original)
    for t, original in unique:
        rng = random.Random(f"{seed}:{doc.id}:{copy}:{original}")
        if t in _SWAPPED_TYPES and rng.random() < 0.5:
            table[(t, original)] = _swap_proper_words(original, rng, lexicons, surnames) or table[(t, original)]
    return table


def surrogate_copy(
    doc: GoldDoc, copy: int, seed: int, hard: Sequence[str] = (), hard_share: float = 0.0, lower_share: float = 0.0
) -> GoldDoc:
    """One copy of ``doc`` with every gold span replaced (spans must not overlap); a ``hard_share`` of
    its given names from ``hard``, and lower-cased whole with probability ``lower_share``."""
    table = asyncio.run(_surrogates(doc, copy, seed, hard, hard_share))
    parts: list[str] = []
    spans: list[Span] = []
    cursor = length = 0
    for s in sorted(doc.spans, key=lambda s: (s.start, s.end)):
        if s.start < cursor:
            raise ValueError("overlapping gold spans in a note")  # no id or value: gold may hold real text
        kept = doc.text[cursor : s.start]
        new = table[(s.type, doc.text[s.start : s.end])]
        parts += [kept, new]
        length += len(kept)
        spans.append(Span(start=length, end=length + len(new), type=s.type))
        length += len(new)
        cursor = s.end
    parts.append(doc.text[cursor:])
    text = "".join(parts)
    if lower_share and random.Random(f"{seed}:{doc.id}:{copy}:lower").random() < lower_share:
        text = _lower(text)
    return GoldDoc(f"{doc.id}~{copy}", text, tuple(spans))


def surrogate_copies(
    docs: Sequence[GoldDoc], copies: int, seed: int, hard_share: float = 0.0, lower_share: float = 0.0
) -> list[GoldDoc]:
    """``copies`` surrogate copies of each note, note by note."""
    hard = hard_first_names(load_lexicons()) if hard_share else ()
    return [surrogate_copy(d, k, seed, hard, hard_share, lower_share) for d in docs for k in range(copies)]
