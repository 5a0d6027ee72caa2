from __future__ import annotations

import datetime as dt
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from deid_core.surrogate.dates import ParsedDate, generic_date, parse_date

MINUS_6 = dt.timedelta(days=-6)


@pytest.mark.parametrize(
    ("text", "value", "shifted"),
    [
        ("03/05/2014", dt.date(2014, 3, 5), "02/27/2014"),
        ("3/5/14", dt.date(2014, 3, 5), "2/27/14"),
        ("3/5/2014", dt.date(2014, 3, 5), "2/27/2014"),
        ("2014-03-05", dt.date(2014, 3, 5), "2014-02-27"),
        ("2014.03.05", dt.date(2014, 3, 5), "2014.02.27"),
        ("20140305", dt.date(2014, 3, 5), "20140227"),
        ("March 5th, 2014", dt.date(2014, 3, 5), "February 27th, 2014"),
        ("March 5, 2014", dt.date(2014, 3, 5), "February 27, 2014"),
        ("Mar. 5, 2014", dt.date(2014, 3, 5), "Feb. 27, 2014"),
        ("5 March 2014", dt.date(2014, 3, 5), "27 February 2014"),
        ("the 5th of March", dt.date(2000, 3, 5), "the 28th of February"),
        ("5-Mar-2014", dt.date(2014, 3, 5), "27-Feb-2014"),
        ("05-MAR-14", dt.date(2014, 3, 5), "27-FEB-14"),
        ("MARCH 5TH", dt.date(2000, 3, 5), "FEBRUARY 28TH"),
        ("march 5", dt.date(2000, 3, 5), "february 28"),
        ("Mar 5", dt.date(2000, 3, 5), "Feb 28"),  # no year: shifted inside leap year 2000
        ("3/5", dt.date(2000, 3, 5), "2/28"),
        ("Feb 29", dt.date(2000, 2, 29), "Feb 23"),
        ("March 2012", dt.date(2012, 3, 15), "March 2012"),
        ("Mar '09", dt.date(2009, 3, 15), "Mar '09"),
        ("3/2014", dt.date(2014, 3, 15), "3/2014"),
        ("2014-03", dt.date(2014, 3, 15), "2014-03"),
        ("2012", dt.date(2012, 7, 1), "2012"),
        ("'09", dt.date(2009, 7, 1), "'09"),
        ("13/05/2014", dt.date(2014, 5, 13), "07/05/2014"),  # day first when the first number > 12
        ("2014-03-05T10:22:00Z", dt.date(2014, 3, 5), "2014-02-27T10:22:00Z"),
        ("2014-03-05 10:22", dt.date(2014, 3, 5), "2014-02-27 10:22"),
        ("Mar. 5, 2014 at 10:30 PM", dt.date(2014, 3, 5), "Feb. 27, 2014 at 10:30 PM"),
        ("Monday, March 5, 2014", dt.date(2014, 3, 5), "Thursday, February 27, 2014"),
        ("Wed 3/5/2014", dt.date(2014, 3, 5), "Thu 2/27/2014"),
    ],
)
def test_formats_shift_and_keep_their_layout(text: str, value: dt.date, shifted: str) -> None:
    parsed = parse_date(text)
    assert parsed is not None
    assert parsed.value == value
    assert parsed.format(parsed.value + MINUS_6) == shifted


def test_ordinal_suffix_is_recomputed() -> None:
    parsed = parse_date("March 1st")
    assert parsed is not None
    assert [parsed.format(dt.date(2000, 3, d)) for d in (2, 3, 4, 11, 12, 13, 21, 22, 23, 31)] == [
        "March 2nd", "March 3rd", "March 4th", "March 11th", "March 12th", "March 13th",
        "March 21st", "March 22nd", "March 23rd", "March 31st",
    ]  # fmt: skip


def test_bare_weekday_shifts_by_offset_mod_7() -> None:
    parsed = parse_date("Monday")
    assert parsed is not None and parsed.weekday_only
    for offset in (-13, -1, 1, 3, 9, 365):
        expected = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][offset % 7]
        assert parsed.format(parsed.value + dt.timedelta(days=offset)) == expected
    tue = parse_date("tue")
    assert tue is not None and tue.format(tue.value + dt.timedelta(days=2)) == "thu"


def test_weekday_without_year_follows_the_offset() -> None:
    parsed = parse_date("Thurs 3/6")
    assert parsed is not None
    assert parsed.format(parsed.value + MINUS_6) == "Fri 2/29"  # Thursday - 6 days = Friday


