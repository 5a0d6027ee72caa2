"""Parse a date mention, remember its exact layout, and print another date in that layout.

``parse_date("March 5th, 2014")`` gives a :class:`ParsedDate` whose ``format(new_date)`` prints
``"February 27th, 2014"``: every field keeps its style (month name full/abbreviated/numeric, case,
zero padding, ordinal suffix, 2- or 4-digit year) and every literal between fields (separators, a
time of day, ``of``, ``the``) is kept verbatim.

Partial dates get a stand-in day so that shifting stays meaningful:
* no year (``Mar 5``, ``3/5``): the reference leap year 2000 (so ``Feb 29`` parses); printed without year;
* month and year (``March 2012``): the 15th of that month;
* a year alone (``2012``, ``'09``): July 1 of that year;
* a month alone (``March``): the 15th of that month in 2000;
* a weekday alone (``Monday``): it is printed shifted by ``(new_date - value).days mod 7``; so is the
  weekday of a date without a year. A weekday next to a full date is recomputed from the new date.

Numeric dates are read month-first (US) unless the first number cannot be a month (``13/05/2014``)
or is a 4-digit year (``2014-03-05``, ``2014.03.05``). Two-digit years pivot at 50 (``14`` is 2014,
``87`` is 1987); they print as two digits, so the pivot only matters for recomputed weekdays.

Anything else (holidays such as ``Christmas``, seasons, free text) does not parse; the surrogate
step then uses :func:`generic_date`, which keeps the shape but carries no information.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from dataclasses import dataclass

MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")

_MONTH_WORDS: dict[str, tuple[int, str]] = {}
for _i, _m in enumerate(MONTHS, start=1):
    _MONTH_WORDS[_m.lower()] = (_i, "full")
    _MONTH_WORDS.setdefault(_m[:3].lower(), (_i, "abbr"))
_MONTH_WORDS["sept"] = (9, "abbr")
_WEEKDAY_WORDS: dict[str, tuple[int, str]] = {}
for _i, _w in enumerate(WEEKDAYS):
    _WEEKDAY_WORDS[_w.lower()] = (_i, "full")
    _WEEKDAY_WORDS[_w[:3].lower()] = (_i, "abbr")
for _w, _i in (("tues", 1), ("thur", 3), ("thurs", 3)):
    _WEEKDAY_WORDS[_w] = (_i, "abbr")
_FILLER_WORDS = frozenset({"of", "the", "on", "at"})

REFERENCE_YEAR = 2000  # a leap year, so "Feb 29" without a year still parses
_WEEKDAY_ANCHOR = dt.date(2000, 1, 3)  # a Monday

_TIME = r"[Tt]?\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:\s*[AaPp]\.?[Mm]\.?)?(?:Z|\s*[+-]\d{2}:?\d{2})?"
_TOKEN_RE = re.compile(
    rf"(?P<time>{_TIME})"
    r"|(?P<num>\d+)(?:(?P<ord>(?i:st|nd|rd|th))(?![A-Za-z]))?"
    r"|(?P<word>[A-Za-z]+)"
    r"|(?P<other>.)",
    re.DOTALL,
)


@dataclass(frozen=True, slots=True)
class Part:
    """One piece of a date's layout: a literal, or a field with its print style."""

    kind: str  # "lit", "year", "month", "day", "weekday"
    style: str = ""  # year: "4"/"2"; month: "num"/"full"/"abbr"; day: "num"/"ord"; weekday: "full"/"abbr"
    case: str = "title"  # for names and ordinal suffixes: "title", "upper", "lower"
    pad: bool = False  # numeric month/day printed with two digits
    text: str = ""  # the literal text (only for "lit")


def _case_of(word: str) -> str:
    if word.isupper():
        return "upper"
    if word.islower():
        return "lower"
    return "title"


def apply_case(word: str, case: str) -> str:
    if case == "upper":
        return word.upper()
    if case == "lower":
        return word.lower()
    return word


def _ordinal_suffix(day: int) -> str:
    if 11 <= day % 100 <= 13:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")


@dataclass(frozen=True, slots=True)
class ParsedDate:
    value: dt.date
    parts: tuple[Part, ...]
    has_year: bool
    has_month: bool
    has_day: bool
    weekday: int | None = None
    """The weekday written in the text (0 = Monday), if any."""

    @property
    def weekday_only(self) -> bool:
        return not (self.has_year or self.has_month or self.has_day)

    @property
    def shape(self) -> tuple[tuple[str, str, str, str], ...]:
        """The layout without the values: equal shapes mean 'same format'."""
        return tuple((p.kind, p.style, p.case if p.kind != "lit" else "", p.text) for p in self.parts)

    def format(self, new_date: dt.date) -> str:
        """Print ``new_date`` in this layout."""
        out: list[str] = []
        for p in self.parts:
            if p.kind == "lit":
                out.append(p.text)
            elif p.kind == "year":
                out.append(f"{new_date.year % 100:02d}" if p.style == "2" else f"{new_date.year:04d}")
            elif p.kind == "month":
                if p.style == "num":
                    out.append(f"{new_date.month:02d}" if p.pad else str(new_date.month))
                else:
                    name = MONTHS[new_date.month - 1]
                    out.append(apply_case(name if p.style == "full" else name[:3], p.case))
            elif p.kind == "day":
                day = f"{new_date.day:02d}" if p.pad else str(new_date.day)
                if p.style == "ord":
                    day += apply_case(_ordinal_suffix(new_date.day), p.case)
                out.append(day)
            elif p.kind == "weekday":
                if self.has_year or self.weekday is None:
                    wd = new_date.weekday()
                else:
                    wd = (self.weekday + (new_date - self.value).days) % 7
                name = WEEKDAYS[wd]
                out.append(apply_case(name if p.style == "full" else name[:3], p.case))
        return "".join(out)


