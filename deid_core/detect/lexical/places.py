"""Places and organisations the rules and the header miss: facilities, wards, cities, employers, schools.

* **Known institutions**: names from the hospital list in any case, their abbreviations (``MGH``,
  ``OHSU``) in upper case only.
* **Facilities by their head word**: capitalised words before a facility head (``Dunmore General``,
  ``Saint Valery Medical Center``, ``Maple Ridge Nursing Home``) -> HOSPITAL; before an organisation
  head (``Lincoln Elementary``, ``St. Brigid's Church``) -> ORGANIZATION.
* **Wards**: a capitalised word that is not an ordinary word, a unit number and optionally a wing or
  unit (``Bradley 2 North``, ``Hartwell 6 ICU``); without a wing word only after ``to``/``on``/
  ``from``/``at`` and not followed by a dose (``Keppra 500 bid`` is a drug).
* **Cities, states, countries** from the gazetteer, title-cased, when not ordinary words (``Mobile``,
  ``Independence`` are skipped).
* **Employers and schools** after a cue (``works at``, ``retired from``, ``attends``): the capitalised
  words that follow.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from deid_core.detect.lexical.tokens import Token, TokenView
from deid_core.generic_facilities import generic_facility, generic_words
from deid_core.lexicon import Lexicons
from deid_core.textfold import fold_accents
from schemas import EnrichedNote, PhiType, Span

SOURCE = "lexicon"
_SCORE = 0.7
_MAX_NAME = 5
_WARD_CUES = frozenset({"to", "on", "from", "at", "in"})
_DOSE_WORDS = frozenset({"mg", "mcg", "g", "ml", "units", "bid", "tid", "qid", "qd", "daily", "prn", "q", "x", "%"})
# "Saint Valery Medical Center (SVMC)": the short form a note defines right after the name.
_DEFINED = re.compile(r"\s*[(\[]\s*([A-Z]{2,6})\s*[)\]]")
_CONNECTORS = frozenset({"of", "the", "and", "&", "for", "st", "st.", "saint", "mt", "mount"})
# Connectors that may open a name: a saint's or a mountain's ("St. Aldric", "Mount Carmel").
_NAME_OPENERS = frozenset({"st", "st.", "saint", "mt", "mount"})
# A saint's name opening a facility's name, inside the span or just before it: its short form spells
# the "S" ("SAMC" of "St. Aldric Medical Center").
_SAINT_IN = re.compile(r"(?:St\.?|Saint)\s+")
_SAINT_BEFORE = re.compile(r"\b(?:St\.?|Saint)\s+$")
_HEAD_INNER = frozenset({"on", "of", "and", "&", "the", "for"})
# How far before an airport's code a word of air travel may stand ("flight from BOS to SFO").
_TRAVEL_REACH = 4


class PlacesDetector:
    name = SOURCE

    def __init__(self, lexicons: Lexicons) -> None:
        self._lex = lexicons
        cues = lexicons.cues
        self._function = cues["function_words"]
        # "Foley" is a town in Alabama and a catheter.
        self._not_places = cues["not_names"] | cues["eponyms"] | cues["instrument_eponyms"]
        self._eponym_heads = cues["place_eponym_heads"]
        self._facility = _by_last(cues["facility_heads"] | cues["extra_facility_heads"])
        self._organization = _by_last(cues["organization_heads"] | cues["extra_organization_heads"])
        self._org_cues = _by_first(cues["organization_cues"])
        self._ward_tails = cues["ward_tails"]
        self._airport_names = cues["airport_names"]
        self._airport_codes = cues["airport_codes"]
        self._airports = self._airport_names | self._airport_codes
        self._travel_words = cues["travel_words"]
        self._head_words = frozenset(self._facility) | frozenset(self._organization)
        self._generic = generic_words(lexicons)
        self._person_titles = cues["titles"] | cues["officer_titles"]
        self._hospitals = _by_first(lexicons.hospitals)
        # Lower-case forms that a capitalised token must have for the per-token tests to look further.
        self._abbreviation_lows = frozenset(fold_accents(a.lower()) for a in lexicons.hospital_abbreviations)
        self._place_lows = lexicons.cities | lexicons.countries | frozenset(lexicons.us_states.values())
        self._multiword_places = _by_first(
            frozenset(p for p in (*lexicons.cities, *lexicons.us_states.values(), *lexicons.countries) if " " in p)
        )

    def detect(self, note: EnrichedNote) -> list[Span]:
        return self.spans(TokenView(note.text)) if note.text else []

    def spans(self, view: TokenView) -> list[Span]:
        out: dict[tuple[int, int], Span] = {}
        found = [*self._institutions(view), *self._headed(view), *self._employers(view)]
        for start, end, type_, why in (
            *found,
            *self._abbreviations(view, found),
            *self._wards(view),
            *self._gazetteer(view),
            *self._airports_named(view),
        ):
            out.setdefault((start, end), Span(start, end, type_, _SCORE, frozenset({SOURCE}), why))
        return sorted(out.values(), key=lambda s: (s.start, s.end))

    def _institutions(self, view: TokenView) -> Iterator[tuple[int, int, PhiType, str]]:
        toks = view.at
        lows = view.lows
        for i in view.capitalised:
            if lows[i] not in self._hospitals and lows[i] not in self._abbreviation_lows:
                continue  # neither test below can pass: skipped before the token is built
            tok = toks[i]
            if tok.is_caps and tok.word in self._lex.hospital_abbreviations:
                yield tok.start, tok.start + len(tok.word), PhiType.HOSPITAL, "lexicon=hospital_abbreviation"
                continue
            # The membership test first spares a call for the many words that open no hospital's name.
            n = _phrase_at(view, i, self._hospitals) if tok.low in self._hospitals else 0
            if n:
                yield tok.start, toks[i + n - 1].start + len(toks[i + n - 1].word), PhiType.HOSPITAL, "lexicon=hospital"

    def _headed(self, view: TokenView) -> Iterator[tuple[int, int, PhiType, str]]:
        """Capitalised words ending in a facility or organisation head word (phrase)."""
        toks = view.at
        for i in view.where(self._head_words):
            tok = toks[i]
            if not (tok.is_title or tok.is_caps):
                continue
            for heads, type_ in ((self._facility, PhiType.HOSPITAL), (self._organization, PhiType.ORGANIZATION)):
                n = _phrase_ending_at(view, i, heads)
                if not n:
                    continue
                head_start = i - n + 1
                if not all(toks[k].is_title or toks[k].is_caps or (toks[k].low in _HEAD_INNER and head_start < k < i)
                           for k in range(head_start, i + 1)):
                    continue
                first = self._name_before(view, head_start)
                if first is None:
                    continue
                if generic_facility(view.text[toks[first].start : tok.start + len(tok.word)], self._generic):
                    break  # "OUTPATIENT CLINIC", "Diabetic Foot Clinic": a kind of service, no one place
                yield toks[first].start, tok.start + len(tok.word), type_, f"lexicon=head:{type_.value.lower()}"
                break

    def _name_before(self, view: TokenView, head: int) -> int | None:
        """Index of the first capitalised word of the name that ends right before token ``head``."""
        toks = view.at
        caps = toks[head].is_caps  # one style throughout: "ED NOTE Good Samaritan Hospital" is two things
        j = head - 1
        first = None
        while j >= 0 and head - j <= _MAX_NAME and view.same_field(j):
            t = toks[j]
            if t.text.endswith(".") and len(t.word) > 1 and t.low.rstrip(".") not in _NAME_OPENERS:
                break  # "Nakamura. Insurance Empire Keystone...": a full stop ends the sentence before the name
            if (t.is_caps if caps else t.is_title) and t.low not in self._function:
                first = j
            elif t.low in _CONNECTORS and first is not None:
                pass
            else:
                break
            j -= 1
        # A sentence opens with a capital whatever the word: "Attends Lincoln Elementary".
        while first is not None and first < head - 1 and view.sentence_start(first) and self._lex.is_word(toks[first].low.rstrip("s")):
            first += 1
        if first is not None and first > 0 and toks[first - 1].low in self._person_titles:
            # "Officer Brannigan of the Tullis Police Department": a titled person, then "of" the body.
            inner = [k for k in range(first + 1, head) if toks[k].low in _CONNECTORS and toks[k].low not in _NAME_OPENERS]
            if inner:
                first = inner[-1] + 1
        if first is not None and toks[first].low in _CONNECTORS and toks[first].low not in _NAME_OPENERS:
            return None  # "of Medicine", "the Clinic"; but "St. Aldric Medical Center" opens with its saint
        return first

    def _abbreviations(self, view: TokenView, found: list[tuple[int, int, PhiType, str]]) -> Iterator[tuple[int, int, PhiType, str]]:
        """Short forms of the facilities and organisations found: ``(SVMC)`` after the name, or the
        name's initials anywhere in capitals (``Lakeside Community Hospital`` -> ``LCH``)."""
        initials: dict[str, PhiType] = {}
        text = view.text
        for start, end, type_, _ in found:
            if type_ not in (PhiType.HOSPITAL, PhiType.ORGANIZATION):
                continue
            words = [w for w in re.findall(r"[A-Za-z][\w'’\-]*", text[start:end]) if w.lower() not in _CONNECTORS]
            if len(words) >= 2:
                initials.setdefault("".join(w[0].upper() for w in words), type_)
                initials.setdefault("".join(w[0].upper() for w in words[:-1]), type_)  # "SV" of "Saint Valery Hospital"
            if len(words) >= 2 and (_SAINT_IN.match(text, start, end) or _SAINT_BEFORE.search(text, max(0, start - 8), start)):
                initials.setdefault("S" + "".join(w[0].upper() for w in words), type_)  # "SAMC" of "St. Aldric Medical Center"
            m = _DEFINED.match(text, end)
            if m is not None:
                initials.setdefault(m.group(1), type_)
        if not initials:
            return
        # The initials are ASCII capitals, so a token spelling one has them, lower-cased, as its low.
        initial_lows = {k.lower() for k in initials}
        lows = view.lows
        for i in view.capitalised:
            if lows[i] not in initial_lows:
                continue
            tok = view.at[i]
            if tok.is_caps and len(tok.word) >= 2 and tok.word in initials and len(tok.word) >= 3 - (tok.word in self._lex.hospital_abbreviations):
                yield tok.start, tok.start + len(tok.word), initials[tok.word], "lexicon=facility_initials"

    def _wards(self, view: TokenView) -> Iterator[tuple[int, int, PhiType, str]]:
        toks = view.at
        lex = self._lex
        lows = view.lows
        for i in view.capitalised:
            if i + 1 >= view.size or not lows[i + 1].isdigit():
                continue  # no unit number next (a token whose text is digits has the same digits as its low)
            name = toks[i]
            if not (name.is_title and len(name.word) >= 3):
                continue  # before the next token is built: few capitalised words pass
            num = toks[i + 1]
            if not (num.text.isdigit() and len(num.text) <= 2 and view.same_line(i)):
                continue
            if lex.is_word(name.low) or name.low in self._function or name.low in lex.cues["not_names"]:
                continue
            end = num.end
            tail = toks[i + 2] if i + 2 < view.size and view.same_line(i + 1) else None
            if tail is not None and tail.low in self._ward_tails:
                end = tail.start + len(tail.word)
            elif i == 0 or toks[i - 1].low not in _WARD_CUES or view.sentence_start(i) or (tail is not None and tail.low in _DOSE_WORDS):
                continue  # the cue must be in the same sentence: "aids in. Mini-Cog 1" is a test
            if i + 2 < view.size and toks[i + 2].text == "/" and view.gap(i + 1) == "":
                continue  # "Kettering 4/5": a score, not a unit number
            yield name.start, end, PhiType.DEPARTMENT, "lexicon=ward"

    def _gazetteer(self, view: TokenView) -> Iterator[tuple[int, int, PhiType, str]]:
        toks = view.at
        lex = self._lex
        lows = view.lows
        for i in view.capitalised:
            if lows[i] not in self._multiword_places and lows[i] not in self._place_lows:
                continue  # no place's name: skipped below too, here before the token is built
            tok = toks[i]
            n = _phrase_at(view, i, self._multiword_places) if tok.low in self._multiword_places else 0
            if n and all(toks[k].is_title or toks[k].low in _CONNECTORS for k in range(i, i + n)):
                phrase = " ".join(view.lows[i : i + n])
                yield tok.start, toks[i + n - 1].start + len(toks[i + n - 1].word), _place_type(lex, phrase), "lexicon=place"
                yield from self._state_code_after(view, i, i + n, phrase)
                continue
            if not tok.is_title or lex.is_word(tok.low) or tok.low in self._function or tok.low in self._not_places:
                continue
            if i + 1 < view.size and toks[i + 1].is_lower and toks[i + 1].low in self._eponym_heads:
                continue  # "Addison disease", "Ottawa rules": named after the place, not the place
            if tok.low in lex.cities or tok.low in lex.countries or tok.low in lex.us_states.values():
                yield tok.start, tok.start + len(tok.word), _place_type(lex, tok.low), "lexicon=place"
                yield from self._state_code_after(view, i, i + 1, tok.low)

    def _airports_named(self, view: TokenView) -> Iterator[tuple[int, int, PhiType, str]]:
        """``at O'Hare`` anywhere; ``fly to SFO``: a code in capitals after a word of air travel on its line,
        at most ``_TRAVEL_REACH`` words before it."""
        toks = view.at
        for i in view.where(self._airports):
            tok = toks[i]
            if tok.low in self._airport_names:
                if tok.is_title or tok.is_caps:
                    yield tok.start, tok.start + len(tok.word), PhiType.LOCATION_OTHER, "lexicon=airport"
                continue
            if not tok.is_caps or len(tok.word) != 3:
                continue
            for k in range(i - 1, max(-1, i - 1 - _TRAVEL_REACH), -1):
                if not view.same_line(k):
                    break
                if toks[k].low in self._travel_words:
                    yield tok.start, tok.start + 3, PhiType.LOCATION_OTHER, "lexicon=airport_code"
                    break

    def _state_code_after(self, view: TokenView, i: int, j: int, place: str) -> Iterator[tuple[int, int, PhiType, str]]:
        """``Providence, RI``: a state's postal code after a known city and a comma (alone, ``IN``, ``OR``
        and ``ME`` are words; after ``City,`` they are the state). After a first name the "city" is a
        surname and the code a credential (``Andrew Montgomery, MD``)."""
        toks = view.at
        if place not in self._lex.cities or j + 1 >= view.size or toks[j].text != ",":
            return
        if i > 0 and self._first_name(toks[i - 1]):
            return
        code = toks[j + 1]
        if code.is_caps and code.text in self._lex.us_states:
            yield code.start, code.start + len(code.text), PhiType.STATE, "lexicon=state_code"

    def _first_name(self, tok: Token) -> bool:
        return tok.is_title and tok.low in self._lex.first_names and not self._lex.is_word(tok.low)

    def _employers(self, view: TokenView) -> Iterator[tuple[int, int, PhiType, str]]:
        toks = view.at
        for i in view.where(self._org_cues):
            n = _phrase_at(view, i, self._org_cues)
            if not n:
                continue
            k = i + n
            if k < view.size and toks[k].low == "the":
                k += 1
            j = k
            while j < view.size and j - k < _MAX_NAME and (toks[j].is_title or toks[j].is_caps or (
                toks[j].low in _CONNECTORS and j > k)):
                if toks[j].low in self._function:
                    break
                j += 1
                if toks[j - 1].text.endswith(".") or (j < view.size and not view.same_field(j - 1)):
                    break  # the sentence, the line or a column gap ends the name
            while j > k and toks[j - 1].low in _CONNECTORS:
                j -= 1
            if j > k:
                last = toks[j - 1]
                yield toks[k].start, last.start + len(last.word), PhiType.ORGANIZATION, "cue=organization"


