"""Staff initials that close a line: the last line of a note, a line's signing dash, the entries of a
log, and a table's or a blank-aligned log's column of initials.

* **Ending the note** (``...F/u 5/7/2025. AR``, a last line ``sk``): two or three letters in one case
  after a sentence's end or alone on the last line, no unit, credential or clinical abbreviation (``IVF``),
  and in lower case no ordinary word.
* **Closing log entries** (``asked for callback. nf``, ``Resume meds. FP``): two or three letters in one
  case after a sentence's end, where two lines or more of the note end so, with the note's end's guards.
* **A dash ending a line** (``pt used unit phone. -gk``, ``1300   --ro``): after a sentence's end or a
  column gap, with the same guards as the note's end, except that two lower-case letters may spell a
  word there (``-sh``, ``-ha``).
* **A table's column of initials** (``| -1 | 1 | gh``): two or three lower-case letters alone in a cell,
  in two cells or more, that are no word or abbreviation.
* **A log's column of initials aligned by blanks** (``0745  B   door ajar        kp``): two or three
  lower-case letters ending three lines or more after a column gap, no unit, route or abbreviation.

All typed DOCTOR (staff), with the guards of ``staff_initials`` (``not_initials``, ``capital_initials``).
Counts over a note are made once per note (a long log would make a count per candidate quadratic).
"""

from __future__ import annotations

import re
from functools import lru_cache

from deid_core.detect.base import Pattern
from deid_core.detect.rules.staff_initials import capital_initials, credential_words, not_initials
from deid_core.lexicon import load_lexicons
from schemas import PhiType

_SCORE = 0.75


def _note_end_initials(text: str, m: re.Match[str]) -> bool:
    ini = m.group("i")
    if ini.isupper():  # "AR", "CA": capitals are read as initials unless a clinical abbreviation ("IVF")
        return capital_initials(ini)
    if not ini.islower() or not_initials(ini) or ini.lower() in credential_words():
        return False
    return not load_lexicons().is_word(ini)  # "sk"; not "ok", "yes"


def _dash_signed(text: str, m: re.Match[str]) -> bool:
    """As at the note's end, but two lower-case letters after the signing dash are initials even when
    they spell a word (``ICSI all MII. -sh``, ``informed. -ha``), unless a function word, unit or
    abbreviation (``-ok``, ``-no``)."""
    ini = m.group("i")
    if len(ini) == 2 and ini.islower():
        return not not_initials(ini) and ini not in credential_words()
    return _note_end_initials(text, m)


def _recurring_cell_initials(text: str, m: re.Match[str]) -> bool:
    """Lower-case initials in a table's cell, in two cells or more (one such cell may be a word's
    abbreviation, ``| neg |``), that are no unit, route, function word, abbreviation or word."""
    ini = m.group("i")
    lex = load_lexicons()
    if not_initials(ini) or ini in credential_words() or ini in lex.cues["clinical_abbreviations"]:
        return False
    if lex.in_use(ini):
        return False
    cells = re.findall(rf"(?m)\|[ \t]*{ini}[ \t]*(?=\||$)", text)
    return len(cells) >= 2


def _recurring_line_end_initials(text: str, m: re.Match[str]) -> bool:
    """Lower-case initials ending three lines or more after a column gap (a log's signer column without
    pipes, ``... door ajar        kp``), that are no unit, route, abbreviation or credential."""
    ini = m.group("i")
    lex = load_lexicons()
    if not_initials(ini) or ini in credential_words() or ini in lex.cues["clinical_abbreviations"]:
        return False
    return _line_end_counts(text).get(ini, 0) >= 3


@lru_cache(maxsize=8)
def _line_end_counts(text: str) -> dict[str, int]:
    """How many lines end in each run of two or three lower-case letters after a column gap: counted once
    per note, not once per candidate (a long log would make that quadratic)."""
    counts: dict[str, int] = {}
    for m in re.finditer(r"(?m)(?<![ \t])[ \t]{3,}([a-z]{2,3})[ \t]*$", text):
        counts[m.group(1)] = counts.get(m.group(1), 0) + 1
    return counts


def _recurring_sentence_end_initials(text: str, m: re.Match[str]) -> bool:
    """Initials after a sentence's end, in a note where two lines or more end so (a log whose writers sign
    each entry: ``asked for callback. nf``, ``Resume meds. FP`` then ``Back at work. AN``), that pass the
    guards of the note's end (one case; no word, unit, abbreviation or credential)."""
    return _sentence_end_count(text) >= 2 and _note_end_initials(text, m)


@lru_cache(maxsize=8)
def _sentence_end_count(text: str) -> int:
    """How many lines end in two or three letters after a sentence's end: counted once per note (see
    ``_line_end_counts``)."""
    return sum(1 for _ in _SENTENCE_END_INITIALS.finditer(text))


_SENTENCE_END_INITIALS = re.compile(r"(?m)[.!?)][ \t]+(?P<i>[A-Za-z]{2,3})[ \t]*$")


def line_end_initial_patterns() -> list[Pattern]:
    return [
        Pattern(
            "staff_initials_note_end",
            r"(?:\A|\n|[.!?][ \t])[ \t]*(?P<i>[A-Za-z]{2,3})\.?\s*\Z",
            PhiType.DOCTOR,
            score=_SCORE,
            group="i",
            flags=0,
            validate=_note_end_initials,
        ),
        Pattern(
            "staff_initials_dash_line_end",
            # "pt used unit phone. -gk", "EFM on. --lt", "1300   --ro": a dash signs an entry at the end of
            # its line after a sentence's end or a column gap (alone on its line: signoffs.py).
            r"(?m)(?:[.!?)][ \t]+|(?<![ \t])[ \t]{2,})(?:-{1,2}|[—–])[ \t]?(?P<i>[A-Za-z]{2,3})\.?[ \t]*$",
            PhiType.DOCTOR,
            score=_SCORE,
            group="i",
            flags=0,
            validate=_dash_signed,
            gate=("-", "—", "–"),
        ),
        Pattern(
            "staff_initials_table_column",
            # "| norepi 0.04 | -1 | gh\n", "| filled | sh |": a table's cell of lower-case initials that
            # signs two rows or more.
            r"(?m)\|[ \t]*(?P<i>[a-z]{2,3})[ \t]*(?=\||$)",
            PhiType.DOCTOR,
            score=_SCORE,
            group="i",
            flags=0,
            validate=_recurring_cell_initials,
            gate=("|",),
        ),
        Pattern(
            "staff_initials_gap_column",
            # "0745  B     door ajar                 kp": a log's last column of initials, aligned by blanks.
            r"(?m)(?<![ \t])[ \t]{3,}(?P<i>[a-z]{2,3})[ \t]*$",  # the gap's first blank: linear on long blank runs
            PhiType.DOCTOR,
            score=_SCORE,
            group="i",
            flags=0,
            validate=_recurring_line_end_initials,
        ),
        Pattern(
            "staff_initials_sentence_line_end",
            # "asked for callback. nf", "Resume meds. FP": initials closing the entries of a log, two or more.
            _SENTENCE_END_INITIALS.pattern,
            PhiType.DOCTOR,
            score=_SCORE,
            group="i",
            flags=0,
            validate=_recurring_sentence_end_initials,
        ),
    ]
