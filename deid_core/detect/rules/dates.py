"""DATE patterns: numeric, ISO, month names, partial dates, years in context, weekdays, holidays, seasons.

Numeric look-alikes (BP 120/80, Apgar 8/9, pain 7/10, 1/2 tab, 20/20 vision) are rejected by
plausibility (month 1-12, day 1-31), by the word before (vital/score cues) and the word after
(units, "pain", "strength"), and by requiring a date cue for single-digit ``d/d`` forms.
"""

from __future__ import annotations

import re

from deid_core.detect.base import Pattern
from deid_core.detect.rules.context import (
    digit_start,
    followed_by_unit,
    last_word,
    next_word,
    preceded_by,
    word_start,
)
from deid_core.lexicon import load_lexicons
from schemas import PhiType

_MONTH_FORMS = (
    "Jan(?:uary)?", "Feb(?:ruary)?", "Mar(?:ch)?", "Apr(?:il)?", "May", "June?", "July?", "Aug(?:ust)?",
    "Sep(?:t(?:ember)?)?", "Oct(?:ober)?", "Nov(?:ember)?", "Dec(?:ember)?",
)
_ALL_MONTH_FORMS = (*_MONTH_FORMS, *(f.upper() for f in _MONTH_FORMS))
# Capitalised or all-caps only: lower-case "may", "mar", "march", "dec" are verbs and abbreviations.
MONTH = "(?:" + "|".join(_ALL_MONTH_FORMS) + ")"
# The same, opening with a literal letter and checking the left word boundary after it (see word_start).
_MONTH_LEAD = "(?:" + "|".join(f"{f[0]}(?<!\\w{f[0]}){f[1:]}" for f in _ALL_MONTH_FORMS) + ")"
_FULL_MONTHS = ("January", "February", "March", "April", "June", "July", "August", "September", "October",
                "November", "December")
_FULL_MONTH_LEAD = "(?:" + "|".join(
    f"{f[0]}(?<!\\w{f[0]}){f[1:]}" for f in (*_FULL_MONTHS, *(m.upper() for m in _FULL_MONTHS))
) + ")"
_DAY = r"(?:[12]\d|3[01]|0?[1-9])(?i:st|nd|rd|th)?"
_YEAR4 = r"(?:19\d{2}|20\d{2})"
_YEAR = rf"(?:{_YEAR4}|['\u2019]\d{{2}})"
# No digit, word char or date separator on either side of a numeric date.
_NUM_LEFT = r"\w/.\-"
_NUM_RIGHT = r"(?![\w/]|[.\-]\d)"

