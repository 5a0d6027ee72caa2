"""Put surrogates into the original text."""

from __future__ import annotations

from collections.abc import Sequence

from schemas import Span


def render(text: str, replacements: Sequence[tuple[Span, str]]) -> str:
    """Replace each span's text with its surrogate, right to left; every other character is kept exactly.

    Spans may come in any order but must not overlap and must lie inside ``text``.
    """
    ordered = sorted(replacements, key=lambda r: r[0].start, reverse=True)
    pieces: list[str] = []
    cursor = len(text)
    for span, surrogate in ordered:
        if span.end > cursor:
            raise ValueError(f"span {span.start}:{span.end} overlaps another or lies outside the text")
        pieces.append(text[span.end : cursor])
        pieces.append(surrogate)
        cursor = span.start
    pieces.append(text[:cursor])
    return "".join(reversed(pieces))
