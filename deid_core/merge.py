"""Merging the spans of all detectors into one sorted, non-overlapping, typed list.

The rule (the seed ensemble's one-vote union):

1. **Union.** Every character that any detector marked stays marked, and no other character becomes
   marked. Merging changes types and boundaries between spans, never the covered set of characters.
2. **Identical extents** (same ``start`` and ``end``) become one span: the type of the best of them
   (ranked as in 3), ``sources`` the union of all their sources, ``score`` the max.
3. **Overlaps.** The text is cut at every span boundary; each elementary segment goes to the best span
   covering it, ranked by, in order: source priority (``header`` > ``rules`` > ``tagger`` > ``lexicon``),
   type priority (specific IDs and contacts > DATE > AGE > names > locations > PROFESSION > IDNUM >
   LOCATION-OTHER by default), score, length. Remaining ties go to the earlier span, then to the type
   name, so the result never depends on input order.
4. **Loser remainders.** A span that loses part of its extent keeps each part it still wins as a separate
   span of its own type, but only if that part contains an alphanumeric character. A remainder without
   one (``", "``, ``"-"``) is absorbed into the neighbouring span that beat it, which is extended over
   it; so is a remainder that is only a conjunction (``and``, ``or``, ``&``) between two pieces that beat
   it (``Kessler and Farouk``, a firm to the tagger, two persons to a rule). When ``text`` is not given,
   remainders cannot be inspected and are always kept.
5. **Coalescing.** Adjacent (``a.end == b.start``) or overlapping pieces of the same type become one
   span (``sources`` united, ``score`` the max).

Explanations of the contributing spans are joined with ``;`` (duplicates dropped); detectors never put
note text into explanations, and merging adds none.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from schemas import PhiType, Span

_CONJUNCTIONS = frozenset({"and", "or", "&"})
_SOURCE_RANK_MEMO = 256
"""At most this many source sets remembered per merger."""

DEFAULT_SOURCE_PRIORITY: Mapping[str, int] = {"header": 4, "rules": 3, "tagger": 2, "lexicon": 1}
"""Higher wins. Header evidence is exact; rules are validated patterns; the tagger is statistical; the
lexicon detector knows that words are a name or a place but guesses the subtype from a cue at best."""

DEFAULT_TYPE_PRIORITY: tuple[PhiType, ...] = (
    PhiType.SSN,
    PhiType.MEDICALRECORD,
    PhiType.HEALTHPLAN,
    PhiType.ACCOUNT,
    PhiType.LICENSE,
    PhiType.VEHICLE,
    PhiType.DEVICE,
    PhiType.BIOID,
    PhiType.EMAIL,
    PhiType.URL,
    PhiType.IPADDR,
    PhiType.PHONE,
    PhiType.FAX,
    PhiType.DATE,
    PhiType.AGE,
    PhiType.PATIENT,
    PhiType.DOCTOR,
    PhiType.USERNAME,
    PhiType.STREET,
    PhiType.ZIP,
    PhiType.CITY,
    PhiType.STATE,
    PhiType.COUNTRY,
    PhiType.HOSPITAL,
    PhiType.ORGANIZATION,
    PhiType.DEPARTMENT,
    PhiType.ROOM,
    PhiType.PROFESSION,
    PhiType.IDNUM,
    PhiType.LOCATION_OTHER,
)
"""Highest first. Types missing from a custom order rank below all listed ones."""


_Rank = tuple[int, int, float, int, int, str]


class Merger(Protocol):
    def merge(self, spans: Iterable[Span], text: str | None = None) -> list[Span]: ...


@dataclass(slots=True)
class _Piece:
    start: int
    end: int
    owner: Span
    """The (identical-extent-combined) input span that won this piece."""
    remainder: bool
    """True when ``owner`` lost some other part of its extent."""
    sources: frozenset[str]
    score: float
    explanations: list[str]

    @property
    def type(self) -> PhiType:
        return self.owner.type


class SpanMerger:
    """Union of detector outputs with priority-based conflict resolution (see the module docstring)."""

    def __init__(
        self,
        source_priority: Mapping[str, int] | None = None,
        type_priority: Sequence[PhiType] | None = None,
    ) -> None:
        self._source_priority = dict(DEFAULT_SOURCE_PRIORITY if source_priority is None else source_priority)
        order = tuple(DEFAULT_TYPE_PRIORITY if type_priority is None else type_priority)
        if len(set(order)) != len(order):
            raise ValueError("type_priority lists a type twice")
        # Higher number wins; unlisted types get 0, below every listed one.
        self._type_rank = {t: len(order) - i for i, t in enumerate(order)}
        # Each type's part of a rank, made once: an enum's ``.value`` is a property call per access.
        self._type_key = {t: (self._type_rank.get(t, 0), t.value) for t in PhiType}
        self._source_rank: dict[frozenset[str], int] = {}

    def _rank(self, span: Span) -> _Rank:
        # Spans share a handful of source sets, so their best priority is looked up, not recomputed; the
        # memo is per instance and bounded by the number of such sets (capped all the same).
        sources = span.sources
        src = self._source_rank.get(sources) if isinstance(sources, frozenset) else None
        if src is None:
            src = max((self._source_priority.get(s, 0) for s in sources), default=0)
            if isinstance(sources, frozenset) and len(self._source_rank) < _SOURCE_RANK_MEMO:
                self._source_rank[sources] = src
        type_key = self._type_key.get(span.type)
        type_rank, type_name = type_key or (self._type_rank.get(span.type, 0), span.type.value)
        return (src, type_rank, span.score, span.end - span.start, -span.start, type_name)

    def merge(self, spans: Iterable[Span], text: str | None = None) -> list[Span]:
        combined = self._combine_identical(spans)
        if not combined:
            return []
        pieces = self._split(combined)
        if text is not None:
            pieces = _absorb_remainders(pieces, text, self._rank)
        return _coalesce(pieces)

    def _combine_identical(self, spans: Iterable[Span]) -> list[Span]:
        groups: dict[tuple[int, int], list[Span]] = {}
        for s in spans:
            groups.setdefault((s.start, s.end), []).append(s)
        out: list[Span] = []
        for group in groups.values():
            if len(group) == 1:
                out.append(group[0])
                continue
            best = max(group, key=self._rank)
            out.append(
                Span(
                    best.start,
                    best.end,
                    best.type,
                    max(s.score for s in group),
                    frozenset().union(*(s.sources for s in group)),
                    _join([best.explanation, *(s.explanation for s in group)]),
                )
            )
        out.sort(key=lambda s: (s.start, s.end))
        return out

    def _split(self, spans: list[Span]) -> list[_Piece]:
        """Cut at every boundary and give each covered elementary segment to its best covering span."""
        bounds = sorted({b for s in spans for b in (s.start, s.end)})
        ranks = {id(s): self._rank(s) for s in spans}
        won: dict[int, list[tuple[int, int]]] = {}
        active: list[Span] = []
        nxt = 0
        for lo, hi in zip(bounds, bounds[1:], strict=False):
            active = [s for s in active if s.end > lo]
            while nxt < len(spans) and spans[nxt].start == lo:
                active.append(spans[nxt])
                nxt += 1
            if not active:
                continue
            best = max(active, key=lambda s: ranks[id(s)])
            runs = won.setdefault(id(best), [])
            if runs and runs[-1][1] == lo:
                runs[-1] = (runs[-1][0], hi)
            else:
                runs.append((lo, hi))
        by_id = {id(s): s for s in spans}
        pieces = [
            _Piece(
                lo,
                hi,
                by_id[k],
                (lo, hi) != (by_id[k].start, by_id[k].end),
                by_id[k].sources,
                by_id[k].score,
                [by_id[k].explanation],
            )
            for k, runs in won.items()
            for lo, hi in runs
        ]
        pieces.sort(key=lambda p: p.start)
        return pieces


def _absorb_remainders(
    pieces: list[_Piece], text: str, rank: Callable[[Span], _Rank]
) -> list[_Piece]:
    out = list(pieces)
    i = 0
    while i < len(out):
        p = out[i]
        if not p.remainder:
            i += 1
            continue
        left = out[i - 1] if i > 0 and out[i - 1].end == p.start else None
        right = out[i + 1] if i + 1 < len(out) and out[i + 1].start == p.end else None
        value = text[p.start : p.end]
        # A conjunction left between two pieces that beat its span ("Kessler and Farouk" read as a firm,
        # the names found by a rule) joins them: no word of the loser's type is left to stand alone.
        joined = left is not None and right is not None and value.strip().lower() in _CONJUNCTIONS
        if any(c.isalnum() for c in value) and not joined:
            i += 1
            continue
        # The neighbour that beat this remainder's owner is the one it overlapped; prefer the stronger.
        candidates = [n for n in (left, right) if n is not None and n.owner is not p.owner]
        if not candidates:
            i += 1
            continue
        target = max(candidates, key=lambda n: rank(n.owner))
        target.start = min(target.start, p.start)
        target.end = max(target.end, p.end)
        target.sources = target.sources | p.sources
        target.explanations.extend(p.explanations)
        del out[i]
    return out


def _coalesce(pieces: list[_Piece]) -> list[Span]:
    out: list[Span] = []
    cur: _Piece | None = None
    for p in pieces:
        if cur is not None and p.type is cur.type and p.start <= cur.end:
            cur.end = max(cur.end, p.end)
            cur.sources = cur.sources | p.sources
            cur.score = max(cur.score, p.score)
            cur.explanations.extend(p.explanations)
            continue
        if cur is not None:
            out.append(_to_span(cur))
        cur = _Piece(p.start, p.end, p.owner, p.remainder, p.sources, p.score, list(p.explanations))
    if cur is not None:
        out.append(_to_span(cur))
    return out


def _to_span(p: _Piece) -> Span:
    return Span(p.start, p.end, p.type, p.score, p.sources, _join(p.explanations))


def _join(explanations: Iterable[str]) -> str:
    seen: dict[str, None] = {}
    for e in explanations:
        for part in e.split(";"):
            part = part.strip()
            if part:
                seen.setdefault(part, None)
    return ";".join(seen)


def merge_spans(spans: Iterable[Span], text: str | None = None) -> list[Span]:
    """Merge with the default priorities; pass ``text`` so punctuation-only remainders are absorbed."""
    return SpanMerger().merge(spans, text)
