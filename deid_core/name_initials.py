"""Initials of a person the note names, where they stand alone in a signing slot.

Logs, flowsheets and dictations name the staff once (``Audiologist: Yevgenia Strand``, ``Dev Mistry``)
and then sign entries with their initials: ``(ys / co)`` after an entry's heading, ``-OF/lz`` or
``-- BA`` closing a line, ``cosign SH``, ``by RC:``, ``EA 03/09/26 14:20``, ``| ANP`` in a table's last
column. Two or three letters are too short to be a name on their own, and many spell an abbreviation or
a word (``MD``, ``BA``, ``co``, ``of``); what makes them initials is that a person the detectors found
in the same note has exactly those initials, and that they stand where a signature stands.

Invariant: every span added is two or three letters in one case, standing alone (no letter, digit or
``@`` beside it), equal, ignoring case, to the initials of a PATIENT or DOCTOR span of the same note of
two or more words (first and last word, or every word; ``LAST, FIRST`` read as ``FIRST LAST``), in one
of the signing slots of ``_SLOTS`` (initials that spell a word only in the strong ones), not after a
comma (``Ann Lee, MD``: a credential), and covered by no other span. It takes the person's type. Found spans are never changed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from deid_core.covered import covered_characters
from deid_core.lexicon import load_lexicons
from schemas import PhiType, Span

SOURCE = "lexicon"
SCORE = 0.7
_PERSON = (PhiType.PATIENT, PhiType.DOCTOR)
_WORD = re.compile(r"[^\W\d_]+(?:['\u2019][^\W\d_]+)?")
_INI = r"(?:[A-Z]{2,3}|[a-z]{2,3})"
# The slots a signature takes:
# in parentheses alone or as a list of initials ("(ys)", "(ys / co)", "(RV)"),
# after a dash that opens an item or a line's end ("-OF/lz", "-- BA", "-- MD (Marco)"),
# in a pair with a slash at a line's end ("OF/lz", "WC/ap"), or after a slash and blanks ("YM / AK"),
# set apart at a line's end (two blanks or a pipe before it: "| ANP", "   tn"),
# before a date or a time ("EA 03/09/26 14:20", "RD LMFT 01/31/2026"),
# after a signing word ("cosign SH", "Reviewed: IS", "by RC:", "w/ HI hands on"),
# opening a line before a dash ("RV - dictated"); not before a colon, where abbreviations stand ("OS:").
_LIST = re.compile(rf"\((?P<list>[ \t]*{_INI}(?:[ \t]*[/,&][ \t]*{_INI})*)[ \t]*\)")
# Each slot as (what the text before the initials ends with, what the text after them starts with);
# the strong slots first.
_SLOTS: tuple[tuple[str, re.Pattern[str], re.Pattern[str]], ...] = tuple(
    (name, re.compile(before, re.MULTILINE), re.compile(after, re.MULTILINE))
    for name, before, after in (
        ("k", r"(?:^|[ \t])-{1,2}[ \t]*$", r"[ \t]*(?:$|[/,(])"),
        ("l", r"[A-Za-z]/$", r"[ \t]*$"),
        ("s", r"/[ \t]*$", r"[ \t]*$"),
        ("m", r"(?:[ \t]{2}|\|[ \t]*)$", r"[ \t]*$"),
        ("n", r"(?:^|[ \t])$", r"(?:[ \t]+[A-Z]{2,5})?[ \t]+(?:\d{1,2}/\d{1,2}/\d{2,4}|\d{1,2}:\d\d)"),
        ("o", r"\b(?i:cosign(?:ed)?|co-signed|reviewed|agree[ds]?|initials|signed|verified|by|w/|with)[:.]?[ \t]+$", r"(?![\w@'\u2019\-])"),
        ("p", r"^[ \t]*$", r"[ \t]+-[ \t]"),
    )
)
# Slots strong enough for initials that spell a word (``-- to``, ``-OF/lz``, ``OP / do``); the others
# take no function word in capitals (``TO: Buckeye``) and no word in lower case (``at 09:20``,
# ``agreed to``, ``Dr. Liao (me)``).
_STRONG = frozenset({"k", "l", "s"})
_LOOK_BACK = 40
_SHORT = re.compile(rf"(?<![^\W_]){_INI}(?![^\W_])")


def initials_of_names(text: str, spans: Sequence[Span]) -> list[Span]:
    """Spans for the initials of the note's named persons in signing slots (module docstring)."""
    wanted = _initials(text, spans)
    if not wanted:
        return []
    # Only the named persons' initials are looked at: one scan of the short tokens (a fixed pattern:
    # compiling one per note cost more than the scan), then the surroundings of those that are wanted.
    hits = [m for m in _SHORT.finditer(text) if m.group().lower() in wanted]
    if not hits:
        return []
    taken = covered_characters(text, spans)
    out: list[Span] = []
    lex = load_lexicons()
    function_words = lex.cues["function_words"]
    for m in hits:
        start, end = m.span()
        slot = _slot(text, start, end)
        if slot is None or not _alone(text, start, end):
            continue
        low = m.group().lower()
        upper = m.group().isupper()
        strong = slot in _STRONG or (slot == "o" and upper)  # "cosign IS", "Reviewed: IS"; not "agreed to"
        if not strong and (low in function_words or (not upper and lex.is_word(low))):
            continue
        if _after_comma(text, start):
            continue  # "Ann Lee, MD": a credential after a name
        if any(taken[start:end]):
            continue
        out.append(Span(start, end, wanted[low], SCORE, frozenset({SOURCE}), "name_initials"))
    return out


def _after_comma(text: str, start: int) -> bool:
    j = start - 1
    while j >= 0 and text[j] in " \t":
        j -= 1
    return j >= 0 and text[j] == ","


def _slot(text: str, start: int, end: int) -> str | None:
    """The name of the first signing slot the letters at ``start:end`` stand in, or None."""
    line_start = text.rfind("\n", max(0, start - _LOOK_BACK), start) + 1
    back = max(line_start, start - _LOOK_BACK)
    paren = text.rfind("(", back, start)
    if paren >= 0:
        listed = _LIST.match(text, paren)
        if listed is not None and listed.end() > end:
            return "list"
    for name, before, after in _SLOTS:
        if before.search(text, back, start) is not None and after.match(text, end) is not None:
            return name
    return None


def _initials(text: str, spans: Sequence[Span]) -> dict[str, PhiType]:
    """Lower-case initials -> the type of the first person span that has them."""
    out: dict[str, PhiType] = {}
    for s in spans:
        if s.type not in _PERSON:
            continue
        value = text[s.start : s.end]
        words = [w for w in _WORD.findall(value) if w[0].isalpha()]
        if len(words) < 2 or len(words) > 4:
            continue
        if "," in value:
            words = words[1:] + words[:1]  # "STRAND, YEVGENIA" is Yevgenia Strand
        for ini in {words[0][0] + words[-1][0], "".join(w[0] for w in words)}:
            if 2 <= len(ini) <= 3:
                out.setdefault(ini.lower(), s.type)
    return out


def _alone(text: str, start: int, end: int) -> bool:
    before = text[start - 1] if start else " "
    after = text[end] if end < len(text) else " "
    return not (before.isalnum() or before in "@_'\u2019" or after.isalnum() or after in "@_")
