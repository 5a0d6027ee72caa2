"""AGE patterns (``age_value`` reads their values: ``deid_core.agewords``).

Following the i2b2 2014 annotation, only the age itself is tagged ("<72>-year-old", "aged <72>",
"in her <80s>"), never "year old". Spans whose value is >= 90 carry ``age>=90`` in their explanation
because only those are HIPAA identifiers (the surrogate step generalises them to "90+").
"""

from __future__ import annotations

import re

from deid_core.agewords import DECADE_WORDS, TEENS_WORDS, TENS_WORDS, UNITS_WORDS, age_value
from deid_core.detect.base import Pattern
from deid_core.detect.rules.context import digit_start, next_word, preceded_by, word_start
from deid_core.lexicon import load_lexicons
from schemas import PhiType

_NUMBER_WORDS = (*UNITS_WORDS, *TEENS_WORDS, *TENS_WORDS, "hundred")
# A spelled number: "seventy-two", "ninety three", "one hundred and two" (value checked by age_value).
_WORD_NUMBER = (
    rf"{word_start(_NUMBER_WORDS)}(?![A-Za-z])"
    rf"(?:[\s\-]+(?i:and[\s\-]+)?(?i:{'|'.join(_NUMBER_WORDS)})(?![A-Za-z])){{0,3}}"
)
_AGE_LEFT = digit_start(r"\d.,")
_SEX_AGE_LEFT = digit_start(r"\w.,/\-")
_DIGITS_AGE = rf"{_AGE_LEFT}\d{{0,2}}(?!\d|[.,]\d)"
_AGE_CUE = word_start(("age", "aged", "ages", r"at\s+age"))
_DECADE = rf"(?:\d0['\u2019]?s|{'|'.join(DECADE_WORDS)})"
_YEAR_OLD = (
    r"(?i:[\s\-]*(?:years?|yrs?|y)[\s\-]*(?:of[\s\-]+age|old)\b|[\s\-]*(?:y/o|y\.o\.?|yo\b|yo[mfw]\b))"
)

_MAX_AGE = 125

# "gestational age 32", "bone age 12": ages of something else or in weeks.
_NOT_PERSON_AGE = frozenset({"gestational", "bone", "corrected", "menstrual", "postmenstrual", "developmental",
                             "mental", "fetal", "ga", "conceptional", "postconceptional", "skeletal"})
# Temperature cues before "101 F" and catheter/tube words after "14 F".
_TEMP_CUES = frozenset({"t", "temp", "temperature", "tmax", "tm", "tc", "tcurrent", "febrile", "fever",
                        "afebrile", "to", "of", "max"})
_FRENCH_AFTER = frozenset({"catheter", "foley", "tube", "sheath", "ng", "ngt", "og", "drain", "pigtail",
                           "introducer", "fr", "french", "cath", "chest", "ett", "et", "trach", "picc", "dilator",
                           "suction", "stent", "cannula"})
# One relative (singular: "daughters (2)" counts them), whose age a note writes in parentheses after the
# name: "grandson Kayode (15)", "brother Tomas ("Tom", 9)", "baby sister (7 mo)".
_RELATIVES = ("daughter", "son", "wife", "husband", "mother", "father", "mom", "dad", "sister", "brother",
              "niece", "nephew", "grandson", "granddaughter", "grandmother", "grandfather", "cousin",
              "stepdaughter", "stepson", "partner", "spouse", "boyfriend", "girlfriend", "friend", "neighbor",
              "neighbour", "roommate", "sibling", "twin", "child", "baby", "infant", "toddler", "kid")
# "ages 4 and 7", "ages 2, 5 and 9": the ages after the first of a list that "ages" starts.
_AGE_LIST_BEFORE = re.compile(r"\bages\s+\d{1,3}(?:\s*(?:,|and|&)\s*\d{1,3})*\s*,?\s*(?:and|&)?\s*$", re.I)
_DURATION_AFTER = frozenset({"days", "day", "weeks", "week", "wks", "months", "month", "mos", "hours", "hrs", "h"})