# Cues before a numeric value that make it a measurement or score, not a date.
NOT_DATE_BEFORE = frozenset(
    {
        "bp", "pressure", "pressures", "apgar", "apgars", "grade", "gr", "gcs", "nihss", "pain", "strength",
        "motor", "vision", "acuity", "va", "ratio", "murmur", "ef", "lvef", "fio2", "peep", "ie", "rated",
        "tanner", "titer", "titre", "dilution", "sat", "sats", "spo2", "o2", "score", "mmse", "moca", "rr",
        "hr", "pulse", "lvedp", "pa", "cvp", "map", "abp", "nbp", "sbp", "dbp", "vent", "settings", "ps",
        "cpap", "bipap", "epap", "ipap", "dose", "doses", "take", "takes", "took", "tab", "tabs", "give",
        "gave", "grades", "stage", "class", "phq", "gad", "audit", "cage", "bmi", "ppd", "vs",
        "vitals", "ptt", "inr", "fev1", "fvc", "dlco", "reflexes", "dtr", "dtrs", "node", "nodes",
    }
)
NOT_DATE_AFTER = frozenset(
    {
        "pain", "strength", "vision", "murmur", "scale", "tab", "tabs", "tablet", "tablets", "of", "dilution",
        "ratio", "systolic", "diastolic", "mmhg", "bilaterally", "bilat", "throughout",
        "reflexes", "power", "score", "points", "hearing", "th", "node", "nodes",
        # an eye after a fraction is a measure of it ("plates 9/14 OS")
        "od", "os", "ou",
    }
)
# Words that make a bare single-digit "d/d" a date ("seen on 3/4", "since 2/9").
DATE_CUES = frozenset(
    {
        "on", "since", "from", "until", "till", "by", "dated", "date", "dos", "dob", "through", "thru",
        "after", "before", "starting", "started", "beginning", "ending", "ended", "between", "admitted",
        "discharged", "seen", "visit", "effective", "circa", "around", "approximately", "due", "scheduled",
        "returned", "admission", "discharge", "surgery", "last", "next", "filled", "refilled", "dispensed",
        "note", "notes", "planned", "booked", "rescheduled", "postponed",
        # a procedure or draw and the day it happened ("echo done 4/2", "cultures drawn 1/5")
        "done", "completed", "performed", "drawn", "collected", "placed", "removed", "pulled", "pull",
        "removal", "placement", "insertion",
        # a study, a test or an event named with its day ("echo 7/1", "ECG 2/10:", "Last BM 3/10", "start 3/10")
        "echo", "ecg", "ekg", "eeg", "emg", "mri", "ct", "cxr", "egd", "colonoscopy", "biopsy", "labs", "culture",
        "cultures", "infusion", "bm", "start", "changed", "fixed", "repaired", "panel",
        # obstetric dates: last menstrual period, estimated due date ("LMP 1/10", "EDD 10/17")
        "lmp", "edd", "edc",
        # a meeting or a call and its day ("family meeting 3/10", "appt 4/2"), a lab followed by its
        # next day ("next inr 3/18", "CBC 2/4")
        "meeting", "appt", "appointment", "conference", "call", "inr", "bmp", "cmp", "cbc", "a1c", "tsh", "lab",
        "draw", "f/u", "fu", "followup", "follow-up", "visits", "found",
    }
)
_YEAR_CUES = frozenset(
    {
        "in", "since", "from", "until", "till", "by", "during", "circa", "around", "before", "after", "through",
        "thru", "early", "late", "mid", "born", "dated", "year", "fall", "spring", "summer", "winter", "autumn",
        # a life event written with its bare year ("quit 2010", "widowed 2019")
        "quit", "retired", "married", "widowed", "divorced", "emigrated", "immigrated", "diagnosed",
    }
)
_SEASONS = ("spring", "summer", "fall", "autumn", "winter")
# A weekday written before a date is part of it ("Mon 11/4", "Wed, Aug 7"); capitalised or all caps only.
_WEEKDAY_FORMS = ("Mon(?:day)?", "Tue(?:s(?:day)?)?", "Wed(?:nesday)?", "Thu(?:r(?:s(?:day)?)?)?", "Fri(?:day)?",
                  "Sat(?:urday)?", "Sun(?:day)?")
_WEEKDAY_LEAD = "(?:" + "|".join(f"{f[0]}(?<!\\w{f[0]}){f[1:]}" for f in (*_WEEKDAY_FORMS, *(w.upper() for w in _WEEKDAY_FORMS))) + ")"
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")

# Multi-word holidays use one literal space so that each gate substring below is a true precondition.
_HOLIDAYS = (
    r"christmas(?: (?:eve|day))?", "xmas", r"thanksgiving(?: day)?", r"new year['\u2019]?s(?: (?:day|eve))?",
    r"easter(?: (?:sunday|monday))?", r"good friday", r"memorial day", r"labou?r day", r"independence day",
    r"fourth of july", "halloween", r"valentine['\u2019]?s day", r"mother['\u2019]?s day", r"father['\u2019]?s day",
    r"veterans['\u2019]? day", r"columbus day", r"presidents['\u2019]? day", r"martin luther king(?: jr\.?)? day",
    r"mlk day", r"st\.? patrick['\u2019]?s day", r"black friday", "hanukkah", "chanukah", "passover",
    r"yom kippur", r"rosh hashanah", "ramadan", "diwali", "kwanzaa", "juneteenth", r"boxing day",
    # "Valentine's" alone is the day unless a lower-case noun follows ("Valentine's mother": a person's)
    r"valentine['\u2019]?s(?: day|(?![ \t]+(?-i:[a-z])))", r"mardi gras", r"bastille day",
    r"eid(?: al-(?:fitr|adha))?", "t\u1ebft",
    r"lunar new year", r"chinese new year", "vaisakhi", r"cinco de mayo",
)
_HOLIDAY_GATE = (
    "christmas", "xmas", "thanksgiving", "new year", "easter", "friday", "memorial", "labor day", "labour day",
    "independence day", "fourth of july", "halloween", "valentine", "s day", "veterans", "columbus",
    "presidents", "king", "mlk", "patrick", "hanukkah", "chanukah", "passover", "yom kippur", "rosh hashanah",
    "ramadan", "diwali", "kwanzaa", "juneteenth", "boxing day", "mardi gras", "bastille", "eid", "t\u1ebft",
    "vaisakhi", "cinco de mayo",
)


