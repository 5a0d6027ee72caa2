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
* **Names read as contacts.** A tagger e-mail, URL or user name with no ``@``, no spelled-out "at"
  or "dot", no digit and only capitalised words is a person (``Sinéad Ó Dálaigh``: the character table
  lacks accented letters), typed PATIENT.
* **No statistical look-alikes.** Spans of the tagger (the only detector that guesses from shape) are
  dropped when they cannot be PHI:

  - a value of a form its type never takes (``deid_core.shapes``: ``called 911``, ``recall 0/5``,
    ``G2P1001``), or one credential after a comma or a parenthesis (``MDiv, BCC``, ``Corey (ATC)``);
  - a name or organisation right after a pet word (``their dog, Rufus``: ``pet_words`` in cues.yaml) or right
    before a denomination (``Roman Catholic``);
  - a name or place that is an instrument's eponym after no title (``by Goldmann``, ``Ashworth 1``);
  - a name, place or user name with a device maker or product line in it (``Medtronic MiniMed``:
    ``device_brands`` in cues.yaml), or one word with a drug's ending (``Dupilumab``: ``drug_stems``);
  - a name or place that is a heading in capitals made of ordinary words (``LABOR & DELIVERY``;
    ``deid_core.lookalikes``);
  - a person that is a letter's closing formula (``Best regards``: ``closings`` in cues.yaml);
  - a person that is one letter: a sex after an age (``62 M``) or half of a shorthand (``f/u``);
  - a person or place that is only lower-case ordinary words (``mother-in-<law>``, ``stimulator``); for a
    place, a word that is also a surname is no exception (``in person``), a first name or a number is;
  - a person that is capitalised ordinary words no name list knows, and initials (``Guidelines``,
    ``UNKNOWN, UNKNOWN``, ``M Facility``), or one function word after no title (``Husband works``);
  - a person or place that is one language name after no title (``speaks Arabic``; not ``Mr. English``);
  - an identifier that is a billing or terminology code (``CPT 22630``: ``code_systems`` in cues.yaml);
  - an age in weeks of gestation or a span (``39w4d``, ``8-week scan``; not ``8-week-old``), a floor, or a
    count joined to a noun (``84-gene panel``, ``12-lead``);
  - an e-mail whose spelled-out "at" has no letters after it (``breast ca at 38``);
  - a numeric day/month that a score or measure cue surrounds (``pain 6/10``);
  - an e-mail with no at sign made of ordinary words (``workers' compensation``);
  - a user name that is an ordinary word and no first name (``photos``; ``fjohnson`` is a handle,
    ``chuck`` may be a person), an amount of money (``$85``), or text that is not one run of letters,
    digits and ``_ . - @`` whose parts are all ordinary words or abbreviations (``payer UM``). The
    tagger's user names often take a neighbour in (``courier Denny``, ``nia (9``): such a span is kept
    when one of its parts has a digit or is not an ordinary word; a user name with no lower-case letter
    (``LMP``, ``SCAT5``) or a hyphenated compound of words and initialisms (``ADL-style``) goes;
  - an occupation whose last word is no occupation's head: a job is named by a listed head (``chef``,
    ``clerk``) or an agent noun (``-er``, ``-or``, ``-ist``, ``-ian``, ``-ant``, ``-man``...), so
    ``quiet``, ``scallop`` and ``letter`` (``not_agents`` in cues.yaml) go; one with a name or a firm's
    ending in it (``patterson llc``) stays; a student (``nursing student``) goes.

Spans of the header, the rules and the lexicon are never dropped: they are validated evidence.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from itertools import accumulate
from operator import itemgetter

from deid_core.after_names import spans_after_names
from deid_core.date_lookalikes import not_a_date
from deid_core.detect.rules.context import next_word, preceded_by
from deid_core.detect.rules.dates import DATE_CUES, NOT_DATE_AFTER, NOT_DATE_BEFORE, line_start
from deid_core.generic_facilities import generic_facility, generic_words
from deid_core.lexicon import MEDICAL_SUFFIXES, Lexicons, load_lexicons
from deid_core.lookalikes import capital_heading, device_name, drug_name, instrument_eponym, item_label
from deid_core.shapes import impossible, no_address
from deid_core.trim import SpanTrimmer, initialism, trimmable
from deid_core.trim_contacts import LONG_NUMBER
from schemas import TAXONOMY, PhiCategory, PhiType, Span

