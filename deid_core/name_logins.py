"""Logins made from a person the note names: ``khalloway`` beside ``Kristin Halloway``.

Audit tables, portal messages and sign-offs write a staff member's or a relative's login (``Submitted
by gkiplagat``, ``| yhaddadin``, ``Lukas Lind (lukaslind on Discord)``). A login is an ordinary-looking
lower-case token and no name list knows it; what gives it away is that a person the detectors found in
the same note has the name it is made from.

Invariant: a span is added only for a lower-case token of four to twenty-four letters, digits, dots or
underscores (letters first, standing alone: no letter, digit, ``@`` or ``/`` beside it) that, without
trailing digits, is one of ``_forms`` of a PATIENT or DOCTOR span of the same note of two or more words
(``LAST, FIRST`` read as ``FIRST LAST``; a hyphenated surname also joined), and that no span covers. A
token that is an English word in use (``spike``: S. Pike) counts only in a login's slot: after ``by``,
``cosign`` or ``login``, in a table cell or parentheses, or ending a line. USERNAME.

A login also closes the parentheses after a person's name, or after a name that opens them (``Cheyenne
(cmorningstar)``, ``Faith (clinic scribe, fmcallister)``, ``(Lilian, lokafor)``), when it begins with
the person's initial, is no word in use or given name, and has a login's shape or a digit, dot or
underscore in it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from deid_core.covered import covered_characters
from deid_core.detect.rules.staff_initials import login_shaped
from deid_core.lexicon import load_lexicons
from schemas import PhiType, Span

SOURCE = "lexicon"
SCORE = 0.7
_PERSON = (PhiType.PATIENT, PhiType.DOCTOR)
_WORD = re.compile(r"[^\W\d_]+")
_TOKEN = re.compile(r"(?<![\w@/.])[a-z][a-z0-9._]{3,23}(?![\w@/])")
_SLOT_BEFORE = re.compile(r"(?:\b(?i:by|cosign(?:ed)?|login|user(?:name)?|acct|account)[:.]?|[|(])[ \t]*$")
# A login closing the parentheses after a name, or after a name that opens them.
_BESIDE = re.compile(r"(?:[ \t]*\((?:[^()\n]{0,40}?,[ \t]*)?|,[ \t]*)(?P<login>[a-z][a-z0-9._]{3,23})\)")
_SLOT_AFTER = re.compile(r"[ \t]*(?:$|[|)]|\d{1,2}:\d\d)", re.MULTILINE)


def logins_of_names(text: str, spans: Sequence[Span]) -> list[Span]:
    """USERNAME spans for logins made from the note's named persons (module docstring)."""
    found = _beside_names(text, spans)
    forms = _login_forms(text, spans)
    if not forms and not found:
        return []
    for m in _TOKEN.finditer(text):
        token = m.group().rstrip(".")
        if token.rstrip("0123456789") in forms:
            found.append((m.start(), m.start() + len(token)))
    if not found:
        return []
    covered = covered_characters(text, spans)
    lex = load_lexicons()
    out: list[Span] = []
    for start, end in sorted(set(found)):  # a login made from a name may stand beside it too
        if any(covered[start:end]):
            continue
        if lex.in_use(text[start:end]) and not _in_slot(text, start, end):
            continue  # "mood swing" is no login of Sam Wing's
        out.append(Span(start, end, PhiType.USERNAME, SCORE, frozenset({SOURCE}), "name_logins"))
    return out


def _beside_names(text: str, spans: Sequence[Span]) -> list[tuple[int, int]]:
    """``Cheyenne (cmorningstar)``, ``Faith (clinic scribe, fmcallister)``, ``(Lilian, lokafor)``: a token
    closing the parentheses after a person, or after a person who opens them, that begins with the
    person's initial, is no word in use or listed given name, and has a login's shape (initials and a
    listed surname) or a digit, dot or underscore: not a role's word (``Dr. Hollis Varga (hospitalist)``)."""
    lex = load_lexicons()
    out = []
    for s in spans:
        if s.type not in _PERSON:
            continue
        m = _BESIDE.match(text, s.end)
        if m is None:
            continue
        login = m.group("login")
        if login[0] != text[s.start].lower() or lex.in_use(login) or login in lex.first_names:
            continue
        if login_shaped(login) or any(c in "0123456789._" for c in login):  # not "(hospitalist)"
            out.append(m.span("login"))
    return out


def _login_forms(text: str, spans: Sequence[Span]) -> set[str]:
    forms: set[str] = set()
    for s in spans:
        if s.type not in _PERSON:
            continue
        value = text[s.start : s.end]
        words = [w.lower() for w in _WORD.findall(value)]
        if len(words) < 2 or len(words) > 4:
            continue
        if "," in value:
            words = words[1:] + words[:1]
        first = words[0]
        lasts = {words[-1]}
        parts = [w.lower() for w in _WORD.findall(value.split(",")[0] if "," in value else value.split()[-1])]
        if len(parts) > 1 and len(first) >= 2:  # "Ferraro-Quist": ferraroquist; "Romero-Blanco": drblanco
            lasts.add("".join(parts))
            forms.add(first[0] + "".join(p[0] for p in parts[:-1]) + parts[-1])
        for last in lasts:
            if len(first) < 2 or len(last) < 3:
                continue
            forms |= {first[0] + last, first + last[0], first + last, first + "." + last, first + "_" + last,
                      first[0] + "." + last, last + first[0], last + "." + first}
    return {f for f in forms if len(f) >= 4}


def _in_slot(text: str, start: int, end: int) -> bool:
    line_start = max(text.rfind("\n", 0, start) + 1, start - 40)
    return _SLOT_BEFORE.search(text, line_start, start) is not None or _SLOT_AFTER.match(text, end) is not None