@dataclass(slots=True)
class _Num:
    index: int
    text: str
    ordinal: str | None
    apostrophe: bool

    @property
    def value(self) -> int:
        return int(self.text)


def _year_from_two_digits(yy: int) -> int:
    return 2000 + yy if yy < 50 else 1900 + yy


def _kind(m: re.Match[str]) -> str:
    for name in ("time", "num", "word"):
        if m[name] is not None:
            return name
    return "other"


def parse_date(text: str) -> ParsedDate | None:
    """Parse ``text`` (the whole of it) as a date mention, or return ``None``."""
    tokens = [(_kind(m), m) for m in _TOKEN_RE.finditer(text)]
    parts: list[Part | None] = []  # None marks a number whose role is decided below
    nums: list[_Num] = []
    month: tuple[int, str, str] | None = None
    weekday: tuple[int, str, str] | None = None
    for kind, m in tokens:
        raw = m.group(0)
        if kind == "num":
            prev = parts[-1].text if parts and parts[-1] is not None and parts[-1].kind == "lit" else ""
            nums.append(_Num(len(parts), m["num"], m["ord"], prev.endswith(("'", "\u2019"))))
            parts.append(None)
        elif kind == "word":
            low = raw.lower()
            if low in _MONTH_WORDS and month is None:
                idx, style = _MONTH_WORDS[low]
                month = (idx, style, _case_of(raw))
                parts.append(Part("month", style, _case_of(raw)))
            elif low in _WEEKDAY_WORDS and weekday is None:
                idx, style = _WEEKDAY_WORDS[low]
                weekday = (idx, style, _case_of(raw))
                parts.append(Part("weekday", style, _case_of(raw)))
            elif low in _FILLER_WORDS:
                parts.append(Part("lit", text=raw))
            else:
                return None
        else:  # time of day or punctuation: kept verbatim
            if parts and parts[-1] is not None and parts[-1].kind == "lit":
                parts[-1] = Part("lit", text=parts[-1].text + raw)
            else:
                parts.append(Part("lit", text=raw))

    roles = _assign_roles(nums, month is not None)
    if roles is None:
        return None
    year = day = None
    month_no = month[0] if month else None
    year_first = bool(nums) and roles.get(nums[0].index) == "year4"
    month_day = [n for n in nums if roles[n.index] in ("month", "day")]
    # Padding is read from the evidence: a leading zero says padded, a single digit says not. When every
    # field has two digits ("11/20/2015") the shape is ambiguous; all-numeric dates are then taken as
    # padded (MM/DD/YYYY is the common clinical form), dates with a month name as unpadded ("March 15").
    zero_padded = year_first or any(n.text.startswith("0") and len(n.text) == 2 for n in month_day)
    unpadded = any(len(n.text) == 1 for n in month_day)
    if not zero_padded and not unpadded and month is None and month_day:
        zero_padded = True
    for n in nums:
        role = roles[n.index]
        pad = len(n.text) == 2 and (n.text[0] == "0" or zero_padded)
        if role == "year4":
            year = n.value
            parts[n.index] = Part("year", "4")
        elif role == "year2":
            year = _year_from_two_digits(n.value)
            parts[n.index] = Part("year", "2")
        elif role == "month":
            month_no = n.value
            parts[n.index] = Part("month", "num", pad=pad)
        elif role == "day":
            day = n.value
            style = "ord" if n.ordinal else "num"
            parts[n.index] = Part("day", style, _case_of(n.ordinal or "x"), pad=pad)
        elif role == "compact":
            year, month_no, day = int(n.text[:4]), int(n.text[4:6]), int(n.text[6:])
            parts[n.index : n.index + 1] = [Part("year", "4"), Part("month", "num", pad=True)]
            parts.insert(n.index + 2, Part("day", "num", pad=True))
    if year is None and month_no is None and day is None and weekday is None:
        return None
    if day is not None and month_no is None:
        return None
    try:
        if month_no is None and day is None and year is None:
            value = _WEEKDAY_ANCHOR + dt.timedelta(days=weekday[0] if weekday else 0)
        elif month_no is None:
            value = dt.date(year or REFERENCE_YEAR, 7, 1)
        else:
            value = dt.date(year or REFERENCE_YEAR, month_no, day or 15)
    except ValueError:
        return None
    final = tuple(p for p in parts if p is not None)
    if len(final) != len(parts):  # pragma: no cover - every number got a role above
        return None
    return ParsedDate(
        value=value,
        parts=final,
        has_year=year is not None,
        has_month=month_no is not None,
        has_day=day is not None,
        weekday=weekday[0] if weekday else None,
    )


