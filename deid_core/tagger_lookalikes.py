"""The tagger's statistical look-alikes: spans of the tagger (the only detector that guesses from shape)
that cannot be PHI, dropped by span hygiene (``deid_core.hygiene``) before the merge:

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
- a name or place (not a state) that is one clinical or administrative abbreviation in capitals (``Abnormal
  EEG``, ``(MLS)``, ``the DMV``: ``clinical_abbreviations``), unless it is a hospital's or, for a person, a name or two letters;
- an identifier that is a billing or terminology code (``CPT 22630``: ``code_systems`` in cues.yaml);
- an age in weeks of gestation or a span (``39w4d``, ``8-week scan``; not ``8-week-old``), a floor, or a
  count joined to a noun (``84-gene panel``, ``12-lead``);
- an e-mail whose spelled-out "at" has no letters after it (``breast ca at 38``);
- a numeric day/month that a score or measure cue surrounds (``pain 6/10``);
- an e-mail with no at sign made of ordinary words (``workers' compensation``), or prose: a sentence
  break or a word of prose in it (``enc. panoramic radiograph``, ``a recipe to adapt``: ``prose_words``);
- a user name that is an ordinary word (of the dictionary or the wider vocabulary: ``nightstand``), no
  first name and no occupation (``photos``; ``fjohnson`` is a handle, ``chuck`` may be a person,
  ``locksmith`` a job), an amount of money (``$85``), or text that is not one run of letters,
  digits and ``_ . - @`` whose parts are all ordinary words or abbreviations (``payer UM``). The
  tagger's user names often take a neighbour in (``courier Denny``, ``nia (9``): such a span is kept
  when one of its parts has a digit or is not an ordinary word; a user name with no lower-case letter
  (``LMP``, ``SCAT5``), a hyphenated compound of words and initialisms (``ADL-style``), letters joined by
  dots (``i.e.``), a clinical word with a procedure's or a drug's ending (``pancreaticojejunostomy``,
  ``leuprolide``), an ordinary or clinical word and a count (``prev 4``, ``amio 1``) or a word and the
  sentence's full stop (``pudding.``) goes;
- an occupation whose last word is no occupation's head: a job is named by a listed head (``chef``,
  ``clerk``) or an agent noun (``-er``, ``-or``, ``-ist``, ``-ian``, ``-ant``, ``-man``...), so
  ``quiet``, ``scallop`` and ``letter`` (``not_agents`` in cues.yaml) go; one with a name or a firm's
  ending in it (``patterson llc``) stays; a student (``nursing student``) goes.

Spans of the header, the rules and the lexicon never come here: they are validated evidence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from deid_core.date_lookalikes import not_a_date
from deid_core.detect.rules.context import next_word, preceded_by
from deid_core.detect.rules.dates import DATE_CUES, NOT_DATE_AFTER, NOT_DATE_BEFORE, line_start
from deid_core.generic_facilities import generic_facility, generic_words
from deid_core.lexicon import MEDICAL_SUFFIXES, Lexicons
from deid_core.lookalikes import capital_heading, device_name, drug_name, instrument_eponym, item_label
from deid_core.shapes import impossible, no_address
from deid_core.trim import initialism
from deid_core.trim_contacts import LONG_NUMBER
from schemas import TAXONOMY, PhiCategory, PhiType, Span

PERSON = frozenset({PhiType.PATIENT, PhiType.DOCTOR})
_FACILITY = frozenset({PhiType.HOSPITAL, PhiType.ORGANIZATION})
# A numeric day/month, perhaps behind a comparison sign the tagger took in ("≤3/10").
_NUMERIC_DAY_MONTH = re.compile(r"[<>≤≥~]?\d{1,2}/\d{1,2}")
# After a number: a gestational age or a span in weeks (not "8-week-old"), or a storey of a building.
_NOT_AN_AGE_AFTER = re.compile(
    r"w\d|[\s-]?(?:weeks?|wks?)\b(?![\s-]*old)|\s+(?:floor|fl)\b"
    # "84-gene panel", "12-lead", "24-hour": a count joined to a noun that is no unit of age
    r"|-(?!(?:years?|yrs?|yo|y|months?|mos?|mo|weeks?|wks?|days?|old)\b)[a-z]",
    re.IGNORECASE,
)
# One letter that is a sex after an age ("62 M", "73 yo F") or a slash shorthand's half ("f/u", "s/p").
_SEX_OR_SHORTHAND = re.compile(r"(?:\d|\byo|y/o)\s*[MF]\b|[a-z]/[a-z]\b", re.IGNORECASE)
# What a login or social handle is made of; anything else (a space, "$", "(") means it is prose.
_HANDLE = re.compile(r"[\w.@\-]+")
_LETTERS_ONLY = re.compile(r"[^\W\d_]+")
# Single letters joined by full stops ("i.e.", "d.m.y"): an abbreviation, no login.
_DOTTED_ABBREVIATION = re.compile(r"(?:[A-Za-z]\.){1,3}[A-Za-z]?\.?")
# A word or two and a number of up to three digits: a dose or a count ("amio 1", "prev wk 5", "4+").
_WORD_AND_COUNT = re.compile(r"[A-Za-z]+(?: [A-Za-z]+)? \d{1,3}\+?")
# A full stop and a capital, or a colon or semicolon and a space, inside a span: two sentences or clauses,
# not one value ("mt. hebron" is an abbreviation).
_SENTENCE_BREAK = re.compile(r"[.!?]\s+[A-Z]|[;:]\s")
# Endings of agent nouns, the words jobs are named by ("dispatcher", "operator", "florist", "technician",
# "attendant", "lineman", "auctioneer", "trainee", "midwife"); checked on the last word of a profession.
_AGENT_ENDINGS = ("er", "or", "ist", "ian", "ant", "ent", "man", "men", "eer", "ee", "wife", "smith", "wright")
_MONEY = re.compile(r"[$€£]\s?\d[\d,]*(?:\.\d+)?")
# A word and a hyphen right before a span ("CCC-" of "CCC-SLP").
_CREDENTIAL_JOIN = re.compile(r"\b([A-Za-z]+)-$")


@dataclass(frozen=True, slots=True)
class TaggerLookAlikes:
    lexicons: Lexicons
    _profession_heads: frozenset[str] = field(init=False, repr=False, compare=False)
    _generic_facility: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Built once: the last words of the listed occupations ("clerk" of "shipping clerk") and the
        # generic words of facility names.
        object.__setattr__(self, "_profession_heads", frozenset(p.split()[-1] for p in self.lexicons.professions))
        object.__setattr__(self, "_generic_facility", generic_words(self.lexicons))

    def rejects(self, text: str, span: Span) -> bool:
        """Whether ``span``, from the tagger alone, cannot be PHI (the cases in the module docstring)."""
        value = text[span.start : span.end]
        words = _LETTERS_ONLY.findall(value)
        category = TAXONOMY[span.type].category
        lex = self.lexicons
        if impossible(span.type, value):
            return True  # "called 911", "breast ca at 38" as an e-mail, "recall 0/5", "G2P1001"
        if len(words) == 1 and self._credential_or_function_word(text, span.start, words[0], persons=span.type in PERSON):
            return True
        if span.type is PhiType.AGE and _NOT_AN_AGE_AFTER.match(text, span.end):
            return True  # "39w4d", "by 8-week US", "4th Floor"
        if span.type is PhiType.EMAIL and no_address(value):
            # "workers' compensation"; not "harris-morgan". Nor prose: a sentence break ("centered.
            # Viscoelastic removed") or a word of prose ("grateful if you could"). The tagger's other
            # guesses without an at sign are often PHI it mistyped ("tugboat captain") and stay.
            return (all(lex.is_word(w) for w in words) or _SENTENCE_BREAK.search(value) is not None
                    or any(w in lex.cues["prose_words"] for w in words))
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
            if span.type in PERSON and item_label(text, span.start, span.end, lex):
                return True  # "B. Left axillary node": a list item's label, a sibling "A." or "C." beside it
            if span.type in PERSON and _SEX_OR_SHORTHAND.search(text, max(0, span.start - 3), span.end) and len(value.strip()) == 1:
                return True  # "62 M" (a sex after an age), "f/u" (shorthand): one letter, no initial
            if span.type is not PhiType.STATE and self._clinical_abbreviation(value, person=span.type in PERSON):
                return True  # "Abnormal EEG", "HCV Ab neg", "Issued by Wojciech (MLS)", "the DMV"
            if span.type in PERSON and _acronym_of_a_thing(text, span.start, span.end):
                return True  # "assessment (FICA)", "per IWRS" beside "IWRS-88213": a tool or a system
            if span.type in PERSON and " ".join(words).lower() in lex.cues["closings"]:
                return True  # "Kind regards,": a letter's closing
            if span.type in PERSON and self._no_name_words(words):
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
            if (value.endswith("/10") and not preceded_by(text, span.start, DATE_CUES, hops=0)
                    and not line_start(text, span.start) and not _dated_neighbour(text, span.start, span.end)):
                return True  # "6/10": a score out of ten unless a date cue or a date beside it says otherwise
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

    def _clinical_abbreviation(self, value: str, *, person: bool) -> bool:
        """One clinical or administrative abbreviation in capitals (``clinical_abbreviations``), no
        hospital's; for a person, also no name ("TIA" may be Tia in capitals) and three letters at least
        (two capitals may be a signer's initials: "OB / hn")."""
        lex = self.lexicons
        word = value.strip()
        low = word.lower()
        if not word.isupper() or low not in lex.cues["clinical_abbreviations"] or word in lex.hospital_abbreviations:
            return False
        return not (person and (lex.is_name(low) or len(word) < 3))

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

    def _clinical_word(self, word: str) -> bool:
        """An ordinary or clinical word: the dictionary's, the vocabulary's, an abbreviation or a drug."""
        low = word.lower()
        lex = self.lexicons
        cues = lex.cues
        return lex.in_use(low) or low in cues["clinical_abbreviations"] or low in cues["not_initials"] or drug_name([word], lex)

    def _not_a_handle(self, value: str) -> bool:
        if LONG_NUMBER.search(value):
            return False  # "3062112": an identifier the tagger mistyped as a user name (trim keeps it too)
        if _DOTTED_ABBREVIATION.fullmatch(value):
            return True  # "i.e.", "d.m.y"
        if _WORD_AND_COUNT.fullmatch(value) and all(self._clinical_word(w) for w in _LETTERS_ONLY.findall(value)):
            return True  # "prev 4", "zofran 4", "amio 1": a word and a dose or count (not a ward, "everwick 8")
        if value.endswith(".") and _LETTERS_ONLY.fullmatch(value[:-1]):
            value = value[:-1]  # "pudding.": the sentence's full stop
        low = value.lower()
        if _LETTERS_ONLY.fullmatch(value) and (low.endswith(MEDICAL_SUFFIXES) or drug_name([value], self.lexicons)):
            return True  # "pancreaticoduodenectomy", "bronchoscopy", "leuprolide": clinical words no list holds
        if not any(c.islower() for c in value):
            return True  # "LMP", "SCAT5": an initialism or a test's name; handles are typed in lower case
        if _HANDLE.fullmatch(value) and "-" in value and all(
            self.lexicons.is_word(p) or initialism(p) for p in value.split("-")
        ):
            return True  # "ADL-style", "walk-in": a compound of words
        if _HANDLE.fullmatch(value):
            # A first name in a lower-case note ("handed off to chuck") is a person the tagger mistyped.
            lex = self.lexicons
            # "photos", and words the dictionary lacks that are still English ("nightstand", "caregivers")
            english = lex.in_use(low)
            # A first name, or an occupation, is PHI the tagger mistyped ("chuck", "locksmith").
            return bool(_LETTERS_ONLY.fullmatch(value)) and english and low not in lex.first_names and low not in lex.professions
        if _MONEY.fullmatch(value):
            return True
        parts = _HANDLE.findall(value)
        return all(_LETTERS_ONLY.fullmatch(p) and (self.lexicons.is_word(p) or initialism(p)) for p in parts)


# An acronym of three letters or more: initials of a person are two or three letters, but an acronym's
# evidence below is where it is written, not its length.
_ACRONYM = re.compile(r"[A-Z]{3,6}")


# A month/day (a year perhaps) that is no score out of ten, joined to the span by a list's or a range's word.
_DATE_BEFORE = re.compile(r"(?<![\d/])\d{1,2}/\d{1,2}(?:/\d{2,4})?(?<!/10)[ \t]*(?:,|and|&|-|–|to|through)[ \t]*\Z")
_DATE_AFTER = re.compile(r"[ \t]*(?:,|and|&|-|–|to|through)[ \t]*\d{1,2}/\d{1,2}(?:/\d{2,4})?(?![\d/])")


def _dated_neighbour(text: str, start: int, end: int) -> bool:
    """``3/6, 3/8, 3/10``, ``4/8 and 4/10``, ``1/10 - 1/15/26``: a date beside a month/day in a list or a
    range makes it a date too; a score beside a score stays a score (``6/10, 7/10 at worst``)."""
    if _DATE_BEFORE.search(text[max(0, start - 24) : start]):
        return True
    after = _DATE_AFTER.match(text, end)
    return after is not None and not after.group().rstrip().endswith("/10")


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
