"""Span hygiene: the corrections applied to detector spans before they are merged.

Invariants after ``SpanHygiene.clean``:

* **Whole words.** No span starts or ends inside a word: a span cut mid-word is widened to the word
  (never narrowed), so a surrogate never replaces part of a word (``stimu<lator>``).
* **Whole names.** A person span takes the adjacent surname-like word after it and the first name
  before it (``Dr. <span>Okonkwo``, ``Petra <span>Kowalski``), so replacing a first name never leaves
  the surname behind; lower-case particles go with the surname (``Joost van der Wiel``, ``Ms. de la Cruz``).
* **No run-ons.** A tagger span of a name, place or organisation is first cut to the PHI in it
  (``deid_core.trim``): not across a column gap into a label, not over a cue word before the name.
* **Ages and nicknames after names.** The number right after a person (``Diego (11)``, ``Hryhorenko,
  61;``) is an AGE, a capitalised word in quotes right after one (``Oksana "Ox"``) the same person
  (``deid_core.after_names``).
* **Names paired with persons.** The other half of ``Ro + Tessa``, ``Marco / mt`` or ``-OF/lz`` where one
  half is a person, when it has a name's shape (``deid_core.paired_names``).
* **Names in another script.** A tagger span of letters outside the Latin script only (``陳玉蘭``,
  ``Стоян Петров``) is a PATIENT whatever type the tagger guessed.
* **Names read as contacts.** A tagger e-mail, URL or user name with no ``@``, no spelled-out "at"
  or "dot", no digit and only capitalised words is a person (``Sinéad Ó Dálaigh``: the character table
  lacks accented letters), typed PATIENT; so is a tagger e-mail or URL of lower-case words that start and
  end with listed names (``vo, thanh binh``). A tagger e-mail that is one login-shaped token with no
  ``@`` is a USERNAME (``jpratt.nb``).
* **No statistical look-alikes.** Spans of the tagger (the only detector that guesses from shape) are
  dropped when they cannot be PHI (``deid_core.tagger_lookalikes`` lists the cases).

Spans of the header, the rules and the lexicon are never dropped: they are validated evidence.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from itertools import accumulate
from operator import itemgetter

from deid_core.after_names import spans_after_names
from deid_core.detect.rules.staff_initials import capital_initials
from deid_core.lexicon import MEDICAL_SUFFIXES, Lexicons, load_lexicons
from deid_core.list_names import names_in_lists
from deid_core.name_initials import initials_of_names
from deid_core.name_logins import logins_of_names
from deid_core.paired_names import names_in_pairs
from deid_core.shapes import no_address
from deid_core.tagger_lookalikes import PERSON as _PERSON
from deid_core.tagger_lookalikes import TaggerLookAlikes
from deid_core.trim import SpanTrimmer, initialism, trimmable
from schemas import PhiType, Span

_TAGGER = "tagger"
# One or two spaces: a tab or a wider run is a column gap, and the word beyond it the next field's label
# ("CASTELLANOS, IMANI      Grade 7"), not the rest of the name.
_NEXT_WORD = re.compile(r" {1,2}([A-Z][\w'’\-]*)")
_PREV_WORD = re.compile(r"([A-Z][\w'’\-]*) {1,2}$")
# Lower-case particles of surnames ("Joost van der Wiel", "Ms. de la Cruz", "Ana da Silva"): a name ends at
# the capitalised word after them, and begins at them after a title or a first name.
_PARTICLES = r"(?:(?:van|von|de|del|della|der|den|di|da|du|dos|das|ter|ten|la|le) ){1,3}"
_PARTICLE_TAIL = re.compile(rf" ({_PARTICLES}[A-Z][\w'’\-]*)")


def _particle_head(titles: frozenset[str]) -> re.Pattern[str]:
    """Particles after a capitalised word or an abbreviated title ("Dr. de la Cruz", "Fr. van Dyke"), or
    opening a line or a field's value ("Name: van der Berg, Anneke": a surname first, as forms write it)."""
    dotted = "|".join(sorted(map(re.escape, titles), key=len, reverse=True))
    return re.compile(rf"(?:(?:\b(?i:{dotted})\.|\b[A-Z][\w'’\-]*) |(?:^|[:\n])[ \t]*)({_PARTICLES})$")


