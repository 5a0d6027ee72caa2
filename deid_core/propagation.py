"""One sense per note: names and places found once spread to their other mentions in the note.

``NamePropagation.spread`` adds a span wherever the note spells again a word of a name or place some
detector found (``Ximena`` after ``her daughter``, then ``ximena`` in a flowsheet line), with the cautions
its docstring lists for ordinary words, two-letter names, initials and given names that are function
words or a weekday's letters. Spans found are never changed; an added span is a ``lexicon`` span of
score 0.5, typed as the span it spread from. Used by ``deid_core.hygiene``.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from itertools import accumulate
from operator import itemgetter

from deid_core.detect.rules.staff_initials import capital_initials
from deid_core.lexicon import SPECIALTY_SUFFIXES, Lexicons
from schemas import PhiType, Span

# Types whose words spread to their other mentions in the note (not streets, usernames or professions:
# their words are ordinary or their form is the evidence).
_SPREADING = frozenset({
    PhiType.PATIENT, PhiType.DOCTOR, PhiType.HOSPITAL, PhiType.ORGANIZATION, PhiType.DEPARTMENT, PhiType.CITY,
})
_LETTERS = re.compile(r"[^\W\d_]{3,}")
# A two-letter given name (``Ro``, ``Vy``, ``Cy``) spreads too, but only from a person and only as written,
# capital then small letter: in other cases such pairs are initials and abbreviations (``RV``, ``ro``).
_SHORT_NAME = re.compile(r"(?<![\w'’])[A-Z][a-z](?!\w)(?!['’](?!s\b))")  # a possessive too: "Vy's"
# ... and in small letters where a person was found written so (``vy nguyen``, then ``vy gave``).
_SHORT_LOWER = re.compile(r"(?<![\w'’/.@\-])[a-z]{2}(?![\w'’/.@\-])")
_PERSONS = frozenset({PhiType.PATIENT, PhiType.DOCTOR})
# Two capitals standing alone: a person's initials once a detector has found them as such.
_INITIALS = re.compile(r"(?<![\w'’/\-])[A-Z]{2}(?![\w/\-])")
_NAME_WORD = re.compile(r"(?<![\w'’\-])[A-Z][A-Za-z]+(?![\w\-])")
_CAPITALISED = re.compile(r"(?<![\w'’\-])[A-Z][a-z]+(?![\w\-])")
# What ends a sentence or opens a line or a list item right before a word.
_SENTENCE_START = re.compile(r"(?:\A|[.!?:;\n]|^[ \t]*(?:[-*•]|\d+[.)]))[ \t\"“(]*\Z", re.MULTILINE)
# What follows a name, not a modal verb ("Will is", "Will's", "Will asked", "Will and Georgia").
_SAID_OF_A_PERSON = re.compile(
    r"(?:['’]s\b|,|[ \t]+(?:is|was|has|had|and|or|did|does|says|said|to|[a-z]+ed|[a-z]*[^s\W]s"
    # irregular past tenses: "Will became tearful", "Hope went home" (no modal or noun goes before them)
    r"|became|came|went|got|felt|took|told|made|gave|drove|left|ran|saw|brought|thought|knew|kept|spent"
    r"|sat|stood|slept|wrote|spoke|ate|fell|began|found|heard|lost|met|paid|sent|won)\b)"
)
# A digit or a slash after a weekday's letters: a date ("Thu 2/19", "Thu/Fri"), not a person.
_DATED_AFTER = re.compile(r"[ \t]*(?:\d|/)")
_WORD_RUN = re.compile(r"(?<![\w'’])\w+")
_LEXICON = "lexicon"
_TAGGER = "tagger"
_PROPAGATED_SCORE = 0.5


class NamePropagation:
    """Spreads found names and places over a note (see the module docstring); built once from the
    lexicons' cue lists."""

    __slots__ = ("lexicons", "_generic_words", "_never_spread", "_not_names")

    def __init__(self, lexicons: Lexicons) -> None:
        # Built once: the words of facility and organisation heads, ward tails and never-names.
        cues = lexicons.cues
        heads = (*cues["facility_heads"], *cues["organization_heads"], *cues["ward_tails"])
        self.lexicons = lexicons
        self._generic_words = frozenset(w for p in heads for w in p.split()) | cues["not_names"]
        self._never_spread = cues["function_words"] | cues["languages"]
        self._not_names = cues["not_names"] | cues["titles"]

    def spread(self, text: str, spans: list[Span]) -> list[Span]:
        """One sense per note: a name or place word found once (``Ximena`` after ``her daughter``) is
        PHI wherever else the note spells it, in any case (``ximena`` in a flowsheet line). Only words
        that are not ordinary English words, of three letters or more, spread; not generic words of place
        names (``rehab``, ``geriatrics``), which name no one place, nor languages (``interpreter (Swedish,
        Birgitta)`` makes no name of ``Swedish is his first language``). A person's given name that is an
        ordinary word (``Will``, ``Hope``, ``Bo``) spreads only capitalised, and at a sentence's start only
        when what follows reads as said of a person (``Will is``, ``Will asked``; not ``Will call``). A
        two-letter name spreads as written (``Vy``), and in small letters when a person was found written in
        small letters (``vy nguyen``, then ``vy gave``) and it is no word, abbreviation, title or relation.
        A given name that is a function word or a weekday's letters (``An``, ``Thu``) spreads only from the
        first or last word of a full name (``Thu Pham-Delgado``, ``Nguyen Thi An``), or from itself alone
        where a rule or a cue found it (``grandson An (6)``), as the words do, and never before a digit or a
        slash (``Thu 2/19``, ``Mon/Thu``)."""
        types: dict[str, PhiType] = {}
        short: dict[str, PhiType] = {}
        worded: dict[str, PhiType] = {}  # a given name that is also a word ("Will", "Hope")
        weak: dict[str, PhiType] = {}  # ... or a function word or a weekday's letters ("An", "Thu")
        never = self._never_spread
        for span in spans:
            if span.type not in _SPREADING:
                continue
            for word in _LETTERS.findall(text, span.start, span.end):
                low = word.lower()
                if low not in types and not self.lexicons.is_word(low) and low not in never and not self._generic(low):
                    types[low] = span.type
            if span.type in _PERSONS:
                for m in _SHORT_NAME.finditer(text, span.start, span.end):
                    if not self.lexicons.is_word(m.group().lower()):
                        short.setdefault(m.group(), span.type)
                value = text[span.start : span.end]
                if _INITIALS.fullmatch(value) and capital_initials(value):
                    short.setdefault(value, span.type)  # staff initials ("HV") sign more entries than one
                if value.islower():  # a log that writes people in lower case: "vy nguyen", later "vy gave"
                    for m in _SHORT_LOWER.finditer(text, span.start, span.end):
                        if self._lower_short_name(m.group()):
                            short.setdefault(m.group(), span.type)
                words = _NAME_WORD.findall(text, span.start, span.end)
                for word in words:
                    low = word.lower()
                    if low not in self.lexicons.first_names:
                        continue
                    if low in never or low in self._not_names:
                        parts = value.split()
                        named = (len(parts) >= 2 and word in (parts[0], parts[-1])) or (
                            parts == [word] and span.sources != {_TAGGER}  # "grandson An (6)": a rule's or a cue's
                        )
                        if named and self._weak_name_word(low):
                            # "An Nguyen-Hale", "Thu Pham-Delgado", "Nguyen Thi An": a given name that is a
                            # function word or a weekday's letters spreads from a full name (first or last
                            # word: family names come first in Vietnamese), never before a digit or a slash
                            weak.setdefault(word[0].upper() + low[1:], span.type)
                    elif self.lexicons.is_word(low) and not self._generic(low):
                        worded.setdefault(word[0].upper() + low[1:], span.type)
        if not types and not short and not worded and not weak:
            return spans
        covered = _Covered(spans)
        runs = (
            _word_runs_of(text, types) + _short_runs_of(text, short) + _worded_runs_of(text, worded)
            + [run for run in _worded_runs_of(text, weak) if not _DATED_AFTER.match(text, run[1])
               and text[run[0] - 1 : run[0]] not in ("/", "-")]
        )
        extra = [
            Span(start, end, found, _PROPAGATED_SCORE, frozenset({_LEXICON}), "propagated")
            for start, end, found in (
                _in_handle(text, run) for run in runs if not covered.contains(run[0], run[1])
            )
        ]
        return spans + extra

    def _weak_name_word(self, low: str) -> bool:
        """A given name that is a function word or a never-name by its letters (``an``, ``thu``), but no
        title, credential or language."""
        cues = self.lexicons.cues
        return low not in cues["titles"] and low not in cues["languages"] and low not in cues["credentials"]

    def _lower_short_name(self, word: str) -> bool:
        """Two small letters that a lower-case person's name holds and that are no word, unit, route,
        abbreviation, title or relation (``vy``, ``ty``; not ``an``, ``mg``, ``po``, ``lt``, ``gf``)."""
        cues = self.lexicons.cues
        return not (
            self.lexicons.in_use(word) or word in self._never_spread or word in cues["clinical_abbreviations"]
            or word in cues["not_initials"] or word in self._not_names or word in cues["relations"]
            or word in cues["officer_titles"]
        )

    def _generic(self, low: str) -> bool:
        """A word of a place's name that names no one place: a facility's head (``rehab``, ``hospice``),
        a specialty (``geriatrics``), a credential (``ATC``)."""
        return low in self._generic_words or low.endswith(SPECIALTY_SUFFIXES)