_TAGGER = "tagger"
_FACILITY = frozenset({PhiType.HOSPITAL, PhiType.ORGANIZATION})
_NUMERIC_DAY_MONTH = re.compile(r"\d{1,2}/\d{1,2}")
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


# After a number: a gestational age or a span in weeks (not "8-week-old"), or a storey of a building.
_NOT_AN_AGE_AFTER = re.compile(
    r"w\d|[\s-]?(?:weeks?|wks?)\b(?![\s-]*old)|\s+(?:floor|fl)\b"
    # "84-gene panel", "12-lead", "24-hour": a count joined to a noun that is no unit of age
    r"|-(?!(?:years?|yrs?|yo|y|months?|mos?|mo|weeks?|wks?|days?|old)\b)[a-z]",
    re.IGNORECASE,
)
# One letter that is a sex after an age ("62 M", "73 yo F") or a slash shorthand's half ("f/u", "s/p").
_SEX_OR_SHORTHAND = re.compile(r"(?:\d|\byo|y/o)\s*[MF]\b|[a-z]/[a-z]\b", re.IGNORECASE)
_SPECIALTY_SUFFIX = ("ology", "iatry", "ics")
_PERSON = frozenset({PhiType.PATIENT, PhiType.DOCTOR})
# Types whose words spread to their other mentions in the note (not streets, usernames or professions:
# their words are ordinary or their form is the evidence).
_SPREADING = frozenset({
    PhiType.PATIENT, PhiType.DOCTOR, PhiType.HOSPITAL, PhiType.ORGANIZATION, PhiType.DEPARTMENT, PhiType.CITY,
})
_LETTERS = re.compile(r"[^\W\d_]{3,}")
_WORD_RUN = re.compile(r"(?<![\w'’])\w+")
_LEXICON = "lexicon"
# What a login or social handle is made of; anything else (a space, "$", "(") means it is prose.
_HANDLE = re.compile(r"[\w.@\-]+")
_LETTERS_ONLY = re.compile(r"[^\W\d_]+")
# Endings of agent nouns, the words jobs are named by ("dispatcher", "operator", "florist", "technician",
# "attendant", "lineman", "auctioneer", "trainee", "midwife"); checked on the last word of a profession.
_AGENT_ENDINGS = ("er", "or", "ist", "ian", "ant", "ent", "man", "men", "eer", "ee", "wife", "smith", "wright")
_MONEY = re.compile(r"[$€£]\s?\d[\d,]*(?:\.\d+)?")
_PROPAGATED_SCORE = 0.5
# Contact types the tagger gives to names it cannot read (letters its character table lacks, such as
# accents): with no "@", no "at"/"dot", no digit and only capitalised words, the span is a person.
_CONTACT_GUESSES = frozenset({PhiType.EMAIL, PhiType.URL, PhiType.USERNAME})
_CAPITALISED_WORD = re.compile(r"[^\W\d_][^\W\d_'’\-]*(?:['’\-][^\W\d_]+)*")


