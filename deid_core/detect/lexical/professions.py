"""PROFESSION: an occupation from the lexicon said of someone (``works as a welder``, ``retired teacher``).

An occupation word alone is not enough: notes are full of ``nurse`` and ``therapist`` meaning the care
team. A cue within the few words before it must say it is someone's job (``works as``, ``retired``,
``former``, ``occupation:``, ``is a``), or ``by trade`` must follow.
"""

from __future__ import annotations

from collections.abc import Iterator

from deid_core.detect.lexical.tokens import TokenView
from deid_core.lexicon import Lexicons
from schemas import EnrichedNote, PhiType, Span

SOURCE = "lexicon"
_SCORE = 0.7
_CUES = frozenset({
    "works", "worked", "working", "employed", "employment", "job", "career", "retired", "former",
    "formerly", "occupation", "profession", "trained", "became", "unemployed",
})
# Weak cues count only right before the occupation (articles aside): "she is a nurse", not
# "was seen by the nurse".
_WEAK_CUES = frozenset({"is", "was", "as"})
_LOOKBACK = 4
_SKIP = frozenset({"a", "an", "the", "part-time", "full-time", "retired", "former", "self-employed", "night", "school"})


class ProfessionDetector:
    name = SOURCE

    def __init__(self, lexicons: Lexicons) -> None:
        table: dict[str, list[tuple[str, ...]]] = {}
        for p in lexicons.professions:
            words = tuple(p.split())
            table.setdefault(words[0], []).append(words)
        self._table = {k: sorted(v, key=len, reverse=True) for k, v in table.items()}
        self._ambiguous = frozenset(tuple(p.split()) for p in lexicons.cues["ambiguous_professions"])
        # "Ex-librarian", "ex-Marine": the prefix is part of the token.
        self._prefixed = {f"ex-{k}": k for k in self._table}

    def detect(self, note: EnrichedNote) -> list[Span]:
        return self.spans(TokenView(note.text)) if note.text else []

    def spans(self, view: TokenView) -> list[Span]:
        return [Span(s, e, PhiType.PROFESSION, _SCORE, frozenset({SOURCE}), "lexicon=profession") for s, e in self._find(view)]

    def _find(self, view: TokenView) -> Iterator[tuple[int, int]]:
        toks = view.tokens
        done = 0
        for i in view.where(self._table.keys() | self._prefixed.keys()):
            if i < done:
                continue
            first = toks[i].low
            prefixed = first in self._prefixed
            n = 0
            match: tuple[str, ...] = ()
            for words in self._table.get(self._prefixed.get(first, first), ()):
                if (self._prefixed.get(first, first), *(t.low for t in toks[i + 1 : i + len(words)])) == words:
                    n, match = len(words), words
                    break
            if not n:
                continue
            if prefixed or match not in self._ambiguous:
                last = toks[i + n - 1]
                start = toks[i].start + (3 if prefixed else 0)
                yield start, last.start + len(last.word)
                done = i + n
                continue
            before = [t.low for t in toks[max(0, i - _LOOKBACK) : i]]
            after = [t.low for t in toks[i + n : i + n + 2]]
            k = len(before)
            while k > 0 and before[k - 1] in _SKIP:
                k -= 1
            weak = k > 0 and before[k - 1] in _WEAK_CUES
            if weak or any(w in _CUES for w in before) or after == ["by", "trade"] or (
                before and before[-1] == ":" and len(before) > 1 and before[-2] in {"occupation", "job", "work", "profession"}
            ):
                last = toks[i + n - 1]
                yield toks[i].start, last.start + len(last.word)
            done = i + n
