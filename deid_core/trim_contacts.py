"""The contact and handle parts of span trimming (``deid_core.trim``): where a tagger e-mail address
starts, which e-mail guesses are a list of logins, the digits of an extension, what part of a
blank-separated user name is a handle."""

from __future__ import annotations

import re
from dataclasses import replace

from schemas import PhiType, Span

# The word of an extension or pager written apart from its number: only the digits are the phone's.
_EXTENSION_WORD = re.compile(r"(?i:ext|extension|pager|pgr|beeper)\.?[ \t]*(?:(?:#|no\.?|number)[ \t]*)?(?::[ \t]*)?(?=\d)")
# An at sign, written or in brackets ("[at]", "(at)"); else a spelled-out " at "; the local part before it.
_AT_MARK = re.compile(r"@|[\[(]\s*at\s*[\])]", re.IGNORECASE)
_SPOKEN_AT = re.compile(r"(?<=\S)\s+at\s+(?=\S)", re.IGNORECASE)
_LOCAL_PART = re.compile(r"[^\s:;,()\[\]<>\"']+\s*$")
# A spelled-out local part keeps its spelled dots ("kyle dot walton at ...").
_SPOKEN_LOCAL_PART = re.compile(r"[\w.\-]+(?:\s+dot\s+[\w.\-]+)*\s*$", re.IGNORECASE)
# What a handle is made of; an ordinal ("70th").
_HANDLE = re.compile(r"@?[\w.\-]*\w")
_ORDINAL = re.compile(r"\d+(?:st|nd|rd|th)", re.IGNORECASE)
# Five digits or more: an identifier the tagger may have mistyped (a measure is shorter).
LONG_NUMBER = re.compile(r"\d{5,}")
# A two-digit ordinal the tagger marked as PHI: a birthday, which is an age ("her 90th").
_BIRTHDAY = re.compile(r"[1-9]\d(?:st|nd|rd|th)", re.IGNORECASE)


def address_only(text: str, span: Span) -> Span:
    """``e-mail at the library: jo.ng [at] example [dot] com``: an e-mail address starts at its local
    part, the run of non-blank characters before the at sign (written, bracketed or spelled). A guess
    with no at sign starts after its last line break."""
    value = text[span.start : span.end]
    marks = list(_AT_MARK.finditer(value)) or list(_SPOKEN_AT.finditer(value))
    if not marks:
        # No address crosses a line: a guess run on from the line before keeps its last line
        # ("opener).\n\ntvasilescu -- T. Vasilescu RN": the login, not the sentence above it).
        cut = value.rstrip().rfind("\n")
        if cut < 0:
            return span
        last = value[cut + 1 :]
        return moved(span, span.start + cut + 1 + len(last) - len(last.lstrip()), span.end)
    local = (_LOCAL_PART if _AT_MARK.search(value) else _SPOKEN_LOCAL_PART).search(value, 0, marks[-1].start())
    if local is None or local.start() == 0:
        return span
    return moved(span, span.start + local.start(), span.end)


# A login in a list: letters and digits, dots or underscores, no blank ("n.adebisi", "wferraro").
_LISTED_LOGIN = re.compile(r"[a-z][a-z0-9._]{2,30}")


def listed_logins(text: str, span: Span) -> list[Span]:
    """``Participants: n.adebisi, wferraro, diwuhartley``: a tagger e-mail guess with no at sign, written
    or spelled, that is only logins in small letters and commas is those logins, a USERNAME each; ``[]``
    for any other guess."""
    value = text[span.start : span.end]
    parts = value.split(",")
    if len(parts) < 2 or _AT_MARK.search(value) or _SPOKEN_AT.search(value):
        return []
    out, at = [], 0
    for part in parts:
        login = part.strip()
        if not _LISTED_LOGIN.fullmatch(login):
            return []
        at = value.index(login, at)
        out.append(replace(moved(span, span.start + at, span.start + at + len(login)), type=PhiType.USERNAME))
        at += len(login)
    return out


def extension_digits(text: str, span: Span) -> Span:
    """``ext 2241`` -> ``2241``: the word of an extension or pager written apart is not the phone."""
    lead = _EXTENSION_WORD.match(text, span.start, span.end)
    return span if lead is None or lead.end() == span.start else replace(span, start=lead.end())


def handle_like(part: str) -> bool:
    """Letters, some lower case, with a digit or a ``_ . @`` (``kdoyle_22``, ``m.ortiz``); not an
    ordinal (``70th``) nor a test's name in capitals (``SCAT5``)."""
    if LONG_NUMBER.fullmatch(part):
        return True  # five digits or more may be an identifier the tagger mistyped; a measure is shorter
    if not _HANDLE.fullmatch(part) or _ORDINAL.fullmatch(part) or not any(c.islower() for c in part):
        return False
    return any(c.isdigit() or c in "_.@" for c in part)


def birthday(part: str) -> bool:
    """A two-digit ordinal (``70th``): in a tagger's PHI span, the age a birthday marks."""
    return _BIRTHDAY.fullmatch(part) is not None


def moved(span: Span, start: int, end: int) -> Span:
    """``span`` with new offsets (the same object when they are its own)."""
    return span if (start, end) == (span.start, span.end) else replace(span, start=start, end=end)
