"""Trimming the tagger's over-long spans to the PHI inside them, before the other hygiene checks.

The tagger labels a run of tokens; where its run goes past the PHI it takes in words that are not PHI,
and the merger (a union) would keep them. ``SpanTrimmer.pieces`` returns what of a tagger-only span is
PHI, as zero, one or more spans:

* **Column gaps and line breaks.** A span across a tab, three spaces or more, or a line break that
  reaches into a field label or a heading (``Riverbend VNA      Agency``, ``LOG\\nBellcastle
  Apothecary``) loses the pieces that are only ordinary words, abbreviations or numbers. A name broken
  across a line (``Marguerite\\nOstrowski``) loses nothing and stays whole; across a blank line it is
  two values (``Dr. Hartley Brummell\\n\\nJoão, 68``) and comes apart.
* **A cue word before the name.** A relation, a staff role, an occupation or a contact verb inside the
  span (``Son Lucius``, ``courier Denny``, ``Called Keystone Health Plan``, ``Maplecrest nurse Chidi``)
  is cut off; the name after a relation is a PATIENT, after a staff role a DOCTOR, after another
  occupation a PATIENT; what comes before the cue stays only if it has a word that is no ordinary word
  (``Maplecrest``). Lower-case ordinary words before a person (``describes Tobias``) go too.
* **Two people joined by a conjunction** (``Bram Vukovic and Corey``): two PATIENT spans when two
  names stand before it and a first name after it; an institution that is only listed given names
  joined by commas and ``and`` (``Tess, Grant and Ronaldo``), one at least no surname, is those people,
  a PATIENT each (partners' surnames, ``Martin, Gregory and Ellis``, or ``&``, ``Garland & Reese``, are a
  firm).
* **A credential or occupation after a comma** closing a person (``Jules Baptiste, Paramedic``).
* **A list of logins read as one e-mail** (``n.adebisi, wferraro, diwuhartley``): a USERNAME each.
* **Lower-case words closing an institution** (``PRMC main lobby``), **a payer joined before it**
  (``Medicare + Granite Shield Health``) and **words before an
  e-mail address's local part** (``e-mail at the library: jo.ng [at] example [dot] com``).
* **A street after an institution** (``Grace Tabernacle on Quarry Road``): two spans, the second a STREET.
* **An extension's or pager's word** before a phone's digits (``ext 2241``): the digits alone.
* **A car after its model year** read as a street (``2016 Honda Civic``): the year alone, as a DATE.
* **A user name with blanks and an ordinary word in it** (``anion gap 24``, ``handle ritz_cracker_7``):
  only its parts that look like a handle, and a two-digit ordinal in it as an AGE (``wonderful 70th``).

Only the tagger's spans are trimmed: the other detectors' spans are validated evidence.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from deid_core.lexicon import Lexicons
from deid_core.lookalikes import is_street_word, model_year
from deid_core.trim_contacts import address_only, birthday, extension_digits, handle_like, listed_logins
from deid_core.trim_contacts import moved as _moved
from schemas import TAXONOMY, PhiCategory, PhiType, Span

# A column gap (tab, three spaces or more) or a line break, with the blanks around it; beside places and
# institutions also a sentence's end (a full stop after two lower-case letters, so not "St.", then a
# capital). Not beside people: sign-off initials end a sentence ("-- wa. Level 4 node").
_BREAK = re.compile(r"[ \t]*(?:\t| {3,}|\r?\n)[ \t\r\n]*")
_BREAK_OR_SENTENCE = re.compile(rf"{_BREAK.pattern}|(?<=[a-z]{{2}})\.[ \t]+(?=[A-Z])")
_WORD = re.compile(r"[^\W\d_]+(?:['’\-][^\W\d_]+)*|\d+[^\W_]*|[^\s\w]")
_LETTERS = re.compile(r"[^\W\d_]+")
_PERSON = frozenset({PhiType.PATIENT, PhiType.DOCTOR})
_INSTITUTIONS = frozenset({PhiType.ORGANIZATION, PhiType.HOSPITAL})
# The blank-separated parts of a span.
_PART = re.compile(r"\S+")
_CONJUNCTIONS = frozenset({"and", "&"})
# A list of given names: one capitalised word each (``Ray-Ray``), commas and "and" between.
_NAME_LIST = re.compile(r"[ \t]*,[ \t]*(?:and[ \t]+)?|[ \t]+and[ \t]+")
_GIVEN = re.compile(r"[A-Z][a-z]+(?:-[A-Z][a-z]+)?")
_JOINS = frozenset({"+", "/", "&", ","})
_STREET_JOINS = frozenset({"on", "at", "off"})
_RELATION, _STAFF, _ROLE, _VERB = "relation", "staff", "role", "verb"


class _Word(NamedTuple):
    """A word of a span. A named tuple, not a frozen dataclass: every trimmed tagger span makes a list of
    them, and a frozen dataclass takes several times as long to make."""

    start: int
    end: int
    text: str

    @property
    def low(self) -> str:
        return self.text.lower()


@dataclass(frozen=True, slots=True)
class SpanTrimmer:
    lexicons: Lexicons
    _cues: dict[tuple[str, ...], str] = field(init=False, repr=False, compare=False)
    _heads: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Built once: every cue phrase (as a tuple of lower-case words) and what it says of the name after.
        cues = self.lexicons.cues
        table: dict[tuple[str, ...], str] = {}
        for kind, phrases in (
            (_ROLE, {*self.lexicons.professions, *cues["extra_roles"]}),
            (_STAFF, cues["staff"] - cues["weak_staff"]),
            (_RELATION, cues["relations"]),
            (_VERB, cues["contact_verbs"] | cues["naming"]),
        ):
            for phrase in phrases:
                table[tuple(phrase.lower().split())] = kind
        object.__setattr__(self, "_cues", table)
        heads = (*cues["facility_heads"], *cues["organization_heads"], *cues["ward_tails"])
        object.__setattr__(self, "_heads", frozenset(w for p in heads for w in p.split()))

    def pieces(self, text: str, span: Span) -> list[Span]:
        """The parts of a tagger span that are PHI (see the module docstring); ``[span]`` when nothing
        is to be cut."""
        if span.type is PhiType.EMAIL:
            return listed_logins(text, span) or [address_only(text, span)]
        if span.type is PhiType.PHONE:
            return [extension_digits(text, span)]
        year = model_year(text[span.start : span.end])
        if year is not None:  # "2016 Honda Civic": the model year is a date, the car no street
            return [replace(span, start=span.start + year.start(1), end=span.start + year.end(1), type=PhiType.DATE)]
        out: list[Span] = []
        for piece in self._columns(text, span):
            for part in self._after_cue(text, piece):
                part = self._trailing_words_cut(text, self._leading_never_name_cut(text, part))
                for one in self._given_names(text, part) or self._conjoined(text, self._credential_after(text, part)):
                    if one.type is PhiType.USERNAME:
                        out.extend(self._handles(text, one))
                    else:
                        out.extend(_street_apart(text, one))
        return out

    # -- column gaps ----------------------------------------------------------------------------------

    def _columns(self, text: str, span: Span) -> list[Span]:
        """Cut at column gaps and line breaks; drop the pieces that are labels when a piece that is not
        remains. Nothing is cut when no piece is a label (a name broken across a line)."""
        start, end = _strip(text, span.start, span.end)
        if start >= end:
            return []
        bounds: list[tuple[int, int]] = []
        line_breaks: set[int] = set()  # ends of separators that hold a line break, and their starts
        paragraph = False  # a blank line: no value runs across one, so its sides are apart whatever they are
        pos = start
        breaks = _BREAK if span.type in _PERSON else _BREAK_OR_SENTENCE
        for m in breaks.finditer(text, start, end):
            bounds.append((pos, m.start()))
            if "\n" in m.group():
                line_breaks.update((m.start(), m.end()))
                paragraph = paragraph or m.group().count("\n") > 1
            pos = m.end()
        bounds.append((pos, end))
        if len(bounds) == 1:
            return [_moved(span, start, end)]
        # A surname may open the next line ("Marguerite\nSmith"); a column is never half a name.
        person = span.type in _PERSON
        kept = [
            (a, b) for a, b in bounds
            if not self._label(text[a:b], person=person and (a in line_breaks or b in line_breaks))
        ]
        if not kept:
            kept = bounds[:1]
        if len(kept) == len(bounds) and not paragraph:
            return [_moved(span, start, end)]
        return [_moved(span, a, b) for a, b in kept]

    def _label(self, value: str, *, person: bool) -> bool:
        """A field label or a heading word: one capitalised ordinary word or initialism, with digits or
        single letters at most (``MRN``, ``Agency``, ``62 M``, ``34F``, ``LOG``, ``Suite 210``). Two ordinary words
        may be a department (``Vascular Surgery``); a lower-case word is no label; with ``person`` (a line
        break beside a person) an ordinary word that is also a name (``Smith``) is not one either."""
        words = [w for w in _WORD.findall(value) if w[0].isalnum()]
        # a number, with a letter after it or not ("62", "34F": an age and a sex), is no word of a name
        long = [w for w in words if len(w) > 1 and not w[0].isdigit()]
        if len(words) > 2 or len(long) != 1:
            return not long and bool(words) and len(words) <= 2  # "62 M", "7"
        word = long[0]
        if not word[0].isupper():
            return False
        return initialism(word) or (self._ordinary(word) and not (person and self.lexicons.is_name(word)))

    # -- cue words ------------------------------------------------------------------------------------

    def _after_cue(self, text: str, span: Span) -> list[Span]:
        words = _words(text, span)
        if len(words) < 2:
            return [span]
        found = self._last_cue(words)
        if found is None:
            return [self._lead_trimmed(text, span, words)]
        i, n, kind = found
        after = words[i + n :]
        if after and after[0].text in {",", ":"}:
            after = after[1:]
        if not after or "\n" in text[words[i].end : after[0].start]:
            return [span]  # the cue and the name are on one line ("engineer\nDriver's license" is not)
        if kind == _VERB:
            if i != 0:
                return [span]
            return [_moved(span, after[0].start, span.end)]
        while len(after) > 1 and after[0].text.istitle() and self._ordinary(after[0].text) and not self.lexicons.is_name(after[0].text) and self._name_start(after[1:]):
            after = after[1:]  # "Baby Girl Whitcombe": a word of the role before the name
        if not self._name_start(after) or len(after) > 3 or any(w.low in self._heads for w in after):
            return [span]
        out: list[Span] = []
        before = words[:i]
        while before and (not before[-1].text[0].isalnum() or self._ordinary(before[-1].text)):
            before = before[:-1]  # "PRMC security officer": the role's own modifier goes with it
        if before and span.type not in _PERSON and span.type is not PhiType.USERNAME and any(
            _LETTERS.fullmatch(w.text) and not self._ordinary(w.text) for w in before
        ):
            out.append(_moved(span, before[0].start, before[-1].end))
        out.append(replace(_moved(span, after[0].start, span.end), type=self._person_type(span.type, kind)))
        return out

    def _last_cue(self, words: list[_Word]) -> tuple[int, int, str] | None:
        """The last cue phrase in ``words`` that leaves at least one word after it: index, length, kind."""
        best = None
        for i in range(len(words) - 1):
            for n in (3, 2, 1):
                key = tuple(w.low for w in words[i : i + n])
                kind = self._cues.get(key)
                if kind is not None and i + n < len(words):
                    best = (i, n, kind)
                    break
        return best

    def _lead_trimmed(self, text: str, span: Span, words: list[_Word]) -> Span:
        """A person after lower-case ordinary words (``describes Tobias``, ``church, loretta``): the
        words and a comma after them go when a name remains; never across a sentence's end."""
        if span.type not in _PERSON:
            return span
        k = 0
        while k < len(words) - 1 and (words[k].text == "," or (
            words[k].text.islower() and self._ordinary(words[k].text)
        )):
            k += 1
        if k == 0 or not self._name_start(words[k:]):
            return span
        return _moved(span, words[k].start, span.end)

    def _name_start(self, words: list[_Word]) -> bool:
        """The first word is a name: a known name or a capitalised word that is no ordinary word."""
        first = words[0].text
        if not first[0].isalpha():
            return False
        lex = self.lexicons
        return first.lower() in lex.first_names or (first[0].isupper() and (lex.is_name(first) or not lex.is_word(first)))

    def _person_type(self, original: PhiType, kind: str) -> PhiType:
        if kind == _RELATION:
            return PhiType.PATIENT
        if original in _PERSON:
            return original
        return PhiType.DOCTOR if kind == _STAFF else PhiType.PATIENT

    # -- conjunctions and credentials -----------------------------------------------------------------

    def _conjoined(self, text: str, span: Span) -> Iterator[Span]:
        """``Bram Vukovic and Corey``: two people when the left is two names (a known name or no ordinary
        word, then a capitalised word that is no ordinary word) and the right opens with a first name; a firm's partners (``Martin, Roman and Ellis``) stay one name."""
        words = _words(text, span)
        cut = next((i for i, w in enumerate(words) if w.low in _CONJUNCTIONS), None)
        if cut != 2 or cut == len(words) - 1 or not self._name_start(words[:1]) or not self._first_name(words[3]):
            yield span
            return
        surname = words[1].text
        if not (surname[0].isupper() and _LETTERS.match(surname) and not self._ordinary(surname)):
            yield span
            return
        kind = span.type if span.type in _PERSON else PhiType.PATIENT
        yield replace(_moved(span, words[0].start, words[cut - 1].end), type=kind)
        yield replace(_moved(span, words[cut + 1].start, span.end), type=kind)

    def _given_names(self, text: str, span: Span) -> list[Span]:
        """``Tess, Grant and Ronaldo`` read as a firm: a PATIENT span per name when an institution's span
        is two or more capitalised listed given names and nothing but commas and ``and`` between them,
        one of them at least no surname (``Martin, Gregory and Ellis`` is a firm of partners), and no pet
        word comes shortly before (``two dogs (Pip and Moss)``)."""
        if span.type not in _INSTITUTIONS:
            return []
        value = text[span.start : span.end]
        names = _NAME_LIST.split(value)
        lex = self.lexicons
        if len(names) < 2 or not all(_GIVEN.fullmatch(n) and n.lower() in lex.first_names for n in names):
            return []
        if all(n.lower() in lex.surnames for n in names):
            return []  # "Martin, Gregory and Ellis": partners' surnames, a firm
        before = text[max(0, span.start - 20) : span.start].lower()
        if any(w in lex.cues["pet_words"] for w in _LETTERS.findall(before)):
            return []  # "two dogs (Pip and Moss)": pets
        out, at = [], 0
        for name in names:
            at = value.index(name, at)
            out.append(replace(_moved(span, span.start + at, span.start + at + len(name)), type=PhiType.PATIENT))
            at += len(name)
        return out

    def _handles(self, text: str, span: Span) -> list[Span]:
        """A user name has no blank: of a tagger user name with an ordinary word or a name in capitals in
        it (``anion gap 24``, ``eGFR 38``, ``user kdoyle_22.``) only the parts that look like a handle stay, each a span of its own. Without
        an ordinary word (``bromhurst 5``, a ward in a lower-case chart) the span is left whole."""
        parts = [(m.start(), m.start() + len(m.group().rstrip(".,;:!?)"))) for m in _PART.finditer(text, span.start, span.end)]
        words = [text[a:b] for a, b in parts]
        if len(parts) < 2 or not any(w.isalpha() and (self.lexicons.is_word(w) or _capitals(w)) for w in words):
            return [span]
        out: list[Span] = []
        for (a, b), w in zip(parts, words, strict=True):
            if handle_like(w):
                out.append(_moved(span, a, b))
            elif birthday(w):
                out.append(replace(_moved(span, a, b), type=PhiType.AGE))  # "a happy 70th": an age reached
        return out

    def _trailing_words_cut(self, text: str, span: Span) -> Span:
        """``PRMC main lobby``, ``Holy Rood Parish rectory``: an institution's name does not end in
        lower-case words (other than a firm's or facility's head, ``inc``); they go when a capitalised
        word stays."""
        if span.type not in _INSTITUTIONS:
            return span
        words = _words(text, span)
        k = len(words)
        while k > 1 and words[k - 1].text.isalpha() and words[k - 1].text.islower() and words[k - 1].low not in self._heads:
            k -= 1
        if k == len(words) or not any(w.text[0].isupper() for w in words[:k]):
            return span
        return _moved(span, span.start, words[k - 1].end)

    def _leading_never_name_cut(self, text: str, span: Span) -> Span:
        """``Medicare + Granite Shield Health``: a never-a-name word (a public payer, a credential) and a
        joining sign before an institution's name are not part of it."""
        if span.type not in _INSTITUTIONS:
            return span
        words = _words(text, span)
        if len(words) < 3 or words[0].low not in self.lexicons.cues["not_names"] or words[1].text not in _JOINS:
            return span
        return _moved(span, words[2].start, span.end)

    def _first_name(self, word: _Word) -> bool:
        return word.text[0].isupper() and word.low in self.lexicons.first_names

    def _credential_after(self, text: str, span: Span) -> Span:
        """``Jules Baptiste, Paramedic``: a person's span ends before a comma and a credential or an
        occupation."""
        if span.type not in _PERSON:
            return span
        words = _words(text, span)
        for i, w in enumerate(words[1:-1], start=1):
            if w.text == "," and self._credential(" ".join(x.low for x in words[i + 1 :])):
                return _moved(span, span.start, words[i - 1].end)
        return span

    def _credential(self, phrase: str) -> bool:
        return phrase in self.lexicons.cues["not_names"] or phrase in self.lexicons.professions

    def _ordinary(self, word: str) -> bool:
        return self.lexicons.is_word(word.lower()) and word.lower() not in self.lexicons.first_names