# Events of a history whose age follows after "at": "breast ca at 38", "diagnosed at 52", "died at 70".
# A pedigree's vital status, written before the age it gives ("living (66)", "deceased, 72").
_VITAL_STATUS = ("living", "alive", "deceased")
_EVENT_WORDS = ("ca", "cancer", "carcinoma", "lymphoma", "leukemia", "melanoma", "dx", "diagnosed", "diagnosis",
                "onset", "died", "deceased", "passed", "death", "mi", "stroke", "cva")


# Who "will be" an age: a person, the writer or the patient ("I will be 70 on Sunday").
_WILL_BE_SUBJECTS = ("i", "he", "she", "they", "who", "pt", "patient", "i'll", "he'll", "she'll")


def _explain(text: str, m: re.Match[str]) -> str:
    value = age_value(m.group("age"))
    return "age>=90" if value is not None and value >= 90 else ""


def _plausible(text: str, m: re.Match[str]) -> bool:
    value = age_value(m.group("age"))
    return value is not None and 0 < value <= _MAX_AGE


# What a spelled-out adult's age contains: these regexes run only on notes that have one (most have none).
_TENS_GATE = (*TENS_WORDS, "hundred")


def _spelled_adult(text: str, m: re.Match[str]) -> bool:
    """Twenty or more, said of "he"/"she" or of a name (a known one, or no ordinary word: not "Score")."""
    value = age_value(m.group("age"))
    if value is None or not 20 <= value <= _MAX_AGE:
        return False
    who = m.group("who")
    if who is None:
        return True
    lex = load_lexicons()
    low = who.lower()
    return low in lex.first_names or not lex.is_word(low)


def _valid_age_cue(text: str, m: re.Match[str]) -> bool:
    if not _plausible(text, m) or preceded_by(text, m.start(), _NOT_PERSON_AGE, hops=0):
        return False
    return next_word(text, m.end()) not in _DURATION_AFTER


def _valid_age_sex(text: str, m: re.Match[str]) -> bool:
    if not _plausible(text, m):
        return False
    value = age_value(m.group("age")) or 0
    if m.group("sex").upper() == "F":
        if 93 <= value <= 110 or preceded_by(text, m.start(), _TEMP_CUES, hops=0):
            return False  # Fahrenheit
        if next_word(text, m.end()) in _FRENCH_AFTER:
            return False  # French catheter size
    return True


_ITEM_BEFORE = re.compile(r"(?:^|[;:.])[ \t]*$", re.MULTILINE)


def _not_an_item_number(text: str, m: re.Match[str]) -> bool:
    """Not a list item's number: "(3) she asked" opens a line or follows a ";", a ":" or a full stop."""
    return _plausible(text, m) and _ITEM_BEFORE.search(text, max(0, m.start() - 20), m.start()) is None


def _after_age_list(text: str, m: re.Match[str]) -> bool:
    return _plausible(text, m) and _AGE_LIST_BEFORE.search(text, max(0, m.start() - 40), m.start()) is not None


# A household or family list's opening word: the "Name N" items after it on its line are ages ("Siblings
# Ayaan 12, Mahad 8", "grandkids Finn 7, Orla 4").
_CHILDREN = ("siblings", "sibs", "kids", "children", "grandkids", "grandchildren", "sons", "daughters",
             "brothers", "sisters", "twins", "household")  # fmt: skip
_CHILDREN_BEFORE = re.compile(rf"\b(?i:{'|'.join(_CHILDREN)})\b(?!['’]s)[^\n]*$")  # not "Children's Hospital"
_FAMILY_BEFORE = re.compile(rf"\b(?i:{'|'.join((*_CHILDREN, *_RELATIVES))})s?\b")


_WHO = re.compile(r"(?<![\w'’\-])([A-Z][a-z'’\-]+)[ \t]*$")  # the capitalised word right before a match