def line_start(text: str, pos: int) -> bool:
    """True when only spaces or list marks stand between the line start and ``pos``."""
    line = text[text.rfind("\n", 0, pos) + 1 : pos]
    return line.strip(" \t-*•") == ""


# A test or scale named in capitals with a number or a letter ("AUDIT-C", "PHQ-9", "(SCAT5)") right
# before a fraction: the fraction is its score.
_TEST_NAME_BEFORE = re.compile(r"\b[A-Z][A-Za-z]*[A-Z](?:-[A-Z0-9]{1,3}|\d{1,2})\)?[ \t:=]*$")
# A month/day fraction and a list joint right before a value ("4/1 and ", "3/2, ").
_LIST_BEFORE = re.compile(r"(?<![\w/.\-])\d{1,2}/\d{1,2}(?:\s*,\s*|\s+(?:and|or|&)\s+)$")
# A dose named by its place in a course ("last dose 1/6", "next dose: 2/3") is dated, although "dose" alone
# is a cue for an amount ("dose 1/2").
_DOSE_DATE_BEFORE = re.compile(r"\b(?i:last|next|first|final)\s+doses?[\s:]*$")
# A fraction listed right before a date with a two-digit part ("(2/8 and 7/30)") is a date of the list.
_LIST_AFTER = re.compile(r"(?:\s*,\s*|\s+(?:and|or|&)\s+)(?P<m>\d{1,2})/(?P<d>\d{1,2})(?![\w/]|[.\-]\d)")
# Scores out of ten as a range ("from 6/10 to 2/10"): both ends are scores.
_TEN_RANGE_AFTER = re.compile(r"\s+(?:to|->|-)\s*\d{1,2}/10\b")
# "pain" then at most three words in the same clause before a score out of ten ("pain with walking 6/10").
_PAIN_BEFORE = re.compile(r"\b(?i:pain)(?:[ \t]+[A-Za-z]+){0,3}[ \t:=]*$")
_TEN_RANGE_BEFORE = re.compile(r"\b\d{1,2}/10\s*(?:to|->|-)\s+$")


def _listed_after_cued_date(text: str, start: int) -> bool:
    """``on 4/1 and 4/2``, ``seen 3/2, 3/9``: the fraction after a conjunction or comma follows one that a
    date cue introduced."""
    prev = _LIST_BEFORE.search(text, max(0, start - 24), start)
    return prev is not None and preceded_by(text, prev.start(), DATE_CUES, hops=0)


def _listed_before_date(text: str, end: int) -> bool:
    """``(2/8 and 7/30)``: the fraction is joined to a plausible month/day with a two-digit part, which a
    fraction or score list ("1/2 or 3/4") does not have."""
    nxt = _LIST_AFTER.match(text, end)
    if nxt is None or len(nxt["m"]) + len(nxt["d"]) < 3 or nxt["d"] == "10":
        return False
    return plausible_md(int(nxt["m"]), int(nxt["d"])) and not followed_by_unit(text, nxt.end())


def _dated_dose(text: str, start: int) -> bool:
    return _DOSE_DATE_BEFORE.search(text, max(0, start - 24), start) is not None


