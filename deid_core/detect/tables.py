"""Pipe tables as the detectors read them: a table is a run of lines holding a ``|``; its header is the
run's first line, and a cell is found by counting the ``|`` before it on its line, so a table without
outer pipes (``21:55 | hold | OA``) reads the same. A header is read in lower case, single-spaced,
without what it has in parentheses (``student (gr/hr)`` is ``student``)."""

from __future__ import annotations

import re

_PARENTHESES = re.compile(r"\([^)]*\)")


def line_bounds(text: str, pos: int) -> tuple[int, int]:
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    return start, len(text) if end < 0 else end


def header_of(text: str, pos: int) -> tuple[str, bool] | None:
    """The header of the cell holding ``pos``, lower case, and whether ``pos`` is on the header line;
    ``None`` when its line is not in a table."""
    start, end = line_bounds(text, pos)
    index = text.count("|", start, pos)
    if index == 0 and text[start:end].lstrip().startswith("|"):
        return None
    head_start = start
    while head_start > 0:
        prev_start, _ = line_bounds(text, head_start - 1)
        if "|" not in text[prev_start : head_start - 1]:
            break
        head_start = prev_start
    _, head_end = line_bounds(text, head_start)
    cells = text[head_start:head_end].split("|")
    if index >= len(cells):
        return None
    header = _PARENTHESES.sub(" ", cells[index])
    return " ".join(header.split()).lower().rstrip(":"), head_start == start