def _word_runs_of(text: str, types: dict[str, PhiType]) -> list[tuple[int, int, PhiType]]:
    """The word-character runs of ``text`` (``_WORD_RUN``) whose lower case is a key of ``types``, in text
    order. The keys are lower-cased letter runs, so a run with a digit or an underscore never matches."""
    if not text.isascii():
        # Every run looked up: cheaper than compiling an alternation of the keys per note.
        return [
            (m.start(), m.end(), found)
            for m in _WORD_RUN.finditer(text)
            if (found := types.get(m.group().lower())) is not None
        ]
    # ASCII: lower() keeps every offset, and a handful of keys found with str.find (in C) beats a regex
    # match object per word of the note. A hit is a run when no word character or apostrophe is before
    # it and no word character after it (ASCII's \w is isalnum() or "_").
    low, n, out = text.lower(), len(text), []
    for key, found in types.items():
        size = len(key)
        at = low.find(key)
        while at >= 0:
            end = at + size
            if (at == 0 or not (low[at - 1].isalnum() or low[at - 1] in "_'")) and (
                end == n or not (low[end].isalnum() or low[end] == "_")
            ):
                out.append((at, end, found))
            at = low.find(key, at + 1)
    out.sort(key=itemgetter(0))  # one run per start: the order finditer gives
    return out


