"""Type vote: names the lexicon reads as people keep a person type when the tagger calls them a place.

The merger ranks sources, not types, so where the tagger and the lexicon detector find the same words
the tagger's type wins (it reads context; the lexicon guesses the subtype from a cue at best). One
confusion is systematic on text the training corpus did not write: a first name and a surname after a
role word or a field label (``SW Benedikt Arne``, ``Pharmacist: Anjali Menon-Reid``, ``From: Dorothea
Okwuosa``), or two first names joined by ``and`` (``Ingrid and Lars``), tagged ORGANIZATION or another
place type. A name list cannot tell a daughter from a doctor, but it does know that a first name and a
surname-like word are a person, and a person's name replaced by a hospital's surrogate reads wrong and
is scored as a missed name.

Invariant: types change, and extents only by cutting off what is no person (a role word, a room's
number); no span grows. A tagger span of a place, organisation or room type takes the person type of
the lexicon's person spans (or a rule's: ``officers Pelletier and Gagnon``) when

* one lexicon span has exactly its extent and was found after a cue (``neighbour Florence``) or is a
  hyphenated given name (``Betty-Jo``), or
* it has two or more words, the lexicon's person spans cover each of them but the conjunctions, and
  nothing in it says place or firm (one person written surname first, ``MENDOZA, REY -``, may hold its
  comma; the span is cut to it): no comma (``Martin, Roman and Ellis``), no first word that starts
  place names (``West``, ``El``, ``Lake``), no last word that ends the names of facilities, schools
  or firms (``General``, ``High``, ``Partners``); all of these are data in the lexicon's cues.

One word in capitals that only a surname list knows (no first name, word or place) is a PATIENT when the
tagger calls it a place (``INR 9.4 on ESTRADA``: a log writing surnames in capitals).

Two cuts: a title, rank or staff role before the lexicon's person (``Lt. Harriet Mobley``, tagged
ORGANIZATION), or a role's initialism (``PIO Ken Albers``; no hospital's, state's, ship's or clinical
term's capitals), leaves the person alone, the role word is no PHI; a room or ward that is a number and a
person (``Cot 203  Amos Whitcombe``, ``grandkids (Finn 7, Orla 4)`` where a rule read the age) is split
as described at ``_number_and_person``. A tagger span run across a column gap is cut into its columns where
one column is exactly a lexicon person (``director: Hank Vosburgh   health center``, ``Unified School
District - Nestor is``; ``_columns_apart``); so is one run across a spaced dash.
A room or ward of one capitalised word and a number a rule reads as an age is the person and the age
even where no name list knows the word (``Siblings Ayaan 12, Mahad 8``; ``_aged_names``).

A one-word span without a cue (``Florence``, ``Rowan``) is as likely a place as a person, so the tagger
keeps it, unless only the first-name list knows the word (no town, state, country or ordinary word) and
nothing around it reads as a place (no preposition before it, no comma or named thing after it): then
it is a PATIENT (``call Rosalind or text``, ``Tanner (dispatcher)``; see ``_lone_given_name``).

One sense per note: a one-word tagger place whose word is part of a person elsewhere in the note, where
the tagger and the lexicon agree on that person or a rule or the header found it, is that person
(``Questions from Annelies:``, ``Owen ketones 0.8``), unless the word is a town, state, country, facility
head or specialty, follows ``in``, ``at`` or ``near``, or comes before ``&`` (see ``_one_sense``).

A tagger DATE of a month's name and more words without a digit, on exactly the extent of a lexicon
person (``Parent advocate June Ashby``), is that person. Shapes that say person with no voter (an
identifier or a date that ends or opens with a name, a place's relatives) are ``deid_core.person_shapes``.

A second, smaller vote settles the tagger's region types by the gazetteer: a tagger city, state or
country whose whole text is a US state's name and no country's is a STATE (``moved from Ohio`` was
COUNTRY), and one that is a country's name and no state's is a COUNTRY; a name that is both
(``Georgia``) keeps the tagger's type. The same holds for a tagger person whose whole text is a state's
or a country's name and no first name or surname (``Knoxville, Tennessee`` in a signature: Tennessee was
a DOCTOR). A state's surrogate is then a state, and a policy that keeps states keeps it. A tagger country
or person that is a gazetteer's city and no country's or state's name (for a person, no first name or
surname either, unless a word for being at or going to a place comes right before it: ``moved to Houston``,
``lives in Phoenix``) is a CITY (``moved to Mesa``, ``flew in from Accra``): a policy that keeps countries
must not keep a town, and a town's surrogate is a town.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import accumulate

from deid_core.lexicon import SPECIALTY_SUFFIXES, Lexicons, load_lexicons
from deid_core.person_shapes import MONTHS, PersonShapes, build_person_shapes
from schemas import PhiType, Span

PERSON_TYPES: frozenset[PhiType] = frozenset({PhiType.PATIENT, PhiType.DOCTOR})
PLACE_TYPES: frozenset[PhiType] = frozenset({
    PhiType.ORGANIZATION, PhiType.HOSPITAL, PhiType.DEPARTMENT, PhiType.STREET, PhiType.CITY,
    PhiType.LOCATION_OTHER, PhiType.COUNTRY, PhiType.STATE,
})
REGION_TYPES: frozenset[PhiType] = frozenset({PhiType.CITY, PhiType.STATE, PhiType.COUNTRY})
# The tagger's types a lexicon person can overrule: places, and rooms (``Marquise Thibodeaux`` after a
# role's colon read as a room's name).
VOTED_TYPES: frozenset[PhiType] = PLACE_TYPES | {PhiType.ROOM}
_NUMBERED = frozenset({PhiType.ROOM, PhiType.DEPARTMENT})
TAGGER = "tagger"
LEXICON = "lexicon"
RULES = "rules"
CUED = 0.8
"""The lexicon detector's score for a name found after a cue (a title, a relation, a staff role)."""
_CONJUNCTIONS = frozenset({"and", "&"})
_LONE_TYPES = PLACE_TYPES - {PhiType.STREET, PhiType.STATE}
_LOOK_BACK = 80
# After it: a comma (an address, "Dexter, MI"), a hyphen (a longer name), a word it would name ("Verona
# office"), another capital; not an extension or a pager ("pharmacy Deshawn x2210": a person's line).
_PLACE_AFTER = re.compile(
    r"[ \t]*,|[\-\u2010]|[ \t]+(?!(?:and|or|on|at|in|is|was|will|said|says|to|with|for|from|who|has|had|asked|called)\b"
    r"|(?:x|ext|pgr)\.?[ \t]?\d)[a-z]"
    r"|[ \t]+[A-Z][a-z]"
)
_FIRM_AFTER = re.compile(r"[ \t]*&")  # "Olumide & Ferris LLP"
_INITIALISM = re.compile(r"[A-Z]{2,5}")
_NAME_AND_NUMBER = re.compile(r"(?P<name>[A-Z][a-z]+(?:['\u2019\-][A-Za-z]+)?)[ \t]+(?P<n>\d{1,3})")
_WORD = re.compile(r"[^\W_]+(?:['\u2019\-][^\W_]+)*|&")
_COLUMN_GAP = re.compile(r"[ \t]*\t[ \t]*| {3,}| [-–—] ")  # within a line: columns of a table or a form, a spaced dash
_SURNAME_FIRST = re.compile(r"[^\W\d_][\w'\u2019\-]*,[ \t]*[^\W\d_][\w'\u2019\-]*(?:[ \t]+[^\W\d_]\.?)?")  # "MENDOZA, REY", "Vo, Thanh B."