# A word and a hyphen right before a span ("CCC-" of "CCC-SLP").
_CREDENTIAL_JOIN = re.compile(r"\b([A-Za-z]+)-$")


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
    _profession_heads: frozenset[str] = field(init=False, repr=False, compare=False)

    _generic_words: frozenset[str] = field(init=False, repr=False, compare=False)
    _trimmer: SpanTrimmer = field(init=False, repr=False, compare=False)
    _particle_head: re.Pattern[str] = field(init=False, repr=False, compare=False)
    _never_spread: frozenset[str] = field(init=False, repr=False, compare=False)
    _generic_facility: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Built once: the last words of the listed occupations ("clerk" of "shipping clerk"), and the
        # words of facility and organisation heads, ward tails and never-names.
        object.__setattr__(self, "_profession_heads", frozenset(p.split()[-1] for p in self.lexicons.professions))
        cues = self.lexicons.cues
        heads = (*cues["facility_heads"], *cues["organization_heads"], *cues["ward_tails"])
        object.__setattr__(self, "_generic_words", frozenset(w for p in heads for w in p.split()) | cues["not_names"])
        object.__setattr__(self, "_trimmer", SpanTrimmer(self.lexicons))
        object.__setattr__(self, "_particle_head", _particle_head(cues["titles"]))
        object.__setattr__(self, "_never_spread", cues["function_words"] | cues["languages"])
        object.__setattr__(self, "_generic_facility", generic_words(self.lexicons))

    def clean(self, text: str, spans: Sequence[Span]) -> list[Span]:
        out: list[Span] = []
        for span in spans:
            tagger_only = _TAGGER in span.sources and len(span.sources) == 1
            for piece in self._trimmer.pieces(text, span) if tagger_only and trimmable(span) else (span,):
                piece = _whole_words(text, piece)
                if tagger_only and self._look_alike(text, piece):
                    continue
                if tagger_only and piece.type in _CONTACT_GUESSES and _capitalised_name(text[piece.start : piece.end]):
                    piece = replace(piece, type=PhiType.PATIENT)  # "Sinéad Ó Dálaigh" read as an e-mail
                if piece.type in _PERSON:
                    piece = self._whole_name(text, piece)
                out.append(piece)
        spread = self._propagate(text, out)
        return spread + spans_after_names(text, spread)

    def _propagate(self, text: str, spans: list[Span]) -> list[Span]:
        """One sense per note: a name or place word found once (``Ximena`` after ``her daughter``) is
        PHI wherever else the note spells it, in any case (``ximena`` in a flowsheet line). Only words
        that are not ordinary English words, of three letters or more, spread; not generic words of place
        names (``rehab``, ``geriatrics``), which name no one place, nor languages (``interpreter (Swedish,
        Birgitta)`` makes no name of ``Swedish is his first language``)."""
        types: dict[str, PhiType] = {}
        never = self._never_spread
        for span in spans:
            if span.type not in _SPREADING:
                continue
            for word in _LETTERS.findall(text, span.start, span.end):
                low = word.lower()
                if low not in types and not self.lexicons.is_word(low) and low not in never and not self._generic(low):
                    types[low] = span.type
        if not types:
            return spans
        covered = _Covered(spans)
        extra = [
            Span(start, end, found, _PROPAGATED_SCORE, frozenset({_LEXICON}), "propagated")
            for start, end, found in (
                _in_handle(text, run) for run in _word_runs_of(text, types) if not covered.contains(run[0], run[1])
            )
        ]
        return spans + extra

    def _generic(self, low: str) -> bool:
        """A word of a place's name that names no one place: a facility's head (``rehab``, ``hospice``),
        a specialty (``geriatrics``), a credential (``ATC``)."""
        return low in self._generic_words or low.endswith(_SPECIALTY_SUFFIX)

    def _look_alike(self, text: str, span: Span) -> bool:
        value = text[span.start : span.end]
        words = _LETTERS_ONLY.findall(value)
        category = TAXONOMY[span.type].category
        lex = self.lexicons
        if impossible(span.type, value):
            return True  # "called 911", "breast ca at 38" as an e-mail, "recall 0/5", "G2P1001"
        if len(words) == 1 and self._credential_or_function_word(text, span.start, words[0], persons=span.type in _PERSON):
            return True
        if span.type is PhiType.AGE and _NOT_AN_AGE_AFTER.match(text, span.end):
            return True  # "39w4d", "by 8-week US", "4th Floor"
        if span.type is PhiType.EMAIL and no_address(value):
            return all(lex.is_word(w) for w in words)  # "workers' compensation"; not "harris-morgan"
        if span.type is PhiType.USERNAME:
            # "Tinel sign": a test; "Fitbit Charge": a device
            return instrument_eponym(value, lex) or device_name(words, lex) or self._not_a_handle(value)
        if span.type is PhiType.PROFESSION:
            if words and words[-1].lower() in lex.cues["students"]:
                return True  # "nursing student": a student is no occupation
            return not words or not (self._job_head(words[-1]) or any(self._name_or_firm(w) for w in words))
        if category in {PhiCategory.NAME, PhiCategory.LOCATION} and words:
            if capital_heading(text, span.start, span.end, lex):
                return True  # "LABOR & DELIVERY - ADMISSION NOTE": a heading
            if span.type in _FACILITY and generic_facility(value, self._generic_facility):
                return True  # "ALLERGY & IMMUNOLOGY CLINIC", "Preadmission Testing Center": a kind of service
            if instrument_eponym(value, lex) and not preceded_by(text, span.start, lex.cues["titles"], hops=0):
                return True  # "IOP by Goldmann", "Modified Ashworth 1"; not "Dr. Tinel"
            if device_name(words, lex):
                return True  # "Scanner: Toshiba Aquilion", "pump (CADD Legacy)": a device
            if drug_name(words, lex):
                return True  # "Cannabidiol is approved for": a drug
            if category is PhiCategory.NAME or span.type is PhiType.ORGANIZATION:
                if preceded_by(text, span.start, lex.cues["pet_words"], hops=1):
                    return True  # "their dog, Rufus", "two dogs (Pip and Moss)": pets
                if next_word(text, span.end).lower() in lex.cues["denominations"]:
                    return True  # "Roman Catholic": a church
            lowercase_words = all(w.islower() and lex.is_word(w) for w in words)
            if lowercase_words and _in_compound(text, span):
                return True  # "mother-in-<law>"
            if lowercase_words and not any(lex.is_name(w) or len(w) < 4 for w in words):
                return True  # "stimulator"; not "jack hooper" (a flowsheet) nor "-- no" (initials)
            if (lowercase_words and category is PhiCategory.LOCATION and not self._known_place(words)
                    and not any(c.isdigit() for c in value)):
                # "in person": a surname's spelling makes no ordinary word a place; "suite 2" is a room
                return True
            if span.type in _PERSON and item_label(text, span.start, span.end, lex):
                return True  # "B. Left axillary node": a list item's label, a sibling "A." or "C." beside it
            if span.type in _PERSON and _SEX_OR_SHORTHAND.search(text, max(0, span.start - 3), span.end) and len(value.strip()) == 1:
                return True  # "62 M" (a sex after an age), "f/u" (shorthand): one letter, no initial
            if span.type in _PERSON and _acronym_of_a_thing(text, span.start, span.end):
                return True  # "assessment (FICA)", "per IWRS" beside "IWRS-88213": a tool or a system
            if span.type in _PERSON and " ".join(words).lower() in lex.cues["closings"]:
                return True  # "Kind regards,": a letter's closing
            if span.type in _PERSON and self._no_name_words(words):
                return True  # "Guidelines", "UNKNOWN, UNKNOWN", "M      Facility" (a sex, then a heading)
            if len(words) == 1 and words[0].lower() in lex.cues["languages"]:
                return not preceded_by(text, span.start, lex.cues["titles"], hops=0)  # "speaks Arabic"; "Mr. English"
        if category is PhiCategory.ID and (
            (words and words[0].lower() in lex.cues["code_systems"])
            or preceded_by(text, span.start, lex.cues["code_systems"], hops=0)
        ):
            return True  # "CPT 22630", "ICD-10 M43.16": a billing or terminology code
        if span.type is PhiType.DATE and not_a_date(text, span.start, span.end, lex.cues["hour_range_cues"]):
            return True  # "24/7", "0/7/21 days", "daily 8-10"
        if span.type is PhiType.DATE and _NUMERIC_DAY_MONTH.fullmatch(value):
            if value.endswith("/10") and not preceded_by(text, span.start, DATE_CUES, hops=0) and not line_start(text, span.start):
                return True  # "6/10": a score out of ten unless a date cue says otherwise
            return preceded_by(text, span.start, NOT_DATE_BEFORE) or next_word(text, span.end) in NOT_DATE_AFTER
        return False

    def _credential_or_function_word(self, text: str, start: int, word: str, *, persons: bool) -> bool:
        """``MDiv, BCC``, ``Corey (ATC)``: a never-a-name word in a signature's list or in parentheses,
        of any type; and for a person, a function word (``Husband works``). A word of ``not_names``
        elsewhere may be a mistyped payer (``Medicaid``) or sign-off initials (``-- np``)."""
        low = word.lower()
        cues = self.lexicons.cues
        if low in cues["not_names"] and text[:start].rstrip().endswith((",", "(")):
            return True  # in a list a title is a credential too ("Sjoberg, MS, CCC")
        joined = _CREDENTIAL_JOIN.search(text, max(0, start - 8), start)
        if low in cues["not_names"] and joined is not None and joined.group(1).lower() in cues["not_names"]:
            return True  # "CCC-SLP": one credential joined to another by a hyphen
        if preceded_by(text, start, cues["titles"], hops=0):
            return False
        return persons and low in cues["function_words"]

    def _no_name_words(self, words: list[str]) -> bool:
        """Ordinary words no name list knows, and single letters, with at least one such word."""
        lex = self.lexicons
        ordinary = [w for w in words if len(w) > 1]
        return bool(ordinary) and all(lex.is_word(w) and not lex.is_name(w) for w in ordinary)

    def _known_place(self, words: list[str]) -> bool:
        """A gazetteer's place, whole or one of its words (``grand rapids``, ``salem``), a short word that
        may be a code (``ne``), or a first name (``mary``: a person the tagger mistyped, still PHI)."""
        lex = self.lexicons
        places = (lex.cities, lex.countries, frozenset(lex.us_states.values()))
        phrase = " ".join(words).lower()
        return any(phrase in p for p in places) or any(
            w.lower() in lex.cities or w.lower() in lex.first_names or len(w) < 4 for w in words
        )

    def _job_head(self, word: str) -> bool:
        low = word.lower()
        singular = low[:-1] if low.endswith("s") else low  # "welders", "bus drivers"
        not_agents = self.lexicons.cues["not_agents"]  # "letter", "donor": an agent's ending, no job
        return any(
            w in self._profession_heads or (w.endswith(_AGENT_ENDINGS) and w not in not_agents) for w in (low, singular)
        )

    def _name_or_firm(self, word: str) -> bool:
        """A word that makes a mistyped span worth keeping: a name that is no ordinary word (``Patterson``)
        or a firm's ending (``LLC``); the tagger reads a lower-case employer as an occupation."""
        low = word.lower()
        lex = self.lexicons
        return (lex.is_name(low) and not lex.is_word(low)) or low in lex.cues["organization_heads"]

    def _not_a_handle(self, value: str) -> bool:
        if LONG_NUMBER.search(value):
            return False  # "3062112": an identifier the tagger mistyped as a user name (trim keeps it too)
        if not any(c.islower() for c in value):
            return True  # "LMP", "SCAT5": an initialism or a test's name; handles are typed in lower case
        if _HANDLE.fullmatch(value) and "-" in value and all(
            self.lexicons.is_word(p) or initialism(p) for p in value.split("-")
        ):
            return True  # "ADL-style", "walk-in": a compound of words
        if _HANDLE.fullmatch(value):
            # A first name in a lower-case note ("handed off to chuck") is a person the tagger mistyped.
            low = value.lower()
            return bool(_LETTERS_ONLY.fullmatch(value)) and self.lexicons.is_word(low) and low not in self.lexicons.first_names
        if _MONEY.fullmatch(value):
            return True
        parts = _HANDLE.findall(value)
        return all(_LETTERS_ONLY.fullmatch(p) and (self.lexicons.is_word(p) or initialism(p)) for p in parts)

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
        if prev is not None and self._first_name_like(prev.group(1)):
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


