"""The Detector seam and the Presidio-style pattern machinery that rule detectors are built from."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
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

Explainer = Callable[[str, re.Match[str]], str]
"""``explain(text, match) -> extra``: appended to the span explanation (e.g. ``age>=90``); "" adds nothing."""

Locator = Callable[[str, re.Match[str]], tuple[int, int] | None]
"""``locate(text, match) -> (start, end) | None``: the PHI span of a match when it is not a group, e.g. an
e-mail whose regex starts at the ``@`` (fast to scan for) and whose local part is found by looking back."""

ExtraSpans = Callable[[str, re.Match[str]], Iterable[tuple[int, int, PhiType]]]
"""``extra(text, match) -> [(start, end, type)]``: more spans found around one match (the city before ``MA 02114``)."""


@dataclass(frozen=True, slots=True)
class Pattern:
    """One regular expression for one PHI subtype.

    ``group`` selects the part of the match that is PHI (so a pattern can require the context word
    ``MRN:`` but only tag the number). When ``context`` is non-empty and ``context_required`` is set,
    the match is kept only if one of the context words occurs within ``context_window`` characters
    before it (case-insensitive, whole words).

    ``extra_groups`` lets one match emit more spans, one per named/numbered group that took part in
    the match (e.g. ``City, ST 02114`` -> CITY, STATE, ZIP), each with its own subtype, after the same
    context/validate checks; ``extra_spans`` does the same from code. ``explain`` adds a detail to every
    span's explanation. ``locate`` replaces ``group`` when the span must be computed. ``gate`` is a speed hint: lower-case substrings one of which every match contains;
    when none occurs in the note the regex is not run at all.
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
    extra_groups: tuple[tuple[int | str, PhiType], ...] = ()
    explain: Explainer | None = None
    extra_spans: ExtraSpans | None = None
    locate: Locator | None = None
    gate: tuple[str, ...] = ()
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

    def gated_out(self, lowered: str) -> bool:
        """True if the gate rules out any match in a note whose ``str.lower()`` is ``lowered``."""
        return bool(self.gate) and not any(g in lowered for g in self.gate)

    def find(self, text: str, source: str, lowered: str | None = None) -> list[Span]:
        if self.gate and self.gated_out(text.lower() if lowered is None else lowered):
            return []
        spans: list[Span] = []
        for m in self.compiled.finditer(text):
            if self.locate is not None:
                located = self.locate(text, m)
                if located is None:
                    continue
                start, end = located
            else:
                start, end = m.span(self.group)
            if start < 0 or start >= end:
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
            why = f"pattern={self.name}"
            if self.explain is not None:
                extra = self.explain(text, m)
                if extra:
                    why = f"{why};{extra}"
            sources = frozenset({source})
            spans.append(Span(start, end, type_, self.score, sources, why))
            for group, group_type in self.extra_groups:
                g_start, g_end = m.span(group)
                if g_start >= 0 and g_start < g_end:
                    spans.append(Span(g_start, g_end, group_type, self.score, sources, f"{why};group={group}"))
            if self.extra_spans is not None:
                for x_start, x_end, x_type in self.extra_spans(text, m):
                    spans.append(Span(x_start, x_end, x_type, self.score, sources, f"{why};extra"))
        return spans


@dataclass(frozen=True, slots=True)
class PatternDetector:
    """A detector made of an explicit list of patterns (no subclass scanning, no registry magic)."""

    name: str
    patterns: Sequence[Pattern]

    def detect(self, note: EnrichedNote) -> list[Span]:
        text = note.text
        # Gates compare lower-cased substrings; a lower() that changes length is still fine for them
        # because gates only decide whether to run a regex on the original text.
        lowered = text.lower()
        spans: list[Span] = []
        for pattern in self.patterns:
            spans.extend(pattern.find(text, self.name, lowered))
        return spans
