from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from deid_core.render import render
from schemas import PhiType, Span


def test_replaces_spans_and_keeps_the_rest() -> None:
    text = "Pt John Smith, MRN 12345, seen 3/5/2014."
    reps = [
        (Span(3, 13, PhiType.PATIENT), "Mark Jones"),
        (Span(19, 24, PhiType.MEDICALRECORD), "98"),
        (Span(31, 39, PhiType.DATE), "February 27, 2014"),
    ]
    assert render(text, reps) == "Pt Mark Jones, MRN 98, seen February 27, 2014."


def test_order_of_replacements_does_not_matter() -> None:
    text = "a b c"
    reps = [(Span(0, 1, PhiType.CITY), "XX"), (Span(4, 5, PhiType.CITY), "YYY")]
    assert render(text, reps) == render(text, list(reversed(reps))) == "XX b YYY"


def test_no_replacements_returns_text() -> None:
    assert render("unchanged\r\n\ttext ", []) == "unchanged\r\n\ttext "


def test_adjacent_spans() -> None:
    assert render("abcd", [(Span(0, 2, PhiType.ZIP), "1"), (Span(2, 4, PhiType.ZIP), "2")]) == "12"


@pytest.mark.parametrize(
    "reps",
    [
        [(Span(0, 3, PhiType.CITY), "x"), (Span(2, 4, PhiType.CITY), "y")],
        [(Span(3, 9, PhiType.CITY), "x")],
    ],
)
def test_overlapping_or_out_of_range_spans_are_refused(reps: list[tuple[Span, str]]) -> None:
    with pytest.raises(ValueError):
        render("abcdef", reps)


@st.composite
def text_and_replacements(draw: st.DrawFn) -> tuple[str, list[tuple[Span, str]]]:
    text = draw(st.text(min_size=1, max_size=200))
    cuts = sorted(draw(st.sets(st.integers(0, len(text)), max_size=12)))
    reps = []
    for a, b in zip(cuts[::2], cuts[1::2], strict=False):
        if a < b:
            reps.append((Span(a, b, PhiType.IDNUM), draw(st.text(max_size=15))))
    return text, reps


@given(text_and_replacements())
def test_text_outside_spans_is_kept_in_order(case: tuple[str, list[tuple[Span, str]]]) -> None:
    text, reps = case
    out = render(text, reps)
    # Walk the output: every gap of the original appears verbatim, followed by its surrogate.
    pos = 0
    cursor = 0
    for span, surrogate in sorted(reps, key=lambda r: r[0].start):
        gap = text[cursor : span.start]
        assert out[pos : pos + len(gap)] == gap
        pos += len(gap)
        assert out[pos : pos + len(surrogate)] == surrogate
        pos += len(surrogate)
        cursor = span.end
    assert out[pos:] == text[cursor:]
