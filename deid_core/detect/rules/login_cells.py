"""Logins standing alone in a table's cell or a log's column (``| ghuang``, ``GS7-40231    aokafor1
ROSSI``, ``16:04 CALLBACK  wabernathy: reached``): a user name wherever a column sets it apart.

The token is lower case, set apart before by a pipe, a tab or a column gap (or opening its line) and
after by a pipe, a tab, a column gap, a colon or the line's end, or the first word of a log entry after
its time (``01:29 kbenoit leads off``); and it has a login's shape
(``login_shaped``: one or two initials and a listed surname of four letters or more, no word or name
itself), so cells of words, abbreviations, drugs or names in small letters (``| negative |``, ``| gluc
|``, ``| lisinopril |``, ``| boston |``) are no logins.
"""

from __future__ import annotations

import re

from deid_core.detect.base import Pattern
from deid_core.detect.rules.staff_initials import login_shaped
from deid_core.lexicon import load_lexicons
from schemas import PhiType

# The token starts right where its cell does: lookbehinds, not a run of blanks to match, so a long run of
# blanks is not scanned again from each of its positions (that was quadratic).
_CELL = (
    r"(?m)(?:(?<=\|)|(?<=\| )|(?<=\t)|(?<=  )|^[ \t]*+)(?P<u>[a-z][a-z\-]{2,}[a-z]\d{0,2})"
    r"(?=[ \t]*\||[ \t]*$|\t| {2,}|:[ \t])"
    # or the first word of a log entry after its time ("01:29 kbenoit leads off ack'd")
    r"|^[ \t]*\d{1,2}:\d{2}[ \t]+(?P<u2>[a-z][a-z\-]{2,}[a-z]\d{0,2})(?=[ \t])"
)


def _a_login(text: str, m: re.Match[str]) -> bool:
    """``login_shaped``, with a longer surname than after a role, since no role word vouches for it: four
    letters or more after one initial, five after two (not ``gluc``, ``pred``, ``clin``, ``copay``,
    ``sacrum``: a short surname hides in many abbreviations and words)."""
    login = (m.group("u") or m.group("u2")).rstrip("0123456789")
    surnames = load_lexicons().surnames
    long_tail = (len(login) >= 5 and login[1:] in surnames) or (len(login) >= 7 and login[2:] in surnames)
    return long_tail and login_shaped(login)


def _the_login(text: str, m: re.Match[str]) -> tuple[int, int]:
    return m.span("u") if m.group("u") else m.span("u2")


def login_cell_patterns() -> list[Pattern]:
    return [
        Pattern(
            "login_cell",
            _CELL,
            PhiType.USERNAME,
            score=0.75,
            locate=_the_login,
            flags=0,
            validate=_a_login,
        ),
    ]
