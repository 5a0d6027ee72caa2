"""The note as word tokens with offsets, made once per note and shared by the lexical detectors."""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from functools import cached_property

# Words (letters with inner apostrophes, hyphens or dots of initials), numbers, or one other character.
_TOKEN = re.compile(r"[^\W\d_]+(?:['’\-][^\W\d_]+)*\.?|\d+|[^\s\w]")
_INITIAL = re.compile(r"[A-Z]\.?")


class Token:
    """One token and its shape, computed once (the lexical detectors ask each question many times).

    ``word`` is the text without a trailing dot (``Dr.`` -> ``Dr``; ``K.`` -> ``K``); ``low`` its lower
    case. ``is_title``: an upper-case letter then at least one lower-case (``Ximena``, ``O'Brien``,
    ``McAdams``)."""

    __slots__ = ("start", "end", "text", "word", "low", "is_title", "is_caps", "is_lower", "is_initial", "is_word")

    def __init__(self, start: int, end: int, text: str) -> None:
        self.start, self.end, self.text = start, end, text
        word = text[:-1] if len(text) > 1 and text[-1] == "." else text
        self.word = word
        self.low = word.lower()
        alpha = word.isalpha()
        self.is_word = word[:1].isalpha()
        self.is_title = len(word) > 1 and word[0].isupper() and not word.isupper() and self.is_word
        self.is_caps = len(word) > 1 and alpha and word.isupper()
        self.is_lower = alpha and word.islower()
        self.is_initial = _INITIAL.fullmatch(text) is not None


@dataclass(frozen=True)
class TokenView:
    """``tokens`` of ``text`` in order; ``gap(i)`` is the text between token ``i`` and ``i + 1``."""

    text: str

    @cached_property
    def tokens(self) -> tuple[Token, ...]:
        return tuple(Token(m.start(), m.end(), m.group()) for m in _TOKEN.finditer(self.text))

    @cached_property
    def lows(self) -> tuple[str, ...]:
        return tuple(t.low for t in self.tokens)

    @cached_property
    def capitalised(self) -> tuple[int, ...]:
        """Indices of title-case and all-caps tokens: the only ones that can start most names."""
        return tuple(i for i, t in enumerate(self.tokens) if t.is_title or t.is_caps)

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

    def sentence_start(self, i: int) -> bool:
        """True when token ``i`` opens a sentence, a line or a field (``Name: ``)."""
        if i == 0:
            return True
        prev = self.tokens[i - 1]
        gap = self.text[prev.end : self.tokens[i].start]
        return "\n" in gap or prev.text in {".", "!", "?", ":", ";", "-", "•", "*"} or (
            prev.text.endswith(".") and not prev.is_initial and prev.low not in _ABBREVIATED
        )


# Words written with a dot that do not end a sentence.
_ABBREVIATED = frozenset({"dr", "mr", "mrs", "ms", "st", "prof", "rev", "fr", "sr", "jr", "vs", "approx", "e.g", "i.e"})
