"""The header matcher: finds the values of a note's ``PatientHeader`` in the note text.

Header values are near-certain PHI, so every spelling of them the text may use is searched for: name
variants (last-first, initials, first or last name alone, hyphen parts, nicknames), identifiers and phones
with or without separators, the birth date in any common format, address parts with street abbreviations.

Each spelling is a ``Variant``, a token sequence with fixed separator patterns between the tokens
(``variant``). The note is folded once into the views they are looked up in: a lower-cased text of the
same length, its digits and its identifier characters without separators (with the way back to the
original offsets), its digit runs. Each variant is looked up by its first token (in an Aho-Corasick
automaton over the folded text, a dictionary of digit runs, a view without separators) and checked left
to right where that occurs. Nothing is compiled per header: a stream where every note has a new patient
builds a matcher per note, so a value's variants are made only for a note that contains one of its words
or digits (most notes name only some of a header's people and numbers; a name's nicknames, the birth
year and each part of the address count apart), and ``HeaderDetector`` keeps the recent matchers.

The result is the one ``re.finditer`` over the alternation of all variants (longest canonical spelling
first) would give: at the leftmost position where some variant matches, the first variant in that order
wins, and the scan resumes after its match.

Precision guards, the reasons for the less obvious rules:

* Single name tokens that are also English or clinical words (``Will``, ``May``, ``White``, ``Stone``,
  ``Heart``) and tokens of two letters (``Ed``, ``Al``: ``ED``) match only title-cased when alone; first
  name and surname together match in any case (``HOLLY BERRY``, not ``ED LI``). Single letters never
  match alone.
* Nicknames (one hop, from the shared lexicon: ``Bill`` for ``William`` and back) that are also words
  match only title-cased, and alone only after a title or a naming cue ("Mr. Will", "goes by Will").
* Bare initials (``JS``, ``J.S.``) match only upper-case, and not when they spell a clinical
  abbreviation (``MS``, ``CT``, ``PT``, ...).
* Two-letter state codes match only upper-case after the header's city or after a comma when a ZIP
  follows (``Boston, MA``, ``, MA 02115``), not after any comma: ``CAD, MI`` is not Michigan.
* Numbers (IDs, phones, dates, ZIPs) must not continue into a longer number, including across a
  single ``-``, ``.`` or ``/`` separator; identifiers shorter than 4 characters are not searched.
* Dates are searched only as full dates (with the year): a day and month alone are too common.

Explanations name the header field (``header=names``, ``header=names;variant=nickname``,
``header=address.city``), never a value.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from types import MappingProxyType

import ahocorasick

from deid_core.detect.header import names, values
from deid_core.detect.header.names import GLUED_NAME_MIN_LEN, ParsedName, parse_name
from deid_core.detect.header.variant import HEAD_MAX, SCORE, SOURCE, NoteView, Variant, fold, is_word_char
from deid_core.detect.header.words import CLINICAL_ABBREVIATIONS, COMMON_WORD_NAMES
from schemas import EnrichedNote, PatientHeader, PhiType, Span

_SPAN_SOURCES = frozenset({SOURCE})
_NO_WORDS: Mapping[str, bool] = MappingProxyType({})
Rank = tuple[int, bool, int, int, int]
"""Weight (negated: the longest canonical spelling first), nickname or not, the value's place in the
header, its source's place among the value's, the variant's place among the source's: the order a regex
alternation of all variants would have (a value's nicknames after its own spellings)."""
Ranked = tuple[Rank, Variant, int]
"""A variant, its rank and the hash of its ``spelling``."""
Group = tuple[str, tuple[str, ...], int, tuple[Ranked, ...]]
"""Variants looked up the same way (``Variant.lookup_keys``), found together."""
Candidate = tuple[int, Rank, int, Variant]
"""Where a match of the variant would start, its rank, where its first part is."""


@dataclass(slots=True)
class _Source:
    """The variants of one header value (or those derived from it), made on the first note that contains one of its triggers (most
    notes name only some of a header's people and numbers); with no triggers, made with the matcher."""

    build: Callable[[], Sequence[Variant]]
    order: int
    """The value's place in the header."""
    sub: int
    """The source's place among the value's: 0, its own spellings; 1, those derived from it (nicknames)."""
    words: Mapping[str, bool]
    """Folded words one of which every match contains: as a word (True) or at the start of one."""
    exact: tuple[str, ...]
    """Or: strings one of which every other match contains (case-sensitive)."""
    squeezed: tuple[tuple[str, str], ...]
    """Or: ``(view, key)``, a key every match has in that view of the note: in "ids" or "digits", or as a
    whole digit run ("runs")."""
    keys: tuple[str, ...] = ()
    """Folded first parts its variants are looked up by ("folded") that are not among ``words``: the
    note's word starts are searched for them too (with no triggers, they come from the variants)."""
    built: tuple[Group, ...] | None = None

    @property
    def eager(self) -> bool:
        return not (self.words or self.exact or self.squeezed)

    def groups(self) -> tuple[Group, ...]:
        if self.built is None:  # a benign race: two threads make equal tuples
            groups: dict[tuple[str, tuple[str, ...], int], list[Ranked]] = {}
            for k, v in enumerate(self.build()):
                rank = (-v.weight, v.derived, self.order, self.sub, k)
                groups.setdefault(v.lookup_keys, []).append((rank, v, hash(v.spelling)))
            self.built = tuple((how, keys, lead, tuple(vs)) for (how, keys, lead), vs in groups.items())
        return self.built

    def variants(self) -> list[Variant]:
        return [v for *_, vs in self.groups() for _, v, _ in vs]

    def wanted(self, view: NoteView) -> bool:
        return (
            self.eager
            or not self.words.keys().isdisjoint(view.word_starts)
            or any(e in view.text for e in self.exact)
            or any(
                key in (view.runs if name == "runs" else getattr(view, name).text)
                for name, key in self.squeezed
            )
        )


class HeaderMatcher:
    """The variants of one header. Safe to share between threads (its lazy parts are idempotent)."""

    __slots__ = ("_automaton", "_glued", "_sources")

    def __init__(self, sources: Sequence[_Source], glued: Sequence[tuple[str, PhiType]] = ()) -> None:
        self._sources = tuple(sources)
        self._glued = tuple(glued)
        keys: dict[str, bool] = {}  # folded key -> counts only as a whole word
        for s in sources:
            for key, whole in s.words.items():
                keys[key] = keys.get(key, True) and whole
            firsts = (
                [v.parts[0].alts for v in s.variants() if v.lookup_keys[0] == "folded"]
                if s.eager
                else [s.keys]
            )
            for alts in firsts:  # the folded first parts of its variants
                keys.update(dict.fromkeys(alts, False))
        keys.pop("", None)
        self._automaton: ahocorasick.Automaton | None = None
        if keys:  # values are ints (no Python objects held by the extension): length - 1, twice, + whole
            self._automaton = ahocorasick.Automaton(ahocorasick.STORE_INTS)
            for key, whole in keys.items():
                self._automaton.add_word(key, 2 * (len(key) - 1) + whole)
            self._automaton.make_automaton()

    def __len__(self) -> int:
        """The number of distinct variants searched for."""
        return len({v.spelling for s in self._sources for v in s.variants()})

    def find(self, text: str) -> list[Span]:
        if not text or not (self._sources or self._glued):
            return []
        view = NoteView(text)
        if self._automaton is not None:  # where its keys start a word (or are one)
            folded, n = view.folded, len(text)
            for end, value in self._automaton.iter(folded):
                at, whole = end - (value >> 1), value & 1
                if (at == 0 or not is_word_char(text[at - 1])) and not (
                    whole and end + 1 < n and is_word_char(text[end + 1])
                ):
                    view.word_starts.setdefault(folded[at : end + 1], []).append(at)
        spans: list[Span] = []
        pos = 0
        for start, _, at, v in sorted(self._candidates(view)):
            # Not inside the previous match, nor a lower-ranked variant where one matched
            if start >= pos and (end := v.end_at(text, view.folded, start, at)) is not None:
                spans.append(Span(start, end, v.type, SCORE, _SPAN_SOURCES, v.explanation))
                pos = end
        return spans + names.glued_name_spans(text, view.folded, self._glued, spans)

    def _candidates(self, view: NoteView) -> list[Candidate]:
        """Where each variant of the values the note may contain would start to match, one variant per
        spelling: where two values spell one alike ("De La Cruz" as one doctor's first, middle and last
        name and another person's surname), the first value's."""
        owned: dict[tuple[int, ...], tuple[Rank, int, Variant]] = {}
        for source in self._sources:
            if not source.wanted(view):
                continue
            for how, keys, lead, ranked in source.groups():
                anchors = (
                    [a for k in keys for a in view.find(how, k)] if len(keys) > 1 else view.find(how, keys[0])
                )
                for at in [a for p in anchors for a in range(max(0, p - lead), p + 1)] if lead else anchors:
                    for rank, v, spelling in ranked:
                        key = (at, spelling)
                        held = owned.get(key)
                        if held is not None and held[2].spelling != v.spelling:  # a hash collision
                            key = (at, spelling, id(v))
                            held = owned.get(key)
                        if held is None or rank[2:] < held[0][2:]:
                            owned[key] = (rank, at, v)
        # Most variants have no head and start where their first part is; the order here does not matter
        # (the caller sorts, and no two candidates share start, rank and place).
        out: list[Candidate] = [(at, rank, at, v) for rank, at, v in owned.values() if v.head is None]
        for rank, at, v in owned.values():
            if v.head is not None:
                out.extend((start, rank, at, v) for start in range(max(0, at - HEAD_MAX), at + 1))
        return out


def build_matcher(header: PatientHeader) -> HeaderMatcher:
    sources: list[_Source] = []

    def add(build: Callable[[], Sequence[Variant]], words: Mapping[str, bool] = _NO_WORDS, exact: tuple[str, ...] = (),
            squeezed: tuple[tuple[str, str], ...] = (), sub: int = 0, keys: tuple[str, ...] = ()) -> None:  # fmt: skip
        # A value's derived source (sub > 0) shares the place of the value, added just before it.
        order = (sources[-1].order + (sub == 0)) if sources else 0
        sources.append(_Source(build, order, sub, words, exact, squeezed, keys))

    for field_, type_, raws in (
        ("names", PhiType.PATIENT, header.names),
        ("next_of_kin", PhiType.PATIENT, header.next_of_kin),
        ("doctors", PhiType.DOCTOR, header.doctors),
    ):
        for name in filter(None, map(parse_name, raws)):
            words, exact = names.name_triggers(name)
            add(partial(names.name_variants, name, type_, field_), words=words, exact=exact)
            # Its nicknames apart: triggered by a nickname alone, so mostly not made (with no triggers,
            # the name has no nicknames and there is nothing to make).
            if nickname_words := names.nickname_triggers(name):
                add(partial(names.nickname_variants, name, type_, field_), words=nickname_words, sub=1)
    ids = [(header.mrn, PhiType.MEDICALRECORD, "mrn")] if header.mrn else []
    ids.extend((i.value, i.type, "identifiers") for i in header.identifiers)
    # The source system's key is PHI too when it shows up in text; short keys ("p1") are not searched.
    if len(values.strip_separators(header.patient_id)) >= 6 and any(c.isdigit() for c in header.patient_id):
        ids.append((header.patient_id, PhiType.IDNUM, "patient_id"))
    seen_ids: set[str] = set()
    for value, type_, field_ in ids:
        core = values.strip_separators(value)
        if len(core) >= 4 and core.lower() not in seen_ids:  # shorter ones are everywhere
            seen_ids.add(core.lower())
            # Its digits are together in the note's digits wherever it occurs.
            needle = ("digits", digits) if (digits := values.digits_of(core)) else ("ids", fold(core))
            add(partial(values.identifier_variants, core, type_, field_), squeezed=(needle,))
    if header.birth_date is not None:
        runs = tuple(("runs", run) for run in values.date_triggers(header.birth_date))
        months = values.month_names(header.birth_date.month)  # a worded date's first part
        add(partial(values.date_variants, header.birth_date, "birth_date"), squeezed=runs, keys=months)
    if header.address is not None:  # each part apart: most notes name none, few all
        addr = header.address
        place, country = values.place_variants(addr), values.country_variants(addr)  # one or cached
        zip_ = values.zip_trigger(addr)
        parts = [
            (partial(values.street_variants, addr), values.street_triggers(addr), (), ()),
            (partial(tuple, place), *_triggers(place)),
            (partial(values.zip_variants, addr), {}, (), (("digits", zip_),) if zip_ else ()),
            (partial(tuple, country), *_triggers(country)),
        ]
        # Parts with no triggers have no variants; the others share the address's place in the header.
        for sub, (build, words, exact, squeezed) in enumerate(p for p in parts if any(p[1:])):
            add(build, words=MappingProxyType(words), exact=exact, squeezed=squeezed, sub=sub)
    for digits in map(values.phone_digits, header.phones):
        if len(digits) >= 5:
            add(partial(values.phone_variants, digits), squeezed=(("digits", digits[-7:]),))
    for email in header.emails:
        if "@" in email:  # made here (one variant) to be ranked only for a note that contains it
            words, exact, squeezed = _triggers(found := values.email_variants(email))
            add(partial(tuple, found), words=MappingProxyType(words), exact=exact, squeezed=squeezed)
    return HeaderMatcher(sources, tuple(names.glued_name_parts(header).items()))


def _triggers(
    variants: Sequence[Variant],
) -> tuple[dict[str, bool], tuple[str, ...], tuple[tuple[str, str], ...]]:
    """``_Source`` triggers that hold exactly where one of ``variants`` is looked up somewhere: the keys of
    their look-ups (``NoteView.find``)."""
    words: dict[str, bool] = {}
    exact: list[str] = []
    squeezed: list[tuple[str, str]] = []
    for v in variants:
        how, keys, _ = v.lookup_keys
        if how == "folded":
            words.update(dict.fromkeys(keys, False))
        elif how == "exact":
            exact.extend(keys)
        else:
            squeezed.extend((how, key) for key in keys)
    return words, tuple(exact), tuple(squeezed)


class HeaderDetector:
    """Detector of header values in the note text, with a bounded per-instance cache of matchers."""

    name: str = SOURCE

    def __init__(self, cache_size: int = 1024) -> None:
        if cache_size < 0:
            raise ValueError("cache_size must be >= 0")
        self._cache_size = cache_size
        self._cache: OrderedDict[str, HeaderMatcher] = OrderedDict()
        self._lock = threading.Lock()

    def detect(self, note: EnrichedNote) -> list[Span]:
        if note.patient is None or not note.text:
            return []
        return self.matcher_for(note.patient).find(note.text)

    def matcher_for(self, header: PatientHeader) -> HeaderMatcher:
        # PatientHeader holds lists, so it is not hashable; its JSON is a faithful key.
        key = header.model_dump_json()
        with self._lock:
            matcher = self._cache.get(key)
            if matcher is not None:
                self._cache.move_to_end(key)
                return matcher
        matcher = build_matcher(header)
        if self._cache_size:
            with self._lock:
                self._cache[key] = matcher
                while len(self._cache) > self._cache_size:
                    self._cache.popitem(last=False)
        return matcher


__all__ = [
    "CLINICAL_ABBREVIATIONS",
    "COMMON_WORD_NAMES",
    "GLUED_NAME_MIN_LEN",
    "SCORE",
    "SOURCE",
    "HeaderDetector",
    "HeaderMatcher",
    "ParsedName",
    "build_matcher",
    "parse_name",
]
