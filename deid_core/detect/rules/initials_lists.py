"""Staff initials listed after a word that names the list's people: ``Team: AS / BI / AM / jwp``,
``Attendees signed: AK, SF, BO, KM``, ``with the team (kw, mot, bc, ed, lbh)``.

Each item of two or three letters in one case is a person (DOCTOR: a team or a meeting's members),
when the list, on one line, follows a cue word (``list_cues`` in staff_marks.yaml) and its colon or
opening parenthesis, has three items or more, and holds only such items between separators (``,``,
``/``, ``;``). An item that is a unit, credential or clinical abbreviation (``RN``, ``ICU``, ``PO``) or
a function word (``and``) is not taken; the others are. A lower-case ordinary word is taken: inside such
a list ``ed`` is someone's initials.
"""

from __future__ import annotations

import re
from functools import cache

from deid_core.detect.base import Pattern
from deid_core.detect.rules.staff_initials import capital_initials, not_initials
from deid_core.lexicon import load_lexicons
from schemas import PhiType

_ITEM = r"[A-Za-z]{2,3}(?:-[A-Z]{1,2})?"  # "AM-C", "RO-B": a hyphenated surname's initials
_SEP = r"[ \t]*[,/;][ \t]*"
# What may stand between the cue's colon or parenthesis and an item: earlier items and separators.
_ITEMS_BEFORE = re.compile(rf"[ \t]*(?:{_ITEM}{_SEP})*")
_ITEMS_AFTER = re.compile(rf"(?:{_SEP}{_ITEM}(?![\w'’]))*")
_MIN_ITEMS = 3


@cache
def _list_cue() -> re.Pattern[str]:
    words = "|".join(sorted(map(re.escape, load_lexicons().cues["list_cues"]), key=len, reverse=True))
    # The cue, at most a few words after it ("Attendees signed:", "with the team ("), then ":" or "(".
    return re.compile(rf"(?i:\b(?:{words})\b)[^\n:(]{{0,16}}[:(]")


def _item_ok(item: str) -> bool:
    if item.isupper():
        return capital_initials(item)
    return item.islower() and not not_initials(item)


def _in_a_cued_list(text: str, m: re.Match[str]) -> bool:
    item = m.group("i")
    if not _item_ok(item):
        return False
    line_start = text.rfind("\n", 0, m.start()) + 1
    cues = list(_list_cue().finditer(text, line_start, m.start()))
    cue = cues[-1] if cues else None  # the last cue on the line before the item
    if cue is None or _ITEMS_BEFORE.fullmatch(text, cue.end(), m.start()) is None:
        return False
    before = len(re.findall(_ITEM, text[cue.end() : m.start()]))
    after = _ITEMS_AFTER.match(text, m.end())
    count = before + 1 + (len(re.findall(_ITEM, after.group())) if after else 0)
    return count >= _MIN_ITEMS


def initials_list_patterns() -> list[Pattern]:
    return [
        Pattern(
            "initials_list",
            rf"(?<![\w'’.\-])(?P<i>{_ITEM})(?=[ \t]*(?:[,/;)]|$)|[ \t]{{2,}})",  # a column gap ends the list too
            PhiType.DOCTOR,
            score=0.7,
            group="i",
            flags=re.MULTILINE,
            validate=_in_a_cued_list,
            gate=tuple(sorted({c.split()[0] for c in load_lexicons().cues["list_cues"]})),
        ),
    ]