def _first_name_before(text: str, m: re.Match[str]) -> bool:
    """The word before the age is a person's: a known first name that is no ordinary word (``Yasmin
    (14)``; not ``Ward (4)``, ``Will (2)``), or a word no list knows with a relative or a family list
    shortly before (``daughters Efua (7) and Ama (20 months)``, ``first child Mphatso, 3 yrs``)."""
    if not _plausible(text, m):
        return False
    who = _WHO.search(text, max(0, m.start() - 40), m.start())
    if who is None:
        return False
    lex = load_lexicons()
    low = who.group(1).lower()
    cues = lex.cues
    if low in cues["clinical_abbreviations"] or low in cues["function_words"] or lex.is_word(low):
        return False
    return low in lex.first_names or _FAMILY_BEFORE.search(text, max(0, m.start() - 60), m.start()) is not None


def _listed_child(text: str, m: re.Match[str]) -> bool:
    line_start = text.rfind("\n", 0, m.start()) + 1
    return _first_name_before(text, m) and _CHILDREN_BEFORE.search(text, line_start, m.start()) is not None


def age_patterns() -> list[Pattern]:
    a = PhiType.AGE
    return [
        Pattern(
            "age_year_old", rf"(?P<age>{_DIGITS_AGE}){_YEAR_OLD}",
            a, score=0.95, group="age", flags=0, validate=_plausible, explain=_explain,
        ),
        Pattern(
            "age_year_old_words", rf"(?P<age>{_WORD_NUMBER}){_YEAR_OLD}",
            a, score=0.9, group="age", flags=0, validate=_plausible, explain=_explain,
        ),
        Pattern(
            "age_cue",
            rf"{_AGE_CUE}\b(?i:[\s:]*(?:of\s+)?)"
            rf"(?P<age>{_DIGITS_AGE}|{_WORD_NUMBER})\b",
            a, score=0.85, group="age", flags=0, validate=_valid_age_cue, explain=_explain,
        ),
        Pattern(
            "age_sex_shorthand",
            rf"(?P<age>{_SEX_AGE_LEFT}\d{{0,2}})\s?(?P<sex>[MF])(?![\w/'\u2019])",
            a, score=0.75, group="age", flags=0, validate=_valid_age_sex, explain=_explain,
        ),
        # "turned 80 last week", "turns ninety in May": the number a person's age became.
        Pattern(
            "age_turned",
            rf"{word_start(('turned', 'turns', 'turning'))}\s+(?P<age>{_DIGITS_AGE}|{_WORD_NUMBER})(?![\w/])",
            a, score=0.8, group="age", flags=0, validate=_valid_age_cue, explain=_explain,
        ),
        # "6 weeks old", "18 months old", "3-day-old": an infant's age in days, weeks or months (the
        # number only, as for years; "8-week scan" has no "old" and is a span of time).
        Pattern(
            "age_infant",
            rf"(?P<age>{_AGE_LEFT}\d?)[\s\-]*(?i:days?|d|weeks?|wks?|wk|months?|mos?|mo)[\s\-]*(?i:old)\b",
            a, score=0.9, group="age", flags=0, validate=_plausible, explain=_explain, gate=("old",),
        ),
        # "ages 4 and 7": the later ages of a list whose first "age_cue" takes.
        Pattern(
            "age_list",
            r"(?:,|\band|&)\s*(?P<age>\d{1,3})(?!\d|[/.:,]\d|\s*(?i:%|mg|kg|lb|cm|mm|ml)\b)",
            a, score=0.8, group="age", flags=0, validate=_after_age_list, explain=_explain, gate=("ages",),
        ),
        # "grandson, 15, visits", "her brother Tomas, 58, lives", "daughter Clodagh, 9.": a relative (and a
        # name) set off by a comma, then the age alone before a comma or the end of a clause.
        Pattern(
            "age_relative_commas",
            rf"{word_start(_RELATIVES)}(?:\s+[A-Z][a-z'\-]+){{0,2}}\s*,\s*(?P<age>{_DIGITS_AGE})(?=[,;)]|\.(?!\d)|\s*$)",
            a, score=0.75, group="age", flags=0, validate=_plausible, explain=_explain,
        ),
        Pattern(
            "age_relative_commas_words",  # "daughter Zanele, thirty,": the same, spelled out (twenty or more)
            rf"{word_start(_RELATIVES)}(?:\s+[A-Z][a-z'\-]+){{0,2}}\s*,\s*(?P<age>{_WORD_NUMBER})(?=[,;)]|\.(?!\d)|\s*$)",
            a, score=0.75, group="age", flags=0, validate=_plausible, explain=_explain, gate=_TENS_GATE,
        ),
        # "I will be 70 on Easter Sunday", "she'll be 90 next month": the age a person is about to reach,
        # after a person and before a time word or a sentence end (not "will be 10 minutes late").
        Pattern(
            "age_will_be",
            rf"{word_start(_WILL_BE_SUBJECTS)}"
            rf"(?i:\s+will)?\s+(?i:be|turn)\s+(?P<age>{_DIGITS_AGE}|{_WORD_NUMBER})"
            rf"(?=\s*(?:[.,;!)]|$|\s(?i:on|in|next|this|soon|tomorrow|today|years?)\b))",
            a, score=0.75, group="age", flags=0, validate=_valid_age_cue, explain=_explain,
        ),
        # "her 80th birthday".
        Pattern(
            "age_birthday",
            rf"(?P<age>{_AGE_LEFT}\d{{0,2}})(?:st|nd|rd|th)\s+(?i:birthday|bday)",
            a, score=0.85, group="age", flags=0, validate=_plausible, explain=_explain,
        ),
        # "she is 67.", "who is 91 and lives alone", "daughter is 9.", "I'm 70, retired", "son is only 14": a bare
        # number after a person and "is", then a sentence end or a conjunction (a number followed by anything
        # else is a measure).
        Pattern(
            "age_is",
            rf"(?:{word_start(('she', 'he', 'who', 'patient', 'pt', 'they', *_RELATIVES))}\s+(?i:is|was)"
            rf"|(?<![\w'\u2019])I(?:\s+am|['\u2019]m))\s+(?:(?i:now|only|just)\s+)?"
            rf"(?P<age>{_DIGITS_AGE}|{_WORD_NUMBER})(?=\s*(?:[.,;)]|$|\s(?i:and|but|with|now|today)\b))",
            a, score=0.75, group="age", flags=0, validate=_plausible, explain=_explain,
        ),
        # "My brother Ze is ninety and", "He's ninety-two, lives alone", "Nora Keane is ninety": a spelled-out
        # age of twenty or more after a name or a contracted "he's"/"she's" (digits there are more often a
        # measure: "Pain is 6.").
        Pattern(
            "age_name_is_words",
            rf"(?:(?<![\w.])(?P<who>[A-Z][^\W\d_]+)(?:[ \t]+[A-Z][^\W\d_'\-]+)?[ \t]+(?i:is|was)|{word_start(('he', 'she'))}['\u2019]s)"
            rf"[ \t]+(?:(?i:now|only|just|about|almost|nearly)[ \t]+)?(?P<age>{_WORD_NUMBER})"
            rf"(?=\s*(?:[.,;)!]|$|\s(?i:and|but|with|now|today|next|this|years?)\b))",
            a, score=0.7, group="age", flags=0, validate=_spelled_adult, explain=_explain, gate=_TENS_GATE,
        ),
        # "ovarian ca at 52", "diagnosed at age 38", "died at 70", "died 2009 at 51": the age at an event of
        # a person's history.
        Pattern(
            "age_at_event",
            rf"{word_start(_EVENT_WORDS)}\s+(?:(?i:in\s+)?(?:19|20)\d\d,?\s+)?(?:at|@)\s+(?i:age\s+)?"
            rf"(?P<age>{_DIGITS_AGE})(?![\w/%'\u2019])",
            a, score=0.75, group="age", flags=0, validate=_valid_age_cue, explain=_explain,
        ),
        # "living (66)", "deceased (72)", "alive, 80;", "alive 70,": a pedigree's vital status and its age.
        Pattern(
            "age_vital_status",
            rf"{word_start(_VITAL_STATUS)}\s*\(\s*(?P<age>{_DIGITS_AGE})\s*\)",
            a, score=0.75, group="age", flags=0, validate=_plausible, explain=_explain,
        ),
        Pattern(
            "age_vital_status_comma",
            rf"{word_start(_VITAL_STATUS)},?\s*(?P<age>{_DIGITS_AGE})(?=\s*[,;)]|\.(?!\d)|\s*$)",
            a, score=0.75, group="age", flags=0, validate=_plausible, explain=_explain,
        ),
        # A pedigree's shorthand: "ovarian ca dx 58, d. 61", "d. 67 (2019)": the age at diagnosis or death,
        # ending the item (not "dx 2 yrs ago").
        Pattern(
            "age_pedigree_shorthand",
            rf"(?<![\w.])(?:dx|d\.)[ \t]?(?P<age>{_DIGITS_AGE})(?=[ \t]*[,;)]|\.(?!\d)|[ \t]*$|[ \t]+\()",
            a, score=0.7, group="age", flags=re.MULTILINE, validate=_plausible, explain=_explain, gate=("dx", "d."),
        ),
        Pattern(
            "age_of_relative",
            r"\((?:\s*[\"“][^\"”()\n]{1,25}[\"”]\s*,)?\s*(?P<age>\d{1,3})(?:\s*(?i:mo|mos|months?|yo|y/o))?\s*\)",
            a, score=0.75, group="age", flags=0, validate=_not_an_item_number, explain=_explain,
            context=_RELATIVES, context_required=True, context_window=40, gate=("(",),
        ),
        # "daughters Efua (7) and Ama (20 months)", "Priya (44, spouse)", "first child Mphatso, 3 yrs": an age
        # right after a known first name, in parentheses or set off by a comma with its unit.
        Pattern(
            "age_after_first_name",
            # The scan keys on the parenthesis after a lower-case letter; _first_name_before reads the name back.
            r"\((?:(?<=[a-z'’]\()|(?<=[a-z'’][ \t]\())[ \t]*(?P<age>\d{1,3})(?:[ \t]*(?i:mo|mos|months?|yrs?|years?|yo|y/o))?[ \t]*[),]",
            a, score=0.7, group="age", flags=0, validate=_first_name_before, explain=_explain, gate=("(",),
        ),
        Pattern(
            "age_after_first_name_comma",
            r",(?<=[a-z'’],)[ \t]*(?P<age>\d{1,3})[ \t]*(?i:yrs?|years?|yo|y/o|mo|mos|months?)\b",
            a, score=0.7, group="age", flags=0, validate=_first_name_before, explain=_explain, gate=(",",),
        ),
        # "Siblings Ayaan 12, Mahad 8 - separate", "grandkids' voices (Finn 7, Orla 4)", "Great-grandchildren
        # Zosia 7 and Felek 4 sing", "Nilofar 5, Sami 18 months.": a family list's items.
        Pattern(
            "age_listed_child",
            r"(?<=[a-z'’])[ \t]+(?P<age>\d{1,2})(?=[ \t]*(?:[,;)]|[ \t]-[ \t]|\.(?!\d)|$)|[ \t]+(?:and|&)[ \t]+[A-Z]"
            r"|[ \t]*(?:months?|mos?|yrs?|years?|yo|y/o)\b[ \t]*(?:[,;.)]|$))",
            a, score=0.7, group="age", flags=re.MULTILINE, validate=_listed_child, explain=_explain, gate=_CHILDREN,
        ),
        Pattern(
            "age_decade",
            rf"{word_start(('in',))}(?i:\s+(?:his|her|their|the)\s+(?:(?:early|mid|late)[\s\-]+)?)"
            rf"(?P<age>(?i:{_DECADE}))(?!\w)",
            a, score=0.85, group="age", flags=0, explain=_explain,
        ),
    ]