def _score(text: str, m: re.Match[str]) -> bool:
    """A partial date that is a score: after a named test (``AUDIT-C 1/12``), one end of a range of
    scores out of ten (``from 6/10 to 2/10``), or out of ten a few words after "pain" in its clause
    (``pain at discharge 3/10``: the date cue there names when the pain was rated)."""
    if _TEST_NAME_BEFORE.search(text, max(0, m.start() - 16), m.start()):
        return True
    return m["d"] == "10" and (
        _TEN_RANGE_AFTER.match(text, m.end()) is not None
        or _TEN_RANGE_BEFORE.search(text, max(0, m.start() - 12), m.start()) is not None
        or _PAIN_BEFORE.search(text, max(0, m.start() - 30), m.start()) is not None
    )


def plausible_md(month: int, day: int) -> bool:
    return 1 <= month <= 12 and 1 <= day <= 31


def _valid_numeric_full(text: str, m: re.Match[str]) -> bool:
    a, b, year = int(m["a"]), int(m["b"]), m["y"]
    if len(year) == 4 and not 1900 <= int(year) <= 2099:
        return False
    if m["sep"] == "." and len(year) == 2 and not (len(m["a"]) == 2 and len(m["b"]) == 2):
        # "1.2.10" is more often a version or a list index than a date.
        return False
    if not (plausible_md(a, b) or plausible_md(b, a)):
        return False
    return not preceded_by(text, m.start(), NOT_DATE_BEFORE)


def _valid_iso(text: str, m: re.Match[str]) -> bool:
    return plausible_md(int(m["m"]), int(m["d"]))


def _valid_month_year_numeric(text: str, m: re.Match[str]) -> bool:
    if not 1 <= int(m["m"]) <= 12:
        return False
    return not preceded_by(text, m.start(), NOT_DATE_BEFORE) and not followed_by_unit(text, m.end())


_LOG_DATE_LINE = re.compile(r"(?m)^[ \t]*\d{1,2}/\d{1,2}[ \t]+[A-Z]")


def _dated_log_line(text: str, pos: int) -> bool:
    """An m/d opening its line before a capital, in a note where two lines or more open so: a log's
    entries ("6/4 New bubble cards delivered", "6/7 Declined lunch")."""
    if not line_start(text, pos) or _LOG_DATE_LINE.match(text, text.rfind("\n", 0, pos) + 1) is None:
        return False
    return len(_LOG_DATE_LINE.findall(text)) >= 2


def _valid_partial(text: str, m: re.Match[str]) -> bool:
    month_s, day_s = m["m"], m["d"]
    if not plausible_md(int(month_s), int(day_s)):
        return False
    dose = _dated_dose(text, m.start())
    if not dose and preceded_by(text, m.start(), NOT_DATE_BEFORE):
        return False
    if followed_by_unit(text, m.end()) or next_word(text, m.end()) in NOT_DATE_AFTER or _score(text, m):
        return False
    cued = dose or preceded_by(text, m.start(), DATE_CUES, hops=0) or _dated_log_line(text, m.start())
    if len(month_s) == 1 and len(day_s) == 1:
        # "3/4", "2/3", "5/5" are usually fractions or grades; only a date cue makes them dates, or a
        # cued date that it follows in a list ("notes 4/1 and 4/2"), or a date it precedes in one.
        return cued or _listed_after_cued_date(text, m.start()) or _listed_before_date(text, m.end())
    if day_s == "10":
        # "6/10" is a pain score unless a date cue precedes it or it opens a line ("9/10 - PTT 57"); a
        # score is never written with a leading zero ("Lipid panel 02/10").
        return cued or line_start(text, m.start()) or month_s.startswith("0")
    return True


def _month_day(text: str, m: re.Match[str]) -> bool:
    return m["yr"] is not None or not followed_by_unit(text, m.end())


def _valid_day_month(text: str, m: re.Match[str]) -> bool:
    day = int(re.match(r"\d+", m["day"]).group())  # type: ignore[union-attr]
    return 1 <= day <= 31 and _month_day(text, m)


def _not_a_count(text: str, m: re.Match[str]) -> bool:
    return not followed_by_unit(text, m.end())


