"""Names in a table's column of people: the cells under a header that says whom each row is about
(``| student |``, ``| name |``, ``| camper |``; data in ``staff_marks.yaml``, ``person_columns``).

A cell's first words, up to a parenthesis or the cell's end, are a person when one of them is a listed
given name or surname and none is an ordinary word that is no name, in any case: a school nurse's log
writes ``| bo lindahl |`` and ``| tyrese b. |``, which the people detector leaves without a cue. Not a
relation (``| Mom |``), not words (``| see note |``), not after a title (``| Dr. Lasko |``: the people
detector reads that, and types it). PATIENT, the source ``lexicon``: where the tagger or a rule found
the same words their type wins in the merge, so a staff roster's names stay staff.

Tables are read by ``deid_core.detect.tables``.
"""

from __future__ import annotations

import re

from deid_core.detect.tables import header_of
from deid_core.lexicon import Lexicons
from schemas import PhiType, Span

SOURCE = "lexicon"
_SCORE = 0.7
# One to three words of letters (an initial with its full stop), from the cell's start to a parenthesis
# or the cell's end.
_NAME_CELL = re.compile(
    r"(?m)(?<=\|)[ \t]*(?P<n>[A-Za-z][A-Za-z'’\-]*\.?(?:[ \t][A-Za-z][A-Za-z'’\-]*\.?){0,2})[ \t]*(?=[|(]|$)"
)
_WORD = re.compile(r"[A-Za-z][A-Za-z'’\-]*")


class PersonColumnDetector:
    """Finds the names of a table's person column (see the module docstring)."""

    def __init__(self, lexicons: Lexicons) -> None:
        self._lex = lexicons
        cues = lexicons.cues
        self._headers = cues["person_columns"]
        self._relations = cues["relations"]
        self._titles = cues["titles"]

    def spans(self, text: str) -> list[Span]:
        if "|" not in text:
            return []
        out = []
        for m in _NAME_CELL.finditer(text):
            if not self._name(m.group("n")):
                continue
            found = header_of(text, m.start("n"))
            if found is None or found[1] or found[0] not in self._headers:
                continue
            out.append(Span(m.start("n"), m.end("n"), PhiType.PATIENT, _SCORE, frozenset({SOURCE}), "lexicon=person_column"))
        return out

    def _name(self, value: str) -> bool:
        lex = self._lex
        full = [w for w in _WORD.findall(value) if len(w) > 1]
        if not full or full[0].lower() in self._titles or any(w.lower() in self._relations for w in full):
            return False
        return any(lex.is_name(w) for w in full) and not any(lex.is_word(w) and not lex.is_name(w) for w in full)