def _place_type(lex: Lexicons, phrase: str) -> PhiType:
    if phrase in lex.us_states.values():
        return PhiType.STATE
    if phrase in lex.countries and phrase not in lex.cities:
        return PhiType.COUNTRY
    return PhiType.CITY


def _by_first(phrases: frozenset[str]) -> dict[str, list[tuple[str, ...]]]:
    table: dict[str, list[tuple[str, ...]]] = {}
    for p in phrases:
        words = tuple(p.lower().split())
        table.setdefault(words[0], []).append(words)
    return {k: sorted(v, key=len, reverse=True) for k, v in table.items()}


def _by_last(phrases: frozenset[str]) -> dict[str, list[tuple[str, ...]]]:
    table: dict[str, list[tuple[str, ...]]] = {}
    for p in phrases:
        words = tuple(p.lower().split())
        table.setdefault(words[-1], []).append(words)
    return {k: sorted(v, key=len, reverse=True) for k, v in table.items()}


def _phrase_at(view: TokenView, i: int, table: dict[str, list[tuple[str, ...]]]) -> int:
    lows = view.lows
    for words in table.get(lows[i], ()):
        n = len(words)
        if n == 1:
            return 1
        if i + n <= len(lows) and tuple(lows[i : i + n]) == words:
            return n
    return 0


def _phrase_ending_at(view: TokenView, i: int, table: dict[str, list[tuple[str, ...]]]) -> int:
    lows = view.lows
    for words in table.get(lows[i], ()):
        n = len(words)
        if i - n + 1 >= 0 and tuple(lows[i - n + 1 : i + 1]) == words:
            return n
    return 0
