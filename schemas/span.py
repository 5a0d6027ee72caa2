"""A detected PHI span: immutable, typed, carrying where it came from."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from schemas.phi import PhiType


@dataclass(frozen=True, slots=True, order=True)
class Span:
    """``text[start:end]`` is PHI of subtype ``type``.

    Offsets are Python ``str`` offsets (code points), end exclusive. ``sources`` names the detectors
    that found it (``rules``, ``header``, ``tagger``); ``explanation`` says why (pattern name,
    context word, header field) and is for humans debugging a detector, never logged with the text.
    """

    start: int
    end: int
    type: PhiType = field(compare=False)
    score: float = field(default=1.0, compare=False)
    sources: frozenset[str] = field(default=frozenset(), compare=False)
    explanation: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if not 0 <= self.start < self.end:
            raise ValueError(f"invalid span offsets {self.start}:{self.end}")
        if not 0.0 <= self.score <= 1.0:
            raise ValueError(f"span score {self.score} outside [0, 1]")

    def __len__(self) -> int:
        return self.end - self.start

    def overlaps(self, other: Span) -> bool:
        return self.start < other.end and other.start < self.end

    def with_type(self, type_: PhiType) -> Span:
        return replace(self, type=type_)

    def to_json(self) -> dict[str, object]:
        return {"start": self.start, "end": self.end, "type": self.type.value}
