"""The Detector seam and the Presidio-style pattern machinery that rule detectors are built from."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from schemas import EnrichedNote, PhiType, Span


@runtime_checkable
class Detector(Protocol):
    """Finds PHI spans in one note. Must be pure: same note in, same spans out, no I/O."""

    name: str

    def detect(self, note: EnrichedNote) -> list[Span]: ...


Validator = Callable[[str, re.Match[str]], bool]
"""``validate(text, match) -> keep?``: rejects look-alikes a regex alone cannot (invalid SSN ranges, ...)."""

TypeResolver = Callable[[str, re.Match[str]], PhiType | None]
"""``resolve(text, match) -> type``: for patterns whose subtype depends on context (phone vs fax)."""


@dataclass(frozen=True, slots=True)
class Pattern:
    """One regular expression for one PHI subtype.

    ``group`` selects the part of the match that is PHI (so a pattern can require the context word
    ``MRN:`` but only tag the number). When ``context`` is non-empty and ``context_required`` is set,
    the match is kept only if one of the context words occurs within ``context_window`` characters
    before it (case-insensitive, whole words).
    """

    name: str
    regex: str
    type: PhiType
    score: float = 0.85
    group: int | str = 0
    flags: int = re.IGNORECASE
    context: tuple[str, ...] = ()
    context_required: bool = False
    context_window: int = 40
    validate: Validator | None = None
    resolve_type: TypeResolver | None = None
    compiled: re.Pattern[str] = field(init=False, repr=False, compare=False)
    _context_re: re.Pattern[str] | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "compiled", re.compile(self.regex, self.flags))
        ctx = None
        if self.context:
            words = "|".join(re.escape(w) for w in sorted(self.context, key=len, reverse=True))
            ctx = re.compile(rf"(?<![A-Za-z0-9])(?:{words})(?![A-Za-z0-9])", re.IGNORECASE)
        object.__setattr__(self, "_context_re", ctx)

    def has_context(self, text: str, start: int) -> bool:
        if self._context_re is None:
            return False
        return self._context_re.search(text, max(0, start - self.context_window), start) is not None

    def find(self, text: str, source: str) -> list[Span]:
        spans: list[Span] = []
        for m in self.compiled.finditer(text):
            start, end = m.span(self.group)
            if start < 0 or start == end:
                continue
            if self.context_required and not self.has_context(text, m.start()):
                continue
            if self.validate is not None and not self.validate(text, m):
                continue
            type_ = self.type
            if self.resolve_type is not None:
                resolved = self.resolve_type(text, m)
                if resolved is None:
                    continue
                type_ = resolved
            spans.append(Span(start, end, type_, self.score, frozenset({source}), f"pattern={self.name}"))
        return spans


@dataclass(frozen=True, slots=True)
class PatternDetector:
    """A detector made of an explicit list of patterns (no subclass scanning, no registry magic)."""

    name: str
    patterns: Sequence[Pattern]

    def detect(self, note: EnrichedNote) -> list[Span]:
        text = note.text
        spans: list[Span] = []
        for pattern in self.patterns:
            spans.extend(pattern.find(text, self.name))
        return spans