def _year_after_cue(text: str, m: re.Match[str]) -> bool:
    # The year regex starts at the digits (fast scan); the cue word ("in", "since") is checked here.
    start = m.start()
    if start == 0 or not text[start - 1].isspace():
        return False
    return last_word(text, start) in _YEAR_CUES and not followed_by_unit(text, m.end())


_NEXT_TITLE_WORD = re.compile(r"[ \t]+([A-Z][a-z'\u2019\-]+)")


def _not_a_name(text: str, m: re.Match[str]) -> bool:
    """A month alone is a date, but not as a given name: after a relation (``Wife June (82)``), before a
    possessive (``June's teacher``) or before a surname (``Parent advocate June Ashby``: the next word, in
    title case, a first name or surname that is no ordinary word)."""
    lex = load_lexicons()
    if preceded_by(text, m.start(), lex.cues["relations"], hops=0):
        return False
    if text.startswith(("'s ", "\u2019s "), m.end()):
        return False  # "June's teacher": months own nothing in notes; a person named June does
    after = _NEXT_TITLE_WORD.match(text, m.end())
    if after is None:
        return True
    word = after.group(1)
    return not (lex.is_name(word) and not lex.is_word(word))


def _bare_may(text: str, m: re.Match[str]) -> bool:
    return preceded_by(text, m.start(), frozenset({"in", "since", "until", "till", "by", "early", "late", "mid",
                                                   "last", "next", "this", "during", "of", "before", "after"}),
                       hops=0)


def _weekday_date(text: str, m: re.Match[str]) -> bool:
    """``Thu 4/4``: a plausible month and day after a weekday, which is the date cue a bare ``d/d``
    needs; not a score (``Fri 3/10 pain``)."""
    if m["m"] is not None and not plausible_md(int(m["m"]), int(m["d"])):
        return False
    return not followed_by_unit(text, m.end()) and next_word(text, m.end()) not in NOT_DATE_AFTER


def _valid_partial_range(text: str, m: re.Match[str]) -> bool:
    """``delirium 10/5-10/7``: two plausible months and days joined by a dash, not scores out of ten
    (``6/10-8/10``), not a measure's range (``strength 4/5-5/5``, ``1/2-1/4 tab``); two single-digit
    halves (``3/4-4/5``) need a date cue, as one does."""
    halves = ((m["m"], m["d"]), (m["m2"], m["d2"]))
    if not all(plausible_md(int(a), int(b)) for a, b in halves):
        return False
    if m["d"] == "10" and m["d2"] == "10":
        return False
    if preceded_by(text, m.start(), NOT_DATE_BEFORE) or followed_by_unit(text, m.end()):
        return False
    if next_word(text, m.end()) in NOT_DATE_AFTER:
        return False
    if all(len(a) == 1 and len(b) == 1 for a, b in halves):
        return preceded_by(text, m.start(), DATE_CUES, hops=0)
    return True