@dataclass(frozen=True, slots=True)
class TypeVote:
    """Applies the vote of the module docstring; built once from the lexicons' cue lists."""

    first_words: frozenset[str]
    last_words: frozenset[str]
    state_names: frozenset[str]
    country_names: frozenset[str]
    first_names: frozenset[str] = frozenset()
    surnames: frozenset[str] = frozenset()
    city_names: frozenset[str] = frozenset()
    role_words: frozenset[str] = frozenset()
    words: frozenset[str] = frozenset()
    generic: frozenset[str] = frozenset()
    not_roles: frozenset[str] = frozenset()
    shapes: PersonShapes = PersonShapes()
    # Words before a lone given name that make it a place ("near Winnie"); travel words that make "to" one
    # ("moved to"); words before a person's word elsewhere that keep it a place ("in Clyde"): type_vote.yaml.
    place_before: frozenset[str] = frozenset()
    travel_before_to: frozenset[str] = frozenset()
    at_a_place: frozenset[str] = frozenset()
    not_to_a_town: frozenset[str] = frozenset()

    def vote(self, text: str, spans: Sequence[Span]) -> list[Span]:
        """``spans`` with tagger place and room types replaced by the lexicon's person type where the vote
        says so; a span may come back cut to its person, or as a room and a person."""
        spans = [
            self._region(text, s) if s.sources == {TAGGER} and s.type in REGION_TYPES | PERSON_TYPES else s
            for s in spans
        ]
        spans = [self._caps_surname(text, s) if s.sources == {TAGGER} and s.type in PLACE_TYPES else s for s in spans]
        spans = [part for s in spans for part in (self.shapes.split(text, s) if s.sources == {TAGGER} else (s,))]
        # Voters: the lexicon's persons and the rules' (validated patterns, "officers Pelletier and Gagnon").
        persons = [s for s in spans if (LEXICON in s.sources or RULES in s.sources) and s.type in PERSON_TYPES]
        if persons:
            ages = [s for s in spans if s.type is PhiType.AGE and s.sources != {TAGGER}]
            out: list[Span] = []
            for s in spans:
                if s.sources == {TAGGER} and s.type in VOTED_TYPES:
                    out.extend(self._voted(text, s, persons, ages))
                elif s.sources == {TAGGER} and s.type is PhiType.DATE:
                    out.append(self._month_named(text, s, persons))
                else:
                    out.append(s)
            spans = out
        spans = self._aged_names(text, spans)
        spans = self._one_sense(text, spans)
        spans = [self.shapes.relative(text, s) if s.sources == {TAGGER} and s.type in VOTED_TYPES else s for s in spans]
        # Last, so that a lexicon person's own type (a DOCTOR after "RN") wins where there is one.
        return [self._lone_given_name(text, s) if s.sources == {TAGGER} and s.type in _LONE_TYPES else s for s in spans]

    def _aged_names(self, text: str, spans: Sequence[Span]) -> list[Span]:
        """A tagger room or ward of one capitalised word and a number that a rule reads as an age
        (``Siblings Ayaan 12, Mahad 8``, ``Great-grandchildren Zosia 7 and Felek 4``) is a person and the
        age, when the word is no ordinary word, place or ward head (``Hartwell 4`` stays a ward: no rule
        reads its number as an age)."""
        ages = {s.start for s in spans if s.type is PhiType.AGE and s.sources != {TAGGER}}
        if not ages:
            return list(spans)
        out = []
        for s in spans:
            if s.sources == {TAGGER} and s.type in _NUMBERED and (m := _NAME_AND_NUMBER.fullmatch(text, s.start, s.end)):
                low = m.group("name").lower()
                if m.start("n") in ages and not self._placed(text, replace(s, end=m.end("name"))) and low not in self.words:
                    s = replace(s, end=m.end("name"), type=PhiType.PATIENT)
            out.append(s)
        return out

    def _one_sense(self, text: str, spans: Sequence[Span]) -> list[Span]:
        """One sense per note: a one-word tagger place whose word is, elsewhere in the note, part of a
        person the evidence agrees on takes that person's type (``Questions from Annelies:`` after
        ``daughter Annelies Brandt``; ``Owen ketones 0.8`` in a log that names ``Owen Kessler-Dahl``).
        Agreed persons: a rule's or the header's, or a tagger person that a lexicon person overlaps (the
        lexicon alone reads too many capitalised words as names: ``Hadley Free``). The word keeps its
        place type where it is a town, state or country, a facility's or a firm's head or a specialty
        (``Urology``), right after ``in``, ``at`` or ``near`` (``a warehouse in Clyde`` beside a
        ``Dr. Anselm Clyde``), or before ``&`` (``Olumide & Ferris LLP``)."""
        lexicon_persons = sorted((s.start, s.end) for s in spans if LEXICON in s.sources and s.type in PERSON_TYPES)
        starts = [a for a, _ in lexicon_persons]
        reach = list(accumulate((b for _, b in lexicon_persons), max))
        named: dict[str, list[tuple[int, PhiType]]] = {}
        for s in spans:
            if s.type not in PERSON_TYPES:
                continue
            if s.sources == {TAGGER}:
                i = bisect_left(starts, s.end)  # lexicon persons starting before this one ends...
                if i == 0 or reach[i - 1] <= s.start:  # ...none of which ends after it starts
                    continue
            elif not s.sources - {TAGGER, LEXICON}:
                continue
            for m in _WORD.finditer(text, s.start, s.end):
                w = m.group()
                if len(w) >= 2 and w[0].isupper() and not w.isupper():
                    seen = named.setdefault(w, [])
                    if len(seen) < 2:  # two places are enough: one of them is elsewhere
                        seen.append((m.start(), s.type))
        out = []
        for s in spans:
            if s.sources == {TAGGER} and s.type in VOTED_TYPES and (seen := named.get(text[s.start : s.end])):
                elsewhere = [t for at, t in seen if not s.start <= at < s.end]
                if elsewhere and not self._placed(text, s):
                    s = replace(s, type=elsewhere[0])
            out.append(s)
        return out

    def _placed(self, text: str, span: Span) -> bool:
        """What keeps a one-word span a place though a person elsewhere has its word (see ``_one_sense``)."""
        low = text[span.start : span.end].lower()
        if self._place_name(low):
            return True
        if low in self.generic or low.endswith(SPECIALTY_SUFFIXES):
            return True
        before = _WORD.findall(_line_before(text, span.start))[-1:]
        return (before != [] and before[0].lower() in self.at_a_place) or _FIRM_AFTER.match(text, span.end) is not None

    def _caps_surname(self, text: str, span: Span) -> Span:
        """One word in capitals that only a surname list knows (``INR 9.4 on ESTRADA``): a patient in a
        log that writes surnames in capitals, not a place; a town, a state or a country keeps its type."""
        value = text[span.start : span.end]
        low = value.lower()
        if not (value.isupper() and value.isalpha() and len(value) >= 4) or low not in self.surnames:
            return span
        if low in self.first_names or self._place_name(low):
            return span
        if low in self.words:
            return span
        return replace(span, type=PhiType.PATIENT)

    def _month_named(self, text: str, span: Span, persons: Sequence[Span]) -> Span:
        """A tagger date of a month's name and more words, no digit, where the lexicon reads a person of
        exactly that extent (``Parent advocate June Ashby``): the person, named after a month."""
        value = text[span.start : span.end]
        words = value.split()
        if len(words) < 2 or words[0].lower() not in MONTHS or any(c.isdigit() for c in value):
            return span
        same = [p for p in persons if (p.start, p.end) == (span.start, span.end)]
        return replace(span, type=same[0].type) if same else span

    def _lone_given_name(self, text: str, span: Span) -> Span:
        """One title-case word that only the first-name list knows (no town, state, country or word) and
        that nothing around it makes a place: no preposition, article or conjunction before it on its line
        (``near Winnie`` stays a place; ``to`` only after a word of travel, ``moved to``), no comma after
        it (``Orchard Glen, Dexter, and``), no word after it that it would name (``the Stanley
        ambulance``). ``call Rosalind or text``, ``handed off to Idris.``, ``Tanner (dispatcher)``: a
        person the tagger typed as a place."""
        value = text[span.start : span.end]
        low = value.lower()
        if not (value.isalpha() and value[0].isupper() and value[1:].islower()) or low not in self.first_names:
            return span
        if self._place_name(low) or low in self.words:
            return span
        line_before = _line_before(text, span.start)
        before = [w.lower() for w in _WORD.findall(line_before)[-2:]]
        if (before and before[-1] in self.place_before) or line_before.endswith(("'", "\u2019")):
            return span
        if before[-1:] == ["to"] and (len(before) < 2 or before[0] in self.travel_before_to):
            return span
        if _PLACE_AFTER.match(text, span.end) or line_before.endswith(("-", "\u2010")):
            return span  # (and a part of a hyphenated name, "Ellsworth-Keane University")
        return replace(span, type=PhiType.PATIENT)

    def _region(self, text: str, span: Span) -> Span:
        name = " ".join(text[span.start : span.end].split()).lower()
        state, country = name in self.state_names, name in self.country_names
        if span.type in PERSON_TYPES and (name in self.first_names or name in self.surnames):
            if not state and not country and name in self.city_names and self._at_a_town(text, span):
                return replace(span, type=PhiType.CITY)  # "moved to Houston", "in Phoenix": the town here
            return span  # "Georgia", "Israel", "Chad": a person as well as a place
        if state and not country and span.type is not PhiType.STATE:
            return replace(span, type=PhiType.STATE)
        if country and not state and span.type is not PhiType.COUNTRY:
            return replace(span, type=PhiType.COUNTRY)
        if span.type in PERSON_TYPES | {PhiType.COUNTRY} and not country and not state and name in self.city_names:
            return replace(span, type=PhiType.CITY)  # "Mesa", "Cedar Rapids": a policy keeping countries keeps no town
        return span

    def _at_a_town(self, text: str, span: Span) -> bool:
        """A word for being at or going to a place right before the span (``in``, ``near``, ``moved to``),
        and no possessive after it (``in Sofia's room`` is her room)."""
        if text.startswith(("'s", "\u2019s"), span.end):
            return False
        before = [w.lower() for w in _WORD.findall(_line_before(text, span.start))[-2:]]
        if before[-1:] == ["to"]:
            return len(before) == 2 and before[0] in self.travel_before_to and before[0] not in self.not_to_a_town
        return bool(before) and before[-1] in self.at_a_place

    def _voted(self, text: str, span: Span, persons: Sequence[Span], ages: Sequence[Span]) -> list[Span]:
        inside = sorted((p for p in persons if span.start <= p.start and p.end <= span.end), key=lambda p: p.start)
        if not inside:
            return [span]
        value = text[span.start : span.end]
        if _COLUMN_GAP.search(value):
            named = [p for p in inside if self._no_word_or_place(text[p.start : p.end])]
            return _columns_apart(text, span, named)
        if span.type in _NUMBERED and any(c.isdigit() for c in value):
            return self._number_and_person(text, span, inside, ages)
        only, last = inside[0], inside[-1]
        if len(inside) == 1 and (only.start, only.end) == (span.start, span.end) and only.score >= CUED:
            return [replace(span, type=only.type)]
        if last.end == span.end and last.start > span.start and self._role_word(text[span.start : last.start]):
            return [replace(span, start=last.start, type=last.type)]  # "Lt. Harriet Mobley": the role is no PHI
        words = list(_WORD.finditer(text, span.start, span.end))
        if len(words) < 2 or words[0].group().lower() in self.first_words or words[-1].group().lower() in self.last_words:
            return [span]
        if len(inside) == 1 and _SURNAME_FIRST.fullmatch(text, only.start, only.end) and all(
            only.start <= m.start() and m.end() <= only.end for m in words
        ):
            return [replace(span, start=only.start, end=only.end, type=only.type)]  # "MENDOZA, REY - cook"
        if "," in value:
            return [span]
        covered = all(
            any(p.start <= m.start() and m.end() <= p.end for p in inside)
            for m in words
            if m.group().lower() not in _CONJUNCTIONS
        )
        return [replace(span, type=only.type)] if covered else [span]

    def _no_word_or_place(self, name: str) -> bool:
        """No ordinary word ends it (``Moss Tent``) and it names no town, state or country (``Amarillo -
        Denver``, ``Digestive Health - Carmel``): a person's own column, not a place's."""
        low = " ".join(name.split()).lower()
        return low.split()[-1] not in self.words and not self._place_name(low)

    def _place_name(self, low: str) -> bool:
        """A town's, a state's or a country's name in the gazetteer (lower case)."""
        return low in self.city_names or low in self.state_names or low in self.country_names

    def _role_word(self, head: str) -> bool:
        """One word, a title, rank or staff role (``Lt.``, ``Sgt``), or a role's initialism (``PIO Ken
        Albers``, ``BCBA Marcus Lindahl``, ``MHW Tavita``): two to five capitals that name no hospital,
        state, vessel (``MV Coral Sovereign``) or clinical term."""
        words = head.split()
        if len(words) != 1:
            return False
        word = words[0].rstrip(".")
        if word.lower() in self.role_words:
            return True
        return _INITIALISM.fullmatch(word) is not None and word not in self.not_roles

    @staticmethod
    def _number_and_person(text: str, span: Span, inside: Sequence[Span], ages: Sequence[Span]) -> list[Span]:
        """A room or ward span that is a number and a lexicon person: ``203  Amos Whitcombe`` (a cot, then
        its patient) is the room and the person; ``Finn 7`` is the person when a rule read the number as
        an age (``grandkids (Finn 7, Orla 4)``), and stays a ward otherwise (``Hartwell 4``)."""
        last = inside[-1]
        head = text[span.start : last.start]
        if last.end == span.end and last.start > span.start and head.strip().isdigit():
            return [replace(span, end=span.start + len(head.rstrip())), replace(span, start=last.start, type=last.type)]
        tail = text[last.end : span.end]
        if last.start == span.start and last.end < span.end and tail.strip().isdigit():
            number = span.end - len(tail.lstrip())
            if any(a.start <= number < a.end for a in ages):
                return [replace(span, end=last.end, type=last.type)]
        return [span]


