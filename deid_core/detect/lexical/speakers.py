"""Speakers of a chat, text-message or call transcript: the name after a line's timestamp (a date may
come first) and before a colon (``21:14  Rocky:  hey is this a real nurse``, ``02/12 21:19  Rocky: u
around?``, ``[07:02] Ty: 719 ms G``, ``07:10 twrenfield: remote into PEM3``).

A capitalised label is a person when the name lists know it as a first name, or when the dictionary
does not know it as a word and it speaks twice or more (a surname that is a word, ``Pain``, is a
heading, as are ``Plan`` and ``BP``); a lower-case label is a login when it has a digit, or is no word
and speaks twice or more (``twrenfield``, ``jdoe2``; not a one-off ``premeds:``). A person found so is the speaker wherever the note writes the same word with the same
capital (``Hi Rocky,``, ``Rocky resting``): a transcript names its speakers in its lines too, and the
people detector reads no name that is also a word (``rocky``) without a cue. Speakers are PATIENT, the
source ``lexicon``: where the tagger or a rule found the same words, their type wins in the merge. The
label is a cue, so a speaker scores as a cued name does (0.8): the type vote gives a tagger place on
exactly a speaker's word the person's type (``22:41  Nilufer: 4112 ...`` read as a town).
"""

from __future__ import annotations

import re
from collections import Counter

from deid_core.lexicon import Lexicons
from schemas import PhiType, Span

SOURCE = "lexicon"
_SCORE = 0.8
_TIME = r"(?:\[\d{1,2}:\d{2}(?::\d{2})?(?:[ \t]?[AaPp][Mm])?\]|\d{1,2}:\d{2}(?::\d{2})?(?:[ \t]?[AaPp][Mm])?)"
_DATE = r"(?:\d{1,2}/\d{1,2}(?:/\d{2,4})?[ \t]+|\d{4}-\d{2}-\d{2}[ \t]+)?"  # "02/12 21:14  Rocky:"
_LABEL = re.compile(rf"(?m)^[ \t]*{_DATE}{_TIME}[ \t]+(?P<n>[A-Z][a-z'’\-]+|[a-z][a-z0-9._]{{2,}})[ \t]*:(?=[ \t])")


class SpeakerDetector:
    """Finds transcript speakers (see the module docstring)."""

    def __init__(self, lexicons: Lexicons) -> None:
        self._lex = lexicons
        cues = lexicons.cues
        self._never = cues["function_words"] | cues["clinical_abbreviations"] | cues["not_names"]

    def spans(self, text: str) -> list[Span]:
        if ":" not in text:
            return []
        labels = list(_LABEL.finditer(text))
        turns = Counter(m.group("n") for m in labels)
        people: set[str] = set()
        found: dict[tuple[int, int], Span] = {}
        for m in labels:
            name = m.group("n")
            if not self._speaker(name, turns[name]):
                continue
            if name[0].isupper():
                people.add(name)
            else:
                found[m.span("n")] = self._span(m.start("n"), m.end("n"), PhiType.USERNAME, "speaker=login")
        for name in people:
            for use in re.finditer(rf"(?<![\w'’\-]){re.escape(name)}(?![\w'’\-])", text):
                found[use.span()] = self._span(use.start(), use.end(), PhiType.PATIENT, "speaker=name")
        return sorted(found.values(), key=lambda s: (s.start, s.end))

    def _speaker(self, name: str, turns: int) -> bool:
        """A known first name speaking once; a word no list knows (``Ifeoma``, ``twrenfield``) only when
        it speaks twice or more, as speakers do (``08:20  premeds:`` once is a log's heading); a login
        with a digit."""
        low = name.lower()
        lex = self._lex
        if low in self._never or len(low) < 2:
            return False
        if name[0].isupper():
            return low in lex.first_names or (turns >= 2 and not lex.is_word(low))
        return any(c.isdigit() for c in low) or (turns >= 2 and not lex.in_use(low))

    @staticmethod
    def _span(start: int, end: int, type_: PhiType, why: str) -> Span:
        return Span(start, end, type_, _SCORE, frozenset({SOURCE}), why)