def _street_apart(text: str, span: Span) -> list[Span]:
    """``Grace Tabernacle on Quarry Road``: an institution, then "on", "at" or "off" and capitalised words
    ending in a street's word, is two things: the institution and its STREET."""
    if span.type not in _INSTITUTIONS:
        return [span]
    words = _words(text, span)
    for k in range(1, len(words) - 2):
        after = words[k + 1 :]
        if words[k].text in _STREET_JOINS and all(w.text[0].isupper() for w in after) and is_street_word(after[-1].text):
            return [_moved(span, span.start, words[k - 1].end), replace(_moved(span, after[0].start, span.end), type=PhiType.STREET)]
    return [span]


def trimmable(span: Span) -> bool:
    """The types whose tagger spans are trimmed: names, places, organisations, e-mail addresses and
    phones (an extension or pager word before the digits: ``ext 2241`` -> ``2241``)."""
    return span.type in {PhiType.EMAIL, PhiType.PHONE} or TAXONOMY[span.type].category in {PhiCategory.NAME, PhiCategory.LOCATION}


def _words(text: str, span: Span) -> list[_Word]:
    return [_Word(m.start(), m.end(), m.group()) for m in _WORD.finditer(text, span.start, span.end)]


def _capitals(word: str) -> bool:
    """A lab's or test's name in capitals, perhaps after one lower-case letter (``eGFR``, ``BUN``, ``pH``
    is too short to count)."""
    return len(word) >= 3 and sum(c.isupper() for c in word) >= len(word) - 1


def initialism(word: str) -> bool:
    """An initialism or a side (``UM``, ``GFR``, ``MRN``, ``R``): upper case, four letters at most."""
    return word.isupper() and len(word) <= 4


_EDGE = frozenset(",;:")


def _strip(text: str, start: int, end: int) -> tuple[int, int]:
    """Without the blanks and list punctuation at the span's ends (``, Crawford General Hospital``,
    ``4400 Conestoga Pike, ``): no name, place or contact begins or ends with them."""
    while start < end and (text[start].isspace() or text[start] in _EDGE):
        start += 1
    while end > start and (text[end - 1].isspace() or text[end - 1] in _EDGE):
        end -= 1
    return start, end
