"""Initials in a table column whose other cells are initials found as persons (deid_core.column_names).
Examples invented for these tests."""

from __future__ import annotations

from deid_core.column_names import names_in_columns
from schemas import PhiType, Span

BOARD = (
    "ARR   | NAME        | RN   | NOTE\n"
    "------|-------------|------|-----\n"
    "23:41 | DOE, A      | JO   | from rehab\n"
    "23:58 | ROE, B      | KB   | w/ father\n"
    "00:30 | POE, C      | MS   | interp by phone\n"
    "00:47 | LOE, D      | MS   | found down\n"
)


def _spans(text: str, values: list[str], type_: PhiType = PhiType.DOCTOR) -> list[Span]:
    out, at = [], 0
    for v in values:
        at = text.index(v, at)
        out.append(Span(at, at + len(v), type_, 0.9, frozenset({"rules"}), "t"))
        at += len(v)
    return out


def test_unfound_initials_in_a_column_of_found_initials() -> None:
    found = names_in_columns(BOARD, _spans(BOARD, ["JO", "KB"]))
    assert [(BOARD[s.start : s.end], s.type) for s in found] == [("MS", PhiType.DOCTOR), ("MS", PhiType.DOCTOR)]


def test_one_value_found_again_and_again_is_no_evidence() -> None:
    text = "| t | rhythm |\n|--|---|\n| 1 | PEA |\n| 2 | PEA |\n| 3 | VF |\n| 4 | VF |\n"
    assert names_in_columns(text, _spans(text, ["VF", "VF"])) == []


def test_the_header_and_staff_roles_are_never_taken() -> None:
    text = "| time | RN |\n| 0800 | JO |\n| 0900 | KB |\n| 1000 | RN |\n| 1100 | AL |\n"
    found = names_in_columns(text, _spans(text, ["JO", "KB"]))
    assert [text[s.start : s.end] for s in found] == ["AL"]


def test_a_column_with_another_type_found_in_it_is_left_alone() -> None:
    text = "| x | st |\n|--|--|\n| 1 | JO |\n| 2 | KB |\n| 3 | MA |\n| 4 | NH |\n"
    spans = _spans(text, ["JO", "KB"]) + _spans(text, ["NH"], PhiType.STATE)
    assert names_in_columns(text, spans) == []