_SPECIALTY_SUFFIX = ("ology", "iatry", "ics")
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
_PROPAGATED_SCORE = 0.5
# Contact types the tagger gives to names it cannot read (letters its character table lacks, such as
# accents): with no "@", no "at"/"dot", no digit and only capitalised words, the span is a person.
_CONTACT_GUESSES = frozenset({PhiType.EMAIL, PhiType.URL, PhiType.USERNAME})
# One login-shaped token: small letters, digits, dots or underscores, no "@" ("mosei", "jpratt.nb").
_BARE_LOGIN = re.compile(r"[a-z][a-z0-9._]{2,30}")
_CAPITALISED_WORD = re.compile(r"[^\W\d_][^\W\d_'’\-]*(?:['’\-][^\W\d_]+)*")


def _other_script_name(value: str) -> bool:
    """Words of letters outside the Latin script only, no digit (``陳玉蘭``, ``박순자``, ``Стоян Петров``):
    the tagger's character table knows Latin letters, so it guesses a type from the digits and symbols
    around such a name; the notes write people, not places or numbers, in their native script."""
    letters = [c for c in value if c.isalpha()]
    return (
        bool(letters)
        and not any(c.isdigit() for c in value)
        and all(c.isalpha() or c in " '-\u00b7" for c in value)
        and not any(c.isascii() or unicodedata.name(c, "").startswith("LATIN") for c in letters)
    )


def _capitalised_name(value: str) -> bool:
    """Two or more words, each capitalised letters only, and nothing else but spaces ("Zoë Lund")."""
    words = value.split()
    return (
        len(words) >= 2
        and no_address(value)
        and all(_CAPITALISED_WORD.fullmatch(w) and w[0].isupper() for w in words)
        and any(len(w) > 1 for w in words)
    )


