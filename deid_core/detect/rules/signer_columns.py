"""A table's signer column: initials in the cells under a header that says who did it.

Flowsheets, logs and audit tables end each row with who did it (``| by |``, ``| init |``,
``| staff |``), and those cells hold initials, one or a few (``| OA, TV, security |``,
``| RA / CRNA Pham |``). Under such a header the column is the evidence: a cell's part of two to four
letters in one case is a staff member's initials even when it spells a clinical abbreviation or a word
elsewhere (``| AF |``, ``| RA |``, ``| ah |``), which the other initials rules refuse without it. Roles,
credentials, units, relations and function words are no initials there (``| RN |``, ``| PT |``,
``| mom |``, ``| and |``). A part with a digit and lower-case letters is a login (``| jdelacruz2 |``).

A table is a run of lines holding a ``|``; its header is the run's first line, and a cell is found by
counting the ``|`` before it on its line, so a table without outer pipes (``21:55 | hold | OA``) reads
the same. Header words are data (``staff_marks.yaml``, ``signer_columns``).
"""

from __future__ import annotations

import re

from deid_core.detect.base import Pattern
from deid_core.detect.rules.staff_initials import credential_words, not_initials
from deid_core.lexicon import load_lexicons
from schemas import PhiType

_SCORE = 0.75
# One part of a cell: after the cell's pipe or a separator inside it (",", "/", "&"), up to the next.
_PART = (
    r"(?m)(?:(?<=\|)|(?<=[,/&]))[ \t]*"
    r"(?P<i>[A-Za-z]{2,4}(?:-[A-Z])?|[a-z][a-z._]{1,15}\d{1,3})"
    r"[ \t]*(?=[|,/&]|$)"
)
_LOGIN = re.compile(r"[a-z][a-z._]{1,15}\d{1,3}")


def _line_bounds(text: str, pos: int) -> tuple[int, int]:
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    return start, len(text) if end < 0 else end


def _header_cell(text: str, pos: int) -> tuple[str, bool] | None:
    """The header of the cell holding ``pos``, lower case, and whether ``pos`` is on the header line;
    ``None`` when its line is not in a table."""
    start, end = _line_bounds(text, pos)
    index = text.count("|", start, pos)
    if index == 0 and text[start:end].lstrip().startswith("|"):
        return None
    head_start = start
    while head_start > 0:
        prev_start, _ = _line_bounds(text, head_start - 1)
        if "|" not in text[prev_start : head_start - 1]:
            break
        head_start = prev_start
    _, head_end = _line_bounds(text, head_start)
    cells = text[head_start:head_end].split("|")
    if index >= len(cells):
        return None
    return " ".join(cells[index].split()).lower().rstrip(":"), head_start == start


def _signer_cell(text: str, m: re.Match[str]) -> bool:
    part = m.group("i")
    if _LOGIN.fullmatch(part) is None:
        low = part.lower()
        if not (part.isupper() or part.islower()) or not_initials(part) or low in credential_words():
            return False
        if low in load_lexicons().cues["relations"]:
            return False  # "| mom |", "| wife |": who called, not who signed
    found = _header_cell(text, m.start("i"))
    if found is None:
        return False
    header, on_header = found
    return not on_header and header in load_lexicons().cues["signer_columns"]


def _type_of(text: str, m: re.Match[str]) -> PhiType:
    return PhiType.USERNAME if _LOGIN.fullmatch(m.group("i")) else PhiType.DOCTOR


def signer_column_patterns() -> list[Pattern]:
    return [
        Pattern(
            "staff_signer_column",
            _PART,
            PhiType.DOCTOR,
            score=_SCORE,
            group="i",
            flags=0,
            validate=_signer_cell,
            resolve_type=_type_of,
            gate=("|",),
        ),
    ]
