"""Span hygiene: the corrections applied to detector spans before they are merged.

Invariants after ``SpanHygiene.clean``:

* **Whole words.** No span starts or ends inside a word: a span cut mid-word is widened to the word
  (never narrowed), so a surrogate never replaces part of a word (``stimu<lator>``).
* **Whole names.** A person span takes the adjacent surname-like word after it and the first name
  before it (``Dr. <span>Okonkwo``, ``Petra <span>Kowalski``), so replacing a first name never leaves
  the surname behind; lower-case particles go with the surname (``Joost van der Wiel``, ``Ms. de la Cruz``).
* **No run-ons.** A tagger span of a name, place or organisation is first cut to the PHI in it
  (``deid_core.trim``): not across a column gap into a label, not over a cue word before the name.
* **One sense per note.** A name or place word found once is PHI wherever else the note spells it, with
  cautions for ordinary words, short names and initials (``deid_core.propagation``).
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
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from deid_core.after_names import spans_after_names
from deid_core.column_names import names_in_columns
from deid_core.lexicon import MEDICAL_SUFFIXES, Lexicons, load_lexicons
from deid_core.list_names import names_in_lists
from deid_core.name_initials import initials_of_names
from deid_core.name_logins import logins_of_names
from deid_core.paired_names import names_in_pairs
from deid_core.propagation import NamePropagation
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
    _trimmer: SpanTrimmer = field(init=False, repr=False, compare=False)
    _particle_head: re.Pattern[str] = field(init=False, repr=False, compare=False)
    _propagation: NamePropagation = field(init=False, repr=False, compare=False)
    _look_alikes: TaggerLookAlikes = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        cues = self.lexicons.cues
        object.__setattr__(self, "_trimmer", SpanTrimmer(self.lexicons))
        object.__setattr__(self, "_particle_head", _particle_head(cues["titles"]))
        object.__setattr__(self, "_propagation", NamePropagation(self.lexicons))
        object.__setattr__(self, "_look_alikes", TaggerLookAlikes(self.lexicons))

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
        spread = self._propagation.spread(text, out)
        after = spans_after_names(text, spread)
        nicknames = [s for s in after if s.type in _PERSON]
        if nicknames:  # a nickname read after a name (LEROY "BUDDY") spreads as found names do ("Buddy was")
            spread = self._propagation.spread(text, spread + nicknames)
            after = [s for s in after if s.type not in _PERSON]
        derived = (
            initials_of_names(text, spread) + names_in_lists(text, spread) + names_in_columns(text, spread)
            + logins_of_names(text, spread)
        )
        found = spread + after + derived
        return found + names_in_pairs(text, found)

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