def date_patterns() -> list[Pattern]:
    """All DATE patterns. Spans may overlap (``March 5, 2014`` also yields ``March``); the merger unions them."""
    d = PhiType.DATE
    num = digit_start(_NUM_LEFT)
    return [
        Pattern(
            "date_numeric",
            rf"(?P<a>{num}\d?)(?P<sep>[/.\-])(?P<b>\d{{1,2}})(?P=sep)(?P<y>\d{{4}}|\d{{2}}){_NUM_RIGHT}",
            d, score=0.9, flags=0, validate=_valid_numeric_full,
        ),
        Pattern(
            "date_iso",
            rf"(?P<y>(?:19|20)(?<![{_NUM_LEFT}]\d\d)\d{{2}})(?P<sep>[/.\-])(?P<m>\d{{1,2}})(?P=sep)(?P<d>\d{{1,2}})"
            r"(?:T\d{1,2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+\-]\d{2}:?\d{2})?)?"
            rf"{_NUM_RIGHT}",
            d, score=0.95, flags=0, validate=_valid_iso,
        ),
        Pattern(
            "date_month_year_numeric",
            rf"(?P<m>{num}\d?)/(?P<y>{_YEAR4}){_NUM_RIGHT}",
            d, score=0.8, flags=0, validate=_valid_month_year_numeric,
        ),
        # "10/5-10/7": both ends of a range of partial dates (a lone "m/d" before a dash is no date, as
        # "date_partial_md" keeps off "1/2-1/4").
        Pattern(
            "date_partial_range",
            rf"(?P<first>(?P<m>{num}\d?)/(?P<d>\d{{1,2}}))[ \t]?[-\u2013][ \t]?"
            rf"(?P<second>(?P<m2>\d{{1,2}})/(?P<d2>\d{{1,2}})){_NUM_RIGHT}",
            d, score=0.7, flags=0, group="first", extra_groups=(("second", d),), validate=_valid_partial_range,
            gate=("/",),
        ),
        Pattern(
            "date_partial_md",
            rf"(?P<m>{num}\d?)/(?P<d>\d{{1,2}}){_NUM_RIGHT}",
            d, score=0.7, flags=0, validate=_valid_partial,
        ),
        Pattern(
            "date_month_day",
            rf"(?P<mon>{_MONTH_LEAD})(?:\.\s*|\s+|-)(?P<day>{_DAY})\b(?:(?:,\s*|\s+|-)(?P<yr>{_YEAR})\b)?",
            d, score=0.9, flags=0, validate=_month_day,
        ),
        Pattern(
            "date_day_month",
            rf"(?P<day>{num}\d?(?i:st|nd|rd|th)?)(?:\s+of\s+|\s+|-)?(?P<mon>{MONTH})(?![A-Za-z])\.?"
            rf"(?:(?:,\s*|\s+|-)?(?P<yr>{_YEAR})\b)?",
            d, score=0.9, flags=0, validate=_valid_day_month,
        ),
        Pattern(
            "date_month_year",
            rf"(?P<mon>{_MONTH_LEAD})\.?(?:\s+of)?,?\s*(?P<yr>{_YEAR})\b",
            d, score=0.9, flags=0,
        ),
        Pattern("date_month_name", rf"{_FULL_MONTH_LEAD}\b", d, score=0.6, flags=0, validate=_not_a_name),
        Pattern("date_month_may", r"M(?<!\wM)ay\b(?!\s+(?:be|have|need|not|also|require|benefit|take|use|return)\b)",
                d, score=0.6, flags=0, validate=_bare_may),
        Pattern(
            "date_year_in_context",
            rf"(?:19|20)(?<![{_NUM_LEFT}]\d\d)\d{{2}}(?![\w/]|[.\-/]\d)",
            d, score=0.75, flags=0, validate=_year_after_cue,
        ),
        Pattern("date_year_parenthesised", rf"\((?P<y>{_YEAR4})\)", d, score=0.7, group="y", flags=0),
        Pattern(
            "date_year_apostrophe",
            r"['\u2019](?<![\w'\u2019]['\u2019])\d{2}\b(?!['\u2019])",
            d, score=0.6, flags=0, validate=_not_a_count,
        ),
        Pattern(
            "date_season_year", rf"{word_start(_SEASONS)}(?:\s+of)?,?\s+{_YEAR}\b", d, score=0.85, flags=0,
            gate=_SEASONS,
        ),
        Pattern(
            "date_weekday_date",
            rf"{_WEEKDAY_LEAD}\.?,?\s+(?:(?P<m>\d{{1,2}})/(?P<d>\d{{1,2}})(?:/(?:\d{{4}}|\d{{2}}))?{_NUM_RIGHT}"
            rf"|{_MONTH_LEAD}\.?\s+{_DAY}\b(?:,?\s+{_YEAR4}\b)?)",
            d, score=0.85, flags=0, validate=_weekday_date,
        ),
        Pattern("date_weekday", rf"{word_start(_WEEKDAYS)}(?i:s)?\b", d, score=0.85, flags=0, gate=("day",)),
        Pattern("date_holiday", rf"{word_start(_HOLIDAYS)}\b", d, score=0.85, flags=0, gate=_HOLIDAY_GATE),
    ]
