"""What comes right after a person's name: an age (``Diego (11)``, ``Oksana Hryhorenko, 61;``) or a
nickname in quotes (``Oksana "Ox" Hryhorenko``, ``Stanislaw's ("Stosh")``).

Notes list household members, relatives and contacts as a name and an age in parentheses or set off by
commas, often far from the relation word that the ``age_of_relative`` rule needs, and give the name a
person goes by in quotes beside the name. Once the detectors have found the name (a person span of
either type, by any detector: the type is the less certain part), these are read from the text after it:

* the number in parentheses, alone or before a comma, "yo" or "mo", or after a comma and before another
  comma, a semicolon, a closing parenthesis, the end of a sentence, "yo" or a dash between spaces that
  no number follows (``Zainab Haddad, 9 - homesick``, ``Aria, 3 yo``), is an AGE; a number followed by
  anything else (a unit, a slash, a decimal) is a measure, not an age;
* one or two capitalised words, or initials (``("BC")``), in quotes, straight after the name or its
  possessive and in parentheses or not, are the same person's name; after a name in capitals, a word
  in capitals (``HAWKINS, LEROY "BUDDY"``);
* a capitalised word right before the name in parentheses that starts as the name's first word does
  (``RN Mags (Magdalena Zoric)``, ``Bea (Beatrix)``, ``Bea ("Beatrix")``, in capitals ``SKY ("SKYLAR")``
  before a name in capitals) is the short form the person goes by.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from deid_core.covered import covered_characters
from schemas import PhiType, Span

SOURCE = "lexicon"
SCORE = 0.7
MAX_AGE = 120
_PERSON = (PhiType.PATIENT, PhiType.DOCTOR)
_AFTER_NAME = re.compile(
    r"[ \t]?\([ \t]*(?P<paren>\d{1,3})[ \t]*(?:[),;]|(?:yo|y/o|y|mo|mos)\b)"
    r"|,[ \t]*(?P<comma>\d{1,3})(?=[ \t]*(?:[,;)]|\.(?!\d)|$)|[ \t]+[-\u2013\u2014][ \t]+(?!\d)|[ \t]?(?:yo|y/o)\b)",
    re.MULTILINE,
)
_SHORT_BEFORE = re.compile(r"(?<![\w'\u2019\-])(?P<short>[A-Z][a-z]{1,11}|[A-Z]{2,12})[ \t]*\([ \t]*[\"\u201c]?$")
_CLOSING = re.compile(r"[\"\u201d]?[ \t]*\)")
# One way only to read the blanks before the quote (not "[ \t]*\(?[ \t]*": with no parenthesis, a long run
# of blanks split every way between the two was quadratic).
_NICKNAME = re.compile(
    r"(?:['\u2019]s)?[ \t]*(?:\([ \t]*)?[\"\u201c](?P<nick>[A-Z][a-z'\-]{1,15}(?: [A-Z][a-z'\-]{1,15})?|[A-Z]{2,12})[\"\u201d]"
)


def spans_after_names(text: str, spans: Sequence[Span]) -> list[Span]:
    """AGE spans for the numbers right after person spans, and PATIENT or DOCTOR spans for nicknames
    in quotes right after them, except where a span already covers them."""
    out: list[Span] = []
    covered = covered_characters(text, spans)  # a mask, not a scan of the spans per find (linear)
    taken: set[tuple[int, int]] = set()
    for span in spans:
        if span.type not in _PERSON:
            continue
        for found in (_age_after(text, span.end) or _nickname_after(text, span), _short_form_before(text, span)):
            if found is None:
                continue
            start, end, type_, why = found
            if any(covered[start:end]) or (start, end) in taken:
                continue
            taken.add((start, end))
            out.append(Span(start, end, type_, SCORE, frozenset({SOURCE}), why))
    return out


def _age_after(text: str, end: int) -> tuple[int, int, PhiType, str] | None:
    m = _AFTER_NAME.match(text, end)
    if m is None:
        return None
    group = "paren" if m.group("paren") is not None else "comma"
    if not 0 < int(m.group(group)) <= MAX_AGE:
        return None
    return *m.span(group), PhiType.AGE, "age after a name"


def _short_form_before(text: str, span: Span) -> tuple[int, int, PhiType, str] | None:
    """``RN Mags (Magdalena Zoric)``: a capitalised word right before the person in parentheses that
    begins with the same two letters as the person's first name, and is not that name, is the short
    form the person goes by."""
    if not _CLOSING.match(text, span.end):
        return None
    m = _SHORT_BEFORE.search(text, max(0, span.start - 20), span.start)
    first = text[span.start : span.end].split()[0]
    if m is None or m.group("short") == first or m.group("short")[:2].lower() != first[:2].lower():
        return None
    if not _case_fits(m.group("short"), text[span.start : span.end]):
        return None
    return *m.span("short"), span.type, "short form before a name"


def _case_fits(word: str, name: str) -> bool:
    """A word of four capitals or more beside a name is a nickname only when the name is in capitals too
    (``LEROY "BUDDY"``, ``SKY ("SKYLAR")``); beside ``Leroy`` it is a shout or a code (``"DNR"``)."""
    return len(word) < 4 or not word.isupper() or name.isupper()


def _nickname_after(text: str, span: Span) -> tuple[int, int, PhiType, str] | None:
    m = _NICKNAME.match(text, span.end)
    if m is None or not _case_fits(m.group("nick"), text[span.start : span.end]):
        return None
    return *m.span("nick"), span.type, "nickname after a name"