@dataclass(frozen=True, slots=True)
class SpanHygiene:
    lexicons: Lexicons
    _generic_words: frozenset[str] = field(init=False, repr=False, compare=False)
    _trimmer: SpanTrimmer = field(init=False, repr=False, compare=False)
    _particle_head: re.Pattern[str] = field(init=False, repr=False, compare=False)
    _never_spread: frozenset[str] = field(init=False, repr=False, compare=False)
    _look_alikes: TaggerLookAlikes = field(init=False, repr=False, compare=False)
    _not_names: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Built once: the words of facility and organisation heads, ward tails and never-names.
        cues = self.lexicons.cues
        heads = (*cues["facility_heads"], *cues["organization_heads"], *cues["ward_tails"])
        object.__setattr__(self, "_generic_words", frozenset(w for p in heads for w in p.split()) | cues["not_names"])
        object.__setattr__(self, "_trimmer", SpanTrimmer(self.lexicons))
        object.__setattr__(self, "_particle_head", _particle_head(cues["titles"]))
        object.__setattr__(self, "_never_spread", cues["function_words"] | cues["languages"])
        object.__setattr__(self, "_look_alikes", TaggerLookAlikes(self.lexicons))
        object.__setattr__(self, "_not_names", cues["not_names"] | cues["titles"])

    def clean(self, text: str, spans: Sequence[Span]) -> list[Span]:
        out: list[Span] = []
        for span in spans:
            tagger_only = _TAGGER in span.sources and len(span.sources) == 1
            for piece in self._trimmer.pieces(text, span) if tagger_only and trimmable(span) else (span,):
                piece = _whole_words(text, piece)
                if tagger_only and self._look_alikes.rejects(text, piece):
                    continue
                if tagger_only and piece.type in _CONTACT_GUESSES:
                    piece = self._contact_guess(text[piece.start : piece.end], piece)
                if tagger_only and piece.type not in _PERSON and _other_script_name(text[piece.start : piece.end]):
                    piece = replace(piece, type=PhiType.PATIENT)  # "CHAN, YUK LAN (陳玉蘭)" read as a record number
                if piece.type in _PERSON:
                    piece = self._whole_name(text, piece)
                out.append(piece)
        spread = self._propagate(text, out)
        derived = initials_of_names(text, spread) + names_in_lists(text, spread) + logins_of_names(text, spread)
        found = spread + spans_after_names(text, spread) + derived
        return found + names_in_pairs(text, found)

    def _propagate(self, text: str, spans: list[Span]) -> list[Span]:
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
        first word of a full name (``Thu Pham-Delgado``), as the words do, and never before a digit or a
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
                for i, word in enumerate(words):
                    low = word.lower()
                    if low not in self.lexicons.first_names:
                        continue
                    if low in never or low in self._not_names:
                        if i == 0 and len(value.split()) >= 2 and value.startswith(word) and self._weak_name_word(low):
                            # "An Nguyen-Hale", "Thu Pham-Delgado": a given name that is a function word or
                            # a weekday's letters spreads from a full name, never before a digit or a slash
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

    def _contact_guess(self, value: str, piece: Span) -> Span:
        """A tagger e-mail, URL or user name that is no contact: names in words (``Sinéad Ó Dálaigh``; an
        e-mail's ``hank ostrander`` or ``vo, thanh binh`` in a lower-case log) are a PATIENT, and an "e-mail" with
        no ``@`` and no spelled-out "at" that is one login-shaped token (``by mosei``, ``jpratt.nb``) a
        USERNAME."""
        if _capitalised_name(value) or (piece.type is not PhiType.USERNAME and self._lower_case_name(value)):
            return replace(piece, type=PhiType.PATIENT)  # "Sinéad Ó Dálaigh" read as an e-mail
        if piece.type is PhiType.EMAIL and _BARE_LOGIN.fullmatch(value):
            return replace(piece, type=PhiType.USERNAME)
        return piece

    def _lower_case_name(self, value: str) -> bool:
        """Two to four lower-case words of letters (a comma after the first: ``vo, thanh binh``), the first
        and the last a listed given name or surname, the first no ordinary word, and no address."""
        words = value.replace(",", " ", 1).split()
        if not 2 <= len(words) <= 4 or not no_address(value):
            return False
        if not all(_CAPITALISED_WORD.fullmatch(w) and w.islower() for w in words):
            return False
        lex = self.lexicons
        if lex.in_use(words[0]):
            return False  # "rusty cleat grill", "net mender": words first
        return all(w in lex.first_names or w in lex.surnames for w in (words[0], words[-1]))

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
        return low in self._generic_words or low.endswith(_SPECIALTY_SUFFIX)

    def _whole_name(self, text: str, span: Span) -> Span:
        start, end = span.start, span.end
        tail = _PARTICLE_TAIL.match(text, end, min(len(text), end + 40))
        if tail is not None and self._surname_like(tail.group(1).rsplit(" ", 1)[-1]):
            end = tail.end(1)
        elif (nxt := _NEXT_WORD.match(text, end, min(len(text), end + 40))) is not None and self._surname_like(
            nxt.group(1)
        ):
            end = nxt.end(1)
        head = self._particle_head.search(text, max(0, start - 40), start)
        if head is not None:
            start = head.start(1)
        prev = _PREV_WORD.search(text, max(0, start - 40), start)
        # A word in capitals before a name that is not ("DOB April") is a label, not its first name.
        if prev is not None and self._first_name_like(prev.group(1)) and not (
            prev.group(1).isupper() and not text[span.start : span.end].isupper()
        ):
            start = prev.start(1)
        return span if (start, end) == (span.start, span.end) else replace(span, start=start, end=end)

    def _surname_like(self, word: str) -> bool:
        low = word.lower()
        if low.endswith(MEDICAL_SUFFIXES) or low in self.lexicons.cues["function_words"]:
            return False
        if initialism(word):  # "MD", "ICU": not a surname
            return False
        return low in self.lexicons.surnames or not self.lexicons.is_word(low)

    def _first_name_like(self, word: str) -> bool:
        low = word.lower()
        return low in self.lexicons.first_names and not self.lexicons.is_word(low) and low not in self.lexicons.cues["not_names"]


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
    or ``ro``; ``HV``)."""
    if not names:
        return []
    return [
        (m.start(), m.end(), found)
        for rx in (_SHORT_NAME, _INITIALS, _SHORT_LOWER)
        for m in rx.finditer(text)
        if (found := names.get(m.group())) is not None
    ]


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


def _whole_words(text: str, span: Span) -> Span:
    """Widen over letters that continue a cut word, and digits that continue a cut number; a change from
    letters to digits is a boundary (``68M`` is an age and a sex, ``Results02/20`` a word and a date)."""
    start, end = span.start, span.end
    while start > 0 and _same_run(text[start - 1], text[start]):
        start -= 1
    while end < len(text) and _same_run(text[end - 1], text[end]):
        end += 1
    return span if (start, end) == (span.start, span.end) else replace(span, start=start, end=end)


def _same_run(a: str, b: str) -> bool:
    return (a.isalpha() and b.isalpha()) or (a.isdigit() and b.isdigit())


def build_hygiene(lexicons: Lexicons | None = None) -> SpanHygiene:
    return SpanHygiene(load_lexicons() if lexicons is None else lexicons)
