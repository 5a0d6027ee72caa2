"""Pipe tables as the detectors read them: a table is a run of lines holding a ``|``; its header is the
run's first line, and a cell is found by counting the ``|`` before it on its line, so a table without
outer pipes (``21:55 | hold | OA``) reads the same. A header is read in lower case, single-spaced,
without what it has in parentheses (``student (gr/hr)`` is ``student``).

The lines of a text and their tables' headers are found in one pass and kept for the last few texts
(detectors ask about many cells of the same note), so reading every cell of a long table stays linear.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache

_PARENTHESES = re.compile(r"\([^)]*\)")


def line_bounds(text: str, pos: int) -> tuple[int, int]:
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    return start, len(text) if end < 0 else end


@lru_cache(maxsize=8)
def _layout(text: str) -> tuple[list[int], list[int], list[int]]:
    """Each line's start and end, and the start of the first line of the run of ``|`` lines it belongs
    to (its own start when it holds no ``|``)."""
    starts, ends, heads = [], [], []
    pos, head, in_table = 0, 0, False
    for line in text.split("\n"):
        piped = "|" in line
        if not (piped and in_table):
            head = pos
        starts.append(pos)
        ends.append(pos + len(line))
        heads.append(head)
        in_table = piped
        pos += len(line) + 1
    return starts, ends, heads


@lru_cache(maxsize=64)
def _header_cells(header_line: str) -> tuple[str, ...]:
    return tuple(" ".join(_PARENTHESES.sub(" ", cell).split()).lower().rstrip(":") for cell in header_line.split("|"))


def header_of(text: str, pos: int) -> tuple[str, bool] | None:
    """The header of the cell holding ``pos``, lower case, and whether ``pos`` is on the header line;
    ``None`` when its line is not in a table."""
    starts, ends, heads = _layout(text)
    i = bisect_right(starts, pos) - 1
    start, end = starts[i], ends[i]
    index = text.count("|", start, pos)
    if index == 0 and text[start:end].lstrip().startswith("|"):
        return None
    head = heads[i]
    j = bisect_right(starts, head) - 1
    cells = _header_cells(text[head : ends[j]])
    if index >= len(cells):
        return None
    return cells[index], head == start