def _columns_apart(text: str, span: Span, inside: Sequence[Span]) -> list[Span]:
    """A tagger span run across a column gap (``Hank Vosburgh   health center``) is its columns; a column
    that is exactly a lexicon person (no ordinary word last, no place's name) is that person, the others keep
    the tagger's type. Nothing is cut when no column is a person: only a person's own column lets the vote
    split a span."""
    pieces, pos = [], span.start
    for gap in _COLUMN_GAP.finditer(text, span.start, span.end):
        pieces.append((pos, gap.start()))
        pos = gap.end()
    pieces.append((pos, span.end))
    persons = {(p.start, p.end): p.type for p in inside}
    if not any(piece in persons for piece in pieces):
        return [span]
    return [replace(span, start=a, end=b, type=persons.get((a, b), span.type)) for a, b in pieces if a < b]


def _line_before(text: str, start: int) -> str:
    """The line before ``start``, its last 80 characters at most (room for the two words read from it): a
    bound keeps a note of one long line linear."""
    back = max(0, start - _LOOK_BACK)
    return text[max(back, text.rfind("\n", back, start) + 1) : start]


def build_type_vote(lexicons: Lexicons | None = None) -> TypeVote:
    lex = load_lexicons() if lexicons is None else lexicons
    cues = lex.cues
    heads = {w for key in ("facility_heads", "organization_heads", "ward_tails") for w in cues[key] if " " not in w}
    return TypeVote(
        cues["place_first_words"], frozenset(heads | cues["place_last_words"]),
        frozenset(lex.us_states.values()), lex.countries, lex.first_names, lex.surnames, _with_unaccented(lex.cities),
        frozenset(w for key in ("titles", "officer_titles", "staff", "extra_roles", "initial_roles") for w in cues[key]),
        lex.common_words | lex.vocabulary,
        frozenset(heads),
        lex.hospital_abbreviations | {c.upper() for c in lex.us_states} | {c.upper() for c in cues["clinical_abbreviations"] | cues["vessel_prefixes"]},
        build_person_shapes(lex, frozenset(heads)),
        cues["place_before_a_name"], cues["travel_before_to"], cues["at_a_place"], cues["not_to_a_town"],
    )


def _with_unaccented(names: frozenset[str]) -> frozenset[str]:
    """``names`` and their forms without accents (``huế`` is also ``hue``: notes often drop them). Not
    ``textfold.fold_accents``: that folds Latin-1 and Extended-A/B letters one for one to keep offsets, and
    leaves the Vietnamese letters of Extended Additional (``ế``) as they are; a set of names needs no
    offsets."""
    bare = ("".join(c for c in unicodedata.normalize("NFKD", n) if not unicodedata.combining(c)) for n in names)
    return names | frozenset(bare)
