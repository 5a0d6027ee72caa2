"""A name among listed names: an item of a list whose other items open with persons opens with one too.

Rosters, attendance lists, sibling lines and team lists set names side by side (``Ngozi (Faraday 4),
Hallie (Faraday 5), Jun (Pemberton ICU)``, ``- Dominic - present`` / ``- Ro - absent``, ``Siblings:
Ahmad 12, Nilofar 5, Sami 18 months``). A short or unusual given name among them (``Jun``, ``Ro``,
``Sami``) is as much a person as its neighbours, though alone it reads as a month, a word or a ward.

Invariant: a span is added only for the first word of a list item, when at least two other items of the
same list open with a PATIENT or DOCTOR span (any detector's) and no other item opens with another
PHI type; the word is capitalised, two to twelve letters (a hyphen joining two such parts allowed), a
listed given name or no dictionary word, no title, role, relation, language or other never-name (a
month's short name excepted: ``Jun``, ``Jan``), followed by what follows a name in a list (``_AFTER``),
and no span covers it. It takes the type most of the neighbours have. A list is one line's items split
at commas, semicolons, ``&`` and ``and`` outside parentheses (after a label's colon), or a run of lines
opening with the same bullet. Found spans are never changed.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from deid_core.covered import covered_characters
from deid_core.lexicon import load_lexicons
from schemas import PhiType, Span

SOURCE = "lexicon"
SCORE = 0.7
_PERSON = (PhiType.PATIENT, PhiType.DOCTOR)
_NOT_NAMES = ("titles", "officer_titles", "staff", "extra_roles", "languages", "relations")
_MONTHS = frozenset("jan feb mar apr jun jul aug sep sept oct nov dec".split())
_SPLIT = re.compile(r"[,;&]|\band\b")
_HEAD = re.compile(r"[ \t]*(?:[-*\u2022][ \t]+|\d{1,2}[.)][ \t]+)?(?P<w>[^\W\d_][\w'\u2019\-]*)")
_BULLET = re.compile(r"[ \t]*([-*\u2022]|\d{1,2}[.)])[ \t]+")
_BULLET_OPENERS = frozenset(" \t-*\u20220123456789")
_WORD = re.compile(r"[A-Z][a-z]{1,11}(?:-[A-Z][a-z]{1,11})?")
# What may follow a name that opens an item: the item's end, a parenthesis, a dash, a colon, a comma or
# semicolon, an age (``Sami 18 months``) or a surname's initial (``An T.``); not a lower-case word
# (``- Debrief for volunteers``), a title's full stop (``Dr.``) or a measure (``Tmax 39.1``).
_AFTER = re.compile(r"[ \t]*(?:$|\n|[(,;:&]|[-\u2013\u2014][ \t]|and\b|\d{1,3}(?:[ \t]*(?:y/o|yo|y|mo|months?|years?|yrs?))?(?=[ \t]*(?:$|\n|[),;&(]|and\b))|[A-Z]\.)")


def names_in_lists(text: str, spans: Sequence[Span]) -> list[Span]:
    """Spans for the unnamed heads of list items whose siblings are persons (module docstring)."""
    if not any(s.type in _PERSON for s in spans):
        return []
    lists = _lists(text)
    if not lists:
        return []
    kinds: dict[int, PhiType] = {}
    for s in spans:
        kinds.setdefault(s.start, s.type)
    covered = covered_characters(text, spans)
    out: list[Span] = []
    for items in lists:
        out += _in_list(text, items, kinds, covered)
    return out


def _lists(text: str) -> list[list[int]]:
    """Each list as the offsets where its items start: one line's items, then runs of bullet lines."""
    lists: list[list[int]] = []
    run: list[int] = []
    marker = None
    pos = 0
    for line in text.split("\n"):
        # Most lines hold fewer than two separators: they are passed over without a closer look.
        if line.count(",") + line.count(";") + line.count("&") + line.count(" and ") >= 2:
            body = line.split(":", 1)[1] if ":" in line else line
            offset = pos + len(line) - len(body)
            starts = [offset] + [offset + end for end in _separators(body)]
            if len(starts) >= 3:
                lists.append(starts)
        bullet = _BULLET.match(line) if line[:1] in _BULLET_OPENERS else None
        if bullet and bullet.group(1)[0] == marker:
            run.append(pos)
        else:
            if len(run) >= 3:
                lists.append(run)
            run, marker = ([pos], bullet.group(1)[0]) if bullet else ([], None)
        pos += len(line) + 1
    if len(run) >= 3:
        lists.append(run)
    return lists


def _separators(body: str) -> list[int]:
    """Where items start after a separator outside parentheses (``Deb (nurse mgr, Haldane 5); Ama``)."""
    if "(" not in body:
        return [m.end() for m in _SPLIT.finditer(body)]
    out, depth, last = [], 0, 0
    for m in _SPLIT.finditer(body):
        depth += body.count("(", last, m.start()) - body.count(")", last, m.start())
        last = m.start()
        if depth <= 0:
            out.append(m.end())
    return out


def _in_list(text: str, items: list[int], kinds: dict[int, PhiType], covered: bytearray) -> list[Span]:
    heads = [_HEAD.match(text, start) for start in items]
    found = [(m.start("w"), m.end("w")) for m in heads if m is not None]
    persons = Counter(kinds[a] for a, _ in found if kinds.get(a) in _PERSON)
    if sum(persons.values()) < 2 or any(a in kinds and kinds[a] not in _PERSON for a, _ in found):
        return []
    kind = persons.most_common(1)[0][0]
    lex = load_lexicons()
    cues = lex.cues
    out = []
    for a, b in found:
        word = text[a:b]
        if a in kinds or any(covered[a:b]) or not _WORD.fullmatch(word) or _AFTER.match(text, b) is None:
            continue
        low = word.lower()
        if any(low in cues[key] for key in _NOT_NAMES) or low in lex.professions:
            continue  # "Dr", "Paramedic", "English": a title, a role or a language opens the item
        if low in cues["not_names"] and low not in _MONTHS:
            continue  # a credential, a drug, a faith; a month's short name among persons is a name (Jun, Jan)
        if low in lex.first_names or not lex.is_word(low):
            out.append(Span(a, b, kind, SCORE, frozenset({SOURCE}), "list_names"))
    return out
