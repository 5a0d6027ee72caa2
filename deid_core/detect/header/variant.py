"""A note folded once into the views header values are looked up in, and a header value's spelling as a
token sequence matched at one place of it.

A ``Variant`` is a sequence of ``Part``s: each part is one token (or one of a few spellings of it, tried in
order: ``Street``, ``St``), compared with the folded text or, for parts that must keep their case, the
text itself; between a part and the next, a fixed separator pattern (``\\s+``, ``\\s*,?\\s+``...). Guards
check the characters before the start and after the end (word or number boundaries, the context a state
code needs). Matching is one left-to-right pass: a separator never takes a character the next token could
start with, so there is nothing to backtrack over; and nothing is compiled per header.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterable
from functools import cached_property, lru_cache
from itertools import accumulate
from typing import NamedTuple

from deid_core.detect.header.words import COMMON_WORD_NAMES
from schemas import PhiType

SOURCE = "header"
SCORE = 0.99

# --- the note --------------------------------------------------------------------------------------------

# Characters that Python's case-insensitive matching treats as equal beyond their lower case
# (``re._casefix``): each group folds to its first member.
_CASE_GROUPS = (
    (105, 305), (115, 383), (181, 956), (837, 953, 8126), (912, 8147), (944, 8163), (946, 976),
    (949, 1013), (952, 977), (954, 1008), (960, 982), (961, 1009), (962, 963), (966, 981), (1074, 7296),
    (1076, 7297), (1086, 7298), (1089, 7299), (1090, 7300, 7301), (1098, 7302), (1123, 7303),
    (7304, 42571), (7777, 7835), (64261, 64262),
)  # fmt: skip
_CASE_CANON: dict[str, str] = {chr(c): chr(g[0]) for g in _CASE_GROUPS for c in g[1:]}


@lru_cache(maxsize=4096)
def _fold_char(c: str) -> str:
    low = c.lower()
    if len(low) != 1:  # "İ".lower() is two characters; the regex engine's simple lower case is "i"
        low = "i" if c == "\u0130" else c
    return _CASE_CANON.get(low, low)


def fold(s: str) -> str:
    """Case folding as the regex engine compares under IGNORECASE, one character for one character, so
    that offsets in the folded text are offsets in the original."""
    return s.lower() if s.isascii() else "".join(map(_fold_char, s))


_NON_DIGITS = re.compile(r"(\D+)")
_ID_SEPARATORS = re.compile(r"([\s\-./]+)")


class Squeezed:
    """A text without some characters, and the way back to the original offsets (all made in C)."""

    def __init__(self, source: str, removed: re.Pattern[str]) -> None:
        """``removed``: runs of the characters left out, as one capturing group."""
        bits = removed.split(source)  # kept, removed, kept, ..., kept
        self.runs: list[str] = bits[::2]
        self.starts = [0, *list(accumulate(map(len, bits)))[1::2]]
        """Where each of ``runs`` starts in the original."""
        self.text = "".join(self.runs)
        self._offsets = [0, *accumulate(map(len, self.runs))]

    def find_all(self, key: str) -> list[int]:
        """The original offsets where ``key`` starts here, overlapping occurrences included."""
        out: list[int] = []
        k = self.text.find(key)
        while k >= 0:
            i = bisect_right(self._offsets, k) - 1
            out.append(self.starts[i] + k - self._offsets[i])
            k = self.text.find(key, k + 1)
        return out


class NoteView:
    """The text, its folded form and, made on first use, the forms numbers are looked up in."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.folded = fold(text)
        self.word_starts: dict[str, list[int]] = {}
        """Folded keys of the matcher's automaton -> where they start a word, set by the matcher."""
        self._found: dict[tuple[str, str], list[int]] = {}

    def find(self, how: str, key: str) -> list[int]:
        """Where ``key`` occurs, looked up ``how`` (a ``Variant.lookup_keys``): "folded" at the start of
        a word, "exact", "runs" (a whole digit run), or "digits" and "ids" (in that squeezed view)."""
        found = self._found.get((how, key))
        if found is None:
            if how == "folded":
                found = self.word_starts.get(key, [])
            elif how == "exact":
                found, at = [], self.text.find(key)
                while at >= 0:
                    found.append(at)
                    at = self.text.find(key, at + 1)
            else:
                found = self.runs.get(key, []) if how == "runs" else getattr(self, how).find_all(key)
            self._found[how, key] = found
        return found

    @cached_property
    def digits(self) -> Squeezed:
        return Squeezed(self.text, _NON_DIGITS)

    @cached_property
    def ids(self) -> Squeezed:
        r"""Without ``[\s\-./]``: an identifier may have one of them between any two characters."""
        return Squeezed(self.folded, _ID_SEPARATORS)

    @cached_property
    def runs(self) -> dict[str, list[int]]:
        """Each maximal run of digits -> where it starts (a date's numbers are whole runs)."""
        runs: dict[str, list[int]] = {}
        for run, start in zip(self.digits.runs, self.digits.starts, strict=True):
            if run:
                runs.setdefault(run, []).append(start)
        return runs


# --- spellings -------------------------------------------------------------------------------------------

