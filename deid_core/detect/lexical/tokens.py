"""The note as word tokens with offsets, made once per note and shared by the lexical detectors."""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from functools import cached_property

from deid_core.textfold import fold_accents

# Columns of a form or a header are set apart by a tab or three spaces or more ("Name: X      MRN 123"):
# a name never runs across such a gap into the next field's label.
_COLUMN_GAP = re.compile(r"\t| {3,}")
# Words (letters with inner apostrophes, hyphens or dots of initials), numbers, or one other character.
_TOKEN = re.compile(r"[^\W\d_]+(?:['’\-][^\W\d_]+)*\.?|\d+|[^\s\w]")


class Token:
    """One token and its shape, computed once (the lexical detectors ask each question many times).

    ``word`` is the text without a trailing dot (``Dr.`` -> ``Dr``; ``K.`` -> ``K``); ``low`` its lower
    case. ``is_title``: an upper-case letter then at least one lower-case (``Ximena``, ``O'Brien``,
    ``McAdams``)."""

    __slots__ = ("start", "end", "text", "word", "low", "is_title", "is_caps", "is_lower", "is_initial", "is_word")

    def __init__(self, start: int, end: int, text: str) -> None:
        # Every token of every note is built, so the common shapes return early: most tokens are
        # punctuation, numbers or lower-case words, for which the case tests are decided by the first
        # character (the full tests are spelled out in the last branch and in test_lexical_speed.py).
        self.start, self.end, self.text = start, end, text
        n = len(text)
        word = text[:-1] if n > 1 and text[-1] == "." else text
        self.word = word
        low = word.lower()
        # Word lists are ASCII: "Teófilo" is looked up as "teofilo".
        self.low = low if word.isascii() else fold_accents(low)
        first = word[0]
        if not first.isalpha():
            self.is_word = self.is_title = self.is_caps = self.is_lower = self.is_initial = False
            return
        self.is_word = True
        if first.islower():
            # A lower-case letter first: neither title case, nor all caps, nor an ASCII capital.
            self.is_title = self.is_caps = self.is_initial = False
            self.is_lower = low == word and word.isalpha()
            return
        upper = word.isupper()
        self.is_title = len(word) > 1 and first.isupper() and not upper
        self.is_caps = upper and len(word) > 1 and word.isalpha()
        self.is_lower = low == word and word.isalpha()
        # "K" or "K.": one ASCII capital (what _INITIAL matches), checked without a regex call.
        self.is_initial = (n == 1 or (n == 2 and text[1] == ".")) and "A" <= first <= "Z"

@dataclass(frozen=True)
class TokenView:
    """``tokens`` of ``text`` in order; ``gap(i)`` is the text between token ``i`` and ``i + 1``."""

    text: str

    @cached_property
    def tokens(self) -> list[Token]:
        """All tokens, built once into a plain list: the detectors index it several hundred thousand
        times per run, and a lazy sequence's ``__getitem__`` is a Python call per access, which costs
        more than building the tokens nobody looks at."""
        return [Token(m.start(), m.end(), m.group()) for m in _TOKEN.finditer(self.text)]

    @cached_property
    def lows(self) -> list[str]:
        return [t.low for t in self.tokens]

    @cached_property
    def capitalised(self) -> tuple[int, ...]:
        """Indices of title-case and all-caps tokens: the only ones that can start most names."""
        return tuple(i for i, t in enumerate(self.tokens) if t.text[0].isupper() and (t.is_title or t.is_caps))

    def where(self, words: Collection[str]) -> list[int]:
        """Indices of tokens whose lower case is in ``words``."""
        return [i for i, w in enumerate(self.lows) if w in words]

    def gap(self, i: int) -> str:
        toks = self.tokens
        return self.text[toks[i].end : toks[i + 1].start] if i + 1 < len(toks) else ""

    def same_line(self, i: int) -> bool:
        """True when token ``i + 1`` follows token ``i`` on the same line, separated by spaces only."""
        gap = self.gap(i)
        return gap != "" and gap.strip(" \t") == ""

    def same_field(self, i: int) -> bool:
        """``same_line`` without a column gap (a tab, three spaces or more) between: token ``i + 1`` is in
        the same field of a form as token ``i``, not the next column's label (``Kettleby      Age``)."""
        return self.same_line(i) and column_gap(self.gap(i)) is False

    def sentence_start(self, i: int) -> bool:
        """True when token ``i`` opens a sentence, a line or a field (``Name: ``)."""
        if i == 0:
            return True
        prev = self.tokens[i - 1]
        gap = self.text[prev.end : self.tokens[i].start]
        return "\n" in gap or prev.text in {".", "!", "?", ":", ";", "-", "•", "*"} or (
            prev.text.endswith(".") and not prev.is_initial and prev.low not in _ABBREVIATED
        )


def column_gap(gap: str) -> bool:
    """True when ``gap`` (text between two words) holds a tab or a run of three spaces or more."""
    return _COLUMN_GAP.search(gap) is not None


# Words written with a dot that do not end a sentence.
_ABBREVIATED = frozenset({"dr", "mr", "mrs", "ms", "st", "prof", "rev", "fr", "sr", "jr", "vs", "approx", "e.g", "i.e"})
