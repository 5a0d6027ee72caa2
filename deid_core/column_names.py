"""Initials in a table's column whose other cells are initials found as persons.

Flowsheets, tracking boards and event logs give the staff who did or acknowledged each row a column of
their initials (``| RN |`` with ``JO``, ``KB``, ``MS``; ``| ack |`` with ``kk 2049``, ``rb 0021``). A cell's
letters that read as an abbreviation alone (``MS``, ``RR``) are a person there as much as their
neighbours are: a column holds one kind of value.

Invariant: a span is added only for a pipe table's cell that is two or three letters in one case alone,
or before a time (``rb 0021``, ``ak 02:33``), when cells of the same column, in the same case, with two
different values at least, are covered by a PATIENT, DOCTOR or USERNAME span of exactly their letters
(one value found again and again, ``VF`` read as a person, is no evidence) and no cell of the
column in that shape is covered by another type. The table's first row (its header) and staff roles
(``RN``, ``MD``, ``PT``) are never taken. The span takes the type most of the found cells have. Found spans are
never changed.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from deid_core.covered import covered_characters
from deid_core.lexicon import load_lexicons
from schemas import PhiType, Span

SOURCE = "lexicon"
SCORE = 0.6
_NAMES = (PhiType.PATIENT, PhiType.DOCTOR, PhiType.USERNAME)
_CELL = re.compile(r"[ \t]*(?P<i>[A-Z]{2,3}|[a-z]{2,3})(?:[ \t]+\d{1,2}:?\d{2})?[ \t]*")


def _staff_words() -> frozenset[str]:
    """Roles written in such a column instead of a person (``RN``, ``MD``, ``PT``); not every credential:
    ``MS`` and ``BA`` are initials there."""
    return load_lexicons().cues["staff"]


def names_in_columns(text: str, spans: Sequence[Span]) -> list[Span]:
    """Spans for the unfound initials of table columns whose found initials are persons (module docstring)."""
    if "|" not in text or not any(s.type in _NAMES for s in spans):
        return []
    kinds = {(s.start, s.end): s.type for s in spans}
    covered = covered_characters(text, spans)
    out: list[Span] = []
    for column in _columns(text):
        out += _in_column(text, column, kinds, covered)
    return out


def _columns(text: str) -> list[list[tuple[int, int]]]:
    """Each table's columns as lists of the (start, end) of their cells' initials, header row left out."""
    columns: dict[int, list[tuple[int, int]]] = {}
    tables: list[list[tuple[int, int]]] = []
    in_table = False
    pos = 0
    for line in text.split("\n"):
        if line.count("|") < 2:
            tables += columns.values()
            columns, in_table = {}, False
        elif not in_table:
            in_table = True  # the header row: its cells name the columns, they are not values
        else:  # a rule row ("|---|") has no letters, so no cell of it reads as initials
            at = 0
            for k, cell in enumerate(line.split("|")):
                m = _CELL.fullmatch(cell)
                if m is not None:
                    columns.setdefault(k, []).append((pos + at + m.start("i"), pos + at + m.end("i")))
                at += len(cell) + 1
        pos += len(line) + 1
    tables += columns.values()
    return [c for c in tables if len(c) >= 3]


def _in_column(text: str, cells: list[tuple[int, int]], kinds: dict[tuple[int, int], PhiType], covered: bytearray) -> list[Span]:
    out = []
    for upper in (True, False):
        shaped = [(a, b) for a, b in cells if text[a:b].isupper() == upper]
        named = [(a, b) for a, b in shaped if kinds.get((a, b)) in _NAMES]
        other = any(any(covered[a:b]) and kinds.get((a, b)) not in _NAMES for a, b in shaped)
        if len({text[a:b] for a, b in named}) < 2 or other:
            continue  # one value found again and again ("VF" read as a person) says nothing of the column
        found = Counter(kinds[c] for c in named)
        kind = found.most_common(1)[0][0]
        for a, b in shaped:
            if not any(covered[a:b]) and text[a:b].lower() not in _staff_words():
                out.append(Span(a, b, kind, SCORE, frozenset({SOURCE}), "column_names"))
    return out