Guard = Callable[[str, int], object]
"""``guard(text, pos)``, truthy where the characters around ``pos`` allow a match to start or end there; the
fixed ones are the bound ``match`` of a compiled lookaround."""
WORD_BEFORE: Guard = re.compile(r"(?<!\w)").match
WORD_AFTER: Guard = re.compile(r"(?!\w)").match
ANYWHERE: Guard = re.compile("").match
SPACES = re.compile(r"\s+")
TOKEN_SEPARATORS = re.compile(r"(['’]|-|\s+)")
_TOKEN_GAPS = {"'": re.compile(r"['’]"), "’": re.compile(r"['’]"), "-": re.compile(r"-?\s*")}
"""Inside a name token: either apostrophe; a hyphen optional, or spaces ("Garcia-" at a line's end)."""
HEAD_MAX = 4
"""The longest prefix a ``Variant.head`` takes ("+1-(" before a phone's area code)."""

# Part and Variant are named tuples rather than frozen dataclasses: a stream where every note has a new
# patient makes ~100 of them per note, and a frozen dataclass takes several times as long to make.


class Part(NamedTuple):
    """One token of a variant."""

    alts: tuple[str, ...]
    """Its spellings, tried in order; folded unless ``exact``."""
    exact: bool = False
    gap: re.Pattern[str] | None = None
    """What separates it from the next part (matched on the folded text); None: nothing."""


class Variant(NamedTuple):
    parts: tuple[Part, ...]
    type: PhiType
    explanation: str
    """``header=<field>``: names the field, never a value."""
    weight: int
    """Rank: the longest canonical spelling wins at a start, then the first value to spell it."""
    before: Guard = WORD_BEFORE
    after: Guard = WORD_AFTER
    tail: re.Pattern[str] | None = None
    """Optional text taken after the last part if ``after`` still holds then ("Smith, J.")."""
    head: re.Pattern[str] | None = None
    """Optional text before the first part, up to ``HEAD_MAX`` characters ("+1 (617) ...")."""
    lookup: str = "word"
    """How a note is searched for it: "word" (the first part's spellings), "runs" (the first part's
    spellings as whole digit runs), "digits" or "ids" (``key`` in that squeezed view)."""
    key: str = ""
    lead: int = 0
    """Its first part starts up to this many characters before where ``key`` is found."""
    derived: bool = False
    """A guess beyond the header's own spellings (a nickname): ranks after those of equal weight."""

    @property
    def spelling(self) -> tuple[object, ...]:
        """What two values producing the same variant share (type, explanation and weight aside)."""
        return (self.parts, self.before, self.after, self.tail, self.head)

    @property
    def lookup_keys(self) -> tuple[str, tuple[str, ...], int]:
        """``(how, keys, lead)``: the ``lookup`` ("word" as "folded" or "exact"), what the note is searched
        for to find where the first part may start, and how far before it."""
        first = self.parts[0]
        if self.lookup != "word":
            return self.lookup, (self.key,) if self.key else first.alts, self.lead
        return "exact" if first.exact else "folded", first.alts, 0

    def end_at(self, text: str, folded: str, start: int, at: int) -> int | None:
        """The end of its match from ``start`` whose first part is at ``at`` (``start`` is ``at`` unless a
        head comes between), or None."""
        if not self.before(text, start) or (
            self.head is not None and not self.head.fullmatch(text, start, at)
        ):
            return None
        end = self._end(text, folded, at)
        return end if end is not None and end > start else None

    def _end(self, text: str, folded: str, pos: int) -> int | None:
        last = len(self.parts) - 1
        for i, part in enumerate(self.parts):
            hay = text if part.exact else folded
            nxt: int | None = None
            for alt in part.alts:
                if hay.startswith(alt, pos):
                    end = pos + len(alt)
                    if i == last:
                        nxt = self._finish(text, end)
                    elif part.gap is None:
                        nxt = end
                    elif m := part.gap.match(folded, end):
                        nxt = m.end()
                    if nxt is not None:
                        break
            if nxt is None:
                return None
            pos = nxt
        return pos

    def _finish(self, text: str, end: int) -> int | None:
        if self.tail is not None and (m := self.tail.match(text, end)) and self.after(text, m.end()):
            return m.end()
        return end if self.after(text, end) else None


def is_word_char(c: str) -> bool:
    return c.isalnum() or c == "_"


def is_weak(token: str) -> bool:
    """Tokens that match only title-cased when alone: common words and very short tokens."""
    return len(token) <= 2 or token.lower() in COMMON_WORD_NAMES


_TITLE_PART = re.compile(r"[^\s-]+")


def title(token: str) -> str:
    return _TITLE_PART.sub(lambda m: m.group()[:1].upper() + m.group()[1:].lower(), token)


def joined(alts: Iterable[tuple[str, ...]], gap: re.Pattern[str], exact: bool = False) -> tuple[Part, ...]:
    """One part per entry of ``alts``, with ``gap`` between them."""
    alts = list(alts)
    return tuple(Part(a, exact, gap if k < len(alts) - 1 else None) for k, a in enumerate(alts))


@lru_cache(maxsize=8192)
def token_parts(token: str, exact: bool, gap: re.Pattern[str] | None = None) -> tuple[Part, ...]:
    """A name or place token, title-cased when ``exact``; ``gap`` follows its last part."""
    bits = TOKEN_SEPARATORS.split(title(token) if exact else fold(token))
    seps = [_TOKEN_GAPS.get(sep, SPACES) for sep in bits[1::2]]
    return tuple(Part((bit,), exact, g) for bit, g in zip(bits[::2], [*seps, gap], strict=True))