def _assign_roles(nums: list[_Num], has_month_name: bool) -> dict[int, str] | None:
    """Decide which number is the year, month or day; ``None`` when the numbers make no date."""
    roles: dict[int, str] = {}
    if has_month_name:
        have_day = have_year = False
        for n in nums:
            if n.apostrophe and len(n.text) == 2 and not n.ordinal and not have_year:
                roles[n.index], have_year = "year2", True
            elif n.ordinal and not have_day and 1 <= n.value <= 31 and len(n.text) <= 2:
                roles[n.index], have_day = "day", True
            elif len(n.text) == 4 and not n.ordinal and not have_year:
                roles[n.index], have_year = "year4", True
            elif len(n.text) <= 2 and not n.ordinal and not have_day and 1 <= n.value <= 31:
                roles[n.index], have_day = "day", True
            elif len(n.text) == 2 and not n.ordinal and not have_year:
                roles[n.index], have_year = "year2", True
            else:
                return None
        return roles
    if any(n.ordinal for n in nums):
        return None
    if len(nums) == 1:
        n = nums[0]
        if n.apostrophe and len(n.text) == 2:
            roles[n.index] = "year2"
        elif len(n.text) == 4 and 1000 <= n.value <= 2999:
            roles[n.index] = "year4"
        elif len(n.text) == 8 and 1000 <= int(n.text[:4]) <= 2999:
            roles[n.index] = "compact"
        else:
            return None
        return roles
    if len(nums) == 2:
        a, b = nums
        if len(a.text) == 4 and len(b.text) <= 2:
            roles[a.index], roles[b.index] = "year4", "month"
        elif len(a.text) <= 2 and len(b.text) == 4:
            roles[a.index], roles[b.index] = "month", "year4"
        elif len(a.text) <= 2 and len(b.text) <= 2:
            if a.value <= 12:
                roles[a.index], roles[b.index] = "month", "day"
            elif b.value <= 12:
                roles[a.index], roles[b.index] = "day", "month"
            else:
                return None
        else:
            return None
        return roles
    if len(nums) == 3:
        a, b, c = nums
        if len(a.text) == 4 and len(b.text) <= 2 and len(c.text) <= 2:
            roles.update({a.index: "year4", b.index: "month", c.index: "day"})
            return roles
        if len(a.text) > 2 or len(b.text) > 2 or len(c.text) not in (2, 4):
            return None
        year_role = "year4" if len(c.text) == 4 else "year2"
        if a.value <= 12:
            roles.update({a.index: "month", b.index: "day", c.index: year_role})
        elif b.value <= 12:
            roles.update({a.index: "day", b.index: "month", c.index: year_role})
        else:
            return None
        return roles
    if not nums:
        return roles
    return None


_KEEP_WORDS = frozenset(
    "of the on in at day eve after before early late mid middle end beginning week weekend morning "
    "evening night next last this since until from to and or around about approximately".split()
)
_GENERIC_WORD_RE = re.compile(r"[A-Za-z]+|\d+|.", re.DOTALL)


def generic_date(text: str, rng: random.Random, offset_days: int = 0) -> str:
    """A stand-in for a date that does not parse; keeps the shape, reveals nothing.

    Text without digits (``Christmas``, ``New Year's Day``) becomes a random ``Month D`` date in the
    case style of the original. Otherwise digits become random digits, month and weekday names become
    random month and weekday names (same length style and case), small function words (``of``,
    ``early``, ``the``) are kept, and any other word becomes a random month name. A 4-digit number
    that can be a year (1800-2199) is shifted like a year alone (via July 1 plus ``offset_days``).
    """
    if not any(c.isdigit() for c in text):
        out = f"{MONTHS[rng.randrange(12)]} {rng.randint(1, 28)}"
        return out.upper() if text.isupper() else out.lower() if text.islower() else out
    pieces: list[str] = []
    for tok in _GENERIC_WORD_RE.findall(text):
        if tok.isdigit() and len(tok) == 4 and 1800 <= int(tok) <= 2199:
            pieces.append(str((dt.date(int(tok), 7, 1) + dt.timedelta(days=offset_days)).year))
        elif tok.isdigit():
            pieces.append("".join(rng.choice("0123456789") for _ in tok))
        elif tok.isalpha() and tok.isascii():
            low = tok.lower()
            if low in _KEEP_WORDS:
                pieces.append(tok)
                continue
            if low in _WEEKDAY_WORDS:
                name = WEEKDAYS[rng.randrange(7)]
                style = _WEEKDAY_WORDS[low][1]
            else:
                name = MONTHS[rng.randrange(12)]
                style = _MONTH_WORDS.get(low, (0, "full"))[1]
            pieces.append(apply_case(name if style == "full" else name[:3], _case_of(tok)))
        else:
            pieces.append(tok)
    return "".join(pieces)