# An acronym of three letters or more: initials of a person are two or three letters, but an acronym's
# evidence below is where it is written, not its length.
_ACRONYM = re.compile(r"[A-Z]{3,6}")


def _acronym_of_a_thing(text: str, start: int, end: int) -> bool:
    """A person span that is one acronym in capitals, written alone in parentheses after a lower-case word
    (``spiritual history (FICA)``: the tool that phrase names), or written elsewhere in the note as the
    prefix of an identifier (``per IWRS`` beside ``IWRS-88213``: a system that issues numbers). Initials
    of a person are not written either way."""
    value = text[start:end]
    if _ACRONYM.fullmatch(value) is None:
        return False
    if text[start - 1 : start] == "(" and text[end : end + 1] == ")":
        before = text[max(0, start - 24) : start - 1].rstrip()
        if before and before.split()[-1].islower():
            return True
    return re.search(rf"(?<![\w-]){value}[-#]\d", text) is not None


def _in_compound(text: str, span: Span) -> bool:
    """True when the span is joined by a hyphen to more letters ("in-law", "law-abiding")."""
    before = text[max(0, span.start - 2) : span.start]
    after = text[span.end : span.end + 2]
    return (len(before) == 2 and before[1] == "-" and before[0].isalpha()) or (
        len(after) == 2 and after[0] == "-" and after[1].isalpha()
    )


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