def _short_runs_of(text: str, names: dict[str, PhiType]) -> list[tuple[int, int, PhiType]]:
    """The mentions of two-letter names and initials in ``text``, spelled exactly as found (``Ro``, not ``RO``
    or ``ro``; ``HV``; ``vy`` where a person was found in small letters)."""
    if not names:
        return []
    # Small-letter keys are rare: their scan (every two-letter word of the note) runs only when there are some.
    shapes = (_SHORT_NAME, _INITIALS, _SHORT_LOWER) if any(k.islower() for k in names) else (_SHORT_NAME, _INITIALS)
    return [(m.start(), m.end(), found) for rx in shapes for m in rx.finditer(text) if (found := names.get(m.group())) is not None]


def _worded_runs_of(text: str, names: dict[str, PhiType]) -> list[tuple[int, int, PhiType]]:
    """The capitalised mentions of people's names that are ordinary words (``Will``): anywhere but at a
    sentence's start, and there only before what is said of a person (``Will is``, ``Will asked``)."""
    if not names:
        return []
    out = []
    for m in _CAPITALISED.finditer(text):
        found = names.get(m.group())
        if found is None:
            continue
        if _SENTENCE_START.search(text, max(0, m.start() - 4), m.start()) and not _SAID_OF_A_PERSON.match(text, m.end()):
            continue  # "Will call back tomorrow.": the modal, not the man
        out.append((m.start(), m.end(), found))
    return out


# A login in lower case that a name is part of ("zosia.k", "k.zosia"): word runs joined by dots or
# underscores, with no space, and no capital anywhere (a missing space after a full stop, "Zosia.She",
# has one).
_LOWER_HANDLE = re.compile(r"[a-z0-9]+(?:[._][a-z0-9]+)+")


def _in_handle(text: str, run: tuple[int, int, PhiType]) -> tuple[int, int, PhiType]:
    """A name's other mention inside a lower-case login (``from zosia.k``) is the login: the whole of it,
    a USERNAME, so no part of the handle is left for a reader to recognise."""
    start, end, found = run
    if not ((end < len(text) and text[end] in "._") or (start > 0 and text[start - 1] in "._")):
        return run
    lo = start
    while lo > 0 and (text[lo - 1].isalnum() or text[lo - 1] in "._"):
        lo -= 1
    hi = end
    while hi < len(text) and (text[hi].isalnum() or text[hi] in "._"):
        hi += 1
    handle = _LOWER_HANDLE.fullmatch(text, lo, hi) or _LOWER_HANDLE.fullmatch(text, lo, hi - 1)
    if handle is None or "@" in text[max(0, lo - 1) : hi + 1]:
        return run  # not a handle, or part of an e-mail (found by the rules)
    return handle.start(), handle.end(), PhiType.USERNAME


class _Covered:
    """The spans' extents, asked whether one of them holds ``start:end``: a binary search over the starts
    and the furthest end reached so far, instead of a scan of every span per word."""

    __slots__ = ("_reach", "_starts")

    def __init__(self, spans: Sequence[Span]) -> None:
        covered = sorted((s.start, s.end) for s in spans)
        self._starts = [s for s, _ in covered]
        self._reach = list(accumulate((e for _, e in covered), max))

    def contains(self, start: int, end: int) -> bool:
        # Some span starts at or before ``start`` and ends at or after ``end``.
        i = bisect_right(self._starts, start)
        return i > 0 and self._reach[i - 1] >= end
