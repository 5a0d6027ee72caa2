"""Surrogate copies of annotated notes: more training text in a note's own style, with other PHI values.

The synthetic corpus teaches the tagger the generator's phrasings only. Hand-written development notes
(eval/handwritten_dev*) carry the styles users send (relatives by first name, ward names, lower-case
staff marks), but there are few of them and their PHI values would be memorised. So each note is copied
``copies`` times, each gold span replaced by a surrogate of its type from the service's own surrogate
engine (names from Faker's locale pools, shifted dates, format-preserving ids and contacts), the text
around the spans unchanged. Facility, ward and organisation names are half the time the engine's
surrogate and half the time the original with its proper words swapped for surnames (``Ashby 5 West``
-> ``Corliss 5 West``): the engine's pools hold whole generic names and would teach no ward shapes. The original values are not kept: the model sees the context, never the
development notes' invented names.

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
from deid_core.surrogate.names import apply_name_case, case_of, name_pools
from deid_tools.eval.model import GoldDoc
from schemas import PhiType, Span

_SWAPPED_TYPES = frozenset({PhiType.HOSPITAL, PhiType.DEPARTMENT, PhiType.ORGANIZATION, PhiType.LOCATION_OTHER})
_WORD = re.compile(r"[^\W\d_]+")


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


async def _surrogates(doc: GoldDoc, copy: int, seed: int) -> dict[tuple[PhiType, str], str]:
    surrogator = Surrogator(InMemoryMappingStore(), _key(seed, doc.id, copy))
    scope = f"note:{doc.id}:{copy}"
    unique = sorted({(s.type, doc.text[s.start : s.end]) for s in doc.spans})
    values = await asyncio.gather(*(surrogator.surrogate_for(scope, t, original) for t, original in unique))
    table = dict(zip(unique, values, strict=True))
    lexicons, surnames = load_lexicons(), name_pools("en_US").last
    for t, original in unique:
        rng = random.Random(f"{seed}:{doc.id}:{copy}:{original}")
        if t in _SWAPPED_TYPES and rng.random() < 0.5:
            table[(t, original)] = _swap_proper_words(original, rng, lexicons, surnames) or table[(t, original)]
    return table


def surrogate_copy(doc: GoldDoc, copy: int, seed: int) -> GoldDoc:
    """One copy of ``doc`` with every gold span replaced (spans must not overlap)."""
    table = asyncio.run(_surrogates(doc, copy, seed))
    parts: list[str] = []
    spans: list[Span] = []
    cursor = length = 0
    for s in sorted(doc.spans, key=lambda s: (s.start, s.end)):
        if s.start < cursor:
            raise ValueError(f"overlapping gold spans in note {doc.id}")
        kept = doc.text[cursor : s.start]
        new = table[(s.type, doc.text[s.start : s.end])]
        parts += [kept, new]
        length += len(kept)
        spans.append(Span(start=length, end=length + len(new), type=s.type))
        length += len(new)
        cursor = s.end
    parts.append(doc.text[cursor:])
    return GoldDoc(f"{doc.id}~{copy}", "".join(parts), tuple(spans))


def surrogate_copies(docs: Sequence[GoldDoc], copies: int, seed: int) -> list[GoldDoc]:
    """``copies`` surrogate copies of each note, note by note."""
    return [surrogate_copy(d, k, seed) for d in docs for k in range(copies)]
