"""Structured dates of HL7 v2 (TS/DTM/DT) and FHIR (date/dateTime/instant): parse, shift, generalise.

Invariant: a shifted value has the same precision, layout and zone as the original; only the calendar
date moves, by whole days, so times of day and intervals between dates of one patient survive.
Partial values move like the free-text parser does it (``deid_core.surrogate.dates``): a month-precision
value by its 15th, a year-precision one by July 1, then printed at the original precision. A value that
does not parse returns ``None`` and the caller fails closed (removes it).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

# HL7 DTM: YYYY[MM[DD[HH[MM[SS[.S[S[S[S]]]]]]]]][+/-ZZZZ]
_HL7 = re.compile(r"^(\d{4})(\d{2})?(\d{2})?(\d{2}(?:\d{2}(?:\d{2}(?:\.\d{1,4})?)?)?)?([+-]\d{4})?$")
# FHIR date / dateTime / instant
_FHIR = re.compile(r"^(\d{4})(?:-(\d{2})(?:-(\d{2})(T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?)?)?)?$")
_HL7_TYPES = frozenset({"TS", "DTM", "DT", "DR", "DLD", "DIN"})


@dataclass(frozen=True, slots=True)
class StructuredDate:
    value: dt.date
    precision: str  # "year" | "month" | "day"
    time: str
    """Everything after the date (HL7: time digits and zone; FHIR: 'T...' with zone), kept verbatim."""
    style: str  # "hl7" | "fhir"

    def format(self, new: dt.date) -> str:
        if self.style == "hl7":
            head = f"{new.year:04d}" + (f"{new.month:02d}" if self.precision != "year" else "")
            head += f"{new.day:02d}" if self.precision == "day" else ""
        else:
            head = f"{new.year:04d}" + (f"-{new.month:02d}" if self.precision != "year" else "")
            head += f"-{new.day:02d}" if self.precision == "day" else ""
        return head + self.time


def is_hl7(datatype: str) -> bool:
    return datatype.upper() in _HL7_TYPES


def parse(value: str, datatype: str) -> StructuredDate | None:
    text = value.strip()
    if is_hl7(datatype) or (not datatype and _HL7.match(text)):
        m = _HL7.match(text)
        if m is None:
            return None
        year, month, day = m.group(1), m.group(2), m.group(3)
        time = (m.group(4) or "") + (m.group(5) or "")
        if day is None and time:
            return None  # hours without a day are not a TS
        style = "hl7"
    else:
        m = _FHIR.match(text)
        if m is None:
            return None
        year, month, day, time = m.group(1), m.group(2), m.group(3), m.group(4) or ""
        style = "fhir"
    precision = "day" if day else "month" if month else "year"
    try:
        date = dt.date(int(year), int(month) if month else 7, int(day) if day else (15 if month else 1))
    except ValueError:
        return None
    return StructuredDate(date, precision, time, style)


def shift(value: str, datatype: str, offset_days: int) -> str | None:
    parsed = parse(value, datatype)
    if parsed is None:
        return None
    try:
        return parsed.format(parsed.value + dt.timedelta(days=offset_days))
    except OverflowError:
        return None


def year_only(value: str, datatype: str) -> str | None:
    """Safe Harbor keeps the year alone. FHIR ``instant`` must be complete, so it becomes Jan 1, 00:00Z."""
    parsed = parse(value, datatype)
    if parsed is None:
        return None
    if datatype == "instant":
        return f"{parsed.value.year:04d}-01-01T00:00:00Z"
    return f"{parsed.value.year:04d}"


def age_on(birth: dt.date, on: dt.date) -> int:
    return on.year - birth.year - ((on.month, on.day) < (birth.month, birth.day))