def test_weekday_next_to_full_date_is_the_true_weekday() -> None:
    parsed = parse_date("Sunday, June 1, 2014")
    assert parsed is not None
    new = parsed.value + dt.timedelta(days=100)
    out = parsed.format(new)
    assert out.startswith(new.strftime("%A"))


def test_year_alone_shifts_via_july_first() -> None:
    parsed = parse_date("2012")
    assert parsed is not None
    assert parsed.format(parsed.value + dt.timedelta(days=184)) == "2013"  # Jan 1, 2013
    assert parsed.format(parsed.value + dt.timedelta(days=183)) == "2012"  # Dec 31, 2012
    assert parsed.format(parsed.value + dt.timedelta(days=-183)) == "2011"  # Dec 31, 2011
    assert parsed.format(parsed.value + dt.timedelta(days=150)) == "2012"


@pytest.mark.parametrize(
    "text",
    [
        "Christmas",
        "spring",
        "yesterday",
        "13/13/2014",
        "2/30/2014",
        "10:30",
        "Thanksgiving 2012",
        "",
        "abc 3",
    ],
)
def test_unparseable(text: str) -> None:
    assert parse_date(text) is None


def test_generic_date_reveals_nothing_but_keeps_shape() -> None:
    rng = random.Random(1)
    out = generic_date("Christmas", rng)
    assert "Christmas" not in out
    assert parse_date(out) is not None  # a realistic "Month D"
    out = generic_date("Thanksgiving 2012", random.Random(2), offset_days=200)
    assert "Thanksgiving" not in out and out.endswith("2013")
    out = generic_date("early 13/45", random.Random(3))
    assert out.startswith("early ") and len(out) == len("early 13/45") and out != "early 13/45"
    assert generic_date("CHRISTMAS", random.Random(4)).isupper()


US_LAYOUTS = [
    "%m/%d/%Y", "{m}/{d}/%y", "{m}/{d}/%Y", "%Y-%m-%d", "%Y.%m.%d", "%Y%m%d", "%B {d}, %Y", "%B {do}, %Y",
    "%b {d}", "%b. {d}, %Y", "{d}-%b-%Y", "%d-%b-%y", "%B %Y", "%A, %B {d}, %Y", "%a %m/%d/%Y", "%Y",
    "%Y-%m-%dT%H:%M:%S", "{do} of %B", "%B", "%A",
]  # fmt: skip


def _render(layout: str, d: dt.date) -> str:
    suffix = "th" if 11 <= d.day <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(d.day % 10, "th")
    layout = (
        layout.replace("{m}", str(d.month)).replace("{do}", f"{d.day}{suffix}").replace("{d}", str(d.day))
    )
    return dt.datetime.combine(d, dt.time(10, 22, 5)).strftime(layout)


def _shape(parsed: ParsedDate, blur_month_name: bool) -> tuple[tuple[str, str, str, str], ...]:
    return tuple(
        (k, "name" if blur_month_name and k == "month" and s != "num" else s, c, t)
        for k, s, c, t in parsed.shape
    )


@given(
    layout=st.sampled_from(US_LAYOUTS),
    day=st.dates(min_value=dt.date(1901, 1, 1), max_value=dt.date(2098, 12, 31)),
    offset=st.integers(-365, 365).filter(lambda x: x != 0),
    upper=st.booleans(),
)
def test_surrogate_parses_with_the_same_format(layout: str, day: dt.date, offset: int, upper: bool) -> None:
    original = _render(layout, day)
    if upper:
        original = original.upper()
    parsed = parse_date(original)
    assert parsed is not None, original
    surrogate = parsed.format(parsed.value + dt.timedelta(days=offset))
    reparsed = parse_date(surrogate)
    assert reparsed is not None, (original, surrogate)
    # "May" is both the full and the abbreviated name: that style cannot survive a re-parse.
    blur = 5 in (parsed.value.month, reparsed.value.month)
    assert _shape(reparsed, blur) == _shape(parsed, blur), (original, surrogate)
    if parsed.has_day and parsed.has_year:
        expected = parsed.value + dt.timedelta(days=offset)
        if "%y" in layout:
            # A two-digit year cannot say its century: a shift across the parser's pivot year
            # (e.g. 1/1/50 -> 12/31/49) reads back a century off, so compare the printed fields.
            assert (reparsed.value.month, reparsed.value.day, reparsed.value.year % 100) == (
                expected.month, expected.day, expected.year % 100,
            ), (original, surrogate)
        else:
            assert reparsed.value == expected, (original, surrogate)
