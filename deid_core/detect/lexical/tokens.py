"""The note as word tokens with offsets, made once per note and shared by the lexical detectors."""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from functools import cached_property
from itertools import accumulate, compress, count
from operator import itemgetter

from deid_core.textfold import fold_accents

# Columns of a form or a header are set apart by a tab or three spaces or more ("Name: X      MRN 123"):
# a name never runs across such a gap into the next field's label.
_COLUMN_GAP = re.compile(r"\t| {3,}")
# Words (letters with inner apostrophes, hyphens or dots of initials), numbers, or one other character.
_TOKEN = re.compile(r"[^\W\d_]+(?:['’\-][^\W\d_]+)*\.?|\d+|[^\s\w]")
# re.split with the token as a group: the gaps and the tokens, alternately.
_PARTS = re.compile(f"({_TOKEN.pattern})")
# In tokens joined by spaces, a dot right after a letter is a word's trailing dot (any other dot is a
# token of its own, after a space).
_WORD_DOT = re.compile(r"(?<=[^\W\d_])\.")


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

class _LazyTokens(dict[int, Token]):
    """Token ``i`` of a note, built on first access and kept: most tokens (punctuation, numbers,
    lower-case words) are only ever looked at through ``TokenView.lows``, so building a ``Token`` for
    each was most of the lexical stage's time. A hit is a plain dict lookup, as fast as a list index;
    an index out of range raises ``IndexError`` as a list would."""

    __slots__ = ("_texts", "_offsets")

    def __init__(self, texts: list[str], offsets: list[int]) -> None:
        super().__init__()
        self._texts, self._offsets = texts, offsets

    def __missing__(self, i: int) -> Token:
        text = self._texts[i]  # IndexError out of range
        k = 2 * (i % len(self._texts)) + 1  # token i is part 2i+1 of TokenView._parts
        tok = self[i] = Token(self._offsets[k], self._offsets[k + 1], text)
        return tok


@dataclass(frozen=True)
class TokenView:
    """The tokens of ``text`` in order: ``at[i]`` is token ``i`` (built on first access), ``size``
    their number, ``lows[i]`` token ``i``'s ``low``; ``gap(i)`` is the text between token ``i`` and
    ``i + 1``. Everything made for every token is made by C loops (``re``, ``itertools``), no Python
    statement per token: most tokens are never looked at one by one."""

    text: str

    @cached_property
    def _parts(self) -> list[str]:
        """Gap, token, gap, token, ..., gap: token ``i`` is part ``2i + 1``, the gap after it ``2i + 2``."""
        return _PARTS.split(self.text)

    @cached_property
    def _offsets(self) -> list[int]:
        """Where each part starts (and, last, the text's end)."""
        return list(accumulate(map(len, self._parts), initial=0))

    @cached_property
    def _texts(self) -> list[str]:
        return self._parts[1::2]

    @cached_property
    def size(self) -> int:
        """The number of tokens (an attribute, not ``__len__``: the detectors ask it in their inner loops)."""
        return len(self._texts)

    @cached_property
    def at(self) -> _LazyTokens:
        """Token ``i`` as ``at[i]``, built only for the indices a detector looks at."""
        return _LazyTokens(self._texts, self._offsets)

    @cached_property
    def tokens(self) -> list[Token]:
        """All tokens as a list (the same objects as ``at``); the detectors use ``at`` and ``lows``."""
        at = self.at
        return [at[i] for i in range(self.size)]

    @cached_property
    def lows(self) -> list[str]:
        """``low`` of every token, without building the tokens where the text is ASCII: there lower
        case is one letter for one, so the tokens, joined by spaces (no token holds one), lower-cased
        and without a word's trailing dot (as ``Token.word``), split back into the lows."""
        if not self.text.isascii():
            return [t.low for t in self.tokens]  # folding and Unicode case rules: Token's own answer
        if not self._texts:
            return []
        return _WORD_DOT.sub("", " ".join(self._texts).lower()).split(" ")

    @cached_property
    def capitalised(self) -> tuple[int, ...]:
        """Indices of title-case and all-caps tokens: the only ones that can start most names."""
        texts = self._texts
        upper_first = compress(count(), map(str.isupper, map(itemgetter(0), texts)))
        if not self.text.isascii():
            at = self.at
            return tuple(i for i in upper_first if at[i].is_title or at[i].is_caps)
        # ASCII: a token opening with A-Z is a word, and Token's ``is_title or is_caps`` is then: two
        # letters or more, not all caps with an apostrophe or hyphen. Decided without building tokens.
        return tuple(i for i in upper_first if _title_or_caps_ascii(texts[i]))

    @cached_property
    def _low_set(self) -> frozenset[str]:
        return frozenset(self.lows)

    def where(self, words: Collection[str]) -> list[int]:
        """Indices of tokens whose lower case is in ``words``, in order."""
        if self._low_set.isdisjoint(words):
            return []  # often so (organisation cues, facility heads): no scan of the tokens
        return [i for i, w in enumerate(self.lows) if w in words]

    def gap(self, i: int) -> str:
        """For a token index ``i >= 0``; "" after the last token."""
        return self._parts[2 * i + 2] if i + 1 < self.size else ""

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
        prev = self.at[i - 1]
        gap = self._parts[2 * i]
        return "\n" in gap or prev.text in {".", "!", "?", ":", ";", "-", "•", "*"} or (
            prev.text.endswith(".") and not prev.is_initial and prev.low not in _ABBREVIATED
        )


def column_gap(gap: str) -> bool:
    """True when ``gap`` (text between two words) holds a tab or a run of three spaces or more."""
    return _COLUMN_GAP.search(gap) is not None


# Words written with a dot that do not end a sentence.
_ABBREVIATED = frozenset({"dr", "mr", "mrs", "ms", "st", "prof", "rev", "fr", "sr", "jr", "vs", "approx", "e.g", "i.e"})


def _title_or_caps_ascii(text: str) -> bool:
    """``Token(…, text).is_title or .is_caps`` for an ASCII token that opens with A-Z."""
    word = text[:-1] if text[-1] == "." else text
    return len(word) > 1 and (word.isalpha() or not word.isupper())
